; plainfar.asm -- scenario c: far functions WITHOUT the odd-BP marker
; (plain `push bp; mov bp,sp` reached by `call far`), which the walk must
; still call far by the even-BP test, plus two near frames whose [BP+4]
; word is a valid code selector, which the same test wrongly calls far.
; This is a regression case: the expected frames follow toolhelp.md
; step 5 exactly, wrong answers included.
; output: plainfar.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `paint_stop`, inside fill_rect):
;   start -> main             near, s1
;     -> DrawWindow           far, NO marker, s2
;       -> draw_frame(cs)     near, s2, argument = its own CS (trap 1)
;         -> DrawControls     far, NO marker, s1
;           -> draw_later(seg2) near, s1, argument = selector of s2 (trap 2)
;             -> fill_rect    near, s1, even argument   <- stop here
; Expected frames: plainfar.expect.

%include "inc/win16app.inc"

        WIN16_APP   'PLAINFAR', 'toolhelp16 scenario: far frames without the odd-BP marker', 3
        NE_HEADER   3

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow)
main:
        NEAR_PROLOGUE
        push word 0x0200                ; DrawWindow(0x200)
        FAR_CALL 2, DrawWindow
        xor al, al
        NEAR_EPILOGUE 4

; void far pascal DrawControls(int n) -- no odd-BP marker
DrawControls:
        PLAIN_FAR_PROLOGUE
        MOV_AX_SELECTOR 2               ; draw_later(selector of segment 2)
        push ax
        call draw_later
        PLAIN_FAR_EPILOGUE 2

; void near pascal draw_later(WORD segCallback)
draw_later:
        NEAR_PROLOGUE
        push word 0x0010                ; fill_rect(0x10)
        call fill_rect
        NEAR_EPILOGUE 2

; void near pascal fill_rect(int w)
fill_rect:
        NEAR_PROLOGUE
paint_stop:
        mov ax, [bp+4]
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2
        NE_SEGMENT  2, CODE
; void far pascal DrawWindow(int hwnd) -- no odd-BP marker
DrawWindow:
        PLAIN_FAR_PROLOGUE
        push cs                         ; draw_frame(our own code selector)
        call draw_frame
        PLAIN_FAR_EPILOGUE 2

; void near pascal draw_frame(WORD segSelf)
draw_frame:
        NEAR_PROLOGUE
        push word 0x0020                ; DrawControls(0x20)
        FAR_CALL 1, DrawControls
        NEAR_EPILOGUE 2

; A table after the code makes segment 2 0x100 bytes long, so its limit
; (0xFF) exceeds every return offset in segment 1: trap 2 then passes the
; "limit > IP" part of the even-BP test.
brush_table:
        PAD_TO 0x100
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
        DGROUP_END
