//! MAPSYM `.SYM` files, the symbol files the Windows 3.x debuggers (and
//! SYMDEB, CodeView, WDEB386) loaded.
//!
//! The layout, as the Windows 3.1 SDK's "Symbol files" chapter, Open
//! Watcom's `mapsym.h` and VirtualBox's MAPSYM reader describe it (all
//! little-endian; "paragraph pointers" are file offsets / 16):
//!
//! ```text
//! MAPDEF   +00 ppNextMap   next MAPDEF (paragraphs); the last is LAST_MAPDEF
//!          +02 bFlags, +03 reserved, +04 pSegEntry
//!          +06 cConsts, +08 pConstDef (absolute symbols: not read)
//!          +0A cSegs       +0C ppSegDef (paragraphs)
//!          +0E cbMaxSym    +0F cbModName, +10 the module name
//! LAST_MAPDEF +00 0, +02 release (minor), +03 version (major)
//! SEGDEF   +00 ppNextSeg (paragraphs; the list is circular: count cSegs)
//!          +02 cSymbols    +04 pSymDef: the table of symbol pointers,
//!              bytes from this SEGDEF, one word each (three bytes when
//!              bFlags has 0x04, MAPSYM 6's big segments)
//!          +06 load address (the map's frame), +08..+0D reserved
//!          +0E bFlags: 0x01 32-bit symbol values, 0x02 an alphabetic
//!              table follows, 0x04 three-byte symbol pointers
//!          +0F reserved, +10 ppLineDef, +12 reserved
//!          +14 cbSegName, +15 the segment name
//! SYMDEF   +00 value (word, or dword with 0x01), then cbSymName, name
//! ```
//!
//! Versions 3.x to 6.x share this layout; others are refused. Every pointer
//! is checked against the file; a malformed file is an error naming the
//! offset.

use super::{At, FrameOff, Layout, MapPublic, MapSegment, SegAddr, SymError};

/// The most maps (modules) read from one file (SYMLIB libraries).
const MAX_MAPS: usize = 256;
/// The most segments in one map (MAPSYM's own limit is 1024).
const MAX_SEGS: u16 = 4096;

struct R<'a>(&'a [u8]);

