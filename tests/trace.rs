//! `trace` and `profile` on roms/ programs: the trace follows the
//! instruction sequence their sources imply (a loop, a far call through a
//! relocation, a fault, a task switch), and the profile gives the hot
//! function its share.

use serde_json::Value;

mod common;
use common::{bin, rom};

/// The JSON-lines trace of a run: its instruction lines (a run that
/// ends short of what was asked ends with one `error` line, left out
/// here; see [`trace_all`]).
fn trace(files: &[&str], tail: &[&str], extra: &[&str]) -> Vec<Value> {
    let mut lines = trace_all(files, tail, extra);
    if lines.last().is_some_and(|l| l["command"] == "error") {
        lines.pop();
    }
    lines
}

/// Every line of a JSON-lines trace, its final `error` line included.
fn trace_all(files: &[&str], tail: &[&str], extra: &[&str]) -> Vec<Value> {
    let mut cmd = bin();
    cmd.args(["trace", "--json"]).args(extra);
    for f in files {
        cmd.arg(rom(f));
    }
    if !tail.is_empty() {
        cmd.arg("--").args(tail);
    }
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn at(v: &Value) -> (String, u64, u64) {
    (
        v["module"].as_str().unwrap_or("?").to_string(),
        v["segment"].as_u64().unwrap_or(0),
        v["offset"].as_u64().unwrap_or(0),
    )
}

/// Every line's instruction follows the one before it unless that one
/// transfers control: the trace is a path through the code.
fn check_fallthrough(lines: &[Value]) {
    for w in lines.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let text = a["text"].as_str().unwrap();
        let transfers = ["j", "call", "ret", "iret", "int", "loop"]
            .iter()
            .any(|p| text.starts_with(p));
        // A REP string instruction is traced once per iteration, as a
        // single-stepping debugger sees it.
        let repeats = text.starts_with("rep") && a["ip"] == b["ip"] && a["cs"] == b["cs"];
        if transfers || repeats {
            continue;
        }
        let len = a["bytes"].as_str().unwrap().split(' ').count() as u64;
        assert_eq!(
            (b["cs"].as_u64(), b["ip"].as_u64()),
            (a["cs"].as_u64(), Some(a["ip"].as_u64().unwrap() + len)),
            "{a} is followed by {b}"
        );
    }
}

#[test]
fn a_far_call_through_a_relocation_lands_in_the_other_segment() {
    let lines = trace(&["demo.exe"], &[], &[]);
    assert!(lines.len() > 20);
    check_fallthrough(&lines);
    for l in &lines {
        for k in ["cs", "ip", "bytes", "text", "module", "segment", "offset"] {
            assert!(!l[k].is_null(), "{k} missing in {l}");
        }
    }
    // demo.asm: `call far` to segment 2 (a relocated far pointer) at 1:0023.
    let k = lines
        .iter()
        .position(|l| at(l) == ("DEMO".into(), 1, 0x23))
        .expect("the far call");
    assert!(lines[k]["text"].as_str().unwrap().starts_with("call "));
    assert_eq!(at(&lines[k + 1]), ("DEMO".into(), 2, 0));
    // And the first instruction calls KERNEL's InitTask through its thunk.
    assert_eq!(at(&lines[0]), ("DEMO".into(), 1, 0));
    assert_eq!(lines[1]["module"], "KERNEL");
}

#[test]
fn a_loop_runs_its_count() {
    // EmitHex (roms/inc/emithex.inc): `mov cx,4`, then four rounds of a
    // body that starts with `rol ax,4` and ends with `loop`.
    let lines = trace(&["thwalk.exe"], &[], &[]);
    check_fallthrough(&lines);
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    let starts: Vec<usize> = (0..texts.len())
        .filter(|&i| texts[i] == "mov cx,4" && texts.get(i + 1) == Some(&"rol ax,4"))
        .collect();
    assert!(!starts.is_empty(), "no EmitHex call traced");
    for s in starts {
        let end = (s..texts.len()).find(|&i| texts[i] == "ret").unwrap();
        let rounds = texts[s..end].iter().filter(|t| **t == "rol ax,4").count();
        let loops = texts[s..end]
            .iter()
            .filter(|t| t.starts_with("loop"))
            .count();
        assert_eq!((rounds, loops), (4, 4), "{:?}", &texts[s..=end]);
    }
}

