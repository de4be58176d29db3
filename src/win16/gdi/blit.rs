//! Block transfers: PatBlt, BitBlt, StretchBlt, and the DIB calls
//! (SetDIBits, GetDIBits, CreateDIBitmap, SetDIBitsToDevice,
//! StretchDIBits).
//!
//! Every pixel of the destination rectangle (inside the clip) becomes
//! ROP3(P, S, D) (raster.rs): P the DC's brush pattern, S the source
//! pixel, D the destination pixel. An operation that uses the pattern with
//! a null brush draws nothing (the VGA driver aborts on hollow brushes).
//!
//! **Colour conversion** of the source (KB Q41464, "Background Colors
//! Affect BitBlt() from Mono to Color"): a monochrome source drawn on a
//! colour surface gives its 1 (white) bits the destination DC's background
//! colour and its 0 bits the destination's text colour; a colour source
//! drawn on a monochrome surface gives white (1) to the pixels equal to the
//! source DC's background colour and black to all others. Between colour
//! formats pixels go through their RGB.
//!
//! **Stretching** (StretchBlt, or BitBlt whose source and destination
//! extents differ in device units): destination column i takes the source
//! columns from ⌊i·ws/wd⌋ up to ⌊(i+1)·ws/wd⌋ (at least one), rows alike;
//! opposite signs of the extents mirror. Several source pixels falling on
//! one destination pixel are merged by the stretch mode: BLACKONWHITE ANDs
//! them (black survives on white), WHITEONBLACK ORs them, COLORONCOLOR
//! keeps the first.
//!
//! **DIBs**: their colours are matched to the device's as solid colours
//! (color.rs); their rows are stored bottom-up, so DIB row r (from the
//! bottom) is bitmap row height − 1 − r. SetDIBitsToDevice draws the DIB
//! rows [ySrc, ySrc + cy) of the band given (uStartScan, cScanLines) with
//! the lowest at the bottom of the destination rectangle; StretchDIBits'
//! source rectangle counts ySrc up from the DIB's bottom row.

use super::bitmap::{self, DibHeader, decode_dib, read_dib_header};
use super::brush::convert_pixel;
use super::color::{Colors, VGA_COLORS, nearest_in, pixel_rgb};
use super::dc::{Canvas, DcKind, Loc};
use super::raster::{Paint, rop3, rop3_uses};
use super::surface::{Format, Surface};
use super::{Env, Gdi, Stop, Uc, arg_h, arg_i, read_huge, write_huge, write_struct};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect};

pub const BLACKONWHITE: u16 = 1;
pub const WHITEONBLACK: u16 = 2;

/// A block of source pixels, already in the destination's format.
pub struct Source {
    pub w: i32,
    pub h: i32,
    pub px: Vec<u32>,
    /// The source's format before conversion (for merging when shrinking).
    pub raw: Vec<u32>,
}

/// Where DC `hdc`'s pixels are, and its origin and surface rectangle.
fn dc_loc(gdi: &mut Gdi, hdc: u16) -> Option<(Loc, Point)> {
    let d = gdi.dc_mut(hdc)?;
    let loc = match d.kind {
        DcKind::Info => return None,
        DcKind::Window | DcKind::Display => Loc::Screen,
        DcKind::Memory => Loc::Bitmap(d.state.bitmap),
        DcKind::Printer => Loc::Page(hdc),
    };
    Some((loc, d.origin))
}

/// The source of a transfer: its rectangle (`w`×`h`), of which the part
/// inside the source surface is copied (the rest reads as nothing).
pub struct SrcPixels {
    w: i32,
    h: i32,
    /// The copied part, relative to the rectangle's corner.
    avail: Rect,
    data: Vec<u32>,
    fmt: Format,
    /// The source DC's background colour as a source pixel.
    bk: u32,
}

impl SrcPixels {
    /// Rectangle `r` (surface coordinates) of `s`.
    fn from_surface(s: &Surface, r: Rect) -> SrcPixels {
        let inside = r
            .intersect(&Rect::new(0, 0, s.width, s.height))
            .unwrap_or_default();
        let mut data =
            Vec::with_capacity((inside.width().max(0) * inside.height().max(0)) as usize);
        for y in inside.top..inside.bottom {
            data.extend_from_slice(&s.row(y)[inside.left as usize..inside.right as usize]);
        }
        SrcPixels {
            w: r.width(),
            h: r.height(),
            avail: inside.offset(-r.left, -r.top),
            data,
            fmt: s.format,
            bk: 0,
        }
    }

    /// The pixel at (x, y) of the rectangle.
    fn get(&self, x: i32, y: i32) -> Option<u32> {
        let a = &self.avail;
        (x >= a.left && x < a.right && y >= a.top && y < a.bottom)
            .then(|| self.data[((y - a.top) * a.width() + (x - a.left)) as usize])
    }
}

