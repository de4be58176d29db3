; dlgnav.asm -- a modeless dialog box as the main window, driven by the
; keyboard and the mouse through IsDialogMessage, and a modal About box.
; CreateDialog builds dialog 300; the message loop gives every message to
; IsDialogMessage first. The dialog procedure prints every WM_COMMAND it
; gets as `id code` (decimal id, notification code in hex: the Windows 3.1
; lParam's high word), and:
;   IDOK     prints `OK name=<edit 101's text> sel=<list 103's selection>
;            check=<check box 110's state>` and destroys the dialog;
;   IDCANCEL prints `CANCEL` and destroys it;
;   130      opens the About box (dialog 400) with DialogBox and prints
;            `ABOUT n` with its result (its procedure ends it with the id
;            of the button that was pressed).
; WM_DESTROY posts WM_QUIT 0. The list box holds red, green, blue (sorted:
; blue, green, red).
; output: dlgnav.exe
; no-walk-expectation: a script-driven dialog scenario, checked by tests/win16_dialogs.rs
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/win16app.inc"
%include "inc/dialog.inc"

DATA_SIZE   equ 0x0200
WM_DESTROY  equ 0x0002

        NE_MODULE   'DLGNAV', 'toolhelp16: dialog navigation'
        NE_HEAP     0x1000
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'NAVDLGPROC', 1, NavDlgProc
        NE_EXPORT   'ABOUTDLGPROC', 1, AboutDlgProc
        NE_RESOURCE RT_DIALOG, 300, dlg_nav
        NE_RESOURCE RT_DIALOG, 400, dlg_about
        NE_HEADER   2

; print0 fmt: OutputDebugString of wsprintf(buf, fmt, ...) with the
; arguments already pushed (n bytes of them).
%macro PRINTF 2
        push ds
        push %1
        push ds
        push buf
        FAR_CALL_IMPORT USER, 420
        add sp, 8 + %2
        push ds
        push buf
        FAR_CALL_IMPORT KERNEL, 115
%endmacro

; SDM id, msg, wParam, lParam32: SendDlgItemMessage(hdlg, ...)
%macro SDM 4
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        push word (%4) >> 16
        push word (%4) & 0xFFFF
        FAR_CALL_IMPORT USER, 101
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal.
WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        push ax                         ; CreateDialog(hInstance,
        push 0                          ;   MAKEINTRESOURCE(300),
        push 300
        push 0                          ;   no owner,
        MOV_AX_SELECTOR 1
        push ax                         ;   NavDlgProc)
        push NavDlgProc
        FAR_CALL_IMPORT USER, 89
        or ax, ax
        jz .fail
        mov [hdlg], ax
.loop:
        push ds
        push msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage
        or ax, ax
        jz .done
        push word [hdlg]
        push ds
        push msg
        FAR_CALL_IMPORT USER, 90        ; IsDialogMessage
        or ax, ax
        jnz .loop
        push ds
        push msg
        FAR_CALL_IMPORT USER, 113       ; TranslateMessage
        push ds
        push msg
        FAR_CALL_IMPORT USER, 114       ; DispatchMessage
        jmp .loop
.done:
        mov ax, [msg+4]
        NEAR_EPILOGUE 4
.fail:
        mov ax, 1
        NEAR_EPILOGUE 4

; NavDlgProc(hDlg, msg, wParam, lParam), far pascal, exported.
NavDlgProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_INITDIALOG
        je .init
        cmp ax, WM_COMMAND
        je .command
        cmp ax, WM_DESTROY
        je .destroy
        xor ax, ax
        jmp .out
.init:
        mov ax, [bp+0x0E]
        mov [hdlg], ax
        mov si, colours
.fill:  cmp byte [si], 0
        je .filled
        push word [hdlg]                ; SendDlgItemMessage(103,
        push 103                        ;   LB_ADDSTRING, 0, colour)
        push LB_ADDSTRING
        push 0
        push ds
        push si
        FAR_CALL_IMPORT USER, 101
.skip:  lodsb
        or al, al
        jnz .skip
        jmp .fill
.filled:
        mov ax, 1                       ; TRUE: focus the first tab stop
        jmp .out
.command:
        push word [bp+8]                ; print `id code`
        push word [bp+0x0A]
        PRINTF fmt_command, 4
        mov ax, [bp+0x0A]
        cmp ax, IDOK
        je .ok
        cmp ax, IDCANCEL
        je .cancel
        cmp ax, 130
        je .about
        xor ax, ax
        jmp .out
.ok:
        push word [hdlg]
        push 101
        push ds
        push name
        push 32
        FAR_CALL_IMPORT USER, 93        ; GetDlgItemText(101)
        push word [hdlg]
        push 110
        FAR_CALL_IMPORT USER, 98        ; IsDlgButtonChecked(110)
        push ax
        SDM 103, LB_GETCURSEL, 0, 0
        push ax
        push ds
        push name
        PRINTF fmt_ok, 8
        jmp .close
.cancel:
        PRINTF fmt_cancel, 0
.close:
        push word [hdlg]
        FAR_CALL_IMPORT USER, 53        ; DestroyWindow
        mov ax, 1
        jmp .out
.about:
        push word [hinst]               ; DialogBox(hInstance, 400, hDlg,
        push 0                          ;   AboutDlgProc)
        push 400
        push word [hdlg]
        MOV_AX_SELECTOR 1
        push ax
        push AboutDlgProc
        FAR_CALL_IMPORT USER, 87
        push ax
        PRINTF fmt_about, 2
        mov ax, 1
        jmp .out
.destroy:
        push 0
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage(0)
        xor ax, ax
.out:
        xor dx, dx
        WIN_FAR_EPILOGUE 10

; AboutDlgProc(hDlg, msg, wParam, lParam): ends with the button's id.
AboutDlgProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_INITDIALOG
        je .true
        cmp ax, WM_COMMAND
        jne .false
        mov ax, [bp+0x0A]
        cmp ax, IDOK
        je .end
        cmp ax, IDCANCEL
        jne .false
.end:
        push word [bp+0x0E]
        push ax
        FAR_CALL_IMPORT USER, 88        ; EndDialog(hDlg, id)
.true:
        mov ax, 1
        jmp .out
.false:
        xor ax, ax
.out:
        xor dx, dx
        WIN_FAR_EPILOGUE 10
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, DATA_SIZE
instance_data:
        times 16 db 0
hinst:  dw 0
hdlg:   dw 0
msg:    times 18 db 0
name:   times 32 db 0
buf:    times 96 db 0
colours: db 'red', 0, 'green', 0, 'blue', 0, 0
fmt_command: db '%d %04X', 0
fmt_ok: db 'OK name=%s sel=%d check=%d', 0
fmt_cancel: db 'CANCEL', 0
fmt_about: db 'ABOUT %d', 0
        PAD_TO DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_nav
        DIALOG WS_POPUP | WS_CAPTION | WS_SYSMENU | WS_VISIBLE | DS_MODALFRAME, 9, 20, 20, 180, 120
        DLG_NAMES '', '', 'Navigate'
        CONTROL 6, 8, 30, 8, 90, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, '&Name:'
        CONTROL 40, 6, 90, 12, 101, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | ES_AUTOHSCROLL, CLS_EDIT, ''
        CONTROL 6, 24, 60, 40, 103, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | WS_VSCROLL | LBS_SORT | LBS_NOTIFY, CLS_LISTBOX, ''
        CONTROL 72, 24, 60, 10, 110, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_AUTOCHECKBOX, CLS_BUTTON, '&Check'
        CONTROL 72, 38, 60, 10, 120, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_GROUP | BS_AUTORADIOBUTTON, CLS_BUTTON, '&Left'
        CONTROL 72, 50, 60, 10, 121, WS_CHILD | WS_VISIBLE | BS_AUTORADIOBUTTON, CLS_BUTTON, '&Right'
        CONTROL 136, 6, 40, 14, IDOK, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_GROUP | BS_DEFPUSHBUTTON, CLS_BUTTON, 'OK'
        CONTROL 136, 24, 40, 14, IDCANCEL, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_PUSHBUTTON, CLS_BUTTON, 'Cancel'
        CONTROL 136, 42, 40, 14, 130, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_PUSHBUTTON, CLS_BUTTON, '&About'
NE_RESDATA_END dlg_nav
NE_RESDATA dlg_about
        DIALOG WS_POPUP | WS_CAPTION | DS_MODALFRAME, 2, 30, 30, 120, 50
        DLG_NAMES '', '', 'About'
        CONTROL 6, 6, 100, 8, -1, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, 'dlgnav'
        CONTROL 40, 28, 40, 14, IDOK, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_DEFPUSHBUTTON, CLS_BUTTON, 'OK'
NE_RESDATA_END dlg_about
        NE_RESOURCES_END
