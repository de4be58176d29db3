; dossafe.asm -- a DOS .COM that does to its drive what the sandbox must
; contain: it opens a FIFO and a hard-linked file, deletes, creates and
; renames files in its own directory, and writes until the disk is full.
; output: dossafe.com
; no-walk-expectation: a sandbox behaviour test (console output, files), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; tests/sandbox.rs runs it from a directory holding PIPE.TXT (a FIFO),
; LINK.TXT (a second hard link to a file outside that directory),
; DATA.TXT and OLD.TXT, with --disk-quota 64K.
; Steps, one line each (every line ends CR LF):
;   open PIPE.TXT error XXXX        3D00h on the FIFO (it must fail at once)
;   open LINK.TXT ok | error XXXX   3D01h; when it opens, "X" is written
;   delete DATA.TXT ok | error XXXX 41h
;   create NEW.TXT ok               3Ch, 40h "new", 3Eh
;   rename OLD.TXT ok | error XXXX  56h OLD.TXT -> REN.TXT
;   free XXXX of XXXX clusters      36h DL=3: BX free, DX total clusters
;   wrote XXXX XXXX bytes           40h of 1000h-byte blocks to BIG.DAT
;                                   until one is short (the total, hex)
;   short write XXXX                the short write's AX (with CF clear:
;                                   a write with CF set fails the step)
;   free XXXX of XXXX clusters      36h again
;   done
; It exits with code 0; a step that fails unexpectedly prints
; "<step> failed: error XXXX" and exits with code 1.  If 64 blocks
; (256 KiB) are written without a short one it prints "never full".

        bits 16
        cpu 186
        org 0x100

%macro OR_FAIL 1
        jnc %%ok
        mov dx, %1
        jmp fail
%%ok:
%endmacro

; print "%1 ok" or "%1 error XXXX" after an INT 21h call
%macro REPORT 1
        pushf
        mov dx, %1
        call put_str
        popf
        call ok_or_error
%endmacro

start:
        mov ax, 0x3D00                  ; the FIFO, for reading
        mov dx, n_pipe
        int 0x21
        jc .pipe_report
        mov bx, ax                      ; it opened: close it again
        mov ah, 0x3E
        int 0x21
        clc
.pipe_report:
        REPORT s_open_pipe

        mov ax, 0x3D01                  ; the hard link, for writing
        mov dx, n_link
        int 0x21
        jc .link_report
        mov bx, ax
        mov dx, text_x
        mov cx, 1
        mov ah, 0x40
        int 0x21
        OR_FAIL s_write_link
        mov ah, 0x3E
        int 0x21
        OR_FAIL s_write_link
.link_report:
        REPORT s_open_link

        mov dx, n_data
        mov ah, 0x41
        int 0x21
        REPORT s_delete_data

        mov dx, n_new
        xor cx, cx
        mov ah, 0x3C
        int 0x21
        OR_FAIL s_create_new
        mov bx, ax
        mov dx, text_new
        mov cx, 3
        mov ah, 0x40
        int 0x21
        OR_FAIL s_create_new
        mov ah, 0x3E
        int 0x21
        OR_FAIL s_create_new
        clc
        REPORT s_create_new

        mov dx, n_old
        mov di, n_ren                   ; ES = DS = CS
        mov ah, 0x56
        int 0x21
        REPORT s_rename_old

        call free_space

        mov dx, n_big
        xor cx, cx
        mov ah, 0x3C
        int 0x21
        OR_FAIL s_create_big
        mov [handle], ax
        xor si, si                      ; SI:DI = bytes written
        xor di, di
        mov bp, 64                      ; at most 64 blocks
.fill:
        mov bx, [handle]
        mov dx, block
        mov cx, BLOCK_LEN
        mov ah, 0x40
        int 0x21
        OR_FAIL s_write_big
        add di, ax
        adc si, 0
        cmp ax, BLOCK_LEN
        jb .full
        dec bp
        jnz .fill
        mov dx, s_never
        call put_str
        jmp exit_fail
.full:
        push ax
        mov dx, s_wrote
        call put_str
        mov ax, si
        call put_hex4
        mov dl, ' '
        call put_char
        mov ax, di
        call put_hex4
        mov dx, s_bytes
        call put_str
        mov dx, s_short
        call put_str
        pop ax
        call put_hex4
        call put_crlf
        mov bx, [handle]
        mov ah, 0x3E
        int 0x21

        call free_space
        mov dx, s_done
        call put_str
        mov ax, 0x4C00
        int 0x21

; free_space: print "free XXXX of XXXX clusters" from INT 21h AH=36h.
free_space:
        mov ah, 0x36
        mov dl, 3                       ; C:
        int 0x21
        push dx
        mov dx, s_free
        call put_str
        mov ax, bx
        call put_hex4
        mov dx, s_of
        call put_str
        pop ax
        call put_hex4
        mov dx, s_clusters
        call put_str
        ret

; ok_or_error: CF clear prints " ok", CF set " error XXXX" (AX); CR LF.
ok_or_error:
        jc .error
        mov dx, s_ok
        call put_str
        ret
.error:
        mov dx, s_error
        call put_str
        call put_hex4
        call put_crlf
        ret

; fail: DX = the step's '$' string, AX = the DOS error code.
fail:
        call put_str
        mov dx, s_failed
        call put_str
        call put_hex4
        call put_crlf
exit_fail:
        mov ax, 0x4C01
        int 0x21

%include "inc/dosio.inc"

; ---------------------------------------------------------------- data
n_pipe:         db 'PIPE.TXT', 0
n_link:         db 'LINK.TXT', 0
n_data:         db 'DATA.TXT', 0
n_new:          db 'NEW.TXT', 0
n_old:          db 'OLD.TXT', 0
n_ren:          db 'REN.TXT', 0
n_big:          db 'BIG.DAT', 0
text_x:         db 'X'
text_new:       db 'new'

s_ok:           db ' ok', 13, 10, '$'
s_error:        db ' error $'
s_failed:       db ' failed: error $'
s_open_pipe:    db 'open PIPE.TXT$'
s_open_link:    db 'open LINK.TXT$'
s_write_link:   db 'write LINK.TXT$'
s_delete_data:  db 'delete DATA.TXT$'
s_create_new:   db 'create NEW.TXT$'
s_rename_old:   db 'rename OLD.TXT$'
s_create_big:   db 'create BIG.DAT$'
s_write_big:    db 'write BIG.DAT$'
s_free:         db 'free $'
s_of:           db ' of $'
s_clusters:     db ' clusters', 13, 10, '$'
s_wrote:        db 'wrote $'
s_bytes:        db ' bytes', 13, 10, '$'
s_short:        db 'short write $'
s_never:        db 'never full', 13, 10, '$'
s_done:         db 'done', 13, 10, '$'

image_end:
; ---------------------------------------------------------------- no file bytes
        absolute image_end
handle:         resw 1
BLOCK_LEN       equ 0x1000
block:          resb BLOCK_LEN
