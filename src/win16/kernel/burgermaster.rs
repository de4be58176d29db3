//! The global heap's master object (the "burgermaster") and
//! GlobalMasterHandle, which hands it to heap walkers.
//!
//! In enhanced mode KRNL386 kept the global heap's description in one
//! fixed segment: a heap header (HeapInfo followed by GlobalInfo) and the
//! array of 32-byte arena entries (GlobalArena32), one per block, linked
//! by their offsets in that segment. Programs that walk the heap without
//! TOOLHELP (the SDK's early heap walkers, memory monitors) call
//! KERNEL.28 GlobalMasterHandle, which returns the segment's handle in AX
//! and its selector in DX, and read the arenas through the selector.
//!
//! Here the blocks live in [`GlobalArena`](crate::win16::global) and the
//! burgermaster is a fixed block of type GT_BURGERMASTER owned by KERNEL.
//! GlobalMasterHandle writes into it, each time it is called, the heap as
//! it stands then: the header, then from [`ARENAS`] on the first sentinel
//! arena, one arena per block or free arena in address order, the items
//! of KERNEL's arena chain (`global::items`, which TOOLHELP's GLOBAL_ALL
//! walk lists too; the burgermaster's
//! own among them, its owner GA_BURGERMASTER; a free arena's owner 0), and
//! the last sentinel. The
//! segment grows when the heap has more blocks than it holds.
//!
//! Layouts (KRNL386's own definitions of HeapInfo, GlobalInfo and
//! GlobalArena32 for enhanced mode):
//!
//! | offset | header field |
//! | --- | --- |
//! | 00 | hi_check (0: heap checking off) |
//! | 02 | hi_freeze (0) |
//! | 04 | hi_count: arena entries, sentinels included |
//! | 06 | hi_first: DWORD offset of the first (sentinel) arena |
//! | 0A | hi_last: DWORD offset of the last (sentinel) arena |
//! | 0E | hi_ncompact, 0F hi_dislevel, 10 hi_distotal (DWORD) |
//! | 14..1D | hi_htable, hi_hfree, hi_hdelta, hi_hexpand, hi_pstats |
//! | 1E | gi_lrulock |
//! | 20 | gi_lruchain: DWORD offset of the first discardable block's arena |
//! | 24 | gi_lrucount: discardable blocks |
//! | 26 | gi_reserve (DWORD), 2A gi_disfence (DWORD) |
//! | 2E | gi_free_count: free arenas (global.rs, "Free memory") |
//!
//! | offset | arena field |
//! | --- | --- |
//! | 00 | pga_next: DWORD offset of the next arena (the last: itself) |
//! | 04 | pga_prev: DWORD offset of the previous arena (the first: itself) |
//! | 08 | pga_address: linear address of the block |
//! | 0C | pga_size: bytes |
//! | 10 | pga_handle |
//! | 12 | pga_owner (FFFFh a sentinel, FFFDh the burgermaster) |
//! | 14 | pga_count: lock count (the sentinels and the burgermaster: the signature word, 4Dh, 5Ah for the last) |
//! | 15 | pga_pglock |
//! | 16 | pga_flags: 80h fixed, 04h DGROUP, 08h discardable code |
//! | 17 | pga_selcount: selectors of the block |
//! | 18 | pga_lruprev, 1C pga_lrunext: the LRU chain (circular) |

use crate::machine::{Cpu, SegKind, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::Api;
use crate::win16::global::{self, GlobalBlock, gt};

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "KERNEL",
    28,
    "GLOBALMASTERHANDLE",
    &[],
    global_master_handle,
)];

