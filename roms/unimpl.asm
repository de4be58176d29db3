; unimpl.asm -- a Win16 program that calls an import this emulator does not
; implement (KERNEL.204 SwapRecording, a Windows 3.0 swap-profiling call):
; the import resolves, and calling it stops the run with exit kind
; `unimplemented`, naming KERNEL.204 SWAPRECORDING, with the caller's walk.
; output: unimpl.exe
; no-walk-expectation: checked by tests/cli.rs (the stop names the import; the walk starts at the caller)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; If SwapRecording is ever implemented, pick another import nobody calls.

%include "inc/win16app.inc"

        WIN16_APP   'UNIMPL', 'toolhelp16: a call of an unimplemented import', 2
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push word 0                     ; SwapRecording(0)
        FAR_CALL_IMPORT KERNEL, 204
        xor al, al
        NEAR_EPILOGUE 4
        NE_SEGMENT_END

        DGROUP_BEGIN 2
        DGROUP_END
