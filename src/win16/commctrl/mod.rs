//! COMMCTRL: the common controls library of Windows for Workgroups 3.11
//! (COMMCTRL.DLL), as a built-in module: the toolbar and the status bar
//! (their window classes, [`toolbar`] and [`status`]) and the functions
//! that make and serve them.
//!
//! - InitCommonControls() registers the classes `ToolbarWindow`,
//!   `msctls_statusbar` and `msctls_updown` (global classes, their
//!   procedures COMMCTRL's);
//!   the functions below register them too when they are not yet, as the
//!   library's start-up did.
//! - CreateStatusWindow(style, lpszText, hwndParent, wID): a status bar
//!   child of the parent with that style (plus WS_CHILD), text and id;
//!   NULL when it cannot be made. DrawStatusText: status.rs.
//! - CreateToolbar(...): toolbar.rs; CreateUpDownControl(...): updown.rs.
//! - MenuHelp(uMsg, wParam, lParam, hMainMenu, hInst, hwndStatus,
//!   lpwIDs): for WM_MENUSELECT, the status bar shows in simple mode the
//!   string resource `wParam + lpwIDs[0]` of `hInst` for a menu item (an
//!   empty text for a pop-up or separator), and leaves simple mode when
//!   the menu closes (flags 0xFFFF with no menu); other messages do
//!   nothing.
//! - ShowHideMenuCtl(hwnd, uFlags, lpInfo): `lpInfo` holds pairs of
//!   words, the first (…, hMenu), then (menu item id, control id) up to a
//!   0 item id. For the pair whose item is `uFlags`: a checked item is
//!   unchecked and its control hidden, an unchecked one checked and its
//!   control shown; TRUE, or FALSE when no pair has that item.
//! - GetEffectiveClientRect(hwnd, lprc, lpInfo): the client rectangle,
//!   less each visible control of `lpInfo`'s pairs (as above) that lies
//!   along a whole side of it.
//!
//! Ordinals: those Windows 95's COMCTL32 kept for the functions it took
//! over from the 16-bit library (MenuHelp 2, ShowHideMenuCtl 3,
//! GetEffectiveClientRect 4, DrawStatusText 5, CreateStatusWindow 6,
//! CreateToolbar 7, CreateUpDownControl 16, InitCommonControls 17).

pub mod status;
pub mod toolbar;
pub mod updown;

use std::collections::HashMap;

use crate::machine::{SegKind, Stop, Uc, alloc_seg};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::kernel::builtin::{ensure_builtin, thunk_for};
use crate::win16::user::WndClass;
use crate::win16::user::controls::wm;

/// WM_USER: the controls' own messages count from it.
pub const WM_USER: u16 = 0x0400;
/// The class names (COMMCTRL.H).
pub const STATUSCLASSNAME: &str = "msctls_statusbar";
pub const TOOLBARCLASSNAME: &str = "ToolbarWindow";
pub const UPDOWN_CLASS: &str = "msctls_updown";
/// The private ordinals of the classes' window procedures (api.rs,
/// INTERNAL).
pub const ORD_STATUS_PROC: u16 = 0xF000;
pub const ORD_TOOLBAR_PROC: u16 = 0xF001;
pub const ORD_UPDOWN_PROC: u16 = 0xF002;

const WS_CHILD: u32 = 0x4000_0000;
const WS_VISIBLE: u32 = 0x1000_0000;

/// COMMCTRL's state.
#[derive(Debug, Default, Clone)]
pub struct CommCtrlState {
    /// Far pointers to the class names in COMMCTRL's data (status bar,
    /// toolbar, up-down control), once the classes are registered.
    pub names: Option<(u32, u32, u32)>,
    pub status: HashMap<u16, status::StatusBar>,
    pub toolbars: HashMap<u16, toolbar::Toolbar>,
    pub updowns: HashMap<u16, updown::UpDown>,
}

