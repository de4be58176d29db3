; frameless.asm -- scenario d: a frameless function (no `push bp`) in the
; middle of a chain.  The BP chain skips it: the walk reports the return
; address into the frameless function together with its caller's BP, and
; the return address into that caller (which is stored on the frameless
; function's stack, not in any frame) never appears.
; output: frameless.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `sum_stop`, inside sum_row):
;   start -> main          near, s1
;     -> Compute           far (odd BP), s2
;       -> add_cells       near, s2, FRAMELESS
;         -> sum_row       near, s2                    <- stop here
; Expected frames: frameless.expect.

%include "inc/win16app.inc"

        WIN16_APP   'FRAMELES', 'toolhelp16 scenario: a frameless function mid-chain', 3
        NE_HEADER   3

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow)
main:
        NEAR_PROLOGUE
        push word 0x0030                ; Compute(0x30)
        FAR_CALL 2, Compute
        xor al, al
        NEAR_EPILOGUE 4
        NE_SEGMENT_END

; ======================================================== segment 2
        NE_SEGMENT  2, CODE
; int far pascal Compute(int n)
Compute:
        WIN_FAR_PROLOGUE
        mov cx, [bp+6]
        call add_cells                  ; add_cells(cx), register argument
        WIN_FAR_EPILOGUE 2

; int near add_cells(cx) -- frameless: BP is left alone
add_cells:
        push word 0x0006                ; sum_row(6)
        call sum_row
        add ax, cx
        ret

; int near pascal sum_row(int n)
sum_row:
        NEAR_PROLOGUE
sum_stop:
        mov ax, [bp+4]
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
        DGROUP_END
