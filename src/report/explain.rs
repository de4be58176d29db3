//! `stack --explain`: the walk at a stop told rule by rule, in the order
//! docs/walk.md (after toolhelp.md) gives the rules — StackTraceCSIPFirst, then each
//! StackTraceNext's steps 1 to 6 — with the values each rule saw, and where
//! and why the walk stopped.
//!
//! The sentences come from [`Rule`] events that the walk itself reports as
//! it applies each rule ([`walk_from_csip_narrated`],
//! [`through_dispatch_narrated`]): this module only numbers the frames and
//! names their code, so the narration cannot tell a walk other than the
//! one taken.

use super::{Namer, Place};
use crate::machine::Stop;
use crate::session::{MAX_FRAMES, Program};
use crate::walk::dispatch::through_dispatch_narrated;
use crate::walk::{Rule, StackTraceEntry, Walk, WalkMemory, walk_from_csip_narrated};

/// A walk and the rules it told.
#[derive(Debug, Clone)]
pub struct Explained {
    /// The walk narrated.
    pub walk: Walk,
    /// The rules it applied, in order.
    pub rules: Vec<Rule>,
    /// Said when the walk `stack` reports is not this one (an unhandled
    /// fault's walk, recorded when the fault happened, over memory that
    /// has changed since).
    pub note: Option<String>,
}

/// The walk at `stop`, narrated, composed as `Program::walk_at_stop`
/// composes it: an unhandled fault's walk from the faulting context;
/// otherwise StackTraceCSIPFirst at the stopped context, then
/// StackTraceNext, through a fault dispatch frame when TOOLHELP is loaded.
/// None when the program has ended.
pub fn at_stop(p: &Program, stop: &Stop) -> Option<Explained> {
    let reported = p.walk_at_stop(stop)?;
    let mem = &*p.machine as &dyn WalkMemory;
    let mut rules = Vec::new();
    let unhandled = match stop {
        Stop::Fault(f) => p.unhandled(f).map(|_| f),
        _ => None,
    };
    let walk = match unhandled {
        // win16/fault.rs walked it from the fault, without the dispatch.
        Some(f) => walk_from_csip_narrated(
            mem, f.regs.ss, f.cs, f.ip, f.regs.bp, MAX_FRAMES, &mut rules,
        ),
        None => {
            let c = p.walk_context(stop)?;
            let w = walk_from_csip_narrated(mem, c.ss, c.cs, c.ip, c.bp, MAX_FRAMES, &mut rules);
            match p.dispatch_address() {
                Some(d) => through_dispatch_narrated(mem, w, d, MAX_FRAMES, &mut rules),
                None => w,
            }
        }
    };
    let note = (walk != reported).then(|| {
        "the walk reported above was recorded when the fault happened; memory has changed since, \
         and this narration walks the stack as it is now, which gives other frames"
            .to_string()
    });
    Some(Explained { walk, rules, note })
}

/// One line of the narration: `depth` 0 for a call or a frame, 1 for a
/// step inside a StackTraceNext call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Indentation depth.
    pub depth: u8,
    /// The sentence.
    pub text: String,
}

/// The frame line: `frame 1: 1037:0027 = DEMO:2:0027, SS:BP 103F:09E8, far`.
fn frame_line(
    mem: &dyn WalkMemory,
    names: &dyn Namer,
    i: usize,
    e: &StackTraceEntry,
    exact: bool,
) -> String {
    let place = Place::of(mem, names, e, exact);
    format!(
        "frame {i}: {:04X}:{:04X} = {}, SS:BP {:04X}:{:04X}, {}",
        e.w_cs,
        e.w_ip,
        place.full(),
        e.w_ss,
        e.w_bp,
        if e.w_flags == StackTraceEntry::FRAME_NEAR {
            "near"
        } else {
            "far"
        }
    )
}

