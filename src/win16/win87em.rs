//! WIN87EM: floating point for Win16 programs.
//!
//! Microsoft C (and other compilers' emulator libraries) compile an x87
//! instruction for Windows into a software interrupt (INT 34h-3Dh), and
//! the linker marks each site with an OS fixup; KERNEL's loader turns them
//! back into x87 instructions when it loads a segment on a machine with a
//! coprocessor (kernel/osfixup.rs has the forms and the rule).
//!
//! A program may also run an interrupt form nobody fixed up (code built
//! for the emulator without fixups): the interrupt handlers of INT
//! 34h-3Dh ([`emulator_int`]) do what WIN87EM's do when a coprocessor is
//! present: rewrite the instruction in place and run it again.
//!
//! # __fpMath
//!
//! The C runtime calls WIN87EM's `__fpMath` (ordinal 1) with the function
//! in BX (the services Wine documents for WIN87EM):
//!
//! | BX | service |
//! | --- | --- |
//! | 0 | install: initialize the coprocessor (FNINIT); AX = 0 |
//! | 1 | initialize again (FNINIT); AX = 0 |
//! | 2 | deinstall: FNINIT; AX = 0 |
//! | 3 | set the INT 3Eh handler to DX:AX: nothing to do with a coprocessor |
//! | 4 | load the control word AX (FLDCW); AX = it |
//! | 5 | AX = the control word |
//! | 6 | round ST(0) to an integer with the rounding of AX bits 10-11 (FRNDINT); AX = the control word |
//! | 7 | pop ST(0) as a 32-bit integer into DX:AX, rounding as AX bits 10-11 say (FISTP); out of range gives 80000000h, the integer indefinite |
//! | 8 | AX = the exception flags of the status word, which are then cleared (FNCLEX) |
//! | 9 | AX = the status word |
//! | 10 | AX = the number of registers in use on the stack |
//! | 11 | DX:AX = 1: a coprocessor is installed |
//! | 12 | keep AX (the NMI handler's word); AX unchanged |
//!
//! Any other function returns DX = AX = FFFFh, as WIN87EM does. The other
//! exports save and restore the coprocessor for a task switch:
//! `__Win87EmInfo(lpInfo, cb)` fills WINEM87INFO (version 0x0301, save
//! area size 94, data and code segments 0, `Have80x87` 1), `__Win87EmSave`
//! and `__Win87EmRestore(lpArea, cb)` write and read the 94-byte FSAVE
//! image (16-bit protected-mode layout: control, status and tag words,
//! instruction and operand pointers, then ST(0)..ST(7)); they return 0,
//! or 1 when the area is too small or cannot be reached.

use crate::dos::host;
use crate::machine::{Cpu, Fpu, R, Stop, Uc, read_fpu, write_fpu};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::kernel::osfixup::x87_form;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("WIN87EM", 1, "__FPMATH", &[], fp_math),
    Api::new("WIN87EM", 2, "WEP", &[Arg::W], wep),
    Api::new(
        "WIN87EM",
        3,
        "__WIN87EMRESTORE",
        &[Arg::L, Arg::W],
        em_restore,
    ),
    Api::new("WIN87EM", 4, "__WIN87EMSAVE", &[Arg::L, Arg::W], em_save),
    Api::new("WIN87EM", 5, "__WIN87EMINFO", &[Arg::L, Arg::W], em_info),
];

/// INT 34h-3Dh run by the program (module notes): rewrite the interrupt
/// form at CS:IP-2 into its x87 instruction and run it.
pub fn emulator_int(_env: &mut Env, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP).wrapping_sub(2));
    let mut code = [0u8; 3];
    let _ = uc.read_seg(cs, ip, &mut code);
    let Some(x87) = x87_form(&code).filter(|_| code[1] == intno) else {
        return Err(crate::dos::unimplemented(
            uc,
            format!("INT {intno:02X}h (a floating-point emulator interrupt not in emulator form)"),
        ));
    };
    if !crate::win16::write_code(uc, cs, ip, &x87) {
        return Err(Stop::Error(format!(
            "INT {intno:02X}h at {cs:04X}:{ip:04X}: the code cannot be patched"
        )));
    }
    crate::machine::record_event(
        uc,
        format!("WIN87EM: INT {intno:02X}h at {cs:04X}:{ip:04X} becomes x87 code {x87:02X?}"),
    );
    uc.set_reg(R::IP, ip).map_err(host)
}

/// The x87 after FNINIT.
fn initialized(mut f: Fpu) -> Fpu {
    f.cw = 0x037F;
    f.sw = 0;
    f.tag = 0xFFFF;
    f
}

fn fpu(uc: &Uc<'_>) -> Result<Fpu, Stop> {
    read_fpu(uc).map_err(|e| Stop::Error(e.0))
}

fn set_fpu(uc: &mut Uc<'_>, f: &Fpu) -> Result<(), Stop> {
    write_fpu(uc, f).map_err(|e| Stop::Error(e.0))
}

/// TOP, the physical register that is ST(0).
fn top(f: &Fpu) -> u16 {
    (f.sw >> 11) & 7
}

/// Is ST(0) empty?
fn st0_empty(f: &Fpu) -> bool {
    (f.tag >> (2 * top(f))) & 3 == 3
}

/// Pop the stack: ST(0)'s register becomes empty, TOP moves up.
fn pop(f: &mut Fpu) {
    let t = top(f);
    f.tag |= 3 << (2 * t);
    f.sw = (f.sw & !0x3800) | (((t + 1) & 7) << 11);
    f.st.rotate_left(1);
}

/// An 80-bit extended value: sign, biased exponent, 64-bit significand.
fn unpack(b: &[u8; 10]) -> (bool, u16, u64) {
    let mant = u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
    let se = u16::from_le_bytes([b[8], b[9]]);
    (se & 0x8000 != 0, se & 0x7FFF, mant)
}

/// The extended value of an integer (exact).
pub fn from_int(v: i64) -> [u8; 10] {
    let mut b = [0u8; 10];
    if v == 0 {
        return b;
    }
    let neg = v < 0;
    let mag = v.unsigned_abs();
    let shift = mag.leading_zeros();
    let mant = mag << shift;
    let exp = 16383 + 63 - shift as u16;
    b[..8].copy_from_slice(&mant.to_le_bytes());
    b[8..].copy_from_slice(&(exp | if neg { 0x8000 } else { 0 }).to_le_bytes());
    b
}

/// Round an extended value to an integer as rounding control `rc` (0
/// nearest even, 1 down, 2 up, 3 toward zero) says; None for a NaN, an
/// infinity or a value of 2^63 or more in magnitude.
pub fn to_int(b: &[u8; 10], rc: u16) -> Option<i64> {
    let (neg, exp, mant) = unpack(b);
    if exp == 0x7FFF {
        return None;
    }
    if mant == 0 {
        return Some(0);
    }
    let e = i32::from(exp) - 16383 - 63;
    let (int, rest, half, exact) = if e >= 0 {
        if e > 0 && mant.leading_zeros() < e as u32 {
            return None;
        }
        (u128::from(mant) << e, false, false, true)
    } else {
        let s = (-e) as u32;
        if s >= 128 {
            (0, true, false, false)
        } else {
            let m = u128::from(mant);
            let int = m >> s;
            let frac = m - (int << s);
            let half = 1u128 << (s - 1);
            (int, frac > half, frac == half, frac == 0)
        }
    };
    // `rest`: more than half; `half`: exactly half.
    let up = match rc & 3 {
        0 => rest || (half && int & 1 == 1),
        1 => neg && !exact,
        2 => !neg && !exact,
        _ => false,
    };
    let mag = int + u128::from(up);
    if neg {
        (mag <= 1u128 << 63).then(|| (mag as i128).wrapping_neg() as i64)
    } else {
        (mag < 1u128 << 63).then_some(mag as i64)
    }
}

