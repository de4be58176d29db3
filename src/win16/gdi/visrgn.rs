//! The visible-region family: what Windows 3.1's USER calls to keep a
//! DC's visible region (exported by GDI, undocumented in the SDK; their
//! behaviour as Wine's GDI.EXE documents it).
//!
//! A DC's visible region is in surface (screen) coordinates, as Windows
//! kept it; the clip region a program selects is intersected with it when
//! drawing.
//!
//! - SelectVisRgn(hdc, hrgn): the visible region becomes a copy of `hrgn`
//!   (surface coordinates);
//! - ExcludeVisRect / IntersectVisRect(hdc, l, t, r, b): the rectangle, in
//!   logical coordinates (LPtoDP, then the DC's origin), is taken out of
//!   it / kept of it;
//! - OffsetVisRgn(hdc, x, y): moved by (x, y) surface pixels;
//! - SaveVisRgn(hdc): a copy pushed on the DC's stack, returned as a
//!   region handle GDI owns; RestoreVisRgn(hdc) pops it back and frees
//!   it (ERROR when the stack is empty). The saved regions belong to the
//!   DC: DeleteObject refuses them, and deleting the DC (DeleteDC,
//!   ReleaseDC, EndPaint) frees those never restored.
//!
//! Each returns the region type of the result (NULLREGION, SIMPLEREGION,
//! COMPLEXREGION) or ERROR (0) for a bad DC or region.
//!
//! Two more give out the DC's own region handles (Windows 3.1's DC
//! hVisRgn and hClipRgn fields, as Wine's GDI.EXE returns them):
//!
//! - InquireVisRgn(hdc): the handle of the visible region;
//! - GetClipRgn(hdc): the handle of the clip region the program selected
//!   (device coordinates), 0 while it has none. (Undocumented in 3.1;
//!   not Win32's two-argument GetClipRgn, which copies.)
//!
//! Such a handle names the region the DC draws with, not a copy: region
//! calls on it read the DC's region as it is at that moment and changing
//! it changes what the DC may draw on. The same handle comes back at
//! each asking; the DC frees it when it is deleted, and DeleteObject
//! refuses it meanwhile.

use super::objects::{DcPart, DcRegion, Obj};
use super::{Env, Stop, Uc, arg_h, arg_i};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region};

/// The deepest SaveVisRgn stack.
const MAX_SAVED: usize = 64;

/// The region type Windows returns for `r`.
fn kind(r: &Region) -> u32 {
    r.kind() as u32
}

/// A logical rectangle of DC `hdc` in surface coordinates.
fn surface_rect(env: &mut Env, hdc: u16, a: &[u32]) -> Option<Rect> {
    let d = env.win16.gdi.dc(hdc)?;
    let p = |x: u32, y: u32| {
        let v = d.state.map.lp_to_dp(Point::new(arg_i(x), arg_i(y)));
        Point::new(v.x + d.origin.x, v.y + d.origin.y)
    };
    let (a0, b0) = (p(a[1], a[2]), p(a[3], a[4]));
    Some(Rect::new(
        a0.x.min(b0.x),
        a0.y.min(b0.y),
        a0.x.max(b0.x),
        a0.y.max(b0.y),
    ))
}

/// Change DC `hdc`'s visible region with `f`: the result's type.
fn change(env: &mut Env, hdc: u16, f: impl FnOnce(&Region) -> Region) -> u32 {
    match env.win16.gdi.dc_mut(hdc) {
        Some(d) => {
            d.vis = f(&d.vis);
            kind(&d.vis)
        }
        None => 0,
    }
}

/// GDI.73 ExcludeVisRect(hDC, left, top, right, bottom) -> int.
fn exclude_vis_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let Some(r) = surface_rect(env, hdc, a) else {
        return Ok(0);
    };
    Ok(change(env, hdc, |v| v.subtract(&Region::rect(r))))
}

/// GDI.98 IntersectVisRect(hDC, left, top, right, bottom) -> int.
fn intersect_vis_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let Some(r) = surface_rect(env, hdc, a) else {
        return Ok(0);
    };
    Ok(change(env, hdc, |v| v.intersect(&Region::rect(r))))
}

