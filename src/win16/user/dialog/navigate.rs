//! Moving about a dialog box: GetNextDlgTabItem, GetNextDlgGroupItem,
//! WM_NEXTDLGCTL, the default push button, and IsDialogMessage's keyboard
//! interface.
//!
//! Windows 3.1 (SDK: IsDialogMessage, "Dialog Box Keyboard Interface",
//! WM_GETDLGCODE, WM_NEXTDLGCTL, DM_SETDEFID):
//!
//! - **Tab items**: the controls with WS_TABSTOP that are visible and
//!   enabled, in the dialog's z-order (template order), going round.
//!   GetNextDlgTabItem(hDlg, NULL, FALSE) is the first.
//! - **Groups**: a control with WS_GROUP starts a group that runs to the
//!   next such control. GetNextDlgGroupItem goes round the visible,
//!   enabled controls of the group.
//! - **Giving a control the focus** (WM_NEXTDLGCTL, Tab, the arrows,
//!   mnemonics, WM_INITDIALOG's TRUE): an edit control (DLGC_HASSETSEL) gets
//!   all its text selected. The default push button follows the focus:
//!   a push button with the focus is drawn as the default one
//!   (BS_DEFPUSHBUTTON) and the others as plain push buttons; when the
//!   focus is on another control, the dialog's default button (DM_SETDEFID)
//!   is. An automatic radio button reached with an arrow key is checked,
//!   as a click would.
//! - **IsDialogMessage** takes every message for the dialog or one of its
//!   controls (FALSE for others): Tab and Shift+Tab go to the next and
//!   previous tab item, the arrows round the group, Enter presses the
//!   focused push button or else the default button (IDOK when there is
//!   none): WM_COMMAND(id, MAKELONG(hwndButton, BN_CLICKED)); Escape sends
//!   WM_COMMAND(IDCANCEL, ...) — unless the control with the focus wants
//!   the key (its WM_GETDLGCODE: DLGC_WANTTAB, DLGC_WANTARROWS,
//!   DLGC_WANTALLKEYS). A character the control does not want
//!   (DLGC_WANTCHARS) — or any Alt+character — is a mnemonic: the next
//!   control whose text has that character after an `&` is chosen: a
//!   button is clicked (and a radio or check box gets the focus first), a
//!   static control or group box gives the focus to the next control after
//!   it. Everything else, and a character no mnemonic takes, is translated
//!   (TranslateMessage) and dispatched.

use super::{DC_HASDEFID, DM_GETDEFID, IDCANCEL, IDOK, dialog, item};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::user::controls::button::{
    self, BM_SETSTYLE, BN_CLICKED, DLGC_BUTTON, DLGC_DEFPUSHBUTTON, DLGC_HASSETSEL,
    DLGC_RADIOBUTTON, DLGC_STATIC, DLGC_UNDEFPUSHBUTTON, DLGC_WANTALLKEYS, DLGC_WANTARROWS,
    DLGC_WANTCHARS, DLGC_WANTTAB,
};
use crate::win16::user::controls::edit::EM_SETSEL;
use crate::win16::user::controls::wm::{self, WM_GETDLGCODE, WM_SYSCHAR};
use crate::win16::user::{WM_CHAR, WM_COMMAND, WM_KEYDOWN};

const VK_TAB: u16 = 0x09;
const VK_RETURN: u16 = 0x0D;
const VK_SHIFT: u16 = 0x10;
const VK_CANCEL: u16 = 0x03;
const VK_ESCAPE: u16 = 0x1B;
const VK_EXECUTE: u16 = 0x2B;
const VK_LEFT: u16 = 0x25;
const VK_UP: u16 = 0x26;
const VK_RIGHT: u16 = 0x27;
const VK_DOWN: u16 = 0x28;

/// Can the dialog manager give `h` the focus (visible and enabled)?
fn focusable(env: &Env, h: u16) -> bool {
    wm::is_visible(env, h) && wm::is_enabled(env, h)
}

/// The direct child of `hdlg` that is `h` or holds it (a combo box's
/// edit is its combo box, for the dialog).
fn child_of(env: &Env, hdlg: u16, h: u16) -> u16 {
    let mut c = h;
    for _ in 0..64 {
        let p = wm::parent(env, c);
        if p == hdlg || p == 0 {
            return if p == hdlg { c } else { 0 };
        }
        c = p;
    }
    0
}

