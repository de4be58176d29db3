; above.asm -- scenario g3: a corrupted chain whose saved BP climbs but
; leaves [pStackTop, pStackBot): the innermost function sets middle's saved
; BP to pStackBot itself (read from the instance data at DS:0Eh).  The walk
; must stop: the frame is out of the stack bounds.
; output: above.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `above_stop`, in inner, while the chain is corrupt):
;   start -> main -> outer -> middle -> inner    all near, s1
; After the stop, inner restores the word and the program exits normally.
; Expected frames: above.expect.

%include "inc/win16app.inc"

        WIN16_APP   'ABOVE', 'toolhelp16 scenario: a saved BP at pStackBot', 2
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
        mov ax, [pStackBot]             ; DS = SS = DGROUP
        mov [bx], ax                    ; middle's saved BP := pStackBot
above_stop:
        mov [bx], di                    ; repair the chain
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
