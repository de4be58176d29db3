//! The status bar (class `msctls_statusbar`) and DrawStatusText.
//!
//! A status bar is a child window along the bottom of its parent's client
//! area (the top with CCS_TOP), as wide as the client area and as high as
//! the System font's characters plus its borders ([`height`]). Each time
//! it gets WM_SIZE (the parent passes its own on, as the SDK's samples do)
//! it takes that place again. It holds up to [`MAX_PARTS`] parts, each
//! with a right edge (SB_SETPARTS; -1 reaches the right end) and a text
//! with its drawing type (SB_SETTEXT: 0 sunken, SBT_NOBORDERS,
//! SBT_POPOUT), and a *simple* mode (SB_SIMPLE TRUE) that shows one text
//! of its own over the whole width: part 255 of SB_SETTEXT. WM_SETTEXT
//! and WM_GETTEXT are part 0's text. It paints each part with
//! [`draw_status_text`].
//!
//! DrawStatusText(hdc, lprc, lpszText, uFlags) fills the rectangle with
//! the button face colour, draws a one-pixel 3-D border (shadow at the
//! top and left, highlight at the bottom and right; raised the other way
//! with SBT_POPOUT; none with SBT_NOBORDERS) and the text in the button
//! text colour, transparent, from [`TEXT_MARGIN`] pixels in and centred
//! vertically; tab characters split it into a left-aligned, a centred and
//! a right-aligned piece.

use super::WM_USER;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::user::controls::paint::{
    COLOR_BTNFACE, COLOR_BTNHIGHLIGHT, COLOR_BTNSHADOW, COLOR_BTNTEXT, DT_CENTER, DT_LEFT,
    DT_NOPREFIX, DT_RIGHT, DT_SINGLELINE, DT_VCENTER, Painter, R, sys_brush, sys_color,
};
use crate::win16::user::controls::wm;

pub const SB_SETTEXT: u16 = WM_USER + 1;
pub const SB_GETTEXT: u16 = WM_USER + 2;
pub const SB_GETTEXTLENGTH: u16 = WM_USER + 3;
pub const SB_SETPARTS: u16 = WM_USER + 4;
pub const SB_GETPARTS: u16 = WM_USER + 6;
pub const SB_GETBORDERS: u16 = WM_USER + 7;
pub const SB_SETMINHEIGHT: u16 = WM_USER + 8;
pub const SB_SIMPLE: u16 = WM_USER + 9;
pub const SB_GETRECT: u16 = WM_USER + 10;

pub const SBT_NOBORDERS: u16 = 0x0100;
pub const SBT_POPOUT: u16 = 0x0200;
/// CCS_TOP: along the top instead.
pub const CCS_TOP: u32 = 0x0001;
/// CCS_NOPARENTALIGN and CCS_NORESIZE: keep the place the program gave.
pub const CCS_NOPARENTALIGN: u32 = 0x0008;
pub const CCS_NORESIZE: u32 = 0x0004;

/// The most parts a status bar has.
pub const MAX_PARTS: usize = 255;
/// The simple mode's part number (SB_SETTEXT).
pub const SIMPLE_PART: u16 = 255;
/// Pixels between a part's edge and its text.
pub const TEXT_MARGIN: i16 = 3;
/// The borders: none at the sides, 2 pixels above and below, 2 between
/// parts (SB_GETBORDERS).
pub const BORDER_Y: i16 = 2;
pub const BORDER_BETWEEN: i16 = 2;

/// One part: its right edge (client x, -1: the right end), text and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub right: i16,
    pub text: Vec<u8>,
    pub kind: u16,
}

/// A status bar's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusBar {
    pub parts: Vec<Part>,
    pub simple: bool,
    pub simple_text: Part,
    pub min_height: i16,
}

impl Default for StatusBar {
    fn default() -> Self {
        StatusBar {
            parts: vec![Part {
                right: -1,
                text: Vec::new(),
                kind: 0,
            }],
            simple: false,
            simple_text: Part {
                right: -1,
                text: Vec::new(),
                kind: 0,
            },
            min_height: 0,
        }
    }
}

/// The status bar's height: the System font's character height, a pixel
/// of border and a pixel of space above and below the text, and the
/// borders ([`BORDER_Y`]); at least the SB_SETMINHEIGHT height.
pub fn height(env: &mut Env, min: i16) -> i16 {
    let tm = crate::win16::user::controls::font_metrics(env, 0);
    (tm.height + 4 + 2 * BORDER_Y).max(min)
}

fn state(env: &mut Env, hwnd: u16) -> &mut StatusBar {
    env.win16.commctrl.status.entry(hwnd).or_default()
}

