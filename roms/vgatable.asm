; vgatable.asm -- a DOS .COM that reads the VGA BIOS's tables through the
; video save pointer at 0040:00A8 as font TSRs do (IBM VGA BIOS layout:
; Ralf Brown's memory map, 0040:00A8; src/dos/vgatables.rs), for
; tests/dos.rs to compare with IBM's values.
; output: vgatable.com
; no-walk-expectation: a DOS BIOS-data test (console output), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Prints, each as two hex digits and a space, then CR LF:
;   1. the secondary save pointer table's length (the word at +00 of the
;      table the save pointer table's +10h points at): 1A;
;   2. the display combination code table's entry count and version
;      (the table the secondary table's +02 points at): 10 01;
;   3. the video parameter table's entry 18h (modes 2/3 in 400 lines, at
;      18h * 64 from the pointer at +00): columns, rows - 1, character
;      height, regen size (low, high), misc output, CRTC 09h (maximum
;      scan line), graphics controller 06h: 50 18 10 00 10 67 4F 0E;
;   4. entry 1Ch (mode 13h): columns, rows - 1, height, misc: 28 18 08 63.
; expected output: "1A \r\n10 01 \r\n50 18 10 00 10 67 4F 0E \r\n28 18 08 63 \r\n"
; expected exit code: 0

        bits 16
        cpu 186
        org 0x100

start:
        xor ax, ax
        mov es, ax
        les bx, [es:0x4A8]              ; the save pointer table
        push es
        push bx
        les di, [es:bx+0x10]            ; the secondary save pointer table
        mov al, [es:di]
        call print_hex
        call crlf
        les di, [es:di+2]               ; the display combination codes
        mov al, [es:di]
        call print_hex
        mov al, [es:di+1]
        call print_hex
        call crlf
        pop bx
        pop es
        les si, [es:bx]                 ; the video parameter table
        push es
        push si
        add si, 0x18 * 64
        mov cx, 5                       ; columns .. regen size
.head:  mov al, [es:si]
        call print_hex
        inc si
        loop .head
        mov al, [es:si+4]               ; misc output (+09)
        call print_hex
        mov al, [es:si+5+9]             ; CRTC 09h (+0A + 9)
        call print_hex
        mov al, [es:si+50+6]            ; GC 06h (+37 + 6)
        call print_hex
        call crlf
        pop si
        pop es
        add si, 0x1C * 64
        mov al, [es:si]
        call print_hex
        mov al, [es:si+1]
        call print_hex
        mov al, [es:si+2]
        call print_hex
        mov al, [es:si+9]
        call print_hex
        call crlf
        mov ax, 0x4C00
        int 21h

crlf:
        mov dl, 13
        mov ah, 02h
        int 21h
        mov dl, 10
        int 21h
        ret

%include "inc/printhex.inc"
