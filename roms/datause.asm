; datause.asm -- a Win16 program that imports a table from a data-only DLL
; (roms/datadll.asm) through a far-pointer fixup, and loads it again
; with LoadLibrary.
; output: datause.exe
; no-walk-expectation: checked by tests/win16_loader.rs (run with the DLL beside it)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints `data 1234 5678 1 1`, and exits with 0: the two words of
; DATADLL.1 read through the imported far pointer; LoadLibrary("DATADLL")
; returned the library's instance handle, its data segment's (the same
; segment the pointer points into); GetProcAddress(h, 1) is the imported
; pointer.

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'DATAUSE', 'toolhelp16 test: a data-only DLL', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE DATADLL
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push si
        push di
        push ds
        push word dllname
        FAR_CALL_IMPORT KERNEL, 95      ; LoadLibrary
        mov si, ax
        push si
        push word 0
        push word 1
        FAR_CALL_IMPORT KERNEL, 50      ; GetProcAddress(h, MAKEINTRESOURCE(1))
        xor di, di
        cmp ax, [table_ptr]
        jne .a
        cmp dx, [table_ptr + 2]
        jne .a
        inc di
.a:     push di
        mov ax, si                      ; hInstance: the data segment's
        or ax, 1
        xor bx, bx
        cmp ax, [table_ptr + 2]
        jne .b
        inc bx
.b:     push bx
        les bx, [table_ptr]
        push word [es:bx + 2]
        push word [es:bx]
        PRINTF f_line, 8
        push si
        FAR_CALL_IMPORT KERNEL, 96      ; FreeLibrary
        xor ax, ax
        pop di
        pop si
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        DGROUP_BEGIN 2
table_ptr: FAR_PTR_IMPORT DATADLL, 1
dllname: db 'DATADLL', 0
f_line: db 'data %04X %04X %d %d', 0
crlf:   db 13, 10
buf:    times 64 db 0
        DGROUP_END
