//! NE relocations: the records a segment carries and how they are applied
//! to its bytes.

use std::fmt;

use super::NeSegment;
use crate::loader::LoadError;

/// A 16:16 far pointer (selector:offset) a relocation target resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FarPtr {
    /// Selector (or real-mode segment).
    pub selector: u16,
    /// Offset.
    pub offset: u16,
}

/// What a relocation record points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelocTarget {
    /// Flags 0: a fixed segment of this module (1-based) and an offset.
    Internal {
        /// Segment number (1-based).
        segment: u8,
        /// Offset within it.
        offset: u16,
    },
    /// Flags 0 with segment 0xFF: a moveable entry point, by ordinal.
    InternalMovable {
        /// Entry table ordinal.
        ordinal: u16,
    },
    /// Flags 1: an import by ordinal.
    ImportOrdinal {
        /// Module reference index (1-based).
        module: u16,
        /// Ordinal in that module.
        ordinal: u16,
    },
    /// Flags 2: an import by name.
    ImportName {
        /// Module reference index (1-based).
        module: u16,
        /// The imported name (read from the imported-names table).
        name: String,
    },
    /// Flags 3: an OS fixup (floating-point emulation; `kind` 1..6 names the
    /// instruction pattern). The bytes are left alone.
    OsFixup {
        /// Fixup type.
        kind: u16,
    },
}

impl fmt::Display for RelocTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelocTarget::Internal { segment, offset } => {
                write!(f, "segment {segment}:{offset:04X}")
            }
            RelocTarget::InternalMovable { ordinal } => write!(f, "entry @{ordinal}"),
            RelocTarget::ImportOrdinal { module, ordinal } => {
                write!(f, "module #{module} ordinal {ordinal}")
            }
            RelocTarget::ImportName { module, name } => write!(f, "module #{module} '{name}'"),
            RelocTarget::OsFixup { kind } => write!(f, "OS fixup {kind}"),
        }
    }
}

/// Relocation source type: low byte of the offset.
pub const RELOC_LOBYTE: u8 = 0;
/// Relocation source type: 16-bit selector.
pub const RELOC_SELECTOR: u8 = 2;
/// Relocation source type: 16:16 far pointer (offset, then selector).
pub const RELOC_FARPTR: u8 = 3;
/// Relocation source type: 16-bit offset.
pub const RELOC_OFFSET: u8 = 5;
/// Relocation source type: 16:32 pointer (32-bit offset, then selector).
pub const RELOC_FARPTR48: u8 = 11;
/// Relocation source type: 32-bit offset.
pub const RELOC_OFFSET32: u8 = 13;
/// Relocation flag bit: additive (win16.md: "bit 2 additive").
pub const RELOC_ADDITIVE: u8 = 0x04;

/// One 8-byte relocation record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeReloc {
    /// Source type (`RELOC_*`): what kind of location is patched.
    pub src_type: u8,
    /// Flags: low two bits the target kind, bit 2 ([`RELOC_ADDITIVE`]).
    pub flags: u8,
    /// Offset in the segment of the (first) location to patch.
    pub offset: u16,
    /// What the location is made to point at.
    pub target: RelocTarget,
}

impl NeReloc {
    /// True when the target is added to the one location (no chain).
    pub fn is_additive(&self) -> bool {
        self.flags & RELOC_ADDITIVE != 0
    }
}

/// Width in bytes of the location a source type patches, or None for an
/// unknown source type.
fn src_width(src_type: u8) -> Option<usize> {
    match src_type {
        RELOC_LOBYTE => Some(1),
        RELOC_SELECTOR | RELOC_OFFSET => Some(2),
        RELOC_FARPTR | RELOC_OFFSET32 => Some(4),
        RELOC_FARPTR48 => Some(6),
        _ => None,
    }
}

fn get_word(data: &[u8], at: usize) -> Option<u16> {
    match data.get(at..at.checked_add(2)?)? {
        &[a, b] => Some(u16::from_le_bytes([a, b])),
        _ => None,
    }
}

fn put(data: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(d) = at
        .checked_add(bytes.len())
        .and_then(|end| data.get_mut(at..end))
    {
        d.copy_from_slice(bytes);
    }
}

