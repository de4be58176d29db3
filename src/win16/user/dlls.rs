//! What USER calls in the DLLs above it, and the one interface it names
//! for that ([`Dlls`]).
//!
//! USER lies below SHELL and DDEML, yet in Windows 3.1 it ran their code:
//! SHELL's RegisterShellHook put SHELL's own procedure in USER's WH_SHELL
//! chain, which USER called with every HSHELL_* event like any hook; DDEML
//! made hidden windows for each instance and conversation, and USER's
//! message loop dispatched their messages to DDEML's window procedures.
//! USER never linked against either: it called the procedures it was
//! given. Here USER names those procedures in a table of function
//! pointers, which the top of win16 (table.rs), naming every subsystem,
//! fills in (`Default for Dlls`), as it fills in the table of system
//! functions (`api::Apis`) and KERNEL's (`kernel::signal::Signals`).
//!
//! DDEML's windows are not made; one message stands for theirs (hWnd 0,
//! [`Dlls::wake_message`], ddeml/queue.rs): USER's message retrieval hands
//! it to DDEML ([`Dlls::wake`]) instead of to the program (message.rs).

use crate::machine::{Stop, Uc};
use crate::win16::Env;

/// The procedures USER calls in the DLLs above it.
#[derive(Clone, Copy)]
pub struct Dlls {
    /// SHELL's WH_SHELL hook: `(env, uc, code, hwnd)` for an HSHELL_*
    /// event; it does nothing until RegisterShellHook was called.
    pub shell_hook: fn(&mut Env, &Uc<'_>, u16, u16),
    /// The message (posted with hWnd 0) that stands for the messages of
    /// DDEML's own windows.
    pub wake_message: u16,
    /// DDEML's handling of that message for task `htask`: the task's
    /// waiting DDEML transactions go to their callbacks.
    pub wake: fn(&mut Env, &mut Uc<'_>, u16) -> Result<(), Stop>,
}

impl std::fmt::Debug for Dlls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("user::dlls::Dlls")
    }
}

/// The procedures the top of win16 filled in (table.rs).
pub fn dlls() -> Dlls {
    Dlls::default()
}
