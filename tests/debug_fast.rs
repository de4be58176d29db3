//! Breakpoints without a hook on every instruction (issue 33, item 2;
//! src/debug/mod.rs, "Hooks"): a session that only continues to
//! breakpoints runs with a code hook on each breakpoint's address, and
//! takes its positions from the machine's count. Each test runs the same
//! `debug --commands` script twice: as it is, and with `--max-insns` set
//! far beyond the run, which keeps the debugger's hook on every
//! instruction for the whole session (a budget is a position the hook
//! watches). The two transcripts must be the same line for line: the
//! same stops, positions, registers and memory, before and after
//! replays. The expected values that come from the programs themselves
//! are asserted too.

use std::path::{Path, PathBuf};
use std::process::Command;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

fn rom(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

/// The transcript of `debug --commands SCRIPT` with `args`.
fn session(args: &[&str], script: &str) -> String {
    let dir = std::env::temp_dir().join(format!("th16-dbgfast-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!(
        "{:x}.txt",
        script.len() ^ script.bytes().map(usize::from).sum::<usize>() << 8
    ));
    std::fs::write(&file, script).unwrap();
    let out = Command::new(exe())
        .arg("debug")
        .arg("--commands")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The script run without and with the hook on every instruction: the
/// transcript, checked the same.
fn both_ways(program: &[&str], script: &str) -> String {
    let fast = session(program, script);
    let mut hooked_args = vec!["--max-insns", "4000000000"];
    hooked_args.extend_from_slice(program);
    let hooked = session(&hooked_args, script);
    assert_eq!(
        fast, hooked,
        "the session differs without the hook on every instruction"
    );
    fast
}

/// The line after each `(debug) CMD` line.
fn after<'a>(out: &'a str, cmd: &str) -> Vec<&'a str> {
    out.lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == format!("(debug) {cmd}"))
        .map(|w| w[1])
        .collect()
}

#[test]
fn breakpoints_in_a_timer_handler_and_mid_block_stop_where_the_hook_on_every_instruction_does() {
    // dosirq.com (roms/dosirq.asm) at 0CC9:0100: its INT 1Ch handler
    // `on_tick` is at offset 01A3, and its wait loop `.ticks: cmp word
    // [ticks],3 / jb .ticks` at 012B, the `jb` (the second instruction of
    // its block) at 0130. The handler runs once per BIOS tick, so the
    // first two stops there are one tick apart, with the BIOS tick count
    // (0040:006C) at 1 and then 2. Setting the vector makes the run timed
    // (machine/time.rs), which sends the session back to the hook on
    // every instruction between two blocks (src/debug/mod.rs,
    // `may_run_fast`): the switch must not move a tick.
    let out = both_ways(
        &["--keys", "q", rom("dosirq.com").to_str().unwrap()],
        "break 0CC9:01A3\ncontinue\nposition\nregs\nx/2 0040:006C\ncontinue\nposition\nx/2 0040:006C\n\
         stepi\nposition\nregs\nbreak 0CC9:0130\ncontinue\nposition\nregs\ncontinue\nposition\n\
         delete 0CC9:0130\ncontinue\nposition\nreverse-stepi\nposition\nregs\nstepi\nposition\nregs\n\
         delete 0CC9:01A3\ncontinue\nposition\n",
    );
    let ticks = after(&out, "x/2 0040:006C");
    assert_eq!(
        ticks,
        ["0040:006C  0001 0000", "0040:006C  0002 0000"],
        "{out}"
    );
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 9, "{out}");
    // stepi from the handler's breakpoint runs one instruction.
    assert_eq!(pos[2], pos[1] + 1, "{out}");
    // The loop's `jb` is hit on consecutive passes (two instructions
    // each), then the third tick's handler; reverse-stepi and stepi move
    // by one.
    assert_eq!(pos[4], pos[3] + 2, "{out}");
    assert!(pos[5] > pos[4], "{out}");
    assert_eq!(pos[6], pos[5] - 1, "{out}");
    assert_eq!(pos[7], pos[5], "{out}");
    assert!(out.contains("ticks 3 make 0010 break 0090 key q"), "{out}");
    assert!(out.contains("exited with code 113"), "{out}");
}

