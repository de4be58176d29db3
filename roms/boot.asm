; boot.asm -- scenario i: a raw boot-sector image (512 bytes, ends 55 AA).
; Loaded at 0000:7C00; CS:IP = 0000:7C00, SS = 0, SP = 0x7C00, BP = 0,
; DL = 0x80.  It writes "BOOT" straight into text video memory at
; B800:0000, prints "toolhelp16 boot" with INT 10h AH=0Eh, then runs a
; small near/far chain; the walk is taken in the innermost function.
; Real-mode rules: even saved BP = near, odd saved BP = far.
; After the chain returns: cli; hlt (the emulator stops on HLT).
; output: boot.img
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `boot_stop`, inside inner):
;   start -> main      near
;     -> FarOdd        far (push cs + near call, retf), odd-BP marker
;       -> inner       near                              <- stop here
; Expected frames: boot.expect.

%include "inc/frames.inc"

        bits 16
        cpu 186
        org 0x7C00

start:
        xor ax, ax
        mov ds, ax
        mov ax, 0xB800                  ; text video memory
        mov es, ax
        mov word [es:0x0000], 0x1F42    ; 'B' white on blue
        mov word [es:0x0002], 0x1F4F    ; 'O'
        mov word [es:0x0004], 0x1F4F    ; 'O'
        mov word [es:0x0006], 0x1F54    ; 'T'
        mov si, msg
.print:
        lodsb
        or al, al
        jz .printed
        mov ah, 0x0E                    ; teletype output
        mov bx, 0x0007
        int 0x10
        jmp short .print
.printed:
        push word 0x0002                ; main(2)
        call main
        cli
        hlt

main:
        NEAR_PROLOGUE
        push word 0x0004                ; FarOdd(4)
        push cs
        call FarOdd
        NEAR_EPILOGUE 2

FarOdd:
        ODD_FAR_PROLOGUE
        push word 0x0006                ; inner(6)
        call inner
        WIN_FAR_EPILOGUE 2

inner:
        NEAR_PROLOGUE
boot_stop:
        mov ax, [bp+4]
        NEAR_EPILOGUE 2

msg:
        db 'toolhelp16 boot', 13, 10, 0

        times 510 - ($ - $$) db 0
        dw 0xAA55
