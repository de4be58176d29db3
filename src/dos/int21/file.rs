//! INT 21h's handle functions over the sandboxed drive ([`Drive`]): create,
//! open, close, read, write, seek, duplicate, date and time, temporary and
//! new files, locks, the handle count, commit and extended open. Each reads
//! the registers and guest memory, calls the drive with the current
//! process's job file table, and writes back the result, or CF set and the
//! DOS error code in AX (see [`super::with_drive`]).

use super::{al, fail, ok, path_at, set, with_drive};
use crate::dos::Env;
use crate::dos::fs::{DosError, Drive};
use crate::dos::{console_out, psp};
use crate::machine::{Cpu, R, Stop, Uc};

fn regs(uc: &Uc<'_>) -> (u16, u16, u16, u16, u16) {
    (
        uc.reg(R::BX),
        uc.reg(R::CX),
        uc.reg(R::DX),
        uc.reg(R::DS),
        uc.reg(R::SI),
    )
}

/// Remember whether the file behind handle `h` is inherited by children
/// (bit 7 of the open mode clear) or not.
fn note_inheritance(dos: &mut crate::dos::Dos, drive: &Drive, h: u16, mode: u8) {
    if let Ok(i) = drive.sft_index_of(h) {
        if mode & 0x80 != 0 {
            dos.no_inherit.insert(i);
        } else {
            dos.no_inherit.remove(&i);
        }
    }
}

/// AH=3Ch: create or truncate the file at DS:DX with attributes CX; AX =
/// handle.
pub fn create(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (_, cx, dx, ds, _) = regs(uc);
    with_drive(env, uc, |d, uc, dos| {
        let h = d.create(&path_at(uc, ds, dx), cx as u8)?;
        note_inheritance(dos, d, h, 0);
        uc.set_reg(R::AX, h).ok();
        Ok(())
    })
}

/// AH=3Dh: open the file at DS:DX with mode AL; AX = handle.
pub fn open(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (_, _, dx, ds, _) = regs(uc);
    let mode = al(uc);
    with_drive(env, uc, |d, uc, dos| {
        let h = d.open(&path_at(uc, ds, dx), mode)?;
        note_inheritance(dos, d, h, mode);
        uc.set_reg(R::AX, h).ok();
        Ok(())
    })
}

/// AH=3Eh: close handle BX.
pub fn close(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let bx = uc.reg(R::BX);
    if env.drive.is_none() && bx <= 4 {
        return ok(uc);
    }
    with_drive(env, uc, |d, _, _| d.close(bx))
}

/// Which device handle BX is, if any (console handles work without a
/// drive).
fn device_of(env: &mut Env, uc: &Uc<'_>, bx: u16) -> Result<Option<&'static str>, DosError> {
    match env.drive.as_mut() {
        Some(d) => {
            if uc.mode() == crate::walk::CpuMode::Real && env.dos.psp != 0 {
                psp::load_jft(uc, env.dos.psp, d);
            }
            d.handle_device(bx)
        }
        None => Ok(if bx <= 4 { Some("CON") } else { None }),
    }
}

/// AH=3Fh: read CX bytes from handle BX into DS:DX; AX = bytes read.
pub fn read(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx, dx, ds, _) = regs(uc);
    match device_of(env, uc, bx) {
        Err(e) => return fail(env, uc, e.0),
        Ok(Some(dev)) => return device_io(env, uc, false, dev),
        Ok(None) => {}
    }
    with_drive(env, uc, |d, uc, _| {
        let data = d.read(bx, super::transfer_len(uc, ds, dx, cx)?)?;
        uc.write_seg(ds, dx, &data)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        uc.set_reg(R::AX, data.len() as u16).ok();
        Ok(())
    })
}

