//! Breakpoints without a hook on every instruction (issue 33, item 2;
//! src/debug/mod.rs, "Hooks"): a session that only continues to
//! breakpoints runs with a code hook on each breakpoint's address, and
//! takes its positions from the machine's count. Each test runs the same
//! `debug --commands` script twice: as it is, and with
//! `TOOLHELP16_ALWAYS_HOOK=1`, which keeps the debugger's hook on every
//! instruction for the whole session (src/debug/hooks.rs). The two
//! transcripts must be the same line for line: the
//! same stops, positions, registers and memory, before and after
//! replays. The expected values that come from the programs themselves
//! are asserted too.

mod common;

use common::{after, debug_session, gdbserver, wait_for, watcom::line_of};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

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
    debug_session(args, script, &[])
}

/// The script run without and with the hook on every instruction: the
/// transcript, checked the same.
fn both_ways(program: &[&str], script: &str) -> String {
    let fast = session(program, script);
    let hooked = debug_session(program, script, &[("TOOLHELP16_ALWAYS_HOOK", "1")]);
    assert_eq!(
        fast, hooked,
        "the session differs without the hook on every instruction"
    );
    fast
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
    // reverse-continue replays to the last stop. (A Win16 program runs
    // without the hook on every instruction while it only continues to
    // breakpoints, src/debug/mod.rs, `may_run_fast`, nested emulations
    // included.)
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

#[test]
fn gdb_sets_a_breakpoint_after_ctrl_c_and_the_program_stops_there() {
    // The real gdb against a program running without the hook on every
    // instruction (a DOS `jmp $` that keeps no time): Ctrl-C (SIGINT to
    // gdb, which sends the interrupt byte 03h) stops it at the jump, as
    // SIGINT (gdb's "Program received signal SIGINT"); `break *$pc` sends
    // Z0 for that address, which must be answered; `continue` steps over
    // it and runs the jump once more, which stops at the breakpoint.
    if !common::need::tool("gdb", "--version", "gdb") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("th16-dbgfast-gdb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("jmpself.com");
    std::fs::write(&prog, [0xEB, 0xFE]).unwrap();
    let (mut server, addr) = gdbserver(&["--timeout", "60", prog.to_str().unwrap()]);
    let mut gdb = Command::new("gdb")
        .args(["-batch", "-nx", "-ex", "set pagination off"])
        .args(["-ex", &format!("target remote {addr}")])
        .args(["-ex", "continue", "-ex", "break *$pc", "-ex", "continue"])
        .args(["-ex", "info breakpoints", "-ex", "kill"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut out, mut err) = (gdb.stdout.take().unwrap(), gdb.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        let _ = err.read_to_string(&mut s);
        s
    });
    // The program runs for a while before the interrupt.
    std::thread::sleep(Duration::from_millis(2500));
    let _ = Command::new("kill")
        .args(["-INT", &gdb.id().to_string()])
        .status();
    let gdb_status = wait_for(&mut gdb, 30.0);
    let text = reader.join().unwrap();
    let _ = wait_for(&mut server, 10.0);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(gdb_status.is_some(), "gdb ended:\n{text}");
    assert!(text.contains("SIGINT"), "stopped by the interrupt:\n{text}");
    assert!(
        text.contains("Breakpoint 1 at"),
        "the breakpoint was set (Z0 answered):\n{text}"
    );
    assert!(
        text.contains("Breakpoint 1, "),
        "the program stopped at it:\n{text}"
    );
    assert!(
        text.contains("breakpoint already hit 1 time"),
        "once:\n{text}"
    );
}

#[test]
fn a_breakpoint_in_a_watcom_window_procedure_finish_and_next_agree_both_ways() {
    // tests/watcom/dbgwnd.c (Win16, protected mode, -d2): WinMain sends
    // its window WM_USER+1 twenty times; each SendMessage runs WndProc in
    // a nested emulation, which calls accumulate(). A breakpoint in
    // accumulate stops once per message; `finish` returns to the rest of
    // WndProc's calling line, `next` goes on to its return line; the
    // later stops are one message apart, the same instructions each time
    // (USER's SendMessage is the host's, the path through the program
    // does not depend on the value). Then a breakpoint at the print after
    // the loop, a step back and the end.
    let Some(exe) = common::watcom::build(
        "dbgwnd",
        common::watcom::Kind::Win16Exe,
        &["dbgwnd.c"],
        None,
        &["-d2"],
    ) else {
        return;
    };
    let l = |m: &str| line_of("dbgwnd.c", m);
    let (body, call, ret, print) = (
        l("LINE-ACC-BODY"),
        l("LINE-WNDPROC-CALL"),
        l("LINE-WNDPROC-RETURN"),
        l("LINE-PRINT"),
    );
    let out = both_ways(
        &[exe.to_str().unwrap()],
        &format!(
            "break dbgwnd.c:{body}\ncontinue\nposition\nregs\nfinish\nposition\nnext\nposition\n\
             continue\nposition\nregs\ncontinue\nposition\ncontinue\nposition\n\
             delete dbgwnd.c:{body}\nbreak dbgwnd.c:{print}\ncontinue\nposition\nreverse-stepi\n\
             position\nstepi\nposition\ncontinue\n"
        ),
    );
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 9, "{out}");
    assert!(
        pos[0] < pos[1] && pos[1] < pos[2] && pos[2] < pos[3],
        "{out}"
    );
    // The second, third and fourth messages' stops, equally far apart.
    assert_eq!(pos[4] - pos[3], pos[5] - pos[4], "{out}");
    assert!(pos[6] > pos[5], "{out}");
    assert_eq!(pos[7], pos[6] - 1, "{out}");
    assert_eq!(pos[8], pos[6], "{out}");
    // The stops name their lines: accumulate's body, the rest of
    // WndProc's calling line after `finish`, its return line after
    // `next`, the print.
    for line in [body, call, ret, print] {
        assert!(
            out.contains(&format!("dbgwnd.c:{line}:")),
            "a stop at line {line}:\n{out}"
        );
    }
    assert!(out.contains("total 1900 calls 20 last 1900"), "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
}

#[test]
fn a_watchpoint_on_a_range_of_a_timed_program_agrees_both_ways() {
    // dosirq.com (roms/dosirq.asm, at 0CC9:0100), which keeps time: a
    // write watchpoint on its words `ticks` and `seen` (0CC9:024A, 4
    // bytes). Its INT 1Ch handler (`inc word [cs:ticks]`) writes the
    // first once per BIOS tick; each stop is after the write, the count
    // moved by one. reverse-continue goes back to the first write; the
    // watchpoint deleted, the program runs to its end.
    let out = both_ways(
        &["--keys", "q", rom("dosirq.com").to_str().unwrap()],
        "watch 0CC9:024A 4\ncontinue\nposition\nx/2 0CC9:024A\ncontinue\nposition\nx/2 0CC9:024A\n\
         reverse-continue\nposition\nx/2 0CC9:024A\ndelete 0CC9:024A\ncontinue\nposition\n",
    );
    let words = after(&out, "x/2 0CC9:024A");
    assert_eq!(
        words,
        [
            "0CC9:024A  0001 0000",
            "0CC9:024A  0002 0000",
            "0CC9:024A  0001 0000"
        ],
        "{out}"
    );
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 4, "{out}");
    assert!(pos[1] > pos[0] && pos[2] == pos[0], "{out}");
    assert!(out.contains("ticks 3 make 0010 break 0090 key q"), "{out}");
    assert!(out.contains("exited with code 113"), "{out}");
}

#[test]
fn watchpoints_on_ranges_stop_after_the_write_both_ways() {
    // A .COM (listed here) that keeps no time, so the session watches
    // without the hook on every instruction (src/debug/mod.rs, "Hooks"):
    // `mov bx,0 / mov ax,1 / l: mov [bx+0200h],ax / add bx,2 / inc ax /
    // cmp bx,10 / jb l / mov ax,4C00h / int 21h`: five words written at
    // 0200h..0209h, the k-th (from 0) by the `mov` at position 2 + 5k,
    // with AX = k + 1. A write watchpoint on 0204h..0207h stops after the
    // writes of k = 2 and 3 (positions 13 and 18, before the `add` at
    // 010Ah); one on the single byte 0209h stops after the word written
    // at 0208h (k = 4, position 23), an access that starts before it.
    // reverse-continue goes back to the stop before.
    let dir = std::env::temp_dir().join(format!("th16-dbgfast-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let com = dir.join("words.com");
    std::fs::write(
        &com,
        [
            0xBB, 0x00, 0x00, 0xB8, 0x01, 0x00, 0x89, 0x87, 0x00, 0x02, 0x83, 0xC3, 0x02, 0x40,
            0x83, 0xFB, 0x0A, 0x72, 0xF3, 0xB8, 0x00, 0x4C, 0xCD, 0x21,
        ],
    )
    .unwrap();
    let out = both_ways(
        &[com.to_str().unwrap()],
        "watch 0CC9:0204 4\nwatch 0CC9:0209 1\ncontinue\nposition\nregs\ncontinue\nposition\n\
         regs\ncontinue\nposition\nregs\nx/5 0CC9:0200\nreverse-continue\nposition\nregs\n\
         delete 0CC9:0204\ndelete 0CC9:0209\ncontinue\n",
    );
    assert_eq!(after(&out, "position"), ["13", "18", "23", "18"], "{out}");
    let regs = after(&out, "regs");
    assert_eq!(regs.len(), 4, "{out}");
    for (r, (bx, ax)) in regs.iter().zip([
        ("0004", "0003"),
        ("0006", "0004"),
        ("0008", "0005"),
        ("0006", "0004"),
    ]) {
        assert!(
            r.contains(&format!("AX={ax} BX={bx}")),
            "AX {ax} BX {bx}: {r}\n{out}"
        );
    }
    // Each stop is before the `add` after the write.
    assert_eq!(out.matches("=> 0CC9:010A").count(), 4, "{out}");
    assert_eq!(
        after(&out, "x/5 0CC9:0200"),
        ["0CC9:0200  0001 0002 0003 0004 0005"],
        "{out}"
    );
    assert!(out.contains("exited with code 0"), "{out}");
}

#[test]
fn a_dos_program_s_own_timer_handler_and_main_loop_stop_alike_without_the_hook() {
    // tests/watcom/dostimer.c (DOS .EXE): it takes INT 08h (IRQ 0) and
    // counts four ticks in its handler while its main loop calls
    // spin_once(); it prints both addresses first. A program that keeps
    // time (machine/time.rs): the ticks are delivered between blocks at
    // instruction counts, and must fall at the same instructions whether
    // the debugger watches every instruction or only its breakpoints'
    // addresses (src/debug/mod.rs, `may_run_fast`). Breakpoints in the
    // loop and in the handler, `stepi` from the handler's first
    // instruction (a stop at the first instruction of a block the tick
    // sent the program to), back into the loop, `reverse-stepi` and
    // `reverse-continue`.
    let Some(built) = common::watcom::build(
        "dostimer",
        common::watcom::Kind::DosExe,
        &["dostimer.c"],
        None,
        &["-ms"],
    ) else {
        return;
    };
    let prog = built.to_str().unwrap();
    let run = Command::new(exe()).args(["run", prog]).output().unwrap();
    let printed = String::from_utf8_lossy(&run.stdout).into_owned();
    let words: Vec<&str> = printed.split_whitespace().collect();
    assert!(
        words.len() >= 4 && words[0] == "handler" && words[2] == "loop",
        "{printed}"
    );
    let (handler, spin) = (words[1], words[3]);
    let out = both_ways(
        &[prog],
        &format!(
            "break {spin}\ncontinue\nposition\ndelete {spin}\nbreak {handler}\ncontinue\n\
             position\nregs\nstepi\nposition\nregs\nstepi\nposition\nbreak {spin}\ncontinue\n\
             position\nregs\ncontinue\nposition\ndelete {spin}\ncontinue\nposition\nregs\n\
             reverse-stepi\nposition\nreverse-continue\nposition\nregs\ndelete {handler}\n\
             continue\nposition\n"
        ),
    );
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 10, "{out}");
    // The loop runs before the first tick; the handler's first stop is
    // a tick later; each stepi moves by one; the loop is entered again
    // after the handler returned, and called again a few instructions
    // on; the second tick's stop is one tick (time.rs's TICK_INSNS) of
    // loop later.
    assert!(pos[0] < pos[1], "{out}");
    assert_eq!(pos[2], pos[1] + 1, "{out}");
    assert_eq!(pos[3], pos[2] + 1, "{out}");
    assert!(pos[4] > pos[3] && pos[5] > pos[4], "{out}");
    assert!(pos[6] > pos[5], "{out}");
    // reverse-stepi goes back one; reverse-continue goes back to the
    // previous stop in the handler (the first tick's).
    assert_eq!(pos[7], pos[6] - 1, "{out}");
    assert_eq!(pos[8], pos[1], "{out}");
    // At the handler's first instruction the interrupt has cleared IF
    // (Intel 8086 family user's manual, "Interrupts": the CPU pushes the
    // flags and clears IF and TF); the loop runs with interrupts on.
    // (`regs` prints two lines; FLAGS is on the second, spelt out last.)
    let lines: Vec<&str> = out.lines().collect();
    let flags: Vec<&str> = lines
        .windows(3)
        .filter(|w| w[0] == "(debug) regs")
        .map(|w| w[2].rsplit(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(flags.len(), 5, "{out}");
    for (i, with_if) in [(0, false), (2, true), (3, false), (4, false)] {
        assert_eq!(
            flags[i].contains('I'),
            with_if,
            "regs {i}: {}\n{out}",
            flags[i]
        );
    }
    assert!(out.contains("ticks 4 spins "), "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
    // And as it is, the session did run without the hook on
    // every instruction to the handler's breakpoint.
    let fast = session(
        &[prog],
        &format!("break {handler}\ncontinue\nhooks\ncontinue\nhooks\nkill\n"),
    );
    assert_eq!(
        after(&fast, "hooks"),
        [
            "ran to this stop with code hooks on the breakpoints only",
            "ran to this stop with code hooks on the breakpoints only"
        ],
        "{fast}"
    );
}

#[test]
#[cfg(not(feature = "unpatched-engine"))] // patches 0006 and 0010 (machine::debug::EXACT_COUNT)
fn position_breakpoints_are_reached_without_the_hook_at_the_same_positions() {
    // A breakpoint at a position (`break +N`: before the instruction at
    // position N), as `serve` moves forward with: the program runs
    // without the hook on every instruction until the position is near
    // (src/debug/mod.rs, `NEAR_POSITION`), then with it. roms/hot.com's
    // loops, and dosirq.com (a timed program: its ticks must fall at the
    // same instructions). Each stop is exactly at its position, with the
    // registers of the run with the hook all the way; a breakpoint one
    // instruction on is a step; a later breakpoint at an address still
    // stops first when it comes first.
    for (prog, far) in [("hot.com", 50_000u64), ("dosirq.com", 600_000)] {
        let path = rom(prog);
        let path = path.to_str().unwrap();
        let out = both_ways(
            &["--keys", "q", path],
            &format!(
                "break +{far}\ncontinue\nposition\nregs\nbreak +{}\ncontinue\nposition\nregs\n\
                 break +{}\ncontinue\nposition\nregs\ncontinue\nposition\n",
                far + 1,
                far + 7000,
            ),
        );
        let pos: Vec<u64> = after(&out, "position")
            .iter()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(&pos[..3], [far, far + 1, far + 7000], "{prog}: {out}");
        assert!(pos[3] > far + 7000, "{prog}: {out}");
        assert!(out.contains("the program has ended"), "{prog}: {out}");
        // As it is, the session ran to the first stop without
        // the hook on every instruction, up to a few thousand
        // instructions before it.
        let fast = session(
            &["--keys", "q", path],
            &format!("break +{far}\ncontinue\nhooks\nposition\nkill\n"),
        );
        let said = after(&fast, "hooks");
        assert_eq!(said.len(), 1, "{prog}: {fast}");
        let upto: u64 = said[0]
            .strip_prefix("ran with code hooks on the breakpoints only to position ")
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{prog}: {fast}"));
        assert!(upto < far && far - upto <= 8192, "{prog}: {upto}: {fast}");
        assert_eq!(
            after(&fast, "position"),
            [far.to_string()],
            "{prog}: {fast}"
        );
    }
}

#[test]
fn a_watchpoint_on_a_global_a_window_procedure_writes_agrees_both_ways() {
    // tests/watcom/watchwnd.c (Win16, protected mode, -d2): WndProc, run
    // by SendMessage in a nested emulation five times, adds 10 * i + 1 to
    // the global `total` with one `add [total],ax`; WinMain prints the
    // global's offset first. A write watchpoint set at a breakpoint in
    // WndProc stops after each write (gdb's rule: the stop is after the
    // writing instruction, the new value in memory), at the same
    // positions with the same registers whether the session watches with
    // the memory hook alone (the writing instruction run again with the
    // instruction hook, machine/debug.rs `redo_insn`) or with the hook on
    // every instruction; reverse-continue, reverse-stepi and stepi back
    // over a write agree too.
    let Some(built) = common::watcom::build(
        "watchwnd",
        common::watcom::Kind::Win16Exe,
        &["watchwnd.c"],
        None,
        &["-d2"],
    ) else {
        return;
    };
    let prog = built.to_str().unwrap();
    let run = Command::new(exe()).args(["run", prog]).output().unwrap();
    let printed = String::from_utf8_lossy(&run.stdout).into_owned();
    let off = printed
        .lines()
        .find_map(|l| l.strip_prefix("total at "))
        .unwrap_or_else(|| panic!("{printed}"))
        .trim()
        .to_string();
    let add = line_of("watchwnd.c", "LINE-WATCH-ADD");
    let ret = line_of("watchwnd.c", "LINE-WATCH-RETURN");
    let script = format!(
        "break watchwnd.c:{add}\ncontinue\nwatch DS:{off} 2\ndelete watchwnd.c:{add}\n\
         continue\nposition\nregs\nx/1 DS:{off}\ncontinue\nposition\nregs\nx/1 DS:{off}\n\
         continue\nposition\nreverse-continue\nposition\nregs\nx/1 DS:{off}\nreverse-stepi\n\
         position\nx/1 DS:{off}\nstepi\nposition\ncontinue\nposition\ncontinue\nposition\n\
         continue\nposition\nx/1 DS:{off}\ncontinue\n"
    );
    let out = both_ways(&[prog], &script);
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 9, "{out}");
    // One message's path is the same each time: the writes are equally
    // far apart.
    let step = pos[1] - pos[0];
    assert!(step > 0 && pos[2] - pos[1] == step, "{out}");
    // Back to the second write; one instruction back is before it (the
    // old value); stepi over it stops after it again.
    assert_eq!(pos[3], pos[1], "{out}");
    assert_eq!(pos[4], pos[1] - 1, "{out}");
    assert_eq!(pos[5], pos[1], "{out}");
    assert_eq!(
        &pos[6..9],
        [pos[2], pos[2] + step, pos[2] + 2 * step],
        "{out}"
    );
    // The values after each write: 1, 1 + 11, and before the second 1;
    // after the fifth, 105 (0069h).
    let values: Vec<String> = after(&out, &format!("x/1 DS:{off}"))
        .iter()
        .map(|l| l.split_whitespace().last().unwrap_or("").to_string())
        .collect();
    assert_eq!(values, ["0001", "000C", "000C", "0001", "0069"], "{out}");
    // Each stop is after the `add`, on the return line.
    assert!(
        out.matches(&format!("watchwnd.c:{ret}:")).count() >= 7,
        "{out}"
    );
    assert!(out.contains("total 105"), "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
    // As it is, the session ran to the first write without the
    // hook on every instruction, and ran the writing instruction again
    // with it (patch 0013's `redo_insn`; the unpatched engine watches
    // with the hook on every instruction).
    if cfg!(feature = "unpatched-engine") {
        return;
    }
    let fast = session(
        &[prog],
        &format!(
            "break watchwnd.c:{add}\ncontinue\nwatch DS:{off} 2\ndelete watchwnd.c:{add}\n\
             continue\nposition\nhooks\nkill\n"
        ),
    );
    let at: u64 = after(&fast, "position")[0].parse().unwrap();
    assert_eq!(
        after(&fast, "hooks"),
        [format!(
            "ran with code hooks on the breakpoints only to position {}, then with the hook on every instruction",
            at - 1
        )],
        "{fast}"
    );
}

#[test]
fn a_watched_push_at_the_stop_is_at_the_same_position_both_ways() {
    // roms/demo.exe (Win16): WinMain's `push bp / mov bp,sp / push 14h`;
    // `next` twice stops at the push (WinMain+3), and a write watchpoint
    // on the word it writes (SS:09F6, demo.expect) stops after it, at
    // WinMain+5 (gdb's rule: after the writing instruction). Without the
    // hook on every instruction the push is the first instruction run
    // and is run again with the hook: the stop was one position short
    // there once. Then to the end and one instruction back (the INT 21h
    // that ends the program).
    let demo = rom("demo.exe");
    let out = both_ways(
        &[demo.to_str().unwrap()],
        "break DEMO!WinMain\ncontinue\nnext\nnext\nposition\nwatch SS:09F6\ncontinue\nwhere\n\
         position\nregs\nx/1 SS:09F6\ndelete DEMO!WinMain\ncontinue\ncontinue\nreverse-stepi\n\
         position\nregs\nreverse-continue\nposition\n",
    );
    let pos: Vec<u64> = after(&out, "position")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pos.len(), 4, "{out}");
    assert_eq!(pos[1], pos[0] + 1, "{out}");
    assert!(out.contains("= DEMO:1:0023 WinMain+0x5"), "{out}");
    assert_eq!(
        after(&out, "x/1 SS:09F6")
            .first()
            .and_then(|l| l.split_whitespace().last()),
        Some("0014"),
        "{out}"
    );
    // reverse-continue from the end goes back to the watched write.
    assert_eq!(pos[3], pos[1], "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
}

#[test]
fn a_budget_is_reached_without_the_hook_at_the_same_position() {
    // `--max-insns N`: no instruction at position N or beyond runs
    // (src/debug/mod.rs, "Limits"). The session runs without the hook on
    // every instruction until a few thousand positions before the budget
    // (debug/hooks.rs, a position stop), then with it, and ends exactly at
    // N, in the state the hook on every instruction reaches; a step back
    // from there too. dosirq.com (roms/dosirq.asm) takes the timer's
    // interrupts, so ticks fall in the stretch run without the hook.
    let prog = rom("dosirq.com");
    let script = "continue\nposition\nregs\nx/2 0040:006C\nreverse-stepi\nposition\nregs\n";
    let args = [
        "--max-insns",
        "700000",
        "--keys",
        "q",
        prog.to_str().unwrap(),
    ];
    let fast = session(&args, script);
    let hooked = debug_session(&args, script, &[("TOOLHELP16_ALWAYS_HOOK", "1")]);
    assert_eq!(fast, hooked, "the session differs without the hook");
    assert!(fast.contains("the instruction budget ran out"), "{fast}");
    assert_eq!(after(&fast, "position"), ["700000", "699999"], "{fast}");
    let how = session(&args, "continue\nhooks\n");
    let expected = if cfg!(feature = "unpatched-engine") {
        // The unpatched engine's count without the hook is not exact for
        // any code: a budget keeps the hook all the way there.
        "ran to this stop with the hook on every instruction"
    } else {
        "ran with code hooks on the breakpoints only to position 69"
    };
    assert!(
        after(&how, "hooks")
            .first()
            .is_some_and(|l| l.starts_with(expected)),
        "{how}"
    );
}
