//! INT 21h functions about drives: the default drive (0Eh, 19h), the disk
//! transfer address (1Ah, 2Fh), allocation and free space (1Bh, 1Ch, 36h),
//! drive parameter blocks (1Fh, 32h, 53h), disk reset (0Dh) and the volume
//! serial number (69h). The only drive is C:, the sandbox; A: and B: are
//! the phantom floppy letters DOS always reserves, and LASTDRIVE is E:.

use super::{al, fail, ok, set};
use crate::dos::Env;
use crate::dos::fs::{self, DosError};
use crate::dos::{data, set_al, set_carry};
use crate::machine::{Cpu, R, Stop, Uc};

/// Drive C: in INT 21h's 1-based numbering (0 = the default drive).
const C: u8 = 3;

/// Is DL (1-based, 0 = default) drive C:?
fn is_c(dl: u8) -> bool {
    dl == 0 || dl == C
}

/// AH=0Dh: flush buffers. Writes are not buffered here.
pub fn reset(_env: &mut Env, _uc: &mut Uc<'_>) -> Result<(), Stop> {
    Ok(())
}

/// AH=0Eh: select drive DL (0 = A:). Only C: can be selected; AL = the
/// number of drive letters (LASTDRIVE).
pub fn select_drive(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_al(uc, data::LAST_DRIVE)
}

/// AH=19h: the default drive, AL = 2 (C:).
pub fn current_drive(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_al(uc, C - 1)
}

/// AH=1Ah: set the DTA to DS:DX.
pub fn set_dta(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    env.dos.dta = (uc.reg(R::DS), uc.reg(R::DX));
    Ok(())
}

/// AH=2Fh: ES:BX = the DTA.
pub fn get_dta(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (seg, off) = env.dos.dta;
    set(uc, R::ES, seg)?;
    set(uc, R::BX, off)
}

/// AH=1Bh/1Ch as MS-DOS 4.0's MISC.ASM (`$SLEAZEFUNC`) answers: the
/// media byte is copied into one fixed cell of DOS's data (FATBYTE) at
/// each call, and DS:BX points there: DOS 1's pointer to the FAT itself
/// became a pointer to one byte, and what follows it is DOS's own data.
fn allocation_of(env: &Env, uc: &mut Uc<'_>, dl: u8) -> Result<(), Stop> {
    if !is_c(dl) {
        return set_al(uc, 0xFF);
    }
    let _ = uc.write_seg(data::SEG, data::MEDIA, &[data::MEDIA_BYTE]);
    let (_, (spc, _free, bps, total)) = fs::drive_numbers(env.drive.as_ref());
    set(uc, R::AX, (uc.reg(R::AX) & 0xFF00) | (spc & 0xFF))?;
    set(uc, R::CX, bps)?;
    set(uc, R::DX, total)?;
    set(uc, R::DS, data::SEG)?;
    set(uc, R::BX, data::MEDIA)
}

/// AH=1Bh: allocation information of the default drive: AL sectors per
/// cluster, CX bytes per sector, DX clusters, DS:BX the media byte.
pub fn allocation_default(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    allocation_of(env, uc, 0)
}

/// AH=1Ch: allocation information of drive DL (AL = FFh: no such drive).
pub fn allocation(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dl = uc.reg(R::DX) as u8;
    allocation_of(env, uc, dl)
}

/// AH=1Fh: DS:BX = the default drive's parameter block, AL = 0.
pub fn default_dpb(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    dpb_of(env, uc, 0)
}

/// AH=32h: DS:BX = the parameter block of drive DL (0 = default), AL = 0;
/// AL = FFh for a drive that does not exist.
pub fn dpb(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dl = uc.reg(R::DX) as u8;
    dpb_of(env, uc, dl)
}

fn dpb_of(env: &mut Env, uc: &mut Uc<'_>, dl: u8) -> Result<(), Stop> {
    if !is_c(dl) {
        super::record(env, DosError::INVALID_DRIVE.0);
        return set_al(uc, 0xFF);
    }
    let (sectors, free) = fs::drive_numbers(env.drive.as_ref());
    let _ = uc.write_seg(data::SEG, data::DPB_C, &data::dpb_c(sectors, free));
    set(uc, R::DS, data::SEG)?;
    set(uc, R::BX, data::DPB_C)?;
    set_al(uc, 0)
}

