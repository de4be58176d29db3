//! The NE resource table.

use std::fmt;
use std::sync::Arc;

use super::NeHeader;
use crate::loader::{FileBytes, LoadError, Reader};

/// A resource type or name: an integer id or a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceId {
    /// An integer id (high bit stripped).
    Int(u16),
    /// A name from the resource table.
    Name(String),
}

impl fmt::Display for ResourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceId::Int(n) => write!(f, "#{n}"),
            ResourceId::Name(s) => write!(f, "{s}"),
        }
    }
}

/// One resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeResource {
    /// Its id or name.
    pub id: ResourceId,
    /// File offset of its data.
    pub file_offset: u64,
    /// Length of its data in bytes.
    pub length: u64,
    /// Resource flags (0x10 moveable, 0x20 pure, 0x40 preload).
    pub flags: u16,
    /// Its bytes: `length` bytes from `file_offset`, fewer when the file
    /// ends first. A range of the file shared with every other resource
    /// (see [`FileBytes`]), never a copy: entries that all point at the same
    /// bytes cost the file's size once.
    pub data: FileBytes,
}

/// All resources of one type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeResourceType {
    /// The type (integer types are the RT_* numbers: 1 cursor, 2 bitmap,
    /// 3 icon, 4 menu, 5 dialog, 6 string, 7 fontdir, 8 font, ...).
    pub type_id: ResourceId,
    /// The resources.
    pub resources: Vec<NeResource>,
}

/// Parse the resource table: an alignment shift word, then per type a type id
/// (0 ends the table), a count, 4 reserved bytes and `count` 12-byte
/// entries (offset and length in alignment units, flags, id, 4 reserved).
/// Ids with the high bit set are integers; others are offsets of
/// length-prefixed names from the start of the table.
pub(super) fn parse_resources(
    r: &Reader<'_>,
    h: &NeHeader,
    bytes: &[u8],
) -> Result<Vec<NeResourceType>, LoadError> {
    if h.resource_table_offset == h.resident_names_offset {
        return Ok(Vec::new());
    }
    // One copy of the file, which every resource's bytes are a range of.
    let mut file: Option<FileBytes> = None;
    let start = h.rel(h.resource_table_offset);
    let shift = r.u16(start, "resource alignment shift")?;
    if shift > 24 {
        return Err(LoadError::at(
            start,
            "resource alignment shift",
            format!("shift {shift} is not plausible (expected 0..=24)"),
        ));
    }
    // Names are copied; in a real table each lies in the table once, so
    // together they are smaller than the file. Entries of a corrupt one can
    // all name the same 255 bytes: bound what all names copy.
    let name_budget = r.len().saturating_add(0x10000);
    let name_bytes = std::cell::Cell::new(0u64);
    let name = |v: u16, at: u64| -> Result<ResourceId, LoadError> {
        if v & 0x8000 != 0 {
            return Ok(ResourceId::Int(v & 0x7FFF));
        }
        let (s, _) = r.pstring(start + v as u64, "resource name").map_err(|_| {
            LoadError::at(
                at,
                "resource name",
                format!("name offset {v:#X} points past the end of the file"),
            )
        })?;
        name_bytes.set(name_bytes.get() + s.len() as u64);
        if name_bytes.get() > name_budget {
            return Err(LoadError::at(
                at,
                "resource name",
                format!(
                    "the resource names come to more than {name_budget:#X} bytes in a file of \
                     {:#X}: entries name the same bytes over and over; the resource table is \
                     corrupt",
                    r.len()
                ),
            ));
        }
        Ok(ResourceId::Name(s))
    };
    let mut out = Vec::new();
    let mut p = start + 2;
    loop {
        let t = r.u16(p, "resource type")?;
        if t == 0 {
            break;
        }
        let count = r.u16(p + 2, "resource count")? as u64;
        r.bytes(p + 8, count * 12, "resources").map_err(|_| {
            LoadError::at(
                p + 2,
                "resource count",
                format!(
                    "{count} resources of 12 bytes at {:#X} run past the end of the file (size \
                     {:#X})",
                    p + 8,
                    r.len()
                ),
            )
        })?;
        let type_id = name(t, p)?;
        let mut resources = Vec::with_capacity(count as usize);
        for i in 0..count {
            let e = p + 8 + i * 12;
            let off = (r.u16(e, "resource offset")? as u64) << shift;
            let len = (r.u16(e + 2, "resource length")? as u64) << shift;
            let data = if off < r.len() && len > 0 {
                file.get_or_insert_with(|| FileBytes::whole(Arc::from(bytes)))
                    .slice(off, len)
            } else {
                FileBytes::default()
            };
            resources.push(NeResource {
                file_offset: off,
                length: len,
                data,
                flags: r.u16(e + 4, "resource flags")?,
                id: name(r.u16(e + 6, "resource id")?, e + 6)?,
            });
        }
        out.push(NeResourceType { type_id, resources });
        p += 8 + count * 12;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::NeImage;
    use super::super::tests::build_ne;
    use super::*;

    #[test]
    fn resource_table() {
        // A tiny resource table in place of the module's empty one.
        let mut f = build_ne();
        // Point rsrctab at 0xD0 (rel 0x90): shift 4, one type RT_FONT (8)
        // with two resources (#1, "NAMED"), then end.
        f[0x64..0x66].copy_from_slice(&0x90u16.to_le_bytes());
        let t: Vec<u8> = [
            &4u16.to_le_bytes()[..],
            &0x8008u16.to_le_bytes(),
            &2u16.to_le_bytes(),
            &[0, 0, 0, 0],
            &[0x30, 0, 0x02, 0, 0x30, 0, 0x01, 0x80, 0, 0, 0, 0],
            &[0x32, 0, 0x01, 0, 0x30, 0, 0x24, 0x00, 0, 0, 0, 0],
            &[0, 0],
            b"\x05NAMED",
        ]
        .concat();
        f[0xD0..0xD0 + t.len()].copy_from_slice(&t);
        let ne = NeImage::parse(&f).unwrap();
        assert_eq!(ne.resources.len(), 1);
        let rt = &ne.resources[0];
        assert_eq!(rt.type_id, ResourceId::Int(8));
        assert_eq!(rt.resources[0].id, ResourceId::Int(1));
        assert_eq!(
            (rt.resources[0].file_offset, rt.resources[0].length),
            (0x300, 0x20)
        );
        assert_eq!(rt.resources[1].id, ResourceId::Name("NAMED".into()));
        // The bytes, as far as the file has them.
        let r0 = &rt.resources[0];
        let have = f.len().saturating_sub(0x300).min(0x20);
        assert_eq!(r0.data, f[0x300.min(f.len())..][..have].to_vec());
        let mut g = f.clone();
        g.resize(0x340, 0xAB);
        let ne = NeImage::parse(&g).unwrap();
        assert_eq!(ne.resources[0].resources[0].data, g[0x300..0x320].to_vec());
        assert_eq!(ne.resources[0].resources[1].data, g[0x320..0x330].to_vec());
    }
}
