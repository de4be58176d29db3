//! CodeView 4 debug information (signatures `NB05`, as a linker writes it
//! before CVPACK, and `NB09`, packed) at the end of a 16-bit executable:
//! what Microsoft C 7 and Visual C++ 1.x linked with `/CO`, and Open
//! Watcom with `-hc` (`wlink debug codeview`).
//!
//! The layout read here (the CodeView 4 symbolic debug information
//! specification):
//!
//! * the file ends with the signature and a 32-bit distance from the end
//!   of the file back to the debug information's start (its *base*),
//!   which begins with the same signature and the 32-bit offset, from the
//!   base, of the subsection directory;
//! * the directory: a header (`cbDirHeader`, `cbDirEntry` as 16-bit
//!   words, then the 32-bit entry count, next directory and flags) and one
//!   entry per subsection (type and module index, 16-bit; offset from the
//!   base and length, 32-bit);
//! * `sstSrcModule` (0x127): a module's source files and, per file and
//!   segment, the offsets and line numbers of its lines;
//! * `sstSymbols` (0x124, NB05) and `sstAlignSym` (0x125, NB09): a
//!   module's symbols after a 32-bit signature, records of a 16-bit length
//!   and type: `S_LPROC16`/`S_GPROC16` (0x104/0x105: a function's offset,
//!   segment and length), `S_BPREL16` (0x100: a variable at BP plus a
//!   signed offset) inside it, `S_BLOCK16` (0x107) and `S_END` (6);
//! * `sstPublicSym` (0x123) and `sstGlobalPub` (0x12A, after a 16-byte
//!   hash header): `S_PUB16` (0x103) public names;
//! * `sstSegMap` (0x12D): logical segment *n* is entry *n*, whose frame is
//!   the segment value the linker relocated (the NE segment number, or a
//!   DOS program's paragraph) and whose offset is added to the symbols'.
//!
//! CodeView 4 does not mark which BP-relative variables are parameters.
//! A procedure's type (`LF_PROCEDURE`, 0x0008, in the module's `sstTypes`
//! (0x121, NB05) or `sstGlobalTypes` (0x12B, NB09), type indices from
//! 0x1000) gives its argument list (`LF_ARGLIST`, 0x0201); the compilers
//! write the parameters' `S_BPREL16` records first, so the first as many
//! as the list has arguments (a lone `void` is none) are the parameters,
//! at their signed offsets (below BP when the prologue stored register
//! arguments there, as Open Watcom does). Variables above the return
//! address (a positive offset) are parameters too.

use super::SymError;
use super::lines::{DebugInfo, Param, RawFunction, RawRow};

const S_END: u16 = 0x0006;
const S_BPREL16: u16 = 0x0100;
const S_PUB16: u16 = 0x0103;
const S_LPROC16: u16 = 0x0104;
const S_GPROC16: u16 = 0x0105;
const S_BLOCK16: u16 = 0x0107;
const S_LABEL16: u16 = 0x0109;

const SST_TYPES: u16 = 0x121;
const SST_GLOBAL_TYPES: u16 = 0x12B;
const LF_PROCEDURE: u16 = 0x0008;
const LF_ARGLIST: u16 = 0x0201;
const T_VOID: u16 = 0x0003;
/// The first type index a types table defines.
const FIRST_TYPE: u16 = 0x1000;
const SST_PUBLIC_SYM: u16 = 0x123;
const SST_SYMBOLS: u16 = 0x124;
const SST_ALIGN_SYM: u16 = 0x125;
const SST_SRC_MODULE: u16 = 0x127;
const SST_GLOBAL_PUB: u16 = 0x12A;
const SST_SEG_MAP: u16 = 0x12D;

/// The most subsections read.
const MAX_SUBSECTIONS: u32 = 100_000;

/// Where the CodeView information starts and its signature, when the file
/// ends in a CodeView 4 trailer.
pub fn find(bytes: &[u8]) -> Option<(usize, [u8; 4])> {
    let n = bytes.len();
    let t = bytes.get(n.checked_sub(8)?..)?;
    let sig: [u8; 4] = t[..4].try_into().ok()?;
    if &sig != b"NB05" && &sig != b"NB09" {
        return None;
    }
    let back = u32::from_le_bytes(t[4..8].try_into().ok()?) as usize;
    let base = n.checked_sub(back)?;
    (bytes.get(base..base + 4)? == sig).then_some((base, sig))
}

