//! Open Watcom's own debug information (the "WATCOM" format, version 3 of
//! its executable structures): what `wcc -d2 -hw` and `wlink debug
//! watcom` append to a 16-bit executable, and what Watcom C 10.x wrote.
//!
//! The layout read here ("WATCOM Debugging Information Format", version
//! 4.0, in Open Watcom's documentation):
//!
//! * the file ends with the 14-byte *master header*: signature 0x8386,
//!   executable-structure version (major 3), object-structure version
//!   (major 1), the sizes of the source-language and segment tables and
//!   the size of the whole debug information (header included), which
//!   starts that many bytes before the file's end. Other Watcom trailers
//!   (signatures 0x8300–0x8302, same size field) may follow it and are
//!   stepped over;
//! * after the two tables, one *section* per overlay (the root first):
//!   an 18-byte header whose offsets, from the header, give the module,
//!   global-symbol and address classes, and the section's size;
//! * the *module* class: per object file its language, three *demand*
//!   references (locals, types, lines: an offset from the section to
//!   entries of the demand link table, 32-bit offsets from the section of
//!   blocks, one more entry than blocks) and its source file's name;
//! * the *address* class: per linked segment its start (32-bit offset,
//!   16-bit segment as the linker placed it) and the pieces of it each
//!   module contributed, in order (32-bit size, 16-bit module);
//! * a module's *lines*: runs of a 32-bit offset into the address class
//!   (naming the piece the lines are in), a count, and (16-bit line,
//!   32-bit offset from the piece's start) pairs; a line up to the next
//!   pair's offset or the piece's end. A line with its top bit set is a
//!   *cue*, resolved through the table a `CUE_TABLE` record at the start
//!   of the module's types points at (file and line of code from another
//!   source file);
//! * a module's *locals*: records of a length byte (counting itself) and
//!   a kind byte: `SET_BASE` (0x31, a 16:16 address the following code
//!   records are relative to), `NEAR_RTN`/`FAR_RTN` (0x21/0x22: a
//!   routine's start and size, prologue and epilogue sizes, the return
//!   address's BP offset, its register parameters' count and locations,
//!   its name) and `LOCAL` (0x11: a variable of the routine before it,
//!   whose location expression is a BP offset when it lives on the
//!   stack); a `BLOCK` (0x20) opens an inner scope whose locals are not
//!   the routine's;
//! * the *global* class: public symbols (32-bit offset, segment, module,
//!   kind, name); those marked code name labels.
//!
//! Which locals are parameters: the format lists, per routine, the
//! locations of the parameters passed in registers, and the compiler
//! writes those parameters' `LOCAL` records first; parameters passed on
//! the stack lie above the return address (a BP offset past the return
//! address's offset plus its size: 2 bytes near, 4 far).

use super::SymError;
use super::lines::{DebugInfo, Param, RawFunction, RawRow};
use std::collections::HashMap;

/// The master header's signature.
pub const SIGNATURE: u16 = 0x8386;
/// Other Watcom trailers that may follow the debug information.
const OTHER_TRAILERS: [u16; 3] = [0x8300, 0x8301, 0x8302];
const MASTER_LEN: usize = 14;
const SECTION_LEN: usize = 18;
/// The most trailers stepped over, and sections, demand blocks read.
const MAX_TRAILERS: usize = 16;
const MAX_SECTIONS: usize = 4096;
const MAX_BLOCKS: usize = 65_536;

const LOCAL: u8 = 0x11;
const BLOCK: u8 = 0x20;
const NEAR_RTN: u8 = 0x21;
const FAR_RTN: u8 = 0x22;
const BLOCK_386: u8 = 0x23;
const ADD_PREV_SEG: u8 = 0x30;
const SET_BASE: u8 = 0x31;
const SET_BASE386: u8 = 0x32;
const CUE_TABLE: u8 = 0x13;
const GBL_KIND_CODE: u8 = 0x04;

/// Where the master header is, when the file ends in Watcom debug
/// information (past any other Watcom trailers).
pub fn find(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    for _ in 0..MAX_TRAILERS {
        let at = end.checked_sub(MASTER_LEN)?;
        let h = &bytes[at..end];
        let sig = u16::from_le_bytes([h[0], h[1]]);
        if sig == SIGNATURE {
            return Some(at);
        }
        if !OTHER_TRAILERS.contains(&sig) {
            return None;
        }
        let size = u32::from_le_bytes([h[10], h[11], h[12], h[13]]) as usize;
        end = end.checked_sub(size.max(MASTER_LEN))?;
    }
    None
}

