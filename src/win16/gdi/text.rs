//! Text: measuring strings, laying them out at tab stops and turning them
//! into ink, in device pixels, for the physical font a DC has selected
//! (font.rs, fontmap.rs).
//!
//! This file holds the rules; GDI's entry points that read their
//! arguments from the program and paint the result into a DC's surface
//! come after them. USER's DrawText, GrayString and tabbed text use the
//! same rules from win16/user/text.rs.
//!
//! # Measuring (GetTextExtent, the SDK)
//!
//! Each character advances the pen by its width in the font, plus the
//! DC's character extra (SetTextCharacterExtra) — every character,
//! the break character too — plus, for each break character (tmBreakChar,
//! the space in Windows' fonts), its share of the DC's justification
//! (SetTextJustification: `nBreakExtra` pixels spread over `nBreakCount`
//! breaks, `nBreakExtra / nBreakCount` each and one more for the first
//! `nBreakExtra % nBreakCount` of them). GetTextExtent's width is the sum
//! of the advances plus the font's overhang (KB Q74298: GDI's simulated
//! bold and italic "include overhangs"); its height is the cell height.
//!
//! # Tabs (TabbedTextOut, GetTabbedTextExtent)
//!
//! No tab stops given: a stop every 8 average character widths; one: a
//! stop every that many pixels; more: those positions, and past the last
//! one every 8 average widths again. Stops count from the tab origin.
//!
//! # Drawing (TextOut, ExtTextOut, the SDK)
//!
//! The reference point is the current position with TA_UPDATECP (which
//! then moves past the string: right for TA_LEFT, left for TA_RIGHT,
//! not for TA_CENTER), else the (x, y) given; across it is the string's
//! left (TA_LEFT), right (TA_RIGHT) or middle (TA_CENTER) end, down the
//! cell's top (TA_TOP), bottom (TA_BOTTOM) or the baseline (TA_BASELINE).
//! In OPAQUE mode the string's cell box (its extent × the cell height)
//! is filled with the background colour first; ExtTextOut's ETO_OPAQUE
//! fills its rectangle, ETO_CLIPPED clips to it, lpDx gives each
//! character's advance. Ink is the text colour's nearest solid colour,
//! painted whatever the ROP2 (text ignores it), clipped to the DC.
//! Logical coordinates, widths and heights go through the DC's mapping;
//! the glyphs themselves are never transformed (raster fonts are drawn
//! in device pixels). On a metafile DC, DrawText and TabbedTextOut record
//! a TEXTOUT per run, as their TextOut calls did.

use super::font::PhysFont;

/// The DC's spacing state text is measured and drawn with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spacing {
    /// SetTextCharacterExtra, device pixels.
    pub char_extra: i32,
    /// SetTextJustification: extra pixels over `break_count` breaks.
    pub break_extra: i32,
    pub break_count: i32,
}

/// The pen advance of each character of `text`.
pub fn advances(font: &PhysFont, text: &[u8], sp: &Spacing) -> Vec<i32> {
    let brk = font.metrics().break_char;
    let (per, mut more) = if sp.break_count > 0 {
        (
            sp.break_extra / sp.break_count,
            sp.break_extra % sp.break_count,
        )
    } else {
        (0, 0)
    };
    text.iter()
        .map(|&c| {
            let mut a = font.advance(c) + sp.char_extra;
            if c == brk && sp.break_count > 0 {
                a += per;
                if more > 0 {
                    a += 1;
                    more -= 1;
                }
            }
            a
        })
        .collect()
}

/// GetTextExtent: (width, height) of `text`.
pub fn extent(font: &PhysFont, text: &[u8], sp: &Spacing) -> (i32, i32) {
    let w: i32 = advances(font, text, sp).iter().sum();
    (w + font.overhang(), font.height())
}

