//! Windows metafiles: the format (METAHEADER and METARECORDs, exactly as
//! Windows 3.1 wrote them in memory and on disk), the recorder behind a
//! metafile DC, and the GDI functions that create, copy, enumerate and
//! play them.
//!
//! # The format (Windows 3.1 SDK, "Metafile Format", Reference volume 4)
//!
//! ```text
//! METAHEADER, 18 bytes:
//!   0 mtType WORD          1 in memory, 2 on disk
//!   2 mtHeaderSize WORD    9 (words)
//!   4 mtVersion WORD       0x0300 (device-independent bitmaps) or 0x0100
//!   6 mtSize DWORD         the whole metafile, in words
//!  10 mtNoObjects WORD     the most objects alive at once in the
//!                          metafile's object table
//!  12 mtMaxRecord DWORD    the largest record, in words
//!  16 mtNoParameters WORD  0
//! METARECORD:
//!   0 rdSize DWORD         the record, in words, these 6 bytes included
//!   4 rdFunction WORD      META_*: the low byte names the function, the
//!                          high byte is (for most) the count of
//!                          parameter words
//!   6 rdParm[]             the parameters, in reverse order of the
//!                          function's arguments (the hDC not stored);
//!                          strings, points and structures inline
//! The last record is META_EOF: rdSize 3, rdFunction 0.
//! ```
//!
//! Objects: a metafile does not store handles. When a pen, brush, font,
//! palette or region is first selected into a metafile DC, the recorder
//! writes its creation record (META_CREATEPENINDIRECT ...) and gives it
//! the lowest free slot of the metafile's object table; META_SELECTOBJECT
//! names that slot. Deleting the object writes META_DELETEOBJECT and frees
//! the slot. Playing creates each object into a handle table of
//! mtNoObjects entries (PlayMetaRecord's HANDLETABLE) and deletes what is
//! left at the end.

use crate::loader::{LoadError, Reader};

/// Bytes of METAHEADER.
pub const HEADER_SIZE: usize = 18;
/// mtType.
pub const MEMORY_METAFILE: u16 = 1;
pub const DISK_METAFILE: u16 = 2;
/// mtVersion of Windows 3.x metafiles.
pub const METAVERSION: u16 = 0x0300;
/// A placeable (Aldus) metafile's key: 22 bytes that GetMetaFile does not
/// read; a program skips them and calls SetMetaFileBits.
pub const PLACEABLE_KEY: u32 = 0x9AC6_CDD7;

// The record functions (META_*), Windows 3.1.
pub const META_EOF: u16 = 0x0000;
pub const META_SETBKCOLOR: u16 = 0x0201;
pub const META_SETBKMODE: u16 = 0x0102;
pub const META_SETMAPMODE: u16 = 0x0103;
pub const META_SETROP2: u16 = 0x0104;
pub const META_SETRELABS: u16 = 0x0105;
pub const META_SETPOLYFILLMODE: u16 = 0x0106;
pub const META_SETSTRETCHBLTMODE: u16 = 0x0107;
pub const META_SETTEXTCHAREXTRA: u16 = 0x0108;
pub const META_SETTEXTCOLOR: u16 = 0x0209;
pub const META_SETTEXTJUSTIFICATION: u16 = 0x020A;
pub const META_SETWINDOWORG: u16 = 0x020B;
pub const META_SETWINDOWEXT: u16 = 0x020C;
pub const META_SETVIEWPORTORG: u16 = 0x020D;
pub const META_SETVIEWPORTEXT: u16 = 0x020E;
pub const META_OFFSETWINDOWORG: u16 = 0x020F;
pub const META_SCALEWINDOWEXT: u16 = 0x0410;
pub const META_OFFSETVIEWPORTORG: u16 = 0x0211;
pub const META_SCALEVIEWPORTEXT: u16 = 0x0412;
pub const META_LINETO: u16 = 0x0213;
pub const META_MOVETO: u16 = 0x0214;
pub const META_EXCLUDECLIPRECT: u16 = 0x0415;
pub const META_INTERSECTCLIPRECT: u16 = 0x0416;
pub const META_ARC: u16 = 0x0817;
pub const META_ELLIPSE: u16 = 0x0418;
pub const META_FLOODFILL: u16 = 0x0419;
pub const META_PIE: u16 = 0x081A;
pub const META_RECTANGLE: u16 = 0x041B;
pub const META_ROUNDRECT: u16 = 0x061C;
pub const META_PATBLT: u16 = 0x061D;
pub const META_SAVEDC: u16 = 0x001E;
pub const META_SETPIXEL: u16 = 0x041F;
pub const META_OFFSETCLIPRGN: u16 = 0x0220;
pub const META_TEXTOUT: u16 = 0x0521;
pub const META_BITBLT: u16 = 0x0922;
pub const META_STRETCHBLT: u16 = 0x0B23;
pub const META_POLYGON: u16 = 0x0324;
pub const META_POLYLINE: u16 = 0x0325;
pub const META_ESCAPE: u16 = 0x0626;
pub const META_RESTOREDC: u16 = 0x0127;
pub const META_FILLREGION: u16 = 0x0228;
pub const META_FRAMEREGION: u16 = 0x0429;
pub const META_INVERTREGION: u16 = 0x012A;
pub const META_PAINTREGION: u16 = 0x012B;
pub const META_SELECTCLIPREGION: u16 = 0x012C;
pub const META_SELECTOBJECT: u16 = 0x012D;
pub const META_SETTEXTALIGN: u16 = 0x012E;
pub const META_DRAWTEXT: u16 = 0x062F;
pub const META_CHORD: u16 = 0x0830;
pub const META_SETMAPPERFLAGS: u16 = 0x0231;
pub const META_EXTTEXTOUT: u16 = 0x0A32;
pub const META_SETDIBTODEV: u16 = 0x0D33;
pub const META_SELECTPALETTE: u16 = 0x0234;
pub const META_REALIZEPALETTE: u16 = 0x0035;
pub const META_ANIMATEPALETTE: u16 = 0x0436;
pub const META_SETPALENTRIES: u16 = 0x0037;
pub const META_POLYPOLYGON: u16 = 0x0538;
pub const META_RESIZEPALETTE: u16 = 0x0139;
pub const META_DIBBITBLT: u16 = 0x0940;
pub const META_DIBSTRETCHBLT: u16 = 0x0B41;
pub const META_DIBCREATEPATTERNBRUSH: u16 = 0x0142;
pub const META_STRETCHDIB: u16 = 0x0F43;
pub const META_EXTFLOODFILL: u16 = 0x0548;
pub const META_DELETEOBJECT: u16 = 0x01F0;
pub const META_CREATEPALETTE: u16 = 0x00F7;
pub const META_CREATEPATTERNBRUSH: u16 = 0x01F9;
pub const META_CREATEPENINDIRECT: u16 = 0x02FA;
pub const META_CREATEFONTINDIRECT: u16 = 0x02FB;
pub const META_CREATEBRUSHINDIRECT: u16 = 0x02FC;
pub const META_CREATEREGION: u16 = 0x06FF;

/// Every record function with its name (for EnumMetaFile's users and
/// reports).
pub const FUNCTIONS: &[(u16, &str)] = &[
    (META_EOF, "EOF"),
    (META_SETBKCOLOR, "SETBKCOLOR"),
    (META_SETBKMODE, "SETBKMODE"),
    (META_SETMAPMODE, "SETMAPMODE"),
    (META_SETROP2, "SETROP2"),
    (META_SETRELABS, "SETRELABS"),
    (META_SETPOLYFILLMODE, "SETPOLYFILLMODE"),
    (META_SETSTRETCHBLTMODE, "SETSTRETCHBLTMODE"),
    (META_SETTEXTCHAREXTRA, "SETTEXTCHAREXTRA"),
    (META_SETTEXTCOLOR, "SETTEXTCOLOR"),
    (META_SETTEXTJUSTIFICATION, "SETTEXTJUSTIFICATION"),
    (META_SETWINDOWORG, "SETWINDOWORG"),
    (META_SETWINDOWEXT, "SETWINDOWEXT"),
    (META_SETVIEWPORTORG, "SETVIEWPORTORG"),
    (META_SETVIEWPORTEXT, "SETVIEWPORTEXT"),
    (META_OFFSETWINDOWORG, "OFFSETWINDOWORG"),
    (META_SCALEWINDOWEXT, "SCALEWINDOWEXT"),
    (META_OFFSETVIEWPORTORG, "OFFSETVIEWPORTORG"),
    (META_SCALEVIEWPORTEXT, "SCALEVIEWPORTEXT"),
    (META_LINETO, "LINETO"),
    (META_MOVETO, "MOVETO"),
    (META_EXCLUDECLIPRECT, "EXCLUDECLIPRECT"),
    (META_INTERSECTCLIPRECT, "INTERSECTCLIPRECT"),
    (META_ARC, "ARC"),
    (META_ELLIPSE, "ELLIPSE"),
    (META_FLOODFILL, "FLOODFILL"),
    (META_PIE, "PIE"),
    (META_RECTANGLE, "RECTANGLE"),
    (META_ROUNDRECT, "ROUNDRECT"),
    (META_PATBLT, "PATBLT"),
    (META_SAVEDC, "SAVEDC"),
    (META_SETPIXEL, "SETPIXEL"),
    (META_OFFSETCLIPRGN, "OFFSETCLIPRGN"),
    (META_TEXTOUT, "TEXTOUT"),
    (META_BITBLT, "BITBLT"),
    (META_STRETCHBLT, "STRETCHBLT"),
    (META_POLYGON, "POLYGON"),
    (META_POLYLINE, "POLYLINE"),
    (META_ESCAPE, "ESCAPE"),
    (META_RESTOREDC, "RESTOREDC"),
    (META_FILLREGION, "FILLREGION"),
    (META_FRAMEREGION, "FRAMEREGION"),
    (META_INVERTREGION, "INVERTREGION"),
    (META_PAINTREGION, "PAINTREGION"),
    (META_SELECTCLIPREGION, "SELECTCLIPREGION"),
    (META_SELECTOBJECT, "SELECTOBJECT"),
    (META_SETTEXTALIGN, "SETTEXTALIGN"),
    (META_DRAWTEXT, "DRAWTEXT"),
    (META_CHORD, "CHORD"),
    (META_SETMAPPERFLAGS, "SETMAPPERFLAGS"),
    (META_EXTTEXTOUT, "EXTTEXTOUT"),
    (META_SETDIBTODEV, "SETDIBTODEV"),
    (META_SELECTPALETTE, "SELECTPALETTE"),
    (META_REALIZEPALETTE, "REALIZEPALETTE"),
    (META_ANIMATEPALETTE, "ANIMATEPALETTE"),
    (META_SETPALENTRIES, "SETPALENTRIES"),
    (META_POLYPOLYGON, "POLYPOLYGON"),
    (META_RESIZEPALETTE, "RESIZEPALETTE"),
    (META_DIBBITBLT, "DIBBITBLT"),
    (META_DIBSTRETCHBLT, "DIBSTRETCHBLT"),
    (META_DIBCREATEPATTERNBRUSH, "DIBCREATEPATTERNBRUSH"),
    (META_STRETCHDIB, "STRETCHDIB"),
    (META_EXTFLOODFILL, "EXTFLOODFILL"),
    (META_DELETEOBJECT, "DELETEOBJECT"),
    (META_CREATEPALETTE, "CREATEPALETTE"),
    (META_CREATEPATTERNBRUSH, "CREATEPATTERNBRUSH"),
    (META_CREATEPENINDIRECT, "CREATEPENINDIRECT"),
    (META_CREATEFONTINDIRECT, "CREATEFONTINDIRECT"),
    (META_CREATEBRUSHINDIRECT, "CREATEBRUSHINDIRECT"),
    (META_CREATEREGION, "CREATEREGION"),
];

