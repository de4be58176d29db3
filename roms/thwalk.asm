; thwalk.asm -- a Windows 3.1 program that walks its own stack through
; TOOLHELP.DLL, as a debugger or an error reporter of the time did.
; output: thwalk.exe
; no-walk-expectation: it walks its own stack through TOOLHELP (StackTraceCSIPFirst/StackTraceNext) and prints the frames with OutputDebugString; tests/toolhelp_exports.rs compares them with the host's walk at the same point, walk_here in segment 1
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; Call chain (the walk is taken at `walk_here`, inside Deepest):
;   start (entry, s1, BP=0)
;     -> main       near, s1                         BP = 09F8
;       -> Outer    far,  s1, Windows odd-BP prologue BP = 09F0
;         -> Middle far,  s2, Windows odd-BP prologue BP = 09E6
;           -> Inner near, s2                        BP = 09DE
;             -> Deepest far, s1, odd-BP prologue    BP = 09D6  <- walk here
; Every argument a near function receives is an even number, so that the
; word at [BP+4] of a near frame can never pass for a ring-3 code selector
; (roms/README.md).
;
; At walk_here Deepest calls TOOLHELP.StackTraceCSIPFirst(&ste, SS, CS,
; walk_here, BP) on a zeroed STACKTRACEENTRY with dwSize = 0x14, then
; TOOLHELP.StackTraceNext(&ste) until it fails, and prints one line per
; frame with KERNEL.OutputDebugString:
;   frame CCCC:IIII bp=BBBB hmod=HHHH seg=SSSS far|near
; then `frames NNNN`. Expected (wCS, wIP, wBP, wFlags):
;   s1:0052 (walk_here) 09D6 far   (CSIPFirst leaves wFlags 0 = far)
;   s2:0025 (in Inner)  09DE far   (Deepest's saved BP 09DF is odd)
;   s2:0010 (in Middle) 09E6 near  (Inner's saved BP is even, [BP+4] = 0x0020)
;   s1:003D (in Outer)  09F0 far
;   s1:0021 (in main)   09F8 far
;   then main's saved BP is 0: the end of the chain, 5 frames.
; After the chain returns, main takes a buffer from the global heap
; (GlobalAlloc, GlobalLock), lists the tasks with TOOLHELP.TaskFirst/TaskNext
; (`task HHHH module NAME`), looks up TOOLHELP with ModuleFindName (`found
; TOOLHELP hmod=HHHH`), frees the buffer (GlobalUnlock, GlobalFree: `freed
; 0000`) and exits with code 0.

%include "inc/win16app.inc"
%include "inc/emithex.inc"

GMEM_MOVEABLE   equ 0x0002
GMEM_ZEROINIT   equ 0x0040

        WIN16_APP   'THWALK', 'toolhelp16: a Win16 program that walks its own stack through TOOLHELP', 3
        NE_IMPORT_MODULE TOOLHELP
        NE_EXPORT   'DEEPEST', 1, Deepest
        NE_HEADER   3

; ======================================================== segment 1: _TEXT
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE hInstance, int nCmdShow)
main:
        NEAR_PROLOGUE
        push word 0x0010                ; Outer(0x10)
        FAR_CALL 1, Outer
        call ShowTasksAndModule
        xor al, al                      ; exit code 0
        NEAR_EPILOGUE 4

; void far pascal Outer(int n)
Outer:
        WIN_FAR_PROLOGUE
        push word 0x0020                ; Middle(0x20)
        FAR_CALL 2, Middle
        WIN_FAR_EPILOGUE 2

; void far pascal Deepest(int n) -- the innermost function: walks the stack
Deepest:
        WIN_FAR_PROLOGUE
walk_here:
        push ds                         ; zero the STACKTRACEENTRY
        pop es
        mov di, ste
        mov cx, 0x14 / 2
        xor ax, ax
        cld
        rep stosw
        mov word [ste], 0x14            ; dwSize
        push ds                         ; StackTraceCSIPFirst(&ste,
        push word ste
        push ss                         ;   wSS,
        push cs                         ;   wCS,
        push word walk_here             ;   wIP,
        push bp                         ;   wBP)
        FAR_CALL_IMPORT TOOLHELP, 67
        mov word [nframes], 0
        or ax, ax
        jz .done
.frame:
        inc word [nframes]
        call PrintFrame
        push ds                         ; StackTraceNext(&ste)
        push word ste
        FAR_CALL_IMPORT TOOLHELP, 68
        or ax, ax
        jnz .frame
.done:
        mov di, line
        mov si, s_frames
        call EmitDStr
        mov ax, [nframes]
        call EmitHex
        call Flush
        WIN_FAR_EPILOGUE 2

; void near PrintFrame(void): one line for the frame in ste
PrintFrame:
        mov di, line
        mov si, s_frame
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
        mov si, s_hmod
        call EmitDStr
        mov ax, [ste + 0x0E]            ; hModule
        call EmitHex
        mov si, s_seg
        call EmitDStr
        mov ax, [ste + 0x10]            ; wSegment
        call EmitHex
        mov si, s_far
        test word [ste + 0x12], 1       ; wFlags: FRAME_NEAR = 1
        jz .kind
        mov si, s_near
.kind:
        call EmitDStr
        jmp Flush

; void near ShowTasksAndModule(void): TaskFirst/TaskNext, ModuleFindName
ShowTasksAndModule:
        push word GMEM_MOVEABLE | GMEM_ZEROINIT
        push word 0                     ; dwBytes = 0x00000200
        push word 0x0200
        FAR_CALL_IMPORT KERNEL, 15      ; GlobalAlloc
        mov [hmem], ax
        or ax, ax
        jz .nomem
        push ax
        FAR_CALL_IMPORT KERNEL, 18      ; GlobalLock -> DX:AX = sel:0000
        mov [bufseg], dx
        mov es, dx                      ; TASKENTRY at buf+0
        mov word [es:0], 0x28
        push dx
        push word 0
        FAR_CALL_IMPORT TOOLHELP, 63    ; TaskFirst
.task:
        or ax, ax
        jz .tasks_done
        mov di, line
        mov si, s_task
        call EmitDStr
        mov es, [bufseg]
        mov ax, [es:0x04]               ; hTask
        call EmitHex
        mov si, s_module
        call EmitDStr
        mov es, [bufseg]
        mov si, 0x1A                    ; szModule
        call EmitStr
        call Flush
        push word [bufseg]
        push word 0
        FAR_CALL_IMPORT TOOLHELP, 64    ; TaskNext
        jmp .task
.tasks_done:
        mov es, [bufseg]                ; MODULEENTRY at buf+0x40
        mov word [es:0x40], 0x114
        push es
        push word 0x40
        push ds
        push word n_toolhelp
        FAR_CALL_IMPORT TOOLHELP, 61    ; ModuleFindName
        or ax, ax
        jz .unlock
        mov di, line
        mov si, s_found
        call EmitDStr
        mov es, [bufseg]
        mov si, 0x44                    ; szModule
        call EmitStr
        mov si, s_hmod
        call EmitDStr
        mov es, [bufseg]
        mov ax, [es:0x4E]               ; hModule
        call EmitHex
        call Flush
.unlock:
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 19      ; GlobalUnlock
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 17      ; GlobalFree -> 0 when freed
        mov di, line
        mov si, s_freed
        push ax
        call EmitDStr
        pop ax
        call EmitHex
        call Flush
.nomem:
        ret

; EmitDStr: append the NUL-terminated string DS:SI at DS:DI
EmitDStr:
        push ds
        pop es
; EmitStr: append the NUL-terminated string ES:SI at DS:DI
EmitStr:
        mov al, [es:si]
        or al, al
        jz .end
        mov [di], al
        inc si
        inc di
        jmp EmitStr
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

; ======================================================== segment 2: WALK_TEXT
        NE_SEGMENT  2, CODE
; void far pascal Middle(int n)
Middle:
        WIN_FAR_PROLOGUE
        push word [bp+6]                ; Inner(n)
        call Inner
        WIN_FAR_EPILOGUE 2

; void near pascal Inner(int n)
Inner:
        NEAR_PROLOGUE
        push word 0x0030                ; Deepest(0x30)
        FAR_CALL 1, Deepest
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
ste:    times 0x14 db 0                 ; STACKTRACEENTRY
nframes dw 0
hmem    dw 0
bufseg  dw 0
line:   times 52 db 0
s_frame db 'frame ', 0
s_bp    db ' bp=', 0
s_hmod  db ' hmod=', 0
s_seg   db ' seg=', 0
s_far   db ' far', 0
s_near  db ' near', 0
s_frames db 'frames ', 0
s_task  db 'task ', 0
s_module db ' module ', 0
s_found db 'found ', 0
s_freed db 'freed ', 0
n_toolhelp db 'TOOLHELP', 0
        DGROUP_END
