//! Whole walks: StackTraceFirst or StackTraceCSIPFirst, then StackTraceNext
//! until it fails, and why the walk stopped.

use std::fmt;

use serde::Serialize;

use super::{
    FirstFailure, Narrator, NextFailure, Rule, StackTraceEntry, no_chain_at_start,
    stack_trace_csip_first, stack_trace_first_explained, stack_trace_next_narrated,
};
use crate::walk::memory::WalkMemory;

/// Why a walk stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// StackTraceFirst refused the task (no frames).
    First(FirstFailure),
    /// StackTraceNext failed: the rule that ended the chain.
    Next(NextFailure),
    /// `max_frames` frames were collected and StackTraceNext had another.
    FrameCap {
        /// The most frames the walk collects.
        max: usize,
    },
    /// StackTraceNext succeeded without moving BP (a saved BP equal to its
    /// own even BP + 1): it would return this last frame forever, so the
    /// walk stops. Not a StackTraceNext failure; see
    /// [`stack_trace_next_explained`].
    Stalled {
        /// The frame's BP.
        bp: u16,
    },
    /// Real mode, BP = 0 at the start: no frame chain (toolhelp16's rule,
    /// [`no_chain_at_start`]; StackTraceNext was not called).
    NoChain,
}

impl StopReason {
    /// A short name for the rule that ended the walk, as the `.expect`
    /// files and the snapshot `expect.end` member write it:
    /// `end-of-chain`, `not-climbing`, `out-of-bounds`, `no-bounds`,
    /// `beyond-limit`, `bp-wraps`, `unreadable`, `bad-size` (StackTraceNext
    /// steps 1-4), `stalled`, `frame-cap`, `no-task` (StackTraceFirst
    /// refused the task), or `no-chain` (real mode, BP = 0 at the start).
    pub fn kind(&self) -> &'static str {
        match self {
            StopReason::First(_) => "no-task",
            StopReason::Next(n) => match n {
                NextFailure::BadSize { .. } => "bad-size",
                NextFailure::BpWraps { .. } => "bp-wraps",
                NextFailure::BeyondLimit { .. } => "beyond-limit",
                NextFailure::Unreadable { .. } => "unreadable",
                NextFailure::EndOfChain { .. } => "end-of-chain",
                NextFailure::NotClimbing { .. } => "not-climbing",
                NextFailure::OutOfBounds { .. } => "out-of-bounds",
                NextFailure::NoBounds { .. } => "no-bounds",
            },
            StopReason::FrameCap { .. } => "frame-cap",
            StopReason::Stalled { .. } => "stalled",
            StopReason::NoChain => "no-chain",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::First(e) => write!(f, "StackTraceFirst step {} fails: {e}", e.step()),
            StopReason::Next(e) => write!(f, "StackTraceNext step {} fails: {e}", e.step()),
            StopReason::FrameCap { max } => write!(
                f,
                "stopped after {max} frames (the frame cap); the chain goes on"
            ),
            StopReason::Stalled { bp } => write!(
                f,
                "saved BP at SS:{bp:04X} is {:04X}, an odd far marker for this same frame: StackTraceNext would \
                 return this frame forever",
                bp | 1
            ),
            StopReason::NoChain => write!(
                f,
                "BP is 0 in real mode: no frame chain (toolhelp16's rule for DOS; StackTraceNext \
                 is not called)"
            ),
        }
    }
}

fn serialize_display<T: fmt::Display, S: serde::Serializer>(
    v: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// The frames of a walk and why it stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Walk {
    /// The first frame (StackTraceFirst or StackTraceCSIPFirst), then one
    /// per successful StackTraceNext.
    pub frames: Vec<StackTraceEntry>,
    /// Why there are no more (serialized as its sentence).
    #[serde(serialize_with = "serialize_display")]
    pub stop: StopReason,
    /// Indices of frames that are not a function's activation but a frame
    /// a system routine built (a fault dispatch frame, see
    /// [`crate::walk::dispatch`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub virtual_frames: Vec<usize>,
}

