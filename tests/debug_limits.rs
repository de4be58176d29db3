//! The limits of a debugging session (issue 30, item 5): `--timeout` and
//! `--max-insns` hold on every continue, step and detach of `debug` and
//! `gdbserver`, for the whole session as for `run` (src/debug/mod.rs,
//! "Limits"), and a limit reaches gdb as a stop it understands: `T18`,
//! SIGXCPU in gdb's numbering (gdb/signals.def: GDB_SIGNAL_XCPU = 24).
//!
//! The program is two bytes, `EB FE` (`jmp $`, Intel SDM vol. 2, JMP
//! rel8: a jump to itself), as a .COM: it never ends by itself.
//! The exit statuses are the documented ones (`toolhelp16 --help`, "exit
//! status"): 122 for the instruction budget, 123 for the wall-clock limit.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("th16-dbglimits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `jmp $` as a .COM program.
fn jmpself(dir: &std::path::Path) -> PathBuf {
    let p = dir.join("jmpself.com");
    std::fs::write(&p, [0xEB, 0xFE]).unwrap();
    p
}

/// `debug --commands FILE` with `opts` on jmpself: stdout, exit status
/// (None when it did not end within `secs`), seconds taken.
fn debug(name: &str, opts: &[&str], commands: &str, secs: f64) -> (String, Option<i32>, f64) {
    let dir = scratch(name);
    let prog = jmpself(&dir);
    let cmds = dir.join("cmds.txt");
    std::fs::write(&cmds, commands).unwrap();
    let t = Instant::now();
    let mut child = Command::new(exe())
        .arg("debug")
        .args(opts)
        .arg("--commands")
        .arg(&cmds)
        .arg(&prog)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let status = wait_for(&mut child, secs);
    let took = t.elapsed().as_secs_f64();
    let text = reader.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (text, status.and_then(|s| s.code()), took)
}

#[test]
fn debug_timeout_ends_a_continue() {
    let (out, code, took) = debug("timeout", &["--timeout", "2"], "cont\n", 30.0);
    assert_eq!(code, Some(123), "{out}");
    assert!(
        out.contains("the program has ended: the wall-clock limit ran out"),
        "{out}"
    );
    assert!((2.0..15.0).contains(&took), "took {took} s");
}

#[test]
fn debug_max_insns_ends_a_continue_at_the_budget() {
    let (out, code, _) = debug(
        "insns",
        &["--max-insns", "1000"],
        "cont\nposition\ncont\n",
        30.0,
    );
    assert_eq!(code, Some(122), "{out}");
    assert!(
        out.contains("the program has ended: the instruction budget ran out"),
        "{out}"
    );
    // No instruction at position 1000 or beyond ran.
    assert!(out.contains("(debug) position\n1000\n"), "{out}");
    // Continuing past the end is refused, and the status stays the
    // budget's.
    assert!(out.contains("error: the program has ended"), "{out}");
}

#[test]
fn debug_budget_is_for_the_whole_session_across_steps_and_replays() {
    // Steps count towards the budget; going back and on again meets the
    // same limit at the same position.
    let (out, code, _) = debug(
        "session",
        &["--max-insns", "10"],
        "si\nsi\nsi\nposition\ncont\nposition\nrsi\nposition\nc\nposition\nquit\n",
        30.0,
    );
    assert_eq!(code, Some(122), "{out}");
    let positions: Vec<&str> = out
        .split("(debug) position\n")
        .skip(1)
        .map(|s| s.lines().next().unwrap())
        .collect();
    assert_eq!(positions, ["3", "10", "9", "10"], "{out}");
}

#[test]
fn debug_detach_runs_on_within_the_limits() {
    for (opts, code) in [(["--timeout", "1"], 123), (["--max-insns", "50000"], 122)] {
        let (out, status, took) = debug("detach", &opts, "si\ndetach\n", 30.0);
        assert_eq!(status, Some(code), "{opts:?}: {out}");
        assert!(took < 15.0, "{opts:?}: took {took} s");
    }
}

