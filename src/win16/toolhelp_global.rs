//! TOOLHELP's view of the global heap: GlobalFirst, GlobalNext,
//! GlobalInfo, GlobalEntryHandle, GlobalEntryModule and GlobalHandleToSel,
//! over the blocks and free arenas of [`crate::win16::global`].
//!
//! # What the walks list
//!
//! KRNL386 chained every arena of the global heap between two sentinel
//! arenas, one at each end (burgermaster.rs: hi_first and hi_last are
//! sentinels, hi_count counts them), and TOOLHELP walked that chain from
//! hi_first to hi_last. KERNEL makes the lists (`global::items`: the
//! chain, the LRU list, the free arenas); this file reads them. So
//! GlobalFirst/GlobalNext(GLOBAL_ALL) give, in address order:
//!
//! | item | dwAddress | dwBlockSize | hBlock | hOwner | wType |
//! | --- | --- | --- | --- | --- | --- |
//! | the first sentinel | the lowest item's address | 0 | 0 | FFFFh (GA_SENTINEL) | GT_SENTINEL |
//! | each block | its memory | its size | its handle | module doc of global.rs | its GT_ type |
//! | each free arena | its memory | its size | 0 | 0 | GT_FREE |
//! | the last sentinel | the end of the highest item | 0 | 0 | FFFFh | GT_SENTINEL |
//!
//! GLOBALINFO.wcItems counts exactly those items (hi_count), wcItemsFree
//! the free arenas (gi_free_count), wcItemsLRU the discardable blocks
//! (gi_lrucount), so a walker that sizes its table from GlobalInfo finds
//! room for every item (Windows 3.1 SDK, GlobalInfo, GLOBALINFO).
//! GLOBAL_LRU walks the discardable blocks, GLOBAL_FREE the free arenas
//! (SDK, GlobalFirst). Discarded blocks have no memory, hence no arena,
//! and are in no walk. hOwner of a sentinel is the arena's owner word
//! (burgermaster.rs); no spec states what TOOLHELP put there.
//!
//! # The cursor
//!
//! dwNext holds the linear address of the next item of the whole walk,
//! dwNextAlt that of the next item of the block's own list: the next free
//! arena for a free arena, the next discardable block otherwise (0: none).
//! GlobalNext takes the first item of its list at or above that address
//! (the first sentinel, which shares its address with the lowest item, is
//! only GlobalFirst's), so a walk survives blocks freed or made since the
//! last call.
//!
//! # Failures (SDK: each returns nonzero if successful)
//!
//! A structure whose dwSize is not sizeof(GLOBALENTRY) (0x24) or
//! sizeof(GLOBALINFO) (0x0A), or that is not writable; a wFlags other than
//! GLOBAL_ALL, GLOBAL_LRU or GLOBAL_FREE; GlobalNext after the last item;
//! GlobalFirst(GLOBAL_LRU or GLOBAL_FREE) on an empty list;
//! GlobalEntryHandle of a handle that names no block (0, a GDT selector, a
//! freed handle, a discarded block's handle: it has no arena);
//! GlobalEntryModule of a handle that is no module, or a segment number 0
//! or past the module's segment table, or of a segment with no memory.

use super::global::{GF_PDB_OWNER, GlobalBlock, Walk, gt, items};
use super::guest;
use super::toolhelp::{GlobalEntry, GlobalInfo};
use super::toolhelp_heap;
use crate::machine::{Stop, Uc};
use crate::win16::Env;

/// GlobalFirst/GlobalNext wFlags (TOOLHELP.H).
pub const GLOBAL_ALL: u16 = 0;
pub const GLOBAL_LRU: u16 = 1;
pub const GLOBAL_FREE: u16 = 2;

/// The list wFlags names (GLOBAL_ALL: KERNEL's whole arena chain,
/// GLOBAL_LRU: its discardable blocks, GLOBAL_FREE: its free arenas), or
/// `None` for an unknown value.
pub fn walk_of(flags: u16) -> Option<Walk> {
    match flags {
        GLOBAL_ALL => Some(Walk::All),
        GLOBAL_LRU => Some(Walk::Lru),
        GLOBAL_FREE => Some(Walk::Free),
        _ => None,
    }
}

