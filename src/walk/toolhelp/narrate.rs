//! Narration: each rule of the walk as `stack --explain` tells it.

use std::fmt;

use super::{FrameKind, NextFailure, StackTraceEntry, StopReason};

/// Hears each rule of toolhelp.md as a walk applies it ([`Rule`]): the
/// walk functions ending in `_narrated` report to one, so `stack
/// --explain` narrates the very steps the walk took. `()` hears nothing;
/// a `Vec<Rule>` keeps them all.
pub trait Narrator {
    /// One rule applied (or failed).
    fn rule(&mut self, rule: Rule);
}

impl Narrator for () {
    #[inline]
    fn rule(&mut self, _rule: Rule) {}
}

impl Narrator for Vec<Rule> {
    fn rule(&mut self, rule: Rule) {
        self.push(rule);
    }
}

/// One rule of toolhelp.md as the walk applied it, with the values it saw.
/// Each StackTraceNext call tells steps 1 to 6 in the spec's order as they
/// pass ([`Rule::NextSize`] .. [`Rule::NextDone`]), or stops at
/// [`Rule::NextFails`]. Display gives the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// StackTraceCSIPFirst ("StackTraceCSIPFirst"): the entry as it filled
    /// it from registers.
    CsipFirst {
        /// The STACKTRACEENTRY as filled.
        entry: StackTraceEntry,
    },
    /// StackTraceNext step 1 passed: dwSize is 0x14.
    NextSize,
    /// Step 2 passed: SI = `bp`, SI + 6 = `end` neither wraps nor passes
    /// the stack segment's `limit`.
    NextLimit {
        /// The frame's BP.
        bp: u16,
        /// BP + 6.
        end: u32,
        /// The segment's limit.
        limit: u32,
    },
    /// Step 3: the three words of the frame at SS:`bp`.
    NextRead {
        /// The frame's BP.
        bp: u16,
        /// The saved BP read at SS:BP (the next frame's BP).
        next: u16,
        /// The word at BP+2: the return IP.
        ip: u16,
        /// The word at BP+4: the caller's CS if the frame is far.
        candidate: u16,
    },
    /// Step 4 passed: `next` is not 0, is above SI = `bp`, and lies in
    /// `[top, bot)` = [pStackTop, pStackBot).
    NextClimbs {
        /// The frame's BP.
        bp: u16,
        /// The saved BP read at SS:BP (the next frame's BP).
        next: u16,
        /// pStackTop: the lowest offset the stack may use.
        top: u32,
        /// pStackBot: the offset just above the stack.
        bot: u32,
    },
    /// Step 5: far or near, and why (`cs`: the caller's wCS).
    NextKind {
        /// The saved BP read at SS:BP (the next frame's BP).
        next: u16,
        /// The word at BP+2: the return IP.
        ip: u16,
        /// The word at BP+4: the caller's CS if the frame is far.
        candidate: u16,
        /// The CS decided.
        cs: u16,
        /// The decision and its reason.
        kind: FrameKind,
    },
    /// Step 6: the new entry, hModule and wSegment filled.
    NextDone {
        /// The STACKTRACEENTRY as filled.
        entry: StackTraceEntry,
    },
    /// StackTraceNext failed on this rule; the structure is untouched.
    NextFails(NextFailure),
    /// toolhelp16's real-mode rule ([`no_chain_at_start`]): the first
    /// frame's BP is 0, so there is no chain and StackTraceNext is not
    /// called; `word` is what SS:0000 holds (what it would have read).
    NoChain {
        /// The word at SS:0000, when readable.
        word: Option<u16>,
    },
    /// The walk ended with `frames` frames, for `stop`.
    WalkEnds {
        /// Frames in the walk.
        frames: usize,
        /// Why it stopped.
        stop: StopReason,
    },
    /// Frame `index` is TOOLHELP's fault dispatch frame (walk/dispatch.rs):
    /// the fault frame lies at SS:`at`, whose words +0A and +0C are the
    /// faulting IP and CS; the walk goes back to that frame and on from
    /// the faulting CS:IP with the BP at the fault, `bp`.
    Dispatch {
        /// The frame's index in the walk.
        index: usize,
        /// Where: the offset (or line) it was found at.
        at: u16,
        /// The word at BP+2: the return IP.
        ip: u16,
        /// The CS decided.
        cs: u16,
        /// The frame's BP.
        bp: u16,
    },
}

