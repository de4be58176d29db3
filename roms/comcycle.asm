; comcycle.asm -- scenario h2: a real-mode DOS .COM with a corrupted chain
; (a cycle).  The innermost function rewrites main's saved BP (the 0 that
; ends the chain) to point back down at outer's frame; the walk must stop
; when the saved BP does not climb.
; output: comcycle.com
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Loaded at psp:0100, CS = DS = ES = SS = psp, SP = 0xFFFE, BP = 0.
; Call chain (stop at `cycle_stop`, in inner, while the chain is corrupt):
;   start -> main -> outer -> inner    all near
; After the stop, inner repairs the chain and the program exits normally.
; Expected frames: comcycle.expect.

%include "inc/frames.inc"

        bits 16
        cpu 186
        org 0x100

start:
        push word 0x0002                ; main(2, 4)
        push word 0x0004
        call main
        mov ax, 0x4C00
        int 0x21

main:
        NEAR_PROLOGUE
        push word 0x0010
        call outer
        NEAR_EPILOGUE 4

outer:
        NEAR_PROLOGUE
        push word 0x0020
        call inner
        NEAR_EPILOGUE 2

inner:
        NEAR_PROLOGUE
        mov bx, [bp]                    ; outer's frame
        mov si, [bx]                    ; main's frame
        mov di, [si]                    ; main's saved BP (0), kept in DI
        mov [si], bx                    ; main's saved BP := outer's frame
cycle_stop:
        mov [si], di                    ; repair the chain
        NEAR_EPILOGUE 2
