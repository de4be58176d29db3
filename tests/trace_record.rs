//! `trace --record FILE` and `trace --replay FILE` (src/trace/record.rs):
//! the expansion of a recording is the live trace, byte for byte, in text
//! and JSON, with `--from`, `--module`, `--max` and `--syntax`; `--regs`
//! and `--html` run the recorded program again and check its path; a
//! truncated or corrupt recording is an error naming the file and the
//! offset.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{bin, rom, scratch};

/// Every run here reads this clock: the live run and the recorded one see
/// the same time.
const CLOCK: &str = "1992-04-06 12:34:56";

/// A program and how it is run: roms/ file, run options, command tail.
struct Case<'a> {
    file: &'a str,
    opts: &'a [&'a str],
    tail: &'a [&'a str],
}

const CASES: &[Case<'static>] = &[
    // A DOS .COM program calling DOS (INT 21h) to its exit.
    Case {
        file: "dos21.com",
        opts: &[],
        tail: &[],
    },
    // Self-modifying code, stopped by the budget inside a pass.
    Case {
        file: "dossmc.com",
        opts: &["--max-insns", "3001"],
        tail: &[],
    },
    // A tight loop stopped by the budget (on block boundaries and inside
    // blocks, below).
    Case {
        file: "hot.com",
        opts: &["--max-insns", "1000"],
        tail: &[],
    },
    // A Win16 program faulting (divide error): the faulting instruction
    // is the trace's last line.
    Case {
        file: "faults.exe",
        opts: &[],
        tail: &["d"],
    },
    // Win16 programs: a window's messages, and a recursion.
    Case {
        file: "demo.exe",
        opts: &[],
        tail: &[],
    },
    Case {
        file: "recurse.exe",
        opts: &[],
        tail: &[],
    },
];

fn run(args: &[&str], case: Option<&Case>, dir: &Path) -> Output {
    let mut cmd = bin();
    cmd.current_dir(dir).arg("trace").args(args);
    if let Some(c) = case {
        cmd.args(["--clock", CLOCK]).args(c.opts).arg(rom(c.file));
        if !c.tail.is_empty() {
            cmd.arg("--").args(c.tail);
        }
    }
    cmd.output().unwrap()
}

fn record(case: &Case, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let out = run(&["--record", path.to_str().unwrap()], Some(case), dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("toolhelp16: trace: recorded "), "{err}");
    assert!(path.exists(), "{err}");
    path
}

