; ctlprobe.asm -- a probe of controls as the textbook samples use them,
; run with no script: POPFIND's search through EM_GETHANDLE and LocalLock
; of a multiline edit control's text, ABOUT3's control of a class the
; program registered inside a dialog template (with CreateDialogParam's
; lParam at WM_INITDIALOG), OWNERDRW's owner-drawn buttons (WM_DRAWITEM),
; HEAD's LB_DIR and DlgDirList on a window that is no dialog. Every
; answer is checked against the SDK (inc/checks.inc); the program prints
; `checks N fails M`, waits until the session closes its window, and
; exits with the number of failures.
; output: ctlprobe.exe
; no-walk-expectation: a probe of USER's controls as the textbook samples use them, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - EM_GETHANDLE: the local handle of a multiline edit control's text, in
;   the data segment of the instance that made it; LocalLock gives the
;   NUL-terminated text.
; - A dialog template may name any registered class; GetClassName of the
;   item answers it; the item's procedure gets WM_CREATE.
; - CreateDialogParam passes dwInitParam as WM_INITDIALOG's lParam.
; - A BS_OWNERDRAW button sends its parent WM_DRAWITEM (0x002B) with a
;   DRAWITEMSTRUCT: CtlType ODT_BUTTON (4), CtlID, itemAction
;   ODA_DRAWENTIRE (1), hwndItem.
; - LB_DIR with DDL_DRIVES lists the drives as [-x-]; LB_FINDSTRING finds
;   one; DlgDirList works on any parent's child list box by id.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

CP_DATA_SIZE equ 0x0800
WM_CREATE   equ 0x0001
WM_DESTROY  equ 0x0002
WM_DRAWITEM equ 0x002B
WM_INITDIALOG equ 0x0110
EM_GETHANDLE equ 0x040D
LB_DIR      equ 0x040E
LB_FINDSTRING equ 0x0410
LB_GETCOUNT equ 0x040C

        NE_MODULE   'CTLPROBE', 'toolhelp16: controls as the samples use them'
        NE_HEAP     0x0800
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'ELLIPPROC', 2, EllipProc
        NE_EXPORT   'ABOUTPROC', 3, AboutProc
        NE_RESOURCE RT_DIALOG, 'ABOUT', dlg_about
        NE_HEADER   2

%macro CHILD 4                          ; AX = CreateWindow(class %1, style %2, id %3, y %4)
        CSTR %1
        PL 0
        PL %2
        push 4
        push %4
        push 120
        push 40
        push word [hwnd]
        push %3
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41
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
        mov [about_proc+2], ax
        mov word [wc+2], WndProc
        mov word [wc+0x10], 6
        mov word [wc+0x16], class_name
        mov [wc+0x18], ds
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass(main)
        CHECK_NZ 'RegisterClass of the main window'
        mov word [wc+2], EllipProc
        mov word [wc+0x16], ellip_name
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass("EllipPush")
        CHECK_NZ 'RegisterClass of the custom control'
        PSTR class_name
        PSTR class_name
        PL 0x00CF0000
        push word 0x8000
        push 0
        push word 0x8000
        push 0
        push 0
        push 0
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41
        mov [hwnd], ax
        CHECK_NZ 'CreateWindow'
        push word [hwnd]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        call checks_edit
        call checks_about
        call checks_ownerdraw
        call checks_dir
        CHECKS_REPORT
.loop:  PSTR msg
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
.done:  mov ax, [fails]
        NEAR_EPILOGUE 4

checks_edit:
        CHILD 'edit', 0x50B00004, 10, 4 ; WS_CHILD|WS_VISIBLE|WS_BORDER|WS_VSCROLL|ES_MULTILINE
        mov [hedit], ax
        CHECK_NZ 'a multiline edit control'
        push word [hedit]
        PSTR s_doc
        FAR_CALL_IMPORT USER, 37        ; SetWindowText
        push word [hedit]
        push EM_GETHANDLE
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 111
        mov [hlocal], ax
        CHECK_NZ 'EM_GETHANDLE'
        push word [hlocal]
        FAR_CALL_IMPORT KERNEL, 8       ; LocalLock (in our DS)
        mov [ptext], ax
        CHECK_NZ 'LocalLock of the text'
        mov ax, [ptext]
        PSTR buf
        push ds
        push ax
        FAR_CALL_IMPORT KERNEL, 88      ; lstrcpy(buf, the text)
        CHECK_STR buf, 'The quick brown fox', 'the text in our local heap'
        push word [hlocal]
        FAR_CALL_IMPORT KERNEL, 9       ; LocalUnlock
        ret

checks_about:
        LOG_CLEAR
        push word [hinst]
        CSTR 'About'
        push word [hwnd]
        push word [about_proc+2]
        push word [about_proc]
        PL 0x12345678
        FAR_CALL_IMPORT USER, 241       ; CreateDialogParam
        mov [hdlg], ax
        CHECK_NZ 'CreateDialogParam'
        CHECK_LOG 'the custom control got WM_CREATE, then WM_INITDIALOG', WM_CREATE, WM_INITDIALOG
        mov ax, [init_lo]
        CHECK 0x5678, 'WM_INITDIALOG lParam low word'
        mov ax, [init_hi]
        CHECK 0x1234, 'WM_INITDIALOG lParam high word'
        push word [hdlg]
        push 200
        FAR_CALL_IMPORT USER, 91        ; GetDlgItem
        push ax
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 58        ; GetClassName
        CHECK_STR buf, 'EllipPush', 'the item is of the custom class'
        push word [hdlg]
        FAR_CALL_IMPORT USER, 53        ; DestroyWindow
        CHECK 1, 'DestroyWindow of the dialog'
        ret

