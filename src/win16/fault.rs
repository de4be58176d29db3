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
//! TOOLHELP also routed INT_BADPAGEFAULT (14) and INT_CTLALTSYSRQ (256);
//! neither arises here: the machine has no paging, so no page fault, and
//! no keyboard that could press Ctrl+Alt+SysRq.
//!
//! Each fault is recorded before it is dispatched (fault_record.rs), with
//! the walk from the faulting context, and its outcome set as it is
//! decided.
//!
//! Callbacks are tried newest registration first, whichever task
//! registered them: TOOLHELP kept one chain for the system, which is how
//! Dr. Watson, a task of its own, saw every task's faults. The callback
//! runs on the faulting task's stack, in the faulting task.
//!
//! **Low-stack faults.** A stack fault, or a fault whose stack cannot hold
//! the frame, is dispatched on TOOLHELP's own stack ([`FAULT_STACK_SIZE`]
//! bytes, allocated on first use): the interrupt number has its high bit
//! set and the frame goes on with the faulting SP and SS at +10 and +12
//! (toolhelp.md). A callback that resumes such a fault must reload SS:SP
//! itself.
//!
//! **The default action** ([`default_action`]), when no callback handles
//! the fault: a general protection fault at an address for which the
//! faulting module's C runtime declared a handler in its `__GP` table
//! (HasGPHandler, kernel/error.rs) resumes at that handler with the
//! faulting context, as KERNEL's own GP-fault handling did. Otherwise the run records the fault as Windows 3.1 reported it — the
//! Application Error line and Dr. Watson's failure report (drwatson.rs),
//! with the walk from the faulting context — tells every NotifyRegister
//! callback NFY_EXITTASK (on TOOLHELP's stack when the task's own is
//! unusable), and ends the task with exit code [`FAULT_EXIT_CODE`]. When
//! other tasks can still run, they do (scheduler.rs); the run's result is
//! the first program's, and a first program ended by a fault ends the run
//! as that fault.
//!
//! Bounds: a fault while a callback still runs (its SS:SP below the frame's
//! IP/CS/FLAGS words) is not dispatched again — it ends the run, named as
//! a fault inside the fault callback; a callback that resumes into the same
//! fault more than [`MAX_REPEATS`] times in a row ends the run too; and the
//! instruction budget and wall clock bound everything else.

use super::{THUNK_SIZE, THUNKS_PER_MODULE, write_code};
use crate::dos::host;
use crate::machine::{Cpu, Fault, R, SegKind, Stop, Uc, record_event};
use crate::walk::MAX_FRAMES;
use crate::walk::{Walk, walk_from_csip};
use crate::win16::Env;

/// Offset, in TOOLHELP's thunk segment, of the address a fault callback
/// returns to with `retf` to pass the fault on.
pub const FAULT_PASS_ON: u16 = (THUNKS_PER_MODULE - 2) * THUNK_SIZE;

/// How often in a row the same fault (CS:IP and number) is dispatched
/// before it ends the run.
pub const MAX_REPEATS: u32 = 64;

/// Size of TOOLHELP's own stack, for low-stack faults and notifications
/// from a task whose stack is unusable.
pub const FAULT_STACK_SIZE: u16 = 0x0800;

/// The high bit of the frame's interrupt number: a low-stack fault.
pub const LOW_STACK: u16 = 0x8000;

/// The exit code of a task ended by an unhandled fault (this tool's
/// choice: the code KERNEL used is not documented).
pub const FAULT_EXIT_CODE: u8 = 0xFF;

/// NotifyRegister's notification of a task's end; the low byte of dwData is
/// the exit code.
pub const NFY_EXITTASK: u16 = super::kernel::notify::NFY_EXITTASK;

