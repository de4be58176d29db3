; mdiprobe.asm -- a probe of an MDIDEMO-like frame with GRAFMENU's bitmap
; menu items and RANDRECT's PeekMessage loop, run with no script: the
; frame makes an MDICLIENT (CLIENTCREATESTRUCT), a child through
; WM_MDICREATE whose class keeps a word of window extra bytes, swaps the
; frame menu with WM_MDISETMENU, destroys the child with WM_MDIDESTROY;
; a popup menu gets a bitmap item (MF_BITMAP) and check-mark bitmaps.
; The main loop is PeekMessage(PM_REMOVE) with TranslateMDISysAccel; the
; session's WM_CLOSE reaches DefFrameProc, which destroys the frame.
; Every answer is checked against the SDK (inc/checks.inc); the program
; prints `checks N fails M` and exits with the number of failures.
; output: mdiprobe.exe
; no-walk-expectation: a probe of USER's MDI and menus as the textbook samples use them, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - WM_MDICREATE returns the new child; WM_MDIGETACTIVE's LOWORD is the
;   active child; the child's parent is the MDI client.
; - SetWindowWord returns the previous word (0 in a new window).
; - WM_MDISETMENU returns the previous frame menu; GetMenu then answers
;   the new one.
; - WM_MDIDESTROY destroys the child: the client has no child window
;   left (GetWindow(GW_CHILD) is NULL).
; - AppendMenu(MF_BITMAP) makes an item whose GetMenuState has MF_BITMAP
;   (0x0004) and whose GetMenuString is empty (0); SetMenuItemBitmaps
;   returns nonzero; GetMenuCheckMarkDimensions is nonzero.
; - PeekMessage(PM_REMOVE) returns WM_QUIT (0x0012) once the frame is
;   destroyed and PostQuitMessage called.

%include "inc/win16app.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

MP_DATA_SIZE equ 0x0600
WM_CREATE   equ 0x0001
WM_DESTROY  equ 0x0002
WM_QUIT     equ 0x0012
WM_MDICREATE equ 0x0220
WM_MDIDESTROY equ 0x0221
WM_MDIGETACTIVE equ 0x0229
WM_MDISETMENU equ 0x0230
MF_BITMAP   equ 0x0004
GW_CHILD    equ 5

        NE_MODULE   'MDIPROBE', 'toolhelp16: an MDIDEMO-like probe'
        NE_HEAP     0x0800
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'FRAMEPROC', 1, FrameProc
        NE_EXPORT   'CHILDPROC', 2, ChildProc
        NE_HEADER   2

%macro SEND 4                           ; SendMessage([%1], %2, %3, long %4)
        push word [%1]
        push word %2
        push word %3
        PL %4
        FAR_CALL_IMPORT USER, 111
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov [wc+0x0A], ax
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov word [wc+2], FrameProc
        mov word [wc+0x10], 13          ; COLOR_APPWORKSPACE + 1
        mov word [wc+0x16], frame_class
        mov [wc+0x18], ds
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass(frame)
        CHECK_NZ 'RegisterClass of the frame'
        mov word [wc+2], ChildProc
        mov word [wc+8], 2              ; cbWndExtra: one word
        mov word [wc+0x10], 6           ; COLOR_WINDOW + 1
        mov word [wc+0x16], child_class
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass(child)
        CHECK_NZ 'RegisterClass of the child'
        FAR_CALL_IMPORT USER, 151       ; CreateMenu: the frame menu
        mov [hmenu1], ax
        FAR_CALL_IMPORT USER, 415       ; CreatePopupMenu: its Window menu
        mov [hwinmenu], ax
        push word [hmenu1]
        push 0x0010                     ; MF_POPUP
        push word [hwinmenu]
        push ds
        push s_window
        FAR_CALL_IMPORT USER, 411       ; AppendMenu
        PSTR frame_class
        PSTR s_title
        PL 0x02CF0000                   ; WS_OVERLAPPEDWINDOW | WS_CLIPCHILDREN
        push word 0x8000
        push 0
        push word 0x8000
        push 0
        push 0
        push word [hmenu1]
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41        ; CreateWindow(frame)
        mov [hframe], ax
        CHECK_NZ 'CreateWindow of the frame'
        mov ax, [hclient]
        CHECK_NZ 'the frame made its MDICLIENT'
        push word [hframe]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        push word [hframe]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow
        call checks_mdi
        call checks_grafmenu
        CHECKS_REPORT