/// Whether the file ends in a CodeView 4 trailer.
pub fn present(bytes: &[u8]) -> bool {
    find(bytes).is_some()
}

/// A bounded little-endian reader over one subsection; errors name the
/// file offset and the field.
struct Rd<'a> {
    b: &'a [u8],
    /// File offset of `b[0]`.
    at: u64,
    what: &'static str,
}

impl<'a> Rd<'a> {
    /// `field`, at `off` in the subsection, lies past its end: named at
    /// the subsection's start (the offset came from damaged data).
    fn err(&self, off: usize, field: &str) -> SymError {
        SymError::offset(
            self.at,
            format!(
                "{}: {field} at subsection offset {off:#X} lies past the subsection's end ({:#X} bytes)",
                self.what,
                self.b.len()
            ),
        )
    }
    fn u8(&self, off: usize, field: &str) -> Result<u8, SymError> {
        self.b.get(off).copied().ok_or_else(|| self.err(off, field))
    }
    fn u16(&self, off: usize, field: &str) -> Result<u16, SymError> {
        self.b
            .get(off..off.saturating_add(2))
            .filter(|s| s.len() == 2)
            .map(|s| u16::from_le_bytes([s[0], s[1]]))
            .ok_or_else(|| self.err(off, field))
    }
    fn u32(&self, off: usize, field: &str) -> Result<u32, SymError> {
        self.b
            .get(off..off.saturating_add(4))
            .filter(|s| s.len() == 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            .ok_or_else(|| self.err(off, field))
    }
    /// A length-prefixed name.
    fn name(&self, off: usize, field: &str) -> Result<String, SymError> {
        let n = usize::from(self.u8(off, field)?);
        let s = self
            .b
            .get(off + 1..off + 1 + n)
            .ok_or_else(|| self.err(off, field))?;
        Ok(super::clip_name(&String::from_utf8_lossy(s)))
    }
}

/// Logical segment → (segment value, offset added).
#[derive(Default)]
struct SegMap(Vec<(u16, u32)>);

impl SegMap {
    fn place(&self, logical: u16, off: u32) -> Option<(u16, u32)> {
        if self.0.is_empty() {
            return Some((logical, off));
        }
        let &(frame, base) = self.0.get(usize::from(logical).checked_sub(1)?)?;
        Some((frame, base.checked_add(off)?))
    }
}

/// Read the CodeView 4 information at the end of executable `bytes`.
pub fn parse(bytes: &[u8]) -> Result<DebugInfo, SymError> {
    let (base, sig) = find(bytes).ok_or_else(|| {
        SymError::file("no CodeView 4 debug information (no NB05/NB09 trailer at the end)")
    })?;
    let all = Rd {
        b: bytes,
        at: 0,
        what: "CodeView",
    };
    let lfo_dir = all.u32(base + 4, "lfoDir")? as usize;
    let dir = base
        .checked_add(lfo_dir)
        .filter(|&d| d < bytes.len())
        .ok_or_else(|| {
            SymError::offset(
                base as u64 + 4,
                format!("lfoDir {lfo_dir:#X} points past the end of the file"),
            )
        })?;
    let cb_header = usize::from(all.u16(dir, "the directory's cbDirHeader")?);
    let cb_entry = usize::from(all.u16(dir + 2, "the directory's cbDirEntry")?);
    let count = all.u32(dir + 4, "the directory's cDir")?;
    if cb_header < 8 || cb_entry < 12 {
        return Err(SymError::offset(
            dir as u64,
            format!(
                "the subsection directory's header says {cb_header} header bytes and {cb_entry} bytes an entry (at least 8 and 12); not a CodeView 4 directory"
            ),
        ));
    }
    if count > MAX_SUBSECTIONS || (count as usize).saturating_mul(cb_entry) > bytes.len() - dir {
        return Err(SymError::offset(
            dir as u64 + 4,
            format!("cDir {count}: more subsection entries than the file holds"),
        ));
    }
    let mut subs = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let e = dir + cb_header + i * cb_entry;
        let kind = all.u16(e, "a directory entry's subsection")?;
        let module = all.u16(e + 2, "a directory entry's module")?;
        let lfo = all.u32(e + 4, "a directory entry's lfo")? as usize;
        let cb = all.u32(e + 8, "a directory entry's cb")? as usize;
        let start = base.checked_add(lfo);
        let Some(start) =
            start.filter(|&s| s.checked_add(cb).is_some_and(|end| end <= bytes.len()))
        else {
            return Err(SymError::offset(
                e as u64 + 4,
                format!(
                    "subsection {kind:#X} (lfo {lfo:#X}, cb {cb:#X}) lies past the end of the file"
                ),
            ));
        };
        subs.push((kind, module, start, cb));
    }
    let sub = |k: usize, what: &'static str| -> Rd<'_> {
        let (_, _, start, cb) = subs[k];
        Rd {
            b: &bytes[start..start + cb],
            at: start as u64,
            what,
        }
    };
    let mut segmap = SegMap::default();
    for (k, &(kind, _, _, _)) in subs.iter().enumerate() {
        if kind == SST_SEG_MAP {
            let r = sub(k, "sstSegMap");
            let n = usize::from(r.u16(0, "cSeg")?);
            for j in 0..n.min(r.b.len() / 20) {
                let e = 4 + j * 20;
                segmap
                    .0
                    .push((r.u16(e + 6, "frame")?, r.u32(e + 12, "offset")?));
            }
        }
    }
    let mut out = DebugInfo {
        format: format!("CodeView 4 ({})", String::from_utf8_lossy(&sig)),
        ..DebugInfo::default()
    };
    // Parameter counts by procedure type: per module (NB05), or global
    // (NB09, module 0xFFFF here).
    let mut types: std::collections::HashMap<u16, Vec<Option<usize>>> =
        std::collections::HashMap::new();
    for (k, &(kind, module, _, _)) in subs.iter().enumerate() {
        match kind {
            SST_TYPES => {
                let r = sub(k, "sstTypes");
                types.insert(module, param_counts(&r, types_sequential(&r)?)?);
            }
            SST_GLOBAL_TYPES => {
                let r = sub(k, "sstGlobalTypes");
                types.insert(0xFFFF, param_counts(&r, types_indexed(&r)?)?);
            }
            _ => {}
        }
    }
    for (k, &(kind, module, _, _)) in subs.iter().enumerate() {
        let params = |t: u16| -> Option<usize> {
            let i = usize::from(t.checked_sub(FIRST_TYPE)?);
            types
                .get(&module)
                .or_else(|| types.get(&0xFFFF))?
                .get(i)
                .copied()
                .flatten()
        };
        match kind {
            SST_SRC_MODULE => src_module(&sub(k, "sstSrcModule"), &segmap, &mut out)?,
            SST_SYMBOLS | SST_ALIGN_SYM => symbols(
                &sub(k, "sstSymbols/sstAlignSym"),
                4,
                &segmap,
                &params,
                &mut out,
            )?,
            SST_PUBLIC_SYM => symbols(&sub(k, "sstPublicSym"), 4, &segmap, &params, &mut out)?,
            SST_GLOBAL_PUB => symbols(&sub(k, "sstGlobalPub"), 16, &segmap, &params, &mut out)?,
            _ => {}
        }
    }
    Ok(out)
}

