//! LZEXPAND: reading files compressed with Microsoft's COMPRESS.EXE.
//!
//! A compressed file (the "SZDD" format of COMPRESS.EXE and EXPAND.EXE)
//! starts with a 14-byte header: the signature `SZDD` 88h F0h 27h 33h,
//! the method `A`, the last character of the original name (which the
//! compressed name replaced with `_`), and the expanded size (32 bits).
//! The data is LZSS over a 4 KiB window that starts filled with blanks
//! (20h), the first byte written at position 4096 - 16: a flag byte, then
//! eight items, each a literal byte when its flag bit (the lowest first)
//! is 1, else a two-byte reference: position `lo | (hi & F0h) << 4`,
//! length `(hi & 0Fh) + 3`.
//!
//! LZOpenFile and LZInit give a handle for reading: the DOS handle itself
//! for a file that is not compressed, else an LZ handle (400 and up) over
//! the expanded bytes; LZRead, LZSeek and LZClose read, move in and close
//! either. LZCopy and CopyLZFile copy the expanded file to a DOS handle.
//! GetExpandedName puts the original last character back. Errors are the
//! LZERROR_* values (Windows 3.1 SDK).

use std::collections::BTreeMap;

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};
use crate::win16::kernel::file;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("LZEXPAND", 1, "LZCOPY", &[Arg::W, Arg::W], lz_copy),
    Api::new(
        "LZEXPAND",
        2,
        "LZOPENFILE",
        &[Arg::L, Arg::L, Arg::W],
        lz_open_file,
    ),
    Api::new("LZEXPAND", 3, "LZINIT", &[Arg::W], lz_init),
    Api::new("LZEXPAND", 4, "LZSEEK", &[Arg::W, Arg::L, Arg::W], lz_seek),
    Api::new("LZEXPAND", 5, "LZREAD", &[Arg::W, Arg::L, Arg::W], lz_read),
    Api::new("LZEXPAND", 6, "LZCLOSE", &[Arg::W], lz_close),
    Api::new("LZEXPAND", 7, "LZSTART", &[], lz_start),
    Api::new("LZEXPAND", 8, "COPYLZFILE", &[Arg::W, Arg::W], lz_copy),
    Api::new("LZEXPAND", 9, "LZDONE", &[], lz_done),
    Api::new(
        "LZEXPAND",
        10,
        "GETEXPANDEDNAME",
        &[Arg::L, Arg::L],
        get_expanded_name,
    ),
    Api::new("LZEXPAND", 11, "WEP", &[Arg::W], wep),
];

/// LZERROR_* (as 16-bit results; LZCopy's and LZSeek's are 32-bit).
pub mod lzerror {
    pub const BADINHANDLE: i32 = -1;
    pub const BADOUTHANDLE: i32 = -2;
    pub const READ: i32 = -3;
    pub const WRITE: i32 = -4;
    pub const GLOBALLOC: i32 = -5;
    pub const BADVALUE: i32 = -7;
    pub const UNKNOWNALG: i32 = -8;
}

/// The signature of a compressed file.
pub const SIGNATURE: [u8; 8] = [b'S', b'Z', b'D', b'D', 0x88, 0xF0, 0x27, 0x33];
/// The first LZ handle.
pub const FIRST_HANDLE: u16 = 400;
/// The largest expanded file kept.
pub const MAX_EXPANDED: u32 = 16 << 20;
/// The most LZ handles open.
pub const MAX_HANDLES: usize = 16;

/// An open compressed file: its DOS handle, expanded bytes, position.
#[derive(Debug, Clone)]
struct LzFile {
    dos: u16,
    data: Vec<u8>,
    pos: u32,
}

/// LZEXPAND's open handles.
#[derive(Clone, Debug, Default)]
pub struct LzState {
    files: BTreeMap<u16, LzFile>,
}

/// Expand SZDD data (module notes); Err with the LZERROR for a bad header.
pub fn expand(bytes: &[u8]) -> Result<Vec<u8>, i32> {
    if bytes.len() < 14 || bytes[..8] != SIGNATURE {
        return Err(lzerror::BADVALUE);
    }
    if bytes[8] != b'A' {
        return Err(lzerror::UNKNOWNALG);
    }
    let size = u32::from_le_bytes([bytes[10], bytes[11], bytes[12], bytes[13]]);
    if size > MAX_EXPANDED {
        return Err(lzerror::GLOBALLOC);
    }
    let mut out = Vec::with_capacity(size as usize);
    let mut window = [b' '; 4096];
    let mut pos = 4096 - 16;
    let mut input = bytes[14..].iter().copied();
    'outer: while out.len() < size as usize {
        let Some(flags) = input.next() else { break };
        for bit in 0..8 {
            if out.len() >= size as usize {
                break 'outer;
            }
            if flags & (1 << bit) != 0 {
                let Some(c) = input.next() else { break 'outer };
                out.push(c);
                window[pos] = c;
                pos = (pos + 1) & 0xFFF;
            } else {
                let (Some(lo), Some(hi)) = (input.next(), input.next()) else {
                    break 'outer;
                };
                let mut from = usize::from(lo) | (usize::from(hi & 0xF0) << 4);
                for _ in 0..(usize::from(hi & 0x0F) + 3) {
                    let c = window[from];
                    out.push(c);
                    window[pos] = c;
                    pos = (pos + 1) & 0xFFF;
                    from = (from + 1) & 0xFFF;
                }
            }
        }
    }
    out.truncate(size as usize);
    Ok(out)
}

