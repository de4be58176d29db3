//! `toolhelp16 disasm`: static listings of NE, MZ and COM programs, with
//! symbols, entry points and relocations resolved (src/disasm.rs). The
//! expected instructions come from the roms' NASM sources (the line each
//! assertion names) and from the NE relocation rules (win16.md): a far
//! pointer fixup to an import makes the call reach that import; a selector
//! fixup makes the immediate that segment's selector.

mod common;
use common::{bin, root};

fn disasm(args: &[&str]) -> (String, String, Option<i32>) {
    let out = bin()
        .current_dir(root())
        .arg("disasm")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// The listing's line at `address`, the whole row.
fn row<'a>(text: &'a str, address: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(address))
        .unwrap_or_else(|| panic!("no line at {address}:\n{text}"))
}

/// The labels printed just before the line at `address`.
fn labels_before(text: &str, address: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with(address))
        .unwrap_or_else(|| panic!("no line at {address}"));
    lines[..i]
        .iter()
        .rev()
        .take_while(|l| l.starts_with(' '))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn an_ne_listing_names_imports_internal_calls_and_entries() {
    let (text, err, code) = disasm(&["roms/demo.exe"]);
    assert_eq!(code, Some(0), "{err}");
    // demo.asm: `start` (the entry, NE CS:IP = 1:0000) begins with
    // FAR_CALL_IMPORT KERNEL, 91: a far call whose far pointer is an
    // import by ordinal; KERNEL.91 is InitTask.
    let first = row(&text, "DEMO:1:0000");
    assert!(
        first.contains("9A FF FF 00 00"),
        "the file's bytes: {first}"
    );
    assert!(first.contains("call far KERNEL.InitTask"), "{first}");
    assert!(first.contains("KERNEL.91"), "{first}");
    let labels = labels_before(&text, "DEMO:1:0000");
    assert!(
        labels.contains(&"; the program's entry (CS:IP)".to_string()),
        "{labels:?}"
    );
    assert!(labels.contains(&"start:".to_string()), "{labels:?}");
    // WinMain: push 14h, then FAR_CALL 2, MainWndProc: an internal far
    // pointer, named by the symbol at segment 2's offset.
    let call = text
        .lines()
        .skip_while(|l| !l.trim().starts_with("WinMain:"))
        .find(|l| l.contains("call"))
        .unwrap();
    assert!(call.contains("call far MainWndProc"), "{call}");
    // MainWndProc is exported as @1 MAINWNDPROC (NE_EXPORT in demo.asm)
    // and starts segment 2.
    let labels = labels_before(&text, "DEMO:2:0000");
    assert!(
        labels.contains(&"; export @1 MAINWNDPROC".to_string()),
        "{labels:?}"
    );
    assert!(labels.contains(&"MainWndProc:".to_string()), "{labels:?}");
    // Near calls name their target: WIN16_STARTUP's `call main`.
    assert!(text.contains("call WinMain"), "{text}");
    // The data segment is not decoded unless asked for.
    assert!(!text.contains("DEMO:3:"), "{text}");
    let (data, _, _) = disasm(&["--segment", "3", "roms/demo.exe"]);
    assert!(data.contains("data: listed as bytes"), "{data}");
    assert!(row(&data, "DEMO:3:0000").contains("db 0x00"), "{data}");
}

#[test]
fn a_selector_fixup_reads_as_the_segment_it_names() {
    // plainfar.asm, DrawControls: MOV_AX_SELECTOR 2 (`mov ax, 0xFFFF`
    // with a selector fixup to segment 2).
    let (text, err, code) = disasm(&["roms/plainfar.exe"]);
    assert_eq!(code, Some(0), "{err}");
    let line = text
        .lines()
        .skip_while(|l| !l.trim().starts_with("DrawControls:"))
        .find(|l| l.contains("mov ax"))
        .unwrap();
    assert!(line.contains("B8 FF FF"), "the file's bytes: {line}");
    assert!(line.contains("mov ax,seg PLAINFAR:2"), "{line}");
}

