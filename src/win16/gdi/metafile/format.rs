//! The metafile format in bytes: METAHEADER and METARECORDs as Windows
//! 3.1 wrote them (see the parent module's documentation), the object-slot
//! recorder, and the parameters of each record encoded and decoded.

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
