//! Filled shapes and rectangle fills: Rectangle, RoundRect, Ellipse, Arc,
//! Chord, Pie, Polygon, PolyPolygon; USER's FillRect, FrameRect and
//! InvertRect; FillRgn, FrameRgn, InvertRgn, PaintRgn. The pixel sets of
//! the shapes also make the region objects of region.rs.
//!
//! **The bounding box** (SDK, Rectangle; DDK, Output(OS_RECTANGLE)): a
//! shape given by (left, top, right, bottom) in logical units occupies the
//! device pixels from left to right − 1 and top to bottom − 1 after the
//! corners are mapped and ordered: "the border lies one pixel within the
//! specified right and bottom edges". A closed shape is filled with the
//! brush first, then its border is drawn with the pen.
//!
//! **The pixels of each shape** (this implementation's rules, stated so the
//! tests can derive them):
//!
//! - *Rectangle*: every pixel of the box; the border is the box's outer
//!   ring of pixels.
//! - *Ellipse*: the pixels whose centres lie inside (or on) the ellipse
//!   through the centres of the box's extreme pixels: with X = 2x −
//!   (left + right − 1), Y = 2y − (top + bottom − 1), A = right − left − 1,
//!   B = bottom − top − 1, the pixel is in when X²·B² + Y²·A² ≤ A²·B²
//!   (exact integers). A 1-pixel border is the shape's pixels that have a
//!   4-neighbour outside it; the interior is the rest.
//! - *RoundRect*: the box with each corner replaced by a quarter of the
//!   ellipse of the corner size (clamped to the box) in that corner.
//! - *Arc, Chord, Pie*: the ellipse's border pixels whose angle from the
//!   centre lies on the counter-clockwise arc from the radial through the
//!   first point to the radial through the second (Windows 3.1 always drew
//!   counter-clockwise; equal radials draw the whole ellipse). A chord
//!   closes the arc with the line between its ends and fills the ellipse's
//!   part on the arc's side of that line; a pie draws the two radii (centre
//!   to each end) and fills the sector.
//! - *Polygon*: a pixel is inside when its centre (its integer
//!   coordinates) is inside the polygon by the fill mode (ALTERNATE:
//!   odd crossings; WINDING: non-zero winding), edges half-open as
//!   rectangles are (a pixel on a left or top edge is in, on a right or
//!   bottom edge out). The border is the closed polyline of the points.
//!
//! **Pens on closed shapes.** A null pen fills the shape of the box made
//! one pixel narrower and shorter ("the dimensions of the figure are one
//! pixel less"). A one-pixel pen draws the shape's border (styles follow
//! the border around). A wide pen is centred on the border (split as
//! lines.rs says): its ring runs from the shape of the box grown by the
//! pen's outer part to the shape of the box shrunk by its inner part, and
//! the brush fills inside the ring; corners of rectangles stay square. A
//! wide PS_INSIDEFRAME pen keeps its ring inside the box.

use super::brush::Brush;
use super::dc::{Canvas, Fill, PenSpec};
use super::lines::{self, width_split};
use super::raster::Paint;
use super::{Env, Gdi, Stop, Uc, arg_h, arg_i, read_points, read_rect};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region};

/// The pixels of a rectangle box in `view`.
pub fn rect_shape(b: Rect, view: Rect) -> Region {
    b.intersect(&view).map(Region::rect).unwrap_or_default()
}

/// The region functions' bounds: coordinates of 16-bit GDI, with room.
pub const SHAPE_LIMIT: i32 = 1 << 17;

/// The bounds region functions rasterize within.
pub fn region_view() -> Rect {
    Rect::new(-SHAPE_LIMIT, -SHAPE_LIMIT, SHAPE_LIMIT, SHAPE_LIMIT)
}

