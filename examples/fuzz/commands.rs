//! The `commands` target: a mutated program run through the command
//! line's own code (`cli::run_from_args`, in process), as a user would
//! run it: `info`, `disasm`, `run`, `trace` (shown, recorded and
//! replayed), `stack`, `heap`, `profile`, `snapshot` then `walk`, and
//! `debug` with a script of debugger commands; with `--json` half of the
//! time, and small budgets (`--max-insns`, `--timeout`, `--disk-quota`).
//!
//! What is checked, beyond the harness's panics and time and memory
//! bounds: an exit status of 125 (an internal error, "a bug in
//! toolhelp16") is a finding; with `--json` the output must not be empty
//! and must be JSON to its end (one document, or for `trace` and
//! `disasm` one JSON value per line).
//!
//! The command line is chosen from the input's hash, so that a saved
//! input replays the same command. The command's standard output and
//! error go to files (fd 1 and 2 are redirected while the target runs);
//! the harness reports on the standard error it was started with.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Where the harness reports while fd 1 and 2 are the command's.
static REPORT: OnceLock<Mutex<File>> = OnceLock::new();

/// The files that stand for the command's standard output and error.
struct Capture {
    out: PathBuf,
    err: PathBuf,
}

static CAPTURE: OnceLock<Capture> = OnceLock::new();

/// Print a line of the harness's (on its own standard error once the
/// target has redirected fd 2).
pub fn report(line: &str) {
    match REPORT.get() {
        Some(f) => {
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(f, "{line}");
        }
        None => eprintln!("{line}"),
    }
}

