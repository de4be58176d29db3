//! Snapshots: a walked machine saved as JSON, to be walked again through
//! the same [`WalkMemory`] interface as the live machine
//! (`shared/spec/dbghelp.md`; the ground truth people who write or test
//! stack walkers need).
//!
//! # Format (version 1)
//!
//! A JSON object. Integers are JSON numbers (decimal); byte blobs are hex
//! (upper or lower case) or base64 (standard alphabet, `=` padding
//! optional).
//!
//! ```text
//! {
//!   "format": "toolhelp16 snapshot",       required, exactly this
//!   "version": 1,                           required
//!   "source": {"file": F, "at": LOC,        optional: where it was taken
//!              "more": [F...]},             (more: other tasks' programs)
//!   "notes": "...",                         optional: free text
//!   "mode": "protected" | "real",           required
//!   "registers": {"cs", "ip", "ss", "sp", "bp",       required
//!                 "ax", "bx", "cx", "dx", "si", "di",
//!                 "flags", "ds", "es", "fs", "gs"}    optional, default 0
//!   "current_task": hTask,                  optional, default 0
//!   "gdt": TABLE, "ldt": TABLE,             protected mode: gdt required,
//!                                           ldt optional; real mode: none
//!   "memory": [BLOB...],                    the bytes a walk reads
//!   "code_owners": [{"cs", "hModule", "wSegment" (int or null)}...],
//!   "dispatch": {"cs", "ip"},               optional: TOOLHELP's pass-on
//!                                           address (a fault dispatch
//!                                           frame's CS:IP)
//!   "expect": {                             optional: the ground truth
//!     "frames": [STACKFRAME64...],          a correct walk's frames from
//!                                           the registers, in native modes
//!     "end": KIND,                          why it ends (StopReason::kind)
//!     "end_text": "...",                    optional: the sentence
//!     "failures": {START: REASON}           starts that must fail on their
//!   }                                       first step, with the reason
//!   "resume": {...}                         optional: a checkpoint file's
//!                                           (debug/checkpoint_file.rs);
//!                                           a walk does not read it
//! }
//! TABLE = {"base": linear, "limit": byte limit (<= 0xFFFF),
//!          "entries": [{"index": N, "hex": 16 hex digits}...]}
//! BLOB  = {"linear": address, "hex": "..." or ["row", "row", ...]}
//!       | {"linear": address, "base64": "..."}
//! ```
//!
//! - `registers`: the context a walk starts from (CS:IP, SS:BP, SS:SP), as
//!   StackWalk64's ContextRecord; at a breakpoint the live registers, at a
//!   fault the faulting context.
//! - A table entry is the descriptor's 8 bytes as they sit in the table
//!   (the 286 layout: limit 0-15, base 0-23, access, limit 16-19 and
//!   flags, base 24-31). Entries not listed are empty (all zero): a
//!   selector naming one is not present; one past `limit` is past the
//!   table's limit.
//! - `memory`: non-overlapping blobs at linear addresses. A read of any
//!   byte outside them fails as unmapped memory. A blob's `hex` may be one
//!   string or an array of strings (rows) that are concatenated.
//! - `code_owners`: what StackTraceInfo reports for the code segments the
//!   walk met (hModule and the 1-based NE segment number); other segments
//!   have no owner.
//! - `expect.frames` use the JSON form of [`StackFrame64`]; `failures`
//!   maps a start name (`native`, `flat`, `istackwalker`, see
//!   [`Start`]) to the [`AddressFailure`] sentence its first step fails
//!   with.
//!
//! Unknown members are refused. Limits (a snapshot is untrusted input):
//! the file at most [`MAX_FILE_BYTES`], all blobs together at most
//! [`MAX_MEMORY_BYTES`] decoded, at most [`MAX_BLOBS`] blobs, at most
//! [`MAX_EXPECTED_FRAMES`] expected frames. Every violation is an error
//! that says where.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::memory::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};
use super::stackframe::{
    FrameWalk, StackFrame64, Start, StepError, compare_frames, walk_with_start,
};

mod capture;
pub use capture::capture;

/// The `format` member.
pub const FORMAT: &str = "toolhelp16 snapshot";
/// The `version` member this code reads and writes.
pub const VERSION: u32 = 1;
/// The largest snapshot file read.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The most memory bytes a snapshot may hold, all blobs together.
pub const MAX_MEMORY_BYTES: usize = 16 << 20;
/// The most blobs.
pub const MAX_BLOBS: usize = 4096;
/// The most expected frames (a climbing chain has at most 32768, plus
/// the frames a dispatch see-through adds).
pub const MAX_EXPECTED_FRAMES: usize = 0x10000;
/// Bytes per hex row when writing.
const ROW: usize = 32;

/// Where a snapshot was taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The program file.
    pub file: String,
    /// The location (`--at`), in the CLI's LOC syntax.
    pub at: String,
    /// The other programs run beside it as tasks, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<String>,
}

