//! Win16 (and OS/2 1.x) `NE` modules.
//!
//! Layout and rules from `../shared/spec/win16.md`, section "The NE file, in
//! brief"; field offsets as in Open Watcom's `exeos2.h` and doslib's
//! `exenehdr.h`. Every table is read through the bounded [`Reader`]; every
//! count is checked against the file size before anything is allocated for
//! it; every loop consumes at least one byte of the file per step, so parsing
//! ends on any input.

use super::mz::MzImage;
use super::{LoadError, Reader, latin1};

mod reloc;
mod resource;
mod runnable;

pub use reloc::{
    FarPtr, NeReloc, RELOC_ADDITIVE, RELOC_FARPTR, RELOC_FARPTR48, RELOC_LOBYTE, RELOC_OFFSET,
    RELOC_OFFSET32, RELOC_SELECTOR, RelocTarget, apply_relocations, apply_segment_relocations,
    relocation_sites,
};
use resource::parse_resources;
pub use resource::{NeResource, NeResourceType, ResourceId};
pub use runnable::SELF_LOAD_TABLE_SIZE;

/// NE header flag (offset 0C): one shared automatic data segment.
pub const NEF_SINGLEDATA: u16 = 0x0001;
/// NE header flag: one automatic data segment per instance.
pub const NEF_MULTIPLEDATA: u16 = 0x0002;
/// NE header flag: per-process library initialisation.
pub const NEF_PPLI: u16 = 0x0004;
/// NE header flag: runs in protected mode only.
pub const NEF_PROT_ONLY: u16 = 0x0008;
/// NE header flag: self-loading application (it brings its own loader).
pub const NEF_SELF_LOADING: u16 = 0x0800;
/// NE header flag: the linker reported errors; Windows will not load it.
pub const NEF_LINK_ERRORS: u16 = 0x2000;
/// NE header flag: a library module (DLL), not a program.
pub const NEF_LIBRARY: u16 = 0x8000;

/// Names of the NE header flag bits, for display.
pub const NE_FLAG_NAMES: &[(u16, &str)] = &[
    (0x0001, "SINGLEDATA"),
    (0x0002, "MULTIPLEDATA"),
    (0x0004, "PPLI"),
    (0x0008, "PROTMODE"),
    (0x0010, "I8086"),
    (0x0020, "I286"),
    (0x0040, "I386"),
    (0x0080, "I8087"),
    (0x0400, "OS2FAMILY"),
    (0x0800, "SELFLOAD"),
    (0x1000, "BIT12"),
    (0x2000, "LINKERRORS"),
    (0x4000, "BIT14"),
    (0x8000, "LIBRARY"),
];

/// Segment flag: data segment (else code).
pub const NESEG_DATA: u16 = 0x0001;
/// Segment flag: iterated data.
pub const NESEG_ITERATED: u16 = 0x0008;
/// Segment flag: moveable.
pub const NESEG_MOVEABLE: u16 = 0x0010;
/// Segment flag: preload.
pub const NESEG_PRELOAD: u16 = 0x0040;
/// Segment flag: relocation records follow the data.
pub const NESEG_RELOCS: u16 = 0x0100;
/// Segment flag: discardable.
pub const NESEG_DISCARDABLE: u16 = 0x1000;

/// Names of the segment flag bits, for display.
pub const SEG_FLAG_NAMES: &[(u16, &str)] = &[
    (0x0001, "DATA"),
    (0x0002, "ALLOCATED"),
    (0x0004, "LOADED"),
    (0x0008, "ITERATED"),
    (0x0010, "MOVEABLE"),
    (0x0020, "SHARED"),
    (0x0040, "PRELOAD"),
    (0x0080, "READONLY"),
    (0x0100, "RELOCINFO"),
    (0x0200, "CONFORMING"),
    (0x1000, "DISCARDABLE"),
];

/// Names of the flag bits set in `flags`, per `table`.
pub fn flag_names(flags: u16, table: &[(u16, &'static str)]) -> Vec<&'static str> {
    table
        .iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|&(_, n)| n)
        .collect()
}

/// Names of the NE header's flags: the bits of [`NE_FLAG_NAMES`], and the
/// application type, one two-bit field (bits 8 and 9, the Microsoft NE
/// format's "application flags"): 1 NOTWINCOMPAT (full screen, not aware
/// of the Windows/PM API), 2 WINCOMPAT (compatible with it), 3 WINAPI
/// (uses it). 0x0302 is MULTIPLEDATA WINAPI, not three flags.
pub fn ne_flag_names(flags: u16) -> Vec<&'static str> {
    let mut v = flag_names(flags, NE_FLAG_NAMES);
    let app = match (flags >> 8) & 3 {
        1 => Some("NOTWINCOMPAT"),
        2 => Some("WINCOMPAT"),
        3 => Some("WINAPI"),
        _ => None,
    };
    if let Some(a) = app {
        // In bit order: after the low byte's flags.
        let at = v
            .iter()
            .position(|n| NE_FLAG_NAMES.iter().any(|&(b, m)| m == *n && b > 0x0300))
            .unwrap_or(v.len());
        v.insert(at, a);
    }
    v
}

/// Module names that mark an OS/2 program (its API lives in these DLLs).
pub const OS2_MODULES: &[&str] = &[
    "DOSCALLS", "VIOCALLS", "KBDCALLS", "MOUCALLS", "MONCALLS", "QUECALLS", "SESMGR", "NLS", "MSG",
    "PMWIN", "PMGPI", "PMSHAPI", "BKSCALLS", "BMSCALLS", "BVSCALLS",
];

/// The name of a target OS byte (NE offset 36).
pub fn target_os_name(os: u8) -> &'static str {
    match os {
        0 => "unknown",
        1 => "OS/2",
        2 => "Windows",
        3 => "European MS-DOS 4.x",
        4 => "Windows/386",
        5 => "BOSS",
        _ => "unknown",
    }
}

