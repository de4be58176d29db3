; below.asm -- scenario g5: frames below pStackTop (a stack overflow).
; A function takes a 2 KiB local buffer, which moves SP below pStackTop
; (0x200) into the local heap area; the functions it calls build their
; frames down there.  The walk starts from the live BP (not checked) and
; its first step fails: the saved BP climbs but lies below pStackTop.
; output: below.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `below_stop`, in deeper):
;   start -> main -> big_locals (sub sp, 0x800) -> deep -> deeper
;   all near, s1
; Expected frames: below.expect.

%include "inc/win16app.inc"

        WIN16_APP   'BELOW', 'toolhelp16 scenario: frames below pStackTop', 2
        NE_HEADER   2

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

main:
        NEAR_PROLOGUE
        push word 0x0002
        call big_locals
        xor al, al
        NEAR_EPILOGUE 4

; void near pascal big_locals(int): char buffer[0x800]
big_locals:
        NEAR_PROLOGUE
        sub sp, 0x800
        push word 0x0004
        call deep
        NEAR_EPILOGUE 2

deep:
        NEAR_PROLOGUE
        push word 0x0006
        call deeper
        NEAR_EPILOGUE 2

deeper:
        NEAR_PROLOGUE
below_stop:
        mov ax, [bp+4]
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2: DGROUP
        DGROUP_BEGIN 2
        DGROUP_END
