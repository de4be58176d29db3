//! Where control goes as on a PC (issue 30, items 3 and 4): a jump or
//! call to 0000:0000 runs the interrupt vector table's bytes as code, as
//! an 8086 would (nothing in the machine stops at a linear address a
//! program can reach), and IP wraps at 64 KiB, for the instruction after
//! one ending at FFFFh and for the bytes of one that straddles FFFFh
//! (Intel 8086 Family User's Manual: "the instruction pointer ... wraps
//! around" within the 64 KiB code segment; an offset is 16 bits).
//!
//! The programs are .COM files assembled here with nasm (skipped without
//! it) or written as bytes.

use std::path::{Path, PathBuf};

mod common;
use common::{bin, json};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-ctl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `run --json` of `prog` in its directory with an instruction budget.
fn run(prog: &Path, max_insns: u64) -> (Option<i32>, serde_json::Value) {
    let out = bin()
        .args(["run", "--json", "--timeout", "60", "--max-insns"])
        .arg(max_insns.to_string())
        .arg("--dir")
        .arg(prog.parent().unwrap())
        .arg(prog)
        .output()
        .unwrap();
    (out.status.code(), json(&out))
}

/// The run went into segment 0000 and stopped there for what the bytes
/// of the vector table did (a fault, the budget, a hang, or a named
/// stop), never at 0000:0000 as a stop of the machine's own (exit 125,
/// "keeps stopping at 0000:0000 for no reason").
fn ran_the_vector_table(code: Option<i32>, v: &serde_json::Value) {
    assert_ne!(code, Some(125), "{v}");
    assert_ne!(v["exit"]["kind"], "error", "{v}");
    let f = &v["frames"][0];
    assert_eq!(f["wCS"], 0, "{v}");
    let ip = f["wIP"].as_u64().unwrap();
    // Execution went on past 0000:0000: the stop is further on, among
    // the vectors (0000-03FFh) and the BIOS data after them.
    assert!(ip > 0 && ip < 0x1000, "{v}");
    if v["exit"]["kind"] == "fault" {
        assert_eq!(v["fault"]["wCS"], 0, "{v}");
        assert_eq!(v["fault"]["linear"], v["fault"]["wIP"], "{v}");
    }
}

#[test]
fn a_jump_to_0000_0000_runs_the_vector_table() {
    let d = temp("jmp00");
    let p = d.join("JMP00.COM");
    // jmp 0000:0000
    std::fs::write(&p, [0xEA, 0x00, 0x00, 0x00, 0x00]).unwrap();
    let (code, v) = run(&p, 100_000);
    ran_the_vector_table(code, &v);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_call_through_a_null_far_pointer_runs_the_vector_table() {
    let d = temp("nullcall");
    let p = d.join("NULLCALL.COM");
    // call far [0104h] ; 0104h: dd 0 (a null far pointer)
    std::fs::write(&p, [0xFF, 0x1E, 0x04, 0x01, 0, 0, 0, 0]).unwrap();
    let (code, v) = run(&p, 100_000);
    ran_the_vector_table(code, &v);
    if v["exit"]["kind"] == "fault" {
        // The far call pushed its return address, CS:0104h, below the
        // .COM's initial SP of FFFEh.
        assert_eq!(v["fault"]["registers"]["sp"], 0xFFFA, "{v}");
    }
    std::fs::remove_dir_all(&d).ok();
}
