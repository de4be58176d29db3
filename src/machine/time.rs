//! Emulated time: the clock that programs read, the PC's timer ticks, and
//! when the machine counts instructions to keep them.
//!
//! **The clock** ([`State::insns`] for this run, [`State::total_insns`]
//! since the machine was made) is measured in instructions, never in the
//! host's time, so that a run gives the same result every time (a
//! debugger replaying a run needs every tick where it was). It advances
//!
//! * by [`EVENT_INSNS`] at every interrupt the machine sees (a software
//!   interrupt, a system call, a processor exception) and by
//!   [`PORT_INSNS`] at every port access: events the machine handles
//!   anyway, so keeping time there costs nothing;
//! * to the next timer tick when the program waits for one (HLT with
//!   interrupts enabled);
//! * by the instructions of every translation block executed, but only
//!   once the program *depends on time passing between those events*
//!   ("timed", below). Counting blocks costs the machine's counting hook
//!   (counter.rs), a few instructions a block in the translated code on
//!   the patched engine and a call per block on the unpatched one; a
//!   program that never looks at the clock between system calls cannot
//!   tell the difference, so it runs without.
//!
//! **Timed.** A run becomes timed, for the rest of the machine's life, at
//! the first of these, each a point in the program's own execution:
//!
//! * it reads the clock through the system (GetTickCount, TimerCount, ...:
//!   [`observe`]);
//! * in real mode, it reads the BIOS timer count or the keyboard buffer's
//!   head and tail in the BIOS data area itself, or writes the vector of a
//!   hardware interrupt the machine delivers (08h, 09h, 1Ch, 74h) while it
//!   runs (page0.rs sees both), or runs code in the first page (which then
//!   becomes plain memory, see page0.rs);
//!
//! From there on every block's instructions count. Whether counting was
//! already on for another reason (a trace, a budget) changes nothing: the
//! clock only counts blocks entered after the switch, and the switch
//! happens at the same instruction either way (see [`observe`]). So a
//! traced run, a budgeted run and a plain run of the same program see
//! the same clock, the same ticks and the same keys, and end the same way.
//!
//! **The clock derived from the count.** A timed run's clock is not
//! advanced block by block: it is [`State::insns`] (and
//! [`State::total_insns`]), the value the clock was last *folded* at plus
//! the instructions executed since ([`super::counter::InlineCount`],
//! which the translated code keeps itself on the patched engine,
//! vendor/README.md, patch 0006). So the blocks of a timed run count
//! themselves as an untimed run's do, and the clock is read exactly
//! wherever it is read. The count and the clock differ in three places,
//! which the machine folds into the clock's base as they happen, so that
//! each read gives what a clock advanced block by block would:
//!
//! * the clock counts a block whole when it is entered, while the count
//!   is settled when a block is cut short (a fault, a stop, code that
//!   rewrites itself) or not run after all: the clock keeps the block
//!   ([`keep_cut`]);
//! * the budget's last block: counted up to the budget, on the clock
//!   whole;
//! * a stop that only interrupts (counter.rs, `settle_resumed`) takes
//!   back both, so the clock goes on as if the emulation had not
//!   stopped.
//!
//! Events (an interrupt, a port access, a HLT's wait) add to the base.
//! [`Machine::keep_time_by_hook`] keeps the clock the way it was kept
//! before, and still is for comparison: every block of a timed run goes
//! to the counting hook, which advances the clock by the block's
//! instructions as it enters it (nothing derived, nothing folded); the
//! tests compare the two (tests/timed_inline.rs).
//!
//! **Ticks** (real mode): the BIOS tick count at 0040:006Ch advances by
//! one every [`TICK_INSNS`] of the clock, and the environment delivers the
//! hardware interrupts there ([`super::Environment::timer_tick`]). Ticks
//! fall due at safe points only, where the machine may redirect the
//! program to an interrupt handler: the interrupt hook after a system
//! call, the entry of a block while counting, a HLT. A port access only
//! advances the clock (a port hook runs in the middle of an instruction).

use super::{Cpu, Machine, State, Uc, with_host};
use crate::x86::CpuMode;

/// Clock instructions per BIOS timer tick (18.2 per second): about what a
/// 386 at 5 MIPS runs in 55 ms.
pub const TICK_INSNS: u64 = 1 << 18;

/// Clock instructions a system call or any other interrupt costs.
pub const EVENT_INSNS: u64 = 100;

/// Clock instructions a port access costs.
pub const PORT_INSNS: u64 = 10;

/// Advance the clock by `n` instructions (an event's cost).
pub fn advance(st: &mut State, n: u64) {
    st.clock = st.clock.wrapping_add(n);
    st.total_clock = st.total_clock.wrapping_add(n);
}

impl State {
    /// Instructions on the clock since the base was folded (module notes,
    /// "The clock derived from the count"): none while the run is not
    /// timed.
    #[inline(always)]
    fn since_mark(&self) -> u64 {
        if self.timed && !self.time_by_hook {
            self.ic.executed().wrapping_sub(self.clock_mark)
        } else {
            0
        }
    }

    /// This run's emulated clock, in instructions: what GetTickCount
    /// reads. Starts at 0 with every [`Machine::run`].
    #[inline(always)]
    pub fn insns(&self) -> u64 {
        self.clock.wrapping_add(self.since_mark())
    }

    /// The emulated clock since the machine was made, never reset
    /// (TOOLHELP's TimerCount).
    #[inline(always)]
    pub fn total_insns(&self) -> u64 {
        self.total_clock.wrapping_add(self.since_mark())
    }

    /// A timed real-mode run: the count of executed instructions at
    /// which the next timer tick is due (asked by the counting hook as it
    /// arms the translated code's count), so that the translated code
    /// counts no block entered at or past it (counter.rs, `limit`): the
    /// tick is delivered at the entry of the same block as when the
    /// clock was kept block by block. `u64::MAX` otherwise.
    #[inline(always)]
    pub(super) fn tick_limit(&self) -> u64 {
        if !self.timed || self.mode != CpuMode::Real {
            return u64::MAX;
        }
        let due_in = self.next_tick.saturating_sub(self.total_insns());
        self.ic.executed().saturating_add(due_in)
    }
}

/// Fold the instructions executed since the mark into the clock's base
/// (before the count is reset or replaced).
pub(super) fn fold(st: &mut State) {
    let n = st.since_mark();
    advance(st, n);
    st.clock_mark = st.ic.executed();
}

/// The count goes back by `n` instructions that the clock keeps (a block
/// settled short of its end, or not run after all, or counted short of
/// its end by the budget): the mark goes back with it (module notes).
#[inline(always)]
pub(super) fn keep_cut(st: &mut State, n: u64) {
    st.clock_mark = st.clock_mark.wrapping_sub(n);
}

/// The program reads the emulated clock (a system function that returns
/// the time calls this first): from the next block on, every executed
/// instruction counts ([module notes](self)). Returns this run's clock,
/// [`State::insns`].
///
/// Why the switch is reproducible: it happens inside the program's own
/// execution, in a block that is then not counted. When the machine
/// already counts blocks (a trace, a budget), the flag takes effect at
/// the next block hook; when it does not, the counting hook is installed
/// there and then, and every translated block dropped, so the next block
/// entered is translated again with the hook and is the first counted
/// (counter.rs, `want_counting`). Either way the first counted block is
/// the same.
pub fn observe(uc: &mut Uc<'_>) -> u64 {
    start_timing(uc);
    uc.get_data().insns()
}

/// Count every executed instruction from the next block on.
pub(super) fn start_timing(uc: &mut Uc<'_>) {
    let st = uc.get_data_mut();
    if st.timed {
        return;
    }
    // The clock counts from here (the block running now is not on it).
    st.clock_mark = st.ic.executed();
    st.timed = true;
    st.ic.off();
    // The first page needs watching no more (page0.rs).
    if st.page0.is_some() {
        st.page0_to_ram = true;
    }
    super::counter::want_counting(uc);
}

/// The BIOS ticks whose time has come (real mode, at a safe point).
pub(super) fn ticks_due(uc: &mut Uc<'_>) {
    loop {
        let st = uc.get_data_mut();
        if st.mode != CpuMode::Real || st.total_insns() < st.next_tick || st.stop.is_some() {
            return;
        }
        st.next_tick = st.next_tick.saturating_add(TICK_INSNS);
        bios_tick(uc);
    }
}

/// Wait for the next tick (HLT with interrupts enabled): the clock skips
/// to it, and it is delivered.
pub(super) fn skip_to_next_tick(uc: &mut Uc<'_>) {
    let st = uc.get_data_mut();
    let gap = st.next_tick.saturating_sub(st.total_insns());
    advance(st, gap);
    ticks_due(uc);
}

/// One tick of the PC's timer in real mode: the environment delivers the
/// hardware interrupts ([`super::Environment::timer_tick`]; the BIOS's
/// timer handler, or a program's in its place, advances the tick count).
/// A stop it asks for is requested.
fn bios_tick(uc: &mut Uc<'_>) {
    with_host(uc, |uc| {
        if let Some(mut env) = uc.get_data_mut().env.take() {
            let res = env.timer_tick(uc);
            uc.get_data_mut().env = Some(env);
            if let Err(stop) = res {
                uc.request_stop(stop);
            }
        }
    });
}

impl Machine {
    /// Is the machine keeping time by counting instructions (module
    /// notes, "Timed")?
    pub fn timed(&self) -> bool {
        self.get_data().timed
    }

    /// Keep a timed run's clock in the counting hook, every block going to
    /// it and advancing the clock as it is entered, as before the clock
    /// was derived from the count (module notes): the same clock, ticks
    /// and run, made the slow way, for tests and `bench` to compare with.
    /// Call it before the run starts.
    pub fn keep_time_by_hook(&mut self) {
        let st = self.get_data_mut();
        // What the count holds of the clock so far goes into its base.
        fold(st);
        st.time_by_hook = true;
        st.ic.off();
    }
}