/// The pixels of the ellipse of box `b` (module doc) that lie in `view`:
/// each row's span from the midpoint rule.
pub fn ellipse_shape(b: Rect, view: Rect) -> Region {
    if b.is_empty() || view.is_empty() {
        return Region::empty();
    }
    let a = f64::from(b.width() - 1) / 2.0;
    let bb = f64::from(b.height() - 1) / 2.0;
    // Twice the centre: integers, so mirroring is exact.
    let cx2 = i64::from(b.left) + i64::from(b.right) - 1;
    let cy2 = i64::from(b.top) + i64::from(b.bottom) - 1;
    let (cx, cy) = (cx2 as f64 / 2.0, cy2 as f64 / 2.0);
    let (vl, vr) = (i64::from(view.left), i64::from(view.right));
    let (vt, vb) = (i64::from(view.top), i64::from(view.bottom));
    let clamp_span = |x0: i64, x1: i64| -> Option<(i32, i32)> {
        let (x0, x1) = (x0.max(vl), (x1 + 1).min(vr));
        (x0 < x1).then_some((x0 as i32, x1 as i32))
    };
    if a == 0.0 || bb == 0.0 {
        return Region::rect(b).intersect(&Region::rect(view));
    }
    let diag = (a * a + bb * bb).sqrt();
    let (x45, y45) = (a * a / diag, bb * bb / diag);
    let round = |v: f64| (v + 0.5).floor() as i64;
    let mut rows = Vec::new();
    // The top half (and the middle row) makes the bottom by mirroring:
    // only rows whose own or mirrored row lies in the view are made.
    let last_top = cy2.div_euclid(2);
    let top = i64::from(b.top);
    let mut ranges: Vec<(i64, i64)> = Vec::new();
    for (lo, hi) in [(vt, vb - 1), (cy2 - (vb - 1), cy2 - vt)] {
        let (lo, hi) = (lo.max(top), hi.min(last_top));
        if lo <= hi {
            ranges.push((lo, hi));
        }
    }
    ranges.sort_unstable();
    let mut seen_to = i64::MIN;
    for (lo, hi) in ranges {
        for y in lo.max(seen_to.saturating_add(1))..=hi {
            let yy = y as f64 - cy;
            let x1 = if yy.abs() <= y45 + 1e-9 {
                // Steep part: the nearest column to the curve.
                let xc = a * (1.0 - (yy / bb).powi(2)).max(0.0).sqrt();
                round(cx + xc)
            } else {
                // Flat part: the columns whose nearest row to the curve is
                // at or above this one.
                let d = cy - y as f64 - 0.5;
                let xm = a * (1.0 - (d / bb).powi(2)).max(0.0).sqrt();
                let strict = (cx + xm).ceil() as i64 - 1;
                strict.min((cx + x45 + 1e-9).floor() as i64)
            };
            let x0 = cx2 - x1;
            if x0 <= x1 {
                if let Some(span) = clamp_span(x0, x1) {
                    if (vt..vb).contains(&y) {
                        rows.push((y as i32, vec![span]));
                    }
                    let my = cy2 - y;
                    if my != y && (vt..vb).contains(&my) {
                        rows.push((my as i32, vec![span]));
                    }
                }
            }
        }
        seen_to = seen_to.max(hi);
    }
    Region::from_rows(rows)
}

/// The pixels of a rounded rectangle in `view`: box `b`, corner ellipse
/// `cw`×`ch`.
pub fn roundrect_shape(b: Rect, cw: i32, ch: i32, view: Rect) -> Region {
    if b.is_empty() {
        return Region::empty();
    }
    let cw = cw.clamp(0, b.width());
    let ch = ch.clamp(0, b.height());
    if cw < 2 || ch < 2 {
        return rect_shape(b, view);
    }
    let corners = [
        ellipse_shape(Rect::new(b.left, b.top, b.left + cw, b.top + ch), view),
        ellipse_shape(Rect::new(b.right - cw, b.top, b.right, b.top + ch), view),
        ellipse_shape(
            Rect::new(b.left, b.bottom - ch, b.left + cw, b.bottom),
            view,
        ),
        ellipse_shape(
            Rect::new(b.right - cw, b.bottom - ch, b.right, b.bottom),
            view,
        ),
    ];
    // The box minus the four corner squares, plus the corner ellipses.
    let hw = cw / 2;
    let hh = ch / 2;
    let cut = Region::from_rects([
        Rect::new(b.left, b.top, b.left + hw, b.top + hh),
        Rect::new(b.right - hw, b.top, b.right, b.top + hh),
        Rect::new(b.left, b.bottom - hh, b.left + hw, b.bottom),
        Rect::new(b.right - hw, b.bottom - hh, b.right, b.bottom),
    ]);
    let mut r = rect_shape(b, view).subtract(&cut);
    for c in corners {
        r = r.union(&c.intersect(&cut));
    }
    r
}

/// The pixels of a polygon (module doc); `winding` selects WINDING.
pub fn polygon_shape(polys: &[Vec<Point>], winding: bool, limit: Rect) -> Region {
    polygon_shape_capped(polys, winding, limit, usize::MAX).unwrap_or_default()
}

/// The most rectangles a polygon region may have (GDI kept regions in its
/// 64 KiB heap; a region past this fails to be made, as there).
pub const MAX_REGION_SPANS: usize = 1 << 15;

