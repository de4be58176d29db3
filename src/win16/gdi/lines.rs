//! Lines: LineTo, Polyline, LineDDA, and the pen rules every outline
//! follows.
//!
//! **Which pixels a one-pixel line lights** (Bresenham, the VGA driver's
//! line code): the line from P0 to P1 steps along its major axis (x when
//! |dx| ≥ |dy|), one pixel per step, P0 included and P1 *excluded* (SDK,
//! LineTo: "the line is drawn up to, but not including, the end point"),
//! so consecutive segments of a polyline never light their joints twice.
//! The minor coordinate at step i is the start's plus
//! ⌊(2·i·|d_minor| + |d_major| − 1) / (2·|d_major|)⌋: the nearest pixel,
//! an exact tie staying on the start's side (Bresenham stepping only when
//! its error term is strictly positive). Which way Windows 3.1's drivers
//! broke ties is not documented; this rule is this implementation's.
//!
//! **Styled pens** (PS_DASH, PS_DOT, PS_DASHDOT, PS_DASHDOTDOT, one pixel
//! wide only) follow the VGA driver's style DDA: each pixel step costs 36
//! (X_MAJOR_DIST / Y_MAJOR_DIST) along an axis or 51 (HYPOTENUSE)
//! diagonally, and an 8-bit style mask advances one bit each 102
//! (MAX_STYLE_ERR = 2 × HYPOTENUSE) — about 2.8 pixels per bit along an
//! axis, 2 diagonally. The masks (most significant bit first) are dash
//! 11111100, dot 10101010, dash-dot 11100100, dash-dot-dot 11101010: Wine's
//! measured dash lengths of Windows' cosmetic pens (18-6, 3-3, 9-6-3-6,
//! 9-3-3-3-3-3 pixels) are these masks at 3 pixels a bit. The style runs
//! on along a Polyline and starts afresh with each call. The "off" pixels
//! are drawn in the background colour in OPAQUE mode and left alone in
//! TRANSPARENT mode.
//!
//! **Wide pens** (width > 1 in device pixels) light every pixel whose
//! centre lies within width/2 of the segment: round ends and round joins.
//! The width splits around the line as KB Q111600 reports for Windows 3.1:
//! an odd width is centred, an even width puts its extra pixel below and
//! right; odd widths from 7 put the extra pixel above and left (the bug
//! that article describes). A wide polyline is painted once as one region,
//! so a ROP2 such as R2_XORPEN never cancels its own overlaps.

use super::dc::{Canvas, PenSpec};
use super::raster::Paint;
use super::{Env, Stop, Uc, arg_h, arg_i, read_points};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region};

/// The style masks of PS_DASH … PS_DASHDOTDOT (index = style).
const STYLE_MASKS: [u8; 5] = [0xFF, 0xFC, 0xAA, 0xE4, 0xEA];
const AXIAL: i64 = 36;
const DIAGONAL: i64 = 51;
const STYLE_STEP: i64 = 102;

/// The minor-axis offset at step `i` of a line with extents `major` > 0
/// and `minor` ≥ 0 (module doc).
fn minor_at(i: i64, major: i64, minor: i64) -> i64 {
    (2 * i * minor + major - 1) / (2 * major)
}

/// Call `f(point, style_cost)` for each pixel of the one-pixel line from
/// `a` to `b` (`b` excluded) whose major coordinate lies within `limit`
/// (a bounding box: pixels outside it are skipped without iterating).
/// `style_cost` is the style distance travelled from `a`.
pub fn line_pixels(a: Point, b: Point, limit: Rect, mut f: impl FnMut(Point, i64)) {
    let (dx, dy) = (
        i64::from(b.x) - i64::from(a.x),
        i64::from(b.y) - i64::from(a.y),
    );
    let x_major = dx.abs() >= dy.abs();
    let (major, minor) = if x_major {
        (dx.abs(), dy.abs())
    } else {
        (dy.abs(), dx.abs())
    };
    if major == 0 {
        return;
    }
    let (smaj, smin) = if x_major {
        (dx.signum(), dy.signum())
    } else {
        (dy.signum(), dx.signum())
    };
    let (a_maj, lo, hi) = if x_major {
        (
            i64::from(a.x),
            i64::from(limit.left),
            i64::from(limit.right),
        )
    } else {
        (
            i64::from(a.y),
            i64::from(limit.top),
            i64::from(limit.bottom),
        )
    };
    // Steps i in 0..major with a_maj + i·smaj in [lo, hi).
    let (i0, i1) = if smaj > 0 {
        ((lo - a_maj).max(0), (hi - a_maj).min(major))
    } else {
        ((a_maj - hi + 1).max(0), (a_maj - lo + 1).min(major))
    };
    for i in i0..i1 {
        let m = minor_at(i, major, minor);
        let maj = a_maj + i * smaj;
        let mn = if x_major {
            i64::from(a.y)
        } else {
            i64::from(a.x)
        } + m * smin;
        let p = if x_major {
            Point::new(maj as i32, mn as i32)
        } else {
            Point::new(mn as i32, maj as i32)
        };
        let cost = i * AXIAL + m * (DIAGONAL - AXIAL);
        f(p, cost);
    }
}

/// The style cost of a whole segment (to carry the style along a
/// polyline).
fn segment_cost(a: Point, b: Point) -> i64 {
    let (dx, dy) = (
        (i64::from(b.x) - i64::from(a.x)).abs(),
        (i64::from(b.y) - i64::from(a.y)).abs(),
    );
    let (major, minor) = (dx.max(dy), dx.min(dy));
    major * AXIAL + minor * (DIAGONAL - AXIAL)
}

/// Is the style bit at distance `cost` on?
fn style_on(style: u16, cost: i64) -> bool {
    let mask = STYLE_MASKS[usize::from(style.min(4))];
    let bit = (cost / STYLE_STEP).rem_euclid(8);
    mask & (0x80 >> bit) != 0
}

/// How a width splits around a line: pixels before (above/left) and
/// after the centre pixel (KB Q111600).
pub fn width_split(w: i32) -> (i32, i32) {
    let before = if w % 2 == 1 && w >= 7 {
        (w + 1) / 2
    } else {
        (w - 1) / 2
    };
    (before, w - 1 - before)
}

/// The pixels within the wide pen of width `w` of segment a–b (module
/// doc), rows limited to `limit`.
pub fn wide_segment(a: Point, b: Point, w: i32, limit: Rect) -> Region {
    let (before, after) = width_split(w);
    // The centre moves by half the imbalance, towards the larger side.
    let shift = f64::from(after - before) / 2.0;
    let r = f64::from(w) / 2.0;
    let (ax, ay) = (f64::from(a.x) + shift, f64::from(a.y) + shift);
    let (bx, by) = (f64::from(b.x) + shift, f64::from(b.y) + shift);
    let y0 = ((ay.min(by) - r).floor() as i64).max(i64::from(limit.top));
    let y1 = ((ay.max(by) + r).ceil() as i64 + 1).min(i64::from(limit.bottom));
    let (dx, dy) = (bx - ax, by - ay);
    let l2 = dx * dx + dy * dy;
    let len = l2.sqrt();
    let mut rows = Vec::new();
    for y in y0..y1 {
        let yf = y as f64;
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for (cx, cy) in [(ax, ay), (bx, by)] {
            let d = yf - cy;
            if d.abs() < r {
                let s = (r * r - d * d).sqrt();
                lo = lo.min(cx - s);
                hi = hi.max(cx + s);
            }
        }
        if l2 > 0.0 {
            // The band: |cross(d, p − a)| < r·len and 0 ≤ (p − a)·d ≤ l2.
            let (mut bl, mut bh) = (f64::NEG_INFINITY, f64::INFINITY);
            let c0 = dx * (yf - ay);
            // cross = c0 − dy·(x − ax)
            if dy.abs() < 1e-12 {
                if c0.abs() >= r * len {
                    bl = f64::INFINITY;
                }
            } else {
                let x1 = ax + (c0 - r * len) / dy;
                let x2 = ax + (c0 + r * len) / dy;
                bl = bl.max(x1.min(x2));
                bh = bh.min(x1.max(x2));
            }
            let d0 = dy * (yf - ay);
            // dot = dx·(x − ax) + d0 in [0, l2]
            if dx.abs() < 1e-12 {
                if d0 < 0.0 || d0 > l2 {
                    bl = f64::INFINITY;
                }
            } else {
                let x1 = ax - d0 / dx;
                let x2 = ax + (l2 - d0) / dx;
                bl = bl.max(x1.min(x2));
                bh = bh.min(x1.max(x2));
            }
            if bl < bh {
                lo = lo.min(bl);
                hi = hi.max(bh);
            }
        }
        if lo < hi {
            // Pixel centres strictly inside.
            let xl = (lo.floor() as i64 + 1).max(i64::from(limit.left));
            let xr = (hi.ceil() as i64).min(i64::from(limit.right));
            if xl < xr {
                rows.push((y as i32, vec![(xl as i32, xr as i32)]));
            }
        }
    }
    Region::from_rows(rows)
}

