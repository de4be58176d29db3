; dosenv.asm -- a DOS .COM that prints what DOS handed it: the command
; tail, the environment strings, the program path after the environment
; and the DOS version.
; output: dosenv.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Output, in this order (every line ends CR LF):
;   1. "[" + the command tail + "]": the bytes at PSP:81h, at most the
;      length byte at PSP:80h of them, stopping early at a 0Dh.  DOS keeps
;      the separator, so "dosenv.com a b" gives "[ a b]"; no tail gives "[]".
;   2. every environment string (segment at PSP:2Ch), one per line, as
;      stored ("NAME=VALUE"), until the empty string.  The block is
;      "S1" 0 "S2" 0 ... 0, then the word 0001 and the ASCIZ program path;
;      an empty environment is 0, 01 00, path.
;   3. "program " + that path, if the word is 0001; otherwise
;      "program count XXXX" (the word in hex) and no path.
;      (An environment segment of 0 prints "no environment" instead of 2
;      and 3.)
;   4. "DOS " + AL + "." + AH of INT 21h AH=30h, both in decimal
;      (DOS 5: "DOS 5.0").
; Then INT 21h AH=4Ch, exit code 0.  It creates no files.
;
; expected output, with tail " alpha beta", environment PATH=C:\ and
; COMSPEC=C:\COMMAND.COM, program C:\DOSENV.COM, DOS 5.0:
;   [ alpha beta]
;   PATH=C:\
;   COMSPEC=C:\COMMAND.COM
;   program C:\DOSENV.COM
;   DOS 5.0
; expected exit code: 0

        bits 16
        cpu 186
        org 0x100

start:
        cld
        ; ---- the command tail, between brackets
        mov dl, '['
        call put_char
        mov si, 0x81
        xor cx, cx
        mov cl, [0x80]                  ; the length byte
        jcxz .tail_done
.tail:
        mov dl, [si]
        inc si
        cmp dl, 13
        je .tail_done
        call put_char
        loop .tail
.tail_done:
        mov dl, ']'
        call put_char
        call put_crlf

        ; ---- the environment strings
        mov ax, [0x2C]
        or ax, ax
        jnz .have_env
        mov dx, s_no_env
        call put_str
        jmp short .version
.have_env:
        mov es, ax
        xor si, si
.string:
        cmp byte [es:si], 0
        je .strings_done
        call put_asciz                  ; SI moves past the zero
        call put_crlf
        jmp short .string
.strings_done:
        inc si                          ; past the terminating empty string
        mov dx, s_program
        call put_str
        mov ax, [es:si]                 ; the count of strings after it
        add si, 2
        cmp ax, 1
        jne .odd_count
        call put_asciz                  ; the program's path
        call put_crlf
        jmp short .version
.odd_count:
        mov dx, s_count
        call put_str
        call put_hex4
        call put_crlf

        ; ---- the DOS version
.version:
        mov ah, 0x30
        int 0x21
        mov dx, s_dos
        call put_str
        push ax
        xor ah, ah                      ; AL = major
        call put_dec
        mov dl, '.'
        call put_char
        pop ax
        mov al, ah                      ; AH = minor
        xor ah, ah
        call put_dec
        call put_crlf

        mov ax, 0x4C00
        int 0x21

%include "inc/dosio.inc"

s_no_env:       db 'no environment', 13, 10, '$'
s_program:      db 'program $'
s_count:        db 'count $'
s_dos:          db 'DOS $'
