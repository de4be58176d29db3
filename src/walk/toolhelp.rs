//! The ToolHelp stack walk: StackTraceFirst, StackTraceCSIPFirst,
//! StackTraceNext and StackTraceInfo, rule by rule as
//! `shared/spec/toolhelp.md` gives them, over [`WalkMemory`].
//!
//! Every function reads the walked machine only through the trait, so none
//! can panic on any memory content, and every memory read that fails makes
//! the call fail.
//!
//! # Real mode
//!
//! DOS programs, boot sectors and ROM images run in real mode, where the
//! same rules apply with these readings:
//!
//! - There is no instance data, so the stack bounds are the whole 64 KiB
//!   segment, `[0, 0x10000)` ([`stack_bounds`]), and the segment limit of
//!   StackTraceNext step 2 is 0xFFFF.
//! - There are no descriptors, so StackTraceNext step 5 cannot validate an
//!   even-BP candidate CS: an even saved BP is always a NEAR frame and only
//!   the odd-BP marker makes a far frame. Real-mode Windows (3.0 and
//!   earlier) relied on the odd-BP marker for exactly this reason.
//! - hTask is whatever [`WalkMemory::current_task`] reports: the PSP
//!   segment of the running DOS program, 0 for a boot sector or raw image.
//! - hModule is the PSP segment that owns the memory block holding CS (the
//!   DOS MCB owner, the real-mode analogue of the global arena owner), as
//!   [`WalkMemory::code_owner`] reports it; wSegment is left untouched
//!   because there is no NE segment table (`CodeOwner::segment` is `None`).
//! - BP = 0 at the start means there is no frame chain: the walk from
//!   registers stops after StackTraceCSIPFirst's frame and StackTraceNext
//!   is not called ([`StopReason::NoChain`], [`no_chain_at_start`]). This
//!   is toolhelp16's own rule, not TOOLHELP's: TOOLHELP.DLL ran only in
//!   protected mode, where SS:0000 is the instance data's first word (0,
//!   so StackTraceNext ends the chain by itself), whereas in real mode
//!   SS:0000 is whatever the segment begins with (a `.COM` program's PSP,
//!   whose INT 20h reads as the odd saved BP 20CD) and would be read as an
//!   invented far frame. BP is 0 when a program starts here (dos/process.rs
//!   gives every program BP = 0) and stays 0 in code that never sets up a
//!   frame (docs/walk.md, "DOS and real mode").

//!
//! # Where each rule lives
//!
//! The four functions' rules, in the spec's order, are all in this file:
//! the stack bounds ([`stack_bounds`]), StackTraceInfo, StackTraceFirst
//! steps 1-6, StackTraceCSIPFirst, and StackTraceNext steps 1-6
//! (`next_rules`, with step 5's far/near test in [`even_frame_kind`]). The
//! files beside it hold what is not a rule:
//!
//! - `toolhelp/entry.rs`: the STACKTRACEENTRY structure and its layout.
//! - `toolhelp/narrate.rs`: [`Rule`] and [`Narrator`], the sentences
//!   `stack --explain` tells as each rule here is applied.
//! - `toolhelp/chain.rs`: whole walks ([`walk_task`], [`walk_from_csip`]):
//!   the first call, then StackTraceNext until it fails, and why a walk
//!   stopped ([`StopReason`]).

use std::fmt;

use super::memory::{CpuMode, MemError, WalkMemory};

mod chain;
mod entry;
#[cfg(test)]
mod fixture;
mod narrate;

pub use chain::{StopReason, Walk, walk_from_csip, walk_from_csip_narrated, walk_task};
pub use entry::StackTraceEntry;
pub use narrate::{Narrator, Rule};

/// The stack bounds a walk trusts, `[pStackTop, pStackBot)` (toolhelp.md,
/// "Where the stack bounds live").
///
/// - Protected mode: pStackTop = word `[SS:0A]` and pStackBot = word `[SS:0E]`
///   of the stack segment's instance data; `None` if either read fails.
/// - Real mode: there is no instance data, so the bounds are the whole
///   64 KiB segment, `(0, 0x10000)` (hence `u32`).
pub fn stack_bounds<M: WalkMemory + ?Sized>(mem: &M, ss: u16) -> Option<(u32, u32)> {
    match mem.mode() {
        CpuMode::Real => Some((0, 0x1_0000)),
        CpuMode::Protected => {
            let top = mem.read_u16(ss, 0x0A).ok()?;
            let bot = mem.read_u16(ss, 0x0E).ok()?;
            Some((top.into(), bot.into()))
        }
    }
}

/// The limit of the stack segment for StackTraceNext step 2: the
/// descriptor's limit, which must name a present code/data segment in
/// protected mode (as [`WalkMemory::read`] requires); 0xFFFF in real mode.
fn stack_limit<M: WalkMemory + ?Sized>(mem: &M, ss: u16) -> Result<u32, MemError> {
    let d = mem.descriptor(ss).ok_or(MemError::BadSelector(ss))?;
    match mem.mode() {
        CpuMode::Real => Ok(0xFFFF),
        CpuMode::Protected if d.present() && d.is_segment() => Ok(d.limit),
        CpuMode::Protected => Err(MemError::BadSelector(ss)),
    }
}

/// StackTraceInfo (toolhelp.md, "hModule and wSegment"): if wCS is 0 leave
/// both untouched; otherwise ask [`WalkMemory::code_owner`]. A known owner
/// sets hModule, and wSegment too when the module's segment table has an
/// entry for wCS (else wSegment stays). No owner: both stay.
pub fn stack_trace_info<M: WalkMemory + ?Sized>(mem: &M, ste: &mut StackTraceEntry) {
    if ste.w_cs == 0 {
        return;
    }
    if let Some(owner) = mem.code_owner(ste.w_cs) {
        ste.h_module = owner.hmodule;
        if let Some(seg) = owner.segment {
            ste.w_segment = seg;
        }
    }
}

/// toolhelp16's rule for real mode (module documentation, "Real mode"; not
/// a TOOLHELP rule): a walk whose first frame has BP = 0 in real mode has
/// no frame chain, and StackTraceNext is not called for it. Protected-mode
/// walks are untouched: there StackTraceNext's own rules decide.
pub fn no_chain_at_start<M: WalkMemory + ?Sized>(mem: &M, first: &StackTraceEntry) -> bool {
    mem.mode() == CpuMode::Real && first.w_bp == 0
}

