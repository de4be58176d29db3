//! Fault dispatch to TOOLHELP InterruptRegister callbacks (toolhelp.md,
//! "InterruptRegister callbacks: the fault frame"; win16.md, "Faults").
//!
//! When a Win16 task faults (divide error 0, single step 1, INT 3, invalid
//! opcode 6, stack fault 12, general protection 13), the machine stops the
//! emulation with the registers as they were before the faulting instruction
//! and offers the fault here ([`offer`]). With callbacks registered, the
//! first one is entered on the faulting task's stack with TOOLHELP's frame:
//!
//! ```text
//!   SS:SP+00  return IP   -> TOOLHELP's pass-on address (FAULT_PASS_ON)
//!        +02  return CS   -> TOOLHELP's code segment
//!        +04  AX          (the DS to load: the registering task's DGROUP)
//!        +06  interrupt number (INT_DIV0 0 ... INT_GPFAULT 13)
//!        +08  handle      (TOOLHELP's own: 0 here)
//!        +0A  IP, +0C CS, +0E FLAGS of the faulting instruction
//! ```
//!
//! with AX = that DS and every other register as at the fault. A callback
//! that `retf`s passes the fault on: it lands on `int F0h` at FAULT_PASS_ON
//! ([`pass_on`]), which enters the next callback with the same frame; after
//! the last, the default action: the fault ends the run (Windows 3.1's
//! "Unrecoverable Application Error"). A callback that discards the first
//! 10 bytes and `iret`s resumes the program wherever the frame then says.
//!
//! Callbacks are tried newest registration first, whichever task
//! registered them: TOOLHELP kept one chain for the system, which is how
//! Dr. Watson, a task of its own, saw every task's faults. The callback
//! runs on the faulting task's stack, in the faulting task.
//!
//! Bounds: a fault while a callback still runs (its SS:SP below the frame's
//! IP/CS/FLAGS words) is not dispatched again — it ends the run, named as
//! a fault inside the fault callback; a callback that resumes into the same
//! fault more than [`MAX_REPEATS`] times in a row ends the run too; and the
//! instruction budget and wall clock bound everything else.

use super::{THUNK_SIZE, THUNKS_PER_MODULE, write_code};
use crate::dos::host;
use crate::env::Env;
use crate::machine::{Cpu, Fault, R, Stop, Uc, record_event};

/// Offset, in TOOLHELP's thunk segment, of the address a fault callback
/// returns to with `retf` to pass the fault on.
pub const FAULT_PASS_ON: u16 = (THUNKS_PER_MODULE - 2) * THUNK_SIZE;

/// How often in a row the same fault (CS:IP and number) is dispatched
/// before it ends the run.
pub const MAX_REPEATS: u32 = 64;

/// A fault being dispatched.
#[derive(Debug, Clone)]
pub struct Dispatch {
    pub fault: Fault,
    /// The callbacks to try, in order: (far address, DS to load).
    pub chain: Vec<(u32, u16)>,
    /// The next callback to try.
    pub next: usize,
    /// SP at the fault (the frame lies just below it).
    pub sp: u16,
    /// The same fault dispatched this many times in a row.
    pub repeats: u32,
}

/// TOOLHELP's interrupt number for a processor fault, if it reports it.
fn toolhelp_number(number: u8) -> Option<u16> {
    matches!(number, 0 | 1 | 3 | 6 | 12 | 13).then_some(u16::from(number))
}

/// The selector of TOOLHELP's thunk segment, when TOOLHELP is loaded.
fn toolhelp_cs(env: &Env) -> Option<u16> {
    env.win16
        .module_by_name("TOOLHELP")
        .and_then(|m| m.segments.first().copied())
}

/// The CS:IP a fault callback returns to with `retf` (FAULT_PASS_ON in
/// TOOLHELP's code), when TOOLHELP is loaded: what a walk recognises as
/// the dispatch frame (walk/dispatch.rs).
pub fn pass_on_address(env: &Env) -> Option<(u16, u16)> {
    toolhelp_cs(env).map(|cs| (cs, FAULT_PASS_ON))
}