/// GDI.102 OffsetVisRgn(hDC, x, y) -> int.
fn offset_vis_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (dx, dy) = (arg_i(a[1]), arg_i(a[2]));
    Ok(change(env, arg_h(a[0]), |v| v.offset(dx, dy)))
}

/// GDI.105 SelectVisRgn(hDC, hRgn) -> int.
fn select_vis_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = env.win16.gdi.objects.region(arg_h(a[1])).cloned() else {
        return Ok(0);
    };
    Ok(change(env, arg_h(a[0]), |_| r))
}

/// GDI.129 SaveVisRgn(hDC) -> HRGN.
fn save_vis_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let Some(d) = env.win16.gdi.dc(hdc) else {
        return Ok(0);
    };
    if d.vis_saved.len() >= MAX_SAVED {
        return Ok(0);
    }
    let copy = d.vis.clone();
    let Some(h) = super::objects::create(&mut env.win16, uc, Obj::Region(copy)) else {
        return Ok(0);
    };
    if let Some(d) = env.win16.gdi.dc_mut(hdc) {
        d.vis_saved.push(h);
    }
    Ok(u32::from(h))
}

/// GDI.130 RestoreVisRgn(hDC) -> int.
fn restore_vis_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let Some(h) = env.win16.gdi.dc_mut(hdc).and_then(|d| d.vis_saved.pop()) else {
        return Ok(0);
    };
    let Some(Obj::Region(r)) = super::objects::destroy(&mut env.win16, uc, h) else {
        return Ok(0);
    };
    Ok(change(env, hdc, |_| r))
}

/// The handle of DC `hdc`'s region `part`, made at the first asking; its
/// block in GDI's heap holds the region as it is at each asking.
fn own_region(env: &mut Env, uc: &mut Uc<'_>, hdc: u16, part: DcPart) -> u32 {
    let Some(d) = env.win16.gdi.dc(hdc) else {
        return 0;
    };
    let slot = match part {
        DcPart::Vis => d.vis_rgn,
        DcPart::Clip => d.clip_rgn,
    };
    if let Some(h) = slot {
        super::heap::sync(&mut env.win16, uc, h);
        return u32::from(h);
    }
    let o = Obj::DcRegion(DcRegion { hdc, part });
    let Some(h) = super::objects::create(&mut env.win16, uc, o) else {
        return 0;
    };
    if let Some(d) = env.win16.gdi.dc_mut(hdc) {
        match part {
            DcPart::Vis => d.vis_rgn = Some(h),
            DcPart::Clip => d.clip_rgn = Some(h),
        }
    }
    u32::from(h)
}

/// GDI.131 InquireVisRgn(hDC) -> HRGN: the DC's visible region.
fn inquire_vis_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(own_region(env, uc, arg_h(a[0]), DcPart::Vis))
}

/// GDI.173 GetClipRgn(hDC) -> HRGN: the DC's clip region, 0 if none.
fn get_clip_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    match env.win16.gdi.dc(hdc) {
        Some(d) if d.state.clip.is_some() => Ok(own_region(env, uc, hdc, DcPart::Clip)),
        _ => Ok(0),
    }
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        73,
        "EXCLUDEVISRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        exclude_vis_rect,
    ),
    Api::new(
        "GDI",
        98,
        "INTERSECTVISRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        intersect_vis_rect,
    ),
    Api::new(
        "GDI",
        102,
        "OFFSETVISRGN",
        &[Arg::W, Arg::W, Arg::W],
        offset_vis_rgn,
    ),
    Api::new(
        "GDI",
        105,
        "SELECTVISRGN",
        &[Arg::W, Arg::W],
        select_vis_rgn,
    ),
    Api::new("GDI", 129, "SAVEVISRGN", &[Arg::W], save_vis_rgn),
    Api::new("GDI", 130, "RESTOREVISRGN", &[Arg::W], restore_vis_rgn),
    Api::new("GDI", 131, "INQUIREVISRGN", &[Arg::W], inquire_vis_rgn),
    Api::new("GDI", 173, "GETCLIPRGN", &[Arg::W], get_clip_rgn),
];
