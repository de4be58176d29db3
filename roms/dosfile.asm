; dosfile.asm -- a DOS .COM that exercises the INT 21h file, find and
; memory functions inside the sandbox drive C:, and checks that paths
; climbing out of the sandbox fail.
; output: dosfile.com
; no-walk-expectation: a DOS behaviour test (console output, exit code, files), not a stack-walk scenario
; Part of toolhelp16 (GPL-2.0-or-later).
;
; Run in an empty sandbox directory (drive C:, current directory C:\).
; Steps: 4Ah shrink own block; 3Ch create TEST.TXT; 40h write
; "hello, sandbox" CR LF (16 bytes); 3Eh close; 3Dh open read-only; 3Fh read
; back and compare; 42h AL=2 seek to the end (the size); 3Eh close;
; 3Ch/3Eh create and close an empty SECOND.DAT; 1Ah set the DTA, 4Eh/4Fh
; find *.* (attributes 0) until an error; 48h allocate 0x100 paragraphs,
; write a byte there, 49h free; 3Dh and 3Ch on three paths that leave the
; sandbox; 41h delete SECOND.DAT; 4Ch exit code 42 (2Ah).
; The `found` lines follow the order of the sandbox's directory listing,
; which the tool sorts by name.  Each escape attempt must fail with 0003
; (path not found).
;
; expected output:
;   shrink ok
;   create TEST.TXT ok
;   write TEST.TXT ok
;   close TEST.TXT ok
;   open TEST.TXT ok
;   read 0010 bytes
;   read back ok
;   size 0010
;   close TEST.TXT ok
;   create SECOND.DAT ok
;   close SECOND.DAT ok
;   found SECOND.DAT
;   found TEST.TXT
;   find end 0012
;   alloc ok
;   free ok
;   open ..\ESCAPE.TXT error 0003
;   create ..\ESCAPE.TXT error 0003
;   open C:\..\ESCAPE.TXT error 0003
;   create C:\..\ESCAPE.TXT error 0003
;   open \..\..\ESCAPE.TXT error 0003
;   create \..\..\ESCAPE.TXT error 0003
;   delete SECOND.DAT ok
;   done
; (every line ends CR LF)
; expected exit code: 42 (0x2A)
; expected files afterwards: TEST.TXT (16 bytes: "hello, sandbox" CR LF);
;   SECOND.DAT is gone; no ESCAPE.TXT anywhere.
; On an unexpected failure it prints "<step> failed: error XXXX" (XXXX =
; AX in hex) and exits with code 1.  An escape path that opens prints
; "<open|create> <path> ESCAPED handle XXXX" instead of the error line.

        bits 16
        cpu 186
        org 0x100

; on CF set after INT 21h: report step %1 (a '$' string) and exit 1
%macro OR_FAIL 1
        jnc %%ok
        mov dx, %1
        jmp fail
%%ok:
%endmacro

; print the '$' string %1 followed by " ok"
%macro SAY_OK 1
        mov dx, %1
        call put_str
        mov dx, s_ok
        call put_str
%endmacro

; try 3Dh (open, read-only) and 3Ch (create) on the escape path %1
%macro TRY_ESCAPE 1
        mov dx, s_open
        call put_str
        mov dx, %1
        mov ax, 0x3D00
        call try_path
        mov dx, s_create
        call put_str
        mov dx, %1
        mov ah, 0x3C
        xor cx, cx
        call try_path
%endmacro

start:
        mov sp, stack_top               ; the stack moves into the kept block
        mov bx, KEEP_PARAS              ; ES = PSP at entry
        mov ah, 0x4A
        int 0x21
        OR_FAIL s_shrink
        SAY_OK s_shrink

        ; ---- TEST.TXT: create, write, close
        mov dx, n_test
        xor cx, cx                      ; normal attributes
        mov ah, 0x3C
        int 0x21
        OR_FAIL s_create_test
        mov [handle], ax
        SAY_OK s_create_test

        mov bx, [handle]
        mov dx, text
        mov cx, TEXT_LEN
        mov ah, 0x40
        int 0x21
        OR_FAIL s_write_test
        cmp ax, TEXT_LEN
        je .written
        mov dx, s_write_short
        call put_str
        call put_hex4
        call put_crlf
        jmp exit_fail
.written:
        SAY_OK s_write_test

        mov bx, [handle]
        mov ah, 0x3E
        int 0x21
        OR_FAIL s_close_test
        SAY_OK s_close_test

        ; ---- open read-only, read back, compare, size, close
        mov dx, n_test
        mov ax, 0x3D00
        int 0x21
        OR_FAIL s_open_test
        mov [handle], ax
        SAY_OK s_open_test

        mov bx, [handle]
        mov dx, buffer
        mov cx, BUFFER_LEN
        mov ah, 0x3F
        int 0x21
        OR_FAIL s_read_test
        mov dx, s_read
        call put_str
        call put_hex4
        mov dx, s_bytes
        call put_str

        mov dx, s_mismatch
        cmp ax, TEXT_LEN
        jne .compared
        mov si, text
        mov di, buffer
        mov cx, TEXT_LEN
        cld
        repe cmpsb
        jne .compared
        mov dx, s_match
