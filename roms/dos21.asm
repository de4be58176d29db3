; dos21.asm -- a DOS .COM that calls INT 21h functions of MS-DOS 5.0 (and
; the BIOS and multiplex calls DOS programs make) and prints what each
; returned, for tests/dos.rs to compare with the MS-DOS 5 reference.
; output: dos21.com
; no-walk-expectation: a DOS behaviour test (console output), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run in an empty sandbox (drive C:, current directory C:\). Each line is
; "NAME AX=xxxx" then the other registers the call returns and "c" = CF.
; The expected lines, with the rule each follows, are in tests/dos.rs
; (dos21_answers_as_ms_dos_5).

        bits 16
        cpu 186
        org 0x100

; print "%1 " then AX in hex, " c" and CF (0/1); keeps AX and the flags.
%macro SHOW 1
        pushf
        push ax
        push dx
        mov dx, %%s
        call put_str
        jmp short %%j
%%s:    db %1, ' $'
%%j:
        pop dx
        pop ax
        call put_hex4
        popf
        pushf
        push dx
        mov dl, ' '
        call put_char
        mov dl, '0'
        adc dl, 0
        call put_char
        pop dx
        popf
%endmacro

; print " " and a 16-bit value
%macro HEX 1
        push ax
        mov ax, %1
        push dx
        mov dl, ' '
        call put_char
        pop dx
        call put_hex4
        pop ax
%endmacro

%macro EOL 0
        call put_crlf
%endmacro

; the extended error: "  ext AX BX CH"
%macro EXT 0
        mov ah, 0x59
        xor bx, bx
        int 0x21
        SHOW "  ext"
        HEX bx
        mov al, ch
        xor ah, ah
        HEX ax
        EOL
%endmacro

start:
        mov sp, stack_top
        mov ah, 0x4A                    ; keep 4 KiB: room for the tests
        mov bx, 0x1000
        int 0x21

        ; --- the A20 wrap: FFFF:0010 is 0000:0000 -------------------------
        xor ax, ax
        mov es, ax
        mov ax, 0xFFFF
        mov ds, ax
        mov ax, [0x0010]
        cmp ax, [es:0x0000]
        push cs
        pop ds
        mov ax, 1
        je .same1
        xor ax, ax
.same1: SHOW "wrap"
        EOL
        mov ax, 0x2402
        int 0x15
        SHOW "a20 status"
        EOL
        mov ax, 0x2403
        int 0x15
        SHOW "a20 support"
        HEX bx
        EOL
        mov ax, 0x2401
        int 0x15
        SHOW "a20 on"
        EOL
        mov ax, 0xFFFF                  ; write FFFF:0010, 0:0 stays
        mov ds, ax
        xor bx, bx
        mov es, bx
        mov al, [es:0]
        mov ah, al
        not ah
        mov [0x0010], ah
        cmp al, [es:0]
        push cs
        pop ds
        mov ax, 1
        je .kept
        xor ax, ax
