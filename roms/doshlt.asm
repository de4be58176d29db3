; doshlt.asm -- a DOS .COM that halts: three times with interrupts
; enabled, which on a PC waits for the next timer interrupt each time,
; then once with interrupts disabled, which hangs a PC.
; output: doshlt.com
; no-walk-expectation: a HLT behaviour test (console output, the stop), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It hooks INT 1Ch (the BIOS timer's user hook, called at every tick of
; IRQ 0) with a handler that counts, reads the BIOS tick count at
; 0040:006Ch, runs sti; hlt three times, reads the tick count again and
; prints
;   ticks 0003 handler 0003
; (the ticks that passed and the times the handler ran, hex), restores
; INT 1Ch, and then calls halt_here, which runs cli; hlt: the machine would
; hang there, and toolhelp16 stops with the walk main -> halt_here.

        bits 16
        cpu 186
        org 0x100

start:
        mov ax, 0x351C                  ; get INT 1Ch
        int 0x21
        mov [old1c], bx
        mov [old1c + 2], es
        mov dx, tick
        mov ax, 0x251C                  ; set INT 1Ch (DS = CS)
        int 0x21

        push 0x40
        pop es
        mov si, [es:0x6C]               ; ticks before
        sti
        hlt
        hlt
        hlt
        mov ax, [es:0x6C]
        sub ax, si

        mov dx, s_ticks
        call put_str
        call put_hex4
        mov dx, s_handler
        call put_str
        mov ax, [count]
        call put_hex4
        call put_crlf

        push ds
        lds dx, [old1c]
        mov ax, 0x251C                  ; restore INT 1Ch
        int 0x21
        pop ds

        push bp                         ; main's frame for the walk
        mov bp, sp
        call halt_here
        mov ax, 0x4C00                  ; never reached
        int 0x21

halt_here:
        push bp
        mov bp, sp
        cli
        hlt
        pop bp
        ret

; The INT 1Ch handler: count, chain nowhere, return.
tick:
        inc word [cs:count]
        iret

%include "inc/dosio.inc"

s_ticks:        db 'ticks $'
s_handler:      db ' handler $'
count:          dw 0
old1c:          dd 0
