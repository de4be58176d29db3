; dosexec.asm -- a DOS .COM that runs DOSCHILD.COM as a child process with
; INT 21h AX=4B00h, then loads it with AX=4B01h, as tests/dos.rs checks.
; output: dosexec.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run with DOSCHILD.COM in the sandbox. Prints "parent psp=XXXX"; runs the
; child with the tail " hello world"; prints "4B00 AX=xxxx c" and "regs
; kept" when SI, DI, BP, DS and SS:SP are what they were; "4D xxxx" twice
; (the child's code 7, then 0: DOS clears it once read); "4B00 missing
; 0002 1"; then AX=4B01h: "4B01 cs=XXXX ip=0100 sp=FFFC ax=0000" (the
; child's AX on its stack) and "current=XXXX" (the child's PSP, now
; current); back to itself with AH=50h, exit code 0.

        bits 16
        cpu 186
        org 0x100

start:
        mov sp, stack_top
        mov ah, 0x4A                    ; give back all but 4 KiB
        mov bx, 0x100
        int 0x21
        mov ah, 0x51
        int 0x21
        mov [mypsp], bx
        mov dx, s_psp
        call put_str
        mov ax, bx
        call put_hex4
        call put_crlf

        mov [block + 4], cs             ; the tail's and FCBs' segments
        mov [block + 8], cs
        mov [block + 12], cs
        mov si, 0x1111
        mov di, 0x2222
        mov bp, 0x3333
        mov [saved_sp], sp
        mov ax, 0x4B00
        mov dx, child
        mov bx, block
        int 0x21
        mov dx, s_4b00
        call report
        cmp si, 0x1111
        jne .lost
        cmp di, 0x2222
        jne .lost
        cmp bp, 0x3333
        jne .lost
        cmp sp, [saved_sp]
        jne .lost
        mov ax, cs
        mov bx, ds
        cmp ax, bx
        jne .lost
        mov dx, s_kept
        call put_str
        call put_crlf
.lost:
        mov ah, 0x4D
        int 0x21
        mov dx, s_4d
        call report
        mov ah, 0x4D
        int 0x21
        mov dx, s_4d
        call report

        mov ax, 0x4B00
        mov dx, nochild
        mov bx, block
        int 0x21
        mov dx, s_missing
        call report

        mov ax, 0x4B01
        mov dx, child
        mov bx, block
        int 0x21
        jc .fail
        mov dx, s_4b01
        call put_str
        mov ax, [block + 0x14]
        call put_hex4
        mov dx, s_ip
        call put_str
        mov ax, [block + 0x12]
        call put_hex4
        mov dx, s_sp
        call put_str
        mov ax, [block + 0x0E]
        call put_hex4
        mov dx, s_ax
        call put_str
        push es
        les bx, [block + 0x0E]
        mov ax, [es:bx]
        pop es
        call put_hex4
        call put_crlf
        mov ah, 0x51
        int 0x21
        mov dx, s_current
        call put_str
        mov ax, bx
        call put_hex4
        call put_crlf
        mov ah, 0x50
        mov bx, [mypsp]
        int 0x21
        mov ax, 0x4C00
        int 0x21
.fail:
        mov dx, s_4b01
        call report
        mov ax, 0x4C01
        int 0x21

; report: print the '$' string at DX, then AX and CF.
report:
        pushf
        call put_str
        call put_hex4
        popf
        mov dl, ' '
        call put_char
        mov dl, '0'
        adc dl, 0
        call put_char
        call put_crlf
        ret

child    db "DOSCHILD.COM", 0
nochild  db "NOCHILD.COM", 0
tail     db 12, " hello world", 13
fcb1     db 0, "           ", 0, 0, 0, 0
block    dw 0                           ; the parent's environment
         dw tail, 0
         dw fcb1, 0
         dw fcb1, 0
         dw 0, 0, 0, 0                  ; 4B01: SS:SP, CS:IP
mypsp    dw 0
saved_sp dw 0
s_psp     db "parent psp=$"
s_4b00    db "4B00 $"
s_kept    db "regs kept$"
s_4d      db "4D $"
s_missing db "4B00 missing $"
s_4b01    db "4B01 cs=$"
s_ip      db " ip=$"
s_sp      db " sp=$"
s_ax      db " ax=$"
s_current db "current=$"

%include "inc/dosio.inc"

        times 256 db 0
stack_top:
