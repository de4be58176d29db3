//! Loaders: bytes to an [`Image`].
//!
//! Pure parsing, no CPU: [`parse`] turns the bytes of a file into a DOS
//! `.COM` image, a DOS `MZ` executable, a Win16 `NE` module or a raw image
//! (boot sector, ROM). Every read is bounds-checked through [`Reader`]; every
//! count read from the file is checked against the file size before anything
//! is allocated for it, so no input can make the parsers panic, hang or
//! allocate without bound. What a parsed image holds stays within a small
//! multiple of the file ([`NeImage::held_bytes`]): resources are ranges of
//! one shared copy of the file ([`FileBytes`]), and what tables may copy
//! (segment data, names) is bounded by the file's size, since entries of a
//! corrupt table can all point at the same bytes. Errors are [`LoadError`]s naming the byte offset in
//! the file, the field and what was expected versus found; the caller adds the
//! file name.
//!
//! The NE rules follow `../shared/spec/win16.md`, section "The NE file, in
//! brief".

pub mod com;
pub mod info;
pub mod mz;
pub mod ne;
pub mod ordnames;
pub mod raw;
pub mod shared;
#[doc(hidden)]
pub mod testdata;

pub use com::ComImage;
pub use info::{Info, info, render_text};
pub use mz::{MzHeader, MzImage};
pub use ne::{
    FarPtr, NeEntry, NeHeader, NeImage, NeReloc, NeResource, NeResourceType, NeSegment,
    RelocTarget, ResourceId, apply_relocations,
};
pub use ordnames::{ordinal_name, ordinal_of};
pub use raw::RawImage;
pub use shared::FileBytes;

/// The largest executable read (MZ, NE, `.COM`, raw image): an MZ header
/// counts at most 65535 pages of 512 bytes (32 MiB), and an NE file's
/// segments and resources lie at 16-bit sector numbers, 32 MiB with the
/// usual 512-byte sectors. No 16-bit program comes near.
pub const MAX_EXECUTABLE_BYTES: u64 = 32 << 20;

/// Read at most `cap` bytes of a file (through `Read::take`, so a device
/// or an endless pipe costs no more): the whole file, or an error naming
/// the file, what it was read as (`what`) and the cap when it is larger.
pub fn read_capped(path: &std::path::Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("{}: is a directory, not {what}", path.display()));
    }
    let mut bytes = Vec::new();
    f.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "{}: larger than {}, the most {what} may be",
            path.display(),
            size_text(cap)
        ));
    }
    Ok(bytes)
}

