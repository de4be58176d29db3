//! Far pointers that programs pass to system functions (`selector << 16 |
//! offset`), and the strings and buffers behind them.
//!
//! Every access goes through [`Cpu`], which checks the selector and the
//! segment limit, so a bad pointer from the program comes back as `None`
//! and the system function turns it into the answer Windows gives (usually
//! 0), never a panic.

use crate::machine::{Cpu, Uc};

/// The longest string a system function reads: one whole segment.
pub const MAX_STRING: usize = 0x1_0000;

/// (selector, offset) of a far pointer.
pub fn split(p: u32) -> (u16, u16) {
    ((p >> 16) as u16, p as u16)
}

/// A far pointer from (selector, offset).
pub fn make(sel: u16, off: u16) -> u32 {
    u32::from(sel) << 16 | u32::from(off)
}

/// `p` advanced by `n` bytes inside its segment (the offset wraps at 64 KiB
/// as 16-bit code's pointer arithmetic does).
pub fn add(p: u32, n: usize) -> u32 {
    let (sel, off) = split(p);
    make(sel, off.wrapping_add(n as u16))
}

/// A NULL far pointer, or an integer passed where a string may be
/// (`MAKEINTATOM`, `MAKEINTRESOURCE`): the selector word is 0.
pub fn is_int(p: u32) -> bool {
    p >> 16 == 0
}

/// The NUL-terminated string at `p`, without its NUL: None when the
/// selector is not valid or no NUL comes within `max` bytes before the
/// segment limit (Windows would fault reading past it).
pub fn read_cstr(uc: &Uc<'_>, p: u32, max: usize) -> Option<Vec<u8>> {
    let (sel, off) = split(p);
    let limit = uc.descriptor_of(sel)?.limit;
    if u32::from(off) > limit {
        return None;
    }
    // Up to the limit, and no further than offset FFFFh: a 16-bit offset
    // does not go on past it (a descriptor's limit can be 4 GiB - 1, where
    // `limit + 1` alone would overflow).
    let room = (u64::from(limit) - u64::from(off) + 1).min(0x1_0000 - u64::from(off)) as usize;
    let mut out = Vec::new();
    let mut at = off;
    while out.len() < max.min(room) {
        let n = 256.min(max.min(room) - out.len());
        let mut chunk = vec![0u8; n];
        uc.read_seg(sel, at, &mut chunk).ok()?;
        if let Some(z) = chunk.iter().position(|&b| b == 0) {
            out.extend_from_slice(&chunk[..z]);
            return Some(out);
        }
        out.extend_from_slice(&chunk);
        at = at.wrapping_add(n as u16);
    }
    None
}

/// `n` bytes at `p`, or None if any of them is unreadable.
pub fn read_bytes(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<u8>> {
    let (sel, off) = split(p);
    if n > MAX_STRING || usize::from(off) + n > MAX_STRING {
        return None;
    }
    let mut b = vec![0u8; n];
    uc.read_seg(sel, off, &mut b).ok()?;
    Some(b)
}

/// The word at `p`.
pub fn read_u16(uc: &Uc<'_>, p: u32) -> Option<u16> {
    let (sel, off) = split(p);
    uc.read_u16_at(sel, off).ok()
}

/// Write `data` at `p`; false (and nothing written) if any byte of it lies
/// outside the segment or the selector is not valid.
pub fn write_bytes(uc: &mut Uc<'_>, p: u32, data: &[u8]) -> bool {
    let (sel, off) = split(p);
    if usize::from(off) + data.len() > MAX_STRING {
        return false;
    }
    uc.write_seg(sel, off, data).is_ok()
}

/// A buffer size passed as an int: a negative one is no room at all.
pub fn int_size(arg: u32) -> usize {
    (arg as u16 as i16).max(0) as usize
}

/// Copy `s` into the buffer at `p` of `size` bytes as Windows' string
/// functions do: at most `size - 1` bytes, then a NUL. Returns the number
/// of bytes copied without the NUL, or None if the buffer is not writable
/// (nothing is written for `size` 0).
pub fn write_cstr_truncated(uc: &mut Uc<'_>, p: u32, s: &[u8], size: usize) -> Option<usize> {
    if size == 0 {
        return Some(0);
    }
    let n = s.len().min(size - 1);
    let mut b = Vec::with_capacity(n + 1);
    b.extend_from_slice(&s[..n]);
    b.push(0);
    write_bytes(uc, p, &b).then_some(n)
}

/// A name argument that is either a string or an integer id: resource
/// names and types, atoms. `#123` strings are integers too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameArg {
    Int(u16),
    Str(Vec<u8>),
}

impl NameArg {
    /// Read the argument: an integer when the selector word is 0, else the
    /// string (None when it is unreadable). `#digits` is the integer the
    /// digits give (0xFFFF when larger).
    pub fn read(uc: &Uc<'_>, p: u32) -> Option<NameArg> {
        if is_int(p) {
            return Some(NameArg::Int(p as u16));
        }
        let s = read_cstr(uc, p, MAX_STRING)?;
        Some(NameArg::parse(s))
    }

    /// `#digits` → Int, anything else → Str.
    pub fn parse(s: Vec<u8>) -> NameArg {
        match s.split_first() {
            Some((b'#', digits)) if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) => {
                let n = digits.iter().fold(0u32, |n, d| {
                    n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                });
                NameArg::Int(n.min(0xFFFF) as u16)
            }
            _ => NameArg::Str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Machine, SegKind};

    #[test]
    fn strings_stop_at_nul_or_fail_at_the_limit() {
        let mut m = Machine::new_protected().unwrap();
        let ds = m
            .alloc_segment(SegKind::Data, 0x10, b"hello\0abcdefghij")
            .unwrap();
        assert_eq!(read_cstr(&m, make(ds, 0), 100), Some(b"hello".to_vec()));
        // "abcdefghij" runs into the limit without a NUL.
        assert_eq!(read_cstr(&m, make(ds, 6), 100), None);
        assert_eq!(read_cstr(&m, make(ds, 0x10), 100), None);
        assert_eq!(read_cstr(&m, make(0, 0), 100), None);
        assert_eq!(read_cstr(&m, make(0x1234, 0), 100), None);
        assert_eq!(read_cstr(&m, make(ds, 0), 3), None);
        assert_eq!(write_cstr_truncated(&mut m, make(ds, 0xE), b"xyz", 4), None);
        assert_eq!(
            write_cstr_truncated(&mut m, make(ds, 0xC), b"xyz", 4),
            Some(3)
        );
        assert_eq!(
            write_cstr_truncated(&mut m, make(ds, 0), b"xyz", 2),
            Some(1)
        );
        assert_eq!(read_cstr(&m, make(ds, 0), 100), Some(b"x".to_vec()));
        assert_eq!(write_cstr_truncated(&mut m, make(0, 0), b"xyz", 0), Some(0));
    }

    #[test]
    fn name_arguments() {
        assert_eq!(NameArg::parse(b"#123".to_vec()), NameArg::Int(123));
        assert_eq!(NameArg::parse(b"#99999".to_vec()), NameArg::Int(0xFFFF));
        assert_eq!(NameArg::parse(b"#".to_vec()), NameArg::Str(b"#".to_vec()));
        assert_eq!(
            NameArg::parse(b"#1a".to_vec()),
            NameArg::Str(b"#1a".to_vec())
        );
        assert_eq!(
            NameArg::parse(b"ABC".to_vec()),
            NameArg::Str(b"ABC".to_vec())
        );
    }
}
