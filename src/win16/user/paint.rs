//! Painting: update regions (InvalidateRect, InvalidateRgn, ValidateRect,
//! ValidateRgn, RedrawWindow, GetUpdateRect, UpdateWindow), BeginPaint and
//! EndPaint, the window device contexts (GetDC, GetWindowDC, ReleaseDC),
//! scrolling a window's contents (ScrollWindow, ScrollWindowEx, ScrollDC),
//! and what GDI asks of USER: a window's visible region and DC origin.
//!
//! **Update regions** are kept per window in client coordinates, with two
//! flags: the background still needs erasing (an invalidation with bErase
//! or RDW_ERASE) and the frame needs WM_NCPAINT. Invalidating a window
//! invalidates its children's parts too unless RDW_NOCHILDREN, or unless
//! the window has WS_CLIPCHILDREN and RDW_ALLCHILDREN is not given (SDK,
//! RedrawWindow; Wine's RDW_UpdateRgns).
//!
//! **BeginPaint** (SDK, BeginPaint and PAINTSTRUCT; Wine's 3.1-era
//! BeginPaint): the caret is hidden; the update region is taken (the
//! window is valid again); a pending WM_NCPAINT is sent; PAINTSTRUCT's
//! rcPaint is the update region's bounding box in client coordinates; when
//! the background needs erasing, WM_ERASEBKGND is sent with the paint DC
//! and fErase is TRUE when the procedure did not erase it (returned 0).
//! EndPaint shows the caret again.
//!
//! **Device contexts.** Until GDI's window DCs exist, a window's DC is the
//! handle [`window_dc`] gives (one per window, the same for GetDC,
//! GetWindowDC and BeginPaint), and drawing into it is GDI's business.

use super::message::send;
use super::*;
use crate::win16::api::{Api, Arg};

// ------------------------------------------------------------ regions

/// Invalidate or validate part of a window as RedrawWindow's RDW_ flags
/// say (`region` in client coordinates; None: the whole client area),
/// children included as the module doc says. Nothing is sent.
pub fn redraw(env: &mut Env, hwnd: u16, region: Option<&Region>, flags: u16) {
    redraw_depth(env, hwnd, region, flags, 0);
}

fn redraw_depth(env: &mut Env, hwnd: u16, region: Option<&Region>, flags: u16, depth: u32) {
    let u = &mut env.win16.user;
    let Some(w) = u.window_mut(hwnd) else {
        return;
    };
    let client = Rect::new(0, 0, w.client.width(), w.client.height());
    let area = match region {
        Some(r) => r.intersect(&Region::rect(client)),
        None => Region::rect(client),
    };
    if flags & RDW_INVALIDATE != 0 {
        if !area.is_empty() {
            w.update = w.update.union(&area);
            if flags & RDW_ERASE != 0 {
                w.erase = true;
            }
        }
        if flags & RDW_FRAME != 0 && w.rect != w.client {
            w.frame = true;
        }
        if flags & RDW_INTERNALPAINT != 0 {
            w.internal_paint = true;
        }
    } else if flags & RDW_VALIDATE != 0 {
        w.update = w.update.subtract(&area);
        if w.update.is_empty() || flags & RDW_NOERASE != 0 {
            w.erase = false;
        }
        if flags & RDW_NOFRAME != 0 {
            w.frame = false;
        }
        if flags & RDW_NOINTERNALPAINT != 0 {
            w.internal_paint = false;
        }
    }
    let clip_children = w.style & WS_CLIPCHILDREN != 0;
    if flags & (RDW_INVALIDATE | RDW_VALIDATE) == 0
        || flags & RDW_NOCHILDREN != 0
        || (clip_children && flags & RDW_ALLCHILDREN == 0 && flags & RDW_INVALIDATE != 0)
        || depth > 32
    {
        return;
    }
    for c in u.children(hwnd) {
        let Some(cw) = env.win16.user.window(c) else {
            continue;
        };
        if !cw.visible() {
            continue;
        }
        let (rect, client) = (cw.rect, cw.client);
        let part = area.intersect(&Region::rect(rect));
        if part.is_empty() {
            continue;
        }
        let in_child = part.offset(-client.left, -client.top);
        let mut f = flags;
        let touches_frame = !part.subtract(&Region::rect(client)).is_empty();
        if !touches_frame {
            f &= !RDW_FRAME;
        }
        redraw_depth(env, c, Some(&in_child), f, depth + 1);
    }
}

