; userfake.asm -- a USER.DLL beside a program: Windows 3.1 had USER in
; memory before any program ran, so an import of USER never loaded a
; file. Its LibEntry would print `init own USER`.
; output: userfake.dll
; no-walk-expectation: a library for veruse.exe (tests/win16_loader.rs), copied as USER.DLL; it must never run
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/ne.inc"

        NE_MODULE   'USER', 'toolhelp16 test: a USER.DLL that is never loaded'
        NE_FLAGS    0x8301              ; library, single data, Windows API
        NE_HEAP     0
        NE_STACK    0
        NE_ENTRY    1, libentry
        NE_AUTODATA 2
        NE_HEADER   2

        NE_SEGMENT  1, CODE
libentry:
        mov dx, text
        mov cx, text_end - text
        mov bx, 1
        mov ah, 0x40
        int 0x21
        mov ax, 1
        retf
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
text:   db 'init own USER', 13, 10
text_end:
        NE_SEGMENT_END
