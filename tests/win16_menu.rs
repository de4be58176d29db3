//! Menus and accelerators (src/win16/user/menu.rs, menu/, accel.rs) as a
//! Win16 program sees them: roms/winmenu.asm prints the item trees its
//! calls build, every return value, and each menu message its window
//! procedure gets (`NAME wParam LOWORD(lParam) HIWORD(lParam)`); the
//! expected values are the Windows 3.1 SDK's (each function's and
//! message's page), cited where they are checked.
//!
//! Menu handles are USER's to choose: the program prints them
//! (`handles main=... file=...`) and the expectations name them `{main}`,
//! `{file}`... A `*` stands for a word that depends on where the window
//! and its menu bar are on the screen (a click's point).

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::{bin, json, rom, strings};

/// A temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `run --json --events [--messages SCRIPT] winmenu.exe`: the exit code,
/// the debug output and the events.
fn run(script: Option<&str>) -> (Option<i32>, Vec<String>, Vec<String>) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "th16-menu-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let _guard = TempDir(dir.clone());
    let mut c = bin();
    c.args(["run", "--json", "--events"]);
    if let Some(s) = script {
        let p = dir.join("input.txt");
        std::fs::write(&p, s).unwrap();
        c.arg("--messages").arg(p);
    }
    let out = c.arg(rom("winmenu.exe")).output().unwrap();
    let v: Value = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    (
        out.status.code(),
        strings(&v["debug_output"]),
        strings(&v["events"]),
    )
}

/// The handles the program printed, by name.
fn handles(out: &[String]) -> HashMap<String, String> {
    let mut h = HashMap::new();
    for l in out.iter().filter_map(|l| l.strip_prefix("handles ")) {
        for kv in l.split(' ') {
            let (k, v) = kv.split_once('=').unwrap();
            h.insert(k.to_string(), v.to_string());
        }
    }
    h
}

/// `want` with `{name}` replaced by the handle.
fn fill(want: &str, h: &HashMap<String, String>) -> String {
    let mut s = want.to_string();
    for (k, v) in h {
        s = s.replace(&format!("{{{k}}}"), v);
    }
    s
}

/// Does `got` equal `want` (filled), a `*` word matching any word?
fn line_matches(got: &str, want: &str) -> bool {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.split(' ').collect(), want.split(' ').collect());
    g.len() == w.len() && g.iter().zip(&w).all(|(a, b)| *b == "*" || a == b)
}

/// Assert that the lines after the first line starting with `after`
/// are exactly `want`.
fn assert_after(out: &[String], after: &str, want: &[&str]) {
    let h = handles(out);
    let at = out
        .iter()
        .position(|l| l.starts_with(after))
        .unwrap_or_else(|| panic!("no line {after:?} in {out:#?}"));
    let got = &out[at + 1..];
    let want: Vec<String> = want.iter().map(|w| fill(w, &h)).collect();
    let ok = got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| line_matches(g, w));
    assert!(
        ok,
        "after {after:?}:\n got {got:#?}\nwant {want:#?}\n(first difference at {:?})",
        got.iter()
            .zip(&want)
            .position(|(g, w)| !line_matches(g, w))
            .unwrap_or(got.len().min(want.len()))
    );
}

/// The lines from the one starting with `from` to (not including) the
/// one starting with `to`.
fn between<'a>(out: &'a [String], from: &str, to: &str) -> &'a [String] {
    let a = out.iter().position(|l| l.starts_with(from)).unwrap();
    let b = a + out[a..].iter().position(|l| l.starts_with(to)).unwrap();
    &out[a..b]
}

fn assert_lines(got: &[String], want: &[&str]) {
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want.as_slice());
}

