; gdiscene.asm -- a Win16 program that draws a scene with GDI in its
; window's WM_PAINT: shapes with solid, hatched and dithered-free brushes, a
; wide pen, a monochrome bitmap copied and stretched, a filled region, a
; clip region, and rectangles in MM_LOMETRIC and MM_ANISOTROPIC.
; output: gdiscene.exe
; no-walk-expectation: a drawing program; tests/gdi_scene.rs checks its screenshot pixel by pixel
; Part of toolhelp16 (GPL-2.0-or-later).
;
; It prints "org XXXX YYYY" (its paint DC's origin on the screen, GetDCOrg)
; so that the test finds the scene wherever its window's client area lies.
; Under the default headless session it paints once, gets WM_CLOSE, and
; exits with code 0 from WM_DESTROY's PostQuitMessage(0).
;
; The scene, in the client area's coordinates (MM_TEXT unless said):
;   Rectangle(10,10,110,60)          red brush, black 1-pixel pen
;   Ellipse(120,10,220,60)           HS_DIAGCROSS brush, blue on white
;   RoundRect(230,10,330,60,20,20)   green brush
;   Polygon (10,70) (110,70) (60,130)   yellow brush, black pen 3 wide
;   Pie(120,70,220,130, 220,100, 170,70)  cyan brush: the top-right quarter
;   a 16x16 monochrome bitmap (top half 8 white then 8 black columns,
;   bottom half the opposite) BitBlt to (230,70), StretchBlt 32x32 to
;   (250,70)
;   FillRgn(CreateEllipticRgn(340,10,400,60)) magenta
;   Ellipse(340,70,400,130) red, clipped to CreateRectRgn(340,70,370,130)
;   MM_LOMETRIC, viewport origin (10,200): Rectangle(0,0,300,-150) with
;   GRAY_BRUSH: device (10,200)-(102,246)
;   MM_ANISOTROPIC, window extent 1x1, viewport extent 4x2, origin
;   (120,150): Rectangle(0,0,20,20) with LTGRAY_BRUSH: (120,150)-(200,190)
;   MoveTo(230,120) LineTo(330,120)  black
;   LineDDA(230,140, 330,140) calling DdaProc, which sets every other
;   point blue with SetPixel: (230,140), (232,140) ... (328,140)
;
; It also counts the display's pens with EnumObjects(OBJ_PEN) and prints
; "pens XXXX" (the VGA driver's NUMPENS: 0050).

%include "inc/win16app.inc"
%include "inc/emithex.inc"

WM_DESTROY equ 0x0002
WM_PAINT   equ 0x000F

        WIN16_APP   'GDISCENE', 'toolhelp16: a GDI scene', 2
        NE_IMPORT_MODULE USER
        NE_IMPORT_MODULE GDI
        NE_EXPORT   'WNDPROC', 1, WndProc
        NE_EXPORT   'DDAPROC', 2, DdaProc
        NE_EXPORT   'PENPROC', 3, PenProc
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
        mov word [wc+0x10], 6           ; hbrBackground = COLOR_WINDOW + 1
        mov word [wc+0x16], class_name  ; lpszClassName
        mov [wc+0x18], ds
        push ds
        push wc
        FAR_CALL_IMPORT USER, 57        ; RegisterClass
        or ax, ax
        jz .fail
        push ds                         ; CreateWindow(class,
        push class_name
        push ds                         ;   title,
        push class_name
        push 0x00CF                     ;   WS_OVERLAPPEDWINDOW,
        push 0x0000
        push 20                         ;   x, y, width, height,
        push 20
        push 440
        push 300
        push 0                          ;   no parent, no menu,
        push 0
        push word [bp+6]                ;   hInstance,
        push 0                          ;   no parameter)
        push 0
        FAR_CALL_IMPORT USER, 41
        or ax, ax
        jz .fail
        mov [hwnd], ax
        push ax
        push word [bp+4]
        FAR_CALL_IMPORT USER, 42        ; ShowWindow(hwnd, nCmdShow)
        push word [hwnd]
        FAR_CALL_IMPORT USER, 124       ; UpdateWindow(hwnd)
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
        FAR_CALL_IMPORT USER, 113       ; TranslateMessage
        push ds
        push msg
        FAR_CALL_IMPORT USER, 114       ; DispatchMessage
        jmp .loop
.done:
        mov ax, [msg+4]                 ; WM_QUIT's wParam
        NEAR_EPILOGUE 4
.fail:
        mov ax, 1
        NEAR_EPILOGUE 4

; WndProc(hwnd, msg, wParam, lParam), far pascal, exported.
WndProc:
        WIN_FAR_PROLOGUE
        mov ax, [bp+0x0C]
        cmp ax, WM_PAINT
        je .paint
        cmp ax, WM_DESTROY
        je .destroy
        push word [bp+0x0E]             ; DefWindowProc(hwnd, msg, wParam, lParam)
        push word [bp+0x0C]
        push word [bp+0x0A]
        push word [bp+8]
        push word [bp+6]
        FAR_CALL_IMPORT USER, 107
        jmp .out
.paint:
        push word [bp+0x0E]
        call OnPaint
        xor ax, ax
        xor dx, dx
        jmp .out
.destroy:
        push 0
        FAR_CALL_IMPORT USER, 6         ; PostQuitMessage(0)
        xor ax, ax
        xor dx, dx
.out:
        WIN_FAR_EPILOGUE 10

; select(hdc, object) leaves the previous object in AX
%macro SELECT 1
        push word [hdc]
        push %1
        FAR_CALL_IMPORT GDI, 45         ; SelectObject
%endmacro

; SOLID_BRUSH COLORREF-high, COLORREF-low: CreateSolidBrush, selected
%macro SOLID_BRUSH 2
        push %1
        push %2
        FAR_CALL_IMPORT GDI, 66         ; CreateSolidBrush
        SELECT ax
%endmacro

; RECT4 ordinal, l, t, r, b: GDI.ordinal(hdc, l, t, r, b)
%macro RECT4 5
        push word [hdc]
        push %2
        push %3
        push %4
        push %5
        FAR_CALL_IMPORT GDI, %1
%endmacro

; OnPaint(hwnd), near pascal: [bp+4] hwnd.
OnPaint:
        NEAR_PROLOGUE
        push word [bp+4]
        push ds
        push ps
        FAR_CALL_IMPORT USER, 39        ; BeginPaint(hwnd, &ps)
        mov [hdc], ax
        ; Say where the DC's origin lies: "org XXXX YYYY".
        push ax
        FAR_CALL_IMPORT GDI, 79         ; GetDCOrg -> DX:AX = y:x
        mov [org_y], dx
        mov di, out_x
        call EmitHex
        mov ax, [org_y]
        mov di, out_y
        call EmitHex
        mov ah, 0x09
        mov dx, out_org
        int 0x21
        ; A white background.
        push word [hdc]
        push 0
        push 0
        push 420
        push 260
        push 0x00FF                     ; WHITENESS
        push 0x0062
        FAR_CALL_IMPORT GDI, 29         ; PatBlt
        ; 1. A red rectangle (the red brush is kept for step 7).
        push 0x0000
        push 0x00FF
        FAR_CALL_IMPORT GDI, 66         ; CreateSolidBrush(red)
        mov [red], ax
        SELECT ax
        RECT4 27, 10, 10, 110, 60
        ; 2. A hatched ellipse: HS_DIAGCROSS in blue.
        push 5
        push 0x00FF
        push 0x0000
        FAR_CALL_IMPORT GDI, 58         ; CreateHatchBrush
        SELECT ax
        RECT4 24, 120, 10, 220, 60
        ; 3. A green rounded rectangle.
        SOLID_BRUSH 0x0000, 0xFF00
        call DeleteAX
        push word [hdc]
        push 230
        push 10
        push 330
        push 60
        push 20
        push 20
        FAR_CALL_IMPORT GDI, 28         ; RoundRect
        ; 4. A yellow triangle with a pen 3 pixels wide.
        push 0                          ; CreatePen(PS_SOLID, 3, black)
        push 3
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 61
        SELECT ax
        mov [old_pen], ax
        SOLID_BRUSH 0x0000, 0xFFFF
        call DeleteAX
        push word [hdc]
        push ds
        push tri
        push 3
        FAR_CALL_IMPORT GDI, 36         ; Polygon
        SELECT word [old_pen]
        call DeleteAX
        ; 5. A cyan pie: the top-right quarter.
        SOLID_BRUSH 0x00FF, 0xFF00
        call DeleteAX
        push word [hdc]
        push 120
        push 70
        push 220
        push 130
        push 220
        push 100
        push 170
        push 70
        FAR_CALL_IMPORT GDI, 26         ; Pie
        ; 6. A monochrome bitmap, copied and stretched.
        push 16
        push 16
        push 1
        push 1
        push cs
        push bitmap_bits
        FAR_CALL_IMPORT GDI, 48         ; CreateBitmap(16, 16, 1, 1, bits)
        mov [hbm], ax
        push word [hdc]
        FAR_CALL_IMPORT GDI, 52         ; CreateCompatibleDC
        mov [mdc], ax
        push ax
        push word [hbm]
        FAR_CALL_IMPORT GDI, 45         ; SelectObject(mdc, hbm)
        mov [old_bm], ax
        push word [hdc]
        push 230
        push 70
        push 16
        push 16
        push word [mdc]
        push 0
        push 0
        push 0x00CC                     ; SRCCOPY
        push 0x0020
        FAR_CALL_IMPORT GDI, 34         ; BitBlt
        push word [hdc]
        push 250
        push 70
        push 32
        push 32
        push word [mdc]
        push 0
        push 0
        push 16
        push 16
        push 0x00CC
        push 0x0020
        FAR_CALL_IMPORT GDI, 35         ; StretchBlt
        push word [mdc]
        push word [old_bm]
        FAR_CALL_IMPORT GDI, 45
        push word [mdc]
        FAR_CALL_IMPORT GDI, 68         ; DeleteDC
        push word [hbm]
        FAR_CALL_IMPORT GDI, 69         ; DeleteObject
        ; 7. A filled elliptic region, then an ellipse clipped to a
        ;    rectangle.
        push 340
        push 10
        push 400
        push 60
        FAR_CALL_IMPORT GDI, 54         ; CreateEllipticRgn
        mov [rgn], ax
        push 0x00FF                     ; magenta
        push 0x00FF
        FAR_CALL_IMPORT GDI, 66
        mov [brush], ax
        push word [hdc]
        push word [rgn]
        push ax
        FAR_CALL_IMPORT GDI, 40         ; FillRgn
        push word [brush]
        FAR_CALL_IMPORT GDI, 69
        push word [rgn]
        FAR_CALL_IMPORT GDI, 69
        push 340
        push 70
        push 370
        push 130
        FAR_CALL_IMPORT GDI, 64         ; CreateRectRgn
        mov [rgn], ax
        push word [hdc]
        push ax
        FAR_CALL_IMPORT GDI, 44         ; SelectClipRgn
        SELECT word [red]               ; the red brush again
        call DeleteAX                   ; (the cyan one goes)
        RECT4 24, 340, 70, 400, 130
        push word [hdc]
        push 0
        FAR_CALL_IMPORT GDI, 44         ; SelectClipRgn(hdc, NULL)
        push word [rgn]
        FAR_CALL_IMPORT GDI, 69
        ; 8. Mapping modes.
        push word [hdc]
        FAR_CALL_IMPORT GDI, 30         ; SaveDC
        push word [hdc]
        push 2
        FAR_CALL_IMPORT GDI, 3          ; SetMapMode(MM_LOMETRIC)
        push word [hdc]
        push 10
        push 200
        FAR_CALL_IMPORT GDI, 13         ; SetViewportOrg(10, 200)
        push 2
        FAR_CALL_IMPORT GDI, 87         ; GetStockObject(GRAY_BRUSH)
        SELECT ax
        RECT4 27, 0, 0, 300, -150
        push word [hdc]
        push -1
        FAR_CALL_IMPORT GDI, 39         ; RestoreDC(hdc, -1)
        push word [hdc]
        FAR_CALL_IMPORT GDI, 30
        push word [hdc]
        push 8
        FAR_CALL_IMPORT GDI, 3          ; SetMapMode(MM_ANISOTROPIC)
        push word [hdc]
        push 1
        push 1
        FAR_CALL_IMPORT GDI, 12         ; SetWindowExt(1, 1)
        push word [hdc]
        push 4
        push 2
        FAR_CALL_IMPORT GDI, 14         ; SetViewportExt(4, 2)
        push word [hdc]
        push 120
        push 150
        FAR_CALL_IMPORT GDI, 13         ; SetViewportOrg(120, 150)
        push 1
        FAR_CALL_IMPORT GDI, 87         ; GetStockObject(LTGRAY_BRUSH)
        SELECT ax
        RECT4 27, 0, 0, 20, 20
        push word [hdc]
        push -1
        FAR_CALL_IMPORT GDI, 39
        ; 9. A line.
        push word [hdc]
        push 230
        push 120
        FAR_CALL_IMPORT GDI, 20         ; MoveTo
        push word [hdc]
        push 330
        push 120
        FAR_CALL_IMPORT GDI, 19         ; LineTo
        ; 10. LineDDA: every other point blue.
        push 230
        push 140
        push 330
        push 140
        push cs
        push DdaProc
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 100        ; LineDDA(230, 140, 330, 140, DdaProc, 0)
        ; 11. Count the pens: "pens XXXX".
        mov word [pens], 0
        push word [hdc]
        push 1                          ; OBJ_PEN
        push cs
        push PenProc
        push 0
        push 0
        FAR_CALL_IMPORT GDI, 71         ; EnumObjects
        mov ax, [pens]
        mov di, out_pens_n
        call EmitHex
        mov ah, 0x09
        mov dx, out_pens
        int 0x21
        ; The red brush goes; the DC gets the stock brush back.
        push 0
        FAR_CALL_IMPORT GDI, 87         ; WHITE_BRUSH
        SELECT ax
        call DeleteAX
painted:                                ; the scene is complete (tests stop here)
        push word [bp+4]
        push ds
        push ps
        FAR_CALL_IMPORT USER, 40        ; EndPaint(hwnd, &ps)
        NEAR_EPILOGUE 2

; DdaProc(x, y, lpData), far pascal, exported: SetPixel(hdc, x, y, blue)
; at every other point LineDDA gives.
DdaProc:
        WIN_FAR_PROLOGUE
        xor word [dda_odd], 1
        jz .skip
        push word [hdc]
        push word [bp+0x0C]
        push word [bp+0x0A]
        push 0x00FF
        push 0x0000
        FAR_CALL_IMPORT GDI, 31         ; SetPixel
.skip:
        WIN_FAR_EPILOGUE 8

; PenProc(lpLogPen, lpData), far pascal, exported: counts, goes on.
PenProc:
        WIN_FAR_PROLOGUE
        inc word [pens]
        mov ax, 1
        xor dx, dx
        WIN_FAR_EPILOGUE 8

; DeleteObject(AX) (the brush or pen just replaced).
DeleteAX:
        push ax
        FAR_CALL_IMPORT GDI, 69
        ret

        EMIT_HEX

; 16x16 monochrome: rows 0..7 are 8 white then 8 black pixels, rows 8..15
; 8 black then 8 white (1 = white).
bitmap_bits:
        times 8 db 0xFF, 0x00
        times 8 db 0x00, 0xFF

        NE_SEGMENT_END

        DGROUP_BEGIN 2
wc:     times 0x1A db 0                 ; WNDCLASS
msg:    times 18 db 0                   ; MSG
ps:     times 32 db 0                   ; PAINTSTRUCT
hwnd:   dw 0
hdc:    dw 0
mdc:    dw 0
hbm:    dw 0
old_bm: dw 0
old_pen: dw 0
red:    dw 0
brush:  dw 0
rgn:    dw 0
org_y:  dw 0
dda_odd: dw 0
pens:   dw 0
tri:    dw 10, 70, 110, 70, 60, 130
class_name: db 'GdiScene', 0
out_org: db 'org '
out_x:  db '0000 '
out_y:  db '0000', 13, 10, '$'
out_pens: db 'pens '
out_pens_n: db '0000', 13, 10, '$'
        DGROUP_END
