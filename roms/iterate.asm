; iterate.asm -- a Win16 program whose three segments are all iterated
; (NE segment flag 0x0008): the file holds each as records of a
; repetition count, a byte count and the bytes, which the loader expands
; into the segment before it applies the relocation records that follow
; them. Code and data, with relocations in every segment.
; output: iterate.exe
; no-walk-expectation: a loader test, checked by tests/win16_loader.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints, and exits with 0:
;   data abababababZZZ          the DGROUP bytes after record 1: 'ab' x 5,
;                               'Z' x 3, then a zero (record 4)
;   code 2400 0441 1 1          the sum of the 0x40 NOPs (90h) after
;                               segment 1's first record; the sum of
;                               'xyz' x 3 after segment 2's; the far call
;                               into segment 2 (a relocation there) loaded
;                               DGROUP's selector (a relocation there) and
;                               read `magic` through it
;   tail 0                      the bytes after the expansion up to the
;                               minimum allocation are zero

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'ITERATE', 'toolhelp16 test: iterated segments', 3
        NE_IMPORT_MODULE USER
        NE_HEADER   3

        NE_SEGMENT  1, CODE, 0x200, ITERATED
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push si
        push di
        ; "data " then the expanded bytes after DGROUP's first record
        mov dx, t_data
        mov cx, 5
        call write
        mov dx, __ne_seg3_rec1_len
        mov cx, 13
        call write
        mov dx, crlf
        mov cx, 2
        call write
        ; segment 2's far function: AX = its sum, DX = DGROUP's selector
        ; as its relocation gave it, BX = `magic` read through it
        FAR_CALL 2, far_sum
        xor si, si
        mov cx, ds
        cmp dx, cx
        jne .a
        inc si
.a:     xor di, di
        cmp bx, 0x1234
        jne .b
        inc di
.b:     push di
        push si
        push ax
        ; the NOPs of this segment's second record
        mov si, __ne_seg1_rec1_len
        mov cx, 0x40
        xor ax, ax
        xor bx, bx
.sum:   mov bl, [cs:si]
        add ax, bx
        inc si
        loop .sum
        push ax
        PRINTF f_code, 8
        ; DGROUP beyond the records: zero up to the minimum allocation
        mov si, __ne_seg3_rec1_len + 14
        xor ax, ax
        xor bx, bx
.tail:  mov bl, [si]
        or ax, bx
        inc si
        cmp si, DGROUP_SIZE
        jb .tail
        push ax
        PRINTF f_tail, 2
        xor ax, ax
        pop di
        pop si
        NEAR_EPILOGUE 4

; write CX bytes at DS:DX to the console (handle 1)
write:
        mov bx, 1
        mov ah, 0x40
        int 0x21
        ret

        PRINT_BUF_SUB
        NE_ITERATE  0x40
        nop
        NE_SEGMENT_END

        NE_SEGMENT  2, CODE, 0x100, ITERATED
; far_sum: AX = the sum of the 9 bytes after this segment's first record,
; DX = DGROUP's selector (a relocation), BX = DGROUP's `magic`.
far_sum:
        push ds
        push si
        MOV_AX_SELECTOR 3
        mov dx, ax
        mov ds, ax
        mov bx, [magic]
        mov si, __ne_seg2_rec1_len
        mov cx, 9
        xor ax, ax
.l:     push bx
        xor bx, bx
        mov bl, [cs:si]
        add ax, bx
        pop bx
        inc si
        loop .l
        pop si
        pop ds
        retf
        NE_ITERATE  3
        db 'xyz'
        NE_SEGMENT_END

        NE_SEGMENT  3, DATA, DGROUP_SIZE, ITERATED
instance_data:
        times 16 db 0                   ; filled by InitTask (toolhelp.md)
magic:  dw 0x1234
t_data: db 'data '
f_code: db 'code %04X %04X %d %d', 0
f_tail: db 'tail %d', 0
crlf:   db 13, 10
buf:    times 64 db 0
        NE_ITERATE  5
        db 'ab'
        NE_ITERATE  3
        db 'Z'
        NE_ITERATE  1
        db 0
        NE_SEGMENT_END
