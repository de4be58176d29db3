//! Region objects and clipping.
//!
//! Regions (geom/region.rs holds the pixel sets) are made from rectangles,
//! rounded rectangles, ellipses and polygons with the same pixel rules as
//! the shapes that draw them (shapes.rs: an elliptic region holds the
//! pixels Ellipse paints with a one-pixel pen, border included; a polygon
//! region the pixels inside by the fill mode), combined (CombineRgn:
//! RGN_AND 1, RGN_OR 2, RGN_XOR 3, RGN_DIFF 4, RGN_COPY 5) and queried.
//! Calls that describe a region return its type: ERROR 0, NULLREGION 1,
//! SIMPLEREGION 2 (one rectangle), COMPLEXREGION 3.
//!
//! A DC's clip region is in device coordinates: SelectClipRgn copies a
//! region into it (NULL removes it), IntersectClipRect and ExcludeClipRect
//! narrow it with a rectangle in logical coordinates (without a clip region
//! they start from the DC's whole visible area), OffsetClipRgn moves it.
//! They return the type of what drawing may then touch (the visible region
//! ∩ the clip region). PtVisible, RectVisible and GetClipBox (logical
//! coordinates) ask about that same area.

use super::shapes::{
    MAX_REGION_SPANS, ellipse_shape, polygon_shape_capped, region_view, roundrect_shape,
};
use super::{Env, Gdi, Stop, Uc, arg_h, arg_i, read_points, read_rect, write_rect};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region, RegionKind, region::Op};

/// A region's type number.
pub fn kind(r: &Region) -> u16 {
    r.kind() as u16
}

/// The largest region coordinates accepted (rasterizing further out would
/// cost without limit).
const LIMIT: i32 = 0x8000;

fn bound() -> Rect {
    Rect::new(-LIMIT, -LIMIT, LIMIT, LIMIT)
}

/// A region object in GDI's heap: its handle, 0 when the heap cannot
/// take it (a complex region's scans take room there, heap.rs).
fn new_region(env: &mut Env, uc: &mut Uc<'_>, r: Region) -> u32 {
    super::objects::create(&mut env.win16, uc, super::objects::Obj::Region(r)).map_or(0, u32::from)
}

/// Region `h` becomes `r`, its block in GDI's heap rewritten (resized);
/// false, the region unchanged, when the heap cannot hold the new one.
fn replace(env: &mut Env, uc: &mut Uc<'_>, h: u16, r: Region) -> bool {
    let Some(cur) = env.win16.gdi.objects.region_mut(h) else {
        return false;
    };
    let old = std::mem::replace(cur, r);
    if super::heap::sync(&mut env.win16, uc, h) {
        return true;
    }
    if let Some(cur) = env.win16.gdi.objects.region_mut(h) {
        *cur = old;
    }
    false
}

fn rect_args(a: &[u32], k: usize) -> Rect {
    Rect::new(
        arg_i(a[k]),
        arg_i(a[k + 1]),
        arg_i(a[k + 2]),
        arg_i(a[k + 3]),
    )
    .normalized()
}

/// GDI.64 CreateRectRgn(left, top, right, bottom).
fn create_rect_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(new_region(env, uc, Region::rect(rect_args(a, 0))))
}

/// GDI.65 CreateRectRgnIndirect(lpRect).
fn create_rect_rgn_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[0]) else {
        return Ok(0);
    };
    Ok(new_region(env, uc, Region::rect(r.normalized())))
}

/// GDI.54 CreateEllipticRgn(left, top, right, bottom).
fn create_elliptic_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(new_region(
        env,
        uc,
        ellipse_shape(rect_args(a, 0), region_view()),
    ))
}

/// GDI.55 CreateEllipticRgnIndirect(lpRect).
fn create_elliptic_rgn_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[0]) else {
        return Ok(0);
    };
    Ok(new_region(
        env,
        uc,
        ellipse_shape(r.normalized(), region_view()),
    ))
}

/// GDI.444 CreateRoundRectRgn(left, top, right, bottom, nWidth, nHeight).
fn create_round_rect_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = roundrect_shape(
        rect_args(a, 0),
        arg_i(a[4]).abs(),
        arg_i(a[5]).abs(),
        region_view(),
    );
    Ok(new_region(env, uc, r))
}

