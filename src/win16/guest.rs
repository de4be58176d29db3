//! Reading and writing the program's memory through the far pointers it
//! passes to system functions, checked the way a protected-mode Windows
//! checks them: a pointer is usable only when its selector names a present
//! segment whose limit covers every byte, and a destination must be a
//! writable data segment. A bad pointer makes the function fail (FALSE, 0)
//! rather than stop the emulator.

use crate::machine::{Cpu, Uc};

pub use super::farptr::split;

/// Can `len` bytes at `p` be read (or, with `write`, written)?
pub fn usable(uc: &Uc<'_>, p: u32, len: usize, write: bool) -> bool {
    let (seg, off) = split(p);
    let Some(d) = uc.descriptor_of(seg) else {
        return false;
    };
    let end = u64::from(off) + len as u64;
    let covers = len == 0 || end - 1 <= u64::from(d.limit);
    // Code segments here are readable (CODE_R3); data segments writable
    // when bit 1 of the access byte is set.
    let kind_ok = !write || (!d.is_code() && d.access & 0x02 != 0);
    // A program's pointers are ring-3 LDT selectors; the GDT's flat ring-0
    // segments (the machine's own) are out of its reach.
    let ring3 = seg & 4 != 0 && d.dpl() == 3;
    ring3 && d.present() && d.is_segment() && covers && kind_ok
}

/// `len` bytes at `p`, or `None` if the pointer is bad.
pub fn read(uc: &Uc<'_>, p: u32, len: usize) -> Option<Vec<u8>> {
    if !usable(uc, p, len, false) {
        return None;
    }
    let (seg, off) = split(p);
    let mut b = vec![0u8; len];
    uc.read_seg(seg, off, &mut b).ok()?;
    Some(b)
}

/// The DWORD at `p` (a structure's dwSize), or `None`.
pub fn read_u32(uc: &Uc<'_>, p: u32) -> Option<u32> {
    let b = read(uc, p, 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Write `data` at `p`; false (and nothing written) if the pointer is bad.
pub fn write(uc: &mut Uc<'_>, p: u32, data: &[u8]) -> bool {
    if !usable(uc, p, data.len(), true) {
        return false;
    }
    let (seg, off) = split(p);
    uc.write_seg(seg, off, data).is_ok()
}

/// A NUL-terminated string at `p`, at most `max` bytes; `None` if the
/// pointer is bad or no terminator comes within `max` bytes or the
/// segment.
pub fn read_cstr(uc: &Uc<'_>, p: u32, max: usize) -> Option<Vec<u8>> {
    let (seg, _) = split(p);
    let d = uc.descriptor_of(seg)?;
    if seg & 4 == 0 || d.dpl() != 3 || !(d.present() && d.is_segment()) {
        return None;
    }
    // farptr's bound counts the terminator's byte too.
    super::farptr::read_cstr(uc, p, max + 1)
}
