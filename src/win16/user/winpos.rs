//! Window rectangles and positions: the non-client layout a style implies,
//! SetWindowPos and everything built on it (MoveWindow, ShowWindow,
//! BringWindowToTop, minimizing and maximizing), and the coordinate
//! functions.
//!
//! **The non-client layout** is Windows 3.1's (the 3.1 look of Wine's
//! nonclient.c, NC_AdjustRect): a window with a dialog frame
//! (WS_EX_DLGMODALFRAME, or WS_DLGFRAME without WS_BORDER) is inset by
//! SM_CXDLGFRAME/SM_CYDLGFRAME; otherwise a thick frame (WS_THICKFRAME,
//! unless the style is a dialog frame) insets it by SM_CXFRAME/SM_CYFRAME
//! and WS_BORDER by one more pixel; a caption (WS_CAPTION, both bits)
//! takes SM_CYCAPTION − SM_CYBORDER more at the top (the caption's own
//! bottom line is the frame's), a menu bar SM_CYMENU + SM_CYBORDER (the
//! line under it), a vertical scroll bar SM_CXVSCROLL − 1 at the right (it
//! overlaps the border; one pixel more without WS_BORDER), a horizontal one
//! SM_CYHSCROLL − 1 at the bottom. Overlapped windows always have
//! WS_CAPTION and WS_CLIPSIBLINGS (CreateWindow adds them). A minimized
//! window has no non-client area.
//!
//! **SetWindowPos** goes as Wine's tested notes (documentation/gui,
//! "ShowWindow", "Resizing child window with MoveWindow", "DestroyWindow")
//! and its Windows 3.1-era winpos.c describe it: WM_WINDOWPOSCHANGING with
//! the WINDOWPOS the caller asked for; then what would not change is
//! dropped (SWP_NOSIZE, SWP_NOMOVE, SWP_NOZORDER added); the z-order
//! moves; WM_NCCALCSIZE (wParam TRUE) when the size or frame changes; the
//! rectangles change and what became visible is invalidated; the window
//! is activated (unless SWP_NOACTIVATE; a child gets WM_CHILDACTIVATE);
//! what is invalid is erased now (WM_NCPAINT, WM_ERASEBKGND); and
//! WM_WINDOWPOSCHANGED comes last, when anything changed, and
//! DefWindowProc turns it into WM_MOVE and WM_SIZE.
//!
//! The non-client layout is in `winpos/nonclient.rs`, the coordinate
//! functions (MapWindowPoints, WindowFromPoint, ...) in `winpos/coords.rs`,
//! and DeferWindowPos in `winpos/defer.rs`.

use super::focus;
use super::message::{send, send_struct};
use super::metrics::{
    SM_CXBORDER, SM_CXDLGFRAME, SM_CXFRAME, SM_CXICON, SM_CXMINTRACK, SM_CYBORDER, SM_CYDLGFRAME,
    SM_CYFRAME, SM_CYICON, SM_CYMINTRACK, fixed, metric,
};
use super::paint;
use super::window::{link, unlink};
use super::{
    CS_HREDRAW, CS_VREDRAW, Env, HCBT_MINMAX, HWND_BOTTOM, HWND_NOTOPMOST, HWND_TOP, HWND_TOPMOST,
    Point, RDW_ALLCHILDREN, RDW_ERASE, RDW_FRAME, RDW_INVALIDATE, Rect, Region, SIZE_MAXIMIZED,
    SIZE_MINIMIZED, SIZE_RESTORED, SW_HIDE, SW_MINIMIZE, SW_PARENTCLOSING, SW_PARENTOPENING,
    SW_SHOW, SW_SHOWMAXIMIZED, SW_SHOWMINIMIZED, SW_SHOWMINNOACTIVE, SW_SHOWNA, SW_SHOWNOACTIVATE,
    SW_SHOWNORMAL, SWP_FRAMECHANGED, SWP_HIDEWINDOW, SWP_NOACTIVATE, SWP_NOCOPYBITS, SWP_NOMOVE,
    SWP_NOREDRAW, SWP_NOSIZE, SWP_NOZORDER, SWP_SHOWWINDOW, Stop, Uc, User, WM_CHILDACTIVATE,
    WM_GETMINMAXINFO, WM_MOVE, WM_NCCALCSIZE, WM_QUERYOPEN, WM_SHOWWINDOW, WM_SIZE,
    WM_WINDOWPOSCHANGED, WM_WINDOWPOSCHANGING, WS_BORDER, WS_CHILD, WS_EX_TOPMOST, WS_MAXIMIZE,
    WS_MINIMIZE, WS_POPUP, WS_VISIBLE, get, heap, makelong, put, read_point, read_rect,
    top_level_windows, write_point, write_rect,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};

mod coords;
mod defer;
mod nonclient;

use coords::{
    child_window_from_point, client_to_screen, map_window_points, screen_to_client,
    window_from_point_api,
};
pub use coords::{map_offset, window_from_point};
pub use defer::{Deferred, mwp};
use defer::{begin_defer_window_pos, defer_window_pos, end_defer_window_pos};
pub use nonclient::{
    NcParts, adjust, adjust_window_rect, calc_client, has_dlgframe, has_thickframe,
    menu_bar_height, nc_parts,
};

// -------------------------------------------------------------- min/max

/// MINMAXINFO: ptReserved, ptMaxSize, ptMaxPosition, ptMinTrackSize,
/// ptMaxTrackSize (five POINTs, 20 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinMax {
    pub reserved: Point,
    pub max_size: Point,
    pub max_pos: Point,
    pub min_track: Point,
    pub max_track: Point,
}

impl MinMax {
    fn to_bytes(self) -> [u8; 20] {
        let mut b = [0u8; 20];
        for (i, p) in [
            self.reserved,
            self.max_size,
            self.max_pos,
            self.min_track,
            self.max_track,
        ]
        .into_iter()
        .enumerate()
        {
            b[i * 4..i * 4 + 4].copy_from_slice(&p.to_bytes());
        }
        b
    }
    fn from_bytes(b: &[u8]) -> MinMax {
        let p = |i: usize| Point::from_bytes(&b[i * 4..i * 4 + 4]);
        MinMax {
            reserved: p(0),
            max_size: p(1),
            max_pos: p(2),
            min_track: p(3),
            max_track: p(4),
        }
    }
}