/// GetNextDlgTabItem (module doc).
pub fn next_tab_item(env: &Env, hdlg: u16, hctl: u16, previous: bool) -> u16 {
    let kids = wm::children(env, hdlg);
    let ok = |h: u16| wm::style(env, h) & wm::WS_TABSTOP != 0 && focusable(env, h);
    let n = kids.len();
    if n == 0 {
        return 0;
    }
    let cur = kids.iter().position(|&h| h == child_of(env, hdlg, hctl));
    let order: Vec<usize> = match (cur, previous) {
        (None, false) => (0..n).collect(),
        (None, true) => (0..n).rev().collect(),
        (Some(i), false) => (1..=n).map(|k| (i + k) % n).collect(),
        (Some(i), true) => (1..=n).map(|k| (i + n - k) % n).collect(),
    };
    order
        .into_iter()
        .map(|i| kids[i])
        .find(|&h| ok(h))
        .unwrap_or(if cur.is_some() { hctl } else { 0 })
}

/// GetNextDlgGroupItem (module doc).
pub fn next_group_item(env: &Env, hdlg: u16, hctl: u16, previous: bool) -> u16 {
    let c = child_of(env, hdlg, hctl);
    if c == 0 {
        return next_tab_item(env, hdlg, 0, previous);
    }
    let group = super::group_of(env, hdlg, c);
    let n = group.len();
    let Some(i) = group.iter().position(|&h| h == c) else {
        return hctl;
    };
    (1..n)
        .map(|k| {
            if previous {
                group[(i + n - k) % n]
            } else {
                group[(i + k) % n]
            }
        })
        .find(|&h| focusable(env, h))
        .unwrap_or(hctl)
}

/// A control's WM_GETDLGCODE (0 for no window).
pub fn dlg_code(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<u32, Stop> {
    if !wm::exists(env, h) {
        return Ok(0);
    }
    wm::send(env, uc, h, WM_GETDLGCODE, 0, 0)
}

/// Is `h` a plain push button (BS_PUSHBUTTON or BS_DEFPUSHBUTTON), whose
/// style follows the default?
fn push_button(env: &Env, h: u16) -> bool {
    wm::window(env, h).is_some_and(|w| {
        w.class.eq_ignore_ascii_case("BUTTON")
            && matches!(
                button::kind(w.style),
                button::BS_PUSHBUTTON | button::BS_DEFPUSHBUTTON
            )
    })
}

fn restyle(env: &mut Env, uc: &mut Uc<'_>, h: u16, style: u32) -> Result<(), Stop> {
    if h != 0 && push_button(env, h) && button::kind(wm::style(env, h)) != style {
        wm::send(env, uc, h, BM_SETSTYLE, style as u16, 1)?;
    }
    Ok(())
}

/// Give control `h` of dialog `hdlg` the focus as the dialog manager does
/// (module doc).
pub fn set_dlg_focus(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, h: u16) -> Result<(), Stop> {
    let old = wm::focus(env, uc)?;
    let def = dialog(env, hdlg).map_or(0, |d| d.def_id);
    let def_h = if def != 0 { item(env, hdlg, def) } else { 0 };
    if push_button(env, h) {
        if old != h && push_button(env, old) && wm::parent(env, old) == hdlg {
            restyle(env, uc, old, button::BS_PUSHBUTTON)?;
        }
        if def_h != h {
            restyle(env, uc, def_h, button::BS_PUSHBUTTON)?;
        }
        restyle(env, uc, h, button::BS_DEFPUSHBUTTON)?;
    } else {
        if old != def_h && push_button(env, old) && wm::parent(env, old) == hdlg {
            restyle(env, uc, old, button::BS_PUSHBUTTON)?;
        }
        restyle(env, uc, def_h, button::BS_DEFPUSHBUTTON)?;
    }
    if dlg_code(env, uc, h)? & DLGC_HASSETSEL != 0 {
        wm::send(env, uc, h, EM_SETSEL, 0, 0xFFFF_0000)?;
    }
    wm::set_focus(env, uc, h)?;
    Ok(())
}

/// WM_NEXTDLGCTL: wParam a control (`is_handle`), or 0 for the next and
/// nonzero for the previous tab item.
pub fn next_dlg_ctl(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdlg: u16,
    wparam: u16,
    is_handle: bool,
) -> Result<(), Stop> {
    let h = if is_handle {
        wparam
    } else {
        let cur = wm::focus(env, uc)?;
        next_tab_item(env, hdlg, cur, wparam != 0)
    };
    if h != 0 && wm::exists(env, h) {
        set_dlg_focus(env, uc, hdlg, h)?;
    }
    Ok(())
}

/// DM_SETDEFID.
pub fn set_default(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, id: u16) -> Result<(), Stop> {
    let old = dialog(env, hdlg).map_or(0, |d| d.def_id);
    if old != 0 && old != id {
        let h = item(env, hdlg, old);
        restyle(env, uc, h, button::BS_PUSHBUTTON)?;
    }
    if let Some(d) = dialog(env, hdlg) {
        d.def_id = id;
    }
    let h = item(env, hdlg, id);
    restyle(env, uc, h, button::BS_DEFPUSHBUTTON)?;
    Ok(())
}

/// Remember which control has the focus (the dialog is deactivated or
/// hidden).
pub fn save_focus(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16) -> Result<(), Stop> {
    let f = wm::focus(env, uc)?;
    if f != 0
        && wm::is_descendant(env, hdlg, f)
        && let Some(d) = dialog(env, hdlg)
    {
        d.saved_focus = f;
    }
    Ok(())
}

/// Give the focus back to the remembered control, or the first tab item.
pub fn restore_focus(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16) -> Result<(), Stop> {
    let saved = dialog(env, hdlg).map_or(0, |d| d.saved_focus);
    let h = if saved != 0 && wm::exists(env, saved) && focusable(env, saved) {
        saved
    } else {
        next_tab_item(env, hdlg, 0, false)
    };
    if h != 0 && wm::focus(env, uc)? != h {
        wm::set_focus(env, uc, h)?;
    }
    Ok(())
}

/// Press button `id` of the dialog: WM_COMMAND(id, MAKELONG(hwnd,
/// BN_CLICKED)).
fn press(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, id: u16) -> Result<(), Stop> {
    let h = item(env, hdlg, id);
    if h != 0 && !wm::is_enabled(env, h) {
        return wm::beep(env, uc);
    }
    wm::send(
        env,
        uc,
        hdlg,
        WM_COMMAND,
        id,
        u32::from(BN_CLICKED) << 16 | u32::from(h),
    )?;
    Ok(())
}

/// The character after the `&` of a control's text (lower case), if any.
fn mnemonic(t: &[u8]) -> Option<u8> {
    let mut i = 0;
    while i + 1 < t.len() {
        if t[i] == b'&' {
            if t[i + 1] == b'&' {
                i += 2;
                continue;
            }
            return Some(crate::win16::strings::lower(t[i + 1]));
        }
        i += 1;
    }
    None
}

/// Choose the control whose mnemonic is `c`: true when one was.
fn do_mnemonic(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, c: u8) -> Result<bool, Stop> {
    let c = crate::win16::strings::lower(c);
    let kids = wm::children(env, hdlg);
    let n = kids.len();
    let focus = wm::focus(env, uc)?;
    let start = kids
        .iter()
        .position(|&h| h == child_of(env, hdlg, focus))
        .map_or(0, |i| i + 1);
    for k in 0..n {
        let h = kids[(start + k) % n];
        if !focusable(env, h) {
            continue;
        }
        let style = wm::style(env, h);
        let is_static = wm::window(env, h).is_some_and(|w| w.class.eq_ignore_ascii_case("STATIC"));
        if is_static && style & crate::win16::user::controls::r#static::SS_NOPREFIX != 0 {
            continue;
        }
        if mnemonic(&wm::title(env, h)) != Some(c) {
            continue;
        }
        let code = dlg_code(env, uc, h)?;
        if code & DLGC_STATIC != 0 || is_static {
            // The control after the label.
            let i = kids.iter().position(|&x| x == h).unwrap_or(0);
            let next = (1..n).map(|k| kids[(i + k) % n]).find(|&x| {
                focusable(env, x)
                    && !wm::window(env, x).is_some_and(|w| w.class.eq_ignore_ascii_case("STATIC"))
            });
            if let Some(x) = next {
                set_dlg_focus(env, uc, hdlg, x)?;
            }
        } else if code & DLGC_BUTTON != 0 {
            if code & (DLGC_DEFPUSHBUTTON | DLGC_UNDEFPUSHBUTTON) == 0 {
                set_dlg_focus(env, uc, hdlg, h)?;
            }
            button::click(env, uc, h)?;
        } else {
            set_dlg_focus(env, uc, hdlg, h)?;
        }
        return Ok(true);
    }
    Ok(false)
}

