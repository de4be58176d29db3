; mixed.asm -- scenario b: Windows far frames (odd saved BP) and near frames
; mixed, over two code segments, including a far call within segment 1.
; output: mixed.exe
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Call chain (stop at `hash_stop`, inside hash_step):
;   start -> main           near, s1
;     -> ReadConfig         far (odd BP), s2
;       -> parse_line       near, s2
;         -> parse_token    near, s2
;           -> LookupSymbol far (odd BP), s1
;             -> HashName   far (odd BP), s1, called far from s1
;               -> hash_step near, s1               <- stop here
; Near functions always get an even argument, so no near frame's [BP+4]
; can look like a ring-3 code selector.  Expected frames: mixed.expect.

%include "inc/win16app.inc"

        WIN16_APP   'MIXED', 'toolhelp16 scenario: far (odd BP) and near frames mixed', 3
        NE_HEADER   3

; ======================================================== segment 1
        NE_SEGMENT  1, CODE
        WIN16_STARTUP main

; int near pascal main(HINSTANCE, int nCmdShow)
main:
        NEAR_PROLOGUE
        push word 0x0100                ; ReadConfig(0x100)
        FAR_CALL 2, ReadConfig
        xor al, al
        NEAR_EPILOGUE 4

; int far pascal LookupSymbol(int name)
LookupSymbol:
        WIN_FAR_PROLOGUE
        push word [bp+6]                ; HashName(name)
        FAR_CALL 1, HashName
        WIN_FAR_EPILOGUE 2

; int far pascal HashName(int name)
HashName:
        WIN_FAR_PROLOGUE
        push word 0x0002                ; hash_step(2)
        call hash_step
        WIN_FAR_EPILOGUE 2

; int near pascal hash_step(int n)
hash_step:
        NEAR_PROLOGUE
hash_stop:
        mov ax, [bp+4]
        add ax, ax
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 2
        NE_SEGMENT  2, CODE
; int far pascal ReadConfig(int size)
ReadConfig:
        WIN_FAR_PROLOGUE
        push word 0x0040                ; parse_line(0x40)
        call parse_line
        WIN_FAR_EPILOGUE 2

; int near pascal parse_line(int len)
parse_line:
        NEAR_PROLOGUE
        push word 0x0008                ; parse_token(8)
        call parse_token
        NEAR_EPILOGUE 2

; int near pascal parse_token(int len)
parse_token:
        NEAR_PROLOGUE
        push word 0x0004                ; LookupSymbol(4)
        FAR_CALL 1, LookupSymbol
        NEAR_EPILOGUE 2
        NE_SEGMENT_END

; ======================================================== segment 3: DGROUP
        DGROUP_BEGIN 3
        DGROUP_END