/// The registers of a snapshot (see the format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registers {
    /// CS.
    pub cs: u16,
    /// IP.
    pub ip: u16,
    /// SS.
    pub ss: u16,
    /// SP.
    pub sp: u16,
    /// BP.
    pub bp: u16,
    #[serde(default)]
    /// AX.
    pub ax: u16,
    #[serde(default)]
    /// BX.
    pub bx: u16,
    #[serde(default)]
    /// CX.
    pub cx: u16,
    #[serde(default)]
    /// DX.
    pub dx: u16,
    #[serde(default)]
    /// SI.
    pub si: u16,
    #[serde(default)]
    /// DI.
    pub di: u16,
    #[serde(default)]
    /// FLAGS.
    pub flags: u16,
    #[serde(default)]
    /// DS.
    pub ds: u16,
    #[serde(default)]
    /// ES.
    pub es: u16,
    #[serde(default)]
    /// FS.
    pub fs: u16,
    #[serde(default)]
    /// GS.
    pub gs: u16,
}

impl Registers {
    /// The walk's starting context.
    pub fn context(&self) -> super::stackframe::WalkContext {
        super::stackframe::WalkContext {
            cs: self.cs,
            ip: self.ip,
            ss: self.ss,
            sp: self.sp,
            bp: self.bp,
        }
    }
}

impl From<crate::x86::Regs> for Registers {
    fn from(r: crate::x86::Regs) -> Self {
        Registers {
            cs: r.cs,
            ip: r.ip,
            ss: r.ss,
            sp: r.sp,
            bp: r.bp,
            ax: r.ax,
            bx: r.bx,
            cx: r.cx,
            dx: r.dx,
            si: r.si,
            di: r.di,
            flags: r.flags,
            ds: r.ds,
            es: r.es,
            fs: r.fs,
            gs: r.gs,
        }
    }
}

/// A descriptor table: where it is, its limit, its non-empty entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The table's linear base.
    pub base: u32,
    /// The table's limit.
    pub limit: u32,
    /// Non-empty entries by index (selector >> 3).
    pub entries: BTreeMap<u16, [u8; 8]>,
}

/// What a correct walk of the snapshot reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    /// The frames from the registers, in native modes.
    pub frames: Vec<StackFrame64>,
    /// Why the walk ends ([`StepError::kind`]).
    pub end: String,
    /// The sentence, when given.
    pub end_text: Option<String>,
    /// Start name -> the sentence its first step fails with.
    pub failures: BTreeMap<String, String>,
}

/// A walked machine, saved (module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Where it was taken, if known.
    pub source: Option<Source>,
    /// Free text about it.
    pub notes: Option<String>,
    /// Real or protected mode.
    pub mode: CpuMode,
    /// The registers at the stop.
    pub registers: Registers,
    /// The current task's handle (0 for DOS).
    pub current_task: u16,
    /// The GDT, in protected mode.
    pub gdt: Option<Table>,
    /// The LDT, in protected mode.
    pub ldt: Option<Table>,
    /// Sorted, non-overlapping (linear, bytes).
    memory: Vec<(u32, Vec<u8>)>,
    /// Which module and NE segment each code selector belongs to.
    pub code_owners: BTreeMap<u16, CodeOwner>,
    /// TOOLHELP's fault dispatch return address, when a fault callback is running.
    pub dispatch: Option<(u16, u16)>,
    /// The frames a correct walk gives, and how it ends.
    pub expect: Option<Expect>,
    /// A checkpoint file's `resume` member (debug/checkpoint_file.rs),
    /// kept as it is: a walk does not read it.
    pub resume: Option<Value>,
}