/// The name of a record function (`META_` left off), if it is one.
pub fn function_name(f: u16) -> Option<&'static str> {
    FUNCTIONS.iter().find(|e| e.0 == f).map(|e| e.1)
}

/// METAHEADER.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaHeader {
    pub kind: u16,
    pub header_size: u16,
    pub version: u16,
    /// Words.
    pub size: u32,
    pub objects: u16,
    /// Words.
    pub max_record: u32,
    pub parameters: u16,
}

impl MetaHeader {
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[0..2].copy_from_slice(&self.kind.to_le_bytes());
        b[2..4].copy_from_slice(&self.header_size.to_le_bytes());
        b[4..6].copy_from_slice(&self.version.to_le_bytes());
        b[6..10].copy_from_slice(&self.size.to_le_bytes());
        b[10..12].copy_from_slice(&self.objects.to_le_bytes());
        b[12..16].copy_from_slice(&self.max_record.to_le_bytes());
        b[16..18].copy_from_slice(&self.parameters.to_le_bytes());
        b
    }
}

/// One METARECORD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaRecord {
    pub function: u16,
    pub params: Vec<u16>,
}

impl MetaRecord {
    pub fn new(function: u16, params: Vec<u16>) -> MetaRecord {
        MetaRecord { function, params }
    }

    /// rdSize: words, the 3-word head included.
    pub fn size_words(&self) -> u32 {
        3 + self.params.len() as u32
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(6 + self.params.len() * 2);
        b.extend_from_slice(&self.size_words().to_le_bytes());
        b.extend_from_slice(&self.function.to_le_bytes());
        for p in &self.params {
            b.extend_from_slice(&p.to_le_bytes());
        }
        b
    }

    /// Parameter `i` as a signed value (0 when missing).
    pub fn int(&self, i: usize) -> i16 {
        self.params.get(i).copied().unwrap_or(0) as i16
    }

    /// Parameter words `i` (low) and `i + 1` (high) as a DWORD.
    pub fn dword(&self, i: usize) -> u32 {
        let w = |k: usize| u32::from(self.params.get(k).copied().unwrap_or(0));
        w(i) | w(i + 1) << 16
    }

    /// The parameters' bytes from word `i` on.
    pub fn bytes_from(&self, i: usize) -> Vec<u8> {
        self.params
            .iter()
            .skip(i)
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }
}

/// Bytes as parameter words (the last byte padded with 0).
pub fn words_of(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c.get(1).copied().unwrap_or(0)]))
        .collect()
}

/// A whole metafile: its header and records (META_EOF not included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metafile {
    pub header: MetaHeader,
    pub records: Vec<MetaRecord>,
}

/// The most records a metafile may hold (each is at least 6 bytes; a
/// Win16 metafile in memory is at most a few megabytes).
pub const MAX_METAFILE_BYTES: u64 = 16 << 20;

impl Metafile {
    /// A metafile of these records, its header computed (size, largest
    /// record) as GDI writes it.
    pub fn new(kind: u16, objects: u16, records: Vec<MetaRecord>) -> Metafile {
        let mut m = Metafile {
            header: MetaHeader {
                kind,
                header_size: 9,
                version: METAVERSION,
                size: 0,
                objects,
                max_record: 0,
                parameters: 0,
            },
            records,
        };
        m.fix_header();
        m
    }

    /// Recompute mtSize and mtMaxRecord.
    pub fn fix_header(&mut self) {
        let eof = 3u32;
        let body: u32 = self.records.iter().map(MetaRecord::size_words).sum();
        self.header.size = 9 + body + eof;
        self.header.max_record = self
            .records
            .iter()
            .map(MetaRecord::size_words)
            .max()
            .unwrap_or(0)
            .max(eof);
    }

    /// The metafile's bytes: header, records, META_EOF.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = self.header.to_bytes().to_vec();
        for r in &self.records {
            b.extend_from_slice(&r.to_bytes());
        }
        b.extend_from_slice(&MetaRecord::new(META_EOF, Vec::new()).to_bytes());
        b
    }

    /// Parse a metafile's bytes (memory or disk layout: the same). Bounded:
    /// every record's size is checked against the bytes before it is
    /// read; the records end with META_EOF, which must be there.
    pub fn parse(bytes: &[u8]) -> Result<Metafile, LoadError> {
        let r = Reader::new(bytes);
        if bytes.len() as u64 > MAX_METAFILE_BYTES {
            return Err(LoadError::whole(
                "metafile",
                format!(
                    "{} bytes is more than a metafile may hold here ({MAX_METAFILE_BYTES})",
                    bytes.len()
                ),
            ));
        }
        if r.u32(0, "key").ok() == Some(PLACEABLE_KEY) {
            return Err(LoadError::at(
                0,
                "mtType",
                "this is a placeable (Aldus) metafile: its 22-byte header comes before the \
                 METAHEADER, which Windows' GetMetaFile does not read",
            ));
        }
        let header = MetaHeader {
            kind: r.u16(0, "mtType")?,
            header_size: r.u16(2, "mtHeaderSize")?,
            version: r.u16(4, "mtVersion")?,
            size: r.u32(6, "mtSize")?,
            objects: r.u16(10, "mtNoObjects")?,
            max_record: r.u32(12, "mtMaxRecord")?,
            parameters: r.u16(16, "mtNoParameters")?,
        };
        if header.kind != MEMORY_METAFILE && header.kind != DISK_METAFILE {
            return Err(LoadError::at(
                0,
                "mtType",
                format!("mtType {} is neither 1 (memory) nor 2 (disk)", header.kind),
            ));
        }
        if header.header_size != 9 {
            return Err(LoadError::at(
                2,
                "mtHeaderSize",
                format!("header size {} words, not 9", header.header_size),
            ));
        }
        if header.version != 0x0300 && header.version != 0x0100 {
            return Err(LoadError::at(
                4,
                "mtVersion",
                format!("version {:#06X} is not 0x0300 or 0x0100", header.version),
            ));
        }
        let mut records = Vec::new();
        let mut p = HEADER_SIZE as u64;
        loop {
            let words = r.u32(p, "rdSize").map_err(|_| {
                LoadError::at(
                    p,
                    "rdSize",
                    format!(
                        "the records end at {p:#X} without META_EOF (the file is {:#X} bytes)",
                        r.len()
                    ),
                )
            })?;
            let function = r.u16(p + 4, "rdFunction")?;
            if words < 3 {
                return Err(LoadError::at(
                    p,
                    "rdSize",
                    format!("a record of {words} words is shorter than its own 3-word head"),
                ));
            }
            let len = u64::from(words) * 2;
            let body = r.bytes(p + 6, len - 6, "rdParm").map_err(|_| {
                LoadError::at(
                    p,
                    "rdSize",
                    format!(
                        "the {} record of {words} words at {p:#X} runs past the end of the file \
                         ({:#X} bytes)",
                        function_name(function).unwrap_or("unknown"),
                        r.len()
                    ),
                )
            })?;
            if function == META_EOF {
                break;
            }
            records.push(MetaRecord {
                function,
                params: words_of(body),
            });
            p += len;
        }
        Ok(Metafile { header, records })
    }
}

