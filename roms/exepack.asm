; exepack.asm -- an EXEPACK unpacker stub: the code a packed .EXE starts in,
; for the EXEPACK format of Microsoft's EXEPACK 4.x and LINK /EXEPACK
; (the variant with an 18-byte header and an explicit skip_len).
; tests/exepack.rs packs roms/packme.exe with it and runs the result.
; output: exepack.bin
; no-walk-expectation: not a program: the stub a packer puts in front of a packed image
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Written from the format's documented behaviour, not from Microsoft's
; code. Sources for the facts: David Fifield's notes on EXEPACK
; (bamsoftware.com/software/exepack, doc/README.stubs and the commented
; disassemblies of the stubs seen in the wild in his exepack repository),
; the DOS Game Modding Wiki's "Microsoft EXEPACK" page, and OS/2 Museum's
; "EXEPACK and the A20-Gate" for why loading low needs the A20 wrap.
;
; The packed file: an MZ header without relocations; the load module is
; the compressed image (padded with FFh to a paragraph), then this block:
; the header below (CS:0000), this code (CS:IP = CS:0012), the packed
; relocation table. The header's exepack_size is the block's length.
;
; What the stub does, as Microsoft's:
; 1. mem_start = PSP + 10h (where the image unpacks); copy the whole
;    block, last byte first, to mem_start + dest_len (just past the
;    unpacked image) and continue in the copy.
; 2. Unpack in place, from the end down: the compressed data ends
;    skip_len paragraphs below the original block (FFh padding skipped,
;    at most 15 bytes), the image ends skip_len paragraphs below the copy.
;    Each command is read backwards: its byte, a 16-bit length below it,
;    then for B0h/B1h (fill) one byte to write `length` times, for
;    B2h/B3h (copy) `length` bytes to copy; bit 0 set marks the last
;    command; any other command byte is "Packed file is corrupt" (INT 21h
;    AH=40h on handle 2, then AX=4CFFh). Before each command both
;    pointers are normalised so the offset is as high as it can be
;    (segment -= (FFFFh - offset) >> 4, offset |= FFF0h), so a command
;    of up to FFF0h bytes never wraps its offset. When the program is
;    loaded in the first 64 KiB the segment goes below 0 and wraps to
;    FxxxH: the address is then past 1 MiB and means low memory only
;    while the A20 line is off, as on a PC where DOS loads low.
; 3. Apply the relocations: 16 sections, one per 64 KiB of the image
;    (segments 0000h, 1000h ... F000h); each is a count and that many
;    offsets; the word at (mem_start + section):offset gets mem_start
;    added (an offset of FFFFh is reached as the next paragraph's FFEFh).
; 4. DS = ES = PSP, SS:SP = real_SS + mem_start : real_SP, AX as DOS set
;    it at entry, and jump to real_CS + mem_start : real_IP.

        bits 16
        cpu 8086
        org 0

; The header, filled in by the packer.
real_ip         equ 0
real_cs         equ 2
mem_start       equ 4                   ; set by the stub at run time
exepack_size    equ 6                   ; header + stub + relocation table
real_sp         equ 8
real_ss         equ 10
dest_len        equ 12                  ; the unpacked image, paragraphs
skip_len        equ 14                  ; padding paragraphs before the block + 1
signature       equ 16                  ; "RB"

header:
        dw 0, 0, 0, 0, 0, 0, 0, 1
        db "RB"

; CS = this block as loaded, DS = ES = PSP, AX = DOS's drive check.
entry:
        mov [cs:saved_ax], ax
        mov ax, es
        add ax, 0x10
        push cs
        pop ds
        mov [mem_start], ax
        add ax, [dest_len]
        mov es, ax                      ; the block's new home
        mov cx, [exepack_size]
        mov si, cx
        dec si
        mov di, si
        std
        rep movsb                       ; last byte first: the copy may overlap
        push es
        mov ax, unpack
        push ax
        retf

saved_ax:
        dw 0

; In the copy: CS = ES = the copy, DS = the block as loaded.
unpack:
        mov bx, cs
        mov dx, [cs:skip_len]
        mov ax, ds
        sub ax, dx
        mov ds, ax                      ; the compressed data's last paragraph
        mov es, ax
        mov di, 15
        mov cx, 16
        mov al, 0xFF
        repe scasb                      ; back over the padding
        inc di
        mov si, di                      ; DS:SI = the last command's byte
        mov ax, bx
        sub ax, dx
        mov es, ax
        mov di, 15                      ; ES:DI = the image's last byte

.command:
        call normalise
        lodsb                           ; the command
        mov dl, al
        dec si
        lodsw                           ; its length, the word below it
        mov cx, ax
        inc si                          ; SI = the byte below the length
        mov al, dl
        and al, 0xFE
        cmp al, 0xB0
        je .fill
        cmp al, 0xB2
        jne corrupt
        rep movsb
        jmp short .next
.fill:
        lodsb
        rep stosb
.next:
        test dl, 1
        jz .command

        push cs
        pop ds
        mov si, relocations
        mov bx, [mem_start]
        cld
        xor dx, dx                      ; the section's segment
.section:
        lodsw
        mov cx, ax
        jcxz .next_section
        mov ax, dx
        add ax, bx
        mov es, ax
.relocation:
        lodsw
        mov di, ax
        inc ax
        jz .straddling
        add [es:di], bx
        loop .relocation
        jmp short .next_section
.straddling:                            ; the word at FFFFh: the next paragraph's FFEFh
        mov ax, es
        inc ax
        mov es, ax
        add [es:0xFFEF], bx
        dec ax
        mov es, ax
        loop .relocation
.next_section:
        add dx, 0x1000
        jnz .section

        mov ax, bx
        add [real_cs], ax
        mov dx, [real_ss]
        add dx, ax
        mov cx, [real_sp]
        sub ax, 0x10                    ; the PSP
        mov ds, ax
        mov es, ax
        cli
        mov ss, dx
        mov sp, cx
        sti
        mov ax, [cs:saved_ax]
        jmp far [cs:real_ip]

; normalise: DS:SI and ES:DI with the highest offset for the same
; address; the segments go below 0 (and wrap) when the image is low.
normalise:
        mov ax, si
        not ax
        mov cl, 4
        shr ax, cl
        mov cx, ds
        sub cx, ax
        mov ds, cx
        or si, 0xFFF0
        mov ax, di
        not ax
        mov cl, 4
        shr ax, cl
        mov cx, es
        sub cx, ax
        mov es, cx
        or di, 0xFFF0
        ret

corrupt:
        cld
        mov ah, 0x40
        mov bx, 2
        mov cx, message_end - message
        push cs
        pop ds
        mov dx, message
        int 0x21
        mov ax, 0x4CFF
        int 0x21
message:
        db "Packed file is corrupt"
message_end:

relocations:
