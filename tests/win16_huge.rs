//! Huge memory (blocks past 64 KiB) as Watcom-built programs and DLLs use
//! it: tests/watcom/huge.c and hugedll.c, built in the large model. The
//! program's header gives each line's meaning and the Windows 3.1
//! behaviour it checks (KB Q79194 for the tiled selectors; the Windows 3.1
//! SDK for GlobalReAlloc, hmemcpy and the selector functions).
//!
//! Open Watcom ships no huge-model (`-mh`) Windows libraries, so the huge
//! model is not built; its code uses the same `__AHINCR` arithmetic.

mod common;
use common::watcom::{self, Kind};
use common::{bin, json};

/// The sum of the 200000 bytes huge.c writes (byte i = i*7 + i/65536),
/// computed here independently of the program.
fn walk_sum() -> u64 {
    (0u64..200_000).map(|i| (i * 7 + (i >> 16)) & 0xFF).sum()
}

#[test]
fn huge_blocks_in_a_program_and_a_dll_behave_as_on_windows() {
    let Some(exe) = watcom::build("huge", Kind::Win16Exe, &["huge.c"], None, &[]) else {
        return;
    };
    let Some(dll) = watcom::build("hugedll", Kind::Win16Dll, &["hugedll.c"], None, &[]) else {
        return;
    };
    let dir = common::scratch("huge");
    std::fs::copy(&exe, dir.join("HUGE.EXE")).unwrap();
    std::fs::copy(&dll, dir.join("HUGEDLL.DLL")).unwrap();
    let out = bin()
        .args(["run", "--json"])
        .arg(dir.join("HUGE.EXE"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let text = v["output"].as_str().unwrap();
    let lines = common::output_lines(&v);
    let walk = format!("walk F9 01 FA BC {}", walk_sum());
    assert_eq!(
        lines,
        [
            "alloc 1 0000 200000",
            "tiles 8 16 24",
            walk.as_str(),
            "limits 1 D3F",
            "handle 1 1",
            "recs 5461 -5461 85 10922",
            "hmemcpy 1 1",
            "selector 1 1",
            "grow 1 300000 1 1 1",
            "shrink 1 100000 1 1",
            "small 1 50016 1",
            "halloc 1 5 8",
            "dll 8 0",
        ],
        "{text}"
    );
    assert_eq!(v["exit"]["code"], 0, "{v}");
}

#[test]
fn a_resource_past_64k_loads_into_a_huge_block() {
    let Some(exe) = watcom::win16("bigres") else {
        return;
    };
    let out = bin().args(["run", "--json"]).arg(&exe).output().unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["output"], "bigres 70000 70016 1 0 7 9\r\n", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
}
