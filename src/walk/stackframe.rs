//! The later Windows vocabulary over 16-bit stacks: ADDRESS64 with its
//! modes, STACKFRAME64, and a StackWalk-style step that fills one
//! STACKFRAME64 per 16-bit frame (`shared/spec/dbghelp.md`; seeds 004, the
//! STACKFRAME reference, and 000, the IStackWalker bug).
//!
//! # The step
//!
//! [`StackWalker::step`] is called like dbghelp's StackWalk64: the caller
//! fills AddrPC, AddrFrame and AddrStack of a STACKFRAME64, in any
//! [`AddrMode`], and calls it repeatedly with the same structure; each call
//! that succeeds describes one frame, the innermost first.
//!
//! The first call translates each of the three ADDRESSes **by its own
//! Mode** (dbghelp.md, "ADDRESS and its modes"; [`resolve`]) into the
//! machine's own segment:offset form — CS:IP, SS:BP and SS:SP — through the
//! walked machine's descriptor tables. An address that cannot be translated
//! fails the first call with an [`AddressFailure`] naming the field, the
//! mode and the offending selector ("AddrFrame is AddrMode1616 with
//! selector 0x0000: null selector"), never a guess. The [`WalkContext`]
//! (the registers, as StackWalk64's ContextRecord) only says in which
//! segment a flat or real-mode linear address is to be expressed; its
//! CS:IP, SS:BP and SP values are not used.
//!
//! From there the walk is exactly the ToolHelp walk of `toolhelp.md`:
//! StackTraceCSIPFirst at the translated CS:IP and SS:BP, then
//! StackTraceNext ([`super::toolhelp`]), seeing through TOOLHELP's fault
//! dispatch frame when a dispatch address is given (as
//! [`super::dispatch::through_dispatch`] does for the ToolHelp walk). So
//! frame *i* here has the CS:IP and BP of ToolHelp entry *i*, and the walk
//! ends where the ToolHelp walk ends, for the same [`StopReason`].
//!
//! # What each member means for a 16-bit frame
//!
//! For frame *i* (ToolHelp entry *i*, BP = its wBP):
//!
//! - **AddrPC**: the entry's wCS:wIP — for frame 0 the translated start,
//!   for every later frame a return address.
//! - **AddrReturn**: the CS:IP of frame *i+1* (the next frame's AddrPC).
//!   For the last frame, where the walk ends, it is the return address the
//!   frame itself holds (IP = [BP+2], CS = [BP+4] when the frame is far,
//!   else this frame's CS) when StackTraceNext's three words [BP], [BP+2],
//!   [BP+4] can be read; otherwise Offset and Segment are 0. A real-mode
//!   walk that starts with BP = 0 has no chain (toolhelp16's rule,
//!   [`super::toolhelp::no_chain_at_start`]): its one frame has
//!   AddrReturn 0, Far FALSE and Params 0.
//! - **AddrFrame**: SS:BP.
//! - **AddrStack**: SS:SP — for frame 0 the translated start; for a frame
//!   reached by StackTraceNext, the SP just after the return that leads to
//!   it: the callee's BP + 4 (near) or + 6 (far); for the frame a fault
//!   dispatch leads to, the SP at the fault (the dispatch frame's address
//!   + 0x10, or the saved SP of a low-stack fault).
//! - **Far**: TRUE when this frame's function was reached by a far call,
//!   i.e. its return address (AddrReturn) is a far pointer. It is decided
//!   by StackTraceNext step 5 when stepping from this frame, so **Far of
//!   frame *i* equals `wFlags == FRAME_FAR` of ToolHelp entry *i+1***
//!   (entry *i*'s own wFlags tells how entry *i* was reached, which is Far
//!   of frame *i−1*). For the last frame, step 5's rule is applied to the
//!   words the frame holds when they can be read (odd saved BP, or the
//!   even-BP candidate test), else Far is FALSE. After a fault dispatch
//!   frame the next entry comes from StackTraceCSIPFirst, which leaves
//!   wFlags 0 (FRAME_FAR), so the dispatch frame has Far TRUE.
//! - **Params[0..3]**: the four words above the return address, where a
//!   `pascal` or `cdecl` function finds its arguments: [BP+6..] when Far,
//!   [BP+4..] when not; a word that cannot be read (past the segment's
//!   limit) is 0.
//! - **Virtual**: TRUE only for a fault dispatch frame (toolhelp.md,
//!   "InterruptRegister callbacks: the fault frame"): its AddrReturn — the
//!   faulting CS:IP — is synthesised from TOOLHELP's fault frame rather
//!   than read from [BP+2]. These are exactly the frames the ToolHelp walk
//!   lists as virtual.
//! - FuncTableEntry, AddrBStore, Reserved and KdHelp are 0.
//!
//! # Output modes
//!
//! Every filled ADDRESS is written in AddrModeFlat (Segment 0, Offset the
//! linear address) when the corresponding input was flat (AddrReturn
//! follows AddrPC), and otherwise in the machine's own mode: AddrMode1616
//! (Segment a selector) in protected mode, AddrModeReal (Segment a
//! paragraph) in real mode. So a walk started flat reports flat addresses,
//! a walk started natively reports 16:16 ones, and both describe the same
//! frames.
//!
//! # Files
//!
//! - `stackframe/layout.rs`: ADDRESS64, its modes and STACKFRAME64, with
//!   their byte layouts and JSON form.
//! - `stackframe/resolve.rs`: translating an ADDRESS64 by its mode into the
//!   machine's segment:offset, and why one cannot be.
//! - this file: the step ([`StackWalker`]) and whole walks.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::memory::WalkMemory;
use super::toolhelp::{
    StackTraceEntry, StopReason, even_frame_is_far, no_chain_at_start, stack_trace_csip_first,
    stack_trace_next_explained,
};

