//! INT 21h AH=44h, IOCTL, for handles and drives, as MS-DOS 5 answers for
//! its standard devices (CON, AUX, PRN, NUL, CLOCK$), files on the sandbox
//! drive C:, and the drives A: to E: (only C: exists; it is a fixed, local
//! disk whose driver has no IOCTL read/write).
//!
//! Device information (AL=00h) for a device: bit 7 set, bit 0 console
//! input, 1 console output, 2 NUL, 3 clock, 4 special (INT 29h), 5 binary
//! mode, 6 not at end of input; bit 14 the device takes IOCTL strings. For
//! a file: the drive (2 = C:) in bits 0-5, bit 6 set while the file has not
//! been written. Setting it (AL=01h) changes only bit 5 (binary mode) of a
//! device; a file is error 1.

use super::{al, fail, ok, set, with_drive};
use crate::dos::Env;
use crate::dos::fs::DosError;
use crate::dos::set_al;
use crate::machine::{Cpu, R, Stop, Uc};

/// The information word of handles 0-4 without a drive.
fn standard_info(h: u16) -> Option<u16> {
    match h {
        0..=2 => Some(0x80D3),
        3 => Some(0x80C0),
        4 => Some(0xA8C0),
        _ => None,
    }
}

/// Is BL (0 = default, 1 = A:) drive C:?
fn drive_c(bl: u8) -> Result<(), DosError> {
    if bl == 0 || bl == 3 {
        Ok(())
    } else {
        Err(DosError::INVALID_DRIVE)
    }
}

/// AH=44h.
pub fn run(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let sub = al(uc);
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    let bl = bx as u8;
    if env.drive.is_none() {
        // Only the standard handles exist.
        return match (sub, standard_info(bx)) {
            (0x00, Some(info)) => {
                set(uc, R::DX, info)?;
                ok(uc)
            }
            (0x01, Some(_)) => ok(uc),
            (0x06, Some(_)) => {
                let r = if bx != 0 || super::console::console_ready(env, uc) {
                    0xFF
                } else {
                    0
                };
                set_al(uc, r)?;
                ok(uc)
            }
            (0x07, Some(_)) => {
                set_al(uc, 0xFF)?;
                ok(uc)
            }
            (0x00..=0x07 | 0x0A | 0x0C, None) => fail(env, uc, DosError::INVALID_HANDLE.0),
            _ => drive_ioctl(env, uc, sub, bl, cx, dx),
        };
    }
    match sub {
        0x00..=0x03 | 0x06 | 0x07 | 0x0A | 0x0C | 0x10 => {}
        _ => return drive_ioctl(env, uc, sub, bl, cx, dx),
    }
    let input_waiting = super::console::console_ready(env, uc);
    with_drive(env, uc, |d, uc, _| {
        let info = d.ioctl_info(bx)?;
        let device = info & 0x80 != 0;
        match sub {
            0x00 => {
                uc.set_reg(R::DX, info).ok();
                uc.set_reg(R::AX, info).ok();
            }
            0x01 => {
                if !device || dx & 0xFF00 != 0 {
                    return Err(DosError::INVALID_FUNCTION);
                }
            }
            // Control strings: none of these devices takes them.
            0x02 | 0x03 | 0x0C | 0x10 => return Err(DosError::INVALID_FUNCTION),
            0x06 => {
                let ready = if device {
                    info & 1 == 0 || input_waiting
                } else {
                    d.input_ready(bx)?
                };
                let ax = uc.reg(R::AX);
                uc.set_reg(R::AX, (ax & 0xFF00) | if ready { 0xFF } else { 0 })
                    .ok();
            }
            0x07 => {
                let ax = uc.reg(R::AX);
                uc.set_reg(R::AX, (ax & 0xFF00) | 0xFF).ok();
            }
            // AL=0Ah: the handle is local (DX bit 15 clear).
            _ => {
                uc.set_reg(R::DX, 0).ok();
            }
        }
        Ok(())
    })
}

/// The drive sub-functions (BL = drive, 0 = default).
fn drive_ioctl(
    env: &mut Env,
    uc: &mut Uc<'_>,
    sub: u8,
    bl: u8,
    cx: u16,
    dx: u16,
) -> Result<(), Stop> {
    let r: Result<(), DosError> = (|| {
        match sub {
            // IOCTL read/write of a block device: C:'s driver has none.
            0x04 | 0x05 => {
                drive_c(bl)?;
                Err(DosError::INVALID_FUNCTION)
            }
            // Removable? AX = 1: the fixed disk.
            0x08 => {
                drive_c(bl)?;
                uc.set_reg(R::AX, 1).ok();
                Ok(())
            }
            // Remote? DX bit 12 clear (local); the rest is the block
            // driver's attribute word, IO.SYS's disk driver's 0842h
            // (removable-media calls, generic IOCTL, 32-bit sectors).
            0x09 => {
                drive_c(bl)?;
                uc.set_reg(R::DX, 0x0842).ok();
                Ok(())
            }
            // Sharing retry count and delay: accepted.
            0x0B => Ok(()),
            0x0D => {
                drive_c(bl)?;
                generic_block(env, uc, cx, dx)
            }
            // Logical drive map: one letter per drive (AL = 0).
            0x0E | 0x0F => {
                drive_c(bl)?;
                let ax = uc.reg(R::AX);
                uc.set_reg(R::AX, ax & 0xFF00).ok();
                Ok(())
            }
            0x11 => {
                drive_c(bl)?;
                Err(DosError::INVALID_FUNCTION)
            }
            _ => Err(DosError::INVALID_FUNCTION),
        }
    })();
    match r {
        Ok(()) => ok(uc),
        Err(e) => fail(env, uc, e.0),
    }
}

/// AX=440Dh, generic IOCTL for C: (CH = 08h, disk): CL=60h the device
/// parameters at DS:DX (a fixed disk with C:'s BIOS parameter block),
/// CL=66h the media ID (serial, label, file system). Other requests are
/// not supported by the driver (error 1).
fn generic_block(env: &mut Env, uc: &mut Uc<'_>, cx: u16, dx: u16) -> Result<(), DosError> {
    let ds = uc.reg(R::DS);
    match cx {
        0x0860 => {
            let (sectors, free) = crate::dos::fs::drive_numbers(env.drive.as_ref());
            let dpb = crate::dos::data::dpb_c(sectors, free);
            let (spc, _, bps, _) = free;
            let mut p = [0u8; 0x26];
            p[1] = 5; // fixed disk
            p[2..4].copy_from_slice(&1u16.to_le_bytes()); // not removable
            // The BIOS parameter block at +7.
            p[7..9].copy_from_slice(&bps.to_le_bytes());
            p[9] = spc as u8;
            p[0x0A..0x0C].copy_from_slice(&dpb[6..8]);
            p[0x0C] = dpb[8];
            p[0x0D..0x0F].copy_from_slice(&dpb[9..0x0B]);
            p[0x11] = crate::dos::data::MEDIA_BYTE;
            p[0x12..0x14].copy_from_slice(&dpb[0x0F..0x11]);
            p[0x14..0x16].copy_from_slice(&63u16.to_le_bytes());
            p[0x16..0x18].copy_from_slice(&16u16.to_le_bytes());
            p[0x1C..0x20].copy_from_slice(&sectors.to_le_bytes());
            uc.write_seg(ds, dx, &p)
                .map_err(|_| DosError::ACCESS_DENIED)
        }
        0x0866 => uc
            .write_seg(ds, dx, &super::disk::media_id(env))
            .map_err(|_| DosError::ACCESS_DENIED),
        _ => Err(DosError::INVALID_FUNCTION),
    }
}
