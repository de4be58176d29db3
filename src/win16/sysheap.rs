//! The data segments of USER and GDI and the local heaps in them, where
//! Windows 3.1 kept those modules' objects (windows, classes, menus, DCs,
//! pens, brushes, fonts, regions, ...), and the free-resources figure
//! they give.
//!
//! # What Windows 3.1 did
//!
//! USER.EXE and GDI.EXE each had one data segment, at most 64 KiB, with
//! their static data, their stack and a local heap holding their objects
//! (KB Q90762, "System Resources in Windows 3.0 and 3.1"). Windows 3.1
//! moved USER's menus and its menu and window-text strings into two more
//! heaps of their own, each also limited to 64 KiB (the same article). An
//! object's handle was its block's local handle in that heap: a
//! moveable block's handle-table entry for GDI's objects, a fixed block's
//! address for USER's windows (Pietrek, "Windows Internals").
//!
//! KB Q61803 ("Calculating Free System Resources in Microsoft Windows")
//! gives the percentage free of such a segment:
//!
//! ```text
//!             (64K - current DS size) + free blocks in heap
//! % free DS = ------------------------------------------- * 100
//!                   64K - (size of statics and stack)
//! ```
//!
//! and the free system resources are the smallest such figure.
//!
//! # Here
//!
//! [`ensure`] makes a module's heap segment once: a global block of
//! GT_DGROUP owned by the module, its instance data (DS:00–0F) and a
//! local heap laid out by `win16::local` after the statics, so TOOLHELP's
//! LocalInfo/LocalFirst/LocalNext (toolhelp_heap.rs) walk it as any other
//! heap. [`alloc`] and [`free`] take blocks for objects and remember each
//! block's LT_ type (TOOLHELP.H's LT_USER_* and LT_GDI_*), which the
//! walk reports as LOCALENTRY.wType; the object's bytes in its block are
//! written by the module that owns it. The heap grows its segment up to
//! 64 KiB as any local heap does; past that, allocation fails and the
//! object's creation with it.

use std::collections::HashMap;

use super::Win16;
use super::local::LocalHeap;
use crate::machine::{Cpu, SegKind, Uc};

/// The local heap's flags for an object's block (LocalAlloc's LMEM_*).
pub mod lmem {
    pub const FIXED: u16 = 0x0000;
    pub const MOVEABLE: u16 = 0x0002;
    pub const ZEROINIT: u16 = 0x0040;
}

/// One system module's heap segment.
#[derive(Debug, Clone)]
pub struct SysHeap {
    /// The module's name ("USER", "GDI", ...).
    pub module: String,
    /// What the heap is for within the module (0 for the module's data
    /// segment; USER's menu and string heaps have their own numbers).
    pub which: u16,
    /// The segment's selector.
    pub selector: u16,
    /// The bytes before the heap (statics and stack): Q61803's
    /// denominator is 64 KiB less these.
    pub statics: u32,
    /// Each busy block's LT_ type, by its local handle.
    pub kinds: HashMap<u16, u16>,
}

/// Every system module's heap segment.
#[derive(Clone, Debug, Default)]
pub struct SysHeaps {
    pub heaps: Vec<SysHeap>,
}

impl SysHeaps {
    /// The heap `which` of `module`.
    pub fn get(&self, module: &str, which: u16) -> Option<&SysHeap> {
        self.heaps
            .iter()
            .find(|h| h.which == which && h.module.eq_ignore_ascii_case(module))
    }

    /// The heap whose segment is `selector`.
    pub fn by_selector(&self, selector: u16) -> Option<&SysHeap> {
        self.heaps.iter().find(|h| h.selector == selector)
    }

    /// The LT_ type of the block with local handle `h` in segment
    /// `selector`'s heap, when it is a system heap's and the block is busy.
    pub fn kind(&self, selector: u16, h: u16) -> Option<u16> {
        self.by_selector(selector)?.kinds.get(&h).copied()
    }
}

/// The instance data's size at the start of a segment with a local heap
/// (DS:00–0F; pLocalHeap at DS:06).
const INSTANCE_DATA: u32 = 0x10;

/// The segment of heap `which` of built-in module `module`, made the
/// first time: `statics` bytes of static data and stack (at least the
/// instance data), then a heap of `initial` bytes; the segment grows as
/// the heap needs. None when the machine cannot make the segment.
pub fn ensure(
    m: &mut Uc<'_>,
    w: &mut Win16,
    module: &str,
    which: u16,
    statics: u32,
    initial: u32,
) -> Option<u16> {
    if let Some(h) = w.sys_heaps.get(module, which) {
        return Some(h.selector);
    }
    let idx = super::kernel::builtin::ensure_builtin(m, w, module).ok()?;
    // Making the module may have made its heap (GDI's does, gdi/heap.rs).
    if let Some(h) = w.sys_heaps.get(module, which) {
        return Some(h.selector);
    }
    let hmodule = w.modules[idx].hmodule;
    let statics = statics.max(INSTANCE_DATA);
    let size =
        (statics + initial).div_ceil(super::global::GRANULARITY) * super::global::GRANULARITY;
    let size = size.min(0x1_0000);
    let sel = crate::machine::alloc_seg(m, SegKind::Data, size, &[]).ok()?;
    let mut heap = LocalHeap::new(statics, size)?;
    heap.growable = true;
    heap.render(m, sel);
    w.local_heaps.heaps.insert(sel, heap);
    // The module's data segments are numbered after its code segment.
    let segment = 2 + which;
    if let Some(b) = super::global::block_for(
        &*m,
        sel,
        true,
        hmodule,
        false,
        super::global::gt::DGROUP,
        Some(segment),
    ) {
        w.global.insert(b);
    }
    w.sys_heaps.heaps.push(SysHeap {
        module: module.to_ascii_uppercase(),
        which,
        selector: sel,
        statics,
        kinds: HashMap::new(),
    });
    Some(sel)
}