/// The window's minimum and maximum sizes: the defaults (a maximized
/// window fills its parent's client area — the screen for a top-level
/// window — with its frame just outside; SM_CXMINTRACK × SM_CYMINTRACK at
/// least), then what the window's WM_GETMINMAXINFO makes of them (Wine's
/// 3.1-era NC_GetMinMaxInfo).
pub fn min_max_info(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<MinMax, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(MinMax::from_bytes(&[0; 20]));
    };
    let (style, ex, rect, parent) = (w.style, w.ex_style, w.rect, w.parent);
    let area = if style & WS_CHILD != 0 {
        env.win16.user.window(parent).map_or(Rect::default(), |p| {
            Rect::new(0, 0, p.client.width(), p.client.height())
        })
    } else {
        env.win16.user.screen()
    };
    let (mut xinc, mut yinc) = (0, 0);
    if has_dlgframe(style, ex) {
        xinc = fixed(SM_CXDLGFRAME);
        yinc = fixed(SM_CYDLGFRAME);
    } else {
        if has_thickframe(style) {
            xinc += fixed(SM_CXFRAME);
            yinc += fixed(SM_CYFRAME);
        }
        if style & WS_BORDER != 0 {
            xinc += fixed(SM_CXBORDER);
            yinc += fixed(SM_CYBORDER);
        }
    }
    let max_pos = env
        .win16
        .user
        .window(hwnd)
        .and_then(|w| w.max_pos)
        .unwrap_or(Point::new(-xinc, -yinc));
    let mm = MinMax {
        reserved: Point::new(rect.left, rect.top),
        max_size: Point::new(area.width() + 2 * xinc, area.height() + 2 * yinc),
        max_pos,
        min_track: Point::new(metric(env, SM_CXMINTRACK), metric(env, SM_CYMINTRACK)),
        max_track: Point::new(area.width(), area.height()),
    };
    let (_, b) = send_struct(env, uc, hwnd, WM_GETMINMAXINFO, 0, &mm.to_bytes())?;
    Ok(if b.len() == 20 {
        MinMax::from_bytes(&b)
    } else {
        mm
    })
}

// --------------------------------------------------------- SetWindowPos

/// WINDOWPOS (16-bit): hwnd, hwndInsertAfter, x, y, cx, cy, flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowPos {
    pub hwnd: u16,
    pub after: u16,
    pub x: i32,
    pub y: i32,
    pub cx: i32,
    pub cy: i32,
    pub flags: u16,
}

pub const WINDOWPOS_SIZE: usize = 14;

impl WindowPos {
    pub fn to_bytes(self) -> [u8; WINDOWPOS_SIZE] {
        let mut b = [0u8; WINDOWPOS_SIZE];
        for (i, v) in [
            self.hwnd,
            self.after,
            self.x as u16,
            self.y as u16,
            self.cx as u16,
            self.cy as u16,
            self.flags,
        ]
        .into_iter()
        .enumerate()
        {
            put(&mut b, i * 2, v);
        }
        b
    }
    pub fn from_bytes(b: &[u8]) -> WindowPos {
        let s = |i: usize| i32::from(get(b, i * 2) as i16);
        WindowPos {
            hwnd: get(b, 0),
            after: get(b, 2),
            x: s(2),
            y: s(3),
            cx: s(4),
            cy: s(5),
            flags: get(b, 12),
        }
    }
}

/// Is the window already where `after` (HWND_TOP, HWND_BOTTOM,
/// HWND_TOPMOST, HWND_NOTOPMOST or a sibling) would put it?
fn z_placed(u: &User, hwnd: u16, after: u16) -> bool {
    let Some(w) = u.window(hwnd) else {
        return true;
    };
    let siblings = u.children(w.parent);
    let me = siblings.iter().position(|&h| h == hwnd);
    let topmost = |h: u16| u.window(h).is_some_and(|x| x.ex_style & WS_EX_TOPMOST != 0);
    let mine = w.ex_style & WS_EX_TOPMOST != 0;
    match after {
        HWND_TOP | HWND_TOPMOST | HWND_NOTOPMOST => {
            let band = match after {
                HWND_TOPMOST => true,
                HWND_NOTOPMOST => false,
                _ => mine,
            };
            band == mine && me.is_some() && me == siblings.iter().position(|&h| topmost(h) == band)
        }
        HWND_BOTTOM => !mine && me == Some(siblings.len().saturating_sub(1)),
        s if s == hwnd => true,
        s => matches!(
            (siblings.iter().position(|&h| h == s), me),
            (Some(i), Some(m)) if m == i + 1
        ),
    }
}

/// SetWindowPos (module doc); false for the desktop or a window that does
/// not exist.
#[allow(clippy::too_many_arguments)]
pub fn set_window_pos(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    after: u16,
    x: i32,
    y: i32,
    cx: i32,
    cy: i32,
    flags: u16,
) -> Result<bool, Stop> {
    let r = set_window_pos_in(env, uc, hwnd, after, x, y, cx, cy, flags)?;
    // Its WND, and its siblings' (the z-order may have changed).
    let parent = env.win16.user.window(hwnd).map_or(0, |w| w.parent);
    super::heap::sync(env, uc, hwnd);
    super::heap::sync_neighbours(env, uc, parent, 0);
    Ok(r)
}

