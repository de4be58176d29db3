; wmpaint.asm -- USER's painting through GDI: the frame Windows 3.1 draws
; round a window and the desktop under it (read back with GetPixel on the
; screen's DC), window DCs (GetDC, GetWindowDC, ReleaseDC, WindowFromDC, a
; CS_OWNDC class's own DC keeping its mapping mode, a parent's DC clipped
; by WS_CLIPCHILDREN), update regions as GDI regions (GetUpdateRgn,
; InvalidateRgn, ValidateRgn, ExcludeUpdateRgn), ScrollWindow carrying
; the pixels and the children, DrawIcon and DrawFocusRect, FlashWindow,
; the system services, an MDI frame with its children, and ExitWindows
; (refused, then agreed: the run ends inside it).
; output: wmpaint.exe
; no-walk-expectation: a test of USER's painting, checked by tests/win16_wm.rs against the lines below
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints one line per group (tests/win16_wm.rs has the expected values
; and their sources):
;   frame ...   inactive ...  hidden ...  dcs ...     owndc ...
;   clipkids ... regions ...  exclude ... scroll ...  icon ...
;   focusrect ... flash ...   system ...  mdi ...     mditile ...
;   mdidestroy ... exitrefused ...   endsession ...
; and ends in ExitWindows with code 0.

%include "inc/win16app.inc"
%include "inc/wmprint.inc"
%include "inc/args.inc"

        WIN16_APP   'WMPAINT', 'toolhelp16 test: USER painting', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'OWNPROC', 1, OwnProc
        NE_EXPORT   'FRAMEPROC', 1, FrameProc
        NE_EXPORT   'DOCPROC', 1, DocProc
        NE_HEADER   2

%macro U 1
        FAR_CALL_IMPORT USER, %1
%endmacro
%macro G 1
        FAR_CALL_IMPORT GDI, %1
%endmacro
%macro PUSHR 1-*
%rep %0
%rotate -1
        push word %1
%endrep
%endmacro
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
; GetPixel(hdc in [%1], x, y) into slots n (low word), n+1 (high word)
%macro PIX 4
        push word [%1]
        push word %2
        push word %3
        G 83
        mov [r + 2*(%4)], ax
        mov [r + 2*(%4) + 2], dx
%endmacro
; CreateWindow(class, title, style hi, x, y, cx, cy, parent, id, param):
; lpParam is DS:param
%macro CREATE 10
        PSTR %1
        PSTR %2
        push word %3
        push word 0
        push word %4
        push word %5
        push word %6
        push word %7
        push word %8
        push word %9
        push word [hinst]
        push ds
        push word %10
        U 41
%endmacro
%macro FILL 3
        push word %1
        PSTR %2
        push word %3
        U 81                            ; FillRect(hdc, rect, brush)
%endmacro

