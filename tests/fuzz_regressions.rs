//! Inputs the fuzz harness (examples/fuzz.rs, README "Fuzzing") found,
//! kept so that what they broke stays fixed: each program of
//! tests/fuzz/programs/ runs to a stop the tool reports (an exit, a
//! fault, the budget), never a panic, an internal error (exit 125) or a
//! crash (exit 116).
//!
//! - `WSPRINTF.EXE`: a mutated Win16 program whose wsprintf `%s` pointed
//!   into a segment with a 4 GiB - 1 limit; `farptr::read_cstr` computed
//!   `limit - offset + 1` in 32 bits and overflowed (a panic inside the
//!   engine's hook, which cannot unwind: the process aborted).
//! - `WSPRINT2.EXE`: another mutated program that aborted the fuzz build
//!   made before that fix, and runs clean with it.

mod common;

use common::{bin, root};

#[test]
fn the_programs_the_fuzzer_found_stop_cleanly() {
    let dir = root().join("tests/fuzz/programs");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let out = bin()
            .args([
                "run",
                "--max-insns",
                "200000",
                "--timeout",
                "20",
                "--stdin",
                "/dev/null",
            ])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            !matches!(code, None | Some(116) | Some(125)),
            "{}: exit {code:?}\n{err}",
            p.display()
        );
        assert!(!err.contains("panicked"), "{}: {err}", p.display());
        n += 1;
    }
    assert!(n > 0);
}
