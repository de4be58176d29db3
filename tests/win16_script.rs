//! `--messages FILE`: scripted input for headless Win16 programs (keys,
//! characters, clicks, menu commands, timer ticks, WM_CLOSE, box answers;
//! src/win16/script.rs), timers on the emulated clock, and the default
//! session's WM_CLOSE after both (src/win16/user/message.rs, module doc).
//! roms/winscript.asm prints every input message its window procedure
//! gets as `NAME wParam lParam`.

use std::path::{Path, PathBuf};
use std::process::Output;

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

/// A script file in a fresh temporary directory (removed when the
/// returned guard goes).
fn script(text: &str) -> (TempDir, PathBuf) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "th16-script-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("input.txt");
    std::fs::write(&p, text).unwrap();
    (TempDir(dir), p)
}

/// `run --json --events [--messages FILE] PROGRAM`.
fn run(program: &Path, messages: Option<&Path>) -> (Output, Value) {
    let mut c = bin();
    c.args(["run", "--json", "--events"]);
    if let Some(m) = messages {
        c.arg("--messages").arg(m);
    }
    let out = c.arg(program).output().unwrap();
    let v = json(&out);
    (out, v)
}

/// The emulated times (ms) at which timers fired, from the events.
fn timer_times(ev: &[String]) -> Vec<u64> {
    ev.iter()
        .filter_map(|e| e.split_once(" fires at "))
        .map(|(_, t)| t.trim_end_matches(" ms").parse().unwrap())
        .collect()
}

#[test]
fn a_script_drives_keys_chars_clicks_timers_commands_and_message_boxes() {
    let (_d, s) = script(
        "# winscript's input\n\
         key A\n\
         char !\n\
         click 10 20\n\
         click 5 6 right\n\
         timer 2\n\
         command 100\n\
         msgbox no\n\
         \n\
         command 7\n\
         command 100\n\
         msgbox yes\n\
         key B\n",
    );
    let (out, v) = run(&rom("winscript.exe"), Some(&s));
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        strings(&v["debug_output"]),
        [
            // WM_KEYDOWN 'A' (scan code 1Eh, repeat 1), TranslateMessage's
            // WM_CHAR 'a' before the queued WM_KEYUP (bits 30 and 31 set).
            "KEYDOWN 0041 001E0001",
            "CHAR 0061 001E0001",
            "KEYUP 0041 C01E0001",
            // '!' is no unshifted key: scan code 0.
            "CHAR 0021 00000001",
            // MAKELONG(10, 20) with MK_LBUTTON; the right button's MK_RBUTTON.
            "LBUTTONDOWN 0001 0014000A",
            "RBUTTONDOWN 0002 00060005",
            // timer 1 of SetTimer(hwnd, 1, 100, NULL): no TimerProc.
            "TIMER 0001 00000000",
            "TIMER 0001 00000000",
            // The menu command asks "Quit?"; the script says no, then yes.
            "COMMAND 0064 00000000",
            "MSGBOX 7",
            "COMMAND 0007 00000000",
            "COMMAND 0064 00000000",
            "MSGBOX 6",
            // DestroyWindow: `key B` finds no main window and is never
            // delivered, and no timer fires after it is gone.
        ]
    );
    let ev = strings(&v["events"]);
    let has = |s: &str| ev.iter().any(|e| e.contains(s));
    assert!(
        has("message box \"WinScript\": \"Quit?\" answered 7 (script line 8)"),
        "{ev:#?}"
    );
    assert!(has("answered 6 (script line 12)"), "{ev:#?}");
    assert!(has("script line 2: key VK 41"), "{ev:#?}");
    assert!(!has("script line 13"), "{ev:#?}");
    // The default session never had to close it.
    assert!(!ev.iter().any(|e| e.contains("WM_CLOSE")), "{ev:#?}");
    // Two ticks, 100 ms apart on the emulated clock (plus the moment
    // the program takes to set the timer again).
    let t = timer_times(&ev);
    assert_eq!(t.len(), 2, "{ev:#?}");
    assert!((100..105).contains(&(t[1] - t[0])), "{t:?}");
}

#[test]
fn a_program_with_a_timer_and_no_script_still_exits() {
    let (out, v) = run(&rom("winscript.exe"), None);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(3));
    // Three idle ticks (user/timer.rs IDLE_TICKS), though the program kills and
    // sets its timer again at each, then the default WM_CLOSE.
    assert_eq!(strings(&v["debug_output"]), ["TIMER 0001 00000000"; 3]);
    let ev = strings(&v["events"]);
    let t = timer_times(&ev);
    assert_eq!(t.len(), 3, "{ev:#?}");
    // Due 100 ms after SetTimer, then every 100 ms: the idle machine waits
    // for them on the emulated clock.
    assert!(t[0] >= 60_100, "{t:?}");
    for gap in [t[1] - t[0], t[2] - t[1]] {
        assert!((100..105).contains(&gap), "{t:?}");
    }
    assert!(
        ev.iter()
            .any(|e| e.contains("call USER.KillTimer(32C4, 0001)"))
    );
    let last_tick = ev.iter().rposition(|e| e.contains(" fires at ")).unwrap();
    let close = ev
        .iter()
        .position(|e| e.contains("WM_CLOSE"))
        .expect("the default WM_CLOSE");
    assert!(close > last_tick, "{ev:#?}");
}