.compared:
        call put_str

        mov bx, [handle]
        xor cx, cx
        xor dx, dx
        mov ax, 0x4202                  ; seek: end + 0
        int 0x21
        OR_FAIL s_seek_test
        mov dx, s_size
        call put_str
        call put_hex4                   ; low word of the size
        call put_crlf

        mov bx, [handle]
        mov ah, 0x3E
        int 0x21
        OR_FAIL s_close_test
        SAY_OK s_close_test

        ; ---- SECOND.DAT: create (empty) and close
        mov dx, n_second
        xor cx, cx
        mov ah, 0x3C
        int 0x21
        OR_FAIL s_create_second
        mov [handle], ax
        SAY_OK s_create_second
        mov bx, [handle]
        mov ah, 0x3E
        int 0x21
        OR_FAIL s_close_second
        SAY_OK s_close_second

        ; ---- find *.* into our own DTA
        mov dx, dta
        mov ah, 0x1A
        int 0x21
        mov dx, n_all
        xor cx, cx                      ; normal files only
        mov ah, 0x4E
.find:
        int 0x21
        jc .find_end
        mov dx, s_found
        call put_str
        mov si, dta + 0x1E              ; the found name, ASCIZ
        call put_asciz
        call put_crlf
        mov ah, 0x4F
        jmp short .find
.find_end:
        mov dx, s_find_end
        call put_str
        call put_hex4                   ; 0012: no more files
        call put_crlf

        ; ---- memory: allocate 0x100 paragraphs, touch, free
        mov bx, 0x0100
        mov ah, 0x48
        int 0x21
        OR_FAIL s_alloc
        or ax, ax
        jnz .allocated
        mov dx, s_alloc_zero
        call put_str
        jmp exit_fail
.allocated:
        mov es, ax
        mov byte [es:0x0000], 0xA5
        SAY_OK s_alloc
        mov ah, 0x49                    ; ES = the block
        int 0x21
        OR_FAIL s_free
        push cs
        pop es
        SAY_OK s_free

        ; ---- paths that leave the sandbox
        TRY_ESCAPE n_escape1
        TRY_ESCAPE n_escape2
        TRY_ESCAPE n_escape3

        ; ---- delete SECOND.DAT, exit 42
        mov dx, n_second
        mov ah, 0x41
        int 0x21
        OR_FAIL s_delete_second
        SAY_OK s_delete_second
        mov dx, s_done
        call put_str
        mov ax, 0x4C2A
        int 0x21

; try_path: the "open "/"create " prefix is printed; DX = the ASCIZ path,
; AH (and AL, CX) = the call.  Prints the path and either " error XXXX" or
; " ESCAPED handle XXXX" (closing the handle).  ES = DS = CS.
try_path:
        mov si, dx
        call put_asciz
        int 0x21
        jc .failed
        mov dx, s_escaped
        call put_str
        call put_hex4
        call put_crlf
        mov bx, ax
        mov ah, 0x3E
        int 0x21
        ret
.failed:
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
n_test:         db 'TEST.TXT', 0
n_second:       db 'SECOND.DAT', 0
n_all:          db '*.*', 0
n_escape1:      db '..\ESCAPE.TXT', 0
n_escape2:      db 'C:\..\ESCAPE.TXT', 0
n_escape3:      db '\..\..\ESCAPE.TXT', 0

text:           db 'hello, sandbox', 13, 10
TEXT_LEN        equ $ - text

s_ok:           db ' ok', 13, 10, '$'
s_shrink:       db 'shrink$'
s_create_test:  db 'create TEST.TXT$'
s_write_test:   db 'write TEST.TXT$'
s_close_test:   db 'close TEST.TXT$'
s_open_test:    db 'open TEST.TXT$'
s_read_test:    db 'read TEST.TXT$'
s_seek_test:    db 'seek TEST.TXT$'
s_create_second: db 'create SECOND.DAT$'
s_close_second: db 'close SECOND.DAT$'
s_delete_second: db 'delete SECOND.DAT$'
s_alloc:        db 'alloc$'
s_free:         db 'free$'
s_write_short:  db 'write TEST.TXT short: $'
s_read:         db 'read $'
s_bytes:        db ' bytes', 13, 10, '$'
s_match:        db 'read back ok', 13, 10, '$'
s_mismatch:     db 'read back MISMATCH', 13, 10, '$'
s_size:         db 'size $'
s_found:        db 'found $'
s_find_end:     db 'find end $'
s_alloc_zero:   db 'alloc returned segment 0', 13, 10, '$'
s_open:         db 'open $'
s_create:       db 'create $'
s_error:        db ' error $'
s_escaped:      db ' ESCAPED handle $'
s_failed:       db ' failed: error $'
s_done:         db 'done', 13, 10, '$'

image_end:
; ---------------------------------------------------------------- no file bytes
        absolute image_end
handle:         resw 1
dta:            resb 0x80               ; the find DTA (43 bytes used)
BUFFER_LEN      equ 64
buffer:         resb BUFFER_LEN
                alignb 2
                resb 0x200              ; the stack
stack_top:

; the block this program keeps: PSP (0x100 bytes) + image + data + stack
KEEP_PARAS      equ (stack_top - start + 0x100 + 15) / 16