#[test]
fn json_lines_carry_the_fixups_and_labels() {
    let (text, err, code) = disasm(&["--json", "roms/demo.exe"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(lines.len() > 20);
    let first = &lines[0];
    assert_eq!(first["address"], "DEMO:1:0000");
    assert_eq!(
        (first["segment"].as_u64(), first["offset"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(first["bytes"], "9A FF FF 00 00");
    assert_eq!(first["text"], "call far KERNEL.InitTask");
    let f = &first["fixups"][0];
    assert_eq!(f["kind"], "far pointer");
    assert_eq!(f["at"], 1);
    assert_eq!(f["import"]["module"], "KERNEL");
    assert_eq!(f["import"]["ordinal"], 91);
    assert_eq!(f["import"]["name"], "InitTask");
    assert!(
        first["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "the program's entry (CS:IP)")
    );
    for l in &lines {
        assert!(l["text"].is_string() && l["bytes"].is_string() && l["address"].is_string());
    }
}

#[test]
fn at_and_count_list_from_a_place() {
    let (text, err, code) = disasm(&["--at", "DEMO!PaintLine", "--count", "4", "roms/demo.exe"]);
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("DEMO:")).collect();
    assert_eq!(rows.len(), 4, "{text}");
    // demo.asm's PaintLine starts with the Windows far prologue in
    // FIXDS's form: mov ax,ss; nop; inc bp; push bp.
    assert!(
        rows[0].contains("mov ax,ss") && rows[2].contains("inc bp"),
        "{text}"
    );
    let (by_ordinal, _, _) = disasm(&["--at", "DEMO!#2", "--count", "4", "roms/demo.exe"]);
    assert_eq!(by_ordinal, text, "export @2 is PaintLine");
    let (gas, _, _) = disasm(&[
        "--at",
        "DEMO:1:0030",
        "--count",
        "1",
        "--syntax",
        "gas",
        "roms/demo.exe",
    ]);
    assert!(gas.contains("mov %ss,%ax"), "{gas}");
    // Errors name what is wrong and exit 120.
    for (args, says) in [
        (vec!["--segment", "9", "roms/demo.exe"], "segments 1 to 3"),
        (vec!["--at", "+5", "roms/demo.exe"], "runs nothing"),
        (vec!["--at", "DEMO!Nope", "roms/demo.exe"], "no symbol Nope"),
        (vec!["--at", "OTHER!WinMain", "roms/demo.exe"], "not OTHER"),
    ] {
        let (_, err, code) = disasm(&args);
        assert_eq!(code, Some(120), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_mz_listing_marks_its_relocations() {
    // mzfar.asm: main calls Worker far through an MZ relocation (the
    // segment word of `call far` is relocated by DOS).
    let (text, err, code) = disasm(&["roms/mzfar.exe"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("the entry's segment"), "{text}");
    let call = text
        .lines()
        .skip_while(|l| !l.trim().starts_with("main:"))
        .find(|l| l.contains("call far"))
        .unwrap();
    assert!(call.contains("Worker"), "{call}");
    assert!(call.contains("relocated: segment"), "{call}");
    let (json, _, _) = disasm(&["--json", "roms/mzfar.exe"]);
    let reloc = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["fixups"].is_array())
        .unwrap();
    assert_eq!(reloc["fixups"][0]["kind"], "segment");
}

#[test]
fn a_com_listing_starts_at_0100() {
    // comchain.asm: `start` at 0100h calls main near; main calls FarOdd.
    let (text, err, code) = disasm(&["roms/comchain.com"]);
    assert_eq!(code, Some(0), "{err}");
    let labels = labels_before(&text, "0000:0100");
    assert!(
        labels.contains(&"; the program's entry (CS:IP)".to_string()),
        "{labels:?}"
    );
    assert!(text.contains("call main"), "{text}");
    assert!(text.contains("call FarOdd"), "{text}");
}

/// A real program: flaggen.exe (Visual C++ 1.52) imports USER and GDI by
/// ordinal; its calls read as the functions' names from the ordinal
/// tables.
#[test]
fn a_real_programs_imports_read_as_names() {
    let Some(c) = common::corpus() else { return };
    let (text, err, code) = disasm(&[c.join("ne/flaggen.exe").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    for f in [
        "call far USER.InitApp",
        "call far KERNEL.InitTask",
        "call far USER.CreateWindow",
    ] {
        assert!(text.contains(f), "{f} missing");
    }
    assert!(!text.contains("call 0000:FFFF"), "an unresolved chain link");
}

/// Issue 30 item 8: `--json` never prints nothing. resonly.dll has no
/// code segment; the text listing says so in a note, and `--json` prints
/// that note as its one line (docs/schema/disasm.json).
#[test]
fn json_of_a_listing_without_code_is_its_note() {
    let (text, _, code) = disasm(&["roms/resonly.dll"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("; note: no code segment to list"), "{text}");
    let (json, err, code) = disasm(&["--json", "roms/resonly.dll"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["note"], "no code segment to list", "{json}");
    assert_eq!(v["version"], toolhelp16::JSON_VERSION, "{json}");
}

/// An error under `disasm --json` is one JSON line.
#[test]
fn json_error_is_one_line() {
    let (json, _, code) = disasm(&["--json", "roms/no-such-file.exe"]);
    assert_eq!(code, Some(120));
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["command"], "error", "{json}");
}
