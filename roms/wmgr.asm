; wmgr.asm -- USER as a window manager: a window and its children, their
; rectangles, the messages Windows sends and their order (the window
; procedure logs them: a message to the main window as its number, one to
; another window with 8000h added), window and class words, subclassing,
; properties, hit testing, focus, enabling, update regions and WM_PAINT,
; window scroll bars, ScrollWindow, the caret, the cursor, system metrics
; and colours, the rectangle functions, minimizing and maximizing,
; FindWindow and the enumerations, the clipboard, hooks, DestroyWindow.
; output: wmgr.exe
; no-walk-expectation: a test of USER's window manager, checked by tests/win16_wm.rs against the lines below
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints one line per group (the expected values and where Windows 3.1
; documents them are in tests/win16_wm.rs) and exits with 0:
;   metrics ...     create ...     show ...      rects ...
;   adjust ...      c2s ...        update ...    paint ...
;   order ...       child ...      childrect ... relations ...
;   move ...        zorder ...     words ...     classwords ...
;   subclass ...    props ...      hittest ...   focus ...
;   enable ...      scroll ...     scrollwin ... caret ...
;   cursor ...      colors ...     regmsg ...    rectfn ...
;   minmax ...      find ...       clip ...      clip2 ...
;   hooks ...       destroy ...

%include "inc/win16app.inc"
%include "inc/wmprint.inc"
%include "inc/args.inc"

        WIN16_APP   'WMGR', 'toolhelp16 test: USER window manager', 2
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'SUBPROC', 1, SubProc
        NE_EXPORT   'ENUMPROC', 1, EnumProc
        NE_EXPORT   'PROPPROC', 1, PropProc
        NE_EXPORT   'CWPHOOK', 1, CwpHook
        NE_EXPORT   'GMHOOK', 1, GmHook
        NE_EXPORT   'CBTHOOK', 1, CbtHook
        NE_HEADER   2

%macro U 1
        FAR_CALL_IMPORT USER, %1
%endmacro
%macro K 1
        FAR_CALL_IMPORT KERNEL, %1
