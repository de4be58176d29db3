//! What the debugger (src/debug/) needs of the machine beyond what the
//! environment and the observers use: the environment, mutably, from
//! inside a hook (the debugger's instruction hook turns the program's
//! console echo back on where a replay ends); the instruction count at a
//! code hook (the position of a breakpoint hit without a hook on every
//! instruction); dropping translated code when its hooks change; a call
//! between two emulations, where the machine is whole; and a stop every
//! so many instructions so that the debugger can ask its front end
//! whether the user pressed Ctrl-C.

use super::{Environment, Uc};

/// The machine's environment as its concrete type, mutably, from inside
/// a hook; None while a system function holds it (between instructions
/// it is always there: a nested run lends it back).
pub fn environment_mut<'a, T: Environment>(uc: &'a mut Uc<'_>) -> Option<&'a mut T> {
    let env: &mut dyn std::any::Any = uc.get_data_mut().env.as_deref_mut()?;
    env.downcast_mut::<T>()
}

/// What [`set_between`] installs.
pub type Between = Box<dyn FnMut(&mut Uc<'_>)>;

/// Have `f` called before every emulation the machine's loop starts, at
/// CS:IP with nothing half done (in a nested run too): the debugger
/// changes its hooks there, and talks to its front end. A stop `f`
/// requests ([`super::Cpu::request_stop`]) ends the run at once. None
/// removes it.
pub fn set_between(uc: &mut Uc<'_>, f: Option<Between>) {
    uc.get_data_mut().between = f;
}

/// Call the [`set_between`] function, if any: true when it asked for a
/// stop.
pub(super) fn call_between(uc: &mut Uc<'_>) -> bool {
    let Some(mut f) = uc.get_data_mut().between.take() else {
        return false;
    };
    f(uc);
    let st = uc.get_data_mut();
    if st.between.is_none() {
        st.between = Some(f);
    }
    st.stop.is_some()
}

/// Host code runs inside the emulation (a hook of the debugger's): the
/// translated code's count stops until the counting hook looks again
/// (counter.rs, `inline_off`).
pub fn host_hook(uc: &Uc<'_>) {
    super::counter::inline_off(uc);
}

/// The instructions completed in this run before the one at linear
/// address `addr`, asked from a code hook on that instruction; None when
/// the machine does not count ([`super::Machine::count_instructions`]).
pub fn executed_before(uc: &Uc<'_>, addr: u64) -> Option<u64> {
    super::counter::executed_before(uc, addr)
}

/// Instructions completed in this run, between two emulations (the
/// last block settled).
pub fn executed(uc: &Uc<'_>) -> Option<u64> {
    let st = uc.get_data();
    st.counting().then(|| st.ic.executed())
}

/// The machine's count as it stands inside a hook: instructions counted
/// in this run (each block whole when entered) and the last block counted
/// (linear address, size, instructions counted); None when the machine
/// does not count.
pub fn count_state(uc: &Uc<'_>) -> Option<(u64, (u64, u32, u64))> {
    let st = uc.get_data();
    st.counting()
        .then(|| (st.ic.executed(), st.ic.last_block()))
}

/// Does the machine keep time by counting instructions (time.rs,
/// "Timed")?
pub fn timed(uc: &Uc<'_>) -> bool {
    uc.get_data().timed
}

/// Drop every translated block, so that the next ones are translated
/// with the code hooks installed now (safe inside an emulation: the
/// block running finishes as it was translated).
pub fn forget_all_code(uc: &mut Uc<'_>) {
    super::counter::forget_all_code(uc);
}

/// Stop the running emulation (from a hook) only for the machine's loop
/// to go on at once from CS:IP, its count and clock settled (counter.rs,
/// `settle_resumed`) after the [`set_between`] function has run: how the
/// debugger has the rest of a block translated again with hooks it just
/// added.
pub fn interrupt_here(uc: &mut Uc<'_>) {
    super::counter::inline_off(uc);
    uc.get_data()
        .poked
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = uc.emu_stop();
}

/// How deep in nested runs the machine is (0: the top-level run's own
/// code; machine/run.rs, `run_nested`).
pub fn nesting(uc: &Uc<'_>) -> u32 {
    uc.get_data().depth
}

/// Stop the emulation at a block's entry every `every` instructions
/// (0: never), only for the machine's loop to call the [`set_between`]
/// function and go on (counter.rs, `poll_due`): the debugger's way to
/// look at its front end and its wall-clock limit while the program runs
/// with no hook of its own. The stop is made by the counting hook, on the
/// emulation's own thread, where a block starts: nothing is left half
/// done, in protected mode as in real mode, and the count stays exact.
/// The machine must count ([`super::Machine::count_instructions`]).
pub fn poll_every(uc: &mut Uc<'_>, every: u64) {
    super::counter::set_poll(uc.get_data_mut(), every);
}

/// Can a memory hook have its instruction run again ([`redo_insn`])?
/// Only the patched engine (vendor/README.md, patch 0013) can.
pub const CAN_REDO: bool = cfg!(not(feature = "unpatched-engine"));

/// Is the count of instructions run without the instruction hook exact
/// for any code? With the engine's patches it is (a block cut short by a
/// store into itself is settled where it runs again, counter.rs; patches
/// 0006 and 0010); on the
/// unpatched engine it is not for code that rewrites itself, so the
/// debugger keeps the hook on the way to a position breakpoint there.
pub const EXACT_COUNT: bool = cfg!(not(feature = "unpatched-engine"));

#[cfg(not(feature = "unpatched-engine"))]
unsafe extern "C" {
    /// The patched engine's `uc_toolhelp16_redo_insn` (unicorn.h, patch
    /// 0013).
    fn uc_toolhelp16_redo_insn(
        uc: unicorn_engine::ffi::uc_handle,
    ) -> unicorn_engine::unicorn_const::uc_error;
}

/// From a memory hook: stop the emulation before the instruction making
/// the access, its state put back as before it, for the machine's loop
/// to go on at once from there (after the [`set_between`] function),
/// running it again whole; the count is settled as at
/// [`interrupt_here`]. An access made outside translated code (an
/// interrupt's pushes) completes, and the stop falls after its
/// instruction. The debugger's way to stop exactly after a watched
/// access without a hook on every instruction: it runs the instruction
/// again with one. Without patch 0013 ([`CAN_REDO`]) it is
/// [`interrupt_here`], which stops only where the block ends.
pub fn redo_insn(uc: &mut Uc<'_>) {
    super::counter::inline_off(uc);
    uc.get_data()
        .poked
        .store(true, std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "unpatched-engine"))]
    {
        // SAFETY: the engine is live (`uc` borrows it), and the call is
        // made from one of its memory hooks, which the function is for.
        let _ = unsafe { uc_toolhelp16_redo_insn(uc.get_handle()) };
    }
    #[cfg(feature = "unpatched-engine")]
    {
        let _ = uc.emu_stop();
    }
}
