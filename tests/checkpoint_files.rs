//! Checkpoint files (issue 33, item 1; src/debug/checkpoint_file.rs,
//! src/cli/resume.rs): `snapshot --resumable` writes a stopped run into a
//! file; `run`, `debug` and `gdbserver --resume FILE` go on from it
//! exactly as the uninterrupted run went on.
//!
//! Each program is copied into a directory of its own (the file holds
//! the program's whole drive C:), and stopped at several positions; at
//! each, the resumed `run` prints the uninterrupted run's output from the
//! stop on and ends as it did, and a resumed `debug` session shows the
//! same position, registers and `digest` (memory, VGA planes, console
//! output, clock) as a session that ran there from the start, at the stop
//! and at the end, and goes back before the file's position (the replay
//! starts from the program's start).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CLOCK: &str = "1992-04-06 09:30:00";

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

fn rom(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

/// A scratch directory for `tag`, empty.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-ckfile-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `program` copied alone into a directory of its own under `dir`.
fn alone(dir: &Path, program: &Path) -> PathBuf {
    let d = dir.join("prog");
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(program.file_name().unwrap());
    std::fs::copy(program, &p).unwrap();
    p
}

fn th16(args: &[&str]) -> Output {
    Command::new(exe()).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The lines of a debug transcript after each `(debug) position`,
/// `regs` and `digest` command: what the state was.
fn states(transcript: &str) -> Vec<String> {
    transcript
        .split("(debug) ")
        .filter(|p| {
            p.starts_with("position\n") || p.starts_with("regs\n") || p.starts_with("digest\n")
        })
        .map(str::to_string)
        .collect()
}

fn debug(dir: &Path, tag: &str, args: &[&str], script: &str) -> String {
    let f = dir.join(format!("{tag}.cmd"));
    std::fs::write(&f, script).unwrap();
    let mut all = vec![
        "debug",
        "--timeout",
        "300",
        "--commands",
        f.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let out = th16(&all);
    text(&out.stdout)
}

/// Stop `program` (run with `opts`) at each of `positions`, write a
/// checkpoint file there, and check each resumed run against the
/// uninterrupted one (module notes). `back` is a position before the
/// first of `positions` that the resumed session goes back to.
fn resumes_as_it_ran(tag: &str, program: &Path, opts: &[&str], positions: &[u64], back: u64) {
    let dir = scratch(tag);
    let prog = alone(&dir, program);
    let prog_s = prog.to_str().unwrap();
    let mut full_args = vec!["run", "--clock", CLOCK];
    full_args.extend_from_slice(opts);
    full_args.push(prog_s);
    let full = th16(&full_args);
    let full_out = text(&full.stdout);
    let full_code = full.status.code();
    // The end of the uninterrupted run, as the debugger sees it.
    let mut dbg_args = vec!["--clock", CLOCK];
    dbg_args.extend_from_slice(opts);
    dbg_args.push(prog_s);
    let end_script = "continue\nposition\nregs\ndigest\nquit\n";
    let end = states(&debug(&dir, "end", &dbg_args, end_script));
    assert_eq!(end.len(), 3, "{end:?}");
    for &p in positions {
        let file = dir.join(format!("at{p}.json"));
        let file_s = file.to_str().unwrap();
        let at = format!("+{p}");
        let mut snap = vec![
            "snapshot",
            "--resumable",
            "--clock",
            CLOCK,
            "--at",
            &at,
            "-o",
            file_s,
        ];
        snap.extend_from_slice(opts);
        snap.push(prog_s);
        let out = th16(&snap);
        assert!(out.status.success(), "{}", text(&out.stderr));
        // `walk` still reads it.
        let w = th16(&["walk", file_s]);
        assert!(
            w.status.success(),
            "walk of a checkpoint file: {}",
            text(&w.stderr)
        );

        // `run --resume`: the rest of the output, the same end.
        let r = th16(&["run", "--resume", file_s]);
        let err = text(&r.stderr);
        assert!(
            err.contains(&format!("resumed {file_s} at position {p}")),
            "{err}"
        );
        assert_eq!(r.status.code(), full_code, "{err}");
        let rest = text(&r.stdout);
        assert!(
            full_out.ends_with(&rest),
            "at {p}: the resumed output\n{rest}\nis not the end of the run's\n{full_out}"
        );

        // `debug --resume`: the state at the stop and at the end as a
        // session from the start has it; and back before the file's
        // position.
        let here = "position\nregs\ndigest\n";
        let resumed = states(&debug(
            &dir,
            &format!("r{p}"),
            &["--resume", file_s],
            &format!("{here}continue\n{here}goto {back}\n{here}quit\n"),
        ));
        let fresh = states(&debug(
            &dir,
            &format!("f{p}"),
            &dbg_args,
            &format!("break +{p}\ncontinue\n{here}delete +{p}\ngoto {back}\n{here}quit\n"),
        ));
        assert_eq!(resumed.len(), 9, "{resumed:?}");
        assert_eq!(fresh.len(), 6, "{fresh:?}");
        assert_eq!(resumed[0], format!("position\n{p}\n"));
        assert_eq!(resumed[..3], fresh[..3], "at the file's position {p}");
        assert_eq!(resumed[3..6], end[..], "at the end, resumed at {p}");
        assert_eq!(resumed[6..9], fresh[3..6], "back at {back}, resumed at {p}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The output of tests/watcom/ckdos.c (its comment): the sum of i*i
/// for i up to the round, the file's length after the round's line (the
/// new offset lseek returns, as INT 21h AH=42h's DX:AX), the first line.
fn ckdos_output() -> String {
    let mut out = String::new();
    let (mut sum, mut len) = (0i64, 0i64);
    for i in 0..30i64 {
        sum += i * i;
        len += format!("round {i} sum {sum}\r\n").len() as i64;
        if i % 6 == 5 {
            out += &format!("round {i} sum {sum} file {len}\r\n");
        }
    }
    out + "first \"round 0 sum 0\"\r\ndone\r\n"
}

#[test]
fn a_dos_program_writing_files_resumes_as_it_ran() {
    let Some(exe) = common::watcom::build(
        "ckdos",
        common::watcom::Kind::DosExe,
        &["ckdos.c"],
        None,
        &[],
    ) else {
        return;
    };
    let dir = scratch("ckdos-check");
    let prog = alone(&dir, &exe);
    let out = th16(&["run", "--clock", CLOCK, prog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), ckdos_output());
    let _ = std::fs::remove_dir_all(&dir);
    let total = positions_of(&exe);
    resumes_as_it_ran(
        "ckdos",
        &exe,
        &[],
        &[total / 5, total / 2, total - 50],
        total / 10,
    );
}

/// The positions a program runs (a debug session to its end).
fn positions_of(program: &Path) -> u64 {
    let dir = scratch("count");
    let prog = alone(&dir, program);
    let t = debug(
        &dir,
        "count",
        &["--clock", CLOCK, prog.to_str().unwrap()],
        "continue\nposition\nquit\n",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let s = states(&t);
    s[0].trim_start_matches("position\n")
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_timed_dos_program_resumes_with_its_keys_and_ticks() {
    // roms/dosirq.com hooks INT 1Ch and waits for ticks, then reads a
    // key: the clock, the pending tick and --keys are in the file.
    resumes_as_it_ran(
        "dosirq",
        &rom("dosirq.com"),
        &["--keys", "q"],
        &[100_000, 600_000],
        20_000,
    );
}

#[test]
fn a_vga_program_resumes_with_its_planes() {
    resumes_as_it_ran("vgashow", &rom("vgashow.com"), &[], &[5_000, 30_000], 1_000);
}

/// The output of tests/watcom/ckfile.c (its comment): a line every eighth
/// round with the total after it (3k+1 summed over k = 0..=i) and the
/// file's length (_llseek(h, 0, 2) returns the new offset, SDK), then
/// the file's first line and length.
fn ckfile_output() -> String {
    let mut out = String::new();
    let (mut total, mut len) = (0i64, 0i64);
    for i in 0..40i64 {
        total += 3 * i + 1;
        len += format!("round {i} total {total}\r\n").len() as i64;
        if i % 8 == 7 {
            out += &format!("round {i} total {total} file {len}\r\n");
        }
    }
    out + &format!("first \"round 0 total 1\" length {len}\r\ndone\r\n")
}

#[test]
fn a_win16_program_with_a_window_procedure_resumes_as_it_ran() {
    let Some(exe) = common::watcom::win16("ckfile") else {
        return;
    };
    // The program as Windows runs it: what the resumed runs are held to.
    let dir = scratch("ckfile-check");
    let prog = alone(&dir, &exe);
    let out = th16(&["run", "--clock", CLOCK, prog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), ckfile_output());
    let _ = std::fs::remove_dir_all(&dir);
    // Positions inside the rounds (the window procedure runs nested).
    resumes_as_it_ran("ckfile", &exe, &[], &[1_500, 3_500, 5_500], 500);
}

#[test]
fn a_state_that_differs_is_refused() {
    let dir = scratch("refused");
    let prog = alone(&dir, &rom("dosfile.com"));
    let file = dir.join("f.json");
    let file_s = file.to_str().unwrap();
    let out = th16(&[
        "snapshot",
        "--resumable",
        "--at",
        "+500",
        "-o",
        file_s,
        prog.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["resume"]["digest"]["memory"] = "0123456789abcdef".into();
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    for cmd in [
        vec!["run", "--resume", file_s],
        vec!["gdbserver", "--listen", "0", "--resume", file_s],
    ] {
        let r = th16(&cmd);
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(118), "{cmd:?}: {err}");
        assert!(
            err.contains(
                "the replay reached position 500 with another state than the file's: memory"
            ),
            "{err}"
        );
    }
    // A position the program never reaches.
    v["resume"]["position"] = 50_000_000.into();
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let r = th16(&["run", "--resume", file_s]);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(118), "{err}");
    assert!(err.contains("not at the file's position 50000000"), "{err}");
    // A snapshot without the resume member.
    let plain = dir.join("plain.json");
    let out = th16(&[
        "snapshot",
        "--at",
        "+500",
        "-o",
        plain.to_str().unwrap(),
        prog.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let r = th16(&["run", "--resume", plain.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(120));
    assert!(
        text(&r.stderr).contains("a snapshot without the `resume` member"),
        "{}",
        text(&r.stderr)
    );
    // A broken path in the file: the field is named.
    v["resume"]["files"][0]["path"] = "../x".into();
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let r = th16(&["run", "--resume", file_s]);
    assert_eq!(r.status.code(), Some(120));
    assert!(
        text(&r.stderr).contains("resume.files[0].path: \"../x\""),
        "{}",
        text(&r.stderr)
    );
    // Options that would change the run are the file's.
    let r = th16(&["run", "--keys", "x", "--resume", file_s]);
    assert_eq!(r.status.code(), Some(120));
    assert!(text(&r.stderr).contains("--keys would change the run"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Send one packet and gather the reply: the text of its O packets
/// (monitor output, hex) and the packet that ends it.
fn rsp(s: &mut std::net::TcpStream, body: &str) -> (String, String) {
    use std::io::{Read, Write};
    s.write_all(&toolhelp16::debug::rsp::frame(body.as_bytes()))
        .unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let mut dec = toolhelp16::debug::rsp::Decoder::default();
    let mut said = String::new();
    let mut b = [0u8; 1];
    loop {
        s.read_exact(&mut b).expect("a reply in time");
        if let Some(toolhelp16::debug::rsp::Event::Packet(p)) = dec.feed(b[0]) {
            if p.len() > 1 && p[0] == b'O' && p != b"OK" {
                let bytes = toolhelp16::debug::rsp::from_hex(&p[1..]).unwrap();
                said += &String::from_utf8_lossy(&bytes);
                continue;
            }
            return (said, String::from_utf8_lossy(&p).into_owned());
        }
    }
}

fn monitor(s: &mut std::net::TcpStream, cmd: &str) -> String {
    let hex: String = cmd.bytes().map(|b| format!("{b:02x}")).collect();
    let (said, end) = rsp(s, &format!("qRcmd,{hex}"));
    assert_eq!(end, "OK", "monitor {cmd}");
    said
}

/// What gdb sees at a stop: the position, the registers (`g`), the
/// digest.
fn gdb_state(s: &mut std::net::TcpStream) -> (String, String, String) {
    (monitor(s, "position"), rsp(s, "g").1, monitor(s, "digest"))
}

#[test]
fn gdbserver_resumes_at_the_files_stop_and_steps_back_before_it() {
    let Some(exe) = common::watcom::win16("ckfile") else {
        return;
    };
    let dir = scratch("gdb");
    let prog = alone(&dir, &exe);
    let file = dir.join("f.json");
    let out = th16(&[
        "snapshot",
        "--resumable",
        "--clock",
        CLOCK,
        "--at",
        "+3000",
        "-o",
        file.to_str().unwrap(),
        prog.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (resumed, addr) = common::gdbserver(&["--resume", file.to_str().unwrap()]);
    let mut r = std::net::TcpStream::connect(&addr).unwrap();
    let (fresh, addr) = common::gdbserver(&["--clock", CLOCK, prog.to_str().unwrap()]);
    let mut f = std::net::TcpStream::connect(&addr).unwrap();
    monitor(&mut f, "break +3000");
    let (_, stop) = rsp(&mut f, "c");
    assert!(stop.starts_with('T') || stop.starts_with('S'), "{stop}");
    let at_r = gdb_state(&mut r);
    assert_eq!(at_r.0, "3000\n");
    assert_eq!(at_r, gdb_state(&mut f), "at the file's position");
    // Back before the file's position: the replay starts at the start.
    for _ in 0..3 {
        rsp(&mut r, "bs");
        rsp(&mut f, "bs");
    }
    let back_r = gdb_state(&mut r);
    assert_eq!(back_r.0, "2997\n");
    assert_eq!(back_r, gdb_state(&mut f), "three steps back");
    // On to the end: the same end.
    monitor(&mut f, "delete +3000");
    let end_r = rsp(&mut r, "c").1;
    let end_f = rsp(&mut f, "c").1;
    assert_eq!(end_r, end_f);
    for (mut s, mut child) in [(r, resumed), (f, fresh)] {
        let _ = rsp_kill(&mut s);
        let _ = child.wait();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn rsp_kill(s: &mut std::net::TcpStream) -> std::io::Result<()> {
    use std::io::Write;
    s.write_all(&toolhelp16::debug::rsp::frame(b"k"))
}