%endmacro
; push words last first (wsprintf's cdecl order)
%macro PUSHR 1-*
%rep %0
%rotate -1
        push word %1
%endrep
%endmacro
; store AX in result slot n
%macro SAVE 1
        mov [r + 2*(%1)], ax
%endmacro
%define R(n) [r + 2*(n)]
; 1 if AX == word, else 0, into slot n
%macro SAVEEQ 2
        cmp ax, %2
        mov ax, 0
        jne %%no
        inc ax
%%no:
        mov [r + 2*(%1)], ax
%endmacro
%macro LOGRESET 0
        mov word [logn], 0
%endmacro

WM_CREATE       equ 0x0001
WM_DESTROY      equ 0x0002
WM_SIZE         equ 0x0005
WM_PAINT        equ 0x000F
WM_NCHITTEST    equ 0x0084
WM_GETTEXTLENGTH equ 0x000E
WM_RENDERFORMAT equ 0x0305
WM_USER         equ 0x0400
WS_OVERLAPPEDWINDOW equ 0x00CF
WS_CHILD_HI     equ 0x4000
WS_VISIBLE_HI   equ 0x1000
WS_BORDER_HI    equ 0x0080
WS_POPUP_HI     equ 0x8000

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; main(hInstance, nCmdShow), near pascal: [bp+6] hInstance.
main:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax

        ; ---- system metrics
        mov si, metric_ids
        mov di, r
.metrics:
        lodsw
        cmp ax, 0xFFFF
        je .metrics_done
        push ax
        U 179                           ; GetSystemMetrics
        mov [di], ax
        add di, 2
        jmp .metrics
.metrics_done:
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13)
        PRINTF f_metrics, 28

        ; ---- the class: 4 class extra bytes, 6 window extra bytes, the
        ; COLOR_WINDOW brush
        mov word [wc+2], WndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov [procseg], ax
        mov word [wc+6], 4
        mov word [wc+8], 6
        mov ax, [hinst]
        mov [wc+0x0A], ax
        mov word [wc+0x10], 6           ; COLOR_WINDOW + 1
        mov word [wc+0x16], s_class
        mov [wc+0x18], ds
        PSTR wc
        U 57                            ; RegisterClass

        ; ---- CreateWindow: an overlapped window at (10, 20), 300 x 200
        LOGRESET
        mov byte [logon], 1
        PSTR s_class
        PSTR s_title
        push word WS_OVERLAPPEDWINDOW
        push word 0
        push word 10
        push word 20
        push word 300
        push word 200
        push word 0
        push word 0
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hmain], ax
        mov si, s_create
        call print_log

        ; ---- ShowWindow(SW_SHOWNORMAL), UpdateWindow
        LOGRESET
        push word [hmain]
        push word 1
        U 42
        push word [hmain]
        U 124
        U 60                            ; GetActiveWindow
        SAVEEQ 0, [hmain]
        U 23                            ; GetFocus
        SAVEEQ 1, [hmain]
        mov si, s_show
        call print_log
        PUSHR R(0), R(1)
        PRINTF f_active, 4

        ; ---- the rectangles
        push word [hmain]
        PSTR rc
        U 32                            ; GetWindowRect
        push word [hmain]
        PSTR rc2
        U 33                            ; GetClientRect
        PUSHR [rc], [rc+2], [rc+4], [rc+6], [rc2], [rc2+2], [rc2+4], [rc2+6]
        PRINTF f_rects, 16
        ; AdjustWindowRect of the client rectangle gives the window's size
        PSTR rc2
        push word WS_OVERLAPPEDWINDOW
        push word 0
        push word 0
        U 102
        PUSHR [rc2], [rc2+2], [rc2+4], [rc2+6]
        PRINTF f_adjust, 8
        mov word [pt], 0
        mov word [pt+2], 0
        push word [hmain]
        PSTR pt
        U 28                            ; ClientToScreen
        PUSHR [pt], [pt+2]
        PRINTF f_c2s, 4

        ; ---- update regions
        push word [hmain]
        push word 0
        push word 0
        U 127                           ; ValidateRect(hwnd, NULL)
        push word [hmain]
        PSTR r_a
        push word 1
        U 125                           ; InvalidateRect(hwnd, (10,10,50,40), TRUE)
        push word [hmain]
        PSTR rc
        push word 0
        U 190                           ; GetUpdateRect
        SAVE 0
        push word [hmain]
        PSTR r_b
        push word 0
        U 125                           ; InvalidateRect(hwnd, (100,50,120,60), FALSE)
        push word [hmain]
        PSTR rc2
        push word 0
        U 190
        SAVE 1
        PUSHR R(0), [rc], [rc+2], [rc+4], [rc+6], R(1), [rc2], [rc2+2], [rc2+4], [rc2+6]
        PRINTF f_update, 20
        LOGRESET
        push word [hmain]
        U 124                           ; UpdateWindow: WM_PAINT now
        push word [hmain]
        PSTR rc
        push word 0
        U 190
        SAVE 0
        mov si, s_paint
        call print_log
        PUSHR [ps+4], [ps+6], [ps+8], [ps+10], [ps+2], R(0)
        PRINTF f_painted, 12
        ; a posted message comes before WM_PAINT
        push word [hmain]
        push word WM_USER + 2
        push word 0
        push word 0
        push word 0
        U 110                           ; PostMessage
        push word [hmain]
        push word 0
        push word 0
        push word 0
        U 125                           ; InvalidateRect(hwnd, NULL, FALSE)
        PSTR msg
        push word 0
        push word 0
        push word 0
        push word 1
        U 109                           ; PeekMessage(PM_REMOVE)
        mov ax, [msg+2]
        SAVE 0
        PSTR msg
        U 114
        PSTR msg
        push word 0
        push word 0
        push word 0
        push word 1
        U 109
        mov ax, [msg+2]
        SAVE 1
        PSTR msg
        U 114                           ; DispatchMessage: BeginPaint validates
        PUSHR R(0), R(1)
        PRINTF f_order, 4

        ; ---- a child window, shown: WS_CHILD | WS_VISIBLE | WS_BORDER, id 7
        LOGRESET
        PSTR s_class
        PSTR s_c1
        push word WS_CHILD_HI | WS_VISIBLE_HI | WS_BORDER_HI
        push word 0
        push word 5
        push word 5
        push word 100
        push word 50
        push word [hmain]
        push word 7
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hc1], ax
        mov si, s_child
        call print_log
        push word [hc1]
        PSTR rc
        U 32
        push word [hc1]
        PSTR rc2
        U 33
        PUSHR [rc], [rc+2], [rc+4], [rc+6], [rc2], [rc2+2], [rc2+4], [rc2+6]
        PRINTF f_childrect, 16
        push word [hc1]
        U 46                            ; GetParent
        SAVEEQ 0, [hmain]
        push word [hmain]
        push word [hc1]
        U 48                            ; IsChild
        SAVE 1
        push word [hmain]
        push word 5
        U 262                           ; GetWindow(GW_CHILD)
        SAVEEQ 2, [hc1]
        push word [hc1]
        U 277                           ; GetDlgCtrlID
        SAVE 3
        push word [hc1]
        push word -12
        U 133                           ; GetWindowWord(GWW_ID)
        SAVE 4
        push word [hc1]
        push word -8
        U 133                           ; GetWindowWord(GWW_HWNDPARENT)
        SAVEEQ 5, [hmain]
        push word [hc1]
        push word 4
        U 262                           ; GetWindow(GW_OWNER)
        SAVE 6
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6)
        PRINTF f_relations, 14

        ; ---- MoveWindow: the child grows in place
        LOGRESET
        push word [hc1]
        push word 5
        push word 5
        push word 120
        push word 60
        push word 1
        U 56
        mov si, s_move
        call print_log
        push word [hc1]
        PSTR rc2
        U 33
        PUSHR [rc2+4], [rc2+6]
        PRINTF f_moved, 4

        ; ---- z-order: a second child goes below the first
        PSTR s_class
        PSTR s_c2
        push word WS_CHILD_HI | WS_VISIBLE_HI
        push word 0
        push word 150
        push word 5
        push word 50
        push word 50
        push word [hmain]
        push word 8
        push word [hinst]
        push word 0
        push word 0
        U 41
        mov [hc2], ax
        push word [hmain]
        push word 5
        U 262                           ; GW_CHILD: still the first
        SAVEEQ 0, [hc1]
        push word [hc1]
        push word 2
        U 262                           ; GW_HWNDNEXT
        SAVEEQ 1, [hc2]
        push word [hc2]
        U 45                            ; BringWindowToTop
        push word [hmain]
        push word 5
        U 262
        SAVEEQ 2, [hc2]
        push word [hc2]
        push word 1                     ; HWND_BOTTOM
        push word 0
        push word 0
        push word 0
        push word 0
        push word 3                     ; SWP_NOSIZE | SWP_NOMOVE
        U 232
        push word [hmain]
        push word 5
        U 262
        SAVEEQ 3, [hc1]
        push word [hmain]
        U 229                           ; GetTopWindow
        SAVEEQ 4, [hc1]
        push word [hc1]
        push word 1
        U 262                           ; GW_HWNDLAST
        SAVEEQ 5, [hc2]
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5)
        PRINTF f_zorder, 12

        ; ---- window words and class words
        push word [hmain]
        push word 2
        push word 0x1234
        U 134                           ; SetWindowWord
        SAVE 0
        push word [hmain]
        push word 2
        U 133
        SAVE 1
        push word [hmain]
        push word 6
        U 133                           ; past the 6 extra bytes: 0
        SAVE 2
        push word [hmain]
        push word 0
        push word 0x1122
        push word 0x3344
        U 136                           ; SetWindowLong(0): the old long
        SAVE 3
        mov [r + 2*4], dx
        push word [hmain]
        push word 0
        U 133
        SAVE 5
        push word [hmain]
        push word 2
        U 133
        SAVE 6
        PUSHR R(0), R(1), R(2), R(4), R(3), R(5), R(6)
        PRINTF f_words, 14
        push word [hmain]
        push word 0
        push word 0xABCD
        U 130                           ; SetClassWord
        SAVE 0
        push word [hmain]
        push word 0
        U 129
        SAVE 1
        push word [hmain]
        push word -18
        U 129                           ; GCW_CBWNDEXTRA
        SAVE 2
        push word [hmain]
        push word -20
        U 129                           ; GCW_CBCLSEXTRA
        SAVE 3
        push word [hmain]
        push word -10
        U 129                           ; GCW_HBRBACKGROUND
        SAVE 4
        push word [hmain]
        PSTR buf2
        push word 40
        U 58                            ; GetClassName
        SAVE 5
        push ds
        push buf2
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5)
        PRINTF f_classwords, 16

        ; ---- subclassing through GWL_WNDPROC
        push word [hc1]
        push word -4
        push word [procseg]
        push word SubProc
        U 136                           ; SetWindowLong(GWL_WNDPROC)
        mov [oldproc], ax
        mov [oldproc+2], dx
        cmp ax, WndProc
        jne .sub_no
        cmp dx, [procseg]
        jne .sub_no
        mov word R(0), 1
        jmp .sub_send
