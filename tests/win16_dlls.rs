//! COMMDLG, SHELL, DDEML, KEYBOARD, SOUND, WINSOCK and MMSYSTEM through
//! roms/shellsvc.exe: a file dialog answered by the `--messages` script's
//! `file` line (and one cancelled by default), the registration database,
//! no DDE server, the US keyboard, a voice queue, no network, one
//! wave output device. The program's header lists the lines; the values
//! are the Windows 3.1 SDK's.

mod common;
use common::{bin, json, rom, strings};

#[test]
fn system_dlls_answer_as_windows_does_without_devices() {
    let script = std::env::temp_dir().join(format!("th16-shellsvc-{}.msg", std::process::id()));
    std::fs::write(&script, "# the file dialog's answer\nfile notes\n").unwrap();
    let out = bin()
        .args(["run", "--json", "--events", "--messages"])
        .arg(&script)
        .arg(rom("shellsvc.exe"))
        .output()
        .unwrap();
    std::fs::remove_file(&script).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let want = [
        // TRUE; the full path in lower case with the default extension;
        // nFileOffset 3, nFileExtension 9; the title.
        "open 1 c:\\notes.txt 3 9 notes.txt",
        // No answer left: FALSE, CommDlgExtendedError 0; a bad
        // lStructSize: FALSE, CDERR_STRUCTSIZE.
        "cancel 0 0 size 0 1",
        "title 0 FILE.TXT",
        // RegCreateKey, RegSetValue, RegQueryValue ERROR_SUCCESS with
        // the value and its size with the NUL; RegEnumKey 0 names the
        // newest key, the last SETUP.REG made (`PBrush`, shell.rs), and 1
        // is there too; RegOpenKey of a missing key ERROR_BADKEY.
        "reg 0 0 0 txtfile 8 0 PBrush 0 2",
        // SE_ERR_NOASSOC.
        "exec 31",
        // DdeInitialize DMLERR_NO_ERROR, a string handle, no
        // conversation: DMLERR_NO_CONV_ESTABLISHED; DdeUninitialize TRUE.
        "dde 0 1 0 400A 1",
        // VkKeyScan: VK 41h; '?' is Shift with VK_OEM_2 (BFh); code page
        // 437; ANSI é (E9h) is OEM 82h.
        "keys 0041 01BF 437 82",
        // One voice; a note queued, then played.
        "sound 1 0 1 0 0",
        // WSASYSNOTREADY; htons; inet_addr in network order.
        "sock 10091 3412 0100000A",
        // One wave output device (the wave file device, wave.rs);
        // sndPlaySound FALSE: no DING.WAV and no [sounds] SystemDefault;
        // MMSYSTEM 1.01.
        "mm 1 0 0101",
    ];
    let text = v["output"].as_str().unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[..lines.len() - 1], want[..], "{text}");
    let events = v["events"].to_string();
    assert!(
        events.contains("script line 2: GetOpenFileName answered notes"),
        "{events}"
    );
}

