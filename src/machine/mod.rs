//! The emulated 16-bit CPU: unicorn plus the checks unicorn does not make.
//!
//! Two shapes of machine (win16.md, "The CPU the programs expect"):
//!
//! * **Real mode** (DOS programs, boot sectors, ROMs): unicorn in 16-bit mode,
//!   1 MiB + HMA mapped at linear 0, linear = seg * 16 + off.
//! * **16-bit protected mode** (Win16): unicorn in 32-bit mode so that host
//!   writes to segment registers load descriptors (in unicorn's 16-bit mode they
//!   always load real-mode bases). A GDT and an LDT live in emulated memory; a
//!   ring-0 stub `retf`s into ring 3 once, after which every program selector is
//!   an LDT selector with RPL 3 (0x1007, 0x100F, ...).
//!
//! **Limits.** Unicorn checks selectors and far transfers but not data offsets,
//! near jumps or stack pushes against segment limits (win16.md). Every
//! protected-mode segment therefore gets its own 128 KiB *slot* of linear
//! space: its base is placed so that `base + limit + 1` is the slot's 64 KiB
//! mark, and nothing readable or writable lies in the 64 KiB after it. Any
//! offset past the limit (at most 0xFFFF + 1) lands in that hole: a data or stack
//! access raises an unmapped- or protection-fault that the machine turns into
//! #GP (or #SS for SS-relative accesses) at the CS:IP of the faulting
//! instruction. A code segment's hole begins with two execute-only pages of
//! `HLT` (QEMU's translator reads ahead past the last instruction it will run,
//! so the bytes after a code segment must be fetchable); HLT at ring 3 is #GP,
//! so falling off the end of code or jumping past its limit faults too, and
//! the fault is attributed to the jump that left the segment.

pub mod a20;
pub mod counter;
pub mod debug;
pub mod descriptor;
pub mod exception;
pub mod hookguard;
pub mod page0;
pub mod record;
pub mod time;
pub mod tlb;
pub mod vga;
mod watchdog;

pub use exception::{Cause, Fault, fault_name};

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use unicorn_engine::unicorn_const::{Arch, MemType, Mode, Permission, uc_error};
use unicorn_engine::{RegisterX86, Unicorn};

use crate::walk::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};

/// Linear address of the GDT (protected mode).
const GDT_BASE: u64 = 0x0010_0000;
/// Linear address of the LDT (protected mode): 8192 entries.
const LDT_BASE: u64 = 0x0011_0000;
/// The GDT's limit: four entries (null, flat code, flat data, the LDT).
const GDT_LIMIT: u32 = 0x1F;
/// The LDT's limit: 8192 entries.
const LDT_LIMIT: u32 = 0xFFFF;
/// Ring-0 bootstrap stub and its stack.
const BOOT_BASE: u64 = 0x0012_0000;
/// First segment slot.
const SLOT_BASE: u64 = 0x0100_0000;
/// Size of one segment slot: 64 KiB for the segment, 64 KiB of hole.
const SLOT_SIZE: u64 = 0x2_0000;
/// First LDT index handed out; winevdm starts at 512 too (win16.md).
pub const FIRST_LDT_INDEX: u16 = 512;
const PAGE: u64 = 0x1000;
/// Execute-only padding after a code segment, in bytes.
const CODE_PAD: u64 = 2 * PAGE;

/// The 16-bit register file, as a report or a walk needs it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Regs {
    /// AX.
    pub ax: u16,
    /// BX.
    pub bx: u16,
    /// CX.
    pub cx: u16,
    /// DX.
    pub dx: u16,
    /// SI.
    pub si: u16,
    /// DI.
    pub di: u16,
    /// BP.
    pub bp: u16,
    /// SP.
    pub sp: u16,
    /// IP.
    pub ip: u16,
    /// FLAGS.
    pub flags: u16,
    /// CS.
    pub cs: u16,
    /// DS.
    pub ds: u16,
    /// ES.
    pub es: u16,
    /// SS.
    pub ss: u16,
    /// FS.
    pub fs: u16,
    /// GS.
    pub gs: u16,
}

/// 16-bit register names for [`Cpu::reg`] / [`Cpu::set_reg`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum R {
    /// AX.
    AX,
    /// BX.
    BX,
    /// CX.
    CX,
    /// DX.
    DX,
    /// SI.
    SI,
    /// DI.
    DI,
    /// BP.
    BP,
    /// SP.
    SP,
    /// IP.
    IP,
    /// FLAGS.
    FLAGS,
    /// CS.
    CS,
    /// DS.
    DS,
    /// ES.
    ES,
    /// SS.
    SS,
    /// FS.
    FS,
    /// GS.
    GS,
}

impl R {
    /// The register's name, as a report writes it (`SS`).
    pub fn name(self) -> &'static str {
        match self {
            R::AX => "AX",
            R::BX => "BX",
            R::CX => "CX",
            R::DX => "DX",
            R::SI => "SI",
            R::DI => "DI",
            R::BP => "BP",
            R::SP => "SP",
            R::IP => "IP",
            R::FLAGS => "FLAGS",
            R::CS => "CS",
            R::DS => "DS",
            R::ES => "ES",
            R::SS => "SS",
            R::FS => "FS",
            R::GS => "GS",
        }
    }

    fn uc(self) -> RegisterX86 {
        match self {
            R::AX => RegisterX86::AX,
            R::BX => RegisterX86::BX,
            R::CX => RegisterX86::CX,
            R::DX => RegisterX86::DX,
            R::SI => RegisterX86::SI,
            R::DI => RegisterX86::DI,
            R::BP => RegisterX86::BP,
            R::SP => RegisterX86::SP,
            R::IP => RegisterX86::IP,
            R::FLAGS => RegisterX86::FLAGS,
            R::CS => RegisterX86::CS,
            R::DS => RegisterX86::DS,
            R::ES => RegisterX86::ES,
            R::SS => RegisterX86::SS,
            R::FS => RegisterX86::FS,
            R::GS => RegisterX86::GS,
        }
    }
}

/// Why the machine stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The program ended (INT 21h AH=4Ch, INT 20h, ...).
    Exited {
        /// The exit code.
        code: u8,
    },
    /// A processor fault.
    Fault(Fault),
    /// A breakpoint was reached: the instruction at CS:IP has not run.
    Breakpoint {
        /// CS.
        cs: u16,
        /// IP.
        ip: u16,
    },
    /// The program asked for something not implemented.
    Unimplemented {
        /// `USER.127 GETDLGITEM`, `INT 21h AH=5Dh`, ...
        what: String,
        /// CS:IP and BP of the caller, for the walk.
        caller: (u16, u16, u16),
    },
    /// The program ended itself with a fatal error (KERNEL.FatalExit,
    /// FatalAppExit, a Throw to a broken CATCHBUF).
    Fatal {
        /// What it said.
        what: String,
        /// CS:IP and BP of the caller, for the walk.
        caller: (u16, u16, u16),
    },
    /// The program waits for input that the run's script does not have.
    NoInput {
        /// What it was, in words.
        what: String,
    },
    /// HLT executed in real mode with interrupts disabled (IF clear): no
    /// interrupt can wake the processor, and the machine would hang there.
    /// CS:IP is the HLT instruction. (HLT with interrupts enabled waits for
    /// the next timer tick and the program goes on.)
    Hung {
        /// CS.
        cs: u16,
        /// IP.
        ip: u16,
    },
    /// The instruction budget ran out.
    Budget,
    /// The wall-clock limit ran out.
    Timeout,
    /// The emulator itself failed (a host-side error, not a guest fault).
    Error(String),
}

/// Room for `bytes` below SS:SP for what a system function pushes on the
/// program's stack (a callback's frame): Ok, or the stack fault (#SS,
/// exception 12) the processor raises for the first push that does not
/// fit, at the current CS:IP (the system function's code, as a fault in
/// USER's code on Windows).
pub fn stack_room(uc: &Uc<'_>, bytes: u16) -> Result<(), Stop> {
    let regs = uc.regs();
    let (ss, sp) = (regs.ss, regs.sp);
    let d = uc.descriptor_of(ss);
    let limit = d.map(|d| d.limit);
    let fits = limit.is_some_and(|l| sp >= bytes && u32::from(sp) <= l + 1);
    if fits {
        return Ok(());
    }
    let offset = sp.wrapping_sub(2);
    Err(Stop::Fault(Fault::with_cause(
        12,
        regs,
        Cause::Access {
            segment: "SS",
            selector: ss,
            offset,
            size: 2,
            write: true,
            limit,
            linear: d.map(|d| d.base.wrapping_add(u32::from(offset))),
        },
    )))
}

impl Stop {
    /// The stop's kind, as JSON reports name it (`"fault"`, `"budget"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Stop::Exited { .. } => "exited",
            Stop::Fault(_) => "fault",
            Stop::Budget => "budget",
            Stop::Timeout => "timeout",
            Stop::Unimplemented { .. } => "unimplemented",
            Stop::Fatal { .. } => "fatal",
            Stop::NoInput { .. } => "no-input",
            Stop::Hung { .. } => "hung",
            Stop::Breakpoint { .. } => "breakpoint",
            Stop::Error(_) => "error",
        }
    }
}

