; dlgdraw.asm -- owner-draw controls and a dialog font. Dialog 500 has
; DS_SETFONT (Helv 8), an owner-draw sorted list box without strings
; (201), an owner-draw button (202) and an owner-draw list box with
; variable heights and strings (203). The procedure logs WM_MEASUREITEM,
; WM_COMPAREITEM (answering by item data), WM_DELETEITEM and WM_DRAWITEM
; and checks them against the SDK (inc/checks.inc); it prints the dialog's
; base units (MapDialogRect of 4 x 8 units) and GetDialogBaseUnits for
; tests/win16_dialogs.rs to check against the fonts; then it ends the
; dialog with 5.
; output: dlgdraw.exe
; no-walk-expectation: a USER owner-draw and dialog font test, checked by tests/win16_dialogs.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK behind the expected values: WM_MEASUREITEM (an
; LBS_OWNERDRAWFIXED list box sends one when it is created, an
; LBS_OWNERDRAWVARIABLE one for each item added, itemID the item's
; index; itemHeight is what the owner leaves there), MEASUREITEMSTRUCT,
; WM_COMPAREITEM and COMPAREITEMSTRUCT (the owner orders items of a sorted
; owner-draw list box without LBS_HASSTRINGS; the item being added has
; itemID1 -1), WM_DELETEITEM and DELETEITEMSTRUCT (sent for owner-draw list
; boxes when an item goes), LB_GETTEXT of such an item (its item data),
; LB_FINDSTRING (compares the item data), WM_DRAWITEM and DRAWITEMSTRUCT
; (CtlType ODT_LISTBOX 2 / ODT_BUTTON 4, itemAction ODA_DRAWENTIRE 1 when
; painting, ODA_SELECT 2 and ODA_FOCUS 4 when a button is pushed or takes
; the focus, itemState ODS_SELECTED 1 and ODS_FOCUS 0x10), and an
; exported window procedure (USER.303 ButtonWndProc) called directly.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"

DATA_SIZE   equ 0x0400
ODT_LISTBOX equ 2
ODT_BUTTON  equ 4
LB_SETITEMHEIGHT_ equ 0x0421

        NE_MODULE   'DLGDRAW', 'toolhelp16: owner-draw controls and dialog fonts'
        NE_HEAP     0x1000
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'DRAWDLGPROC', 1, DrawDlgProc
        NE_RESOURCE RT_DIALOG, 500, dlg_draw
        NE_HEADER   2

%macro SDM 4
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        push word (%4) >> 16
        push word (%4) & 0xFFFF
        FAR_CALL_IMPORT USER, 101
%endmacro

%macro SDMP 4
        push word [hdlg]
        push word %1
        push word %2
        push word %3
        push ds
        push %4
        FAR_CALL_IMPORT USER, 101
%endmacro

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

%macro ITEM 1
        push word [hdlg]
        push word %1
        FAR_CALL_IMPORT USER, 91
%endmacro

; PRINT2 fmt, a, b: print wsprintf(fmt, a, b)
%macro PRINT2 3
        push word %3
        push word %2
        push ds
        push %1
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        push word [bp+6]                ; DialogBox(hInstance, 500, NULL,
        push 0                          ;   DrawDlgProc)
        push 500
        push 0
        MOV_AX_SELECTOR 1
        push ax
        push DrawDlgProc
        FAR_CALL_IMPORT USER, 87
        CHECK 5, 'DialogBox returns EndDialog value'
        CHECKS_REPORT
        mov ax, [fails]
        NEAR_EPILOGUE 4

; DrawDlgProc(hDlg, msg, wParam, lParam): [bp+0x0E] hDlg, [bp+0x0C] msg,
; [bp+0x0A] wParam, [bp+8]:[bp+6] lParam.
DrawDlgProc:
        WIN_FAR_PROLOGUE
        push si
        push es
        mov ax, [bp+0x0C]
        cmp ax, WM_MEASUREITEM
        je .measure
        cmp ax, WM_COMPAREITEM
        je .compare
        cmp ax, WM_DELETEITEM
        je .delete
        cmp ax, WM_DRAWITEM
        je .draw
        cmp ax, WM_COMMAND
        je .command
        cmp ax, WM_INITDIALOG
        je .init
        cmp ax, WM_TIMER
        je .timer
        jmp .false