/// Offset of the first arena entry in the burgermaster.
pub const ARENAS: u32 = 0x80;
/// Bytes of one arena entry.
pub const ARENA_SIZE: u32 = 0x20;
/// GA_SIGNATURE and GA_ENDSIG: the signature words of the sentinels.
pub const GA_SIGNATURE: u16 = 0x4D;
pub const GA_ENDSIG: u16 = 0x5A;
/// pga_owner of a sentinel and of the burgermaster itself.
pub const GA_SENTINEL: u16 = 0xFFFF;
pub const GA_BURGERMASTER: u16 = 0xFFFD;
/// pga_flags bits.
pub const GAH_DGROUP: u8 = 0x04;
pub const GAH_DISCCODE: u8 = 0x08;
pub const GAH_FIXED: u8 = 0x80;

/// One arena entry as it lies in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arena {
    pub next: u32,
    pub prev: u32,
    pub address: u32,
    pub size: u32,
    pub handle: u16,
    pub owner: u16,
    pub count: u8,
    pub pglock: u8,
    pub flags: u8,
    pub selcount: u8,
    pub lruprev: u32,
    pub lrunext: u32,
}

impl Arena {
    pub fn to_bytes(&self) -> [u8; ARENA_SIZE as usize] {
        let mut b = [0u8; ARENA_SIZE as usize];
        b[0..4].copy_from_slice(&self.next.to_le_bytes());
        b[4..8].copy_from_slice(&self.prev.to_le_bytes());
        b[8..12].copy_from_slice(&self.address.to_le_bytes());
        b[12..16].copy_from_slice(&self.size.to_le_bytes());
        b[16..18].copy_from_slice(&self.handle.to_le_bytes());
        b[18..20].copy_from_slice(&self.owner.to_le_bytes());
        b[20] = self.count;
        b[21] = self.pglock;
        b[22] = self.flags;
        b[23] = self.selcount;
        b[24..28].copy_from_slice(&self.lruprev.to_le_bytes());
        b[28..32].copy_from_slice(&self.lrunext.to_le_bytes());
        b
    }
}

/// The arena entry of one block (not yet linked).
fn arena_of(b: &GlobalBlock, master: u16) -> Arena {
    if b.kind == gt::FREE {
        // A free arena: owner 0, no handle, no flags.
        return Arena {
            address: b.address,
            size: b.size,
            ..Arena::default()
        };
    }
    let mut flags = 0;
    if !b.moveable() {
        flags |= GAH_FIXED;
    }
    if b.kind == gt::DGROUP {
        flags |= GAH_DGROUP;
    }
    if b.kind == gt::CODE && b.discardable() {
        flags |= GAH_DISCCODE;
    }
    let is_master = b.selector == master;
    let [sig, _] = GA_SIGNATURE.to_le_bytes();
    Arena {
        address: b.address,
        size: b.size,
        handle: b.handle,
        owner: if is_master { GA_BURGERMASTER } else { b.owner },
        count: if is_master {
            sig
        } else {
            b.lock.min(0xFF) as u8
        },
        flags,
        selcount: global::selector_count(b.size).min(0xFF) as u8,
        ..Arena::default()
    }
}

