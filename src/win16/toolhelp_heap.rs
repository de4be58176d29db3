//! TOOLHELP's local-heap walk (LocalInfo, LocalFirst, LocalNext) and the
//! heap facts its global-heap entries need (GLOBALENTRY.wHeapPresent),
//! read from emulated memory as TOOLHELP.DLL read them: never from the
//! emulator's own bookkeeping of the heap (`crate::win16::local`), so a
//! walk finds what a program or a debugger reading the segment finds.
//!
//! # How a local heap is found
//!
//! hHeap is a global handle or a selector (a program passes its hInstance,
//! its DS, or GlobalHandle's answer). Its segment holds a local heap when
//! the instance data's pLocalHeap word (DS:06) points at a heap
//! information block that lies inside the segment and ends with the 'LH'
//! signature (484Ch), and whose first and last arenas lie inside the
//! segment, the first below the last (the layout of `local`'s module doc,
//! "Layout"). Anything else names no heap: LocalInfo and LocalFirst then
//! fail (FALSE), as they do for a wrong dwSize.
//!
//! # What a walk lists
//!
//! Every arena of the chain, from the heap information block's first
//! arena along each arena's next pointer to the last arena (the one that
//! is its own successor): the two sentinels too, so the walk yields
//! exactly LOCALINFO.wcItems entries, the heap information block's arena
//! count (Windows 3.1 SDK, "Walking the Local Heap": LocalInfo's count
//! tells how many entries to make room for). Each entry (LOCALENTRY,
//! TOOLHELP.H):
//!
//! | arena | hHandle | wAddress | wSize | wFlags | wcLock | wType |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | busy, fixed (the first sentinel, the information block, handle tables, LMEM_FIXED blocks) | the data's address (LocalAlloc's answer) | arena + 4 | to the next arena (LocalSize) | LF_FIXED | 0 | LT_NORMAL |
//! | busy, moveable | the handle stored in the arena (arena + 4) | arena + 6 (LocalLock's answer) | to the next arena (LocalSize) | LF_MOVEABLE | the handle-table entry's lock byte | LT_NORMAL |
//! | free | arena + 4 | arena + 4 | to the next arena | LF_FREE | 0 | LT_FREE |
//! | the last arena | arena + 4 | arena + 4 | 0 | LF_FREE | 0 | LT_FREE |
//!
//! so the free entries' sizes add up to what `local::heap_free` (and
//! LocalCompact's free room) counts. hHeap is the global handle of the
//! heap's segment (its selector when the segment is no global block);
//! wHeapType is USER_HEAP or GDI_HEAP for USER's or GDI's automatic data
//! segment, NORMAL_HEAP otherwise; wNext is the next arena, 0 after the
//! last. Discarded moveable blocks have no arena and are not listed.
//!
//! A chain that does not climb (a next arena at or below the current one,
//! or past the last) ends the walk there: LocalNext fails, LocalInfo
//! counts the arenas reached. A walk is bounded by the segment's 64 KiB.

use super::api::Arg;
use super::global::gt;
use super::guest;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;

/// LOCALENTRY.wFlags (TOOLHELP.H).
pub const LF_FIXED: u16 = 1;
pub const LF_FREE: u16 = 2;
pub const LF_MOVEABLE: u16 = 4;
/// LOCALENTRY.wType (TOOLHELP.H): a normal heap's blocks, free blocks.
pub const LT_NORMAL: u16 = 0;
pub const LT_FREE: u16 = 0xFF;
/// LOCALENTRY.wHeapType (TOOLHELP.H).
pub const NORMAL_HEAP: u16 = 0;
pub const USER_HEAP: u16 = 1;
pub const GDI_HEAP: u16 = 2;

