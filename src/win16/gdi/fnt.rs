//! The Windows raster font format (FNT): one font resource (RT_FONT, type 8)
//! of a `.FON` file, and the font directory (RT_FONTDIR, type 7) that lists
//! them.
//!
//! The layout is the Windows 3.1 SDK's "Font-File Format" (Reference,
//! Volume 4, chapter 5). A font resource starts with a header:
//!
//! ```text
//!   0 dfVersion WORD      0x0200 (Windows 2.x) or 0x0300 (Windows 3.0)
//!   2 dfSize DWORD        bytes in the whole font resource
//!   6 dfCopyright[60]
//!  66 dfType WORD         bit 0: vector font; bit 7: bits in memory
//!  68 dfPoints WORD       nominal size in points
//!  70 dfVertRes WORD      design resolution, dots per inch
//!  72 dfHorizRes WORD
//!  74 dfAscent WORD       rows from the top of the cell to the baseline
//!  76 dfInternalLeading WORD, 78 dfExternalLeading WORD
//!  80 dfItalic, 81 dfUnderline, 82 dfStrikeOut BYTE
//!  83 dfWeight WORD, 85 dfCharSet BYTE
//!  86 dfPixWidth WORD     0 for a variable-pitch font, else every width
//!  88 dfPixHeight WORD    the cell height: every glyph has this many rows
//!  90 dfPitchAndFamily BYTE  bit 0 set: variable pitch; high nibble family
//!  91 dfAvgWidth, 93 dfMaxWidth WORD
//!  95 dfFirstChar, 96 dfLastChar, 97 dfDefaultChar, 98 dfBreakChar BYTE
//!     (the default and break characters count from dfFirstChar)
//!  99 dfWidthBytes WORD, 101 dfDevice DWORD, 105 dfFace DWORD (offsets of
//!     NUL-terminated names in the resource; dfDevice 0 for a GDI font)
//! 109 dfBitsPointer DWORD (set when loaded), 113 dfBitsOffset DWORD
//! 117 dfReserved BYTE                       -- version 2 header ends: 118
//! 118 dfFlags DWORD, 122 dfAspace, 124 dfBspace, 126 dfCspace WORD,
//! 128 dfColorPointer DWORD, 132 dfReserved1[16] -- version 3 ends: 148
//! ```
//!
//! The glyph table follows the header: `dfLastChar - dfFirstChar + 2`
//! entries (the last one a sentinel), each a width WORD and the offset of
//! the glyph's bits from the start of the resource — a WORD in version 2,
//! a DWORD in version 3. A glyph is stored column by column: for each 8
//! pixels of width (rounded up), `dfPixHeight` bytes, one per row from the
//! top, the most significant bit the leftmost pixel.
//!
//! Parsing is bounded: every offset is checked against the resource before
//! it is read, and nothing is allocated from a count the resource has not
//! shown it holds. Errors are [`LoadError`]s whose offsets count from the
//! start of the resource; the font catalogue (font.rs) moves them to file
//! offsets and names the file.

use crate::loader::{LoadError, Reader, latin1};

/// Bytes of the version 2 header (the glyph table starts here).
pub const HEADER_V2: usize = 118;
/// Bytes of the version 3 header.
pub const HEADER_V3: usize = 148;

/// dfType bit 0: a vector (stroke) font.
pub const TYPE_VECTOR: u16 = 0x0001;
/// dfPitchAndFamily bit 0: variable pitch (set) or fixed (clear).
pub const PF_VARIABLE: u8 = 0x01;

/// dfFlags (version 3): the glyph table has ABC spacing, or the glyphs
/// have colour planes; this parser reads one-colour fonts with plain
/// width tables, which is what Windows 3.1's raster fonts are.
const DFF_ABC: u32 = 0x0004 | 0x0008;
const DFF_COLOR: u32 = 0x0020 | 0x0040 | 0x0080;