/// [`polygon_shape`], None when it would hold more than `cap` spans.
pub fn polygon_shape_capped(
    polys: &[Vec<Point>],
    winding: bool,
    limit: Rect,
    cap: usize,
) -> Option<Region> {
    let mut edges: Vec<(i64, i64, i64, i64, i32)> = Vec::new();
    let (mut ymin, mut ymax) = (i64::MAX, i64::MIN);
    for poly in polys {
        if poly.len() < 2 {
            continue;
        }
        for k in 0..poly.len() {
            let a = poly[k];
            let b = poly[(k + 1) % poly.len()];
            if a.y == b.y {
                continue;
            }
            let (p, q, dir) = if a.y < b.y { (a, b, 1) } else { (b, a, -1) };
            edges.push((
                i64::from(p.x),
                i64::from(p.y),
                i64::from(q.x),
                i64::from(q.y),
                dir,
            ));
            ymin = ymin.min(i64::from(p.y));
            ymax = ymax.max(i64::from(q.y));
        }
    }
    if edges.is_empty() {
        return Some(Region::empty());
    }
    let mut total = 0usize;
    let y0 = ymin.max(i64::from(limit.top));
    let y1 = ymax.min(i64::from(limit.bottom));
    // An active edge list: edges by their top, entering as the scan
    // reaches them and leaving below their bottom.
    edges.sort_unstable_by_key(|e| e.1);
    let mut next_edge = 0;
    let mut active: Vec<(i64, i64, i64, i64, i32)> = Vec::new();
    let mut rows = Vec::new();
    let mut xs: Vec<(i64, i32)> = Vec::new();
    for y in y0..y1 {
        while next_edge < edges.len() && edges[next_edge].1 <= y {
            active.push(edges[next_edge]);
            next_edge += 1;
        }
        active.retain(|e| e.3 > y);
        xs.clear();
        for &(x0, ey0, x1, ey1, dir) in &active {
            if ey0 <= y && y < ey1 {
                // The crossing's x, as the first pixel column at or right
                // of it: ceil(x0 + (y − y0)(x1 − x0)/(y1 − y0)).
                let num = x0 * (ey1 - ey0) + (y - ey0) * (x1 - x0);
                let den = ey1 - ey0;
                xs.push((-((-num).div_euclid(den)), dir));
            }
        }
        xs.sort_unstable();
        let mut spans = Vec::new();
        if winding {
            let mut wnd = 0;
            let mut start = 0i64;
            for &(x, d) in &xs {
                let before = wnd;
                wnd += d;
                if before == 0 && wnd != 0 {
                    start = x;
                } else if before != 0 && wnd == 0 && start < x {
                    spans.push((start, x));
                }
            }
        } else {
            for pair in xs.chunks(2) {
                if let [a, b] = pair {
                    if a.0 < b.0 {
                        spans.push((a.0, b.0));
                    }
                }
            }
        }
        let l = i64::from(limit.left);
        let r = i64::from(limit.right);
        let spans: Vec<(i32, i32)> = spans
            .into_iter()
            .filter_map(|(a, b)| {
                let (a, b) = (a.max(l), b.min(r));
                (a < b).then_some((a as i32, b as i32))
            })
            .collect();
        if !spans.is_empty() {
            total += spans.len();
            if total > cap {
                return None;
            }
            rows.push((y as i32, spans));
        }
    }
    Some(Region::from_rows(rows))
}

/// The shape's pixels that have no 4-neighbour outside it.
pub fn erode(s: &Region) -> Region {
    s.intersect(&s.offset(1, 0))
        .intersect(&s.offset(-1, 0))
        .intersect(&s.offset(0, 1))
        .intersect(&s.offset(0, -1))
}

/// What a closed shape looks like for a pen: (the brush's area, the pen's
/// area). `make` gives the shape of a box.
fn closed_areas(pen: Option<&PenSpec>, b: Rect, make: &dyn Fn(Rect) -> Region) -> (Region, Region) {
    match pen {
        None => (
            make(Rect::new(b.left, b.top, b.right - 1, b.bottom - 1)),
            Region::empty(),
        ),
        Some(p) if p.width <= 1 => {
            let s = make(b);
            let inner = erode(&s);
            let ring = s.subtract(&inner);
            (inner, ring)
        }
        Some(p) => {
            let w = p.width;
            let (outer, inner) = if p.style == super::pen::PS_INSIDEFRAME {
                (
                    b,
                    Rect::new(b.left + w, b.top + w, b.right - w, b.bottom - w),
                )
            } else {
                let (before, after) = width_split(w);
                (
                    Rect::new(
                        b.left - before,
                        b.top - before,
                        b.right + after,
                        b.bottom + after,
                    ),
                    Rect::new(
                        b.left + after + 1,
                        b.top + after + 1,
                        b.right - 1 - before,
                        b.bottom - 1 - before,
                    ),
                )
            };
            let inner_s = make(inner);
            (inner_s.clone(), make(outer).subtract(&inner_s))
        }
    }
}

/// Paint the pen's ring: solid paint at once, or a styled one-pixel border
/// along its pixels in angular order around `centre`.
fn paint_ring(cv: &mut Canvas, ring: &Region, centre: (f64, f64)) {
    let Some(pen) = cv.pen.clone() else {
        return;
    };
    let styled = (1..=4).contains(&pen.style) && pen.width == 1;
    if !styled {
        cv.fill_region(ring, &pen.paint);
        return;
    }
    let pts = ordered_pixels(ring, centre, 0.0);
    stroke_pixels(cv, &pen, &pts);
}

/// A region's pixels ordered counter-clockwise (on screen) by their angle
/// from `centre`, starting at angle `from` (radians).
fn ordered_pixels(r: &Region, centre: (f64, f64), from: f64) -> Vec<Point> {
    let mut v: Vec<(f64, Point)> = Vec::new();
    for rect in r.rects() {
        for y in rect.top..rect.bottom {
            for x in rect.left..rect.right {
                let a = angle(centre, Point::new(x, y));
                let rel = (a - from).rem_euclid(std::f64::consts::TAU);
                v.push((rel, Point::new(x, y)));
            }
        }
    }
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v.into_iter().map(|(_, p)| p).collect()
}

