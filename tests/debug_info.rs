//! Source lines, function names and parameters' places from the debug
//! information compilers put in executables (src/symbols/dwarf.rs,
//! lines.rs): programs built here with Open Watcom `-d2` fault, and the
//! frames of the fault report name each function and its `file:line`.
//!
//! The expected lines are the C sources' own: each test finds them by the
//! marker comments (`LINE-...`) in tests/watcom/srclines.c and
//! srcline2.c, whose header says what the program does.

mod common;
use common::{bin, json, watcom, watcom::line_of};

/// The two-file program, built with `flags`.
fn build(name: &str, flags: &[&str]) -> Option<std::path::PathBuf> {
    watcom::build(
        name,
        watcom::Kind::Win16Exe,
        &["srclines.c", "srcline2.c"],
        None,
        flags,
    )
}

/// The frames of the run's one fault: (symbol, file's last component,
/// line) each.
fn fault_frames(exe: &std::path::Path) -> (serde_json::Value, Vec<(String, String, u64)>) {
    let out = bin().args(["run", "--json"]).arg(exe).output().unwrap();
    let v = json(&out);
    let frames = v["faults"][0]["frames"]
        .as_array()
        .unwrap_or_else(|| panic!("no fault frames: {v}"))
        .iter()
        .map(|f| {
            let file = f["source"]["file"].as_str().unwrap_or("-");
            let file = file.rsplit(['/', '\\']).next().unwrap().to_string();
            (
                f["symbol"].as_str().unwrap_or("-").to_string(),
                file,
                f["source"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (v, frames)
}

/// Each frame: its function (the symbol up to `+`), file and line.
fn functions_and_lines(frames: &[(String, String, u64)]) -> Vec<(String, String, u64)> {
    frames
        .iter()
        .map(|(s, f, l)| (s.split('+').next().unwrap().to_string(), f.clone(), *l))
        .collect()
}

fn expected() -> Vec<(String, String, u64)> {
    vec![
        (
            "leaf".into(),
            "srclines.c".into(),
            line_of("srclines.c", "LINE-FAULT").into(),
        ),
        (
            "middle".into(),
            "srcline2.c".into(),
            line_of("srcline2.c", "LINE-CALL-LEAF").into(),
        ),
        (
            "WinMain".into(),
            "srclines.c".into(),
            line_of("srclines.c", "LINE-CALL-MIDDLE").into(),
        ),
    ]
}

#[test]
fn dwarf_fault_frames_name_functions_and_source_lines() {
    // -d2 alone: DWARF, Open Watcom's default debug format.
    let Some(exe) = build("srcdw", &["-d2"]) else {
        return;
    };
    let (v, frames) = fault_frames(&exe);
    // The GP fault is unhandled: Windows 3.1 ends the task with its
    // Application Error box (SDK, "Application Error").
    assert_eq!(v["fault"]["number"], 13, "{v}");
    assert_eq!(functions_and_lines(&frames), expected(), "{v}");
    // The first frame is the faulting instruction inside leaf, the others
    // return addresses inside their callers: a displacement each.
    assert!(
        frames.iter().all(|(s, _, _)| s.contains("+0x")),
        "{frames:?}"
    );
    // Parameters' places and values: Watcom passes a, b and x in
    // registers and its prologue stores them below BP; WinMain is PASCAL,
    // its arguments above the return address, the last (nCmdShow) nearest
    // (BP+6: saved BP, return IP and CS below it).
    let params = |i: usize| -> Vec<(String, i64, u64)> {
        v["faults"][0]["frames"][i]["params"]
            .as_array()
            .unwrap_or_else(|| panic!("no params in frame {i}: {v}"))
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_string(),
                    p["bp_offset"].as_i64().unwrap(),
                    p["value"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let win_main = params(2);
    let names: Vec<&str> = win_main.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names, ["nCmdShow", "lpCmd", "hPrev", "hInst"], "{v}");
    assert_eq!(win_main[0].1, 6, "{v}");
    let n_cmd_show = win_main[0].2;
    // middle(nCmdShow), then leaf(x + 1, 2) (the sources).
    let middle = params(1);
    assert_eq!(middle.len(), 1, "{v}");
    assert_eq!(
        (middle[0].0.as_str(), middle[0].2),
        ("x", n_cmd_show),
        "{v}"
    );
    let leaf0 = params(0);
    let leaf: Vec<(&str, u64)> = leaf0.iter().map(|p| (p.0.as_str(), p.2)).collect();
    assert_eq!(leaf, [("a", n_cmd_show + 1), ("b", 2)], "{v}");
    // The full path the compiler recorded.
    let file = v["faults"][0]["frames"][0]["source"]["file"]
        .as_str()
        .unwrap();
    assert!(
        std::path::Path::new(file).ends_with("tests/watcom/srclines.c"),
        "{file}"
    );
}

#[test]
fn dwarf_lines_in_the_text_report_and_in_a_small_model_program() {
    // Small model: near calls inside one code segment.
    let Some(exe) = build("srcdws", &["-d2", "-hd", "-ms"]) else {
        return;
    };
    let (v, frames) = fault_frames(&exe);
    assert_eq!(functions_and_lines(&frames), expected(), "{v}");
    let kinds: Vec<&str> = v["faults"][0]["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| if f["far"] == true { "far" } else { "near" })
        .collect();
    // leaf is reached by the fault (the first frame is always far in a
    // walk from CS:IP); middle and WinMain return near.
    assert_eq!(kinds, ["far", "near", "near"], "{v}");
    // The text report: `NAME+0xN at FILE:LINE` in the symbol column.
    let out = bin().arg("run").arg(&exe).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    for (f, file, line) in expected() {
        let want = format!(" at {file}:{line}");
        assert!(
            text.lines()
                .any(|l| l.contains(&format!("  {f}+0x")) && l.ends_with(&want)),
            "no frame line for {f}{want}:\n{text}"
        );
    }
}

#[test]
fn a_break_at_a_function_by_its_debug_name_shows_its_first_line() {
    // Watcom gives a function's entry (its prologue) the line of its
    // declarator.
    let Some(exe) = build("srcdwat", &["-d2"]) else {
        return;
    };
    // wlink's map names leaf `leaf_` (Watcom's register convention); the
    // debug information names it as the source does.
    let out = bin()
        .args(["stack", "--json", "--at", "SRCDWAT!leaf"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    let f0 = &v["frames"][0];
    assert_eq!(f0["symbol"], "leaf", "{v}");
    assert_eq!(
        f0["source"]["line"].as_u64().unwrap(),
        u64::from(line_of("srclines.c", "LINE-LEAF")),
        "{v}"
    );
    // At the entry BP is still the caller's: the places, no values.
    let p = f0["params"].as_array().unwrap();
    assert_eq!(p.len(), 2, "{v}");
    assert!(p.iter().all(|p| p["value"].is_null()), "{v}");
}

#[test]
fn damaged_debug_information_never_panics_and_is_named_with_its_offset() {
    let Some(exe) = build("srcdwbad", &["-d2"]) else {
        return;
    };
    let good = std::fs::read(&exe).unwrap();
    let Some((start, len)) = toolhelp16::symbols::dwarf::find(&good) else {
        panic!("no DWARF TIS trailer in a -d2 build");
    };
    assert!(toolhelp16::symbols::dwarf::parse(&good).is_ok());
    // Deterministic edits all over the appended image: every result is a
    // table or an error naming a file offset inside the image.
    let mut x: u32 = 0x1234_5678;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for _ in 0..400 {
        let mut b = good.clone();
        for _ in 0..(1 + next() % 8) {
            let at = start + (next() as usize) % len;
            b[at] = next() as u8;
        }
        match toolhelp16::symbols::dwarf::parse(&b) {
            Ok(info) => {
                assert!(info.rows.len() <= toolhelp16::symbols::lines::MAX_ROWS);
            }
            Err(e) => match e.at {
                toolhelp16::symbols::At::Offset(o) => {
                    assert!((o as usize) < b.len(), "{e}");
                }
                _ => panic!("no offset: {e}"),
            },
        }
    }
}

/// The JSON lines a command printed.
fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn disasm_shows_each_source_lines_first_instruction_with_its_text() {
    let Some(exe) = build("srcdis", &["-d2"]) else {
        return;
    };
    let fault = line_of("srclines.c", "LINE-FAULT");
    let out = bin().args(["disasm", "--json"]).arg(&exe).output().unwrap();
    let lines = json_lines(&out);
    let want = format!("srclines.c:{fault}");
    let starts: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["source"] == want.as_str())
        .collect();
    // One source line, one first instruction: inside leaf, with the
    // source text as the file has it.
    assert_eq!(starts.len(), 1, "{want}: {starts:?}");
    assert!(starts[0]["symbol"].as_str().unwrap().starts_with("leaf+0x"));
    assert_eq!(
        starts[0]["source_text"],
        "    *(int far *)0L = total;             /* LINE-FAULT */"
    );
    let call = format!("srcline2.c:{}", line_of("srcline2.c", "LINE-CALL-LEAF"));
    assert!(
        lines.iter().any(|l| l["source"] == call.as_str()
            && l["symbol"].as_str().unwrap().starts_with("middle+0x")),
        "{call}"
    );
    // The text listing: a comment line before that instruction.
    let text = bin().arg("disasm").arg(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.lines().any(|l| l.trim_start()
            == format!("; {want}: *(int far *)0L = total;             /* LINE-FAULT */")),
        "{text}"
    );
}

#[test]
fn trace_names_each_instructions_source_line() {
    let Some(exe) = build("srctr", &["-d2"]) else {
        return;
    };
    let out = bin()
        .args(["trace", "--json", "--module", "SRCTR"])
        .arg(&exe)
        .output()
        .unwrap();
    let lines = json_lines(&out);
    let fault = format!("srclines.c:{}", line_of("srclines.c", "LINE-FAULT"));
    // The faulting line ran: each of its instructions names it, inside
    // leaf; the last instruction traced in leaf is the faulting store.
    let in_line: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["source"] == fault.as_str())
        .collect();
    assert!(!in_line.is_empty(), "no instruction of {fault}");
    assert!(
        in_line
            .iter()
            .all(|l| l["symbol"].as_str().unwrap().starts_with("leaf+0x")),
        "{in_line:?}"
    );
    assert_eq!(in_line.last().unwrap()["text"], "mov [es:bx],ax");
    // Code without debug information (the C runtime's start-up, wlink's
    // own) names no line.
    assert!(lines.iter().any(|l| l.get("source").is_none()));
}

/// A `debug --commands` session on `exe`: its standard output.
fn debug_session(exe: &std::path::Path, commands: &str) -> String {
    // A directory of its own per session: tests run in parallel.
    let stem = exe.file_stem().unwrap().to_string_lossy().to_string();
    let dir = common::scratch(&format!("debug-info-{stem}"));
    let file = dir.join("commands.txt");
    std::fs::write(&file, commands).unwrap();
    let out = bin()
        .arg("debug")
        .arg("--commands")
        .arg(&file)
        .arg(exe)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn debug_breaks_at_a_line_lists_and_steps_by_source_line() {
    let Some(exe) = watcom::build(
        "srcstep",
        watcom::Kind::Win16Exe,
        &["srcstep.c"],
        None,
        &["-d2"],
    ) else {
        return;
    };
    let l = |m: &str| line_of("srcstep.c", m);
    let first = l("LINE-FIRST");
    let out = debug_session(
        &exe,
        &format!(
            "break srcstep.c:{first}\ncontinue\nlist\nnext\nstep\nnext\nnext\nnext\nnext\nnext\nnext\nnext\ncontinue\n"
        ),
    );
    // Each stop names its line as `srcstep.c:N: text`: the lines the
    // stops reached, in order.
    let stops: Vec<u32> = out
        .lines()
        .filter_map(|t| t.strip_prefix("srcstep.c:"))
        .filter_map(|t| t.split(':').next()?.parse().ok())
        .collect();
    // gdb's rules: `next` runs a call through, `step` goes into add (its
    // first line is the declarator, where Watcom puts the prologue), and
    // after add's closing line the step returns to the rest of the
    // calling line (the store of the result).
    assert_eq!(
        stops,
        [
            first,
            l("LINE-CALL-ADD"),
            l("LINE-ADD"),
            l("LINE-ADD-BODY"),
            l("LINE-ADD-RETURN"),
            l("LINE-ADD-RETURN") + 1,
            l("LINE-CALL-ADD"),
            l("LINE-CALL-ADD-2"),
            l("LINE-RETURN"),
            l("LINE-RETURN") + 1,
        ],
        "{out}"
    );
    // `list` shows the lines around the stop, the stop's marked.
    assert!(
        out.lines().any(|t| t
            == format!("=>{first:>5}      int r = 1;                          /* LINE-FIRST */")),
        "{out}"
    );
    assert!(
        out.contains("the program has ended: exited with code 0"),
        "{out}"
    );
}

/// The walk at srcdos.c's LINE-STOP in a `debug` session, as (symbol's
/// function, file, line) per frame.
fn dos_frames_at_the_stop(exe: &std::path::Path) -> (String, Vec<(String, String, u64)>) {
    let stop = line_of("srcdos.c", "LINE-STOP");
    let out = debug_session(
        exe,
        &format!("break srcdos.c:{stop}\ncontinue\nbt\ncontinue\n"),
    );
    let frames = out
        .lines()
        .skip_while(|l| !l.contains("#  hTask"))
        .skip(1)
        .take_while(|l| !l.starts_with("walk ended"))
        .filter(|l| !l.trim_start().starts_with("args:"))
        .map(|l| {
            let sym = l.split_whitespace().nth(7).unwrap_or("-");
            let at = l.rsplit(" at ").next().unwrap_or("");
            let (file, line) = at.split_once(':').unwrap_or(("-", "0"));
            (
                sym.split('+').next().unwrap().to_string(),
                file.to_string(),
                line.parse().unwrap_or(0),
            )
        })
        .collect();
    (out, frames)
}

fn dos_expected() -> Vec<(String, String, u64)> {
    vec![
        (
            "leaf".into(),
            "srcdos.c".into(),
            line_of("srcdos.c", "LINE-STOP").into(),
        ),
        (
            "middle".into(),
            "srcdos.c".into(),
            line_of("srcdos.c", "LINE-CALL-LEAF").into(),
        ),
        (
            "main".into(),
            "srcdos.c".into(),
            line_of("srcdos.c", "LINE-CALL-MIDDLE").into(),
        ),
    ]
}

#[test]
fn codeview_lines_and_functions_of_a_dos_program() {
    let Some(exe) = watcom::dos_codeview("srccv", &["srcdos.c"], &["-ms"]) else {
        return;
    };
    let bytes = std::fs::read(&exe).unwrap();
    let info = toolhelp16::symbols::codeview::parse(&bytes).unwrap();
    assert_eq!(info.format, "CodeView 4 (NB05)");
    // Watcom passes leaf's a and b in registers and its prologue stores
    // them below BP: parameters at negative offsets (their procedure
    // type's argument list has two), then the local `sum`; main(void)
    // has none.
    let vars = |name: &str| -> Vec<(String, bool, i32)> {
        info.functions
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no {name}: {:?}", info.functions))
            .params
            .iter()
            .map(|p| (p.name.clone(), p.is_param, p.bp_offset))
            .collect()
    };
    let leaf = vars("leaf");
    let shape: Vec<(&str, bool)> = leaf.iter().map(|v| (v.0.as_str(), v.1)).collect();
    assert_eq!(shape, [("a", true), ("b", true), ("sum", false)]);
    assert!(leaf.iter().all(|v| v.2 < 0), "{leaf:?}");
    assert_eq!(leaf[1].2, leaf[0].2 + 2, "{leaf:?}");
    assert!(vars("main").iter().all(|v| !v.1));
    let (out, frames) = dos_frames_at_the_stop(&exe);
    assert_eq!(frames, dos_expected(), "{out}");
    assert!(out.contains("sum 7"), "{out}");
    // leaf(x, 4) with x = 3, middle(3) (the source).
    let args: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("args:"))
        .collect();
    assert_eq!(args.len(), 2, "{out}");
    assert!(
        args[0].contains("a=[BP-")
            && args[0].contains("]=0x0003, b=[BP-")
            && args[0].ends_with("]=0x0004"),
        "{out}"
    );
    assert!(
        args[1].contains("x=[BP-") && args[1].ends_with("]=0x0003"),
        "{out}"
    );
}

#[test]
fn dwarf_lines_and_functions_of_a_dos_program() {
    let Some(exe) = watcom::build(
        "srcdosdw",
        watcom::Kind::DosExe,
        &["srcdos.c"],
        None,
        // -of: traceable frames (BP pushed first), which the BP-chain walk
        // needs; with DWARF alone Watcom saves registers before BP in DOS
        // code (with -hc it pushes BP first).
        &["-d2", "-ms", "-of"],
    ) else {
        return;
    };
    let (out, frames) = dos_frames_at_the_stop(&exe);
    assert_eq!(frames, dos_expected(), "{out}");
}

#[test]
fn damaged_codeview_never_panics_and_is_named_with_its_offset() {
    let Some(exe) = watcom::dos_codeview("srccvbad", &["srcdos.c"], &["-ms"]) else {
        return;
    };
    let good = std::fs::read(&exe).unwrap();
    let (base, _) = toolhelp16::symbols::codeview::find(&good).unwrap();
    let mut x: u32 = 0x9E37_79B9;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for _ in 0..400 {
        let mut b = good.clone();
        for _ in 0..(1 + next() % 8) {
            let at = base + 8 + (next() as usize) % (b.len() - base - 16);
            b[at] = next() as u8;
        }
        if let Err(e) = toolhelp16::symbols::codeview::parse(&b) {
            match e.at {
                toolhelp16::symbols::At::Offset(o) => assert!((o as usize) < b.len(), "{e}"),
                _ => panic!("no offset: {e}"),
            }
        }
    }
}

#[test]
fn link_map_line_numbers_name_the_frames_source_lines() {
    // tests/symbols/mzfar_lines.map: roms/mzfar.map as LINK /LI writes it,
    // with the "Line numbers for" sections of an assembler module
    // assembled with line information (the lines are mzfar.asm's).
    let root = common::root();
    let map = root.join("tests/symbols/mzfar_lines.map");
    let out = bin()
        .args(["stack", "--json", "--no-symbol-search", "--map"])
        .arg(format!("MZFAR={}", map.display()))
        .args(["--at", "MZFAR!leaf_stop"])
        .arg(common::rom("mzfar.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let frames: Vec<(String, String, u64)> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["symbol"].as_str().unwrap().to_string(),
                f["source"]["file"].as_str().unwrap_or("-").to_string(),
                f["source"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let lines: Vec<u64> = frames.iter().map(|f| f.2).collect();
    assert_eq!(lines, [81, 99, 93, 72], "{v}");
    assert!(frames.iter().all(|f| f.1 == "mzfar.asm"), "{frames:?}");
    // Those lines are the stop and the three calls (mzfar.asm's header
    // gives the chain): the return addresses are named from the call
    // before them.
    let asm = std::fs::read_to_string(common::rom("mzfar.asm")).unwrap();
    let text = |n: u64| asm.lines().nth(n as usize - 1).unwrap().to_string();
    assert!(text(81).contains("mov ax, [bp+6]"), "{}", text(81));
    assert!(text(99).contains("call far CODE_A:Leaf"), "{}", text(99));
    assert!(text(93).contains("call helper"), "{}", text(93));
    assert!(text(72).contains("call far CODE_B:Worker"), "{}", text(72));
}

#[test]
fn watcom_format_fault_frames_name_functions_lines_and_parameters() {
    // -d2 -hw: Open Watcom's own format ("WATCOM Debugging Information
    // Format"), which wcl links with `debug watcom all`.
    let Some(exe) = build("srchw", &["-d2", "-hw"]) else {
        return;
    };
    let bytes = std::fs::read(&exe).unwrap();
    assert!(toolhelp16::symbols::watdbg::present(&bytes));
    assert!(!toolhelp16::symbols::dwarf::present(&bytes));
    let info = toolhelp16::symbols::watdbg::parse(&bytes).unwrap();
    assert_eq!(info.format, "Watcom");
    // leaf's local `total` is a local (below BP, after its two register
    // parameters' records), not a parameter.
    let leaf = info.functions.iter().find(|f| f.name == "leaf").unwrap();
    let places: Vec<(&str, bool)> = leaf
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.is_param))
        .collect();
    assert_eq!(places, [("a", true), ("b", true), ("total", false)]);
    assert!(leaf.params.iter().all(|p| p.bp_offset < 0), "{leaf:?}");
    let (v, frames) = fault_frames(&exe);
    assert_eq!(v["fault"]["number"], 13, "{v}");
    assert_eq!(functions_and_lines(&frames), expected(), "{v}");
    let params = |i: usize| -> Vec<(String, i64, u64)> {
        v["faults"][0]["frames"][i]["params"]
            .as_array()
            .unwrap_or_else(|| panic!("no params in frame {i}: {v}"))
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_string(),
                    p["bp_offset"].as_i64().unwrap(),
                    p["value"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // WinMain is PASCAL: its arguments above the far return address, the
    // last (nCmdShow) nearest, at BP+6.
    let win_main = params(2);
    let names: Vec<(&str, i64)> = win_main.iter().map(|p| (p.0.as_str(), p.1)).collect();
    assert_eq!(
        names,
        [("nCmdShow", 6), ("lpCmd", 8), ("hPrev", 12), ("hInst", 14)],
        "{v}"
    );
    let n_cmd_show = win_main[0].2;
    let middle = params(1);
    assert_eq!(middle.len(), 1, "{v}");
    assert_eq!(
        (middle[0].0.as_str(), middle[0].2),
        ("x", n_cmd_show),
        "{v}"
    );
    let leaf: Vec<(String, u64)> = params(0).into_iter().map(|p| (p.0, p.2)).collect();
    assert_eq!(
        leaf,
        [("a".to_string(), n_cmd_show + 1), ("b".to_string(), 2)],
        "{v}"
    );
}

#[test]
fn watcom_format_lines_and_functions_of_a_dos_program() {
    let Some(exe) = watcom::build(
        "srcdoshw",
        watcom::Kind::DosExe,
        &["srcdos.c"],
        None,
        // -of as for DWARF: BP pushed first, for the BP-chain walk.
        &["-d2", "-hw", "-ms", "-of"],
    ) else {
        return;
    };
    let bytes = std::fs::read(&exe).unwrap();
    assert_eq!(
        toolhelp16::symbols::watdbg::parse(&bytes).unwrap().format,
        "Watcom"
    );
    let (out, frames) = dos_frames_at_the_stop(&exe);
    assert_eq!(frames, dos_expected(), "{out}");
    // leaf(int a, int b) is called as leaf(x, 4) with x = 3 (the source).
    assert!(out.contains("args: a=[BP-"), "{out}");
    assert!(out.contains("=0x0003, b=[BP-"), "{out}");
    assert!(out.contains("=0x0004"), "{out}");
    assert!(out.contains("sum 7"), "{out}");
}

#[test]
fn damaged_watcom_information_never_panics_and_is_named_with_its_offset() {
    let Some(exe) = build("srchwbad", &["-d2", "-hw"]) else {
        return;
    };
    let good = std::fs::read(&exe).unwrap();
    let hdr = toolhelp16::symbols::watdbg::find(&good).unwrap();
    let size = u32::from_le_bytes(good[hdr + 10..hdr + 14].try_into().unwrap()) as usize;
    let start = hdr + 14 - size;
    let mut x: u32 = 0x2545_F491;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let mut refused = 0;
    for _ in 0..400 {
        let mut b = good.clone();
        for _ in 0..(1 + next() % 8) {
            let at = start + (next() as usize) % (hdr + 14 - start);
            b[at] = next() as u8;
        }
        if let Err(e) = toolhelp16::symbols::watdbg::parse(&b) {
            refused += 1;
            match e.at {
                toolhelp16::symbols::At::Offset(o) => assert!((o as usize) < b.len(), "{e}"),
                toolhelp16::symbols::At::File => {
                    assert!(e.what.contains("0x8386"), "{e}")
                }
                _ => panic!("no offset: {e}"),
            }
        }
    }
    assert!(refused > 0);
}

#[test]
fn a_replayed_recording_names_each_instructions_source_line_as_the_live_trace() {
    let Some(exe) = build("srcrec", &["-d2", "-hw"]) else {
        return;
    };
    let dir = exe.parent().unwrap();
    let rec = dir.join("run.rec");
    let live = bin()
        .args(["trace", "--module", "SRCREC"])
        .arg(&exe)
        .output()
        .unwrap();
    let out = bin()
        .args(["trace", "--record"])
        .arg(&rec)
        .arg(&exe)
        .output()
        .unwrap();
    assert!(rec.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
    let replay = bin()
        .args(["trace", "--module", "SRCREC", "--replay"])
        .arg(&rec)
        .output()
        .unwrap();
    let live = String::from_utf8_lossy(&live.stdout).to_string();
    let replay = String::from_utf8_lossy(&replay.stdout).to_string();
    let fault = format!(
        "; leaf+0x2e at srclines.c:{}",
        line_of("srclines.c", "LINE-FAULT")
    );
    assert!(live.lines().any(|l| l.ends_with(&fault)), "{live}");
    // The replay writes what the live trace wrote, source lines included.
    assert_eq!(replay, live);
    // The recording keeps them: the source file may be gone by now.
    let json = bin()
        .args(["trace", "--json", "--module", "SRCREC", "--replay"])
        .arg(&rec)
        .output()
        .unwrap();
    let lines = json_lines(&json);
    let call = format!("srclines.c:{}", line_of("srclines.c", "LINE-CALL-MIDDLE"));
    assert!(lines.iter().any(|l| l["source"] == call.as_str()), "{call}");
}

#[test]
fn profile_names_the_source_lines_its_samples_were_taken_at() {
    let Some(exe) = watcom::build(
        "srchot",
        watcom::Kind::DosExe,
        &["srchot.c"],
        None,
        &["-d2", "-ms"],
    ) else {
        return;
    };
    let hot = line_of("srchot.c", "LINE-HOT");
    let out = bin()
        .args(["profile", "--json", "--every", "10"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = json(&out);
    let lines = v["lines"].as_array().unwrap_or_else(|| panic!("{v}"));
    // The loop's line takes most samples: the most sampled line, in spin.
    let top = &lines[0];
    assert!(top["file"].as_str().unwrap().ends_with("srchot.c"), "{v}");
    assert_eq!(top["line"], u64::from(hot), "{v}");
    assert_eq!(top["function"], "SRCHOT!spin", "{v}");
    let samples = v["samples"].as_u64().unwrap();
    assert!(
        top["samples"].as_u64().unwrap() * 2 > samples,
        "{samples} samples: {v}"
    );
    // The text report lists it on stderr, the folded stacks stay alone on
    // stdout.
    let out = bin()
        .args(["profile", "--every", "10"])
        .arg(&exe)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err
        .lines()
        .skip_while(|l| !l.contains("the source lines sampled"))
        .nth(1)
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        first.contains(&format!(" srchot.c:{hot} ")) && first.ends_with(" SRCHOT!spin"),
        "{first}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().all(|l| l
            .rsplit_once(' ')
            .is_some_and(|(_, n)| n.parse::<u64>().is_ok())),
        "{stdout}"
    );
}

/// gdb (batch mode, the real one) against `toolhelp16 gdbserver exe`:
/// its output; None without gdb (common::need's policy: a failure under
/// ./x test and CI).
fn gdb_batch(exe: &std::path::Path, commands: &[String]) -> Option<String> {
    if !common::need::tool("gdb", "--version", "gdb") {
        return None;
    }
    let (mut server, addr) = common::gdbserver(&[exe.to_str().unwrap()]);
    let (_, text) = common::gdb_batch(&addr, commands, 60.0);
    common::wait_for(&mut server, 10.0);
    Some(text)
}

#[test]
fn gdb_breaks_at_a_source_line_and_lists_it_through_monitor() {
    let Some(exe) = watcom::build(
        "srcgdb",
        watcom::Kind::DosExe,
        &["srcdos.c"],
        None,
        &["-d2", "-hw", "-ms", "-of"],
    ) else {
        return;
    };
    let stop = line_of("srcdos.c", "LINE-STOP");
    let Some(out) = gdb_batch(
        &exe,
        &[
            format!("monitor break srcdos.c:{stop}"),
            "continue".into(),
            "monitor where".into(),
            "monitor list".into(),
            "p/x $pc - $csbase".into(),
            "kill".into(),
        ],
    ) else {
        return;
    };
    assert!(out.contains("Program received signal SIGTRAP"), "{out}");
    // `monitor where` names the line, `monitor list` shows its text.
    assert!(out.contains(&format!("srcdos.c:{stop}")), "{out}");
    assert!(out.contains("/* LINE-STOP */"), "{out}");
    // The stop is at the line's first instruction: the address the debug
    // information gives it (leaf's first line after the prologue).
    let info = toolhelp16::symbols::watdbg::parse(&std::fs::read(&exe).unwrap()).unwrap();
    let file = info
        .files
        .iter()
        .position(|f| f.ends_with("srcdos.c"))
        .unwrap() as u32;
    let row = info
        .rows
        .iter()
        .filter(|r| r.file == file && r.line == stop)
        .min_by_key(|r| r.start)
        .unwrap();
    // A DOS program's CS is its code segment's paragraph: IP is the
    // row's offset from it (the small model's one code segment).
    let ip = out
        .lines()
        .find_map(|l| l.strip_prefix("$1 = 0x"))
        .map(|h| u32::from_str_radix(h.trim(), 16).unwrap())
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(ip, row.start, "{out}");
}

#[test]
fn watcom_format_names_the_lines_of_code_in_a_header_through_its_cues() {
    let Some(exe) = watcom::build(
        "srccue",
        watcom::Kind::DosExe,
        &["srccue.c"],
        None,
        &["-d2", "-hw", "-ms", "-of"],
    ) else {
        return;
    };
    let stop = line_of("srccue.h", "LINE-IN-HEADER");
    let call = line_of("srccue.c", "LINE-CALL-TWICE");
    let out = debug_session(
        &exe,
        &format!("break srccue.h:{stop}\ncontinue\nbt\nlist\ncontinue\n"),
    );
    let frames: Vec<String> = out
        .lines()
        .skip_while(|l| !l.contains("#  hTask"))
        .skip(1)
        .take(3)
        .map(str::to_string)
        .collect();
    assert!(
        frames[0].contains(" twice+0x") && frames[0].ends_with(&format!(" at srccue.h:{stop}")),
        "{out}"
    );
    // twice(3) (the source).
    assert!(
        frames[1].trim_start().starts_with("args: v=[BP-") && frames[1].ends_with("]=0x0003"),
        "{out}"
    );
    assert!(
        frames[2].contains(" main+0x") && frames[2].ends_with(&format!(" at srccue.c:{call}")),
        "{out}"
    );
    assert!(out.contains("/* LINE-IN-HEADER */"), "{out}");
    assert!(out.contains("twice 6"), "{out}");
}