/// The heap information block's fields a walk reads (`local::heap`,
/// LocalHeapInfo): the arena count, the first and the last arena, and the
/// signature.
const HI_COUNT: u16 = 0x04;
const HI_FIRST: u16 = 0x06;
const HI_LAST: u16 = 0x0A;
const HI_MAGIC: u16 = 0x28;
const HI_SIZE: u32 = 0x2A;
const LH_MAGIC: u16 = 0x484C;
/// The instance data's pLocalHeap word.
const P_LOCAL_HEAP: u16 = 6;

/// LOCALENTRY, 0x16 bytes (TOOLHELP.H).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocalEntry {
    pub h_handle: u16,
    pub w_address: u16,
    pub w_size: u16,
    pub w_flags: u16,
    pub wc_lock: u16,
    pub w_type: u16,
    pub h_heap: u16,
    pub w_heap_type: u16,
    pub w_next: u16,
}

impl LocalEntry {
    pub const SIZE: usize = 0x16;
    /// Offsets of hHeap and wNext, which LocalNext reads.
    pub const H_HEAP: u32 = 0x10;
    pub const W_NEXT: u32 = 0x14;

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(Self::SIZE);
        b.extend_from_slice(&(Self::SIZE as u32).to_le_bytes());
        for w in [
            self.h_handle,
            self.w_address,
            self.w_size,
            self.w_flags,
            self.wc_lock,
            self.w_type,
            self.h_heap,
            self.w_heap_type,
            self.w_next,
        ] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }
}

/// LOCALINFO, 6 bytes (TOOLHELP.H): dwSize, wcItems.
pub const LOCAL_INFO_SIZE: usize = 0x06;

/// A local heap found in a segment's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heap {
    pub selector: u16,
    /// LOCALENTRY.hHeap: the segment's global handle.
    pub h_heap: u16,
    pub heap_type: u16,
    /// pLocalHeap: the heap information block.
    pub info: u16,
    pub first: u16,
    pub last: u16,
    /// The information block's arena count.
    pub items: u16,
}

/// The heap information block of segment `sel`, when its pLocalHeap word
/// names a valid one (module doc, "How a local heap is found"): (info,
/// first, last, count).
pub fn heap_header<C: Cpu + ?Sized>(cpu: &C, sel: u16) -> Option<(u16, u16, u16, u16)> {
    let d = cpu.descriptor_of(sel)?;
    if d.is_code() || d.limit < 0x0F {
        return None;
    }
    let end = d.limit + 1;
    let info = cpu.read_u16_at(sel, P_LOCAL_HEAP).ok()?;
    if info < 0x10 || u32::from(info) + HI_SIZE > end {
        return None;
    }
    let rd = |o: u16| cpu.read_u16_at(sel, info + o).ok();
    if rd(HI_MAGIC)? != LH_MAGIC {
        return None;
    }
    let (first, last) = (rd(HI_FIRST)?, rd(HI_LAST)?);
    // The last arena's header (prev, next) must be readable.
    if first >= last || u32::from(last) + 4 > end || first < 0x10 {
        return None;
    }
    Some((info, first, last, rd(HI_COUNT)?))
}

/// Does segment `sel` hold a local heap (GLOBALENTRY.wHeapPresent)?
pub fn heap_present<C: Cpu + ?Sized>(cpu: &C, sel: u16) -> bool {
    heap_header(cpu, sel).is_some()
}

/// The local heap that handle-or-selector `h` names: the segment of the
/// global block it names (or `h` itself when it is a segment but no
/// block), if that segment holds a heap.
pub fn find_heap(env: &Env, cpu: &dyn Cpu, h: u16) -> Option<Heap> {
    if h == 0 {
        return None;
    }
    let block = env.win16.global.find(h);
    let (selector, h_heap) = match block {
        Some(b) => (b.selector, b.handle),
        None => (h, h),
    };
    let (info, first, last, items) = heap_header(cpu, selector)?;
    let owner_is = |name: &str| {
        block.is_some_and(|b| {
            b.kind == gt::DGROUP
                && env
                    .win16
                    .module_by_name(name)
                    .is_some_and(|m| m.hmodule == b.owner)
        })
    };
    let heap_type = if owner_is("USER") {
        USER_HEAP
    } else if owner_is("GDI") {
        GDI_HEAP
    } else {
        NORMAL_HEAP
    };
    Some(Heap {
        selector,
        h_heap,
        heap_type,
        info,
        first,
        last,
        items,
    })
}