WM_PAINT        equ 0x000F
WM_QUERYENDSESSION equ 0x0011
WM_ENDSESSION   equ 0x0016
WM_CREATE       equ 0x0001
WM_MDICREATE    equ 0x0220
WM_MDIDESTROY   equ 0x0221
WM_MDINEXT      equ 0x0224
WM_MDITILE      equ 0x0226
WM_MDIGETACTIVE equ 0x0229
WS_OVERLAPPEDWINDOW equ 0x00CF
WS_CHILD_HI     equ 0x4000
WS_VISIBLE_HI   equ 0x1000
WS_CLIPCHILDREN_HI equ 0x0200
WS_POPUP_HI     equ 0x8000
WS_BORDER_HI    equ 0x0080
CS_OWNDC        equ 0x0020
MM_LOMETRIC     equ 2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; main(hInstance, nCmdShow), near pascal: [bp+6] hInstance.
main:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        MOV_AX_SELECTOR 1
        mov [procseg], ax

        ; ---- the classes: the main one (COLOR_WINDOW), a child's
        ; (COLOR_BTNSHADOW), a CS_OWNDC one, the MDI frame and documents
        mov word [wc], 0
        mov word [wc+2], WndProc
        mov word [wc+0x10], 6           ; COLOR_WINDOW + 1
        mov word [wc+0x16], s_class
        call register
        mov word [wc+0x10], 17          ; COLOR_BTNSHADOW + 1
        mov word [wc+0x16], s_kid
        call register
        mov word [wc], CS_OWNDC
        mov word [wc+2], OwnProc
        mov word [wc+0x10], 6
        mov word [wc+0x16], s_own
        call register
        mov word [wc], 0
        mov word [wc+2], FrameProc
        mov word [wc+0x10], 13          ; COLOR_APPWORKSPACE + 1
        mov word [wc+0x16], s_frame
        call register
        mov word [wc+2], DocProc
        mov word [wc+0x10], 6
        mov word [wc+0x16], s_doc
        call register

        ; ---- an overlapped window at (100, 60), 300 x 200, shown
        CREATE s_class, s_title, WS_OVERLAPPEDWINDOW, 100, 60, 300, 200, 0, 0, 0
        mov [hmain], ax
        push word [hmain]
        push word 1
        U 42                            ; ShowWindow(SW_SHOWNORMAL)
        push word [hmain]
        U 124                           ; UpdateWindow
        push word 0
        U 66                            ; GetDC(NULL): the screen
        mov [hscr], ax

        ; ---- the frame: outer line, sizing band, inner line, caption,
        ; the line under it, the system-menu box, the client area, the
        ; desktop
        PIX hscr, 100, 60, 0
        PIX hscr, 102, 62, 2
        PIX hscr, 104, 64, 4
        PIX hscr, 250, 70, 6
        PIX hscr, 250, 83, 8
        PIX hscr, 106, 66, 10
        PIX hscr, 250, 150, 12
        PIX hscr, 50, 50, 14
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13), R(14), R(15)
        PRINTF f_frame, 32

        ; ---- another window activated: the caption turns inactive
        CREATE s_class, s_title, WS_POPUP_HI | WS_VISIBLE_HI | WS_BORDER_HI, 500, 350, 100, 100, 0, 0, 0
        mov [hpop], ax
        PIX hscr, 250, 70, 0
        PIX hscr, 500, 350, 2
        PIX hscr, 550, 400, 4
        push word [hpop]
        U 53                            ; DestroyWindow(popup)
        PIX hscr, 550, 400, 6
        PIX hscr, 250, 70, 8
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9)
        PRINTF f_inactive, 20

        ; ---- DCs
        push word [hmain]
        U 66
        mov [hdc1], ax
        push word [hmain]
        U 66
        mov [hdc2], ax
        cmp ax, [hdc1]
        mov ax, 0
        je .same
        inc ax