/// The NE header, every field at its offset from the start of the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeHeader {
    /// File offset of the header (e_lfanew).
    pub file_offset: u64,
    /// 02: linker version.
    pub linker_version: u8,
    /// 03: linker revision.
    pub linker_revision: u8,
    /// 04: entry table offset (relative to the header).
    pub entry_table_offset: u16,
    /// 06: entry table length in bytes.
    pub entry_table_length: u16,
    /// 08: file CRC.
    pub crc: u32,
    /// 0C: module flags (`NEF_*`).
    pub flags: u16,
    /// 0E: automatic data segment number (1-based; 0 = none).
    pub auto_data_segment: u16,
    /// 10: initial local heap size.
    pub heap_size: u16,
    /// 12: initial stack size (added to the auto data segment).
    pub stack_size: u16,
    /// 14: initial IP.
    pub ip: u16,
    /// 16: initial CS segment number (1-based).
    pub cs: u16,
    /// 18: initial SP.
    pub sp: u16,
    /// 1A: initial SS segment number (1-based).
    pub ss: u16,
    /// 1C: number of segment table entries.
    pub segment_count: u16,
    /// 1E: number of module reference table entries.
    pub module_ref_count: u16,
    /// 20: non-resident names table size in bytes.
    pub nonresident_names_size: u16,
    /// 22: segment table offset (relative).
    pub segment_table_offset: u16,
    /// 24: resource table offset (relative).
    pub resource_table_offset: u16,
    /// 26: resident names table offset (relative).
    pub resident_names_offset: u16,
    /// 28: module reference table offset (relative).
    pub module_ref_offset: u16,
    /// 2A: imported names table offset (relative).
    pub imported_names_offset: u16,
    /// 2C: non-resident names table offset (a FILE offset).
    pub nonresident_names_file_offset: u32,
    /// 30: number of moveable entry points.
    pub movable_entry_count: u16,
    /// 32: segment alignment shift as stored (0 means 9; see
    /// [`NeHeader::alignment_shift`]).
    pub alignment_shift_raw: u16,
    /// 34: number of resource segments.
    pub resource_segment_count: u16,
    /// 36: target OS (1 OS/2, 2 Windows, 3 DOS 4, 4 Windows/386).
    pub target_os: u8,
    /// 37: other flags (bit 3: gangload area).
    pub other_flags: u8,
    /// 38: gangload area offset (in alignment units).
    pub gangload_offset: u16,
    /// 3A: gangload area length.
    pub gangload_length: u16,
    /// 3C: minimum code swap area size.
    pub min_code_swap: u16,
    /// 3E: expected Windows version (0x030A = 3.10).
    pub expected_windows_version: u16,
}

/// Size of the NE header.
pub const NE_HEADER_SIZE: u64 = 0x40;

/// The most all iterated segments of one module may expand to together.
/// A module's segments could at most fill the 16-bit protected-mode
/// address space Windows 3.1 gave a program (8192 selectors of 64 KiB is
/// 512 MiB in theory, but the global heap of a 16 MiB machine holds far
/// less); 16 MiB leaves every real program room and bounds what a corrupt
/// segment table that points many iterated segments at one small record
/// can make the parser allocate.
pub const MAX_EXPANDED_BYTES: u64 = 16 << 20;

impl NeHeader {
    /// Read the header at file offset `at`.
    pub fn parse(r: &Reader<'_>, at: u64) -> Result<Self, LoadError> {
        let magic = r.bytes(at, 2, "NE signature")?;
        if magic != b"NE" {
            return Err(LoadError::at(
                at,
                "NE signature",
                format!("expected 'NE', found {magic:02X?}"),
            ));
        }
        r.bytes(at, NE_HEADER_SIZE, "NE header")?;
        let b = |o: u64, f: &str| r.u8(at + o, f);
        let w = |o: u64, f: &str| r.u16(at + o, f);
        Ok(NeHeader {
            file_offset: at,
            linker_version: b(0x02, "ne_ver")?,
            linker_revision: b(0x03, "ne_rev")?,
            entry_table_offset: w(0x04, "ne_enttab")?,
            entry_table_length: w(0x06, "ne_cbenttab")?,
            crc: r.u32(at + 0x08, "ne_crc")?,
            flags: w(0x0C, "ne_flags")?,
            auto_data_segment: w(0x0E, "ne_autodata")?,
            heap_size: w(0x10, "ne_heap")?,
            stack_size: w(0x12, "ne_stack")?,
            ip: w(0x14, "ne_csip")?,
            cs: w(0x16, "ne_csip")?,
            sp: w(0x18, "ne_sssp")?,
            ss: w(0x1A, "ne_sssp")?,
            segment_count: w(0x1C, "ne_cseg")?,
            module_ref_count: w(0x1E, "ne_cmod")?,
            nonresident_names_size: w(0x20, "ne_cbnrestab")?,
            segment_table_offset: w(0x22, "ne_segtab")?,
            resource_table_offset: w(0x24, "ne_rsrctab")?,
            resident_names_offset: w(0x26, "ne_restab")?,
            module_ref_offset: w(0x28, "ne_modtab")?,
            imported_names_offset: w(0x2A, "ne_imptab")?,
            nonresident_names_file_offset: r.u32(at + 0x2C, "ne_nrestab")?,
            movable_entry_count: w(0x30, "ne_cmovent")?,
            alignment_shift_raw: w(0x32, "ne_align")?,
            resource_segment_count: w(0x34, "ne_cres")?,
            target_os: b(0x36, "ne_exetyp")?,
            other_flags: b(0x37, "ne_flagsothers")?,
            gangload_offset: w(0x38, "ne_pretthunks")?,
            gangload_length: w(0x3A, "ne_psegrefbytes")?,
            min_code_swap: w(0x3C, "ne_swaparea")?,
            expected_windows_version: w(0x3E, "ne_expver")?,
        })
    }

