//! The regression vectors in tests/vectors/: snapshots of roms/ scenarios
//! (walk/snapshot.rs) with the frames a correct STACKFRAME64 walk reports
//! and the first-step failure of the IStackWalker start (dbghelp.md). The
//! README presents them to people who test other stack walkers.
//!
//! Each vector is exactly what `toolhelp16 snapshot` writes for its
//! scenario (its `source` member names the program and the stop); set
//! `TOOLHELP16_BLESS_VECTORS=1` to write them again after a deliberate
//! change.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use toolhelp16::walk::WalkMemory;
use toolhelp16::walk::snapshot::Snapshot;
use toolhelp16::walk::stackframe::{Start, StepError};

mod common;
use common::{CLOCK, Scenario, bin, expect_scenarios, json, load_scenario, more_scenarios, root};

const BLESS: &str = "TOOLHELP16_BLESS_VECTORS";

fn vectors_dir() -> PathBuf {
    root().join("tests").join("vectors")
}

/// The scenarios with a vector: every `.expect` scenario, the walk inside
/// a fault callback, thwalk, winmsg and the second of two tasks.
fn vector_scenarios() -> Vec<Scenario> {
    expect_scenarios()
        .into_iter()
        .chain(more_scenarios())
        .collect()
}

/// Every committed vector file.
fn vector_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

/// A path in the temporary directory, with nothing there yet (a process
/// id can come again; what an earlier run left must not answer for this
/// one).
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("toolhelp16-vectors-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn the_vectors_are_what_snapshot_writes_for_their_scenarios() {
    let bless = std::env::var_os(BLESS).is_some();
    let scenarios = vector_scenarios();
    let mut stale = Vec::new();
    for sc in &scenarios {
        let (_, loc) = load_scenario(sc);
        let out = temp(&format!("{}.json", sc.name));
        let run = bin()
            .current_dir(root())
            .args(["snapshot", "--clock", CLOCK, "--at", &loc, "-o"])
            .arg(&out)
            .arg(&sc.file)
            .args(&sc.more)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}: {}",
            sc.name,
            String::from_utf8_lossy(&run.stderr)
        );
        let fresh = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        let path = vectors_dir().join(format!("{}.json", sc.name));
        if bless {
            std::fs::create_dir_all(vectors_dir()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(committed) if committed == fresh => {}
            Ok(_) => stale.push(format!("{} differs", path.display())),
            Err(e) => stale.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "vectors out of date ({BLESS}=1 cargo test --test vectors writes them):\n{}",
        stale.join("\n")
    );
    // No vector without a scenario.
    let names: BTreeSet<String> = scenarios.iter().map(|s| s.name.clone()).collect();
    for f in vector_files() {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(names.contains(&stem), "{} has no scenario", f.display());
    }
}

#[test]
fn every_vector_replays_with_its_expected_result() {
    let files = vector_files();
    assert_eq!(files.len(), vector_scenarios().len());
    for f in &files {
        let name = f.display();
        let s = Snapshot::read(f).unwrap_or_else(|e| panic!("{e}"));
        let e = s
            .expect
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no expect"));
        assert!(!e.frames.is_empty(), "{name}");
        for start in Start::ALL {
            let w = s.walk(start, 0x8000);
            let a = s.check(start, &w).unwrap();
            assert!(a.agrees(), "{name} {start}:\n{a}");
        }
        // The failing start fails for its documented reason: the field, the
        // mode and the selector.
        assert_eq!(
            e.failures.get("istackwalker").map(String::as_str),
            Some("AddrFrame is AddrMode1616 with selector 0x0000: null selector"),
            "{name}"
        );
        assert_eq!(e.failures.len(), 1, "{name}: only istackwalker fails");
        // native and flat walk the same frames.
        let n = s.walk(Start::Native, 0x8000);
        let fl = s.walk(Start::Flat, 0x8000);
        assert_eq!(n.entries, fl.entries, "{name}");
        assert_eq!(n.end, fl.end, "{name}");
        assert_eq!(n.end.kind(), e.end, "{name}");
    }
}

