; cyca.asm -- CYCA.DLL, one of two Win16 DLLs that import each other
; (roms/cycb.asm is the other; roms/cycuse.asm uses both). Windows 3.1
; loaded such a pair: a module already being loaded is referenced, not
; loaded again, and each one's entry points resolve once both have their
; segments.
; output: cyca.dll
; no-walk-expectation: a library for cycuse.exe (tests/win16_loader.rs)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; LibEntry prints `init CYCA`. Exports AVALUE (ordinal 1, AX = 00A1h) and
; ASUM (ordinal 2, AX = AVALUE + CYCB's BVALUE, called through CYCB).

%include "inc/ne.inc"

        NE_MODULE   'CYCA', 'toolhelp16 test: a DLL importing CYCB, which imports it'
        NE_FLAGS    0x8301              ; library, single data, Windows API
        NE_HEAP     0
        NE_STACK    0
        NE_ENTRY    1, libentry
        NE_AUTODATA 2
        NE_IMPORT_MODULE CYCB
        NE_EXPORT   'AVALUE', 1, avalue
        NE_EXPORT   'ASUM', 1, asum
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

avalue:
        mov ax, 0x00A1
        retf

asum:
        FAR_CALL_IMPORT CYCB, 1         ; BVALUE
        add ax, 0x00A1
        retf
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
text:   db 'init CYCA', 13, 10
text_end:
        NE_SEGMENT_END