.loop:  PSTR msg
        push 0
        push 0
        push 0
        push 1                          ; PM_REMOVE
        FAR_CALL_IMPORT USER, 109       ; PeekMessage
        or ax, ax
        jz .idle
        cmp word [msg+2], WM_QUIT
        je .done
        push word [hclient]
        PSTR msg
        FAR_CALL_IMPORT USER, 451       ; TranslateMDISysAccel
        or ax, ax
        jnz .loop
        PSTR msg
        FAR_CALL_IMPORT USER, 113
        PSTR msg
        FAR_CALL_IMPORT USER, 114
        jmp .loop
.idle:  inc word [idle]                 ; RANDRECT draws here
        jmp .loop
.done:  push word [hframe]
        FAR_CALL_IMPORT USER, 47        ; IsWindow
        mov bx, ax
        mov ax, [fails]
        add ax, bx                      ; the frame must be gone
        NEAR_EPILOGUE 4

checks_mdi:
        mov word [mdics], child_class
        mov [mdics+2], ds
        mov word [mdics+4], s_child
        mov [mdics+6], ds
        mov ax, [hinst]
        mov [mdics+8], ax
        mov word [mdics+10], 0x8000
        mov word [mdics+12], 0x8000
        mov word [mdics+14], 0x8000
        mov word [mdics+16], 0x8000
        LOG_CLEAR
        push word [hclient]
        push WM_MDICREATE
        push 0
        PSTR mdics
        FAR_CALL_IMPORT USER, 111
        mov [hchild], ax
        CHECK_NZ 'WM_MDICREATE made a child'
        CHECK_LOG 'the child got WM_CREATE', WM_CREATE
        push word [hchild]
        FAR_CALL_IMPORT USER, 46        ; GetParent
        IS_EQ [hclient]
        CHECK 1, 'the child of the MDI client'
        SEND hclient, WM_MDIGETACTIVE, 0, 0
        IS_EQ [hchild]
        CHECK 1, 'WM_MDIGETACTIVE: the new child'
        push word [hchild]
        push 0
        push 0x1234
        FAR_CALL_IMPORT USER, 134       ; SetWindowWord(child, 0)
        CHECK 0, 'SetWindowWord: the new word was 0'
        push word [hchild]
        push 0
        FAR_CALL_IMPORT USER, 133       ; GetWindowWord(child, 0)
        CHECK 0x1234, 'GetWindowWord'
        FAR_CALL_IMPORT USER, 151       ; CreateMenu: a second frame menu
        mov [hmenu2], ax
        push word [hclient]
        push WM_MDISETMENU
        push 0
        push word [hwinmenu]
        push word [hmenu2]
        FAR_CALL_IMPORT USER, 111       ; WM_MDISETMENU(0, MAKELONG(hmenu2, hwinmenu))
        IS_EQ [hmenu1]
        CHECK 1, 'WM_MDISETMENU returns the old frame menu'
        push word [hframe]
        FAR_CALL_IMPORT USER, 157       ; GetMenu
        IS_EQ [hmenu2]
        CHECK 1, 'the frame has the new menu'
        push word [hframe]
        FAR_CALL_IMPORT USER, 160       ; DrawMenuBar
        push word [hclient]
        push WM_MDIDESTROY
        push word [hchild]
        PL 0
        FAR_CALL_IMPORT USER, 111
        push word [hchild]
        FAR_CALL_IMPORT USER, 47        ; IsWindow
        CHECK 0, 'WM_MDIDESTROY destroyed the child'
        push word [hclient]
        push GW_CHILD
        FAR_CALL_IMPORT USER, 262       ; GetWindow(client, GW_CHILD)
        CHECK 0, 'the client has no child'
        push word [hmenu1]
        FAR_CALL_IMPORT USER, 152       ; DestroyMenu(the old menu)
        CHECK 1, 'DestroyMenu'
        ret

