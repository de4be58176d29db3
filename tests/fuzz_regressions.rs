//! Inputs the fuzz harness (examples/fuzz.rs, README "Fuzzing") found,
//! kept so that what they broke stays fixed: each program of
//! tests/fuzz/programs/ runs to a stop the tool reports (an exit, a
//! fault, the budget), never a panic, an internal error (exit 125) or a
//! crash (exit 116).
//!
//! - `WSPRINTF.EXE`: a mutated Win16 program whose wsprintf `%s` pointed
//!   into a segment with a 4 GiB - 1 limit; `farptr::read_cstr` computed
//!   `limit - offset + 1` in 32 bits and overflowed (a panic inside the
//!   engine's hook, which cannot unwind: the process aborted).
//! - `WSPRINT2.EXE`: another mutated program that aborted the fuzz build
//!   made before that fix, and runs clean with it.
//!
//! And inputs of the `commands` target (tests/fuzz/commands/), with the
//! command that broke:
//!
//! - `DISASM1.EXE`, `DISASM2.EXE`, `DISASM3.EXE`: mutated MZ programs
//!   whose entry segment has nothing to list; `disasm --json` printed
//!   nothing with exit 0 where the text has the segment's heading (the
//!   JSON now has the heading as a note).
//! - `RECORD.COM`: a mutated roms/smcpages.com whose `rcr word
//!   [ecx+ecx-1729C743h],cl` (an address-size prefix, 67h, in real mode)
//!   reads past FFFFh: every run command stopped with an internal error
//!   ("emulation failed ... a read from memory that does not exist",
//!   exit 125); a 386 raises #GP there (Intel SDM vol. 2, real-address
//!   mode exceptions), exit 121.

mod common;

use common::{bin, root};

#[test]
fn the_programs_the_fuzzer_found_stop_cleanly() {
    let dir = root().join("tests/fuzz/programs");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let out = bin()
            .args([
                "run",
                "--max-insns",
                "200000",
                "--timeout",
                "20",
                "--stdin",
                "/dev/null",
            ])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            !matches!(code, None | Some(116) | Some(125)),
            "{}: exit {code:?}\n{err}",
            p.display()
        );
        assert!(!err.contains("panicked"), "{}: {err}", p.display());
        n += 1;
    }
    assert!(n > 0);
}

/// `disasm --json` of a program with nothing to list prints the note
/// that says so, one JSON value per line; never nothing.
#[test]
fn disasm_json_of_nothing_to_list_is_a_note() {
    let dir = root().join("tests/fuzz/commands");
    for name in ["DISASM1.EXE", "DISASM2.EXE", "DISASM3.EXE"] {
        let out = bin()
            .args(["disasm", "--json"])
            .arg(dir.join(name))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty(), "{name}: --json printed nothing");
        for l in &lines {
            let v: serde_json::Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{name}: not a JSON line ({e}): {l}"));
            assert_eq!(v["version"], 1, "{name}: {l}");
        }
        assert!(
            lines.iter().any(|l| l.contains("no instructions")),
            "{name}: {text}"
        );
    }
}

/// An effective address past FFFFh in real mode is #GP (exit 121, a
/// fault), not an internal error; under `trace --record` as under `run`.
#[test]
fn an_address_past_ffffh_in_real_mode_is_a_fault() {
    let prog = root().join("tests/fuzz/commands/RECORD.COM");
    let rec = std::env::temp_dir().join(format!("th16-fuzzreg-{}.th16rec", std::process::id()));
    let out = bin()
        .args(["trace", "--record"])
        .arg(&rec)
        .args(["--max-insns", "2000", "--timeout", "20", "--quiet"])
        .arg(&prog)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&rec);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(121), "{err}");
    assert!(err.contains("exception 13"), "{err}");
    let out = bin()
        .args(["run", "--max-insns", "2000", "--timeout", "20"])
        .arg(&prog)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(121), "{out:?}");
}

/// `trace --json` of a program that faults before its first instruction
/// (its NE entry point lies past its code segment's limit: a #GP on the
/// first fetch, exit 121) printed nothing. A trace whose exit status is
/// not 0 now ends with one `error` line of kind `stopped` carrying the
/// status, so the stop is in the JSON lines and never nothing.
#[test]
fn trace_json_of_a_program_that_stops_at_once_is_one_error_line() {
    let prog = root().join("tests/fuzz/commands/TRACE1.EXE");
    let out = bin().args(["trace", "--json"]).arg(&prog).output().unwrap();
    assert_eq!(out.status.code(), Some(121), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert_eq!(lines[0]["command"], "error");
    assert_eq!(lines[0]["kind"], "stopped");
    assert_eq!(lines[0]["exit_code"], 121);
    let msg = lines[0]["message"].as_str().unwrap();
    assert!(msg.contains("general protection fault"), "{msg}");
    // A budget that runs out mid-trace: the instructions, then the line.
    let out = bin()
        .args(["trace", "--json", "--max-insns", "5"])
        .arg(root().join("roms/smc8.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(122), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 1, "{text}");
    assert!(lines[..lines.len() - 1].iter().all(|l| l["ip"].is_u64()));
    let last = lines.last().unwrap();
    assert_eq!(
        (last["kind"].as_str(), last["exit_code"].as_i64()),
        (Some("stopped"), Some(122))
    );
}

/// Found by the `commands` target (issue 30, "every limit holds"): a
/// mutated self-loading application (tests/fuzz/commands/SELFLOOP.EXE,
/// from the harness's own SELFLOAD seed) whose BootApp never returns. A
/// self-loader's code runs while the program loads, before the run and
/// its limits begin, so `run --timeout 2` ran forever. The load now keeps
/// the wall-clock limit too (session.rs, `LoadOptions::load_timeout`):
/// the load fails, naming the loader and the limit, exit 120 (README,
/// "Exit status": the file cannot be loaded).
#[test]
fn a_self_loaders_endless_bootapp_ends_at_the_wall_clock_limit() {
    let prog = root().join("tests/fuzz/commands/SELFLOOP.EXE");
    for cmd in [
        &["run"][..],
        &["snapshot", "--at", "0001:0000", "-o", "/dev/null"][..],
    ] {
        let mut child = bin()
            .args(cmd)
            .args(["--timeout", "2", "--max-insns", "20000"])
            .arg(&prog)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Killed at 60 s: it hung.
        let status = common::wait_for(&mut child, 60.0);
        let mut err = String::new();
        use std::io::Read;
        let _ = child.stderr.take().unwrap().read_to_string(&mut err);
        assert_eq!(status.and_then(|s| s.code()), Some(120), "{cmd:?}: {err}");
        assert!(
            err.contains("the application's loader stopped in BootApp") && err.contains("timeout"),
            "{cmd:?}: {err}"
        );
    }
}