/// Whether the file ends in Watcom debug information.
pub fn present(bytes: &[u8]) -> bool {
    find(bytes).is_some()
}

/// Bounded little-endian reads of the file, inside `lo..hi`; errors name
/// the file offset and the field.
#[derive(Clone, Copy)]
struct Rd<'a> {
    b: &'a [u8],
    lo: usize,
    hi: usize,
    what: &'static str,
}

impl<'a> Rd<'a> {
    /// `field` at `at` lies outside this reader's range: named at `at`
    /// when that is in the file, else (an offset from damaged data) at
    /// the range's start.
    fn err(&self, at: usize, field: &str) -> SymError {
        SymError::offset(
            if at < self.b.len() { at } else { self.lo } as u64,
            format!(
                "Watcom debug information: {field} at {at:#X} lies outside the {} ({:#X}..{:#X})",
                self.what, self.lo, self.hi
            ),
        )
    }
    fn slice(&self, at: usize, n: usize, field: &str) -> Result<&'a [u8], SymError> {
        if at < self.lo || at.checked_add(n).is_none_or(|e| e > self.hi) {
            return Err(self.err(at, field));
        }
        Ok(&self.b[at..at + n])
    }
    fn u8(&self, at: usize, field: &str) -> Result<u8, SymError> {
        Ok(self.slice(at, 1, field)?[0])
    }
    fn u16(&self, at: usize, field: &str) -> Result<u16, SymError> {
        let s = self.slice(at, 2, field)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&self, at: usize, field: &str) -> Result<u32, SymError> {
        let s = self.slice(at, 4, field)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    /// A narrower reader over `lo..hi` (which must lie inside this one).
    fn sub(
        &self,
        lo: usize,
        hi: usize,
        what: &'static str,
        field: &str,
    ) -> Result<Rd<'a>, SymError> {
        if lo > hi {
            return Err(SymError::offset(
                if lo < self.b.len() { lo } else { self.lo } as u64,
                format!(
                    "Watcom debug information: {field} ends ({hi:#X}) before it starts ({lo:#X})"
                ),
            ));
        }
        self.slice(lo, hi - lo, field)?;
        Ok(Rd {
            b: self.b,
            lo,
            hi,
            what,
        })
    }
}

/// One module's contribution to a linked segment.
#[derive(Clone, Copy)]
struct Piece {
    segment: u16,
    start: u32,
    size: u32,
}

/// Read the Watcom debug information at the end of executable `bytes`.
pub fn parse(bytes: &[u8]) -> Result<DebugInfo, SymError> {
    let hdr = find(bytes).ok_or_else(|| {
        SymError::file(
            "no Watcom debug information (no master header with signature 0x8386 at the end)",
        )
    })?;
    let file = Rd {
        b: bytes,
        lo: 0,
        hi: bytes.len(),
        what: "file",
    };
    let exe_major = file.u8(hdr + 2, "exe_major_ver")?;
    let obj_major = file.u8(hdr + 4, "obj_major_ver")?;
    if exe_major != 3 {
        return Err(SymError::offset(
            hdr as u64 + 2,
            format!(
                "Watcom debug information of executable version {exe_major} (read here: version 3, what Watcom C 10 and Open Watcom write)"
            ),
        ));
    }
    let lang_size = usize::from(file.u16(hdr + 6, "lang_size")?);
    let seg_size = usize::from(file.u16(hdr + 8, "segment_size")?);
    let debug_size = file.u32(hdr + 10, "debug_size")? as usize;
    let start = (hdr + MASTER_LEN)
        .checked_sub(debug_size)
        .filter(|_| debug_size >= MASTER_LEN + lang_size + seg_size)
        .ok_or_else(|| {
            SymError::offset(
                hdr as u64 + 10,
                format!(
                    "debug_size {debug_size:#X} does not hold the header and its tables ({lang_size:#X} + {seg_size:#X} bytes) inside the file's {hdr:#X} bytes before the header"
                ),
            )
        })?;
    let all = file.sub(start, hdr, "debug information", "the debug information")?;
    let mut out = DebugInfo {
        format: "Watcom".into(),
        ..DebugInfo::default()
    };
    let mut sec = start + lang_size + seg_size;
    let mut n = 0usize;
    while sec < hdr {
        n += 1;
        if n > MAX_SECTIONS {
            return Err(SymError::offset(
                sec as u64,
                format!("more than {MAX_SECTIONS} sections"),
            ));
        }
        let size = all.u32(sec + 12, "a section's section_size")? as usize;
        if size < SECTION_LEN || sec.checked_add(size).is_none_or(|e| e > hdr) {
            return Err(SymError::offset(
                sec as u64 + 12,
                format!(
                    "a section's size {size:#X} is below its header's {SECTION_LEN} bytes or runs past the master header at {hdr:#X}"
                ),
            ));
        }
        let s = all.sub(sec, sec + size, "section", "a section")?;
        section(&s, sec, obj_major, &mut out)?;
        sec += size;
    }
    Ok(out)
}