    /// Segment alignment shift: the stored value, where 0 means 9 (512-byte
    /// sectors), per win16.md.
    pub fn alignment_shift(&self) -> u16 {
        if self.alignment_shift_raw == 0 {
            9
        } else {
            self.alignment_shift_raw
        }
    }

    /// True for a library module (flags bit 15).
    pub fn is_library(&self) -> bool {
        self.flags & NEF_LIBRARY != 0
    }

    /// The expected Windows version as text, e.g. "3.10".
    pub fn windows_version_text(&self) -> String {
        format!(
            "{}.{:02}",
            self.expected_windows_version >> 8,
            self.expected_windows_version & 0xFF
        )
    }

    /// File offset of a table given relative to the header.
    pub fn rel(&self, off: u16) -> u64 {
        self.file_offset + off as u64
    }
}

/// One segment table entry, with its data and relocations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeSegment {
    /// Segment number, 1-based.
    pub number: u16,
    /// File offset of this segment's 8-byte entry in the segment table.
    pub table_entry_offset: u64,
    /// Data offset as stored, in alignment units (0 = no data in the file).
    pub sector: u16,
    /// Length in the file as stored (0 = 64 KiB when there is data).
    pub length_raw: u16,
    /// Segment flags (`NESEG_*`).
    pub flags: u16,
    /// Minimum allocation as stored (0 = 64 KiB).
    pub min_alloc_raw: u16,
    /// File offset of the data in bytes (sector << shift; 0 when none).
    pub file_offset: u64,
    /// The segment's bytes as they are loaded into memory: the data in the
    /// file, or for an iterated segment ([`NESEG_ITERATED`]) the expansion
    /// of its iteration records ([`expand_iterated`]). Shorter than
    /// [`NeSegment::file_length`] only when `truncated` (a truncated
    /// segment is kept as its raw bytes, not expanded).
    pub data: Vec<u8>,
    /// True when the data runs past the end of the file.
    pub truncated: bool,
    /// Relocation records (read only when the data is complete).
    pub relocs: Vec<NeReloc>,
}

impl NeSegment {
    /// True when the file holds data for this segment (sector != 0).
    pub fn has_data(&self) -> bool {
        self.sector != 0
    }

    /// Length of the data in the file: 0 when there is none, else the stored
    /// length with 0 meaning 64 KiB (win16.md).
    pub fn file_length(&self) -> u32 {
        if !self.has_data() {
            0
        } else if self.length_raw == 0 {
            0x10000
        } else {
            self.length_raw as u32
        }
    }

    /// Minimum allocation, 0 meaning 64 KiB (win16.md).
    pub fn min_alloc(&self) -> u32 {
        if self.min_alloc_raw == 0 {
            0x10000
        } else {
            self.min_alloc_raw as u32
        }
    }

    /// Allocated size: the larger of the file length and the minimum
    /// allocation (win16.md, "The CPU the programs expect"); for an
    /// iterated segment the minimum allocation, since its file length
    /// counts iteration records, not bytes in memory. Heap and stack for
    /// DGROUP are the caller's to add.
    pub fn alloc_size(&self) -> u32 {
        if self.is_iterated() {
            self.min_alloc()
        } else {
            self.file_length().max(self.min_alloc())
        }
    }

    /// True for a data segment (flag 0x0001), false for code.
    pub fn is_data(&self) -> bool {
        self.flags & NESEG_DATA != 0
    }

    /// True for an iterated segment (flag 0x0008): its file data are
    /// iteration records, expanded when it is loaded.
    pub fn is_iterated(&self) -> bool {
        self.flags & NESEG_ITERATED != 0
    }
}

/// Expand an iterated segment's file data (`raw`, read from file offset
/// `at`) into the bytes it stands for in memory.
///
/// The file data are records, one after the other until the segment's
/// file length is used up: a word, how many times the pattern repeats; a
/// word, the pattern's length in bytes; the pattern. The expansion is the
/// patterns repeated, in order (the OMF/LX "iterated data" record that
/// Microsoft's and Borland's linkers write for a segment flagged 0x0008;
/// the relocation records follow the file data as for any segment).
///
/// Bounded: the expansion may not exceed `limit` (the segment's
/// allocation); a record whose header or pattern runs past the file data,
/// or whose expansion would pass `limit`, is an error naming the record's
/// file offset and the field at fault. Each record consumes at least four
/// bytes of `raw`, and nothing is allocated beyond `limit`.
pub fn expand_iterated(raw: &[u8], at: u64, limit: u32, seg: u16) -> Result<Vec<u8>, LoadError> {
    let mut out: Vec<u8> = Vec::new();
    let mut p = 0usize;
    let word = |o: usize| raw.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    while p < raw.len() {
        let here = at + p as u64;
        let (Some(count), Some(len)) = (word(p), word(p + 2)) else {
            return Err(LoadError::at(
                here,
                format!("segment {seg} iteration record"),
                format!(
                    "{} byte(s) are left of the iterated segment's data ({:#X} bytes at {at:#X}), \
                     too few for a record's iteration count and length (4 bytes)",
                    raw.len() - p,
                    raw.len()
                ),
            ));
        };
        let pattern = raw.get(p + 4..p + 4 + usize::from(len)).ok_or_else(|| {
            LoadError::at(
                here + 2,
                format!("segment {seg} iteration record length"),
                format!(
                    "the record's pattern of {len:#X} bytes at {:#X} runs past the end of the \
                     segment's data ({:#X} bytes at {at:#X})",
                    here + 4,
                    raw.len()
                ),
            )
        })?;
        let total = u64::from(count) * u64::from(len);
        if out.len() as u64 + total > u64::from(limit) {
            return Err(LoadError::at(
                here,
                format!("segment {seg} iteration count"),
                format!(
                    "{count} repetitions of {len:#X} bytes would expand the segment to {:#X} \
                     bytes, more than its allocation of {limit:#X}",
                    out.len() as u64 + total
                ),
            ));
        }
        if len != 0 {
            for _ in 0..count {
                out.extend_from_slice(pattern);
            }
        }
        p += 4 + usize::from(len);
    }
    Ok(out)
}

/// One entry point from the entry table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeEntry {
    /// Ordinal (1-based, counting skipped ordinals).
    pub ordinal: u16,
    /// Segment number, or 0xFE for a constant (then `offset` is its value).
    pub segment: u8,
    /// Offset in the segment (or the constant).
    pub offset: u16,
    /// Flags: 0x01 exported, 0x02 uses the shared data segment.
    pub flags: u8,
    /// True when it came from a moveable (0xFF) bundle.
    pub movable: bool,
}

impl NeEntry {
    /// Flag 0x01: exported.
    pub fn is_exported(&self) -> bool {
        self.flags & 0x01 != 0
    }
}

/// A parsed NE module.
#[derive(Debug, Clone, PartialEq)]
pub struct NeImage {
    /// The DOS stub, when the module was parsed from a whole file.
    pub stub: Option<Box<MzImage>>,
    /// The NE header.
    pub header: NeHeader,
    /// File size.
    pub file_size: u64,
    /// Segments, in table order (number = index + 1).
    pub segments: Vec<NeSegment>,
    /// Entry points, by ordinal.
    pub entries: Vec<NeEntry>,
    /// Resident names (name, ordinal); the first is the module name.
    pub resident_names: Vec<(String, u16)>,
    /// Non-resident names (name, ordinal); the first is the description.
    pub nonresident_names: Vec<(String, u16)>,
    /// Module reference table resolved to names (index 0 = module 1).
    pub module_refs: Vec<String>,
    /// Resources by type.
    pub resources: Vec<NeResourceType>,
    /// The bytes of the imported-names table onward (at most 64 KiB + 256),
    /// so names can be looked up by offset.
    imported_names: Vec<u8>,
}

/// Read a names table (length-prefixed strings each followed by an ordinal
/// word, ending with a zero length), from `start` up to `limit` (exclusive).
fn read_names(
    r: &Reader<'_>,
    start: u64,
    limit: u64,
    what: &str,
) -> Result<Vec<(String, u16)>, LoadError> {
    let mut out = Vec::new();
    let mut p = start;
    while p < limit {
        let n = r.u8(p, what)?;
        if n == 0 {
            break;
        }
        let (s, next) = r.pstring(p, what)?;
        let ord = r.u16(next, what)?;
        out.push((s, ord));
        p = next + 2;
    }
    Ok(out)
}

impl NeImage {
    /// Parse a whole file: the MZ stub, then the NE header e_lfanew points
    /// at.
    pub fn parse(bytes: &[u8]) -> Result<Self, LoadError> {
        let stub = MzImage::parse(bytes)?;
        let Some(at) = stub.ne_offset else {
            let msg = match (stub.header.e_lfanew, stub.new_signature) {
                (None, _) => "the file is shorter than 0x40 bytes, so it has no e_lfanew".into(),
                (Some(o), None) => format!(
                    "e_lfanew {o:#X} points past the end of the file (size {:#X})",
                    bytes.len()
                ),
                (Some(o), Some(sig)) => {
                    format!("e_lfanew {o:#X} points at {sig:02X?}, not 'NE'")
                }
            };
            return Err(LoadError::at(0x3C, "e_lfanew", msg));
        };
        let mut ne = Self::parse_at(bytes, at as u64)?;
        ne.stub = Some(Box::new(stub));
        Ok(ne)
    }

    /// Parse the NE module whose header is at file offset `at`.
    pub fn parse_at(bytes: &[u8], at: u64) -> Result<Self, LoadError> {
        let r = Reader::new(bytes);
        let header = NeHeader::parse(&r, at)?;
        let shift = header.alignment_shift();
        if shift > 24 {
            return Err(LoadError::at(
                at + 0x32,
                "ne_align",
                format!("alignment shift {shift} is not plausible (expected 0..=24)"),
            ));
        }

        // Imported names: keep the bytes so names can be looked up by offset.
        let imp_start = header.rel(header.imported_names_offset);
        let imp_end = (imp_start + 0x10100).min(r.len());
        let imported_names = if imp_start <= r.len() {
            r.bytes(imp_start, imp_end.saturating_sub(imp_start), "ne_imptab")?
                .to_vec()
        } else {
            Vec::new()
        };

        // Module reference table.
        let mod_at = header.rel(header.module_ref_offset);
        let nmod = header.module_ref_count as u64;
        r.bytes(mod_at, nmod * 2, "module reference table")?;
        let mut module_refs = Vec::with_capacity(nmod as usize);
        let mut name_bytes = 0u64;
        for i in 0..nmod {
            let o = mod_at + i * 2;
            let name_off = r.u16(o, "module reference")?;
            let (name, _) = r
                .pstring(imp_start + name_off as u64, "imported name")
                .map_err(|_| {
                    LoadError::at(
                        o,
                        "module reference",
                        format!(
                            "module {} names imported-names offset {name_off:#X}, which is past \
                             the end of the file (size {:#X})",
                            i + 1,
                            r.len()
                        ),
                    )
                })?;
            // Real modules name each module once; a corrupt table can
            // name the same 255 bytes 65535 times.
            name_bytes += name.len() as u64;
            if name_bytes > r.len().saturating_add(0x10000) {
                return Err(LoadError::at(
                    o,
                    "module reference",
                    format!(
                        "modules 1..={} name more than {:#X} bytes in a file of {:#X}; the \
                         module reference table is corrupt",
                        i + 1,
                        r.len().saturating_add(0x10000),
                        r.len()
                    ),
                ));
            }
            module_refs.push(name);
        }

        let mut ne = NeImage {
            stub: None,
            header,
            file_size: r.len(),
            segments: Vec::new(),
            entries: Vec::new(),
            resident_names: Vec::new(),
            nonresident_names: Vec::new(),
            module_refs,
            resources: Vec::new(),
            imported_names,
        };

        // Names.
        ne.resident_names = read_names(
            &r,
            header.rel(header.resident_names_offset),
            u64::MAX,
            "resident names",
        )?;
        let nres = header.nonresident_names_file_offset as u64;
        if nres != 0 && header.nonresident_names_size != 0 {
            ne.nonresident_names = read_names(
                &r,
                nres,
                nres + header.nonresident_names_size as u64,
                "non-resident names",
            )?;
        }

        ne.entries = parse_entries(&r, &header)?;
        ne.segments = ne.parse_segments(&r)?;
        ne.resources = parse_resources(&r, &header, bytes)?;
        Ok(ne)
    }