/// The LOCALENTRY of the arena at `a` (module doc, "What a walk lists");
/// None when `a` lies outside the heap or its header cannot be read.
pub fn entry_at(cpu: &dyn Cpu, heap: &Heap, a: u16) -> Option<LocalEntry> {
    if a < heap.first || a > heap.last {
        return None;
    }
    let sel = heap.selector;
    let rd = |o: u16| cpu.read_u16_at(sel, o).ok();
    let (prev, next) = (rd(a)?, rd(a.checked_add(2)?)?);
    let mut e = LocalEntry {
        h_heap: heap.h_heap,
        w_heap_type: heap.heap_type,
        ..LocalEntry::default()
    };
    let is_last = a == heap.last || next == a;
    let climbs = next > a && next <= heap.last;
    e.w_next = if is_last || !climbs { 0 } else { next };
    // Where the arena ends: the next arena, or nothing for the last (and
    // for a chain that stops climbing).
    let end = if e.w_next != 0 { next } else { 0 };
    let data_size = |data: u16| end.saturating_sub(data);
    if prev & 1 == 0 || is_last {
        e.h_handle = a + 4;
        e.w_address = a + 4;
        e.w_size = data_size(a + 4);
        e.w_flags = LF_FREE;
        e.w_type = LT_FREE;
    } else if prev & 2 != 0 {
        let h = rd(a + 4)?;
        e.h_handle = h;
        e.w_address = a + 6;
        e.w_size = data_size(a + 6);
        e.w_flags = LF_MOVEABLE;
        let mut lock = [0u8; 1];
        e.wc_lock = match cpu.read_seg(sel, h.wrapping_add(3), &mut lock) {
            Ok(()) => u16::from(lock[0]),
            Err(_) => 0,
        };
        e.w_type = LT_NORMAL;
    } else {
        e.h_handle = a + 4;
        e.w_address = a + 4;
        e.w_size = data_size(a + 4);
        e.w_flags = LF_FIXED;
        e.w_type = LT_NORMAL;
    }
    Some(e)
}

/// The entry with the LT_ type of the object its block holds, for the
/// heaps of USER and GDI (sysheap.rs: each block's type is kept when the
/// object is made); other heaps' blocks stay LT_NORMAL.
pub fn with_type(env: &Env, heap: &Heap, mut e: LocalEntry) -> LocalEntry {
    if e.w_flags != LF_FREE
        && let Some(k) = env.win16.sys_heaps.kind(heap.selector, e.h_handle)
    {
        e.w_type = k;
    }
    e
}

/// Every entry of the heap's walk, first to last (module doc), typed as
/// [`with_type`] types them.
pub fn typed_entries(env: &Env, cpu: &dyn Cpu, heap: &Heap) -> Vec<LocalEntry> {
    entries(cpu, heap)
        .into_iter()
        .map(|e| with_type(env, heap, e))
        .collect()
}

/// Every entry of the heap's walk, first to last (module doc).
pub fn entries(cpu: &dyn Cpu, heap: &Heap) -> Vec<LocalEntry> {
    let mut out = Vec::new();
    let mut a = heap.first;
    while let Some(e) = entry_at(cpu, heap, a) {
        out.push(e);
        if e.w_next == 0 {
            break;
        }
        a = e.w_next;
    }
    out
}

/// Does the structure at `p` carry dwSize = `size`, all of it writable?
fn size_ok(uc: &Uc<'_>, p: u32, size: usize) -> bool {
    guest::read_u32(uc, p) == Some(size as u32) && guest::usable(uc, p, size, true)
}