/// Every window is invalid (SetSysColors, InvalidateRect(0, ...)).
pub fn invalidate_all(env: &mut Env) {
    let all: Vec<u16> = env.win16.user.live().map(|w| w.hwnd).collect();
    for h in all {
        redraw(
            env,
            h,
            None,
            RDW_INVALIDATE | RDW_ERASE | RDW_FRAME | RDW_NOCHILDREN,
        );
    }
}

/// The parent's area `rect` (in its client coordinates) became visible,
/// but for what `keep` still covers: it and the children under it (but
/// `except`) are invalid and need erasing.
pub fn expose(env: &mut Env, parent: u16, rect: Rect, keep: Option<Rect>, except: u16) {
    let Some(p) = env.win16.user.window(parent) else {
        return;
    };
    let mut region = Region::rect(rect);
    if let Some(k) = keep {
        region = region.subtract(&Region::rect(k));
    }
    if region.is_empty() {
        return;
    }
    if parent == DESKTOP {
        // The desktop has no procedure to paint it here; the top-level
        // windows under the area repaint their parts.
        for c in env.win16.user.children(DESKTOP) {
            if c == except {
                continue;
            }
            expose_child(env, c, &region);
        }
        return;
    }
    let _ = p;
    if let Some(w) = env.win16.user.window_mut(parent) {
        let client = Rect::new(0, 0, w.client.width(), w.client.height());
        let part = region.intersect(&Region::rect(client));
        if !part.is_empty() {
            w.update = w.update.union(&part);
            w.erase = true;
        }
    }
    for c in env.win16.user.children(parent) {
        if c == except {
            continue;
        }
        expose_child(env, c, &region);
    }
}

/// A child's part of an exposed area (the area in its parent's client
/// coordinates).
fn expose_child(env: &mut Env, c: u16, region: &Region) {
    let Some(cw) = env.win16.user.window(c) else {
        return;
    };
    if !cw.visible() {
        return;
    }
    let (rect, client) = (cw.rect, cw.client);
    let part = region.intersect(&Region::rect(rect));
    if part.is_empty() {
        return;
    }
    let flags = if part.subtract(&Region::rect(client)).is_empty() {
        RDW_INVALIDATE | RDW_ERASE | RDW_ALLCHILDREN
    } else {
        RDW_INVALIDATE | RDW_ERASE | RDW_ALLCHILDREN | RDW_FRAME
    };
    let in_child = part.offset(-client.left, -client.top);
    redraw(env, c, Some(&in_child), flags);
}

/// Erase now what is invalid (RDW_ERASENOW): WM_NCPAINT when the frame
/// needs painting, WM_ERASEBKGND when the background does (the erase stays
/// pending when the procedure returns 0), for the window and its visible
/// children.
pub fn erase_now(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    erase_now_depth(env, uc, hwnd, 0)
}

/// [`erase_now`] for the window alone (a parent whose area a child
/// uncovered).
pub fn erase_now_only(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    erase_now_depth(env, uc, hwnd, u32::MAX)
}

fn erase_now_depth(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, depth: u32) -> Result<(), Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(());
    };
    if !w.visible() {
        return Ok(());
    }
    if w.frame {
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.frame = false;
        }
        send(env, uc, hwnd, WM_NCPAINT, 1, 0)?;
    }
    let erase = env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| w.erase && !w.update.is_empty());
    if erase {
        let dc = window_dc(env, hwnd, DcKind::Client);
        let msg = if env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic()) {
            WM_ICONERASEBKGND
        } else {
            WM_ERASEBKGND
        };
        let r = send(env, uc, hwnd, msg, dc, 0)?;
        if r & 0xFFFF != 0
            && let Some(w) = env.win16.user.window_mut(hwnd)
        {
            w.erase = false;
        }
    }
    if depth < 32 {
        for c in env.win16.user.children(hwnd) {
            erase_now_depth(env, uc, c, depth + 1)?;
        }
    }
    Ok(())
}

/// WM_PAINT now for a window that needs it (and, with `children`, for its
/// children that do), after erasing.
pub fn update_now(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, children: bool) -> Result<(), Stop> {
    update_now_depth(env, uc, hwnd, children, 0)
}

fn update_now_depth(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    children: bool,
    depth: u32,
) -> Result<(), Stop> {
    if !env.win16.user.shown(hwnd) || hwnd == DESKTOP {
        return Ok(());
    }
    if env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| w.needs_paint())
    {
        send(env, uc, hwnd, WM_PAINT, 0, 0)?;
    }
    if children && depth < 32 {
        for c in env.win16.user.children(hwnd) {
            update_now_depth(env, uc, c, true, depth + 1)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------- the DCs

/// Which part of a window a DC draws in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DcKind {
    /// The client area (GetDC, BeginPaint).
    Client,
    /// The whole window (GetWindowDC).
    Window,
}

/// The device context of a window (GetDC, GetWindowDC and BeginPaint all
/// come here).
pub fn window_dc(_env: &Env, hwnd: u16, _kind: DcKind) -> u16 {
    0x5000 | (hwnd & 0x0FFF)
}

/// The window of a DC [`window_dc`] gave, if it is one.
pub fn dc_window(env: &Env, hdc: u16) -> Option<u16> {
    if hdc & 0xF000 != 0x5000 {
        return None;
    }
    let low = hdc & 0x0FFF;
    [0x3000 | low, 0x2000 | low]
        .into_iter()
        .find(|&h| env.win16.user.window(h).is_some())
}

/// The screen position of a window DC's origin: the client area's top left
/// corner, or the window's.
pub fn dc_origin(env: &Env, hwnd: u16, kind: DcKind) -> Point {
    let u = &env.win16.user;
    let r = match kind {
        DcKind::Client => u.client_rect_screen(hwnd),
        DcKind::Window => u.window_rect_screen(hwnd),
    };
    r.map_or(Point::default(), |r| Point::new(r.left, r.top))
}

/// What of a window can be seen on the screen, in screen coordinates: its
/// window (or client) rectangle within every parent's client area, less
/// the siblings above it (top-level windows always; children with
/// WS_CLIPSIBLINGS) and, for the client area of a WS_CLIPCHILDREN window,
/// its visible children. Empty for a hidden window.
pub fn visible_region(env: &Env, hwnd: u16, client: bool) -> Region {
    let u = &env.win16.user;
    if !u.shown(hwnd) {
        return Region::empty();
    }
    let rect = if client {
        u.client_rect_screen(hwnd)
    } else {
        u.window_rect_screen(hwnd)
    };
    let Some(rect) = rect else {
        return Region::empty();
    };
    let mut region = Region::rect(rect);
    let mut h = hwnd;
    for _ in 0..64 {
        if h == DESKTOP {
            break;
        }
        let Some(w) = u.window(h) else { break };
        let parent = w.parent;
        let clips = !w.is_child() || w.style & WS_CLIPSIBLINGS != 0;
        if let Some(pc) = u.client_rect_screen(parent) {
            region = region.intersect(&Region::rect(pc));
        }
        if clips {
            for s in u.children(parent) {
                if s == h {
                    break;
                }
                if let (Some(sw), Some(sr)) = (u.window(s), u.window_rect_screen(s))
                    && sw.visible()
                {
                    region = region.subtract(&Region::rect(sr));
                }
            }
        }
        h = parent;
    }
    if client
        && u.window(hwnd)
            .is_some_and(|w| w.style & WS_CLIPCHILDREN != 0)
    {
        for c in u.children(hwnd) {
            if let (Some(cw), Some(cr)) = (u.window(c), u.window_rect_screen(c))
                && cw.visible()
            {
                region = region.subtract(&Region::rect(cr));
            }
        }
    }
    region
}

// ---------------------------------------------------------- BeginPaint

/// PAINTSTRUCT (16-bit): hdc, fErase, rcPaint, fRestore, fIncUpdate,
/// rgbReserved[16]; 32 bytes.
pub const PAINTSTRUCT_SIZE: usize = 32;

/// BeginPaint (module doc): the DC and the PAINTSTRUCT.
pub fn begin_paint(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
) -> Result<(u16, [u8; PAINTSTRUCT_SIZE]), Stop> {
    let mut ps = [0u8; PAINTSTRUCT_SIZE];
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok((0, ps));
    };
    let update = std::mem::replace(&mut w.update, Region::empty());
    w.internal_paint = false;
    let erase = std::mem::take(&mut w.erase);
    let client = Rect::new(0, 0, w.client.width(), w.client.height());
    let frame = w.frame;
    super::caret::hide_for_paint(env, hwnd);
    if frame {
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            w.frame = false;
        }
        send(env, uc, hwnd, WM_NCPAINT, 1, 0)?;
    }
    let dc = window_dc(env, hwnd, DcKind::Client);
    let rc = update.bbox().intersect(&client).unwrap_or_default();
    let f_erase = if erase {
        let iconic = env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic());
        let msg = if iconic {
            WM_ICONERASEBKGND
        } else {
            WM_ERASEBKGND
        };
        send(env, uc, hwnd, msg, dc, 0)? & 0xFFFF == 0
    } else {
        false
    };
    put(&mut ps, 0, dc);
    put(&mut ps, 2, u16::from(f_erase));
    ps[4..12].copy_from_slice(&rc.to_bytes());
    event(
        uc,
        format!(
            "paint {hwnd:04X} begins: rcPaint ({}, {}, {}, {}) fErase {}",
            rc.left,
            rc.top,
            rc.right,
            rc.bottom,
            u16::from(f_erase)
        ),
    );
    Ok((dc, ps))
}

