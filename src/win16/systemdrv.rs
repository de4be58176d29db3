//! SYSTEM: the system driver's exports a program may call: the timer's
//! resolution and the millisecond count, drive types, and the 80x87's save
//! area (Windows 3.1 DDK, SYSTEM.DRV).
//!
//! The system timer ticks 18.2 times a second (54925 microseconds a
//! tick). CreateSystemTimer's periodic callbacks at interrupt time are not
//! made: it returns 0, the documented failure.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "SYSTEM",
        1,
        "INQUIRESYSTEM",
        &[Arg::W, Arg::W],
        inquire_system,
    ),
    Api::new(
        "SYSTEM",
        2,
        "CREATESYSTEMTIMER",
        &[Arg::W, Arg::L],
        create_system_timer,
    ),
    Api::new("SYSTEM", 3, "KILLSYSTEMTIMER", &[Arg::W], zero),
    Api::new("SYSTEM", 4, "ENABLESYSTEMTIMERS", &[], zero),
    Api::new("SYSTEM", 5, "DISABLESYSTEMTIMERS", &[], zero),
    Api::new(
        "SYSTEM",
        6,
        "GETSYSTEMMSECCOUNT",
        &[],
        get_system_msec_count,
    ),
    Api::new("SYSTEM", 7, "GET80X87SAVESIZE", &[], get_80x87_save_size),
    Api::new("SYSTEM", 8, "SAVE80X87STATE", &[Arg::L], save_80x87_state),
    Api::new(
        "SYSTEM",
        9,
        "RESTORE80X87STATE",
        &[Arg::L],
        restore_80x87_state,
    ),
];

/// Microseconds per system timer tick.
pub const TICK_US: u32 = 54925;

fn zero(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// SYSTEM.1 InquireSystem(wCode, wDrive): 0 the timer's period in
/// microseconds (DX:AX); 1 drive wDrive's type (3 fixed for C:, 0 no
/// drive; DX = 1 when it exists); other codes 0.
pub fn inquire_system(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match a[0] as u16 {
        0 => TICK_US,
        1 if a[1] as u16 == 2 => 1 << 16 | 3,
        _ => 0,
    })
}

/// SYSTEM.2 CreateSystemTimer(wRate, lpfnCallback): 0 (module notes).
pub fn create_system_timer(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::machine::record_event(
        uc,
        format!(
            "CreateSystemTimer({} ms): no system timer callbacks",
            a[0] as u16
        ),
    );
    Ok(0)
}

/// SYSTEM.6 GetSystemMSecCount(): the emulated clock's milliseconds.
pub fn get_system_msec_count(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let insns = crate::machine::time::observe(uc);
    Ok(env.win16.system.tick_ms(insns))
}

/// SYSTEM.7 Get80x87SaveSize(): 94, the FSAVE image's size.
pub fn get_80x87_save_size(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(super::win87em::SAVE_AREA as u32)
}

/// SYSTEM.8 Save80x87State(lpBuffer): WIN87EM's save (94 bytes).
pub fn save_80x87_state(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    super::win87em::em_save(env, uc, &[a[0], super::win87em::SAVE_AREA as u32])?;
    Ok(0)
}

/// SYSTEM.9 Restore80x87State(lpBuffer): WIN87EM's restore.
pub fn restore_80x87_state(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    super::win87em::em_restore(env, uc, &[a[0], super::win87em::SAVE_AREA as u32])?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