/// One section (the root or an overlay) at `sec`.
fn section(s: &Rd<'_>, sec: usize, obj_major: u8, out: &mut DebugInfo) -> Result<(), SymError> {
    let mod_off = s.u32(sec, "mod_offset")? as usize;
    let gbl_off = s.u32(sec + 4, "gbl_offset")? as usize;
    let addr_off = s.u32(sec + 8, "addr_offset")? as usize;
    let size = s.hi - sec;
    if mod_off == gbl_off {
        // An empty overlay's placeholder.
        return Ok(());
    }
    if !(SECTION_LEN <= mod_off && mod_off < gbl_off && gbl_off <= addr_off && addr_off <= size) {
        return Err(SymError::offset(
            sec as u64,
            format!(
                "a section's classes are out of order: modules at {mod_off:#X}, globals at {gbl_off:#X}, addresses at {addr_off:#X}, size {size:#X}"
            ),
        ));
    }
    // The address class: pieces by their offset in it.
    let a = s.sub(
        sec + addr_off,
        sec + size,
        "address class",
        "the address class",
    )?;
    let mut pieces: HashMap<u32, Piece> = HashMap::new();
    let mut p = a.lo;
    while p < a.hi {
        let base = a.u32(p, "a segment's start offset")?;
        let segment = a.u16(p + 4, "a segment's segment")?;
        let count = usize::from(a.u16(p + 6, "a segment's piece count")? & 0x7FFF);
        a.slice(p + 8, count * 6, "a segment's pieces")?;
        let mut at = base;
        for i in 0..count {
            let e = p + 8 + 6 * i;
            let size = a.u32(e, "a piece's size")?;
            pieces.insert(
                (e - a.lo) as u32,
                Piece {
                    segment,
                    start: at,
                    size,
                },
            );
            at = at.saturating_add(size);
        }
        p += 8 + 6 * count;
    }
    // The module class.
    let m = s.sub(
        sec + mod_off,
        sec + gbl_off,
        "module class",
        "the module class",
    )?;
    let mut p = m.lo;
    while p < m.hi {
        let demand = |k: usize| -> Result<(usize, usize), SymError> {
            Ok((
                m.u32(p + 2 + 6 * k, "a module's demand offset")? as usize,
                usize::from(m.u16(p + 6 + 6 * k, "a module's demand entries")?),
            ))
        };
        let (locals, types, lines) = (demand(0)?, demand(1)?, demand(2)?);
        let name_len = usize::from(m.u8(p + 20, "a module's name length")?);
        let name = String::from_utf8_lossy(m.slice(p + 21, name_len, "a module's name")?);
        let name = super::clip_name(&name);
        let file = out.file_index(&name);
        if obj_major == 1 {
            for blk in blocks(s, sec, locals, "a module's locals")? {
                local_symbols(&blk, out)?;
            }
        }
        let cues = match blocks(s, sec, types, "a module's types")?.first() {
            Some(t) if obj_major == 1 => cue_table(t, out)?,
            _ => None,
        };
        for blk in blocks(s, sec, lines, "a module's lines")? {
            line_numbers(&blk, &pieces, file, cues.as_ref(), out)?;
        }
        p += 21 + name_len;
    }
    // The global class: code symbols as labels.
    let g = s.sub(
        sec + gbl_off,
        sec + addr_off,
        "global class",
        "the global class",
    )?;
    let mut p = g.lo;
    while p < g.hi {
        let off = g.u32(p, "a global's offset")?;
        let segment = g.u16(p + 4, "a global's segment")?;
        let kind = g.u8(p + 8, "a global's kind")?;
        let len = usize::from(g.u8(p + 9, "a global's name length")?);
        let name = g.slice(p + 10, len, "a global's name")?;
        if kind & GBL_KIND_CODE != 0 {
            out.push_function(RawFunction {
                name: super::clip_name(&String::from_utf8_lossy(name)),
                segment,
                start: off,
                end: None,
                params: Vec::new(),
            });
        }
        p += 10 + len;
    }
    Ok(())
}

