//! DOS `MZ` executables.
//!
//! The header is 0x1C bytes (through e_ovno); e_lfanew at 0x3C exists only
//! when the file is at least 0x40 bytes. The load module is computed as DOS
//! computes it (see [`MzHeader::load_module`]), which lets files whose header
//! overlaps their code (a zero-paragraph header) load as they do on DOS.

use std::ops::Range;

use super::{LoadError, Reader};

/// True when the file starts with `MZ` or `ZM` (DOS accepts both).
pub fn has_mz_signature(bytes: &[u8]) -> bool {
    matches!(bytes, [b'M', b'Z', ..] | [b'Z', b'M', ..])
}

/// The DOS executable header, every field at its offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MzHeader {
    /// 0x00: `MZ` (0x5A4D) or `ZM` (0x4D5A).
    pub e_magic: u16,
    /// 0x02: bytes used in the last 512-byte page (0 = the whole page).
    pub e_cblp: u16,
    /// 0x04: 512-byte pages in the file, counting the last partial one.
    pub e_cp: u16,
    /// 0x06: relocation count.
    pub e_crlc: u16,
    /// 0x08: header size in 16-byte paragraphs.
    pub e_cparhdr: u16,
    /// 0x0A: paragraphs needed beyond the load module.
    pub e_minalloc: u16,
    /// 0x0C: paragraphs wanted beyond the load module.
    pub e_maxalloc: u16,
    /// 0x0E: initial SS, relative to the load segment.
    pub e_ss: u16,
    /// 0x10: initial SP.
    pub e_sp: u16,
    /// 0x12: checksum.
    pub e_csum: u16,
    /// 0x14: initial IP.
    pub e_ip: u16,
    /// 0x16: initial CS, relative to the load segment.
    pub e_cs: u16,
    /// 0x18: file offset of the relocation table.
    pub e_lfarlc: u16,
    /// 0x1A: overlay number.
    pub e_ovno: u16,
    /// 0x3C: offset of a new-format header, when the file has 0x40 bytes.
    pub e_lfanew: Option<u32>,
}

/// Size of the fixed part of the header every MZ file must have.
pub const MZ_HEADER_MIN: u64 = 0x1C;

impl MzHeader {
    /// Read the header.
    pub fn parse(bytes: &[u8]) -> Result<Self, LoadError> {
        let r = Reader::new(bytes);
        let e_magic = r.u16(0, "e_magic")?;
        if e_magic != 0x5A4D && e_magic != 0x4D5A {
            return Err(LoadError::at(
                0,
                "e_magic",
                format!("expected 'MZ' (0x5A4D), found {e_magic:#06X}"),
            ));
        }
        if r.len() < MZ_HEADER_MIN {
            return Err(LoadError::at(
                r.len(),
                "MZ header",
                format!(
                    "the MZ header needs {MZ_HEADER_MIN:#X} bytes but the file has only {:#X}",
                    r.len()
                ),
            ));
        }
        let w = |o: u64, f: &str| r.u16(o, f);
        Ok(MzHeader {
            e_magic,
            e_cblp: w(0x02, "e_cblp")?,
            e_cp: w(0x04, "e_cp")?,
            e_crlc: w(0x06, "e_crlc")?,
            e_cparhdr: w(0x08, "e_cparhdr")?,
            e_minalloc: w(0x0A, "e_minalloc")?,
            e_maxalloc: w(0x0C, "e_maxalloc")?,
            e_ss: w(0x0E, "e_ss")?,
            e_sp: w(0x10, "e_sp")?,
            e_csum: w(0x12, "e_csum")?,
            e_ip: w(0x14, "e_ip")?,
            e_cs: w(0x16, "e_cs")?,
            e_lfarlc: w(0x18, "e_lfarlc")?,
            e_ovno: w(0x1A, "e_ovno")?,
            e_lfanew: if r.len() >= 0x40 {
                Some(r.u32(0x3C, "e_lfanew")?)
            } else {
                None
            },
        })
    }