/// Copy rectangle `r` (surface coordinates) of the pixels at `loc`, or of
/// `cv`'s surface when it is the same.
fn read_pixels(gdi: &mut Gdi, cv: &Canvas, loc: Loc, r: Rect) -> SrcPixels {
    if loc == cv.loc {
        return SrcPixels::from_surface(&cv.surf, r);
    }
    match loc {
        Loc::Screen => {
            let s = gdi.take_screen();
            let out = SrcPixels::from_surface(&s, r);
            gdi.put_screen(s);
            out
        }
        Loc::Bitmap(h) => match gdi.objects.bitmap(h) {
            Some(b) => SrcPixels::from_surface(&b.surface, r),
            None => SrcPixels::from_surface(&empty(), r),
        },
        Loc::Page(h) => match gdi.dc_mut(h).and_then(|d| d.page.as_ref()) {
            Some(p) => SrcPixels::from_surface(p, r),
            None => {
                // A page nothing drew on is white.
                let (w, hh) = super::devcaps::PRINTER_PAGE;
                let inside = r.intersect(&Rect::new(0, 0, w, hh)).unwrap_or_default();
                SrcPixels {
                    w: r.width(),
                    h: r.height(),
                    avail: inside.offset(-r.left, -r.top),
                    data: vec![1; (inside.width().max(0) * inside.height().max(0)) as usize],
                    fmt: Format::Mono,
                    bk: 0,
                }
            }
        },
    }
}

fn empty() -> Surface {
    Surface {
        width: 0,
        height: 0,
        format: Format::Mono,
        px: Vec::new(),
    }
}

/// How source pixels become the canvas's (module doc): worked out once
/// per transfer.
enum Converter {
    Same,
    /// A monochrome source: (0 → text colour, 1 → background colour).
    FromMono(u32, u32),
    /// Onto a monochrome surface: the source background pixel is white.
    ToMono(u32),
    /// Through a table (sources of 16 or 256 colours).
    Table(Vec<u32>),
    /// A true-colour source: each colour matched (remembered).
    Matched(std::collections::HashMap<u32, u32>, Format),
}

impl Converter {
    fn new(cv: &Canvas, from: Format, src_bk: u32) -> Converter {
        let to = cv.surf.format;
        if from == to {
            return Converter::Same;
        }
        let colors = cv.colors();
        if from == Format::Mono {
            return Converter::FromMono(
                colors.solid(cv.state.text_color),
                colors.solid(cv.state.bk_color),
            );
        }
        if to == Format::Mono {
            return Converter::ToMono(src_bk);
        }
        match from {
            Format::Vga16 | Format::Pal8 => Converter::Table(
                (0..=from.mask())
                    .map(|v| convert_pixel(from, v, &colors))
                    .collect(),
            ),
            _ => Converter::Matched(std::collections::HashMap::new(), from),
        }
    }

    fn convert(&mut self, cv: &Canvas, v: u32) -> u32 {
        match self {
            Converter::Same => v,
            Converter::FromMono(t, b) => {
                if v & 1 != 0 {
                    *b
                } else {
                    *t
                }
            }
            Converter::ToMono(bk) => u32::from(v == *bk),
            Converter::Table(t) => t[v as usize & (t.len() - 1)],
            Converter::Matched(cache, from) => {
                let from = *from;
                *cache
                    .entry(v)
                    .or_insert_with(|| convert_pixel(from, v, &cv.colors()))
            }
        }
    }
}

/// The ROP2 mode of a ternary operation that does not read the source.
fn rop2_of(rop: u8) -> u16 {
    let mut t = 0u16;
    for (k, (p, d)) in [(0u8, 0u8), (0, 1), (1, 0), (1, 1)].into_iter().enumerate() {
        if rop >> ((p << 2) | d) & 1 != 0 {
            t |= 1 << k;
        }
    }
    t + 1
}

/// The per-axis source ranges of a stretch: for each destination index,
/// (first, count) of source indices, mirrored when `mirror`.
fn axis_map(src_len: i32, dst_len: i32, mirror: bool) -> Vec<(i32, i32)> {
    let (s, d) = (i64::from(src_len), i64::from(dst_len));
    (0..d)
        .map(|i| {
            let a = i * s / d;
            let b = ((i + 1) * s / d).max(a + 1);
            let (a, b) = (a as i32, b as i32);
            if mirror {
                (src_len - b, b - a)
            } else {
                (a, b - a)
            }
        })
        .collect()
}

