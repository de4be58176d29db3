//! A run whose emulated system keeps running in toolhelp16's own code past
//! the wall-clock limit still ends (issue 30, "every limit holds"; src/
//! machine/watchdog.rs, the backstop): the watchdog's stop reaches only the
//! emulation, so a DOS or Win16 function whose loop did not end would hold
//! the command forever. The `toolhelp16` command ends such a run
//! `GRACE` (5 s) after its deadline with the wall-clock status, 123
//! (README, "Exit status"), and says why on stderr.
//!
//! The endless function is made on purpose: in a debug build (the one
//! tests run) `TOOLHELP16_HANG_IN_HOOK=21` makes the interrupt hook never
//! return at the first INT 21h. The program is `mov ah,4Ch; int 21h`
//! (B4 4C CD 21, "terminate with return code", MS-DOS Programmer's
//! Reference, INT 21h function 4Ch): without the trigger it exits 0.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

fn program(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("th16-backstop-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("EXIT.COM");
    std::fs::write(&p, [0xB4, 0x4C, 0xCD, 0x21]).unwrap();
    p
}

/// Run `toolhelp16 ARGS EXIT.COM` with the trigger (or without), killed
/// after `wait` if it has not ended: (exit status, stderr), or None when it
/// had to be killed.
fn run(name: &str, args: &[&str], hang: bool, wait: Duration) -> Option<(Option<i32>, String)> {
    let prog = program(name);
    let mut c = Command::new(env!("CARGO_BIN_EXE_toolhelp16"));
    c.args(args)
        .arg(&prog)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if hang {
        c.env("TOOLHELP16_HANG_IN_HOOK", "21");
    } else {
        c.env_remove("TOOLHELP16_HANG_IN_HOOK");
    }
    let mut child = c.spawn().unwrap();
    let status = common::wait_for(&mut child, wait.as_secs_f64());
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    let _ = std::fs::remove_dir_all(prog.parent().unwrap());
    status.map(|s| (s.code(), err))
}

#[test]
fn without_the_trigger_the_program_exits_0() {
    let r = run(
        "none",
        &["run", "--timeout", "1"],
        false,
        Duration::from_secs(60),
    );
    assert_eq!(r.map(|r| r.0), Some(Some(0)));
}

#[test]
fn a_system_function_that_never_returns_ends_at_the_backstop_with_status_123() {
    for args in [
        &["run", "--timeout", "1"][..],
        &["run", "--json", "--timeout", "1"][..],
        &["trace", "--json", "--timeout", "1"][..],
    ] {
        // The deadline (1 s) and the grace (5 s) pass long before the
        // test gives up on the command (60 s: it hung).
        let Some((code, err)) = run("hang", args, true, Duration::from_secs(60)) else {
            panic!("{args:?}: still running after 60 s: the backstop did not end it");
        };
        assert_eq!(code, Some(123), "{args:?}: {err}");
        assert!(
            err.contains("the wall-clock limit (--timeout 1.000 s) ran out 5 s ago"),
            "{args:?}: {err}"
        );
        assert!(err.contains("kept running"), "{args:?}: {err}");
    }
}
