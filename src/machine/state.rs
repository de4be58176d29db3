//! The per-machine [`State`] that unicorn's hooks reach, and running
//! code as the host ([`with_host`]).

use super::{
    BTreeSet, Cell, CodeOwner, CpuMode, Environment, Fault, HashMap, Instant, MemType, Observer,
    Stop, Uc, a20, checkpoint, counter, debug, page0, record, tlb, vga,
};

/// Which events the log keeps (`--events FILTER`): true to keep one.
pub type EventFilter = Box<dyn Fn(&str) -> bool>;

/// Per-machine state that unicorn's hooks reach.
pub struct State {
    pub(super) mode: CpuMode,
    pub(super) stop: Option<Stop>,
    /// The instructions executed in this run and the last block counted
    /// (linear address, size in bytes, the instructions counted for it),
    /// kept by the counting hook and, while it is armed, by the
    /// translated code itself (counter.rs, "Counting inside the
    /// translated code").
    pub(super) ic: Box<counter::InlineCount>,
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
    pub(super) tlb_fault: Option<(MemType, u64)>,
    /// Protected mode: the permissions of every mapped page (tlb.rs).
    pub(super) pages: tlb::Pages,
    /// Real mode: the first page while it is device memory (page0.rs).
    pub(super) page0: Option<std::rc::Rc<page0::Page0>>,
    /// The first page is to become plain memory (page0.rs).
    pub(super) page0_to_ram: bool,
    /// Port accesses since the last block was entered: their number,
    /// and the count of executed instructions when the first was made (a
    /// new block entered changes the count, which starts them again).
    pub(super) port_seq: (u32, u64),
    pub(super) env: Option<Box<dyn Environment>>,
    /// Which module owns each code segment (for hModule / wSegment).
    pub owners: HashMap<u16, CodeOwner>,
    /// Real mode: the DOS program's memory `[first, end)` paragraphs and
    /// its PSP, the owner of every code segment inside it.
    pub real_owner: Option<(u16, u16, u16)>,
    /// The current task (hTask for StackTraceCSIPFirst).
    pub current_task: u16,
    /// Breakpoints: linear address and the code hook stopping there.
    pub(super) breakpoints: Vec<(u64, unicorn_engine::UcHookId)>,
    /// A breakpoint the next instruction passes without stopping: the
    /// one the program stands on when it is resumed ([`Machine::resume`]).
    pub(super) pass_breakpoint: Option<u64>,
    /// This run's emulated clock, in instructions (time.rs): what
    /// GetTickCount reads, as [`State::insns`] gives it (this field plus
    /// the instructions the translated code counted since `clock_mark`).
    /// Starts at 0 with every [`Machine::run`].
    pub(super) clock: u64,
    /// The emulated clock since the machine was made, never reset
    /// (time.rs; TOOLHELP's TimerCount), as [`State::total_insns`] gives
    /// it.
    pub(super) total_clock: u64,
    /// The count of executed instructions ([`counter::InlineCount`]) the
    /// two clocks above were last folded at: a timed run's clock is
    /// theirs plus what was executed since (time.rs, "The clock derived
    /// from the count").
    pub(super) clock_mark: u64,
    /// Keep a timed run's clock in the counting hook, every block going
    /// to it (the way it was kept before the clock was derived from the
    /// count, and still is on the unpatched engine): the same clock, made
    /// the slow way, to compare with ([`Machine::keep_time_by_hook`]).
    pub(super) time_by_hook: bool,
    /// The clock value of the next BIOS timer tick (real mode).
    pub(super) next_tick: u64,
    /// The clock counts every executed instruction (time.rs, "Timed").
    pub(super) timed: bool,
    /// The run's instruction budget (0 = none) and wall-clock deadline.
    pub(super) max_insns: u64,
    /// Stop the emulation at a block's entry every this many instructions
    /// (0: never), for the [`debug::set_between`] function to run
    /// (debug.rs, `poll_every`), and the count of the next such stop.
    pub(super) poll_every: u64,
    pub(super) poll_at: u64,
    /// The block hook stopped the emulation for the poll above: the loop
    /// goes on at once (the block was not entered).
    pub(super) polled: bool,
    pub(super) deadline: Option<Instant>,
    /// Where the budget ends inside a block (counter.rs).
    pub(super) tail: Option<counter::Tail>,
    /// The counting hook is wanted (counter.rs).
    pub(super) want_count: bool,
    /// Which counting hook is installed (none: the machine does not
    /// count), and the fast one's handle while it is (counter.rs).
    pub(super) hook: counter::Hook,
    pub(super) fast_hook: Option<unicorn_engine::ffi::uc_hook>,
    /// The block the fast counting hook stopped the emulation before, to
    /// be seen to by the machine's loop (counter.rs, `slow_block`).
    pub(super) slow: Option<(u64, u32)>,
    /// The block the loop let in and counted, entered again next: linear
    /// address, size, instructions counted (counter.rs).
    pub(super) preentered: Option<(u64, u32, u64)>,
    /// Budget code hooks given up inside an emulation, removed between two
    /// (counter.rs).
    pub(super) stale_tail_hooks: Vec<unicorn_engine::UcHookId>,
    /// Instructions per translated block (counter.rs).
    pub(super) tb_counts: Box<counter::TbCounts>,
    /// Emulations in progress (`uc_emu_start` calls not returned).
    pub(super) emulating: u32,
    /// The program has run: an emulation has started.
    pub(super) ran: bool,
    /// Code of the machine or its environment is running (a hook, or no
    /// emulation at all), not the program's: page0.rs tells the program's
    /// own accesses from the environment's by it.
    pub(super) host: Cell<bool>,
    /// Nesting depth of [`run_nested`] calls.
    pub depth: u32,
    pub(super) next_ldt: u16,
    /// LDT indices of freed segments, handed out again lowest first.
    pub(super) free_ldt: BTreeSet<u16>,
    /// What watches execution (tracer, shadow call stack, profiler).
    pub(super) observers: Vec<Box<dyn Observer>>,
    /// The recording of executed blocks, when one is made (record.rs).
    pub(super) recording: Option<Box<record::Recording>>,
    /// The recording's buffer of step words, shared with the translated
    /// code (record.rs), and whether the translated code writes it itself
    /// (patch 0012; counter.rs `record_inline`).
    pub(super) ring: Box<record::Ring>,
    pub(super) ring_inline: bool,
    /// Called between two emulations (debug.rs, [`debug::set_between`]).
    pub(super) between: Option<debug::Between>,
    /// The emulation goes on in the middle of a block it left (a stop
    /// that only interrupted, counter.rs `settle_resumed`): the timer
    /// ticks were looked at when the block was first entered, not again.
    pub(super) resumed_mid_block: bool,
    /// Set by whoever stops the emulation only for it to go on at once
    /// (debug.rs, `interrupt_here` and the poller thread): the loop then
    /// goes on from CS:IP. A HLT the engine reports (run.rs, `halted`)
    /// is the program's whatever this says.
    pub(super) poked: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The fault of the last segment-register load the CPU refused
    /// ([`Cpu::set_reg`]) or guest memory access that failed
    /// ([`Cpu::read_seg`], [`Cpu::write_seg`]) in protected mode, until
    /// the next interrupt hook.
    pub(super) refused: std::cell::Cell<Option<Fault>>,
    /// Set by a checkpoint restored (checkpoint.rs): the next
    /// [`Machine::run`] goes on with this clock and count, not from 0.
    pub(super) restored: Option<checkpoint::Resume>,
}

impl State {
    /// The machine counts executed instructions: a counting hook is
    /// installed (counter.rs).
    pub(super) fn counting(&self) -> bool {
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