/// The transfer: destination `dst` (surface coordinates of the canvas)
/// from source pixels `src`, stretched as needed, with `rop`. `mirror`
/// flips the source horizontally, vertically.
fn transfer(
    cv: &mut Canvas,
    dst: Rect,
    src: Option<&SrcPixels>,
    mirror: (bool, bool),
    rop: u8,
    stretch_mode: u16,
) {
    let (uses_p, uses_s, _) = rop3_uses(rop);
    if uses_p && cv.brush.is_none() {
        return;
    }
    if !uses_s {
        // Pattern and destination only: a ROP2 fill.
        let r2 = rop2_of(rop);
        let paint = match (&cv.brush, uses_p) {
            (Some(b), true) => Paint {
                rop2: r2,
                ..b.clone()
            },
            _ => Paint::solid(0, r2),
        };
        cv.fill_region(&crate::win16::geom::Region::rect(dst), &paint);
        return;
    }
    let Some(src) = src else {
        return;
    };
    let (w, h) = (src.w, src.h);
    if w <= 0 || h <= 0 {
        return;
    }
    let brush: Option<Paint> = if uses_p { cv.brush.clone() } else { None };
    let mask = cv.surf.format.mask();
    let mut conv = Converter::new(cv, src.fmt, src.bk);
    let clip = cv.clip.intersect(&crate::win16::geom::Region::rect(dst));
    let rects: Vec<Rect> = clip.rects().collect();
    cv.touch(clip.bbox());
    let plain = w == dst.width() && h == dst.height() && !mirror.0 && !mirror.1;
    let (xmap, ymap) = if plain {
        (Vec::new(), Vec::new())
    } else {
        (
            axis_map(w, dst.width(), mirror.0),
            axis_map(h, dst.height(), mirror.1),
        )
    };
    let merge = stretch_mode == BLACKONWHITE || stretch_mode == WHITEONBLACK;
    let combine = |a: Option<u32>, v: u32| match a {
        None => v,
        Some(a) if stretch_mode == BLACKONWHITE => a & v,
        Some(a) => a | v,
    };
    // A stretched source row: the rows `sy..sy+ny` merged per the stretch
    // mode (only their first with COLORONCOLOR), over the copied columns.
    let av = src.avail;
    let mut merged: Vec<Option<u32>> = vec![None; av.width().max(0) as usize];
    let mut merged_for: Option<(i32, i32)> = None;
    for r in rects {
        for y in r.top..r.bottom {
            if !plain {
                let (sy, ny) = ymap[(y - dst.top) as usize];
                if merged_for != Some((sy, ny)) {
                    merged_for = Some((sy, ny));
                    merged.iter_mut().for_each(|m| *m = None);
                    let rows = sy.max(av.top)..(sy + if merge { ny } else { 1 }).min(av.bottom);
                    for yy in rows {
                        for (k, m) in merged.iter_mut().enumerate() {
                            if let Some(v) = src.get(av.left + k as i32, yy) {
                                *m = Some(combine(*m, v));
                            }
                        }
                    }
                }
            }
            for x in r.left..r.right {
                let v = if plain {
                    src.get(x - dst.left, y - dst.top)
                } else {
                    let (sx, nx) = xmap[(x - dst.left) as usize];
                    let cols = sx.max(av.left)..(sx + if merge { nx } else { 1 }).min(av.right);
                    let mut acc = None;
                    for xx in cols {
                        if let Some(v) = merged[(xx - av.left) as usize] {
                            acc = Some(combine(acc, v));
                        }
                    }
                    acc
                };
                let Some(v) = v else {
                    continue;
                };
                let s = conv.convert(cv, v);
                let p = brush.as_ref().and_then(|b| b.at(x, y)).unwrap_or(0);
                let row = cv.surf.row_mut(y);
                let d = &mut row[x as usize];
                *d = rop3(rop, p & mask, s & mask, *d, mask);
            }
        }
    }
}

/// Logical rectangle (x, y, w, h) of a DC → surface rectangle, and whether
/// the mapping mirrored it (negative device extent).
fn map_rect(cv: &Canvas, x: i32, y: i32, w: i32, h: i32) -> (Rect, bool, bool) {
    let p = cv.lp_to_sp(Point::new(x, y));
    let q = cv.lp_to_sp(Point::new(x + w, y + h));
    let r = Rect::new(p.x, p.y, q.x, q.y);
    (r.normalized(), q.x < p.x, q.y < p.y)
}

