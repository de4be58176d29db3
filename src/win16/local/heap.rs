//! One local heap as KERNEL lays it out in its segment (module doc of
//! `local`, "Layout"). The bookkeeping is kept here in Rust and written
//! to the segment after every change ([`LocalHeap::render`]): the arena
//! chain, the free list, the heap information block (LOCALHEAPINFO), the
//! handle tables and the instance data's pLocalHeap word, so a program or
//! a TOOLHELP walk reading them finds what Windows put there. What a
//! program writes into them is not read back.

use std::collections::BTreeMap;

use crate::machine::{Cpu, Uc};

use super::{
    LMEM_DISCARDABLE, LMEM_DISCARDED, LMEM_MOVEABLE, LMEM_NOCOMPACT, LMEM_NODISCARD, LMEM_ZEROINIT,
};

/// An arena's header: the previous arena (with the LA_* flags in its low
/// two bits) and the next arena.
pub const ARENA: u32 = 4;
/// A moveable block's arena also holds its handle (the word before its
/// data), so its data starts 6 bytes in and is 2 modulo 4.
pub const MOVEABLE_ARENA: u32 = 6;
/// The smallest arena: a free arena's header (prev, next, size, free
/// prev, free next: 10 bytes), rounded to 4. A remainder this small stays
/// with the block that would leave it.
pub const MIN_ARENA: u32 = 12;
/// Arena flag: in use.
pub const LA_BUSY: u16 = 1;
/// Arena flag: a moveable block.
pub const LA_MOVEABLE: u16 = 2;
/// Handle-table entry flags: discardable (the discard level bits) and
/// discarded.
pub const HE_DISCARDABLE: u8 = 0x0F;
pub const HE_DISCARDED: u8 = 0x40;
/// A free handle-table entry's flags and lock bytes.
pub const HE_FREE: u8 = 0xFF;
/// The instance data's pLocalHeap word (DS:06).
pub const P_LOCAL_HEAP: u16 = 6;
/// The instance data KERNEL keeps at DS:00-0F; a heap starts after it.
pub const INSTANCE_DATA: u32 = 0x10;
/// Handles a new handle table holds (LOCALHEAPINFO.hdelta, 20h).
pub const HDELTA: u16 = 0x20;
/// Bytes a growing heap takes beyond what the allocation needs
/// (LOCALHEAPINFO.extra, 200h).
pub const GROW_EXTRA: u32 = 0x200;
/// The global heap's granularity, to which a grown segment is rounded.
const GRANULARITY: u32 = crate::win16::global::GRANULARITY;

/// LOCALHEAPINFO, the heap information block (Windows 3.1 KERNEL; the
/// field names are Wine's): a fixed block right after the heap's first
/// arena, pointed to by the instance data's pLocalHeap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocalHeapInfo {
    /// 00 heap checking (0), 02 freeze (0).
    pub check: u16,
    pub freeze: u16,
    /// 04 the number of arenas, both sentinels included.
    pub items: u16,
    /// 06 the first arena, 0A the last (each followed by a zero word).
    pub first: u16,
    pub last: u16,
    /// 0E compactions so far, 0F the discard level.
    pub ncompact: u8,
    pub dislevel: u8,
    /// 10 bytes discarded so far.
    pub distotal: u32,
    /// 14 the first handle table, 16 the first free handle.
    pub htable: u16,
    pub hfree: u16,
    /// 18 handles per new table.
    pub hdelta: u16,
    /// 1A expand, 1C pstat: unused (0).
    pub expand: u16,
    pub pstat: u16,
    /// 1E LocalNotify's procedure.
    pub notify: u32,
    /// 22 the heap's lock count.
    pub lock: u16,
    /// 24 extra bytes taken when the heap grows.
    pub extra: u16,
    /// 26 the heap's free size when it was made.
    pub minsize: u16,
    /// 28 'LH'.
    pub magic: u16,
}

impl LocalHeapInfo {
    pub const SIZE: usize = 0x2A;
    pub const MAGIC: u16 = 0x484C;