.sub_no:
        mov word R(0), 0
.sub_send:
        push word [hc1]
        push word WM_USER + 1
        push word 5
        push word 0
        push word 0
        U 111                           ; SendMessage: SubProc, then WndProc
        SAVE 1
        push word [hc1]
        push word -4
        U 135                           ; GetWindowLong(GWL_WNDPROC)
        SAVEEQ 2, SubProc
        push word [hc1]
        push word -4
        push word [oldproc+2]
        push word [oldproc]
        U 136
        ; USER's own class procedure is a callable far pointer
        push word 0
        PSTR s_static
        PSTR wc2
        U 404                           ; GetClassInfo(NULL, "STATIC")
        SAVE 3
        push word [wc2+4]
        push word [wc2+2]
        push word [hmain]
        push word WM_GETTEXTLENGTH
        push word 0
        push word 0
        push word 0
        U 122                           ; CallWindowProc
        SAVE 4
        PUSHR R(0), R(1), R(2), R(3), R(4)
        PRINTF f_subclass, 10

        ; ---- properties
        push word [hmain]
        PSTR s_prop
        push word 5
        U 26                            ; SetProp
        SAVE 0
        push word [hmain]
        PSTR s_prop
        U 25                            ; GetProp
        SAVE 1
        PSTR s_prop
        U 270                           ; GlobalFindAtom
        push word [hmain]
        push word 0
        push ax
        U 25                            ; GetProp(MAKEINTATOM)
        SAVE 2
        mov word [count], 0
        push word [hmain]
        push word [procseg]
        push word PropProc
        U 27                            ; EnumProps
        SAVE 3
        push word [hmain]
        PSTR s_prop
        U 24                            ; RemoveProp
        SAVE 4
        push word [hmain]
        PSTR s_prop
        U 25
        SAVE 5
        PUSHR R(0), R(1), R(2), R(3), [count], R(4), R(5)
        PRINTF f_props, 14

        ; ---- hit testing (screen points)
        mov si, hit_points
        mov di, r
