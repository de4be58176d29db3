//! The BUTTON class (USER.303 ButtonWndProc): push buttons, default push
//! buttons, check boxes, 3-state boxes, radio buttons (and their automatic
//! forms), group boxes, user buttons and owner-draw buttons.
//!
//! Windows 3.1 behaviour (SDK: "Button Styles", BM_* and BN_* messages):
//!
//! - BM_GETCHECK answers 0, 1 or 2 (3-state boxes) for check boxes and
//!   radio buttons, 0 for the others; BM_SETCHECK stores the state (a
//!   2-state box takes 2 as 1) for those styles and is ignored by the
//!   others.
//! - BM_GETSTATE answers the check state in bits 0-1, 0x0004 while the
//!   button is pushed (highlighted) and 0x0008 while it has the focus;
//!   BM_SETSTATE pushes or releases it.
//! - BM_SETSTYLE changes the button style (the low byte of the window
//!   style): DM_SETDEFID uses it to turn push buttons into default push
//!   buttons and back.
//! - A click (the mouse pressed and released over the button, or the space
//!   bar pressed and released while it has the focus) releases it, toggles
//!   an automatic check box (unchecked → checked → indeterminate for
//!   BS_AUTO3STATE), checks an automatic radio button and unchecks the
//!   other automatic radio buttons of its group, then notifies the parent:
//!   WM_COMMAND, wParam = the id, lParam = MAKELONG(hwnd, BN_CLICKED).
//!   Pressing the mouse also gives the button the focus.
//! - A double click on a radio button, user button or owner-draw button
//!   notifies BN_DOUBLECLICKED; on the others it is a second press.
//! - Owner-draw buttons get WM_DRAWITEM sent to their parent (ODT_BUTTON)
//!   to paint (ODA_DRAWENTIRE), when pushed or released (ODA_SELECT) and
//!   when they gain or lose the focus (ODA_FOCUS). User buttons (a Windows
//!   2.x style kept in 3.1) notify BN_PAINT, BN_HILITE, BN_UNHILITE and
//!   BN_DISABLE instead.
//! - WM_GETDLGCODE: DLGC_BUTTON with DLGC_DEFPUSHBUTTON or
//!   DLGC_UNDEFPUSHBUTTON for push buttons, DLGC_RADIOBUTTON for radio
//!   buttons, DLGC_STATIC for group boxes (which the dialog manager never
//!   gives the focus).

use super::wm::{self, WM_DRAWITEM, WM_GETDLGCODE, WM_GETFONT, WM_KILLFOCUS, WM_SETFONT};
use super::{notify, paint};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::user::{
    WM_CHAR, WM_KEYDOWN, WM_KEYUP, WM_LBUTTONDOWN, WM_LBUTTONUP, WM_NCDESTROY, WM_PAINT,
    WM_SETFOCUS,
};

pub const BS_PUSHBUTTON: u32 = 0x00;
pub const BS_DEFPUSHBUTTON: u32 = 0x01;
pub const BS_CHECKBOX: u32 = 0x02;
pub const BS_AUTOCHECKBOX: u32 = 0x03;
pub const BS_RADIOBUTTON: u32 = 0x04;
pub const BS_3STATE: u32 = 0x05;
pub const BS_AUTO3STATE: u32 = 0x06;
pub const BS_GROUPBOX: u32 = 0x07;
pub const BS_USERBUTTON: u32 = 0x08;
pub const BS_AUTORADIOBUTTON: u32 = 0x09;
pub const BS_PUSHBOX: u32 = 0x0A;
pub const BS_OWNERDRAW: u32 = 0x0B;
pub const BS_LEFTTEXT: u32 = 0x20;

pub const BM_GETCHECK: u16 = 0x0400;
pub const BM_SETCHECK: u16 = 0x0401;
pub const BM_GETSTATE: u16 = 0x0402;
pub const BM_SETSTATE: u16 = 0x0403;
pub const BM_SETSTYLE: u16 = 0x0404;

pub const BN_CLICKED: u16 = 0;
pub const BN_PAINT: u16 = 1;
pub const BN_HILITE: u16 = 2;
pub const BN_UNHILITE: u16 = 3;
pub const BN_DISABLE: u16 = 4;
pub const BN_DOUBLECLICKED: u16 = 5;

pub const DLGC_WANTARROWS: u32 = 0x0001;
pub const DLGC_WANTTAB: u32 = 0x0002;
pub const DLGC_WANTALLKEYS: u32 = 0x0004;
pub const DLGC_HASSETSEL: u32 = 0x0008;
pub const DLGC_DEFPUSHBUTTON: u32 = 0x0010;
pub const DLGC_UNDEFPUSHBUTTON: u32 = 0x0020;
pub const DLGC_RADIOBUTTON: u32 = 0x0040;
pub const DLGC_WANTCHARS: u32 = 0x0080;
pub const DLGC_STATIC: u32 = 0x0100;
pub const DLGC_BUTTON: u32 = 0x2000;

/// BM_GETSTATE's bits beside the check state.
const STATE_PUSHED: u16 = 0x0004;
const STATE_FOCUS: u16 = 0x0008;

// Owner-draw (windows.h).
pub const ODT_MENU: u16 = 1;
pub const ODT_LISTBOX: u16 = 2;
pub const ODT_COMBOBOX: u16 = 3;
pub const ODT_BUTTON: u16 = 4;
pub const ODA_DRAWENTIRE: u16 = 0x0001;
pub const ODA_SELECT: u16 = 0x0002;
pub const ODA_FOCUS: u16 = 0x0004;
pub const ODS_SELECTED: u16 = 0x0001;
pub const ODS_GRAYED: u16 = 0x0002;
pub const ODS_DISABLED: u16 = 0x0004;
pub const ODS_CHECKED: u16 = 0x0008;
pub const ODS_FOCUS: u16 = 0x0010;

const VK_SPACE: u16 = 0x20;
const WM_ENABLE: u16 = 0x000A;

/// A button's state.
#[derive(Debug, Clone, Default)]
pub struct Button {
    /// 0 unchecked, 1 checked, 2 indeterminate.
    pub check: u16,
    /// Highlighted (the mouse or the space bar holds it down).
    pub pushed: bool,
    pub focus: bool,
    pub font: u16,
    /// The mouse went down on it and has not come up yet.
    pub tracking: bool,
}

/// The button type: the style's low four bits.
pub fn kind(style: u32) -> u32 {
    style & 0x0F
}

fn state(env: &mut Env, hwnd: u16) -> &mut Button {
    super::state_of(env, hwnd)
}

/// The most BM_SETCHECK keeps for a style: none for push buttons and group
/// boxes.
fn max_check(style: u32) -> Option<u16> {
    match kind(style) {
        BS_CHECKBOX | BS_AUTOCHECKBOX | BS_RADIOBUTTON | BS_AUTORADIOBUTTON => Some(1),
        BS_3STATE | BS_AUTO3STATE => Some(2),
        _ => None,
    }
}

/// DRAWITEMSTRUCT (Windows 3.1, 26 bytes): CtlType 00, CtlID 02, itemID
/// 04, itemAction 06, itemState 08, hwndItem 0A, hDC 0C, rcItem 0E,
/// itemData 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawItem {
    pub ctl_type: u16,
    pub ctl_id: u16,
    pub item_id: u16,
    pub action: u16,
    pub state: u16,
    pub hwnd: u16,
    pub hdc: u16,
    pub rect: (i16, i16, i16, i16),
    pub data: u32,
}

pub const DRAWITEMSTRUCT_SIZE: usize = 26;

impl DrawItem {
    pub fn to_bytes(&self) -> [u8; DRAWITEMSTRUCT_SIZE] {
        let mut b = [0u8; DRAWITEMSTRUCT_SIZE];
        for (i, v) in [
            self.ctl_type,
            self.ctl_id,
            self.item_id,
            self.action,
            self.state,
            self.hwnd,
            self.hdc,
            self.rect.0 as u16,
            self.rect.1 as u16,
            self.rect.2 as u16,
            self.rect.3 as u16,
        ]
        .iter()
        .enumerate()
        {
            b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
        }
        b[0x16..0x1A].copy_from_slice(&self.data.to_le_bytes());
        b
    }
}

/// Send WM_DRAWITEM for owner-draw button `hwnd` to its parent.
fn draw_item(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16, action: u16) -> Result<(), Stop> {
    let parent = wm::parent(env, hwnd);
    if parent == 0 {
        return Ok(());
    }
    let b = state(env, hwnd).clone();
    let mut st = 0;
    if b.pushed {
        st |= ODS_SELECTED;
    }
    if b.focus {
        st |= ODS_FOCUS;
    }
    if !wm::is_enabled(env, hwnd) {
        st |= ODS_DISABLED;
    }
    let (cx, cy) = wm::client_size(env, hwnd);
    let id = wm::id(env, hwnd);
    let di = DrawItem {
        ctl_type: ODT_BUTTON,
        ctl_id: id,
        item_id: 0,
        action,
        state: st,
        hwnd,
        hdc,
        rect: (0, 0, cx, cy),
        data: 0,
    };
    wm::send_data(env, uc, parent, WM_DRAWITEM, id, &di.to_bytes())?;
    Ok(())
}

