//! The walk from inside a corpus program's window procedure: flaggen.exe
//! (module PRIDEFLAG), whose MAINWNDPROC USER calls back during
//! CreateWindow and DispatchMessage.
//!
//! The expected frames come from flaggen's code (segment 1, disassembled),
//! not from the tool:
//!
//! ```text
//! 00C4  astart:  mov ax,ds; nop; inc bp; push bp; mov bp,sp; push ds; mov ds,ax
//! 00E2           call far WinMain            ; returns to 00E7
//! 07F0  WinMain: enter 12h,0                 ; an even-BP far frame
//! 0811           call far InitInstance       ; returns to 0816
//! 082E           call far USER.DispatchMessage  ; returns to 0833
//! 08B0  InitInstance: push bp; mov bp,sp     ; even BP, far (ends in retf)
//! 08DD           call far USER.CreateWindow  ; returns to 08E2
//! 0D4A  MAINWNDPROC: mov ax,ss; push bp; mov bp,sp; push ds; mov ds,ax
//! 0D73           (msg == WM_DESTROY) PostQuitMessage
//! 0DC7           call far USER.DefWindowProc ; returns to 0DCC
//! ```
//!
//! USER's callback (src/win16/callback.rs) leaves the frame of a Windows
//! far function on the stack (toolhelp.md, "Prologue conventions"): its BP
//! points at the caller's BP | 1 and the far return into the program; the
//! window procedure returns to USER's thunk segment at CALLBACK_RETURN.
//! The start-up code cleared BP before `astart`'s `inc bp; push bp`, so the
//! chain ends at astart's frame (saved BP 1 does not climb, toolhelp.md
//! StackTraceNext step 4).

use std::path::PathBuf;

use toolhelp16::win16::CALLBACK_RETURN;

mod common;
use common::{bin, json, strings};

/// flaggen.exe of the shared corpus; None without the corpus
/// (common/need.rs).
fn flaggen() -> Option<PathBuf> {
    let exe = common::corpus()?.join("ne/flaggen.exe");
    assert!(
        exe.is_file(),
        "{} is missing from the corpus",
        exe.display()
    );
    Some(exe)
}

/// Walk flaggen.exe at `at`; `None` without the corpus.
fn walk(at: &str) -> Option<serde_json::Value> {
    let exe = flaggen()?;
    let out = bin()
        .args(["stack", "--json", "--at", at])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["reached"], true, "{v}");
    assert_eq!(v["stop"]["kind"], "breakpoint", "{v}");
    Some(v)
}

