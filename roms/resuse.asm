; resuse.asm -- a Win16 program that loads resource-only modules with
; LoadLibrary: RESONLY.DLL (roms/resonly.asm, a string table and no
; segments) and FONT.FON (a font file, resources only, when the test
; puts one beside it), as Windows 3.1 loaded them: as modules with no
; code, whose instance handle is the module handle.
; output: resuse.exe
; no-walk-expectation: checked by tests/win16_loader.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints, and exits with 0:
;   resonly 1 21 text from no segments   LoadLibrary's handle is 32 or
;                                        more; LoadString of id 1 from it
;   font N                               1 when LoadLibrary("FONT.FON")
;                                        returned 32 or more, else the
;                                        error (2: no such file)

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'RESUSE', 'toolhelp16 test: resource-only modules', 2
        NE_IMPORT_MODULE USER
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push si
        push ds
        push word n_resonly
        FAR_CALL_IMPORT KERNEL, 95      ; LoadLibrary
        mov si, ax
        push ax                         ; hInstance
        push word 1                     ; id
        push ds
        push word text
        push word 64
        FAR_CALL_IMPORT USER, 176       ; LoadString
        push ds
        push word text
        push ax
        xor ax, ax
        cmp si, 32
        jb .a
        inc ax
.a:     push ax
        PRINTF f_res, 8
        push si
        FAR_CALL_IMPORT KERNEL, 96      ; FreeLibrary
        push ds
        push word n_font
        FAR_CALL_IMPORT KERNEL, 95      ; LoadLibrary
        cmp ax, 32
        jb .b
        mov ax, 1
.b:     push ax
        PRINTF f_font, 2
        xor ax, ax
        pop si
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        DGROUP_BEGIN 2
n_resonly: db 'RESONLY.DLL', 0
n_font: db 'FONT.FON', 0
f_res:  db 'resonly %d %d %s', 0
f_font: db 'font %d', 0
crlf:   db 13, 10
text:   times 64 db 0
buf:    times 100 db 0
        DGROUP_END
