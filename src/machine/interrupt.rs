//! Interrupts: software interrupts handed to the environment, invalid
//! instructions, breakpoints, and the bytes of an instruction.

use super::{
    Fault, R, Stop, Uc, code_overrun, counter, deadline_passed, exception, fault_name, time,
    with_host,
};
use crate::machine::Cpu;

pub(super) fn on_invalid_insn(uc: &mut Uc<'_>) -> bool {
    counter::inline_off(uc);
    let regs = uc.regs();
    uc.get_data_mut().stop = Some(Stop::Fault(Fault::new(6, regs, "invalid opcode")));
    false
}

pub(super) fn on_breakpoint(uc: &mut Uc<'_>, addr: u64, _size: u32) {
    counter::inline_off(uc);
    // The breakpoint a resumed run starts on is passed once; any hit
    // elsewhere ends that grace.
    if let Some(pass) = uc.get_data_mut().pass_breakpoint.take()
        && pass == addr
    {
        return;
    }
    if uc.get_data().breakpoints.iter().any(|b| b.0 == addr) {
        let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
        uc.request_stop(Stop::Breakpoint { cs, ip });
    }
}

/// unicorn's interrupt hook: software interrupts go to the environment,
/// processor exceptions stop the machine with a [`Fault`]. Every
/// interrupt is an event of the emulated clock (time.rs), and after a
/// system call the timer ticks whose time came are delivered.
pub(super) fn on_interrupt(uc: &mut Uc<'_>, intno: u32) {
    counter::inline_off(uc);
    super::hookguard::test_panic((intno & 0xFF) as u8);
    super::hookguard::test_hang((intno & 0xFF) as u8);
    time::advance(uc.get_data_mut(), time::EVENT_INSNS);
    with_host(uc, |uc| {
        interrupt(uc, intno);
        time::ticks_due(uc);
    });
}

pub(super) fn interrupt(uc: &mut Uc<'_>, intno: u32) {
    uc.get_data().refused.set(None);
    let intno8 = (intno & 0xFF) as u8;
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    let software = exception::is_software_interrupt(uc, cs, ip, intno8);
    if !software || intno8 == 3 || intno8 == 4 {
        exception_or_trap(uc, intno8, software);
        return;
    }
    // A software interrupt (a system call, DOS, the BIOS): only CS:IP is
    // read here; the environment reads what it needs.
    if deadline_passed(uc) {
        // The call has not run: CS:IP back at the INT for the walk.
        let _ = uc.set_reg(R::IP, ip.wrapping_sub(2));
        uc.request_stop(Stop::Timeout);
        return;
    }
    let Some(mut env) = uc.get_data_mut().env.take() else {
        let bp = uc.reg(R::BP);
        uc.request_stop(Stop::Unimplemented {
            what: format!("INT {intno8:02X}h"),
            caller: (cs, ip.wrapping_sub(2), bp),
        });
        return;
    };
    let res = env.interrupt(uc, intno8);
    uc.get_data_mut().env = Some(env);
    if let Err(stop) = res {
        uc.request_stop(stop);
    }
}

/// A processor exception, or a trap (INT 3, INTO, the single-step trap),
/// reported by unicorn's interrupt hook: the machine stops with its
/// [`Fault`].
fn exception_or_trap(uc: &mut Uc<'_>, intno8: u8, software: bool) {
    let regs = uc.regs();

    let before = |n: u16| -> Option<Vec<u8>> {
        let mut b = vec![0u8; n as usize];
        uc.read_seg(regs.cs, regs.ip.wrapping_sub(n), &mut b)
            .ok()
            .map(|_| b)
    };
    if intno8 == 3 || intno8 == 4 || (intno8 == 1 && !software) {
        // Traps: INT 3 / INTO report the trap instruction itself; the
        // single-step trap the instruction after the one that ran.
        let len = if intno8 == 1 {
            0
        } else if before(1).is_some_and(|b| b[0] == 0xCC || b[0] == 0xCE) {
            1
        } else {
            2
        };
        let mut r = regs;
        r.ip = regs.ip.wrapping_sub(len);
        let detail = if intno8 == 3 {
            "INT 3 breakpoint instruction"
        } else {
            fault_name(intno8)
        };
        uc.request_stop(Stop::Fault(Fault::new(intno8, r, detail)));
        return;
    }
    if !software
        && uc
            .descriptor_of(regs.cs)
            .is_some_and(|d| u32::from(regs.ip) > d.limit)
    {
        // HLT padding after a code segment was reached.
        let stop = code_overrun(uc, regs);
        uc.request_stop(stop);
        return;
    }
    if !software {
        let fault = match (10..=13)
            .contains(&intno8)
            .then(|| exception::load_cause(uc, &regs, intno8))
            .flatten()
        {
            Some(cause) => Fault::with_cause(intno8, regs, cause),
            None if intno8 == 0 => Fault::new(0, regs, "divide by zero or quotient overflow"),
            None => Fault::new(intno8, regs, fault_name(intno8)),
        };
        uc.request_stop(Stop::Fault(fault));
    }
}

/// Up to 15 bytes (the longest x86 instruction) at CS:IP, stopping at the
/// segment limit.
pub fn insn_bytes(uc: &Uc<'_>, cs: u16, ip: u16) -> Vec<u8> {
    let mut all = [0u8; 15];
    if uc.read_seg(cs, ip, &mut all).is_ok() {
        // The common case in one read; near the limit (or a wrap), byte
        // by byte.
        return all.to_vec();
    }
    let mut out = Vec::new();
    for k in 0..15u16 {
        let mut b = [0u8];
        if uc.read_seg(cs, ip.wrapping_add(k), &mut b).is_err() {
            break;
        }
        out.push(b[0]);
    }
    out
}
