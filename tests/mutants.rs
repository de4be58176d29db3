//! Property: no executable makes `run` or `stack` panic, crash, hang, eat
//! memory or exit 125 (which is kept for toolhelp16's own bugs). The
//! executables are the roms/ programs with a few bytes changed: header
//! fields (MZ and NE), tables, relocation records, code. Every run is
//! bounded (--max-insns, --timeout) and must end within its limits, with
//! a peak resident memory under 512 MiB, and print nothing on stderr a
//! terminal would obey (control characters are escaped, escape.rs).
//!
//! The mutants are drawn from a fixed seed, so a run of the suite repeats;
//! TOOLHELP16_MUTANT_SEED (a number) draws others and
//! TOOLHELP16_MUTANT_CASES (default 24) sets how many, for a longer
//! campaign.

use std::path::PathBuf;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

mod common;
use common::{bin, rom, run_measured, scratch};

/// The programs mutated: every roms/ executable but dossmc.com, whose
/// every mutant rewrites its own code and runs at a translation a block
/// (tests/limits.rs holds it to its budget and memory).
fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(rom(""))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "exe" || x == "com" || x == "img")
                && !p.ends_with("dossmc.com")
        })
        .collect();
    v.sort();
    v
}

/// One change to a file's bytes.
#[derive(Debug, Clone)]
enum Mutation {
    /// Set the byte at (offset mod length).
    Byte(usize, u8),
    /// Set the word at (offset mod length) to one of the values fields
    /// trip over (0, FFFF, 8000, 7FFF, or any).
    Word(usize, u16),
    /// Set a byte of the NE header (or of the MZ header without one).
    Header(usize, u8),
    /// Cut the file at (offset mod length).
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let word = prop_oneof![
        Just(0u16),
        Just(0xFFFF),
        Just(0x8000),
        Just(0x7FFF),
        any::<u16>()
    ];
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(o, b)| Mutation::Byte(o, b)),
        3 => (any::<usize>(), word).prop_map(|(o, w)| Mutation::Word(o, w)),
        4 => (0usize..0x40, any::<u8>()).prop_map(|(o, b)| Mutation::Header(o, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(data: &mut Vec<u8>, m: &Mutation) {
    if data.is_empty() {
        return;
    }
    let n = data.len();
    match *m {
        Mutation::Byte(o, b) => data[o % n] = b,
        Mutation::Word(o, w) => {
            let o = o % n;
            data[o] = w as u8;
            if o + 1 < n {
                data[o + 1] = (w >> 8) as u8;
            }
        }
        Mutation::Header(o, b) => {
            let ne = if n > 0x40 {
                usize::from(u16::from_le_bytes([data[0x3C], data[0x3D]]))
            } else {
                0
            };
            let base = if ne > 0 && ne + 0x40 <= n { ne } else { 0 };
            if base + o < n {
                data[base + o] = b;
            }
        }
        Mutation::Truncate(o) => data.truncate((o % n).max(1)),
    }
}

fn seed() -> [u8; 32] {
    let n: u64 = std::env::var("TOOLHELP16_MUTANT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

#[test]
fn mutated_programs_end_within_their_limits() {
    let cases: u32 = std::env::var("TOOLHELP16_MUTANT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24);
    let progs = programs();
    assert!(progs.len() > 10, "the roms/ programs");
    let dir = scratch("mutants");
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            max_shrink_iters: 64,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed()),
    );
    let strategy = (0..progs.len(), proptest::collection::vec(mutation(), 1..8));
    let result = runner.run(&strategy, |(which, muts)| {
        let src = &progs[which];
        let mut data = std::fs::read(src).unwrap();
        for m in &muts {
            apply(&mut data, m);
        }
        // Each mutant in a directory of its own: its drive C: is that
        // directory, copy-on-write.
        let case = dir.join(format!("m{which}"));
        let _ = std::fs::remove_dir_all(&case);
        std::fs::create_dir_all(&case).unwrap();
        let file = case.join(src.file_name().unwrap());
        std::fs::write(&file, &data).unwrap();
        for cmd in [
            &["run", "--max-insns", "50000", "--timeout", "3"][..],
            &[
                "stack",
                "--at",
                "+2000",
                "--max-insns",
                "50000",
                "--timeout",
                "3",
            ][..],
        ] {
            let m = run_measured(bin().args(cmd).arg(&file), Duration::from_secs(60));
            let err = String::from_utf8_lossy(&m.out.stderr);
            let what = format!("{} {} after {muts:?}: {err}", cmd[0], src.display());
            prop_assert!(!m.killed, "hung: {what}");
            prop_assert!(
                m.elapsed < Duration::from_secs(25),
                "{:?}: {what}",
                m.elapsed
            );
            let code = m.out.status.code();
            prop_assert!(code.is_some(), "killed by a signal: {what}");
            prop_assert!(code != Some(125), "exit 125: {what}");
            prop_assert!(
                code != Some(101) && !err.contains("panicked"),
                "panic: {what}"
            );
            prop_assert!(m.peak_kib < 512 * 1024, "{} KiB: {what}", m.peak_kib);
            prop_assert!(
                !err.chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t'),
                "control characters on stderr: {what}"
            );
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        panic!("{e}");
    }
}
