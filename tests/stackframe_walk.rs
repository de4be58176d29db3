//! The STACKFRAME64 walk (walk/stackframe.rs) against the ToolHelp walk on
//! the live machine, for every roms/ scenario, and the back trace
//! (walk/backtrace.rs): dbghelp.md's vocabulary over the same frames.

use std::collections::BTreeMap;

use toolhelp16::machine::{RunLimits, Stop};
use toolhelp16::session::{Program, load};
use toolhelp16::walk::backtrace::{self, BackTrace};
use toolhelp16::walk::stackframe::{AddrMode, Field, Start, StepError, linear_address};
use toolhelp16::walk::{CpuMode, StackTraceEntry, Walk};

mod common;
use common::{
    Scenario, bin, expect_scenarios, json, more_scenarios, rom, root, run_scenario,
    scenario_options,
};

/// Every stop a walk is taken at: the `.expect` scenarios, the others, and
/// each fault of roms/faults.exe (a walk from a faulting context).
fn all_stops() -> Vec<(String, Program, Stop)> {
    let mut out = Vec::new();
    for sc in expect_scenarios().into_iter().chain(more_scenarios()) {
        let (p, stop, _) = run_scenario(&sc);
        out.push((sc.name.clone(), p, stop));
    }
    for letter in ["d", "u", "i", "s", "w", "v", "n", "o", "r"] {
        let sc = Scenario {
            name: format!("faults-{letter}"),
            file: "roms/faults.exe".into(),
            at: String::new(),
            more: Vec::new(),
        };
        let mut o = scenario_options(&sc);
        o.tail = format!(" {letter}");
        let mut p = load(&rom("faults.exe"), &o).unwrap();
        let stop = p
            .run(
                RunLimits {
                    max_insns: 20_000_000,
                    ..Default::default()
                },
                None,
            )
            .unwrap();
        assert!(matches!(stop, Stop::Fault(_)), "faults {letter}: {stop:?}");
        out.push((sc.name, p, stop));
    }
    out
}

/// The (CS, IP, BP) of a ToolHelp entry.
fn csip_bp(e: &StackTraceEntry) -> (u16, u16, u16) {
    (e.w_cs, e.w_ip, e.w_bp)
}

#[test]
fn stackframe_walks_agree_with_the_toolhelp_walk_on_every_scenario() {
    let stops = all_stops();
    assert!(stops.len() >= 25, "{} stops", stops.len());
    let mut virtual_seen = 0;
    for (name, p, stop) in &stops {
        let th: Walk = p.walk_at_stop(stop).unwrap();
        let mem = &*p.machine as &dyn toolhelp16::walk::WalkMemory;
        let native_mode = AddrMode::native(p.machine.cpu_mode()).value();
        for start in [Start::Native, Start::Flat] {
            let w = p.stackframe_walk(stop, start).unwrap();
            let got: Vec<_> = w.entries.iter().map(csip_bp).collect();
            let want: Vec<_> = th.frames.iter().map(csip_bp).collect();
            assert_eq!(got, want, "{name} {start}: CS:IP and BP sequence");
            assert_eq!(
                w.end,
                StepError::End(th.stop.clone()),
                "{name} {start}: the walk ends as the ToolHelp walk ends"
            );
            assert_eq!(w.frames.len(), th.frames.len());
            for (i, f) in w.frames.iter().enumerate() {
                let e = &th.frames[i];
                // AddrPC and AddrFrame name the entry's CS:IP and SS:BP.
                let (pc_mode, fr_mode) = (f.addr_pc.mode, f.addr_frame.mode);
                if start == Start::Native {
                    assert_eq!(pc_mode, native_mode);
                    assert_eq!(
                        (f.addr_pc.segment, f.addr_pc.offset),
                        (e.w_cs, u64::from(e.w_ip)),
                        "{name} frame {i}"
                    );
                    assert_eq!(
                        (f.addr_frame.segment, f.addr_frame.offset),
                        (e.w_ss, u64::from(e.w_bp)),
                        "{name} frame {i}"
                    );
                } else {
                    assert_eq!((pc_mode, fr_mode), (3, 3));
                    let lin = |seg: u16, off: u16| {
                        toolhelp16::walk::stackframe::native_linear(mem, seg, off).unwrap()
                    };
                    assert_eq!(f.addr_pc.offset, u64::from(lin(e.w_cs, e.w_ip)));
                    assert_eq!(f.addr_frame.offset, u64::from(lin(e.w_ss, e.w_bp)));
                }
                // Far is the next entry's wFlags (stackframe.rs, "What each
                // member means").
                if let Some(n) = th.frames.get(i + 1) {
                    assert_eq!(
                        f.is_far(),
                        n.w_flags == StackTraceEntry::FRAME_FAR,
                        "{name} {start} frame {i}: Far against entry {}'s wFlags",
                        i + 1
                    );
                    let ret = linear_address(mem, Field::AddrReturn, &f.addr_return).unwrap();
                    let next_pc = linear_address(mem, Field::AddrPC, &w.frames[i + 1].addr_pc);
                    assert_eq!(Ok(ret), next_pc, "{name} frame {i}: AddrReturn");
                }
                assert_eq!(
                    f.is_virtual(),
                    th.virtual_frames.contains(&i),
                    "{name} frame {i}: Virtual"
                );
                virtual_seen += usize::from(f.is_virtual());
                assert_eq!(f.reserved, [0; 3]);
                assert_eq!(f.func_table_entry, 0);
            }
        }
        let i = p.stackframe_walk(stop, Start::IStackWalker).unwrap();
        assert!(i.frames.is_empty(), "{name}");
        assert_eq!(
            i.end.to_string(),
            "the first step fails: AddrFrame is AddrMode1616 with selector 0x0000: null selector",
            "{name}"
        );
    }
    assert!(
        virtual_seen >= 2,
        "a dispatch frame in faultskip, native and flat"
    );
}