mod layout;
mod resolve;

pub use layout::{AddrMode, Address64, FrameJson, StackFrame64, mode_name};
pub use resolve::{
    AddressFailure, AddressProblem, Field, check_selector, linear_address, native_linear, resolve,
};

/// The registers a walk starts from, as StackWalk64's ContextRecord: the
/// segments flat and real-mode addresses are expressed in, and the values
/// the [`Start`] conventions put into the first STACKFRAME64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WalkContext {
    /// CS.
    pub cs: u16,
    /// IP.
    pub ip: u16,
    /// SS.
    pub ss: u16,
    /// SP.
    pub sp: u16,
    /// BP.
    pub bp: u16,
}

/// How a caller fills the first STACKFRAME64 from the registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Start {
    /// Each ADDRESS in the machine's own mode: AddrMode1616 (selector) in
    /// protected mode, AddrModeReal (paragraph) in real mode.
    Native,
    /// Each ADDRESS as an AddrModeFlat linear address (Segment 0).
    Flat,
    /// What OLE32's IStackWalker::CreateStackTrace did (seed 000): the
    /// three flat offsets, AddrPC and AddrStack marked AddrModeFlat,
    /// AddrFrame's Mode left 0 = AddrMode1616 (and its Segment 0). The
    /// first step must fail on AddrFrame.
    IStackWalker,
}

impl Start {
    /// Every start, in the order the CLI lists them.
    pub const ALL: [Start; 3] = [Start::Native, Start::Flat, Start::IStackWalker];

    /// The CLI's name: `native`, `flat`, `istackwalker`.
    pub fn name(self) -> &'static str {
        match self {
            Start::Native => "native",
            Start::Flat => "flat",
            Start::IStackWalker => "istackwalker",
        }
    }
}

impl std::str::FromStr for Start {
    type Err = String;
    fn from_str(s: &str) -> Result<Start, String> {
        Start::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| format!("'{s}': the start is native, flat or istackwalker"))
    }
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The first STACKFRAME64 a caller following `start` builds from the
/// registers `ctx`: AddrPC = CS:IP, AddrFrame = SS:BP, AddrStack = SS:SP,
/// everything else 0. A flat offset of a selector without a descriptor is
/// the bare offset (the walk then fails to translate it).
pub fn start_frame(mem: &dyn WalkMemory, ctx: &WalkContext, start: Start) -> StackFrame64 {
    let native = AddrMode::native(mem.mode());
    let flat = |seg: u16, off: u16| {
        Address64::new(
            AddrMode::Flat,
            0,
            native_linear(mem, seg, off).map_or(u64::from(off), u64::from),
        )
    };
    let (pc, frame, stack) = match start {
        Start::Native => (
            Address64::new(native, ctx.cs, ctx.ip.into()),
            Address64::new(native, ctx.ss, ctx.bp.into()),
            Address64::new(native, ctx.ss, ctx.sp.into()),
        ),
        Start::Flat => (
            flat(ctx.cs, ctx.ip),
            flat(ctx.ss, ctx.bp),
            flat(ctx.ss, ctx.sp),
        ),
        Start::IStackWalker => {
            let mut frame = flat(ctx.ss, ctx.bp);
            frame.mode = 0;
            (flat(ctx.cs, ctx.ip), frame, flat(ctx.ss, ctx.sp))
        }
    };
    StackFrame64 {
        addr_pc: pc,
        addr_frame: frame,
        addr_stack: stack,
        ..StackFrame64::default()
    }
}

/// Why a step did not describe a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// The first step could not translate an ADDRESS of the start.
    Address(AddressFailure),
    /// The walk has ended: the rule that ended it, as for the ToolHelp
    /// walk.
    End(StopReason),
}

impl StepError {
    /// `address` for a first-step failure, else [`StopReason::kind`].
    pub fn kind(&self) -> &'static str {
        match self {
            StepError::Address(_) => "address",
            StepError::End(r) => r.kind(),
        }
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Address(a) => write!(f, "the first step fails: {a}"),
            StepError::End(r) => write!(f, "{r}"),
        }
    }
}

impl std::error::Error for StepError {}