#[test]
fn trees_and_return_values_are_the_sdks() {
    let (code, out, _) = run(None);
    assert_eq!(code, Some(0), "{out:#?}");
    let h = handles(&out);
    for k in ["main", "file", "recent", "edit", "help", "system", "track"] {
        assert!(h.contains_key(k), "{k}: {out:#?}");
    }
    // The class menu MAINMENU, loaded by CreateWindow: a pop-up item's
    // state is its pop-up's count in the high byte and its flags in the
    // low byte (MF_POPUP 10h; MF_HELP, 4000h, does not fit); a command
    // item's state is its flags (MF_GRAYED 1, MF_CHECKED 8, MF_SEPARATOR
    // 800h); GetMenuItemID is -1 for a pop-up, 0 for a separator;
    // GetMenuString gives the text as the template has it.
    assert_lines(
        between(&out, "tree MAINMENU", "tree LoadMenu #2"),
        &[
            "tree MAINMENU",
            "menu 0: count 4",
            "item 0.0 state=0610 id=FFFF \"&File\"",
            "menu 1: count 6",
            "item 1.0 state=0000 id=0064 \"&New\tCtrl+N\"",
            "item 1.1 state=0000 id=0065 \"&Open...\tF2\"",
            "item 1.2 state=0800 id=0000 \"\"",
            "item 1.3 state=0001 id=0066 \"&Save\tCtrl+S\"",
            "item 1.4 state=0210 id=FFFF \"&Recent\"",
            "menu 2: count 2",
            "item 2.0 state=0000 id=006E \"&1 A.TXT\"",
            "item 2.1 state=0008 id=006F \"&2 B.TXT\"",
            "item 1.5 state=0000 id=0067 \"E&xit\"",
            "item 0.1 state=0210 id=FFFF \"&Edit\"",
            "menu 1: count 2",
            "item 1.0 state=0000 id=00C8 \"&Undo\tAlt+BkSp\"",
            "item 1.1 state=0000 id=00C9 \"Cu&t\"",
            "item 0.2 state=0000 id=012C \"&Go!\"",
            "item 0.3 state=0110 id=FFFF \"&Help\"",
            "menu 1: count 1",
            "item 1.0 state=0000 id=0190 \"&About...\"",
        ],
    );
    assert_after(
        &out,
        "item 1.0 state=0000 id=0190",
        &[
            // LoadMenu(hInstance, MAKEINTRESOURCE(2)): MF_MENUBARBREAK
            // (20h) is kept.
            "tree LoadMenu #2",
            "menu 0: count 2",
            "item 0.0 state=0310 id=FFFF \"&Tools\"",
            "menu 1: count 3",
            "item 1.0 state=0008 id=000A \"&Spell\"",
            "item 1.1 state=0800 id=0000 \"\"",
            "item 1.2 state=0210 id=FFFF \"&Zoom\"",
            "menu 2: count 2",
            "item 2.0 state=0000 id=000B \"&In\"",
            "item 2.1 state=0001 id=000C \"&Out\"",
            "item 0.1 state=0020 id=000D \"&Quit\"",
            // Each LoadMenu builds a new menu; a missing name is NULL.
            "LoadMenu again is another menu = 0001",
            "LoadMenu NoSuch = 0000",
            // GetMenuItemCount: -1 for no menu. GetMenuItemID: -1 for a
            // pop-up and past the end, 0 for a separator.
            "GetMenuItemCount = 0002",
            "GetMenuItemCount of no menu = FFFF",
            "GetMenuItemID of a pop-up = FFFF",
            "GetMenuItemID Quit = 000D",
            "GetMenuItemID past the end = FFFF",
            "GetMenuItemID of a separator = 0000",
            // GetMenuState: a pop-up's count and flags; by command the
            // item is found inside the pop-ups (Spell, and Out two levels
            // down); -1 for no item.
            "GetMenuState of a pop-up = 0310",
            "GetMenuState Spell = 0008",
            "GetMenuState Out = 0001",
            "GetMenuState of a separator = 0800",
            "GetMenuState of no item = FFFF",
            // CheckMenuItem: the previous check state (MF_UNCHECKED 0,
            // MF_CHECKED 8), -1 for no item. EnableMenuItem: the previous
            // state (MF_GRAYED 1, MF_ENABLED 0, MF_DISABLED 2), -1.
            "CheckMenuItem In checked = 0000",
            "CheckMenuItem In unchecked = 0008",
            "CheckMenuItem of no item = FFFF",
            "EnableMenuItem Out enabled = 0001",
            "EnableMenuItem Out disabled = 0000",
            "EnableMenuItem Out grayed = 0002",
            "EnableMenuItem of no item = FFFF",
            // GetMenuString: the count copied, at most nMaxCount - 1
            // characters and the NUL; a separator has no text.
            "GetMenuString Quit = 5 \"&Quit\"",
            "GetMenuString Quit in 3 = 2 \"&Q\"",
            "GetMenuString of a separator = 0 \"\"",
            // AppendMenu: MF_POPUP's wIDNewItem must be a menu.
            "AppendMenu One = 0001",
            "AppendMenu separator = 0001",
            "AppendMenu Sub = 0001",
            "AppendMenu Pop = 0001",
            "AppendMenu a pop-up that is no menu = 0000",
            // InsertMenu: before position 0; before command 21, which is
            // in the pop-up (so the new item goes there); -1 appends; a
            // command no item has appends too.
            "InsertMenu Zero at 0 = 0001",
            "InsertMenu before Sub = 0001",
            "InsertMenu Last at -1 = 0001",
            "InsertMenu before no item = 0001",
            "tree built",
            "menu 0: count 6",
            "item 0.0 state=0000 id=0002 \"Zero\"",
            "item 0.1 state=0000 id=0001 \"One\"",
            "item 0.2 state=0800 id=0000 \"\"",
            "item 0.3 state=0210 id=FFFF \"&Pop\"",
            "menu 1: count 2",
            "item 1.0 state=0000 id=0016 \"Before Sub\"",
            "item 1.1 state=0008 id=0015 \"Sub\"",
            "item 0.4 state=0000 id=0003 \"Last\"",
            "item 0.5 state=0000 id=0004 \"NoSuch\"",
            // ModifyMenu replaces the item, flags included (MF_GRAYED).
            "ModifyMenu One to Five = 0001",
            "ModifyMenu position 0 to Six = 0001",
            "ModifyMenu of no item = 0000",
            "tree modified",
            "menu 0: count 6",
            "item 0.0 state=0001 id=0006 \"Six\"",
            "item 0.1 state=0000 id=0005 \"Five\"",
            "item 0.2 state=0800 id=0000 \"\"",
            "item 0.3 state=0210 id=FFFF \"&Pop\"",
            "menu 1: count 2",
            "item 1.0 state=0000 id=0016 \"Before Sub\"",
            "item 1.1 state=0008 id=0015 \"Sub\"",
            "item 0.4 state=0000 id=0003 \"Last\"",
            "item 0.5 state=0000 id=0004 \"NoSuch\"",
            // ChangeMenu: MF_APPEND appends "Appended" (7); MF_CHANGE
            // turns command 6 into "Changed" (8, flags 0); MF_DELETE
            // deletes command 3; MF_INSERT (0) inserts "Ins" at position
            // 0; MF_REMOVE removes position 4, the pop-up.
            "ChangeMenu MF_APPEND = 0001",
            "ChangeMenu MF_CHANGE = 0001",
            "ChangeMenu MF_DELETE = 0001",
            "ChangeMenu MF_INSERT = 0001",
            "ChangeMenu MF_REMOVE = 0001",
            "tree changed",
            "menu 0: count 6",
            "item 0.0 state=0000 id=0009 \"Ins\"",
            "item 0.1 state=0000 id=0008 \"Changed\"",
            "item 0.2 state=0000 id=0005 \"Five\"",
            "item 0.3 state=0800 id=0000 \"\"",
            "item 0.4 state=0000 id=0004 \"NoSuch\"",
            "item 0.5 state=0000 id=0007 \"Appended\"",
            // Removing leaves the pop-up a menu; DeleteMenu destroys it.
            "IsMenu after MF_REMOVE = 0001",
            "RemoveMenu the separator = 0001",
            "AppendMenu Pop again = 0001",
            "DeleteMenu the pop-up = 0001",
            "IsMenu after DeleteMenu = 0000",
            "DeleteMenu of no item = 0000",
            // HiliteMenuItem sets MF_HILITE (80h); SetMenuItemBitmaps
            // MF_USECHECKBITMAPS (200h) until both bitmaps are NULL.
            "HiliteMenuItem = 0001",
            "GetMenuState hilited = 0080",
            "HiliteMenuItem off = 0001",
            "SetMenuItemBitmaps = 0001",
            "GetMenuState with bitmaps = 0200",
            "SetMenuItemBitmaps none = 0001",
            "GetMenuState without bitmaps = 0000",
            "tree final",
            "menu 0: count 5",
            "item 0.0 state=0000 id=0009 \"Ins\"",
            "item 0.1 state=0000 id=0008 \"Changed\"",
            "item 0.2 state=0000 id=0005 \"Five\"",
            "item 0.3 state=0000 id=0004 \"NoSuch\"",
            "item 0.4 state=0000 id=0007 \"Appended\"",
            // The display driver's check mark: the SDK gives no size;
            // layout.rs CHECK_MARK is this project's VGA value.
            "checkmark = 14 x 14",
            "DestroyMenu = 0001",
            "DestroyMenu again = 0000",
            "IsMenu after DestroyMenu = 0000",
            // LoadMenuIndirect: the header's offset skips 2 bytes;
            // MF_MENUBREAK (40h) and MF_HELP (4000h) are kept; a version
            // other than 0 is refused.
            "tree LoadMenuIndirect",
            "menu 0: count 2",
            "item 0.0 state=0210 id=FFFF \"&Indirect\"",
            "menu 1: count 2",
            "item 1.0 state=0008 id=03E8 \"&Alpha\"",
            "item 1.1 state=0040 id=03E9 \"&Beta\"",
            "item 0.1 state=4000 id=03EA \"&Gamma\"",
            "LoadMenuIndirect version 1 = 0000",
            // DestroyMenu destroys the pop-ups too.
            "DestroyMenu #2 = 0001",
            "IsMenu of its pop-up = 0000",
            // The system menu of Windows 3.1 (SC_ ids of WINDOWS.H).
            "tree system menu",
            "menu 0: count 9",
            "item 0.0 state=0000 id=F120 \"&Restore\"",
            "item 0.1 state=0000 id=F010 \"&Move\"",
            "item 0.2 state=0000 id=F000 \"&Size\"",
            "item 0.3 state=0000 id=F020 \"Mi&nimize\"",
            "item 0.4 state=0000 id=F030 \"Ma&ximize\"",
            "item 0.5 state=0800 id=0000 \"\"",
            "item 0.6 state=0000 id=F060 \"&Close\tAlt+F4\"",
            "item 0.7 state=0800 id=0000 \"\"",
            "item 0.8 state=0000 id=F130 \"S&witch To...\tCtrl+Esc\"",
            // The copy is the window's own until bRevert TRUE destroys it
            // (returning NULL); the next copy is the standard menu again.
            "AppendMenu to the system menu = 0001",
            "GetSystemMenu again is the same = 0001",
            "GetSystemMenu bRevert = 0000",
            "IsMenu of the reverted copy = 0000",
            "handles system={system}",
            "GetMenuItemCount of the new copy = 0009",
            "SetMenu of no menu = 0000",
            // An owner-drawn item: DrawMenuBar measures it with
            // WM_MEASUREITEM (CtlType ODT_MENU 1, CtlID 0, itemID,
            // itemData) ...
            "AppendMenu owner-drawn = 0001",
            "MEASUREITEM 1 0 01F4 12345678",
            // ... and drawn by its owner: WM_DRAWITEM (ODT_MENU, itemID,
            // ODA_DRAWENTIRE, no state, hwndItem the menu, itemData).
            "DRAWITEM 1 01F4 1 0000 {main} 12345678",
            "handles track={track}",
            // LoadAccelerators gives the loaded resource's handle: the same
            // one again.
            "accelerators loaded, again the same: 1",
        ],
    );
}

