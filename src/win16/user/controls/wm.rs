//! What the dialog manager and the controls need of the window manager, in
//! one place: a window's parent, id, style, text, children in z-order,
//! enable state and the focus; creating, showing, moving and destroying
//! windows; sending and posting messages.
//!
//! Where USER has the Windows function (SetFocus, EnableWindow,
//! GetWindow...), these call it through its table entry, as a program
//! would, so they follow the window manager's own rules and events. Where
//! it does not yet, they keep the minimum themselves, as Windows defines
//! it: the focus window (SetFocus sends WM_KILLFOCUS to the old focus, then
//! WM_SETFOCUS to the new one), the enable state as the WS_DISABLED style
//! bit (EnableWindow sends WM_ENABLE), WM_SETTEXT / WM_GETTEXT /
//! WM_GETTEXTLENGTH in the default procedure.

use super::super::defwnd::def_window_proc_impl;
use super::super::{Msg, Window, call_wndproc, post as post_msg, send as send_msg};
use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::api;
use crate::win16::callback::CallArg;
use crate::win16::farptr;

pub const WS_CHILD: u32 = 0x4000_0000;
pub const WS_VISIBLE: u32 = 0x1000_0000;
pub const WS_DISABLED: u32 = 0x0800_0000;
pub const WS_BORDER: u32 = 0x0080_0000;
pub const WS_VSCROLL: u32 = 0x0020_0000;
pub const WS_HSCROLL: u32 = 0x0010_0000;
pub const WS_GROUP: u32 = 0x0002_0000;
pub const WS_TABSTOP: u32 = 0x0001_0000;

pub const WM_ENABLE: u16 = 0x000A;
pub const WM_KILLFOCUS: u16 = 0x0008;
pub const WM_SETTEXT: u16 = 0x000C;
pub const WM_GETTEXT: u16 = 0x000D;
pub const WM_GETTEXTLENGTH: u16 = 0x000E;
pub const WM_CTLCOLOR: u16 = 0x0019;
pub const WM_NEXTDLGCTL: u16 = 0x0028;
pub const WM_DRAWITEM: u16 = 0x002B;
pub const WM_MEASUREITEM: u16 = 0x002C;
pub const WM_DELETEITEM: u16 = 0x002D;
pub const WM_VKEYTOITEM: u16 = 0x002E;
pub const WM_CHARTOITEM: u16 = 0x002F;
pub const WM_SETFONT: u16 = 0x0030;
pub const WM_GETFONT: u16 = 0x0031;
pub const WM_QUERYDRAGICON: u16 = 0x0037;
pub const WM_COMPAREITEM: u16 = 0x0039;
pub const WM_GETDLGCODE: u16 = 0x0087;
pub const WM_SYSKEYDOWN: u16 = 0x0104;
pub const WM_SYSCHAR: u16 = 0x0106;
pub const WM_HSCROLL: u16 = 0x0114;
pub const WM_VSCROLL: u16 = 0x0115;
pub const WM_ENTERIDLE: u16 = 0x0121;
pub const WM_MOUSEMOVE: u16 = 0x0200;
pub const WM_LBUTTONDBLCLK: u16 = 0x0203;
pub const WM_CUT: u16 = 0x0300;
pub const WM_COPY: u16 = 0x0301;
pub const WM_PASTE: u16 = 0x0302;
pub const WM_CLEAR: u16 = 0x0303;
pub const WM_UNDO: u16 = 0x0304;

/// USER's function `ordinal` called as a program would, if USER has it.
pub fn user_call(
    env: &mut Env,
    uc: &mut Uc<'_>,
    ordinal: u16,
    args: &[u32],
) -> Option<Result<u32, Stop>> {
    let a = api::all().find(|a| a.module == "USER" && a.ordinal == ordinal)?;
    Some((a.func)(env, uc, args))
}

/// Does USER have function `ordinal`?
fn has(ordinal: u16) -> bool {
    api::all().any(|a| a.module == "USER" && a.ordinal == ordinal)
}

/// The window, if it exists.
pub fn window(env: &Env, hwnd: u16) -> Option<&Window> {
    env.win16.user.window(hwnd)
}

/// Is `hwnd` a window?
pub fn exists(env: &Env, hwnd: u16) -> bool {
    hwnd != 0 && window(env, hwnd).is_some()
}

/// A child window's parent (0 for a top-level window).
pub fn parent(env: &Env, hwnd: u16) -> u16 {
    window(env, hwnd)
        .filter(|w| w.style & WS_CHILD != 0)
        .map_or(0, |w| w.parent)
}

/// A top-level window's owner (0 for a child window).
pub fn owner(env: &Env, hwnd: u16) -> u16 {
    window(env, hwnd)
        .filter(|w| w.style & WS_CHILD == 0)
        .map_or(0, |w| w.parent)
}

/// A child window's id (its hMenu argument).
pub fn id(env: &Env, hwnd: u16) -> u16 {
    window(env, hwnd).map_or(0, |w| w.id)
}

pub fn style(env: &Env, hwnd: u16) -> u32 {
    window(env, hwnd).map_or(0, |w| w.style)
}

/// Change the style (as SetWindowLong(GWL_STYLE) does: no message).
pub fn set_style(env: &mut Env, hwnd: u16, style: u32) {
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.style = style;
    }
}

/// The instance a window was created with.
pub fn hinstance(env: &Env, hwnd: u16) -> u16 {
    window(env, hwnd).map_or(0, |w| w.hinstance)
}

/// The task that owns a window.
pub fn task(env: &Env, hwnd: u16) -> u16 {
    window(env, hwnd).map_or(0, |w| w.htask)
}

/// The child windows of `hwnd`, first to last in z-order (GetWindow
/// GW_CHILD, then GW_HWNDNEXT): for a dialog, its controls in template
/// order.
pub fn children(env: &Env, hwnd: u16) -> Vec<u16> {
    env.win16
        .user
        .windows
        .iter()
        .filter(|w| w.parent == hwnd && !w.destroyed && w.style & WS_CHILD != 0)
        .map(|w| w.hwnd)
        .collect()
}

/// Is `child` a descendant of `ancestor` (IsChild)?
pub fn is_descendant(env: &Env, ancestor: u16, child: u16) -> bool {
    let mut h = child;
    for _ in 0..64 {
        let p = parent(env, h);
        if p == 0 {
            return false;
        }
        if p == ancestor {
            return true;
        }
        h = p;
    }
    false
}

pub fn is_visible(env: &Env, hwnd: u16) -> bool {
    window(env, hwnd).is_some_and(|w| w.visible)
}

pub fn is_enabled(env: &Env, hwnd: u16) -> bool {
    window(env, hwnd).is_some_and(|w| w.style & WS_DISABLED == 0)
}

/// EnableWindow: returns whether the window was disabled before.
pub fn enable(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, on: bool) -> Result<bool, Stop> {
    if let Some(r) = user_call(env, uc, 34, &[u32::from(hwnd), u32::from(on)]) {
        return Ok(r? != 0);
    }
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(false);
    };
    let was_disabled = w.style & WS_DISABLED != 0;
    if was_disabled != on {
        return Ok(was_disabled);
    }
    if on {
        w.style &= !WS_DISABLED;
    } else {
        w.style |= WS_DISABLED;
    }
    send(env, uc, hwnd, WM_ENABLE, u16::from(on), 0)?;
    if !on && focus(env, uc)? == hwnd {
        set_focus(env, uc, 0)?;
    }
    Ok(was_disabled)
}

/// GetFocus.
pub fn focus(env: &mut Env, uc: &mut Uc<'_>) -> Result<u16, Stop> {
    if let Some(r) = user_call(env, uc, 23, &[]) {
        return Ok(r? as u16);
    }
    let f = env.win16.user.controls.interim_focus;
    Ok(if exists(env, f) { f } else { 0 })
}

