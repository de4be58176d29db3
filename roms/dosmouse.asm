; dosmouse.asm -- a DOS .COM that drives the INT 33h mouse driver installed
; by `--mouse` and prints what each function returned and what its event
; handler was called with, for tests/dos.rs to compare with the Microsoft
; Mouse Programmer's Reference.
; output: dosmouse.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run with --mouse "wait 2; move 100 50; click left; move 200 120;
; click right; wait 3; move 8 8; click left; wait 2". Each line is a
; function (or "cb" for a handler call) and the registers it returned, in
; hex; the expected lines and the rule behind each are in tests/dos.rs
; (mouse_driver_answers_as_microsoft_s). With a command tail it first
; hooks INT 74h (IRQ 12) with a handler that counts and chains to the old
; vector, and ends with "74 NNNN", the count. Without --mouse it prints
; "no mouse AX BX" (AX = 0000h from the reset, BX as it was: 1234h) and
; exits with code 1. Exit code 0 otherwise.

        bits 16
        cpu 186
        org 0x100

; print the string, then each operand as " XXXX", then CR LF
%macro LINE 1-*
        push dx
        mov dx, %%s
        call put_str
        pop dx
        jmp short %%j
%%s:    db %1, '$'
%%j:
%rep %0 - 1
%rotate 1
        push ax
        mov ax, %1
        call space_hex
        pop ax
%endrep
        call put_crlf
%endmacro

start:
        mov [cs_seg], cs
        cmp byte [0x80], 0              ; a tail: hook IRQ 12 (INT 74h) first
        je .no_hook
        mov ax, 0x3574
        int 0x21
        mov [old74], bx
        mov [old74 + 2], es
        mov ax, 0x2574
        mov dx, irq74
        int 0x21
        push cs
        pop es
.no_hook:
        mov bx, 0x1234
        xor ax, ax
        int 0x33
        cmp ax, 0xFFFF
        je .installed
        LINE "no mouse", ax, bx
        mov ax, 0x4C01
        int 0x21
.installed:
        LINE "00", ax, bx
        mov ax, 3
        int 0x33
        LINE "03", bx, cx, dx
        mov ax, 0x24
        int 0x33
        LINE "24", bx, cx

        ; Positions: set, clipped to ranges, rounded to the cell.
        mov ax, 4
        mov cx, 0x123
        mov dx, 0x45
        int 0x33
        mov ax, 3
        int 0x33
        LINE "04", cx, dx
        mov ax, 7
        mov cx, 600                     ; max first: the driver swaps them
        mov dx, 16
        int 0x33
        mov ax, 8
        mov cx, 8
        mov dx, 184
        int 0x33
        mov ax, 4
        mov cx, 700
        mov dx, 300
        int 0x33
        mov ax, 3
        int 0x33
        LINE "07 high", cx, dx
        mov ax, 4
        xor cx, cx
        xor dx, dx
        int 0x33
        mov ax, 3
        int 0x33
        LINE "07 low", cx, dx
        mov ax, 7
        xor cx, cx
        mov dx, 639
        int 0x33
        mov ax, 8
        xor cx, cx
        mov dx, 199
        int 0x33

        mov ax, 0x1A
        mov bx, 30
        mov cx, 70
        mov dx, 20
        int 0x33
        xor bx, bx
        xor cx, cx
        xor dx, dx
        mov ax, 0x1B
        int 0x33
        LINE "1B", bx, cx, dx

        ; The software text cursor over 'M' (attribute 07h) at column 36,
        ; row 20: screen mask 00FFh, cursor mask 7000h.
        mov ax, 9                       ; a graphics cursor, remembered
        mov bx, 1
        mov cx, 2
        mov dx, masks
        int 0x33
        mov ax, 0x0A
        xor bx, bx
        mov cx, 0x00FF
        mov dx, 0x7000
        int 0x33
        mov ax, 4
        mov cx, 36 * 8 + 3
        mov dx, 20 * 8 + 5
        int 0x33
        push es
        push 0xB800
        pop es
        mov word [es:CELL], 0x074D
        mov di, cells
        call cell
        mov ax, 1                       ; flag -1 -> 0: shows
        int 0x33
        call cell
        mov ax, 1                       ; stays 0
        int 0x33
        call cell
        mov ax, 2                       ; -1: hidden
        int 0x33
        call cell
        mov ax, 2                       ; -2
        int 0x33
        call cell
        mov ax, 1                       ; -1: still hidden
        int 0x33
        call cell
        mov ax, 1                       ; 0: shows
        int 0x33
        call cell
        mov ax, 4                       ; moves away: the cell comes back
        mov cx, 37 * 8
        int 0x33
        call cell
        mov ax, [es:CELL + 2]           ; and the next one has it
        mov [di], ax
        mov ax, 2
        int 0x33
        mov ax, [es:CELL + 2]           ; until it hides
        mov [di + 2], ax
        pop es
        LINE "cursor", [cells], [cells + 2], [cells + 4], [cells + 6], [cells + 8], [cells + 10], [cells + 12], [cells + 14], [cells + 16], [cells + 18]

        ; The event handler. A reset first: centre, counters 0.
        xor ax, ax
        int 0x33
        mov ax, 0x0B
        int 0x33
        mov ax, 0x0C
        mov cx, 0x001F
        mov dx, handler
        push cs
        pop es
        int 0x33
        mov ax, 0x14                    ; the same again: the old ones back
        mov cx, 0x001F
        mov dx, handler
        int 0x33
        mov ax, es                      ; AX = 1 when ES:DX is the handler
        sub ax, [cs_seg]
        sub dx, handler
        or ax, dx
        push cs
        pop es
        cmp ax, 1
        mov ax, 0
        adc ax, 0
        LINE "14", cx, ax
        mov ax, 6
        call wait_calls
        LINE "kept", bp, si, di
        mov ax, 0x0B
        int 0x33
        LINE "0B", cx, dx
        mov ax, 0x0B
        int 0x33
        LINE "0B", cx, dx
        mov ax, 5
        xor bx, bx
        int 0x33
        LINE "05 left", ax, bx, cx, dx
        mov ax, 6
        xor bx, bx
        int 0x33
        LINE "06 left", ax, bx, cx, dx
        mov ax, 5
        mov bx, 1
        int 0x33
        LINE "05 right", ax, bx, cx, dx
        mov ax, 6
        mov bx, 1
        int 0x33
        LINE "06 right", ax, bx, cx, dx
        mov ax, 5
        xor bx, bx
        int 0x33
        LINE "05 left", ax, bx, cx, dx
        mov ax, 3
        int 0x33
        LINE "03", bx, cx, dx

        mov ax, 0x14                    ; left presses only
        mov cx, 0x0002
        mov dx, handler
        int 0x33
        mov ax, 7
        call wait_calls
        mov ax, 8                       ; and nothing more comes
        call wait_ticks
        mov si, records
        mov cx, [calls]
