//! KERNEL and USER system services that involve no window: the current
//! task and PSP, the DOS environment, the Windows flags, the clock, the
//! error mode, Catch/Throw, and ending the program with a fatal error.
//!
//! The machine is a 386 in Windows 3.1's 386 enhanced mode: GetWinFlags and
//! KERNEL's `__WINFLAGS` constant both say WF_PMODE | WF_CPU386 |
//! WF_ENHANCED | WF_PAGING | WF_80x87 (the emulated CPU executes x87
//! instructions).
//!
//! The clock (GetTickCount, GetCurrentTime) is emulated time, never the
//! host's: milliseconds since Windows started, [`BOOT_MS`] when the
//! program starts, advancing one millisecond per [`INSNS_PER_MS`]
//! instructions executed (a 10-MIPS 386), plus the time the machine spent
//! idle waiting for a timer (user/message.rs: a task with nothing but a timer to
//! wait for skips ahead to its due time). Runs are reproducible.

use std::collections::HashMap;

use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::{api_caller, farptr};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 1, "FATALEXIT", &[Arg::W], fatal_exit),
    Api::new("KERNEL", 36, "GETCURRENTTASK", &[], get_current_task),
    Api::new("KERNEL", 37, "GETCURRENTPDB", &[], get_current_pdb),
    Api::new("KERNEL", 55, "CATCH", &[Arg::L], catch),
    Api::new("KERNEL", 56, "THROW", &[Arg::L, Arg::W], throw),
    Api::new("KERNEL", 107, "SETERRORMODE", &[Arg::W], set_error_mode),
    Api::new("KERNEL", 99, "GETLPERRMODE", &[], get_lp_err_mode),
    Api::new("KERNEL", 103, "NETBIOSCALL", &[], netbios_call),
    Api::new("KERNEL", 131, "GETDOSENVIRONMENT", &[], get_dos_environment),
    Api::new("KERNEL", 132, "GETWINFLAGS", &[], get_win_flags),
    Api::new(
        "KERNEL",
        137,
        "FATALAPPEXIT",
        &[Arg::W, Arg::L],
        fatal_app_exit,
    ),
    Api::new("KERNEL", 152, "GETNUMTASKS", &[], get_num_tasks),
    Api::new("USER", 13, "GETTICKCOUNT", &[], get_tick_count),
    Api::new("USER", 15, "GETCURRENTTIME", &[], get_tick_count),
];

pub const WF_PMODE: u16 = 0x0001;
pub const WF_CPU386: u16 = 0x0004;
pub const WF_ENHANCED: u16 = 0x0020;
pub const WF_80X87: u16 = 0x0400;
pub const WF_PAGING: u16 = 0x0800;
/// GetWinFlags' answer (module notes).
pub const WIN_FLAGS: u16 = WF_PMODE | WF_CPU386 | WF_ENHANCED | WF_PAGING | WF_80X87;

/// The tick count when the program starts.
pub const BOOT_MS: u64 = 60_000;
/// Instructions per emulated millisecond.
pub const INSNS_PER_MS: u64 = 10_000;

/// KERNEL's constant exports: their values, resolved at load time like any
/// import. `__AHSHIFT` and `__AHINCR` are protected mode's (selectors of
/// a huge block are 8 apart).
pub fn constant_export(module: &str, ordinal: u16) -> Option<u16> {
    if !module.eq_ignore_ascii_case("KERNEL") {
        return None;
    }
    match ordinal {
        113 => Some(3),         // __AHSHIFT
        114 => Some(8),         // __AHINCR
        178 => Some(WIN_FLAGS), // __WINFLAGS
        _ => None,
    }
}

/// KERNEL/USER state of the run that belongs to no single file.
#[derive(Clone, Debug, Default)]
pub struct SystemState {
    /// MakeProcInstance thunks in use, by thunk segment.
    pub thunks_used: HashMap<u16, Vec<bool>>,
    /// SetErrorMode's flags.
    pub error_mode: u16,
    /// The instruction count the clock last saw, and the counts of earlier
    /// runs of the machine (each run counts from 0).
    clock_seen: u64,
    clock_carry: u64,
    /// Milliseconds skipped while idle, waiting for a timer (module notes).
    pub idle_ms: u64,
}

impl SystemState {
    /// Milliseconds since Windows started, given the machine's instruction
    /// count for this run.
    pub fn tick_ms(&mut self, insns: u64) -> u32 {
        if insns < self.clock_seen {
            self.clock_carry += self.clock_seen;
        }
        self.clock_seen = insns;
        (BOOT_MS + (self.clock_carry + insns) / INSNS_PER_MS + self.idle_ms) as u32
    }
}