/// Draw pixels in order with a styled pen: the style advances 36 for an
/// axial step and 51 for a diagonal one (lines.rs).
fn stroke_pixels(cv: &mut Canvas, pen: &PenSpec, pts: &[Point]) {
    let mut cost = 0i64;
    let mut prev: Option<Point> = None;
    for &p in pts {
        if let Some(q) = prev {
            let diag = q.x != p.x && q.y != p.y;
            cost += if diag { 51 } else { 36 };
        }
        prev = Some(p);
        let mask: u8 = [0xFF, 0xFC, 0xAA, 0xE4, 0xEA][usize::from(pen.style.min(4))];
        let bit = (cost / 102).rem_euclid(8);
        if mask & (0x80 >> bit) != 0 {
            cv.plot(p.x, p.y, &pen.paint);
        } else if let Some(g) = &pen.gap {
            cv.plot(p.x, p.y, g);
        }
    }
}

/// The angle of `p` from `c` in radians, counter-clockwise on screen (y
/// grows downwards), in [0, 2π).
fn angle(c: (f64, f64), p: Point) -> f64 {
    let a = (-(f64::from(p.y) - c.1)).atan2(f64::from(p.x) - c.0);
    a.rem_euclid(std::f64::consts::TAU)
}

/// A box's centre in pixel-centre coordinates.
fn centre_of(b: Rect) -> (f64, f64) {
    (
        f64::from(b.left + b.right - 1) / 2.0,
        f64::from(b.top + b.bottom - 1) / 2.0,
    )
}

/// Logical corners → the ordered surface box.
fn surface_box(cv: &Canvas, l: i32, t: i32, r: i32, b: i32) -> Rect {
    let p = cv.lp_to_sp(Point::new(l, t));
    let q = cv.lp_to_sp(Point::new(r, b));
    Rect::new(p.x, p.y, q.x, q.y).normalized()
}

/// What can show of a canvas, with room for a pen of width `w` and the
/// neighbours erosion looks at.
fn view_of(cv: &Canvas) -> Rect {
    let grow = cv.pen.as_ref().map_or(0, |p| p.width) + 3;
    cv.clip.bbox().inflate(grow, grow)
}

/// Draw a closed shape: brush inside, pen on the ring.
fn draw_closed(cv: &mut Canvas, b: Rect, make: &dyn Fn(Rect) -> Region) {
    let pen = cv.pen.clone();
    let (inside, ring) = closed_areas(pen.as_ref(), b, make);
    if let Some(brush) = cv.brush.clone() {
        cv.fill_region(&inside, &brush);
    }
    if pen.is_some() {
        paint_ring(cv, &ring, centre_of(b));
    }
}

/// Open DC `a[0]`, run `f` with the canvas, close it. Returns TRUE when
/// the DC exists (an information context draws nothing but succeeds).
fn with_canvas(env: &mut Env, hdc: u16, f: impl FnOnce(&mut Canvas)) -> u32 {
    let gdi = &mut env.win16.gdi;
    match Canvas::open(gdi, hdc) {
        Some(mut cv) => {
            f(&mut cv);
            cv.close(gdi);
            1
        }
        None => u32::from(gdi.dc_mut(hdc).is_some()),
    }
}

/// GDI.27 Rectangle(hDC, left, top, right, bottom).
fn rectangle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = |k: usize| arg_i(a[k]);
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        let b = surface_box(cv, c(1), c(2), c(3), c(4));
        if cv
            .pen
            .as_ref()
            .is_some_and(|p| p.width == 1 && (1..=4).contains(&p.style))
        {
            // A styled border runs around the corners as a polyline does.
            let pen = cv.pen.clone().expect("checked");
            let view = view_of(cv);
            let (inside, _) = closed_areas(Some(&pen), b, &|r| rect_shape(r, view));
            if let Some(brush) = cv.brush.clone() {
                cv.fill_region(&inside, &brush);
            }
            let pts = [
                Point::new(b.left, b.top),
                Point::new(b.right - 1, b.top),
                Point::new(b.right - 1, b.bottom - 1),
                Point::new(b.left, b.bottom - 1),
            ];
            lines::stroke(cv, &pen, &pts, true);
        } else {
            let view = view_of(cv);
            draw_closed(cv, b, &|r| rect_shape(r, view));
        }
    }))
}

/// GDI.24 Ellipse(hDC, left, top, right, bottom).
pub fn ellipse(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = |k: usize| arg_i(a[k]);
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        let b = surface_box(cv, c(1), c(2), c(3), c(4));
        let view = view_of(cv);
        draw_closed(cv, b, &|r| ellipse_shape(r, view));
    }))
}

/// GDI.28 RoundRect(hDC, left, top, right, bottom, nWidth, nHeight): the
/// corner ellipse's size in logical units.
fn round_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = |k: usize| arg_i(a[k]);
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        let b = surface_box(cv, c(1), c(2), c(3), c(4));
        let cw = cv.state.map.width_to_device(c(5));
        let ch = cv.state.map.height_to_device(c(6));
        let view = view_of(cv);
        draw_closed(cv, b, &|bx| roundrect_shape(bx, cw, ch, view));
    }))
}