.print:
        LINE "cb", [si], [si + 2], [si + 4], [si + 6], [si + 8], [si + 10]
        add si, 12
        loop .print

        mov ax, 0x0C                    ; no handler
        xor cx, cx
        int 0x33
        mov ax, 0x21
        int 0x33
        LINE "21", ax, bx
        mov ax, 3
        int 0x33
        LINE "03", bx, cx, dx
        cmp word [old74 + 2], 0
        je .exit
        push ds
        lds dx, [old74]
        mov ax, 0x2574
        int 0x21
        pop ds
        LINE "74", [irqs]
.exit:
        mov ax, 0x4C00
        int 0x21

CELL    equ (20 * 80 + 36) * 2

; cell: store the word at ES:CELL at [DS:DI], DI += 2.
cell:
        push ax
        mov ax, [es:CELL]
        mov [di], ax
        add di, 2
        pop ax
        ret

; wait_calls: wait until the handler was called AX times (or 200 ticks
; passed), with BP, SI, DI holding 1111h, 2222h, 3333h meanwhile.
wait_calls:
        mov bp, 0x1111
        mov si, 0x2222
        mov di, 0x3333
        push es
        push 0x40
        pop es
        mov bx, [es:0x6C]
.poll:
        cmp [calls], ax
        jae .done
        mov cx, [es:0x6C]
        sub cx, bx
        cmp cx, 200
        jb .poll
.done:
        pop es
        ret

; wait_ticks: let AX timer ticks pass.
wait_ticks:
        push es
        push 0x40
        pop es
        mov bx, [es:0x6C]
.poll:
        mov cx, [es:0x6C]
        sub cx, bx
        cmp cx, ax
        jb .poll
        pop es
        ret

; The event handler: called far by the driver (DS = the driver's).
handler:
        push bp
        mov bp, [cs:calls]
        cmp bp, 8
        jae .full
        imul bp, bp, 12
        mov [cs:records + bp], ax
        mov [cs:records + bp + 2], bx
        mov [cs:records + bp + 4], cx
        mov [cs:records + bp + 6], dx
        mov [cs:records + bp + 8], si
        mov [cs:records + bp + 10], di
        inc word [cs:calls]
.full:
        pop bp
        xor ax, ax                      ; the driver gives the program its own back
        mov bx, ax
        mov si, ax
        mov di, ax
        retf

; irq74: the program's own IRQ 12 handler: counts, then chains to the
; BIOS's (where the mouse driver's part runs).
irq74:
        inc word [cs:irqs]
        jmp far [cs:old74]

; space_hex: print " " and AX in hex.
space_hex:
        push dx
        mov dl, ' '
        call put_char
        pop dx
        call put_hex4
        ret

%include "inc/dosio.inc"

cs_seg  dw 0
old74   dw 0, 0
irqs    dw 0
masks   times 32 dw 0x5A5A
calls   dw 0
records times 8 * 6 dw 0
cells   times 10 dw 0