/// The ink of a string whose first character cell's top-left is at
/// (x, y), the characters advancing by `adv`: `span(y, x1, x2)` for each
/// horizontal run of text-coloured pixels, the underline and strike-out
/// lines of the font included.
pub fn string_ink(
    font: &PhysFont,
    text: &[u8],
    adv: &[i32],
    x: i32,
    y: i32,
    mut span: impl FnMut(i32, i32, i32),
) {
    let mut pen = x;
    for (i, &c) in text.iter().enumerate() {
        font.glyph_rows(c, |gy, runs| {
            for &(a, b) in runs {
                span(y + gy, pen + a, pen + b);
            }
        });
        pen += adv.get(i).copied().unwrap_or_else(|| font.advance(c));
    }
    let lines = [
        (font.underline, font.underline_row()),
        (font.strike_out, font.strike_out_row()),
    ];
    for (on, row) in lines {
        if on && pen > x {
            for dy in 0..i32::from(font.scale_y) {
                span(y + row + dy, x, pen);
            }
        }
    }
}

/// Tab stops for TabbedTextOut and GetTabbedTextExtent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabStops {
    /// Explicit positions (relative to the origin), ascending as given.
    pub stops: Vec<i32>,
    /// The default spacing: 8 average widths.
    pub default: i32,
}

impl TabStops {
    /// The stops of `nTabPositions` values (see the module notes).
    pub fn new(values: &[i32], ave_char_width: i32) -> TabStops {
        let default = (8 * ave_char_width).max(1);
        match values {
            [] => TabStops {
                stops: Vec::new(),
                default,
            },
            [one] if *one > 0 => TabStops {
                stops: Vec::new(),
                default: *one,
            },
            [_] => TabStops {
                stops: Vec::new(),
                default,
            },
            many => TabStops {
                stops: many.to_vec(),
                default,
            },
        }
    }

    /// The first stop after `x` (both relative to the origin).
    pub fn next(&self, x: i32) -> i32 {
        if let Some(&s) = self.stops.iter().find(|&&s| s > x) {
            return s;
        }
        let d = self.default.max(1);
        (x.div_euclid(d) + 1) * d
    }
}

/// A run of text between tabs: where it starts (relative to the line's
/// start) and its characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub x: i32,
    pub text: Vec<u8>,
}

/// Lay out `text` with tabs: its runs, and the width (the last run's end
/// plus the overhang), `origin` being the tab origin's offset from the
/// text's start.
pub fn tabbed_runs(
    font: &PhysFont,
    text: &[u8],
    sp: &Spacing,
    tabs: &TabStops,
    origin: i32,
) -> (Vec<Run>, i32) {
    let mut runs = Vec::new();
    let mut x = 0;
    for (i, part) in text.split(|&c| c == b'\t').enumerate() {
        if i > 0 {
            x = tabs.next(x - origin) + origin;
        }
        if !part.is_empty() {
            runs.push(Run {
                x,
                text: part.to_vec(),
            });
            x += advances(font, part, sp).iter().sum::<i32>();
        }
    }
    (runs, x + font.overhang())
}

// ---------------------------------------------------------------------
// The entry points: GDI's text functions and USER's DrawText, GrayString
// and tabbed text, drawing through a DC's canvas (dc.rs).

use super::dc::{Canvas, OPAQUE, TA_UPDATECP};
use super::font::{
    ANSI_CHARSET, FF_MODERN, FF_SWISS, FIXED_PITCH, FontCatalogue, LogFont, OEM_CHARSET,
    TextMetric, VARIABLE_PITCH,
};
use super::fontmap;
use super::mapping::Mapping;
use super::objects::stock;
use super::raster::Paint;
use super::{Env, Stop, Uc, arg_h, arg_i, read_rect};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::geom::{Point, Rect, Region};

pub const TA_LEFT: u16 = 0;
pub const TA_RIGHT: u16 = 2;
pub const TA_CENTER: u16 = 6;
pub const TA_TOP: u16 = 0;
pub const TA_BOTTOM: u16 = 8;
pub const TA_BASELINE: u16 = 24;

