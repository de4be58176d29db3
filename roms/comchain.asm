; comchain.asm -- scenario h: a real-mode DOS .COM with the same shapes as
; the Win16 scenarios: near frames, a far frame with the odd-BP marker, a
; far frame WITHOUT the marker, and a frameless function.
; Real-mode walk rules (toolhelp.md, in real mode): an even saved BP is
; always a near frame; only an odd saved BP makes a far frame (CS =
; [BP+4]).  So the far function without the marker is reported NEAR --
; the rule's answer, kept here on purpose.
; output: comchain.com
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Loaded at psp:0100, CS = DS = ES = SS = psp, SP = 0xFFFE (a zero word at
; psp:FFFE), BP = 0.
;
; Call chain (stop at `inner_stop`, inside inner):
;   start -> main            near
;     -> FarOdd              far (push cs + near call, retf), odd-BP marker
;       -> near_a            near
;         -> PlainFar        far (call far [ptr], segment patched at run
;                            time), plain `push bp; mov bp,sp`
;           -> frameless     near, no frame
;             -> inner       near                      <- stop here
; Expected frames: comchain.expect.

%include "inc/frames.inc"

        bits 16
        cpu 186
        org 0x100

start:
        mov dx, msg
        mov ah, 0x09
        int 0x21
        push word 0x0002                ; main(2, 4)
        push word 0x0004
        call main
        mov ax, 0x4C00
        int 0x21

main:
        NEAR_PROLOGUE
        mov [plain_far_ptr + 2], cs     ; patch the far pointer's segment
        push word 0x0010                ; FarOdd(0x10)
        push cs
        call FarOdd
        NEAR_EPILOGUE 4

FarOdd:
        ODD_FAR_PROLOGUE
        push word 0x0020                ; near_a(0x20)
        call near_a
        WIN_FAR_EPILOGUE 2

near_a:
        NEAR_PROLOGUE
        push word 0x0030                ; PlainFar(0x30)
        call far [plain_far_ptr]
        NEAR_EPILOGUE 2

PlainFar:
        PLAIN_FAR_PROLOGUE
        push word 0x0040
        call frameless
        PLAIN_FAR_EPILOGUE 2

frameless:                              ; no frame: BP untouched
        push word 0x0050                ; inner(0x50)
        call inner
        ret 2

inner:
        NEAR_PROLOGUE
inner_stop:
        mov ax, [bp+4]
        NEAR_EPILOGUE 2

plain_far_ptr:
        dw PlainFar, 0                  ; offset, segment (patched by main)
msg:
        db 'toolhelp16 .COM scenario', 13, 10, '$'
