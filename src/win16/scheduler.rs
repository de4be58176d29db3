//! KERNEL's cooperative scheduler: several Win16 tasks in one machine,
//! switching only where a task gives up the CPU.
//!
//! **Yield points** (win16.md, toolhelp.md StackTraceFirst): Yield and
//! WaitEvent; GetMessage and PeekMessage when the task's queue is empty;
//! MessageBox and DialogBox (their modal loops); WinExec (the new task runs
//! first). A system function runs in Rust inside its thunk's interrupt hook
//! (`int F0h; retf N`); to switch, it calls [`yield_now`], which
//!
//! 1. saves the task's registers on the host, resuming either after the
//!    call (CS:IP at the thunk's `retf N`, DX:AX = the result) or at the
//!    call itself (GetMessage looks at its queue again);
//! 2. pushes on the task's own stack what KERNEL leaves there: the system
//!    function's far frame (`inc bp; push bp; mov bp,sp`, the caller's BP
//!    made odd) below the far return into the program, then the switch frame
//!    of toolhelp.md, StackTraceFirst step 3 (DX BX ES CX AX DI SI DS, odd
//!    BP, IP, CS — a far return into the system function's thunk) — and
//!    stores that SS:SP at TDB+02/+04, so StackTraceFirst on the task walks
//!    through the switch frame, the system function's frame, and into the
//!    task's own nested calls;
//! 3. loads the next task's registers in place, inside the same hook: the
//!    emulation simply continues in the other task.
//!
//! A task created and not yet run carries the same switch frame with BP = 0
//! and DS = 0 (win16.md, "The task database"), so StackTraceFirst reports
//! no stack for it.
//!
//! **Which task runs next.** Tasks are taken round-robin in creation order,
//! starting after the current one: a task that yielded (or never ran), or a
//! task waiting for messages whose queue now holds one. When none is, the
//! yielding task goes on (GetMessage then falls back on the default
//! headless session, see user/message.rs).
//!
//! **Callbacks and switching.** A call back into the program
//! ([`super::callback::call_far`]) nests an emulation on the host stack, and
//! the nested run belongs to the task that made it: it ends when that
//! task's callback returns. So a task suspended inside one of its own
//! callbacks can be resumed only in that same innermost run; a task that
//! holds no nested run (it yielded from its top level, or never ran) can be
//! resumed anywhere. Tasks that cannot be resumed where the CPU is given up
//! are simply not candidates until the host stack unwinds to them.
//!
//! **Running as another task** ([`run_as`]). A message sent to a window of
//! another task, and a DDEML transaction with another task's instance,
//! run in the receiving task, as Windows 3.1 processed them inside the
//! receiver's message retrieval: the sender blocks (its switch frame is
//! written and its SS:SP stored in its TDB, so a walk of it shows where it
//! waits, and it is no candidate to run), the receiver becomes the current
//! task (GetCurrentTask, its PSP) and the callback runs on the receiver's
//! own stack, below the switch frame it waits behind (in the scheduler, or
//! blocked in a send of its own), with its own data segment; then the
//! sender goes on with the result. While the receiver runs it may yield
//! like any task; the sender stays blocked until the receiver returns or
//! replies.
//!
//! **Replying** ([`reply`], USER's ReplyMessage). In Windows 3.1 the
//! receiver of a message another task sent may answer before its window
//! procedure returns: the sender gets the value and runs at once
//! (ReplyMessage yields to it), the receiver finishes its procedure when
//! its turn comes again. The call into the receiver is nested on the host
//! stack above the sender's system function, which cannot return before
//! the receiver does; but a program's own SendMessage has nothing left to
//! do after the call except return its result ([`run_as_replyable`]). So
//! at the reply the sender leaves the blocked tasks and becomes a
//! suspended one like any other, resuming after its call with DX:AX = the
//! reply, and the replying task switches to it (as DirectedYield would)
//! when it can run in the receiver's emulation — it holds no nested
//! emulation of its own, see "Callbacks and switching"; a sender that
//! does waits until the host unwinds to it. The sender then runs inside
//! the receiver's nested emulation, as any task resumed there does, and
//! may yield back to the receiver. When the receiver's procedure returns
//! at last, the host unwinds to the sender's old call, whose registers
//! are not the sender's any more: the receiver goes back to where it
//! waited, and that call ends as a task switch (to the sender if it has
//! not run since its reply, else to the receiver if it can go on, else to
//! the next task) instead of a return. Calls made by a system function
//! with work left after them (USER's own sends, DDEML transactions) are
//! not replyable: their sender stays blocked until the receiver returns.
//!
//! **Ending.** When a task ends (INT 21h AH=4Ch), it leaves the task list,
//! its windows, queue and DDEML instances go, its TDB loses the 'TD'
//! signature, and the next task runs. The run ends when the last task ends, with the exit code of
//! the first task loaded. A task that ends inside a call from another task
//! (a sent message, a DDEML callback: "Running as another task") unwinds
//! to that call, which returns 0 to the waiting caller, unless it holds
//! callbacks of its own below that call. A task that ends inside its own
//! callback otherwise ends the whole run (its host frames cannot be
//! unwound).

