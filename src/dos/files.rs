//! INT 21h's file and directory functions over the sandboxed drive
//! ([`super::fs::Drive`]): read the registers and guest memory, call the
//! drive, write back the result, or CF set and the DOS error code in AX.

use super::fs::{self, DosError, HostPath};
use super::{console_out, host, read_until, set_carry};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};

/// Longest ASCIZ path DOS accepts (with room to spare).
const MAX_PATH: usize = 128;

fn path_at(uc: &Uc<'_>, seg: u16, off: u16) -> Vec<u8> {
    read_until(uc, seg, off, 0, MAX_PATH)
}

fn fail(uc: &mut Uc<'_>, e: DosError) -> Result<(), Stop> {
    uc.set_reg(R::AX, e.0).map_err(host)?;
    set_carry(uc, true)
}

fn ok_ax(uc: &mut Uc<'_>, ax: u16) -> Result<(), Stop> {
    uc.set_reg(R::AX, ax).map_err(host)?;
    set_carry(uc, false)
}

/// The functions this module serves.
pub fn serves(ah: u8) -> bool {
    matches!(ah, 0x36 | 0x39..=0x43 | 0x45..=0x47 | 0x4E | 0x4F | 0x56 | 0x57 | 0x5A | 0x5B | 0x60 | 0x6C)
}