/// Show a change of the pushed or focus state: owner-draw buttons redraw
/// through their parent, user buttons notify it, the others paint again.
fn show_change(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, action: u16) -> Result<(), Stop> {
    match kind(wm::style(env, hwnd)) {
        BS_OWNERDRAW => {
            let hdc = wm::get_dc(env, uc, hwnd)?;
            draw_item(env, uc, hwnd, hdc, action)?;
            wm::release_dc(env, uc, hwnd, hdc)
        }
        BS_USERBUTTON if action == ODA_SELECT => {
            let code = if state(env, hwnd).pushed {
                BN_HILITE
            } else {
                BN_UNHILITE
            };
            notify(env, uc, hwnd, code).map(|_| ())
        }
        _ => wm::invalidate(env, uc, hwnd),
    }
}

/// BM_SETSTATE: push or release.
fn set_pushed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, on: bool) -> Result<(), Stop> {
    let b = state(env, hwnd);
    if b.pushed == on {
        return Ok(());
    }
    b.pushed = on;
    show_change(env, uc, hwnd, ODA_SELECT)
}

/// BM_SETCHECK.
fn set_check(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, check: u16) -> Result<(), Stop> {
    let Some(max) = max_check(wm::style(env, hwnd)) else {
        return Ok(());
    };
    let v = check.min(max);
    let b = state(env, hwnd);
    if b.check != v {
        b.check = v;
        wm::invalidate(env, uc, hwnd)?;
    }
    Ok(())
}

/// A click: what the automatic styles do, then BN_CLICKED.
pub fn click(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    match kind(style) {
        BS_AUTOCHECKBOX => {
            let c = state(env, hwnd).check;
            wm::send(env, uc, hwnd, BM_SETCHECK, u16::from(c == 0), 0)?;
        }
        BS_AUTO3STATE => {
            let c = state(env, hwnd).check;
            wm::send(env, uc, hwnd, BM_SETCHECK, (c + 1) % 3, 0)?;
        }
        BS_AUTORADIOBUTTON => check_auto_radio(env, uc, hwnd)?,
        _ => {}
    }
    notify(env, uc, hwnd, BN_CLICKED)?;
    Ok(())
}

/// Check automatic radio button `hwnd` and uncheck the other automatic
/// radio buttons of its group.
fn check_auto_radio(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let parent = wm::parent(env, hwnd);
    let group = crate::win16::user::dialog::group_of(env, parent, hwnd);
    for h in group {
        if kind(wm::style(env, h)) == BS_AUTORADIOBUTTON {
            wm::send(env, uc, h, BM_SETCHECK, u16::from(h == hwnd), 0)?;
        }
    }
    Ok(())
}

/// Is client point `lparam` (MAKELONG(x, y)) inside the button?
fn inside(env: &Env, hwnd: u16, lparam: u32) -> bool {
    let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
    let (cx, cy) = wm::client_size(env, hwnd);
    (0..cx).contains(&x) && (0..cy).contains(&y)
}