/// Offer a fault to the InterruptRegister callbacks: true when one was
/// entered.
pub fn offer(env: &mut Env, uc: &mut Uc<'_>, f: &Fault) -> Result<bool, Stop> {
    let Some(intno) = toolhelp_number(f.number) else {
        return Ok(false);
    };
    if env.win16.toolhelp.declined.take() == Some((f.cs, f.ip, f.number)) {
        // Every callback passed it on: the default action.
        return Ok(false);
    }
    if env.win16.toolhelp.interrupt.is_empty() {
        return Ok(false);
    }
    let Some(th_cs) = toolhelp_cs(env) else {
        return Ok(false);
    };
    let regs = f.regs;
    // A trap (INT 3) reports the address after the instruction, as the CPU
    // pushes it; the other faults the faulting instruction's own.
    let frame_ip = if f.number == 3 {
        let bytes = crate::machine::insn_bytes(uc, regs.cs, f.ip);
        f.ip.wrapping_add(if bytes.first() == Some(&0xCC) { 1 } else { 2 })
    } else {
        f.ip
    };
    let mut repeats = 0;
    if let Some(d) = env.win16.toolhelp.dispatch.take() {
        let inside = regs.ss == d.fault.regs.ss && regs.sp < d.sp.wrapping_sub(6);
        if inside {
            return Err(Stop::Fault(Fault {
                detail: format!(
                    "{} (inside the InterruptRegister callback handling {} at {:04X}:{:04X})",
                    f.detail,
                    crate::machine::fault_name(d.fault.number),
                    d.fault.cs,
                    d.fault.ip
                ),
                ..f.clone()
            }));
        }
        if (d.fault.cs, d.fault.ip, d.fault.number) == (f.cs, f.ip, f.number) {
            repeats = d.repeats + 1;
            if repeats >= MAX_REPEATS {
                return Err(Stop::Fault(Fault {
                    detail: format!(
                        "{} (an InterruptRegister callback resumed into this fault {repeats} times)",
                        f.detail
                    ),
                    ..f.clone()
                }));
            }
        }
    }
    let chain: Vec<(u32, u16)> = env
        .win16
        .toolhelp
        .interrupt
        .iter()
        .rev()
        .map(|c| {
            let ds = env.win16.task(c.htask).map_or(0, |t| t.dgroup);
            (c.proc_addr, ds)
        })
        .collect();
    // The frame, below SP at the fault.
    let top = regs.sp;
    let words = [regs.flags, regs.cs, frame_ip, 0, intno];
    let mut sp = top;
    for w in words {
        sp = sp.wrapping_sub(2);
        if uc.write_u16_at(regs.ss, sp, w).is_err() {
            // No room for the frame (a stack fault at the very bottom):
            // TOOLHELP would switch stacks; here the fault stands.
            return Ok(false);
        }
    }
    // The pass-on address holds `int F0h`.
    if !write_code(uc, th_cs, FAULT_PASS_ON, &[0xCD, super::API_INT, 0xF4]) {
        return Ok(false);
    }
    // The context of the fault, on the frame's stack; enter_next then
    // points CS:IP and AX at the first callback.
    uc.set_regs(&crate::machine::Regs { sp, ..regs })
        .map_err(host)?;
    let d = Dispatch {
        fault: f.clone(),
        chain,
        next: 0,
        sp: top,
        repeats,
    };
    record_event(
        uc,
        format!(
            "fault {} at {:04X}:{:04X} offered to InterruptRegister callbacks",
            f.number, f.cs, f.ip
        ),
    );
    enter_next(env, uc, d, th_cs)
}

/// Enter the next callback of `d` (SP at the frame's AX word), or take the
/// default action after the last.
fn enter_next(env: &mut Env, uc: &mut Uc<'_>, mut d: Dispatch, th_cs: u16) -> Result<bool, Stop> {
    let Some(&(target, ds)) = d.chain.get(d.next) else {
        let f = d.fault;
        record_event(
            uc,
            format!(
                "Unrecoverable Application Error: fault {} at {:04X}:{:04X}, no callback handled it",
                f.number, f.cs, f.ip
            ),
        );
        // The machine offers this stop again: it must end the run.
        env.win16.toolhelp.declined = Some((f.cs, f.ip, f.number));
        return Err(Stop::Fault(f));
    };
    d.next += 1;
    let ss = d.fault.regs.ss;
    let mut sp = uc.reg(R::SP);
    for w in [ds, th_cs, FAULT_PASS_ON] {
        sp = sp.wrapping_sub(2);
        uc.write_u16_at(ss, sp, w)
            .map_err(|e| Stop::Error(format!("fault frame at {ss:04X}:{sp:04X}: {e}")))?;
    }
    uc.set_reg(R::SP, sp).map_err(host)?;
    uc.set_reg(R::AX, ds).map_err(host)?;
    uc.set_reg(R::CS, (target >> 16) as u16).map_err(host)?;
    uc.set_reg(R::IP, target as u16).map_err(host)?;
    env.win16.toolhelp.dispatch = Some(d);
    Ok(true)
}

/// The `int F0h` at FAULT_PASS_ON ran: a callback `retf`ed, passing the
/// fault on (SP at the frame's AX word).
pub fn pass_on(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let Some(d) = env.win16.toolhelp.dispatch.take() else {
        return Err(Stop::Error(
            "TOOLHELP's fault pass-on address ran with no fault being dispatched".into(),
        ));
    };
    let th_cs = uc.reg(R::CS);
    // Drop the AX word: the next callback gets its own.
    let sp = uc.reg(R::SP).wrapping_add(2);
    uc.set_reg(R::SP, sp).map_err(host)?;
    record_event(
        uc,
        format!(
            "InterruptRegister callback {} passed fault {} on",
            d.next, d.fault.number
        ),
    );
    enter_next(env, uc, d, th_cs).map(|_| ())
}
