//! What the debugger (src/debug/) needs of the machine beyond what the
//! environment and the observers use: the environment, mutably, from
//! inside a hook (the debugger's instruction hook turns the program's
//! console echo back on where a replay ends); the instruction count at a
//! code hook (the position of a breakpoint hit without a hook on every
//! instruction); dropping translated code when its hooks change; a call
//! between two emulations, where the machine is whole; and a thread that
//! interrupts the emulation now and then so that the debugger can ask its
//! front end whether the user pressed Ctrl-C.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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

/// The engine's handle, for `uc_emu_stop` from the poller thread.
struct Handle(unicorn_engine::ffi::uc_handle);

// SAFETY: the handle is only used for `uc_emu_stop`, which unicorn itself
// calls from its timeout thread while the engine runs in another (the
// machine's watchdog does the same, watchdog.rs); the engine outlives the
// thread (it is joined before `with_poller` returns, and the caller keeps
// the engine alive across the call).
unsafe impl Send for Handle {}

/// What the poller thread of [`with_poller`] needs of a machine.
pub struct Poker {
    h: Handle,
    poked: Arc<AtomicBool>,
}

/// The machine's [`Poker`].
pub fn poker(uc: &Uc<'_>) -> Poker {
    Poker {
        h: Handle(uc.get_handle()),
        poked: uc.get_data().poked.clone(),
    }
}

/// Run `f` (a run of the machine `poker` is from) while a thread,
/// every `every` that `on` is set, sets `poll` and stops the emulation
/// (the machine's loop goes on at once, after its [`set_between`]
/// function, which sees `poll`): the debugger's way to look at its front
/// end while the program runs with no hook of its own.
pub fn with_poller<R>(
    poker: Poker,
    on: Arc<AtomicBool>,
    poll: Arc<AtomicBool>,
    every: Duration,
    f: impl FnOnce() -> R,
) -> R {
    let done = Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
    let Poker { h, poked } = poker;
    std::thread::scope(|s| {
        let d = done.clone();
        s.spawn(move || {
            let h = h;
            let (lock, cv) = &*d;
            let Ok(mut finished) = lock.lock() else {
                return;
            };
            loop {
                finished = match cv.wait_timeout(finished, every) {
                    Ok((g, _)) => g,
                    Err(_) => return,
                };
                if *finished {
                    return;
                }
                if on.load(Ordering::Relaxed) {
                    poll.store(true, Ordering::Relaxed);
                    poked.store(true, Ordering::Relaxed);
                    // SAFETY: see `Handle`; the run has not finished (the
                    // flag is read under the lock the run sets it with).
                    unsafe {
                        unicorn_engine::ffi::uc_emu_stop(h.0);
                    }
                }
            }
        });
        let r = f();
        let (lock, cv) = &*done;
        if let Ok(mut finished) = lock.lock() {
            *finished = true;
        }
        cv.notify_all();
        r
    })
}