#[test]
fn a_fault_is_the_last_instruction_traced() {
    let lines = trace(&["faults.exe"], &["d"], &[]);
    check_fallthrough(&lines);
    let last = lines.last().unwrap();
    assert_eq!(at(last), ("FAULTS".into(), 2, 0x4F));
    assert_eq!(last["text"], "div cx");
    // The fault ends the JSON lines too: one `error` line of kind
    // `stopped` with the fault's exit status (121).
    let all = trace_all(&["faults.exe"], &["d"], &[]);
    let end = all.last().unwrap();
    assert_eq!(end["command"], "error", "{end}");
    assert_eq!(end["kind"], "stopped", "{end}");
    assert_eq!(end["exit_code"], 121, "{end}");
}

#[test]
fn a_task_switch_goes_from_one_task_s_yield_to_the_other_task() {
    let lines = trace(&["ping.exe", "pong.exe"], &[], &[]);
    // Yield is KERNEL.29: the thunk's `int 0F0h` gives up the CPU, and the
    // other task goes on from its own Yield (the thunk's `retf`, then its
    // caller): the program code around each Yield changes task.
    let mut last_task: Option<&str> = None;
    let mut switches = 0;
    let mut after_yield = false;
    for l in &lines {
        let m = l["module"].as_str().unwrap_or("?");
        if m == "KERNEL" {
            if l["text"] == "int 0F0h" {
                after_yield = true;
            }
            continue;
        }
        if after_yield && last_task.is_some_and(|t| t != m) {
            switches += 1;
        }
        after_yield = false;
        last_task = Some(m);
    }
    // Three rounds each: PING -> PONG -> PING ... and the ends.
    assert!(switches >= 5, "{switches} task switches traced");
}