    pub fn to_bytes(self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        let w = |b: &mut [u8; Self::SIZE], at: usize, v: u16| {
            b[at..at + 2].copy_from_slice(&v.to_le_bytes());
        };
        w(&mut b, 0x00, self.check);
        w(&mut b, 0x02, self.freeze);
        w(&mut b, 0x04, self.items);
        w(&mut b, 0x06, self.first);
        w(&mut b, 0x0A, self.last);
        b[0x0E] = self.ncompact;
        b[0x0F] = self.dislevel;
        b[0x10..0x14].copy_from_slice(&self.distotal.to_le_bytes());
        w(&mut b, 0x14, self.htable);
        w(&mut b, 0x16, self.hfree);
        w(&mut b, 0x18, self.hdelta);
        w(&mut b, 0x1A, self.expand);
        w(&mut b, 0x1C, self.pstat);
        b[0x1E..0x22].copy_from_slice(&self.notify.to_le_bytes());
        w(&mut b, 0x22, self.lock);
        w(&mut b, 0x24, self.extra);
        w(&mut b, 0x26, self.minsize);
        w(&mut b, 0x28, self.magic);
        b
    }
}

fn lalign(n: u32) -> u32 {
    (n + 3) & !3
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Fixed,
    /// A moveable block and its handle.
    Moveable(u16),
    HandleTable,
    /// The heap information block.
    Info,
    /// What lay between the heap's end and the segment's end when the
    /// heap grew past it (a task's stack): never moved, freed or handed
    /// out.
    Reserved,
}

