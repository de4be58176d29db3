//! The window tree: CreateWindow and DestroyWindow with the messages
//! Windows sends, the parent, owner and sibling relations, enumeration,
//! window words and longs, the window text, the enable state.
//!
//! **CreateWindow** (Wine's tested notes, documentation/gui, "CreateWindow
//! for overlapped window" and "for child window", confirmed for Win16; the
//! order of its 3.1-era win.c): the WH_CBT hook (HCBT_CREATEWND) may refuse
//! the window; an overlapped window (neither WS_POPUP nor WS_CHILD) gets
//! WS_CAPTION and WS_CLIPSIBLINGS; the window goes into its parent's
//! z-order (a top-level window on top, a child at the bottom, so the first
//! child created is the topmost); WM_GETMINMAXINFO (for an overlapped or
//! thick-framed window: the size is kept between the minimum tracking size
//! and the maximized size), WM_NCCREATE (0: no window), WM_NCCALCSIZE
//! (wParam 0, the window rectangle becomes the client rectangle),
//! WM_CREATE (−1: no window); then a child or pop-up gets WM_SIZE and
//! WM_MOVE at once while an overlapped window gets them from its first
//! ShowWindow; the parents of a child get WM_PARENTNOTIFY (WM_CREATE); a
//! WS_VISIBLE window is shown (ShowWindow(SW_SHOW)); an unowned top-level
//! window is announced to the WH_SHELL hook.
//!
//! **DestroyWindow** (Wine's notes "DestroyWindow for overlapped window",
//! "for child window", and its 3.1-era DestroyWindow): the WH_CBT hook
//! (HCBT_DESTROYWND) may refuse; the parents of a child get
//! WM_PARENTNOTIFY (WM_DESTROY); the window is hidden (a child with
//! ShowWindow(SW_HIDE), so it gets WM_SHOWWINDOW; a top-level window with
//! SetWindowPos(SWP_HIDEWINDOW), which deactivates it and takes the focus
//! away); the windows it owns are destroyed; WM_DESTROY goes to the window
//! and then to its children (the parent first); WM_NCDESTROY goes to the
//! children and then to the window (the children first).

use super::focus;
use super::message::send;
use super::winpos::{
    MinMax, calc_client, has_thickframe, min_max_info, set_window_pos, show_window,
};
use super::{
    CW_USEDEFAULT, DESKTOP, Env, GW_CHILD, GW_HWNDFIRST, GW_HWNDLAST, GW_HWNDNEXT, GW_HWNDPREV,
    GW_OWNER, GWL_EXSTYLE, GWL_STYLE, GWL_WNDPROC, GWW_HINSTANCE, GWW_HWNDPARENT, GWW_ID,
    HCBT_DESTROYWND, HSHELL_WINDOWCREATED, HSHELL_WINDOWDESTROYED, HWND_BOTTOM, HWND_TOP, MAX_TEXT,
    MAX_WINDOWS, Rect, Region, SW_HIDE, SW_SHOW, SW_SHOWMAXIMIZED, SW_SHOWMINIMIZED,
    SWP_HIDEWINDOW, SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SWP_NOZORDER, Stop, Uc, User,
    WM_CREATE, WM_DESTROY, WM_ENABLE, WM_GETTEXT, WM_GETTEXTLENGTH, WM_NCCALCSIZE, WM_NCCREATE,
    WM_NCDESTROY, WM_PARENTNOTIFY, WM_SETTEXT, WS_CAPTION, WS_CHILD, WS_CLIPSIBLINGS, WS_DISABLED,
    WS_EX_DLGMODALFRAME, WS_EX_NOPARENTNOTIFY, WS_EX_TOPMOST, WS_MAXIMIZE, WS_MINIMIZE, WS_POPUP,
    WS_THICKFRAME, WS_VISIBLE, Window, bytes_arg, callback, event, makelong, put, string_arg,
    top_level_windows,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::CallArg;
use crate::win16::farptr::NameArg;

// ------------------------------------------------------------- z-order

/// Take a window out of its parent's child list.
pub fn unlink(u: &mut User, hwnd: u16) {
    let Some(parent) = u.window(hwnd).map(|w| w.parent) else {
        return;
    };
    if let Some(p) = u.slot_of(parent).and_then(|i| u.windows.get_mut(i)) {
        p.children.retain(|&c| c != hwnd);
    }
}

/// Put a window into its parent's child list: at the top of its band
/// (HWND_TOP; topmost windows stay above the others), at the bottom
/// (HWND_BOTTOM), or just below a sibling.
pub fn link(u: &mut User, hwnd: u16, after: u16) {
    let Some(w) = u.window(hwnd) else {
        return;
    };
    let (parent, topmost) = (w.parent, w.ex_style & WS_EX_TOPMOST != 0);
    let siblings = u.children(parent);
    let is_top = |h: u16| u.window(h).is_some_and(|x| x.ex_style & WS_EX_TOPMOST != 0);
    let at = match after {
        HWND_TOP => {
            if topmost {
                0
            } else {
                siblings
                    .iter()
                    .position(|&h| !is_top(h))
                    .unwrap_or(siblings.len())
            }
        }
        HWND_BOTTOM => siblings.len(),
        s => siblings.iter().position(|&h| h == s).map_or(0, |i| i + 1),
    };
    if let Some(p) = u.window_mut(parent) {
        p.children.retain(|&c| c != hwnd);
        let at = at.min(p.children.len());
        p.children.insert(at, hwnd);
    }
}

// ---------------------------------------------------------- CreateWindow

/// CREATESTRUCT (16-bit): lpCreateParams, hInstance, hMenu, hwndParent,
/// cy, cx, y, x, style, lpszName, lpszClass, dwExStyle; 34 bytes.
pub const CREATESTRUCT_SIZE: usize = 0x22;

/// What CreateWindowEx was given.
#[derive(Debug, Clone, Copy)]
pub struct CreateArgs {
    pub ex_style: u32,
    pub class: u32,
    pub name: u32,
    pub style: u32,
    pub x: u16,
    pub y: u16,
    pub cx: u16,
    pub cy: u16,
    pub parent: u16,
    pub menu: u16,
    pub hinstance: u16,
    pub param: u32,
}

fn createstruct(a: &CreateArgs, x: i32, y: i32, cx: i32, cy: i32, style: u32) -> Vec<u8> {
    let mut cs = vec![0u8; CREATESTRUCT_SIZE];
    cs[0..4].copy_from_slice(&a.param.to_le_bytes());
    put(&mut cs, 4, a.hinstance);
    put(&mut cs, 6, a.menu);
    put(&mut cs, 8, a.parent);
    put(&mut cs, 0x0A, cy as u16);
    put(&mut cs, 0x0C, cx as u16);
    put(&mut cs, 0x0E, y as u16);
    put(&mut cs, 0x10, x as u16);
    cs[0x12..0x16].copy_from_slice(&style.to_le_bytes());
    cs[0x16..0x1A].copy_from_slice(&a.name.to_le_bytes());
    cs[0x1A..0x1E].copy_from_slice(&a.class.to_le_bytes());
    cs[0x1E..0x22].copy_from_slice(&a.ex_style.to_le_bytes());
    cs
}

/// CreateWindowEx (module doc): the new window's handle, 0 when it could
/// not be made.
pub fn create_window(env: &mut Env, uc: &mut Uc<'_>, a: CreateArgs) -> Result<u16, Stop> {
    super::class::ensure_system_classes(env, uc);
    super::paint::show_desktop(env, uc);
    let class_name = string_arg(uc, a.class);
    let Some(class) = super::class::find_class(env, uc, a.class, a.hinstance).cloned() else {
        event(
            uc,
            format!(
                "CreateWindow: no class {}",
                crate::escape::quoted(&class_name)
            ),
        );
        return Ok(0);
    };
    let mut style = a.style;
    let mut parent = a.parent;
    if parent != 0 && env.win16.user.window(parent).is_none() {
        event(uc, format!("CreateWindow: no parent window {parent:04X}"));
        return Ok(0);
    }
    if style & WS_CHILD != 0 && parent == 0 {
        event(uc, "CreateWindow: a child window without a parent".into());
        return Ok(0);
    }
    let Some(slot) = env.win16.user.free_slot() else {
        return Ok(0);
    };
    // The WND and its extra bytes: a fixed block of USER's data segment,
    // whose address is the handle (heap.rs).
    let hwnd = super::heap::alloc_wnd(&mut env.win16, uc, class.wnd_extra);
    if hwnd == 0 {
        event(
            uc,
            format!(
                "CreateWindow: USER's heap has no room for a window of class {}",
                class.name
            ),
        );
        return Ok(0);
    }
    // Default positions and sizes (CW_USEDEFAULT is for overlapped
    // windows; a pop-up or child gets 0).
    let overlapped = style & (WS_POPUP | WS_CHILD) == 0;
    let (mut x, mut y) = (i32::from(a.x as i16), i32::from(a.y as i16));
    let (mut cx, mut cy) = (i32::from(a.cx as i16), i32::from(a.cy as i16));
    if a.x == CW_USEDEFAULT {
        if overlapped {
            let n = i32::from(env.win16.user.default_placed % 8);
            env.win16.user.default_placed = env.win16.user.default_placed.wrapping_add(1);
            // Each default window a little lower and to the right of the
            // one before (a caption's height).
            (x, y) = (16 + n * 20, 16 + n * 20);
        } else {
            (x, y) = (0, 0);
        }
    }
    if a.cx == CW_USEDEFAULT {
        (cx, cy) = if overlapped {
            let s = env.win16.user.screen();
            (s.width() * 3 / 4, s.height() * 3 / 4)
        } else {
            (0, 0)
        };
    }
    let mut owner = 0;
    if style & WS_CHILD == 0 {
        if parent != 0 && parent != DESKTOP {
            owner = env.win16.user.top_level(parent);
        }
        parent = DESKTOP;
    }
    if overlapped {
        style |= WS_CAPTION | WS_CLIPSIBLINGS;
    }
    let mut ex = a.ex_style;
    if ex & WS_EX_DLGMODALFRAME != 0 {
        style &= !WS_THICKFRAME;
    }
    if style & WS_CHILD != 0 {
        ex &= !WS_EX_TOPMOST;
    }
    let shown_style = style;
    let htask = uc.get_data().current_task;
    let mut w = Window::new(
        hwnd,
        &class,
        style & !(WS_VISIBLE | WS_MINIMIZE | WS_MAXIMIZE),
        ex,
    );
    w.text = bytes_arg(uc, a.name, MAX_TEXT);
    if crate::win16::farptr::is_int(a.name) {
        w.text.clear();
    }
    w.parent = parent;
    w.owner = owner;
    w.hinstance = a.hinstance;
    w.htask = htask;
    w.need_size = overlapped;
    w.rect = Rect::new(x, y, x + cx.max(0), y + cy.max(0));
    w.client = w.rect;
    w.normal = w.rect;
    w.id = a.menu;
    let title = w.title();
    {
        let u = &mut env.win16.user;
        if slot == u.windows.len() {
            u.windows.push(w);
        } else {
            u.windows[slot] = w;
        }
        u.handles.insert(hwnd, slot);
    }
    super::heap::sync(env, uc, hwnd);
    // The WH_CBT hook may refuse the window.
    let cs_bytes = createstruct(&a, x, y, cx, cy, style);
    let after = if style & WS_CHILD != 0 {
        HWND_BOTTOM
    } else {
        HWND_TOP
    };
    if super::hook::cbt_create(env, uc, hwnd, &cs_bytes, after)? {
        free_record(env, uc, hwnd);
        return Ok(0);
    }
    link(&mut env.win16.user, hwnd, after);
    super::heap::sync_around(env, uc, hwnd);
    super::heap::sync_class(env, uc, class.atom);
    // A CS_OWNDC window's DC and its entry in USER's heap (dce.rs).
    if !super::dce::window_created(env, uc, hwnd) {
        event(
            uc,
            format!(
                "CreateWindow: no room for the own DC of a window of class {}",
                class.name
            ),
        );
        free_record(env, uc, hwnd);
        return Ok(0);
    }
    // A top-level window without a menu of its own gets its class's.
    if style & WS_CHILD == 0 && a.menu == 0 {
        if let Some(name) = &class.menu {
            let name = match name.strip_prefix('#').map(str::parse::<u16>) {
                Some(Ok(n)) => NameArg::Int(n),
                _ => NameArg::Str(name.as_bytes().to_vec()),
            };
            let m = super::menu::template::load_resource(env, uc, a.hinstance, &name);
            if let Some(w) = env.win16.user.window_mut(hwnd) {
                w.id = m;
            }
        }
    }
    event(
        uc,
        format!(
            "window {hwnd:04X} created: class {} title {}",
            class.name,
            crate::escape::quoted(&title)
        ),
    );
    // WM_GETMINMAXINFO keeps the size within the tracking limits.
    if has_thickframe(style) || overlapped {
        let MinMax {
            max_size,
            min_track,
            ..
        } = min_max_info(env, uc, hwnd)?;
        cx = cx.min(max_size.x).max(min_track.x);
        cy = cy.min(max_size.y).max(min_track.y);
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.rect = Rect::new(x, y, x + cx, y + cy);
            w.client = w.rect;
            w.normal = w.rect;
        }
    }
    let cs_bytes = createstruct(&a, x, y, cx, cy, style);
    let (r, _) = super::message::send_struct(env, uc, hwnd, WM_NCCREATE, 0, &cs_bytes)?;
    if r == 0 || env.win16.user.app_window(hwnd).is_none() {
        event(uc, format!("window {hwnd:04X}: WM_NCCREATE refused it"));
        abort_create(env, uc, hwnd)?;
        return Ok(0);
    }
    let rect = env
        .win16
        .user
        .app_window(hwnd)
        .map(|w| w.rect)
        .unwrap_or_default();
    let (_, b) = super::message::send_struct(env, uc, hwnd, WM_NCCALCSIZE, 0, &rect.to_bytes())?;
    let client = if b.len() == 8 {
        Rect::from_bytes(&b)
    } else {
        calc_client(env, hwnd, rect)
    };
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.client = client;
    }
    let (r, _) = super::message::send_struct(env, uc, hwnd, WM_CREATE, 0, &cs_bytes)?;
    if r as u16 == 0xFFFF || env.win16.user.app_window(hwnd).is_none() {
        event(uc, format!("window {hwnd:04X}: WM_CREATE refused it"));
        abort_create(env, uc, hwnd)?;
        return Ok(0);
    }
    if !overlapped {
        super::winpos::send_size(env, uc, hwnd)?;
        super::winpos::send_move(env, uc, hwnd)?;
    }
    parent_notify(env, uc, hwnd, WM_CREATE)?;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    if shown_style & (WS_MINIMIZE | WS_MAXIMIZE) != 0 && shown_style & WS_VISIBLE == 0 {
        // Minimized or maximized but hidden: only the state is kept.
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.style |= shown_style & (WS_MINIMIZE | WS_MAXIMIZE);
        }
    }
    if shown_style & WS_VISIBLE != 0 {
        let cmd = if shown_style & WS_MAXIMIZE != 0 {
            SW_SHOWMAXIMIZED
        } else if shown_style & WS_MINIMIZE != 0 {
            SW_SHOWMINIMIZED
        } else {
            SW_SHOW
        };
        show_window(env, uc, hwnd, cmd)?;
    }
    if style & WS_CHILD == 0 && owner == 0 && env.win16.user.app_window(hwnd).is_some() {
        super::hook::shell(env, uc, HSHELL_WINDOWCREATED, hwnd)?;
    }
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    super::heap::sync_around(env, uc, hwnd);
    Ok(hwnd)
}