/// The most characters a text call reads (Windows' counts are ints; a
/// string longer than this is cut).
const MAX_TEXT: usize = 0x2000;

/// The stock font a handle is, if it is one: its GetStockObject index.
fn stock_index(gdi: &super::Gdi, h: u16) -> Option<u16> {
    [
        stock::OEM_FIXED_FONT,
        stock::ANSI_FIXED_FONT,
        stock::ANSI_VAR_FONT,
        stock::SYSTEM_FONT,
        stock::DEVICE_DEFAULT_FONT,
        stock::SYSTEM_FIXED_FONT,
    ]
    .into_iter()
    .find(|&i| gdi.objects.stock(i) == h)
}

/// A stock font realised to its face: SYSTEM_FONT and (on the display)
/// DEVICE_DEFAULT_FONT the System font, SYSTEM_FIXED_FONT Fixedsys,
/// OEM_FIXED_FONT Terminal, ANSI_FIXED_FONT Courier and ANSI_VAR_FONT MS
/// Sans Serif, each at its smallest VGA size, as Windows 3.1's display
/// driver named them; a face the catalogue lacks goes through the mapper
/// with the stock font's charset and pitch.
pub fn stock_font(cat: &FontCatalogue, index: u16) -> PhysFont {
    let (face, cs, pf) = match index {
        stock::OEM_FIXED_FONT => ("Terminal", OEM_CHARSET, FIXED_PITCH | FF_MODERN),
        stock::ANSI_FIXED_FONT => ("Courier", ANSI_CHARSET, FIXED_PITCH | FF_MODERN),
        stock::ANSI_VAR_FONT => ("MS Sans Serif", ANSI_CHARSET, VARIABLE_PITCH | FF_SWISS),
        stock::SYSTEM_FIXED_FONT => ("Fixedsys", ANSI_CHARSET, FIXED_PITCH | FF_MODERN),
        _ => return PhysFont::plain(cat.system()),
    };
    if let Some(f) = cat.fonts.iter().find(|f| f.face() == face) {
        return PhysFont::plain(f.clone());
    }
    let lf = LogFont {
        char_set: cs,
        pitch_and_family: pf,
        face: face.as_bytes().to_vec(),
        ..LogFont::default()
    };
    fontmap::map(cat, &lf)
}

/// The stock fonts GetStockObject hands out.
const STOCK_FONTS: [u16; 6] = [
    stock::OEM_FIXED_FONT,
    stock::ANSI_FIXED_FONT,
    stock::ANSI_VAR_FONT,
    stock::SYSTEM_FONT,
    stock::DEVICE_DEFAULT_FONT,
    stock::SYSTEM_FIXED_FONT,
];

/// Give the stock font objects the LOGFONTs of the faces they are
/// realised to (height the cell height, width the average width, the
/// face's weight, charset, pitch and family, and name), once, when the
/// fonts are first needed: GetObject on a stock font then tells a program
/// what it will get, and a LOGFONT copied from it maps back to the same
/// font (until then they hold the core's placeholders, logfont.rs).
pub fn settle_stock_fonts(env: &mut Env) {
    let g = &mut env.win16.gdi;
    if g.fonts.stock_settled {
        return;
    }
    g.fonts.stock_settled = true;
    let cat = g.fonts.catalogue();
    let lfs: Vec<(u16, LogFont)> = STOCK_FONTS
        .iter()
        .map(|&i| (i, stock_font(cat, i).logfont()))
        .collect();
    for (i, lf) in lfs {
        let h = g.objects.stock(i);
        if let Some(super::objects::Obj::Font(f)) = g.objects.get_mut(h) {
            *f = lf;
        }
    }
}

/// Is `h` one of the stock fonts?
pub fn is_stock_font(env: &Env, h: u16) -> bool {
    STOCK_FONTS
        .iter()
        .any(|&i| env.win16.gdi.objects.stock(i) == h)
}

