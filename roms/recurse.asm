; recurse.asm -- scenario e: a near recursive function with a standard
; frame, 100 calls deep; the walk is taken in the deepest call.  Also an
; explicit end-of-chain case (scenario f): main was entered with BP = 0,
; so the walk ends when it reads main's saved BP, 0.
; output: recurse.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `deepest`, reached only by the 100th call):
;   start -> main                near, s1
;     -> countdown (CX = 100)    near, s1
;       -> countdown (CX = 99) ... 100 calls in all
; Expected frames: recurse.expect (1 + 99 + 1 = 101 frames).

%include "inc/win16app.inc"

DEPTH   equ 100

        WIN16_APP   'RECURSE', 'toolhelp16 scenario: 100-deep near recursion', 2
        NE_HEADER   2

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow)
main:
        NEAR_PROLOGUE
        mov cx, DEPTH
        call countdown
        xor al, al
        NEAR_EPILOGUE 4

; void near countdown(cx): recurses while --cx != 0
countdown:
        NEAR_PROLOGUE
        dec cx
        jz deepest
        call countdown
        jmp short countdown_out
deepest:
        nop                             ; the 100th call only
countdown_out:
        NEAR_EPILOGUE
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
