; datadll.asm -- a data-only Win16 DLL: one data segment, no code, no
; entry point (CS:IP 0:0), an exported table (ordinal 1). Windows 3.1
; loaded such a module like any library, without a LibEntry to call.
; output: datadll.dll
; no-walk-expectation: a library for datause.exe (tests/win16_loader.rs)
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/ne.inc"

        NE_MODULE   'DATADLL', 'toolhelp16 test: a DLL of data only'
        NE_FLAGS    0x8001              ; a library, single data
        NE_HEAP     0
        NE_STACK    0
        NE_AUTODATA 1
        NE_EXPORT   'TABLE', 1, table
        NE_HEADER   1

        NE_SEGMENT  1, DATA
        dw 0                            ; something before the table
table:  dw 0x1234, 0x5678
        NE_SEGMENT_END
