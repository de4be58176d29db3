; dlgdir.asm -- directory lists in a dialog box over the sandbox drive:
; DlgDirList into list box 301 with the path in static 302, DlgDirSelect,
; DlgDirList into a subdirectory, and DlgDirListComboBox into combo box
; 303. It prints what it finds (`ret n`, `count n`, each item, `path
; ...`, `select n text`) for tests/win16_dialogs.rs, which runs it with
; --dir on a directory it made (A.TXT, B.TXT, C.DOC, SUB\D.TXT).
; output: dlgdir.exe
; no-walk-expectation: a DlgDirList scenario on a --dir drive, checked by tests/win16_dialogs.rs
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/win16app.inc"
%include "inc/dialog.inc"

DATA_SIZE       equ 0x0300
DDL_DIRECTORY   equ 0x0010
DDL_DRIVES      equ 0x4000
DDL_EXCLUSIVE   equ 0x8000

        NE_MODULE   'DLGDIR', 'toolhelp16: directory lists in a dialog box'
        NE_HEAP     0x0800
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'DIRDLGPROC', 1, DirDlgProc
        NE_RESOURCE RT_DIALOG, 600, dlg_dir
        NE_HEADER   2

; PRINT1 fmt, a: print wsprintf(fmt, a) (a is a word)
%macro PRINT1 2
        push word %2
        push ds
        push %1
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 10
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
%endmacro

; DIRLIST spec-label, list id, static id, attrs: DlgDirList -> print `ret n`
%macro DIRLIST 4
        push word [hdlg]
        push ds
        push %1
        push word %2
        push word %3
        push word %4
        FAR_CALL_IMPORT USER, 100
        PRINT1 fmt_ret, ax
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        push word [bp+6]                ; DialogBox(hInstance, 600, NULL,
        push 0                          ;   DirDlgProc)
        push 600
        push 0
        MOV_AX_SELECTOR 1
        push ax
        push DirDlgProc
        FAR_CALL_IMPORT USER, 87
        xor ax, ax
        NEAR_EPILOGUE 4

; print the items of list box `id` (LB_GETCOUNT, LB_GETTEXT each)
; dump(id) near: [bp+4] id, [bp+6] the LB_GETCOUNT message, [bp+8] LB_GETTEXT
dump:
        push bp
        mov bp, sp
        push si
        push word [hdlg]
        push word [bp+4]
        push word [bp+6]
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 101       ; SendDlgItemMessage(GETCOUNT)
        mov [count], ax
        PRINT1 fmt_count, ax
        xor si, si
.next:  cmp si, [count]
        jae .done
        push word [hdlg]
        push word [bp+4]
        push word [bp+8]
        push si
        push ds
        push buf
        FAR_CALL_IMPORT USER, 101       ; SendDlgItemMessage(GETTEXT, si)
        push ds
        push buf
        FAR_CALL_IMPORT KERNEL, 115
        inc si
        jmp .next
.done:  pop si
        pop bp
        ret 6

; print static 302's text: `path ...`
path:
        push word [hdlg]
        push 302
        push ds
        push buf
        push 64
        FAR_CALL_IMPORT USER, 93        ; GetDlgItemText
        push ds
        push buf
        push ds
        push fmt_path
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        ret

; select item n of list 301 and print `select r text` from DlgDirSelect
; select(n) near: [bp+4] n
select:
        push bp
        mov bp, sp
        push word [hdlg]
        push 301
        push LB_SETCURSEL
        push word [bp+4]
        push 0
        push 0
        FAR_CALL_IMPORT USER, 101
        push word [hdlg]
        push ds
        push buf
        push 301
        FAR_CALL_IMPORT USER, 99        ; DlgDirSelect
        push ds
        push buf
        push ax
        push ds
        push fmt_select
        push ds
        push outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 14
        push ds
        push outbuf
        FAR_CALL_IMPORT KERNEL, 115
        pop bp
        ret 2

DirDlgProc:
        WIN_FAR_PROLOGUE
        cmp word [bp+0x0C], WM_INITDIALOG
        jne .false
        mov ax, [bp+0x0E]
        mov [hdlg], ax
        DIRLIST spec_txt, 301, 302, DDL_DIRECTORY | DDL_DRIVES
        push LB_GETTEXT
        push LB_GETCOUNT
        push 301
        call dump
        call path
        push 0
        call select                     ; a.txt
        push 2
        call select                     ; [-c-]
        push 3
        call select                     ; [sub]
        DIRLIST spec_sub, 301, 302, 0
        push LB_GETTEXT
        push LB_GETCOUNT
        push 301
        call dump
        call path
        push word [hdlg]                ; DlgDirListComboBox(hDlg, "..\*.DOC",
        push ds                         ;   303, 0, DDL_EXCLUSIVE | DDL_DIRECTORY)
        push spec_up
        push 303
        push 0
        push DDL_EXCLUSIVE | DDL_DIRECTORY
        FAR_CALL_IMPORT USER, 195
        PRINT1 fmt_ret, ax
        push CB_GETLBTEXT
        push CB_GETCOUNT
        push 303
        call dump
        push ds
        push spec_up
        FAR_CALL_IMPORT KERNEL, 115     ; what DlgDirList left of the spec
        push word [bp+0x0E]
        push IDOK
        FAR_CALL_IMPORT USER, 88        ; EndDialog
        mov ax, 1
        jmp .out
.false: xor ax, ax
.out:   xor dx, dx
        WIN_FAR_EPILOGUE 10
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, DATA_SIZE
instance_data:
        times 16 db 0
hdlg:   dw 0
count:  dw 0
spec_txt: db '*.TXT', 0
spec_sub: db 'SUB', 0, 0, 0, 0, 0
spec_up: db '..\*.DOC', 0
buf:    times 80 db 0
outbuf: times 96 db 0
fmt_ret: db 'ret %d', 0
fmt_count: db 'count %d', 0
fmt_path: db 'path %s', 0
fmt_select: db 'select %d %s', 0
        PAD_TO DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_dir
        DIALOG WS_POPUP | WS_CAPTION | DS_MODALFRAME, 3, 10, 10, 160, 100
        DLG_NAMES '', '', 'Files'
        CONTROL 6, 6, 70, 80, 301, WS_CHILD | WS_VISIBLE | WS_BORDER | WS_TABSTOP | WS_VSCROLL | LBS_SORT | LBS_NOTIFY, CLS_LISTBOX, ''
        CONTROL 80, 6, 76, 8, 302, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, ''
        CONTROL 80, 20, 76, 60, 303, WS_CHILD | WS_VISIBLE | WS_TABSTOP | CBS_DROPDOWNLIST | CBS_SORT, CLS_COMBOBOX, ''
NE_RESDATA_END dlg_dir
        NE_RESOURCES_END
