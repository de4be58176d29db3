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

/// Copy a rectangle (surface coordinates) of pixels from `loc`, or from
/// `cv`'s surface when it is the same. Pixels outside the surface are
/// None.
fn read_pixels(gdi: &mut Gdi, cv: &Canvas, loc: Loc, r: Rect) -> (Format, Vec<Option<u32>>) {
    let take = |s: &Surface| {
        let mut v = Vec::with_capacity((r.width().max(0) * r.height().max(0)) as usize);
        for y in r.top..r.bottom {
            for x in r.left..r.right {
                v.push(s.get(x, y));
            }
        }
        (s.format, v)
    };
    if loc == cv.loc {
        return take(&cv.surf);
    }
    match loc {
        Loc::Screen => {
            let s = gdi.take_screen();
            let out = take(&s);
            gdi.put_screen(s);
            out
        }
        Loc::Bitmap(h) => match gdi.objects.bitmap(h) {
            Some(b) => take(&b.surface),
            None => (
                Format::Mono,
                vec![None; (r.width() * r.height()).max(0) as usize],
            ),
        },
        Loc::Page(h) => match gdi.dc_mut(h).and_then(|d| d.page.as_ref()) {
            Some(p) => take(p),
            None => {
                let (w, hh) = super::devcaps::PRINTER_PAGE;
                let v = (r.top..r.bottom)
                    .flat_map(|y| {
                        (r.left..r.right)
                            .map(move |x| (x >= 0 && y >= 0 && x < w && y < hh).then_some(1))
                    })
                    .collect();
                (Format::Mono, v)
            }
        },
    }
}

/// Convert a source pixel of `from` to the canvas's format (module doc).
fn convert(cv: &Canvas, from: Format, from_vga: bool, src_bk: u32, v: u32) -> u32 {
    let to = cv.surf.format;
    if from == to {
        return v;
    }
    let colors = cv.colors();
    if from == Format::Mono {
        return if v & 1 != 0 {
            colors.solid(cv.state.bk_color)
        } else {
            colors.solid(cv.state.text_color)
        };
    }
    if to == Format::Mono {
        return u32::from(v == src_bk);
    }
    let _ = from_vga;
    convert_pixel(from, v, &colors)
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

/// Source pixels for [`transfer`]: the pixels (None outside the source),
/// width, height, format and the source DC's background pixel.
type SrcBlock<'a> = (&'a [Option<u32>], i32, i32, Format, u32);

