//! The small interface through which every walker reads the walked machine.

use std::fmt;

/// Whether segment values are real-mode paragraphs or protected-mode
/// selectors (win16.md, "The CPU the programs expect").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum CpuMode {
    /// Real mode: linear = seg * 16 + off, every segment 64 KiB.
    Real,
    /// 16-bit protected mode: segment registers hold GDT/LDT selectors.
    Protected,
}

/// A segment descriptor as the walker needs it (the 286 layout: a 24/32-bit
/// base, a byte-granular limit, and the access-rights byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Linear base address.
    pub base: u32,
    /// Highest valid offset (byte granular).
    pub limit: u32,
    /// Access-rights byte: bit 7 present, bits 5-6 DPL, bit 4 S (code or
    /// data), bit 3 executable, bit 1 readable/writable, bit 0 accessed.
    pub access: u8,
}

impl Descriptor {
    /// Access byte of a present, readable ring-3 code segment.
    pub const CODE_R3: u8 = 0xFA;
    /// Access byte of a present, writable ring-3 data segment.
    pub const DATA_R3: u8 = 0xF2;

    /// The descriptor a real-mode segment value implies.
    pub fn real(seg: u16) -> Self {
        Descriptor {
            base: u32::from(seg) << 4,
            limit: 0xFFFF,
            access: 0x9A,
        }
    }
    /// Present bit.
    pub fn present(&self) -> bool {
        self.access & 0x80 != 0
    }
    /// Descriptor privilege level.
    pub fn dpl(&self) -> u8 {
        (self.access >> 5) & 3
    }
    /// A code (or data) segment descriptor, not a system descriptor.
    pub fn is_segment(&self) -> bool {
        self.access & 0x10 != 0
    }
    /// An executable (code) segment.
    pub fn is_code(&self) -> bool {
        self.is_segment() && self.access & 0x08 != 0
    }
}

/// Why a read of walked memory failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemError {
    /// The selector does not name a usable segment (null, past the table
    /// limit, not present, or a system descriptor).
    BadSelector(u16),
    /// The access reaches past the segment's limit.
    BeyondLimit {
        /// The segment.
        seg: u16,
        /// The offset of the access.
        off: u32,
        /// Bytes accessed.
        len: u32,
        /// The segment's limit.
        limit: u32,
    },
    /// The linear address is not backed by memory the walker can read.
    Unmapped {
        /// The linear address.
        linear: u32,
    },
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemError::BadSelector(s) => {
                write!(f, "selector {s:04X} does not name a usable segment")
            }
            MemError::BeyondLimit {
                seg,
                off,
                len,
                limit,
            } => write!(
                f,
                "{len} byte(s) at {seg:04X}:{off:04X} reach past the segment limit {limit:04X}"
            ),
            MemError::Unmapped { linear } => write!(f, "linear address {linear:08X} is not mapped"),
        }
    }
}

impl std::error::Error for MemError {}

/// Who owns a code segment: what StackTraceInfo fills in (toolhelp.md,
/// "hModule and wSegment").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeOwner {
    /// The owning module's handle (Win16: the module database selector; DOS:
    /// the PSP segment of the program that owns the memory).
    pub hmodule: u16,
    /// 1-based NE segment number whose handle maps to the code segment, when
    /// the module has a segment table entry for it.
    pub segment: Option<u16>,
}

/// Where a descriptor table lives: what the GDTR or LDTR holds (a linear
/// base and a byte limit; the last valid byte is `base + limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptorTable {
    /// Linear address of entry 0.
    pub base: u32,
    /// Highest valid byte offset in the table (8 * entries - 1).
    pub limit: u32,
}

/// Read-only view of a 16-bit machine, enough to walk its stacks.
pub trait WalkMemory {
    /// Real or protected mode.
    fn mode(&self) -> CpuMode;

    /// The descriptor a segment value names. In real mode every value names
    /// a 64 KiB segment at `seg * 16`; in protected mode `None` means a null
    /// selector, one past its table's limit, or an unreadable table.
    fn descriptor(&self, seg: u16) -> Option<Descriptor>;

    /// Read bytes at linear addresses (no segment checks).
    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError>;

    /// The task the walk runs in (StackTraceCSIPFirst's hTask).
    fn current_task(&self) -> u16;

    /// The module owning a code segment, for hModule and wSegment.
    fn code_owner(&self, cs: u16) -> Option<CodeOwner>;

    /// The GDT (`ldt == false`) or the LDT (`ldt == true`) of a
    /// protected-mode machine, when the memory knows where its tables are:
    /// the machine and a snapshot do; a hand-built test memory, whose
    /// descriptors are not kept in tables, does not (`None`, the default).
    /// Used to say why a selector cannot be translated (past the table's
    /// limit) and to find the segments that hold a linear address
    /// (dbghelp.md, "ADDRESS and its modes").
    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        let _ = ldt;
        None
    }

    /// May a walk read this memory through its cache (walk/cache.rs),
    /// which reads whole chunks around what the walk asks for? A memory
    /// that must see exactly the walk's own reads (the snapshot's
    /// recorder) says no.
    fn cacheable(&self) -> bool {
        true
    }

    /// Read `buf.len()` bytes at `seg:off`, checked against the segment's
    /// presence and limit.
    fn read(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError> {
        let d = self.descriptor(seg).ok_or(MemError::BadSelector(seg))?;
        if self.mode() == CpuMode::Protected && (!d.present() || !d.is_segment()) {
            return Err(MemError::BadSelector(seg));
        }
        let len = buf.len() as u32;
        let end = u32::from(off) + len;
        if len > 0 && end - 1 > d.limit {
            return Err(MemError::BeyondLimit {
                seg,
                off: off.into(),
                len,
                limit: d.limit,
            });
        }
        self.read_linear(d.base.wrapping_add(off.into()), buf)
    }

    /// Read a little-endian word at `seg:off`, checked against the limit.
    fn read_u16(&self, seg: u16, off: u16) -> Result<u16, MemError> {
        let mut b = [0u8; 2];
        self.read(seg, off, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
}