/// The environment the program runs in (DOS, BIOS, Win16): called for every
/// software interrupt. Returning `Err(stop)` stops the machine.
pub trait Environment: std::any::Any {
    /// Handle `INT intno`; CS:IP already points after the instruction.
    fn interrupt(&mut self, cpu: &mut Uc<'_>, intno: u8) -> Result<(), Stop>;

    /// A timer tick in real mode (every [`time::TICK_INSNS`] of the
    /// emulated clock, after the BIOS tick count advanced): the place to
    /// deliver hardware interrupts. CS:IP is where the program goes on (a
    /// block's start, or after a system call or a HLT).
    fn timer_tick(&mut self, _cpu: &mut Uc<'_>) -> Result<(), Stop> {
        Ok(())
    }

    /// HLT ran in real mode at `cs:ip` (CS:IP now points after it). A stop
    /// here ends the run (the environment knows HLTs that stand for code it
    /// does not emulate); None lets the machine treat it as the processor
    /// does: wait for the next interrupt.
    fn halted(&mut self, _cpu: &mut Uc<'_>, _cs: u16, _ip: u16) -> Option<Stop> {
        None
    }

    /// A processor fault stopped the emulation (registers as before the
    /// faulting instruction). Return true after setting up a handler to run
    /// (the emulation resumes at the new CS:IP), false to let the fault end
    /// the run, or another stop.
    fn fault(&mut self, _cpu: &mut Uc<'_>, _fault: &Fault) -> Result<bool, Stop> {
        Ok(false)
    }

    /// The name of the module with this hModule (a Win16 module, or the
    /// DOS program by its PSP), for traces and profiles.
    fn module_name(&self, _hmodule: u16) -> Option<String> {
        None
    }

    /// The symbol naming code address `cs:ip` (symbols/mod.rs), for
    /// traces, profiles and fault reports.
    fn symbol(&self, _cpu: &Uc<'_>, _cs: u16, _ip: u16) -> Option<crate::symbols::SymbolRef> {
        None
    }

    /// The source line of code address `cs:ip`, from the debug
    /// information of the module that holds it (symbols/lines.rs).
    fn source_line(
        &self,
        _cpu: &Uc<'_>,
        _cs: u16,
        _ip: u16,
    ) -> Option<crate::symbols::lines::SourceLine> {
        None
    }
}

/// [`Environment::source_line`] of the machine's environment.
pub fn line_at(uc: &Uc<'_>, cs: u16, ip: u16) -> Option<crate::symbols::lines::SourceLine> {
    uc.get_data().env.as_ref()?.source_line(uc, cs, ip)
}

/// [`Environment::symbol`] of the machine's environment.
pub fn symbol_at(uc: &Uc<'_>, cs: u16, ip: u16) -> Option<crate::symbols::SymbolRef> {
    uc.get_data().env.as_ref()?.symbol(uc, cs, ip)
}

/// The machine's environment as its concrete type, from inside a hook
/// (observers that read it: the screenshot series).
pub fn environment_of<'a, T: Environment>(uc: &'a Uc<'_>) -> Option<&'a T> {
    let env: &dyn std::any::Any = uc.get_data().env.as_deref()?;
    env.downcast_ref::<T>()
}

/// Run `f` with the machine's environment, as its concrete type, and the
/// machine, both mutable (the environment is lent out of the machine's
/// state for the call, as the interrupt hook does). None when there is no
/// such environment, or it is lent out already.
pub fn with_environment<T: Environment, R>(
    uc: &mut Uc<'_>,
    f: impl FnOnce(&mut T, &mut Uc<'_>) -> R,
) -> Option<R> {
    let mut env = uc.get_data_mut().env.take()?;
    let any: &mut dyn std::any::Any = env.as_mut();
    let r = any
        .downcast_mut::<T>()
        .map(|t| with_host(uc, |uc| f(t, uc)));
    uc.get_data_mut().env = Some(env);
    r
}

/// [`Environment::module_name`] of the machine's environment.
pub fn module_name(uc: &Uc<'_>, hmodule: u16) -> Option<String> {
    uc.get_data().env.as_ref()?.module_name(hmodule)
}

/// Offer a fault to the environment: None when a handler was started and
/// the emulation must go on, else the stop that ends the run.
fn offer_fault(uc: &mut Uc<'_>, stop: Stop) -> Option<Stop> {
    let Stop::Fault(f) = &stop else {
        return Some(stop);
    };
    note_fault(uc, f);
    let Some(mut env) = uc.get_data_mut().env.take() else {
        return Some(stop);
    };
    let res = env.fault(uc, f);
    uc.get_data_mut().env = Some(env);
    match res {
        Ok(true) => None,
        Ok(false) => Some(stop),
        Err(other) => Some(other),
    }
}

/// Which events the log keeps (`--events FILTER`): true to keep one.
pub type EventFilter = Box<dyn Fn(&str) -> bool>;

/// Per-machine state that unicorn's hooks reach.
pub struct State {
    mode: CpuMode,
    stop: Option<Stop>,
    /// The instructions executed in this run and the last block counted
    /// (linear address, size in bytes, the instructions counted for it),
    /// kept by the counting hook and, while it is armed, by the
    /// translated code itself (counter.rs, "Counting inside the
    /// translated code").
    ic: Box<counter::InlineCount>,
    /// Port I/O events (`--events`), at most [`MAX_EVENTS`].
    pub events: Vec<String>,
    /// Events not stored because the log was full.
    pub events_dropped: u64,
    /// Which events the log keeps (`--events FILTER`,
    /// win16/relayfilter.rs); every one when None.
    pub event_filter: Option<EventFilter>,
    /// What port 60h (the keyboard controller's data port) returns.
    pub port60: u8,
    /// Real mode: the A20 gate (a20.rs).
    pub a20: a20::Gate,
    /// The VGA adapter's registers and planes (vga.rs).
    pub vga: Box<vga::Vga>,
    /// Protected mode: the fault the TLB hook refused last (tlb.rs).
    tlb_fault: Option<(MemType, u64)>,
    /// Protected mode: the permissions of every mapped page (tlb.rs).
    pages: tlb::Pages,
    /// Real mode: the first page while it is device memory (page0.rs).
    page0: Option<std::rc::Rc<page0::Page0>>,
    /// The first page is to become plain memory (page0.rs).
    page0_to_ram: bool,
    /// Port accesses since the last block was entered: their number,
    /// and the count of executed instructions when the first was made (a
    /// new block entered changes the count, which starts them again).
    port_seq: (u32, u64),
    env: Option<Box<dyn Environment>>,
    /// Which module owns each code segment (for hModule / wSegment).
    pub owners: HashMap<u16, CodeOwner>,
    /// Real mode: the DOS program's memory `[first, end)` paragraphs and
    /// its PSP, the owner of every code segment inside it.
    pub real_owner: Option<(u16, u16, u16)>,
    /// The current task (hTask for StackTraceCSIPFirst).
    pub current_task: u16,
    /// Breakpoints: linear address and the code hook stopping there.
    breakpoints: Vec<(u64, unicorn_engine::UcHookId)>,
    /// A breakpoint the next instruction passes without stopping: the
    /// one the program stands on when it is resumed ([`Machine::resume`]).
    pass_breakpoint: Option<u64>,
    /// This run's emulated clock, in instructions (time.rs): what
    /// GetTickCount reads. Starts at 0 with every [`Machine::run`].
    pub insns: u64,
    /// The emulated clock since the machine was made, never reset (time.rs;
    /// TOOLHELP's TimerCount).
    pub total_insns: u64,
    /// The clock value of the next BIOS timer tick (real mode).
    next_tick: u64,
    /// The clock counts every executed instruction (time.rs, "Timed").
    timed: bool,
    /// The run's instruction budget (0 = none) and wall-clock deadline.
    max_insns: u64,
    deadline: Option<Instant>,
    /// Where the budget ends inside a block (counter.rs).
    tail: Option<counter::Tail>,
    /// The counting hook is wanted (counter.rs).
    want_count: bool,
    /// Which counting hook is installed (none: the machine does not
    /// count), and the fast one's handle while it is (counter.rs).
    hook: counter::Hook,
    fast_hook: Option<unicorn_engine::ffi::uc_hook>,
    /// The block the fast counting hook stopped the emulation before, to
    /// be seen to by the machine's loop (counter.rs, `slow_block`).
    slow: Option<(u64, u32)>,
    /// The block the loop let in and counted, entered again next: linear
    /// address, size, instructions counted (counter.rs).
    preentered: Option<(u64, u32, u64)>,
    /// Budget code hooks given up inside an emulation, removed between two
    /// (counter.rs).
    stale_tail_hooks: Vec<unicorn_engine::UcHookId>,
    /// Instructions per translated block (counter.rs).
    tb_counts: Box<counter::TbCounts>,
    /// Emulations in progress (`uc_emu_start` calls not returned).
    emulating: u32,
    /// The program has run: an emulation has started.
    ran: bool,
    /// Code of the machine or its environment is running (a hook, or no
    /// emulation at all), not the program's: page0.rs tells the program's
    /// own accesses from the environment's by it.
    host: Cell<bool>,
    /// Nesting depth of [`run_nested`] calls.
    pub depth: u32,
    next_ldt: u16,
    /// LDT indices of freed segments, handed out again lowest first.
    free_ldt: BTreeSet<u16>,
    /// What watches execution (tracer, shadow call stack, profiler).
    observers: Vec<Box<dyn Observer>>,
    /// The recording of executed blocks, when one is made (record.rs).
    recording: Option<Box<record::Recording>>,
    /// The fault of the last segment-register load the CPU refused
    /// ([`Cpu::set_reg`]) or guest memory access that failed
    /// ([`Cpu::read_seg`], [`Cpu::write_seg`]) in protected mode, until
    /// the next interrupt hook.
    refused: std::cell::Cell<Option<Fault>>,
}

impl State {
    /// The machine counts executed instructions: a counting hook is
    /// installed (counter.rs).
    fn counting(&self) -> bool {
        self.hook != counter::Hook::None
    }
}

/// Run `f` as the machine's or the environment's code (see
/// [`State::host`]): every hook that may touch guest memory does.
pub(crate) fn with_host<R>(uc: &mut Uc<'_>, f: impl FnOnce(&mut Uc<'_>) -> R) -> R {
    let was = uc.get_data().host.replace(true);
    let r = f(uc);
    uc.get_data().host.set(was);
    r
}

/// Something that watches execution a translation block at a time
/// (src/trace/: the tracer, the shadow call stack, the profiler). Called
/// from unicorn's hooks: it must be quick, and it sees the machine only to
/// read it.
pub trait Observer: std::any::Any {
    /// A translation block of `size` bytes at linear `addr` is entered with
    /// CS:IP at its first instruction. Returning a stop ends the run.
    fn on_block(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<Stop>;

    /// The environment is about to enter program code at `target` without a
    /// call instruction (a callback from a system function), with the far
    /// return address `ret` at SS:SP = `sp`.
    fn on_call(&mut self, _uc: &Uc<'_>, _target: (u16, u16), _ret: (u16, u16), _ss: u16, _sp: u16) {
    }

    /// The instruction at the fault's CS:IP faulted: it ran no further.
    fn on_fault(&mut self, _uc: &Uc<'_>, _fault: &Fault) {}

    /// One instruction is about to run (only after
    /// [`Machine::watch_instructions`]).
    fn on_insn(&mut self, _uc: &Uc<'_>, _addr: u64, _size: u32) {}
}

/// Lend the observers to `f` (they live in the machine's state, which `f`
/// also reads through `uc`).
fn with_observers<R>(
    uc: &mut Uc<'_>,
    f: impl FnOnce(&mut Uc<'_>, &mut [Box<dyn Observer>]) -> R,
) -> R {
    let mut obs = std::mem::take(&mut uc.get_data_mut().observers);
    let r = f(uc, &mut obs);
    uc.get_data_mut().observers = obs;
    r
}

/// Tell the observers that the environment calls into the program (see
/// [`Observer::on_call`]).
pub fn note_call(uc: &mut Uc<'_>, target: (u16, u16), ret: (u16, u16)) {
    if uc.get_data().observers.is_empty() {
        return;
    }
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    with_observers(uc, |uc, obs| {
        for o in obs {
            o.on_call(uc, target, ret, ss, sp);
        }
    });
}

fn note_fault(uc: &mut Uc<'_>, f: &Fault) {
    if uc.get_data().observers.is_empty() {
        return;
    }
    with_observers(uc, |uc, obs| {
        for o in obs {
            o.on_fault(uc, f);
        }
    });
}

fn on_insn(uc: &mut Uc<'_>, addr: u64, size: u32) {
    counter::inline_off(uc);
    with_host(uc, |uc| {
        with_observers(uc, |uc, obs| {
            for o in obs {
                o.on_insn(uc, addr, size);
            }
        })
    });
}

/// The unicorn instance with the machine's state: what hooks and the
/// environment operate on.
pub type Uc<'a> = Unicorn<'a, State>;

/// A host-side error while building or running the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineError(pub String);

impl std::fmt::Display for MachineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for MachineError {}

fn uerr(what: &str, e: uc_error) -> MachineError {
    MachineError(format!("{what}: {}", uc_words(e)))
}

/// What a unicorn error means, in words (its name is no use to a user).
pub fn uc_words(e: uc_error) -> &'static str {
    match e {
        uc_error::OK => "no error",
        uc_error::NOMEM => "the emulator is out of memory",
        uc_error::ARCH | uc_error::MODE | uc_error::VERSION => {
            "the emulator does not support this machine"
        }
        uc_error::HANDLE => "the emulator was closed",
        uc_error::MAP => "the memory cannot be mapped there",
        uc_error::READ_UNMAPPED => "a read from memory that does not exist",
        uc_error::WRITE_UNMAPPED => "a write to memory that does not exist",
        uc_error::FETCH_UNMAPPED => "code fetched from memory that does not exist",
        uc_error::READ_PROT => "a read from memory that may not be read",
        uc_error::WRITE_PROT => "a write to memory that may not be written",
        uc_error::FETCH_PROT => "code fetched from memory that may not be executed",
        uc_error::READ_UNALIGNED | uc_error::WRITE_UNALIGNED | uc_error::FETCH_UNALIGNED => {
            "an unaligned access"
        }
        uc_error::INSN_INVALID => "an invalid instruction",
        uc_error::HOOK | uc_error::HOOK_EXIST => "a hook could not be installed",
        uc_error::ARG => "an argument the emulator refused",
        uc_error::RESOURCE => "the emulator ran out of resources",
        uc_error::EXCEPTION => "the CPU refused it (an exception)",
    }
}

/// Limits for one run.
#[derive(Debug, Clone, Copy)]
pub struct RunLimits {
    /// Instruction budget (0 = none): exact, counted a block at a time
    /// (counter.rs). A nested run ([`run_nested`]) gets what is left of
    /// it.
    pub max_insns: u64,
    /// Wall-clock limit.
    pub timeout: Duration,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            max_insns: 0,
            timeout: Duration::from_secs(60),
        }
    }
}

/// Register, memory and descriptor access shared by the machine and by
/// environment code running inside a hook.
pub trait Cpu {
    /// Real or protected mode.
    fn mode(&self) -> CpuMode;
    /// A register's value.
    fn reg(&self, r: R) -> u16;
    /// Set a register.
    fn set_reg(&mut self, r: R, v: u16) -> Result<(), MachineError>;
    /// All the 16-bit registers.
    fn regs(&self) -> Regs;
    /// The descriptor a selector names (protected mode), or None.
    fn descriptor_of(&self, sel: u16) -> Option<Descriptor>;
    /// Read bytes at SEG:OFF, checked against the segment's limit.
    fn read_seg(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError>;
    /// Write bytes at SEG:OFF, checked against the segment's limit.
    fn write_seg(&mut self, seg: u16, off: u16, data: &[u8]) -> Result<(), MemError>;
    /// Read a word at SEG:OFF.
    fn read_u16_at(&self, seg: u16, off: u16) -> Result<u16, MemError> {
        let mut b = [0u8; 2];
        self.read_seg(seg, off, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
    /// Write a word at SEG:OFF.
    fn write_u16_at(&mut self, seg: u16, off: u16, v: u16) -> Result<(), MemError> {
        self.write_seg(seg, off, &v.to_le_bytes())
    }
    /// Push a word on SS:SP.
    fn push16(&mut self, v: u16) -> Result<(), MachineError> {
        let sp = self.reg(R::SP).wrapping_sub(2);
        let ss = self.reg(R::SS);
        self.write_u16_at(ss, sp, v)
            .map_err(|e| MachineError(format!("push: {e}")))?;
        self.set_reg(R::SP, sp)
    }
    /// Load the whole 16-bit register file: segment registers first (a
    /// selector is checked when loaded), CS:IP last (where execution goes
    /// on, also from inside a hook). FS and GS are left alone.
    fn set_regs(&mut self, r: &Regs) -> Result<(), MachineError> {
        for (reg, v) in [
            (R::SS, r.ss),
            (R::SP, r.sp),
            (R::DS, r.ds),
            (R::ES, r.es),
            (R::AX, r.ax),
            (R::BX, r.bx),
            (R::CX, r.cx),
            (R::DX, r.dx),
            (R::SI, r.si),
            (R::DI, r.di),
            (R::BP, r.bp),
            (R::FLAGS, r.flags),
            (R::CS, r.cs),
            (R::IP, r.ip),
        ] {
            self.set_reg(reg, v)?;
        }
        Ok(())
    }
    /// Record why the machine must stop and stop it.
    fn request_stop(&mut self, stop: Stop);
}

/// Real mode: forget what unicorn translated from `len` bytes at `lin`
/// that the host just wrote. unicorn's own memory writes skip QEMU's
/// tracking of code pages, so without this a program would run the old
/// code after DOS read new code over it (EXEC, overlays, a file read into
/// a code buffer) or after a write through the A20 wrap.
pub fn forget_code(uc: &Uc<'_>, lin: u64, len: usize) {
    if len == 0 || uc.get_data().mode != CpuMode::Real {
        return;
    }
    let end = lin.saturating_add(len as u64);
    let low_end = end.min(a20::HMA_BASE);
    if lin < low_end {
        let _ = uc.ctl_remove_cache(lin, low_end);
    }
    if end > a20::HMA_BASE && !a20::enabled(uc) {
        let from = lin.max(a20::HMA_BASE) - a20::HMA_BASE;
        let to = (end - a20::HMA_BASE).min(a20::HMA_SIZE as u64);
        if from < to {
            let _ = uc.ctl_remove_cache(from, to);
        }
    }
}

fn seg_range(d: &Descriptor, seg: u16, off: u16, len: usize) -> Result<u64, MemError> {
    let end = u64::from(off) + len as u64;
    if len > 0 && end - 1 > u64::from(d.limit) {
        return Err(MemError::BeyondLimit {
            seg,
            off: off.into(),
            len: len as u32,
            limit: d.limit,
        });
    }
    Ok(u64::from(d.base) + u64::from(off))
}

impl Cpu for Uc<'_> {
    fn mode(&self) -> CpuMode {
        self.get_data().mode
    }
    fn reg(&self, r: R) -> u16 {
        self.reg_read(r.uc()).unwrap_or(0) as u16
    }
    fn set_reg(&mut self, r: R, v: u16) -> Result<(), MachineError> {
        let res = if r == R::SP && self.get_data().mode == CpuMode::Protected {
            // Keep ESP's high word clear: the stack is 16-bit.
            self.reg_write(RegisterX86::ESP, u64::from(v))
        } else if r == R::IP && self.get_data().mode == CpuMode::Protected {
            self.reg_write(RegisterX86::EIP, u64::from(v))
        } else {
            self.reg_write(r.uc(), u64::from(v))
        };
        res.map_err(|e| {
            if let Some(f) = refused_load(self, r, v) {
                self.get_data().refused.set(Some(f));
            }
            uerr(&format!("setting {} to {v:04X}", r.name()), e)
        })
    }
    fn regs(&self) -> Regs {
        Regs {
            ax: self.reg(R::AX),
            bx: self.reg(R::BX),
            cx: self.reg(R::CX),
            dx: self.reg(R::DX),
            si: self.reg(R::SI),
            di: self.reg(R::DI),
            bp: self.reg(R::BP),
            sp: self.reg(R::SP),
            ip: self.reg(R::IP),
            flags: self.reg(R::FLAGS),
            cs: self.reg(R::CS),
            ds: self.reg(R::DS),
            es: self.reg(R::ES),
            ss: self.reg(R::SS),
            fs: self.reg(R::FS),
            gs: self.reg(R::GS),
        }
    }
    fn descriptor_of(&self, sel: u16) -> Option<Descriptor> {
        match self.get_data().mode {
            CpuMode::Real => Some(Descriptor::real(sel)),
            CpuMode::Protected => {
                if sel & 0xFFFC == 0 {
                    return None;
                }
                let table = if sel & 4 != 0 { LDT_BASE } else { GDT_BASE };
                let limit = u64::from(if sel & 4 != 0 { LDT_LIMIT } else { GDT_LIMIT });
                let index = u64::from(sel & 0xFFF8);
                if index + 7 > limit {
                    return None;
                }
                let mut b = [0u8; 8];
                self.mem_read(table + index, &mut b).ok()?;
                let d = descriptor::decode(&b);
                if d.access == 0 { None } else { Some(d) }
            }
        }
    }
    fn read_seg(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError> {
        (|| {
            let d = self.descriptor_of(seg).ok_or(MemError::BadSelector(seg))?;
            let lin = seg_range(&d, seg, off, buf.len())?;
            self.mem_read(lin, buf)
                .map_err(|_| MemError::Unmapped { linear: lin as u32 })
        })()
        .inspect_err(|_| note_refused_access(self, seg, off, buf.len(), false))
    }
    fn write_seg(&mut self, seg: u16, off: u16, data: &[u8]) -> Result<(), MemError> {
        let d = self
            .descriptor_of(seg)
            .ok_or(MemError::BadSelector(seg))
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        let lin = seg_range(&d, seg, off, data.len())
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        self.mem_write(lin, data)
            .map_err(|_| MemError::Unmapped { linear: lin as u32 })
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        forget_code(self, lin, data.len());
        Ok(())
    }
    fn request_stop(&mut self, stop: Stop) {
        let st = self.get_data_mut();
        st.ic.off();
        // A system function that failed because the CPU refused a
        // selector the program gave it (a window procedure's, a saved
        // stack's), or could not reach memory the program pointed it at (a
        // MSG buffer past its segment), stops as the fault the CPU raises
        // for it, as Windows' own code faulted there: never as an emulator
        // error.
        let stop = match (stop, st.refused.take()) {
            (Stop::Error(_), Some(f)) => Stop::Fault(f),
            (stop, _) => stop,
        };
        if st.stop.is_none() {
            st.stop = Some(stop);
        }
        let _ = self.emu_stop();
    }
}

/// Remember, in protected mode, the fault of an access to guest memory
/// that failed (see [`Cpu::request_stop`]): #GP (13), or #SS (12) through
/// the stack segment, at the current CS:IP, the segment register named by
/// which one holds the selector.
fn note_refused_access(uc: &Uc<'_>, seg: u16, off: u16, len: usize, write: bool) {
    let st = uc.get_data();
    if st.mode != CpuMode::Protected {
        return;
    }
    let regs = uc.regs();
    let segment = [
        ("DS", regs.ds),
        ("ES", regs.es),
        ("SS", regs.ss),
        ("CS", regs.cs),
    ]
    .into_iter()
    .find(|&(_, v)| v == seg)
    .map_or("DS", |(n, _)| n);
    let d = uc.descriptor_of(seg);
    let f = Fault::with_cause(
        if segment == "SS" { 12 } else { 13 },
        regs,
        Cause::Access {
            segment,
            selector: seg,
            offset: off,
            size: len.min(usize::from(u16::MAX)) as u16,
            write,
            limit: d.map(|d| d.limit),
            linear: d.map(|d| d.base.wrapping_add(u32::from(off))),
        },
    );
    st.refused.set(Some(f));
}

/// The fault the CPU raises for loading segment register `r` with `sel`
/// in protected mode (None for other registers, or in real mode): #GP
/// (13) for a null, invalid or unsuitable selector, #NP (11) for a segment
/// not present, #SS (12) for a stack segment not present (Intel's rules
/// for MOV to a segment register and far transfers), at the current
/// CS:IP.
fn refused_load(uc: &Uc<'_>, r: R, sel: u16) -> Option<Fault> {
    if uc.get_data().mode != CpuMode::Protected {
        return None;
    }
    let name = match r {
        R::CS => "CS",
        R::DS => "DS",
        R::ES => "ES",
        R::SS => "SS",
        R::FS => "FS",
        R::GS => "GS",
        _ => return None,
    };
    let d = uc.descriptor_of(sel);
    let (number, reason) = match d {
        _ if sel & !3 == 0 => (13, "null"),
        None => (13, "invalid"),
        Some(d) if d.access & 0x80 == 0 => (if r == R::SS { 12 } else { 11 }, "not present"),
        Some(d) if r == R::CS && !d.is_code() => (13, "non-code"),
        Some(d) if r == R::SS && d.is_code() => (13, "non-writable"),
        Some(_) => (13, "invalid"),
    };
    Some(Fault::with_cause(
        number,
        uc.regs(),
        Cause::SelectorLoad {
            register: name,
            selector: Some(sel),
            reason,
        },
    ))
}

impl WalkMemory for Uc<'_> {
    fn mode(&self) -> CpuMode {
        self.get_data().mode
    }
    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        self.descriptor_of(seg)
    }
    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        self.mem_read(u64::from(linear), buf)
            .map_err(|_| MemError::Unmapped { linear })
    }
    fn current_task(&self) -> u16 {
        self.get_data().current_task
    }
    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        let st = self.get_data();
        match (st.mode, st.real_owner) {
            (CpuMode::Real, Some((lo, hi, psp))) if (lo..hi).contains(&cs) => Some(CodeOwner {
                hmodule: psp,
                segment: None,
            }),
            (CpuMode::Real, _) => None,
            (CpuMode::Protected, _) => st.owners.get(&cs).copied(),
        }
    }
    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        if self.get_data().mode != CpuMode::Protected {
            return None;
        }
        Some(match ldt {
            false => DescriptorTable {
                base: GDT_BASE as u32,
                limit: GDT_LIMIT,
            },
            true => DescriptorTable {
                base: LDT_BASE as u32,
                limit: LDT_LIMIT,
            },
        })
    }
}