/// Why StackTraceFirst failed (toolhelp.md, StackTraceFirst steps 1-5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstFailure {
    /// Step 1: dwSize is not 0x14. Structure untouched.
    BadSize {
        /// The dwSize the structure had.
        size: u32,
    },
    /// Step 2: the TDB signature at hTask:FA cannot be read. Untouched.
    BadSelector {
        /// The task handle (TDB selector) asked about.
        h_task: u16,
        /// Why the memory could not be read.
        err: MemError,
    },
    /// Step 2: the word at hTask:FA is not 'TD' (0x4454). Untouched.
    NotATask {
        /// The task handle (TDB selector) asked about.
        h_task: u16,
        /// The word found at hTask:FA.
        signature: u16,
    },
    /// Step 2: hTask is the current task. Untouched.
    CurrentTask {
        /// The task handle (TDB selector) asked about.
        h_task: u16,
    },
    /// Step 3: the saved SS:SP or the scheduler frame cannot be read.
    /// Untouched.
    Unreadable {
        /// The segment read.
        seg: u16,
        /// The offset of the word in SS.
        off: u32,
        /// Why the memory could not be read.
        err: MemError,
    },
    /// Step 5: the saved BP is 0 (a task that never ran). Filled.
    NoFrame,
    /// Step 5: the stack bounds cannot be read. Filled.
    NoBounds {
        /// The stack segment.
        ss: u16,
    },
    /// Step 5: the saved BP is outside `[pStackTop, pStackBot)`. Filled.
    OutOfBounds {
        /// The frame's BP.
        bp: u16,
        /// pStackTop: the lowest offset the stack may use.
        top: u32,
        /// pStackBot: the offset just above the stack.
        bot: u32,
    },
}

impl FirstFailure {
    /// The toolhelp.md StackTraceFirst step whose rule failed.
    pub fn step(&self) -> u8 {
        match self {
            FirstFailure::BadSize { .. } => 1,
            FirstFailure::BadSelector { .. }
            | FirstFailure::NotATask { .. }
            | FirstFailure::CurrentTask { .. } => 2,
            FirstFailure::Unreadable { .. } => 3,
            FirstFailure::NoFrame
            | FirstFailure::NoBounds { .. }
            | FirstFailure::OutOfBounds { .. } => 5,
        }
    }
}

impl fmt::Display for FirstFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FirstFailure::BadSize { size } => {
                write!(f, "dwSize is {size:#X}, not 0x14: the call fails")
            }
            FirstFailure::BadSelector { h_task, err } => {
                write!(
                    f,
                    "hTask {h_task:04X} is not a valid selector ({err}): not a task"
                )
            }
            FirstFailure::NotATask { h_task, signature } => write!(
                f,
                "hTask {h_task:04X} holds {signature:04X} at +FA, not the 'TD' signature 4454: not a task"
            ),
            FirstFailure::CurrentTask { h_task } => write!(
                f,
                "hTask {h_task:04X} is the current task, whose state is not saved: walk it from its registers"
            ),
            FirstFailure::Unreadable { seg, off, err } => {
                write!(
                    f,
                    "the task's saved state at {seg:04X}:{off:04X} is unreadable: {err}"
                )
            }
            FirstFailure::NoFrame => {
                write!(f, "the saved BP is 0 (a task that never ran): no stack")
            }
            FirstFailure::NoBounds { ss } => {
                write!(
                    f,
                    "the stack bounds at {ss:04X}:000A/000E are unreadable: no stack"
                )
            }
            FirstFailure::OutOfBounds { bp, top, bot } => write!(
                f,
                "the saved BP {bp:04X} lies outside the stack [{top:04X}, {bot:04X}): no stack"
            ),
        }
    }
}

impl std::error::Error for FirstFailure {}

/// StackTraceFirst(lpste, hTask): the first frame of a task that is not
/// running (toolhelp.md, StackTraceFirst steps 1-6).
///
/// A failure in steps 1-3 (wrong dwSize, not a task, the current task, an
/// unreadable TDB or scheduler frame) leaves `ste` untouched. A failure in
/// step 5 (BP 0, unreadable bounds, BP out of bounds) leaves it filled as
/// step 4 says, without hModule/wSegment.
pub fn stack_trace_first(mem: &dyn WalkMemory, ste: &mut StackTraceEntry, h_task: u16) -> bool {
    stack_trace_first_explained(mem, ste, h_task).is_ok()
}

/// [`stack_trace_first`], telling which rule failed.
pub fn stack_trace_first_explained(
    mem: &dyn WalkMemory,
    ste: &mut StackTraceEntry,
    h_task: u16,
) -> Result<(), FirstFailure> {
    // Step 1.
    if !ste.size_ok() {
        return Err(FirstFailure::BadSize { size: ste.dw_size });
    }
    // Step 2: a valid selector whose word at +FA is 'TD', and not the
    // current task.
    let signature = mem
        .read_u16(h_task, 0xFA)
        .map_err(|err| FirstFailure::BadSelector { h_task, err })?;
    if signature != 0x4454 {
        return Err(FirstFailure::NotATask { h_task, signature });
    }
    if h_task == mem.current_task() {
        return Err(FirstFailure::CurrentTask { h_task });
    }
    // Step 3: the saved SS:SP, then the scheduler's frame there.
    let tdb = |off: u16| {
        mem.read_u16(h_task, off)
            .map_err(|err| FirstFailure::Unreadable {
                seg: h_task,
                off: off.into(),
                err,
            })
    };
    let sp = tdb(0x02)?;
    let ss = tdb(0x04)?;
    let frame = |rel: u16| {
        let off = u32::from(sp) + u32::from(rel);
        let unreadable = |err| FirstFailure::Unreadable { seg: ss, off, err };
        let off16 = u16::try_from(off).map_err(|_| {
            unreadable(MemError::BeyondLimit {
                seg: ss,
                off,
                len: 2,
                limit: 0xFFFF,
            })
        })?;
        mem.read_u16(ss, off16).map_err(unreadable)
    };
    let bp = frame(0x10)?;
    let ip = frame(0x12)?;
    let cs = frame(0x14)?;
    // Step 4: fill, whatever step 5 decides.
    ste.w_ss = ss;
    ste.w_bp = bp & !1;
    ste.w_ip = ip;
    ste.w_cs = cs;
    ste.h_task = h_task;
    ste.w_flags = StackTraceEntry::FRAME_FAR;
    // Step 5: wBP != 0 and pStackTop <= wBP < pStackBot.
    let bp = ste.w_bp;
    if bp == 0 {
        return Err(FirstFailure::NoFrame);
    }
    let (top, bot) = stack_bounds(mem, ss).ok_or(FirstFailure::NoBounds { ss })?;
    if u32::from(bp) < top || u32::from(bp) >= bot {
        return Err(FirstFailure::OutOfBounds { bp, top, bot });
    }
    // Step 6.
    stack_trace_info(mem, ste);
    Ok(())
}

/// StackTraceCSIPFirst(lpste, wSS, wCS, wIP, wBP): the first frame of any
/// stack, from registers (toolhelp.md, "StackTraceCSIPFirst").
///
/// Fails (untouched) only if dwSize is not 0x14. Otherwise copies wSS, wCS,
/// wIP and wBP as given (BP neither masked nor checked), fills
/// hModule/wSegment, sets hTask = the current task, leaves wFlags as the
/// caller had it, and returns TRUE.
pub fn stack_trace_csip_first<M: WalkMemory + ?Sized>(
    mem: &M,
    ste: &mut StackTraceEntry,
    w_ss: u16,
    w_cs: u16,
    w_ip: u16,
    w_bp: u16,
) -> bool {
    if !ste.size_ok() {
        return false;
    }
    ste.w_ss = w_ss;
    ste.w_cs = w_cs;
    ste.w_ip = w_ip;
    ste.w_bp = w_bp;
    stack_trace_info(mem, ste);
    ste.h_task = mem.current_task();
    true
}