#[allow(clippy::too_many_arguments)]
fn set_window_pos_in(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    after: u16,
    x: i32,
    y: i32,
    cx: i32,
    cy: i32,
    flags: u16,
) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(false);
    };
    let mut flags = flags;
    if w.visible() {
        flags &= !SWP_SHOWWINDOW;
    } else {
        flags &= !SWP_HIDEWINDOW;
    }
    if hwnd == env.win16.user.active {
        flags |= SWP_NOACTIVATE;
    }
    // A sibling to go after must share the parent.
    if !matches!(
        after,
        HWND_TOP | HWND_BOTTOM | HWND_TOPMOST | HWND_NOTOPMOST
    ) && flags & SWP_NOZORDER == 0
        && env.win16.user.window(after).map(|a| a.parent) != Some(w.parent)
    {
        return Ok(false);
    }
    let asked = WindowPos {
        hwnd,
        after,
        x,
        y,
        cx: cx.max(0),
        cy: cy.max(0),
        flags,
    };
    let (_, b) = send_struct(env, uc, hwnd, WM_WINDOWPOSCHANGING, 0, &asked.to_bytes())?;
    let mut pos = if b.len() == WINDOWPOS_SIZE {
        WindowPos::from_bytes(&b)
    } else {
        asked
    };
    pos.hwnd = hwnd;
    let Some(w) = env.win16.user.app_window(hwnd).cloned() else {
        return Ok(true);
    };
    // What would not change is not done.
    if pos.flags & SWP_NOSIZE == 0 && w.rect.width() == pos.cx && w.rect.height() == pos.cy {
        pos.flags |= SWP_NOSIZE;
    }
    if pos.flags & SWP_NOMOVE == 0 && w.rect.left == pos.x && w.rect.top == pos.y {
        pos.flags |= SWP_NOMOVE;
    }
    if pos.flags & SWP_NOZORDER == 0 && z_placed(&env.win16.user, hwnd, pos.after) {
        pos.flags |= SWP_NOZORDER;
    }
    let flags = pos.flags;
    // The new rectangles.
    let mut new_rect = w.rect;
    if flags & SWP_NOSIZE == 0 {
        new_rect.right = new_rect.left + pos.cx;
        new_rect.bottom = new_rect.top + pos.cy;
    }
    if flags & SWP_NOMOVE == 0 {
        new_rect = new_rect.offset(pos.x - w.rect.left, pos.y - w.rect.top);
    }
    let moved = (new_rect.left - w.rect.left, new_rect.top - w.rect.top);
    // The z-order.
    if flags & SWP_NOZORDER == 0 {
        move_z(env, hwnd, pos.after);
    }
    // The client rectangle: WM_NCCALCSIZE when the size or frame changes.
    let new_client = if flags & (SWP_FRAMECHANGED | SWP_NOSIZE) != SWP_NOSIZE {
        let mut params = Vec::with_capacity(28 + WINDOWPOS_SIZE);
        params.extend_from_slice(&new_rect.to_bytes());
        params.extend_from_slice(&w.rect.to_bytes());
        params.extend_from_slice(&w.client.to_bytes());
        params.extend_from_slice(&[0; 4]);
        params.extend_from_slice(&pos.to_bytes());
        let (_, b) = super::message::send_struct_with(
            env,
            uc,
            hwnd,
            WM_NCCALCSIZE,
            1,
            &params,
            |base, data| {
                // lppos points at the WINDOWPOS just after the three RECTs.
                let p = base.wrapping_add(28);
                data[24..28].copy_from_slice(&p.to_le_bytes());
            },
        )?;
        if b.len() >= 8 {
            Rect::from_bytes(&b[0..8])
        } else {
            calc_client(env, hwnd, new_rect)
        }
    } else {
        w.client.offset(moved.0, moved.1)
    };
    let Some(cur) = env.win16.user.window_mut(hwnd) else {
        return Ok(true);
    };
    let old_rect = cur.rect;
    let old_client = cur.client;
    cur.rect = new_rect;
    cur.client = new_client;
    if flags & SWP_SHOWWINDOW != 0 {
        cur.style |= WS_VISIBLE;
    } else if flags & SWP_HIDEWINDOW != 0 {
        cur.style &= !WS_VISIBLE;
    }
    let child = cur.is_child();
    let parent = cur.parent;
    let class_style = env.win16.user.class_of(hwnd).map_or(0, |c| c.style);
    let redraw = flags & SWP_NOREDRAW == 0;
    // A window that moved takes its pixels along (unless SWP_NOCOPYBITS);
    // what could not be copied is repainted.
    if redraw
        && flags & (SWP_NOCOPYBITS | SWP_SHOWWINDOW | SWP_HIDEWINDOW) == 0
        && moved != (0, 0)
        && env.win16.user.shown(hwnd)
    {
        let o = env.win16.user.parent_origin(hwnd);
        let vis = paint::visible_region(env, hwnd, false);
        let kept = Rect::new(
            old_rect.left,
            old_rect.top,
            old_rect.left + old_rect.width().min(new_rect.width()),
            old_rect.top + old_rect.height().min(new_rect.height()),
        );
        let lost = paint::move_bits(
            env,
            kept.offset(o.x, o.y),
            new_rect.offset(o.x, o.y),
            moved.0,
            moved.1,
            &vis,
        );
        if !lost.is_empty() {
            paint::redraw(
                env,
                hwnd,
                None,
                RDW_INVALIDATE | RDW_ERASE | RDW_FRAME | RDW_ALLCHILDREN,
            );
        }
    }
    paint::refresh_dcs(env, uc);
    // What became visible is invalid.
    if redraw && env.win16.user.shown(parent) {
        let size_changed =
            old_client.width() != new_client.width() || old_client.height() != new_client.height();
        if flags & SWP_SHOWWINDOW != 0 {
            paint::redraw(
                env,
                hwnd,
                None,
                RDW_INVALIDATE | RDW_ERASE | RDW_FRAME | RDW_ALLCHILDREN,
            );
            if child {
                // The parent behind the child is repainted too (Wine,
                // documentation/gui: "ShowWindow (for child window)").
                paint::expose(env, uc, parent, new_rect, None, hwnd);
            }
        } else if flags & SWP_HIDEWINDOW != 0 {
            paint::expose(env, uc, parent, old_rect, None, 0);
        } else if env.win16.user.shown(hwnd) {
            if flags & SWP_FRAMECHANGED != 0
                || old_rect.width() != new_rect.width()
                || old_rect.height() != new_rect.height()
            {
                if let Some(w) = env.win16.user.window_mut(hwnd) {
                    w.frame = true;
                }
            }
            let hredraw = class_style & CS_HREDRAW != 0 && old_client.width() != new_client.width();
            let vredraw =
                class_style & CS_VREDRAW != 0 && old_client.height() != new_client.height();
            if hredraw || vredraw || flags & SWP_NOCOPYBITS != 0 {
                paint::redraw(
                    env,
                    hwnd,
                    None,
                    RDW_INVALIDATE | RDW_ERASE | RDW_ALLCHILDREN,
                );
            } else if size_changed {
                // The part of the client area that is new.
                let kept = Rect::new(0, 0, old_client.width(), old_client.height());
                let all = Rect::new(0, 0, new_client.width(), new_client.height());
                let new_part = Region::rect(all).subtract(&Region::rect(kept));
                if !new_part.is_empty() {
                    paint::redraw(
                        env,
                        hwnd,
                        Some(&new_part),
                        RDW_INVALIDATE | RDW_ERASE | RDW_ALLCHILDREN,
                    );
                }
            }
            if moved != (0, 0)
                || old_rect.width() != new_rect.width()
                || old_rect.height() != new_rect.height()
            {
                paint::expose(env, uc, parent, old_rect, Some(new_rect), hwnd);
            }
        }
    }
    // Activation.
    if flags & SWP_NOACTIVATE == 0 {
        if child {
            send(env, uc, hwnd, WM_CHILDACTIVATE, 0, 0)?;
        } else {
            focus::change_active(env, uc, hwnd, false)?;
        }
    }
    let all_same = SWP_NOSIZE | SWP_NOMOVE | SWP_NOZORDER;
    let changed = flags & all_same != all_same
        || flags & (SWP_FRAMECHANGED | SWP_SHOWWINDOW | SWP_HIDEWINDOW) != 0;
    // Erase now what was invalidated (RDW_ERASENOW).
    if changed && redraw {
        if env.win16.user.shown(hwnd) && !(child && flags & SWP_SHOWWINDOW != 0) {
            paint::erase_now(env, uc, hwnd)?;
        }
        if (child || flags & SWP_HIDEWINDOW != 0) && env.win16.user.shown(parent) {
            paint::erase_now_only(env, uc, parent)?;
        }
    }
    paint::refresh_dcs(env, uc);
    if changed {
        send_struct(env, uc, hwnd, WM_WINDOWPOSCHANGED, 0, &pos.to_bytes())?;
    }
    if flags & SWP_HIDEWINDOW != 0 {
        focus::after_hide(env, uc, hwnd)?;
    }
    Ok(true)
}

/// Move a window in its parent's z-order (`after` as SetWindowPos takes
/// it), keeping topmost windows above the others.
fn move_z(env: &mut Env, hwnd: u16, after: u16) {
    let u = &mut env.win16.user;
    if let Some(w) = u.window_mut(hwnd) {
        match after {
            HWND_TOPMOST => w.ex_style |= WS_EX_TOPMOST,
            // HWND_BOTTOM takes a topmost window out of its band (SDK,
            // SetWindowPos).
            HWND_NOTOPMOST | HWND_BOTTOM => w.ex_style &= !WS_EX_TOPMOST,
            _ => {}
        }
    }
    unlink(u, hwnd);
    let target = match after {
        HWND_TOPMOST | HWND_NOTOPMOST => HWND_TOP,
        a => a,
    };
    link(u, hwnd, target);
}

/// DefWindowProc's WM_WINDOWPOSCHANGED: WM_MOVE when the window moved or
/// its client area did since it was last reported, then WM_SIZE when its
/// size changed or the client area's did (Wine's notes: "WM_WINDOWPOSCHANGED
/// → DefWindowProc: WM_MOVE, WM_SIZE").
pub fn pos_changed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, flags: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(());
    };
    let (c, last) = (w.client, w.reported);
    let moved = flags & SWP_NOMOVE == 0 || last.is_some_and(|l| (l.left, l.top) != (c.left, c.top));
    let sized = flags & SWP_NOSIZE == 0
        || last.is_some_and(|l| (l.width(), l.height()) != (c.width(), c.height()));
    if moved {
        send_move(env, uc, hwnd)?;
    }
    if sized {
        send_size(env, uc, hwnd)?;
    }
    Ok(())
}

/// WM_MOVE with the client area's position in the parent's client
/// coordinates.
pub fn send_move(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(());
    };
    let c = w.client;
    let r = w.reported.get_or_insert(c);
    *r = Rect::new(c.left, c.top, c.left + r.width(), c.top + r.height());
    send(
        env,
        uc,
        hwnd,
        WM_MOVE,
        0,
        makelong(c.left as u16, c.top as u16),
    )?;
    Ok(())
}

/// WM_SIZE with the client size and the SIZE_ type.
pub fn send_size(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(());
    };
    let kind = if w.iconic() {
        SIZE_MINIMIZED
    } else if w.zoomed() {
        SIZE_MAXIMIZED
    } else {
        SIZE_RESTORED
    };
    let c = w.client;
    let r = w.reported.get_or_insert(c);
    *r = Rect::new(r.left, r.top, r.left + c.width(), r.top + c.height());
    send(
        env,
        uc,
        hwnd,
        WM_SIZE,
        kind,
        makelong(c.width() as u16, c.height() as u16),
    )?;
    Ok(())
}

// ------------------------------------------------------------ ShowWindow

/// Where a minimized window's icon goes: the first free spot along the
/// bottom of its parent's client area, icons SM_CXICONSPACING apart.
fn icon_position(env: &Env, hwnd: u16) -> Point {
    let u = &env.win16.user;
    let Some(w) = u.window(hwnd) else {
        return Point::default();
    };
    if let Some(p) = w.icon_pos {
        return p;
    }
    let parent = u.window(w.parent).map_or(u.screen(), |p| {
        Rect::new(0, 0, p.client.width(), p.client.height())
    });
    let (xs, ys) = (
        metric(env, super::metrics::SM_CXICONSPACING).max(1),
        metric(env, super::metrics::SM_CYICONSPACING).max(1),
    );
    let (ix, iy) = (fixed(SM_CXICON), fixed(SM_CYICON));
    let taken: Vec<Rect> = u
        .children(w.parent)
        .iter()
        .filter(|&&h| h != hwnd)
        .filter_map(|&h| u.window(h))
        .filter(|x| x.iconic())
        .map(|x| x.rect)
        .collect();
    let mut y = parent.bottom;
    for _ in 0..64 {
        let mut x = parent.left;
        while x <= parent.right - xs {
            let spot = Rect::new(x, y - ys, x + xs, y);
            if taken.iter().all(|r| r.intersect(&spot).is_none()) {
                return Point::new(x + (xs - ix) / 2, y - (ys + iy) / 2);
            }
            x += xs;
        }
        y -= ys;
    }
    Point::new(parent.left, parent.bottom - iy)
}

