//! A post-mortem tool of the Dr. Watson kind (tests/watcom/pmwatson.c)
//! run in one session beside a program that faults five frames deep
//! (tests/watcom/pmfault.c), built with Open Watcom in the medium and the
//! small model.
//!
//! The tool's InterruptRegister callback runs in the faulting task, on its
//! stack (Windows 3.1 SDK, "InterruptRegister"), walks it with
//! StackTraceCSIPFirst and StackTraceNext, writes PMWATSON.LOG into the
//! run's drive, shows its report dialog, then ends the task with
//! TerminateApp(NULL, NO_UAE_BOX) — or passes the fault on, and Windows'
//! Application Error follows. The session goes on: the tool hears the
//! task's end (NFY_EXITTASK, exit code FFh) and exits at the session's
//! WM_CLOSE.
//!
//! What is checked:
//! - the log's frames equal, entry for entry, the walk `toolhelp16 run`
//!   reports for that fault (`faults[0].frames`, and the text report's
//!   table);
//! - both are the walk the documented contract gives for the program's
//!   call chain (toolhelp.md, "StackTraceNext"): frame k's BP is the BP
//!   the program printed for level 4-k, its CS:IP a return into that
//!   level's function (between its start, printed by the program, and the
//!   next function's), far where the caller made a far call (the Windows
//!   far prologue leaves an odd saved BP) and near where it made a near
//!   one; the walk ends at WinMain, whose saved BP does not climb.

mod common;
use common::bin;
use common::watcom::{self, Kind};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The tool and the faulter (built with `model`, `-mm` or `-ms`) in one
/// directory: (the directory, the tool).
fn build(model: &str) -> Option<(PathBuf, PathBuf)> {
    let tool = watcom::build(
        "pmwatson",
        Kind::Win16Exe,
        &["pmwatson.c"],
        Some("pmwatson.rc"),
        &["toolhelp.lib", "-zu"],
    )?;
    let faulter = watcom::build(
        "pmfault",
        Kind::Win16Exe,
        &["pmfault.c"],
        None,
        &[model, "-of+", "-s"],
    )
    .unwrap();
    let dir = tool.parent().unwrap().to_path_buf();
    std::fs::copy(&faulter, dir.join("PMFAULT.EXE")).unwrap();
    Some((dir, tool))
}

