; smcpages.asm -- a DOS .COM that mixes code and data in the same 4 KiB
; pages every way the engine's store rules tell apart (vendor/README.md,
; the patches to unicorn), and prints what its code returns after each
; rewrite. A stale translation anywhere shows as an old value.
; output: smcpages.com
; no-walk-expectation: an emulation test (stores into pages with code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The program takes four page-aligned 4 KiB pages of linear memory after
; its own code (P0..P3: the first page boundary at least 1000h bytes past
; its end, found from CS), writes small functions there and calls them.
; A function is `mov al, imm8` / `ret` (B0 ii C3): what AL comes back as
; shows which bytes the CPU executed.
;
;   a  P0+800h: call (11h); 3000 word stores by code outside P0 into
;      P0+000h..0FFFh (data around the function's code); call again
;      (11h); store 22h into its immediate; call (22h).
;   b  P1+800h: a function that first stores 2000 words into P1+000h
;      (its own page), then 44h into the immediate of its own later
;      `mov al, imm8`, then runs it (44h); called once with the store of
;      33h beforehand (B0 33 C3 written from outside first: returns 44h
;      whatever was there).
;   c  P2: 3000 word stores into P2+000h..0FFFh while the page holds no
;      code; then the function is written at P2+800h and called (55h);
;      then 66h stored into its immediate; call (66h).
;   d  P0+A01h: B0 77 C3 at an odd address; call (77h); one unaligned
;      word store at P0+A01h of 88B0h (bytes B0 88: the opcode kept, the
;      immediate rewritten); call (88h).
;   e  P3-1: B0 at the last byte of P2, 99h and C3 at the first bytes
;      of P3, so the function's block spans two pages; call (99h);
;      store AAh at P3+0; call (AAh).
;
; expected output (every line ends CR LF):
;   a 0011 0011 0022
;   b 0044
;   c 0055 0066
;   d 0077 0088
;   e 0099 00AA
; expected exit code: 0

        bits 16
        cpu 186
        org 0x100

start:
        ; BP = offset of P0: the first page boundary (in linear memory) at
        ; least 1000h bytes past the end of the program.
        mov ax, cs
        shl ax, 4                       ; low 16 bits of CS * 16
        mov bx, end_of_program + 0x1000
        add bx, ax                      ; low 16 bits of its linear address
        add bx, 0x0FFF
        and bx, 0xF000                  ; rounded up to a page
        sub bx, ax                      ; back to an offset in CS
        mov bp, bx

        ; ---- a ----
        mov dl, 'a'
        call put_char
        lea di, [bp + 0x800]
        mov al, 0x11
        call write_fn
        call show_call
        lea di, [bp]
        mov cx, 3000
        call fill_page
        lea di, [bp + 0x800]
        call show_call
        mov byte [bp + 0x801], 0x22
        call show_call
        call put_crlf

        ; ---- b ----
        mov dl, 'b'
        call put_char
        lea di, [bp + 0x1800]
        mov si, selfmod
        mov cx, selfmod_end - selfmod
        call copy_code
        mov byte [bp + 0x1800 + (selfmod_imm - selfmod)], 0x33
        lea di, [bp + 0x1800]
        call show_call
        call put_crlf

        ; ---- c ----
        mov dl, 'c'
        call put_char
        lea di, [bp + 0x2000]
        mov cx, 3000
        call fill_page
        lea di, [bp + 0x2800]
        mov al, 0x55
        call write_fn
        call show_call
        mov byte [bp + 0x2801], 0x66
        call show_call
        call put_crlf

        ; ---- d ----
        mov dl, 'd'
        call put_char
        lea di, [bp + 0xA01]
        mov al, 0x77
        call write_fn
        call show_call
        mov word [bp + 0xA01], 0x88B0
        call show_call
        call put_crlf

        ; ---- e ----
        mov dl, 'e'
        call put_char
        lea di, [bp + 0x3000 - 1]
        mov al, 0x99
        call write_fn
        call show_call
        mov byte [bp + 0x3000], 0xAA
        call show_call
        call put_crlf

        mov ax, 0x4C00
        int 0x21

; write_fn: B0 AL C3 at DS:DI (DI kept).
write_fn:
        mov byte [di], 0xB0
        mov [di + 1], al
        mov byte [di + 2], 0xC3
        ret

; copy_code: CX bytes from DS:SI to DS:DI (DI kept).
copy_code:
        push di
        cld
        rep movsb
        pop di
        ret

; fill_page: CX word stores into the 4 KiB page at DS:DI, round and round
; its first 800h bytes (none of them code).
fill_page:
        push di
        push bx
        xor bx, bx
.store:
        mov [di + bx], cx
        add bx, 2
        and bx, 0x07FE
        loop .store
        pop bx
        pop di
        ret

; show_call: call the function at DS:DI (CS = DS) and print " " and
; the AX it returns, AH cleared first.
show_call:
        push dx
        mov dl, ' '
        call put_char
        xor ax, ax
        call di
        call put_hex4
        pop dx
        ret

; The function case b copies to P1+800h: 2000 word stores into its own
; page, a store into its own immediate, and the rewritten instruction.
selfmod:
        push bx
        push cx
        push di
        mov di, bp
        add di, 0x1000                  ; P1+000h
        xor bx, bx
        mov cx, 2000
.store:
        mov [di + bx], cx
        add bx, 2
        and bx, 0x07FE
        loop .store
        call .here                      ; DI = this function's own address
.here:
        pop di
        mov byte [di + selfmod_imm - .here], 0x44
        pop di
        pop cx
        pop bx
        db 0xB0                         ; mov al, imm8
selfmod_imm:
        db 0x00
        ret
selfmod_end:

%include "inc/dosio.inc"

end_of_program:
