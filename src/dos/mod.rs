//! DOS and BIOS services, as far as this version implements them, and the
//! real-mode program loaders (COM, MZ, raw images and boot sectors).
//!
//! Implemented: INT 20h; INT 21h AH=02h, 09h, 19h, 25h, 30h, 35h, 40h (handles
//! 1 and 2), 4Ch, 51h, 62h; INT 10h AH=0Eh (teletype) and 0Fh; INT 11h, 12h;
//! INT 13h answers "no drive"; INT 16h AH=01h answers "no key"; INT 1Ah AH=00h
//! (ticks from a fixed clock). Anything else stops the program with
//! [`Stop::Unimplemented`] naming the function (win16.md: never a guess).

pub mod fs;

use crate::env::Env;
use crate::machine::{Cpu, Machine, MachineError, R, Stop, Uc};

/// DOS's own state.
#[derive(Debug, Clone, Default)]
pub struct Dos {
    /// Segment of the current PSP (INT 21h AH=51h/62h).
    pub psp: u16,
    /// Interrupt vectors set through AH=25h, as (segment, offset).
    pub vectors: std::collections::HashMap<u8, (u16, u16)>,
    /// BIOS tick count (INT 1Ah), advanced per call for a fixed clock.
    pub ticks: u32,
}

/// The stop for a service that is not implemented: names it and keeps the
/// caller's CS:IP (the INT instruction) and BP for the walk.
pub fn unimplemented(uc: &Uc<'_>, what: String) -> Stop {
    let ip = uc.reg(R::IP).wrapping_sub(2);
    Stop::Unimplemented {
        what,
        caller: (uc.reg(R::CS), ip, uc.reg(R::BP)),
    }
}

fn set_carry(uc: &mut Uc<'_>, on: bool) -> Result<(), Stop> {
    let f = uc.reg(R::FLAGS);
    let f = if on { f | 1 } else { f & !1 };
    uc.set_reg(R::FLAGS, f).map_err(host)
}

fn host(e: MachineError) -> Stop {
    Stop::Error(e.0)
}

/// Read a string ending in `term` at seg:off, at most `max` bytes, stopping
/// early at the segment limit.
pub fn read_until(uc: &Uc<'_>, seg: u16, off: u16, term: u8, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut o = off;
    for _ in 0..max {
        let mut b = [0u8];
        if uc.read_seg(seg, o, &mut b).is_err() || b[0] == term {
            break;
        }
        out.push(b[0]);
        o = o.wrapping_add(1);
    }
    out
}

/// INT 21h.
pub fn int21(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let ah = (ax >> 8) as u8;
    let al = ax as u8;
    match ah {
        0x02 => {
            let dl = uc.reg(R::DX) as u8;
            env.write_console(&[dl]);
        }
        0x09 => {
            let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
            let s = read_until(uc, ds, dx, b'$', 0x10000);
            env.write_console(&s);
            uc.set_reg(R::AX, (ax & 0xFF00) | 0x24).map_err(host)?;
        }
        0x19 => uc.set_reg(R::AX, (ax & 0xFF00) | 2).map_err(host)?,
        0x25 => {
            let v = (uc.reg(R::DS), uc.reg(R::DX));
            env.dos.vectors.insert(al, v);
        }
        0x30 => {
            // DOS 5.0, OEM 0 (what Windows 3.1 typically ran on).
            uc.set_reg(R::AX, 0x0005).map_err(host)?;
            uc.set_reg(R::BX, 0).map_err(host)?;
            uc.set_reg(R::CX, 0).map_err(host)?;
        }
        0x35 => {
            let (seg, off) = env.dos.vectors.get(&al).copied().unwrap_or((0, 0));
            uc.set_reg(R::ES, seg).map_err(host)?;
            uc.set_reg(R::BX, off).map_err(host)?;
        }
        0x40 => {
            let handle = uc.reg(R::BX);
            if handle != 1 && handle != 2 {
                return Err(unimplemented(
                    uc,
                    format!("INT 21h AH=40h on handle {handle}"),
                ));
            }
            let (ds, dx, cx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::CX));
            let mut buf = vec![0u8; cx as usize];
            if uc.read_seg(ds, dx, &mut buf).is_err() {
                uc.set_reg(R::AX, 5).map_err(host)?; // access denied
                return set_carry(uc, true);
            }
            env.write_console(&buf);
            uc.set_reg(R::AX, cx).map_err(host)?;
            set_carry(uc, false)?;
        }
        0x4C => return Err(Stop::Exited { code: al }),
        0x51 | 0x62 => uc.set_reg(R::BX, env.dos.psp).map_err(host)?,
        _ => return Err(unimplemented(uc, format!("INT 21h AH={ah:02X}h"))),
    }
    Ok(())
}