// ---- The JSON shapes --------------------------------------------------

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<Source>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    notes: Option<String>,
    mode: CpuMode,
    registers: Registers,
    #[serde(default)]
    current_task: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gdt: Option<RawTable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ldt: Option<RawTable>,
    memory: Vec<RawBlob>,
    #[serde(default)]
    code_owners: Vec<RawOwner>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dispatch: Option<RawCsIp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expect: Option<RawExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resume: Option<Value>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    base: u32,
    limit: u32,
    entries: Vec<RawEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    index: u16,
    hex: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlob {
    linear: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hex: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base64: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOwner {
    cs: u16,
    #[serde(rename = "hModule")]
    h_module: u16,
    #[serde(rename = "wSegment", default)]
    w_segment: Option<u16>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCsIp {
    cs: u16,
    ip: u16,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    frames: Vec<StackFrame64>,
    end: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end_text: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    failures: BTreeMap<String, String>,
}

// ---- Blobs ------------------------------------------------------------

fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decode hex digits, appending to `out`.
fn decode_hex_into(s: &str, what: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(format!("{what}: an odd number of hex digits ({})", b.len()));
    }
    for (i, pair) in b.chunks_exact(2).enumerate() {
        match (hex_digit(pair[0]), hex_digit(pair[1])) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => {
                let at = if hex_digit(pair[0]).is_none() {
                    2 * i
                } else {
                    2 * i + 1
                };
                let c = s.get(at..).and_then(|t| t.chars().next()).unwrap_or('?');
                return Err(format!(
                    "{what}: '{}' at position {at} is not a hex digit",
                    crate::escape::name(&c.to_string())
                ));
            }
        }
    }
    Ok(())
}

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decode standard base64 (padding optional).
fn decode_base64(s: &str, what: &str) -> Result<Vec<u8>, String> {
    let body = s.trim_end_matches('=');
    if s.len() - body.len() > 2 {
        return Err(format!("{what}: more than two '=' at the end"));
    }
    if body.len() % 4 == 1 {
        return Err(format!(
            "{what}: {} base64 characters cannot end a byte sequence",
            body.len()
        ));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in body.bytes().enumerate() {
        let v = b64_value(c).ok_or_else(|| {
            let ch = s.get(i..).and_then(|t| t.chars().next()).unwrap_or('?');
            format!(
                "{what}: '{}' at position {i} is not a base64 character",
                crate::escape::name(&ch.to_string())
            )
        })?;
        acc = (acc << 6 | u32::from(v)) & 0xFF_FFFF;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

/// Encode as hex rows of [`ROW`] bytes.
fn hex_rows(bytes: &[u8]) -> Value {
    Value::Array(
        bytes
            .chunks(ROW)
            .map(|c| Value::String(c.iter().map(|b| format!("{b:02X}")).collect()))
            .collect(),
    )
}

/// A blob's bytes, within `budget` bytes (decreased).
fn blob_bytes(b: &RawBlob, what: &str, budget: &mut usize) -> Result<Vec<u8>, String> {
    let too_big =
        || format!("{what}: the blobs hold more than {MAX_MEMORY_BYTES} bytes in all (the limit)");
    let out = match (&b.hex, &b.base64) {
        (Some(_), Some(_)) => return Err(format!("{what}: both \"hex\" and \"base64\"")),
        (None, None) => return Err(format!("{what}: neither \"hex\" nor \"base64\"")),
        (Some(Value::String(s)), None) => {
            if s.len() / 2 > *budget {
                return Err(too_big());
            }
            let mut out = Vec::with_capacity(s.len() / 2);
            decode_hex_into(s, &format!("{what}.hex"), &mut out)?;
            out
        }
        (Some(Value::Array(rows)), None) => {
            let total: usize = rows
                .iter()
                .map(|r| r.as_str().map_or(0, str::len))
                .fold(0usize, usize::saturating_add);
            if total / 2 > *budget {
                return Err(too_big());
            }
            let mut out = Vec::with_capacity(total / 2);
            for (i, r) in rows.iter().enumerate() {
                let Some(r) = r.as_str() else {
                    return Err(format!("{what}.hex[{i}]: not a string"));
                };
                decode_hex_into(r, &format!("{what}.hex[{i}]"), &mut out)?;
            }
            out
        }
        (Some(_), None) => {
            return Err(format!(
                "{what}.hex: a string or an array of strings, not another JSON value"
            ));
        }
        (None, Some(s)) => {
            if s.len() / 4 * 3 > budget.saturating_add(3) {
                return Err(too_big());
            }
            decode_base64(s, &format!("{what}.base64"))?
        }
    };
    if out.len() > *budget {
        return Err(too_big());
    }
    *budget -= out.len();
    Ok(out)
}

// ---- Reading ----------------------------------------------------------

fn table_from_raw(t: &RawTable, what: &str) -> Result<Table, String> {
    if t.limit > 0xFFFF {
        return Err(format!(
            "{what}.limit: 0x{:X} is more than a descriptor table's 0xFFFF",
            t.limit
        ));
    }
    if u64::from(t.base) + u64::from(t.limit) > u64::from(u32::MAX) {
        return Err(format!("{what}: base + limit passes 4 GiB"));
    }
    let mut entries = BTreeMap::new();
    for (i, e) in t.entries.iter().enumerate() {
        let w = format!("{what}.entries[{i}]");
        if u32::from(e.index) * 8 + 7 > t.limit {
            return Err(format!(
                "{w}: index {} lies past the table's limit 0x{:X}",
                e.index, t.limit
            ));
        }
        if e.hex.len() != 16 {
            return Err(format!(
                "{w}.hex: a descriptor is 8 bytes (16 hex digits), not {} digits",
                e.hex.len()
            ));
        }
        let mut b = Vec::with_capacity(8);
        decode_hex_into(&e.hex, &format!("{w}.hex"), &mut b)?;
        let mut d = [0u8; 8];
        d.copy_from_slice(&b);
        if entries.insert(e.index, d).is_some() {
            return Err(format!("{w}: index {} is listed twice", e.index));
        }
    }
    Ok(Table {
        base: t.base,
        limit: t.limit,
        entries,
    })
}

impl Snapshot {
    /// Parse a snapshot from JSON bytes, checking everything the format
    /// says; the error says where the problem is.
    pub fn from_json(bytes: &[u8]) -> Result<Snapshot, String> {
        let raw: Raw = serde_json::from_slice(bytes).map_err(|e| format!("not a snapshot: {e}"))?;
        if raw.format != FORMAT {
            return Err(format!(
                "format: {}, not \"{FORMAT}\"",
                crate::escape::quoted(&raw.format.chars().take(80).collect::<String>())
            ));
        }
        if raw.version != VERSION {
            return Err(format!(
                "version: {}, but this toolhelp16 reads version {VERSION}",
                raw.version
            ));
        }
        let (gdt, ldt) = match raw.mode {
            CpuMode::Real => {
                if raw.gdt.is_some() || raw.ldt.is_some() {
                    return Err(
                        "gdt/ldt: a real-mode snapshot has no descriptor tables".to_string()
                    );
                }
                (None, None)
            }
            CpuMode::Protected => {
                let Some(g) = &raw.gdt else {
                    return Err("gdt: a protected-mode snapshot needs its GDT".to_string());
                };
                let gdt = table_from_raw(g, "gdt")?;
                let ldt = raw
                    .ldt
                    .as_ref()
                    .map(|t| table_from_raw(t, "ldt"))
                    .transpose()?;
                (Some(gdt), ldt)
            }
        };
        if raw.memory.len() > MAX_BLOBS {
            return Err(format!(
                "memory: {} blobs, more than the {MAX_BLOBS} allowed",
                raw.memory.len()
            ));
        }
        let mut budget = MAX_MEMORY_BYTES;
        let mut memory = Vec::with_capacity(raw.memory.len());
        for (i, b) in raw.memory.iter().enumerate() {
            let what = format!("memory[{i}]");
            let bytes = blob_bytes(b, &what, &mut budget)?;
            if bytes.is_empty() {
                return Err(format!("{what}: an empty blob"));
            }
            if u64::from(b.linear) + bytes.len() as u64 > 1 << 32 {
                return Err(format!(
                    "{what}: {} bytes at linear 0x{:08X} pass 4 GiB",
                    bytes.len(),
                    b.linear
                ));
            }
            memory.push((b.linear, bytes, i));
        }
        memory.sort_by_key(|m| m.0);
        for pair in memory.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if u64::from(a.0) + a.1.len() as u64 > u64::from(b.0) {
                return Err(format!(
                    "memory[{}] and memory[{}] overlap at linear 0x{:08X}",
                    a.2, b.2, b.0
                ));
            }
        }
        let memory = memory.into_iter().map(|(l, b, _)| (l, b)).collect();
        let mut code_owners = BTreeMap::new();
        for (i, o) in raw.code_owners.iter().enumerate() {
            let owner = CodeOwner {
                hmodule: o.h_module,
                segment: o.w_segment,
            };
            if code_owners.insert(o.cs, owner).is_some() {
                return Err(format!(
                    "code_owners[{i}]: cs 0x{:04X} is listed twice",
                    o.cs
                ));
            }
        }
        let expect = match raw.expect {
            None => None,
            Some(e) => {
                if e.frames.len() > MAX_EXPECTED_FRAMES {
                    return Err(format!(
                        "expect.frames: {} frames, more than the {MAX_EXPECTED_FRAMES} allowed",
                        e.frames.len()
                    ));
                }
                if e.end.is_empty() {
                    return Err("expect.end: empty".to_string());
                }
                for k in e.failures.keys() {
                    k.parse::<Start>()
                        .map_err(|err| format!("expect.failures: {err}"))?;
                }
                Some(Expect {
                    frames: e.frames,
                    end: e.end,
                    end_text: e.end_text,
                    failures: e.failures,
                })
            }
        };
        Ok(Snapshot {
            source: raw.source,
            notes: raw.notes,
            mode: raw.mode,
            registers: raw.registers,
            current_task: raw.current_task,
            gdt,
            ldt,
            memory,
            code_owners,
            dispatch: raw.dispatch.map(|d| (d.cs, d.ip)),
            expect,
            resume: raw.resume,
        })
    }

    /// Read and parse a snapshot file; the error names the file.
    pub fn read(path: &Path) -> Result<Snapshot, String> {
        let fail = |what: String| format!("{}: {what}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| fail(e.to_string()))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!(
                "larger than {} MiB, the most a snapshot may be",
                MAX_FILE_BYTES >> 20
            )));
        }
        Snapshot::from_json(&bytes).map_err(fail)
    }

    /// The JSON text (pretty-printed; hex rows of 32 bytes).
    pub fn to_json(&self) -> String {
        let table = |t: &Table| RawTable {
            base: t.base,
            limit: t.limit,
            entries: t
                .entries
                .iter()
                .map(|(i, d)| RawEntry {
                    index: *i,
                    hex: d.iter().map(|b| format!("{b:02X}")).collect(),
                })
                .collect(),
        };
        let raw = Raw {
            format: FORMAT.to_string(),
            version: VERSION,
            source: self.source.clone(),
            notes: self.notes.clone(),
            mode: self.mode,
            registers: self.registers,
            current_task: self.current_task,
            gdt: self.gdt.as_ref().map(table),
            ldt: self.ldt.as_ref().map(table),
            memory: self
                .memory
                .iter()
                .map(|(l, b)| RawBlob {
                    linear: *l,
                    hex: Some(hex_rows(b)),
                    base64: None,
                })
                .collect(),
            code_owners: self
                .code_owners
                .iter()
                .map(|(cs, o)| RawOwner {
                    cs: *cs,
                    h_module: o.hmodule,
                    w_segment: o.segment,
                })
                .collect(),
            dispatch: self.dispatch.map(|(cs, ip)| RawCsIp { cs, ip }),
            expect: self.expect.as_ref().map(|e| RawExpect {
                frames: e.frames.clone(),
                end: e.end.clone(),
                end_text: e.end_text.clone(),
                failures: e.failures.clone(),
            }),
            resume: self.resume.clone(),
        };
        serde_json::to_string_pretty(&raw).unwrap_or_default() + "\n"
    }

    /// The memory blobs: (linear address, bytes), sorted.
    pub fn memory(&self) -> impl Iterator<Item = (u32, &[u8])> {
        self.memory.iter().map(|(l, b)| (*l, b.as_slice()))
    }

    /// Walk the snapshot from its registers with `start`.
    pub fn walk(&self, start: Start, max_frames: usize) -> FrameWalk {
        walk_with_start(
            self,
            self.registers.context(),
            start,
            self.dispatch,
            max_frames,
        )
    }

    /// How a walk with `start` agrees with the expected result; `None`
    /// when the snapshot has no `expect` member.
    pub fn check(&self, start: Start, walk: &FrameWalk) -> Option<Agreement> {
        let e = self.expect.as_ref()?;
        let mut a = Agreement {
            expected_failure: e.failures.get(start.name()).cloned(),
            frames: Vec::new(),
            problems: Vec::new(),
        };
        if let Some(reason) = &a.expected_failure {
            match &walk.end {
                StepError::Address(f) if walk.frames.is_empty() && f.to_string() == *reason => {}
                StepError::Address(f) => a.problems.push(format!(
                    "the first step fails with \"{f}\", but the snapshot expects \"{reason}\""
                )),
                end => a.problems.push(format!(
                    "the walk gives {} frame(s) and ends \"{end}\", but the snapshot expects its first step to fail: \"{reason}\"",
                    walk.frames.len()
                )),
            }
            return Some(a);
        }
        if let StepError::Address(f) = &walk.end {
            a.problems.push(format!(
                "the first step fails: {f}; the snapshot expects {} frame(s)",
                e.frames.len()
            ));
        }
        for i in 0..e.frames.len().max(walk.frames.len()) {
            let differences = match (e.frames.get(i), walk.frames.get(i)) {
                (Some(want), Some(got)) => compare_frames(self, want, got),
                (Some(_), None) => vec!["expected, but the walk has no such frame".to_string()],
                (None, Some(_)) => vec!["not expected: the walk goes on".to_string()],
                (None, None) => Vec::new(),
            };
            a.frames.push(FrameAgreement {
                index: i,
                differences,
            });
        }
        if !matches!(walk.end, StepError::Address(_)) {
            if walk.end.kind() != e.end {
                a.problems.push(format!(
                    "the walk ends {} (\"{}\"), the snapshot expects {}",
                    walk.end.kind(),
                    walk.end,
                    e.end
                ));
            } else if let Some(t) = &e.end_text {
                if *t != walk.end.to_string() {
                    a.problems.push(format!(
                        "the walk ends \"{}\", the snapshot expects \"{t}\"",
                        walk.end
                    ));
                }
            }
        }
        Some(a)
    }
}