fn arg(a: &[u32], i: usize) -> u32 {
    a.get(i).copied().unwrap_or(0)
}

/// Fill the LOCALENTRY at `p` with `e`: 1, or 0 with nothing written.
fn fill(uc: &mut Uc<'_>, p: u32, e: Option<LocalEntry>) -> u32 {
    match e {
        Some(e) => u32::from(guest::write(uc, p, &e.to_bytes())),
        None => 0,
    }
}

/// The arguments of TOOLHELP.56-58 (for the APIS table in toolhelp.rs).
pub const LOCAL_INFO_ARGS: &[Arg] = &[Arg::L, Arg::W];
pub const LOCAL_FIRST_ARGS: &[Arg] = &[Arg::L, Arg::W];
pub const LOCAL_NEXT_ARGS: &[Arg] = &[Arg::L];

/// TOOLHELP.56 LocalInfo(lpli, hHeap): wcItems, the number of entries a
/// walk of the heap yields (module doc). FALSE for a wrong dwSize or a
/// handle that names no heap.
pub fn local_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, LOCAL_INFO_SIZE) {
        return Ok(0);
    }
    let Some(heap) = find_heap(env, &*uc, arg(a, 1) as u16) else {
        return Ok(0);
    };
    let n = entries(&*uc, &heap).len().min(0xFFFF) as u16;
    let mut b = (LOCAL_INFO_SIZE as u32).to_le_bytes().to_vec();
    b.extend_from_slice(&n.to_le_bytes());
    Ok(u32::from(guest::write(uc, p, &b)))
}

/// TOOLHELP.57 LocalFirst(lple, hHeap): the heap's first arena. FALSE
/// for a wrong dwSize or a handle that names no heap.
pub fn local_first(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, LocalEntry::SIZE) {
        return Ok(0);
    }
    let e = find_heap(env, &*uc, arg(a, 1) as u16)
        .and_then(|h| entry_at(&*uc, &h, h.first).map(|e| with_type(env, &h, e)));
    Ok(fill(uc, p, e))
}

/// TOOLHELP.58 LocalNext(lple): the arena the structure's wNext names in
/// the heap its hHeap names; FALSE after the last (wNext 0), for a wrong
/// dwSize, or when hHeap names no heap any more.
pub fn local_next(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, LocalEntry::SIZE) {
        return Ok(0);
    }
    let word = |o: u32| {
        guest::read(uc, p.wrapping_add(o), 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
    };
    let (h_heap, next) = (word(LocalEntry::H_HEAP), word(LocalEntry::W_NEXT));
    if next == 0 {
        return Ok(0);
    }
    let e = find_heap(env, &*uc, h_heap)
        .and_then(|h| entry_at(&*uc, &h, next).map(|e| with_type(env, &h, e)));
    Ok(fill(uc, p, e))
}

// ------------------------------------------------------------ host views

/// The block in use whose bytes hold offset `offset` of the heap's
/// segment: the busy entry of the walk with `wAddress <= offset <
/// wAddress + wSize` (free arenas hold no block). How `toolhelp16 stack`
/// names what a near pointer points into.
pub fn block_holding(cpu: &dyn Cpu, heap: &Heap, offset: u16) -> Option<LocalEntry> {
    entries(cpu, heap).into_iter().find(|e| {
        e.w_flags != LF_FREE
            && e.w_address <= offset
            && u32::from(offset) < u32::from(e.w_address) + u32::from(e.w_size)
    })
}

/// The name of a block's owner as HEAPWALK showed it: the module whose
/// handle it is, or the module of the task whose PSP it is (with "PDB"),
/// else its handle in hex.
pub fn owner_name(env: &Env, owner: u16) -> String {
    if let Some(m) = env.win16.modules.iter().find(|m| m.hmodule == owner) {
        return m.name.clone();
    }
    if let Some(t) = env.win16.tasks.iter().find(|t| t.psp == owner) {
        if let Some(m) = env.win16.modules.iter().find(|m| m.hmodule == t.hmodule) {
            return format!("{} (PDB)", m.name);
        }
    }
    if owner == 0 {
        String::new()
    } else {
        format!("{owner:04X}")
    }
}

