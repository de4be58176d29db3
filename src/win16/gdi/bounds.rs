//! Bounds accumulation: SetBoundsRect and GetBoundsRect (Windows 3.1 SDK).
//!
//! A DC can keep the bounding rectangle of everything drawn on it: off
//! when the DC is made; DCB_ENABLE turns it on, DCB_DISABLE off. Every
//! drawing function that changes pixels adds the rectangle it changed
//! (after clipping) to the bounds (dc.rs, `Canvas::touch`); DCB_ACCUMULATE
//! adds the caller's rectangle (logical coordinates), DCB_RESET empties
//! the bounds first (DCB_SET = both: the bounds become the rectangle).
//! Both functions return the state *before* the call: DCB_ENABLE or
//! DCB_DISABLE, with DCB_SET when the bounds were not empty and DCB_RESET
//! when they were; 0 for a bad DC. GetBoundsRect writes the bounds in
//! logical coordinates (an empty rectangle when there are none) and, with
//! DCB_RESET, empties them after.
//!
//! The bounds are kept in device coordinates, so that a mapping-mode
//! change between drawing and asking converts them as Windows did.

use super::dc::Dc;
use super::{Env, Stop, Uc, arg_h, read_rect, write_rect};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect};

pub const DCB_RESET: u16 = 0x0001;
pub const DCB_ACCUMULATE: u16 = 0x0002;
pub const DCB_SET: u16 = DCB_RESET | DCB_ACCUMULATE;
pub const DCB_ENABLE: u16 = 0x0004;
pub const DCB_DISABLE: u16 = 0x0008;

/// Add `r` (device coordinates) to DC `d`'s bounds, when it keeps them.
pub fn accumulate(d: &mut Dc, r: Rect) {
    if !d.bounds_on || r.is_empty() {
        return;
    }
    d.bounds = Some(match d.bounds {
        Some(b) => b.union(&r).unwrap_or(r),
        None => r,
    });
}

/// The state word both functions return (module doc).
fn state(d: &Dc) -> u16 {
    let on = if d.bounds_on { DCB_ENABLE } else { DCB_DISABLE };
    let set = if d.bounds.is_some_and(|b| !b.is_empty()) {
        DCB_SET
    } else {
        DCB_RESET
    };
    on | set
}

/// A logical rectangle of `d` in device coordinates (normalised).
fn to_device(d: &Dc, r: Rect) -> Rect {
    let a = d.state.map.lp_to_dp(Point::new(r.left, r.top));
    let b = d.state.map.lp_to_dp(Point::new(r.right, r.bottom));
    Rect::new(a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y))
}

/// SetBoundsRect on DC `d` (module doc).
pub fn set_bounds(d: &mut Dc, r: Option<Rect>, flags: u16) -> u16 {
    let before = state(d);
    if flags & DCB_RESET != 0 {
        d.bounds = None;
    }
    if flags & DCB_ACCUMULATE != 0
        && let Some(r) = r
    {
        let dr = to_device(d, r);
        if !dr.is_empty() {
            d.bounds = Some(match d.bounds {
                Some(b) => b.union(&dr).unwrap_or(dr),
                None => dr,
            });
        }
    }
    if flags & DCB_ENABLE != 0 {
        d.bounds_on = true;
    }
    if flags & DCB_DISABLE != 0 {
        d.bounds_on = false;
    }
    before
}

/// GetBoundsRect on DC `d`: the state and the bounds in logical
/// coordinates (module doc).
pub fn get_bounds(d: &mut Dc, flags: u16) -> (u16, Rect) {
    let before = state(d);
    let r = match d.bounds {
        Some(b) => {
            let a = d.state.map.dp_to_lp(Point::new(b.left, b.top));
            let c = d.state.map.dp_to_lp(Point::new(b.right, b.bottom));
            Rect::new(a.x.min(c.x), a.y.min(c.y), a.x.max(c.x), a.y.max(c.y))
        }
        None => Rect::default(),
    };
    if flags & DCB_RESET != 0 {
        d.bounds = None;
    }
    (before, r)
}

/// GDI.193 SetBoundsRect(hDC, lprcBounds, flags) -> UINT.
fn set_bounds_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = if a[1] == 0 { None } else { read_rect(uc, a[1]) };
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    Ok(u32::from(set_bounds(d, r, a[2] as u16)))
}

/// GDI.194 GetBoundsRect(hDC, lprcBounds, flags) -> UINT.
fn get_bounds_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let (st, r) = get_bounds(d, a[2] as u16);
    if a[1] != 0 && !write_rect(uc, a[1], r) {
        return Ok(0);
    }
    Ok(u32::from(st))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        193,
        "SETBOUNDSRECT",
        &[Arg::W, Arg::L, Arg::W],
        set_bounds_rect,
    ),
    Api::new(
        "GDI",
        194,
        "GETBOUNDSRECT",
        &[Arg::W, Arg::L, Arg::W],
        get_bounds_rect,
    ),
];