/// Tallest cell this parser accepts. Windows' own raster fonts are at most
/// a few dozen rows; the bound keeps a hostile file from describing glyphs
/// far larger than anything GDI would draw.
pub const MAX_PIX_HEIGHT: u16 = 1024;
/// Widest glyph accepted (pixels).
pub const MAX_GLYPH_WIDTH: u16 = 1024;

/// The header fields of a font resource (the names are the SDK's).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FntHeader {
    pub version: u16,
    pub size: u32,
    pub copyright: String,
    pub font_type: u16,
    pub points: u16,
    pub vert_res: u16,
    pub horiz_res: u16,
    pub ascent: u16,
    pub internal_leading: u16,
    pub external_leading: u16,
    pub italic: u8,
    pub underline: u8,
    pub strike_out: u8,
    pub weight: u16,
    pub char_set: u8,
    pub pix_width: u16,
    pub pix_height: u16,
    pub pitch_and_family: u8,
    pub avg_width: u16,
    pub max_width: u16,
    pub first_char: u8,
    pub last_char: u8,
    /// Relative to `first_char`, as stored.
    pub default_char: u8,
    /// Relative to `first_char`, as stored.
    pub break_char: u8,
    pub width_bytes: u16,
    pub device: u32,
    pub face: u32,
    pub bits_pointer: u32,
    pub bits_offset: u32,
    /// Version 3 only (0 in version 2).
    pub flags: u32,
}

impl FntHeader {
    /// Read the fixed fields (the first 118 bytes, plus dfFlags for
    /// version 3).
    fn read(r: &Reader<'_>) -> Result<FntHeader, LoadError> {
        let w = |o: u64, f: &str| r.u16(o, f);
        let b = |o: u64, f: &str| r.u8(o, f);
        let d = |o: u64, f: &str| r.u32(o, f);
        let version = w(0, "dfVersion")?;
        if version != 0x0200 && version != 0x0300 {
            return Err(LoadError::at(
                0,
                "dfVersion",
                format!(
                    "font version {version:#06X} is not 0x0200 or 0x0300 (the raster font \
                     formats of Windows 2.x and 3.x)"
                ),
            ));
        }
        let copyright = r.bytes(6, 60, "dfCopyright")?;
        let copyright = latin1(copyright.split(|&c| c == 0).next().unwrap_or(&[]));
        Ok(FntHeader {
            version,
            size: d(2, "dfSize")?,
            copyright: copyright.trim_end().to_string(),
            font_type: w(66, "dfType")?,
            points: w(68, "dfPoints")?,
            vert_res: w(70, "dfVertRes")?,
            horiz_res: w(72, "dfHorizRes")?,
            ascent: w(74, "dfAscent")?,
            internal_leading: w(76, "dfInternalLeading")?,
            external_leading: w(78, "dfExternalLeading")?,
            italic: b(80, "dfItalic")?,
            underline: b(81, "dfUnderline")?,
            strike_out: b(82, "dfStrikeOut")?,
            weight: w(83, "dfWeight")?,
            char_set: b(85, "dfCharSet")?,
            pix_width: w(86, "dfPixWidth")?,
            pix_height: w(88, "dfPixHeight")?,
            pitch_and_family: b(90, "dfPitchAndFamily")?,
            avg_width: w(91, "dfAvgWidth")?,
            max_width: w(93, "dfMaxWidth")?,
            first_char: b(95, "dfFirstChar")?,
            last_char: b(96, "dfLastChar")?,
            default_char: b(97, "dfDefaultChar")?,
            break_char: b(98, "dfBreakChar")?,
            width_bytes: w(99, "dfWidthBytes")?,
            device: d(101, "dfDevice")?,
            face: d(105, "dfFace")?,
            bits_pointer: d(109, "dfBitsPointer")?,
            bits_offset: d(113, "dfBitsOffset")?,
            flags: if version == 0x0300 {
                d(118, "dfFlags")?
            } else {
                0
            },
        })
    }

    /// The size of this version's header: where the glyph table starts.
    pub fn header_size(&self) -> usize {
        if self.version == 0x0300 {
            HEADER_V3
        } else {
            HEADER_V2
        }
    }