.hits:
        lodsw
        cmp ax, 0xFFFF
        je .hits_done
        mov bx, ax
        lodsw
        push word [hmain]
        push word WM_NCHITTEST
        push word 0
        push ax                         ; y
        push bx                         ; x
        U 111
        mov [di], ax
        add di, 2
        jmp .hits
.hits_done:
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8)
        PRINTF f_hittest, 18

        ; ---- the focus
        LOGRESET
        push word [hc1]
        U 22                            ; SetFocus: the main window had it
        SAVEEQ 0, [hmain]
        U 23
        SAVEEQ 1, [hc1]
        PUSHR R(0), R(1)
        PRINTF f_focus, 4
        mov si, s_focuslog
        call print_log

        ; ---- disabling the focus window
        LOGRESET
        push word [hc1]
        push word 0
        U 34                            ; EnableWindow(FALSE): was enabled
        SAVE 0
        push word [hc1]
        U 35
        SAVE 1
        U 23
        SAVE 2
        push word [hc1]
        push word 1
        U 34                            ; EnableWindow(TRUE): was disabled
        SAVE 3
        PUSHR R(0), R(1), R(2), R(3)
        PRINTF f_enable, 8
        mov si, s_enablelog
        call print_log

        ; ---- window scroll bars
        push word [hmain]
        push word 1                     ; SB_VERT
        push word 0
        push word 50
        push word 0
        U 64                            ; SetScrollRange: shows it
        push word [hmain]
        PSTR rc2
        U 33
        mov ax, [rc2+4]
        SAVE 0
        mov ax, [lastsize]
        SAVE 1
        push word [hmain]
        push word 1
        push word 70
        push word 0
        U 62                            ; SetScrollPos: the old position
        SAVE 2
        push word [hmain]
        push word 1
        U 63                            ; GetScrollPos: kept in the range
        SAVE 3
        push word [hmain]
        push word 1
        PSTR v1
        PSTR v2
        U 65
        mov ax, [v1]
        SAVE 4
        mov ax, [v2]
        SAVE 5
        push word [hmain]
        push word 1
        push word 0
        push word 0
        push word 0
        U 64                            ; an empty range hides it
        push word [hmain]
        PSTR rc2
        U 33
        mov ax, [rc2+4]
        SAVE 6
        push word [hmain]
        push word 1
        PSTR v1
        PSTR v2
        U 65
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), [v1], [v2]
        PRINTF f_scroll, 18

        ; ---- ScrollWindow: the uncovered strip is invalid
        push word [hmain]
        push word 0
        push word 0
        U 127
        push word [hmain]
        push word 0
        push word -10
        push word 0
        push word 0
        push word 0
        push word 0
        U 61                            ; ScrollWindow(0, -10, NULL, NULL)
        push word [hmain]
        PSTR rc
        push word 0
        U 190
        SAVE 0
        push word [hc1]
        PSTR rc2
        U 32                            ; the children moved with it
        PUSHR R(0), [rc], [rc+2], [rc+4], [rc+6], [rc2+2]
        PRINTF f_scrollwin, 12
        push word [hmain]
        push word 0
        push word 0
        U 127

        ; ---- the caret
        push word [hmain]
        push word 0
        push word 0
        push word 10
        U 163                           ; CreateCaret
        U 169                           ; GetCaretBlinkTime
        SAVE 0
        push word 3
        push word 4
        U 165                           ; SetCaretPos
        PSTR pt
        U 183                           ; GetCaretPos
        U 164                           ; DestroyCaret
        PUSHR R(0), [pt], [pt+2]
        PRINTF f_caret, 6

        ; ---- the cursor
        push word 0
        U 71                            ; ShowCursor(FALSE): -1
        SAVE 0
        push word 1
        U 71                            ; ShowCursor(TRUE): 0
        SAVE 1
        push word 100
        push word 200
        U 70                            ; SetCursorPos
        PSTR pt
        U 17
        mov ax, [pt]
        SAVE 2
        mov ax, [pt+2]
        SAVE 3
        PSTR r_clip
        U 16                            ; ClipCursor((0,0,50,50))
        PSTR pt
        U 17
        push word 0
        push word 0
        U 16                            ; ClipCursor(NULL)
        PUSHR R(0), R(1), R(2), R(3), [pt], [pt+2]
        PRINTF f_cursor, 12

        ; ---- system colours
        push word 5
        U 180                           ; COLOR_WINDOW
        SAVE 0
        mov [r+2], dx
        push word 2
        U 180                           ; COLOR_ACTIVECAPTION
        SAVE 2
        mov [r+6], dx
        push word 15
        U 180                           ; COLOR_BTNFACE
        SAVE 4
        mov [r+10], dx
        push word 99
        U 180
        SAVE 6
        mov [r+14], dx
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7)
        PRINTF f_colors, 16

        ; ---- registered messages and formats share the atoms
        PSTR s_regmsg
        U 118
        mov [v1], ax
        PSTR s_regmsg
        U 118
        SAVEEQ 0, [v1]
        mov ax, [v1]
        cmp ax, 0xC000
        mov ax, 0
        jb .rm_low
        inc ax
