//! What KERNEL calls in the tiers above it, and the one interface it
//! names for that ([`Signals`]).
//!
//! KERNEL lies below USER, GDI and the other DLLs, yet Windows 3.1's
//! KERNEL told them of its events: at a task's end it called USER's
//! signal procedure (USER.314 SignalProc), which destroyed the task's
//! windows and its message queue; KERNEL ran USER's initialization
//! (USER.400 FinalUserInit) once USER was loaded; and the boxes KERNEL
//! shows (LoadLibrary's "Cannot find" File Error box, KB Q111610) are
//! USER's message boxes. KERNEL did not link against USER for that: it
//! held the addresses of those procedures, which USER handed it.
//!
//! So here: KERNEL names the procedures it calls up — a table of
//! function pointers — and the top of win16 (table.rs), which names every
//! subsystem, fills it in (`Default for Signals`, as it fills in the
//! table of system functions, `api::Apis`). KERNEL calls [`signals`];
//! it never names USER, DDEML, the fault handler or Dr. Watson.

use crate::machine::{Stop, Uc};
use crate::win16::{Env, Win16, Win16LoadError};

/// The procedures KERNEL calls in the tiers above it.
#[derive(Clone, Copy)]
pub struct Signals {
    /// A task is ending (it is still on the task list, its TDB still
    /// valid): USER's SignalProc destroys its windows, queue, timers and
    /// hooks; its DDEML instances go and their partners are told; its
    /// TOOLHELP callbacks are forgotten.
    pub task_ending: fn(&mut Env, &mut Uc<'_>, u16),
    /// USER's initialization (FinalUserInit): its predefined window
    /// classes, before the first program's code runs. KERNEL calls it
    /// when it loads a program; a second call changes nothing.
    pub user_init: fn(&mut Uc<'_>, &mut Win16) -> Result<(), Win16LoadError>,
    /// A system box of KERNEL's, shown for task `htask` (a box the
    /// program did not ask for): `(env, htask, caption, text)`.
    pub system_box: fn(&mut Env, u16, &str, String),
    /// Whether task `htask` has a message or input waiting (its queue,
    /// its windows to paint, the session's script for it): the scheduler
    /// wakes a task waiting for input when it has. In Windows USER set
    /// the wake bits of the task's queue and posted it an event; the
    /// answer is USER's.
    pub has_input: fn(&Env, u16) -> bool,
    /// A task that received a message another task sent ended inside the
    /// call: USER drops the sends it was handling (InSendMessage is
    /// FALSE again for their senders).
    pub send_abandoned: fn(&mut Env, u16),
    /// The stop that ends the run, as the fault handler marks it (a
    /// fault is then not dispatched twice on the way out of nested
    /// emulations).
    pub final_stop: fn(&mut Env, Stop) -> Stop,
    /// A built-in module's own start (its LibMain), when KERNEL enters it
    /// in its module table (kernel/builtin.rs): GDI's heap and stock
    /// objects. The module's index in `Win16::modules`.
    pub builtin_init: fn(&mut Uc<'_>, &mut Win16, usize),
}

impl std::fmt::Debug for Signals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("kernel::signal::Signals")
    }
}

/// The procedures the top of win16 filled in (table.rs).
pub fn signals() -> Signals {
    Signals::default()
}
