//! Win16 programs headless: windows, the message loop, callbacks from USER
//! into window procedures, and the walk from inside a window procedure.

mod common;
use common::{bin, json, rom, strings};

fn events(v: &serde_json::Value) -> Vec<String> {
    strings(&v["events"])
}

/// The messages a window procedure received, in order: the program's
/// window, 32C4, the address of its WND in USER's data segment (the
/// first free block after USER's own objects and the program's class).
fn messages(ev: &[String]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| e.split_once(" message 32C4 "))
        .map(|(_, m)| m.split('(').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_window_lives_its_whole_life_under_the_default_session() {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("winmsg.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    // PostQuitMessage(7) in WM_DESTROY; WM_QUIT's wParam is the exit code.
    assert_eq!(out.status.code(), Some(7));
    let ev = events(&v);
    // The order Windows sends them (Wine's tested notes,
    // documentation/gui: "CreateWindow (for overlapped window, not
    // initially visible)", "ShowWindow (for overlapped window)",
    // "DestroyWindow (for overlapped window)"; DefWindowProc asks for the
    // caption's text with WM_GETTEXT when it draws the frame). The class has
    // no brush, so WM_ERASEBKGND is left to the window again at BeginPaint.
    assert_eq!(
        messages(&ev),
        [
            "WM_GETMINMAXINFO",
            "WM_NCCREATE",
            "WM_NCCALCSIZE",
            "WM_CREATE",
            // ShowWindow
            "WM_SHOWWINDOW",
            "WM_WINDOWPOSCHANGING",
            "WM_WINDOWPOSCHANGING",
            "WM_ACTIVATEAPP",
            "WM_NCACTIVATE",
            "WM_GETTEXT",
            "WM_ACTIVATE",
            "WM_SETFOCUS",
            "WM_NCPAINT",
            "WM_GETTEXT",
            "WM_ERASEBKGND",
            "WM_WINDOWPOSCHANGED",
            "WM_SIZE",
            "WM_MOVE",
            // UpdateWindow
            "WM_PAINT",
            "WM_ERASEBKGND",
            // the default session
            "WM_CLOSE",
            // DestroyWindow
            "WM_WINDOWPOSCHANGING",
            "WM_WINDOWPOSCHANGED",
            "WM_NCACTIVATE",
            "WM_ACTIVATE",
            "WM_ACTIVATEAPP",
            "WM_KILLFOCUS",
            "WM_DESTROY",
            "WM_NCDESTROY",
        ]
    );
    assert!(
        ev.iter().any(
            |e| e.contains("draw TextOut ") && e.ends_with(" (10, 20) \"Hello from WM_PAINT\"")
        ),
        "{ev:#?}"
    );
    // The relay log names each call with its arguments and result.
    assert!(
        ev.iter()
            .any(|e| e.contains("call USER.PostQuitMessage(0007) -> 0000:0000")),
        "{ev:#?}"
    );
    // WM_SIZE carries the client size of a 480x360 default window: the
    // sizing frame (SM_CXFRAME 4) and the border (1) on each side, the
    // caption (SM_CYCAPTION 20, less the line it shares with the frame) on
    // top: 470x331. WM_MOVE the client area's corner: the default window
    // at (16, 16) plus (5, 24).
    assert!(
        ev.iter()
            .any(|e| e.contains("message 32C4 WM_SIZE(0000, 014B:01D6)")),
        "{ev:#?}"
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("message 32C4 WM_MOVE(0000, 0028:0015)")),
        "{ev:#?}"
    );
}

#[test]
fn the_walk_inside_a_window_procedure_climbs_through_user_into_the_caller() {
    // paint_here in OnPaint, during UpdateWindow's WM_PAINT.
    let out = bin()
        .args(["stack", "--json"])
        .arg(rom("winmsg.exe"))
        .args(["--at", "WINMSG:1:011A"])
        .output()
        .unwrap();
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    let shape: Vec<(String, bool)> = frames
        .iter()
        .map(|f| {
            (
                f["module"].as_str().unwrap().to_string(),
                f["far"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("WINMSG".to_string(), true),  // the stop (CSIPFirst)
            ("WINMSG".to_string(), false), // OnPaint's return into WndProc
            ("USER".to_string(), true),    // WndProc's odd BP: USER's frame
            ("WINMSG".to_string(), true),  // USER's frame: back into WinMain
        ]
    );
    // The last frame is the return from the far call of UpdateWindow, and
    // USER's frame lies between the window procedure's and WinMain's.
    let ip = |i: usize| frames[i]["wIP"].as_u64().unwrap();
    let bp = |i: usize| frames[i]["wBP"].as_u64().unwrap();
    assert_eq!(ip(3), 0x0083);
    assert!(bp(1) < bp(2) && bp(2) < bp(3), "{frames:?}");
    assert_eq!(frames[2]["wSegment"], 1);
}

#[test]
fn corpus_message_box_programs_exit_cleanly() {
    let Some(c) = common::corpus().map(|c| c.join("ne")) else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(c.join("helljw16.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(0));
    let ev = events(&v);
    assert!(
        ev.iter()
            .any(|e| e.contains("message box \"Hi!\": \"Hello, World!\" answered 1")),
        "{ev:#?}"
    );
}

fn corpus_run(name: &str) -> Option<(std::process::Output, serde_json::Value)> {
    let c = common::corpus()?.join("ne");
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(c.join(name))
        .output()
        .unwrap();
    let v = json(&out);
    Some((out, v))
}

#[test]
fn flaggen_paints_its_flag_and_exits_under_the_default_session() {
    let Some((out, v)) = corpus_run("flaggen.exe") else {
        return;
    };
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(0));
    let ev = events(&v);
    let has = |s: &str| ev.iter().any(|e| e.contains(s));
    // Its WinMain and MainWndProc (progress-pride-win16 source/main.c):
    // register, create, show, paint stripes and shapes, quit on WM_DESTROY.
    for call in [
        "call USER.RegisterClass",
        "call USER.CreateWindow",
        "call USER.ShowWindow",
        "call USER.UpdateWindow",
        "call USER.BeginPaint",
        "call GDI.Polygon",
        "call GDI.Rectangle",
        "call GDI.Ellipse",
        "call USER.EndPaint",
        "call USER.PostQuitMessage",
    ] {
        assert!(has(call), "{call} missing: {ev:#?}");
    }
    assert!(messages(&ev).contains(&"WM_DESTROY".to_string()));
}

#[test]
fn wheeltst_reports_its_missing_driver_in_a_message_box_and_exits() {
    let Some((out, v)) = corpus_run("wheeltst.exe") else {
        return;
    };
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(0));
    let ev = events(&v);
    // INT 2Fh AX=1684h finds no WHEELVXD, and it says so with wsprintf and
    // MessageBox.
    assert!(
        ev.iter()
            .any(|e| e.contains("message box \"Error\": \"WHEELVXD.386 not loaded\"")),
        "{ev:#?}"
    );
}
