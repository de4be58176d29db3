; winscript.asm -- a Win16 window that reports the input it gets: every
; WM_KEYDOWN, WM_KEYUP, WM_CHAR, WM_LBUTTONDOWN, WM_RBUTTONDOWN,
; WM_COMMAND and WM_TIMER reaching its window procedure is printed with
; OutputDebugString (KERNEL.115) as `NAME wParam lParam` (wsprintf
; "%s %04X %08lX"). It sets timer 1 (100 ms) in WM_CREATE, and kills and
; sets it again at each WM_TIMER, as one-shot timer users do; WM_COMMAND 100
; asks "Quit?" in a MB_YESNO message box, prints `MSGBOX n` with the
; answer, and destroys the window on IDYES. WM_DESTROY posts WM_QUIT 3.
; output: winscript.exe
; no-walk-expectation: an input scenario for --messages (src/win16/script.rs), checked by tests/win16_script.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Under the default headless session with no script, the empty queue
; gets three WM_TIMER ticks (user.rs, IDLE_TICKS: the count survives
; KillTimer and SetTimer), then WM_CLOSE:
;     TIMER 0001 00000000   (three times)
; and the program exits with code 3.

%include "inc/win16app.inc"

WM_CREATE      equ 0x0001
WM_DESTROY     equ 0x0002
WM_COMMAND     equ 0x0111
WM_TIMER       equ 0x0113
IDYES          equ 6
MB_YESNO       equ 4

        WIN16_APP   'WINSCRIP', 'toolhelp16: window input from a --messages script', 2
        NE_IMPORT_MODULE USER
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_HEADER   2

        NE_SEGMENT  1, CODE
        WIN16_STARTUP WinMain

; WinMain(hInstance, nCmdShow), near pascal: [bp+6] hInstance, [bp+4] nCmdShow.
WinMain:
        NEAR_PROLOGUE
        mov word [wc+2], WndProc        ; lpfnWndProc
        MOV_AX_SELECTOR 1
        mov [wc+4], ax
        mov ax, [bp+6]
        mov [wc+0x0A], ax               ; hInstance
        mov word [wc+0x16], class_name  ; lpszClassName
        mov [wc+0x18], ds
        push ds
        push wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        or ax, ax
        jz .fail
        push ds                         ; CreateWindow(class,
        push class_name
        push ds                         ;   title = the class name,
        push class_name
        push 0x00CF                     ;   WS_OVERLAPPEDWINDOW,
        push 0x0000
        push 0x8000                     ;   CW_USEDEFAULT, 0,
        push 0
        push 0x8000                     ;   CW_USEDEFAULT, 0,
        push 0
        push 0                          ;   no parent, no menu,
        push 0
        push word [bp+6]                ;   hInstance,
        push 0                          ;   no parameter)
        push 0
        FAR_CALL_IMPORT USER, 41
        or ax, ax
        jz .fail
        push ax
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow(hwnd, nCmdShow)
.loop:
        push ds
        push msg
        push 0
        push 0
        push 0
        FAR_CALL_IMPORT USER, 108       ; GetMessage(&msg, 0, 0, 0)
        or ax, ax
        jz .done
        push ds
        push msg
        FAR_CALL_IMPORT USER, 113       ; TranslateMessage(&msg)
        push ds
        push msg
        FAR_CALL_IMPORT USER, 114       ; DispatchMessage(&msg)
        jmp .loop
.done:
        mov ax, [msg+4]                 ; WM_QUIT's wParam
        NEAR_EPILOGUE 4
.fail:
        mov ax, 1
        NEAR_EPILOGUE 4

; WndProc(hwnd, msg, wParam, lParam), far pascal, exported:
; [bp+0x0E] hwnd, [bp+0x0C] msg, [bp+0x0A] wParam, [bp+6] lParam.
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        mov bx, names
.find:
        cmp word [bx], 0
        je .handle
        cmp ax, [bx]
        je .report
        add bx, 4
        jmp .find
.report:
        push word [bp+8]                ; wsprintf(buf, fmt, name, wParam, lParam)
        push word [bp+6]
        push word [bp+0x0A]
        push ds
        push word [bx+2]
        push ds
        push fmt
        push ds
        push buf
        FAR_CALL_IMPORT USER, 420
        add sp, 18
        push ds
        push buf
        FAR_CALL_IMPORT KERNEL, 115     ; OutputDebugString(buf)
.handle:
        mov ax, [bp+0x0C]
        cmp ax, WM_CREATE
        je .create
        cmp ax, WM_COMMAND
        je .command
        cmp ax, WM_DESTROY
        je .destroy
        cmp ax, WM_TIMER
        je .timer
.default:
        push word [bp+0x0E]             ; DefWindowProc(hwnd, msg, wParam, lParam)
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107
        jmp .out
.timer:
        push word [bp+0x0E]             ; KillTimer(hwnd, 1), then set it again
        push 1
        FAR_CALL_IMPORT USER, 12
.create:
        push word [bp+0x0E]             ; SetTimer(hwnd, 1, 100, NULL)
        push 1
        push 100
        push 0
        push 0
        FAR_CALL_IMPORT USER, 10
        jmp .zero
.command:
        cmp word [bp+0x0A], 100
        jne .zero
        push word [bp+0x0E]             ; MessageBox(hwnd, "Quit?", class, MB_YESNO)
        push ds
        push quit_text
        push ds
        push class_name
        push MB_YESNO
        FAR_CALL_IMPORT USER, 1
.answered:                              ; 1:0155, tests/win16_script.rs stops here
        push ax                         ; (the answer, kept for the test below)
        push ax                         ; wsprintf(buf, "MSGBOX %d", answer)
        push ds
        push fmt_box
        push ds
        push buf
        FAR_CALL_IMPORT USER, 420
        add sp, 10
        push ds
        push buf
        FAR_CALL_IMPORT KERNEL, 115
        pop ax
        cmp ax, IDYES
        jne .zero
        push word [bp+0x0E]
        FAR_CALL_IMPORT USER, 53        ; DestroyWindow(hwnd)
        jmp .zero
.destroy:
        push 3
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage(3)
.zero:
        xor ax, ax
        xor dx, dx
.out:
        WIN_FAR_EPILOGUE 10
        NE_SEGMENT_END

        DGROUP_BEGIN 2
wc:     times 0x1A db 0                 ; WNDCLASS
msg:    times 18 db 0                   ; MSG
buf:    times 32 db 0                   ; wsprintf's output
names:  dw 0x0100, n_keydown            ; the messages reported, and their names
        dw 0x0101, n_keyup
        dw 0x0102, n_char
        dw 0x0201, n_lbuttondown
        dw 0x0204, n_rbuttondown
        dw 0x0111, n_command
        dw 0x0113, n_timer
        dw 0
n_keydown:     db 'KEYDOWN', 0
n_keyup:       db 'KEYUP', 0
n_char:        db 'CHAR', 0
n_lbuttondown: db 'LBUTTONDOWN', 0
n_rbuttondown: db 'RBUTTONDOWN', 0
n_command:     db 'COMMAND', 0
n_timer:       db 'TIMER', 0
fmt:     db '%s %04X %08lX', 0
fmt_box: db 'MSGBOX %d', 0
quit_text: db 'Quit?', 0
class_name: db 'WinScript', 0
        DGROUP_END