/// A window whose creation was refused: WM_NCDESTROY, and its record goes.
fn abort_create(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if env.win16.user.app_window(hwnd).is_some() {
        free_tree(env, uc, hwnd)?;
    }
    Ok(())
}

/// WM_PARENTNOTIFY to every parent of a child window (up to the first
/// that is not a child, or one with WS_EX_NOPARENTNOTIFY): wParam the
/// event, lParam MAKELONG(hWndChild, idChild) (SDK, WM_PARENTNOTIFY).
pub fn parent_notify(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, what: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(());
    };
    let lparam = makelong(hwnd, w.id);
    notify_parents(env, uc, hwnd, what, lparam)
}

/// WM_PARENTNOTIFY with any event (WM_CREATE, WM_DESTROY, a button-down
/// message with the point).
pub fn notify_parents(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    what: u16,
    lparam: u32,
) -> Result<(), Stop> {
    let mut h = hwnd;
    for _ in 0..64 {
        let Some(w) = env.win16.user.app_window(h) else {
            break;
        };
        if !w.is_child() || w.ex_style & WS_EX_NOPARENTNOTIFY != 0 {
            break;
        }
        let parent = w.parent;
        send(env, uc, parent, WM_PARENTNOTIFY, what, lparam)?;
        h = parent;
    }
    Ok(())
}

// --------------------------------------------------------- DestroyWindow

/// DestroyWindow (module doc): false for the desktop or no window.
pub fn destroy_window(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(false);
    };
    let (child, owner) = (w.is_child(), w.owner);
    if super::hook::cbt(env, uc, HCBT_DESTROYWND, hwnd, 0)? {
        return Ok(false);
    }
    if !child && owner == 0 {
        super::hook::shell(env, uc, HSHELL_WINDOWDESTROYED, hwnd)?;
    }
    if child {
        parent_notify(env, uc, hwnd, WM_DESTROY)?;
    }
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(true);
    }
    super::clipboard::owner_destroyed(env, uc, hwnd)?;
    // Hide it.
    if env.win16.user.app_window(hwnd).is_some_and(|w| w.visible()) {
        if !child {
            // The screen as the program last showed it (gdi/screen.rs).
            crate::win16::gdi::screen::shown(env);
        }
        if child {
            show_window(env, uc, hwnd, SW_HIDE)?;
        } else {
            set_window_pos(
                env,
                uc,
                hwnd,
                0,
                0,
                0,
                0,
                0,
                SWP_HIDEWINDOW | SWP_NOACTIVATE | SWP_NOZORDER | SWP_NOMOVE | SWP_NOSIZE,
            )?;
        }
        if env.win16.user.app_window(hwnd).is_none() {
            return Ok(true);
        }
    }
    if !child {
        // The windows it owns go first.
        let owned: Vec<u16> = env
            .win16
            .user
            .live()
            .filter(|x| x.owner == hwnd)
            .map(|x| x.hwnd)
            .collect();
        for o in owned {
            destroy_window(env, uc, o)?;
        }
        focus::after_hide(env, uc, hwnd)?;
    }
    send_destroy(env, uc, hwnd)?;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(true);
    }
    unlink(&mut env.win16.user, hwnd);
    free_tree(env, uc, hwnd)?;
    Ok(true)
}

/// WM_DESTROY to a window, then to its children (the focus leaves it
/// first, its caret goes).
fn send_destroy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    check_focus(env, uc, hwnd)?;
    if env.win16.user.caret.hwnd == hwnd {
        super::caret::destroy_caret_now(env, uc);
    }
    send(env, uc, hwnd, WM_DESTROY, 0, 0)?;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(());
    }
    for c in env.win16.user.children(hwnd) {
        send_destroy(env, uc, c)?;
    }
    check_focus(env, uc, hwnd)
}

/// A window losing its focus as it goes: to its parent for a child, to
/// none for a top-level window.
fn check_focus(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if env.win16.user.focus != hwnd {
        return Ok(());
    }
    let to = env
        .win16
        .user
        .app_window(hwnd)
        .filter(|w| w.is_child())
        .map_or(0, |w| w.parent);
    focus::set_focus(env, uc, to)?;
    Ok(())
}

/// WM_NCDESTROY to the children, then to the window; the records go.
fn free_tree(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    for c in env.win16.user.children(hwnd) {
        free_tree(env, uc, c)?;
    }
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(());
    }
    send(env, uc, hwnd, WM_NCDESTROY, 0, 0)?;
    super::menu::window_destroyed(env, uc, hwnd);
    free_record(env, uc, hwnd);
    event(uc, format!("window {hwnd:04X} destroyed"));
    Ok(())
}

/// The record of a window goes: its timers, its place in the tree, its
/// part in the focus, capture and activation.
fn free_record(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    let u = &mut env.win16.user;
    let parent = u.window(hwnd).map_or(0, |w| w.parent);
    let class = u.window(hwnd).map_or(0, |w| w.class_atom);
    // The sibling above it will name the one below it.
    let above = {
        let c = u.children(parent);
        c.iter()
            .position(|&x| x == hwnd)
            .and_then(|i| i.checked_sub(1))
            .map_or(0, |i| c[i])
    };
    unlink(u, hwnd);
    for f in [
        &mut u.active,
        &mut u.prev_active,
        &mut u.focus,
        &mut u.capture,
        &mut u.sysmodal,
    ] {
        if *f == hwnd {
            *f = 0;
        }
    }
    u.timers.retain(|t| t.hwnd != hwnd);
    // A main window that goes is replaced (winpos.rs): by the task's
    // topmost other visible top-level window, else by the next one shown.
    let htask = u.window(hwnd).map_or(0, |w| w.htask);
    if u.queues.get(&htask).is_some_and(|q| q.main_window == hwnd) {
        let next = u
            .children(DESKTOP)
            .into_iter()
            .filter(|&h| h != hwnd)
            .find(|&h| {
                u.app_window(h)
                    .is_some_and(|w| w.htask == htask && w.visible() && !w.is_child())
            })
            .unwrap_or(0);
        super::winpos::main_window_gone(u.queue(htask), next);
    }
    u.clipboard.forget_windows(&[hwnd]);
    for m in u.mdi.values_mut() {
        m.children.retain(|&c| c != hwnd);
        if m.active == hwnd {
            m.active = 0;
        }
        if m.maximized == hwnd {
            m.maximized = 0;
        }
    }
    let mut props = Vec::new();
    for w in u.windows.iter_mut() {
        if w.owner == hwnd {
            w.owner = 0;
        }
        if w.last_active == hwnd {
            w.last_active = w.hwnd;
        }
    }
    if let Some(w) = u.window_mut(hwnd) {
        w.destroyed = true;
        w.style &= !WS_VISIBLE;
        w.children.clear();
        props = w.props.drain(..).map(|p| p.block).collect();
        w.update = Region::empty();
    }
    // Its DCs: an own DC goes with its entry, a class DC no longer names
    // it, any common DC the program did not release goes back (dce.rs).
    super::dce::window_gone(env, uc, hwnd);
    super::paint::refresh_dcs(env, uc);
    // Its WND and its text leave USER's heaps; its parent and siblings no
    // longer name it.
    let text = env.win16.user.slot_of(hwnd).map_or(0, |i| {
        std::mem::take(&mut env.win16.user.windows[i].text_block)
    });
    super::heap::free_wnd(&mut env.win16, uc, hwnd, text);
    for p in props {
        super::heap::free_block(&mut env.win16, uc, p);
    }
    env.win16.user.handles.remove(&hwnd);
    super::heap::sync(env, uc, parent);
    super::heap::sync(env, uc, above);
    super::heap::sync_class(env, uc, class);
}

