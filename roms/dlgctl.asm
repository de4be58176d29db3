; dlgctl.asm -- dialog boxes and the predefined controls, checked against
; what the Windows 3.1 SDK documents. DialogBoxParam builds dialog 100 from
; its DLGTEMPLATE resource; its procedure, at WM_INITDIALOG, drives every
; control class through its messages and the dialog item functions, and
; checks each answer (inc/checks.inc: a mismatch prints `FAIL name: got
; want`), the notifications the procedure receives (WM_COMMAND with the
; Windows 3.1 lParam: MAKELONG(hwndCtl, code); WM_HSCROLL) in their order,
; then ends the dialog with 7, which DialogBoxParam must return. The
; program prints `checks N fails 0` and exits with 0.
; output: dlgctl.exe
; no-walk-expectation: a USER dialog and controls test, checked by tests/win16_dialogs.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values: WM_INITDIALOG (wParam is the
; first WS_TABSTOP control, lParam DialogBoxParam's), DM_GETDEFID
; (MAKELONG(id, DC_HASDEFID)), GetDlgItem, GetDlgCtrlID, Get/SetDlgItemText
; (cbMax counts the NUL), Get/SetDlgItemInt (leading blanks skipped, a minus
; sign only when signed, translation stops at the first non-digit, out of
; range or no digits: 0 and *lpTranslated FALSE), MapDialogRect and
; GetDialogBaseUnits (x units are base/4, y units base/8), EM_SETSEL and
; EM_GETSEL (start in the low word, end in the high word; 0 to -1 selects
; all), EM_REPLACESEL, EM_GETMODIFY (set when the user changes the text),
; EM_CANUNDO, EM_UNDO, EM_EMPTYUNDOBUFFER, EM_LIMITTEXT (limits what the
; user types, not WM_SETTEXT; EN_MAXTEXT when refused), EN_UPDATE before
; EN_CHANGE, EM_GETLINECOUNT, EM_LINEINDEX (-1 past the last line),
; EM_LINELENGTH, EM_LINEFROMCHAR, EM_GETLINE (first word of the buffer
; is its size; no NUL), EM_GETHANDLE / EM_SETHANDLE (a local handle in
; DS with DS_LOCALEDIT; EM_SETHANDLE clears undo and modified),
; EM_SETPASSWORDCHAR / EM_GETPASSWORDCHAR, BM_SETCHECK / BM_GETCHECK
; (2 = indeterminate for 3-state boxes), BM_GETSTATE (0x0004 while
; pushed), CheckDlgButton, CheckRadioButton, IsDlgButtonChecked, automatic
; check boxes and radio buttons (a click toggles or checks, unchecks the
; group's other automatic radio buttons, then BN_CLICKED),
; GetNextDlgGroupItem, GetNextDlgTabItem, the LB_ messages (LBS_SORT
; order, LB_ERR for a bad index, LB_INSERTSTRING does not sort,
; LB_DELETESTRING answers the count left, LB_FINDSTRING matches a prefix
; from after wParam going round, LB_SETCURSEL(-1) answers LB_ERR, the
; multiple-selection messages), the CB_ messages (CBN_DROPDOWN when
; dropped, CBN_CLOSEUP when closed), and a scroll bar control's
; WM_HSCROLL (wParam the code, HIWORD(lParam) its window) for an arrow
; key, then SB_ENDSCROLL.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"

DATA_SIZE   equ 0x0600
LMEM_MOVEABLE equ 0x0002
VK_RIGHT    equ 0x27

        NE_MODULE   'DLGCTL', 'toolhelp16: dialog boxes and controls'
        NE_HEAP     0x2000
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'CTLDLGPROC', 1, CtlDlgProc
        NE_RESOURCE RT_DIALOG, 100, dlg_ctl
        NE_HEADER   2

; SDM id, msg, wParam, lParam: SendDlgItemMessage(hdlg, ...) -> DX:AX
%macro SDM 4
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        push word (%4) >> 16
        push word (%4) & 0xFFFF
        FAR_CALL_IMPORT USER, 101
%endmacro

; SDMP id, msg, wParam, label: lParam = DS:label
%macro SDMP 4
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        push ds
        push %4
        FAR_CALL_IMPORT USER, 101
%endmacro

; SDMS id, msg, wParam, 'text': lParam = a string
%macro SDMS 4
        jmp %%go
%%s:    db %4, 0
%%go:   push word [hdlg]
        push word %1
        push word %2
        push word %3
        push cs
        push %%s
        FAR_CALL_IMPORT USER, 101
%endmacro

; SETTEXT id, 'text': SetDlgItemText
%macro SETTEXT 2
        jmp %%go
%%s:    db %2, 0
%%go:   push word [hdlg]
        push word %1
        push cs
        push %%s
        FAR_CALL_IMPORT USER, 92
%endmacro

; GETTEXT id, cbMax: GetDlgItemText(hdlg, id, buf, cbMax) -> AX
%macro GETTEXT 2
        push word [hdlg]
        push word %1
        push ds
        push buf
        push word %2
        FAR_CALL_IMPORT USER, 93
%endmacro

; ITEM id: GetDlgItem -> AX
%macro ITEM 1
        push word [hdlg]
        push word %1
        FAR_CALL_IMPORT USER, 91
%endmacro

; CLICK id: the mouse pressed and released at (1, 1) of the control
%macro CLICK 1
        SDM %1, WM_LBUTTONDOWN, 1, 0x00010001
        SDM %1, WM_LBUTTONUP, 0, 0x00010001
%endmacro

; GETINT id, signed: GetDlgItemInt(hdlg, id, &ok, signed) -> AX
%macro GETINT 2
        push word [hdlg]
        push word %1
        push ds
        push ok
        push word %2
        FAR_CALL_IMPORT USER, 95
%endmacro

; SETINT id, value, signed
%macro SETINT 3
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        FAR_CALL_IMPORT USER, 94
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal.
WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        push ax                         ; DialogBoxParam(hInstance,
        push 0                          ;   MAKEINTRESOURCE(100),
        push 100
        push 0                          ;   no owner,
        MOV_AX_SELECTOR 1
        push ax                         ;   CtlDlgProc,
        push CtlDlgProc
        push 0x1234                     ;   0x1234ABCD)
        push 0xABCD
        FAR_CALL_IMPORT USER, 239
        CHECK 7, 'DialogBoxParam returns EndDialog value'
        CHECKS_REPORT
        mov ax, [fails]
        NEAR_EPILOGUE 4

; CtlDlgProc(hDlg, msg, wParam, lParam), far pascal, exported:
; [bp+0x0E] hDlg, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+8]:[bp+6] lParam.
CtlDlgProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_INITDIALOG
        je .init
        cmp ax, WM_COMMAND
        je .command
        cmp ax, WM_HSCROLL
        je .hscroll
        xor ax, ax
        jmp .out
.command:                               ; log the id and the notification
        LOG_WORD [bp+0x0A]
        LOG_WORD [bp+8]
        xor ax, ax
        jmp .out
.hscroll:                               ; log WM_HSCROLL and its code
        LOG_WORD WM_HSCROLL
        LOG_WORD [bp+0x0A]
        mov ax, [bp+8]
        mov [hscroll_from], ax
        xor ax, ax
        jmp .out
.init:
        mov ax, [bp+0x0E]
        mov [hdlg], ax
        mov ax, [bp+6]
        CHECK 0xABCD, 'WM_INITDIALOG lParam low word'
        mov ax, [bp+8]
        CHECK 0x1234, 'WM_INITDIALOG lParam high word'
        ITEM IDOK
        mov [h_ok], ax
        mov ax, [bp+0x0A]
        CHECK [h_ok], 'WM_INITDIALOG wParam is the first WS_TABSTOP control'
        call basics
        call edits
        call multiline
        call buttons
        call lists
        call combos
        call scrollbar
        call wrap
        push word [hdlg]
        push 7
        FAR_CALL_IMPORT USER, 88        ; EndDialog(hDlg, 7)
        mov ax, 1
.out:
        xor dx, dx
        WIN_FAR_EPILOGUE 10

; Item lookup, the default button, dialog units, static text.
basics:
        push word [h_ok]
        FAR_CALL_IMPORT USER, 277       ; GetDlgCtrlID
        CHECK IDOK, 'GetDlgCtrlID of the OK button'
        ITEM 999
        CHECK 0, 'GetDlgItem of an id no control has'
        push word [hdlg]
        push DM_GETDEFID
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 111       ; SendMessage
        CHECK32 (DC_HASDEFID << 16) | IDOK, 'DM_GETDEFID: the BS_DEFPUSHBUTTON'
        push word [hdlg]
        push ds
        push rc
        FAR_CALL_IMPORT USER, 103       ; MapDialogRect(hdlg, {0, 0, 4, 8})
        FAR_CALL_IMPORT USER, 243       ; GetDialogBaseUnits
        mov [base_x], ax
        mov [base_y], dx
        push dx                         ; print them: tests/win16_dialogs.rs
        push ax                         ; checks them against the font
        push ds
        push fmt_base
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        mov ax, [rc+4]
        CHECK [base_x], 'MapDialogRect: 4 x units are the base width'
        mov ax, [rc+6]
        CHECK [base_y], 'MapDialogRect: 8 y units are the base height'
        SETTEXT 90, 'Hello'
        GETTEXT 90, 32
        CHECK 5, 'GetDlgItemText of a static control'
        CHECK_STR buf, 'Hello', 'static text'
        GETTEXT 90, 3
        CHECK 2, 'GetDlgItemText cbMax counts the NUL'
        CHECK_STR buf, 'He', 'truncated text'
        ret

; The single-line edit control 101 and Get/SetDlgItemInt.
edits:
        LOG_CLEAR
        SETTEXT 101, 'abc'
        CHECK_LOG 'SetDlgItemText on an edit: EN_UPDATE then EN_CHANGE', 101, 0x0400, 101, 0x0300
        SDM 101, WM_GETTEXTLENGTH, 0, 0
        CHECK 3, 'WM_GETTEXTLENGTH'
        SDM 101, EM_SETSEL, 0, 0x00030001
        SDM 101, EM_GETSEL, 0, 0
        CHECK32 0x00030001, 'EM_GETSEL after EM_SETSEL(1, 3)'
        SDM 101, EM_SETSEL, 0, 0xFFFF0000
        SDM 101, EM_GETSEL, 0, 0
        CHECK32 0x00030000, 'EM_SETSEL(0, -1) selects everything'
        SDM 101, EM_SETSEL, 0, 0x00010003
        SDM 101, EM_GETSEL, 0, 0
        CHECK32 0x00030001, 'EM_GETSEL answers the smaller end first'
        SDMS 101, EM_REPLACESEL, 0, 'XYZ'
        GETTEXT 101, 32
        CHECK_STR buf, 'aXYZ', 'EM_REPLACESEL replaces the selection'
        SDM 101, EM_GETSEL, 0, 0
        CHECK32 0x00040004, 'the caret follows the replacement'
        SDM 101, EM_SETMODIFY, 0, 0
        SDM 101, EM_GETMODIFY, 0, 0
        CHECK 0, 'EM_SETMODIFY(FALSE)'
        SDM 101, EM_EMPTYUNDOBUFFER, 0, 0
        SDM 101, EM_CANUNDO, 0, 0
        CHECK 0, 'EM_EMPTYUNDOBUFFER leaves nothing to undo'
        LOG_CLEAR
        SDM 101, WM_CHAR, 'Q', 0x00100001
        CHECK_LOG 'typing: EN_UPDATE then EN_CHANGE', 101, 0x0400, 101, 0x0300
        GETTEXT 101, 32
        CHECK_STR buf, 'aXYZQ', 'WM_CHAR types at the caret'
        SDM 101, EM_GETMODIFY, 0, 0
        CHECK 1, 'typing sets the modified flag'
        SDM 101, EM_CANUNDO, 0, 0
        CHECK 1, 'typing can be undone'
        SDM 101, EM_UNDO, 0, 0
        CHECK 1, 'EM_UNDO succeeds'
        GETTEXT 101, 32
        CHECK_STR buf, 'aXYZ', 'EM_UNDO takes the typing back'
        SDM 101, EM_SETSEL, 0, 0x00040004
        SDM 101, EM_LIMITTEXT, 5, 0
        LOG_CLEAR
        SDM 101, WM_CHAR, 'Q', 0x00100001
        SDM 101, WM_CHAR, 'R', 0x00130001
        CHECK_LOG 'past EM_LIMITTEXT: EN_MAXTEXT', 101, 0x0400, 101, 0x0300, 101, 0x0501
        GETTEXT 101, 32
        CHECK_STR buf, 'aXYZQ', 'EM_LIMITTEXT(5) keeps 5 characters'
        SETTEXT 101, '1234567'
        SDM 101, WM_GETTEXTLENGTH, 0, 0
        CHECK 7, 'WM_SETTEXT is not limited by EM_LIMITTEXT'
        SDM 101, EM_SETPASSWORDCHAR, '#', 0
        SDM 101, EM_GETPASSWORDCHAR, 0, 0
        CHECK '#', 'EM_GETPASSWORDCHAR'
        SDM 101, EM_SETPASSWORDCHAR, 0, 0
        SETINT 101, 0xFFFB, 1
        GETTEXT 101, 32
        CHECK_STR buf, '-5', 'SetDlgItemInt signed'
        GETINT 101, 1
        CHECK 0xFFFB, 'GetDlgItemInt signed'
        mov ax, [ok]
        CHECK 1, 'GetDlgItemInt signed translated'
        GETINT 101, 0
        CHECK 0, 'GetDlgItemInt unsigned of -5'
        mov ax, [ok]
        CHECK 0, 'GetDlgItemInt unsigned of -5 not translated'
        SETINT 101, 65535, 0
        GETTEXT 101, 32
        CHECK_STR buf, '65535', 'SetDlgItemInt unsigned'
        GETINT 101, 1
        CHECK 0, 'GetDlgItemInt signed of 65535'
        mov ax, [ok]
        CHECK 0, 'GetDlgItemInt signed of 65535 out of range'
        GETINT 101, 0
        CHECK 65535, 'GetDlgItemInt unsigned of 65535'
        mov ax, [ok]
        CHECK 1, 'GetDlgItemInt unsigned of 65535 translated'
        SETTEXT 101, '  12ab'
        GETINT 101, 0
        CHECK 12, 'GetDlgItemInt skips blanks and stops at a non-digit'
        mov ax, [ok]
        CHECK 1, 'GetDlgItemInt of 12ab translated'
        ret

; The multiline edit control 102; its text in DS's local heap
; (DS_LOCALEDIT).
multiline:
        SETTEXT 102, {'one', 13, 10, 'two', 13, 10, 'three'}
        SDM 102, EM_GETLINECOUNT, 0, 0
        CHECK 3, 'EM_GETLINECOUNT'
        SDM 102, EM_LINEINDEX, 1, 0
        CHECK 5, 'EM_LINEINDEX(1)'
        SDM 102, EM_LINEINDEX, 2, 0
        CHECK 10, 'EM_LINEINDEX(2)'
        SDM 102, EM_LINEINDEX, 3, 0
        CHECK 0xFFFF, 'EM_LINEINDEX past the last line'
        SDM 102, EM_LINELENGTH, 6, 0
        CHECK 3, 'EM_LINELENGTH of a character of line 1'
        SDM 102, EM_LINELENGTH, 12, 0
        CHECK 5, 'EM_LINELENGTH of line 2'
        SDM 102, EM_LINEFROMCHAR, 11, 0
        CHECK 2, 'EM_LINEFROMCHAR(11)'
        SDM 102, EM_LINEFROMCHAR, 0, 0
        CHECK 0, 'EM_LINEFROMCHAR(0)'
        mov word [buf], 10
        SDMP 102, EM_GETLINE, 2, buf
        CHECK 5, 'EM_GETLINE(2) copies the line'
        mov byte [buf+5], 0
        CHECK_STR buf, 'three', 'EM_GETLINE text'
        mov word [buf], 2
        mov byte [buf+2], 0
        SDMP 102, EM_GETLINE, 0, buf
        CHECK 2, 'EM_GETLINE copies at most the first word'
        CHECK_STR buf, 'on', 'EM_GETLINE without a NUL'
        SDM 102, EM_GETHANDLE, 0, 0
        mov [h_text], ax
        push ax
        FAR_CALL_IMPORT KERNEL, 8       ; LocalLock
        mov si, ax
        jmp .cmp
.want:  db 'one', 13, 10, 'two', 13, 10, 'three', 0
.cmp:   mov [text_at], si
        push word [h_text]
        FAR_CALL_IMPORT KERNEL, 9       ; LocalUnlock
        push ds
        push word [text_at]
        push cs
        push .want
        FAR_CALL_IMPORT USER, 430       ; lstrcmp
        CHECK 0, 'EM_GETHANDLE: the text is the local block in DS'
        push LMEM_MOVEABLE
        push 16
        FAR_CALL_IMPORT KERNEL, 5       ; LocalAlloc
        mov [h_new], ax
        push ax
        FAR_CALL_IMPORT KERNEL, 8       ; LocalLock
        push ds
        push ax
        push ds
        push new_text
        FAR_CALL_IMPORT KERNEL, 88      ; lstrcpy
        push word [h_new]
        FAR_CALL_IMPORT KERNEL, 9       ; LocalUnlock
        SDM 102, EM_SETMODIFY, 1, 0
        SDM 102, EM_SETHANDLE, [h_new], 0
        GETTEXT 102, 32
        CHECK_STR buf, 'new', 'EM_SETHANDLE: the new block is the text'
        SDM 102, EM_GETHANDLE, 0, 0
        CHECK [h_new], 'EM_GETHANDLE after EM_SETHANDLE'
        SDM 102, EM_GETMODIFY, 0, 0
        CHECK 0, 'EM_SETHANDLE clears the modified flag'
        SDM 102, EM_CANUNDO, 0, 0
        CHECK 0, 'EM_SETHANDLE empties the undo buffer'
        push word [h_text]
        FAR_CALL_IMPORT KERNEL, 7       ; LocalFree(the old block)
        CHECK 0, "the old text block is the program's to free"
        ret

; Buttons.
buttons:
        push word [hdlg]
        push 110
        push 1
        FAR_CALL_IMPORT USER, 97        ; CheckDlgButton(110, 1)
        push word [hdlg]
        push 110
        FAR_CALL_IMPORT USER, 98        ; IsDlgButtonChecked
        CHECK 1, 'CheckDlgButton checks'
        SDM 110, BM_SETCHECK, 0, 0
        SDM 110, BM_GETCHECK, 0, 0
        CHECK 0, 'BM_SETCHECK(0) unchecks'
        SDM 111, BM_SETCHECK, 2, 0
        SDM 111, BM_GETCHECK, 0, 0
        CHECK 2, 'a 3-state box is indeterminate'
        SDM IDOK, BM_GETCHECK, 0, 0
        CHECK 0, 'BM_GETCHECK of a push button'
        LOG_CLEAR
        CLICK 112
        push word [hdlg]
        push 112
        FAR_CALL_IMPORT USER, 98
        CHECK 1, 'a click checks an automatic check box'
        CHECK_LOG 'the click notifies BN_CLICKED', 112, BN_CLICKED
        push word [hdlg]
        push 120
        push 122
        push 121
        FAR_CALL_IMPORT USER, 96        ; CheckRadioButton(120, 122, 121)
        push word [hdlg]
        push 121
        FAR_CALL_IMPORT USER, 98
        CHECK 1, 'CheckRadioButton checks its button'
        push word [hdlg]
        push 120
        FAR_CALL_IMPORT USER, 98
        CHECK 0, 'CheckRadioButton unchecks the others'
        CLICK 122
        push word [hdlg]
        push 122
        FAR_CALL_IMPORT USER, 98
        CHECK 1, 'a click checks an automatic radio button'
        push word [hdlg]
        push 121
        FAR_CALL_IMPORT USER, 98
        CHECK 0, 'and unchecks the other one of its group'
        CHECK_LOG 'the radio click notifies BN_CLICKED', 122, BN_CLICKED
        SDM IDOK, BM_SETSTATE, 1, 0
        SDM IDOK, BM_GETSTATE, 0, 0
        and ax, 4
        CHECK 4, 'BM_GETSTATE of a pushed button'
        SDM IDOK, BM_SETSTATE, 0, 0
        SDM IDOK, BM_GETSTATE, 0, 0
        and ax, 4
        CHECK 0, 'BM_SETSTATE(FALSE) releases it'
        ITEM 120
        mov [h120], ax
        ITEM 121
        mov [h121], ax
        ITEM 122
        mov [h122], ax
        push word [hdlg]
        push word [h120]
        push 0
        FAR_CALL_IMPORT USER, 227       ; GetNextDlgGroupItem
        CHECK [h121], 'GetNextDlgGroupItem next'
        push word [hdlg]
        push word [h122]
        push 0
        FAR_CALL_IMPORT USER, 227
        CHECK [h120], 'GetNextDlgGroupItem goes round the group'
        push word [hdlg]
        push word [h120]
        push 1
        FAR_CALL_IMPORT USER, 227
        CHECK [h122], 'GetNextDlgGroupItem previous goes round'
        ITEM 102
        mov [h102], ax
        ITEM 101
        push word [hdlg]
        push ax
        push 0
        FAR_CALL_IMPORT USER, 228       ; GetNextDlgTabItem
        CHECK [h102], 'GetNextDlgTabItem next'
        ITEM 106
        mov [h106], ax
        push word [hdlg]
        push word [h_ok]
        push 1
        FAR_CALL_IMPORT USER, 228
        CHECK [h106], 'GetNextDlgTabItem previous goes round to the last'
        ret

; The list boxes 103 (LBS_SORT | LBS_NOTIFY) and 104 (LBS_MULTIPLESEL).
lists:
        LOG_CLEAR
        SDMS 103, LB_ADDSTRING, 0, 'pear'
        CHECK 0, 'LB_ADDSTRING pear'
        SDMS 103, LB_ADDSTRING, 0, 'Apple'
        CHECK 0, 'LB_ADDSTRING Apple sorts first'
        SDMS 103, LB_ADDSTRING, 0, 'banana'
        CHECK 1, 'LB_ADDSTRING banana sorts without regard to case'
        SDM 103, LB_GETCOUNT, 0, 0
        CHECK 3, 'LB_GETCOUNT'
        SDMP 103, LB_GETTEXT, 0, buf
        CHECK 5, 'LB_GETTEXT answers the length'
        CHECK_STR buf, 'Apple', 'LB_GETTEXT(0)'
        SDMP 103, LB_GETTEXT, 2, buf
        CHECK_STR buf, 'pear', 'LB_GETTEXT(2)'
        SDM 103, LB_GETTEXTLEN, 1, 0
        CHECK 6, 'LB_GETTEXTLEN'
        SDM 103, LB_GETTEXTLEN, 7, 0
        CHECK LB_ERR, 'LB_GETTEXTLEN of a bad index'
        SDMS 103, LB_FINDSTRING, 0xFFFF, 'BAN'
        CHECK 1, 'LB_FINDSTRING matches a prefix without regard to case'
        SDMS 103, LB_FINDSTRINGEXACT, 0xFFFF, 'ban'
        CHECK LB_ERR, 'LB_FINDSTRINGEXACT wants the whole text'
        SDMS 103, LB_FINDSTRINGEXACT, 0xFFFF, 'PEAR'
        CHECK 2, 'LB_FINDSTRINGEXACT'
        SDMS 103, LB_FINDSTRING, 1, 'a'
        CHECK 0, 'LB_FINDSTRING from after wParam goes round'
        SDM 103, LB_GETCURSEL, 0, 0
        CHECK LB_ERR, 'no selection at first'
        SDM 103, LB_SETCURSEL, 2, 0
        CHECK 2, 'LB_SETCURSEL'
        SDM 103, LB_GETCURSEL, 0, 0
        CHECK 2, 'LB_GETCURSEL'
        SDM 103, LB_SETCURSEL, 0xFFFF, 0
        CHECK LB_ERR, 'LB_SETCURSEL(-1) answers LB_ERR'
        SDM 103, LB_GETCURSEL, 0, 0
        CHECK LB_ERR, 'LB_SETCURSEL(-1) clears the selection'
        SDMS 103, LB_SELECTSTRING, 0xFFFF, 'b'
        CHECK 1, 'LB_SELECTSTRING'
        SDM 103, LB_GETSEL, 1, 0
        CHECK 1, 'LB_GETSEL of the selected item'
        SDM 103, LB_GETSEL, 0, 0
        CHECK 0, 'LB_GETSEL of another'
        SDMS 103, LB_INSERTSTRING, 1, 'zzz'
        CHECK 1, 'LB_INSERTSTRING does not sort'
        SDMP 103, LB_GETTEXT, 1, buf
        CHECK_STR buf, 'zzz', 'the inserted item'
        SDMS 103, LB_INSERTSTRING, 9, 'x'
        CHECK LB_ERR, 'LB_INSERTSTRING past the end'
        SDMS 103, LB_INSERTSTRING, 0xFFFF, 'last'
        CHECK 4, 'LB_INSERTSTRING(-1) appends'
        SDM 103, LB_DELETESTRING, 1, 0
        CHECK 4, 'LB_DELETESTRING answers the count left'
        SDM 103, LB_DELETESTRING, 10, 0
        CHECK LB_ERR, 'LB_DELETESTRING of a bad index'
        SDM 103, LB_SETITEMDATA, 0, 0x12345678
        SDM 103, LB_GETITEMDATA, 0, 0
        CHECK32 0x12345678, 'LB_GETITEMDATA'
        SDM 103, LB_GETSELCOUNT, 0, 0
        CHECK LB_ERR, 'LB_GETSELCOUNT of a single-selection box'
        SDM 103, LB_GETITEMHEIGHT, 0, 0
        CHECK 16, 'an item is as high as the VGA System font'
        mov ax, [log_n]
        CHECK 0, 'list box messages do not notify'
        SDM 103, LB_RESETCONTENT, 0, 0
        SDM 103, LB_GETCOUNT, 0, 0
        CHECK 0, 'LB_RESETCONTENT'
        SDMS 104, LB_ADDSTRING, 0, 'a'
        SDMS 104, LB_ADDSTRING, 0, 'b'
        SDMS 104, LB_ADDSTRING, 0, 'c'
        SDMS 104, LB_ADDSTRING, 0, 'd'
        SDM 104, LB_SETSEL, 1, 1
        CHECK 0, 'LB_SETSEL'
        SDM 104, LB_SETSEL, 1, 3
        SDM 104, LB_GETSELCOUNT, 0, 0
        CHECK 2, 'LB_GETSELCOUNT'
        SDMP 104, LB_GETSELITEMS, 10, sel_items
        CHECK 2, 'LB_GETSELITEMS'
        mov ax, [sel_items]
        CHECK 1, 'LB_GETSELITEMS first'
        mov ax, [sel_items+2]
        CHECK 3, 'LB_GETSELITEMS second'
        SDM 104, LB_SELITEMRANGE, 1, 0x00020000
        SDM 104, LB_GETSELCOUNT, 0, 0
        CHECK 4, 'LB_SELITEMRANGE(0, 2)'
        SDM 104, LB_SETSEL, 0, 0x0000FFFF
        SDM 104, LB_GETSELCOUNT, 0, 0
        CHECK 0, 'LB_SETSEL(FALSE, -1) deselects all'
        SDM 104, LB_SETCURSEL, 0, 0
        CHECK LB_ERR, 'LB_SETCURSEL in a multiple-selection box'
        ret

; The combo boxes 105 (CBS_DROPDOWNLIST | CBS_SORT) and 108 (CBS_DROPDOWN).
combos:
        SDMS 105, CB_ADDSTRING, 0, 'red'
        SDMS 105, CB_ADDSTRING, 0, 'blue'
        SDMS 105, CB_ADDSTRING, 0, 'green'
        CHECK 1, 'CB_ADDSTRING sorts'
        SDM 105, CB_GETCOUNT, 0, 0
        CHECK 3, 'CB_GETCOUNT'
        SDM 105, CB_SETCURSEL, 1, 0
        CHECK 1, 'CB_SETCURSEL'
        GETTEXT 105, 32
        CHECK_STR buf, 'green', 'a drop-down list shows its selection'
        SDMP 105, CB_GETLBTEXT, 2, buf
        CHECK 3, 'CB_GETLBTEXT answers the length'
        CHECK_STR buf, 'red', 'CB_GETLBTEXT'
        SDMS 105, CB_FINDSTRING, 0xFFFF, 'b'
        CHECK 0, 'CB_FINDSTRING'
        LOG_CLEAR
        SDM 105, CB_SHOWDROPDOWN, 1, 0
        SDM 105, CB_GETDROPPEDSTATE, 0, 0
        CHECK 1, 'CB_GETDROPPEDSTATE when dropped'
        SDM 105, CB_SHOWDROPDOWN, 0, 0
        SDM 105, CB_GETDROPPEDSTATE, 0, 0
        CHECK 0, 'CB_GETDROPPEDSTATE when closed'
        CHECK_LOG 'CBN_DROPDOWN then CBN_CLOSEUP', 105, CBN_DROPDOWN, 105, CBN_CLOSEUP
        SDM 105, WM_KEYDOWN, 0x28, 0x01500001
        SDM 105, CB_GETCURSEL, 0, 0
        CHECK 2, 'the down arrow selects the next item'
        CHECK_LOG 'the user changed the selection: CBN_SELCHANGE', 105, CBN_SELCHANGE
        SDMS 108, CB_ADDSTRING, 0, 'one'
        SDM 108, CB_SETCURSEL, 0, 0
        GETTEXT 108, 32
        CHECK_STR buf, 'one', 'a drop-down combo box edits its selection'
        ret

; The scroll bar control 106.
scrollbar:
        LOG_CLEAR
        SDM 106, WM_KEYDOWN, VK_RIGHT, 0x014D0001
        CHECK_LOG 'an arrow key: SB_LINEDOWN then SB_ENDSCROLL', WM_HSCROLL, 1, WM_HSCROLL, 8
        mov ax, [hscroll_from]
        CHECK [h106], 'WM_HSCROLL names the scroll bar in HIWORD(lParam)'
        ret

; The word-wrapping edit control 107 (ES_MULTILINE without ES_AUTOHSCROLL):
; prints its formatting rectangle's width, its lines, and its length with
; EM_FMTLINES' soft breaks, for tests/win16_dialogs.rs to check against the
; System font's widths.
wrap:
        SETTEXT 107, 'one two three fourteen abcdefghijklmnopq'
        SDMP 107, EM_GETRECT, 0, rc2
        mov ax, [rc2+4]
        sub ax, [rc2]
        push ax
        push ds
        push fmt_width
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 10
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        SDM 107, EM_GETLINECOUNT, 0, 0
        mov [nlines], ax
        xor si, si
.line:  cmp si, [nlines]
        jae .fmt
        mov word [buf], 60
        SDMP 107, EM_GETLINE, si, buf
        mov bx, ax
        mov byte [buf+bx], 0
        push ds
        push buf
        push ds
        push fmt_line
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        inc si
        jmp .line
.fmt:   SDM 107, EM_FMTLINES, 1, 0
        SDM 107, WM_GETTEXTLENGTH, 0, 0
        push ax
        push ds
        push fmt_fmt
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 10
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        ret

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, DATA_SIZE
instance_data:
        times 16 db 0
hinst:  dw 0
hdlg:   dw 0
h_ok:   dw 0
h102:   dw 0
h106:   dw 0
h120:   dw 0
h121:   dw 0
h122:   dw 0
h_text: dw 0
h_new:  dw 0
text_at: dw 0
hscroll_from: dw 0
ok:     dw 0
base_x: dw 0
base_y: dw 0
rc:     dw 0, 0, 4, 8
sel_items: times 10 dw 0
new_text: db 'new', 0
fmt_base: db 'base units %d %d', 0
fmt_width: db 'wrap width %d', 0
fmt_line: db 'line %s', 0
fmt_fmt: db 'fmtlines length %d', 0
nlines: dw 0
rc2:    dw 0, 0, 0, 0
buf:    times 64 db 0
        CHECKS_DATA
        PAD_TO DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_ctl
        DIALOG WS_POPUP | WS_CAPTION | WS_SYSMENU | DS_MODALFRAME | DS_LOCALEDIT, 18, 10, 10, 200, 180
        DLG_NAMES '', '', 'Controls'
        CONTROL 150, 6, 40, 14, IDOK, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_GROUP | BS_DEFPUSHBUTTON, CLS_BUTTON, 'OK'
        CONTROL 150, 24, 40, 14, IDCANCEL, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_PUSHBUTTON, CLS_BUTTON, 'Cancel'
        CONTROL 6, 6, 30, 8, 90, WS_CHILD | WS_VISIBLE | WS_GROUP | SS_LEFT, CLS_STATIC, '&Name:'
        CONTROL 40, 6, 100, 12, 101, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | ES_AUTOHSCROLL, CLS_EDIT, ''
        CONTROL 6, 22, 134, 36, 102, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | WS_VSCROLL | ES_MULTILINE | ES_AUTOVSCROLL | ES_AUTOHSCROLL, CLS_EDIT, ''
        CONTROL 6, 62, 60, 10, 110, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_GROUP | BS_CHECKBOX, CLS_BUTTON, 'Check'
        CONTROL 6, 74, 60, 10, 111, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_AUTO3STATE, CLS_BUTTON, '3-state'
        CONTROL 6, 86, 60, 10, 112, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_AUTOCHECKBOX, CLS_BUTTON, 'Auto'
        CONTROL 70, 60, 70, 44, 119, WS_CHILD | WS_VISIBLE | WS_GROUP | BS_GROUPBOX, CLS_BUTTON, 'Choice'
        CONTROL 74, 70, 60, 10, 120, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_GROUP | BS_AUTORADIOBUTTON, CLS_BUTTON, 'One'
        CONTROL 74, 80, 60, 10, 121, WS_CHILD | WS_VISIBLE | BS_AUTORADIOBUTTON, CLS_BUTTON, 'Two'
        CONTROL 74, 90, 60, 10, 122, WS_CHILD | WS_VISIBLE | BS_AUTORADIOBUTTON, CLS_BUTTON, 'Three'
        CONTROL 6, 108, 60, 40, 103, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | WS_GROUP | WS_VSCROLL | LBS_SORT | LBS_NOTIFY, CLS_LISTBOX, ''
        CONTROL 70, 108, 60, 40, 104, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | LBS_MULTIPLESEL, CLS_LISTBOX, ''
        CONTROL 136, 44, 60, 50, 105, WS_CHILD | WS_VISIBLE | WS_TABSTOP | WS_VSCROLL | CBS_DROPDOWNLIST | CBS_SORT, CLS_COMBOBOX, ''
        CONTROL 136, 100, 60, 50, 108, WS_CHILD | WS_VISIBLE | WS_TABSTOP | CBS_DROPDOWN, CLS_COMBOBOX, ''
        CONTROL 6, 160, 120, 10, 106, WS_CHILD | WS_VISIBLE | WS_TABSTOP | SBS_HORZ, CLS_SCROLLBAR, ''
        CONTROL 136, 150, 40, 28, 107, WS_CHILD | WS_VISIBLE | ES_MULTILINE, CLS_EDIT, ''
NE_RESDATA_END dlg_ctl
        NE_RESOURCES_END
