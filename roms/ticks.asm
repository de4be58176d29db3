; ticks.asm -- the system-call benchmark of `toolhelp16 bench`: a tight
; loop of 100,000 calls of USER.13 GetTickCount, each through the
; program's import thunk as any Win16 program calls it.
; output: ticks.exe
; no-walk-expectation: a benchmark (src/cli/bench.rs, "system calls"); it exits with 0 when every count is at least the one before (the clock never runs backwards: SDK, GetTickCount), else 1
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/win16app.inc"

OUTER   equ 100
INNER   equ 1000

        WIN16_APP   'TICKS', 'toolhelp16 bench: 100,000 GetTickCount calls', 2
        NE_IMPORT_MODULE USER
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow): 0 when the clock never
; ran backwards, else 1
main:
        NEAR_PROLOGUE
        mov si, OUTER                   ; SI and DI survive a far call;
                                        ; AX, BX, CX, DX and ES need not
.outer:
        mov di, INNER
.inner:
        FAR_CALL_IMPORT USER, 13        ; GetTickCount() -> DX:AX
        cmp dx, [prev_hi]
        jb .backwards
        ja .later
        cmp ax, [prev_lo]
        jb .backwards
.later:
        mov [prev_hi], dx
        mov [prev_lo], ax
        dec di
        jnz .inner
        dec si
        jnz .outer
        xor al, al
        jmp short .out
.backwards:
        mov al, 1
.out:
        NEAR_EPILOGUE 4
        NE_SEGMENT_END

        DGROUP_BEGIN 2
prev_lo: dw 0                           ; the count before
prev_hi: dw 0
        DGROUP_END