/// Patch one location (the caller checked that it lies inside `data`).
///
/// - 0 low byte: the low byte of the offset (additive: added to the byte).
/// - 2 selector: the selector (additive: added to the word; a zero word,
///   which Borland's linker emits, simply receives the selector).
/// - 3 far pointer: offset word then selector word (additive: the offset is
///   added to the first word, the selector stored in the second).
/// - 5 offset: the offset (additive: added).
/// - 11 48-bit pointer: 32-bit offset (zero-extended; additive: added) then
///   the selector.
/// - 13 32-bit offset: zero-extended (additive: added).
fn patch(data: &mut [u8], at: usize, src_type: u8, p: FarPtr, additive: bool) {
    let word = get_word(data, at).unwrap_or(0);
    match src_type {
        RELOC_LOBYTE => {
            let old = data.get(at).copied().unwrap_or(0);
            let lo = p.offset as u8;
            put(
                data,
                at,
                &[if additive { old.wrapping_add(lo) } else { lo }],
            );
        }
        RELOC_SELECTOR => {
            let v = if additive {
                word.wrapping_add(p.selector)
            } else {
                p.selector
            };
            put(data, at, &v.to_le_bytes());
        }
        RELOC_OFFSET => {
            let v = if additive {
                word.wrapping_add(p.offset)
            } else {
                p.offset
            };
            put(data, at, &v.to_le_bytes());
        }
        RELOC_FARPTR => {
            let v = if additive {
                word.wrapping_add(p.offset)
            } else {
                p.offset
            };
            put(data, at, &v.to_le_bytes());
            put(data, at + 2, &p.selector.to_le_bytes());
        }
        RELOC_OFFSET32 | RELOC_FARPTR48 => {
            let old = match data.get(at..at + 4) {
                Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
                _ => 0,
            };
            let v = if additive {
                old.wrapping_add(p.offset as u32)
            } else {
                p.offset as u32
            };
            put(data, at, &v.to_le_bytes());
            if src_type == RELOC_FARPTR48 {
                put(data, at + 4, &p.selector.to_le_bytes());
            }
        }
        _ => {}
    }
}

/// Apply a segment's relocation records to its in-memory data.
///
/// Rules (win16.md, "Relocations follow a segment's data"):
/// - OS fixups (flags & 3 == 3, floating-point emulation) leave the bytes
///   alone; `resolve` is not called for them. They stay listed in
///   [`NeSegment::relocs`] for whoever wants them.
/// - Every other record's target is given to `resolve`, which returns the
///   far pointer it stands for; an `Err` from it becomes a [`LoadError`].
/// - Additive records (flags & 4) add the target to the one location at
///   `offset`; there is no chain.
/// - Other records start a chain: each location holds (in its first word)
///   the offset of the next location, and the chain ends at 0xFFFF. A chain
///   that returns to one of its own locations is a cycle, an error; so is a
///   location (or the word holding the next link) outside `data`.
/// - A location may be reached by only one chain per call: once patched, its
///   first word no longer holds a link, so a second chain through it would
///   follow garbage. Reaching it again is an error naming both records. This
///   also bounds the work to one step per byte of `data`, whatever the
///   records say.
///
/// Errors name the record (its file offset when the parser read it) and,
/// in the message, the offset in the segment.
pub fn apply_relocations(
    data: &mut [u8],
    relocs: &[NeReloc],
    resolve: &mut dyn FnMut(&RelocTarget) -> Result<FarPtr, String>,
) -> Result<(), LoadError> {
    relocate(data, relocs, None, resolve, &mut |_, _| {})
}

/// [`apply_relocations`] for a segment parsed from a file: its errors
/// carry the file offset of the record at fault (the records follow the
/// segment's data, after their count).
pub fn apply_segment_relocations(
    data: &mut [u8],
    seg: &NeSegment,
    resolve: &mut dyn FnMut(&RelocTarget) -> Result<FarPtr, String>,
) -> Result<(), LoadError> {
    let table = seg.file_offset + u64::from(seg.file_length());
    relocate(data, &seg.relocs, Some(table), resolve, &mut |_, _| {})
}

/// Where a segment's relocation records patch it, as [`apply_relocations`]
/// walks them (the same rules: OS fixups patch nothing, an additive record
/// one location, any other a chain): each location's offset in the
/// segment and the index of the record in [`NeSegment::relocs`], in the
/// order they are patched. For a static listing (`disasm`), which shows
/// what each patched place will hold. Errors as for loading.
pub fn relocation_sites(seg: &NeSegment) -> Result<Vec<(u16, usize)>, LoadError> {
    let table = seg.file_offset + u64::from(seg.file_length());
    let mut data = seg.data.clone();
    let mut sites = Vec::new();
    relocate(
        &mut data,
        &seg.relocs,
        Some(table),
        &mut |_| {
            Ok(FarPtr {
                selector: 0,
                offset: 0,
            })
        },
        &mut |at, record| sites.push((at as u16, record)),
    )?;
    Ok(sites)
}