/// GDI.63 CreatePolygonRgn(lpPoints, nCount, fnPolyFillMode).
fn create_polygon_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = arg_i(a[1]);
    if n < 2 {
        return Ok(0);
    }
    let Some(pts) = read_points(uc, a[0], n as usize) else {
        return Ok(0);
    };
    let winding = a[2] as u16 == super::dc::WINDING;
    Ok(
        match polygon_shape_capped(&[pts], winding, bound(), MAX_REGION_SPANS) {
            Some(r) => new_region(env, uc, r),
            None => 0,
        },
    )
}

/// GDI.451 CreatePolyPolygonRgn(lpPoints, lpPolyCounts, nCount,
/// fnPolyFillMode).
fn create_poly_polygon_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(polys) = super::shapes::read_polys(uc, a[0], a[1], arg_i(a[2])) else {
        return Ok(0);
    };
    let winding = a[3] as u16 == super::dc::WINDING;
    Ok(
        match polygon_shape_capped(&polys, winding, bound(), MAX_REGION_SPANS) {
            Some(r) => new_region(env, uc, r),
            None => 0,
        },
    )
}

/// GDI.47 CombineRgn(hrgnDest, hrgnSrc1, hrgnSrc2, fnCombineMode) -> the
/// result's type (ERROR when a region is missing or the mode unknown).
fn combine_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = &mut env.win16.gdi.objects;
    let (d, s1, s2) = (arg_h(a[0]), arg_h(a[1]), arg_h(a[2]));
    if t.region(d).is_none() {
        return Ok(0);
    }
    let Some(r1) = t.region(s1).cloned() else {
        return Ok(0);
    };
    let out = match a[3] as u16 {
        5 => r1,
        m @ 1..=4 => {
            let Some(r2) = t.region(s2) else {
                return Ok(0);
            };
            let op = [Op::And, Op::Or, Op::Xor, Op::Diff][usize::from(m - 1)];
            r1.combine(r2, op)
        }
        _ => return Ok(0),
    };
    let k = kind(&out);
    // ERROR when GDI's heap cannot hold the result.
    Ok(if replace(env, uc, d, out) {
        u32::from(k)
    } else {
        0
    })
}

/// GDI.72 EqualRgn(hrgn1, hrgn2) -> BOOL (the same pixels).
fn equal_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = &env.win16.gdi.objects;
    Ok(match (t.region(arg_h(a[0])), t.region(arg_h(a[1]))) {
        (Some(x), Some(y)) => u32::from(x == y),
        _ => 0,
    })
}

/// GDI.101 OffsetRgn(hrgn, x, y) -> type.
fn offset_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let Some(r) = env.win16.gdi.objects.region(h) else {
        return Ok(0);
    };
    let moved = r.offset(arg_i(a[1]), arg_i(a[2]));
    let k = kind(&moved);
    Ok(if replace(env, uc, h, moved) {
        u32::from(k)
    } else {
        0
    })
}

/// GDI.134 GetRgnBox(hrgn, lpRect) -> type.
fn get_rgn_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = env.win16.gdi.objects.region(arg_h(a[0])) else {
        return Ok(0);
    };
    let (b, k) = (r.bbox(), kind(r));
    if !write_rect(uc, a[1], b) {
        return Ok(0);
    }
    Ok(u32::from(k))
}

/// GDI.161 PtInRegion(hrgn, x, y) -> BOOL.
fn pt_in_region(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.gdi.objects.region(arg_h(a[0])).map_or(0, |r| {
        u32::from(r.contains(Point::new(arg_i(a[1]), arg_i(a[2]))))
    }))
}

/// GDI.181 RectInRegion(hrgn, lpRect) -> BOOL: any pixel of it inside.
fn rect_in_region(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(rc) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    Ok(env
        .win16
        .gdi
        .objects
        .region(arg_h(a[0]))
        .map_or(0, |r| u32::from(r.intersects(&rc.normalized()))))
}

/// GDI.172 SetRectRgn(hrgn, left, top, right, bottom).
fn set_rect_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    replace(env, uc, arg_h(a[0]), Region::rect(rect_args(a, 1)));
    Ok(0)
}