    /// Variable pitch (dfPitchAndFamily bit 0)?
    pub fn is_variable_pitch(&self) -> bool {
        self.pitch_and_family & PF_VARIABLE != 0
    }

    /// The family (FF_* in the high nibble of dfPitchAndFamily).
    pub fn family(&self) -> u8 {
        self.pitch_and_family & 0xF0
    }

    /// Rows below the baseline.
    pub fn descent(&self) -> u16 {
        self.pix_height.saturating_sub(self.ascent)
    }
}

/// One glyph table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlyphEntry {
    /// Width in pixels (the advance).
    pub width: u16,
    /// Offset of the glyph's bits from the start of the resource.
    pub offset: u32,
}

/// A parsed font resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FntFont {
    pub header: FntHeader,
    /// The face name (dfFace).
    pub face: String,
    /// The device name (dfDevice), empty for a GDI font.
    pub device: String,
    /// Glyphs of `first_char..=last_char`, in order.
    glyphs: Vec<GlyphEntry>,
    /// The resource's bytes (the glyph bits are read from here).
    data: Vec<u8>,
}

/// A NUL-terminated string at `at`, at most `max` bytes long; errors are
/// reported at `field_at` (the pointer to the string, or the string).
fn cstring(
    r: &Reader<'_>,
    at: u64,
    max: u64,
    field: &str,
    field_at: u64,
) -> Result<String, LoadError> {
    if at >= r.len() {
        return Err(LoadError::at(
            field_at,
            field,
            format!(
                "the name's offset {at:#X} is past the end of the font resource (size {:#X})",
                r.len()
            ),
        ));
    }
    let avail = (r.len() - at).min(max);
    let b = r.bytes(at, avail, field)?;
    match b.iter().position(|&c| c == 0) {
        Some(n) => Ok(latin1(&b[..n])),
        None => Err(LoadError::at(
            field_at,
            field,
            format!("the name at {at:#X} has no terminating NUL within {avail} bytes"),
        )),
    }
}

