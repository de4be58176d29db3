//! TOOLHELP's notifications: what NotifyRegister's callbacks are told, and
//! the places in KERNEL that tell them (Windows 3.1 SDK, "NotifyRegister"
//! and TOOLHELP.H; KB Q99671 for the order).
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
use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

pub const NFY_UNKNOWN: u16 = 0;
pub const NFY_LOADSEG: u16 = 1;
pub const NFY_FREESEG: u16 = 2;
pub const NFY_STARTDLL: u16 = 3;
pub const NFY_STARTTASK: u16 = 4;
pub const NFY_EXITTASK: u16 = 5;
pub const NFY_DELMODULE: u16 = 6;
pub const NFY_RIP: u16 = 7;
pub const NFY_TASKIN: u16 = 8;
pub const NFY_TASKOUT: u16 = 9;
pub const NFY_INCHAR: u16 = 10;
pub const NFY_OUTSTR: u16 = 11;
pub const NFY_LOGERROR: u16 = 12;
pub const NFY_LOGPARAMERROR: u16 = 13;

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

/// NFYSTARTDLL (TOOLHELP.H): dwSize, hModule, wCS, wIP; 10 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NfyStartDll {
    pub h_module: u16,
    pub w_cs: u16,
    pub w_ip: u16,
}

impl NfyStartDll {
    pub const SIZE: usize = 10;
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = (Self::SIZE as u32).to_le_bytes().to_vec();
        for w in [self.h_module, self.w_cs, self.w_ip] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }
}

/// NFYRIP (SDK "NFYRIP"): dwSize, wIP, wCS, wSS, wBP, wExitCode; 14 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NfyRip {
    pub w_ip: u16,
    pub w_cs: u16,
    pub w_ss: u16,
    pub w_bp: u16,
    pub w_exit_code: u16,
}

impl NfyRip {
    pub const SIZE: usize = 14;
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = (Self::SIZE as u32).to_le_bytes().to_vec();
        for w in [self.w_ip, self.w_cs, self.w_ss, self.w_bp, self.w_exit_code] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }
}

/// NFYLOGERROR (TOOLHELP.H): dwSize, wErrCode, lpInfo; 10 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NfyLogError {
    pub w_err_code: u16,
    pub lp_info: u32,
}

impl NfyLogError {
    pub const SIZE: usize = 10;
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = (Self::SIZE as u32).to_le_bytes().to_vec();
        b.extend_from_slice(&self.w_err_code.to_le_bytes());
        b.extend_from_slice(&self.lp_info.to_le_bytes());
        b
    }
}

/// NFYLOGPARAMERROR (TOOLHELP.H): dwSize, wErrCode, lpfnErrorAddr,
/// lpBadParam (a far pointer to the bad parameter); 14 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NfyLogParamError {
    pub w_err_code: u16,
    pub lpfn_error_addr: u32,
    pub lp_bad_param: u32,
}

impl NfyLogParamError {
    pub const SIZE: usize = 14;
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = (Self::SIZE as u32).to_le_bytes().to_vec();
        b.extend_from_slice(&self.w_err_code.to_le_bytes());
        b.extend_from_slice(&self.lpfn_error_addr.to_le_bytes());
        b.extend_from_slice(&self.lp_bad_param.to_le_bytes());
        b
    }
}

/// TOOLHELP's thunk segment, when TOOLHELP is loaded.
fn toolhelp_cs(env: &Env) -> Option<u16> {
    env.win16
        .module_by_name("TOOLHELP")
        .and_then(|m| m.segments.first().copied())
}

/// Whether any callback would hear of `id` (so callers can skip building
/// its data).
pub fn anyone_wants(env: &Env, id: u16) -> bool {
    !env.win16.toolhelp.notifying
        && env
            .win16
            .toolhelp
            .notify
            .iter()
            .any(|c| wanted(c.flags, id))
}