/// A frame the next step describes.
#[derive(Debug, Clone, Copy)]
struct Pending {
    entry: StackTraceEntry,
    sp: u16,
    /// Frames since the walk (re)started: a dispatch frame is recognised
    /// only after the first, as in [`super::dispatch::through_dispatch`].
    since_start: usize,
    /// The previous frame's BP, where a dispatch frame's fault frame is.
    prev_bp: Option<u16>,
    /// StackTraceNext reached this frame without moving BP: it is the
    /// last ([`StopReason::Stalled`]).
    stalled: bool,
    /// A dispatch frame earlier in this (sub)walk had an unreadable fault
    /// frame: like `through_dispatch`, which looks only at the first
    /// dispatch frame, see through no later one.
    dispatch_off: bool,
}

/// What a frame is to the dispatch see-through.
enum Dispatch {
    /// Not a dispatch frame (or see-through is off).
    No,
    /// A dispatch frame whose fault frame cannot be read.
    Unreadable,
    /// A dispatch frame: the faulting context's frame comes next.
    Through(Pending),
}

#[derive(Debug, Clone)]
enum State {
    Start,
    Next(Pending),
    Done(StepError),
}

#[derive(Debug, Clone, Copy)]
struct Modes {
    pc: u32,
    frame: u32,
    stack: u32,
}

/// A StackWalk64-style walker over a 16-bit machine (module
/// documentation). The per-walk state StackWalk64 keeps in Reserved[] is
/// kept here, so the structure's Reserved members stay 0.
#[derive(Debug, Clone)]
pub struct StackWalker {
    ctx: WalkContext,
    dispatch: Option<(u16, u16)>,
    max_frames: usize,
    state: State,
    modes: Modes,
    index: usize,
    entry: Option<StackTraceEntry>,
}

impl StackWalker {
    /// A walk from `ctx`, seeing through fault dispatch frames whose
    /// return address is `dispatch` (TOOLHELP's pass-on CS:IP), describing
    /// at most `max_frames` frames.
    pub fn new(ctx: WalkContext, dispatch: Option<(u16, u16)>, max_frames: usize) -> Self {
        StackWalker {
            ctx,
            dispatch,
            max_frames,
            state: State::Start,
            modes: Modes {
                pc: 0,
                frame: 0,
                stack: 0,
            },
            index: 0,
            entry: None,
        }
    }

    /// The ToolHelp entry of the frame the last successful step described.
    pub fn entry(&self) -> Option<&StackTraceEntry> {
        self.entry.as_ref()
    }

    /// One step (module documentation): the first call translates
    /// `frame`'s AddrPC, AddrFrame and AddrStack and describes the frame
    /// there; each later call describes the next frame up. Every
    /// successful call overwrites the whole structure. After a failure
    /// every later call fails the same way.
    pub fn step(
        &mut self,
        mem: &dyn WalkMemory,
        frame: &mut StackFrame64,
    ) -> Result<(), StepError> {
        let pending = match std::mem::replace(&mut self.state, State::Start) {
            State::Done(e) => {
                self.state = State::Done(e.clone());
                return Err(e);
            }
            State::Start => match self.first(mem, frame) {
                Ok(p) => p,
                Err(e) => {
                    self.state = State::Done(e.clone());
                    return Err(e);
                }
            },
            State::Next(p) => p,
        };
        if self.index >= self.max_frames {
            let e = StepError::End(StopReason::FrameCap {
                max: self.max_frames,
            });
            self.state = State::Done(e.clone());
            return Err(e);
        }
        self.emit(mem, pending, frame);
        Ok(())
    }

    /// Translate the start and make frame 0 (StackTraceCSIPFirst).
    fn first(&mut self, mem: &dyn WalkMemory, frame: &StackFrame64) -> Result<Pending, StepError> {
        let ctx = self.ctx;
        let (cs, ip) =
            resolve(mem, Field::AddrPC, &frame.addr_pc, ctx.cs).map_err(StepError::Address)?;
        let (ss, bp) = resolve(mem, Field::AddrFrame, &frame.addr_frame, ctx.ss)
            .map_err(StepError::Address)?;
        let (stack_ss, sp) = resolve(mem, Field::AddrStack, &frame.addr_stack, ctx.ss)
            .map_err(StepError::Address)?;
        if stack_ss != ss {
            return Err(StepError::Address(AddressFailure {
                field: Field::AddrStack,
                address: frame.addr_stack,
                problem: AddressProblem::TwoStacks {
                    frame_ss: ss,
                    stack_ss,
                },
            }));
        }
        let out = |m: u32| {
            if m == AddrMode::Flat.value() {
                m
            } else {
                AddrMode::native(mem.mode()).value()
            }
        };
        self.modes = Modes {
            pc: out(frame.addr_pc.mode),
            frame: out(frame.addr_frame.mode),
            stack: out(frame.addr_stack.mode),
        };
        let mut entry = StackTraceEntry::default();
        // Cannot fail: dwSize is 0x14 by construction.
        stack_trace_csip_first(mem, &mut entry, ss, cs, ip, bp);
        Ok(Pending {
            entry,
            sp,
            since_start: 0,
            prev_bp: None,
            stalled: false,
            dispatch_off: false,
        })
    }

