; colors.asm -- a COLORS-like program, as the textbook sample is: three
; vertical scroll bar controls (red, green, blue, 0 to 255) subclassed
; with SetWindowLong(GWL_WNDPROC) so that Tab moves the focus between
; them, static controls showing the values (SetDlgItemInt on a window
; that is no dialog), and the main window's class brush replaced with
; SetClassWord(GCW_HBRBACKGROUND) at each WM_VSCROLL. It also starts a
; DDE conversation nobody answers (WM_DDE_INITIATE broadcast, as the DDE
; samples do). Every answer is checked against the SDK (inc/checks.inc);
; the program prints `checks N fails M`, waits until the session closes
; its window, and exits with the number of failures.
; output: colors.exe
; no-walk-expectation: a test of USER's controls as a textbook program uses them, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - SetScrollRange/GetScrollRange and SetScrollPos/GetScrollPos with
;   SB_CTL (2) on a SCROLLBAR control.
; - SetWindowLong(GWL_WNDPROC) answers the previous procedure, and
;   CallWindowProc passes the messages on to it.
; - A scroll bar control with the focus turns VK_DOWN into WM_VSCROLL
;   SB_LINEDOWN (1) to its parent, lParam MAKELONG(0, hwndCtl), then
;   SB_ENDSCROLL (8); GetWindowWord(GWW_ID) is the control's id.
; - SetDlgItemInt / GetDlgItemInt work on any parent's child by id.
; - SetClassWord(GCW_HBRBACKGROUND) answers the class's previous brush.
; - A scroll bar control painting asks its parent for its colours:
;   WM_CTLCOLOR with HIWORD(lParam) CTLCOLOR_SCROLLBAR (5).
; - SendMessage(HWND_BROADCAST, WM_DDE_INITIATE, hwnd, MAKELONG(aApp,
;   aTopic)) reaches every top-level window, the sender's own too; with
;   no server nobody answers WM_DDE_ACK.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

CO_DATA_SIZE equ 0x0400
WM_CREATE   equ 0x0001
WM_DESTROY  equ 0x0002
WM_SETFOCUS equ 0x0007
WM_VSCROLL  equ 0x0115
WM_CTLCOLOR_ equ 0x0019
WM_DDE_INITIATE equ 0x03E0
WM_DDE_ACK  equ 0x03E4
VK_TAB      equ 0x09
VK_DOWN     equ 0x28
SB_CTL      equ 2
SB_LINEDOWN equ 1
SB_ENDSCROLL equ 8
GWL_WNDPROC equ -4
GWW_ID      equ -12
GCW_HBRBACKGROUND equ -10
SCROLL_STYLE equ 0x50010001             ; WS_CHILD | WS_VISIBLE | WS_TABSTOP | SBS_VERT
STATIC_STYLE equ 0x50000001             ; WS_CHILD | WS_VISIBLE | SS_CENTER

        NE_MODULE   'COLORS', 'toolhelp16: a COLORS-like program'
        NE_HEAP     0x0800
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'SCROLLPROC', 2, ScrollProc
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov word [wc+2], WndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov [scroll_proc+2], ax
        mov ax, [bp+6]
        mov [wc+0x0A], ax
        push 0
        PL 0
        FAR_CALL_IMPORT GDI, 66         ; CreateSolidBrush(RGB(0, 0, 0))
        mov [wc+0x10], ax
        mov [first_brush], ax
        mov word [wc+0x16], class_name
        mov [wc+0x18], ds
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        CHECK_NZ 'RegisterClass'
        PSTR class_name
        PSTR class_name
        PL 0x02CF0000                   ; WS_OVERLAPPEDWINDOW | WS_CLIPCHILDREN
        push word 0x8000
        push 0
        push word 0x8000
        push 0
        push 0
        push 0
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41        ; CreateWindow
        mov [hwnd], ax
        CHECK_NZ 'CreateWindow'
        push word [hwnd]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        push word [hwnd]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow
        mov si, 0
.upd:   push word [hscroll+si]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow(each scroll bar)
        add si, 2
        cmp si, 6
        jb .upd
        mov ax, [ctl_scroll]
        IS_EQ 3
        CHECK 1, 'each scroll bar asked its parent: WM_CTLCOLOR CTLCOLOR_SCROLLBAR'
        call checks_scroll
        call checks_dde
        CHECKS_REPORT
.loop:
        PSTR msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108
        or ax, ax
        jz .done
        PSTR msg
        FAR_CALL_IMPORT USER, 113
        PSTR msg
        FAR_CALL_IMPORT USER, 114
        jmp .loop
.done:
        mov ax, [msg+4]
        NEAR_EPILOGUE 4