/// BitBlt and StretchBlt.
#[allow(clippy::too_many_arguments)]
fn stretch(
    gdi: &mut Gdi,
    hdc: u16,
    d: (i32, i32, i32, i32),
    hsrc: u16,
    s: (i32, i32, i32, i32),
    rop: u32,
    force_stretch: bool,
) -> bool {
    let rop = (rop >> 16) as u8;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return gdi.dc_mut(hdc).is_some();
    };
    let (dst, fx, fy) = map_rect(&cv, d.0, d.1, d.2, d.3);
    let (_, uses_s, _) = rop3_uses(rop);
    let mode = cv.state.stretch_mode;
    if !uses_s {
        transfer(&mut cv, dst, None, (false, false), rop, mode);
        cv.close(gdi);
        return true;
    }
    let Some((loc, sorg)) = dc_loc(gdi, hsrc) else {
        cv.close(gdi);
        return false;
    };
    let (src_map, src_bk, src_vga, src_pal) = {
        let sd = gdi.dc_mut(hsrc).expect("dc_loc found it");
        (
            sd.state.map,
            sd.state.bk_color,
            sd.is_vga(),
            sd.state.palette,
        )
    };
    let sp = src_map.lp_to_dp(Point::new(s.0, s.1));
    let sq = src_map.lp_to_dp(Point::new(s.0 + s.2, s.1 + s.3));
    let srect = Rect::new(sp.x + sorg.x, sp.y + sorg.y, sq.x + sorg.x, sq.y + sorg.y);
    let (sx_flip, sy_flip) = (srect.right < srect.left, srect.bottom < srect.top);
    let srect = srect.normalized();
    let mut px = read_pixels(gdi, &cv, loc, srect);
    let fmt = px.fmt;
    // The source DC's background colour as a source pixel.
    px.bk = {
        let syspal = gdi.syspal;
        let logpal = gdi.objects.palette(src_pal).cloned();
        Colors {
            vga: src_vga,
            format: fmt,
            syspal: &syspal,
            logpal: logpal.as_ref(),
        }
        .solid(src_bk)
    };
    let mirror = (fx != sx_flip, fy != sy_flip);
    let _ = force_stretch;
    transfer(&mut cv, dst, Some(&px), mirror, rop, mode);
    cv.close(gdi);
    true
}

/// GDI.29 PatBlt(hDC, x, y, nWidth, nHeight, dwRop) -> BOOL.
pub fn pat_blt(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let rop = (a[5] >> 16) as u8;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return Ok(u32::from(gdi.dc_mut(hdc).is_some()));
    };
    let (dst, _, _) = map_rect(&cv, arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4]));
    let mode = cv.state.stretch_mode;
    transfer(&mut cv, dst, None, (false, false), rop, mode);
    cv.close(gdi);
    Ok(1)
}

/// GDI.400 FastWindowFrame(hDC, lprc, xWidth, yWidth, dwRop) -> BOOL: the
/// frame USER draws while a window is moved or sized: four PatBlts with
/// the DC's brush, `xWidth` wide at the sides and `yWidth` high at the top
/// and bottom, laid around the rectangle like a pinwheel so that no pixel
/// is painted twice (an XOR frame drawn again vanishes). FALSE when the
/// DC or the rectangle cannot be read.
fn fast_window_frame(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = crate::win16::farptr::read_bytes(uc, a[1], 8) else {
        return Ok(0);
    };
    let v = |i: usize| i32::from(i16::from_le_bytes([r[i], r[i + 1]]));
    let (l, t, rt, b) = (v(0), v(2), v(4), v(6));
    let (xw, yw) = (arg_i(a[2]), arg_i(a[3]));
    let (w, h) = (rt - l, b - t);
    if env.win16.gdi.dc_mut(arg_h(a[0])).is_none() {
        return Ok(0);
    }
    let parts = [
        (l, t, w - xw, yw),
        (rt - xw, t, xw, h - yw),
        (l + xw, b - yw, w - xw, yw),
        (l, t + yw, xw, h - yw),
    ];
    let u = |x: i32| x as i16 as u16 as u32;
    for (x, y, cx, cy) in parts {
        pat_blt(env, uc, &[a[0], u(x), u(y), u(cx), u(cy), a[4]])?;
    }
    Ok(1)
}

/// GDI.34 BitBlt(hdcDest, x, y, nWidth, nHeight, hdcSrc, xSrc, ySrc,
/// dwRop) -> BOOL.
pub fn bit_blt(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (w, h) = (arg_i(a[3]), arg_i(a[4]));
    Ok(u32::from(stretch(
        &mut env.win16.gdi,
        arg_h(a[0]),
        (arg_i(a[1]), arg_i(a[2]), w, h),
        arg_h(a[5]),
        (arg_i(a[6]), arg_i(a[7]), w, h),
        a[8],
        false,
    )))
}

/// GDI.35 StretchBlt(hdcDest, x, y, nWidth, nHeight, hdcSrc, xSrc, ySrc,
/// nWidthSrc, nHeightSrc, dwRop) -> BOOL.
fn stretch_blt(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(stretch(
        &mut env.win16.gdi,
        arg_h(a[0]),
        (arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4])),
        arg_h(a[5]),
        (arg_i(a[6]), arg_i(a[7]), arg_i(a[8]), arg_i(a[9])),
        a[10],
        true,
    )))
}

/// The colour of a DIB pixel value: a COLORREF, or a PALETTEINDEX for
/// DIB_PAL_COLORS tables.
fn dib_color(h: &DibHeader, indexed: bool, v: u32) -> u32 {
    if !indexed {
        return v;
    }
    let c = h.colors.get(v as usize).copied().unwrap_or(0);
    if h.usage == bitmap::DIB_PAL_COLORS {
        0x0100_0000 | (c & 0xFFFF)
    } else {
        c
    }
}

