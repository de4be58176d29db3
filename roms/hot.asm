; hot.asm -- a DOS .COM with one hot and one cold function, for the
; sampling profiler (`toolhelp16 profile`).
; output: hot.com
; no-walk-expectation: a profiling scenario; tests/trace.rs checks that the profile gives Hot its share of the instructions
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; main calls Hot (psp:0200), which counts CX down from 30000, then Cold
; (psp:0300), which counts down from 10000; each round is `dec cx; jnz`,
; two instructions. Of the ~80,000 instructions the program executes,
; Hot runs 60,002 (75%) and Cold 20,002 (25%); main, the start-up code and
; the exit take a dozen.

        org 0x100

start:
        call main
        mov ax, 0x4C00
        int 0x21

main:
        push bp
        mov bp, sp
        call Hot
        call Cold
        pop bp
        ret

        times (0x200 - 0x100) - ($ - $$) db 0x90
Hot:                                    ; psp:0200
        mov cx, 30000
.round:
        dec cx
        jnz .round
        ret

        times (0x300 - 0x100) - ($ - $$) db 0x90
Cold:                                   ; psp:0300
        mov cx, 10000
.round:
        dec cx
        jnz .round
        ret