/// USER.39 BeginPaint(hWnd, lpPaint) -> HDC.
fn begin_paint_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if env.win16.user.window(hwnd).is_none() {
        return Ok(0);
    }
    let (dc, ps) = begin_paint(env, uc, hwnd)?;
    let (seg, off) = split(a[1]);
    if uc.write_seg(seg, off, &ps).is_err() {
        return Ok(0);
    }
    Ok(u32::from(dc))
}

/// EndPaint: the caret comes back.
pub fn end_paint(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    super::caret::show_after_paint(env, hwnd);
    event(uc, format!("paint {hwnd:04X} ends"));
    crate::win16::gdi::screen::after_paint(env);
}

/// USER.40 EndPaint(hWnd, lpPaint).
fn end_paint_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    end_paint(env, uc, a[0] as u16);
    Ok(1)
}

/// USER.66 GetDC(hWnd): the client area's DC (the screen's for 0).
fn get_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = match a[0] as u16 {
        0 => DESKTOP,
        h => h,
    };
    Ok(u32::from(window_dc(env, h, DcKind::Client)))
}

/// USER.67 GetWindowDC(hWnd): the whole window's DC.
fn get_window_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = match a[0] as u16 {
        0 => DESKTOP,
        h => h,
    };
    Ok(u32::from(window_dc(env, h, DcKind::Window)))
}

/// USER.359 GetDCEx(hWnd, hrgnClip, flags).
fn get_dc_ex(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const DCX_WINDOW: u32 = 0x0001;
    let h = match a[0] as u16 {
        0 => DESKTOP,
        h => h,
    };
    let kind = if a[2] & DCX_WINDOW != 0 {
        DcKind::Window
    } else {
        DcKind::Client
    };
    Ok(u32::from(window_dc(env, h, kind)))
}

/// USER.68 ReleaseDC(hWnd, hDC) -> 1.
fn release_dc(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// USER.117 WindowFromDC(hDC).
fn window_from_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(dc_window(env, a[0] as u16).unwrap_or(0)))
}

// ------------------------------------------------------ invalidation API

/// A GDI region's area, when GDI can tell (None: not a region GDI knows).
pub fn gdi_region(_env: &Env, _hrgn: u16) -> Option<Region> {
    None
}

/// USER.125 InvalidateRect(hWnd, lpRect, bErase): the rectangle (all of
/// the client area for NULL) joins the update region; hWnd 0 invalidates
/// every window.
fn invalidate_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let erase = if a[2] as u16 != 0 { RDW_ERASE } else { 0 };
    if hwnd == 0 {
        invalidate_all(env);
        return Ok(0);
    }
    let region = read_rect(uc, a[1]).map(Region::rect);
    redraw(env, hwnd, region.as_ref(), RDW_INVALIDATE | erase);
    Ok(0)
}

