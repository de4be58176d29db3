; cycle.asm -- scenario g1: a corrupted chain with a cycle.  The innermost
; function rewrites main's saved BP (the 0 that ends the chain) to point
; back down at outer's frame, so the chain loops outer -> main -> outer.
; The walk must stop when the saved BP does not climb.
; output: cycle.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `cycle_stop`, in inner, while the chain is corrupt):
;   start -> main -> outer -> middle -> inner    all near, s1
; After the stop, inner restores the word and the program exits normally.
; Expected frames: cycle.expect.

%include "inc/win16app.inc"

        WIN16_APP   'CYCLE', 'toolhelp16 scenario: a BP chain with a cycle', 2
        NE_HEADER   2

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push word 0x0002
        call outer
        xor al, al
        NEAR_EPILOGUE 4

outer:
        NEAR_PROLOGUE
        push word 0x0004
        call middle
        NEAR_EPILOGUE 2

middle:
        NEAR_PROLOGUE
        push word 0x0006
        call inner
        NEAR_EPILOGUE 2

inner:
        NEAR_PROLOGUE
        mov bx, [bp]                    ; middle's frame
        mov bx, [bx]                    ; outer's frame
        mov si, [bx]                    ; main's frame
        mov di, [si]                    ; main's saved BP (0), kept in DI
        mov [si], bx                    ; main's saved BP := outer's frame
cycle_stop:
        mov [si], di                    ; repair the chain
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