    /// An address in the output mode `mode` (module doc, "Output modes").
    fn out(mem: &dyn WalkMemory, mode: u32, seg: u16, off: u16) -> Address64 {
        if mode == AddrMode::Flat.value() {
            let linear = native_linear(mem, seg, off).map_or(u64::from(off), u64::from);
            Address64::new(AddrMode::Flat, 0, linear)
        } else {
            Address64::new(AddrMode::native(mem.mode()), seg, off.into())
        }
    }

    /// Describe `p` in `frame` and work out the frame after it.
    fn emit(&mut self, mem: &dyn WalkMemory, p: Pending, frame: &mut StackFrame64) {
        let e = p.entry;
        let ss = e.w_ss;
        let mut virtual_frame = false;
        let dispatch = self.dispatch_continuation(mem, &p);
        let dispatch_off = p.dispatch_off || matches!(dispatch, Dispatch::Unreadable);
        let no_chain = p.since_start == 0 && p.prev_bp.is_none() && no_chain_at_start(mem, &e);
        let next: Result<Pending, StopReason> = match dispatch {
            // toolhelp16's real-mode rule (walk/toolhelp.rs, "Real mode"),
            // as the ToolHelp walk applies it.
            _ if no_chain => Err(StopReason::NoChain),
            Dispatch::Through(cont) => {
                virtual_frame = true;
                Ok(cont)
            }
            Dispatch::No | Dispatch::Unreadable => {
                let mut ste = e;
                match stack_trace_next_explained(mem, &mut ste) {
                    Ok(()) => {
                        let far = ste.w_flags == StackTraceEntry::FRAME_FAR;
                        Ok(Pending {
                            entry: ste,
                            sp: e.w_bp.wrapping_add(if far { 6 } else { 4 }),
                            since_start: p.since_start + 1,
                            prev_bp: Some(e.w_bp),
                            stalled: ste.w_bp <= e.w_bp,
                            dispatch_off,
                        })
                    }
                    Err(f) => Err(StopReason::Next(f)),
                }
            }
        };
        // Far, AddrReturn: from the next frame, else from the words this
        // frame holds (module doc).
        let (far, ret) = match &next {
            Ok(n) => (
                n.entry.w_flags == StackTraceEntry::FRAME_FAR,
                Some((n.entry.w_cs, n.entry.w_ip)),
            ),
            Err(_) if no_chain => (false, None),
            Err(_) => match return_words(mem, &e) {
                Some((far, cs, ip)) => (far, Some((cs, ip))),
                None => (false, None),
            },
        };
        let mut params = [0u64; 4];
        let first = u32::from(e.w_bp) + if far { 6 } else { 4 };
        for (k, p) in params.iter_mut().enumerate().filter(|_| !no_chain) {
            let off = first + 2 * k as u32;
            if let Ok(off) = u16::try_from(off) {
                *p = mem.read_u16(ss, off).map_or(0, u64::from);
            }
        }
        let m = self.modes;
        *frame = StackFrame64 {
            addr_pc: Self::out(mem, m.pc, e.w_cs, e.w_ip),
            addr_return: match ret {
                Some((cs, ip)) => Self::out(mem, m.pc, cs, ip),
                None => Address64 {
                    mode: m.pc,
                    ..Address64::default()
                },
            },
            addr_frame: Self::out(mem, m.frame, ss, e.w_bp),
            addr_stack: Self::out(mem, m.stack, ss, p.sp),
            params,
            far: u32::from(far),
            virtual_frame: u32::from(virtual_frame),
            ..StackFrame64::default()
        };
        self.entry = Some(e);
        self.index += 1;
        self.state = match next {
            _ if p.stalled => State::Done(StepError::End(StopReason::Stalled { bp: e.w_bp })),
            Ok(n) => State::Next(n),
            Err(r) => State::Done(StepError::End(r)),
        };
    }

    /// When `p` is a fault dispatch frame (its CS:IP is the dispatcher's
    /// return address, and it is not the first frame of its walk), the
    /// frame of the faulting context: StackTraceCSIPFirst at the faulting
    /// CS:IP (the words at +0A and +0C of the fault frame, which lies at
    /// the previous frame's BP + 2) and the dispatch frame's BP
    /// (toolhelp.md, "InterruptRegister callbacks: the fault frame"; the
    /// same rules as walk/dispatch.rs). `None` when the fault frame cannot
    /// be read: the walk goes on by StackTraceNext.
    fn dispatch_continuation(&self, mem: &dyn WalkMemory, p: &Pending) -> Dispatch {
        let e = p.entry;
        if p.dispatch_off || p.since_start == 0 || self.dispatch != Some((e.w_cs, e.w_ip)) {
            return Dispatch::No;
        }
        let Some(prev_bp) = p.prev_bp else {
            return Dispatch::No;
        };
        let fault = prev_bp.wrapping_add(2);
        let word = |off: u16| mem.read_u16(e.w_ss, fault.wrapping_add(off)).ok();
        let (Some(ip), Some(cs)) = (word(0x0A), word(0x0C)) else {
            return Dispatch::Unreadable;
        };
        // SP at the fault: just above IP, CS, FLAGS; a low-stack fault
        // (interrupt number with the high bit set) saved it at +10.
        let sp = match word(0x06) {
            Some(n) if n & 0x8000 != 0 => word(0x10).unwrap_or(fault.wrapping_add(0x10)),
            _ => fault.wrapping_add(0x10),
        };
        let mut entry = StackTraceEntry::default();
        stack_trace_csip_first(mem, &mut entry, e.w_ss, cs, ip, e.w_bp);
        entry.h_task = e.h_task;
        Dispatch::Through(Pending {
            entry,
            sp,
            since_start: 0,
            prev_bp: Some(e.w_bp),
            stalled: false,
            dispatch_off: false,
        })
    }
}