/// Redirect fd 1 and 2 to files in `dir` (append mode, so that cutting
/// them to 0 between cases starts them again), keeping the harness's own
/// standard error for [`report`].
pub fn redirect(dir: &Path) {
    let out = dir.join("stdout");
    let err = dir.join("stderr");
    let open = |p: &Path| {
        File::options()
            .create(true)
            .append(true)
            .open(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    let (o, e) = (open(&out), open(&err));
    // SAFETY: dup(2) of the process's own standard error: the new fd is
    // owned by the File made from it and by nothing else; dup2 puts the
    // capture files' descriptors on 1 and 2 (the Files keep their own
    // descriptors, dropped at the end of this function, which leaves 1
    // and 2 open).
    unsafe {
        let saved = libc::dup(2);
        if saved >= 0 {
            let _ = REPORT.set(Mutex::new(File::from_raw_fd(saved)));
        }
        libc::dup2(o.as_raw_fd(), 1);
        libc::dup2(e.as_raw_fd(), 2);
    }
    let _ = CAPTURE.set(Capture { out, err });
}

/// Empty the capture files.
fn clear() {
    if let Some(c) = CAPTURE.get() {
        for p in [&c.out, &c.err] {
            if let Ok(f) = File::options().write(true).open(p) {
                let _ = f.set_len(0);
            }
        }
    }
}

/// What the command wrote on its standard output.
fn captured() -> Vec<u8> {
    let _ = std::io::stdout().flush();
    CAPTURE
        .get()
        .and_then(|c| std::fs::read(&c.out).ok())
        .unwrap_or_default()
}

/// Debugger commands a script is made of (`debug --commands`).
const DEBUG_COMMANDS: [&str; 26] = [
    "c",
    "si",
    "ni",
    "s",
    "n",
    "finish",
    "rs",
    "rc",
    "goto 100",
    "goto 0",
    "bt",
    "regs",
    "x/16b ss:sp",
    "x/8w ds:0",
    "disasm",
    "break +100",
    "break 0:0",
    "watch ds:0",
    "where",
    "tasks",
    "modules",
    "breakpoints",
    "delete 1",
    "list",
    "detach",
    "q",
];

/// Stopping places for `stack`, `heap` and `snapshot`.
const PLACES: [&str; 6] = [
    "+1",
    "+500",
    "+5000",
    "USER!GetMessage",
    "KERNEL!LocalAlloc",
    "0001:0000",
];

/// The command lines of one case (most have one; `trace --record`
/// replays in a second, `snapshot` walks in a second), whether each
/// prints JSON, and whether that JSON is JSON lines.
fn command_lines(b: &[u8], file: &Path, dir: &Path) -> Vec<(Vec<OsString>, bool, bool)> {
    let mut h = crate::hash(b);
    let mut pick = |n: u64| {
        let v = h % n;
        h = (h / n) ^ h.rotate_left(17);
        v as usize
    };
    let json = pick(2) == 0;
    let insns = ["2000", "20000", "100000"][pick(3)];
    let budget = [
        "--max-insns",
        insns,
        "--timeout",
        "2",
        "--disk-quota",
        "1M",
        "--quiet",
    ];
    let f = file.to_str().unwrap_or("FUZZ.EXE");
    let rec = dir.join("case.th16rec");
    let rec = rec.to_str().unwrap_or("case.th16rec");
    let snap = dir.join("case.json");
    let snap = snap.to_str().unwrap_or("case.json");
    let cmds = dir.join("case.cmd").to_string_lossy().into_owned();
    let place = PLACES[pick(PLACES.len() as u64)];
    let j: &[&str] = if json { &["--json"] } else { &[] };
    let cmd = pick(10);
    let mut lines: Vec<(Vec<OsString>, bool, bool)> = Vec::new();
    let mut line = |words: Vec<&[&str]>, json: bool, lines_json: bool| {
        let mut v = vec![OsString::from("toolhelp16")];
        for w in words {
            v.extend(w.iter().map(OsString::from));
        }
        lines.push((v, json, lines_json));
    };
    match cmd {
        0 => line(vec![&["info"], j, &[f]], json, false),
        1 => line(vec![&["disasm"], j, &[f]], json, true),
        2 => line(vec![&["run"], j, &budget, &[f]], json, false),
        3 => {
            let max = ["50", "2000"][pick(2)];
            line(vec![&["trace", "--max", max], j, &budget, &[f]], json, true);
        }
        4 => {
            let _ = std::fs::remove_file(rec);
            line(
                vec![&["trace", "--record", rec], &budget, &[f]],
                false,
                false,
            );
            line(
                vec![&["trace", "--replay", rec, "--max", "2000"], j],
                json,
                true,
            );
        }
        5 => line(
            vec![&["stack", "--at", place], j, &budget, &[f]],
            json,
            false,
        ),
        6 => line(vec![&["heap"], j, &budget, &[f]], json, false),
        7 => line(vec![&["profile"], j, &budget, &[f]], json, false),
        8 => {
            let _ = std::fs::remove_file(snap);
            line(
                vec![&["snapshot", "--at", place, "-o", snap], &budget, &[f]],
                false,
                false,
            );
            line(vec![&["walk", snap], j], json, false);
        }
        _ => {
            let n = 1 + pick(6);
            let script: Vec<&str> = (0..n)
                .map(|_| DEBUG_COMMANDS[pick(DEBUG_COMMANDS.len() as u64)])
                .collect();
            let _ = std::fs::write(&cmds, script.join("\n") + "\n");
            // Half the sessions take a checkpoint every few hundred
            // positions, so that going back restores one (the default
            // interval is longer than most of these runs).
            let every: &[&str] = [&[][..], &["--checkpoint-every", "300"][..]][pick(2)];
            line(
                vec![
                    &["debug", "--commands", cmds.as_str()],
                    every,
                    &budget,
                    &[f],
                ],
                false,
                false,
            );
        }
    }
    lines
}

/// Is `out` JSON to its end: one document, or (`lines`) one value per
/// line?
fn json_problem(out: &[u8], lines: bool) -> Option<String> {
    if out.iter().all(|b| b.is_ascii_whitespace()) {
        return Some("--json printed nothing".into());
    }
    if lines {
        for (k, l) in out.split(|&b| b == b'\n').enumerate() {
            if l.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            if let Err(e) = serde_json::from_slice::<serde_json::Value>(l) {
                return Some(format!("line {} is not JSON: {e}", k + 1));
            }
        }
        None
    } else {
        serde_json::from_slice::<serde_json::Value>(out)
            .err()
            .map(|e| format!("the output is not one JSON document: {e}"))
    }
}

/// Run one case: the mutated program `b` named `name` through a command.
pub fn run(b: &[u8], name: &str) -> &'static str {
    let dir = crate::program_dir();
    let file = dir.join(name);
    if std::fs::write(&file, b).is_err() {
        return "not written";
    }
    let mut outcome = "ran";
    for (args, json, lines) in command_lines(b, &file, &dir) {
        clear();
        let what = args
            .iter()
            .take(2)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let code = crate::cli::run_from_args(args.clone());
        if code == 125 {
            panic!(
                "exit 125 (an internal error) from {}",
                args.iter()
                    .map(|a| a.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        if json && let Some(p) = json_problem(&captured(), lines) {
            panic!("{what} --json (exit {code}): {p}");
        }
        outcome = exit_kind(code);
    }
    outcome
}

/// The exit status counted by kind (README, "Exit status").
fn exit_kind(code: i32) -> &'static str {
    match code {
        0 => "exit 0",
        1 => "exit 1",
        2 => "exit 2 (a usage error, or the program's own code 2)",
        c if (3..100).contains(&c) => "exit 3-99",
        c if (100..128).contains(&c) => EXIT_NAMES[(c - 100) as usize],
        _ => "exit other",
    }
}

const EXIT_NAMES: [&str; 28] = [
    "exit 100", "exit 101", "exit 102", "exit 103", "exit 104", "exit 105", "exit 106", "exit 107",
    "exit 108", "exit 109", "exit 110", "exit 111", "exit 112", "exit 113", "exit 114", "exit 115",
    "exit 116", "exit 117", "exit 118", "exit 119", "exit 120", "exit 121", "exit 122", "exit 123",
    "exit 124", "exit 125", "exit 126", "exit 127",
];
