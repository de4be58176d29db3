//! The local heap: `LocalAlloc` and friends, inside a data segment (the
//! caller's DS).
//!
//! # Where the heap lies
//!
//! Here a task's DGROUP is its static data, then its local heap, then its
//! stack (win16.md, "Memory"); InitTask makes the heap from the end of the
//! static data. Windows 3.1 laid DGROUP out as data, stack, heap: its
//! InitTask calls LocalInit(DS, 0, cbHeap), which puts the heap in the
//! segment's last bytes (Windows 3.1 SDK, LocalInit: a zero uStartAddr;
//! Wine's KERNEL does the same), and a zero SP in the NE header means the
//! data's size plus the stack's. The emulator keeps its own order because
//! the stack offsets of the roms/ scenarios and their expected walks are
//! built on it; a program sees the same bytes either way, except where its
//! heap and its stack lie. `LocalInit` makes a heap in any segment: DLLs
//! call it from their start-up code, programs on a GlobalAlloc'd block
//! (then switch DS to it to LocalAlloc there).
//!
//! # Growth
//!
//! When a block does not fit even after moving and discarding, KERNEL
//! enlarges the heap's segment (GlobalReAlloc of the DS's block, up to
//! 64 KiB) and the heap then reaches the segment's new end; what lay
//! between the heap's old end and the segment's (a task's stack) stays
//! where it is, a block of the heap that is never handed out. Here the
//! segment grows to what the block needs plus 200h bytes (the heap
//! information block's "extra" word), rounded up to the global heap's
//! 32-byte granularity; its selector stays, its base may move (the
//! machine's resize, `crate::machine::resize_seg`), and DS, ES and SS are
//! reloaded. LocalShrink gives the free end of the segment back. A heap in
//! a segment that is already 64 KiB, or in a tile of a huge block, cannot
//! grow.
//!
//! # Blocks
//!
//! The bookkeeping is in Rust; the blocks themselves are in emulated memory,
//! laid out as Windows lays them out where a program can see it:
//! - every block is preceded by 4 bytes of arena header (not written), its
//!   data starts on a 4-byte boundary and its size is rounded up to 4;
//! - a fixed block's handle is the near address of its data;
//! - a moveable block's handle is the near address of a 4-byte handle-table
//!   entry (address word, flags byte, lock-count byte) that lies in a
//!   handle table block of the heap; handles are 2 modulo 4, so
//!   `*(WORD NEAR *)h` is the block's address as programs expect. Flags:
//!   0x0F discardable, 0x40 discarded.
//!
//! Blocks are placed first-fit. When no gap is big enough, unlocked
//! moveable blocks are slid down (unless LMEM_NOCOMPACT), then unlocked
//! discardable blocks discarded (unless LMEM_NODISCARD), then the heap
//! grows.
//!
//! Not kept: the arena headers, the LOCALHEAPINFO structure and the
//! instance data's pLocalHeap word (DS:06); ToolHelp's
//! LocalInfo/LocalFirst cannot walk this heap through memory.

use std::collections::BTreeMap;

use super::api::{Api, Arg};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        4,
        "LOCALINIT",
        &[Arg::W, Arg::W, Arg::W],
        local_init,
    ),
    Api::new("KERNEL", 5, "LOCALALLOC", &[Arg::W, Arg::W], local_alloc),
    Api::new(
        "KERNEL",
        6,
        "LOCALREALLOC",
        &[Arg::W, Arg::W, Arg::W],
        local_realloc,
    ),
    Api::new("KERNEL", 7, "LOCALFREE", &[Arg::W], local_free),
    Api::new("KERNEL", 8, "LOCALLOCK", &[Arg::W], local_lock),
    Api::new("KERNEL", 9, "LOCALUNLOCK", &[Arg::W], local_unlock),
    Api::new("KERNEL", 10, "LOCALSIZE", &[Arg::W], local_size),
    Api::new("KERNEL", 11, "LOCALHANDLE", &[Arg::W], local_handle),
    Api::new("KERNEL", 12, "LOCALFLAGS", &[Arg::W], local_flags),
    Api::new("KERNEL", 13, "LOCALCOMPACT", &[Arg::W], local_compact),
    Api::new(
        "KERNEL",
        121,
        "LOCALSHRINK",
        &[Arg::W, Arg::W],
        local_shrink,
    ),
];

pub const LMEM_FIXED: u16 = 0x0000;
pub const LMEM_MOVEABLE: u16 = 0x0002;
pub const LMEM_NOCOMPACT: u16 = 0x0010;
pub const LMEM_NODISCARD: u16 = 0x0020;
pub const LMEM_ZEROINIT: u16 = 0x0040;
pub const LMEM_MODIFY: u16 = 0x0080;
pub const LMEM_DISCARDABLE: u16 = 0x0F00;
/// In LocalFlags' answer: the block was discarded.
pub const LMEM_DISCARDED: u16 = 0x4000;

/// Arena header bytes before each block's data.
const HEADER: u32 = 4;
/// Entries in one handle table block.
const ENTRIES_PER_TABLE: u16 = 16;
/// A handle table block: a count word, the entries, a next-table word.
const TABLE_BYTES: u16 = 2 + 4 * ENTRIES_PER_TABLE + 2;
/// The smallest heap LocalInit accepts.
const MIN_HEAP: u32 = 0x20;
/// Bytes a growing heap takes beyond what the allocation needs (the heap
/// information block's "extra" word: 200h).
const GROW_EXTRA: u32 = 0x200;
/// The global heap's granularity, to which a grown segment is rounded.
const GRANULARITY: u32 = crate::win16::global::GRANULARITY;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Fixed,
    /// A moveable block and its handle.
    Moveable(u16),
    HandleTable,
    /// What lay between the heap's end and the segment's end when the
    /// heap grew past it (a task's stack): never moved, freed or handed
    /// out.
    Reserved,
}

