; dosread.asm -- a DOS .COM that reads standard input to its end and counts
; the bytes and the lines.
; output: dosread.com
; no-walk-expectation: a DOS behaviour test (stdin, console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Loop: INT 21h AH=3Fh, BX = 0 (stdin), CX = 128, into a 128-byte buffer,
; until a read returns 0 bytes.  Counts every byte read and every 0Ah
; byte (16-bit counters; they wrap past FFFF).  Then prints
;   "bytes=NNNN lines=NNNN" CR LF      (NNNN = 4 upper-case hex digits)
; and exits with code 0.  A read that fails prints "read error XXXX"
; CR LF (XXXX = AX) and exits with code 1.  It creates no files.
;
; expected output for the 12-byte stdin "one\ntwo\nsix\n":
;   bytes=000C lines=0003
; for an empty stdin:
;   bytes=0000 lines=0000
; expected exit code: 0

        bits 16
        cpu 186
        org 0x100

BUFFER_LEN      equ 128

start:
        cld
        xor bp, bp                      ; BP = bytes
        xor di, di                      ; DI = lines
.read:
        mov ah, 0x3F
        xor bx, bx                      ; handle 0, stdin
        mov cx, BUFFER_LEN
        mov dx, buffer
        int 0x21
        jc .error
        or ax, ax
        jz .done
        add bp, ax
        mov cx, ax
        mov si, buffer
.count:
        lodsb
        cmp al, 10
        jne .next
        inc di
.next:
        loop .count
        jmp short .read

.done:
        mov dx, s_bytes
        call put_str
        mov ax, bp
        call put_hex4
        mov dx, s_lines
        call put_str
        mov ax, di
        call put_hex4
        call put_crlf
        mov ax, 0x4C00
        int 0x21

.error:
        mov dx, s_error
        call put_str
        call put_hex4
        call put_crlf
        mov ax, 0x4C01
        int 0x21

%include "inc/dosio.inc"

s_bytes:        db 'bytes=$'
s_lines:        db ' lines=$'
s_error:        db 'read error $'

image_end:
        absolute image_end
buffer:         resb BUFFER_LEN
