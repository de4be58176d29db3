//! The file control block (FCB) functions of DOS 1.x, which old programs
//! (EXE2BIN, COMMAND.COM 1.x) still use, built on the sandboxed drive's
//! handles.
//!
//! FCB layout: 00 drive (0 default, 1 A:), 01 name (8, blank-padded), 09
//! extension (3), 0C current block, 0E record size, 10 file size (dword), 14
//! date, 16 time, 18..20 reserved (this DOS keeps the handle at 18), 20
//! current record, 21 random record (dword). An extended FCB starts with
//! FFh, five reserved bytes and an attribute, then a normal FCB at +7.
//!
//! Find first/next (11h/12h) put an unopened FCB at the DTA in the form of
//! a directory entry (MS-DOS 5 reference, "Find First File (FCB)"): the
//! drive number (1 = A:) followed by the 32-byte entry — name (8) and
//! extension (3), attribute at 0Ch, time 17h, date 19h, first cluster 1Bh,
//! size 1Dh (a dword; offsets from the drive byte). For an extended FCB
//! the DTA gets the seven-byte extended header first (FFh, five zeros, the
//! attribute), and the search admits hidden, system and directory entries
//! as the extended FCB's attribute asks.
//!
//! Delete (13h) and rename (17h) take `?` wildcards: every match is
//! deleted; each match is renamed with the new name's `?` positions kept
//! from the old name.
//!
//! Failures answer AL = FFh and leave the extended error (AH=59h).

use super::{al, record};
use crate::dos::Env;
use crate::dos::fs::{self, DosError, Drive};
use crate::dos::{data, host, psp, set_al};
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

/// An FCB function (AH=0Fh-17h, 21h-24h, 27h, 28h). DS:DX points at the
/// FCB. The current process's job file table is loaded around it, as for
/// the handle calls (an open FCB holds a handle here).
pub fn run(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ah = super::ah(uc);
    let Some(drive) = env.drive.as_mut() else {
        return Err(crate::dos::unimplemented(
            uc,
            format!("INT 21h AH={ah:02X}h without a drive (--dir)"),
        ));
    };
    let real = uc.mode() == crate::walk::CpuMode::Real && env.dos.psp != 0;
    let p = env.dos.psp;
    if real {
        psp::load_jft(uc, p, drive);
    }
    let r = call(env, uc, ah);
    if real && let Some(drive) = env.drive.as_mut() {
        psp::store_jft(uc, p, drive);
    }
    r
}

/// The drive an FCB's drive byte names is C: (0 = the default drive).
fn on_c(f: &[u8]) -> bool {
    f[0] == 0 || f[0] == 3
}

