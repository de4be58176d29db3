//! INT 21h AH=2Ah-2Dh: the date and the time, from the run's clock (the
//! host's, or `--clock`'s fixed instant). Setting them is checked as DOS
//! checks it (AL = 0 valid, FFh invalid) and otherwise ignored: a program
//! cannot change the host's clock.

use super::set;
use crate::dos::Env;
use crate::dos::set_al;
use crate::machine::{Cpu, R, Stop, Uc};

/// AH=2Ah: CX year, DH month, DL day, AL day of the week (0 = Sunday).
pub fn get_date(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let t = env.dos.clock.now();
    set(uc, R::CX, t.year)?;
    set(uc, R::DX, u16::from(t.month) << 8 | u16::from(t.day))?;
    set_al(uc, t.weekday)
}

/// AH=2Bh: set the date CX-DH-DL; AL = FFh when it is not a date DOS
/// keeps (1980-2099).
pub fn set_date(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (y, dx) = (uc.reg(R::CX), uc.reg(R::DX));
    let (m, d) = ((dx >> 8) as u8, dx as u8);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    };
    let valid = (1980..=2099).contains(&y) && d >= 1 && d <= days;
    set_al(uc, if valid { 0 } else { 0xFF })
}

/// AH=2Ch: CH hour, CL minute, DH second, DL hundredths.
pub fn get_time(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let t = env.dos.clock.now();
    set(uc, R::CX, u16::from(t.hour) << 8 | u16::from(t.minute))?;
    set(
        uc,
        R::DX,
        u16::from(t.second) << 8 | u16::from(t.hundredths),
    )
}

/// AH=2Dh: set the time CH:CL:DH.DL; AL = FFh when out of range.
pub fn set_time(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (cx, dx) = (uc.reg(R::CX), uc.reg(R::DX));
    let valid = (cx >> 8) < 24 && (cx & 0xFF) < 60 && (dx >> 8) < 60 && (dx & 0xFF) < 100;
    set_al(uc, if valid { 0 } else { 0xFF })
}