impl fmt::Display for FrameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameKind::OddMarker => write!(f, "odd (the Windows far-call marker)"),
            FrameKind::EvenFar { limit } => write!(
                f,
                "even, and the candidate CS has the caller's RPL, is a present code segment and its limit {limit:04X} is above IP"
            ),
            FrameKind::EvenRealMode => write!(
                f,
                "even, in real mode: no descriptor to check the candidate CS against"
            ),
            FrameKind::EvenRplDiffers {
                candidate_rpl,
                caller_rpl,
            } => write!(
                f,
                "even, and the candidate CS has RPL {candidate_rpl}, not the caller's RPL {caller_rpl}"
            ),
            FrameKind::EvenNoDescriptor => {
                write!(f, "even, and the candidate CS names no descriptor")
            }
            FrameKind::EvenNotPresent => write!(
                f,
                "even, and the candidate CS names a segment that is not present"
            ),
            FrameKind::EvenNotCode { access } => write!(
                f,
                "even, and the candidate CS names a data or system segment (access {access:02X}), not code"
            ),
            FrameKind::EvenLimitNotAboveIp { limit } => write!(
                f,
                "even, and the candidate code segment's limit {limit:04X} is not above IP"
            ),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::CsipFirst { entry: e } => write!(
                f,
                "StackTraceCSIPFirst: wSS {:04X}, wCS {:04X}, wIP {:04X} and wBP {:04X} are copied as given \
                 (BP is neither masked nor checked); hTask = the current task {:04X}; StackTraceInfo: \
                 hModule {:04X}, wSegment {}; wFlags is not written (it stays {}, {})",
                e.w_ss,
                e.w_cs,
                e.w_ip,
                e.w_bp,
                e.h_task,
                e.h_module,
                e.w_segment,
                e.w_flags,
                flags_name(e.w_flags)
            ),
            Rule::NextSize => write!(f, "step 1: dwSize is 0x14"),
            Rule::NextLimit { bp, end, limit } => write!(
                f,
                "step 2: SI = wBP = {bp:04X}; SI + 6 = {end:04X} does not wrap past FFFF and lies within \
                 the stack segment's limit {limit:04X}"
            ),
            Rule::NextRead {
                bp,
                next,
                ip,
                candidate,
            } => write!(
                f,
                "step 3: next = [SS:{bp:04X}] = {next:04X}, IP = [SS:{:04X}] = {ip:04X}, \
                 candidate CS = [SS:{:04X}] = {candidate:04X}",
                bp.wrapping_add(2),
                bp.wrapping_add(4)
            ),
            Rule::NextClimbs { bp, next, top, bot } => {
                write!(
                    f,
                    "step 4: next {next:04X} is not 0, climbs above SI {bp:04X}, and lies in \
                     [{top:04X}, {bot:04X}) = [pStackTop, pStackBot)"
                )?;
                if (*top, *bot) == (0, 0x1_0000) {
                    write!(f, " (real mode: the whole segment)")?;
                }
                Ok(())
            }
            Rule::NextKind {
                next,
                ip,
                candidate,
                cs,
                kind,
            } => {
                write!(f, "step 5: saved BP {next:04X} is {kind}: ")?;
                match kind {
                    FrameKind::OddMarker => write!(
                        f,
                        "a far frame; CS = [BP+4] = {candidate:04X}, IP = [BP+2] = {ip:04X}, \
                         next BP = {next:04X} & ~1 = {:04X}",
                        next & !1
                    ),
                    FrameKind::EvenFar { .. } => write!(
                        f,
                        "a far frame; CS = [BP+4] = {candidate:04X}, IP = [BP+2] = {ip:04X}"
                    ),
                    _ => write!(
                        f,
                        "a near frame; CS stays {cs:04X} ([BP+4] = {candidate:04X} is not a return CS), \
                         IP = [BP+2] = {ip:04X}"
                    ),
                }
            }
            Rule::NextDone { entry: e } => write!(
                f,
                "step 6: wSS = {:04X}, wBP = {:04X}; StackTraceInfo: hModule {:04X}, wSegment {}; TRUE",
                e.w_ss, e.w_bp, e.h_module, e.w_segment
            ),
            Rule::NextFails(e) => write!(
                f,
                "step {} FAILS: {e}; StackTraceNext returns FALSE and leaves the structure untouched",
                e.step()
            ),
            Rule::NoChain { word } => {
                write!(
                    f,
                    "real mode and BP is 0: no frame chain, so StackTraceNext is not called. This \
                     is toolhelp16's rule for DOS, not TOOLHELP's (TOOLHELP ran only in protected \
                     mode, where SS:0000 is 0 and ends the chain by itself; docs/walk.md, \
                     \"DOS and real mode\"): a program starts with BP = 0, and code that builds no \
                     frame keeps it"
                )?;
                match word {
                    Some(w) => write!(
                        f,
                        ", and SS:0000 = {w:04X} is the start of the segment, not a saved BP"
                    ),
                    None => Ok(()),
                }
            }
            Rule::WalkEnds { frames, stop } => {
                write!(f, "the walk ends with {frames} frame(s): {stop}")
            }
            Rule::Dispatch {
                index,
                at,
                ip,
                cs,
                bp,
            } => write!(
                f,
                "frame {index} is TOOLHELP's fault dispatch frame (its CS:IP is TOOLHELP's pass-on \
                 address): the fault frame lies at SS:{at:04X}, the faulting IP = [+0A] = {ip:04X} and \
                 CS = [+0C] = {cs:04X}; a good walker drops what StackTraceNext found past frame {index} \
                 and goes on from the faulting CS:IP with the BP at the fault, {bp:04X}"
            ),
        }
    }
}