impl FntFont {
    /// Parse one font resource.
    pub fn parse(data: &[u8]) -> Result<FntFont, LoadError> {
        let r = Reader::new(data);
        let h = FntHeader::read(&r)?;
        if h.font_type & TYPE_VECTOR != 0 {
            return Err(LoadError::at(
                66,
                "dfType",
                format!(
                    "dfType {:#06X} marks a vector (stroke) font; only raster fonts are read",
                    h.font_type
                ),
            ));
        }
        if h.flags & DFF_ABC != 0 || h.flags & DFF_COLOR != 0 {
            return Err(LoadError::at(
                118,
                "dfFlags",
                format!(
                    "dfFlags {:#X} asks for ABC spacing or colour glyphs; Windows 3.1's raster \
                     fonts are one-colour with a plain width table",
                    h.flags
                ),
            ));
        }
        if h.pix_height == 0 || h.pix_height > MAX_PIX_HEIGHT {
            return Err(LoadError::at(
                88,
                "dfPixHeight",
                format!(
                    "cell height {} is not in 1..={MAX_PIX_HEIGHT}",
                    h.pix_height
                ),
            ));
        }
        if h.ascent > h.pix_height {
            return Err(LoadError::at(
                74,
                "dfAscent",
                format!(
                    "ascent {} is taller than the cell height {}",
                    h.ascent, h.pix_height
                ),
            ));
        }
        if h.internal_leading > h.pix_height {
            return Err(LoadError::at(
                76,
                "dfInternalLeading",
                format!(
                    "internal leading {} is taller than the cell height {}",
                    h.internal_leading, h.pix_height
                ),
            ));
        }
        if h.last_char < h.first_char {
            return Err(LoadError::at(
                96,
                "dfLastChar",
                format!(
                    "last character {} comes before the first, {}",
                    h.last_char, h.first_char
                ),
            ));
        }
        let face = cstring(&r, u64::from(h.face), 256, "dfFace", 105)?;
        let device = if h.device == 0 {
            String::new()
        } else {
            cstring(&r, u64::from(h.device), 256, "dfDevice", 101)?
        };

        // The glyph table: one entry per character, first..=last (the
        // sentinel after them is not needed and not required).
        let count = u64::from(h.last_char - h.first_char) + 1;
        let table = h.header_size() as u64;
        let entry = if h.version == 0x0300 { 6 } else { 4 };
        r.bytes(table, count * entry, "glyph table").map_err(|_| {
            LoadError::at(
                table,
                "glyph table",
                format!(
                    "{count} glyph entries of {entry} bytes at {table:#X} run past the end of \
                     the font resource (size {:#X})",
                    r.len()
                ),
            )
        })?;
        let rows = u64::from(h.pix_height);
        let mut glyphs = Vec::with_capacity(count as usize);
        for i in 0..count {
            let at = table + i * entry;
            let width = r.u16(at, "glyph width")?;
            let offset = if entry == 6 {
                r.u32(at + 2, "glyph offset")?
            } else {
                u32::from(r.u16(at + 2, "glyph offset")?)
            };
            let ch = u64::from(h.first_char) + i;
            if width > MAX_GLYPH_WIDTH {
                return Err(LoadError::at(
                    at,
                    "glyph width",
                    format!("character {ch} is {width} pixels wide (at most {MAX_GLYPH_WIDTH})"),
                ));
            }
            if h.pix_width != 0 && width != h.pix_width {
                return Err(LoadError::at(
                    at,
                    "glyph width",
                    format!(
                        "character {ch} is {width} pixels wide in a fixed-pitch font whose \
                         dfPixWidth is {}",
                        h.pix_width
                    ),
                ));
            }
            let bytes = u64::from(width).div_ceil(8) * rows;
            let end = u64::from(offset) + bytes;
            if end > r.len() {
                return Err(LoadError::at(
                    at + 2,
                    "glyph offset",
                    format!(
                        "character {ch}'s {bytes} bytes of bits at {offset:#X} run past the end \
                         of the font resource (size {:#X})",
                        r.len()
                    ),
                ));
            }
            glyphs.push(GlyphEntry { width, offset });
        }
        Ok(FntFont {
            header: h,
            face,
            device,
            glyphs,
            data: data.to_vec(),
        })
    }

    /// A font of `header`'s metrics whose every character is
    /// `header.avg_width` wide and has no bits: `data` is empty or holds
    /// bits at offset 0 shared by every glyph.
    pub fn from_parts(header: FntHeader, face: &str, data: &[u8]) -> FntFont {
        let count = usize::from(header.last_char.saturating_sub(header.first_char)) + 1;
        let need = usize::from(header.avg_width).div_ceil(8) * usize::from(header.pix_height);
        FntFont {
            glyphs: vec![
                GlyphEntry {
                    width: header.avg_width,
                    offset: 0
                };
                count
            ],
            face: face.to_string(),
            device: String::new(),
            data: if data.len() >= need {
                data.to_vec()
            } else {
                Vec::new()
            },
            header,
        }
    }

    /// The glyph of character `ch`: its own when the font has it, else the
    /// default character's (dfDefaultChar, as GDI draws characters a font
    /// lacks).
    pub fn glyph(&self, ch: u8) -> Glyph<'_> {
        let h = &self.header;
        let i = if (h.first_char..=h.last_char).contains(&ch) {
            usize::from(ch - h.first_char)
        } else {
            usize::from(h.default_char)
        };
        // A default character outside the table falls back to the first.
        let e = self.glyphs.get(i).or(self.glyphs.first()).copied();
        match e {
            Some(e) => Glyph {
                width: u32::from(e.width),
                height: u32::from(h.pix_height),
                bits: &self.data[e.offset as usize..],
            },
            None => Glyph {
                width: 0,
                height: u32::from(h.pix_height),
                bits: &[],
            },
        }
    }

    /// The advance of character `ch` in pixels (the default character's
    /// for a character outside the font).
    pub fn char_width(&self, ch: u8) -> u32 {
        self.glyph(ch).width
    }

    /// The glyph table entries, first..=last.
    pub fn glyph_entries(&self) -> &[GlyphEntry] {
        &self.glyphs
    }

    /// The absolute default character (dfFirstChar + dfDefaultChar), as
    /// TEXTMETRIC's tmDefaultChar gives it.
    pub fn default_char(&self) -> u8 {
        self.header
            .first_char
            .wrapping_add(self.header.default_char)
    }

    /// The absolute break character (dfFirstChar + dfBreakChar), as
    /// TEXTMETRIC's tmBreakChar gives it.
    pub fn break_char(&self) -> u8 {
        self.header.first_char.wrapping_add(self.header.break_char)
    }
}

