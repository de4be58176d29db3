//! TOOLHELP's notifications, told to a real TOOLHELP client built with
//! Open Watcom (tests/watcom/thnotify.c, which starts thchild.c, which
//! loads thndll.c). Expected values: the Windows 3.1 SDK, "NotifyRegister"
//! (the NFY_ codes and their dwData; NF_TASKSWITCH adds NFY_TASKIN and
//! NFY_TASKOUT), TOOLHELP.H (NFYSTARTDLL is 10 bytes) and KB Q99671
//! (callbacks in registration order). And InterruptRegister's three
//! paths (tests/watcom/thfault.c): restart, pass on, TerminateApp.

mod common;
use common::watcom::{self, Kind};
use common::{bin, json};

/// The entry point's IP in an NE file's header (NE+14h).
fn ne_entry_ip(path: &std::path::Path) -> u16 {
    let b = std::fs::read(path).unwrap();
    let ne = u32::from_le_bytes([b[0x3C], b[0x3D], b[0x3E], b[0x3F]]) as usize;
    u16::from_le_bytes([b[ne + 0x14], b[ne + 0x15]])
}

/// Build the logger, the child and the DLL into one directory and run the
/// logger there with `args`; its output lines.
fn run_logger(args: &[&str]) -> Option<(Vec<String>, u16, u16)> {
    let logger = watcom::build(
        "thnotify",
        Kind::Win16Exe,
        &["thnotify.c"],
        None,
        &["toolhelp.lib"],
    )?;
    let child = watcom::build("thchild", Kind::Win16Exe, &["thchild.c"], None, &[]).unwrap();
    let dll = watcom::build("thndll", Kind::Win16Dll, &["thndll.c"], None, &[]).unwrap();
    let dir = logger.parent().unwrap();
    std::fs::copy(&child, dir.join("THCHILD.EXE")).unwrap();
    std::fs::copy(&dll, dir.join("THNDLL.DLL")).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(dir)
        .arg(&logger)
        .arg("--")
        .args(args)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let lines = common::output_lines(&v);
    Some((lines, ne_entry_ip(&child), ne_entry_ip(&dll)))
}

#[test]
fn a_logger_hears_a_child_task_start_load_a_dll_and_end_in_order() {
    let Some((lines, child_ip, dll_ip)) = run_logger(&[]) else {
        return;
    };
    let want = [
        "register 1".to_string(),
        // WinExec runs the new task first: the logger is switched out,
        // the child in, and the child is told to start at its entry
        // point (dwData = CS:IP, the IP from its NE header).
        "TASKOUT self".to_string(),
        "TASKIN other".to_string(),
        format!("STARTTASK other THCHILD {child_ip:04X}"),
        // OutputDebugString's string (NF_RIP).
        "OUTSTR other child hello".to_string(),
        // LoadLibrary: NFYSTARTDLL (10 bytes) with the DLL's module and
        // its LibEntry's IP, before LibEntry runs; FreeLibrary's last
        // reference deletes the module.
        format!("STARTDLL other 10 THNDLL {dll_ip:04X}"),
        "DELMODULE other THNDLL".to_string(),
        // LogParamError: NFYLOGPARAMERROR (14 bytes), the error code, and
        // lpBadParam pointing at the bad value.
        "LOGPARAMERROR other 14 6001 12345678".to_string(),
        // The child ends with 3 (low byte of dwData), then its module, the
        // last instance gone, is deleted; the logger is switched back in.
        "EXITTASK other 3".to_string(),
        "DELMODULE other THCHILD".to_string(),
        "TASKIN self".to_string(),
        "winexec 1".to_string(),
        // The second NotifyUnRegister finds nothing registered.
        "unregister 1 0".to_string(),
    ];
    assert_eq!(lines, want);
}

