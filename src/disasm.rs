//! `toolhelp16 disasm`: a static listing of a module's code, without
//! running it — what a debugger's "unassemble" shows, with the names the
//! tool knows.
//!
//! What a listing holds, for each instruction: its address, its bytes as
//! the file has them, its disassembly in the trace's syntaxes, and the
//! symbol naming it (symbols/mod.rs: the NE names tables, a `.MAP` or
//! `.SYM` given or found beside the file). Before an instruction, the
//! labels of its address: the symbols that start there, the exported
//! entry points (`export @N NAME`) and the program's entry.
//!
//! **Relocations.** The bytes a loader patches are shown as the file has
//! them (an NE chain's links, an MZ segment relative to the load), but
//! the instruction reads as it will run:
//!
//! - NE (win16.md, "Relocations follow a segment's data"): every location
//!   a record patches ([`crate::loader::ne::relocation_sites`], the
//!   loader's own chain walk) names its target. A far call through an
//!   import reads `call far USER.MessageBox` (the name from the ordinal
//!   tables of the system DLLs, else `USER.1`; a comment keeps the
//!   ordinal); an internal far pointer names the symbol it points at, else
//!   `MODULE:SEG:OFF`; a selector reads `seg DGROUP` for the automatic
//!   data segment, `seg MODULE:SEG` for another and `seg USER.Name` for an
//!   import's; an offset reads `offset NAME`. An additive record adds what
//!   the location held (`+0x4`). OS fixups (floating-point emulation) are
//!   said in a comment; the loader turns them into x87 instructions.
//! - MZ: each relocation is a segment word that DOS adds the load segment
//!   to. It is marked (`seg 0002`, `far 0001:002A`, both counted from the
//!   load segment) and a far target is named by the symbol there.
//! - A location a record patches that is neither an instruction's
//!   immediate nor its far target (data in a code segment, a
//!   displacement) is said in a comment.
//!
//! **What is listed.** NE: every code segment, one after another, or
//! `--segment N` (its number in the segment table). MZ: the segments are
//! the paragraphs the program names — the load image's start, the entry's
//! CS, the stack's SS and every relocated segment word — numbered in
//! order from 1; without `--segment` the listing runs from the entry to
//! the end of the entry's segment. COM: the one segment, from 0100h.
//! `--at LOC --count N` lists N instructions from LOC instead (LOC as
//! `stack --at` writes it, resolved in the file: `MODULE:SEG:OFF` or
//! `SEG:OFF` with an NE segment number, or for a DOS program a paragraph
//! counted from the load image; `MODULE!NAME`; `MODULE!#N`).
//!
//! Decoding is linear. Where an instruction would run over a label (a
//! symbol or an entry point: code starts there), the bytes before the
//! label are shown as data (`db`) and decoding starts again at the label,
//! so every function's first instruction is decoded from its first byte.
//! A byte that starts no valid instruction is `db` too.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::rc::Rc;

use iced_x86::{
    Decoder, DecoderOptions, Formatter, GasFormatter, Instruction, IntelFormatter, MasmFormatter,
    NasmFormatter, OpKind, SymbolResolver, SymbolResult,
};
use serde::Serialize;

use crate::loader::ne::{
    NeImage, NeSegment, RELOC_FARPTR, RELOC_LOBYTE, RELOC_OFFSET, RELOC_SELECTOR, RelocTarget,
};
use crate::loader::{Image, MzImage, ordinal_name};
use crate::session::Loc;
use crate::symbols::SymbolTable;
use crate::trace::Syntax;

/// The most instructions one listing holds (a whole 64 KiB segment of
/// one-byte instructions is 65536).
pub const MAX_LINES: usize = 1 << 20;

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Disassembly syntax.
    pub syntax: Syntax,
    /// One segment: the NE segment number, or the number of a DOS
    /// program's segment (module documentation).
    pub segment: Option<u16>,
    /// Start here instead, and list [`Options::count`] instructions.
    pub at: Option<Loc>,
    /// Instructions from `at` (20 when not given).
    pub count: Option<usize>,
}

/// A relocated location, as the listing shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Fixup {
    /// Offset of the patched location in its segment.
    pub at: u16,
    /// What is patched: `far pointer`, `selector`, `offset`, `low byte`,
    /// `segment` (MZ), or `OS fixup`.
    pub kind: &'static str,
    /// What it will hold, as the instruction shows it (`USER.MessageBox`,
    /// `seg DGROUP`, `DEMO:2:0010`).
    pub target: String,
    /// For an import: the module, the ordinal and the name, when known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub import: Option<ImportRef>,
}

/// An imported function a fixup names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ImportRef {
    /// The imported module.
    pub module: String,
    /// The ordinal imported, when known.
    pub ordinal: Option<u16>,
    /// The name imported, when known.
    pub name: Option<String>,
}

/// One line of a listing: an instruction (or `db` bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Line {
    /// The module (NE module name, or the DOS program's file stem).
    pub module: String,
    /// The segment's number (module documentation).
    pub segment: u16,
    /// A DOS program's segment as a paragraph counted from the load image
    /// (a .COM program's PSP is paragraph 0); None for NE.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub paragraph: Option<u16>,
    /// Offset of the instruction in its segment.
    pub offset: u16,
    /// `DEMO:1:0010` (NE), `0001:002A` (DOS: paragraph:offset).
    pub address: String,
    /// The bytes as the file has them, in hex.
    pub bytes: String,
    /// The disassembly, relocations resolved.
    pub text: String,
    /// The symbol naming the address (`NAME` or `NAME+0x12`).
    pub symbol: Option<String>,
    /// What starts here: symbols, exported entries, the program's entry.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub labels: Vec<String>,
    /// The relocated locations in this instruction's bytes.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub fixups: Vec<Fixup>,
    /// Said after the instruction: an ordinal kept, a fixup that is not an
    /// operand.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<String>,
    /// `file.c:12` when the debug information begins a source line here.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
    /// That line's text, when its file can be read.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source_text: Option<String>,
}

