; selfload.asm -- a self-loading Windows application (NE flag 0x0800):
; segment 1 is its own loader, which Windows 3.1 called instead of
; loading the program itself (SDK, "Self-Loading Windows Applications").
; output: selfload.exe
; no-walk-expectation: a loader test, checked by tests/win16_loader.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Segment 1 starts with the loader data table: 'A0', then far pointers to
; BootApp, LoadAppSeg and ExitProc (the program's) and room for MyAlloc,
; EntryAddrProc and SetOwner (KERNEL's). BootApp allocates segments 3
; (DGROUP, with room for the heap and the stack) and 2 with MyAlloc,
; gives them to the module with SetOwner, stores their handles in the
; information block's segment table and loads segment 2 with LoadAppSeg;
; KERNEL loads segment 3 through LoadAppSeg after BootApp returns.
; LoadAppSeg reads a segment through the DOS handle (through a data alias
; from AllocCStoDSAlias for code), applies its relocation records (imports
; through EntryAddrProc and the module reference table, selectors of its
; own segments from the segment table), marks it allocated and loaded
; (flags 0002h and 0004h) and calls PatchCodeHandle.
;
; The program (segment 2) prints, and exits with 0:
;   table 1 1 1       KERNEL filled in MyAlloc, EntryAddrProc, SetOwner
;   loaded 6 6        segments 2 and 3 are allocated and loaded
;   self-loaded 1     DS (DGROUP from the loader) holds the loaded data
;   ExitProc          the loader's ExitProc, called as the program ends

%include "inc/ne.inc"
%include "inc/frames.inc"
%include "inc/w16print.inc"

        NE_MODULE   'SELFLOAD', 'toolhelp16 test: a self-loading application'
        NE_FLAGS    0x0B02              ; self-loading, multiple data, Windows API
        NE_HEAP     0x100
        NE_STACK    0x800
        NE_ENTRY    2, start
        NE_AUTODATA 3
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_HEADER   3

; ---------------------------------------------------------------- loader
        NE_SEGMENT  1, CODE
        db 'A0'                         ; 00 version
        dw 0                            ; 02
        FAR_PTR 1, boot_app             ; 04 BootApp
        FAR_PTR 1, load_app_seg         ; 08 LoadAppSeg
        dd 0                            ; 0C
my_alloc_p:     dd 0                    ; 10 MyAlloc (KERNEL)
entry_addr_p:   dd 0                    ; 14 EntryAddrProc (KERNEL)
        FAR_PTR 1, exit_proc            ; 18 ExitProc
        dw 0, 0, 0, 0                   ; 1C
set_owner_p:    dd 0                    ; 24 SetOwner (KERNEL)

; BootApp(hBlock, hFile): pascal; [bp+8] hBlock, [bp+6] hFile.
boot_app:
        push bp
        mov bp, sp
        push ds
        push es
        push si
        push di
        mov es, [bp + 8]
        mov si, [es:0x0E]               ; DGROUP first
        call alloc_seg
        mov si, 2
.next:  mov es, [bp + 8]
        cmp si, [es:0x1C]
        ja .done
        cmp si, [es:0x0E]
        je .skip
        call alloc_seg
.skip:  inc si
        jmp .next
.done:  push word [bp + 8]              ; LoadAppSeg(hBlock, hFile, 2)
        push word [bp + 6]
        push word 2
        push cs
        call load_app_seg
        pop di
        pop si
        pop es
        pop ds
        pop bp
        retf 4

; alloc_seg: SI = segment number, [bp+8] = hBlock (BootApp's frame).
; MyAlloc(flags, size, 0), the handle into the segment table, flag 0002h,
; SetOwner(handle, hBlock).
alloc_seg:
        mov es, [bp + 8]
        mov ax, si
        call entry_of
        mov di, ax
        mov cx, [es:di + 6]             ; minimum allocation
        cmp si, [es:0x0E]
        jne .a
        add cx, [es:0x10]               ; DGROUP: + heap + stack
        add cx, [es:0x12]
.a:     push word [es:di + 4]           ; wFlags
        push cx                         ; wSize
        push word 0                     ; wElem
        call far [cs:my_alloc_p]
        mov es, [bp + 8]
        mov [es:di + 8], ax
        or word [es:di + 4], 2
        push ax                         ; SetOwner(hSel, hOwner)
        push es
        call far [cs:set_owner_p]
        ret

; entry_of: AX = segment number, ES = hBlock -> AX = its entry's offset.
entry_of:
        push cx
        push dx
        dec ax
        mov cx, 10
        mul cx
        add ax, [es:0x22]
        pop dx
        pop cx
        ret

; LoadAppSeg(hBlock, hFile, wSegID): pascal; [bp+10] hBlock, [bp+8]
; hFile, [bp+6] wSegID; AX = the segment's selector.
; locals: -2 selector, -4 alias, -6 records left, -8 KERNEL's handle,
; -12 far pointer (offset, selector), -14 the entry's offset, -22 record
SL_SEL   equ -2
SL_ALIAS equ -4
SL_LEFT  equ -6
SL_KERN  equ -8
SL_PTR   equ -12
SL_ENTRY equ -14
SL_REC   equ -22
load_app_seg:
        push bp
        mov bp, sp
        sub sp, 22
        push ds
        push es
        push si
        push di
        mov es, [bp + 10]
        mov ax, [bp + 6]
        call entry_of
        mov [bp + SL_ENTRY], ax
        mov di, ax
        mov ax, [es:di + 8]
        or ax, 1                        ; the selector of the handle
        mov [bp + SL_SEL], ax
        mov [bp + SL_ALIAS], ax
        mov bx, [es:0x28]               ; module reference 1: KERNEL
        mov ax, [es:bx]
        mov [bp + SL_KERN], ax
        test word [es:di + 4], 1
        jnz .seek
        push word [bp + SL_KERN]        ; code: a data alias to write it
        push word 170                   ; AllocCStoDSAlias
        call far [cs:entry_addr_p]
        mov [bp + SL_PTR], ax
        mov [bp + SL_PTR + 2], dx
        push word [bp + SL_SEL]
        call far [bp + SL_PTR]
        mov [bp + SL_ALIAS], ax
.seek:  mov es, [bp + 10]
        mov di, [bp + SL_ENTRY]
        mov cx, [es:0x32]               ; alignment shift (0 means 9)
        or cx, cx
        jnz .s
        mov cx, 9
.s:     mov ax, [es:di]                 ; sector
        xor dx, dx
.sh:    shl ax, 1
        rcl dx, 1
        loop .sh
        mov cx, dx                      ; lseek(hFile, CX:DX, SEEK_SET)
        mov dx, ax
        mov ax, 0x4200
        mov bx, [bp + 8]
        int 0x21
        mov cx, [es:di + 2]             ; the data: length bytes at alias:0
        mov bx, [bp + 8]
        push ds
        mov ds, [bp + SL_ALIAS]
        xor dx, dx
        mov ah, 0x3F
        int 0x21
        pop ds
        test word [es:di + 4], 0x0100   ; relocation records follow?
        jz .loaded
        push ss
        pop ds
        lea dx, [bp + SL_LEFT]
        mov cx, 2
        mov bx, [bp + 8]
        mov ah, 0x3F
        int 0x21
.rec:   push ss
        pop ds
        cmp word [bp + SL_LEFT], 0
        je .loaded
        dec word [bp + SL_LEFT]
        lea dx, [bp + SL_REC]
        mov cx, 8
        mov bx, [bp + 8]
        mov ah, 0x3F
        int 0x21
        mov es, [bp + 10]
        mov al, [bp + SL_REC + 1]       ; target kind
        and al, 3
        cmp al, 1
        je .imp
        or al, al
        jnz .rec                        ; names, OS fixups: none here
        mov al, [bp + SL_REC + 4]       ; internal: segment number
        xor ah, ah
        call entry_of
        mov bx, ax
        mov ax, [es:bx + 8]
        or ax, 1
        mov [bp + SL_PTR + 2], ax
        mov ax, [bp + SL_REC + 6]
        mov [bp + SL_PTR], ax
        jmp .patch
.imp:   mov bx, [bp + SL_REC + 4]       ; module reference -> its handle
        dec bx
        shl bx, 1
        add bx, [es:0x28]
        push word [es:bx]
        push word [bp + SL_REC + 6]     ; ordinal
        call far [cs:entry_addr_p]
        mov [bp + SL_PTR], ax
        mov [bp + SL_PTR + 2], dx
.patch: mov es, [bp + SL_ALIAS]
        mov si, [bp + SL_REC + 2]       ; the chain's first place
.ch:    mov bx, [es:si]                 ; the next place
        mov al, [bp + SL_REC]           ; source type
        cmp al, 3
        jne .c2
        mov ax, [bp + SL_PTR]
        mov [es:si], ax
        mov ax, [bp + SL_PTR + 2]
        mov [es:si + 2], ax
        jmp .cn
.c2:    cmp al, 2
        jne .c5
        mov ax, [bp + SL_PTR + 2]
        mov [es:si], ax
        jmp .cn
.c5:    mov ax, [bp + SL_PTR]
        mov [es:si], ax
.cn:    test byte [bp + SL_REC + 1], 4  ; additive: one place only
        jnz .rec
        cmp bx, 0xFFFF
        je .rec
        mov si, bx
        jmp .ch
.loaded:
        mov es, [bp + 10]
        mov di, [bp + SL_ENTRY]
        or word [es:di + 4], 6          ; allocated, loaded
        mov ax, [bp + SL_ALIAS]
        cmp ax, [bp + SL_SEL]
        je .done
        push word [bp + SL_KERN]
        push word 176                   ; FreeSelector(alias)
        call far [cs:entry_addr_p]
        mov [bp + SL_PTR], ax
        mov [bp + SL_PTR + 2], dx
        push word [bp + SL_ALIAS]
        call far [bp + SL_PTR]
        push word [bp + SL_KERN]
        push word 110                   ; PatchCodeHandle(handle)
        call far [cs:entry_addr_p]
        mov [bp + SL_PTR], ax
        mov [bp + SL_PTR + 2], dx
        mov es, [bp + 10]
        mov di, [bp + SL_ENTRY]
        push word [es:di + 8]
        call far [bp + SL_PTR]
.done:  mov ax, [bp + SL_SEL]
        pop di
        pop si
        pop es
        pop ds
        mov sp, bp
        pop bp
        retf 6

; ExitProc(hBlock): prints `ExitProc` when the program has ended.
exit_proc:
        push ds
        push cs
        pop ds
        mov dx, exit_text
        mov cx, exit_end - exit_text
        mov bx, 1
        mov ah, 0x40
        int 0x21
        pop ds
        retf 2
exit_text: db 'ExitProc', 13, 10
exit_end:
        NE_SEGMENT_END

; ---------------------------------------------------------------- program
        NE_SEGMENT  2, CODE
start:
        FAR_CALL_IMPORT KERNEL, 91      ; InitTask
        or ax, ax
        jz .fail
        call main
        mov ah, 0x4C
        int 0x21
.fail:  mov ax, 0x4C01
        int 0x21

main:
        NEAR_PROLOGUE
        push si
        push di
        ; the loader data table, as KERNEL filled it
        MOV_AX_SELECTOR 1
        mov es, ax
        mov si, 0x10
        call nonzero
        push ax
        mov si, 0x14
        call nonzero
        push ax
        mov si, 0x24
        call nonzero
        push ax
        ; reversed for cdecl: MyAlloc first
        pop ax
        pop bx
        pop cx
        push ax
        push bx
        push cx
        PRINTF f_table, 6
        ; the information block's segment table: flags of segments 2, 3
        push ds
        push word modname
        FAR_CALL_IMPORT KERNEL, 47      ; GetModuleHandle
        mov es, ax
        mov bx, [es:0x22]
        mov ax, [es:bx + 10 * 2 + 4]    ; segment 3's flags
        and ax, 6
        push ax
        mov ax, [es:bx + 10 * 1 + 4]    ; segment 2's flags
        and ax, 6
        push ax
        PRINTF f_loaded, 4
        ; DGROUP's bytes came from the file
        xor ax, ax
        cmp word [magic], 0x5A17
        jne .m
        inc ax
.m:     push ax
        PRINTF f_self, 2
        xor ax, ax
        pop di
        pop si
        NEAR_EPILOGUE 0

; nonzero: AX = 1 when the dword at ES:SI is not 0
nonzero:
        mov ax, [es:si]
        or ax, [es:si + 2]
        jz .z
        mov ax, 1
.z:     ret

        PRINT_BUF_SUB
        NE_SEGMENT_END

        NE_SEGMENT  3, DATA, 0x100
        times 16 db 0                   ; instance data (InitTask)
magic:  dw 0x5A17
modname: db 'SELFLOAD', 0
f_table: db 'table %d %d %d', 0
f_loaded: db 'loaded %d %d', 0
f_self: db 'self-loaded %d', 0
crlf:   db 13, 10
buf:    times 64 db 0
        NE_SEGMENT_END