/// The metafile a metafile DC records into, with its object table.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    pub records: Vec<MetaRecord>,
    /// The object table: slot -> the GDI handle it holds.
    slots: Vec<Option<u16>>,
    /// The most slots used at once (mtNoObjects).
    pub max_objects: u16,
    /// For a disk metafile, the file it is written to at CloseMetaFile
    /// (as the program named it) — None for a memory metafile.
    pub file: Option<String>,
    /// The pen, brush and font last selected (0: the stock defaults), for
    /// SelectObject's result.
    pub selected: [u16; 3],
}

impl Recorder {
    pub fn new(file: Option<String>) -> Recorder {
        Recorder {
            file,
            ..Recorder::default()
        }
    }

    pub fn record(&mut self, function: u16, params: Vec<u16>) {
        self.records.push(MetaRecord { function, params });
    }

    /// The slot holding object `h`, if it has one.
    pub fn slot_of(&self, h: u16) -> Option<u16> {
        self.slots
            .iter()
            .position(|s| *s == Some(h))
            .map(|i| i as u16)
    }

    /// Put `h` in the lowest free slot and return it.
    pub fn add_object(&mut self, h: u16) -> u16 {
        let i = match self.slots.iter().position(Option::is_none) {
            Some(i) => {
                self.slots[i] = Some(h);
                i
            }
            None => {
                self.slots.push(Some(h));
                self.slots.len() - 1
            }
        };
        let used = self.slots.iter().filter(|s| s.is_some()).count() as u16;
        self.max_objects = self.max_objects.max(used).max(self.slots.len() as u16);
        i as u16
    }

    /// Free `h`'s slot (returns it).
    pub fn remove_object(&mut self, h: u16) -> Option<u16> {
        let i = self.slot_of(h)?;
        self.slots[usize::from(i)] = None;
        Some(i)
    }

    /// The finished metafile.
    pub fn finish(&self) -> Metafile {
        let kind = if self.file.is_some() {
            DISK_METAFILE
        } else {
            MEMORY_METAFILE
        };
        Metafile::new(kind, self.max_objects, self.records.clone())
    }
}

// ---------------------------------------------------------------------
// Encoding calls as records.

/// The parameters of a call whose arguments (after the hDC) are all
/// words and dwords: the arguments' words in reverse order, a DWORD's low
/// word first — the image of the Pascal call's stack above the hDC.
pub fn stack_params(args: &[(bool, u32)]) -> Vec<u16> {
    let mut out = Vec::new();
    for &(dword, v) in args.iter().rev() {
        out.push(v as u16);
        if dword {
            out.push((v >> 16) as u16);
        }
    }
    out
}

/// META_TEXTOUT: count, the string (padded to a word), y, x.
pub fn text_out(x: i16, y: i16, text: &[u8]) -> MetaRecord {
    let mut p = vec![text.len() as u16];
    p.extend(words_of(text));
    p.push(y as u16);
    p.push(x as u16);
    MetaRecord::new(META_TEXTOUT, p)
}

/// META_EXTTEXTOUT: y, x, count, options, the rectangle (when the
/// options have ETO_OPAQUE or ETO_CLIPPED, in its natural order), the
/// string (padded), then the spacing array when given.
pub fn ext_text_out(
    x: i16,
    y: i16,
    options: u16,
    rect: Option<[i16; 4]>,
    text: &[u8],
    dx: Option<&[i16]>,
) -> MetaRecord {
    let mut p = vec![y as u16, x as u16, text.len() as u16, options];
    if let Some(r) = rect {
        p.extend(r.iter().map(|&v| v as u16));
    }
    p.extend(words_of(text));
    if let Some(dx) = dx {
        p.extend(dx.iter().map(|&v| v as u16));
    }
    MetaRecord::new(META_EXTTEXTOUT, p)
}

/// META_POLYGON / META_POLYLINE: the count, then x, y of each point.
pub fn poly(function: u16, points: &[(i16, i16)]) -> MetaRecord {
    let mut p = vec![points.len() as u16];
    for &(x, y) in points {
        p.push(x as u16);
        p.push(y as u16);
    }
    MetaRecord::new(function, p)
}

/// META_POLYPOLYGON: the polygon count, each polygon's point count, then
/// every point.
pub fn poly_polygon(polys: &[Vec<(i16, i16)>]) -> MetaRecord {
    let mut p = vec![polys.len() as u16];
    p.extend(polys.iter().map(|q| q.len() as u16));
    for q in polys {
        for &(x, y) in q {
            p.push(x as u16);
            p.push(y as u16);
        }
    }
    MetaRecord::new(META_POLYPOLYGON, p)
}

/// The parts of a META_EXTTEXTOUT record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtTextOut {
    pub x: i16,
    pub y: i16,
    pub options: u16,
    pub rect: Option<[i16; 4]>,
    pub text: Vec<u8>,
    pub dx: Option<Vec<i16>>,
}

/// ETO_OPAQUE and ETO_CLIPPED: the record holds a rectangle.
pub const ETO_OPAQUE: u16 = 0x0002;
pub const ETO_CLIPPED: u16 = 0x0004;

/// Read a META_EXTTEXTOUT record (bounded by its parameters).
pub fn parse_ext_text_out(r: &MetaRecord) -> Option<ExtTextOut> {
    let p = &r.params;
    if p.len() < 4 {
        return None;
    }
    let count = usize::from(p[2]);
    let options = p[3];
    let has_rect = options & (ETO_OPAQUE | ETO_CLIPPED) != 0;
    let mut at = 4;
    let rect = if has_rect {
        let s = p.get(4..8)?;
        at = 8;
        Some([s[0] as i16, s[1] as i16, s[2] as i16, s[3] as i16])
    } else {
        None
    };
    let sw = count.div_ceil(2);
    let text: Vec<u8> = p
        .get(at..at + sw)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take(count)
        .collect();
    let rest = &p[at + sw..];
    let dx = (rest.len() >= count && count > 0)
        .then(|| rest[..count].iter().map(|&v| v as i16).collect());
    Some(ExtTextOut {
        x: p[1] as i16,
        y: p[0] as i16,
        options,
        rect,
        text,
        dx,
    })
}

/// Read a META_TEXTOUT record: (x, y, text).
pub fn parse_text_out(r: &MetaRecord) -> Option<(i16, i16, Vec<u8>)> {
    let p = &r.params;
    let count = usize::from(*p.first()?);
    let sw = count.div_ceil(2);
    let text: Vec<u8> = p
        .get(1..1 + sw)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take(count)
        .collect();
    let y = *p.get(1 + sw)? as i16;
    let x = *p.get(2 + sw)? as i16;
    Some((x, y, text))
}

/// Read a META_POLYGON/POLYLINE record's points.
pub fn parse_poly(r: &MetaRecord) -> Option<Vec<(i16, i16)>> {
    let n = usize::from(*r.params.first()?);
    let pts = r.params.get(1..1 + 2 * n)?;
    Some(pts.chunks(2).map(|c| (c[0] as i16, c[1] as i16)).collect())
}

/// Read a META_POLYPOLYGON record.
pub fn parse_poly_polygon(r: &MetaRecord) -> Option<Vec<Vec<(i16, i16)>>> {
    let n = usize::from(*r.params.first()?);
    let counts = r.params.get(1..1 + n)?;
    let mut at = 1 + n;
    let mut out = Vec::with_capacity(n);
    for &c in counts {
        let c = usize::from(c);
        let pts = r.params.get(at..at + 2 * c)?;
        out.push(pts.chunks(2).map(|q| (q[0] as i16, q[1] as i16)).collect());
        at += 2 * c;
    }
    Some(out)
}

// ---------------------------------------------------------------------
// Metafile handles.
//
// An HMETAFILE is a global memory handle whose block holds the metafile's
// bits, header first (Windows 3.1 kept a memory metafile so: GetMetaFileBits
// gives the same handle back as a memory handle, and SetMetaFileBits takes
// any global block holding a metafile). A disk metafile's block holds the
// bits as read from or written to its file, mtType 2.

use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::global::{self, gmem};

/// The bits of the metafile `hmf` (its block's first mtSize words), parsed;
/// None when it is no global block or holds no valid metafile.
pub fn read_handle(env: &Env, uc: &Uc<'_>, hmf: u16) -> Option<(Vec<u8>, Metafile)> {
    let b = env.win16.global.find(hmf)?;
    let (sel, size) = (b.selector, b.size);
    let mut head = [0u8; HEADER_SIZE];
    uc.read_seg(sel, 0, &mut head).ok()?;
    let words = u32::from_le_bytes([head[6], head[7], head[8], head[9]]);
    let len = (u64::from(words) * 2)
        .min(u64::from(size))
        .min(MAX_METAFILE_BYTES);
    let mut bits = vec![0u8; len as usize];
    // A block over 64 KiB spans selectors: read it through each.
    let mut done = 0usize;
    while done < bits.len() {
        let chunk = (bits.len() - done).min(0x8000);
        let off = done as u32;
        let s = sel.wrapping_add(((off >> 16) as u16) * 8);
        uc.read_seg(s, off as u16, &mut bits[done..done + chunk])
            .ok()?;
        done += chunk;
    }
    let m = Metafile::parse(&bits).ok()?;
    Some((bits, m))
}

/// A new metafile handle holding `bits`.
pub fn new_handle(env: &mut Env, uc: &mut Uc<'_>, bits: &[u8]) -> u16 {
    let owner = global::task_owner(env, uc, gmem::MOVEABLE);
    global::alloc_block(env, uc, gmem::MOVEABLE, bits.len() as u32, bits, owner)
}

/// Write a metafile's bits to a file of the sandbox, as a disk metafile
/// (through the drive: copy-on-write and the quota hold).
pub fn write_file(env: &mut Env, name: &[u8], m: &Metafile) -> bool {
    let Some(d) = env.drive.as_mut() else {
        return false;
    };
    let mut m = m.clone();
    m.header.kind = DISK_METAFILE;
    d.write_file(name, &m.to_bytes()).is_ok()
}

/// GDI.124 GetMetaFile(lpFilename) -> a handle of the disk metafile, or 0.
fn get_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
        return Ok(0);
    };
    let read = env
        .drive
        .as_ref()
        .map(|d| d.read_file(&name, MAX_METAFILE_BYTES));
    let Some(Ok(bytes)) = read else {
        return Ok(0);
    };
    let Ok(m) = Metafile::parse(&bytes) else {
        return Ok(0);
    };
    let bits = m.to_bytes();
    Ok(u32::from(new_handle(env, uc, &bits)))
}

/// GDI.127 DeleteMetaFile(hmf): frees the handle (not the file).
fn delete_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    if read_handle(env, uc, h).is_none() {
        return Ok(0);
    }
    Ok(u32::from(global::free_block(env, uc, h)))
}

/// GDI.151 CopyMetaFile(hmfSrc, lpFilename): a copy in memory (NULL name)
/// or in a file of the sandbox; the new handle, or 0.
fn copy_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((_, mut m)) = read_handle(env, uc, a[0] as u16) else {
        return Ok(0);
    };
    if a[1] == 0 {
        m.header.kind = MEMORY_METAFILE;
    } else {
        let Some(name) = farptr::read_cstr(uc, a[1], 260) else {
            return Ok(0);
        };
        if !write_file(env, &name, &m) {
            return Ok(0);
        }
        m.header.kind = DISK_METAFILE;
    }
    Ok(u32::from(new_handle(env, uc, &m.to_bytes())))
}

/// GDI.159 GetMetaFileBits(hmf) -> the global handle of the bits: the
/// same block (the metafile handle is no longer one).
fn get_meta_file_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    Ok(if read_handle(env, uc, h).is_some() {
        u32::from(h)
    } else {
        0
    })
}

/// GDI.410 IsValidMetaFile(hmf) (undocumented; GDI 3.1 as Wine's notes
/// on it describe) -> TRUE when the global block hmf begins with a
/// Windows 3.x METAHEADER: mtType 1 (memory) or 2 (disk), mtHeaderSize 9
/// and mtVersion 0300h. Only the header is looked at, not the records.
fn is_valid_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = env.win16.global.find(a[0] as u16) else {
        return Ok(0);
    };
    let mut head = [0u8; 6];
    if b.size < HEADER_SIZE as u32 || uc.read_seg(b.selector, 0, &mut head).is_err() {
        return Ok(0);
    }
    let word = |i: usize| u16::from_le_bytes([head[i], head[i + 1]]);
    let kind = word(0);
    Ok(u32::from(
        (kind == MEMORY_METAFILE || kind == DISK_METAFILE)
            && usize::from(word(2)) * 2 == HEADER_SIZE
            && word(4) == METAVERSION,
    ))
}

/// GDI.160 SetMetaFileBits(hMem) -> a metafile handle for a global block
/// that holds a metafile (the same handle), or 0.
fn set_meta_file_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    get_meta_file_bits(env, uc, a)
}

/// GDI.196 SetMetaFileBitsBetter(hMem) -> a metafile handle, or 0: as
/// SetMetaFileBits, and the block becomes GDI's (Windows 3.1 SDK: the
/// metafile then outlives the application that made it, which is how OLE
/// hands metafiles between programs).
fn set_meta_file_bits_better(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = set_meta_file_bits(env, uc, a)? as u16;
    if h == 0 {
        return Ok(0);
    }
    let gdi = env.win16.module_by_name("GDI").map_or(0, |m| m.hmodule);
    if let Some(b) = env.win16.global.find_mut(h) {
        b.owner = gdi;
        b.pdb_owner = false;
    }
    Ok(u32::from(h))
}

// ---------------------------------------------------------------------
// Metafile DCs: recording.
//
// CreateMetaFile makes an information DC of the display (it answers
// GetTextMetrics, GetDeviceCaps and the like as the display would, and
// draws nothing) and a recorder for it. Every GDI call on that DC passes
// through [`intercept`] before its function runs (win16/mod.rs,
// call_api): the calls a metafile holds are recorded and return TRUE
// (SelectObject: the object of that kind selected before), the others
// run on the information DC. What is recorded: the attribute and
// mapping calls, the drawing calls (lines, shapes, PatBlt, pixels, flood
// fills, text), SaveDC/RestoreDC, clip rectangles, the pens, brushes and
// fonts selected (their creation records, then SELECTOBJECT), and the
// blits: BitBlt and StretchBlt as DIBBITBLT and DIBSTRETCHBLT carrying
// the source rectangle as a packed DIB of the source's depth (without
// one when the raster operation takes no source), StretchDIBits and
// SetDIBitsToDevice as STRETCHDIB and SETDIBTODEV with the program's DIB.
// Not recorded (the call returns TRUE and a `metafile: ... not recorded`
// event says so): regions, palettes, escapes, and DIBs over 64 KB.

/// Metafile DCs being recorded: DC handle -> recorder.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    dcs: std::collections::HashMap<u16, Recorder>,
}

impl Recording {
    /// Is `hdc` a metafile DC?
    pub fn is_metafile(&self, hdc: u16) -> bool {
        self.dcs.contains_key(&hdc)
    }

    /// The recorder of metafile DC `hdc`.
    pub fn recorder(&mut self, hdc: u16) -> Option<&mut Recorder> {
        self.dcs.get_mut(&hdc)
    }
}

/// GDI calls recorded as the image of their arguments after the hDC:
/// (GDI ordinal, META_ function).
pub const STACK_RECORDS: &[(u16, u16)] = &[
    (1, META_SETBKCOLOR),
    (2, META_SETBKMODE),
    (3, META_SETMAPMODE),
    (4, META_SETROP2),
    (5, META_SETRELABS),
    (6, META_SETPOLYFILLMODE),
    (7, META_SETSTRETCHBLTMODE),
    (8, META_SETTEXTCHAREXTRA),
    (9, META_SETTEXTCOLOR),
    (10, META_SETTEXTJUSTIFICATION),
    (11, META_SETWINDOWORG),
    (12, META_SETWINDOWEXT),
    (13, META_SETVIEWPORTORG),
    (14, META_SETVIEWPORTEXT),
    (15, META_OFFSETWINDOWORG),
    (16, META_SCALEWINDOWEXT),
    (17, META_OFFSETVIEWPORTORG),
    (18, META_SCALEVIEWPORTEXT),
    (19, META_LINETO),
    (20, META_MOVETO),
    (21, META_EXCLUDECLIPRECT),
    (22, META_INTERSECTCLIPRECT),
    (23, META_ARC),
    (24, META_ELLIPSE),
    (25, META_FLOODFILL),
    (26, META_PIE),
    (27, META_RECTANGLE),
    (28, META_ROUNDRECT),
    (29, META_PATBLT),
    (30, META_SAVEDC),
    (31, META_SETPIXEL),
    (32, META_OFFSETCLIPRGN),
    (39, META_RESTOREDC),
    (46, META_SETTEXTALIGN),
    (48, META_CHORD),
    (349, META_SETMAPPERFLAGS),
    (372, META_EXTFLOODFILL),
];

/// Calls a metafile DC accepts without recording them (module notes).
const NOT_RECORDED: &[u16] = &[38, 40, 41, 42, 43, 44];

// The ordinals the recording hook (intercept) tells calls apart by; GDI's
// own calls go to the Rust functions by name.
const ORD_BITBLT: u16 = 34;
const ORD_STRETCHBLT: u16 = 35;
const ORD_STRETCHDIBITS: u16 = 439;
const ORD_SETDIBITSTODEVICE: u16 = 443;
const SRCCOPY: u32 = 0x00CC_0020;
/// The largest DIB a record here carries (one scratch segment).
const MAX_DIB: usize = 0xFF00;