    fn parse_segments(&self, r: &Reader<'_>) -> Result<Vec<NeSegment>, LoadError> {
        let h = &self.header;
        let table = h.rel(h.segment_table_offset);
        let n = h.segment_count as u64;
        r.bytes(table, n * 8, "segment table").map_err(|_| {
            LoadError::at(
                h.file_offset + 0x1C,
                "ne_cseg",
                format!(
                    "{n} segments of 8 bytes at {table:#X} run past the end of the file (size \
                     {:#X})",
                    r.len()
                ),
            )
        })?;
        let shift = h.alignment_shift();
        // Segments of a real file do not overlap, so together they copy at
        // most the file's size. Corrupt tables can point many entries at the
        // same 64 KiB; cap what all segments together may copy so that the
        // memory used stays proportional to the file size.
        let budget = r.len().saturating_mul(2).saturating_add(0x20000);
        let mut copied: u64 = 0;
        let mut expanded: u64 = 0;
        let mut segs = Vec::with_capacity(n as usize);
        for i in 0..n {
            let e = table + i * 8;
            let number = i as u16 + 1;
            let mut seg = NeSegment {
                number,
                table_entry_offset: e,
                sector: r.u16(e, "segment data offset")?,
                length_raw: r.u16(e + 2, "segment length")?,
                flags: r.u16(e + 4, "segment flags")?,
                min_alloc_raw: r.u16(e + 6, "segment minimum allocation")?,
                file_offset: 0,
                data: Vec::new(),
                truncated: false,
                relocs: Vec::new(),
            };
            if seg.has_data() {
                seg.file_offset = (seg.sector as u64) << shift;
                let len = seg.file_length() as u64;
                let end = seg.file_offset + len;
                if end > r.len() {
                    seg.truncated = true;
                    if seg.file_offset < r.len() {
                        seg.data = r
                            .bytes(seg.file_offset, r.len() - seg.file_offset, "segment data")?
                            .to_vec();
                    }
                } else {
                    let raw = r.bytes(seg.file_offset, len, "segment data")?;
                    // The overlap budget counts file bytes; the expansion
                    // has its own bound (`expanded`).
                    copied += raw.len() as u64;
                    if seg.is_iterated() {
                        seg.data = expand_iterated(raw, seg.file_offset, seg.alloc_size(), number)?;
                        expanded += seg.data.len() as u64;
                        if expanded > MAX_EXPANDED_BYTES {
                            return Err(LoadError::at(
                                e,
                                format!("segment {number} table entry"),
                                format!(
                                    "iterated segments 1..={number} expand to {expanded:#X} \
                                     bytes, more than {} for one module",
                                    super::size_text(MAX_EXPANDED_BYTES)
                                ),
                            ));
                        }
                    } else {
                        seg.data = raw.to_vec();
                    }
                    if seg.flags & NESEG_RELOCS != 0 {
                        seg.relocs = self.parse_relocs(r, end, number)?;
                    }
                }
            }
            if seg.truncated {
                copied += seg.data.len() as u64;
            }
            copied += seg.relocs.len() as u64 * 8;
            if copied > budget {
                return Err(LoadError::at(
                    e,
                    format!("segment {number} table entry"),
                    format!(
                        "segment data and relocation areas overlap: loading segments 1..={number} \
                         would copy {copied:#X} bytes from a file of {:#X}; the segment table is \
                         corrupt",
                        r.len()
                    ),
                ));
            }
            segs.push(seg);
        }
        Ok(segs)
    }

