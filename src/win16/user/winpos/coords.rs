//! Coordinates between windows: ClientToScreen, ScreenToClient,
//! MapWindowPoints, WindowFromPoint and ChildWindowFromPoint.

use super::w16;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::gdi::write_point;
use crate::win16::geom::{Point, Rect};
use crate::win16::user::{DESKTOP, lparam_point, read_point};

/// The offset from `from`'s client coordinates to `to`'s (0 is the
/// screen).
pub fn map_offset(env: &Env, from: u16, to: u16) -> Point {
    let u = &env.win16.user;
    let o = |h: u16| {
        if h == 0 {
            Point::default()
        } else {
            u.client_origin(h)
        }
    };
    let (a, b) = (o(from), o(to));
    Point::new(a.x - b.x, a.y - b.y)
}

/// USER.28 ClientToScreen(hWnd, lpPoint).
pub(super) fn client_to_screen(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    map_points_at(env, uc, w16(a[0]), 0, a[1], 1);
    Ok(0)
}

/// USER.29 ScreenToClient(hWnd, lpPoint).
pub(super) fn screen_to_client(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    map_points_at(env, uc, 0, w16(a[0]), a[1], 1);
    Ok(0)
}

fn map_points_at(env: &Env, uc: &mut Uc<'_>, from: u16, to: u16, p: u32, n: u16) {
    let d = map_offset(env, from, to);
    for i in 0..n.min(0x2000) {
        let at = p.wrapping_add(u32::from(i) * 4);
        if let Some(pt) = read_point(uc, at) {
            write_point(uc, at, Point::new(pt.x + d.x, pt.y + d.y));
        }
    }
}

/// USER.258 MapWindowPoints(hWndFrom, hWndTo, lppt, cPoints).
pub(super) fn map_window_points(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    map_points_at(env, uc, w16(a[0]), w16(a[1]), a[2], w16(a[3]));
    Ok(0)
}

/// The window under a screen point, searching down from `scope`'s
/// children: visible windows containing the point, disabled children
/// skipped, the children of a window searched when the point is in its
/// client area (Wine's 3.1-era WINPOS_WindowFromPoint, without
/// WM_NCHITTEST).
pub fn window_from_point(env: &Env, pt: Point) -> u16 {
    let u = &env.win16.user;
    let mut found = DESKTOP;
    let mut scope = DESKTOP;
    'down: for _ in 0..64 {
        let origin = u.client_origin(scope);
        for h in u.children(scope) {
            let Some(w) = u.window(h) else { continue };
            let r = w.rect.offset(origin.x, origin.y);
            if !w.visible() || !r.contains(pt) {
                continue;
            }
            if !w.enabled() && w.is_child() {
                continue;
            }
            found = h;
            let c = w.client.offset(origin.x, origin.y);
            if w.iconic() || !w.enabled() || !c.contains(pt) {
                break 'down;
            }
            scope = h;
            continue 'down;
        }
        break;
    }
    found
}

/// USER.30 WindowFromPoint(Point).
pub(super) fn window_from_point_api(
    env: &mut Env,
    _uc: &mut Uc<'_>,
    a: &[u32],
) -> Result<u32, Stop> {
    Ok(u32::from(window_from_point(env, lparam_point(a[0]))))
}

/// USER.191 ChildWindowFromPoint(hWndParent, Point): the first child (in
/// z-order, hidden and disabled ones too) containing the client point, the
/// parent itself when none does, 0 when the point is outside the parent's
/// client area.
pub(super) fn child_window_from_point(
    env: &mut Env,
    _uc: &mut Uc<'_>,
    a: &[u32],
) -> Result<u32, Stop> {
    let parent = w16(a[0]);
    let pt = lparam_point(a[1]);
    let u = &env.win16.user;
    let Some(p) = u.window(parent) else {
        return Ok(0);
    };
    if !Rect::new(0, 0, p.client.width(), p.client.height()).contains(pt) {
        return Ok(0);
    }
    let hit = u
        .children(parent)
        .into_iter()
        .find(|&h| u.window(h).is_some_and(|c| c.rect.contains(pt)));
    Ok(u32::from(hit.unwrap_or(parent)))
}
