; demo.asm -- the bundled demo: a tiny Windows 3.1 program whose call chain
; crosses two code segments with Windows far frames (odd saved BP).
; output: demo.exe
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; Call chain (the walk is taken at `paint_stop`, inside PaintLine):
;   start (entry, s1, BP=0)
; Every argument a near function receives is an even number, so that the
; word at [BP+4] of a near frame can never pass for a ring-3 code selector.
;     -> WinMain          near, s1
;       -> MainWndProc    far,  s2, Windows odd-BP prologue
;         -> OnEraseBkgnd near, s2
;           -> PaintLine  far,  s1, Windows odd-BP prologue   <- stop here
; MainWndProc and PaintLine are exported (their names are in the names
; tables) and the program calls them itself, so their prologues take DS
; from SS (SS_FAR_PROLOGUE, inc/frames.inc), which Windows' loader leaves
; as it is.
; Expected frames: demo.expect.

%include "inc/ne.inc"
%include "inc/frames.inc"

        NE_MODULE   'DEMO', 'toolhelp16 demo: a WinMain-like chain over two code segments'
        NE_HEAP     0x100
        NE_STACK    0x800
        NE_ENTRY    1, start
        NE_AUTODATA 3
        NE_IMPORT_MODULE KERNEL
        NE_EXPORT   'MAINWNDPROC', 2, MainWndProc
        NE_EXPORT   'PAINTLINE', 1, PaintLine
        NE_HEADER   3

; ======================================================== segment 1: _TEXT
        NE_SEGMENT  1, CODE
start:
        FAR_CALL_IMPORT KERNEL, 91      ; InitTask
        or ax, ax
        jz .fail
        push di                         ; WinMain(hInstance,
        push dx                         ;         nCmdShow)
        mov dx, msg_hello               ; print a line first
        mov ah, 0x09
        int 0x21
        call WinMain
        mov ah, 0x4C                    ; exit with WinMain's result
        int 0x21
.fail:
        mov ax, 0x4C01
        int 0x21

; int near pascal WinMain(HINSTANCE hInstance, int nCmdShow)
WinMain:
        NEAR_PROLOGUE
        push word 0x0014                ; MainWndProc(WM_ERASEBKGND)
        FAR_CALL 2, MainWndProc
        xor al, al                      ; return 0
        NEAR_EPILOGUE 4

; void far pascal PaintLine(int y)  -- the innermost function
PaintLine:
        SS_FAR_PROLOGUE
paint_stop:
        mov cx, [bp+6]                  ; y (unused)
        mov dx, msg_paint
        mov ah, 0x09
        int 0x21
        WIN_FAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: WNDPROC_TEXT
        NE_SEGMENT  2, CODE
; long far pascal MainWndProc(unsigned msg)
MainWndProc:
        SS_FAR_PROLOGUE
        push word [bp+6]                ; OnEraseBkgnd(msg)
        call OnEraseBkgnd
        xor ax, ax
        WIN_FAR_EPILOGUE 2

; void near pascal OnEraseBkgnd(unsigned msg)
OnEraseBkgnd:
        NEAR_PROLOGUE
        push word 0x0020                ; PaintLine(y = 0x20)
        FAR_CALL 1, PaintLine
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        NE_SEGMENT  3, DATA, 0x100
instance_data:
        times 16 db 0                   ; filled by InitTask (toolhelp.md)
msg_hello:
        db 'toolhelp16 demo: hello from a Win16 task', 13, 10, '$'
msg_paint:
        db 'PaintLine', 13, 10, '$'
        PAD_TO 0x100                    ; DGROUP file length 0x100
        NE_SEGMENT_END
