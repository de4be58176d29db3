//! Several Win16 tasks under the cooperative scheduler: turns taken through
//! Yield, WinExec, and the walk of a waiting task by StackTraceFirst from
//! the frame the scheduler left on its stack (toolhelp.md, StackTraceFirst
//! step 3; roms/inc/pingpong.inc has the stack picture these numbers come
//! from).

use serde_json::Value;

mod common;
use common::{bin, json, rom, strings};

fn u16_of(v: &Value) -> u16 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}")) as u16
}

#[test]
fn two_tasks_take_turns_through_yield() {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("ping.exe"))
        .arg(rom("pong.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    assert_eq!(
        strings(&v["debug_output"]),
        ["PING 1", "PONG 1", "PING 2", "PONG 2", "PING 3", "PONG 3"]
    );
    // PING yields last and is resumed first after PONG's last Yield: it
    // ends first.
    let exits: Vec<(String, u64)> = v["task_exits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["module"].as_str().unwrap().into(),
                e["code"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(exits, [("PING".into(), 0), ("PONG".into(), 0)]);
    let ev = strings(&v["events"]);
    let switches: Vec<&str> = ev
        .iter()
        .filter_map(|e| e.split_once("task switch ").map(|(_, s)| s))
        .map(|s| {
            if s.contains("PING ->") {
                "ping>pong"
            } else {
                "pong>ping"
            }
        })
        .collect();
    assert_eq!(
        switches,
        [
            "ping>pong",
            "pong>ping",
            "ping>pong",
            "pong>ping",
            "ping>pong",
            "pong>ping"
        ]
    );
    // Each switch follows the Yield call that gave up the CPU.
    for (i, e) in ev.iter().enumerate() {
        if e.contains("task switch ") {
            assert!(
                ev[i - 1].contains("call KERNEL.Yield() -> gives up the CPU"),
                "{}",
                ev[i - 1]
            );
        }
    }
}

#[test]
fn win_exec_starts_a_task_that_runs_first() {
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(rom(""))
        .arg(rom("launch.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let dbg = strings(&v["debug_output"]);
    assert_eq!(dbg.len(), 7, "{dbg:?}");
    assert_eq!(dbg[0], "PONG 1", "the new task runs before WinExec returns");
    let hinst = dbg[1]
        .strip_prefix("launched ")
        .and_then(|h| u16::from_str_radix(h, 16).ok())
        .unwrap_or_else(|| panic!("{}", dbg[1]));
    assert!(hinst >= 32, "WinExec returns an hInstance, not an error");
    assert_eq!(
        &dbg[2..],
        ["LNCH 1", "PONG 2", "LNCH 2", "PONG 3", "LNCH 3"]
    );
    // Without the file on the drive: error 2, and the launcher goes on alone.
    let empty = std::env::temp_dir().join(format!("th16-no-pong-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&empty)
        .arg(rom("launch.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let _ = std::fs::remove_dir(&empty);
    let dbg = strings(&v["debug_output"]);
    assert_eq!(dbg, ["launched 0002", "LNCH 1", "LNCH 2", "LNCH 3"]);
}

/// The Yield thunk's CS:IP in the ping/pong run: the relay log's
/// `call KERNEL.Yield()` events are stamped with CS:IP after the thunk's
/// two-byte `int F0h`.
fn yield_thunk() -> (u16, u16) {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("ping.exe"))
        .arg(rom("pong.exe"))
        .output()
        .unwrap();
    let ev = strings(&json(&out)["events"]);
    let e = ev
        .iter()
        .find(|e| e.contains("call KERNEL.Yield()"))
        .expect("a Yield call");
    let (cs, ip) = e[..9].split_once(':').unwrap();
    (
        u16::from_str_radix(cs, 16).unwrap(),
        u16::from_str_radix(ip, 16).unwrap() - 2,
    )
}

/// hTask, wSS, wBP, wCS, wIP, module, wSegment, far.
type Frame<'a> = (u16, u16, u16, u16, u16, Option<&'a str>, u16, bool);

#[test]
fn the_waiting_task_is_walked_from_the_scheduler_frame() {
    let out = bin()
        .args(["stack", "--json", "--all-tasks", "--at", "PONG:2:003F"])
        .arg(rom("ping.exe"))
        .arg(rom("pong.exe"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["reached"], true);
    // The current task, PONG, at yield_call inside Inner.
    let cur: Vec<(u16, u16, &str)> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                u16_of(&f["wIP"]),
                u16_of(&f["wBP"]),
                f["module"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cur,
        [
            (0x003F, 0x09E8, "PONG"),
            (0x0015, 0x09F0, "PONG"),
            (0x0021, 0x09F8, "PONG")
        ]
    );
    // TaskFirst/TaskNext list both tasks, PING first (loaded first).
    let tasks = v["tasks"].as_array().unwrap();
    let names: Vec<(&str, bool)> = tasks
        .iter()
        .map(|t| {
            (
                t["module"].as_str().unwrap(),
                t["current"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("PING", false), ("PONG", true)]);
    assert!(tasks[1]["frames"].as_array().unwrap().is_empty());
    // PING waits in its first Yield: TDB SS:SP = its DGROUP:09CC, and the
    // walk goes through the switch frame into Yield's frame (KERNEL's
    // thunk, BP 09E2), then Inner, Outer, main.
    let ping = &tasks[0];
    assert_eq!(u16_of(&ping["wSP"]), 0x09CC);
    let (ss, htask) = (u16_of(&ping["wSS"]), u16_of(&ping["hTask"]));
    let (ycs, yip) = yield_thunk();
    let frames: Vec<Frame> = ping["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                u16_of(&f["hTask"]),
                u16_of(&f["wSS"]),
                u16_of(&f["wBP"]),
                u16_of(&f["wCS"]),
                u16_of(&f["wIP"]),
                f["module"].as_str(),
                u16_of(&f["wSegment"]),
                f["far"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(frames.len(), 4, "{frames:?}");
    assert_eq!(
        frames[0],
        (htask, ss, 0x09E2, ycs, yip, Some("KERNEL"), 1, true),
        "StackTraceFirst: the switch frame's CS:IP (Yield's thunk), BP with bit 0 cleared, FRAME_FAR"
    );
    let ping_s2 = frames[1].3;
    assert_ne!(ping_s2, ycs);
    let rest: Vec<_> = frames[1..]
        .iter()
        .map(|f| (f.0, f.1, f.2, f.4, f.5, f.6, f.7))
        .collect();
    assert_eq!(
        rest,
        [
            (htask, ss, 0x09E8, 0x0044, Some("PING"), 2, true),
            (htask, ss, 0x09F0, 0x0015, Some("PING"), 2, false),
            (htask, ss, 0x09F8, 0x0021, Some("PING"), 1, true),
        ]
    );
    assert_eq!(frames[2].3, ping_s2, "Inner and Outer share segment 2");
    assert!(
        ping["walk_end"].as_str().unwrap().contains("is 0"),
        "{}",
        ping["walk_end"]
    );
}

#[test]
fn all_tasks_text_names_each_task_and_its_walk() {
    let out = bin()
        .args(["stack", "--all-tasks", "--at", "PONG:2:003F"])
        .arg(rom("ping.exe"))
        .arg(rom("pong.exe"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("tasks (TaskFirst, TaskNext):"), "{text}");
    assert!(text.contains(" PING: hInst "), "{text}");
    assert!(
        text.contains("saved SS:SP ") && text.contains(":09CC"),
        "{text}"
    );
    assert!(text.contains("walk by StackTraceFirst, then StackTraceNext"));
    assert!(text.contains("the current task: its walk is above"));
}

#[test]
fn a_never_run_task_has_no_stack_for_stack_trace_first() {
    // Stop PING at its first OutputDebugString: PONG has not run yet, and
    // its TDB holds the first frame with BP = 0 (win16.md).
    let out = bin()
        .args(["stack", "--json", "--all-tasks", "--at", "PING:2:003F"])
        .arg(rom("ping.exe"))
        .arg(rom("pong.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let pong = &v["tasks"][1];
    assert_eq!(pong["module"], "PONG");
    assert!(pong["frames"].as_array().unwrap().is_empty());
    let end = pong["walk_end"].as_str().unwrap();
    assert!(end.contains("StackTraceFirst"), "{end}");
}