checks_scroll:
        push word [hscroll]
        push SB_CTL
        PSTR vmin
        PSTR vmax
        FAR_CALL_IMPORT USER, 65        ; GetScrollRange(SB_CTL)
        mov ax, [vmin]
        CHECK 0, 'range min'
        mov ax, [vmax]
        CHECK 255, 'range max'
        mov ax, [old_proc+2]
        CHECK_NZ 'SetWindowLong(GWL_WNDPROC) answered the old procedure'
        ; Tab from red to green, through the subclass procedure.
        push word [hscroll]
        FAR_CALL_IMPORT USER, 22        ; SetFocus(red)
        LOG_CLEAR
        push word [hscroll]
        push WM_KEYDOWN
        push VK_TAB
        PL 0x000F0001
        FAR_CALL_IMPORT USER, 111       ; SendMessage(red, WM_KEYDOWN, VK_TAB)
        CHECK_LOG 'the subclass saw Tab on control 0', VK_TAB, 0
        FAR_CALL_IMPORT USER, 23        ; GetFocus
        IS_EQ [hscroll+2]
        CHECK 1, 'Tab moved the focus to green'
        ; VK_DOWN on green: WM_VSCROLL SB_LINEDOWN, then SB_ENDSCROLL.
        push word [hscroll+2]
        push WM_KEYDOWN
        push VK_DOWN
        PL 0x01500001
        FAR_CALL_IMPORT USER, 111
        CHECK_LOG 'WM_VSCROLL from green: line down, then end', SB_LINEDOWN, 1, 1, SB_ENDSCROLL, 1, 1
        push word [hscroll+2]
        push SB_CTL
        FAR_CALL_IMPORT USER, 63        ; GetScrollPos
        CHECK 1, 'green at 1'
        push word [hwnd]
        push 4
        PSTR translated
        push 0
        FAR_CALL_IMPORT USER, 95        ; GetDlgItemInt(hwnd, 4)
        CHECK 1, 'the green value shows 1'
        mov ax, [translated]
        CHECK 1, 'GetDlgItemInt translated'
        mov ax, [prev_brush]
        IS_EQ [first_brush]
        CHECK 1, 'SetClassWord answered the first brush'
        push word [hwnd]
        push GCW_HBRBACKGROUND
        FAR_CALL_IMPORT USER, 129       ; GetClassWord
        IS_EQ [hbrush_now]
        CHECK 1, 'the class has the new brush'
        ret

checks_dde:
        PSTR s_app
        FAR_CALL_IMPORT USER, 268       ; GlobalAddAtom("DdePop")
        mov [a_app], ax
        PSTR s_topic
        FAR_CALL_IMPORT USER, 268
        mov [a_topic], ax
        LOG_CLEAR
        push 0xFFFF                     ; SendMessage(HWND_BROADCAST,
        push WM_DDE_INITIATE            ;   WM_DDE_INITIATE, hwnd,
        push word [hwnd]                ;   MAKELONG(aApp, aTopic))
        push word [a_topic]
        push word [a_app]
        FAR_CALL_IMPORT USER, 111
        CHECK_LOG 'our own window got the broadcast, nobody answered', WM_DDE_INITIATE, 0, 0
        mov ax, [dde_log]
        CHECK WM_DDE_INITIATE, 'WM_DDE_INITIATE'
        mov ax, [dde_log+2]
        IS_EQ [hwnd]
        CHECK 1, 'wParam: the client window'
        mov ax, [dde_log+4]
        IS_EQ [a_app]
        CHECK 1, 'LOWORD(lParam): the application atom'
        push word [a_app]
        FAR_CALL_IMPORT USER, 269
        push word [a_topic]
        FAR_CALL_IMPORT USER, 269
        ret

; WndProc(hwnd, msg, wParam, lParam)
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        je .create
        cmp ax, WM_VSCROLL
        je .vscroll
        cmp ax, WM_DDE_INITIATE
        je .initiate
        cmp ax, WM_DDE_ACK
        je .ack
        cmp ax, WM_DESTROY
        je .destroy
        cmp ax, WM_CTLCOLOR_
        jne .default
        cmp word [bp+8], 5              ; CTLCOLOR_SCROLLBAR
        jne .cs
        inc word [ctl_scroll]
.cs:    cmp word [bp+8], 6              ; CTLCOLOR_STATIC
        jne .default
        inc word [ctl_static]
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107
        jmp .out
.create:
        xor si, si                      ; three scroll bars, ids 0..2,
.make:  CSTR 'scrollbar'                ; three value statics, ids 3..5
        PL 0
        PL SCROLL_STYLE
        mov ax, si
        mov cl, 5
        shl ax, cl
        add ax, 10
        push ax
        push 10
        push 20
        push 200
        push word [bp+0x0E]
        push si
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41
        mov bx, si
        shl bx, 1
        mov [hscroll+bx], ax
        push ax                         ; SetScrollRange(h, SB_CTL, 0, 255, FALSE)
        push SB_CTL
        push 0
        push 255
        push 0
        FAR_CALL_IMPORT USER, 64
        mov bx, si
        shl bx, 1
        push word [hscroll+bx]          ; SetWindowLong(h, GWL_WNDPROC, ScrollProc)
        push GWL_WNDPROC
        push word [scroll_proc+2]
        push word [scroll_proc]
        FAR_CALL_IMPORT USER, 136
        mov [old_proc], ax
        mov [old_proc+2], dx
        CSTR 'static'
        CSTR '0'
        PL STATIC_STYLE
        mov ax, si
        mov cl, 5
        shl ax, cl
        add ax, 5
        push ax
        push 220
        push 30
        push 16
        push word [bp+0x0E]
        lea ax, [si+3]
        push ax
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41
        inc si
        cmp si, 3
        jb .make
        jmp .zero