/// `sstSrcModule`: files, and per file and segment the line pairs.
fn src_module(r: &Rd<'_>, segmap: &SegMap, out: &mut DebugInfo) -> Result<(), SymError> {
    let c_file = usize::from(r.u16(0, "cFile")?);
    for i in 0..c_file {
        let fbase = r.u32(4 + 4 * i, "baseSrcFile")? as usize;
        let c_seg = usize::from(r.u16(fbase, "a file's cSeg")?);
        let name_at = fbase + 4 + 12 * c_seg;
        let name = r.name(name_at, "a file's name")?;
        let file = out.file_index(&name);
        for s in 0..c_seg {
            let lbase = r.u32(fbase + 4 + 4 * s, "baseSrcLn")? as usize;
            let end_of_seg = r.u32(fbase + 4 + 4 * c_seg + 8 * s + 4, "a file segment's end")?;
            let seg = r.u16(lbase, "a line table's Seg")?;
            let pairs = usize::from(r.u16(lbase + 2, "a line table's cPair")?);
            if lbase + 4 + pairs * 6 > r.b.len() {
                return Err(r.err(lbase + 2, "cPair's offsets and line numbers"));
            }
            let mut rows: Vec<(u32, u16)> = Vec::with_capacity(pairs);
            for p in 0..pairs {
                let off = r.u32(lbase + 4 + 4 * p, "a line's offset")?;
                let line = r.u16(lbase + 4 + 4 * pairs + 2 * p, "a line number")?;
                rows.push((off, line));
            }
            rows.sort_by_key(|&(o, _)| o);
            for (j, &(off, line)) in rows.iter().enumerate() {
                let end = rows
                    .get(j + 1)
                    .map(|&(o, _)| o)
                    .unwrap_or(end_of_seg.saturating_add(1));
                let (Some((segment, start)), Some((_, stop))) =
                    (segmap.place(seg, off), segmap.place(seg, end))
                else {
                    continue;
                };
                out.push_row(RawRow {
                    segment,
                    start,
                    end: stop.max(start),
                    file,
                    line: u32::from(line),
                });
            }
        }
    }
    Ok(())
}