/// ShowWindow(hwnd, cmd) -> whether the window was visible (Wine's
/// 3.1-era ShowWindow with Windows' messages): WM_SHOWWINDOW when the
/// visibility changes, minimizing, maximizing and restoring through
/// SetWindowPos, and the WM_SIZE/WM_MOVE an overlapped window is still
/// owed from CreateWindow.
pub fn show_window(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, cmd: u16) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd).cloned() else {
        return Ok(false);
    };
    let was_visible = w.visible();
    let mut swp = 0u16;
    let (mut x, mut y, mut cx, mut cy) = (0, 0, 0, 0);
    match cmd {
        SW_HIDE => {
            if !was_visible {
                return Ok(false);
            }
            swp |= SWP_HIDEWINDOW | SWP_NOSIZE | SWP_NOMOVE | SWP_NOACTIVATE | SWP_NOZORDER;
        }
        SW_SHOWMINNOACTIVE | SW_SHOWMINIMIZED | SW_MINIMIZE => {
            if cmd == SW_SHOWMINNOACTIVE {
                swp |= SWP_NOACTIVATE | SWP_NOZORDER;
            }
            if cmd != SW_MINIMIZE {
                swp |= SWP_SHOWWINDOW;
            }
            swp |= SWP_FRAMECHANGED;
            if !w.iconic() {
                if super::hook::cbt(env, uc, HCBT_MINMAX, hwnd, u32::from(cmd))? {
                    return Ok(was_visible);
                }
                let p = icon_position(env, hwnd);
                if let Some(m) = env.win16.user.window_mut(hwnd) {
                    if m.zoomed() {
                        m.restore_max = true;
                        m.style &= !WS_MAXIMIZE;
                    } else {
                        m.restore_max = false;
                        m.normal = m.rect;
                    }
                    m.style |= WS_MINIMIZE;
                    m.icon_pos = Some(p);
                }
                (x, y, cx, cy) = (p.x, p.y, fixed(SM_CXICON), fixed(SM_CYICON));
                swp |= SWP_NOCOPYBITS;
            } else {
                swp |= SWP_NOSIZE | SWP_NOMOVE;
            }
        }
        SW_SHOWMAXIMIZED => {
            swp |= SWP_SHOWWINDOW | SWP_FRAMECHANGED;
            if !w.zoomed() {
                if super::hook::cbt(env, uc, HCBT_MINMAX, hwnd, u32::from(cmd))? {
                    return Ok(was_visible);
                }
                if w.iconic() && send(env, uc, hwnd, WM_QUERYOPEN, 0, 0)? == 0 {
                    swp |= SWP_NOSIZE | SWP_NOMOVE;
                } else {
                    if !w.iconic() {
                        if let Some(m) = env.win16.user.window_mut(hwnd) {
                            m.normal = m.rect;
                        }
                    }
                    let mm = min_max_info(env, uc, hwnd)?;
                    if let Some(m) = env.win16.user.window_mut(hwnd) {
                        if m.iconic() {
                            m.icon_pos = Some(Point::new(m.rect.left, m.rect.top));
                        }
                        m.style &= !WS_MINIMIZE;
                        m.style |= WS_MAXIMIZE;
                    }
                    (x, y, cx, cy) = (mm.max_pos.x, mm.max_pos.y, mm.max_size.x, mm.max_size.y);
                    swp |= SWP_NOCOPYBITS;
                }
            } else {
                swp |= SWP_NOSIZE | SWP_NOMOVE;
            }
        }
        SW_SHOWNA | SW_SHOW => {
            if cmd == SW_SHOWNA {
                swp |= SWP_NOACTIVATE | SWP_NOZORDER;
            }
            swp |= SWP_SHOWWINDOW | SWP_NOSIZE | SWP_NOMOVE;
        }
        _ => {
            // SW_SHOWNORMAL, SW_SHOWNOACTIVATE, SW_RESTORE (and any other
            // value, as SW_SHOWNORMAL).
            if cmd == SW_SHOWNOACTIVATE {
                swp |= SWP_NOZORDER;
                if env.win16.user.active != 0 {
                    swp |= SWP_NOACTIVATE;
                }
            }
            swp |= SWP_SHOWWINDOW;
            if w.iconic() || w.zoomed() {
                if super::hook::cbt(env, uc, HCBT_MINMAX, hwnd, u32::from(cmd))? {
                    return Ok(was_visible);
                }
                swp |= SWP_FRAMECHANGED;
                if w.iconic() && send(env, uc, hwnd, WM_QUERYOPEN, 0, 0)? == 0 {
                    swp |= SWP_NOSIZE | SWP_NOMOVE;
                } else if w.iconic() && w.restore_max {
                    let mm = min_max_info(env, uc, hwnd)?;
                    if let Some(m) = env.win16.user.window_mut(hwnd) {
                        m.icon_pos = Some(Point::new(m.rect.left, m.rect.top));
                        m.style &= !WS_MINIMIZE;
                        m.style |= WS_MAXIMIZE;
                    }
                    (x, y, cx, cy) = (mm.max_pos.x, mm.max_pos.y, mm.max_size.x, mm.max_size.y);
                    swp |= SWP_NOCOPYBITS;
                } else {
                    let n = w.normal;
                    if let Some(m) = env.win16.user.window_mut(hwnd) {
                        if m.iconic() {
                            m.icon_pos = Some(Point::new(m.rect.left, m.rect.top));
                        } else {
                            m.max_pos = Some(Point::new(m.rect.left, m.rect.top));
                        }
                        m.style &= !(WS_MINIMIZE | WS_MAXIMIZE);
                    }
                    (x, y, cx, cy) = (n.left, n.top, n.width(), n.height());
                    swp |= SWP_NOCOPYBITS;
                }
            } else {
                swp |= SWP_NOSIZE | SWP_NOMOVE;
            }
        }
    }
    let show = cmd != SW_HIDE;
    if show != was_visible {
        send(env, uc, hwnd, WM_SHOWWINDOW, u16::from(show), 0)?;
        if env.win16.user.app_window(hwnd).is_none() {
            return Ok(was_visible);
        }
    }
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(was_visible);
    };
    if w.is_child() {
        swp |= SWP_NOACTIVATE | SWP_NOZORDER;
    }
    if w.is_child()
        && !env.win16.user.shown(w.parent)
        && swp & SWP_NOSIZE != 0
        && swp & SWP_NOMOVE != 0
    {
        // A child of a hidden parent only changes its style.
        if let Some(m) = env.win16.user.window_mut(hwnd) {
            if show {
                m.style |= WS_VISIBLE;
            } else {
                m.style &= !WS_VISIBLE;
            }
        }
    } else {
        set_window_pos(env, uc, hwnd, HWND_TOP, x, y, cx, cy, swp)?;
    }
    if show {
        note_main_window(env, hwnd);
    }
    let owed = env.win16.user.app_window(hwnd).is_some_and(|w| w.need_size);
    if owed {
        if let Some(m) = env.win16.user.window_mut(hwnd) {
            m.need_size = false;
        }
        send_size(env, uc, hwnd)?;
        send_move(env, uc, hwnd)?;
    }
    Ok(was_visible)
}

