; faults.asm -- one Win16 program, one fault per command-tail letter, each
; raised two calls deep so the walk from the faulting context has frames.
; output: faults.exe
; no-walk-expectation: a fault scenario; tests/win16_faults.rs runs each mode and checks the fault number, CS:IP and every frame of the walk
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; Call chain at every fault (BP values from inc/win16app.inc):
;   start -> main (near, s1, BP 09F8) -> Outer (far, s2, odd BP, BP 09F0)
;   -> Site (near, s2, BP 09EA) -> the faulting instruction in Site,
; except `r`, where Site calls Recurse, which recurses 20 times (near
; frames 6 bytes apart) before the GP, and `o`, where Recurse recurses until
; the stack runs out (a push at SP 0000: a stack fault, with the instance
; data at DS:0..0F long overwritten).
; The tail letter (PSP:82h) picks the fault:
;   d  divide by zero            (div cx)
;   u  invalid opcode            (0F FF)
;   i  INT 3                     (int3)
;   s  single step               (TF set by popf; the trap comes after the
;                                 next instruction)
;   w  GP: a write one byte past DGROUP's limit (mov [09FFh], ax: a word at
;      the last byte)
;   v  GP: loading an invalid selector into ES (mov es, 0FFFFh)
;   n  GP: a read through a null ES (after mov es, 0)
;   o  stack overflow: unbounded near recursion
;   r  GP 20 frames deep: a read past DGROUP's limit after 20 recursions
; Any other letter: exit code 1.

%include "inc/win16app.inc"

        WIN16_APP   'FAULTS', 'toolhelp16: one fault per command-tail letter', 3
        NE_HEADER   3

; ======================================================== segment 1: _TEXT
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE hInstance, int nCmdShow)
main:
        NEAR_PROLOGUE
        mov al, [es:0x82]
        xor ah, ah
        push ax                         ; Outer(letter)
        FAR_CALL 2, Outer
        mov al, 1                       ; unknown letter: exit code 1
        NEAR_EPILOGUE 4
        NE_SEGMENT_END

; ======================================================== segment 2: FAULT_TEXT
        NE_SEGMENT  2, CODE
; void far pascal Outer(int letter)
Outer:
        WIN_FAR_PROLOGUE
        push word [bp+6]
        call Site
        WIN_FAR_EPILOGUE 2

; void near pascal Site(int letter)
Site:
        NEAR_PROLOGUE
        mov ax, [bp+4]
        cmp al, 'd'
        je f_div
        cmp al, 'u'
        je f_ud
        cmp al, 'i'
        je f_int3
        cmp al, 's'
        je f_step
        cmp al, 'w'
        je f_write
        cmp al, 'v'
        je f_sel
        cmp al, 'n'
        je f_null
        cmp al, 'o'
        je f_over
        cmp al, 'r'
        je f_deep
        NEAR_EPILOGUE 2
f_div:
        xor dx, dx
        xor cx, cx
div_site:
        div cx
f_ud:
ud_site:
        db 0x0F, 0xFF
f_int3:
int3_site:
        int3
f_step:
        pushf
        pop ax
        or ah, 1                        ; TF
        push ax
        popf
step_insn:
        nop
step_after:
        nop
f_write:
write_site:
        mov [0x09FF], ax
f_sel:
        mov ax, 0xFFFF
sel_site:
        mov es, ax
f_null:
        xor ax, ax
        mov es, ax
null_site:
        mov al, [es:0]
f_over:
        push word FOREVER
        call Recurse
f_deep:
        push word 40
        call Recurse

; void near pascal Recurse(int n): n > 0 recurses with n - 2 (FOREVER never
; stops); n == 0 reads past DGROUP's limit. The arguments are even (40,
; 38, ..., 0 and 0100h), so that no near frame's [BP+4] has RPL 3 and
; could pass for a code selector (roms/README.md).
FOREVER equ 0x0100
Recurse:
        NEAR_PROLOGUE
        mov ax, [bp+4]
        cmp ax, FOREVER
        je .again
        or ax, ax
        jz deep_fault
        sub ax, 2
.again:
        push ax
        call Recurse
        NEAR_EPILOGUE 2
deep_fault:
        mov ax, [0xFFF0]
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
        DGROUP_END