impl R<'_> {
    fn bytes(&self, at: u64, n: u64, what: &str) -> Result<&[u8], SymError> {
        let end = at.checked_add(n).filter(|&e| e <= self.0.len() as u64);
        match end {
            Some(end) => Ok(&self.0[at as usize..end as usize]),
            None => Err(SymError::offset(
                at,
                format!(
                    "{what} ({n} bytes) runs past the end of the file ({:#X} bytes)",
                    self.0.len()
                ),
            )),
        }
    }
    fn u8(&self, at: u64, what: &str) -> Result<u8, SymError> {
        Ok(self.bytes(at, 1, what)?[0])
    }
    fn u16(&self, at: u64, what: &str) -> Result<u16, SymError> {
        let b = self.bytes(at, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u24(&self, at: u64, what: &str) -> Result<u32, SymError> {
        let b = self.bytes(at, 3, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], 0]))
    }
    fn u32(&self, at: u64, what: &str) -> Result<u32, SymError> {
        let b = self.bytes(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// A length-prefixed name.
    fn pname(&self, at: u64, what: &str) -> Result<String, SymError> {
        let n = self.u8(at, what)?;
        let b = self.bytes(at + 1, u64::from(n), what)?;
        Ok(b.iter().map(|&c| char::from(c)).collect())
    }
}

/// What the names copied from one file may still take, in bytes. In a
/// real file each name lies once (a Latin-1 byte is at most 2 bytes of
/// UTF-8), so the names take at most twice the file; a corrupt one can
/// point every symbol (and, by a cycle in the segment chain, every
/// segment) at the same 255-byte name, which this bounds.
struct NameBudget {
    left: u64,
}

impl NameBudget {
    fn take(&mut self, name: &str, at: u64) -> Result<(), SymError> {
        self.left = self.left.checked_sub(name.len() as u64).ok_or_else(|| {
            SymError::offset(
                at,
                "the names come to more than twice the file's size: pointers name the same \
                 bytes over and over; the file is corrupt",
            )
        })?;
        Ok(())
    }
}

/// The version a file's LAST_MAPDEF gives: (major, minor).
pub fn version(bytes: &[u8]) -> Result<(u8, u8), SymError> {
    let r = R(bytes);
    let mut at = 0u64;
    let mut seen = std::collections::HashSet::new();
    loop {
        if !seen.insert(at) || seen.len() > MAX_MAPS + 1 {
            return Err(SymError::offset(at, "the chain of maps loops"));
        }
        let next = u64::from(r.u16(at, "ppNextMap")?) * 16;
        if next == 0 {
            if at == 0 {
                return Err(SymError::offset(
                    0,
                    "ppNextMap is 0: the file has no map before its end record",
                ));
            }
            let minor = r.u8(at + 2, "the end record's release")?;
            let major = r.u8(at + 3, "the end record's version")?;
            return Ok((major, minor));
        }
        at = next;
    }
}

/// Read every map of a `.SYM` file (one per module).
pub fn parse(bytes: &[u8]) -> Result<Vec<Layout>, SymError> {
    let r = R(bytes);
    let (major, minor) = version(bytes)?;
    if !(3..=6).contains(&major) {
        return Err(SymError::file(format!(
            "MAPSYM version {major}.{minor} (from the end record) is not one this reader knows (3.x to 6.x)"
        )));
    }
    let mut out = Vec::new();
    let mut at = 0u64;
    let mut total = 0usize;
    let mut names = NameBudget {
        left: 2 * bytes.len() as u64 + 0x10000,
    };
    loop {
        let next = u64::from(r.u16(at, "ppNextMap")?) * 16;
        if next == 0 {
            break;
        }
        out.push(parse_map(&r, at, major, minor, &mut total, &mut names)?);
        if out.len() >= MAX_MAPS {
            break;
        }
        at = next;
    }
    Ok(out)
}

fn parse_map(
    r: &R<'_>,
    at: u64,
    major: u8,
    minor: u8,
    total: &mut usize,
    names: &mut NameBudget,
) -> Result<Layout, SymError> {
    let c_segs = r.u16(at + 0x0A, "cSegs")?;
    if c_segs > MAX_SEGS {
        return Err(SymError::offset(
            at + 0x0A,
            format!("cSegs {c_segs} is more segments than a map can have ({MAX_SEGS})"),
        ));
    }
    let first = u64::from(r.u16(at + 0x0C, "ppSegDef")?) * 16;
    let module = r.pname(at + 0x0F, "the module name")?;
    let mut layout = Layout {
        format: format!("MAPSYM {major}.{minor}"),
        module: Some(super::clip_name(&module)),
        ..Layout::default()
    };
    let mut seg_at = first;
    let mut segs = Vec::new();
    for _ in 0..c_segs {
        if seg_at == 0 {
            return Err(SymError::offset(
                at + 0x0C,
                "the segment chain ends before cSegs segments",
            ));
        }
        let csym = r.u16(seg_at + 2, "cSymbols")?;
        let table = seg_at + u64::from(r.u16(seg_at + 4, "pSymDef")?);
        let load = r.u16(seg_at + 6, "the segment's load address")?;
        let flags = r.u8(seg_at + 0x0E, "the segment's bFlags")?;
        let name = r.pname(seg_at + 0x14, "the segment name")?;
        names.take(&name, seg_at + 0x14)?;
        let ptr_size = if flags & 0x04 != 0 { 3 } else { 2 };
        let mut syms = Vec::with_capacity(usize::from(csym));
        for k in 0..u64::from(csym) {
            let p = table + k * ptr_size;
            let rel = if ptr_size == 3 {
                r.u24(p, "a symbol pointer")?
            } else {
                u32::from(r.u16(p, "a symbol pointer")?)
            };
            let s = seg_at + u64::from(rel);
            let (value, name_at) = if flags & 0x01 != 0 {
                (r.u32(s, "a 32-bit symbol's value")?, s + 4)
            } else {
                (u32::from(r.u16(s, "a symbol's value")?), s + 2)
            };
            let sname = r.pname(name_at, "a symbol's name")?;
            names.take(&sname, s)?;
            *total += 1;
            if *total > super::MAX_SYMBOLS {
                return Err(SymError::offset(
                    s,
                    format!("more than {} symbols", super::MAX_SYMBOLS),
                ));
            }
            syms.push((value, sname, s));
        }
        segs.push((load, name, syms, seg_at));
        seg_at = u64::from(r.u16(seg_at, "ppNextSeg")?) * 16;
    }
    // The load addresses are the map's frames when they climb (segment
    // numbers for a Windows module, paragraphs for a DOS program, whose
    // first is paragraph 0: the load image's start); else (all 0, as some
    // writers leave them) the segments' order numbers them.
    let climbing = segs.windows(2).all(|w| w[0].0 < w[1].0);
    for (k, (load, name, syms, seg_at)) in segs.into_iter().enumerate() {
        let frame = if climbing { load } else { (k + 1) as u16 };
        layout.segments.push(MapSegment {
            name: super::clip_name(&name),
            class: None,
            addr: SegAddr::Frame(FrameOff { frame, offset: 0 }),
            len: None,
            at: At::Offset(seg_at),
        });
        for (value, sname, s) in syms {
            layout.publics.push(MapPublic {
                name: super::clip_name(&sname),
                addr: FrameOff {
                    frame,
                    offset: value,
                },
                at: At::Offset(s),
            });
        }
    }
    Ok(layout)
}

/// A segment to write: its name, its frame (load address), its symbols.
pub struct WriteSeg<'a> {
    /// The segment's name.
    pub name: &'a str,
    /// Its frame (paragraph) in the map.
    pub frame: u16,
    /// Its symbols: offset and name, sorted by offset.
    pub symbols: Vec<(u32, &'a str)>,
}

fn pad16(v: &mut Vec<u8>) {
    while v.len() % 16 != 0 {
        v.push(0);
    }
}

fn pstr(v: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = b.len().min(255);
    v.push(n as u8);
    v.extend_from_slice(&b[..n]);
}

/// Write a MAPSYM 5.1 file (what `toolhelp16 mapsym` makes of a map):
/// one map, its segments in order, each segment's symbols sorted by value.
/// Fails when the file would pass MAPSYM's 1 MiB of paragraph pointers.
pub fn write(module: &str, segments: &[WriteSeg<'_>]) -> Result<Vec<u8>, String> {
    if segments.len() > usize::from(MAX_SEGS) {
        return Err(format!(
            "{} segments: more than a .SYM map holds",
            segments.len()
        ));
    }
    let mut v = Vec::new();
    let max_sym = segments
        .iter()
        .flat_map(|s| s.symbols.iter().map(|(_, n)| n.len().min(255)))
        .max()
        .unwrap_or(0);
    v.extend_from_slice(&[0; 0x0F]);
    pstr(&mut v, module);
    v[0x0A..0x0C].copy_from_slice(&(segments.len() as u16).to_le_bytes());
    v[0x0E] = max_sym as u8;
    pad16(&mut v);
    let mut seg_offs = Vec::new();
    for s in segments {
        pad16(&mut v);
        let base = v.len();
        seg_offs.push(base);
        let mut syms = s.symbols.clone();
        syms.sort();
        let wide = syms.iter().any(|&(o, _)| o > 0xFFFF);
        let head = 0x15 + s.name.len().min(255);
        let data: usize = syms
            .iter()
            .map(|(_, n)| if wide { 4 } else { 2 } + 1 + n.len().min(255))
            .sum();
        // The pointer table follows the header; the symbols follow it.
        // Pointers are words unless the last symbol lies past 64 KiB from
        // the SEGDEF (MAPSYM 6's three-byte pointers).
        if syms.len() > 0xFFFF {
            return Err(format!(
                "segment {} has {} symbols; a .SYM segment holds at most 65535",
                s.name,
                syms.len()
            ));
        }
        let big = head + syms.len() * 2 + data > 0xFFFF;
        let ptr = if big { 3 } else { 2 };
        if head + syms.len() * ptr + data > 0xFF_FFFF {
            return Err(format!(
                "segment {} has too many symbols for a .SYM file",
                s.name
            ));
        }
        let mut h = vec![0u8; 0x14];
        h[2..4].copy_from_slice(&(syms.len() as u16).to_le_bytes());
        h[4..6].copy_from_slice(&(head as u16).to_le_bytes());
        h[6..8].copy_from_slice(&s.frame.to_le_bytes());
        h[0x0E] = u8::from(wide) | if big { 0x04 } else { 0 };
        h[0x13] = 0xFF;
        v.extend_from_slice(&h);
        pstr(&mut v, s.name);
        let mut at = head + syms.len() * ptr;
        for (_, n) in &syms {
            v.extend_from_slice(&(at as u32).to_le_bytes()[..ptr]);
            at += if wide { 4 } else { 2 } + 1 + n.len().min(255);
        }
        for (o, n) in &syms {
            if wide {
                v.extend_from_slice(&o.to_le_bytes());
            } else {
                v.extend_from_slice(&(*o as u16).to_le_bytes());
            }
            pstr(&mut v, n);
        }
    }
    pad16(&mut v);
    let tail = v.len();
    v.extend_from_slice(&[0, 0, 1, 5]);
    pad16(&mut v);
    if v.len() > 0xFFFF * 16 {
        return Err("the symbols make a file larger than a .SYM file can address".into());
    }
    let para = |o: usize| ((o / 16) as u16).to_le_bytes();
    v[0..2].copy_from_slice(&para(tail));
    if let Some(&first) = seg_offs.first() {
        v[0x0C..0x0E].copy_from_slice(&para(first));
    }
    for (k, &o) in seg_offs.iter().enumerate() {
        let next = seg_offs[(k + 1) % seg_offs.len()];
        v[o..o + 2].copy_from_slice(&para(next));
    }
    Ok(v)
}

/// The physical segments of a map, in order: (frame, segment name).
/// Segments with linear addresses (a DOS LINK map) are grouped by the
/// frames of their publics.
pub fn frames_of(layout: &Layout) -> Vec<(u16, String)> {
    let mut v: Vec<(u16, String)> = Vec::new();
    for s in &layout.segments {
        if let SegAddr::Frame(fo) = s.addr {
            if !v.iter().any(|(f, _)| *f == fo.frame) {
                v.push((fo.frame, s.name.clone()));
            }
        }
    }
    // A segmented map (wlink's, LINK's for Windows) numbers its physical
    // segments; a public in none of them is an absolute value (wlink's
    // `0000:0006* pLocalHeap`), no segment of its own.
    let numbered = !v.is_empty();
    for p in &layout.publics {
        if !numbered && !v.iter().any(|(f, _)| *f == p.addr.frame) {
            let name = layout
                .segments
                .iter()
                .find(|s| match s.addr {
                    SegAddr::Linear(l) => {
                        let lin = (u32::from(p.addr.frame) << 4) + p.addr.offset;
                        lin >= l && s.len.is_none_or(|n| lin - l < n)
                    }
                    SegAddr::Frame(_) => false,
                })
                .map(|s| s.name.clone())
                .unwrap_or_else(|| format!("SEG{:04X}", p.addr.frame));
            v.push((p.addr.frame, name));
        }
    }
    v.sort_by_key(|(f, _)| *f);
    v
}

/// [`write`] a map's layout: one SEGDEF per physical segment (frame),
/// holding the publics of that frame.
pub fn write_layout(module: &str, layout: &Layout) -> Result<Vec<u8>, String> {
    let frames = frames_of(layout);
    let segs: Vec<WriteSeg<'_>> = frames
        .iter()
        .map(|(frame, name)| WriteSeg {
            name,
            frame: *frame,
            symbols: layout
                .publics
                .iter()
                .filter(|p| p.addr.frame == *frame)
                .map(|p| (p.addr.offset, p.name.as_str()))
                .collect(),
        })
        .collect();
    write(module, &segs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One map, one segment of `n` symbols whose pointers all lead to the
    /// same symbol, named with 255 letters.
    fn one_name_many_times(n: usize) -> Vec<u8> {
        let s = 0x20;
        let table = 0x120;
        let len = (s + table + 2 * n + 15) & !15;
        let mut f = vec![0u8; len + 0x10];
        let para = |o: usize| ((o / 16) as u16).to_le_bytes();
        f[0..2].copy_from_slice(&para(len)); // the end record
        f[0x0A] = 1; // cSegs
        f[0x0C..0x0E].copy_from_slice(&para(s));
        f[0x0F] = 1;
        f[0x10] = b'M';
        f[s + 2..s + 4].copy_from_slice(&(n as u16).to_le_bytes());
        f[s + 4..s + 6].copy_from_slice(&(table as u16).to_le_bytes());
        f[s + 6] = 1;
        f[s + 0x14] = 1;
        f[s + 0x15] = b'S';
        f[s + 0x1C] = 255;
        f[s + 0x1D..s + 0x1D + 255].fill(b'N');
        for k in 0..n {
            let p = s + table + 2 * k;
            f[p..p + 2].copy_from_slice(&0x1Au16.to_le_bytes());
        }
        f[len + 2] = 1;
        f[len + 3] = 5;
        f
    }

    /// Issue 30 item 2: symbol pointers that all name the same 255 bytes
    /// (5 MB of names from a 40 KB file) are an error naming the offset,
    /// not an allocation; a few are real symbols.
    #[test]
    fn names_are_bounded_by_the_file() {
        let few = parse(&one_name_many_times(3)).unwrap();
        assert_eq!(few[0].publics.len(), 3);
        assert_eq!(few[0].publics[0].name, "N".repeat(255));
        let e = parse(&one_name_many_times(20_000)).unwrap_err();
        assert!(e.to_string().contains("the file is corrupt"), "{e}");
        assert!(e.to_string().contains("0x3A"), "the symbol's offset: {e}");
    }

    /// A MAPSYM 5.1 file laid out by hand from the SDK's description: one
    /// map "HAND", two segments; segment 1 holds `Start` at 0 and `Paint`
    /// at 0x30, segment 2 holds nothing.
    fn hand_made() -> Vec<u8> {
        let mut f = vec![0u8; 0x80];
        // MAPDEF at 0: next map (the end record) at paragraph 7.
        f[0x00] = 0x07;
        f[0x0A] = 2; // cSegs
        f[0x0C] = 0x02; // ppSegDef: paragraph 2 = 0x20
        f[0x0E] = 5; // cbMaxSym
        f[0x0F] = 4;
        f[0x10..0x14].copy_from_slice(b"HAND");
        // SEGDEF 1 at 0x20: next at paragraph 5 (0x50), 2 symbols, table
        // at +0x2A, frame 1, name "_TEXT".
        let s = 0x20;
        f[s] = 0x05;
        f[s + 2] = 2;
        f[s + 4] = 0x2A;
        f[s + 6] = 1;
        f[s + 0x14] = 5;
        f[s + 0x15..s + 0x1A].copy_from_slice(b"_TEXT");
        // Symbols at +0x1A and +0x22 (value, length, name).
        f[s + 0x1A] = 0x00;
        f[s + 0x1C] = 5;
        f[s + 0x1D..s + 0x22].copy_from_slice(b"Start");
        f[s + 0x22] = 0x30;
        f[s + 0x24] = 5;
        f[s + 0x25..s + 0x2A].copy_from_slice(b"Paint");
        // The pointer table at +0x2A.
        f[s + 0x2A] = 0x1A;
        f[s + 0x2C] = 0x22;
        // SEGDEF 2 at 0x50: circular next = paragraph 2, no symbols, frame 2.
        let t = 0x50;
        f[t] = 0x02;
        f[t + 6] = 2;
        f[t + 0x14] = 4;
        f[t + 0x15..t + 0x19].copy_from_slice(b"SEG2");
        // LAST_MAPDEF at 0x70: version 5.1.
        f[0x72] = 1;
        f[0x73] = 5;
        f
    }

    #[test]
    fn reads_a_hand_made_file() {
        let maps = parse(&hand_made()).unwrap();
        assert_eq!(maps.len(), 1);
        let m = &maps[0];
        assert_eq!(m.module.as_deref(), Some("HAND"));
        assert_eq!(m.format, "MAPSYM 5.1");
        assert_eq!(m.segments.len(), 2);
        assert_eq!(m.segments[1].name, "SEG2");
        let p: Vec<_> = m
            .publics
            .iter()
            .map(|p| (p.name.as_str(), p.addr.frame, p.addr.offset))
            .collect();
        assert_eq!(p, [("Start", 1, 0), ("Paint", 1, 0x30)]);
    }

    #[test]
    fn versions_outside_3_to_6_are_refused() {
        for (v, ok) in [(2u8, false), (3, true), (4, true), (6, true), (7, false)] {
            let mut f = hand_made();
            f[0x73] = v;
            assert_eq!(parse(&f).is_ok(), ok, "version {v}");
        }
    }

    #[test]
    fn a_pointer_past_the_end_names_its_offset() {
        let mut f = hand_made();
        f[0x20 + 0x2C] = 0xF0; // second symbol pointer → past the end
        let e = parse(&f).unwrap_err();
        assert!(matches!(e.at, At::Offset(o) if o >= 0x80), "{e}");
    }

    #[test]
    fn writer_and_reader_agree() {
        let segs = [
            WriteSeg {
                name: "_TEXT",
                frame: 1,
                symbols: vec![(0x30, "Paint"), (0, "Start")],
            },
            WriteSeg {
                name: "SEG2",
                frame: 2,
                symbols: vec![],
            },
        ];
        let f = write("HAND", &segs).unwrap();
        assert_eq!(version(&f).unwrap(), (5, 1));
        let shape = |l: &Layout| {
            (
                l.module.clone(),
                l.segments
                    .iter()
                    .map(|s| (s.name.clone(), s.addr))
                    .collect::<Vec<_>>(),
                l.publics
                    .iter()
                    .map(|p| (p.name.clone(), p.addr))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            shape(&parse(&f).unwrap()[0]),
            shape(&parse(&hand_made()).unwrap()[0])
        );
    }
}
