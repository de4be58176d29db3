//! USER's text drawing: DrawText, GrayString, TabbedTextOut and
//! GetTabbedTextExtent. They measure and ink text by GDI's rules
//! (gdi/text.rs: spacing, tab stops, the DC's font), and lay DrawText's
//! lines out here.
//!
//! # DrawText
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

use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::gdi::dc::{Canvas, OPAQUE};
use crate::win16::gdi::font::PhysFont;
use crate::win16::gdi::mapping::Mapping;
use crate::win16::gdi::raster::Paint;
use crate::win16::gdi::text::*;
use crate::win16::gdi::{Env, Stop, Uc, arg_h, arg_i, read_rect, write_rect};
use crate::win16::geom::{Point, Rect, Region};

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
    use crate::win16::gdi::{bitmap, blit, dc, objects};
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
    use super::*;
    use crate::win16::gdi::text::tests::mono;

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
    use proptest::prelude::*;

    use super::*;
    use crate::win16::gdi::text::tests::mono;

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

    }
}

#[cfg(test)]
mod hostile {
    use crate::win16::api::Api;

    /// GDI's text, font and metafile functions and USER's text functions
    /// (which draw through them) called with what a bad
    /// program could pass (live, deleted and made-up handles — metafile
    /// DCs among them —, pointers to random bytes and to nothing, extreme
    /// numbers), through the metafile hook as call_api calls them:
    /// nothing panics, nothing hangs, the object table stays bounded.
    /// Callbacks fail cleanly here (no GDI or USER module is loaded).
    #[test]
    fn no_call_panics_on_hostile_arguments() {
        let ours: Vec<&Api> = [
            crate::win16::gdi::text::APIS,
            super::APIS,
            crate::win16::gdi::font::APIS,
            crate::win16::gdi::metafile::APIS,
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