/// A segment's part of a listing: a heading and its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The section's heading (the segment, its kind and size).
    pub heading: String,
    /// The instructions, in order.
    pub lines: Vec<Line>,
}

/// A whole listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// One section per segment listed.
    pub sections: Vec<Section>,
    /// Said once (a relocation table that could not be walked).
    pub notes: Vec<String>,
}

/// How a segment's addresses are named.
#[derive(Debug, Clone)]
enum Naming {
    /// NE segment `segment` of the table.
    Ne { segment: u16 },
    /// A DOS program: linear offset of the segment from where the map
    /// counts (the load image; a .COM's PSP).
    Dos { base: u32 },
}

/// Symbols of one segment, for the listing and for iced's resolver.
#[derive(Clone)]
struct Names {
    table: Rc<SymbolTable>,
    naming: Naming,
}

impl Names {
    fn at(&self, offset: u16) -> Option<crate::symbols::SymbolRef> {
        match self.naming {
            Naming::Ne { segment } => self.table.lookup(segment, u32::from(offset)),
            Naming::Dos { base } => self.table.lookup_linear(base + u32::from(offset)),
        }
    }

    /// The source line of the code at `offset`, from debug information.
    fn line(&self, offset: u16) -> Option<crate::symbols::lines::SourceLine> {
        match self.naming {
            Naming::Ne { segment } => self.table.line(segment, u32::from(offset)),
            Naming::Dos { base } => self.table.line_linear(base + u32::from(offset)),
        }
    }

    /// The symbols that start exactly at `offset`.
    fn starting(&self, offset: u16) -> Option<String> {
        self.at(offset)
            .filter(|s| s.displacement == 0)
            .map(|s| s.display)
    }
}

/// Names near branch targets (`call helper`) in iced's output.
struct Resolver(Names);

impl SymbolResolver for Resolver {
    fn symbol(
        &mut self,
        instruction: &Instruction,
        _operand: u32,
        instruction_operand: Option<u32>,
        address: u64,
        _address_size: u32,
    ) -> Option<SymbolResult<'_>> {
        let k = instruction_operand?;
        if !matches!(instruction.op_kind(k), OpKind::NearBranch16) {
            return None;
        }
        let s = self.0.at(u16::try_from(address).ok()?)?;
        Some(SymbolResult::with_string(
            address,
            crate::escape::name(&s.to_string()).into_owned(),
        ))
    }
}

fn formatter(syntax: Syntax, names: Option<Names>) -> Box<dyn Formatter> {
    let r = names.map(|n| Box::new(Resolver(n)) as Box<dyn SymbolResolver>);
    match syntax {
        Syntax::Nasm => Box::new(NasmFormatter::with_options(r, None)),
        Syntax::Masm => Box::new(MasmFormatter::with_options(r, None)),
        Syntax::Intel => Box::new(IntelFormatter::with_options(r, None)),
        Syntax::Gas => Box::new(GasFormatter::with_options(r, None)),
    }
}

/// A patched location and how each operand form shows its target.
#[derive(Debug, Clone)]
struct Site {
    /// Bytes patched.
    width: u16,
    fixup: Fixup,
    /// As a far branch's operand (`USER.MessageBox`, `DEMO:2:0010`).
    far: Option<String>,
    /// As an immediate (`seg DGROUP`, `offset Name`).
    imm: Option<String>,
    /// Said after the instruction (an import's ordinal).
    note: Option<String>,
    /// For a selector or segment word: the segment it stands for, so a
    /// far branch whose offset is in the bytes can be named.
    sel: Option<SelTarget>,
}

/// The segment a selector (NE) or segment word (MZ) fixup stands for.
#[derive(Debug, Clone)]
enum SelTarget {
    /// This NE module's segment N.
    Ne(u16),
    /// A DOS program's paragraph, from the load image.
    Paragraph(u16),
}

/// One segment to list.
struct Unit {
    module: String,
    segment: u16,
    paragraph: Option<u16>,
    /// The segment's bytes from offset `start`.
    bytes: Vec<u8>,
    start: u16,
    sites: BTreeMap<u16, Site>,
    labels: BTreeMap<u16, Vec<String>>,
    names: Names,
    heading: String,
    /// A data segment: listed as bytes (`db`), not decoded.
    data: bool,
}

impl Unit {
    fn end(&self) -> u32 {
        u32::from(self.start) + self.bytes.len() as u32
    }

    fn address(&self, off: u16) -> String {
        match self.paragraph {
            Some(p) => format!("{p:04X}:{off:04X}"),
            None => format!(
                "{}:{}:{off:04X}",
                crate::escape::name(&self.module),
                self.segment
            ),
        }
    }
}

/// What a far pointer to `segment:offset` of this NE module is called.
fn ne_place(module: &str, table: &SymbolTable, segment: u16, offset: u16) -> String {
    match table.lookup(segment, u32::from(offset)) {
        Some(s) => s.to_string(),
        None => format!("{module}:{segment}:{offset:04X}"),
    }
}