#[test]
fn scripted_ticks_come_first_and_the_idle_ticks_after_the_script() {
    let (_d, s) = script("timer 4\nkey space\n");
    let (out, v) = run(&rom("winscript.exe"), Some(&s));
    assert_eq!(out.status.code(), Some(3), "{v}");
    let mut want = vec!["TIMER 0001 00000000"; 4];
    want.extend([
        "KEYDOWN 0020 00390001",
        "CHAR 0020 00390001",
        "KEYUP 0020 C0390001",
    ]);
    want.extend(["TIMER 0001 00000000"; 3]);
    assert_eq!(strings(&v["debug_output"]), want);
}

#[test]
fn close_and_module_prefixes() {
    // Lines for a module that is not running are not delivered; `close`
    // sends WM_CLOSE at once, and the rest of the script is never used.
    let (_d, s) = script("@OTHER key A\n@winscrip key F1\nclose\nkey B\n");
    let (out, v) = run(&rom("winscript.exe"), Some(&s));
    assert_eq!(out.status.code(), Some(3), "{v}");
    assert_eq!(
        strings(&v["debug_output"]),
        ["KEYDOWN 0070 003B0001", "KEYUP 0070 C03B0001"]
    );
    let ev = strings(&v["events"]);
    assert!(ev.iter().any(|e| e.contains("script line 3: close")));
}

fn load_error(cmd: &[&str], s: &Path, program: &Path) -> String {
    let out = bin()
        .args(cmd)
        .arg("--messages")
        .arg(s)
        .arg(program)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_malformed_script_is_refused_with_its_file_and_line() {
    let (_d, s) = script("key A\n# fine so far\nclick 10\n");
    let want = format!("{}:3: usage: click X Y [left|right]", s.display());
    let err = load_error(&["run"], &s, &rom("winscript.exe"));
    assert!(err.contains(&want), "{err}");
    let err = load_error(
        &["stack", "--at", "WINSCRIP!WNDPROC"],
        &s,
        &rom("winscript.exe"),
    );
    assert!(err.contains(&want), "{err}");
    let missing = s.with_file_name("absent.txt");
    let err = load_error(&["run"], &missing, &rom("winscript.exe"));
    assert!(err.contains("absent.txt"), "{err}");
    // DOS programs have no window messages.
    let (_d2, ok) = script("close\n");
    let err = load_error(&["run"], &ok, &rom("dosenv.com"));
    assert!(err.contains("only Win16 programs"), "{err}");
}

#[test]
fn stack_takes_a_script_too() {
    // WINSCRIP:1:0155 (`WndProc.answered` in winscript.asm) follows the message
    // box in WM_COMMAND 100: only the scripted `command 100` gets there.
    let stack = |script: Option<&Path>| {
        let mut c = bin();
        c.args(["stack", "--json", "--at", "WINSCRIP:1:0155"]);
        if let Some(s) = script {
            c.arg("--messages").arg(s);
        }
        c.arg(rom("winscript.exe")).output().unwrap()
    };
    let (_d, s) = script("command 100\nmsgbox no\n");
    let out = stack(Some(&s));
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    let frames: Vec<(String, u64, u64)> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["module"].as_str().unwrap().to_string(),
                f["wSegment"].as_u64().unwrap(),
                f["wIP"].as_u64().unwrap(),
            )
        })
        .collect();
    // WndProc, DispatchMessage's frame in USER, WinMain's message loop
    // after DispatchMessage (1:009C).
    assert_eq!(frames.len(), 3, "{v}");
    assert_eq!(
        (frames[0].0.as_str(), frames[0].1, frames[0].2),
        ("WINSCRIP", 1, 0x155)
    );
    assert_eq!(frames[1].0, "USER");
    assert_eq!(
        (frames[2].0.as_str(), frames[2].1, frames[2].2),
        ("WINSCRIP", 1, 0x9C)
    );
    // Without the script the program ends before getting there.
    assert_ne!(stack(None).status.code(), Some(0));
}

#[test]
fn flaggen_opens_its_about_box_from_the_menu() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let exe = corpus.join("ne/flaggen.exe");
    // Help > About is menu item 100 of GENERICMENU; the dialog's OK
    // button is 1, and its procedure ends the dialog with TRUE.
    let (_d, s) = script("command 100\ndialog ok\n");
    let (out, v) = run(&exe, Some(&s));
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(0));
    let ev = strings(&v["events"]);
    let at = |s: &str| {
        ev.iter()
            .position(|e| e.contains(s))
            .unwrap_or_else(|| panic!("{s} missing: {ev:#?}"))
    };
    let order = [
        at("WM_INITMENU"),
        at("WM_COMMAND(0064, 0000:0000)"),
        at("dialog \"AboutBox\" opened"),
        at("gets command 1 (script line 2)"),
        at("call USER.EndDialog"),
        at("ended with 1"),
        at("WM_CLOSE"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?} {ev:#?}");
    assert!(!ev.iter().any(|e| e.contains("gets IDCANCEL")), "{ev:#?}");
}
