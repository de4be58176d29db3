//! What a reader of a file needs to know about it, as a stable JSON schema
//! (`serde`) and as text.
//!
//! # JSON (`info --json`; the schema is docs/schema/info.json)
//!
//! Numbers are JSON numbers (not hex strings). Every object has:
//!
//! - `format`: `"NE"`, `"MZ"`, `"COM"` or `"raw"`;
//! - `size`: the file size in bytes.
//!
//! `"NE"` adds:
//!
//! - `module` (string: the first resident name, `""` if none),
//!   `description` (string or null: the first non-resident name);
//! - `target_os` (number), `target_os_name` (string);
//! - `flags` (number), `flag_names` (list of strings), `library` (bool);
//! - `entry` (`{"segment", "offset"}`: CS segment number and IP), `ss_sp`
//!   (`{"segment", "offset"}`), `stack`, `heap`, `auto_data_segment`,
//!   `alignment_shift` (effective: 0 in the file means 9);
//! - `expected_windows_version` (string, `"3.10"`), `linker_version`
//!   (string, `"5.60"`: version and revision as decimal numbers);
//! - `segments`: list of `{number, kind ("code"|"data"), file_offset,
//!   file_length, min_alloc, alloc_size, flags, flag_names, relocations
//!   (count), truncated (bool), expanded_length (number or null: what an
//!   iterated segment's records expand to)}` (lengths with 0 = 64 KiB
//!   already applied);
//! - `imports`: list of `{module, functions}` in module-reference-table
//!   order (modules no relocation uses are listed too, with no functions);
//!   `functions` lists `{ordinal (number or null), name (string or null),
//!   name_raw}` (`name` demangled for display, `name_raw` as spelt)
//!   made from the relocation records, deduplicated and sorted by ordinal,
//!   then name; names of ordinal imports and ordinals of named imports come
//!   from [`super::ordnames`] when it knows them;
//! - `exports`: the entry table, list of `{ordinal, name (string or null:
//!   demangled for display), name_raw (as the names table spells it),
//!   segment (254 = constant), offset, movable, exported}`;
//! - `resources`: list of `{type, resources: [{id, file_offset, length,
//!   flags}]}` with `type` and `id` as strings (`"#8"`-style for integer
//!   ids; `type_name` adds the RT_ name of a standard integer type or null);
//! - `refusal`: null, or the message [`super::NeImage::check_runnable`] gives
//!   (as a program for an EXE, as a library for a DLL);
//! - `os2_bound` (bool): an OS/2 bound (Family API) program, whose
//!   real-mode part DOS runs, and `run` with it
//!   ([`super::NeImage::bound_dos_program`]);
//! - `self_loading` (bool): header flag 0x0800, a self-loading application
//!   whose segment 1 loads the others.
//!
//! `"MZ"` adds `cs`, `ip`, `ss`, `sp`, `min_alloc`, `max_alloc` (paragraphs),
//! `header_paragraphs`, `relocations` (count), `image_offset` and
//! `image_size` (the load module's byte range in the file), `checksum`,
//! `overlay`, and when e_lfanew points inside the file `new_exe_offset` and
//! `new_exe_signature` (two characters); `ne_offset` when that is an `NE`.
//!
//! `"COM"` adds `load` and `entry` as offsets in the PSP segment (0x100).
//!
//! `"raw"` adds `load` and `entry` (`{"segment", "offset"}`) and
//! `boot_sector` (bool).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;

use super::ne::{self, NeImage, RelocTarget, ResourceId, SEG_FLAG_NAMES};
use super::ordnames::{ordinal_name, ordinal_of};
use super::{ComImage, Image, MzImage, RawImage, latin1};

/// A segment:offset pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SegOff {
    /// Segment (number, paragraph or selector, per context).
    pub segment: u16,
    /// Offset.
    pub offset: u16,
}

/// Everything [`info`] reports about a file.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Info {
    /// `"NE"`, `"MZ"`, `"COM"` or `"raw"`.
    pub format: &'static str,
    /// File size in bytes.
    pub size: u64,
    /// Format-specific fields (flattened into the top-level object).
    #[serde(flatten)]
    pub detail: Detail,
}

impl Info {
    /// The imported modules' names (an NE file's), in table order.
    pub fn import_names(&self) -> Vec<String> {
        match &self.detail {
            Detail::Ne(n) => n.imports.iter().map(|m| m.module.clone()).collect(),
            _ => Vec::new(),
        }
    }

    /// Show decorated names readably: every export's and import's `name`
    /// becomes what `demangle` makes of it (Microsoft C++ names, as
    /// frames show them: symbols/demangle.rs), `name_raw` keeping the
    /// file's spelling. The loader does not know C++; the caller passes
    /// the demangler.
    pub fn demangle_names(&mut self, demangle: &dyn Fn(&str) -> Option<String>) {
        let Detail::Ne(n) = &mut self.detail else {
            return;
        };
        let names = n
            .exports
            .iter_mut()
            .map(|e| (&e.name_raw, &mut e.name))
            .chain(
                n.imports
                    .iter_mut()
                    .flat_map(|m| m.functions.iter_mut())
                    .map(|f| (&f.name_raw, &mut f.name)),
            );
        for (raw, shown) in names {
            if let Some(d) = raw.as_deref().and_then(demangle) {
                *shown = Some(d);
            }
        }
    }

    /// Say where each imported module comes from (in
    /// [`Info::import_names`] order): `(source, detail)` as
    /// [`ImportModule`] has them.
    pub fn set_import_sources(&mut self, sources: Vec<(&'static str, Option<String>)>) {
        if let Detail::Ne(n) = &mut self.detail {
            for (m, (s, d)) in n.imports.iter_mut().zip(sources) {
                m.source = Some(s);
                m.detail = d;
            }
        }
    }
}

/// The format-specific part of [`Info`].
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Detail {
    /// An NE module.
    Ne(Box<NeInfo>),
    /// A DOS MZ executable.
    Mz(MzInfo),
    /// A `.COM` program.
    Com(ComInfo),
    /// A raw image.
    Raw(RawInfo),
}

/// NE fields; see the module documentation.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NeInfo {
    /// The module name (the first resident name; empty if none).
    pub module: String,
    /// The first non-resident name (the module description), if any.
    pub description: Option<String>,
    /// ne_exetyp: the target operating system.
    pub target_os: u8,
    /// Its name.
    pub target_os_name: &'static str,
    /// The flags word.
    pub flags: u16,
    /// The flags set, by name.
    pub flag_names: Vec<&'static str>,
    /// A library (DLL), not a program.
    pub library: bool,
    /// The entry point (segment number, or paragraph, and offset).
    pub entry: SegOff,
    /// The initial stack size in bytes.
    pub stack: u16,
    /// The initial local heap size in bytes.
    pub heap: u16,
    /// SS (segment number) and SP.
    pub ss_sp: SegOff,
    /// The automatic data segment (DGROUP) number.
    pub auto_data_segment: u16,
    /// The segment alignment shift (0 in the file means 9).
    pub alignment_shift: u16,
    /// The Windows version expected, `3.10`.
    pub expected_windows_version: String,
    /// The linker's version and revision.
    pub linker_version: String,
    /// The segment table.
    pub segments: Vec<SegmentInfo>,
    /// The imported modules and their functions.
    pub imports: Vec<ImportModule>,
    /// The entry table.
    pub exports: Vec<ExportInfo>,
    /// The resources.
    pub resources: Vec<ResourceTypeInfo>,
    /// Why `run` refuses the module, or None.
    pub refusal: Option<String>,
    /// An OS/2 bound program (its real-mode part runs as DOS runs it).
    pub os2_bound: bool,
    /// A self-loading application (header flag 0x0800, `SELFLOAD`): its
    /// segment 1 holds its own loader, which loads the other segments.
    pub self_loading: bool,
}