/// One expected frame: module, segment number, IP, far.
type Want = (&'static str, u64, u16, bool);

/// Check the frames against `want` and the shape every walk must have:
/// frames of one module share one CS, BP climbs strictly, every frame is
/// on the task's stack. Returns the frames.
fn check(v: &serde_json::Value, want: &[Want]) -> Vec<serde_json::Value> {
    let frames = v["frames"].as_array().unwrap().clone();
    let got: Vec<(String, u64, u16, bool)> = frames
        .iter()
        .map(|f| {
            (
                f["module"].as_str().unwrap_or("?").to_string(),
                f["wSegment"].as_u64().unwrap(),
                f["wIP"].as_u64().unwrap() as u16,
                f["far"].as_bool().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64, u16, bool)> = want
        .iter()
        .map(|&(m, s, ip, far)| (m.to_string(), s, ip, far))
        .collect();
    assert_eq!(got, want, "{v:#}");
    let w = |i: usize, k: &str| frames[i][k].as_u64().unwrap();
    for i in 0..frames.len() {
        assert_eq!(w(i, "wSS"), w(0, "wSS"));
        assert_eq!(w(i, "hTask"), w(0, "hTask"));
        for j in 0..frames.len() {
            let same_module = frames[i]["module"] == frames[j]["module"];
            assert_eq!(same_module, w(i, "wCS") == w(j, "wCS"), "{v:#}");
            assert_eq!(same_module, w(i, "hModule") == w(j, "hModule"), "{v:#}");
        }
        if i > 0 {
            assert!(w(i, "wBP") > w(i - 1, "wBP"), "BP must climb: {v:#}");
        }
    }
    assert!(
        v["walk_end"]
            .as_str()
            .unwrap()
            .contains("saved BP 0001 at SS:"),
        "{v:#}"
    );
    frames
}

const P: &str = "PRIDEFLAG";

#[test]
fn at_the_window_procedures_entry_the_walk_skips_users_frame() {
    // The first call, during CreateWindow. Before its prologue the window
    // procedure has no frame: BP is still USER's, so the next frame is
    // USER's return into InitInstance, and USER's own return address (at
    // SS:SP, not on the BP chain) is not seen, as with any BP-chain walk
    // at a function's first instruction.
    let Some(v) = walk("PRIDEFLAG!MAINWNDPROC") else {
        return;
    };
    check(
        &v,
        &[
            (P, 1, 0x0D4A, true),
            (P, 1, 0x08E2, true), // CreateWindow's caller, through USER's odd BP
            (P, 1, 0x0816, true), // InitInstance's caller: even BP, CS checked
            (P, 1, 0x00E7, true), // WinMain's caller
        ],
    );
}

#[test]
fn after_the_prologue_the_walk_climbs_through_user_into_create_window_s_caller() {
    let Some(entry) = walk("PRIDEFLAG!MAINWNDPROC") else {
        return;
    };
    // 0D4F: after `push bp; mov bp,sp`, still in CreateWindow's first
    // callback.
    let Some(v) = walk("PRIDEFLAG:1:0D4F") else {
        return;
    };
    let f = check(
        &v,
        &[
            (P, 1, 0x0D4F, true),
            ("USER", 1, CALLBACK_RETURN, true), // even BP; CS is USER's code
            (P, 1, 0x08E2, true),
            (P, 1, 0x0816, true),
            (P, 1, 0x00E7, true),
        ],
    );
    // USER's frame is the BP the window procedure was entered with, and
    // the window procedure's own frame lies below it.
    let e = entry["frames"].as_array().unwrap();
    assert_eq!(f[1]["wBP"], e[0]["wBP"]);
    assert_eq!(f[2]["wBP"], e[1]["wBP"]);
    assert!(f[0]["wBP"].as_u64() < e[0]["wBP"].as_u64());
}

#[test]
fn wm_destroy_nests_two_callbacks_under_dispatch_message() {
    // 0D73 runs for WM_DESTROY only. The session closes the window: WM_CLOSE
    // comes through GetMessage and DispatchMessage to MAINWNDPROC, which
    // passes it to DefWindowProc; DefWindowProc destroys the window and
    // USER sends WM_DESTROY from inside that call.
    let Some(v) = walk("PRIDEFLAG:1:0D73") else {
        return;
    };
    check(
        &v,
        &[
            (P, 1, 0x0D73, true),
            ("USER", 1, CALLBACK_RETURN, true), // DefWindowProc's callback
            (P, 1, 0x0DCC, true),               // MAINWNDPROC after DefWindowProc
            ("USER", 1, CALLBACK_RETURN, true), // DispatchMessage's callback
            (P, 1, 0x0833, true),               // WinMain's message loop
            (P, 1, 0x00E7, true),
        ],
    );
}

#[test]
fn a_fault_injected_into_the_window_procedure_is_reported_through_user_into_winmain() {
    // UD2 written over MAINWNDPROC's `push ds` after its `push bp; mov
    // bp,sp` (1:0D4F): the first call, during CreateWindow, faults there.
    // No InterruptRegister callback: the default action ends the run, and
    // the report's walk runs from the faulting context through USER's
    // frame back into InitInstance, WinMain and the start-up code.
    let Some(exe) = flaggen() else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--inject-fault", "PRIDEFLAG:1:0D4F"])
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(121), "a fault's exit status");
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    let f = &v["fault"];
    assert_eq!(f["number"], 6);
    assert_eq!(f["module"], P);
    assert_eq!(f["wSegment"], 1);
    assert_eq!(f["wIP"], 0x0D4F);
    assert_eq!(f["instruction"]["text"], "ud2");
    assert_eq!(
        f["application_error"],
        "PRIDEFLAG caused an exception 6 (invalid opcode) in module FLAGGEN.EXE at 0001:0D4F."
    );
    // The walk names the same frames as the walk at a breakpoint there.
    let frames = check(
        &v,
        &[
            (P, 1, 0x0D4F, true),
            ("USER", 1, CALLBACK_RETURN, true),
            (P, 1, 0x08E2, true), // InitInstance after CreateWindow
            (P, 1, 0x0816, true), // WinMain after InitInstance
            (P, 1, 0x00E7, true), // the start-up code after WinMain
        ],
    );
    assert_eq!(frames[0]["wBP"], f["registers"]["bp"]);
    // Named from flaggen's exports (its NE names tables): the fault is 5
    // bytes into MAINWNDPROC; InitInstance and WinMain lie before every
    // export of segment 1 and outside the entry point's function, so they
    // are named by segment and offset (symbols/extent.rs); the start-up
    // code is the function at the NE header's entry point, 1:001A.
    assert_eq!(f["symbol"], "MAINWNDPROC+0x5");
    assert_eq!(frames[0]["symbol"], "MAINWNDPROC+0x5");
    assert_eq!(frames[2]["symbol"], "SEG1+0x8e2");
    assert_eq!(frames[3]["symbol"], "SEG1+0x816");
    assert_eq!(frames[4]["symbol"], "(entry)+0xcd");
    let dw = strings(&f["drwatson"]);
    assert!(
        dw.iter()
            .any(|l| l.starts_with("Stack Frame 0 is  PRIDEFLAG 1:0d4f")
                && l.ends_with("MAINWNDPROC+0x5")),
        "{dw:?}"
    );
    assert!(
        dw.iter()
            .any(|l| l.starts_with("Stack Frame 1 is  USER 1:")),
        "{dw:?}"
    );
}

#[test]
fn stack_and_trace_name_flaggen_s_exported_window_procedure() {
    let Some(v) = walk("PRIDEFLAG!MAINWNDPROC") else {
        return;
    };
    assert_eq!(v["frames"][0]["symbol"], "MAINWNDPROC", "{v}");
    assert_eq!(v["frames"][0]["wIP"], 0x0D4A, "{v}");
    let exe = flaggen().expect("walk found it");
    let out = bin()
        .args([
            "trace",
            "--from",
            "PRIDEFLAG!MAINWNDPROC",
            "--module",
            "PRIDEFLAG",
            "--max",
            "3",
        ])
        .arg(&exe)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with("; MAINWNDPROC"), "{text}");
    assert!(lines[1].contains("; MAINWNDPROC+0x"), "{text}");
}
