; down.asm -- scenario g2: a corrupted chain whose saved BP goes down.  The
; innermost function rewrites middle's saved BP (outer's frame) to a lower
; address, still inside [pStackTop, pStackBot).  The walk must stop there:
; a chain must strictly climb.
; output: down.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `down_stop`, in inner, while the chain is corrupt):
;   start -> main -> outer -> middle -> inner    all near, s1
; After the stop, inner restores the word and the program exits normally.
; Expected frames: down.expect.

%include "inc/win16app.inc"

        WIN16_APP   'DOWN', 'toolhelp16 scenario: a saved BP that goes down', 2
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
        mov di, [bx]                    ; middle's saved BP, kept in DI
        lea ax, [bx-0x20]               ; 0x20 bytes below middle's frame
        mov [bx], ax                    ; middle's saved BP := that
down_stop:
        mov [bx], di                    ; repair the chain
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