/// WIN87EM.1 __fpMath: the service BX names (module notes), with its
/// registers; returns DX:AX.
pub fn fp_math(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let (ax, bx, dx) = (uc.reg(R::AX), uc.reg(R::BX), uc.reg(R::DX));
    let keep = |v: u16| u32::from(dx) << 16 | u32::from(v);
    let mut f = fpu(uc)?;
    let r = match bx {
        0..=2 => {
            set_fpu(uc, &initialized(f))?;
            keep(0)
        }
        3 | 12 => keep(ax),
        4 => {
            f.cw = ax;
            set_fpu(uc, &f)?;
            keep(ax)
        }
        5 => keep(f.cw),
        6 => {
            if !st0_empty(&f) {
                if let Some(v) = to_int(&f.st[0], (ax >> 10) & 3) {
                    f.st[0] = from_int(v);
                    set_fpu(uc, &f)?;
                }
            }
            keep(f.cw)
        }
        7 => {
            let v = if st0_empty(&f) {
                None
            } else {
                to_int(&f.st[0], (ax >> 10) & 3).and_then(|v| i32::try_from(v).ok())
            };
            pop(&mut f);
            set_fpu(uc, &f)?;
            v.map_or(0x8000_0000, |v| v as u32)
        }
        8 => {
            let flags = f.sw & 0x3F;
            f.sw &= !0x80FF;
            set_fpu(uc, &f)?;
            keep(flags)
        }
        9 => keep(f.sw),
        10 => {
            let used = (0..8).filter(|p| (f.tag >> (2 * p)) & 3 != 3).count();
            keep(used as u16)
        }
        11 => 1,
        _ => 0xFFFF_FFFF,
    };
    Ok(r)
}

/// WIN87EM.2 WEP(nExitType): 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The FSAVE image's size (16-bit protected mode).
pub const SAVE_AREA: usize = 94;

/// WIN87EM.5 __Win87EmInfo(lpInfo, cbInfo): WINEM87INFO (module notes);
/// 0, or 1 when the structure does not fit.
pub fn em_info(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if (a[1] as u16) < 12 {
        return Ok(1);
    }
    let mut b = Vec::with_capacity(12);
    for w in [0x0301u16, SAVE_AREA as u16, 0, 0, 1, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    Ok(u32::from(!farptr::write_bytes(uc, a[0], &b)))
}

/// WIN87EM.4 __Win87EmSave(lpArea, cbArea): the FSAVE image; the
/// coprocessor is initialized afterwards, as FSAVE does.
pub fn em_save(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if usize::from(a[1] as u16) < SAVE_AREA {
        return Ok(1);
    }
    let f = fpu(uc)?;
    let mut b = Vec::with_capacity(SAVE_AREA);
    for w in [f.cw, f.sw, f.tag, 0, 0, 0, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    for r in &f.st {
        b.extend_from_slice(r);
    }
    if !farptr::write_bytes(uc, a[0], &b) {
        return Ok(1);
    }
    set_fpu(uc, &initialized(f))?;
    Ok(0)
}

/// WIN87EM.3 __Win87EmRestore(lpArea, cbArea): loads an FSAVE image.
pub fn em_restore(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if usize::from(a[1] as u16) < SAVE_AREA {
        return Ok(1);
    }
    let Some(b) = farptr::read_bytes(uc, a[0], SAVE_AREA) else {
        return Ok(1);
    };
    let w = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
    let mut f = Fpu {
        cw: w(0),
        sw: w(1),
        tag: w(2),
        st: [[0; 10]; 8],
    };
    for (i, r) in f.st.iter_mut().enumerate() {
        r.copy_from_slice(&b[14 + 10 * i..24 + 10 * i]);
    }
    set_fpu(uc, &f)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn extended_integers_round_as_the_x87_does() {
        assert_eq!(to_int(&from_int(0), 0), Some(0));
        assert_eq!(to_int(&from_int(-12345), 3), Some(-12345));
        assert_eq!(to_int(&from_int(i64::MIN + 1), 0), Some(i64::MIN + 1));
        // 2.5: nearest even 2, down 2, up 3, chop 2; -2.5: -2, -3, -2, -2.
        let two_and_half = {
            let mut b = from_int(5);
            let e = u16::from_le_bytes([b[8], b[9]]) - 1;
            b[8..].copy_from_slice(&e.to_le_bytes());
            b
        };
        let neg = {
            let mut b = two_and_half;
            b[9] |= 0x80;
            b
        };
        assert_eq!(
            (0..4)
                .map(|rc| to_int(&two_and_half, rc))
                .collect::<Vec<_>>(),
            vec![Some(2), Some(2), Some(3), Some(2)]
        );
        assert_eq!(
            (0..4).map(|rc| to_int(&neg, rc)).collect::<Vec<_>>(),
            vec![Some(-2), Some(-3), Some(-2), Some(-2)]
        );
        // An infinity has no integer.
        let mut inf = [0u8; 10];
        inf[7] = 0x80;
        inf[8] = 0xFF;
        inf[9] = 0x7F;
        assert_eq!(to_int(&inf, 0), None);
    }
}
