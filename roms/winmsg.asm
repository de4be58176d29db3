; winmsg.asm -- a Win16 program with a window: RegisterClass, CreateWindow,
; ShowWindow, UpdateWindow, the GetMessage / TranslateMessage /
; DispatchMessage loop, and a window procedure that paints with
; BeginPaint / TextOut / EndPaint and quits on WM_DESTROY.
; output: winmsg.exe
; no-walk-expectation: the walk through USER's callback frame is checked by tests/win16.rs (USER's selector is not a segment of this file)
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Under the default headless session (src/win16/user/) it gets, in this
; order: WM_GETMINMAXINFO, WM_NCCREATE, WM_NCCALCSIZE, WM_CREATE (inside
; CreateWindow); WM_SHOWWINDOW, WM_WINDOWPOSCHANGING, the activation
; (WM_ACTIVATEAPP, WM_NCACTIVATE, WM_ACTIVATE, WM_SETFOCUS), WM_NCPAINT,
; WM_ERASEBKGND, WM_WINDOWPOSCHANGED, WM_SIZE, WM_MOVE (ShowWindow);
; WM_PAINT (UpdateWindow); then, from the loop, WM_CLOSE, which
; DefWindowProc turns into DestroyWindow: the window is hidden and
; deactivated, WM_DESTROY (PostQuitMessage with 7) and WM_NCDESTROY.
; GetMessage then returns WM_QUIT and the program exits with its wParam:
; exit code 7.
;
; The walk at paint_here (OnPaint, during UpdateWindow's WM_PAINT), frame by
; frame:
;   OnPaint (the stop)          near frame of OnPaint
;   WndProc                     near return into WndProc
;   USER, segment 1             far: WndProc's saved BP is USER's odd BP
;   WinMain after UpdateWindow  far: USER's frame links to WinMain's BP
; and the walk ends there: WinMain's saved BP is start's 0. Every frame's CS
; but USER's is segment 1 of WINMSG.

%include "inc/win16app.inc"

WM_DESTROY equ 0x0002
WM_PAINT   equ 0x000F

        WIN16_APP   'WINMSG', 'toolhelp16: a window, its message loop and WM_PAINT', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal: [bp+6] hInstance, [bp+4] nCmdShow.
WinMain:
        NEAR_PROLOGUE
        mov word [wc+2], WndProc        ; lpfnWndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [bp+6]
        mov [wc+0x0A], ax               ; hInstance
        mov word [wc+0x16], class_name  ; lpszClassName
        mov [wc+0x18], ds
        push ds
        push wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        or ax, ax
        jz .fail
        push ds                         ; CreateWindow(class,
        push class_name
        push ds                         ;   title,
        push title
        push 0x00CF                     ;   WS_OVERLAPPEDWINDOW,
        push 0x0000
        push 0x8000                     ;   CW_USEDEFAULT, 0,
        push 0
        push 0x8000                     ;   CW_USEDEFAULT, 0,
        push 0
        push 0                          ;   no parent, no menu,
        push 0
        push word [bp+6]                ;   hInstance,
        push 0                          ;   no parameter)
        push 0
        FAR_CALL_IMPORT USER, 41
        or ax, ax
        jz .fail
        mov [hwnd], ax
        push ax
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow(hwnd, nCmdShow)
        push word [hwnd]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow(hwnd)
.loop:
        push ds
        push msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage(&msg, 0, 0, 0)
        or ax, ax
        jz .done
        push ds
        push msg
        FAR_CALL_IMPORT USER, 113       ; TranslateMessage(&msg)
        push ds
        push msg
        FAR_CALL_IMPORT USER, 114       ; DispatchMessage(&msg)
        jmp .loop
.done:
        mov ax, [msg+4]                 ; WM_QUIT's wParam
        NEAR_EPILOGUE 4
.fail:
        mov ax, 1
        NEAR_EPILOGUE 4

; WndProc(hwnd, msg, wParam, lParam), far pascal, exported:
; [bp+0x0E] hwnd, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_PAINT
        je .paint
        cmp ax, WM_DESTROY
        je .destroy
        push word [bp+0x0E]             ; DefWindowProc(hwnd, msg, wParam, lParam)
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107
        jmp .out
.paint:
        push word [bp+0x0E]
        call OnPaint
        xor ax, ax
        xor dx, dx
        jmp .out
.destroy:
        push 7
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage(7)
        xor ax, ax
        xor dx, dx
.out:
        WIN_FAR_EPILOGUE 10

; OnPaint(hwnd), near pascal: [bp+4] hwnd.
OnPaint:
        NEAR_PROLOGUE
        push word [bp+4]
        push ds
        push ps
        FAR_CALL_IMPORT USER, 39        ; BeginPaint(hwnd, &ps)
paint_here:
        push ax                         ; TextOut(hdc, 10, 20, text, len)
        push 10
        push 20
        push ds
        push text
        push text_len
        FAR_CALL_IMPORT GDI, 33
        push word [bp+4]
        push ds
        push ps
        FAR_CALL_IMPORT USER, 40        ; EndPaint(hwnd, &ps)
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

        DGROUP_BEGIN 2
wc:     times 0x1A db 0                 ; WNDCLASS
msg:    times 18 db 0                   ; MSG
ps:     times 32 db 0                   ; PAINTSTRUCT
hwnd:   dw 0
class_name: db 'WinMsgClass', 0
title:  db 'toolhelp16 winmsg', 0
text:   db 'Hello from WM_PAINT'
text_len equ $ - text
        DGROUP_END
