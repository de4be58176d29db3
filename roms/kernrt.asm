; kernrt.asm -- KERNEL's runtime through the import thunks: files
; (_lcreat, _lwrite, _llseek, _lread, _lclose, _lopen, OpenFile with its
; OFSTRUCT), a private initialization file written back to the drive, a
; huge block across 64 KiB with __AHINCR, the real-mode selectors
; __0040H and __B800H, LoadLibrary / GetProcAddress / FreeLibrary of a DLL
; from the drive (its LibEntry and WEP), directories and temporary names,
; pointer checks, the error mode.
; output: kernrt.exe
; no-walk-expectation: a test of KERNEL services, checked by tests/win16_kernel.rs against the lines below
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run with a drive holding it and LIBDEMO.DLL, it prints:
;   file 5 0 5 hello 5 0 -1
;   openfile 1 136 C:\TEST.DAT 0 1 -1 2
;   profile 1 Val 3 7
;   huge 8 0001 1234 0002
;   real 640 000B
;   library 1 1 1 0200 1
;   WEP 0
;   freed 1 2
;   dirs 10 C:\WINDOWS C:\WINDOWS\TEMP\~TST002A.TMP  (TEMP=C:\WINDOWS\TEMP)
;   checks 1 0 1 0 1
; and exits with 0.

%include "inc/win16app.inc"
%include "inc/w16print.inc"
%include "inc/args.inc"

        WIN16_APP   'KERNRT', 'toolhelp16 test: KERNEL runtime', 2
        NE_IMPORT_MODULE USER
        NE_HEADER   2

%macro K 1
        FAR_CALL_IMPORT KERNEL, %1
%endmacro
; mov ax, <KERNEL's absolute entry> (an offset fixup of the import, as
; Microsoft's linker writes `mov ax, __AHINCR`)
%macro MOV_AX_ABS 1
        __NE_FIXUP NE_FIX_SRC_OFFSET, NE_FIX_IMPORT_ORD, __ne_modidx_KERNEL, %1
        db 0xB8
..@ne_fixloc_%[__ne_nfix]:
        dw 0xFFFF
%endmacro

        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        ; ---- files
        PSTR s_test
        push word 0
        K 83                            ; _lcreat("TEST.DAT", 0)
        mov [h], ax
        push ax
        PSTR s_hello
        push word 5
        K 86                            ; _lwrite(h, "hello", 5) = 5
        mov [v1], ax
        push word [h]
        push word 0
        push word 0
        push word 0
        K 84                            ; _llseek(h, 0, 0) = 0
        mov [v2], ax
        push word [h]
        PSTR buf2
        push word 10
        K 82                            ; _lread(h, buf2, 10) = 5
        mov [v3], ax
        push word [h]
        push word 0
        push word 0
        push word 2
        K 84                            ; _llseek(h, 0, 2) = 5
        mov [v4], ax
        push word [h]
        K 81                            ; _lclose(h) = 0
        mov [v5], ax
        PSTR s_nosuch
        push word 0
        K 85                            ; _lopen("NOSUCH.DAT", OF_READ) = -1
        push ax
        push word [v5]
        push word [v4]
        PSTR buf2
        push word [v3]
        push word [v2]
        push word [v1]
        PRINTF f_file, 16

        ; ---- OpenFile
        PSTR s_test
        PSTR ofs
        push word 0x4000
        K 74                            ; OF_EXIST: 1
        mov [v1], ax
        mov al, [ofs]
        xor ah, ah
        mov [v2], ax                    ; cBytes: 136
        PSTR s_lower
        PSTR ofs2
        push word 0x0100
        K 74                            ; OF_PARSE: 0
        mov [v3], ax
        PSTR s_test
        PSTR ofs3
        push word 0x0200
        K 74                            ; OF_DELETE: 1
        mov [v4], ax
        PSTR s_test
        PSTR ofs3
        push word 0
        K 74                            ; OF_READ, now missing: -1
        push word [ofs3 + 2]            ; nErrCode: 2
        push ax
        push word [v4]
        push word [v3]
        PSTR ofs + 8
        push word [v2]
        push word [v1]
        PRINTF f_open, 16

        ; ---- a private profile, written back to C:\WINDOWS\KERNRT.INI
        PSTR s_sec
        PSTR s_key
        PSTR s_val
        PSTR s_ini
        K 129                           ; WritePrivateProfileString: 1
        mov [v1], ax
        PSTR s_sec
        PSTR s_key
        PSTR s_empty
        PSTR buf2
        push word 16
        PSTR s_ini
        K 128                           ; GetPrivateProfileString: 3
        mov [v2], ax
        PSTR s_sec
        PSTR s_num
        push word 7
        PSTR s_ini
        K 127                           ; GetPrivateProfileInt: 7
        push ax
        push word [v2]
        PSTR buf2
        push word [v1]
        PRINTF f_prof, 10

        ; ---- a huge block: 128 KiB, its second 64 KiB at sel + __AHINCR
        push word 0x0042                ; GMEM_MOVEABLE | GMEM_ZEROINIT
        push word 2
        push word 0
        K 15                            ; GlobalAlloc(..., 0x20000)
        mov [h], ax
        push ax
        K 18                            ; GlobalLock: sel:0000
        mov [sel], dx
        MOV_AX_ABS 114                  ; __AHINCR
        mov [incr], ax
        add ax, dx
        mov [sel2], ax
        mov es, ax
        mov word [es:0], 0x1234         ; byte 10000h of the block
        push ax
        K 186                           ; GetSelectorBase(sel + __AHINCR)
        mov [v1], ax
        mov [v2], dx
        push word [sel]
        K 186                           ; GetSelectorBase(sel)
        sub [v1], ax
        sbb [v2], dx                    ; 0001:0000 apart
        push word [h]
        K 20                            ; GlobalSize: 0002:0000
        push dx
        mov es, [sel2]
        push word [es:0]
        push ds
        pop es
        push word [v2]
        push word [incr]
        PRINTF f_huge, 8
        push word [h]
        K 17                            ; GlobalFree

        ; ---- real-mode memory: the BIOS data area and the text screen
        MOV_AX_ABS 193                  ; __0040H
        mov es, ax
        mov ax, [es:0x13]               ; KiB of base memory: 640
        push ds
        pop es
        mov [v1], ax
        MOV_AX_ABS 182                  ; __B800H
        push ax
        K 186                           ; GetSelectorBase(__B800H): 000B:8000
        push dx
        push word [v1]
        PRINTF f_real, 4

        ; ---- LoadLibrary, GetProcAddress, FreeLibrary
        PSTR s_lib
        K 95                            ; LoadLibrary("LIBDEMO.DLL")
        mov [h], ax
        push ax
        PSTR s_getinfo
        K 50                            ; GetProcAddress(h, "GETINFO")
        mov [proc], ax
        mov [proc + 2], dx
        PSTR info
        call far [proc]                 ; GETINFO(&info) = hInstance
        xor bx, bx
        cmp ax, [h]
        jne .l1
        inc bx                          ; the handle LoadLibrary returned
.l1:    xor cx, cx
        cmp ax, [info]
        jne .l2
        inc cx                          ; LibEntry's DI
.l2:    push word [h]
        K 48                            ; GetModuleUsage: 1
        push ax
        push word [info + 4]            ; heap size 0200
        push word [info + 6]            ; LibEntry calls: 1
        push cx
        push bx
        PRINTF f_lib, 10
        push word [h]
        K 96                            ; FreeLibrary: WEP prints `WEP 0`
        PSTR s_libname
        K 47                            ; GetModuleHandle("LIBDEMO"): 0
        xor bx, bx
        or ax, ax
        jnz .l3
        inc bx
.l3:    push bx
        PSTR s_nosuchdll
        K 95                            ; LoadLibrary("NOSUCH.DLL"): 2
        pop bx
        push ax
        push bx
        PRINTF f_freed, 4

        ; ---- directories and temporary names
        PSTR buf2
        push word 32
        K 134                           ; GetWindowsDirectory: 10
        mov [v1], ax
        push word 0
        PSTR s_tst
        push word 0x2A
        PSTR buf3
        K 97                            ; GetTempFileName(0, "tst", 2Ah)
        PSTR buf3
        PSTR buf2
        push word [v1]
        PRINTF f_dirs, 10

        ; ---- pointer checks and the error mode
        push word 0
        push word 0
        push word 1
        K 334                           ; IsBadReadPtr(NULL, 1): 1
        mov [v1], ax
        PSTR buf2
        push word 8
        K 335                           ; IsBadWritePtr(buf2, 8): 0
        mov [v2], ax
        push cs
        push word main
        push word 1
        K 335                           ; IsBadWritePtr(code, 1): 1
        mov [v3], ax
        push word 1
        K 107                           ; SetErrorMode(1): 0
        mov [v4], ax
        push word 0
        K 107                           ; SetErrorMode(0): 1
        push ax
        push word [v4]
        push word [v3]
        push word [v2]
        push word [v1]
        PRINTF f_checks, 10
        xor ax, ax
        NEAR_EPILOGUE 4

        PRINT_BUF_SUB

        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
        times 16 db 0
h:      dw 0
sel:    dw 0
sel2:   dw 0
incr:   dw 0
v1:     dw 0
v2:     dw 0
v3:     dw 0
v4:     dw 0
v5:     dw 0
proc:   dd 0
info:   times 5 dw 0
ofs:    times 136 db 0
ofs2:   times 136 db 0
ofs3:   times 136 db 0
s_test: db 'TEST.DAT', 0
s_lower: db 'test.dat', 0
s_hello: db 'hello', 0
s_nosuch: db 'NOSUCH.DAT', 0
s_sec:  db 'Sec', 0
s_key:  db 'Key', 0
s_val:  db 'Val', 0
s_num:  db 'Num', 0
s_empty: db 0
s_ini:  db 'KERNRT.INI', 0
s_lib:  db 'LIBDEMO.DLL', 0
s_libname: db 'LIBDEMO', 0
s_nosuchdll: db 'NOSUCH.DLL', 0
s_getinfo: db 'GETINFO', 0
s_tst:  db 'tst', 0
f_file: db 'file %d %d %d %s %d %d %d', 0
f_open: db 'openfile %d %d %s %d %d %d %d', 0
f_prof: db 'profile %d %s %d %d', 0
f_huge: db 'huge %d %04X %04X %04X', 0
f_real: db 'real %d %04X', 0
f_lib:  db 'library %d %d %d %04X %d', 0
f_freed: db 'freed %d %d', 0
f_dirs: db 'dirs %d %s %s', 0
f_checks: db 'checks %d %d %d %d %d', 0
crlf:   db 13, 10
buf:    times 80 db 0
buf2:   times 40 db 0
buf3:   times 40 db 0
        NE_SEGMENT_END