#[test]
fn walk_replays_every_vector_from_the_command_line() {
    for f in vector_files() {
        let name = f.display().to_string();
        for (init, code) in [("native", 0), ("flat", 0), ("istackwalker", 119)] {
            let out = bin()
                .args(["walk", "--json", "--init", init])
                .arg(&f)
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(code),
                "{name} {init}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v = json(&out);
            assert_eq!(v["init"], init);
            assert_eq!(v["agreement"]["agrees"], true, "{name} {init}: {v}");
            let frames = v["frames"].as_array().unwrap();
            if init == "istackwalker" {
                assert!(frames.is_empty());
                let fl = &v["failure"];
                assert_eq!(fl["field"], "AddrFrame");
                assert_eq!(fl["mode"], 0);
                assert_eq!(fl["mode_name"], "AddrMode1616");
                assert_eq!(fl["selector"], 0);
                assert_eq!(fl["reason"], "null selector");
                assert_eq!(v["start"]["AddrFrame"]["Mode"], 0);
                assert_eq!(v["start"]["AddrPC"]["Mode"], 3);
                assert_eq!(v["start"]["AddrStack"]["Mode"], 3);
                assert_eq!(v["end_kind"], "address");
            } else {
                assert!(!frames.is_empty());
                assert!(v["failure"].is_null());
                for fr in frames {
                    for k in ["AddrPC", "AddrReturn", "AddrFrame", "AddrStack"] {
                        for sub in ["Offset", "Segment", "Mode"] {
                            assert!(fr[k][sub].is_u64(), "{name}: {k}.{sub}");
                        }
                    }
                    assert_eq!(fr["Params"].as_array().unwrap().len(), 4);
                    assert!(fr["Far"].is_boolean() && fr["Virtual"].is_boolean());
                }
                let want_mode = if init == "flat" {
                    3
                } else if v["mode"] == "real" {
                    2
                } else {
                    0
                };
                assert_eq!(frames[0]["AddrPC"]["Mode"], want_mode, "{name} {init}");
            }
        }
    }
}

/// A copy of a vector with `edit` applied to its JSON.
fn edited(name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(vectors_dir().join(name)).unwrap()).unwrap();
    edit(&mut v);
    let p = temp(name);
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

