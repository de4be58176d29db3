//! Every roms/ scenario with an `.expect` file: run to its stop location and
//! compare the ToolHelp walk with the frames written by hand from the source
//! (format: roms/README.md).

use std::path::{Path, PathBuf};

use toolhelp16::machine::{RunLimits, Stop};
use toolhelp16::session::{self, LoadOptions, Loaded, Loc, Program};
use toolhelp16::walk::{NextFailure, StackTraceEntry, StopReason};

fn roms() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("roms")
}

/// A segment token from an .expect file, resolved in a loaded program.
fn seg_token(p: &Program, tok: &str) -> u16 {
    if let Some(n) = tok.strip_prefix('s') {
        let n: u16 = n
            .parse()
            .unwrap_or_else(|_| panic!("bad segment token {tok}"));
        let w = &p.env().win16;
        let module = w
            .modules
            .iter()
            .rev()
            .find(|m| !m.builtin)
            .expect("an NE module");
        return module.segments[usize::from(n) - 1];
    }
    if tok == "psp" {
        if let Loaded::Dos { psp, .. } = p.loaded {
            return psp;
        }
        panic!("psp token in a non-DOS scenario");
    }
    if let Some(x) = tok.strip_prefix("load+") {
        let add = u16::from_str_radix(x, 16).unwrap();
        if let Loaded::Dos { load_seg, .. } = p.loaded {
            return load_seg + add;
        }
        panic!("load+ token in a non-DOS scenario");
    }
    u16::from_str_radix(tok, 16).unwrap_or_else(|_| panic!("bad segment token {tok}"))
}

fn split_csip(s: &str) -> (&str, u16) {
    let (a, b) = s
        .rsplit_once(':')
        .unwrap_or_else(|| panic!("bad CS:IP {s}"));
    (a, u16::from_str_radix(b, 16).unwrap())
}

struct Expect {
    file: String,
    at: String,
    frames: Vec<(String, u16, u16, bool)>,
    stop: Option<String>,
}

fn parse_expect(text: &str) -> Expect {
    let mut e = Expect {
        file: String::new(),
        at: String::new(),
        frames: Vec::new(),
        stop: None,
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap().trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] | ["end"] => {}
            ["file", f] => e.file = f.to_string(),
            ["at", a] => e.at = a.to_string(),
            ["frame", csip, bp, kind] => {
                let (cs, ip) = split_csip(csip);
                let bp = u16::from_str_radix(bp.strip_prefix("bp=").expect("bp="), 16).unwrap();
                e.frames.push((cs.to_string(), ip, bp, *kind == "far"));
            }
            ["stop", why] => e.stop = Some(why.to_string()),
            other => panic!("unreadable .expect line: {other:?}"),
        }
    }
    e
}

fn stop_name(r: &StopReason) -> String {
    match r {
        StopReason::Next(n) => match n {
            NextFailure::EndOfChain { .. } => "end-of-chain",
            NextFailure::NotClimbing { .. } => "not-climbing",
            NextFailure::OutOfBounds { .. } => "out-of-bounds",
            NextFailure::BeyondLimit { .. } => "beyond-limit",
            NextFailure::BpWraps { .. } => "bp-wraps",
            _ => "other",
        }
        .to_string(),
        StopReason::Stalled { .. } => "stalled".into(),
        other => format!("{other:?}"),
    }
}