/// GLOBALENTRY.wType's name (TOOLHELP.H's GT_ values without the prefix).
pub fn gt_name(t: u16) -> &'static str {
    match t {
        gt::UNKNOWN => "UNKNOWN",
        gt::DGROUP => "DGROUP",
        gt::DATA => "DATA",
        gt::CODE => "CODE",
        gt::TASK => "TASK",
        gt::RESOURCE => "RESOURCE",
        gt::MODULE => "MODULE",
        gt::FREE => "FREE",
        gt::INTERNAL => "INTERNAL",
        gt::SENTINEL => "SENTINEL",
        gt::BURGERMASTER => "BURGERMASTER",
        _ => "?",
    }
}

/// LOCALENTRY.wFlags' name.
pub fn lf_name(f: u16) -> &'static str {
    match f {
        LF_FIXED => "FIXED",
        LF_FREE => "FREE",
        LF_MOVEABLE => "MOVEABLE",
        _ => "?",
    }
}

/// LOCALENTRY.wType's name in a heap of type `heap_type`: NORMAL, FREE,
/// or in USER's and GDI's heaps TOOLHELP.H's LT_USER_ and LT_GDI_ names
/// without "LT_" (USER_WND, GDI_PEN, ...); another number as `LT_n`.
pub fn lt_name(heap_type: u16, w_type: u16) -> String {
    match w_type {
        LT_NORMAL => "NORMAL".into(),
        LT_FREE => "FREE".into(),
        t => match (heap_type, crate::win16::gdi::heap::lt::name(t)) {
            (GDI_HEAP, Some(n)) => n.trim_start_matches("LT_").into(),
            (USER_HEAP, _) if crate::win16::user::heap::lt_name(t) != "LT_NORMAL" => {
                crate::win16::user::heap::lt_name(t)
                    .trim_start_matches("LT_")
                    .into()
            }
            _ => format!("LT_{t}"),
        },
    }
}

/// LOCALENTRY.wHeapType's name.
pub fn heap_type_name(t: u16) -> &'static str {
    match t {
        USER_HEAP => "USER_HEAP",
        GDI_HEAP => "GDI_HEAP",
        _ => "NORMAL_HEAP",
    }
}

