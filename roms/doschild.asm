; doschild.asm -- the child that dosexec.com starts with INT 21h AX=4B00h.
; output: doschild.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Prints "child tail=[TAIL]" (its command tail from PSP:80h), "child
; parent=XXXX" (PSP:16h), "child name=NAME" (the program name after its
; environment's strings) and exits with code 7 through AH=4Ch.

        bits 16
        cpu 186
        org 0x100

start:
        mov dx, s_tail
        call put_str
        mov cl, [0x80]
        xor ch, ch
        mov si, 0x81
.t:     jcxz .td
        mov dl, [si]
        call put_char
        inc si
        dec cx
        jmp short .t
.td:    mov dl, ']'
        call put_char
        call put_crlf
        mov dx, s_parent
        call put_str
        mov ax, [0x16]
        call put_hex4
        call put_crlf
        mov dx, s_name
        call put_str
        mov es, [0x2C]
        xor si, si
.env:   cmp word [es:si], 0             ; the empty string ends them
        je .found
        inc si
        jmp short .env
.found: add si, 4                       ; the two NULs... and the word 1
        call put_asciz
        call put_crlf
        mov ax, 0x4C07
        int 0x21

s_tail   db "child tail=[$"
s_parent db "child parent=$"
s_name   db "child name=$"

%include "inc/dosio.inc"
