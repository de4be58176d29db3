; fontuse.asm -- a Win16 program that adds a font file (FONT.FON, which
; the test puts beside it) with AddFontResource, by name and by the handle
; of the module LoadLibrary made of it. Windows 3.1 loaded a font file named
; to AddFontResource as a library module (a resource-only one), which
; RemoveFontResource freed again.
; output: fontuse.exe
; no-walk-expectation: checked by tests/win16_loader.rs (with the corpus's vgaoem.fon as FONT.FON)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints, and exits with 0:
;   name N 1 1 0     AddFontResource("FONT.FON") added N fonts; its module
;                    (OEMFONTS) is then loaded; RemoveFontResource returned
;                    TRUE; the module is gone after it
;   handle N 1       AddFontResource(hModule of LoadLibrary("FONT.FON"))
;                    added N fonts; RemoveFontResource(hModule) TRUE

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'FONTUSE', 'toolhelp16 test: font files as modules', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; is_loaded: AX = 1 when GetModuleHandle("OEMFONTS") is not 0
is_loaded:
        push ds
        push word modname
        FAR_CALL_IMPORT KERNEL, 47      ; GetModuleHandle
        or ax, ax
        jz .no
        mov ax, 1
.no:    ret

main:
        NEAR_PROLOGUE
        push si
        push di
        push ds
        push word fontfile
        FAR_CALL_IMPORT GDI, 119        ; AddFontResource(name)
        mov si, ax
        call is_loaded
        mov di, ax
        push ds
        push word fontfile
        FAR_CALL_IMPORT GDI, 136        ; RemoveFontResource(name)
        mov bx, ax
        push bx
        call is_loaded
        pop bx
        push ax
        push bx
        push di
        push si
        PRINTF f_name, 8
        ; by handle
        push ds
        push word fontfile
        FAR_CALL_IMPORT KERNEL, 95      ; LoadLibrary
        mov di, ax
        push word 0
        push di
        FAR_CALL_IMPORT GDI, 119        ; AddFontResource(hModule)
        mov si, ax
        push word 0
        push di
        FAR_CALL_IMPORT GDI, 136        ; RemoveFontResource(hModule)
        push ax
        push si
        PRINTF f_handle, 4
        push di
        FAR_CALL_IMPORT KERNEL, 96      ; FreeLibrary
        xor ax, ax
        pop di
        pop si
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        DGROUP_BEGIN 2
fontfile: db 'FONT.FON', 0
modname: db 'OEMFONTS', 0
f_name: db 'name %d %d %d %d', 0
f_handle: db 'handle %d %d', 0
crlf:   db 13, 10
buf:    times 64 db 0
        DGROUP_END
