//! The COMBOBOX class (Windows 3.1 did not export its procedure: an
//! internal thunk here, controls/mod.rs): simple, drop-down and drop-down
//! list combo boxes.
//!
//! Windows 3.1 behaviour (SDK: "Combo Box Styles", the CB_ messages, CBN_
//! notifications):
//!
//! - A combo box is a window with two children, as on Windows: an EDIT
//!   control (id 1001, for CBS_SIMPLE and CBS_DROPDOWN) showing the
//!   selection and taking typing, and a COMBOLBOX list (id 1000) — always
//!   shown under the edit for CBS_SIMPLE, hidden until dropped down for
//!   the other two styles. A drop-down combo box keeps only its selection
//!   field's height (the font's cell plus 8) and drops its list below it
//!   over the height the template gave.
//! - The CB_ list messages are the list's LB_ messages (CB_ADDSTRING →
//!   LB_ADDSTRING, CB_GETLBTEXT → LB_GETTEXT, ...) with CB_ERR and
//!   CB_ERRSPACE for LB_ERR and LB_ERRSPACE. CB_SETCURSEL, CB_SELECTSTRING
//!   and the user's choice also put the item's text in the selection field
//!   (CB_SETCURSEL(-1) empties it); CB_RESETCONTENT empties it too.
//!   CB_GETEDITSEL, CB_SETEDITSEL and CB_LIMITTEXT are the edit's EM_
//!   messages (CB_ERR for a drop-down list, which has none).
//!   CB_SHOWDROPDOWN drops or closes the list (CBN_DROPDOWN before it
//!   shows, CBN_CLOSEUP after it hides), CB_GETDROPPEDSTATE says whether it
//!   is down, CB_GETDROPPEDCONTROLRECT gives its rectangle in screen
//!   coordinates.
//! - Notifications go to the combo box's parent as WM_COMMAND(id,
//!   MAKELONG(hwndCombo, code)): the list's LBN_SELCHANGE and LBN_DBLCLK
//!   become CBN_SELCHANGE and CBN_DBLCLK, the edit's EN_CHANGE and
//!   EN_UPDATE become CBN_EDITCHANGE and CBN_EDITUPDATE, and the focus
//!   coming to or leaving the combo box (its edit or itself) CBN_SETFOCUS
//!   and CBN_KILLFOCUS. Choosing an item in a dropped list closes it:
//!   CBN_SELCHANGE, then CBN_SELENDOK and CBN_CLOSEUP.

use super::edit::{
    EM_GETSEL, EM_LIMITTEXT, EM_SETSEL, EN_CHANGE, EN_KILLFOCUS, EN_SETFOCUS, EN_UPDATE,
};
use super::listbox::{
    self, LB_ADDSTRING, LB_DELETESTRING, LB_DIR, LB_ERR, LB_FINDSTRING, LB_FINDSTRINGEXACT,
    LB_GETCOUNT, LB_GETCURSEL, LB_GETITEMDATA, LB_GETITEMHEIGHT, LB_GETTEXT, LB_GETTEXTLEN,
    LB_INSERTSTRING, LB_RESETCONTENT, LB_SELECTSTRING, LB_SETCURSEL, LB_SETITEMDATA,
    LB_SETITEMHEIGHT, LBN_DBLCLK, LBN_SELCHANGE, LBS_HASSTRINGS, LBS_NOTIFY, LBS_OWNERDRAWFIXED,
    LBS_OWNERDRAWVARIABLE, LBS_SORT,
};
use super::wm::{
    self, WM_GETDLGCODE, WM_GETFONT, WM_GETTEXT, WM_GETTEXTLENGTH, WM_KILLFOCUS, WM_SETFONT,
    WM_SETTEXT,
};
use super::{class_name_ptr, notify};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::user::{
    WM_COMMAND, WM_CREATE, WM_KEYDOWN, WM_LBUTTONDOWN, WM_NCDESTROY, WM_PAINT, WM_SETFOCUS,
};

pub const CBS_SIMPLE: u32 = 0x0001;
pub const CBS_DROPDOWN: u32 = 0x0002;
pub const CBS_DROPDOWNLIST: u32 = 0x0003;
pub const CBS_OWNERDRAWFIXED: u32 = 0x0010;
pub const CBS_OWNERDRAWVARIABLE: u32 = 0x0020;
pub const CBS_AUTOHSCROLL: u32 = 0x0040;
pub const CBS_OEMCONVERT: u32 = 0x0080;
pub const CBS_SORT: u32 = 0x0100;
pub const CBS_HASSTRINGS: u32 = 0x0200;
pub const CBS_NOINTEGRALHEIGHT: u32 = 0x0400;

pub const CB_GETEDITSEL: u16 = 0x0400;
pub const CB_LIMITTEXT: u16 = 0x0401;
pub const CB_SETEDITSEL: u16 = 0x0402;
pub const CB_ADDSTRING: u16 = 0x0403;
pub const CB_DELETESTRING: u16 = 0x0404;
pub const CB_DIR: u16 = 0x0405;
pub const CB_GETCOUNT: u16 = 0x0406;
pub const CB_GETCURSEL: u16 = 0x0407;
pub const CB_GETLBTEXT: u16 = 0x0408;
pub const CB_GETLBTEXTLEN: u16 = 0x0409;
pub const CB_INSERTSTRING: u16 = 0x040A;
pub const CB_RESETCONTENT: u16 = 0x040B;
pub const CB_FINDSTRING: u16 = 0x040C;
pub const CB_SELECTSTRING: u16 = 0x040D;
pub const CB_SETCURSEL: u16 = 0x040E;
pub const CB_SHOWDROPDOWN: u16 = 0x040F;
pub const CB_GETITEMDATA: u16 = 0x0410;
pub const CB_SETITEMDATA: u16 = 0x0411;
pub const CB_GETDROPPEDCONTROLRECT: u16 = 0x0412;
pub const CB_SETITEMHEIGHT: u16 = 0x0413;
pub const CB_GETITEMHEIGHT: u16 = 0x0414;
pub const CB_SETEXTENDEDUI: u16 = 0x0415;
pub const CB_GETEXTENDEDUI: u16 = 0x0416;
pub const CB_GETDROPPEDSTATE: u16 = 0x0417;
pub const CB_FINDSTRINGEXACT: u16 = 0x0418;

pub const CB_OKAY: u32 = 0;
pub const CB_ERR: u32 = 0xFFFF_FFFF;

pub const CBN_ERRSPACE: u16 = 0xFFFF;
pub const CBN_SELCHANGE: u16 = 1;
pub const CBN_DBLCLK: u16 = 2;
pub const CBN_SETFOCUS: u16 = 3;
pub const CBN_KILLFOCUS: u16 = 4;
pub const CBN_EDITCHANGE: u16 = 5;
pub const CBN_EDITUPDATE: u16 = 6;
pub const CBN_DROPDOWN: u16 = 7;
pub const CBN_CLOSEUP: u16 = 8;
pub const CBN_SELENDOK: u16 = 9;
pub const CBN_SELENDCANCEL: u16 = 10;

/// The ids of a combo box's children.
pub const ID_LIST: u16 = 1000;
pub const ID_EDIT: u16 = 1001;

const VK_F4: u16 = 0x73;
const VK_UP: u16 = 0x26;
const VK_DOWN: u16 = 0x28;
const DLGC_WANTCHARS: u32 = 0x0080;
const DLGC_WANTARROWS: u32 = 0x0001;

/// A combo box's state.
#[derive(Debug, Clone, Default)]
pub struct ComboBox {
    pub edit: u16,
    pub list: u16,
    pub dropped: bool,
    pub extended_ui: bool,
    pub font: u16,
    pub focus: bool,
    /// The selection field's height.
    pub field_height: u16,
    /// The height the combo box was created with (the dropped height).
    pub full_height: i16,
}

fn state(env: &mut Env, hwnd: u16) -> &mut ComboBox {
    super::state_of(env, hwnd)
}

/// The combo box's list window.
pub fn list_of(env: &mut Env, hwnd: u16) -> u16 {
    state(env, hwnd).list
}

fn kind(style: u32) -> u32 {
    style & 0x03
}

/// Make the edit and the list (WM_CREATE).
fn create(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    let style = wm::style(env, hwnd);
    let hinst = wm::hinstance(env, hwnd);
    let (cx, cy) = wm::client_size(env, hwnd);
    let field = super::font_of(env, 0).height() as i16 + 8;
    {
        let c = state(env, hwnd);
        c.field_height = field as u16;
        c.full_height = cy;
    }
    let (list_top, list_h) = (field, (cy - field).max(0));
    if kind(style) != CBS_DROPDOWNLIST {
        let mut es = wm::WS_CHILD | wm::WS_VISIBLE | wm::WS_BORDER;
        if style & CBS_AUTOHSCROLL != 0 {
            es |= super::edit::ES_AUTOHSCROLL;
        }
        if style & CBS_OEMCONVERT != 0 {
            es |= super::edit::ES_OEMCONVERT;
        }
        let class = class_name_ptr(env, uc, "EDIT").unwrap_or(0);
        let e = wm::create(
            env,
            uc,
            class,
            0,
            es,
            (0, 0, cx, field),
            hwnd,
            ID_EDIT,
            hinst,
            0,
        )?;
        if e == 0 {
            return Ok(false);
        }
        state(env, hwnd).edit = e;
    }
    let mut ls = wm::WS_CHILD | wm::WS_BORDER | wm::WS_VSCROLL | LBS_NOTIFY;
    if kind(style) == CBS_SIMPLE {
        ls |= wm::WS_VISIBLE;
    }
    if style & CBS_SORT != 0 {
        ls |= LBS_SORT;
    }
    if style & CBS_HASSTRINGS != 0 {
        ls |= LBS_HASSTRINGS;
    }
    if style & CBS_OWNERDRAWFIXED != 0 {
        ls |= LBS_OWNERDRAWFIXED;
    }
    if style & CBS_OWNERDRAWVARIABLE != 0 {
        ls |= LBS_OWNERDRAWVARIABLE;
    }
    let class = class_name_ptr(env, uc, "COMBOLBOX").unwrap_or(0);
    // The list takes the combo box as its owner when it is created
    // (listbox.rs), so its WM_MEASUREITEM already goes to our parent.
    let l = wm::create(
        env,
        uc,
        class,
        0,
        ls,
        (0, list_top, cx, list_top + list_h),
        hwnd,
        ID_LIST,
        hinst,
        0,
    )?;
    if l == 0 {
        return Ok(false);
    }
    listbox::set_owner(env, l, hwnd);
    state(env, hwnd).list = l;
    if kind(style) != CBS_SIMPLE {
        let r = wm::rect(env, hwnd);
        wm::move_window(env, uc, hwnd, (r.0, r.1, r.2, r.1 + field))?;
    }
    Ok(true)
}

/// The text of list item `i`.
fn item_text(env: &mut Env, hwnd: u16, i: u32) -> Vec<u8> {
    let list = state(env, hwnd).list;
    listbox::get(env, list)
        .and_then(|l| l.items.get(i as usize))
        .map(|it| it.text.clone())
        .unwrap_or_default()
}

/// Show the selected item (or nothing) in the selection field.
fn update_field(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let (edit, list) = {
        let c = state(env, hwnd);
        (c.edit, c.list)
    };
    let sel = wm::send(env, uc, list, LB_GETCURSEL, 0, 0)?;
    let t = if sel == LB_ERR {
        Vec::new()
    } else {
        item_text(env, hwnd, sel)
    };
    if edit != 0 {
        let mut z = t.clone();
        z.push(0);
        super::with_data(env, uc, &z, |env, uc, p| {
            wm::send(env, uc, edit, WM_SETTEXT, 0, p)
        })?;
        wm::send(env, uc, edit, EM_SETSEL, 0, 0xFFFF_0000)?;
    } else {
        wm::set_title(env, uc, hwnd, &t);
        wm::invalidate(env, uc, hwnd)?;
    }
    Ok(())
}

