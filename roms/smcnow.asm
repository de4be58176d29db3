; smcnow.asm -- a DOS .COM checking that code rewritten by a store runs
; as rewritten at once: the next instruction fetched after the store sees
; it, inside the same translation block and with no jump in between
; (what QEMU and DOSBox do, and a Pentium's self-modifying-code
; detection; an 8086's prefetch queue could still hold the old bytes),
; and that it keeps doing so once the engine runs the rewritten
; instructions as blocks of their own (vendor/README.md, patch 0010).
; output: smcnow.com
; no-walk-expectation: an emulation test (self-modifying code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints one line, each field a check (hex, or P/F):
;   1  `mov byte [n1+1], 42h` right before `n1: mov al, 0`: AL = 42
;   2  300 passes of `mov [n2+2], cl` then `n2: add bl, 0` (CL = the
;      low byte of the LOOP count 300..1): BL = sum of (k mod 256) for
;      k = 1..300, mod 256 = 33630 mod 256 = 5E (the first pass's
;      immediate kept would give 300 * 2Ch mod 256 = 90)
;   3  `n3: add byte [n3+4], 1` run 5 times: it adds its own immediate
;      to itself, 1 -> 2 -> 4 -> 8 -> 16 -> 32: the byte ends 20 (a
;      stale immediate of 1 would leave 06)
;   4  `rep stosb` of two NOPs over the `jmp short fail` right after it:
;      the NOPs run, P (F when the jump ran)
;   5  100 passes rewriting the displacement of a `jmp short` to go to
;      `to_a` on even passes and `to_b` on odd ones: 50 (32h) arrivals
;      at to_a (a stale jump would give 64h or 0)
;   6  the sector-copy idiom: 64 bytes of code copied over themselves
;      (the same bytes) 1000 times by the code among them: then the
;      copied function returns its immediate, 66
;
; expected output: "42 5E 20 P 32 66" CR LF; exit code 0

        bits 16
        cpu 186
        org 0x100

start:
        ; ---- 1 ----
        mov byte [n1 + 1], 0x42
n1:     mov al, 0
        call put_hex2

        ; ---- 2 ----
        xor bx, bx
        mov cx, 300
l2:     mov [n2 + 2], cl
n2:     add bl, 0
        loop l2
        mov al, bl
        call put_hex2

        ; ---- 3 ----
        mov cx, 5
l3:
n3:     add byte [n3 + 4], 1
        loop l3
        mov al, [n3 + 4]
        call put_hex2

        ; ---- 4 ----
        mov di, n4
        mov cx, 2
        mov al, 0x90
        rep stosb
n4:     jmp short fail4
        mov dl, 'P'
        jmp short done4
fail4:  mov dl, 'F'
done4:  call put_char
        call put_space

        ; ---- 5 ----
        xor si, si                      ; arrivals at to_a
        mov cx, 100
l5:     mov al, to_a - (n5 + 2)
        test cl, 1
        jz .even
        mov al, to_b - (n5 + 2)
.even:  mov [n5 + 1], al
n5:     jmp short to_b
to_a:   inc si
to_b:   loop l5
        mov ax, si
        call put_hex2

        ; ---- 6 ----
        mov bx, 1000
l6:     mov si, block6
        mov di, si
        mov cx, block6_end - block6
        rep movsb
        dec bx
        jnz l6
        call fn6
        call put_hex2_last

        mov ax, 0x4C00
        int 0x21

block6:
fn6:    mov al, 0x66
        ret
        times 64 - ($ - block6) db 0x90
block6_end:

; AL as two hex digits and a space (put_hex2) or CR LF (put_hex2_last).
put_hex2:
        call hex2
put_space:
        mov dl, ' '
        jmp short put_char
put_hex2_last:
        call hex2
        mov dl, 13
        call put_char
        mov dl, 10
put_char:
        push ax
        mov ah, 2
        int 0x21
        pop ax
        ret

hex2:
        push ax
        shr al, 4
        call hex1
        pop ax
hex1:
        push ax
        and al, 0x0F
        add al, '0'
        cmp al, '9'
        jbe .d
        add al, 'A' - '9' - 1
.d:     mov dl, al
        call put_char
        pop ax
        ret