/// A block of `size` bytes of LT_ type `kind` in the heap of segment
/// `sel` (LocalAlloc with `flags`); its local handle, or 0 when the heap
/// is full even at 64 KiB (or `sel` is no system heap).
pub fn alloc(w: &mut Win16, uc: &mut Uc<'_>, sel: u16, flags: u16, size: u16, kind: u16) -> u16 {
    if w.sys_heaps.by_selector(sel).is_none() {
        return 0;
    }
    let Some(heap) = w.local_heaps.heaps.get_mut(&sel) else {
        return 0;
    };
    let h = heap.alloc(uc, sel, flags, size);
    // The segment may have grown or moved.
    w.global.refresh(uc, sel);
    if h != 0
        && let Some(s) = w.sys_heaps.heaps.iter_mut().find(|s| s.selector == sel)
    {
        s.kinds.insert(h, kind);
    }
    h
}

/// Free the block with local handle `h` in segment `sel`'s heap; false
/// when it is no block there.
pub fn free(w: &mut Win16, uc: &mut Uc<'_>, sel: u16, h: u16) -> bool {
    let Some(heap) = w.local_heaps.heaps.get_mut(&sel) else {
        return false;
    };
    let ok = heap.free(uc, sel, h) == 0;
    if ok && let Some(s) = w.sys_heaps.heaps.iter_mut().find(|s| s.selector == sel) {
        s.kinds.remove(&h);
    }
    ok
}

/// Resize the block `h` to `size` bytes (LocalReAlloc, moving it if it
/// must); its handle afterwards (the same for a moveable block), or 0
/// when it cannot grow.
pub fn realloc(w: &mut Win16, uc: &mut Uc<'_>, sel: u16, h: u16, size: u16) -> u16 {
    let Some(heap) = w.local_heaps.heaps.get_mut(&sel) else {
        return 0;
    };
    let new = heap.realloc(uc, sel, h, size, lmem::MOVEABLE);
    w.global.refresh(uc, sel);
    if new != 0
        && new != h
        && let Some(s) = w.sys_heaps.heaps.iter_mut().find(|s| s.selector == sel)
        && let Some(k) = s.kinds.remove(&h)
    {
        s.kinds.insert(new, k);
    }
    new
}

/// The offset of block `h`'s data in its segment (what LocalLock would
/// return, without locking); None when `h` names no block with data.
pub fn address(w: &Win16, sel: u16, h: u16) -> Option<u16> {
    let heap = w.local_heaps.heaps.get(&sel)?;
    match heap.entry(h) {
        Some(e) if e.addr != 0 => Some(e.addr),
        Some(_) => None,
        None if heap.size(h) != 0 => Some(h),
        None => None,
    }
}

/// Write `bytes` at `offset` into block `h` (no further than the block's
/// size); false when `h` names no block.
pub fn write(w: &Win16, uc: &mut Uc<'_>, sel: u16, h: u16, offset: u16, bytes: &[u8]) -> bool {
    let Some(heap) = w.local_heaps.heaps.get(&sel) else {
        return false;
    };
    let Some(a) = address(w, sel, h) else {
        return false;
    };
    let room = usize::from(heap.size(h).saturating_sub(offset));
    let n = bytes.len().min(room);
    uc.write_seg(sel, a.wrapping_add(offset), &bytes[..n])
        .is_ok()
}

/// LocalCompact(`min_free`) in segment `sel`'s heap: the largest free
/// block afterwards (0 for no heap).
pub fn compact(w: &mut Win16, uc: &mut Uc<'_>, sel: u16, min_free: u16) -> u16 {
    let Some(heap) = w.local_heaps.heaps.get_mut(&sel) else {
        return 0;
    };
    let r = heap.compact_for(uc, sel, min_free);
    w.global.refresh(uc, sel);
    r
}

/// Q61803's percentage free of the system heap in segment `sel`: what
/// the heap has free plus what the segment may still grow, over 64 KiB
/// less the statics; 0 for no system heap.
pub fn free_percent(w: &Win16, uc: &Uc<'_>, sel: u16) -> u16 {
    let (Some(s), Some(heap)) = (w.sys_heaps.by_selector(sel), w.local_heaps.heaps.get(&sel))
    else {
        return 0;
    };
    let seg = uc.descriptor_of(sel).map_or(0x1_0000, |d| d.limit + 1);
    let free = u64::from(0x1_0000u32.saturating_sub(seg)) + u64::from(heap.total_free());
    let max = u64::from(0x1_0000u32.saturating_sub(s.statics)).max(1);
    (free * 100 / max).min(100) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_found_by_selector_and_handle() {
        let mut hs = SysHeaps::default();
        let mut kinds = HashMap::new();
        kinds.insert(0x2E, 7);
        hs.heaps.push(SysHeap {
            module: "GDI".into(),
            which: 0,
            selector: 0x1237,
            statics: 0x800,
            kinds,
        });
        assert_eq!(hs.kind(0x1237, 0x2E), Some(7));
        assert_eq!(hs.kind(0x1237, 0x32), None);
        assert_eq!(hs.kind(0x1247, 0x2E), None);
        assert!(hs.get("gdi", 0).is_some());
        assert!(hs.get("GDI", 1).is_none());
    }
}
