//! The SCROLLBAR class (USER.304 SBWndProc): horizontal and vertical
//! scroll bar controls and size boxes (SBS_ styles).
//!
//! Windows 3.1 behaviour (SDK: "Scroll Bar Styles", SetScrollPos,
//! SetScrollRange, WM_HSCROLL, WM_VSCROLL):
//!
//! - A scroll bar control's range starts empty (0 to 0), unlike a window's
//!   standard scroll bars (0 to 100). SetScrollRange and SetScrollPos with
//!   SB_CTL reach it ([`set_range`], [`set_pos`]); the position is kept
//!   inside the range, and SetScrollPos answers the previous one.
//! - It never moves by itself: clicking it tells its parent what the user
//!   asked with WM_HSCROLL (SBS_HORZ) or WM_VSCROLL (SBS_VERT), wParam =
//!   SB_LINEUP/SB_LINEDOWN (the arrows), SB_PAGEUP/SB_PAGEDOWN (the shaft
//!   before or after the thumb) or SB_THUMBPOSITION (the thumb, released),
//!   lParam = MAKELONG(position, hwndCtl) — the position meaningful for
//!   SB_THUMBPOSITION and SB_THUMBTRACK only — then SB_ENDSCROLL when the
//!   mouse button comes up. The parent calls SetScrollPos.
//! - With the focus, the arrow keys, Page Up/Down, Home and End send
//!   SB_LINEUP/DOWN, SB_PAGEUP/DOWN, SB_TOP and SB_BOTTOM, each followed
//!   by SB_ENDSCROLL (WM_GETDLGCODE: DLGC_WANTARROWS).
//!
//! Geometry (VGA metrics): the arrows are squares as wide as the bar, the
//! thumb as long as the bar is wide (SM_CYVTHUMB = SM_CXHTHUMB = 16 for a
//! standard bar), placed in the shaft between the arrows in proportion to
//! (pos − min) / (max − min).

use super::wm::{self, WM_HSCROLL, WM_KILLFOCUS, WM_VSCROLL};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::user::{
    WM_KEYDOWN, WM_LBUTTONDOWN, WM_LBUTTONUP, WM_NCDESTROY, WM_PAINT, WM_SETFOCUS,
};

pub const SBS_HORZ: u32 = 0x0000;
pub const SBS_VERT: u32 = 0x0001;
pub const SBS_SIZEBOX: u32 = 0x0008;

pub const SB_LINEUP: u16 = 0;
pub const SB_LINEDOWN: u16 = 1;
pub const SB_PAGEUP: u16 = 2;
pub const SB_PAGEDOWN: u16 = 3;
pub const SB_THUMBPOSITION: u16 = 4;
pub const SB_THUMBTRACK: u16 = 5;
pub const SB_TOP: u16 = 6;
pub const SB_BOTTOM: u16 = 7;
pub const SB_ENDSCROLL: u16 = 8;

const WM_GETDLGCODE: u16 = 0x0087;
const DLGC_WANTARROWS: u32 = 0x0001;

/// A scroll bar control's state.
#[derive(Debug, Clone, Default)]
pub struct ScrollBar {
    pub min: i16,
    pub max: i16,
    pub pos: i16,
    /// What the mouse went down on, until it comes up.
    pub tracking: Option<u16>,
    pub focus: bool,
}

fn state(env: &mut Env, hwnd: u16) -> &mut ScrollBar {
    super::state_of(env, hwnd)
}

/// Is `hwnd` a scroll bar control?
pub fn is_scroll_bar(env: &Env, hwnd: u16) -> bool {
    wm::window(env, hwnd).is_some_and(|w| w.class.eq_ignore_ascii_case("SCROLLBAR"))
}

/// SetScrollPos(hwnd, SB_CTL, pos, redraw): the previous position, None
/// when `hwnd` is no scroll bar control.
pub fn set_pos(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    pos: i16,
    redraw: bool,
) -> Result<Option<i16>, Stop> {
    if !is_scroll_bar(env, hwnd) {
        return Ok(None);
    }
    let s = state(env, hwnd);
    let old = s.pos;
    s.pos = pos.clamp(s.min.min(s.max), s.max.max(s.min));
    if redraw {
        wm::invalidate(env, uc, hwnd)?;
    }
    Ok(Some(old))
}

/// GetScrollPos(hwnd, SB_CTL).
pub fn get_pos(env: &mut Env, hwnd: u16) -> Option<i16> {
    is_scroll_bar(env, hwnd).then(|| state(env, hwnd).pos)
}

/// SetScrollRange(hwnd, SB_CTL, min, max, redraw): false when `hwnd` is no
/// scroll bar control or the range is wider than 32767.
pub fn set_range(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    min: i16,
    max: i16,
    redraw: bool,
) -> Result<bool, Stop> {
    if !is_scroll_bar(env, hwnd) || i32::from(max) - i32::from(min) > 32767 {
        return Ok(false);
    }
    let s = state(env, hwnd);
    s.min = min;
    s.max = max;
    s.pos = s.pos.clamp(min.min(max), max.max(min));
    if redraw {
        wm::invalidate(env, uc, hwnd)?;
    }
    Ok(true)
}

/// GetScrollRange(hwnd, SB_CTL).
pub fn get_range(env: &mut Env, hwnd: u16) -> Option<(i16, i16)> {
    is_scroll_bar(env, hwnd).then(|| {
        let s = state(env, hwnd);
        (s.min, s.max)
    })
}

