; vgashow.asm -- a DOS .COM that draws known pixels in the text mode and in
; every CGA, EGA and VGA graphics mode, through the BIOS (INT 10h) and
; straight through the adapter's memory and ports, for tests/dos_pictures.rs
; to find in the screenshots `run --screenshots` takes before each mode set.
; output: vgashow.com
; no-walk-expectation: a DOS screen test (pictures), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Screens in order (the series file that shows each):
;  1 mode 03h  'A' white on blue at column 1 of row 0 (B800h), "Hi" through
;              INT 10h AH=09h/0Eh in light red at row 1.
;  2 mode 04h  AH=0Ch pixels 1,2,3 at (10,10),(11,10),(12,10), 3 at (13,11);
;              byte E4h at B800:0000 (pixels 3,2,1,0 at x = 0..3, y = 0).
;  3 mode 06h  AH=0Ch pixel 1 at (639,199); byte 80h at B800:2000 (x 0, y 1).
;  4 mode 0Dh  write mode 2, bit mask 80h: colour 0Ch at (0,0); map mask
;              plane 0 only: byte FFh at row 10 (x 0..7 colour 1); AH=0Ch
;              colour 0Eh at (100,50).
;  5 mode 0Eh  set/reset colour 0Ah (enable set/reset 0Fh) at x 8..15,
;              y 0; AH=0Ch colour 5 at (639,199).
;  6 mode 10h  AH=0Ch colour 6 at (0,349); XOR (colour 86h) twice at
;              (1,349) leaves 0; write mode 3 colour 9 at (16..19, 0).
;  7 mode 12h  set/reset colour 4 on the last byte (632..639, 479); DAC
;              entry 7 made pure red through 3C8h/3C9h, AH=0Ch colour 7 at
;              (320,240); AX=1000h palette register 1 = 3Fh, then AH=0Ch
;              colour 1 at (0,0) (white); read mode 1 finds the colour 4
;              pixels, their count is drawn as colour 2 at (0..7, 1).
;  8 mode 13h  A000:0000 = 28h (red), A000:F9FF = 20h (blue, (319,199));
;              AX=1010h entry 80h = (10h,20h,30h), AH=0Ch 80h at (1,0);
;              AH=0Eh 'A' in colour 0Fh at row 2 (y 16..23); then mode 93h
;              (13h, memory kept): AH=0Fh must say 93h (prints "93 ").
;  9 mode X    13h unchained (sequencer memory mode 06h, CRTC underline
;              00h, mode control E3h): planes 0-3 cleared, map mask 02h:
;              A000:0000 = 2Ch (yellow) is (1,0); A000:0014 = 30h (green)
;              at (81,0); A000:3E7F (line 199, x 316..319) = 0Fh via mask 0Fh.
; Then mode 03h again and exit 0: the run's picture is screen 9.
; expected output: "A93 " (the teletype's 'A', then AH=0Fh's mode), no line end

        bits 16
        cpu 186
        org 0x100

%macro SETMODE 1
        mov ax, %1
        int 10h
%endmacro

; pixel colour, x, y through INT 10h AH=0Ch (page 0)
%macro PIXEL 3
        mov ax, 0x0C00 | (%1)
        xor bx, bx
        mov cx, %2
        mov dx, %3
        int 10h
%endmacro

; graphics controller register %1 = %2
%macro GC 2
        mov dx, 0x3CE
        mov ax, ((%2) << 8) | (%1)
        out dx, ax
%endmacro

%macro SEQ 2
        mov dx, 0x3C4
        mov ax, ((%2) << 8) | (%1)
        out dx, ax
%endmacro

%macro CRTC 2
        mov dx, 0x3D4
        mov ax, ((%2) << 8) | (%1)
        out dx, ax
%endmacro