/// SetFocus: the previous focus window.
pub fn set_focus(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<u16, Stop> {
    if let Some(r) = user_call(env, uc, 22, &[u32::from(hwnd)]) {
        return Ok(r? as u16);
    }
    let old = focus(env, uc)?;
    if hwnd != 0 && !exists(env, hwnd) {
        return Ok(0);
    }
    if old == hwnd {
        return Ok(old);
    }
    env.win16.user.controls.interim_focus = hwnd;
    if old != 0 {
        send(env, uc, old, WM_KILLFOCUS, hwnd, 0)?;
    }
    if hwnd != 0 && env.win16.user.controls.interim_focus == hwnd {
        send(env, uc, hwnd, super::super::WM_SETFOCUS, old, 0)?;
    }
    Ok(old)
}

/// The window's text as DefWindowProc keeps it.
pub fn title(env: &Env, hwnd: u16) -> Vec<u8> {
    window(env, hwnd).map_or_else(Vec::new, |w| latin1(&w.title))
}

/// Replace the text DefWindowProc keeps (no message).
pub fn set_title(env: &mut Env, hwnd: u16, text: &[u8]) {
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.title = text.iter().map(|&b| char::from(b)).collect();
    }
}

/// A window's text as bytes: the titles keep one character per byte.
fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

/// The client area's size.
pub fn client_size(env: &Env, hwnd: u16) -> (i16, i16) {
    window(env, hwnd).map_or((0, 0), |w| {
        let has_menu = w.style & WS_CHILD == 0 && w.id != 0;
        super::super::client_size(w, has_menu)
    })
}

/// The window rectangle (for a child window, in its parent's client
/// coordinates).
pub fn rect(env: &Env, hwnd: u16) -> (i16, i16, i16, i16) {
    window(env, hwnd).map_or((0, 0, 0, 0), |w| w.rect)
}

/// MoveWindow(hwnd, x, y, cx, cy, repaint).
pub fn move_window(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    r: (i16, i16, i16, i16),
) -> Result<(), Stop> {
    let args = [r.0, r.1, r.2 - r.0, r.3 - r.1].map(|v| u32::from(v as u16));
    if let Some(res) = user_call(
        env,
        uc,
        56,
        &[u32::from(hwnd), args[0], args[1], args[2], args[3], 1],
    ) {
        res?;
        return Ok(());
    }
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(());
    };
    w.rect = r;
    w.needs_paint = true;
    let (cx, cy) = client_size(env, hwnd);
    send(
        env,
        uc,
        hwnd,
        super::super::WM_SIZE,
        0,
        u32::from(cy as u16) << 16 | u32::from(cx as u16),
    )?;
    send(
        env,
        uc,
        hwnd,
        super::super::WM_MOVE,
        0,
        u32::from(r.1 as u16) << 16 | u32::from(r.0 as u16),
    )?;
    Ok(())
}

/// SendMessage.
pub fn send(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    send_msg(env, uc, hwnd, msg, wparam, lparam)
}

/// SendMessage with lParam pointing at `data` (on the stack, as USER's
/// own structures were): the result and the data as the procedure left
/// it.
pub fn send_data(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    data: &[u8],
) -> Result<(u32, Vec<u8>), Stop> {
    call_wndproc(env, uc, hwnd, msg, wparam, CallArg::Scratch, data)
}

/// PostMessage.
pub fn post(env: &mut Env, uc: &Uc<'_>, hwnd: u16, msg: u16, wparam: u16, lparam: u32) -> bool {
    post_msg(
        env,
        uc.get_data().current_task,
        Msg {
            hwnd,
            message: msg,
            wparam,
            lparam,
        },
    )
}

/// DefWindowProc, with the window text messages.
pub fn def_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    match msg {
        WM_SETTEXT => {
            let text = if lparam == 0 {
                Vec::new()
            } else {
                farptr::read_cstr(uc, lparam, farptr::MAX_STRING).unwrap_or_default()
            };
            set_title(env, hwnd, &text);
            Ok(1)
        }
        WM_GETTEXT => {
            let t = title(env, hwnd);
            Ok(
                farptr::write_cstr_truncated(uc, lparam, &t, usize::from(wparam)).unwrap_or(0)
                    as u32,
            )
        }
        WM_GETTEXTLENGTH => Ok(title(env, hwnd).len() as u32),
        _ => def_window_proc_impl(env, uc, hwnd, msg, wparam, lparam),
    }
}

