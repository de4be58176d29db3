//! KERNEL's runtime through real thunks: roms/kernrt.exe (files and
//! OpenFile's OFSTRUCT, a private profile written back to the drive, a
//! huge block across 64 KiB, the real-mode selectors, LoadLibrary and
//! FreeLibrary of roms/libdemo.dll with its LibEntry and WEP,
//! directories, pointer checks) and roms/libuser.exe (a DLL imported by
//! the program: its LibEntry runs before the program's first
//! instruction). Each program's header lists the lines it prints; the
//! expected values are the Windows 3.1 SDK's.

mod common;
use common::{bin, json, rom};

#[test]
fn kernel_runtime_answers_as_windows_does() {
    let dir = std::env::temp_dir().join(format!("th16-kernrt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["kernrt.exe", "libdemo.dll"] {
        std::fs::copy(rom(f), dir.join(f.to_ascii_uppercase())).unwrap();
    }
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join("KERNRT.EXE"))
        .output()
        .unwrap();
    let ini = std::fs::read_to_string(dir.join("WINDOWS").join("KERNRT.INI"));
    let test_dat = dir.join("TEST.DAT").exists();
    let temp = dir.join("WINDOWS/TEMP/~TST002A.TMP").exists() || dir.join("~TST002A.TMP").exists();
    std::fs::remove_dir_all(&dir).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let want = [
        // _lwrite 5, _llseek to 0, _lread 5 "hello", _llseek to the end
        // 5, _lclose 0, _lopen of a missing file HFILE_ERROR.
        "file 5 0 5 hello 5 0 -1",
        // OF_EXIST 1 and the OFSTRUCT (136 bytes, the full path), OF_PARSE
        // 0, OF_DELETE 1, then opening it fails with nErrCode 2.
        "openfile 1 136 C:\\TEST.DAT 0 1 -1 2",
        "profile 1 Val 3 7",
        // __AHINCR 8; the next selector 64 KiB on; GlobalSize 20000h.
        "huge 8 0001 1234 0002",
        // 640 KiB in the BIOS data area; __B800H's base B8000h.
        "real 640 000B",
        // LoadLibrary's handle is LibEntry's DI; one LibEntry call; heap
        // 200h in CX; usage 1.
        "library 1 1 1 0200 1",
        // FreeLibrary calls WEP(WEP_FREE_DLL).
        "WEP 0",
        // The module is gone; a missing DLL gives error 2.
        "freed 1 2",
        // GetTempFileName names a file in TEMP's directory, C:\WINDOWS\TEMP
        // on a fresh Windows 3.1.
        "dirs 10 C:\\WINDOWS C:\\WINDOWS\\TEMP\\~TST002A.TMP",
        "checks 1 0 1 0 1",
    ];
    let text = v["output"].as_str().unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[..lines.len() - 1], want[..], "{text}");
    assert_eq!(ini.unwrap(), "[Sec]\r\nKey=Val\r\n");
    assert!(!test_dat, "OF_DELETE deleted TEST.DAT");
    assert!(!temp, "a number given: GetTempFileName makes no file");
}

#[test]
fn an_imported_dll_is_initialized_before_the_program_runs() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("libuser.exe"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        "libentry calls 1 di=hinst 1 ds=data 1 heap 0200\r\n"
    );
}

/// A program named without a directory (`run LIBUSER.EXE` in its own
/// directory) finds the DLL beside it, as `run ./LIBUSER.EXE` does: the
/// loader looks in the directory the program is in (Windows 3.1 searched
/// the program's directory before the others), and a bare name's
/// directory is the current one. `info` says the same. The drive (`--dir`)
/// is an empty directory, so only the program's directory can hold it.
#[test]
fn a_dll_beside_a_program_named_without_a_directory_is_found() {
    let empty = std::env::temp_dir().join(format!("th16-bare-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = bin()
        .current_dir(rom(""))
        .args(["run", "--json", "--dir"])
        .arg(&empty)
        .arg("libuser.exe")
        .output()
        .unwrap();
    let info = bin()
        .current_dir(rom(""))
        .args(["info", "--json", "libuser.exe"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        "libentry calls 1 di=hinst 1 ds=data 1 heap 0200\r\n"
    );
    let i = json(&info);
    let lib = i["imports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["module"] == "LIBDEMO")
        .unwrap_or_else(|| panic!("{i}"));
    assert_eq!(lib["source"], "dll", "{i}");
}