/// The sites of an NE segment, named.
fn ne_sites(
    ne: &NeImage,
    module: &str,
    seg: &NeSegment,
    table: &SymbolTable,
    notes: &mut Vec<String>,
) -> BTreeMap<u16, Site> {
    let mut out = BTreeMap::new();
    let sites = match crate::loader::ne::relocation_sites(seg) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!(
                "segment {}: its relocations cannot be followed ({e}); they are not shown",
                seg.number
            ));
            return out;
        }
    };
    for r in seg.relocs.iter().filter(|r| r.flags & 3 == 3) {
        let RelocTarget::OsFixup { kind } = r.target else {
            continue;
        };
        out.insert(
            r.offset,
            Site {
                width: 1,
                fixup: Fixup {
                    at: r.offset,
                    kind: "OS fixup",
                    target: format!("floating-point emulation, type {kind}"),
                    import: None,
                },
                far: None,
                imm: None,
                note: None,
                sel: None,
            },
        );
    }
    for (at, i) in sites {
        let Some(r) = seg.relocs.get(i) else { continue };
        // An additive record adds the target to what the location holds.
        let held = |o: u16| {
            let k = usize::from(o);
            match seg.data.get(k..k + 2) {
                Some(&[a, b]) if r.is_additive() => u16::from_le_bytes([a, b]),
                _ => 0,
            }
        };
        let plus = |v: u16| {
            if v == 0 {
                String::new()
            } else {
                format!("+{v:#x}")
            }
        };
        let sel = match &r.target {
            RelocTarget::Internal { segment, .. } => Some(SelTarget::Ne(u16::from(*segment))),
            RelocTarget::InternalMovable { ordinal } => ne
                .entries
                .iter()
                .find(|e| e.ordinal == *ordinal && e.segment != 0 && e.segment != 0xFE)
                .map(|e| SelTarget::Ne(u16::from(e.segment))),
            _ => None,
        };
        let (name, seg_name, import) = match &r.target {
            RelocTarget::ImportOrdinal { module: m, ordinal } => {
                let mname = ne.module_ref_name(*m).unwrap_or("?").to_string();
                let fname = ordinal_name(&mname, *ordinal);
                let shown = match fname {
                    Some(f) => format!("{mname}.{f}"),
                    None => format!("{mname}.{ordinal}"),
                };
                (
                    shown.clone(),
                    format!("seg {shown}"),
                    Some(ImportRef {
                        module: mname,
                        ordinal: Some(*ordinal),
                        name: fname.map(str::to_string),
                    }),
                )
            }
            RelocTarget::ImportName { module: m, name } => {
                let mname = ne.module_ref_name(*m).unwrap_or("?").to_string();
                let shown = format!("{mname}.{}", crate::escape::name(name));
                (
                    shown.clone(),
                    format!("seg {shown}"),
                    Some(ImportRef {
                        module: mname.clone(),
                        ordinal: crate::loader::ordinal_of(&mname, name),
                        name: Some(name.clone()),
                    }),
                )
            }
            RelocTarget::Internal { segment, offset } => {
                let s = u16::from(*segment);
                let off = offset.wrapping_add(held(at));
                (
                    ne_place(module, table, s, off),
                    if s == ne.header.auto_data_segment {
                        "seg DGROUP".to_string()
                    } else {
                        format!("seg {module}:{s}")
                    },
                    None,
                )
            }
            RelocTarget::InternalMovable { ordinal } => {
                match ne.entries.iter().find(|e| e.ordinal == *ordinal) {
                    Some(e) if e.segment != 0xFE && e.segment != 0 => {
                        let s = u16::from(e.segment);
                        (
                            ne_place(module, table, s, e.offset),
                            if s == ne.header.auto_data_segment {
                                "seg DGROUP".to_string()
                            } else {
                                format!("seg {module}:{s}")
                            },
                            None,
                        )
                    }
                    _ => (
                        format!("{module}.@{ordinal}"),
                        format!("seg {module}.@{ordinal}"),
                        None,
                    ),
                }
            }
            RelocTarget::OsFixup { .. } => continue,
        };
        let note = import
            .as_ref()
            .and_then(|i| i.ordinal.map(|o| format!("{}.{o}", i.module)));
        let (kind, width, far, imm, target) = match r.src_type {
            RELOC_FARPTR => ("far pointer", 4, Some(name.clone()), None, name.clone()),
            RELOC_SELECTOR => ("selector", 2, None, Some(seg_name.clone()), seg_name),
            RELOC_OFFSET => {
                let t = format!("offset {name}{}", plus(held(at)));
                ("offset", 2, None, Some(t.clone()), t)
            }
            RELOC_LOBYTE => {
                let t = format!("low byte of offset {name}");
                ("low byte", 1, None, None, t)
            }
            _ => ("32-bit", 4, None, None, name.clone()),
        };
        out.insert(
            at,
            Site {
                width,
                fixup: Fixup {
                    at,
                    kind,
                    target,
                    import,
                },
                far,
                imm,
                note,
                sel,
            },
        );
    }
    out
}

/// An NE module's units.
fn ne_units(
    ne: &NeImage,
    table: Rc<SymbolTable>,
    only: Option<u16>,
    notes: &mut Vec<String>,
) -> Result<Vec<Unit>, String> {
    let module = ne.module_name().unwrap_or("").to_ascii_uppercase();
    if let Some(n) = only {
        if n == 0 || usize::from(n) > ne.segments.len() {
            return Err(format!(
                "--segment {n}: the module has segments 1 to {}",
                ne.segments.len()
            ));
        }
    }
    let mut units = Vec::new();
    for seg in &ne.segments {
        let wanted = match only {
            Some(n) => seg.number == n,
            None => !seg.is_data(),
        };
        if !wanted {
            continue;
        }
        let mut labels: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        for e in ne
            .entries
            .iter()
            .filter(|e| u16::from(e.segment) == seg.number)
        {
            let what = match (ne.export_name(e.ordinal), e.is_exported()) {
                (Some(n), true) => format!("export @{} {}", e.ordinal, crate::escape::name(n)),
                (Some(n), false) => format!("entry @{} {}", e.ordinal, crate::escape::name(n)),
                (None, true) => format!("export @{}", e.ordinal),
                (None, false) => format!("entry @{}", e.ordinal),
            };
            labels.entry(e.offset).or_default().push(what);
        }
        let h = &ne.header;
        if h.cs == seg.number {
            let what = if h.is_library() {
                "the library's entry (LibEntry)"
            } else {
                "the program's entry (CS:IP)"
            };
            labels.entry(h.ip).or_default().insert(0, what.to_string());
        }
        let names = Names {
            table: table.clone(),
            naming: Naming::Ne {
                segment: seg.number,
            },
        };
        let mut length = seg.data.len();
        if seg.truncated {
            notes.push(format!(
                "segment {}: the file ends inside its data; {} bytes are listed",
                seg.number, length
            ));
        }
        length = length.min(0x1_0000);
        let sites = ne_sites(ne, &module, seg, &table, notes);
        units.push(Unit {
            heading: format!(
                "segment {} ({}, {:#06X} bytes at file offset {:#X}, {} relocation record{})",
                seg.number,
                if seg.is_data() {
                    "data: listed as bytes"
                } else {
                    "code"
                },
                length,
                seg.file_offset,
                seg.relocs.len(),
                if seg.relocs.len() == 1 { "" } else { "s" }
            ),
            data: seg.is_data(),
            module: module.clone(),
            segment: seg.number,
            paragraph: None,
            bytes: seg.data[..length].to_vec(),
            start: 0,
            sites,
            labels,
            names,
        });
    }
    Ok(units)
}

