//! Input: the keyboard state (GetKeyState, GetAsyncKeyState,
//! GetKeyboardState, SetKeyboardState), MessageBeep, and how the scripted
//! keys and clicks become messages.
//!
//! **The keyboard state** is the one the task has seen: a key is down
//! between the WM_KEYDOWN (WM_SYSKEYDOWN) and the WM_KEYUP (WM_SYSKEYUP)
//! that GetMessage or PeekMessage took from the queue, a mouse button
//! between its button-down and button-up messages (SDK, GetKeyState: "the
//! key status returned ... changes as a given application reads key
//! messages from its message queue"). GetKeyState's result has its high
//! bit set while the key is down (the byte 0x80 sign-extended) and its low
//! bit toggled at each press (Caps Lock, Num Lock, Scroll Lock).
//!
//! **Scripted keys** go to the focus window, or to the active window when
//! no window has the focus (as WM_SYSKEYDOWN/UP then), else to the main
//! window; F10 and Alt give WM_SYSKEYDOWN/UP (SDK, WM_SYSKEYDOWN).
//!
//! **Scripted clicks** (`click X Y`, X and Y in the main window's client
//! coordinates) move the cursor there and go to the window under it
//! (WindowFromPoint; the capture window has the mouse while it holds it):
//! it gets WM_NCHITTEST; in its client area the parents of a child get
//! WM_PARENTNOTIFY (the button-down message), the window WM_MOUSEACTIVATE
//! (activating its top-level window unless the answer is MA_NOACTIVATE;
//! MA_ACTIVATEANDEAT eats the click) and WM_SETCURSOR, then the
//! button-down and button-up messages with the point in its client
//! coordinates; elsewhere in the window the WM_NC button messages with the
//! hit-test code and the screen point (Wine's notes, documentation/gui,
//! "Clicking on inactive button").

use super::message::{Msg, send};
use super::{
    DESKTOP, Env, HTCLIENT, HTERROR, HTNOWHERE, HTTRANSPARENT, MA_ACTIVATEANDEAT, MA_NOACTIVATE,
    MK_LBUTTON, MK_MBUTTON, MK_RBUTTON, Point, Stop, Uc, VK_CAPITAL, VK_CONTROL, VK_F10,
    VK_LBUTTON, VK_MBUTTON, VK_MENU, VK_RBUTTON, VK_SHIFT, WM_KEYDOWN, WM_KEYUP, WM_LBUTTONDBLCLK,
    WM_LBUTTONDOWN, WM_LBUTTONUP, WM_MBUTTONDBLCLK, WM_MBUTTONDOWN, WM_MBUTTONUP, WM_MOUSEACTIVATE,
    WM_MOUSEMOVE, WM_NCHITTEST, WM_NCLBUTTONDOWN, WM_NCLBUTTONUP, WM_NCMOUSEMOVE, WM_NCRBUTTONDOWN,
    WM_NCRBUTTONUP, WM_RBUTTONDBLCLK, WM_RBUTTONDOWN, WM_RBUTTONUP, WM_SETCURSOR, WM_SYSKEYDOWN,
    WM_SYSKEYUP, event, makelong, point_lparam,
};
use crate::win16::api::{Api, Arg};
use crate::win16::script::Key;

/// The keyboard state.
#[derive(Debug, Clone)]
pub struct Keys {
    /// By virtual key: 0x80 down, 0x01 toggled.
    pub state: [u8; 256],
    /// Pressed since the last GetAsyncKeyState of that key.
    pub pressed: [bool; 256],
    /// DefWindowProc: Alt went down and nothing else since; F10 went down.
    pub menu_alone: bool,
    pub f10: bool,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys {
            state: [0; 256],
            pressed: [false; 256],
            menu_alone: false,
            f10: false,
        }
    }
}

