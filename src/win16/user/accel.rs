//! Accelerators: LoadAccelerators and TranslateAccelerator.
//!
//! **The table.** An ACCELERATORS resource is a list of 5-byte entries
//! (Windows 3.1, the RC format of RT_ACCELERATOR):
//!
//! ```text
//! fFlags  BYTE  FVIRTKEY 01h, FNOINVERT 02h, FSHIFT 04h, FCONTROL 08h,
//!               FALT 10h; 80h marks the last entry
//! wEvent  WORD  a virtual-key code (FVIRTKEY) or a character
//! wId     WORD  the command
//! ```
//!
//! LoadAccelerators finds and loads the resource as LoadResource does —
//! the table's handle is the handle of the global block holding those
//! bytes, as in Windows 3.1, so loading it again gives the same handle —
//! and TranslateAccelerator reads the entries from that block (up to the
//! entry marked 80h or the block's end). Windows 3.1 has no
//! CreateAcceleratorTable or CopyAcceleratorTable (they came with Win32):
//! a program can only load tables from resources.
//!
//! **TranslateAccelerator(hWnd, hAccTable, lpMsg)** (SDK, TranslateAccelerator)
//! looks at WM_KEYDOWN, WM_SYSKEYDOWN, WM_KEYUP, WM_SYSKEYUP, WM_CHAR and
//! WM_SYSCHAR. An entry matches when wParam is its wEvent and:
//!
//! - a virtual-key entry (FVIRTKEY), for a key message: Shift, Ctrl and Alt
//!   are down (in the keyboard state the task has seen) exactly as FSHIFT,
//!   FCONTROL and FALT say;
//! - a character entry, for WM_CHAR or WM_SYSCHAR: Alt is down as FALT
//!   says; for a key-down message of a key that is not an extended key,
//!   when the entry has FALT and the message says Alt was down (lParam bit
//!   29).
//!
//! A match on a key-up message is translated (TRUE) and sends nothing.
//! Otherwise the command is looked up, first in the window's system menu,
//! then in its menu bar (depth first, as MF_BYCOMMAND does):
//!
//! - in a menu, the window gets WM_INITMENU (that menu) and, when the item
//!   lies in one of its pop-ups, WM_INITMENUPOPUP for that pop-up (its
//!   position, fSystemMenu) — "just as if the user were trying to display
//!   the menu" — unless the window is disabled; then a grayed or disabled
//!   item sends nothing, an item of the menu bar sends nothing while the
//!   window is minimized, and otherwise the window gets WM_SYSCOMMAND (the
//!   system menu's) or WM_COMMAND;
//! - in no menu, WM_COMMAND.
//!
//! The message is sent (not posted), with lParam's high word 1: WM_COMMAND
//! (wParam the id, lParam MAKELONG(0, 1)), WM_SYSCOMMAND (wParam the id,
//! lParam MAKELONG(0, 1)). TranslateAccelerator returns TRUE for every
//! match, sent or not, and FALSE otherwise (also for a bad table handle or
//! MSG pointer).
//!
//! **TranslateMDISysAccel(hwndClient, lpMsg)** is the accelerator table of
//! an MDI child's system menu: for an MDI client window (class MDICLIENT)
//! and a WM_KEYDOWN or WM_SYSKEYDOWN with Ctrl down and Alt up, Ctrl+F4
//! sends the active child (WM_MDIGETACTIVE) WM_SYSCOMMAND SC_CLOSE (when
//! its system menu's Close is not grayed), Ctrl+F6 and Ctrl+Tab
//! SC_PREVWINDOW, with Shift SC_NEXTWINDOW (the mapping Wine records),
//! lParam the key; TRUE when it sent one.

use super::menu::track::{WM_INITMENUPOPUP, WM_SYSCHAR, WM_SYSKEYDOWN, WM_SYSKEYUP};
use super::menu::{MF_ENABLE_MASK, item_state, sysmenu, window_menu};
use super::{WM_CHAR, WM_COMMAND, WM_INITMENU, WM_KEYDOWN, WM_KEYUP, WM_SYSCOMMAND, event, send};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::resource::{self, RT_ACCELERATOR};

pub const FVIRTKEY: u8 = 0x01;
pub const FNOINVERT: u8 = 0x02;
pub const FSHIFT: u8 = 0x04;
pub const FCONTROL: u8 = 0x08;
pub const FALT: u8 = 0x10;
/// The last entry of a table.
pub const FLAST: u8 = 0x80;

/// One table entry's layout.
pub mod entry {
    pub const FLAGS: usize = 0;
    pub const EVENT: usize = 1;
    pub const ID: usize = 3;
    pub const SIZE: usize = 5;
}

const VK_SHIFT: u16 = 0x10;
const VK_CONTROL: u16 = 0x11;
const VK_MENU: u16 = 0x12;
const WS_DISABLED: u32 = 0x0800_0000;
const WS_MINIMIZE: u32 = 0x2000_0000;

/// One accelerator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accel {
    pub flags: u8,
    pub event: u16,
    pub id: u16,
}

/// The entries of a table's bytes: up to the one marked [`FLAST`] or the
/// bytes' end (a partial entry at the end is not one).
pub fn parse(b: &[u8]) -> Vec<Accel> {
    let mut out = Vec::new();
    for e in b.chunks_exact(entry::SIZE) {
        let w = |o: usize| u16::from_le_bytes([e[o], e[o + 1]]);
        let a = Accel {
            flags: e[entry::FLAGS],
            event: w(entry::EVENT),
            id: w(entry::ID),
        };
        out.push(a);
        if a.flags & FLAST != 0 {
            break;
        }
    }
    out
}

/// The modifier bits (FSHIFT, FCONTROL, FALT) of the keyboard state.
fn modifiers(env: &Env) -> u8 {
    let down = |vk| super::message::key_down(env, vk);
    let mut m = 0;
    if down(VK_SHIFT) {
        m |= FSHIFT;
    }
    if down(VK_CONTROL) {
        m |= FCONTROL;
    }
    if down(VK_MENU) {
        m |= FALT;
    }
    m
}

/// Does entry `a` match message `msg` (wParam, lParam) with modifiers
/// `mods` (module doc)?
pub fn matches(a: Accel, msg: u16, wparam: u16, lparam: u32, mods: u8) -> bool {
    if wparam != a.event {
        return false;
    }
    if msg == WM_CHAR || msg == WM_SYSCHAR {
        return a.flags & FVIRTKEY == 0 && mods & FALT == a.flags & FALT;
    }
    if a.flags & FVIRTKEY != 0 {
        return mods == a.flags & (FSHIFT | FCONTROL | FALT);
    }
    lparam & 0x0100_0000 == 0 && a.flags & FALT != 0 && lparam & 0x2000_0000 != 0
}

/// USER.177 LoadAccelerators(hInstance, lpTableName) -> HACCEL: the
/// handle of the loaded ACCELERATORS resource (module doc); 0 when the
/// module has none of that name.
fn load_accelerators(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hinstance = a[0];
    let hrsrc = resource::find_resource(env, uc, &[hinstance, a[1], u32::from(RT_ACCELERATOR)])?;
    if hrsrc == 0 {
        return Ok(0);
    }
    resource::load_resource(env, uc, &[hinstance, hrsrc])
}

/// The entries of table `h` (a global block), None for a bad handle.
fn table(env: &Env, uc: &Uc<'_>, h: u16) -> Option<Vec<Accel>> {
    let b = env.win16.global.find(h)?;
    let n = (b.size.min(0x1_0000) as usize / entry::SIZE) * entry::SIZE;
    let bytes = farptr::read_bytes(uc, farptr::make(b.selector, 0), n)?;
    Some(parse(&bytes))
}

/// Where command `id` is in menu `top`: the menu holding it and, when
/// that is a pop-up of `top`, its position in the menu that opens it.
fn place(env: &Env, top: u16, id: u16) -> Option<(u16, Option<u16>, u16)> {
    let m = &env.win16.user.menus;
    let (holder, i) = m.locate(top, id, false)?;
    let state = item_state(m, m.item(holder, i)?);
    if holder == top {
        return Some((holder, None, state));
    }
    // The position of the item that opens `holder`, in its menu.
    let pos = m.handles().find_map(|h| {
        m.get(h)?
            .items
            .iter()
            .position(|it| it.popup == holder)
            .map(|p| p as u16)
    });
    Some((holder, pos, state))
}

/// The message TranslateAccelerator sends for command `id` (module doc):
/// (message, reason for none).
fn translate(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    id: u16,
) -> Result<Result<u16, &'static str>, Stop> {
    let style = env.win16.user.window(hwnd).map_or(0, |w| w.style);
    let disabled = style & WS_DISABLED != 0;
    let sys = sysmenu::of_window(env, uc, hwnd);
    let bar = window_menu(env, hwnd);
    for (top, system) in [(sys, true), (bar, false)] {
        if top == 0 {
            continue;
        }
        if system {
            sysmenu::init_states(env, hwnd, top);
        }
        let Some((holder, pos, _)) = place(env, top, id) else {
            continue;
        };
        if disabled {
            return Ok(Err("the window is disabled"));
        }
        send(env, uc, hwnd, WM_INITMENU, top, 0)?;
        if let Some(p) = pos {
            send(
                env,
                uc,
                hwnd,
                WM_INITMENUPOPUP,
                holder,
                u32::from(system) << 16 | u32::from(p),
            )?;
        }
        // The state after the window had its say.
        let state = place(env, top, id).map_or(0, |(_, _, s)| s);
        if state & MF_ENABLE_MASK != 0 {
            return Ok(Err("the menu item is grayed or disabled"));
        }
        if system {
            return Ok(Ok(WM_SYSCOMMAND));
        }
        if style & WS_MINIMIZE != 0 {
            return Ok(Err("the window is minimized"));
        }
        return Ok(Ok(WM_COMMAND));
    }
    Ok(Ok(WM_COMMAND))
}

/// USER.178 TranslateAccelerator(hWnd, hAccTable, lpMsg) -> int (module
/// doc).
fn translate_accelerator(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, h) = (a[0] as u16, a[1] as u16);
    let Some(b) = farptr::read_bytes(uc, a[2], 10) else {
        return Ok(0);
    };
    let w = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
    let (msg, wparam) = (w(2), w(4));
    let lparam = u32::from_le_bytes([b[6], b[7], b[8], b[9]]);
    if !matches!(
        msg,
        WM_KEYDOWN | WM_SYSKEYDOWN | WM_KEYUP | WM_SYSKEYUP | WM_CHAR | WM_SYSCHAR
    ) {
        return Ok(0);
    }
    let Some(entries) = table(env, uc, h) else {
        return Ok(0);
    };
    let mods = modifiers(env);
    let Some(found) = entries
        .into_iter()
        .find(|&e| matches(e, msg, wparam, lparam, mods))
    else {
        return Ok(0);
    };
    if msg == WM_KEYUP || msg == WM_SYSKEYUP {
        return Ok(1);
    }
    match translate(env, uc, hwnd, found.id)? {
        Ok(m) => {
            event(
                uc,
                format!(
                    "accelerator {:04X} of table {h:04X}: {}",
                    found.id,
                    super::message_name(m)
                ),
            );
            send(env, uc, hwnd, m, found.id, 0x0001_0000)?;
        }
        Err(why) => event(
            uc,
            format!(
                "accelerator {:04X} of table {h:04X}: nothing sent, {why}",
                found.id
            ),
        ),
    }
    Ok(1)
}

/// WM_MDIGETACTIVE: the MDI client's active child (low word).
const WM_MDIGETACTIVE: u16 = 0x0229;

/// USER.451 TranslateMDISysAccel(hwndClient, lpMsg) -> BOOL (module doc).
fn translate_mdi_sys_accel(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const VK_TAB: u16 = 0x09;
    const VK_F4: u16 = 0x73;
    const VK_F6: u16 = 0x75;
    let client = a[0] as u16;
    let Some(b) = farptr::read_bytes(uc, a[1], 10) else {
        return Ok(0);
    };
    let (msg, key) = (
        u16::from_le_bytes([b[2], b[3]]),
        u16::from_le_bytes([b[4], b[5]]),
    );
    if msg != WM_KEYDOWN && msg != WM_SYSKEYDOWN {
        return Ok(0);
    }
    if !env
        .win16
        .user
        .window(client)
        .is_some_and(|w| w.class.eq_ignore_ascii_case("MDICLIENT"))
    {
        return Ok(0);
    }
    let mods = modifiers(env);
    if mods & FCONTROL == 0 || mods & FALT != 0 {
        return Ok(0);
    }
    let child = send(env, uc, client, WM_MDIGETACTIVE, 0, 0)? as u16;
    if env.win16.user.window(child).is_none() {
        return Ok(0);
    }
    let command = match key {
        VK_F6 | VK_TAB if mods & FSHIFT != 0 => sysmenu::SC_NEXTWINDOW,
        VK_F6 | VK_TAB => sysmenu::SC_PREVWINDOW,
        VK_F4 => {
            let sys = sysmenu::of_window(env, uc, child);
            let m = &env.win16.user.menus;
            let grayed = m
                .locate(sys, sysmenu::SC_CLOSE, false)
                .and_then(|(h, i)| m.item(h, i))
                .is_some_and(|it| it.flags & MF_ENABLE_MASK != 0);
            if grayed {
                return Ok(0);
            }
            sysmenu::SC_CLOSE
        }
        _ => return Ok(0),
    };
    send(env, uc, child, WM_SYSCOMMAND, command, u32::from(key))?;
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        177,
        "LOADACCELERATORS",
        &[Arg::W, Arg::L],
        load_accelerators,
    ),
    Api::new(
        "USER",
        178,
        "TRANSLATEACCELERATOR",
        &[Arg::W, Arg::W, Arg::L],
        translate_accelerator,
    ),
    Api::new(
        "USER",
        451,
        "TRANSLATEMDISYSACCEL",
        &[Arg::W, Arg::L],
        translate_mdi_sys_accel,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    /// RC's bytes for
    /// `"^S", 100` / `VK_F1, 101, VIRTKEY` / `"x", 102, ALT` /
    /// `VK_DELETE, 103, VIRTKEY, SHIFT, CONTROL`.
    fn sample() -> Vec<u8> {
        vec![
            0x00, 0x13, 0x00, 100, 0, //
            0x01, 0x70, 0x00, 101, 0, //
            0x10, b'x', 0x00, 102, 0, //
            0x8D, 0x2E, 0x00, 103, 0, //
            0xEE, 0xEE, 0xEE, 0xEE, 0xEE, // after the last: not read
        ]
    }

    #[test]
    fn entries_are_five_bytes_up_to_the_last() {
        assert_eq!(
            (entry::FLAGS, entry::EVENT, entry::ID, entry::SIZE),
            (0, 1, 3, 5)
        );
        let t = parse(&sample());
        assert_eq!(t.len(), 4);
        assert_eq!(
            t[3],
            Accel {
                flags: FLAST | FCONTROL | FSHIFT | FVIRTKEY,
                event: 0x2E,
                id: 103
            }
        );
        // No end mark: up to the last whole entry.
        assert_eq!(parse(&sample()[..13]).len(), 2);
        assert!(parse(&[]).is_empty());
    }

    #[test]
    fn matching_follows_the_sdk() {
        let t = parse(&sample());
        // "^S": a character entry, matched by WM_CHAR 0x13 (Ctrl+S typed).
        assert!(matches(t[0], WM_CHAR, 0x13, 1, FCONTROL));
        assert!(!matches(t[0], WM_KEYDOWN, 0x13, 1, FCONTROL));
        assert!(!matches(t[0], WM_CHAR, 0x13, 1, FCONTROL | FALT));
        // VK_F1: only with no modifier.
        assert!(matches(t[1], WM_KEYDOWN, 0x70, 1, 0));
        assert!(matches(t[1], WM_KEYUP, 0x70, 1, 0));
        assert!(!matches(t[1], WM_KEYDOWN, 0x70, 1, FSHIFT));
        assert!(!matches(t[1], WM_CHAR, 0x70, 1, 0));
        // "x", ALT: WM_SYSCHAR with Alt down, or a key-down saying Alt.
        assert!(matches(t[2], WM_SYSCHAR, u16::from(b'x'), 1 << 29, FALT));
        assert!(!matches(t[2], WM_CHAR, u16::from(b'x'), 1, 0));
        assert!(matches(t[2], WM_SYSKEYDOWN, u16::from(b'x'), 1 << 29, FALT));
        assert!(!matches(
            t[2],
            WM_SYSKEYDOWN,
            u16::from(b'x'),
            1 << 29 | 1 << 24,
            FALT
        ));
        // Shift+Ctrl+Delete exactly.
        assert!(matches(t[3], WM_KEYDOWN, 0x2E, 1, FSHIFT | FCONTROL));
        assert!(!matches(t[3], WM_KEYDOWN, 0x2E, 1, FCONTROL));
        assert!(!matches(
            t[3],
            WM_KEYDOWN,
            0x2E,
            1,
            FSHIFT | FCONTROL | FALT
        ));
    }
}