.same:
        SAVE 0
        push word [hdc1]
        U 117                           ; WindowFromDC
        SAVEEQ 1, [hmain]
        push word [hscr]
        U 117
        SAVE 2
        ; drawing through the client DC lands at the client origin
        push word 0x0000
        push word 0x00FF
        G 66                            ; CreateSolidBrush(red)
        mov [hred], ax
        FILL [hdc1], r_small, [hred]
        PIX hscr, 105, 84, 3
        PIX hdc1, 0, 0, 5
        push word [hmain]
        push word [hdc1]
        U 68                            ; ReleaseDC -> 1
        SAVE 7
        push word [hmain]
        push word [hdc1]
        U 68                            ; again -> 0
        SAVE 8
        push word [hmain]
        push word [hdc2]
        U 68
        ; the window DC's origin is the window's corner
        push word [hmain]
        U 67                            ; GetWindowDC
        mov [hdc1], ax
        PIX hdc1, 0, 0, 9
        PIX hdc1, 150, 10, 11
        push word [hmain]
        push word [hdc1]
        U 68
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12)
        PRINTF f_dcs, 26

        ; ---- a CS_OWNDC window: its DC keeps MM_LOMETRIC from WM_CREATE
        CREATE s_own, s_title, WS_CHILD_HI | WS_VISIBLE_HI, 200, 10, 50, 40, [hmain], 7, 0
        mov [hown], ax
        push word [hown]
        U 66
        mov [hdc1], ax
        push word [hown]
        U 66
        SAVEEQ 0, [hdc1]
        push word [hdc1]
        G 81                            ; GetMapMode
        SAVE 1
        push word [hown]
        push word [hdc1]
        U 68
        SAVE 2
        push word [hown]
        push word 0
        push word 0
        push word 1
        U 125                           ; InvalidateRect(own, NULL, TRUE)
        push word [hown]
        U 124                           ; UpdateWindow: OwnProc's WM_PAINT
        mov ax, [painthdc]
        SAVEEQ 3, [hdc1]
        mov ax, [paintmode]
        SAVE 4
        push word [hown]
        U 53
        PUSHR R(0), R(1), R(2), R(3), R(4)
        PRINTF f_owndc, 10

        ; ---- a child, and the parent's DC with and without
        ; WS_CLIPCHILDREN
        CREATE s_kid, s_title, WS_CHILD_HI | WS_VISIBLE_HI, 50, 50, 50, 50, [hmain], 5, 0
        mov [hkid], ax
        push word [hkid]
        U 124
        PIX hscr, 165, 144, 0           ; the child's face (client 60, 60)
        push word [hmain]
        U 66
        mov [hdc1], ax
        FILL [hdc1], r_all, [hred]
        PIX hscr, 165, 144, 2           ; painted over (no WS_CLIPCHILDREN)
        push word [hmain]
        push word [hdc1]
        U 68
        push word [hmain]
        push word -16                   ; GWL_STYLE
        push word WS_OVERLAPPEDWINDOW | WS_VISIBLE_HI | WS_CLIPCHILDREN_HI
        push word 0
        U 136                           ; SetWindowLong
        push word [hmain]
        U 66
        mov [hdc1], ax
        push word 4                     ; BLACK_BRUSH
        G 87
        FILL [hdc1], r_all, ax
        PIX hscr, 165, 144, 4           ; kept: red
        PIX hscr, 125, 104, 6           ; the parent: black
        push word [hmain]
        push word [hdc1]
        U 68
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7)
        PRINTF f_clipkids, 16

        ; WS_CLIPCHILDREN off again; repaint everything: the client white
        ; again, the child grey
        push word [hmain]
        push word -16
        push word WS_OVERLAPPEDWINDOW | WS_VISIBLE_HI
        push word 0
        U 136
        push word [hmain]
        push word 0
        push word 0
        push word 1
        U 125
        push word [hmain]
        U 124

        ; ---- update regions as GDI regions
        push word [hmain]
        push word 0
        push word 0
        U 127                           ; ValidateRect(main, NULL)
        push word 0
        push word 0
        push word 0
        push word 0
        G 64                            ; CreateRectRgn(0, 0, 0, 0)
        mov [hrgn], ax
        push word [hmain]
        PSTR r_a
        push word 0
        U 125                           ; InvalidateRect (10, 10, 50, 40)
        push word [hmain]
        push word [hrgn]
        push word 0
        U 237                           ; GetUpdateRgn -> SIMPLEREGION
        SAVE 0
        push word [hrgn]
        PSTR rc
        G 134                           ; GetRgnBox
        push word [hmain]
        push word 0
        push word 0
        U 127
        push word 0
        push word 0
        push word 40
        push word 20
        G 54                            ; CreateEllipticRgn(0, 0, 40, 20)
        mov [hrgn2], ax
        push word [hmain]
        push word [hrgn2]
        push word 1
        U 126                           ; InvalidateRgn
        push word [hmain]
        PSTR rc2
        push word 0
        U 190                           ; GetUpdateRect -> TRUE
        SAVE 1
        push word [hmain]
        push word [hrgn]
        push word 0
        U 237                           ; GetUpdateRgn -> COMPLEXREGION
        SAVE 2
        push word [hmain]
        push word [hrgn2]
        U 128                           ; ValidateRgn
        push word [hmain]
        PSTR rc3
        push word 0
        U 190                           ; GetUpdateRect -> FALSE
        SAVE 3
        PUSHR R(0), [rc], [rc+2], [rc+4], [rc+6], R(1), [rc2], [rc2+2], [rc2+4], [rc2+6], R(2), R(3)
        PRINTF f_regions, 24

        ; ---- ExcludeUpdateRgn: drawing outside WM_PAINT spares the
        ; update region
        push word [hmain]
        PSTR r_a
        push word 0
        U 125
        push word [hmain]
        U 66
        mov [hdc1], ax
        push word [hdc1]
        push word [hmain]
        U 238                           ; ExcludeUpdateRgn -> COMPLEXREGION
        SAVE 0
        push word 4
        G 87
        FILL [hdc1], r_all, ax
        PIX hdc1, 20, 20, 1             ; clipped away: CLR_INVALID
        PIX hscr, 125, 104, 3           ; the same pixel: still white
        PIX hdc1, 5, 5, 5               ; outside: black
        push word [hmain]
        push word [hdc1]
        U 68
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6)
        PRINTF f_exclude, 14
        push word [hmain]
        push word 0
        push word 0
        push word 1
        U 125
        push word [hmain]
        U 124

        ; ---- ScrollWindow: the pixels and the child move down 30
        push word [hmain]
        U 66
        mov [hdc1], ax
        FILL [hdc1], r_red, [hred]
        push word [hmain]
        push word [hdc1]
        U 68
        push word [hmain]
        push word 0
        push word 0
        U 127
        push word [hmain]
        push word 0
        push word 30
        push word 0
        push word 0
        push word 0
        push word 0
        U 61                            ; ScrollWindow(main, 0, 30, NULL, NULL)
        push word [hmain]
        PSTR rc
        push word 0
        U 190                           ; the uncovered strip
        PIX hscr, 120, 129, 0           ; client (15, 45): red
        PIX hscr, 165, 174, 2           ; the child's face, moved (client 60, 90)
        push word [hkid]
        PSTR rc2
        U 32                            ; GetWindowRect(child)
        PUSHR [rc], [rc+2], [rc+4], [rc+6], R(0), R(1), R(2), R(3), [rc2], [rc2+2]
        PRINTF f_scroll, 20
        push word [hmain]
        U 124

        ; ---- DrawIcon: the predefined application icon
        push word 0
        push word 0
        push word 32512
        U 174                           ; LoadIcon(NULL, IDI_APPLICATION)
        mov [hicon], ax
        push word [hmain]
        U 66
        mov [hdc1], ax
        push word [hdc1]
        push word 200
        push word 100
        push word [hicon]
        U 84                            ; DrawIcon
        SAVE 0
        PIX hdc1, 200, 100, 1           ; transparent corner: white
        PIX hdc1, 202, 102, 3           ; the picture's edge: black
        PIX hdc1, 210, 105, 5           ; its caption
        PIX hdc1, 215, 120, 7           ; its window: white
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8)
        PRINTF f_icon, 18

        ; ---- DrawFocusRect: every other pixel of the outline inverted
        push word [hdc1]
        PSTR r_focus
        U 466
        PIX hdc1, 11, 10, 0
        PIX hdc1, 10, 10, 2
        push word [hdc1]
        PSTR r_focus
        U 466
        PIX hdc1, 11, 10, 4
        push word [hmain]
        push word [hdc1]
        U 68
        PUSHR R(0), R(1), R(2), R(3), R(4), R(5)
        PRINTF f_focusrect, 12

        ; ---- FlashWindow: the state before each call
        push word [hmain]
        push word 1
        U 105
        SAVE 0
        push word [hmain]
        push word 1
        U 105
        SAVE 1
        push word [hmain]
        push word 0
        U 105
        SAVE 2
        PIX hscr, 250, 70, 3
        PUSHR R(0), R(1), R(2), R(3), R(4)
        PRINTF f_flash, 10

        ; ---- system services
        U 14                            ; GetTimerResolution
        SAVE 0
        mov R(1), dx
        U 231                           ; GetSystemDebugState
        SAVE 2
        push word 0
        U 284                           ; GetFreeSystemResources(GFSR_SYSTEMRESOURCES)
        cmp ax, 1
        mov bx, 0
        jb .res
        cmp ax, 100
        ja .res
        inc bx