/// The first top-level window a task shows is its main window (the
/// headless session's, message.rs). When that window is destroyed — a
/// startup dialog box, a splash window — the task's topmost other visible
/// top-level window takes its place (window.rs), or else the next one it
/// shows, and gets the session's WM_CLOSE in its turn, at most [`MAIN_WINDOWS`] windows a task, so that
/// a program that answers every WM_CLOSE with a new window still runs out
/// of them.
fn note_main_window(env: &mut Env, hwnd: u16) {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return;
    };
    if w.is_child() || !w.visible() {
        return;
    }
    let htask = w.htask;
    let q = env.win16.user.queue(htask);
    if q.main_window == 0 && q.main_windows < MAIN_WINDOWS {
        q.main_window = hwnd;
        q.main_windows += 1;
        q.close_sent = false;
    }
}

/// The task's main window was destroyed: `next` (0: none yet) takes its
/// place when the task may have one more.
pub(crate) fn main_window_gone(q: &mut super::Queue, next: u16) {
    q.main_window = 0;
    if next != 0 && q.main_windows < MAIN_WINDOWS {
        q.main_window = next;
        q.main_windows += 1;
        q.close_sent = false;
    }
}

/// How many main windows a task may have one after the other
/// (note_main_window).
pub const MAIN_WINDOWS: u8 = 8;

// ------------------------------------------------------- the functions

fn w16(v: u32) -> u16 {
    v as u16
}
fn i16v(v: u32) -> i32 {
    i32::from(v as u16 as i16)
}

/// USER.232 SetWindowPos(hWnd, hWndInsertAfter, X, Y, cx, cy, wFlags) ->
/// BOOL.
fn set_window_pos_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let ok = set_window_pos(
        env,
        uc,
        w16(a[0]),
        w16(a[1]),
        i16v(a[2]),
        i16v(a[3]),
        i16v(a[4]),
        i16v(a[5]),
        w16(a[6]),
    )?;
    Ok(u32::from(ok))
}

/// USER.56 MoveWindow(hWnd, X, Y, nWidth, nHeight, bRepaint): SetWindowPos
/// without z-order or activation (SWP_NOREDRAW unless bRepaint).
fn move_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let mut flags = SWP_NOZORDER | SWP_NOACTIVATE;
    if w16(a[5]) == 0 {
        flags |= SWP_NOREDRAW;
    }
    let ok = set_window_pos(
        env,
        uc,
        w16(a[0]),
        0,
        i16v(a[1]),
        i16v(a[2]),
        i16v(a[3]),
        i16v(a[4]),
        flags,
    )?;
    Ok(u32::from(ok))
}

/// USER.42 ShowWindow(hWnd, nCmdShow) -> whether it was visible.
fn show_window_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(show_window(env, uc, w16(a[0]), w16(a[1]))?))
}

/// USER.45 BringWindowToTop(hWnd): SetWindowPos(HWND_TOP, SWP_NOSIZE |
/// SWP_NOMOVE), which also activates a top-level window.
fn bring_window_to_top(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    set_window_pos(
        env,
        uc,
        w16(a[0]),
        HWND_TOP,
        0,
        0,
        0,
        0,
        SWP_NOSIZE | SWP_NOMOVE,
    )?;
    Ok(0)
}

/// USER.43 CloseWindow(hWnd): minimizes a top-level window (it is not
/// destroyed).
fn close_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = w16(a[0]);
    if env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| !w.is_child())
    {
        show_window(env, uc, hwnd, SW_MINIMIZE)?;
    }
    Ok(0)
}

/// USER.44 OpenIcon(hWnd) -> BOOL: restores a minimized window.
fn open_icon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = w16(a[0]);
    if !env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic()) {
        return Ok(0);
    }
    show_window(env, uc, hwnd, SW_SHOWNORMAL)?;
    Ok(1)
}

/// USER.31 IsIconic(hWnd).
fn is_iconic(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16
            .user
            .app_window(w16(a[0]))
            .is_some_and(|w| w.iconic()),
    ))
}

/// USER.272 IsZoomed(hWnd).
fn is_zoomed(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16
            .user
            .app_window(w16(a[0]))
            .is_some_and(|w| w.zoomed()),
    ))
}

/// USER.32 GetWindowRect(hWnd, lpRect): in screen coordinates.
fn get_window_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(r) = env.win16.user.window_rect_screen(w16(a[0])) {
        write_rect(uc, a[1], r);
    }
    Ok(0)
}

/// USER.33 GetClientRect(hWnd, lpRect): (0, 0, width, height).
fn get_client_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = env
        .win16
        .user
        .window(w16(a[0]))
        .map_or(Rect::default(), |w| {
            Rect::new(0, 0, w.client.width(), w.client.height())
        });
    write_rect(uc, a[1], r);
    Ok(0)
}