/// The narration as lines: each frame as it is found, each StackTraceNext
/// call headed by the frame it starts from, its rules one per line.
pub fn lines(mem: &dyn WalkMemory, names: &dyn Namer, e: &Explained) -> Vec<Line> {
    let mut out = Vec::new();
    let top = |text: String| Line { depth: 0, text };
    let step = |text: String| Line { depth: 1, text };
    if let Some(n) = &e.note {
        out.push(top(format!("note: {n}")));
    }
    // The frame the next rule works on, the index the next frame gets, and
    // the frames kept so far.
    let mut cur: Option<StackTraceEntry> = None;
    let mut next_index = 0usize;
    let mut kept = 0usize;
    let mut in_call = false;
    for (k, r) in e.rules.iter().enumerate() {
        match r {
            Rule::CsipFirst { entry } => {
                out.push(top(r.to_string()));
                out.push(top(frame_line(mem, names, next_index, entry, true)));
                cur = Some(*entry);
                next_index += 1;
                kept = next_index;
            }
            Rule::WalkEnds { stop, .. } => {
                in_call = false;
                // A walk a dispatch frame cuts short is TOOLHELP's own; the
                // count is of the whole walk's frames so far.
                let whose = match e.rules.get(k + 1) {
                    Some(Rule::Dispatch { .. }) => "StackTraceNext's own walk",
                    _ => "the walk",
                };
                out.push(top(format!("{whose} ends with {kept} frame(s): {stop}")));
            }
            Rule::NoChain { .. } => {
                in_call = false;
                out.push(top(r.to_string()));
            }
            Rule::Dispatch { index, .. } => {
                next_index = index + 1;
                kept = next_index;
                in_call = false;
                out.push(top(r.to_string()));
            }
            _ => {
                if !in_call {
                    in_call = true;
                    let from = match cur {
                        Some(c) => format!(
                            "StackTraceNext from frame {} (SS:BP {:04X}:{:04X}):",
                            next_index.saturating_sub(1),
                            c.w_ss,
                            c.w_bp
                        ),
                        None => "StackTraceNext:".to_string(),
                    };
                    out.push(top(from));
                }
                out.push(step(r.to_string()));
                match r {
                    Rule::NextDone { entry } => {
                        in_call = false;
                        cur = Some(*entry);
                        if e.walk.frames.get(next_index) == Some(entry) {
                            let exact = e.walk.exact_at(next_index);
                            out.push(top(frame_line(mem, names, next_index, entry, exact)));
                            kept = next_index + 1;
                        } else {
                            out.push(top(format!(
                                "(frame {next_index} is not kept: the walk stops before it)"
                            )));
                        }
                        next_index += 1;
                    }
                    Rule::NextFails(_) => in_call = false,
                    _ => {}
                }
            }
        }
    }
    out
}

/// The narration as text, steps indented, with a heading.
pub fn text(lines: &[Line]) -> String {
    let mut s = String::from(
        "\nthe walk, rule by rule (docs/walk.md: StackTraceCSIPFirst, then StackTraceNext steps 1-6 until one fails):\n",
    );
    for l in lines {
        s.push_str(&"    ".repeat(usize::from(l.depth) + 1));
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::NoNames;
    use crate::walk::{Descriptor, StackCursor, TestMemory};

    #[test]
    fn frames_are_numbered_and_each_call_headed() {
        const SS: u16 = 0x1017;
        const CS: u16 = 0x1027;
        let mut m = TestMemory::protected()
            .with_segment(SS, 0x1_0000, vec![0; 0x1000], 0xFFF, Descriptor::DATA_R3)
            .with_segment(CS, 0x2_0000, vec![0x90; 0x800], 0x7FF, Descriptor::CODE_R3)
            .with_instance_data(SS, 0x200, 0xFF0);
        let mut cur = StackCursor::new(SS, 0xFF0);
        m.push_near_frame(&mut cur, 0x0011);
        let b = m.push_far_frame(&mut cur, CS, 0x0122, true);
        let mut rules = Vec::new();
        let walk = walk_from_csip_narrated(&m, SS, CS, 0x500, b, 100, &mut rules);
        let e = Explained {
            walk,
            rules,
            note: None,
        };
        let l = lines(&m, &NoNames, &e);
        let texts: Vec<&str> = l.iter().map(|l| l.text.as_str()).collect();
        assert!(texts[0].starts_with("StackTraceCSIPFirst:"));
        assert!(texts[1].starts_with("frame 0: 1027:0500"));
        assert!(texts[2].starts_with("StackTraceNext from frame 0 (SS:BP 1017:"));
        assert!(texts[3].starts_with("step 1:") && l[3].depth == 1);
        assert!(texts[7].starts_with("step 5: saved BP") && texts[7].contains("is odd"));
        assert!(texts[9].starts_with("frame 1: 1027:0122"));
        assert!(texts[10].starts_with("StackTraceNext from frame 1"));
        assert!(
            texts
                .last()
                .unwrap()
                .starts_with("the walk ends with 2 frame(s)")
        );
        let t = text(&l);
        assert!(t.contains("\n        step 4 FAILS: saved BP at SS:"), "{t}");
    }
}
