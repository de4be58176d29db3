; kernsvc.asm -- KERNEL and USER services called through real thunks, the
; way a Win16 program calls them: Pascal argument order and `retf N` for
; most, cdecl for _wsprintf, a Catch/Throw across far frames, a call
; through a MakeProcInstance thunk and through a GetProcAddress pointer.
; output: kernsvc.exe
; no-walk-expectation: a test of system services, not a stack-walk scenario; tests/win16_services.rs checks what it prints
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.
;
; It prints one line per service group (each built with wsprintf) and
; exits with 0 (run with roms/ as drive C:):
;   wsprintf -5 [ok] 00ab 7  |
;   lstr 2 -1 0
;   atom C000 C000 C000 Hello 0
;   local 2 10 1 0
;   profile Value 5 42
;   catch 7 5151 D1D1
;   thunk 1
;   module C:\KERNSVC.EXE
;   modules 1 5
;   ticks 1 1
;   env COMSPEC=C:\COMMAND.COM
;   upper MIXED CASE 0C25
; With any command tail it calls FatalAppExit(0, "boom") instead.

%include "inc/ne.inc"
%include "inc/frames.inc"

        NE_MODULE   'KERNSVC', 'toolhelp16 test: KERNEL and USER services'
        NE_HEAP     0x200
        NE_STACK    0x800
        NE_ENTRY    1, start
        NE_AUTODATA 3
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_HEADER   3

; push a far pointer to a DGROUP label
%macro PUSHF 1
        push ds
        push %1
%endmacro

%macro KCALL 1
        FAR_CALL_IMPORT KERNEL, %1
%endmacro

%macro UCALL 1
        FAR_CALL_IMPORT USER, %1
%endmacro

; wsprintf(buf, format, ...) with n bytes of arguments already pushed,
; then print the result
%macro SPRINT 2
        PUSHF %1
        PUSHF buf
        UCALL 420
        add sp, %2 + 8
        call print_buf
%endmacro

; ======================================================== segment 1: code
        NE_SEGMENT  1, CODE
start:
        KCALL 91                        ; InitTask
        or ax, ax
        jnz .ok
        jmp fail
.ok:    mov [hinst], di
        cmp byte [es:0x80], 0           ; a command tail: the fatal test
        je wsp
        jmp fatal

wsp:    ; ---- wsprintf: cdecl, the last argument is pushed first
        push word 7
        push word 0xAB
        PUSHF s_ok
        push word -5
        SPRINT f_wsp, 10

        ; ---- lstrlen, lstrcmp, lstrcmpi
        PUSHF s_ok
        KCALL 90                        ; lstrlen("ok") = 2
        mov si, ax
        PUSHF s_a
        PUSHF s_B
        UCALL 430                       ; lstrcmp("a", "B") = -1
        mov di, ax
        PUSHF s_abc
        PUSHF s_ABC
        UCALL 471                       ; lstrcmpi("abc", "ABC") = 0
        push ax
        push di
        push si
        SPRINT f_lstr, 6

        ; ---- atoms
        PUSHF s_Hello
        KCALL 70                        ; AddAtom("Hello")
        mov si, ax
        PUSHF s_HELLO
        KCALL 70                        ; AddAtom("HELLO"): the same, 2 refs
        mov di, ax
        PUSHF s_hello
        KCALL 69                        ; FindAtom("hello")
        mov [tmp], ax
        push si
        PUSHF name
        push word 16
        KCALL 72                        ; GetAtomName(atom, name, 16)
        push si
        KCALL 71                        ; DeleteAtom: 1 ref left
        push si
        KCALL 71                        ; DeleteAtom: gone
        PUSHF s_hello
        KCALL 69                        ; FindAtom: 0
        push ax
        PUSHF name
        push word [tmp]
        push di
        push si
        SPRINT f_atom, 12

        ; ---- the local heap
        push word 0x0042                ; LMEM_MOVEABLE | LMEM_ZEROINIT
        push word 10
        KCALL 5                         ; LocalAlloc
        mov si, ax
        push si
        KCALL 8                         ; LocalLock
        mov di, ax
        mov byte [di], 'x'
        push si
        KCALL 10                        ; LocalSize: 10 (a 16-byte arena: 6 header bytes and the data)
        mov [tmp], ax
        push si
        KCALL 9                         ; LocalUnlock
        xor bx, bx
        cmp [si], di                    ; *(WORD *)h is the block
        jne .nd
        inc bx
.nd:    mov [tmp2], bx
        push si
        KCALL 7                         ; LocalFree: 0
        push ax
        push word [tmp2]
        push word [tmp]
        and si, 3                       ; moveable handles are 2 mod 4
        push si
        SPRINT f_local, 8

        ; ---- WIN.INI
        PUSHF s_App
        PUSHF s_Key
        PUSHF s_Value
        KCALL 59                        ; WriteProfileString
        PUSHF s_app
        PUSHF s_KEY
        PUSHF s_def
        PUSHF name
        push word 32
        KCALL 58                        ; GetProfileString: 5
        mov si, ax
        PUSHF s_App
        PUSHF s_Missing
        push word 42
        KCALL 57                        ; GetProfileInt: the default
        push ax
        push si
        PUSHF name
        SPRINT f_prof, 8

        ; ---- Catch and Throw
        mov si, 0x5151                  ; what Throw must give back
        mov di, 0xD1D1
        PUSHF cbuf
        KCALL 55                        ; Catch: 0 now, 7 after the Throw
        or ax, ax
        jnz caught
        xor si, si
        xor di, di
        FAR_CALL 2, thrower             ; does not return
        mov ax, 0x4C03
        int 0x21