/// The lengths of a packed DIB's parts from its header's first bytes
/// (BITMAPINFOHEADER or BITMAPCOREHEADER) and the colour usage
/// (DIB_RGB_COLORS 0: RGBQUADs, or RGBTRIPLEs after a core header;
/// DIB_PAL_COLORS 1: WORD indices): (header + colour table, bits for
/// `lines` scan lines, or all of them for None).
pub fn dib_parts(head: &[u8], usage: u16, lines: Option<u32>) -> Option<(usize, usize)> {
    let d = |o: usize| {
        head.get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    let w16 = |o: usize| head.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let size = d(0)?;
    let (width, height, bits, compression, size_image, used) = match size {
        12 => (u32::from(w16(4)?), u32::from(w16(6)?), w16(10)?, 0, 0, 0),
        40.. => (
            d(4)?,
            (d(8)? as i32).unsigned_abs(),
            w16(14)?,
            d(16)?,
            d(20)?,
            d(32)?,
        ),
        _ => return None,
    };
    if !matches!(bits, 1 | 4 | 8 | 24) || width > 0x8000 || height > 0x8000 {
        return None;
    }
    let colors = if bits <= 8 {
        if used != 0 && size != 12 {
            used.min(1 << bits)
        } else {
            1 << bits
        }
    } else {
        0
    };
    let entry = match (usage, size) {
        (1, _) => 2,
        (_, 12) => 3,
        _ => 4,
    };
    let table = size as usize + colors as usize * entry;
    let stride = (width as usize * usize::from(bits)).div_ceil(32) * 4;
    let data = if compression != 0 {
        size_image as usize
    } else {
        stride * lines.unwrap_or(height).min(height) as usize
    };
    (table + data <= MAX_DIB).then_some((table, data))
}

/// The source rectangle of a blit as a packed DIB of its own (xSrc = ySrc
/// = 0), in the source's colour depth, as a metafile's DIBBITBLT and
/// DIBSTRETCHBLT records carry it: copied into a compatible bitmap, then
/// read with GetDIBits. None when it cannot be made or is too big.
fn capture(
    env: &mut Env,
    uc: &mut Uc<'_>,
    src: u32,
    xs: u32,
    ys: u32,
    ws: i32,
    hs: i32,
) -> Result<Option<Vec<u8>>, Stop> {
    if ws <= 0 || hs <= 0 || ws > 0x2000 || hs > 0x2000 {
        return Ok(None);
    }
    let depth = match super::dc::surface_format(&mut env.win16.gdi, src as u16) {
        Some(f) => f.depth(),
        None => return Ok(None),
    };
    let colors = if depth <= 8 { 1usize << depth } else { 0 };
    let stride = (ws as usize * depth as usize).div_ceil(32) * 4;
    let bits_len = stride * hs as usize;
    if 40 + colors * 4 + bits_len > MAX_DIB {
        return Ok(None);
    }
    let mem = super::dc::create_compatible_dc(env, uc, &[src])?;
    let bm = super::bitmap::create_compatible_bitmap(env, uc, &[src, ws as u32, hs as u32])?;
    let mut out = None;
    if mem != 0 && bm != 0 {
        let old = super::objects::select_object(env, uc, &[mem, bm])?;
        super::blit::bit_blt(
            env,
            uc,
            &[mem, 0, 0, ws as u32, hs as u32, src, xs, ys, SRCCOPY],
        )?;
        super::objects::select_object(env, uc, &[mem, old])?;
        let mut head = vec![0u8; 40 + colors * 4];
        head[0..4].copy_from_slice(&40u32.to_le_bytes());
        head[4..8].copy_from_slice(&(ws as u32).to_le_bytes());
        head[8..12].copy_from_slice(&(hs as u32).to_le_bytes());
        head[12..14].copy_from_slice(&1u16.to_le_bytes());
        head[14..16].copy_from_slice(&(depth as u16).to_le_bytes());
        let mut data = head.clone();
        data.resize(head.len() + bits_len, 0);
        if let Some((p, blk)) = scratch(env, uc, &data) {
            let lines = super::blit::get_dibits(
                env,
                uc,
                &[mem, bm, 0, hs as u32, farptr::add(p, head.len()), p, 0],
            )?;
            if lines != 0 {
                out = farptr::read_bytes(uc, p, data.len());
            }
            global::free_block(env, uc, blk);
        }
    }
    if mem != 0 {
        super::dc::delete_dc(env, uc, &[mem])?;
    }
    if bm != 0 {
        super::objects::delete_object(env, uc, &[bm])?;
    }
    Ok(out)
}

/// A packed DIB a program passed (header and colour table at `bmi`, bits
/// at `bits`), for `lines` scan lines (None: all).
fn program_dib(
    uc: &Uc<'_>,
    bmi: u32,
    bits: u32,
    usage: u16,
    lines: Option<u32>,
) -> Option<Vec<u8>> {
    let head = farptr::read_bytes(uc, bmi, 40).or_else(|| farptr::read_bytes(uc, bmi, 12))?;
    let (table, data) = dib_parts(&head, usage, lines)?;
    let mut out = farptr::read_bytes(uc, bmi, table)?;
    out.extend(farptr::read_bytes(uc, bits, data)?);
    Some(out)
}

/// Record a blit on metafile DC `hdc`: BitBlt's or StretchBlt's arguments
/// after the hDC as (x, y, w, h, hdcSrc, xSrc, ySrc, wSrc, hSrc, rop).
#[allow(clippy::too_many_arguments)]
fn record_blit(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    stretch: bool,
    d: [u32; 4],
    src: u32,
    s: [u32; 4],
    rop: u32,
) -> Result<(), Stop> {
    let w = |v: u32| v as u16;
    let uses_source = super::raster::rop3_uses((rop >> 16) as u8).1;
    let mut p = vec![rop as u16, (rop >> 16) as u16];
    let dib = if uses_source {
        match capture(
            env,
            uc,
            src,
            s[0],
            s[1],
            s[2] as i16 as i32,
            s[3] as i16 as i32,
        )? {
            Some(dib) => Some(dib),
            None => {
                crate::machine::record_event(
                    uc,
                    format!("metafile {hdc:04X}: a blit's source could not be recorded"),
                );
                return Ok(());
            }
        }
    } else {
        None
    };
    if stretch {
        p.extend([w(s[3]), w(s[2])]);
    }
    if dib.is_some() {
        p.extend([0, 0]);
    } else {
        p.extend([w(s[1]), w(s[0]), 0]);
    }
    p.extend([w(d[3]), w(d[2]), w(d[1]), w(d[0])]);
    if let Some(dib) = dib {
        p.extend(words_of(&dib));
    }
    let f = if stretch {
        META_DIBSTRETCHBLT
    } else {
        META_DIBBITBLT
    };
    if let Some(r) = env.win16.gdi.metafiles.recorder(hdc) {
        r.record(f, p);
    }
    Ok(())
}

const ORD_SELECTOBJECT: u16 = 45;
const ORD_DELETEDC: u16 = 68;
const ORD_DELETEOBJECT: u16 = 69;
const ORD_TEXTOUT: u16 = 33;
const ORD_EXTTEXTOUT: u16 = 351;
const ORD_POLYGON: u16 = 36;
const ORD_POLYLINE: u16 = 37;
const ORD_POLYPOLYGON: u16 = 450;
const ORD_CREATEPENINDIRECT: u16 = 62;
const ORD_CREATEBRUSHINDIRECT: u16 = 50;
const ORD_CREATEFONTINDIRECT: u16 = 57;

/// The most points or characters a recorded call reads.
const MAX_ITEMS: usize = 0x2000;

fn read_points(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<(i16, i16)>> {
    let b = farptr::read_bytes(uc, p, n.min(MAX_ITEMS) * 4)?;
    Some(
        b.chunks(4)
            .map(|c| {
                (
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                )
            })
            .collect(),
    )
}

/// Record SelectObject(hdc, h) on a metafile DC: the object's creation
/// record the first time this metafile sees it, then SELECTOBJECT of its
/// slot. Returns the object of the same kind selected before (the stock
/// default at first), or 0 for an object it cannot record.
fn record_select(env: &mut Env, uc: &mut Uc<'_>, hdc: u16, h: u16) -> u32 {
    use super::objects::{Obj, stock};
    let g = &mut env.win16.gdi;
    let (kind, create) = match g.objects.get(h) {
        Some(Obj::Pen(_)) => (0usize, META_CREATEPENINDIRECT),
        Some(Obj::Brush(_)) => (1, META_CREATEBRUSHINDIRECT),
        Some(Obj::Font(_)) => (2, META_CREATEFONTINDIRECT),
        _ => {
            crate::machine::record_event(
                uc,
                format!("metafile {hdc:04X}: SelectObject {h:04X} not recorded"),
            );
            return 0;
        }
    };
    let Some(bytes) = super::objects::object_bytes(g, h) else {
        return 0;
    };
    let defaults = [
        g.objects.stock(stock::BLACK_PEN),
        g.objects.stock(stock::WHITE_BRUSH),
        g.objects.stock(stock::SYSTEM_FONT),
    ];
    let Some(r) = g.metafiles.recorder(hdc) else {
        return 0;
    };
    let slot = match r.slot_of(h) {
        Some(s) => s,
        None => {
            r.record(create, words_of(&bytes));
            r.add_object(h)
        }
    };
    r.record(META_SELECTOBJECT, vec![slot]);
    let prev = r.selected[kind];
    r.selected[kind] = h;
    u32::from(if prev == 0 { defaults[kind] } else { prev })
}

/// The hook every GDI call passes through (win16/mod.rs, call_api): for a
/// call on a metafile DC, its record and result; None to run the
/// function as usual.
pub fn intercept(
    env: &mut Env,
    uc: &mut Uc<'_>,
    api: &Api,
    args: &[u32],
) -> Result<Option<u32>, Stop> {
    if !api.module.eq_ignore_ascii_case("GDI") || env.win16.gdi.metafiles.dcs.is_empty() {
        return Ok(None);
    }
    if api.ordinal == ORD_DELETEOBJECT {
        // An object a metafile uses: its deletion is recorded.
        let h = args.first().copied().unwrap_or(0) as u16;
        for r in env.win16.gdi.metafiles.dcs.values_mut() {
            if let Some(slot) = r.remove_object(h) {
                r.record(META_DELETEOBJECT, vec![slot]);
                for s in &mut r.selected {
                    if *s == h {
                        *s = 0;
                    }
                }
            }
        }
        return Ok(None);
    }
    if api.args.first() != Some(&Arg::W) {
        return Ok(None);
    }
    let hdc = args[0] as u16;
    if !env.win16.gdi.metafiles.is_metafile(hdc) {
        return Ok(None);
    }
    let o = api.ordinal;
    if o == ORD_DELETEDC {
        env.win16.gdi.metafiles.dcs.remove(&hdc);
        return Ok(None);
    }
    let record = |env: &mut Env, rec: MetaRecord| {
        if let Some(r) = env.win16.gdi.metafiles.recorder(hdc) {
            r.records.push(rec);
        }
    };
    if let Some(&(_, f)) = STACK_RECORDS.iter().find(|e| e.0 == o) {
        let pairs: Vec<(bool, u32)> = api.args[1..]
            .iter()
            .zip(&args[1..])
            .map(|(a, &v)| (*a == Arg::L, v))
            .collect();
        record(env, MetaRecord::new(f, stack_params(&pairs)));
        return Ok(Some(1));
    }
    let n = |v: u32| (v as u16 as i16).max(0) as usize;
    match o {
        ORD_SELECTOBJECT => Ok(Some(record_select(env, uc, hdc, args[1] as u16))),
        ORD_TEXTOUT => {
            let text =
                farptr::read_bytes(uc, args[3], n(args[4]).min(MAX_ITEMS)).unwrap_or_default();
            record(env, text_out(args[1] as i16, args[2] as i16, &text));
            Ok(Some(1))
        }
        ORD_EXTTEXTOUT => {
            let count = n(args[6]).min(MAX_ITEMS);
            let text = farptr::read_bytes(uc, args[5], count).unwrap_or_default();
            let options = args[3] as u16;
            let rect = if options & (ETO_OPAQUE | ETO_CLIPPED) != 0 && args[4] != 0 {
                farptr::read_bytes(uc, args[4], 8).map(|b| {
                    let w = |k: usize| i16::from_le_bytes([b[k], b[k + 1]]);
                    [w(0), w(2), w(4), w(6)]
                })
            } else {
                None
            };
            let dx: Option<Vec<i16>> = (args[7] != 0)
                .then(|| farptr::read_bytes(uc, args[7], text.len() * 2))
                .flatten()
                .map(|b| {
                    b.chunks(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]]))
                        .collect()
                });
            let options = if rect.is_some() {
                options
            } else {
                options & !(ETO_OPAQUE | ETO_CLIPPED)
            };
            record(
                env,
                ext_text_out(
                    args[1] as i16,
                    args[2] as i16,
                    options,
                    rect,
                    &text,
                    dx.as_deref(),
                ),
            );
            Ok(Some(1))
        }
        ORD_POLYGON | ORD_POLYLINE => {
            let pts = read_points(uc, args[1], n(args[2])).unwrap_or_default();
            let f = if o == ORD_POLYGON {
                META_POLYGON
            } else {
                META_POLYLINE
            };
            record(env, poly(f, &pts));
            Ok(Some(1))
        }
        ORD_POLYPOLYGON => {
            let k = n(args[3]).min(MAX_ITEMS);
            let counts = farptr::read_bytes(uc, args[2], k * 2).unwrap_or_default();
            let counts: Vec<usize> = counts
                .chunks(2)
                .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])))
                .collect();
            let total: usize = counts.iter().sum::<usize>().min(MAX_ITEMS);
            let pts = read_points(uc, args[1], total).unwrap_or_default();
            let mut polys = Vec::new();
            let mut at = 0;
            for c in counts {
                let end = (at + c).min(pts.len());
                polys.push(pts[at..end].to_vec());
                at = end;
            }
            record(env, poly_polygon(&polys));
            Ok(Some(1))
        }
        ORD_BITBLT => {
            let d = [args[1], args[2], args[3], args[4]];
            let s = [args[6], args[7], args[3], args[4]];
            record_blit(env, uc, hdc, false, d, args[5], s, args[8])?;
            Ok(Some(1))
        }
        ORD_STRETCHBLT => {
            let d = [args[1], args[2], args[3], args[4]];
            let s = [args[6], args[7], args[8], args[9]];
            record_blit(env, uc, hdc, true, d, args[5], s, args[10])?;
            Ok(Some(1))
        }
        ORD_STRETCHDIBITS => {
            let usage = args[11] as u16;
            if let Some(dib) = program_dib(uc, args[10], args[9], usage, None) {
                let rop = args[12];
                let mut p = vec![rop as u16, (rop >> 16) as u16, usage];
                for k in [8, 7, 6, 5, 4, 3, 2, 1] {
                    p.push(args[k] as u16);
                }
                p.extend(words_of(&dib));
                record(env, MetaRecord::new(META_STRETCHDIB, p));
            }
            Ok(Some(1))
        }
        ORD_SETDIBITSTODEVICE => {
            let usage = args[11] as u16;
            let lines = args[8] as u16 as u32;
            if let Some(dib) = program_dib(uc, args[10], args[9], usage, Some(lines)) {
                let mut p = vec![usage];
                for k in [8, 7, 6, 5, 4, 3, 2, 1] {
                    p.push(args[k] as u16);
                }
                p.extend(words_of(&dib));
                record(env, MetaRecord::new(META_SETDIBTODEV, p));
            }
            Ok(Some(lines.max(1)))
        }
        _ if NOT_RECORDED.contains(&o) => {
            crate::machine::record_event(
                uc,
                format!("metafile {hdc:04X}: {} not recorded", api.name),
            );
            Ok(Some(1))
        }
        _ => Ok(None),
    }
}