impl Kind {
    /// Bytes from the arena to the data.
    fn header(self) -> u32 {
        match self {
            Kind::Moveable(_) => MOVEABLE_ARENA,
            _ => ARENA,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Block {
    /// The arena's length, header included (to the next arena).
    pub len: u32,
    pub kind: Kind,
}

impl Block {
    /// Data bytes (LocalSize).
    pub fn size(&self) -> u32 {
        self.len - self.kind.header()
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// The data address; 0 when discarded.
    pub addr: u16,
    pub discardable: bool,
    pub lock: u8,
}

/// Allocation options from the LMEM_* flags.
#[derive(Debug, Clone, Copy)]
pub struct Room {
    compact: bool,
    discard: bool,
}

impl Room {
    pub fn from_flags(flags: u16) -> Room {
        Room {
            compact: flags & LMEM_NOCOMPACT == 0,
            discard: flags & (LMEM_NOCOMPACT | LMEM_NODISCARD) == 0,
        }
    }
}

/// One local heap.
#[derive(Debug, Clone)]
pub struct LocalHeap {
    /// The first arena (a busy sentinel that heads the free list).
    pub start: u32,
    /// The heap information block's arena, the first real one.
    pub lo: u32,
    /// The last arena (a free sentinel that ends both lists).
    pub last: u32,
    /// One past the heap's last byte.
    pub end: u32,
    /// Arenas in use between `lo` and `last`, by address.
    pub blocks: BTreeMap<u32, Block>,
    /// Moveable handles: Some for a handle in use, None for a free one.
    pub entries: BTreeMap<u16, Option<Entry>>,
    /// Handle tables' data addresses, the newest (LOCALHEAPINFO.htable)
    /// first.
    tables: Vec<u16>,
    /// The segment may be enlarged for the heap (module doc, "Growth").
    pub growable: bool,
    ncompact: u8,
    distotal: u32,
    minsize: u16,
    /// LocalNotify's procedure, written to LOCALHEAPINFO.notify.
    pub notify: u32,
}

/// The last arena for a heap ending before `end`.
fn last_for(end: u32) -> u32 {
    (end.saturating_sub(1 + 10)) & !3
}

impl LocalHeap {
    /// A heap over `[start, end)` of its segment, laid out as LocalInit
    /// lays it out: the first arena at `start` (at least 10h, rounded up
    /// to 4), the information block's arena after it, one free arena, the
    /// last arena in the heap's last 10 bytes (4-aligned). None when that
    /// leaves no room.
    pub fn new(start: u32, end: u32) -> Option<LocalHeap> {
        let start = lalign(start.max(INSTANCE_DATA));
        let info = lalign(start + 10);
        let free = lalign(info + ARENA + LocalHeapInfo::SIZE as u32);
        let last = last_for(end);
        if end > 0x1_0000 || free + 10 >= last {
            return None;
        }
        let mut blocks = BTreeMap::new();
        blocks.insert(
            info,
            Block {
                len: free - info,
                kind: Kind::Info,
            },
        );
        Some(LocalHeap {
            start,
            lo: info,
            last,
            end,
            blocks,
            entries: BTreeMap::new(),
            tables: Vec::new(),
            growable: false,
            ncompact: 0,
            distotal: 0,
            minsize: (last - free) as u16,
            notify: 0,
        })
    }

    /// The heap information block's address (pLocalHeap).
    pub fn info_address(&self) -> u16 {
        (self.lo + ARENA) as u16
    }

    /// Every arena from the first to the last: (address, length, what),
    /// None for a free arena; the sentinels are not included.
    fn arenas(&self) -> Vec<(u32, u32, Option<Block>)> {
        let mut out = Vec::new();
        let mut cursor = self.lo;
        for (&a, b) in &self.blocks {
            if a > cursor {
                out.push((cursor, a - cursor, None));
            }
            out.push((a, b.len, Some(*b)));
            cursor = a + b.len;
        }
        if self.last > cursor {
            out.push((cursor, self.last - cursor, None));
        }
        out
    }

    /// Free arenas as [start, end).
    fn gaps(&self) -> Vec<(u32, u32)> {
        self.arenas()
            .into_iter()
            .filter(|(_, _, b)| b.is_none())
            .map(|(a, len, _)| (a, a + len))
            .collect()
    }

    /// The largest block that fits now (LocalCompact's answer).
    pub fn largest_free(&self) -> u32 {
        self.gaps()
            .iter()
            .map(|(a, b)| (b - a).saturating_sub(ARENA))
            .max()
            .unwrap_or(0)
    }

    /// Bytes free in all free arenas, less their headers.
    pub fn total_free(&self) -> u32 {
        self.gaps()
            .iter()
            .map(|(a, b)| (b - a).saturating_sub(ARENA))
            .sum()
    }

    /// The arena for `n` data bytes of kind `kind`.
    fn arena_len(n: u32, kind: Kind) -> u32 {
        lalign((n + kind.header()).max(10))
    }

    /// The first free arena of at least `len` bytes.
    fn place(&self, len: u32) -> Option<u32> {
        self.gaps()
            .iter()
            .find(|(a, b)| b - a >= len)
            .map(|(a, _)| *a)
    }

    /// The arena after the one at `a` (or the last arena).
    fn next_arena(&self, a: u32) -> u32 {
        self.blocks
            .range(a + 1..)
            .next()
            .map_or(self.last, |(&n, _)| n)
    }

    /// The arena length a block at `a` takes for `len` bytes: the whole
    /// free room up to `next` when what would be left is too small to be
    /// an arena of its own.
    fn fit(a: u32, len: u32, next: u32) -> u32 {
        if next - a - len > MIN_ARENA {
            len
        } else {
            next - a
        }
    }

    pub fn entry(&self, h: u16) -> Option<Entry> {
        self.entries.get(&h).copied().flatten()
    }

    fn set_entry(&mut self, h: u16, e: Entry) {
        self.entries.insert(h, Some(e));
    }

    /// The arena of the block whose handle (fixed: its data address;
    /// moveable: its handle) is `h`.
    fn arena_of(&self, h: u16) -> Option<u32> {
        if let Some(e) = self.entry(h) {
            return (e.addr != 0).then(|| u32::from(e.addr) - MOVEABLE_ARENA);
        }
        let a = u32::from(h).checked_sub(ARENA)?;
        self.blocks
            .get(&a)
            .is_some_and(|b| b.kind == Kind::Fixed)
            .then_some(a)
    }

    /// A handle-table entry's bytes: in use (address, flags, lock count)
    /// or free (flags and lock FFh, the address the next free entry's).
    fn entry_bytes(e: Option<Entry>, next_free: u16) -> [u8; 4] {
        match e {
            Some(e) => {
                let mut f = if e.discardable { HE_DISCARDABLE } else { 0 };
                if e.addr == 0 {
                    f |= HE_DISCARDED;
                }
                let [lo, hi] = e.addr.to_le_bytes();
                [lo, hi, f, e.lock]
            }
            None => {
                let [lo, hi] = next_free.to_le_bytes();
                [lo, hi, HE_FREE, HE_FREE]
            }
        }
    }

    /// Write handle-table entry `h` in use.
    fn write_entry(uc: &mut Uc<'_>, ds: u16, h: u16, e: Entry) {
        let _ = uc.write_seg(ds, h, &Self::entry_bytes(Some(e), 0));
    }

    /// Move a block's data bytes.
    fn move_data(uc: &mut Uc<'_>, ds: u16, from: u32, to: u32, n: u32) -> bool {
        let mut b = vec![0u8; n as usize];
        uc.read_seg(ds, from as u16, &mut b).is_ok() && uc.write_seg(ds, to as u16, &b).is_ok()
    }

    fn zero(uc: &mut Uc<'_>, ds: u16, at: u32, n: u32) {
        let _ = uc.write_seg(ds, at as u16, &vec![0u8; n as usize]);
    }

    /// Slide unlocked moveable blocks down over the free arenas below
    /// them; the block at arena `pinned` stays.
    fn compact(&mut self, uc: &mut Uc<'_>, ds: u16, pinned: Option<u32>) {
        self.ncompact = self.ncompact.wrapping_add(1);
        let old = std::mem::take(&mut self.blocks);
        let mut cursor = self.lo;
        for (a, b) in old {
            let movable = match b.kind {
                Kind::Moveable(h) => {
                    Some(a) != pinned && self.entry(h).is_some_and(|e| e.lock == 0)
                }
                _ => false,
            };
            let hdr = b.kind.header();
            let at = if movable
                && cursor < a
                && Self::move_data(uc, ds, a + hdr, cursor + hdr, b.size())
            {
                if let Kind::Moveable(h) = b.kind {
                    let mut e = self.entry(h).unwrap_or_default();
                    e.addr = (cursor + hdr) as u16;
                    self.set_entry(h, e);
                }
                cursor
            } else {
                a
            };
            self.blocks.insert(at, b);
            cursor = at + b.len;
        }
    }

    /// Discard every unlocked discardable block but the one at `pinned`.
    fn discard_all(&mut self, pinned: Option<u32>) {
        let victims: Vec<u16> = self
            .entries
            .iter()
            .filter_map(|(&h, e)| {
                let e = (*e)?;
                let a = u32::from(e.addr).wrapping_sub(MOVEABLE_ARENA);
                (e.discardable && e.lock == 0 && e.addr != 0 && Some(a) != pinned).then_some(h)
            })
            .collect();
        for h in victims {
            self.discard(h);
        }
    }

    fn discard(&mut self, h: u16) {
        if let Some(mut e) = self.entry(h) {
            if e.addr != 0 {
                if let Some(b) = self.blocks.remove(&(u32::from(e.addr) - MOVEABLE_ARENA)) {
                    self.distotal = self.distotal.wrapping_add(b.len);
                }
            }
            e.addr = 0;
            self.set_entry(h, e);
        }
    }

    /// One past the last arena in use (the first real arena when none).
    fn used_end(&self) -> u32 {
        self.blocks
            .iter()
            .next_back()
            .map_or(self.lo, |(&a, b)| a + b.len)
    }

    /// Enlarge the segment so that an arena of `len` bytes fits after the
    /// last block, with [`GROW_EXTRA`] bytes more, rounded up to the
    /// global heap's granularity and at most 64 KiB; the heap then reaches
    /// the segment's new end (module doc, "Growth").
    fn grow(&mut self, uc: &mut Uc<'_>, ds: u16, len: u32) -> bool {
        if !self.growable {
            return false;
        }
        let Some(d) = uc.descriptor_of(ds) else {
            return false;
        };
        let seg = d.limit + 1;
        // A heap that ends at the segment's end continues into the new
        // bytes; one that ends before it starts again after the old end.
        let contiguous = self.end >= seg;
        let from = if contiguous { self.used_end() } else { seg };
        let need = from + len + 12;
        if d.is_code() || seg >= 0x1_0000 || need > 0x1_0000 {
            return false;
        }
        let want = (need.max(self.end) + GROW_EXTRA).div_ceil(GRANULARITY) * GRANULARITY;
        let new = want.clamp(seg + 1, 0x1_0000);
        if crate::machine::resize_seg(uc, ds, new).is_err() {
            return false;
        }
        crate::win16::global::reload(uc, ds);
        if !contiguous {
            // The bytes from the old last arena to the segment's old end
            // (the stack after a task's heap) stay out of the heap.
            let from = self.used_end().max(self.last);
            let to = seg & !3;
            if to > from {
                self.blocks.insert(
                    from,
                    Block {
                        len: to - from,
                        kind: Kind::Reserved,
                    },
                );
            }
        }
        self.set_end(new);
        self.minsize = self.minsize.wrapping_add((new - seg) as u16);
        true
    }

    /// The heap now ends before `end`: the last arena moves into its last
    /// 10 bytes, or down to the last block when what would lie between
    /// them is too small to be a free arena.
    fn set_end(&mut self, end: u32) {
        let used = self.used_end();
        let last = last_for(end).max(used);
        self.end = end;
        self.last = if last - used < MIN_ARENA { used } else { last };
    }

    /// Find a free arena of `len` bytes, compacting, discarding and
    /// growing as `room` allows; `pinned` is an arena that must not move.
    fn make_room(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        len: u32,
        room: Room,
        pinned: Option<u32>,
    ) -> Option<u32> {
        if let Some(a) = self.place(len) {
            return Some(a);
        }
        if room.compact {
            self.compact(uc, ds, pinned);
            if let Some(a) = self.place(len) {
                return Some(a);
            }
        }
        if room.discard {
            self.discard_all(pinned);
            self.compact(uc, ds, pinned);
            if let Some(a) = self.place(len) {
                return Some(a);
            }
        }
        if self.grow(uc, ds, len) {
            return self.place(len);
        }
        None
    }

    /// Reserve a new block of `n` data bytes; its arena.
    fn alloc_block(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        n: u32,
        kind: Kind,
        room: Room,
    ) -> Option<u32> {
        let len = Self::arena_len(n, kind);
        let a = self.make_room(uc, ds, len, room, None)?;
        let len = Self::fit(a, len, self.next_arena(a));
        self.blocks.insert(a, Block { len, kind });
        Some(a)
    }

    /// A free moveable handle, making a new handle table when all are
    /// used.
    fn new_handle(&mut self, uc: &mut Uc<'_>, ds: u16, room: Room) -> Option<u16> {
        if let Some((&h, _)) = self.entries.iter().find(|(_, e)| e.is_none()) {
            return Some(h);
        }
        let bytes = 2 + 4 * u32::from(HDELTA) + 2;
        let a = self.alloc_block(uc, ds, bytes, Kind::HandleTable, room)?;
        let t = (a + ARENA) as u16;
        let mut data = vec![0u8; bytes as usize];
        data[..2].copy_from_slice(&HDELTA.to_le_bytes());
        let next = self.tables.first().copied().unwrap_or(0);
        let n = data.len();
        data[n - 2..].copy_from_slice(&next.to_le_bytes());
        let _ = uc.write_seg(ds, t, &data);
        self.tables.insert(0, t);
        for k in 0..HDELTA {
            self.entries.insert(t + 2 + 4 * k, None);
        }
        Some(t + 2)
    }

    /// Handle `h` was just freed: when every entry of its handle table is
    /// free, the table leaves the tables' chain and its block is freed
    /// (module doc of `local`, "Layout").
    fn free_empty_table(&mut self, h: u16) {
        let span = 4 * HDELTA;
        let Some(&t) = self
            .tables
            .iter()
            .find(|&&t| h >= t + 2 && h < t + 2 + span)
        else {
            return;
        };
        let mine = (0..HDELTA).map(|k| t + 2 + 4 * k);
        if mine
            .clone()
            .any(|e| self.entries.get(&e).is_some_and(Option::is_some))
        {
            return;
        }
        for e in mine {
            self.entries.remove(&e);
        }
        self.tables.retain(|&x| x != t);
        self.blocks.remove(&(u32::from(t) - ARENA));
    }

    /// LocalAlloc; the heap is written to its segment afterwards.
    pub fn alloc(&mut self, uc: &mut Uc<'_>, ds: u16, flags: u16, size: u16) -> u16 {
        let r = self.alloc_inner(uc, ds, flags, size);
        self.render(uc, ds);
        r
    }

    fn alloc_inner(&mut self, uc: &mut Uc<'_>, ds: u16, flags: u16, size: u16) -> u16 {
        let room = Room::from_flags(flags);
        let n = u32::from(size);
        if flags & LMEM_MOVEABLE == 0 {
            let Some(a) = self.alloc_block(uc, ds, n, Kind::Fixed, room) else {
                return 0;
            };
            let b = self.blocks[&a];
            if flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, a + ARENA, b.size());
            }
            return (a + ARENA) as u16;
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
            self.set_entry(h, e);
            let Some(a) = self.alloc_block(uc, ds, n, Kind::Moveable(h), room) else {
                self.entries.insert(h, None);
                return 0;
            };
            let b = self.blocks[&a];
            if flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, a + MOVEABLE_ARENA, b.size());
            }
            e.addr = (a + MOVEABLE_ARENA) as u16;
        }
        self.set_entry(h, e);
        h
    }