/// A size for a message: `32 MiB`, `64 KiB`, `512 bytes`.
pub fn size_text(n: u64) -> String {
    if n >= 1 << 20 && n % (1 << 20) == 0 {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n % (1 << 10) == 0 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// A file could not be loaded: where, which field, and why.
///
/// `offset` is a byte offset in the file when the problem has one (a field
/// that could not be read or holds a bad value); `field` names that field.
/// Display gives `offset 0x3C (e_lfanew): ...`; the caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(.offset, .field, .message))]
pub struct LoadError {
    /// Byte offset in the file of the offending field, when there is one.
    pub offset: Option<u64>,
    /// The field (or structure) at fault, e.g. `e_lfanew`.
    pub field: String,
    /// What was expected and what was found.
    pub message: String,
}

impl LoadError {
    /// An error at a byte offset of the file.
    pub fn at(offset: u64, field: impl Into<String>, message: impl Into<String>) -> Self {
        LoadError {
            offset: Some(offset),
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error about the file as a whole (no single offset).
    pub fn whole(field: impl Into<String>, message: impl Into<String>) -> Self {
        LoadError {
            offset: None,
            field: field.into(),
            message: message.into(),
        }
    }
}

/// [`LoadError`]'s message: `offset 0x3C (e_lfanew): ...`, or `FIELD: ...`
/// without an offset.
fn describe(offset: &Option<u64>, field: &str, message: &str) -> String {
    match offset {
        Some(o) => format!("offset {o:#X} ({field}): {message}"),
        None => format!("{field}: {message}"),
    }
}

/// A bounded little-endian reader over the bytes of a file, in the style of
/// the `object` crate: every read names its field and returns a
/// [`LoadError`] instead of panicking when it would run past the end.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Wrap the bytes of a file.
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    /// The file size.
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The whole file.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// `len` bytes at `offset`, or an error naming `field`.
    pub fn bytes(&self, offset: u64, len: u64, field: &str) -> Result<&'a [u8], LoadError> {
        let size = self.len();
        let end = offset.checked_add(len);
        match end {
            Some(end) if end <= size => {
                // Both fit in usize: they are at most the slice length.
                let (s, e) = (offset as usize, end as usize);
                self.data
                    .get(s..e)
                    .ok_or_else(|| self.past_end(offset, len, field))
            }
            _ => Err(self.past_end(offset, len, field)),
        }
    }

    fn past_end(&self, offset: u64, len: u64, field: &str) -> LoadError {
        LoadError::at(
            offset,
            field,
            format!(
                "needs {len} byte(s) at {offset:#X} but the file ends at {:#X}",
                self.len()
            ),
        )
    }

    /// The byte at `offset`.
    pub fn u8(&self, offset: u64, field: &str) -> Result<u8, LoadError> {
        let b = self.bytes(offset, 1, field)?;
        b.first()
            .copied()
            .ok_or_else(|| self.past_end(offset, 1, field))
    }

    /// The little-endian word at `offset`.
    pub fn u16(&self, offset: u64, field: &str) -> Result<u16, LoadError> {
        match self.bytes(offset, 2, field)? {
            [a, b] => Ok(u16::from_le_bytes([*a, *b])),
            _ => Err(self.past_end(offset, 2, field)),
        }
    }

    /// The little-endian double word at `offset`.
    pub fn u32(&self, offset: u64, field: &str) -> Result<u32, LoadError> {
        match self.bytes(offset, 4, field)? {
            [a, b, c, d] => Ok(u32::from_le_bytes([*a, *b, *c, *d])),
            _ => Err(self.past_end(offset, 4, field)),
        }
    }

    /// A length-prefixed (Pascal) string at `offset`: its text and the offset
    /// just past it. Bytes map to chars one to one (Latin-1), so any bytes
    /// make a string.
    pub fn pstring(&self, offset: u64, field: &str) -> Result<(String, u64), LoadError> {
        let n = self.u8(offset, field)? as u64;
        let b = self.bytes(offset + 1, n, field)?;
        Ok((latin1(b), offset + 1 + n))
    }
}

/// The directory a file named `path` is in, for looking beside it: its
/// parent, or `.` when the name has no directory part (`CHIPS.EXE`, whose
/// `Path::parent` is the empty path, which names no directory).
pub fn directory_of(path: &std::path::Path) -> std::path::PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    }
}

/// Bytes to a String, one char per byte (Latin-1); never fails.
pub fn latin1(b: &[u8]) -> String {
    b.iter().map(|&c| c as char).collect()
}

/// What the caller knows about the file's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindHint {
    /// Decide from the contents (see [`parse`]).
    Auto,
    /// A DOS `.COM` program (the caller saw the file name end in `.COM`).
    /// As on DOS, whose loader looks at the contents and not the name, a
    /// file starting with `MZ`/`ZM` is still loaded as an MZ executable.
    Com,
    /// A raw image loaded at `load` (segment, offset) and entered at `entry`.
    Raw {
        /// Load address, segment:offset.
        load: (u16, u16),
        /// Entry point, segment:offset.
        entry: (u16, u16),
    },
    /// A boot sector: loaded and entered at 0000:7C00.
    BootSector,
}

/// A parsed file.
#[derive(Debug, Clone, PartialEq)]
pub enum Image {
    /// A DOS `.COM` program.
    Com(ComImage),
    /// A DOS `MZ` executable (possibly the stub of a newer format).
    Mz(MzImage),
    /// A Win16 (or OS/2 1.x) `NE` module.
    Ne(NeImage),
    /// A raw image: boot sector or ROM.
    Raw(RawImage),
}

/// The largest file [`parse`] accepts as a `.COM` program in `Auto` mode.
pub const COM_MAX: usize = com::COM_MAX;

