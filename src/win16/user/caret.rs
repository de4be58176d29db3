//! The caret: CreateCaret, DestroyCaret, ShowCaret, HideCaret, SetCaretPos,
//! GetCaretPos, SetCaretBlinkTime, GetCaretBlinkTime.
//!
//! There is one caret in the system, owned by one window (SDK, "Carets").
//! CreateCaret makes it hidden (ShowCaret shows it); HideCaret and
//! ShowCaret count, so a caret hidden twice needs two ShowCarets; both act
//! only for the window that owns it. A width or height of 0 is the system
//! border's (SM_CXBORDER, SM_CYBORDER); hBitmap 1 makes a grey caret.
//! BeginPaint hides the caret of the window it paints and EndPaint shows
//! it again; the caret goes when its window is destroyed or hidden. The
//! blink time starts at WIN.INI's CursorBlinkRate (530 ms).

use super::metrics::{SM_CXBORDER, SM_CYBORDER, fixed};
use super::{Env, Point, Stop, Uc, event, write_point};
use crate::win16::api::{Api, Arg};

/// The caret's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caret {
    /// Its window (0: there is no caret).
    pub hwnd: u16,
    pub bitmap: u16,
    pub size: (i32, i32),
    /// Its position, in its window's client coordinates.
    pub pos: Point,
    /// How many ShowCarets it still needs (0: visible).
    pub hidden: u16,
    /// BeginPaint hid it.
    pub paint_hidden: bool,
}

impl Default for Caret {
    fn default() -> Caret {
        Caret {
            hwnd: 0,
            bitmap: 0,
            size: (0, 0),
            pos: Point::default(),
            hidden: 1,
            paint_hidden: false,
        }
    }
}

impl Caret {
    pub fn visible(&self) -> bool {
        self.hwnd != 0 && self.hidden == 0
    }
}

/// The caret goes (DestroyCaret, and when its window does).
pub fn destroy_caret_now(env: &mut Env, uc: &mut Uc<'_>) {
    let c = &mut env.win16.user.caret;
    if c.hwnd != 0 {
        event(uc, format!("caret of {:04X} destroyed", c.hwnd));
    }
    *c = Caret::default();
}

/// BeginPaint hides the caret of the window it paints.
pub fn hide_for_paint(env: &mut Env, hwnd: u16) {
    let c = &mut env.win16.user.caret;
    if c.hwnd == hwnd && hwnd != 0 && !c.paint_hidden {
        c.hidden = c.hidden.saturating_add(1);
        c.paint_hidden = true;
    }
}

/// EndPaint shows it again.
pub fn show_after_paint(env: &mut Env, hwnd: u16) {
    let c = &mut env.win16.user.caret;
    if c.hwnd == hwnd && c.paint_hidden {
        c.hidden = c.hidden.saturating_sub(1);
        c.paint_hidden = false;
    }
}

/// USER.163 CreateCaret(hWnd, hBitmap, nWidth, nHeight).
pub(crate) fn create_caret(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    destroy_caret_now(env, uc);
    let (w, h) = (i32::from(a[2] as u16 as i16), i32::from(a[3] as u16 as i16));
    env.win16.user.caret = Caret {
        hwnd,
        bitmap: a[1] as u16,
        size: (
            if w == 0 { fixed(SM_CXBORDER) } else { w },
            if h == 0 { fixed(SM_CYBORDER) } else { h },
        ),
        ..Caret::default()
    };
    event(uc, format!("caret created in {hwnd:04X}"));
    Ok(0)
}

/// USER.164 DestroyCaret().
pub(crate) fn destroy_caret(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    destroy_caret_now(env, uc);
    Ok(0)
}

/// Does a ShowCaret/HideCaret for `hwnd` (0: the current task's window)
/// concern the caret?
fn owns(env: &Env, uc: &Uc<'_>, hwnd: u16) -> bool {
    let c = &env.win16.user.caret;
    if c.hwnd == 0 {
        return false;
    }
    if hwnd == 0 {
        return env
            .win16
            .user
            .window(c.hwnd)
            .is_some_and(|w| w.htask == uc.get_data().current_task);
    }
    c.hwnd == hwnd
}

/// USER.167 ShowCaret(hWnd).
pub(crate) fn show_caret(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if owns(env, uc, a[0] as u16) {
        let c = &mut env.win16.user.caret;
        c.hidden = c.hidden.saturating_sub(1);
    }
    Ok(0)
}

/// USER.166 HideCaret(hWnd).
fn hide_caret(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if owns(env, uc, a[0] as u16) {
        let c = &mut env.win16.user.caret;
        c.hidden = c.hidden.saturating_add(1);
    }
    Ok(0)
}

/// USER.165 SetCaretPos(X, Y).
pub(crate) fn set_caret_pos(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = &mut env.win16.user.caret;
    if c.hwnd != 0 {
        c.pos = Point::new(i32::from(a[0] as u16 as i16), i32::from(a[1] as u16 as i16));
    }
    Ok(0)
}

/// USER.183 GetCaretPos(lpPoint).
fn get_caret_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = env.win16.user.caret.pos;
    write_point(uc, a[0], p);
    Ok(0)
}

/// USER.168 SetCaretBlinkTime(wMSeconds).
fn set_caret_blink_time(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.user.sys.caret_blink_ms = a[0] as u16;
    Ok(0)
}

/// USER.169 GetCaretBlinkTime().
fn get_caret_blink_time(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.sys.caret_blink_ms))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        163,
        "CREATECARET",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        create_caret,
    ),
    Api::new("USER", 164, "DESTROYCARET", &[], destroy_caret),
    Api::new("USER", 165, "SETCARETPOS", &[Arg::W, Arg::W], set_caret_pos),
    Api::new("USER", 166, "HIDECARET", &[Arg::W], hide_caret),
    Api::new("USER", 167, "SHOWCARET", &[Arg::W], show_caret),
    Api::new(
        "USER",
        168,
        "SETCARETBLINKTIME",
        &[Arg::W],
        set_caret_blink_time,
    ),
    Api::new("USER", 169, "GETCARETBLINKTIME", &[], get_caret_blink_time),
    Api::new("USER", 183, "GETCARETPOS", &[Arg::L], get_caret_pos),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