/// Take its place along the parent's client area (module doc).
fn place(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    if style & (CCS_NOPARENTALIGN | CCS_NORESIZE) != 0 {
        return Ok(());
    }
    let parent = wm::parent(env, hwnd);
    let (cx, cy) = wm::client_size(env, parent);
    let min = state(env, hwnd).min_height;
    let h = height(env, min);
    let r = if style & CCS_TOP != 0 {
        (0, 0, cx, h)
    } else {
        (0, cy - h, cx, cy)
    };
    if wm::rect(env, hwnd) != r {
        wm::move_window(env, uc, hwnd, r)?;
    }
    Ok(())
}

/// The rectangles of the parts (client coordinates), as painted.
pub fn part_rects(env: &Env, hwnd: u16, sb: &StatusBar) -> Vec<R> {
    let (cx, cy) = wm::client_size(env, hwnd);
    let (top, bottom) = (BORDER_Y, cy - BORDER_Y);
    if sb.simple {
        return vec![(0, top, cx, bottom)];
    }
    let mut left = 0;
    sb.parts
        .iter()
        .map(|p| {
            let right = if p.right < 0 { cx } else { p.right.min(cx) };
            let r = (left, top, right.max(left), bottom);
            left = right + BORDER_BETWEEN;
            r
        })
        .collect()
}

/// DrawStatusText's work (module doc).
pub fn draw(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    r: R,
    text: &[u8],
    flags: u16,
) -> Result<(), Stop> {
    let p = Painter { hdc, background: 0 };
    p.fill(env, uc, r, sys_brush(COLOR_BTNFACE))?;
    if flags & SBT_NOBORDERS == 0 {
        let (dark, light) = if flags & SBT_POPOUT != 0 {
            (COLOR_BTNHIGHLIGHT, COLOR_BTNSHADOW)
        } else {
            (COLOR_BTNSHADOW, COLOR_BTNHIGHLIGHT)
        };
        let (l1, t1) = (r.0.saturating_add(1), r.1.saturating_add(1));
        let (r1, b1) = (r.2.saturating_sub(1), r.3.saturating_sub(1));
        p.fill(env, uc, (r.0, r.1, r.2, t1), sys_brush(dark))?;
        p.fill(env, uc, (r.0, r.1, l1, r.3), sys_brush(dark))?;
        p.fill(env, uc, (r.0, b1, r.2, r.3), sys_brush(light))?;
        p.fill(env, uc, (r1, r.1, r.2, r.3), sys_brush(light))?;
    }
    let old_mode = crate::win16::gdi::dc::set_bk_mode(env, uc, &[u32::from(hdc), 1])?;
    let old_color = p.text_color(env, uc, sys_color(env, COLOR_BTNTEXT))?;
    let inner = (
        r.0.saturating_add(TEXT_MARGIN),
        r.1.saturating_add(1),
        r.2.saturating_sub(TEXT_MARGIN),
        r.3.saturating_sub(1),
    );
    let pieces: Vec<&[u8]> = text.splitn(3, |&c| c == b'\t').collect();
    let aligns = [DT_LEFT, DT_CENTER, DT_RIGHT];
    for (piece, align) in pieces.iter().zip(aligns) {
        if !piece.is_empty() {
            p.draw_text(
                env,
                uc,
                piece,
                inner,
                align | DT_VCENTER | DT_SINGLELINE | DT_NOPREFIX,
            )?;
        }
    }
    p.text_color(env, uc, old_color)?;
    crate::win16::gdi::dc::set_bk_mode(env, uc, &[u32::from(hdc), old_mode])?;
    Ok(())
}

/// Read a RECT.
fn read_rect(uc: &Uc<'_>, p: u32) -> Option<R> {
    let b = farptr::read_bytes(uc, p, 8)?;
    let v = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
    Some((v(0), v(2), v(4), v(6)))
}

/// COMMCTRL.5 DrawStatusText(hdc, lprc, lpszText, uFlags) (module doc).
pub fn draw_status_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[1]) else {
        return Ok(0);
    };
    let text = if a[2] == 0 {
        Vec::new()
    } else {
        farptr::read_cstr(uc, a[2], farptr::MAX_STRING).unwrap_or_default()
    };
    draw(env, uc, a[0] as u16, r, &text, a[3] as u16)?;
    Ok(0)
}

/// SB_GETTEXT's and SB_GETTEXTLENGTH's answer: the length in the low
/// word, the type in the high word.
fn text_result(p: &Part) -> u32 {
    (p.text.len() as u32 & 0xFFFF) | u32::from(p.kind) << 16
}