/// Why StackTraceNext failed, one variant per rule of toolhelp.md's
/// StackTraceNext (steps 1, 2 and 4; a failed read in step 3). Every
/// failure leaves the structure untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextFailure {
    /// Step 1: dwSize is not 0x14.
    BadSize {
        /// The dwSize the structure had.
        size: u32,
    },
    /// Step 2: BP + 6 wraps past 0xFFFF (BP > 0xFFF9).
    BpWraps {
        /// The frame's BP.
        bp: u16,
    },
    /// Step 2: offset BP + 6 lies beyond the stack segment's limit.
    BeyondLimit {
        /// The frame's BP.
        bp: u16,
        /// The segment's limit.
        limit: u32,
    },
    /// Steps 2-3: the stack segment or a word of the frame cannot be read
    /// (`off` is the offset in SS of the word, or BP when the stack
    /// segment itself is unusable).
    Unreadable {
        /// The offset of the word in SS.
        off: u16,
        /// Why the memory could not be read.
        err: MemError,
    },
    /// Step 4: the saved BP at SS:BP is 0: the end of the chain.
    EndOfChain {
        /// The frame's BP.
        bp: u16,
    },
    /// Step 4: the saved BP `next` at SS:`bp` is not above `bp`.
    NotClimbing {
        /// The frame's BP.
        bp: u16,
        /// The saved BP read at SS:BP (the next frame's BP).
        next: u16,
    },
    /// Step 4: the saved BP lies outside `[pStackTop, pStackBot)`.
    OutOfBounds {
        /// The saved BP read at SS:BP (the next frame's BP).
        next: u16,
        /// pStackTop: the lowest offset the stack may use.
        top: u32,
        /// pStackBot: the offset just above the stack.
        bot: u32,
    },
    /// Step 4: the stack bounds (SS:0A, SS:0E) cannot be read.
    NoBounds {
        /// The stack segment.
        ss: u16,
    },
}

impl NextFailure {
    /// The toolhelp.md StackTraceNext step whose rule failed.
    pub fn step(&self) -> u8 {
        match self {
            NextFailure::BadSize { .. } => 1,
            NextFailure::BpWraps { .. } | NextFailure::BeyondLimit { .. } => 2,
            NextFailure::Unreadable { .. } => 3,
            NextFailure::EndOfChain { .. }
            | NextFailure::NotClimbing { .. }
            | NextFailure::OutOfBounds { .. }
            | NextFailure::NoBounds { .. } => 4,
        }
    }
}

impl fmt::Display for NextFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NextFailure::BadSize { size } => {
                write!(f, "dwSize is {size:#X}, not 0x14: the call fails")
            }
            NextFailure::BpWraps { bp } => {
                write!(
                    f,
                    "BP {bp:04X} + 6 wraps past FFFF (BP must be <= FFF9): chain ends"
                )
            }
            NextFailure::BeyondLimit { bp, limit } => write!(
                f,
                "BP {bp:04X} + 6 = {:04X} lies beyond the stack segment limit {limit:04X}: chain ends",
                u32::from(*bp) + 6
            ),
            NextFailure::Unreadable { off, err } => write!(
                f,
                "the frame word at SS:{off:04X} is unreadable ({err}): chain ends"
            ),
            NextFailure::EndOfChain { bp } => {
                write!(f, "saved BP at SS:{bp:04X} is 0: the end of the chain")
            }
            // 0001 is the outermost frame's BP of 0 with the far-call
            // mark: MSC's and Watcom's far prologue (`inc bp; push bp`)
            // run by a function entered with BP = 0 (the startup code
            // clears BP). The chain's normal end, not a corruption.
            NextFailure::NotClimbing { bp, next: 1 } => write!(
                f,
                "saved BP 0001 at SS:{bp:04X} is BP 0 with the far-call mark (a far prologue's \
                 `inc bp` run with BP = 0, as the startup code leaves it): the end of the chain"
            ),
            NextFailure::NotClimbing { bp, next } => write!(
                f,
                "saved BP {next:04X} at SS:{bp:04X} does not climb (must be > {bp:04X}): chain ends"
            ),
            NextFailure::OutOfBounds { next, top, bot } => write!(
                f,
                "saved BP {next:04X} lies outside the stack [{top:04X}, {bot:04X}) (pStackTop, pStackBot): chain ends"
            ),
            NextFailure::NoBounds { ss } => write!(
                f,
                "the stack bounds at {ss:04X}:000A/000E (pStackTop, pStackBot) are unreadable: chain ends"
            ),
        }
    }
}

impl std::error::Error for NextFailure {}

/// StackTraceNext(lpste): one frame up (toolhelp.md, StackTraceNext steps
/// 1-6). Returns FALSE, with `ste` byte-for-byte untouched, on every
/// failure; [`stack_trace_next_explained`] says which rule failed.
pub fn stack_trace_next(mem: &dyn WalkMemory, ste: &mut StackTraceEntry) -> bool {
    stack_trace_next_explained(mem, ste).is_ok()
}

/// StackTraceNext, the rules in toolhelp.md's order:
///
/// 1. Fail unless dwSize is 0x14.
/// 2. SI = wBP. Fail if SI + 6 wraps past 0xFFFF (SI > 0xFFF9), or if SS:SI+6
///    lies beyond the stack segment's limit, read literally: the offset
///    SI + 6 itself must be <= the limit (one byte stricter than the reads
///    of step 3 need, whose last byte is SI + 5). An unusable stack
///    selector fails here as [`NextFailure::Unreadable`] at offset SI.
///    Real mode: the limit is 0xFFFF. Expand-down stacks are not modelled
///    (Windows did not use them).
/// 3. `next = [SS:SI]`, `IP = [SS:SI+2]`, `candidate CS = [SS:SI+4]`, each read
///    limit-checked through [`WalkMemory::read_u16`]; a failed read fails.
/// 4. Fail if next == 0, if next <= SI, or if next lies outside
///    `[pStackTop, pStackBot)` ([`stack_bounds`]; the bounds are read only
///    for this last check, and unreadable bounds fail).
/// 5. next odd: far. next even: far only if the candidate CS has the RPL of
///    the current wCS, names a present code segment, and that segment's
///    limit is greater than IP; otherwise near. In real mode an even next is
///    always near (no descriptors to check; see the module documentation).
///    Far: wCS = candidate, wIP = IP, wFlags = FRAME_FAR, next &= !1.
///    Near: wIP = IP, wCS unchanged, wFlags = FRAME_NEAR.
/// 6. wSS = SS, wBP = next, fill hModule/wSegment ([`stack_trace_info`]),
///    TRUE.
///
/// Everything is computed into locals and written only on success, so a
/// failure leaves `ste` byte-for-byte as it was.
///
/// Note: the bounds and climbing checks of step 4 see `next` before step 5
/// clears bit 0, as the spec orders them. So a frame whose saved BP is its
/// own BP + 1 (even BP) succeeds with wBP unchanged, and every later call
/// returns the same frame again: ToolHelp's `while (StackTraceNext(...))`
/// never ends on such a stack. [`walk_from_csip`] stops there
/// ([`StopReason::Stalled`]).
pub fn stack_trace_next_explained(
    mem: &dyn WalkMemory,
    ste: &mut StackTraceEntry,
) -> Result<(), NextFailure> {
    stack_trace_next_narrated(mem, ste, &mut ())
}