/// USER.126 InvalidateRgn(hWnd, hRgn, bErase).
fn invalidate_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let erase = if a[2] as u16 != 0 { RDW_ERASE } else { 0 };
    let region = gdi_region(env, a[1] as u16);
    redraw(env, hwnd, region.as_ref(), RDW_INVALIDATE | erase);
    Ok(0)
}

/// USER.127 ValidateRect(hWnd, lpRect): the rectangle (all for NULL)
/// leaves the update region.
fn validate_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let region = read_rect(uc, a[1]).map(Region::rect);
    redraw(env, a[0] as u16, region.as_ref(), RDW_VALIDATE);
    Ok(0)
}

/// USER.128 ValidateRgn(hWnd, hRgn).
fn validate_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let region = gdi_region(env, a[1] as u16);
    redraw(env, a[0] as u16, region.as_ref(), RDW_VALIDATE);
    Ok(0)
}

/// USER.190 GetUpdateRect(hWnd, lpRect, bErase) -> whether the update
/// region is not empty; the rectangle is its box in client coordinates.
/// With bErase the background is erased now.
fn get_update_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let client = Rect::new(0, 0, w.client.width(), w.client.height());
    let r = w.update.bbox().intersect(&client).unwrap_or_default();
    if a[1] != 0 {
        write_rect(uc, a[1], r);
    }
    if a[2] as u16 != 0 && w.erase {
        erase_now(env, uc, hwnd)?;
    }
    Ok(u32::from(!r.is_empty()))
}

/// NULLREGION, SIMPLEREGION, COMPLEXREGION.
fn region_kind(r: &Region) -> u32 {
    match r.kind() {
        crate::win16::geom::RegionKind::Null => 1,
        crate::win16::geom::RegionKind::Simple => 2,
        _ => 3,
    }
}

/// USER.237 GetUpdateRgn(hWnd, hRgn, bErase) -> the update region's kind
/// (NULLREGION, SIMPLEREGION, COMPLEXREGION).
fn get_update_rgn(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let kind = region_kind(&w.update);
    if a[2] as u16 != 0 && w.erase {
        erase_now(env, uc, hwnd)?;
    }
    Ok(kind)
}

/// USER.124 UpdateWindow(hWnd): WM_PAINT now if the window (or a child)
/// needs it.
fn update_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    update_now(env, uc, a[0] as u16, true)?;
    Ok(0)
}

/// USER.290 RedrawWindow(hWnd, lprcUpdate, hrgnUpdate, flags) -> TRUE:
/// invalidates or validates the rectangle, the region, or the whole client
/// area, then erases (RDW_ERASENOW) or paints (RDW_UPDATENOW) at once.
fn redraw_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = match a[0] as u16 {
        0 => DESKTOP,
        h => h,
    };
    let flags = a[3] as u16;
    let region = read_rect(uc, a[1])
        .map(Region::rect)
        .or_else(|| gdi_region(env, a[2] as u16));
    if hwnd == DESKTOP {
        for c in env.win16.user.children(DESKTOP) {
            redraw(env, c, None, flags & !RDW_NOCHILDREN);
        }
    } else {
        redraw(env, hwnd, region.as_ref(), flags);
    }
    let targets = if hwnd == DESKTOP {
        env.win16.user.children(DESKTOP)
    } else {
        vec![hwnd]
    };
    for h in targets {
        if flags & (RDW_ERASENOW | RDW_UPDATENOW) != 0 && env.win16.user.shown(h) {
            erase_now(env, uc, h)?;
        }
        if flags & RDW_UPDATENOW != 0 {
            update_now(env, uc, h, flags & RDW_ALLCHILDREN != 0)?;
        }
    }
    Ok(1)
}

/// USER.294 LockWindowUpdate(hWndLock) -> BOOL: drawing in the window is
/// held (one window at a time).
fn lock_window_update(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let u = &mut env.win16.user;
    if h != 0 && u.locked != 0 && u.locked != h {
        return Ok(0);
    }
    u.locked = h;
    Ok(1)
}

// ------------------------------------------------------------ scrolling

/// What scrolling `src` (client coordinates) by (dx, dy) within `clip`
/// uncovers.
fn uncovered(src: Rect, clip: Rect, dx: i32, dy: i32) -> Region {
    let Some(src) = src.intersect(&clip) else {
        return Region::empty();
    };
    let dst = src.offset(dx, dy).intersect(&clip);
    let mut r = Region::rect(src);
    if let Some(d) = dst {
        r = r.subtract(&Region::rect(d));
    }
    r
}

/// ScrollWindowEx's effect on the window's state (SDK, ScrollWindow): the
/// update region inside the scrolled area moves with it, what the scroll
/// uncovers becomes invalid (with erase when `erase`), the caret moves
/// with the bits, and with `children` the child windows move too. The
/// uncovered region (client coordinates) is returned.
#[allow(clippy::too_many_arguments)]
pub fn scroll_window(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    dx: i32,
    dy: i32,
    scroll: Option<Rect>,
    clip: Option<Rect>,
    invalidate: bool,
    erase: bool,
    children: bool,
) -> Result<Region, Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(Region::empty());
    };
    let client = Rect::new(0, 0, w.client.width(), w.client.height());
    let src = scroll
        .and_then(|r| r.intersect(&client))
        .unwrap_or(if scroll.is_some() {
            Rect::default()
        } else {
            client
        });
    let clip = clip
        .and_then(|r| r.intersect(&client))
        .unwrap_or(if clip.is_some() {
            Rect::default()
        } else {
            client
        });
    let exposed = uncovered(src, clip, dx, dy);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        let moving = w.update.intersect(&Region::rect(src));
        let moved = moving.offset(dx, dy).intersect(&Region::rect(clip));
        w.update = w.update.subtract(&moving).union(&moved);
        if invalidate && !exposed.is_empty() {
            w.update = w.update.union(&exposed);
            if erase {
                w.erase = true;
            }
        }
    }
    let caret = &mut env.win16.user.caret;
    if caret.hwnd == hwnd && src.contains(caret.pos) {
        caret.pos = Point::new(caret.pos.x + dx, caret.pos.y + dy);
    }
    if children {
        for c in env.win16.user.children(hwnd) {
            let Some(r) = env.win16.user.app_window(c).map(|w| w.rect) else {
                continue;
            };
            super::winpos::set_window_pos(
                env,
                uc,
                c,
                0,
                r.left + dx,
                r.top + dy,
                0,
                0,
                SWP_NOSIZE | SWP_NOZORDER | SWP_NOACTIVATE | SWP_NOREDRAW,
            )?;
        }
    }
    event(uc, format!("window {hwnd:04X} scrolled by ({dx}, {dy})"));
    Ok(exposed)
}

/// USER.61 ScrollWindow(hWnd, XAmount, YAmount, lpRect, lpClipRect): the
/// child windows move too when lpRect is NULL.
fn scroll_window_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (dx, dy) = (i32::from(a[1] as u16 as i16), i32::from(a[2] as u16 as i16));
    let scroll = read_rect(uc, a[3]);
    let clip = read_rect(uc, a[4]);
    scroll_window(
        env,
        uc,
        a[0] as u16,
        dx,
        dy,
        scroll,
        clip,
        true,
        true,
        a[3] == 0,
    )?;
    Ok(0)
}

/// USER.319 ScrollWindowEx(hWnd, dx, dy, prcScroll, prcClip, hrgnUpdate,
/// prcUpdate, fuScroll) -> the uncovered region's kind: SW_INVALIDATE
/// invalidates it, SW_ERASE erases it, SW_SCROLLCHILDREN moves the
/// children.
fn scroll_window_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const SW_SCROLLCHILDREN: u16 = 1;
    const SW_INVALIDATE: u16 = 2;
    const SW_ERASE: u16 = 4;
    let (dx, dy) = (i32::from(a[1] as u16 as i16), i32::from(a[2] as u16 as i16));
    let flags = a[7] as u16;
    let scroll = read_rect(uc, a[3]);
    let clip = read_rect(uc, a[4]);
    let r = scroll_window(
        env,
        uc,
        a[0] as u16,
        dx,
        dy,
        scroll,
        clip,
        flags & SW_INVALIDATE != 0,
        flags & SW_ERASE != 0,
        flags & SW_SCROLLCHILDREN != 0,
    )?;
    if a[6] != 0 {
        write_rect(uc, a[6], r.bbox());
    }
    Ok(region_kind(&r))
}