#[test]
fn the_mouse_chooses_through_the_menu_loop() {
    let (code, out, ev) = run(Some(
        "menu \"&File\" \"&Open...\"\n\
         menu file save\n\
         menu file recent \"&2 B.TXT\"\n\
         menu \"&Go!\"\n\
         menu file nothing\n\
         menu help about\n\
         close\n",
    ));
    assert_eq!(code, Some(0));
    assert_after(
        &out,
        "accelerators loaded",
        &[
            // A click on the bar: WM_NCLBUTTONDOWN HTMENU (5), which
            // DefWindowProc turns into WM_SYSCOMMAND SC_MOUSEMENU (F090)
            // with the point; WM_INITMENU with the bar; WM_MENUSELECT for
            // the pop-up item (wParam its pop-up; flags MF_MOUSESELECT
            // 8000h | MF_HILITE 80h | MF_POPUP 10h; the bar);
            // WM_INITMENUPOPUP (the pop-up, position 0, not the system
            // menu); WM_MENUSELECT for the command; the closing
            // WM_MENUSELECT (0, FFFFh, 0) and then the posted WM_COMMAND
            // (id, lParam 0).
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 8090 {main}",
            "INITMENUPOPUP {file} 0000 0000",
            "MENUSELECT 0065 8080 {file}",
            "MENUSELECT 0000 FFFF 0000",
            "COMMAND 0065 0000 0000",
            // Save is grayed: selected (MF_GRAYED in the flags), never
            // chosen; the menu closes without a command.
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 8090 {main}",
            "INITMENUPOPUP {file} 0000 0000",
            "MENUSELECT 0066 8081 {file}",
            "MENUSELECT 0000 FFFF 0000",
            // A pop-up in a pop-up: its WM_INITMENUPOPUP has position 4;
            // the checked item's flags have MF_CHECKED.
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 8090 {main}",
            "INITMENUPOPUP {file} 0000 0000",
            "MENUSELECT {recent} 8090 {file}",
            "INITMENUPOPUP {recent} 0004 0000",
            "MENUSELECT 006F 8088 {recent}",
            "MENUSELECT 0000 FFFF 0000",
            "COMMAND 006F 0000 0000",
            // A command on the bar itself.
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT 012C 8080 {main}",
            "MENUSELECT 0000 FFFF 0000",
            "COMMAND 012C 0000 0000",
            // No such item: the pop-up opened, then the menu is cancelled.
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 8090 {main}",
            "INITMENUPOPUP {file} 0000 0000",
            "MENUSELECT 0000 FFFF 0000",
            // Help (MF_HELP 4000h in its flags): the program calls EndMenu
            // in its WM_INITMENUPOPUP, and the menu closes at once.
            "NCLBUTTONDOWN 0005 * *",
            "SYSCOMMAND F090 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {help} C090 {main}",
            "INITMENUPOPUP {help} 0003 0000",
            "MENUSELECT 0000 FFFF 0000",
        ],
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("menu: no item \"nothing\" here"))
    );
}

