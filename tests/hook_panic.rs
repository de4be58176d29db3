//! A panic inside an engine hook — Rust code that unicorn's C calls —
//! is an ordinary internal-error stop, never an abort (issue 30; src/
//! machine/hookguard.rs): the run ends with the documented status for a
//! bug in toolhelp16, 125 (README, "Exit status"), the message names the
//! hook and the panic, and `--json` output stays JSON to its end.
//!
//! The panic is made on purpose: in a debug build (the one tests run)
//! `TOOLHELP16_PANIC_IN_HOOK=21` makes the interrupt hook panic at the
//! first INT 21h. The program is `mov ah,4Ch; int 21h` (B4 4C CD 21,
//! DOS's "terminate with return code", Microsoft MS-DOS Programmer's
//! Reference, INT 21h function 4Ch): without the trigger it exits 0.

use std::process::{Command, Output, Stdio};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

/// The program, written in a directory of this test's own.
fn program(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("th16-hookpanic-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("EXIT.COM");
    std::fs::write(&p, [0xB4, 0x4C, 0xCD, 0x21]).unwrap();
    p
}

/// `toolhelp16 ARGS... EXIT.COM`, the trigger set to `int` (or unset).
fn run(name: &str, args: &[&str], int: Option<&str>) -> Output {
    let prog = program(name);
    let mut c = Command::new(exe());
    c.args(args).arg(&prog).stdin(Stdio::null());
    match int {
        Some(n) => c.env("TOOLHELP16_PANIC_IN_HOOK", n),
        None => c.env_remove("TOOLHELP16_PANIC_IN_HOOK"),
    };
    let out = c.output().unwrap();
    let _ = std::fs::remove_dir_all(prog.parent().unwrap());
    out
}

const MESSAGE: &str = "a panic in the engine's interrupt hook: \
                       TOOLHELP16_PANIC_IN_HOOK: a panic asked for at INT 21h";

#[test]
fn without_the_trigger_the_program_exits_0() {
    let out = run("none", &["run", "--timeout", "20"], None);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_panic_in_a_hook_is_exit_125_with_its_message() {
    let out = run("text", &["run", "--timeout", "20"], Some("21"));
    let err = String::from_utf8_lossy(&out.stderr);
    let text = format!("{}{err}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(125), "{text}");
    assert!(text.contains(MESSAGE), "{text}");
    assert!(text.contains("this is a bug in toolhelp16"), "{text}");
    // An ordinary stop: no abort, no crash report.
    assert!(!err.contains("the process crashed"), "{err}");
    assert!(
        !err.contains("panic in a function that cannot unwind"),
        "{err}"
    );
}

#[test]
fn a_panic_in_a_hook_keeps_run_json_one_document() {
    let out = run("json", &["run", "--json", "--timeout", "20"], Some("21"));
    assert_eq!(out.status.code(), Some(125), "{out:?}");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(v["exit"]["kind"], "error", "{v}");
    let text = v["exit"]["text"].as_str().unwrap_or_default();
    assert!(text.contains(MESSAGE), "{v}");
    assert!(text.contains("this is a bug in toolhelp16"), "{v}");
}

#[test]
fn a_panic_in_a_hook_keeps_trace_json_lines() {
    let out = run("trace", &["trace", "--json", "--timeout", "20"], Some("21"));
    assert_eq!(out.status.code(), Some(125), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    // The two instructions traced before the panic, each a JSON line,
    // then the stop as one `error` line of kind `internal` (it is said
    // on stderr too, as trace says every stop).
    assert_eq!(lines.len(), 3, "{stdout}");
    let docs: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}"))
        })
        .collect();
    assert!(docs[..2].iter().all(|d| d["ip"].is_u64()), "{stdout}");
    assert_eq!(docs[2]["kind"], "internal", "{stdout}");
    assert_eq!(docs[2]["exit_code"], 125, "{stdout}");
    assert!(
        docs[2]["message"]
            .as_str()
            .unwrap_or_default()
            .contains(MESSAGE),
        "{stdout}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(MESSAGE), "{err}");
}

#[test]
fn a_panic_in_a_hook_under_the_debugger_ends_the_session_with_125() {
    let dir = std::env::temp_dir().join(format!("th16-hookpanic-{}-cmds", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cmds = dir.join("cont.cmd");
    std::fs::write(&cmds, "c\nq\n").unwrap();
    let out = run(
        "debug",
        &[
            "debug",
            "--timeout",
            "20",
            "--commands",
            cmds.to_str().unwrap(),
        ],
        Some("21"),
    );
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(125), "{text}");
    assert!(text.contains(MESSAGE), "{text}");
}
