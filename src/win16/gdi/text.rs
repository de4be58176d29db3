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

use super::font::PhysFont;
use crate::win16::geom::Rect;

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