caught:
        push di
        push si
        push ax
        SPRINT f_catch, 6

        ; ---- MakeProcInstance: the thunk sets AX to the instance's DS
        MOV_AX_SELECTOR 2
        push ax
        push word callback
        push word [hinst]
        KCALL 51                        ; MakeProcInstance
        mov [thunk], ax
        mov [thunk+2], dx
        xor ax, ax
        call far [thunk]
        xor di, di
        mov bx, ds
        cmp ax, bx
        jne .t1
        inc di
.t1:    push word [thunk+2]
        push word [thunk]
        KCALL 52                        ; FreeProcInstance
        push di
        SPRINT f_thunk, 2

        ; ---- GetModuleFileName
        push word [hinst]
        PUSHF name
        push word 64
        KCALL 49
        PUSHF name
        SPRINT f_mod, 4

        ; ---- GetModuleHandle, GetProcAddress
        PUSHF s_path
        KCALL 47                        ; GetModuleHandle("c:\dir\KernSvc.exe")
        mov si, ax
        push word 0
        push word [hinst]
        KCALL 47                        ; GetModuleHandle(MAKELP(0, hInstance))
        xor di, di
        or si, si
        jz .m1
        cmp ax, si
        jne .m1
        inc di
.m1:    PUSHF s_kernel
        KCALL 47                        ; GetModuleHandle("KERNEL")
        push ax
        PUSHF s_lstrlen
        KCALL 50                        ; GetProcAddress(hKernel, "lstrlen")
        mov [thunk], ax
        mov [thunk+2], dx
        PUSHF s_Hello
        call far [thunk]                ; lstrlen("Hello") = 5
        push ax
        push di
        SPRINT f_modules, 4

        ; ---- GetTickCount advances with execution; GetNumTasks
        UCALL 13
        mov [tmp], ax
        mov cx, 30000
.spin:  loop .spin                      ; 30000 instructions: 3 ms
        UCALL 13
        sub ax, [tmp]
        xor di, di
        cmp ax, 3
        jb .k1
        cmp ax, 10
        jae .k1
        inc di
.k1:    KCALL 152                       ; GetNumTasks: 1
        push ax
        push di
        SPRINT f_ticks, 4

        ; ---- GetDOSEnvironment: its first string
        KCALL 131
        push dx
        push ax
        SPRINT f_env, 4

        ; ---- AnsiUpper, GetWinFlags
        KCALL 132
        push ax
        PUSHF s_mixed
        UCALL 431                       ; AnsiUpper: the string itself
        push dx
        push ax
        SPRINT f_upper, 6

        mov ax, 0x4C00
        int 0x21

fatal:
        push word 0
        PUSHF s_boom
        KCALL 137                       ; FatalAppExit(0, "boom")
fail:
        mov ax, 0x4C01
        int 0x21

; print buf (AX = its length) and CR LF on standard output
print_buf:
        mov cx, ax
        mov dx, buf
        mov bx, 1
        mov ah, 0x40
        int 0x21
        mov cx, 2
        mov dx, crlf
        mov bx, 1
        mov ah, 0x40
        int 0x21
        ret
        NE_SEGMENT_END

; ======================================================== segment 2: code
        NE_SEGMENT  2, CODE
; far, two Windows frames deep: Throw(cbuf, 7) with DS changed
thrower:
        WIN_FAR_PROLOGUE
        FAR_CALL 2, thrower2
        WIN_FAR_EPILOGUE

thrower2:
        WIN_FAR_PROLOGUE
        push ds
        push word cbuf
        push word 7
        xor ax, ax                      ; Throw gives DS back too
        mov ds, ax
        FAR_CALL_IMPORT KERNEL, 56      ; Throw
        WIN_FAR_EPILOGUE

; far: returns what the instance thunk put in AX
callback:
        retf
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        NE_SEGMENT  3, DATA, 0x400
        times 16 db 0                   ; instance data, filled by InitTask
hinst:  dw 0
tmp:    dw 0
tmp2:   dw 0
thunk:  dd 0
cbuf:   times 9 dw 0
crlf:   db 13, 10
buf:    times 128 db 0
name:   times 64 db 0
f_wsp:  db 'wsprintf %d [%s] %04x %-3u|', 0
f_lstr: db 'lstr %d %d %d', 0
f_atom: db 'atom %X %X %X %s %X', 0
f_local: db 'local %d %d %d %d', 0
f_prof: db 'profile %s %d %d', 0
f_catch: db 'catch %d %X %X', 0
f_thunk: db 'thunk %d', 0
f_mod:  db 'module %s', 0
f_modules: db 'modules %d %d', 0
f_ticks: db 'ticks %d %d', 0
f_env:  db 'env %s', 0
f_upper: db 'upper %s %04X', 0
s_ok:   db 'ok', 0
s_a:    db 'a', 0
s_B:    db 'B', 0
s_abc:  db 'abc', 0
s_ABC:  db 'ABC', 0
s_Hello: db 'Hello', 0
s_HELLO: db 'HELLO', 0
s_hello: db 'hello', 0
s_App:  db 'App', 0
s_app:  db 'app', 0
s_Key:  db 'Key', 0
s_KEY:  db 'KEY', 0
s_Value: db 'Value', 0
s_def:  db 'def', 0
s_Missing: db 'Missing', 0
s_path: db 'c:\dir\KernSvc.exe', 0
s_kernel: db 'KERNEL', 0
s_lstrlen: db 'lstrlen', 0
s_mixed: db 'mixed Case', 0
s_boom: db 'boom', 0
        PAD_TO 0x400
        NE_SEGMENT_END
