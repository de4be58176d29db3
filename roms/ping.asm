; ping.asm -- one of two Win16 tasks that take turns through KERNEL.Yield
; (the other is pong.asm; both are inc/pingpong.inc).
; output: ping.exe
; no-walk-expectation: a scheduler scenario; tests/win16_tasks.rs runs it with pong.exe and checks the turns and the walk of the waiting task (stack --all-tasks)
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.

%define PP_NAME 'PING'
%define PP_TEXT 'PING'
%define PP_DESC 'toolhelp16: a Win16 task that yields to another (ping)'
%define PP_LAUNCH 0
%include "inc/pingpong.inc"