.rm_low:
        SAVE 1
        PSTR s_regmsg
        U 145
        SAVEEQ 2, [v1]
        PUSHR R(0), R(1), R(2)
        PRINTF f_regmsg, 6

        ; ---- the rectangle functions
        PSTR rc
        PSTR r_p
        PSTR r_q
        U 79                            ; IntersectRect
        SAVE 0
        PSTR rc2
        PSTR r_p
        PSTR r_q
        U 80                            ; UnionRect
        SAVE 1
        PSTR rc3
        PSTR r_p
        PSTR r_s
        U 373                           ; SubtractRect
        SAVE 2
        PSTR r_p
        push word 5                     ; POINT (10, 5): y
        push word 10                    ;                x
        U 76                            ; PtInRect: the right edge is out
        SAVE 3
        PSTR r_p
        PSTR r_p2
        U 244                           ; EqualRect
        SAVE 4
        PUSHR R(0), [rc], [rc+2], [rc+4], [rc+6], R(1), [rc2], [rc2+2], [rc2+4], [rc2+6], R(2), [rc3], [rc3+2], [rc3+4], [rc3+6], R(3), R(4)
        PRINTF f_rectfn, 34

        ; ---- minimize, restore, maximize
        push word [hmain]
        push word 6
        U 42                            ; SW_MINIMIZE
        push word [hmain]
        U 31
        SAVE 0
        mov ax, [lastsizetype]
        SAVE 1
        push word [hmain]
        PSTR rc
        U 32
        PUSHR R(0), R(1), [rc], [rc+2], [rc+4], [rc+6]
        PRINTF f_min, 12
        push word [hmain]
        push word 9
        U 42                            ; SW_RESTORE
        push word [hmain]
        U 31
        SAVE 0
        push word [hmain]
        PSTR rc
        U 32
        PUSHR R(0), [rc], [rc+2], [rc+4], [rc+6]
        PRINTF f_restore, 10
        push word [hmain]
        push word 3
        U 42                            ; SW_SHOWMAXIMIZED
        push word [hmain]
        U 272
        SAVE 0
        mov ax, [lastsizetype]
        SAVE 1
        push word [hmain]
        PSTR rc
        U 32
        push word [hmain]
        PSTR rc2
        U 33
        PUSHR R(0), R(1), [rc], [rc+2], [rc+4], [rc+6], [rc2+4], [rc2+6]
        PRINTF f_max, 16
        push word [hmain]
        push word 9
        U 42

        ; ---- FindWindow and the enumerations
        PSTR s_class
        push word 0
        push word 0
        U 50
        SAVEEQ 0, [hmain]
        push word 0
        push word 0
        PSTR s_title
        U 50
        SAVEEQ 1, [hmain]
        PSTR s_nosuch
        push word 0
        push word 0
        U 50
        SAVE 2
        mov word [count], 0
        push word [procseg]
        push word EnumProc
        push word 0
        push word 0
        U 54                            ; EnumWindows
        mov ax, [count]
        SAVE 3
        mov word [count], 0
        push word [hmain]
        push word [procseg]
        push word EnumProc
        push word 0
        push word 0
        U 55                            ; EnumChildWindows
        mov ax, [count]
        SAVE 4
        PUSHR R(0), R(1), R(2), R(3), R(4)
        PRINTF f_find, 10

        ; ---- the clipboard
        push word [hmain]
        U 137                           ; OpenClipboard
        SAVE 0
        U 139                           ; EmptyClipboard
        SAVE 1
        push word 0x2002                ; GMEM_MOVEABLE | GMEM_DDESHARE
        push word 0
        push word 6
        K 15                            ; GlobalAlloc
        mov [hmem], ax
        push ax
        K 18                            ; GlobalLock
        mov es, dx
        mov di, ax
        mov si, s_hello
        mov cx, 6
        rep movsb
        push ds
        pop es
        push word [hmem]
        K 19
        push word 1
        push word [hmem]
        U 141                           ; SetClipboardData(CF_TEXT)
        SAVEEQ 2, [hmem]
        push word 8
        push word 0
        U 141                           ; CF_DIB promised, rendered later
        U 138                           ; CloseClipboard
        SAVE 3
        push word 1
        U 193                           ; IsClipboardFormatAvailable
        SAVE 4
        push word 7
        U 193                           ; CF_OEMTEXT, from CF_TEXT
        SAVE 5
        push word 2
        U 193                           ; CF_BITMAP: no
        SAVE 6
        U 143                           ; CountClipboardFormats
        SAVE 7
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7)
        PRINTF f_clip, 16
        push word [hmain]
        U 137
        SAVE 0
        push word 1
        U 142                           ; GetClipboardData(CF_TEXT)
        push ax
        K 18
        push ds                         ; copy the text before it is freed
        mov si, ax
        mov ds, dx
        push ss
        pop es
        mov di, buf3
        mov cx, 6
        rep movsb
        pop ds
        push ds
        pop es
        push word 0
        U 144                           ; EnumClipboardFormats
        SAVE 1
        push ax
        U 144
        SAVE 2
        push ax
        U 144
        SAVE 3
        push ax
        U 144
        SAVE 4
        push word 8
        U 142                           ; GetClipboardData(CF_DIB): rendered
        or ax, ax
        jz .norender
        mov ax, 1
