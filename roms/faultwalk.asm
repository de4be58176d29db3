; faultwalk.asm -- a Win16 program whose InterruptRegister callback walks
; its own stack with TOOLHELP and prints the faulting program's frames
; beyond the dispatch frame, and whose NotifyRegister callback hears of its
; end.
; output: faultwalk.exe
; no-walk-expectation: a fault-dispatch scenario; tests/win16_faults.rs compares the frames its callback prints with the run's fault report, and checks the low-stack, fault-in-callback, resume-forever and several-task variants
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; main registers FaultProc (TOOLHELP.InterruptRegister(NULL, FaultProc))
; and NotifyProc (TOOLHELP.NotifyRegister(NULL, NotifyProc, NF_NORMAL)),
; then calls Outer (far, segment 2, Windows odd-BP prologue), which calls
; Inner (near), which faults according to the command tail's first letter:
;   (none)  `gp_here`: a read past DGROUP's limit (#GP).
;   o       Overflow recurses, 0x100 bytes of locals a level, until a push
;           leaves the stack segment (#SS, a stack overflow).
;   x       as (none), but FaultProc itself divides by zero: a fault inside
;           the fault callback.
;   f       as (none), but FaultProc resumes at the same instruction every
;           time: a callback that resumes into the same fault forever.
;
; FaultProc (frame of toolhelp.md: [BP+2] ret IP, [BP+4] ret CS into
; TOOLHELP, [BP+6] AX = our DS, [BP+8] interrupt number, [BP+0A] handle,
; [BP+0C] IP, [BP+0E] CS, [BP+10] FLAGS, and for a low-stack fault (number
; with the high bit set) [BP+12] SP, [BP+14] SS at the fault) prints
;   fault NNNN at CCCC:IIII
; and, for a low-stack fault, `stack SSSS:PPPP`. Otherwise it walks its own
; stack: StackTraceCSIPFirst(&ste, SS, CS, walk_here, BP), then
; StackTraceNext, printing `frame CCCC:IIII bp=BBBB seg=SSSS` per frame.
; The frame whose CS:IP is its own return address into TOOLHELP is the
; dispatch frame: it prints `dispatch CCCC:IIII bp=BBBB` and, as a good
; walker does, continues with StackTraceCSIPFirst from the faulting CS:IP
; and the BP the fault interrupted (its own saved BP), printing the
; program's frames at the fault, first the faulting instruction. Then it
; passes the fault on (RETF): the default action ends the task.
;
; NotifyProc(wID, dwData) prints `notify NNNN data DDDD` and returns 0.
;
; Frames at `gp_here` (1: `_TEXT`, 2: `WORK_TEXT`):
;   Inner   2:gp_here                 BP = 09E8 (Inner's)
;   Outer   2:after `call Inner`      BP = 09F0, far frame
;   main    1:after the far call      BP = 09F8

%include "inc/win16app.inc"
%include "inc/emithex.inc"

        WIN16_APP   'FAULTWALK', 'toolhelp16: a Win16 program whose fault callback walks its stack', 3
        NE_IMPORT_MODULE TOOLHELP
        NE_EXPORT   'FAULTPROC', 1, FaultProc
        NE_EXPORT   'NOTIFYPROC', 2, NotifyProc
        NE_HEADER   3

; ======================================================== segment 1: _TEXT
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE hInstance, int nCmdShow)
main:
        NEAR_PROLOGUE
        mov al, [es:0x82]               ; the command tail's first letter
        mov [mode], al
        push word 0                     ; InterruptRegister(NULL, FaultProc)
        MOV_AX_SELECTOR 1
        push ax
        push word FaultProc
        FAR_CALL_IMPORT TOOLHELP, 75
        push word 0                     ; NotifyRegister(NULL, NotifyProc,
        MOV_AX_SELECTOR 1               ;   NF_NORMAL)
        push ax
        push word NotifyProc
        push word 0
        FAR_CALL_IMPORT TOOLHELP, 73
        push word 0x0010                ; Outer(0x10)
        FAR_CALL 2, Outer
        xor al, al
        NEAR_EPILOGUE 4

; the InterruptRegister callback
FaultProc:
        push bp
        mov bp, sp
        push ds
        mov ds, [bp+6]
        cmp byte [mode], 'f'            ; resume into the fault again
        je .resume
        cmp byte [mode], 'x'            ; fault inside this callback
        jne .report
        xor cx, cx
        div cx
.report:
        mov di, line
        mov si, s_fault
        call EmitDStr
        mov ax, [bp+8]
        call EmitHex
        mov si, s_at
        call EmitDStr
        mov ax, [bp+0x0E]
        call EmitHex
        mov byte [di], ':'
        inc di
        mov ax, [bp+0x0C]
        call EmitHex
        call Flush
        test word [bp+8], 0x8000        ; a low-stack fault: no walk here
        jz .walk
        mov di, line
        mov si, s_stack
        call EmitDStr
        mov ax, [bp+0x14]
        call EmitHex
        mov byte [di], ':'
        inc di
        mov ax, [bp+0x12]
        call EmitHex
        call Flush
        jmp .pass
.walk:
        push ds                         ; zero the STACKTRACEENTRY
        pop es
        mov di, ste
        mov cx, 0x14 / 2
        xor ax, ax
        cld
        rep stosw
        mov word [ste], 0x14            ; dwSize
        push ds                         ; StackTraceCSIPFirst(&ste, SS, CS,
        push word ste                   ;   ..@walk_here, BP)
        push ss
        push cs
        push word ..@walk_here
        push bp
..@walk_here:
        FAR_CALL_IMPORT TOOLHELP, 67
.frame:
        or ax, ax
        jz .pass
        mov ax, [ste + 0x0A]            ; wCS:wIP == our return into
        cmp ax, [bp+4]                  ; TOOLHELP: the dispatch frame
        jne .plain
        mov ax, [ste + 0x0C]
        cmp ax, [bp+2]
        jne .plain
        mov si, s_dispatch
        call PrintFrame
        push ds                         ; on from the faulting context:
        push word ste                   ; StackTraceCSIPFirst(&ste, SS,
        push ss                         ;   fault CS, fault IP, saved BP)
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp]
        FAR_CALL_IMPORT TOOLHELP, 67
        jmp .frame
