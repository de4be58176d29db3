; faultskip.asm -- a Win16 program that survives its own faults through a
; TOOLHELP InterruptRegister callback.
; output: faultskip.exe
; no-walk-expectation: a fault-dispatch scenario; tests/win16_faults.rs checks its output and its clean exit, and that without the callback the same divide error ends the run
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; main registers FaultProc with TOOLHELP.InterruptRegister(NULL, FaultProc),
; then divides by zero at `div_here` (1:0037: `div cx`, 2 bytes). TOOLHELP
; enters FaultProc on the task's stack with the frame of toolhelp.md:
;   [SP+0] return IP, [SP+2] return CS (into TOOLHELP), [SP+4] AX (DS to
;   load), [SP+6] interrupt number, [SP+8] handle, [SP+0A] IP, [SP+0C] CS,
;   [SP+0E] FLAGS of the faulting instruction.
; FaultProc prints "fault NNNN at IIII" (OutputDebugString), and for a
; divide error (0) adds 2 to the frame's IP, discards the first 10 bytes and
; IRETs: the program resumes after the `div`, prints "resumed", executes
; INT 3 at `int3_here` (1:0042; a trap: the frame's IP, 0043, is already
; past it), which
; FaultProc also resumes, prints "after int3", unregisters
; (InterruptUnRegister(NULL)) and exits with code 0. Any other fault is
; passed on with RETF (the default: the run ends with the fault).
; With the command tail "nocallback" main skips the registration, and the
; divide error ends the run as an unhandled fault. With "passon", after
; "after int3" it reads past DGROUP's limit at `gp_here`: FaultProc prints
; the GP fault and passes it on with RETF, and with no other callback the
; default action ends the run with the fault.

%include "inc/win16app.inc"
%include "inc/emithex.inc"

        WIN16_APP   'FAULTSKIP', 'toolhelp16: a Win16 program whose InterruptRegister callback skips its faults', 2
        NE_IMPORT_MODULE TOOLHELP
        NE_EXPORT   'FAULTPROC', 1, FaultProc
        NE_HEADER   2

; ======================================================== segment 1: _TEXT
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE hInstance, int nCmdShow)
main:
        NEAR_PROLOGUE
        cmp byte [es:0x82], 'n'         ; command tail " nocallback"?
        je .fault
        push word 0                     ; InterruptRegister(NULL, FaultProc)
        MOV_AX_SELECTOR 1
        push ax
        push word FaultProc
        FAR_CALL_IMPORT TOOLHELP, 75
.fault:
        mov ax, 0x1234
        xor dx, dx
        xor cx, cx
div_here:
        div cx                          ; divide error
        push ds
        push word s_resumed
        FAR_CALL_IMPORT KERNEL, 115
int3_here:
        int3
        push ds
        push word s_after
        FAR_CALL_IMPORT KERNEL, 115
        cmp byte [es:0x82], 'p'         ; command tail " passon"?
        jne no_gp
gp_here:
        mov ax, [0xFFF0]                ; past DGROUP's limit: #GP
no_gp:
        push word 0                     ; InterruptUnRegister(NULL)
        FAR_CALL_IMPORT TOOLHELP, 76
        xor al, al
        NEAR_EPILOGUE 4

; the InterruptRegister callback
FaultProc:
        push bp
        mov bp, sp                      ; [bp+2] ret IP, [bp+4] ret CS,
        push ds                         ; [bp+6] AX, [bp+8] number,
        mov ds, [bp+6]                  ; [bp+0Ah] handle, [bp+0Ch] IP,
        mov di, line + 6                ; [bp+0Eh] CS, [bp+10h] FLAGS
        mov ax, [bp+8]
        call EmitHex
        mov di, line + 14
        mov ax, [bp+0x0C]
        call EmitHex
        push ds
        push word line
        FAR_CALL_IMPORT KERNEL, 115     ; OutputDebugString
        mov ax, [bp+8]
        cmp ax, 3
        je .resume                      ; INT 3: IP is already past it
        or ax, ax
        jnz .pass
        add word [bp+0x0C], 2           ; skip the 2-byte `div cx`
.resume:
        pop ds
        pop bp
        add sp, 10                      ; drop ret IP/CS, AX, number, handle
        iret
.pass:
        pop ds
        pop bp
        retf

        EMIT_HEX
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
line    db 'fault 0000 at 0000', 0
s_resumed db 'resumed', 0
s_after db 'after int3', 0
        DGROUP_END