/// Kind of segment to allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegKind {
    /// A code segment.
    Code,
    /// A data segment.
    Data,
}

/// The emulated machine.
pub struct Machine {
    uc: Uc<'static>,
}

impl std::ops::Deref for Machine {
    type Target = Uc<'static>;
    fn deref(&self) -> &Uc<'static> {
        &self.uc
    }
}
impl std::ops::DerefMut for Machine {
    fn deref_mut(&mut self) -> &mut Uc<'static> {
        &mut self.uc
    }
}

fn new_state(mode: CpuMode) -> State {
    State {
        mode,
        stop: None,
        ic: Box::default(),
        events: Vec::new(),
        events_dropped: 0,
        event_filter: None,
        port60: 0,
        a20: a20::Gate::default(),
        vga: Box::default(),
        tlb_fault: None,
        pages: tlb::Pages::default(),
        page0: None,
        page0_to_ram: false,
        port_seq: (0, 0),
        env: None,
        owners: HashMap::new(),
        real_owner: None,
        current_task: 0,
        breakpoints: Vec::new(),
        pass_breakpoint: None,
        insns: 0,
        total_insns: 0,
        next_tick: time::TICK_INSNS,
        timed: false,
        max_insns: 0,
        deadline: None,
        tail: None,
        want_count: false,
        hook: counter::Hook::None,
        fast_hook: None,
        slow: None,
        preentered: None,
        stale_tail_hooks: Vec::new(),
        tb_counts: Box::default(),
        emulating: 0,
        ran: false,
        host: Cell::new(true),
        depth: 0,
        next_ldt: FIRST_LDT_INDEX,
        free_ldt: BTreeSet::new(),
        observers: Vec::new(),
        recording: None,
        refused: std::cell::Cell::new(None),
    }
}

