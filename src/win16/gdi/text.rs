//! Text: measuring strings, laying them out (tabs, DrawText's lines) and
//! turning them into ink, in device pixels, for the physical font a DC
//! has selected (font.rs, fontmap.rs).
//!
//! This file holds the rules; the GDI and USER entry points that read
//! their arguments from the program and paint the result into a DC's
//! surface come after them.
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
//! # DrawText (USER, but its layout is text's)
//!
//! - Lines end at CR, LF or CR LF (not with DT_SINGLELINE, where they are
//!   ordinary characters). A break at the very end of the text starts no
//!   new line.
//! - DT_WORDBREAK: a line ends before the word that would cross the
//!   rectangle's right edge; the spaces at the break are dropped (they
//!   may run past the edge). A word wider than the whole line is broken
//!   after its last character that fits (at least one per line).
//! - DT_EXPANDTABS: a tab moves to the next stop, every 8 average widths
//!   or, with DT_TABSTOP, every (high byte of the format) average widths;
//!   without it a tab is an ordinary character.
//! - `&` underlines the next character, `&&` is one `&` (not with
//!   DT_NOPREFIX); the underline is the font's underline row across the
//!   character's advance.
//! - DT_LEFT, DT_CENTER (`(width - line) / 2` from the left), DT_RIGHT;
//!   DT_TOP, and with DT_SINGLELINE only, DT_VCENTER (`(height - line) /
//!   2` from the top) and DT_BOTTOM.
//! - A line is tmHeight high, plus tmExternalLeading with
//!   DT_EXTERNALLEADING.
//! - DT_CALCRECT draws nothing: with one line the rectangle's right side
//!   moves to bound it, with more the width stays; the bottom moves to
//!   bound the last line (the SDK's words for DrawText).
//! - The text is clipped to the rectangle unless DT_NOCLIP.
//! - DrawText returns the height of the text (the SDK, Windows 3.1).
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
// DrawText.

pub const DT_TOP: u16 = 0x0000;
pub const DT_LEFT: u16 = 0x0000;
pub const DT_CENTER: u16 = 0x0001;
pub const DT_RIGHT: u16 = 0x0002;
pub const DT_VCENTER: u16 = 0x0004;
pub const DT_BOTTOM: u16 = 0x0008;
pub const DT_WORDBREAK: u16 = 0x0010;
pub const DT_SINGLELINE: u16 = 0x0020;
pub const DT_EXPANDTABS: u16 = 0x0040;
pub const DT_TABSTOP: u16 = 0x0080;
pub const DT_NOCLIP: u16 = 0x0100;
pub const DT_EXTERNALLEADING: u16 = 0x0200;
pub const DT_CALCRECT: u16 = 0x0400;
pub const DT_NOPREFIX: u16 = 0x0800;

/// One character of DrawText's text after prefix processing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Char { c: u8, underline: bool },
    Tab,
    Break,
}

/// One laid-out line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DtLine {
    /// The line's start (device pixels) and its top.
    pub x: i32,
    pub y: i32,
    /// Its width (advances, without the overhang).
    pub width: i32,
    /// Its runs, x relative to the line's start.
    pub runs: Vec<Run>,
    /// Prefix underlines: (x relative to the line, width).
    pub underlines: Vec<(i32, i32)>,
}

/// DrawText's layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DtLayout {
    pub lines: Vec<DtLine>,
    /// The return value: the height of the text.
    pub height: i32,
    /// The rectangle DT_CALCRECT gives back.
    pub calc: Rect,
    /// Line height.
    pub line_height: i32,
}

fn items(text: &[u8], format: u16) -> Vec<Item> {
    let single = format & DT_SINGLELINE != 0;
    let prefix = format & DT_NOPREFIX == 0;
    let tabs = format & DT_EXPANDTABS != 0;
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        i += 1;
        match c {
            b'\r' | b'\n' if !single => {
                if c == b'\r' && text.get(i) == Some(&b'\n') {
                    i += 1;
                }
                out.push(Item::Break);
            }
            b'\t' if tabs => out.push(Item::Tab),
            b'&' if prefix => match text.get(i) {
                Some(b'&') => {
                    i += 1;
                    out.push(Item::Char {
                        c: b'&',
                        underline: false,
                    });
                }
                Some(&n) if single || !matches!(n, b'\r' | b'\n') => {
                    i += 1;
                    if n == b'\t' && tabs {
                        out.push(Item::Tab);
                    } else {
                        out.push(Item::Char {
                            c: n,
                            underline: true,
                        });
                    }
                }
                _ => {}
            },
            _ => out.push(Item::Char {
                c,
                underline: false,
            }),
        }
    }
    if out.last() == Some(&Item::Break) {
        out.pop();
    }
    out
}

/// Lay out DrawText's `text` in `rect` (device pixels).
pub fn draw_text_layout(
    font: &PhysFont,
    text: &[u8],
    rect: Rect,
    format: u16,
    sp: &Spacing,
) -> DtLayout {
    let tm = font.metrics();
    let line_height = i32::from(tm.height)
        + if format & DT_EXTERNALLEADING != 0 {
            i32::from(tm.external_leading)
        } else {
            0
        };
    let tab_chars = if format & DT_TABSTOP != 0 {
        i32::from(format >> 8)
    } else {
        8
    };
    let tab = (tab_chars * i32::from(tm.ave_char_width)).max(1);
    let wrap = format & DT_WORDBREAK != 0 && format & DT_SINGLELINE == 0;
    let max_w = rect.width();

    let all = items(text, format);
    // Character widths (advance + extra, no justification in DrawText).
    let cw = |c: u8| font.advance(c) + sp.char_extra;
    let item_w = |it: &Item, x: i32| -> i32 {
        match *it {
            Item::Char { c, .. } => cw(c),
            Item::Tab => (x.div_euclid(tab) + 1) * tab - x,
            Item::Break => 0,
        }
    };
    let is_space = |it: &Item| matches!(it, Item::Char { c: b' ', .. });

    // Split into lines: ranges of `all`.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let n = all.len();
    if n == 0 {
        ranges.push((0, 0));
    }
    while start < n {
        let mut x = 0;
        let mut i = start;
        let mut brk: Option<(usize, usize)> = None;
        let mut end = None;
        while i < n {
            if all[i] == Item::Break {
                end = Some((i, i + 1));
                break;
            }
            if wrap && is_space(&all[i]) && i > start {
                let mut j = i;
                while j < n && is_space(&all[j]) {
                    x += item_w(&all[j], x);
                    j += 1;
                }
                brk = Some((i, j));
                i = j;
                continue;
            }
            let w = item_w(&all[i], x);
            if wrap && x + w > max_w && i > start {
                end = Some(match brk {
                    Some(b) => b,
                    None => (i, i),
                });
                break;
            }
            x += w;
            i += 1;
        }
        let (e, next) = end.unwrap_or((n, n));
        ranges.push((start, e));
        // A soft break's next line starts after its spaces. A hard break
        // that is the last item is followed by an (empty) line: the text's
        // own final break was dropped by `items`.
        start = next;
        if next == n && e < n && all[e] == Item::Break {
            ranges.push((n, n));
        }
    }

    let total = line_height * ranges.len() as i32;
    let single = format & DT_SINGLELINE != 0;
    let top = if single && format & DT_BOTTOM != 0 {
        rect.bottom - line_height
    } else if single && format & DT_VCENTER != 0 {
        rect.top + (rect.height() - line_height) / 2
    } else {
        rect.top
    };

    let mut lines = Vec::with_capacity(ranges.len());
    let mut widest = 0;
    for (k, &(s, e)) in ranges.iter().enumerate() {
        let mut runs: Vec<Run> = Vec::new();
        let mut underlines = Vec::new();
        let mut x = 0;
        let mut cur: Option<Run> = None;
        for it in &all[s..e] {
            match *it {
                Item::Char { c, underline } => {
                    let w = cw(c);
                    if underline {
                        underlines.push((x, font.advance(c)));
                    }
                    cur.get_or_insert_with(|| Run {
                        x,
                        text: Vec::new(),
                    })
                    .text
                    .push(c);
                    x += w;
                }
                Item::Tab => {
                    runs.extend(cur.take());
                    x += item_w(it, x);
                }
                Item::Break => {}
            }
        }
        runs.extend(cur.take());
        widest = widest.max(x);
        let lx = match format & 0x03 {
            DT_CENTER => rect.left + (rect.width() - x) / 2,
            DT_RIGHT => rect.right - x,
            _ => rect.left,
        };
        lines.push(DtLine {
            x: lx,
            y: top + k as i32 * line_height,
            width: x,
            runs,
            underlines,
        });
    }
    let mut calc = rect;
    if text.is_empty() {
        calc.right = calc.left;
        calc.bottom = calc.top;
    } else {
        if lines.len() == 1 {
            calc.right = calc.left + widest;
        }
        calc.bottom = calc.top + total;
    }
    DtLayout {
        height: if text.is_empty() { 0 } else { total },
        lines: if text.is_empty() { Vec::new() } else { lines },
        calc,
        line_height,
    }
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
use super::{Env, Stop, Uc, arg_h, arg_i, read_rect, write_rect};
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
fn lx(map: &Mapping, v: i32) -> i32 {
    (map.dp_to_lp(Point::new(v, 0)).x - map.dp_to_lp(Point::new(0, 0)).x).abs()
}

/// A device distance down as a logical one (magnitude).
fn ly(map: &Mapping, v: i32) -> i32 {
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
fn spacing(env: &mut Env, hdc: u16) -> Spacing {
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
fn text_bytes(uc: &Uc<'_>, p: u32, count: i32) -> Option<Vec<u8>> {
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

fn pack(cx: i32, cy: i32) -> u32 {
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
struct Output<'a> {
    /// The reference point (logical), unless the DC updates its current
    /// position.
    at: Point,
    text: &'a [u8],
    /// Advances (device pixels) when given (ExtTextOut's lpDx).
    dx: Option<Vec<i32>>,
    options: u16,
    /// ExtTextOut's rectangle (logical).
    rect: Option<Rect>,
}

pub const ETO_OPAQUE: u16 = 0x0002;
pub const ETO_CLIPPED: u16 = 0x0004;

/// The device rectangle of a logical one (corners through the mapping,
/// normalised).
fn device_rect(map: &Mapping, r: Rect) -> Rect {
    let a = map.lp_to_dp(Point::new(r.left, r.top));
    let b = map.lp_to_dp(Point::new(r.right, r.bottom));
    Rect::new(a.x, a.y, b.x, b.y).normalized()
}

/// Draw `text` on an open canvas with its first cell's top-left at (x, y)
/// (surface pixels): the opaque background when `opaque` (the bk colour),
/// then the ink (the text colour).
fn ink(cv: &mut Canvas, f: &PhysFont, text: &[u8], adv: &[i32], x: i32, y: i32, opaque: bool) {
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
fn output(env: &mut Env, hdc: u16, o: Output<'_>) -> bool {
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
fn record_texts(env: &mut Env, hdc: u16, items: &[(i32, i32, &[u8])]) {
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

/// The tab stops of a tabbed text call, in device pixels.
fn tab_stops(uc: &Uc<'_>, map: &Mapping, n: i32, p: u32, f: &PhysFont) -> TabStops {
    let n = n.clamp(0, 256) as usize;
    let vals: Vec<i32> = if n > 0 && p != 0 {
        farptr::read_bytes(uc, p, n * 2)
            .map(|b| {
                b.chunks(2)
                    .map(|c| map.width_to_device(i32::from(i16::from_le_bytes([c[0], c[1]]))))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    TabStops::new(&vals, f.metrics().ave_char_width as i32)
}

/// USER.197 GetTabbedTextExtent(hDC, lpString, nCount, nTabPositions,
/// lpnTabStopPositions) -> DWORD (height, width).
fn get_tabbed_text_extent(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let n = arg_i(a[2]).max(0);
    let Some(text) = text_bytes(uc, a[1], n) else {
        return Ok(0);
    };
    let Some((f, map)) = realized(env, hdc) else {
        return Ok(0);
    };
    let sp = spacing(env, hdc);
    let tabs = tab_stops(uc, &map, arg_i(a[3]), a[4], &f);
    let (_, w) = tabbed_runs(&f, &text, &sp, &tabs, 0);
    Ok(pack(lx(&map, w), ly(&map, f.height())))
}

/// USER.196 TabbedTextOut(hDC, x, y, lpString, nCount, nTabPositions,
/// lpnTabStopPositions, nTabOrigin) -> DWORD (height, width) of the
/// string. The tab stops count from nTabOrigin; in OPAQUE mode the whole
/// extent, tab gaps included, gets the background.
fn tabbed_text_out(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let n = arg_i(a[4]).max(0);
    let Some(text) = text_bytes(uc, a[3], n) else {
        return Ok(0);
    };
    let Some((f, map)) = realized(env, hdc) else {
        return Ok(0);
    };
    let sp = spacing(env, hdc);
    let tabs = tab_stops(uc, &map, arg_i(a[5]), a[6], &f);
    let x = arg_i(a[1]);
    let y = arg_i(a[2]);
    let origin = map.lp_to_dp(Point::new(arg_i(a[7]), 0)).x - map.lp_to_dp(Point::new(x, 0)).x;
    let (runs, w) = tabbed_runs(&f, &text, &sp, &tabs, origin);
    if env.win16.gdi.metafiles.is_metafile(hdc) {
        // On a metafile DC: a TEXTOUT record per run (USER's TabbedTextOut
        // called TextOut).
        let items: Vec<(i32, i32, &[u8])> = runs
            .iter()
            .map(|r| (x + lx(&map, r.x), y, &r.text[..]))
            .collect();
        record_texts(env, hdc, &items);
        return Ok(pack(lx(&map, w), ly(&map, f.height())));
    }
    // The whole extent's background first, then each run transparently.
    let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) else {
        return Ok(pack(lx(&map, w), ly(&map, f.height())));
    };
    let p = cv.lp_to_sp(Point::new(x, y));
    let top = match cv.state.text_align & 0x18 {
        TA_BASELINE => p.y - f.ascent(),
        TA_BOTTOM => p.y - f.height(),
        _ => p.y,
    };
    if cv.state.bk_mode == OPAQUE {
        let bk = Paint::solid(cv.colors().solid(cv.state.bk_color), 13);
        for yy in top..top + f.height() {
            cv.span(yy, p.x, p.x + w, &bk);
        }
    }
    for r in &runs {
        let adv = advances(&f, &r.text, &sp);
        ink(&mut cv, &f, &r.text, &adv, p.x + r.x, top, false);
    }
    cv.close(&mut env.win16.gdi);
    Ok(pack(lx(&map, w), ly(&map, f.height())))
}

/// USER.85 DrawText(hDC, lpString, nCount, lpRect, wFormat) -> the height
/// of the text (module notes).
pub fn draw_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let count = arg_i(a[2]);
    let Some(text) = text_bytes(uc, a[1], if count == -1 { -1 } else { count.max(0) }) else {
        return Ok(0);
    };
    let Some(rect) = read_rect(uc, a[3]) else {
        return Ok(0);
    };
    let format = a[4] as u16;
    crate::machine::record_event(
        uc,
        format!(
            "draw DrawText {:04X} ({}, {}, {}, {}) {} format {format:04X}",
            hdc,
            rect.left,
            rect.top,
            rect.right,
            rect.bottom,
            crate::escape::quoted(&String::from_utf8_lossy(&text))
        ),
    );
    match draw_text_rs(env, hdc, &text, rect, format) {
        None => Ok(0),
        Some((height, calc)) => {
            if format & DT_CALCRECT != 0 {
                write_rect(uc, a[3], calc);
            }
            Ok(height as u32 & 0xFFFF)
        }
    }
}

/// DrawText on DC `hdc` from Rust (USER's own painting): `text` in
/// `rect` (logical coordinates) with the DT_ flags `format`. The height
/// of the text (logical units) and, for DT_CALCRECT, the rectangle it
/// needs (nothing drawn then); None for a bad DC.
pub fn draw_text_rs(
    env: &mut Env,
    hdc: u16,
    text: &[u8],
    rect: Rect,
    format: u16,
) -> Option<(i32, Rect)> {
    let (f, map) = realized(env, hdc)?;
    let mut sp = spacing(env, hdc);
    sp.break_extra = 0;
    sp.break_count = 0;
    let drect = device_rect(&map, rect);
    let l = draw_text_layout(&f, text, drect, format, &sp);
    let height = ly(&map, l.height);
    if format & DT_CALCRECT != 0 {
        let a0 = map.dp_to_lp(Point::new(l.calc.left, l.calc.top));
        let b0 = map.dp_to_lp(Point::new(l.calc.right, l.calc.bottom));
        let out = Rect::new(
            rect.left,
            rect.top,
            rect.left + (b0.x - a0.x),
            rect.top + (b0.y - a0.y),
        );
        return Some((height, out));
    }
    if env.win16.gdi.metafiles.is_metafile(hdc) {
        // On a metafile DC (whose mapping is the identity): a TEXTOUT
        // record per run, as DrawText's TextOut calls made them.
        let mut items: Vec<(i32, i32, &[u8])> = Vec::new();
        for line in &l.lines {
            for r in &line.runs {
                items.push((line.x + r.x, line.y, &r.text[..]));
            }
        }
        record_texts(env, hdc, &items);
        return Some((height, rect));
    }
    let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) else {
        return Some((height, rect));
    };
    let (ox, oy) = (cv.origin.x, cv.origin.y);
    let saved_clip = cv.clip.clone();
    if format & DT_NOCLIP == 0 {
        cv.clip = cv.clip.intersect(&Region::rect(drect.offset(ox, oy)));
    }
    let opaque = cv.state.bk_mode == OPAQUE;
    let fg = Paint::solid(cv.colors().solid(cv.state.text_color), 13);
    for line in &l.lines {
        for r in &line.runs {
            let adv = advances(&f, &r.text, &sp);
            ink(
                &mut cv,
                &f,
                &r.text,
                &adv,
                ox + line.x + r.x,
                oy + line.y,
                opaque,
            );
        }
        let row = oy + line.y + f.underline_row();
        for &(ux, uw) in &line.underlines {
            for dy in 0..i32::from(f.scale_y) {
                let x0 = ox + line.x + ux;
                cv.span(row + dy, x0, x0 + uw, &fg);
            }
        }
    }
    cv.clip = saved_clip;
    cv.close(&mut env.win16.gdi);
    Some((height, rect))
}

/// The 50% checkerboard GDI's gray brush makes in monochrome: the pixels
/// of a GrayString that keep their ink.
fn checkerboard() -> [bool; 64] {
    let mut skip = [false; 64];
    for (i, s) in skip.iter_mut().enumerate() {
        *s = (i % 8 + i / 8) % 2 == 1;
    }
    skip
}

/// USER.185 GrayString(hDC, hBrush, lpOutputFunc, lpData, nCount, X, Y,
/// nWidth, nHeight) -> BOOL. As the SDK describes it: the text is drawn
/// into a monochrome memory bitmap (by TextOut of the string lpData, or
/// by the program's OutputFunc(hDC, lpData, nCount) on a memory DC
/// holding the DC's font), grayed, and copied to (X, Y). Here the graying
/// keeps every other ink pixel (the 50% checkerboard of the gray brush)
/// painted in the DC's text colour, or, when hBrush is given, paints all
/// the ink with that brush. With no function, a zero nCount is the
/// string's length and a zero nWidth or nHeight its extent's. FALSE when
/// the output function (or TextOut) returns FALSE.
fn gray_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::callback::{CallArg, call_far};
    let (hdc, hbr, func, data) = (arg_h(a[0]), arg_h(a[1]), a[2], a[3]);
    let mut count = arg_i(a[4]);
    let (x, y) = (arg_i(a[5]), arg_i(a[6]));
    let Some((f, map)) = realized(env, hdc) else {
        return Ok(0);
    };
    let text = if func == 0 {
        let t =
            text_bytes(uc, data, if count == 0 { -1 } else { count.max(0) }).unwrap_or_default();
        count = t.len() as i32;
        Some(t)
    } else {
        None
    };
    let sp = spacing(env, hdc);
    let mut cx = map.width_to_device(arg_i(a[7]));
    let mut cy = map.height_to_device(arg_i(a[8]));
    if let Some(t) = &text
        && (cx == 0 || cy == 0)
    {
        let (w, h) = extent(&f, t, &sp);
        if cx == 0 {
            cx = w;
        }
        if cy == 0 {
            cy = h;
        }
    }
    if cx <= 0 || cy <= 0 {
        return Ok(1);
    }
    // The memory bitmap stays within what a screen's string needs.
    let (cx, cy) = (cx.min(1024), cy.min(256));
    // USER's thunk segment, for the output function's call (before any
    // object is made, so that a failure leaves none behind).
    let user_cs = if text.is_none() {
        Some(
            env.win16
                .module_by_name("USER")
                .and_then(|m| m.segments.first().copied())
                .ok_or_else(|| Stop::Error("USER is not loaded".into()))?,
        )
    } else {
        None
    };
    // The memory DC and its bitmap, made as a program makes them.
    use super::{bitmap, blit, dc, objects};
    let mem = dc::create_compatible_dc(env, uc, &[u32::from(hdc)])?;
    let bm = bitmap::create_bitmap(env, uc, &[cx as u32, cy as u32, 1, 1, 0])?;
    if mem == 0 || bm == 0 {
        if mem != 0 {
            dc::delete_dc(env, uc, &[mem])?;
        }
        if bm != 0 {
            objects::delete_object(env, uc, &[bm])?;
        }
        return Ok(0);
    }
    let font = env.win16.gdi.dc_mut(hdc).map_or(0, |d| d.state.font);
    let old_bm = objects::select_object(env, uc, &[mem, bm])?;
    objects::select_object(env, uc, &[mem, u32::from(font)])?;
    blit::pat_blt(env, uc, &[mem, 0, 0, cx as u32, cy as u32, 0x00FF_0062])?; // WHITENESS
    dc::set_bk_mode(env, uc, &[mem, 1])?; // TRANSPARENT
    let ok = match &text {
        Some(t) => output(
            env,
            mem as u16,
            Output {
                at: Point::new(0, 0),
                text: t,
                dx: None,
                options: 0,
                rect: None,
            },
        ),
        None => {
            let cs = user_cs.unwrap_or(0);
            let ds = crate::machine::Cpu::reg(&*uc, crate::machine::R::DS);
            let args = [
                CallArg::W(mem as u16),
                CallArg::L(data),
                CallArg::W(count as u16),
            ];
            call_far(env, uc, cs, farptr::split(func), ds, &[], &args)?.value & 0xFFFF != 0
        }
    };
    let mask: Vec<bool> = env
        .win16
        .gdi
        .objects
        .bitmap(bm as u16)
        .map(|b| b.surface.px.iter().map(|&p| p == 0).collect())
        .unwrap_or_default();
    objects::select_object(env, uc, &[mem, old_bm])?;
    dc::delete_dc(env, uc, &[mem])?;
    objects::delete_object(env, uc, &[bm])?;
    if !ok {
        return Ok(0);
    }
    let brush = env.win16.gdi.objects.brush(hbr).cloned();
    let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) else {
        return Ok(1);
    };
    let p = cv.lp_to_sp(Point::new(x, y));
    let paint = match brush {
        Some(b) => b.paint(
            &cv.colors(),
            cv.state.text_color,
            cv.state.bk_color,
            cv.state.bk_mode,
            13,
            (p.x, p.y),
        ),
        None => {
            let mut g = Paint::solid(cv.colors().solid(cv.state.text_color), 13);
            g.solid = false;
            g.skip = Some(checkerboard());
            g.org = (p.x, p.y);
            Some(g)
        }
    };
    if let Some(paint) = paint {
        for my in 0..cy {
            let row = &mask[(my * cx) as usize..((my + 1) * cx) as usize];
            let mut mx = 0;
            while mx < cx {
                if row[mx as usize] {
                    let start = mx;
                    while mx < cx && row[mx as usize] {
                        mx += 1;
                    }
                    cv.span(p.y + my, p.x + start, p.x + mx, &paint);
                } else {
                    mx += 1;
                }
            }
        }
    }
    cv.close(&mut env.win16.gdi);
    Ok(1)
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
    Api::new(
        "USER",
        85,
        "DRAWTEXT",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::W],
        draw_text,
    ),
    Api::new(
        "USER",
        185,
        "GRAYSTRING",
        &[
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        gray_string,
    ),
    Api::new(
        "USER",
        196,
        "TABBEDTEXTOUT",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::W,
        ],
        tabbed_text_out,
    ),
    Api::new(
        "USER",
        197,
        "GETTABBEDTEXTEXTENT",
        &[Arg::W, Arg::L, Arg::W, Arg::W, Arg::L],
        get_tabbed_text_extent,
    ),
];

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::loader::ne::ResourceId;
    use crate::win16::gdi::fnt::{FntFont, FntHeader};
    use crate::win16::gdi::font::FontResource;

    /// A metrics-only fixed font: every character 6 wide, cell 10, space
    /// the break character.
    fn mono() -> PhysFont {
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

    fn line_texts(l: &DtLayout) -> Vec<String> {
        l.lines
            .iter()
            .map(|l| {
                l.runs
                    .iter()
                    .map(|r| String::from_utf8_lossy(&r.text).into_owned())
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect()
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

    /// A paragraph wrapped in a 60-pixel (10-character) rectangle: each
    /// line is the most whole words that fit, the spaces at each break
    /// dropped; a word longer than the line is cut where it stops fitting.
    #[test]
    fn drawtext_wraps_a_paragraph() {
        let f = mono();
        let text = b"The quick brown fox jumps over the lazy dog. Supercalifragilistic!";
        let r = Rect::new(0, 0, 60, 200);
        let l = draw_text_layout(&f, text, r, DT_WORDBREAK, &Spacing::default());
        assert_eq!(
            line_texts(&l),
            vec![
                "The quick",
                "brown fox",
                "jumps over",
                "the lazy",
                "dog.",
                "Supercalif",
                "ragilistic",
                "!"
            ]
        );
        assert_eq!(l.height, 8 * 10);
        assert_eq!(l.lines[2].y, 20);
        // Right-aligned: each line ends at the right edge.
        let l = draw_text_layout(&f, text, r, DT_WORDBREAK | DT_RIGHT, &Spacing::default());
        assert!(l.lines.iter().all(|ln| ln.x + ln.width == 60));
        // Centred: (60 - 54) / 2 for "The quick".
        let l = draw_text_layout(&f, text, r, DT_WORDBREAK | DT_CENTER, &Spacing::default());
        assert_eq!(l.lines[0].x, 3);
        // Hard breaks too; an empty line between two breaks counts; a
        // break at the end starts no line.
        let l = draw_text_layout(&f, b"ab\r\n\ncd\r\n", r, DT_WORDBREAK, &Spacing::default());
        assert_eq!(line_texts(&l), vec!["ab", "", "cd"]);
        let l = draw_text_layout(&f, b"a\n\n", r, 0, &Spacing::default());
        assert_eq!(line_texts(&l), vec!["a", ""]);
        // External leading with DT_EXTERNALLEADING.
        let l = draw_text_layout(&f, b"a\nb", r, DT_EXTERNALLEADING, &Spacing::default());
        assert_eq!((l.height, l.lines[1].y), (24, 12));
    }

    #[test]
    fn drawtext_single_line_prefix_tabs_and_calcrect() {
        let f = mono();
        let sp = Spacing::default();
        let r = Rect::new(10, 20, 110, 60);
        // Single line: CR/LF are characters; vertical centring and bottom.
        let l = draw_text_layout(&f, b"a\r\nb", r, DT_SINGLELINE | DT_VCENTER, &sp);
        assert_eq!(line_texts(&l), vec!["a\r\nb"]);
        assert_eq!(l.lines[0].y, 20 + (40 - 10) / 2);
        let l = draw_text_layout(&f, b"a", r, DT_SINGLELINE | DT_BOTTOM, &sp);
        assert_eq!(l.lines[0].y, 50);
        // DT_VCENTER without DT_SINGLELINE does nothing.
        let l = draw_text_layout(&f, b"a", r, DT_VCENTER, &sp);
        assert_eq!(l.lines[0].y, 20);
        // Prefix: "&File" underlines F; "&&" is one "&".
        let l = draw_text_layout(&f, b"&File && x&y", r, DT_SINGLELINE, &sp);
        assert_eq!(line_texts(&l), vec!["File & xy"]);
        assert_eq!(l.lines[0].underlines, vec![(0, 6), (48, 6)]);
        let l = draw_text_layout(&f, b"&File", r, DT_SINGLELINE | DT_NOPREFIX, &sp);
        assert_eq!(line_texts(&l), vec!["&File"]);
        // Tabs: expanded to every 8 × 6, or every 2 × 6 with DT_TABSTOP.
        let l = draw_text_layout(&f, b"a\tb", r, DT_EXPANDTABS, &sp);
        assert_eq!(l.lines[0].runs[1].x, 48);
        let l = draw_text_layout(&f, b"a\tb", r, DT_EXPANDTABS | DT_TABSTOP | 0x0200, &sp);
        assert_eq!(l.lines[0].runs[1].x, 12);
        // CALCRECT: one line moves the right side; several keep it.
        let l = draw_text_layout(&f, b"abc", r, DT_CALCRECT, &sp);
        assert_eq!(l.calc, Rect::new(10, 20, 28, 30));
        let l = draw_text_layout(&f, b"abc\nd", r, DT_CALCRECT, &sp);
        assert_eq!(l.calc, Rect::new(10, 20, 110, 40));
        let l = draw_text_layout(&f, b"", r, DT_CALCRECT, &sp);
        assert_eq!((l.height, l.calc), (0, Rect::new(10, 20, 10, 20)));
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
    use crate::win16::geom::Rect;

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

        /// DrawText's layout of any text in any rectangle: lines are a line
        /// height apart, with DT_WORDBREAK no line is wider than the
        /// rectangle unless it is one character, every character but the
        /// spaces at breaks and the line breaks is laid out once, and the
        /// height is the lines' (0 for no text).
        #[test]
        fn drawtext_layout_invariants(
            text in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'\n'), Just(b'\t'), Just(b'&'), 33u8..127], 0..200),
            width in -20i32..300,
            format in any::<u16>(),
        ) {
            let f = mono();
            let r = Rect::new(5, 7, 5 + width, 100);
            let l = draw_text_layout(&f, &text, r, format, &Spacing::default());
            if text.is_empty() {
                prop_assert_eq!(l.height, 0);
                prop_assert!(l.lines.is_empty());
            } else {
                prop_assert_eq!(l.height, l.line_height * l.lines.len() as i32);
            }
            for w in l.lines.windows(2) {
                prop_assert_eq!(w[1].y - w[0].y, l.line_height);
            }
            let wrap = format & DT_WORDBREAK != 0 && format & DT_SINGLELINE == 0;
            let expand = format & DT_EXPANDTABS != 0;
            for ln in &l.lines {
                // Spaces ending the text's last line stay on it; the rest
                // of the line must fit.
                let all: Vec<u8> = ln.runs.iter().flat_map(|r| r.text.clone()).collect();
                let kept = all.len() - all.iter().rev().take_while(|&&c| c == b' ').count();
                if wrap && !expand && kept > 1 {
                    let w = advances(&f, &all[..kept], &Spacing::default()).iter().sum::<i32>();
                    prop_assert!(w <= width.max(0), "{} > {}", w, width);
                }
            }
            if format & (DT_SINGLELINE | DT_NOPREFIX) == (DT_SINGLELINE | DT_NOPREFIX) {
                prop_assert!(l.lines.len() <= 1);
                let n: usize = l.lines.iter().flat_map(|x| &x.runs).map(|r| r.text.len()).sum();
                let tabs = if expand { text.iter().filter(|&&c| c == b'\t').count() } else { 0 };
                prop_assert_eq!(n + tabs, text.len());
            }
        }

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

#[cfg(test)]
mod hostile {
    use crate::win16::api::Api;

    /// The text, font and metafile functions called with what a bad
    /// program could pass (live, deleted and made-up handles — metafile
    /// DCs among them —, pointers to random bytes and to nothing, extreme
    /// numbers), through the metafile hook as call_api calls them:
    /// nothing panics, nothing hangs, the object table stays bounded.
    /// Callbacks fail cleanly here (no GDI or USER module is loaded).
    #[test]
    fn no_call_panics_on_hostile_arguments() {
        let ours: Vec<&Api> = [
            super::APIS,
            super::super::font::APIS,
            super::super::metafile::APIS,
        ]
        .iter()
        .flat_map(|t| t.iter())
        .collect();
        // Some of the core's calls too, so that DCs, fonts, bitmaps and
        // metafile DCs exist to be named, and DIB calls go into metafiles
        // (the core's own test covers its blits).
        let helpers: Vec<&Api> = [
            ("GDI", 52),
            ("GDI", 48),
            ("GDI", 45),
            ("GDI", 56),
            ("GDI", 57),
            ("GDI", 87),
            ("GDI", 3),
            ("GDI", 346),
            ("GDI", 8),
            ("GDI", 10),
            ("GDI", 69),
            ("GDI", 68),
            ("GDI", 29),
            ("GDI", 439),
            ("GDI", 443),
            ("GDI", 125),
            ("GDI", 125),
        ]
        .iter()
        .filter_map(|&(md, o)| crate::win16::api::find(md, o))
        .collect();
        let env = crate::win16::hostile::hostile_calls(
            0x9E37_79B9_7F4A_7C15,
            6000,
            &mut |r0| {
                if r0 % 3 == 0 {
                    helpers[(r0 >> 8) as usize % helpers.len()]
                } else {
                    ours[(r0 >> 8) as usize % ours.len()]
                }
            },
            &mut |env, uc, api, args| match crate::win16::gdi::metafile::intercept(
                env, uc, api, args,
            ) {
                Ok(Some(v)) => Ok(v),
                Ok(None) => (api.func)(env, uc, args),
                Err(e) => Err(e),
            },
        );
        assert!(crate::win16::gdi::heap::consistent(&env.win16));
    }
}