/// Tell the parent: WM_HSCROLL or WM_VSCROLL (code, MAKELONG(pos, hwnd)).
fn scroll(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, code: u16, pos: i16) -> Result<(), Stop> {
    let parent = wm::parent(env, hwnd);
    if parent == 0 {
        return Ok(());
    }
    let msg = if wm::style(env, hwnd) & SBS_VERT != 0 {
        WM_VSCROLL
    } else {
        WM_HSCROLL
    };
    wm::send(
        env,
        uc,
        parent,
        msg,
        code,
        u32::from(hwnd) << 16 | u32::from(pos as u16),
    )?;
    Ok(())
}

/// The thumb's extent along the bar (None when the range is empty or the
/// bar too short for one).
fn thumb(env: &mut Env, hwnd: u16) -> Option<(i16, i16)> {
    let vert = wm::style(env, hwnd) & SBS_VERT != 0;
    let (cx, cy) = wm::client_size(env, hwnd);
    let (across, len) = if vert { (cx, cy) } else { (cy, cx) };
    let arrow = across.min(len / 2);
    let s = state(env, hwnd).clone();
    let track = len - 2 * arrow;
    let thumb = across.min(track);
    let span = i32::from(s.max) - i32::from(s.min);
    if span <= 0 || track <= thumb {
        return None;
    }
    let top =
        arrow + ((i32::from(s.pos) - i32::from(s.min)) * i32::from(track - thumb) / span) as i16;
    Some((top, top + thumb))
}

/// The part of the bar at client point (x, y): the scroll code a press
/// there asks for.
fn hit(env: &mut Env, hwnd: u16, x: i16, y: i16) -> Option<u16> {
    let vert = wm::style(env, hwnd) & SBS_VERT != 0;
    let (cx, cy) = wm::client_size(env, hwnd);
    let (along, across, len) = if vert { (y, cx, cy) } else { (x, cy, cx) };
    if along < 0 || along >= len {
        return None;
    }
    let arrow = across.min(len / 2);
    if along < arrow {
        return Some(SB_LINEUP);
    }
    if along >= len - arrow {
        return Some(SB_LINEDOWN);
    }
    let s = state(env, hwnd).clone();
    let track = len - 2 * arrow;
    let thumb = across.min(track);
    let span = i32::from(s.max) - i32::from(s.min);
    let top = if span <= 0 || track <= thumb {
        arrow
    } else {
        arrow + ((i32::from(s.pos) - i32::from(s.min)) * i32::from(track - thumb) / span) as i16
    };
    Some(if along < top {
        SB_PAGEUP
    } else if along < top + thumb {
        SB_THUMBPOSITION
    } else {
        SB_PAGEDOWN
    })
}

/// USER.304 SBWndProc(hWnd, msg, wParam, lParam).
pub fn sb_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    match msg {
        WM_LBUTTONDOWN if style & SBS_SIZEBOX == 0 => {
            let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
            if wm::style(env, hwnd) & wm::WS_TABSTOP != 0 {
                wm::set_focus(env, uc, hwnd)?;
            }
            let part = hit(env, hwnd, x, y);
            state(env, hwnd).tracking = part;
            if let Some(code) = part.filter(|&c| c != SB_THUMBPOSITION) {
                scroll(env, uc, hwnd, code, 0)?;
            }
            Ok(0)
        }
        WM_LBUTTONUP => {
            let Some(part) = state(env, hwnd).tracking.take() else {
                return Ok(0);
            };
            if part == SB_THUMBPOSITION {
                let pos = state(env, hwnd).pos;
                scroll(env, uc, hwnd, SB_THUMBPOSITION, pos)?;
            }
            scroll(env, uc, hwnd, SB_ENDSCROLL, 0)?;
            Ok(0)
        }
        WM_KEYDOWN => {
            let code = match wparam {
                0x25 | 0x26 => Some(SB_LINEUP),   // VK_LEFT, VK_UP
                0x27 | 0x28 => Some(SB_LINEDOWN), // VK_RIGHT, VK_DOWN
                0x21 => Some(SB_PAGEUP),          // VK_PRIOR
                0x22 => Some(SB_PAGEDOWN),        // VK_NEXT
                0x24 => Some(SB_TOP),             // VK_HOME
                0x23 => Some(SB_BOTTOM),          // VK_END
                _ => None,
            };
            if let Some(code) = code.filter(|_| style & SBS_SIZEBOX == 0) {
                scroll(env, uc, hwnd, code, 0)?;
                scroll(env, uc, hwnd, SB_ENDSCROLL, 0)?;
            }
            Ok(0)
        }
        WM_GETDLGCODE => Ok(DLGC_WANTARROWS),
        WM_SETFOCUS => {
            state(env, hwnd).focus = true;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_KILLFOCUS => {
            state(env, hwnd).focus = false;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_PAINT => {
            let vertical = style & SBS_VERT != 0;
            let thumb = if style & SBS_SIZEBOX != 0 {
                None
            } else {
                thumb(env, hwnd)
            };
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                if style & SBS_SIZEBOX != 0 {
                    let (cx, cy) = wm::client_size(env, hwnd);
                    let p = super::paint::Painter::new(
                        env,
                        uc,
                        hwnd,
                        hdc,
                        super::paint::CTLCOLOR_SCROLLBAR,
                    )?;
                    return p.fill(
                        env,
                        uc,
                        (0, 0, cx, cy),
                        super::paint::sys_brush(super::paint::COLOR_BTNFACE),
                    );
                }
                super::paint::scroll_bar(env, uc, hwnd, hdc, vertical, thumb)
            })?;
            Ok(0)
        }
        WM_NCDESTROY => {
            super::forget(env, hwnd);
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}
