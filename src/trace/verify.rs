//! `stack --verify`: the ToolHelp walk checked frame by frame against the
//! shadow call stack ([`super::shadow`]).
//!
//! A walk's first frame is the current CS:IP; every later frame's CS:IP is
//! a return address, which must be the return address of an activation
//! still running, innermost first. A frame right after a fault-dispatch
//! frame (walk/dispatch.rs) is the interrupted CS:IP, not a return address,
//! and is not compared. Disagreements are named:
//!
//! * **frameless** — activations the walk passed over: functions that keep
//!   no BP frame (or have not built it yet), whose callers the chain reaches
//!   directly;
//! * **far/near** — the walk's frame has the IP of a return address but
//!   another CS: a wrong far or near decision;
//! * **corrupt** — the frame returns where no running call returns: a BP
//!   chain that was overwritten or never was one;
//! * **early end** — the walk stopped while calls whose frames it should
//!   have seen were still running.
//!
//! Activations outer to the walk's last frame are expected when the chain
//! ended as the start-up code ends it (saved BP 0, or Windows' 1): their
//! frames lie beyond the chain's end by convention.

use super::shadow::Activation;

/// A running call: its function's entry CS:IP and its return CS:IP.
pub type Call = ((u16, u16), (u16, u16));
use crate::walk::{NextFailure, StopReason, Walk};

/// One disagreement.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Disagreement {
    /// The walk passed over these activations (entry CS:IP, return CS:IP).
    Frameless {
        /// The index of the walk frame concerned.
        frame: usize,
        /// The activations passed over: entry CS:IP and return CS:IP.
        skipped: Vec<Call>,
    },
    /// The walk's frame has the return IP but the wrong CS.
    FarNear {
        /// The index of the walk frame concerned.
        frame: usize,
        /// The CS the walk gave the frame.
        walk_cs: u16,
        /// The CS the running call returns to.
        true_cs: u16,
        /// The IP the walk gave.
        ip: u16,
    },
    /// The walk's frame returns where no running call returns.
    Corrupt {
        /// The index of the walk frame concerned.
        frame: usize,
        /// The CS the walk gave.
        cs: u16,
        /// The IP the walk gave.
        ip: u16,
        /// The BP of the frame.
        bp: u16,
    },
    /// The walk ended with these activations' frames unseen.
    EarlyEnd {
        /// The activations not walked: entry CS:IP and return CS:IP.
        unseen: Vec<((u16, u16), (u16, u16))>,
    },
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[Call]| {
            v.iter()
                .map(|(e, r)| {
                    format!(
                        "{:04X}:{:04X} (returns to {:04X}:{:04X})",
                        e.0, e.1, r.0, r.1
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Disagreement::Frameless { frame, skipped } => write!(
                f,
                "frame {frame}: the walk skipped {} running function(s) with no BP frame: {}",
                skipped.len(),
                list(skipped)
            ),
            Disagreement::FarNear {
                frame,
                walk_cs,
                true_cs,
                ip,
            } => write!(
                f,
                "frame {frame}: wrong far/near decision: the walk says {walk_cs:04X}:{ip:04X}, the call returns to {true_cs:04X}:{ip:04X}"
            ),
            Disagreement::Corrupt { frame, cs, ip, bp } => write!(
                f,
                "frame {frame}: a corrupted chain: BP {bp:04X} gives {cs:04X}:{ip:04X}, where no running call returns"
            ),
            Disagreement::EarlyEnd { unseen } => write!(
                f,
                "the walk ended with {} running call(s) unseen: {}",
                unseen.len(),
                list(unseen)
            ),
        }
    }
}

/// The comparison of a walk with the shadow stack.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// Per walk frame: true when it agrees.
    pub frames: Vec<bool>,
    /// What disagrees.
    pub disagreements: Vec<Disagreement>,
    /// Activations outer to the walk's end that the chain's end explains.
    pub beyond_end: usize,
}

impl Verdict {
    /// No disagreement.
    pub fn agrees(&self) -> bool {
        self.disagreements.is_empty()
    }
}

/// Did the walk end as the start-up code ends a chain?
fn ended_by_convention(stop: &StopReason) -> bool {
    matches!(
        stop,
        StopReason::Next(NextFailure::EndOfChain { .. })
            | StopReason::Next(NextFailure::NotClimbing { next: 1, .. })
    )
}

