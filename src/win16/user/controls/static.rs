//! The STATIC class (USER.302 StaticWndProc): text (SS_LEFT, SS_CENTER,
//! SS_RIGHT, SS_SIMPLE, SS_LEFTNOWORDWRAP, with or without SS_NOPREFIX),
//! icons (SS_ICON), filled rectangles (SS_BLACKRECT, SS_GRAYRECT,
//! SS_WHITERECT) and frames (SS_BLACKFRAME, SS_GRAYFRAME, SS_WHITEFRAME).
//!
//! Windows 3.1 behaviour (SDK: "Static Control Styles", STM_SETICON,
//! STM_GETICON):
//!
//! - An SS_ICON control's window text names an icon resource of the
//!   instance it was created with (a string, or in a dialog template the
//!   0xFF byte and a word: an ordinal). It loads that icon when created
//!   and sizes itself to the icon (SM_CXICON × SM_CYICON, 32 × 32 on a
//!   VGA), whatever size it was given.
//! - STM_SETICON (wParam = hIcon) sets the icon and answers the previous
//!   one; STM_GETICON answers the current one.
//! - A static control never takes the focus: WM_GETDLGCODE answers
//!   DLGC_STATIC, WM_NCHITTEST HTTRANSPARENT (the click goes to the window
//!   beneath).
//! - Its text is the window text (DefWindowProc); setting it repaints.

use super::button::DLGC_STATIC;
use super::wm::{self, WM_GETDLGCODE, WM_GETFONT, WM_SETFONT, WM_SETTEXT};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::user::{WM_CREATE, WM_NCDESTROY, WM_PAINT};

pub const SS_LEFT: u32 = 0x00;
pub const SS_CENTER: u32 = 0x01;
pub const SS_RIGHT: u32 = 0x02;
pub const SS_ICON: u32 = 0x03;
pub const SS_BLACKRECT: u32 = 0x04;
pub const SS_GRAYRECT: u32 = 0x05;
pub const SS_WHITERECT: u32 = 0x06;
pub const SS_BLACKFRAME: u32 = 0x07;
pub const SS_GRAYFRAME: u32 = 0x08;
pub const SS_WHITEFRAME: u32 = 0x09;
pub const SS_SIMPLE: u32 = 0x0B;
pub const SS_LEFTNOWORDWRAP: u32 = 0x0C;
pub const SS_NOPREFIX: u32 = 0x80;

pub const STM_SETICON: u16 = 0x0400;
pub const STM_GETICON: u16 = 0x0401;

const WM_NCHITTEST: u16 = 0x0084;
const WM_ENABLE: u16 = 0x000A;
const HTTRANSPARENT: u32 = 0xFFFF_FFFF;
/// SM_CXICON, SM_CYICON on a VGA.
const ICON_SIZE: i16 = 32;

/// A static control's state.
#[derive(Debug, Clone, Default)]
pub struct Static {
    pub font: u16,
    pub icon: u16,
}

fn state(env: &mut Env, hwnd: u16) -> &mut Static {
    super::state_of(env, hwnd)
}

/// The icon an SS_ICON control's creation text names (CREATESTRUCT at
/// `cs`: lpszName at +16h), loaded from its instance.
fn load_named_icon(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, cs: u32) -> Result<u16, Stop> {
    let name = farptr::read_bytes(uc, farptr::add(cs, 0x16), 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if name == 0 {
        return Ok(0);
    }
    // A dialog template's ordinal: 0xFF then the id.
    let arg = match farptr::read_bytes(uc, name, 3) {
        Some(b) if b[0] == 0xFF => u32::from(u16::from_le_bytes([b[1], b[2]])),
        _ => name,
    };
    if arg == name && wm::cstr(uc, name).is_empty() {
        return Ok(0);
    }
    let hinst = wm::hinstance(env, hwnd);
    Ok(crate::win16::resource::load_icon(env, uc, &[u32::from(hinst), arg])? as u16)
}

/// USER.302 StaticWndProc(hWnd, msg, wParam, lParam).
pub fn static_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    match msg {
        WM_CREATE => {
            if style & 0x0F == SS_ICON {
                let icon = load_named_icon(env, uc, hwnd, lparam)?;
                state(env, hwnd).icon = icon;
                let r = wm::rect(env, hwnd);
                wm::move_window(env, uc, hwnd, (r.0, r.1, r.0 + ICON_SIZE, r.1 + ICON_SIZE))?;
            } else {
                state(env, hwnd);
            }
            Ok(0)
        }
        STM_SETICON => {
            let s = state(env, hwnd);
            let old = std::mem::replace(&mut s.icon, wparam);
            wm::invalidate(env, uc, hwnd)?;
            Ok(u32::from(old))
        }
        STM_GETICON => Ok(u32::from(state(env, hwnd).icon)),
        WM_GETDLGCODE => Ok(DLGC_STATIC),
        WM_NCHITTEST => Ok(HTTRANSPARENT),
        WM_SETFONT => {
            state(env, hwnd).font = wparam;
            if lparam & 0xFFFF != 0 {
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_GETFONT => Ok(u32::from(state(env, hwnd).font)),
        WM_SETTEXT => {
            let r = wm::def_proc(env, uc, hwnd, msg, wparam, lparam)?;
            wm::invalidate(env, uc, hwnd)?;
            Ok(r)
        }
        WM_ENABLE => {
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_PAINT => {
            let font = state(env, hwnd).font;
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                super::paint::static_control(env, uc, hwnd, hdc, font)
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