/// The first item of `list` at or above `address`, skipping the first
/// sentinel of a GLOBAL_ALL list (module doc, "The cursor").
fn at_or_after(list: &[GlobalBlock], walk: Walk, address: u32) -> Option<&GlobalBlock> {
    let skip = usize::from(walk == Walk::All);
    list.iter().skip(skip).find(|b| b.address >= address)
}

/// The address of the item after `b` in `list` (0: none).
fn next_address(list: &[GlobalBlock], b: &GlobalBlock) -> u32 {
    list.iter()
        .find(|x| x.address > b.address)
        .map_or(0, |x| x.address)
}

/// The GLOBALENTRY of a walk's item. wHeapPresent is TRUE when the
/// block's memory holds a local heap (toolhelp_heap.rs, "How a local heap
/// is found"); wcPageLock is GlobalPageLock's count; wData is the segment
/// number of a module's code or data segment and the GD_* resource type
/// of a resource (SDK, GLOBALENTRY); dwNext and dwNextAlt: module doc,
/// "The cursor".
pub fn global_entry(env: &Env, uc: &Uc<'_>, b: &GlobalBlock) -> GlobalEntry {
    let all = items(env, Walk::All);
    let alt = items(
        env,
        if b.kind == gt::FREE {
            Walk::Free
        } else {
            Walk::Lru
        },
    );
    entry_in(env, uc, b, &all, &alt)
}

fn entry_in(
    env: &Env,
    uc: &Uc<'_>,
    b: &GlobalBlock,
    all: &[GlobalBlock],
    alt: &[GlobalBlock],
) -> GlobalEntry {
    let is_sentinel = b.kind == gt::SENTINEL;
    let last = all.last().map_or(0, |l| l.address);
    let dw_next = if is_sentinel && b.address == last {
        0
    } else if is_sentinel {
        all.get(1).map_or(0, |x| x.address)
    } else {
        // The next item (the last sentinel's address after the highest).
        next_address(&all[1..], b)
    };
    let dw_next_alt = if is_sentinel { 0 } else { next_address(alt, b) };
    GlobalEntry {
        dw_address: b.address,
        dw_block_size: b.size,
        h_block: b.handle,
        wc_lock: b.lock,
        wc_page_lock: env
            .win16
            .kernel
            .memory
            .page_locks
            .get(&b.selector)
            .copied()
            .filter(|_| b.selector != 0)
            .unwrap_or(0),
        w_flags: if b.pdb_owner { GF_PDB_OWNER } else { 0 },
        w_heap_present: u16::from(b.selector != 0 && toolhelp_heap::heap_present(uc, b.selector)),
        h_owner: b.owner,
        w_type: b.kind,
        w_data: match b.kind {
            // The segment number of a module's segment, data too (SDK,
            // GlobalEntryHandle: how debuggers find a segment's number).
            gt::CODE | gt::DGROUP | gt::DATA => b.segment.unwrap_or(0),
            gt::RESOURCE => b.resource.map_or(0, |t| t.gd_type),
            _ => 0,
        },
        dw_next,
        dw_next_alt,
    }
}

/// The global heap as GlobalFirst/GlobalNext(GLOBAL_ALL) list it, for the
/// host (`toolhelp16 heap`): the same items, the same entries.
pub fn global_entries(env: &Env, uc: &Uc<'_>) -> Vec<GlobalEntry> {
    let all = items(env, Walk::All);
    let lru = items(env, Walk::Lru);
    let free = items(env, Walk::Free);
    all.iter()
        .map(|b| {
            let alt = if b.kind == gt::FREE { &free } else { &lru };
            entry_in(env, uc, b, &all, alt)
        })
        .collect()
}

fn arg(a: &[u32], i: usize) -> u32 {
    a.get(i).copied().unwrap_or(0)
}

fn warg(a: &[u32], i: usize) -> u16 {
    arg(a, i) as u16
}

/// Does the structure at `p` carry dwSize = `size`, with all `size` bytes
/// writable?
fn size_ok(uc: &Uc<'_>, p: u32, size: usize) -> bool {
    guest::read_u32(uc, p) == Some(size as u32) && guest::usable(uc, p, size, true)
}

