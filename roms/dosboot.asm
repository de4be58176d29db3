; dosboot.asm -- a boot sector that draws on the text screen two ways:
; through the BIOS (INT 10h) and straight into video memory at B800.
; output: dosboot.img
; no-walk-expectation: a BIOS screen test (the final --screen), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; 512 bytes ending 55 AA, loaded at 0000:7C00 (CS:IP = 0000:7C00).
; Steps: INT 10h AX=0003h (80x25 text mode 3: clears the screen to
; spaces, attribute 07, cursor 0,0); "BOOT VIA INT10" then CR LF with
; INT 10h AH=0Eh, BL=07 (in text mode teletype keeps the cell's attribute,
; 07); then "DIRECT B800" stored as char+attribute words at B800:0140
; (row 2, column 0), attribute 1Fh (white on blue); then cli; hlt.
;
; expected screen (80x25; rows not listed are blank):
;   row 0: "BOOT VIA INT10"  (columns 0-13, attribute 07)
;   row 1: ""                (blank)
;   row 2: "DIRECT B800"     (columns 0-10, attribute 1F)
; expected cursor at the end: row 1, column 0 (after the CR LF).
; No console (INT 21h) output; it ends on HLT.

        bits 16
        cpu 186
        org 0x7C00

ROW             equ 2
COLUMN          equ 0
ATTRIBUTE       equ 0x1F

start:
        cli
        xor ax, ax
        mov ss, ax
        mov sp, 0x7C00
        mov ds, ax
        sti
        cld

        mov ax, 0x0003                  ; set video mode 3
        int 0x10

        mov si, msg_bios
.teletype:
        lodsb
        or al, al
        jz .direct
        mov ah, 0x0E
        mov bx, 0x0007                  ; page 0, colour 07
        int 0x10
        jmp short .teletype

.direct:
        mov ax, 0xB800
        mov es, ax
        mov di, (ROW * 80 + COLUMN) * 2
        mov si, msg_direct
        mov ah, ATTRIBUTE
.store:
        lodsb
        or al, al
        jz .done
        stosw                           ; character, attribute
        jmp short .store

.done:
        cli
        hlt

msg_bios:
        db 'BOOT VIA INT10', 13, 10, 0
msg_direct:
        db 'DIRECT B800', 0

        times 510 - ($ - $$) db 0
        dw 0xAA55
