//! KERNEL and USER services through a real Win16 program: roms/kernsvc.exe
//! calls them through the thunks its imports resolve to (Pascal and cdecl
//! argument passing, Catch/Throw across far frames, instance thunks,
//! GetProcAddress) and prints what they gave back; its header lists the
//! expected lines.

mod common;
use common::{bin, json, rom};

#[test]
fn services_answer_as_windows_does() {
    // A drive of its own: WriteProfileString writes WIN.INI back there.
    let dir = std::env::temp_dir().join(format!("th16-kernsvc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(rom("kernsvc.exe"), dir.join("KERNSVC.EXE")).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join("KERNSVC.EXE"))
        .output()
        .unwrap();
    let win_ini = std::fs::read_to_string(dir.join("WINDOWS").join("WIN.INI"));
    std::fs::remove_dir_all(&dir).unwrap();
    // The fresh Windows 3.1 WIN.INI of C:\WINDOWS (dosfs/windir.rs), the
    // new section written after its last.
    let fresh = toolhelp16::dos::fs::windir::WIN_INI.replace('\n', "\r\n");
    assert_eq!(
        win_ini.unwrap(),
        format!("{fresh}\r\n[App]\r\nKey=Value\r\n")
    );
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let want = [
        "wsprintf -5 [ok] 00ab 7  |",
        "lstr 2 -1 0",
        "atom C000 C000 C000 Hello 0",
        // LocalSize of a 10-byte moveable block: KERNEL gives it an arena
        // of 16 bytes (4 of arena header and the handle's 2 before the
        // data, rounded to 4), and LocalSize is what follows the data's
        // start to the next arena: 10 (local/mod.rs, "Layout").
        "local 2 10 1 0",
        "profile Value 5 42",
        "catch 7 5151 D1D1",
        "thunk 1",
        // The program's path on drive C: (--dir roms/).
        "module C:\\KERNSVC.EXE",
        "modules 1 5",
        "ticks 1 1",
        "env COMSPEC=C:\\COMMAND.COM",
        "upper MIXED CASE 0C25",
    ];
    let text = v["output"].as_str().unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[..lines.len() - 1], want[..], "{text}");
    assert_eq!(lines.last(), Some(&""));
}

#[test]
fn fatal_app_exit_stops_with_its_message_and_a_walk() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("kernsvc.exe"))
        .args(["--", "fatal"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "fatal");
    let text = v["exit"]["text"].as_str().unwrap();
    assert!(text.contains("FatalAppExit: boom"), "{text}");
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0]["module"], "KERNSVC");
    assert_eq!(frames[0]["wSegment"], 1);
}