.kept:  SHOW "hma separate"
        EOL
        mov ax, 0x2402
        int 0x15
        SHOW "a20 status"
        EOL
        mov ax, 0x2400
        int 0x15
        SHOW "a20 off"
        EOL
        push cs
        pop es

        ; --- version, drives, switch character ----------------------------
        mov ax, 0x3000
        int 0x21
        SHOW "30 version"
        HEX bx
        EOL
        mov ax, 0x3306
        int 0x21
        SHOW "3306 true version"
        HEX bx
        HEX dx
        EOL
        mov ax, 0x3305
        int 0x21
        mov al, dl
        SHOW "3305 boot drive"
        EOL
        mov ah, 0x19
        int 0x21
        SHOW "19 drive"
        EOL
        mov ax, 0x3700
        int 0x21
        SHOW "3700 switch"
        HEX dx
        EOL
        mov ax, 0x7100                  ; past DOS 5's functions
        stc
        int 0x21
        SHOW "71 none"
        EOL

        ; --- failing calls and the extended error -------------------------
        mov ax, 0x3D00
        mov dx, missing
        int 0x21
        SHOW "3D missing"
        EOL
        EXT
        mov ah, 0x3B
        mov dx, missdir
        int 0x21
        SHOW "3B missing"
        EOL
        EXT
        mov ah, 0x48
        mov bx, 0xFFFF
        int 0x21
        SHOW "48 too much"
        EOL
        EXT
        mov ah, 0x49
        mov bx, cs
        inc bx                          ; not the start of a block
        mov es, bx
        int 0x21
        push cs
        pop es
        SHOW "49 no block"
        EOL
        EXT
        mov ah, 0x3E
        mov bx, 99
        int 0x21
        SHOW "3E bad handle"
        EOL
        EXT
        mov ax, 0x4B02
        int 0x21
        SHOW "4B02"
        EOL
        EXT

        ; --- files ------------------------------------------------------------
        mov ah, 0x5B
        xor cx, cx
        mov dx, newname
        int 0x21
        SHOW "5B new"
        EOL
        mov bx, ax
        mov ah, 0x40
        mov cx, 5
        mov dx, five
        int 0x21
        SHOW "40 write"
        EOL
        mov ah, 0x45                    ; duplicate: the lowest free handle
        int 0x21
        SHOW "45 dup"
        EOL
        push ax
        mov ax, 0x4400
        int 0x21
        SHOW "4400 file"
        HEX dx
        EOL
        mov ah, 0x68
        int 0x21
        SHOW "68 commit"
        EOL
        mov ax, 0x5C00
        xor cx, cx
        xor dx, dx
        xor si, si
        mov di, 1
        int 0x21
        SHOW "5C lock"
        EOL
        mov ah, 0x3E
        int 0x21
        pop bx
        mov ah, 0x3E
        int 0x21
        SHOW "3E close"
        EOL
        mov ah, 0x5B
        xor cx, cx
        mov dx, newname
        int 0x21
        SHOW "5B exists"
        EOL
        EXT
        mov ax, 0x6C00
        mov bx, 2
        xor cx, cx
        mov dx, 0x0001                  ; open only
        mov si, other
        int 0x21
        SHOW "6C open missing"
        EOL
        mov ax, 0x6C00
        mov bx, 2
        xor cx, cx
        mov dx, 0x0010                  ; create only
        mov si, other
        int 0x21
        SHOW "6C create"
        HEX cx
        EOL
        mov bx, ax
        mov ah, 0x3E
        int 0x21
        mov ah, 0x5A
        xor cx, cx
        mov dx, tempdir
        int 0x21
        SHOW "5A temp"
        EOL
        mov bx, ax
        mov ah, 0x3E
        int 0x21
        mov ax, 0x4400
        mov bx, 1
        int 0x21
        SHOW "4400 stdout"
        HEX dx
        EOL
        mov ax, 0x4408
        mov bl, 3
        int 0x21
        SHOW "4408 C:"
        EOL
        mov ax, 0x4408
        mov bl, 1
        int 0x21
        SHOW "4408 A:"
        EOL
        mov ax, 0x4409
        mov bl, 0
        int 0x21
        SHOW "4409"
        HEX dx
        EOL

        ; --- FCB find first, plain and extended ------------------------------
        mov ah, 0x1A
        mov dx, dta
        int 0x21
        mov ah, 0x11
        mov dx, fcb
        int 0x21
        SHOW "11 find"
        mov al, [dta]
        xor ah, ah
        HEX ax
        mov dl, ' '
        call put_char
        mov cx, 11
        mov si, dta + 1
