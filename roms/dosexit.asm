; dosexit.asm -- a DOS MZ .EXE with its own data and stack segments that
; asks DOS for exactly the memory it needs, allocates more, and exits
; with code 7.
; output: dosexit.exe
; no-walk-expectation: a DOS behaviour test (console output, exit code), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Load module (after the 0x20-byte header; load segment L = PSP + 0x10):
;   L+0000  CODE   (0x100 bytes, padded)  entry CS:IP = L+0000:0000
;   L+0010  DATA   (0x40 bytes, padded)   reached via one MZ relocation
;   L+0014  STACK  (0x100 bytes, not in the file)  SS:SP = L+0014:0100
; e_minalloc = e_maxalloc = 0x10 paragraphs (the stack), so DOS gives the
; program exactly PSP + load module + stack = 0x10 + 0x14 + 0x10 = 0x34
; paragraphs and the rest of memory stays free.
; Steps: DS = DATA (the relocated immediate); print "exe ok"; INT 21h
; AH=48h, BX = 0x10 paragraphs (succeeds: the memory after the program is
; free), write a byte there, print "alloc ok"; AH=49h free it, print
; "free ok"; AH=4Ch exit code 7.
;
; expected output (every line ends CR LF):
;   exe ok
;   alloc ok
;   free ok
; expected exit code: 7
; On a failing 48h/49h it prints "alloc failed: error XXXX" or
; "free failed: error XXXX" (XXXX = AX in hex) and exits with code 1.
; It creates no files.

        bits 16
        cpu 186

CODE_PARA       equ 0x0000      ; paragraphs from the load segment
CODE_BYTES      equ 0x100
DATA_PARA       equ CODE_PARA + CODE_BYTES / 16
DATA_BYTES      equ 0x40
STACK_PARA      equ DATA_PARA + DATA_BYTES / 16
STACK_BYTES     equ 0x100
ALLOC_PARAS     equ 0x10

; ---------------------------------------------------------------- MZ header
        section mzhdr start=0
mz:
        db 'MZ'
        dw file_size % 512              ; e_cblp: bytes in the last page
        dw (file_size + 511) / 512      ; e_cp: pages
        dw (reloc_end - reloc_table) / 4 ; e_crlc
        dw (header_end - mz) / 16       ; e_cparhdr
        dw STACK_BYTES / 16             ; e_minalloc: room for the stack
        dw STACK_BYTES / 16             ; e_maxalloc = e_minalloc: no more
        dw STACK_PARA                   ; e_ss (relative to the load segment)
        dw STACK_BYTES                  ; e_sp
        dw 0                            ; e_csum
        dw start                        ; e_ip
        dw CODE_PARA                    ; e_cs
        dw reloc_table - mz             ; e_lfarlc
        dw 0                            ; e_ovno
reloc_table:                            ; offset, segment of each word to fix
        dw data_seg_word, CODE_PARA
reloc_end:
        times 0x20 - ($ - mz) db 0
header_end:

; ---------------------------------------------------------------- CODE
        section code follows=mzhdr vstart=0
start:
        db 0xB8                         ; mov ax, DATA
data_seg_word:
        dw DATA_PARA                    ; + load segment (the relocation)
        mov ds, ax

        mov dx, s_exe_ok
        call put_str

        mov bx, ALLOC_PARAS
        mov ah, 0x48
        int 0x21
        mov dx, s_alloc
        jc fail
        mov es, ax
        mov byte [es:0x0000], 0xA5
        call put_str
        mov dx, s_ok
        call put_str

        mov ah, 0x49                    ; ES = the block
        int 0x21
        mov dx, s_free
        jc fail
        call put_str
        mov dx, s_ok
        call put_str

        mov ax, 0x4C07
        int 0x21

; fail: DX = the step's '$' string, AX = the DOS error code.
fail:
        call put_str
        mov dx, s_failed
        call put_str
        call put_hex4
        call put_crlf
        mov ax, 0x4C01
        int 0x21

%include "inc/dosio.inc"
        times CODE_BYTES - ($ - $$) db 0

; ---------------------------------------------------------------- DATA
        section data follows=code vstart=0
s_exe_ok:       db 'exe ok', 13, 10, '$'
s_alloc:        db 'alloc$'
s_free:         db 'free$'
s_ok:           db ' ok', 13, 10, '$'
s_failed:       db ' failed: error $'
        times DATA_BYTES - ($ - $$) db 0

file_size equ 0x20 + CODE_BYTES + DATA_BYTES
