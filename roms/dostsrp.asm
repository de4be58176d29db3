; dostsrp.asm -- a DOS .COM that runs DOSTSR.COM (in the sandbox) twice with
; INT 21h AX=4B00h: once ending with AH=31h, once with INT 27h; after each
; it reads the exit code with AH=4Dh, calls the resident INT 66h hook and
; finds the resident block on the MCB chain, as tests/dos.rs checks.
; output: dostsrp.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Output, for each run of the child (whose own lines come first):
;   "4B00 AX c"                 EXEC's AX and CF
;   "4D AX c"                   the child's code: 0305h (AH=31h, code 5)
;                               or 0300h (INT 27h): AH = 3, "resident"
;   "66 7352 psp=XXXX calls=0001 old=YYYY"
;   "66 calls=0002"             a second call: the counter was kept
;   "35 vector=XXXX:OOOO"       AH=35h: INT 66h points into the TSR
;   "mcb M owner=XXXX size=SSSS next=NNNN"
;                               the MCB before the TSR's PSP, reached by
;                               walking the chain from AH=52h's first MCB
;   or "mcb none" when the chain has no block at the TSR's PSP.
; Exit code 0; 1 when an EXEC fails.

        bits 16
        cpu 186
        org 0x100

start:
        mov sp, stack_top
        mov ah, 0x4A                    ; give back all but 4 KiB
        mov bx, 0x100
        int 0x21
        mov [block + 4], cs             ; the tail's and FCBs' segments
        mov [block + 8], cs
        mov [block + 12], cs
        mov word [block + 2], tail_none
        call run_tsr
        mov word [block + 2], tail_27
        call run_tsr
        mov ax, 0x4C00
        int 0x21

; run_tsr: EXEC DOSTSR.COM with the block, then report.
run_tsr:
        mov ax, 0x4B00
        mov dx, child
        mov bx, block
        int 0x21
        mov dx, s_4b00
        call report
        jnc .ran
        mov ax, 0x4C01
        int 0x21
.ran:
        mov ah, 0x4D
        int 0x21
        mov dx, s_4d
        call report

        xor ax, ax
        mov dx, 0x5555
        int 0x66
        mov [tsr_psp], bx
        push dx
        push cx
        mov dx, s_66
        call put_str
        call put_hex4
        mov dx, s_psp
        call put_str
        mov ax, bx
        call put_hex4
        mov dx, s_calls
        call put_str
        pop ax
        call put_hex4
        mov dx, s_old
        call put_str
        pop ax
        call put_hex4
        call put_crlf
        xor ax, ax
        int 0x66
        mov dx, s_66b
        call put_str
        mov ax, cx
        call put_hex4
        call put_crlf

        mov ax, 0x3566
        int 0x21
        mov dx, s_vec
        call put_str
        mov ax, es
        call put_hex4
        mov dl, ':'
        call put_char
        mov ax, bx
        call put_hex4
        call put_crlf
        push cs
        pop es

        ; Walk the MCB chain: the first MCB is the word before the list of
        ; lists; each block's next is seg + 1 + size.
        mov ah, 0x52
        int 0x21
        mov ax, [es:bx - 2]
        push cs
        pop es
        mov cx, 200                     ; at most this many blocks
.walk:
        push ds
        mov ds, ax
        mov dl, [0]
        mov si, [1]                     ; owner
        mov di, [3]                     ; size
        pop ds
        mov bx, ax
        inc bx
        cmp bx, [tsr_psp]
        je .found
        cmp dl, 'Z'
        je .none
        add ax, di
        inc ax
        loop .walk
.none:
        mov dx, s_none
        call put_str
        call put_crlf
        ret
.found:
        push dx
        mov dx, s_mcb
        call put_str
        pop dx
        call put_char
        mov dx, s_owner
        call put_str
        push ax
        mov ax, si
        call put_hex4
        mov dx, s_size
        call put_str
        mov ax, di
        call put_hex4
        mov dx, s_next
        call put_str
        pop ax
        add ax, di
        inc ax
        push ds
        mov ds, ax
        mov dl, [0]
        pop ds
        call put_char
        call put_crlf
        ret

; report: print the '$' string at DX, then AX and CF.
report:
        pushf
        call put_str
        call put_hex4
        popf
        pushf
        mov dl, ' '
        call put_char
        mov dl, '0'
        adc dl, 0
        call put_char
        call put_crlf
        popf
        ret

child     db "DOSTSR.COM", 0
tail_none db 0, 13
tail_27   db 3, " 27", 13
fcb1      db 0, "           ", 0, 0, 0, 0
block     dw 0                          ; the parent's environment
          dw 0, 0                       ; the tail
          dw fcb1, 0
          dw fcb1, 0
tsr_psp   dw 0
s_4b00    db "4B00 $"
s_4d      db "4D $"
s_66      db "66 $"
s_psp     db " psp=$"
s_calls   db " calls=$"
s_old     db " old=$"
s_66b     db "66 calls=$"
s_vec     db "35 vector=$"
s_mcb     db "mcb $"
s_owner   db " owner=$"
s_size    db " size=$"
s_next    db " next=$"
s_none    db "mcb none$"

%include "inc/dosio.inc"

        times 256 db 0
stack_top:
