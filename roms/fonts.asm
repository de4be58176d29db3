; fonts.asm -- a Win16 program that measures and draws text in two fonts:
; the stock System font, and "MS Sans Serif" at 8 points (CreateFont with
; lfHeight -11, a character height) in bold, which GDI simulates. It draws
; into a 128 x 64 monochrome bitmap selected into a memory DC, also
; through a metafile it records and plays record by record from an
; EnumMetaFile callback, reads the bits back, and keeps everything it
; learnt in its data segment, where tests/text.rs reads it when the
; program reaches `done_here`.
; output: fonts.exe
; no-walk-expectation: a text and font scenario, checked by tests/text.rs
; Part of toolhelp16 (GPL-2.0-or-later).
;
; What it does, in order (the results' offsets in DGROUP are fixed: the
; test reads them there):
;   hdc = CreateCompatibleDC(0); hbm = CreateBitmap(128, 48, 1, 1, NULL)
;   SelectObject(hdc, hbm); PatBlt(hdc, 0, 0, 128, 48, WHITENESS)
;   SelectObject(hdc, GetStockObject(SYSTEM_FONT))
;   GetTextMetrics -> tm1; GetTextExtent("Hello") -> ext1
;   TextOut(hdc, 2, 2, "Hello")
;   hf = CreateFont(-11, 0, 0, 0, FW_BOLD, 0, 0, 0, ANSI_CHARSET, 0, 0, 0,
;                   0, "MS Sans Serif"); SelectObject(hdc, hf)
;   GetTextMetrics -> tm2; GetTextExtent("World") -> ext2;
;   GetTextFace -> face2
;   TextOut(hdc, 2, 24, "World")
;   DrawText(hdc, para, -1, &rect{0,0,60,0}, DT_WORDBREAK | DT_CALCRECT)
;     -> dt_height, dt_rect
;   GetCharWidth(hdc, 'A', 'E', widths2)
;   EnumFonts(hdc, NULL, EnumProc, 0): EnumProc counts the faces -> nfaces
;   EnumFontFamilies(hdc, "MS Sans Serif", FamProc, 0): the sizes -> famh
;   hmdc = CreateMetaFile(NULL); TextOut(hmdc, 2, 44, "Meta");
;   hmf = CloseMetaFile(hmdc); EnumMetaFile(hdc, hmf, MetaProc, 0), where
;   MetaProc counts the records and plays each (PlayMetaFileRecord);
;   DeleteMetaFile(hmf)
;   GetBitmapBits(hbm, 1024, pixels)
;   SelectObject back, DeleteObject(hf), DeleteDC(hdc), DeleteObject(hbm)
; done_here: the test's stop; then the program exits with 0.

%include "inc/ne.inc"
%include "inc/frames.inc"

BMW         equ 128
BMH         equ 64
WHITENESS_LO equ 0x0062
WHITENESS_HI equ 0x00FF
SYSTEM_FONT equ 13
DT_WORDBREAK equ 0x0010
DT_CALCRECT equ 0x0400

        NE_MODULE   'FONTS', 'toolhelp16: text in two fonts, measured and drawn'
        NE_HEAP     0x100
        NE_STACK    0x800
        NE_ENTRY    1, start
        NE_AUTODATA 2
        NE_IMPORT_MODULE KERNEL
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'ENUMPROC', 1, EnumProc
        NE_EXPORT   'FAMPROC', 1, FamProc
        NE_EXPORT   'METAPROC', 1, MetaProc
        NE_HEADER   2

        NE_SEGMENT  1, CODE
start:
        FAR_CALL_IMPORT KERNEL, 91      ; InitTask
        or ax, ax
        jz .fail
        call Main
        mov ah, 0x4C                    ; exit(AL)
        int 0x21
.fail:
        mov ax, 0x4C01
        int 0x21

Main:
        NEAR_PROLOGUE
        push 0
        FAR_CALL_IMPORT GDI, 52         ; CreateCompatibleDC(0)
        mov [hdc], ax
        push BMW                        ; CreateBitmap(128, 48, 1, 1, NULL)
        push BMH
        push 1
        push 1
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 48
        mov [hbm], ax
        push word [hdc]
        push ax
        FAR_CALL_IMPORT GDI, 45         ; SelectObject(hdc, hbm)
        mov [oldbm], ax
        push word [hdc]                 ; PatBlt(hdc, 0, 0, 128, 48, WHITENESS)
        push 0
        push 0
        push BMW
        push BMH
        push WHITENESS_HI
        push WHITENESS_LO
        FAR_CALL_IMPORT GDI, 29

        ; The System font.
        push SYSTEM_FONT
        FAR_CALL_IMPORT GDI, 87         ; GetStockObject(SYSTEM_FONT)
        push word [hdc]
        push ax
        FAR_CALL_IMPORT GDI, 45         ; SelectObject
        mov [oldfont], ax
        push word [hdc]
        push ds
        push tm1
        FAR_CALL_IMPORT GDI, 93         ; GetTextMetrics(hdc, &tm1)
        push word [hdc]
        push ds
        push hello
        push 5
        FAR_CALL_IMPORT GDI, 91         ; GetTextExtent(hdc, "Hello", 5)
        mov [ext1], ax
        mov [ext1+2], dx
        push word [hdc]
        push 2
        push 2
        push ds
        push hello
        push 5
        FAR_CALL_IMPORT GDI, 33         ; TextOut(hdc, 2, 2, "Hello", 5)

        ; MS Sans Serif, 8 points, bold.
        push -11                        ; nHeight: character height 11
        push 0                          ; nWidth
        push 0                          ; nEscapement
        push 0                          ; nOrientation
        push 700                        ; FW_BOLD
        push 0                          ; italic
        push 0                          ; underline
        push 0                          ; strike-out
        push 0                          ; ANSI_CHARSET
        push 0                          ; OUT_DEFAULT_PRECIS
        push 0                          ; CLIP_DEFAULT_PRECIS
        push 0                          ; DEFAULT_QUALITY
        push 0                          ; DEFAULT_PITCH | FF_DONTCARE
        push ds
        push face_req
        FAR_CALL_IMPORT GDI, 56         ; CreateFont
        mov [hfont], ax
        push word [hdc]
        push ax
        FAR_CALL_IMPORT GDI, 45         ; SelectObject(hdc, hfont)
        push word [hdc]
        push ds
        push tm2
        FAR_CALL_IMPORT GDI, 93         ; GetTextMetrics(hdc, &tm2)
        push word [hdc]
        push ds
        push world
        push 5
        FAR_CALL_IMPORT GDI, 91         ; GetTextExtent(hdc, "World", 5)
        mov [ext2], ax
        mov [ext2+2], dx
        push word [hdc]
        push 32
        push ds
        push face2
        FAR_CALL_IMPORT GDI, 92         ; GetTextFace(hdc, 32, face2)
        mov [facelen], ax
        push word [hdc]
        push 2
        push 24
        push ds
        push world
        push 5
        FAR_CALL_IMPORT GDI, 33         ; TextOut(hdc, 2, 24, "World", 5)

        ; A paragraph measured by DrawText.
        push word [hdc]
        push ds
        push para
        push -1
        push ds
        push dt_rect
        push DT_WORDBREAK | DT_CALCRECT
        FAR_CALL_IMPORT USER, 85        ; DrawText
        mov [dt_height], ax
        push word [hdc]
        push 'A'
        push 'E'
        push ds
        push widths2
        FAR_CALL_IMPORT GDI, 350        ; GetCharWidth(hdc, 'A', 'E', widths2)

        ; Count the faces.
        push word [hdc]
        push 0                          ; lpFacename NULL
        push 0
        MOV_AX_SELECTOR 1
        push ax                         ; EnumProc
        push EnumProc
        push 0                          ; lpData
        push 0
        FAR_CALL_IMPORT GDI, 70         ; EnumFonts
        mov [enumret], ax

        ; The sizes of MS Sans Serif.
        push word [hdc]
        push ds
        push face_req
        MOV_AX_SELECTOR 1
        push ax
        push FamProc
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 330        ; EnumFontFamilies
        mov [famret], ax

        ; A metafile, enumerated and played record by record.
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 125        ; CreateMetaFile(NULL)
        mov [hmdc], ax
        push ax
        push 2
        push 44
        push ds
        push meta
        push 4
        FAR_CALL_IMPORT GDI, 33         ; TextOut(hmdc, 2, 44, "Meta", 4)
        push word [hmdc]
        FAR_CALL_IMPORT GDI, 126        ; CloseMetaFile
        mov [hmf], ax
        push word [hdc]
        push ax
        MOV_AX_SELECTOR 1
        push ax
        push MetaProc
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 175        ; EnumMetaFile
        mov [emfret], ax
        push word [hmf]
        FAR_CALL_IMPORT GDI, 127        ; DeleteMetaFile

        ; The pixels.
        push word [hbm]
        push 0
        push (BMW / 8) * BMH
        push ds
        push pixels
        FAR_CALL_IMPORT GDI, 74         ; GetBitmapBits(hbm, 1024, pixels)
        mov [nbits], ax

        ; Clean up.
        push word [hdc]
        push word [oldfont]
        FAR_CALL_IMPORT GDI, 45
        push word [hfont]
        FAR_CALL_IMPORT GDI, 69         ; DeleteObject(hfont)
        mov [deleted], ax
        push word [hdc]
        push word [oldbm]
        FAR_CALL_IMPORT GDI, 45
        push word [hdc]
        FAR_CALL_IMPORT GDI, 68         ; DeleteDC
        push word [hbm]
        FAR_CALL_IMPORT GDI, 69
