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
//! **Device contexts** are GDI's (gdi/dc.rs, "The interface for USER"):
//! [`window_dc`] makes them with the window's origin and visible region,
//! [`refresh_dcs`] follows the windows as they change, and
//! [`release_window_dc`] gives them back (a common DC to GDI's DC cache,
//! where its handle stays a DC with default attributes, as Windows 3.1's
//! five cached DCs did).

use super::message::send;
use super::{
    CS_PARENTDC, DESKTOP, Env, Point, RDW_ALLCHILDREN, RDW_ERASE, RDW_ERASENOW, RDW_FRAME,
    RDW_INTERNALPAINT, RDW_INVALIDATE, RDW_NOCHILDREN, RDW_NOERASE, RDW_NOFRAME,
    RDW_NOINTERNALPAINT, RDW_UPDATENOW, RDW_VALIDATE, Rect, Region, SWP_NOACTIVATE, SWP_NOREDRAW,
    SWP_NOSIZE, SWP_NOZORDER, Stop, Uc, WM_CTLCOLOR, WM_ERASEBKGND, WM_ICONERASEBKGND, WM_NCPAINT,
    WM_PAINT, WS_CLIPCHILDREN, WS_CLIPSIBLINGS, event, put, read_rect, split, write_rect,
};
use crate::machine::Cpu;
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
pub fn expose(
    env: &mut Env,
    uc: &mut Uc<'_>,
    parent: u16,
    rect: Rect,
    keep: Option<Rect>,
    except: u16,
) {
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
        // The desktop paints its part at once with COLOR_BACKGROUND (no
        // wallpaper); the top-level windows under the area repaint theirs.
        paint_desktop(env, uc, &region);
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

/// The desktop was on the screen before any program ran: it is painted
/// once, when a Win16 session starts (and at the latest when the first
/// window is made).
pub fn show_desktop(env: &mut Env, uc: &mut Uc<'_>) {
    if !env.win16.user.desktop_painted {
        env.win16.user.desktop_painted = true;
        let screen = env.win16.user.screen();
        paint_desktop(env, uc, &Region::rect(screen));
    }
}

/// The desktop's part of `region` (screen coordinates) in the desktop
/// colour, COLOR_BACKGROUND, straight on the screen (Windows 3.1 paints
/// the desktop itself when windows uncover it).
pub fn paint_desktop(env: &mut Env, uc: &mut Uc<'_>, region: &Region) {
    let vis = visible_region(env, DESKTOP, true).intersect(region);
    if vis.is_empty() {
        return;
    }
    let Some(hdc) =
        crate::win16::gdi::dc::create_window_dc(&mut env.win16, uc, DESKTOP, Point::default(), vis)
    else {
        return;
    };
    let color = env.win16.user.sys.colors[usize::from(super::metrics::COLOR_BACKGROUND)];
    let screen = Rect::new(
        0,
        0,
        env.win16.gdi.display.width,
        env.win16.gdi.display.height,
    );
    env.win16
        .gdi
        .fill_rect(hdc, screen, crate::win16::gdi::dc::Fill::Color(color));
    crate::win16::gdi::dc::release_dc(&mut env.win16, uc, hdc);
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
        let update = env
            .win16
            .user
            .window(hwnd)
            .map(|w| w.update.clone())
            .unwrap_or_default();
        let dc = window_dc(env, uc, hwnd, DcKind::Client, Some(update));
        let msg = if env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic()) {
            WM_ICONERASEBKGND
        } else {
            WM_ERASEBKGND
        };
        let r = send(env, uc, hwnd, msg, dc, 0);
        release_window_dc(env, uc, dc);
        let r = r?;
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

/// A DC USER made for a window and has not released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcUse {
    pub hdc: u16,
    /// The window (0: the whole screen, GetDC(NULL)).
    pub hwnd: u16,
    pub kind: DcKind,
    /// While BeginPaint holds it: the update region it was clipped to
    /// (client coordinates).
    pub paint: Option<Region>,
    /// The window's own DC (CS_OWNDC, CS_CLASSDC): kept until the window
    /// (its class's) goes; ReleaseDC leaves it.
    pub own: bool,
    /// An own or class DC's entry in USER's heap (dce.rs); 0 for a
    /// common DC.
    pub dce: u16,
    /// A class DC's class (its block); 0 for another DC.
    pub class: u16,
}