/// USER.102 AdjustWindowRect(lpRect, dwStyle, bMenu).
fn adjust_window_rect_api(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(r) = read_rect(uc, a[0]) {
        write_rect(uc, a[0], adjust_window_rect(r, a[1], w16(a[2]) != 0, 0));
    }
    Ok(1)
}

/// USER.454 AdjustWindowRectEx(lpRect, dwStyle, bMenu, dwExStyle).
fn adjust_window_rect_ex(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(r) = read_rect(uc, a[0]) {
        write_rect(uc, a[0], adjust_window_rect(r, a[1], w16(a[2]) != 0, a[3]));
    }
    Ok(1)
}

/// WINDOWPLACEMENT (16-bit): length, flags, showCmd, ptMinPosition,
/// ptMaxPosition, rcNormalPosition; 22 bytes.
const WINDOWPLACEMENT_SIZE: usize = 22;

/// USER.370 GetWindowPlacement(hWnd, lpwndpl) -> BOOL.
fn get_window_placement(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.app_window(w16(a[0])) else {
        return Ok(0);
    };
    let mut b = [0u8; WINDOWPLACEMENT_SIZE];
    put(&mut b, 0, WINDOWPLACEMENT_SIZE as u16);
    let cmd = if w.zoomed() {
        SW_SHOWMAXIMIZED
    } else if w.iconic() {
        SW_SHOWMINIMIZED
    } else {
        SW_SHOWNORMAL
    };
    put(&mut b, 4, cmd);
    let none = Point::new(-1, -1);
    b[6..10].copy_from_slice(&w.icon_pos.unwrap_or(none).to_bytes());
    b[10..14].copy_from_slice(&w.max_pos.unwrap_or(none).to_bytes());
    let normal = if w.iconic() || w.zoomed() {
        w.normal
    } else {
        w.rect
    };
    b[14..22].copy_from_slice(&normal.to_bytes());
    let (seg, off) = crate::win16::farptr::split(a[1]);
    Ok(u32::from(uc.write_seg(seg, off, &b).is_ok()))
}

/// USER.371 SetWindowPlacement(hWnd, lpwndpl) -> BOOL.
fn set_window_placement(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = w16(a[0]);
    let (seg, off) = crate::win16::farptr::split(a[1]);
    let mut b = [0u8; WINDOWPLACEMENT_SIZE];
    if uc.read_seg(seg, off, &mut b).is_err() || env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    const WPF_SETMINPOSITION: u16 = 1;
    const WPF_RESTORETOMAXIMIZED: u16 = 2;
    let (flags, cmd) = (get(&b, 2), get(&b, 4));
    let normal = Rect::from_bytes(&b[14..22]);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        if flags & WPF_SETMINPOSITION != 0 {
            w.icon_pos = Some(Point::from_bytes(&b[6..10]));
        }
        if flags & WPF_RESTORETOMAXIMIZED != 0 && cmd == SW_SHOWMINIMIZED {
            w.restore_max = true;
        }
        w.max_pos = Some(Point::from_bytes(&b[10..14]));
        w.normal = normal;
    }
    let plain = env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| !w.iconic() && !w.zoomed());
    if plain {
        set_window_pos(
            env,
            uc,
            hwnd,
            0,
            normal.left,
            normal.top,
            normal.width(),
            normal.height(),
            SWP_NOZORDER | SWP_NOACTIVATE,
        )?;
    }
    show_window(env, uc, hwnd, cmd)?;
    Ok(1)
}

/// USER.460 GetInternalWindowPos(hWnd, lprcWin, lpptIcon) -> showCmd:
/// GetWindowPlacement's normal rectangle and icon position (undocumented;
/// Wine's GetInternalWindowPos16 reads it so).
fn get_internal_window_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.app_window(w16(a[0])) else {
        return Ok(0);
    };
    let cmd = if w.zoomed() {
        SW_SHOWMAXIMIZED
    } else if w.iconic() {
        SW_SHOWMINIMIZED
    } else {
        SW_SHOWNORMAL
    };
    let normal = if w.iconic() || w.zoomed() {
        w.normal
    } else {
        w.rect
    };
    let icon = w.icon_pos.unwrap_or(Point::new(-1, -1));
    if a[1] != 0 {
        write_rect(uc, a[1], normal);
    }
    if a[2] != 0 {
        write_point(uc, a[2], icon);
    }
    Ok(u32::from(cmd))
}

/// USER.461 SetInternalWindowPos(hWnd, showCmd, lprcWin, lpptIcon):
/// SetWindowPlacement with the rectangle and icon position given
/// (undocumented; Wine's SetInternalWindowPos16).
fn set_internal_window_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = w16(a[0]);
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    let normal = read_rect(uc, a[2]);
    let icon = read_point(uc, a[3]);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        if let Some(p) = icon {
            w.icon_pos = Some(p);
        }
        if let Some(r) = normal {
            w.normal = r;
        }
    }
    let plain = env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| !w.iconic() && !w.zoomed());
    if let (true, Some(r)) = (plain, normal) {
        set_window_pos(
            env,
            uc,
            hwnd,
            0,
            r.left,
            r.top,
            r.width(),
            r.height(),
            SWP_NOZORDER | SWP_NOACTIVATE,
        )?;
    }
    show_window(env, uc, hwnd, w16(a[1]))?;
    Ok(0)
}