/// BIOS services.
pub fn bios(env: &mut Env, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let ah = (ax >> 8) as u8;
    match (intno, ah) {
        (0x10, 0x0E) => env.write_console(&[ax as u8]),
        (0x10, 0x0F) => {
            uc.set_reg(R::AX, 0x5003).map_err(host)?; // 80 columns, mode 3
            uc.set_reg(R::BX, uc.reg(R::BX) & 0x00FF).map_err(host)?;
        }
        (0x11, _) => uc.set_reg(R::AX, 0x0021).map_err(host)?,
        (0x12, _) => uc.set_reg(R::AX, 640).map_err(host)?,
        (0x13, _) => {
            uc.set_reg(R::AX, 0x8000 | (ax & 0xFF)).map_err(host)?; // timeout: no drive
            set_carry(uc, true)?;
        }
        (0x16, 0x01) | (0x16, 0x11) => {
            let f = uc.reg(R::FLAGS) | 0x40; // ZF: no key waiting
            uc.set_reg(R::FLAGS, f).map_err(host)?;
        }
        (0x1A, 0x00) => {
            env.dos.ticks = env.dos.ticks.wrapping_add(1);
            uc.set_reg(R::CX, (env.dos.ticks >> 16) as u16)
                .map_err(host)?;
            uc.set_reg(R::DX, env.dos.ticks as u16).map_err(host)?;
            uc.set_reg(R::AX, 0).map_err(host)?;
        }
        _ => return Err(unimplemented(uc, format!("INT {intno:02X}h AH={ah:02X}h"))),
    }
    Ok(())
}

/// Segment of the PSP of the first DOS program (its memory control block is
/// the paragraph before). Fixed so that addresses are reproducible.
pub const FIRST_PSP: u16 = 0x0800;
/// First paragraph past conventional memory.
pub const TOP_OF_MEMORY: u16 = 0xA000;

/// Build a DOS program segment prefix for a program owning memory up to
/// `end_seg`, with `tail` as its command tail.
pub fn make_psp(end_seg: u16, tail: &str) -> [u8; 0x100] {
    let mut p = [0u8; 0x100];
    p[0] = 0xCD; // INT 20h
    p[1] = 0x20;
    p[2..4].copy_from_slice(&end_seg.to_le_bytes());
    p[0x50] = 0xCD; // INT 21h; RETF: the DOS function dispatcher
    p[0x51] = 0x21;
    p[0x52] = 0xCB;
    let t = tail.as_bytes();
    let n = t.len().min(126);
    p[0x80] = n as u8;
    p[0x81..0x81 + n].copy_from_slice(&t[..n]);
    p[0x81 + n] = 0x0D;
    p
}

/// Where a real-mode program was put.
#[derive(Debug, Clone, Copy)]
pub struct RealLoad {
    /// PSP segment (0 for raw images).
    pub psp: u16,
    /// Load segment of the image (PSP + 0x10 for MZ, PSP for COM).
    pub load_seg: u16,
}

fn wl(m: &mut Machine, seg: u16, off: u16, data: &[u8]) -> Result<(), MachineError> {
    m.write_linear(u32::from(seg) * 16 + u32::from(off), data)
}

/// Load a `.COM` program (win16.md, DOS): PSP at [`FIRST_PSP`], code at
/// PSP:0100, CS = DS = ES = SS = PSP, SP = FFFE with a zero word pushed (a RET
/// reaches INT 20h at PSP:0000), BP = 0. A COM owns all free memory.
pub fn load_com(m: &mut Machine, code: &[u8], tail: &str) -> Result<RealLoad, MachineError> {
    let psp = FIRST_PSP;
    wl(m, psp, 0, &make_psp(TOP_OF_MEMORY, tail))?;
    wl(m, psp, 0x100, code)?;
    for r in [R::DS, R::ES, R::SS] {
        m.set_reg(r, psp)?;
    }
    m.set_reg(R::SP, 0xFFFE)?;
    wl(m, psp, 0xFFFE, &[0, 0])?;
    start_regs(m, psp)?;
    m.set_csip(psp, 0x100)?;
    Ok(RealLoad { psp, load_seg: psp })
}