/// Where a DC of `hwnd` has its origin and what it shows (screen
/// coordinates), clipped to `paint` (client coordinates) when given.
///
/// As Windows 3.1 made them (SDK, GetDC, GetWindowDC and "Class styles";
/// Wine's 3.1-era GetDCEx): GetDC(NULL) draws on the whole screen; a
/// window's DC shows its visible region (parents, the windows above it,
/// WS_CLIPCHILDREN's children); a CS_PARENTDC child draws with its
/// parent's visible area (unless the parent clips its children), its
/// origin its own.
fn dc_geometry(env: &Env, hwnd: u16, kind: DcKind, paint: Option<&Region>) -> (Point, Region) {
    let screen = Rect::new(
        0,
        0,
        env.win16.gdi.display.width,
        env.win16.gdi.display.height,
    );
    if hwnd == 0 {
        return (Point::default(), Region::rect(screen));
    }
    let u = &env.win16.user;
    let origin = dc_origin(env, hwnd, kind);
    let parent_dc = kind == DcKind::Client
        && u.class_of(hwnd).is_some_and(|c| c.style & CS_PARENTDC != 0)
        && u.window(hwnd).is_some_and(|w| {
            w.is_child()
                && u.window(w.parent)
                    .is_some_and(|p| p.style & WS_CLIPCHILDREN == 0)
        });
    let mut vis = if parent_dc {
        let parent = u.window(hwnd).map_or(0, |w| w.parent);
        if u.shown(hwnd) {
            visible_region(env, parent, true)
        } else {
            Region::empty()
        }
    } else {
        visible_region(env, hwnd, kind == DcKind::Client)
    };
    if let Some(p) = paint {
        let c = dc_origin(env, hwnd, DcKind::Client);
        vis = vis.intersect(&p.offset(c.x, c.y));
    }
    (origin, vis.intersect(&Region::rect(screen)))
}

/// The device context of a window: GetDC, GetWindowDC, GetDCEx and
/// BeginPaint all come here. A DC made by GDI (`gdi::dc::create_window_dc`)
/// with the window's origin and visible region — clipped to `paint`, the
/// update region, for BeginPaint — or, for the client area of a window of
/// a CS_OWNDC or CS_CLASSDC class, the window's own DC or its class's
/// (dce.rs), the same handle every time, its attributes kept between
/// uses. `hwnd` 0 is the screen. 0 when GDI's table is full.
pub fn window_dc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    kind: DcKind,
    paint: Option<Region>,
) -> u16 {
    let (origin, vis) = dc_geometry(env, hwnd, kind, paint.as_ref());
    if kind == DcKind::Client
        && let Some(hdc) = super::dce::own_dc(env, uc, hwnd)
    {
        if let Some(d) = env.win16.user.dcs.iter_mut().find(|d| d.hdc == hdc) {
            d.paint = paint;
        }
        env.win16.gdi.set_visible_region(hdc, origin, vis);
        return hdc;
    }
    let Some(hdc) = crate::win16::gdi::dc::create_window_dc(&mut env.win16, uc, hwnd, origin, vis)
    else {
        return 0;
    };
    env.win16.user.dcs.push(DcUse {
        hdc,
        hwnd,
        kind,
        paint,
        own: false,
        dce: 0,
        class: 0,
    });
    hdc
}