/// The type of what DC `hdc` may draw on (visible ∩ clip), and that area
/// in device coordinates.
fn total_clip(gdi: &mut Gdi, hdc: u16) -> Option<(u16, Region)> {
    let display = gdi.display;
    let d = gdi.dc_mut(hdc)?;
    let surface = d.surface_rect(display);
    let r = d.effective_clip(surface).offset(-d.origin.x, -d.origin.y);
    Some((kind(&r), r))
}

/// SelectClipRgn's work: copy `r` (device coordinates) in as the clip
/// region (None removes it). The type of the area drawing may touch.
pub fn select_clip(gdi: &mut Gdi, hdc: u16, r: Option<&Region>) -> Option<u16> {
    gdi.dc_mut(hdc)?.state.clip = r.cloned();
    total_clip(gdi, hdc).map(|t| t.0)
}

/// GDI.44 SelectClipRgn(hDC, hrgn) -> type.
fn select_clip_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let h = arg_h(a[1]);
    let r = if h == 0 {
        None
    } else {
        match gdi.objects.region(h) {
            Some(r) => Some(r.clone()),
            None => return Ok(0),
        }
    };
    Ok(select_clip(gdi, arg_h(a[0]), r.as_ref()).map_or(0, u32::from))
}

/// A logical rectangle of DC `hdc` in device coordinates.
fn device_rect(gdi: &mut Gdi, hdc: u16, r: Rect) -> Option<Rect> {
    let d = gdi.dc_mut(hdc)?;
    let p = d.state.map.lp_to_dp(Point::new(r.left, r.top));
    let q = d.state.map.lp_to_dp(Point::new(r.right, r.bottom));
    Some(Rect::new(p.x, p.y, q.x, q.y).normalized())
}

/// The DC's clip region, or its whole visible area when it has none
/// (device coordinates).
fn clip_or_visible(gdi: &mut Gdi, hdc: u16) -> Option<Region> {
    let (_, total) = total_clip(gdi, hdc)?;
    let d = gdi.dc_mut(hdc)?;
    Some(d.state.clip.clone().unwrap_or(total))
}

/// GDI.22 IntersectClipRect(hDC, left, top, right, bottom) -> type.
fn intersect_clip_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(r) = device_rect(
        gdi,
        hdc,
        Rect::new(arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4])),
    ) else {
        return Ok(0);
    };
    // With no clip region the rectangle becomes it (Windows 3.1's DC
    // hClipRgn, which GetClipRgn shows: Wine's GDI does the same); what
    // may be drawn is the same either way, the visible region being
    // intersected at drawing.
    let Some(d) = gdi.dc(hdc) else {
        return Ok(0);
    };
    let new = match &d.state.clip {
        Some(cur) => cur.intersect(&Region::rect(r)),
        None => Region::rect(r),
    };
    Ok(select_clip(gdi, hdc, Some(&new)).map_or(0, u32::from))
}

/// GDI.21 ExcludeClipRect(hDC, left, top, right, bottom) -> type.
fn exclude_clip_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(r) = device_rect(
        gdi,
        hdc,
        Rect::new(arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4])),
    ) else {
        return Ok(0);
    };
    let Some(cur) = clip_or_visible(gdi, hdc) else {
        return Ok(0);
    };
    let new = cur.subtract(&Region::rect(r));
    Ok(select_clip(gdi, hdc, Some(&new)).map_or(0, u32::from))
}

/// GDI.32 OffsetClipRgn(hDC, x, y) -> type: the clip region moves by
/// (x, y) logical units.
fn offset_clip_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(d) = gdi.dc_mut(hdc) else {
        return Ok(0);
    };
    let m = d.state.map;
    let o = m.lp_to_dp(Point::new(0, 0));
    let p = m.lp_to_dp(Point::new(arg_i(a[1]), arg_i(a[2])));
    if let Some(c) = &mut d.state.clip {
        *c = c.offset(p.x - o.x, p.y - o.y);
    }
    Ok(total_clip(gdi, hdc).map_or(0, |t| u32::from(t.0)))
}

/// GDI.103 PtVisible(hDC, x, y) -> BOOL.
fn pt_visible(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(p) = gdi
        .dc_mut(hdc)
        .map(|d| d.state.map.lp_to_dp(Point::new(arg_i(a[1]), arg_i(a[2]))))
    else {
        return Ok(0);
    };
    Ok(total_clip(gdi, hdc).map_or(0, |t| u32::from(t.1.contains(p))))
}