/// CreateWindow(class, text, style, x, y, cx, cy, parent, id, hInstance,
/// lpParam) with the class and text as far pointers.
#[allow(clippy::too_many_arguments)]
pub fn create(
    env: &mut Env,
    uc: &mut Uc<'_>,
    class: u32,
    text: u32,
    style: u32,
    r: (i16, i16, i16, i16),
    parent: u16,
    id: u16,
    hinstance: u16,
    param: u32,
) -> Result<u16, Stop> {
    let args = [
        class,
        text,
        style,
        u32::from(r.0 as u16),
        u32::from(r.1 as u16),
        u32::from(r.2 as u16),
        u32::from(r.3 as u16),
        u32::from(parent),
        u32::from(id),
        u32::from(hinstance),
        param,
    ];
    match user_call(env, uc, 41, &args) {
        Some(r) => Ok(r? as u16),
        None => Err(Stop::Error("USER has no CreateWindow".into())),
    }
}

/// DestroyWindow.
pub fn destroy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    super::super::window::destroy(env, uc, hwnd)
}

/// ShowWindow(hwnd, nCmdShow): whether it was visible.
pub fn show(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, cmd: u16) -> Result<bool, Stop> {
    match user_call(env, uc, 42, &[u32::from(hwnd), u32::from(cmd)]) {
        Some(r) => Ok(r? != 0),
        None => Ok(false),
    }
}

/// GetDC(hwnd).
pub fn get_dc(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<u16, Stop> {
    Ok(user_call(env, uc, 66, &[u32::from(hwnd)])
        .transpose()?
        .unwrap_or(0) as u16)
}

/// ReleaseDC(hwnd, hdc).
pub fn release_dc(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    user_call(env, uc, 68, &[u32::from(hwnd), u32::from(hdc)]).transpose()?;
    Ok(())
}

/// BeginPaint(hwnd, lpPaint) with the PAINTSTRUCT on the stack, `f` with
/// the DC, then EndPaint: what a window procedure's WM_PAINT does.
pub fn paint(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    f: impl FnOnce(&mut Env, &mut Uc<'_>, u16) -> Result<(), Stop>,
) -> Result<(), Stop> {
    super::with_stack(env, uc, 32, |env, uc, ps| {
        let hdc = user_call(env, uc, 39, &[u32::from(hwnd), ps])
            .transpose()?
            .unwrap_or(0) as u16;
        let r = f(env, uc, hdc);
        user_call(env, uc, 40, &[u32::from(hwnd), ps]).transpose()?;
        r
    })
    .map(|_| ())
}

/// InvalidateRect(hwnd, NULL, TRUE): the window paints again.
pub fn invalidate(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if let Some(r) = user_call(env, uc, 125, &[u32::from(hwnd), 0, 1]) {
        r?;
    }
    Ok(())
}

/// MessageBeep(0), if USER has it (a beep is an event there).
pub fn beep(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    if has(104) {
        user_call(env, uc, 104, &[0]).transpose()?;
    } else {
        super::super::event(uc, "message beep".into());
    }
    Ok(())
}

/// GetKeyState(vk) < 0: is the key down (from the scripted input)?
pub fn key_down(env: &mut Env, uc: &mut Uc<'_>, vk: u16) -> Result<bool, Stop> {
    Ok(match user_call(env, uc, 106, &[u32::from(vk)]) {
        Some(r) => r? & 0x8000 != 0,
        None => false,
    })
}

/// Read a far pointer's NUL-terminated string (empty for NULL).
pub fn cstr(uc: &Uc<'_>, p: u32) -> Vec<u8> {
    if p == 0 {
        return Vec::new();
    }
    farptr::read_cstr(uc, p, farptr::MAX_STRING).unwrap_or_default()
}

/// Write bytes at a far pointer; false when it is not writable.
pub fn write(uc: &mut Uc<'_>, p: u32, data: &[u8]) -> bool {
    let (seg, off) = farptr::split(p);
    p != 0 && uc.write_seg(seg, off, data).is_ok()
}