/// ReleaseDC and EndPaint: a common DC goes back to GDI; an own DC stays,
/// showing its whole window again. False when USER did not make `hdc`.
pub fn release_window_dc(env: &mut Env, uc: &mut Uc<'_>, hdc: u16) -> bool {
    let u = &mut env.win16.user;
    let Some(i) = u.dcs.iter().position(|d| d.hdc == hdc) else {
        return false;
    };
    if u.dcs[i].own {
        u.dcs[i].paint = None;
        if u.dcs[i].hwnd == 0 {
            return true;
        }
        let (hwnd, kind) = (u.dcs[i].hwnd, u.dcs[i].kind);
        let (origin, vis) = dc_geometry(env, hwnd, kind, None);
        env.win16.gdi.set_visible_region(hdc, origin, vis);
        return true;
    }
    u.dcs.remove(i);
    crate::win16::gdi::dc::release_dc(&mut env.win16, uc, hdc);
    true
}

/// After windows moved, appeared, went or changed order: every DC USER
/// handed out shows what its window shows now; the DCs of windows that
/// are gone go back to GDI.
pub fn refresh_dcs(env: &mut Env, uc: &mut Uc<'_>) {
    let uses = std::mem::take(&mut env.win16.user.dcs);
    let mut kept = Vec::with_capacity(uses.len());
    let mut gone = Vec::new();
    for d in uses {
        if d.class != 0 && d.hwnd == 0 {
            // A class DC no window has now shows nothing.
            kept.push(d);
            continue;
        }
        if d.hwnd != 0 && env.win16.user.window(d.hwnd).is_none() {
            gone.push(d.hwnd);
            kept.push(d);
            continue;
        }
        let (origin, vis) = dc_geometry(env, d.hwnd, d.kind, d.paint.as_ref());
        env.win16.gdi.set_visible_region(d.hdc, origin, vis);
        kept.push(d);
    }
    env.win16.user.dcs = kept;
    for hwnd in gone {
        super::dce::window_gone(env, uc, hwnd);
    }
}

/// The window of a DC [`window_dc`] gave, if it is one (0 for the
/// screen's).
pub fn dc_window(env: &Env, hdc: u16) -> Option<u16> {
    env.win16
        .user
        .dcs
        .iter()
        .find(|d| d.hdc == hdc)
        .map(|d| d.hwnd)
}

/// Fill what a DC may draw on (its clip box, in its logical coordinates)
/// with a brush — a brush handle or `COLOR_x + 1` — as DefWindowProc's
/// WM_ERASEBKGND does (Wine's DefWindowProc16: GetClipBox, then FillRect
/// with the class brush). False when the DC is not one GDI knows.
pub fn fill_clip_box(env: &mut Env, hdc: u16, brush: u16) -> bool {
    let gdi = &mut env.win16.gdi;
    let display = gdi.display;
    let Some(d) = gdi.dc_mut(hdc) else {
        return false;
    };
    let b = d.effective_clip(d.surface_rect(display)).bbox();
    if b.is_empty() {
        return true;
    }
    let (o, m) = (d.origin, d.state.map);
    let p = m.dp_to_lp(Point::new(b.left - o.x, b.top - o.y));
    let q = m.dp_to_lp(Point::new(b.right - o.x, b.bottom - o.y));
    let r = Rect::new(p.x.min(q.x), p.y.min(q.y), p.x.max(q.x), p.y.max(q.y));
    gdi.fill_rect(hdc, r, crate::win16::gdi::dc::Fill::Brush(brush))
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
    let rc = update.bbox().intersect(&client).unwrap_or_default();
    let dc = window_dc(env, uc, hwnd, DcKind::Client, Some(update));
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

/// EndPaint: the paint DC goes back, the caret comes back.
pub fn end_paint(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) {
    release_window_dc(env, uc, hdc);
    super::caret::show_after_paint(env, hwnd);
    event(uc, format!("paint {hwnd:04X} ends"));
    crate::win16::gdi::screen::after_paint(env);
}

/// USER.40 EndPaint(hWnd, lpPaint): the DC is PAINTSTRUCT's hdc (when the
/// structure cannot be read, the window's paint DCs).
fn end_paint_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let (seg, off) = split(a[1]);
    let hdc = match uc.read_u16_at(seg, off) {
        Ok(h) => h,
        Err(_) => env
            .win16
            .user
            .dcs
            .iter()
            .find(|d| d.hwnd == hwnd && d.paint.is_some())
            .map_or(0, |d| d.hdc),
    };
    end_paint(env, uc, hwnd, hdc);
    Ok(1)
}

