//! Built-in DLL functions as locations (issue 31 item 1): `MODULE!NAME`,
//! `MODULE!#N` and `MODULE.N` name the address a program's import of the
//! function resolves to, in `stack --at`, `--inject-fault`, `disasm --at`
//! and the debugger's `break`. The program is tests/watcom/sysbreak.c
//! (its header lists what it prints). Ordinals are the Windows 3.1
//! SDK's: KERNEL.3 GetVersion, USER.13 GetTickCount.

mod common;
use common::{bin, json, watcom};

fn stack_at(exe: &std::path::Path, at: &str) -> serde_json::Value {
    let out = bin()
        .args(["stack", "--json", "--no-symbol-search", "--at", at])
        .arg(exe)
        .output()
        .unwrap();
    json(&out)
}

/// Frame 0's CS:IP, as the JSON prints it.
fn csip(v: &serde_json::Value) -> String {
    let f = &v["frames"][0];
    format!("{}:{}", f["wCS"], f["wIP"])
}

#[test]
fn a_system_function_is_a_location_by_name_ordinal_and_module_dot_ordinal() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    // One function, four spellings, any case: one address.
    let by_name = stack_at(&exe, "KERNEL!GetVersion");
    assert_eq!(by_name["stop"]["kind"], "breakpoint", "{by_name}");
    assert_eq!(by_name["frames"][0]["module"], "KERNEL", "{by_name}");
    for other in ["kernel!GETVERSION", "KERNEL!#3", "KERNEL.3"] {
        let v = stack_at(&exe, other);
        assert_eq!(v["stop"]["kind"], "breakpoint", "{other}: {v}");
        assert_eq!(csip(&v), csip(&by_name), "{other}");
    }
}

#[test]
fn a_function_the_program_does_not_import_is_where_get_proc_address_points() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    // The invalid opcode written over the function's thunk before the
    // program ran: the program prints GetProcAddress's pointer, then
    // faults at that address calling through it.
    let out = bin()
        .args(["run", "--json", "--inject-fault", "USER!GetTickCount"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    let lines = common::output_lines(&v);
    assert_eq!(lines.len(), 2, "{v}");
    assert!(lines[0].starts_with("version "), "{lines:?}");
    let f = &v["fault"];
    assert_eq!(f["number"], 6, "invalid opcode: {v}");
    let at = format!(
        "proc {:04X}:{:04X}",
        f["wCS"].as_u64().unwrap(),
        f["wIP"].as_u64().unwrap()
    );
    assert_eq!(lines[1], at, "{v}");
}

#[test]
fn an_unknown_system_function_is_an_error_naming_it() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    for (at, says) in [
        (
            "USER!NoSuchFunction",
            "USER (a built-in DLL) exports no function named NoSuchFunction",
        ),
        ("GDI!#9999", "GDI (a built-in DLL) has no export #9999"),
    ] {
        let out = bin()
            .args(["stack", "--no-symbol-search", "--at", at])
            .arg(&exe)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{at}");
        assert!(err.contains(says), "{at}: {err}");
    }
}

#[test]
fn inject_fault_at_a_system_function_faults_on_the_call() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--inject-fault", "KERNEL!GetVersion"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    // The invalid opcode (exception 6) at the thunk: nothing printed.
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    assert_eq!(v["output"], "", "{v}");
    let s = v.to_string();
    assert!(s.contains("GETVERSION") || s.contains("GetVersion"), "{v}");
}

#[test]
fn disasm_at_a_system_function_lists_the_calls_to_it() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    let out = bin()
        .args(["disasm", "--no-symbol-search", "--at", "kernel!getversion"])
        .arg(&exe)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("KERNEL.3 GetVersion is built into toolhelp16"),
        "{text}"
    );
    let calls: Vec<&str> = text.lines().filter(|l| l.contains("call far")).collect();
    assert_eq!(calls.len(), 1, "one call to GetVersion (in Probe): {text}");
    assert!(calls[0].contains("KERNEL.3"), "{text}");
}

#[test]
fn the_debugger_breaks_on_a_system_function_and_lists_it_as_seg_off_and_linear() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    let out = bin()
        .arg("debug")
        .arg(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(b"break KERNEL!GetVersion\nbreakpoints\ncontinue\nwhere\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let listed = text
        .lines()
        .find(|l| l.starts_with("breakpoint at ") && l.contains(" = "))
        .unwrap_or_else(|| panic!("{text}"));
    // SEG:OFF = MODULE:SEG:OFF NAME (linear 0x...)
    assert!(listed.contains("= KERNEL:1:"), "{listed}");
    assert!(listed.contains("(linear 0x"), "{listed}");
    let seg_off = &listed["breakpoint at ".len().."breakpoint at ".len() + 9];
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("{seg_off} = KERNEL:1:"))),
        "the stop is at the breakpoint: {text}"
    );
}

/// The `event:` lines of a text run, from stdout (README, "Options of
/// every command": `--events` prints after the report, on stdout for
/// `run` and `stack`).
fn events(args: &[&str], exe: &std::path::Path) -> Vec<String> {
    let out = bin().arg("run").args(args).arg(exe).output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("event: "),
        "events go to stdout"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("event: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn events_filters_name_modules_and_functions_as_relay_filters_do() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    // The program calls GetVersion once (Probe) and GetTickCount once
    // (through GetProcAddress's pointer): two calls, in that order,
    // however the filter spells them.
    for filter in [
        "KERNEL!GetVersion,USER!GetTickCount",
        "kernel!getversion,user.13",
        "KERNEL!#3,USER!GETTICK*",
    ] {
        let lines = events(&["--events", filter], &exe);
        assert_eq!(lines.len(), 2, "{filter}: {lines:?}");
        assert!(
            lines[0].contains(" call KERNEL.GetVersion() -> "),
            "{lines:?}"
        );
        assert!(
            lines[1].contains(" call USER.GetTickCount() -> "),
            "{lines:?}"
        );
    }
    // A whole module: its calls only, and nothing but calls.
    let user = events(&["--events=USER!*"], &exe);
    assert!(user.len() >= 3, "wsprintf twice, GetTickCount: {user:?}");
    assert!(user.iter().all(|l| l.contains(" call USER.")), "{user:?}");
    // Without a filter every event, KERNEL's calls among them.
    let all = events(&["--events"], &exe);
    assert!(
        all.iter().any(|l| l.contains(" call KERNEL.GetVersion()")),
        "{all:?}"
    );
    assert!(all.len() > user.len());
}

#[test]
fn a_bad_events_filter_is_a_usage_error() {
    let Some(exe) = watcom::win16("sysbreak") else {
        return;
    };
    let out = bin()
        .args(["run", "--events", "GDI!Frobnicate"])
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GDI (a built-in DLL) exports no function named Frobnicate"),
        "{err}"
    );
}
