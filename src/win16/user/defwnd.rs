//! DefWindowProc: what a window procedure leaves to USER.
//!
//! As Windows 3.1's (SDK, DefWindowProc and the messages' pages; Wine's
//! 3.1-era defwnd.c and nonclient.c; its tested notes documentation/gui):
//! WM_NCCREATE → TRUE; WM_NCCALCSIZE → the client rectangle the style
//! leaves (winpos.rs); WM_NCHITTEST → the HT code of the point from the
//! window's real layout; WM_NCACTIVATE and WM_NCPAINT redraw the frame
//! (getting the caption's text with WM_GETTEXT); WM_NCLBUTTONDOWN and
//! WM_NCLBUTTONDBLCLK → the WM_SYSCOMMAND of the part clicked;
//! WM_SYSCOMMAND: SC_CLOSE → WM_CLOSE, SC_MINIMIZE / SC_MAXIMIZE /
//! SC_RESTORE → ShowWindow, SC_MOVE / SC_SIZE (a mouse loop on a screen)
//! and the scroll-bar and menu tracking nothing headless; WM_CLOSE →
//! DestroyWindow; WM_PAINT validates (BeginPaint/EndPaint); WM_ERASEBKGND
//! fills the update region with the class brush (TRUE) or returns FALSE
//! without one; WM_SETTEXT / WM_GETTEXT / WM_GETTEXTLENGTH keep the text;
//! WM_SETCURSOR asks a child's parent first, then sets the class cursor
//! in the client area and the arrow elsewhere; WM_MOUSEACTIVATE asks a
//! child's parent, else MA_ACTIVATE; WM_ACTIVATE gives the focus to a
//! window being activated; WM_SHOWWINDOW shows or hides an owned pop-up
//! when its owner is restored or minimized; WM_CTLCOLOR sets the window
//! colours and returns the window brush; WM_QUERYENDSESSION and
//! WM_QUERYOPEN → TRUE; WM_SYSKEYDOWN with Alt+F4 → SC_CLOSE, and Alt or
//! F10 released alone → SC_KEYMENU; WM_SYSCHAR → SC_KEYMENU;
//! WM_WINDOWPOSCHANGING keeps the size within the maximum;
//! WM_WINDOWPOSCHANGED → WM_MOVE and WM_SIZE; WM_SETREDRAW sets or clears
//! WS_VISIBLE without drawing; WM_VKEYTOITEM and WM_CHARTOITEM → −1.

use super::message::send;
use super::metrics::{SM_CXSIZE, SM_CYSIZE, fixed};
use super::winpos::{WindowPos, calc_client, has_thickframe, nc_parts, pos_changed, show_window};
use super::{
    CS_NOCLOSE, CTLCOLOR_SCROLLBAR, DESKTOP, Env, HCBT_SYSCOMMAND, HTBORDER, HTBOTTOM,
    HTBOTTOMLEFT, HTBOTTOMRIGHT, HTCAPTION, HTCLIENT, HTERROR, HTGROWBOX, HTHSCROLL, HTLEFT,
    HTMENU, HTNOWHERE, HTREDUCE, HTRIGHT, HTSYSMENU, HTTOP, HTTOPLEFT, HTTOPRIGHT, HTVSCROLL,
    HTZOOM, MA_ACTIVATE, MAX_TEXT, Point, Rect, Region, SC_ARRANGE, SC_CLOSE, SC_HSCROLL,
    SC_KEYMENU, SC_MAXIMIZE, SC_MINIMIZE, SC_MOUSEMENU, SC_MOVE, SC_RESTORE, SC_SIZE, SC_VSCROLL,
    SW_HIDE, SW_MINIMIZE, SW_RESTORE, SW_SHOWMAXIMIZED, SW_SHOWNOACTIVATE, SWP_NOMOVE, SWP_NOSIZE,
    Stop, Uc, VK_F4, VK_F10, VK_MENU, WA_INACTIVE, WM_ACTIVATE, WM_CANCELMODE, WM_CHARTOITEM,
    WM_CLOSE, WM_CTLCOLOR, WM_ERASEBKGND, WM_GETTEXT, WM_GETTEXTLENGTH, WM_ICONERASEBKGND,
    WM_KEYDOWN, WM_KEYUP, WM_LBUTTONDOWN, WM_MBUTTONDOWN, WM_MOUSEACTIVATE, WM_NCACTIVATE,
    WM_NCCALCSIZE, WM_NCCREATE, WM_NCHITTEST, WM_NCLBUTTONDBLCLK, WM_NCLBUTTONDOWN, WM_NCPAINT,
    WM_PAINT, WM_PAINTICON, WM_QUERYDRAGICON, WM_QUERYENDSESSION, WM_QUERYOPEN, WM_RBUTTONDOWN,
    WM_SETCURSOR, WM_SETREDRAW, WM_SETTEXT, WM_SHOWWINDOW, WM_SYSCHAR, WM_SYSCOMMAND,
    WM_SYSKEYDOWN, WM_SYSKEYUP, WM_VKEYTOITEM, WM_WINDOWPOSCHANGED, WM_WINDOWPOSCHANGING, WS_CHILD,
    WS_MAXIMIZEBOX, WS_MINIMIZEBOX, WS_POPUP, WS_SYSMENU, WS_VISIBLE, bytes_arg, event,
    lparam_point, split,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};