/// USER.66 GetDC(hWnd): the client area's DC (the whole screen's for
/// NULL).
fn get_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    if h != 0 && env.win16.user.window(h).is_none() {
        return Ok(0);
    }
    Ok(u32::from(window_dc(env, uc, h, DcKind::Client, None)))
}

/// USER.67 GetWindowDC(hWnd): the whole window's DC (the screen's for
/// NULL).
fn get_window_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    if h != 0 && env.win16.user.window(h).is_none() {
        return Ok(0);
    }
    Ok(u32::from(window_dc(env, uc, h, DcKind::Window, None)))
}

/// USER.359 GetDCEx(hWnd, hrgnClip, flags): DCX_WINDOW for the whole
/// window; DCX_INTERSECTRGN clips to the region, DCX_EXCLUDERGN leaves it
/// out (SDK, GetDCEx).
fn get_dc_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const DCX_WINDOW: u32 = 0x0001;
    const DCX_EXCLUDERGN: u32 = 0x0040;
    const DCX_INTERSECTRGN: u32 = 0x0080;
    let h = a[0] as u16;
    if h != 0 && env.win16.user.window(h).is_none() {
        return Ok(0);
    }
    let kind = if a[2] & DCX_WINDOW != 0 {
        DcKind::Window
    } else {
        DcKind::Client
    };
    let hdc = window_dc(env, uc, h, kind, None);
    let clip = gdi_region(env, a[1] as u16);
    if hdc != 0
        && let Some(r) = clip
        && a[2] & (DCX_INTERSECTRGN | DCX_EXCLUDERGN) != 0
    {
        // The region is in the DC's own coordinates.
        let o = dc_origin(env, h, kind);
        let r = r.offset(o.x, o.y);
        if let Some(d) = env.win16.gdi.dc_mut(hdc) {
            d.vis = if a[2] & DCX_INTERSECTRGN != 0 {
                d.vis.intersect(&r)
            } else {
                d.vis.subtract(&r)
            };
        }
    }
    Ok(u32::from(hdc))
}

/// USER.68 ReleaseDC(hWnd, hDC) -> 1 when released (an own DC stays), 0
/// for a DC USER did not hand out.
fn release_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(release_window_dc(env, uc, a[1] as u16)))
}

/// USER.238 ExcludeUpdateRgn(hDC, hWnd) -> the kind of the DC's clip
/// region after: the window's update region (client coordinates, the DC's
/// device coordinates for its client DC) is taken out of what the DC may
/// draw on, so drawing outside WM_PAINT leaves alone what WM_PAINT will
/// draw (SDK, ExcludeUpdateRgn). ERROR (0) for a bad DC or window.
fn exclude_update_rgn(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdc, hwnd) = (a[0] as u16, a[1] as u16);
    let Some(update) = env.win16.user.window(hwnd).map(|w| w.update.clone()) else {
        return Ok(0);
    };
    let Some(d) = env.win16.gdi.dc_mut(hdc) else {
        return Ok(0);
    };
    let o = d.origin;
    let current = match &d.state.clip {
        Some(c) => c.clone(),
        None => d.vis.offset(-o.x, -o.y),
    };
    let clip = current.subtract(&update);
    let kind = crate::win16::gdi::region::kind(&clip.intersect(&d.vis.offset(-o.x, -o.y)));
    d.state.clip = Some(clip);
    Ok(u32::from(kind))
}

/// PaintRect's and FillWindow's brush: a brush handle, or a CTLCOLOR_
/// type (up to CTLCOLOR_STATIC 6) for the parent's WM_CTLCOLOR answer
/// (DefWindowProc's when the parent gives none) — Wine's PaintRect16.
fn control_brush(
    env: &mut Env,
    uc: &mut Uc<'_>,
    parent: u16,
    hwnd: u16,
    hdc: u16,
    brush: u16,
) -> Result<u16, Stop> {
    const CTLCOLOR_STATIC: u16 = 6;
    if brush > CTLCOLOR_STATIC {
        return Ok(brush);
    }
    if parent == 0 {
        return Ok(0);
    }
    let lparam = u32::from(hwnd) | u32::from(brush) << 16;
    let mut b = send(env, uc, parent, WM_CTLCOLOR, hdc, lparam)? as u16;
    if b == 0 {
        b = super::defwnd::def_window_proc(env, uc, parent, WM_CTLCOLOR, hdc, lparam)? as u16;
    }
    Ok(b)
}

/// USER.325 PaintRect(hwndParent, hWnd, hDC, hBrush, lpRect): the
/// rectangle filled with the brush (or the control colour type's brush;
/// undocumented, used by the controls).
fn paint_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(r) = read_rect(uc, a[4]) else {
        return Ok(0);
    };
    let (parent, hwnd, hdc) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let b = control_brush(env, uc, parent, hwnd, hdc, a[3] as u16)?;
    if b != 0 {
        env.win16
            .gdi
            .fill_rect(hdc, r, crate::win16::gdi::dc::Fill::Brush(b));
    }
    Ok(0)
}

/// USER.324 FillWindow(hwndParent, hWnd, hDC, hBrush): the window's
/// client area filled as PaintRect fills (undocumented).
fn fill_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (parent, hwnd, hdc) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let r = Rect::new(0, 0, w.client.width(), w.client.height());
    let b = control_brush(env, uc, parent, hwnd, hdc, a[3] as u16)?;
    if b != 0 {
        env.win16
            .gdi
            .fill_rect(hdc, r, crate::win16::gdi::dc::Fill::Brush(b));
    }
    Ok(0)
}

/// USER.326 GetControlBrush(hWnd, hDC, wCtlType) -> the brush the
/// window's parent (the window itself when it has none) gives for the
/// control colour type by WM_CTLCOLOR.
fn get_control_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, hdc, kind) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    let parent = if w.is_child() { w.parent } else { hwnd };
    Ok(u32::from(control_brush(env, uc, parent, hwnd, hdc, kind)?))
}

/// USER.117 WindowFromDC(hDC).
fn window_from_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(dc_window(env, a[0] as u16).unwrap_or(0)))
}

// ------------------------------------------------------ invalidation API

/// A GDI region object's area (None: not a region GDI knows).
pub fn gdi_region(env: &Env, hrgn: u16) -> Option<Region> {
    if hrgn == 0 {
        return None;
    }
    env.win16.gdi.objects.region(hrgn).cloned()
}