/// Handle one file-system function.
pub fn call(env: &mut Env, uc: &mut Uc<'_>, ah: u8, al: u8) -> Result<(), Stop> {
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    let (ds, si, es, di) = (uc.reg(R::DS), uc.reg(R::SI), uc.reg(R::ES), uc.reg(R::DI));
    // Console handles are the console, whatever the drive says.
    if ah == 0x40 || ah == 0x3F {
        let device = match env.drive.as_mut() {
            Some(d) => d.handle_device(bx),
            None => Ok(if bx <= 4 { Some("CON") } else { None }),
        };
        match device {
            Err(e) => return fail(uc, e),
            Ok(Some(dev)) => return device_io(env, uc, ah, bx, dev),
            Ok(None) => {}
        }
    }
    let dta_at = env.dos.dta;
    let Some(drive) = env.drive.as_mut() else {
        return Err(super::unimplemented(
            uc,
            format!("INT 21h AH={ah:02X}h without a drive"),
        ));
    };
    let r: Result<(), DosError> = (|| {
        match ah {
            0x36 => {
                let (spc, free, bps, total) = drive.disk_free();
                uc.set_reg(R::AX, spc)
                    .map_err(|_| DosError::INVALID_FUNCTION)?;
                uc.set_reg(R::BX, free)
                    .map_err(|_| DosError::INVALID_FUNCTION)?;
                uc.set_reg(R::CX, bps)
                    .map_err(|_| DosError::INVALID_FUNCTION)?;
                uc.set_reg(R::DX, total)
                    .map_err(|_| DosError::INVALID_FUNCTION)?;
            }
            0x39 => drive.mkdir(&path_at(uc, ds, dx))?,
            0x3A => drive.rmdir(&path_at(uc, ds, dx))?,
            0x3B => drive.chdir(&path_at(uc, ds, dx))?,
            0x3C => {
                let h = drive.create(&path_at(uc, ds, dx), cx as u8)?;
                uc.set_reg(R::AX, h).ok();
            }
            0x3D => {
                let h = drive.open(&path_at(uc, ds, dx), al)?;
                uc.set_reg(R::AX, h).ok();
            }
            0x3E => drive.close(bx)?,
            0x3F => {
                let n = transfer_len(uc, ds, dx, cx)?;
                let data = drive.read(bx, n)?;
                uc.write_seg(ds, dx, &data)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                uc.set_reg(R::AX, data.len() as u16).ok();
            }
            0x40 => {
                let mut buf = vec![0u8; usize::from(transfer_len(uc, ds, dx, cx)?)];
                uc.read_seg(ds, dx, &mut buf)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                let n = drive.write(bx, &buf)?;
                uc.set_reg(R::AX, n as u16).ok();
            }
            0x41 => drive.delete(&path_at(uc, ds, dx))?,
            0x42 => {
                let off = ((u32::from(cx) << 16) | u32::from(dx)) as i32;
                let pos = drive.seek(bx, off, al)?;
                uc.set_reg(R::AX, pos as u16).ok();
                uc.set_reg(R::DX, (pos >> 16) as u16).ok();
            }
            0x43 => match al {
                0 => {
                    let a = drive.get_attr(&path_at(uc, ds, dx))?;
                    uc.set_reg(R::CX, u16::from(a)).ok();
                    uc.set_reg(R::AX, u16::from(a)).ok();
                }
                1 => drive.set_attr(&path_at(uc, ds, dx), cx as u8)?,
                _ => return Err(DosError::INVALID_FUNCTION),
            },
            0x45 => {
                let h = drive.dup(bx)?;
                uc.set_reg(R::AX, h).ok();
            }
            0x46 => drive.dup2(bx, cx)?,
            0x47 => {
                let dl = dx as u8;
                if dl != 0 && dl != 3 {
                    return Err(DosError::INVALID_DRIVE);
                }
                let mut cwd = drive.getcwd().into_bytes();
                cwd.truncate(63);
                cwd.push(0);
                uc.write_seg(ds, si, &cwd)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                uc.set_reg(R::AX, 0x0100).ok();
            }
            0x4E => {
                let dta = drive.find_first_dta(&path_at(uc, ds, dx), cx as u8)?;
                let (seg, off) = dta_at;
                uc.write_seg(seg, off, &dta)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                uc.set_reg(R::AX, 0).ok();
            }
            0x4F => {
                let (seg, off) = dta_at;
                let mut cur = [0u8; fs::DTA_LEN];
                uc.read_seg(seg, off, &mut cur)
                    .map_err(|_| DosError::NO_MORE_FILES)?;
                let dta = drive.find_next_dta(&cur)?;
                uc.write_seg(seg, off, &dta)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                uc.set_reg(R::AX, 0).ok();
            }
            0x56 => {
                let old = path_at(uc, ds, dx);
                let new = path_at(uc, es, di);
                drive.rename(&old, &new)?;
            }
            0x57 => match al {
                0 => {
                    let (time, date) = drive.file_time(bx)?;
                    uc.set_reg(R::CX, time).ok();
                    uc.set_reg(R::DX, date).ok();
                }
                1 => drive.set_file_time(bx, cx, dx)?,
                _ => return Err(DosError::INVALID_FUNCTION),
            },
            0x5A => {
                // Create a uniquely named file in the directory at DS:DX
                // (which ends in a backslash); the name is appended there.
                let (h, mut p) = drive.create_temp(&path_at(uc, ds, dx), cx as u8)?;
                p.push(0);
                uc.write_seg(ds, dx, &p)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
                uc.set_reg(R::AX, h).ok();
            }
            0x5B => {
                let h = drive.create_new(&path_at(uc, ds, dx), cx as u8)?;
                uc.set_reg(R::AX, h).ok();
            }
            0x60 => {
                let p = path_at(uc, ds, si);
                let full = match drive.resolve(&p)? {
                    HostPath::Device(d) => format!("C:/{d}"),
                    HostPath::Dir { dos, .. }
                    | HostPath::File { dos, .. }
                    | HostPath::Missing { dos, .. } => format!("C:{dos}"),
                };
                let mut b = full.into_bytes();
                b.truncate(127);
                b.push(0);
                uc.write_seg(es, di, &b)
                    .map_err(|_| DosError::ACCESS_DENIED)?;
            }
            0x6C => {
                if al != 0 {
                    return Err(DosError::INVALID_FUNCTION);
                }
                let (h, status) = drive.extended_open(&path_at(uc, ds, si), bx, cx as u8, dx)?;
                uc.set_reg(R::AX, h).ok();
                uc.set_reg(R::CX, status).ok();
            }
            _ => return Err(DosError::INVALID_FUNCTION),
        }
        Ok(())
    })();
    match r {
        Ok(()) => set_carry(uc, false),
        Err(e) => fail(uc, e),
    }
}

