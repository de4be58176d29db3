; fpu.asm -- floating point through WIN87EM, as Microsoft C compiles it for
; Windows: x87 instructions in their emulator-interrupt form (INT 34h-3Dh)
; with an OS fixup record (NE relocation type 3) at each, which the loader
; turns back into x87 code as Windows does with a coprocessor; one
; interrupt form without a fixup, which WIN87EM's INT 39h handler patches
; when it runs; and __fpMath's services.
; output: fpu.exe
; no-walk-expectation: a test of WIN87EM and the x87, checked by tests/win16_fpu.rs against the lines below
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints (the x87 computes in extended precision, rounding to nearest):
;   init 0 1
;   sum 300000000
;   pi 314159265
;   sqrt 1414213562
;   third 1000000000
;   es 250 wait 1
;   patched 42
;   pop 2 7 8 -3
;   round 4 cw 027F stack 2
; and exits with 0.

%include "inc/win16app.inc"
%include "inc/w16print.inc"

        WIN16_APP   'FPU', 'toolhelp16 test: WIN87EM and the x87', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE WIN87EM
        NE_HEADER   2

; the interrupt forms: ESC D8+n becomes INT 34h+n
%macro FP 2     ; FP n, modrm: [fixup] INT 34h+n, modrm (the modrm byte
                ; and any displacement follow the macro)
        OS_FIXUP 5
        db 0xCD, 0x34 + %1, %2
%endmacro

%macro FPMATH 1
        mov bx, %1
        FAR_CALL_IMPORT WIN87EM, 1
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        ; __fpMath 0 (install: FNINIT) gives AX 0; 11 says a coprocessor.
        mov ax, 0x1234
        FPMATH 0
        mov si, ax
        FPMATH 11
        push ax
        push si
        PRINTF f_init, 4

        ; (0.1 + 0.2) * 1e9
        FP 5, 0x06                      ; fld qword [a]
        dw a
        FP 4, 0x06                      ; fadd qword [b]
        dw b
        FP 4, 0x0E                      ; fmul qword [e9]
        dw e9
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        call print_r
        ; pi * 1e8
        FP 1, 0xEB                      ; fldpi
        FP 4, 0x0E                      ; fmul qword [e8]
        dw e8
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        mov word [fmt], f_pi
        call print_r
        ; sqrt(2) * 1e9
        FP 5, 0x06                      ; fld qword [two]
        dw two
        FP 1, 0xFA                      ; fsqrt
        FP 4, 0x0E                      ; fmul qword [e9]
        dw e9
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        mov word [fmt], f_sqrt
        call print_r
        ; 1 / 3 * 3e9
        FP 1, 0xE8                      ; fld1
        FP 4, 0x36                      ; fdiv qword [three]
        dw three
        FP 4, 0x0E                      ; fmul qword [e9]
        dw e9
        FP 4, 0x0E                      ; fmul qword [three]
        dw three
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        mov word [fmt], f_third
        call print_r

        ; The ES form (INT 3Ch, FIERQQ) and the WAIT (INT 3Dh, FIWRQQ):
        ; fld qword [es:q250]; fistp word [i16]; fwait.
        push ds
        pop es
        OS_FIXUP 4
        db 0xCD, 0x3C, 0xDD, 0x06       ; fld qword es:[q250]
        dw q250
        FP 7, 0x1E                      ; fistp word [i16]
        dw i16
        OS_FIXUP 6
        db 0xCD, 0x3D                   ; fwait
        mov ax, 1
        push ax
        push word [i16]
        PRINTF f_es, 4

        ; No fixup: INT 39h runs, and WIN87EM patches it in place.
        db 0xCD, 0x39, 0x06             ; fld qword [q42]
        dw q42
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        mov word [fmt], f_patched
        call print_r

        ; __fpMath 7 pops ST(0) as an integer in DX:AX, rounding as AX
        ; bits 10-11 say: 2.5 to nearest 2, 7.9 chopped 7, 7.9 up 8,
        ; -2.5 down -3.
        FP 5, 0x06                      ; fld qword [q2_5]
        dw q2_5
        xor ax, ax
        FPMATH 7
        mov si, ax
        FP 5, 0x06                      ; fld qword [q7_9]
        dw q7_9
        mov ax, 0x0C00
        FPMATH 7
        mov di, ax
        FP 5, 0x06                      ; fld qword [q7_9]
        dw q7_9
        mov ax, 0x0800
        FPMATH 7
        mov cx, ax
        FP 5, 0x06                      ; fld qword [qm2_5]
        dw qm2_5
        mov ax, 0x0400
        FPMATH 7
        push ax
        push cx
        push di
        push si
        PRINTF f_pop, 8

        ; __fpMath 6 rounds ST(0) (3.2, rounding up: 4); 4 loads the
        ; control word 027F and 5 reads it; 10 counts the registers in use.
        FP 5, 0x06                      ; fld qword [q3_2]
        dw q3_2
        mov ax, 0x0800
        FPMATH 6
        FP 3, 0x1E                      ; fistp dword [r]
        dw r
        mov ax, 0x027F
        FPMATH 4
        FPMATH 5
        mov si, ax
        FP 1, 0xE8                      ; fld1
        FP 1, 0xE8                      ; fld1
        FPMATH 10
        push ax
        push si
        push word [r]
        PRINTF f_round, 6
        FPMATH 2                        ; deinstall
        xor ax, ax
        NEAR_EPILOGUE 4

; print [r] (a long) with the format at [fmt]
print_r:
        push word [r + 2]
        push word [r]
        push ds
        push word [fmt]
        push ds
        push buf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        call print_buf
        ret

        PRINT_BUF_SUB
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA             ; DGROUP, as long as its data
        times 16 db 0                   ; the instance data
a:      dq 0.1
b:      dq 0.2
e8:     dq 1.0e8
e9:     dq 1.0e9
two:    dq 2.0
three:  dq 3.0
q250:   dq 250.0
q42:    dq 42.0
q2_5:   dq 2.5
qm2_5:  dq -2.5
q7_9:   dq 7.9
q3_2:   dq 3.2
r:      dd 0
i16:    dw 0
fmt:    dw f_sum
f_init: db 'init %d %d', 0
f_sum:  db 'sum %ld', 0
f_pi:   db 'pi %ld', 0
f_sqrt: db 'sqrt %ld', 0
f_third: db 'third %ld', 0
f_es:   db 'es %d wait %d', 0
f_patched: db 'patched %ld', 0
f_pop:  db 'pop %d %d %d %d', 0
f_round: db 'round %d cw %04X stack %d', 0
crlf:   db 13, 10
buf:    times 80 db 0
        NE_SEGMENT_END