/// Draw a polyline (surface coordinates) with the canvas's pen. `closed`
/// joins the last point to the first.
pub fn draw_polyline(cv: &mut Canvas, pts: &[Point], closed: bool) {
    let Some(pen) = cv.pen.clone() else {
        return;
    };
    stroke(cv, &pen, pts, closed);
}

/// Stroke a polyline with a given pen.
pub fn stroke(cv: &mut Canvas, pen: &PenSpec, pts: &[Point], closed: bool) {
    if pts.is_empty() {
        return;
    }
    let mut path: Vec<Point> = pts.to_vec();
    if closed && pts.len() > 1 {
        path.push(pts[0]);
    }
    let limit = cv.clip.bbox();
    if limit.is_empty() {
        return;
    }
    if pen.width > 1 {
        let grow = pen.width + 1;
        let lim = limit.inflate(grow, grow);
        let mut area = Region::empty();
        if path.len() == 1 {
            area = wide_segment(path[0], path[0], pen.width, lim);
        }
        for w in path.windows(2) {
            area = area.union(&wide_segment(w[0], w[1], pen.width, lim));
        }
        cv.fill_region(&area, &pen.paint);
        return;
    }
    let styled = (1..=4).contains(&pen.style);
    let mut travelled = 0i64;
    for w in path.windows(2) {
        let (paint, gap) = (&pen.paint, pen.gap.as_ref());
        let mut plots: Vec<(Point, bool)> = Vec::new();
        line_pixels(w[0], w[1], limit, |p, cost| {
            let on = !styled || style_on(pen.style, travelled + cost);
            plots.push((p, on));
        });
        for (p, on) in plots {
            if on {
                cv.plot(p.x, p.y, paint);
            } else if let Some(g) = gap {
                cv.plot(p.x, p.y, g);
            }
        }
        travelled += segment_cost(w[0], w[1]);
    }
}

/// Draw a line segment with a solid paint, one pixel wide (for shapes'
/// outlines: chords and pie radii).
pub fn plot_line(cv: &mut Canvas, a: Point, b: Point, paint: &Paint) {
    let limit = cv.clip.bbox();
    let mut pts = Vec::new();
    line_pixels(a, b, limit, |p, _| pts.push(p));
    for p in pts {
        cv.plot(p.x, p.y, paint);
    }
}

/// GDI.19 LineTo(hDC, x, y) -> BOOL: from the current position to (x, y),
/// which becomes the current position.
pub fn line_to(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let to = Point::new(arg_i(a[1]), arg_i(a[2]));
    let gdi = &mut env.win16.gdi;
    let Some(d) = gdi.dc_mut(hdc) else {
        return Ok(0);
    };
    let from = d.state.pos;
    d.state.pos = to;
    if let Some(mut cv) = super::dc::Canvas::open(gdi, hdc) {
        let pts = [cv.lp_to_sp(from), cv.lp_to_sp(to)];
        draw_polyline(&mut cv, &pts, false);
        cv.close(gdi);
    }
    Ok(1)
}

/// GDI.37 Polyline(hDC, lpPoints, nCount) -> BOOL (the current position
/// is neither used nor changed).
fn polyline(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let n = arg_i(a[2]);
    if n < 2 {
        return Ok(0);
    }
    let Some(pts) = read_points(uc, a[1], n as usize) else {
        return Ok(0);
    };
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = super::dc::Canvas::open(gdi, hdc) else {
        return Ok(u32::from(gdi.dc_mut(hdc).is_some()));
    };
    let sp: Vec<Point> = pts.iter().map(|&p| cv.lp_to_sp(p)).collect();
    draw_polyline(&mut cv, &sp, false);
    cv.close(gdi);
    Ok(1)
}

/// GDI.100 LineDDA(nXStart, nYStart, nXEnd, nYEnd, lpLineFunc, lpData):
/// calls LineFunc(x, y, lpData) for each point of the line as LineTo would
/// light it (the end point excluded), through the program's callback.
fn line_dda(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::callback::{CallArg, call_far};
    let p0 = Point::new(arg_i(a[0]), arg_i(a[1]));
    let p1 = Point::new(arg_i(a[2]), arg_i(a[3]));
    let func = crate::win16::farptr::split(a[4]);
    let data = a[5];
    let mut pts = Vec::new();
    let all = Rect::new(-0x8000, -0x8000, 0x8000, 0x8000);
    line_pixels(p0, p1, all, |p, _| pts.push(p));
    let cs = env
        .win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI's thunk segment is missing".into()))?;
    let ds = crate::machine::Cpu::reg(uc, crate::machine::R::DS);
    for p in pts {
        call_far(
            env,
            uc,
            cs,
            func,
            ds,
            &[],
            &[
                CallArg::W(p.x as u16),
                CallArg::W(p.y as u16),
                CallArg::L(data),
            ],
        )?;
    }
    Ok(0)
}