/// The physical font of DC `hdc`: its selected font realised for its
/// device and mapping (heights and widths of the LOGFONT through the DC's
/// transform, signs kept).
pub fn realized(env: &mut Env, hdc: u16) -> Option<(PhysFont, Mapping)> {
    settle_stock_fonts(env);
    let g = &mut env.win16.gdi;
    let (hfont, map) = {
        let d = g.dc_mut(hdc)?;
        (d.state.font, d.state.map)
    };
    let stock = stock_index(g, hfont);
    let lf = g.objects.font(hfont).cloned();
    let cat = g.fonts.catalogue();
    if let Some(i) = stock {
        return Some((stock_font(cat, i), map));
    }
    let mut lf = lf.unwrap_or_default();
    let h = i32::from(lf.height);
    let dh = map.height_to_device(h);
    lf.height = (if h < 0 { -dh } else { dh }).clamp(-0x7FFF, 0x7FFF) as i16;
    lf.width = map.width_to_device(i32::from(lf.width)).min(0x7FFF) as i16;
    let f = g.fonts.map_cached(&lf);
    Some((f, map))
}

/// A device distance across as a logical one (magnitude).
pub(crate) fn lx(map: &Mapping, v: i32) -> i32 {
    (map.dp_to_lp(Point::new(v, 0)).x - map.dp_to_lp(Point::new(0, 0)).x).abs()
}

/// A device distance down as a logical one (magnitude).
pub(crate) fn ly(map: &Mapping, v: i32) -> i32 {
    (map.dp_to_lp(Point::new(0, v)).y - map.dp_to_lp(Point::new(0, 0)).y).abs()
}

/// TEXTMETRIC in the DC's logical units.
pub fn logical_metrics(f: &PhysFont, map: &Mapping) -> TextMetric {
    let mut tm = f.metrics();
    let y = |v: i16| ly(map, i32::from(v)) as i16;
    let x = |v: i16| lx(map, i32::from(v)) as i16;
    tm.height = y(tm.height);
    tm.ascent = y(tm.ascent);
    tm.descent = tm.height - tm.ascent;
    tm.internal_leading = y(tm.internal_leading);
    tm.external_leading = y(tm.external_leading);
    tm.ave_char_width = x(tm.ave_char_width);
    tm.max_char_width = x(tm.max_char_width);
    tm.overhang = x(tm.overhang);
    tm
}

/// The DC's spacing in device pixels.
pub(crate) fn spacing(env: &mut Env, hdc: u16) -> Spacing {
    let Some(d) = env.win16.gdi.dc_mut(hdc) else {
        return Spacing::default();
    };
    let m = &d.state.map;
    let sign = |v: i32| if v < 0 { -1 } else { 1 };
    Spacing {
        char_extra: sign(d.state.char_extra) * m.width_to_device(d.state.char_extra),
        break_extra: sign(d.state.break_extra) * m.width_to_device(d.state.break_extra),
        break_count: d.state.break_count,
    }
}

/// The string argument of a text call: `count` bytes (a negative count, or
/// -1 where the call allows it, is the NUL-terminated string), at most
/// [`MAX_TEXT`].
pub(crate) fn text_bytes(uc: &Uc<'_>, p: u32, count: i32) -> Option<Vec<u8>> {
    if count < 0 {
        return farptr::read_cstr(uc, p, MAX_TEXT).or_else(|| farptr::read_bytes(uc, p, 0));
    }
    let n = (count as usize).min(MAX_TEXT);
    if n == 0 {
        return Some(Vec::new());
    }
    farptr::read_bytes(uc, p, n)
}

/// GDI.93 GetTextMetrics(hDC, lpMetrics).
fn get_text_metrics(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((f, map)) = realized(env, arg_h(a[0])) else {
        return Ok(0);
    };
    let tm = logical_metrics(&f, &map);
    Ok(u32::from(farptr::write_bytes(uc, a[1], &tm.to_bytes())))
}