/// [`stack_trace_next_explained`], telling `narrator` each rule as it is
/// applied, with the values it saw ([`Rule`]): steps 1 to 6 in
/// toolhelp.md's order as they pass, or [`Rule::NextFails`] for the rule
/// that failed. The narration comes from the code that applies the rules,
/// so it cannot say anything the walk did not do.
pub fn stack_trace_next_narrated<M: WalkMemory + ?Sized, N: Narrator + ?Sized>(
    mem: &M,
    ste: &mut StackTraceEntry,
    narrator: &mut N,
) -> Result<(), NextFailure> {
    let r = next_rules(mem, ste, narrator);
    if let Err(e) = &r {
        narrator.rule(Rule::NextFails(e.clone()));
    }
    r
}

/// StackTraceNext's rules (see [`stack_trace_next_explained`]), each one
/// told to `n` once it has passed.
fn next_rules<M: WalkMemory + ?Sized, N: Narrator + ?Sized>(
    mem: &M,
    ste: &mut StackTraceEntry,
    n: &mut N,
) -> Result<(), NextFailure> {
    // Step 1.
    if !ste.size_ok() {
        return Err(NextFailure::BadSize { size: ste.dw_size });
    }
    n.rule(Rule::NextSize);
    // Step 2.
    let ss = ste.w_ss;
    let si = ste.w_bp;
    let end = u32::from(si) + 6;
    if end > 0xFFFF {
        return Err(NextFailure::BpWraps { bp: si });
    }
    let limit = stack_limit(mem, ss).map_err(|err| NextFailure::Unreadable { off: si, err })?;
    if end > limit {
        return Err(NextFailure::BeyondLimit { bp: si, limit });
    }
    n.rule(Rule::NextLimit { bp: si, end, limit });
    // Step 3 (si <= 0xFFF9, so si + 4 cannot overflow).
    let word = |off: u16| {
        mem.read_u16(ss, off)
            .map_err(|err| NextFailure::Unreadable { off, err })
    };
    let mut next = word(si)?;
    let ip = word(si + 2)?;
    let candidate = word(si + 4)?;
    n.rule(Rule::NextRead {
        bp: si,
        next,
        ip,
        candidate,
    });
    // Step 4.
    if next == 0 {
        return Err(NextFailure::EndOfChain { bp: si });
    }
    if next <= si {
        return Err(NextFailure::NotClimbing { bp: si, next });
    }
    let (top, bot) = stack_bounds(mem, ss).ok_or(NextFailure::NoBounds { ss })?;
    if u32::from(next) < top || u32::from(next) >= bot {
        return Err(NextFailure::OutOfBounds { next, top, bot });
    }
    n.rule(Rule::NextClimbs {
        bp: si,
        next,
        top,
        bot,
    });
    // Step 5.
    let kind = if next & 1 != 0 {
        FrameKind::OddMarker
    } else {
        even_frame_kind(mem, ste.w_cs, candidate, ip)
    };
    n.rule(Rule::NextKind {
        next,
        ip,
        candidate,
        cs: ste.w_cs,
        kind,
    });
    let (cs, flags) = if kind.is_far() {
        next &= !1;
        (candidate, StackTraceEntry::FRAME_FAR)
    } else {
        (ste.w_cs, StackTraceEntry::FRAME_NEAR)
    };
    // Step 6: nothing can fail any more; write.
    ste.w_cs = cs;
    ste.w_ip = ip;
    ste.w_flags = flags;
    ste.w_ss = ss;
    ste.w_bp = next;
    stack_trace_info(mem, ste);
    n.rule(Rule::NextDone { entry: *ste });
    Ok(())
}

/// StackTraceNext step 5 for an even saved BP: far only if the candidate CS
/// has the same RPL as the caller's code (`cur_cs`), names a present code
/// segment, and that segment's limit is greater than IP. Always near in
/// real mode, which has no descriptors to check.
pub(crate) fn even_frame_is_far<M: WalkMemory + ?Sized>(
    mem: &M,
    cur_cs: u16,
    candidate: u16,
    ip: u16,
) -> bool {
    even_frame_kind(mem, cur_cs, candidate, ip).is_far()
}

/// StackTraceNext step 5 for an even saved BP, with the reason: the
/// conditions of toolhelp.md checked in its order (the caller's RPL, a
/// present code segment, a limit greater than IP), and the first that
/// fails makes the frame near. Real mode: always near.
pub fn even_frame_kind<M: WalkMemory + ?Sized>(
    mem: &M,
    cur_cs: u16,
    candidate: u16,
    ip: u16,
) -> FrameKind {
    if mem.mode() == CpuMode::Real {
        return FrameKind::EvenRealMode;
    }
    if candidate & 3 != cur_cs & 3 {
        return FrameKind::EvenRplDiffers {
            candidate_rpl: (candidate & 3) as u8,
            caller_rpl: (cur_cs & 3) as u8,
        };
    }
    let Some(d) = mem.descriptor(candidate) else {
        return FrameKind::EvenNoDescriptor;
    };
    if !d.present() {
        FrameKind::EvenNotPresent
    } else if !d.is_code() {
        FrameKind::EvenNotCode { access: d.access }
    } else if d.limit <= u32::from(ip) {
        FrameKind::EvenLimitNotAboveIp { limit: d.limit }
    } else {
        FrameKind::EvenFar { limit: d.limit }
    }
}

/// How StackTraceNext step 5 decided far or near (toolhelp.md,
/// StackTraceNext step 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// The saved BP is odd, the Windows far-call marker: far.
    OddMarker,
    /// Even, and the candidate CS has the caller's RPL, names a present
    /// code segment whose limit is greater than IP: far.
    EvenFar {
        /// The segment's limit.
        limit: u32,
    },
    /// Even, in real mode: near (no descriptors to check).
    EvenRealMode,
    /// Even, and the candidate's RPL is not the caller's: near.
    EvenRplDiffers {
        /// The candidate CS's RPL.
        candidate_rpl: u8,
        /// The caller's RPL.
        caller_rpl: u8,
    },
    /// Even, and the candidate names no descriptor: near.
    EvenNoDescriptor,
    /// Even, and the candidate's segment is not present: near.
    EvenNotPresent,
    /// Even, and the candidate names a data or system segment: near.
    EvenNotCode {
        /// The descriptor's access byte.
        access: u8,
    },
    /// Even, and the candidate's code segment ends at or below IP: near.
    EvenLimitNotAboveIp {
        /// The segment's limit.
        limit: u32,
    },
}