pub static APIS: &[Api] = &[
    Api::new("GDI", 19, "LINETO", &[Arg::W, Arg::W, Arg::W], line_to),
    Api::new("GDI", 37, "POLYLINE", &[Arg::W, Arg::L, Arg::W], polyline),
    Api::new(
        "GDI",
        100,
        "LINEDDA",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        line_dda,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(a: Point, b: Point) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        line_pixels(a, b, Rect::new(-100, -100, 100, 100), |p, _| {
            v.push((p.x, p.y))
        });
        v
    }

    #[test]
    fn lines_exclude_their_end_and_break_ties_toward_the_start() {
        assert_eq!(
            pixels(Point::new(0, 0), Point::new(4, 0)),
            [(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        // dy/dx = 1/4: the tie at x = 2 (y = 0.5) stays at y = 0.
        assert_eq!(
            pixels(Point::new(0, 0), Point::new(4, 1)),
            [(0, 0), (1, 0), (2, 0), (3, 1)]
        );
        // Drawn the other way the tie stays on that start's side.
        assert_eq!(
            pixels(Point::new(4, 1), Point::new(0, 0)),
            [(4, 1), (3, 1), (2, 1), (1, 0)]
        );
        // Diagonal and y-major.
        assert_eq!(
            pixels(Point::new(0, 0), Point::new(3, 3)),
            [(0, 0), (1, 1), (2, 2)]
        );
        assert_eq!(
            pixels(Point::new(0, 0), Point::new(1, 3)),
            [(0, 0), (0, 1), (1, 2)]
        );
        assert!(pixels(Point::new(5, 5), Point::new(5, 5)).is_empty());
        // Clipping the range skips without changing the pixels.
        let mut v = Vec::new();
        line_pixels(
            Point::new(-1000, 0),
            Point::new(1000, 20),
            Rect::new(0, 0, 5, 40),
            |p, _| v.push((p.x, p.y)),
        );
        let full: Vec<(i32, i32)> = {
            let mut w = Vec::new();
            line_pixels(
                Point::new(-1000, 0),
                Point::new(1000, 20),
                Rect::new(-2000, -2000, 2000, 2000),
                |p, _| w.push((p.x, p.y)),
            );
            w.into_iter().filter(|p| (0..5).contains(&p.0)).collect()
        };
        assert_eq!(v, full);
    }

    #[test]
    fn styles_follow_the_mask_at_102_units_a_bit() {
        // Horizontal dash: bits 0..6 on (6 bits), each 102/36 ≈ 2.8 px:
        // pixels 0..=16 on (cost 0..576 < 612), 17..=22 off, 23 on again.
        let on: Vec<bool> = (0..24).map(|i| style_on(1, i * AXIAL)).collect();
        assert!(on[..17].iter().all(|&b| b));
        assert!(on[17..23].iter().all(|&b| !b));
        assert!(on[23]);
        // Dots: on for 3 pixels (0, 36, 72), off for the next 3 (108,
        // 144, 180), on again from 216.
        assert_eq!(
            (0..7).map(|i| style_on(2, i * AXIAL)).collect::<Vec<_>>(),
            [true, true, true, false, false, false, true]
        );
        // Diagonally a bit is exactly two pixels (51 each).
        assert_eq!(
            (0..5)
                .map(|i| style_on(2, i * DIAGONAL))
                .collect::<Vec<_>>(),
            [true, true, false, false, true]
        );
    }

    #[test]
    fn wide_pens_split_as_kb_q111600_says() {
        assert_eq!(width_split(3), (1, 1));
        assert_eq!(width_split(5), (2, 2));
        assert_eq!(width_split(4), (1, 2));
        assert_eq!(width_split(7), (4, 2));
        let lim = Rect::new(-50, -50, 50, 50);
        // A horizontal 5-wide line at y = 20 covers rows 18..=22.
        let r = wide_segment(Point::new(0, 20), Point::new(10, 20), 5, lim);
        assert_eq!(r.bbox().top, 18);
        assert_eq!(r.bbox().bottom, 23);
        // Width 7: rows 16..=22 (4 above, 2 below).
        let r = wide_segment(Point::new(0, 20), Point::new(10, 20), 7, lim);
        assert_eq!((r.bbox().top, r.bbox().bottom), (16, 23));
        // Round ends: the end rows are shorter than the middle.
        let r = wide_segment(Point::new(0, 0), Point::new(10, 0), 5, lim);
        assert_eq!(r.row(0), &[(-2, 13)]);
        assert_eq!(r.row(2), &[(-1, 12)]);
    }
}