#[derive(Debug, Clone, Copy)]
struct Block {
    size: u16,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Entry {
    /// The data address; 0 when discarded.
    addr: u16,
    discardable: bool,
    lock: u8,
}

/// One local heap.
#[derive(Debug, Clone)]
pub struct LocalHeap {
    /// The first arena address and one past the last byte.
    start: u32,
    end: u32,
    /// Blocks by data address.
    blocks: BTreeMap<u16, Block>,
    /// Moveable handles: Some for a handle in use, None for a free slot.
    entries: BTreeMap<u16, Option<Entry>>,
    /// The segment may be enlarged for the heap (module doc, "Growth").
    growable: bool,
}

fn round(n: u16) -> u32 {
    ((u32::from(n) + 3) & !3).max(4)
}

/// Allocation options from the LMEM_* flags.
#[derive(Debug, Clone, Copy)]
struct Room {
    compact: bool,
    discard: bool,
}

impl Room {
    fn from_flags(flags: u16) -> Room {
        Room {
            compact: flags & LMEM_NOCOMPACT == 0,
            discard: flags & (LMEM_NOCOMPACT | LMEM_NODISCARD) == 0,
        }
    }
}

impl LocalHeap {
    /// A heap over `[start, end)` of its segment (start rounded up to 4).
    pub fn new(start: u32, end: u32) -> Option<LocalHeap> {
        let start = (start + 3) & !3;
        (end <= 0x1_0000 && end >= start + MIN_HEAP).then(|| LocalHeap {
            start,
            end,
            blocks: BTreeMap::new(),
            entries: BTreeMap::new(),
            growable: false,
        })
    }

    /// One past the last byte a block uses (the heap's start when empty).
    fn used_end(&self) -> u32 {
        self.blocks
            .iter()
            .next_back()
            .map_or(self.start, |(&d, b)| u32::from(d) + u32::from(b.size))
    }

    /// Enlarge the segment so that a block of `size` (rounded) bytes fits
    /// after the last block, with [`GROW_EXTRA`] bytes more, rounded up to
    /// the global heap's granularity and at most 64 KiB; the heap then
    /// reaches the segment's new end (module doc, "Growth").
    fn grow(&mut self, uc: &mut Uc<'_>, ds: u16, size: u32) -> bool {
        if !self.growable {
            return false;
        }
        let Some(d) = uc.descriptor_of(ds) else {
            return false;
        };
        let seg = d.limit + 1;
        // A heap that ends at the segment's end continues into the new
        // bytes; one that ends before it starts again after the old end.
        let from = if self.end >= seg {
            self.used_end()
        } else {
            seg
        };
        let need = from + HEADER + size;
        if d.is_code() || seg >= 0x1_0000 || need > 0x1_0000 {
            return false;
        }
        let want = (need.max(self.end) + GROW_EXTRA).div_ceil(GRANULARITY) * GRANULARITY;
        let new = want.clamp(seg + 1, 0x1_0000);
        if crate::machine::resize_seg(uc, ds, new).is_err() {
            return false;
        }
        crate::win16::global::reload(uc, ds);
        // The bytes between the heap's end and the old segment end (the
        // stack after a task's heap) stay out of the heap.
        let keep_from = self.end & !3;
        if keep_from + HEADER < seg {
            let d = (keep_from + HEADER) as u16;
            let size = (seg - keep_from - HEADER) as u16;
            self.blocks.insert(
                d,
                Block {
                    size,
                    kind: Kind::Reserved,
                },
            );
        }
        self.end = new;
        true
    }

    /// Free gaps as [arena start, end).
    fn gaps(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut cursor = self.start;
        for (&d, b) in &self.blocks {
            let arena = u32::from(d) - HEADER;
            if arena > cursor {
                out.push((cursor, arena));
            }
            cursor = u32::from(d) + u32::from(b.size);
        }
        if self.end > cursor {
            out.push((cursor, self.end));
        }
        out
    }

    /// The largest block that fits now.
    fn largest_free(&self) -> u32 {
        self.gaps()
            .iter()
            .map(|(a, b)| (b - a).saturating_sub(HEADER))
            .max()
            .unwrap_or(0)
    }

    /// The data address for a new block of `size` (rounded) bytes.
    fn place(&self, size: u32) -> Option<u16> {
        self.gaps()
            .iter()
            .find(|(a, b)| b - a >= size + HEADER)
            .map(|(a, _)| (a + HEADER) as u16)
    }

    fn entry(&self, h: u16) -> Option<Entry> {
        self.entries.get(&h).copied().flatten()
    }

    fn write_entry(&self, uc: &mut Uc<'_>, ds: u16, h: u16) {
        let e = self.entry(h).unwrap_or_default();
        let flags = if e.discardable { 0x0F } else { 0 } | if e.addr == 0 { 0x40 } else { 0 };
        let [lo, hi] = e.addr.to_le_bytes();
        let _ = uc.write_seg(ds, h, &[lo, hi, flags, e.lock]);
    }

    fn set_entry(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16, e: Entry) {
        self.entries.insert(h, Some(e));
        self.write_entry(uc, ds, h);
    }

    /// Move a block's bytes from `from` to `to` (data addresses).
    fn move_data(uc: &mut Uc<'_>, ds: u16, from: u16, to: u16, size: u16) -> bool {
        let mut b = vec![0u8; usize::from(size)];
        uc.read_seg(ds, from, &mut b).is_ok() && uc.write_seg(ds, to, &b).is_ok()
    }

    /// Slide unlocked moveable blocks down over the gaps below them; the
    /// block at `pinned` stays.
    fn compact(&mut self, uc: &mut Uc<'_>, ds: u16, pinned: Option<u16>) {
        let old = std::mem::take(&mut self.blocks);
        let mut cursor = self.start;
        for (d, b) in old {
            let movable = match b.kind {
                Kind::Moveable(h) => {
                    Some(d) != pinned && self.entry(h).is_some_and(|e| e.lock == 0)
                }
                _ => false,
            };
            let to = (cursor + HEADER) as u16;
            let d = if movable && to < d && Self::move_data(uc, ds, d, to, b.size) {
                if let Kind::Moveable(h) = b.kind {
                    let mut e = self.entry(h).unwrap_or_default();
                    e.addr = to;
                    self.set_entry(uc, ds, h, e);
                }
                to
            } else {
                d
            };
            self.blocks.insert(d, b);
            cursor = u32::from(d) + u32::from(b.size);
        }
    }

