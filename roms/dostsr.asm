; dostsr.asm -- a DOS .COM that goes resident: it hooks INT 66h and ends
; with INT 21h AH=31h (code 5), or with INT 27h when its command tail is
; " 27"; dostsrp.com runs it and calls the hook, as tests/dos.rs checks.
; output: dostsr.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Prints "tsr psp=XXXX" (its PSP, AH=62h), then "keep 31 PPPP" (the
; paragraphs it asks AH=31h to keep) or "keep 27 BBBB" (the bytes of
; INT 27h's DX), and goes resident with its PSP, the INT 66h handler and
; its data. The handler (AH=00h) answers AX = 7352h, BX = its own segment
; (the PSP: a .COM's CS), CX = how many times it was called (a counter in
; the resident data: the memory was kept), DX = the INT 66h vector's
; offset before it was hooked (saved in the resident data). Other AH:
; chains to that old vector.

        bits 16
        cpu 186
        org 0x100

start:
        jmp install

; ---- the resident part ------------------------------------------------------
old66    dw 0, 0                        ; the INT 66h it replaced (off, seg)
calls    dw 0

handler:
        or ah, ah
        jnz .chain
        inc word [cs:calls]
        mov ax, 0x7352
        mov bx, cs
        mov cx, [cs:calls]
        mov dx, [cs:old66]
        iret
.chain:
        jmp far [cs:old66]
resident_end:

; Bytes from the PSP's start to the end of the resident part, and paragraphs.
KEEP_BYTES equ resident_end - $$ + 0x100
KEEP_PARAS equ (KEEP_BYTES + 15) / 16

; ---- installation (given back when it goes resident) -----------------------
install:
        mov ah, 0x62
        int 0x21
        mov dx, s_psp
        call put_str
        mov ax, bx
        call put_hex4
        call put_crlf
        mov ax, 0x3566                  ; ES:BX = the old INT 66h
        int 0x21
        mov [old66], bx
        mov [old66 + 2], es
        mov ax, 0x2566                  ; INT 66h = DS:DX
        mov dx, handler
        int 0x21
        cmp byte [0x80], 3              ; the tail " 27"?
        jne .keep31
        cmp word [0x82], "27"
        jne .keep31
        mov dx, s_keep27
        call put_str
        mov ax, KEEP_BYTES
        call put_hex4
        call put_crlf
        mov dx, KEEP_BYTES
        int 0x27
.keep31:
        mov dx, s_keep31
        call put_str
        mov ax, KEEP_PARAS
        call put_hex4
        call put_crlf
        mov dx, KEEP_PARAS
        mov ax, 0x3105
        int 0x21
        mov ax, 0x4C01                  ; not reached
        int 0x21

s_psp    db "tsr psp=$"
s_keep31 db "keep 31 $"
s_keep27 db "keep 27 $"

%include "inc/dosio.inc"