fn call(env: &mut Env, uc: &mut Uc<'_>, ah: u8) -> Result<(), Stop> {
    let (ds, mut dx, cx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::CX));
    let mut first = [0u8; 7];
    super::read_wrapping(uc, "DS", ds, dx, &mut first)?;
    let extended = first[0] == 0xFF;
    let ext_attr = if extended { first[6] } else { 0 };
    if extended {
        dx = dx.wrapping_add(7);
    }
    let mut f = [0u8; FCB_LEN];
    super::read_wrapping(uc, "DS", ds, dx, &mut f)?;
    let (dta_seg, dta_off) = env.dos.dta;
    if !on_c(&f) {
        record(env, DosError::INVALID_DRIVE.0);
        return set_al(uc, 0xFF);
    }
    let Some(drive) = env.drive.as_mut() else {
        return Ok(());
    };
    let mut error: Option<DosError> = None;
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
                Err(e) => {
                    error = Some(e);
                    0xFF
                }
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
            }
        }
        0x10 => match drive.close(handle(&f)) {
            Ok(()) => 0,
            Err(e) => {
                error = Some(e);
                0xFF
            }
        },
        0x11 | 0x12 => {
            // Find first/next: the DTA gets the drive and the match's
            // directory entry (after the extended header for an extended
            // FCB).
            let r = if ah == 0x11 {
                let attr = if extended { ext_attr } else { 0 };
                drive.find_first(&fcb_name(&f), attr).map(|st| {
                    let cur = st.current().cloned();
                    env.dos.fcb_find = Some(st);
                    cur
                })
            } else {
                match env.dos.fcb_find.as_mut() {
                    Some(st) => Drive::find_next(st).map(|r| Some(r.clone())),
                    None => Err(DosError::NO_MORE_FILES),
                }
            };
            match r {
                Ok(Some(found)) => {
                    let mut out = Vec::with_capacity(40);
                    if extended {
                        out.extend_from_slice(&[0xFF, 0, 0, 0, 0, 0, ext_attr]);
                    }
                    out.push(3);
                    out.extend_from_slice(&dir_entry(&found));
                    super::write_wrapping(uc, "DS", dta_seg, dta_off, &out)?;
                    0
                }
                Ok(None) => {
                    error = Some(DosError::NO_MORE_FILES);
                    0xFF
                }
                Err(e) => {
                    error = Some(if e == DosError::FILE_NOT_FOUND {
                        DosError::NO_MORE_FILES
                    } else {
                        e
                    });
                    0xFF
                }
            }
        }
        0x13 => match for_each_match(drive, &f, ext_attr, |d, name| d.delete(name.as_bytes())) {
            Ok(()) => 0,
            Err(e) => {
                error = Some(e);
                0xFF
            }
        },
        0x17 => {
            let template = f[0x11..0x1C].to_vec();
            match for_each_match(drive, &f, ext_attr, |d, name| {
                let new = renamed(name, &template);
                d.rename(name.as_bytes(), new.as_bytes())
            }) {
                Ok(()) => 0,
                Err(e) => {
                    error = Some(e);
                    0xFF
                }
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
                    super::read_wrapping(uc, "DS", dta_seg, dta_off, &mut buf)?;
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
                    super::write_wrapping(uc, "DS", dta_seg, dta_off, &buf)?;
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
        _ => {
            return Err(crate::dos::unimplemented(
                uc,
                format!("INT 21h AH={ah:02X}h"),
            ));
        }
    };
    if let Some(e) = error {
        record(env, e.0);
    } else if al == 0xFF {
        record(env, DosError::FILE_NOT_FOUND.0);
    }
    finish(uc, ds, dx, &f, al)
}

/// The 32-byte directory entry of a match (name, attribute, time, date,
/// first cluster, size).
fn dir_entry(r: &fs::FindResult) -> [u8; 32] {
    let mut e = [0u8; 32];
    e[..11].copy_from_slice(&name11(&r.name));
    e[0x0B] = r.attr;
    e[0x16..0x18].copy_from_slice(&r.time.to_le_bytes());
    e[0x18..0x1A].copy_from_slice(&r.date.to_le_bytes());
    e[0x1C..0x20].copy_from_slice(&r.size.to_le_bytes());
    e
}

/// A name as the 11 blank-padded bytes of a directory entry (`.` and `..`
/// as they are).
fn name11(name: &str) -> [u8; 11] {
    let mut n = [b' '; 11];
    if name == "." || name == ".." {
        n[..name.len()].copy_from_slice(name.as_bytes());
        return n;
    }
    let (base, ext) = name.split_once('.').unwrap_or((name, ""));
    for (i, b) in base.bytes().take(8).enumerate() {
        n[i] = b;
    }
    for (i, b) in ext.bytes().take(3).enumerate() {
        n[8 + i] = b;
    }
    n
}

/// The new name of `old` under rename template `template` (11 bytes,
/// `?` keeping the old name's character there).
fn renamed(old: &str, template: &[u8]) -> String {
    let o = name11(old);
    let mut n = [b' '; 11];
    for i in 0..11 {
        n[i] = if template.get(i) == Some(&b'?') {
            o[i]
        } else {
            template.get(i).copied().unwrap_or(b' ')
        };
    }
    fcb_name(&[&[0u8][..], &n[..]].concat())
        .into_iter()
        .map(char::from)
        .collect()
}

/// Run `f` on every plain file the FCB's name (with `?` wildcards) matches
/// in the current directory; error 2 when none does.
fn for_each_match(
    drive: &mut Drive,
    f: &[u8],
    attr: u8,
    mut each: impl FnMut(&mut Drive, &str) -> Result<(), DosError>,
) -> Result<(), DosError> {
    let name = fcb_name(f);
    if !name.contains(&b'?') {
        let n = String::from_utf8_lossy(&name).into_owned();
        return each(drive, &n);
    }
    let mut st = drive
        .find_first(&name, attr & (fs::ATTR_HIDDEN | fs::ATTR_SYSTEM))
        .map_err(|_| DosError::FILE_NOT_FOUND)?;
    let mut names = Vec::new();
    while let Some(r) = st.current() {
        if r.attr & (fs::ATTR_DIRECTORY | fs::ATTR_VOLUME) == 0 {
            names.push(r.name.clone());
        }
        if Drive::find_next(&mut st).is_err() {
            break;
        }
    }
    if names.is_empty() {
        return Err(DosError::FILE_NOT_FOUND);
    }
    for n in names {
        each(drive, &n)?;
    }
    Ok(())
}