impl Walk {
    /// Does frame `i` hold the CS:IP that was running, not a return
    /// address: the first frame, or a fault dispatch frame (the faulting
    /// CS:IP)?
    pub fn exact_at(&self, i: usize) -> bool {
        i == 0 || self.virtual_frames.contains(&i)
    }
}

/// Walk any stack from registers: StackTraceCSIPFirst, then StackTraceNext
/// until it fails, at most `max_frames` frames in all.
///
/// The chain strictly climbs, so a walk ends by itself within 32768 frames
/// (after the first step every BP is even); the one exception is the
/// fixed point described at [`stack_trace_next_explained`], reported as
/// [`StopReason::Stalled`] after its frame was collected once.
pub fn walk_from_csip(
    mem: &dyn WalkMemory,
    ss: u16,
    cs: u16,
    ip: u16,
    bp: u16,
    max_frames: usize,
) -> Walk {
    walk_from_csip_narrated(mem, ss, cs, ip, bp, max_frames, &mut ())
}

/// [`walk_from_csip`], telling `narrator` every rule applied
/// ([`Rule::CsipFirst`], then each StackTraceNext's steps, then
/// [`Rule::WalkEnds`]).
pub fn walk_from_csip_narrated<N: Narrator + ?Sized>(
    mem: &dyn WalkMemory,
    ss: u16,
    cs: u16,
    ip: u16,
    bp: u16,
    max_frames: usize,
    narrator: &mut N,
) -> Walk {
    // Memory does not change during a walk (walk/cache.rs). The walk is
    // compiled for the cache's own type, so its reads are inlined.
    if mem.cacheable() {
        let cached = crate::walk::cache::Cached::new(mem);
        walk_csip_in(&cached, ss, cs, ip, bp, max_frames, narrator)
    } else {
        walk_csip_in(mem, ss, cs, ip, bp, max_frames, narrator)
    }
}

/// [`walk_from_csip_narrated`] over memory of type `M`.
fn walk_csip_in<M: WalkMemory + ?Sized, N: Narrator + ?Sized>(
    mem: &M,
    ss: u16,
    cs: u16,
    ip: u16,
    bp: u16,
    max_frames: usize,
    narrator: &mut N,
) -> Walk {
    let mut ste = StackTraceEntry::default();
    // Cannot fail: dwSize is 0x14 by construction.
    stack_trace_csip_first(mem, &mut ste, ss, cs, ip, bp);
    narrator.rule(Rule::CsipFirst { entry: ste });
    if no_chain_at_start(mem, &ste) && max_frames > 0 {
        narrator.rule(Rule::NoChain {
            word: mem.read_u16(ss, 0).ok(),
        });
        narrator.rule(Rule::WalkEnds {
            frames: 1,
            stop: StopReason::NoChain,
        });
        return Walk {
            frames: vec![ste],
            stop: StopReason::NoChain,
            virtual_frames: Vec::new(),
        };
    }
    walk_on(mem, ste, max_frames, narrator)
}

/// Walk a task that is not running: StackTraceFirst, then StackTraceNext
/// until it fails, at most `max_frames` frames in all. If StackTraceFirst
/// fails the walk has no frames and says why.
pub fn walk_task(mem: &dyn WalkMemory, h_task: u16, max_frames: usize) -> Walk {
    // Memory does not change during a walk (walk/cache.rs).
    let cached = crate::walk::cache::Cached::new(mem);
    let mem: &dyn WalkMemory = if mem.cacheable() { &cached } else { mem };
    let mut ste = StackTraceEntry::default();
    match stack_trace_first_explained(mem, &mut ste, h_task) {
        Ok(()) => walk_on(mem, ste, max_frames, &mut ()),
        Err(e) => Walk {
            frames: Vec::new(),
            stop: StopReason::First(e),
            virtual_frames: Vec::new(),
        },
    }
}