/// Drop the list down or close it.
pub fn show_dropdown(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, show: bool) -> Result<(), Stop> {
    if kind(wm::style(env, hwnd)) == CBS_SIMPLE || state(env, hwnd).dropped == show {
        return Ok(());
    }
    let list = state(env, hwnd).list;
    if show {
        notify(env, uc, hwnd, CBN_DROPDOWN)?;
        state(env, hwnd).dropped = true;
        wm::show(env, uc, list, 5)?; // SW_SHOW
    } else {
        state(env, hwnd).dropped = false;
        wm::show(env, uc, list, 0)?; // SW_HIDE
        notify(env, uc, hwnd, CBN_CLOSEUP)?;
    }
    Ok(())
}

/// The list's notification `code` (listbox.rs calls this for a
/// COMBOLBOX): what the combo box tells its parent.
pub fn list_notification(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, code: u16) -> Result<(), Stop> {
    match code {
        LBN_SELCHANGE => {
            update_field(env, uc, hwnd)?;
            notify(env, uc, hwnd, CBN_SELCHANGE)?;
        }
        LBN_DBLCLK => {
            notify(env, uc, hwnd, CBN_DBLCLK)?;
        }
        listbox::LBN_ERRSPACE => {
            notify(env, uc, hwnd, CBN_ERRSPACE)?;
        }
        _ => {}
    }
    Ok(())
}

/// The user picks item `i` from the list (the script's `select`): a
/// drop-down's list drops, the item is chosen, the list closes.
pub fn user_choose(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, i: u32) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    let list = state(env, hwnd).list;
    let dropdown = kind(style) != CBS_SIMPLE;
    if dropdown {
        show_dropdown(env, uc, hwnd, true)?;
    }
    let changed = wm::send(env, uc, list, LB_GETCURSEL, 0, 0)? != i;
    wm::send(env, uc, list, LB_SETCURSEL, i as u16, 0)?;
    if changed {
        list_notification(env, uc, hwnd, LBN_SELCHANGE)?;
    }
    if dropdown {
        notify(env, uc, hwnd, CBN_SELENDOK)?;
        show_dropdown(env, uc, hwnd, false)?;
    }
    Ok(())
}

/// Forward a CB_ message to the list as its LB_ message.
fn to_list(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    let list = state(env, hwnd).list;
    if list == 0 {
        return Ok(CB_ERR);
    }
    wm::send(env, uc, list, msg, wparam, lparam)
}

