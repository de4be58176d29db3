//! A program that starts up as real Windows 3.1 applications did
//! (tests/watcom/notes.c, built with Open Watcom in the small model; its
//! header lists what it prints and where the expected values come from):
//! the exact command line, a local heap that must grow, WIN.INI, the
//! default printer's information context, PrintDlg, a CW_USEDEFAULT main
//! window with an edit control. Run with no script, it must reach its main
//! window with no message box and end cleanly when the session closes it.

mod common;
use common::{bin, json, watcom};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn notes() -> Option<PathBuf> {
    static EXE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        watcom::build(
            "notes",
            watcom::Kind::Win16Exe,
            &["notes.c"],
            None,
            &["-ms", "commdlg.lib"],
        )
    })
    .clone()
}

fn run(dir: &Path, args: &[&str], extra: &[&str]) -> (std::process::Output, Value) {
    let out = bin()
        .args(["run", "--json"])
        .args(extra)
        .arg(dir.join("NOTES.EXE"))
        .arg("--")
        .args(args)
        .output()
        .unwrap();
    let v = json(&out);
    (out, v)
}

#[test]
fn an_editor_reaches_its_main_window_and_ends_cleanly() {
    let Some(exe) = notes() else {
        return;
    };
    let dir = common::scratch("notes-plain");
    std::fs::copy(&exe, dir.join("NOTES.EXE")).unwrap();
    let shot = dir.join("shot.png");
    let (out, v) = run(&dir, &[], &["--screenshot", shot.to_str().unwrap()]);
    assert_eq!(v["exit"]["kind"], "exited", "{v:#}");
    assert_eq!(
        common::output_lines(&v),
        [
            "doc Untitled 0",
            "heap 40 1",
            "intl .",
            "printer HPPCL5A ok",
            "printdlg 1",
            "window Notes - Untitled ok",
            "extent ok",
            // The session's WM_CLOSE: DestroyWindow, PostQuitMessage(0).
            "quit 0",
        ],
        "{v:#}"
    );
    assert_eq!(
        v["message_boxes"].as_array().map(Vec::len),
        Some(0),
        "{v:#}"
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::metadata(&shot).unwrap().len() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_editor_opens_the_file_its_command_line_names() {
    let Some(exe) = notes() else {
        return;
    };
    let dir = common::scratch("notes-file");
    std::fs::copy(&exe, dir.join("NOTES.EXE")).unwrap();
    std::fs::write(dir.join("README.TXT"), b"twelve bytes").unwrap();
    let (_, v) = run(&dir, &["README.TXT"], &[]);
    assert_eq!(common::output_lines(&v)[0], "doc README.TXT 12", "{v:#}");
    assert!(
        common::output_lines(&v).contains(&"window Notes - README.TXT ok".to_string()),
        "{v:#}"
    );
    // A name that is not there: the program's own error box, reported.
    let (out, v) = run(&dir, &["NOPE.TXT"], &[]);
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v:#}");
    assert_eq!(boxes[0]["text"], "Cannot open file NOPE.TXT.");
    assert_eq!(boxes[0]["by"], "program");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
