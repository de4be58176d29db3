//! When the debugger needs its hook on every instruction, and how far
//! the program may run without it (the module above, "Hooks" and
//! "Reverse execution"): the session's state decides, at each stop and
//! each poll; `arrange` in the module above acts on it.

use super::{Control, POLL_INSNS, Replay};
use crate::walk::CpuMode;

/// Can the program run without the instruction hook now (module notes,
/// "Hooks")? In real and protected mode alike: the machine stops it for
/// the debugger's polls only where a block starts, on the emulation's
/// own thread (machine/debug.rs, `poll_every`), never from another
/// thread (which in protected mode could leave a block half done: a stop
/// noticed inside a helper's descriptor-table accesses, machine/tlb.rs).
/// A timed program (machine/time.rs) too: its timer and keyboard
/// interrupts are delivered at block entries, and a stop that only
/// interrupts the emulation (going to or from the instruction hook)
/// settles the count and the clock so that the next tick falls at the
/// same instruction (machine/counter.rs, `settle_resumed`);
/// tests/debug_fast.rs compares timer handlers' sessions both ways.
///
/// Watchpoints without the instruction hook in protected mode too (a
/// window procedure's write to a global, in a nested emulation:
/// tests/debug_fast.rs).
///
/// Nor a protected-mode program after a fault was reported: Windows
/// offers the fault again on its way out of the nested emulations its
/// callbacks (InterruptRegister, the fault dialog) run in, which only
/// the instruction hook tells from the fault happening again.
///
/// A position breakpoint ahead lets it run without the hook until it is
/// near ([`NEAR_POSITION`]): the polls come sooner as it nears
/// ([`poll_distance`]), and the instruction hook takes the program the
/// rest of the way. A replay likewise, to its target and to each change
/// it makes again ([`next_position_stop`]), where [`fast_replays`] says
/// so. An instruction budget is a position stop too, in a replay or not,
/// where the count without the hook is exact (the patched engine; on the
/// unpatched one a budget keeps the hook all the way). `next` is the
/// position of the next instruction to run.
pub(super) fn may_run_fast(c: &Control, mode: CpuMode, next: u64) -> bool {
    let mode_needs_hook = match mode {
        CpuMode::Real => false,
        CpuMode::Protected => c.last_fault.is_some(),
    };
    let replay_ok = match c.replay {
        None => c.budget.max_insns == 0 || fast_replays(),
        Some(_) => fast_replays() && !c.replay_hooked,
    };
    !mode_needs_hook
        && replay_ok
        && !always_hook()
        && c.restart.is_none()
        && !c.killed
        && !c.stepping
        && !position_stop_near(c, next)
        && (crate::machine::debug::EXACT_COUNT || c.position_breaks.is_empty())
        && (c.watches.is_empty() || crate::machine::debug::CAN_REDO)
        && c.redo_at.is_none()
}

/// Do replays run without the instruction hook until near their target
/// (module notes, "Reverse execution")? Only where the count of
/// instructions run without it is exact for any code
/// (machine/debug.rs, [`crate::machine::debug::EXACT_COUNT`]): the
/// patched engine.
fn fast_replays() -> bool {
    crate::machine::debug::EXACT_COUNT
}

/// Does the session keep the instruction hook on all the time, as it did
/// before it could run without it? `TOOLHELP16_ALWAYS_HOOK=1` says so: a
/// check of the faster ways against the plain one (tests/replay_fast.rs
/// compares sessions both ways).
fn always_hook() -> bool {
    static ALWAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALWAYS.get_or_init(|| std::env::var("TOOLHELP16_ALWAYS_HOOK").is_ok_and(|v| v.trim() == "1"))
}

/// Watched accesses a search back (reverse-continue) may meet without
/// the instruction hook in one replay: each is run again with the hook
/// (`redo_insn`), which drops the translated code twice; past this many,
/// the rest of the replay keeps the hook, which costs less.
pub(super) const REPLAY_REDOS: u32 = 16;

/// How near a position stop ([`next_position_stop`]: a position
/// breakpoint, a replay's target) the program goes on with the
/// instruction hook: more instructions than a block can hold (QEMU ends a
/// block at 512), so that a poll, which comes at the first block's entry
/// past its count, is still before it.
pub(super) const NEAR_POSITION: u64 = 4096;

/// The next position at or after `next` where the instruction hook must
/// be on (module notes, "Hooks" and "Reverse execution"): a position
/// breakpoint (outside a replay, or in a search back, which notes them);
/// the instruction budget; in a replay, also its target (or the end of
/// the stretch searched) and the next change from the debugger it makes
/// again.
pub(super) fn next_position_stop(c: &Control, next: u64) -> Option<u64> {
    let mut stop = match c.replay {
        None | Some(Replay::Search { .. }) => c.position_breaks.range(next..).next().copied(),
        Some(Replay::To(..)) => None,
    };
    let mut want = |p: u64| {
        if p >= next {
            stop = Some(stop.map_or(p, |s| s.min(p)));
        }
    };
    if c.budget.max_insns != 0 {
        want(c.budget.max_insns);
    }
    match c.replay {
        None => return stop,
        Some(Replay::To(t, _)) => want(t),
        Some(Replay::Search { limit, .. }) => want(limit),
    }
    if let Some(&(p, _)) = c.edits[c.next_edit.min(c.edits.len())..]
        .iter()
        .find(|(p, _)| *p >= next)
    {
        want(p);
    }
    stop
}

/// Is a position stop ([`next_position_stop`]) at `next` or less than
/// [`NEAR_POSITION`] after it?
pub(super) fn position_stop_near(c: &Control, next: u64) -> bool {
    next_position_stop(c, next).is_some_and(|b| b - next < NEAR_POSITION)
}

/// The instructions to the next poll without the instruction hook, from
/// position `next`: [`POLL_INSNS`], or fewer when a position stop is
/// ahead ([`next_position_stop`]), so that the poll comes just before it
/// is near, or a checkpoint is due sooner, so that it is taken where it
/// is due (not a poll later; checkpoint.rs).
pub(super) fn poll_distance(c: &Control, next: u64) -> u64 {
    let mut d = POLL_INSNS;
    if let Some(b) = next_position_stop(c, next) {
        d = d.min((b - next).saturating_sub(NEAR_POSITION).max(1));
    }
    // A checkpoint due and not taken (the program is in a nested
    // emulation, where none can be) waits for the usual poll.
    if let Some(due) = c.checkpoints.next_due()
        && due > next
    {
        d = d.min(due - next);
    }
    d
}