use std::collections::BTreeMap;

use super::api::{Api, Arg};
use super::tdb::{SwitchFrame, off};
use crate::dos::host;
use crate::machine::{Cpu, Regs, Stop, Uc, record_event};
use crate::win16::Env;

/// The KERNEL functions that schedule.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 29, "YIELD", &[], yield_),
    Api::new("KERNEL", 30, "WAITEVENT", &[Arg::W], wait_event),
    Api::new("KERNEL", 31, "POSTEVENT", &[Arg::W], post_event),
    Api::new("KERNEL", 117, "OLDYIELD", &[], yield_),
    Api::new("KERNEL", 150, "DIRECTEDYIELD", &[Arg::W], directed_yield),
    Api::new("KERNEL", 166, "WINEXEC", &[Arg::L, Arg::W], win_exec),
];

/// Why a task that is not running waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// It yielded (Yield, WaitEvent, MessageBox, DialogBox, WinExec) or has
    /// never run: it runs when its turn comes.
    Ready,
    /// GetMessage or PeekMessage found its queue empty: it runs again when
    /// a message arrives for it, or when no other task can run.
    Input,
    /// It has no input and the session has none left for it: it runs again
    /// only when a message arrives, or as the last resort.
    Stuck,
}

/// Where a suspended task resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// After the system function's call, which returns this DX:AX.
    After(u32),
    /// At the call itself: the function runs again (GetMessage).
    Retry,
}

/// A task that is not running.
#[derive(Debug, Clone)]
pub struct Suspended {
    /// The registers it resumes with.
    pub regs: Regs,
    /// The nesting depth of the emulation it was suspended in.
    pub level: u32,
    pub wait: Wait,
    /// It has never run (TOOLHELP's NFY_STARTTASK is due when it does).
    pub fresh: bool,
}

/// A task that ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskExit {
    pub htask: u16,
    pub module: String,
    pub code: u8,
    /// The unhandled fault that ended it (fault.rs, the default action).
    pub fault: Option<crate::machine::Fault>,
}

/// The scheduler's state.
#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    /// Every task that is not running, by hTask.
    pub suspended: BTreeMap<u16, Suspended>,
    /// The task each nested emulation belongs to, innermost last.
    pub level_owner: Vec<u16>,
    /// Set when a system function switched tasks: the registers are now
    /// the other task's, and the function's result must not be written.
    pub switched: bool,
    /// Tasks that ended, in order.
    pub exits: Vec<TaskExit>,
    /// The first task loaded: its exit code is the run's.
    pub first: Option<u16>,
    /// Task switches so far.
    pub switches: u64,
    /// The event of the switch a system function just made.
    pub switch_event: Option<String>,
    /// Tasks blocked until another task answers them (a message sent to
    /// a window of that task, a DDEML transaction): their registers at the
    /// call. They are not candidates to run; [`run_as`] finds their stack.
    pub blocked: BTreeMap<u16, Regs>,
    /// The calls into other tasks in progress ([`run_as`]), innermost
    /// last.
    pub calls: Vec<Call>,
    /// A task that ended inside a call into it: the host unwinds to that
    /// call ([`run_as`]), which returns 0 to the task that called.
    pub unwinding: Option<u16>,
}

/// A call into another task in progress ([`run_as`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// The task that called, blocked until the call returns or replies.
    pub sender: u16,
    /// The task the call runs in.
    pub receiver: u16,
    /// The number of nested emulations when it was called.
    pub levels: usize,
    /// The emulation depth the sender called from.
    pub depth: u32,
    /// The sender's call is a program's own call of a system function
    /// whose result is all that remains to do (SendMessage): a reply
    /// before the callee returns can let the sender go on ([`reply`]).
    pub replyable: bool,
    /// The sender got its reply and went on (module doc, "Replying").
    pub replied: bool,
}

impl Scheduler {
    /// Does `htask` own a nested emulation (is it inside one of its
    /// callbacks)?
    fn holds_levels(&self, htask: u16) -> bool {
        self.level_owner.contains(&htask)
    }