/// The whole burgermaster for `blocks` (in address order), the master
/// being the block with selector `master`.
pub fn image(blocks: &[GlobalBlock], master: u16) -> Vec<u8> {
    let n = blocks.len() as u32 + 2;
    let off = |i: u32| ARENAS + i * ARENA_SIZE;
    let mut arenas = Vec::with_capacity(n as usize);
    let [sig, sig_hi] = GA_SIGNATURE.to_le_bytes();
    let first_address = blocks.first().map_or(0, |b| b.address);
    arenas.push(Arena {
        address: first_address,
        owner: GA_SENTINEL,
        count: sig,
        pglock: sig_hi,
        ..Arena::default()
    });
    arenas.extend(blocks.iter().map(|b| arena_of(b, master)));
    let [end, end_hi] = GA_ENDSIG.to_le_bytes();
    let last_address = blocks.last().map_or(0, |b| b.address + b.size);
    arenas.push(Arena {
        address: last_address,
        owner: GA_SENTINEL,
        count: end,
        pglock: end_hi,
        ..Arena::default()
    });
    for (i, a) in arenas.iter_mut().enumerate() {
        let i = i as u32;
        a.prev = off(i.saturating_sub(1));
        a.next = off((i + 1).min(n - 1));
    }
    // The LRU chain: the discardable blocks, circular.
    let lru: Vec<u32> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.discardable())
        .map(|(i, _)| i as u32 + 1)
        .collect();
    for (k, &i) in lru.iter().enumerate() {
        let prev = lru[(k + lru.len() - 1) % lru.len()];
        let next = lru[(k + 1) % lru.len()];
        arenas[i as usize].lruprev = off(prev);
        arenas[i as usize].lrunext = off(next);
    }
    let mut out = vec![0u8; off(n) as usize];
    let put16 = |out: &mut Vec<u8>, at: usize, v: u16| {
        out[at..at + 2].copy_from_slice(&v.to_le_bytes());
    };
    let put32 = |out: &mut Vec<u8>, at: usize, v: u32| {
        out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    put16(&mut out, 0x04, n.min(0xFFFF) as u16);
    put32(&mut out, 0x06, off(0));
    put32(&mut out, 0x0A, off(n - 1));
    put32(&mut out, 0x20, lru.first().map_or(0, |&i| off(i)));
    put16(&mut out, 0x24, lru.len() as u16);
    let free = blocks.iter().filter(|b| b.kind == gt::FREE).count();
    put16(&mut out, 0x2E, free.min(0xFFFF) as u16);
    for (i, a) in arenas.iter().enumerate() {
        let at = off(i as u32) as usize;
        out[at..at + ARENA_SIZE as usize].copy_from_slice(&a.to_bytes());
    }
    out
}

/// The arenas between the sentinels: the blocks and free arenas of
/// KERNEL's arena chain (`global::items`), which TOOLHELP's GLOBAL_ALL
/// walk lists too, so both views show the same heap.
fn arenas(env: &Env) -> Vec<GlobalBlock> {
    let mut v = global::items(env, global::Walk::All);
    v.retain(|b| b.kind != gt::SENTINEL);
    v
}

/// The burgermaster's selector, made on first use (0 when the machine
/// cannot make it).
fn master(env: &mut Env, uc: &mut Uc<'_>) -> u16 {
    if let Some(s) = env.win16.kernel.burgermaster {
        return s;
    }
    let Ok(sel) = crate::machine::alloc_seg(uc, SegKind::Data, 0x1000, &[]) else {
        return 0;
    };
    let kernel = env.win16.module_by_name("KERNEL").map_or(0, |m| m.hmodule);
    let Some(b) = global::block_for(&*uc, sel, false, kernel, false, gt::BURGERMASTER, None) else {
        let _ = crate::machine::free_seg(uc, sel);
        return 0;
    };
    env.win16.global.insert(b);
    env.win16.kernel.burgermaster = Some(sel);
    sel
}

/// Write the heap as it stands into the burgermaster (module doc); its
/// selector, or 0.
pub fn refresh(env: &mut Env, uc: &mut Uc<'_>) -> u16 {
    let sel = master(env, uc);
    if sel == 0 {
        return 0;
    }
    let need = ARENAS + (arenas(env).len() as u32 + 2) * ARENA_SIZE;
    let have = env.win16.global.find(sel).map_or(0, |b| b.size);
    if need > have {
        let size = need.div_ceil(0x1000) * 0x1000;
        if size > global::MAX_BLOCK || crate::machine::resize_seg(uc, sel, size).is_err() {
            return 0;
        }
        let address = uc.descriptor_of(sel).map_or(0, |d| d.base);
        if let Some(b) = env.win16.global.find(sel).cloned() {
            let mut nb = b;
            nb.size = size;
            nb.address = address;
            env.win16.global.insert(nb);
        }
    }
    let bytes = image(&arenas(env), sel);
    if !crate::win16::farptr::write_bytes(uc, u32::from(sel) << 16, &bytes) {
        return 0;
    }
    sel
}