.measure:                               ; MEASUREITEMSTRUCT: CtlType,
        les si, [bp+6]                  ; the structure lParam points at
        LOG_WORD WM_MEASUREITEM         ; CtlID, itemID, itemWidth,
        LOG_WORD [es:si]                ; itemHeight, itemData
        LOG_WORD [es:si+2]
        LOG_WORD [es:si+4]
        mov ax, [es:si+8]
        mov [preset], ax
        mov ax, [es:si+4]               ; height 20 for list 201, 12 + 3 x
        imul ax, ax, 3                  ; itemID for list 203
        add ax, 12
        cmp word [es:si+2], 201
        jne .mset
        mov ax, 20
.mset:  mov [es:si+8], ax
        jmp .true
.compare:                               ; COMPAREITEMSTRUCT: CtlType, CtlID,
        les si, [bp+6]                  ; the structure lParam points at
        mov ax, [es:si+6]               ; hwndItem, itemID1, itemData1,
        mov [cmp_id1], ax               ; itemID2, itemData2
        mov ax, [es:si+8]
        cmp ax, [es:si+14]
        mov ax, 0xFFFF
        jb .cmpd
        mov ax, 0
        je .cmpd
        mov ax, 1
.cmpd:  jmp .out
.delete:                                ; DELETEITEMSTRUCT: CtlType, CtlID,
        les si, [bp+6]                  ; the structure lParam points at
        LOG_WORD WM_DELETEITEM          ; itemID, hwndItem, itemData
        LOG_WORD [es:si]
        LOG_WORD [es:si+2]
        LOG_WORD [es:si+4]
        LOG_WORD [es:si+8]
        jmp .true
