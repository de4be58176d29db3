; packme.asm -- a DOS MZ .EXE for the EXEPACK tests: tests/exepack.rs packs
; it with its own packer (the EXEPACK format) and exepack.asm's unpacker, and
; checks the packed program prints what this one prints.
; output: packme.exe
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Load module (after the 0x30-byte header; load segment L = PSP + 0x10):
;   L+0000  CODE   (0x200 bytes)   entry CS:IP = L+0000:start
;   L+0020  DATA   (0x300 bytes)   a 256-byte table 00h..FFh, 300 bytes
;                                  of 5Ah, the FAR segment's paragraph
;   L+0050  ZERO   (0x10000 bytes of 00h: unpacked by fill commands)
;   L+1050  FAR    (0x10 bytes)    a far function; a word holding DATA
; Five MZ relocations (a 0x30-byte header): DATA twice in CODE (mov ax),
; FAR in CODE (call far), FAR in DATA, DATA in FAR. The last lies past
; the first 64 KiB of the image: in the second section (1000h) of
; EXEPACK's relocation table.
; The stack (0x100 bytes) is not in the file: e_minalloc.
;
; Steps: DS = DATA; check the table, the run of 5Ah, that ZERO is all
; zeros, that the far call returns DATA's paragraph (the relocated word in
; FAR) and its own CS, and that DATA's word holds that CS (relocated FAR);
; print "packme: table, run, zeros, relocations ok" and exit with code 3.
; A failing check prints "packme: bad NAME" and exits with code 1.
;
; expected output (every line ends CR LF):
;   packme: table, run, zeros, relocations ok
; expected exit code: 3
; It creates no files.

        bits 16
        cpu 186

CODE_PARA       equ 0x0000
CODE_BYTES      equ 0x200
DATA_PARA       equ CODE_PARA + CODE_BYTES / 16
DATA_BYTES      equ 0x300
ZERO_PARA       equ DATA_PARA + DATA_BYTES / 16
ZERO_BYTES      equ 0x10000
FAR_PARA        equ ZERO_PARA + ZERO_BYTES / 16
FAR_BYTES       equ 0x10
STACK_BYTES     equ 0x100
RUN_BYTES       equ 300

; ---------------------------------------------------------------- MZ header
        section mzhdr start=0
mz:
        db 'MZ'
        dw file_size % 512              ; e_cblp
        dw (file_size + 511) / 512      ; e_cp
        dw (reloc_end - reloc_table) / 4 ; e_crlc
        dw (header_end - mz) / 16       ; e_cparhdr
        dw STACK_BYTES / 16             ; e_minalloc
        dw 0xFFFF                       ; e_maxalloc
        dw FAR_PARA + FAR_BYTES / 16    ; e_ss: just past the image
        dw STACK_BYTES                  ; e_sp
        dw 0                            ; e_csum
        dw start                        ; e_ip
        dw CODE_PARA                    ; e_cs
        dw reloc_table - mz             ; e_lfarlc
        dw 0                            ; e_ovno
reloc_table:                            ; offset, segment of each word to fix
        dw data_seg_word, CODE_PARA
        dw zero_seg_word, CODE_PARA
        dw far_call + 3, CODE_PARA
        dw far_seg_word, DATA_PARA
        dw data_in_far, FAR_PARA
reloc_end:
        times 0x30 - ($ - mz) db 0
header_end:

; ---------------------------------------------------------------- CODE
        section code follows=mzhdr vstart=0
start:
        db 0xB8                         ; mov ax, DATA
data_seg_word:
        dw DATA_PARA
        mov ds, ax
        mov es, ax

        mov si, table                   ; 00h, 01h ... FFh
        xor ax, ax
.table:
        cmp [si], al
        jne bad_table
        inc si
        inc al
        jnz .table

        mov di, run                     ; RUN_BYTES of 5Ah
        mov cx, RUN_BYTES
        mov al, 0x5A
        cld
        repe scasb
        jne bad_run

        push ds                         ; ZERO: all 32768 words
        db 0xB8                         ; mov ax, DATA (+ 40h paragraphs)
zero_seg_word:
        dw DATA_PARA
        add ax, ZERO_PARA - DATA_PARA
        mov es, ax
        xor di, di
        xor ax, ax
        mov cx, ZERO_BYTES / 2
        repe scasw
        pop ds
        jne bad_zero

far_call:
        call FAR_PARA:far_function      ; AX = [FAR:data_in_far], BX = its CS
        mov cx, ds
        cmp ax, cx
        jne bad_reloc
        cmp bx, [far_seg_word]
        jne bad_reloc

        mov dx, s_ok
        call put_str
        mov ax, 0x4C03
        int 0x21

bad_table:
        mov dx, s_table
        jmp short bad
bad_run:
        mov dx, s_run
        jmp short bad
bad_zero:
        mov dx, s_zero
        jmp short bad
bad_reloc:
        mov dx, s_reloc
bad:
        push dx
        mov dx, s_bad
        call put_str
        pop dx
        call put_str
        mov ax, 0x4C01
        int 0x21

%include "inc/dosio.inc"
        times CODE_BYTES - ($ - $$) db 0

; ---------------------------------------------------------------- DATA
        section data follows=code vstart=0
s_ok:           db 'packme: table, run, zeros, relocations ok', 13, 10, '$'
s_bad:          db 'packme: bad $'
s_table:        db 'table', 13, 10, '$'
s_run:          db 'run', 13, 10, '$'
s_zero:         db 'zero', 13, 10, '$'
s_reloc:        db 'relocation', 13, 10, '$'
far_seg_word:   dw FAR_PARA
        align 16
table:
%assign i 0
%rep 256
        db i
%assign i i + 1
%endrep
run:    times RUN_BYTES db 0x5A
        times DATA_BYTES - ($ - $$) db 0

; ---------------------------------------------------------------- ZERO
        section zero follows=data vstart=0
        times ZERO_BYTES db 0

; ---------------------------------------------------------------- FAR
        section far follows=zero vstart=0
far_function:
        mov ax, [cs:data_in_far]
        mov bx, cs
        retf
data_in_far:
        dw DATA_PARA
        times FAR_BYTES - ($ - $$) db 0

file_size equ 0x30 + CODE_BYTES + DATA_BYTES + ZERO_BYTES + FAR_BYTES
