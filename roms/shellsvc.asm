; shellsvc.asm -- the other system DLLs through their thunks: COMMDLG
; (a file dialog answered by a `file` script line, one cancelled, a bad
; structure size, GetFileTitle), SHELL (the registration database, a
; ShellExecute with no association), DDEML (no server answers), KEYBOARD
; (virtual keys, the code page, ANSI to OEM), SOUND (a voice queue),
; WINSOCK (no network) and MMSYSTEM (one wave output device).
; output: shellsvc.exe
; no-walk-expectation: a test of system DLLs, checked by tests/win16_dlls.rs against the lines below
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run with the script line `file notes`, it prints:
;   open 1 c:\notes.txt 3 9 notes.txt
;   cancel 0 0 size 0 1
;   title 0 FILE.TXT
;   reg 0 0 0 txtfile 8 0 PBrush 0 2
;   exec 31
;   dde 0 1 0 400A 1
;   keys 0041 01BF 437 82
;   sound 1 0 1 0 0
;   sock 10091 3412 0100000A
;   mm 1 0 0101

%include "inc/win16app.inc"
%include "inc/w16print.inc"
%include "inc/args.inc"

        WIN16_APP   'SHELLSVC', 'toolhelp16 test: COMMDLG, SHELL, DDEML and more', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE COMMDLG
        NE_IMPORT_MODULE SHELL
        NE_IMPORT_MODULE DDEML
        NE_IMPORT_MODULE KEYBOARD
        NE_IMPORT_MODULE SOUND
        NE_IMPORT_MODULE WINSOCK
        NE_IMPORT_MODULE MMSYSTEM
        NE_HEADER   2


        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        ; ---- COMMDLG: GetOpenFileName answered `file notes`
        mov word [ofn_file], fname
        mov word [ofn_file + 2], ds
        mov word [ofn_title], ftitle
        mov word [ofn_title + 2], ds
        mov word [ofn_defext], s_txt
        mov word [ofn_defext + 2], ds
        PSTR ofn
        FAR_CALL_IMPORT COMMDLG, 1
        PSTR ftitle
        push word [ofn + 54]            ; nFileExtension
        push word [ofn + 52]            ; nFileOffset
        PSTR fname
        push ax
        PRINTF f_open, 14
        ; again: no script line is left: cancelled, error 0
        PSTR ofn
        FAR_CALL_IMPORT COMMDLG, 1
        mov si, ax
        FAR_CALL_IMPORT COMMDLG, 26     ; CommDlgExtendedError
        mov di, ax
        ; ChooseColor with lStructSize 31: FALSE, CDERR_STRUCTSIZE
        PSTR cc
        FAR_CALL_IMPORT COMMDLG, 5
        mov bx, ax
        FAR_CALL_IMPORT COMMDLG, 26
        push ax
        push bx
        push di
        push si
        PRINTF f_cancel, 8
        PSTR s_path
        PSTR buf2
        push word 20
        FAR_CALL_IMPORT COMMDLG, 27     ; GetFileTitle
        PSTR buf2
        push ax
        PRINTF f_title, 6

        ; ---- SHELL's registration database
        PL 1
        PSTR s_dottxt
        PSTR hkey
        FAR_CALL_IMPORT SHELL, 2        ; RegCreateKey(HKEY_CLASSES_ROOT, ".txt")
        mov [v1], ax
        PL 1
        PSTR s_dottxt
        PL 1
        PSTR s_txtfile
        PL 7
        FAR_CALL_IMPORT SHELL, 5        ; RegSetValue(..., REG_SZ, "txtfile", 7)
        mov [v2], ax
        mov word [cb], 32
        PL 1
        PSTR s_dottxt
        PSTR buf2
        PSTR cb
        FAR_CALL_IMPORT SHELL, 6        ; RegQueryValue: "txtfile", cb 8
        mov [v3], ax
        PL 1
        PL 0
        PSTR buf3
        PL 32
        FAR_CALL_IMPORT SHELL, 7        ; RegEnumKey(root, 0): "PBrush", the newest key
        mov [v4], ax
        PL 1
        PL 1
        PSTR buf4
        PL 32
        FAR_CALL_IMPORT SHELL, 7        ; RegEnumKey(root, 1): 0 (".pcx")
        mov [v5], ax
        PL 1
        PSTR s_nosuch
        PSTR hkey
        FAR_CALL_IMPORT SHELL, 1        ; RegOpenKey of a missing key: 2
        push ax
        push word [v5]
        PSTR buf3
        push word [v4]
        push word [cb]
        PSTR buf2
        push word [v3]
        push word [v2]
        push word [v1]
        PRINTF f_reg, 22
        push word 0
        PSTR s_open
        PSTR s_doc
        PL 0
        PL 0
        push word 1
        FAR_CALL_IMPORT SHELL, 20       ; ShellExecute of a .DOC: 31
        push ax
        PRINTF f_exec, 2

        ; ---- DDEML: nobody serves Progman
        PSTR inst
        PL 0
        PL 0
        PL 0
        FAR_CALL_IMPORT DDEML, 2        ; DdeInitialize: 0
        mov [v1], ax
        push word [inst + 2]
        push word [inst]
        PSTR s_progman
        push word 1004
        FAR_CALL_IMPORT DDEML, 21       ; DdeCreateStringHandle
        mov [hsz], ax
        mov [hsz + 2], dx
        or ax, dx
        mov [v2], ax
        push word [inst + 2]
        push word [inst]
        push word [hsz + 2]
        push word [hsz]
        push word [hsz + 2]
        push word [hsz]
        PL 0
        FAR_CALL_IMPORT DDEML, 7        ; DdeConnect: 0
        or ax, dx
        mov [v3], ax
        push word [inst + 2]
        push word [inst]
        FAR_CALL_IMPORT DDEML, 20       ; DdeGetLastError: 400Ah
        mov [v4], ax
        push word [inst + 2]
        push word [inst]
        FAR_CALL_IMPORT DDEML, 3        ; DdeUninitialize: 1
        push ax
        push word [v4]
        push word [v3]
        mov ax, [v2]
        or ax, ax
        jz .z
        mov ax, 1
