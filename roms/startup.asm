; startup.asm -- a program that asks something before its main window, as
; many samples and real programs do: a modal dialog box from WinMain
; (DialogBox with no owner), then a modeless "splash" dialog, the main
; window shown while the splash still is, the splash destroyed, and the
; main window's GetMessage loop. Run with no
; script, the session answers the modal dialog as Escape does (IDCANCEL),
; a second one whose procedure ignores IDCANCEL with WM_CLOSE,
; and its WM_CLOSE goes to the task's top-level window that is still
; there when the first ones are gone: the real main window, whose DefWindowProc destroys it (WM_DESTROY posts the
; quit). The program prints `checks N fails M` and exits with the number
; of failures, plus one if its main window did not get exactly one
; WM_CLOSE.
; output: startup.exe
; no-walk-expectation: a test of the headless session's main window after startup dialogs, checked by tests/win16_dlls.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; The SDK pages behind the expected values:
; - DialogBox returns the value given to EndDialog; WM_INITDIALOG comes
;   first; Escape sends WM_COMMAND IDCANCEL (2); the Close item (or
;   Alt+F4) sends WM_CLOSE, on which a dialog procedure may end its
;   dialog itself (here with 7) when it ignores IDCANCEL.
; - CreateDialog returns the dialog; DestroyWindow returns TRUE.

%include "inc/win16app.inc"
%include "inc/dialog.inc"
%include "inc/checks.inc"
%include "inc/args.inc"

SU_DATA_SIZE equ 0x0400
WM_DESTROY  equ 0x0002
WM_CLOSE    equ 0x0010
WM_INITDIALOG equ 0x0110
WM_COMMAND  equ 0x0111

        NE_MODULE   'STARTUP', 'toolhelp16: dialogs before the main window'
        NE_HEAP     0x0400
        NE_STACK    0x1000
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'ASKPROC', 2, AskProc
        NE_EXPORT   'CLOSEPROC', 3, CloseProc
        NE_RESOURCE RT_DIALOG, 'ASK', dlg_ask
        NE_RESOURCE RT_DIALOG, 'SPLASH', dlg_splash
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

WinMain:
        NEAR_PROLOGUE
        mov ax, [bp+6]
        mov [hinst], ax
        mov [wc+0x0A], ax
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov [ask_proc+2], ax
        mov [close_proc+2], ax
        mov word [wc+2], WndProc
        mov word [wc+0x10], 6           ; COLOR_WINDOW + 1
        mov word [wc+0x16], class_name
        mov [wc+0x18], ds
        LOG_CLEAR
        push word [hinst]
        CSTR 'Ask'
        push 0
        push word [ask_proc+2]
        push word [ask_proc]
        FAR_CALL_IMPORT USER, 87        ; DialogBox(hInst, "ASK", NULL, AskProc)
        CHECK 2, 'the modal dialog ended with IDCANCEL'
        CHECK_LOG 'WM_INITDIALOG, then IDCANCEL', WM_INITDIALOG, 2
        push word [hinst]
        CSTR 'Ask'
        push 0
        push word [close_proc+2]
        push word [close_proc]
        FAR_CALL_IMPORT USER, 87        ; DialogBox(hInst, "ASK", NULL, CloseProc)
        CHECK 7, 'a procedure that ignores IDCANCEL ended on WM_CLOSE'
        push word [hinst]
        CSTR 'Splash'
        push 0
        PL 0
        FAR_CALL_IMPORT USER, 89        ; CreateDialog(hInst, "SPLASH", NULL, NULL)
        mov [hsplash], ax
        CHECK_NZ 'CreateDialog of the splash'
        PSTR wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        CHECK_NZ 'RegisterClass'
        PSTR class_name
        PSTR class_name
        PL 0x00CF0000                   ; WS_OVERLAPPEDWINDOW
        push word 0x8000
        push 0
        push word 0x8000
        push 0
        push 0
        push 0
        push word [hinst]
        PL 0
        FAR_CALL_IMPORT USER, 41        ; CreateWindow
        mov [hwnd], ax
        CHECK_NZ 'CreateWindow'
        push word [hwnd]
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow
        push word [hsplash]
        FAR_CALL_IMPORT USER, 53        ; DestroyWindow(the splash, shown first)
        CHECK 1, 'DestroyWindow of the splash'
        CHECKS_REPORT