/// Read all of DOS handle `h` from its position.
fn read_all(env: &mut Env, h: u16) -> Option<Vec<u8>> {
    let d = env.drive.as_mut()?;
    let mut out = Vec::new();
    loop {
        let b = d.read(h, 0x8000).ok()?;
        if b.is_empty() {
            return Some(out);
        }
        out.extend_from_slice(&b);
        if out.len() > MAX_EXPANDED as usize {
            return None;
        }
    }
}

fn r16(v: i32) -> u32 {
    u32::from(v as i16 as u16)
}

/// LZEXPAND.3 LZInit(hfSrc): for a compressed file an LZ handle over its
/// expanded bytes; for another the DOS handle (rewound); an LZERROR.
pub fn lz_init(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(d) = env.drive.as_mut() else {
        return Ok(r16(lzerror::BADINHANDLE));
    };
    if d.seek(h, 0, 0).is_err() {
        return Ok(r16(lzerror::BADINHANDLE));
    }
    let Ok(head) = d.read(h, 14) else {
        return Ok(r16(lzerror::READ));
    };
    if head.len() < 14 || head[..8] != SIGNATURE {
        let _ = d.seek(h, 0, 0);
        return Ok(u32::from(h));
    }
    let _ = d.seek(h, 0, 0);
    let Some(all) = read_all(env, h) else {
        return Ok(r16(lzerror::READ));
    };
    let data = match expand(&all) {
        Ok(d) => d,
        Err(e) => return Ok(r16(e)),
    };
    let s = &mut env.win16.lzexpand;
    if s.files.len() >= MAX_HANDLES {
        return Ok(r16(lzerror::GLOBALLOC));
    }
    let lz = (FIRST_HANDLE..)
        .find(|k| !s.files.contains_key(k))
        .unwrap_or(0);
    s.files.insert(
        lz,
        LzFile {
            dos: h,
            data,
            pos: 0,
        },
    );
    Ok(u32::from(lz))
}

/// LZEXPAND.2 LZOpenFile(lpszFile, lpof, wStyle): OpenFile (with
/// OF_READ, LZInit's handle follows; other modes return the DOS handle).
pub fn lz_open_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = file::open_file(env, uc, a)?;
    let style = a[2] as u16;
    if h == file::HFILE_ERROR || style & 0x7F03 != 0 {
        return Ok(h);
    }
    lz_init(env, uc, &[h])
}

/// LZEXPAND.5 LZRead(hf, lpvBuf, cb): the bytes read, or an LZERROR.
pub fn lz_read(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = env.win16.lzexpand.files.get_mut(&h) else {
        return file::lread(env, uc, a);
    };
    let start = (f.pos as usize).min(f.data.len());
    let end = (start + usize::from(a[2] as u16)).min(f.data.len());
    let chunk = f.data[start..end].to_vec();
    f.pos = end as u32;
    if !farptr::write_bytes(uc, a[1], &chunk) {
        return Ok(r16(lzerror::BADVALUE));
    }
    Ok(chunk.len() as u32)
}

/// LZEXPAND.4 LZSeek(hf, lOffset, nOrigin): the new position (0 from the
/// start, 1 from here, 2 from the end), or an LZERROR.
pub fn lz_seek(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(f) = env.win16.lzexpand.files.get_mut(&h) else {
        return file::llseek(env, uc, a);
    };
    let base = match a[2] as u16 {
        0 => 0i64,
        1 => i64::from(f.pos),
        2 => f.data.len() as i64,
        _ => return Ok(lzerror::BADVALUE as u32),
    };
    let to = base + i64::from(a[1] as i32);
    if to < 0 || to > f.data.len() as i64 {
        return Ok(lzerror::BADVALUE as u32);
    }
    f.pos = to as u32;
    Ok(f.pos)
}

/// LZEXPAND.6 LZClose(hf): the file (and its DOS handle) closed.
pub fn lz_close(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let dos = match env.win16.lzexpand.files.remove(&h) {
        Some(f) => f.dos,
        None => h,
    };
    file::lclose(env, uc, &[u32::from(dos)])?;
    Ok(0)
}