/// One NE segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SegmentInfo {
    /// The segment number (1-based).
    pub number: u16,
    /// `code` or `data`.
    pub kind: &'static str,
    /// Where its data starts in the file.
    pub file_offset: u64,
    /// Its length in the file (0 means 64 KiB, applied).
    pub file_length: u32,
    /// The minimum allocation in bytes (0 means 64 KiB, applied).
    pub min_alloc: u32,
    /// The size allocated.
    pub alloc_size: u32,
    /// The flags word.
    pub flags: u16,
    /// The flags set, by name.
    pub flag_names: Vec<&'static str>,
    /// Relocation records.
    pub relocations: usize,
    /// The file ends before the segment's data does.
    pub truncated: bool,
    /// For an iterated segment (flag 0x0008, `ITERATED`): the bytes its
    /// iteration records expand to when it is loaded; null for any other
    /// (and for a truncated one, which is not expanded).
    pub expanded_length: Option<u32>,
}

/// The functions imported from one module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ImportModule {
    /// The module name (the first resident name; empty if none).
    pub module: String,
    /// The functions imported from it.
    pub functions: Vec<ImportFunction>,
    /// Where the module comes from when the program runs, when the caller
    /// knows ([`Info::set_import_sources`]): `"built-in"`, `"dll"` or
    /// `"absent"`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<&'static str>,
    /// The DLL's file for `"dll"`; where it was looked for, for
    /// `"absent"`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub detail: Option<String>,
}

/// One imported function: by ordinal, by name, or both when known.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct ImportFunction {
    /// The ordinal.
    pub ordinal: Option<u16>,
    /// The name as shown: demangled when [`Info::demangle_names`] was
    /// given a demangler that reads it.
    pub name: Option<String>,
    /// The name as the file (or the ordinal table) spells it.
    pub name_raw: Option<String>,
}

/// One entry table entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ExportInfo {
    /// The ordinal.
    pub ordinal: u16,
    /// The name as shown (see [`ImportFunction::name`]).
    pub name: Option<String>,
    /// The name as the names table spells it.
    pub name_raw: Option<String>,
    /// The segment number (254: a constant).
    pub segment: u8,
    /// The offset in the segment.
    pub offset: u16,
    /// A movable entry (reached through a thunk).
    pub movable: bool,
    /// The entry is exported.
    pub exported: bool,
}

/// Resources of one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ResourceTypeInfo {
    #[serde(rename = "type")]
    /// The type: a name, or `#N`.
    pub type_id: String,
    /// The RT_ name of a standard integer type.
    pub type_name: Option<&'static str>,
    /// The resources.
    pub resources: Vec<ResourceInfo>,
}

/// One resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ResourceInfo {
    /// The id: a name, or `#N`.
    pub id: String,
    /// Where its data starts in the file.
    pub file_offset: u64,
    /// Its length in bytes.
    pub length: u64,
    /// The flags word.
    pub flags: u16,
}

/// MZ fields; see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct MzInfo {
    /// CS.
    pub cs: u16,
    /// IP.
    pub ip: u16,
    /// SS.
    pub ss: u16,
    /// SP.
    pub sp: u16,
    /// Minimum extra paragraphs.
    pub min_alloc: u16,
    /// Maximum extra paragraphs.
    pub max_alloc: u16,
    /// Header size in paragraphs.
    pub header_paragraphs: u16,
    /// Relocation records.
    pub relocations: usize,
    /// Where the load module starts in the file.
    pub image_offset: u64,
    /// The load module's size.
    pub image_size: u64,
    /// e_csum.
    pub checksum: u16,
    /// e_ovno.
    pub overlay: u16,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// e_lfanew, when it points inside the file.
    pub new_exe_offset: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The two characters there.
    pub new_exe_signature: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The NE header's offset, when it is one.
    pub ne_offset: Option<u32>,
}

/// `.COM` fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ComInfo {
    /// Where it loads.
    pub load: u16,
    /// The entry point (segment number, or paragraph, and offset).
    pub entry: u16,
}

/// Raw image fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RawInfo {
    /// Where it loads.
    pub load: SegOff,
    /// The entry point (segment number, or paragraph, and offset).
    pub entry: SegOff,
    /// A boot sector (512 bytes ending 55 AA).
    pub boot_sector: bool,
}