#[test]
fn the_filters_and_the_text_form() {
    // --max: exactly N lines; --module: only that module's code.
    assert_eq!(trace(&["demo.exe"], &[], &["--max", "7"]).len(), 7);
    let only = trace(&["demo.exe"], &[], &["--module", "KERNEL"]);
    assert!(!only.is_empty());
    assert!(only.iter().all(|l| l["module"] == "KERNEL"));
    // --from starts at that instruction; --to stops before it.
    let part = trace(
        &["demo.exe"],
        &[],
        &["--from", "DEMO:2:0000", "--to", "DEMO:1:003A"],
    );
    assert_eq!(at(&part[0]), ("DEMO".into(), 2, 0));
    assert!(part.iter().all(|l| at(l) != ("DEMO".into(), 1, 0x3A)));
    let full = trace(&["demo.exe"], &[], &[]);
    let k = full
        .iter()
        .position(|l| at(l) == ("DEMO".into(), 2, 0))
        .unwrap();
    assert_eq!(full[k..k + part.len()], part[..]);
    // Text with -o FILE, in MASM syntax.
    let dir = std::env::temp_dir().join(format!("th16-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("demo.trace");
    let out = bin()
        .args(["trace", "--syntax", "masm", "-o"])
        .arg(&file)
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), full.len());
    assert!(text.lines().next().unwrap().contains("DEMO:1:0000"));
    assert!(text.contains("call far ptr"), "MASM's far call");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_profile_gives_the_hot_function_its_share() {
    let out = bin()
        .args(["profile", "--every", "50"])
        .arg(rom("hot.com"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut hot = 0u64;
    let mut total = 0u64;
    for line in text.lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        let n: u64 = n.parse().unwrap();
        total += n;
        if stack.ends_with(":0200") {
            hot += n;
        }
    }
    assert!(total > 1000, "{text}");
    let share = hot as f64 / total as f64;
    assert!((share - 0.75).abs() < 0.03, "Hot's share {share}: {text}");
    // The flame graph names it.
    let dir = std::env::temp_dir().join(format!("th16-prof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("hot.svg");
    let out = bin()
        .args(["profile", "--svg"])
        .arg(&svg)
        .arg(rom("hot.com"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = std::fs::read_to_string(&svg).unwrap();
    // The PSP DOS gives the program (the first free paragraph).
    let p = toolhelp16::session::load(&rom("hot.com"), &Default::default()).unwrap();
    let toolhelp16::session::Loaded::Dos { psp, .. } = p.loaded else {
        panic!("hot.com is a DOS program")
    };
    assert!(
        s.starts_with("<?xml") && s.contains(&format!("HOT:{psp:04X}:0200")),
        "{}",
        &s[..200.min(s.len())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_prints_every_figure_with_its_ratio() {
    // Structure only: speed is read from the figures, never asserted.
    // Run from a directory that is not the repository: the programs it
    // runs are inside the binary.
    let away = std::env::temp_dir().join(format!("th16-bench-{}", std::process::id()));
    std::fs::create_dir_all(&away).unwrap();
    let out = bin()
        .current_dir(&away)
        .args(["bench", "--quick"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&away);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "bare unicorn, no hooks",
        "machine, untraced",
        "x bare unicorn",
        "a hook per instruction",
        "trace, blocks rendered",
        "trace, text to a file",
        // The recorded trace beside the untraced run, and its expansion
        // beside the same text written by a hook per instruction.
        "trace --record",
        "x untraced   target >= 0.50",
        // A debugged run with breakpoints that never hit (issue 33).
        "debugged, 3 breakpoints",
        "x untraced   target >= 0.80",
        // A timed Win16 program (roms/clockwork.exe: GetTickCount once a
        // frame) recorded and debugged against its plain run (issue 33).
        "recorded trace of a timed Win16 program (roms/clockwork.exe",
        "debugging a timed Win16 program (roms/clockwork.exe)",
        "without checkpoints, --checkpoint-memory 0",
        // Reverse-stepi deep into a debugged run, replayed from the
        // nearest checkpoint (issue 33; `--quick`: after 10^6).
        "reverse-stepi after 10^6 instructions",
        "ms   target <= 50 ms",
        "expansion of a recording",
        "x the hook   target > 1 (faster)",
        "instructions, the same",
        "StackTraceNext",
        // recurse.asm: 100 calls deep, the start's frame, 101 frames.
        "walking (roms/recurse.exe, 101 frames a walk",
        "loading (roms/winmenu.exe, bundled",
        // Self-modifying code: each program of roms/ that rewrites its
        // code, and the worst against its target.
        "self-modifying code (",
        "smc8.com",
        "dossmc.com",
        "smcdata.com",
        "smcboot.img",
        "us/instruction   target <= 3",
    ] {
        assert!(text.contains(want), "{want} missing:\n{text}");
    }
}

/// `bench --only` runs the sections named and no other; a name that is
/// no section is an error naming the sections.
#[test]
fn bench_only_runs_the_sections_named() {
    let out = bin()
        .args(["bench", "--quick", "--only", "record"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("trace --record"), "{text}");
    assert!(text.contains("expansion of a recording"), "{text}");
    for not in [
        "bare unicorn",
        "StackTraceNext",
        "self-modifying code (",
        "drawing (",
    ] {
        assert!(!text.contains(not), "{not} printed:\n{text}");
    }
    let out = bin()
        .args(["bench", "--quick", "--only", "record,nothing"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'nothing'") && err.contains("record") && err.contains("syscall"),
        "{err}"
    );
}

/// `bench` carries the programs it runs: the bytes of roms/recurse.exe,
/// roms/winmenu.exe, roms/clockwork.exe and the self-modifying programs
/// are in the binary
/// itself, so an installed binary
/// benches without the source tree it was built from.
#[test]
fn bench_programs_are_inside_the_binary() {
    let exe = std::fs::read(env!("CARGO_BIN_EXE_toolhelp16")).unwrap();
    for name in [
        "recurse.exe",
        "winmenu.exe",
        "clockwork.exe",
        "smc8.com",
        "dossmc.com",
        "smcdata.com",
        "smcboot.img",
    ] {
        let prog = std::fs::read(rom(name)).unwrap();
        assert!(
            exe.windows(prog.len()).any(|w| w == prog.as_slice()),
            "{name} is not inside the binary"
        );
    }
}

#[test]
fn stack_verify_agrees_on_a_correct_chain_and_names_a_frameless_function() {
    let ok = bin()
        .args(["stack", "--verify", "--at", "DEMO:1:003A"])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(ok.status.code(), Some(0), "{text}");
    assert!(
        text.contains("the walk agrees with the shadow stack"),
        "{text}"
    );
    let bad = bin()
        .args(["stack", "--verify", "--json", "--at", "FRAMELES:2:0026"])
        .arg(rom("frameless.exe"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["verify"]["agrees"], false);
    let d = &v["verify"]["disagreements"][0];
    assert_eq!(d["kind"], "frameless", "{d}");
    assert!(d["text"].as_str().unwrap().contains("no BP frame"));
}

#[test]
fn regs_in_json_are_a_changed_member_and_max_counts_them() {
    // demo.exe starts with `call far InitTask` (SP drops by 4), then the
    // INT of KERNEL's thunk (InitTask sets AX, BX, CX, DX), then `retf`.
    let lines = trace(&["demo.exe"], &[], &["--regs", "--max", "3"]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    let sp0 = lines[0]["changed"]["SP"].as_u64().expect("SP changed");
    assert_eq!(
        lines[2]["changed"]["SP"].as_u64(),
        Some(sp0 + 4),
        "{lines:?}"
    );
    assert_eq!(
        lines[1]["changed"]["AX"], 1,
        "InitTask succeeded: {lines:?}"
    );
    assert_eq!(lines[0]["symbol"], "start");
    assert_eq!(lines[1]["symbol"], "InitTask");
}

/// `trace --max N` ends the trace and the run with it, the same with and
/// without `--regs`: a stop where it was asked for (exit 0, "stopped at"),
/// not an instruction budget that ran out (122).
#[test]
fn trace_max_stops_the_run_the_same_with_and_without_regs() {
    for regs in [false, true] {
        let mut args = vec!["trace", "--max", "5"];
        if regs {
            args.push("--regs");
        }
        let out = common::bin()
            .args(&args)
            .arg(common::rom("demo.exe"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "--regs {regs}: {err}");
        assert!(err.contains(": stopped at "), "--regs {regs}: {err}");
        assert!(!err.contains("budget"), "--regs {regs}: {err}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
    }
}

/// `trace --html` at its cap (`--max N`, 2000 when not given) stops
/// where it was asked to, as the text trace does (README's exit table:
/// reaching --max is exit 0, not 122); a --max above the page's 10000 is
/// lowered, and said so on stderr (issue 31, Why 4).
#[test]
fn trace_html_at_its_cap_exits_0_and_says_when_max_is_lowered() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-trace-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("t.html");
    // poppad runs on for longer than 2000 instructions (it waits for
    // input no run gives it).
    let out = common::bin()
        .args(["trace", "--html"])
        .arg(&page)
        .arg(common::rom("poppad.exe"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2000 step(s)"), "{err}");
    assert!(err.contains(": stopped at "), "{err}");
    assert!(!err.contains("budget"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    let out = common::bin()
        .args(["trace", "--max", "20000", "--html"])
        .arg(&page)
        .arg(common::rom("demo.exe"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--max 20000 was lowered to 10000"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `trace | head`: when the reader goes away the run stops with it (there
/// is nothing more to write), quietly and with status 0, instead of
/// emulating on to the program's end or the wall-clock limit.
#[test]
fn a_closed_pipe_ends_the_trace_and_the_run() {
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("toolhelp16-trace-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lp = dir.join("loop.com");
    std::fs::write(&lp, [0xEB, 0xFE]).unwrap(); // jmp $
    for regs in [false, true] {
        let mut cmd = bin();
        cmd.args(["trace", "--timeout", "20"]);
        if regs {
            cmd.arg("--regs");
        }
        let mut child = cmd
            .arg(&lp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "--regs {regs}: {err}");
        assert!(!err.contains("wall-clock"), "--regs {regs}: ran on: {err}");
        assert!(!err.contains("panicked"), "--regs {regs}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