.z:     push ax
        push word [v1]
        PRINTF f_dde, 10

        ; ---- KEYBOARD
        push word 'a'
        FAR_CALL_IMPORT KEYBOARD, 129   ; VkKeyScan('a'): 0041
        mov [v1], ax
        push word '?'
        FAR_CALL_IMPORT KEYBOARD, 129   ; VkKeyScan('?'): 01BF (Shift)
        mov [v2], ax
        FAR_CALL_IMPORT KEYBOARD, 132   ; GetKBCodePage: 437
        mov [v3], ax
        PSTR s_e_acute
        PSTR buf2
        FAR_CALL_IMPORT KEYBOARD, 5     ; AnsiToOem("é"): 82h
        mov al, [buf2]
        xor ah, ah
        push ax
        push word [v3]
        push word [v2]
        push word [v1]
        PRINTF f_keys, 8

        ; ---- SOUND
        FAR_CALL_IMPORT SOUND, 1        ; OpenSound: 1 voice
        mov [v1], ax
        push word 1
        push word 40
        push word 4
        push word 0
        FAR_CALL_IMPORT SOUND, 4        ; SetVoiceNote: 0
        mov [v2], ax
        push word 1
        FAR_CALL_IMPORT SOUND, 13       ; CountVoiceNotes: 1
        mov [v3], ax
        FAR_CALL_IMPORT SOUND, 9        ; StartSound: 0
        mov [v4], ax
        push word 1
        FAR_CALL_IMPORT SOUND, 13       ; CountVoiceNotes: 0
        push ax
        FAR_CALL_IMPORT SOUND, 2        ; CloseSound
        pop ax
        push ax
        push word [v4]
        push word [v3]
        push word [v2]
        push word [v1]
        PRINTF f_sound, 10

        ; ---- WINSOCK
        push word 0x0101
        PSTR wsadata
        FAR_CALL_IMPORT WINSOCK, 115    ; WSAStartup: WSASYSNOTREADY
        mov [v1], ax
        push word 0x1234
        FAR_CALL_IMPORT WINSOCK, 9      ; htons: 3412
        mov [v2], ax
        PSTR s_ip
        FAR_CALL_IMPORT WINSOCK, 10     ; inet_addr("10.0.0.1")
        push dx
        push ax
        push word [v2]
        push word [v1]
        PRINTF f_sock, 8

        ; ---- MMSYSTEM
        FAR_CALL_IMPORT MMSYSTEM, 401   ; waveOutGetNumDevs: 1 (the wave file device)
        mov [v1], ax
        PSTR s_ding
        push word 0
        FAR_CALL_IMPORT MMSYSTEM, 2     ; sndPlaySound: FALSE (no DING.WAV, no SystemDefault)
        mov [v2], ax
        FAR_CALL_IMPORT MMSYSTEM, 5     ; mmsystemGetVersion: 0101
        push ax
        push word [v2]
        push word [v1]
        PRINTF f_mm, 6
        xor ax, ax
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
ofn:    dd 72                           ; OPENFILENAME
        dw 0, 0                         ; hwndOwner, hInstance
        dd 0, 0, 0, 0                   ; filter, custom filter, max, index
ofn_file: dd 0
        dd 64                           ; nMaxFile
ofn_title: dd 0
        dd 16                           ; nMaxFileTitle
        dd 0, 0, 0                      ; initial dir, title, Flags
        dw 0, 0                         ; nFileOffset, nFileExtension
ofn_defext: dd 0
        dd 0, 0, 0                      ; lCustData, hook, template
cc:     dd 31                           ; CHOOSECOLOR with a wrong size
        times 28 db 0
v1:     dw 0
v2:     dw 0
v3:     dw 0
v4:     dw 0
v5:     dw 0
hkey:   dd 0
cb:     dd 0
inst:   dd 0
hsz:    dd 0
fname:  times 64 db 0
ftitle: times 16 db 0
wsadata: times 400 db 0
s_txt:  db 'txt', 0
s_path: db 'C:\DIR\FILE.TXT', 0
s_dottxt: db '.txt', 0
s_txtfile: db 'txtfile', 0
s_nosuch: db 'nosuch', 0
s_open: db 'open', 0
s_doc:  db 'README.DOC', 0
s_progman: db 'Progman', 0
s_e_acute: db 0xE9, 0
s_ip:   db '10.0.0.1', 0
s_ding: db 'DING.WAV', 0
f_open: db 'open %d %s %d %d %s', 0
f_cancel: db 'cancel %d %d size %d %d', 0
f_title: db 'title %d %s', 0
f_reg:  db 'reg %d %d %d %s %d %d %s %d %d', 0
f_exec: db 'exec %d', 0
f_dde:  db 'dde %d %d %d %X %d', 0
f_keys: db 'keys %04X %04X %d %X', 0
f_sound: db 'sound %d %d %d %d %d', 0
f_sock: db 'sock %u %04X %08lX', 0
f_mm:   db 'mm %d %d %04X', 0
crlf:   db 13, 10
buf:    times 80 db 0
buf2:   times 32 db 0
buf3:   times 32 db 0
buf4:   times 32 db 0
        NE_SEGMENT_END