    /// Resize the block at arena `a` to `n` data bytes, moving it when
    /// `may_move`; its new arena.
    fn resize(
        &mut self,
        uc: &mut Uc<'_>,
        ds: u16,
        a: u32,
        n: u32,
        flags: u16,
        may_move: bool,
    ) -> Option<u32> {
        let b = *self.blocks.get(&a)?;
        let hdr = b.kind.header();
        let old = b.size();
        let len = Self::arena_len(n, b.kind);
        let next = self.next_arena(a);
        if len <= b.len || a + len <= next {
            // In place: shrink (leaving a free arena when it is big
            // enough) or grow into the free arena after it.
            let len = if len <= b.len {
                Self::fit(a, len, a + b.len)
            } else {
                Self::fit(a, len, next)
            };
            self.blocks.get_mut(&a)?.len = len;
            let new = len - hdr;
            if new > old && flags & LMEM_ZEROINIT != 0 {
                Self::zero(uc, ds, a + hdr + old, new - old);
            }
            return Some(a);
        }
        if !may_move {
            return None;
        }
        let to = self.make_room(uc, ds, len, Room::from_flags(flags), Some(a))?;
        // Compacting may have moved nothing pinned; `a` is still there.
        if !Self::move_data(uc, ds, a + hdr, to + hdr, old) {
            return None;
        }
        self.blocks.remove(&a);
        let len = Self::fit(to, len, self.next_arena(to));
        self.blocks.insert(to, Block { len, kind: b.kind });
        let new = len - hdr;
        if flags & LMEM_ZEROINIT != 0 && new > old {
            Self::zero(uc, ds, to + hdr + old, new - old);
        }
        Some(to)
    }