/// A glyph's bitmap, column-major as stored.
#[derive(Debug, Clone, Copy)]
pub struct Glyph<'a> {
    pub width: u32,
    pub height: u32,
    /// The font's bytes from the glyph's offset on (at least
    /// `ceil(width / 8) * height` of them: checked at parse time).
    bits: &'a [u8],
}

impl Glyph<'_> {
    /// Is the pixel at column `x`, row `y` (from the top) set?
    pub fn pixel(&self, x: u32, y: u32) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        let i = (x / 8) as usize * self.height as usize + y as usize;
        self.bits.get(i).is_some_and(|b| b & (0x80 >> (x % 8)) != 0)
    }

    /// Row `y` as up to 8 bits per byte, leftmost pixel in the most
    /// significant bit of the first byte: `f(byte_index, byte)` for each
    /// 8-pixel column of the row.
    pub fn row_bytes(&self, y: u32, mut f: impl FnMut(u32, u8)) {
        if y >= self.height {
            return;
        }
        for c in 0..self.width.div_ceil(8) {
            let i = c as usize * self.height as usize + y as usize;
            if let Some(&b) = self.bits.get(i) {
                f(c, b);
            }
        }
    }
}

/// One entry of a font directory (RT_FONTDIR): the FONT resource it
/// describes and a copy of that font's header fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontDirEntry {
    /// The FONT resource's ordinal.
    pub ordinal: u16,
    pub version: u16,
    pub points: u16,
    pub vert_res: u16,
    pub horiz_res: u16,
    pub pix_height: u16,
    pub weight: u16,
    pub char_set: u8,
    pub device: String,
    pub face: String,
}