/// The extent of `text` on DC `hdc`, logical units: (cx, cy).
fn logical_extent(env: &mut Env, hdc: u16, text: &[u8]) -> Option<(i32, i32)> {
    let (f, map) = realized(env, hdc)?;
    let sp = spacing(env, hdc);
    let (w, h) = extent(&f, text, &sp);
    Some((lx(&map, w), ly(&map, h)))
}

pub(crate) fn pack(cx: i32, cy: i32) -> u32 {
    u32::from(cy as u16) << 16 | u32::from(cx as u16)
}

/// GDI.91 GetTextExtent(hDC, lpString, nCount) -> DWORD: height in the
/// high word, width in the low.
pub fn get_text_extent(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = arg_i(a[2]).max(0);
    let Some(text) = text_bytes(uc, a[1], n) else {
        return Ok(0);
    };
    Ok(logical_extent(env, arg_h(a[0]), &text).map_or(0, |(x, y)| pack(x, y)))
}

/// GDI.471 GetTextExtentPoint(hDC, lpString, cbString, lpSize) -> BOOL.
fn get_text_extent_point(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = arg_i(a[2]).max(0);
    let Some(text) = text_bytes(uc, a[1], n) else {
        return Ok(0);
    };
    let Some((x, y)) = logical_extent(env, arg_h(a[0]), &text) else {
        return Ok(0);
    };
    let mut b = [0u8; 4];
    b[0..2].copy_from_slice(&(x as i16).to_le_bytes());
    b[2..4].copy_from_slice(&(y as i16).to_le_bytes());
    Ok(u32::from(farptr::write_bytes(uc, a[3], &b)))
}

/// GDI.92 GetTextFace(hDC, nCount, lpFacename) -> bytes copied (the NUL
/// not counted): the face name cut to nCount - 1 bytes.
fn get_text_face(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((f, _)) = realized(env, arg_h(a[0])) else {
        return Ok(0);
    };
    let n = arg_i(a[1]);
    if n <= 0 || a[2] == 0 {
        return Ok(0);
    }
    let face = f.face().as_bytes();
    let k = face.len().min(n as usize - 1);
    let mut b = face[..k].to_vec();
    b.push(0);
    Ok(if farptr::write_bytes(uc, a[2], &b) {
        k as u32
    } else {
        0
    })
}

/// GDI.350 GetCharWidth(hDC, wFirstChar, wLastChar, lpBuffer) -> BOOL:
/// each character's advance (logical units; no overhang, no extra).
fn get_char_width(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((f, map)) = realized(env, arg_h(a[0])) else {
        return Ok(0);
    };
    let (first, last) = (a[1] as u16, a[2] as u16);
    if last < first || last > 0xFF {
        return Ok(0);
    }
    let mut b = Vec::new();
    for c in first..=last {
        let w = lx(&map, f.advance(c as u8));
        b.extend_from_slice(&(w as i16).to_le_bytes());
    }
    Ok(u32::from(farptr::write_bytes(uc, a[3], &b)))
}

/// What a text output draws.
pub(crate) struct Output<'a> {
    /// The reference point (logical), unless the DC updates its current
    /// position.
    pub(crate) at: Point,
    pub(crate) text: &'a [u8],
    /// Advances (device pixels) when given (ExtTextOut's lpDx).
    pub(crate) dx: Option<Vec<i32>>,
    pub(crate) options: u16,
    /// ExtTextOut's rectangle (logical).
    pub(crate) rect: Option<Rect>,
}

pub const ETO_OPAQUE: u16 = 0x0002;
pub const ETO_CLIPPED: u16 = 0x0004;