    /// Discard every unlocked discardable block but `pinned`.
    fn discard_all(&mut self, uc: &mut Uc<'_>, ds: u16, pinned: Option<u16>) {
        let victims: Vec<u16> = self
            .entries
            .iter()
            .filter_map(|(&h, e)| {
                let e = (*e)?;
                (e.discardable && e.lock == 0 && e.addr != 0 && Some(e.addr) != pinned).then_some(h)
            })
            .collect();
        for h in victims {
            self.discard(uc, ds, h);
        }
    }

    fn discard(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) {
        if let Some(mut e) = self.entry(h) {
            self.blocks.remove(&e.addr);
            e.addr = 0;
            self.set_entry(uc, ds, h, e);
        }
    }

    /// Find room for `size` bytes, compacting and discarding as `room`
    /// allows; `pinned` is a block that must not move.
    fn make_room(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        size: u32,
        room: Room,
        pinned: Option<u16>,
    ) -> Option<u16> {
        if let Some(d) = self.place(size) {
            return Some(d);
        }
        if room.compact {
            self.compact(uc, ds, pinned);
            if let Some(d) = self.place(size) {
                return Some(d);
            }
        }
        if room.discard {
            self.discard_all(uc, ds, pinned);
            self.compact(uc, ds, pinned);
            if let Some(d) = self.place(size) {
                return Some(d);
            }
        }
        if self.grow(uc, ds, size) {
            return self.place(size);
        }
        None
    }

    /// Reserve a new block.
    fn alloc_block(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        size: u16,
        kind: Kind,
        room: Room,
    ) -> Option<u16> {
        let size = round(size);
        let d = self.make_room(uc, ds, size, room, None)?;
        self.blocks.insert(
            d,
            Block {
                size: size as u16,
                kind,
            },
        );
        Some(d)
    }

    /// A free moveable handle, making a new handle table when all are used.
    fn new_handle(&mut self, uc: &mut Uc<'_>, ds: u16, room: Room) -> Option<u16> {
        if let Some((&h, _)) = self.entries.iter().find(|(_, e)| e.is_none()) {
            return Some(h);
        }
        let t = self.alloc_block(uc, ds, TABLE_BYTES, Kind::HandleTable, room)?;
        let mut bytes = vec![0u8; usize::from(TABLE_BYTES)];
        bytes[..2].copy_from_slice(&ENTRIES_PER_TABLE.to_le_bytes());
        let _ = uc.write_seg(ds, t, &bytes);
        for k in 0..ENTRIES_PER_TABLE {
            self.entries.insert(t + 2 + 4 * k, None);
        }
        Some(t + 2)
    }

    fn zero(uc: &mut Uc<'_>, ds: u16, at: u16, n: u32) {
        let _ = uc.write_seg(ds, at, &vec![0u8; n as usize]);
    }