.norender:
        SAVE 5
        U 140                           ; GetClipboardOwner
        SAVEEQ 6, [hmain]
        LOGRESET
        U 139                           ; EmptyClipboard: WM_DESTROYCLIPBOARD
        mov ax, [log]
        SAVE 7
        U 138
        SAVE 8
        PUSHR R(7), R(8)
        PUSHR R(1), R(2), R(3), R(4), R(5), R(6)
        push ds
        push buf3
        push word R(0)
        PRINTF f_clip2, 22

        ; ---- hooks
        K 36                            ; GetCurrentTask
        mov [task], ax
        push word 4                     ; WH_CALLWNDPROC
        push word [procseg]
        push word CwpHook
        push word [hinst]
        push word [task]
        U 291                           ; SetWindowsHookEx
        mov [hhook], ax
        mov [hhook+2], dx
        or ax, dx
        jz .nohook
        mov ax, 1
.nohook:
        SAVE 0
        push word [hmain]
        push word WM_USER + 3
        push word 0
        push word 0
        push word 0
        U 111
        push word [hhook+2]
        push word [hhook]
        U 292                           ; UnhookWindowsHookEx
        SAVE 1
        push word 3                     ; WH_GETMESSAGE
        push word [procseg]
        push word GmHook
        push word [hinst]
        push word [task]
        U 291
        mov [hhook], ax
        mov [hhook+2], dx
        push word [hmain]
        push word WM_USER + 4
        push word 10
        push word 0
        push word 0
        U 110
        PSTR msg
        push word 0
        push word 0
        push word 0
        U 108                           ; GetMessage: the hook adds 1 to wParam
        mov ax, [msg+4]
        SAVE 2
        push word [hhook+2]
        push word [hhook]
        U 292
        push word 5                     ; WH_CBT
        push word [procseg]
        push word CbtHook
        push word [hinst]
        push word [task]
        U 291
        mov [hhook], ax
        mov [hhook+2], dx
        PSTR s_class
        PSTR s_c2
        push word WS_POPUP_HI
        push word 0
        push word 0
        push word 0
        push word 40
        push word 40
        push word 0
        push word 0
        push word [hinst]
        push word 0
        push word 0
        U 41
        push ax
        U 53                            ; DestroyWindow
        push word [hhook+2]
        push word [hhook]
        U 292
        PUSHR R(0), [hooked], R(1), R(2), [cbtfirst], [cbtlast]
        PRINTF f_hooks, 12

        ; ---- DestroyWindow: the main window and its children
        push word [hmain]
        U 22
        LOGRESET
        push word [hmain]
        U 53
        mov si, s_destroy
        call print_log

        xor ax, ax
        NEAR_EPILOGUE 4

; print_log: the string at SI, then each logged message as " %04X".
print_log:
        push si
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
        xor si, si
.entry:
        cmp si, [logn]
        jae .out
        mov bx, si
        shl bx, 1
        push word [log + bx]
        PSTR f_hex
        push ds
        push di
        U 420
        add sp, 10
        add di, ax
        inc si
        jmp .entry
