; dossmc.asm -- a DOS .COM that rewrites the instruction it is about to
; run, forever: each pass stores the next value into the immediate byte of
; the `mov bl, imm8` two instructions ahead, inside the same translation
; block, so the emulator must throw the translated block away and
; translate it again on every pass.
; output: dossmc.com
; no-walk-expectation: a budget test (self-modifying code under --max-insns), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It never ends by itself: under --max-insns N the run must stop when the
; N instructions are spent (exit 122), and the machine's memory must stay
; bounded however long it runs.

        bits 16
        org 0x100

again:
        mov [patch + 1], al             ; rewrite the immediate below
        inc al
patch:
        mov bl, 0
        jmp short again
