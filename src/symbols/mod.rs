//! Symbols: names for code addresses, from every source a Windows 3.1
//! developer had.
//!
//! * the NE resident and non-resident names tables (the exports every NE
//!   file carries; win16.md, "NE format");
//! * Microsoft LINK `.MAP` files ([`msmap`]) and Open Watcom wlink `.MAP`
//!   files ([`wmap`]);
//! * MAPSYM `.SYM` files, versions 3.x to 6.x ([`mapsym`]), the files the
//!   Windows debuggers loaded;
//! * debug information inside the executable: Open Watcom's DWARF
//!   ([`dwarf`]), CodeView 4 ([`codeview`]) and the Watcom format
//!   ([`watdbg`]), giving functions with
//!   their extents and parameters' places, and source lines ([`lines`]).
//!
//! A map's segment (frame) numbers are the linker's, not NE segment numbers
//! or selectors: [`fit`] derives the correspondence from the NE segment
//! table and refuses a map that does not fit the executable. Lookups give
//! the nearest preceding symbol within the same segment (a symbol never
//! spans a segment boundary); Microsoft's 16-bit C++ names are demangled
//! for display ([`demangle`]) with the raw name kept.
//!
//! [`Registry`] keeps the tables of a run: the program's and each DLL's,
//! found beside the file by stem (any case) or given with `--map`/`--sym`.

pub mod codeview;
pub mod demangle;
pub mod dwarf;
pub mod extent;
pub mod fit;
pub mod lines;
pub mod mapsym;
pub mod msmap;
pub mod watdbg;
pub mod wmap;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The largest symbol file read (a `.MAP` of a large program is a few
/// megabytes; a `.SYM` cannot address more than 1 MiB plus its 24-bit
/// tables).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The most symbols taken from one file.
pub const MAX_SYMBOLS: usize = 250_000;
/// The longest name kept (longer names are cut, with `...`).
pub const MAX_NAME: usize = 1024;

/// Where in a symbol file a problem lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// A text file's 1-based line.
    Line(usize),
    /// A binary file's byte offset.
    Offset(u64),
    /// The file as a whole.
    File,
}

/// A symbol file that cannot be read, or that does not fit its executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymError {
    /// Where in the file.
    pub at: At,
    /// What was wrong.
    pub what: String,
}

impl SymError {
    /// An error at line `n` of a text file.
    pub fn line(n: usize, what: impl Into<String>) -> SymError {
        SymError {
            at: At::Line(n),
            what: what.into(),
        }
    }
    /// An error at byte offset `o` of a binary file.
    pub fn offset(o: u64, what: impl Into<String>) -> SymError {
        SymError {
            at: At::Offset(o),
            what: what.into(),
        }
    }
    /// An error about the file as a whole.
    pub fn file(what: impl Into<String>) -> SymError {
        SymError {
            at: At::File,
            what: what.into(),
        }
    }
    /// The message with the file's name in front.
    pub fn in_file(&self, path: &Path) -> String {
        match self.at {
            At::Line(n) => format!("{}: line {n}: {}", path.display(), self.what),
            At::Offset(o) => format!("{}: offset {o:#X}: {}", path.display(), self.what),
            At::File => format!("{}: {}", path.display(), self.what),
        }
    }
}

impl fmt::Display for SymError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            At::Line(n) => write!(f, "line {n}: {}", self.what),
            At::Offset(o) => write!(f, "offset {o:#X}: {}", self.what),
            At::File => f.write_str(&self.what),
        }
    }
}

/// Where a symbol came from; at one address the better source names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Debug information in the executable (a function's own name).
    Debug,
    /// A MAPSYM `.SYM` file.
    Sym,
    /// A linker `.MAP` file.
    Map,
    /// The NE resident names table.
    Resident,
    /// The NE non-resident names table.
    NonResident,
    /// The NE entry point (`ne_csip`), named `(entry)` over its function.
    Entry,
    /// No name covers the code: `SEGn+0xOFF`, from the segment's start
    /// ([`extent`]).
    Segment,
}

impl Source {
    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Source::Debug => "debug information",
            Source::Sym => "sym",
            Source::Map => "map",
            Source::Resident => "resident names",
            Source::NonResident => "non-resident names",
            Source::Entry => "entry point",
            Source::Segment => "segment",
        }
    }

    /// Names from the NE names tables (exports), which name only their
    /// own function's code ([`extent`]).
    pub fn is_export(self) -> bool {
        matches!(self, Source::Resident | Source::NonResident)
    }
}

/// A segment-relative address in a linker map or symbol file, before it is
/// fitted to an executable: a frame (the linker's segment number, or a
/// paragraph for a DOS program) and an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FrameOff {
    /// The frame (paragraph) or segment number.
    pub frame: u16,
    /// An error at byte offset `o` of a binary file.
    pub offset: u32,
}

/// Where a map puts a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegAddr {
    /// `FRAME:OFFSET` (segmented and Watcom maps, `.SYM` files).
    Frame(FrameOff),
    /// A linear address from the start of the load image (`00120H`: LINK
    /// maps of DOS programs).
    Linear(u32),
}

/// A segment as a map or symbol file lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSegment {
    /// The name.
    pub name: String,
    /// The class (`CODE`, `DATA`...), when the file says.
    pub class: Option<String>,
    /// Its address.
    pub addr: SegAddr,
    /// Length in bytes, when the file says (`.SYM` files do not).
    pub len: Option<u32>,
    /// Where in the file.
    pub at: At,
}

impl MapSegment {
    /// Does the class name code (`CODE`, `BEGCODE`, `_TEXT`-style classes
    /// end in CODE)? None when the class is unknown.
    pub fn is_code(&self) -> Option<bool> {
        self.class
            .as_ref()
            .map(|c| c.to_ascii_uppercase().ends_with("CODE"))
    }
}

/// A public symbol as a map or symbol file lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapPublic {
    /// The name.
    pub name: String,
    /// Its address.
    pub addr: FrameOff,
    /// Where in the file.
    pub at: At,
}

/// What a map or symbol file says, before it is fitted to an executable.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// The format, for messages ("Microsoft LINK map", "MAPSYM 5.1").
    pub format: String,
    /// The module the file names (a LINK map's first line, wlink's
    /// "Executable Image", a `.SYM` map name).
    pub module: Option<String>,
    /// The map's segments.
    pub segments: Vec<MapSegment>,
    /// The map's public symbols.
    pub publics: Vec<MapPublic>,
    /// Source lines the map lists (LINK `/LINENUMBERS`), in its frames.
    pub lines: Option<lines::DebugInfo>,
}

impl Layout {
    /// Add a public symbol read at text line `line`.
    pub(crate) fn push_public(
        &mut self,
        name: &str,
        addr: FrameOff,
        line: usize,
    ) -> Result<(), SymError> {
        if self.publics.len() >= MAX_SYMBOLS {
            return Err(SymError::line(
                line,
                format!("more than {MAX_SYMBOLS} symbols"),
            ));
        }
        self.publics.push(MapPublic {
            name: clip_name(name),
            addr,
            at: At::Line(line),
        });
        Ok(())
    }

    /// The layout, or `why` when it lists neither segments nor symbols.
    pub(crate) fn nonempty(self, why: &str) -> Result<Layout, SymError> {
        if self.segments.is_empty() && self.publics.is_empty() {
            Err(SymError::file(why))
        } else {
            Ok(self)
        }
    }
}

/// Read a symbol file, by its contents: a MAPSYM file is binary, a map is
/// text (wlink's says so in its first lines).
pub fn parse_file(path: &Path) -> Result<Vec<Layout>, String> {
    let bytes = read_bounded(path)?;
    parse_bytes(&bytes, path.extension().and_then(|e| e.to_str())).map_err(|e| e.in_file(path))
}

/// [`parse_file`] on bytes; `ext` (`sym`, `map`) breaks a tie.
pub fn parse_bytes(bytes: &[u8], ext: Option<&str>) -> Result<Vec<Layout>, SymError> {
    let is_sym = ext.is_some_and(|e| e.eq_ignore_ascii_case("sym")) || !looks_like_text(bytes);
    if is_sym {
        return mapsym::parse(bytes);
    }
    let text = String::from_utf8_lossy(bytes);
    if wmap::is_watcom(&text) {
        wmap::parse(&text).map(|l| vec![l])
    } else {
        msmap::parse(&text).map(|l| vec![l])
    }
}

fn looks_like_text(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    !head.is_empty()
        && head.iter().all(|&b| {
            b == b'\r'
                || b == b'\n'
                || b == b'\t'
                || b == 0x0C
                || (0x20..0x7F).contains(&b)
                || b >= 0x80
        })
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{}: larger than {} MiB; not a symbol file this tool reads",
            path.display(),
            MAX_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// Cut an over-long name.
pub(crate) fn clip_name(s: &str) -> String {
    if s.len() <= MAX_NAME {
        return s.to_string();
    }
    let mut end = MAX_NAME;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// One named address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name as the file has it (mangled, for C++).
    pub raw: String,
    /// The name to show: demangled when it is a Microsoft C++ name.
    pub display: String,
    /// NE segment number; for a DOS program, the 1-based index of the map
    /// segment.
    pub segment: u16,
    /// Offset in the NE segment; for a DOS program, from the map segment's
    /// start.
    pub offset: u32,
    /// For a DOS program: the frame (paragraph from the load image's start)
    /// and offset the map gives, to form SEG:OFF at run time.
    pub frame: Option<FrameOff>,
    /// Where the name comes from.
    pub source: Source,
}

/// A resolved address: the symbol at or before it, and the distance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolRef {
    /// The name as shown (demangled).
    pub display: String,
    /// The name as the source spells it.
    pub raw: String,
    /// Bytes from the symbol's start.
    pub displacement: u32,
    /// Where the name comes from.
    pub source: Source,
}

impl fmt::Display for SymbolRef {
    /// `NAME` at the symbol's first byte, else `NAME+0x12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.displacement == 0 {
            f.write_str(&self.display)
        } else {
            write!(f, "{}+{:#x}", self.display, self.displacement)
        }
    }
}

/// The symbol of a walked frame's CS:IP, given `lookup` (the symbol at an
/// IP of that CS). A return address (`exact` false) is looked up one byte
/// back, inside the call that pushed it, so a call that ends a function is
/// not named by the next one; the displacement still counts to the
/// address itself.
pub fn frame_lookup(
    ip: u16,
    exact: bool,
    lookup: impl Fn(u16) -> Option<SymbolRef>,
) -> Option<SymbolRef> {
    if exact || ip == 0 {
        return lookup(ip);
    }
    let mut s = lookup(ip - 1)?;
    s.displacement += 1;
    Some(s)
}

#[derive(Debug, Clone, Default)]
struct SegIndex {
    /// (offset, symbol index) sorted by offset; at one offset the best
    /// source only.
    sorted: Vec<(u32, usize)>,
    /// Bytes the segment holds, when known: no symbol covers past it.
    size: Option<u32>,
}

/// The symbols of one module, looked up by address or by name.
#[derive(Debug, Clone, Default)]
pub struct SymbolTable {
    symbols: Vec<Symbol>,
    segments: HashMap<u16, SegIndex>,
    /// For a DOS program: map segment index → (linear start, length), from
    /// the start of the load image.
    linear: Vec<(u32, u32, u16)>,
    by_name: HashMap<String, Vec<usize>>,
    /// Where the symbols came from (paths and tables), for `info`.
    pub sources: Vec<String>,
    /// The kinds of symbol source used, each with what it was (a file's
    /// path, a table, a debug format), for `--json`: `exports` (the NE
    /// names tables), `map`, `sym`, `debug information`.
    pub used: Vec<(&'static str, String)>,
    /// Source lines and functions from the executable's debug information.
    pub lines: lines::LineTable,
    /// (NE segment, offset) of an export → the end of its function, read
    /// from the code ([`extent`]).
    ends: HashMap<(u16, u32), u32>,
    /// The NE entry point: segment, offset, end of its function.
    entry: Option<(u16, u32, u32)>,
}

impl SymbolTable {
    /// An empty table.
    pub fn new() -> SymbolTable {
        SymbolTable::default()
    }

    /// Symbols, in the order they were added.
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// Whether it names nothing.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Say how many bytes NE segment (or map segment) `segment` holds.
    pub fn set_segment_size(&mut self, segment: u16, size: u32) {
        self.segments.entry(segment).or_default().size = Some(size);
    }

    /// Add a linear range (DOS program) for map segment `segment`.
    pub fn add_linear_segment(&mut self, segment: u16, start: u32, len: u32) {
        self.linear.push((start, len, segment));
        self.set_segment_size(segment, len);
    }

    /// Add a symbol (call [`SymbolTable::finish`] after the last).
    pub fn push(
        &mut self,
        raw: &str,
        segment: u16,
        offset: u32,
        frame: Option<FrameOff>,
        source: Source,
    ) {
        if self.symbols.len() >= MAX_SYMBOLS {
            return;
        }
        let raw = clip_name(raw);
        let display = demangle::demangle(&raw).unwrap_or_else(|| raw.clone());
        self.symbols.push(Symbol {
            raw,
            display,
            segment,
            offset,
            frame,
            source,
        });
    }

    /// Take in what `other` holds (symbols, segment sizes, DOS ranges);
    /// call [`SymbolTable::finish`] after.
    pub(crate) fn absorb(&mut self, other: SymbolTable) {
        let room = MAX_SYMBOLS.saturating_sub(self.symbols.len());
        self.symbols.extend(other.symbols.into_iter().take(room));
        for (seg, idx) in other.segments {
            if let Some(size) = idx.size {
                self.set_segment_size(seg, size);
            }
        }
        self.linear.extend(other.linear);
    }

