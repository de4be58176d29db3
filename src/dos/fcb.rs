//! The file control block (FCB) functions of DOS 1.x, which old programs
//! (EXE2BIN, COMMAND.COM 1.x) still use, built on the sandboxed drive's
//! handles.
//!
//! FCB layout: 00 drive (0 default, 1 A:), 01 name (8, blank-padded), 09
//! extension (3), 0C current block, 0E record size, 10 file size (dword), 14
//! date, 16 time, 18..20 reserved (this DOS keeps the handle at 18), 20
//! current record, 21 random record (dword). An extended FCB starts with
//! FFh, five reserved bytes and an attribute, then a normal FCB at +7.

use super::files::{read_wrapping, write_wrapping};
use super::fs::Drive;
use super::{host, set_al};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};

const FCB_LEN: usize = 37;

/// The functions this module serves.
pub fn serves(ah: u8) -> bool {
    matches!(ah, 0x0F..=0x17 | 0x21..=0x24 | 0x27 | 0x28)
}

/// Records of `rs` bytes at offset `off` that fit before the segment's end:
/// DOS cuts an FCB transfer there (MS-DOS 2.0's SETUP, DISK.ASM, "see if
/// it will fit in one segment"; a DTA at offset 0 has FFFFh bytes).
fn records_that_fit(off: u16, rs: u32) -> u32 {
    let room = if off == 0 {
        0xFFFF
    } else {
        0x1_0000 - u32::from(off)
    };
    room / rs.max(1)
}

/// The name an FCB holds, as a DOS path (`NAME.EXT`).
pub fn fcb_name(f: &[u8]) -> Vec<u8> {
    let name: Vec<u8> = f[1..9].iter().copied().take_while(|&c| c != b' ').collect();
    let ext: Vec<u8> = f[9..12]
        .iter()
        .copied()
        .take_while(|&c| c != b' ')
        .collect();
    let mut p = name;
    if !ext.is_empty() {
        p.push(b'.');
        p.extend_from_slice(&ext);
    }
    p
}

/// An FCB's drive, name and extension parsed from a command-line argument
/// (what DOS puts at PSP:5C and PSP:6C). `*` fills with `?`.
pub fn fcb_from_arg(arg: &str) -> [u8; 12] {
    let mut f = [b' '; 12];
    f[0] = 0;
    let mut s = arg.as_bytes();
    if s.len() >= 2 && s[1] == b':' && s[0].is_ascii_alphabetic() {
        f[0] = s[0].to_ascii_uppercase() - b'A' + 1;
        s = &s[2..];
    }
    // Only the last path component goes into an FCB.
    if let Some(p) = s.iter().rposition(|&c| c == b'\\' || c == b'/') {
        s = &s[p + 1..];
    }
    let (name, ext) = match s.iter().position(|&c| c == b'.') {
        Some(p) => (&s[..p], &s[p + 1..]),
        None => (s, &b""[..]),
    };
    let fill = |dst: &mut [u8], src: &[u8]| {
        for (i, &c) in src.iter().take(dst.len()).enumerate() {
            if c == b'*' {
                dst[i..].fill(b'?');
                return;
            }
            dst[i] = c.to_ascii_uppercase();
        }
    };
    fill(&mut f[1..9], name);
    fill(&mut f[9..12], ext);
    f
}

fn record_size(f: &[u8]) -> u32 {
    match u16::from_le_bytes([f[0x0E], f[0x0F]]) {
        0 => 128,
        n => u32::from(n),
    }
}