/// Bytes of host memory unicorn may fill with translated code. QEMU's own
/// default is 1 GiB, and a program that keeps rewriting its own code makes
/// new translations until that buffer is full before QEMU starts over: the
/// run then grows by a gigabyte. 32 MiB holds the translations of any
/// 16-bit program many times over; when it fills, QEMU flushes it and
/// translates again.
pub const TCG_BUFFER_BYTES: u32 = 32 << 20;

/// A unicorn instance whose translated-code buffer is [`TCG_BUFFER_BYTES`]
/// (set before anything makes unicorn initialise its translator).
fn new_unicorn(mode: Mode, state: State) -> Result<Uc<'static>, MachineError> {
    use unicorn_engine::unicorn_const::{ControlType, uc_error as E};
    let uc =
        Unicorn::new_with_data(Arch::X86, mode, state).map_err(|e| uerr("creating the CPU", e))?;
    let control = ControlType::UC_CTL_TCG_BUFFER_SIZE as u32 | ControlType::UC_CTL_IO_WRITE as u32;
    // SAFETY: `uc_ctl` is unicorn's variadic control call; the handle is a
    // live engine owned by `uc`, and UC_CTL_TCG_BUFFER_SIZE with the write
    // flag reads exactly one `uint32_t` argument (uc.c), which we pass.
    let err = unsafe { unicorn_engine::ffi::uc_ctl(uc.get_handle(), control, TCG_BUFFER_BYTES) };
    if err != E::OK {
        return Err(uerr("sizing the translation buffer", err));
    }
    Ok(uc)
}

impl Machine {
    /// A real-mode machine with 1 MiB of zeroed memory and the A20 gate
    /// off: the 64 KiB above 1 MiB wrap to the first 64 KiB (a20.rs).
    pub fn new_real() -> Result<Machine, MachineError> {
        let mut uc = new_unicorn(Mode::MODE_16, new_state(CpuMode::Real))?;
        page0::map(&mut uc)?;
        let low = page0::SIZE as u64;
        uc.mem_map(low, (a20::HMA_BASE - low) as usize, Permission::ALL)
            .map_err(|e| uerr("mapping memory", e))?;
        a20::map_alias(&mut uc)?;
        let mut m = Machine { uc };
        m.install_hooks()?;
        Ok(m)
    }

    /// A 16-bit protected-mode machine at ring 3, with an empty LDT.
    pub fn new_protected() -> Result<Machine, MachineError> {
        let mut uc = new_unicorn(Mode::MODE_32, new_state(CpuMode::Protected))?;
        tlb::map(
            &mut uc,
            GDT_BASE,
            0x2_1000,
            Permission::READ | Permission::WRITE | Permission::EXEC,
        )
        .map_err(|e| uerr("mapping descriptor tables", e))?;
        // GDT: null, ring-0 flat code (08), ring-0 flat data (10), LDT (18).
        let flat = |access: u8| {
            let mut d = descriptor::encode(&Descriptor {
                base: 0,
                limit: 0xFFFFF,
                access,
            });
            d[6] |= 0xC0;
            d
        };
        uc.mem_write(GDT_BASE + 8, &flat(0x9A))
            .map_err(|e| uerr("GDT", e))?;
        uc.mem_write(GDT_BASE + 0x10, &flat(0x92))
            .map_err(|e| uerr("GDT", e))?;
        let ldt_desc = Descriptor {
            base: LDT_BASE as u32,
            limit: LDT_LIMIT,
            access: 0x82,
        };
        uc.mem_write(GDT_BASE + 0x18, &descriptor::encode(&ldt_desc))
            .map_err(|e| uerr("GDT", e))?;
        uc.reg_write_long(RegisterX86::GDTR, &mmr(0, GDT_BASE, GDT_LIMIT, 0))
            .map_err(|e| uerr("loading GDTR", e))?;
        uc.reg_write_long(RegisterX86::LDTR, &mmr(0x18, LDT_BASE, LDT_LIMIT, 0x8200))
            .map_err(|e| uerr("loading LDTR", e))?;
        let mut m = Machine { uc };
        // A first code and stack segment to enter ring 3 with; they stay as
        // the machine's idle context (a HLT there would fault).
        let cs3 = m.alloc_segment(SegKind::Code, 16, &[0xF4])?;
        let ss3 = m.alloc_segment(SegKind::Data, 64, &[])?;
        let mut stub = Vec::new();
        for v in [u32::from(ss3), 0x3E, u32::from(cs3), 0] {
            stub.push(0x68); // push imm32
            stub.extend_from_slice(&v.to_le_bytes());
        }
        stub.push(0xCB); // retf (to ring 3: pops IP, CS, SP, SS)
        let uc = &mut m.uc;
        uc.mem_write(BOOT_BASE, &stub)
            .map_err(|e| uerr("boot stub", e))?;
        uc.reg_write(RegisterX86::SS, 0x10)
            .map_err(|e| uerr("ring-0 SS", e))?;
        uc.reg_write(RegisterX86::ESP, BOOT_BASE + 0x1000)
            .map_err(|e| uerr("ring-0 ESP", e))?;
        let target = u64::from(m.descriptor_of(cs3).map(|d| d.base).unwrap_or(0));
        m.uc.emu_start(BOOT_BASE, target, 0, 16)
            .map_err(|e| uerr("entering ring 3", e))?;
        if m.reg(R::CS) != cs3 {
            return Err(MachineError("could not enter ring 3".into()));
        }
        m.install_hooks()?;
        tlb::install(&mut m.uc)?;
        Ok(m)
    }

    /// The hooks every machine has: none of them runs per instruction or
    /// per block (module notes, "Hooks"). Software interrupts and
    /// exceptions, port I/O and invalid opcodes are rare events; the edge
    /// hook runs when QEMU translates a block.
    fn install_hooks(&mut self) -> Result<(), MachineError> {
        let uc = &mut self.uc;
        // Each hook's Rust body runs under hookguard::guard: a panic in
        // it stops the machine with an internal error, never unwinds into
        // unicorn's C (hookguard.rs).
        uc.add_intr_hook(|uc, n| hookguard::guard(uc, "interrupt", (), |uc| on_interrupt(uc, n)))
            .map_err(|e| uerr("interrupt hook", e))?;
        uc.add_insn_in_hook(|uc, port, size| {
            hookguard::guard(uc, "port-in", 0, |uc| on_port_in(uc, port, size))
        })
        .map_err(|e| uerr("port-in hook", e))?;
        uc.add_insn_out_hook(|uc, port, size, v| {
            hookguard::guard(uc, "port-out", (), |uc| on_port_out(uc, port, size, v))
        })
        .map_err(|e| uerr("port-out hook", e))?;
        uc.add_insn_invalid_hook(|uc| {
            hookguard::guard(uc, "invalid-instruction", false, on_invalid_insn)
        })
        .map_err(|e| uerr("invalid-instruction hook", e))?;
        counter::install_edge_hook(uc)?;
        Ok(())
    }

    /// Watch execution with `o` (see [`Observer`]): from now on the
    /// machine has a hook per block.
    pub fn add_observer(&mut self, o: Box<dyn Observer>) {
        self.uc.get_data_mut().observers.push(o);
        counter::want_counting(&mut self.uc);
    }

    /// Record the executed blocks from now on into `recorder` (record.rs):
    /// the counting hook appends a word per block, with no observer.
    /// Replaces a recording in progress (which is dropped unflushed; take
    /// it back first with [`Machine::stop_recording`]).
    pub fn record_blocks(&mut self, recorder: Box<dyn record::BlockRecorder>) {
        let st = self.uc.get_data_mut();
        st.recording = Some(Box::new(record::Recording::new(recorder)));
        st.ic.off();
        st.tb_counts.forget_given();
        counter::want_counting(&mut self.uc);
    }

    /// End the recording: its steps handed over, the recorder back with
    /// the first error it returned. None when nothing was recording.
    pub fn stop_recording(
        &mut self,
    ) -> Option<(Box<dyn record::BlockRecorder>, Option<std::io::Error>)> {
        let mut rec = self.uc.get_data_mut().recording.take()?;
        rec.flush();
        Some((rec.recorder, rec.error))
    }

    /// Count executed instructions from now on, without a budget or an
    /// observer (counter.rs): [`Machine::executed`] then answers at every
    /// stop.
    pub fn count_instructions(&mut self) {
        counter::want_counting(&mut self.uc);
    }

    /// Instructions executed in the last run, exact at its stop, when the
    /// machine counts them (a budget, an observer, a timed run, or
    /// [`Machine::count_instructions`]); None when it does not.
    pub fn executed(&self) -> Option<u64> {
        let st = self.uc.get_data();
        st.counting().then_some(st.ic.executed())
    }

    /// The observers, taken back from the machine.
    pub fn take_observers(&mut self) -> Vec<Box<dyn Observer>> {
        std::mem::take(&mut self.uc.get_data_mut().observers)
    }

    /// The observer of type `T`, taken back from the machine (the others
    /// are dropped).
    pub fn take_observer<T: Observer>(&mut self) -> Option<Box<T>> {
        self.take_observers().into_iter().find_map(|o| {
            let any: Box<dyn std::any::Any> = o;
            any.downcast::<T>().ok()
        })
    }

    /// Call [`Observer::on_insn`] before every instruction: a hook per
    /// instruction, ten to twenty times slower than block hooks; only for
    /// what needs every instruction's registers (`trace --regs`).
    pub fn watch_instructions(&mut self) -> Result<(), MachineError> {
        self.uc
            .add_code_hook(1, 0, |uc, addr, size| {
                hookguard::guard(uc, "instruction", (), |uc| on_insn(uc, addr, size))
            })
            .map(|_| ())
            .map_err(|e| uerr("instruction hook", e))
    }

    /// Install the environment that answers software interrupts.
    pub fn set_environment(&mut self, env: Box<dyn Environment>) {
        self.uc.get_data_mut().env = Some(env);
    }

    /// The environment, as its concrete type.
    pub fn environment<T: Environment>(&self) -> Option<&T> {
        let env: &dyn std::any::Any = self.uc.get_data().env.as_deref()?;
        env.downcast_ref::<T>()
    }

    /// The environment, mutably, as its concrete type.
    pub fn environment_mut<T: Environment>(&mut self) -> Option<&mut T> {
        let env: &mut dyn std::any::Any = self.uc.get_data_mut().env.as_deref_mut()?;
        env.downcast_mut::<T>()
    }

    /// Real or protected mode.
    pub fn cpu_mode(&self) -> CpuMode {
        self.uc.get_data().mode
    }

    /// Allocate a protected-mode segment of `size` bytes (1..=0x10000) in
    /// its own slot, with `data` at offset 0 and zeros after it. Returns the
    /// new ring-3 LDT selector. The limit is exactly `size - 1`.
    pub fn alloc_segment(
        &mut self,
        kind: SegKind,
        size: u32,
        data: &[u8],
    ) -> Result<u16, MachineError> {
        alloc_seg(&mut self.uc, kind, size, data)
    }

    /// Allow writes to a code segment's pages (for a data alias of it).
    pub fn make_writable(&mut self, sel: u16) -> Result<(), MachineError> {
        make_writable(&mut self.uc, sel)
    }

    /// Write bytes at a real-mode linear address.
    pub fn write_linear(&mut self, linear: u32, data: &[u8]) -> Result<(), MachineError> {
        self.uc
            .mem_write(u64::from(linear), data)
            .map_err(|e| uerr(&format!("writing at {linear:#x}"), e))?;
        forget_code(&self.uc, u64::from(linear), data.len());
        Ok(())
    }