/// The return address a frame holds, read as StackTraceNext steps 2, 3
/// and 5 read it, without step 4's checks on the saved BP: (far, CS, IP),
/// or `None` when BP + 6 wraps or a word cannot be read.
fn return_words(mem: &dyn WalkMemory, e: &StackTraceEntry) -> Option<(bool, u16, u16)> {
    let bp = e.w_bp;
    if u32::from(bp) + 6 > 0xFFFF {
        return None;
    }
    let next = mem.read_u16(e.w_ss, bp).ok()?;
    let ip = mem.read_u16(e.w_ss, bp + 2).ok()?;
    let candidate = mem.read_u16(e.w_ss, bp + 4).ok()?;
    if next & 1 != 0 || even_frame_is_far(mem, e.w_cs, candidate, ip) {
        Some((true, candidate, ip))
    } else {
        Some((false, e.w_cs, ip))
    }
}

/// A whole walk: every frame's STACKFRAME64 and ToolHelp entry, and why
/// it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameWalk {
    /// The STACKFRAME64 of each frame, innermost first.
    pub frames: Vec<StackFrame64>,
    /// The ToolHelp entry of each frame (the machine's own view).
    pub entries: Vec<StackTraceEntry>,
    /// Why there are no more frames: a first-step failure (no frames) or
    /// the rule that ended the walk.
    pub end: StepError,
}

/// Step from `start` until the walker fails, at most `max_frames` frames.
pub fn walk_frames(
    mem: &dyn WalkMemory,
    ctx: WalkContext,
    start: &StackFrame64,
    dispatch: Option<(u16, u16)>,
    max_frames: usize,
) -> FrameWalk {
    let mut w = StackWalker::new(ctx, dispatch, max_frames);
    let mut frame = *start;
    let mut frames = Vec::new();
    let mut entries = Vec::new();
    loop {
        match w.step(mem, &mut frame) {
            Ok(()) => {
                frames.push(frame);
                if let Some(e) = w.entry() {
                    entries.push(*e);
                }
            }
            Err(end) => {
                return FrameWalk {
                    frames,
                    entries,
                    end,
                };
            }
        }
    }
}

/// [`walk_frames`] from the registers with one of the [`Start`]
/// conventions.
pub fn walk_with_start(
    mem: &dyn WalkMemory,
    ctx: WalkContext,
    start: Start,
    dispatch: Option<(u16, u16)>,
    max_frames: usize,
) -> FrameWalk {
    let first = start_frame(mem, &ctx, start);
    walk_frames(mem, ctx, &first, dispatch, max_frames)
}

/// Whether two ADDRESSes name the same place: the same Mode and the same
/// Offset (and Segment, except in AddrModeFlat); for different Modes, the
/// same linear address. Two "no address" values (Offset and Segment 0)
/// agree whatever their Modes. Returns the reason they differ.
pub fn same_address(
    mem: &dyn WalkMemory,
    field: Field,
    want: &Address64,
    got: &Address64,
) -> Result<(), String> {
    if want.is_none() && got.is_none() {
        return Ok(());
    }
    let differ = || format!("{field}: expected {want}, got {got}");
    if want.mode == got.mode {
        let flat = want.mode == AddrMode::Flat.value();
        return if want.offset == got.offset && (flat || want.segment == got.segment) {
            Ok(())
        } else {
            Err(differ())
        };
    }
    match (
        linear_address(mem, field, want),
        linear_address(mem, field, got),
    ) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Ok(a), Ok(b)) => Err(format!("{} (linear {a:08X} and {b:08X})", differ())),
        (Err(e), _) | (_, Err(e)) => Err(format!("{}: {e}", differ())),
    }
}