/// Read the DIB header (with table) at `pbmi` and `lines` scan lines of
/// bits at `pbits` starting at `start`.
fn read_dib(
    uc: &Uc<'_>,
    pbmi: u32,
    pbits: u32,
    usage: u16,
    start: u32,
    lines: u32,
) -> Option<(DibHeader, bitmap::DibPixels)> {
    let h = read_dib_header(uc, pbmi, usage)?;
    let total = h.height as u32;
    let start = start.min(total);
    let lines = lines.min(total - start);
    let bytes = if h.compression == bitmap::BI_RGB {
        read_huge(uc, pbits, h.stride() * lines as usize)?
    } else {
        let n = if h.size_image != 0 {
            h.size_image as usize
        } else {
            h.image_size()
        };
        read_huge(uc, pbits, n.min(16 << 20))?
    };
    let px = decode_dib(&h, &bytes, start, lines).ok()?;
    Some((h, px))
}

/// Colours for a bitmap's surface as seen from DC `hdc`.
fn bitmap_colors_of(
    gdi: &mut Gdi,
    hdc: u16,
    fmt: Format,
) -> (bool, Option<super::palette::Palette>) {
    match gdi.dc_mut(hdc) {
        Some(d) => {
            let (vga, pal) = (d.is_vga(), d.state.palette);
            (vga, gdi.objects.palette(pal).cloned())
        }
        None => (fmt == Format::Vga16 || gdi.display.bpp == 4, None),
    }
}

/// SetDIBits' work: DIB rows `start..start+lines` (from the bottom) into
/// bitmap `hbm`. The number of rows set.
fn set_dib_rows(
    gdi: &mut Gdi,
    hdc: u16,
    hbm: u16,
    h: &DibHeader,
    px: &bitmap::DibPixels,
    start: u32,
) -> u32 {
    let Some(fmt) = gdi.objects.bitmap(hbm).map(|b| b.surface.format) else {
        return 0;
    };
    let (vga, pal) = bitmap_colors_of(gdi, hdc, fmt);
    let syspal = gdi.syspal;
    let colors = Colors {
        vga,
        format: fmt,
        syspal: &syspal,
        logpal: pal.as_ref(),
    };
    let Some(bm) = gdi.objects.bitmap_mut(hbm) else {
        return 0;
    };
    let bh = bm.surface.height;
    let n = px.rows.len() as u32;
    // px.rows is top-first: its last row is DIB row `start`.
    for (k, row) in px.rows.iter().enumerate() {
        let dib_row = start + (n - 1 - k as u32);
        let y = bh - 1 - dib_row as i32;
        if y < 0 || y >= bh {
            continue;
        }
        for (x, &v) in row.iter().enumerate() {
            if (x as i32) < bm.surface.width {
                let c = dib_color(h, px.indexed, v);
                bm.surface.set(x as i32, y, colors.solid(c));
            }
        }
    }
    n
}

/// GDI.440 SetDIBits(hDC, hBitmap, uStartScan, cScanLines, lpvBits,
/// lpbmi, fuColorUse) -> scan lines set.
fn set_dibits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (start, lines) = (a[2] as u16 as u32, a[3] as u16 as u32);
    let Some((h, px)) = read_dib(uc, a[5], a[4], a[6] as u16, start, lines) else {
        return Ok(0);
    };
    Ok(set_dib_rows(
        &mut env.win16.gdi,
        arg_h(a[0]),
        arg_h(a[1]),
        &h,
        &px,
        start,
    ))
}

/// The colour table GetDIBits gives for `bits` per pixel of a surface of
/// `fmt` (the VGA driver's own table for 4 bits).
fn device_table(gdi: &Gdi, fmt: Format, bits: u16) -> Vec<u32> {
    match bits {
        1 => vec![0, 0x00FF_FFFF],
        4 => VGA_COLORS.to_vec(),
        8 => {
            if fmt == Format::Pal8 {
                gdi.syspal.to_vec()
            } else {
                let mut t = VGA_COLORS.to_vec();
                t.resize(256, 0);
                t
            }
        }
        _ => Vec::new(),
    }
}

