//! MMSYSTEM's multimedia file I/O (mmio) over DOS files of the sandboxed
//! drive, and RIFF chunks (Windows 3.1 SDK, "Multimedia Programmer's
//! Reference", File I/O functions).
//!
//! An HMMIO is a global block (owned by the task that opened it) holding
//! the file's MMIOINFO, as MMSYSTEM kept it: dwFlags, fccIOProc
//! (FOURCC_DOS), wErrorRet, htask, lDiskOffset (updated by each call),
//! adwInfo[0] (the DOS handle) and hmmio. mmioGetInfo copies it out.
//! I/O is unbuffered (no MMIO_ALLOCBUF buffer is made): every read,
//! write and seek goes to DOS at once.
//!
//! - mmioOpen(szFilename, lpmmioinfo, dwOpenFlags): opens (MMIO_READ,
//!   MMIO_WRITE, MMIO_READWRITE with DOS's sharing bits) or creates
//!   (MMIO_CREATE, truncating) the file; with a NULL name and an MMIOINFO,
//!   adwInfo[0] is an open DOS handle to use. MMIO_EXIST and MMIO_DELETE
//!   answer TRUE or FALSE; MMIO_PARSE writes the full path back into
//!   szFilename and answers TRUE. On failure NULL, and the MMIOINFO's
//!   wErrorRet is MMIOERR_FILENOTFOUND (no such file or directory) or
//!   MMIOERR_CANNOTOPEN. Memory files (FOURCC_MEM) and installed I/O
//!   procedures are not provided: such an open stops the run.
//! - mmioRead / mmioWrite(hmmio, pch, cch): the bytes moved (0 at the
//!   end of the file), -1 on an error; mmioSeek(hmmio, lOffset, iOrigin):
//!   the new position, -1 on an error.
//! - mmioDescend(hmmio, lpck, lpckParent, wFlags): reads the chunk
//!   header at the current position (ckid, cksize, and fccType for a
//!   `RIFF` or `LIST` chunk), dwDataOffset being the offset after cksize;
//!   the position is then at the chunk's data (after fccType for `RIFF`
//!   and `LIST`). MMIO_FINDCHUNK, MMIO_FINDRIFF and MMIO_FINDLIST skip
//!   chunks (each padded to an even size) until one has the ckid (or the
//!   `RIFF`/`LIST` with the fccType) of `lpck`, within the parent chunk
//!   when one is given; MMIOERR_CHUNKNOTFOUND when the parent or the file
//!   ends first.
//! - mmioCreateChunk(hmmio, lpck, wFlags): writes the header (ckid, or
//!   `RIFF`/`LIST` with MMIO_CREATERIFF/MMIO_CREATELIST, then cksize and
//!   fccType), sets dwDataOffset and MMIO_DIRTY in dwFlags.
//! - mmioAscend(hmmio, lpck, wFlags): for a dirty chunk, the size written
//!   since dwDataOffset replaces cksize in the file (and in `lpck`) when
//!   it differs, and a pad byte follows an odd size; then the position
//!   moves past the chunk (its even-padded end).
//! - mmioClose(hmmio, wFlags): closes the DOS file (not with MMIO_FHOPEN
//!   for a file opened on the program's handle) and frees the HMMIO; 0,
//!   or MMIOERR_CANNOTCLOSE for an unknown handle.
//! - mmioStringToFOURCC(sz, wFlags): the first four characters, padded
//!   with spaces, upper-cased with MMIO_TOUPPER. mmioFlush: 0 (nothing is
//!   buffered).

use std::collections::HashMap;

