//! Faults in Win16 tasks offered to TOOLHELP InterruptRegister callbacks
//! (toolhelp.md, "InterruptRegister callbacks: the fault frame"):
//! roms/faultskip.asm's callback resumes its program past each fault.

use serde_json::Value;

mod common;
use common::{bin, rom, strings};

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

/// One run of roms/faults.exe with a mode letter.
fn faults(mode: &str) -> Value {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("faults.exe"))
        .args(["--", mode])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// (wIP, wBP, wSegment, far) of each frame.
fn frames(v: &Value) -> Vec<(u64, u64, u64, bool)> {
    v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["wIP"].as_u64().unwrap(),
                f["wBP"].as_u64().unwrap(),
                f["wSegment"].as_u64().unwrap(),
                f["far"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_fault_kind_is_reported_with_its_number_place_and_frames() {
    // (mode, number, IP in segment 2, instruction) — offsets from
    // roms/faults.asm; the frames above Site are the same for all.
    let cases = [
        ("d", 0, 0x4F, "div cx"),
        // 0F FF is UD0 (it always raises #UD); iced takes the next byte,
        // the INT 3's CC, for its ModRM.
        ("u", 6, 0x51, "ud0 cx,sp"),
        ("i", 3, 0x53, "int3"),
        ("s", 1, 0x5C, "nop"),
        ("w", 13, 0x5D, "mov [9FFh],ax"),
        ("v", 13, 0x63, "mov es,ax"),
        ("n", 13, 0x69, "mov al,[es:0]"),
    ];
    for (mode, number, ip, text) in cases {
        let v = faults(mode);
        assert_eq!(v["exit"]["kind"], "fault", "{mode}: {v}");
        let f = &v["fault"];
        assert_eq!(f["number"], number, "{mode}");
        assert_eq!(f["wIP"], ip, "{mode}");
        assert_eq!(f["wSegment"], 2, "{mode}");
        assert_eq!(f["module"], "FAULTS", "{mode}");
        assert_eq!(f["instruction"]["text"], text, "{mode}");
        assert_eq!(f["stack"]["overflow"], false, "{mode}");
        assert_eq!(
            frames(&v),
            [
                (ip, 0x09E8, 2, true),
                (0x0010, 0x09F0, 2, false),
                (0x0026, 0x09F8, 1, true)
            ],
            "{mode}"
        );
    }
    // The GP details name what was wrong, in words and as data.
    let w = faults("w");
    let f = &w["fault"];
    assert!(
        f["detail"]
            .as_str()
            .unwrap()
            .contains("past the segment limit 09FF"),
        "{f}"
    );
    let c = &f["cause"];
    assert_eq!(c["kind"], "access", "{c}");
    assert_eq!(c["segment"], "DS");
    assert_eq!(c["selector"], f["registers"]["ds"]);
    assert_eq!(c["offset"], 0x09FF);
    assert_eq!(c["size"], 2);
    assert_eq!(c["write"], true);
    assert_eq!(c["limit"], 0x09FF);
    assert_eq!(
        c["linear"].as_u64(),
        f["segments"]["DS"]["base"].as_u64().map(|b| b + 0x09FF)
    );
    assert_eq!(
        f["linear"].as_u64(),
        f["segments"]["CS"]["base"].as_u64().map(|b| b + 0x5D),
        "the faulting instruction's linear address"
    );
    let v = faults("v");
    let c = &v["fault"]["cause"];
    assert_eq!(c["kind"], "selector_load", "{c}");
    assert_eq!(c["register"], "ES");
    assert_eq!(c["selector"], 0xFFFF);
    assert!(
        v["fault"]["detail"]
            .as_str()
            .unwrap()
            .contains("invalid selector FFFF")
    );
    let n = faults("n");
    let c = &n["fault"]["cause"];
    assert_eq!(c["kind"], "access", "{c}");
    assert_eq!(c["segment"], "ES");
    assert_eq!(c["selector"], 0);
    assert_eq!(c["write"], false);
    assert_eq!(c["limit"], Value::Null);
    assert!(
        n["fault"]["detail"]
            .as_str()
            .unwrap()
            .contains("null selector"),
        "{}",
        n["fault"]["detail"]
    );
}

#[test]
fn a_gp_twenty_frames_deep_shows_every_frame() {
    let v = faults("r");
    assert_eq!(v["fault"]["number"], 13);
    assert_eq!(
        v["fault"]["application_error"],
        "FAULTS caused a General Protection Fault in module FAULTS.EXE at 0002:0094."
    );
    assert_eq!(v["fault"]["wIP"], 0x94);
    let mut want = vec![(0x94, 0x096A, 2, true)];
    // Recurse's 20 recursive calls return to 2:008E, frames 6 bytes apart.
    for k in 0..20u64 {
        want.push((0x008E, 0x0970 + 6 * k, 2, false));
    }
    want.push((0x0078, 0x09E8, 2, false)); // Site after `call Recurse`
    want.push((0x0010, 0x09F0, 2, false)); // Outer after `call Site`
    want.push((0x0026, 0x09F8, 1, true)); // main after the far call
    assert_eq!(frames(&v), want);
}

#[test]
fn a_stack_overflow_is_named_as_such() {
    let v = faults("o");
    let f = &v["fault"];
    assert_eq!(f["number"], 12, "{v}");
    assert_eq!(f["instruction"]["text"], "push bp");
    assert_eq!(f["registers"]["sp"], 0);
    assert_eq!(f["stack"]["overflow"], true);
    assert_eq!(f["stack"]["pStackTop"], 0x0200);
    // The push that overflowed: a word written below SS:0000.
    let c = &f["cause"];
    assert_eq!(c["kind"], "access", "{c}");
    assert_eq!(c["segment"], "SS");
    assert_eq!(c["offset"], 0xFFFE);
    assert_eq!(c["write"], true);
    let out = bin()
        .arg("run")
        .arg(rom("faults.exe"))
        .args(["--", "o"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(121));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("STACK OVERFLOW"), "{text}");
}

/// One run of roms/faultwalk.exe (and any other programs after it) with
/// a mode letter (none: the GP in Inner).
fn faultwalk(programs: &[&str], mode: &str) -> Value {
    let mut cmd = bin();
    cmd.args(["run", "--json"]);
    for p in programs {
        cmd.arg(rom(p));
    }
    if !mode.is_empty() {
        cmd.args(["--", mode]);
    }
    let out = cmd.output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A frame as roms/faultwalk.asm's callback prints it.
fn printed(f: &Value) -> String {
    format!(
        "frame {:04X}:{:04X} bp={:04X} seg={:04X}",
        f["wCS"].as_u64().unwrap(),
        f["wIP"].as_u64().unwrap(),
        f["wBP"].as_u64().unwrap(),
        f["wSegment"].as_u64().unwrap()
    )
}

#[test]
fn a_fault_callback_walks_on_from_the_dispatch_frame_to_the_programs_frames() {
    let v = faultwalk(&["faultwalk.exe"], "");
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    let f = &v["fault"];
    assert_eq!(f["number"], 13);
    assert_eq!(f["wSegment"], 2);
    let debug = strings(&v["debug_output"]);
    // The callback read the fault from its frame.
    assert_eq!(
        debug[0],
        format!(
            "fault 000D at {:04X}:{:04X}",
            f["wCS"].as_u64().unwrap(),
            f["wIP"].as_u64().unwrap()
        )
    );
    // Its own frame (segment 1), then TOOLHELP's dispatch frame: its return
    // address into TOOLHELP, with the BP the fault interrupted.
    assert!(debug[1].starts_with("frame ") && debug[1].ends_with("seg=0001"));
    let frames = v["frames"].as_array().unwrap();
    let pass_on = toolhelp16::win16::fault::FAULT_PASS_ON;
    assert!(
        debug[2].starts_with("dispatch ")
            && debug[2].contains(&format!(
                ":{pass_on:04X} bp={:04X}",
                frames[0]["wBP"].as_u64().unwrap()
            )),
        "{debug:?}"
    );
    // Beyond it, exactly the program's frames at the fault: the run's own
    // walk from the faulting context, first frame at the faulting
    // instruction.
    let beyond: Vec<String> = frames.iter().map(printed).collect();
    assert_eq!(beyond.len(), 3, "Inner, Outer, main: {beyond:?}");
    assert_eq!(debug[3..3 + beyond.len()], beyond[..]);
    assert_eq!(frames[0]["wIP"], f["wIP"]);
    // Then NotifyRegister's callback hears of the task's end.
    assert_eq!(debug[3 + beyond.len()..], ["notify 0005 data 00FF"]);
    // The default action's records.
    assert_eq!(
        f["application_error"],
        format!(
            "FAULTWALK caused a General Protection Fault in module FAULTWALK.EXE at 0002:{:04X}.",
            f["wIP"].as_u64().unwrap()
        )
    );
    let dw = strings(&f["drwatson"]);
    assert_eq!(
        dw[1],
        format!(
            "FAULTWALK had a 'Exceed Segment Bounds (Read)' fault at FAULTWALK 2:{:04x}",
            f["wIP"].as_u64().unwrap()
        )
    );
    assert!(dw[2].starts_with("$tag$FAULTWALK$Exceed Segment Bounds (Read)$"));
    let stack_lines: Vec<&String> = dw
        .iter()
        .filter(|l| l.starts_with("Stack Frame "))
        .collect();
    assert_eq!(stack_lines.len(), frames.len(), "{dw:?}");
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits.len(), 1);
    assert_eq!(exits[0]["code"], 255);
    assert_eq!(exits[0]["fault"]["number"], 13);
}

#[test]
fn a_low_stack_fault_is_dispatched_on_toolhelps_stack() {
    let v = faultwalk(&["faultwalk.exe"], "o");
    let f = &v["fault"];
    assert_eq!(f["number"], 12, "{v}");
    assert_eq!(f["stack"]["overflow"], true, "SP wrapped below 0");
    let debug = strings(&v["debug_output"]);
    assert_eq!(
        debug,
        [
            format!(
                "fault 800C at {:04X}:{:04X}",
                f["wCS"].as_u64().unwrap(),
                f["wIP"].as_u64().unwrap()
            ),
            // The faulting SS:SP, at +10/+12 of the low-stack frame.
            format!(
                "stack {:04X}:{:04X}",
                f["registers"]["ss"].as_u64().unwrap(),
                f["registers"]["sp"].as_u64().unwrap()
            ),
            "notify 0005 data 00FF".to_string(),
        ]
    );
}

#[test]
fn a_fault_inside_the_fault_callback_ends_the_run_with_its_report() {
    let v = faultwalk(&["faultwalk.exe"], "x");
    let f = &v["fault"];
    assert_eq!(f["number"], 0, "{v}");
    assert_eq!(f["wSegment"], 1, "in FaultProc");
    assert!(
        f["detail"]
            .as_str()
            .unwrap()
            .contains("inside the InterruptRegister callback handling general protection fault"),
        "{f}"
    );
    // The walk goes through the dispatch frame to the GP in Inner.
    let frames = v["frames"].as_array().unwrap();
    let virt: Vec<usize> = (0..frames.len())
        .filter(|&i| frames[i]["virtual"] == true)
        .collect();
    assert_eq!(virt, [1], "{frames:?}");
    assert_eq!(frames[1]["module"], "TOOLHELP");
    assert_eq!(frames[2]["wSegment"], 2);
    assert_eq!(frames.len(), 5);
    assert!(strings(&v["debug_output"]).is_empty());
}

#[test]
fn a_callback_that_resumes_into_the_same_fault_forever_is_stopped() {
    let v = faultwalk(&["faultwalk.exe"], "f");
    let f = &v["fault"];
    assert_eq!(f["number"], 13, "{v}");
    assert!(
        f["detail"]
            .as_str()
            .unwrap()
            .contains("resumed into this fault 64 times"),
        "{f}"
    );
    assert_eq!(v["frames"][0]["wIP"], f["wIP"]);
}

#[test]
fn an_unhandled_fault_ends_only_its_own_task() {
    // PONG starts first and yields; FAULTWALK faults and is ended; PONG
    // runs on to its own end, which is the run's result.
    let v = faultwalk(&["pong.exe", "faultwalk.exe"], "");
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let exits: Vec<(String, u64, Option<u64>)> = v["task_exits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["module"].as_str().unwrap().to_string(),
                e["code"].as_u64().unwrap(),
                e["fault"]["number"].as_u64(),
            )
        })
        .collect();
    assert_eq!(
        exits,
        [
            ("FAULTWALK".to_string(), 255, Some(13)),
            ("PONG".to_string(), 0, None)
        ]
    );
    let debug = strings(&v["debug_output"]);
    let pongs: Vec<&String> = debug.iter().filter(|l| l.starts_with("PONG")).collect();
    assert_eq!(pongs, ["PONG 1", "PONG 2", "PONG 3"]);
    let notify = debug.iter().position(|l| l.starts_with("notify")).unwrap();
    assert!(notify < debug.iter().position(|l| l == "PONG 2").unwrap());
    // A first program ended by a fault while another runs on: the run
    // ends as that fault, with the walk taken at the fault.
    let alone = faultwalk(&["faultwalk.exe"], "");
    let v = faultwalk(&["faultwalk.exe", "pong.exe"], "");
    assert_eq!(v["exit"]["kind"], "fault", "{v}");
    let key = |v: &Value| -> Vec<(u64, u64, u64)> {
        v["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["wIP"].as_u64().unwrap(),
                    f["wBP"].as_u64().unwrap(),
                    f["wSegment"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(key(&v), key(&alone));
    assert_eq!(v["fault"]["wIP"], alone["fault"]["wIP"]);
    assert_eq!(
        strings(&v["debug_output"])
            .iter()
            .filter(|l| l.starts_with("PONG"))
            .count(),
        3
    );
}