/// roms/poppad.exe, a POPPAD-like editor run with no script: its own
/// checks (the common dialogs, FindText and ReplaceText as modeless
/// dialogs sending FINDMSGSTRING, PrintDlg cancelled, the
/// communications and network functions with no device, keybd_event and
/// mouse_event, AccessResource, ExtractIcon, SwitchStackTo) all pass, and
/// it runs to a clean exit when the session closes its window.
#[test]
fn a_poppad_like_program_runs_to_a_clean_exit_without_a_script() {
    let out = bin()
        .args(["run", "--json", "--events"])
        .arg(rom("poppad.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    // OutputDebugString: `checks N fails 0` and nothing else (a FAIL line
    // names the check).
    let lines = strings(&v["debug_output"]);
    assert_eq!(lines, ["checks 75 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
    let events = v["events"].to_string();
    for want in [
        "FindText: dialog",
        "ReplaceText: error 4001",
        "OpenComm \\\"COM1\\\": -10",
        "SwitchStackTo",
        "SwitchStackBack to",
    ] {
        assert!(events.contains(want), "{want}: {events}");
    }
}

/// roms/colors.exe, a COLORS-like program run with no script: scroll bar
/// controls subclassed through SetWindowLong(GWL_WNDPROC), WM_VSCROLL
/// from the keyboard, SetDlgItemInt on a plain parent, SetClassWord of the
/// class brush, WM_CTLCOLOR, and a DDE initiate nobody answers; its checks
/// pass and it runs to a clean exit.
#[test]
fn a_colors_like_program_runs_to_a_clean_exit_without_a_script() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("colors.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(strings(&v["debug_output"]), ["checks 18 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
}

/// roms/textbook.exe, a probe of what the textbook's samples call, run
/// with no script: its main window is a dialog of a class it registered
/// (HEXCALC), also a clipboard viewer (CLIPVIEW) given a screen capture as
/// CF_BITMAP (BLOWUP); the default printer of WIN.INI and a modeless printing box
/// with SC_CLOSE greyed (PRINT), EnumFonts through MakeProcInstance
/// (FONTLIST), SetTextJustification (JUSTIFY), atoms with GetAtomHandle's
/// ATOMENTRY block (DDEPOP), a resource of a named type and a string
/// table (POEPOEM), the environment in a list box (ENVIRON),
/// GetKeyNameText and the caret. Its checks pass and the session's
/// WM_CLOSE to the dialog ends it cleanly.
#[test]
fn a_textbook_samples_probe_runs_to_a_clean_exit_without_a_script() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("textbook.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(strings(&v["debug_output"]), ["checks 79 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
}

/// roms/mdiprobe.exe, an MDIDEMO-like frame run with no script: an
/// MDICLIENT from a CLIENTCREATESTRUCT, a child through WM_MDICREATE with
/// window extra bytes, WM_MDIGETACTIVE, WM_MDISETMENU, WM_MDIDESTROY,
/// GRAFMENU's bitmap menu items and check-mark bitmaps, and RANDRECT's
/// PeekMessage loop with TranslateMDISysAccel; the session's WM_CLOSE
/// reaches DefFrameProc and the loop sees WM_QUIT.
#[test]
fn an_mdi_frame_with_a_peekmessage_loop_runs_to_a_clean_exit_without_a_script() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("mdiprobe.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(strings(&v["debug_output"]), ["checks 23 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
}

/// roms/startup.exe asks before its main window: a modal dialog box from
/// WinMain (answered as Escape does), one whose procedure ignores IDCANCEL
/// and ends on WM_CLOSE (the session's next answer), a modeless splash
/// still up when
/// the main window is shown, then destroyed. The session's WM_CLOSE must
/// reach the real main window (the task's remaining top-level window),
/// exactly once, so the run ends cleanly instead of waiting for input.
#[test]
fn the_session_closes_the_main_window_shown_after_startup_dialogs() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("startup.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(strings(&v["debug_output"]), ["checks 7 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
}

/// roms/ctlprobe.exe, controls as the samples use them, run with no
/// script: a multiline edit control's text through EM_GETHANDLE and
/// LocalLock (POPFIND), a registered class inside a dialog template and
/// CreateDialogParam's lParam (ABOUT3), WM_DRAWITEM from an owner-drawn
/// button (OWNERDRW), LB_DIR and DlgDirList on a plain window (HEAD).
#[test]
fn a_controls_probe_runs_to_a_clean_exit_without_a_script() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("ctlprobe.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(strings(&v["debug_output"]), ["checks 24 fails 0"], "{v}");
    assert_eq!(out.status.code(), Some(0));
}

/// The Find dialog poppad.exe leaves open, driven by a `--messages`
/// script: `type` puts the text in its edit control (edt1, 0x480) and
/// `click-id 1` presses Find Next; the owner gets FINDMSGSTRING with the
/// text and selects "quick" (characters 4 to 9 of "The quick brown fox").
#[test]
fn a_script_drives_the_modeless_find_dialog() {
    let script = std::env::temp_dir().join(format!("th16-poppad-{}.msg", std::process::id()));
    std::fs::write(&script, "type 0x480 quick\nclick-id 1\n").unwrap();
    let out = bin()
        .args(["run", "--json", "--messages"])
        .arg(&script)
        .arg(rom("poppad.exe"))
        .output()
        .unwrap();
    std::fs::remove_file(&script).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(
        strings(&v["debug_output"]),
        ["checks 75 fails 0", "found 4 9"],
        "{v}"
    );
}

/// A walk on the stack SwitchStackTo moved to (poppad.exe's
/// `on_new_stack`, just after the call): the frame is on the new segment
/// with BP = wStackPointer (3FEh), and the chain ends there, as the
/// caller's saved BP was replaced by 0 at the new stack's bottom
/// (kernel/stack.rs).
#[test]
fn the_walk_follows_switch_stack_to() {
    let out = bin()
        .args(["stack", "--json", "--at", "POPPAD!on_new_stack"])
        .arg(rom("poppad.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 1, "{v}");
    assert_eq!(frames[0]["symbol"], "on_new_stack");
    assert_eq!(frames[0]["wBP"], 0x3FE);
    // Not the program's DGROUP: the segment GlobalAlloc gave.
    let new_ss = frames[0]["wSS"].as_u64().unwrap();
    let ds = bin()
        .args(["stack", "--json", "--at", "POPPAD!stack_switch"])
        .arg(rom("poppad.exe"))
        .output()
        .unwrap();
    let before = json(&ds);
    assert_ne!(
        before["frames"][0]["wSS"].as_u64().unwrap(),
        new_ss,
        "{before}"
    );
}