/// The device rectangle of a logical one (corners through the mapping,
/// normalised).
pub(crate) fn device_rect(map: &Mapping, r: Rect) -> Rect {
    let a = map.lp_to_dp(Point::new(r.left, r.top));
    let b = map.lp_to_dp(Point::new(r.right, r.bottom));
    Rect::new(a.x, a.y, b.x, b.y).normalized()
}

/// Draw `text` on an open canvas with its first cell's top-left at (x, y)
/// (surface pixels): the opaque background when `opaque` (the bk colour),
/// then the ink (the text colour).
pub(crate) fn ink(
    cv: &mut Canvas,
    f: &PhysFont,
    text: &[u8],
    adv: &[i32],
    x: i32,
    y: i32,
    opaque: bool,
) {
    const R2_COPYPEN: u16 = 13;
    if opaque {
        let w: i32 = adv.iter().sum::<i32>() + f.overhang();
        let bk = Paint::solid(cv.colors().solid(cv.state.bk_color), R2_COPYPEN);
        for yy in y..y + f.height() {
            cv.span(yy, x, x + w, &bk);
        }
    }
    let fg = Paint::solid(cv.colors().solid(cv.state.text_color), R2_COPYPEN);
    string_ink(f, text, adv, x, y, |yy, a, b| cv.span(yy, a, b, &fg));
}

/// TextOut's, ExtTextOut's and TabbedTextOut's common part: alignment,
/// the current position, the rectangle, clipping, then the ink. Returns
/// FALSE for a DC that is no DC.
pub(crate) fn output(env: &mut Env, hdc: u16, o: Output<'_>) -> bool {
    let Some((f, map)) = realized(env, hdc) else {
        return false;
    };
    let sp = spacing(env, hdc);
    let adv = o.dx.clone().unwrap_or_else(|| advances(&f, o.text, &sp));
    let width: i32 = adv.iter().sum();
    let ext = width + f.overhang();
    let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) else {
        // An information context draws nothing.
        return env.win16.gdi.dc(hdc).is_some();
    };
    let align = cv.state.text_align;
    let update = align & TA_UPDATECP != 0;
    let at = if update { cv.state.pos } else { o.at };
    let p = cv.lp_to_sp(at);
    let left = match align & 0x06 {
        TA_RIGHT => p.x - ext,
        TA_CENTER => p.x - ext / 2,
        _ => p.x,
    };
    let top = match align & 0x18 {
        TA_BASELINE => p.y - f.ascent(),
        TA_BOTTOM => p.y - f.height(),
        _ => p.y,
    };
    let saved_clip = cv.clip.clone();
    if let Some(r) = o.rect {
        let d = device_rect(&cv.state.map, r).offset(cv.origin.x, cv.origin.y);
        if o.options & ETO_OPAQUE != 0 {
            const R2_COPYPEN: u16 = 13;
            let bk = Paint::solid(cv.colors().solid(cv.state.bk_color), R2_COPYPEN);
            for y in d.top..d.bottom {
                cv.span(y, d.left, d.right, &bk);
            }
        }
        if o.options & ETO_CLIPPED != 0 {
            cv.clip = cv.clip.intersect(&Region::rect(d));
        }
    }
    let opaque = cv.state.bk_mode == OPAQUE;
    ink(&mut cv, &f, o.text, &adv, left, top, opaque);
    cv.clip = saved_clip;
    cv.close(&mut env.win16.gdi);
    if update {
        let lw = lx(&map, width);
        let (fx, _) = map.flips();
        let lw = if fx { -lw } else { lw };
        if let Some(d) = env.win16.gdi.dc_mut(hdc) {
            match align & 0x06 {
                TA_RIGHT => d.state.pos.x -= lw,
                TA_CENTER => {}
                _ => d.state.pos.x += lw,
            }
        }
    }
    true
}