use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::global;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "MMSYSTEM",
        1210,
        "MMIOOPEN",
        &[Arg::L, Arg::L, Arg::L],
        mmio_open,
    ),
    Api::new("MMSYSTEM", 1211, "MMIOCLOSE", &[Arg::W, Arg::W], mmio_close),
    Api::new(
        "MMSYSTEM",
        1212,
        "MMIOREAD",
        &[Arg::W, Arg::L, Arg::L],
        mmio_read,
    ),
    Api::new(
        "MMSYSTEM",
        1213,
        "MMIOWRITE",
        &[Arg::W, Arg::L, Arg::L],
        mmio_write,
    ),
    Api::new(
        "MMSYSTEM",
        1214,
        "MMIOSEEK",
        &[Arg::W, Arg::L, Arg::W],
        mmio_seek,
    ),
    Api::new(
        "MMSYSTEM",
        1215,
        "MMIOGETINFO",
        &[Arg::W, Arg::L, Arg::W],
        mmio_get_info,
    ),
    Api::new("MMSYSTEM", 1218, "MMIOFLUSH", &[Arg::W, Arg::W], mmio_flush),
    Api::new(
        "MMSYSTEM",
        1220,
        "MMIOSTRINGTOFOURCC",
        &[Arg::L, Arg::W],
        mmio_string_to_fourcc,
    ),
    Api::new(
        "MMSYSTEM",
        1223,
        "MMIODESCEND",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        mmio_descend,
    ),
    Api::new(
        "MMSYSTEM",
        1224,
        "MMIOASCEND",
        &[Arg::W, Arg::L, Arg::W],
        mmio_ascend,
    ),
    Api::new(
        "MMSYSTEM",
        1225,
        "MMIOCREATECHUNK",
        &[Arg::W, Arg::L, Arg::W],
        mmio_create_chunk,
    ),
];

/// MMIOERR_* (MMSYSTEM.H).
pub const MMIOERR_FILENOTFOUND: u32 = 257;
pub const MMIOERR_OUTOFMEMORY: u32 = 258;
pub const MMIOERR_CANNOTOPEN: u32 = 259;
pub const MMIOERR_CANNOTCLOSE: u32 = 260;
pub const MMIOERR_CANNOTWRITE: u32 = 262;
pub const MMIOERR_CANNOTSEEK: u32 = 263;
pub const MMIOERR_CHUNKNOTFOUND: u32 = 265;
/// dwOpenFlags and the other flags (MMSYSTEM.H).
pub const MMIO_CREATE: u32 = 0x1000;
pub const MMIO_PARSE: u32 = 0x0100;
pub const MMIO_DELETE: u32 = 0x0200;
pub const MMIO_EXIST: u32 = 0x4000;
pub const MMIO_DIRTY: u32 = 0x1000_0000;
pub const MMIO_FHOPEN: u16 = 0x0010;
pub const MMIO_TOUPPER: u16 = 0x0010;
pub const MMIO_FINDCHUNK: u16 = 0x0010;
pub const MMIO_FINDRIFF: u16 = 0x0020;
pub const MMIO_FINDLIST: u16 = 0x0040;
pub const MMIO_CREATERIFF: u16 = 0x0020;
pub const MMIO_CREATELIST: u16 = 0x0040;

/// Bytes of MMIOINFO and MMCKINFO.
pub const MMIOINFO_SIZE: usize = 66;
pub const MMCKINFO_SIZE: usize = 20;
/// The most bytes one mmioRead or mmioWrite moves.
pub const MAX_TRANSFER: u32 = 16 << 20;

/// A FOURCC from its four characters.
pub const fn fourcc(s: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*s)
}
pub const FOURCC_RIFF: u32 = fourcc(b"RIFF");
pub const FOURCC_LIST: u32 = fourcc(b"LIST");
pub const FOURCC_DOS: u32 = fourcc(b"DOS ");

/// An open mmio file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MmioFile {
    pub dos: u16,
    pub flags: u32,
    /// Opened on the program's own DOS handle (adwInfo[0]).
    pub own_handle: bool,
}

/// The open files by HMMIO.
#[derive(Debug, Default, Clone)]
pub struct MmioState {
    pub files: HashMap<u16, MmioFile>,
}

/// MMCKINFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CkInfo {
    pub ckid: u32,
    pub cksize: u32,
    pub fcc_type: u32,
    pub data_offset: u32,
    pub flags: u32,
}