/// GDI.441 GetDIBits(hDC, hBitmap, uStartScan, cScanLines, lpvBits,
/// lpbmi, fuColorUse) -> scan lines copied (with lpvBits NULL: the header
/// and colour table are filled and the bitmap's height returned).
pub fn get_dibits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hbm = arg_h(a[1]);
    let (start, lines) = (a[2] as u16 as u32, a[3] as u16 as u32);
    let usage = a[6] as u16;
    let Some(head) = super::read_struct::<16>(uc, a[5]) else {
        return Ok(0);
    };
    let hsize = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let bits = if hsize == 12 {
        u16::from_le_bytes([head[10], head[11]])
    } else {
        u16::from_le_bytes([head[14], head[15]])
    };
    if !matches!(bits, 1 | 4 | 8 | 24) {
        return Ok(0);
    }
    let Some(bm) = gdi.objects.bitmap(hbm) else {
        return Ok(0);
    };
    let (w, hgt, fmt) = (bm.surface.width, bm.surface.height, bm.surface.format);
    let table = device_table(gdi, fmt, bits);
    let syspal = gdi.syspal;
    let rgb = |p: u32| pixel_rgb(fmt, &syspal, p);
    let header = DibHeader {
        header_size: 40,
        width: w,
        height: hgt,
        bit_count: bits,
        compression: bitmap::BI_RGB,
        size_image: ((w as usize * usize::from(bits)).div_ceil(32) * 4 * hgt as usize) as u32,
        clr_used: 0,
        colors: table.clone(),
        usage,
    };
    // The header and colour table.
    let mut info = Vec::new();
    if hsize == 12 {
        info.extend_from_slice(&12u32.to_le_bytes());
        info.extend_from_slice(&(w as u16).to_le_bytes());
        info.extend_from_slice(&(hgt as u16).to_le_bytes());
        info.extend_from_slice(&1u16.to_le_bytes());
        info.extend_from_slice(&bits.to_le_bytes());
    } else {
        info.extend_from_slice(&header.to_info_bytes());
    }
    for (i, &c) in table.iter().enumerate() {
        if usage == bitmap::DIB_PAL_COLORS {
            info.extend_from_slice(&(i as u16).to_le_bytes());
        } else if hsize == 12 {
            info.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8]);
        } else {
            info.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8, 0]);
        }
    }
    if !write_struct(uc, a[5], &info) {
        return Ok(0);
    }
    if a[4] == 0 {
        return Ok(hgt as u32);
    }
    let start = start.min(hgt as u32);
    let lines = lines.min(hgt as u32 - start);
    // Rows top-first: DIB rows start+lines-1 down to start.
    let mut rows = Vec::with_capacity(lines as usize);
    for k in (0..lines).rev() {
        let y = hgt - 1 - (start + k) as i32;
        rows.push(bm.surface.row(y).to_vec());
    }
    let index = |p: u32| -> u32 {
        if bits == 24 {
            return rgb(p);
        }
        if fmt == Format::Vga16 && bits >= 4 {
            return p & 15;
        }
        if fmt == Format::Pal8 && bits == 8 {
            return p & 255;
        }
        if fmt == Format::Mono && bits == 1 {
            return p & 1;
        }
        nearest_in(&table, rgb(p)) as u32
    };
    let out = bitmap::encode_dib_rows(&rows, w as usize, bits, &index);
    if !write_huge(uc, a[4], &out) {
        return Ok(0);
    }
    Ok(lines)
}

/// GDI.442 CreateDIBitmap(hDC, lpbmih, fdwInit, lpbInit, lpbmi, fuUsage)
/// -> HBITMAP: monochrome when the DIB is 1 bit with a black-then-white
/// colour table (Wine's reading of Windows' rule), else of the DC's
/// format; CBM_INIT (4) sets its bits from lpbInit.
fn create_dibitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let usage = a[5] as u16;
    let Some(head) = read_dib_header(uc, a[1], bitmap::DIB_RGB_COLORS).or_else(|| {
        // lpbmih may hold only the header, without a colour table.
        let b = crate::win16::farptr::read_bytes(uc, a[1], 40)?;
        let mut b = b;
        b[32..36].copy_from_slice(&0u32.to_le_bytes());
        let bc = u16::from_le_bytes([b[14], b[15]]);
        let n = if bc <= 8 { 4usize << bc } else { 0 };
        b.resize(40 + n, 0);
        DibHeader::parse(&b, bitmap::DIB_RGB_COLORS).ok()
    }) else {
        return Ok(0);
    };
    let init = a[2] & 4 != 0;
    let table = if init {
        read_dib_header(uc, a[4], usage).map(|h| h.colors)
    } else {
        None
    };
    let mono = head.bit_count == 1
        && usage == bitmap::DIB_RGB_COLORS
        && table.as_ref().unwrap_or(&head.colors).as_slice() == [0, 0x00FF_FFFF];
    let fmt = if mono {
        Format::Mono
    } else {
        match super::dc::surface_format(&mut env.win16.gdi, hdc) {
            Some(f) => f,
            None => return Ok(0),
        }
    };
    let h = bitmap::create(env, uc, head.width, head.height, fmt, None);
    if h == 0 || !init {
        return Ok(h);
    }
    if let Some((dh, px)) = read_dib(uc, a[4], a[3], usage, 0, head.height as u32) {
        set_dib_rows(&mut env.win16.gdi, hdc, h as u16, &dh, &px, 0);
    }
    Ok(h)
}