/// Record TextOut calls on metafile DC `hdc`: (x, y, text) each.
pub(crate) fn record_texts(env: &mut Env, hdc: u16, items: &[(i32, i32, &[u8])]) {
    if let Some(r) = env.win16.gdi.metafiles.recorder(hdc) {
        for &(x, y, t) in items {
            r.records
                .push(super::metafile::text_out(x as i16, y as i16, t));
        }
    }
}

/// GDI.33 TextOut(hDC, x, y, lpString, nCount) -> BOOL.
pub fn text_out(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = arg_i(a[4]).max(0);
    let Some(text) = text_bytes(uc, a[3], n) else {
        return Ok(0);
    };
    // The drawing event (`--events`), as before pixels existed.
    crate::machine::record_event(
        uc,
        format!(
            "draw TextOut {:04X} ({}, {}) {}",
            a[0] as u16,
            arg_i(a[1]),
            arg_i(a[2]),
            crate::escape::quoted(&String::from_utf8_lossy(&text))
        ),
    );
    let o = Output {
        at: Point::new(arg_i(a[1]), arg_i(a[2])),
        text: &text,
        dx: None,
        options: 0,
        rect: None,
    };
    Ok(u32::from(output(env, arg_h(a[0]), o)))
}

/// GDI.351 ExtTextOut(hDC, x, y, fuOptions, lprc, lpString, cbCount,
/// lpDx) -> BOOL: ETO_OPAQUE fills the rectangle with the background
/// colour, ETO_CLIPPED clips the text to it, lpDx gives each character's
/// advance (logical units).
pub fn ext_text_out(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let n = arg_i(a[6]).max(0);
    let Some(text) = text_bytes(uc, a[5], n) else {
        return Ok(0);
    };
    let options = a[3] as u16;
    let rect = if a[4] != 0 && options & (ETO_OPAQUE | ETO_CLIPPED) != 0 {
        read_rect(uc, a[4])
    } else {
        None
    };
    let dx = if a[7] != 0 && !text.is_empty() {
        let Some(map) = env.win16.gdi.dc_mut(hdc).map(|d| d.state.map) else {
            return Ok(0);
        };
        farptr::read_bytes(uc, a[7], text.len() * 2).map(|b| {
            b.chunks(2)
                .map(|c| {
                    let v = i32::from(i16::from_le_bytes([c[0], c[1]]));
                    let d = map.width_to_device(v);
                    if v < 0 { -d } else { d }
                })
                .collect()
        })
    } else {
        None
    };
    let o = Output {
        at: Point::new(arg_i(a[1]), arg_i(a[2])),
        text: &text,
        dx,
        options,
        rect,
    };
    Ok(u32::from(output(env, hdc, o)))
}

/// The functions of this file.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        33,
        "TEXTOUT",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::W],
        text_out,
    ),
    Api::new(
        "GDI",
        91,
        "GETTEXTEXTENT",
        &[Arg::W, Arg::L, Arg::W],
        get_text_extent,
    ),
    Api::new(
        "GDI",
        92,
        "GETTEXTFACE",
        &[Arg::W, Arg::W, Arg::L],
        get_text_face,
    ),
    Api::new(
        "GDI",
        93,
        "GETTEXTMETRICS",
        &[Arg::W, Arg::L],
        get_text_metrics,
    ),
    Api::new(
        "GDI",
        350,
        "GETCHARWIDTH",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        get_char_width,
    ),
    Api::new(
        "GDI",
        351,
        "EXTTEXTOUT",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::L,
        ],
        ext_text_out,
    ),
    Api::new(
        "GDI",
        471,
        "GETTEXTEXTENTPOINT",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        get_text_extent_point,
    ),
];

