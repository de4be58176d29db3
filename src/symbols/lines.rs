//! Source lines and functions from debug information: the shared shape
//! every debug format is read into ([`DebugInfo`], still in the linker's
//! frames), and the table fitted to an executable ([`LineTable`]) that
//! answers "which `file:line` and which function holds this address".
//!
//! A debug format says where code is as the linker placed it: a segment
//! value (for a segmented executable the NE segment number, for a DOS
//! program a paragraph from the start of the load image) and an offset.
//! [`fit`] turns those into the keys the symbol tables use: NE segment
//! number and offset, or for a DOS program the linear offset from the
//! load image's start (kept under segment [`DOS_SEGMENT`]).

use std::fmt;
use std::rc::Rc;

use super::fit::Target;

/// The most line rows kept from one executable.
pub const MAX_ROWS: usize = 1_000_000;
/// The most functions kept from one executable.
pub const MAX_FUNCTIONS: usize = 250_000;
/// The most parameters and locals kept for one function.
pub const MAX_PARAMS: usize = 64;

/// The segment key under which a DOS program's rows and functions are
/// kept: their offsets are linear, from the load image's start (NE
/// segment numbers start at 1, so 0 is free).
pub const DOS_SEGMENT: u16 = 0;

/// A place in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLine {
    /// The file as the debug information names it (often a full path of
    /// the machine that compiled it).
    pub file: Rc<str>,
    /// The 1-based line.
    pub line: u32,
}

impl SourceLine {
    /// The file's last path component (either separator).
    pub fn file_name(&self) -> &str {
        self.file.rsplit(['/', '\\']).next().unwrap_or(&self.file)
    }
}

impl fmt::Display for SourceLine {
    /// `file.c:12`, the file by its last path component.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file_name(), self.line)
    }
}

/// A parameter or local variable whose place the debug information gives
/// relative to the frame's BP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The name.
    pub name: String,
    /// Whether it is a parameter (else a local).
    pub is_param: bool,
    /// Its place: `[BP + bp_offset]`.
    pub bp_offset: i32,
}

impl fmt::Display for Param {
    /// `name=[BP+6]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bp_offset < 0 {
            write!(f, "{}=[BP-{}]", self.name, -i64::from(self.bp_offset))
        } else {
            write!(f, "{}=[BP+{}]", self.name, self.bp_offset)
        }
    }
}

/// A parameter of a walked frame: its place and the word there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamValue {
    /// The parameter and its place.
    pub param: Param,
    /// The word at `SS:[BP + offset]` of the frame, when it could be read
    /// and the frame has been set up (not at the function's prologue).
    pub value: Option<u16>,
}

impl fmt::Display for ParamValue {
    /// `a=[BP-16]=0x0005` (or `a=[BP-16]` without a value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(v) => write!(f, "{}={v:#06x}", self.param),
            None => write!(f, "{}", self.param),
        }
    }
}

/// A frame table's line of parameters (`args: a=[BP-16]=0x0005, ...`),
/// indented under the frame; empty when there are none.
pub fn params_line(params: &[ParamValue]) -> String {
    if params.is_empty() {
        return String::new();
    }
    let list: Vec<String> = params
        .iter()
        .map(|p| crate::escape::name(&p.to_string()).into_owned())
        .collect();
    format!("       args: {}\n", list.join(", "))
}

/// A function as debug information describes it, in the linker's frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFunction {
    /// The name.
    pub name: String,
    /// Segment value (NE segment number, or DOS paragraph).
    pub segment: u16,
    /// First byte.
    pub start: u32,
    /// One past the last byte, when the format says (a label has none).
    pub end: Option<u32>,
    /// Parameters and locals with BP-relative places.
    pub params: Vec<Param>,
}

/// One row of a line program, in the linker's frame: code from `start`
/// up to `end` (exclusive) is line `line` of file `file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawRow {
    /// Segment value.
    pub segment: u16,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Index into [`DebugInfo::files`].
    pub file: u32,
    /// The 1-based line.
    pub line: u32,
}

/// What a debug format says, before it is fitted to an executable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebugInfo {
    /// The format, for messages ("DWARF 2 (Open Watcom)").
    pub format: String,
    /// Source files named by rows.
    pub files: Vec<Rc<str>>,
    /// The line rows.
    pub rows: Vec<RawRow>,
    /// The functions (and labels).
    pub functions: Vec<RawFunction>,
}

impl DebugInfo {
    /// Add a file name; its index.
    pub fn file_index(&mut self, name: &str) -> u32 {
        if let Some(i) = self.files.iter().position(|f| &**f == name) {
            return i as u32;
        }
        self.files.push(Rc::from(super::clip_name(name)));
        (self.files.len() - 1) as u32
    }

    /// Add a row (rows past [`MAX_ROWS`] are dropped). A row may be empty
    /// (`end == start`): Open Watcom ends a sequence at the address of its
    /// last row, a function's closing line, which [`fit`] extends to the
    /// end of the function that holds it.
    pub fn push_row(&mut self, row: RawRow) {
        if self.rows.len() < MAX_ROWS && row.end >= row.start {
            self.rows.push(row);
        }
    }

    /// Add a function (past [`MAX_FUNCTIONS`]: dropped).
    pub fn push_function(&mut self, f: RawFunction) {
        if self.functions.len() < MAX_FUNCTIONS {
            self.functions.push(f);
        }
    }
}

/// A function fitted to the executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name.
    pub name: String,
    /// NE segment number, or [`DOS_SEGMENT`].
    pub segment: u16,
    /// First byte (for a DOS program, linear from the load image).
    pub start: u32,
    /// One past the last byte, when known.
    pub end: Option<u32>,
    /// Parameters and locals with BP-relative places.
    pub params: Vec<Param>,
    /// The linker's segment value and offset (a DOS program's SEG:OFF
    /// from the load image).
    pub raw: super::FrameOff,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    segment: u16,
    start: u32,
    end: u32,
    file: u32,
    line: u32,
}

/// Lines and functions of one module, fitted to its executable.
#[derive(Debug, Clone, Default)]
pub struct LineTable {
    files: Vec<Rc<str>>,
    /// Sorted by (segment, start).
    rows: Vec<Row>,
    /// Sorted by (segment, start).
    functions: Vec<Function>,
    /// The formats read, for `info`.
    pub formats: Vec<String>,
}

/// Fit `info` to `target`: NE segment values must name a segment of the
/// module and lie inside it; a DOS program's frames become linear offsets
/// inside its load image. Rows and functions that do not fit are left out,
/// and counted in the error when none fits.
pub fn fit(info: &DebugInfo, target: &Target<'_>) -> Result<LineTable, String> {
    let place = |segment: u16, start: u32, end: u32| -> Option<(u16, u32, u32)> {
        match target {
            Target::Ne(ne) => {
                let seg = ne.segments.iter().find(|s| s.number == segment)?;
                if seg.is_data() {
                    return None;
                }
                let size = seg.alloc_size().max(seg.file_length());
                (end <= size && start < end.max(start + 1)).then_some((segment, start, end))
            }
            Target::Dos { image_len } => {
                let base = u32::from(segment) << 4;
                let (s, e) = (base.checked_add(start)?, base.checked_add(end)?);
                (e <= *image_len).then_some((DOS_SEGMENT, s, e))
            }
        }
    };
    let mut t = LineTable {
        files: info.files.clone(),
        formats: vec![info.format.clone()],
        ..LineTable::default()
    };
    let mut dropped = 0usize;
    for r in &info.rows {
        if r.file as usize >= info.files.len() {
            dropped += 1;
            continue;
        }
        // An empty last row runs to the end of its function.
        let end = if r.end > r.start {
            r.end
        } else {
            match info
                .functions
                .iter()
                .filter(|f| f.segment == r.segment && f.start <= r.start)
                .filter_map(|f| f.end)
                .filter(|&e| e > r.start)
                .min()
            {
                Some(e) => e,
                None => continue,
            }
        };
        match place(r.segment, r.start, end) {
            Some((segment, start, end)) => t.rows.push(Row {
                segment,
                start,
                end,
                file: r.file,
                line: r.line,
            }),
            None => dropped += 1,
        }
    }
    for f in &info.functions {
        let end = f.end.unwrap_or(f.start.saturating_add(1));
        match place(f.segment, f.start, end) {
            Some((segment, start, end)) => t.functions.push(Function {
                name: f.name.clone(),
                segment,
                start,
                end: f.end.map(|_| end),
                params: f.params.clone(),
                raw: super::FrameOff {
                    frame: f.segment,
                    offset: f.start,
                },
            }),
            None => dropped += 1,
        }
    }
    if t.rows.is_empty() && t.functions.is_empty() && dropped > 0 {
        return Err(format!(
            "none of its {dropped} lines and functions lies in the executable's code"
        ));
    }
    t.rows.sort_unstable();
    t.rows.dedup_by_key(|r| (r.segment, r.start));
    t.functions
        .sort_by(|a, b| (a.segment, a.start, &a.name).cmp(&(b.segment, b.start, &b.name)));
    Ok(t)
}