done_here:
        xor ax, ax
        NEAR_EPILOGUE

; EnumProc(lpLogFont, lpTextMetric, nFontType, lpData), far pascal,
; exported: [bp+0x10] lpLogFont, [bp+0x0C] lpTextMetric, [bp+0x0A]
; nFontType, [bp+6] lpData. Counts the call, keeps the first face's
; LOGFONT, returns 1 (go on).
EnumProc:
        WIN_FAR_PROLOGUE
        inc word [nfaces]
        cmp word [nfaces], 1
        jne .out
        push si
        push di
        push ds
        mov ax, ds
        mov es, ax
        mov di, lf_first
        lds si, [bp+0x10]
        mov cx, 50
        cld
        rep movsb
        pop ds
        pop di
        pop si
.out:
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 14

; FamProc(lpEnumLogFont, lpNewTextMetric, nFontType, lpData), far
; pascal, exported: keeps each font's lfHeight (at most 8), returns 1.
FamProc:
        WIN_FAR_PROLOGUE
        mov bx, [nfam]
        cmp bx, 8
        jae .full
        shl bx, 1
        les di, [bp+0x10]
        mov ax, [es:di]                 ; lfHeight
        mov [famh+bx], ax
.full:
        inc word [nfam]
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 14

; MetaProc(hDC, lpHTable, lpMFR, nObj, lpClientData), far pascal,
; exported: [bp+0x14] hDC, [bp+0x10] lpHTable, [bp+0x0C] lpMFR,
; [bp+0x0A] nObj, [bp+6] lpClientData. Counts the record, plays it.
MetaProc:
        WIN_FAR_PROLOGUE
        inc word [nrecs]
        push word [bp+0x14]
        push word [bp+0x12]
        push word [bp+0x10]
        push word [bp+0x0E]
        push word [bp+0x0C]
        push word [bp+0x0A]
        FAR_CALL_IMPORT GDI, 176        ; PlayMetaFileRecord
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 16
        NE_SEGMENT_END

        NE_SEGMENT  2, DATA, 0x800
instance_data:
        times 16 db 0                   ; filled by InitTask
results:                                ; 0x10
tm1:        times 32 db 0               ; 0x10 TEXTMETRIC of the System font
ext1:       dd 0                        ; 0x30 GetTextExtent("Hello")
tm2:        times 32 db 0               ; 0x34 TEXTMETRIC of MS Sans Serif bold
ext2:       dd 0                        ; 0x54 GetTextExtent("World")
face2:      times 32 db 0               ; 0x58 GetTextFace
facelen:    dw 0                        ; 0x78 its return value
dt_height:  dw 0                        ; 0x7A DrawText's return value
dt_rect:    dw 0, 0, 60, 0              ; 0x7C the rectangle, DT_CALCRECT's
widths2:    times 5 dw 0                ; 0x84 GetCharWidth('A'..'E')
nfaces:     dw 0                        ; 0x8E EnumProc's calls
enumret:    dw 0                        ; 0x90 EnumFonts' return value
nbits:      dw 0                        ; 0x92 GetBitmapBits' return value
deleted:    dw 0                        ; 0x94 DeleteObject(hfont)
lf_first:   times 50 db 0               ; 0x96 the first LOGFONT enumerated
nfam:       dw 0                        ; 0xC8 FamProc's calls
famh:       times 8 dw 0                ; 0xCA their lfHeights
famret:     dw 0                        ; 0xDA EnumFontFamilies' return value
nrecs:      dw 0                        ; 0xDC MetaProc's calls
emfret:     dw 0                        ; 0xDE EnumMetaFile's return value
        NE_ASSERT (tm1 - instance_data) == 0x10
        NE_ASSERT (ext2 - instance_data) == 0x54
        NE_ASSERT (lf_first - instance_data) == 0x96
        NE_ASSERT (emfret - instance_data) == 0xDE
        PAD_TO 0x100
pixels:     times (BMW / 8) * BMH db 0  ; 0x100..0x500 the bitmap's bits
hdc:        dw 0
hbm:        dw 0
oldbm:      dw 0
oldfont:    dw 0
hfont:      dw 0
hmdc:       dw 0
hmf:        dw 0
meta:       db 'Meta'
hello:      db 'Hello'
world:      db 'World'
face_req:   db 'MS Sans Serif', 0
para:       db 'The quick brown fox jumps over the lazy dog.', 0
        NE_SEGMENT_END