/// The functions this module implements.
pub static APIS: &[Api] = &[
    Api::new(
        "COMMCTRL",
        2,
        "MENUHELP",
        &[Arg::W, Arg::W, Arg::L, Arg::W, Arg::W, Arg::W, Arg::L],
        menu_help,
    ),
    Api::new(
        "COMMCTRL",
        3,
        "SHOWHIDEMENUCTL",
        &[Arg::W, Arg::W, Arg::L],
        show_hide_menu_ctl,
    ),
    Api::new(
        "COMMCTRL",
        4,
        "GETEFFECTIVECLIENTRECT",
        &[Arg::W, Arg::L, Arg::L],
        get_effective_client_rect,
    ),
    Api::new(
        "COMMCTRL",
        5,
        "DRAWSTATUSTEXT",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        status::draw_status_text,
    ),
    Api::new(
        "COMMCTRL",
        6,
        "CREATESTATUSWINDOW",
        &[Arg::L, Arg::L, Arg::W, Arg::W],
        create_status_window,
    ),
    Api::new(
        "COMMCTRL",
        7,
        "CREATETOOLBAR",
        &[
            Arg::W,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::W,
        ],
        create_toolbar,
    ),
    Api::new(
        "COMMCTRL",
        16,
        "CREATEUPDOWNCONTROL",
        &[
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        updown::create_up_down_control,
    ),
    Api::new(
        "COMMCTRL",
        17,
        "INITCOMMONCONTROLS",
        &[],
        init_common_controls,
    ),
];

/// The classes' window procedures (api.rs, INTERNAL).
pub static INTERNAL: &[Api] = &[
    Api::new(
        "COMMCTRL",
        ORD_STATUS_PROC,
        "STATUSWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        status::status_proc,
    ),
    Api::new(
        "COMMCTRL",
        ORD_TOOLBAR_PROC,
        "TOOLBARWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        toolbar::toolbar_proc,
    ),
    Api::new(
        "COMMCTRL",
        ORD_UPDOWN_PROC,
        "UPDOWNWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        updown::updown_proc,
    ),
];

/// Register the three classes (once): the far pointers to their names.
pub fn register(env: &mut Env, uc: &mut Uc<'_>) -> Result<(u32, u32, u32), Stop> {
    if let Some(n) = env.win16.commctrl.names {
        return Ok(n);
    }
    let fail = |e: crate::win16::Win16LoadError| Stop::Fatal {
        what: format!("COMMCTRL: {e}"),
        caller: (0, 0, 0),
    };
    let idx = ensure_builtin(uc, &mut env.win16, "COMMCTRL").map_err(fail)?;
    let hmodule = env.win16.modules[idx].hmodule;
    let arrow = crate::win16::resource::load_cursor(env, uc, &[0, 32512])? as u16;
    let mut strings = Vec::new();
    let mut offsets = Vec::new();
    for (name, ordinal, brush) in [
        (STATUSCLASSNAME, ORD_STATUS_PROC, 0),
        (TOOLBARCLASSNAME, ORD_TOOLBAR_PROC, 0),
        (UPDOWN_CLASS, ORD_UPDOWN_PROC, 0),
    ] {
        let p = thunk_for(uc, &mut env.win16, idx, ordinal, None).map_err(fail)?;
        let atom = env
            .win16
            .atoms
            .global
            .add(farptr::NameArg::Str(name.as_bytes().to_vec()));
        let block = crate::win16::user::heap::alloc_class(&mut env.win16, uc, 0);
        env.win16.user.classes.push(WndClass {
            name: name.to_string(),
            atom,
            // CS_GLOBALCLASS | CS_DBLCLKS | CS_HREDRAW | CS_VREDRAW.
            style: 0x4000 | 0x0008 | 0x0002 | 0x0001,
            wndproc: (p.selector, p.offset),
            cls_extra: 0,
            wnd_extra: 0,
            hinstance: hmodule,
            hicon: 0,
            hcursor: arrow,
            hbrush: brush,
            menu: None,
            menu_ptr: 0,
            extra: Vec::new(),
            hmodule,
            global: true,
            block,
        });
        crate::win16::user::heap::sync_classes(env, uc);
        offsets.push(strings.len() as u16);
        strings.extend_from_slice(name.as_bytes());
        strings.push(0);
    }
    let size = (strings.len() as u32).div_ceil(16) * 16;
    let ds = alloc_seg(uc, SegKind::Data, size, &strings).map_err(|e| Stop::Fatal {
        what: format!("COMMCTRL: {}", e.0),
        caller: (0, 0, 0),
    })?;
    let n = (
        farptr::make(ds, offsets[0]),
        farptr::make(ds, offsets[1]),
        farptr::make(ds, offsets[2]),
    );
    env.win16.commctrl.names = Some(n);
    Ok(n)
}

/// COMMCTRL.17 InitCommonControls() (module doc).
pub fn init_common_controls(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    register(env, uc)?;
    Ok(0)
}

/// COMMCTRL.6 CreateStatusWindow(style, lpszText, hwndParent, wID)
/// (module doc).
pub fn create_status_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (class, _, _) = register(env, uc)?;
    let parent = a[2] as u16;
    let hinst = wm::hinstance(env, parent);
    let h = wm::create(
        env,
        uc,
        class,
        a[1],
        a[0] | WS_CHILD,
        (0, 0, 0, 0),
        parent,
        a[3] as u16,
        hinst,
        0,
    )?;
    Ok(u32::from(h))
}

/// COMMCTRL.7 CreateToolbar(hwnd, ws, wID, nBitmaps, hBMInst, wBMID,
/// lpButtons, iNumButtons) (toolbar.rs).
pub fn create_toolbar(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (_, class, _) = register(env, uc)?;
    let parent = a[0] as u16;
    let n = usize::from(a[7] as u16);
    let Some(buttons) = toolbar::read_buttons(uc, a[6], n) else {
        return Ok(0);
    };
    let hinst = wm::hinstance(env, parent);
    let h = wm::create(
        env,
        uc,
        class,
        0,
        a[1] | WS_CHILD,
        (0, 0, 0, 0),
        parent,
        a[2] as u16,
        hinst,
        0,
    )?;
    if h == 0 {
        return Ok(0);
    }
    let tb = env.win16.commctrl.toolbars.entry(h).or_default();
    tb.buttons = buttons;
    tb.bm_inst = a[4] as u16;
    tb.bm_id = a[5] as u16;
    toolbar::place(env, uc, h)?;
    wm::invalidate(env, uc, h)?;
    Ok(u32::from(h))
}

