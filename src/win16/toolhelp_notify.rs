//! TOOLHELP's notifications: what NotifyRegister's callbacks are told of
//! the events KERNEL sends (Windows 3.1 SDK, "NotifyRegister" and
//! TOOLHELP.H; KB Q99671 for the order). KERNEL owns the events and sends
//! each through the one procedure a debugging DLL installed in it
//! (kernel/notify.rs, KERNEL.341 ToolHelpHook); NotifyRegister installs
//! TOOLHELP's ([`HOOK`]: [`wants`] and [`deliver`]), which calls the
//! registered callbacks.
//!
//! A callback is `BOOL FAR PASCAL Callback(WORD wID, DWORD dwData)`, entered
//! with AX = DS = the registering task's DGROUP (as a MakeProcInstance thunk
//! would load it), on the stack of the task in whose context the event
//! happens. Callbacks are called in the order the tasks registered them
//! (KB Q99671); a callback that returns nonzero has handled the
//! notification and the ones after it are not called. The events and
//! their dwData:
//!
//! | wID | when | dwData |
//! |-----|------|--------|
//! | NFY_STARTDLL 3 | a DLL's LibEntry is about to run (kernel/library.rs) | far pointer to NFYSTARTDLL |
//! | NFY_STARTTASK 4 | a task is about to run its first instruction, in its own context (scheduler.rs) | CS:IP of its start |
//! | NFY_EXITTASK 5 | a task ends, in its context (scheduler.rs `end_task`) | low byte: the exit code |
//! | NFY_DELMODULE 6 | a module leaves memory (`Win16::remove_module`'s callers) | low word: hModule |
//! | NFY_RIP 7 | FatalExit (only with NF_RIP) | far pointer to NFYRIP |
//! | NFY_TASKIN 8 | a task was switched in, in its context (only with NF_TASKSWITCH) | 0 |
//! | NFY_TASKOUT 9 | a task is about to be switched out, in its context (only with NF_TASKSWITCH) | 0 |
//! | NFY_OUTSTR 11 | OutputDebugString (only with NF_RIP) | far pointer to the string |
//! | NFY_LOGERROR 12 | LogError | far pointer to NFYLOGERROR |
//! | NFY_LOGPARAMERROR 13 | LogParamError | far pointer to NFYLOGPARAMERROR |
//!
//! The structures lie on the stack the callback runs on, below its frame,
//! as TOOLHELP built them on its own. Not sent: NFY_LOADSEG and NFY_FREESEG
//! (every segment is loaded with its module and never discarded, so no
//! segment is loaded or freed on its own), NFY_INCHAR (only the debugging
//! KERNEL asked for a character, at its RIP prompt; a retail Windows never
//! does).
//!
//! A notification that would be issued while callbacks run (a callback
//! calling OutputDebugString) is not delivered: Windows 3.1 broke its chain
//! there (KB Q99671), and this tool keeps the chain whole by not nesting.

use super::callback::{CallArg, call_far};
use super::kernel::notify::Hook;
pub use super::kernel::notify::{
    NFY_DELMODULE, NFY_EXITTASK, NFY_FREESEG, NFY_INCHAR, NFY_LOADSEG, NFY_LOGERROR,
    NFY_LOGPARAMERROR, NFY_OUTSTR, NFY_RIP, NFY_STARTDLL, NFY_STARTTASK, NFY_TASKIN, NFY_TASKOUT,
    NFY_UNKNOWN,
};
use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

/// NotifyRegister's wFlags: the default notifications only.
pub const NF_NORMAL: u16 = 0;
/// Also NFY_TASKIN and NFY_TASKOUT.
pub const NF_TASKSWITCH: u16 = 1;
/// Also NFY_RIP, and the debug strings (NFY_OUTSTR, NFY_INCHAR): the SDK
/// says NF_NORMAL gets "none of the notifications of task switching,
/// system debugging errors, or debug strings", and debuggers of the time
/// that show OutputDebugString's text registered with NF_NORMAL | NF_RIP.
pub const NF_RIP: u16 = 2;

/// Whether a callback registered with `flags` hears of `id`.
pub fn wanted(flags: u16, id: u16) -> bool {
    match id {
        NFY_TASKIN | NFY_TASKOUT => flags & NF_TASKSWITCH != 0,
        NFY_RIP | NFY_OUTSTR | NFY_INCHAR => flags & NF_RIP != 0,
        _ => true,
    }
}