/// GDI.125 CreateMetaFile(lpFilename) -> a metafile DC: recording into
/// memory (NULL) or into a file of the sandbox, written at CloseMetaFile.
fn create_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let file = if a[0] == 0 {
        None
    } else {
        let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
            return Ok(0);
        };
        // The name must be one the drive can create (a file or a missing
        // name in an existing directory); the file is written at
        // CloseMetaFile, through the drive.
        let creatable = env.drive.as_ref().is_some_and(|d| {
            matches!(
                d.resolve(&name),
                Ok(crate::dos::fs::HostPath::File { .. }
                    | crate::dos::fs::HostPath::Missing { .. })
            )
        });
        if !creatable {
            return Ok(0);
        }
        Some(crate::loader::latin1(&name))
    };
    let device = super::devcaps::Device::Display(env.win16.gdi.display);
    let h = super::dc::make_dc(env, uc, super::dc::DcKind::Info, device) as u16;
    if h != 0 {
        super::heap::retype(&mut env.win16, uc, h, super::heap::lt::METADC);
        env.win16.gdi.metafiles.dcs.insert(h, Recorder::new(file));
    }
    Ok(u32::from(h))
}

/// GDI.126 CloseMetaFile(hDC) -> the metafile's handle (the DC is
/// deleted), or 0.
fn close_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    let Some(r) = env.win16.gdi.metafiles.dcs.remove(&hdc) else {
        return Ok(0);
    };
    crate::win16::gdi::dc::drop_dc(&mut env.win16, uc, hdc);
    let m = r.finish();
    if let Some(f) = &r.file
        && !write_file(env, f.as_bytes(), &m)
    {
        return Ok(0);
    }
    Ok(u32::from(new_handle(env, uc, &m.to_bytes())))
}

// ---------------------------------------------------------------------
// Playing.

/// GDI calls a record plays by name: (META_ function, GDI ordinal) of the
/// stack-image records, and the others by their shape.
fn call_gdi(env: &mut Env, uc: &mut Uc<'_>, ordinal: u16, args: &[u32]) -> Result<u32, Stop> {
    match crate::win16::api::find("GDI", ordinal) {
        Some(f) if f.args.len() == args.len() => (f.func)(env, uc, args),
        _ => Ok(0),
    }
}

/// A scratch block holding `data` for the duration of one call: its far
/// pointer and handle.
fn scratch(env: &mut Env, uc: &mut Uc<'_>, data: &[u8]) -> Option<(u32, u16)> {
    let owner = global::task_owner(env, uc, 0);
    let h = global::alloc_block(env, uc, 0, data.len().max(2) as u32, data, owner);
    let sel = env.win16.global.find(h)?.selector;
    Some((farptr::make(sel, 0), h))
}