#[test]
fn the_keyboard_drives_the_menu() {
    let (code, out, _) = run(Some(
        "key alt+f\nkey down\nkey down\nkey down\nkey right\nkey esc\nkey up\nkey enter\n\
         key alt\nkey right\nkey enter\nchar t\n\
         key f10\nkey left\nkey down\nkey esc\nkey esc\n\
         key alt+z\n\
         key alt+e\nchar q\n\
         key alt+e\nchar x\n\
         key alt+space\nkey down\nkey enter\n\
         key alt\nclose\n",
    ));
    assert_eq!(code, Some(0));
    assert_after(
        &out,
        "accelerators loaded",
        &[
            // Alt+F: WM_SYSCHAR 'f' → WM_SYSCOMMAND SC_KEYMENU (F100) with
            // the character; File opens with its first item selected (no
            // MF_MOUSESELECT from the keyboard).
            "SYSCOMMAND F100 0066 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 0090 {main}",
            "INITMENUPOPUP {file} 0000 0000",
            "MENUSELECT 0064 0080 {file}",
            // Down, down (over the separator to grayed Save), down (to
            // Recent), Right opens Recent at its first item, Escape
            // closes it, Up goes back to Save, Enter on a grayed item
            // closes the menu without a command.
            "MENUSELECT 0065 0080 {file}",
            "MENUSELECT 0066 0081 {file}",
            "MENUSELECT {recent} 0090 {file}",
            "INITMENUPOPUP {recent} 0004 0000",
            "MENUSELECT 006E 0080 {recent}",
            "MENUSELECT 0066 0081 {file}",
            "MENUSELECT 0000 FFFF 0000",
            // Alt alone (WM_SYSKEYDOWN then WM_SYSKEYUP of VK_MENU):
            // SC_KEYMENU with 0 selects the first bar item without opening
            // it; Right moves to Edit; Enter opens it; 't' is Cu&t's
            // mnemonic: chosen.
            "SYSCOMMAND F100 0000 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 0090 {main}",
            "MENUSELECT {edit} 0090 {main}",
            "INITMENUPOPUP {edit} 0001 0000",
            "MENUSELECT 00C8 0080 {edit}",
            "MENUSELECT 00C9 0080 {edit}",
            "MENUSELECT 0000 FFFF 0000",
            "COMMAND 00C9 0000 0000",
            // F10, then Left from File wraps to the system menu box
            // (MF_SYSMENU 2000h, the system menu as wParam and hmenu);
            // Down opens it (fSystemMenu TRUE) at Restore, grayed for a
            // window that is neither minimized nor maximized; two Escapes
            // close the pop-up, then the menu.
            "SYSCOMMAND F100 0000 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 0090 {main}",
            "MENUSELECT {system} 2090 {system}",
            "INITMENUPOPUP {system} 0000 0001",
            "MENUSELECT F120 2081 {system}",
            "MENUSELECT 0000 FFFF 0000",
            // Alt+Z is no item's mnemonic: WM_MENUCHAR (the character,
            // flags 0 for the bar, the bar); the program answers 0:
            // discarded with a beep, and the menu ends.
            "SYSCOMMAND F100 007A 0000",
            "INITMENU {main} 0000 0000",
            "MENUCHAR 007A 0000 {main}",
            "MENUSELECT 0000 FFFF 0000",
            // In the Edit pop-up 'q' is no mnemonic: WM_MENUCHAR with
            // MF_POPUP; the answer 1 in the high word closes the menu.
            "SYSCOMMAND F100 0065 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {edit} 0090 {main}",
            "INITMENUPOPUP {edit} 0001 0000",
            "MENUSELECT 00C8 0080 {edit}",
            "MENUCHAR 0071 0010 {edit}",
            "MENUSELECT 0000 FFFF 0000",
            // 'x': the answer 2 in the high word chooses the item at the
            // low word's position, Cut.
            "SYSCOMMAND F100 0065 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {edit} 0090 {main}",
            "INITMENUPOPUP {edit} 0001 0000",
            "MENUSELECT 00C8 0080 {edit}",
            "MENUCHAR 0078 0010 {edit}",
            "MENUSELECT 00C9 0080 {edit}",
            "MENUSELECT 0000 FFFF 0000",
            "COMMAND 00C9 0000 0000",
            // Alt+Space opens the system menu; Down to Move, Enter:
            // WM_SYSCOMMAND SC_MOVE (F010), posted.
            "SYSCOMMAND F100 0020 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {system} 2090 {system}",
            "INITMENUPOPUP {system} 0000 0001",
            "MENUSELECT F120 2081 {system}",
            "MENUSELECT F010 2080 {system}",
            "MENUSELECT 0000 FFFF 0000",
            "SYSCOMMAND F010 0000 0000",
            // Alt, then a line that is not a key: the menu is cancelled.
            "SYSCOMMAND F100 0000 0000",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {file} 0090 {main}",
            "MENUSELECT 0000 FFFF 0000",
        ],
    );
}