    /// The linear address of CS:IP-style `seg:off`, when `seg` is valid.
    pub fn linear(&self, seg: u16, off: u16) -> Option<u64> {
        self.descriptor_of(seg)
            .map(|d| u64::from(d.base) + u64::from(off))
    }

    /// Stop before the instruction at `seg:off` executes
    /// ([`Stop::Breakpoint`]). A code hook on that one address: the rest
    /// of the program runs at full speed. Adding the same place twice
    /// keeps one breakpoint.
    ///
    /// The machine's hook API, for a debugger (a gdb stub) or a test:
    /// [`Machine::add_breakpoint`] and [`Machine::remove_breakpoint`];
    /// [`Machine::step`] runs exactly N instructions (the exact budget,
    /// counter.rs; N = 1 is a single step); [`Machine::resume`] goes on
    /// from a breakpoint without stopping at it again; [`Observer`]s see
    /// every block, and [`Machine::watch_instructions`] every instruction.
    /// Each asks for its own hook; a run asks for none of them by default.
    pub fn add_breakpoint(&mut self, seg: u16, off: u16) -> Result<(), MachineError> {
        let lin = self.linear(seg, off).ok_or_else(|| {
            MachineError(format!(
                "breakpoint at {seg:04X}:{off:04X}: no such segment"
            ))
        })?;
        if self.uc.get_data().breakpoints.iter().any(|b| b.0 == lin) {
            return Ok(());
        }
        let id = self
            .uc
            .add_code_hook(lin, lin, |uc, addr, size| {
                hookguard::guard(uc, "breakpoint", (), |uc| on_breakpoint(uc, addr, size))
            })
            .map_err(|e| uerr("breakpoint hook", e))?;
        self.uc.get_data_mut().breakpoints.push((lin, id));
        let _ = self.uc.ctl_remove_cache(lin, lin + 1);
        Ok(())
    }

    /// Remove the breakpoint at `seg:off` and its hook; false when there
    /// was none.
    pub fn remove_breakpoint(&mut self, seg: u16, off: u16) -> Result<bool, MachineError> {
        let Some(lin) = self.linear(seg, off) else {
            return Ok(false);
        };
        let st = self.uc.get_data_mut();
        let Some(i) = st.breakpoints.iter().position(|b| b.0 == lin) else {
            return Ok(false);
        };
        let (_, id) = st.breakpoints.remove(i);
        self.uc
            .remove_hook(id)
            .map_err(|e| uerr("removing a breakpoint hook", e))?;
        let _ = self.uc.ctl_remove_cache(lin, lin + 1);
        Ok(true)
    }

    /// Run on from the current CS:IP as [`Machine::run`] does, except that
    /// a breakpoint there does not stop the first instruction: how a
    /// debugger continues from the breakpoint it stopped at.
    pub fn resume(&mut self, limits: RunLimits) -> Stop {
        let here = linear_pc(&self.uc);
        self.uc.get_data_mut().pass_breakpoint = here;
        let stop = self.run(limits);
        self.uc.get_data_mut().pass_breakpoint = None;
        stop
    }

    /// Execute exactly `n` instructions from the current CS:IP (n = 1: a
    /// single step), passing a breakpoint at the current CS:IP as
    /// [`Machine::resume`] does. [`Stop::Budget`] when all `n` ran (the
    /// registers are those after the `n`-th); any other stop (a fault, a
    /// breakpoint further on, an exit) comes first.
    pub fn step(&mut self, n: u64, timeout: Duration) -> Stop {
        if n == 0 {
            return Stop::Budget;
        }
        self.resume(RunLimits {
            max_insns: n,
            timeout,
        })
    }

    /// Set CS:IP (and nothing else).
    pub fn set_csip(&mut self, cs: u16, ip: u16) -> Result<(), MachineError> {
        self.uc.set_reg(R::CS, cs)?;
        self.uc.set_reg(R::IP, ip)
    }

    /// Run from the current CS:IP until the program stops. A fault is first
    /// offered to the environment ([`Environment::fault`]): when it starts a
    /// handler (a TOOLHELP InterruptRegister callback), the run goes on.
    ///
    /// The wall-clock limit is kept by a watchdog thread (watchdog.rs);
    /// the budget by the counting hook (counter.rs), installed for runs
    /// that have one.
    pub fn run(&mut self, limits: RunLimits) -> Stop {
        let started = Instant::now();
        {
            let st = self.uc.get_data_mut();
            st.stop = None;
            st.tlb_fault = None;
            st.insns = 0;
            st.ic.set_executed(0);
            st.ic.set_last_block((0, 0, 0));
            st.ic.off();
            st.preentered = None;
            st.slow = None;
            st.max_insns = limits.max_insns;
            st.deadline = started.checked_add(limits.timeout);
        }
        if limits.max_insns != 0 {
            counter::want_counting(&mut self.uc);
        }
        if limits.timeout.is_zero() {
            return Stop::Timeout;
        }
        let handle = self.uc.get_handle();
        let deadline = self.uc.get_data().deadline;
        let uc = &mut self.uc;
        let stop = watchdog::guard(handle, deadline, || match emulate(uc, NO_END) {
            Ok(()) => Stop::Error("the emulation ended at no stop".into()),
            Err(stop) => stop,
        });
        counter::disarm(&mut self.uc);
        stop
    }

    /// Up to 15 bytes of the instruction at CS:IP.
    pub fn insn_bytes(&self, cs: u16, ip: u16) -> Vec<u8> {
        insn_bytes(&self.uc, cs, ip)
    }
}

/// Allow writes to a code segment's pages (for a data alias of it, and for
/// code written by the loader). Usable from inside a hook.
pub fn make_writable(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("no selector {sel:04X}")))?;
    let start = u64::from(d.base) & !(PAGE - 1);
    let end = u64::from(d.base) + u64::from(d.limit) + 1;
    tlb::protect(uc, start, (end - start) as usize, Permission::ALL)
        .map_err(|e| uerr("unprotecting", e))
}

/// The `begin` argument of `emu_start` that resumes at the current CS:IP.
fn start_address(uc: &Uc<'_>) -> u64 {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    match uc.get_data().mode {
        // unicorn's 16-bit mode sets IP = begin - CS*16 with CS as a
        // signed 16-bit value.
        CpuMode::Real => (i64::from(ip) + i64::from(cs as i16) * 16) as u64,
        // In 32-bit mode it sets EIP = begin; CS keeps its descriptor.
        CpuMode::Protected => u64::from(ip),
    }
}

/// The `until` of a run that has no end address. unicorn stops a run when
/// execution reaches its `until`; any linear address a program can reach
/// would be one (0 was: `JMP 0000:0000`, an ordinary crash of a DOS
/// program that runs the interrupt vector table as code, stopped there
/// for no reason). A linear address is `CS base + IP` < 2^33, so this is
/// none; vendor patch 0008 keeps unicorn from dropping the code "at" it
/// after each run, as it does for a real end address.
pub const NO_END: u64 = u64::MAX;

/// Emulate from the current CS:IP until the program stops, or (with
/// `until` not [`NO_END`]) until execution reaches linear address `until` (Ok):
/// the loop of [`Machine::run`] and of [`run_nested`]. Between two
/// emulations it does what hooks asked for (counter.rs,
/// `apply_pending`), waits at HLT, and offers faults to the environment.
fn emulate(uc: &mut Uc<'_>, until: u64) -> Result<(), Stop> {
    // Emulations that ended for no reason the loop knows, in a row at the
    // same CS:IP (a stop undone, or one that only interrupted).
    let mut unexplained = (0u32, 0u64);
    loop {
        counter::apply_pending(uc)?;
        let begin = start_address(uc);
        let was_host = {
            let st = uc.get_data_mut();
            st.emulating += 1;
            st.ran = true;
            st.host.replace(false)
        };
        // The translated code counts only while the counting hook has just
        // seen the common case (counter.rs): not across the host's work.
        uc.get_data().ic.off();
        let res = uc.emu_start(begin, until, 0, 0);
        {
            let st = uc.get_data_mut();
            st.ic.off();
            st.emulating -= 1;
            st.host.set(was_host);
        }
        // The fast counting hook stopped before a block it leaves to the
        // loop (counter.rs): seen to, then the emulation goes on.
        if let Some((addr, size)) = uc.get_data_mut().slow.take()
            && res.is_ok()
        {
            counter::slow_block(uc, addr, size);
            if uc.get_data().stop.is_none() && !deadline_passed(uc) {
                continue;
            }
        }
        let stop = match uc.get_data_mut().stop.take() {
            Some(stop) => stop,
            None => match res {
                Ok(()) if until != NO_END && linear_pc(uc) == Some(until) => {
                    counter::apply_pending(uc)?;
                    return Ok(());
                }
                Ok(()) if deadline_passed(uc) => Stop::Timeout,
                // The budget ends inside the next block (counter.rs).
                Ok(()) if counter::tail_to_arm(uc) => continue,
                Ok(()) if halted(uc) => match after_hlt(uc) {
                    None => continue,
                    Some(stop) => stop,
                },
                Ok(()) => {
                    let here = linear_pc(uc).unwrap_or(0);
                    unexplained = if unexplained.1 == here {
                        (unexplained.0 + 1, here)
                    } else {
                        (1, here)
                    };
                    if unexplained.0 < 1000 {
                        continue;
                    }
                    let regs = uc.regs();
                    Stop::Error(format!(
                        "the emulation keeps stopping at {:04X}:{:04X} for no reason",
                        regs.cs, regs.ip
                    ))
                }
                Err(uc_error::FETCH_PROT | uc_error::FETCH_UNMAPPED) if page0::fetch(uc) => {
                    continue;
                }
                Err(e) => translate_error(uc, e),
            },
        };
        if uc.get_data().counting() {
            let pc = stop_pc(uc, &stop);
            counter::settle(uc, pc, matches!(stop, Stop::Fault(_)));
            uc.get_data_mut().preentered = None;
        }
        match offer_fault(uc, stop) {
            None => continue,
            Some(stop) => return Err(stop),
        }
    }
}

/// The linear address of CS:IP.
fn linear_pc(uc: &Uc<'_>) -> Option<u64> {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    uc.descriptor_of(cs)
        .map(|d| u64::from(d.base) + u64::from(ip))
}

/// The linear address a stop happened at: the fault's or breakpoint's
/// CS:IP, else the current one.
fn stop_pc(uc: &Uc<'_>, stop: &Stop) -> u64 {
    let (cs, ip) = match stop {
        Stop::Fault(f) => (f.cs, f.ip),
        Stop::Breakpoint { cs, ip } => (*cs, *ip),
        _ => (uc.reg(R::CS), uc.reg(R::IP)),
    };
    uc.descriptor_of(cs)
        .map_or(0, |d| u64::from(d.base) + u64::from(ip))
}

fn deadline_passed(uc: &Uc<'_>) -> bool {
    uc.get_data().deadline.is_some_and(|d| Instant::now() >= d)
}

/// Did the emulation end at a HLT (real mode; CS:IP after it)?
fn halted(uc: &Uc<'_>) -> bool {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    // IP wraps: a HLT at FFFFh leaves IP 0000h.
    uc.get_data().mode == CpuMode::Real && {
        let mut b = [0u8];
        uc.read_seg(cs, ip.wrapping_sub(1), &mut b).is_ok() && b[0] == 0xF4
    }
}

/// HLT stops the 8086 until an interrupt arrives. The environment may
/// name it first (a HLT standing for ROM code that is not emulated).
/// With IF clear only NMI would wake it, and nothing raises one: the
/// machine hangs, a stop of its own ([`Stop::Hung`]). With IF set the
/// next timer tick (IRQ 0) wakes it: the emulated clock skips ahead to
/// that tick, which runs the program's timer handlers and types the
/// next scripted key ([`Environment::timer_tick`]), and execution goes
/// on after the HLT.
fn after_hlt(uc: &mut Uc<'_>) -> Option<Stop> {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP).wrapping_sub(1));
    let stop = with_host(uc, |uc| {
        let mut env = uc.get_data_mut().env.take()?;
        let stop = env.halted(uc, cs, ip);
        uc.get_data_mut().env = Some(env);
        stop
    });
    if stop.is_some() {
        return stop;
    }
    if uc.reg(R::FLAGS) & 0x200 == 0 {
        return Some(Stop::Hung { cs, ip });
    }
    time::skip_to_next_tick(uc);
    uc.get_data_mut().stop.take()
}