    /// Sort and index what was pushed.
    pub fn finish(&mut self) {
        for s in self.segments.values_mut() {
            s.sorted.clear();
        }
        self.by_name.clear();
        let mut order: Vec<usize> = (0..self.symbols.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.symbols[a], &self.symbols[b]);
            (x.segment, x.offset, x.source, &x.raw).cmp(&(y.segment, y.offset, y.source, &y.raw))
        });
        for i in order {
            let s = &self.symbols[i];
            let seg = self.segments.entry(s.segment).or_default();
            if seg.sorted.last().is_none_or(|&(o, _)| o != s.offset) {
                seg.sorted.push((s.offset, i));
            }
        }
        for (i, s) in self.symbols.iter().enumerate() {
            self.by_name
                .entry(s.raw.to_ascii_uppercase())
                .or_default()
                .push(i);
            if s.display != s.raw {
                self.by_name
                    .entry(s.display.to_ascii_uppercase())
                    .or_default()
                    .push(i);
                // `Class::Method` without the argument list.
                if let Some(p) = s.display.find('(') {
                    self.by_name
                        .entry(s.display[..p].to_ascii_uppercase())
                        .or_default()
                        .push(i);
                }
            }
        }
        for v in self.by_name.values_mut() {
            v.sort_unstable();
            v.dedup();
        }
        self.linear.sort_unstable();
    }

    /// The symbol naming `offset` in NE segment `segment`: a function of
    /// the debug information that holds it; else the nearest symbol at or
    /// before it from a map or `.SYM`; an export (or the entry point,
    /// `(entry)`) names only the code of its own function ([`extent`]),
    /// and code past it is `SEGn+0xOFF`.
    pub fn lookup(&self, segment: u16, offset: u32) -> Option<SymbolRef> {
        if let Some(f) = self.debug_function(segment, offset) {
            return Some(f);
        }
        let seg = self.segments.get(&segment)?;
        if seg.size.is_some_and(|n| offset >= n) {
            return None;
        }
        let k = seg.sorted.partition_point(|&(o, _)| o <= offset);
        let named = k
            .checked_sub(1)
            .and_then(|j| seg.sorted.get(j))
            .map(|&(o, i)| (o, &self.symbols[i]));
        let symbol_ref = |o: u32, s: &Symbol| SymbolRef {
            display: s.display.clone(),
            raw: s.raw.clone(),
            displacement: offset - o,
            source: s.source,
        };
        if let Some((o, s)) = named {
            if !s.source.is_export() {
                return Some(symbol_ref(o, s));
            }
        }
        let export =
            named.filter(|&(o, _)| self.ends.get(&(segment, o)).is_none_or(|&end| offset < end));
        let entry = self
            .entry
            .filter(|&(es, eo, _)| es == segment && eo <= offset);
        let entry_holds = entry.filter(|&(_, _, end)| offset < end);
        match (export, entry_holds) {
            (Some((o, _)), Some((_, eo, _))) if eo > o => Some(Self::entry_ref(offset - eo)),
            (Some((o, s)), _) => Some(symbol_ref(o, s)),
            (None, Some((_, eo, _))) => Some(Self::entry_ref(offset - eo)),
            (None, None) if named.is_some() || entry.is_some() => Some(SymbolRef {
                display: format!("SEG{segment}"),
                raw: format!("SEG{segment}"),
                displacement: offset,
                source: Source::Segment,
            }),
            (None, None) => None,
        }
    }

    fn entry_ref(displacement: u32) -> SymbolRef {
        SymbolRef {
            display: "(entry)".into(),
            raw: "(entry)".into(),
            displacement,
            source: Source::Entry,
        }
    }

    /// Read the extents of the exports' functions and of the entry point's
    /// from an NE module's code segments ([`extent`]); call after the
    /// exports are pushed.
    pub fn read_extents(&mut self, ne: &crate::loader::ne::NeImage) {
        let code = |n: u16| {
            ne.segments
                .iter()
                .find(|s| s.number == n && !s.is_data() && !s.data.is_empty())
                .map(|s| &s.data[..])
        };
        for s in &self.symbols {
            if s.source.is_export() {
                if let Some(bytes) = code(s.segment) {
                    self.ends
                        .insert((s.segment, s.offset), extent::function_end(bytes, s.offset));
                }
            }
        }
        let (cs, ip) = (ne.header.cs, u32::from(ne.header.ip));
        if let Some(bytes) = code(cs) {
            self.entry = Some((cs, ip, extent::function_end(bytes, ip)));
            self.segments.entry(cs).or_default();
        }
    }

    /// The nearest symbol at or before `linear` (from the load image's
    /// start) in the DOS program's map segment that holds it.
    pub fn lookup_linear(&self, linear: u32) -> Option<SymbolRef> {
        if let Some(f) = self.debug_function(lines::DOS_SEGMENT, linear) {
            return Some(f);
        }
        let k = self
            .linear
            .partition_point(|&(start, _, _)| start <= linear);
        // The last-starting segment that holds the address (LINK lists
        // empty segments too; they hold nothing).
        self.linear[..k]
            .iter()
            .rev()
            .find(|&&(start, len, _)| linear - start < len)
            .and_then(|&(start, _, seg)| self.lookup(seg, linear - start))
    }

    /// The function of the debug information whose code holds `offset`.
    fn debug_function(&self, segment: u16, offset: u32) -> Option<SymbolRef> {
        let f = self.lines.function(segment, offset)?;
        Some(SymbolRef {
            display: f.name.clone(),
            raw: f.name.clone(),
            displacement: offset - f.start,
            source: Source::Debug,
        })
    }

    /// The source line of code at `offset` of NE segment `segment`.
    pub fn line(&self, segment: u16, offset: u32) -> Option<lines::SourceLine> {
        self.lines.line(segment, offset)
    }

    /// The source line of a DOS program's code at `linear` (from the load
    /// image's start).
    pub fn line_linear(&self, linear: u32) -> Option<lines::SourceLine> {
        self.lines.line(lines::DOS_SEGMENT, linear)
    }

    /// Take in debug information fitted to the module: its functions as
    /// symbols (for lookups by name) and its lines.
    pub fn add_debug(&mut self, table: lines::LineTable, image_len: Option<u32>) {
        for f in table.functions() {
            let dos = f.segment == lines::DOS_SEGMENT && image_len.is_some();
            self.push(
                &f.name,
                f.segment,
                f.start,
                dos.then_some(f.raw),
                Source::Debug,
            );
        }
        if let Some(len) = image_len {
            if !table.functions().is_empty() {
                self.add_linear_segment(lines::DOS_SEGMENT, 0, len);
            }
        }
        self.sources.extend(table.formats.iter().cloned());
        for f in &table.formats {
            self.used.push(("debug information", f.clone()));
        }
        if self.lines.is_empty() {
            self.lines = table;
        } else {
            self.lines.absorb(table);
        }
    }

    /// Every symbol named `name` (raw or demangled, any case).
    pub fn by_name(&self, name: &str) -> Vec<&Symbol> {
        self.by_name
            .get(&name.to_ascii_uppercase())
            .map(|v| v.iter().map(|&i| &self.symbols[i]).collect())
            .unwrap_or_default()
    }
}

