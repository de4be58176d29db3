//! USER's display-context entries (DCEs): the blocks of type LT_USER_DCE
//! in USER's data segment that name the window DCs USER hands out.
//!
//! # What Windows 3.1 did
//!
//! USER kept a cache of five common DCs shared by every program; GetDC,
//! GetWindowDC and BeginPaint take one, ReleaseDC and EndPaint give it
//! back (KB Q74291, "Microsoft Windows Caches Five Display Contexts"). A
//! window of a class with CS_OWNDC has a DC of its own for its whole life
//! and the windows of a CS_CLASSDC class share one (SDK, WNDCLASS's
//! "Class styles", GetDC: "... the DC of a window whose class has
//! CS_OWNDC ... is not returned to the cache", ReleaseDC "has no effect"
//! on class and private DCs). USER made each such DC's entry in its heap:
//! the window's when the window is made, freed when it is destroyed; the
//! class's when the class is registered, freed when it is unregistered
//! (the order Wine's 3.1-era CLASS_RegisterClass and WIN_CreateWindowEx
//! kept: a fact source, no code taken). So GetDC on such a window gives
//! the same HDC every time, and a heap walker sees one more LT_USER_DCE
//! block per CS_OWNDC window and per CS_CLASSDC class.
//!
//! # Here
//!
//! The five common entries are made when USER's heaps are (heap.rs,
//! `init`) and marked [`flag::CACHE`]. An own or class entry is a block
//! of the same [`DCE_SIZE`] bytes with the DC's handle, its window (the
//! class DC's: the window that last asked for it, 0 for none), its flags
//! and its class's block (0 for an own DC); the rest of the block, USER's
//! other bookkeeping in Windows, stays zero. The DC itself is GDI's
//! (gdi/dc.rs), freed with its entry.

use super::paint::{DcKind, DcUse, dc_origin, visible_region};
use super::{CS_CLASSDC, CS_OWNDC, DESKTOP};
use crate::machine::Uc;
use crate::win16::Env;
use crate::win16::Win16;
use crate::win16::geom::{Point, Region};
use crate::win16::sysheap::{self, lmem};

/// A DCE block's bytes.
pub const DCE_SIZE: u16 = 0x20;

/// The entry's fields: the offsets in the block.
pub mod off {
    /// The DC's handle (0: a common entry not yet used).
    pub const HDC: usize = 0x00;
    /// The window it draws on.
    pub const HWND: usize = 0x02;
    /// [`super::flag`] bits.
    pub const FLAGS: usize = 0x04;
    /// A class DC's class block (the CLS's near address).
    pub const PCLS: usize = 0x06;
}

/// The kinds of entry ([`off::FLAGS`]).
pub mod flag {
    /// One of the five common DCs.
    pub const CACHE: u16 = 0x0001;
    /// A CS_OWNDC window's DC.
    pub const OWN: u16 = 0x0002;
    /// A CS_CLASSDC class's DC.
    pub const CLASS: u16 = 0x0004;
}

/// A zeroed LT_USER_DCE block in USER's data segment; 0 when the heap
/// cannot take it.
pub fn alloc(w: &mut Win16, uc: &mut Uc<'_>) -> u16 {
    let Some(ds) = super::heap::selector(w, super::heap::DS) else {
        return 0;
    };
    sysheap::alloc(
        w,
        uc,
        ds,
        lmem::FIXED | lmem::ZEROINIT,
        DCE_SIZE,
        super::heap::lt::DCE,
    )
}

/// Write entry `block`'s fields.
pub fn write(w: &Win16, uc: &mut Uc<'_>, block: u16, hdc: u16, hwnd: u16, flags: u16, pcls: u16) {
    let Some(ds) = super::heap::selector(w, super::heap::DS) else {
        return;
    };
    let mut b = [0u8; 8];
    for (o, v) in [
        (off::HDC, hdc),
        (off::HWND, hwnd),
        (off::FLAGS, flags),
        (off::PCLS, pcls),
    ] {
        b[o..o + 2].copy_from_slice(&v.to_le_bytes());
    }
    sysheap::write(w, uc, ds, block, 0, &b);
}

/// A new own (`class` 0) or class DC with its entry, for window `hwnd`
/// (0: none yet); the DC's handle, None when GDI's or USER's heap cannot
/// take them (nothing is left behind).
fn make(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, class: u16) -> Option<u16> {
    let (origin, vis) = if hwnd == 0 {
        (Point::default(), Region::empty())
    } else {
        (
            dc_origin(env, hwnd, DcKind::Client),
            visible_region(env, hwnd, true),
        )
    };
    let block = alloc(&mut env.win16, uc);
    if block == 0 {
        return None;
    }
    let Some(hdc) = crate::win16::gdi::dc::create_window_dc(&mut env.win16, uc, hwnd, origin, vis)
    else {
        super::heap::free_block(&mut env.win16, uc, block);
        return None;
    };
    let flags = if class == 0 { flag::OWN } else { flag::CLASS };
    write(&env.win16, uc, block, hdc, hwnd, flags, class);
    env.win16.user.dcs.push(DcUse {
        hdc,
        hwnd,
        kind: DcKind::Client,
        paint: None,
        own: true,
        dce: block,
        class,
    });
    Some(hdc)
}

