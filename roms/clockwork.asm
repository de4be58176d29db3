; clockwork.asm -- the timed Win16 program of `toolhelp16 bench`: a loop
; of 200 "frames", each reading the clock once (USER.13 GetTickCount,
; through the program's import thunk) and then computing 50,000 rounds of
; a 10-instruction block, as a game or a simulation reads the clock once
; a frame and spends the frame in its own code. Its first read makes the
; run timed (src/machine/time.rs), so `trace --record` and the debugger
; run it with the clock derived from the instruction count.
; output: clockwork.exe
; no-walk-expectation: a benchmark (src/cli/bench.rs, "recorded traces" and "debugging"); it exits with 0 when every count is at least the one before (the clock never runs backwards: SDK, GetTickCount), else 1
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/win16app.inc"

FRAMES  equ 200
ROUNDS  equ 50000

        WIN16_APP   'CLOCKWRK', 'toolhelp16 bench: a timed Win16 program', 2
        NE_IMPORT_MODULE USER
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow): 0 when the clock never
; ran backwards, else 1
main:
        NEAR_PROLOGUE
        mov si, FRAMES                  ; SI survives a far call
.frame:
        FAR_CALL_IMPORT USER, 13        ; GetTickCount() -> DX:AX
        cmp dx, [prev_hi]
        jb .backwards
        ja .later
        cmp ax, [prev_lo]
        jb .backwards
.later:
        mov [prev_hi], dx
        mov [prev_lo], ax
        mov cx, ROUNDS
        xor bx, bx
        xor dx, dx
.round:                                 ; 10 instructions a round
        add bx, cx
        xor dx, bx
        rol dx, 1
        add ax, dx
        sub bx, ax
        inc di
        xor di, ax
        nop
        dec cx
        jnz .round
        dec si
        jnz .frame
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
