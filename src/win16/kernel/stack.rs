//! SwitchStackTo and SwitchStackBack (KERNEL.108 STO, KERNEL.109 SBACK):
//! a task moves its stack into another data segment and back, as Windows
//! 3.1 did it (SDK, "SwitchStackTo": "changes the stack of the current
//! task to the specified data segment, such as the data segment of a
//! library"; the bookkeeping is the instance data's, win16.md "instance
//! data").
//!
//! **SwitchStackTo(wStackSeg, wStackPointer, wStackTop)**:
//!
//! - the caller's BP is saved on the old stack, in the word just below
//!   where SS:SP will be once the call's arguments are popped, and that
//!   far address in the new segment's instance data at offset 2 (the
//!   `old_ss_sp` dword);
//! - the new segment's pStackTop (0x0A) becomes wStackTop, its pStackMin
//!   (0x0C) and pStackBot (0x0E) wStackPointer: ToolHelp's walk bounds
//!   the new stack by them;
//! - the caller's local variables (from SP after the call up to its BP)
//!   are copied to just below wStackPointer, so the caller goes on with
//!   them; its BP becomes wStackPointer, where a 0 is written: on the new
//!   stack the chain of saved BPs ends at the caller's frame;
//! - the function returns on the new stack.
//!
//! **SwitchStackBack()**: with SS the segment SwitchStackTo moved to, BP
//! gets the saved word back, SS:SP the old stack where the arguments of
//! SwitchStackTo were popped, and the instance data's `old_ss_sp` is
//! cleared. Without a SwitchStackTo before it nothing changes.
//!
//! A segment that cannot hold the copy (wStackPointer below the locals, a
//! selector that is no writable segment) leaves the stack where it is and
//! the call is an event.

use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc, record_event};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        108,
        "STO",
        &[Arg::W, Arg::W, Arg::W],
        switch_stack_to,
    ),
    Api::new("KERNEL", 109, "SBACK", &[], switch_stack_back),
];

/// The instance data's words (win16.md).
const OLD_SS_SP: u16 = 0x02;
const P_STACK_TOP: u16 = 0x0A;
const P_STACK_MIN: u16 = 0x0C;
const P_STACK_BOT: u16 = 0x0E;
/// The most local-variable bytes copied to the new stack.
const MAX_LOCALS: u16 = 0x8000;

fn word(uc: &Uc<'_>, seg: u16, off: u16) -> Option<u16> {
    uc.read_u16_at(seg, off).ok()
}

fn put(uc: &mut Uc<'_>, seg: u16, off: u16, v: u16) -> bool {
    uc.write_seg(seg, off, &v.to_le_bytes()).is_ok()
}

/// KERNEL.108 SwitchStackTo(wStackSeg, wStackPointer, wStackTop) (module
/// notes).
fn switch_stack_to(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, ptr, top) = (a[0] as u16, a[1] as u16 & !1, a[2] as u16);
    let (ss, sp, bp) = (uc.reg(R::SS), uc.reg(R::SP), uc.reg(R::BP));
    // SS:SP holds the far return address, then 6 bytes of arguments.
    let after = sp.wrapping_add(10);
    let locals = bp.saturating_sub(after);
    let mut ret = [0u8; 4];
    let mut saved = vec![0u8; usize::from(locals)];
    let new_sp = ptr.checked_sub(locals).and_then(|s| s.checked_sub(10));
    let writable = uc
        .descriptor_of(seg)
        .is_some_and(|d| u32::from(ptr) < d.limit && d.limit > u32::from(P_STACK_BOT));
    let Some(new_sp) = new_sp.filter(|_| {
        writable
            && locals <= MAX_LOCALS
            && uc.read_seg(ss, sp, &mut ret).is_ok()
            && uc.read_seg(ss, after, &mut saved).is_ok()
    }) else {
        record_event(
            uc,
            format!("SwitchStackTo {seg:04X}:{ptr:04X}: the stack cannot move there"),
        );
        return Ok(0);
    };
    // The caller's BP, on the old stack below the popped arguments.
    let old_ss_sp = after.wrapping_sub(2);
    put(uc, ss, old_ss_sp, bp);
    let ok = put(uc, seg, OLD_SS_SP, old_ss_sp)
        && put(uc, seg, OLD_SS_SP + 2, ss)
        && put(uc, seg, P_STACK_TOP, top)
        && put(uc, seg, P_STACK_MIN, ptr)
        && put(uc, seg, P_STACK_BOT, ptr)
        && uc.write_seg(seg, ptr - locals, &saved).is_ok()
        && put(uc, seg, ptr, 0)
        && uc.write_seg(seg, new_sp, &ret).is_ok();
    if !ok {
        record_event(
            uc,
            format!("SwitchStackTo {seg:04X}:{ptr:04X}: the segment cannot be written"),
        );
        return Ok(0);
    }
    // The thunk's `retf 6` pops the return address and 6 bytes: the
    // copied arguments' room.
    uc.set_reg(R::SS, seg).map_err(host)?;
    uc.set_reg(R::SP, new_sp).map_err(host)?;
    uc.set_reg(R::BP, ptr).map_err(host)?;
    record_event(
        uc,
        format!(
            "SwitchStackTo {seg:04X}:{ptr:04X} (top {top:04X}) from {ss:04X}:{after:04X}, {locals} bytes of locals"
        ),
    );
    Ok(u32::from(uc.reg(R::AX)) | u32::from(uc.reg(R::DX)) << 16)
}

/// KERNEL.109 SwitchStackBack() (module notes).
fn switch_stack_back(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let keep = u32::from(uc.reg(R::AX)) | u32::from(uc.reg(R::DX)) << 16;
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let (Some(off), Some(old_ss)) = (word(uc, ss, OLD_SS_SP), word(uc, ss, OLD_SS_SP + 2)) else {
        return Ok(keep);
    };
    if off == 0 && old_ss == 0 {
        record_event(uc, "SwitchStackBack: no SwitchStackTo before it".into());
        return Ok(keep);
    }
    let mut ret = [0u8; 4];
    let back_sp = off.wrapping_add(2).wrapping_sub(4);
    let (Some(bp), true) = (word(uc, old_ss, off), uc.read_seg(ss, sp, &mut ret).is_ok()) else {
        record_event(uc, "SwitchStackBack: the old stack cannot be read".into());
        return Ok(keep);
    };
    if uc.write_seg(old_ss, back_sp, &ret).is_err() {
        record_event(
            uc,
            "SwitchStackBack: the old stack cannot be written".into(),
        );
        return Ok(keep);
    }
    put(uc, ss, OLD_SS_SP, 0);
    put(uc, ss, OLD_SS_SP + 2, 0);
    uc.set_reg(R::SS, old_ss).map_err(host)?;
    uc.set_reg(R::SP, back_sp).map_err(host)?;
    uc.set_reg(R::BP, bp).map_err(host)?;
    record_event(
        uc,
        format!(
            "SwitchStackBack to {old_ss:04X}:{:04X}",
            off.wrapping_add(2)
        ),
    );
    Ok(keep)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
