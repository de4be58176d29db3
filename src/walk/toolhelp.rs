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

use std::fmt;

use serde::Serialize;

use super::memory::{CpuMode, MemError, WalkMemory};

/// STACKTRACEENTRY (toolhelp.md, "Structures and constants"): 0x14 bytes,
/// packed, little-endian.
///
/// | off | field |
/// | --- | --- |
/// | 00 | dwSize |
/// | 04 | hTask |
/// | 06 | wSS |
/// | 08 | wBP |
/// | 0A | wCS |
/// | 0C | wIP |
/// | 0E | hModule |
/// | 10 | wSegment |
/// | 12 | wFlags |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StackTraceEntry {
    /// Must be [`StackTraceEntry::SIZE`] before every call.
    #[serde(rename = "dwSize")]
    pub dw_size: u32,
    /// Task whose stack this is (the TDB selector).
    #[serde(rename = "hTask")]
    pub h_task: u16,
    /// Stack segment.
    #[serde(rename = "wSS")]
    pub w_ss: u16,
    /// Frame pointer of this frame.
    #[serde(rename = "wBP")]
    pub w_bp: u16,
    /// Code segment of this frame's CS:IP.
    #[serde(rename = "wCS")]
    pub w_cs: u16,
    /// Instruction pointer (a return address for every frame but the first).
    #[serde(rename = "wIP")]
    pub w_ip: u16,
    /// Module owning wCS.
    #[serde(rename = "hModule")]
    pub h_module: u16,
    /// 1-based NE segment number of wCS in that module.
    #[serde(rename = "wSegment")]
    pub w_segment: u16,
    /// [`StackTraceEntry::FRAME_FAR`] or [`StackTraceEntry::FRAME_NEAR`].
    #[serde(rename = "wFlags")]
    pub w_flags: u16,
}

impl StackTraceEntry {
    /// sizeof(STACKTRACEENTRY): the only dwSize the functions accept.
    pub const SIZE: usize = 0x14;
    /// wFlags of a frame reached by a far call.
    pub const FRAME_FAR: u16 = 0;
    /// wFlags of a frame reached by a near call.
    pub const FRAME_NEAR: u16 = 1;

    /// The packed little-endian bytes, offsets as in the table above.
    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0x00..0x04].copy_from_slice(&self.dw_size.to_le_bytes());
        let words = [
            self.h_task,
            self.w_ss,
            self.w_bp,
            self.w_cs,
            self.w_ip,
            self.h_module,
            self.w_segment,
            self.w_flags,
        ];
        for (i, w) in words.iter().enumerate() {
            let off = 4 + 2 * i;
            b[off..off + 2].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// Parse the first 0x14 bytes of `bytes`; `None` if there are fewer.
    /// dwSize is taken as it is, not checked (the functions check it).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..Self::SIZE)?;
        let w = |off: usize| u16::from_le_bytes([b[off], b[off + 1]]);
        Some(StackTraceEntry {
            dw_size: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            h_task: w(0x04),
            w_ss: w(0x06),
            w_bp: w(0x08),
            w_cs: w(0x0A),
            w_ip: w(0x0C),
            h_module: w(0x0E),
            w_segment: w(0x10),
            w_flags: w(0x12),
        })
    }

    fn size_ok(&self) -> bool {
        self.dw_size == Self::SIZE as u32
    }
}

impl Default for StackTraceEntry {
    /// dwSize = 0x14, everything else 0.
    fn default() -> Self {
        StackTraceEntry {
            dw_size: Self::SIZE as u32,
            h_task: 0,
            w_ss: 0,
            w_bp: 0,
            w_cs: 0,
            w_ip: 0,
            h_module: 0,
            w_segment: 0,
            w_flags: 0,
        }
    }
}

/// The stack bounds a walk trusts, `[pStackTop, pStackBot)` (toolhelp.md,
/// "Where the stack bounds live").
///
/// - Protected mode: pStackTop = word [SS:0A] and pStackBot = word [SS:0E]
///   of the stack segment's instance data; `None` if either read fails.
/// - Real mode: there is no instance data, so the bounds are the whole
///   64 KiB segment, `(0, 0x10000)` (hence `u32`).
pub fn stack_bounds(mem: &dyn WalkMemory, ss: u16) -> Option<(u32, u32)> {
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
fn stack_limit(mem: &dyn WalkMemory, ss: u16) -> Result<u32, MemError> {
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
pub fn stack_trace_info(mem: &dyn WalkMemory, ste: &mut StackTraceEntry) {
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

/// Why StackTraceFirst failed (toolhelp.md, StackTraceFirst steps 1-5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstFailure {
    /// Step 1: dwSize is not 0x14. Structure untouched.
    BadSize { size: u32 },
    /// Step 2: the TDB signature at hTask:FA cannot be read. Untouched.
    BadSelector { h_task: u16, err: MemError },
    /// Step 2: the word at hTask:FA is not 'TD' (0x4454). Untouched.
    NotATask { h_task: u16, signature: u16 },
    /// Step 2: hTask is the current task. Untouched.
    CurrentTask { h_task: u16 },
    /// Step 3: the saved SS:SP or the scheduler frame cannot be read.
    /// Untouched.
    Unreadable { seg: u16, off: u32, err: MemError },
    /// Step 5: the saved BP is 0 (a task that never ran). Filled.
    NoFrame,
    /// Step 5: the stack bounds cannot be read. Filled.
    NoBounds { ss: u16 },
    /// Step 5: the saved BP is outside `[pStackTop, pStackBot)`. Filled.
    OutOfBounds { bp: u16, top: u32, bot: u32 },
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
pub fn stack_trace_csip_first(
    mem: &dyn WalkMemory,
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
    BadSize { size: u32 },
    /// Step 2: BP + 6 wraps past 0xFFFF (BP > 0xFFF9).
    BpWraps { bp: u16 },
    /// Step 2: offset BP + 6 lies beyond the stack segment's limit.
    BeyondLimit { bp: u16, limit: u32 },
    /// Steps 2-3: the stack segment or a word of the frame cannot be read
    /// (`off` is the offset in SS of the word, or BP when the stack
    /// segment itself is unusable).
    Unreadable { off: u16, err: MemError },
    /// Step 4: the saved BP at SS:BP is 0: the end of the chain.
    EndOfChain { bp: u16 },
    /// Step 4: the saved BP `next` at SS:`bp` is not above `bp`.
    NotClimbing { bp: u16, next: u16 },
    /// Step 4: the saved BP lies outside `[pStackTop, pStackBot)`.
    OutOfBounds { next: u16, top: u32, bot: u32 },
    /// Step 4: the stack bounds (SS:0A, SS:0E) cannot be read.
    NoBounds { ss: u16 },
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
/// 3. next = [SS:SI], IP = [SS:SI+2], candidate CS = [SS:SI+4], each read
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
    // Step 1.
    if !ste.size_ok() {
        return Err(NextFailure::BadSize { size: ste.dw_size });
    }
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
    // Step 3 (si <= 0xFFF9, so si + 4 cannot overflow).
    let word = |off: u16| {
        mem.read_u16(ss, off)
            .map_err(|err| NextFailure::Unreadable { off, err })
    };
    let mut next = word(si)?;
    let ip = word(si + 2)?;
    let candidate = word(si + 4)?;
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
    // Step 5.
    let far = next & 1 != 0 || even_frame_is_far(mem, ste.w_cs, candidate, ip);
    let (cs, flags) = if far {
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
    Ok(())
}

/// StackTraceNext step 5 for an even saved BP: far only if the candidate CS
/// has the same RPL as the caller's code (`cur_cs`), names a present code
/// segment, and that segment's limit is greater than IP. Always near in
/// real mode, which has no descriptors to check.
fn even_frame_is_far(mem: &dyn WalkMemory, cur_cs: u16, candidate: u16, ip: u16) -> bool {
    if mem.mode() == CpuMode::Real || candidate & 3 != cur_cs & 3 {
        return false;
    }
    match mem.descriptor(candidate) {
        Some(d) => d.present() && d.is_code() && d.limit > u32::from(ip),
        None => false,
    }
}

/// Why a walk stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// StackTraceFirst refused the task (no frames).
    First(FirstFailure),
    /// StackTraceNext failed: the rule that ended the chain.
    Next(NextFailure),
    /// `max_frames` frames were collected and StackTraceNext had another.
    FrameCap { max: usize },
    /// StackTraceNext succeeded without moving BP (a saved BP equal to its
    /// own even BP + 1): it would return this last frame forever, so the
    /// walk stops. Not a StackTraceNext failure; see
    /// [`stack_trace_next_explained`].
    Stalled { bp: u16 },
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
    let mut ste = StackTraceEntry::default();
    // Cannot fail: dwSize is 0x14 by construction.
    stack_trace_csip_first(mem, &mut ste, ss, cs, ip, bp);
    walk_on(mem, ste, max_frames)
}

/// Walk a task that is not running: StackTraceFirst, then StackTraceNext
/// until it fails, at most `max_frames` frames in all. If StackTraceFirst
/// fails the walk has no frames and says why.
pub fn walk_task(mem: &dyn WalkMemory, h_task: u16, max_frames: usize) -> Walk {
    let mut ste = StackTraceEntry::default();
    match stack_trace_first_explained(mem, &mut ste, h_task) {
        Ok(()) => walk_on(mem, ste, max_frames),
        Err(e) => Walk {
            frames: Vec::new(),
            stop: StopReason::First(e),
        },
    }
}

fn walk_on(mem: &dyn WalkMemory, mut ste: StackTraceEntry, max_frames: usize) -> Walk {
    let mut frames = Vec::new();
    if max_frames == 0 {
        return Walk {
            frames,
            stop: StopReason::FrameCap { max: 0 },
        };
    }
    frames.push(ste);
    loop {
        let before = ste.w_bp;
        if let Err(e) = stack_trace_next_explained(mem, &mut ste) {
            return Walk {
                frames,
                stop: StopReason::Next(e),
            };
        }
        if frames.len() >= max_frames {
            return Walk {
                frames,
                stop: StopReason::FrameCap { max: max_frames },
            };
        }
        frames.push(ste);
        if ste.w_bp <= before {
            return Walk {
                frames,
                stop: StopReason::Stalled { bp: ste.w_bp },
            };
        }
    }
}
