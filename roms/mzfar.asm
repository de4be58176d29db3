; mzfar.asm -- scenario j: a real-mode DOS MZ .EXE with two code segments
; and far calls whose segment words are fixed up by MZ relocations.
; output: mzfar.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Load module (starts after the 0x30-byte header, loaded at the load
; segment L = PSP + 0x10):
;   L+0000  CODE_A  (0x100 bytes, padded)  entry CS:IP = L+0000:0000
;   L+0010  CODE_B  (0x100 bytes, padded)
;   L+0020  STACK   (0x200 bytes, not in the file: e_minalloc)
;           SS:SP = L+0020:0200
; Two relocations: the segment words of the two `call far` instructions.
;
; Call chain (stop at `leaf_stop`, inside Leaf):
;   start (sets BP = 0) -> main       near, CODE_A
;     -> Worker                       far (odd BP), CODE_B
;       -> helper                     near, CODE_B
;         -> Leaf                     far (odd BP), CODE_A   <- stop here
; Expected frames: mzfar.expect.

%include "inc/frames.inc"

        bits 16
        cpu 186

CODE_A_PARA  equ 0x0000         ; paragraphs from the load segment
CODE_B_PARA  equ 0x0010
STACK_PARA   equ 0x0020
STACK_BYTES  equ 0x0200

; ---------------------------------------------------------------- MZ header
        section mzhdr start=0
mz:
        db 'MZ'
        dw file_size % 512              ; e_cblp: bytes in the last page
        dw (file_size + 511) / 512      ; e_cp: pages
        dw (reloc_end - reloc_table) / 4 ; e_crlc
        dw (header_end - mz) / 16       ; e_cparhdr
        dw STACK_BYTES / 16             ; e_minalloc: room for the stack
        dw 0xFFFF                       ; e_maxalloc
        dw STACK_PARA                   ; e_ss (relative to the load segment)
        dw STACK_BYTES                  ; e_sp
        dw 0                            ; e_csum
        dw start                        ; e_ip
        dw CODE_A_PARA                  ; e_cs
        dw reloc_table - mz             ; e_lfarlc
        dw 0                            ; e_ovno
reloc_table:                            ; offset, segment of each word to fix
        dw call_worker_seg, CODE_A_PARA
        dw call_leaf_seg, CODE_B_PARA
reloc_end:
        times 0x30 - ($ - mz) db 0
header_end:

; ---------------------------------------------------------------- CODE_A
        section code_a follows=mzhdr vstart=0
start:
        xor bp, bp                      ; the end of every BP chain
        push cs
        pop ds
        mov dx, msg
        mov ah, 0x09
        int 0x21
        push word 0x0002                ; main(2)
        call main
        mov ax, 0x4C00
        int 0x21

main:
        NEAR_PROLOGUE
        push word 0x0004                ; Worker(4)
        db 0x9A                         ; call far CODE_B:Worker
        dw Worker
call_worker_seg:
        dw CODE_B_PARA                  ; + load segment (relocation 1)
        NEAR_EPILOGUE 2

Leaf:
        ODD_FAR_PROLOGUE
leaf_stop:
        mov ax, [bp+6]
        WIN_FAR_EPILOGUE 2

msg:
        db 'toolhelp16 MZ scenario', 13, 10, '$'
        times 0x100 - ($ - $$) db 0

; ---------------------------------------------------------------- CODE_B
        section code_b follows=code_a vstart=0
Worker:
        ODD_FAR_PROLOGUE
        push word 0x0006                ; helper(6)
        call helper
        WIN_FAR_EPILOGUE 2

helper:
        NEAR_PROLOGUE
        push word 0x0008                ; Leaf(8)
        db 0x9A                         ; call far CODE_A:Leaf
        dw Leaf
call_leaf_seg:
        dw CODE_A_PARA                  ; + load segment (relocation 2)
        NEAR_EPILOGUE 2
        times 0x100 - ($ - $$) db 0
code_b_end:

file_size equ 0x30 + 0x200
