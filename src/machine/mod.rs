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
pub mod checkpoint;
pub mod counter;
mod cpu;
pub mod debug;
pub use crate::x86::descriptor;
mod environment;
mod events;
pub mod exception;
mod fpu;
pub mod hookguard;
mod interrupt;
mod ldt;
mod observer;
pub mod page0;
mod ports;
pub mod record;
mod regs;
mod run;
mod state;
mod stop;
pub mod time;
pub mod tlb;
mod translate;
pub mod vga;
mod watchdog;
pub use watchdog::{Backstop, GRACE, set_backstop};

pub use cpu::*;
pub use environment::*;
pub use events::*;
pub use fpu::*;
pub use interrupt::*;
pub use ldt::*;
pub use observer::*;
use ports::*;
pub use regs::*;
pub use run::*;
pub use state::*;
pub use stop::*;
use translate::*;

pub use exception::{Cause, Fault, fault_name};

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use unicorn_engine::unicorn_const::{Arch, MemType, Mode, Permission, uc_error};
use unicorn_engine::{RegisterX86, Unicorn};

use crate::x86::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};

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
        clock: 0,
        total_clock: 0,
        clock_mark: 0,
        time_by_hook: false,
        next_tick: time::TICK_INSNS,
        timed: false,
        max_insns: 0,
        poll_every: 0,
        poll_at: 0,
        polled: false,
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
        between: None,
        resumed_mid_block: false,
        poked: Default::default(),
        depth: 0,
        next_ldt: FIRST_LDT_INDEX,
        free_ldt: BTreeSet::new(),
        observers: Vec::new(),
        recording: None,
        ring: Box::default(),
        ring_inline: false,
        refused: std::cell::Cell::new(None),
        restored: None,
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
        self.start_recording(recorder, true);
    }

    /// [`Machine::record_blocks`], with every word appended by the
    /// counting hook, called on every block, as on the unpatched engine
    /// (none written by the translated code, patch 0012): the same
    /// recording, made the slow way, to compare with.
    pub fn record_blocks_by_hook(&mut self, recorder: Box<dyn record::BlockRecorder>) {
        self.start_recording(recorder, false);
    }

    fn start_recording(&mut self, recorder: Box<dyn record::BlockRecorder>, inline: bool) {
        let st = self.uc.get_data_mut();
        st.recording = Some(Box::new(record::Recording::new(recorder)));
        st.ic.off();
        st.tb_counts.forget_given();
        counter::want_counting(&mut self.uc);
        counter::record_inline(&mut self.uc, true, inline);
    }

    /// Words (steps) of the recording in progress or the last one, and
    /// how many of them the translated code wrote itself (patch 0012; the
    /// rest the counting hook appended).
    pub fn recorded_words(&self) -> (u64, u64) {
        self.uc.get_data().ring.counts()
    }

    /// End the recording: its steps handed over, the recorder back with
    /// the first error it returned. None when nothing was recording.
    pub fn stop_recording(
        &mut self,
    ) -> Option<(Box<dyn record::BlockRecorder>, Option<std::io::Error>)> {
        let mut rec = self.uc.get_data_mut().recording.take()?;
        rec.flush(&self.uc.get_data().ring);
        counter::record_inline(&mut self.uc, false, false);
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
        crate::machine::tlb::remove_cache(&self.uc, lin, lin + 1);
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
        crate::machine::tlb::remove_cache(&self.uc, lin, lin + 1);
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
            // The last run's clock folded before its count starts again
            // (time.rs).
            time::fold(st);
            st.clock = 0;
            st.ic.set_executed(0);
            st.clock_mark = 0;
            st.ic.set_last_block((0, 0, 0));
            st.ic.off();
            st.preentered = None;
            st.slow = None;
            st.max_insns = limits.max_insns;
            st.deadline = started.checked_add(limits.timeout);
            // A run restored from a checkpoint goes on with its clock and
            // count (checkpoint.rs).
            if let Some(r) = st.restored.take() {
                st.clock = r.insns;
                st.ic.set_executed(r.executed);
                st.clock_mark = r.executed;
                st.ic.set_last_block(r.last_block);
            }
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
        let stop = watchdog::guard(handle, deadline, limits.timeout, || {
            match emulate(uc, NO_END) {
                Ok(()) => Stop::Error("the emulation ended at no stop".into()),
                Err(stop) => stop,
            }
        });
        counter::disarm(&mut self.uc);
        stop
    }

    /// Run `f` (code of the program run outside [`Machine::run`]: a
    /// self-loading application's loader, while it loads) under a
    /// wall-clock limit: the watchdog stops an emulation `f` starts once
    /// `limit` has passed, as it does a run's (watchdog.rs), and the
    /// emulation ends with [`Stop::Timeout`]. `Duration::MAX`: no limit.
    pub fn within_deadline<T>(&mut self, limit: Duration, f: impl FnOnce(&mut Machine) -> T) -> T {
        let deadline = Instant::now().checked_add(limit);
        self.uc.get_data_mut().deadline = deadline;
        let handle = self.uc.get_handle();
        let r = watchdog::guard(handle, deadline, limit, || f(self));
        self.uc.get_data_mut().deadline = None;
        r
    }

    /// Up to 15 bytes of the instruction at CS:IP.
    pub fn insn_bytes(&self, cs: u16, ip: u16) -> Vec<u8> {
        insn_bytes(&self.uc, cs, ip)
    }
}