/// AH=40h: write CX bytes at DS:DX to handle BX; AX = bytes written. CX =
/// 0 truncates or extends the file to the handle's position.
pub fn write(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx, dx, ds, _) = regs(uc);
    match device_of(env, uc, bx) {
        Err(e) => return fail(env, uc, e.0),
        Ok(Some(dev)) => return device_io(env, uc, true, dev),
        Ok(None) => {}
    }
    with_drive(env, uc, |d, uc, _| {
        let mut buf = vec![0u8; usize::from(super::transfer_len(uc, ds, dx, cx)?)];
        uc.read_seg(ds, dx, &mut buf)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        let n = d.write(bx, &buf)?;
        uc.set_reg(R::AX, n as u16).ok();
        Ok(())
    })
}

/// Reads and writes on a device handle: CON is standard input and the
/// console; NUL, AUX, PRN and the rest swallow writes and read nothing.
fn device_io(env: &mut Env, uc: &mut Uc<'_>, write: bool, dev: &str) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let cx = match super::transfer_len(uc, ds, dx, uc.reg(R::CX)) {
        Ok(n) => n,
        Err(e) => return fail(env, uc, e.0),
    };
    if write {
        let mut buf = vec![0u8; usize::from(cx)];
        if uc.read_seg(ds, dx, &mut buf).is_err() {
            return fail(env, uc, DosError::ACCESS_DENIED.0);
        }
        if dev == "CON" {
            console_out(env, uc, &buf);
        }
        set(uc, R::AX, cx)?;
        return ok(uc);
    }
    let mut buf = Vec::new();
    if dev == "CON" && env.dos.console_keyboard {
        buf = super::console::read_console_handle(env, uc, usize::from(cx))?;
    } else if dev == "CON" {
        while buf.len() < usize::from(cx) {
            match env.dos.read_input() {
                Some(b) => buf.push(b),
                None => break,
            }
        }
    }
    if uc.write_seg(ds, dx, &buf).is_err() {
        return fail(env, uc, DosError::ACCESS_DENIED.0);
    }
    set(uc, R::AX, buf.len() as u16)?;
    ok(uc)
}

/// AH=42h: move handle BX's position by CX:DX from the start (AL=0), the
/// current position (1) or the end (2); DX:AX = the new position.
pub fn seek(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx, dx, _, _) = regs(uc);
    let whence = al(uc);
    with_drive(env, uc, |d, uc, _| {
        let off = ((u32::from(cx) << 16) | u32::from(dx)) as i32;
        let pos = d.seek(bx, off, whence)?;
        uc.set_reg(R::AX, pos as u16).ok();
        uc.set_reg(R::DX, (pos >> 16) as u16).ok();
        Ok(())
    })
}

/// AH=45h: AX = a new handle for handle BX's file.
pub fn dup(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let bx = uc.reg(R::BX);
    with_drive(env, uc, |d, uc, _| {
        let h = d.dup(bx)?;
        uc.set_reg(R::AX, h).ok();
        Ok(())
    })
}

/// AH=46h: make handle CX refer to handle BX's file.
pub fn dup2(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx) = (uc.reg(R::BX), uc.reg(R::CX));
    with_drive(env, uc, |d, _, _| d.dup2(bx, cx))
}

/// AH=57h: get (AL=0: CX time, DX date) or set (AL=1) handle BX's date and
/// time. Other AL: error 1.
pub fn date_time(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx, dx, _, _) = regs(uc);
    let sub = al(uc);
    with_drive(env, uc, |d, uc, _| match sub {
        0 => {
            let (time, date) = d.file_time(bx)?;
            uc.set_reg(R::CX, time).ok();
            uc.set_reg(R::DX, date).ok();
            Ok(())
        }
        1 => d.set_file_time(bx, cx, dx),
        _ => Err(DosError::INVALID_FUNCTION),
    })
}

/// AH=5Ah: create a file with a unique name in the directory DS:DX (which
/// ends in a backslash, or is empty for the current directory); the name
/// is appended there; AX = handle.
pub fn create_temp(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (_, cx, dx, ds, _) = regs(uc);
    with_drive(env, uc, |d, uc, dos| {
        let (h, mut p) = d.create_temp(&path_at(uc, ds, dx), cx as u8)?;
        note_inheritance(dos, d, h, 0);
        p.push(0);
        uc.write_seg(ds, dx, &p)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        uc.set_reg(R::AX, h).ok();
        Ok(())
    })
}