/// The blocks of one demand class of a module: `(offset of its first
/// link-table entry from the section, entries)`.
fn blocks<'a>(
    s: &Rd<'a>,
    sec: usize,
    (link, entries): (usize, usize),
    what: &'static str,
) -> Result<Vec<Rd<'a>>, SymError> {
    let mut v = Vec::new();
    if entries == 0 {
        return Ok(v);
    }
    if entries > MAX_BLOCKS {
        return Err(s.err(sec + link, what));
    }
    let table = sec.checked_add(link).ok_or_else(|| s.err(sec, what))?;
    s.slice(table, 4 * (entries + 1), "a demand link table")?;
    for j in 0..entries {
        let lo = s.u32(table + 4 * j, "a demand link")? as usize;
        let hi = s.u32(table + 4 * j + 4, "a demand link")? as usize;
        v.push(s.sub(sec + lo, sec + hi, what, what)?);
    }
    Ok(v)
}

/// The length of the Intel-format index at `at` (one byte, or two when
/// the first has its top bit set).
fn index_len(r: &Rd<'_>, at: usize) -> Result<usize, SymError> {
    Ok(if r.u8(at, "a type index")? & 0x80 != 0 {
        2
    } else {
        1
    })
}

/// The location expression at `at`: its length, and the BP offset when
/// it is a single `BP_OFFSET` entry.
fn location(r: &Rd<'_>, at: usize) -> Result<(usize, Option<i32>), SymError> {
    let first = r.u8(at, "a location expression")?;
    if first >= 0x80 {
        let n = usize::from(first - 0x80);
        r.slice(at + 1, n, "a location expression's entries")?;
        return Ok((1 + n, None));
    }
    let (len, bp) = match first {
        0x10 => (2, Some(i32::from(r.u8(at + 1, "a BP offset")? as i8))),
        0x11 => (3, Some(i32::from(r.u16(at + 1, "a BP offset")? as i16))),
        0x12 => (5, Some(r.u32(at + 1, "a BP offset")? as i32)),
        0x20 | 0x24 => (5, None),
        0x21 => (7, None),
        0x22 | 0x50 | 0x52 | 0x68 => (2, None),
        0x23 | 0x51 | 0x53 => (3, None),
        0x30..=0x3F => (2 + usize::from(first & 0xF), None),
        0x40..=0x4F | 0x60..=0x6F => (1, None),
        _ => {
            return Err(SymError::offset(
                at as u64,
                format!("Watcom debug information: unknown location class {first:#04X}"),
            ));
        }
    };
    r.slice(at, len, "a location expression")?;
    Ok((len, bp))
}

/// A routine being read, with what decides which of its locals are
/// parameters.
struct Routine {
    f: RawFunction,
    /// Parameters passed in registers: their LOCAL records come first.
    reg_params: usize,
    /// Locals seen so far.
    seen: usize,
    /// The first BP offset above the return address.
    stack_params_from: i32,
}

