//! A crash of the tool (a signal in the emulation engine) is reported
//! with exit 116, a message and, under `--json`, the JSON error object:
//! never a silent death by the signal (src/cli/crash.rs; README, "Exit
//! status"). The signal is sent from outside, as a fault inside the
//! engine would raise it, to a program that loops for ever.

#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::Duration;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolhelp16"))
}

/// A .COM that jumps to itself (`jmp $`).
fn looping_program() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("toolhelp16-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("LOOP.COM");
    std::fs::write(&p, [0xEB, 0xFE]).unwrap();
    p
}

/// Run `args` on the looping program, send `signal` once it runs, and
/// return (exit code, stdout, stderr).
fn crash_with(signal: &str, json: bool) -> (Option<i32>, String, String) {
    let prog = looping_program();
    let mut cmd = bin();
    cmd.args(["run", "--timeout", "60"]);
    if json {
        cmd.arg("--json");
    }
    let child = cmd
        .arg(&prog)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it load and enter the loop.
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_segfault_is_exit_116_with_a_message() {
    let (code, _, err) = crash_with("SEGV", false);
    assert_eq!(code, Some(116), "stderr: {err}");
    assert!(
        err.contains("toolhelp16: the process crashed with SIGSEGV"),
        "{err}"
    );
    assert!(err.contains("please report it"), "{err}");
}

#[test]
fn a_crash_under_json_ends_with_the_error_object() {
    let (code, out, err) = crash_with("BUS", true);
    assert_eq!(code, Some(116), "stderr: {err}");
    let last = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["command"], "error");
    assert_eq!(v["exit_code"], 116);
    assert_eq!(v["kind"], "internal");
    assert!(v["message"].as_str().unwrap().contains("SIGBUS"), "{v}");
}

#[test]
fn an_abort_is_exit_116_too() {
    let (code, _, err) = crash_with("ABRT", false);
    assert_eq!(code, Some(116), "stderr: {err}");
    assert!(err.contains("crashed with SIGABRT"), "{err}");
}
