//! INT 21h functions about DOS itself: the version (30h, 3306h), interrupt
//! vectors (25h, 35h), flags (Ctrl-Break 33h, verify 2Eh/54h, InDOS 34h,
//! the switch character 37h), the list of lists (52h), the extended error
//! (59h, 5D0Ah), the swappable data area (5D06h), the network functions
//! DOS answers without a network (5Eh, 5Fh), and the CP/M-era null
//! functions.

use super::{al, fail, ok, set};
use crate::dos::Env;
use crate::dos::{data, get_vector as read_vector, psp, set_al, set_vector as write_vector};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::walk::CpuMode;

/// AH=18h, 1Dh, 1Eh, 20h, 61h, 64h, 6Bh: functions DOS keeps for CP/M
/// compatibility or does not use: AL = 0.
pub fn null_function(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_al(uc, 0)
}

/// AH=25h: set interrupt vector AL to DS:DX.
pub fn set_vector(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let v = (uc.reg(R::DS), uc.reg(R::DX));
    let n = al(uc);
    if uc.mode() == CpuMode::Real {
        write_vector(uc, n, v)
    } else {
        env.dos.vectors.insert(n, v);
        Ok(())
    }
}

/// AH=35h: ES:BX = interrupt vector AL.
pub fn get_vector(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let n = al(uc);
    let (seg, off) = if uc.mode() == CpuMode::Real {
        read_vector(uc, n)?
    } else {
        env.dos.vectors.get(&n).copied().unwrap_or((0, 0))
    };
    set(uc, R::ES, seg)?;
    set(uc, R::BX, off)
}

/// AH=2Eh: set the verify flag from AL (writes are never verified here).
pub fn set_verify(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    env.dos.verify = al(uc) & 1 != 0;
    Ok(())
}

/// AH=54h: AL = the verify flag.
pub fn get_verify(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_al(uc, u8::from(env.dos.verify))
}

/// AH=30h: AL.AH = the DOS version the PSP says (5.00 unless SETVER-style
/// PSP:40h differs), BH = OEM 00h (IBM) or, with AL=1, the version flag
/// (00h: DOS not in ROM or HMA); BL:CX = the 24-bit user serial, 0.
pub fn version(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let v = if uc.mode() == CpuMode::Real && env.dos.psp != 0 {
        match psp::word(uc, env.dos.psp, psp::VERSION) {
            0 => psp::DOS_VERSION,
            v => v,
        }
    } else {
        psp::DOS_VERSION
    };
    set(uc, R::AX, v)?;
    set(uc, R::BX, 0)?;
    set(uc, R::CX, 0)
}

/// AH=33h: AL=0 get (DL) and AL=1 set the Ctrl-Break flag, AL=2 both
/// (DL in, old DL out), AL=5 the boot drive (DL = 3, C:), AL=6 the true
/// version (BL.BH = 5.00, DL revision 0, DH flags 0: DOS low). Other AL:
/// AL = FFh.
pub fn break_and_version(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dx = uc.reg(R::DX);
    let dl = |v: u8| (dx & 0xFF00) | u16::from(v);
    match al(uc) {
        0x00 => set(uc, R::DX, dl(u8::from(env.dos.break_flag))),
        0x01 => {
            env.dos.break_flag = dx & 0xFF != 0;
            Ok(())
        }
        0x02 => {
            let old = env.dos.break_flag;
            env.dos.break_flag = dx & 0xFF != 0;
            set(uc, R::DX, dl(u8::from(old)))
        }
        0x05 => set(uc, R::DX, dl(3)),
        0x06 => {
            set(uc, R::BX, 0x0005)?;
            set(uc, R::DX, 0)
        }
        _ => set_al(uc, 0xFF),
    }
}

/// AH=34h: ES:BX = the InDOS flag (0 whenever a program can look; the
/// critical-error flag is the byte before it).
pub fn indos(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let _ = uc.write_seg(data::SEG, data::SDA, &[0, 0]);
    set(uc, R::ES, data::SEG)?;
    set(uc, R::BX, data::INDOS)
}

/// AH=37h: AL=0 DL = the switch character, AL=1 set it from DL; AL=2 the
/// AVAILDEV flag (DL = FFh: the /DEV/ prefix is optional), AL=3 set it.
/// Other AL: AL = FFh.
pub fn switch_char(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dx = uc.reg(R::DX);
    match al(uc) {
        0 => {
            let c = if env.dos.switch_char == 0 {
                b'/'
            } else {
                env.dos.switch_char
            };
            set(uc, R::DX, (dx & 0xFF00) | u16::from(c))?;
            set_al(uc, 0)
        }
        1 => {
            env.dos.switch_char = dx as u8;
            set_al(uc, 0)
        }
        2 => {
            set(uc, R::DX, dx | 0x00FF)?;
            set_al(uc, 0)
        }
        3 => set_al(uc, 0),
        _ => set_al(uc, 0xFF),
    }
}

/// AH=52h: ES:BX = the list of lists; the word before it is the first MCB.
pub fn list_of_lists(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    if env.dos.first_mcb == 0 {
        return Err(crate::dos::unimplemented(
            uc,
            "INT 21h AH=52h without DOS memory".into(),
        ));
    }
    let _ = uc.write_seg(data::SEG, data::LOL - 2, &env.dos.first_mcb.to_le_bytes());
    set(uc, R::ES, data::SEG)?;
    set(uc, R::BX, data::LOL)
}

/// AH=59h (BX = 0): the last failing call's extended error: AX the code,
/// BH the class, BL the suggested action, CH the locus.
pub fn extended_error(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let e = env.dos.ext_error;
    set(uc, R::AX, e.code)?;
    set(uc, R::BX, u16::from(e.class) << 8 | u16::from(e.action))?;
    let cx = uc.reg(R::CX);
    set(uc, R::CX, u16::from(e.locus) << 8 | (cx & 0xFF))
}

/// AH=5Dh: AL=06h DS:SI = the swappable data area (CX its size, DX the
/// part always swapped); AL=0Ah set the extended error from the parameter
/// list at DS:DX (AX, BX, CX words: code, class/action, locus). The rest
/// are network server calls: error 1.
pub fn server(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    match al(uc) {
        0x06 => {
            set(uc, R::DS, data::SEG)?;
            set(uc, R::SI, data::SDA)?;
            set(uc, R::CX, data::SDA_SIZE)?;
            set(uc, R::DX, data::SDA_SIZE)?;
            ok(uc)
        }
        0x0A => {
            let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
            let mut b = [0u8; 6];
            let _ = uc.read_seg(ds, dx, &mut b);
            env.dos.ext_error = super::error::ExtError {
                code: u16::from_le_bytes([b[0], b[1]]),
                class: b[3],
                action: b[2],
                locus: b[5],
            };
            ok(uc)
        }
        _ => fail(env, uc, 1),
    }
}

/// AH=5Eh, 5Fh: machine name, printer setup and redirection belong to the
/// network redirector, which is not loaded: error 1, as DOS answers.
pub fn network(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    fail(env, uc, 1)
}
