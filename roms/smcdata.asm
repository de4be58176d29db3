; smcdata.asm -- an 8-byte DOS .COM whose loop stores into its own code's
; page on every pass: a variable right after the code, the common DOS
; layout (code, data and stack in one segment).
; output: smcdata.com
; no-walk-expectation: a budget test (stores next to code under --max-insns), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It never ends by itself: under --max-insns N the run stops when the N
; instructions are spent (exit 122).

        bits 16
        org 0x100

again:
        mov [var], ax                   ; data in the page of the code
        inc ax
        jmp short again
var:    dw 0