impl CkInfo {
    pub fn from_bytes(b: &[u8]) -> CkInfo {
        let d = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        CkInfo {
            ckid: d(0),
            cksize: d(4),
            fcc_type: d(8),
            data_offset: d(12),
            flags: d(16),
        }
    }
    pub fn to_bytes(&self) -> [u8; MMCKINFO_SIZE] {
        let mut b = [0u8; MMCKINFO_SIZE];
        for (i, v) in [
            self.ckid,
            self.cksize,
            self.fcc_type,
            self.data_offset,
            self.flags,
        ]
        .iter()
        .enumerate()
        {
            b[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
        }
        b
    }
}

fn read_ck(uc: &Uc<'_>, p: u32) -> Option<CkInfo> {
    farptr::read_bytes(uc, p, MMCKINFO_SIZE).map(|b| CkInfo::from_bytes(&b))
}

/// The MMIOINFO of an open file at position `pos`.
fn info_bytes(f: &MmioFile, htask: u16, h: u16, pos: u32) -> [u8; MMIOINFO_SIZE] {
    let mut b = [0u8; MMIOINFO_SIZE];
    b[0..4].copy_from_slice(&f.flags.to_le_bytes());
    b[4..8].copy_from_slice(&FOURCC_DOS.to_le_bytes());
    b[14..16].copy_from_slice(&htask.to_le_bytes());
    b[40..44].copy_from_slice(&pos.to_le_bytes());
    b[44..46].copy_from_slice(&f.dos.to_le_bytes());
    b[64..66].copy_from_slice(&h.to_le_bytes());
    b
}

/// The file `h` names.
fn file(env: &Env, h: u16) -> Option<MmioFile> {
    env.win16.mmio.files.get(&h).copied()
}

/// The DOS position of a file.
fn position(env: &mut Env, f: &MmioFile) -> Option<u32> {
    env.drive.as_mut()?.seek(f.dos, 0, 1).ok()
}

/// Write the file's MMIOINFO into its block (lDiskOffset follows).
fn sync(env: &mut Env, uc: &mut Uc<'_>, h: u16) {
    let Some(f) = file(env, h) else {
        return;
    };
    let pos = position(env, &f).unwrap_or(0);
    let htask = uc.get_data().current_task;
    if let Some(sel) = env.win16.global.find(h).map(|b| b.selector) {
        farptr::write_bytes(uc, u32::from(sel) << 16, &info_bytes(&f, htask, h, pos));
    }
}

fn seek(env: &mut Env, f: &MmioFile, off: i32, whence: u8) -> Option<u32> {
    env.drive.as_mut()?.seek(f.dos, off, whence).ok()
}

fn write_all(env: &mut Env, f: &MmioFile, data: &[u8]) -> bool {
    env.drive
        .as_mut()
        .is_some_and(|d| d.write(f.dos, data).is_ok_and(|n| n == data.len()))
}

fn read_exact(env: &mut Env, f: &MmioFile, n: u16) -> Option<Vec<u8>> {
    let v = env.drive.as_mut()?.read(f.dos, n).ok()?;
    (v.len() == usize::from(n)).then_some(v)
}

/// Stop the run for what is not provided (module doc), naming the caller.
fn unprovided(uc: &Uc<'_>, what: &str) -> Stop {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let ip = uc.read_u16_at(ss, sp).unwrap_or(0);
    let cs = uc.read_u16_at(ss, sp.wrapping_add(2)).unwrap_or(0);
    Stop::Unimplemented {
        what: format!("MMSYSTEM.mmioOpen: {what}"),
        caller: (cs, ip, uc.reg(R::BP)),
    }
}

/// MMSYSTEM.1210 mmioOpen (module doc).
pub fn mmio_open(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (name_p, info_p, flags) = (a[0], a[1], a[2]);
    let info = if info_p != 0 {
        farptr::read_bytes(uc, info_p, MMIOINFO_SIZE)
    } else {
        None
    };
    let fail = |uc: &mut Uc<'_>, err: u32| {
        if info_p != 0 {
            farptr::write_bytes(uc, farptr::add(info_p, 12), &(err as u16).to_le_bytes());
        }
        Ok(0)
    };
    let mut own = None;
    if let Some(i) = &info {
        let fcc = u32::from_le_bytes([i[4], i[5], i[6], i[7]]);
        let proc_ = u32::from_le_bytes([i[8], i[9], i[10], i[11]]);
        if (fcc != 0 && fcc != FOURCC_DOS) || proc_ != 0 {
            return Err(unprovided(uc, "memory files and I/O procedures"));
        }
        if name_p == 0 {
            own = Some(u16::from_le_bytes([i[44], i[45]]));
        }
    }
    let dos = match own {
        Some(h) => h,
        None => {
            let Some(name) = farptr::read_cstr(uc, name_p, 128).filter(|n| !n.is_empty()) else {
                return fail(uc, MMIOERR_CANNOTOPEN);
            };
            let Some(d) = env.drive.as_mut() else {
                return fail(uc, MMIOERR_FILENOTFOUND);
            };
            if flags & MMIO_PARSE != 0 {
                let full = match d.resolve(&name) {
                    Ok(crate::dos::fs::HostPath::File { dos, .. })
                    | Ok(crate::dos::fs::HostPath::Missing { dos, .. }) => format!("C:{dos}"),
                    _ => return fail(uc, MMIOERR_CANNOTOPEN),
                };
                let mut b = full.to_ascii_uppercase().into_bytes();
                b.push(0);
                farptr::write_bytes(uc, name_p, &b);
                return Ok(1);
            }
            if flags & MMIO_DELETE != 0 {
                return Ok(u32::from(d.delete(&name).is_ok()));
            }
            let opened = if flags & MMIO_CREATE != 0 {
                d.create(&name, 0)
            } else {
                d.open(&name, (flags & 0x73) as u8)
            };
            match opened {
                Ok(h) => {
                    if flags & MMIO_EXIST != 0 {
                        let _ = d.close(h);
                        return Ok(1);
                    }
                    h
                }
                Err(e) if flags & MMIO_EXIST != 0 => {
                    let _ = e;
                    return Ok(0);
                }
                Err(e) => {
                    let err = if e.0 == 2 || e.0 == 3 {
                        MMIOERR_FILENOTFOUND
                    } else {
                        MMIOERR_CANNOTOPEN
                    };
                    return fail(uc, err);
                }
            }
        }
    };
    let owner = global::task_owner(env, uc, 0);
    let h = global::alloc_block(env, uc, 0x0002, MMIOINFO_SIZE as u32, &[], owner);
    if h == 0 {
        if own.is_none() {
            if let Some(d) = env.drive.as_mut() {
                let _ = d.close(dos);
            }
        }
        return fail(uc, MMIOERR_OUTOFMEMORY);
    }
    env.win16.mmio.files.insert(
        h,
        MmioFile {
            dos,
            flags: flags & !(MMIO_CREATE | MMIO_EXIST),
            own_handle: own.is_some(),
        },
    );
    sync(env, uc, h);
    if info_p != 0 {
        farptr::write_bytes(uc, farptr::add(info_p, 12), &0u16.to_le_bytes());
        farptr::write_bytes(uc, farptr::add(info_p, 64), &h.to_le_bytes());
    }
    Ok(u32::from(h))
}