/// The differences between an expected frame and a walked one: each ADDRESS
/// by [`same_address`], then Params, Far and Virtual exactly. Empty when
/// they agree.
pub fn compare_frames(
    mem: &dyn WalkMemory,
    want: &StackFrame64,
    got: &StackFrame64,
) -> Vec<String> {
    let mut d = Vec::new();
    for (field, a, b) in [
        (Field::AddrPC, &want.addr_pc, &got.addr_pc),
        (Field::AddrReturn, &want.addr_return, &got.addr_return),
        (Field::AddrFrame, &want.addr_frame, &got.addr_frame),
        (Field::AddrStack, &want.addr_stack, &got.addr_stack),
    ] {
        if let Err(e) = same_address(mem, field, a, b) {
            d.push(e);
        }
    }
    if want.params != got.params {
        d.push(format!(
            "Params: expected {:04X?}, got {:04X?}",
            want.params, got.params
        ));
    }
    if want.is_far() != got.is_far() {
        d.push(format!(
            "Far: expected {}, got {}",
            want.is_far(),
            got.is_far()
        ));
    }
    if want.is_virtual() != got.is_virtual() {
        d.push(format!(
            "Virtual: expected {}, got {}",
            want.is_virtual(),
            got.is_virtual()
        ));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::memory::{CodeOwner, Descriptor};
    use crate::walk::testmem::{StackCursor, TestMemory};
    use crate::walk::toolhelp::walk_from_csip;

    pub(super) const SS: u16 = 0x1017;
    pub(super) const SS_BASE: u32 = 0x40_0000;
    pub(super) const CS1: u16 = 0x1027;
    pub(super) const CS1_BASE: u32 = 0x41_0000;
    pub(super) const CS2: u16 = 0x102F;
    pub(super) const CS2_BASE: u32 = 0x41_1000;
    pub(super) const TOP: u16 = 0x0200;
    pub(super) const BOT: u16 = 0x0FF0;

    pub(super) fn machine() -> TestMemory {
        TestMemory::protected()
            .with_segment(SS, SS_BASE, vec![0; 0x1000], 0xFFF, Descriptor::DATA_R3)
            .with_segment(CS1, CS1_BASE, vec![0x90; 0x800], 0x7FF, Descriptor::CODE_R3)
            .with_segment(CS2, CS2_BASE, vec![0x90; 0x400], 0x3FF, Descriptor::CODE_R3)
            // A not-present segment and a system descriptor.
            .with_segment(0x1037, 0x42_2000, vec![], 0xFF, Descriptor::DATA_R3 & 0x7F)
            .with_segment(0x103F, 0x42_3000, vec![], 0xFF, 0x82)
            .with_instance_data(SS, TOP, BOT)
            .with_code_owner(
                CS1,
                CodeOwner {
                    hmodule: 0x1046,
                    segment: Some(1),
                },
            )
    }

    /// main (near from start) -> far odd-BP -> near -> even far (no
    /// marker); stopped inside the last with BP = its frame. Returns the
    /// machine and the context.
    pub(super) fn chain() -> (TestMemory, WalkContext) {
        let mut m = machine();
        let mut cur = StackCursor::new(SS, BOT);
        m.push_word(&mut cur, 0x0004); // an argument
        m.push_near_frame(&mut cur, 0x0010); // main, BP 0
        m.push_word(&mut cur, 0x0022);
        m.push_word(&mut cur, 0x0024);
        m.push_far_frame(&mut cur, CS1, 0x0030, true); // far, odd BP
        m.push_word(&mut cur, 0x0042);
        m.push_near_frame(&mut cur, 0x0120); // near, in CS2
        m.push_word(&mut cur, 0x0066);
        m.push_far_frame(&mut cur, CS2, 0x0140, false); // far, even BP
        m.push_locals(&mut cur, 4);
        let ctx = WalkContext {
            cs: CS1,
            ip: 0x0200,
            ss: SS,
            sp: cur.sp,
            bp: cur.bp,
        };
        (m, ctx)
    }
    #[test]
    fn native_walk_has_the_toolhelp_frames_and_far_is_the_next_entrys_wflags() {
        let (m, ctx) = chain();
        let th = walk_from_csip(&m, ctx.ss, ctx.cs, ctx.ip, ctx.bp, 100);
        let w = walk_with_start(&m, ctx, Start::Native, None, 100);
        assert_eq!(w.entries, th.frames);
        assert_eq!(w.end, StepError::End(th.stop.clone()));
        assert_eq!(w.frames.len(), 4);
        for (i, f) in w.frames.iter().enumerate() {
            let e = &th.frames[i];
            assert_eq!(
                f.addr_pc,
                Address64::new(AddrMode::Mode1616, e.w_cs, e.w_ip.into())
            );
            assert_eq!(
                f.addr_frame,
                Address64::new(AddrMode::Mode1616, SS, e.w_bp.into())
            );
            if let Some(n) = th.frames.get(i + 1) {
                assert_eq!(
                    f.is_far(),
                    n.w_flags == StackTraceEntry::FRAME_FAR,
                    "frame {i}"
                );
                assert_eq!(
                    f.addr_return,
                    Address64::new(AddrMode::Mode1616, n.w_cs, n.w_ip.into())
                );
            }
            assert!(!f.is_virtual());
            assert_eq!(f.reserved, [0; 3]);
        }
        // Frame 0 was called far without the marker: Far, Params at BP+6.
        assert!(w.frames[0].is_far());
        assert_eq!(w.frames[0].params[0], 0x0066);
        // Frame 1 (near, in CS2): Params at BP+4; its AddrStack is the SP
        // after frame 0's far return: frame 0's BP + 6.
        assert!(!w.frames[1].is_far());
        assert_eq!(w.frames[1].params[0], 0x0042);
        assert_eq!(
            w.frames[1].addr_stack.offset,
            u64::from(th.frames[0].w_bp) + 6
        );
        assert_eq!(
            w.frames[2].addr_stack.offset,
            u64::from(th.frames[1].w_bp) + 4
        );
        // Frame 2 was called far with the odd marker.
        assert!(w.frames[2].is_far());
        assert_eq!(w.frames[2].params[..2], [0x0024, 0x0022]);
        // The last frame (main, saved BP 0): its return address is read
        // from the frame, near.
        let last = w.frames[3];
        assert!(!last.is_far());
        assert_eq!(last.addr_return.offset, 0x0010);
        assert_eq!(last.params[0], 0x0004);
        assert_eq!(w.end.kind(), "end-of-chain");
        // AddrStack of frame 0 is the start's SP.
        assert_eq!(w.frames[0].addr_stack.offset, u64::from(ctx.sp));
    }

    #[test]
    fn flat_walk_is_the_native_walk_in_linear_addresses() {
        let (m, ctx) = chain();
        let n = walk_with_start(&m, ctx, Start::Native, None, 100);
        let f = walk_with_start(&m, ctx, Start::Flat, None, 100);
        assert_eq!(f.entries, n.entries);
        assert_eq!(f.end, n.end);
        for (a, b) in n.frames.iter().zip(&f.frames) {
            assert!(compare_frames(&m, a, b).is_empty());
            assert_eq!(b.addr_pc.mode, 3);
            assert_eq!(b.addr_pc.segment, 0);
        }
        assert_eq!(
            f.frames[0].addr_frame.offset,
            u64::from(SS_BASE + u32::from(ctx.bp))
        );
        assert_eq!(
            f.frames[1].addr_pc.offset,
            u64::from(CS2_BASE + u32::from(n.entries[1].w_ip))
        );
    }

    #[test]
    fn real_mode_bp_0_ends_as_the_toolhelp_walk_ends() {
        // SS:0000 holds a PSP's INT 20h: an odd "saved BP" 20CD that
        // StackTraceNext would follow. toolhelp16's rule: no chain.
        let mut m = TestMemory::real();
        let ss = 0x2000;
        m.map_linear(0x2_0000, 0x1_0000);
        m.write_linear(0x2_0000, &[0xCD, 0x20, 0x00, 0xA0, 0x00, 0x9A]);
        let ctx = WalkContext {
            cs: ss,
            ip: 0x0103,
            ss,
            sp: 0xFFFE,
            bp: 0,
        };
        let th = walk_from_csip(&m, ss, ss, 0x0103, 0, 100);
        for start in [Start::Native, Start::Flat] {
            let w = walk_with_start(&m, ctx, start, None, 100);
            assert_eq!(w.entries, th.frames);
            assert_eq!(w.end, StepError::End(StopReason::NoChain));
            assert_eq!(w.frames.len(), 1);
            assert_eq!(w.frames[0].far, 0, "no caller, so not known to be far");
            assert_eq!(w.frames[0].addr_return.offset, 0);
            assert_eq!(w.frames[0].params, [0; 4]);
        }
    }

    #[test]
    fn real_mode_walks_and_refuses_selectors() {
        let mut m = TestMemory::real();
        let ss = 0x2000;
        m.map_linear(0x2_0000, 0x1_0000);
        let mut cur = StackCursor::new(ss, 0xFFFE);
        m.push_near_frame(&mut cur, 0x0105);
        m.push_far_frame(&mut cur, 0x3000, 0x0123, true);
        m.push_near_frame(&mut cur, 0x0456);
        let ctx = WalkContext {
            cs: 0x3000,
            ip: 0x0500,
            ss,
            sp: cur.sp,
            bp: cur.bp,
        };
        let n = walk_with_start(&m, ctx, Start::Native, None, 100);
        let f = walk_with_start(&m, ctx, Start::Flat, None, 100);
        let th = walk_from_csip(&m, ss, 0x3000, 0x0500, cur.bp, 100);
        assert_eq!(n.entries, th.frames);
        assert_eq!(f.entries, th.frames);
        assert_eq!(
            n.frames[0].addr_pc,
            Address64::new(AddrMode::Real, 0x3000, 0x500)
        );
        assert_eq!(f.frames[0].addr_pc.offset, 0x3_0500);
        assert!(!n.frames[0].is_far() && n.frames[1].is_far());
        let i = walk_with_start(&m, ctx, Start::IStackWalker, None, 100);
        assert_eq!(
            i.end.to_string(),
            "the first step fails: AddrFrame is AddrMode1616 with selector 0x0000: null selector"
        );
        let mut s = start_frame(&m, &ctx, Start::Native);
        s.addr_frame = Address64::new(AddrMode::Mode1616, ss, cur.bp.into());
        assert_eq!(
            walk_frames(&m, ctx, &s, None, 100).end.to_string(),
            "the first step fails: AddrFrame is AddrMode1616 with selector 0x2000: the machine is in real mode and has no descriptor tables"
        );
        // A flat address outside the context's 64 KiB cannot be placed.
        s = start_frame(&m, &ctx, Start::Flat);
        s.addr_stack.offset = 0x1_0000;
        assert!(
            walk_frames(&m, ctx, &s, None, 100)
                .end
                .to_string()
                .contains("not within 64 KiB above the context's segment 2000")
        );
    }

    #[test]
    fn a_dispatch_frame_is_virtual_and_the_walk_goes_on_at_the_fault() {
        let mut m = machine();
        // main (BP 0) -> the faulting function F (near) at CS1:0300, BP =
        // F's frame; the fault frame is pushed on F's stack, then the
        // callback (far, called from the dispatcher CS2:0077).
        let mut cur = StackCursor::new(SS, BOT);
        m.push_near_frame(&mut cur, 0x0010);
        m.push_word(&mut cur, 0x0002);
        let f_bp = m.push_near_frame(&mut cur, 0x0020);
        let fault_sp = cur.sp;
        for w in [0x0202u16, CS1, 0x0300, 0xAAAA, 0x0000, 0x1234] {
            m.push_word(&mut cur, w); // FLAGS CS IP, handle, int 0, AX
        }
        m.push_word(&mut cur, CS2);
        m.push_word(&mut cur, 0x0077);
        m.push_word(&mut cur, f_bp); // the callback's prologue, near style
        cur.bp = cur.sp;
        let ctx = WalkContext {
            cs: CS1,
            ip: 0x0400,
            ss: SS,
            sp: cur.sp,
            bp: cur.bp,
        };
        let dispatch = Some((CS2, 0x0077));
        let th = walk_from_csip(&m, SS, CS1, 0x0400, cur.bp, 100);
        let th = crate::walk::dispatch::through_dispatch(&m, th, (CS2, 0x0077), 100);
        let w = walk_with_start(&m, ctx, Start::Native, dispatch, 100);
        assert_eq!(w.entries, th.frames);
        let virt: Vec<usize> = (0..w.frames.len())
            .filter(|&i| w.frames[i].is_virtual())
            .collect();
        assert_eq!(virt, th.virtual_frames);
        assert_eq!(virt, [1]);
        assert_eq!(w.frames[1].addr_return.offset, 0x0300, "the faulting IP");
        assert_eq!(w.frames[2].addr_pc.offset, 0x0300);
        assert_eq!(w.frames[2].addr_stack.offset, u64::from(fault_sp));
        assert_eq!(w.frames[2].addr_frame.offset, u64::from(f_bp));
        // Without the dispatch address, the plain walk.
        let plain = walk_with_start(&m, ctx, Start::Native, None, 100);
        assert!(plain.frames.iter().all(|f| !f.is_virtual()));
    }

    #[test]
    fn the_frame_cap_and_stalls_end_as_the_toolhelp_walk_ends() {
        let (m, ctx) = chain();
        for max in 0..6 {
            let th = walk_from_csip(&m, ctx.ss, ctx.cs, ctx.ip, ctx.bp, max);
            let w = walk_with_start(&m, ctx, Start::Native, None, max);
            assert_eq!(w.entries, th.frames, "max {max}");
            assert_eq!(w.end, StepError::End(th.stop), "max {max}");
        }
        // A saved BP equal to its own BP + 1 (even BP): StackTraceNext
        // returns the same frame forever.
        let mut m = machine();
        m.write_u16(SS, 0x800, 0x801);
        m.write_u16(SS, 0x802, 0x0123);
        m.write_u16(SS, 0x804, CS1);
        let ctx = WalkContext {
            cs: CS1,
            ip: 5,
            ss: SS,
            sp: 0x7F0,
            bp: 0x800,
        };
        let th = walk_from_csip(&m, SS, CS1, 5, 0x800, 100);
        let w = walk_with_start(&m, ctx, Start::Native, None, 100);
        assert_eq!(w.entries, th.frames);
        assert_eq!(w.end, StepError::End(th.stop));
        assert_eq!(w.end.kind(), "stalled");
    }

    #[test]
    fn same_address_compares_by_mode_then_by_linear() {
        let m = machine();
        let a = Address64::new(AddrMode::Mode1616, SS, 0x10);
        let flat = Address64::new(AddrMode::Flat, 0, u64::from(SS_BASE) + 0x10);
        assert!(same_address(&m, Field::AddrStack, &a, &flat).is_ok());
        assert!(
            same_address(
                &m,
                Field::AddrStack,
                &a,
                &Address64 {
                    offset: 0x12,
                    ..flat
                }
            )
            .is_err()
        );
        assert!(same_address(&m, Field::AddrStack, &a, &Address64 { segment: CS1, ..a }).is_err());
        let none = Address64::new(AddrMode::Flat, 0, 0);
        assert!(same_address(&m, Field::AddrReturn, &Address64::default(), &none).is_ok());
        assert!(same_address(&m, Field::AddrReturn, &a, &none).is_err());
    }
}