/// The combo box's procedure (internal; Windows 3.1 did not export it).
pub fn combo_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    let edit = state(env, hwnd).edit;
    match msg {
        WM_CREATE => Ok(if create(env, uc, hwnd)? {
            0
        } else {
            0xFFFF_FFFF
        }),
        CB_ADDSTRING => to_list(env, uc, hwnd, LB_ADDSTRING, wparam, lparam),
        CB_INSERTSTRING => to_list(env, uc, hwnd, LB_INSERTSTRING, wparam, lparam),
        CB_DELETESTRING => to_list(env, uc, hwnd, LB_DELETESTRING, wparam, lparam),
        CB_DIR => to_list(env, uc, hwnd, LB_DIR, wparam, lparam),
        CB_GETCOUNT => to_list(env, uc, hwnd, LB_GETCOUNT, wparam, lparam),
        CB_GETCURSEL => to_list(env, uc, hwnd, LB_GETCURSEL, wparam, lparam),
        CB_GETLBTEXT => to_list(env, uc, hwnd, LB_GETTEXT, wparam, lparam),
        CB_GETLBTEXTLEN => to_list(env, uc, hwnd, LB_GETTEXTLEN, wparam, lparam),
        CB_FINDSTRING => to_list(env, uc, hwnd, LB_FINDSTRING, wparam, lparam),
        CB_FINDSTRINGEXACT => to_list(env, uc, hwnd, LB_FINDSTRINGEXACT, wparam, lparam),
        CB_GETITEMDATA => to_list(env, uc, hwnd, LB_GETITEMDATA, wparam, lparam),
        CB_SETITEMDATA => to_list(env, uc, hwnd, LB_SETITEMDATA, wparam, lparam),
        CB_RESETCONTENT => {
            let r = to_list(env, uc, hwnd, LB_RESETCONTENT, wparam, lparam)?;
            update_field(env, uc, hwnd)?;
            Ok(r)
        }
        CB_SETCURSEL => {
            let r = to_list(env, uc, hwnd, LB_SETCURSEL, wparam, lparam)?;
            update_field(env, uc, hwnd)?;
            Ok(r)
        }
        CB_SELECTSTRING => {
            let r = to_list(env, uc, hwnd, LB_SELECTSTRING, wparam, lparam)?;
            if r != LB_ERR {
                update_field(env, uc, hwnd)?;
            }
            Ok(r)
        }
        CB_SETITEMHEIGHT => {
            if wparam == 0xFFFF {
                state(env, hwnd).field_height = lparam as u16;
                return Ok(CB_OKAY);
            }
            to_list(env, uc, hwnd, LB_SETITEMHEIGHT, wparam, lparam)
        }
        CB_GETITEMHEIGHT => {
            if wparam == 0xFFFF {
                return Ok(u32::from(state(env, hwnd).field_height));
            }
            to_list(env, uc, hwnd, LB_GETITEMHEIGHT, wparam, lparam)
        }
        CB_GETEDITSEL => {
            if edit == 0 {
                return Ok(CB_ERR);
            }
            wm::send(env, uc, edit, EM_GETSEL, 0, 0)
        }
        CB_SETEDITSEL => {
            if edit == 0 {
                return Ok(CB_ERR);
            }
            wm::send(env, uc, edit, EM_SETSEL, 0, lparam)?;
            Ok(1)
        }
        CB_LIMITTEXT => {
            if edit == 0 {
                return Ok(CB_ERR);
            }
            wm::send(env, uc, edit, EM_LIMITTEXT, wparam, 0)?;
            Ok(1)
        }
        CB_SHOWDROPDOWN => {
            show_dropdown(env, uc, hwnd, wparam != 0)?;
            Ok(1)
        }
        CB_GETDROPPEDSTATE => Ok(u32::from(state(env, hwnd).dropped)),
        CB_GETDROPPEDCONTROLRECT => {
            let r = wm::rect(env, hwnd);
            let (full, field) = {
                let c = state(env, hwnd);
                (c.full_height, c.field_height as i16)
            };
            let (ox, oy) = screen_origin(env, hwnd);
            let rect = [r.0 + ox, r.1 + oy, r.2 + ox, r.1 + oy + full.max(field)];
            let mut b = [0u8; 8];
            for (i, v) in rect.iter().enumerate() {
                b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
            }
            wm::write(uc, lparam, &b);
            Ok(1)
        }
        CB_SETEXTENDEDUI => {
            state(env, hwnd).extended_ui = wparam != 0;
            Ok(CB_OKAY)
        }
        CB_GETEXTENDEDUI => Ok(u32::from(state(env, hwnd).extended_ui)),
        WM_COMMAND if lparam as u16 == edit && edit != 0 => {
            let code = match (lparam >> 16) as u16 {
                EN_CHANGE => Some(CBN_EDITCHANGE),
                EN_UPDATE => Some(CBN_EDITUPDATE),
                EN_SETFOCUS => Some(CBN_SETFOCUS),
                EN_KILLFOCUS => Some(CBN_KILLFOCUS),
                _ => None,
            };
            if let Some(c) = code {
                if c == CBN_KILLFOCUS {
                    show_dropdown(env, uc, hwnd, false)?;
                }
                notify(env, uc, hwnd, c)?;
            }
            Ok(0)
        }
        WM_SETTEXT => {
            if edit != 0 {
                return wm::send(env, uc, edit, WM_SETTEXT, wparam, lparam);
            }
            let t = wm::cstr(uc, lparam);
            let list = state(env, hwnd).list;
            let mut z = t.clone();
            z.push(0);
            let (i, _) = super::with_data(env, uc, &z, |env, uc, p| {
                wm::send(env, uc, list, LB_FINDSTRINGEXACT, 0xFFFF, p)
            })?;
            if i == LB_ERR {
                return Ok(CB_ERR);
            }
            wm::send(env, uc, list, LB_SETCURSEL, i as u16, 0)?;
            update_field(env, uc, hwnd)?;
            Ok(1)
        }
        WM_GETTEXT | WM_GETTEXTLENGTH => {
            if edit != 0 {
                return wm::send(env, uc, edit, msg, wparam, lparam);
            }
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        WM_SETFONT => {
            state(env, hwnd).font = wparam;
            let list = state(env, hwnd).list;
            if edit != 0 {
                wm::send(env, uc, edit, WM_SETFONT, wparam, lparam)?;
            }
            if list != 0 {
                wm::send(env, uc, list, WM_SETFONT, wparam, lparam)?;
            }
            Ok(0)
        }
        WM_GETFONT => Ok(u32::from(state(env, hwnd).font)),
        WM_SETFOCUS => {
            if edit != 0 {
                wm::set_focus(env, uc, edit)?;
            } else {
                state(env, hwnd).focus = true;
                wm::invalidate(env, uc, hwnd)?;
                notify(env, uc, hwnd, CBN_SETFOCUS)?;
            }
            Ok(0)
        }
        WM_KILLFOCUS => {
            if edit == 0 {
                state(env, hwnd).focus = false;
                show_dropdown(env, uc, hwnd, false)?;
                wm::invalidate(env, uc, hwnd)?;
                notify(env, uc, hwnd, CBN_KILLFOCUS)?;
            }
            Ok(0)
        }
        WM_GETDLGCODE => Ok(DLGC_WANTCHARS | DLGC_WANTARROWS),
        WM_KEYDOWN => {
            let list = state(env, hwnd).list;
            match wparam {
                VK_F4 => {
                    let d = state(env, hwnd).dropped;
                    show_dropdown(env, uc, hwnd, !d)?;
                }
                VK_UP | VK_DOWN => {
                    wm::send(env, uc, list, WM_KEYDOWN, wparam, lparam)?;
                }
                _ => {}
            }
            Ok(0)
        }
        WM_LBUTTONDOWN => {
            if kind(style) != CBS_SIMPLE {
                if edit == 0 {
                    wm::set_focus(env, uc, hwnd)?;
                }
                let d = state(env, hwnd).dropped;
                show_dropdown(env, uc, hwnd, !d)?;
            }
            Ok(0)
        }
        WM_PAINT => {
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                paint_combo(env, uc, hwnd, hdc)
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

/// Paint the selection field of a drop-down list (the selection's text,
/// highlighted while the combo box has the focus) and the drop-down
/// button of the drop-down styles, as wide as a vertical scroll bar
/// (SM_CXVSCROLL).
fn paint_combo(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    use super::paint::{self, CTLCOLOR_LISTBOX, Painter};
    let style = wm::style(env, hwnd);
    if kind(style) == CBS_SIMPLE {
        return Ok(());
    }
    let c = state(env, hwnd).clone();
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_LISTBOX)?;
    let (cx, _) = wm::client_size(env, hwnd);
    let field = c.field_height as i16;
    // GetSystemMetrics(SM_CXVSCROLL).
    let bw = (super::super::metrics::get_system_metrics(env, uc, &[2])? as i16).max(1);
    if c.edit == 0 {
        let r = (0, 0, cx - bw, field);
        p.fill(env, uc, r, p.background)?;
        p.frame(env, uc, r, paint::sys_brush(paint::COLOR_WINDOWFRAME))?;
        let old = p.select(env, uc, c.font)?;
        let t = wm::title(env, hwnd);
        let inner = (r.0 + 2, r.1 + 2, r.2 - 2, r.3 - 2);
        paint::item_line(env, uc, &p, hwnd, inner, inner.0 + 1, &t, c.focus)?;
        p.select(env, uc, old)?;
    }
    paint::drop_button(env, uc, &p, (cx - bw, 0, cx, field))
}

/// Where window `hwnd`'s parent's client area starts on the screen (the
/// sum of its ancestors' origins).
fn screen_origin(env: &Env, hwnd: u16) -> (i16, i16) {
    let (mut x, mut y) = (0i16, 0i16);
    let mut h = wm::parent(env, hwnd);
    for _ in 0..64 {
        if h == 0 {
            break;
        }
        let r = wm::rect(env, h);
        x = x.wrapping_add(r.0);
        y = y.wrapping_add(r.1);
        h = wm::parent(env, h);
    }
    (x, y)
}