fn walk_text(path: &Path, init: &str) -> (Option<i32>, String) {
    let out = bin()
        .args(["walk", "--init", init])
        .arg(path)
        .output()
        .unwrap();
    // Only the edited copies `temp` made: the checkout itself may lie
    // under the temporary directory (a clone in /tmp).
    let made_by_temp = path.parent() == Some(std::env::temp_dir().as_path())
        && path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("toolhelp16-vectors-"));
    if made_by_temp {
        let _ = std::fs::remove_file(path);
    }
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_walk_that_disagrees_with_its_vector_exits_non_zero() {
    // The text report agrees frame by frame.
    let (code, text) = walk_text(&vectors_dir().join("demo.json"), "flat");
    assert_eq!(code, Some(0));
    assert!(
        text.contains("  frame 3: agrees") && text.contains("AGREES"),
        "{text}"
    );
    // One expected frame changed: that frame differs.
    let p = edited("demo.json", |v| {
        v["expect"]["frames"][2]["AddrPC"]["Offset"] = 0x11.into();
    });
    let (code, text) = walk_text(&p, "native");
    assert_eq!(code, Some(118), "{text}");
    assert!(text.contains("  frame 2: DIFFERS"), "{text}");
    assert!(text.contains("AddrPC: expected 1616 "), "{text}");
    assert!(text.contains("  frame 1: agrees"), "{text}");
    // The same with a flat walk: compared by linear address.
    let p = edited("demo.json", |v| {
        v["expect"]["frames"][2]["AddrPC"]["Offset"] = 0x11.into();
    });
    let (code, text) = walk_text(&p, "flat");
    assert_eq!(code, Some(118), "{text}");
    assert!(text.contains("(linear "), "{text}");
    // A frame too few expected.
    let p = edited("cycle.json", |v| {
        v["expect"]["frames"].as_array_mut().unwrap().pop();
    });
    let (code, text) = walk_text(&p, "native");
    assert_eq!(code, Some(118));
    assert!(text.contains("not expected: the walk goes on"), "{text}");
    // Another end.
    let p = edited("cycle.json", |v| v["expect"]["end"] = "end-of-chain".into());
    let (code, text) = walk_text(&p, "native");
    assert_eq!(code, Some(118));
    assert!(
        text.contains("the walk ends not-climbing") && text.contains("expects end-of-chain"),
        "{text}"
    );
    // A saved word of the stack changed: the walk itself changes.
    let p = edited("demo.json", |v| {
        let row = v["memory"][0]["hex"][0x9E0 / 32]
            .as_str()
            .unwrap()
            .to_string();
        // [9E0] is PaintLine's saved BP 09E9: make it 09E1.
        assert_eq!(&row[0..4], "E909", "{row}");
        v["memory"][0]["hex"][0x9E0 / 32] = format!("E109{}", &row[4..]).into();
    });
    let (code, text) = walk_text(&p, "native");
    assert_eq!(code, Some(118), "{text}");
    // A start the snapshot expects to fail that does not.
    let p = edited("demo.json", |v| {
        v["expect"]["failures"]["flat"] = "AddrPC is nothing".into();
    });
    let (code, text) = walk_text(&p, "flat");
    assert_eq!(code, Some(118));
    assert!(text.contains("expects its first step to fail"), "{text}");
    // No expectation: the walk is printed and exits 0.
    let p = edited("demo.json", |v| {
        v.as_object_mut().unwrap().remove("expect");
    });
    let (code, text) = walk_text(&p, "native");
    assert_eq!(code, Some(0));
    assert!(text.contains("no expected frames"), "{text}");
}

#[test]
fn bad_snapshot_files_are_refused_naming_the_file() {
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty", String::new(), "not a snapshot"),
        ("garbage", "\u{1}\u{2}{[".into(), "not a snapshot"),
        ("array", "[]".into(), "not a snapshot"),
        (
            "oddhex",
            std::fs::read_to_string(vectors_dir().join("comchain.json"))
                .unwrap()
                .replacen("\"hex\": [\n        \"", "\"hex\": [\n        \"0", 1),
            "memory[0].hex[0]: an odd number of hex digits",
        ),
    ];
    for (name, text, want) in cases {
        let p = temp(&format!("{name}.json"));
        std::fs::write(&p, text).unwrap();
        let out = bin().args(["walk"]).arg(&p).output().unwrap();
        let _ = std::fs::remove_file(&p);
        assert_eq!(out.status.code(), Some(120), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("toolhelp16: {}: ", p.display())) && err.contains(want),
            "{name}: {err}"
        );
    }
    let out = bin()
        .args(["walk", "/nonexistent/snap.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/snap.json"));
    let out = bin()
        .args(["walk", "--init", "sideways"])
        .arg(vectors_dir().join("demo.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error");
}

