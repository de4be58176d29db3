; veruse.asm -- a Win16 program that imports VER (GetFileVersionInfoSize)
; and USER (wsprintf): with its own VER.DLL beside it (roms/verfake.asm)
; that file is loaded and run instead of the built-in VER; a USER.DLL
; beside it (roms/userfake.asm) is never loaded.
; output: veruse.exe
; no-walk-expectation: checked by tests/win16_loader.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints `ver N` with N = GetFileVersionInfoSize("NOSUCH.EXE", &h) in
; hex: 1234 from its own VER.DLL (after `init own VER`), 0000 from the
; built-in one (the file does not exist).

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'VERUSE', 'toolhelp16 test: a program with its own VER.DLL', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE VER
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push ds
        push word name
        push ds
        push word handle
        FAR_CALL_IMPORT VER, 6          ; GetFileVersionInfoSize
        push ax
        PRINTF f_line, 2
        xor ax, ax
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        DGROUP_BEGIN 2
name:   db 'NOSUCH.EXE', 0
handle: dd 0
f_line: db 'ver %04X', 0
crlf:   db 13, 10
buf:    times 64 db 0
        DGROUP_END