/// How deep system functions may call back into the program (unicorn
/// allows 64 nested runs; a few are left for the machine's own use).
pub const MAX_NESTING: u32 = 48;

/// Run the program from inside a hook, from the current CS:IP until
/// execution reaches the linear address `until`: how a system function
/// calls back into the program (a window procedure, an enumeration
/// callback). unicorn nests `uc_emu_start` for this; the nested run has
/// what is left of the instruction budget and the same wall-clock deadline.
///
/// The hook that called this holds the environment; it lends it back for
/// the nested run, whose own interrupts need it, and gets it back with the
/// result. The caller restores the registers it wants afterwards (writing
/// IP also makes unicorn resume cleanly after the nested run's exit).
pub fn run_nested(
    uc: &mut Uc<'_>,
    env: Box<dyn Environment>,
    until: u64,
) -> (Box<dyn Environment>, Result<(), Stop>) {
    if uc.get_data().depth >= MAX_NESTING {
        let regs = uc.regs();
        return (
            env,
            Err(Stop::Unimplemented {
                what: format!("a call back into the program nested more than {MAX_NESTING} deep"),
                caller: (regs.cs, regs.ip, regs.bp),
            }),
        );
    }
    uc.get_data_mut().env = Some(env);
    uc.get_data_mut().depth += 1;
    let result = emulate(uc, until);
    let st = uc.get_data_mut();
    st.depth -= 1;
    let env = st
        .env
        .take()
        .expect("the environment is back in the state after a nested run");
    (env, result)
}

/// Turn an access the TLB hook refused (tlb.rs) into the fault the 286
/// would have raised, at the faulting instruction.
fn translate_error(uc: &mut Uc<'_>, e: uc_error) -> Stop {
    let regs = uc.regs();
    let fault = uc.get_data_mut().tlb_fault.take();
    match (e, fault) {
        (uc_error::FETCH_UNMAPPED | uc_error::FETCH_PROT, _) | (_, Some((MemType::FETCH, _))) => {
            code_overrun(uc, regs)
        }
        (_, Some((t, page))) => {
            let write = matches!(
                t,
                MemType::WRITE_UNMAPPED | MemType::WRITE_PROT | MemType::WRITE
            );
            let insn = insn_bytes(uc, regs.cs, regs.ip);
            let cause = exception::access_cause(uc, &regs, write, Some(page));
            // An SS-relative access past the stack segment is a stack
            // fault; any other a general-protection fault.
            let via_ss = match &cause {
                Some(Cause::Access { segment, .. }) => *segment == "SS",
                _ => uses_ss(&insn),
            };
            let number = if via_ss { 12 } else { 13 };
            if let Some(cause) = cause {
                return Stop::Fault(Fault::with_cause(number, regs, cause));
            }
            let what = if write { "write" } else { "read" };
            let detail = match locate(uc, page) {
                Some((sel, off, limit)) => {
                    format!("{what} at {sel:04X}:{off:04X} past the segment limit {limit:04X}")
                }
                None => format!("{what} at linear {page:08X} outside every segment"),
            };
            Stop::Fault(Fault::new(number, regs, detail))
        }
        // Real mode maps all the 1 MiB and the HMA: an access outside them
        // has an effective address past FFFFh, made with a 32-bit
        // address-size prefix (67h). A 386 faults on it: #SS through SS,
        // else #GP (Intel SDM vol. 2, real-address mode exceptions: "if a
        // memory operand effective address is outside the ... segment
        // limit"). Found by the `commands` fuzz target
        // (tests/fuzz_regressions.rs, RECORD.COM).
        (uc_error::READ_UNMAPPED | uc_error::WRITE_UNMAPPED, None)
            if uc.get_data().mode == CpuMode::Real =>
        {
            let insn = insn_bytes(uc, regs.cs, regs.ip);
            let number = if uses_ss(&insn) { 12 } else { 13 };
            Stop::Fault(Fault::new(
                number,
                regs,
                "an effective address past FFFFh (32-bit addressing), outside the 64 KiB segment",
            ))
        }
        (e, None) => Stop::Error(format!(
            "emulation failed at {:04X}:{:04X}: {}",
            regs.cs,
            regs.ip,
            uc_words(e)
        )),
    }
}

/// Which segment's hole a linear address lies in: (selector, offset,
/// limit).
fn locate(uc: &Uc<'_>, addr: u64) -> Option<(u16, u32, u32)> {
    if uc.get_data().mode != CpuMode::Protected || addr < SLOT_BASE {
        return None;
    }
    let slot = (addr - SLOT_BASE) / SLOT_SIZE;
    let index = FIRST_LDT_INDEX as u64 + slot;
    if index >= u64::from(uc.get_data().next_ldt) {
        return None;
    }
    let sel = descriptor::ldt_selector(index as u16);
    let d = uc.descriptor_of(sel)?;
    let off = addr.checked_sub(u64::from(d.base))?;
    Some((sel, off as u32, d.limit))
}

/// Execution left a code segment (a near jump or a fall-through past its
/// limit): #GP at the instruction that did it, as the 286 checks the
/// target before it jumps. `regs` are those at the target (CS:IP past the
/// limit).
///
/// No hook per block runs on the fast path, so the machine does not know
/// which block ran last; it finds the jump from what the jump left behind,
/// the same way whether a hook ran or not (so a traced run reports the
/// same fault as an untraced one): [`jumper`].
fn code_overrun(uc: &Uc<'_>, regs: Regs) -> Stop {
    let d = uc.descriptor_of(regs.cs);
    let limit = d.map(|d| d.limit).unwrap_or(0);
    let mut r = regs;
    if let Some(ip) = jumper(uc, &regs, limit) {
        r.ip = ip;
    }
    Stop::Fault(Fault::with_cause(
        13,
        r,
        Cause::CodeLimit {
            target: regs.ip,
            limit,
        },
    ))
}

/// The offset of the instruction that sent execution to CS:IP, past the
/// segment's `limit`, judged from the registers and the code: a near call
/// whose return address is on top of the stack (direct, or through a
/// register or memory operand that still holds the target); a direct near
/// jump, conditional jump or loop to the target. When several direct
/// jumps qualify, the last one in the segment. None when nothing
/// explains it: execution fell off the end (reported at the target, the
/// offset past the limit, as before), or a `ret` or an indirect `jmp`
/// went there (they leave no trace of where they were).
fn jumper(uc: &Uc<'_>, regs: &Regs, limit: u32) -> Option<u16> {
    use iced_x86::{Decoder, DecoderOptions, FlowControl, Instruction, OpKind};
    let target = regs.ip;
    let len = (limit as usize + 1).min(0x1_0000);
    let mut code = vec![0u8; len];
    uc.read_seg(regs.cs, 0, &mut code).ok()?;
    let decode_at = |o: usize| -> Instruction {
        let mut d = Decoder::with_ip(16, &code[o..], o as u64, DecoderOptions::NONE);
        d.decode()
    };
    // A near call: the return address on the stack ends it.
    if let Ok(ret) = uc.read_u16_at(regs.ss, regs.sp) {
        for back in 2..=5u16 {
            let o = ret.wrapping_sub(back) as usize;
            if o >= len || ret as usize > len {
                continue;
            }
            let i = decode_at(o);
            if i.is_invalid()
                || i.len() != usize::from(back)
                || !matches!(
                    i.flow_control(),
                    FlowControl::Call | FlowControl::IndirectCall
                )
                || i.is_call_far()
                || i.is_call_far_indirect()
            {
                continue;
            }
            let goes = match i.op0_kind() {
                OpKind::NearBranch16 => i.near_branch16() == target,
                OpKind::Register => exception::reg16_of(regs, i.op0_register()) == Some(target),
                OpKind::Memory => exception::read_operand_of(uc, regs, &i) == Some(target),
                _ => false,
            };
            if goes {
                return Some(o as u16);
            }
        }
    }
    // A direct jump to the target.
    let mut found = None;
    for o in 0..len {
        let i = decode_at(o);
        if i.is_invalid() || o + i.len() > len {
            continue;
        }
        let direct = matches!(
            i.flow_control(),
            FlowControl::UnconditionalBranch | FlowControl::ConditionalBranch
        ) && i.op0_kind() == OpKind::NearBranch16;
        if direct && i.near_branch16() == target {
            found = Some(o as u16);
        }
    }
    if found.is_some() {
        return found;
    }
    None
}

/// Does this instruction address memory through SS (explicit override, a
/// BP-based operand, or an implicit stack operation)?
fn uses_ss(bytes: &[u8]) -> bool {
    use iced_x86::{Decoder, DecoderOptions, OpKind, Register};
    let mut dec = Decoder::new(16, bytes, DecoderOptions::NONE);
    let i = dec.decode();
    if i.is_invalid() {
        return false;
    }
    if i.is_stack_instruction() {
        return true;
    }
    (0..i.op_count()).any(|n| i.op_kind(n) == OpKind::Memory && i.memory_segment() == Register::SS)
}

/// The linear slot of LDT index `index`: slots and LDT indices go in
/// lockstep, which is how [`Machine::locate`] finds a segment from an
/// address in its hole.
fn slot_of(index: u16) -> u64 {
    SLOT_BASE + u64::from(index - FIRST_LDT_INDEX) * SLOT_SIZE
}

/// The LDT index of an allocated program selector, if `sel` is one.
fn allocated_index(uc: &Uc<'_>, sel: u16) -> Option<u16> {
    let st = uc.get_data();
    let index = sel >> 3;
    let ok = st.mode == CpuMode::Protected
        && sel & 4 != 0
        && (FIRST_LDT_INDEX..st.next_ldt).contains(&index)
        && !st.free_ldt.contains(&index);
    ok.then_some(index)
}

/// Allocate a protected-mode segment of `size` bytes (1..=0x10000) in its
/// own slot, with `data` at offset 0 and zeros after it; the limit is
/// exactly `size - 1` (module doc, "Limits"). A freed LDT entry (and its
/// slot) is used again before a new one. Usable from inside a hook
/// (KERNEL's GlobalAlloc runs there).
pub fn alloc_seg(
    uc: &mut Uc<'_>,
    kind: SegKind,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError(
            "segments are allocated only in protected mode".into(),
        ));
    }
    if size == 0 || size > 0x1_0000 || data.len() > size as usize {
        return Err(MachineError(format!(
            "bad segment size {size:#x} for {} data bytes",
            data.len()
        )));
    }
    let st = uc.get_data_mut();
    let index = match st.free_ldt.pop_first() {
        Some(i) => i,
        None if st.next_ldt < 8192 => {
            st.next_ldt += 1;
            st.next_ldt - 1
        }
        None => return Err(MachineError("the LDT is full".into())),
    };
    let res = map_segment(uc, index, kind, size, data);
    if res.is_err() {
        uc.get_data_mut().free_ldt.insert(index);
    }
    res
}

fn map_segment(
    uc: &mut Uc<'_>,
    index: u16,
    kind: SegKind,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    let slot = slot_of(index);
    let end = slot + 0x1_0000;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    let perms = match kind {
        SegKind::Code => Permission::READ | Permission::EXEC,
        SegKind::Data => Permission::READ | Permission::WRITE,
    };
    // Map writable first to fill it, then set the final protection.
    tlb::map(uc, map_start, (end - map_start) as usize, Permission::ALL)
        .map_err(|e| uerr("mapping a segment", e))?;
    uc.mem_write(base, data)
        .map_err(|e| uerr("filling a segment", e))?;
    tlb::protect(uc, map_start, (end - map_start) as usize, perms)
        .map_err(|e| uerr("protecting a segment", e))?;
    if kind == SegKind::Code {
        tlb::map(uc, end, CODE_PAD as usize, Permission::ALL)
            .map_err(|e| uerr("code padding", e))?;
        uc.mem_write(end, &vec![0xF4; CODE_PAD as usize])
            .map_err(|e| uerr("code padding", e))?;
        tlb::protect(uc, end, CODE_PAD as usize, Permission::EXEC)
            .map_err(|e| uerr("code padding", e))?;
    }
    let access = match kind {
        SegKind::Code => Descriptor::CODE_R3,
        SegKind::Data => Descriptor::DATA_R3,
    };
    let d = Descriptor {
        base: base as u32,
        limit: size - 1,
        access,
    };
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d))
        .map_err(|e| uerr("writing the LDT", e))?;
    Ok(descriptor::ldt_selector(index))
}