/// GDI.104 / GDI.465 RectVisible(hDC, lpRect) -> BOOL.
fn rect_visible(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some(r) = device_rect(gdi, hdc, r) else {
        return Ok(0);
    };
    Ok(total_clip(gdi, hdc).map_or(0, |t| u32::from(t.1.intersects(&r))))
}

/// GDI.77 GetClipBox(hDC, lpRect) -> type: the bounding box of what may
/// be drawn, in logical coordinates.
fn get_clip_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let Some((k, r)) = total_clip(gdi, hdc) else {
        return Ok(0);
    };
    let b = r.bbox();
    let m = gdi.dc_mut(hdc).expect("checked").state.map;
    let p = m.dp_to_lp(Point::new(b.left, b.top));
    let q = m.dp_to_lp(Point::new(b.right, b.bottom));
    let lb = if k == RegionKind::Null as u16 {
        Rect::default()
    } else {
        Rect::new(p.x, p.y, q.x, q.y).normalized()
    };
    if !write_rect(uc, a[1], lb) {
        return Ok(0);
    }
    Ok(u32::from(k))
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        21,
        "EXCLUDECLIPRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        exclude_clip_rect,
    ),
    Api::new(
        "GDI",
        22,
        "INTERSECTCLIPRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        intersect_clip_rect,
    ),
    Api::new(
        "GDI",
        32,
        "OFFSETCLIPRGN",
        &[Arg::W, Arg::W, Arg::W],
        offset_clip_rgn,
    ),
    Api::new(
        "GDI",
        44,
        "SELECTCLIPRGN",
        &[Arg::W, Arg::W],
        select_clip_rgn,
    ),
    Api::new(
        "GDI",
        47,
        "COMBINERGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        combine_rgn,
    ),
    Api::new(
        "GDI",
        54,
        "CREATEELLIPTICRGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        create_elliptic_rgn,
    ),
    Api::new(
        "GDI",
        55,
        "CREATEELLIPTICRGNINDIRECT",
        &[Arg::L],
        create_elliptic_rgn_indirect,
    ),
    Api::new(
        "GDI",
        63,
        "CREATEPOLYGONRGN",
        &[Arg::L, Arg::W, Arg::W],
        create_polygon_rgn,
    ),
    Api::new(
        "GDI",
        64,
        "CREATERECTRGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        create_rect_rgn,
    ),
    Api::new(
        "GDI",
        65,
        "CREATERECTRGNINDIRECT",
        &[Arg::L],
        create_rect_rgn_indirect,
    ),
    Api::new("GDI", 72, "EQUALRGN", &[Arg::W, Arg::W], equal_rgn),
    Api::new("GDI", 77, "GETCLIPBOX", &[Arg::W, Arg::L], get_clip_box),
    Api::new(
        "GDI",
        101,
        "OFFSETRGN",
        &[Arg::W, Arg::W, Arg::W],
        offset_rgn,
    ),
    Api::new(
        "GDI",
        103,
        "PTVISIBLE",
        &[Arg::W, Arg::W, Arg::W],
        pt_visible,
    ),
    Api::new("GDI", 104, "RECTVISIBLE", &[Arg::W, Arg::L], rect_visible),
    Api::new("GDI", 134, "GETRGNBOX", &[Arg::W, Arg::L], get_rgn_box),
    Api::new(
        "GDI",
        161,
        "PTINREGION",
        &[Arg::W, Arg::W, Arg::W],
        pt_in_region,
    ),
    Api::new(
        "GDI",
        172,
        "SETRECTRGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        set_rect_rgn,
    ),
    Api::new(
        "GDI",
        181,
        "RECTINREGION",
        &[Arg::W, Arg::L],
        rect_in_region,
    ),
    Api::new(
        "GDI",
        444,
        "CREATEROUNDRECTRGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        create_round_rect_rgn,
    ),
    Api::new(
        "GDI",
        451,
        "CREATEPOLYPOLYGONRGN",
        &[Arg::L, Arg::L, Arg::W, Arg::W],
        create_poly_polygon_rgn,
    ),
    Api::new(
        "GDI",
        465,
        "RECTVISIBLE_EHH",
        &[Arg::W, Arg::L],
        rect_visible,
    ),
    Api::new(
        "GDI",
        466,
        "RECTINREGION_EHH",
        &[Arg::W, Arg::L],
        rect_in_region,
    ),
];
