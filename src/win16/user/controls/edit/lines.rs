//! A multiline edit control's lines: the text measured with the
//! control's font and tab stops, broken at CR LF and at the formatting
//! rectangle's width, and the soft line breaks EM_FMTLINES writes.

use super::{DEFAULT_TAB, ES_AUTOHSCROLL, ES_MULTILINE, Env, Uc, state, text, wm};

/// A line: [start, end) is its text, `next` where the next one starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

/// How wide each character is, and where tabs stop.
pub(super) struct Measure {
    pub(super) font: crate::win16::gdi::font::PhysFont,
    /// Tab stops in pixels, ascending; past the last, every `every`.
    pub(super) stops: Vec<i32>,
    pub(super) every: i32,
}

impl Measure {
    pub(super) fn advance(&self, x: i32, c: u8) -> i32 {
        if c == b'\t' {
            let next = self
                .stops
                .iter()
                .copied()
                .find(|&s| s > x)
                .unwrap_or_else(|| (x / self.every + 1) * self.every);
            return next - x;
        }
        self.font.advance(c)
    }

    pub(super) fn width(&self, s: &[u8]) -> i32 {
        s.iter().fold(0, |x, &c| x + self.advance(x, c))
    }
}

pub(super) fn measure(env: &mut Env, hwnd: u16) -> Measure {
    let (font, tabs) = {
        let e = state(env, hwnd);
        (e.font, e.tabs.clone())
    };
    let base = i32::from(crate::win16::user::dialog::base_units(env).0);
    let to_px = |du: u16| (i32::from(du) * base / 4).max(1);
    let (stops, every) = match tabs.as_slice() {
        [] => (Vec::new(), to_px(DEFAULT_TAB)),
        [one] => (Vec::new(), to_px(*one)),
        many => (many.iter().map(|&t| to_px(t)).collect(), to_px(DEFAULT_TAB)),
    };
    Measure {
        font: super::super::font_of(env, font),
        stops,
        every,
    }
}

/// The formatting rectangle.
pub(super) fn format_rect(env: &mut Env, hwnd: u16) -> (i16, i16, i16, i16) {
    if let Some(r) = state(env, hwnd).format {
        return r;
    }
    let (cx, cy) = wm::client_size(env, hwnd);
    (0, 0, cx, cy)
}

/// Break `t` into lines (module doc): CR LF ends a line, CR CR LF is a
/// wrap EM_FMTLINES wrote, and with `wrap` lines break at that width.
pub fn break_lines(t: &[u8], wrap: Option<i32>, m: &dyn Fn(i32, u8) -> i32) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    loop {
        let (hard, brk) = find_break(t, start);
        let mut seg = start;
        if let Some(width) = wrap.filter(|&w| w > 0) {
            loop {
                let mut x = 0;
                let mut after_blank = None;
                let mut cut = None;
                for (i, &c) in t.iter().enumerate().take(hard).skip(seg) {
                    let w = m(x, c);
                    if c == b' ' || c == b'\t' {
                        x += w;
                        after_blank = Some(i + 1);
                        continue;
                    }
                    if x + w > width && i > seg {
                        cut = Some(match after_blank {
                            Some(b) if b > seg => b,
                            _ => i,
                        });
                        break;
                    }
                    x += w;
                }
                match cut {
                    Some(c) => {
                        lines.push(Line {
                            start: seg,
                            end: c,
                            next: c,
                        });
                        seg = c;
                    }
                    None => break,
                }
            }
        }
        lines.push(Line {
            start: seg,
            end: hard,
            next: hard + brk,
        });
        if brk == 0 {
            return lines;
        }
        start = hard + brk;
    }
}

/// The next line break at or after `from`: its position and length (CR CR
/// LF 3, CR LF 2), or (len, 0).
pub(super) fn find_break(t: &[u8], from: usize) -> (usize, usize) {
    let mut i = from;
    while i + 1 < t.len() {
        if t[i] == b'\r' {
            if t[i + 1] == b'\n' {
                return (i, 2);
            }
            if t[i + 1] == b'\r' && t.get(i + 2) == Some(&b'\n') {
                return (i, 3);
            }
        }
        i += 1;
    }
    (t.len(), 0)
}

pub(super) fn multiline(env: &Env, hwnd: u16) -> bool {
    wm::style(env, hwnd) & ES_MULTILINE != 0
}

/// The control's lines.
pub(super) fn lines(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Vec<Line> {
    let t = text(env, uc, hwnd);
    if !multiline(env, hwnd) {
        return vec![Line {
            start: 0,
            end: t.len(),
            next: t.len(),
        }];
    }
    let wrap = if wm::style(env, hwnd) & ES_AUTOHSCROLL == 0 {
        let r = format_rect(env, hwnd);
        Some(i32::from(r.2) - i32::from(r.0))
    } else {
        None
    };
    let m = measure(env, hwnd);
    break_lines(&t, wrap, &|x, c| m.advance(x, c))
}

/// The line holding character `i`.
pub(super) fn line_of(lines: &[Line], i: usize) -> usize {
    lines.iter().rposition(|l| l.start <= i).unwrap_or(0)
}

/// Put the caret and anchor inside the text (after a change of it).
pub(super) fn clamp_sel(env: &mut Env, len: usize, hwnd: u16) {
    let e = state(env, hwnd);
    e.anchor = e.anchor.min(len);
    e.caret = e.caret.min(len);
}

/// Strip EM_FMTLINES' CR CR LF wraps out of `t`, mapping `pos`.
pub(super) fn strip_soft(t: &[u8], pos: &mut [usize]) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    let old: Vec<usize> = pos.to_vec();
    while i < t.len() {
        if t[i..].starts_with(b"\r\r\n") {
            for (p, &o) in pos.iter_mut().zip(&old) {
                if o > i {
                    *p -= (o - i).min(3);
                }
            }
            i += 3;
            continue;
        }
        out.push(t[i]);
        i += 1;
    }
    out
}

/// With EM_FMTLINES on, write CR CR LF at every wrap of `t` (without any),
/// mapping `pos`.
pub(super) fn add_soft(env: &mut Env, hwnd: u16, t: &[u8], pos: &mut [usize]) -> Vec<u8> {
    let r = format_rect(env, hwnd);
    let m = measure(env, hwnd);
    let ls = break_lines(t, Some(i32::from(r.2) - i32::from(r.0)), &|x, c| {
        m.advance(x, c)
    });
    let old: Vec<usize> = pos.to_vec();
    let mut out = Vec::with_capacity(t.len() + 16);
    for l in &ls {
        out.extend_from_slice(&t[l.start..l.next]);
        if l.end == l.next && l.next < t.len() {
            for (p, &o) in pos.iter_mut().zip(&old) {
                if o >= l.next {
                    *p += 3;
                }
            }
            out.extend_from_slice(b"\r\r\n");
        }
    }
    out
}
