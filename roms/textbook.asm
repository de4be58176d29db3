; textbook.asm -- a probe of what the textbook's Windows 3.1 samples
; call, in the way they call it, with no script. Its main window is a
; dialog box made by CreateDialog from a template naming a class the
; program registered (HEXCALC); that window is also a clipboard viewer
; (CLIPVIEW) and the owner of a screen capture put on the clipboard as a
; bitmap (BLOWUP). Then: the printer named in WIN.INI (PRINT1-4: none
; here), a modeless "printing" dialog with its Close item greyed
; (PRINT3), EnumFonts through a MakeProcInstance callback (FONTLIST),
; SetTextJustification (JUSTIFY), global atoms and a DDESHARE block
; (DDEPOP), a custom resource and a string table (POEPOEM), the DOS
; environment in a list box (ENVIRON), GetKeyNameText (KEYLOOK) and the
; caret (TYPER). Every answer is checked against the SDK (inc/checks.inc);
; the program prints `checks N fails M`, waits until the session closes
; its window, and exits with the number of failures.
; output: textbook.exe
; no-walk-expectation: a probe of USER, GDI and KERNEL as the textbook samples use them, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - GetProfileString returns the default (here ",,,", 3 characters) when
;   WIN.INI has no `device=` line; the fresh Windows 3.1 WIN.INI of
;   C:\WINDOWS has one, "HP LaserJet III,HPPCL5A,LPT1:" (29 characters),
;   which the PRINT samples then use.
; - CreateDialog with a template whose class is registered makes a window
;   of that class (GetClassName); its window procedure gets WM_CREATE; a
;   button's BM_SETSTATE highlight shows in BM_GETSTATE (0x0004);
;   Set/GetDlgItemText work by id.
; - SetClipboardViewer returns the previous viewer (none: 0) and sends
;   WM_DRAWCLIPBOARD; CloseClipboard after a change sends it again.
;   SetClipboardData(CF_BITMAP) returns the handle; IsClipboardFormatAvailable.
; - SetCapture returns the previous capture window; GetCapture.
; - EnableWindow returns TRUE when the window was disabled before;
;   EnableMenuItem returns the item's previous state (MF_ENABLED 0).
; - EnumFonts calls the callback once per face (NULL face name) and
;   returns the callback's last answer.
; - SetTextJustification returns nonzero; with 0, 0 it clears the
;   justification, so GetTextExtent measures the plain string again.
; - GlobalAddAtom returns the same atom for the same name in any case;
;   GlobalGetAtomName returns the length copied; GlobalDeleteAtom returns 0.
; - GetAtomHandle returns 0 for an integer atom.
; - FindResource with a string type and name, LoadResource, LockResource,
;   SizeofResource (at least the data's length); LoadString.
; - GetDOSEnvironment points at NAME=value strings; LB_ADDSTRING returns
;   the index; LB_GETCOUNT; LB_GETTEXT returns the length.
; - GetKeyNameText(lParam of 'A': scan code 1Eh) is "A".
; - GetCaretPos after SetCaretPos.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

TB_DATA_SIZE equ 0x0800
WM_CREATE   equ 0x0001
WM_DESTROY  equ 0x0002
WM_DRAWCLIPBOARD equ 0x0308
WM_CHANGECBCHAIN equ 0x030D
BM_GETSTATE equ 0x0402
BM_SETSTATE equ 0x0403
LB_ADDSTRING equ 0x0401
LB_GETTEXT  equ 0x040A
LB_GETCOUNT equ 0x040C
CF_TEXT     equ 1
CF_BITMAP   equ 2
SC_CLOSE    equ 0xF060
GMEM_DDESHARE_MOVEABLE equ 0x2002
DLGWINDOWEXTRA equ 30
SRCCOPY_HI  equ 0x00CC
SRCCOPY_LO  equ 0x0020

        NE_MODULE   'TEXTBOOK', 'toolhelp16: the textbook samples probe'
        NE_HEAP     0x0800
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_IMPORT_MODULE KEYBOARD
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'FONTPROC', 2, FontProc
        NE_EXPORT   'PRINTDLGPROC', 3, PrintDlgProc
        NE_RESOURCE RT_DIALOG, 'HEXCALC', dlg_hex
        NE_RESOURCE RT_DIALOG, 'PRINTDLGBOX', dlg_print
        NE_RESOURCE 6, 1, str_block1
        NE_RESOURCE 'TEXT', 'POEM', poem
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        ; RegisterClass: the dialog's own class, as HEXCALC registers it
        mov word [wc+2], WndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov [font_proc+2], ax
        mov [print_proc+2], ax
        mov word [wc+8], DLGWINDOWEXTRA
        mov ax, [bp+6]
        mov [wc+0x0A], ax
        push 16                         ; COLOR_BTNFACE + 1
        pop word [wc+0x10]
        mov word [wc+0x16], class_name
        mov [wc+0x18], ds
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        CHECK_NZ 'RegisterClass'
        LOG_CLEAR
        push word [hinst]
        CSTR 'HexCalc'
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 89        ; CreateDialog(hInst, "HEXCALC", 0, NULL)
        mov [hwnd], ax
        CHECK_NZ 'CreateDialog with a registered class'
        CHECK_LOG 'the class procedure got WM_CREATE', WM_CREATE
        push word [hwnd]
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 58        ; GetClassName
        CHECK_STR buf, 'HexCalc', 'GetClassName of the dialog'
        push word [hwnd]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        call checks_hexcalc
        call checks_clip
        call checks_print
        call checks_fonts
        call checks_dde
        call checks_res
        call checks_env
        call checks_keys
        CHECKS_REPORT
.loop:
        PSTR msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage
        or ax, ax
        jz .done
        push word [hwnd]
        PSTR msg
        FAR_CALL_IMPORT USER, 90        ; IsDialogMessage
        or ax, ax
        jnz .loop
        PSTR msg
        FAR_CALL_IMPORT USER, 113
        PSTR msg
        FAR_CALL_IMPORT USER, 114
        jmp .loop
.done:
        mov ax, [fails]
        NEAR_EPILOGUE 4

checks_hexcalc:
        push word [hwnd]
        push 'D'
        FAR_CALL_IMPORT USER, 91        ; GetDlgItem(hDlg, 'D')
        mov [hbtn], ax
        CHECK_NZ 'GetDlgItem of button D'
        push word [hbtn]
        push BM_SETSTATE
        push 1
        PL 0
        FAR_CALL_IMPORT USER, 111
        push word [hbtn]
        push BM_GETSTATE
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 111
        and ax, 4
        CHECK 4, 'BM_SETSTATE highlighted the button'
        push word [hwnd]
        push 'W'
        CSTR '1A'
        FAR_CALL_IMPORT USER, 92        ; SetDlgItemText
        push word [hwnd]
        push 'W'
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 93        ; GetDlgItemText
        CHECK 2, 'GetDlgItemText length'
        CHECK_STR buf, '1A', 'GetDlgItemText of the display'
        push word [hbtn]
        FAR_CALL_IMPORT USER, 277       ; GetDlgCtrlID
        CHECK 'D', 'GetDlgCtrlID'
        ret

checks_clip:
        LOG_CLEAR
        push word [hwnd]
        FAR_CALL_IMPORT USER, 147       ; SetClipboardViewer
        mov [hnext], ax
        CHECK 0, 'SetClipboardViewer: no previous viewer'
        CHECK_LOG 'WM_DRAWCLIPBOARD at SetClipboardViewer', WM_DRAWCLIPBOARD
        FAR_CALL_IMPORT USER, 148       ; GetClipboardViewer
        IS_EQ [hwnd]
        CHECK 1, 'GetClipboardViewer'
        ; BLOWUP: capture the mouse, copy a piece of the screen
        push word [hwnd]
        FAR_CALL_IMPORT USER, 18        ; SetCapture
        CHECK 0, 'SetCapture: no previous capture'
        FAR_CALL_IMPORT USER, 236       ; GetCapture
        IS_EQ [hwnd]
        CHECK 1, 'GetCapture'
        push 0
        FAR_CALL_IMPORT USER, 66        ; GetDC(NULL): the screen
        mov [hdc], ax
        CHECK_NZ 'GetDC(NULL)'
        push word [hdc]
        FAR_CALL_IMPORT GDI, 52         ; CreateCompatibleDC
        mov [hdcmem], ax
        push word [hdc]
        push 32
        push 32
        FAR_CALL_IMPORT GDI, 51         ; CreateCompatibleBitmap
        mov [hbm], ax
        CHECK_NZ 'CreateCompatibleBitmap'
        push word [hdcmem]
        push word [hbm]
        FAR_CALL_IMPORT GDI, 45         ; SelectObject
        mov [hbmold], ax
        push word [hdcmem]
        push 0
        push 0
        push 32
        push 32
        push word [hdc]
        push 10
        push 10
        push 16
        push 16
        push SRCCOPY_HI
        push SRCCOPY_LO
        FAR_CALL_IMPORT GDI, 35         ; StretchBlt from the screen
        CHECK 1, 'StretchBlt from the screen DC'
        push word [hdcmem]
        push word [hbmold]
        FAR_CALL_IMPORT GDI, 45
        push word [hdcmem]
        FAR_CALL_IMPORT GDI, 68         ; DeleteDC
        push 0
        push word [hdc]
        FAR_CALL_IMPORT USER, 68        ; ReleaseDC
        FAR_CALL_IMPORT USER, 19        ; ReleaseCapture
        FAR_CALL_IMPORT USER, 236
        CHECK 0, 'no capture after ReleaseCapture'
        LOG_CLEAR
        push word [hwnd]
        FAR_CALL_IMPORT USER, 137       ; OpenClipboard
        CHECK 1, 'OpenClipboard'
        FAR_CALL_IMPORT USER, 139       ; EmptyClipboard
        CHECK 1, 'EmptyClipboard'
        push CF_BITMAP
        push word [hbm]
        FAR_CALL_IMPORT USER, 141       ; SetClipboardData(CF_BITMAP)
        IS_EQ [hbm]
        CHECK 1, 'SetClipboardData returns the bitmap'
        FAR_CALL_IMPORT USER, 138       ; CloseClipboard
        CHECK 1, 'CloseClipboard'
        CHECK_LOG 'WM_DRAWCLIPBOARD after the change', WM_DRAWCLIPBOARD
        push CF_BITMAP
        FAR_CALL_IMPORT USER, 193       ; IsClipboardFormatAvailable
        CHECK_NZ 'CF_BITMAP is on the clipboard'
        push CF_TEXT
        FAR_CALL_IMPORT USER, 193
        CHECK 0, 'CF_TEXT is not'
        ret

checks_print:
        CSTR 'windows'
        CSTR 'device'
        CSTR ',,,'
        PSTR buf
        push 64
        FAR_CALL_IMPORT KERNEL, 58      ; GetProfileString
        CHECK 29, 'the default printer of WIN.INI'
        CSTR 'DISPLAY'
        PL 0
        PL 0
        PL 0
        FAR_CALL_IMPORT GDI, 153        ; CreateIC("DISPLAY")
        mov [hdc], ax
        CHECK_NZ 'CreateIC of the display'
        push word [hdc]
        push 38                         ; RASTERCAPS
        FAR_CALL_IMPORT GDI, 80
        and ax, 1                       ; RC_BITBLT
        CHECK 1, 'the display can BitBlt'
        push word [hdc]
        FAR_CALL_IMPORT GDI, 68
        CHECK 1, 'DeleteDC of the information context'
        ; PRINT3: the modeless "printing" dialog, the main window disabled
        push word [hinst]
        CSTR 'PrintDlgBox'
        push word [hwnd]
        push word [print_proc+2]
        push word [print_proc]
        FAR_CALL_IMPORT USER, 89        ; CreateDialog
        mov [hprint], ax
        CHECK_NZ 'CreateDialog of the printing box'
        push word [hwnd]
        push 0
        FAR_CALL_IMPORT USER, 34        ; EnableWindow(hwnd, FALSE)
        CHECK 0, 'EnableWindow: was enabled'
        push word [hprint]
        push 0
        FAR_CALL_IMPORT USER, 156       ; GetSystemMenu(hDlg, FALSE)
        mov [hmenu], ax
        CHECK_NZ 'the printing box has a system menu'
        push word [hmenu]
        push SC_CLOSE
        push 1                          ; MF_GRAYED
        FAR_CALL_IMPORT USER, 155       ; EnableMenuItem
        CHECK 0, 'SC_CLOSE was enabled'
        push word [hmenu]
        push SC_CLOSE
        push 0                          ; MF_BYCOMMAND
        FAR_CALL_IMPORT USER, 250       ; GetMenuState
        and ax, 1
        CHECK 1, 'SC_CLOSE is grey'
        push word [hwnd]
        push 1
        FAR_CALL_IMPORT USER, 34        ; EnableWindow(hwnd, TRUE)
        CHECK 1, 'EnableWindow: was disabled'
        push word [hprint]
        FAR_CALL_IMPORT USER, 53        ; DestroyWindow
        CHECK 1, 'DestroyWindow of the printing box'
        mov ax, [print_init]
        CHECK 1, 'the printing box got WM_INITDIALOG'
        ret

checks_fonts:
        push word [font_proc+2]
        push word [font_proc]
        push word [hinst]
        FAR_CALL_IMPORT KERNEL, 51      ; MakeProcInstance
        mov [lpfn], ax
        mov [lpfn+2], dx
        push word [hwnd]
        FAR_CALL_IMPORT USER, 66        ; GetDC
        mov [hdc], ax
        mov word [nfonts], 0
        push word [hdc]
        PL 0
        push word [lpfn+2]
        push word [lpfn]
        PSTR nfonts
        FAR_CALL_IMPORT GDI, 70         ; EnumFonts(hdc, NULL, ...)
        CHECK 1, 'EnumFonts returns the last answer'
        mov ax, [nfonts]
        CHECK_NZ 'EnumFonts named faces'
        mov word [nsizes], 0
        push word [hdc]
        PSTR face
        push word [lpfn+2]
        push word [lpfn]
        PSTR nsizes
        FAR_CALL_IMPORT GDI, 70         ; EnumFonts(hdc, first face, ...)
        mov ax, [nsizes]
        CHECK_NZ 'EnumFonts of one face'
        ; JUSTIFY
        push word [hdc]
        PSTR s_line
        push 11
        FAR_CALL_IMPORT GDI, 91         ; GetTextExtent
        mov [ext0], ax
        CHECK_NZ 'GetTextExtent'
        push word [hdc]
        push 20
        push 2
        FAR_CALL_IMPORT GDI, 10         ; SetTextJustification(hdc, 20, 2)
        CHECK_NZ 'SetTextJustification'
        push word [hdc]
        push 10
        push 10
        PSTR s_line
        push 11
        FAR_CALL_IMPORT GDI, 33         ; TextOut
        CHECK 1, 'TextOut justified'
        push word [hdc]
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 10         ; SetTextJustification(hdc, 0, 0)
        push word [hdc]
        PSTR s_line
        push 11
        FAR_CALL_IMPORT GDI, 91
        IS_EQ [ext0]
        CHECK 1, 'cleared: the plain extent again'
        push word [hdc]
        push 32
        PSTR buf
        FAR_CALL_IMPORT GDI, 92         ; GetTextFace
        CHECK_STR buf, 'System', 'GetTextFace of a window DC'
        push word [hwnd]
        push word [hdc]
        FAR_CALL_IMPORT USER, 68
        push word [lpfn+2]
        push word [lpfn]
        FAR_CALL_IMPORT KERNEL, 52      ; FreeProcInstance
        ret

checks_dde:
        CSTR 'DdePop'
        FAR_CALL_IMPORT USER, 268       ; GlobalAddAtom
        mov [a_app], ax
        CSTR 'DDEPOP'
        FAR_CALL_IMPORT USER, 268
        IS_EQ [a_app]
        CHECK 1, 'GlobalAddAtom: one atom for any case'
        push word [a_app]
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 271       ; GlobalGetAtomName
        CHECK 6, 'GlobalGetAtomName length'
        CHECK_STR buf, 'DdePop', 'the first case is kept'
        push word [a_app]
        FAR_CALL_IMPORT USER, 269
        CHECK 0, 'GlobalDeleteAtom'
        push word [a_app]
        FAR_CALL_IMPORT USER, 269
        CHECK 0, 'GlobalDeleteAtom of the second reference'
        CSTR 'DdePop'
        FAR_CALL_IMPORT USER, 270       ; GlobalFindAtom
        CHECK 0, 'the atom is gone'
        push 5
        FAR_CALL_IMPORT KERNEL, 73      ; GetAtomHandle(an integer atom)
        CHECK 0, 'GetAtomHandle of an integer atom'
        CSTR 'Topic'
        FAR_CALL_IMPORT KERNEL, 70      ; AddAtom (a local atom)
        mov [a_app], ax
        CSTR 'TOPIC'
        FAR_CALL_IMPORT KERNEL, 70
        push word [a_app]
        FAR_CALL_IMPORT KERNEL, 73      ; GetAtomHandle
        mov [hmem], ax
        CHECK_NZ 'GetAtomHandle of a local atom'
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 10      ; LocalSize
        cmp ax, 6 + 5
        mov ax, 0
        jb .small
        inc ax
.small: CHECK 1, 'the ATOMENTRY block holds the name'
        mov bx, [hmem]
        mov ax, [bx+2]
        CHECK 2, 'ATOMENTRY refCount'
        mov al, [bx+4]
        xor ah, ah
        CHECK 5, 'ATOMENTRY length'
        lea ax, [bx+5]
        PSTR buf
        push ds
        push ax
        FAR_CALL_IMPORT KERNEL, 88      ; lstrcpy(buf, the entry's name)
        CHECK_STR buf, 'Topic', 'ATOMENTRY name'
        push word [a_app]
        FAR_CALL_IMPORT KERNEL, 71      ; DeleteAtom
        mov bx, [hmem]
        mov ax, [bx+2]
        CHECK 1, 'one reference left'
        push word [a_app]
        FAR_CALL_IMPORT KERNEL, 71
        CHECK 0, 'DeleteAtom of the last reference'
        push word [a_app]
        FAR_CALL_IMPORT KERNEL, 73
        CHECK 0, 'no handle for a deleted atom'
        push GMEM_DDESHARE_MOVEABLE
        PL 64
        FAR_CALL_IMPORT KERNEL, 15      ; GlobalAlloc(GMEM_DDESHARE)
        mov [hmem], ax
        CHECK_NZ 'GlobalAlloc(GMEM_DDESHARE)'
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 22      ; GlobalFlags
        and ax, 0x2000
        CHECK 0x2000, 'GMEM_DDESHARE in GlobalFlags'
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 17
        CHECK 0, 'GlobalFree'
        ret

checks_res:
        push word [hinst]
        CSTR 'Poem'
        CSTR 'TEXT'
        FAR_CALL_IMPORT KERNEL, 60      ; FindResource(hInst, "Poem", "TEXT")
        mov [hres], ax
        CHECK_NZ 'FindResource of a custom type'
        push word [hinst]
        push word [hres]
        FAR_CALL_IMPORT KERNEL, 65      ; SizeofResource
        cmp ax, poem_len
        mov ax, 0
        jb .small
        inc ax
.small: CHECK 1, 'SizeofResource covers the text'
        push word [hinst]
        push word [hres]
        FAR_CALL_IMPORT KERNEL, 61      ; LoadResource
        mov [hmem], ax
        CHECK_NZ 'LoadResource'
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 62      ; LockResource
        mov es, dx
        mov bx, ax
        mov al, [es:bx]
        mov ah, [es:bx+3]
        CHECK 0x7749, 'the resource bytes ("It w")'
        push ds
        pop es
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 19      ; GlobalUnlock (UnlockResource)
        push word [hmem]
        FAR_CALL_IMPORT KERNEL, 63      ; FreeResource
        CHECK 0, 'FreeResource'
        push word [hinst]
        push 1
        PSTR buf
        push 32
        FAR_CALL_IMPORT USER, 176       ; LoadString(1)
        CHECK 11, 'LoadString length'
        CHECK_STR buf, 'Annabel Lee', 'LoadString'
        ret

checks_env:
        CSTR 'listbox'
        PL 0
        PL 0x50A00001                   ; WS_CHILD|WS_VISIBLE|WS_BORDER|WS_VSCROLL|LBS_NOTIFY
        push 4
        push 4
        push 100
        push 60
        push word [hwnd]
        push 300
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41        ; CreateWindow("listbox")
        mov [hlist], ax
        CHECK_NZ 'a list box child'
        FAR_CALL_IMPORT KERNEL, 131     ; GetDOSEnvironment
        mov [lpenv], ax
        mov [lpenv+2], dx
        or dx, dx
        mov ax, dx
        CHECK_NZ 'GetDOSEnvironment'
        xor di, di                      ; the strings, up to the empty one
.next:  mov es, [lpenv+2]
        mov si, [lpenv]
        add si, di
        cmp byte [es:si], 0
        je .end
        push word [hlist]
        push LB_ADDSTRING
        push 0
        push es
        push si
        FAR_CALL_IMPORT USER, 111
        mov es, [lpenv+2]
.skip:  inc di
        cmp byte [es:si], 0
        je .over
        inc si
        jmp .skip
.over:  mov di, si
        sub di, [lpenv]
        inc di
        inc word [nenv]
        cmp word [nenv], 40
        jb .next
.end:   push ds
        pop es
        mov ax, [nenv]
        CHECK_NZ 'the environment has strings'
        push word [hlist]
        push LB_GETCOUNT
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 111
        IS_EQ [nenv]
        CHECK 1, 'LB_GETCOUNT: one item per string'
        push word [hlist]
        push LB_GETTEXT
        push 0
        PSTR buf
        FAR_CALL_IMPORT USER, 111
        CHECK_NZ 'LB_GETTEXT of item 0'
        ret

checks_keys:
        push 0x001E                     ; lParam of 'A': scan code 1Eh
        push 0x0001
        PSTR buf
        push 32
        FAR_CALL_IMPORT KEYBOARD, 133   ; GetKeyNameText
        CHECK 1, 'GetKeyNameText length'
        CHECK_STR buf, 'A', 'GetKeyNameText of scan code 1Eh'
        push word [hwnd]
        push 0
        push 2
        push 16
        FAR_CALL_IMPORT USER, 163       ; CreateCaret
        push 40
        push 24
        FAR_CALL_IMPORT USER, 165       ; SetCaretPos
        PSTR pt
        FAR_CALL_IMPORT USER, 183       ; GetCaretPos
        mov ax, [pt]
        CHECK 40, 'GetCaretPos x'
        mov ax, [pt+2]
        CHECK 24, 'GetCaretPos y'
        FAR_CALL_IMPORT USER, 164       ; DestroyCaret
        ret

; WndProc(hwnd, msg, wParam, lParam): the HexCalc class's procedure
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        je .log
        cmp ax, WM_DRAWCLIPBOARD
        je .draw
        cmp ax, WM_CHANGECBCHAIN
        je .chain
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
.log:   LOG_WORD ax
        jmp .default
.draw:  LOG_WORD ax
        mov ax, [hnext]
        or ax, ax
        jz .zero
        push ax
        push WM_DRAWCLIPBOARD
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 111
        jmp .zero
.chain: mov ax, [bp+0x0A]
        cmp ax, [hnext]
        jne .zero
        mov ax, [bp+6]
        mov [hnext], ax
        jmp .zero
.destroy:
        push word [bp+0x0E]
        push word [hnext]
        FAR_CALL_IMPORT USER, 149       ; ChangeClipboardChain
        push 0
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage
.zero:  xor ax, ax
        xor dx, dx
.out:   WIN_FAR_EPILOGUE 10

; FontProc(lplf, lptm, nFontType, lpData): count, keep the first face
FontProc:
        WIN_FAR_PROLOGUE
        les bx, [bp+6]
        inc word [es:bx]
        cmp word [es:bx], 1
        jne .ret
        cmp bx, nfonts
        jne .ret
        push ds
        pop es
        push ds
        push face
        les bx, [bp+0x10]
        push es
        lea bx, [bx+18]
        push bx
        FAR_CALL_IMPORT KERNEL, 88      ; lstrcpy
.ret:   mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 14

; PrintDlgProc(hDlg, msg, wParam, lParam)
PrintDlgProc:
        WIN_FAR_PROLOGUE
        xor ax, ax
        cmp word [bp+0x0C], 0x0110      ; WM_INITDIALOG
        jne .out
        inc word [print_init]
        mov ax, 1
.out:   WIN_FAR_EPILOGUE 10

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, TB_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hwnd:       dw 0
hbtn:       dw 0
hnext:      dw 0
hdc:        dw 0
hdcmem:     dw 0
hbm:        dw 0
hbmold:     dw 0
hprint:     dw 0
hmenu:      dw 0
hlist:      dw 0
hres:       dw 0
hmem:       dw 0
a_app:      dw 0
ext0:       dw 0
nfonts:     dw 0
nsizes:     dw 0
nenv:       dw 0
print_init: dw 0
lpfn:       dd 0
lpenv:      dd 0
pt:         dw 0, 0
font_proc:  dw FontProc, 0
print_proc: dw PrintDlgProc, 0
wc:         times 0x1A db 0
msg:        times 18 db 0
class_name: db 'HexCalc', 0
s_line:     db 'a quick fox', 0
face:       times 32 db 0
buf:        times 80 db 0
        CHECKS_DATA
        PAD_TO TB_DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_hex
        DIALOG WS_POPUP | WS_CAPTION | WS_SYSMENU | WS_VISIBLE, 3, 20, 20, 102, 122
        DLG_NAMES '', 'HexCalc', 'Hex Calculator'
        CONTROL 8, 24, 14, 14, 'D', WS_CHILD | WS_VISIBLE | BS_PUSHBUTTON, CLS_BUTTON, 'D'
        CONTROL 8, 40, 14, 14, 'A', WS_CHILD | WS_VISIBLE | BS_PUSHBUTTON, CLS_BUTTON, 'A'
        CONTROL 8, 4, 86, 14, 'W', WS_CHILD | WS_VISIBLE | BS_PUSHBUTTON, CLS_BUTTON, '0'
NE_RESDATA_END dlg_hex
NE_RESDATA dlg_print
        DIALOG WS_POPUP | WS_CAPTION | WS_SYSMENU | WS_VISIBLE | DS_MODALFRAME, 2, 40, 40, 120, 40
        DLG_NAMES '', '', 'Print'
        CONTROL 4, 4, 112, 8, -1, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, 'Printing'
        CONTROL 40, 20, 40, 14, 2, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_DEFPUSHBUTTON, CLS_BUTTON, 'Cancel'
NE_RESDATA_END dlg_print
NE_RESDATA str_block1
        db 0, 11, 'Annabel Lee'
        times 14 db 0
NE_RESDATA_END str_block1
NE_RESDATA poem
        db 'It was many and many a year ago,', 13, 10, 0
poem_len equ $ - poem
NE_RESDATA_END poem
        NE_RESOURCES_END