/// Compare `walk` (with its virtual frame indices) with `chain` (the
/// shadow stack of the walk's SS, outermost first).
pub fn verify(walk: &Walk, chain: &[Activation]) -> Verdict {
    let rets: Vec<&Activation> = chain.iter().rev().collect();
    let mut j = 0usize;
    let mut frames = Vec::new();
    let mut out = Vec::new();
    for (i, f) in walk.frames.iter().enumerate() {
        let context = i == 0 || (i > 0 && walk.virtual_frames.contains(&(i - 1)));
        if context {
            frames.push(true);
            continue;
        }
        let at = (f.w_cs, f.w_ip);
        if let Some(k) = (j..rets.len()).find(|&k| rets[k].ret == at) {
            if k > j {
                out.push(Disagreement::Frameless {
                    frame: i,
                    skipped: rets[j..k].iter().map(|a| (a.entry, a.ret)).collect(),
                });
            }
            frames.push(k == j);
            j = k + 1;
        } else if let Some(k) = (j..rets.len()).find(|&k| rets[k].ret.1 == f.w_ip) {
            out.push(Disagreement::FarNear {
                frame: i,
                walk_cs: f.w_cs,
                true_cs: rets[k].ret.0,
                ip: f.w_ip,
            });
            frames.push(false);
            j = k + 1;
        } else {
            out.push(Disagreement::Corrupt {
                frame: i,
                cs: f.w_cs,
                ip: f.w_ip,
                bp: f.w_bp,
            });
            frames.push(false);
        }
    }
    let rest = rets.len().saturating_sub(j);
    let mut beyond_end = 0;
    if rest > 0 {
        if ended_by_convention(&walk.stop) {
            beyond_end = rest;
        } else {
            out.push(Disagreement::EarlyEnd {
                unseen: rets[j..].iter().map(|a| (a.entry, a.ret)).collect(),
            });
        }
    }
    Verdict {
        frames,
        disagreements: out,
        beyond_end,
    }
}

#[cfg(test)]
mod tests {
    use super::super::shadow::How;
    use super::*;
    use crate::walk::StackTraceEntry;

    fn act(entry: (u16, u16), ret: (u16, u16), sp: u16) -> Activation {
        Activation {
            entry,
            ret,
            sp,
            how: How::NearCall,
        }
    }

    fn frame(cs: u16, ip: u16, bp: u16) -> StackTraceEntry {
        StackTraceEntry {
            w_cs: cs,
            w_ip: ip,
            w_bp: bp,
            ..StackTraceEntry::default()
        }
    }

    fn walk(frames: Vec<StackTraceEntry>) -> Walk {
        Walk {
            frames,
            stop: StopReason::Next(NextFailure::EndOfChain { bp: 0x9F8 }),
            virtual_frames: Vec::new(),
        }
    }

    // main (called from start at 1:0010) -> A (ret 1:0030) -> B (ret 1:0050)
    fn chain() -> Vec<Activation> {
        vec![
            act((1, 0x20), (1, 0x10), 0x9FA),
            act((1, 0x40), (1, 0x30), 0x9F0),
            act((1, 0x60), (1, 0x50), 0x9E0),
        ]
    }

    #[test]
    fn a_correct_chain_agrees_and_the_start_up_call_lies_beyond_its_end() {
        let w = walk(vec![
            frame(1, 0x62, 0x9DE),
            frame(1, 0x50, 0x9EE),
            frame(1, 0x30, 0x9F8),
        ]);
        let v = verify(&w, &chain());
        assert!(v.agrees(), "{v:?}");
        assert_eq!(v.beyond_end, 1);
    }

    #[test]
    fn a_frameless_function_is_named() {
        // B keeps no frame: the walk goes from B's IP to main's frame.
        let w = walk(vec![frame(1, 0x62, 0x9EE), frame(1, 0x30, 0x9F8)]);
        let v = verify(&w, &chain());
        assert_eq!(
            v.disagreements,
            [Disagreement::Frameless {
                frame: 1,
                skipped: vec![((1, 0x60), (1, 0x50))]
            }]
        );
    }

    #[test]
    fn a_wrong_cs_and_a_corrupt_frame_are_named() {
        let w = walk(vec![
            frame(1, 0x62, 0x9DE),
            frame(7, 0x50, 0x9EE),
            frame(1, 0x77, 0x9F8),
        ]);
        let v = verify(&w, &chain());
        assert_eq!(v.disagreements.len(), 2, "{v:?}");
        assert!(matches!(
            v.disagreements[0],
            Disagreement::FarNear {
                frame: 1,
                walk_cs: 7,
                true_cs: 1,
                ip: 0x50
            }
        ));
        assert!(matches!(
            v.disagreements[1],
            Disagreement::Corrupt { frame: 2, .. }
        ));
    }

    #[test]
    fn a_walk_that_stops_early_is_named() {
        let mut w = walk(vec![frame(1, 0x62, 0x9DE)]);
        w.stop = StopReason::Next(NextFailure::OutOfBounds {
            next: 0x10,
            top: 0x200,
            bot: 0xA00,
        });
        let v = verify(&w, &chain());
        assert!(
            matches!(&v.disagreements[0], Disagreement::EarlyEnd { unseen } if unseen.len() == 3)
        );
    }
}
