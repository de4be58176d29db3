; verfake.asm -- a VER.DLL of a program's own, as programs shipped one
; beside them: Windows 3.1 loaded the first VER.DLL its search found
; instead of the system's. Its LibEntry prints `init own VER`; its
; GetFileVersionInfoSize (ordinal 6) returns 1234h whatever it is asked.
; output: verfake.dll
; no-walk-expectation: a library for veruse.exe (tests/win16_loader.rs), copied as VER.DLL
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/ne.inc"

        NE_MODULE   'VER', 'toolhelp16 test: the own VER.DLL of a program'
        NE_FLAGS    0x8301              ; library, single data, Windows API
        NE_HEAP     0
        NE_STACK    0
        NE_ENTRY    1, libentry
        NE_AUTODATA 2
        NE_EXPORT   'X1', 1, size       ; ordinals 1..5 are placeholders
        NE_EXPORT   'X2', 1, size
        NE_EXPORT   'X3', 1, size
        NE_EXPORT   'X4', 1, size
        NE_EXPORT   'X5', 1, size
        NE_EXPORT   'GETFILEVERSIONINFOSIZE', 1, size
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

; GetFileVersionInfoSize(lpszFileName, lpdwHandle): pascal, 8 bytes
size:
        mov ax, 0x1234
        xor dx, dx
        retf 8
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
text:   db 'init own VER', 13, 10
text_end:
        NE_SEGMENT_END