/// Guest memory as DOS reaches it (`reg` names the segment register the
/// program passed it in): its 16-bit offsets wrap past FFFFh to the start
/// of the same segment (real mode), as the 8086's address arithmetic does.
/// A protected-mode segment that ends before is a general-protection fault
/// at the caller (the INT 21h).
pub(crate) fn read_wrapping(
    uc: &Uc<'_>,
    reg: &'static str,
    seg: u16,
    off: u16,
    buf: &mut [u8],
) -> Result<(), Stop> {
    let first = buf.len().min(0x1_0000 - usize::from(off));
    let (a, b) = buf.split_at_mut(first);
    uc.read_seg(seg, off, a)
        .and_then(|()| uc.read_seg(seg, 0, b))
        .map_err(|_| access_fault(uc, reg, seg, off, false))
}

/// [`read_wrapping`] for writing.
pub(crate) fn write_wrapping(
    uc: &mut Uc<'_>,
    reg: &'static str,
    seg: u16,
    off: u16,
    data: &[u8],
) -> Result<(), Stop> {
    let first = data.len().min(0x1_0000 - usize::from(off));
    let (a, b) = data.split_at(first);
    uc.write_seg(seg, off, a)
        .and_then(|()| uc.write_seg(seg, 0, b))
        .map_err(|_| access_fault(uc, reg, seg, off, true))
}

fn access_fault(uc: &Uc<'_>, reg: &'static str, seg: u16, off: u16, write: bool) -> Stop {
    let regs = uc.regs();
    let mut r = regs;
    r.ip = regs.ip.wrapping_sub(2);
    let d = uc.descriptor_of(seg);
    Stop::Fault(crate::machine::Fault::with_cause(
        13,
        r,
        crate::machine::Cause::Access {
            segment: reg,
            selector: seg,
            offset: off,
            size: 1,
            write,
            limit: d.map(|d| d.limit),
            linear: d.map(|d| d.base.wrapping_add(u32::from(off))),
        },
    ))
}

/// How many of `cx` bytes at `seg:off` a handle read or write transfers.
/// DOS cuts a transfer that would run past the end of its buffer's segment
/// at that end (MS-DOS 2.0's SETUP, DISK.ASM: "see if it will fit in one
/// segment"; a buffer at offset 0 gets at most FFFFh bytes) and returns
/// the shorter count, with no error. A protected-mode segment ends at its
/// limit; a selector that is no segment is error 5.
fn transfer_len(uc: &Uc<'_>, seg: u16, off: u16, cx: u16) -> Result<u16, DosError> {
    let d = uc.descriptor_of(seg).ok_or(DosError::ACCESS_DENIED)?;
    let end = if d.limit >= 0xFFFF && off == 0 {
        0xFFFF
    } else {
        (d.limit + 1).saturating_sub(u32::from(off))
    };
    Ok(cx.min(end.min(0xFFFF) as u16))
}

/// Reads and writes on a device handle.
fn device_io(env: &mut Env, uc: &mut Uc<'_>, ah: u8, _h: u16, dev: &str) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let cx = match transfer_len(uc, ds, dx, uc.reg(R::CX)) {
        Ok(n) => n,
        Err(e) => return fail(uc, e),
    };
    if ah == 0x40 {
        let mut buf = vec![0u8; usize::from(cx)];
        if uc.read_seg(ds, dx, &mut buf).is_err() {
            return fail(uc, DosError::ACCESS_DENIED);
        }
        if dev == "CON" {
            console_out(env, uc, &buf);
        }
        return ok_ax(uc, cx);
    }
    // Reading: CON is standard input; NUL and the rest are empty.
    let mut buf = Vec::new();
    if dev == "CON" {
        while buf.len() < usize::from(cx) {
            match env.dos.read_input() {
                Some(b) => buf.push(b),
                None => break,
            }
        }
    }
    if uc.write_seg(ds, dx, &buf).is_err() {
        return fail(uc, DosError::ACCESS_DENIED);
    }
    ok_ax(uc, buf.len() as u16)
}
