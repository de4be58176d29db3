//! USER's objects in USER's heaps as a TOOLHELP client finds them:
//! tests/watcom/userblocks.c (Open Watcom, small model, toolhelp.lib, a
//! menu resource) walks the local heaps of the global blocks USER owns
//! with GlobalFirst/GlobalNext and LocalFirst/LocalNext and checks that
//! menus, DC entries and multiple-window-position structures appear and
//! disappear with their objects. Expected values: TOOLHELP.H (LF_FIXED 1,
//! LF_MOVEABLE 4, LT_USER_MENU 4, LT_USER_DCE 13, LT_USER_MWP 14); an
//! HMENU is the local handle of its block in USER's menu heap (KB Q90762:
//! menus in a heap of their own; Pietrek, "Windows Internals"); five
//! cached DCs (KB Q74291); CS_OWNDC gives each window, CS_CLASSDC each
//! class, a DC of its own that GetDC returns every time and ReleaseDC
//! leaves (SDK, WNDCLASS, GetDC, ReleaseDC); BeginDeferWindowPos
//! allocates the structure DeferWindowPos enlarges and EndDeferWindowPos
//! applies (SDK, BeginDeferWindowPos, DeferWindowPos).

mod common;
use common::watcom;
use common::{bin, json};

fn run() -> Option<Vec<String>> {
    let exe = watcom::build(
        "userblocks",
        watcom::Kind::Win16Exe,
        &["userblocks.c"],
        Some("userblocks.rc"),
        &["-ms", "toolhelp.lib"],
    )?;
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    Some(
        v["output"]
            .as_str()
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

fn line<'a>(lines: &'a [String], key: &str) -> Vec<&'a str> {
    lines
        .iter()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} line in {lines:#?}"))
        .split_whitespace()
        .skip(1)
        .collect()
}

#[test]
fn menus_dces_and_mwps_are_blocks_of_users_heaps() {
    let Some(o) = run() else {
        return;
    };
    // CreateMenu's HMENU is the handle of a moveable (LF_MOVEABLE 4)
    // LT_USER_MENU block; DestroyMenu frees it.
    assert_eq!(line(&o, "menu"), ["1", "4", "1"], "{o:#?}");
    // LoadMenu of a bar with one pop-up: two blocks, the bar's and the
    // pop-up's handles among them; DestroyMenu(bar) frees both.
    assert_eq!(line(&o, "load"), ["2", "1", "1", "1"], "{o:#?}");
    // A menu whose block grows for its items keeps its handle.
    assert_eq!(line(&o, "grow"), ["1", "1"], "{o:#?}");
    // GetSystemMenu makes the window's copy of the system menu, a block
    // of its own; DestroyWindow destroys it (SDK, DestroyWindow).
    assert_eq!(line(&o, "sysmenu"), ["1", "1", "1"], "{o:#?}");
    // The five cached DCs; one more entry for the CS_CLASSDC class when
    // it is registered, another for the CS_OWNDC window when it is made.
    assert_eq!(line(&o, "dce"), ["5", "1", "2"], "{o:#?}");
    // GetDC on the CS_OWNDC window: the same HDC each time, ReleaseDC
    // answers 1 and leaves it; a window of a plain class gets a common DC;
    // BeginPaint paints with the window's own DC (SDK, BeginPaint: the
    // DC "for the specified window", CS_OWNDC's).
    assert_eq!(line(&o, "owndc"), ["1", "1", "1", "1", "1"], "{o:#?}");
    // The CS_CLASSDC class's windows share its DC.
    assert_eq!(line(&o, "classdc"), ["1"], "{o:#?}");
    // The CS_OWNDC window destroyed: its entry goes; the class
    // unregistered: its entry goes.
    assert_eq!(line(&o, "dcegone"), ["1", "0"], "{o:#?}");
    // No MWP before BeginDeferWindowPos; the HDWP is an LT_USER_MWP block,
    // still one (perhaps moved) after growing past its room for two; none
    // after EndDeferWindowPos, which moved the windows.
    assert_eq!(line(&o, "mwp"), ["0", "1", "1", "0", "1"], "{o:#?}");
    assert_eq!(o.last().map(String::as_str), Some("done"));
}
