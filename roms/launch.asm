; launch.asm -- a Win16 task that starts pong.exe with KERNEL.WinExec, then
; takes turns with it through KERNEL.Yield (inc/pingpong.inc).
; output: launch.exe
; no-walk-expectation: a scheduler scenario; tests/win16_tasks.rs runs it with --dir roms and checks the order of both tasks' output
; Part of toolhelp16 (GPL-2.0-or-later).  Build: see build.sh.

%define PP_NAME 'LAUNCH'
%define PP_TEXT 'LNCH'
%define PP_DESC 'toolhelp16: a Win16 task that starts another with WinExec'
%define PP_LAUNCH 1
%include "inc/pingpong.inc"