/// AH=36h: free space on drive DL: AX sectors per cluster, BX free
/// clusters, CX bytes per sector, DX clusters; AX = FFFFh for a drive that
/// does not exist.
pub fn free_space(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dl = uc.reg(R::DX) as u8;
    if !is_c(dl) {
        super::record(env, DosError::INVALID_DRIVE.0);
        return set(uc, R::AX, 0xFFFF);
    }
    let (_, (spc, free, bps, total)) = fs::drive_numbers(env.drive.as_ref());
    set(uc, R::AX, spc)?;
    set(uc, R::BX, free)?;
    set(uc, R::CX, bps)?;
    set(uc, R::DX, total)
}

/// AH=53h: build a drive parameter block at ES:BP from the BIOS parameter
/// block at DS:SI (the fields DOS 4+ derives from it).
pub fn bpb_to_dpb(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, si, es, bp) = (uc.reg(R::DS), uc.reg(R::SI), uc.reg(R::ES), uc.reg(R::BP));
    let mut b = [0u8; 0x19];
    if uc.read_seg(ds, si, &mut b).is_err() {
        return Ok(());
    }
    let w = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
    let (bps, spc, reserved, fats, root, total16, media, spf) =
        (w(0), b[2], w(3), b[5], w(6), w(8), b[0x0A], w(0x0B));
    let total = if total16 != 0 {
        u32::from(total16)
    } else {
        u32::from_le_bytes([b[0x15], b[0x16], b[0x17], b[0x18]])
    };
    let root_secs = (u32::from(root) * 32).div_ceil(u32::from(bps.max(1)));
    let first_root = u32::from(reserved) + u32::from(fats) * u32::from(spf);
    let first_data = first_root + root_secs;
    let clusters = total.saturating_sub(first_data) / u32::from(spc.max(1));
    let mut d = [0u8; 0x21];
    d[2..4].copy_from_slice(&bps.to_le_bytes());
    d[4] = spc.wrapping_sub(1);
    d[5] = spc.max(1).trailing_zeros() as u8;
    d[6..8].copy_from_slice(&reserved.to_le_bytes());
    d[8] = fats;
    d[9..0x0B].copy_from_slice(&root.to_le_bytes());
    d[0x0B..0x0D].copy_from_slice(&(first_data as u16).to_le_bytes());
    d[0x0D..0x0F].copy_from_slice(&((clusters + 1) as u16).to_le_bytes());
    d[0x0F..0x11].copy_from_slice(&spf.to_le_bytes());
    d[0x11..0x13].copy_from_slice(&(first_root as u16).to_le_bytes());
    d[0x17] = media;
    d[0x18] = 0xFF;
    d[0x1F..0x21].fill(0xFF);
    let _ = uc.write_seg(es, bp, &d);
    Ok(())
}

/// AH=69h: get (AL=0) or set (AL=1) the volume serial number of drive BL
/// (0 = default) through the info block at DS:DX: info level, serial,
/// volume label, file system type. Error 0Fh for a drive other than C:,
/// 01h for another AL.
pub fn serial(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let al = al(uc);
    if al > 1 {
        return fail(env, uc, DosError::INVALID_FUNCTION.0);
    }
    if !is_c(uc.reg(R::BX) as u8) {
        return fail(env, uc, DosError::INVALID_DRIVE.0);
    }
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    if al == 1 {
        let mut b = [0u8; 4];
        super::read_wrapping(uc, "DS", ds, dx.wrapping_add(2), &mut b)?;
        env.dos.volume_serial = Some(u32::from_le_bytes(b));
        return ok(uc);
    }
    super::write_wrapping(uc, "DS", ds, dx, &media_id(env))?;
    set_carry(uc, false)
}

/// The media ID block of C: (AH=69h AL=0, IOCTL 440Dh/0866h).
pub fn media_id(env: &Env) -> [u8; 0x19] {
    let mut b = [0u8; 0x19];
    let serial = env
        .dos
        .volume_serial
        .unwrap_or(crate::dos::DEFAULT_VOLUME_SERIAL);
    b[2..6].copy_from_slice(&serial.to_le_bytes());
    b[6..17].copy_from_slice(b"NO NAME    ");
    b[17..25].copy_from_slice(b"FAT16   ");
    b
}