/// Parse a file.
///
/// With [`KindHint::Auto`]:
/// - `MZ` (or `ZM`, which DOS also accepts) at offset 0: an MZ executable; if
///   the file is at least 0x40 bytes and the double word at 0x3C (e_lfanew)
///   points inside the file at `NE`, the NE module. Like Wine's loader we do
///   not require e_lfarlc (0x18) >= 0x40 first: hand-built NE files put
///   anything there.
/// - exactly 512 bytes ending in 55 AA: a boot sector, loaded and entered at
///   0000:7C00;
/// - otherwise a `.COM` program if it is at most [`COM_MAX`] bytes, else an
///   error.
///
/// Never panics, whatever the bytes.
pub fn parse(bytes: &[u8], kind_hint: KindHint) -> Result<Image, LoadError> {
    match kind_hint {
        KindHint::Com if mz::has_mz_signature(bytes) => Ok(Image::Mz(MzImage::parse(bytes)?)),
        KindHint::Com => Ok(Image::Com(ComImage::parse(bytes)?)),
        KindHint::Raw { load, entry } => Ok(Image::Raw(RawImage::new(bytes, load, entry, false))),
        KindHint::BootSector => Ok(Image::Raw(RawImage::boot_sector(bytes)?)),
        KindHint::Auto => {
            if mz::has_mz_signature(bytes) {
                let mz = MzImage::parse(bytes)?;
                if let Some(ne_off) = mz.ne_offset {
                    let mut ne = NeImage::parse_at(bytes, ne_off as u64)?;
                    ne.stub = Some(Box::new(mz));
                    return Ok(Image::Ne(ne));
                }
                return Ok(Image::Mz(mz));
            }
            if raw::looks_like_boot_sector(bytes) {
                return Ok(Image::Raw(RawImage::boot_sector(bytes)?));
            }
            if bytes.len() <= COM_MAX {
                return Ok(Image::Com(ComImage::parse(bytes)?));
            }
            Err(LoadError::whole(
                "file",
                format!(
                    "{:#X} bytes, no MZ signature and not a boot sector: too large for a .COM \
                     program (at most {COM_MAX:#X} bytes); load it as a raw image with a load \
                     address",
                    bytes.len()
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_bounds() {
        let r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u16(0, "x").unwrap(), 0x0201);
        let e = r.u16(2, "w").unwrap_err();
        assert_eq!(e.offset, Some(2));
        assert_eq!(e.field, "w");
        assert!(r.u32(u64::MAX - 1, "y").is_err());
        assert!(r.bytes(0, u64::MAX, "z").is_err());
        assert_eq!(r.bytes(3, 0, "z").unwrap(), &[] as &[u8]);
    }

    #[test]
    fn a_bare_file_name_is_in_the_current_directory() {
        use std::path::{Path, PathBuf};
        assert_eq!(directory_of(Path::new("CHIPS.EXE")), PathBuf::from("."));
        assert_eq!(directory_of(Path::new("./CHIPS.EXE")), PathBuf::from("."));
        assert_eq!(
            directory_of(Path::new("a/b/CHIPS.EXE")),
            PathBuf::from("a/b")
        );
        assert_eq!(directory_of(Path::new("/CHIPS.EXE")), PathBuf::from("/"));
    }

    #[test]
    fn display_names_offset_and_field() {
        let e = LoadError::at(0x3C, "e_lfanew", "points past the end");
        assert_eq!(e.to_string(), "offset 0x3C (e_lfanew): points past the end");
        let e = LoadError::whole("file", "empty");
        assert_eq!(e.to_string(), "file: empty");
    }

    #[test]
    fn auto_detection() {
        let mut boot = vec![0u8; 512];
        boot[510] = 0x55;
        boot[511] = 0xAA;
        match parse(&boot, KindHint::Auto).unwrap() {
            Image::Raw(r) => {
                assert!(r.boot_sector);
                assert_eq!(r.load, (0, 0x7C00));
                assert_eq!(r.entry, (0, 0x7C00));
            }
            other => panic!("expected raw, got {other:?}"),
        }
        assert!(matches!(
            parse(&[0xCD, 0x20], KindHint::Auto).unwrap(),
            Image::Com(_)
        ));
        // A .COM name does not make an MZ file a .COM program (as on DOS).
        let mut mz = vec![0u8; 0x40];
        mz[..6].copy_from_slice(&[b'M', b'Z', 0x40, 0, 1, 0]);
        assert!(matches!(parse(&mz, KindHint::Com).unwrap(), Image::Mz(_)));
        let big = vec![0x90u8; COM_MAX + 1];
        let e = parse(&big, KindHint::Auto).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        assert!(matches!(
            parse(
                &big,
                KindHint::Raw {
                    load: (0xF000, 0),
                    entry: (0xF000, 0xFFF0)
                }
            )
            .unwrap(),
            Image::Raw(_)
        ));
    }
}