    /// LocalReAlloc; the heap is written to its segment afterwards.
    pub fn realloc(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16, size: u16, flags: u16) -> u16 {
        let r = self.realloc_inner(uc, ds, h, size, flags);
        self.render(uc, ds);
        r
    }

    fn realloc_inner(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16, size: u16, flags: u16) -> u16 {
        use super::LMEM_MODIFY;
        let n = u32::from(size);
        if let Some(mut e) = self.entry(h) {
            if flags & LMEM_MODIFY != 0 {
                e.discardable = flags & LMEM_DISCARDABLE != 0;
                self.set_entry(h, e);
                return h;
            }
            if size == 0 {
                if e.lock != 0 {
                    return 0;
                }
                self.discard(h);
                return h;
            }
            let a = if e.addr == 0 {
                let room = Room::from_flags(flags);
                let Some(a) = self.alloc_block(uc, ds, n, Kind::Moveable(h), room) else {
                    return 0;
                };
                if flags & LMEM_ZEROINIT != 0 {
                    let b = self.blocks[&a];
                    Self::zero(uc, ds, a + MOVEABLE_ARENA, b.size());
                }
                a
            } else {
                let from = u32::from(e.addr) - MOVEABLE_ARENA;
                let Some(a) = self.resize(uc, ds, from, n, flags, e.lock == 0) else {
                    return 0;
                };
                a
            };
            e.addr = (a + MOVEABLE_ARENA) as u16;
            self.set_entry(h, e);
            return h;
        }
        match self.arena_of(h) {
            Some(a) => {
                if flags & LMEM_MODIFY != 0 {
                    return h;
                }
                if size == 0 {
                    return 0;
                }
                self.resize(uc, ds, a, n, flags, flags & LMEM_MOVEABLE != 0)
                    .map_or(0, |a| (a + ARENA) as u16)
            }
            None => 0,
        }
    }