/// A module's local symbols: routines and their BP-relative variables.
fn local_symbols(r: &Rd<'_>, out: &mut DebugInfo) -> Result<(), SymError> {
    let mut base: Option<(u16, u32)> = None;
    let mut current: Option<Routine> = None;
    let mut p = r.lo;
    while p < r.hi {
        let len = usize::from(r.u8(p, "a symbol record's length")?);
        if len < 2 {
            return Err(SymError::offset(
                p as u64,
                format!("Watcom debug information: a local symbol record of {len} bytes"),
            ));
        }
        let rec = r.sub(p, p + len, "symbol record", "a local symbol record")?;
        let kind = rec.u8(p + 1, "a symbol record's kind")?;
        let d = p + 2;
        match kind {
            SET_BASE => {
                let off = rec.u16(d, "a base's offset")?;
                base = Some((rec.u16(d + 2, "a base's segment")?, u32::from(off)));
            }
            SET_BASE386 => {
                let off = rec.u32(d, "a base's offset")?;
                base = Some((rec.u16(d + 4, "a base's segment")?, off));
            }
            ADD_PREV_SEG => {
                let add = rec.u16(d, "a segment increment")?;
                base = base.map(|(s, _)| (s.wrapping_add(add), 0));
            }
            NEAR_RTN | FAR_RTN => {
                if let Some(r) = current.take() {
                    out.push_function(r.f);
                }
                let start = rec.u16(d, "a routine's start")?;
                let size = rec.u16(d + 2, "a routine's size")?;
                let ret_at = rec.u16(d + 8, "a routine's return address offset")?;
                let mut at = d + 10;
                at += index_len(&rec, at)?;
                at += location(&rec, at)?.0;
                let n = usize::from(rec.u8(at, "a routine's parameter count")?);
                at += 1;
                for _ in 0..n {
                    at += location(&rec, at)?.0;
                }
                let name = String::from_utf8_lossy(rec.slice(
                    at,
                    rec.hi.saturating_sub(at),
                    "a routine's name",
                )?);
                if let Some((segment, off)) = base {
                    let start = off.saturating_add(u32::from(start));
                    let ret_len = if kind == FAR_RTN { 4 } else { 2 };
                    current = Some(Routine {
                        f: RawFunction {
                            name: super::clip_name(&name),
                            segment,
                            start,
                            end: Some(start.saturating_add(u32::from(size))),
                            params: Vec::new(),
                        },
                        reg_params: n,
                        seen: 0,
                        stack_params_from: i32::from(ret_at as i16) + ret_len,
                    });
                }
            }
            BLOCK | BLOCK_386 => {
                // An inner scope: its locals are not the routine's.
                if let Some(r) = current.take() {
                    out.push_function(r.f);
                }
            }
            LOCAL => {
                if let Some(rt) = &mut current {
                    let (n, bp) = location(&rec, d)?;
                    let at = d + n;
                    let at = at + index_len(&rec, at)?;
                    let name = String::from_utf8_lossy(rec.slice(
                        at,
                        rec.hi.saturating_sub(at),
                        "a local's name",
                    )?);
                    let is_param =
                        rt.seen < rt.reg_params || bp.is_some_and(|o| o >= rt.stack_params_from);
                    rt.seen += 1;
                    if let Some(bp_offset) = bp {
                        if rt.f.params.len() < super::lines::MAX_PARAMS {
                            rt.f.params.push(Param {
                                name: super::clip_name(&name),
                                is_param,
                                bp_offset,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        p += len;
    }
    if let Some(r) = current {
        out.push_function(r.f);
    }
    Ok(())
}

/// A module's cue table (files and lines of line numbers with the top bit
/// set), found by a `CUE_TABLE` record among the first type records.
struct Cues {
    /// (cue, file index in the DebugInfo, line), sorted by cue.
    entries: Vec<(u16, Option<u32>, u16)>,
}

impl Cues {
    fn resolve(&self, cue: u16) -> Option<(u32, u32)> {
        let k = self.entries.partition_point(|e| e.0 <= cue);
        let &(c, file, line) = self.entries.get(k.checked_sub(1)?)?;
        Some((file?, u32::from(line) + u32::from(cue - c)))
    }
}

fn cue_table(t: &Rd<'_>, out: &mut DebugInfo) -> Result<Option<Cues>, SymError> {
    let mut p = t.lo;
    let mut table = None;
    while p + 2 <= t.hi {
        let len = usize::from(t.u8(p, "a type record's length")?);
        if len < 2 {
            break;
        }
        let kind = t.u8(p + 1, "a type record's kind")?;
        if kind == CUE_TABLE {
            table = Some(t.u32(p + 2, "a cue table's offset")? as usize);
            break;
        }
        if kind == 0x14 {
            break;
        }
        p += len;
    }
    let Some(off) = table else {
        return Ok(None);
    };
    let at =
        t.lo.checked_add(off)
            .ok_or_else(|| t.err(t.lo, "a cue table"))?;
    let count = usize::from(t.u16(at, "the cue count")?);
    t.slice(at + 2, 8 * count, "the cue entries")?;
    let files_at = at + 2 + 8 * count;
    let file_count = usize::from(t.u16(files_at, "the cue file count")?);
    t.slice(files_at + 2, 2 * file_count, "the cue file indexes")?;
    let names_at = files_at + 2 + 2 * file_count;
    let mut files = Vec::with_capacity(file_count);
    for i in 0..file_count {
        let idx = usize::from(t.u16(files_at + 2 + 2 * i, "a cue file index")?);
        let from = names_at.saturating_add(idx);
        let name =
            t.b.get(from..t.hi)
                .and_then(|s| s.split(|&c| c == 0).next())
                .map(|s| super::clip_name(&String::from_utf8_lossy(s)));
        files.push(name.map(|n| out.file_index(&n)));
    }
    let mut entries = Vec::with_capacity(count);
    for i in 0..count {
        let e = at + 2 + 8 * i;
        let fno = usize::from(t.u16(e + 2, "a cue's file")?);
        entries.push((
            t.u16(e, "a cue")?,
            files.get(fno).copied().flatten(),
            t.u16(e + 4, "a cue's line")?,
        ));
    }
    entries.sort_by_key(|e| e.0);
    Ok(Some(Cues { entries }))
}

/// A module's line numbers: runs of (line, offset) pairs, each run in one
/// piece of a segment.
fn line_numbers(
    r: &Rd<'_>,
    pieces: &HashMap<u32, Piece>,
    file: u32,
    cues: Option<&Cues>,
    out: &mut DebugInfo,
) -> Result<(), SymError> {
    let mut p = r.lo;
    while p < r.hi {
        let seg = r.u32(p, "a line run's segment")?;
        let count = usize::from(r.u16(p + 4, "a line run's count")?);
        r.slice(p + 6, 6 * count, "a line run's lines")?;
        let piece = pieces.get(&seg).copied().ok_or_else(|| {
            SymError::offset(
                p as u64,
                format!(
                    "Watcom debug information: a line run names address-class offset {seg:#X}, which is no module's piece of a segment"
                ),
            )
        })?;
        let pair = |i: usize| -> Result<(u16, u32), SymError> {
            let e = p + 6 + 6 * i;
            Ok((r.u16(e, "a line number")?, r.u32(e + 2, "a line's offset")?))
        };
        for i in 0..count {
            let (line, off) = pair(i)?;
            let end = if i + 1 < count {
                pair(i + 1)?.1
            } else {
                piece.size
            };
            let (file, line) = if line & 0x8000 != 0 {
                match cues.and_then(|c| c.resolve(line & 0x7FFF)) {
                    Some(x) => x,
                    None => continue,
                }
            } else {
                (file, u32::from(line))
            };
            out.push_row(RawRow {
                segment: piece.segment,
                start: piece.start.saturating_add(off),
                end: piece.start.saturating_add(end.max(off)),
                file,
                line,
            });
        }
        p += 6 + 6 * count;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_header_no_watcom_information() {
        assert_eq!(find(b"MZ"), None);
        assert!(parse(&[0u8; 32]).is_err());
    }

    #[test]
    fn a_size_past_the_start_of_the_file_is_named_with_its_offset() {
        let mut b = vec![0u8; 4];
        b.extend_from_slice(&[0x86, 0x83, 3, 0, 1, 3, 0, 0, 0, 0]);
        b.extend_from_slice(&0x1000u32.to_le_bytes());
        let e = parse(&b).unwrap_err();
        assert_eq!(e.at, super::super::At::Offset(14));
        assert!(e.what.contains("debug_size"), "{}", e.what);
    }

    #[test]
    fn a_version_2_header_is_refused_by_name() {
        let mut b = vec![0u8; 4];
        b.extend_from_slice(&[0x86, 0x83, 2, 0, 1, 3, 0, 0, 0, 0]);
        b.extend_from_slice(&14u32.to_le_bytes());
        let e = parse(&b).unwrap_err();
        assert!(e.what.contains("version 2"), "{}", e.what);
    }

    #[test]
    fn a_type_index_past_its_record_is_an_error_not_a_panic() {
        let mut b = vec![6u8, SET_BASE, 0, 0, 1, 0];
        b.extend_from_slice(&[
            16, NEAR_RTN, 0, 0, 8, 0, 0, 0, 1, 1, 2, 0, 0x10, 0x48, 0, b'f',
        ]);
        // A LOCAL at BP-16 whose two-byte type index has one byte.
        b.extend_from_slice(&[5, LOCAL, 0x10, 0xF0, 0x80]);
        let r = Rd {
            b: &b,
            lo: 0,
            hi: b.len(),
            what: "test",
        };
        let mut out = DebugInfo::default();
        let e = local_symbols(&r, &mut out).unwrap_err();
        assert!(e.what.contains("a local's name"), "{}", e.what);
    }

    #[test]
    fn bp_offsets_are_signed() {
        let b = [0x10u8, 0xF0, 0x11, 0x08, 0x00];
        let r = Rd {
            b: &b,
            lo: 0,
            hi: b.len(),
            what: "test",
        };
        assert_eq!(location(&r, 0).unwrap(), (2, Some(-16)));
        assert_eq!(location(&r, 2).unwrap(), (3, Some(8)));
    }
}
