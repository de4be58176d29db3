//! Behaviours real Windows 3.x applications rely on, each checked with a
//! program built with Open Watcom C (tests/watcom/): the message boxes a
//! run reports, resources found through the name table, text extents
//! under every mapping mode, dialogs of their own class, CW_USEDEFAULT,
//! MDI child captions and the end of a run. Expected values come from the
//! Windows 3.1 SDK pages and KB articles each test names.

mod common;

use std::path::Path;
use std::process::Output;

use common::{bin, json, watcom};
use serde_json::Value;

/// `run --json PROGRAM`: the output and its JSON.
fn run(program: &Path) -> (Output, Value) {
    let out = bin()
        .arg("run")
        .arg("--json")
        .arg(program)
        .output()
        .unwrap();
    let v = json(&out);
    (out, v)
}

/// The console lines the program wrote.
fn lines(v: &Value) -> Vec<String> {
    v["output"]
        .as_str()
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn run_reports_every_message_box_in_json_and_text() {
    let Some(exe) = watcom::win16("msgbox") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(lines(&v), ["answer 1", "answer 6"]);
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 2, "{v:#}");
    let b = &boxes[0];
    assert_eq!(b["module"], "MSGBOX");
    assert_eq!(b["caption"], "Demo App");
    assert_eq!(b["text"], "Cannot open file");
    // MB_OKCANCEL (1) | MB_ICONEXCLAMATION (0x30).
    assert_eq!(b["style"], 0x31);
    assert_eq!(b["answer"], 1);
    assert_eq!(b["by"], "program");
    assert!(b["hTask"].as_u64().unwrap() > 0);
    // SDK, MessageBox: a NULL lpszTitle gives the caption "Error".
    assert_eq!(boxes[1]["caption"], "Error");
    assert_eq!(boxes[1]["style"], 4);
    assert_eq!(boxes[1]["answer"], 6);
    // The text report: a line each.
    let out = bin().arg("run").arg(&exe).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("message box \"Demo App\": \"Cannot open file\" (MB 0x0031, task ")
            && err.contains("MSGBOX) answered IDOK (1)\n"),
        "{err}"
    );
    assert!(
        err.contains("message box \"Error\": \"no caption\" (MB 0x0004, task ")
            && err.contains("answered IDYES (6)\n"),
        "{err}"
    );
}

#[test]
fn an_unhandled_fault_reports_the_application_error_box() {
    let faults = common::rom("faults.exe");
    let out = bin()
        .args(["run", "--json"])
        .arg(&faults)
        .args(["--", "w"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(121), "{v:#}");
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v:#}");
    assert_eq!(boxes[0]["caption"], "Application Error");
    assert_eq!(boxes[0]["text"], v["fault"]["application_error"]);
    assert_eq!(boxes[0]["by"], "environment");
    assert!(boxes[0]["style"].is_null() && boxes[0]["answer"].is_null());
}

#[test]
fn a_dialog_of_its_own_class_with_no_dialog_procedure_is_served_by_the_class() {
    let Some(exe) = watcom::win16("dlgclass") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        [
            "registered 1",
            "modal 7",
            "modeless 1",
            "class MyDlgClass",
            "inits 1",
            "item 1",
            "dlgproc 0",
            "quit 3"
        ]
    );
}

#[test]
fn a_dialog_template_at_cw_usedefault_is_placed_by_createwindow() {
    let Some(exe) = watcom::win16("dlgdefpos") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        ["over on-screen 1 1", "over size 1 1", "popup at 0 0"]
    );
}

#[test]
fn a_released_common_dc_still_measures_text_with_the_default_font() {
    let Some(exe) = watcom::win16("textdc") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        [
            "fresh 1",
            "released 1",
            "defaults 1",
            "tm 1",
            "twips 1",
            "point 1"
        ]
    );
}

#[test]
fn resources_named_through_the_name_table_are_found_by_every_loader() {
    let Some(exe) = watcom::win16("nametable") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        [
            "dialog 1",
            "not menu 1",
            "no such 1",
            "same 1",
            "modal 5",
            "menu 1",
            "accel 1",
            "data 1234 4"
        ]
    );
}

#[test]
fn mdi_children_titles_fill_the_window_menu_and_the_maximized_frame_caption() {
    let Some(exe) = watcom::win16("mdicaption") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        [
            "child [Doc1]",
            "item 100 [&1 Doc1]",
            "item 101 [&2 Doc2]",
            "count checked [4 0 1]",
            "frame max [App - [Doc2]]",
            "frame renamed [App - [Renamed]]",
            "item 101 renamed [&2 Renamed]",
            "frame retitled [NewApp - [Renamed]]",
            "frame restored [NewApp]",
            "after destroy 100 [&1 Renamed]",
            "count id [3 100]",
            "count none [1]",
            "zero size is default [1 1]",
            "new maximized [1 0]",
            "frame third [NewApp - [Third]]",
            "next checked [1 0]",
            "next maximized [1 0]",
            "frame next [NewApp - [Zero]]",
            "moved 100 [&1 Zero]",
            "counts old new [1 5]"
        ]
    );
}

#[test]
fn a_dialog_keeps_its_window_words_until_its_last_message() {
    let Some(exe) = watcom::win16("dlgdestroy") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(
        lines(&v),
        [
            "msgresult 1 0 0",
            "destroy 1 1 1",
            "ncdestroy 1 1 0",
            "alive 0 0 0"
        ]
    );
}

#[test]
fn a_save_changes_box_at_the_sessions_close_is_answered_no_and_the_run_ends() {
    let Some(exe) = watcom::win16("savechanges") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(lines(&v), ["before 6", "closing 7", "quit 0"]);
    let answers: Vec<&Value> = v["message_boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["answer"])
        .collect();
    assert_eq!(answers, [6, 7]);
    // Its own dialog at the close: the No button is clicked.
    let out = bin()
        .args(["run", "--json"])
        .arg(&exe)
        .args(["--", "own"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(lines(&v), ["before 6", "closing 7", "quit 0"]);
}

#[test]
fn loadlibrary_of_a_missing_dll_reports_the_file_error_box() {
    let Some(exe) = watcom::win16("nodll") else {
        return;
    };
    let (out, v) = run(&exe);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(lines(&v), ["first 2", "quiet 2"]);
    let boxes = v["message_boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{v:#}");
    assert_eq!(boxes[0]["caption"], "File Error");
    assert_eq!(boxes[0]["text"], "Cannot find NOSUCH.DLL");
    assert_eq!(boxes[0]["by"], "environment");
    assert_eq!(boxes[0]["module"], "NODLL");
}