/// The status bar's window procedure (module doc).
pub fn status_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::user::{WM_CREATE, WM_NCDESTROY, WM_PAINT};
    const WM_SIZE: u16 = 0x0005;
    const WM_SETTEXT: u16 = 0x000C;
    const WM_GETTEXT: u16 = 0x000D;
    const WM_GETTEXTLENGTH: u16 = 0x000E;
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    match msg {
        WM_CREATE => {
            let text = wm::title(env, hwnd);
            state(env, hwnd).parts[0].text = text;
            place(env, uc, hwnd)?;
            Ok(0)
        }
        WM_SIZE => {
            place(env, uc, hwnd)?;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_SETTEXT => {
            let text = farptr::read_cstr(uc, lparam, farptr::MAX_STRING).unwrap_or_default();
            state(env, hwnd).parts[0].text = text.clone();
            wm::set_title(env, uc, hwnd, &text);
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        WM_GETTEXT | WM_GETTEXTLENGTH => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
        SB_SETTEXT => {
            let (part, kind) = (wparam & 0xFF, wparam & 0xFF00);
            let text = if lparam == 0 {
                Vec::new()
            } else {
                farptr::read_cstr(uc, lparam, farptr::MAX_STRING).unwrap_or_default()
            };
            let sb = state(env, hwnd);
            let slot = if part == SIMPLE_PART {
                &mut sb.simple_text
            } else if let Some(p) = sb.parts.get_mut(usize::from(part)) {
                p
            } else {
                return Ok(0);
            };
            slot.text = text.clone();
            slot.kind = kind;
            if part == 0 {
                wm::set_title(env, uc, hwnd, &text);
            }
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        SB_GETTEXT | SB_GETTEXTLENGTH => {
            let sb = state(env, hwnd).clone();
            let p = if sb.simple {
                &sb.simple_text
            } else {
                match sb.parts.get(usize::from(wparam)) {
                    Some(p) => p,
                    None => return Ok(0),
                }
            };
            if msg == SB_GETTEXT && lparam != 0 {
                let mut t = p.text.clone();
                t.push(0);
                farptr::write_bytes(uc, lparam, &t);
            }
            Ok(text_result(p))
        }
        SB_SETPARTS => {
            let n = usize::from(wparam);
            if n == 0 || n > MAX_PARTS {
                return Ok(0);
            }
            let Some(b) = farptr::read_bytes(uc, lparam, n * 2) else {
                return Ok(0);
            };
            let sb = state(env, hwnd);
            let old = std::mem::take(&mut sb.parts);
            sb.parts = (0..n)
                .map(|i| {
                    let right = i16::from_le_bytes([b[i * 2], b[i * 2 + 1]]);
                    let (text, kind) = old
                        .get(i)
                        .map_or((Vec::new(), 0), |p| (p.text.clone(), p.kind));
                    Part { right, text, kind }
                })
                .collect();
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        SB_GETPARTS => {
            let sb = state(env, hwnd).clone();
            let n = sb.parts.len().min(usize::from(wparam));
            if lparam != 0 {
                let b: Vec<u8> = sb.parts[..n]
                    .iter()
                    .flat_map(|p| p.right.to_le_bytes())
                    .collect();
                farptr::write_bytes(uc, lparam, &b);
            }
            Ok(sb.parts.len() as u32)
        }
        SB_GETBORDERS => {
            let b: Vec<u8> = [0i16, BORDER_Y, BORDER_BETWEEN]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            Ok(u32::from(farptr::write_bytes(uc, lparam, &b)))
        }
        SB_SETMINHEIGHT => {
            state(env, hwnd).min_height = wparam as i16;
            Ok(0)
        }
        SB_SIMPLE => {
            state(env, hwnd).simple = wparam != 0;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        SB_GETRECT => {
            let sb = state(env, hwnd).clone();
            let rects = part_rects(env, hwnd, &sb);
            let Some(r) = rects.get(usize::from(wparam)) else {
                return Ok(0);
            };
            let b: Vec<u8> = [r.0, r.1, r.2, r.3]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            Ok(u32::from(farptr::write_bytes(uc, lparam, &b)))
        }
        WM_PAINT => {
            let sb = state(env, hwnd).clone();
            let rects = part_rects(env, hwnd, &sb);
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                let (cx, cy) = wm::client_size(env, hwnd);
                let p = Painter { hdc, background: 0 };
                p.fill(env, uc, (0, 0, cx, cy), sys_brush(COLOR_BTNFACE))?;
                if sb.simple {
                    let t = &sb.simple_text;
                    return draw(env, uc, hdc, rects[0], &t.text, t.kind);
                }
                for (part, r) in sb.parts.iter().zip(rects) {
                    draw(env, uc, hdc, r, &part.text, part.kind)?;
                }
                Ok(())
            })?;
            Ok(0)
        }
        WM_NCDESTROY => {
            env.win16.commctrl.status.remove(&hwnd);
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_result_packs_length_and_type() {
        let p = Part {
            right: -1,
            text: b"Ready".to_vec(),
            kind: SBT_POPOUT,
        };
        assert_eq!(text_result(&p), 0x0200_0005);
    }
}
