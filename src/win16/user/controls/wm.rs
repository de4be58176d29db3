//! What the dialog manager and the controls need of the window manager, in
//! one place: a window's parent, id, style, text, children in z-order,
//! enable state and the focus; creating, showing, moving and destroying
//! windows; sending and posting messages.
//!
//! Each is the window manager's own function (window.rs, winpos.rs,
//! focus.rs, message.rs, paint.rs, input.rs), called directly, so the
//! controls and dialogs follow its rules, messages and events.

use super::super::{Msg, Window, paint};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
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

/// The window, if it exists.
pub fn window(env: &Env, hwnd: u16) -> Option<&Window> {
    env.win16.user.app_window(hwnd)
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
        .map_or(0, |w| w.owner)
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
/// order (each new child goes to the bottom).
pub fn children(env: &Env, hwnd: u16) -> Vec<u16> {
    let u = &env.win16.user;
    u.children(hwnd)
        .into_iter()
        .filter(|&h| u.app_window(h).is_some_and(|w| w.style & WS_CHILD != 0))
        .collect()
}

/// Is `child` a descendant of `ancestor` (IsChild)?
pub fn is_descendant(env: &Env, ancestor: u16, child: u16) -> bool {
    env.win16.user.is_descendant(ancestor, child)
}

/// The window's own WS_VISIBLE (its parents aside: the dialog manager's
/// tests, as Windows' GetNextDlgTabItem's, look at the style).
pub fn is_visible(env: &Env, hwnd: u16) -> bool {
    window(env, hwnd).is_some_and(|w| w.visible())
}

pub fn is_enabled(env: &Env, hwnd: u16) -> bool {
    window(env, hwnd).is_some_and(|w| w.style & WS_DISABLED == 0)
}

/// EnableWindow: returns whether the window was disabled before.
pub fn enable(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, on: bool) -> Result<bool, Stop> {
    super::super::window::enable_window(env, uc, hwnd, on)
}

/// GetFocus.
pub fn focus(env: &mut Env, _uc: &mut Uc<'_>) -> Result<u16, Stop> {
    let f = env.win16.user.focus;
    Ok(if exists(env, f) { f } else { 0 })
}

/// SetFocus: the previous focus window.
pub fn set_focus(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<u16, Stop> {
    super::super::focus::set_focus(env, uc, hwnd)
}

/// The window's text as DefWindowProc keeps it.
pub fn title(env: &Env, hwnd: u16) -> Vec<u8> {
    window(env, hwnd).map_or_else(Vec::new, |w| w.text.clone())
}

/// Replace the text DefWindowProc keeps (no message).
pub fn set_title(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, text: &[u8]) {
    super::super::window::store_text(env, uc, hwnd, text.to_vec());
}

/// The client area's size.
pub fn client_size(env: &Env, hwnd: u16) -> (i16, i16) {
    window(env, hwnd).map_or((0, 0), |w| {
        (w.client.width() as i16, w.client.height() as i16)
    })
}

/// The window rectangle (for a child window, in its parent's client
/// coordinates).
pub fn rect(env: &Env, hwnd: u16) -> (i16, i16, i16, i16) {
    window(env, hwnd).map_or((0, 0, 0, 0), |w| {
        let r = w.rect;
        (r.left as i16, r.top as i16, r.right as i16, r.bottom as i16)
    })
}

/// MoveWindow(hwnd, x, y, cx, cy, TRUE).
pub fn move_window(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    r: (i16, i16, i16, i16),
) -> Result<(), Stop> {
    let (l, t, rt, b) = (
        i32::from(r.0),
        i32::from(r.1),
        i32::from(r.2),
        i32::from(r.3),
    );
    super::super::winpos::set_window_pos(
        env,
        uc,
        hwnd,
        0,
        l,
        t,
        rt - l,
        b - t,
        super::super::SWP_NOZORDER | super::super::SWP_NOACTIVATE,
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
    super::super::message::send(env, uc, hwnd, msg, wparam, lparam)
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
    super::super::message::send_struct(env, uc, hwnd, msg, wparam, data)
}

/// PostMessage (to the window's task).
pub fn post(env: &mut Env, uc: &Uc<'_>, hwnd: u16, msg: u16, wparam: u16, lparam: u32) -> bool {
    super::super::message::post(env, uc, Msg::new(hwnd, msg, wparam, lparam))
}

/// DefWindowProc (it keeps the window text: WM_SETTEXT, WM_GETTEXT,
/// WM_GETTEXTLENGTH).
pub fn def_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    super::super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam)
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
    create_ex(
        env, uc, 0, class, text, style, r, parent, id, hinstance, param,
    )
}

/// CreateWindowEx(exStyle, class, text, style, x, y, cx, cy, parent, id,
/// hInstance, lpParam).
#[allow(clippy::too_many_arguments)]
pub fn create_ex(
    env: &mut Env,
    uc: &mut Uc<'_>,
    ex_style: u32,
    class: u32,
    text: u32,
    style: u32,
    r: (i16, i16, i16, i16),
    parent: u16,
    id: u16,
    hinstance: u16,
    param: u32,
) -> Result<u16, Stop> {
    super::super::window::create_window(
        env,
        uc,
        super::super::window::CreateArgs {
            ex_style,
            class,
            name: text,
            style,
            x: r.0 as u16,
            y: r.1 as u16,
            cx: r.2 as u16,
            cy: r.3 as u16,
            parent,
            menu: id,
            hinstance,
            param,
        },
    )
}

/// DestroyWindow.
pub fn destroy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    super::super::window::destroy_window(env, uc, hwnd)
}