.out:
        mov ax, di
        sub ax, buf
        call print_buf
        pop di
        pop si
        ret

; WndProc(hwnd, msg, wParam, lParam): logs the message, then handles a few.
; [bp+0x0E] hwnd, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        cmp byte [logon], 0
        je .nolog
        mov bx, [logn]
        cmp bx, 60
        jae .nolog
        mov ax, [bp+0x0C]
        mov cx, [bp+0x0E]
        cmp word [hmain], 0
        jne .known
        mov [hmain], cx                 ; the first window is the main one
.known:
        cmp cx, [hmain]
        je .mainmsg
        or ax, 0x8000
.mainmsg:
        shl bx, 1
        mov [log + bx], ax
        inc word [logn]
.nolog:
        mov ax, [bp+0x0C]
        cmp ax, WM_PAINT
        je .paint
        cmp ax, WM_SIZE
        je .size
        cmp ax, WM_USER + 1
        je .user1
        cmp ax, WM_RENDERFORMAT
        je .render
        jmp .default
.paint:
        push word [bp+0x0E]
        PSTR ps2
        U 39                            ; BeginPaint
        mov ax, [bp+0x0E]
        cmp ax, [hmain]
        jne .paint_end
        mov si, ps2
        mov di, ps
        mov cx, 16
        push ds
        pop es
        rep movsw
.paint_end:
        push word [bp+0x0E]
        PSTR ps2
        U 40
        xor ax, ax
        xor dx, dx
        jmp .out
.size:
        mov ax, [bp+0x0E]
        cmp ax, [hmain]
        jne .default
        mov ax, [bp+6]
        mov [lastsize], ax
        mov ax, [bp+0x0A]
        mov [lastsizetype], ax
        jmp .default
.user1:
        mov ax, 100
        xor dx, dx
        jmp .out
.render:
        push word 0x2002
        push word 0
        push word 4
        K 15
        push word [bp+0x0A]
        push ax
        U 141                           ; SetClipboardData(format, h)
        xor ax, ax
        xor dx, dx
        jmp .out
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 107                           ; DefWindowProc
.out:
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

; SubProc: WM_USER+1 gives the old procedure's answer plus 2 * wParam.
SubProc:
        WIN_FAR_PROLOGUE
        push word [oldproc+2]
        push word [oldproc]
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 122                           ; CallWindowProc
        cmp word [bp+0x0C], WM_USER + 1
        jne .done
        add ax, [bp+0x0A]
        add ax, [bp+0x0A]
.done:
        WIN_FAR_EPILOGUE 10

; EnumProc(hwnd, lParam): counts the windows of this task.
; [bp+0x0A] hwnd, [bp+6] lParam.
EnumProc:
        WIN_FAR_PROLOGUE
        push word [bp+0x0A]
        U 224                           ; GetWindowTask
        push ax
        K 36
        pop cx
        cmp ax, cx
        jne .other
        inc word [count]
.other:
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 6

; PropProc(hwnd, lpszString, hData): counts the properties.
PropProc:
        WIN_FAR_PROLOGUE
        inc word [count]
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 8

; CwpHook(code, wParam, lParam): notes the message (lParam points at
; lParam, wParam, msg, hWnd), then CallNextHookEx.
; [bp+0x0C] code, [bp+0x0A] wParam, [bp+6] lParam.
CwpHook:
        WIN_FAR_PROLOGUE
        les bx, [bp+6]
        mov ax, [es:bx+6]
        cmp ax, WM_USER + 3
        jne .pass
        mov [hooked], ax
.pass:
        push word [hhook+2]
        push word [hhook]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 293                           ; CallNextHookEx
        WIN_FAR_EPILOGUE 8

; GmHook(code, wParam, lParam): lParam points at the MSG; wParam + 1.
GmHook:
        WIN_FAR_PROLOGUE
        les bx, [bp+6]
        cmp word [es:bx+2], WM_USER + 4
        jne .pass
        inc word [es:bx+4]
.pass:
        xor ax, ax
        xor dx, dx
        WIN_FAR_EPILOGUE 8

; CbtHook(code, wParam, lParam): notes the first and the last code.
CbtHook:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp word [cbtseen], 0
        jne .later
        mov [cbtfirst], ax
        mov word [cbtseen], 1
.later:
        mov [cbtlast], ax
        xor ax, ax
        xor dx, dx
        WIN_FAR_EPILOGUE 8

        PRINT_BUF_SUB

        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
hinst:  dw 0
hmain:  dw 0
hc1:    dw 0
hc2:    dw 0
procseg: dw 0
oldproc: dd 0
hmem:   dw 0
task:   dw 0
hhook:  dd 0
hooked: dw 0
cbtseen: dw 0
cbtfirst: dw 0
cbtlast: dw 0
count:  dw 0
lastsize: dw 0
lastsizetype: dw 0
v1:     dw 0
v2:     dw 0
logon:  db 0
        db 0