#[test]
fn accelerators_send_commands_as_the_sdk_says() {
    let (code, out, ev) = run(Some(
        "key ctrl+n\nkey f2\nkey ctrl+s\nkey shift+f9\nkey f9\nkey ctrl+f3\nkey alt+backspace\n\
         key n\nclose\n",
    ));
    assert_eq!(code, Some(0));
    assert_after(
        &out,
        "accelerators loaded",
        &[
            // "^N" is a character accelerator: Ctrl+N's WM_CHAR 0Eh
            // matches. The item is in File: WM_INITMENU, WM_INITMENUPOPUP,
            // then WM_COMMAND with lParam's high word 1.
            "INITMENU {main} 0000 0000",
            "INITMENUPOPUP {file} 0000 0000",
            "COMMAND 0064 0000 0001",
            // VK_F2, VIRTKEY.
            "INITMENU {main} 0000 0000",
            "INITMENUPOPUP {file} 0000 0000",
            "COMMAND 0065 0000 0001",
            // Ctrl+S for the grayed Save: the menu is initialized, no
            // WM_COMMAND.
            "INITMENU {main} 0000 0000",
            "INITMENUPOPUP {file} 0000 0000",
            // Shift+F9, no menu item: WM_COMMAND only. F9 without Shift
            // matches nothing.
            "COMMAND 0384 0000 0001",
            // Ctrl+F3 is SC_TASKLIST, an item of the system menu:
            // WM_INITMENU with the system menu, WM_SYSCOMMAND.
            "INITMENU {system} 0000 0000",
            "SYSCOMMAND F130 0000 0001",
            // Alt+Backspace (WM_SYSKEYDOWN, VIRTKEY ALT): Undo, in Edit
            // at position 1. The Alt released after it enters no menu.
            "INITMENU {main} 0000 0000",
            "INITMENUPOPUP {edit} 0001 0000",
            "COMMAND 00C8 0000 0001",
        ],
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("nothing sent, the menu item is grayed or disabled")),
        "{ev:#?}"
    );
}

