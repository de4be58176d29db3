//! Taking a snapshot (walk/snapshot.rs has the format): the walks run
//! over a recording view of the machine, and the snapshot keeps the bytes
//! they read, the descriptor tables and the code owners they asked for.

use std::collections::BTreeMap;

use super::{Expect, MAX_MEMORY_BYTES, Registers, Snapshot, Source, Table};
use crate::walk::memory::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};
use crate::walk::stackframe::{FrameWalk, Start, StepError, walk_with_start};
use crate::walk::toolhelp::walk_from_csip;

/// A [`WalkMemory`] that notes every linear range read and every code
/// owner asked for.
struct Recorder<'a> {
    inner: &'a dyn WalkMemory,
    reads: std::cell::RefCell<Vec<(u64, u64)>>,
    owners: std::cell::RefCell<BTreeMap<u16, CodeOwner>>,
}

impl WalkMemory for Recorder<'_> {
    fn mode(&self) -> CpuMode {
        self.inner.mode()
    }
    fn cacheable(&self) -> bool {
        false
    }
    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        self.inner.descriptor(seg)
    }
    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        self.inner.read_linear(linear, buf)?;
        if !buf.is_empty() {
            let start = u64::from(linear);
            self.reads
                .borrow_mut()
                .push((start, start + buf.len() as u64));
        }
        Ok(())
    }
    fn current_task(&self) -> u16 {
        self.inner.current_task()
    }
    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        let o = self.inner.code_owner(cs);
        if let Some(o) = o {
            self.owners.borrow_mut().insert(cs, o);
        }
        o
    }
    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        self.inner.descriptor_table(ldt)
    }
}

/// Merge ranges that overlap or lie within `gap` bytes of each other.
fn coalesce(mut ranges: Vec<(u64, u64)>, gap: u64) -> Vec<(u64, u64)> {
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (s, e) in ranges {
        match out.last_mut() {
            Some(last) if s <= last.1 + gap => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The readable parts of `[start, end)`, as blobs: the whole range when it
/// reads, else its readable 16-byte pieces.
fn read_range(mem: &dyn WalkMemory, start: u64, end: u64, out: &mut Vec<(u32, Vec<u8>)>) {
    let len = (end - start) as usize;
    let mut buf = vec![0u8; len];
    if mem.read_linear(start as u32, &mut buf).is_ok() {
        out.push((start as u32, buf));
        return;
    }
    let mut piece = start;
    while piece < end {
        let next = ((piece / 16) + 1) * 16;
        let next = next.min(end);
        let mut b = vec![0u8; (next - piece) as usize];
        if mem.read_linear(piece as u32, &mut b).is_ok() {
            match out.last_mut() {
                Some((l, prev)) if u64::from(*l) + prev.len() as u64 == piece => {
                    prev.extend_from_slice(&b)
                }
                _ => out.push((piece as u32, b)),
            }
        }
        piece = next;
    }
}

/// Every non-empty entry of a descriptor table.
fn read_table(mem: &dyn WalkMemory, t: DescriptorTable) -> Table {
    let mut entries = BTreeMap::new();
    let count = (t.limit.min(0xFFFF) + 1) / 8;
    for index in 0..count {
        let mut d = [0u8; 8];
        let at = t.base.wrapping_add(index * 8);
        if mem.read_linear(at, &mut d).is_ok() && d != [0; 8] {
            entries.insert(index as u16, d);
        }
    }
    Table {
        base: t.base,
        limit: t.limit.min(0xFFFF),
        entries,
    }
}

/// Take a snapshot of `mem` for a walk from `registers` (format in the
/// module documentation).
///
/// It walks the machine (the ToolHelp walk and the STACKFRAME walk with
/// every [`Start`]), noting each byte read; the snapshot holds those
/// bytes, plus, in protected mode, the whole stack segment, and in real
/// mode the 16 bytes at SS:SP (ranges within 64 bytes of each other are
/// joined). It holds both descriptor tables (every non-empty entry), the
/// code owners the walks asked for, and, as `expect`, the STACKFRAME walk
/// of the native start with the first-step failures of the others.
pub fn capture(
    mem: &dyn WalkMemory,
    registers: Registers,
    dispatch: Option<(u16, u16)>,
    source: Option<Source>,
    max_frames: usize,
) -> Result<Snapshot, String> {
    let rec = Recorder {
        inner: mem,
        reads: Default::default(),
        owners: Default::default(),
    };
    let ctx = registers.context();
    let th = walk_from_csip(&rec, ctx.ss, ctx.cs, ctx.ip, ctx.bp, max_frames);
    if let Some(d) = dispatch {
        crate::walk::dispatch::through_dispatch(&rec, th, d, max_frames);
    }
    let walks: Vec<(Start, FrameWalk)> = Start::ALL
        .iter()
        .map(|s| (*s, walk_with_start(&rec, ctx, *s, dispatch, max_frames)))
        .collect();
    let mut ranges = rec.reads.borrow().clone();
    match mem.mode() {
        CpuMode::Protected => {
            if let Some(d) = mem
                .descriptor(ctx.ss)
                .filter(|d| d.present() && d.is_segment())
            {
                let start = u64::from(d.base);
                ranges.push((start, start + u64::from(d.limit.min(0xFFFF)) + 1));
            }
        }
        CpuMode::Real => {
            let start = (u64::from(ctx.ss) << 4) + u64::from(ctx.sp & !0xF);
            ranges.push((start, start + 16));
        }
    }
    let mut memory = Vec::new();
    for (s, e) in coalesce(ranges, 64) {
        read_range(mem, s, e.min(1 << 32), &mut memory);
    }
    let total: usize = memory.iter().map(|(_, b)| b.len()).sum();
    if total > MAX_MEMORY_BYTES {
        return Err(format!(
            "the walk reads {total} bytes, more than a snapshot may hold ({MAX_MEMORY_BYTES})"
        ));
    }
    let (gdt, ldt) = match mem.mode() {
        CpuMode::Real => (None, None),
        CpuMode::Protected => {
            let table = |ldt: bool| {
                mem.descriptor_table(ldt)
                    .map(|t| read_table(mem, t))
                    .ok_or("the machine does not say where its descriptor tables are")
            };
            (Some(table(false)?), Some(table(true)?))
        }
    };
    let native = &walks[0].1;
    let failures = walks
        .iter()
        .filter_map(|(s, w)| match &w.end {
            StepError::Address(f) => Some((s.name().to_string(), f.to_string())),
            _ => None,
        })
        .collect();
    let expect = Expect {
        frames: native.frames.clone(),
        end: native.end.kind().to_string(),
        end_text: Some(native.end.to_string()),
        failures,
    };
    let code_owners = rec.owners.borrow().clone();
    Ok(Snapshot {
        source,
        notes: None,
        mode: mem.mode(),
        registers,
        current_task: mem.current_task(),
        gdt,
        ldt,
        memory,
        code_owners,
        dispatch,
        expect: Some(expect),
        resume: None,
    })
}