/// A device-dependent bitmap made from a packed DIB (a BITMAPINFOHEADER
/// or BITMAPCOREHEADER, its colour table, then the bits), as LoadBitmap
/// makes one from an RT_BITMAP resource: the screen's format, or
/// monochrome when the DIB is 1 bpp with a black-then-white table (the
/// rule CreateDIBitmap follows above). The new bitmap's handle, 0 when the
/// bytes are no DIB. For USER's LoadBitmap (resource.rs).
pub fn bitmap_from_packed_dib(env: &mut Env, uc: &mut Uc<'_>, packed: &[u8]) -> u16 {
    let Ok(head) = DibHeader::parse(packed, bitmap::DIB_RGB_COLORS) else {
        return 0;
    };
    let mono = head.bit_count == 1 && head.colors.as_slice() == [0, 0x00FF_FFFF];
    let fmt = if mono {
        Format::Mono
    } else {
        env.win16.gdi.display.format()
    };
    let h = bitmap::create(env, uc, head.width, head.height, fmt, None) as u16;
    if h == 0 {
        return 0;
    }
    let bits = packed.get(head.info_size()..).unwrap_or(&[]);
    if let Ok(px) = decode_dib(&head, bits, 0, head.height as u32) {
        set_dib_rows(&mut env.win16.gdi, 0, h, &head, &px, 0);
    }
    h
}

/// A DIB as a surface of the canvas's format (its colours matched).
fn dib_surface(cv: &Canvas, h: &DibHeader, px: &bitmap::DibPixels) -> Option<Surface> {
    let colors = cv.colors();
    let mut s = Surface::new(px.width, px.rows.len().max(1) as i32, cv.surf.format, 0)?;
    for (y, row) in px.rows.iter().enumerate() {
        for (x, &v) in row.iter().enumerate() {
            s.set(
                x as i32,
                y as i32,
                colors.solid(dib_color(h, px.indexed, v)),
            );
        }
    }
    Some(s)
}

/// GDI.443 SetDIBitsToDevice(hDC, xDest, yDest, cx, cy, xSrc, ySrc,
/// uStartScan, cScanLines, lpvBits, lpbmi, fuColorUse) -> scan lines set.
pub fn set_dibits_to_device(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let (xd, yd, cx, cy) = (arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4]));
    let (xs, ys) = (arg_i(a[5]), arg_i(a[6]));
    let (start, lines) = (a[7] as u16 as u32, a[8] as u16 as u32);
    let Some((h, px)) = read_dib(uc, a[10], a[9], a[11] as u16, start, lines) else {
        return Ok(0);
    };
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return Ok(0);
    };
    let Some(band) = dib_surface(&cv, &h, &px) else {
        cv.close(gdi);
        return Ok(0);
    };
    let n = px.rows.len() as i32;
    let org = cv.lp_to_sp(Point::new(xd, yd));
    // Destination row j (0 = top of the rectangle) shows DIB row
    // ys + cy − 1 − j; band row k (0 = top) is DIB row start + n − 1 − k.
    let clip = cv.clip.clone();
    let view = clip.bbox();
    let (j0, j1) = ((view.top - org.y).max(0), (view.bottom - org.y).min(cy));
    let (i0, i1) = ((view.left - org.x).max(0), (view.right - org.x).min(cx));
    for j in j0..j1 {
        let dib_row = ys + cy - 1 - j;
        let k = start as i32 + n - 1 - dib_row;
        if k < 0 || k >= n {
            continue;
        }
        let y = org.y + j;
        for i in i0..i1 {
            let sx = xs + i;
            if sx < 0 || sx >= band.width {
                continue;
            }
            let x = org.x + i;
            if clip.contains(Point::new(x, y)) {
                if let Some(v) = band.get(sx, k) {
                    cv.surf.set(x, y, v);
                }
            }
        }
    }
    cv.close(gdi);
    Ok(n as u32)
}