/// AH=29h: parse a file name at DS:SI into the FCB at ES:DI. AL bit 0
/// skips leading separators; bits 1-3 keep the FCB's drive, name and
/// extension when the text has none. AL = 0 (no wildcards), 1 (wildcards)
/// or FFh (bad drive); DS:SI is left after the name.
pub fn parse_name(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let al = al(uc);
    let (ds, mut si, es, di) = (uc.reg(R::DS), uc.reg(R::SI), uc.reg(R::ES), uc.reg(R::DI));
    let peek = |uc: &Uc<'_>, o: u16| -> u8 {
        let mut b = [0u8];
        uc.read_seg(ds, o, &mut b).map(|_| b[0]).unwrap_or(0)
    };
    if al & 1 != 0 {
        while matches!(
            peek(uc, si),
            b' ' | b'\t' | b':' | b';' | b',' | b'=' | b'+'
        ) {
            si = si.wrapping_add(1);
        }
    }
    let mut fcb = [0u8; 12];
    let mut result = 0u8;
    let c0 = peek(uc, si);
    if c0.is_ascii_alphabetic() && peek(uc, si.wrapping_add(1)) == b':' {
        let d = c0.to_ascii_uppercase() - b'A' + 1;
        if d > data::LAST_DRIVE {
            result = 0xFF;
        }
        fcb[0] = d;
        si = si.wrapping_add(2);
    } else if al & 2 != 0 {
        let mut b = [0u8];
        let _ = uc.read_seg(es, di, &mut b);
        fcb[0] = b[0];
    }
    let field = |uc: &Uc<'_>,
                 si: &mut u16,
                 start: usize,
                 len: usize,
                 keep: bool,
                 fcb: &mut [u8; 12],
                 result: &mut u8| {
        let mut n = 0;
        let terminator = |c: u8| c <= b' ' || b".\"/\\[]:|<>+=;,".contains(&c);
        while n < len {
            let c = peek(uc, *si);
            if terminator(c) {
                break;
            }
            if c == b'*' {
                while n < len {
                    fcb[start + n] = b'?';
                    n += 1;
                }
                *result = (*result).max(1);
                *si = si.wrapping_add(1);
                break;
            }
            if c == b'?' {
                *result = (*result).max(1);
            }
            fcb[start + n] = c.to_ascii_uppercase();
            n += 1;
            *si = si.wrapping_add(1);
        }
        if n == 0 && keep {
            return false;
        }
        while n < len {
            fcb[start + n] = b' ';
            n += 1;
        }
        // Skip what does not fit.
        while !terminator(peek(uc, *si)) && peek(uc, *si) != b'*' {
            *si = si.wrapping_add(1);
        }
        true
    };
    let had_name = field(uc, &mut si, 1, 8, al & 4 != 0, &mut fcb, &mut result);
    if !had_name {
        let mut b = [0u8; 8];
        let _ = uc.read_seg(es, di.wrapping_add(1), &mut b);
        fcb[1..9].copy_from_slice(&b);
    }
    if peek(uc, si) == b'.' {
        si = si.wrapping_add(1);
        field(uc, &mut si, 9, 3, false, &mut fcb, &mut result);
    } else if al & 8 != 0 {
        let mut b = [0u8; 3];
        let _ = uc.read_seg(es, di.wrapping_add(9), &mut b);
        fcb[9..12].copy_from_slice(&b);
    } else {
        fcb[9..12].copy_from_slice(b"   ");
    }
    super::write_wrapping(uc, "ES", es, di, &fcb)?;
    uc.set_reg(R::SI, si).map_err(host)?;
    set_al(uc, result)
}

fn finish(uc: &mut Uc<'_>, ds: u16, dx: u16, f: &[u8; FCB_LEN], al: u8) -> Result<(), Stop> {
    super::write_wrapping(uc, "DS", ds, dx, f)?;
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