.n1:    mov dl, [si]
        call put_char
        inc si
        loop .n1
        HEX [dta + 0x1D]
        EOL
        mov ah, 0x11
        mov dx, xfcb
        int 0x21
        SHOW "11 find ext"
        mov al, [dta]
        xor ah, ah
        HEX ax
        mov al, [dta + 7]
        HEX ax
        HEX [dta + 7 + 0x1D]
        EOL
        mov ah, 0x12
        mov dx, xfcb
        int 0x21
        SHOW "12 next"
        mov dl, ' '
        call put_char
        mov cx, 11
        mov si, dta + 8
.n2:    mov dl, [si]
        call put_char
        inc si
        loop .n2
        EOL
        mov ah, 0x12
        mov dx, xfcb
        int 0x21
        SHOW "12 end"
        EOL
        EXT

        ; --- drive parameters ------------------------------------------------
        push ds
        mov ah, 0x32
        xor dl, dl
        int 0x21
        mov cl, [bx]
        mov dx, [bx + 2]
        pop ds
        SHOW "32 dpb"
        xor ch, ch
        HEX cx
        HEX dx
        EOL
        push ds
        mov ah, 0x32
        mov dl, 1
        int 0x21
        pop ds
        SHOW "32 A:"
        EOL
        mov ah, 0x36
        mov dl, 0
        int 0x21
        SHOW "36 free"
        HEX cx
        EOL

        ; --- country and code page -------------------------------------------
        mov ax, 0x3800
        mov dx, country
        int 0x21
        SHOW "38 country"
        HEX bx
        mov dl, ' '
        call put_char
        mov dl, [country + 2]
        call put_char
        mov dl, [country + 0x0B]
        call put_char
        EOL
        mov ax, 0x6501
        mov bx, 0xFFFF
        mov dx, 0xFFFF
        mov cx, 64
        mov di, country
        int 0x21
        SHOW "6501"
        HEX cx
        HEX [country + 3]
        HEX [country + 5]
        EOL
        mov ax, 0x6520
        mov dl, 0x81                    ; u-umlaut
        int 0x21
        SHOW "6520"
        HEX dx
        EOL
        mov ax, 0x6601
        int 0x21
        SHOW "6601"
        HEX bx
        HEX dx
        EOL
        mov ax, 0x6300
        push ds
        int 0x21
        pop ds
        SHOW "6300"
        EOL

        ; --- memory strategy and handles -------------------------------------
        mov ax, 0x5800
        int 0x21
        SHOW "5800"
        EOL
        mov ax, 0x5801
        mov bx, 2
        int 0x21
        mov ax, 0x5800
        int 0x21
        SHOW "5800 last fit"
        EOL
        mov ax, 0x5801
        xor bx, bx
        int 0x21
        mov ah, 0x67
        mov bx, 30
        int 0x21
        SHOW "67 handles"
        HEX [0x32]
        EOL
        mov ah, 0x4D
        int 0x21
        SHOW "4D"
        EOL

        ; --- what is not installed -------------------------------------------
        mov ax, 0x4300
        int 0x2F
        SHOW "2F 4300 xms"
        EOL
        mov ax, 0x1687
        int 0x2F
        SHOW "2F 1687 dpmi"
        EOL
        mov bx, 0x1234                  ; no driver: an IRET, BX as it was
        xor ax, ax
        int 0x33
        SHOW "33 mouse"
        HEX bx
        EOL
        push es
        mov ax, 0x3533                  ; and the vector's first byte
        int 0x21
        mov al, [es:bx]
        xor ah, ah
        pop es
        SHOW "33 vector"
        EOL

        mov ax, 0x4C00
        int 0x21

missing db "NOFILE.TXT", 0
missdir db "NODIR", 0
newname db "NEW.TXT", 0
other   db "OTHER.TXT", 0
tempdir db "\", 0, "            "
five    db "12345"
fcb     db 0, "NEW     TXT"
        times 25 db 0
xfcb    db 0xFF, 0, 0, 0, 0, 0, 0x00, 0, "????????TXT"
        times 25 db 0

%include "inc/dosio.inc"

dta     times 64 db 0
country times 64 db 0
        times 256 db 0
stack_top:
