//! The system menu (the Control menu) of a window with WS_SYSMENU.
//!
//! Windows 3.1's system menu has these items, the SC_ values of WINDOWS.H
//! as their ids:
//!
//! | text | id |
//! | --- | --- |
//! | `&Restore` | SC_RESTORE F120h |
//! | `&Move` | SC_MOVE F010h |
//! | `&Size` | SC_SIZE F000h |
//! | `Mi&nimize` | SC_MINIMIZE F020h |
//! | `Ma&ximize` | SC_MAXIMIZE F030h |
//! | separator | |
//! | `&Close\tAlt+F4` | SC_CLOSE F060h |
//! | separator | |
//! | `S&witch To...\tCtrl+Esc` | SC_TASKLIST F130h |
//!
//! Choosing one sends WM_SYSCOMMAND (its id) to the window; the menu's
//! items report MF_SYSMENU in WM_MENUSELECT and its WM_INITMENUPOPUP has
//! fSystemMenu TRUE.
//!
//! **States.** Before the menu opens (and before an accelerator looks at
//! it), each item's enable state follows the window: Size is grayed
//! unless the window has WS_THICKFRAME and is neither minimized nor
//! maximized; Move is grayed when it is maximized; Minimize when it has no
//! WS_MINIMIZEBOX or is minimized; Maximize when it has no WS_MAXIMIZEBOX
//! or is maximized; Restore unless it is minimized or maximized.
//!
//! **GetSystemMenu(hWnd, bRevert).** With bRevert FALSE it returns the
//! window's own copy of the system menu, made the first time, which the
//! program may change (AppendMenu, DeleteMenu...); with TRUE it destroys
//! that copy, so the window has the standard menu again, and returns
//! NULL. A window without WS_SYSMENU has no system menu: NULL. The copy is
//! made here also when the system menu is first needed otherwise
//! (choosing from it, an accelerator), so the window always has one menu
//! — indistinguishable from Windows' shared standard menu, since a program
//! can only see the standard menu through GetSystemMenu's copy.

use super::{Content, MF_GRAYED, MF_SEPARATOR, MenuItem, Menus};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

pub const SC_SIZE: u16 = 0xF000;
pub const SC_MOVE: u16 = 0xF010;
pub const SC_MINIMIZE: u16 = 0xF020;
pub const SC_MAXIMIZE: u16 = 0xF030;
pub const SC_NEXTWINDOW: u16 = 0xF040;
pub const SC_PREVWINDOW: u16 = 0xF050;
pub const SC_CLOSE: u16 = 0xF060;
pub const SC_VSCROLL: u16 = 0xF070;
pub const SC_HSCROLL: u16 = 0xF080;
pub const SC_MOUSEMENU: u16 = 0xF090;
pub const SC_KEYMENU: u16 = 0xF100;
pub const SC_ARRANGE: u16 = 0xF110;
pub const SC_RESTORE: u16 = 0xF120;
pub const SC_TASKLIST: u16 = 0xF130;

pub const WS_SYSMENU: u32 = 0x0008_0000;
pub const WS_THICKFRAME: u32 = 0x0004_0000;
pub const WS_MINIMIZEBOX: u32 = 0x0002_0000;
pub const WS_MAXIMIZEBOX: u32 = 0x0001_0000;
pub const WS_MINIMIZE: u32 = 0x2000_0000;
pub const WS_MAXIMIZE: u32 = 0x0100_0000;

/// The standard system menu's items: (flags, id, text).
pub const ITEMS: &[(u16, u16, &[u8])] = &[
    (0, SC_RESTORE, b"&Restore"),
    (0, SC_MOVE, b"&Move"),
    (0, SC_SIZE, b"&Size"),
    (0, SC_MINIMIZE, b"Mi&nimize"),
    (0, SC_MAXIMIZE, b"Ma&ximize"),
    (MF_SEPARATOR, 0, b""),
    (0, SC_CLOSE, b"&Close\tAlt+F4"),
    (MF_SEPARATOR, 0, b""),
    (0, SC_TASKLIST, b"S&witch To...\tCtrl+Esc"),
];

/// A new standard system menu with handle `h` (its block in the menu
/// heap): `h`, 0 when no menu can be made.
pub fn standard(m: &mut Menus, h: u16) -> u16 {
    let h = m.create(h, true);
    if h == 0 {
        return 0;
    }
    for &(flags, id, text) in ITEMS {
        let content = if flags & MF_SEPARATOR != 0 {
            Content::Separator
        } else {
            Content::Text(text.to_vec())
        };
        if !m.insert(h, None, MenuItem::new(flags, id, content)) {
            m.destroy(h);
            return 0;
        }
    }
    if let Some(menu) = m.get_mut(h) {
        menu.system = true;
    }
    h
}

/// Window `hwnd`'s system menu, made when first needed (module doc); 0
/// when it has no WS_SYSMENU or no menu can be made.
pub fn of_window(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> u16 {
    let Some(w) = env.win16.user.window(hwnd) else {
        return 0;
    };
    if w.style & WS_SYSMENU == 0 {
        return 0;
    }
    if let Some(&h) = env.win16.user.menus.system.get(&hwnd)
        && env.win16.user.menus.exists(h)
    {
        return h;
    }
    super::layout::ensure_font(env);
    let block = crate::win16::user::heap::alloc_menu(&mut env.win16, uc);
    let m = &mut env.win16.user.menus;
    let h = standard(m, block);
    if h != 0 {
        m.system.insert(hwnd, h);
    }
    // The block goes back when no menu took it (or, with the menu, when
    // its items did not fit: the next sync frees it).
    if block != 0 && h == 0 {
        crate::win16::user::heap::free_menu(&mut env.win16, uc, block);
    }
    h
}

/// Set the enable states of window `hwnd`'s system menu `h` from its style
/// (module doc).
pub fn init_states(env: &mut Env, hwnd: u16, h: u16) {
    let Some(style) = env.win16.user.window(hwnd).map(|w| w.style) else {
        return;
    };
    let min = style & WS_MINIMIZE != 0;
    let max = style & WS_MAXIMIZE != 0;
    let states = [
        (SC_SIZE, style & WS_THICKFRAME == 0 || min || max),
        (SC_MOVE, max),
        (SC_MINIMIZE, style & WS_MINIMIZEBOX == 0 || min),
        (SC_MAXIMIZE, style & WS_MAXIMIZEBOX == 0 || max),
        (SC_RESTORE, !(min || max)),
    ];
    let m = &mut env.win16.user.menus;
    for (id, gray) in states {
        let flags = if gray { MF_GRAYED } else { 0 };
        super::set_item_flags(m, h, id, flags, super::MF_ENABLE_MASK);
    }
}

/// USER.156 GetSystemMenu(hWnd, bRevert) -> HMENU (module doc).
fn get_system_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, revert) = (a[0] as u16, a[1] as u16 != 0);
    if revert {
        let m = &mut env.win16.user.menus;
        if let Some(h) = m.system.remove(&hwnd) {
            m.destroy(h);
        }
        return Ok(0);
    }
    Ok(u32::from(of_window(env, uc, hwnd)))
}

/// USER.280 SetSystemMenu(hWnd, hMenu) -> BOOL (undocumented): hMenu
/// becomes the window's system menu (the copy it had is destroyed).
fn set_system_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, h) = (a[0] as u16, a[1] as u16);
    if env.win16.user.window(hwnd).is_none() || !env.win16.user.menus.exists(h) {
        return Ok(0);
    }
    let m = &mut env.win16.user.menus;
    if let Some(old) = m.system.insert(hwnd, h)
        && old != h
    {
        m.destroy(old);
    }
    if let Some(menu) = m.get_mut(h) {
        menu.system = true;
    }
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        156,
        "GETSYSTEMMENU",
        &[Arg::W, Arg::W],
        get_system_menu,
    ),
    Api::new(
        "USER",
        280,
        "SETSYSTEMMENU",
        &[Arg::W, Arg::W],
        set_system_menu,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_menu() {
        let mut m = Menus::default();
        let h = standard(&mut m, 0x104);
        assert_eq!(h, 0x104);
        let menu = m.get(h).unwrap();
        assert!(menu.system && menu.popup);
        let texts: Vec<String> = menu
            .items
            .iter()
            .map(|i| String::from_utf8_lossy(i.text().unwrap_or(b"-")).into_owned())
            .collect();
        assert_eq!(
            texts,
            [
                "&Restore",
                "&Move",
                "&Size",
                "Mi&nimize",
                "Ma&ximize",
                "-",
                "&Close\tAlt+F4",
                "-",
                "S&witch To...\tCtrl+Esc"
            ]
        );
        let ids: Vec<u16> = menu.items.iter().map(|i| i.id).collect();
        assert_eq!(
            ids,
            [0xF120, 0xF010, 0xF000, 0xF020, 0xF030, 0, 0xF060, 0, 0xF130]
        );
        assert_eq!(menu.items[6].mnemonic(), Some(b'C'));
        assert_eq!(menu.items[8].mnemonic(), Some(b'W'));
    }
}