.res:
        mov R(3), bx
        push word [hmain]
        PSTR s_help
        push word 3                     ; HELP_INDEX
        push word 0
        push word 0
        U 171                           ; WinHelp
        SAVE 4
        PUSHR R(0), R(1), R(2), R(3), R(4)
        PRINTF f_system, 10

        ; ---- MDI: a frame, its MDICLIENT, two documents
        CREATE s_frame, s_title, WS_OVERLAPPEDWINDOW | WS_VISIBLE_HI, 0, 0, 400, 300, 0, 0, 0
        mov [hframe], ax
        CREATE s_mdiclient, s_empty, WS_CHILD_HI | WS_VISIBLE_HI | WS_CLIPCHILDREN_HI, 0, 0, 200, 100, [hframe], 1, ccs_data
        mov [hclient], ax
        call mdi_create
        mov [hdoc1], ax
        call mdi_create
        mov [hdoc2], ax
        push word [hclient]
        push word WM_MDIGETACTIVE
        push word 0
        push word 0
        push word 0
        U 111
        SAVEEQ 0, [hdoc2]
        push word [hdoc1]
        U 277                           ; GetDlgCtrlID
        SAVE 1
        push word [hdoc2]
        U 277
        SAVE 2
        push word [hdoc1]
        U 46                            ; GetParent
        SAVEEQ 3, [hclient]
        push word [hclient]
        push word WM_MDINEXT
        push word 0
        push word 0
        push word 0
        U 111
        push word [hclient]
        push word WM_MDIGETACTIVE
        push word 0
        push word 0
        push word 0
        U 111
        SAVEEQ 4, [hdoc1]
        push word [hclient]
        PSTR rc
        U 33                            ; GetClientRect(client)
        PUSHR R(0), R(1), R(2), R(3), R(4), [rc+4], [rc+6]
        PRINTF f_mdi, 14

        push word [hclient]
        push word WM_MDITILE
        push word 0
        push word 0
        push word 0
        U 111
        push word [hdoc1]
        PSTR rc
        U 32
        push word [hdoc2]
        PSTR rc2
        U 32
        push word [hclient]
        PSTR pt
        U 28                            ; ClientToScreen(client, (0, 0))
        mov ax, [pt]
        sub [rc], ax
        sub [rc+4], ax
        sub [rc2], ax
        sub [rc2+4], ax
        mov ax, [pt+2]
        sub [rc+2], ax
        sub [rc+6], ax
        sub [rc2+2], ax
        sub [rc2+6], ax
        PUSHR [rc], [rc+2], [rc+4], [rc+6], [rc2], [rc2+2], [rc2+4], [rc2+6]
        PRINTF f_mditile, 16

        push word [hclient]
        push word WM_MDIDESTROY
        push word [hdoc1]
        push word 0
        push word 0
        U 111
        push word [hdoc1]
        U 47                            ; IsWindow
        SAVE 0
        push word [hclient]
        push word WM_MDIGETACTIVE
        push word 0
        push word 0
        push word 0
        U 111
        SAVEEQ 1, [hdoc2]
        PUSHR R(0), R(1)
        PRINTF f_mdidestroy, 4
        push word [hframe]
        U 53

        ; ---- ExitWindows: refused by the main window, then agreed
        mov word [logn], 0
        mov byte [logon], 1
        mov word [qes], 0
        push word 0
        push word 0
        push word 0
        U 7                             ; ExitWindows(0, 0)
        SAVE 0
        mov ax, [logn]
        SAVE 1
        mov ax, [log]
        SAVE 2
        PUSHR R(0), R(1), R(2)
        PRINTF f_exitrefused, 6
        mov word [qes], 1
        mov word [logn], 0
        push word 0
        push word 0
        push word 0
        U 7                             ; does not return
        PRINTF f_returned, 0

        mov ax, 1
        NEAR_EPILOGUE 4

