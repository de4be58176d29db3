; wrap.asm -- scenario g6: a live BP so high that BP + 6 wraps past 0xFFFF.
; StackTraceCSIPFirst takes BP as it is (no checks), so the first frame
; carries BP = 0xFFFC; the first StackTraceNext fails at once.
; output: wrap.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `wrap_stop`, in scramble, while BP = 0xFFFC):
;   start -> main -> scramble    near, s1
; After the stop, scramble restores BP and the program exits normally.
; Expected frames: wrap.expect.

%include "inc/win16app.inc"

        WIN16_APP   'WRAP', 'toolhelp16 scenario: a BP whose frame wraps', 2
        NE_HEADER   2

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push word 0x0002
        call scramble
        xor al, al
        NEAR_EPILOGUE 4

scramble:
        NEAR_PROLOGUE
        mov dx, bp                      ; keep the real BP
        mov bp, 0xFFFC                  ; a wild frame pointer
wrap_stop:
        mov bp, dx
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