/// The NE names tables as symbols: every named entry point with a segment.
pub fn ne_names(ne: &crate::loader::ne::NeImage, table: &mut SymbolTable) {
    let entry = |ord: u16| {
        ne.entries
            .iter()
            .find(|e| e.ordinal == ord && e.segment != 0 && e.segment != 0xFE)
    };
    for (list, source) in [
        (&ne.resident_names, Source::Resident),
        (&ne.nonresident_names, Source::NonResident),
    ] {
        // The first entry of each table is the module name / description.
        for (name, ord) in list.iter().skip(1) {
            if let Some(e) = entry(*ord) {
                table.push(
                    name,
                    u16::from(e.segment),
                    u32::from(e.offset),
                    None,
                    source,
                );
            }
        }
    }
    for seg in &ne.segments {
        table.set_segment_size(seg.number, seg.alloc_size().max(seg.file_length()));
    }
    table.read_extents(ne);
    table.sources.push("NE names tables".into());
    table.used.push(("exports", "NE names tables".into()));
}

/// A symbol file the user named (`--map [MODULE=]FILE`, `--sym`).
#[derive(Debug, Clone)]
pub struct Given {
    /// The module it is for, when the user said (`MODULE=FILE`).
    pub module: Option<String>,
    /// The file read.
    pub path: PathBuf,
    /// The maps in it (a file may hold several).
    pub layouts: Vec<Layout>,
}

impl Given {
    /// Read `[MODULE=]FILE`.
    pub fn read(arg: &str) -> Result<Given, String> {
        let (module, file) = match arg.split_once('=') {
            Some((m, f)) if !m.is_empty() && !m.contains(['/', '\\']) => (Some(m.to_string()), f),
            _ => (None, arg),
        };
        let path = PathBuf::from(file);
        let layouts = parse_file(&path)?;
        Ok(Given {
            module,
            path,
            layouts,
        })
    }

    /// The module names this file is for: the user's, else each map's own
    /// name, else the file's stem.
    fn is_for(&self, module: &str, layout: &Layout) -> bool {
        if let Some(m) = &self.module {
            return m.eq_ignore_ascii_case(module);
        }
        if let Some(m) = &layout.module {
            return m.eq_ignore_ascii_case(module);
        }
        self.path
            .file_stem()
            .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case(module))
    }
}

impl Registry {
    /// Take in the source lines of a map that fitted (LINK `/LI`); lines
    /// that do not fit are a warning.
    fn map_lines(&self, path: &Path, layout: &Layout, m: &ModuleInfo<'_>, table: &mut SymbolTable) {
        let Some(info) = &layout.lines else {
            return;
        };
        let image_len = match m.target {
            fit::Target::Dos { image_len } => Some(image_len),
            fit::Target::Ne(_) => None,
        };
        match lines::fit(info, &m.target) {
            Ok(t) => table.add_debug(t, image_len),
            Err(e) => self.warn(format!(
                "{}: its line numbers not used: they do not fit {}: {e}",
                path.display(),
                m.name
            )),
        }
    }