#[test]
fn track_popup_menu_the_system_menu_and_commands() {
    let (code, out, _) = run(Some(
        "click 50 50 right\npopup #1\nclick 50 50 right\npopup \"&Copy\"\n\
         click 50 50 right\ncommand 100\ncommand 102\nsysmenu close\n",
    ));
    assert_eq!(code, Some(0));
    assert_after(
        &out,
        "accelerators loaded",
        &[
            // TrackPopupMenu of a pop-up with Copy and an owner-drawn item:
            // WM_INITMENU and WM_INITMENUPOPUP for it; as it opens the
            // first time its owner-drawn item is measured, then drawn
            // (ODA_DRAWENTIRE); the script's `popup #1` chooses it as the
            // mouse does: drawn selected (ODA_SELECT, ODS_SELECTED), then
            // WM_MENUSELECT (MF_OWNERDRAW 100h in the flags). TRUE, and
            // the WM_COMMAND comes after TrackPopupMenu returns.
            "INITMENU {track} 0000 0000",
            "INITMENUPOPUP {track} 0000 0000",
            "MEASUREITEM 1 0 0259 AABBCCDD",
            "DRAWITEM 1 0259 1 0000 {track} AABBCCDD",
            "DRAWITEM 1 0259 2 0001 {track} AABBCCDD",
            "MENUSELECT 0259 8180 {track}",
            "MENUSELECT 0000 FFFF 0000",
            "TRACKPOPUPMENU = 0001",
            "COMMAND 0259 0000 0000",
            // Again, Copy: measured already, only drawn.
            "INITMENU {track} 0000 0000",
            "INITMENUPOPUP {track} 0000 0000",
            "DRAWITEM 1 0259 1 0000 {track} AABBCCDD",
            "MENUSELECT 0258 8080 {track}",
            "MENUSELECT 0000 FFFF 0000",
            "TRACKPOPUPMENU = 0001",
            "COMMAND 0258 0000 0000",
            // No `popup` line left: cancelled, FALSE.
            "INITMENU {track} 0000 0000",
            "INITMENUPOPUP {track} 0000 0000",
            "DRAWITEM 1 0259 1 0000 {track} AABBCCDD",
            "MENUSELECT 0000 FFFF 0000",
            "TRACKPOPUPMENU = 0000",
            // `command 100`: WM_INITMENU then the WM_COMMAND; `command
            // 102` (grayed Save) is not delivered.
            "INITMENU {main} 0000 0000",
            "COMMAND 0064 0000 0000",
            // `sysmenu close`: a click on the system menu box (HTSYSMENU
            // 3, SC_MOUSEMENU + HTSYSMENU), the system menu opens, Close
            // is chosen: WM_SYSCOMMAND SC_CLOSE, which DefWindowProc
            // turns into WM_CLOSE, and the program ends.
            "NCLBUTTONDOWN 0003 * *",
            "SYSCOMMAND F093 * *",
            "INITMENU {main} 0000 0000",
            "MENUSELECT {system} A090 {system}",
            "INITMENUPOPUP {system} 0000 0001",
            "MENUSELECT F060 A080 {system}",
            "MENUSELECT 0000 FFFF 0000",
            "SYSCOMMAND F060 * *",
        ],
    );
}
