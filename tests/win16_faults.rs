//! Faults in Win16 tasks offered to TOOLHELP InterruptRegister callbacks
//! (toolhelp.md, "InterruptRegister callbacks: the fault frame"):
//! roms/faultskip.asm's callback resumes its program past each fault.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolhelp16"))
}

fn rom(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

fn run_json(args: &[&str]) -> Value {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("faultskip.exe"))
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_callback_that_resumes_lets_the_program_run_to_its_end() {
    let v = run_json(&[]);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    // The frame the callback read: interrupt number, then the faulting IP
    // (the `div` itself; for INT 3, the address after the trap).
    assert_eq!(
        strings(&v["debug_output"]),
        [
            "fault 0000 at 0037",
            "resumed",
            "fault 0003 at 0043",
            "after int3"
        ]
    );
    let ev = strings(&v["events"]);
    let offered: Vec<&String> = ev
        .iter()
        .filter(|e| e.contains("offered to InterruptRegister callbacks"))
        .collect();
    assert_eq!(offered.len(), 2, "{ev:?}");
}

#[test]
fn without_a_callback_the_fault_ends_the_run() {
    let v = run_json(&["--", "nocallback"]);
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    assert_eq!(v["fault"]["number"], 0);
    assert_eq!(v["fault"]["wIP"], 0x37);
    // The exception record: where, what instruction, the context.
    let f = &v["fault"];
    assert_eq!(f["module"], "FAULTSKIP");
    assert_eq!(f["wSegment"], 1);
    assert_eq!(f["instruction"]["bytes"], "F7 F1");
    assert_eq!(f["instruction"]["text"], "div cx");
    assert_eq!(f["registers"]["cx"], 0);
    assert_eq!(f["registers"]["ax"], 0x1234);
    assert_eq!(
        f["segments"]["SS"]["limit"], 0x09FF,
        "DGROUP: 0x100 + heap + stack"
    );
    assert_eq!(f["segments"]["SS"]["selector"], f["registers"]["ss"]);
    assert_eq!(f["stack"]["pStackTop"], 0x0200);
    assert_eq!(f["stack"]["pStackBot"], 0x0A00);
    assert_eq!(f["stack"]["overflow"], false);
    assert_eq!(v["frames"][0]["wIP"], 0x37);
    assert_eq!(v["frames"][0]["module"], "FAULTSKIP");
    assert!(strings(&v["debug_output"]).is_empty());
}

#[test]
fn a_fault_every_callback_passes_on_ends_the_run_with_the_faulting_context() {
    let v = run_json(&["--", "passon"]);
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    assert_eq!(v["fault"]["number"], 13);
    assert_eq!(v["fault"]["wIP"], 0x54);
    assert_eq!(
        strings(&v["debug_output"]),
        [
            "fault 0000 at 0037",
            "resumed",
            "fault 0003 at 0043",
            "after int3",
            "fault 000D at 0054"
        ]
    );
    // The walk is the faulting context's, not the callback's.
    assert_eq!(v["frames"][0]["wIP"], 0x54);
    assert_eq!(v["frames"][0]["wBP"], 0x09F8);
    let ev = strings(&v["events"]);
    assert!(
        ev.iter().any(|e| e.contains("passed fault 13 on")),
        "{ev:?}"
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("Unrecoverable Application Error: fault 13")),
        "{ev:?}"
    );
}

#[test]
fn the_walk_inside_the_callback_goes_through_the_dispatch_frame_to_the_fault() {
    // FaultProc at 1:0066; after `push bp; mov bp,sp` (1:0069) during the
    // divide error's dispatch. SP at the fault is main's BP 09F8; the frame
    // (8 words) and FaultProc's saved BP put FaultProc's BP at 09E6.
    let out = bin()
        .args(["stack", "--json", "--at", "FAULTSKIP:1:0069"])
        .arg(rom("faultskip.exe"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let frames: Vec<(u64, u64, String, bool)> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["wIP"].as_u64().unwrap(),
                f["wBP"].as_u64().unwrap(),
                f["module"].as_str().unwrap().to_string(),
                f["virtual"].as_bool().unwrap(),
            )
        })
        .collect();
    let pass_on = u64::from(toolhelp16::win16::fault::FAULT_PASS_ON);
    assert_eq!(
        frames,
        [
            (0x0069, 0x09E6, "FAULTSKIP".to_string(), false),
            (pass_on, 0x09F8, "TOOLHELP".to_string(), true),
            (0x0037, 0x09F8, "FAULTSKIP".to_string(), false),
        ]
    );
}