    fn parse_relocs(&self, r: &Reader<'_>, at: u64, seg: u16) -> Result<Vec<NeReloc>, LoadError> {
        let field = format!("segment {seg} relocation count");
        let n = r.u16(at, &field)? as u64;
        r.bytes(at + 2, n * 8, "relocations").map_err(|_| {
            LoadError::at(
                at,
                field.clone(),
                format!(
                    "{n} relocation records of 8 bytes at {:#X} run past the end of the file \
                     (size {:#X})",
                    at + 2,
                    r.len()
                ),
            )
        })?;
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let p = at + 2 + i * 8;
            let src_type = r.u8(p, "relocation source type")?;
            let flags = r.u8(p + 1, "relocation flags")?;
            let offset = r.u16(p + 2, "relocation offset")?;
            let a = r.u16(p + 4, "relocation target")?;
            let b = r.u16(p + 6, "relocation target")?;
            let target = match flags & 3 {
                0 => {
                    let segment = (a & 0xFF) as u8;
                    if segment == 0xFF {
                        RelocTarget::InternalMovable { ordinal: b }
                    } else {
                        RelocTarget::Internal { segment, offset: b }
                    }
                }
                1 => RelocTarget::ImportOrdinal {
                    module: a,
                    ordinal: b,
                },
                2 => {
                    let name = self.imported_name(b).ok_or_else(|| {
                        LoadError::at(
                            p + 6,
                            "relocation imported-name offset",
                            format!(
                                "name offset {b:#X} lies outside the imported-names table \
                                 (which starts at {:#X}, file size {:#X})",
                                self.header.rel(self.header.imported_names_offset),
                                r.len()
                            ),
                        )
                    })?;
                    RelocTarget::ImportName { module: a, name }
                }
                _ => RelocTarget::OsFixup { kind: a },
            };
            out.push(NeReloc {
                src_type,
                flags,
                offset,
                target,
            });
        }
        Ok(out)
    }

    /// The length-prefixed name at `offset` in the imported-names table, if
    /// it lies inside the file.
    pub fn imported_name(&self, offset: u16) -> Option<String> {
        let o = offset as usize;
        let n = *self.imported_names.get(o)? as usize;
        let s = self.imported_names.get(o + 1..o + 1 + n)?;
        Some(latin1(s))
    }

    /// Module name: the first resident name.
    pub fn module_name(&self) -> Option<&str> {
        self.resident_names.first().map(|(s, _)| s.as_str())
    }

    /// Description: the first non-resident name.
    pub fn description(&self) -> Option<&str> {
        self.nonresident_names.first().map(|(s, _)| s.as_str())
    }

    /// The name of module reference `index` (1-based, as in relocations).
    pub fn module_ref_name(&self, index: u16) -> Option<&str> {
        let i = (index as usize).checked_sub(1)?;
        self.module_refs.get(i).map(|s| s.as_str())
    }

    /// Segment `number` (1-based).
    pub fn segment(&self, number: u16) -> Option<&NeSegment> {
        let i = (number as usize).checked_sub(1)?;
        self.segments.get(i)
    }

    /// The entry point with this ordinal.
    pub fn entry(&self, ordinal: u16) -> Option<&NeEntry> {
        self.entries.iter().find(|e| e.ordinal == ordinal)
    }

    /// The exported name of an ordinal (resident names first, then
    /// non-resident; ordinal 0 is the module name / description, never an
    /// export).
    pub fn export_name(&self, ordinal: u16) -> Option<&str> {
        if ordinal == 0 {
            return None;
        }
        self.resident_names
            .iter()
            .skip(1)
            .chain(self.nonresident_names.iter().skip(1))
            .find(|(_, o)| *o == ordinal)
            .map(|(s, _)| s.as_str())
    }
}

impl NeImage {
    /// The bytes of the imported-names table as the file holds them (from
    /// its start, at most 64 KiB + 256 bytes, less where the file ends).
    pub fn imported_names_bytes(&self) -> &[u8] {
        &self.imported_names
    }

    /// The bytes this parsed module holds on the heap and inline: its
    /// structures, copies and strings, with the file copy that resources
    /// share counted once. The parser keeps this within a small multiple of
    /// the file's size whatever the file says (tests/loader_props.rs).
    pub fn held_bytes(&self) -> u64 {
        use std::mem::size_of;
        let names = |v: &[(String, u16)]| -> usize {
            v.iter()
                .map(|(s, _)| s.len() + size_of::<(String, u16)>())
                .sum()
        };
        let id = |i: &ResourceId| match i {
            ResourceId::Name(s) => s.len(),
            ResourceId::Int(_) => 0,
        };
        let mut n = size_of::<Self>() + self.imported_names.len();
        if let Some(stub) = &self.stub {
            n += size_of::<MzImage>() + stub.image.len() + stub.relocs.len() * 4;
        }
        for s in &self.segments {
            n += size_of::<NeSegment>() + s.data.len() + s.relocs.len() * size_of::<NeReloc>();
        }
        n += self.entries.len() * size_of::<NeEntry>();
        n += names(&self.resident_names) + names(&self.nonresident_names);
        n += self
            .module_refs
            .iter()
            .map(|s| s.len() + size_of::<String>())
            .sum::<usize>();
        let mut files: Vec<(usize, usize)> = Vec::new();
        for t in &self.resources {
            n += size_of::<NeResourceType>() + id(&t.type_id);
            for r in &t.resources {
                n += size_of::<NeResource>() + id(&r.id);
                if let Some(key) = r.data.file_key() {
                    if !files.iter().any(|&(k, _)| k == key) {
                        files.push((key, r.data.file_len()));
                    }
                }
            }
        }
        n += files.iter().map(|&(_, len)| len).sum::<usize>();
        n as u64
    }
}