.vscroll:                               ; wParam code, HIWORD(lParam) the control
        push word [bp+8]
        push GWW_ID
        FAR_CALL_IMPORT USER, 133       ; GetWindowWord(hwndCtl, GWW_ID)
        mov si, ax
        LOG_WORD [bp+0x0A]
        mov ax, si
        LOG_WORD ax
        mov ax, [bp+8]
        mov bx, si
        shl bx, 1
        IS_EQ [hscroll+bx]
        LOG_WORD ax
        cmp word [bp+0x0A], SB_LINEDOWN
        jne .zero
        mov bx, si
        shl bx, 1
        inc word [color+bx]
        push word [bp+8]                ; SetScrollPos(hwndCtl, SB_CTL, c, TRUE)
        push SB_CTL
        push word [color+bx]
        push 1
        FAR_CALL_IMPORT USER, 62
        mov bx, si
        shl bx, 1
        push word [bp+0x0E]             ; SetDlgItemInt(hwnd, id + 3, c, FALSE)
        lea ax, [si+3]
        push ax
        push word [color+bx]
        push 0
        FAR_CALL_IMPORT USER, 94
        mov al, [color+2]               ; CreateSolidBrush(RGB(r, g, b))
        xor ah, ah
        push word [color+4]
        mov ah, al
        mov al, [color]
        push ax
        FAR_CALL_IMPORT GDI, 66
        mov [hbrush_now], ax
        push word [bp+0x0E]
        push GCW_HBRBACKGROUND
        push ax
        FAR_CALL_IMPORT USER, 130       ; SetClassWord: the old brush
        mov [prev_brush], ax
        push ax
        FAR_CALL_IMPORT GDI, 69         ; DeleteObject(old brush)
        push word [bp+0x0E]
        PL 0
        push 1
        FAR_CALL_IMPORT USER, 125       ; InvalidateRect(hwnd, NULL, TRUE)
        jmp .zero
.initiate:
        LOG_WORD WM_DDE_INITIATE
        mov ax, [bp+0x0A]
        mov [dde_log+2], ax
        mov ax, [bp+6]
        mov [dde_log+4], ax
        mov word [dde_log], WM_DDE_INITIATE
        LOG_WORD 0
        LOG_WORD 0
        jmp .zero
.ack:
        LOG_WORD WM_DDE_ACK
        jmp .zero
.destroy:
        push word [fails]
        FAR_CALL_IMPORT USER, 6
.zero:
        xor ax, ax
        xor dx, dx
.out:
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

; ScrollProc(hwnd, msg, wParam, lParam): Tab moves the focus to the next
; scroll bar; everything goes on to the scroll bar's own procedure.
ScrollProc:
        WIN_FAR_PROLOGUE
        push si
        push word [bp+0x0E]
        push GWW_ID
        FAR_CALL_IMPORT USER, 133
        mov si, ax
        cmp word [bp+0x0C], WM_KEYDOWN
        jne .pass
        cmp word [bp+0x0A], VK_TAB
        jne .pass
        LOG_WORD VK_TAB
        LOG_WORD si
        inc si
        cmp si, 3
        jb .next
        xor si, si
.next:  shl si, 1
        push word [hscroll+si]
        FAR_CALL_IMPORT USER, 22        ; SetFocus(next)
.pass:
        push word [old_proc+2]          ; CallWindowProc(old, hwnd, msg,
        push word [old_proc]            ;   wParam, lParam)
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 122
        pop si
        WIN_FAR_EPILOGUE 10

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, CO_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hwnd:       dw 0
hscroll:    dw 0, 0, 0
color:      dw 0, 0, 0
old_proc:   dd 0
scroll_proc: dw ScrollProc, 0
first_brush: dw 0
hbrush_now: dw 0
prev_brush: dw 0
vmin:       dw 0xEEEE
vmax:       dw 0xEEEE
translated: dw 0
ctl_scroll: dw 0
ctl_static: dw 0
a_app:      dw 0
a_topic:    dw 0
dde_log:    dw 0, 0, 0
wc:         times 0x1A db 0
msg:        times 18 db 0
class_name: db 'Colors1', 0
s_app:      db 'DdePop', 0
s_topic:    db 'US', 0
        CHECKS_DATA
        PAD_TO CO_DATA_SIZE
        NE_SEGMENT_END
