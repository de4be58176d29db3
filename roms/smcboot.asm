; smcboot.asm -- a boot sector (512 bytes, ends 55 AA) that copies code
; over itself, forever: each pass copies the whole sector over itself
; (the same bytes, the copying code included), then copies one of two
; routines, alternately, over the routine it calls, and calls it.
; output: smcboot.img
; no-walk-expectation: a budget test (code copied over code under --max-insns), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It never ends by itself: under --max-insns N the run stops when the N
; instructions are spent (exit 122).

        bits 16
        cpu 186
        org 0x7C00

start:
        xor ax, ax
        mov ds, ax
        mov es, ax
        cld
again:
        mov si, 0x7C00                  ; the sector over itself
        mov di, si
        mov cx, 256
        rep movsw
        mov si, routine_a               ; a routine over `slot`
        test bl, 1
        jz .copy
        mov si, routine_b
.copy:
        mov di, slot
        mov cx, ROUTINE_LEN
        rep movsb
        call slot
        inc bx
        jmp short again

slot:                                   ; starts as a copy of routine_a
        add dx, 3
        xor ax, dx
        rol ax, 1
        ret
routine_a:
        add dx, 3
        xor ax, dx
        rol ax, 1
        ret
routine_b:
        sub dx, 1
        xor ax, dx
        ror ax, 1
        ret
routine_end:

ROUTINE_LEN equ routine_b - routine_a
%if routine_end - routine_b != ROUTINE_LEN || routine_a - slot != ROUTINE_LEN
%error "the routines must be the same length"
%endif

        times 510 - ($ - $$) db 0
        dw 0xAA55