/// MMSYSTEM.1211 mmioClose(hmmio, wFlags) (module doc).
pub fn mmio_close(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = env.win16.mmio.files.remove(&h) else {
        return Ok(MMIOERR_CANNOTCLOSE);
    };
    let keep = f.own_handle && a[1] as u16 & MMIO_FHOPEN != 0;
    if !keep {
        if let Some(d) = env.drive.as_mut() {
            let _ = d.close(f.dos);
        }
    }
    global::free_block(env, uc, h);
    Ok(0)
}

/// MMSYSTEM.1212 mmioRead(hmmio, pch, cch) (module doc).
pub fn mmio_read(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(f) = file(env, a[0] as u16) else {
        return Ok(u32::MAX);
    };
    let want = (a[2] as i32).max(0) as u32;
    if want > MAX_TRANSFER {
        return Ok(u32::MAX);
    }
    let mut data = Vec::new();
    while (data.len() as u32) < want {
        let n = (want - data.len() as u32).min(0x8000) as u16;
        let Some(Ok(chunk)) = env.drive.as_mut().map(|d| d.read(f.dos, n)) else {
            return Ok(u32::MAX);
        };
        let short = chunk.len() < usize::from(n);
        data.extend_from_slice(&chunk);
        if short {
            break;
        }
    }
    if !crate::win16::kernel::memory::write_huge(uc, a[1], &data) {
        return Ok(u32::MAX);
    }
    sync(env, uc, a[0] as u16);
    Ok(data.len() as u32)
}

/// MMSYSTEM.1213 mmioWrite(hmmio, pch, cch) (module doc).
pub fn mmio_write(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(f) = file(env, a[0] as u16) else {
        return Ok(u32::MAX);
    };
    let n = (a[2] as i32).max(0) as u32;
    if n > MAX_TRANSFER {
        return Ok(u32::MAX);
    }
    let Some(data) = crate::win16::kernel::memory::read_huge(uc, a[1], n) else {
        return Ok(u32::MAX);
    };
    if !write_all(env, &f, &data) {
        return Ok(u32::MAX);
    }
    sync(env, uc, a[0] as u16);
    Ok(n)
}

