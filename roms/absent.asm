; absent.asm -- a Win16 program that imports a DLL nobody ships: PRIVLIB,
; by ordinal (PRIVLIB.5) and by name (PRIVLIB.DoThing). No PRIVLIB.DLL
; exists, so PRIVLIB loads as an absent module: the program runs, and only
; a call into PRIVLIB stops it, naming the function and where the DLL was
; looked for, with the caller's walk.
; output: absent.exe
; no-walk-expectation: checked by tests/win16_imports.rs (info lists PRIVLIB as absent; stack --at ABSENT!WinMain; the stop at the call)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints (OutputDebugString) `WinMain` and exits with 0. With the
; command tail `o` it then calls PRIVLIB.5 (by ordinal); with `n`,
; PRIVLIB.DoThing (by name): either stops the run.

%include "inc/win16app.inc"

        WIN16_APP   'ABSENT', 'toolhelp16 test: an import from a DLL nobody ships', 2
        NE_IMPORT_MODULE PRIVLIB
        NE_IMPORT_BYNAME dothing, 'DoThing'
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal; ES = the PSP.
WinMain:
        NEAR_PROLOGUE
        mov al, [es:0x82]               ; the tail's first letter
        push ax
        push ds
        push word s_winmain
        FAR_CALL_IMPORT KERNEL, 115     ; OutputDebugString("WinMain")
        pop ax
        cmp al, 'o'
        je .by_ordinal
        cmp al, 'n'
        je .by_name
        xor ax, ax
        NEAR_EPILOGUE 4
.by_ordinal:
        push word 7
        FAR_CALL_IMPORT PRIVLIB, 5      ; stops the run
        jmp .fell_through
.by_name:
        push word 7
        FAR_CALL_IMPORT_BYNAME PRIVLIB, dothing
.fell_through:
        mov ax, 0x4C05                  ; never reached
        int 0x21
        NE_SEGMENT_END

        DGROUP_BEGIN 2
s_winmain: db 'WinMain', 0
        DGROUP_END