// ------------------------------------------------------- the functions

fn w16(v: u32) -> u16 {
    v as u16
}

fn create_args(a: &[u32], ex: Option<u32>) -> CreateArgs {
    // CreateWindow's 11 arguments, CreateWindowEx's dwExStyle first.
    let (e, r) = match ex {
        Some(e) => (e, &a[1..]),
        None => (0, a),
    };
    CreateArgs {
        ex_style: e,
        class: r[0],
        name: r[1],
        style: r[2],
        x: w16(r[3]),
        y: w16(r[4]),
        cx: w16(r[5]),
        cy: w16(r[6]),
        parent: w16(r[7]),
        menu: w16(r[8]),
        hinstance: w16(r[9]),
        param: r[10],
    }
}

/// USER.41 CreateWindow(lpClassName, lpWindowName, dwStyle, X, Y, nWidth,
/// nHeight, hWndParent, hMenu, hInstance, lpParam) -> HWND.
fn create_window_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(create_window(env, uc, create_args(a, None))?))
}

/// USER.452 CreateWindowEx(dwExStyle, lpClassName, ...) -> HWND.
fn create_window_ex_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(create_window(
        env,
        uc,
        create_args(a, Some(a[0])),
    )?))
}

/// USER.53 DestroyWindow(hWnd) -> BOOL.
fn destroy_window_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(destroy_window(env, uc, w16(a[0]))?))
}

/// USER.47 IsWindow(hWnd).
fn is_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.window(w16(a[0])).is_some()))
}

/// USER.49 IsWindowVisible(hWnd): WS_VISIBLE on the window and every
/// parent.
fn is_window_visible(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.shown(w16(a[0]))))
}

/// USER.35 IsWindowEnabled(hWnd).
fn is_window_enabled(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16
            .user
            .window(w16(a[0]))
            .is_some_and(|w| w.enabled()),
    ))
}

/// USER.34 EnableWindow(hWnd, bEnable) -> whether it was disabled. A
/// window being disabled loses the focus when it has it itself (a child
/// keeps it: DialogBox disables its owner while a button of the owner has
/// the focus, and the owner's dialog manager finds that button again when
/// it is activated after) and the capture when it or a child has it;
/// WM_ENABLE follows the change (Wine's EnableWindow).
pub fn enable_window(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    enable: bool,
) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(false);
    };
    let was_disabled = !w.enabled();
    if enable && was_disabled {
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.style &= !WS_DISABLED;
        }
        send(env, uc, hwnd, WM_ENABLE, 1, 0)?;
    } else if !enable && !was_disabled {
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.style |= WS_DISABLED;
        }
        let u = &env.win16.user;
        let (f, c) = (u.focus, u.capture);
        if f != 0 && f == hwnd {
            focus::set_focus(env, uc, 0)?;
        }
        let u = &env.win16.user;
        if c != 0 && (c == hwnd || u.is_descendant(hwnd, c)) {
            focus::release_capture(env, uc)?;
        }
        send(env, uc, hwnd, WM_ENABLE, 0, 0)?;
    }
    Ok(was_disabled)
}

fn enable_window_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(enable_window(
        env,
        uc,
        w16(a[0]),
        w16(a[1]) != 0,
    )?))
}

/// USER.46 GetParent(hWnd): a child's parent, a top-level window's owner.
fn get_parent(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(parent_of(&env.win16.user, w16(a[0]))))
}

fn parent_of(u: &User, hwnd: u16) -> u16 {
    match u.app_window(hwnd) {
        Some(w) if w.is_child() => w.parent,
        Some(w) => w.owner,
        None => 0,
    }
}

/// USER.233 SetParent(hWndChild, hWndNewParent) -> the old parent. The
/// window is hidden, goes on top of its new parent's children at the same
/// coordinates, and is shown again (Wine's notes, "Reparenting a button").
fn set_parent(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let old = env.win16.user.window(w16(a[0])).map_or(0, |w| w.parent);
    let r = set_parent_in(env, uc, a)?;
    super::heap::sync_neighbours(env, uc, old, 0);
    super::heap::sync_around(env, uc, w16(a[0]));
    Ok(r)
}

fn set_parent_in(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, mut new) = (w16(a[0]), w16(a[1]));
    if new == 0 {
        new = DESKTOP;
    }
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    if env.win16.user.window(new).is_none()
        || new == hwnd
        || env.win16.user.is_descendant(hwnd, new)
    {
        return Ok(0);
    }
    let old = w.parent;
    let was_visible = w.visible();
    let rect = w.rect;
    if was_visible {
        show_window(env, uc, hwnd, SW_HIDE)?;
    }
    unlink(&mut env.win16.user, hwnd);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.parent = new;
    }
    link(&mut env.win16.user, hwnd, HWND_TOP);
    set_window_pos(
        env,
        uc,
        hwnd,
        HWND_TOP,
        rect.left,
        rect.top,
        0,
        0,
        SWP_NOSIZE | SWP_NOZORDER,
    )?;
    if was_visible {
        show_window(env, uc, hwnd, SW_SHOW)?;
    }
    Ok(u32::from(old))
}

/// USER.48 IsChild(hWndParent, hWnd).
fn is_child(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16.user.is_descendant(w16(a[0]), w16(a[1])),
    ))
}

/// GetWindow's relation of a window.
pub fn get_window(u: &User, hwnd: u16, cmd: u16) -> u16 {
    let Some(w) = u.window(hwnd) else {
        return 0;
    };
    let siblings = || u.children(w.parent);
    match cmd {
        GW_HWNDFIRST => siblings().first().copied().unwrap_or(0),
        GW_HWNDLAST => siblings().last().copied().unwrap_or(0),
        GW_HWNDNEXT => {
            let s = siblings();
            s.iter()
                .position(|&h| h == hwnd)
                .and_then(|i| s.get(i + 1).copied())
                .unwrap_or(0)
        }
        GW_HWNDPREV => {
            let s = siblings();
            s.iter()
                .position(|&h| h == hwnd)
                .and_then(|i| i.checked_sub(1).map(|j| s[j]))
                .unwrap_or(0)
        }
        GW_OWNER => w.owner,
        GW_CHILD => w.children.first().copied().unwrap_or(0),
        _ => 0,
    }
}

/// USER.262 GetWindow(hWnd, wCmd).
fn get_window_api(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(get_window(&env.win16.user, w16(a[0]), w16(a[1]))))
}

/// USER.229 GetTopWindow(hWnd): its topmost child (the desktop's for 0).
fn get_top_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = match w16(a[0]) {
        0 => DESKTOP,
        h => h,
    };
    Ok(u32::from(get_window(&env.win16.user, h, GW_CHILD)))
}

/// USER.230 GetNextWindow(hWnd, wFlag): GW_HWNDNEXT or GW_HWNDPREV.
fn get_next_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let cmd = w16(a[1]);
    if cmd != GW_HWNDNEXT && cmd != GW_HWNDPREV {
        return Ok(0);
    }
    Ok(u32::from(get_window(&env.win16.user, w16(a[0]), cmd)))
}

/// USER.286 GetDesktopWindow() and USER.278 GetDesktopHwnd().
fn get_desktop_window(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(DESKTOP))
}

/// USER.224 GetWindowTask(hWnd).
fn get_window_task(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16.user.app_window(w16(a[0])).map_or(0, |w| w.htask),
    ))
}

/// USER.287 GetLastActivePopup(hWnd): the pop-up the window's owner tree
/// activated last (the window itself when none).
fn get_last_active_popup(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = w16(a[0]);
    let u = &env.win16.user;
    let Some(w) = u.app_window(hwnd) else {
        return Ok(0);
    };
    let last = w.last_active;
    Ok(u32::from(if u.app_window(last).is_some() {
        last
    } else {
        hwnd
    }))
}

/// Does the window's class match a FindWindow class argument (a name or
/// an atom)?
fn class_matches(env: &Env, w: &Window, name: &Option<NameArg>) -> bool {
    match name {
        None => true,
        Some(NameArg::Int(atom)) => w.class_atom == *atom,
        Some(NameArg::Str(s)) => {
            w.class.as_bytes().eq_ignore_ascii_case(s) || {
                let _ = env;
                false
            }
        }
    }
}

/// USER.50 FindWindow(lpClassName, lpWindowName): the first top-level
/// window (in z-order) of that class and title (NULL matches any; names
/// compare without case).
fn find_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let class = (a[0] != 0).then(|| NameArg::read(uc, a[0])).flatten();
    if a[0] != 0 && class.is_none() {
        return Ok(0);
    }
    let title = (a[1] != 0).then(|| bytes_arg(uc, a[1], 256));
    let u = &env.win16.user;
    for h in top_level_windows(env) {
        let Some(w) = u.window(h) else { continue };
        if !class_matches(env, w, &class) {
            continue;
        }
        if title
            .as_ref()
            .is_some_and(|t| !t.eq_ignore_ascii_case(&w.text))
        {
            continue;
        }
        return Ok(u32::from(h));
    }
    Ok(0)
}

/// Call an enumeration function for each window until it returns FALSE:
/// TRUE when it ran to the end.
fn enumerate(
    env: &mut Env,
    uc: &mut Uc<'_>,
    list: Vec<u16>,
    func: u32,
    lparam: u32,
) -> Result<u32, Stop> {
    let ds = uc.reg(crate::machine::R::DS);
    for h in list {
        if env.win16.user.window(h).is_none() {
            continue;
        }
        let r = callback(env, uc, func, ds, &[CallArg::W(h), CallArg::L(lparam)])?;
        if r as u16 == 0 {
            return Ok(0);
        }
    }
    Ok(1)
}

/// USER.54 EnumWindows(lpEnumFunc, lParam): the top-level windows, in
/// z-order.
fn enum_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let list = top_level_windows(env);
    enumerate(env, uc, list, a[0], a[1])
}