.draw:                                  ; DRAWITEMSTRUCT: CtlType 00, CtlID
        les si, [bp+6]                  ; the structure lParam points at
        cmp word [es:si+2], 202         ; 02, itemID 04, itemAction 06,
        jne .true                       ; itemState 08, hwndItem 0A ...
        LOG_WORD WM_DRAWITEM            ; (the button's only)
        LOG_WORD [es:si]
        LOG_WORD [es:si+6]
        LOG_WORD [es:si+8]
        jmp .true
.command:                               ; the button's only
        cmp word [bp+0x0A], 202
        jne .true
        LOG_WORD WM_COMMAND
        LOG_WORD [bp+0x0A]
        LOG_WORD [bp+8]
        jmp .true
.init:
        mov ax, [bp+0x0E]
        mov [hdlg], ax
        call init_checks
        push word [hdlg]
        push 1
        push 10
        push 0
        push 0
        FAR_CALL_IMPORT USER, 10        ; SetTimer(hDlg, 1, 10, NULL)
        mov ax, 1
        jmp .out
.timer:
        push word [hdlg]
        push 1
        FAR_CALL_IMPORT USER, 12        ; KillTimer
        call paint_checks
        push word [hdlg]
        push 5
        FAR_CALL_IMPORT USER, 88        ; EndDialog(hDlg, 5)
        jmp .true
.false:
        xor ax, ax
        jmp .out
.true:
        mov ax, 1
.out:
        pop es
        pop si
        xor dx, dx
        WIN_FAR_EPILOGUE 10

; At WM_INITDIALOG: the controls were made.
init_checks:
        CHECK_LOG 'list 201 measured once when created', WM_MEASUREITEM, ODT_LISTBOX, 201, 0
        mov ax, [preset]
        CHECK 16, 'itemHeight preset to the font height (the System font at creation)' 
        SDM 201, LB_GETITEMHEIGHT, 0, 0
        CHECK 20, 'the height WM_MEASUREITEM gave'
        SDM 201, LB_ADDSTRING, 0, 30
        CHECK 0, 'LB_ADDSTRING 30'
        mov word [cmp_id1], 0
        SDM 201, LB_ADDSTRING, 0, 10
        CHECK 0, 'LB_ADDSTRING 10 sorts first by WM_COMPAREITEM'
        mov ax, [cmp_id1]
        CHECK 0xFFFF, 'WM_COMPAREITEM itemID1 of the new item is -1'
        SDM 201, LB_ADDSTRING, 0, 20
        CHECK 1, 'LB_ADDSTRING 20 sorts between'
        SDM 201, LB_GETITEMDATA, 2, 0
        CHECK32 30, 'LB_GETITEMDATA(2)'
        SDMP 201, LB_GETTEXT, 1, buf
        mov ax, [buf]
        CHECK 20, 'LB_GETTEXT of an item without a string: its data'
        SDM 201, LB_FINDSTRING, 0xFFFF, 30
        CHECK 2, 'LB_FINDSTRING compares item data'
        LOG_CLEAR
        SDM 201, LB_DELETESTRING, 0, 0
        CHECK 2, 'LB_DELETESTRING'
        CHECK_LOG 'WM_DELETEITEM', WM_DELETEITEM, ODT_LISTBOX, 201, 0, 10
        SDMS 203, LB_ADDSTRING, 0, 'x'
        SDMS 203, LB_ADDSTRING, 0, 'yy'
        CHECK 1, 'LB_ADDSTRING in a variable list'
        CHECK_LOG 'a variable list measures each item', WM_MEASUREITEM, ODT_LISTBOX, 203, 0, WM_MEASUREITEM, ODT_LISTBOX, 203, 1
        SDM 203, LB_GETITEMHEIGHT, 1, 0
        CHECK 15, 'LB_GETITEMHEIGHT of a variable item'
        SDMP 203, LB_GETTEXT, 1, buf
        CHECK_STR buf, 'yy', 'LB_GETTEXT with LBS_HASSTRINGS'
        ; The dialog's base units (DS_SETFONT) and the system's.
        push word [hdlg]
        push ds
        push rc
        FAR_CALL_IMPORT USER, 103       ; MapDialogRect
        PRINT2 fmt_font, [rc+4], [rc+6]
        FAR_CALL_IMPORT USER, 243       ; GetDialogBaseUnits
        PRINT2 fmt_system, ax, dx
        LOG_CLEAR
        ret

; At WM_TIMER: the dialog was painted.
paint_checks:
        CHECK_LOG 'the owner-draw button painted', WM_DRAWITEM, ODT_BUTTON, 1, 0
        ITEM 202
        mov [h202], ax
        SDM 202, WM_LBUTTONDOWN, 1, 0x00010001
        CHECK_LOG 'pressed: it takes the focus, then is selected', WM_DRAWITEM, ODT_BUTTON, 4, 0x10, WM_DRAWITEM, ODT_BUTTON, 2, 0x11
        SDM 202, WM_LBUTTONUP, 0, 0x00010001
        CHECK_LOG 'released: no longer selected, then BN_CLICKED', WM_DRAWITEM, ODT_BUTTON, 2, 0x10, WM_COMMAND, 202, BN_CLICKED
        push word [h202]                ; ButtonWndProc(h202, BM_GETSTATE,
        push BM_GETSTATE                ;   0, 0), called directly
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 303
        CHECK 8, 'ButtonWndProc called directly: BM_GETSTATE has the focus'
        ret

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, DATA_SIZE
instance_data:
        times 16 db 0
hdlg:   dw 0
h202:   dw 0
cmp_id1: dw 0
preset: dw 0
rc:     dw 0, 0, 4, 8
buf:    times 32 db 0
fmt_font: db 'font units %d %d', 0
fmt_system: db 'system units %d %d', 0
        CHECKS_DATA
        PAD_TO DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_draw
        DIALOG WS_POPUP | WS_CAPTION | DS_MODALFRAME | DS_SETFONT, 4, 10, 10, 160, 90
        DLG_NAMES '', '', 'Owner draw'
        DLG_FONT 8, 'Helv'
        CONTROL 6, 6, 60, 40, 201, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | LBS_OWNERDRAWFIXED | LBS_SORT, CLS_LISTBOX, ''
        CONTROL 70, 6, 40, 14, 202, WS_CHILD | WS_VISIBLE | BS_OWNERDRAW, CLS_BUTTON, 'Draw'
        CONTROL 6, 50, 60, 36, 203, WS_CHILD | WS_VISIBLE | WS_BORDER | LBS_OWNERDRAWVARIABLE | LBS_HASSTRINGS, CLS_LISTBOX, ''
        CONTROL 70, 30, 80, 8, 210, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, 'Helv 8'
NE_RESDATA_END dlg_draw
        NE_RESOURCES_END