/// MMSYSTEM.1214 mmioSeek(hmmio, lOffset, iOrigin) (module doc).
pub fn mmio_seek(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(f) = file(env, a[0] as u16) else {
        return Ok(u32::MAX);
    };
    let whence = a[2] as u16;
    if whence > 2 {
        return Ok(u32::MAX);
    }
    let r = seek(env, &f, a[1] as i32, whence as u8).unwrap_or(u32::MAX);
    sync(env, uc, a[0] as u16);
    Ok(r)
}

/// MMSYSTEM.1215 mmioGetInfo(hmmio, lpmmioinfo, wFlags): the MMIOINFO.
pub fn mmio_get_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = file(env, h) else {
        return Ok(MMIOERR_CANNOTOPEN);
    };
    let pos = position(env, &f).unwrap_or(0);
    let htask = uc.get_data().current_task;
    farptr::write_bytes(uc, a[1], &info_bytes(&f, htask, h, pos));
    Ok(0)
}

/// MMSYSTEM.1218 mmioFlush(hmmio, wFlags): 0 (module doc).
pub fn mmio_flush(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if file(env, a[0] as u16).is_some() {
        0
    } else {
        MMIOERR_CANNOTWRITE
    })
}

/// The FOURCC of a string (module doc).
pub fn string_to_fourcc(s: &[u8], upper: bool) -> u32 {
    let mut b = [b' '; 4];
    for (i, &c) in s.iter().take(4).enumerate() {
        b[i] = if upper { c.to_ascii_uppercase() } else { c };
    }
    u32::from_le_bytes(b)
}

/// MMSYSTEM.1220 mmioStringToFOURCC(sz, wFlags) (module doc).
pub fn mmio_string_to_fourcc(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = farptr::read_cstr(uc, a[0], farptr::MAX_STRING).unwrap_or_default();
    Ok(string_to_fourcc(&s, a[1] as u16 & MMIO_TOUPPER != 0))
}

/// MMSYSTEM.1223 mmioDescend(hmmio, lpck, lpckParent, wFlags) (module
/// doc).
pub fn mmio_descend(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = file(env, h) else {
        return Ok(MMIOERR_CANNOTSEEK);
    };
    let Some(want) = read_ck(uc, a[1]) else {
        return Ok(MMIOERR_CHUNKNOTFOUND);
    };
    let end = match a[2] {
        0 => u32::MAX,
        p => read_ck(uc, p).map_or(u32::MAX, |c| c.data_offset.saturating_add(c.cksize)),
    };
    let flags = a[3] as u16;
    // At most this many chunks are skipped (a bound on a damaged file).
    for _ in 0..0x10000 {
        let Some(pos) = position(env, &f) else {
            return Ok(MMIOERR_CANNOTSEEK);
        };
        if pos.saturating_add(8) > end {
            break;
        }
        let Some(head) = read_exact(env, &f, 8) else {
            break;
        };
        let ckid = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let cksize = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let data = pos + 8;
        let listy = ckid == FOURCC_RIFF || ckid == FOURCC_LIST;
        let fcc = if listy {
            match read_exact(env, &f, 4) {
                Some(t) => Some(u32::from_le_bytes([t[0], t[1], t[2], t[3]])),
                None => break,
            }
        } else {
            None
        };
        let hit = if flags & MMIO_FINDCHUNK != 0 {
            ckid == want.ckid
        } else if flags & MMIO_FINDRIFF != 0 {
            ckid == FOURCC_RIFF && fcc == Some(want.fcc_type)
        } else if flags & MMIO_FINDLIST != 0 {
            ckid == FOURCC_LIST && fcc == Some(want.fcc_type)
        } else {
            true
        };
        if hit {
            let ck = CkInfo {
                ckid,
                cksize,
                fcc_type: fcc.unwrap_or(want.fcc_type),
                data_offset: data,
                flags: 0,
            };
            farptr::write_bytes(uc, a[1], &ck.to_bytes());
            sync(env, uc, h);
            return Ok(0);
        }
        let next = data.saturating_add(cksize).saturating_add(cksize & 1);
        if next > i32::MAX as u32 || seek(env, &f, next as i32, 0).is_none() {
            break;
        }
    }
    sync(env, uc, h);
    Ok(MMIOERR_CHUNKNOTFOUND)
}