    /// LocalFree: 0 on success, `h` when it is not a block of this heap.
    pub fn free(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        let r = self.free_inner(h);
        self.render(uc, ds);
        r
    }

    fn free_inner(&mut self, h: u16) -> u16 {
        if let Some(e) = self.entry(h) {
            if e.addr != 0 {
                self.blocks.remove(&(u32::from(e.addr) - MOVEABLE_ARENA));
            }
            self.entries.insert(h, None);
            self.free_empty_table(h);
            return 0;
        }
        match self.arena_of(h) {
            Some(a) => {
                self.blocks.remove(&a);
                0
            }
            None => h,
        }
    }

    /// LocalLock: the block's address, 0 when discarded or not a block.
    pub fn lock(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        if let Some(mut e) = self.entry(h) {
            if e.addr == 0 {
                return 0;
            }
            e.lock = e.lock.saturating_add(1);
            self.set_entry(h, e);
            Self::write_entry(uc, ds, h, e);
            return e.addr;
        }
        if self.arena_of(h).is_some() { h } else { 0 }
    }

    /// LocalUnlock: nonzero while the block stays locked.
    pub fn unlock(&mut self, uc: &mut Uc<'_>, ds: u16, h: u16) -> u16 {
        match self.entry(h) {
            Some(mut e) if e.lock > 0 => {
                e.lock -= 1;
                self.set_entry(h, e);
                Self::write_entry(uc, ds, h, e);
                u16::from(e.lock)
            }
            _ => 0,
        }
    }

