; wmtask.asm -- SendMessage across tasks. The first instance makes a
; window titled "wmtask parent", shows it and starts a second instance
; with WinExec. The second finds that window, sends it two messages and
; posts one to its task, and ends. The first instance's window procedure
; runs as the first task (GetCurrentTask() is its window's task) and
; knows it is handling another task's message (InSendMessage); for the
; second message it answers early with ReplyMessage.
; output: wmtask.exe
; no-walk-expectation: a test of USER's inter-task messages, checked by tests/win16_wm.rs (run with the program on a drive of its own)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints (the second instance first):
;   send 0011 0077 1
;   app 0407 0000
; and both instances exit with 0.

%include "inc/win16app.inc"
%include "inc/wmprint.inc"
%include "inc/args.inc"

        WIN16_APP   'WMTASK', 'toolhelp16 test: SendMessage across tasks', 2
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_HEADER   2

%macro U 1
        FAR_CALL_IMPORT USER, %1
%endmacro
%macro K 1
        FAR_CALL_IMPORT KERNEL, %1
%endmacro

WM_DESTROY      equ 0x0002
WM_USER         equ 0x0400

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; main(hInstance, nCmdShow): [bp+6] hInstance.
main:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        PSTR s_class
        PSTR s_title
        U 50                            ; FindWindow: is the first one there?
        or ax, ax
        jz .first
        jmp second

.first:
        mov word [wc+2], WndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [hinst]
        mov [wc+0x0A], ax
        mov word [wc+0x10], 6
        mov word [wc+0x16], s_class
        mov [wc+0x18], ds
        PSTR wc
        U 57                            ; RegisterClass
        PSTR s_class
        PSTR s_title
        push word 0x00CF
        push word 0
        push word 0x8000
        push word 0
        push word 0x8000
        push word 0
        push word 0
        push word 0
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hmain], ax
        push ax
        push word 1
        U 42                            ; ShowWindow
        PSTR s_exe
        push word 1
        K 166                           ; WinExec: the second instance runs now
.loop:
        PSTR msg
        push word 0
        push word 0
        push word 0
        U 108
        or ax, ax
        jz .done
        cmp word [msg], 0               ; a message to the task, no window
        jne .dispatch
        mov ax, [msg+2]
        mov [appmsg], ax
        mov ax, [msg+4]
        mov [appwparam], ax
        jmp .loop
.dispatch:
        PSTR msg
        U 114
        jmp .loop
.done:
        push word [appwparam]
        push word [appmsg]
        PRINTF f_app, 4
        xor ax, ax
        NEAR_EPILOGUE 4

; The second instance: send to the first one's window, post to its task.
second:
        mov [hother], ax
        push ax
        push word WM_USER + 5
        push word 0
        push word 0
        push word 0
        U 111                           ; SendMessage
        mov [r1], ax
        push word [hother]
        push word WM_USER + 6
        push word 0
        push word 0
        push word 0
        U 111                           ; SendMessage: ReplyMessage's answer
        mov [r2], ax
        push word [hother]
        U 224                           ; GetWindowTask
        mov [othertask], ax
        K 36                            ; GetCurrentTask
        cmp ax, [othertask]
        mov ax, 0
        je .same
        inc ax
.same:
        mov [r3], ax
        push word [r3]
        push word [r2]
        push word [r1]
        PRINTF f_send, 6
        push word [othertask]
        push word WM_USER + 7
        push word 0
        push word 0
        push word 0
        U 116                           ; PostAppMessage
        xor ax, ax
        NEAR_EPILOGUE 4

; WndProc(hwnd, msg, wParam, lParam): [bp+0x0E] hwnd, [bp+0x0C] msg.
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_USER + 5
        je .who
        cmp ax, WM_USER + 6
        je .reply
        cmp ax, WM_DESTROY
        je .destroy
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 107
        jmp .out
.who:
        push word [bp+0x0E]
        call Who
        xor dx, dx
        jmp .out
.reply:
        push word 0
        push word 0x77
        U 115                           ; ReplyMessage(0x77)
        mov ax, 0x99
        xor dx, dx
        jmp .out
.destroy:
        push word 0
        U 6
        xor ax, ax
        xor dx, dx
.out:
        WIN_FAR_EPILOGUE 10

; Who(hwnd), near pascal: 10h when running as the window's task, plus 1
; when handling another task's message (InSendMessage).
Who:
        NEAR_PROLOGUE
        push word [bp+4]
        U 224                           ; GetWindowTask
        mov [othertask], ax
        K 36                            ; GetCurrentTask
        xor cx, cx
        cmp ax, [othertask]
        jne .notme
        mov cx, 0x10
.notme:
        push cx
        U 192                           ; InSendMessage
        pop cx
        or ax, cx
        NEAR_EPILOGUE 2

        PRINT_BUF_SUB

        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
hinst:  dw 0
hmain:  dw 0
hother: dw 0
othertask: dw 0
appmsg: dw 0
appwparam: dw 0
r1:     dw 0
r2:     dw 0
r3:     dw 0
wc:     times 26 db 0
msg:    times 18 db 0
s_class: db 'WmtaskClass', 0
s_title: db 'wmtask parent', 0
s_exe:  db 'WMTASK.EXE', 0
f_send: db 'send %04X %04X %d', 0
f_app:  db 'app %04X %04X', 0
crlf:   db 13, 10
buf:    times 80 db 0
        NE_SEGMENT_END