/// GDI.439 StretchDIBits(hDC, XDest, YDest, nDestWidth, nDestHeight, XSrc,
/// YSrc, nSrcWidth, nSrcHeight, lpBits, lpBitsInfo, iUsage, dwRop) -> scan
/// lines.
pub fn stretch_dibits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let d = (arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4]));
    let (xs, ys, ws, hs) = (arg_i(a[5]), arg_i(a[6]), arg_i(a[7]), arg_i(a[8]));
    let Some(hdr) = read_dib_header(uc, a[10], a[11] as u16) else {
        return Ok(0);
    };
    let Some((h, px)) = read_dib(uc, a[10], a[9], a[11] as u16, 0, hdr.height as u32) else {
        return Ok(0);
    };
    let gdi = &mut env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return Ok(0);
    };
    let Some(img) = dib_surface(&cv, &h, &px) else {
        cv.close(gdi);
        return Ok(0);
    };
    // The source rectangle, ySrc counted up from the bottom row.
    let (x0, w) = if ws < 0 { (xs + ws, -ws) } else { (xs, ws) };
    let (y0, hh) = if hs < 0 { (ys + hs, -hs) } else { (ys, hs) };
    let top = img.height - y0 - hh;
    let src = SrcPixels::from_surface(&img, Rect::new(x0, top, x0 + w, top + hh));
    let (dst, fx, fy) = map_rect(&cv, d.0, d.1, d.2, d.3);
    let mirror = (fx != (ws < 0), fy != (hs < 0));
    let mode = cv.state.stretch_mode;
    transfer(&mut cv, dst, Some(&src), mirror, (a[12] >> 16) as u8, mode);
    cv.close(gdi);
    Ok(h.height as u32)
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        400,
        "FASTWINDOWFRAME",
        &[Arg::W, Arg::L, Arg::W, Arg::W, Arg::L],
        fast_window_frame,
    ),
    Api::new(
        "GDI",
        29,
        "PATBLT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        pat_blt,
    ),
    Api::new(
        "GDI",
        34,
        "BITBLT",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
        ],
        bit_blt,
    ),
    Api::new(
        "GDI",
        35,
        "STRETCHBLT",
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
            Arg::W,
            Arg::L,
        ],
        stretch_blt,
    ),
    Api::new(
        "GDI",
        439,
        "STRETCHDIBITS",
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
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::L,
        ],
        stretch_dibits,
    ),
    Api::new(
        "GDI",
        440,
        "SETDIBITS",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L, Arg::L, Arg::W],
        set_dibits,
    ),
    Api::new(
        "GDI",
        441,
        "GETDIBITS",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L, Arg::L, Arg::W],
        get_dibits,
    ),
    Api::new(
        "GDI",
        442,
        "CREATEDIBITMAP",
        &[Arg::W, Arg::L, Arg::L, Arg::L, Arg::L, Arg::W],
        create_dibitmap,
    ),
    Api::new(
        "GDI",
        443,
        "SETDIBITSTODEVICE",
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
            Arg::L,
            Arg::L,
            Arg::W,
        ],
        set_dibits_to_device,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretch_maps_merge_and_mirror() {
        // Shrink 4 → 2: each destination pixel takes two.
        assert_eq!(axis_map(4, 2, false), [(0, 2), (2, 2)]);
        // Enlarge 2 → 4: each source pixel twice.
        assert_eq!(axis_map(2, 4, false), [(0, 1), (0, 1), (1, 1), (1, 1)]);
        // 3 → 2: 0..1 and 1..3.
        assert_eq!(axis_map(3, 2, false), [(0, 1), (1, 2)]);
        // Mirrored: the first destination pixel takes the last source.
        assert_eq!(axis_map(4, 4, true), [(3, 1), (2, 1), (1, 1), (0, 1)]);
    }

    /// A packed DIB: 40-byte header, `table`, then `bits` (bottom row
    /// first).
    fn packed(w: i32, h: i32, bpp: u16, table: &[u32], bits: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&w.to_le_bytes());
        b.extend_from_slice(&h.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&bpp.to_le_bytes());
        b.extend_from_slice(&[0; 24]);
        for c in table {
            // RGBQUAD: blue, green, red, 0.
            b.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, *c as u8, 0]);
        }
        b.extend_from_slice(bits);
        b
    }

    #[test]
    fn load_bitmap_format_is_mono_for_black_and_white_dibs() {
        let mut env = Env::new(false);
        let mut m = crate::machine::Machine::new_protected().unwrap();
        // 1 bpp, black then white: monochrome; bottom row 10000000,
        // top row 01000000.
        let p = packed(8, 2, 1, &[0, 0xFF_FFFF], &[0x80, 0, 0, 0, 0x40, 0, 0, 0]);
        let h = bitmap_from_packed_dib(&mut env, &mut m, &p);
        let bm = env.win16.gdi.objects.bitmap(h).unwrap();
        assert_eq!(bm.surface.format, Format::Mono);
        // Mono surfaces hold 1 for white.
        assert_eq!(bm.surface.get(1, 0), Some(1));
        assert_eq!(bm.surface.get(0, 0), Some(0));
        assert_eq!(bm.surface.get(0, 1), Some(1));
        assert_eq!(bm.surface.get(1, 1), Some(0));
        // 1 bpp red and blue: a screen bitmap, red where bits are 0.
        let p = packed(8, 1, 1, &[0xFF, 0xFF_0000], &[0x7F, 0, 0, 0]);
        let h = bitmap_from_packed_dib(&mut env, &mut m, &p);
        let bm = env.win16.gdi.objects.bitmap(h).unwrap();
        assert_eq!(bm.surface.format, Format::Vga16);
        assert_eq!(bm.surface.get(0, 0), Some(9));
        assert_eq!(bm.surface.get(1, 0), Some(12));
        // Not a DIB, or bits missing: no bitmap, or a blank one.
        assert_eq!(bitmap_from_packed_dib(&mut env, &mut m, &[1, 2, 3]), 0);
        let p = packed(8, 1, 4, &[0; 16], &[]);
        assert_ne!(bitmap_from_packed_dib(&mut env, &mut m, &p), 0);
    }
}