/// USER.170 ArrangeIconicWindows(hWnd) -> the height of one row of icons:
/// the minimized children go in rows along the bottom of the client area.
pub fn arrange_iconic_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let parent = w16(a[0]);
    let Some(p) = env.win16.user.window(parent) else {
        return Ok(0);
    };
    let area = Rect::new(0, 0, p.client.width(), p.client.height());
    let (xs, ys) = (
        metric(env, super::metrics::SM_CXICONSPACING).max(1),
        metric(env, super::metrics::SM_CYICONSPACING).max(1),
    );
    let (ix, iy) = (fixed(SM_CXICON), fixed(SM_CYICON));
    let icons: Vec<u16> = env
        .win16
        .user
        .children(parent)
        .into_iter()
        .filter(|&h| env.win16.user.window(h).is_some_and(|w| w.iconic()))
        .collect();
    let (mut x, mut y) = (area.left, area.bottom);
    for h in icons {
        let p = Point::new(x + (xs - ix) / 2, y - (ys + iy) / 2);
        if let Some(w) = env.win16.user.window_mut(h) {
            w.icon_pos = Some(p);
        }
        set_window_pos(
            env,
            uc,
            h,
            0,
            p.x,
            p.y,
            0,
            0,
            SWP_NOSIZE | SWP_NOZORDER | SWP_NOACTIVATE,
        )?;
        if x <= area.right - 2 * xs {
            x += xs;
        } else {
            x = area.left;
            y -= ys;
        }
    }
    Ok(ys as u32)
}

/// USER.265 ShowOwnedPopups(hWnd, fShow): the pop-ups `hWnd` owns are
/// hidden or shown again.
fn show_owned_popups(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (owner, show) = (w16(a[0]), w16(a[1]) != 0);
    let popups: Vec<u16> = env
        .win16
        .user
        .live()
        .filter(|w| w.owner == owner && w.style & WS_POPUP != 0)
        .map(|w| w.hwnd)
        .collect();
    for h in popups {
        let visible = env.win16.user.app_window(h).is_some_and(|w| w.visible());
        if visible != show {
            let status = if show {
                SW_PARENTOPENING
            } else {
                SW_PARENTCLOSING
            };
            send(
                env,
                uc,
                h,
                WM_SHOWWINDOW,
                u16::from(show),
                u32::from(status),
            )?;
            let flags = SWP_NOSIZE
                | SWP_NOMOVE
                | SWP_NOZORDER
                | SWP_NOACTIVATE
                | if show { SWP_SHOWWINDOW } else { SWP_HIDEWINDOW };
            set_window_pos(env, uc, h, 0, 0, 0, 0, 0, flags)?;
        }
    }
    Ok(0)
}

/// USER.52 AnyPopup() -> whether a visible top-level pop-up or owned
/// window exists.
fn any_popup(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let u = &env.win16.user;
    Ok(u32::from(top_level_windows(env).iter().any(|&h| {
        u.window(h)
            .is_some_and(|w| w.visible() && (w.owner != 0 || w.style & WS_POPUP != 0))
    })))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        28,
        "CLIENTTOSCREEN",
        &[Arg::W, Arg::L],
        client_to_screen,
    ),
    Api::new(
        "USER",
        29,
        "SCREENTOCLIENT",
        &[Arg::W, Arg::L],
        screen_to_client,
    ),
    Api::new(
        "USER",
        30,
        "WINDOWFROMPOINT",
        &[Arg::L],
        window_from_point_api,
    ),
    Api::new("USER", 31, "ISICONIC", &[Arg::W], is_iconic),
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
    Api::new("USER", 42, "SHOWWINDOW", &[Arg::W, Arg::W], show_window_api),
    Api::new("USER", 43, "CLOSEWINDOW", &[Arg::W], close_window),
    Api::new("USER", 44, "OPENICON", &[Arg::W], open_icon),
    Api::new(
        "USER",
        45,
        "BRINGWINDOWTOTOP",
        &[Arg::W],
        bring_window_to_top,
    ),
    Api::new("USER", 52, "ANYPOPUP", &[], any_popup),
    Api::new(
        "USER",
        56,
        "MOVEWINDOW",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        move_window,
    ),
    Api::new(
        "USER",
        102,
        "ADJUSTWINDOWRECT",
        &[Arg::L, Arg::L, Arg::W],
        adjust_window_rect_api,
    ),
    Api::new(
        "USER",
        170,
        "ARRANGEICONICWINDOWS",
        &[Arg::W],
        arrange_iconic_windows,
    ),
    Api::new(
        "USER",
        191,
        "CHILDWINDOWFROMPOINT",
        &[Arg::W, Arg::L],
        child_window_from_point,
    ),
    Api::new(
        "USER",
        232,
        "SETWINDOWPOS",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        set_window_pos_api,
    ),
    Api::new(
        "USER",
        258,
        "MAPWINDOWPOINTS",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        map_window_points,
    ),
    Api::new(
        "USER",
        259,
        "BEGINDEFERWINDOWPOS",
        &[Arg::W],
        begin_defer_window_pos,
    ),
    Api::new(
        "USER",
        260,
        "DEFERWINDOWPOS",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
        ],
        defer_window_pos,
    ),
    Api::new(
        "USER",
        261,
        "ENDDEFERWINDOWPOS",
        &[Arg::W],
        end_defer_window_pos,
    ),
    Api::new(
        "USER",
        265,
        "SHOWOWNEDPOPUPS",
        &[Arg::W, Arg::W],
        show_owned_popups,
    ),
    Api::new("USER", 272, "ISZOOMED", &[Arg::W], is_zoomed),
    Api::new(
        "USER",
        370,
        "GETWINDOWPLACEMENT",
        &[Arg::W, Arg::L],
        get_window_placement,
    ),
    Api::new(
        "USER",
        371,
        "SETWINDOWPLACEMENT",
        &[Arg::W, Arg::L],
        set_window_placement,
    ),
    Api::new(
        "USER",
        460,
        "GETINTERNALWINDOWPOS",
        &[Arg::W, Arg::L, Arg::L],
        get_internal_window_pos,
    ),
    Api::new(
        "USER",
        461,
        "SETINTERNALWINDOWPOS",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        set_internal_window_pos,
    ),
    Api::new(
        "USER",
        454,
        "ADJUSTWINDOWRECTEX",
        &[Arg::L, Arg::L, Arg::W, Arg::L],
        adjust_window_rect_ex,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_pos_layout() {
        let p = WindowPos {
            hwnd: 0x3000,
            after: 1,
            x: -5,
            y: 7,
            cx: 640,
            cy: 480,
            flags: SWP_NOZORDER,
        };
        assert_eq!(WindowPos::from_bytes(&p.to_bytes()), p);
        assert_eq!(p.to_bytes()[4..6], [0xFB, 0xFF]);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