/// `toolhelp16 run [--json] --dir DIR PROGRAMS... -- ARGS`, with an
/// optional script: (the JSON or the text on stderr, the log).
fn run(
    dir: &Path,
    programs: &[&Path],
    args: &str,
    script: Option<&str>,
    as_json: bool,
) -> (String, Option<String>) {
    let _ = std::fs::remove_file(dir.join("PMWATSON.LOG"));
    let _ = std::fs::remove_file(dir.join("WINDOWS").join("PMWATSON.LOG"));
    let mut c = bin();
    c.arg("run");
    if as_json {
        c.arg("--json");
    }
    if let Some(s) = script {
        let f = dir.join("script.txt");
        std::fs::write(&f, s).unwrap();
        c.arg("--messages").arg(f);
    }
    c.arg("--dir").arg(dir).args(programs).arg("--").arg(args);
    let out = c.output().unwrap();
    let text = if as_json {
        String::from_utf8_lossy(&out.stdout).into_owned()
    } else {
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // In the current directory, the drive's root; with 'w', in the
    // Windows directory, which lies beneath the drive (README).
    let log = std::fs::read_to_string(dir.join("PMWATSON.LOG"))
        .or_else(|_| std::fs::read_to_string(dir.join("WINDOWS").join("PMWATSON.LOG")))
        .ok();
    (text, log)
}

/// A frame as the tool logged it and as toolhelp16 reports it:
/// CS, IP, SS, BP, module, wSegment, far.
type Frame = (u16, u16, u16, u16, String, u16, bool);

fn hex(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap_or_else(|_| panic!("not hex: {s}"))
}

fn pair(s: &str) -> (u16, u16) {
    let (a, b) = s.split_once(':').unwrap();
    (hex(a), hex(b))
}

/// The log's frame lines ("frame N CS:IP SS:BP MODULE SEG far|near").
fn log_frames(log: &str) -> Vec<Frame> {
    log.lines()
        .filter(|l| l.starts_with("frame "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (cs, ip) = pair(w[2]);
            let (ss, bp) = pair(w[3]);
            (
                cs,
                ip,
                ss,
                bp,
                w[4].to_string(),
                w[5].parse().unwrap(),
                w[6] == "far",
            )
        })
        .collect()
}

/// A walk's frames from the JSON.
fn json_frames(frames: &Value) -> Vec<Frame> {
    frames
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let w = |k: &str| f[k].as_u64().unwrap() as u16;
            (
                w("wCS"),
                w("wIP"),
                w("wSS"),
                w("wBP"),
                f["module"].as_str().unwrap_or("?").to_string(),
                w("wSegment"),
                f["far"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// What the faulter printed: per level (0 WinMain .. 4 Poke) the function's
/// CS:start, its frame's BP, and SS.
struct Level {
    name: String,
    cs: u16,
    start: u16,
    bp: u16,
    ss: u16,
}

fn levels(output: &str) -> Vec<Level> {
    output
        .split("\r\n")
        .filter(|l| l.starts_with("level "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (cs, start) = pair(w[3]);
            Level {
                name: w[2].to_string(),
                cs,
                start,
                bp: hex(w[5]),
                ss: hex(w[7]),
            }
        })
        .collect()
}

/// The walk the contract gives for the call chain, checked against
/// `frames` (toolhelp16's): `near[k]` says whether frame k's return is
/// a near one.
fn check_against_the_call_chain(frames: &[Frame], lv: &[Level], fault: (u16, u16), near: &[bool]) {
    assert_eq!(lv.len(), 5, "the five levels printed");
    assert_eq!(
        frames.len(),
        5,
        "Poke, Inner, Middle, Outer, WinMain: {frames:?}"
    );
    let starts: Vec<u16> = lv.iter().map(|l| l.start).collect();
    // The function holding an offset: the one that starts last at or
    // before it (the code is one segment).
    let holder = |ip: u16| {
        lv.iter()
            .filter(|l| l.start <= ip)
            .max_by_key(|l| l.start)
            .map(|l| l.name.as_str())
    };
    for (k, f) in frames.iter().enumerate() {
        let l = &lv[4 - k];
        assert_eq!(
            (f.2, f.3),
            (l.ss, l.bp),
            "frame {k}'s SS:BP is {}'s frame",
            l.name
        );
        assert_eq!(f.0, l.cs, "frame {k} runs in {}'s code segment", l.name);
        assert_eq!(
            holder(f.1),
            Some(l.name.as_str()),
            "frame {k} IP {:04X} in {} ({starts:04X?})",
            f.1,
            l.name
        );
        assert!(f.1 > l.start, "frame {k}: past {}'s first byte", l.name);
        assert_eq!(
            (f.4.as_str(), f.5),
            ("PMFAULT", 1),
            "frame {k}'s module and segment"
        );
        assert_eq!(!f.6, near[k], "frame {k}'s kind");
    }
    assert_eq!(
        (frames[0].0, frames[0].1),
        fault,
        "frame 0 is the faulting CS:IP"
    );
}

/// The whole session, in `model`, with the tool in mode `mode`; returns
/// the run's JSON and the log.
fn session(
    model: &str,
    mode: &str,
    script: Option<&str>,
) -> Option<(Value, String, PathBuf, PathBuf)> {
    let (dir, tool) = build(model)?;
    let faulter = dir.join("PMFAULT.EXE");
    let (out, log) = run(&dir, &[&tool, &faulter], mode, script, true);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    let log = log.unwrap_or_else(|| panic!("no PMWATSON.LOG written: {v:#}"));
    Some((v, log, dir, tool))
}

/// The checks every caught fault shares: the log and toolhelp16's walk
/// agree entry for entry, and both are the contract's walk.
fn check_log_is_the_walk(v: &Value, log: &str, near: &[bool], outcome: &str) {
    let output = v["output"].as_str().unwrap();
    let lv = levels(output);
    let faults = v["faults"]
        .as_array()
        .unwrap_or_else(|| panic!("no faults: {v:#}"));
    assert_eq!(faults.len(), 1, "{v:#}");
    let f = &faults[0];
    assert_eq!(f["module"], "PMFAULT");
    assert_eq!(f["outcome"], outcome, "{v:#}");
    assert_eq!(f["fault"]["number"], 13);
    assert_eq!(f["fault"]["module"], "PMFAULT");
    assert_eq!(f["fault"]["wSegment"], 1);
    let at = (
        f["fault"]["wCS"].as_u64().unwrap() as u16,
        f["fault"]["wIP"].as_u64().unwrap() as u16,
    );
    let walk = json_frames(&f["frames"]);
    let logged = log_frames(log);
    assert_eq!(
        logged, walk,
        "the log's frames are toolhelp16's walk\n{log}"
    );
    check_against_the_call_chain(&walk, &lv, at, near);
    // The log's header: the task (GetCurrentTask in the callback is the
    // faulting task) and the faulting code as GlobalEntryHandle sees it:
    // owned by PMFAULT, GT_CODE (3), segment 1 (TOOLHELP.H; SDK,
    // "GLOBALENTRY": wData is the segment number for GT_CODE).
    let htask = f["hTask"].as_u64().unwrap() as u16;
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], format!("task {htask:04X} PMFAULT"));
    assert_eq!(
        lines[1],
        format!(
            "fault 13 at {:04X}:{:04X} PMFAULT 1 owner PMFAULT type 3 seg 1",
            at.0, at.1
        )
    );
    let end = lines.iter().position(|l| l.starts_with("end ")).unwrap();
    assert_eq!((end, lines[end]), (7, "end 5"), "{log}");
    let frames = f["frames"].as_array().unwrap();
    assert!(frames.iter().all(|fr| fr["hTask"] == htask), "{v:#}");
}

/// Small model: Poke and Middle are near, so the returns into Inner and
/// Outer are near frames.
const SMALL_NEAR: [bool; 5] = [false, true, false, true, false];
/// Medium model: every call is far.
const MEDIUM_NEAR: [bool; 5] = [false; 5];

fn expect_lines(v: &Value, dialog: u32, exit_code: u32) {
    let lines: Vec<String> = common::output_lines(v)
        .into_iter()
        .filter(|l| !l.starts_with("level "))
        .collect();
    assert_eq!(
        lines,
        [
            "register 1 1".to_string(),
            "caught 13 PMFAULT".to_string(),
            format!("dialog {dialog}"),
            format!("exittask PMFAULT {exit_code}"),
            "closed 1 1".to_string(),
        ],
        "{v:#}"
    );
}

#[test]
fn the_tool_catches_another_tasks_fault_and_logs_the_walk_toolhelp16_reports_medium_model() {
    let Some((v, log, ..)) = session("-mm", "td", Some("@PMFAULT dialog ok\n")) else {
        return;
    };
    // The dialog ran in the faulting task (the script's line for PMFAULT
    // clicked OK: IDOK 1); TerminateApp ended the task with FFh; the tool
    // went on and ended at the session's WM_CLOSE with 0.
    expect_lines(&v, 1, 255);
    check_log_is_the_walk(&v, &log, &MEDIUM_NEAR, "terminated");
    assert_eq!(v["exit"]["kind"], "exited", "{v:#}");
    assert_eq!(v["exit"]["code"], 0);
    // NO_UAE_BOX: no Application Error box.
    assert_eq!(v["message_boxes"], serde_json::json!([]), "{v:#}");
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits.len(), 2, "{v:#}");
    assert_eq!(
        (exits[0]["module"].as_str(), exits[0]["code"].as_u64()),
        (Some("PMFAULT"), Some(255))
    );
    assert!(
        exits[0]["fault"].is_null(),
        "TerminateApp, not the default action: {v:#}"
    );
    assert_eq!(
        (exits[1]["module"].as_str(), exits[1]["code"].as_u64()),
        (Some("PMWATSON"), Some(0))
    );
    // The log is in the run's drive, as the program named it.
    let changes = v["drive"]["changes"].as_array().unwrap();
    assert!(
        changes.iter().any(|c| c["path"] == "C:\\PMWATSON.LOG"),
        "{v:#}"
    );
}

#[test]
fn small_model_near_and_far_frames_are_logged_as_toolhelp16_walks_them() {
    let Some((v, log, ..)) = session("-ms", "td", None) else {
        return;
    };
    // No script line: the dialog gets what Escape gives, IDCANCEL (2).
    expect_lines(&v, 2, 255);
    check_log_is_the_walk(&v, &log, &SMALL_NEAR, "terminated");
}

#[test]
fn a_message_box_report_runs_in_the_faulting_task() {
    let Some((v, log, ..)) = session("-ms", "tm", None) else {
        return;
    };
    expect_lines(&v, 1, 255);
    check_log_is_the_walk(&v, &log, &SMALL_NEAR, "terminated");
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v:#}");
    assert_eq!(
        boxes[0]["module"], "PMFAULT",
        "shown in the faulting task: {v:#}"
    );
    assert_eq!(boxes[0]["caption"], "PMWATSON");
    assert_eq!(boxes[0]["by"], "program");
}

#[test]
fn a_callback_that_passes_the_fault_on_gets_windows_application_error_after_it() {
    let Some((v, log, ..)) = session("-mm", "pd", None) else {
        return;
    };
    expect_lines(&v, 2, 255);
    check_log_is_the_walk(&v, &log, &MEDIUM_NEAR, "unhandled");
    // The default action: the Application Error box, the task ended by
    // the fault, reported with the module and walk it had at the fault
    // although the task and its module are gone.
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v:#}");
    assert_eq!(boxes[0]["caption"], "Application Error");
    let exits = v["task_exits"].as_array().unwrap();
    assert_eq!(exits[0]["fault"]["module"], "PMFAULT", "{v:#}");
    assert_eq!(exits[0]["fault"]["wSegment"], 1, "{v:#}");
    assert_eq!(
        v["exit"]["code"], 0,
        "the tool, named first, exits with 0: {v:#}"
    );
}

#[test]
fn the_tool_starting_the_faulter_with_winexec_catches_it_too() {
    let Some((dir, tool)) = build("-mm") else {
        return;
    };
    let (out, log) = run(&dir, &[&tool], "td PMFAULT.EXE", None, true);
    let v: Value = serde_json::from_str(&out).unwrap();
    let log = log.unwrap_or_else(|| panic!("no PMWATSON.LOG: {v:#}"));
    check_log_is_the_walk(&v, &log, &MEDIUM_NEAR, "terminated");
    // WinExec runs the new task first: it faults, and is ended, before
    // WinExec returns to the tool.
    let lines: Vec<String> = common::output_lines(&v)
        .into_iter()
        .filter(|l| !l.starts_with("level "))
        .collect();
    assert_eq!(
        lines,
        [
            "register 1 1",
            "caught 13 PMFAULT",
            "winexec 1",
            "dialog 2",
            "exittask PMFAULT 255",
            "closed 1 1"
        ],
        "{v:#}"
    );
}

#[test]
fn the_text_report_shows_the_caught_fault_and_the_walk_the_log_holds() {
    let Some((dir, tool)) = build("-ms") else {
        return;
    };
    let faulter = dir.join("PMFAULT.EXE");
    let (text, log) = run(&dir, &[&tool, &faulter], "td", None, false);
    let log = log.unwrap();
    assert!(
        text.contains("general protection fault (exception 13)")
            && text.contains(
                "caught by an InterruptRegister callback, which ended the task (TerminateApp)"
            ),
        "{text}"
    );
    // Each logged frame is a row of the report's table: SS:BP, CS:IP,
    // module, segment and kind.
    for (cs, ip, ss, bp, module, seg, far) in log_frames(&log) {
        let row = format!(
            "{ss:04X}:{bp:04X}  {cs:04X}:{ip:04X}  {module:<10}  {seg:>3}  {:<5}",
            if far { "far" } else { "near" }
        );
        assert!(text.contains(&row), "no row {row:?} in\n{text}");
    }
}

#[test]
fn a_report_sent_to_the_tools_own_window_runs_in_the_tool_while_the_faulter_waits() {
    let Some((v, log, ..)) = session("-mm", "ts", Some("dialog ok\n")) else {
        return;
    };
    // The callback's SendMessage runs the tool's window procedure in the
    // tool's task (GetCurrentTask there is not the faulting task); its
    // dialog gets the script's line for the first program, the tool.
    let lines: Vec<String> = common::output_lines(&v)
        .into_iter()
        .filter(|l| !l.starts_with("level "))
        .collect();
    assert_eq!(
        lines,
        [
            "register 1 1",
            "report in the tool 1",
            "caught 13 PMFAULT",
            "dialog 1",
            "exittask PMFAULT 255",
            "closed 1 1"
        ],
        "{v:#}"
    );
    check_log_is_the_walk(&v, &log, &MEDIUM_NEAR, "terminated");
}

#[test]
fn a_modeless_report_with_the_callbacks_own_message_loop_works() {
    let Some((v, log, ..)) = session("-ms", "tg", Some("@PMFAULT key enter\n")) else {
        return;
    };
    // Enter in the dialog: IsDialogMessage gives its default push button,
    // IDOK.
    expect_lines(&v, 1, 255);
    check_log_is_the_walk(&v, &log, &SMALL_NEAR, "terminated");
}

/// The log's walks of another task ("tframe" lines after "taskwalk
/// HTASK MODULE"): per task, its module and frames.
fn log_task_walks(log: &str) -> Vec<(String, Vec<Frame>)> {
    let mut out: Vec<(String, Vec<Frame>)> = Vec::new();
    for l in log.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.first() {
            Some(&"taskwalk") => out.push((w[2].to_string(), Vec::new())),
            Some(&"tframe") => {
                let (cs, ip) = pair(w[2]);
                let (ss, bp) = pair(w[3]);
                out.last_mut().unwrap().1.push((
                    cs,
                    ip,
                    ss,
                    bp,
                    w[4].to_string(),
                    w[5].parse().unwrap(),
                    w[6] == "far",
                ));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_log_is_what_toolhelp16_stack_shows_at_the_faulting_instruction() {
    let Some((v, log, dir, tool)) = session("-mm", "td", None) else {
        return;
    };
    let f = &v["faults"][0]["fault"];
    let ip = f["wIP"].as_u64().unwrap();
    // The faulting instruction as the tool read it with MemoryRead: its
    // first bytes are the instruction toolhelp16 reports.
    let code = log
        .lines()
        .find_map(|l| l.strip_prefix("code "))
        .unwrap_or_else(|| panic!("no code line in\n{log}"));
    let insn = f["instruction"]["bytes"].as_str().unwrap();
    assert_eq!(code.split(' ').count(), 8, "{code}");
    assert!(code.starts_with(insn), "{code} / {insn}");
    // `stack` stopped just before the faulting instruction, with the same
    // programs: the walk there, and every other task's walk from where it
    // waits (StackTraceFirst), are the log's.
    let at = format!("PMFAULT:1:{ip:04X}");
    let out = bin()
        .args(["stack", "--json", "--all-tasks", "--at", &at, "--dir"])
        .arg(&dir)
        .arg(&tool)
        .arg(dir.join("PMFAULT.EXE"))
        .args(["--", "td"])
        .output()
        .unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["reached"], true, "{s:#}");
    assert_eq!(log_frames(&log), json_frames(&s["frames"]), "{s:#}");
    let walks = log_task_walks(&log);
    assert_eq!(walks.len(), 1, "the tool is the one other task: {log}");
    assert_eq!(walks[0].0, "PMWATSON");
    let tasks = s["tasks"].as_array().unwrap();
    let tool_task = tasks
        .iter()
        .find(|t| t["module"] == "PMWATSON")
        .unwrap_or_else(|| panic!("{s:#}"));
    assert_eq!(walks[0].1, json_frames(&tool_task["frames"]), "{s:#}");
    // The tool waits in GetMessage: its walk starts in USER (the
    // scheduler's frame names the call, StackTraceFirst step 3) and ends in
    // its own code.
    assert_eq!(walks[0].1[0].4, "USER", "{log}");
    assert_eq!(walks[0].1.last().unwrap().4, "PMWATSON", "{log}");
    assert_eq!(tool_task["frames"][0]["symbol"], "GetMessage", "{s:#}");
}

#[test]
fn a_log_in_the_windows_directory_lands_in_the_runs_drive() {
    let Some((v, log, dir, _)) = session("-mm", "tdw", None) else {
        return;
    };
    expect_lines(&v, 2, 255);
    check_log_is_the_walk(&v, &log, &MEDIUM_NEAR, "terminated");
    // GetWindowsDirectory is C:\WINDOWS (README, "The Windows directory"),
    // beneath the --dir drive.
    assert!(dir.join("WINDOWS").join("PMWATSON.LOG").is_file());
    assert!(!dir.join("PMWATSON.LOG").exists());
    let changes = v["drive"]["changes"].as_array().unwrap();
    assert!(
        changes
            .iter()
            .any(|c| c["path"] == "C:\\WINDOWS\\PMWATSON.LOG"),
        "{v:#}"
    );
}

#[test]
fn a_callback_that_posts_to_the_tool_and_yields_until_it_has_reported() {
    let Some((v, log, ..)) = session("-ms", "ty", None) else {
        return;
    };
    // PostMessage, then DirectedYield to the tool's task from inside the
    // callback: the tool's own task logs and shows its dialog (IDCANCEL
    // without a script), the faulting task goes on in its callback and
    // ends with TerminateApp.
    let lines: Vec<String> = common::output_lines(&v)
        .into_iter()
        .filter(|l| !l.starts_with("level "))
        .collect();
    assert_eq!(
        lines,
        [
            "register 1 1",
            "report in the tool 1",
            "caught 13 PMFAULT",
            "dialog 2",
            "exittask PMFAULT 255",
            "closed 1 1"
        ],
        "{v:#}"
    );
    check_log_is_the_walk(&v, &log, &SMALL_NEAR, "terminated");
}

#[test]
fn a_stack_fault_reaches_the_tool_on_toolhelps_stack_with_the_faulting_ss() {
    let Some((dir, tool)) = build("-mm") else {
        return;
    };
    // PMFAULT recurses until a push crosses offset 0 of its stack: a
    // stack fault (12), dispatched on TOOLHELP's own stack with the high
    // bit of the interrupt number set and the faulting SP and SS after
    // the frame (SDK, "InterruptRegister"; toolhelp.md).
    let (out, log) = run(&dir, &[&tool], "td PMFAULT.EXE r", None, true);
    let v: Value = serde_json::from_str(&out).unwrap();
    let log = log.unwrap_or_else(|| panic!("no PMWATSON.LOG: {v:#}"));
    let faults = v["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{v:#}");
    let f = &faults[0];
    assert_eq!(f["outcome"], "terminated", "{v:#}");
    assert_eq!(f["fault"]["number"], 12, "{v:#}");
    let regs = &f["fault"]["registers"];
    // The tool walked the faulting stack (SS from the low-stack frame),
    // from the faulting BP: its walk is toolhelp16's, entry for entry.
    let logged = log_frames(&log);
    assert_eq!(logged, json_frames(&f["frames"]), "{log}");
    assert_eq!(logged[0].2 as u64, regs["ss"].as_u64().unwrap(), "{log}");
    assert_eq!(logged[0].3 as u64, regs["bp"].as_u64().unwrap(), "{log}");
    assert!(log.contains("\nfault 12 at "), "{log}");
    // The faulting BP lies below pStackTop (the stack is exhausted), so
    // StackTraceNext refuses the next frame (toolhelp.md, StackTraceNext
    // step 4: a frame is trusted only inside [pStackTop, pStackBot)).
    let top = f["fault"]["stack"]["pStackTop"].as_u64().unwrap();
    assert!(regs["bp"].as_u64().unwrap() < top, "{v:#}");
    // The stack's bounds as they were at the fault (the task is gone):
    // SP wrapped past 0, a stack overflow.
    assert_eq!(f["fault"]["stack"]["overflow"], true, "{v:#}");
    assert_eq!(logged.len(), 1, "{log}");
    let lines: Vec<String> = common::output_lines(&v);
    assert_eq!(
        lines,
        [
            "register 1 1",
            "caught 12 PMFAULT",
            "winexec 1",
            "dialog 2",
            "exittask PMFAULT 255",
            "closed 1 1"
        ],
        "{v:#}"
    );
}
