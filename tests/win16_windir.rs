//! The Windows directory a Win16 program finds on drive C:
//! (dosfs/windir.rs), through a program built with Open Watcom
//! (tests/watcom/windir.c): WIN.INI and SYSTEM.INI as a fresh Windows 3.1
//! set-up writes them, read by the profile functions, a directory search,
//! OpenFile and `_lopen`; a write to WIN.INI that leaves the host's
//! directory alone; and `--windows DIR` putting the user's WIN.INI there.
//!
//! Expected values: the Windows 3.1 SDK (GetProfileString,
//! GetProfileInt, GetPrivateProfileString with a NULL key, OpenFile's
//! search order: the current directory, then the Windows directory;
//! GetTempFileName in TEMP's directory) and the settings WININI.TXT and
//! SYSINI.TXT document (KB Q58327, Q83055): [intl] of the United States,
//! display.drv=vga.drv for a VGA, the MCI drivers of [mci].

mod common;
use common::{bin, json, watcom};
use std::path::{Path, PathBuf};

/// A fresh directory holding windir.exe (None without the toolchain).
fn program_dir(name: &str) -> Option<(PathBuf, PathBuf)> {
    // Built once for the tests of this file (they run in parallel, and a
    // build empties its directory first).
    static EXE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let exe = EXE.get_or_init(|| watcom::win16("windir")).as_ref()?;
    let dir = common::scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let at = dir.join("WINDIR.EXE");
    std::fs::copy(exe, &at).unwrap();
    Some((dir, at))
}

fn run(extra: &[&str], exe: &Path) -> Vec<String> {
    let out = bin()
        .args(["run", "--json"])
        .args(extra)
        .arg(exe)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    common::output_lines(&v)
}

/// The files under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut v = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            v.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() {
                todo.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn a_fresh_windows_directory_and_the_host_left_alone() {
    let Some((dir, exe)) = program_dir("windir-default") else {
        return;
    };
    let before = tree(&dir);
    let lines = run(&[], &exe);
    assert_eq!(
        lines,
        [
            "device HP LaserJet III,HPPCL5A,LPT1:",
            "country 1",
            "intl 22 sLanguage,sCountry,iCountry,iDate,iTime,iTLZero,iCurrency,\
             iCurrDigits,iNegCurr,iLzero,iDigits,iMeasure,s1159,s2359,sCurrency,\
             sThousand,sDecimal,sDate,sTime,sList,sShortDate,sLongDate",
            "display vga.drv",
            "cdaudio mcicda.drv",
            "find CONTROL.INI PROGMAN.INI SYSTEM.INI WIN.INI",
            "openfile 1 C:\\WINDOWS\\WIN.INI",
            "lopen [boot]",
            "beep 1 no",
            "temp C:\\WINDOWS\\TEMP\\~TST",
        ]
    );
    // The default run writes to a discarded overlay: the program's
    // directory has no WINDOWS directory afterwards.
    assert_eq!(tree(&dir), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_users_windows_directory_comes_first() {
    let Some((dir, exe)) = program_dir("windir-user") else {
        return;
    };
    let user = common::scratch("windir-user-windows");
    let _ = std::fs::remove_dir_all(&user);
    std::fs::create_dir_all(&user).unwrap();
    let ini = "[windows]\r\ndevice=Generic / Text Only,TTY,LPT1:\r\n";
    std::fs::write(user.join("win.ini"), ini).unwrap();
    let lines = run(&["--windows", user.to_str().unwrap()], &exe);
    // The user's WIN.INI replaces the whole file: no [intl], so
    // GetProfileInt gives its default and the key list is empty.
    assert_eq!(lines[0], "device Generic / Text Only,TTY,LPT1:");
    assert_eq!(lines[1], "country 99");
    assert_eq!(lines[2], "intl 0 ");
    // SYSTEM.INI is still the built-in one.
    assert_eq!(lines[3], "display vga.drv");
    assert_eq!(lines[8], "beep 1 no");
    // The user's directory is only read.
    assert_eq!(std::fs::read_to_string(user.join("win.ini")).unwrap(), ini);
    assert_eq!(tree(&user), ["win.ini"]);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&user).unwrap();
}

#[test]
fn with_dir_a_write_lands_in_the_directory_given() {
    let Some((dir, exe)) = program_dir("windir-direct") else {
        return;
    };
    let lines = run(&["--dir", dir.to_str().unwrap()], &exe);
    assert_eq!(lines[8], "beep 1 no");
    let ini = std::fs::read_to_string(dir.join("WINDOWS").join("WIN.INI")).unwrap();
    assert!(ini.starts_with("[windows]\r\nspooler=yes\r\n"), "{ini}");
    assert!(ini.contains("\r\nBeep=no\r\n"), "{ini}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn windows_is_for_win16_programs_only() {
    let out = bin()
        .args(["run", "--windows", "/tmp"])
        .arg(common::rom("a20exec.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--windows"));
}

#[test]
fn a_dll_in_the_system_directory_is_found() {
    // roms/libuser.exe imports LIBDEMO; only --windows DIR has it, in
    // SYSTEM (LoadLibrary searches the Windows and system directories:
    // SDK, LoadLibrary).
    let dir = common::scratch("windir-dll-prog");
    let user = common::scratch("windir-dll-windows");
    std::fs::copy(common::rom("libuser.exe"), dir.join("LIBUSER.EXE")).unwrap();
    std::fs::create_dir_all(user.join("SYSTEM")).unwrap();
    std::fs::copy(
        common::rom("libdemo.dll"),
        user.join("SYSTEM").join("LIBDEMO.DLL"),
    )
    .unwrap();
    let lines = run(
        &["--windows", user.to_str().unwrap()],
        &dir.join("LIBUSER.EXE"),
    );
    assert_eq!(lines, ["libentry calls 1 di=hinst 1 ds=data 1 heap 0200"]);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&user).unwrap();
}
