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
//! reloaded; the last arena moves to the new end. LocalShrink gives the
//! free end of the segment back. A heap in a segment that is already
//! 64 KiB, or in a tile of a huge block, cannot grow.
//!
//! # Layout
//!
//! The heap lies in its segment as Windows 3.1's KERNEL lays it out
//! (Pietrek, "Windows Internals"; Wine's KERNEL as a source of facts),
//! written after every change by `heap.rs` so that a program, or TOOLHELP's
//! LocalInfo/LocalFirst/LocalNext, can walk it:
//! - the instance data's pLocalHeap word (DS:06) points at the heap
//!   information block (LOCALHEAPINFO, 2Ah bytes: the first and last
//!   arena, the arena count, the first handle table and free handle,
//!   hdelta 20h, the LocalNotify procedure, extra 200h, 'LH');
//! - the heap is a chain of arenas, 4-aligned, from a first arena (busy,
//!   at the heap's start, at least 10h) to a last arena (free, in the
//!   heap's last 10 bytes, its own successor). Each arena starts with the
//!   previous arena's address, whose low bits are flags (1 in use, 2
//!   moveable), and the next arena's address. The information block is
//!   the first arena after the first one;
//! - a fixed block's data follows its 4-byte arena header and its handle
//!   is the data's address; a moveable block's arena also holds its
//!   handle, so its data starts 6 bytes in (2 modulo 4);
//! - a free arena holds its size and the previous and next free arenas:
//!   the free list runs from the first arena to the last. The smallest
//!   arena is 12 bytes; a remainder smaller than that stays with the block
//!   beside it, so LocalSize (the bytes from the data to the next arena)
//!   may exceed the request;
//! - moveable handles are 4-byte entries (address, flags, lock count) in
//!   handle tables of 20h entries, each a fixed block (a count word, the
//!   entries, the next table's address); a handle is an entry's address,
//!   2 modulo 4, so `*(WORD NEAR *)h` is the block's address as programs
//!   expect. Entry flags: 0Fh discardable, 40h discarded (address 0); a
//!   free entry has flags and lock FFh and the next free entry's address.
//!   A new table is made when no entry is free; when LocalFree leaves
//!   every entry of a table free, the table leaves the chain and its
//!   block is freed, so a heap that held many moveable blocks gets their
//!   tables' room back once they are all gone (KERNEL's LocalFree as Wine
//!   reimplements it, LOCAL_FreeHandleEntry: a fact source, no code
//!   taken). The tables in use keep their entries' handles.
//!
//! Blocks are placed first-fit. When no free arena is big enough, unlocked
//! moveable blocks are slid down (unless LMEM_NOCOMPACT), then unlocked
//! discardable blocks discarded (unless LMEM_NODISCARD), then the heap
//! grows. The bookkeeping itself is Rust's: what a program writes over
//! the arenas is not read back.

mod heap;

pub use heap::LocalHeap;

use super::api::{Api, Arg};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

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

/// Every local heap, by segment selector.
#[derive(Clone, Debug, Default)]
pub struct LocalHeaps {
    pub heaps: std::collections::HashMap<u16, LocalHeap>,
}

/// Bytes free in the local heap of segment `ds` (the free arenas less
/// their headers); None when the segment has no heap.
pub fn heap_free(env: &Env, ds: u16) -> Option<u16> {
    let h = env.win16.local_heaps.heaps.get(&ds)?;
    Some(h.total_free().min(0xFFFF) as u16)
}