.loop:  PSTR msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage
        or ax, ax
        jz .done
        PSTR msg
        FAR_CALL_IMPORT USER, 113
        PSTR msg
        FAR_CALL_IMPORT USER, 114
        jmp .loop
.done:  mov ax, [closes]
        xor ax, 1
        add ax, [fails]
        NEAR_EPILOGUE 4

; WndProc(hwnd, msg, wParam, lParam)
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_CLOSE
        jne .notclose
        inc word [closes]
.notclose:
        cmp ax, WM_DESTROY
        jne .default
        push 0
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage
        xor ax, ax
        xor dx, dx
        jmp .out
.default:
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107       ; DefWindowProc
.out:   WIN_FAR_EPILOGUE 10

; AskProc(hDlg, msg, wParam, lParam)
AskProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_INITDIALOG
        jne .cmd
        LOG_WORD ax
        mov ax, 1
        jmp .out
.cmd:   cmp ax, WM_COMMAND
        jne .no
        mov ax, [bp+0x0A]
        LOG_WORD ax
        push word [bp+0x0E]
        push ax
        FAR_CALL_IMPORT USER, 88        ; EndDialog(hDlg, id)
        mov ax, 1
        jmp .out
.no:    xor ax, ax
.out:   WIN_FAR_EPILOGUE 10

; CloseProc(hDlg, msg, wParam, lParam): ends its dialog on WM_CLOSE only
CloseProc:
        WIN_FAR_PROLOGUE
        mov ax, 1
        cmp word [bp+0x0C], WM_INITDIALOG
        je .out
        xor ax, ax
        cmp word [bp+0x0C], WM_CLOSE
        jne .out
        push word [bp+0x0E]
        push 7
        FAR_CALL_IMPORT USER, 88        ; EndDialog(hDlg, 7)
        mov ax, 1
.out:   WIN_FAR_EPILOGUE 10

        CHECKS_CODE
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, SU_DATA_SIZE
instance_data:
        times 16 db 0
hinst:      dw 0
hwnd:       dw 0
hsplash:    dw 0
closes:     dw 0
ask_proc:   dw AskProc, 0
close_proc: dw CloseProc, 0
wc:         times 0x1A db 0
msg:        times 18 db 0
class_name: db 'Startup', 0
        CHECKS_DATA
        PAD_TO SU_DATA_SIZE
        NE_SEGMENT_END

        NE_RESOURCES_BEGIN
NE_RESDATA dlg_ask
        DIALOG WS_POPUP | WS_CAPTION | WS_SYSMENU | WS_VISIBLE | DS_MODALFRAME, 2, 30, 30, 120, 50
        DLG_NAMES '', '', 'Start'
        CONTROL 10, 28, 40, 14, IDOK, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_DEFPUSHBUTTON, CLS_BUTTON, 'OK'
        CONTROL 60, 28, 40, 14, IDCANCEL, WS_CHILD | WS_VISIBLE | WS_TABSTOP | BS_PUSHBUTTON, CLS_BUTTON, 'Cancel'
NE_RESDATA_END dlg_ask
NE_RESDATA dlg_splash
        DIALOG WS_POPUP | WS_BORDER | WS_VISIBLE, 1, 40, 40, 100, 30
        DLG_NAMES '', '', ''
        CONTROL 4, 10, 92, 8, -1, WS_CHILD | WS_VISIBLE | SS_LEFT, CLS_STATIC, 'Loading'
NE_RESDATA_END dlg_splash
        NE_RESOURCES_END