/// Parse a font directory: a WORD count, then per font a WORD ordinal,
/// the font's header fields dfVersion..dfReserved (113 bytes: the FNT
/// header up to dfBitsOffset's place, where the directory keeps a
/// reserved DWORD), then the device name and the face name, each
/// NUL-terminated.
pub fn parse_fontdir(data: &[u8]) -> Result<Vec<FontDirEntry>, LoadError> {
    let r = Reader::new(data);
    let n = r.u16(0, "font directory count")?;
    // Each entry is at least 2 + 113 + 2 bytes.
    if u64::from(n) * 117 > r.len() {
        return Err(LoadError::at(
            0,
            "font directory count",
            format!("{n} fonts cannot fit in a {}-byte font directory", r.len()),
        ));
    }
    let mut out = Vec::with_capacity(usize::from(n));
    let mut p = 2u64;
    for _ in 0..n {
        let ordinal = r.u16(p, "font ordinal")?;
        let e = p + 2;
        r.bytes(e, 113, "font directory entry")?;
        let device = cstring(&r, e + 113, 256, "szDeviceName", e + 113)?;
        let face_at = e + 113 + device.len() as u64 + 1;
        let face = cstring(&r, face_at, 256, "szFaceName", face_at)?;
        out.push(FontDirEntry {
            ordinal,
            version: r.u16(e, "dfVersion")?,
            points: r.u16(e + 68, "dfPoints")?,
            vert_res: r.u16(e + 70, "dfVertRes")?,
            horiz_res: r.u16(e + 72, "dfHorizRes")?,
            pix_height: r.u16(e + 88, "dfPixHeight")?,
            weight: r.u16(e + 83, "dfWeight")?,
            char_set: r.u8(e + 85, "dfCharSet")?,
            device,
            face: face.clone(),
        });
        p = face_at + face.len() as u64 + 1;
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small version 2 or 3 font resource, built field by field from the
    /// SDK layout: `glyphs` are (width, rows as strings of '#' and '.').
    pub(crate) fn build(version: u16, face: &str, first: u8, glyphs: &[(u16, &[&str])]) -> Vec<u8> {
        let height = glyphs.first().map_or(1, |g| g.1.len()) as u16;
        let hsize = if version == 0x0300 {
            HEADER_V3
        } else {
            HEADER_V2
        };
        let entry = if version == 0x0300 { 6 } else { 4 };
        let table_len = (glyphs.len() + 1) * entry;
        let bits_at = hsize + table_len;
        let mut bits = Vec::new();
        let mut offsets = Vec::new();
        for (w, rows) in glyphs {
            offsets.push((bits_at + bits.len()) as u32);
            for c in 0..usize::from(*w).div_ceil(8) {
                for row in rows.iter() {
                    let mut b = 0u8;
                    for (x, ch) in row.bytes().enumerate().skip(c * 8).take(8) {
                        if ch == b'#' {
                            b |= 0x80 >> (x - c * 8);
                        }
                    }
                    bits.push(b);
                }
            }
        }
        let face_at = bits_at + bits.len();
        let total = face_at + face.len() + 1;
        let mut d = vec![0u8; total];
        let put16 =
            |d: &mut Vec<u8>, o: usize, v: u16| d[o..o + 2].copy_from_slice(&v.to_le_bytes());
        let put32 =
            |d: &mut Vec<u8>, o: usize, v: u32| d[o..o + 4].copy_from_slice(&v.to_le_bytes());
        put16(&mut d, 0, version);
        put32(&mut d, 2, total as u32);
        d[6..6 + 9].copy_from_slice(b"(c) test.");
        put16(&mut d, 68, 10); // dfPoints
        put16(&mut d, 70, 96);
        put16(&mut d, 72, 96);
        put16(&mut d, 74, height - 1); // dfAscent
        put16(&mut d, 76, 1); // internal leading
        put16(&mut d, 83, 400);
        let fixed = glyphs.iter().all(|g| g.0 == glyphs[0].0);
        put16(&mut d, 86, if fixed { glyphs[0].0 } else { 0 });
        put16(&mut d, 88, height);
        d[90] = if fixed { 0x30 } else { 0x21 };
        put16(&mut d, 91, glyphs[0].0);
        put16(&mut d, 93, glyphs.iter().map(|g| g.0).max().unwrap_or(0));
        d[95] = first;
        d[96] = first + glyphs.len() as u8 - 1;
        d[97] = 0;
        d[98] = 0;
        put32(&mut d, 105, face_at as u32);
        put32(&mut d, 113, bits_at as u32);
        if version == 0x0300 {
            put32(&mut d, 118, 0x10 | if fixed { 1 } else { 2 });
        }
        for (i, o) in offsets.iter().enumerate() {
            let at = hsize + i * entry;
            put16(&mut d, at, glyphs[i].0);
            if entry == 6 {
                put32(&mut d, at + 2, *o);
            } else {
                put16(&mut d, at + 2, *o as u16);
            }
        }
        d[bits_at..bits_at + bits.len()].copy_from_slice(&bits);
        d[face_at..face_at + face.len()].copy_from_slice(face.as_bytes());
        d
    }

    const A: &[&str] = &["..#..", ".#.#.", "#...#", "#####", "#...#"];
    const WIDE: &[&str] = &[
        "#........#",
        ".#......#.",
        "..######..",
        ".#......#.",
        "#........#",
    ];

    #[test]
    fn both_versions_read_the_same_glyphs() {
        for v in [0x0200, 0x0300] {
            let d = build(v, "Tiny", 65, &[(5, A), (10, WIDE)]);
            let f = FntFont::parse(&d).unwrap();
            assert_eq!(f.face, "Tiny");
            assert_eq!(f.header.version, v);
            assert_eq!(f.header.pix_height, 5);
            assert_eq!((f.header.first_char, f.header.last_char), (65, 66));
            assert_eq!(f.char_width(b'A'), 5);
            assert_eq!(f.char_width(b'B'), 10);
            // Outside the font: the default character (first + 0 = 'A').
            assert_eq!(f.char_width(b'z'), 5);
            for (ch, rows) in [(b'A', A), (b'B', WIDE)] {
                let g = f.glyph(ch);
                for (y, row) in rows.iter().enumerate() {
                    for (x, c) in row.bytes().enumerate() {
                        assert_eq!(g.pixel(x as u32, y as u32), c == b'#', "{ch} {x},{y}");
                    }
                }
            }
            // Row access: the second 8-pixel column of 'B' holds x = 8, 9.
            let mut seen = Vec::new();
            f.glyph(b'B').row_bytes(0, |c, b| seen.push((c, b)));
            assert_eq!(seen, vec![(0, 0x80), (1, 0x40)]);
        }
    }

    #[test]
    fn errors_name_the_field_and_offset() {
        let good = build(0x0300, "Tiny", 65, &[(5, A)]);
        let mut d = good.clone();
        d[0] = 0x01;
        let e = FntFont::parse(&d).unwrap_err();
        assert_eq!((e.offset, e.field.as_str()), (Some(0), "dfVersion"));

        let mut d = good.clone();
        d[88] = 0;
        d[89] = 0;
        let e = FntFont::parse(&d).unwrap_err();
        assert_eq!((e.offset, e.field.as_str()), (Some(88), "dfPixHeight"));

        // A glyph offset past the end.
        let mut d = good.clone();
        d[HEADER_V3 + 2..HEADER_V3 + 6].copy_from_slice(&0xFFF0u32.to_le_bytes());
        let e = FntFont::parse(&d).unwrap_err();
        assert_eq!(
            (e.offset, e.field.as_str()),
            (Some(HEADER_V3 as u64 + 2), "glyph offset")
        );
        assert!(e.message.contains("character 65"), "{e}");

        // The face name without its NUL.
        let mut d = good.clone();
        d.pop();
        let e = FntFont::parse(&d).unwrap_err();
        assert_eq!(e.field, "dfFace");

        // A vector font.
        let mut d = good.clone();
        d[66] = 1;
        assert_eq!(FntFont::parse(&d).unwrap_err().field, "dfType");

        // Truncated header.
        let e = FntFont::parse(&good[..100]).unwrap_err();
        assert!(e.offset.is_some());
    }

    /// Everything a caller does with a parsed font; must not panic.
    fn exercise(f: &FntFont) {
        for ch in 0..=255u8 {
            let g = f.glyph(ch);
            for y in 0..g.height.min(64) {
                g.row_bytes(y, |_, _| {});
                for x in 0..g.width.min(64) {
                    let _ = g.pixel(x, y);
                }
            }
        }
        let _ = (f.default_char(), f.break_char(), f.glyph_entries().len());
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            if let Ok(f) = FntFont::parse(&bytes) {
                exercise(&f);
            }
            let _ = parse_fontdir(&bytes);
            let _ = crate::win16::gdi::font::parse_fon(&bytes, None);
        }

        #[test]
        fn damaged_fonts_are_errors_or_bounded(
            v3 in any::<bool>(),
            edits in proptest::collection::vec((0usize..400, any::<u8>()), 1..12),
        ) {
            let mut d = build(if v3 { 0x0300 } else { 0x0200 }, "Tiny", 65, &[(5, A), (10, WIDE)]);
            for (at, b) in edits {
                let n = d.len();
                d[at % n] = b;
            }
            match FntFont::parse(&d) {
                Ok(f) => {
                    exercise(&f);
                    prop_assert!(f.glyph_entries().len() <= 256);
                }
                Err(e) => prop_assert!(e.offset.is_some_and(|o| o < d.len() as u64 + 256), "{}", e),
            }
        }
    }
}
