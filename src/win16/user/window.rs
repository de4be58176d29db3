//! Windows: CreateWindow, ShowWindow, DestroyWindow, their text and
//! rectangles.

use super::metrics::SCREEN;
use super::{
    MAX_WINDOWS, WM_ACTIVATE, WM_CREATE, WM_DESTROY, WM_GETMINMAXINFO, WM_MOVE, WM_NCCALCSIZE,
    WM_NCCREATE, WM_NCDESTROY, WM_SETFOCUS, WM_SHOWWINDOW, WM_SIZE, WS_CHILD, WS_VISIBLE, Window,
    call_wndproc, client_size, event, put, send, string_arg, write_rect,
};
use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::callback::CallArg;
use crate::win16::farptr::{NameArg, split};

const CW_USEDEFAULT: u16 = 0x8000;

/// USER.41 CreateWindow(lpClassName, lpWindowName, dwStyle, X, Y, nWidth,
/// nHeight, hWndParent, hMenu, hInstance, lpParam) -> HWND.
///
/// Sends WM_GETMINMAXINFO, WM_NCCREATE, WM_NCCALCSIZE, WM_CREATE (with a
/// CREATESTRUCT on the stack), then WM_SIZE and WM_MOVE, and shows the
/// window if WS_VISIBLE, as Windows 3.1's CreateWindow does.
fn create_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let class_name = string_arg(uc, a[0]).to_ascii_uppercase();
    let title = if a[1] == 0 {
        String::new()
    } else {
        string_arg(uc, a[1])
    };
    let style = a[2];
    let (mut x, mut y, mut cx, mut cy) = (a[3] as u16, a[4] as u16, a[5] as u16, a[6] as u16);
    let (parent, menu, hinstance, param) = (a[7] as u16, a[8] as u16, a[9] as u16, a[10]);
    let Some(class) = env
        .win16
        .user
        .classes
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(&class_name) || class_name == format!("#{}", c.atom))
        .cloned()
    else {
        event(
            uc,
            format!(
                "CreateWindow: no class {}",
                crate::escape::quoted(&class_name)
            ),
        );
        return Ok(0);
    };
    if env.win16.user.windows.len() >= MAX_WINDOWS {
        return Ok(0);
    }
    if x == CW_USEDEFAULT {
        (x, y) = (16, 16);
    }
    if cx == CW_USEDEFAULT {
        (cx, cy) = ((SCREEN.0 * 3 / 4) as u16, (SCREEN.1 * 3 / 4) as u16);
    }
    let hwnd = 0x3000 + 4 * env.win16.user.windows.len() as u16;
    // A top-level window without a menu of its own gets its class's.
    let id = match &class.menu {
        Some(name) if menu == 0 && style & WS_CHILD == 0 => {
            let name = match name.strip_prefix('#').map(str::parse::<u16>) {
                Some(Ok(n)) => NameArg::Int(n),
                _ => NameArg::Str(name.as_bytes().to_vec()),
            };
            super::menu::template::load_resource(env, uc, hinstance, &name)
        }
        _ => menu,
    };
    let rect = (
        x as i16,
        y as i16,
        (x as i16).wrapping_add(cx as i16),
        (y as i16).wrapping_add(cy as i16),
    );
    let htask = uc.get_data().current_task;
    env.win16.user.windows.push(Window {
        hwnd,
        class: class.name.clone(),
        title: title.clone(),
        style,
        rect,
        parent,
        id,
        hinstance,
        wndproc: class.wndproc,
        htask,
        visible: false,
        destroyed: false,
        needs_paint: false,
        extra: vec![0; usize::from(class.wnd_extra.min(1024))],
        dialog_result: None,
    });
    event(
        uc,
        format!(
            "window {hwnd:04X} created: class {} title {}",
            class.name,
            crate::escape::quoted(&title)
        ),
    );
    // CREATESTRUCT: lpCreateParams, hInstance, hMenu, hwndParent, cy, cx,
    // y, x, style, lpszName, lpszClass, dwExStyle.
    let mut cs = vec![0u8; 0x22];
    cs[0..4].copy_from_slice(&param.to_le_bytes());
    put(&mut cs, 4, hinstance);
    put(&mut cs, 6, menu);
    put(&mut cs, 8, parent);
    put(&mut cs, 0x0A, cy);
    put(&mut cs, 0x0C, cx);
    put(&mut cs, 0x0E, y);
    put(&mut cs, 0x10, x);
    cs[0x12..0x16].copy_from_slice(&style.to_le_bytes());
    cs[0x16..0x1A].copy_from_slice(&a[1].to_le_bytes());
    cs[0x1A..0x1E].copy_from_slice(&a[0].to_le_bytes());
    if style & WS_CHILD == 0 {
        // MINMAXINFO: ptReserved, ptMaxSize, ptMaxPosition, ptMinTrackSize,
        // ptMaxTrackSize.
        let mut mm = vec![0u8; 20];
        for (i, v) in [0, 0, SCREEN.0, SCREEN.1, 0, 0, 100, 50, SCREEN.0, SCREEN.1]
            .iter()
            .enumerate()
        {
            put(&mut mm, i * 2, *v as u16);
        }
        call_wndproc(env, uc, hwnd, WM_GETMINMAXINFO, 0, CallArg::Scratch, &mm)?;
    }
    let (r, _) = call_wndproc(env, uc, hwnd, WM_NCCREATE, 0, CallArg::Scratch, &cs)?;
    if r == 0 {
        destroy(env, uc, hwnd)?;
        return Ok(0);
    }
    let mut rc = vec![0u8; 8];
    for (i, v) in [rect.0, rect.1, rect.2, rect.3].iter().enumerate() {
        put(&mut rc, i * 2, *v as u16);
    }
    call_wndproc(env, uc, hwnd, WM_NCCALCSIZE, 0, CallArg::Scratch, &rc)?;
    let (r, _) = call_wndproc(env, uc, hwnd, WM_CREATE, 0, CallArg::Scratch, &cs)?;
    if r as u16 == 0xFFFF {
        destroy(env, uc, hwnd)?;
        return Ok(0);
    }
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let (ccx, ccy) = client_size(w, class.menu.is_some() || menu != 0);
    send(
        env,
        uc,
        hwnd,
        WM_SIZE,
        0,
        u32::from(ccy as u16) << 16 | u32::from(ccx as u16),
    )?;
    send(env, uc, hwnd, WM_MOVE, 0, u32::from(y) << 16 | u32::from(x))?;
    if style & WS_VISIBLE != 0 {
        show(env, uc, hwnd, true)?;
    }
    Ok(u32::from(hwnd))
}

