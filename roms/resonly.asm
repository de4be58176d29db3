; resonly.asm -- a resource-only Win16 DLL: no segments at all, only a
; string table, as a program keeps its texts (or its translations) in a
; DLL it loads with LoadLibrary for its resources. Its instance handle is
; its module handle (it has no data segment).
; output: resonly.dll
; no-walk-expectation: a library for resuse.exe (tests/win16_loader.rs)
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/ne.inc"

        NE_MODULE   'RESONLY', 'toolhelp16 test: a resource-only DLL'
        NE_FLAGS    0x8000              ; a library, no data
        NE_HEAP     0
        NE_STACK    0
        NE_RESOURCE 6, 1, strings       ; RT_STRING block 1: ids 0..15
        NE_HEADER   0

        NE_RESOURCES_BEGIN
        NE_RESDATA strings
        db 0                            ; id 0: empty
        db 21, 'text from no segments'  ; id 1
        times 14 db 0                   ; ids 2..15: empty
        NE_RESDATA_END strings
        NE_RESOURCES_END
