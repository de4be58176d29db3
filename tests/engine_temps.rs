//! The engine's segfault of issue 30 (item 1), found again by the
//! `programs` fuzz target (examples/fuzz.rs): a block of some 500 AAM or
//! AAD instructions crashed the process with SIGSEGV in `tcg_emit_op`,
//! because each of them left one of TCG's 512 temporaries allocated and
//! the next one past the array was written over the op list after it.
//! Patch 0011 (vendor/README.md) frees the temporary, and ends a block
//! before the temporaries run out whatever the instruction.
//!
//! Expected values from Intel's SDM (AAM: AH = AL / imm8, AL = AL mod
//! imm8; AAD: AL = (AL + AH × imm8) & FFh, AH = 0).
//!
//! Not built against the unpatched engine (`unpatched-engine`): what
//! these tests check is patch 0011's fix of the engine itself, which
//! overruns TCG's temporaries inside the translator, before any hook of
//! toolhelp16 runs; no Rust code can keep it from crashing.

#![cfg(not(feature = "unpatched-engine"))]

mod common;

use common::{bin, scratch};

/// A .COM: `mov ax, AX0`, `insn` 600 times, `mov ah, 4Ch; int 21h` (the
/// exit code is AL).
fn program(name: &str, ax0: u16, insn: &[u8]) -> std::path::PathBuf {
    let mut b = vec![0xB8];
    b.extend(ax0.to_le_bytes());
    for _ in 0..600 {
        b.extend_from_slice(insn);
    }
    b.extend([0xB4, 0x4C, 0xCD, 0x21]);
    let p = scratch(name).join(format!("{name}.COM"));
    std::fs::write(&p, b).unwrap();
    p
}

fn exit_code(args: &[&str], prog: &std::path::Path) -> Option<i32> {
    let out = bin().args(args).arg(prog).output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("crashed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.status.code()
}

#[test]
fn six_hundred_aad_run_and_exit() {
    // 0307h: AL = 3 × 10 + 7 = 37 (25h), AH = 0; again and again the same.
    let p = program("aad600", 0x0307, &[0xD5, 0x0A]);
    assert_eq!(exit_code(&["run"], &p), Some(37));
    assert_eq!(exit_code(&["run", "--max-insns", "100000"], &p), Some(37));
    assert_eq!(exit_code(&["trace", "-o", "/dev/null"], &p), Some(37));
}

#[test]
fn six_hundred_aam_run_and_exit() {
    // 99 (63h): AH = 9, AL = 9; then AL = 9: AH = 0, AL = 9.
    let p = program("aam600", 0x0063, &[0xD4, 0x0A]);
    assert_eq!(exit_code(&["run"], &p), Some(9));
    assert_eq!(exit_code(&["run", "--max-insns", "100000"], &p), Some(9));
    assert_eq!(exit_code(&["trace", "-o", "/dev/null"], &p), Some(9));
}
