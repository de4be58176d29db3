//! TOOLHELP's task-control exports: TaskSetCSIP (81), TaskGetCSIP (82)
//! and TaskSwitch (83), over the scheduler's suspended tasks (Windows 3.1
//! SDK, "TaskGetCSIP", "TaskSetCSIP", "TaskSwitch").
//!
//! A task that is not running keeps, at the SS:SP saved in its TDB, the
//! scheduler's switch frame (scheduler.rs; tdb.rs `SwitchFrame`), whose
//! last two words are a far address in the code it will go on in, and the
//! scheduler keeps the registers it resumes with: TaskGetCSIP reads the
//! latter (the instruction the task executes next), TaskSetCSIP changes
//! both. Neither can be asked of the current
//! task (the SDK: its CS:IP is not saved anywhere); they answer NULL /
//! FALSE for it and for a handle that names no task.

use super::api::{Api, Arg};
use super::tdb::{SwitchFrame, off};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "TOOLHELP",
        81,
        "TASKSETCSIP",
        &[Arg::W, Arg::W, Arg::W],
        task_set_csip,
    ),
    Api::new("TOOLHELP", 82, "TASKGETCSIP", &[Arg::W], task_get_csip),
    Api::new("TOOLHELP", 83, "TASKSWITCH", &[Arg::W, Arg::L], task_switch),
];

/// Offsets of IP and CS in the switch frame.
const FRAME_IP: u16 = SwitchFrame::SIZE - 4;
const FRAME_CS: u16 = SwitchFrame::SIZE - 2;

/// The stack address of `htask`'s switch frame, when it is a task that
/// is not running.
fn frame_of(env: &Env, uc: &Uc<'_>, htask: u16) -> Option<(u16, u16)> {
    if htask == 0 || htask == uc.get_data().current_task {
        return None;
    }
    env.win16.task(htask)?;
    if !env.win16.scheduler.suspended.contains_key(&htask) {
        return None;
    }
    let sp = uc.read_u16_at(htask, off::SP).ok()?;
    let ss = uc.read_u16_at(htask, off::SS).ok()?;
    Some((ss, sp))
}

/// Where the task goes on: the registers the scheduler resumes it with
/// (for a task suspended inside a system function, the thunk's return
/// after the call; the frame names the call itself, for the walk).
fn get_csip(env: &Env, uc: &Uc<'_>, htask: u16) -> Option<u32> {
    frame_of(env, uc, htask)?;
    let r = env.win16.scheduler.suspended.get(&htask)?.regs;
    Some((u32::from(r.cs) << 16) | u32::from(r.ip))
}

/// Make `htask` go on at `cs:ip`: in its switch frame and in the
/// registers the scheduler resumes it with. The old CS:IP, or None.
fn set_csip(env: &mut Env, uc: &mut Uc<'_>, htask: u16, cs: u16, ip: u16) -> Option<u32> {
    let old = get_csip(env, uc, htask)?;
    let (ss, sp) = frame_of(env, uc, htask)?;
    uc.write_u16_at(ss, sp.wrapping_add(FRAME_IP), ip).ok()?;
    uc.write_u16_at(ss, sp.wrapping_add(FRAME_CS), cs).ok()?;
    let s = env.win16.scheduler.suspended.get_mut(&htask)?;
    s.regs.cs = cs;
    s.regs.ip = ip;
    Some(old)
}

/// TOOLHELP.82 TaskGetCSIP(hTask): the CS:IP the task will execute next
/// when it runs again; NULL for the current task or a bad handle.
pub fn task_get_csip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_csip(env, uc, a[0] as u16).unwrap_or(0))
}

/// TOOLHELP.81 TaskSetCSIP(hTask, wCS, wIP): the task will go on at
/// wCS:wIP; returns its previous CS:IP, NULL for the current task or a
/// bad handle.
pub fn task_set_csip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_csip(env, uc, a[0] as u16, a[1] as u16, a[2] as u16).unwrap_or(0))
}

/// TOOLHELP.83 TaskSwitch(hTask, dwNewCSIP): the task runs now, at
/// dwNewCSIP; the caller goes on when its turn comes back, with TRUE.
/// FALSE (and no switch) for the current task or a bad handle.
pub fn task_switch(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let (cs, ip) = ((a[1] >> 16) as u16, a[1] as u16);
    if set_csip(env, uc, h, cs, ip).is_none() {
        return Ok(0);
    }
    let current = uc.get_data().current_task;
    super::scheduler::directed_yield(env, uc, &[u32::from(h)])?;
    // The caller, now suspended, gets TRUE when it goes on.
    if let Some(s) = env.win16.scheduler.suspended.get_mut(&current) {
        s.regs.ax = 1;
        s.regs.dx = 0;
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }

    #[test]
    fn the_frame_ends_with_ip_and_cs() {
        let f = super::SwitchFrame {
            ip: 0x1234,
            cs: 0x5678,
            ..Default::default()
        }
        .to_bytes();
        let at = |o: u16| u16::from_le_bytes([f[o as usize], f[o as usize + 1]]);
        assert_eq!((at(super::FRAME_IP), at(super::FRAME_CS)), (0x1234, 0x5678));
    }
}