/// The segment of `--local WHAT`: a module's automatic data segment (its
/// task's DGROUP, for a library the NE header's automatic data segment,
/// for USER or GDI their heap's data segment), or a selector or handle in
/// hex.
pub fn local_heap_segment(env: &Env, what: &str) -> Option<u16> {
    // A built-in module's heaps: USER (its data segment), USER.MENU and
    // USER.STRING (Windows 3.1's menu and string heaps).
    let (name, which) = match what.split_once('.') {
        Some((n, w)) if w.eq_ignore_ascii_case("MENU") => (n, 1),
        Some((n, w)) if w.eq_ignore_ascii_case("STRING") => (n, 2),
        _ => (what, 0),
    };
    if let Some(h) = env.win16.sys_heaps.get(name, which) {
        return Some(h.selector);
    }
    if let Some(m) = env.win16.module_by_name(what) {
        if let Some(t) = env.win16.tasks.iter().find(|t| t.hmodule == m.hmodule) {
            return Some(t.dgroup);
        }
        let n = m.image.as_deref()?.header.auto_data_segment;
        return m.segments.get(usize::from(n).checked_sub(1)?).copied();
    }
    let hex = what.trim_start_matches("0x").trim_start_matches("0X");
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Machine, R, SegKind};
    use crate::win16::local::{self, LMEM_DISCARDABLE, LMEM_MOVEABLE};

    #[test]
    fn localentry_layout() {
        let e = LocalEntry {
            h_handle: 0x0104,
            w_address: 0x0106,
            w_size: 0x0108,
            w_flags: 0x010A,
            wc_lock: 0x010C,
            w_type: 0x010E,
            h_heap: 0x0110,
            w_heap_type: 0x0112,
            w_next: 0x0114,
        };
        let b = e.to_bytes();
        assert_eq!(b.len(), 0x16);
        assert_eq!(&b[0..4], &[0x16, 0, 0, 0]);
        for o in (4..0x16).step_by(2) {
            assert_eq!(
                u16::from_le_bytes([b[o], b[o + 1]]),
                0x100 + o as u16,
                "{o:#x}"
            );
        }
        assert_eq!((LocalEntry::H_HEAP, LocalEntry::W_NEXT), (0x10, 0x14));
    }

    /// A 64 KiB DS with a heap over [100h, 300h) (as local.rs's tests).
    fn setup() -> (Machine, Env, u16) {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x1_0000, &[]).unwrap();
        m.set_reg(R::DS, ds).unwrap();
        let mut env = Env::new(false);
        assert_eq!(
            local::local_init(&mut env, &mut m, &[0, 0x100, 0x2FF]).unwrap(),
            1
        );
        (m, env, ds)
    }

    #[test]
    fn the_walk_reads_the_arenas_from_memory() {
        let (mut m, mut env, ds) = setup();
        let f = local::local_alloc(&mut env, &mut m, &[0, 5]).unwrap() as u16;
        let mv = u32::from(LMEM_MOVEABLE | LMEM_DISCARDABLE);
        let h = local::local_alloc(&mut env, &mut m, &[mv, 0x10]).unwrap() as u16;
        local::local_lock(&mut env, &mut m, &[u32::from(h)]).unwrap();
        local::local_lock(&mut env, &mut m, &[u32::from(h)]).unwrap();
        let heap = find_heap(&env, &*m, ds).unwrap();
        assert_eq!((heap.first, heap.last, heap.selector), (0x100, 0x2F4, ds));
        let es = entries(&*m, &heap);
        assert_eq!(es.len(), usize::from(heap.items));
        // First sentinel, information block, f, the handle table, h, free,
        // last sentinel.
        let flags: Vec<u16> = es.iter().map(|e| e.w_flags).collect();
        assert_eq!(
            flags,
            [
                LF_FIXED,
                LF_FIXED,
                LF_FIXED,
                LF_FIXED,
                LF_MOVEABLE,
                LF_FREE,
                LF_FREE
            ]
        );
        let ef = es[2];
        assert_eq!((ef.h_handle, ef.w_address, ef.w_size), (f, f, 8));
        let eh = es[4];
        let p = m.read_u16_at(ds, h).unwrap();
        assert_eq!((eh.h_handle, eh.w_address, eh.wc_lock), (h, p, 2));
        assert_eq!(
            eh.w_size,
            local::local_size(&mut env, &mut m, &[u32::from(h)]).unwrap() as u16
        );
        let free: u32 = es
            .iter()
            .filter(|e| e.w_flags == LF_FREE)
            .map(|e| u32::from(e.w_size))
            .sum();
        assert_eq!(Some(free as u16), local::heap_free(&env, ds));
        assert_eq!(es.last().unwrap().w_next, 0);
        assert!(es.iter().all(|e| e.h_heap == ds && e.w_heap_type == 0));
        // What a program writes over the chain is what the walk sees: an
        // arena whose next pointer goes backwards ends it.
        m.write_seg(ds, 0x100 + 2, &0x0100u16.to_le_bytes())
            .unwrap();
        assert_eq!(entries(&*m, &heap).len(), 1);
        // No 'LH': no heap.
        m.write_seg(ds, heap.info + 0x28, &[0, 0]).unwrap();
        assert!(find_heap(&env, &*m, ds).is_none());
        assert!(!heap_present(&*m, ds));
    }
}