/// Make a heap over `[start, end)` of segment `sel`; false when the range
/// does not lie inside the segment or is too small. The heap may grow when
/// the segment is one selector's data segment (not a tile of a huge block).
pub fn init_heap(env: &mut Env, uc: &mut Uc<'_>, sel: u16, start: u32, end: u32) -> bool {
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
            h.notify = env.win16.kernel.memory.local_notify;
            h.render(uc, sel);
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
pub fn init_task_heap(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> bool {
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
    let notify = env.win16.kernel.memory.local_notify;
    let r = match env.win16.local_heaps.heaps.get_mut(&ds) {
        Some(h) => {
            h.notify = notify;
            f(h, uc, ds)
        }
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
        // LocalInit's first arena (100h) and the information block's
        // (10Ch, 30h bytes) come first; a fixed block's data follows its
        // 4-byte arena header, and the smallest arena is 12 bytes.
        let a = call(&mut env, &mut m, local_alloc, &[0x40, 5]);
        assert_eq!(a, 0x140);
        assert_eq!(call(&mut env, &mut m, local_size, &[a]), 8);
        assert_eq!(call(&mut env, &mut m, local_lock, &[a]), a);
        assert_eq!(call(&mut env, &mut m, local_flags, &[a]), 0);
        assert_eq!(call(&mut env, &mut m, local_handle, &[a]), a);
        let b = call(&mut env, &mut m, local_alloc, &[0, 0x10]);
        assert_eq!(b, 0x14C);
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
        // Shrinking stays in place, down to the smallest arena.
        assert_eq!(call(&mut env, &mut m, local_realloc, &[a2, 4, 0]), a2);
        assert_eq!(call(&mut env, &mut m, local_size, &[a2]), 8);
        assert_eq!(call(&mut env, &mut m, local_free, &[a2]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[a2]), a2);
        assert_eq!(call(&mut env, &mut m, local_free, &[b]), 0);
        // The whole heap is free again: its first block is where a was.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 5]), 0x140);
    }

    #[test]
    fn a_handle_table_goes_when_all_its_entries_are_free() {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x1_0000, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        let mut env = Env::new(false);
        assert_eq!(local_init(&mut env, &mut m, &[0, 0x100, 0xFFF]).unwrap(), 1);
        let info = m.read_u16_at(ds, 6).unwrap();
        let htable = |m: &Machine| m.read_u16_at(ds, info + 0x14).unwrap();
        let mv = u32::from(LMEM_MOVEABLE);
        // 21h moveable blocks: the first table's 20h entries and one of
        // a second table, which heads the chain and names the first.
        let hs: Vec<u32> = (0..0x21)
            .map(|_| call(&mut env, &mut m, local_alloc, &[mv, 4]))
            .collect();
        assert!(hs.iter().all(|&h| h != 0));
        let (first, second) = (0x140u16, htable(&m));
        assert_eq!(hs[0], 0x142);
        assert_ne!(second, first);
        assert_eq!(hs[0x20], u32::from(second) + 2);
        assert_eq!(m.read_u16_at(ds, second + 2 + 0x80).unwrap(), first);
        // The second table's only handle freed: the table goes, the chain
        // starts at the first again.
        assert_eq!(call(&mut env, &mut m, local_free, &[hs[0x20]]), 0);
        assert_eq!(htable(&m), first);
        assert_eq!(m.read_u16_at(ds, first + 2 + 0x80).unwrap(), 0);
        // One entry of the first still used: it stays.
        for &h in &hs[1..0x20] {
            assert_eq!(call(&mut env, &mut m, local_free, &[h]), 0);
        }
        assert_eq!(htable(&m), first);
        assert!(call(&mut env, &mut m, local_size, &[hs[0]]) >= 4);
        // Its last one freed: no table left; the next moveable block
        // makes one again.
        assert_eq!(call(&mut env, &mut m, local_free, &[hs[0]]), 0);
        assert_eq!(htable(&m), 0);
        let h = call(&mut env, &mut m, local_alloc, &[mv, 4]);
        assert_ne!(h, 0);
        assert_eq!(u32::from(htable(&m)) + 2, h);
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
        // The first handle table (20h entries) is a fixed block at 140h.
        assert_eq!(h, 0x142);
        let p = call(&mut env, &mut m, local_lock, &[h]);
        // A moveable block's data follows its arena and its handle.
        assert_eq!(p, 0x13C + 136 + 6);
        assert_eq!(m.read_u16_at(ds, p as u16 - 2).unwrap(), h as u16);
        // *(WORD *)h is the address; flags and lock count follow.
        assert_eq!(m.read_u16_at(ds, h as u16).unwrap(), p as u16);
        let mut e = [0u8; 2];
        m.read_seg(ds, h as u16 + 2, &mut e).unwrap();
        assert_eq!(e, [0x0F, 1]);
        assert_eq!(call(&mut env, &mut m, local_flags, &[h]), 0x0F01);
        assert_eq!(call(&mut env, &mut m, local_handle, &[p]), h);
        assert_eq!(call(&mut env, &mut m, local_size, &[h]), 6);
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
        // A 10h-byte moveable block: an 18h-byte arena less its 6 header bytes.
        assert_eq!(call(&mut env, &mut m, local_size, &[h]), 0x12);
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
        // The heap is [100h, 900h): its free arena starts at 13Ch, after
        // the first arena and the information block; the block's arena is
        // 804h bytes and the last arena needs 12 more.
        let p = call(&mut env, &mut m, local_alloc, &[0x40, 0x800]);
        assert_eq!(p, 0x140);
        let d = m.descriptor_of(ds).unwrap();
        assert_eq!(d.limit + 1, 0xB60, "0x94C + 0x200 rounded to 32");
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
        // Arenas of 400h bytes from 940h until the last arena (FFF4h at
        // most) would not fit.
        assert_eq!(n, (0xFFF4 - 0x940) / 0x400);
        let reach = 0x940 + n * 0x400;
        assert!(m.descriptor_of(ds).unwrap().limit + 1 >= reach);
        // LocalShrink gives the segment back down to what the blocks use.
        let shrunk = call(&mut env, &mut m, local_shrink, &[0, 0]);
        let end = (reach + 11).div_ceil(32) * 32;
        assert_eq!(shrunk, end - 0x100);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, end);
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
        // 400h + 204h + the last arena's 12, + 200h, rounded to 32.
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x820);
        let mut b = [0u8; 4];
        m.read_seg(ds, 0x100, &mut b).unwrap();
        assert_eq!(&b, b"mine");
        m.read_seg(ds, 0x3FC, &mut b).unwrap();
        assert_eq!(&b, b"last");
        // The reserved bytes, from the old last arena (F4h), are no
        // block: LocalFree and LocalSize refuse them.
        assert_eq!(call(&mut env, &mut m, local_size, &[0xF8]), 0);
        assert_eq!(call(&mut env, &mut m, local_free, &[0xF8]), 0xF8);
        // The heap's first part is still used first.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 0x10]), 0x50);
    }

    #[test]
    fn local_shrink_returns_the_free_end_of_the_segment() {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x400, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        let mut env = Env::new(false);
        assert_eq!(local_init(&mut env, &mut m, &[0, 0, 0x300]).unwrap(), 1);
        let a = call(&mut env, &mut m, local_alloc, &[0, 0x1000]);
        assert_eq!(a, 0x140);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x1360);
        assert_eq!(call(&mut env, &mut m, local_free, &[a]), 0);
        let small = call(&mut env, &mut m, local_alloc, &[0, 0x10]);
        assert_eq!(small, 0x140);
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
        // Fill: the handle table (88h) first, then moveable blocks in
        // arenas of 44h; 20h bytes stay free at the end.
        let hs: Vec<u32> = (0..4)
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
            &[u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE), 0x80],
        );
        assert_ne!(call(&mut env, &mut m, local_size, &[d]), 0);
        // Too big beside it: the discardable block is thrown out.
        let f = call(&mut env, &mut m, local_alloc, &[0, 0xC0]);
        assert_ne!(f, 0);
        assert_eq!(call(&mut env, &mut m, local_size, &[d]), 0);
        assert_eq!(call(&mut env, &mut m, local_flags, &[d]), 0x4F00);
        // LMEM_NODISCARD would not have.
        let (mut m, mut env, _ds) = setup();
        call(
            &mut env,
            &mut m,
            local_alloc,
            &[u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE), 0x80],
        );
        assert_eq!(
            call(
                &mut env,
                &mut m,
                local_alloc,
                &[u32::from(LMEM_NODISCARD), 0xC0]
            ),
            0
        );
        assert!(call(&mut env, &mut m, local_compact, &[0]) < 0xC0);
        assert!(call(&mut env, &mut m, local_compact, &[0xC0]) >= 0xC0);
    }

    #[test]
    fn bounds_and_bad_handles() {
        let (mut m, mut env, ds) = setup();
        // The heap is [0x100, 0x300): its free arena is [13Ch, 2F4h),
        // between the information block and the last arena, so nothing
        // larger than 1B4h fits.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 0x1B5]), 0);
        let all = call(&mut env, &mut m, local_alloc, &[0, 0x1B4]);
        assert_eq!(all, 0x140);
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
        for bad in [0u32, 1, 0x13E, 0x142, 0xFFFF] {
            assert_eq!(call(&mut env, &mut m, local_lock, &[bad]), 0);
            assert_eq!(call(&mut env, &mut m, local_size, &[bad]), 0);
            assert_eq!(call(&mut env, &mut m, local_realloc, &[bad, 4, 2]), 0);
        }
        assert_eq!(call(&mut env, &mut m, local_free, &[0x142]), 0x142);
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
        // 12-byte arenas, the smallest.
        assert_eq!(got.len(), 0x1B8 / 12);
        assert!(
            got.iter()
                .all(|&p| (0x140..0x2F4).contains(&p) && p % 4 == 0)
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
        // [80h, 100h): the first arena at 80h, the information block's at
        // 8Ch, the first free arena at BCh.
        assert_eq!(call(&mut env, &mut m, local_alloc, &[0, 4]), 0xC0);
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
            // Arenas lie inside the heap, apart, 4-aligned, and a free
            // arena between them is big enough to be one.
            let mut cursor = heap.lo;
            for (&a, b) in &heap.blocks {
                prop_assert!(a >= cursor, "arena {a:04X} overlaps");
                prop_assert_eq!(a % 4, 0);
                prop_assert!(
                    a == cursor || a - cursor >= 12,
                    "free arena of {}",
                    a - cursor
                );
                cursor = a + b.len;
            }
            prop_assert!(cursor <= heap.last);
            prop_assert!(cursor == heap.last || heap.last - cursor >= 12);
            // The same arenas through memory, as a TOOLHELP walk finds
            // them: pLocalHeap, the information block, the arena chain
            // from the first arena to the last, the free list.
            let rd = |at: u16| m.read_u16_at(ds, at).unwrap();
            let info = rd(6);
            prop_assert_eq!(rd(info + 0x28), 0x484C);
            let (first, last) = (rd(info + 6), rd(info + 0x0A));
            prop_assert_eq!(u32::from(last), heap.last);
            let (mut a, mut prev, mut busy, mut free) = (first, first, Vec::new(), Vec::new());
            let mut items = 1;
            loop {
                let (p, next) = (rd(a), rd(a + 2));
                prop_assert_eq!(p & !3, prev, "arena {:04X}'s prev", a);
                if a != first && next != a {
                    if p & 1 != 0 {
                        busy.push(u32::from(a));
                        if p & 2 != 0 {
                            // A moveable block: its handle, then its data.
                            let h = rd(a + 4);
                            prop_assert_eq!(u32::from(rd(h)), u32::from(a) + 6);
                        }
                    } else {
                        prop_assert_eq!(rd(a + 4), next - a, "free arena size");
                        free.push(a);
                    }
                }
                if next == a {
                    break;
                }
                prop_assert!(next > a);
                prev = a;
                a = next;
                items += 1;
            }
            prop_assert_eq!(a, last);
            prop_assert_eq!(rd(info + 4), items);
            let model: Vec<u32> = heap.blocks.keys().copied().collect();
            prop_assert_eq!(busy, model);
            let mut f = rd(first + 8);
            for &x in &free {
                prop_assert_eq!(f, x);
                f = rd(f + 8);
            }
            prop_assert_eq!(f, last);
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
            fn random_use_keeps_blocks_apart_and_intact(
                ops in prop::collection::vec(op(), 1..80),
                shape in 0u8..3,
            ) {
                // The fixed 64 KiB setup, a heap at the end of a small
                // segment, or one inside it with bytes after it: the last
                // two grow (module doc, "Growth").
                let (mut m, mut env, ds) = match shape {
                    0 => setup(),
                    _ => {
                        let mut m = Machine::new_protected().unwrap();
                        let ds = m.alloc_segment(SegKind::Data, 0x300, &[]).unwrap();
                        m.set_reg(R::DS, ds).unwrap();
                        let mut env = Env::new(false);
                        let (start, end) = if shape == 1 { (0, 0x200) } else { (0x40, 0x1FF) };
                        prop_assert_eq!(local_init(&mut env, &mut m, &[0, start, end]).unwrap(), 1);
                        (m, env, ds)
                    }
                };
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
