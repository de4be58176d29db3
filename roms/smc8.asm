; smc8.asm -- an 8-byte DOS .COM that rewrites the instruction it runs
; next, forever: each pass increments the immediate of the `mov bl, imm8`
; that follows the store, in the same translation block, then jumps back.
; output: smc8.com
; no-walk-expectation: a budget test (self-modifying code under --max-insns), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It never ends by itself: under --max-insns N the run stops when the N
; instructions are spent (exit 122), in about N microseconds at most
; (vendor/README.md, patch 0010; `toolhelp16 bench` measures it).

        bits 16
        org 0x100

again:
        inc byte [patch + 1]            ; the immediate of the next instruction
patch:
        mov bl, 0
        jmp short again