fn check(expect_path: &Path) -> Result<usize, String> {
    let e = parse_expect(&std::fs::read_to_string(expect_path).unwrap());
    let name = expect_path.display();
    let file = roms().join(&e.file);
    let mut p =
        session::load(&file, &LoadOptions::default()).map_err(|x| format!("{name}: {x}"))?;
    let (cs_tok, ip) = split_csip(&e.at);
    let loc = Loc::SegOff {
        seg: seg_token(&p, cs_tok),
        offset: ip,
    };
    let stop = p
        .run(
            RunLimits {
                max_insns: 10_000_000,
                ..RunLimits::default()
            },
            Some(&loc),
        )
        .map_err(|x| format!("{name}: {x}"))?;
    if !matches!(stop, Stop::Breakpoint { .. }) {
        return Err(format!(
            "{name}: did not reach {}: {stop:?}; output {:?}",
            e.at,
            String::from_utf8_lossy(&p.env().console)
        ));
    }
    let walk = p.walk_at_stop(&stop).unwrap();
    let got: Vec<(u16, u16, u16, bool)> = walk
        .frames
        .iter()
        .map(|f| {
            (
                f.w_cs,
                f.w_ip,
                f.w_bp,
                f.w_flags == StackTraceEntry::FRAME_FAR,
            )
        })
        .collect();
    let want: Vec<(u16, u16, u16, bool)> = e
        .frames
        .iter()
        .map(|(cs, ip, bp, far)| (seg_token(&p, cs), *ip, *bp, *far))
        .collect();
    if got != want {
        return Err(format!(
            "{name}: frames differ\n  want {want:04X?}\n  got  {got:04X?}\n  walk ended: {}",
            walk.stop
        ));
    }
    // wSegment names the NE segment for every frame in an NE module.
    for (f, (cs, ..)) in walk.frames.iter().zip(&e.frames) {
        if let Some(n) = cs.strip_prefix('s') {
            if f.w_segment.to_string() != n {
                return Err(format!(
                    "{name}: frame at {cs} has wSegment {}",
                    f.w_segment
                ));
            }
        }
    }
    if let Some(s) = &e.stop {
        let got = stop_name(&walk.stop);
        if &got != s {
            return Err(format!(
                "{name}: walk ended {got} ({}), expected {s}",
                walk.stop
            ));
        }
    }
    Ok(want.len())
}

#[test]
fn every_roms_scenario_walks_as_written() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(roms())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no roms/*.expect files");
    let mut failures = Vec::new();
    for f in &files {
        match check(f) {
            Ok(n) => eprintln!("ok   {} ({n} frames)", f.display()),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn demo_scenario_is_present() {
    // The bundled demo must have its expectation checked above.
    assert!(roms().join("demo.expect").exists());
}

/// The `stack --verify` verdict for a scenario: its walk against the shadow
/// call stack kept while it ran (src/trace/verify.rs).
fn verdict(expect_path: &Path) -> toolhelp16::trace::verify::Verdict {
    use toolhelp16::trace::shadow::ShadowStack;
    let e = parse_expect(&std::fs::read_to_string(expect_path).unwrap());
    let mut p = session::load(&roms().join(&e.file), &LoadOptions::default()).unwrap();
    p.machine.add_observer(Box::new(ShadowStack::new()));
    let (cs_tok, ip) = split_csip(&e.at);
    let loc = Loc::SegOff {
        seg: seg_token(&p, cs_tok),
        offset: ip,
    };
    let stop = p.run(RunLimits::default(), Some(&loc)).unwrap();
    assert!(matches!(stop, Stop::Breakpoint { .. }), "{stop:?}");
    let walk = p.walk_at_stop(&stop).unwrap();
    let shadow = p.machine.take_observer::<ShadowStack>().unwrap();
    toolhelp16::trace::verify::verify(&walk, shadow.chain(walk.frames[0].w_ss))
}

#[test]
fn the_shadow_stack_confirms_correct_chains_and_names_the_broken_ones() {
    use toolhelp16::trace::verify::Disagreement;
    let mut files: Vec<PathBuf> = std::fs::read_dir(roms())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
        .collect();
    files.sort();
    let mut got = Vec::new();
    for f in &files {
        let v = verdict(f);
        let kinds: Vec<&str> = v
            .disagreements
            .iter()
            .map(|d| match d {
                Disagreement::Frameless { .. } => "frameless",
                Disagreement::FarNear { .. } => "far-near",
                Disagreement::Corrupt { .. } => "corrupt",
                Disagreement::EarlyEnd { .. } => "early-end",
            })
            .collect();
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        let verdict = if kinds.is_empty() {
            "agrees".to_string()
        } else {
            kinds.join(",")
        };
        got.push((stem, verdict));
    }
    // What each scenario's source says its chain is (roms/README.md).
    let want = [
        ("above", "early-end"),    // saved BP above pStackBot: the chain is cut
        ("below", "early-end"),    // saved BP below pStackTop
        ("boot", "agrees"),        // real-mode boot sector, near frames
        ("comchain", "frameless"), // a frameless function mid-chain
        ("comcycle", "early-end"), // a cycle in the chain
        ("cycle", "early-end"),
        ("demo", "agrees"),
        ("down", "early-end"), // a saved BP that does not climb
        ("frameless", "frameless"),
        ("limit", "early-end"), // BP past the stack segment's limit
        ("mixed", "agrees"),
        ("mzfar", "agrees"),
        ("plainfar", "far-near"), // a far frame without the odd marker
        ("recurse", "agrees"),
        ("wrap", "early-end"), // BP + 6 wraps
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);
}