start:
        ; 1: text
        SETMODE 0x0003
        mov ax, 0xB800
        mov es, ax
        mov word [es:2], 0x1F41
        mov ah, 02h             ; cursor to row 1, column 0
        xor bx, bx
        mov dx, 0x0100
        int 10h
        mov ax, 0x0948          ; 'H' light red on black, once
        mov bx, 0x000C
        mov cx, 1
        int 10h
        mov ah, 02h
        xor bx, bx
        mov dx, 0x0101
        int 10h
        mov ax, 0x0969          ; 'i'
        mov bx, 0x000C
        mov cx, 1
        int 10h

        ; 2: CGA 320x200x4
        SETMODE 0x0004
        PIXEL 1, 10, 10
        PIXEL 2, 11, 10
        PIXEL 3, 12, 10
        PIXEL 3, 13, 11
        mov ax, 0xB800
        mov es, ax
        mov byte [es:0], 0xE4

        ; 3: CGA 640x200x2
        SETMODE 0x0006
        PIXEL 1, 639, 199
        mov ax, 0xB800
        mov es, ax
        mov byte [es:0x2000], 0x80

        ; 4: EGA 320x200x16
        SETMODE 0x000D
        mov ax, 0xA000
        mov es, ax
        GC 5, 0x02              ; write mode 2
        GC 8, 0x80              ; bit mask: the leftmost pixel
        mov al, [es:0]          ; load the latches
        mov byte [es:0], 0x0C
        GC 5, 0x00
        GC 8, 0xFF
        SEQ 2, 0x01             ; map mask: plane 0
        mov byte [es:40*10], 0xFF
        SEQ 2, 0x0F
        PIXEL 0x0E, 100, 50

        ; 5: EGA 640x200x16
        SETMODE 0x000E
        mov ax, 0xA000
        mov es, ax
        GC 0, 0x0A              ; set/reset colour 0Ah
        GC 1, 0x0F              ; enabled on every plane
        mov byte [es:1], 0      ; the data byte does not matter
        GC 1, 0x00
        PIXEL 5, 639, 199

        ; 6: EGA 640x350x16
        SETMODE 0x0010
        PIXEL 6, 0, 349
        PIXEL 0x86, 1, 349
        PIXEL 0x86, 1, 349
        mov ax, 0xA000
        mov es, ax
        GC 5, 0x03              ; write mode 3
        GC 0, 0x09              ; colour 9 from set/reset
        GC 8, 0xFF
        mov al, [es:2]
        mov byte [es:2], 0xF0   ; rotated data ANDs the bit mask: x 16..19
        GC 5, 0x00
        GC 0, 0x00

        ; 7: VGA 640x480x16
        SETMODE 0x0012
        mov ax, 0xA000
        mov es, ax
        GC 0, 0x04
        GC 1, 0x0F
        mov byte [es:80*479+79], 0
        GC 1, 0x00
        GC 0, 0x00
        mov dx, 0x3C8           ; DAC entry 7 = (3Fh, 0, 0)
        mov al, 7
        out dx, al
        inc dx
        mov al, 0x3F
        out dx, al
        xor al, al
        out dx, al
        out dx, al
        PIXEL 7, 320, 240
        mov ax, 0x1000          ; palette register 1 = 3Fh (white)
        mov bx, 0x3F01
        int 10h
        PIXEL 1, 0, 0
        ; read mode 1: which of the 8 pixels at (632..639, 479) are colour 4
        GC 5, 0x08
        GC 2, 0x04
        GC 7, 0x0F
        mov al, [es:80*479+79]  ; FFh: all eight
        mov bl, al
        GC 5, 0x00
        cmp bl, 0xFF
        jne .no_compare
        PIXEL 2, 0, 1
.no_compare:

        ; 8: VGA 320x200x256
        SETMODE 0x0013
        mov ax, 0xA000
        mov es, ax
        mov byte [es:0], 0x28
        mov byte [es:0xF9FF], 0x20
        mov ax, 0x1010          ; DAC entry 80h = (10h, 20h, 30h)
        mov bx, 0x0080
        mov dh, 0x10
        mov cx, 0x2030
        int 10h
        PIXEL 0x80, 1, 0
        mov ah, 02h
        xor bx, bx
        mov dx, 0x0200          ; row 2, column 0
        int 10h
        mov ax, 0x0E41
        mov bx, 0x000F
        int 10h
        SETMODE 0x0093          ; mode 13h again, memory kept
        mov ah, 0Fh
        int 10h
        call print_hex          ; "93 "

        ; 9: mode X
        SEQ 4, 0x06             ; chain 4 off
        CRTC 0x14, 0x00         ; doubleword mode off
        CRTC 0x17, 0xE3         ; byte mode
        SEQ 2, 0x0F
        mov ax, 0xA000
        mov es, ax
        xor di, di
        xor ax, ax
        mov cx, 0x8000
        rep stosw               ; clear all four planes
        SEQ 2, 0x02
        mov byte [es:0], 0x2C
        mov byte [es:0x14], 0x30
        SEQ 2, 0x0F
        mov byte [es:80*199+79], 0x0F

        SETMODE 0x0003
        mov ax, 0x4C00
        int 21h

%include "inc/printhex.inc"