fn replay(path: &Path, extra: &[&str], dir: &Path) -> Output {
    let mut args = vec!["--replay", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args, None, dir)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The expansion writes what the live trace writes, byte for byte, and
/// exits with the live run's status.
fn assert_same(case: &Case, rec: &Path, extra: &[&str], dir: &Path) -> usize {
    let live = run(extra, Some(case), dir);
    let replayed = replay(rec, extra, dir);
    let what = format!("{} {:?} {extra:?}", case.file, case.opts);
    assert_eq!(
        String::from_utf8_lossy(&replayed.stdout),
        String::from_utf8_lossy(&live.stdout),
        "{what}: replayed vs live\n{}",
        stderr(&replayed)
    );
    assert_eq!(replayed.status.code(), live.status.code(), "{what}");
    // The count of instructions written is said alike.
    let said = |o: &Output| {
        stderr(o)
            .lines()
            .find(|l| l.contains("instructions written"))
            .map(str::to_string)
    };
    assert_eq!(said(&replayed), said(&live), "{what}");
    live.stdout.iter().filter(|&&b| b == b'\n').count()
}

#[test]
fn the_expansion_is_the_live_trace_in_text_and_json() {
    let dir = scratch("record-same");
    for (k, case) in CASES.iter().enumerate() {
        let rec = record(case, &dir, &format!("{k}.rec"));
        let lines = assert_same(case, &rec, &[], &dir);
        assert!(lines > 0, "{}: an empty trace", case.file);
        assert_same(case, &rec, &["--json"], &dir);
        assert_same(case, &rec, &["--syntax", "gas", "--max", "25"], &dir);
    }
}

/// `--from`, `--module` and `--max` select from the recording as the live
/// tracer selects while the program runs.
#[test]
fn from_module_and_max_select_alike() {
    let dir = scratch("record-select");
    let case = &CASES[5];
    let rec = record(case, &dir, "recurse.rec");
    let n = assert_same(case, &rec, &["--from", "RECURSE!main"], &dir);
    assert!(n > 100, "--from main writes the recursion: {n} lines");
    let n = assert_same(case, &rec, &["--module", "KERNEL"], &dir);
    assert!(n > 0, "KERNEL's code runs");
    let n = assert_same(
        case,
        &rec,
        &["--module", "recurse", "--max", "40", "--json"],
        &dir,
    );
    assert_eq!(n, 40);
    assert_same(case, &rec, &["--syntax", "masm", "--max", "0"], &dir);
}

/// A budget of N instructions leaves exactly N lines, whether it ends on
/// a block boundary or inside a block (roms/hot.asm's loop): the budget
/// counts completed instructions. (The live tracer used to drop the last
/// block when the next block began inside it, a loop back to its own
/// start: it now takes the machine's count.)
#[test]
fn a_budget_leaves_as_many_lines_as_instructions() {
    let dir = scratch("record-budget");
    for n in [1u64, 2, 3, 7, 10, 11, 12, 13, 99, 100, 101, 1001] {
        let budget = n.to_string();
        let opts = ["--max-insns", budget.as_str()];
        let case = Case {
            file: "hot.com",
            opts: &opts,
            tail: &[],
        };
        let rec = record(&case, &dir, &format!("hot{n}.rec"));
        let lines = assert_same(&case, &rec, &[], &dir);
        assert_eq!(lines as u64, n, "--max-insns {n}");
    }
}

/// roms/dossmc.asm: `mov [patch+1],al; inc al; patch: mov bl,0; jmp again`
/// with AL = 0 at the start. The first pass stores 0 (mov bl,0 runs as
/// assembled), the second stores 1: the second pass runs `mov bl,1`, and
/// both traces show the bytes that ran.
#[test]
fn rewritten_code_is_traced_as_it_ran() {
    let dir = scratch("record-smc");
    let case = Case {
        file: "dossmc.com",
        opts: &["--max-insns", "12"],
        tail: &[],
    };
    let rec = record(&case, &dir, "smc.rec");
    assert_same(&case, &rec, &[], &dir);
    let out = replay(&rec, &[], &dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12, "{text}");
    let texts: Vec<&str> = lines
        .iter()
        .map(|l| l.rsplit("  ").next().unwrap().trim())
        .collect();
    assert!(texts[2].ends_with("mov bl,0"), "{text}");
    assert!(texts[6].ends_with("mov bl,1"), "{text}");
    assert!(
        texts[10].ends_with("mov bl,2") || lines[10].contains("B3 02"),
        "{text}"
    );
}

/// `--replay --regs` runs the recorded program again with a hook per
/// instruction: the same text as the live `--regs` trace, and the run is
/// checked against the recorded path.
#[test]
fn registers_come_from_a_checked_rerun() {
    let dir = scratch("record-regs");
    for case in [&CASES[0], &CASES[3], &CASES[5]] {
        let rec = record(case, &dir, "regs.rec");
        assert_same(case, &rec, &["--regs"], &dir);
        let out = replay(&rec, &["--regs", "--json", "--max", "20"], &dir);
        let err = stderr(&out);
        assert!(
            err.contains("the re-run took the path recorded in"),
            "{err}"
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.lines().count(), 20, "{err}");
        assert!(text.lines().all(|l| l.contains("\"changed\"")), "{text}");
    }
}

/// The step-through page of a replay is the live page.
#[test]
fn the_html_page_of_a_replay_is_the_live_page() {
    let dir = scratch("record-html");
    let case = &CASES[5];
    let rec = record(case, &dir, "page.rec");
    let live = run(&["--html", "live.html"], Some(case), &dir);
    assert!(live.status.success(), "{}", stderr(&live));
    let out = replay(&rec, &["--html", "replayed.html"], &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("the re-run took the path"));
    let a = std::fs::read_to_string(dir.join("live.html")).unwrap();
    let b = std::fs::read_to_string(dir.join("replayed.html")).unwrap();
    assert!(a.len() > 1000);
    assert!(a == b, "the pages differ");
}

/// A re-run that leaves the recorded path (here: a recording whose header
/// was changed to a smaller budget) is an error, not a trace passed off
/// as the recorded one.
#[test]
fn a_rerun_that_leaves_the_recorded_path_is_an_error() {
    use toolhelp16::trace::record::{Reader, header_bytes};
    let dir = scratch("record-diverge");
    let rec = record(&CASES[2], &dir, "hot.rec");
    let bytes = std::fs::read(&rec).unwrap();
    let r = Reader::new(&rec, Box::new(std::io::Cursor::new(bytes.clone()))).unwrap();
    let mut h = r.header.clone();
    let old = header_bytes(&h).len();
    let k = h.args.iter().position(|a| a == "1000").unwrap();
    h.args[k] = "500".into();
    let mut changed = header_bytes(&h);
    changed.extend_from_slice(&bytes[old..]);
    let bad = dir.join("changed.rec");
    std::fs::write(&bad, changed).unwrap();
    // The expansion itself reads only the recording.
    let out = replay(&bad, &[], &dir);
    assert!(out.status.code() == Some(122), "{}", stderr(&out));
    let out = replay(&bad, &["--regs"], &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(120), "{err}");
    assert!(err.contains("left the recorded path"), "{err}");
    assert!(err.contains("changed.rec"), "{err}");
}

/// Truncated, foreign and corrupt recordings: exit 120 and a message
/// naming the file, the offset and what was wrong; never a panic.
#[test]
fn bad_recordings_are_named_errors() {
    let dir = scratch("record-bad");
    let rec = record(&CASES[0], &dir, "good.rec");
    let bytes = std::fs::read(&rec).unwrap();
    let bad = dir.join("bad.rec");
    for cut in [
        0,
        5,
        9,
        20,
        bytes.len() / 3,
        bytes.len() / 2,
        bytes.len() - 1,
    ] {
        std::fs::write(&bad, &bytes[..cut]).unwrap();
        let out = replay(&bad, &[], &dir);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(120), "cut at {cut}: {err}");
        assert!(err.contains("bad.rec: offset "), "cut at {cut}: {err}");
        assert!(err.contains("truncated"), "cut at {cut}: {err}");
    }
    std::fs::write(&bad, b"MZ\x90\x00 not a recording").unwrap();
    let err = stderr(&replay(&bad, &[], &dir));
    assert!(
        err.contains("bad.rec: offset 0: not a toolhelp16 recording"),
        "{err}"
    );
    // A record type that does not exist, right after the header.
    let r =
        toolhelp16::trace::record::Reader::new(&rec, Box::new(std::io::Cursor::new(bytes.clone())))
            .unwrap();
    let at = toolhelp16::trace::record::header_bytes(&r.header).len();
    let mut b = bytes.clone();
    b[at] = b'Q';
    std::fs::write(&bad, &b).unwrap();
    let err = stderr(&replay(&bad, &[], &dir));
    assert!(
        err.contains(&format!("bad.rec: offset {at}: unknown record type 0x51")),
        "{err}"
    );
    // One byte changed in the middle: a named error (which one depends on
    // what the byte was part of).
    let mut b = bytes.clone();
    let mid = b.len() / 2;
    b[mid] ^= 0x10;
    std::fs::write(&bad, &b).unwrap();
    let out = replay(&bad, &[], &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(120), "{err}");
    assert!(err.contains("bad.rec: offset "), "{err}");
    // A byte of the run's report, in the end record (its last five bytes
    // are the report's last character and the check): the check fails.
    let mut b = bytes.clone();
    let n = b.len();
    b[n - 5] ^= 0x10;
    std::fs::write(&bad, &b).unwrap();
    let out = replay(&bad, &[], &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(120), "{err}");
    assert!(err.contains("the end record is corrupt"), "{err}");
    // A recording of another version.
    let mut b = bytes.clone();
    b[8] = 99;
    std::fs::write(&bad, &b).unwrap();
    let err = stderr(&replay(&bad, &[], &dir));
    assert!(
        err.contains("bad.rec: offset 8: format version 99"),
        "{err}"
    );
}