#[test]
fn nf_normal_leaves_out_task_switches_and_debug_strings() {
    let Some((lines, child_ip, dll_ip)) = run_logger(&["normal"]) else {
        return;
    };
    let want = [
        "register 1".to_string(),
        format!("STARTTASK other THCHILD {child_ip:04X}"),
        format!("STARTDLL other 10 THNDLL {dll_ip:04X}"),
        "DELMODULE other THNDLL".to_string(),
        "LOGPARAMERROR other 14 6001 12345678".to_string(),
        "EXITTASK other 3".to_string(),
        "DELMODULE other THCHILD".to_string(),
        "winexec 1".to_string(),
        "unregister 1 0".to_string(),
    ];
    assert_eq!(lines, want);
}

/// Run thfault.exe with its mode letter.
fn run_fault(mode: &str) -> Option<serde_json::Value> {
    let exe = watcom::build(
        "thfault",
        Kind::Win16Exe,
        &["thfault.c"],
        None,
        &["toolhelp.lib"],
    )?;
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(exe.parent().unwrap())
        .arg(&exe)
        .args(["--", mode])
        .output()
        .unwrap();
    Some(json(&out))
}

#[test]
fn an_interrupt_handler_that_advances_ip_and_irets_restarts_the_program() {
    let Some(v) = run_fault("r") else {
        return;
    };
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    // INT_DIV0 0, the frame's CS:IP at the divide (F7 /6 or /7).
    assert_eq!(
        common::output_lines(&v),
        ["register 1", "fault 0 F7", "resumed 1", "unregister 1 0"]
    );
}

#[test]
fn an_interrupt_handler_that_returns_passes_the_fault_to_the_default_action() {
    let Some(v) = run_fault("p") else {
        return;
    };
    assert_eq!(common::output_lines(&v), ["register 1", "fault 0 F7"]);
    // The default: Windows' Application Error, the task ended.
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    assert_eq!(v["fault"]["number"], 0);
    let ae = v["fault"]["application_error"].as_str().unwrap();
    assert!(ae.contains(" in module THFAULT.EXE at 0001:"), "{ae}");
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v}");
    assert_eq!(boxes[0]["caption"], "Application Error");
}

#[test]
fn terminate_app_without_a_box_ends_the_faulting_task() {
    let Some(v) = run_fault("t") else {
        return;
    };
    assert_eq!(common::output_lines(&v), ["register 1", "fault 0 F7"]);
    // TerminateApp ends the task (exit code FFh) with no fault report and
    // no box (NO_UAE_BOX).
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 255);
    assert!(v["fault"].is_null(), "{v}");
    assert_eq!(v["message_boxes"], serde_json::json!([]), "{v}");
    assert_eq!(v["task_exits"][0]["code"], 255, "{v}");
}

#[test]
fn terminate_app_with_the_uae_box_shows_the_application_error() {
    let Some(v) = run_fault("u") else {
        return;
    };
    assert_eq!(common::output_lines(&v), ["register 1", "fault 0 F7"]);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 255);
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v}");
    assert_eq!(boxes[0]["caption"], "Application Error");
    let text = boxes[0]["text"].as_str().unwrap();
    assert!(text.contains(" in module THFAULT.EXE at 0001:"), "{text}");
}

#[test]
fn has_gp_handler_reads_the_modules_gp_table() {
    let Some(exe) = watcom::win16("thgp") else {
        return;
    };
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    assert_eq!(common::output_lines(&v), ["gp 1 1 1 1"]);
}

#[test]
fn a_gp_fault_with_a_declared_handler_goes_to_it() {
    let Some(exe) = watcom::win16("thgp") else {
        return;
    };
    let out = bin()
        .args(["run", "--json"])
        .arg(&exe)
        .args(["--", "f"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 5);
    assert_eq!(common::output_lines(&v), ["gp 1 1 1 1", "recovered"]);
    assert_eq!(v["message_boxes"], serde_json::json!([]), "{v}");
}

#[test]
fn task_get_set_csip_and_task_switch_act_on_a_suspended_task() {
    let Some(exe) = watcom::build(
        "thtask",
        Kind::Win16Exe,
        &["thtask.c"],
        None,
        &["toolhelp.lib"],
    ) else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(exe.parent().unwrap())
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    assert_eq!(
        common::output_lines(&v),
        [
            "current 1 1 1",
            "child yields",
            "getcsip 1",
            "setcsip 1 1",
            "child back",
            "taskswitch 1"
        ]
    );
}