/// Symbol records from `first` (after the signature or hash header).
fn symbols(
    r: &Rd<'_>,
    first: usize,
    segmap: &SegMap,
    params: &dyn Fn(u16) -> Option<usize>,
    out: &mut DebugInfo,
) -> Result<(), SymError> {
    let mut at = first;
    // Open scopes: procedures and blocks; the procedure being read.
    let mut depth = 0usize;
    let mut current: Option<(RawFunction, usize)> = None;
    // The procedure's parameter count, and its BP-relative records read.
    let (mut n_params, mut seen) = (0usize, 0usize);
    while at + 4 <= r.b.len() {
        let len = usize::from(r.u16(at, "a symbol's reclen")?);
        if len < 2 {
            return Err(SymError::offset(
                r.at + at as u64,
                format!("{}: a symbol record of {len} bytes", r.what),
            ));
        }
        let kind = r.u16(at + 2, "a symbol's rectyp")?;
        let d = at + 4;
        let next = at + 2 + len;
        if next > r.b.len() {
            return Err(r.err(at, "a symbol record"));
        }
        match kind {
            S_LPROC16 | S_GPROC16 => {
                let plen = r.u16(d + 12, "a procedure's length")?;
                let off = r.u16(d + 18, "a procedure's offset")?;
                let seg = r.u16(d + 20, "a procedure's segment")?;
                let typind = r.u16(d + 22, "a procedure's type")?;
                let name = r.name(d + 25, "a procedure's name")?;
                depth += 1;
                n_params = params(typind).unwrap_or(0);
                seen = 0;
                if let Some((segment, start)) = segmap.place(seg, u32::from(off)) {
                    if let Some((f, _)) = current.take() {
                        out.push_function(f);
                    }
                    current = Some((
                        RawFunction {
                            name,
                            segment,
                            start,
                            end: (plen > 0).then(|| start + u32::from(plen)),
                            params: Vec::new(),
                        },
                        depth,
                    ));
                }
            }
            S_BLOCK16 => depth += 1,
            S_END => {
                if current.as_ref().is_some_and(|(_, d)| *d == depth) {
                    if let Some((f, _)) = current.take() {
                        out.push_function(f);
                    }
                }
                depth = depth.saturating_sub(1);
            }
            S_BPREL16 => {
                if let Some((f, _)) = &mut current {
                    let off = r.u16(d, "a variable's BP offset")? as i16;
                    let name = r.name(d + 4, "a variable's name")?;
                    let nth = seen;
                    seen += 1;
                    if f.params.len() < super::lines::MAX_PARAMS {
                        f.params.push(Param {
                            name,
                            is_param: off > 0 || nth < n_params,
                            bp_offset: i32::from(off),
                        });
                    }
                }
            }
            S_PUB16 | S_LABEL16 => {
                let off = r.u16(d, "a symbol's offset")?;
                let seg = r.u16(d + 2, "a symbol's segment")?;
                let name_at = if kind == S_PUB16 { d + 6 } else { d + 5 };
                let name = r.name(name_at, "a symbol's name")?;
                if let Some((segment, start)) = segmap.place(seg, u32::from(off)) {
                    out.push_function(RawFunction {
                        name,
                        segment,
                        start,
                        end: None,
                        params: Vec::new(),
                    });
                }
            }
            _ => {}
        }
        at = next;
    }
    if let Some((f, _)) = current {
        out.push_function(f);
    }
    Ok(())
}

