//! Checkpoints (issue 33, item 1; src/debug/checkpoint.rs,
//! src/machine/checkpoint.rs): a run restored from a checkpoint goes on
//! exactly as the original did.
//!
//! Each test runs a `debug --commands` script that stops, going forward,
//! at several positions (printing the position, the registers and
//! `digest`: hashes of all memory, the VGA planes, the console output and
//! the emulated clock), then goes back to each of them with `goto` (the
//! last one with `reverse-stepi`), printing the same. Checkpoints are
//! taken every few thousand positions (`--checkpoint-every`), so each
//! `goto` restores one and replays from it. What each stop prints going
//! back must be what it printed going forward; and the whole transcript
//! must be the one of the same session without checkpoints
//! (`--checkpoint-memory 0`: every replay from the program's start, as
//! before checkpoints existed).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

fn rom(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

/// The transcript of `debug --commands SCRIPT` with `args`.
fn session(tag: &str, args: &[&str], script: &str) -> String {
    let dir = std::env::temp_dir().join(format!("th16-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.txt"));
    std::fs::write(&file, script).unwrap();
    let out = Command::new(exe())
        .arg("debug")
        .arg("--timeout")
        .arg("600")
        .arg("--commands")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Forward to each of `positions` (ascending), then back to each with
/// `goto`, the last step back (from the last position to the one before
/// it) a `reverse-stepi`.
fn script(positions: &[u64]) -> String {
    let last = *positions.last().unwrap();
    let mut all: Vec<u64> = positions.to_vec();
    all.insert(all.len() - 1, last - 1);
    let mut s = String::new();
    for p in &all {
        s += &format!("break +{p}\n");
    }
    for _ in &all {
        s += "continue\nposition\nregs\ndigest\n";
    }
    s += "reverse-stepi\nposition\nregs\ndigest\n";
    for p in positions.iter().rev().skip(1) {
        s += &format!("goto {p}\nposition\nregs\ndigest\n");
    }
    s += "quit\n";
    s
}

/// What the session printed at each position: the registers and the
/// digest, for every time it stopped there.
fn stops(out: &str) -> BTreeMap<u64, Vec<String>> {
    let parts: Vec<&str> = out.split("(debug) ").collect();
    let mut m: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for (i, p) in parts.iter().enumerate() {
        if let Some(rest) = p.strip_prefix("position\n") {
            let pos: u64 = rest.trim().parse().unwrap();
            let regs = parts.get(i + 1).copied().unwrap_or_default();
            let digest = parts.get(i + 2).copied().unwrap_or_default();
            assert!(regs.starts_with("regs\n") && digest.starts_with("digest\n"));
            m.entry(pos).or_default().push(format!("{regs}{digest}"));
        }
    }
    m
}

/// The script run with checkpoints every `every` positions and without
/// checkpoints: the same transcript, and every position's state the same
/// going back as going forward.
fn restored_as_run(tag: &str, program: &[&str], positions: &[u64], every: u64) {
    let text = script(positions);
    let every = every.to_string();
    let mut with = vec!["--checkpoint-every", every.as_str()];
    with.extend_from_slice(program);
    let mut without = vec!["--checkpoint-memory", "0"];
    without.extend_from_slice(program);
    let a = session(&format!("{tag}-a"), &with, &text);
    let b = session(&format!("{tag}-b"), &without, &text);
    assert_eq!(a, b, "the session differs with checkpoints");
    let m = stops(&a);
    assert_eq!(m.len(), positions.len() + 1, "{a}");
    let last = *positions.last().unwrap();
    for (pos, seen) in &m {
        // The last position is stopped at once, going forward.
        let times = if *pos == last { 1 } else { 2 };
        assert_eq!(
            seen.len(),
            times,
            "position {pos} seen {} times:\n{a}",
            seen.len()
        );
        if times == 1 {
            continue;
        }
        assert_eq!(
            seen[0], seen[1],
            "the state at position {pos} restored differs from the run's"
        );
    }
}

#[test]
fn a_dos_program_writing_files_goes_on_from_a_checkpoint_as_it_ran() {
    // roms/dosfile.com creates, writes, reads back and deletes files on
    // the drive (its overlay): the files are part of the checkpoints.
    restored_as_run(
        "dosfile",
        &[rom("dosfile.com").to_str().unwrap()],
        &[5_000, 12_000, 20_000, 30_000, 36_000],
        2_000,
    );
}

#[test]
fn a_timed_dos_program_keeps_its_ticks_from_a_checkpoint() {
    // roms/dosirq.com hooks INT 1Ch and waits for three ticks: the
    // emulated clock and the pending tick are part of the checkpoints.
    restored_as_run(
        "dosirq",
        &["--keys", "q", rom("dosirq.com").to_str().unwrap()],
        &[100_000, 300_000, 600_000, 900_000],
        20_000,
    );
}

#[test]
fn a_vga_program_keeps_its_planes_from_a_checkpoint() {
    restored_as_run(
        "vgashow",
        &[rom("vgashow.com").to_str().unwrap()],
        &[5_000, 15_000, 30_000],
        2_000,
    );
}

#[test]
fn self_modifying_code_is_translated_again_after_a_restore() {
    restored_as_run(
        "dossmc",
        &[rom("dossmc.com").to_str().unwrap()],
        &[50_000, 150_000, 300_000],
        10_000,
    );
}

#[test]
fn a_win16_program_goes_on_from_a_checkpoint_as_it_ran() {
    // roms/ticks.exe calls USER's GetTickCount 100,000 times through its
    // import thunk: the Win16 state, the descriptor tables and the
    // emulated clock are part of the checkpoints.
    restored_as_run(
        "ticks",
        &[rom("ticks.exe").to_str().unwrap()],
        &[100_000, 400_000, 800_000, 1_150_000],
        20_000,
    );
}

#[test]
fn a_corpus_dos_program_goes_on_from_a_checkpoint_as_it_ran() {
    // Turbo Pascal 7's INFO.EXE (the shared corpus) reads the BIOS data
    // area, the equipment and memory sizes, and prints them.
    let Some(corpus) = common::corpus() else {
        return;
    };
    let info = corpus.join("dos/tp7/INFO.EXE");
    restored_as_run(
        "info",
        &["--clock", "2024-01-01 00:00:00", info.to_str().unwrap()],
        &[10_000, 30_000, 60_000],
        5_000,
    );
}
