; libuser.asm -- a Win16 program that imports LIBDEMO.DLL (roms/libdemo.asm)
; by ordinal: Windows loads the DLL with the program and runs its LibEntry
; before the program's first instruction, with DI = its hInstance, DS =
; its data segment, CX = its heap size (200h).
; output: libuser.exe
; no-walk-expectation: checked by tests/win16_kernel.rs (run with the DLL beside it)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints `libentry calls 1 di=hinst 1 ds=data 1 heap 0200` (the
; comparisons as 1 for true) and exits with 0.

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'LIBUSER', 'toolhelp16 test: a DLL loaded with the program', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE LIBDEMO
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push ds
        push word info
        FAR_CALL_IMPORT LIBDEMO, 1      ; GETINFO(&info): AX = hInstance
        mov dx, ax
        ; the DLL's data segment is its hInstance's selector
        xor bx, bx
        cmp dx, [info]
        jne .a
        inc bx
.a:     mov cx, [info + 2]
        or cx, 1
        xor si, si
        cmp cx, [info]
        jne .b
        inc si
.b:     push word [info + 4]
        push si
        push bx
        push word [info + 6]
        PRINTF f_line, 8
        xor ax, ax
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
info:   times 5 dw 0
f_line: db 'libentry calls %d di=hinst %d ds=data %d heap %04X', 0
crlf:   db 13, 10
buf:    times 64 db 0
        NE_SEGMENT_END