logn:   dw 0
log:    times 64 dw 0
r:      times 32 dw 0
wc:     times 26 db 0
wc2:    times 26 db 0
rc:     times 4 dw 0
rc2:    times 4 dw 0
rc3:    times 4 dw 0
pt:     dw 0, 0
ps:     times 32 db 0
ps2:    times 32 db 0
msg:    times 18 db 0
r_a:    dw 10, 10, 50, 40
r_b:    dw 100, 50, 120, 60
r_clip: dw 0, 0, 50, 50
r_p:    dw 0, 0, 10, 10
r_p2:   dw 0, 0, 10, 10
r_q:    dw 5, 5, 20, 20
r_s:    dw 5, -1, 20, 20
; GetSystemMetrics: SM_CXSCREEN, SM_CYSCREEN, SM_CYCAPTION, SM_CXFRAME,
; SM_CXDLGFRAME, SM_CXBORDER, SM_CXVSCROLL, SM_CYHSCROLL, SM_CYMENU,
; SM_CYFULLSCREEN, SM_CXICON, SM_CXMIN, SM_CYMIN, 43 (none)
metric_ids: dw 0, 1, 4, 32, 7, 5, 2, 3, 15, 17, 11, 28, 29, 43, 0xFFFF
; WM_NCHITTEST points (screen): caption, system menu, maximize box,
; minimize box, client, left edge, top left corner, bottom right corner,
; outside
hit_points: dw 160, 30, 20, 30, 290, 30, 270, 30, 100, 100, 12, 120, 12, 22, 308, 218, 5, 5, 0xFFFF
s_class: db 'WmgrClass', 0
s_title: db 'wmgr', 0
s_c1:   db 'c1', 0
s_c2:   db 'c2', 0
s_static: db 'STATIC', 0
s_prop: db 'Color', 0
s_nosuch: db 'NoSuchClass', 0
s_regmsg: db 'TH16Msg', 0
s_hello: db 'hello', 0
s_create: db 'create', 0
s_show: db 'show', 0
s_paint: db 'paint', 0
s_child: db 'child', 0
s_move: db 'move', 0
s_focuslog: db 'focuslog', 0
s_enablelog: db 'enablelog', 0
s_destroy: db 'destroy', 0
f_hex:  db ' %04X', 0
f_metrics: db 'metrics %d %d %d %d %d %d %d %d %d %d %d %d %d %d', 0
f_active: db 'active %d %d', 0
f_rects: db 'rects %d %d %d %d %d %d %d %d', 0
f_adjust: db 'adjust %d %d %d %d', 0
f_c2s:  db 'c2s %d %d', 0
f_update: db 'update %d %d %d %d %d %d %d %d %d %d', 0
f_painted: db 'painted %d %d %d %d %d %d', 0
f_order: db 'order %04X %04X', 0
f_childrect: db 'childrect %d %d %d %d %d %d %d %d', 0
f_relations: db 'relations %d %d %d %d %d %d %d', 0
f_moved: db 'moved %d %d', 0
f_zorder: db 'zorder %d %d %d %d %d %d', 0
f_words: db 'words %d %04X %d %04X%04X %04X %04X', 0
f_classwords: db 'classwords %d %04X %d %d %d %d %s', 0
f_subclass: db 'subclass %d %d %d %d %d', 0
f_props: db 'props %d %d %d %d %d %d %d', 0
f_hittest: db 'hittest %d %d %d %d %d %d %d %d %d', 0
f_focus: db 'focus %d %d', 0
f_enable: db 'enable %d %d %d %d', 0
f_scroll: db 'scroll %d %d %d %d %d %d %d %d %d', 0
f_scrollwin: db 'scrollwin %d %d %d %d %d %d', 0
f_caret: db 'caret %d %d %d', 0
f_cursor: db 'cursor %d %d %d %d %d %d', 0
f_colors: db 'colors %08lX %08lX %08lX %08lX', 0
f_regmsg: db 'regmsg %d %d %d', 0
f_rectfn: db 'rectfn %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d', 0
f_min:  db 'min %d %d %d %d %d %d', 0
f_restore: db 'restore %d %d %d %d %d', 0
f_max:  db 'max %d %d %d %d %d %d %d %d', 0
f_find: db 'find %d %d %d %d %d', 0
f_clip: db 'clip %d %d %d %d %d %d %d %d', 0
f_clip2: db 'clip2 %d %s %d %d %d %d %d %d %04X %d', 0
f_hooks: db 'hooks %d %04X %d %d %d %d', 0
crlf:   db 13, 10
buf:    times 300 db 0
buf2:   times 40 db 0
buf3:   times 8 db 0
        NE_SEGMENT_END