/// "far" or "near" for a wFlags value (anything but FRAME_NEAR is far, as
/// the walk reads it).
fn flags_name(flags: u16) -> &'static str {
    if flags == StackTraceEntry::FRAME_NEAR {
        "near"
    } else {
        "far"
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::super::{
        even_frame_kind, stack_trace_next_narrated, walk_from_csip, walk_from_csip_narrated,
    };
    use super::*;
    use crate::walk::memory::Descriptor;
    use crate::walk::testmem::{StackCursor, TestMemory};

    // ---- Narration (stack --explain) -----------------------------------

    /// The rules a walk told, as short names in the order told.
    fn rule_names(rules: &[Rule]) -> Vec<&'static str> {
        rules
            .iter()
            .map(|r| match r {
                Rule::CsipFirst { .. } => "csip",
                Rule::NextSize => "1",
                Rule::NextLimit { .. } => "2",
                Rule::NextRead { .. } => "3",
                Rule::NextClimbs { .. } => "4",
                Rule::NextKind { .. } => "5",
                Rule::NextDone { .. } => "6",
                Rule::NextFails(_) => "fails",
                Rule::WalkEnds { .. } => "ends",
                Rule::NoChain { .. } => "no-chain",
                Rule::Dispatch { .. } => "dispatch",
            })
            .collect()
    }

    #[test]
    fn narration_tells_every_rule_in_the_spec_order_and_the_same_walk() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let a = m.push_near_frame(&mut cur, 0x0011);
        let b = m.push_far_frame(&mut cur, CS1, 0x0122, true);
        let c = m.push_near_frame(&mut cur, 0x0233);
        let d = m.push_far_frame(&mut cur, CS2, 0x0344, false);
        let mut rules = Vec::new();
        let w = walk_from_csip_narrated(&m, SS, CS1, 0x0500, d, 100, &mut rules);
        assert_eq!(w, walk_from_csip(&m, SS, CS1, 0x0500, d, 100));
        assert_eq!(w.frames.len(), 4);
        let mut want = vec!["csip"];
        for _ in 1..w.frames.len() {
            want.extend(["1", "2", "3", "4", "5", "6"]);
        }
        // The last call: [a] = 0, so step 4 fails after steps 1-3.
        want.extend(["1", "2", "3", "fails", "ends"]);
        assert_eq!(rule_names(&rules), want);
        // Each step 6 is the frame the walk kept.
        let done: Vec<StackTraceEntry> = rules
            .iter()
            .filter_map(|r| match r {
                Rule::NextDone { entry } => Some(*entry),
                _ => None,
            })
            .collect();
        assert_eq!(done, w.frames[1..]);
        // Step 5's reasons: d's saved BP is even with a valid far CS, c's
        // is even with a return IP as candidate, b's is odd.
        let kinds: Vec<FrameKind> = rules
            .iter()
            .filter_map(|r| match r {
                Rule::NextKind { kind, .. } => Some(*kind),
                _ => None,
            })
            .collect();
        assert!(matches!(kinds[0], FrameKind::EvenFar { limit: 0x3FF }));
        assert!(matches!(kinds[1], FrameKind::EvenRplDiffers { .. }));
        assert_eq!(kinds[2], FrameKind::OddMarker);
        assert_eq!(
            rules.last(),
            Some(&Rule::WalkEnds {
                frames: 4,
                stop: StopReason::Next(NextFailure::EndOfChain { bp: a })
            })
        );
        let _ = (b, c);
    }

    #[test]
    fn narration_sentences_give_the_values_the_rules_saw() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0701, 0x0027, CS2);
        let mut rules = Vec::new();
        let mut e = ste(0x600);
        assert_eq!(stack_trace_next_narrated(&m, &mut e, &mut rules), Ok(()));
        let text: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        assert_eq!(text[0], "step 1: dwSize is 0x14");
        assert!(text[1].contains("SI + 6 = 0606") && text[1].contains("limit 0FFF"));
        assert!(
            text[2].contains("[SS:0600] = 0701")
                && text[2].contains("IP = [SS:0602] = 0027")
                && text[2].contains("candidate CS = [SS:0604] = 102F"),
            "{}",
            text[2]
        );
        assert!(text[3].contains("[0200, 0FF0) = [pStackTop, pStackBot)"));
        assert_eq!(
            text[4],
            "step 5: saved BP 0701 is odd (the Windows far-call marker): a far frame; \
             CS = [BP+4] = 102F, IP = [BP+2] = 0027, next BP = 0701 & ~1 = 0700"
        );
        assert!(text[5].contains("wBP = 0700") && text[5].contains("hModule 1046"));
        // A failure is told with its step and leaves the rest untold.
        let mut rules = Vec::new();
        let mut e = ste(0x600);
        frame(&mut m, 0x600, 0x0500, 0x0027, CS2);
        assert!(stack_trace_next_narrated(&m, &mut e, &mut rules).is_err());
        let last = rules.last().unwrap().to_string();
        assert!(
            last.starts_with("step 4 FAILS: saved BP 0500 at SS:0600 does not climb"),
            "{last}"
        );
    }

    #[test]
    fn narration_says_why_an_even_frame_is_near() {
        let mut m = machine();
        let kind = |m: &TestMemory, cand: u16, ip: u16| {
            let mut rules = Vec::new();
            let mut m2 = m.clone();
            frame(&mut m2, 0x600, 0x0700, ip, cand);
            let mut e = ste(0x600);
            stack_trace_next_narrated(&m2, &mut e, &mut rules).unwrap();
            rules
                .iter()
                .find_map(|r| match r {
                    Rule::NextKind { kind, .. } => Some(*kind),
                    _ => None,
                })
                .unwrap()
        };
        assert_eq!(
            kind(&m, CS2 & !3, 0x10),
            FrameKind::EvenRplDiffers {
                candidate_rpl: 0,
                caller_rpl: 3
            }
        );
        assert_eq!(kind(&m, 0x1F07, 0x10), FrameKind::EvenNoDescriptor);
        assert_eq!(kind(&m, CS_NP, 0x10), FrameKind::EvenNotPresent);
        assert_eq!(
            kind(&m, DS, 0x10),
            FrameKind::EvenNotCode {
                access: Descriptor::DATA_R3
            }
        );
        assert_eq!(
            kind(&m, CS2, 0x3FF),
            FrameKind::EvenLimitNotAboveIp { limit: 0x3FF }
        );
        assert_eq!(kind(&m, CS2, 0x3FE), FrameKind::EvenFar { limit: 0x3FF });
        for k in [
            FrameKind::EvenRplDiffers {
                candidate_rpl: 0,
                caller_rpl: 3,
            },
            FrameKind::EvenNoDescriptor,
            FrameKind::EvenNotPresent,
            FrameKind::EvenLimitNotAboveIp { limit: 0x3FF },
        ] {
            assert!(!k.is_far());
            let r = Rule::NextKind {
                next: 0x700,
                ip: 0x10,
                candidate: 0x102C,
                cs: CS1,
                kind: k,
            };
            assert!(r.to_string().contains("a near frame; CS stays 1027"), "{r}");
        }
        m = real_machine();
        assert_eq!(even_frame_kind(&m, RCS, RCS, 0x10), FrameKind::EvenRealMode);
    }
}