/// The type records of an NB05 `sstTypes`: after a 32-bit signature,
/// one after another (a 16-bit length, then the leaf); their offsets in
/// the subsection, in index order.
fn types_sequential(r: &Rd<'_>) -> Result<Vec<usize>, SymError> {
    let mut v = Vec::new();
    let mut at = 4;
    while at + 4 <= r.b.len() && v.len() < usize::from(u16::MAX - FIRST_TYPE) {
        let len = usize::from(r.u16(at, "a type record's length")?);
        v.push(at);
        at += 2 + len;
    }
    Ok(v)
}

/// The type records of an NB09 `sstGlobalTypes`: a 32-bit flags word,
/// the count, and each record's offset from the end of the offsets.
fn types_indexed(r: &Rd<'_>) -> Result<Vec<usize>, SymError> {
    let n = r.u32(4, "cTypes")? as usize;
    if n.saturating_mul(4) > r.b.len() {
        return Err(r.err(4, "cTypes' offsets"));
    }
    let base = 8 + 4 * n;
    (0..n.min(usize::from(u16::MAX - FIRST_TYPE)))
        .map(|i| Ok(base.saturating_add(r.u32(8 + 4 * i, "a type's offset")? as usize)))
        .collect()
}

/// Per type (by index from [`FIRST_TYPE`]): a procedure's parameter
/// count, from its argument list.
fn param_counts(r: &Rd<'_>, at: Vec<usize>) -> Result<Vec<Option<usize>>, SymError> {
    let arg_count = |t: u16| -> Result<Option<usize>, SymError> {
        let Some(&a) = t
            .checked_sub(FIRST_TYPE)
            .and_then(|i| at.get(usize::from(i)))
        else {
            return Ok(None);
        };
        if r.u16(a + 2, "a type's leaf")? != LF_ARGLIST {
            return Ok(None);
        }
        let n = usize::from(r.u16(a + 4, "an argument list's count")?);
        if n == 1 && r.u16(a + 6, "an argument's type")? == T_VOID {
            return Ok(Some(0));
        }
        Ok(Some(n))
    };
    let mut v = Vec::with_capacity(at.len());
    for &a in &at {
        if r.u16(a + 2, "a type's leaf")? != LF_PROCEDURE {
            v.push(None);
            continue;
        }
        let count = usize::from(r.u16(a + 8, "a procedure's parameter count")?);
        let list = r.u16(a + 10, "a procedure's argument list")?;
        v.push(Some(arg_count(list)?.unwrap_or(count)));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_trailer_no_codeview() {
        assert_eq!(find(b"MZ"), None);
        assert!(parse(&[0u8; 16]).is_err());
    }

    #[test]
    fn a_directory_past_the_end_is_named_with_its_offset() {
        let mut b = b"NB09".to_vec();
        b.extend_from_slice(&0x1000u32.to_le_bytes());
        b.extend_from_slice(b"NB09");
        b.extend_from_slice(&16u32.to_le_bytes());
        let e = parse(&b).unwrap_err();
        assert_eq!(e.at, super::super::At::Offset(4));
        assert!(e.what.contains("lfoDir"), "{}", e.what);
    }
}