    /// Header size in bytes (e_cparhdr * 16).
    pub fn header_size(&self) -> u64 {
        self.e_cparhdr as u64 * 16
    }

    /// The load module's byte range in a file of `file_size` bytes, computed
    /// as DOS does: the image is e_cp * 512 bytes, less (512 - e_cblp) when
    /// e_cblp is 1..=511 (0, and the nonsensical 512 and above, mean a full
    /// last page), less the header; it starts after the header. A file
    /// shorter than its header claims loads what it has (DOS reads what is
    /// there), so the end is clamped to the file size.
    pub fn load_module(&self, file_size: u64) -> Result<Range<u64>, LoadError> {
        let mut total = self.e_cp as u64 * 512;
        if (1..512).contains(&self.e_cblp) {
            total = total.saturating_sub(512 - self.e_cblp as u64);
        }
        let start = self.header_size();
        if start > file_size {
            return Err(LoadError::at(
                0x08,
                "e_cparhdr",
                format!(
                    "header of {:#X} paragraphs ({start:#X} bytes) is larger than the file \
                     (size {file_size:#X})",
                    self.e_cparhdr
                ),
            ));
        }
        if total < start {
            return Err(LoadError::at(
                0x04,
                "e_cp",
                format!(
                    "the file size in the header ({total:#X} bytes from e_cp {:#X}, e_cblp \
                     {:#X}) is smaller than the header ({start:#X} bytes)",
                    self.e_cp, self.e_cblp
                ),
            ));
        }
        Ok(start..total.min(file_size))
    }
}

/// A DOS MZ executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MzImage {
    /// The header.
    pub header: MzHeader,
    /// Size of the whole file.
    pub file_size: u64,
    /// File byte range of the load module.
    pub image_range: Range<u64>,
    /// The load module, copied out of the file.
    pub image: Vec<u8>,
    /// Segment relocations (offset, segment), relative to the load segment.
    pub relocs: Vec<(u16, u16)>,
    /// Offset of an `NE` header, when e_lfanew points at one inside the file.
    pub ne_offset: Option<u32>,
    /// The two signature bytes e_lfanew points at, when it points inside the
    /// file and the file has 0x40 bytes (`NE`, `PE`, `LE`, `LX`, or anything).
    pub new_signature: Option<[u8; 2]>,
}