    /// Read the debug information inside the executable `exe`, when it has
    /// any, into `table`; debug information that cannot be read or does
    /// not fit is a warning.
    fn read_debug(&self, exe: &Path, m: &ModuleInfo<'_>, table: &mut SymbolTable) {
        let Ok(bytes) = read_bounded(exe) else {
            return;
        };
        let image_len = match m.target {
            fit::Target::Dos { image_len } => Some(image_len),
            fit::Target::Ne(_) => None,
        };
        let mut infos = Vec::new();
        if dwarf::present(&bytes) {
            infos.push(dwarf::parse(&bytes));
        }
        if codeview::present(&bytes) {
            infos.push(codeview::parse(&bytes));
        }
        if watdbg::present(&bytes) {
            infos.push(watdbg::parse(&bytes));
        }
        for info in infos {
            let fitted = info.map_err(|e| e.in_file(exe)).and_then(|i| {
                lines::fit(&i, &m.target).map_err(|e| {
                    format!(
                        "{}: {} does not fit {}: {e}",
                        exe.display(),
                        i.format,
                        m.name
                    )
                })
            });
            match fitted {
                Ok(t) => table.add_debug(t, image_len),
                Err(e) => self.warn(format!("debug information not used: {e}")),
            }
        }
    }
}

/// `sym` for a MAPSYM file's layout, else `map` (a linker's map).
fn layout_kind(l: &Layout) -> &'static str {
    if l.format.starts_with("MAPSYM") {
        "sym"
    } else {
        "map"
    }
}

/// Files beside `exe` with its stem and extension `ext`, any case.
pub fn beside(exe: &Path, ext: &str) -> Option<PathBuf> {
    let stem = exe.file_stem()?.to_string_lossy().to_string();
    let dir = crate::loader::directory_of(exe);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.file_stem()
                    .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case(&stem))
                && p.extension()
                    .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The symbol tables of a run: built when first asked, per module.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    /// `--map`/`--sym` files.
    pub given: Vec<Given>,
    /// Look for `STEM.map`/`STEM.sym` beside each module's file.
    pub search_beside: bool,
    tables: RefCell<HashMap<String, Rc<SymbolTable>>>,
    /// Things worth saying (a map found beside a module that does not fit
    /// it), each once.
    warnings: RefCell<Vec<String>>,
}

/// What the registry needs to know of a module to build its table.
pub struct ModuleInfo<'a> {
    /// The name.
    pub name: &'a str,
    /// The file read.
    pub path: Option<&'a Path>,
    /// What the module is (NE or DOS), to fit a map against.
    pub target: fit::Target<'a>,
}

impl Registry {
    /// An empty table.
    pub fn new(given: Vec<Given>, search_beside: bool) -> Registry {
        Registry {
            given,
            search_beside,
            ..Registry::default()
        }
    }

