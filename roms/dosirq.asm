; dosirq.asm -- a DOS .COM that takes the PC's hardware interrupts as a
; game or a TSR does: it hooks the timer's user hook (INT 1Ch) and the
; keyboard interrupt (INT 09h), reads the scan codes at port 60h in its own
; handler and chains to the BIOS, then waits for a key with INT 16h.
; output: dosirq.com
; no-walk-expectation: a DOS behaviour test (hardware interrupts, keyboard), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Steps:
;   1. save and replace the vectors 1Ch and 09h (INT 21h AH=35h/25h);
;   2. STI, then wait until the INT 1Ch handler has counted 3 ticks;
;   3. poll INT 16h AH=01h until a key is there, read it with AH=00h;
;   4. wait one more tick, so the key's break code has arrived too;
;   5. restore both vectors and print one line:
;        "ticks NNNN make XXXX break XXXX key C" CR LF
;      NNNN: ticks counted at step 2 (decimal, 3 when the handler ran);
;      make/break: the first byte below / at or above 80h that the INT 09h
;      handler read from port 60h (hex; 0000 when none came);
;      C: the key's ASCII character.
;   6. exit with the key's ASCII code (INT 21h AH=4Ch).
;
; expected with --keys q: "ticks 3 make 0010 break 0090 key q", exit 113.
; With no key the program polls forever (the run's budget ends it).

        org 0x100

start:
        mov ax, 0x351C
        int 0x21
        mov [old1c], bx
        mov [old1c+2], es
        mov ax, 0x3509
        int 0x21
        mov [old09], bx
        mov [old09+2], es
        mov dx, on_tick
        mov ax, 0x251C
        int 0x21
        mov dx, on_key
        mov ax, 0x2509
        int 0x21
        sti

.ticks: cmp word [ticks], 3
        jb .ticks
        mov ax, [ticks]
        mov [seen], ax

.poll:  mov ah, 0x01
        int 0x16
        jz .poll
        mov ah, 0x00
        int 0x16
        mov [key], al

        mov ax, [ticks]
.more:  cmp ax, [ticks]
        je .more

        push ds
        lds dx, [old1c]
        mov ax, 0x251C
        int 0x21
        pop ds
        push ds
        lds dx, [old09]
        mov ax, 0x2509
        int 0x21
        pop ds

        mov dx, s_ticks
        call put_str
        mov ax, [seen]
        call put_dec
        mov dx, s_make
        call put_str
        mov al, [make]
        xor ah, ah
        call put_hex4
        mov dx, s_break
        call put_str
        mov al, [break]
        xor ah, ah
        call put_hex4
        mov dx, s_key
        call put_str
        mov dl, [key]
        call put_char
        call put_crlf
        mov al, [key]
        mov ah, 0x4C
        int 0x21

; INT 1Ch: count, then chain to the previous handler.
on_tick:
        inc word [cs:ticks]
        jmp far [cs:old1c]

; INT 09h: remember the first make and break codes, then let the BIOS
; store the key.
on_key:
        push ax
        in al, 0x60
        test al, 0x80
        jnz .brk
        cmp byte [cs:make], 0
        jne .out
        mov [cs:make], al
        jmp .out
.brk:   cmp byte [cs:break], 0
        jne .out
        mov [cs:break], al
.out:   pop ax
        jmp far [cs:old09]

%include "inc/dosio.inc"

old1c:  dd 0
old09:  dd 0
ticks:  dw 0
seen:   dw 0
make:   db 0
break:  db 0
key:    db 0
s_ticks: db "ticks $"
s_make:  db " make $"
s_break: db " break $"
s_key:   db " key $"