    /// LocalAlloc.
    pub fn alloc(&mut self, uc: &mut Uc<'_>, ds: u16, flags: u16, size: u16) -> u16 {
        let room = Room::from_flags(flags);
        if flags & LMEM_MOVEABLE == 0 {
            let Some(d) = self.alloc_block(uc, ds, size, Kind::Fixed, room) else {
                return 0;
            };
            if flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, d, round(size));
            }
            return d;
        }
        let Some(h) = self.new_handle(uc, ds, room) else {
            return 0;
        };
        let mut e = Entry {
            addr: 0,
            discardable: flags & LMEM_DISCARDABLE != 0,
            lock: 0,
        };
        if size != 0 {
            // Reserve the handle first so that making room cannot take it.
            self.set_entry(uc, ds, h, e);
            let Some(d) = self.alloc_block(uc, ds, size, Kind::Moveable(h), room) else {
                self.entries.insert(h, None);
                self.write_entry(uc, ds, h);
                return 0;
            };
            if flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, d, round(size));
            }
            e.addr = d;
        }
        self.set_entry(uc, ds, h, e);
        h
    }

    /// Resize the block at data address `d` to `size`, moving it when
    /// `may_move`; its new data address.
    fn resize(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        d: u16,
        size: u16,
        flags: u16,
        may_move: bool,
    ) -> Option<u16> {
        let b = *self.blocks.get(&d)?;
        let (old, new) = (u32::from(b.size), round(size));
        let next = self
            .blocks
            .range(d.wrapping_add(1)..)
            .next()
            .map_or(self.end, |(&n, _)| u32::from(n) - HEADER);
        if new <= old || u32::from(d) + new <= next {
            self.blocks.get_mut(&d)?.size = new as u16;
            if new > old && flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, d + old as u16, new - old);
            }
            return Some(d);
        }
        if !may_move {
            return None;
        }
        let to = self.make_room(uc, ds, new, Room::from_flags(flags), Some(d))?;
        if !Self::move_data(uc, ds, d, to, b.size) {
            return None;
        }
        self.blocks.remove(&d);
        self.blocks.insert(
            to,
            Block {
                size: new as u16,
                kind: b.kind,
            },
        );
        if flags & LMEM_ZEROINIT != 0 {
            Self::zero(uc, ds, to + old as u16, new - old);
        }
        Some(to)
    }

    /// LocalReAlloc.
    pub fn realloc(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16, size: u16, flags: u16) -> u16 {
        if let Some(mut e) = self.entry(h) {
            if flags & LMEM_MODIFY != 0 {
                e.discardable = flags & LMEM_DISCARDABLE != 0;
                self.set_entry(uc, ds, h, e);
                return h;
            }
            if size == 0 {
                if e.lock != 0 {
                    return 0;
                }
                self.discard(uc, ds, h);
                return h;
            }
            let addr = if e.addr == 0 {
                let room = Room::from_flags(flags);
                let Some(d) = self.alloc_block(uc, ds, size, Kind::Moveable(h), room) else {
                    return 0;
                };
                if flags & LMEM_ZEROINIT != 0 {
                    Self::zero(uc, ds, d, round(size));
                }
                d
            } else {
                let Some(d) = self.resize(uc, ds, e.addr, size, flags, e.lock == 0) else {
                    return 0;
                };
                d
            };
            e.addr = addr;
            self.set_entry(uc, ds, h, e);
            return h;
        }
        match self.blocks.get(&h) {
            Some(b) if b.kind == Kind::Fixed => {
                if flags & LMEM_MODIFY != 0 {
                    return h;
                }
                if size == 0 {
                    return 0;
                }
                self.resize(uc, ds, h, size, flags, flags & LMEM_MOVEABLE != 0)
                    .unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// LocalFree: 0 on success, `h` when it is not a block of this heap.
    pub fn free(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        if let Some(e) = self.entry(h) {
            if e.addr != 0 {
                self.blocks.remove(&e.addr);
            }
            self.entries.insert(h, None);
            self.write_entry(uc, ds, h);
            return 0;
        }
        match self.blocks.get(&h) {
            Some(b) if b.kind == Kind::Fixed => {
                self.blocks.remove(&h);
                0
            }
            _ => h,
        }
    }

    fn is_fixed(&self, h: u16) -> bool {
        self.blocks.get(&h).is_some_and(|b| b.kind == Kind::Fixed)
    }

    /// LocalLock: the block's address, 0 when discarded or not a block.
    pub fn lock(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        if let Some(mut e) = self.entry(h) {
            if e.addr == 0 {
                return 0;
            }
            e.lock = e.lock.saturating_add(1);
            self.set_entry(uc, ds, h, e);
            return e.addr;
        }
        if self.is_fixed(h) { h } else { 0 }
    }

    /// LocalUnlock: nonzero while the block stays locked.
    pub fn unlock(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        match self.entry(h) {
            Some(mut e) if e.lock > 0 => {
                e.lock -= 1;
                self.set_entry(uc, ds, h, e);
                u16::from(e.lock)
            }
            _ => 0,
        }
    }

    /// LocalSize: the block's size (rounded up to 4), 0 when discarded or
    /// not a block.
    pub fn size(&self, h: u16) -> u16 {
        let d = match self.entry(h) {
            Some(e) => e.addr,
            None if self.is_fixed(h) => h,
            None => 0,
        };
        self.blocks.get(&d).map_or(0, |b| b.size)
    }

    /// LocalFlags: flags in the high byte, lock count in the low byte.
    pub fn flags(&self, h: u16) -> u16 {
        match self.entry(h) {
            Some(e) => {
                let mut f = u16::from(e.lock);
                if e.discardable {
                    f |= LMEM_DISCARDABLE;
                }
                if e.addr == 0 {
                    f |= LMEM_DISCARDED;
                }
                f
            }
            None => 0,
        }
    }

    /// LocalHandle: the handle of the block whose data is at `addr`.
    pub fn handle(&self, addr: u16) -> u16 {
        match self.blocks.get(&addr).map(|b| b.kind) {
            Some(Kind::Fixed) => addr,
            Some(Kind::Moveable(h)) => h,
            _ => 0,
        }
    }

    /// LocalCompact: compact, discard if still short of `min_free`, and
    /// return the largest free block.
    /// LocalShrink(hSeg, wSize): the moveable blocks slide down, and the
    /// heap shrinks to the larger of `size` and what its blocks reach.
    /// When the heap ends at its segment's end, the segment gives the rest
    /// back (rounded up to the global heap's granularity), as Windows
    /// shrank the segment with GlobalReAlloc; a heap inside a segment
    /// keeps its room. The heap's size after it.
    pub fn shrink(&mut self, uc: &mut Uc<'_>, ds: u16, size: u16) -> u16 {
        self.compact(uc, ds, None);
        let want = round(size).max(self.used_end() - self.start).max(MIN_HEAP);
        let seg_end = uc.descriptor_of(ds).map_or(0, |d| d.limit + 1);
        if self.growable && self.end == seg_end {
            let new = (self.start + want).div_ceil(GRANULARITY) * GRANULARITY;
            if new < self.end && crate::machine::resize_seg(uc, ds, new).is_ok() {
                crate::win16::global::reload(uc, ds);
                self.end = new;
            }
        }
        (self.end - self.start).min(0xFFFF) as u16
    }

    pub fn compact_for(&mut self, uc: &mut Uc<'_>, ds: u16, min_free: u16) -> u16 {
        self.compact(uc, ds, None);
        if self.largest_free() < u32::from(min_free) {
            self.discard_all(uc, ds, None);
            self.compact(uc, ds, None);
        }
        self.largest_free().min(0xFFFF) as u16
    }
}

/// Every local heap, by segment selector.
#[derive(Debug, Default)]
pub struct LocalHeaps {
    pub heaps: std::collections::HashMap<u16, LocalHeap>,
}

/// Bytes free in the local heap of segment `ds` (the gaps between blocks,
/// less a block header each); None when the segment has no heap.
pub fn heap_free(env: &Env, ds: u16) -> Option<u16> {
    let h = env.win16.local_heaps.heaps.get(&ds)?;
    let free: u32 = h
        .gaps()
        .iter()
        .map(|(a, b)| (b - a).saturating_sub(HEADER))
        .sum();
    Some(free.min(0xFFFF) as u16)
}

/// Make a heap over `[start, end)` of segment `sel`; false when the range
/// does not lie inside the segment or is too small. The heap may grow when
/// the segment is one selector's data segment (not a tile of a huge block).
pub fn init_heap(env: &mut Env, uc: &Uc<'_>, sel: u16, start: u32, end: u32) -> bool {
    let Some(d) = uc.descriptor_of(sel) else {
        return false;
    };
    if end > d.limit + 1 {
        return false;
    }
    let single = env
        .win16
        .global
        .find(sel)
        .is_none_or(|b| b.selector == sel && b.size <= crate::win16::global::MAX_BLOCK);
    match LocalHeap::new(start, end) {
        Some(mut h) => {
            h.growable = single && !d.is_code();
            env.win16.local_heaps.heaps.insert(sel, h);
            true
        }
        None => false,
    }
}

/// The heap InitTask makes for task `htask` when its NE header asks for
/// one: from the end of the static data (the DGROUP segment's size in the
/// NE file) for the header's heap size; the stack follows it (module doc,
/// "Where the heap lies").
pub fn init_task_heap(env: &mut Env, uc: &Uc<'_>, htask: u16) -> bool {
    let Some(t) = env.win16.task(htask) else {
        return false;
    };
    let (dgroup, heap) = (t.dgroup, u32::from(t.heap_size));
    let data = env
        .win16
        .module_for_handle(t.hmodule)
        .and_then(|i| env.win16.modules[i].image.as_deref())
        .and_then(|ne| ne.segment(ne.header.auto_data_segment))
        .map(|s| s.alloc_size());
    match data {
        Some(start) if heap > 0 => init_heap(env, uc, dgroup, start, start + heap),
        _ => false,
    }
}

/// The heap of the caller's DS.
fn with_heap<T>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    none: T,
    f: impl FnOnce(&mut LocalHeap, &mut Uc<'_>, u16) -> T,
) -> T {
    let ds = uc.reg(R::DS);
    let r = match env.win16.local_heaps.heaps.get_mut(&ds) {
        Some(h) => f(h, uc, ds),
        None => return none,
    };
    // The segment may have grown or moved (module doc, "Growth").
    env.win16.global.refresh(uc, ds);
    r
}

/// KERNEL.4 LocalInit(uSegment, uStartAddr, uEndAddr): a heap from
/// uStartAddr to uEndAddr (its last byte) in segment uSegment (0: DS). A
/// uStartAddr of 0 puts uEndAddr bytes at the end of the segment.
pub fn local_init(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = match a[0] as u16 {
        0 => uc.reg(R::DS),
        s => super::selector_of_handle(s),
    };
    let (start, end) = (a[1] & 0xFFFF, a[2] & 0xFFFF);
    let (start, end) = if start == 0 {
        let Some(d) = uc.descriptor_of(sel) else {
            return Ok(0);
        };
        let seg_end = d.limit + 1;
        (seg_end.saturating_sub(end), seg_end)
    } else {
        (start, end + 1)
    };
    Ok(u32::from(init_heap(env, uc, sel, start, end)))
}

/// KERNEL.5 LocalAlloc(fuAllocFlags, fuAlloc).
pub fn local_alloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, uc, ds| {
        u32::from(h.alloc(uc, ds, a[0] as u16, a[1] as u16))
    }))
}