/// The segments of an MZ program: paragraphs counted from the load image
/// (module documentation), sorted.
fn mz_paragraphs(mz: &MzImage) -> Vec<u16> {
    let h = &mz.header;
    let mut p = vec![0, h.e_cs, h.e_ss];
    for &(off, seg) in &mz.relocs {
        let at = (usize::from(seg) << 4) + usize::from(off);
        if let Some(&[a, b]) = mz.image.get(at..at + 2) {
            p.push(u16::from_le_bytes([a, b]));
        }
    }
    let paras = mz.image.len().div_ceil(16);
    p.retain(|&x| usize::from(x) < paras.max(1));
    p.sort_unstable();
    p.dedup();
    p
}

/// A DOS program's units: `bytes` is the load image (a .COM's from 0100h
/// of the PSP), `paragraphs` its segments.
#[allow(clippy::too_many_arguments)]
fn dos_units(
    module: &str,
    image: &[u8],
    com: bool,
    paragraphs: &[u16],
    entry: (u16, u16),
    relocs: &[(u16, u16)],
    table: Rc<SymbolTable>,
    only: Option<u16>,
) -> Result<Vec<Unit>, String> {
    if let Some(n) = only {
        if n == 0 || usize::from(n) > paragraphs.len() {
            return Err(format!(
                "--segment {n}: the program has segments 1 to {} ({})",
                paragraphs.len(),
                paragraphs
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{} = paragraph {p:04X}", i + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    // Relocated words, by linear offset in the image.
    let mut relocated = BTreeMap::new();
    for &(off, seg) in relocs {
        let at = (u32::from(seg) << 4) + u32::from(off);
        if let Some(&[a, b]) = image.get(at as usize..at as usize + 2) {
            relocated.insert(at, u16::from_le_bytes([a, b]));
        }
    }
    let mut units = Vec::new();
    for (i, &para) in paragraphs.iter().enumerate() {
        let number = i as u16 + 1;
        let wanted = match only {
            Some(n) => n == number,
            None => para == entry.0,
        };
        if !wanted {
            continue;
        }
        // A .COM program's one segment is the PSP's: its code starts at
        // 0100h, which is where the image starts.
        let lead: u32 = if com { 0x100 } else { 0 };
        let base = u32::from(para) << 4;
        let next = paragraphs
            .get(i + 1)
            .map_or(image.len() as u32, |&p| u32::from(p) << 4);
        let end = next.min(base + 0x1_0000 - lead).min(image.len() as u32);
        let first = if only.is_none() {
            base + u32::from(entry.1).saturating_sub(lead)
        } else {
            base
        };
        let bytes = image
            .get(first as usize..(end as usize).max(first as usize))
            .unwrap_or(&[])
            .to_vec();
        let start = (first - base + lead) as u16;
        let mut sites = BTreeMap::new();
        for (&at, &value) in relocated.range(base..base + 0x1_0000) {
            let off = (at - base + lead) as u16;
            sites.insert(
                off,
                Site {
                    width: 2,
                    fixup: Fixup {
                        at: off,
                        kind: "segment",
                        target: format!("seg {value:04X} (+ the load segment)"),
                        import: None,
                    },
                    far: None,
                    imm: Some(format!("seg {value:04X}")),
                    note: Some(format!("relocated: segment {value:04X} + the load segment")),
                    sel: Some(SelTarget::Paragraph(value)),
                },
            );
        }
        let names = Names {
            table: table.clone(),
            naming: Naming::Dos { base },
        };
        let mut labels: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        if para == entry.0 {
            labels
                .entry(entry.1)
                .or_default()
                .push("the program's entry (CS:IP)".into());
        }
        units.push(Unit {
            heading: if com {
                format!(
                    ".COM program: one segment, the PSP's, code from 0100h ({:#06X} bytes)",
                    bytes.len()
                )
            } else {
                format!(
                    "segment {number}: paragraph {para:04X} of the load image, {:#06X} bytes \
                     listed from offset {start:04X}{}",
                    bytes.len(),
                    if para == entry.0 {
                        " (the entry's segment)"
                    } else {
                        ""
                    }
                )
            },
            data: false,
            module: module.to_string(),
            segment: number,
            paragraph: Some(if com { 0 } else { para }),
            bytes,
            start,
            sites,
            labels,
            names,
        });
    }
    Ok(units)
}

/// Add the symbols that start inside a unit as labels.
fn symbol_labels(u: &mut Unit) {
    for off in u32::from(u.start)..u.end() {
        if let Some(name) = u.names.starting(off as u16) {
            let v = u.labels.entry(off as u16).or_default();
            let shown = crate::escape::name(&name).into_owned();
            if !v.contains(&shown) {
                v.insert(0, shown);
            }
        }
    }
}

/// Decode and render one unit from `from` (an offset in it) for at most
/// `count` instructions (all when None).
fn list_unit(u: &Unit, syntax: Syntax, from: u16, count: Option<usize>) -> Vec<Line> {
    let mut fmt_plain = formatter(syntax, Some(u.names.clone()));
    let mut out = Vec::new();
    let mut last_src: Option<crate::symbols::lines::SourceLine> = None;
    let mut off = u32::from(from);
    let end = u.end();
    let max = count.unwrap_or(MAX_LINES).min(MAX_LINES);
    while off < end && out.len() < max {
        let o = off as u16;
        let rel = (off - u32::from(u.start)) as usize;
        let data = &u.bytes[rel..];
        let mut dec = Decoder::with_ip(16, data, u64::from(o), DecoderOptions::NONE);
        let insn = dec.decode();
        let offsets = dec.get_constant_offsets(&insn);
        let next_label = u
            .labels
            .range(o.saturating_add(1)..)
            .next()
            .map(|(&k, _)| u32::from(k))
            .filter(|&k| k > off);
        let mut len = insn.len().max(1) as u32;
        let invalid = insn.is_invalid();
        let crosses = next_label.is_some_and(|k| off + len > k);
        let (text, fixups, notes) = if u.data || invalid || crosses {
            // Data up to the label (or one byte that starts nothing); a
            // data segment 8 bytes a line, up to a label or a fixup.
            len = if u.data {
                let next_site = u
                    .sites
                    .range(o.saturating_add(1)..)
                    .next()
                    .map(|(&k, _)| u32::from(k))
                    .filter(|&k| k > off);
                [Some(off + 8), next_label, next_site, Some(end)]
                    .into_iter()
                    .flatten()
                    .min()
                    .unwrap_or(end)
                    - off
            } else if crosses && !invalid {
                next_label.unwrap_or(off + 1) - off
            } else {
                1
            };
            let bytes = &data[..len as usize];
            let list: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
            let (fixups, notes) = site_notes(u, o, len, &[]);
            (format!("db {}", list.join(",")), fixups, notes)
        } else {
            render(u, &insn, &offsets, syntax, &mut *fmt_plain, o, len)
        };
        let bytes = &data[..len as usize];
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
        // A source line's first instruction says which line it is.
        let src = u.names.line(o);
        let begins = src.is_some() && src != last_src;
        last_src = src.clone();
        let (source, source_text) = match src.filter(|_| begins) {
            Some(l) => (
                Some(l.to_string()),
                crate::symbols::lines::source_text(&l.file, l.line),
            ),
            None => (None, None),
        };
        out.push(Line {
            module: u.module.clone(),
            segment: u.segment,
            paragraph: u.paragraph,
            offset: o,
            address: u.address(o),
            bytes: hex.join(" "),
            text,
            symbol: u.names.at(o).map(|s| s.to_string()),
            labels: u.labels.get(&o).cloned().unwrap_or_default(),
            fixups,
            notes,
            source,
            source_text,
        });
        off += len;
    }
    out
}

/// The fixups inside `[o, o + len)` and the notes for those not in
/// `used` (the offsets an operand showed).
fn site_notes(u: &Unit, o: u16, len: u32, used: &[u16]) -> (Vec<Fixup>, Vec<String>) {
    let mut fixups = Vec::new();
    let mut notes = Vec::new();
    let first = o.saturating_sub(3);
    for (&at, site) in u.sites.range(first..) {
        let (s, e) = (u32::from(at), u32::from(at) + u32::from(site.width));
        if u32::from(at) >= u32::from(o) + len {
            break;
        }
        if e <= u32::from(o) || s >= u32::from(o) + len {
            continue;
        }
        fixups.push(site.fixup.clone());
        if used.contains(&at) {
            if let Some(n) = &site.note {
                notes.push(n.clone());
            }
        } else {
            notes.push(format!(
                "{} at {at:04X}: {}",
                site.fixup.kind, site.fixup.target
            ));
        }
    }
    (fixups, notes)
}

/// One instruction's text, its fixups and its notes.
fn render(
    u: &Unit,
    insn: &Instruction,
    offsets: &iced_x86::ConstantOffsets,
    syntax: Syntax,
    fmt: &mut dyn Formatter,
    o: u16,
    len: u32,
) -> (String, Vec<Fixup>, Vec<String>) {
    let in_insn = u
        .sites
        .range(o.saturating_sub(3)..)
        .take_while(|(at, _)| u32::from(**at) < u32::from(o) + len)
        .any(|(at, s)| u32::from(*at) + u32::from(s.width) > u32::from(o));
    let mut text = String::new();
    if !in_insn {
        fmt.format(insn, &mut text);
        return (text, Vec::new(), Vec::new());
    }
    let site_at = |rel: usize| u.sites.get(&o.wrapping_add(rel as u16));
    let mut used = Vec::new();
    fmt.format_mnemonic(insn, &mut text);
    let n = fmt.operand_count(insn);
    for i in 0..n {
        text.push_str(if i == 0 { " " } else { "" });
        if i > 0 {
            fmt.format_operand_separator(insn, &mut text);
        }
        let k = fmt.get_instruction_operand(insn, i).ok().flatten();
        let replaced = k.and_then(|k| match insn.op_kind(k) {
            OpKind::FarBranch16 if offsets.has_immediate() => {
                let s = site_at(offsets.immediate_offset())
                    .filter(|s| s.far.is_some())
                    .map(|s| {
                        (
                            offsets.immediate_offset(),
                            s.far.clone().unwrap_or_default(),
                        )
                    })
                    .or_else(|| {
                        // A selector or segment word alone: the offset is
                        // in the bytes.
                        let rel = offsets.immediate_offset2();
                        let off = insn.far_branch16();
                        let t = match site_at(rel)?.sel.as_ref()? {
                            SelTarget::Ne(n) => match u.names.table.lookup(*n, u32::from(off)) {
                                Some(name) => name.to_string(),
                                None => format!("{}:{n}:{off:04X}", u.module),
                            },
                            SelTarget::Paragraph(p) => {
                                let lin = (u32::from(*p) << 4) + u32::from(off);
                                match u.names.table.lookup_linear(lin) {
                                    Some(name) => format!("{p:04X}:{off:04X} {name}"),
                                    None => format!("{p:04X}:{off:04X}"),
                                }
                            }
                        };
                        Some((rel, t))
                    });
                s.map(|(rel, t)| {
                    used.push(o.wrapping_add(rel as u16));
                    if syntax == Syntax::Gas {
                        t
                    } else {
                        format!("far {t}")
                    }
                })
            }
            OpKind::Immediate16 | OpKind::Immediate8to16 if offsets.has_immediate() => {
                let rel = offsets.immediate_offset();
                site_at(rel)
                    .and_then(|s| s.imm.clone())
                    .inspect(|_| used.push(o.wrapping_add(rel as u16)))
            }
            _ => None,
        });
        match replaced {
            Some(t) => text.push_str(&t),
            None => {
                let _ = fmt.format_operand(insn, &mut text, i);
            }
        }
    }
    let (fixups, notes) = site_notes(u, o, len, &used);
    (text, fixups, notes)
}

/// Where `--at` points, in the listing's units: (unit index, offset).
fn resolve_at(
    loc: &Loc,
    units: &[Unit],
    module: &str,
    ne: Option<&NeImage>,
    table: &SymbolTable,
) -> Result<(usize, u16), String> {
    let same = |m: &str| m.eq_ignore_ascii_case(module);
    let find = |seg: u16, off: u16| -> Result<(usize, u16), String> {
        units
            .iter()
            .position(|u| {
                u.segment == seg && u32::from(off) >= u32::from(u.start) && u32::from(off) < u.end()
            })
            .map(|i| (i, off))
            .ok_or_else(|| format!("{seg}:{off:04X} is not in the listed code"))
    };
    match loc {
        // The listing from the function's entry shows its prologue too.
        Loc::AfterPrologue(inner) => resolve_at(inner, units, module, ne, table),
        Loc::ModuleSeg {
            module: m,
            segment,
            offset,
            ..
        } if same(m) && ne.is_some() => find(crate::session::ne_segment(m, *segment)?, *offset),
        Loc::ModuleSeg { module: m, .. } if !same(m) => {
            Err(format!("the file's module is {module}, not {m}"))
        }
        Loc::SegOff { seg, offset } => match ne {
            Some(_) => find(*seg, *offset),
            None => units
                .iter()
                .position(|u| {
                    (u.paragraph == Some(*seg) || units.len() == 1)
                        && u32::from(*offset) >= u32::from(u.start)
                        && u32::from(*offset) < u.end()
                })
                .map(|i| (i, *offset))
                .or_else(|| {
                    // Another paragraph naming the same byte (A:75 is
                    // 0010:0015), as `stack --at` takes it: the segment
                    // that holds its linear address.
                    let linear = (u32::from(*seg) << 4) + u32::from(*offset);
                    units.iter().enumerate().find_map(|(i, u)| {
                        let base = u32::from(u.paragraph?) << 4;
                        let off = linear.checked_sub(base)?;
                        (off >= u32::from(u.start) && off < u.end()).then_some((i, off as u16))
                    })
                })
                .ok_or_else(|| {
                    format!(
                        "{seg:04X}:{offset:04X} is not in the program's image (segments: {})",
                        units
                            .iter()
                            .filter_map(|u| u.paragraph.map(|p| format!("{p:04X}")))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }),
        },
        Loc::Ordinal { module: m, ordinal } if same(m) => {
            let ne = ne.ok_or("#N names an NE entry point; this is a DOS program")?;
            let e = ne
                .entries
                .iter()
                .find(|e| e.ordinal == *ordinal && e.segment != 0 && e.segment != 0xFE)
                .ok_or_else(|| format!("{m} has no entry point @{ordinal} in a segment"))?;
            find(u16::from(e.segment), e.offset)
        }
        Loc::Export { module: m, name } if same(m) => {
            let mut found = table.by_name(name);
            // The same address from two sources (the names table and a
            // map) is one place.
            found.sort_by_key(|s| (s.segment, s.offset, s.frame));
            found.dedup_by_key(|s| (s.segment, s.offset, s.frame));
            match found.as_slice() {
                [] => Err(format!("no symbol {name} in {m}")),
                [s] => match ne {
                    Some(_) => find(s.segment, s.offset as u16),
                    None => {
                        let f = s
                            .frame
                            .as_ref()
                            .ok_or_else(|| format!("{name}: the map gives no segment for it"))?;
                        let lin = (u32::from(f.frame) << 4) + f.offset;
                        let (i, u) = units
                            .iter()
                            .enumerate()
                            .rfind(|(_, u)| {
                                let b = u32::from(u.paragraph.unwrap_or(0)) << 4;
                                lin >= b && lin - b < 0x1_0000
                            })
                            .ok_or_else(|| format!("{name} is not in the listed code"))?;
                        Ok((i, (lin - (u32::from(u.paragraph.unwrap_or(0)) << 4)) as u16))
                    }
                },
                many => Err(format!(
                    "{name} names {} symbols: {}",
                    many.len(),
                    many.iter()
                        .map(|s| format!("{}:{:04X}", s.segment, s.offset))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        Loc::Export { module: m, .. } | Loc::Ordinal { module: m, .. } => {
            Err(format!("the file's module is {module}, not {m}"))
        }
        Loc::After(_) => Err("+N counts executed instructions; disasm runs nothing".into()),
        // A DOS program's MODULE:PARA:OFF: the paragraph of its load
        // image (hex, as the listing's headings give it), as PARA:OFF.
        Loc::ModuleSeg { para, offset, .. } => resolve_at(
            &Loc::SegOff {
                seg: crate::session::dos_paragraph(*para)?,
                offset: *offset,
            },
            units,
            module,
            ne,
            table,
        ),
    }
}

/// A location naming a built-in DLL's function (`USER!GetMessage`,
/// `GDI!#20`, `USER.108`) in a file whose module is another: its
/// description (`USER.108 GetMessage`) and ordinal, or why the module has
/// no such function.
fn system_function(loc: &Loc, module: &str) -> Option<Result<(String, u16), String>> {
    use crate::win16::sysexport;
    let (m, name, ordinal) = match loc {
        Loc::Export { module, name } => (module, Some(name.as_str()), None),
        Loc::Ordinal { module, ordinal } => (module, None, Some(*ordinal)),
        _ => return None,
    };
    if m.eq_ignore_ascii_case(module) || !sysexport::is_builtin(m) {
        return None;
    }
    Some(sysexport::function(m, name, ordinal).map(|o| (sysexport::describe(m, o), o)))
}

/// The listing of a parsed file. `symbols` builds the module's symbol
/// table (the registry of the run's `--map`/`--sym` and the files beside
/// it); `module` is the DOS program's name.
pub fn listing(
    image: &Image,
    module: &str,
    symbols: &dyn Fn(&crate::symbols::fit::Target<'_>) -> Result<Rc<SymbolTable>, String>,
    opts: &Options,
) -> Result<Listing, String> {
    let mut notes = Vec::new();
    // With --at, every segment is a candidate; the listing is the one
    // holding LOC.
    let only = if opts.at.is_some() {
        None
    } else {
        opts.segment
    };
    let (mut units, module, ne) = match image {
        Image::Ne(ne) => {
            let table = symbols(&crate::symbols::fit::Target::Ne(ne))?;
            let name = ne.module_name().unwrap_or("").to_ascii_uppercase();
            let all = if opts.at.is_some() {
                let mut v = Vec::new();
                for s in 1..=ne.segments.len() as u16 {
                    v.extend(ne_units(ne, table.clone(), Some(s), &mut notes)?);
                }
                v
            } else {
                ne_units(ne, table, only, &mut notes)?
            };
            (all, name, Some(ne))
        }
        Image::Mz(mz) => {
            let image_len = (mz.image.len() as u32)
                .saturating_add(u32::from(mz.header.e_minalloc) << 4)
                .min(0xA_0000);
            let table = symbols(&crate::symbols::fit::Target::Dos { image_len })?;
            let paras = mz_paragraphs(mz);
            let h = &mz.header;
            let mut units = Vec::new();
            if opts.at.is_some() {
                for n in 1..=paras.len() as u16 {
                    units.extend(dos_units(
                        module,
                        &mz.image,
                        false,
                        &paras,
                        (h.e_cs, h.e_ip),
                        &mz.relocs,
                        table.clone(),
                        Some(n),
                    )?);
                }
            } else {
                units = dos_units(
                    module,
                    &mz.image,
                    false,
                    &paras,
                    (h.e_cs, h.e_ip),
                    &mz.relocs,
                    table,
                    only,
                )?;
            }
            (units, module.to_string(), None)
        }
        Image::Com(c) => {
            let table = symbols(&crate::symbols::fit::Target::Dos {
                image_len: 0x1_0000,
            })?;
            let mut image = vec![0u8; 0x100];
            image.extend_from_slice(&c.bytes);
            let units = dos_units(
                module,
                &image[0x100..],
                true,
                &[0],
                (0, 0x100),
                &[],
                table,
                if opts.at.is_some() { Some(1) } else { only },
            )?;
            (units, module.to_string(), None)
        }
        Image::Raw(_) => {
            return Err(
                "a raw image or boot sector has no segments or entry to list: use `trace`".into(),
            );
        }
    };
    for u in &mut units {
        symbol_labels(u);
    }
    let mut sections = Vec::new();
    if let Some(f) = opts.at.as_ref().and_then(|l| system_function(l, &module)) {
        // A built-in DLL's function: no x86 code of its own to list, so
        // the instructions that call it.
        let (what, ordinal) = f?;
        let (m, name) = match opts.at.as_ref() {
            Some(Loc::Export { module, .. } | Loc::Ordinal { module, .. }) => (
                module.to_ascii_uppercase(),
                crate::loader::ordnames::ordinal_name(module, ordinal),
            ),
            _ => (String::new(), None),
        };
        let calls = |i: &ImportRef| {
            i.module.eq_ignore_ascii_case(&m)
                && (i.ordinal == Some(ordinal)
                    || name.is_some_and(|n| {
                        i.name.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(n))
                    }))
        };
        notes.push(format!(
            "{what} is built into toolhelp16 (Rust, no x86 code to list): a program's import of \
             it resolves to a thunk (INT F0h; RETF) made when the program loads, where `stack \
             --at` and breakpoints on it stop; listed are this file's instructions that refer \
             to it"
        ));
        for u in &units {
            let lines: Vec<Line> = list_unit(u, opts.syntax, u.start, None)
                .into_iter()
                .filter(|l| {
                    l.fixups
                        .iter()
                        .any(|x| x.import.as_ref().is_some_and(calls))
                })
                .collect();
            if !lines.is_empty() {
                sections.push(Section {
                    heading: format!("{}: references to {what}", u.heading),
                    lines,
                });
            }
        }
        if sections.is_empty() {
            notes.push(format!("this file does not import {what}"));
        }
        return Ok(Listing { sections, notes });
    }
    match &opts.at {
        Some(loc) => {
            let table = units
                .first()
                .map(|u| u.names.table.clone())
                .unwrap_or_default();
            let (i, off) = resolve_at(loc, &units, &module, ne, &table)?;
            let u = &units[i];
            let lines = list_unit(u, opts.syntax, off, Some(opts.count.unwrap_or(20)));
            sections.push(Section {
                heading: u.heading.clone(),
                lines,
            });
        }
        None => {
            for u in &units {
                sections.push(Section {
                    heading: u.heading.clone(),
                    lines: list_unit(u, opts.syntax, u.start, None),
                });
            }
        }
    }
    if sections.is_empty() {
        notes.push("no code segment to list".into());
    }
    Ok(Listing { sections, notes })
}

/// The listing as text: a heading per segment, each label on its own
/// line, then `ADDRESS  BYTES  TEXT ; notes`.
pub fn text(l: &Listing, title: &str) -> String {
    let width = l
        .sections
        .iter()
        .flat_map(|x| &x.lines)
        .map(|x| x.address.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let mut s = String::new();
    let _ = writeln!(s, "; {title}");
    for n in &l.notes {
        let _ = writeln!(s, "; note: {n}");
    }
    for sec in &l.sections {
        let _ = writeln!(s, "\n; {}", sec.heading);
        for line in &sec.lines {
            for lab in &line.labels {
                if lab.starts_with("export @")
                    || lab.starts_with("entry @")
                    || lab.starts_with("the ")
                {
                    let _ = writeln!(s, "{:<w$}  ; {lab}", "", w = width);
                } else {
                    let _ = writeln!(s, "{:<w$}  {lab}:", "", w = width);
                }
            }
            if let Some(src) = &line.source {
                match &line.source_text {
                    Some(t) => {
                        let _ = writeln!(s, "{:<w$}  ; {src}: {}", "", t.trim(), w = width);
                    }
                    None => {
                        let _ = writeln!(s, "{:<w$}  ; {src}", "", w = width);
                    }
                }
            }
            let mut row = format!(
                "{:<w$}  {:<23} {}",
                line.address,
                line.bytes,
                line.text,
                w = width
            );
            if !line.notes.is_empty() {
                row = format!("{row:<w$} ; {}", line.notes.join("; "), w = width + 50);
            }
            s.push_str(&row);
            s.push('\n');
        }
    }
    s
}

/// The listing as JSON lines, one object per [`Line`].
pub fn json_lines(l: &Listing) -> String {
    let mut s = String::new();
    for sec in &l.sections {
        for line in &sec.lines {
            s.push_str(&serde_json::to_string(line).unwrap_or_default());
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::{KindHint, parse};
    use proptest::prelude::*;

    fn no_symbols(_: &crate::symbols::fit::Target<'_>) -> Result<Rc<SymbolTable>, String> {
        Ok(Rc::new(SymbolTable::new()))
    }

    fn list(image: &Image, opts: &Options) -> Result<Listing, String> {
        listing(image, "T", &no_symbols, opts)
    }

    #[test]
    fn the_sample_ne_resolves_its_chain_and_its_import_by_name() {
        // testdata::sample_ne: segment 1 has a chain of three far pointers
        // to USER.1 (at 02, 08, 10), an additive offset to 2:0010 at 14
        // and KERNEL.INITTASK (by name) as a selector at 18.
        let img = parse(&crate::loader::testdata::sample_ne(), KindHint::Auto).unwrap();
        let l = list(
            &img,
            &Options {
                segment: Some(1),
                ..Options::default()
            },
        )
        .unwrap();
        let fixups: Vec<&Fixup> = l.sections[0].lines.iter().flat_map(|x| &x.fixups).collect();
        let at = |o: u16| fixups.iter().find(|f| f.at == o).copied();
        for o in crate::loader::testdata::SAMPLE_CHAIN {
            let f = at(o as u16).unwrap_or_else(|| panic!("no fixup at {o:#x}: {fixups:?}"));
            assert_eq!(f.kind, "far pointer");
            assert_eq!(f.target, "USER.MessageBox");
        }
        let f = at(0x18).unwrap();
        assert_eq!(
            (f.kind, f.target.as_str()),
            ("selector", "seg KERNEL.INITTASK")
        );
        let f = at(0x14).unwrap();
        assert_eq!(f.kind, "offset");
        assert!(f.target.starts_with("offset HELLO:2:"), "{}", f.target);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any bytes as a .COM program, and any corruption of an NE file,
        /// list without a panic, within the size bound.
        #[test]
        fn any_bytes_list_without_a_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..600),
            flips in proptest::collection::vec((0usize..0x300, any::<u8>()), 0..12),
            syntax in 0u8..4,
        ) {
            let syntax = [Syntax::Nasm, Syntax::Masm, Syntax::Intel, Syntax::Gas][usize::from(syntax)];
            if let Ok(img) = parse(&bytes, KindHint::Com) {
                let l = list(&img, &Options { syntax, ..Options::default() });
                if let Ok(l) = l {
                    prop_assert!(l.sections.iter().map(|s| s.lines.len()).sum::<usize>() <= bytes.len());
                }
            }
            let mut ne = crate::loader::testdata::sample_ne();
            for (at, v) in flips {
                if at < ne.len() {
                    ne[at] = v;
                }
            }
            if let Ok(img) = parse(&ne, KindHint::Auto) {
                let _ = list(&img, &Options { syntax, ..Options::default() });
                for n in 0..4 {
                    let _ = list(&img, &Options { syntax, segment: Some(n), ..Options::default() });
                }
            }
        }
    }
}