impl LineTable {
    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.functions.is_empty()
    }

    /// The functions, by address.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// The source files rows name.
    pub fn files(&self) -> &[Rc<str>] {
        &self.files
    }

    /// Take in another table (a second format read from the same file).
    pub fn absorb(&mut self, other: LineTable) {
        let base = self.files.len() as u32;
        self.files.extend(other.files);
        self.rows.extend(other.rows.into_iter().map(|mut r| {
            r.file += base;
            r
        }));
        self.functions.extend(other.functions);
        self.formats.extend(other.formats);
        self.rows.sort_unstable();
        self.rows.dedup_by_key(|r| (r.segment, r.start));
        self.functions
            .sort_by(|a, b| (a.segment, a.start, &a.name).cmp(&(b.segment, b.start, &b.name)));
    }

    fn row_at(&self, segment: u16, offset: u32) -> Option<&Row> {
        let k = self
            .rows
            .partition_point(|r| (r.segment, r.start) <= (segment, offset));
        let r = self.rows.get(k.checked_sub(1)?)?;
        (r.segment == segment && offset < r.end).then_some(r)
    }

    /// The source line of the code at `segment:offset` (NE segment number,
    /// or [`DOS_SEGMENT`] and a linear offset).
    pub fn line(&self, segment: u16, offset: u32) -> Option<SourceLine> {
        let r = self.row_at(segment, offset)?;
        Some(SourceLine {
            file: self.files.get(r.file as usize)?.clone(),
            line: r.line,
        })
    }

    /// The range of code `[start, end)` that holds `segment:offset` and is
    /// one line of source (for stepping by line).
    pub fn line_range(&self, segment: u16, offset: u32) -> Option<(u32, u32)> {
        self.row_at(segment, offset).map(|r| (r.start, r.end))
    }

    /// The first code address of `file:line` (file by full path or last
    /// component, any case): the lowest address of the rows of that line.
    pub fn address_of(&self, file: &str, line: u32) -> Option<(u16, u32)> {
        let wanted = |f: &str| {
            f.eq_ignore_ascii_case(file)
                || f.rsplit(['/', '\\'])
                    .next()
                    .is_some_and(|n| n.eq_ignore_ascii_case(file))
        };
        self.rows
            .iter()
            .filter(|r| {
                r.line == line && self.files.get(r.file as usize).is_some_and(|f| wanted(f))
            })
            .map(|r| (r.segment, r.start))
            .min()
    }

    /// The function whose code holds `segment:offset` (a function with no
    /// end, such as an assembler label, holds nothing but names).
    pub fn function(&self, segment: u16, offset: u32) -> Option<&Function> {
        let k = self
            .functions
            .partition_point(|f| (f.segment, f.start) <= (segment, offset));
        self.functions[..k]
            .iter()
            .rev()
            .take_while(|f| f.segment == segment)
            .find(|f| f.end.is_some_and(|e| offset < e))
    }

    /// Every function named `name` (any case).
    pub fn functions_named(&self, name: &str) -> Vec<&Function> {
        self.functions
            .iter()
            .filter(|f| f.name.eq_ignore_ascii_case(name))
            .collect()
    }
}