/// KERNEL.1 FatalExit(nErrCode): the program ends with a fatal error.
/// TOOLHELP's callbacks registered with NF_RIP get NFY_RIP first, with
/// the CS:IP inside FatalExit and the caller's SS:BP (SDK, "NFYRIP").
pub fn fatal_exit(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let rip = super::notify::NfyRip {
        w_ip: uc.reg(R::IP),
        w_cs: uc.reg(R::CS),
        w_ss: uc.reg(R::SS),
        w_bp: uc.reg(R::BP),
        w_exit_code: a[0] as u16,
    };
    super::notify::rip(env, uc, &rip)?;
    Err(Stop::Fatal {
        what: format!("FatalExit({})", a[0] as u16 as i16),
        caller: api_caller(uc),
    })
}

/// KERNEL.137 FatalAppExit(fuAction, lpszMessageText): the program ends
/// with its message.
pub fn fatal_app_exit(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let msg = farptr::read_cstr(uc, a[1], 0x1000).unwrap_or_default();
    Err(Stop::Fatal {
        what: format!("FatalAppExit: {}", String::from_utf8_lossy(&msg)),
        caller: api_caller(uc),
    })
}

/// KERNEL.36 GetCurrentTask(): AX = the current task, DX = the first task
/// of the task list (the most recently started).
pub fn get_current_task(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let head = env.win16.tasks.last().map_or(0, |t| t.htask);
    Ok(u32::from(head) << 16 | u32::from(uc.get_data().current_task))
}

/// KERNEL.37 GetCurrentPDB(): the current task's PSP selector.
pub fn get_current_pdb(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .task(uc.get_data().current_task)
        .map_or(0, |t| u32::from(t.psp)))
}

/// KERNEL.131 GetDOSEnvironment(): a far pointer to the current task's
/// environment block.
pub fn get_dos_environment(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .task(uc.get_data().current_task)
        .map_or(0, |t| farptr::make(t.env_sel, 0)))
}

/// KERNEL.132 GetWinFlags().
pub fn get_win_flags(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(WIN_FLAGS))
}

/// KERNEL.107 SetErrorMode(fuErrorMode): the previous mode.
pub fn set_error_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let old = env.win16.system.error_mode;
    env.win16.system.error_mode = a[0] as u16;
    Ok(u32::from(old))
}

/// KERNEL.99 GetLPErrMode(): the error mode SetErrorMode set (the word
/// KERNEL keeps for its error boxes; undocumented, Wine's notes).
pub fn get_lp_err_mode(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.system.error_mode))
}

/// KERNEL.103 NetBIOSCall: INT 5Ch with the NCB at ES:BX, registers in
/// and out. With no network there is no NetBIOS: the interrupt does
/// nothing, so every register, and the NCB, stays as it was (how programs
/// tell that NetBIOS is absent: an invalid command 7Fh comes back with AL
/// unchanged instead of 03h, "invalid command").
pub fn netbios_call(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let (ax, dx, es, bx) = (uc.reg(R::AX), uc.reg(R::DX), uc.reg(R::ES), uc.reg(R::BX));
    crate::machine::record_event(uc, format!("NetBIOSCall NCB {es:04X}:{bx:04X}: no NetBIOS"));
    Ok(u32::from(ax) | u32::from(dx) << 16)
}

/// KERNEL.152 GetNumTasks().
pub fn get_num_tasks(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.tasks.len() as u32)
}

/// USER.13 GetTickCount() and USER.15 GetCurrentTime(): emulated
/// milliseconds (module notes).
pub fn get_tick_count(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let insns = crate::machine::time::observe(uc);
    Ok(env.win16.system.tick_ms(insns))
}

/// CATCHBUF words: where Catch returns to, its caller's stack and frame
/// and the registers a far call must keep.
mod catchbuf {
    pub const IP: usize = 0;
    pub const CS: usize = 1;
    pub const SP: usize = 2;
    pub const BP: usize = 3;
    pub const SI: usize = 4;
    pub const DI: usize = 5;
    pub const DS: usize = 6;
    pub const SS: usize = 8;
    pub const WORDS: usize = 9;
}