/// Fill the GLOBALENTRY at `p` with the entry of `b`: 1, or 0 (nothing
/// written) when its dwSize is wrong, it is not writable or there is no
/// item.
fn fill_global(env: &Env, uc: &mut Uc<'_>, p: u32, b: Option<GlobalBlock>) -> u32 {
    if !size_ok(uc, p, GlobalEntry::SIZE) {
        return 0;
    }
    let Some(b) = b else {
        return 0;
    };
    let bytes = global_entry(env, uc, &b).to_bytes();
    u32::from(guest::write(uc, p, &bytes))
}

/// TOOLHELP.50 GlobalHandleToSel(hMem): the block's selector, 0 if the
/// handle names none.
pub fn global_handle_to_sel(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .global
        .find(warg(a, 0))
        .map_or(0, |b| u32::from(b.selector)))
}

/// TOOLHELP.51 GlobalFirst(lpge, wFlags): the first item of the list
/// wFlags names (module doc).
pub fn global_first(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let b = walk_of(warg(a, 1)).and_then(|w| items(env, w).into_iter().next());
    Ok(fill_global(env, uc, arg(a, 0), b))
}

/// TOOLHELP.52 GlobalNext(lpge, wFlags): the item after the one in the
/// structure (dwNext for GLOBAL_ALL, dwNextAlt for the others); FALSE
/// after the last.
pub fn global_next(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    let Some(walk) = walk_of(warg(a, 1)) else {
        return Ok(0);
    };
    if !size_ok(uc, p, GlobalEntry::SIZE) {
        return Ok(0);
    }
    let at = if walk == Walk::All {
        GlobalEntry::DW_NEXT
    } else {
        GlobalEntry::DW_NEXT_ALT
    };
    let next = guest::read_u32(uc, p.wrapping_add(u32::from(at))).unwrap_or(0);
    let list = items(env, walk);
    let b = (next != 0)
        .then(|| at_or_after(&list, walk, next).cloned())
        .flatten();
    Ok(fill_global(env, uc, p, b))
}

/// The GLOBALINFO counts (module doc): every item of the GLOBAL_ALL walk,
/// the free arenas, the discardable blocks.
pub fn info(env: &Env) -> GlobalInfo {
    let count = |w| items(env, w).len().min(0xFFFF) as u16;
    GlobalInfo {
        wc_items: count(Walk::All),
        wc_items_free: count(Walk::Free),
        wc_items_lru: count(Walk::Lru),
    }
}

/// TOOLHELP.53 GlobalInfo(lpgi).
pub fn global_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, GlobalInfo::SIZE) {
        return Ok(0);
    }
    let bytes = info(env).to_bytes();
    Ok(u32::from(guest::write(uc, p, &bytes)))
}

/// TOOLHELP.54 GlobalEntryHandle(lpge, hItem): the block of a handle or
/// selector; FALSE for one that names no block with memory.
pub fn global_entry_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let b = env
        .win16
        .global
        .find(warg(a, 1))
        .filter(|b| !b.discarded)
        .cloned();
    Ok(fill_global(env, uc, arg(a, 0), b))
}

