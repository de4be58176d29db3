; winput.asm -- scripted input through a real message loop: keys (with
; the keyboard state GetKeyState reports while a key message is handled),
; TranslateMessage's WM_CHAR, characters, clicks on a child and on the
; window (WM_NCHITTEST, WM_PARENTNOTIFY, WM_MOUSEACTIVATE, WM_SETCURSOR,
; the button messages at client coordinates, GetMessagePos), scroll-bar
; lines (WM_VSCROLL), and F10 (WM_SYSKEYDOWN / WM_SYSKEYUP, which
; DefWindowProc turns into WM_SYSCOMMAND SC_KEYMENU).
; output: winput.exe
; no-walk-expectation: a test of USER's input, checked by tests/win16_wm.rs with a --messages script
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The window procedure logs the input messages (a message to the main
; window as its number, one to its child with 8000h added) and notes
; values while it handles them; at WM_DESTROY it prints
;   log ...
;   vals ...
; and the program exits with 0.

%include "inc/win16app.inc"
%include "inc/wmprint.inc"
%include "inc/args.inc"

        WIN16_APP   'WINPUT', 'toolhelp16 test: USER input', 2
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_HEADER   2

%macro U 1
        FAR_CALL_IMPORT USER, %1
%endmacro

WM_DESTROY      equ 0x0002
WM_KEYDOWN      equ 0x0100
WM_KEYUP        equ 0x0101
WM_CHAR         equ 0x0102
WM_SYSCOMMAND   equ 0x0112
WM_VSCROLL      equ 0x0115
WM_LBUTTONDOWN  equ 0x0201

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; main(hInstance, nCmdShow): [bp+6] hInstance.
main:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov word [wc+2], WndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [hinst]
        mov [wc+0x0A], ax
        mov word [wc+0x10], 6           ; COLOR_WINDOW + 1
        mov word [wc+0x16], s_class
        mov [wc+0x18], ds
        PSTR wc
        U 57                            ; RegisterClass
        PSTR s_class                    ; the main window at (30, 40)
        PSTR s_title
        push word 0x00CF                ; WS_OVERLAPPEDWINDOW
        push word 0
        push word 30
        push word 40
        push word 370
        push word 260
        push word 0
        push word 0
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hmain], ax
        PSTR s_class                    ; a child at (10, 10), 50 x 30
        PSTR s_child
        push word 0x5000                ; WS_CHILD | WS_VISIBLE
        push word 0
        push word 10
        push word 10
        push word 50
        push word 30
        push word [hmain]
        push word 5
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hchild], ax
        push word [hmain]
        push word 1
        U 42                            ; ShowWindow(SW_SHOWNORMAL)
        push word [hmain]
        U 124                           ; UpdateWindow
.loop:
        PSTR msg
        push word 0
        push word 0
        push word 0
        U 108                           ; GetMessage
        or ax, ax
        jz .done
        PSTR msg
        U 113                           ; TranslateMessage
        PSTR msg
        U 114                           ; DispatchMessage
        jmp .loop
.done:
        xor ax, ax
        NEAR_EPILOGUE 4

; note(AX): one more value
note:
        mov bx, [valn]
        cmp bx, 40
        jae .full
        shl bx, 1
        mov [vals + bx], ax
        inc word [valn]
.full:
        ret

; print_list: the string at SI, then CX words at DI as " %04X".
print_list:
        push bp
        mov bp, sp
        push cx
        push di
        mov di, buf
.prefix:
        lodsb
        or al, al
        jz .entries
        mov [di], al
        inc di
        jmp .prefix
.entries:
        pop si                          ; the words
        pop cx
.entry:
        jcxz .out
        push cx
        push si
        push word [si]
        PSTR f_hex
        push ds
        push di
        U 420
        add sp, 10
        add di, ax
        pop si
        pop cx
        add si, 2
        dec cx
        jmp .entry
.out:
        mov ax, di
        sub ax, buf
        call print_buf
        pop bp
        ret

; WndProc(hwnd, msg, wParam, lParam): [bp+0x0E] hwnd, [bp+0x0C] msg,
; [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        ; log the input messages: 0020, 0021, 0084, 0100..0107, 0112,
        ; 0115, 0200..0210
        mov ax, [bp+0x0C]
        cmp ax, 0x0020
        je .log
        cmp ax, 0x0021
        je .log
        cmp ax, 0x0084
        je .log
        cmp ax, WM_SYSCOMMAND
        je .log
        cmp ax, WM_VSCROLL
        je .log
        cmp ax, 0x0100
        jb .nolog
        cmp ax, 0x0107
        jbe .log
        cmp ax, 0x0200
        jb .nolog
        cmp ax, 0x0210
        ja .nolog
.log:
        mov bx, [logn]
        cmp bx, 60
        jae .nolog
        mov cx, [bp+0x0E]
        cmp cx, [hmain]
        je .mainmsg
        or ax, 0x8000
.mainmsg:
        shl bx, 1
        mov [log + bx], ax
        inc word [logn]
.nolog:
        mov ax, [bp+0x0C]
        cmp ax, WM_KEYDOWN
        je .keystate
        cmp ax, WM_KEYUP
        je .keystate
        cmp ax, WM_CHAR
        je .char
        cmp ax, WM_LBUTTONDOWN
        je .button
        cmp ax, WM_VSCROLL
        je .vscroll
        cmp ax, WM_SYSCOMMAND
        je .syscommand
        cmp ax, WM_DESTROY
        je .destroy
        jmp .default
.keystate:
        push word [bp+0x0A]
        U 106                           ; GetKeyState(the key)
        call note
        jmp .zero
.char:
        mov ax, [bp+0x0A]
        call note
        jmp .zero
.button:
        mov ax, [bp+6]
        call note
        mov ax, [bp+8]
        call note
        push word 1
        U 106                           ; GetKeyState(VK_LBUTTON)
        call note
        mov ax, [bp+0x0E]
        cmp ax, [hmain]
        jne .zero
        U 119                           ; GetMessagePos
        push dx
        call note
        pop ax
        call note
        jmp .zero
.vscroll:
        mov ax, [bp+0x0A]
        call note
        mov ax, [bp+6]
        call note
        jmp .zero
.syscommand:
        mov ax, [bp+0x0A]
        call note
        jmp .default
.destroy:
        mov ax, [bp+0x0E]
        cmp ax, [hmain]
        jne .zero
        mov si, s_log
        mov di, log
        mov cx, [logn]
        call print_list
        mov si, s_vals
        mov di, vals
        mov cx, [valn]
        call print_list
        push word 0
        U 6                             ; PostQuitMessage(0)
        jmp .zero
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 107                           ; DefWindowProc
        jmp .out
.zero:
        xor ax, ax
        xor dx, dx
.out:
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

        PRINT_BUF_SUB

        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
hinst:  dw 0
hmain:  dw 0
hchild: dw 0
logn:   dw 0
log:    times 64 dw 0
valn:   dw 0
vals:   times 40 dw 0
wc:     times 26 db 0
msg:    times 18 db 0
s_class: db 'WinputClass', 0
s_title: db 'winput', 0
s_child: db 'child', 0
s_log:  db 'log', 0
s_vals: db 'vals', 0
f_hex:  db ' %04X', 0
crlf:   db 13, 10
buf:    times 300 db 0
        NE_SEGMENT_END