/// The HT code of a screen point for a window (Wine's 3.1-look
/// NC_HandleNCHitTest, on the layout of winpos.rs).
pub fn hit_test(env: &Env, hwnd: u16, pt: Point) -> u16 {
    let u = &env.win16.user;
    let (Some(w), Some(wr)) = (u.app_window(hwnd), u.window_rect_screen(hwnd)) else {
        return HTNOWHERE;
    };
    if !wr.contains(pt) {
        return HTNOWHERE;
    }
    if w.iconic() {
        return HTCAPTION;
    }
    let Some(parts) = nc_parts(env, hwnd) else {
        return HTNOWHERE;
    };
    let p = Point::new(pt.x - wr.left, pt.y - wr.top);
    if parts.client.contains(p) {
        return HTCLIENT;
    }
    let inside = parts.inside;
    if !inside.contains(p) {
        if !parts.sizing {
            return HTBORDER;
        }
        // The corners of a sizing frame reach a size box along each edge.
        let (cx, cy) = (fixed(SM_CXSIZE), fixed(SM_CYSIZE));
        let left = p.x < inside.left;
        let right = p.x >= inside.right;
        let top = p.y < inside.top;
        let bottom = p.y >= inside.bottom;
        let near_left = p.x < inside.left + cx;
        let near_right = p.x >= inside.right - cx;
        let near_top = p.y < inside.top + cy;
        let near_bottom = p.y >= inside.bottom - cy;
        return match () {
            _ if top && near_left => HTTOPLEFT,
            _ if top && near_right => HTTOPRIGHT,
            _ if top => HTTOP,
            _ if bottom && near_left => HTBOTTOMLEFT,
            _ if bottom && near_right => HTBOTTOMRIGHT,
            _ if bottom => HTBOTTOM,
            _ if left && near_top => HTTOPLEFT,
            _ if left && near_bottom => HTBOTTOMLEFT,
            _ if left => HTLEFT,
            _ if right && near_top => HTTOPRIGHT,
            _ if right && near_bottom => HTBOTTOMRIGHT,
            _ => HTRIGHT,
        };
    }
    if let Some(c) = parts.caption
        && c.contains(p)
    {
        let size = fixed(SM_CXSIZE);
        if w.style & WS_SYSMENU != 0 && p.x < c.left + size + 1 {
            return HTSYSMENU;
        }
        let mut right = c.right;
        if w.style & WS_MAXIMIZEBOX != 0 {
            right -= size + 1;
            if p.x >= right {
                return HTZOOM;
            }
        }
        if w.style & WS_MINIMIZEBOX != 0 {
            right -= size + 1;
            if p.x >= right {
                return HTREDUCE;
            }
        }
        return HTCAPTION;
    }
    if parts.menu.is_some_and(|m| m.contains(p)) {
        return HTMENU;
    }
    let in_v = parts.vscroll.is_some_and(|r| r.contains(p));
    let in_h = parts.hscroll.is_some_and(|r| r.contains(p));
    if in_v {
        return HTVSCROLL;
    }
    if in_h {
        return HTHSCROLL;
    }
    if let (Some(v), Some(h)) = (parts.vscroll, parts.hscroll)
        && p.x >= v.left
        && p.y >= h.top
    {
        // The box between the two scroll bars.
        return if has_thickframe(w.style) {
            HTGROWBOX
        } else {
            HTNOWHERE
        };
    }
    HTNOWHERE
}