/// The back trace of every stop for a grid of (skip, max).
fn traces(stops: &[(String, Program, Stop)]) -> Vec<(String, BackTrace)> {
    let mut out = Vec::new();
    for (name, p, stop) in stops {
        let w = p.walk_at_stop(stop).unwrap();
        let n = w.frames.len();
        for skip in 0..=n.min(6) {
            for max in [None, Some(0), Some(1), Some(2), Some(3), Some(n)] {
                out.push((
                    format!("{name} skip {skip} max {max:?}"),
                    backtrace::capture_walk(&w, skip, max),
                ));
            }
        }
    }
    out
}

#[test]
fn hashes_are_equal_for_identical_traces_and_differ_otherwise() {
    let stops = all_stops();
    let all = traces(&stops);
    // Identical traces: a second run of every stop gives the same traces
    // and hashes, for every window.
    let again = traces(&all_stops());
    assert_eq!(all.len(), again.len());
    for ((n, a), (_, b)) in all.iter().zip(&again) {
        assert_eq!(a, b, "{n}: a second run");
    }
    for (name, t) in &all {
        assert_eq!(t.hash, backtrace::hash(&t.addresses), "{name}");
    }
    // A trace that differs from another in any one frame hashes
    // differently: change each frame of each scenario's whole trace to
    // every address another scenario's trace holds.
    let whole: Vec<(&String, &BackTrace)> = all
        .iter()
        .filter(|(n, _)| n.ends_with("skip 0 max None"))
        .map(|(n, t)| (n, t))
        .collect();
    assert_eq!(whole.len(), stops.len());
    let pool: Vec<u32> = whole
        .iter()
        .flat_map(|(_, t)| t.addresses.iter().copied())
        .collect();
    let mut changed = 0;
    for (name, t) in &whole {
        for i in 0..t.addresses.len() {
            for &other in &pool {
                if other == t.addresses[i] {
                    continue;
                }
                let mut a = t.addresses.clone();
                a[i] = other;
                assert_ne!(backtrace::hash(&a), t.hash, "{name}: frame {i} changed");
                changed += 1;
            }
        }
    }
    assert!(changed > 1000, "{changed} changed traces");
    // The whole traces of all scenarios: distinct traces, distinct hashes.
    let mut by_hash: BTreeMap<u32, (&Vec<u32>, &str)> = BTreeMap::new();
    for (name, t) in &whole {
        match by_hash.get(&t.hash) {
            Some((addrs, other)) => assert_eq!(
                *addrs, &t.addresses,
                "{name} and {other} differ but share the hash {:08X}",
                t.hash
            ),
            None => {
                by_hash.insert(t.hash, (&t.addresses, name));
            }
        }
    }
    assert!(
        by_hash.len() >= 20,
        "{} distinct whole traces",
        by_hash.len()
    );
    // The addresses are the frames' CS:IP, packed CS high.
    let (_, p, stop) = stops.iter().find(|(n, ..)| n == "demo").unwrap();
    let w = p.walk_at_stop(stop).unwrap();
    let bt = backtrace::capture_walk(&w, 1, Some(2));
    assert_eq!(
        bt.addresses,
        w.frames[1..3]
            .iter()
            .map(|f| u32::from(f.w_cs) << 16 | u32::from(f.w_ip))
            .collect::<Vec<_>>()
    );
}