    /// Warnings so far (each once), emptied.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.borrow_mut())
    }

    /// Remember a warning to say once.
    pub fn warn(&self, w: String) {
        let mut ws = self.warnings.borrow_mut();
        if !ws.contains(&w) {
            ws.push(w);
        }
    }

    /// The cached table of `name`, if built.
    pub fn cached(&self, name: &str) -> Option<Rc<SymbolTable>> {
        self.tables
            .borrow()
            .get(&name.to_ascii_uppercase())
            .cloned()
    }

    /// The table of a module (built on first use). A given file that does
    /// not fit is an error; a file found beside the module that does not
    /// fit is a warning, and is not used.
    pub fn table(&self, m: &ModuleInfo<'_>) -> Result<Rc<SymbolTable>, String> {
        let key = m.name.to_ascii_uppercase();
        if let Some(t) = self.tables.borrow().get(&key) {
            return Ok(t.clone());
        }
        let t = Rc::new(self.build(m)?);
        self.tables.borrow_mut().insert(key, t.clone());
        Ok(t)
    }

    fn build(&self, m: &ModuleInfo<'_>) -> Result<SymbolTable, String> {
        let mut table = SymbolTable::new();
        if let fit::Target::Ne(ne) = &m.target {
            ne_names(ne, &mut table);
        }
        if let Some(exe) = m.path {
            self.read_debug(exe, m, &mut table);
        }
        let mut used_given = false;
        for g in &self.given {
            for layout in &g.layouts {
                if !g.is_for(m.name, layout) {
                    continue;
                }
                used_given = true;
                // MODULE=FILE: the user says whose map it is, whatever
                // module name the map itself gives.
                let mut layout = layout.clone();
                if g.module.is_some() {
                    layout.module = None;
                }
                fit::fit(&layout, &m.target, &mut table).map_err(|e| {
                    format!(
                        "{}: does not fit {} ({}): {e}",
                        g.path.display(),
                        m.name,
                        layout.format
                    )
                })?;
                table.sources.push(g.path.display().to_string());
                table
                    .used
                    .push((layout_kind(&layout), g.path.display().to_string()));
                self.map_lines(&g.path, &layout, m, &mut table);
            }
        }
        if !used_given && self.search_beside {
            if let Some(exe) = m.path {
                // The linker's map first: the .SYM is made from it (by
                // MAPSYM), and a stale or mis-made one must not name the
                // code over the map it came from. The .SYM serves when
                // there is no map that fits.
                let mut used: Option<PathBuf> = None;
                for ext in ["map", "sym"] {
                    let Some(p) = beside(exe, ext) else { continue };
                    if let Some(u) = &used {
                        self.warn(format!(
                            "{}: names from {}; {} beside it is not used (the linker's map comes \
                             first; give --sym to use the .SYM)",
                            m.name,
                            u.display(),
                            p.display()
                        ));
                        continue;
                    }
                    match parse_file(&p) {
                        Ok(layouts) => {
                            let mut part = SymbolTable::new();
                            let mut fits = true;
                            for layout in &layouts {
                                if let Err(e) = fit::fit(layout, &m.target, &mut part) {
                                    fits = false;
                                    self.warn(format!(
                                        "{}: not used: it does not fit {} ({}): {e}",
                                        p.display(),
                                        m.name,
                                        layout.format
                                    ));
                                }
                            }
                            if fits && !layouts.is_empty() {
                                table.absorb(part);
                                for layout in &layouts {
                                    self.map_lines(&p, layout, m, &mut table);
                                }
                                table.sources.push(p.display().to_string());
                                if let Some(l) = layouts.first() {
                                    table.used.push((layout_kind(l), p.display().to_string()));
                                }
                                used = Some(p);
                            }
                        }
                        Err(e) => self.warn(format!("not used: {e}")),
                    }
                }
            }
        }
        table.finish();
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> SymbolTable {
        let mut t = SymbolTable::new();
        t.push("Start", 1, 0, None, Source::Map);
        t.push("START", 1, 0, None, Source::Resident);
        t.push("WinMain", 1, 0x20, None, Source::Map);
        t.push("Helper", 2, 0x10, None, Source::Map);
        t.set_segment_size(1, 0x40);
        t.set_segment_size(3, 0x100);
        t.finish();
        t
    }

    #[test]
    fn nearest_preceding_within_the_segment() {
        let t = table();
        assert_eq!(t.lookup(1, 0).unwrap().to_string(), "Start");
        assert_eq!(t.lookup(1, 0x1F).unwrap().to_string(), "Start+0x1f");
        assert_eq!(t.lookup(1, 0x25).unwrap().to_string(), "WinMain+0x5");
        // Past the segment's size: nothing, not the last symbol.
        assert_eq!(t.lookup(1, 0x40), None);
        // Before the first symbol of segment 2: nothing from segment 1.
        assert_eq!(t.lookup(2, 0x0F), None);
        assert_eq!(t.lookup(2, 0x10).unwrap().to_string(), "Helper");
        // A segment without symbols.
        assert_eq!(t.lookup(3, 0x20), None);
    }

    #[test]
    fn the_map_names_an_address_before_the_names_table() {
        let t = table();
        assert_eq!(t.lookup(1, 4).unwrap().source, Source::Map);
        assert_eq!(t.by_name("start").len(), 2);
    }

    #[test]
    fn linear_lookups_stay_inside_their_map_segment() {
        let mut t = SymbolTable::new();
        t.add_linear_segment(1, 0, 0x30);
        t.add_linear_segment(2, 0x30, 0x20);
        t.push("main", 1, 0x10, None, Source::Map);
        t.push("data", 2, 0x8, None, Source::Map);
        t.finish();
        assert_eq!(t.lookup_linear(0x14).unwrap().to_string(), "main+0x4");
        // In segment 2 but before its first symbol: not main.
        assert_eq!(t.lookup_linear(0x32), None);
        assert_eq!(t.lookup_linear(0x39).unwrap().to_string(), "data+0x1");
        assert_eq!(t.lookup_linear(0x50), None);
    }
}