/// TOOLHELP.55 GlobalEntryModule(lpge, hModule, wSeg): the block of the
/// module's segment wSeg (1-based); FALSE if hModule is no module or it
/// has no such segment.
pub fn global_entry_module(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hmodule, seg) = (warg(a, 1), warg(a, 2));
    let sel = env
        .win16
        .module_by_handle(hmodule)
        .and_then(|m| m.segments.get(usize::from(seg).wrapping_sub(1)).copied());
    let b = sel
        .and_then(|s| env.win16.global.find(s))
        .filter(|b| !b.discarded)
        .cloned();
    Ok(fill_global(env, uc, arg(a, 0), b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::global::gmem;

    fn block(sel: u16, address: u32, size: u32, flags: u16) -> GlobalBlock {
        GlobalBlock {
            handle: sel,
            selector: sel,
            address,
            size,
            owner: 0x1234,
            pdb_owner: false,
            kind: gt::UNKNOWN,
            segment: None,
            lock: 0,
            flags,
            dynamic: true,
            resource: None,
            dos_segment: None,
            discarded: false,
        }
    }

    #[test]
    fn the_walk_runs_from_sentinel_to_sentinel_through_free_arenas() {
        let m = crate::machine::Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let g = &mut env.win16.global;
        g.insert(block(0x100F, 0x0100_0000, 0x40, 0));
        g.insert(block(
            0x1017,
            0x0200_0000,
            0x20,
            gmem::MOVEABLE | gmem::DISCARDABLE,
        ));
        g.insert(block(0x101F, 0x0300_0000, 0x60, 0));
        g.insert(block(
            0x1027,
            0x0400_0000,
            0x20,
            gmem::MOVEABLE | gmem::DISCARDABLE,
        ));
        g.remove(0x101F);
        let all = items(&env, Walk::All);
        let kinds: Vec<(u32, u16, u16)> =
            all.iter().map(|b| (b.address, b.handle, b.kind)).collect();
        assert_eq!(
            kinds,
            [
                (0x0100_0000, 0, gt::SENTINEL),
                (0x0100_0000, 0x100F, gt::UNKNOWN),
                (0x0200_0000, 0x1017, gt::UNKNOWN),
                (0x0300_0000, 0, gt::FREE),
                (0x0400_0000, 0x1027, gt::UNKNOWN),
                (0x0400_0020, 0, gt::SENTINEL),
            ]
        );
        assert_eq!(
            (all[0].owner, all[3].owner, all[5].owner),
            (0xFFFF, 0, 0xFFFF)
        );
        // dwNext chains the whole walk; dwNextAlt the LRU list, or for a
        // free arena the free list.
        let entries = global_entries(&env, &m);
        let next: Vec<u32> = entries.iter().map(|e| e.dw_next).collect();
        assert_eq!(
            next,
            [
                0x0100_0000,
                0x0200_0000,
                0x0300_0000,
                0x0400_0000,
                0x0400_0020,
                0
            ]
        );
        assert_eq!(entries[2].dw_next_alt, 0x0400_0000, "the next discardable");
        assert_eq!(entries[3].dw_next_alt, 0, "no other free arena");
        // The cursor finds the item at or after it, never the first
        // sentinel again; GlobalInfo counts what the walks give.
        assert_eq!(
            at_or_after(&all, Walk::All, 0x0100_0000).map(|b| b.handle),
            Some(0x100F)
        );
        assert_eq!(
            at_or_after(&all, Walk::All, 0x0300_0001).map(|b| b.handle),
            Some(0x1027)
        );
        let gi = info(&env);
        assert_eq!((gi.wc_items, gi.wc_items_free, gi.wc_items_lru), (6, 1, 2));
    }

    /// wData of a resource's block is its GD_* type, of a code or data
    /// segment its segment number, else 0 (Windows 3.1 SDK, GLOBALENTRY);
    /// hOwner and wType are the arena's (what LoadResource recorded:
    /// resource.rs's tests).
    #[test]
    fn w_data_names_the_resource_type_or_the_segment() {
        let m = crate::machine::Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let g = &mut env.win16.global;
        let mut r = block(0x100F, 0x0100_0000, 0x20, gmem::MOVEABLE);
        r.kind = gt::RESOURCE;
        r.resource = Some(super::super::global::ResourceTag {
            hrsrc: 0x40,
            gd_type: 6,
            usage: 1,
            loaded: true,
        });
        g.insert(r);
        let mut c = block(0x1017, 0x0200_0000, 0x20, 0);
        c.kind = gt::CODE;
        c.segment = Some(3);
        g.insert(c);
        g.insert(block(0x101F, 0x0300_0000, 0x20, 0));
        let e = global_entries(&env, &m);
        let got: Vec<(u16, u16, u16)> = e[1..4]
            .iter()
            .map(|e| (e.h_owner, e.w_type, e.w_data))
            .collect();
        assert_eq!(
            got,
            [
                (0x1234, gt::RESOURCE, 6),
                (0x1234, gt::CODE, 3),
                (0x1234, gt::UNKNOWN, 0)
            ]
        );
    }
}