#[test]
fn debug_a_session_that_ends_within_the_timeout_is_not_a_limit() {
    // Stepping costs next to nothing of the time: the session ends at the
    // end of its commands, with status 0, well within --timeout.
    let (out, code, _) = debug("steps", &["--timeout", "20"], "si\nsi\nquit\n", 30.0);
    assert_eq!(code, Some(0), "{out}");
}

use common::{gdbserver, wait_for};

fn framed(body: &[u8]) -> Vec<u8> {
    toolhelp16::debug::rsp::frame(body)
}

/// Read the replies until one packet (not an O packet of console text)
/// arrives, within
/// `secs`.
fn reply(s: &mut TcpStream, secs: u64) -> String {
    let mut dec = toolhelp16::debug::rsp::Decoder::default();
    let mut b = [0u8; 1];
    s.set_read_timeout(Some(Duration::from_secs(secs))).unwrap();
    loop {
        s.read_exact(&mut b).expect("a reply in time");
        if let Some(toolhelp16::debug::rsp::Event::Packet(p)) = dec.feed(b[0])
            && (p == b"OK" || !(p.starts_with(b"O") && p.len() > 1))
        {
            return String::from_utf8_lossy(&p).into_owned();
        }
    }
}

#[test]
fn gdbserver_continue_gets_a_sigxcpu_stop_at_the_timeout() {
    let dir = scratch("gdbc");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--timeout", "2", prog.to_str().unwrap()]);
    let mut s = TcpStream::connect(&addr).unwrap();
    let t = Instant::now();
    s.write_all(&framed(b"c")).unwrap();
    assert_eq!(reply(&mut s, 20), "T18", "a limit stops as SIGXCPU");
    let took = t.elapsed().as_secs_f64();
    assert!((2.0..15.0).contains(&took), "took {took} s");
    // Resuming an ended program reports its end.
    s.write_all(&framed(b"c")).unwrap();
    assert_eq!(reply(&mut s, 20), "X18");
    s.write_all(&framed(b"k")).unwrap();
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(123));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_time_a_client_spends_at_a_stop_is_not_the_programs() {
    // src/debug/mod.rs, "Limits": --timeout is on the time the program
    // runs. A client that thinks for longer than it at a stop can still
    // step.
    let dir = scratch("gdbw");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--timeout", "1", prog.to_str().unwrap()]);
    let mut s = TcpStream::connect(&addr).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    s.write_all(&framed(b"s")).unwrap();
    assert_eq!(reply(&mut s, 20), "T05");
    std::thread::sleep(Duration::from_millis(1500));
    s.write_all(&framed(b"s")).unwrap();
    assert_eq!(reply(&mut s, 20), "T05");
    s.write_all(&framed(b"c")).unwrap();
    assert_eq!(reply(&mut s, 20), "T18");
    s.write_all(&framed(b"k")).unwrap();
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(123));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gdbserver_continue_and_steps_share_the_instruction_budget() {
    let dir = scratch("gdbi");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--max-insns", "5", prog.to_str().unwrap()]);
    let mut s = TcpStream::connect(&addr).unwrap();
    for _ in 0..4 {
        s.write_all(&framed(b"s")).unwrap();
        assert_eq!(reply(&mut s, 20), "T05");
    }
    // The fifth step runs the fifth instruction, and the program is at
    // its budget: it ends there, as `run --max-insns 5` does.
    s.write_all(&framed(b"s")).unwrap();
    assert_eq!(
        reply(&mut s, 20),
        "T18",
        "the fifth step reaches the budget"
    );
    drop(s);
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(122));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gdbserver_after_a_detach_ends_the_program_at_its_limits() {
    let dir = scratch("gdbd");
    let prog = jmpself(&dir);
    for (opts, code) in [(["--timeout", "2"], 123), (["--max-insns", "100000"], 122)] {
        let (mut server, addr) = gdbserver(&[opts[0], opts[1], prog.to_str().unwrap()]);
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(&framed(b"D")).unwrap();
        assert_eq!(reply(&mut s, 20), "OK");
        drop(s);
        let status = wait_for(&mut server, 20.0);
        assert_eq!(status.and_then(|s| s.code()), Some(code), "{opts:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gdb_sees_the_timeout_as_sigxcpu() {
    if !common::need::tool("gdb", "--version", "gdb") {
        return;
    }
    let dir = scratch("gdb");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--timeout", "2", prog.to_str().unwrap()]);
    let (ended, text) = common::gdb_batch(&addr, &["-ex", "continue", "-ex", "kill"], 30.0);
    assert!(ended, "gdb ended: {text}");
    assert!(text.contains("SIGXCPU"), "{text}");
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(123), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `toolhelp16 ARGS... jmpself.com`: exit status (None when it did not
/// end within `secs`), stdout and stderr.
fn command(name: &str, args: &[&str], secs: f64) -> (Option<i32>, String) {
    let dir = scratch(name);
    let prog = jmpself(&dir);
    let mut child = Command::new(exe())
        .args(args)
        .arg(&prog)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = wait_for(&mut child, secs);
    let text = reader.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (status.and_then(|s| s.code()), text)
}

#[test]
fn the_other_commands_end_a_runaway_program_at_the_timeout() {
    for args in [
        &["trace", "--timeout", "1", "--output", "t.jsonl"][..],
        &["stack", "--timeout", "1", "--at", "+100000000000"],
        &["heap", "--timeout", "1", "--at", "+100000000000"],
        &[
            "snapshot",
            "--timeout",
            "1",
            "--at",
            "+100000000000",
            "--output",
            "s.json",
        ],
        &["profile", "--timeout", "1"],
    ] {
        let t = Instant::now();
        let (code, text) = command("others", args, 20.0);
        let took = t.elapsed().as_secs_f64();
        assert_eq!(code, Some(123), "{args:?}: {text}");
        assert!(took < 10.0, "{args:?}: took {took} s");
    }
}

#[test]
fn at_plus_n_past_the_instruction_budget_is_the_budget() {
    // `--at +N` does not lift `--max-insns`: the budget ends the run
    // first, and the location was not reached.
    for args in [
        &["stack", "--max-insns", "1000", "--at", "+100000"][..],
        &["heap", "--max-insns", "1000", "--at", "+100000"],
        &[
            "snapshot",
            "--max-insns",
            "1000",
            "--at",
            "+100000",
            "--output",
            "s.json",
        ],
    ] {
        let (code, text) = command("plusn", args, 20.0);
        assert_eq!(code, Some(122), "{args:?}: {text}");
        assert!(
            text.contains("the instruction budget ran out"),
            "{args:?}: {text}"
        );
    }
    // Within the budget, +N is reached.
    let (code, text) = command(
        "plusn-in",
        &["stack", "--max-insns", "1000", "--at", "+10"],
        20.0,
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("after the requested number of instructions"),
        "{text}"
    );
}

#[test]
fn debug_keeps_the_disk_quota() {
    // roms/dossafe.asm under `debug`, continued to its end, with the
    // quota and the writes kept as tests/sandbox.rs runs it: its big
    // write is cut short at the same size as under `run` (64 KiB less
    // what its other files cost, dosfs.rs).
    let outer = scratch("quota");
    let dir = outer.join("prog");
    std::fs::create_dir_all(&dir).unwrap();
    let rom = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("roms/dossafe.com");
    std::fs::copy(rom, dir.join("dossafe.com")).unwrap();
    let outside = outer.join("OUTSIDE.TXT");
    std::fs::write(&outside, b"outside\n").unwrap();
    std::fs::hard_link(&outside, dir.join("LINK.TXT")).unwrap();
    std::fs::write(dir.join("DATA.TXT"), b"data\n").unwrap();
    std::fs::write(dir.join("OLD.TXT"), b"old\n").unwrap();
    let fifo = Command::new("mkfifo").arg(dir.join("PIPE.TXT")).status();
    if !fifo.is_ok_and(|s| s.success()) {
        common::need::tool_missing("`mkfifo`", "coreutils");
        return;
    }
    let cmds = outer.join("cmds.txt");
    std::fs::write(&cmds, "c\n").unwrap();
    let keep = outer.join("kept");
    let out = Command::new(exe())
        .args(["debug", "--disk-quota", "64K", "--keep-writes"])
        .arg(&keep)
        .arg("--commands")
        .arg(&cmds)
        .arg(dir.join("dossafe.com"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("the program has ended"), "{text}");
    assert_eq!(
        std::fs::metadata(keep.join("BIG.DAT")).unwrap().len(),
        0xF7F1,
        "{text}"
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"outside\n");
    let _ = std::fs::remove_dir_all(&outer);
}

#[test]
fn gdbserver_without_a_client_ends_at_the_timeout() {
    // src/debug/gdb.rs, module notes: --timeout bounds the wait for a
    // client too; nobody connects, the server says so and exits with the
    // wall-clock limit's status. `run --gdb PORT` is the same server.
    let dir = scratch("gdbnone");
    let prog = jmpself(&dir);
    for how in [
        &["gdbserver", "--listen", "0"][..],
        &["run", "--gdb", "0"][..],
    ] {
        let t = Instant::now();
        let mut child = Command::new(exe())
            .args(how)
            .args(["--timeout", "2"])
            .arg(&prog)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let status = wait_for(&mut child, 20.0);
        let text = reader.join().unwrap();
        let took = t.elapsed().as_secs_f64();
        assert_eq!(status.and_then(|s| s.code()), Some(123), "{how:?}: {text}");
        assert!((2.0..15.0).contains(&took), "{how:?}: took {took} s");
        assert!(
            text.contains("no gdb client connected within the time limit (--timeout 2 s)"),
            "{how:?}: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gdb_sees_the_budget_reached_by_a_step_as_sigxcpu() {
    if !common::need::tool("gdb", "--version", "gdb") {
        return;
    }
    let dir = scratch("gdbstep");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--max-insns", "2", prog.to_str().unwrap()]);
    // The first stepi runs instruction 1; the second runs instruction 2,
    // which is the budget: a stop gdb reports as SIGXCPU; a continue
    // after it is the end of the program by SIGXCPU.
    let (ended, text) = common::gdb_batch(
        &addr,
        &["-ex", "stepi", "-ex", "stepi", "-ex", "continue"],
        30.0,
    );
    assert!(ended, "gdb ended: {text}");
    assert!(
        text.contains("Program received signal SIGXCPU"),
        "the second stepi: {text}"
    );
    assert!(
        text.contains("Program terminated with signal SIGXCPU"),
        "the continue after it: {text}"
    );
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(122), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gdb_going_back_from_the_budget_meets_it_again_as_a_stop() {
    if !common::need::tool("gdb", "--version", "gdb") {
        return;
    }
    let dir = scratch("gdbagain");
    let prog = jmpself(&dir);
    let (mut server, addr) = gdbserver(&["--max-insns", "3", prog.to_str().unwrap()]);
    // The continue reaches the budget (a stop: SIGXCPU); two steps back
    // and two forward reach it again, a stop again, gdb's process still
    // alive (module notes of src/debug/gdb.rs: `X18` only when resumed
    // from the limit); the continue after that ends the process.
    let (ended, text) = common::gdb_batch(
        &addr,
        &[
            "continue",
            "reverse-stepi",
            "reverse-stepi",
            "stepi",
            "stepi",
            "info registers eip",
            "continue",
        ],
        30.0,
    );
    assert!(ended, "gdb ended: {text}");
    assert_eq!(
        text.matches("Program received signal SIGXCPU").count(),
        2,
        "the continue, then the second stepi: {text}"
    );
    assert!(text.contains("eip"), "registers after the stop: {text}");
    assert_eq!(
        text.matches("Program terminated with signal SIGXCPU")
            .count(),
        1,
        "the last continue: {text}"
    );
    let status = wait_for(&mut server, 10.0);
    assert_eq!(status.and_then(|s| s.code()), Some(122), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