/// A fault no callback handled: what Windows 3.1 showed and logged.
#[derive(Debug, Clone)]
pub struct Unhandled {
    /// The task that faulted, and its module's name.
    pub htask: u16,
    pub module: String,
    pub fault: Fault,
    /// The walk from the faulting context, taken at the fault.
    pub walk: Walk,
    /// The line of the Application Error box.
    pub application_error: Option<String>,
    /// Dr. Watson's failure report.
    pub drwatson: Vec<String>,
}

/// A fault being dispatched.
#[derive(Debug, Clone)]
pub struct Dispatch {
    pub fault: Fault,
    /// The callbacks to try, in order: (far address, DS to load).
    pub chain: Vec<(u32, u16)>,
    /// The next callback to try.
    pub next: usize,
    /// The stack the frame is on (the faulting one, or TOOLHELP's for a
    /// low-stack fault) and the SP the frame lies just below.
    pub ss: u16,
    pub sp: u16,
    /// A low-stack fault: the frame is on TOOLHELP's stack.
    pub low: bool,
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

/// The stop that ends the run. A fault is marked handled to its end, so
/// that the machine, which may offer it again on its way out of a nested
/// emulation, does not dispatch it twice.
pub fn final_stop(env: &mut Env, stop: Stop) -> Stop {
    if let Stop::Fault(f) = &stop {
        env.win16.toolhelp.declined = Some((f.cs, f.ip, f.number));
    }
    stop
}

/// A fault that ends the run: recorded as unhandled (fault_record.rs)
/// with the words that say why.
fn final_fault(env: &mut Env, f: Fault) -> Stop {
    if let Some(r) = env.win16.toolhelp.faults.records.last_mut() {
        if (r.fault.cs, r.fault.ip, r.fault.number, r.fault.regs) == (f.cs, f.ip, f.number, f.regs)
        {
            r.outcome = super::fault_record::Outcome::Unhandled;
            r.fault.detail = f.detail.clone();
        }
    }
    final_stop(env, Stop::Fault(f))
}

/// TOOLHELP's own stack segment (allocated on first use).
pub fn toolhelp_stack(env: &mut Env, uc: &mut Uc<'_>) -> Result<u16, Stop> {
    fault_stack(env, uc)
}

fn fault_stack(env: &mut Env, uc: &mut Uc<'_>) -> Result<u16, Stop> {
    if let Some(sel) = env.win16.toolhelp.fault_stack {
        return Ok(sel);
    }
    let sel = crate::machine::alloc_seg(uc, SegKind::Data, u32::from(FAULT_STACK_SIZE), &[])
        .map_err(host)?;
    env.win16.toolhelp.fault_stack = Some(sel);
    Ok(sel)
}

/// Push `words` below `ss:top`; false when the stack cannot hold them.
fn push_words(uc: &mut Uc<'_>, ss: u16, top: u16, words: &[u16]) -> Option<u16> {
    let mut sp = top;
    for &w in words {
        sp = sp.checked_sub(2)?;
        uc.write_u16_at(ss, sp, w).ok()?;
    }
    Some(sp)
}

/// Offer a fault in a Win16 task to the InterruptRegister callbacks: true
/// when one was entered (or when the task was ended and another runs), an
/// error when the fault ends the run.
pub fn offer(env: &mut Env, uc: &mut Uc<'_>, f: &Fault) -> Result<bool, Stop> {
    if env.win16.toolhelp.declined.take() == Some((f.cs, f.ip, f.number)) {
        // Already handled to the end: the run ends with it.
        return Ok(false);
    }
    // What a report of the fault says, taken now (fault_record.rs).
    super::fault_record::record(env, uc, f);
    if env.win16.toolhelp.notifying {
        return Err(final_fault(
            env,
            Fault {
                detail: format!(
                    "{} (inside a NotifyRegister callback told of a task's end)",
                    f.detail
                ),
                ..f.clone()
            },
        ));
    }
    let regs = f.regs;
    let mut repeats = 0;
    if let Some(d) = env.win16.toolhelp.dispatch.take() {
        // Still inside a callback: below its frame on the same stack, and
        // the callback's return address into TOOLHELP still in place.
        let ret = uc.read_u16_at(d.ss, d.sp.wrapping_sub(if d.low { 20 } else { 16 }));
        let inside = regs.ss == d.ss
            && regs.sp < d.sp.wrapping_sub(if d.low { 20 } else { 16 })
            && ret == Ok(FAULT_PASS_ON);
        if inside {
            let detail = format!(
                "{} (inside the InterruptRegister callback handling {} at {:04X}:{:04X})",
                f.detail,
                crate::machine::fault_name(d.fault.number),
                d.fault.cs,
                d.fault.ip
            );
            return Err(final_fault(
                env,
                Fault {
                    detail,
                    ..f.clone()
                },
            ));
        }
        if (d.fault.cs, d.fault.ip, d.fault.number) == (f.cs, f.ip, f.number) {
            repeats = d.repeats + 1;
            if repeats >= MAX_REPEATS {
                let detail = format!(
                    "{} (an InterruptRegister callback resumed into this fault {repeats} times)",
                    f.detail
                );
                return Err(final_fault(
                    env,
                    Fault {
                        detail,
                        ..f.clone()
                    },
                ));
            }
        }
    }
    let (Some(intno), Some(th_cs)) = (toolhelp_number(f.number), toolhelp_cs(env)) else {
        return default_action(env, uc, f);
    };
    if env.win16.toolhelp.interrupt.is_empty() {
        return default_action(env, uc, f);
    }
    // A trap (INT 3) reports the address after the instruction, as the CPU
    // pushes it; the other faults the faulting instruction's own.
    let frame_ip = if f.number == 3 {
        let bytes = crate::machine::insn_bytes(uc, regs.cs, f.ip);
        f.ip.wrapping_add(if bytes.first() == Some(&0xCC) { 1 } else { 2 })
    } else {
        f.ip
    };
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
    // The frame, below SP at the fault; on TOOLHELP's stack, with the
    // faulting SS:SP, when that stack faulted or cannot hold it.
    let words = [regs.flags, regs.cs, frame_ip, 0, intno];
    let on_task = if f.number == 12 {
        None
    } else {
        push_words(uc, regs.ss, regs.sp, &words).map(|sp| (regs.ss, regs.sp, sp))
    };
    let (ss, top, sp, low) = match on_task {
        Some((ss, top, sp)) => (ss, top, sp, false),
        None => {
            let ss = fault_stack(env, uc)?;
            let top = FAULT_STACK_SIZE;
            let low_words = [
                regs.ss,
                regs.sp,
                regs.flags,
                regs.cs,
                frame_ip,
                0,
                intno | LOW_STACK,
            ];
            let sp = push_words(uc, ss, top, &low_words)
                .ok_or_else(|| Stop::Error("TOOLHELP's fault stack is unwritable".into()))?;
            (ss, top, sp, true)
        }
    };
    // The pass-on address holds `int F0h`.
    if !write_code(uc, th_cs, FAULT_PASS_ON, &[0xCD, super::API_INT, 0xF4]) {
        return default_action(env, uc, f);
    }
    // The context of the fault, on the frame's stack; enter_next then
    // points CS:IP and AX at the first callback.
    uc.set_regs(&crate::machine::Regs { ss, sp, ..regs })
        .map_err(host)?;
    let d = Dispatch {
        fault: f.clone(),
        chain,
        next: 0,
        ss,
        sp: top,
        low,
        repeats,
    };
    record_event(
        uc,
        format!(
            "fault {} at {:04X}:{:04X} offered to InterruptRegister callbacks{}",
            f.number,
            f.cs,
            f.ip,
            if low {
                " (a low-stack fault, on TOOLHELP's stack)"
            } else {
                ""
            }
        ),
    );
    enter_next(env, uc, d, th_cs)
}

/// The default action for a fault nobody handled (module doc): record it
/// as Windows 3.1 reported it, tell the NotifyRegister callbacks, and end
/// the task. True when another task runs on; otherwise the stop that ends
/// the run.
pub fn default_action(env: &mut Env, uc: &mut Uc<'_>, f: &Fault) -> Result<bool, Stop> {
    let htask = uc.get_data().current_task;
    if f.number == 13 {
        // KERNEL's own GP-fault handling: a handler the module's C runtime
        // declared for the faulting address (HasGPHandler) gets the fault,
        // entered with the faulting context.
        if let Some(h) =
            super::kernel::error::gp_handler(env, uc, (u32::from(f.cs) << 16) | u32::from(f.ip))
        {
            record_event(
                uc,
                format!(
                    "fault 13 at {:04X}:{:04X} goes to the module's GP handler {:04X}:{:04X}",
                    f.cs,
                    f.ip,
                    h >> 16,
                    h & 0xFFFF
                ),
            );
            let regs = crate::machine::Regs {
                cs: (h >> 16) as u16,
                ip: h as u16,
                ..f.regs
            };
            uc.set_regs(&regs).map_err(host)?;
            super::fault_record::set_outcome(env, f, super::fault_record::Outcome::GpHandler);
            return Ok(true);
        }
    }
    super::fault_record::set_outcome(env, f, super::fault_record::Outcome::Unhandled);
    record_event(
        uc,
        format!(
            "Unrecoverable Application Error: fault {} at {:04X}:{:04X}, no callback handled it",
            f.number, f.cs, f.ip
        ),
    );
    // Back to the faulting context: the walk starts there, and a
    // notification runs on that stack.
    uc.set_regs(&f.regs).map_err(host)?;
    let walk = walk_from_csip(uc, f.regs.ss, f.cs, f.ip, f.regs.bp, MAX_FRAMES);
    let text = crate::machine::exception::instruction(uc, f.cs, f.ip)
        .map(|(_, t)| t)
        .unwrap_or_default();
    let w = &env.win16;
    let record = Unhandled {
        htask,
        module: super::scheduler::task_name(env, htask),
        fault: f.clone(),
        application_error: super::drwatson::application_error(w, uc, htask, f),
        drwatson: super::drwatson::report(w, uc, htask, f, &text, &walk, &|i, e| {
            env.frame_symbol(uc, e.w_cs, e.w_ip, i == 0)
                .map(|s| s.to_string())
        }),
        walk,
    };
    if let Some(line) = &record.application_error {
        // Windows 3.1 showed the line in its Application Error box.
        crate::win16::user::msgbox::system_box(env, htask, "Application Error", line.clone());
    }
    env.win16.toolhelp.unhandled.push(record);
    let own_stack = f.number == 12 || f.regs.sp < 0x100;
    // end_task marks a fault that ends the run (final_stop).
    super::scheduler::end_task(env, uc, FAULT_EXIT_CODE, Some(f.clone()), own_stack).map(|()| true)
}

/// Tell the NotifyRegister callbacks `id` with `data`, on TOOLHELP's
/// stack when `own_stack` (through KERNEL's hook: kernel/notify.rs,
/// toolhelp_notify.rs). A fault inside one ends
/// the run ([`offer`]).
pub fn notify(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: u16,
    data: u32,
    own_stack: bool,
) -> Result<(), Stop> {
    super::kernel::notify::send(env, uc, id, data, None, own_stack).map(|_| ())
}

/// Enter the next callback of `d` (SP at the frame's AX word), or take the
/// default action after the last.
fn enter_next(env: &mut Env, uc: &mut Uc<'_>, mut d: Dispatch, th_cs: u16) -> Result<bool, Stop> {
    let Some(&(target, ds)) = d.chain.get(d.next) else {
        return default_action(env, uc, &d.fault);
    };
    d.next += 1;
    let ss = d.ss;
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
    crate::machine::note_call(
        uc,
        ((target >> 16) as u16, target as u16),
        (th_cs, FAULT_PASS_ON),
    );
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