/// GDI's stock objects WHITE_BRUSH and LTGRAY_BRUSH.
const WHITE_BRUSH: u32 = 0;
const LTGRAY_BRUSH: u32 = 1;

/// DefWindowProc's WM_ERASEBKGND: the update region filled with the class
/// brush (a brush handle, or COLOR_* + 1 for a system colour). FALSE when
/// the class has none.
fn erase_background(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<u32, Stop> {
    let brush = env.win16.user.class_of(hwnd).map_or(0, |c| c.hbrush);
    if brush == 0 {
        return Ok(0);
    }
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    let area = w.update.bbox();
    let what = if brush <= super::metrics::NUM_COLORS as u16 {
        let c = env.win16.user.sys.colors[usize::from(brush - 1)];
        format!("system colour {} #{:06X}", brush - 1, c)
    } else {
        format!("brush {brush:04X}")
    };
    event(
        uc,
        format!(
            "draw erase {hwnd:04X} on {hdc:04X} ({}, {}, {}, {}) with {what}",
            area.left, area.top, area.right, area.bottom
        ),
    );
    super::paint::fill_clip_box(env, hdc, brush);
    Ok(1)
}

/// DefWindowProc's WM_SETCURSOR.
fn set_cursor_for(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    if w.is_child() {
        let parent = w.parent;
        if send(env, uc, parent, WM_SETCURSOR, wparam, lparam)? & 0xFFFF != 0 {
            return Ok(1);
        }
    }
    let (ht, mouse) = (lparam as u16, (lparam >> 16) as u16);
    use super::cursor::{IDC_ARROW, IDC_SIZENESW, IDC_SIZENS, IDC_SIZENWSE, IDC_SIZEWE};
    let stock = match ht {
        HTERROR => {
            if matches!(mouse, WM_LBUTTONDOWN | WM_MBUTTONDOWN | WM_RBUTTONDOWN) {
                super::input::beep(env, uc, 0);
            }
            IDC_ARROW
        }
        HTCLIENT => {
            let c = env.win16.user.class_of(hwnd).map_or(0, |c| c.hcursor);
            if c == 0 {
                return Ok(0);
            }
            super::cursor::set_cursor(env, c);
            return Ok(1);
        }
        HTLEFT | HTRIGHT => IDC_SIZEWE,
        HTTOP | HTBOTTOM => IDC_SIZENS,
        HTTOPLEFT | HTBOTTOMRIGHT => IDC_SIZENWSE,
        HTTOPRIGHT | HTBOTTOMLEFT => IDC_SIZENESW,
        _ => IDC_ARROW,
    };
    let h = super::cursor::stock_cursor(env, uc, stock);
    super::cursor::set_cursor(env, h);
    Ok(1)
}

/// DefWindowProc's WM_SYSCOMMAND.
fn sys_command(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    if super::hook::cbt(env, uc, HCBT_SYSCOMMAND, wparam, lparam)? {
        return Ok(0);
    }
    match wparam & 0xFFF0 {
        SC_CLOSE => {
            let noclose = env
                .win16
                .user
                .class_of(hwnd)
                .is_some_and(|c| c.style & CS_NOCLOSE != 0);
            if !noclose {
                send(env, uc, hwnd, WM_CLOSE, 0, 0)?;
            }
        }
        SC_MINIMIZE => {
            show_window(env, uc, hwnd, SW_MINIMIZE)?;
        }
        SC_MAXIMIZE => {
            show_window(env, uc, hwnd, SW_SHOWMAXIMIZED)?;
        }
        SC_RESTORE => {
            show_window(env, uc, hwnd, SW_RESTORE)?;
        }
        SC_KEYMENU => {
            // Menu mode with the keyboard: Alt+character of a window with
            // no menu beeps.
            let has_menu = env
                .win16
                .user
                .app_window(hwnd)
                .is_some_and(|w| w.has_menu());
            let ch = lparam as u16;
            if !has_menu && ch != 0 && ch != u16::from(b' ') {
                super::input::beep(env, uc, 0);
            }
        }
        SC_ARRANGE => {
            super::winpos::arrange_iconic_windows(env, uc, &[u32::from(DESKTOP)])?;
        }
        // SC_SIZE and SC_MOVE track the mouse on a screen; SC_VSCROLL,
        // SC_HSCROLL and SC_MOUSEMENU likewise; SC_TASKLIST starts the
        // Task List and SC_SCREENSAVE the screen saver: none exists
        // headless.
        _ => {}
    }
    Ok(0)
}

/// DefWindowProc's answers (module doc).
pub fn def_window_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    if let Some(r) = super::menu::track::def_window_proc(env, uc, hwnd, msg, wparam, lparam)? {
        return Ok(r);
    }
    Ok(match msg {
        WM_NCCREATE => 1,
        WM_NCCALCSIZE => {
            let (seg, off) = split(lparam);
            let mut b = [0u8; 8];
            if uc.read_seg(seg, off, &mut b).is_ok() {
                let win = Rect::from_bytes(&b);
                let parent = env
                    .win16
                    .user
                    .app_window(hwnd)
                    .map(|w| w.parent)
                    .unwrap_or(0);
                let _ = parent;
                let c = calc_client(env, hwnd, win);
                let _ = uc.write_seg(seg, off, &c.to_bytes());
            }
            0
        }
        WM_NCHITTEST => u32::from(hit_test(env, hwnd, lparam_point(lparam))),
        WM_NCPAINT => {
            let active = env.win16.user.window(hwnd).is_some_and(|w| w.nc_active);
            super::frame::draw(env, uc, hwnd, active)?;
            0
        }
        WM_NCACTIVATE => {
            if let Some(w) = env.win16.user.window_mut(hwnd) {
                w.nc_active = wparam != 0;
            }
            super::frame::draw(env, uc, hwnd, wparam != 0)?;
            1
        }
        WM_NCLBUTTONDOWN => {
            let sc = match wparam {
                HTCAPTION => Some(SC_MOVE + HTCAPTION),
                HTSYSMENU => Some(SC_MOUSEMENU + HTSYSMENU),
                HTMENU => Some(SC_MOUSEMENU),
                HTHSCROLL => Some(SC_HSCROLL + HTHSCROLL),
                HTVSCROLL => Some(SC_VSCROLL + HTVSCROLL),
                HTREDUCE => Some(SC_MINIMIZE),
                HTZOOM => {
                    let zoomed = env.win16.user.app_window(hwnd).is_some_and(|w| w.zoomed());
                    Some(if zoomed { SC_RESTORE } else { SC_MAXIMIZE })
                }
                HTLEFT..=HTBOTTOMRIGHT => Some(SC_SIZE + (wparam - HTLEFT + 1)),
                _ => None,
            };
            if wparam == HTCAPTION {
                let top = env.win16.user.top_level(hwnd);
                if top != env.win16.user.active {
                    super::focus::set_active(env, uc, top, true, true)?;
                }
            }
            if let Some(sc) = sc {
                send(env, uc, hwnd, WM_SYSCOMMAND, sc, lparam)?;
            }
            0
        }
        WM_NCLBUTTONDBLCLK => {
            let w = env.win16.user.app_window(hwnd).cloned();
            match (wparam, w) {
                (HTCAPTION, Some(w)) if w.style & WS_MAXIMIZEBOX != 0 => {
                    let sc = if w.zoomed() { SC_RESTORE } else { SC_MAXIMIZE };
                    send(env, uc, hwnd, WM_SYSCOMMAND, sc, lparam)?;
                }
                (HTSYSMENU, Some(w)) if w.style & WS_SYSMENU != 0 => {
                    send(env, uc, hwnd, WM_SYSCOMMAND, SC_CLOSE, lparam)?;
                }
                _ => {}
            }
            0
        }
        WM_PAINT | WM_PAINTICON => {
            let (hdc, _) = super::paint::begin_paint(env, uc, hwnd)?;
            // A minimized window shows its class icon, centred.
            let icon = env
                .win16
                .user
                .app_window(hwnd)
                .filter(|w| w.iconic())
                .map(|w| (w.client.width(), w.client.height()))
                .zip(env.win16.user.class_of(hwnd).map(|c| c.hicon))
                .filter(|&(_, h)| h != 0);
            if let Some(((cx, cy), hicon)) = icon {
                super::draw::draw_icon(env, hdc, (cx - 32) / 2, (cy - 32) / 2, hicon);
            }
            super::paint::end_paint(env, uc, hwnd, hdc);
            0
        }
        WM_ERASEBKGND | WM_ICONERASEBKGND => erase_background(env, uc, hwnd, wparam)?,
        WM_SETTEXT => {
            let t = bytes_arg(uc, lparam, MAX_TEXT);
            super::window::store_text(env, uc, hwnd, t);
            if env.win16.user.shown(hwnd) {
                let active = env.win16.user.window(hwnd).is_some_and(|w| w.nc_active);
                super::frame::draw(env, uc, hwnd, active)?;
            }
            1
        }
        WM_GETTEXT => {
            let max = usize::from(wparam);
            let text = env
                .win16
                .user
                .app_window(hwnd)
                .map(|w| w.text.clone())
                .unwrap_or_default();
            crate::win16::farptr::write_cstr_truncated(uc, lparam, &text, max)
                .map_or(0, |n| n as u32)
        }
        WM_GETTEXTLENGTH => env
            .win16
            .user
            .app_window(hwnd)
            .map_or(0, |w| w.text.len() as u32),
        WM_CLOSE => {
            super::window::destroy_window(env, uc, hwnd)?;
            0
        }
        WM_QUERYENDSESSION | WM_QUERYOPEN => 1,
        WM_SYSCOMMAND => sys_command(env, uc, hwnd, wparam, lparam)?,
        WM_SETCURSOR => set_cursor_for(env, uc, hwnd, wparam, lparam)?,
        WM_MOUSEACTIVATE => {
            let w = env.win16.user.app_window(hwnd).cloned();
            if let Some(w) = w
                && w.is_child()
            {
                let r = send(env, uc, w.parent, WM_MOUSEACTIVATE, wparam, lparam)? & 0xFFFF;
                if r != 0 {
                    return Ok(r);
                }
            }
            u32::from(MA_ACTIVATE)
        }
        WM_ACTIVATE => {
            let iconic = env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic());
            if wparam != WA_INACTIVE && !iconic {
                super::focus::set_focus(env, uc, hwnd)?;
            }
            0
        }
        WM_SHOWWINDOW => {
            if lparam == 0 {
                return Ok(0);
            }
            let Some(w) = env.win16.user.app_window(hwnd).cloned() else {
                return Ok(0);
            };
            if w.style & WS_POPUP == 0 || w.owner == 0 || w.visible() == (wparam != 0) {
                return Ok(0);
            }
            show_window(
                env,
                uc,
                hwnd,
                if wparam != 0 {
                    SW_SHOWNOACTIVATE
                } else {
                    SW_HIDE
                },
            )?;
            0
        }
        WM_CTLCOLOR => {
            let kind = (lparam >> 16) as u16;
            let colors = env.win16.user.sys.colors;
            if kind == CTLCOLOR_SCROLLBAR {
                crate::win16::gdi::dc::set_bk_color(env, uc, &[u32::from(wparam), 0xFFFFFF])?;
                crate::win16::gdi::dc::set_text_color(env, uc, &[u32::from(wparam), 0])?;
                crate::win16::gdi::objects::get_stock_object(env, uc, &[LTGRAY_BRUSH])?
            } else {
                // SetBkColor(COLOR_WINDOW), SetTextColor(COLOR_WINDOWTEXT).
                crate::win16::gdi::dc::set_bk_color(env, uc, &[u32::from(wparam), colors[5]])?;
                crate::win16::gdi::dc::set_text_color(env, uc, &[u32::from(wparam), colors[8]])?;
                crate::win16::gdi::objects::get_stock_object(env, uc, &[WHITE_BRUSH])?
            }
        }
        WM_SYSKEYDOWN => {
            let alt = lparam & 0x2000_0000 != 0;
            let keys = &mut env.win16.user.keys;
            keys.menu_alone = wparam == VK_MENU;
            if wparam == VK_F10 {
                keys.f10 = true;
            }
            if alt && wparam == VK_F4 {
                let top = env.win16.user.top_level(hwnd);
                send(env, uc, top, WM_SYSCOMMAND, SC_CLOSE, 0)?;
            }
            0
        }
        WM_KEYDOWN => {
            env.win16.user.keys.menu_alone = false;
            if wparam == VK_F10 {
                env.win16.user.keys.f10 = true;
            }
            0
        }
        WM_KEYUP | WM_SYSKEYUP => {
            let keys = &mut env.win16.user.keys;
            let menu = (wparam == VK_MENU && std::mem::take(&mut keys.menu_alone))
                || (wparam == VK_F10 && std::mem::take(&mut keys.f10));
            if menu {
                let top = env.win16.user.top_level(hwnd);
                send(env, uc, top, WM_SYSCOMMAND, SC_KEYMENU, 0)?;
            }
            0
        }
        WM_SYSCHAR => {
            let top = env.win16.user.top_level(hwnd);
            send(env, uc, top, WM_SYSCOMMAND, SC_KEYMENU, u32::from(wparam))?;
            0
        }
        WM_WINDOWPOSCHANGING => {
            let (seg, off) = split(lparam);
            let mut b = [0u8; super::winpos::WINDOWPOS_SIZE];
            if uc.read_seg(seg, off, &mut b).is_ok() {
                let mut pos = WindowPos::from_bytes(&b);
                let style = env.win16.user.app_window(hwnd).map_or(0, |w| w.style);
                if pos.flags & SWP_NOSIZE == 0
                    && (has_thickframe(style) || style & (WS_POPUP | WS_CHILD) == 0)
                {
                    let mm = super::winpos::min_max_info(env, uc, hwnd)?;
                    pos.cx = pos.cx.min(mm.max_size.x);
                    pos.cy = pos.cy.min(mm.max_size.y);
                    let _ = uc.write_seg(seg, off, &pos.to_bytes());
                }
            }
            0
        }
        WM_WINDOWPOSCHANGED => {
            let (seg, off) = split(lparam);
            let flags = uc
                .read_u16_at(seg, off.wrapping_add(12))
                .unwrap_or(SWP_NOSIZE | SWP_NOMOVE);
            pos_changed(env, uc, hwnd, flags)?;
            0
        }
        WM_SETREDRAW => {
            if let Some(w) = env.win16.user.window_mut(hwnd) {
                if wparam != 0 {
                    w.style |= WS_VISIBLE;
                } else {
                    w.style &= !WS_VISIBLE;
                }
            }
            0
        }
        WM_CANCELMODE => {
            if env.win16.user.capture == hwnd {
                super::focus::release_capture(env, uc)?;
            }
            0
        }
        WM_VKEYTOITEM | WM_CHARTOITEM => 0xFFFF_FFFF,
        WM_QUERYDRAGICON => {
            let icon = env.win16.user.class_of(hwnd).map_or(0, |c| c.hicon);
            u32::from(if icon != 0 {
                icon
            } else {
                super::cursor::stock_icon(env, uc, super::cursor::IDI_APPLICATION)
            })
        }
        _ => 0,
    })
}

/// USER.107 DefWindowProc(hWnd, msg, wParam, lParam).
fn def_window_proc_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    def_window_proc(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3])
}

/// USER.305 DesktopWndProc(hWnd, msg, wParam, lParam): the desktop
/// window's procedure; WM_ERASEBKGND paints COLOR_BACKGROUND (there is no
/// wallpaper), the rest is DefWindowProc's.
fn desktop_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[1] as u16 == WM_ERASEBKGND {
        let screen = env.win16.user.screen();
        super::paint::paint_desktop(env, uc, &Region::rect(screen));
        return Ok(1);
    }
    def_window_proc(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3])
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        107,
        "DEFWINDOWPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        def_window_proc_api,
    ),
    Api::new(
        "USER",
        305,
        "DESKTOPWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        desktop_wnd_proc,
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