/// KERNEL.55 Catch(lpCatchBuf): saves the caller's context and returns 0;
/// a later Throw returns from this Catch again with Throw's value.
pub fn catch(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let (cs, ip, bp) = api_caller(uc);
    let mut w = [0u16; catchbuf::WORDS];
    w[catchbuf::IP] = ip;
    w[catchbuf::CS] = cs;
    // The caller's SP once `retf 4` has popped the return address and
    // the argument.
    w[catchbuf::SP] = sp.wrapping_add(8);
    w[catchbuf::BP] = bp;
    w[catchbuf::SI] = uc.reg(R::SI);
    w[catchbuf::DI] = uc.reg(R::DI);
    w[catchbuf::DS] = uc.reg(R::DS);
    w[catchbuf::SS] = ss;
    let bytes: Vec<u8> = w.iter().flat_map(|v| v.to_le_bytes()).collect();
    farptr::write_bytes(uc, a[0], &bytes);
    Ok(0)
}

/// KERNEL.56 Throw(lpCatchBuf, nThrowBack): back to the context Catch
/// saved, where Catch returns nThrowBack. The thunk's `retf 6` does the
/// jump: SS:SP is set so that it pops Catch's return address and lands
/// with the SP Catch's caller had.
pub fn throw(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let fatal = |uc: &Uc<'_>, why: String| Stop::Fatal {
        what: format!("Throw: {why}"),
        caller: api_caller(uc),
    };
    let Some(b) = farptr::read_bytes(uc, a[0], catchbuf::WORDS * 2) else {
        return Err(fatal(
            uc,
            format!("the CATCHBUF at {:08X} cannot be read", a[0]),
        ));
    };
    let w: Vec<u16> = b
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let (ss, sp, ds) = (w[catchbuf::SS], w[catchbuf::SP], w[catchbuf::DS]);
    // Return address, then the 6 bytes `retf 6` drops.
    let frame_sp = sp.wrapping_sub(10);
    let valid = |s: u16| uc.descriptor_of(s).is_some();
    if !valid(ss) || !(ds & 0xFFFC == 0 || valid(ds)) || sp < 10 {
        return Err(fatal(
            uc,
            format!(
                "the CATCHBUF holds SS:SP {ss:04X}:{sp:04X}, DS {ds:04X}: not a context Catch saved"
            ),
        ));
    }
    let mut ret = Vec::with_capacity(4);
    ret.extend_from_slice(&w[catchbuf::IP].to_le_bytes());
    ret.extend_from_slice(&w[catchbuf::CS].to_le_bytes());
    if uc.write_seg(ss, frame_sp, &ret).is_err() {
        return Err(fatal(
            uc,
            format!("the saved stack {ss:04X}:{frame_sp:04X} cannot be written"),
        ));
    }
    uc.set_reg(R::SS, ss).map_err(host)?;
    uc.set_reg(R::SP, frame_sp).map_err(host)?;
    uc.set_reg(R::BP, w[catchbuf::BP]).map_err(host)?;
    uc.set_reg(R::SI, w[catchbuf::SI]).map_err(host)?;
    uc.set_reg(R::DI, w[catchbuf::DI]).map_err(host)?;
    uc.set_reg(R::DS, ds).map_err(host)?;
    Ok(a[1] & 0xFFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn the_clock_is_emulated_and_monotonic() {
        let mut s = SystemState::default();
        assert_eq!(s.tick_ms(0), 60_000);
        assert_eq!(s.tick_ms(25_000), 60_002);
        // A new run counts from 0 again: the clock goes on.
        assert_eq!(s.tick_ms(5_000), 60_003);
        assert_eq!(s.tick_ms(15_000), 60_004);
        // Waiting idle for a timer moves it on.
        s.idle_ms += 100;
        assert_eq!(s.tick_ms(15_000), 60_104);
    }

    #[test]
    fn win_flags_are_386_enhanced() {
        assert_eq!(WIN_FLAGS, 0x0C25);
        assert_eq!(constant_export("kernel", 178), Some(WIN_FLAGS));
        assert_eq!(constant_export("KERNEL", 114), Some(8));
        assert_eq!(constant_export("USER", 178), None);
        assert_eq!(constant_export("KERNEL", 3), None);
    }

    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn task_queries() {
        let (mut m, mut env, htask) = kernsvc();
        let t = env.win16.task(htask).unwrap().clone();
        assert_eq!(
            get_current_task(&mut env, &mut m, &[]).unwrap(),
            u32::from(htask) << 16 | u32::from(htask)
        );
        assert_eq!(
            get_current_pdb(&mut env, &mut m, &[]).unwrap(),
            u32::from(t.psp)
        );
        assert_eq!(get_num_tasks(&mut env, &mut m, &[]).unwrap(), 1);
        let e = get_dos_environment(&mut env, &mut m, &[]).unwrap();
        assert_eq!(e, farptr::make(t.env_sel, 0));
        // The PSP points at the same block, which ends with the program.
        assert_eq!(m.read_u16_at(t.psp, 0x2C).unwrap(), t.env_sel);
        assert_eq!(
            farptr::read_cstr(&m, e, 100),
            Some(b"COMSPEC=C:\\COMMAND.COM".to_vec())
        );
        assert_eq!(set_error_mode(&mut env, &mut m, &[1]).unwrap(), 0);
        assert_eq!(set_error_mode(&mut env, &mut m, &[0x8001]).unwrap(), 1);
        assert_eq!(get_win_flags(&mut env, &mut m, &[]).unwrap(), 0x0C25);
        let t0 = get_tick_count(&mut env, &mut m, &[]).unwrap();
        crate::machine::time::advance(m.get_data_mut(), 50_000);
        assert_eq!(get_tick_count(&mut env, &mut m, &[]).unwrap(), t0 + 5);
    }

    #[test]
    fn fatal_exits_stop_with_the_caller() {
        let (mut m, mut env, _) = kernsvc();
        // A far return address 107F:1234 on the stack.
        let (ss, sp) = (m.reg(R::SS), m.reg(R::SP) - 0x10);
        m.set_reg(R::SP, sp).unwrap();
        m.write_seg(ss, sp, &[0x34, 0x12, 0x7F, 0x10]).unwrap();
        m.write_seg(ss, 0x10, b"disk on fire\0").unwrap();
        match fatal_exit(&mut env, &mut m, &[0xFFFF]) {
            Err(Stop::Fatal { what, caller }) => {
                assert_eq!(what, "FatalExit(-1)");
                assert_eq!((caller.0, caller.1), (0x107F, 0x1234));
            }
            other => panic!("{other:?}"),
        }
        match fatal_app_exit(&mut env, &mut m, &[0, farptr::make(ss, 0x10)]) {
            Err(Stop::Fatal { what, .. }) => assert_eq!(what, "FatalAppExit: disk on fire"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn catch_saves_and_throw_refuses_a_bad_buffer() {
        let (mut m, mut env, _) = kernsvc();
        // A far return address 107F:1234 on the stack.
        let (ss, sp) = (m.reg(R::SS), m.reg(R::SP) - 0x10);
        m.set_reg(R::SP, sp).unwrap();
        m.write_seg(ss, sp, &[0x34, 0x12, 0x7F, 0x10]).unwrap();
        m.set_reg(R::BP, 0x0ABC).unwrap();
        m.set_reg(R::SI, 0x5151).unwrap();
        let buf = farptr::make(ss, 0x20);
        assert_eq!(catch(&mut env, &mut m, &[buf]).unwrap(), 0);
        let b = farptr::read_bytes(&m, buf, 18).unwrap();
        let w = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
        assert_eq!(
            (w(0), w(1), w(2), w(3), w(4)),
            (0x1234, 0x107F, sp + 8, 0x0ABC, 0x5151)
        );
        assert_eq!((w(6), w(8)), (m.reg(R::DS), ss));
        // Throw through it: SS:SP is set for the thunk's `retf 6`.
        m.set_reg(R::BP, 0).unwrap();
        m.set_reg(R::SI, 0).unwrap();
        assert_eq!(throw(&mut env, &mut m, &[buf, 7]).unwrap(), 7);
        assert_eq!(m.reg(R::SP), sp + 8 - 10);
        assert_eq!(m.read_u16_at(ss, sp - 2).unwrap(), 0x1234);
        assert_eq!(m.read_u16_at(ss, sp).unwrap(), 0x107F);
        assert_eq!((m.reg(R::BP), m.reg(R::SI)), (0x0ABC, 0x5151));
        // Unreadable, or not a saved context: a fatal stop, no fault.
        assert!(matches!(
            throw(&mut env, &mut m, &[0x1234_0000, 1]),
            Err(Stop::Fatal { .. })
        ));
        m.write_seg(ss, 0x40, &[0; 18]).unwrap();
        assert!(matches!(
            throw(&mut env, &mut m, &[farptr::make(ss, 0x40), 1]),
            Err(Stop::Fatal { .. })
        ));
    }
}