/// The (item, control) pairs of an `lpInfo` array and its menu (module
/// doc), at most 256 pairs.
fn info_pairs(uc: &Uc<'_>, p: u32) -> Option<(u16, Vec<(u16, u16)>)> {
    let word = |i: usize| farptr::read_u16(uc, farptr::add(p, i * 2));
    let menu = word(1)?;
    let mut pairs = Vec::new();
    for k in 1..=256 {
        let item = word(k * 2)?;
        if item == 0 {
            break;
        }
        pairs.push((item, word(k * 2 + 1)?));
    }
    Some((menu, pairs))
}

/// COMMCTRL.3 ShowHideMenuCtl(hwnd, uFlags, lpInfo) (module doc).
pub fn show_hide_menu_ctl(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, item) = (a[0] as u16, a[1] as u16);
    let Some((menu, pairs)) = info_pairs(uc, a[2]) else {
        return Ok(0);
    };
    let Some(&(_, ctl)) = pairs.iter().find(|p| p.0 == item) else {
        return Ok(0);
    };
    // GetMenuState(hMenu, item, MF_BYCOMMAND) & MF_CHECKED.
    let checked =
        crate::win16::user::menu::get_menu_state(env, uc, &[u32::from(menu), u32::from(item), 0])?
            & 0x0008
            != 0;
    let flags = if checked { 0x0000 } else { 0x0008 };
    crate::win16::user::menu::check_menu_item(env, uc, &[u32::from(menu), u32::from(item), flags])?;
    let child =
        crate::win16::user::dialog::get_dlg_item(env, uc, &[u32::from(hwnd), u32::from(ctl)])?
            as u16;
    if child != 0 {
        // SW_HIDE 0, SW_SHOW 5.
        wm::show(env, uc, child, if checked { 0 } else { 5 })?;
    }
    Ok(1)
}

/// COMMCTRL.4 GetEffectiveClientRect(hwnd, lprc, lpInfo) (module doc).
pub fn get_effective_client_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let (cx, cy) = wm::client_size(env, hwnd);
    let mut r = (0i16, 0i16, cx, cy);
    if let Some((_, pairs)) = info_pairs(uc, a[2]) {
        for (_, ctl) in pairs {
            let child = crate::win16::user::dialog::get_dlg_item(
                env,
                uc,
                &[u32::from(hwnd), u32::from(ctl)],
            )? as u16;
            if child == 0 || wm::style(env, child) & WS_VISIBLE == 0 {
                continue;
            }
            let c = wm::rect(env, child);
            let spans_x = c.0 <= r.0 && c.2 >= r.2;
            let spans_y = c.1 <= r.1 && c.3 >= r.3;
            if spans_x && c.1 <= r.1 && c.3 > r.1 {
                r.1 = c.3;
            } else if spans_x && c.3 >= r.3 && c.1 < r.3 {
                r.3 = c.1;
            } else if spans_y && c.0 <= r.0 && c.2 > r.0 {
                r.0 = c.2;
            } else if spans_y && c.2 >= r.2 && c.0 < r.2 {
                r.2 = c.0;
            }
        }
    }
    let b: Vec<u8> = [r.0, r.1, r.2, r.3]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    farptr::write_bytes(uc, a[1], &b);
    Ok(0)
}

/// COMMCTRL.2 MenuHelp(uMsg, wParam, lParam, hMainMenu, hInst,
/// hwndStatus, lpwIDs) (module doc).
pub fn menu_help(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const WM_MENUSELECT: u16 = 0x011F;
    const MF_POPUP: u16 = 0x0010;
    const MF_SEPARATOR: u16 = 0x0800;
    let (msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2]);
    let (hinst, status) = (a[4] as u16, a[5] as u16);
    if msg != WM_MENUSELECT || !wm::exists(env, status) {
        return Ok(0);
    }
    let (flags, menu) = (lparam as u16, (lparam >> 16) as u16);
    if flags == 0xFFFF && menu == 0 {
        wm::send(env, uc, status, status::SB_SIMPLE, 0, 0)?;
        return Ok(0);
    }
    let mut text = Vec::new();
    if flags & (MF_POPUP | MF_SEPARATOR) == 0 {
        let base = farptr::read_u16(uc, a[6]).unwrap_or(0);
        let id = wparam.wrapping_add(base);
        let (n, buf) =
            crate::win16::user::controls::with_data(env, uc, &[0u8; 256], |env, uc, p| {
                crate::win16::resource::load_string(
                    env,
                    uc,
                    &[u32::from(hinst), u32::from(id), p, 256],
                )
            })?;
        text = buf[..(n as usize).min(buf.len())].to_vec();
    }
    wm::send(env, uc, status, status::SB_SIMPLE, 1, 0)?;
    text.push(0);
    wm::send_data(
        env,
        uc,
        status,
        status::SB_SETTEXT,
        status::SIMPLE_PART | status::SBT_NOBORDERS,
        &text,
    )?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
