; poppad.asm -- a POPPAD-like editor, as the textbook samples are: a main
; window filled by a multi-line edit control, the common dialogs of its
; File, Print and Search menus (GetOpenFileName, PrintDlg, the modeless
; FindText and ReplaceText dialogs run through IsDialogMessage), and the
; rest of Windows 3.1 such a program meets without any device: the
; communications functions (no serial port), the network functions (no
; network), keybd_event and mouse_event, ExtractIcon and
; ExtractAssociatedIcon, AccessResource,
; GetLPErrMode, GlobalFreeAll, LocalShrink, and SwitchStackTo /
; SwitchStackBack. Every
; answer is checked against the SDK (inc/checks.inc); the program prints
; `checks N fails M`, opens the Find dialog once more and waits in its
; message loop until the session closes its window (the owned dialog goes
; with it), and exits with the number of failures. A `--messages` script
; can use that dialog: `type 0x480 TEXT` and `click-id 1` make the
; program find TEXT and print `found START END`.
; output: poppad.exe
; no-walk-expectation: a test of COMMDLG, USER and KERNEL as a textbook program uses them, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - GetOpenFileName: cancelled (no script line) is FALSE with
;   CommDlgExtendedError 0. PrintDlg, with the default printer WIN.INI
;   names and nobody to press OK, is cancelled too: FALSE and 0.
; - FindText/ReplaceText and FINDREPLACE (36 bytes): the dialog's window
;   comes back at once, owned by hwndOwner, with lpstrFindWhat in edt1
;   (480h), FR_DOWN checking rad2 (421h), FR_HIDEWHOLEWORD hiding chx1
;   (410h), pshHelp (40Eh) hidden without FR_SHOWHELP. Find Next (IDOK)
;   sends RegisterWindowMessage("commdlg_FindReplace") to the owner with
;   lParam the structure, Flags = the options shown | FR_FINDNEXT (8) and
;   the text copied back; Cancel sends FR_DIALOGTERM (40h) and destroys
;   the dialog. Replace All is FR_REPLACEALL (20h). A wReplaceWithLen of 0
;   fails with FRERR_BUFFERLENGTHZERO (4001h), an lStructSize of 34 with
;   CDERR_STRUCTSIZE (1).
; - OpenComm: IE_HARDWARE (-10) for a port the machine does not have,
;   IE_BADID (-1) for a name that is no device; GetCommError of an id
;   that is not open: CE_MODE (8000h); WriteComm on it: -1. BuildCommDCB
;   reads MODE's syntax: "COM2:96,n,8,1" is Id 1, 9600 baud, 8 data
;   bits, no parity, one stop bit.
; - WNetGetCaps: 0 without a network; WNetAddConnection: WN_NOT_SUPPORTED.
; - keybd_event (AL virtual key, AH 80h on release, BL scan code) puts
;   WM_KEYDOWN / WM_KEYUP in the focus window's queue, lParam repeat 1,
;   the scan code, bits 30 and 31 on the release. mouse_event with
;   SF_ABSOLUTE | SF_MOVEMENT at (8000h, 8000h) puts the cursor in the
;   middle of the 640 x 480 screen.
; - GetLPErrMode answers SetErrorMode's mode. GlobalFreeAll frees the
;   task's GlobalAlloc blocks (GlobalSize 0 after). AccessResource opens the
;   module's file at the resource's bytes. ExtractIcon: 0 icons in a
;   program without any, 1 for a file that is no executable;
;   ExtractAssociatedIcon of a file with neither icon nor association:
;   the default icon.
; - SwitchStackTo(seg, ptr, top): the caller runs on seg with its locals,
;   BP = ptr, [ptr] = 0, pStackTop = top and pStackMin = pStackBot = ptr
;   in seg's instance data; SwitchStackBack restores SS, SP and BP.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