    /// Can suspended task `htask` be resumed in an emulation nested
    /// `depth` deep?
    fn resumable(&self, htask: u16, s: &Suspended, depth: u32) -> bool {
        !self.holds_levels(htask) || (s.level == depth && self.level_owner.last() == Some(&htask))
    }
}

/// The next task to run after `current`, round-robin in creation order:
/// one that is ready or has input; with `last_resort`, then any task that
/// is not stuck, then any at all.
fn pick(env: &Env, current: u16, depth: u32, last_resort: bool) -> Option<u16> {
    let s = &env.win16.scheduler;
    let order: Vec<u16> = env.win16.tasks.iter().map(|t| t.htask).collect();
    let start = order
        .iter()
        .position(|&h| h == current)
        .map_or(0, |i| i + 1);
    let rotated: Vec<u16> = order[start.min(order.len())..]
        .iter()
        .chain(&order[..start.min(order.len())])
        .copied()
        .filter(|&h| h != current)
        .filter(|h| {
            s.suspended
                .get(h)
                .is_some_and(|st| s.resumable(*h, st, depth))
        })
        .collect();
    let wait = |h: &u16| s.suspended[h].wait;
    let signals = super::kernel::signal::signals();
    let ready = |h: &&u16| wait(h) == Wait::Ready || (signals.has_input)(env, **h);
    if let Some(&h) = rotated.iter().find(ready) {
        return Some(h);
    }
    if !last_resort {
        return None;
    }
    rotated
        .iter()
        .find(|h| wait(h) != Wait::Stuck)
        .or(rotated.first())
        .copied()
}

/// The module name of a task (its handle in hex when it has none), for
/// events and records.
pub fn task_name(env: &Env, htask: u16) -> String {
    let w = &env.win16;
    w.task(htask)
        .and_then(|t| w.module_by_handle(t.hmodule))
        .map_or_else(|| format!("{htask:04X}"), |m| m.name.clone())
}

/// Write the frames KERNEL leaves on a task's stack when it switches away
/// (module doc, step 2) and store SS:SP in its TDB. `regs` are the task's
/// registers at the call: SS:SP at the far return into the program, CS:IP
/// after the thunk's `int F0h`.
fn push_switch_frame(uc: &mut Uc<'_>, htask: u16, regs: &Regs) -> Result<(), Stop> {
    let ss = regs.ss;
    let api_bp = regs.sp.wrapping_sub(2);
    let frame_sp = api_bp.wrapping_sub(SwitchFrame::SIZE);
    let frame = SwitchFrame {
        dx: regs.dx,
        bx: regs.bx,
        es: regs.es,
        cx: regs.cx,
        ax: regs.ax,
        di: regs.di,
        si: regs.si,
        ds: regs.ds,
        bp: api_bp | 1,
        ip: regs.ip.wrapping_sub(2),
        cs: regs.cs,
    };
    let no_room = |e: crate::walk::MemError| {
        Stop::Error(format!(
            "task {htask:04X}: no room on the stack {ss:04X}:{:04X} for the scheduler's frame: {e}",
            regs.sp
        ))
    };
    uc.write_u16_at(ss, api_bp, regs.bp | 1).map_err(no_room)?;
    uc.write_seg(ss, frame_sp, &frame.to_bytes())
        .map_err(no_room)?;
    store_saved_stack(uc, htask, ss, frame_sp)
}

fn store_saved_stack(uc: &mut Uc<'_>, htask: u16, ss: u16, sp: u16) -> Result<(), Stop> {
    uc.write_u16_at(htask, off::SP, sp)
        .and_then(|_| uc.write_u16_at(htask, off::SS, ss))
        .map_err(|e| Stop::Error(format!("TDB {htask:04X}: {e}")))
}

/// Enter a task created by the loader as ready to run, not yet run: the
/// switch frame with BP = 0 and DS = 0 below its initial SP (a far return
/// to its entry point), SS:SP in its TDB, one pending event (so the
/// start-up WaitEvent returns at once), and `start` as the registers it
/// begins with.
pub fn add_new_task(env: &mut Env, uc: &mut Uc<'_>, htask: u16, start: Regs) -> Result<(), Stop> {
    let frame = SwitchFrame {
        ip: start.ip,
        cs: start.cs,
        ..SwitchFrame::default()
    };
    let sp = start.sp.wrapping_sub(SwitchFrame::SIZE);
    uc.write_seg(start.ss, sp, &frame.to_bytes())
        .map_err(|e| Stop::Error(format!("task {htask:04X}: its first frame: {e}")))?;
    store_saved_stack(uc, htask, start.ss, sp)?;
    uc.write_u16_at(htask, off::EVENTS, 1)
        .map_err(|e| Stop::Error(format!("TDB {htask:04X}: {e}")))?;
    let s = &mut env.win16.scheduler;
    s.first.get_or_insert(htask);
    s.suspended.insert(
        htask,
        Suspended {
            regs: start,
            level: uc.get_data().depth,
            wait: Wait::Ready,
            fresh: true,
        },
    );
    Ok(())
}