/// Free a segment made by [`alloc_seg`]: its memory is unmapped, its LDT
/// entry cleared (so loading the selector faults, as on Windows), and both
/// are handed out again by a later allocation. The caller makes sure no
/// segment register still holds it.
pub fn free_seg(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    let end = slot_of(index) + 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    if d.is_code() {
        tlb::unmap(uc, end, CODE_PAD as usize).map_err(|e| uerr("unmapping code padding", e))?;
    }
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))?;
    uc.get_data_mut().free_ldt.insert(index);
    Ok(())
}

/// Give a data segment made by [`alloc_seg`] a new size (1..=0x10000),
/// keeping its selector and the first `min(old, new)` bytes; bytes past
/// the old size read as zero. The base moves so that the limit still ends
/// at the slot's 64 KiB mark (module doc, "Limits"). The caller reloads
/// any segment register that holds the selector.
pub fn resize_seg(uc: &mut Uc<'_>, sel: u16, size: u32) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    if d.is_code() {
        return Err(MachineError(format!("{sel:04X} is a code segment")));
    }
    if size == 0 || size > 0x1_0000 {
        return Err(MachineError(format!("bad segment size {size:#x}")));
    }
    let keep = (d.limit + 1).min(size) as usize;
    let mut data = vec![0u8; keep];
    uc.mem_read(u64::from(d.base), &mut data)
        .map_err(|e| uerr("reading a segment", e))?;
    let end = slot_of(index) + 0x1_0000;
    let old_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, old_start, (end - old_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    tlb::map(uc, map_start, (end - map_start) as usize, Permission::ALL)
        .map_err(|e| uerr("mapping a segment", e))?;
    uc.mem_write(base, &data)
        .map_err(|e| uerr("filling a segment", e))?;
    tlb::protect(
        uc,
        map_start,
        (end - map_start) as usize,
        Permission::READ | Permission::WRITE,
    )
    .map_err(|e| uerr("protecting a segment", e))?;
    let nd = Descriptor {
        base: base as u32,
        limit: size - 1,
        access: d.access,
    };
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&nd))
        .map_err(|e| uerr("writing the LDT", e))
}

/// Discard a data segment made by [`alloc_seg`] (a discarded moveable
/// block): its memory is unmapped and its descriptor cleared, so loading
/// the selector faults, but the selector stays allocated for
/// [`restore_seg`] or [`free_alias`].
pub fn discard_seg(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    if d.is_code() {
        return Err(MachineError(format!("{sel:04X} is a code segment")));
    }
    let end = slot_of(index) + 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a segment", e))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))
}

/// Give an allocated selector that names no memory (one from
/// [`alloc_alias`] with an empty descriptor, or a segment
/// [`discard_seg`] discarded) a zero-filled data segment of `size` bytes
/// (1..=0x10000) in its own slot, as [`alloc_seg`] would have.
pub fn restore_seg(uc: &mut Uc<'_>, sel: u16, size: u32) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    if uc.descriptor_of(sel).is_some_and(|d| d.access & 0x80 != 0) {
        return Err(MachineError(format!("{sel:04X} still names memory")));
    }
    if size == 0 || size > 0x1_0000 {
        return Err(MachineError(format!("bad segment size {size:#x}")));
    }
    map_segment(uc, index, SegKind::Data, size, &[]).map(|_| ())
}

fn mmr(selector: u16, base: u64, limit: u32, flags: u32) -> Vec<u8> {
    // uc_x86_mmr: u16 selector, padding to 8, u64 base, u32 limit, u32 flags.
    let mut v = Vec::with_capacity(24);
    v.extend_from_slice(&u64::from(selector).to_le_bytes());
    v.extend_from_slice(&base.to_le_bytes());
    v.extend_from_slice(&limit.to_le_bytes());
    v.extend_from_slice(&flags.to_le_bytes());
    v
}

/// Most port I/O events kept; later ones are counted, not stored.
pub const MAX_EVENTS: usize = 10_000;

/// Log an event (`--events`): port I/O, system calls. CS:IP is the
/// current instruction's.
pub fn record_event(uc: &mut Uc<'_>, text: String) {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    record_event_at(uc, cs, ip, text);
}

/// [`record_event`] at a given CS:IP (for an event recorded after the
/// registers changed, as when a system function switched tasks).
pub fn record_event_at(uc: &mut Uc<'_>, cs: u16, ip: u16, text: String) {
    let regs = (cs, ip);
    let st = uc.get_data_mut();
    let line = format!("{:04X}:{:04X} {text}", regs.0, regs.1);
    if st.event_filter.as_ref().is_some_and(|keep| !keep(&line)) {
        return;
    }
    if st.events.len() < MAX_EVENTS {
        st.events.push(line);
    } else {
        st.events_dropped += 1;
    }
}

/// Port input: no device answers, so the bus reads all ones (FFh per byte).
/// The keyboard controller answers at port 60h (the last scan code) and
/// 64h (status: output buffer full, system flag, keyboard enabled), the
/// VGA at its ports (vga.rs).
fn on_port_in(uc: &mut Uc<'_>, port: u32, size: usize) -> u32 {
    counter::inline_off(uc);
    time::advance(uc.get_data_mut(), time::PORT_INSNS);
    with_host(uc, |uc| {
        let gate = if size == 1 {
            a20::port_in(uc, port)
        } else {
            None
        }
        .or_else(|| vga::port_in(uc, port, size));
        let v = match (port, size) {
            _ if gate.is_some() => gate.unwrap_or(0xFF),
            (0x60, 1) => u32::from(uc.get_data().port60),
            (0x64, 1) => 0x1D,
            (_, 1) => 0xFF,
            (_, 2) => 0xFFFF,
            _ => 0xFFFF_FFFF,
        };
        let (cs, ip) = port_site(uc);
        record_event_at(
            uc,
            cs,
            ip,
            format!("in  port {port:04X} ({size} byte(s)) -> {v:X}"),
        );
        v
    })
}

/// Port output: the VGA (vga.rs) and the A20 gate's controllers take
/// theirs; the write is logged.
fn on_port_out(uc: &mut Uc<'_>, port: u32, size: usize, value: u32) {
    counter::inline_off(uc);
    time::advance(uc.get_data_mut(), time::PORT_INSNS);
    with_host(uc, |uc| {
        let (cs, ip) = port_site(uc);
        record_event_at(
            uc,
            cs,
            ip,
            format!("out port {port:04X} ({size} byte(s)) <- {value:X}"),
        );
        if vga::port_out(uc, port, size, value) {
            return;
        }
        if uc.get_data().mode == CpuMode::Real
            && let a20::PortEffect::Reset(how) = a20::port_out(uc, port, value as u8)
        {
            let regs = uc.regs();
            uc.request_stop(Stop::Unimplemented {
                what: format!("a machine restart through {how}"),
                caller: (regs.cs, regs.ip, regs.bp),
            });
        }
    })
}

/// CS:IP of the port instruction running now, for its event. QEMU does
/// not write IP before a port access, so IP is that of an earlier block
/// boundary; while the machine counts blocks (`--events` asks it to) the
/// access is the n-th port instruction of the block entered last, and its
/// address is found by decoding the block.
fn port_site(uc: &mut Uc<'_>) -> (u16, u16) {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    let st = uc.get_data_mut();
    if st.port_seq.1 != st.ic.executed() {
        st.port_seq = (0, st.ic.executed());
    }
    let seq = st.port_seq.0;
    st.port_seq.0 += 1;
    if !st.counting() {
        return (cs, ip);
    }
    let (addr, size, _) = st.ic.last_block();
    let base = uc.descriptor_of(cs).map_or(0, |d| u64::from(d.base));
    let mut bytes = vec![0u8; size.min(4096) as usize];
    if uc.mem_read(addr, &mut bytes).is_err() {
        return (cs, ip);
    }
    let mut d = iced_x86::Decoder::with_ip(16, &bytes, addr, iced_x86::DecoderOptions::NONE);
    let mut n = 0;
    while d.can_decode() {
        let i = d.decode();
        use iced_x86::Mnemonic as M;
        if matches!(
            i.mnemonic(),
            M::In | M::Out | M::Insb | M::Insw | M::Insd | M::Outsb | M::Outsw | M::Outsd
        ) {
            if n == seq {
                return match i.ip().checked_sub(base) {
                    Some(off) if off <= 0xFFFF => (cs, off as u16),
                    _ => (cs, ip),
                };
            }
            n += 1;
        }
    }
    (cs, ip)
}

fn on_invalid_insn(uc: &mut Uc<'_>) -> bool {
    counter::inline_off(uc);
    let regs = uc.regs();
    uc.get_data_mut().stop = Some(Stop::Fault(Fault::new(6, regs, "invalid opcode")));
    false
}

fn on_breakpoint(uc: &mut Uc<'_>, addr: u64, _size: u32) {
    counter::inline_off(uc);
    // The breakpoint a resumed run starts on is passed once; any hit
    // elsewhere ends that grace.
    if let Some(pass) = uc.get_data_mut().pass_breakpoint.take()
        && pass == addr
    {
        return;
    }
    if uc.get_data().breakpoints.iter().any(|b| b.0 == addr) {
        let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
        uc.request_stop(Stop::Breakpoint { cs, ip });
    }
}

/// unicorn's interrupt hook: software interrupts go to the environment,
/// processor exceptions stop the machine with a [`Fault`]. Every
/// interrupt is an event of the emulated clock (time.rs), and after a
/// system call the timer ticks whose time came are delivered.
fn on_interrupt(uc: &mut Uc<'_>, intno: u32) {
    counter::inline_off(uc);
    hookguard::test_panic((intno & 0xFF) as u8);
    time::advance(uc.get_data_mut(), time::EVENT_INSNS);
    with_host(uc, |uc| {
        interrupt(uc, intno);
        time::ticks_due(uc);
    });
}

fn interrupt(uc: &mut Uc<'_>, intno: u32) {
    uc.get_data().refused.set(None);
    let regs = uc.regs();

    let before = |n: u16| -> Option<Vec<u8>> {
        let mut b = vec![0u8; n as usize];
        uc.read_seg(regs.cs, regs.ip.wrapping_sub(n), &mut b)
            .ok()
            .map(|_| b)
    };
    let intno8 = (intno & 0xFF) as u8;
    let software = exception::is_software_interrupt(uc, &regs, intno8);
    if intno8 == 3 || intno8 == 4 || (intno8 == 1 && !software) {
        // Traps: INT 3 / INTO report the trap instruction itself; the
        // single-step trap the instruction after the one that ran.
        let len = if intno8 == 1 {
            0
        } else if before(1).is_some_and(|b| b[0] == 0xCC || b[0] == 0xCE) {
            1
        } else {
            2
        };
        let mut r = regs;
        r.ip = regs.ip.wrapping_sub(len);
        let detail = if intno8 == 3 {
            "INT 3 breakpoint instruction"
        } else {
            fault_name(intno8)
        };
        uc.request_stop(Stop::Fault(Fault::new(intno8, r, detail)));
        return;
    }
    if !software
        && uc
            .descriptor_of(regs.cs)
            .is_some_and(|d| u32::from(regs.ip) > d.limit)
    {
        // HLT padding after a code segment was reached.
        let stop = code_overrun(uc, regs);
        uc.request_stop(stop);
        return;
    }
    if !software {
        let fault = match (10..=13)
            .contains(&intno8)
            .then(|| exception::load_cause(uc, &regs, intno8))
            .flatten()
        {
            Some(cause) => Fault::with_cause(intno8, regs, cause),
            None if intno8 == 0 => Fault::new(0, regs, "divide by zero or quotient overflow"),
            None => Fault::new(intno8, regs, fault_name(intno8)),
        };
        uc.request_stop(Stop::Fault(fault));
        return;
    }
    if deadline_passed(uc) {
        // The call has not run: CS:IP back at the INT for the walk.
        let _ = uc.set_reg(R::IP, regs.ip.wrapping_sub(2));
        uc.request_stop(Stop::Timeout);
        return;
    }
    let Some(mut env) = uc.get_data_mut().env.take() else {
        uc.request_stop(Stop::Unimplemented {
            what: format!("INT {intno8:02X}h"),
            caller: (regs.cs, regs.ip.wrapping_sub(2), regs.bp),
        });
        return;
    };
    let res = env.interrupt(uc, intno8);
    uc.get_data_mut().env = Some(env);
    if let Err(stop) = res {
        uc.request_stop(stop);
    }
}