/// USER.221 ScrollDC(hDC, dx, dy, lprcScroll, lprcClip, hrgnUpdate,
/// lprcUpdate) -> TRUE: the rectangle the scroll uncovers (nothing is
/// invalidated).
fn scroll_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (dx, dy) = (i32::from(a[1] as u16 as i16), i32::from(a[2] as u16 as i16));
    let whole = dc_window(env, a[0] as u16)
        .and_then(|h| env.win16.user.window(h))
        .map_or(
            Rect::new(0, 0, i32::from(SCREEN.0), i32::from(SCREEN.1)),
            |w| Rect::new(0, 0, w.client.width(), w.client.height()),
        );
    let src = read_rect(uc, a[3]).unwrap_or(whole);
    let clip = read_rect(uc, a[4]).unwrap_or(src);
    let r = uncovered(src, clip, dx, dy);
    if a[6] != 0 {
        write_rect(uc, a[6], r.bbox());
    }
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 39, "BEGINPAINT", &[Arg::W, Arg::L], begin_paint_api),
    Api::new("USER", 40, "ENDPAINT", &[Arg::W, Arg::L], end_paint_api),
    Api::new(
        "USER",
        61,
        "SCROLLWINDOW",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        scroll_window_api,
    ),
    Api::new("USER", 66, "GETDC", &[Arg::W], get_dc),
    Api::new("USER", 67, "GETWINDOWDC", &[Arg::W], get_window_dc),
    Api::new("USER", 68, "RELEASEDC", &[Arg::W, Arg::W], release_dc),
    Api::new("USER", 117, "WINDOWFROMDC", &[Arg::W], window_from_dc),
    Api::new("USER", 124, "UPDATEWINDOW", &[Arg::W], update_window),
    Api::new(
        "USER",
        125,
        "INVALIDATERECT",
        &[Arg::W, Arg::L, Arg::W],
        invalidate_rect,
    ),
    Api::new(
        "USER",
        126,
        "INVALIDATERGN",
        &[Arg::W, Arg::W, Arg::W],
        invalidate_rgn,
    ),
    Api::new(
        "USER",
        127,
        "VALIDATERECT",
        &[Arg::W, Arg::L],
        validate_rect,
    ),
    Api::new("USER", 128, "VALIDATERGN", &[Arg::W, Arg::W], validate_rgn),
    Api::new(
        "USER",
        190,
        "GETUPDATERECT",
        &[Arg::W, Arg::L, Arg::W],
        get_update_rect,
    ),
    Api::new(
        "USER",
        221,
        "SCROLLDC",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::L, Arg::W, Arg::L],
        scroll_dc,
    ),
    Api::new(
        "USER",
        237,
        "GETUPDATERGN",
        &[Arg::W, Arg::W, Arg::W],
        get_update_rgn,
    ),
    Api::new(
        "USER",
        290,
        "REDRAWWINDOW",
        &[Arg::W, Arg::L, Arg::W, Arg::W],
        redraw_window,
    ),
    Api::new(
        "USER",
        294,
        "LOCKWINDOWUPDATE",
        &[Arg::W],
        lock_window_update,
    ),
    Api::new(
        "USER",
        319,
        "SCROLLWINDOWEX",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::L,
            Arg::W,
        ],
        scroll_window_ex,
    ),
    Api::new("USER", 359, "GETDCEX", &[Arg::W, Arg::W, Arg::L], get_dc_ex),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn scrolling_uncovers_the_far_side() {
        let client = Rect::new(0, 0, 100, 50);
        // Scrolling up by 10 uncovers the bottom 10 lines.
        let r = uncovered(client, client, 0, -10);
        assert_eq!(r.bbox(), Rect::new(0, 40, 100, 50));
        // Right by 30: the left 30 columns.
        assert_eq!(
            uncovered(client, client, 30, 0).bbox(),
            Rect::new(0, 0, 30, 50)
        );
        // Further than the area: all of it.
        assert_eq!(uncovered(client, client, 0, 500).bbox(), client);
    }
}