/// Make suspended task `htask` the running one: its registers, hTask and
/// PSP; then TOOLHELP's NFY_TASKIN (and NFY_STARTTASK for a task that
/// never ran) in its context.
pub fn resume(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<(), Stop> {
    let Some(s) = env.win16.scheduler.suspended.remove(&htask) else {
        return Err(Stop::Error(format!("task {htask:04X} is not suspended")));
    };
    uc.set_regs(&s.regs).map_err(host)?;
    uc.get_data_mut().current_task = htask;
    if let Some(t) = env.win16.task(htask) {
        env.dos.psp = t.psp;
    }
    super::kernel::notify::switched_in(env, uc, s.fresh)
}

/// Give up the CPU from inside a system function of the current task, if
/// another task can run: true when it switched (the registers are now the
/// other task's; the caller returns without touching them). `resume` says
/// where this task goes on when its turn comes back.
pub fn yield_now(
    env: &mut Env,
    uc: &mut Uc<'_>,
    wait: Wait,
    resume_at: Resume,
) -> Result<bool, Stop> {
    let current = uc.get_data().current_task;
    let depth = uc.get_data().depth;
    let Some(next) = pick(env, current, depth, false) else {
        return Ok(false);
    };
    switch_to(env, uc, current, next, wait, resume_at)?;
    Ok(true)
}

/// Like [`yield_now`] for a task that has nothing left to do but wait
/// (GetMessage with no input and no default-session message): switches to
/// any other task that can run, preferring ready ones. False when there is
/// none.
pub fn yield_stuck(env: &mut Env, uc: &mut Uc<'_>) -> Result<bool, Stop> {
    let current = uc.get_data().current_task;
    let depth = uc.get_data().depth;
    let signals = super::kernel::signal::signals();
    let others_alive = pick(env, current, depth, true).filter(|h| {
        env.win16.scheduler.suspended[h].wait != Wait::Stuck || (signals.has_input)(env, *h)
    });
    let Some(next) = others_alive else {
        return Ok(false);
    };
    switch_to(env, uc, current, next, Wait::Stuck, Resume::Retry)?;
    Ok(true)
}

fn switch_to(
    env: &mut Env,
    uc: &mut Uc<'_>,
    current: u16,
    next: u16,
    wait: Wait,
    resume_at: Resume,
) -> Result<(), Stop> {
    super::kernel::notify::task_out(env, uc)?;
    let mut regs = uc.regs();
    push_switch_frame(uc, current, &regs)?;
    match resume_at {
        Resume::After(v) => {
            regs.ax = v as u16;
            regs.dx = (v >> 16) as u16;
        }
        Resume::Retry => regs.ip = regs.ip.wrapping_sub(2),
    }
    let level = uc.get_data().depth;
    env.win16.scheduler.suspended.insert(
        current,
        Suspended {
            regs,
            level,
            wait,
            fresh: false,
        },
    );
    let text = format!(
        "task switch {current:04X} {} -> {next:04X} {}",
        task_name(env, current),
        task_name(env, next)
    );
    resume(env, uc, next)?;
    let s = &mut env.win16.scheduler;
    s.switched = true;
    s.switches += 1;
    // Recorded by call_api after the call that gave up the CPU.
    s.switch_event = Some(text);
    Ok(())
}

/// Run `f` as task `receiver` (module doc, "Running as another task"):
/// the current task blocks, `receiver` becomes the current task with SS:SP
/// and BP on its own stack below where it waits, and `f` makes the call
/// (its callback gets the receiver's DS from the caller). The sender's
/// registers come back afterwards. A stop inside (a fault, a breakpoint)
/// leaves the machine as it is, in the receiver, for the report. Runs `f`
/// in place for the current task or a task that is not there.
pub fn run_as<T: Default>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    receiver: u16,
    f: impl FnOnce(&mut Env, &mut Uc<'_>) -> Result<T, Stop>,
) -> Result<T, Stop> {
    run_as_call(env, uc, receiver, false, f)
}

/// [`run_as`] for a system function the program called whose only work
/// left after the call is to return its result (SendMessage): the
/// receiver may [`reply`] before it returns, and the sender then goes on
/// with the replied value while the receiver is still inside the call
/// (module doc, "Replying"). When it did, the value `f` returns is not
/// the sender's any more: the caller gets `T::default()` and the
/// scheduler has already switched (the system function's result is not
/// written).
pub fn run_as_replyable<T: Default>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    receiver: u16,
    f: impl FnOnce(&mut Env, &mut Uc<'_>) -> Result<T, Stop>,
) -> Result<T, Stop> {
    run_as_call(env, uc, receiver, true, f)
}

fn run_as_call<T: Default>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    receiver: u16,
    replyable: bool,
    f: impl FnOnce(&mut Env, &mut Uc<'_>) -> Result<T, Stop>,
) -> Result<T, Stop> {
    let sender = uc.get_data().current_task;
    if receiver == sender || receiver == 0 || env.win16.task(receiver).is_none() {
        return f(env, uc);
    }
    let saved = uc.regs();
    let saved_psp = env.dos.psp;
    // The sender waits: a walk of it starts at its switch frame.
    push_switch_frame(uc, sender, &saved)?;
    env.win16.scheduler.blocked.insert(sender, saved);
    // The receiver is running now: not a candidate for the scheduler.
    let waiting = env.win16.scheduler.suspended.remove(&receiver);
    let ss = uc.read_u16_at(receiver, off::SS).unwrap_or(saved.ss);
    let sp = uc.read_u16_at(receiver, off::SP).unwrap_or(saved.sp);
    if waiting.is_some() || env.win16.scheduler.blocked.contains_key(&receiver) {
        // Its stack where it waits: SS:SP in its TDB at the switch frame
        // (tdb.rs, SwitchFrame: ..., the odd BP of the system function it
        // waits in, and the far return into that function's thunk). Below
        // goes a copy of that return address, and BP is that function's
        // frame: the frame a callback pushes links through the thunk into
        // the receiver's own frames.
        let word = |uc: &Uc<'_>, o: u16| uc.read_u16_at(ss, sp.wrapping_add(o)).unwrap_or(0);
        let (es, ds) = (word(uc, 4), word(uc, 14));
        let (bp, ip, cs) = (word(uc, 16), word(uc, 18), word(uc, 20));
        let below = sp.wrapping_sub(4);
        let mut ret = [0u8; 4];
        ret[0..2].copy_from_slice(&ip.to_le_bytes());
        ret[2..4].copy_from_slice(&cs.to_le_bytes());
        uc.write_seg(ss, below, &ret).map_err(|e| {
            Stop::Error(format!(
                "task {receiver:04X}: no room on its stack for a call from task {sender:04X}: {e}"
            ))
        })?;
        let mut regs = saved;
        regs.ss = ss;
        regs.sp = below;
        regs.bp = bp & !1;
        // Its own segments too: the registers the call comes back to
        // must not name the sender's, which may be gone by then (it ended
        // after a reply, "Replying").
        regs.ds = ds;
        regs.es = es;
        uc.set_regs(&regs).map_err(host)?;
    }
    uc.get_data_mut().current_task = receiver;
    if let Some(t) = env.win16.task(receiver) {
        env.dos.psp = t.psp;
    }
    env.win16.scheduler.switches += 1;
    record_event(
        uc,
        format!(
            "task {sender:04X} {} calls into task {receiver:04X} {}",
            task_name(env, sender),
            task_name(env, receiver)
        ),
    );
    let levels = env.win16.scheduler.level_owner.len();
    let depth = uc.get_data().depth;
    env.win16.scheduler.calls.push(Call {
        sender,
        receiver,
        levels,
        depth,
        replyable,
        replied: false,
    });
    let r = f(env, uc);
    let replied = env.win16.scheduler.calls.pop().is_some_and(|c| c.replied);
    let r = match r {
        Ok(r) => r,
        Err(_) if env.win16.scheduler.unwinding == Some(receiver) => {
            // The receiver ended (exited, or an unhandled fault) inside
            // the call: the caller goes on with 0, as a SendMessage to a
            // task that dies returns.
            env.win16.scheduler.unwinding = None;
            (super::kernel::signal::signals().send_abandoned)(env, receiver);
            if replied {
                // The sender went on already, with its reply.
                after_replied_call(env, uc, sender, receiver)?;
                return Ok(T::default());
            }
            env.win16.scheduler.blocked.remove(&sender);
            uc.get_data_mut().current_task = sender;
            env.dos.psp = saved_psp;
            uc.set_regs(&saved).map_err(host)?;
            record_event(
                uc,
                format!("task {sender:04X} goes on: task {receiver:04X} ended while it waited"),
            );
            return Ok(T::default());
        }
        Err(e) => return Err(e),
    };
    // The receiver waits where it waited before.
    let s = &mut env.win16.scheduler;
    if let Some(w) = waiting {
        s.suspended.insert(receiver, w);
    }
    let _ = store_saved_stack(uc, receiver, ss, sp);
    if replied {
        after_replied_call(env, uc, sender, receiver)?;
        return Ok(T::default());
    }
    env.win16.scheduler.blocked.remove(&sender);
    uc.get_data_mut().current_task = sender;
    env.dos.psp = saved_psp;
    uc.set_regs(&saved).map_err(host)?;
    Ok(r)
}

/// USER's ReplyMessage for the current task (module doc, "Replying"):
/// the innermost call into it from `sender` that the sender made as a
/// replyable call ([`run_as_replyable`]) and that has no reply yet gets
/// `value`. The sender is no longer blocked: it resumes after its call
/// with DX:AX = `value`, and, as ReplyMessage yielded to the sender in
/// Windows 3.1, it runs at once when it can run here. True when the
/// sender was released (the caller then owes it nothing more).
pub fn reply(env: &mut Env, uc: &mut Uc<'_>, sender: u16, value: u32) -> Result<bool, Stop> {
    let current = uc.get_data().current_task;
    let s = &mut env.win16.scheduler;
    let Some(call) = s
        .calls
        .iter_mut()
        .rev()
        .find(|c| c.receiver == current && c.sender == sender)
    else {
        return Ok(false);
    };
    if !call.replyable || call.replied {
        return Ok(false);
    }
    let Some(mut regs) = s.blocked.remove(&sender) else {
        return Ok(false);
    };
    call.replied = true;
    let level = call.depth;
    regs.ax = value as u16;
    regs.dx = (value >> 16) as u16;
    s.suspended.insert(
        sender,
        Suspended {
            regs,
            level,
            wait: Wait::Ready,
            fresh: false,
        },
    );
    record_event(
        uc,
        format!(
            "task {sender:04X} {} has its reply {value:08X} from task {current:04X} {} and goes on",
            task_name(env, sender),
            task_name(env, current)
        ),
    );
    // The replying task yields to the sender (DirectedYield), which runs
    // when it can run in this emulation; else when the host unwinds to
    // its call (after_replied_call).
    let depth = uc.get_data().depth;
    let s = &env.win16.scheduler;
    if s.suspended
        .get(&sender)
        .is_some_and(|st| s.resumable(sender, st, depth))
    {
        switch_to(env, uc, current, sender, Wait::Ready, Resume::After(0))?;
    }
    Ok(true)
}

/// A call whose sender had its reply ([`reply`]) has returned: the
/// receiver is back where it waited, and the sender went on (or still
/// waits to). The registers are the receiver's, at the end of the call:
/// some task must run now in place of the sender's call — the sender if
/// it has not run since its reply, else the receiver if it can go on
/// (ready, or with input), else the next by [`pick`].
fn after_replied_call(
    env: &mut Env,
    uc: &mut Uc<'_>,
    sender: u16,
    receiver: u16,
) -> Result<(), Stop> {
    let depth = uc.get_data().depth;
    let s = &env.win16.scheduler;
    let signals = super::kernel::signal::signals();
    let runnable = |h: u16| {
        s.suspended
            .get(&h)
            .filter(|st| s.resumable(h, st, depth))
            .is_some_and(|st| st.wait == Wait::Ready || (signals.has_input)(env, h))
    };
    let next = [sender, receiver]
        .into_iter()
        .find(|&h| runnable(h))
        .or_else(|| pick(env, receiver, depth, true))
        .or_else(|| {
            s.suspended
                .get(&receiver)
                .is_some_and(|st| s.resumable(receiver, st, depth))
                .then_some(receiver)
        });
    let Some(next) = next else {
        return Err(Stop::Error(format!(
            "no task can run after task {receiver:04X} returned a call task {sender:04X} had its reply from"
        )));
    };
    let text = format!(
        "task {receiver:04X} {} returns the call task {sender:04X} had its reply from; task {next:04X} {} runs",
        task_name(env, receiver),
        task_name(env, next)
    );
    resume(env, uc, next)?;
    let s = &mut env.win16.scheduler;
    s.switched = true;
    s.switches += 1;
    s.switch_event = Some(text);
    Ok(())
}

/// Take a task off every list: the task list, the scheduler, its windows,
/// queue and timers, its TOOLHELP callbacks; its TDB loses the 'TD'
/// signature (TaskFindHandle and StackTraceFirst then refuse it).
pub fn remove_task(env: &mut Env, uc: &mut Uc<'_>, htask: u16) {
    // USER's SignalProc and the DLLs above KERNEL: its windows and queue,
    // its DDEML instances (their partners hear XTYP_DISCONNECT through
    // their own message loops), its TOOLHELP callbacks (kernel/signal.rs).
    (super::kernel::signal::signals().task_ending)(env, uc, htask);
    let w = &mut env.win16;
    w.tasks.retain(|t| t.htask != htask);
    w.scheduler.suspended.remove(&htask);
    w.scheduler.blocked.remove(&htask);
    let _ = uc.write_u16_at(htask, off::SIGNATURE, 0);
}

/// The current task ended with `code` (INT 21h AH=4Ch): run the next task,
/// or end the run when it was the last (module doc, "Ending").
pub fn exit_current(env: &mut Env, uc: &mut Uc<'_>, code: u8) -> Result<(), Stop> {
    end_task(env, uc, code, None, false)
}

/// The current task ends with `code`, or, with `fault`, because of that
/// unhandled fault (fault.rs, the default action). The NotifyRegister
/// callbacks are told NFY_EXITTASK first (on TOOLHELP's stack when
/// `own_stack`). Then the next task runs, or, after the last, the run ends
/// with the first program's result: its exit code, or the fault that ended
/// it.
pub fn end_task(
    env: &mut Env,
    uc: &mut Uc<'_>,
    code: u8,
    fault: Option<crate::machine::Fault>,
    own_stack: bool,
) -> Result<(), Stop> {
    let current = uc.get_data().current_task;
    let module = task_name(env, current);
    let current_module = env.win16.task(current).map_or(0, |t| t.hmodule);
    record_event(
        uc,
        match &fault {
            None => format!("task {current:04X} {module} exited with {code}"),
            Some(f) => format!(
                "task {current:04X} {module} ended by fault {} at {:04X}:{:04X}",
                f.number, f.cs, f.ip
            ),
        },
    );
    super::kernel::notify::send(
        env,
        uc,
        super::kernel::notify::NFY_EXITTASK,
        u32::from(code),
        None,
        own_stack,
    )?;
    // A self-loading application's ExitProc, when its last instance ends
    // (kernel/selfload.rs).
    super::kernel::selfload::exit_proc(env, uc, current)?;
    let s = &mut env.win16.scheduler;
    s.exits.push(TaskExit {
        htask: current,
        module: module.clone(),
        code,
        fault: fault.clone(),
    });
    // The run's result: the first program's.
    let run_end = |s: &Scheduler| -> Stop {
        let first = s.first.and_then(|f| s.exits.iter().find(|e| e.htask == f));
        match first.or(s.exits.last()) {
            Some(TaskExit { fault: Some(f), .. }) => Stop::Fault(f.clone()),
            Some(e) => Stop::Exited { code: e.code },
            None => Stop::Exited { code },
        }
    };
    // Ended inside a call from another task, holding no nested emulation
    // of its own below that call: unwind to it (run_as).
    let unwind = s.calls.last().is_some_and(|c| {
        c.receiver == current
            && !s.level_owner[..c.levels.min(s.level_owner.len())].contains(&current)
    });
    if unwind {
        remove_task(env, uc, current);
        env.win16.scheduler.unwinding = Some(current);
        return Err(Stop::Error(format!(
            "task {current:04X} {module} ended inside a call from another task"
        )));
    }
    if s.holds_levels(current) || s.suspended.is_empty() {
        let stop = run_end(s);
        return Err((super::kernel::signal::signals().final_stop)(env, stop));
    }
    remove_task(env, uc, current);
    super::kernel::notify::last_instance_ended(env, uc, current_module, own_stack)?;
    let depth = uc.get_data().depth;
    let Some(next) = pick(env, current, depth, true) else {
        let stop = run_end(&env.win16.scheduler);
        return Err((super::kernel::signal::signals().final_stop)(env, stop));
    };
    resume(env, uc, next)?;
    env.win16.scheduler.switches += 1;
    Ok(())
}

// ------------------------------------------------------------ the functions

/// KERNEL.29 Yield (and KERNEL.117 OldYield): let every other ready task
/// run once; returns when this task's turn comes back.
pub fn yield_(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    yield_now(env, uc, Wait::Ready, Resume::After(0))?;
    Ok(0)
}

/// KERNEL.30 WaitEvent(hTask): with an event pending (TDB+06 nEvents > 0,
/// as for the start-up call) take it and return FALSE at once. Otherwise
/// sleep until something arrives for the task — USER posts the task an
/// event with every message — and return TRUE: here, give up the CPU as
/// GetMessage does on an empty queue, or return TRUE at once when no other
/// task can run (nothing could ever wake this one).
pub fn wait_event(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(h) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    let events = uc.read_u16_at(h, off::EVENTS).unwrap_or(0);
    if events > 0 {
        let _ = uc.write_u16_at(h, off::EVENTS, events - 1);
        return Ok(0);
    }
    yield_now(env, uc, Wait::Input, Resume::After(1))?;
    Ok(1)
}

/// KERNEL.31 PostEvent(hTask): one more pending event for the task; a task
/// sleeping in WaitEvent becomes ready.
pub fn post_event(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(h) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    let events = uc.read_u16_at(h, off::EVENTS).unwrap_or(0);
    let _ = uc.write_u16_at(h, off::EVENTS, events.saturating_add(1));
    if let Some(s) = env.win16.scheduler.suspended.get_mut(&h) {
        if s.wait != Wait::Ready {
            s.wait = Wait::Ready;
        }
    }
    Ok(0)
}

/// KERNEL.150 DirectedYield(hTask): run that task next if it can run here,
/// else yield as Yield does.
pub fn directed_yield(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let current = uc.get_data().current_task;
    let depth = uc.get_data().depth;
    let target = a[0] as u16;
    let s = &env.win16.scheduler;
    let runnable = target != current
        && s.suspended
            .get(&target)
            .is_some_and(|st| s.resumable(target, st, depth));
    if runnable {
        switch_to(env, uc, current, target, Wait::Ready, Resume::After(0))?;
    } else {
        yield_now(env, uc, Wait::Ready, Resume::After(0))?;
    }
    Ok(0)
}

/// The largest program file WinExec reads.
const MAX_PROGRAM_FILE: u64 = 16 << 20;

/// WinExec's error codes (below 32).
const ERROR_FILE_NOT_FOUND: u32 = 2;
const ERROR_BAD_FORMAT: u32 = 11;

/// KERNEL.166 WinExec(lpCmdLine, nCmdShow) -> hInstance, or an error code
/// below 32 (2 file not found, 11 not a Windows program). The program is
/// looked up on the run's drive C: (`--dir`), ".EXE" added when the name
/// has no extension; it is loaded as a new task, which runs first: the
/// caller yields, and WinExec returns when its turn comes back. Only Win16
/// programs start this way (a DOS program gets 11).
pub fn win_exec(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = super::farptr::split(a[0]);
    let line = crate::dos::read_until(uc, seg, off, 0, 0x200);
    let line = String::from_utf8_lossy(&line).into_owned();
    exec_line(env, uc, &line, a[1] as u16)
}

/// WinExec's work for a command line (also LoadModule's, kernel/library.rs).
pub fn exec_line(env: &mut Env, uc: &mut Uc<'_>, line: &str, cmd_show: u16) -> Result<u32, Stop> {
    let line = line.trim();
    let (prog, tail) = match line.split_once(char::is_whitespace) {
        Some((p, t)) => (p, format!(" {}", t.trim_start())),
        None => (line, String::new()),
    };
    let mut name = prog.to_string();
    if !name
        .rsplit(['\\', '/', ':'])
        .next()
        .unwrap_or("")
        .contains('.')
    {
        name.push_str(".EXE");
    }
    let failed = |uc: &mut Uc<'_>, code: u32, why: String| {
        record_event(
            uc,
            format!(
                "WinExec {} fails with {code}: {why}",
                crate::escape::quoted(line)
            ),
        );
        Ok(code)
    };
    let host = match env.drive.as_ref().map(|d| d.resolve(name.as_bytes())) {
        Some(Ok(crate::dos::fs::HostPath::File { host, .. })) => host,
        Some(_) => return failed(uc, ERROR_FILE_NOT_FOUND, format!("no file {name}")),
        None => return failed(uc, ERROR_FILE_NOT_FOUND, "the run has no drive".into()),
    };
    let read = env
        .drive
        .as_ref()
        .map(|d| d.read_file(name.as_bytes(), MAX_PROGRAM_FILE));
    let bytes = match read {
        Some(Ok(b)) => b,
        _ => return failed(uc, ERROR_FILE_NOT_FOUND, format!("{name} cannot be read")),
    };
    let ne = match crate::loader::ne::NeImage::parse(&bytes) {
        Ok(ne) => ne,
        Err(e) => return failed(uc, ERROR_BAD_FORMAT, format!("{name}: {e}")),
    };
    let htask = match super::kernel::loader::load_program(uc, env, &ne, &host, &tail, cmd_show) {
        Ok(h) => h,
        Err(e) => return failed(uc, ERROR_BAD_FORMAT, e.0),
    };
    let hinst = env.win16.task(htask).map_or(0, |t| t.hinstance);
    record_event(
        uc,
        format!(
            "WinExec {} starts task {htask:04X} hInstance {hinst:04X}",
            crate::escape::quoted(line)
        ),
    );
    yield_now(env, uc, Wait::Ready, Resume::After(u32::from(hinst)))?;
    Ok(u32::from(hinst))
}