/// Make a window visible or hidden; the first top-level window the task
/// shows becomes its main window.
fn show(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, visible: bool) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(false);
    };
    let was = w.visible;
    if was == visible {
        return Ok(was);
    }
    w.visible = visible;
    if visible {
        w.needs_paint = true;
    }
    let top = w.style & WS_CHILD == 0;
    let htask = w.htask;
    let q = env.win16.user.queue(htask);
    if visible && top && q.main_window == 0 {
        q.main_window = hwnd;
    }
    send(env, uc, hwnd, WM_SHOWWINDOW, u16::from(visible), 0)?;
    if visible && top {
        send(env, uc, hwnd, WM_ACTIVATE, 1, 0)?;
        send(env, uc, hwnd, WM_SETFOCUS, 0, 0)?;
    }
    Ok(was)
}

/// USER.42 ShowWindow(hWnd, nCmdShow) -> was visible.
fn show_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let visible = a[1] as u16 != 0; // SW_HIDE = 0
    Ok(u32::from(show(env, uc, a[0] as u16, visible)?))
}

/// Destroy a window: WM_DESTROY and WM_NCDESTROY, children first.
pub(super) fn destroy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    if env.win16.user.window(hwnd).is_none() {
        return Ok(false);
    }
    let children: Vec<u16> = env
        .win16
        .user
        .windows
        .iter()
        .filter(|w| w.parent == hwnd && !w.destroyed && w.style & WS_CHILD != 0)
        .map(|w| w.hwnd)
        .collect();
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.visible = false;
    }
    send(env, uc, hwnd, WM_DESTROY, 0, 0)?;
    for c in children {
        destroy(env, uc, c)?;
    }
    send(env, uc, hwnd, WM_NCDESTROY, 0, 0)?;
    super::menu::window_destroyed(env, uc, hwnd);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.destroyed = true;
    }
    env.win16.user.timers.retain(|t| t.hwnd != hwnd);
    event(uc, format!("window {hwnd:04X} destroyed"));
    Ok(true)
}

/// USER.53 DestroyWindow(hWnd).
fn destroy_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(destroy(env, uc, a[0] as u16)?))
}

/// USER.33 GetClientRect(hWnd, lpRect).
fn get_client_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(a[0] as u16) else {
        return Ok(0);
    };
    let has_menu = w.id != 0
        || env
            .win16
            .user
            .classes
            .iter()
            .any(|c| c.name == w.class && c.menu.is_some());
    let (cx, cy) = client_size(w, has_menu && w.style & WS_CHILD == 0);
    write_rect(uc, a[1], (0, 0, cx, cy));
    Ok(0)
}

/// USER.32 GetWindowRect(hWnd, lpRect).
fn get_window_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(w) = env.win16.user.window(a[0] as u16) {
        let r = w.rect;
        write_rect(uc, a[1], r);
    }
    Ok(0)
}

/// USER.36 GetWindowText(hWnd, lpString, nMaxCount).
fn get_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(a[0] as u16) else {
        return Ok(0);
    };
    let max = usize::from(a[2] as u16);
    if max == 0 {
        return Ok(0);
    }
    let mut t: Vec<u8> = w.title.bytes().take(max - 1).collect();
    let n = t.len();
    t.push(0);
    let (seg, off) = split(a[1]);
    Ok(if uc.write_seg(seg, off, &t).is_ok() {
        n as u32
    } else {
        0
    })
}

/// USER.37 SetWindowText(hWnd, lpString).
fn set_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = string_arg(uc, a[1]);
    Ok(match env.win16.user.window_mut(a[0] as u16) {
        Some(w) => {
            w.title = t;
            1
        }
        None => 0,
    })
}

/// USER.47 IsWindow(hWnd).
fn is_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.window(a[0] as u16).is_some()))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        32,
        "GETWINDOWRECT",
        &[Arg::W, Arg::L],
        get_window_rect,
    ),
    Api::new(
        "USER",
        33,
        "GETCLIENTRECT",
        &[Arg::W, Arg::L],
        get_client_rect,
    ),
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
        create_window,
    ),
    Api::new("USER", 42, "SHOWWINDOW", &[Arg::W, Arg::W], show_window),
    Api::new("USER", 47, "ISWINDOW", &[Arg::W], is_window),
    Api::new("USER", 53, "DESTROYWINDOW", &[Arg::W], destroy_window),
];
