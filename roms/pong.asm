; pong.asm -- one of two Win16 tasks that take turns through KERNEL.Yield
; (the other is ping.asm; both are inc/pingpong.inc).
; output: pong.exe
; no-walk-expectation: a scheduler scenario; tests/win16_tasks.rs runs it with ping.exe, and launch.exe starts it with WinExec
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.

%define PP_NAME 'PONG'
%define PP_TEXT 'PONG'
%define PP_DESC 'toolhelp16: a Win16 task that yields to another (pong)'
%define PP_LAUNCH 0
%include "inc/pingpong.inc"
