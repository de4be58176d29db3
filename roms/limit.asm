; limit.asm -- scenario g4: a saved BP inside [pStackTop, pStackBot) whose
; frame runs past the stack segment's limit.  DGROUP ends exactly at the
; top of the stack (top = 0xA00, a multiple of 32, so the limit is 0x9FF).
; The innermost function sets outer's saved BP to pStackBot - 2 = 0x9FE
; (read from DS:0Eh): the walk accepts that frame (it climbs and is in
; bounds), then the next step fails because 0x9FE + 6 > 0x9FF.
; output: limit.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `limit_stop`, in inner, while the chain is corrupt):
;   start -> main -> outer -> middle -> inner    all near, s1
; After the stop, inner restores the word and the program exits normally.
; Expected frames: limit.expect.

%include "inc/win16app.inc"

        WIN16_APP   'LIMIT', 'toolhelp16 scenario: a frame past the stack limit', 2
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
        mov di, [bx]                    ; outer's saved BP, kept in DI
        mov ax, [pStackBot]             ; DS = SS = DGROUP
        sub ax, 2
        mov [bx], ax                    ; outer's saved BP := pStackBot - 2
limit_stop:
        mov [bx], di                    ; repair the chain
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