/// The transfer: destination `dst` (surface coordinates of the canvas)
/// from source pixels `src` (w×h, format `sfmt`, None outside), stretched
/// as needed, with `rop`. `mirror` flips the source horizontally,
/// vertically.
#[allow(clippy::too_many_arguments)]
fn transfer(
    cv: &mut Canvas,
    dst: Rect,
    src: Option<SrcBlock<'_>>,
    mirror: (bool, bool),
    rop: u8,
    stretch_mode: u16,
    src_vga: bool,
) {
    let (uses_p, uses_s, _) = rop3_uses(rop);
    let brush: Option<Paint> = if uses_p { cv.brush.clone() } else { None };
    if uses_p && brush.is_none() {
        return;
    }
    let mask = cv.surf.format.mask();
    let (xmap, ymap) = match &src {
        Some((_, w, h, _, _)) if uses_s => (
            axis_map(*w, dst.width(), mirror.0),
            axis_map(*h, dst.height(), mirror.1),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let clip = cv.clip.intersect(&crate::win16::geom::Region::rect(dst));
    for r in clip.rects().collect::<Vec<_>>() {
        for y in r.top..r.bottom {
            for x in r.left..r.right {
                let s = if uses_s {
                    let Some((px, w, _, fmt, bk)) = &src else {
                        continue;
                    };
                    let (sy, ny) = ymap[(y - dst.top) as usize];
                    let (sx, nx) = xmap[(x - dst.left) as usize];
                    // Merge the source block per the stretch mode.
                    let mut acc: Option<u32> = None;
                    'outer: for yy in sy..sy + ny {
                        for xx in sx..sx + nx {
                            let Some(v) = px[(yy * w + xx) as usize] else {
                                continue;
                            };
                            acc = Some(match (acc, stretch_mode) {
                                (None, _) => v,
                                (Some(a), BLACKONWHITE) => a & v,
                                (Some(a), WHITEONBLACK) => a | v,
                                (Some(a), _) => {
                                    let _ = a;
                                    break 'outer;
                                }
                            });
                            if stretch_mode != BLACKONWHITE && stretch_mode != WHITEONBLACK {
                                break 'outer;
                            }
                        }
                    }
                    let Some(v) = acc else {
                        continue;
                    };
                    convert(cv, *fmt, src_vga, *bk, v)
                } else {
                    0
                };
                let p = brush.as_ref().and_then(|b| b.at(x, y)).unwrap_or(0);
                let d = cv.surf.get(x, y).unwrap_or(0);
                let v = rop3(rop, p & mask, s & mask, d, mask);
                cv.surf.set(x, y, v);
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
        transfer(&mut cv, dst, None, (false, false), rop, mode, false);
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
    let (fmt, px) = read_pixels(gdi, &cv, loc, srect);
    // The source DC's background colour as a source pixel.
    let bk = {
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
    transfer(
        &mut cv,
        dst,
        Some((&px, srect.width(), srect.height(), fmt, bk)),
        mirror,
        rop,
        mode,
        src_vga,
    );
    cv.close(gdi);
    true
}

/// GDI.29 PatBlt(hDC, x, y, nWidth, nHeight, dwRop) -> BOOL.
fn pat_blt(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let hdc = arg_h(a[0]);
    let rop = (a[5] >> 16) as u8;
    let Some(mut cv) = Canvas::open(gdi, hdc) else {
        return Ok(u32::from(gdi.dc_mut(hdc).is_some()));
    };
    let (dst, _, _) = map_rect(&cv, arg_i(a[1]), arg_i(a[2]), arg_i(a[3]), arg_i(a[4]));
    let mode = cv.state.stretch_mode;
    transfer(&mut cv, dst, None, (false, false), rop, mode, false);
    cv.close(gdi);
    Ok(1)
}

/// GDI.34 BitBlt(hdcDest, x, y, nWidth, nHeight, hdcSrc, xSrc, ySrc,
/// dwRop) -> BOOL.
fn bit_blt(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
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
fn get_dibits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
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
    let h = bitmap::create(env, head.width, head.height, fmt, None);
    if h == 0 || !init {
        return Ok(h);
    }
    if let Some((dh, px)) = read_dib(uc, a[4], a[3], usage, 0, head.height as u32) {
        set_dib_rows(&mut env.win16.gdi, hdc, h as u16, &dh, &px, 0);
    }
    Ok(h)
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
fn set_dibits_to_device(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
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
    for j in 0..cy.max(0) {
        let dib_row = ys + cy - 1 - j;
        let k = start as i32 + n - 1 - dib_row;
        if k < 0 || k >= n {
            continue;
        }
        let y = org.y + j;
        for i in 0..cx.max(0) {
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
fn stretch_dibits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
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
    let mut src = Vec::with_capacity((w.max(0) * hh.max(0)) as usize);
    for y in top..top + hh {
        for x in x0..x0 + w {
            src.push(img.get(x, y));
        }
    }
    let (dst, fx, fy) = map_rect(&cv, d.0, d.1, d.2, d.3);
    let mirror = (fx != (ws < 0), fy != (hs < 0));
    let fmt = cv.surf.format;
    let mode = cv.state.stretch_mode;
    transfer(
        &mut cv,
        dst,
        Some((&src, w, hh, fmt, 0)),
        mirror,
        (a[12] >> 16) as u8,
        mode,
        false,
    );
    cv.close(gdi);
    Ok(h.height as u32)
}

pub static APIS: &[Api] = &[
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
}