/// The name of a standard integer resource type.
pub fn resource_type_name(id: &ResourceId) -> Option<&'static str> {
    match id {
        ResourceId::Int(n) => Some(match n {
            1 => "CURSOR",
            2 => "BITMAP",
            3 => "ICON",
            4 => "MENU",
            5 => "DIALOG",
            6 => "STRING",
            7 => "FONTDIR",
            8 => "FONT",
            9 => "ACCELERATOR",
            10 => "RCDATA",
            11 => "MESSAGETABLE",
            12 => "GROUP_CURSOR",
            14 => "GROUP_ICON",
            16 => "VERSION",
            _ => return None,
        }),
        ResourceId::Name(_) => None,
    }
}

fn ne_info(ne: &NeImage) -> NeInfo {
    let h = &ne.header;
    let segments = ne
        .segments
        .iter()
        .map(|s| SegmentInfo {
            number: s.number,
            kind: if s.is_data() { "data" } else { "code" },
            file_offset: s.file_offset,
            file_length: s.file_length(),
            min_alloc: s.min_alloc(),
            alloc_size: s.alloc_size(),
            flags: s.flags,
            flag_names: ne::flag_names(s.flags, SEG_FLAG_NAMES),
            relocations: s.relocs.len(),
            truncated: s.truncated,
            expanded_length: (s.is_iterated() && !s.truncated).then_some(s.data.len() as u32),
        })
        .collect();

    // Imports: one set per module reference (plus any out-of-range index).
    let mut per_module: Vec<(String, BTreeSet<ImportFunction>)> = ne
        .module_refs
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for r in ne.segments.iter().flat_map(|s| s.relocs.iter()) {
        let (index, f) = match &r.target {
            RelocTarget::ImportOrdinal { module, ordinal } => {
                let name = ne
                    .module_ref_name(*module)
                    .and_then(|m| ordinal_name(m, *ordinal));
                (
                    *module,
                    ImportFunction {
                        ordinal: Some(*ordinal),
                        name: name.map(str::to_string),
                        name_raw: name.map(str::to_string),
                    },
                )
            }
            RelocTarget::ImportName { module, name } => {
                let ord = ne
                    .module_ref_name(*module)
                    .and_then(|m| ordinal_of(m, name));
                (
                    *module,
                    ImportFunction {
                        ordinal: ord,
                        name: Some(name.clone()),
                        name_raw: Some(name.clone()),
                    },
                )
            }
            _ => continue,
        };
        let slot = (index as usize)
            .checked_sub(1)
            .filter(|&i| i < ne.module_refs.len());
        match slot.and_then(|i| per_module.get_mut(i)) {
            Some((_, set)) => {
                set.insert(f);
            }
            None => {
                let key = format!("#{index}");
                match per_module.iter_mut().find(|(m, _)| *m == key) {
                    Some((_, set)) => {
                        set.insert(f);
                    }
                    None => per_module.push((key, BTreeSet::from([f]))),
                }
            }
        }
    }
    let imports = per_module
        .into_iter()
        .map(|(module, set)| ImportModule {
            module,
            functions: set.into_iter().collect(),
            source: None,
            detail: None,
        })
        .collect();

    let exports = ne
        .entries
        .iter()
        .map(|e| ExportInfo {
            ordinal: e.ordinal,
            name: ne.export_name(e.ordinal).map(str::to_string),
            name_raw: ne.export_name(e.ordinal).map(str::to_string),
            segment: e.segment,
            offset: e.offset,
            movable: e.movable,
            exported: e.is_exported(),
        })
        .collect();

    let resources = ne
        .resources
        .iter()
        .map(|t| ResourceTypeInfo {
            type_id: t.type_id.to_string(),
            type_name: resource_type_name(&t.type_id),
            resources: t
                .resources
                .iter()
                .map(|r| ResourceInfo {
                    id: r.id.to_string(),
                    file_offset: r.file_offset,
                    length: r.length,
                    flags: r.flags,
                })
                .collect(),
        })
        .collect();

    NeInfo {
        module: ne.module_name().unwrap_or("").to_string(),
        description: ne.description().map(str::to_string),
        target_os: h.target_os,
        target_os_name: ne::target_os_name(h.target_os),
        flags: h.flags,
        flag_names: ne::ne_flag_names(h.flags),
        library: h.is_library(),
        entry: SegOff {
            segment: h.cs,
            offset: h.ip,
        },
        stack: h.stack_size,
        heap: h.heap_size,
        ss_sp: SegOff {
            segment: h.ss,
            offset: h.sp,
        },
        auto_data_segment: h.auto_data_segment,
        alignment_shift: h.alignment_shift(),
        expected_windows_version: h.windows_version_text(),
        linker_version: format!("{}.{}", h.linker_version, h.linker_revision),
        segments,
        imports,
        exports,
        resources,
        refusal: ne
            .check_runnable(!h.is_library())
            .err()
            .map(|e| e.to_string()),
        os2_bound: ne.bound_dos_program().is_some(),
        self_loading: h.flags & ne::NEF_SELF_LOADING != 0,
    }
}

