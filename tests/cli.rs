//! The command line as a user runs it: exit codes, JSON schemas, refusals.

use std::path::{Path, PathBuf};

mod common;
use common::{bin, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> Option<PathBuf> {
    common::corpus()
}

#[test]
fn info_json_reads_every_corpus_executable_and_refuses_the_non_win16_ones() {
    let Some(c) = corpus() else { return };
    let mut seen = 0;
    for dir in ["ne", "dos/msdos125", "dos/tp7", "dos/edge"] {
        for e in std::fs::read_dir(c.join(dir)).unwrap().flatten() {
            let p = e.path();
            let bytes = std::fs::read(&p).unwrap();
            if !(bytes.starts_with(b"MZ") || bytes.starts_with(b"ZM")) {
                continue;
            }
            seen += 1;
            let out = bin().args(["info", "--json"]).arg(&p).output().unwrap();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            match name.as_str() {
                // A bound OS/2 program runs its real-mode part, so `info`
                // describes it (tests/dos.rs checks it runs).
                "os2lib.exe" => {
                    assert!(out.status.success(), "{name}");
                    let v = json(&out);
                    assert_eq!(v["os2_bound"], true, "{name}");
                    assert!(v["refusal"].as_str().unwrap().contains("OS/2"), "{name}");
                }
                "helloo16.exe" => {
                    assert_eq!(out.status.code(), Some(120), "{name} must be refused");
                    let err = String::from_utf8_lossy(&out.stderr);
                    assert!(err.contains("OS/2") && err.contains(&name), "{name}: {err}");
                }
                // A font file is a resource-only NE library: `info`
                // describes it (issue 31: "refuses a .FON instead of
                // describing it"), with no segments and its FONT resources.
                "vgaoem.fon" => {
                    assert!(out.status.success(), "{name}");
                    let v = json(&out);
                    assert_eq!(v["format"], "NE", "{name}");
                    assert_eq!(v["library"], true, "{name}");
                    assert_eq!(v["segments"].as_array().map(Vec::len), Some(0));
                    let types: Vec<&str> = v["resources"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter_map(|t| t["type_name"].as_str())
                        .collect();
                    assert!(types.contains(&"FONT"), "{name}: {types:?}");
                }
                _ => {
                    assert!(
                        out.status.success(),
                        "{name}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    let v = json(&out);
                    let f = v["format"].as_str().unwrap();
                    if p.parent().unwrap().ends_with("ne") {
                        assert_eq!(f, "NE", "{name}");
                        assert!(v["module"].is_string(), "{name}");
                        assert!(
                            v["segments"].as_array().is_some_and(|s| !s.is_empty()),
                            "{name}"
                        );
                    } else {
                        assert_eq!(f, "MZ", "{name}");
                    }
                }
            }
        }
    }
    assert!(seen >= 25, "only {seen} MZ/NE files found");
}

#[test]
fn info_json_of_flaggen_names_its_module_and_imports() {
    let Some(c) = corpus() else { return };
    let out = bin()
        .args(["info", "--json"])
        .arg(c.join("ne/flaggen.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["module"], "PRIDEFLAG");
    let mods: Vec<&str> = v["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["module"].as_str().unwrap())
        .collect();
    for m in ["GDI", "USER", "KERNEL"] {
        assert!(mods.contains(&m), "{mods:?}");
    }
}

#[test]
fn info_of_a_bad_file_names_the_file_and_offset() {
    let dir = std::env::temp_dir().join(format!("th16-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("broken.exe");
    // An MZ header whose e_lfanew points at an NE header cut short.
    let mut b = vec![0u8; 0x48];
    b[0] = b'M';
    b[1] = b'Z';
    b[0x3C] = 0x40;
    b[0x40] = b'N';
    b[0x41] = b'E';
    std::fs::write(&p, &b).unwrap();
    let out = bin().arg("info").arg(&p).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(120), "{err}");
    assert!(
        err.contains("broken.exe") && err.contains("offset 0x"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn demo_prints_the_walk() {
    let out = bin().arg("demo").output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("the end of the chain"), "{s}");
    assert!(s.contains("return CS"), "{s}");
    assert_eq!(s.lines().filter(|l| l.contains(" DEMO ")).count(), 4, "{s}");
}

#[test]
fn stack_json_has_stacktraceentry_fields() {
    let out = bin()
        .args(["stack", "--json", "--at", "DEMO:1:003A"])
        .arg(root().join("roms/demo.exe"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    for f in frames {
        for k in [
            "hTask", "wSS", "wBP", "wCS", "wIP", "hModule", "wSegment", "wFlags",
        ] {
            assert!(f[k].is_u64(), "{k} in {f}");
        }
        assert_eq!(f["module"], "DEMO");
    }
    assert_eq!(frames[0]["wIP"], 0x3A);
    assert_eq!(frames[2]["wFlags"], 1);
}

#[test]
fn run_json_reports_exit_and_output() {
    let out = bin()
        .args(["run", "--json"])
        .arg(root().join("roms/demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited");
    assert_eq!(v["exit"]["code"], 0);
    assert!(
        v["output"]
            .as_str()
            .unwrap()
            .contains("hello from a Win16 task")
    );
}

#[test]
fn run_budget_and_loc_errors_have_their_exit_codes() {
    let out = bin()
        .args(["run", "--json", "--max-insns", "5"])
        .arg(root().join("roms/demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(122));
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "budget");
    assert!(v["frames"].as_array().is_some_and(|f| !f.is_empty()));
    let out = bin()
        .args(["stack", "--at", "NOSUCH:1:0"])
        .arg(root().join("roms/demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    let out = bin()
        .arg("run")
        .arg(Path::new("/nonexistent/file.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
}

#[test]
fn unimplemented_import_stops_with_its_name_and_the_callers_walk() {
    let out = bin()
        .args(["run", "--json"])
        .arg(root().join("roms/unimpl.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    // unimpl.exe calls KERNEL.204 SwapRecording, which is not implemented.
    assert_eq!(v["exit"]["kind"], "unimplemented", "{v}");
    assert_eq!(out.status.code(), Some(124));
    assert_eq!(v["unimplemented"], "KERNEL.204 SwapRecording");
    let frames = v["frames"].as_array().unwrap();
    // The walk starts at the caller: main, right after its far call.
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(frames[0]["module"], "UNIMPL");
    assert_eq!(frames[0]["wSegment"], 1);
}

#[test]
fn stack_at_exported_name_ordinal_and_instruction_count() {
    let demo = root().join("roms/demo.exe");
    // PAINTLINE is entry @2 at 1:0030 (roms/demo.asm).
    for at in ["DEMO!PaintLine", "demo!PAINTLINE", "DEMO!#2", "DEMO:1:0030"] {
        let out = bin()
            .args(["stack", "--json", "--at", at])
            .arg(&demo)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{at}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        assert_eq!(v["frames"][0]["wIP"], 0x30, "{at}");
        assert_eq!(v["frames"][0]["wSegment"], 1, "{at}");
    }
    let out = bin()
        .args(["stack", "--at", "DEMO!NoSuchName"])
        .arg(&demo)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    // +N stops after N instructions: +0 walks from the entry point (1:0000);
    // the first instruction is `call far InitTask`, so +1 stands at offset 0
    // of KERNEL's thunk segment.
    let ips: Vec<(u64, u64)> = ["+0", "+1"]
        .iter()
        .map(|at| {
            let out = bin()
                .args(["stack", "--json", "--at", at])
                .arg(&demo)
                .output()
                .unwrap();
            assert!(out.status.success(), "{at}");
            let f = &json(&out)["frames"][0];
            (f["wCS"].as_u64().unwrap(), f["wIP"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(ips[0].1, 0);
    assert_eq!(ips[1].1, 0);
    assert_ne!(
        ips[0].0, ips[1].0,
        "+1 must have left the program's segment"
    );
}

/// `info` shows decorated (Microsoft C++) entry names demangled, as frames
/// do, and keeps the raw spelling in JSON's `name_raw`: roms/demo.exe with
/// its export MAINWNDPROC renamed in place to the C++ name of a far
/// __cdecl `Foo(void)` (`?Foo@@ZAXXZ`, the same 11 bytes).
#[test]
fn info_demangles_entry_names() {
    let mut f = std::fs::read(root().join("roms/demo.exe")).unwrap();
    let at = f
        .windows(12)
        .position(|w| w == b"\x0bMAINWNDPROC")
        .expect("demo.exe names MAINWNDPROC");
    f[at + 1..at + 12].copy_from_slice(b"?Foo@@ZAXXZ");
    let dir = std::env::temp_dir().join(format!("th16-demangle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("MANGLED.EXE");
    std::fs::write(&exe, &f).unwrap();
    let text = bin().arg("info").arg(&exe).output().unwrap();
    let j = bin().args(["info", "--json"]).arg(&exe).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("exported Foo(void)"), "{text}");
    assert!(!text.contains("?Foo@@"), "{text}");
    let v = json(&j);
    let e = v["exports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name_raw"] == "?Foo@@ZAXXZ")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(e["name"], "Foo(void)");
}

/// A malformed option value is a usage error, as clap reports a malformed
/// number: exit status 2 and clap's message naming the option, not 120
/// ("cannot load"), which is for files.
#[test]
fn malformed_option_values_are_usage_errors() {
    let dos21 = root().join("roms/dos21.com");
    for (opt, value) in [
        ("--clock", "yesterday"),
        ("--keys", "{nope}"),
        ("--env", "NOEQUALS"),
        ("--env", "=value"),
        ("--mouse", "jump 1 2"),
        ("--display", "640x480x5"),
    ] {
        for cmd in ["run", "trace"] {
            let out = bin().args([cmd, opt, value]).arg(&dos21).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {opt} {value}: {err}");
            assert!(
                err.contains("invalid value") && err.contains(opt),
                "{cmd} {opt} {value}: {err}"
            );
        }
    }
    let out = bin()
        .args(["run", "--load", "12345:0", "--entry", "0:0"])
        .arg(&dos21)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--screen` and `--events` do what they say on every command that
/// takes them (README, "Options of every command"): `stack`, `trace`,
/// `profile` and `snapshot` print the text screen and the events as
/// `run` does, not ignore them.
#[test]
fn screen_and_events_work_on_every_command_that_runs_a_program() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-screen-events-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let snap = dir.join("snap.json");
    let com = common::rom("comchain.com");
    let demo = common::rom("demo.exe");
    let snap_arg = snap.display().to_string();
    let cases: Vec<(Vec<&str>, &std::path::Path)> = vec![
        (vec!["run"], &com),
        (vec!["stack", "--at", "+200"], &com),
        (vec!["trace", "-o", "/dev/null"], &com),
        (vec!["profile", "--folded", "/dev/null"], &com),
        (vec!["snapshot", "--at", "+20", "-o", &snap_arg], &com),
    ];
    for (args, file) in &cases {
        let out = bin()
            .args(args)
            .args(["--screen", "--events"])
            .arg(file)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // comchain.com writes its line through DOS (INT 21h): it is on
        // the screen and quoted in the INT 21h event, so it shows at least
        // twice when both work. The snapshot stops before it writes.
        if args[0] != "snapshot" {
            assert!(
                all.matches("toolhelp16 .COM scenario").count() >= 2,
                "{args:?} --screen printed no screen: {all}"
            );
        }
        assert!(
            all.contains("event: "),
            "{args:?} --events printed no event: {all}"
        );
        let _ = demo;
    }
    // The Win16 relay log under --events, in stack's JSON.
    let out = bin()
        .args(["stack", "--json", "--events", "--at", "DEMO:1:003A"])
        .arg(&demo)
        .output()
        .unwrap();
    let v = json(&out);
    let events = v["events"]
        .as_array()
        .expect("stack --json --events has events");
    assert!(
        events
            .iter()
            .any(|e| e.as_str().unwrap().contains("call KERNEL.")),
        "{events:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A long run shows indicatif's spinner on a terminal, and nothing of it
/// when stderr is piped or the output is JSON.
#[test]
fn progress_shows_on_a_terminal_only() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `jmp $`: runs until the wall-clock limit.
    let lp = dir.join("loop.com");
    std::fs::write(&lp, [0xEB, 0xFE]).unwrap();
    let out = bin()
        .args(["profile", "--timeout", "1.5", "--folded", "/dev/null"])
        .arg(&lp)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("running") && !err.contains('\x1b'),
        "piped: {err:?}"
    );
    // On a terminal (util-linux `script` gives the command a pty).
    let script = std::process::Command::new("script")
        .arg("--version")
        .output();
    if script.is_err() {
        common::need::tool_missing(
            "`script` (the terminal half is not run)",
            "Debian package bsdutils; ./x test installs it",
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let cmd = format!(
        "{} profile --timeout 1.5 --folded /dev/null {}",
        env!("CARGO_BIN_EXE_toolhelp16"),
        lp.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qc", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let tty = String::from_utf8_lossy(&out.stdout);
    assert!(
        tty.contains(&format!("running {}", lp.display())),
        "no spinner on a terminal: {tty:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A debugging session (gdbserver, debug, run --gdb, serve) does not take the
/// report options it would ignore: a usage error (2), JSON under --json.
#[test]
fn debugging_sessions_refuse_the_report_options() {
    let demo = common::rom("demo.exe");
    for args in [
        &["debug", "--events"][..],
        &["gdbserver", "--screen", "--listen", "0"],
        &["run", "--gdb", "0", "--events"],
        &["serve", "--screen", "--listen", "0"],
    ] {
        let out = bin().args(args).arg(&demo).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("does not apply to a debugging session"),
            "{err}"
        );
    }
    let out = bin().args(["debug", "--json"]).arg(&demo).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v = json(&out);
    assert_eq!(v["kind"], "usage");
}