/// The DC a window of a CS_OWNDC or CS_CLASSDC class draws its client
/// area with (GetDC, BeginPaint): its own, or its class's, now naming
/// `hwnd`; made when missing (a window made before its class had it).
/// None for a window of another class, or when the heaps are full.
pub fn own_dc(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Option<u16> {
    if hwnd == 0 || hwnd == DESKTOP {
        return None;
    }
    let (style, pcls) = env.win16.user.class_of(hwnd).map(|c| (c.style, c.block))?;
    let class = if style & CS_OWNDC != 0 {
        0
    } else if style & CS_CLASSDC != 0 && pcls != 0 {
        pcls
    } else {
        return None;
    };
    let found = env.win16.user.dcs.iter_mut().find(|d| {
        d.own
            && if class == 0 {
                d.class == 0 && d.hwnd == hwnd
            } else {
                d.class == class
            }
    });
    match found {
        Some(d) => {
            let (hdc, block, old) = (d.hdc, d.dce, d.hwnd);
            d.hwnd = hwnd;
            if old != hwnd {
                write(&env.win16, uc, block, hdc, hwnd, flag::CLASS, class);
                if let Some(dc) = env.win16.gdi.objects.dc_mut(hdc) {
                    dc.hwnd = hwnd;
                }
            }
            Some(hdc)
        }
        None => make(env, uc, hwnd, class),
    }
}

/// Window `hwnd` was just made: a CS_OWNDC class's window gets its DC and
/// entry now (before WM_CREATE, so GetDC there gives it). False when the
/// heaps cannot take them: the window is not made.
pub fn window_created(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> bool {
    let own = env
        .win16
        .user
        .class_of(hwnd)
        .is_some_and(|c| c.style & CS_OWNDC != 0);
    !own || own_dc(env, uc, hwnd).is_some()
}

/// Class `pcls` (its block) was registered: a CS_CLASSDC class gets its
/// DC and entry. False when the heaps cannot take them.
pub fn class_registered(env: &mut Env, uc: &mut Uc<'_>, pcls: u16, style: u16) -> bool {
    style & CS_CLASSDC == 0 || style & CS_OWNDC != 0 || make(env, uc, 0, pcls).is_some()
}

/// The DCE block of class `pcls`'s DC (0 for none).
pub fn of_class(env: &Env, pcls: u16) -> u16 {
    env.win16
        .user
        .dcs
        .iter()
        .find(|d| pcls != 0 && d.class == pcls)
        .map_or(0, |d| d.dce)
}

/// Free a DC USER made and its entry: an own or class DC is deleted with
/// its entry; a common DC goes back to the cache.
fn drop_use(env: &mut Env, uc: &mut Uc<'_>, d: &DcUse) {
    if d.dce != 0 {
        crate::win16::gdi::dc::drop_dc(&mut env.win16, uc, d.hdc);
        super::heap::free_block(&mut env.win16, uc, d.dce);
    } else {
        crate::win16::gdi::dc::release_dc(&mut env.win16, uc, d.hdc);
    }
}

/// Window `hwnd` is gone: its own DC and entry are freed, the common DCs
/// it still held go back to the cache, and its class's DC names no
/// window.
pub fn window_gone(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    let uses = std::mem::take(&mut env.win16.user.dcs);
    let mut kept = Vec::with_capacity(uses.len());
    for mut d in uses {
        if d.hwnd != hwnd || hwnd == 0 {
            kept.push(d);
        } else if d.class != 0 {
            d.hwnd = 0;
            d.paint = None;
            write(&env.win16, uc, d.dce, d.hdc, 0, flag::CLASS, d.class);
            env.win16
                .gdi
                .set_visible_region(d.hdc, Point::default(), Region::empty());
            kept.push(d);
        } else {
            drop_use(env, uc, &d);
        }
    }
    kept.append(&mut env.win16.user.dcs);
    env.win16.user.dcs = kept;
}

/// Class `pcls` (its block) is gone: its DC and entry are freed.
pub fn class_gone(env: &mut Env, uc: &mut Uc<'_>, pcls: u16) {
    if pcls == 0 {
        return;
    }
    let Some(i) = env.win16.user.dcs.iter().position(|d| d.class == pcls) else {
        return;
    };
    let d = env.win16.user.dcs.remove(i);
    drop_use(env, uc, &d);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert_eq!(off::HDC, 0);
        assert_eq!(off::PCLS + 2, 8);
        assert!(usize::from(DCE_SIZE) >= off::PCLS + 2);
        assert_eq!(flag::CACHE | flag::OWN | flag::CLASS, 7);
    }
}