fn mz_info(m: &MzImage) -> MzInfo {
    let h = &m.header;
    MzInfo {
        cs: h.e_cs,
        ip: h.e_ip,
        ss: h.e_ss,
        sp: h.e_sp,
        min_alloc: h.e_minalloc,
        max_alloc: h.e_maxalloc,
        header_paragraphs: h.e_cparhdr,
        relocations: m.relocs.len(),
        image_offset: m.image_range.start,
        image_size: m.image_range.end - m.image_range.start,
        checksum: h.e_csum,
        overlay: h.e_ovno,
        new_exe_offset: m.new_signature.and(h.e_lfanew),
        new_exe_signature: m.new_signature.map(|s| latin1(&s)),
        ne_offset: m.ne_offset,
    }
}

fn com_info(_c: &ComImage) -> ComInfo {
    ComInfo {
        load: ComImage::LOAD_OFFSET,
        entry: ComImage::LOAD_OFFSET,
    }
}

fn raw_info(r: &RawImage) -> RawInfo {
    RawInfo {
        load: SegOff {
            segment: r.load.0,
            offset: r.load.1,
        },
        entry: SegOff {
            segment: r.entry.0,
            offset: r.entry.1,
        },
        boot_sector: r.boot_sector,
    }
}

/// Describe a parsed file.
pub fn info(image: &Image) -> Info {
    match image {
        Image::Ne(ne) => Info {
            format: "NE",
            size: ne.file_size,
            detail: Detail::Ne(Box::new(ne_info(ne))),
        },
        Image::Mz(m) => Info {
            format: "MZ",
            size: m.file_size,
            detail: Detail::Mz(mz_info(m)),
        },
        Image::Com(c) => Info {
            format: "COM",
            size: c.bytes.len() as u64,
            detail: Detail::Com(com_info(c)),
        },
        Image::Raw(r) => Info {
            format: "raw",
            size: r.bytes.len() as u64,
            detail: Detail::Raw(raw_info(r)),
        },
    }
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    match v {
        Some(x) => x.to_string(),
        None => "-".to_string(),
    }
}

/// Render [`Info`] as text for people.
pub fn render_text(i: &Info) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "format: {}  size: {} ({:#X}) bytes",
        i.format, i.size, i.size
    );
    match &i.detail {
        Detail::Ne(n) => render_ne(&mut s, n),
        Detail::Mz(m) => {
            let _ = writeln!(
                s,
                "entry CS:IP {:04X}:{:04X}  stack SS:SP {:04X}:{:04X} (relative to the load \
                 segment)",
                m.cs, m.ip, m.ss, m.sp
            );
            let _ = writeln!(
                s,
                "header {} paragraphs; load module {:#X} bytes at file offset {:#X}; {} \
                 relocations",
                m.header_paragraphs, m.image_size, m.image_offset, m.relocations
            );
            let _ = writeln!(
                s,
                "extra memory: min {:#X} max {:#X} paragraphs; checksum {:#06X}; overlay {}",
                m.min_alloc, m.max_alloc, m.checksum, m.overlay
            );
            // e_lfanew (0x3C) means something only in a header of 0x40
            // bytes or more with a new-executable signature where it
            // points; 0 (a plain DOS program's) points back at "MZ".
            if let (Some(o), Some(sig)) = (m.new_exe_offset, &m.new_exe_signature)
                && o >= 0x40
            {
                let _ = writeln!(
                    s,
                    "e_lfanew {o:#X} points at {}, not a new-executable header this tool runs \
                     (it runs the DOS program)",
                    crate::escape::quoted(sig)
                );
            }
        }
        Detail::Com(c) => {
            let _ = writeln!(
                s,
                "DOS .COM program: loaded at PSP:{:04X}, entry PSP:{:04X}",
                c.load, c.entry
            );
        }
        Detail::Raw(r) => {
            let _ = writeln!(
                s,
                "{}: loaded at {:04X}:{:04X}, entry {:04X}:{:04X}",
                if r.boot_sector {
                    "boot sector"
                } else {
                    "raw image"
                },
                r.load.segment,
                r.load.offset,
                r.entry.segment,
                r.entry.offset
            );
        }
    }
    s
}