/// Send `id` with `data` to the callbacks that want it (module doc), on
/// TOOLHELP's own stack when `own_stack`, else on the current one. With
/// `scratch`, those bytes are laid on that stack first and dwData is
/// their far address (`data` is then ignored). Returns the value of the
/// callback that handled it (nonzero), or 0. The registers are as before.
pub fn send(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: u16,
    data: u32,
    scratch: Option<&[u8]>,
    own_stack: bool,
) -> Result<u32, Stop> {
    if !anyone_wants(env, id) {
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

/// NFY_STARTTASK, in the new task's context, before its first instruction.
pub fn task_started(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let csip = (u32::from(uc.reg(R::CS)) << 16) | u32::from(uc.reg(R::IP));
    send(env, uc, NFY_STARTTASK, csip, None, false).map(|_| ())
}

/// NFY_TASKOUT, in the context of the task about to give up the CPU.
pub fn task_out(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    send(env, uc, NFY_TASKOUT, 0, None, false).map(|_| ())
}

/// NFY_TASKIN, in the context of the task just switched in; then, for a
/// task that never ran (`fresh`), NFY_STARTTASK.
pub fn switched_in(env: &mut Env, uc: &mut Uc<'_>, fresh: bool) -> Result<(), Stop> {
    send(env, uc, NFY_TASKIN, 0, None, false)?;
    if fresh {
        task_started(env, uc)?;
    }
    Ok(())
}

/// NFY_STARTDLL: module `hmodule`'s LibEntry at `cs:ip` is about to run.
pub fn dll_starting(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hmodule: u16,
    cs: u16,
    ip: u16,
) -> Result<(), Stop> {
    let s = NfyStartDll {
        h_module: hmodule,
        w_cs: cs,
        w_ip: ip,
    };
    send(env, uc, NFY_STARTDLL, 0, Some(&s.to_bytes()), false).map(|_| ())
}

/// NFY_DELMODULE: module `hmodule` is about to leave memory.
pub fn module_deleted(env: &mut Env, uc: &mut Uc<'_>, hmodule: u16) -> Result<(), Stop> {
    send(env, uc, NFY_DELMODULE, u32::from(hmodule), None, false).map(|_| ())
}

/// A task of module `hmodule` ended and has left the task list: when it
/// was the module's last instance, the module leaves memory as KERNEL
/// freed it — NFY_DELMODULE (on TOOLHELP's stack when `own_stack`), then
/// its segments and module database are freed.
pub fn last_instance_ended(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hmodule: u16,
    own_stack: bool,
) -> Result<(), Stop> {
    if hmodule == 0 || env.win16.tasks.iter().any(|t| t.hmodule == hmodule) {
        return Ok(());
    }
    let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == hmodule) else {
        return Ok(());
    };
    if env.win16.modules[i].builtin {
        return Ok(());
    }
    send(env, uc, NFY_DELMODULE, u32::from(hmodule), None, own_stack)?;
    if let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == hmodule) {
        env.win16.remove_module(uc, i);
    }
    Ok(())
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
        let b = super::user::msgbox::ShownBox {
            htask,
            module: super::scheduler::task_name(env, htask),
            caption: "Application Error".to_string(),
            text: line,
            style: None,
            answer: None,
            by: super::user::msgbox::ShownBy::Environment,
        };
        env.win16.user.boxes.record(b);
    }
}

/// NFY_OUTSTR: OutputDebugString's string at far address `lpsz`.
pub fn out_str(env: &mut Env, uc: &mut Uc<'_>, lpsz: u32) -> Result<(), Stop> {
    send(env, uc, NFY_OUTSTR, lpsz, None, false).map(|_| ())
}

/// NFY_LOGERROR, for LogError.
pub fn log_error(env: &mut Env, uc: &mut Uc<'_>, e: &NfyLogError) -> Result<(), Stop> {
    send(env, uc, NFY_LOGERROR, 0, Some(&e.to_bytes()), false).map(|_| ())
}

/// NFY_LOGPARAMERROR, for LogParamError(uErr, lpfn, lpvParam): the
/// structure's lpBadParam points at the bad value, which lies after the
/// structure on the same stack.
pub fn log_param_error(
    env: &mut Env,
    uc: &mut Uc<'_>,
    err: u16,
    lpfn: u32,
    param: u32,
) -> Result<(), Stop> {
    if !anyone_wants(env, NFY_LOGPARAMERROR) {
        return Ok(());
    }
    // call_far lays the scratch bytes word-aligned just below the caller's
    // SP less the frame's BP word: the value sits right after the
    // structure there.
    let sp = uc.reg(R::SP);
    let len = (NfyLogParamError::SIZE as u16 + 4 + 1) & !1;
    let at = sp.wrapping_sub(2).wrapping_sub(len);
    let value_at = at.wrapping_add(NfyLogParamError::SIZE as u16);
    let s = NfyLogParamError {
        w_err_code: err,
        lpfn_error_addr: lpfn,
        lp_bad_param: (u32::from(uc.reg(R::SS)) << 16) | u32::from(value_at),
    };
    let mut bytes = s.to_bytes();
    bytes.extend_from_slice(&param.to_le_bytes());
    send(env, uc, NFY_LOGPARAMERROR, 0, Some(&bytes), false).map(|_| ())
}

/// NFY_RIP, for FatalExit (callbacks registered with NF_RIP only).
pub fn rip(env: &mut Env, uc: &mut Uc<'_>, r: &NfyRip) -> Result<(), Stop> {
    send(env, uc, NFY_RIP, 0, Some(&r.to_bytes()), false).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_layouts() {
        let b = NfyStartDll {
            h_module: 0x0104,
            w_cs: 0x0106,
            w_ip: 0x0108,
        }
        .to_bytes();
        assert_eq!(b, [10, 0, 0, 0, 4, 1, 6, 1, 8, 1]);
        let b = NfyRip {
            w_ip: 0x0104,
            w_cs: 0x0106,
            w_ss: 0x0108,
            w_bp: 0x010A,
            w_exit_code: 0x010C,
        }
        .to_bytes();
        assert_eq!(b.len(), 14);
        assert_eq!(&b[..4], &[14, 0, 0, 0]);
        for (i, o) in (4..14).step_by(2).enumerate() {
            assert_eq!(u16::from_le_bytes([b[o], b[o + 1]]), 0x0104 + 2 * i as u16);
        }
        let b = NfyLogError {
            w_err_code: 0x1234,
            lp_info: 0x1117_0042,
        }
        .to_bytes();
        assert_eq!(b, [10, 0, 0, 0, 0x34, 0x12, 0x42, 0, 0x17, 0x11]);
        let b = NfyLogParamError {
            w_err_code: 0x6001,
            lpfn_error_addr: 0x1007_0020,
            lp_bad_param: 0x1117_0100,
        }
        .to_bytes();
        assert_eq!(
            b,
            [14, 0, 0, 0, 1, 0x60, 0x20, 0, 7, 0x10, 0, 1, 0x17, 0x11]
        );
    }

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
