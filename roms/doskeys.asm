; doskeys.asm -- a DOS .COM that reads the console through every INT 21h
; input function, for `--keys` (standard input is the console's keyboard).
; output: doskeys.com
; no-walk-expectation: a DOS behaviour test (console input), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Each step prints a label, then what the call returned, then CR LF:
;   "0B XX"       AH=0Bh input status (AL) before anything is read
;   "01 XX"       AH=01h read with echo (the key is echoed before XX)
;   "08 XX"       AH=08h read without echo
;   "07 XX YY"    AH=07h twice: an extended key reads 00h, then its scan
;   "06 XX Z"     AH=06h DL=FFh: AL and ZF (1: nothing was there)
;   "0A NN text"  AH=0Ah into a 16-byte buffer: the count, then the text
;   "0C XX"       AH=0Ch AL=08h: flush, then read without echo
;   "3F NNNN text" AH=3Fh on handle 0, CX = 64: the count and the bytes
;   "06 XX Z"     AH=06h DL=FFh again, with the keys used up: 00 1
;   "0B XX"       AH=0Bh again: 00
; then AH=01h once more, which waits for a key: with the script used up
; the run stops there (exit 126).
;
; expected output for --keys 'a{esc}{f1}xab{bs}c\rYhi\r' (every line
; ends CR LF; the echo DOS makes of the keys is part of the output):
;   0B FF                 a key is waiting
;   a01 61                'a', echoed by 01h
;   08 1B                 Esc, not echoed
;   07 00 3B              F1: 00h, then its scan code 3Bh
;   06 78 0               'x', ZF clear
;   ab BS SP BS c CR 0A 02 ac
;                         0Ah echoes as it reads, takes back 'b' (BS,
;                         space, BS) and echoes the CR alone
;   0C 59                 'Y'
;   hi CR LF 3F 0004 hi^M^J
;                         the console hands out a whole line and CR LF
;   06 00 1               nothing left: ZF set
;   0B 00
; expected exit code: none: the last 01h waits for a key the script does
; not have, and the run stops there (exit 126)

        bits 16
        cpu 186
        org 0x100

start:
        mov ah, 0x0B
        int 0x21
        mov dx, s_0b
        call show_al

        mov ah, 0x01
        int 0x21
        mov dx, s_01
        call show_al

        mov ah, 0x08
        int 0x21
        mov dx, s_08
        call show_al

        mov ah, 0x07
        int 0x21
        mov bl, al
        mov ah, 0x07
        int 0x21
        mov bh, al
        mov dx, s_07
        call put_str
        mov al, bl
        call put_hex2
        mov dl, ' '
        call put_char
        mov al, bh
        call put_hex2
        call put_crlf

        call direct                     ; 06h with a key there

        mov byte [line], 16
        mov dx, line
        mov ah, 0x0A
        int 0x21
        mov dx, s_0a
        call put_str
        mov al, [line + 1]
        call put_hex2
        mov dl, ' '
        call put_char
        xor ch, ch
        mov cl, [line + 1]
        mov si, line + 2
        call put_bytes
        call put_crlf

        mov ax, 0x0C08
        int 0x21
        mov dx, s_0c
        call show_al

        mov ah, 0x3F
        xor bx, bx
        mov cx, 64
        mov dx, buffer
        int 0x21
        mov dx, s_3f
        call put_str
        call put_hex4
        mov dl, ' '
        call put_char
        mov cx, ax
        mov si, buffer
        call put_bytes
        call put_crlf

        call direct                     ; 06h with the keys used up
        mov ah, 0x0B
        int 0x21
        mov dx, s_0b
        call show_al

        mov ah, 0x01                    ; waits: the run stops here
        int 0x21
        mov ax, 0x4C00
        int 0x21

; direct: AH=06h DL=FFh; print "06 XX Z".
direct:
        mov ah, 0x06
        mov dl, 0xFF
        int 0x21
        pushf
        mov dx, s_06
        call put_str
        call put_hex2
        mov dl, ' '
        call put_char
        popf
        mov dl, '0'
        jnz .shown
        mov dl, '1'
.shown:
        call put_char
        call put_crlf
        ret

; show_al: print the string at DX, AL in hex, CR LF.
show_al:
        call put_str
        call put_hex2
        call put_crlf
        ret

; put_hex2: print AL as two hex digits.
put_hex2:
        push ax
        xor ah, ah
        push cx
        push dx
        mov cx, 2
        rol ax, 8
.digit:
        rol ax, 4
        mov dl, al
        and dl, 0x0F
        add dl, '0'
        cmp dl, '9'
        jbe .emit
        add dl, 'A' - '9' - 1
.emit:
        call put_char
        loop .digit
        pop dx
        pop cx
        pop ax
        ret

; put_bytes: print CX bytes at DS:SI, a control character as '^' and
; its letter.
put_bytes:
        jcxz .done
.next:
        lodsb
        mov dl, al
        cmp dl, 0x20
        jae .plain
        push dx
        mov dl, '^'
        call put_char
        pop dx
        add dl, 0x40
.plain:
        call put_char
        loop .next
.done:
        ret

%include "inc/dosio.inc"

s_0b:   db '0B $'
s_01:   db '01 $'
s_08:   db '08 $'
s_07:   db '07 $'
s_06:   db '06 $'
s_0a:   db '0A $'
s_0c:   db '0C $'
s_3f:   db '3F $'

image_end:
        absolute image_end
line:   resb 20
buffer: resb 64