/// KERNEL.6 LocalReAlloc(hloc, fuNewSize, fuFlags).
pub fn local_realloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, uc, ds| {
        u32::from(h.realloc(uc, ds, a[0] as u16, a[1] as u16, a[2] as u16))
    }))
}

/// KERNEL.7 LocalFree(hloc): 0 on success, hloc on failure.
pub fn local_free(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    if h == 0 {
        return Ok(0);
    }
    Ok(with_heap(env, uc, u32::from(h), |heap, uc, ds| {
        u32::from(heap.free(uc, ds, h))
    }))
}

/// KERNEL.8 LocalLock(hloc).
pub fn local_lock(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, uc, ds| {
        u32::from(h.lock(uc, ds, a[0] as u16))
    }))
}

/// KERNEL.9 LocalUnlock(hloc).
pub fn local_unlock(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, uc, ds| {
        u32::from(h.unlock(uc, ds, a[0] as u16))
    }))
}

/// KERNEL.10 LocalSize(hloc).
pub fn local_size(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, _, _| {
        u32::from(h.size(a[0] as u16))
    }))
}

/// KERNEL.11 LocalHandle(pvMem).
pub fn local_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, _, _| {
        u32::from(h.handle(a[0] as u16))
    }))
}

/// KERNEL.12 LocalFlags(hloc).
pub fn local_flags(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, _, _| {
        u32::from(h.flags(a[0] as u16))
    }))
}

/// KERNEL.13 LocalCompact(uMinFree): the largest free block.
pub fn local_compact(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_heap(env, uc, 0, |h, uc, ds| {
        u32::from(h.compact_for(uc, ds, a[0] as u16))
    }))
}