/// AH=5Bh: create the file at DS:DX, which must not exist (error 50h).
pub fn create_new(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (_, cx, dx, ds, _) = regs(uc);
    with_drive(env, uc, |d, uc, dos| {
        let h = d.create_new(&path_at(uc, ds, dx), cx as u8)?;
        note_inheritance(dos, d, h, 0);
        uc.set_reg(R::AX, h).ok();
        Ok(())
    })
}

/// AH=5Ch: lock (AL=0) or unlock (AL=1) a region of handle BX. Region
/// locks are SHARE's, and SHARE is not loaded (INT 2Fh AX=1000h says so):
/// DOS then answers error 1 for an open handle, 6 for a closed one.
pub fn lock(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let bx = uc.reg(R::BX);
    with_drive(env, uc, |d, _, _| {
        d.sft_index_of(bx)?;
        Err(DosError::INVALID_FUNCTION)
    })
}

/// AH=67h: set the number of handles of the process to BX. More than 20
/// move the job file table into a block of DOS memory (PSP:32h/34h), as
/// DOS does; 20 or fewer keep the PSP's own table. Error 4 when open
/// handles would not fit, 8 without the memory.
pub fn handle_count(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let want = usize::from(uc.reg(R::BX));
    let p = env.dos.psp;
    if env.dos.first_mcb == 0 || p == 0 {
        return fail(env, uc, DosError::INVALID_FUNCTION.0);
    }
    let table = psp::jft(uc, p);
    let open = table.iter().rposition(|&b| b != 0xFF).map_or(0, |i| i + 1);
    let n = want.clamp(psp::DEFAULT_HANDLES, 255);
    if open > n {
        return fail(env, uc, DosError::TOO_MANY_OPEN_FILES.0);
    }
    if n == table.len() {
        return ok(uc);
    }
    let mut new = table.clone();
    new.resize(n, 0xFF);
    let (seg, off) = if n <= psp::DEFAULT_HANDLES {
        (p, psp::DEFAULT_JFT as u16)
    } else {
        let paras = (n as u16).div_ceil(16);
        match crate::dos::memory::allocate_with(uc, env.dos.first_mcb, p, paras, env.dos.strategy) {
            Ok(seg) => (seg, 0),
            Err((code, _)) => return fail(env, uc, code),
        }
    };
    let (old_seg, old_off) = psp::far(uc, p, psp::JFT_POINTER);
    uc.write_seg(seg, off, &new)
        .map_err(|e| Stop::Error(e.to_string()))?;
    psp::set_word(uc, p, psp::JFT_SIZE, n as u16);
    psp::set_word(uc, p, psp::JFT_POINTER, off);
    psp::set_word(uc, p, psp::JFT_POINTER + 2, seg);
    // A table DOS had allocated before is given back.
    if old_seg != p && old_off == 0 {
        let _ = crate::dos::memory::free(uc, env.dos.first_mcb, old_seg);
    }
    ok(uc)
}

/// AH=68h (and 6Ah): commit handle BX's file to disk.
pub fn commit(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let bx = uc.reg(R::BX);
    with_drive(env, uc, |d, _, _| d.commit(bx))
}

/// AX=6C00h: extended open or create DS:SI with mode BX, attributes CX
/// and action DX; AX = handle, CX = 1 opened, 2 created, 3 replaced.
pub fn extended_open(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (bx, cx, dx, ds, si) = regs(uc);
    if al(uc) != 0 {
        return fail(env, uc, DosError::INVALID_FUNCTION.0);
    }
    with_drive(env, uc, |d, uc, dos| {
        let (h, status) = d.extended_open(&path_at(uc, ds, si), bx, cx as u8, dx)?;
        note_inheritance(dos, d, h, bx as u8);
        uc.set_reg(R::AX, h).ok();
        uc.set_reg(R::CX, status).ok();
        Ok(())
    })
}