#[cfg(test)]
pub(crate) mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::loader::ne::ResourceId;
    use crate::win16::gdi::fnt::{FntFont, FntHeader};
    use crate::win16::gdi::font::FontResource;

    /// A metrics-only fixed font: every character 6 wide, cell 10, space
    /// the break character.
    pub(crate) fn mono() -> PhysFont {
        let h = FntHeader {
            version: 0x0300,
            pix_height: 10,
            ascent: 8,
            internal_leading: 1,
            external_leading: 2,
            avg_width: 6,
            max_width: 6,
            weight: 400,
            pitch_and_family: 0x30,
            first_char: 32,
            last_char: 255,
            default_char: 0,
            break_char: 0,
            ..FntHeader::default()
        };
        PhysFont::plain(Rc::new(FontResource {
            font: FntFont::from_parts(h, "Mono", &[]),
            file: None,
            id: ResourceId::Int(1),
        }))
    }

    #[test]
    fn extents_count_extra_justification_and_overhang() {
        let f = mono();
        let sp = Spacing::default();
        assert_eq!(extent(&f, b"abc", &sp), (18, 10));
        let sp = Spacing {
            char_extra: 2,
            ..Spacing::default()
        };
        assert_eq!(extent(&f, b"abc", &sp), (24, 10));
        // 7 pixels over 3 breaks: 3, 2, 2.
        let sp = Spacing {
            char_extra: 0,
            break_extra: 7,
            break_count: 3,
        };
        assert_eq!(advances(&f, b"a b c d", &sp), vec![6, 9, 6, 8, 6, 8, 6]);
        let mut b = f.clone();
        b.bold = true;
        assert_eq!(extent(&b, b"abc", &Spacing::default()).0, 19);
    }

    #[test]
    fn tab_stops() {
        let f = mono();
        let sp = Spacing::default();
        // Default: every 8 × 6 = 48.
        let t = TabStops::new(&[], 6);
        let (runs, w) = tabbed_runs(&f, b"ab\tc", &sp, &t, 0);
        assert_eq!(runs[1].x, 48);
        assert_eq!(w, 54);
        // One value: every 20; the origin shifts the stops.
        let t = TabStops::new(&[20], 6);
        let (runs, _) = tabbed_runs(&f, b"abcd\tx", &sp, &t, 0);
        assert_eq!(runs[1].x, 40);
        let (runs, _) = tabbed_runs(&f, b"abcd\tx", &sp, &t, 5);
        assert_eq!(runs[1].x, 25);
        // Several: those, then every 48.
        let t = TabStops::new(&[10, 30], 6);
        let (runs, _) = tabbed_runs(&f, b"a\tb\tc\td", &sp, &t, 0);
        assert_eq!(
            runs.iter().map(|r| r.x).collect::<Vec<_>>(),
            vec![0, 10, 30, 48]
        );
    }
}

#[cfg(test)]
mod props {
    use std::rc::Rc;

    use proptest::prelude::*;

    use super::*;
    use crate::loader::ne::ResourceId;
    use crate::win16::gdi::fnt::{FntFont, FntHeader};
    use crate::win16::gdi::font::FontResource;

    fn mono() -> PhysFont {
        let h = FntHeader {
            version: 0x0300,
            pix_height: 10,
            ascent: 8,
            avg_width: 6,
            max_width: 6,
            first_char: 32,
            last_char: 255,
            ..FntHeader::default()
        };
        PhysFont::plain(Rc::new(FontResource {
            font: FntFont::from_parts(h, "Mono", &[]),
            file: None,
            id: ResourceId::Int(1),
        }))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Tabbed runs never go backwards and fit the width.
        #[test]
        fn tabbed_runs_are_ordered(
            text in proptest::collection::vec(prop_oneof![Just(b'\t'), 32u8..127], 0..100),
            stops in proptest::collection::vec(-50i32..400, 0..6),
            origin in -100i32..100,
        ) {
            let f = mono();
            let t = TabStops::new(&stops, 6);
            let (runs, w) = tabbed_runs(&f, &text, &Spacing::default(), &t, origin);
            for r in &runs {
                prop_assert!(r.x + advances(&f, &r.text, &Spacing::default()).iter().sum::<i32>() <= w);
            }
        }
    }
}
