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
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "th16-dialogs-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    if let Some(s) = script {
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("input.txt");
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

/// Word wrap as the SDK describes the multiline edit control's: `text` cut
/// into lines no wider than `width` with the System font.
fn wrap(text: &[u8], width: i32) -> Vec<String> {
    use toolhelp16::win16::gdi::font::{FontCatalogue, FontSearch, PhysFont};
    let cat = FontCatalogue::load(&FontSearch::standard(None));
    let f = PhysFont::plain(cat.system());
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        // The longest prefix whose non-blank characters fit.
        let mut x = 0;
        let mut fit = rest.len();
        for (i, &c) in rest.iter().enumerate() {
            x += f.advance(c);
            if c != b' ' && x > width {
                fit = i;
                break;
            }
        }
        let cut = if fit == rest.len() {
            fit
        } else {
            match rest[..fit].iter().rposition(|&c| c == b' ') {
                Some(b) => b + 1,
                None => fit.max(1),
            }
        };
        lines.push(String::from_utf8_lossy(&rest[..cut]).into_owned());
        rest = &rest[cut..];
    }
    lines
}

#[test]
fn every_control_class_answers_as_the_sdk_documents() {
    let (out, v) = run(&rom("dlgctl.exe"), None);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let lines = checked(&v);
    assert_eq!(out.status.code(), Some(0), "{lines:#?}");
    let (x, y) = system_base_units();
    assert_eq!(lines[0], format!("base units {x} {y}"));
    // The word-wrapping edit control: its lines are what wrapping its text
    // at the formatting rectangle's width gives with the System font's
    // widths (a line ends after the last blank that fits; a word wider
    // than the line is cut), and EM_FMTLINES adds CR CR LF at each wrap.
    let width: i32 = lines[1]
        .strip_prefix("wrap width ")
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{lines:#?}"));
    let text = b"one two three fourteen abcdefghijklmnopq";
    let want = wrap(text, width);
    let got: Vec<String> = lines[2..2 + want.len()]
        .iter()
        .map(|l| l.strip_prefix("line ").unwrap_or(l).to_string())
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        lines[2 + want.len()..],
        [
            format!("fmtlines length {}", text.len() + 3 * (want.len() - 1)),
            "checks 135 fails 0".to_string()
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

/// dlgnav's printed lines for `script`, after its exit with code 0.
fn nav(script: Option<&str>) -> Vec<String> {
    let (out, v) = run(&rom("dlgnav.exe"), script);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(0), "{v}");
    checked(&v)
}

// Notification codes (windows.h): EN_SETFOCUS 0100, EN_KILLFOCUS 0200,
// EN_CHANGE 0300, EN_UPDATE 0400; LBN_SELCHANGE 0001, LBN_SETFOCUS 0004,
// LBN_KILLFOCUS 0005; BN_CLICKED 0000. The dialog procedure prints `id
// code` for each WM_COMMAND.

/// Typing, choosing a list item and clicking by id, as a user does with
/// the mouse.
#[test]
fn a_script_types_selects_and_clicks_controls() {
    let lines = nav(Some(
        "type 101 Alice\nselect 103 green\nclick-id 110\nclick-id 1\n",
    ));
    let mut want = vec![
        // WM_INITDIALOG answered TRUE: the first WS_TABSTOP control, the
        // edit control, gets the focus.
        "101 0100".to_string(),
    ];
    // Each character typed: EN_UPDATE before the change is shown, then
    // EN_CHANGE.
    for _ in "Alice".chars() {
        want.push("101 0400".into());
        want.push("101 0300".into());
    }
    want.extend(
        [
            // Choosing in the list: the focus moves (EN_KILLFOCUS,
            // LBN_SETFOCUS), the item (green, index 1 once sorted) is
            // selected: LBN_SELCHANGE with LBS_NOTIFY.
            "101 0200",
            "103 0004",
            "103 0001",
            // Pressing the mouse on the check box takes the focus from the
            // list; releasing it checks the box and notifies BN_CLICKED.
            "103 0005",
            "110 0000",
            // The OK button's click.
            "1 0000",
            "OK name=Alice sel=1 check=1",
        ]
        .map(String::from),
    );
    assert_eq!(lines, want);
}

/// The dialog keyboard interface (IsDialogMessage): Tab to the next
/// WS_TABSTOP control, the arrows in a list box, the space bar on a check
/// box, Enter for the default push button.
#[test]
fn tab_arrows_space_and_enter_work_through_is_dialog_message() {
    let lines = nav(Some(
        "type 101 Bob\nkey tab\nkey down\nkey tab\nkey space\nkey enter\n",
    ));
    let mut want = vec!["101 0100".to_string()];
    for _ in "Bob".chars() {
        want.push("101 0400".into());
        want.push("101 0300".into());
    }
    want.extend(
        [
            // Tab: the edit control does not want it (no DLGC_WANTTAB); the
            // list box is the next tab stop.
            "101 0200",
            "103 0004",
            // Down: the list box wants arrows (DLGC_WANTARROWS); with no
            // selection it selects the first item (blue).
            "103 0001",
            // Tab again: the check box.
            "103 0005",
            // Space pressed and released: a click.
            "110 0000",
            // Enter on a control that is no push button: the default push
            // button (DM_GETDEFID: IDOK) is pressed.
            "1 0000",
            "OK name=Bob sel=0 check=1",
        ]
        .map(String::from),
    );
    assert_eq!(lines, want);
}

/// Characters the focused control does not want are mnemonics; Escape is
/// IDCANCEL.
#[test]
fn mnemonics_and_escape() {
    let lines = nav(Some("key tab\nkey tab\nchar c\nkey r\nkey escape\n"));
    assert_eq!(
        lines,
        [
            "101 0100", "101 0200", "103 0004", "103 0005",
            // `c` on the focused check box (no DLGC_WANTCHARS): &Check is
            // clicked.
            "110 0000",
            // The R key: TranslateMessage's `r` is &Right's mnemonic; the
            // radio button gets the focus and is clicked.
            "121 0000", // Escape: WM_COMMAND IDCANCEL.
            "2 0000", "CANCEL",
        ]
    );
}

/// With no script the session's WM_CLOSE reaches the modeless dialog;
/// DefDlgProc turns it into IDCANCEL (posted), and the program ends.
/// DestroyWindow hides the dialog first, which takes the focus from its
/// edit control: the dialog gets EN_KILLFOCUS (0200) from it while it is
/// being destroyed, as on Windows (Wine's DestroyWindow and SetWindowPos
/// with SWP_HIDEWINDOW: the focus leaves a window being hidden).
#[test]
fn a_modeless_dialog_closes_with_the_session() {
    assert_eq!(nav(None), ["101 0100", "2 0000", "CANCEL", "101 0200"]);
}

/// A modal DialogBox from a modeless dialog: its loop takes the `dialog`
/// line that comes before the next input line; the owner is disabled
/// meanwhile and enabled again after.
#[test]
fn a_modal_dialog_takes_its_answer_in_script_order() {
    let (out, v) = run(
        &rom("dlgnav.exe"),
        Some("click-id 130\ndialog ok\nclick-id 2\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(
        checked(&v),
        [
            "101 0100", "101 0200", "130 0000", "ABOUT 1", "2 0000", "CANCEL"
        ]
    );
    let ev = strings(&v["events"]);
    let at = |s: &str| {
        ev.iter()
            .position(|e| e.contains(s))
            .unwrap_or_else(|| panic!("{s} missing: {ev:#?}"))
    };
    let order = [
        at("dialog \"#400\" opened"),
        at("gets command 1 (script line 2)"),
        at("ended with 1"),
        at("script line 3: click-id 2"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}

/// Owner-draw list boxes and buttons (WM_MEASUREITEM, WM_COMPAREITEM,
/// WM_DELETEITEM, WM_DRAWITEM), an exported control procedure called
/// directly, and a DS_SETFONT dialog's units from its font.
#[test]
fn owner_draw_controls_and_the_dialog_font() {
    use toolhelp16::win16::gdi::font::{FW_BOLD, FontCatalogue, FontSearch, LogFont};
    let (out, v) = run(&rom("dlgdraw.exe"), None);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let lines = checked(&v);
    assert_eq!(out.status.code(), Some(0), "{lines:#?}");
    // The template's font: Helv 8 at the VGA's 96 dpi, bold as Windows 3.1
    // made dialog fonts, realised by the font mapper; its units are its
    // 52 letters' average width, rounded, and its cell height.
    let cat = FontCatalogue::load(&FontSearch::standard(None));
    let lf = LogFont {
        height: -((8 * 96 + 36) / 72),
        weight: FW_BOLD as i16,
        face: b"Helv".to_vec(),
        ..LogFont::default()
    };
    let f = toolhelp16::win16::gdi::fontmap::map(&cat, &lf);
    let extent: i32 = (b'A'..=b'Z').chain(b'a'..=b'z').map(|c| f.advance(c)).sum();
    let (fx, fy) = ((extent / 26 + 1) / 2, f.height());
    let (sx, sy) = system_base_units();
    assert_eq!(
        lines,
        [
            format!("font units {fx} {fy}"),
            format!("system units {sx} {sy}"),
            "checks 21 fails 0".to_string(),
        ]
    );
    // MS Sans Serif (Helv's Windows 3.1 substitute) at 8 points on a VGA
    // has a 13-pixel cell.
    assert_eq!(fy, 13);
}

/// DlgDirList, DlgDirSelect and DlgDirListComboBox over a `--dir` drive.
#[test]
fn directory_lists_over_the_sandbox_drive() {
    let dir = std::env::temp_dir().join(format!("th16-dlgdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("SUB")).unwrap();
    for f in ["A.TXT", "B.TXT", "C.DOC", "SUB/D.TXT"] {
        std::fs::write(dir.join(f), b"x").unwrap();
    }
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(rom("dlgdir.exe"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(
        checked(&v),
        [
            // DlgDirList(*.TXT, DDL_DIRECTORY | DDL_DRIVES): the files that
            // match, every subdirectory as [name], every drive as [-c-],
            // names in lower case, in the list's LBS_SORT order (lstrcmpi);
            // C:\WINDOWS is there, as on any Windows machine.
            "ret 1",
            "count 5",
            "a.txt",
            "b.txt",
            "[-c-]",
            "[sub]",
            "[windows]",
            // The static control gets the current directory.
            "path c:\\",
            // DlgDirSelect: a file as it is (FALSE), a drive as `c:` and a
            // directory as `sub\` (TRUE).
            "select 0 a.txt",
            "select 1 c:",
            "select 1 sub\\",
            // A spec naming a directory: DlgDirList changes to it and lists
            // its files (no DDL_DIRECTORY: no [..]).
            "ret 1",
            "count 1",
            "d.txt",
            "path c:\\sub",
            // DlgDirListComboBox(..\*.DOC, DDL_EXCLUSIVE | DDL_DIRECTORY):
            // back to the root, only its directories; the spec is left with
            // its file part.
            "ret 1",
            "count 2",
            "[sub]",
            "[windows]",
            "*.DOC",
        ]
    );
}

/// Control lines reach a modal dialog's controls: the id is looked for in
/// the task's most recent dialog first.
#[test]
fn control_lines_reach_the_modal_dialog() {
    let lines = nav(Some("click-id 130\nclick-id 1\nclick-id 2\n"));
    assert_eq!(
        lines,
        [
            // The About button takes the focus from the edit control.
            "101 0100", "101 0200", "130 0000",
            // Its OK button (id 1, as the main dialog's) is clicked in the
            // About box's loop.
            "ABOUT 1", // Back in the main dialog: Cancel.
            "2 0000", "CANCEL",
        ]
    );
}