/// A string from the file, its control characters shown (escape.rs).
fn esc(s: &str) -> std::borrow::Cow<'_, str> {
    crate::escape::name(s)
}

fn render_ne(s: &mut String, n: &NeInfo) {
    let _ = writeln!(
        s,
        "module: {}  ({})  {}",
        esc(&n.module),
        if n.library { "DLL" } else { "EXE" },
        esc(&opt(&n.description))
    );
    // The expected Windows version (NE offset 3Eh) is a Windows field:
    // OS/2 linkers leave it 0.
    let windows = if n.target_os == 2 || n.expected_windows_version != "0.00" {
        format!("; Windows {}", n.expected_windows_version)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "target OS {} ({}){windows}; linker {}; flags {:#06X} [{}]",
        n.target_os,
        n.target_os_name,
        n.linker_version,
        n.flags,
        n.flag_names.join(" ")
    );
    let _ = writeln!(
        s,
        "entry {}:{:04X}  SS:SP {}:{:04X}  DGROUP segment {}  stack {:#X}  heap {:#X}  \
         alignment shift {}",
        n.entry.segment,
        n.entry.offset,
        n.ss_sp.segment,
        n.ss_sp.offset,
        n.auto_data_segment,
        n.stack,
        n.heap,
        n.alignment_shift
    );
    if n.self_loading {
        let _ = writeln!(
            s,
            "self-loading: segment 1 holds the program's own loader (its BootApp and \
             LoadAppSeg load the other segments)"
        );
    }
    if n.segments.is_empty() && n.refusal.is_none() {
        let fonts = n.resources.iter().any(|r| r.type_name == Some("FONT"));
        let _ = writeln!(
            s,
            "no segments: a resource-only module{}; nothing in it runs",
            if fonts {
                " (a font file: its FONT resources are Windows raster fonts, loaded by \
                 AddFontResource or the --fonts directory)"
            } else {
                ""
            }
        );
    }
    match &n.refusal {
        Some(r) if n.os2_bound => {
            let _ = writeln!(
                s,
                "not a Windows program ({r}); an OS/2 bound (Family API) program: DOS runs its \
                 real-mode part (BIND's loader), and so does `run`"
            );
        }
        Some(r) => {
            let _ = writeln!(s, "NOT RUNNABLE: {r}");
        }
        None => {}
    }
    let _ = writeln!(s, "segments ({}):", n.segments.len());
    for g in &n.segments {
        let _ = writeln!(
            s,
            "  {:>3} {:<4} file {:#07X} len {:#07X} min {:#07X} alloc {:#07X} relocs {:>4} \
             flags {:#06X} [{}]{}",
            g.number,
            g.kind,
            g.file_offset,
            g.file_length,
            g.min_alloc,
            g.alloc_size,
            g.relocations,
            g.flags,
            g.flag_names.join(" "),
            if g.truncated { " TRUNCATED" } else { "" }
        );
        if let Some(n) = g.expanded_length {
            let _ = writeln!(
                s,
                "      iterated: its records expand to {n:#07X} bytes when it is loaded"
            );
        }
    }
    let _ = writeln!(s, "imports:");
    for m in &n.imports {
        let fns: Vec<String> = m
            .functions
            .iter()
            .map(|f| match (&f.ordinal, &f.name) {
                (Some(o), Some(nm)) => format!("{o} {}", esc(nm)),
                (Some(o), None) => format!("{o}"),
                (None, Some(nm)) => esc(nm).into_owned(),
                (None, None) => "?".into(),
            })
            .collect();
        let from = match (m.source, &m.detail) {
            (Some("dll"), Some(d)) => format!(" (DLL {})", esc(d)),
            (Some("absent"), Some(d)) => format!(" (absent: {})", esc(d)),
            _ => String::new(),
        };
        let _ = writeln!(s, "  {}{from}: {}", esc(&m.module), fns.join(", "));
    }
    if !n.exports.is_empty() {
        let _ = writeln!(s, "entry table ({}):", n.exports.len());
        for e in &n.exports {
            let _ = writeln!(
                s,
                "  @{:<4} {}:{:04X} {}{} {}",
                e.ordinal,
                e.segment,
                e.offset,
                if e.movable { "movable" } else { "fixed" },
                if e.exported { " exported" } else { "" },
                esc(e.name.as_deref().unwrap_or(""))
            );
        }
    }
    if !n.resources.is_empty() {
        let _ = writeln!(s, "resources:");
        for t in &n.resources {
            let ids: Vec<String> = t
                .resources
                .iter()
                .map(|r| esc(&r.id).into_owned())
                .collect();
            let _ = writeln!(
                s,
                "  {} {}: {}",
                esc(&t.type_id.to_string()),
                t.type_name.unwrap_or(""),
                ids.join(", ")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::{KindHint, parse};

    #[test]
    fn ne_info_of_hand_built_module() {
        let f = crate::loader::ne::tests::build_ne();
        let img = parse(&f, KindHint::Auto).unwrap();
        let i = info(&img);
        let j = serde_json::to_value(&i).unwrap();
        assert_eq!(j["format"], "NE");
        assert_eq!(j["size"], f.len());
        assert_eq!(j["module"], "HELLO");
        assert_eq!(j["description"], "Demo");
        assert_eq!(j["expected_windows_version"], "3.10");
        assert_eq!(j["linker_version"], "5.10");
        assert_eq!(j["entry"]["segment"], 1);
        assert_eq!(j["alignment_shift"], 4);
        assert_eq!(j["library"], false);
        assert_eq!(j["refusal"], serde_json::Value::Null);
        assert_eq!(j["segments"][1]["kind"], "data");
        assert_eq!(j["segments"][1]["alloc_size"], 0x100);
        assert_eq!(j["segments"][0]["relocations"], 4);
        assert_eq!(j["imports"][0]["module"], "USER");
        assert_eq!(j["imports"][0]["functions"][0]["ordinal"], 1);
        assert_eq!(j["imports"][0]["functions"][0]["name"], "MessageBox");
        assert_eq!(j["imports"][1]["module"], "KERNEL");
        assert_eq!(j["imports"][1]["functions"][0]["ordinal"], 91);
        assert_eq!(j["imports"][1]["functions"][0]["name"], "INITTASK");
        assert_eq!(j["exports"][0]["name"], "EXPFN");
        assert_eq!(j["exports"][1]["movable"], true);
        let t = render_text(&i);
        assert!(t.contains("module: HELLO"), "{t}");
        assert!(t.contains("USER: 1 MessageBox"), "{t}");
    }

    #[test]
    fn other_formats() {
        let j = serde_json::to_value(info(&parse(&[0xC3], KindHint::Com).unwrap())).unwrap();
        assert_eq!(j["format"], "COM");
        assert_eq!(j["load"], 0x100);
        let mut b = vec![0u8; 512];
        b[510] = 0x55;
        b[511] = 0xAA;
        let i = info(&parse(&b, KindHint::Auto).unwrap());
        let j = serde_json::to_value(&i).unwrap();
        assert_eq!(j["format"], "raw");
        assert_eq!(j["entry"]["offset"], 0x7C00);
        assert_eq!(j["boot_sector"], true);
        assert!(render_text(&i).contains("boot sector"));
    }
}