PD_DATA_SIZE equ 0x0800
WM_CREATE   equ 0x0001
WM_DESTROY  equ 0x0002
WM_SIZE     equ 0x0005
WM_SETFOCUS equ 0x0007
WM_CLOSE    equ 0x0010
WM_KEYUP    equ 0x0101
WM_MOUSEMOVE equ 0x0200
EM_SETSEL_  equ 0x0401
EM_GETSEL_  equ 0x0400
FR_DOWN     equ 0x0001
FR_FINDNEXT equ 0x0008
FR_REPLACEALL equ 0x0020
FR_DIALOGTERM equ 0x0040
FR_HIDEWHOLEWORD_HI equ 0x0001
RT_RCDATA   equ 10
EDIT_STYLE  equ 0x50B000C4              ; WS_CHILD | WS_VISIBLE | WS_HSCROLL | WS_VSCROLL | WS_BORDER | ES_MULTILINE | ES_AUTOVSCROLL | ES_AUTOHSCROLL

        NE_MODULE   'POPPAD', 'toolhelp16: a POPPAD-like editor with the common dialogs'
        NE_HEAP     0x1000
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE COMMDLG
        NE_IMPORT_MODULE SHELL
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_RESOURCE RT_RCDATA, 1, rc_hello
        NE_HEADER   2

%macro DLGITEM 2                        ; AX = GetDlgItem(window at %1, id)
        push word [%1]
        push word %2
        FAR_CALL_IMPORT USER, 91