/// The text of line `line` of source file `file` (as the debug
/// information names it), when the file can be read here: tabs and
/// control characters shown as spaces, cut at 200 characters. Files are
/// read once per thread and kept.
pub fn source_text(file: &str, line: u32) -> Option<String> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static FILES: RefCell<HashMap<String, Option<Rc<Vec<String>>>>> = RefCell::new(HashMap::new());
    }
    let lines = FILES.with(|f| {
        let mut f = f.borrow_mut();
        if f.len() > 256 && !f.contains_key(file) {
            f.clear();
        }
        f.entry(file.to_string())
            .or_insert_with(|| read_source(file).map(Rc::new))
            .clone()
    })?;
    let text = lines.get(usize::try_from(line).ok()?.checked_sub(1)?)?;
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    Some(clean.trim_end().to_string())
}

/// A source file's lines, when it is a readable file of at most 16 MiB.
fn read_source(file: &str) -> Option<Vec<String>> {
    use std::io::Read;
    let f = std::fs::File::open(file).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    f.take(16 << 20).read_to_end(&mut bytes).ok()?;
    Some(
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

/// A frame table's symbol column: `NAME+0x12`, then ` at FILE:LINE` when
/// debug information gives the line; `-` when neither is known.
pub fn symbol_cell(symbol: Option<String>, line: Option<&SourceLine>) -> String {
    let mut s = symbol
        .map(|m| crate::escape::name(&m).into_owned())
        .unwrap_or_else(|| "-".into());
    if let Some(l) = line {
        s.push_str(" at ");
        s.push_str(&crate::escape::name(&l.to_string()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> DebugInfo {
        let mut d = DebugInfo {
            format: "test".into(),
            ..DebugInfo::default()
        };
        let f = d.file_index("/src/t.c");
        d.push_row(RawRow {
            segment: 1,
            start: 0,
            end: 0x10,
            file: f,
            line: 3,
        });
        d.push_row(RawRow {
            segment: 1,
            start: 0x10,
            end: 0x18,
            file: f,
            line: 5,
        });
        d.push_function(RawFunction {
            name: "leaf".into(),
            segment: 1,
            start: 0,
            end: Some(0x18),
            params: vec![Param {
                name: "a".into(),
                is_param: true,
                bp_offset: 6,
            }],
        });
        d
    }

    #[test]
    fn a_dos_frame_becomes_a_linear_offset() {
        let t = fit(&info(), &Target::Dos { image_len: 0x100 }).unwrap();
        assert_eq!(t.line(DOS_SEGMENT, 0x14).unwrap().to_string(), "t.c:3");
        assert_eq!(t.line(DOS_SEGMENT, 0x24).unwrap().to_string(), "t.c:5");
        assert_eq!(t.line(DOS_SEGMENT, 0x28), None);
        assert_eq!(t.line(DOS_SEGMENT, 0x0F), None);
        assert_eq!(t.function(DOS_SEGMENT, 0x27).unwrap().name, "leaf");
        assert_eq!(t.function(DOS_SEGMENT, 0x28), None);
        assert_eq!(t.address_of("T.C", 5), Some((DOS_SEGMENT, 0x20)));
        assert_eq!(t.line_range(DOS_SEGMENT, 0x22), Some((0x20, 0x28)));
        assert_eq!(
            t.function(DOS_SEGMENT, 0x20).unwrap().params[0].to_string(),
            "a=[BP+6]"
        );
    }

    #[test]
    fn nothing_in_the_image_is_an_error() {
        assert!(fit(&info(), &Target::Dos { image_len: 0x10 }).is_err());
    }
}
