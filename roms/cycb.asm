; cycb.asm -- CYCB.DLL, which imports CYCA.DLL (roms/cyca.asm), which
; imports it. Its code and data segments are iterated (segment flag
; 0x0008), with a relocation in the code: an iterated DLL.
; output: cycb.dll
; no-walk-expectation: a library for cycuse.exe (tests/win16_loader.rs)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; LibEntry prints `init CYCB`. Exports BVALUE (ordinal 1, AX = 00B2h) and
; BSUM (ordinal 2, AX = BVALUE + CYCA's AVALUE, called through CYCA).

%include "inc/ne.inc"

        NE_MODULE   'CYCB', 'toolhelp16 test: a DLL importing CYCA, which imports it'
        NE_FLAGS    0x8301              ; library, single data, Windows API
        NE_HEAP     0
        NE_STACK    0
        NE_ENTRY    1, libentry
        NE_AUTODATA 2
        NE_IMPORT_MODULE CYCA
        NE_EXPORT   'BVALUE', 1, bvalue
        NE_EXPORT   'BSUM', 1, bsum
        NE_HEADER   2

        NE_SEGMENT  1, CODE, 0x80, ITERATED
libentry:
        mov dx, text
        mov cx, text_end - text
        mov bx, 1
        mov ah, 0x40
        int 0x21
        mov ax, 1
        retf

bvalue:
        mov ax, 0x00B2
        retf

bsum:
        FAR_CALL_IMPORT CYCA, 1         ; AVALUE
        add ax, 0x00B2
        retf
        NE_ITERATE  0x20
        int3
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, 0x40, ITERATED
text:   db 'init CYCB', 13, 10
text_end:
        NE_ITERATE  0x10
        db 0
        NE_SEGMENT_END