/// TOOLHELP's thunk segment, when TOOLHELP is loaded.
fn toolhelp_cs(env: &Env) -> Option<u16> {
    env.win16
        .module_by_name("TOOLHELP")
        .and_then(|m| m.segments.first().copied())
}

/// The procedure TOOLHELP installs in KERNEL (kernel/notify.rs) when a
/// task calls NotifyRegister.
pub const HOOK: Hook = Hook {
    wants,
    send: deliver,
};

/// Whether any callback would hear of `id` (so KERNEL can skip building
/// its data).
pub fn wants(env: &Env, id: u16) -> bool {
    !env.win16.toolhelp.notifying
        && env
            .win16
            .toolhelp
            .notify
            .iter()
            .any(|c| wanted(c.flags, id))
}

/// Deliver `id` with `data` to the callbacks that want it (module doc), on
/// TOOLHELP's own stack when `own_stack`, else on the current one. With
/// `scratch`, those bytes are laid on that stack first and dwData is
/// their far address (`data` is then ignored). Returns the value of the
/// callback that handled it (nonzero), or 0. The registers are as before.
pub fn deliver(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: u16,
    data: u32,
    scratch: Option<&[u8]>,
    own_stack: bool,
) -> Result<u32, Stop> {
    if !wants(env, id) {
        return Ok(0);
    }
    let Some(th_cs) = toolhelp_cs(env) else {
        return Ok(0);
    };
    let list: Vec<_> = env
        .win16
        .toolhelp
        .notify
        .iter()
        .filter(|c| wanted(c.flags, id))
        .cloned()
        .collect();
    let saved = uc.regs();
    if own_stack {
        let ss = super::fault::toolhelp_stack(env, uc)?;
        uc.set_reg(R::SS, ss).map_err(host)?;
        uc.set_reg(R::SP, super::fault::FAULT_STACK_SIZE)
            .map_err(host)?;
    }
    env.win16.toolhelp.notifying = true;
    let mut result = Ok(0);
    for cb in list {
        let ds = env.win16.task(cb.htask).map_or(0, |t| t.dgroup);
        let target = ((cb.proc_addr >> 16) as u16, cb.proc_addr as u16);
        let (bytes, arg) = match scratch {
            Some(s) => (s, CallArg::Scratch),
            None => (&[][..], CallArg::L(data)),
        };
        match call_far(env, uc, th_cs, target, ds, bytes, &[CallArg::W(id), arg]) {
            Ok(r) if r.value & 0xFFFF != 0 => {
                result = Ok(r.value & 0xFFFF);
                break;
            }
            Ok(_) => {}
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    env.win16.toolhelp.notifying = false;
    uc.set_regs(&saved).map_err(host)?;
    result
}

/// TerminateApp's UAE_BOX: show the Application Error box.
pub const UAE_BOX: u16 = 0;

/// TerminateApp(NULL or the current task, `flags`) is about to end the
/// current task: a fault an InterruptRegister callback was handling is
/// dispatched no further, and with UAE_BOX its Application Error box is
/// shown (the box Windows' default action would have shown; with no
/// fault being handled there is no fault to name, and none is shown).
pub fn terminating_current(env: &mut Env, uc: &mut Uc<'_>, flags: u16) {
    let Some(d) = env.win16.toolhelp.dispatch.take() else {
        return;
    };
    super::fault_record::set_outcome(env, &d.fault, super::fault_record::Outcome::Terminated);
    if flags & 1 != UAE_BOX {
        return;
    }
    let htask = uc.get_data().current_task;
    if let Some(line) = super::drwatson::application_error(&env.win16, uc, htask, &d.fault) {
        super::user::msgbox::system_box(env, htask, "Application Error", line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_select_the_optional_notifications() {
        for id in [
            NFY_STARTTASK,
            NFY_EXITTASK,
            NFY_STARTDLL,
            NFY_DELMODULE,
            NFY_LOGERROR,
            NFY_LOGPARAMERROR,
        ] {
            assert!(wanted(NF_NORMAL, id));
        }
        assert!(!wanted(NF_NORMAL, NFY_OUTSTR));
        assert!(wanted(NF_RIP, NFY_OUTSTR));
        assert!(!wanted(NF_NORMAL, NFY_TASKIN));
        assert!(!wanted(NF_NORMAL, NFY_TASKOUT));
        assert!(!wanted(NF_NORMAL, NFY_RIP));
        assert!(wanted(NF_TASKSWITCH, NFY_TASKOUT));
        assert!(!wanted(NF_TASKSWITCH, NFY_RIP));
        assert!(wanted(NF_RIP, NFY_RIP));
    }
}