#[test]
fn a_breakpoint_on_code_the_program_rewrites_stops_at_every_pass() {
    // smc8.com (roms/smc8.asm): `inc byte [0105h]` at 0100 rewrites the
    // immediate of `mov bl,imm8` at 0104, which runs next, then `jmp`
    // back: three instructions a pass. Before the k-th run of 0104 (k
    // from 1), k instructions of `inc` ran: the immediate is k, BL still
    // k-1, and the position is 1 + 3(k-1).
    let out = both_ways(
        &[rom("smc8.com").to_str().unwrap()],
        "break 0CC9:0104\ncontinue\nposition\nx/1 0CC9:0104\ncontinue\nposition\nregs\n\
         continue\nposition\nx/1 0CC9:0104\nstepi\nregs\nreverse-continue\nposition\nx/1 0CC9:0104\nquit\n",
    );
    let pos = after(&out, "position");
    // reverse-continue from the third stop's stepi goes back to it.
    assert_eq!(pos, ["1", "4", "7", "7"], "{out}");
    let code = after(&out, "x/1 0CC9:0104");
    assert_eq!(
        code,
        ["0CC9:0104  01B3", "0CC9:0104  03B3", "0CC9:0104  03B3"],
        "{out}"
    );
    let regs = after(&out, "regs");
    // At the second stop BL is 1; after the third stop's stepi, 3.
    assert!(regs[0].contains("BX=0001"), "{out}");
    assert!(regs[1].contains("BX=0003"), "{out}");
}

#[test]
fn a_watchpoint_added_at_a_breakpoint_and_finish_in_a_window_procedure_agree() {
    // winmsg.exe's paint_here runs inside USER's DispatchMessage (a
    // nested emulation). `finish` stops at the return into WndProc; a
    // write watchpoint added there (on a word of the stack, which the
    // next call writes) needs the hook on every instruction;
    // reverse-continue replays to the last stop. (A Win16 program keeps
    // the hook on every instruction throughout, src/debug/mod.rs,
    // `may_run_fast`: the two ways must agree all the same.)
    let out = both_ways(
        &[rom("winmsg.exe").to_str().unwrap()],
        "break WINMSG!paint_here\ncontinue\nposition\nregs\nfinish\nposition\nregs\nstepi\nposition\n\
         regs\nwatch SS:09DC\ncontinue\nposition\nregs\ndelete SS:09DC\ncontinue\nposition\n\
         reverse-continue\nposition\nregs\ncontinue\nposition\n",
    );
    assert!(out.contains("breakpoint at"), "{out}");
    assert!(out.contains("exited with code 7"), "{out}");
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 7, "{out}");
    assert_eq!(pos[2], pos[1] + 1, "{out}");
    assert_eq!(pos[6], pos[4], "the run ends at the same position:\n{out}");
}

#[test]
fn a_fault_in_a_dos_program_is_at_the_same_position_both_ways() {
    // A .COM (nasm, listed here): `mov ax,2500h / mov dx,0119h / int 21h
    // / mov cx,3 / l: xor bl,bl / mov ax,5 / div bl / loop l / mov
    // ax,4C00h / int 21h` and a handler at 0119h. The breakpoint at 010D
    // (`mov ax,5`, the second instruction of its block) is at position
    // 5; `div bl` (position 6) divides by zero, a fault the session
    // stops at before the default action; a faulting instruction counts
    // as started, so the run ends at position 7.
    let dir = std::env::temp_dir().join(format!("th16-dbgfast-div-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let com = dir.join("divloop.com");
    std::fs::write(
        &com,
        [
            0xb8, 0x00, 0x25, 0xba, 0x19, 0x01, 0xcd, 0x21, 0xb9, 0x03, 0x00, 0x30, 0xdb, 0xb8,
            0x05, 0x00, 0xf6, 0xf3, 0xe2, 0xf7, 0xb8, 0x00, 0x4c, 0xcd, 0x21, 0x55, 0x89, 0xe5,
            0x83, 0x46, 0x02, 0x02, 0x5d, 0xcf,
        ],
    )
    .unwrap();
    let out = both_ways(
        &[com.to_str().unwrap()],
        "break 0CC9:010D\ncontinue\nposition\ncontinue\nposition\nregs\ncontinue\nposition\n\
         reverse-continue\nposition\nreverse-stepi\nposition\nregs\ncontinue\nposition\n",
    );
    assert_eq!(
        after(&out, "position"),
        ["5", "6", "7", "6", "5", "6"],
        "{out}"
    );
    assert!(
        out.contains("divide error (exception 0) at 0CC9:0110"),
        "{out}"
    );
}