/// MMSYSTEM.1224 mmioAscend(hmmio, lpck, wFlags) (module doc).
pub fn mmio_ascend(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = file(env, h) else {
        return Ok(MMIOERR_CANNOTSEEK);
    };
    let Some(mut ck) = read_ck(uc, a[1]) else {
        return Ok(MMIOERR_CANNOTSEEK);
    };
    if ck.flags & MMIO_DIRTY != 0 {
        let Some(pos) = position(env, &f) else {
            return Ok(MMIOERR_CANNOTSEEK);
        };
        let size = pos.saturating_sub(ck.data_offset);
        if ck.data_offset < 4 || ck.data_offset > i32::MAX as u32 {
            return Ok(MMIOERR_CANNOTSEEK);
        }
        if size != ck.cksize {
            if seek(env, &f, ck.data_offset as i32 - 4, 0).is_none()
                || !write_all(env, &f, &size.to_le_bytes())
            {
                return Ok(MMIOERR_CANNOTWRITE);
            }
            ck.cksize = size;
        }
        if size & 1 != 0
            && (seek(env, &f, (ck.data_offset + size) as i32, 0).is_none()
                || !write_all(env, &f, &[0]))
        {
            return Ok(MMIOERR_CANNOTWRITE);
        }
        ck.flags &= !MMIO_DIRTY;
        farptr::write_bytes(uc, a[1], &ck.to_bytes());
    }
    let end = ck
        .data_offset
        .saturating_add(ck.cksize)
        .saturating_add(ck.cksize & 1);
    if end > i32::MAX as u32 || seek(env, &f, end as i32, 0).is_none() {
        return Ok(MMIOERR_CANNOTSEEK);
    }
    sync(env, uc, h);
    Ok(0)
}

/// MMSYSTEM.1225 mmioCreateChunk(hmmio, lpck, wFlags) (module doc).
pub fn mmio_create_chunk(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = file(env, h) else {
        return Ok(MMIOERR_CANNOTSEEK);
    };
    let Some(mut ck) = read_ck(uc, a[1]) else {
        return Ok(MMIOERR_CANNOTWRITE);
    };
    let Some(pos) = position(env, &f) else {
        return Ok(MMIOERR_CANNOTSEEK);
    };
    let flags = a[2] as u16;
    let mut head = Vec::with_capacity(12);
    if flags & MMIO_CREATERIFF != 0 {
        ck.ckid = FOURCC_RIFF;
    } else if flags & MMIO_CREATELIST != 0 {
        ck.ckid = FOURCC_LIST;
    }
    head.extend_from_slice(&ck.ckid.to_le_bytes());
    head.extend_from_slice(&ck.cksize.to_le_bytes());
    if flags & (MMIO_CREATERIFF | MMIO_CREATELIST) != 0 {
        head.extend_from_slice(&ck.fcc_type.to_le_bytes());
    }
    if !write_all(env, &f, &head) {
        return Ok(MMIOERR_CANNOTWRITE);
    }
    ck.data_offset = pos + 8;
    ck.flags = MMIO_DIRTY;
    farptr::write_bytes(uc, a[1], &ck.to_bytes());
    sync(env, uc, h);
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourccs() {
        assert_eq!(string_to_fourcc(b"wave", true), fourcc(b"WAVE"));
        assert_eq!(string_to_fourcc(b"fmt", false), fourcc(b"fmt "));
        assert_eq!(string_to_fourcc(b"", false), fourcc(b"    "));
    }

    #[test]
    fn ckinfo_layout() {
        let c = CkInfo {
            ckid: FOURCC_RIFF,
            cksize: 0x24,
            fcc_type: fourcc(b"WAVE"),
            data_offset: 8,
            flags: MMIO_DIRTY,
        };
        let b = c.to_bytes();
        assert_eq!(&b[0..12], b"RIFF\x24\0\0\0WAVE");
        assert_eq!(&b[12..20], &[8, 0, 0, 0, 0, 0, 0, 0x10]);
        assert_eq!(CkInfo::from_bytes(&b), c);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