impl MzImage {
    /// Parse an MZ file: header, load module, relocation table, and whether a
    /// new-format header follows.
    pub fn parse(bytes: &[u8]) -> Result<Self, LoadError> {
        let header = MzHeader::parse(bytes)?;
        let r = Reader::new(bytes);
        let image_range = header.load_module(r.len())?;
        let image = r
            .bytes(
                image_range.start,
                image_range.end - image_range.start,
                "load module",
            )?
            .to_vec();
        let n = header.e_crlc as u64;
        let table = header.e_lfarlc as u64;
        if n > 0 {
            // Check the whole table before allocating for it.
            r.bytes(table, n * 4, "relocation table").map_err(|_| {
                LoadError::at(
                    0x18,
                    "e_lfarlc",
                    format!(
                        "relocation table of {n} entries at {table:#X} runs past the end of the \
                         file (size {:#X})",
                        r.len()
                    ),
                )
            })?;
        }
        let mut relocs = Vec::with_capacity(n as usize);
        for i in 0..n {
            let o = table + i * 4;
            relocs.push((
                r.u16(o, "relocation offset")?,
                r.u16(o + 2, "relocation segment")?,
            ));
        }
        let mut ne_offset = None;
        let mut new_signature = None;
        if let Some(lfanew) = header.e_lfanew {
            if let Ok(&[a, b]) = r.bytes(lfanew as u64, 2, "new header signature") {
                let sig = [a, b];
                new_signature = Some(sig);
                if &sig == b"NE" {
                    ne_offset = Some(lfanew);
                }
            }
        }
        Ok(MzImage {
            header,
            file_size: r.len(),
            image_range,
            image,
            relocs,
            ne_offset,
            new_signature,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mz(cblp: u16, cp: u16, crlc: u16, cparhdr: u16, lfarlc: u16, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        let put = |v: &mut Vec<u8>, o: usize, x: u16| {
            v[o..o + 2].copy_from_slice(&x.to_le_bytes());
        };
        v[0] = b'M';
        v[1] = b'Z';
        put(&mut v, 2, cblp);
        put(&mut v, 4, cp);
        put(&mut v, 6, crlc);
        put(&mut v, 8, cparhdr);
        put(&mut v, 0x0E, 0x10);
        put(&mut v, 0x10, 0x200);
        put(&mut v, 0x14, 0x5);
        put(&mut v, 0x16, 0x1);
        put(&mut v, 0x18, lfarlc);
        v
    }

    #[test]
    fn load_module_as_dos() {
        // 0x300 bytes: two pages, 0x100 used in the last; header 2 paragraphs.
        let mut v = mz(0x100, 2, 2, 2, 0x1C, 0x300);
        v[0x1C..0x24].copy_from_slice(&[0x10, 0, 0x01, 0, 0x20, 0, 0x02, 0]);
        let m = MzImage::parse(&v).unwrap();
        assert_eq!(m.image_range, 0x20..0x300);
        assert_eq!(m.image.len(), 0x2E0);
        assert_eq!(m.relocs, vec![(0x10, 1), (0x20, 2)]);
        assert_eq!(m.header.e_cs, 1);
        assert_eq!(m.header.e_ip, 5);
        assert_eq!(m.header.e_lfanew, Some(0));
        assert_eq!(m.ne_offset, None);
        // e_cblp = 0: the last page is full.
        let v = mz(0, 2, 0, 2, 0x1C, 0x400);
        assert_eq!(MzImage::parse(&v).unwrap().image_range, 0x20..0x400);
        // e_cblp of 512 or more: a full last page, as 0.
        let v = mz(0x200, 2, 0, 2, 0x1C, 0x400);
        assert_eq!(MzImage::parse(&v).unwrap().image_range, 0x20..0x400);
        // Short file: clamp.
        let v = mz(0, 4, 0, 2, 0x1C, 0x300);
        assert_eq!(MzImage::parse(&v).unwrap().image_range, 0x20..0x300);
    }

    #[test]
    fn header_overlapping_code() {
        // Like dos/edge/helloe.exe: 40 bytes, no header paragraphs.
        let v = mz(40, 1, 0, 0, 0xFFF0, 40);
        let m = MzImage::parse(&v).unwrap();
        assert_eq!(m.image_range, 0..40);
        assert_eq!(m.header.e_lfanew, None);
        assert!(m.relocs.is_empty());
    }

    #[test]
    fn errors_name_offsets() {
        let e = MzImage::parse(b"MZ\x00").unwrap_err();
        assert_eq!(e.offset, Some(3));
        let v = mz(0, 1, 0, 0x40, 0x1C, 0x100);
        assert_eq!(MzImage::parse(&v).unwrap_err().offset, Some(0x08));
        let v = mz(0, 0, 0, 2, 0x1C, 0x100);
        assert_eq!(MzImage::parse(&v).unwrap_err().offset, Some(0x04));
        let v = mz(0, 1, 100, 2, 0x1C, 0x100);
        let e = MzImage::parse(&v).unwrap_err();
        assert_eq!(e.offset, Some(0x18));
        assert!(e.to_string().contains("100 entries"), "{e}");
        assert!(MzHeader::parse(b"XY\0\0").is_err());
    }

    #[test]
    fn truncation_never_panics() {
        let mut v = mz(0x100, 2, 2, 2, 0x1C, 0x300);
        v[0x1C..0x24].copy_from_slice(&[0x10, 0, 0x01, 0, 0x20, 0, 0x02, 0]);
        for n in 0..v.len() {
            let _ = MzImage::parse(&v[..n]);
        }
        assert!(MzImage::parse(&v[..0x23]).is_err());
    }
}