/// One frame's agreement with the expected frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameAgreement {
    /// The frame's index.
    pub index: usize,
    /// Empty when the frame agrees.
    pub differences: Vec<String>,
}

impl FrameAgreement {
    /// No difference.
    pub fn agrees(&self) -> bool {
        self.differences.is_empty()
    }
}

/// How a walk agrees with a snapshot's `expect` member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Agreement {
    /// The failure the snapshot expects for this start, if any (then no
    /// frames are compared).
    pub expected_failure: Option<String>,
    /// Frame by frame, over the longer of the two lists.
    pub frames: Vec<FrameAgreement>,
    /// Everything else that differs (the end, a first-step failure).
    pub problems: Vec<String>,
}

impl Agreement {
    /// No frame differs and nothing else does.
    pub fn agrees(&self) -> bool {
        self.problems.is_empty() && self.frames.iter().all(FrameAgreement::agrees)
    }
}

impl fmt::Display for Agreement {
    /// One line per frame, then the other problems.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fr in &self.frames {
            if fr.agrees() {
                writeln!(f, "  frame {}: agrees", fr.index)?;
            } else {
                writeln!(f, "  frame {}: DIFFERS", fr.index)?;
                for d in &fr.differences {
                    writeln!(f, "    {d}")?;
                }
            }
        }
        for p in &self.problems {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

// ---- WalkMemory -------------------------------------------------------

impl WalkMemory for Snapshot {
    fn mode(&self) -> CpuMode {
        self.mode
    }

    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        if self.mode == CpuMode::Real {
            return Some(Descriptor::real(seg));
        }
        if seg & !3 == 0 {
            return None;
        }
        let t = if seg & 4 != 0 { &self.ldt } else { &self.gdt };
        let t = t.as_ref()?;
        let index = seg >> 3;
        if u32::from(index) * 8 + 7 > t.limit {
            return None;
        }
        let d = crate::x86::descriptor::decode(t.entries.get(&index)?);
        (d.access != 0).then_some(d)
    }

    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        let end = u64::from(linear) + buf.len() as u64;
        let mut pos = u64::from(linear);
        while pos < end {
            let unmapped = MemError::Unmapped { linear: pos as u32 };
            let i = self.memory.partition_point(|(l, _)| u64::from(*l) <= pos);
            let (start, bytes) = i
                .checked_sub(1)
                .and_then(|i| self.memory.get(i))
                .ok_or(unmapped.clone())?;
            let bend = u64::from(*start) + bytes.len() as u64;
            if pos >= bend {
                return Err(unmapped);
            }
            let n = end.min(bend) - pos;
            let from = (pos - u64::from(*start)) as usize;
            let to = (pos - u64::from(linear)) as usize;
            buf[to..to + n as usize].copy_from_slice(&bytes[from..from + n as usize]);
            pos += n;
        }
        Ok(())
    }

    fn current_task(&self) -> u16 {
        self.current_task
    }

    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        self.code_owners.get(&cs).copied()
    }

    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        let t = if ldt { &self.ldt } else { &self.gdt };
        t.as_ref().map(|t| DescriptorTable {
            base: t.base,
            limit: t.limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::testmem::{StackCursor, TestMemory};

    /// A small protected-mode snapshot as JSON text, with `patch` applied
    /// to its object.
    fn protected_json(patch: impl FnOnce(&mut Value)) -> String {
        let mut v = serde_json::json!({
            "format": FORMAT,
            "version": 1,
            "mode": "protected",
            "registers": {"cs": 0x1007, "ip": 0x10, "ss": 0x100F, "sp": 0x1F0, "bp": 0x1F8},
            "gdt": {"base": 0x10_0000, "limit": 0x1F, "entries": []},
            // LDT: 1007 code at 0x40000 limit 0xFF, 100F data at 0x50000 limit 0x1FF.
            "ldt": {"base": 0x11_0000, "limit": 0xFFFF, "entries": [
                {"index": 0x200, "hex": "FF00000004FA0000"},
                {"index": 0x201, "hex": "FF01000005F20000"}
            ]},
            "memory": [{"linear": 0x5_0000, "hex": "00"}],
        });
        patch(&mut v);
        v.to_string()
    }

    fn err(patch: impl FnOnce(&mut Value)) -> String {
        Snapshot::from_json(protected_json(patch).as_bytes()).unwrap_err()
    }

    #[test]
    fn a_minimal_snapshot_reads_and_has_its_descriptors() {
        let s = Snapshot::from_json(protected_json(|_| {}).as_bytes()).unwrap();
        let d = s.descriptor(0x1007).unwrap();
        assert_eq!((d.base, d.limit, d.access), (0x4_0000, 0xFF, 0xFA));
        assert_eq!(s.descriptor(0x100C).unwrap().base, 0x5_0000, "RPL ignored");
        assert_eq!(s.descriptor(0x1017), None, "an empty entry");
        assert_eq!(s.descriptor(0x0003), None);
        assert_eq!(s.descriptor(0x0008), None, "no GDT entries");
        let mut b = [0u8; 1];
        assert!(s.read_linear(0x5_0000, &mut b).is_ok());
        assert_eq!(
            s.read_linear(0x5_0001, &mut b),
            Err(MemError::Unmapped { linear: 0x5_0001 })
        );
        assert_eq!(
            s.descriptor_table(true),
            Some(DescriptorTable {
                base: 0x11_0000,
                limit: 0xFFFF
            })
        );
    }

    #[test]
    fn blobs_read_across_neighbours_and_fail_in_gaps() {
        let s = Snapshot::from_json(
            protected_json(|v| {
                v["memory"] = serde_json::json!([
                    {"linear": 0x100, "hex": ["0102", "03"]},
                    {"linear": 0x103, "base64": "BAUG"},
                    {"linear": 0x200, "base64": "Bw"}
                ])
            })
            .as_bytes(),
        )
        .unwrap();
        let mut b = [0u8; 6];
        s.read_linear(0x100, &mut b).unwrap();
        assert_eq!(b, [1, 2, 3, 4, 5, 6]);
        let mut c = [0u8; 1];
        s.read_linear(0x200, &mut c).unwrap();
        assert_eq!(c, [7]);
        let mut d = [0u8; 8];
        assert_eq!(
            s.read_linear(0x100, &mut d),
            Err(MemError::Unmapped { linear: 0x106 })
        );
        assert_eq!(
            s.read_linear(0xFF, &mut c),
            Err(MemError::Unmapped { linear: 0xFF })
        );
        assert!(s.read_linear(0xFFFF_FFFF, &mut d).is_err());
    }

    type Patch = Box<dyn FnOnce(&mut Value)>;

    #[test]
    fn bad_snapshots_say_what_is_wrong() {
        let cases: Vec<(Patch, &str)> = vec![
            (Box::new(|v| v["format"] = "x".into()), "format"),
            (Box::new(|v| v["version"] = 2.into()), "version: 2"),
            (Box::new(|v| v["mode"] = "long".into()), "not a snapshot"),
            (Box::new(|v| v["extra"] = 1.into()), "unknown field"),
            (
                Box::new(|v| v["registers"]["cs"] = 70000.into()),
                "not a snapshot",
            ),
            (
                Box::new(|v| {
                    v.as_object_mut()
                        .unwrap()
                        .remove("gdt")
                        .map(drop)
                        .unwrap_or(())
                }),
                "gdt: a protected-mode snapshot needs its GDT",
            ),
            (
                Box::new(|v| v["ldt"]["entries"][0]["hex"] = "FF".into()),
                "ldt.entries[0].hex: a descriptor is 8 bytes",
            ),
            (
                Box::new(|v| v["ldt"]["entries"][1]["index"] = 0x200.into()),
                "index 512 is listed twice",
            ),
            (
                Box::new(|v| {
                    v["gdt"]["entries"] =
                        serde_json::json!([{"index": 4, "hex": "0000000000000000"}])
                }),
                "gdt.entries[0]: index 4 lies past the table's limit 0x1F",
            ),
            (
                Box::new(|v| v["ldt"]["limit"] = 0x10000.into()),
                "ldt.limit",
            ),
            (
                Box::new(|v| v["memory"][0]["hex"] = "0g".into()),
                "memory[0].hex: 'g' at position 1 is not a hex digit",
            ),
            (
                Box::new(|v| v["memory"][0]["hex"] = "012".into()),
                "odd number",
            ),
            (
                Box::new(|v| v["memory"][0]["hex"] = "".into()),
                "memory[0]: an empty blob",
            ),
            (
                Box::new(|v| v["memory"][0]["hex"] = 5.into()),
                "memory[0].hex: a string or an array",
            ),
            (
                Box::new(|v| v["memory"][0]["hex"] = serde_json::json!(["00", 1])),
                "memory[0].hex[1]: not a string",
            ),
            (
                Box::new(|v| v["memory"][0]["base64"] = "AA==".into()),
                "memory[0]: both",
            ),
            (
                Box::new(|v| v["memory"][0] = serde_json::json!({"linear": 0})),
                "memory[0]: neither",
            ),
            (
                Box::new(|v| v["memory"][0] = serde_json::json!({"linear": 0, "base64": "A*=="})),
                "'*' at position 1 is not a base64 character",
            ),
            (
                Box::new(|v| v["memory"][0] = serde_json::json!({"linear": 0, "base64": "AAAAA"})),
                "cannot end a byte sequence",
            ),
            (
                Box::new(|v| {
                    v["memory"][0] = serde_json::json!({"linear": 0xFFFF_FFFFu32, "hex": "0000"})
                }),
                "pass 4 GiB",
            ),
            (
                Box::new(|v| {
                    v["memory"] = serde_json::json!([
                        {"linear": 0x10, "hex": "00000000"},
                        {"linear": 0x12, "hex": "00"}
                    ])
                }),
                "memory[0] and memory[1] overlap at linear 0x00000012",
            ),
            (
                Box::new(|v| {
                    v["code_owners"] = serde_json::json!([
                        {"cs": 7, "hModule": 1, "wSegment": 1},
                        {"cs": 7, "hModule": 1, "wSegment": null}
                    ])
                }),
                "code_owners[1]: cs 0x0007 is listed twice",
            ),
            (
                Box::new(|v| {
                    v["expect"] =
                        serde_json::json!({"frames": [], "end": "x", "failures": {"sideways": "r"}})
                }),
                "expect.failures: 'sideways'",
            ),
            (
                Box::new(|v| {
                    v["expect"] = serde_json::json!({"frames": [{"AddrPC": 1}], "end": "x"})
                }),
                "not a snapshot",
            ),
            (
                Box::new(|v| {
                    v["mode"] = "real".into();
                }),
                "a real-mode snapshot has no descriptor tables",
            ),
        ];
        for (patch, want) in cases {
            let e = err(patch);
            assert!(e.contains(want), "{e:?} should contain {want:?}");
        }
        assert!(
            Snapshot::from_json(b"")
                .unwrap_err()
                .starts_with("not a snapshot")
        );
        assert!(Snapshot::from_json(b"[1,2]").is_err());
        let deep = "[".repeat(100_000);
        assert!(Snapshot::from_json(deep.as_bytes()).is_err());
    }

    #[test]
    fn the_memory_limit_is_checked_before_decoding() {
        let big = "00".repeat(MAX_MEMORY_BYTES / 2 + 1);
        let e = err(|v| {
            v["memory"] = serde_json::json!([
                {"linear": 0, "hex": big},
                {"linear": 0x0100_0000, "hex": big}
            ])
        });
        assert!(e.contains("more than 16777216 bytes"), "{e}");
    }

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("", "x").unwrap(), b"");
        assert_eq!(decode_base64("TWFu", "x").unwrap(), b"Man");
        assert_eq!(decode_base64("TWE=", "x").unwrap(), b"Ma");
        assert_eq!(decode_base64("TWE", "x").unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ==", "x").unwrap(), b"M");
        assert!(decode_base64("TQ===", "x").is_err());
        assert!(decode_base64("é", "x").is_err());
    }

    /// A test machine whose walk reads only part of its memory.
    fn machine() -> (TestMemory, Registers) {
        let mut m = TestMemory::protected()
            .with_segment(
                0x1017,
                0x40_0000,
                vec![0; 0x800],
                0x7FF,
                Descriptor::DATA_R3,
            )
            .with_segment(
                0x1027,
                0x41_0000,
                vec![0x90; 0x100],
                0xFF,
                Descriptor::CODE_R3,
            )
            .with_instance_data(0x1017, 0x100, 0x800)
            .with_code_owner(
                0x1027,
                CodeOwner {
                    hmodule: 0x1036,
                    segment: Some(1),
                },
            );
        let mut cur = StackCursor::new(0x1017, 0x800);
        m.push_near_frame(&mut cur, 0x10);
        m.push_far_frame(&mut cur, 0x1027, 0x20, true);
        m.push_near_frame(&mut cur, 0x30);
        let r = Registers {
            cs: 0x1027,
            ip: 0x40,
            ss: 0x1017,
            sp: cur.sp,
            bp: cur.bp,
            ..Registers::default()
        };
        (m, r)
    }

    #[test]
    fn capture_needs_descriptor_tables_in_protected_mode() {
        let (m, r) = machine();
        let e = capture(&m, r, None, None, 100).unwrap_err();
        assert!(e.contains("descriptor tables"), "{e}");
    }

    #[test]
    fn a_real_mode_capture_replays_through_json() {
        let mut m = TestMemory::real();
        m.map_linear(0x2_0000, 0x1_0000);
        m.set_current_task(0x1FF0);
        let mut cur = StackCursor::new(0x2000, 0xFFF0);
        let main_bp = m.push_near_frame(&mut cur, 0x0105);
        m.push_far_frame(&mut cur, 0x3000, 0x0123, true);
        m.push_near_frame(&mut cur, 0x0456);
        let r = Registers {
            cs: 0x3000,
            ip: 0x0500,
            ss: 0x2000,
            sp: cur.sp - 8,
            bp: cur.bp,
            ..Registers::default()
        };
        let s = capture(
            &m,
            r,
            None,
            Some(Source {
                file: "t.com".into(),
                at: "3000:0500".into(),
                more: Vec::new(),
            }),
            100,
        )
        .unwrap();
        // Only the stack from SP (rounded down) to the top of the chain.
        let blobs: Vec<(u32, usize)> = s.memory().map(|(l, b)| (l, b.len())).collect();
        assert_eq!(blobs.len(), 1, "{blobs:X?}");
        assert!(blobs[0].0 <= 0x2_0000 + u32::from(r.sp));
        assert!(blobs[0].0 as usize + blobs[0].1 >= 0x2_0000 + usize::from(main_bp) + 6);
        assert!(blobs[0].0 >= 0x2_F000, "not the whole segment");
        let text = s.to_json();
        let back = Snapshot::from_json(text.as_bytes()).unwrap();
        assert_eq!(back, s);
        let e = s.expect.as_ref().unwrap();
        assert_eq!(e.frames.len(), 3);
        assert_eq!(e.end, "end-of-chain");
        assert_eq!(
            e.failures.get("istackwalker").map(String::as_str),
            Some("AddrFrame is AddrMode1616 with selector 0x0000: null selector")
        );
        for start in Start::ALL {
            let w = back.walk(start, 100);
            let a = back.check(start, &w).unwrap();
            assert!(a.agrees(), "{start}: {a}");
        }
        // Breaking a stored word breaks the agreement.
        let mut broken = back.clone();
        let (l, _) = broken.memory[0].clone();
        let off = (0x2_0000 + u32::from(r.bp) + 2 - l) as usize;
        broken.memory[0].1[off] ^= 1;
        let w = broken.walk(Start::Native, 100);
        let a = broken.check(Start::Native, &w).unwrap();
        assert!(!a.agrees());
        assert!(a.frames[0].differences[0].starts_with("AddrReturn"), "{a}");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
                let _ = Snapshot::from_json(&bytes);
            }

            #[test]
            fn arbitrary_members_never_panic(
                mode in prop_oneof![Just("real"), Just("protected"), Just("x")],
                linear in any::<u32>(),
                hex in "[0-9a-fA-Fg ]{0,40}",
                b64 in "[A-Za-z0-9+/=*]{0,24}",
                limit in any::<u32>(),
                index in any::<u16>(),
                ehex in "[0-9A-F]{0,18}",
                use_b64 in any::<bool>(),
                regs in proptest::collection::vec(any::<u32>(), 5),
            ) {
                let blob = if use_b64 {
                    serde_json::json!({"linear": linear, "base64": b64})
                } else {
                    serde_json::json!({"linear": linear, "hex": hex})
                };
                let v = serde_json::json!({
                    "format": FORMAT, "version": 1, "mode": mode,
                    "registers": {"cs": regs[0], "ip": regs[1], "ss": regs[2], "sp": regs[3], "bp": regs[4]},
                    "gdt": {"base": linear, "limit": limit, "entries": [{"index": index, "hex": ehex}]},
                    "memory": [blob],
                });
                if let Ok(s) = Snapshot::from_json(v.to_string().as_bytes()) {
                    // Whatever parses can be walked and written back.
                    for start in Start::ALL {
                        let _ = s.walk(start, 64);
                    }
                    let again = Snapshot::from_json(s.to_json().as_bytes()).unwrap();
                    prop_assert_eq!(again, s);
                }
            }
        }
    }
}