/// Where the radial through `p` (surface) leaves the ellipse of box `b`.
fn radial_end(b: Rect, p: Point) -> Point {
    let (cx, cy) = centre_of(b);
    let a = f64::from(b.width() - 1) / 2.0;
    let bb = f64::from(b.height() - 1) / 2.0;
    let (dx, dy) = (f64::from(p.x) - cx, f64::from(p.y) - cy);
    if (dx == 0.0 && dy == 0.0) || a <= 0.0 || bb <= 0.0 {
        return Point::new(cx.round() as i32, cy.round() as i32);
    }
    let s = 1.0 / ((dx / a).powi(2) + (dy / bb).powi(2)).sqrt();
    Point::new((cx + s * dx).round() as i32, (cy + s * dy).round() as i32)
}

/// Is angle `x` on the counter-clockwise arc from `s` to `e`?
fn on_arc(x: f64, s: f64, e: f64) -> bool {
    let tau = std::f64::consts::TAU;
    let span = (e - s).rem_euclid(tau);
    if span == 0.0 {
        return true;
    }
    (x - s).rem_euclid(tau) <= span
}

/// The kind of curved figure.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Curve {
    Arc,
    Chord,
    Pie,
}

fn draw_curve(cv: &mut Canvas, b: Rect, p1: Point, p2: Point, kind: Curve) {
    let c = centre_of(b);
    let (s, e) = (angle(c, p1), angle(c, p2));
    let (ps, pe) = (radial_end(b, p1), radial_end(b, p2));
    let pen = cv.pen.clone();
    // Only what can show matters: the clip area, with room for the pen.
    let vr = view_of(cv);
    let view = Region::rect(vr);
    let full = ellipse_shape(b, vr);
    let border = full.subtract(&erode(&full));
    let keep = |r: &Region| -> Region {
        let mut rows: Vec<(i32, Vec<(i32, i32)>)> = Vec::new();
        for rect in r.rects() {
            for y in rect.top..rect.bottom {
                let mut spans = Vec::new();
                for x in rect.left..rect.right {
                    if on_arc(angle(c, Point::new(x, y)), s, e) {
                        spans.push((x, x + 1));
                    }
                }
                rows.push((y, spans));
            }
        }
        Region::from_rows(rows)
    };
    // The pen's arc: the border (or the wide ring) on the arc.
    let arc_ring = match &pen {
        Some(p) if p.width > 1 => {
            let (_, ring) = closed_areas(Some(p), b, &|r| ellipse_shape(r, vr));
            keep(&ring.intersect(&view))
        }
        _ => keep(&border),
    };
    if kind != Curve::Arc {
        // The filled part: the ellipse within the pie's wedge, or on the
        // arc's side of the chord (polygons far larger than the ellipse).
        let big = f64::from(b.width().max(b.height())) * 2.0 + 64.0;
        let tau = std::f64::consts::TAU;
        let span = (e - s).rem_euclid(tau);
        let ctr = Point::new(c.0.floor() as i32, c.1.floor() as i32);
        let at = |th: f64, r: f64| {
            Point::new(
                (c.0 + th.cos() * r).round() as i32,
                (c.1 - th.sin() * r).round() as i32,
            )
        };
        let area = if span == 0.0 {
            full.clone()
        } else {
            let poly = match kind {
                Curve::Pie => {
                    let mut pts = vec![ctr];
                    let steps = (span / (tau / 8.0)).ceil().max(1.0) as usize;
                    for k in 0..=steps {
                        pts.push(at(s + span * k as f64 / steps as f64, big));
                    }
                    pts
                }
                _ => {
                    // The half-plane on the arc's side of ps–pe.
                    let mid = at(s + span / 2.0, big);
                    let (dx, dy) = (f64::from(pe.x - ps.x), f64::from(pe.y - ps.y));
                    let len = (dx * dx + dy * dy).sqrt().max(1.0);
                    let (ux, uy) = (dx / len, dy / len);
                    let (mut nx, mut ny) = (-uy, ux);
                    let side = nx * f64::from(mid.x - ps.x) + ny * f64::from(mid.y - ps.y);
                    if side < 0.0 {
                        (nx, ny) = (-nx, -ny);
                    }
                    let p = |x: f64, y: f64| Point::new(x.round() as i32, y.round() as i32);
                    let (ax, ay) = (f64::from(ps.x) - ux * big, f64::from(ps.y) - uy * big);
                    let (bx, by) = (f64::from(pe.x) + ux * big, f64::from(pe.y) + uy * big);
                    vec![
                        p(ax, ay),
                        p(bx, by),
                        p(bx + nx * big, by + ny * big),
                        p(ax + nx * big, ay + ny * big),
                    ]
                }
            };
            full.intersect(&polygon_shape(&[poly], true, vr))
        };
        // The straight edges.
        let mut edges = Region::empty();
        let mut add_line = |a: Point, z: Point| {
            let mut v = Vec::new();
            lines::line_pixels(a, z, vr, |p, _| v.push((p.y, vec![(p.x, p.x + 1)])));
            if vr.contains(z) {
                v.push((z.y, vec![(z.x, z.x + 1)]));
            }
            edges = edges.union(&Region::from_rows(v));
        };
        match kind {
            Curve::Pie => {
                add_line(ctr, ps);
                add_line(ctr, pe);
            }
            _ => add_line(ps, pe),
        }
        let inside = area.subtract(&arc_ring).subtract(&edges);
        if let Some(brush) = cv.brush.clone() {
            cv.fill_region(&inside, &brush);
        }
        if let Some(p) = &pen {
            if p.width > 1 {
                let lim = cv.clip.bbox().inflate(p.width + 1, p.width + 1);
                let mut wide = Region::empty();
                match kind {
                    Curve::Pie => {
                        wide = wide.union(&lines::wide_segment(ctr, ps, p.width, lim));
                        wide = wide.union(&lines::wide_segment(ctr, pe, p.width, lim));
                    }
                    _ => wide = lines::wide_segment(ps, pe, p.width, lim),
                }
                cv.fill_region(&wide.union(&arc_ring), &p.paint);
                return;
            }
            cv.fill_region(&edges.union(&arc_ring), &p.paint);
        }
        return;
    }
    if let Some(p) = &pen {
        if (1..=4).contains(&p.style) && p.width == 1 {
            let pts = ordered_pixels(&arc_ring, c, s);
            stroke_pixels(cv, p, &pts);
        } else {
            cv.fill_region(&arc_ring, &p.paint);
        }
    }
}

fn curve_call(env: &mut Env, a: &[u32], kind: Curve) -> u32 {
    let c = |k: usize| arg_i(a[k]);
    with_canvas(env, arg_h(a[0]), |cv| {
        let b = surface_box(cv, c(1), c(2), c(3), c(4));
        let p1 = cv.lp_to_sp(Point::new(c(5), c(6)));
        let p2 = cv.lp_to_sp(Point::new(c(7), c(8)));
        // A y-flipping mapping mirrors the arc's direction.
        let (fx, fy) = cv.state.map.flips();
        let (p1, p2) = if fx != fy { (p2, p1) } else { (p1, p2) };
        draw_curve(cv, b, p1, p2, kind);
    })
}

/// GDI.23 Arc(hDC, left, top, right, bottom, xStart, yStart, xEnd, yEnd).
fn arc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(curve_call(env, a, Curve::Arc))
}

/// GDI.348 Chord(hDC, left, top, right, bottom, x1, y1, x2, y2).
fn chord(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(curve_call(env, a, Curve::Chord))
}

/// GDI.26 Pie(hDC, left, top, right, bottom, x1, y1, x2, y2).
fn pie(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(curve_call(env, a, Curve::Pie))
}

fn draw_polygons(cv: &mut Canvas, polys: &[Vec<Point>]) {
    let winding = cv.state.poly_fill_mode == super::dc::WINDING;
    let sp: Vec<Vec<Point>> = polys
        .iter()
        .map(|p| p.iter().map(|&q| cv.lp_to_sp(q)).collect())
        .collect();
    if let Some(brush) = cv.brush.clone() {
        let area = polygon_shape(&sp, winding, cv.clip.bbox());
        cv.fill_region(&area, &brush);
    }
    for p in &sp {
        lines::draw_polyline(cv, p, true);
    }
}

/// GDI.36 Polygon(hDC, lpPoints, nCount).
fn polygon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = arg_i(a[2]);
    if n < 2 {
        return Ok(0);
    }
    let Some(pts) = read_points(uc, a[1], n as usize) else {
        return Ok(0);
    };
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        draw_polygons(cv, &[pts])
    }))
}

/// GDI.450 PolyPolygon(hDC, lpPoints, lpPolyCounts, nCount).
pub fn poly_polygon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(polys) = read_polys(uc, a[1], a[2], arg_i(a[3])) else {
        return Ok(0);
    };
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        draw_polygons(cv, &polys)
    }))
}

/// PolyPolygon's and CreatePolyPolygonRgn's arguments: the points, split
/// by the counts.
pub fn read_polys(uc: &Uc<'_>, pts: u32, counts: u32, n: i32) -> Option<Vec<Vec<Point>>> {
    if !(1..=4096).contains(&n) {
        return None;
    }
    let c = crate::win16::farptr::read_bytes(uc, counts, n as usize * 2)?;
    let counts: Vec<usize> = c
        .chunks(2)
        .map(|w| i16::from_le_bytes([w[0], w[1]]).max(0) as usize)
        .collect();
    let total: usize = counts.iter().sum();
    let all = read_points(uc, pts, total)?;
    let mut out = Vec::new();
    let mut at = 0;
    for k in counts {
        out.push(all[at..at + k].to_vec());
        at += k;
    }
    Some(out)
}