/// Play one record on `hdc` with the handle table `table` (the objects the
/// metafile created, by slot). Unknown and unplayable records are skipped,
/// as GDI skipped them.
pub fn play_record(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    table: &mut [u16],
    r: &MetaRecord,
) -> Result<(), Stop> {
    let h = u32::from(hdc);
    if let Some(&(ord, _)) = STACK_RECORDS.iter().find(|e| e.1 == r.function) {
        let Some(f) = crate::win16::api::find("GDI", ord) else {
            return Ok(());
        };
        // The parameters are the arguments after the hDC, last first.
        let mut vals = Vec::new();
        let mut k = 0usize;
        for a in f.args[1..].iter().rev() {
            let v = match a {
                Arg::W => u32::from(r.params.get(k).copied().unwrap_or(0)),
                Arg::L => r.dword(k),
            };
            k += if *a == Arg::L { 2 } else { 1 };
            vals.push(v);
        }
        vals.push(h);
        vals.reverse();
        (f.func)(env, uc, &vals)?;
        return Ok(());
    }
    let with_scratch = |env: &mut Env,
                        uc: &mut Uc<'_>,
                        data: &[u8],
                        call: &mut dyn FnMut(&mut Env, &mut Uc<'_>, u32) -> Result<u32, Stop>|
     -> Result<u32, Stop> {
        let Some((p, blk)) = scratch(env, uc, data) else {
            return Ok(0);
        };
        let v = call(env, uc, p);
        global::free_block(env, uc, blk);
        v
    };
    match r.function {
        META_TEXTOUT => {
            if let Some((x, y, text)) = parse_text_out(r) {
                let n = text.len() as u32;
                with_scratch(env, uc, &text, &mut |env, uc, p| {
                    super::text::text_out(env, uc, &[h, x as u16 as u32, y as u16 as u32, p, n])
                })?;
            }
        }
        META_EXTTEXTOUT => {
            if let Some(e) = parse_ext_text_out(r) {
                let mut data = Vec::new();
                for v in e.rect.unwrap_or_default() {
                    data.extend_from_slice(&v.to_le_bytes());
                }
                let text_at = data.len();
                data.extend_from_slice(&e.text);
                if data.len() % 2 == 1 {
                    data.push(0);
                }
                let dx_at = data.len();
                if let Some(dx) = &e.dx {
                    for v in dx {
                        data.extend_from_slice(&v.to_le_bytes());
                    }
                }
                let n = e.text.len() as u32;
                let has_rect = e.rect.is_some();
                let has_dx = e.dx.is_some();
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    let rect = if has_rect { p } else { 0 };
                    let dx = if has_dx { farptr::add(p, dx_at) } else { 0 };
                    let args = [
                        h,
                        e.x as u16 as u32,
                        e.y as u16 as u32,
                        u32::from(e.options),
                        rect,
                        farptr::add(p, text_at),
                        n,
                        dx,
                    ];
                    super::text::ext_text_out(env, uc, &args)
                })?;
            }
        }
        META_POLYGON | META_POLYLINE => {
            if let Some(pts) = parse_poly(r) {
                let data: Vec<u8> = pts
                    .iter()
                    .flat_map(|&(x, y)| [x.to_le_bytes(), y.to_le_bytes()].concat())
                    .collect();
                let ord = if r.function == META_POLYGON {
                    ORD_POLYGON
                } else {
                    ORD_POLYLINE
                };
                let n = pts.len() as u32;
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    call_gdi(env, uc, ord, &[h, p, n])
                })?;
            }
        }
        META_POLYPOLYGON => {
            if let Some(polys) = parse_poly_polygon(r) {
                let mut data = Vec::new();
                for q in &polys {
                    for &(x, y) in q {
                        data.extend_from_slice(&x.to_le_bytes());
                        data.extend_from_slice(&y.to_le_bytes());
                    }
                }
                let counts_at = data.len();
                for q in &polys {
                    data.extend_from_slice(&(q.len() as u16).to_le_bytes());
                }
                let n = polys.len() as u32;
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    super::shapes::poly_polygon(env, uc, &[h, p, farptr::add(p, counts_at), n])
                })?;
            }
        }
        META_CREATEPENINDIRECT | META_CREATEBRUSHINDIRECT | META_CREATEFONTINDIRECT => {
            let (ord, len) = match r.function {
                META_CREATEPENINDIRECT => (ORD_CREATEPENINDIRECT, 10),
                META_CREATEBRUSHINDIRECT => (ORD_CREATEBRUSHINDIRECT, 8),
                _ => (ORD_CREATEFONTINDIRECT, 50),
            };
            let mut data = r.bytes_from(0);
            data.resize(len, 0);
            let obj = with_scratch(env, uc, &data, &mut |env, uc, p| {
                call_gdi(env, uc, ord, &[p])
            })?;
            // The lowest free slot holds it.
            if let Some(slot) = table.iter_mut().find(|s| **s == 0) {
                *slot = obj as u16;
            } else if obj != 0 {
                super::objects::delete_object(env, uc, &[obj])?;
            }
        }
        META_DIBBITBLT | META_DIBSTRETCHBLT | META_STRETCHDIB | META_SETDIBTODEV => {
            play_dib(env, uc, h, r)?;
        }
        META_SELECTOBJECT => {
            let slot = usize::from(r.params.first().copied().unwrap_or(u16::MAX));
            if let Some(&o) = table.get(slot).filter(|&&o| o != 0) {
                super::objects::select_object(env, uc, &[h, u32::from(o)])?;
            }
        }
        META_DELETEOBJECT => {
            let slot = usize::from(r.params.first().copied().unwrap_or(u16::MAX));
            if let Some(o) = table.get_mut(slot).filter(|o| **o != 0) {
                let obj = std::mem::take(o);
                super::objects::delete_object(env, uc, &[u32::from(obj)])?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Play one of the DIB records (module notes): a blit without a DIB is a
/// PatBlt; with one, StretchDIBits (SetDIBitsToDevice for SETDIBTODEV)
/// from the record's packed DIB.
fn play_dib(env: &mut Env, uc: &mut Uc<'_>, h: u32, r: &MetaRecord) -> Result<(), Stop> {
    let p = &r.params;
    let v = |k: usize| u32::from(p.get(k).copied().unwrap_or(0));
    let rop = r.dword(0);
    // (destination x, y, w, h; source x, y, w, h; usage; the DIB's start)
    let (dst, src, usage, dib_at) = match r.function {
        META_DIBBITBLT if p.len() == 9 => {
            super::blit::pat_blt(env, uc, &[h, v(8), v(7), v(6), v(5), rop])?;
            return Ok(());
        }
        META_DIBSTRETCHBLT if p.len() == 11 => {
            super::blit::pat_blt(env, uc, &[h, v(10), v(9), v(8), v(7), rop])?;
            return Ok(());
        }
        META_DIBBITBLT => ([v(7), v(6), v(5), v(4)], [v(3), v(2), v(5), v(4)], 0, 8),
        META_DIBSTRETCHBLT => ([v(9), v(8), v(7), v(6)], [v(5), v(4), v(3), v(2)], 0, 10),
        META_STRETCHDIB => (
            [v(10), v(9), v(8), v(7)],
            [v(6), v(5), v(4), v(3)],
            v(2),
            11,
        ),
        _ => {
            // META_SETDIBTODEV: usage, scan count, start scan, yDib, xDib,
            // height, width, yDest, xDest.
            let dib = r.bytes_from(9);
            let Some((table, _)) = dib_parts(&dib, p.first().copied().unwrap_or(0), Some(v(1)))
            else {
                return Ok(());
            };
            let Some((ptr, blk)) = scratch(env, uc, &dib) else {
                return Ok(());
            };
            let args = [
                h,
                v(8),
                v(7),
                v(6),
                v(5),
                v(4),
                v(3),
                v(2),
                v(1),
                farptr::add(ptr, table),
                ptr,
                v(0),
            ];
            let _ = super::blit::set_dibits_to_device(env, uc, &args);
            global::free_block(env, uc, blk);
            return Ok(());
        }
    };
    let dib = r.bytes_from(dib_at);
    let Some((table, _)) = dib_parts(&dib, usage as u16, None) else {
        return Ok(());
    };
    let Some((ptr, blk)) = scratch(env, uc, &dib) else {
        return Ok(());
    };
    let args = [
        h,
        dst[0],
        dst[1],
        dst[2],
        dst[3],
        src[0],
        src[1],
        src[2],
        src[3],
        farptr::add(ptr, table),
        ptr,
        usage,
        rop,
    ];
    let res = super::blit::stretch_dibits(env, uc, &args);
    global::free_block(env, uc, blk);
    res.map(|_| ())
}

/// The handle table of `n` slots at `p` in emulated memory.
fn read_table(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<u16>> {
    let b = farptr::read_bytes(uc, p, n * 2)?;
    Some(
        b.chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
    )
}

fn write_table(uc: &mut Uc<'_>, p: u32, t: &[u16]) {
    let b: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
    farptr::write_bytes(uc, p, &b);
}

/// The record at `p` in emulated memory (bounded by 64 KiB).
fn read_record(uc: &Uc<'_>, p: u32) -> Option<MetaRecord> {
    let head = farptr::read_bytes(uc, p, 6)?;
    let words = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    if !(3..0x8000).contains(&words) {
        return None;
    }
    let body = farptr::read_bytes(uc, farptr::add(p, 6), (words as usize - 3) * 2)?;
    Some(MetaRecord::new(
        u16::from_le_bytes([head[4], head[5]]),
        words_of(&body),
    ))
}

/// GDI.176 PlayMetaFileRecord(hDC, lpHandletable, lpMetaRecord,
/// nHandles).
fn play_meta_file_record(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = usize::from(a[3] as u16).min(0x4000);
    let Some(rec) = read_record(uc, a[2]) else {
        return Ok(0);
    };
    let mut table = read_table(uc, a[1], n).unwrap_or_default();
    play_record(env, uc, a[0] as u16, &mut table, &rec)?;
    if !table.is_empty() {
        write_table(uc, a[1], &table);
    }
    Ok(1)
}

/// The DC's selected pen, brush and font, to put back after playing.
fn selected(env: &mut Env, hdc: u16) -> Vec<u16> {
    env.win16
        .gdi
        .dc_mut(hdc)
        .map(|d| vec![d.state.pen, d.state.brush, d.state.font])
        .unwrap_or_default()
}

/// After playing: the DC's own objects selected again, and the objects the
/// metafile created and left deleted.
fn tidy(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    saved: &[u16],
    table: &[u16],
) -> Result<(), Stop> {
    for &o in saved {
        super::objects::select_object(env, uc, &[u32::from(hdc), u32::from(o)])?;
    }
    for &o in table.iter().filter(|&&o| o != 0) {
        super::objects::delete_object(env, uc, &[u32::from(o)])?;
    }
    Ok(())
}

/// GDI.123 PlayMetaFile(hDC, hMF) -> BOOL: every record in order, with a
/// handle table of mtNoObjects slots; afterwards the DC's pen, brush and
/// font are selected again and the objects the metafile left are deleted.
fn play_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    let Some((_, m)) = read_handle(env, uc, a[1] as u16) else {
        return Ok(0);
    };
    let saved = selected(env, hdc);
    let mut table = vec![0u16; usize::from(m.header.objects)];
    for r in &m.records {
        play_record(env, uc, hdc, &mut table, r)?;
    }
    tidy(env, uc, hdc, &saved, &table)?;
    Ok(1)
}

/// GDI.175 EnumMetaFile(hDC, hMF, lpCallbackFunc, lpClientData) -> BOOL:
/// `EnumMetaFileProc(hDC, lpHTable, lpMFR, nObj, lpClientData)` for every
/// record but META_EOF, the record in the metafile's own memory and the
/// handle table in a block of its own, until the callback returns 0
/// (then FALSE).
fn enum_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::callback::{CallArg, call_far};
    let (hdc, hmf) = (a[0] as u16, a[1] as u16);
    let Some((_, m)) = read_handle(env, uc, hmf) else {
        return Ok(0);
    };
    let Some(sel) = env.win16.global.find(hmf).map(|b| b.selector) else {
        return Ok(0);
    };
    let cs = env
        .win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI is not loaded".into()))?;
    let n = usize::from(m.header.objects);
    let Some((tp, tblk)) = scratch(env, uc, &vec![0u8; n * 2]) else {
        return Ok(0);
    };
    let ds = uc.reg(crate::machine::R::DS);
    let saved = selected(env, hdc);
    let mut ok = 1;
    let mut off = HEADER_SIZE as u32;
    for r in &m.records {
        let args = [
            CallArg::W(hdc),
            CallArg::L(tp),
            CallArg::L(farptr::make(sel, off as u16)),
            CallArg::W(n as u16),
            CallArg::L(a[3]),
        ];
        let res = call_far(env, uc, cs, farptr::split(a[2]), ds, &[], &args)?;
        off += r.size_words() * 2;
        if res.value & 0xFFFF == 0 {
            ok = 0;
            break;
        }
    }
    let table = read_table(uc, tp, n).unwrap_or_default();
    tidy(env, uc, hdc, &saved, &table)?;
    global::free_block(env, uc, tblk);
    Ok(ok)
}

/// The metafile functions.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        123,
        "PLAYMETAFILE",
        &[Arg::W, Arg::W],
        play_meta_file,
    ),
    Api::new("GDI", 125, "CREATEMETAFILE", &[Arg::L], create_meta_file),
    Api::new("GDI", 126, "CLOSEMETAFILE", &[Arg::W], close_meta_file),
    Api::new(
        "GDI",
        175,
        "ENUMMETAFILE",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        enum_meta_file,
    ),
    Api::new(
        "GDI",
        176,
        "PLAYMETAFILERECORD",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        play_meta_file_record,
    ),
    Api::new("GDI", 124, "GETMETAFILE", &[Arg::L], get_meta_file),
    Api::new("GDI", 127, "DELETEMETAFILE", &[Arg::W], delete_meta_file),
    Api::new(
        "GDI",
        151,
        "COPYMETAFILE",
        &[Arg::W, Arg::L],
        copy_meta_file,
    ),
    Api::new("GDI", 159, "GETMETAFILEBITS", &[Arg::W], get_meta_file_bits),
    Api::new("GDI", 160, "SETMETAFILEBITS", &[Arg::W], set_meta_file_bits),
    Api::new(
        "GDI",
        196,
        "SETMETAFILEBITSBETTER",
        &[Arg::W],
        set_meta_file_bits_better,
    ),
    Api::new("GDI", 410, "ISVALIDMETAFILE", &[Arg::W], is_valid_meta_file),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_records_round_trip() {
        let recs = vec![
            MetaRecord::new(META_SETBKMODE, vec![1]),
            MetaRecord::new(
                META_RECTANGLE,
                stack_params(&[(false, 10), (false, 20), (false, 110), (false, 70)]),
            ),
            text_out(5, 6, b"Hello"),
            MetaRecord::new(META_SETTEXTCOLOR, stack_params(&[(true, 0x0012_3456)])),
        ];
        let m = Metafile::new(MEMORY_METAFILE, 2, recs.clone());
        let b = m.to_bytes();
        // 9 header words + 4 + 7 + 9 + 5 + EOF 3.
        assert_eq!(m.header.size, 9 + 4 + 7 + 9 + 5 + 3);
        assert_eq!(b.len() as u32, m.header.size * 2);
        assert_eq!(m.header.max_record, 9);
        assert_eq!(&b[0..6], &[1, 0, 9, 0, 0, 3]);
        // The rectangle's parameters are bottom, right, top, left.
        assert_eq!(recs[1].params, vec![70, 110, 20, 10]);
        // SetTextColor: low word first.
        assert_eq!(recs[3].params, vec![0x3456, 0x0012]);
        // The text record: count, "He" "ll" "o\0", y, x.
        assert_eq!(
            recs[2].params,
            vec![
                5,
                u16::from_le_bytes(*b"He"),
                u16::from_le_bytes(*b"ll"),
                u16::from(b'o'),
                6,
                5
            ]
        );
        assert_eq!(parse_text_out(&recs[2]), Some((5, 6, b"Hello".to_vec())));
        let back = Metafile::parse(&b).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.to_bytes(), b);
    }

    #[test]
    fn ext_text_out_and_polygons() {
        let r = ext_text_out(
            3,
            4,
            ETO_OPAQUE,
            Some([0, 0, 50, 20]),
            b"abc",
            Some(&[7, 8, 9]),
        );
        assert_eq!(r.params[..4], [4, 3, 3, ETO_OPAQUE]);
        let e = parse_ext_text_out(&r).unwrap();
        assert_eq!(e.rect, Some([0, 0, 50, 20]));
        assert_eq!(e.text, b"abc");
        assert_eq!(e.dx, Some(vec![7, 8, 9]));
        let r = ext_text_out(3, 4, 0, None, b"ab", None);
        let e = parse_ext_text_out(&r).unwrap();
        assert_eq!((e.rect, e.dx, e.text), (None, None, b"ab".to_vec()));
        let pts = vec![(1, 2), (3, -4), (5, 6)];
        assert_eq!(parse_poly(&poly(META_POLYGON, &pts)), Some(pts.clone()));
        let pp = vec![pts.clone(), vec![(0, 0), (9, 9)]];
        assert_eq!(parse_poly_polygon(&poly_polygon(&pp)), Some(pp));
    }

    #[test]
    fn object_slots_reuse_the_lowest_free() {
        let mut r = Recorder::new(None);
        assert_eq!(r.add_object(0x100), 0);
        assert_eq!(r.add_object(0x200), 1);
        assert_eq!(r.remove_object(0x100), Some(0));
        assert_eq!(r.add_object(0x300), 0);
        assert_eq!(r.slot_of(0x200), Some(1));
        assert_eq!(r.max_objects, 2);
        assert_eq!(r.finish().header.objects, 2);
    }

    #[test]
    fn bad_metafiles_are_errors_naming_the_offset() {
        let m = Metafile::new(
            DISK_METAFILE,
            0,
            vec![MetaRecord::new(META_LINETO, vec![1, 2])],
        );
        let good = m.to_bytes();
        let mut b = good.clone();
        b[0] = 7;
        assert_eq!(Metafile::parse(&b).unwrap_err().field, "mtType");
        // Without META_EOF.
        let e = Metafile::parse(&good[..good.len() - 6]).unwrap_err();
        assert_eq!((e.offset, e.field.as_str()), (Some(28), "rdSize"));
        // A record longer than the file.
        let mut b = good.clone();
        b[18] = 200;
        let e = Metafile::parse(&b).unwrap_err();
        assert_eq!(e.offset, Some(18));
        assert!(e.message.contains("LINETO"), "{e}");
        // A record shorter than its head.
        let mut b = good.clone();
        b[18] = 2;
        assert!(Metafile::parse(&b).unwrap_err().message.contains("shorter"));
        // Placeable.
        let mut b = vec![0xD7, 0xCD, 0xC6, 0x9A];
        b.extend_from_slice(&good);
        assert!(
            Metafile::parse(&b)
                .unwrap_err()
                .message
                .contains("placeable")
        );
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
            if let Ok(m) = Metafile::parse(&bytes) {
                for r in &m.records {
                    let _ = (parse_text_out(r), parse_ext_text_out(r), parse_poly(r), parse_poly_polygon(r));
                    let _ = (r.int(3), r.dword(5), r.bytes_from(2), function_name(r.function));
                }
                let _ = m.to_bytes();
            }
        }

        #[test]
        fn any_records_round_trip(recs in proptest::collection::vec(
            (1u16..=0xFFFF, proptest::collection::vec(any::<u16>(), 0..20)), 0..20)) {
            let recs: Vec<MetaRecord> = recs.into_iter().map(|(f, p)| MetaRecord::new(f, p)).collect();
            let m = Metafile::new(MEMORY_METAFILE, 3, recs);
            let b = m.to_bytes();
            prop_assert_eq!(Metafile::parse(&b).unwrap(), m);
        }
    }
}