fn start_regs(m: &mut Machine, psp: u16) -> Result<(), MachineError> {
    for r in [R::AX, R::BX, R::BP, R::SI, R::DI] {
        m.set_reg(r, 0)?;
    }
    m.set_reg(R::CX, 0x00FF)?;
    m.set_reg(R::DX, psp)
}

/// Load an MZ executable: PSP at [`FIRST_PSP`], load module at PSP+10h,
/// segment relocations applied, CS:IP and SS:SP from the header, DS = ES =
/// PSP.
pub fn load_mz(
    m: &mut Machine,
    mz: &crate::loader::mz::MzImage,
    tail: &str,
) -> Result<RealLoad, MachineError> {
    let psp = FIRST_PSP;
    let load = psp + 0x10;
    let paras = (mz.image.len() as u32).div_ceil(16);
    if u32::from(load) + paras > u32::from(TOP_OF_MEMORY) {
        return Err(MachineError(format!(
            "the load module ({} bytes) does not fit in conventional memory",
            mz.image.len()
        )));
    }
    wl(m, psp, 0, &make_psp(TOP_OF_MEMORY, tail))?;
    let mut image = mz.image.clone();
    for &(off, seg) in &mz.relocs {
        let at = (u32::from(seg) * 16 + u32::from(off)) as usize;
        if at + 2 <= image.len() {
            let v = u16::from_le_bytes([image[at], image[at + 1]]).wrapping_add(load);
            image[at..at + 2].copy_from_slice(&v.to_le_bytes());
        } else {
            // A relocation past the load module patches memory beyond it,
            // as DOS does.
            let lin = u32::from(load) * 16 + at as u32;
            let mut b = [0u8; 2];
            m.mem_read(u64::from(lin), &mut b)
                .map_err(|e| MachineError(format!("relocation: {e:?}")))?;
            let v = u16::from_le_bytes(b).wrapping_add(load);
            m.write_linear(lin, &v.to_le_bytes())?;
        }
    }
    wl(m, load, 0, &image)?;
    let h = &mz.header;
    m.set_reg(R::DS, psp)?;
    m.set_reg(R::ES, psp)?;
    m.set_reg(R::SS, h.e_ss.wrapping_add(load))?;
    m.set_reg(R::SP, h.e_sp)?;
    start_regs(m, psp)?;
    m.set_csip(h.e_cs.wrapping_add(load), h.e_ip)?;
    Ok(RealLoad {
        psp,
        load_seg: load,
    })
}

/// Load a raw image or boot sector at its load address; SS:SP = 0000:7C00
/// (where a BIOS leaves it for a boot sector), DL = 80h (the boot drive).
pub fn load_raw(
    m: &mut Machine,
    raw: &crate::loader::raw::RawImage,
) -> Result<RealLoad, MachineError> {
    let lin = u32::from(raw.load.0) * 16 + u32::from(raw.load.1);
    if u64::from(lin) + raw.bytes.len() as u64 > 0x10_FFF0 {
        return Err(MachineError(format!(
            "the image ({} bytes) does not fit at {:04X}:{:04X}",
            raw.bytes.len(),
            raw.load.0,
            raw.load.1
        )));
    }
    m.write_linear(lin, &raw.bytes)?;
    for r in [
        R::DS,
        R::ES,
        R::SS,
        R::AX,
        R::BX,
        R::CX,
        R::BP,
        R::SI,
        R::DI,
    ] {
        m.set_reg(r, 0)?;
    }
    m.set_reg(R::SP, 0x7C00)?;
    m.set_reg(R::DX, 0x0080)?;
    m.set_csip(raw.entry.0, raw.entry.1)?;
    Ok(RealLoad {
        psp: 0,
        load_seg: raw.load.0,
    })
}