checks_grafmenu:
        push 8
        push 8
        push 1
        push 1
        PSTR bmbits
        FAR_CALL_IMPORT GDI, 48         ; CreateBitmap(8, 8, 1, 1, bits)
        mov [hbm], ax
        CHECK_NZ 'CreateBitmap'
        FAR_CALL_IMPORT USER, 415       ; CreatePopupMenu
        mov [hpop], ax
        push word [hpop]
        push MF_BITMAP
        push 100
        push 0
        push word [hbm]
        FAR_CALL_IMPORT USER, 411       ; AppendMenu(MF_BITMAP, 100, hbm)
        CHECK_NZ 'AppendMenu of a bitmap item'
        push word [hpop]
        push 100
        push 0
        FAR_CALL_IMPORT USER, 250       ; GetMenuState
        and ax, MF_BITMAP
        CHECK MF_BITMAP, 'the item is a bitmap'
        push word [hpop]
        push 100
        PSTR buf
        push 32
        push 0
        FAR_CALL_IMPORT USER, 161       ; GetMenuString
        CHECK 0, 'a bitmap item has no string'
        FAR_CALL_IMPORT USER, 417       ; GetMenuCheckMarkDimensions
        CHECK_NZ 'check-mark width'
        mov ax, dx
        CHECK_NZ 'check-mark height'
        push word [hpop]
        push 100
        push 0
        push word [hbm]
        push word [hbm]
        FAR_CALL_IMPORT USER, 418       ; SetMenuItemBitmaps
        CHECK_NZ 'SetMenuItemBitmaps'
        push word [hpop]
        FAR_CALL_IMPORT USER, 152
        CHECK 1, 'DestroyMenu of the popup'
        ret

; FrameProc(hwnd, msg, wParam, lParam)
FrameProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        je .create
        cmp ax, WM_DESTROY
        je .destroy
.default:
        push word [bp+0x0E]
        push word [hclient]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 445       ; DefFrameProc
        jmp .out
.create:
        mov ax, [hwinmenu]
        mov [ccs], ax
        mov word [ccs+2], 1000
        push ds
        push mdiclient
        PL 0
        PL 0x52000000                   ; WS_CHILD | WS_CLIPCHILDREN | WS_VISIBLE
        push 0
        push 0
        push 0
        push 0
        push word [bp+0x0E]
        push 1
        push word [hinst]
        PSTR ccs
        FAR_CALL_IMPORT USER, 41        ; CreateWindow("MDICLIENT")
        mov [hclient], ax
        xor ax, ax
        xor dx, dx
        jmp .out
.destroy:
        push 0
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage
        xor ax, ax
        xor dx, dx
.out:   WIN_FAR_EPILOGUE 10

; ChildProc(hwnd, msg, wParam, lParam)
ChildProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        jne .default
        LOG_WORD ax
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 447       ; DefMDIChildProc
        WIN_FAR_EPILOGUE 10

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, MP_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hframe:     dw 0
hclient:    dw 0
hchild:     dw 0
hmenu1:     dw 0
hmenu2:     dw 0
hwinmenu:   dw 0
hbm:        dw 0
hpop:       dw 0
idle:       dw 0
ccs:        dw 0, 0
mdics:      times 26 db 0
wc:         times 0x1A db 0
msg:        times 18 db 0
bmbits:     db 0x18, 0, 0x3C, 0, 0x7E, 0, 0xFF, 0, 0xFF, 0, 0x7E, 0, 0x3C, 0, 0x18, 0
frame_class: db 'MdiFrame', 0
child_class: db 'MdiHello', 0
mdiclient:  db 'MDICLIENT', 0
s_title:    db 'MDI Demonstration', 0
s_child:    db 'Hello', 0
s_window:   db '&Window', 0
buf:        times 40 db 0
        CHECKS_DATA
        PAD_TO MP_DATA_SIZE
        NE_SEGMENT_END
