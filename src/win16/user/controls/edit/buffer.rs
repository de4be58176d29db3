//! An edit control's text: one moveable block in a local heap (module doc
//! of edit/mod.rs, "The text lives in a local heap"), read and written
//! whole.

use super::{DEFAULT_LIMIT, Env, LMEM_MOVEABLE, LMEM_ZEROINIT, Stop, Uc, event, state, wm};
use crate::machine::Cpu;

/// The size of the segment an edit control makes when its instance has
/// no room (module doc).
pub(super) const PRIVATE_HEAP: u32 = 0x1_0000;

/// A segment of `size` bytes with a local heap over it (after 16 bytes of
/// instance data, as a DGROUP has): its selector, or None.
pub fn private_heap(env: &mut Env, uc: &mut Uc<'_>, size: u32) -> Option<u16> {
    let h = crate::win16::global::alloc(env, uc, 0, size);
    if h == 0 {
        return None;
    }
    let sel = crate::win16::selector_of_handle(h);
    let end = uc.descriptor_of(sel).map(|d| d.limit + 1)?;
    crate::win16::local::init_heap(env, uc, sel, 16, end).then_some(sel)
}

/// Allocate the control's text block: in its instance's heap, else in a
/// segment of its own.
pub(super) fn make_buffer(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let ds = super::super::super::instance_ds(wm::hinstance(env, hwnd));
    let alloc = |env: &mut Env, uc: &mut Uc<'_>, ds: u16| {
        env.win16
            .local_heaps
            .heaps
            .get_mut(&ds)
            .map_or(0, |h| h.alloc(uc, ds, LMEM_MOVEABLE | LMEM_ZEROINIT, 32))
    };
    let mut h = alloc(env, uc, ds);
    let (mut at, mut own) = (ds, false);
    if h == 0 {
        if let Some(sel) = private_heap(env, uc, PRIVATE_HEAP) {
            h = alloc(env, uc, sel);
            (at, own) = (sel, true);
        }
        event(
            uc,
            format!(
                "edit {hwnd:04X}: segment {ds:04X} has no local heap with room; the text is kept in segment {at:04X}"
            ),
        );
    }
    let e = state(env, hwnd);
    e.ds = at;
    e.hbuf = h;
    e.own_segment = own;
    e.limit = DEFAULT_LIMIT;
    e.password = b'*';
    Ok(())
}

/// The text, read from its block.
pub fn text(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Vec<u8> {
    let (ds, h) = {
        let e = state(env, hwnd);
        (e.ds, e.hbuf)
    };
    let Some(heap) = env.win16.local_heaps.heaps.get_mut(&ds) else {
        return Vec::new();
    };
    let addr = heap.lock(uc, ds, h);
    let size = heap.size(h);
    heap.unlock(uc, ds, h);
    if addr == 0 || size == 0 {
        return Vec::new();
    }
    let mut b = vec![0u8; usize::from(size)];
    if uc.read_seg(ds, addr, &mut b).is_err() {
        return Vec::new();
    }
    let n = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    b.truncate(n);
    b
}

/// Write the text into its block, growing it (in 32-byte steps) when
/// needed: false when the heap has no room.
pub(super) fn store(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, t: &[u8]) -> bool {
    let (ds, h) = {
        let e = state(env, hwnd);
        (e.ds, e.hbuf)
    };
    let Some(heap) = env.win16.local_heaps.heaps.get_mut(&ds) else {
        return false;
    };
    let need = t.len() + 1;
    if need > 0xFFF0 {
        return false;
    }
    if usize::from(heap.size(h)) < need {
        let size = (need as u16).div_ceil(32) * 32;
        if heap.realloc(uc, ds, h, size, LMEM_MOVEABLE) == 0 {
            return false;
        }
    }
    let addr = heap.lock(uc, ds, h);
    let mut b = t.to_vec();
    b.push(0);
    let ok = addr != 0 && uc.write_seg(ds, addr, &b).is_ok();
    heap.unlock(uc, ds, h);
    ok
}