impl FrameKind {
    /// Whether step 5 makes the frame far.
    pub fn is_far(&self) -> bool {
        matches!(self, FrameKind::OddMarker | FrameKind::EvenFar { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::*;
    use super::*;
    use crate::walk::memory::{CodeOwner, Descriptor};
    use crate::walk::testmem::{StackCursor, TestMemory};

    // ---- dwSize, all three functions ----------------------------------

    #[test]
    fn dwsize_not_0x14_fails_for_all_three_and_leaves_struct_untouched() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let a = m.push_near_frame(&mut cur, 0x10);
        let b = m.push_near_frame(&mut cur, 0x20);
        let sp = m.push_scheduler_frame(&mut cur, CS1, 0x30);
        m.add_task(TASK, 0x3_0000, SS, sp);
        for size in [0, 0x13, 0x15, 0x28, 0x1_0014, u32::MAX] {
            let mut e = ste(b);
            e.dw_size = size;
            let before = e;
            assert!(!stack_trace_first(&m, &mut e, TASK));
            assert_eq!(e.to_bytes(), before.to_bytes());
            assert!(!stack_trace_csip_first(&m, &mut e, SS, CS2, 1, a));
            assert_eq!(e.to_bytes(), before.to_bytes());
            next_fails(&m, e, NextFailure::BadSize { size });
            assert_eq!(
                stack_trace_first_explained(&m, &mut e, TASK),
                Err(FirstFailure::BadSize { size })
            );
        }
    }

    // ---- StackTraceFirst ----------------------------------------------

    /// A machine with TASK suspended: a near frame at `outer`, the scheduler
    /// frame above it; returns (machine, outer BP, scheduler frame BP).
    fn suspended() -> (TestMemory, u16, u16) {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT - 0x40);
        let outer = m.push_near_frame(&mut cur, 0x0011);
        m.push_locals(&mut cur, 6);
        let sp = m.push_scheduler_frame(&mut cur, CS2, 0x0222);
        m.add_task(TASK, 0x3_0000, SS, sp);
        (m, outer, sp + 0x10)
    }

    #[test]
    fn first_step2_bad_selector_fails_untouched() {
        let (m, ..) = suspended();
        for h in [0u16, 0x0007, 0x10FF, DS /* too short for +FA */] {
            let mut e = ste(0);
            let before = e;
            assert!(!stack_trace_first(&m, &mut e, h));
            assert!(matches!(
                stack_trace_first_explained(&m, &mut e, h),
                Err(FirstFailure::BadSelector { .. }) | Err(FirstFailure::NotATask { .. })
            ));
            assert_eq!(e.to_bytes(), before.to_bytes());
        }
        let mut e = ste(0);
        assert!(matches!(
            stack_trace_first_explained(&m, &mut e, 0x10FF),
            Err(FirstFailure::BadSelector { h_task: 0x10FF, .. })
        ));
    }

    #[test]
    fn first_step2_no_td_signature_fails_untouched() {
        let (mut m, ..) = suspended();
        m.write_u16(TASK, 0xFA, 0x4455);
        let mut e = ste(0);
        let before = e;
        assert_eq!(
            stack_trace_first_explained(&m, &mut e, TASK),
            Err(FirstFailure::NotATask {
                h_task: TASK,
                signature: 0x4455
            })
        );
        assert_eq!(e.to_bytes(), before.to_bytes());
    }

    #[test]
    fn first_step2_current_task_refused_untouched() {
        let (mut m, ..) = suspended();
        m.set_current_task(TASK);
        let mut e = ste(0);
        let before = e;
        assert_eq!(
            stack_trace_first_explained(&m, &mut e, TASK),
            Err(FirstFailure::CurrentTask { h_task: TASK })
        );
        assert_eq!(e.to_bytes(), before.to_bytes());
    }

    #[test]
    fn first_step3_4_reads_the_scheduler_frame_at_saved_ss_sp() {
        let mut m = machine();
        let sp: u16 = 0x0800;
        // DX BX ES CX AX DI SI DS, then odd BP, IP, CS: all distinct.
        let words = [
            0xD0D0, 0xB0B0, 0xE5E5, 0xC0C0, 0xA0A0, 0xD1D1, 0x5151, 0xD5D5, 0x0A01, 0x0345, CS2,
        ];
        for (i, w) in words.iter().enumerate() {
            m.write_u16(SS, sp + 2 * i as u16, *w);
        }
        m.add_task(TASK, 0x3_0000, SS, sp);
        let mut e = ste(0);
        e.w_flags = StackTraceEntry::FRAME_NEAR;
        assert_eq!(stack_trace_first_explained(&m, &mut e, TASK), Ok(()));
        assert_eq!(e.w_ss, SS);
        assert_eq!(e.w_bp, 0x0A00, "BP +10, bit 0 cleared");
        assert_eq!(e.w_ip, 0x0345, "IP +12");
        assert_eq!(e.w_cs, CS2, "CS +14");
        assert_eq!(e.h_task, TASK);
        assert_eq!(e.w_flags, StackTraceEntry::FRAME_FAR);
        assert_eq!(e.dw_size, 0x14);
    }

    #[test]
    fn first_step3_unreadable_frame_fails_untouched() {
        let mut m = machine();
        // SP such that the frame's CS word (+14) is past the limit.
        m.add_task(TASK, 0x3_0000, SS, LIMIT - 0x14);
        let mut e = ste(0);
        let before = e;
        assert!(matches!(
            stack_trace_first_explained(&m, &mut e, TASK),
            Err(FirstFailure::Unreadable { seg: SS, .. })
        ));
        assert_eq!(e.to_bytes(), before.to_bytes());
        // SP + 0x10 wrapping past FFFF.
        m.add_task(TASK, 0x3_0000, SS, 0xFFF8);
        assert!(!stack_trace_first(&m, &mut e, TASK));
        assert_eq!(e.to_bytes(), before.to_bytes());
        // Unknown SS.
        m.add_task(TASK, 0x3_0000, 0x10F7, 0x100);
        assert!(!stack_trace_first(&m, &mut e, TASK));
        assert_eq!(e.to_bytes(), before.to_bytes());
    }

    #[test]
    fn first_step5_bp_zero_fails_but_fills() {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        let sp = m.push_scheduler_frame(&mut cur, CS1, 0x0066); // never ran: BP 0
        m.add_task(TASK, 0x3_0000, SS, sp);
        let mut e = ste(0x0777);
        assert_eq!(
            stack_trace_first_explained(&m, &mut e, TASK),
            Err(FirstFailure::NoFrame)
        );
        assert_eq!((e.w_ss, e.w_bp, e.w_cs, e.w_ip), (SS, 0, CS1, 0x0066));
        assert_eq!((e.h_task, e.w_flags), (TASK, StackTraceEntry::FRAME_FAR));
        assert_eq!(
            (e.h_module, e.w_segment),
            (UNTOUCHED, UNTOUCHED),
            "step 6 not reached"
        );
        // A saved BP of 1 (inc bp on BP 0) is 0 once masked.
        m.write_u16(SS, sp + 0x10, 1);
        assert!(!stack_trace_first(&m, &mut e, TASK));
    }

    #[test]
    fn first_step5_bp_outside_bounds_fails_but_fills() {
        let (mut m, _, sched) = suspended();
        let sp = sched - 0x10;
        for (bp, saved) in [(TOP - 2, TOP - 1), (BOT, BOT + 1), (0xFFFE, 0xFFFF)] {
            m.write_u16(SS, sp + 0x10, saved);
            let mut e = ste(0);
            assert_eq!(
                stack_trace_first_explained(&m, &mut e, TASK),
                Err(FirstFailure::OutOfBounds {
                    bp,
                    top: TOP.into(),
                    bot: BOT.into()
                })
            );
            assert_eq!((e.w_bp, e.w_cs, e.w_ip, e.h_task), (bp, CS2, 0x0222, TASK));
            assert_eq!((e.h_module, e.w_segment), (UNTOUCHED, UNTOUCHED));
        }
        // The lowest in-bounds BP is accepted.
        m.write_u16(SS, sp + 0x10, TOP + 1);
        assert!(stack_trace_first(&m, &mut ste(0), TASK));
    }

    #[test]
    fn first_step6_success_fills_module_and_segment() {
        let (mut m, outer, _) = suspended();
        let mut e = ste(0);
        assert!(stack_trace_first(&m, &mut e, TASK));
        assert_eq!(
            e.w_bp, outer,
            "the saved (odd) BP masked: the frame that called the scheduler"
        );
        assert_eq!((e.w_cs, e.w_ip), (CS2, 0x0222));
        assert_eq!((e.h_module, e.w_segment), (0x1046, 1));
        // The outer frame's saved BP is 0: the walk ends there.
        next_fails(&m, e, NextFailure::EndOfChain { bp: outer });
        // Give it a caller and the walk goes on.
        frame(&mut m, outer, outer + 0x10, 0x0033, 0);
        let e = next_ok(&m, e);
        assert_eq!((e.w_bp, e.w_cs, e.w_ip), (outer + 0x10, CS2, 0x0033));
        assert_eq!(e.w_flags, StackTraceEntry::FRAME_NEAR);
    }

    // ---- StackTraceCSIPFirst and StackTraceInfo -----------------------

    #[test]
    fn csip_first_copies_as_given_and_does_not_mask_or_check_bp() {
        let m = machine();
        for bp in [0x0601u16, 0, 0xFFFF, TOP - 1] {
            let mut e = ste(0x1234);
            assert!(stack_trace_csip_first(&m, &mut e, 0x10F7, CS2, 0x0321, bp));
            assert_eq!((e.w_ss, e.w_cs, e.w_ip, e.w_bp), (0x10F7, CS2, 0x0321, bp));
        }
    }

    #[test]
    fn csip_first_sets_htask_to_the_current_task() {
        let m = machine();
        let mut e = ste(0);
        assert!(stack_trace_csip_first(&m, &mut e, SS, CS1, 0, 0x600));
        assert_eq!(e.h_task, CUR);
    }

    #[test]
    fn csip_first_leaves_wflags_as_the_caller_had_it() {
        let m = machine();
        for flags in [
            UNTOUCHED,
            StackTraceEntry::FRAME_NEAR,
            StackTraceEntry::FRAME_FAR,
        ] {
            let mut e = ste(0);
            e.w_flags = flags;
            assert!(stack_trace_csip_first(&m, &mut e, SS, CS1, 0, 0x600));
            assert_eq!(e.w_flags, flags);
        }
    }

    #[test]
    fn csip_first_fills_module_and_segment() {
        let m = machine();
        let mut e = ste(0);
        assert!(stack_trace_csip_first(&m, &mut e, SS, CS1, 0, 0x600));
        assert_eq!((e.h_module, e.w_segment), (0x1036, 2));
        // Any RPL of the same selector belongs to the same owner.
        assert!(stack_trace_csip_first(&m, &mut e, SS, CS2 & !1, 0, 0x600));
        assert_eq!((e.h_module, e.w_segment), (0x1046, 1));
    }

    #[test]
    fn info_wcs_zero_leaves_module_and_segment() {
        let mut m = machine();
        m.set_code_owner(
            0,
            CodeOwner {
                hmodule: 0x9999,
                segment: Some(9),
            },
        );
        let mut e = ste(0);
        assert!(stack_trace_csip_first(&m, &mut e, SS, 0, 0x100, 0x600));
        assert_eq!((e.h_module, e.w_segment), (UNTOUCHED, UNTOUCHED));
    }

    #[test]
    fn info_no_matching_segment_entry_leaves_wsegment() {
        let mut m = machine();
        m.set_code_owner(
            DS,
            CodeOwner {
                hmodule: 0x1066,
                segment: None,
            },
        );
        let mut e = ste(0);
        assert!(stack_trace_csip_first(&m, &mut e, SS, DS, 0, 0x600));
        assert_eq!((e.h_module, e.w_segment), (0x1066, UNTOUCHED));
    }

    #[test]
    fn info_no_owner_leaves_both() {
        let m = machine();
        let mut e = ste(0);
        assert!(stack_trace_csip_first(&m, &mut e, SS, CS_NP, 0, 0x600));
        assert_eq!((e.h_module, e.w_segment), (UNTOUCHED, UNTOUCHED));
    }

    // ---- StackTraceNext -----------------------------------------------

    #[test]
    fn next_step2_bp_plus_6_must_not_wrap() {
        let mut m = big_stack();
        let e = StackTraceEntry {
            w_ss: BIG,
            ..ste(0xFFFA)
        };
        next_fails(&m, e, NextFailure::BpWraps { bp: 0xFFFA });
        for bp in [0xFFFB, 0xFFFE, 0xFFFF] {
            next_fails(
                &m,
                StackTraceEntry { w_bp: bp, ..e },
                NextFailure::BpWraps { bp },
            );
        }
        // 0xFFF9 + 6 = 0xFFFF is within a limit of FFFF: the words are read.
        m.write_u16(BIG, 0xFFF9, 0xFFFB); // odd: far
        m.write_u16(BIG, 0xFFFB, 0x0777);
        m.write_u16(BIG, 0xFFFD, CS2);
        let got = next_ok(&m, StackTraceEntry { w_bp: 0xFFF9, ..e });
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0xFFFA, CS2, 0x0777));
    }

    #[test]
    fn next_step2_bp_plus_6_beyond_the_limit_fails() {
        let mut m = machine();
        m.set_instance_data(SS, TOP, 0x1000);
        // LIMIT - 6 = 0FF9: SI+6 = 0FFF = limit, allowed.
        frame(&mut m, LIMIT - 6, LIMIT - 4, 0x0123, CS2);
        let got = next_ok(&m, ste(LIMIT - 6));
        assert_eq!(
            (got.w_bp, got.w_cs, got.w_flags),
            (LIMIT - 5, CS2, StackTraceEntry::FRAME_FAR)
        );
        // 0FFA: SI+6 = 1000 > limit, even though the words read end at 0FFF.
        frame(&mut m, LIMIT - 5, LIMIT - 3, 0x0123, CS2);
        next_fails(
            &m,
            ste(LIMIT - 5),
            NextFailure::BeyondLimit {
                bp: LIMIT - 5,
                limit: LIMIT.into(),
            },
        );
        next_fails(
            &m,
            ste(0x2000),
            NextFailure::BeyondLimit {
                bp: 0x2000,
                limit: LIMIT.into(),
            },
        );
    }

    #[test]
    fn next_step2_unusable_stack_selector_fails() {
        let m = machine();
        let e = StackTraceEntry {
            w_ss: 0x10E7,
            ..ste(0x600)
        };
        next_fails(
            &m,
            e,
            NextFailure::Unreadable {
                off: 0x600,
                err: MemError::BadSelector(0x10E7),
            },
        );
        let e = StackTraceEntry {
            w_ss: CS_NP,
            ..ste(0x600)
        };
        next_fails(
            &m,
            e,
            NextFailure::Unreadable {
                off: 0x600,
                err: MemError::BadSelector(CS_NP),
            },
        );
    }

    #[test]
    fn next_step3_unreadable_word_fails() {
        let mut m = machine();
        // Stack 10E7: limit 1FFF but only its first page mapped.
        m.add_segment(
            0x10E7,
            0x5_0000,
            vec![0; 0x1000],
            0x1FFF,
            Descriptor::DATA_R3,
        );
        m.set_instance_data(0x10E7, TOP, 0x1F00);
        m.write_u16(0x10E7, 0xFFC, 0x1100);
        let e = StackTraceEntry {
            w_ss: 0x10E7,
            ..ste(0xFFC)
        };
        next_fails(
            &m,
            e,
            NextFailure::Unreadable {
                off: 0x1000,
                err: MemError::Unmapped { linear: 0x5_1000 },
            },
        );
    }

    #[test]
    fn next_step4_next_zero_ends_the_chain() {
        let m = machine();
        next_fails(&m, ste(0x600), NextFailure::EndOfChain { bp: 0x600 });
    }

    #[test]
    fn next_step4_next_equal_to_si_fails() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x600, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::NotClimbing {
                bp: 0x600,
                next: 0x600,
            },
        );
    }

    #[test]
    fn next_step4_next_below_si_fails() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x5FE, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::NotClimbing {
                bp: 0x600,
                next: 0x5FE,
            },
        );
        frame(&mut m, 0x600, 0x0001, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::NotClimbing { bp: 0x600, next: 1 },
        );
    }

    #[test]
    fn next_step4_next_below_stack_top_fails() {
        let mut m = machine();
        frame(&mut m, 0x100, TOP - 2, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x100),
            NextFailure::OutOfBounds {
                next: TOP - 2,
                top: TOP.into(),
                bot: BOT.into(),
            },
        );
        frame(&mut m, 0x100, TOP, 0x0123, CS2);
        assert_eq!(
            next_ok(&m, ste(0x100)).w_bp,
            TOP,
            "pStackTop itself is in bounds"
        );
    }

    #[test]
    fn next_step4_next_at_stack_bot_fails_half_open() {
        let mut m = machine();
        frame(&mut m, 0x600, BOT, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::OutOfBounds {
                next: BOT,
                top: TOP.into(),
                bot: BOT.into(),
            },
        );
        frame(&mut m, 0x600, BOT + 2, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::OutOfBounds {
                next: BOT + 2,
                top: TOP.into(),
                bot: BOT.into(),
            },
        );
        frame(&mut m, 0x600, BOT - 2, 0x0123, CS2);
        assert_eq!(next_ok(&m, ste(0x600)).w_bp, BOT - 2);
        // The bounds see next before bit 0 is cleared: BOT + 1 is out.
        frame(&mut m, 0x600, BOT + 1, 0x0123, CS2);
        next_fails(
            &m,
            ste(0x600),
            NextFailure::OutOfBounds {
                next: BOT + 1,
                top: TOP.into(),
                bot: BOT.into(),
            },
        );
    }

    #[test]
    fn next_step4_unreadable_bounds_fail() {
        let mut m = machine();
        // Stack 10E7 whose first page (the instance data) is not mapped.
        m.add_segment(0x10E7, 0x6_0000, vec![], 0x1FFF, Descriptor::DATA_R3);
        m.write_linear(0x6_1000, &[0; 0x1000]);
        m.write_u16(0x10E7, 0x1100, 0x1200);
        let e = StackTraceEntry {
            w_ss: 0x10E7,
            ..ste(0x1100)
        };
        next_fails(&m, e, NextFailure::NoBounds { ss: 0x10E7 });
        // The end of the chain is found without the bounds.
        m.write_u16(0x10E7, 0x1100, 0);
        next_fails(&m, e, NextFailure::EndOfChain { bp: 0x1100 });
    }

    #[test]
    fn next_step5_odd_next_is_far_with_bit_0_cleared() {
        let mut m = machine();
        // Even a candidate that would fail the even-BP checks is taken.
        frame(&mut m, 0x600, 0x0701, 0x0ABC, DS);
        let got = next_ok(&m, ste(0x600));
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0x0700, DS, 0x0ABC));
        assert_eq!(got.w_flags, StackTraceEntry::FRAME_FAR);
        assert_eq!(got.w_ss, SS);
    }

    #[test]
    fn next_step5_even_next_with_valid_ring3_code_candidate_is_far() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0700, 0x03FE, CS2);
        let got = next_ok(&m, ste(0x600));
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0x0700, CS2, 0x03FE));
        assert_eq!(got.w_flags, StackTraceEntry::FRAME_FAR);
    }

    #[test]
    fn next_step5_even_next_with_rpl_mismatch_is_near() {
        let mut m = machine();
        // 102C names CS2's descriptor, but with RPL 0 against wCS's RPL 3.
        frame(&mut m, 0x600, 0x0700, 0x0100, CS2 & !3);
        let got = next_ok(&m, ste(0x600));
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0x0700, CS1, 0x0100));
        assert_eq!(got.w_flags, StackTraceEntry::FRAME_NEAR);
        // And the other way round: ring-3 candidate, ring-0 caller.
        frame(&mut m, 0x600, 0x0700, 0x0100, CS2);
        let e = StackTraceEntry {
            w_cs: CS1 & !3,
            ..ste(0x600)
        };
        let got = next_ok(&m, e);
        assert_eq!(
            (got.w_cs, got.w_flags),
            (CS1 & !3, StackTraceEntry::FRAME_NEAR)
        );
    }

    #[test]
    fn next_step5_even_next_with_data_segment_candidate_is_near() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0700, 0x0100, DS);
        let got = next_ok(&m, ste(0x600));
        assert_eq!(
            (got.w_cs, got.w_ip, got.w_flags),
            (CS1, 0x0100, StackTraceEntry::FRAME_NEAR)
        );
    }

    #[test]
    fn next_step5_even_next_with_not_present_candidate_is_near() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0700, 0x0100, CS_NP);
        let got = next_ok(&m, ste(0x600));
        assert_eq!((got.w_cs, got.w_flags), (CS1, StackTraceEntry::FRAME_NEAR));
    }

    #[test]
    fn next_step5_even_next_needs_limit_greater_than_ip() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0700, 0x03FF, CS2); // IP == limit
        let got = next_ok(&m, ste(0x600));
        assert_eq!(
            (got.w_cs, got.w_ip, got.w_flags),
            (CS1, 0x03FF, StackTraceEntry::FRAME_NEAR)
        );
        frame(&mut m, 0x600, 0x0700, 0x0400, CS2); // IP > limit
        assert_eq!(next_ok(&m, ste(0x600)).w_flags, StackTraceEntry::FRAME_NEAR);
        frame(&mut m, 0x600, 0x0700, 0x03FE, CS2); // IP == limit - 1
        assert_eq!(next_ok(&m, ste(0x600)).w_flags, StackTraceEntry::FRAME_FAR);
    }

    #[test]
    fn next_step5_even_next_with_unknown_selector_is_near() {
        let mut m = machine();
        for cand in [0x1F07u16, 0x0003, 0x0000] {
            frame(&mut m, 0x600, 0x0700, 0x0010, cand);
            let mut e = ste(0x600);
            e.w_cs = cand & 3 | (CS1 & !3); // same RPL as the candidate
            let got = next_ok(&m, e);
            assert_eq!(
                (got.w_cs, got.w_flags),
                (e.w_cs, StackTraceEntry::FRAME_NEAR)
            );
        }
    }

    #[test]
    fn next_step5_near_keeps_wcs_and_step6_refills_module() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0700, 0x0100, DS);
        let mut e = ste(0x600);
        e.w_cs = CS2;
        let got = next_ok(&m, e);
        assert_eq!(got.w_cs, CS2);
        assert_eq!((got.h_module, got.w_segment), (0x1046, 1));
        assert_eq!(got.h_task, UNTOUCHED, "StackTraceNext does not write hTask");
        assert_eq!(got.dw_size, 0x14);
    }

    #[test]
    fn next_step6_far_frame_fills_module_and_segment() {
        let mut m = machine();
        frame(&mut m, 0x600, 0x0701, 0x0100, CS2);
        let got = next_ok(&m, ste(0x600));
        assert_eq!((got.h_module, got.w_segment), (0x1046, 1));
        // No owner for the new CS: both stay as they were.
        frame(&mut m, 0x600, 0x0701, 0x0100, CS_NP);
        let got = next_ok(&m, ste(0x600));
        assert_eq!(
            (got.w_cs, got.h_module, got.w_segment),
            (CS_NP, UNTOUCHED, UNTOUCHED)
        );
    }

    #[test]
    fn next_every_failure_leaves_the_struct_byte_identical() {
        let mut m = machine();
        frame(&mut m, 0x300, 0x0000, 0x1111, CS2); // end of chain
        frame(&mut m, 0x310, 0x0310, 0x1111, CS2); // not climbing
        frame(&mut m, 0x320, 0x0FF1, 0x1111, CS2); // beyond pStackBot
        let cases = [
            (
                StackTraceEntry {
                    dw_size: 0,
                    ..ste(0x300)
                },
                1,
            ),
            (ste(0xFFFC), 2),
            (ste(0x0FFA), 2),
            (
                StackTraceEntry {
                    w_ss: 0x10E7,
                    ..ste(0x300)
                },
                3,
            ),
            (ste(0x300), 4),
            (ste(0x310), 4),
            (ste(0x320), 4),
        ];
        for (e, step) in cases {
            let mut got = e;
            let err = stack_trace_next_explained(&m, &mut got).unwrap_err();
            assert_eq!(err.step(), step, "{err}");
            assert_eq!(got.to_bytes(), e.to_bytes(), "{err}");
        }
    }

    #[test]
    fn a_saved_bp_of_one_is_told_as_the_outermost_far_frame() {
        // `inc bp; push bp` with BP = 0 saves 0001: still a failure of
        // step 4 (it does not climb), told as the chain's normal end.
        let e = NextFailure::NotClimbing {
            bp: 0x25D0,
            next: 0x0001,
        };
        assert_eq!(e.step(), 4);
        let t = e.to_string();
        assert!(
            t.starts_with("saved BP 0001 at SS:25D0 is BP 0 with the far-call mark"),
            "{t}"
        );
        assert!(t.ends_with("the end of the chain"), "{t}");
    }

    #[test]
    fn next_failure_sentences_cite_the_rule() {
        let e = NextFailure::NotClimbing {
            bp: 0x0F30,
            next: 0x0F20,
        };
        assert_eq!(
            e.to_string(),
            "saved BP 0F20 at SS:0F30 does not climb (must be > 0F30): chain ends"
        );
        assert_eq!(e.step(), 4);
        let s = StopReason::Next(e).to_string();
        assert!(s.starts_with("StackTraceNext step 4 fails: "), "{s}");
    }

    #[test]
    fn real_mode_even_next_is_near() {
        let mut m = real_machine();
        // 0x1003 would pass every protected-mode check (RPL 3 like RCS,
        // "present code" per Descriptor::real): real mode ignores it.
        m.write_u16(RSS, 0x600, 0x0700);
        m.write_u16(RSS, 0x602, 0x0100);
        m.write_u16(RSS, 0x604, 0x1003);
        let mut e = rste(0x600);
        e.w_cs = 0x1003;
        let got = next_ok(&m, e);
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0x0700, 0x1003, 0x0100));
        assert_eq!(got.w_flags, StackTraceEntry::FRAME_NEAR);
    }

    #[test]
    fn real_mode_odd_next_is_far() {
        let mut m = real_machine();
        m.write_u16(RSS, 0x600, 0x0701);
        m.write_u16(RSS, 0x602, 0x0100);
        m.write_u16(RSS, 0x604, RCS);
        let mut e = rste(0x600);
        e.w_cs = 0x3000;
        let got = next_ok(&m, e);
        assert_eq!((got.w_bp, got.w_cs, got.w_ip), (0x0700, RCS, 0x0100));
        assert_eq!(got.w_flags, StackTraceEntry::FRAME_FAR);
        assert_eq!(
            (got.h_module, got.w_segment),
            (0x0F00, UNTOUCHED),
            "the PSP owns it; no NE segment"
        );
    }

    #[test]
    fn real_mode_bounds_are_the_whole_segment() {
        let mut m = real_machine();
        assert_eq!(stack_bounds(&m, RSS), Some((0, 0x1_0000)));
        m.write_u16(RSS, 0x0004, 0xFFF8);
        let got = next_ok(&m, rste(0x0004));
        assert_eq!(got.w_bp, 0xFFF8);
        next_fails(&m, rste(0xFFF8), NextFailure::EndOfChain { bp: 0xFFF8 });
        next_fails(&m, rste(0xFFFA), NextFailure::BpWraps { bp: 0xFFFA });
        // CSIPFirst: hTask is the PSP.
        let mut e = rste(0);
        assert!(stack_trace_csip_first(&m, &mut e, RSS, RCS, 0x10, 0x20));
        assert_eq!(
            (e.h_task, e.h_module, e.w_segment),
            (0x0F00, 0x0F00, UNTOUCHED)
        );
    }
}