/// Every descendant of a window, depth first in z-order.
pub fn descendants(u: &User, hwnd: u16) -> Vec<u16> {
    let mut out = Vec::new();
    let mut stack: Vec<u16> = u.children(hwnd).into_iter().rev().collect();
    while let Some(h) = stack.pop() {
        if out.len() >= MAX_WINDOWS {
            break;
        }
        out.push(h);
        stack.extend(u.children(h).into_iter().rev());
    }
    out
}

/// USER.55 EnumChildWindows(hWndParent, lpEnumFunc, lParam): every
/// descendant, each child followed by its own children.
fn enum_child_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let list = descendants(&env.win16.user, w16(a[0]));
    enumerate(env, uc, list, a[1], a[2])
}

/// USER.225 EnumTaskWindows(hTask, lpEnumFunc, lParam): the task's
/// top-level windows.
fn enum_task_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let htask = w16(a[0]);
    let list: Vec<u16> = top_level_windows(env)
        .into_iter()
        .filter(|&h| env.win16.user.window(h).is_some_and(|w| w.htask == htask))
        .collect();
    enumerate(env, uc, list, a[1], a[2])
}

// ------------------------------------------------------- window words

/// Read `n` bytes of a window's extra bytes at `off` (None outside them).
fn extra_get(w: &Window, off: i16, n: usize) -> Option<u32> {
    let o = usize::try_from(off).ok()?;
    let b = w.extra.get(o..o + n)?;
    Some(b.iter().rev().fold(0u32, |v, &x| v << 8 | u32::from(x)))
}

fn extra_set(w: &mut Window, off: i16, n: usize, v: u32) -> Option<u32> {
    let old = extra_get(w, off, n)?;
    let o = usize::try_from(off).ok()?;
    w.extra[o..o + n].copy_from_slice(&v.to_le_bytes()[..n]);
    Some(old)
}

/// USER.133 GetWindowWord(hWnd, nIndex): the extra bytes, or GWW_HINSTANCE,
/// GWW_HWNDPARENT (as GetParent), GWW_ID.
fn get_window_word(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, idx) = (w16(a[0]), w16(a[1]) as i16);
    let u = &env.win16.user;
    let Some(w) = u.window(hwnd) else {
        return Ok(0);
    };
    Ok(match idx {
        GWW_HINSTANCE => u32::from(w.hinstance),
        GWW_HWNDPARENT => u32::from(parent_of(u, hwnd)),
        GWW_ID => u32::from(w.id),
        i => extra_get(w, i, 2).unwrap_or(0),
    })
}

/// USER.134 SetWindowWord(hWnd, nIndex, wNewWord) -> the old value.
fn set_window_word(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = set_window_word_in(env, uc, a)?;
    super::heap::sync(env, uc, w16(a[0]));
    Ok(r)
}

fn set_window_word_in(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, idx, v) = (w16(a[0]), w16(a[1]) as i16, w16(a[2]));
    if idx == GWW_HWNDPARENT {
        let is_child = env
            .win16
            .user
            .app_window(hwnd)
            .is_some_and(|w| w.is_child());
        if is_child {
            return set_parent(env, uc, &[u32::from(hwnd), u32::from(v)]);
        }
        let Some(w) = env.win16.user.window_mut(hwnd) else {
            return Ok(0);
        };
        return Ok(u32::from(std::mem::replace(&mut w.owner, v)));
    }
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(0);
    };
    Ok(match idx {
        GWW_HINSTANCE => u32::from(std::mem::replace(&mut w.hinstance, v)),
        GWW_ID => u32::from(std::mem::replace(&mut w.id, v)),
        i => extra_set(w, i, 2, u32::from(v)).unwrap_or(0),
    })
}

/// USER.135 GetWindowLong(hWnd, nIndex): the extra bytes, or GWL_WNDPROC
/// (a callable far pointer), GWL_STYLE, GWL_EXSTYLE.
fn get_window_long(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, idx) = (w16(a[0]), w16(a[1]) as i16);
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    Ok(match idx {
        GWL_WNDPROC => makelong(w.wndproc.1, w.wndproc.0),
        GWL_STYLE => w.style,
        GWL_EXSTYLE => w.ex_style,
        i => extra_get(w, i, 4).unwrap_or(0),
    })
}

/// USER.136 SetWindowLong(hWnd, nIndex, dwNewLong) -> the old value.
/// GWL_WNDPROC subclasses the window: its messages go to the new
/// procedure, which may pass them on with CallWindowProc.
fn set_window_long(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = set_window_long_in(env, a);
    super::heap::sync(env, uc, w16(a[0]));
    Ok(r)
}

fn set_window_long_in(env: &mut Env, a: &[u32]) -> u32 {
    let (hwnd, idx, v) = (w16(a[0]), w16(a[1]) as i16, a[2]);
    if hwnd == DESKTOP {
        return 0;
    }
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return 0;
    };
    match idx {
        GWL_WNDPROC => {
            let old = makelong(w.wndproc.1, w.wndproc.0);
            w.wndproc = ((v >> 16) as u16, v as u16);
            old
        }
        GWL_STYLE => std::mem::replace(&mut w.style, v),
        GWL_EXSTYLE => std::mem::replace(&mut w.ex_style, v),
        i => extra_set(w, i, 4, v).unwrap_or(0),
    }
}

// -------------------------------------------------------------- text

/// DefWindowProc's WM_SETTEXT: the window keeps the text.
pub fn store_text(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, text: Vec<u8>) {
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.text = text;
        w.text.truncate(MAX_TEXT);
        if w.style & WS_CAPTION == WS_CAPTION {
            w.frame = true;
        }
    }
    super::heap::sync(env, uc, hwnd);
}

