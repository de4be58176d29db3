//! Exported functions' prologues as Windows 3.1's loader patched them
//! (src/win16/prologue.rs): a program and a DLL built with Open Watcom,
//! whose exported functions begin `push ds / pop ax / nop`
//! (tests/watcom/prologue.c and prologdll.c; the program's header lists
//! what it prints and why).

mod common;
use common::{bin, json, watcom};

#[test]
fn exported_prologues_load_the_right_data_segment() {
    let Some(exe) = watcom::win16("prologue") else {
        return;
    };
    let Some(dll) = watcom::build(
        "prologdl",
        watcom::Kind::Win16Dll,
        &["prologdll.c"],
        None,
        &[],
    ) else {
        return;
    };
    let dir = common::scratch("prologue");
    std::fs::copy(&exe, dir.join("PROLOGUE.EXE")).unwrap();
    std::fs::copy(&dll, dir.join("PROLOGDL.DLL")).unwrap();
    let out = bin()
        .args(["run", "--json"])
        .arg(dir.join("PROLOGUE.EXE"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let text = v["output"].as_str().unwrap();
    let lines = common::output_lines(&v);
    assert_eq!(
        lines,
        ["bump 6 8", "callback 103", "prologue 909090"],
        "{text}"
    );
    assert_eq!(v["exit"]["code"], 0, "{v}");
}