    /// LocalSize: the block's data bytes (its arena less the header), 0
    /// when discarded or not a block.
    pub fn size(&self, h: u16) -> u16 {
        self.arena_of(h)
            .and_then(|a| self.blocks.get(&a))
            .map_or(0, |b| b.size() as u16)
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
        let addr = u32::from(addr);
        if let Some(b) = addr
            .checked_sub(MOVEABLE_ARENA)
            .and_then(|a| self.blocks.get(&a))
        {
            if let Kind::Moveable(h) = b.kind {
                return h;
            }
        }
        match addr.checked_sub(ARENA).and_then(|a| self.blocks.get(&a)) {
            Some(b) if b.kind == Kind::Fixed => addr as u16,
            _ => 0,
        }
    }

    /// LocalShrink(hSeg, wSize): the moveable blocks slide down, and the
    /// heap shrinks to the larger of `size` and what its blocks reach.
    /// When the heap ends at its segment's end, the segment gives the rest
    /// back (rounded up to the global heap's granularity), as Windows
    /// shrank the segment with GlobalReAlloc; a heap inside a segment
    /// keeps its room. The heap's size after it.
    pub fn shrink(&mut self, uc: &mut Uc<'_>, ds: u16, size: u16) -> u16 {
        self.compact(uc, ds, None);
        let want = lalign(u32::from(size)).max(self.used_end() + 11 - self.start);
        let seg_end = uc.descriptor_of(ds).map_or(0, |d| d.limit + 1);
        if self.growable && self.end == seg_end {
            let new = (self.start + want).div_ceil(GRANULARITY) * GRANULARITY;
            if new < self.end && crate::machine::resize_seg(uc, ds, new).is_ok() {
                crate::win16::global::reload(uc, ds);
                self.set_end(new);
            }
        }
        self.render(uc, ds);
        (self.end - self.start).min(0xFFFF) as u16
    }

    /// LocalCompact: compact, discard if still short of `min_free`, and
    /// return the largest free block.
    pub fn compact_for(&mut self, uc: &mut Uc<'_>, ds: u16, min_free: u16) -> u16 {
        self.compact(uc, ds, None);
        if self.largest_free() < u32::from(min_free) {
            self.discard_all(None);
            self.compact(uc, ds, None);
        }
        self.render(uc, ds);
        self.largest_free().min(0xFFFF) as u16
    }