impl Keys {
    pub fn down(&self, vk: u16) -> bool {
        self.state[usize::from(vk as u8)] & 0x80 != 0
    }
    fn press(&mut self, vk: u16) {
        let i = usize::from(vk as u8);
        if self.state[i] & 0x80 == 0 {
            self.state[i] ^= 0x01;
        }
        self.state[i] |= 0x80;
        self.pressed[i] = true;
    }
    fn release(&mut self, vk: u16) {
        self.state[usize::from(vk as u8)] &= !0x80;
    }
}

/// The keyboard state follows a message the task took from its queue.
pub fn retrieved(env: &mut Env, m: &Msg) {
    let k = &mut env.win16.user.keys;
    match m.message {
        WM_KEYDOWN | WM_SYSKEYDOWN => k.press(m.wparam),
        WM_KEYUP | WM_SYSKEYUP => k.release(m.wparam),
        WM_LBUTTONDOWN | WM_LBUTTONDBLCLK => k.press(VK_LBUTTON),
        WM_LBUTTONUP => k.release(VK_LBUTTON),
        WM_RBUTTONDOWN | WM_RBUTTONDBLCLK => k.press(VK_RBUTTON),
        WM_RBUTTONUP => k.release(VK_RBUTTON),
        WM_MBUTTONDOWN | WM_MBUTTONDBLCLK => k.press(VK_MBUTTON),
        WM_MBUTTONUP => k.release(VK_MBUTTON),
        _ => {}
    }
}

/// The window keyboard input goes to.
pub fn keyboard_target(env: &Env, main: u16) -> u16 {
    let u = &env.win16.user;
    [u.focus, u.active, main]
        .into_iter()
        .find(|&h| h != 0 && u.app_window(h).is_some())
        .unwrap_or(main)
}

/// The messages of one scripted key press, to the window with the focus
/// (the active window when none has it): its modifiers go down first and
/// up last (Ctrl, Shift, Alt); with Alt down (and not Ctrl) a key is a
/// system key (WM_SYSKEYDOWN / WM_SYSKEYUP, lParam bit 29 set), and so is
/// F10 always; Alt released after another key is WM_KEYUP, Alt pressed
/// alone WM_SYSKEYDOWN then WM_SYSKEYUP (SDK, WM_SYSKEYDOWN). With no
/// window having the focus every key is a system key (SDK, WM_SYSKEYDOWN:
/// "when no window has the input focus ... the message is sent to the
/// active window").
pub fn key_messages(env: &Env, main: u16, k: Key) -> Vec<Msg> {
    use crate::win16::script::{MOD_ALT, MOD_CTRL, MOD_SHIFT, key_by_name};
    const ALT_BIT: u32 = 1 << 29;
    let to = keyboard_target(env, main);
    let no_focus = env.win16.user.focus == 0;
    let mods: Vec<Key> = [(MOD_CTRL, "ctrl"), (MOD_SHIFT, "shift"), (MOD_ALT, "alt")]
        .iter()
        .filter(|(m, _)| k.mods & m != 0)
        .filter_map(|(_, n)| key_by_name(n))
        .collect();
    let alt = k.mods & MOD_ALT != 0;
    let ctrl = k.mods & MOD_CTRL != 0;
    let mut out = Vec::new();
    let mut alt_down = false;
    for m in &mods {
        let is_alt = m.vk == VK_MENU;
        let (msg, bits) = if is_alt || (alt_down && !ctrl) || no_focus {
            (WM_SYSKEYDOWN, if is_alt || alt_down { ALT_BIT } else { 0 })
        } else {
            (WM_KEYDOWN, if alt_down { ALT_BIT } else { 0 })
        };
        out.push(Msg::new(to, msg, m.vk, m.lparam_down() | bits));
        alt_down |= is_alt;
    }
    let alone_alt = k.vk == VK_MENU && mods.is_empty();
    let sys = (alt && !ctrl) || k.vk == VK_F10 || alone_alt || no_focus;
    let bits = if alt || alone_alt { ALT_BIT } else { 0 };
    let (down, up) = if sys {
        (WM_SYSKEYDOWN, WM_SYSKEYUP)
    } else {
        (WM_KEYDOWN, WM_KEYUP)
    };
    out.push(Msg::new(to, down, k.vk, k.lparam_down() | bits));
    out.push(Msg::new(
        to,
        up,
        k.vk,
        k.lparam_up() | if alone_alt { ALT_BIT } else { bits },
    ));
    for m in mods.iter().rev() {
        let is_alt = m.vk == VK_MENU;
        let (msg, bits) = if is_alt {
            (WM_KEYUP, 0)
        } else if (alt && !ctrl) || no_focus {
            (WM_SYSKEYUP, if alt { ALT_BIT } else { 0 })
        } else {
            (WM_KEYUP, if alt { ALT_BIT } else { 0 })
        };
        out.push(Msg::new(to, msg, m.vk, m.lparam_up() | bits));
    }
    out
}

/// The character a key types with the keyboard state (US layout): letters
/// with Shift or Caps Lock upper case, digits and the shifted digits'
/// symbols, Space, Tab, Enter, Esc, Backspace.
pub fn char_of_key(env: &Env, vk: u16) -> Option<u8> {
    let k = &env.win16.user.keys;
    let shift = k.down(VK_SHIFT);
    let caps = k.state[usize::from(VK_CAPITAL)] & 1 != 0;
    let ctrl = k.down(VK_CONTROL);
    match vk {
        0x41..=0x5A => {
            let c = vk as u8;
            Some(if ctrl {
                c - 0x40
            } else if shift != caps {
                c
            } else {
                c + 0x20
            })
        }
        0x30..=0x39 if shift => Some(b")!@#$%^&*("[usize::from(vk - 0x30)]),
        0x30..=0x39 => Some(vk as u8),
        0x08 | 0x09 | 0x0D | 0x1B | 0x20 => Some(vk as u8),
        _ => None,
    }
}

/// The messages of one scripted click (module doc), sending what comes
/// before the button messages.
pub fn click_messages(
    env: &mut Env,
    uc: &mut Uc<'_>,
    main: u16,
    client_pt: Point,
    right: bool,
) -> Result<Vec<Msg>, Stop> {
    let origin = env.win16.user.client_origin(main);
    let screen = Point::new(origin.x + client_pt.x, origin.y + client_pt.y);
    super::cursor::move_to(env, screen);
    let screen = env.win16.user.cursor.pos;
    let capture = env.win16.user.capture;
    let (target, ht) = if capture != 0 && env.win16.user.app_window(capture).is_some() {
        (capture, HTCLIENT)
    } else {
        let t = super::winpos::window_from_point(env, screen);
        if t == DESKTOP || env.win16.user.app_window(t).is_none() {
            event(
                uc,
                format!("click at ({}, {}) hits no window", screen.x, screen.y),
            );
            return Ok(Vec::new());
        }
        let ht = send(env, uc, t, WM_NCHITTEST, 0, point_lparam(screen))? as u16;
        (t, ht)
    };
    let (down, up, mk) = if right {
        (WM_RBUTTONDOWN, WM_RBUTTONUP, MK_RBUTTON)
    } else {
        (WM_LBUTTONDOWN, WM_LBUTTONUP, MK_LBUTTON)
    };
    let to_client = |env: &Env, h: u16| {
        let o = env.win16.user.client_origin(h);
        Point::new(screen.x - o.x, screen.y - o.y)
    };
    if matches!(ht, HTNOWHERE | HTERROR | HTTRANSPARENT) {
        send(env, uc, target, WM_SETCURSOR, target, makelong(ht, down))?;
        return Ok(Vec::new());
    }
    if ht == HTCLIENT {
        // The parents hear of a button going down in a child.
        if let Some(w) = env.win16.user.app_window(target)
            && w.is_child()
        {
            let p = to_client(env, w.parent);
            super::window::notify_parents(env, uc, target, down, point_lparam(p))?;
        }
    }
    let top = env.win16.user.top_level(target);
    let mut eat = false;
    if capture == 0 {
        let r = send(env, uc, target, WM_MOUSEACTIVATE, top, makelong(ht, down))? as u16;
        if top != 0 && top != env.win16.user.active && r != MA_NOACTIVATE {
            super::focus::set_active(env, uc, top, true, true)?;
        }
        eat = r == MA_ACTIVATEANDEAT;
        send(env, uc, target, WM_SETCURSOR, target, makelong(ht, down))?;
    }
    if eat {
        return Ok(Vec::new());
    }
    let msgs = if ht == HTCLIENT {
        let p = point_lparam(to_client(env, target));
        vec![Msg::new(target, down, mk, p), Msg::new(target, up, 0, p)]
    } else {
        let nc = if right {
            (WM_NCRBUTTONDOWN, WM_NCRBUTTONUP)
        } else {
            (WM_NCLBUTTONDOWN, WM_NCLBUTTONUP)
        };
        let p = point_lparam(screen);
        vec![Msg::new(target, nc.0, ht, p), Msg::new(target, nc.1, ht, p)]
    };
    Ok(msgs)
}

/// MessageBeep: an event (the sound the program asked for).
pub fn beep(env: &Env, uc: &mut Uc<'_>, kind: u16) {
    let what = match kind {
        0xFFFF => "the speaker",
        0x10 => "MB_ICONHAND",
        0x20 => "MB_ICONQUESTION",
        0x30 => "MB_ICONEXCLAMATION",
        0x40 => "MB_ICONASTERISK",
        _ => "MB_OK",
    };
    let on = if env.win16.user.sys.beep {
        ""
    } else {
        " (beeps are off)"
    };
    event(uc, format!("beep {what}{on}"));
}

/// USER.104 MessageBeep(wAlert).
fn message_beep(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    beep(env, uc, a[0] as u16);
    Ok(0)
}

/// USER.106 GetKeyState(nVirtKey): the high bit while the key is down, the
/// low bit its toggle (module doc).
fn get_key_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = env.win16.user.keys.state[usize::from(a[0] as u8)];
    let v = (if s & 0x80 != 0 { 0xFF80u16 } else { 0 }) | u16::from(s & 1);
    Ok(u32::from(v))
}

/// USER.249 GetAsyncKeyState(vkey): 0x8000 while the key is down, bit 0
/// when it was pressed since the last call for it.
fn get_async_key_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let k = &mut env.win16.user.keys;
    let i = usize::from(a[0] as u8);
    let v = (if k.state[i] & 0x80 != 0 { 0x8000u16 } else { 0 }) | u16::from(k.pressed[i]);
    k.pressed[i] = false;
    Ok(u32::from(v))
}

/// USER.222 GetKeyboardState(lpKeyState): the 256 bytes.
fn get_keyboard_state(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = env.win16.user.keys.state;
    crate::win16::farptr::write_bytes(uc, a[0], &s);
    Ok(0)
}

/// USER.223 SetKeyboardState(lpKeyState).
fn set_keyboard_state(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(b) = crate::win16::farptr::read_bytes(uc, a[0], 256) {
        env.win16.user.keys.state.copy_from_slice(&b);
    }
    Ok(0)
}

// ------------------------------------------- keybd_event, mouse_event

/// The task whose queue input for window `hwnd` goes to.
fn task_of(env: &Env, hwnd: u16) -> u16 {
    env.win16.user.app_window(hwnd).map_or(0, |w| w.htask)
}

/// USER.289 keybd_event, the keyboard driver's entry (Windows 3.1 DDK):
/// register arguments, AL the virtual key, AH 0x80 for a release, BL the
/// scan code, BH bit 0 an extended key (SI:DI extra information, unused).
/// The key message goes to the focus window's queue (the active window's
/// as WM_SYSKEY* when nothing has the focus), as a typed key does: Alt
/// held (and not Ctrl) or F10 makes it a system key.
fn keybd_event(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    use crate::machine::{Cpu, R};
    let (ax, bx) = (uc.reg(R::AX), uc.reg(R::BX));
    let vk = ax & 0xFF;
    let up = ax & 0x8000 != 0;
    let main = env.win16.user.queue(uc.get_data().current_task).main_window;
    let to = keyboard_target(env, main);
    if env.win16.user.app_window(to).is_none() {
        event(
            uc,
            format!("keybd_event VK {vk:02X}: no window has the keyboard"),
        );
        return Ok(0);
    }
    let k = &env.win16.user.keys;
    let alt = k.down(VK_MENU) || vk == VK_MENU;
    let sys = (alt && !k.down(VK_CONTROL)) || vk == VK_F10 || env.win16.user.focus == 0;
    let msg = match (sys, up) {
        (false, false) => WM_KEYDOWN,
        (false, true) => WM_KEYUP,
        (true, false) => WM_SYSKEYDOWN,
        (true, true) => WM_SYSKEYUP,
    };
    let mut lparam = 1 | u32::from(bx & 0xFF) << 16 | u32::from(bx & 0x100 != 0) << 24;
    if alt {
        lparam |= 1 << 29;
    }
    if up {
        lparam |= 0xC000_0000;
    } else if env.win16.user.keys.down(vk) {
        // A repeat: the key was already down.
        lparam |= 1 << 30;
    }
    let htask = task_of(env, to);
    super::message::post_to(env, uc, htask, Msg::new(to, msg, vk, lparam), true);
    Ok(0)
}

/// mouse_event's flags in AX (Windows 3.1 DDK, SF_*).
const SF_MOVEMENT: u16 = 0x0001;
const SF_ABSOLUTE: u16 = 0x8000;
/// The button flags after SF_MOVEMENT, with the client and the
/// non-client message and the MK_ bit of each.
const SF_BUTTONS: [(u16, u16, u16, u16); 6] = [
    (0x0002, WM_LBUTTONDOWN, WM_NCLBUTTONDOWN, MK_LBUTTON),
    (0x0004, WM_LBUTTONUP, WM_NCLBUTTONUP, 0),
    (0x0008, WM_RBUTTONDOWN, WM_NCRBUTTONDOWN, MK_RBUTTON),
    (0x0010, WM_RBUTTONUP, WM_NCRBUTTONUP, 0),
    (0x0020, WM_MBUTTONDOWN, WM_NCLBUTTONDOWN + 6, MK_MBUTTON),
    (0x0040, WM_MBUTTONDOWN + 1, WM_NCLBUTTONDOWN + 7, 0),
];

/// USER.299 mouse_event, the mouse driver's entry (Windows 3.1 DDK):
/// register arguments, AX the SF_ flags, BX and CX the motion (mickeys,
/// or with SF_ABSOLUTE a position scaled 0..65535 over the screen), DX
/// the number of buttons. The cursor moves, and the window under it (or
/// the capture window) gets WM_MOUSEMOVE and the button messages in its
/// queue, in client coordinates, or their WM_NC forms with the hit-test
/// code outside its client area.
fn mouse_event(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    use crate::machine::{Cpu, R};
    let flags = uc.reg(R::AX);
    let (dx, dy) = (uc.reg(R::BX), uc.reg(R::CX));
    let screen = env.win16.user.screen();
    if flags & SF_MOVEMENT != 0 {
        let p = if flags & SF_ABSOLUTE != 0 {
            let scale = |v: u16, n: i32| ((i64::from(v) * i64::from(n)) / 65536) as i32;
            Point::new(scale(dx, screen.width()), scale(dy, screen.height()))
        } else {
            let c = env.win16.user.cursor.pos;
            Point::new(c.x + i32::from(dx as i16), c.y + i32::from(dy as i16))
        };
        super::cursor::move_to(env, p);
    }
    let pt = env.win16.user.cursor.pos;
    let capture = env.win16.user.capture;
    let (target, ht) = if capture != 0 && env.win16.user.app_window(capture).is_some() {
        (capture, HTCLIENT)
    } else {
        let t = super::winpos::window_from_point(env, pt);
        if t == DESKTOP || env.win16.user.app_window(t).is_none() {
            return Ok(0);
        }
        (
            t,
            send(env, uc, t, WM_NCHITTEST, 0, point_lparam(pt))? as u16,
        )
    };
    let o = env.win16.user.client_origin(target);
    let client = point_lparam(Point::new(pt.x - o.x, pt.y - o.y));
    let held = [
        (VK_LBUTTON, MK_LBUTTON),
        (VK_RBUTTON, MK_RBUTTON),
        (VK_MBUTTON, MK_MBUTTON),
    ]
    .iter()
    .filter(|(vk, _)| env.win16.user.keys.down(*vk))
    .fold(0, |m, (_, mk)| m | mk);
    let mut msgs = Vec::new();
    if flags & SF_MOVEMENT != 0 {
        msgs.push(if ht == HTCLIENT {
            Msg::new(target, WM_MOUSEMOVE, held, client)
        } else {
            Msg::new(target, WM_NCMOUSEMOVE, ht, point_lparam(pt))
        });
    }
    for (bit, msg, nc, mk) in SF_BUTTONS {
        if flags & bit != 0 {
            msgs.push(if ht == HTCLIENT {
                Msg::new(target, msg, held | mk, client)
            } else {
                Msg::new(target, nc, ht, point_lparam(pt))
            });
        }
    }
    let htask = task_of(env, target);
    for m in msgs {
        super::message::post_to(env, uc, htask, m, true);
    }
    Ok(0)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 104, "MESSAGEBEEP", &[Arg::W], message_beep),
    Api::new("USER", 289, "KEYBD_EVENT", &[], keybd_event),
    Api::new("USER", 299, "MOUSE_EVENT", &[], mouse_event),
    Api::new("USER", 106, "GETKEYSTATE", &[Arg::W], get_key_state),
    Api::new(
        "USER",
        222,
        "GETKEYBOARDSTATE",
        &[Arg::L],
        get_keyboard_state,
    ),
    Api::new(
        "USER",
        223,
        "SETKEYBOARDSTATE",
        &[Arg::L],
        set_keyboard_state,
    ),
    Api::new(
        "USER",
        249,
        "GETASYNCKEYSTATE",
        &[Arg::W],
        get_async_key_state,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn keys_are_down_between_down_and_up() {
        let mut env = Env::new(false);
        retrieved(&mut env, &Msg::new(0, WM_KEYDOWN, VK_SHIFT, 0));
        assert!(env.win16.user.keys.down(VK_SHIFT));
        assert_eq!(char_of_key(&env, 0x41), Some(b'A'));
        assert_eq!(char_of_key(&env, 0x32), Some(b'@'));
        retrieved(&mut env, &Msg::new(0, WM_KEYUP, VK_SHIFT, 0));
        assert!(!env.win16.user.keys.down(VK_SHIFT));
        assert_eq!(char_of_key(&env, 0x41), Some(b'a'));
        // Caps Lock toggles at each press.
        retrieved(&mut env, &Msg::new(0, WM_KEYDOWN, VK_CAPITAL, 0));
        retrieved(&mut env, &Msg::new(0, WM_KEYUP, VK_CAPITAL, 0));
        assert_eq!(env.win16.user.keys.state[usize::from(VK_CAPITAL)], 1);
        assert_eq!(char_of_key(&env, 0x41), Some(b'A'));
    }
}
