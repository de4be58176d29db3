//! KERNEL's notifications: the events KERNEL tells a debugging tool of
//! (NFY_*, TOOLHELP.H), the structures it passes with them, and the one
//! hook through which it tells them.
//!
//! In Windows 3.1 TOOLHELP.DLL gave KERNEL one notification procedure
//! (KERNEL.341 ToolHelpHook), and KERNEL called it at each event; TOOLHELP's
//! procedure then called the tasks' NotifyRegister callbacks ("the kernel
//! calls this function whenever it sends a notification to the task":
//! Windows 3.1 SDK, NotifyRegister). So here: KERNEL owns the events and
//! decides when each is sent (this file: task switches and starts, DLL
//! starts, module deletions, FatalExit's RIP, OutputDebugString,
//! LogError, LogParamError; the scheduler's task end), and the tier above
//! plugs in the procedure that delivers them ([`Hook`], installed by
//! TOOLHELP's NotifyRegister: `toolhelp_notify::HOOK`). Until a hook is
//! installed nobody listens, and nothing is sent. Which callbacks hear
//! which event, their order and their stacks are TOOLHELP's
//! (toolhelp_notify.rs).
//!
//! | wID | when | dwData |
//! |-----|------|--------|
//! | NFY_STARTDLL 3 | a DLL's LibEntry is about to run (kernel/library.rs) | far pointer to NFYSTARTDLL |
//! | NFY_STARTTASK 4 | a task is about to run its first instruction, in its own context (scheduler.rs) | CS:IP of its start |
//! | NFY_EXITTASK 5 | a task ends, in its context (scheduler.rs `end_task`) | low byte: the exit code |
//! | NFY_DELMODULE 6 | a module leaves memory (`Win16::remove_module`'s callers) | low word: hModule |
//! | NFY_RIP 7 | FatalExit | far pointer to NFYRIP |
//! | NFY_TASKIN 8 | a task was switched in, in its context | 0 |
//! | NFY_TASKOUT 9 | a task is about to be switched out, in its context | 0 |
//! | NFY_OUTSTR 11 | OutputDebugString | far pointer to the string |
//! | NFY_LOGERROR 12 | LogError | far pointer to NFYLOGERROR |
//! | NFY_LOGPARAMERROR 13 | LogParamError | far pointer to NFYLOGPARAMERROR |

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

/// The procedure KERNEL tells its events to (ToolHelpHook's): `wants`
/// says whether anyone would hear of an event (so KERNEL can skip building
/// its data), `send` delivers it — `send(env, uc, id, dwData, scratch,
/// own_stack)`: with `scratch`, those bytes are laid on the stack first
/// and dwData is their far address; on the delivering DLL's own stack
/// when `own_stack`. It returns the value of the callback that handled
/// the event (nonzero), or 0, with the registers as before.
#[derive(Clone, Copy)]
pub struct Hook {
    pub wants: fn(&Env, u16) -> bool,
    pub send: SendFn,
}

/// [`Hook::send`]'s type.
pub type SendFn = fn(&mut Env, &mut Uc<'_>, u16, u32, Option<&[u8]>, bool) -> Result<u32, Stop>;

impl std::fmt::Debug for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("notify::Hook")
    }
}

/// KERNEL.341 ToolHelpHook's work: `hook` becomes the procedure KERNEL
/// tells its events to (TOOLHELP's NotifyRegister installs its own).
pub fn install(env: &mut Env, hook: Hook) {
    env.win16.kernel.notify = Some(hook);
}

/// Whether the installed hook would deliver `id` to anyone.
pub fn anyone_wants(env: &Env, id: u16) -> bool {
    env.win16.kernel.notify.is_some_and(|h| (h.wants)(env, id))
}

/// Tell the hook `id` with `data` (or `scratch`: [`Hook`]), on the
/// hook's own stack when `own_stack`. 0 when no hook is installed or
/// nobody wants it.
pub fn send(
    env: &mut Env,
    uc: &mut Uc<'_>,
    id: u16,
    data: u32,
    scratch: Option<&[u8]>,
    own_stack: bool,
) -> Result<u32, Stop> {
    let Some(h) = env.win16.kernel.notify else {
        return Ok(0);
    };
    if !(h.wants)(env, id) {
        return Ok(0);
    }
    (h.send)(env, uc, id, data, scratch, own_stack)
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

    /// No hook, no notification: KERNEL sends nothing until a DLL
    /// installs one, then exactly what the hook wants.
    #[test]
    fn events_go_to_the_installed_hook_only() {
        let (mut m, mut env, _) = crate::win16::kernel::testing::kernsvc();
        assert!(!anyone_wants(&env, NFY_OUTSTR));
        assert_eq!(
            send(&mut env, &mut m, NFY_OUTSTR, 1, None, false).unwrap(),
            0
        );
        fn wants(_: &Env, id: u16) -> bool {
            id == NFY_OUTSTR
        }
        fn deliver(
            env: &mut Env,
            _: &mut Uc<'_>,
            id: u16,
            data: u32,
            _: Option<&[u8]>,
            _: bool,
        ) -> Result<u32, Stop> {
            env.debug_output.push(format!("{id} {data:X}"));
            Ok(7)
        }
        install(
            &mut env,
            Hook {
                wants,
                send: deliver,
            },
        );
        assert!(anyone_wants(&env, NFY_OUTSTR) && !anyone_wants(&env, NFY_RIP));
        assert_eq!(send(&mut env, &mut m, NFY_RIP, 2, None, false).unwrap(), 0);
        assert_eq!(
            send(&mut env, &mut m, NFY_OUTSTR, 0x1234, None, false).unwrap(),
            7
        );
        assert_eq!(env.debug_output.last().map(String::as_str), Some("11 1234"));
    }
}