/// The paint of brush `hbr` on a canvas, for FillRect and friends (COPYPEN:
/// these calls use PATCOPY whatever the ROP2). A handle `COLOR_x + 1` (1..=21)
/// that is no brush is the system colour.
fn brush_paint(gdi: &Gdi, cv: &Canvas, hbr: u16) -> Option<Paint> {
    let b = match gdi.objects.brush(hbr) {
        Some(b) => b.clone(),
        None if (1..=21).contains(&hbr) => Brush::solid(gdi.sys_colors[usize::from(hbr - 1)]),
        None => return None,
    };
    let org = b.realized_at.unwrap_or(cv.state.brush_org);
    b.paint(
        &cv.colors(),
        cv.state.text_color,
        cv.state.bk_color,
        cv.state.bk_mode,
        super::dc::R2_COPYPEN,
        (org.x, org.y),
    )
}

/// Logical RECT → ordered surface rectangle.
fn surface_rect(cv: &Canvas, r: Rect) -> Rect {
    surface_box(cv, r.left, r.top, r.right, r.bottom)
}

/// The fill behind USER's FillRect and [`Gdi::fill_rect`].
pub fn fill_rect_with(gdi: &mut Gdi, hdc: u16, r: Rect, fill: Fill) -> bool {
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return false;
    };
    let paint = match fill {
        Fill::Brush(h) => brush_paint(gdi, &cv, h),
        Fill::Color(c) => Brush::solid(c).paint(
            &cv.colors(),
            0,
            0,
            super::dc::OPAQUE,
            super::dc::R2_COPYPEN,
            (cv.state.brush_org.x, cv.state.brush_org.y),
        ),
    };
    if let Some(p) = paint {
        let b = surface_rect(&cv, r);
        cv.fill_region(&Region::rect(b), &p);
    }
    cv.close(gdi);
    true
}

/// USER.81 FillRect(hDC, lpRect, hBrush): the rectangle, right and bottom
/// edges excluded.
pub fn fill_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    Ok(u32::from(fill_rect_with(
        &mut env.win16.gdi,
        arg_h(a[0]),
        r,
        Fill::Brush(arg_h(a[2])),
    )))
}

/// USER.83 FrameRect(hDC, lpRect, hBrush): a one-pixel border just inside
/// the rectangle, drawn with the brush.
pub fn frame_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    if let Some(p) = brush_paint(gdi, &cv, arg_h(a[2])) {
        let b = surface_rect(&cv, r);
        let ring = Region::rect(b).subtract(&Region::rect(b.inflate(-1, -1)));
        cv.fill_region(&ring, &p);
    }
    cv.close(gdi);
    Ok(1)
}

/// USER.82 InvertRect(hDC, lpRect): DSTINVERT over the rectangle.
pub fn invert_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    Ok(with_canvas(env, arg_h(a[0]), |cv| {
        let b = surface_rect(cv, r);
        cv.fill_region(&Region::rect(b), &Paint::solid(0, 6));
    }))
}

/// A region object (device coordinates) on the canvas's surface.
fn region_on(gdi: &Gdi, cv: &Canvas, h: u16) -> Option<Region> {
    Some(gdi.objects.region(h)?.offset(cv.origin.x, cv.origin.y))
}

/// GDI.40 FillRgn(hDC, hRgn, hBrush): the region (device coordinates of
/// the DC) painted with the brush under the DC's ROP2 (Wine's FillRgn
/// selects the brush and paints as PaintRgn does).
fn fill_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    let ok = match (
        region_on(gdi, &cv, arg_h(a[1])),
        brush_paint(gdi, &cv, arg_h(a[2])),
    ) {
        (Some(r), Some(mut p)) => {
            p.rop2 = cv.state.rop2;
            cv.fill_region(&r, &p);
            1
        }
        _ => 0,
    };
    cv.close(gdi);
    Ok(ok)
}

/// GDI.43 PaintRgn(hDC, hRgn): the region painted with the DC's brush.
fn paint_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    let ok = match region_on(gdi, &cv, arg_h(a[1])) {
        Some(r) => {
            if let Some(b) = cv.brush.clone() {
                cv.fill_region(&r, &b);
            }
            1
        }
        None => 0,
    };
    cv.close(gdi);
    Ok(ok)
}

/// GDI.42 InvertRgn(hDC, hRgn).
fn invert_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    let ok = match region_on(gdi, &cv, arg_h(a[1])) {
        Some(r) => {
            cv.fill_region(&r, &Paint::solid(0, 6));
            1
        }
        None => 0,
    };
    cv.close(gdi);
    Ok(ok)
}