.plain:
        mov si, s_frame
        call PrintFrame
        push ds                         ; StackTraceNext(&ste)
        push word ste
        FAR_CALL_IMPORT TOOLHELP, 68
        jmp .frame
.pass:
        pop ds
        pop bp
        retf
.resume:
        pop ds
        pop bp
        add sp, 10                      ; drop ret IP/CS, AX, number, handle
        iret

; BOOL far pascal NotifyProc(WORD wID, DWORD dwData)
NotifyProc:
        push bp
        mov bp, sp
        push ds
        mov ds, ax                      ; DS = AX, as for any callback
        mov di, line
        mov si, s_notify
        call EmitDStr
        mov ax, [bp+0x0A]               ; wID
        call EmitHex
        mov si, s_data
        call EmitDStr
        mov ax, [bp+6]                  ; LOWORD(dwData)
        call EmitHex
        call Flush
        xor ax, ax
        pop ds
        pop bp
        retf 6

; void near PrintFrame(void): "<SI>CCCC:IIII bp=BBBB seg=SSSS" for ste
PrintFrame:
        mov di, line
        call EmitDStr
        mov ax, [ste + 0x0A]            ; wCS
        call EmitHex
        mov byte [di], ':'
        inc di
        mov ax, [ste + 0x0C]            ; wIP
        call EmitHex
        mov si, s_bp
        call EmitDStr
        mov ax, [ste + 0x08]            ; wBP
        call EmitHex
        mov si, s_seg
        call EmitDStr
        mov ax, [ste + 0x10]            ; wSegment
        call EmitHex
        jmp Flush

; EmitDStr: append the NUL-terminated string DS:SI at DS:DI
EmitDStr:
        mov al, [si]
        or al, al
        jz .end
        mov [di], al
        inc si
        inc di
        jmp EmitDStr
.end:
        ret

        EMIT_HEX

; Flush: end the line at DI, OutputDebugString(line)
Flush:
        mov byte [di], 0
        push ds
        push word line
        FAR_CALL_IMPORT KERNEL, 115     ; OutputDebugString
        ret

        NE_SEGMENT_END

; ======================================================== segment 2: WORK_TEXT
        NE_SEGMENT  2, CODE

; void far pascal Outer(int n)
Outer:
        WIN_FAR_PROLOGUE
        push word 0x0020                ; Inner(0x20)
        call Inner
        WIN_FAR_EPILOGUE 2

; void near pascal Inner(int n)
Inner:
        NEAR_PROLOGUE
        cmp byte [mode], 'o'
        jne gp_here
        call Overflow
gp_here:
        mov ax, [0xFFF0]                ; past DGROUP's limit: #GP
        NEAR_EPILOGUE 2

; void near Overflow(void): 0x100 bytes of locals a level, forever
Overflow:
        push bp
        mov bp, sp
        sub sp, 0x100
        call Overflow
        mov sp, bp
        pop bp
        ret

        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
ste:    times 0x14 db 0                 ; STACKTRACEENTRY
mode    db 0
line:   times 48 db 0
s_fault db 'fault ', 0
s_at    db ' at ', 0
s_stack db 'stack ', 0
s_frame db 'frame ', 0
s_dispatch db 'dispatch ', 0
s_bp    db ' bp=', 0
s_seg   db ' seg=', 0
s_notify db 'notify ', 0
s_data  db ' data ', 0
        DGROUP_END
