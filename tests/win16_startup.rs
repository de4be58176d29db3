//! How a Win16 task starts, through a program built with Open Watcom
//! (tests/watcom/startup.c): WinMain's lpCmdLine, hPrevInstance and
//! nCmdShow, the command line InitTask leaves in the PSP, the DOS
//! environment (GetDOSEnvironment) and the Windows directories.
//!
//! Expected values: the Windows 3.1 SDK. WinMain: lpCmdLine "points to a
//! null-terminated string that specifies the command line for the
//! application", hPrevInstance is NULL for the first instance, nCmdShow is
//! what ShowWindow takes (SW_SHOWNORMAL 1 when a program is started
//! normally). InitTask: ES:BX is the command line in the PSP, which Open
//! Watcom's start-up (cstrtw16.asm) passes to WinMain unchanged. The PSP's
//! tail at 80h is DOS's: a count byte, then the text; KERNEL ends it with
//! a NUL for C. GetWindowsDirectory "C:\WINDOWS", GetSystemDirectory
//! "C:\WINDOWS\SYSTEM".

mod common;
use common::{bin, json, watcom};

/// Run startup.exe with `args` after the program (options before it), and
/// its output lines.
fn run(extra: &[&str], tail: &[&str]) -> Vec<String> {
    // Built once for the tests of this file (they run in parallel, and a
    // build empties its directory first).
    static EXE: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let Some(exe) = EXE.get_or_init(|| watcom::win16("startup")) else {
        return Vec::new();
    };
    let out = bin()
        .args(["run", "--json"])
        .args(extra)
        .arg(exe)
        .arg("--")
        .args(tail)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    common::output_lines(&v)
}

fn hex(s: &[u8]) -> String {
    s.iter().map(|b| format!(" {b:02X}")).collect()
}

/// The `psp` line for a command tail `tail` (DOS's form, with its
/// leading blank): the count, the text, the NUL that ended it.
fn psp_line(tail: &str) -> String {
    let mut b = vec![tail.len() as u8];
    b.extend_from_slice(tail.as_bytes());
    b.push(0);
    format!("psp{}", hex(&b))
}

#[test]
fn no_arguments_give_an_empty_command_line() {
    let lines = run(&[], &[]);
    if lines.is_empty() {
        return;
    }
    assert_eq!(lines[0], "cmd []");
    assert_eq!(lines[1], "prev 0");
    assert_eq!(lines[2], "show 1");
    assert_eq!(lines[3], psp_line(""));
}

#[test]
fn one_argument_is_the_command_line_without_its_blank() {
    let lines = run(&[], &["README.TXT"]);
    if lines.is_empty() {
        return;
    }
    assert_eq!(lines[0], "cmd [README.TXT]");
    assert_eq!(lines[3], psp_line(" README.TXT"));
}

#[test]
fn leading_blanks_are_skipped_and_the_rest_kept() {
    let lines = run(&[], &["  a", "b  c"]);
    if lines.is_empty() {
        return;
    }
    // The CLI joins the arguments with one blank after DOS's leading one.
    assert_eq!(lines[0], "cmd [a b  c]");
    assert_eq!(lines[3], psp_line("   a b  c"));
}

#[test]
fn show_sets_ncmdshow() {
    for (given, want) in [
        ("maximized", "show 3"),
        ("7", "show 7"),
        ("SW_HIDE", "show 0"),
    ] {
        let lines = run(&["--show", given], &[]);
        if lines.is_empty() {
            return;
        }
        assert_eq!(lines[2], want, "--show {given}");
    }
}

#[test]
fn a_bad_show_value_is_a_usage_error() {
    let out = bin()
        .args(["run", "--show", "sideways", "x.exe"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--show sideways"));
}

#[test]
fn the_environment_is_a_windows_3_1_machines() {
    let lines = run(&["--env", "LIB=C:\\LIB", "--env", "temp=D:\\TMP"], &[]);
    if lines.is_empty() {
        return;
    }
    let env: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("env "))
        .collect();
    assert_eq!(
        env,
        [
            "COMSPEC=C:\\COMMAND.COM",
            "PROMPT=$p$g",
            "PATH=C:\\WINDOWS;C:\\WINDOWS\\SYSTEM",
            "windir=C:\\WINDOWS",
            "LIB=C:\\LIB",
            "TEMP=D:\\TMP",
        ]
    );
    assert!(lines.contains(&"env-count 1".to_string()), "{lines:?}");
    assert!(
        lines.contains(&"env-path C:\\STARTUP.EXE".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"dirs C:\\WINDOWS C:\\WINDOWS\\SYSTEM".to_string()),
        "{lines:?}"
    );
}

#[test]
fn the_small_model_start_up_copies_the_same_command_line() {
    // Open Watcom's small-model start-up copies ES:BX up to its NUL into
    // the bottom of the stack and passes that copy (cstrtw16.asm).
    let Some(exe) = watcom::build(
        "startups",
        watcom::Kind::Win16Exe,
        &["startup.c"],
        None,
        &["-ms"],
    ) else {
        return;
    };
    let out = bin()
        .args(["run", "--json"])
        .arg(exe)
        .args(["--", " two  words"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    assert!(text.starts_with("cmd [two  words]\r\n"), "{text}");
}

#[test]
fn a_second_instance_gets_the_first_as_hprevinstance() {
    // SDK, WinMain: hPrevInstance identifies the previous instance of the
    // application, NULL for the first. Windows shares the module between
    // instances; each has its own DGROUP, so its own hInstance.
    static EXE: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let Some(exe) = EXE.get_or_init(|| {
        watcom::build(
            "startup2",
            watcom::Kind::Win16Exe,
            &["startup.c"],
            None,
            &[],
        )
    }) else {
        return;
    };
    let out = bin()
        .args(["run", "--json"])
        .arg(exe)
        .arg(exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    let insts: Vec<Vec<&str>> = text
        .split("\r\n")
        .filter_map(|l| l.strip_prefix("inst "))
        .map(|l| l.split(' ').collect())
        .collect();
    let prevs: Vec<&str> = text
        .split("\r\n")
        .filter(|l| l.starts_with("prev "))
        .collect();
    assert_eq!(insts.len(), 2, "{text}");
    assert_eq!(insts[0][1], "0000", "{text}");
    assert_eq!(insts[1][1], insts[0][0], "{text}");
    assert_ne!(insts[1][0], insts[0][0], "{text}");
    assert_eq!(prevs, ["prev 0", "prev 1"]);
}
