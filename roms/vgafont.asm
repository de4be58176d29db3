; vgafont.asm -- a DOS .COM that loads text fonts through INT 10h AH=11h:
; the ROM's 8x8 set with AX=1112h (80x50 text), then its own character
; 80h (8 lines, AX=1100h), for tests/dos_pictures.rs to find in the
; picture of the text screen.
; output: vgafont.com
; no-walk-expectation: a DOS screen test (pictures), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The screen: character 80h (lines AAh, 55h, AAh, ... : a checkerboard)
; white on black at row 0, column 0; 'A' light green at row 40, column 1
; (B800h + (40 * 80 + 1) * 2), which only 50 rows show. AX=1130h then
; reports the character height (CX) and the rows - 1 (DL), printed at
; row 20.
; expected output: "08 31 " (CX = 8, DL = 49), no line end; exit code 0.

        bits 16
        cpu 186
        org 0x100

start:
        mov ax, 0x0003
        int 10h
        mov ax, 0x1112          ; ROM 8x8 set into block 0, 50 rows
        xor bl, bl
        int 10h
        push cs
        pop es
        mov bp, glyph
        mov ax, 0x1100          ; one user character: 80h, 8 lines
        mov bx, 0x0800
        mov cx, 1
        mov dx, 0x80
        int 10h
        mov ax, 0xB800
        mov es, ax
        mov word [es:0], 0x0F80
        mov word [es:(40*80+1)*2], 0x0A41
        mov ah, 02h             ; the output goes to row 20
        xor bh, bh
        mov dx, 0x1400
        int 10h
        mov ax, 0x1130
        xor bh, bh
        int 10h
        push dx
        mov al, cl
        call print_hex          ; "08 "
        pop dx
        mov al, dl
        call print_hex          ; "31 "
        mov ax, 0x4C00
        int 21h

glyph:  db 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55

%include "inc/printhex.inc"
