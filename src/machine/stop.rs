//! Why the machine stopped ([`Stop`]), and the stack room a system
//! function needs before it pushes on the program's stack.

use super::{Cause, Fault, Uc};
use crate::machine::Cpu;

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