; register: RegisterClass(wc) with this instance and code segment.
register:
        mov ax, [procseg]
        mov [wc+4], ax
        mov ax, [hinst]
        mov [wc+0x0A], ax
        mov [wc+0x18], ds
        PSTR wc
        U 57
        ret

; mdi_create: WM_MDICREATE for a document at CW_USEDEFAULT.
mdi_create:
        mov word [mcs], s_doc
        mov [mcs+2], ds
        mov word [mcs+4], s_title
        mov [mcs+6], ds
        mov ax, [hinst]
        mov [mcs+8], ax
        mov word [mcs+10], 0x8000
        mov word [mcs+12], 0x8000
        mov word [mcs+14], 0x8000
        mov word [mcs+16], 0x8000
        mov word [mcs+18], 0
        mov word [mcs+20], 0
        mov word [mcs+22], 0
        push word [hclient]
        push word WM_MDICREATE
        push word 0
        PSTR mcs
        U 111
        ret

; WndProc(hwnd, msg, wParam, lParam): [bp+0x0E] hwnd, [bp+0x0C] msg,
; [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        cmp byte [logon], 0
        je .nolog
        mov bx, [logn]
        cmp bx, 30
        jae .nolog
        mov ax, [bp+0x0C]
        shl bx, 1
        mov [log + bx], ax
        inc word [logn]
.nolog:
        mov ax, [bp+0x0C]
        cmp ax, WM_QUERYENDSESSION
        je .qes
        cmp ax, WM_ENDSESSION
        je .es
        jmp .default
.qes:
        mov ax, [qes]
        xor dx, dx
        jmp .out
.es:
        push word [bp+0x0A]
        PRINTF f_endsession, 2
        xor ax, ax
        xor dx, dx
        jmp .out
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 107
.out:
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

; OwnProc: sets MM_LOMETRIC on its own DC at WM_CREATE; WM_PAINT keeps
; BeginPaint's DC and its mapping mode.
OwnProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        je .create
        cmp ax, WM_PAINT
        je .paint
        jmp .default
.create:
        push word [bp+0x0E]
        U 66
        mov si, ax
        push si
        push word MM_LOMETRIC
        G 3                             ; SetMapMode
        push word [bp+0x0E]
        push si
        U 68
        xor ax, ax
        xor dx, dx
        jmp .out
.paint:
        push word [bp+0x0E]
        PSTR ps
        U 39
        mov [painthdc], ax
        push ax
        G 81
        mov [paintmode], ax
        push word [bp+0x0E]
        PSTR ps
        U 40
        xor ax, ax
        xor dx, dx
        jmp .out
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 107
.out:
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

; FrameProc: DefFrameProc(hwnd, hclient, msg, wParam, lParam).
FrameProc:
        WIN_FAR_PROLOGUE
        push word [bp+0x0E]
        push word [hclient]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 445
        WIN_FAR_EPILOGUE 10

; DocProc: DefMDIChildProc.
DocProc:
        WIN_FAR_PROLOGUE
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        U 447
        WIN_FAR_EPILOGUE 10

        PRINT_BUF_SUB

        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
hinst:  dw 0
procseg: dw 0
hmain:  dw 0
hpop:   dw 0
hscr:   dw 0
hdc1:   dw 0
hdc2:   dw 0
hred:   dw 0
hown:   dw 0
hkid:   dw 0
hrgn:   dw 0
hrgn2:  dw 0
hicon:  dw 0
hframe: dw 0
hclient: dw 0
hdoc1:  dw 0
hdoc2:  dw 0
painthdc: dw 0
paintmode: dw 0
qes:    dw 0
logon:  db 0
        db 0
logn:   dw 0
log:    times 32 dw 0
r:      times 32 dw 0
wc:     times 26 db 0
rc:     times 4 dw 0
rc2:    times 4 dw 0
rc3:    times 4 dw 0
pt:     dw 0, 0
ps:     times 32 db 0
; CLIENTCREATESTRUCT: no Window menu, the first child's id 100 (the
; MDICLIENT's lpParam).
ccs_data: dw 0, 100
mcs:    times 24 db 0
r_small: dw 0, 0, 10, 10
r_all:  dw 0, 0, 290, 171
r_a:    dw 10, 10, 50, 40
r_red:  dw 10, 10, 20, 20
r_focus: dw 10, 10, 20, 20
s_class: db 'WmpClass', 0
s_kid:  db 'WmpKid', 0
s_own:  db 'WmpOwn', 0
s_frame: db 'WmpFrame', 0
s_doc:  db 'WmpDoc', 0
s_mdiclient: db 'MDICLIENT', 0
s_title: db 'wmpaint', 0
s_empty: db 0
s_help: db 'WMPAINT.HLP', 0
f_frame: db 'frame %06lX %06lX %06lX %06lX %06lX %06lX %06lX %06lX', 0
f_inactive: db 'inactive %06lX %06lX %06lX %06lX %06lX', 0
f_dcs:  db 'dcs %d %d %d %06lX %06lX %d %d %06lX %06lX', 0
f_owndc: db 'owndc %d %d %d %d %d', 0
f_clipkids: db 'clipkids %06lX %06lX %06lX %06lX', 0
f_regions: db 'regions %d %d %d %d %d %d %d %d %d %d %d %d', 0
f_exclude: db 'exclude %d %06lX %06lX %06lX', 0
f_scroll: db 'scroll %d %d %d %d %06lX %06lX %d %d', 0
f_icon: db 'icon %d %06lX %06lX %06lX %06lX', 0
f_focusrect: db 'focusrect %06lX %06lX %06lX', 0
f_flash: db 'flash %d %d %d %06lX', 0
f_system: db 'system %ld %d %d %d', 0
f_mdi:  db 'mdi %d %d %d %d %d %d %d', 0
f_mditile: db 'mditile %d %d %d %d %d %d %d %d', 0
f_mdidestroy: db 'mdidestroy %d %d', 0
f_exitrefused: db 'exitrefused %d %d %04X', 0
f_endsession: db 'endsession %d', 0
f_returned: db 'ExitWindows returned', 0
crlf:   db 13, 10
buf:    times 200 db 0
        NE_SEGMENT_END