/// Set a GDI region object to `r` (GetUpdateRgn, ScrollWindowEx and
/// ScrollDC's hrgnUpdate). False when `hrgn` is not a region.
pub fn set_gdi_region(env: &mut Env, hrgn: u16, r: &Region) -> bool {
    match env.win16.gdi.objects.region_mut(hrgn) {
        Some(g) => {
            *g = r.clone();
            true
        }
        None => false,
    }
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
    let update = w.update.clone();
    if !set_gdi_region(env, a[1] as u16, &update) {
        return Ok(0);
    }
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
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

/// Move the screen's pixels of `src` (screen coordinates) by (dx, dy),
/// landing only inside `clip` and the visible region `vis`, as ScrollDC
/// and ScrollWindow move a window's bits. Returns the part of the
/// destination whose source could not be seen (it was under another
/// window or outside `src`), which Windows invalidates with what the scroll
/// uncovers (SDK, ScrollWindow: "the area uncovered"; Wine's
/// DCE/ScrollDC: the source's invisible part, moved, joins the update
/// region).
pub fn move_bits(env: &mut Env, src: Rect, clip: Rect, dx: i32, dy: i32, vis: &Region) -> Region {
    let dest = Region::rect(src.offset(dx, dy))
        .intersect(&Region::rect(clip))
        .intersect(vis);
    let good = Region::rect(src).intersect(vis).offset(dx, dy);
    let copy = dest.intersect(&good);
    if !copy.is_empty() {
        let screen = env.win16.gdi.screen();
        let b = copy.bbox();
        let saved: Vec<Vec<u32>> = (b.top..b.bottom)
            .map(|y| {
                (b.left..b.right)
                    .map(|x| screen.get(x - dx, y - dy).unwrap_or(0))
                    .collect()
            })
            .collect();
        for r in copy.rects() {
            for y in r.top..r.bottom {
                let row = &saved[(y - b.top) as usize];
                for x in r.left..r.right {
                    screen.set(x, y, row[(x - b.left) as usize]);
                }
            }
        }
    }
    dest.subtract(&good)
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
    let mut exposed = uncovered(src, clip, dx, dy);
    let o = dc_origin(env, hwnd, DcKind::Client);
    let vis = visible_region(env, hwnd, true);
    let hidden = move_bits(
        env,
        src.offset(o.x, o.y),
        clip.offset(o.x, o.y),
        dx,
        dy,
        &vis,
    );
    exposed = exposed.union(&hidden.offset(-o.x, -o.y));
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
    if a[5] != 0 {
        set_gdi_region(env, a[5] as u16, &r);
    }
    if a[6] != 0 {
        write_rect(uc, a[6], r.bbox());
    }
    Ok(region_kind(&r))
}

/// USER.221 ScrollDC(hDC, dx, dy, lprcScroll, lprcClip, hrgnUpdate,
/// lprcUpdate) -> TRUE: the rectangle the scroll uncovers (nothing is
/// invalidated).
fn scroll_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    let (dx, dy) = (i32::from(a[1] as u16 as i16), i32::from(a[2] as u16 as i16));
    // The DC's device origin and what it shows (its rectangles are taken
    // as device units: MM_TEXT, as ScrollDC's callers use it).
    let Some((origin, vis)) = env.win16.gdi.dc(hdc).map(|d| {
        let c = match &d.state.clip {
            Some(c) => d.vis.intersect(&c.offset(d.origin.x, d.origin.y)),
            None => d.vis.clone(),
        };
        (d.origin, c)
    }) else {
        return Ok(0);
    };
    let whole = vis.bbox().offset(-origin.x, -origin.y);
    let src = read_rect(uc, a[3]).unwrap_or(whole);
    let clip = read_rect(uc, a[4]).unwrap_or(src);
    let hidden = move_bits(
        env,
        src.offset(origin.x, origin.y),
        clip.offset(origin.x, origin.y),
        dx,
        dy,
        &vis,
    );
    let r = uncovered(src, clip, dx, dy).union(&hidden.offset(-origin.x, -origin.y));
    if a[5] != 0 {
        set_gdi_region(env, a[5] as u16, &r);
    }
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
    Api::new(
        "USER",
        238,
        "EXCLUDEUPDATERGN",
        &[Arg::W, Arg::W],
        exclude_update_rgn,
    ),
    Api::new(
        "USER",
        324,
        "FILLWINDOW",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        fill_window,
    ),
    Api::new(
        "USER",
        325,
        "PAINTRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        paint_rect,
    ),
    Api::new(
        "USER",
        326,
        "GETCONTROLBRUSH",
        &[Arg::W, Arg::W, Arg::W],
        get_control_brush,
    ),
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
