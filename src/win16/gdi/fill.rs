//! Single pixels and flood fills: SetPixel, GetPixel, FloodFill,
//! ExtFloodFill.
//!
//! SetPixel paints one pixel with the colour the device shows for crColor
//! (matched as a pen's colour), under the DC's ROP2 (as Wine's DIB driver
//! does), and returns that colour; outside the clip it returns −1.
//! GetPixel returns a pixel's colour, or CLR_INVALID (−1) outside.
//!
//! FloodFill(x, y, crColor) fills, with the DC's brush, the area
//! 4-connected to (x, y) whose pixels are not crColor's device colour
//! (FLOODFILLBORDER); ExtFloodFill with FLOODFILLSURFACE fills the area of
//! pixels that are (SDK, ExtFloodFill). Colours compare as device pixels.
//! The fill stays inside the clip region; it fails (FALSE) when (x, y) is
//! outside it or the start pixel already stops the fill. The area is
//! painted once, as one region.

use super::dc::Canvas;
use super::{Env, Stop, Uc, arg_h, arg_i};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Region};

/// GDI.31 SetPixel(hDC, x, y, crColor) -> the colour set, −1 outside.
fn set_pixel(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(u32::MAX);
    };
    let p = cv.lp_to_sp(Point::new(arg_i(a[1]), arg_i(a[2])));
    let r = if cv.clip.contains(p) {
        let paint = cv.solid_paint(a[3]);
        let shown = cv.colors().to_rgb(paint.pattern[0]);
        cv.plot(p.x, p.y, &paint);
        shown
    } else {
        u32::MAX
    };
    cv.close(gdi);
    Ok(r)
}

/// GDI.83 GetPixel(hDC, x, y) -> COLORREF, −1 outside the clip.
fn get_pixel(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let Some(cv) = Canvas::open(gdi, arg_h(a[0])) else {
        return Ok(u32::MAX);
    };
    let p = cv.lp_to_sp(Point::new(arg_i(a[1]), arg_i(a[2])));
    let r = if cv.clip.contains(p) {
        cv.surf
            .get(p.x, p.y)
            .map_or(u32::MAX, |v| cv.colors().to_rgb(v))
    } else {
        u32::MAX
    };
    cv.close(gdi);
    Ok(r)
}

/// The area a flood fill from `start` covers: 4-connected pixels inside
/// `clip` for which `inside(pixel)` holds.
pub fn flood(
    s: &super::surface::Surface,
    clip: &Region,
    start: Point,
    inside: impl Fn(u32) -> bool,
) -> Region {
    let w = s.width;
    let mut seen = vec![false; s.px.len()];
    let ok = |x: i32, y: i32, seen: &[bool]| -> bool {
        s.contains(x, y)
            && !seen[(y * w + x) as usize]
            && clip.contains(Point::new(x, y))
            && inside(s.get(x, y).unwrap_or(0))
    };
    let mut rows: Vec<(i32, Vec<(i32, i32)>)> = Vec::new();
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        if !ok(p.x, p.y, &seen) {
            continue;
        }
        // Extend the run left and right.
        let (mut l, mut r) = (p.x, p.x);
        while ok(l - 1, p.y, &seen) {
            l -= 1;
        }
        while ok(r + 1, p.y, &seen) {
            r += 1;
        }
        for x in l..=r {
            seen[(p.y * w + x) as usize] = true;
        }
        rows.push((p.y, vec![(l, r + 1)]));
        for ny in [p.y - 1, p.y + 1] {
            let mut x = l;
            while x <= r {
                if ok(x, ny, &seen) {
                    stack.push(Point::new(x, ny));
                    while x <= r && ok(x, ny, &seen) {
                        x += 1;
                    }
                }
                x += 1;
            }
        }
    }
    Region::from_rows(rows)
}

fn ext_flood(env: &mut Env, hdc: u16, x: i32, y: i32, color: u32, surface: bool) -> u32 {
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return 0;
    };
    let p = cv.lp_to_sp(Point::new(x, y));
    let target = cv.colors().solid(color);
    let inside = move |v: u32| (v == target) == surface;
    let ok = cv.clip.contains(p) && cv.surf.get(p.x, p.y).is_some_and(inside);
    if ok {
        let area = flood(&cv.surf, &cv.clip, p, inside);
        if let Some(b) = cv.brush.clone() {
            cv.fill_region(&area, &b);
        }
    }
    cv.close(gdi);
    u32::from(ok)
}

/// GDI.25 FloodFill(hDC, x, y, crColor) -> BOOL.
fn flood_fill(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(ext_flood(
        env,
        arg_h(a[0]),
        arg_i(a[1]),
        arg_i(a[2]),
        a[3],
        false,
    ))
}

/// GDI.372 ExtFloodFill(hDC, x, y, crColor, fuFillType) -> BOOL.
fn ext_flood_fill(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(ext_flood(
        env,
        arg_h(a[0]),
        arg_i(a[1]),
        arg_i(a[2]),
        a[3],
        a[4] as u16 == 1,
    ))
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        25,
        "FLOODFILL",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        flood_fill,
    ),
    Api::new(
        "GDI",
        31,
        "SETPIXEL",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_pixel,
    ),
    Api::new("GDI", 83, "GETPIXEL", &[Arg::W, Arg::W, Arg::W], get_pixel),
    Api::new(
        "GDI",
        372,
        "EXTFLOODFILL",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::W],
        ext_flood_fill,
    ),
];
