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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::gdi::dc::Fill;
    use crate::win16::geom::Region;

    fn screen_dc(env: &mut Env, origin: Point) -> u16 {
        let mut m = crate::machine::Machine::new_protected().unwrap();
        let r = env.win16.gdi.screen_rect();
        crate::win16::gdi::dc::create_window_dc(&mut env.win16, &mut m, 1, origin, Region::rect(r))
            .unwrap()
    }

    #[test]
    fn bounds_are_off_until_enabled_and_gather_what_was_drawn() {
        let mut env = Env::new(false);
        let hdc = screen_dc(&mut env, Point::new(100, 50));
        let gdi = &mut env.win16.gdi;
        // Off and empty when the DC is made (SDK: "disabled by default").
        assert_eq!(
            get_bounds(gdi.dc_mut(hdc).unwrap(), 0),
            (DCB_DISABLE | DCB_RESET, Rect::default())
        );
        // Drawing while off adds nothing.
        gdi.fill_rect(hdc, Rect::new(0, 0, 10, 10), Fill::Color(0));
        assert_eq!(get_bounds(gdi.dc_mut(hdc).unwrap(), 0).1, Rect::default());
        // Enabled: the previous state comes back.
        let st = set_bounds(gdi.dc_mut(hdc).unwrap(), None, DCB_ENABLE);
        assert_eq!(st, DCB_DISABLE | DCB_RESET);
        gdi.fill_rect(hdc, Rect::new(5, 6, 20, 30), Fill::Color(0));
        gdi.fill_rect(hdc, Rect::new(40, 2, 41, 3), Fill::Color(0));
        // The union of the two fills, in the DC's coordinates (not the
        // screen's: the origin is taken off), right and bottom excluded as
        // FillRect excludes them.
        let (st, r) = get_bounds(gdi.dc_mut(hdc).unwrap(), DCB_RESET);
        assert_eq!(st, DCB_ENABLE | DCB_SET);
        assert_eq!(r, Rect::new(5, 2, 41, 30));
        // DCB_RESET in GetBoundsRect emptied them.
        assert_eq!(
            get_bounds(gdi.dc_mut(hdc).unwrap(), 0),
            (DCB_ENABLE | DCB_RESET, Rect::default())
        );
        // DCB_SET: the bounds become the rectangle; DCB_ACCUMULATE adds.
        let d = gdi.dc_mut(hdc).unwrap();
        set_bounds(d, Some(Rect::new(1, 1, 2, 2)), DCB_SET);
        set_bounds(d, Some(Rect::new(10, 0, 12, 4)), DCB_ACCUMULATE);
        assert_eq!(get_bounds(d, 0).1, Rect::new(1, 0, 12, 4));
        // Disabled: drawing no longer adds, the bounds stay.
        set_bounds(d, None, DCB_DISABLE);
        gdi.fill_rect(hdc, Rect::new(0, 0, 100, 100), Fill::Color(0));
        let (st, r) = get_bounds(gdi.dc_mut(hdc).unwrap(), 0);
        assert_eq!((st, r), (DCB_DISABLE | DCB_SET, Rect::new(1, 0, 12, 4)));
    }

    #[test]
    fn clipped_drawing_adds_only_what_it_changed() {
        let mut env = Env::new(false);
        let hdc = screen_dc(&mut env, Point::new(0, 0));
        let gdi = &mut env.win16.gdi;
        gdi.dc_mut(hdc).unwrap().vis = Region::rect(Rect::new(0, 0, 8, 8));
        set_bounds(gdi.dc_mut(hdc).unwrap(), None, DCB_ENABLE);
        gdi.fill_rect(hdc, Rect::new(4, 4, 50, 50), Fill::Color(0));
        assert_eq!(
            get_bounds(gdi.dc_mut(hdc).unwrap(), 0).1,
            Rect::new(4, 4, 8, 8)
        );
    }
}