/// KERNEL.121 LocalShrink(hSeg, wSize): the heap of segment hSeg (0:
/// DS) shrunk as far as its blocks let it ([`LocalHeap::shrink`]); 0 when
/// the segment has no heap.
pub fn local_shrink(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let ds = match a[0] as u16 {
        0 => uc.reg(R::DS),
        s => s,
    };
    let r = match env.win16.local_heaps.heaps.get_mut(&ds) {
        Some(h) => u32::from(h.shrink(uc, ds, a[1] as u16)),
        None => 0,
    };
    env.win16.global.refresh(uc, ds);
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
    use crate::machine::{Machine, SegKind};

    /// A machine whose DS is a 64 KiB segment with a heap over
    /// [0x100, 0x300). The segment is as large as one can be, so the heap
    /// cannot grow (module doc, "Growth") and these tests see its bounds.
    fn setup() -> (Machine, Env, u16) {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x1_0000, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        let mut env = Env::new(false);
        assert_eq!(local_init(&mut env, &mut m, &[0, 0x100, 0x2FF]).unwrap(), 1);
        (m, env, ds)
    }

    fn call(env: &mut Env, m: &mut Machine, f: crate::win16::api::ApiFn, a: &[u32]) -> u32 {
        f(env, m, a).unwrap()
    }

    #[test]
    fn fixed_blocks_are_pointers_in_the_heap() {
        let (mut m, mut env, ds) = setup();
        let a = call(&mut env, &mut m, local_alloc, &[0x40, 5]);
        assert_eq!(a, 0x104);
        assert_eq!(call(&mut env, &mut m, local_size, &[a]), 8);
        assert_eq!(call(&mut env, &mut m, local_lock, &[a]), a);
        assert_eq!(call(&mut env, &mut m, local_flags, &[a]), 0);
        assert_eq!(call(&mut env, &mut m, local_handle, &[a]), a);
        let b = call(&mut env, &mut m, local_alloc, &[0, 0x10]);
        assert_eq!(b, 0x110);
        m.write_seg(ds, a as u16, b"abcdefgh").unwrap();
        // Growing a fixed block past its neighbour needs LMEM_MOVEABLE.
        assert_eq!(call(&mut env, &mut m, local_realloc, &[a, 0x20, 0]), 0);
        let a2 = call(
            &mut env,
            &mut m,
            local_realloc,
            &[a, 0x20, u32::from(LMEM_MOVEABLE | LMEM_ZEROINIT)],
        );
        assert_ne!(a2, 0);
        assert_ne!(a2, a);
        let mut buf = [0xFFu8; 0x20];
        m.read_seg(ds, a2 as u16, &mut buf).unwrap();
        assert_eq!(&buf[..8], b"abcdefgh");
        assert_eq!(buf[8..], [0; 0x18]);
        // Shrinking stays in place.
        assert_eq!(call(&mut env, &mut m, local_realloc, &[a2, 4, 0]), a2);
        assert_eq!(call(&mut env, &mut m, local_size, &[a2]), 4);
        assert_eq!(call(&mut env, &mut m, local_free, &[a2]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[a2]), a2);
        assert_eq!(call(&mut env, &mut m, local_free, &[b]), 0);
        // The whole heap is free again: its first block is where a was.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 5]), 0x104);
    }

    #[test]
    fn moveable_blocks_have_handle_table_entries() {
        let (mut m, mut env, ds) = setup();
        let h = call(
            &mut env,
            &mut m,
            local_alloc,
            &[u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE), 6],
        );
        assert_eq!(h % 4, 2);
        let p = call(&mut env, &mut m, local_lock, &[h]);
        assert_ne!(p, 0);
        // *(WORD *)h is the address; flags and lock count follow.
        assert_eq!(m.read_u16_at(ds, h as u16).unwrap(), p as u16);
        let mut e = [0u8; 2];
        m.read_seg(ds, h as u16 + 2, &mut e).unwrap();
        assert_eq!(e, [0x0F, 1]);
        assert_eq!(call(&mut env, &mut m, local_flags, &[h]), 0x0F01);
        assert_eq!(call(&mut env, &mut m, local_handle, &[p]), h);
        assert_eq!(call(&mut env, &mut m, local_size, &[h]), 8);
        // Locked: not discarded by a zero-size realloc.
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_realloc,
                &[h, 0, u32::from(LMEM_MOVEABLE)]
            ),
            0
        );
        assert_eq!(call(&mut env, &mut m, local_unlock, &[h]), 0);
        assert_eq!(call(&mut env, &mut m, local_unlock, &[h]), 0);
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_realloc,
                &[h, 0, u32::from(LMEM_MOVEABLE)]
            ),
            h
        );
        assert_eq!(call(&mut env, &mut m, local_flags, &[h]), 0x4F00);
        assert_eq!(call(&mut env, &mut m, local_lock, &[h]), 0);
        assert_eq!(call(&mut env, &mut m, local_size, &[h]), 0);
        // Reallocating a discarded block brings it back.
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_realloc,
                &[h, 0x10, u32::from(LMEM_MOVEABLE)]
            ),
            h
        );
        assert_eq!(call(&mut env, &mut m, local_flags, &[h]), 0x0F00);
        // LMEM_MODIFY changes only the flags.
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_realloc,
                &[h, 0, u32::from(LMEM_MODIFY)]
            ),
            h
        );
        assert_eq!(call(&mut env, &mut m, local_flags, &[h]), 0);
        assert_eq!(call(&mut env, &mut m, local_size, &[h]), 0x10);
        // A zero-size moveable allocation is born discarded.
        let z = call(
            &mut env,
            &mut m,
            local_alloc,
            &[u32::from(LMEM_MOVEABLE), 0],
        );
        assert_ne!(z, 0);
        assert_eq!(
            call(&mut env, &mut m, local_flags, &[z]) & LMEM_DISCARDED as u32,
            0x4000
        );
        assert_eq!(call(&mut env, &mut m, local_free, &[h]), 0);
        assert_eq!(call(&mut env, &mut m, local_lock, &[h]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[h]), h);
    }

    #[test]
    fn a_full_heap_grows_its_segment() {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x900, &[]).unwrap();
        m.write_seg(ds, 0x10, b"static").unwrap();
        m.set_reg(R::DS, ds).unwrap();
        m.set_reg(R::ES, ds).unwrap();
        let mut env = Env::new(false);
        // InitTask's LocalInit(DS, 0, 0x800): the last 0x800 bytes.
        assert_eq!(local_init(&mut env, &mut m, &[0, 0, 0x800]).unwrap(), 1);
        // The declared size itself fits: the segment grows to hold it and
        // 200h bytes more, rounded to 32, keeping its selector and data.
        let p = call(&mut env, &mut m, local_alloc, &[0x40, 0x800]);
        assert_eq!(p, 0x104);
        let d = m.descriptor_of(ds).unwrap();
        assert_eq!(d.limit + 1, 0xB20, "0x904 + 0x200 rounded to 32");
        let mut b = [0u8; 6];
        m.read_seg(ds, 0x10, &mut b).unwrap();
        assert_eq!(&b, b"static");
        // DS and ES were reloaded: their cached base follows the block.
        m.write_seg(ds, 0x903, &[0xA5]).unwrap();
        assert_eq!(m.read_u16_at(ds, 0x902).unwrap(), 0xA500);
        // Many blocks until the segment is 64 KiB: every one fits, then
        // the heap can grow no more.
        let mut n = 0u32;
        while call(&mut env, &mut m, local_alloc, &[0, 0x3FC]) != 0 {
            n += 1;
        }
        assert_eq!(n, (0x1_0000 - 0x904) / 0x400);
        let reach = 0x904 + n * 0x400;
        assert!(m.descriptor_of(ds).unwrap().limit + 1 >= reach);
        // LocalShrink gives the segment back down to what the blocks use.
        let shrunk = call(&mut env, &mut m, local_shrink, &[0, 0]);
        assert_eq!(shrunk, reach.div_ceil(32) * 32 - 0x100);
        assert_eq!(
            m.descriptor_of(ds).unwrap().limit + 1,
            reach.div_ceil(32) * 32
        );
    }

    #[test]
    fn a_heap_inside_a_segment_grows_past_what_follows_it() {
        // LocalInit on [10h, 100h) of a 400h-byte segment (a program's
        // GlobalAlloc'd block, DS switched to it); 100h..400h is the
        // program's own and stays untouched when the heap grows.
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x400, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        m.write_seg(ds, 0x100, b"mine").unwrap();
        m.write_seg(ds, 0x3FC, b"last").unwrap();
        let mut env = Env::new(false);
        assert_eq!(local_init(&mut env, &mut m, &[0, 0x10, 0xFF]).unwrap(), 1);
        let a = call(&mut env, &mut m, local_alloc, &[0x40, 0x200]);
        assert_eq!(a, 0x404, "after the segment's old end");
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x820);
        let mut b = [0u8; 4];
        m.read_seg(ds, 0x100, &mut b).unwrap();
        assert_eq!(&b, b"mine");
        m.read_seg(ds, 0x3FC, &mut b).unwrap();
        assert_eq!(&b, b"last");
        // The reserved bytes are no block: LocalFree/LocalSize refuse them.
        assert_eq!(call(&mut env, &mut m, local_size, &[0x104]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[0x104]), 0x104);
        // The heap's first part is still used first.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 0x10]), 0x14);
    }

    #[test]
    fn local_shrink_returns_the_free_end_of_the_segment() {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x400, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        let mut env = Env::new(false);
        assert_eq!(local_init(&mut env, &mut m, &[0, 0, 0x300]).unwrap(), 1);
        let a = call(&mut env, &mut m, local_alloc, &[0, 0x1000]);
        assert_eq!(a, 0x104);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x1320);
        assert_eq!(call(&mut env, &mut m, local_free, &[a]), 0);
        let small = call(&mut env, &mut m, local_alloc, &[0, 0x10]);
        assert_eq!(small, 0x104);
        // The heap shrinks to 100h bytes: [100h, 200h), the segment to 200h.
        assert_eq!(call(&mut env, &mut m, local_shrink, &[0, 0x100]), 0x100);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x200);
        // ... and grows again when asked for more.
        assert_ne!(call(&mut env, &mut m, local_alloc, &[0, 0x400]), 0);
    }

    #[test]
    fn compaction_moves_unlocked_blocks_and_keeps_their_bytes() {
        let (mut m, mut env, ds) = setup();
        let mv = u32::from(LMEM_MOVEABLE);
        // Fill: handle table (0x44) first, then 0x40-byte moveable blocks.
        let hs: Vec<u32> = (0..6)
            .map(|_| call(&mut env, &mut m, local_alloc, &[mv, 0x3C]))
            .collect();
        assert!(hs.iter().all(|&h| h != 0));
        for (i, &h) in hs.iter().enumerate() {
            let p = call(&mut env, &mut m, local_lock, &[h]) as u16;
            m.write_seg(ds, p, &[i as u8 + 1; 0x3C]).unwrap();
            call(&mut env, &mut m, local_unlock, &[h]);
        }
        // Free every other block: lots of free space, no gap of 0x80.
        for &h in hs.iter().step_by(2) {
            assert_eq!(call(&mut env, &mut m, local_free, &[h]), 0);
        }
        assert!(env.win16.local_heaps.heaps[&ds].largest_free() < 0x80);
        // LMEM_NOCOMPACT: no room without moving blocks.
        let nc = u32::from(LMEM_MOVEABLE | LMEM_NOCOMPACT);
        assert_eq!(call(&mut env, &mut m, local_alloc, &[nc, 0x80]), 0);
        let big = call(&mut env, &mut m, local_alloc, &[mv, 0x80]);
        assert_ne!(big, 0, "compaction made room");
        for (i, &h) in hs.iter().enumerate().skip(1).step_by(2) {
            let p = call(&mut env, &mut m, local_lock, &[h]) as u16;
            let mut b = [0u8; 0x3C];
            m.read_seg(ds, p, &mut b).unwrap();
            assert_eq!(b, [i as u8 + 1; 0x3C], "block {i} kept its bytes");
            assert_eq!(m.read_u16_at(ds, h as u16).unwrap(), p);
        }
    }

    #[test]
    fn discardable_blocks_go_when_space_runs_out() {
        let (mut m, mut env, _ds) = setup();
        let d = call(
            &mut env,
            &mut m,
            local_alloc,
            &[u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE), 0x100],
        );
        assert_ne!(call(&mut env, &mut m, local_size, &[d]), 0);
        // Too big beside it: the discardable block is thrown out.
        let f = call(&mut env, &mut m, local_alloc, &[0, 0x140]);
        assert_ne!(f, 0);
        assert_eq!(call(&mut env, &mut m, local_size, &[d]), 0);
        assert_eq!(call(&mut env, &mut m, local_flags, &[d]), 0x4F00);
        // LMEM_NODISCARD would not have.
        let (mut m, mut env, _ds) = setup();
        call(
            &mut env,
            &mut m,
            local_alloc,
            &[u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE), 0x100],
        );
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_alloc,
                &[u32::from(LMEM_NODISCARD), 0x140]
            ),
            0
        );
        assert!(call(&mut env, &mut m, local_compact, &[0]) < 0x140);
        assert!(call(&mut env, &mut m, local_compact, &[0x140]) >= 0x140);
    }

    #[test]
    fn bounds_and_bad_handles() {
        let (mut m, mut env, ds) = setup();
        // The heap is [0x100, 0x300): nothing larger than 0x1FC fits.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 0x1FD]), 0);
        let all = call(&mut env, &mut m, local_alloc, &[0, 0x1FC]);
        assert_eq!(all, 0x104);
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 1]), 0);
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_alloc,
                &[u32::from(LMEM_MOVEABLE), 1]
            ),
            0
        );
        assert_eq!(call(&mut env, &mut m, local_free, &[all]), 0);
        for bad in [0u32, 1, 0x102, 0x106, 0xFFFF] {
            assert_eq!(call(&mut env, &mut m, local_lock, &[bad]), 0);
            assert_eq!(call(&mut env, &mut m, local_size, &[bad]), 0);
            assert_eq!(call(&mut env, &mut m, local_realloc, &[bad, 4, 2]), 0);
        }
        assert_eq!(call(&mut env, &mut m, local_free, &[0x106]), 0x106);
        assert_eq!(call(&mut env, &mut m, local_free, &[0]), 0);
        // Many small blocks: every one inside the heap and apart.
        let mut got = Vec::new();
        loop {
            let p = call(&mut env, &mut m, local_alloc, &[0, 3]);
            if p == 0 {
                break;
            }
            got.push(p);
        }
        assert_eq!(got.len(), 0x200 / 8);
        assert!(
            got.iter()
                .all(|&p| (0x104..0x300).contains(&p) && p % 4 == 0)
        );
        // No heap in another DS: everything fails.
        let other = m.alloc_segment(SegKind::Data, 0x100, &[]).unwrap();
        m.set_reg(R::DS, other).unwrap();
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 4]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[0x104]), 0x104);
        m.set_reg(R::DS, ds).unwrap();
        // LocalInit refuses ranges outside the segment or too small.
        assert_eq!(
            local_init(&mut env, &mut m, &[u32::from(other), 0x10, 0x100]).unwrap(),
            0
        );
        assert_eq!(
            local_init(&mut env, &mut m, &[u32::from(other), 0x10, 0x18]).unwrap(),
            0
        );
        assert_eq!(local_init(&mut env, &mut m, &[0x1234, 0, 0x80]).unwrap(), 0);
        // Start 0: the last uEndAddr bytes of the segment.
        assert_eq!(
            local_init(&mut env, &mut m, &[u32::from(other - 1), 0, 0x80]).unwrap(),
            1
        );
        m.set_reg(R::DS, other).unwrap();
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 4]), 0x84);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        #[derive(Debug, Clone)]
        enum Op {
            Alloc { flags: u16, size: u16 },
            Free(usize),
            Realloc { which: usize, size: u16, flags: u16 },
            Lock(usize),
            Unlock(usize),
            Compact(u16),
        }

        fn op() -> impl Strategy<Value = Op> {
            let flags = prop::sample::select(vec![
                0,
                LMEM_MOVEABLE,
                LMEM_MOVEABLE | LMEM_DISCARDABLE,
                LMEM_MOVEABLE | LMEM_NOCOMPACT,
                LMEM_NODISCARD,
            ]);
            prop_oneof![
                (flags.clone(), 0u16..0x90).prop_map(|(flags, size)| Op::Alloc { flags, size }),
                any::<usize>().prop_map(Op::Free),
                (any::<usize>(), 0u16..0x120, flags).prop_map(|(which, size, flags)| Op::Realloc {
                    which,
                    size,
                    flags
                }),
                any::<usize>().prop_map(Op::Lock),
                any::<usize>().prop_map(Op::Unlock),
                (0u16..0x300).prop_map(Op::Compact),
            ]
        }

        /// A block the test allocated: handle, whether fixed, the byte it
        /// is filled with, its requested size, whether it may be discarded.
        #[derive(Debug)]
        struct Live {
            h: u16,
            fixed: bool,
            fill: u8,
            size: u16,
            discardable: bool,
        }

        fn fill(m: &mut Machine, heap: &LocalHeap, ds: u16, l: &Live) {
            let at = if l.fixed {
                l.h
            } else {
                heap.entry(l.h).unwrap().addr
            };
            if at != 0 {
                m.write_seg(ds, at, &vec![l.fill; usize::from(l.size)])
                    .unwrap();
            }
        }

        fn check(
            m: &Machine,
            heap: &LocalHeap,
            ds: u16,
            live: &[Live],
        ) -> Result<(), TestCaseError> {
            // Blocks lie inside the heap, apart, 4-aligned.
            let mut cursor = heap.start;
            for (&d, b) in &heap.blocks {
                prop_assert!(u32::from(d) >= cursor + HEADER, "block {d:04X} overlaps");
                prop_assert_eq!(d % 4, 0);
                cursor = u32::from(d) + u32::from(b.size);
            }
            prop_assert!(cursor <= heap.end);
            for l in live {
                let at = if l.fixed {
                    l.h
                } else {
                    let e = heap.entry(l.h).expect("live handle");
                    prop_assert_eq!(m.read_u16_at(ds, l.h).unwrap(), e.addr);
                    if e.addr == 0 {
                        prop_assert!(
                            l.discardable || l.size == 0,
                            "only discardable blocks vanish"
                        );
                        continue;
                    }
                    e.addr
                };
                prop_assert!(u32::from(heap.size(l.h)) >= u32::from(l.size));
                let mut b = vec![0u8; usize::from(l.size)];
                m.read_seg(ds, at, &mut b).unwrap();
                prop_assert!(
                    b.iter().all(|&x| x == l.fill),
                    "block {:04X} lost its bytes",
                    l.h
                );
            }
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn random_use_keeps_blocks_apart_and_intact(ops in prop::collection::vec(op(), 1..80)) {
                let (mut m, mut env, ds) = setup();
                let mut live: Vec<Live> = Vec::new();
                let mut next_fill = 1u8;
                for op in ops {
                    let heap = env.win16.local_heaps.heaps.get_mut(&ds).unwrap();
                    match op {
                        Op::Alloc { flags, size } => {
                            let h = heap.alloc(&mut m, ds, flags, size);
                            if h != 0 {
                                let l = Live {
                                    h,
                                    fixed: flags & LMEM_MOVEABLE == 0,
                                    fill: next_fill,
                                    size: if flags & LMEM_MOVEABLE != 0 && size == 0 { 0 } else { size },
                                    discardable: flags & LMEM_DISCARDABLE != 0,
                                };
                                next_fill = next_fill.wrapping_add(1).max(1);
                                fill(&mut m, heap, ds, &l);
                                live.push(l);
                            }
                        }
                        Op::Free(i) if !live.is_empty() => {
                            let l = live.remove(i % live.len());
                            prop_assert_eq!(heap.free(&mut m, ds, l.h), 0);
                        }
                        Op::Realloc { which, size, flags } if !live.is_empty() => {
                            let i = which % live.len();
                            let l = &mut live[i];
                            let r = heap.realloc(&mut m, ds, l.h, size, flags & !LMEM_DISCARDABLE);
                            if r != 0 {
                                l.h = r;
                                l.size = if l.fixed || size != 0 { size } else { 0 };
                                fill(&mut m, heap, ds, l);
                            }
                        }
                        Op::Lock(i) if !live.is_empty() => {
                            let l = &live[i % live.len()];
                            heap.lock(&mut m, ds, l.h);
                        }
                        Op::Unlock(i) if !live.is_empty() => {
                            let l = &live[i % live.len()];
                            heap.unlock(&mut m, ds, l.h);
                        }
                        Op::Compact(min) => {
                            heap.compact_for(&mut m, ds, min);
                        }
                        _ => {}
                    }
                    // A discarded block's bytes are gone for good.
                    for l in live.iter_mut() {
                        if !l.fixed && heap.entry(l.h).is_some_and(|e| e.addr == 0) {
                            prop_assert!(l.discardable || l.size == 0);
                            l.size = 0;
                        }
                    }
                    check(&m, heap, ds, &live)?;
                }
            }
        }
    }
}