/// USER.37 SetWindowText(hWnd, lpString): WM_SETTEXT.
fn set_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    send(env, uc, w16(a[0]), WM_SETTEXT, 0, a[1])?;
    Ok(0)
}

/// USER.36 GetWindowText(hWnd, lpString, nMaxCount) -> the length copied:
/// WM_GETTEXT.
fn get_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let max = crate::win16::farptr::int_size(a[2]);
    if max == 0 || env.win16.user.window(w16(a[0])).is_none() {
        return Ok(0);
    }
    Ok(send(env, uc, w16(a[0]), WM_GETTEXT, max as u16, a[1])? & 0xFFFF)
}

/// USER.38 GetWindowTextLength(hWnd): WM_GETTEXTLENGTH.
fn get_window_text_length(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(send(env, uc, w16(a[0]), WM_GETTEXTLENGTH, 0, 0)? & 0xFFFF)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        34,
        "ENABLEWINDOW",
        &[Arg::W, Arg::W],
        enable_window_api,
    ),
    Api::new("USER", 35, "ISWINDOWENABLED", &[Arg::W], is_window_enabled),
    Api::new(
        "USER",
        36,
        "GETWINDOWTEXT",
        &[Arg::W, Arg::L, Arg::W],
        get_window_text,
    ),
    Api::new(
        "USER",
        37,
        "SETWINDOWTEXT",
        &[Arg::W, Arg::L],
        set_window_text,
    ),
    Api::new(
        "USER",
        38,
        "GETWINDOWTEXTLENGTH",
        &[Arg::W],
        get_window_text_length,
    ),
    Api::new(
        "USER",
        41,
        "CREATEWINDOW",
        &[
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
        ],
        create_window_api,
    ),
    Api::new("USER", 46, "GETPARENT", &[Arg::W], get_parent),
    Api::new("USER", 47, "ISWINDOW", &[Arg::W], is_window),
    Api::new("USER", 48, "ISCHILD", &[Arg::W, Arg::W], is_child),
    Api::new("USER", 49, "ISWINDOWVISIBLE", &[Arg::W], is_window_visible),
    Api::new("USER", 50, "FINDWINDOW", &[Arg::L, Arg::L], find_window),
    Api::new("USER", 53, "DESTROYWINDOW", &[Arg::W], destroy_window_api),
    Api::new("USER", 54, "ENUMWINDOWS", &[Arg::L, Arg::L], enum_windows),
    Api::new(
        "USER",
        55,
        "ENUMCHILDWINDOWS",
        &[Arg::W, Arg::L, Arg::L],
        enum_child_windows,
    ),
    Api::new(
        "USER",
        133,
        "GETWINDOWWORD",
        &[Arg::W, Arg::W],
        get_window_word,
    ),
    Api::new(
        "USER",
        134,
        "SETWINDOWWORD",
        &[Arg::W, Arg::W, Arg::W],
        set_window_word,
    ),
    Api::new(
        "USER",
        135,
        "GETWINDOWLONG",
        &[Arg::W, Arg::W],
        get_window_long,
    ),
    Api::new(
        "USER",
        136,
        "SETWINDOWLONG",
        &[Arg::W, Arg::W, Arg::L],
        set_window_long,
    ),
    Api::new("USER", 224, "GETWINDOWTASK", &[Arg::W], get_window_task),
    Api::new(
        "USER",
        225,
        "ENUMTASKWINDOWS",
        &[Arg::W, Arg::L, Arg::L],
        enum_task_windows,
    ),
    Api::new("USER", 229, "GETTOPWINDOW", &[Arg::W], get_top_window),
    Api::new(
        "USER",
        230,
        "GETNEXTWINDOW",
        &[Arg::W, Arg::W],
        get_next_window,
    ),
    Api::new("USER", 233, "SETPARENT", &[Arg::W, Arg::W], set_parent),
    Api::new("USER", 262, "GETWINDOW", &[Arg::W, Arg::W], get_window_api),
    Api::new("USER", 278, "GETDESKTOPHWND", &[], get_desktop_window),
    Api::new("USER", 286, "GETDESKTOPWINDOW", &[], get_desktop_window),
    Api::new(
        "USER",
        287,
        "GETLASTACTIVEPOPUP",
        &[Arg::W],
        get_last_active_popup,
    ),
    Api::new(
        "USER",
        452,
        "CREATEWINDOWEX",
        &[
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
        ],
        create_window_ex_api,
    ),
];

#[cfg(test)]
mod tests {
    use super::super::WndClass;
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn extra_bytes_are_bounded() {
        let c = WndClass {
            name: "X".into(),
            atom: 0xC000,
            style: 0,
            wndproc: (0, 0),
            cls_extra: 0,
            wnd_extra: 6,
            hinstance: 0,
            hicon: 0,
            hcursor: 0,
            hbrush: 0,
            menu: None,
            menu_ptr: 0,
            extra: Vec::new(),
            hmodule: 0,
            global: false,
            block: 0,
        };
        let mut w = Window::new(0x3000, &c, 0, 0);
        assert_eq!(extra_set(&mut w, 2, 4, 0x1234_5678), Some(0));
        assert_eq!(extra_get(&w, 2, 4), Some(0x1234_5678));
        assert_eq!(extra_get(&w, 4, 2), Some(0x1234));
        assert_eq!(extra_get(&w, 4, 4), None);
        assert_eq!(extra_get(&w, -2, 2), None);
        assert_eq!(extra_set(&mut w, 5, 2, 1), None);
    }
}
