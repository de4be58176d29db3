//! The wall-clock limit: a thread per run that stops the emulation once
//! the deadline has passed.
//!
//! Without a hook per block nothing in the emulating thread looks at the
//! clock while a program computes, and unicorn's own timeout starts a
//! thread for every `uc_emu_start`: about 150 µs each, paid again at every
//! HLT (each restarts the emulation). One thread for the whole run costs
//! that once. It sleeps until the deadline, then calls `uc_emu_stop`, the
//! call unicorn's own timeout thread makes, and repeats it every few
//! milliseconds until the run ends (a stop that lands between two
//! emulations, or is undone by a nested emulation's start, is simply
//! made again). A stop from it is recognised as a timeout by the deadline
//! having passed; the interrupt hook also looks at the deadline at every
//! system call, as before.
//!
//! **The backstop.** A stop reaches only the emulation: code of the
//! emulated system itself (a DOS or Win16 function, Rust called from a
//! hook) that kept running would hold the run past its limit, and the
//! command would not end. Every such loop is meant to be bounded; in
//! case one is not, a process may name a [`Backstop`] ([`set_backstop`];
//! the `toolhelp16` command does, printing why and exiting with the
//! wall-clock status): the watchdog calls it once the run is still going
//! [`GRACE`] after its deadline. A library user that sets none keeps the
//! run going as before.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The engine's handle, for `uc_emu_stop` from the watchdog thread.
struct Handle(unicorn_engine::ffi::uc_handle);

// SAFETY: the handle is only used for `uc_emu_stop`, which unicorn itself
// calls from its timeout thread while the engine runs in another; the
// engine outlives the watchdog (the thread is joined before `guard`
// returns, and `guard` borrows the engine).
unsafe impl Send for Handle {}

/// How often the watchdog repeats its stop after the deadline.
const REPEAT: Duration = Duration::from_millis(5);

/// How long past its deadline a run may still be going before the
/// backstop is called: far more than a stopped emulation needs to
/// return (milliseconds), far less than a user waits for a command that
/// hangs.
pub const GRACE: Duration = Duration::from_secs(5);

/// What the process does with a run still going [`GRACE`] past its
/// deadline (called on the watchdog's thread with the run's limit; it
/// is expected not to return, typically ending the process).
pub type Backstop = fn(Duration);

static BACKSTOP: std::sync::OnceLock<Backstop> = std::sync::OnceLock::new();

/// Name the process's backstop (once; a second call is ignored).
pub fn set_backstop(f: Backstop) {
    let _ = BACKSTOP.set(f);
}

/// Run `f` (the machine's loop over emulations) with a watchdog stopping
/// the emulation of engine `handle` once `deadline` has passed.
pub(super) fn guard<R>(
    handle: unicorn_engine::ffi::uc_handle,
    deadline: Option<Instant>,
    limit: Duration,
    f: impl FnOnce() -> R,
) -> R {
    let Some(deadline) = deadline else {
        return f();
    };
    let backstop = BACKSTOP.get().copied();
    let last = deadline.checked_add(GRACE);
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    let h = Handle(handle);
    std::thread::scope(|s| {
        let d = done.clone();
        s.spawn(move || {
            let h = h;
            let (lock, cv) = &*d;
            let Ok(mut finished) = lock.lock() else {
                return;
            };
            loop {
                if *finished {
                    return;
                }
                let now = Instant::now();
                if let (Some(b), Some(last)) = (backstop, last) {
                    if now >= last {
                        drop(finished);
                        b(limit);
                        return;
                    }
                }
                if now >= deadline {
                    // SAFETY: see `Handle`; the run has not finished (the
                    // flag is read under the lock the run sets it with).
                    unsafe {
                        unicorn_engine::ffi::uc_emu_stop(h.0);
                    }
                }
                let wait = if now >= deadline {
                    REPEAT
                } else {
                    deadline - now
                };
                finished = match cv.wait_timeout(finished, wait) {
                    Ok((g, _)) => g,
                    Err(_) => return,
                };
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
