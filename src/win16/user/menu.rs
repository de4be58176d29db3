//! Menus.
//!
//! Menus are handles without items: LoadMenu (resource.rs) and CreateMenu
//! make them, a top-level window gets its class's menu, and
//! CheckMenuItem / EnableMenuItem / GetMenuState remember each item's
//! state by (menu, item). A script's `command ID` sends WM_INITMENU to the
//! main window (when it has a menu) and posts WM_COMMAND (wParam = ID,
//! lParam = 0) as choosing the item would; an item disabled or grayed by
//! command is not chosen (the event says so).

use super::WS_CHILD;
use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};

const MF_BYPOSITION: u16 = 0x0400;
pub(super) const MF_GRAYED: u16 = 0x0001;
pub(super) const MF_DISABLED: u16 = 0x0002;
const MF_CHECKED: u16 = 0x0008;
const MAX_MENUS: u16 = 256;
const MAX_MENU_STATES: usize = 4096;

/// USER.157 GetMenu(hWnd): a top-level window's menu handle (module doc).
fn get_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .user
        .window(a[0] as u16)
        .filter(|w| w.style & WS_CHILD == 0)
        .map_or(0, |w| u32::from(w.id)))
}

/// USER.158 SetMenu(hWnd, hMenu) -> BOOL: the menu bar changes the frame
/// (WM_NCCALCSIZE, and WM_SIZE as the client area changes).
fn set_menu(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    match env.win16.user.window_mut(hwnd) {
        Some(w) if w.style & WS_CHILD == 0 && hwnd != super::DESKTOP => w.id = a[1] as u16,
        _ => return Ok(0),
    }
    super::winpos::set_window_pos(
        env,
        uc,
        hwnd,
        0,
        0,
        0,
        0,
        0,
        super::SWP_FRAMECHANGED
            | super::SWP_NOSIZE
            | super::SWP_NOMOVE
            | super::SWP_NOZORDER
            | super::SWP_NOACTIVATE,
    )?;
    Ok(1)
}

/// USER.151 CreateMenu() and USER.415 CreatePopupMenu(): a new, empty
/// menu's handle (0 after [`MAX_MENUS`]).
fn create_menu(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let u = &mut env.win16.user;
    if u.menus_created >= MAX_MENUS {
        return Ok(0);
    }
    u.menus_created += 1;
    Ok(u32::from(0x7000 + 4 * u.menus_created))
}

/// Change a menu item's flags (those in `mask` become `flags`'s), and
/// return the old ones.
fn menu_item_flags(env: &mut Env, hmenu: u16, item: u16, flags: u16, mask: u16) -> u16 {
    let key = (hmenu, item, flags & MF_BYPOSITION != 0);
    let states = &mut env.win16.user.menu_states;
    let old = states.get(&key).copied().unwrap_or(0);
    if states.len() < MAX_MENU_STATES || states.contains_key(&key) {
        states.insert(key, old & !mask | flags & mask);
    }
    old & mask
}

/// USER.154 CheckMenuItem(hMenu, wIDCheckItem, wCheck) -> the previous
/// check state (MF_CHECKED or MF_UNCHECKED).
fn check_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hmenu, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(u32::from(menu_item_flags(
        env, hmenu, item, flags, MF_CHECKED,
    )))
}

/// USER.155 EnableMenuItem(hMenu, wIDEnableItem, wEnable) -> the previous
/// state (MF_ENABLED, MF_GRAYED, MF_DISABLED).
fn enable_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hmenu, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let mask = MF_GRAYED | MF_DISABLED;
    Ok(u32::from(menu_item_flags(env, hmenu, item, flags, mask)))
}

/// USER.250 GetMenuState(hMenu, wId, wFlags) -> the item's check and
/// enable flags as CheckMenuItem and EnableMenuItem left them.
fn get_menu_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let key = (a[0] as u16, a[1] as u16, a[2] as u16 & MF_BYPOSITION != 0);
    Ok(u32::from(
        env.win16.user.menu_states.get(&key).copied().unwrap_or(0),
    ))
}

/// USER.152 DestroyMenu, USER.160 DrawMenuBar, USER.411 AppendMenu,
/// USER.414 ModifyMenu: nothing to draw or keep (menus have no items
/// here, module doc): TRUE.
fn menu_true(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 151, "CREATEMENU", &[], create_menu),
    Api::new("USER", 152, "DESTROYMENU", &[Arg::W], menu_true),
    Api::new(
        "USER",
        154,
        "CHECKMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        check_menu_item,
    ),
    Api::new(
        "USER",
        155,
        "ENABLEMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        enable_menu_item,
    ),
    Api::new("USER", 157, "GETMENU", &[Arg::W], get_menu),
    Api::new("USER", 158, "SETMENU", &[Arg::W, Arg::W], set_menu),
    Api::new("USER", 160, "DRAWMENUBAR", &[Arg::W], menu_true),
    Api::new(
        "USER",
        250,
        "GETMENUSTATE",
        &[Arg::W, Arg::W, Arg::W],
        get_menu_state,
    ),
    Api::new(
        "USER",
        411,
        "APPENDMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        menu_true,
    ),
    Api::new(
        "USER",
        414,
        "MODIFYMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        menu_true,
    ),
    Api::new("USER", 415, "CREATEPOPUPMENU", &[], create_menu),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menu_items_remember_check_and_enable_flags() {
        let mut env = Env::new(false);
        let check = |env: &mut Env, id, f| menu_item_flags(env, 0x1E, id, f, MF_CHECKED);
        let enable =
            |env: &mut Env, id, f| menu_item_flags(env, 0x1E, id, f, MF_GRAYED | MF_DISABLED);
        // CheckMenuItem returns the previous check state only.
        assert_eq!(check(&mut env, 100, MF_CHECKED), 0);
        assert_eq!(check(&mut env, 100, 0), MF_CHECKED);
        assert_eq!(check(&mut env, 100, MF_CHECKED), 0);
        assert_eq!(enable(&mut env, 100, MF_GRAYED), 0);
        assert_eq!(enable(&mut env, 100, 0), MF_GRAYED);
        assert_eq!(env.win16.user.menu_states[&(0x1E, 100, false)], MF_CHECKED);
        // By position is another item.
        assert_eq!(check(&mut env, 0, MF_BYPOSITION | MF_CHECKED), 0);
        assert_eq!(check(&mut env, 0, 0), 0);
        // The table is bounded: new items beyond it are not remembered.
        for i in 0..MAX_MENU_STATES as u16 + 10 {
            check(&mut env, 1000 + i, MF_CHECKED);
        }
        assert_eq!(env.win16.user.menu_states.len(), MAX_MENU_STATES);
    }
}
