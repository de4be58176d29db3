; a20exec.asm -- a DOS .COM that turns the A20 line on (INT 15h AX=2401h,
; as an XMS driver does for DOS=HIGH) and runs the program named in its
; command tail with INT 21h AX=4B00h, as tests/exepack.rs needs.
; output: a20exec.com
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Tail: " [/L] NAME". With /L it first allocates 64 KiB (1000h
; paragraphs), as MS-DOS 5's LOADFIX does, so the child loads above the
; first 64 KiB of memory. Prints "a20 on AX c" (INT 15h's AX, CF), the
; child's own output, then "child exit XXXX" (AH=4Dh) and exits with the
; child's code. "exec failed XXXX" (AX) and exit code 1 when EXEC fails.

        bits 16
        cpu 186
        org 0x100

start:
        mov sp, stack_top
        mov ah, 0x4A                    ; give back all but 4 KiB
        mov bx, 0x100
        int 0x21
        mov si, 0x81                    ; the tail
.skip:
        lodsb
        cmp al, ' '
        je .skip
        dec si
        cmp word [si], "/L"
        jne .name
        add si, 2
        mov ah, 0x48
        mov bx, 0x1000
        int 0x21
        jmp short .skip
.name:
        mov di, child                   ; copy NAME up to CR or space
.copy:
        lodsb
        cmp al, ' '
        jbe .named
        stosb
        jmp short .copy
.named:
        mov byte [di], 0

        mov ax, 0x2401
        int 0x15
        mov dx, s_a20
        call report

        mov [block + 4], cs
        mov [block + 8], cs
        mov [block + 12], cs
        mov ax, 0x4B00
        mov dx, child
        mov bx, block
        int 0x21
        jnc .ran
        mov dx, s_failed
        call report
        mov ax, 0x4C01
        int 0x21
.ran:
        mov ah, 0x4D
        int 0x21
        push ax
        mov dx, s_exit
        call put_str
        call put_hex4
        call put_crlf
        pop ax
        mov ah, 0x4C
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

tail     db 0, 13
fcb1     db 0, "           ", 0, 0, 0, 0
block    dw 0                           ; the parent's environment
         dw tail, 0
         dw fcb1, 0
         dw fcb1, 0
s_a20    db "a20 on $"
s_failed db "exec failed $"
s_exit   db "child exit $"

%include "inc/dosio.inc"

child    times 80 db 0
        times 256 db 0
stack_top:
