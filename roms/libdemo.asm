; libdemo.asm -- a Win16 DLL for the KERNEL tests: its LibEntry keeps the
; registers Windows gives it (DI = hInstance, DS = its data segment, CX =
; its heap size, ES:SI = a command line) and counts its calls; GETINFO
; (ordinal 1) returns them; WEP (ordinal 2) prints `WEP n` with its
; argument when the library is freed.
; output: libdemo.dll
; no-walk-expectation: a library for kernrt.exe and libuser.exe (tests/win16_kernel.rs)
; Part of toolhelp16 (GPL-2.0-or-later).

%include "inc/ne.inc"
%include "inc/frames.inc"

        NE_MODULE   'LIBDEMO', 'toolhelp16 test library'
        NE_FLAGS    0x8301              ; library, single data, Windows API
        NE_HEAP     0x200
        NE_STACK    0
        NE_ENTRY    1, libentry
        NE_AUTODATA 2
        NE_EXPORT   'GETINFO', 1, getinfo
        NE_EXPORT   'WEP', 1, wep
        NE_HEADER   2

        NE_SEGMENT  1, CODE
; LibEntry: far, registers in, AX = 1 (initialized) out.
libentry:
        mov [hinst], di
        mov [heap], cx
        mov [myds], ds
        mov ax, [es:si - 1]             ; the tail's length byte and first
        mov [tail], ax                  ; character (ES:SI points past it)
        inc word [calls]
        mov ax, 1
        retf

; GETINFO(lpInfo): copies hInstance, DS, heap size, LibEntry calls and the
; tail's length to lpInfo (5 words); AX = hInstance.
getinfo:
        push bp
        mov bp, sp
        push ds
        push si
        push di
        MOV_AX_SELECTOR 2
        mov ds, ax
        les di, [bp + 6]
        mov si, hinst
        mov cx, 5
        cld
        rep movsw
        mov ax, [hinst]
        pop di
        pop si
        pop ds
        pop bp
        retf 4

; WEP(nExitType): prints `WEP n`.
wep:
        push bp
        mov bp, sp
        push ds
        MOV_AX_SELECTOR 2
        mov ds, ax
        mov al, [bp + 6]
        add al, '0'
        mov [wep_n], al
        mov dx, wep_text
        mov cx, wep_end - wep_text
        mov bx, 1
        mov ah, 0x40
        int 0x21
        mov ax, 1
        pop ds
        pop bp
        retf 2
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA
hinst:  dw 0
myds:   dw 0
heap:   dw 0
calls:  dw 0
tail:   dw 0
wep_text: db 'WEP '
wep_n:  db '?', 13, 10
wep_end:
        NE_SEGMENT_END
