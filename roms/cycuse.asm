; cycuse.asm -- a Win16 program that imports CYCA.DLL and CYCB.DLL, two
; DLLs that import each other (roms/cyca.asm, roms/cycb.asm).
; output: cycuse.exe
; no-walk-expectation: checked by tests/win16_loader.rs (run with the DLLs beside it)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Windows initializes the libraries a program imports before the program
; runs, those a library imports before the library: CYCA is loaded first
; (the first module reference), CYCB while CYCA is being loaded, so
; CYCB's LibEntry runs first. It prints, and exits with 0:
;   init CYCB
;   init CYCA
;   cycle 0153 0153 00A1 00B2     ASUM, BSUM (each through the other
;                                 DLL), AVALUE, BVALUE

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'CYCUSE', 'toolhelp16 test: two DLLs that import each other', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE CYCA
        NE_IMPORT_MODULE CYCB
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        FAR_CALL_IMPORT CYCB, 1         ; BVALUE
        push ax
        FAR_CALL_IMPORT CYCA, 1         ; AVALUE
        push ax
        FAR_CALL_IMPORT CYCB, 2         ; BSUM
        push ax
        FAR_CALL_IMPORT CYCA, 2         ; ASUM
        push ax
        PRINTF f_line, 8
        xor ax, ax
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        DGROUP_BEGIN 2
f_line: db 'cycle %04X %04X %04X %04X', 0
crlf:   db 13, 10
buf:    times 64 db 0
        DGROUP_END