fn put16(f: &mut [u8], at: usize, v: u16) {
    f[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn put32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn get32(f: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([f[at], f[at + 1], f[at + 2], f[at + 3]])
}

fn handle(f: &[u8]) -> u16 {
    u16::from_le_bytes([f[0x18], f[0x19]])
}

/// The file's size, through its handle.
fn size_of(d: &mut Drive, h: u16) -> Option<u32> {
    let here = d.seek(h, 0, 1).ok()?;
    let end = d.seek(h, 0, 2).ok()?;
    d.seek(h, here as i32, 0).ok()?;
    Some(end)
}

/// Handle an FCB function. DS:DX points at the FCB.
pub fn call(env: &mut Env, uc: &mut Uc<'_>, ah: u8) -> Result<(), Stop> {
    let (ds, mut dx, cx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::CX));
    let mut first = [0u8];
    read_wrapping(uc, "DS", ds, dx, &mut first)?;
    if first[0] == 0xFF {
        dx = dx.wrapping_add(7);
    }
    let mut f = [0u8; FCB_LEN];
    read_wrapping(uc, "DS", ds, dx, &mut f)?;
    let (dta_seg, dta_off) = env.dos.dta;
    let Some(drive) = env.drive.as_mut() else {
        return Err(super::unimplemented(
            uc,
            format!("INT 21h AH={ah:02X}h without a drive"),
        ));
    };
    let rs = record_size(&f);
    // AL result; the FCB is written back afterwards.
    let al: u8 = match ah {
        0x0F | 0x16 => {
            let name = fcb_name(&f);
            let r = if ah == 0x0F {
                drive.open(&name, 2).or_else(|_| drive.open(&name, 0))
            } else {
                drive.create(&name, 0)
            };
            match r {
                Ok(h) => {
                    put16(&mut f, 0x0C, 0);
                    put16(&mut f, 0x0E, 128);
                    put32(&mut f, 0x10, size_of(drive, h).unwrap_or(0));
                    if let Ok((time, date)) = drive.file_time(h) {
                        put16(&mut f, 0x14, date);
                        put16(&mut f, 0x16, time);
                    }
                    put16(&mut f, 0x18, h);
                    if f[0] == 0 {
                        f[0] = 3;
                    }
                    0
                }
                Err(_) => 0xFF,
            }
        }
        0x10 => {
            if drive.close(handle(&f)).is_ok() {
                0
            } else {
                0xFF
            }
        }
        0x11 | 0x12 => {
            // Find first/next: the DTA gets an unopened FCB for the match.
            let name = fcb_name(&f);
            let r = if ah == 0x11 {
                drive.find_first(&name, 0).map(|st| {
                    let cur = st.current().cloned();
                    env.dos.fcb_find = Some(st);
                    cur
                })
            } else {
                match env.dos.fcb_find.as_mut() {
                    Some(st) => super::fs::Drive::find_next(st).map(|r| Some(r.clone())),
                    None => Err(super::fs::DosError::NO_MORE_FILES),
                }
            };
            match r {
                Ok(Some(found)) => {
                    let mut out = [0u8; FCB_LEN];
                    out[..12].copy_from_slice(&fcb_from_arg(&found.name));
                    out[0] = 3;
                    put32(&mut out, 0x10, found.size);
                    write_wrapping(uc, "DS", dta_seg, dta_off, &out)?;
                    0
                }
                _ => 0xFF,
            }
        }
        0x13 => {
            if drive.delete(&fcb_name(&f)).is_ok() {
                0
            } else {
                0xFF
            }
        }
        0x17 => {
            let new = fcb_name(&f[0x10..]);
            if drive.rename(&fcb_name(&f), &new).is_ok() {
                0
            } else {
                0xFF
            }
        }
        0x14 | 0x15 | 0x21 | 0x22 | 0x27 | 0x28 => {
            let h = handle(&f);
            let sequential = matches!(ah, 0x14 | 0x15);
            let record = if sequential {
                u32::from(u16::from_le_bytes([f[0x0C], f[0x0D]])) * 128 + u32::from(f[0x20])
            } else {
                get32(&f, 0x21) & if rs < 64 { 0xFFFF_FFFF } else { 0x00FF_FFFF }
            };
            let asked = if matches!(ah, 0x27 | 0x28) {
                u32::from(cx)
            } else {
                1
            };
            let count = asked.min(records_that_fit(dta_off, rs));
            // AL=02h: the DTA's segment could not hold the transfer.
            let trimmed = count < asked;
            if trimmed && count == 0 {
                if matches!(ah, 0x27 | 0x28) {
                    uc.set_reg(R::CX, 0).map_err(host)?;
                }
                return finish(uc, ds, dx, &f, 2);
            }
            let write = matches!(ah, 0x15 | 0x22 | 0x28);
            let pos = record.saturating_mul(rs);
            if drive.seek(h, pos as i32, 0).is_err() {
                return finish(uc, ds, dx, &f, 0xFF);
            }
            let bytes = (count * rs).min(0xFFFF);
            let mut done_records = 0;
            let result;
            if write {
                if count == 0 && ah == 0x28 {
                    // CX = 0: set the file's size to the random record.
                    let _ = drive.write(h, &[]);
                    result = 0;
                } else {
                    let mut buf = vec![0u8; bytes as usize];
                    read_wrapping(uc, "DS", dta_seg, dta_off, &mut buf)?;
                    result = match drive.write(h, &buf) {
                        Ok(n) => {
                            done_records = n as u32 / rs;
                            if n as u32 == bytes { 0 } else { 1 }
                        }
                        Err(_) => 1,
                    };
                    if let Some(sz) = size_of(drive, h) {
                        put32(&mut f, 0x10, sz);
                    }
                }
            } else {
                let data = drive.read(h, bytes as u16).unwrap_or_default();
                if data.is_empty() {
                    result = 1;
                } else {
                    let mut buf = data.clone();
                    let partial = buf.len() as u32 % rs != 0;
                    let padded = buf.len().div_ceil(rs as usize) * rs as usize;
                    buf.resize(padded, 0);
                    write_wrapping(uc, "DS", dta_seg, dta_off, &buf)?;
                    done_records = padded as u32 / rs;
                    result = if partial {
                        3
                    } else if data.len() as u32 == bytes {
                        0
                    } else {
                        1
                    };
                }
            }
            let result = if result == 0 && trimmed { 2 } else { result };
            if sequential {
                let next = record + done_records.max(u32::from(result == 0));
                put16(&mut f, 0x0C, (next / 128) as u16);
                f[0x20] = (next % 128) as u8;
            } else if matches!(ah, 0x27 | 0x28) {
                put32(&mut f, 0x21, record + done_records);
                uc.set_reg(R::CX, done_records as u16).map_err(host)?;
            }
            result
        }
        0x23 => {
            let name = fcb_name(&f);
            match drive.open(&name, 0) {
                Ok(h) => {
                    let sz = size_of(drive, h).unwrap_or(0);
                    let _ = drive.close(h);
                    put32(&mut f, 0x21, sz.div_ceil(rs));
                    0
                }
                Err(_) => 0xFF,
            }
        }
        0x24 => {
            let rec = u32::from(u16::from_le_bytes([f[0x0C], f[0x0D]])) * 128 + u32::from(f[0x20]);
            put32(&mut f, 0x21, rec);
            0
        }
        _ => return Err(super::unimplemented(uc, format!("INT 21h AH={ah:02X}h"))),
    };
    finish(uc, ds, dx, &f, al)
}

fn finish(uc: &mut Uc<'_>, ds: u16, dx: u16, f: &[u8; FCB_LEN], al: u8) -> Result<(), Stop> {
    write_wrapping(uc, "DS", ds, dx, f)?;
    set_al(uc, al)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fcb_names_from_arguments() {
        assert_eq!(&fcb_from_arg("hello.exe"), b"\0HELLO   EXE");
        assert_eq!(&fcb_from_arg("a:x.c"), b"\x01X       C  ");
        assert_eq!(&fcb_from_arg("*.*"), b"\0???????????");
        assert_eq!(&fcb_from_arg("longfilename.text"), b"\0LONGFILETEX");
        assert_eq!(fcb_name(&fcb_from_arg("hello.exe")), b"HELLO.EXE");
        assert_eq!(fcb_name(&fcb_from_arg("noext")), b"NOEXT");
    }
}