/// KERNEL.28 GlobalMasterHandle(): AX = the burgermaster's handle, DX = its
/// selector (the same: it is fixed); 0 when it cannot be made.
pub fn global_master_handle(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let sel = refresh(env, uc);
    Ok(u32::from(sel) << 16 | u32::from(sel))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            lock: 2,
            flags,
            dynamic: true,
            resource: None,
            dos_segment: None,
            discarded: false,
        }
    }

    #[test]
    fn arena_layout() {
        let a = Arena {
            next: 0x11223344,
            prev: 0x55667788,
            address: 0x0040_0000,
            size: 0x20,
            handle: 0x1F,
            owner: 0xFFFD,
            count: 1,
            pglock: 2,
            flags: 0x80,
            selcount: 3,
            lruprev: 0xA0,
            lrunext: 0xC0,
        };
        let b = a.to_bytes();
        assert_eq!(&b[0..4], &[0x44, 0x33, 0x22, 0x11]);
        assert_eq!(&b[16..20], &[0x1F, 0, 0xFD, 0xFF]);
        assert_eq!(&b[20..24], &[1, 2, 0x80, 3]);
        assert_eq!(&b[28..32], &[0xC0, 0, 0, 0]);
    }

    #[test]
    fn image_links_the_arenas() {
        let blocks = [
            block(0x0F, 0x1000, 0x40, 0),
            block(0x17, 0x2000, 0x20, 0x0102),
            block(0x1F, 0x3000, 0x1000, 0),
        ];
        let img = image(&blocks, 0x1F);
        let w = |o: usize| u16::from_le_bytes([img[o], img[o + 1]]);
        let d = |o: usize| u32::from_le_bytes([img[o], img[o + 1], img[o + 2], img[o + 3]]);
        assert_eq!(w(4), 5);
        assert_eq!(d(6), ARENAS);
        assert_eq!(d(0x0A), ARENAS + 4 * 0x20);
        // The first sentinel points to itself backwards, the last forwards.
        assert_eq!(d(ARENAS as usize + 4), ARENAS);
        let last = (ARENAS + 0x80) as usize;
        assert_eq!(d(last), last as u32);
        assert_eq!(w(last + 0x14), GA_ENDSIG);
        // The moveable discardable block is alone on the LRU chain.
        assert_eq!(d(0x20), ARENAS + 0x40);
        assert_eq!(w(0x24), 1);
        let second = (ARENAS + 0x40) as usize;
        assert_eq!(d(second + 0x18), second as u32);
        assert_eq!(img[second + 0x16], 0);
        // The master's own arena.
        let m = (ARENAS + 0x60) as usize;
        assert_eq!(w(m + 0x12), GA_BURGERMASTER);
        assert_eq!(img[m + 0x16], GAH_FIXED);
        assert_eq!(d(m + 8), 0x3000);
        assert_eq!(w(0x2E), 0, "no free arena");
    }

    #[test]
    fn a_free_arena_has_owner_0_and_is_counted() {
        let mut free = block(0, 0x1800, 0x80, 0);
        free.kind = gt::FREE;
        free.owner = 0;
        free.handle = 0;
        let blocks = [block(0x0F, 0x1000, 0x40, 0), free];
        let img = image(&blocks, 0x0F);
        let w = |o: usize| u16::from_le_bytes([img[o], img[o + 1]]);
        let d = |o: usize| u32::from_le_bytes([img[o], img[o + 1], img[o + 2], img[o + 3]]);
        assert_eq!(w(4), 4, "two sentinels, the master, the free arena");
        assert_eq!(w(0x2E), 1, "gi_free_count");
        let f = (ARENAS + 0x40) as usize;
        assert_eq!((d(f + 8), d(f + 0x0C)), (0x1800, 0x80));
        assert_eq!((w(f + 0x10), w(f + 0x12)), (0, 0), "no handle, owner 0");
        assert_eq!((img[f + 0x14], img[f + 0x16], img[f + 0x17]), (0, 0, 0));
    }
}