#[test]
fn snapshot_refuses_a_location_it_does_not_reach() {
    let out = temp("unreached.json");
    let run = bin()
        .current_dir(root())
        .args([
            "snapshot",
            "--at",
            "DEMO:1:0001",
            "--max-insns",
            "5000",
            "-o",
        ])
        .arg(&out)
        .arg("roms/demo.exe")
        .output()
        .unwrap();
    assert_ne!(run.status.code(), Some(0));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("not reached") && err.contains("no snapshot written"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn the_vectors_cover_the_cases_the_issue_lists() {
    let mut modes = BTreeSet::new();
    let mut ends = BTreeSet::new();
    let (mut near, mut far, mut odd_far, mut virt) = (0, 0, 0, 0);
    let names: BTreeSet<String> = vector_files()
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for f in vector_files() {
        let s = Snapshot::read(&f).unwrap();
        modes.insert(format!("{:?}", s.mode));
        let w = s.walk(Start::Native, 0x8000);
        ends.insert(w.end.kind());
        for (i, fr) in w.frames.iter().enumerate() {
            if fr.is_far() {
                far += 1;
                // Far with the odd-BP marker: the saved BP is odd.
                let e = &w.entries[i];
                if s.read_u16(e.w_ss, e.w_bp).is_ok_and(|bp| bp & 1 == 1) {
                    odd_far += 1;
                }
            } else {
                near += 1;
            }
            virt += usize::from(fr.is_virtual());
        }
        assert!(!matches!(w.end, StepError::Address(_)));
    }
    assert_eq!(modes.len(), 2, "real and protected: {modes:?}");
    for end in [
        "end-of-chain",
        "not-climbing",
        "out-of-bounds",
        "beyond-limit",
        "bp-wraps",
    ] {
        assert!(ends.contains(end), "{end} in {ends:?}");
    }
    assert!(
        near > 0 && far > odd_far && odd_far > 0,
        "{near} {far} {odd_far}"
    );
    assert!(virt > 0, "a fault dispatch frame");
    for n in [
        "frameless",
        "plainfar",
        "mixed",
        "recurse",
        "boot",
        "mzfar",
        "faultskip",
    ] {
        assert!(names.contains(n), "{n}");
    }
}

#[test]
fn the_readme_presents_every_vector() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for f in vector_files() {
        let n = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            readme.contains(&format!("`{n}`")),
            "README.md does not list {n}"
        );
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// demo.json as JSON.
    fn demo() -> Value {
        serde_json::from_str(&std::fs::read_to_string(vectors_dir().join("demo.json")).unwrap())
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A vector with its stack, registers and descriptors scrambled
        /// still parses (or is refused with a reason), walks with every
        /// start without panicking, and ends.
        #[test]
        fn scrambled_vectors_walk_and_end(
            regs in proptest::collection::vec(any::<u16>(), 5),
            words in proptest::collection::vec((0usize..80, 0usize..16, any::<u16>()), 0..40),
            entry in (0usize..40, "[0-9A-F]{16}"),
            keep_regs in any::<bool>(),
        ) {
            let mut v = demo();
            if !keep_regs {
                for (k, r) in ["cs", "ip", "ss", "sp", "bp"].iter().zip(&regs) {
                    v["registers"][*k] = (*r).into();
                }
            }
            let rows = v["memory"][0]["hex"].as_array_mut().unwrap();
            for (row, word, val) in words {
                let row = row % rows.len();
                let mut r = rows[row].as_str().unwrap().to_string();
                let at = (word * 4) % r.len().max(4);
                if at + 4 <= r.len() {
                    let b = val.to_le_bytes();
                    r.replace_range(at..at + 4, &format!("{:02X}{:02X}", b[0], b[1]));
                }
                rows[row] = r.into();
            }
            let entries = v["ldt"]["entries"].as_array_mut().unwrap();
            let n = entries.len();
            entries[entry.0 % n]["hex"] = entry.1.into();
            let text = v.to_string();
            match Snapshot::from_json(text.as_bytes()) {
                Ok(s) => {
                    for start in Start::ALL {
                        let w = s.walk(start, 0x8000);
                        prop_assert!(w.frames.len() <= 0x8000);
                        prop_assert_eq!(w.frames.len(), w.entries.len());
                        let _ = s.check(start, &w);
                    }
                }
                Err(e) => prop_assert!(!e.is_empty()),
            }
        }
    }
}