/// What IsDialogMessage does with a message for `hdlg` or its controls:
/// true when it handled it itself (not to be dispatched).
fn handle(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdlg: u16,
    hwnd: u16,
    msg: u16,
    wparam: u16,
) -> Result<bool, Stop> {
    match msg {
        WM_KEYDOWN => {
            let code = dlg_code(env, uc, hwnd)?;
            match wparam {
                VK_TAB if code & (DLGC_WANTTAB | DLGC_WANTALLKEYS) == 0 => {
                    let shift = wm::key_down(env, uc, VK_SHIFT)?;
                    next_dlg_ctl(env, uc, hdlg, u16::from(shift), false)?;
                    Ok(true)
                }
                VK_LEFT | VK_UP | VK_RIGHT | VK_DOWN if code & DLGC_WANTARROWS == 0 => {
                    let prev = matches!(wparam, VK_LEFT | VK_UP);
                    let cur = wm::focus(env, uc)?;
                    let next = next_group_item(env, hdlg, cur, prev);
                    if next != 0 && next != cur {
                        set_dlg_focus(env, uc, hdlg, next)?;
                        let ncode = dlg_code(env, uc, next)?;
                        if ncode & DLGC_RADIOBUTTON != 0
                            && button::kind(wm::style(env, next)) == button::BS_AUTORADIOBUTTON
                        {
                            button::click(env, uc, next)?;
                        }
                    }
                    Ok(true)
                }
                VK_ESCAPE | VK_CANCEL if code & DLGC_WANTALLKEYS == 0 => {
                    press(env, uc, hdlg, IDCANCEL)?;
                    Ok(true)
                }
                VK_RETURN | VK_EXECUTE if code & DLGC_WANTALLKEYS == 0 => {
                    let f = wm::focus(env, uc)?;
                    let fcode = dlg_code(env, uc, f)?;
                    let id = if fcode & (DLGC_DEFPUSHBUTTON | DLGC_UNDEFPUSHBUTTON) != 0
                        && wm::is_descendant(env, hdlg, f)
                    {
                        wm::id(env, f)
                    } else {
                        let r = wm::send(env, uc, hdlg, DM_GETDEFID, 0, 0)?;
                        if (r >> 16) as u16 == DC_HASDEFID {
                            r as u16
                        } else {
                            IDOK
                        }
                    };
                    press(env, uc, hdlg, id)?;
                    Ok(true)
                }
                _ => Ok(false),
            }
        }
        WM_CHAR => {
            let code = dlg_code(env, uc, hwnd)?;
            if code & (DLGC_WANTCHARS | DLGC_WANTALLKEYS) != 0 {
                return Ok(false);
            }
            if wparam == VK_TAB && code & DLGC_WANTTAB != 0 {
                return Ok(false);
            }
            // A mnemonic, else the character goes to the control.
            do_mnemonic(env, uc, hdlg, wparam as u8)
        }
        WM_SYSCHAR => Ok(do_mnemonic(env, uc, hdlg, wparam as u8)?),
        _ => Ok(false),
    }
}

/// USER.90 IsDialogMessage(hDlg, lpMsg) (module doc).
pub fn is_dialog_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdlg = a[0] as u16;
    let Some(b) = farptr::read_bytes(uc, a[1], 10) else {
        return Ok(0);
    };
    let w = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let (hwnd, msg, wparam) = (w(0), w(2), w(4));
    if !wm::exists(env, hdlg) || (hwnd != hdlg && !wm::is_descendant(env, hdlg, hwnd)) {
        return Ok(0);
    }
    if handle(env, uc, hdlg, hwnd, msg, wparam)? {
        return Ok(1);
    }
    // TranslateMessage, DispatchMessage.
    super::super::message::translate_message(env, uc, &[a[1]])?;
    super::super::message::dispatch_message(env, uc, &[a[1]])?;
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_follow_the_ampersand() {
        assert_eq!(mnemonic(b"&OK"), Some(b'o'));
        assert_eq!(mnemonic(b"Save &As"), Some(b'a'));
        assert_eq!(mnemonic(b"Fish && &Chips"), Some(b'c'));
        assert_eq!(mnemonic(b"None"), None);
        assert_eq!(mnemonic(b"Trailing&"), None);
    }
}