/// What --record and --replay refuse: a program named to --replay, the
/// trace's own options given to --record (exit 2, clap's usage error).
#[test]
fn record_and_replay_refuse_what_does_not_apply() {
    let dir = scratch("record-usage");
    let rec = record(&CASES[0], &dir, "u.rec");
    let out = bin()
        .current_dir(&dir)
        .args(["trace", "--replay", "u.rec"])
        .arg(rom("dos21.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120), "{}", stderr(&out));
    assert!(stderr(&out).contains("give no FILE"));
    for opt in [["--max", "5"], ["--module", "X"], ["-o", "x.txt"]] {
        let out = bin()
            .current_dir(&dir)
            .args(["trace", "--record", "v.rec"])
            .args(opt)
            .arg(rom("dos21.com"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{opt:?}: {}", stderr(&out));
    }
    assert!(rec.exists());
}

/// A recording that cannot be written (a full disk: /dev/full) is an
/// error naming the file, not a run that seems to have been recorded.
#[test]
fn a_recording_that_cannot_be_written_is_an_error() {
    if !Path::new("/dev/full").exists() {
        common::need::tool_missing("/dev/full", "a Linux host has it");
        return;
    }
    let dir = scratch("record-full");
    for case in [&CASES[0], &CASES[2]] {
        let out = run(&["--record", "/dev/full"], Some(case), &dir);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(120), "{}: {err}", case.file);
        assert!(err.contains("--record /dev/full: "), "{err}");
        assert!(!err.contains("toolhelp16: trace: recorded"), "{err}");
    }
}

/// Issue 30 item 8: JSON lines stay JSON lines to the end. The replay of
/// a truncated recording prints the instructions it could read, then its
/// error as one more JSON line (not a pretty-printed document); so does a
/// live trace whose output cannot be written.
#[test]
fn json_errors_after_json_lines_are_one_line() {
    let dir = scratch("record-json-error");
    let rec = record(&CASES[0], &dir, "good.rec");
    let bytes = std::fs::read(&rec).unwrap();
    let cut = dir.join("cut.rec");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let check = |out: &Output, what: &str| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(120), "{what}: {}", stderr(out));
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l:?}\n{text}"))
            })
            .collect();
        let last = lines.last().unwrap_or_else(|| panic!("{what}: no output"));
        assert_eq!(last["command"], "error", "{what}: {text}");
        assert_eq!(last["exit_code"], 120, "{what}: {text}");
        lines.len()
    };
    let n = check(&replay(&cut, &["--json"], &dir), "replay");
    assert!(n > 1, "the readable instructions come first");
    let live = run(&["--json", "-o", "/dev/full"], Some(&CASES[0]), &dir);
    assert_eq!(check(&live, "live"), 1);
}