checks_ownerdraw:
        CHILD 'button', 0x5000000B, 20, 50  ; WS_CHILD|WS_VISIBLE|BS_OWNERDRAW
        mov [hbtn], ax
        CHECK_NZ 'an owner-drawn button'
        push word [hbtn]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow: it paints
        mov ax, [dis]
        CHECK 4, 'DRAWITEMSTRUCT CtlType ODT_BUTTON'
        mov ax, [dis+2]
        CHECK 20, 'DRAWITEMSTRUCT CtlID'
        mov ax, [dis+6]
        CHECK 1, 'DRAWITEMSTRUCT itemAction ODA_DRAWENTIRE'
        mov ax, [dis+10]
        IS_EQ [hbtn]
        CHECK 1, 'DRAWITEMSTRUCT hwndItem'
        mov ax, [dis+12]
        CHECK_NZ 'DRAWITEMSTRUCT hDC'
        mov ax, [dis+18]
        CHECK 120, 'DRAWITEMSTRUCT rcItem.right'
        ret

checks_dir:
        CHILD 'listbox', 0x50A00003, 30, 100 ; WS_CHILD|WS_VISIBLE|WS_BORDER|WS_VSCROLL|LBS_NOTIFY|LBS_SORT
        mov [hlist], ax
        CHILD 'static', 0x50000000, 31, 150
        push word [hlist]
        push LB_DIR
        push 0xC000                     ; DDL_EXCLUSIVE | DDL_DRIVES
        CSTR '*.*'
        FAR_CALL_IMPORT USER, 111
        cmp ax, 0x8000
        mov ax, 0
        jae .err
        inc ax
.err:   CHECK 1, 'LB_DIR of the drives'
        push word [hlist]
        push LB_FINDSTRING
        push -1
        CSTR '[-c-]'
        FAR_CALL_IMPORT USER, 111
        cmp ax, 0x8000
        mov ax, 0
        jae .no
        inc ax
.no:    CHECK 1, 'drive C: is listed as [-c-]'
        push word [hwnd]
        PSTR s_spec
        push 30
        push 31
        push 0x4010                     ; DDL_DRIVES | DDL_DIRECTORY
        FAR_CALL_IMPORT USER, 100       ; DlgDirList on a plain window
        CHECK_NZ 'DlgDirList on a window that is no dialog'
        push word [hlist]
        push LB_GETCOUNT
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 111
        CHECK_NZ 'the list box has entries'
        ret

; WndProc(hwnd, msg, wParam, lParam)
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        mov ax, [bp+0x0C]
        cmp ax, WM_DRAWITEM
        je .draw
        cmp ax, WM_DESTROY
        jne .default
        push 0
        FAR_CALL_IMPORT USER, 6
        jmp .zero
.draw:  push ds                         ; keep the DRAWITEMSTRUCT
        pop es
        mov di, dis
        push ds
        lds si, [bp+6]
        mov cx, 13
        rep movsw
        pop ds
        mov ax, 1
        xor dx, dx
        jmp .out
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107
        jmp .out
.zero:  xor ax, ax
        xor dx, dx
.out:   pop di
        pop si
        WIN_FAR_EPILOGUE 10

; EllipProc(hwnd, msg, wParam, lParam): ABOUT3's push button class
EllipProc:
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
        FAR_CALL_IMPORT USER, 107
        WIN_FAR_EPILOGUE 10

; AboutProc(hDlg, msg, wParam, lParam)
AboutProc:
        WIN_FAR_PROLOGUE
        xor ax, ax
        cmp word [bp+0x0C], WM_INITDIALOG
        jne .out
        LOG_WORD WM_INITDIALOG
        mov ax, [bp+6]
        mov [init_lo], ax
        mov ax, [bp+8]
        mov [init_hi], ax
        mov ax, 1
.out:   WIN_FAR_EPILOGUE 10

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, CP_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hwnd:       dw 0
hedit:      dw 0
hlocal:     dw 0
ptext:      dw 0
hdlg:       dw 0
hbtn:       dw 0
hlist:      dw 0
init_lo:    dw 0
init_hi:    dw 0
about_proc: dw AboutProc, 0
dis:        times 26 db 0
wc:         times 0x1A db 0
msg:        times 18 db 0
class_name: db 'CtlProbe', 0
ellip_name: db 'EllipPush', 0
s_doc:      db 'The quick brown fox', 0
s_spec:     db '*.*', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
buf:        times 80 db 0
        CHECKS_DATA
        PAD_TO CP_DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_about
        DIALOG WS_POPUP | WS_CAPTION | WS_VISIBLE | DS_MODALFRAME, 2, 20, 20, 160, 80
        DLG_NAMES '', '', 'About'
        CONTROL 6, 6, 140, 8, -1, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, 'About3'
        CONTROL 60, 56, 40, 16, 200, WS_CHILD | WS_VISIBLE | WS_TABSTOP, 'EllipPush', 'OK'
NE_RESDATA_END dlg_about
        NE_RESOURCES_END