fn walk_on<M: WalkMemory + ?Sized, N: Narrator + ?Sized>(
    mem: &M,
    mut ste: StackTraceEntry,
    max_frames: usize,
    narrator: &mut N,
) -> Walk {
    let (frames, stop) = collect_frames(mem, &mut ste, max_frames, narrator);
    narrator.rule(Rule::WalkEnds {
        frames: frames.len(),
        stop: stop.clone(),
    });
    Walk {
        frames,
        stop,
        virtual_frames: Vec::new(),
    }
}

/// The frames from `ste` on: it, then one per StackTraceNext, and why
/// they end.
fn collect_frames<M: WalkMemory + ?Sized, N: Narrator + ?Sized>(
    mem: &M,
    ste: &mut StackTraceEntry,
    max_frames: usize,
    narrator: &mut N,
) -> (Vec<StackTraceEntry>, StopReason) {
    // Room for a usual chain at once (no reallocation per few frames).
    let mut frames = Vec::with_capacity(max_frames.min(128));
    if max_frames == 0 {
        return (frames, StopReason::FrameCap { max: 0 });
    }
    frames.push(*ste);
    loop {
        let before = ste.w_bp;
        if let Err(e) = stack_trace_next_narrated(mem, ste, narrator) {
            return (frames, StopReason::Next(e));
        }
        if frames.len() >= max_frames {
            return (frames, StopReason::FrameCap { max: max_frames });
        }
        frames.push(*ste);
        if ste.w_bp <= before {
            return (frames, StopReason::Stalled { bp: ste.w_bp });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::super::{stack_trace_first, stack_trace_next_explained};
    use super::*;
    use crate::walk::memory::Descriptor;
    use crate::walk::testmem::{StackCursor, TestMemory};

    // ---- Whole walks --------------------------------------------------

    fn summary(w: &Walk) -> Vec<(u16, u16, u16, u16)> {
        w.frames
            .iter()
            .map(|f| (f.w_bp, f.w_cs, f.w_ip, f.w_flags))
            .collect()
    }

    #[test]
    fn walk_mixed_near_far_chain_to_bp_zero() {
        const FAR: u16 = StackTraceEntry::FRAME_FAR;
        const NEAR: u16 = StackTraceEntry::FRAME_NEAR;
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let a = m.push_near_frame(&mut cur, 0x0011); // startup (CS1) -> main (CS1)
        m.push_locals(&mut cur, 8);
        let b = m.push_far_frame(&mut cur, CS1, 0x0122, true); // main -> f (CS2), odd BP
        let c = m.push_near_frame(&mut cur, 0x0233); // f -> g (CS2)
        m.push_locals(&mut cur, 2);
        let d = m.push_far_frame(&mut cur, CS2, 0x0344, false); // g -> h (CS1), even BP
        let e = m.push_near_frame(&mut cur, 0x0455); // h -> k (CS1)
        let w = walk_from_csip(&m, SS, CS1, 0x0500, e, 100);
        assert_eq!(
            summary(&w),
            vec![
                (e, CS1, 0x0500, FAR), // CSIPFirst leaves wFlags: the default 0
                (d, CS1, 0x0455, NEAR),
                (c, CS2, 0x0344, FAR),
                (b, CS2, 0x0233, NEAR),
                (a, CS1, 0x0122, FAR),
            ]
        );
        assert_eq!(w.stop, StopReason::Next(NextFailure::EndOfChain { bp: a }));
        let modules: Vec<_> = w.frames.iter().map(|f| (f.h_module, f.w_segment)).collect();
        assert_eq!(
            modules,
            vec![
                (0x1036, 2),
                (0x1036, 2),
                (0x1046, 1),
                (0x1046, 1),
                (0x1036, 2)
            ]
        );
        assert!(w.frames.iter().all(|f| f.h_task == CUR && f.w_ss == SS));
        let json = serde_json::to_value(&w).unwrap();
        assert_eq!(json["frames"][2]["wCS"], CS2);
        assert!(json["stop"].as_str().unwrap().contains("is 0"));
    }

    #[test]
    fn walk_task_from_the_scheduler_frame() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let a = m.push_near_frame(&mut cur, 0x0011);
        let b = m.push_far_frame(&mut cur, CS1, 0x0122, true);
        let sp = m.push_scheduler_frame(&mut cur, CS2, 0x0233);
        m.add_task(TASK, 0x3_0000, SS, sp);
        let w = walk_task(&m, TASK, 100);
        assert_eq!(
            summary(&w),
            vec![
                (b, CS2, 0x0233, StackTraceEntry::FRAME_FAR),
                (a, CS1, 0x0122, StackTraceEntry::FRAME_FAR)
            ]
        );
        assert!(w.frames.iter().all(|f| f.h_task == TASK));
        assert_eq!(w.stop, StopReason::Next(NextFailure::EndOfChain { bp: a }));
        // The current task is refused: no frames.
        m.set_current_task(TASK);
        let w = walk_task(&m, TASK, 100);
        assert!(w.frames.is_empty());
        assert_eq!(
            w.stop,
            StopReason::First(FirstFailure::CurrentTask { h_task: TASK })
        );
    }

    #[test]
    fn walk_cycle_ends_not_climbing() {
        let mut m = machine();
        frame(&mut m, 0x400, 0x500, 0x0010, 0);
        frame(&mut m, 0x500, 0x400, 0x0020, 0);
        let w = walk_from_csip(&m, SS, CS1, 0, 0x400, 1000);
        assert_eq!(w.frames.len(), 2);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::NotClimbing {
                bp: 0x500,
                next: 0x400
            })
        );
    }

    #[test]
    fn walk_bp_going_down_ends() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x580, 0x0010, 0);
        let w = walk_from_csip(&m, SS, CS1, 0, 0x600, 1000);
        assert_eq!(w.frames.len(), 1);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::NotClimbing {
                bp: 0x600,
                next: 0x580
            })
        );
    }

    #[test]
    fn walk_bp_beyond_stack_bot_ends() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x700, 0x0010, 0);
        frame(&mut m, 0x700, BOT + 4, 0x0020, 0);
        let w = walk_from_csip(&m, SS, CS1, 0, 0x600, 1000);
        assert_eq!(w.frames.len(), 2);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::OutOfBounds {
                next: BOT + 4,
                top: TOP.into(),
                bot: BOT.into()
            })
        );
    }

    #[test]
    fn walk_bp_plus_6_past_the_limit_ends() {
        let mut m = machine();
        m.set_instance_data(SS, TOP, 0x1000);
        frame(&mut m, 0x600, LIMIT - 5, 0x0010, 0);
        let w = walk_from_csip(&m, SS, CS1, 0, 0x600, 1000);
        assert_eq!(w.frames.len(), 2);
        assert_eq!(w.frames[1].w_bp, LIMIT - 5);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::BeyondLimit {
                bp: LIMIT - 5,
                limit: LIMIT.into()
            })
        );
    }

    #[test]
    fn walk_100_deep_recursion_and_the_frame_cap() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let mut bps = Vec::new();
        for i in 0..100u16 {
            bps.push(m.push_near_frame(&mut cur, 0x0100 + i));
            m.push_locals(&mut cur, 4);
        }
        let w = walk_from_csip(&m, SS, CS1, 0x0050, cur.bp, 1000);
        assert_eq!(w.frames.len(), 100);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::EndOfChain { bp: bps[0] })
        );
        let got: Vec<u16> = w.frames.iter().map(|f| f.w_bp).collect();
        let want: Vec<u16> = bps.iter().rev().copied().collect();
        assert_eq!(got, want);
        assert!(
            w.frames[1..]
                .iter()
                .all(|f| f.w_flags == StackTraceEntry::FRAME_NEAR)
        );
        // Exactly 100 allowed: the chain ends by itself, no cap.
        let w = walk_from_csip(&m, SS, CS1, 0x0050, cur.bp, 100);
        assert_eq!(
            (w.frames.len(), w.stop.clone()),
            (
                100,
                StopReason::Next(NextFailure::EndOfChain { bp: bps[0] })
            )
        );
        let w = walk_from_csip(&m, SS, CS1, 0x0050, cur.bp, 3);
        assert_eq!(
            (w.frames.len(), w.stop),
            (3, StopReason::FrameCap { max: 3 })
        );
        let w = walk_from_csip(&m, SS, CS1, 0x0050, cur.bp, 0);
        assert_eq!(
            (w.frames.len(), w.stop),
            (0, StopReason::FrameCap { max: 0 })
        );
    }

    #[test]
    fn walk_stops_where_stack_trace_next_would_repeat_a_frame() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x800, 0x0010, 0);
        frame(&mut m, 0x800, 0x801, 0x0020, CS2); // odd marker pointing at itself
        // StackTraceNext itself, as the spec orders the checks, succeeds
        // with the same BP every time.
        let once = next_ok(&m, ste(0x800));
        assert_eq!((once.w_bp, once.w_cs, once.w_ip), (0x800, CS2, 0x0020));
        assert_eq!(next_ok(&m, once), once);
        let w = walk_from_csip(&m, SS, CS1, 0, 0x600, 1000);
        assert_eq!(w.frames.len(), 3);
        assert_eq!(w.stop, StopReason::Stalled { bp: 0x800 });
    }

    #[test]
    fn walk_longest_possible_chain_is_bounded() {
        // Real mode, every word links to the next: BP 2, 4, ... FFFA,
        // then FFFA + 6 wraps. (From BP 0 there would be no chain at all:
        // see real_mode_bp_0_at_the_start_has_no_chain.)
        let mut m = TestMemory::real();
        let bytes: Vec<u8> = (0..0x8000u32)
            .flat_map(|i| ((2 * i + 2) as u16).to_le_bytes())
            .collect();
        m.write_linear(u32::from(RSS) << 4, &bytes);
        let w = walk_from_csip(&m, RSS, RCS, 0, 2, 40_000);
        assert_eq!(w.frames.len(), 0x7FFD);
        assert_eq!(
            w.stop,
            StopReason::Next(NextFailure::BpWraps { bp: 0xFFFA })
        );
    }

    #[test]
    fn real_mode_bp_0_at_the_start_has_no_chain() {
        // A .COM program's segment: the PSP's INT 20h (CD 20) at SS:0000
        // would read as the odd saved BP 20CD, a far frame 9A00:A000 made
        // of the PSP's next words. toolhelp16's real-mode rule: no chain.
        let mut m = TestMemory::real();
        m.write_linear(u32::from(RSS) << 4, &[0xCD, 0x20, 0x00, 0xA0, 0x00, 0x9A]);
        let mut rules = Vec::new();
        let w = walk_from_csip_narrated(&m, RSS, RCS, 0x0103, 0, 100, &mut rules);
        assert_eq!(w.frames.len(), 1);
        assert_eq!(w.stop, StopReason::NoChain);
        assert_eq!(w.stop.kind(), "no-chain");
        assert_eq!((w.frames[0].w_cs, w.frames[0].w_ip), (RCS, 0x0103));
        assert_eq!(rules.get(1), Some(&Rule::NoChain { word: Some(0x20CD) }));
        assert!(
            !rules.iter().any(|r| matches!(r, Rule::NextSize)),
            "StackTraceNext was called: {rules:?}"
        );
        assert!(rules[1].to_string().contains("toolhelp16's rule"));
        // StackTraceNext itself keeps TOOLHELP's rules: from BP 0 it reads
        // SS:0000 as a saved BP, as it always did.
        let mut e = StackTraceEntry {
            w_ss: RSS,
            w_cs: RCS,
            ..StackTraceEntry::default()
        };
        assert_eq!(stack_trace_next_explained(&m, &mut e), Ok(()));
        assert_eq!((e.w_bp, e.w_cs, e.w_ip), (0x20CC, 0x9A00, 0xA000));
        // A BP other than 0 walks as before.
        let w = walk_from_csip(&m, RSS, RCS, 0x0103, 2, 100);
        assert!(matches!(w.stop, StopReason::Next(_)), "{:?}", w.stop);
    }

    #[test]
    fn protected_mode_bp_0_is_left_to_stack_trace_next() {
        // In protected mode SS:0000 is the instance data's word 0 (always
        // 0): StackTraceNext ends the chain by its own step 4.
        let m = machine();
        let w = walk_from_csip(&m, SS, CS1, 0x0100, 0, 100);
        assert_eq!(w.frames.len(), 1);
        assert_eq!(w.stop, StopReason::Next(NextFailure::EndOfChain { bp: 0 }));
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        /// A stack whose words are random or plausible links (a little
        /// above their own offset, sometimes odd), so chains get long.
        fn build(words: &[(bool, u16)], limit: u16, top: u16, bot: u16, real: bool) -> TestMemory {
            let mut m = if real { TestMemory::real() } else { machine() };
            let ss = if real { RSS } else { 0x10F7 };
            if !real {
                m.add_segment(ss, 0x10_0000, vec![], limit.into(), Descriptor::DATA_R3);
            }
            let mut bytes = Vec::with_capacity(words.len() * 2);
            for (i, &(link, v)) in words.iter().enumerate() {
                let off = (2 * i) as u16;
                let w = if link {
                    off.wrapping_add(2 + (v % 32))
                } else {
                    v
                };
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            m.write_bytes(ss, 0, &bytes);
            if !real {
                m.set_instance_data(ss, top, bot);
            }
            m
        }

        proptest! {
            #[test]
            fn random_stacks_never_panic_and_walks_terminate(
                words in proptest::collection::vec((any::<bool>(), any::<u16>()), 0..2048),
                limit in any::<u16>(),
                top in 0u16..0x400,
                bot in any::<u16>(),
                bp in any::<u16>(),
                cs in any::<u16>(),
                ip in any::<u16>(),
                real in any::<bool>(),
                h_task in any::<u16>(),
            ) {
                let m = build(&words, limit, top, bot, real);
                let ss = if real { RSS } else { 0x10F7 };
                let w = walk_from_csip(&m, ss, cs, ip, bp, 40_000);
                let mut rules = Vec::new();
                let told = walk_from_csip_narrated(&m, ss, cs, ip, bp, 40_000, &mut rules);
                prop_assert_eq!(&told, &w);
                let done = rules.iter().filter(|r| matches!(r, Rule::NextDone { .. })).count();
                prop_assert_eq!(done + 1, w.frames.len().max(1));
                for r in rules.iter().take(64) {
                    let _ = r.to_string();
                }
                prop_assert!(w.frames.len() <= 32_769);
                let capped = matches!(w.stop, StopReason::FrameCap { .. });
                prop_assert!(!capped);
                for pair in w.frames.windows(2) {
                    prop_assert!(pair[1].w_bp >= pair[0].w_bp);
                    prop_assert_eq!(pair[1].w_bp & 1, 0);
                }
                let _ = w.stop.to_string();
                // StackTraceFirst on any selector, with the stack as a TDB.
                let mut e = StackTraceEntry::default();
                let _ = stack_trace_first(&m, &mut e, h_task);
                let _ = stack_trace_first(&m, &mut e, ss);
                let _ = walk_task(&m, ss, 40_000);
            }
        }
    }
}