#[test]
fn stack_skip_and_max_capture_the_back_trace_in_json_and_text() {
    let run = |extra: &[&str]| {
        bin()
            .current_dir(root())
            .args(["stack", "--at", "DEMO:1:003A"])
            .args(extra)
            .arg("roms/demo.exe")
            .output()
            .unwrap()
    };
    let full = json(&run(&["--json"]));
    let frames = full["frames"].as_array().unwrap();
    let packed: Vec<u64> = frames
        .iter()
        .map(|f| f["wCS"].as_u64().unwrap() << 16 | f["wIP"].as_u64().unwrap())
        .collect();
    let bt = &full["backtrace"];
    assert_eq!(bt["skip"], 0);
    assert!(bt["max"].is_null());
    assert_eq!(bt["count"], 4);
    assert_eq!(bt["addresses"].as_array().unwrap().len(), 4);
    let sum = packed.iter().sum::<u64>() & 0xFFFF_FFFF;
    assert_eq!(bt["hash"], sum);
    let out = run(&["--json", "--skip", "1", "--max-frames", "2"]);
    assert!(out.status.success());
    let v = json(&out);
    let bt = &v["backtrace"];
    assert_eq!(
        (bt["skip"].as_u64(), bt["max"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(bt["count"], 2);
    let want: Vec<u64> = packed[1..3].to_vec();
    let got: Vec<u64> = bt["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(bt["hash"], (want[0] + want[1]) & 0xFFFF_FFFF);
    assert_eq!(v["frames"], full["frames"], "the walk itself is unchanged");
    // Text: the hash and each address.
    let out = run(&["--skip", "1", "--max-frames", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = format!(
        "back trace (RtlCaptureStackBackTrace, skip 1, max 2): 2 address(es), hash 0x{:08X}",
        (want[0] + want[1]) & 0xFFFF_FFFF
    );
    assert!(text.contains(&line), "{text}");
    assert!(
        text.contains(&format!(
            "  {:08X}  {:04X}:{:04X}",
            want[0],
            want[0] >> 16,
            want[0] & 0xFFFF
        )),
        "{text}"
    );
    // Skipping past the end stores nothing; the hash of nothing is 0.
    let v = json(&run(&["--json", "--skip", "9"]));
    assert_eq!(v["backtrace"]["count"], 0);
    assert_eq!(v["backtrace"]["hash"], 0);
}

#[test]
fn real_mode_scenarios_walk_in_addrmodereal() {
    let sc = expect_scenarios()
        .into_iter()
        .find(|s| s.name == "comchain")
        .unwrap();
    let (p, stop, _) = run_scenario(&sc);
    assert_eq!(p.machine.cpu_mode(), CpuMode::Real);
    let w = p.stackframe_walk(&stop, Start::Native).unwrap();
    assert_eq!(w.frames.len(), 5);
    for f in &w.frames {
        assert_eq!(f.addr_pc.mode, AddrMode::Real.value());
        assert_eq!(f.addr_stack.mode, AddrMode::Real.value());
    }
    // The odd-BP far frame: the frame it returns from is Far; the
    // unmarked far call (PlainFar) is near in real mode (roms/README.md).
    let far: Vec<bool> = w.frames.iter().map(|f| f.is_far()).collect();
    assert_eq!(far, [false, false, false, true, false]);
}
