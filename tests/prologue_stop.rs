//! `--at LOC+prologue` (issue 31 item 3): a stop after a function's
//! prologue, where its BP frame exists, so the walk and `--verify` see the
//! function's own frame; a stop at its first instruction is before it, and
//! `stack` says what that walk leaves out. The program is roms/demo.exe
//! (roms/demo.asm): MainWndProc calls OnEraseBkgnd (near, from
//! MainWndProc+0x10), whose prologue is `push bp; mov bp,sp`.

mod common;
use common::{bin, json, rom};

fn symbols(v: &serde_json::Value) -> Vec<String> {
    v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["symbol"].as_str().unwrap_or("-").to_string())
        .collect()
}

#[test]
fn after_the_prologue_the_walk_has_the_functions_frame_and_its_caller() {
    let at = |loc: &str| {
        let out = bin()
            .args(["stack", "--json", "--at", loc])
            .arg(rom("demo.exe"))
            .output()
            .unwrap();
        json(&out)
    };
    // At the entry BP is MainWndProc's: the chain skips MainWndProc.
    let entry = at("DEMO!OnEraseBkgnd");
    assert_eq!(symbols(&entry), ["OnEraseBkgnd", "WinMain+0xa"]);
    // After `push bp; mov bp,sp` (3 bytes): OnEraseBkgnd's frame, then
    // its caller, then WinMain.
    let after = at("DEMO!OnEraseBkgnd+prologue");
    assert_eq!(
        symbols(&after),
        ["OnEraseBkgnd+0x3", "MainWndProc+0x10", "WinMain+0xa"]
    );
    // Any case, and with the other spellings of the place.
    assert_eq!(symbols(&at("DEMO:2:1D+PROLOGUE")), symbols(&after));
}

#[test]
fn verify_agrees_after_the_prologue_and_not_at_the_entry() {
    let verify = |loc: &str| {
        bin()
            .args(["stack", "--verify", "--at", loc])
            .arg(rom("demo.exe"))
            .output()
            .unwrap()
    };
    let entry = verify("DEMO!OnEraseBkgnd");
    assert_eq!(entry.status.code(), Some(1));
    let text = String::from_utf8_lossy(&entry.stdout);
    // The walk at the entry says why it lacks the caller, and how to
    // stop where it does not.
    assert!(
        text.contains("note: the stop is at a function's first instruction, before its prologue (push bp; mov bp,sp)"),
        "{text}"
    );
    assert!(text.contains("LOC+prologue"), "{text}");
    // OnEraseBkgnd was called near from MainWndProc+0x10 = 1037:0010.
    assert!(text.contains("1037:0010 if near"), "{text}");
    let after = verify("DEMO!OnEraseBkgnd+prologue");
    assert_eq!(
        after.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&after.stdout)
    );
    assert!(!String::from_utf8_lossy(&after.stdout).contains("note: the stop"));
}

#[test]
fn a_place_without_a_prologue_is_an_error_showing_its_bytes() {
    // paint_stop is a label inside PaintLine, not a function's entry.
    let out = bin()
        .args(["stack", "--at", "DEMO:1:3A+prologue"])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("102F:003A does not begin with a prologue") && err.contains("8B 4E 06"),
        "{err}"
    );
    let out = bin()
        .args(["stack", "--at", "+5+prologue"])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
}
