//! Seeing through a fault dispatch frame: the walk a debugger wants from
//! inside a TOOLHELP InterruptRegister callback (toolhelp.md,
//! "InterruptRegister callbacks: the fault frame"; the lesson of seed
//! 002, where a dispatcher's stack hides the faulting context until `.cxr`
//! restores it).
//!
//! TOOLHELP's own StackTraceNext knows nothing of the frame: from the
//! callback it climbs to the callback's return address into TOOLHELP (the
//! pass-on address) with the BP the callback saved — the BP at the fault —
//! and from there to the faulting function's caller, skipping the function
//! that faulted. This layer, applied on top of the ToolHelp walk, does
//! what a good walker does:
//!
//! 1. A frame whose CS:IP is the dispatcher's return address is the
//!    dispatch frame. It is kept and marked virtual.
//! 2. The fault frame lies at the address the previous frame's return
//!    address was read from: the callback's BP + 2 (after any standard
//!    prologue, `push bp; mov bp,sp`, with or without the odd-BP marker).
//!    The faulting IP and CS are the words at +0A and +0C from there.
//! 3. The walk continues as StackTraceCSIPFirst would from the faulting
//!    CS:IP and the dispatch frame's BP (the BP at the fault), then
//!    StackTraceNext: its first frame is the faulting instruction.

use super::memory::WalkMemory;
use super::toolhelp::{Narrator, Rule, Walk, walk_from_csip_narrated};

/// The walk `walk`, seeing through fault dispatch frames whose return
/// address is `dispatch` (CS, IP); at most `max_frames` frames.
pub fn through_dispatch(
    mem: &dyn WalkMemory,
    walk: Walk,
    dispatch: (u16, u16),
    max_frames: usize,
) -> Walk {
    through_dispatch_narrated(mem, walk, dispatch, max_frames, &mut ())
}

/// [`through_dispatch`], telling `narrator` where it found a dispatch
/// frame ([`Rule::Dispatch`]) and then every rule of the walk on from the
/// faulting context. `walk` itself was narrated by whoever walked it.
pub fn through_dispatch_narrated<N: Narrator + ?Sized>(
    mem: &dyn WalkMemory,
    walk: Walk,
    dispatch: (u16, u16),
    max_frames: usize,
    narrator: &mut N,
) -> Walk {
    let Some(i) =
        (1..walk.frames.len()).find(|&i| (walk.frames[i].w_cs, walk.frames[i].w_ip) == dispatch)
    else {
        return walk;
    };
    let prev = walk.frames[i - 1];
    let here = walk.frames[i];
    let ss = here.w_ss;
    let word = |off: u16| -> Option<u16> {
        mem.read_u16(ss, prev.w_bp.wrapping_add(2).wrapping_add(off))
            .ok()
    };
    let (Some(ip), Some(cs)) = (word(0x0A), word(0x0C)) else {
        return walk;
    };
    narrator.rule(Rule::Dispatch {
        index: i,
        at: prev.w_bp.wrapping_add(2),
        ip,
        cs,
        bp: here.w_bp,
    });
    let mut frames = walk.frames[..=i].to_vec();
    let mut virtual_frames: Vec<usize> = walk
        .virtual_frames
        .iter()
        .copied()
        .filter(|&v| v <= i)
        .collect();
    virtual_frames.push(i);
    let rest = walk_from_csip_narrated(
        mem,
        ss,
        cs,
        ip,
        here.w_bp,
        max_frames.saturating_sub(frames.len()),
        narrator,
    );
    let rest = through_dispatch_narrated(
        mem,
        rest,
        dispatch,
        max_frames.saturating_sub(frames.len()),
        narrator,
    );
    let base = frames.len();
    frames.extend(rest.frames.iter().map(|f| {
        let mut f = *f;
        f.h_task = here.h_task;
        f
    }));
    virtual_frames.extend(rest.virtual_frames.iter().map(|v| v + base));
    Walk {
        frames,
        stop: rest.stop,
        virtual_frames,
    }
}