fn relocate(
    data: &mut [u8],
    relocs: &[NeReloc],
    table: Option<u64>,
    resolve: &mut dyn FnMut(&RelocTarget) -> Result<FarPtr, String>,
    on_site: &mut dyn FnMut(usize, usize),
) -> Result<(), LoadError> {
    // seen[o] == i + 1 when record i's chain has visited offset o.
    let mut seen: Vec<usize> = Vec::new();
    let len = data.len();
    for (i, r) in relocs.iter().enumerate() {
        if matches!(r.target, RelocTarget::OsFixup { .. }) {
            continue;
        }
        let field = || format!("relocation record {i}");
        // The record's file offset, when the parser knew it.
        let err = |message: String| match table {
            None => LoadError::whole(field(), message),
            Some(t) => LoadError::at(t + 2 + 8 * i as u64, field(), message),
        };
        let Some(width) = src_width(r.src_type) else {
            return Err(err(format!(
                "unknown source type {} (expected 0, 2, 3, 5, 11 or 13)",
                r.src_type
            )));
        };
        let target =
            resolve(&r.target).map_err(|m| err(format!("cannot resolve {}: {m}", r.target)))?;
        let fits = |at: usize, need: usize| at.checked_add(need).is_some_and(|e| e <= len);
        if r.is_additive() {
            let at = r.offset as usize;
            if !fits(at, width) {
                return Err(err(format!(
                    "additive location {at:#06X} ({width} bytes) lies outside the segment \
                         data ({:#X} bytes)",
                    data.len()
                )));
            }
            patch(data, at, r.src_type, target, true);
            on_site(at, i);
            continue;
        }
        if seen.len() != data.len() {
            seen = vec![0; data.len()];
        }
        let stamp = i + 1;
        let mut at = r.offset as usize;
        loop {
            if !fits(at, width.max(2)) {
                return Err(err(format!(
                    "chain location {at:#06X} ({} bytes) lies outside the segment data \
                         ({:#X} bytes)",
                    width.max(2),
                    data.len()
                )));
            }
            match seen.get_mut(at) {
                Some(s) if *s == stamp => {
                    return Err(err(format!(
                        "relocation chain starting at {:#06X} returns to {at:#06X}: a cycle",
                        r.offset
                    )));
                }
                Some(s) if *s != 0 => {
                    return Err(err(format!(
                        "relocation chain starting at {:#06X} reaches {at:#06X}, which \
                             relocation record {} already patched",
                        r.offset,
                        *s - 1
                    )));
                }
                Some(s) => *s = stamp,
                None => {}
            }
            let next = get_word(data, at).unwrap_or(0xFFFF);
            patch(data, at, r.src_type, target, false);
            on_site(at, i);
            if next == 0xFFFF {
                break;
            }
            at = next as usize;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::NeImage;
    use super::super::tests::{build_ne, resolver};
    use super::*;

    #[test]
    fn applies_chain_additive_and_skips_os_fixups() {
        let f = build_ne();
        let ne = NeImage::parse(&f).unwrap();
        let s1 = &ne.segments[0];
        let mut data = s1.data.clone();
        apply_relocations(&mut data, &s1.relocs, &mut resolver).unwrap();
        let word = |o: usize| u16::from_le_bytes([data[o], data[o + 1]]);
        for at in [0x02, 0x08, 0x10] {
            assert_eq!(
                (word(at), word(at + 2)),
                (0x4321, 0x1237),
                "far ptr at {at:#x}"
            );
        }
        assert_eq!(word(0x14), 0x0013, "additive 3 + 0x10");
        assert_eq!(word(0x18), 0x00F7);
        assert_eq!(word(0x1C), 0x9090, "OS fixup leaves bytes alone");
        assert_eq!(data[0x00], 0x90);
    }

    #[test]
    fn cyclic_and_out_of_range_chains_are_errors() {
        let f = build_ne();
        let ne = NeImage::parse(&f).unwrap();
        let relocs = vec![ne.segments[0].relocs[0].clone()];
        let mut data = ne.segments[0].data.clone();
        data[0x10..0x12].copy_from_slice(&0x0002u16.to_le_bytes());
        let e = apply_relocations(&mut data, &relocs, &mut resolver).unwrap_err();
        assert!(
            e.message.contains("cycle") && e.message.contains("0x0002"),
            "{e}"
        );
        let mut data = ne.segments[0].data.clone();
        data[0x10..0x12].copy_from_slice(&0x001Eu16.to_le_bytes());
        let e = apply_relocations(&mut data, &relocs, &mut resolver).unwrap_err();
        assert!(
            e.message.contains("0x001E") && e.message.contains("outside"),
            "{e}"
        );
        let mut data = ne.segments[0].data.clone();
        let e = apply_relocations(&mut data, &ne.segments[0].relocs[..3], &mut |_| {
            Err("nope".to_string())
        })
        .unwrap_err();
        assert!(e.message.contains("nope"), "{e}");
    }

    #[test]
    fn chains_may_not_share_locations() {
        let f = build_ne();
        let ne = NeImage::parse(&f).unwrap();
        let first = ne.segments[0].relocs[0].clone();
        let mut second = first.clone();
        second.offset = 0x08;
        let mut data = ne.segments[0].data.clone();
        let e = apply_relocations(&mut data, &[first, second], &mut resolver).unwrap_err();
        assert_eq!(e.field, "relocation record 1");
        assert!(e.message.contains("record 0 already patched"), "{e}");
    }
}