/// Up to 15 bytes (the longest x86 instruction) at CS:IP, stopping at the
/// segment limit.
pub fn insn_bytes(uc: &Uc<'_>, cs: u16, ip: u16) -> Vec<u8> {
    let mut out = Vec::new();
    for k in 0..15u16 {
        let mut b = [0u8];
        if uc.read_seg(cs, ip.wrapping_add(k), &mut b).is_err() {
            break;
        }
        out.push(b[0]);
    }
    out
}

// ---- Selectors that are not one segment in its own slot: huge blocks,
// aliases of other memory, the real-mode first megabyte. KERNEL's
// selector functions and GlobalAlloc of more than 64 KiB use these.

/// Take `count` LDT entries with consecutive indices (fresh ones at the
/// end of the table): the first index.
fn take_ldt_run(uc: &mut Uc<'_>, count: u16) -> Result<u16, MachineError> {
    let st = uc.get_data_mut();
    if count == 0 || u32::from(st.next_ldt) + u32::from(count) > 8192 {
        return Err(MachineError("the LDT is full".into()));
    }
    let first = st.next_ldt;
    st.next_ldt += count;
    Ok(first)
}

/// Allocate a huge data block of `size` bytes (more than 64 KiB, at most
/// 16 MiB) as Windows 3.1 does: `ceil(size / 64 KiB)` consecutive LDT
/// selectors, 8 apart (`__AHINCR`), selector `i` based at byte `i * 64 KiB`
/// of one contiguous block and limited to the bytes left from there, so
/// `sel + i * 8 : off` reaches byte `i * 65536 + off`. The block ends on
/// a page boundary, so an access past its end faults. Zero-filled, with
/// `data` at its start. Returns the first selector.
pub fn alloc_huge(uc: &mut Uc<'_>, size: u32, data: &[u8]) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError(
            "segments are allocated only in protected mode".into(),
        ));
    }
    if size <= 0x1_0000 || size > 16 << 20 || data.len() > size as usize {
        return Err(MachineError(format!("bad huge block size {size:#x}")));
    }
    let count = size.div_ceil(0x1_0000) as u16;
    let first = take_ldt_run(uc, count)?;
    map_huge(uc, first, count, size, data)
}

/// Map a huge block of `size` bytes (`count` selectors) at the LDT run
/// that starts at index `first`, already taken; on failure the run is
/// handed back.
fn map_huge(
    uc: &mut Uc<'_>,
    first: u16,
    count: u16,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    // The slots of the run's indices span count * 128 KiB: the block sits
    // in their first count * 64 KiB, ending at a 64 KiB mark.
    let end = slot_of(first) + u64::from(count) * 0x1_0000;
    let base = end - u64::from(size);
    let map_start = base & !(PAGE - 1);
    let res = (|| {
        tlb::map(
            uc,
            map_start,
            (end - map_start) as usize,
            Permission::READ | Permission::WRITE,
        )
        .map_err(|e| uerr("mapping a huge block", e))?;
        uc.mem_write(base, data)
            .map_err(|e| uerr("filling a huge block", e))?;
        for i in 0..count {
            let off = u32::from(i) * 0x1_0000;
            let d = Descriptor {
                base: (base + u64::from(off)) as u32,
                limit: (size - off - 1).min(0xF_FFFF),
                access: Descriptor::DATA_R3,
            };
            uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &descriptor::encode(&d))
                .map_err(|e| uerr("writing the LDT", e))?;
        }
        Ok(descriptor::ldt_selector(first))
    })();
    if res.is_err() {
        let st = uc.get_data_mut();
        for i in 0..count {
            st.free_ldt.insert(first + i);
        }
    }
    res
}

/// Free a huge block made by [`alloc_huge`] whose first selector is `sel`
/// and which has `count` selectors: its memory is unmapped and its LDT
/// entries cleared and handed out again.
pub fn free_huge(uc: &mut Uc<'_>, sel: u16, count: u16) -> Result<(), MachineError> {
    let first = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    let d = uc
        .descriptor_of(sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} has no descriptor")))?;
    let end = slot_of(first) + u64::from(count) * 0x1_0000;
    let map_start = u64::from(d.base) & !(PAGE - 1);
    tlb::unmap(uc, map_start, (end - map_start) as usize)
        .map_err(|e| uerr("unmapping a huge block", e))?;
    for i in 0..count {
        uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &[0u8; 8])
            .map_err(|e| uerr("writing the LDT", e))?;
        uc.get_data_mut().free_ldt.insert(first + i);
    }
    Ok(())
}

/// Give a data block made by [`alloc_seg`] or [`alloc_huge`] (`count`
/// selectors from `sel`) a new `size` (1 byte to 16 MiB), small or huge,
/// holding `data` at its start and zeros after it. The block keeps its
/// first selector when the selectors it then needs after it are its own
/// or free, as Windows 3.1's GlobalReAlloc keeps a moveable block's handle;
/// otherwise it gets a new run. Returns the first selector, or an error
/// (and the block is gone) when the machine cannot make it.
pub fn remake_block(
    uc: &mut Uc<'_>,
    sel: u16,
    count: u16,
    size: u32,
    data: &[u8],
) -> Result<u16, MachineError> {
    let first = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated segment")))?;
    if size == 0 || size > 16 << 20 || data.len() > size as usize {
        return Err(MachineError(format!("bad block size {size:#x}")));
    }
    if count > 1 {
        free_huge(uc, sel, count)?;
    } else {
        free_seg(uc, sel)?;
    }
    let need = size.div_ceil(0x1_0000).max(1) as u16;
    let st = uc.get_data_mut();
    let end = u32::from(first) + u32::from(need);
    let free_run =
        end <= 8192 && (first..first + need).all(|i| i >= st.next_ldt || st.free_ldt.contains(&i));
    if !free_run {
        return if need > 1 {
            alloc_huge(uc, size, data)
        } else {
            alloc_seg(uc, SegKind::Data, size, data)
        };
    }
    for i in first..first + need {
        st.free_ldt.remove(&i);
    }
    // Indices skipped between the old end of the LDT and the run are free.
    for i in st.next_ldt..first {
        st.free_ldt.insert(i);
    }
    st.next_ldt = st.next_ldt.max(first + need);
    if need > 1 {
        map_huge(uc, first, need, size, data)
    } else {
        let res = map_segment(uc, first, SegKind::Data, size, data);
        if res.is_err() {
            uc.get_data_mut().free_ldt.insert(first);
        }
        res
    }
}

/// A new selector for memory that already exists (or for none yet): its
/// descriptor says `d`. Nothing is mapped; the caller frees it with
/// [`free_alias`], never [`free_seg`].
pub fn alloc_alias(uc: &mut Uc<'_>, d: Descriptor) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError("no selectors in real mode".into()));
    }
    let st = uc.get_data_mut();
    let index = match st.free_ldt.pop_first() {
        Some(i) => i,
        None if st.next_ldt < 8192 => {
            st.next_ldt += 1;
            st.next_ldt - 1
        }
        None => return Err(MachineError("the LDT is full".into())),
    };
    if let Err(e) = uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d)) {
        uc.get_data_mut().free_ldt.insert(index);
        return Err(uerr("writing the LDT", e));
    }
    Ok(descriptor::ldt_selector(index))
}

/// Change the descriptor of an allocated selector (an alias's base or
/// limit, a code selector turned data). The caller reloads segment
/// registers that hold it.
pub fn set_descriptor(uc: &mut Uc<'_>, sel: u16, d: Descriptor) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &descriptor::encode(&d))
        .map_err(|e| uerr("writing the LDT", e))
}

/// Free a selector made by [`alloc_alias`]: its descriptor is cleared; the
/// memory it named stays.
pub fn free_alias(uc: &mut Uc<'_>, sel: u16) -> Result<(), MachineError> {
    let index = allocated_index(uc, sel)
        .ok_or_else(|| MachineError(format!("{sel:04X} is not an allocated selector")))?;
    uc.mem_write(LDT_BASE + u64::from(index) * 8, &[0u8; 8])
        .map_err(|e| uerr("writing the LDT", e))?;
    uc.get_data_mut().free_ldt.insert(index);
    Ok(())
}

/// Map the first megabyte of linear memory (zeroed, read-write) in a
/// protected-mode machine, once: the real-mode memory that selectors of
/// fixed real-mode paragraphs (`__B800H`, `__0040H`, ...) name. True when
/// this call mapped it.
pub fn map_real_memory(uc: &mut Uc<'_>) -> Result<bool, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Ok(false);
    }
    let mapped = uc
        .mem_regions()
        .map_err(|e| uerr("listing memory", e))?
        .iter()
        .any(|r| r.begin == 0);
    if mapped {
        return Ok(false);
    }
    tlb::map(uc, 0, 0x10_0000, Permission::READ | Permission::WRITE)
        .map_err(|e| uerr("mapping real-mode memory", e))?;
    Ok(true)
}

/// [`alloc_alias`] for `count` selectors with consecutive indices (8
/// apart), each with descriptor `d`: the first.
pub fn alloc_alias_run(uc: &mut Uc<'_>, count: u16, d: Descriptor) -> Result<u16, MachineError> {
    if uc.get_data().mode != CpuMode::Protected {
        return Err(MachineError("no selectors in real mode".into()));
    }
    let first = take_ldt_run(uc, count)?;
    for i in 0..count {
        uc.mem_write(LDT_BASE + u64::from(first + i) * 8, &descriptor::encode(&d))
            .map_err(|e| uerr("writing the LDT", e))?;
    }
    Ok(descriptor::ldt_selector(first))
}

/// The x87's state as a system function sees it: control, status (with
/// TOP in bits 11-13) and tag words, and the data registers ST(0)..ST(7)
/// in stack order, 80 bits each (64-bit significand, then sign and
/// exponent), little-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fpu {
    /// The FPU control word.
    pub cw: u16,
    /// The FPU status word.
    pub sw: u16,
    /// The FPU tag word.
    pub tag: u16,
    /// ST(0)..ST(7), 80-bit extended reals.
    pub st: [[u8; 10]; 8],
}

/// Read the x87's state.
pub fn read_fpu(uc: &Uc<'_>) -> Result<Fpu, MachineError> {
    let word = |r: RegisterX86| {
        uc.reg_read(r)
            .map(|v| v as u16)
            .map_err(|e| uerr("reading the FPU", e))
    };
    let mut f = Fpu {
        cw: word(RegisterX86::FPCW)?,
        sw: word(RegisterX86::FPSW)?,
        tag: word(RegisterX86::FPTAG)?,
        st: [[0; 10]; 8],
    };
    for (i, r) in f.st.iter_mut().enumerate() {
        let v = uc
            .reg_read_long(RegisterX86::ST0 as i32 + i as i32)
            .map_err(|e| uerr("reading the FPU", e))?;
        r.copy_from_slice(&v[..10]);
    }
    Ok(f)
}

/// Write the x87's state (TOP from the status word first, so the data
/// registers land in stack order).
pub fn write_fpu(uc: &mut Uc<'_>, f: &Fpu) -> Result<(), MachineError> {
    let e = |e| uerr("writing the FPU", e);
    uc.reg_write(RegisterX86::FPCW, u64::from(f.cw))
        .map_err(e)?;
    uc.reg_write(RegisterX86::FPSW, u64::from(f.sw))
        .map_err(e)?;
    for (i, r) in f.st.iter().enumerate() {
        uc.reg_write_long(RegisterX86::ST0 as i32 + i as i32, r)
            .map_err(e)?;
    }
    uc.reg_write(RegisterX86::FPTAG, u64::from(f.tag))
        .map_err(e)?;
    Ok(())
}
