//! Dialog boxes and the predefined controls (src/win16/user/dialog.rs,
//! src/win16/user/controls/): the roms/ programs dlgctl, dlgnav and dlgdraw
//! check each answer against the Windows 3.1 SDK themselves (roms/inc/
//! checks.inc prints `FAIL name: ...` for a mismatch and `checks N fails M`
//! at the end); these tests run them, and check what the programs print
//! and the events against the documented behaviour.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;
use common::{bin, json, rom, strings};

/// `run --json --events [--messages FILE] PROGRAM`.
fn run(program: &Path, script: Option<&str>) -> (Output, Value) {
    let mut c = bin();
    c.args(["run", "--json", "--events"]);
    let dir = std::env::temp_dir().join(format!(
        "th16-dialogs-{}-{}",
        std::process::id(),
        program.file_stem().unwrap().to_string_lossy()
    ));
    if let Some(s) = script {
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!("{}.txt", script.map_or(0, str::len)));
        std::fs::write(&p, s).unwrap();
        c.arg("--messages").arg(&p);
    }
    let out = c.arg(program).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v = json(&out);
    (out, v)
}

/// The program's OutputDebugString lines; fails on any FAIL line.
fn checked(v: &Value) -> Vec<String> {
    let lines = strings(&v["debug_output"]);
    let fails: Vec<&String> = lines.iter().filter(|l| l.starts_with("FAIL")).collect();
    assert!(fails.is_empty(), "{fails:#?}\nall: {lines:#?}");
    lines
}

/// The System font's dialog base units from the font files (fonts-wine's
/// vgasys.fon, as the session loads it): the 52 letters' average width
/// rounded ((extent / 26 + 1) / 2, KB Q125681) and the cell height.
fn system_base_units() -> (i32, i32) {
    use toolhelp16::win16::gdi::font::{FontCatalogue, FontSearch, PhysFont};
    let cat = FontCatalogue::load(&FontSearch::standard(None));
    let f = PhysFont::plain(cat.system());
    let extent: i32 = (b'A'..=b'Z').chain(b'a'..=b'z').map(|c| f.advance(c)).sum();
    ((extent / 26 + 1) / 2, f.height())
}

#[test]
fn every_control_class_answers_as_the_sdk_documents() {
    let (out, v) = run(&rom("dlgctl.exe"), None);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let lines = checked(&v);
    assert_eq!(out.status.code(), Some(0), "{lines:#?}");
    let (x, y) = system_base_units();
    assert_eq!(
        lines,
        [
            format!("base units {x} {y}"),
            "checks 133 fails 0".to_string()
        ]
    );
    // The VGA System font: a 16-pixel cell (Petzold, Programming Windows
    // 3.1, figure 2-3), so 8 dialog y units are 16 pixels.
    assert_eq!(y, 16);
    let ev = strings(&v["events"]);
    let at = |s: &str| {
        ev.iter()
            .position(|e| e.contains(s))
            .unwrap_or_else(|| panic!("{s} missing: {ev:#?}"))
    };
    // The dialog is built from its template: the window first, then the
    // controls in template order, then WM_INITDIALOG; it ends with the
    // EndDialog value after its controls are destroyed.
    let order = [
        at("dialog \"#100\" opened as"),
        at("created: class BUTTON title \"OK\""),
        at("created: class BUTTON title \"Cancel\""),
        at("created: class STATIC title \"&Name:\""),
        at("created: class EDIT"),
        at("created: class LISTBOX"),
        at("created: class COMBOBOX"),
        at("created: class SCROLLBAR"),
        at("WM_INITDIALOG"),
        at("ended with 7"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}