/// Parse the entry table (win16.md: bundles of (count, segment indicator):
/// 0 skips ordinals, 0xFF moveable 6-byte entries, 0xFE constants, otherwise
/// a fixed segment with 3-byte entries). Reading stops at a zero count, at
/// the end of the table's stated length (when non-zero), or fails at the end
/// of the file.
fn parse_entries(r: &Reader<'_>, h: &NeHeader) -> Result<Vec<NeEntry>, LoadError> {
    let start = h.rel(h.entry_table_offset);
    let limit = if h.entry_table_length == 0 {
        r.len()
    } else {
        start + h.entry_table_length as u64
    };
    let mut out = Vec::new();
    let mut ordinal: u32 = 1;
    let mut p = start;
    while p < limit {
        let count = r.u8(p, "entry bundle count")?;
        if count == 0 {
            break;
        }
        let ind = r.u8(p + 1, "entry bundle segment")?;
        p += 2;
        if ordinal + count as u32 > 0x10000 {
            return Err(LoadError::at(
                p - 2,
                "entry bundle count",
                "the entry table numbers more than 65535 ordinals",
            ));
        }
        let size: u64 = match ind {
            0 => 0,
            0xFF => 6,
            _ => 3,
        };
        for _ in 0..count {
            if size == 0 {
                ordinal += 1;
                continue;
            }
            let flags = r.u8(p, "entry flags")?;
            let (segment, offset, movable) = if ind == 0xFF {
                (
                    r.u8(p + 3, "entry segment")?,
                    r.u16(p + 4, "entry offset")?,
                    true,
                )
            } else {
                (ind, r.u16(p + 1, "entry offset")?, false)
            };
            out.push(NeEntry {
                ordinal: ordinal as u16,
                segment,
                offset,
                flags,
                movable,
            });
            ordinal += 1;
            p += size;
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_application_type_is_one_two_bit_field() {
        // Microsoft's NE format: application flags bits 0-1 (header
        // flags bits 8-9) are the type, 3 = uses the Windows/PM API.
        assert_eq!(ne_flag_names(0x0302), ["MULTIPLEDATA", "WINAPI"]);
        assert_eq!(ne_flag_names(0x0201), ["SINGLEDATA", "WINCOMPAT"]);
        assert_eq!(
            ne_flag_names(0x8101),
            ["SINGLEDATA", "NOTWINCOMPAT", "LIBRARY"]
        );
        assert_eq!(ne_flag_names(0x0002), ["MULTIPLEDATA"]);
    }

    pub(crate) fn build_ne() -> Vec<u8> {
        crate::loader::testdata::sample_ne()
    }

    #[test]
    fn parses_hand_built_ne() {
        let f = build_ne();
        let ne = NeImage::parse(&f).unwrap();
        let h = &ne.header;
        assert_eq!(h.file_offset, 0x40);
        assert_eq!((h.linker_version, h.linker_revision), (5, 10));
        assert_eq!((h.cs, h.ip, h.ss, h.sp), (1, 0, 2, 0));
        assert_eq!(
            (h.heap_size, h.stack_size, h.auto_data_segment),
            (0x400, 0x1000, 2)
        );
        assert_eq!(h.alignment_shift(), 4);
        assert_eq!(h.windows_version_text(), "3.10");
        assert!(!h.is_library());
        assert_eq!(ne.module_name(), Some("HELLO"));
        assert_eq!(ne.description(), Some("Demo"));
        assert_eq!(
            ne.module_refs,
            vec!["USER".to_string(), "KERNEL".to_string()]
        );
        assert_eq!(ne.imported_name(0x0D).as_deref(), Some("INITTASK"));
        assert_eq!(ne.imported_name(0xFFFF), None);
        assert_eq!(ne.export_name(1), Some("EXPFN"));
        assert_eq!(
            ne.entries,
            vec![
                NeEntry {
                    ordinal: 1,
                    segment: 1,
                    offset: 4,
                    flags: 1,
                    movable: false
                },
                NeEntry {
                    ordinal: 3,
                    segment: 1,
                    offset: 8,
                    flags: 3,
                    movable: true
                },
            ]
        );
        assert_eq!(ne.segments.len(), 2);
        let s1 = &ne.segments[0];
        assert_eq!(
            (s1.number, s1.file_offset, s1.file_length()),
            (1, 0x200, 0x20)
        );
        assert_eq!(s1.alloc_size(), 0x20);
        assert!(!s1.is_data() && !s1.truncated);
        assert_eq!(s1.relocs.len(), 4);
        assert_eq!(
            s1.relocs[0].target,
            RelocTarget::ImportOrdinal {
                module: 1,
                ordinal: 1
            }
        );
        assert_eq!(
            s1.relocs[1].target,
            RelocTarget::Internal {
                segment: 2,
                offset: 0x10
            }
        );
        assert!(s1.relocs[1].is_additive());
        assert_eq!(
            s1.relocs[2].target,
            RelocTarget::ImportName {
                module: 2,
                name: "INITTASK".into()
            }
        );
        assert_eq!(s1.relocs[3].target, RelocTarget::OsFixup { kind: 1 });
        let s2 = &ne.segments[1];
        assert!(!s2.has_data() && s2.is_data());
        assert_eq!(
            (s2.file_length(), s2.min_alloc(), s2.alloc_size()),
            (0, 0x100, 0x100)
        );
        assert!(ne.resources.is_empty());
        ne.check_runnable(true).unwrap();
    }

    pub(crate) fn resolver(t: &RelocTarget) -> Result<FarPtr, String> {
        match t {
            RelocTarget::ImportOrdinal {
                module: 1,
                ordinal: 1,
            } => Ok(FarPtr {
                selector: 0x1237,
                offset: 0x4321,
            }),
            RelocTarget::Internal { segment: 2, offset } => Ok(FarPtr {
                selector: 0x100F,
                offset: *offset,
            }),
            RelocTarget::ImportName { name, .. } if name == "INITTASK" => Ok(FarPtr {
                selector: 0x00F7,
                offset: 0x0091,
            }),
            other => Err(format!("unexpected {other}")),
        }
    }

    #[test]
    fn overlapping_segments_are_bounded() {
        // 0x1000 segment entries all pointing at the same 0x20 bytes and
        // relocation table: the copy budget stops it with an error.
        let mut f = build_ne();
        let n: u16 = 0x1000;
        let mut table = Vec::new();
        for _ in 0..n {
            table.extend_from_slice(&[0x20, 0, 0x00, 0x00, 0x00, 0x01, 0x20, 0]);
        }
        // Put the new segment table at the end; point ne_segtab at it.
        let at = f.len();
        f.extend_from_slice(&table);
        let rel = (at - 0x40) as u16;
        f[0x62..0x64].copy_from_slice(&rel.to_le_bytes());
        f[0x5C..0x5E].copy_from_slice(&n.to_le_bytes());
        // Segment length 0 means 64 KiB, clipped at the end of the file.
        let e = NeImage::parse(&f).unwrap_err();
        assert!(e.message.contains("overlap"), "{e}");
        assert!(e.field.starts_with("segment "), "{e}");
    }

    #[test]
    fn every_truncation_is_an_error_never_a_panic() {
        let f = build_ne();
        for n in 0..f.len() {
            let r = NeImage::parse(&f[..n]);
            match r {
                Err(e) => {
                    if let Some(o) = e.offset {
                        assert!(o < f.len() as u64, "offset {o:#x} for cut at {n:#x}");
                    }
                }
                // Cutting inside segment data parses (the segment is marked
                // truncated) but is refused as a program.
                Ok(ne) => {
                    assert!(n > 0x107, "cut at {n:#x} parsed");
                    let e = ne.check_runnable(true).unwrap_err();
                    assert!(e.message.contains("truncated"), "{e}");
                    assert_eq!(e.offset, Some(0x200));
                }
            }
        }
        // Cut inside the relocation records: a precise error.
        let e = NeImage::parse(&f[..0x222]).unwrap_err();
        assert_eq!(e.offset, Some(0x220));
        assert!(e.field.contains("segment 1"), "{e}");
    }

    #[test]
    fn iteration_records_expand_in_order() {
        // 'ab' x 3, then 'Z' x 0 (nothing), then 1 x "xyz".
        let raw = [
            &[3, 0, 2, 0][..],
            b"ab",
            &[0, 0, 1, 0],
            b"Z",
            &[1, 0, 3, 0],
            b"xyz",
        ]
        .concat();
        let out = expand_iterated(&raw, 0x400, 0x100, 2).unwrap();
        assert_eq!(out, b"abababxyz");
        // Exactly the allocation is allowed; one more byte is not.
        assert_eq!(expand_iterated(&raw, 0x400, 9, 2).unwrap().len(), 9);
        let e = expand_iterated(&raw, 0x400, 8, 2).unwrap_err();
        assert_eq!(e.offset, Some(0x40B), "{e}");
        assert_eq!(e.field, "segment 2 iteration count");
        assert!(e.message.contains("allocation of 0x8"), "{e}");
        // A record header cut short: 2 bytes left.
        let e = expand_iterated(&raw[..raw.len() + 2 - 7], 0x400, 0x100, 2).unwrap_err();
        assert_eq!(e.offset, Some(0x40B), "{e}");
        assert_eq!(e.field, "segment 2 iteration record");
        // A pattern longer than what is left.
        let e = expand_iterated(&raw[..raw.len() - 1], 0x400, 0x100, 2).unwrap_err();
        assert_eq!(e.offset, Some(0x40D), "{e}");
        assert_eq!(e.field, "segment 2 iteration record length");
        assert!(e.message.contains("0x3 bytes at 0x40F"), "{e}");
        // 65535 repetitions of nothing cost no time and no memory.
        assert!(
            expand_iterated(&[0xFF, 0xFF, 0, 0], 0, 0x10, 1)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn an_iterated_segment_is_expanded_before_its_relocations() {
        let f = build_ne();
        let plain = NeImage::parse(&f).unwrap();
        let s1 = &plain.segments[0];
        let mut g = crate::loader::testdata::sample_iterated_ne();
        let it = NeImage::parse(&g).unwrap();
        let s = &it.segments[0];
        assert!(s.is_iterated());
        assert_eq!((s.file_length(), s.alloc_size()), (0x29, 0x40));
        assert_eq!(s.data.len(), 0x30);
        assert_eq!(&s.data[..0x20], &s1.data[..]);
        assert_eq!(&s.data[0x20..], &[b'Q'; 0x10]);
        assert_eq!(s.relocs, s1.relocs);
        it.check_runnable(true).unwrap();
        // The records' chains run through the expanded bytes; errors name
        // the records after the iteration records (count at 0x229).
        let mut data = s.data.clone();
        apply_segment_relocations(&mut data, s, &mut resolver).unwrap();
        let mut want = s1.data.clone();
        apply_relocations(&mut want, &s1.relocs, &mut resolver).unwrap();
        assert_eq!(&data[..0x20], &want[..]);
        let e = apply_segment_relocations(&mut s.data.clone(), s, &mut |_| Err("no".into()))
            .unwrap_err();
        assert_eq!(e.offset, Some(0x22B), "{e}");
        // An allocation too small for the expansion: refused, naming the
        // record that overruns.
        g[0x86..0x88].copy_from_slice(&0x2Fu16.to_le_bytes());
        let err = NeImage::parse(&g).unwrap_err();
        assert_eq!(err.offset, Some(0x224), "{err}");
        assert!(err.message.contains("allocation of 0x2F"), "{err}");
    }

    #[test]
    fn bad_e_lfanew_is_named() {
        let mut f = build_ne();
        f[0x3C..0x40].copy_from_slice(&0x1F400u32.to_le_bytes());
        let e = NeImage::parse(&f).unwrap_err();
        assert_eq!(e.offset, Some(0x3C));
        assert!(
            e.to_string()
                .contains("e_lfanew 0x1F400 points past the end"),
            "{e}"
        );
    }
}