/// ShowWindow(hwnd, nCmdShow): whether it was visible.
pub fn show(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, cmd: u16) -> Result<bool, Stop> {
    if !exists(env, hwnd) {
        return Ok(false);
    }
    super::super::winpos::show_window(env, uc, hwnd, cmd)
}

/// GetDC(hwnd): the client area's DC (0 for a window that does not
/// exist).
pub fn get_dc(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<u16, Stop> {
    if hwnd != 0 && env.win16.user.window(hwnd).is_none() {
        return Ok(0);
    }
    Ok(paint::window_dc(env, uc, hwnd, paint::DcKind::Client, None))
}

/// ReleaseDC(hwnd, hdc).
pub fn release_dc(env: &mut Env, uc: &mut Uc<'_>, _hwnd: u16, hdc: u16) -> Result<(), Stop> {
    paint::release_window_dc(env, uc, hdc);
    Ok(())
}

/// BeginPaint, `f` with the DC, then EndPaint: what a window procedure's
/// WM_PAINT does.
pub fn paint(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    f: impl FnOnce(&mut Env, &mut Uc<'_>, u16) -> Result<(), Stop>,
) -> Result<(), Stop> {
    if env.win16.user.window(hwnd).is_none() {
        return f(env, uc, 0);
    }
    let (hdc, _) = paint::begin_paint(env, uc, hwnd)?;
    let r = f(env, uc, hdc);
    paint::end_paint(env, uc, hwnd, hdc);
    r
}

/// InvalidateRect(hwnd, NULL, TRUE): the window paints again.
pub fn invalidate(env: &mut Env, _uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if hwnd != 0 {
        paint::redraw(
            env,
            hwnd,
            None,
            super::super::RDW_INVALIDATE | super::super::RDW_ERASE,
        );
    }
    Ok(())
}

/// MessageBeep(0) (a beep is an event).
pub fn beep(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    super::super::input::beep(env, uc, 0);
    Ok(())
}

/// GetKeyState(vk) < 0: is the key down (from the scripted input)?
pub fn key_down(env: &mut Env, _uc: &mut Uc<'_>, vk: u16) -> Result<bool, Stop> {
    Ok(env.win16.user.keys.state[usize::from(vk as u8)] & 0x80 != 0)
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