/// USER.303 ButtonWndProc(hWnd, msg, wParam, lParam).
pub fn button_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    match msg {
        BM_GETCHECK => Ok(match max_check(style) {
            Some(_) => u32::from(state(env, hwnd).check),
            None => 0,
        }),
        BM_SETCHECK => {
            set_check(env, uc, hwnd, wparam)?;
            Ok(0)
        }
        BM_GETSTATE => {
            let b = state(env, hwnd);
            let mut s = b.check;
            if b.pushed {
                s |= STATE_PUSHED;
            }
            if b.focus {
                s |= STATE_FOCUS;
            }
            Ok(u32::from(s))
        }
        BM_SETSTATE => {
            set_pushed(env, uc, hwnd, wparam != 0)?;
            Ok(0)
        }
        BM_SETSTYLE => {
            wm::set_style(env, hwnd, (style & !0xFF) | u32::from(wparam & 0xFF));
            if lparam & 0xFFFF != 0 {
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_GETDLGCODE => Ok(match kind(style) {
            BS_DEFPUSHBUTTON => DLGC_BUTTON | DLGC_DEFPUSHBUTTON,
            BS_PUSHBUTTON | BS_PUSHBOX | BS_USERBUTTON | BS_OWNERDRAW => {
                DLGC_BUTTON | DLGC_UNDEFPUSHBUTTON
            }
            BS_RADIOBUTTON | BS_AUTORADIOBUTTON => DLGC_BUTTON | DLGC_RADIOBUTTON,
            BS_GROUPBOX => DLGC_STATIC,
            _ => DLGC_BUTTON,
        }),
        WM_LBUTTONDOWN | wm::WM_LBUTTONDBLCLK => {
            let k = kind(style);
            if k == BS_GROUPBOX {
                return Ok(0);
            }
            if msg == wm::WM_LBUTTONDBLCLK
                && matches!(
                    k,
                    BS_RADIOBUTTON | BS_AUTORADIOBUTTON | BS_USERBUTTON | BS_OWNERDRAW
                )
            {
                notify(env, uc, hwnd, BN_DOUBLECLICKED)?;
                return Ok(0);
            }
            wm::set_focus(env, uc, hwnd)?;
            state(env, hwnd).tracking = true;
            wm::send(env, uc, hwnd, BM_SETSTATE, 1, 0)?;
            Ok(0)
        }
        WM_LBUTTONUP => {
            let b = state(env, hwnd);
            if !std::mem::take(&mut b.tracking) {
                return Ok(0);
            }
            wm::send(env, uc, hwnd, BM_SETSTATE, 0, 0)?;
            if inside(env, hwnd, lparam) {
                click(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_KEYDOWN if wparam == VK_SPACE => {
            if kind(style) != BS_GROUPBOX && !state(env, hwnd).pushed {
                wm::send(env, uc, hwnd, BM_SETSTATE, 1, 0)?;
            }
            Ok(0)
        }
        WM_KEYUP if wparam == VK_SPACE => {
            if state(env, hwnd).pushed {
                wm::send(env, uc, hwnd, BM_SETSTATE, 0, 0)?;
                click(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_CHAR if wparam == VK_SPACE => Ok(0),
        WM_SETFOCUS => {
            state(env, hwnd).focus = true;
            show_change(env, uc, hwnd, ODA_FOCUS)?;
            Ok(0)
        }
        WM_KILLFOCUS => {
            let b = state(env, hwnd);
            b.focus = false;
            let was_pushed = std::mem::take(&mut b.pushed);
            b.tracking = false;
            show_change(env, uc, hwnd, ODA_FOCUS)?;
            if was_pushed {
                show_change(env, uc, hwnd, ODA_SELECT)?;
            }
            Ok(0)
        }
        WM_ENABLE => {
            if kind(style) == BS_USERBUTTON && wparam == 0 {
                notify(env, uc, hwnd, BN_DISABLE)?;
            }
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_SETFONT => {
            state(env, hwnd).font = wparam;
            if lparam & 0xFFFF != 0 {
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_GETFONT => Ok(u32::from(state(env, hwnd).font)),
        wm::WM_SETTEXT => {
            let r = wm::def_proc(env, uc, hwnd, msg, wparam, lparam)?;
            wm::invalidate(env, uc, hwnd)?;
            Ok(r)
        }
        WM_PAINT => {
            match kind(style) {
                BS_OWNERDRAW => wm::paint(env, uc, hwnd, |env, uc, hdc| {
                    draw_item(env, uc, hwnd, hdc, ODA_DRAWENTIRE)
                })?,
                BS_USERBUTTON => {
                    wm::paint(env, uc, hwnd, |_, _, _| Ok(()))?;
                    notify(env, uc, hwnd, BN_PAINT)?;
                }
                k => {
                    let b = state(env, hwnd).clone();
                    let left = style & BS_LEFTTEXT != 0;
                    wm::paint(env, uc, hwnd, |env, uc, hdc| {
                        // Each paints itself and says where its focus
                        // rectangle goes: round the caption.
                        let focus = match k {
                            BS_PUSHBUTTON | BS_DEFPUSHBUTTON | BS_PUSHBOX => {
                                Some(paint::push_button(
                                    env,
                                    uc,
                                    hwnd,
                                    hdc,
                                    b.font,
                                    b.pushed,
                                    k == BS_DEFPUSHBUTTON,
                                )?)
                            }
                            BS_GROUPBOX => {
                                paint::group_box(env, uc, hwnd, hdc, b.font)?;
                                None
                            }
                            BS_RADIOBUTTON | BS_AUTORADIOBUTTON => Some(paint::check_box(
                                env, uc, hwnd, hdc, b.font, true, b.check, b.pushed, left,
                            )?),
                            _ => Some(paint::check_box(
                                env, uc, hwnd, hdc, b.font, false, b.check, b.pushed, left,
                            )?),
                        };
                        if let (true, Some(r)) = (b.focus, focus) {
                            paint::focus_rect(env, uc, hdc, r)?;
                        }
                        Ok(())
                    })?;
                }
            }
            Ok(0)
        }
        WM_NCDESTROY => {
            super::forget(env, hwnd);
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}