    /// Write the heap's structures into its segment (module doc,
    /// "Layout"): pLocalHeap, the arena chain with its flags, the free
    /// list through the free arenas from the first arena to the last, the
    /// information block, each moveable block's handle before its data,
    /// and the handle-table entries (a free entry: flags and lock FFh, its
    /// address the next free entry).
    pub fn render(&self, uc: &mut Uc<'_>, ds: u16) {
        // The heap's bytes, from its first arena to the end of its last,
        // are read once, patched and written back once.
        let base = self.start;
        let mut buf = vec![0u8; (self.last + 10 - base) as usize];
        if uc.read_seg(ds, base as u16, &mut buf).is_err() {
            return;
        }
        let mut put = |at: u32, bytes: &[u8]| {
            let i = (at - base) as usize;
            if let Some(d) = buf.get_mut(i..i + bytes.len()) {
                d.copy_from_slice(bytes);
            }
        };
        let mut w = |at: u32, v: u16| put(at, &v.to_le_bytes());
        let arenas = self.arenas();
        let free: Vec<u32> = arenas
            .iter()
            .filter(|(_, _, b)| b.is_none())
            .map(|(a, _, _)| *a)
            .collect();
        let first_free = free.first().copied().unwrap_or(self.last);
        let last_free = free.last().copied().unwrap_or(self.start);
        // The first arena: busy, its own predecessor, heads the free list.
        w(self.start, self.start as u16 | LA_BUSY);
        w(self.start + 2, self.lo as u16);
        w(self.start + 4, MIN_ARENA as u16);
        w(self.start + 6, self.start as u16);
        w(self.start + 8, first_free as u16);
        let mut prev = self.start;
        let mut k = 0usize;
        for (i, &(a, len, b)) in arenas.iter().enumerate() {
            let next = arenas.get(i + 1).map_or(self.last, |x| x.0);
            match b {
                Some(b) => {
                    let flags = match b.kind {
                        Kind::Moveable(_) => LA_BUSY | LA_MOVEABLE,
                        _ => LA_BUSY,
                    };
                    w(a, prev as u16 | flags);
                    w(a + 2, next as u16);
                    if let Kind::Moveable(h) = b.kind {
                        w(a + 4, h);
                    }
                }
                None => {
                    // Free arena number k of the free list.
                    let fprev = if k == 0 { self.start } else { free[k - 1] };
                    let fnext = free.get(k + 1).copied().unwrap_or(self.last);
                    k += 1;
                    w(a, prev as u16);
                    w(a + 2, next as u16);
                    w(a + 4, len as u16);
                    w(a + 6, fprev as u16);
                    w(a + 8, fnext as u16);
                }
            }
            prev = a;
        }
        // The last arena: free, its own successor, ends the free list.
        w(self.last, prev as u16);
        w(self.last + 2, self.last as u16);
        w(self.last + 4, MIN_ARENA as u16);
        w(self.last + 6, last_free as u16);
        w(self.last + 8, self.last as u16);
        // Handle tables: each names the next (its last word), entries in
        // use, and the free ones chained.
        for (i, &t) in self.tables.iter().enumerate() {
            let next = self.tables.get(i + 1).copied().unwrap_or(0);
            w(u32::from(t) + 2 + 4 * u32::from(HDELTA), next);
        }
        let free_handles: Vec<u16> = self
            .entries
            .iter()
            .filter(|(_, e)| e.is_none())
            .map(|(&h, _)| h)
            .collect();
        let mut k = 0usize;
        for (&h, e) in &self.entries {
            let next = if e.is_none() {
                k += 1;
                free_handles.get(k).copied().unwrap_or(0)
            } else {
                0
            };
            put(u32::from(h), &Self::entry_bytes(*e, next));
        }
        let info = LocalHeapInfo {
            items: (arenas.len() + 2) as u16,
            first: self.start as u16,
            last: self.last as u16,
            ncompact: self.ncompact,
            distotal: self.distotal,
            htable: self.tables.first().copied().unwrap_or(0),
            hfree: free_handles.first().copied().unwrap_or(0),
            hdelta: HDELTA,
            notify: self.notify,
            extra: GROW_EXTRA as u16,
            minsize: self.minsize,
            magic: LocalHeapInfo::MAGIC,
            ..LocalHeapInfo::default()
        };
        put(u32::from(self.info_address()), &info.to_bytes());
        let _ = uc.write_seg(ds, base as u16, &buf);
        let _ = uc.write_seg(ds, P_LOCAL_HEAP, &self.info_address().to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_heap_info_layout() {
        let i = LocalHeapInfo {
            items: 0x0504,
            first: 0x0706,
            last: 0x0B0A,
            ncompact: 0x0E,
            dislevel: 0x0F,
            distotal: 0x1312_1110,
            htable: 0x1514,
            hfree: 0x1716,
            hdelta: 0x1918,
            notify: 0x2120_1F1E,
            lock: 0x2322,
            extra: 0x2524,
            minsize: 0x2726,
            magic: LocalHeapInfo::MAGIC,
            ..LocalHeapInfo::default()
        };
        let b = i.to_bytes();
        assert_eq!(b.len(), 0x2A);
        for (at, v) in [
            (4usize, 0x04u8),
            (6, 0x06),
            (0x0A, 0x0A),
            (0x0E, 0x0E),
            (0x0F, 0x0F),
            (0x10, 0x10),
            (0x14, 0x14),
            (0x16, 0x16),
            (0x18, 0x18),
            (0x1E, 0x1E),
            (0x22, 0x22),
            (0x24, 0x24),
            (0x26, 0x26),
        ] {
            assert_eq!(b[at], v, "offset {at:#x}");
        }
        assert_eq!(&b[0x28..], b"LH");
        assert_eq!(&b[8..0x0A], &[0, 0]);
    }

    #[test]
    fn a_new_heap_is_laid_out_as_local_init_lays_it_out() {
        let h = LocalHeap::new(0x100, 0x300).unwrap();
        assert_eq!((h.start, h.lo, h.last), (0x100, 0x10C, 0x2F4));
        assert_eq!(h.blocks[&0x10C].len, 0x30);
        assert_eq!(h.gaps(), vec![(0x13C, 0x2F4)]);
        assert_eq!(h.largest_free(), 0x2F4 - 0x13C - 4);
        // Below the instance data: moved up to 10h.
        assert_eq!(LocalHeap::new(0, 0x100).unwrap().start, 0x10);
        assert!(LocalHeap::new(0x100, 0x150).is_none());
        assert!(LocalHeap::new(0x100, 0x1_0001).is_none());
    }
}