%endmacro
%macro SENDCMD 3                        ; SendMessage([%1], msg, wParam, 0)
        push word [%1]
        push word %2
        push word %3
        PL 0
        FAR_CALL_IMPORT USER, 111
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal: [bp+6] hInstance, [bp+4] nCmdShow.
WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov word [wc+2], WndProc        ; lpfnWndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [bp+6]
        mov [wc+0x0A], ax               ; hInstance
        mov word [wc+0x10], 6           ; hbrBackground COLOR_WINDOW + 1
        mov word [wc+0x16], class_name  ; lpszClassName
        mov [wc+0x18], ds
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        CHECK_NZ 'RegisterClass'
        PSTR class_name                 ; CreateWindow(class, class,
        PSTR class_name
        PL 0x00CF0000                   ;   WS_OVERLAPPEDWINDOW,
        push word 0x8000                ;   CW_USEDEFAULT x 4,
        push 0
        push word 0x8000
        push 0
        push 0                          ;   no parent, no menu,
        push 0
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41
        mov [hwnd], ax
        CHECK_NZ 'CreateWindow'
        push word [hwnd]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        call file_and_print
        call find_dialog
        call replace_dialog
        call comm_and_net
        call input_events
        call kernel_services
        call stack_switch
        CHECKS_REPORT
        mov word [final], 1             ; a Find dialog left open for the
        PSTR fr                         ; session (a script may use it)
        FAR_CALL_IMPORT COMMDLG, 11
        mov [hfind], ax
.loop:
        PSTR msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage
        or ax, ax
        jz .done
        mov ax, [hfind]
        or ax, ax
        jz .plain
        push ax
        PSTR msg
        FAR_CALL_IMPORT USER, 90        ; IsDialogMessage(hDlgFind, &msg)
        or ax, ax
        jnz .loop
.plain:
        PSTR msg
        FAR_CALL_IMPORT USER, 113       ; TranslateMessage
        PSTR msg
        FAR_CALL_IMPORT USER, 114       ; DispatchMessage
        jmp .loop
.done:
        mov ax, [msg+4]                 ; WM_QUIT's wParam: the failures
        NEAR_EPILOGUE 4

; ---------------------------------------------------------------- File, Print
file_and_print:
        mov word [ofn_file], filebuf
        mov [ofn_file+2], ds
        mov ax, [hwnd]
        mov [ofn+4], ax
        PSTR ofn
        FAR_CALL_IMPORT COMMDLG, 1      ; GetOpenFileName: nobody answers
        CHECK 0, 'GetOpenFileName cancelled'
        FAR_CALL_IMPORT COMMDLG, 26
        CHECK 0, 'CommDlgExtendedError after Cancel'
        mov ax, [hwnd]
        mov [pd+4], ax
        PSTR pd
        FAR_CALL_IMPORT COMMDLG, 20     ; PrintDlg
        CHECK 0, 'PrintDlg cancelled'
        FAR_CALL_IMPORT COMMDLG, 26
        CHECK 0, 'CommDlgExtendedError after PrintDlg'
        ret

; ---------------------------------------------------------------- Find
find_dialog:
        PSTR s_findmsg
        FAR_CALL_IMPORT USER, 118       ; RegisterWindowMessage
        mov [msg_find], ax
        CHECK_NZ 'RegisterWindowMessage(FINDMSGSTRING)'
        push word [hedit]
        PSTR s_text
        FAR_CALL_IMPORT USER, 37        ; SetWindowText(hEdit, text)
        mov ax, [hwnd]
        mov [fr+4], ax
        mov ax, [hinst]
        mov [fr+6], ax
        mov word [fr+12], findwhat
        mov [fr+14], ds
        PSTR fr
        FAR_CALL_IMPORT COMMDLG, 11     ; FindText
        mov [hfind], ax
        mov [hfind_made], ax
        CHECK_NZ 'FindText returns the dialog'
        push word [hfind]
        FAR_CALL_IMPORT USER, 49        ; IsWindowVisible
        CHECK 1, 'the Find dialog is visible'
        push word [hfind]
        push 4
        FAR_CALL_IMPORT USER, 262       ; GetWindow(GW_OWNER)
        cmp ax, [hwnd]
        mov ax, 0
        jne .o
        inc ax
.o:     CHECK 1, 'owned by hwndOwner'
        push word [hfind]
        push 0x480
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 93        ; GetDlgItemText(edt1)
        CHECK 3, 'edt1 holds lpstrFindWhat'
        CHECK_STR buf, 'fox', 'edt1 text'
        push word [hfind]
        push 0x421
        FAR_CALL_IMPORT USER, 98
        CHECK 1, 'FR_DOWN checks Down'
        push word [hfind]
        push 0x420
        FAR_CALL_IMPORT USER, 98
        CHECK 0, 'Up unchecked'
        DLGITEM hfind, 0x410
        push ax
        FAR_CALL_IMPORT USER, 49
        CHECK 0, 'FR_HIDEWHOLEWORD hides chx1'
        DLGITEM hfind, 0x40E
        push ax
        FAR_CALL_IMPORT USER, 49
        CHECK 0, 'no FR_SHOWHELP: Help hidden'
        DLGITEM hfind, 1
        push ax
        FAR_CALL_IMPORT USER, 35        ; IsWindowEnabled(Find Next)
        CHECK 1, 'Find Next enabled with text'
        ; The user types "brown", checks Match Case, presses Find Next.
        push word [hfind]
        push 0x480
        CSTR 'brown'
        FAR_CALL_IMPORT USER, 92        ; SetDlgItemText
        push word [hfind]
        push 0x411
        push 1
        FAR_CALL_IMPORT USER, 97        ; CheckDlgButton(chx2)
        LOG_CLEAR
        SENDCMD hfind, WM_COMMAND, IDOK
        CHECK_LOG 'Find Next: FR_DOWN | FR_MATCHCASE | FR_FINDNEXT', 0x000D, FR_HIDEWHOLEWORD_HI
        CHECK_STR findwhat, 'brown', 'lpstrFindWhat copied back'
        push word [hedit]
        push EM_GETSEL_
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 111
        CHECK32 0x000F000A, 'the owner selected "brown"'
        ; Up, then Find Next again.
        push word [hfind]
        push 0x420
        push 0x421
        push 0x420
        FAR_CALL_IMPORT USER, 96        ; CheckRadioButton(rad1)
        SENDCMD hfind, WM_COMMAND, IDOK
        CHECK_LOG 'Find Next upwards', 0x000C, FR_HIDEWHOLEWORD_HI
        ; Cancel: FR_DIALOGTERM, the dialog goes.
        SENDCMD hfind, WM_COMMAND, IDCANCEL
        CHECK_LOG 'Cancel: FR_DIALOGTERM', 0x0044, FR_HIDEWHOLEWORD_HI
        mov ax, [hfind]
        CHECK 0, 'the owner forgot the dialog'
        push word [hfind_made]
        FAR_CALL_IMPORT USER, 47        ; IsWindow
        CHECK 0, 'the dialog was destroyed'
        ; Bad structures.
        mov word [fr], 34
        PSTR fr
        FAR_CALL_IMPORT COMMDLG, 11
        CHECK 0, 'FindText with lStructSize 34'
        FAR_CALL_IMPORT COMMDLG, 26
        CHECK 1, 'CDERR_STRUCTSIZE'
        mov word [fr], 36
        ret

; ---------------------------------------------------------------- Replace
replace_dialog:
        mov ax, [hwnd]
        mov [frr+4], ax
        mov word [frr+12], findwhat
        mov [frr+14], ds
        mov word [frr+16], replwith
        mov [frr+18], ds
        PSTR frr                        ; wReplaceWithLen 0
        FAR_CALL_IMPORT COMMDLG, 12
        CHECK 0, 'ReplaceText without a replace buffer'
        FAR_CALL_IMPORT COMMDLG, 26
        CHECK 0x4001, 'FRERR_BUFFERLENGTHZERO'
        mov word [frr+22], 32
        PSTR frr
        FAR_CALL_IMPORT COMMDLG, 12     ; ReplaceText
        mov [hfind], ax
        mov [hfind_made], ax
        CHECK_NZ 'ReplaceText returns the dialog'
        DLGITEM hfind, 0x481
        CHECK_NZ 'edt2'
        push word [hfind]
        push 0x481
        CSTR 'cat'
        FAR_CALL_IMPORT USER, 92
        LOG_CLEAR
        SENDCMD hfind, WM_COMMAND, 0x401
        CHECK_LOG 'Replace All: FR_REPLACEALL, searching down', 0x0021, 0
        CHECK_STR replwith, 'cat', 'lpstrReplaceWith copied back'
        SENDCMD hfind, WM_CLOSE, 0
        CHECK_LOG 'closed: FR_DIALOGTERM', 0x0041, 0
        push word [hfind_made]
        FAR_CALL_IMPORT USER, 47
        CHECK 0, 'the Replace dialog was destroyed'
        ret

; ---------------------------------------------------------------- Comm, WNet
comm_and_net:
        CSTR 'COM1'
        push 1024
        push 128
        FAR_CALL_IMPORT USER, 200       ; OpenComm
        CHECK 0xFFF6, 'OpenComm COM1: IE_HARDWARE'
        CSTR 'LPT1:'
        push 0
        push 0
        FAR_CALL_IMPORT USER, 200
        CHECK 0xFFF6, 'OpenComm LPT1: IE_HARDWARE'
        CSTR 'MODEM'
        push 1024
        push 128
        FAR_CALL_IMPORT USER, 200
        CHECK 0xFFFF, 'OpenComm MODEM: IE_BADID'
        CSTR 'COM2:96,n,8,1'
        PSTR dcb
        FAR_CALL_IMPORT USER, 213       ; BuildCommDCB
        CHECK 0, 'BuildCommDCB'
        mov al, [dcb]
        xor ah, ah
        CHECK 1, 'DCB Id of COM2'
        mov ax, [dcb+1]
        CHECK 9600, 'DCB BaudRate'
        mov ax, [dcb+3]
        CHECK 0x0008, 'DCB ByteSize 8, NOPARITY'
        mov al, [dcb+5]
        xor ah, ah
        CHECK 0, 'DCB ONESTOPBIT'
        push 0
        PSTR comstat
        FAR_CALL_IMPORT USER, 203       ; GetCommError
        CHECK 0x8000, 'GetCommError: CE_MODE'
        push 0
        PSTR buf
        push 1
        FAR_CALL_IMPORT USER, 205       ; WriteComm
        CHECK 0xFFFF, 'WriteComm on no device'
        push 2
        FAR_CALL_IMPORT USER, 513       ; WNetGetCaps(WNNC_NET_TYPE)
        CHECK 0, 'WNetGetCaps: no network'
        CSTR '\\SERVER\SHARE'
        CSTR ''
        CSTR 'E:'
        FAR_CALL_IMPORT USER, 517       ; WNetAddConnection
        CHECK 1, 'WNetAddConnection: WN_NOT_SUPPORTED'
        ret

; ---------------------------------------------------------------- input
input_events:
        push word [hedit]
        FAR_CALL_IMPORT USER, 22        ; SetFocus(hEdit)
        mov ax, 0x0058                  ; 'X' down, scan code 2Dh
        mov bx, 0x002D
        FAR_CALL_IMPORT USER, 289       ; keybd_event
        mov ax, 0x8058                  ; 'X' up
        mov bx, 0x002D
        FAR_CALL_IMPORT USER, 289
        call peek_key
        CHECK 1, 'keybd_event queued a key message'
        mov ax, [msg+2]
        CHECK WM_KEYDOWN, 'WM_KEYDOWN'
        mov ax, [msg]
        cmp ax, [hedit]
        mov ax, 0
        jne .h1
        inc ax
.h1:    CHECK 1, 'to the focus window'
        mov ax, [msg+4]
        CHECK 0x58, 'wParam VK_X'
        mov ax, [msg+6]
        mov dx, [msg+8]
        CHECK32 0x002D0001, 'WM_KEYDOWN lParam'
        call peek_key
        mov ax, [msg+2]
        CHECK WM_KEYUP, 'WM_KEYUP'
        mov ax, [msg+6]
        mov dx, [msg+8]
        CHECK32 0xC02D0001, 'WM_KEYUP lParam'
        mov ax, 0x8001                  ; SF_ABSOLUTE | SF_MOVEMENT
        mov bx, 0x8000
        mov cx, 0x8000
        mov dx, 2
        FAR_CALL_IMPORT USER, 299       ; mouse_event
        PSTR pt
        FAR_CALL_IMPORT USER, 17        ; GetCursorPos
        mov ax, [pt]
        mov dx, [pt+2]
        CHECK32 0x00F00140, 'mouse_event: the middle of the screen'
        ret

; PeekMessage(&msg, NULL, WM_KEYFIRST, WM_KEYLAST, PM_REMOVE)
peek_key:
        PSTR msg
        push 0
        push WM_KEYDOWN
        push 0x0108
        push 1
        FAR_CALL_IMPORT USER, 109
        ret

; ---------------------------------------------------------------- KERNEL
kernel_services:
        push 1
        FAR_CALL_IMPORT KERNEL, 107     ; SetErrorMode(SEM_FAILCRITICALERRORS)
        FAR_CALL_IMPORT KERNEL, 99      ; GetLPErrMode
        CHECK 1, 'GetLPErrMode'
        push 0
        FAR_CALL_IMPORT KERNEL, 107
        push 2
        PL 16
        FAR_CALL_IMPORT KERNEL, 15      ; GlobalAlloc(GMEM_MOVEABLE, 16)
        mov [hmem], ax
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 20      ; GlobalSize
        CHECK32 32, 'GlobalSize: 16 bytes round up to 32'
        push 0
        FAR_CALL_IMPORT KERNEL, 26      ; GlobalFreeAll(the caller's PDB)
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 20
        CHECK32 0, 'GlobalFreeAll freed the block'
        push 0
        push 0
        FAR_CALL_IMPORT KERNEL, 121     ; LocalShrink(DS, 0)
        CHECK_NZ 'LocalShrink: the heap keeps its blocks'
        push word [hinst]
        PL 1
        PL RT_RCDATA
        FAR_CALL_IMPORT KERNEL, 60      ; FindResource(hInst, 1, RT_RCDATA)
        mov [hrsrc], ax
        CHECK_NZ 'FindResource'
        push word [hinst]
        push word [hrsrc]
        FAR_CALL_IMPORT KERNEL, 64      ; AccessResource
        mov [hfile], ax
        cmp ax, 0xFFFF
        mov ax, 0
        je .bad
        inc ax
.bad:   CHECK 1, 'AccessResource opens the file'
        push word [hfile]
        PSTR buf
        push 5
        FAR_CALL_IMPORT KERNEL, 82      ; _lread(h, buf, 5)
        CHECK 5, '_lread of the resource'
        mov byte [buf+5], 0
        CHECK_STR buf, 'HELLO', 'the resource bytes'
        push word [hfile]
        FAR_CALL_IMPORT KERNEL, 81      ; _lclose
        CHECK 0, '_lclose'
        push word [hinst]
        CSTR 'POPPAD.EXE'
        push 0xFFFF
        FAR_CALL_IMPORT SHELL, 34       ; ExtractIcon(.., -1): how many
        CHECK 0, 'ExtractIcon: a program without icons'
        push word [hinst]
        CSTR 'POPPAD.ASM'
        push 0
        FAR_CALL_IMPORT SHELL, 34
        CHECK 1, 'ExtractIcon: not an executable'
        push 0
        PL 32512
        FAR_CALL_IMPORT USER, 174       ; LoadIcon(NULL, IDI_APPLICATION)
        mov [hicon], ax
        push word [hinst]
        PSTR iconpath
        PSTR iconidx
        FAR_CALL_IMPORT SHELL, 36       ; ExtractAssociatedIcon
        cmp ax, [hicon]
        mov ax, 0
        jne .ai
        inc ax
.ai:    CHECK 1, 'ExtractAssociatedIcon: no icon, no association: IDI_APPLICATION'
        ret

; ---------------------------------------------------------------- STO, SBACK
stack_switch:
        NEAR_PROLOGUE
        sub sp, 4
        mov word [bp-2], 0x5A5A         ; a local the new stack must keep
        mov [old_ss], ss
        mov [old_bp], bp
        mov [old_sp], sp
        push 0                          ; GMEM_FIXED
        PL 0x0400
        FAR_CALL_IMPORT KERNEL, 15      ; GlobalAlloc
        push ax
        FAR_CALL_IMPORT KERNEL, 18      ; GlobalLock
        mov [stackseg], dx
        push dx
        push 0x03FE
        push 0x0100
        FAR_CALL_IMPORT KERNEL, 108     ; SwitchStackTo(seg, 3FEh, 100h)
on_new_stack:                           ; tests/win16_dlls.rs walks here
        mov ax, ss
        cmp ax, [stackseg]
        mov ax, 0
        jne .s1
        inc ax
.s1:    CHECK 1, 'SS is the new segment'
        mov ax, bp
        CHECK 0x03FE, 'BP is wStackPointer'
        mov ax, [ss:bp]
        CHECK 0, 'the saved-BP chain ends there'
        mov ax, [bp-2]
        CHECK 0x5A5A, 'the locals came along'
        mov ax, [ss:0x0A]
        CHECK 0x0100, 'pStackTop'
        mov ax, [ss:0x0E]
        CHECK 0x03FE, 'pStackBot'
        FAR_CALL_IMPORT KERNEL, 109     ; SwitchStackBack
        mov ax, ss
        cmp ax, [old_ss]
        mov ax, 0
        jne .s2
        inc ax
.s2:    CHECK 1, 'SS back'
        mov ax, bp
        cmp ax, [old_bp]
        mov ax, 0
        jne .s3
        inc ax
.s3:    CHECK 1, 'BP back'
        mov ax, sp
        cmp ax, [old_sp]
        mov ax, 0
        jne .s4
        inc ax
.s4:    CHECK 1, 'SP back'
        NEAR_EPILOGUE

; ---------------------------------------------------------------- WndProc
; WndProc(hwnd, msg, wParam, lParam), far pascal, exported:
; [bp+0x0E] hwnd, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+8]:[bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        push si
        push di
        push es
        mov ax, [bp+0x0C]
        cmp ax, [msg_find]
        je .find
        cmp ax, WM_CREATE
        je .create
        cmp ax, WM_SIZE
        je .size
        cmp ax, WM_SETFOCUS
        je .focus
        cmp ax, WM_DESTROY
        je .destroy
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107       ; DefWindowProc
        jmp .out
.create:
        CSTR 'EDIT'                     ; CreateWindow("EDIT", NULL,
        PL 0                            ;   the edit style,
        PL EDIT_STYLE                   ;   0, 0, 0, 0,
        push 0
        push 0
        push 0
        push 0
        push word [bp+0x0E]             ;   hwnd, id 1,
        push 1
        push word [hinst]               ;   hInstance, NULL)
        PL 0
        FAR_CALL_IMPORT USER, 41
        mov [hedit], ax
        jmp .zero
.size:
        push word [hedit]               ; MoveWindow(hEdit, 0, 0, cx, cy, TRUE)
        push 0
        push 0
        push word [bp+6]
        push word [bp+8]
        push 1
        FAR_CALL_IMPORT USER, 56
        jmp .zero
.focus:
        push word [hedit]
        FAR_CALL_IMPORT USER, 22
        jmp .zero
.find:                                  ; FINDMSGSTRING: lParam = lpfr
        les si, [bp+6]
        LOG_WORD [es:si+8]
        LOG_WORD [es:si+10]
        test word [es:si+8], FR_DIALOGTERM
        jz .next
        mov word [hfind], 0
        jmp .zero
.next:
        test word [es:si+8], FR_FINDNEXT
        jz .zero
        push word [hedit]               ; the text, and where lpstrFindWhat
        PSTR text                       ; is in it
        push 64
        FAR_CALL_IMPORT USER, 36        ; GetWindowText
        mov si, text
        mov di, findwhat
        call find_sub
        cmp ax, 0xFFFF
        je .zero
        push word [hedit]               ; EM_SETSEL(0, MAKELONG(start, end))
        push EM_SETSEL_
        push 0
        push dx
        push ax
        cmp word [final], 0
        je .sel
        push dx                         ; the last dialog's finds are
        push ax                         ; printed: `found START END`
        PSTR fmt_found
        PSTR outbuf
        FAR_CALL_IMPORT USER, 420
        add sp, 12
        PSTR outbuf
        FAR_CALL_IMPORT KERNEL, 115
.sel:   FAR_CALL_IMPORT USER, 111
        jmp .zero
.destroy:
        push word [fails]
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage(failures)
.zero:
        xor ax, ax
        xor dx, dx
.out:
        pop es
        pop di
        pop si
        WIN_FAR_EPILOGUE 10

; find_sub: where DS:DI's string first occurs in DS:SI's: AX its start and
; DX its end, or AX = -1.
find_sub:
        xor bx, bx
.at:    cmp byte [si+bx], 0
        je .none
        push bx
        push di
.cmp:   mov al, [di]
        or al, al
        jz .hit
        cmp al, [si+bx]
        jne .miss
        inc bx
        inc di
        jmp .cmp
.hit:   mov dx, bx
        pop di
        pop ax
        ret
.miss:  pop di
        pop bx
        inc bx
        jmp .at
.none:  mov ax, 0xFFFF
        ret

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, PD_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hwnd:       dw 0
hedit:      dw 0
hfind:      dw 0
hfind_made: dw 0
final:      dw 0
msg_find:   dw 0xFFFF
hrsrc:      dw 0
hfile:      dw 0
hmem:       dw 0
stackseg:   dw 0
old_ss:     dw 0
old_bp:     dw 0
old_sp:     dw 0
pt:         dw 0, 0
hicon:      dw 0
iconidx:    dw 0
iconpath:   db 'POPPAD.ASM', 0
            times 128 - 11 db 0
wc:         times 0x1A db 0             ; WNDCLASS
msg:        times 18 db 0               ; MSG
ofn:        dd 72                       ; OPENFILENAME: lStructSize,
            dw 0, 0                     ; hwndOwner, hInstance,
            dd 0, 0, 0, 0               ; filters, nFilterIndex
ofn_file:   dd 0                        ; lpstrFile
            dd 128                      ; nMaxFile
            times 72 - 32 db 0
pd:         dd 52                       ; PRINTDLG: lStructSize, hwndOwner,
            dw 0, 0, 0, 0               ; hDevMode, hDevNames, hDC,
            dd 0x0100                   ; Flags PD_RETURNDC
            times 52 - 16 db 0
fr:         dd 36                       ; FINDREPLACE: lStructSize,
            dw 0, 0                     ; hwndOwner, hInstance,
            dd FR_DOWN | (FR_HIDEWHOLEWORD_HI << 16)   ; Flags
            dd 0, 0                     ; lpstrFindWhat, lpstrReplaceWith
            dw 32, 0                    ; wFindWhatLen, wReplaceWithLen
            dd 0, 0, 0                  ; lCustData, lpfnHook, lpTemplateName
frr:        dd 36
            dw 0, 0
            dd 0
            dd 0, 0
            dw 32, 0
            dd 0, 0, 0
findwhat:   db 'fox'
            times 32 - 3 db 0
replwith:   times 32 db 0
dcb:        times 25 db 0xEE
comstat:    times 5 db 0xEE
buf:        times 32 db 0
filebuf:    times 128 db 0
text:       times 64 db 0
class_name: db 'PopPad', 0
s_findmsg:  db 'commdlg_FindReplace', 0
s_text:     db 'The quick brown fox', 0
fmt_found:  db 'found %d %d', 0
        CHECKS_DATA
        PAD_TO PD_DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA rc_hello
        db 'HELLO, resource', 0
NE_RESDATA_END rc_hello
        NE_RESOURCES_END