/// LZEXPAND.1 LZCopy(hfSource, hfDest) and LZEXPAND.8 CopyLZFile: copy the
/// expanded source to the destination; the bytes written, or an LZERROR.
pub fn lz_copy(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (src, dst) = (a[0] as u16, a[1] as u16);
    let data = match env.win16.lzexpand.files.get(&src) {
        Some(f) => f.data.clone(),
        None => {
            let init = lz_init(env, uc, &[u32::from(src)])? as u16;
            if init as i16 <= 0 {
                return Ok(lzerror::BADINHANDLE as u32);
            }
            match env.win16.lzexpand.files.remove(&init) {
                Some(f) => f.data,
                None => match read_all(env, src) {
                    Some(b) => b,
                    None => return Ok(lzerror::READ as u32),
                },
            }
        }
    };
    let Some(d) = env.drive.as_mut() else {
        return Ok(lzerror::BADOUTHANDLE as u32);
    };
    let mut done = 0usize;
    for piece in data.chunks(0x8000) {
        match d.write(dst, piece) {
            Ok(n) if n == piece.len() => done += n,
            Ok(_) => return Ok(lzerror::WRITE as u32),
            Err(_) => return Ok(lzerror::BADOUTHANDLE as u32),
        }
    }
    Ok(done as u32)
}

/// LZEXPAND.7 LZStart(): TRUE.
pub fn lz_start(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// LZEXPAND.9 LZDone(): nothing to release.
pub fn lz_done(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// LZEXPAND.11 WEP: 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// LZEXPAND.10 GetExpandedName(lpszSource, lpszBuffer): the name with the
/// last character the header keeps in place of a trailing `_` (module
/// notes); the name unchanged for a file that is not compressed. 1, or an
/// LZERROR.
pub fn get_expanded_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(r16(lzerror::BADINHANDLE));
    };
    let mut out = name.clone();
    let head = env.drive.as_mut().and_then(|d| {
        let h = d.open(&name, 0).ok()?;
        let b = d.read(h, 14).ok();
        let _ = d.close(h);
        b
    });
    if let Some(b) = head.filter(|b| b.len() >= 14 && b[..8] == SIGNATURE) {
        if out.last() == Some(&b'_') {
            let c = b[9];
            let last = out.len() - 1;
            // The case of the name's other letters.
            let lower = out.iter().any(|c| c.is_ascii_lowercase());
            out[last] = if lower { c.to_ascii_lowercase() } else { c };
        }
    }
    out.push(0);
    if !farptr::write_bytes(uc, a[1], &out) {
        return Ok(r16(lzerror::BADOUTHANDLE));
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compress as COMPRESS.EXE's format allows: literals and a reference
    /// for each run the window repeats.
    fn szdd(original: &[u8], refs: &[(usize, u16, u8)]) -> Vec<u8> {
        // refs: (before output index, window position, length)
        let mut out = SIGNATURE.to_vec();
        out.push(b'A');
        out.push(b'T');
        out.extend_from_slice(&(original.len() as u32).to_le_bytes());
        let mut items: Vec<Vec<u8>> = Vec::new();
        let mut flags_bits: Vec<bool> = Vec::new();
        let mut i = 0;
        while i < original.len() {
            if let Some(&(_, p, n)) = refs.iter().find(|r| r.0 == i) {
                items.push(vec![p as u8, ((p >> 4) as u8 & 0xF0) | (n - 3)]);
                flags_bits.push(false);
                i += usize::from(n);
            } else {
                items.push(vec![original[i]]);
                flags_bits.push(true);
                i += 1;
            }
        }
        for (chunk, bits) in items.chunks(8).zip(flags_bits.chunks(8)) {
            let f = bits
                .iter()
                .enumerate()
                .fold(0u8, |f, (k, &b)| f | (u8::from(b) << k));
            out.push(f);
            for it in chunk {
                out.extend_from_slice(it);
            }
        }
        out
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn szdd_expands() {
        // "abcabcabc": literals a b c at 4080..4082, then 6 bytes from
        // window position 4080.
        let data = szdd(b"abcabcabc", &[(3, 4080, 6)]);
        assert_eq!(expand(&data).unwrap(), b"abcabcabc");
        // A reference into the initial blanks.
        let data = szdd(b"x   y", &[(1, 0, 3)]);
        assert_eq!(expand(&data).unwrap(), b"x   y");
        assert_eq!(expand(b"SZDD"), Err(lzerror::BADVALUE));
        let mut bad = szdd(b"q", &[]);
        bad[8] = b'B';
        assert_eq!(expand(&bad), Err(lzerror::UNKNOWNALG));
        // A truncated stream gives what it has.
        let mut cut = szdd(b"hello world", &[]);
        cut.truncate(cut.len() - 3);
        assert_eq!(expand(&cut).unwrap(), b"hello wo");
    }
}