/// GDI.41 FrameRgn(hDC, hRgn, hBrush, nWidth, nHeight): a border nWidth
/// pixels wide on vertical edges and nHeight high on horizontal ones,
/// inside the region.
fn frame_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    let (w, h) = (arg_i(a[3]).clamp(0, 1000), arg_i(a[4]).clamp(0, 1000));
    let ok = match (
        region_on(gdi, &cv, arg_h(a[1])),
        brush_paint(gdi, &cv, arg_h(a[2])),
    ) {
        (Some(r), Some(mut p)) => {
            p.rop2 = cv.state.rop2;
            let mut inner = r.clone();
            for dx in 1..=w {
                inner = inner
                    .intersect(&r.offset(dx, 0))
                    .intersect(&r.offset(-dx, 0));
            }
            for dy in 1..=h {
                inner = inner
                    .intersect(&r.offset(0, dy))
                    .intersect(&r.offset(0, -dy));
            }
            cv.fill_region(&r.subtract(&inner), &p);
            1
        }
        _ => 0,
    };
    cv.close(gdi);
    Ok(ok)
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        23,
        "ARC",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        arc,
    ),
    Api::new(
        "GDI",
        24,
        "ELLIPSE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        ellipse,
    ),
    Api::new(
        "GDI",
        26,
        "PIE",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        pie,
    ),
    Api::new(
        "GDI",
        27,
        "RECTANGLE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        rectangle,
    ),
    Api::new(
        "GDI",
        28,
        "ROUNDRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        round_rect,
    ),
    Api::new("GDI", 36, "POLYGON", &[Arg::W, Arg::L, Arg::W], polygon),
    Api::new("GDI", 40, "FILLRGN", &[Arg::W, Arg::W, Arg::W], fill_rgn),
    Api::new(
        "GDI",
        41,
        "FRAMERGN",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        frame_rgn,
    ),
    Api::new("GDI", 42, "INVERTRGN", &[Arg::W, Arg::W], invert_rgn),
    Api::new("GDI", 43, "PAINTRGN", &[Arg::W, Arg::W], paint_rgn),
    Api::new(
        "GDI",
        348,
        "CHORD",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        chord,
    ),
    Api::new(
        "GDI",
        450,
        "POLYPOLYGON",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        poly_polygon,
    ),
    Api::new("USER", 81, "FILLRECT", &[Arg::W, Arg::L, Arg::W], fill_rect),
    Api::new("USER", 82, "INVERTRECT", &[Arg::W, Arg::L], invert_rect),
    Api::new(
        "USER",
        83,
        "FRAMERECT",
        &[Arg::W, Arg::L, Arg::W],
        frame_rect,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn art(r: &Region, w: i32, h: i32) -> Vec<String> {
        (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| {
                        if r.contains(Point::new(x, y)) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn small_ellipses() {
        // A 5×5 circle: centre 2, radius 2; the midpoint rule gives what
        // the midpoint circle algorithm plots for r = 2: (0,2) (1,2) (2,1).
        assert_eq!(
            art(&ellipse_shape(Rect::new(0, 0, 5, 5), region_view()), 5, 5),
            [".###.", "#####", "#####", "#####", ".###."]
        );
        // 3×3: radius 1: corners at distance √2 are out.
        assert_eq!(
            art(&ellipse_shape(Rect::new(0, 0, 3, 3), region_view()), 3, 3),
            [".#.", "###", ".#."]
        );
        // An even box: the centre between pixels, the shape symmetric.
        assert_eq!(
            art(&ellipse_shape(Rect::new(0, 0, 6, 4), region_view()), 6, 4),
            [".####.", "######", "######", ".####."]
        );
        // A flat box is a line.
        assert_eq!(
            art(&ellipse_shape(Rect::new(0, 1, 4, 2), region_view()), 4, 3),
            ["....", "####", "...."]
        );
    }

    #[test]
    fn polygons_fill_by_the_half_open_rule() {
        let sq = vec![
            Point::new(1, 1),
            Point::new(4, 1),
            Point::new(4, 4),
            Point::new(1, 4),
        ];
        let lim = Rect::new(-10, -10, 10, 10);
        let r = polygon_shape(&[sq], false, lim);
        assert_eq!(r.rects().collect::<Vec<_>>(), [Rect::new(1, 1, 4, 4)]);
        // A triangle: row y has x from 0 to ceil(crossing).
        let tri = vec![Point::new(0, 0), Point::new(4, 4), Point::new(0, 4)];
        assert_eq!(
            art(&polygon_shape(&[tri], false, lim), 5, 5),
            [".....", "#....", "##...", "###..", "....."]
        );
        // Two nested squares: ALTERNATE leaves the hole, WINDING (same
        // direction) fills it.
        let outer = vec![
            Point::new(0, 0),
            Point::new(6, 0),
            Point::new(6, 6),
            Point::new(0, 6),
        ];
        let inner = vec![
            Point::new(2, 2),
            Point::new(4, 2),
            Point::new(4, 4),
            Point::new(2, 4),
        ];
        let alt = polygon_shape(&[outer.clone(), inner.clone()], false, lim);
        let win = polygon_shape(&[outer, inner], true, lim);
        assert!(!alt.contains(Point::new(3, 3)));
        assert!(win.contains(Point::new(3, 3)));
    }

    #[test]
    fn roundrect_corners() {
        assert_eq!(
            art(
                &roundrect_shape(Rect::new(0, 0, 7, 5), 5, 5, region_view()),
                7,
                5
            ),
            [".#####.", "#######", "#######", "#######", ".#####."]
        );
    }
}
