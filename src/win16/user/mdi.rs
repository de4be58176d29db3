//! The multiple-document interface: the MDICLIENT window's procedure,
//! DefFrameProc, DefMDIChildProc and TranslateMDISysAccel.
//!
//! As the SDK's "Multiple Document Interface" chapter and the WM_MDI*
//! message pages describe it: a frame window holds an MDICLIENT window
//! (created with a CLIENTCREATESTRUCT: the "Window" menu and the id of the
//! first child), which makes the MDI child windows (WM_MDICREATE with an
//! MDICREATESTRUCT; the child's WM_CREATE gets a pointer to it), keeps one
//! of them active (WM_MDIACTIVATE to the child losing activation and to
//! the child gaining it: wParam TRUE for the latter, lParam MAKELONG(the
//! child activated, the child deactivated)), maximizes, restores, cascades
//! and tiles them, and destroys them (WM_MDIDESTROY). Children are
//! WS_CHILD | WS_CLIPSIBLINGS | WS_CAPTION | WS_SYSMENU | WS_THICKFRAME |
//! WS_MINIMIZEBOX | WS_MAXIMIZEBOX, visible, ids from idFirstChild.
//! DefFrameProc keeps the client filling the frame's client area and the
//! focus in it, and activates the child a "Window" menu item names;
//! DefMDIChildProc activates its child when it gets the focus or
//! WM_CHILDACTIVATE, sizes a maximized child to the client area, and turns
//! SC_CLOSE, SC_NEXTWINDOW into WM_MDIDESTROY, WM_MDINEXT.
//! TranslateMDISysAccel turns Ctrl+F4 and Ctrl+F6 (and Ctrl+Tab) into the
//! active child's SC_CLOSE and SC_NEXTWINDOW.
//!
//! **The Window menu** (SDK, "Multiple Document Interface": the client
//! appends the children's titles to it; Wine's MDI_RefreshMenu gives the
//! form): after a separator, one item a child in creation order, `&1
//! Title` ... `&9 Title`, with the ids idFirstChild + 0 ... 8 (a child's
//! window id is kept equal to its item's: when one goes, those after it
//! move up), the active child's item checked; a tenth child and more
//! give one item, `&More Windows...` (idFirstChild + 9). The items follow
//! every creation, destruction, activation and change of a child's title.
//!
//! **The frame's caption** while a child is maximized is `Frame - [Child]`
//! (Wine's MDI_UpdateFrameText; what GetWindowText of the frame answers
//! too); the frame's own title comes back when no child is maximized.
//! DefFrameProc's WM_SETTEXT changes the frame's own title, and
//! DefMDIChildProc's WM_SETTEXT the child's, both shown in the composite.
//!
//! USER's MDICLIENT class has DefWindowProc's thunk as its procedure; the
//! MDICLIENT window's messages are handled here (message.rs sends them).

use std::collections::BTreeMap;

use super::message::send;
use super::metrics::{
    SM_CXVSCROLL, SM_CYCAPTION, SM_CYFRAME, SM_CYHSCROLL, SM_CYICONSPACING, fixed, metric,
};
use super::winpos::{set_window_pos, show_window};
use super::{
    CW_USEDEFAULT, Env, HWND_TOP, MAX_TEXT, Rect, SB_BOTH, SB_BOTTOM, SB_ENDSCROLL, SB_HORZ,
    SB_LINEDOWN, SB_LINEUP, SB_PAGEDOWN, SB_PAGEUP, SB_THUMBPOSITION, SB_TOP, SB_VERT,
    SC_NEXTWINDOW, SC_PREVWINDOW, SIZE_MAXIMIZED, SW_RESTORE, SW_SHOWMAXIMIZED, SWP_NOACTIVATE,
    SWP_NOMOVE, SWP_NOSIZE, SWP_NOZORDER, Stop, Uc, WM_CHILDACTIVATE, WM_CLOSE, WM_COMMAND,
    WM_CREATE, WM_GETMINMAXINFO, WM_HSCROLL, WM_MDIACTIVATE, WM_MDICASCADE, WM_MDICREATE,
    WM_MDIDESTROY, WM_MDIGETACTIVE, WM_MDIICONARRANGE, WM_MDIMAXIMIZE, WM_MDINEXT, WM_MDIRESTORE,
    WM_MDISETMENU, WM_MDITILE, WM_NCACTIVATE, WM_NCDESTROY, WM_SETFOCUS, WM_SETTEXT, WM_SIZE,
    WM_SYSCOMMAND, WM_VSCROLL, WS_CAPTION, WS_CHILD, WS_CLIPSIBLINGS, WS_DISABLED, WS_MAXIMIZE,
    WS_MAXIMIZEBOX, WS_MINIMIZEBOX, WS_SYSMENU, WS_THICKFRAME, WS_VISIBLE, get, get32, makelong,
    split,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};

/// An MDICLIENT window's state.
#[derive(Debug, Clone, Default)]
pub struct MdiClient {
    /// The "Window" menu (CLIENTCREATESTRUCT.hWindowMenu).
    pub window_menu: u16,
    /// The id of the first child (idFirstChild).
    pub first_id: u16,
    /// The children, in the order they were made.
    pub children: Vec<u16>,
    pub active: u16,
    /// The child that is maximized (0: none).
    pub maximized: u16,
    /// The Window menu holds the separator this client appended before
    /// its children's items.
    pub menu_separator: bool,
    /// The frame's own title while a maximized child's is shown in it
    /// ("Frame - [Child]").
    pub frame_title: Option<Vec<u8>>,
}

/// The MDI clients by window.
pub type MdiClients = BTreeMap<u16, MdiClient>;

/// The style every MDI child gets.
const MDI_CHILD_STYLE: u32 = WS_CHILD
    | WS_CLIPSIBLINGS
    | WS_CAPTION
    | WS_SYSMENU
    | WS_THICKFRAME
    | WS_MINIMIZEBOX
    | WS_MAXIMIZEBOX
    | WS_VISIBLE;

/// The private ordinal of the MDICLIENT class's window procedure
/// (api.rs, INTERNAL: Windows 3.1 did not export it).
pub const ORD_MDICLIENT: u16 = 0xF002;

/// COLOR_APPWORKSPACE: the MDI client's background.
pub const COLOR_APPWORKSPACE: u16 = 12;

/// Is this window an MDICLIENT?
pub fn is_client(env: &Env, hwnd: u16) -> bool {
    env.win16
        .user
        .window(hwnd)
        .is_some_and(|w| w.class.eq_ignore_ascii_case("MDICLIENT"))
}

/// The MDICLIENT class's window procedure, as USER's thunk calls it.
fn client_proc_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    client_proc(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3])
}

/// The procedure Windows 3.1 did not export (api.rs, INTERNAL).
pub static INTERNAL: &[Api] = &[Api::new(
    "USER",
    ORD_MDICLIENT,
    "MDICLIENTWNDPROC",
    &[Arg::W, Arg::W, Arg::W, Arg::L],
    client_proc_api,
)];

/// The MDI client a child belongs to (its parent), if it is one.
fn client_of(env: &Env, child: u16) -> Option<u16> {
    let p = env.win16.user.app_window(child)?.parent;
    env.win16.user.mdi.contains_key(&p).then_some(p)
}

/// Where the `n`-th default child goes, and its size (Wine's MDI
/// cascade: a caption and a frame apart, as many as fit in a third of the
/// client's height; icons keep their row free).
fn default_place(env: &Env, client: u16, n: usize) -> Rect {
    let u = &env.win16.user;
    let area = u.window(client).map_or(Rect::default(), |w| {
        Rect::new(0, 0, w.client.width(), w.client.height())
    });
    let spacing = fixed(SM_CYCAPTION) + fixed(SM_CYFRAME) - 1;
    let mut r = area;
    let icons = u
        .children(client)
        .iter()
        .any(|&h| u.window(h).is_some_and(|w| w.iconic()));
    let delta = if icons {
        metric(env, SM_CYICONSPACING)
    } else {
        0
    };
    if r.height() - delta >= spacing {
        r.bottom -= delta;
    }
    let stagger = (r.height() / (3 * spacing)).max(0);
    let pos = spacing * (n as i32 % (stagger + 1));
    Rect::with_size(
        pos,
        pos,
        (r.width() - stagger * spacing).max(1),
        (r.height() - stagger * spacing).max(1),
    )
}

/// Make `child` the active MDI child (0: none), with the WM_NCACTIVATE and
/// WM_MDIACTIVATE messages, the child on top, and the focus when the frame
/// is active.
pub fn activate(env: &mut Env, uc: &mut Uc<'_>, client: u16, child: u16) -> Result<(), Stop> {
    let Some(old) = env.win16.user.mdi.get(&client).map(|m| m.active) else {
        return Ok(());
    };
    if old == child {
        return Ok(());
    }
    if let Some(m) = env.win16.user.mdi.get_mut(&client) {
        m.active = child;
    }
    // The Window menu's check mark moves with the activation.
    window_menu_items(env, client);
    let lparam = makelong(child, old);
    if old != 0 && env.win16.user.app_window(old).is_some() {
        send(env, uc, old, WM_NCACTIVATE, 0, 0)?;
        send(env, uc, old, WM_MDIACTIVATE, 0, lparam)?;
    }
    if child == 0 || env.win16.user.app_window(child).is_none() {
        return Ok(());
    }
    set_window_pos(
        env,
        uc,
        child,
        HWND_TOP,
        0,
        0,
        0,
        0,
        SWP_NOSIZE | SWP_NOMOVE | SWP_NOACTIVATE,
    )?;
    // A maximized child gives way maximized: the old one is restored,
    // the new one maximized (Wine's MDI_SwitchActiveChild).
    if old != 0
        && env.win16.user.app_window(old).is_some_and(|w| w.zoomed())
        && env
            .win16
            .user
            .app_window(child)
            .is_some_and(|w| !w.zoomed())
    {
        show_window(env, uc, old, SW_RESTORE)?;
        show_window(env, uc, child, SW_SHOWMAXIMIZED)?;
    }
    send(env, uc, child, WM_NCACTIVATE, 1, 0)?;
    send(env, uc, child, WM_MDIACTIVATE, 1, lparam)?;
    let frame = env.win16.user.top_level(client);
    if frame != 0 && frame == env.win16.user.active {
        super::focus::set_focus(env, uc, child)?;
    }
    Ok(())
}

/// The next (or previous) child after `from` that can be activated.
fn next_child(env: &Env, client: u16, from: u16, back: bool) -> u16 {
    let u = &env.win16.user;
    let list: Vec<u16> = u
        .mdi
        .get(&client)
        .map(|m| m.children.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|&h| u.app_window(h).is_some_and(|w| w.visible() && w.enabled()))
        .collect();
    if list.is_empty() {
        return 0;
    }
    let i = list.iter().position(|&h| h == from);
    let n = list.len();
    match i {
        Some(i) if back => list[(i + n - 1) % n],
        Some(i) => list[(i + 1) % n],
        None => list[0],
    }
}

/// WM_MDICREATE: a new child from an MDICREATESTRUCT (szClass, szTitle,
/// hOwner, x, y, cx, cy, style, lParam). x = CW_USEDEFAULT places it at
/// the next cascade position (y ignored); cx and cy each take the default
/// size when CW_USEDEFAULT or 0. While a child is maximized, the new one
/// is made maximized and the old one restored.
fn create_child(env: &mut Env, uc: &mut Uc<'_>, client: u16, p: u32) -> Result<u32, Stop> {
    let Some(b) = crate::win16::farptr::read_bytes(uc, p, 26) else {
        return Ok(0);
    };
    let (m_first, count) = match env.win16.user.mdi.get(&client) {
        Some(m) => (m.first_id, m.children.len()),
        None => return Ok(0),
    };
    let style = get32(&b, 18) | MDI_CHILD_STYLE;
    let (x, y, cx, cy) = (get(&b, 10), get(&b, 12), get(&b, 14), get(&b, 16));
    let place = default_place(env, client, count);
    let (x, y) = if x == CW_USEDEFAULT {
        (place.left as u16, place.top as u16)
    } else {
        (x, y)
    };
    // The width and the height are each the default one when
    // CW_USEDEFAULT or 0 (Wine's MDICreateChild; OWL's windows leave the
    // height 0 beside a default width).
    let cx = if cx == CW_USEDEFAULT || cx == 0 {
        place.width() as u16
    } else {
        cx
    };
    let cy = if cy == CW_USEDEFAULT || cy == 0 {
        place.height() as u16
    } else {
        cy
    };
    let args = super::window::CreateArgs {
        ex_style: 0,
        class: get32(&b, 0),
        name: get32(&b, 4),
        style,
        x,
        y,
        cx,
        cy,
        parent: client,
        menu: m_first.wrapping_add(count as u16),
        hinstance: get(&b, 8),
        param: p,
    };
    // While a child is maximized, a new one comes maximized in its place
    // and the old one is restored (Wine's MDICreateChild).
    let was_max = env.win16.user.mdi.get(&client).map_or(0, |m| m.maximized);
    let was_max = if was_max != 0
        && env
            .win16
            .user
            .app_window(was_max)
            .is_some_and(|w| w.zoomed())
    {
        was_max
    } else {
        0
    };
    let child = super::window::create_window(env, uc, args)?;
    if child == 0 {
        return Ok(0);
    }
    if let Some(m) = env.win16.user.mdi.get_mut(&client) {
        m.children.push(child);
    }
    if was_max != 0 && env.win16.user.app_window(child).is_some() {
        show_window(env, uc, was_max, SW_RESTORE)?;
        show_window(env, uc, child, SW_SHOWMAXIMIZED)?;
    }
    activate(env, uc, client, child)?;
    refresh(env, uc, client)?;
    Ok(u32::from(child))
}

/// The Window menu's child items and the frame's caption after the
/// children changed (module doc).
fn refresh(env: &mut Env, uc: &mut Uc<'_>, client: u16) -> Result<(), Stop> {
    window_menu_items(env, client);
    frame_text(env, uc, client)
}

/// The children's items of the Window menu (module doc).
fn window_menu_items(env: &mut Env, client: u16) {
    use super::menu::{Content, MF_CHECKED, MF_SEPARATOR, MenuItem};
    let Some(m) = env.win16.user.mdi.get(&client).cloned() else {
        return;
    };
    // Window ids follow the order of creation.
    let mut items = Vec::new();
    for (k, &h) in m.children.iter().enumerate() {
        let id = m.first_id.wrapping_add(k as u16);
        if let Some(w) = env.win16.user.window_mut(h) {
            w.id = id;
            if k < 9 {
                let mut t = format!("&{} ", k + 1).into_bytes();
                t.extend_from_slice(&w.text);
                let flags = if h == m.active { MF_CHECKED } else { 0 };
                items.push(MenuItem::new(flags, id, Content::Text(t)));
            }
        }
    }
    if m.children.len() > 9 {
        let id = m.first_id.wrapping_add(9);
        items.push(MenuItem::new(
            0,
            id,
            Content::Text(b"&More Windows...".to_vec()),
        ));
    }
    let menus = &mut env.win16.user.menus;
    let hmenu = m.window_menu;
    if !menus.exists(hmenu) {
        return;
    }
    remove_items(menus, hmenu, m.first_id, m.menu_separator);
    let mut separator = false;
    if !items.is_empty() {
        separator = menus.insert(
            hmenu,
            None,
            MenuItem::new(MF_SEPARATOR, 0, Content::Separator),
        );
        for it in items {
            menus.insert(hmenu, None, it);
        }
    }
    if let Some(c) = env.win16.user.mdi.get_mut(&client) {
        c.menu_separator = separator;
    }
}

/// Take the children's items out of Window menu `hmenu`: those with the
/// ids from `first_id` (ten of them), and the separator before them when
/// the client appended one.
fn remove_items(menus: &mut super::menu::Menus, hmenu: u16, first_id: u16, separator: bool) {
    use super::menu::MF_SEPARATOR;
    if !menus.exists(hmenu) {
        return;
    }
    let ours = |id: u16| id.wrapping_sub(first_id) < 10;
    let n = menus.get(hmenu).map_or(0, |x| x.items.len());
    for i in (0..n).rev() {
        if menus
            .item(hmenu, i)
            .is_some_and(|it| it.popup == 0 && it.flags & MF_SEPARATOR == 0 && ours(it.id))
        {
            menus.take(hmenu, i);
        }
    }
    let last = menus.get(hmenu).map_or(0, |x| x.items.len());
    if separator
        && last > 0
        && menus
            .item(hmenu, last - 1)
            .is_some_and(|it| it.flags & MF_SEPARATOR != 0)
    {
        menus.take(hmenu, last - 1);
    }
}

/// The frame's caption: `Frame - [Child]` while a child is maximized, the
/// frame's own title otherwise (module doc).
fn frame_text(env: &mut Env, uc: &mut Uc<'_>, client: u16) -> Result<(), Stop> {
    let frame = env.win16.user.top_level(client);
    let Some(m) = env.win16.user.mdi.get(&client).cloned() else {
        return Ok(());
    };
    if frame == 0 || env.win16.user.window(frame).is_none() {
        return Ok(());
    }
    let max = m.maximized;
    let zoomed = max != 0 && env.win16.user.app_window(max).is_some_and(|w| w.zoomed());
    let current = env
        .win16
        .user
        .window(frame)
        .map_or(Vec::new(), |w| w.text.clone());
    let (text, saved) = if zoomed {
        let own = m.frame_title.clone().unwrap_or(current.clone());
        let child = env
            .win16
            .user
            .window(max)
            .map_or(Vec::new(), |w| w.text.clone());
        let mut t = own.clone();
        if !child.is_empty() {
            t.extend_from_slice(b" - [");
            t.extend_from_slice(&child);
            t.push(b']');
        }
        (t, Some(own))
    } else {
        match &m.frame_title {
            Some(own) => (own.clone(), None),
            None => return Ok(()),
        }
    };
    if let Some(c) = env.win16.user.mdi.get_mut(&client) {
        c.frame_title = saved;
    }
    if text != current {
        super::window::store_text(env, uc, frame, text);
        if env.win16.user.shown(frame) {
            let active = env.win16.user.window(frame).is_some_and(|w| w.nc_active);
            super::frame::draw(env, uc, frame, active)?;
        }
    }
    Ok(())
}

/// Arrange the children: cascade (each a caption lower) or tile (in a
/// grid filling the client area); minimized children are left alone.
fn arrange(env: &mut Env, uc: &mut Uc<'_>, client: u16, tile: bool) -> Result<(), Stop> {
    let list: Vec<u16> = env
        .win16
        .user
        .mdi
        .get(&client)
        .map(|m| m.children.clone())
        .unwrap_or_default();
    arrange_windows(env, uc, client, &list, tile)
}

/// Cascade or tile windows `list` (children of `client`) over its client
/// area; hidden and minimized ones are left alone (CascadeChildWindows,
/// TileChildWindows and the MDI client's arrangements).
pub fn arrange_windows(
    env: &mut Env,
    uc: &mut Uc<'_>,
    client: u16,
    list: &[u16],
    tile: bool,
) -> Result<(), Stop> {
    let u = &env.win16.user;
    let list: Vec<u16> = list
        .iter()
        .copied()
        .filter(|&h| u.app_window(h).is_some_and(|w| w.visible() && !w.iconic()))
        .collect();
    let area = u.window(client).map_or(Rect::default(), |w| {
        Rect::new(0, 0, w.client.width(), w.client.height())
    });
    let n = list.len() as i32;
    if n == 0 {
        return Ok(());
    }
    for (i, &h) in list.iter().enumerate() {
        let i = i as i32;
        let r = if tile {
            let cols = (1..).find(|c| c * c >= n).unwrap_or(1);
            let rows = (n + cols - 1) / cols;
            let (w, hgt) = (area.width() / cols, area.height() / rows);
            Rect::with_size((i % cols) * w, (i / cols) * hgt, w, hgt)
        } else {
            default_place(env, client, i as usize)
        };
        if env.win16.user.app_window(h).is_some_and(|w| w.zoomed()) {
            show_window(env, uc, h, SW_RESTORE)?;
        }
        set_window_pos(
            env,
            uc,
            h,
            0,
            r.left,
            r.top,
            r.width(),
            r.height(),
            SWP_NOZORDER | SWP_NOACTIVATE,
        )?;
    }
    Ok(())
}

/// The MDICLIENT window's procedure (module doc).
pub fn client_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    match msg {
        WM_CREATE => {
            // CREATESTRUCT.lpCreateParams -> CLIENTCREATESTRUCT.
            let ccs = crate::win16::farptr::read_bytes(uc, lparam, 4)
                .map(|b| get32(&b, 0))
                .and_then(|p| crate::win16::farptr::read_bytes(uc, p, 4));
            let (menu, first) = ccs.map_or((0, 0), |b| (get(&b, 0), get(&b, 2)));
            env.win16.user.mdi.insert(
                hwnd,
                MdiClient {
                    window_menu: menu,
                    first_id: first,
                    ..MdiClient::default()
                },
            );
            Ok(0)
        }
        WM_NCDESTROY => {
            env.win16.user.mdi.remove(&hwnd);
            super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        WM_MDICREATE => create_child(env, uc, hwnd, lparam),
        WM_MDIDESTROY => {
            let child = wparam;
            if client_of(env, child) != Some(hwnd) {
                return Ok(0);
            }
            let next = next_child(env, hwnd, child, false);
            if let Some(m) = env.win16.user.mdi.get_mut(&hwnd) {
                m.children.retain(|&h| h != child);
                if m.maximized == child {
                    m.maximized = 0;
                }
            }
            if env
                .win16
                .user
                .mdi
                .get(&hwnd)
                .is_some_and(|m| m.active == child)
            {
                let next = if next == child { 0 } else { next };
                activate(env, uc, hwnd, next)?;
                if next == 0
                    && let Some(m) = env.win16.user.mdi.get_mut(&hwnd)
                {
                    m.active = 0;
                }
            }
            super::window::destroy_window(env, uc, child)?;
            refresh(env, uc, hwnd)?;
            Ok(0)
        }
        WM_MDIACTIVATE => {
            if client_of(env, wparam) == Some(hwnd) {
                activate(env, uc, hwnd, wparam)?;
                refresh(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_MDIGETACTIVE => {
            let m = env.win16.user.mdi.get(&hwnd).cloned().unwrap_or_default();
            Ok(makelong(
                m.active,
                u16::from(m.maximized != 0 && m.maximized == m.active),
            ))
        }
        WM_MDINEXT => {
            let m = env.win16.user.mdi.get(&hwnd).cloned().unwrap_or_default();
            let from = if wparam != 0 { wparam } else { m.active };
            let next = next_child(env, hwnd, from, lparam != 0);
            activate(env, uc, hwnd, next)?;
            Ok(0)
        }
        WM_MDIMAXIMIZE => {
            show_window(env, uc, wparam, SW_SHOWMAXIMIZED)?;
            Ok(0)
        }
        WM_MDIRESTORE => {
            show_window(env, uc, wparam, SW_RESTORE)?;
            Ok(0)
        }
        WM_MDICASCADE => {
            arrange(env, uc, hwnd, false)?;
            Ok(1)
        }
        WM_MDITILE => {
            arrange(env, uc, hwnd, true)?;
            Ok(1)
        }
        WM_MDIICONARRANGE => {
            super::winpos::arrange_iconic_windows(env, uc, &[u32::from(hwnd)])?;
            Ok(0)
        }
        WM_MDISETMENU => {
            let frame = env.win16.user.top_level(hwnd);
            let old = env.win16.user.app_window(frame).map_or(0, |w| w.id);
            let (frame_menu, window_menu) = (lparam as u16, (lparam >> 16) as u16);
            if window_menu != 0
                && let Some(m) = env.win16.user.mdi.get(&hwnd).cloned()
                && m.window_menu != window_menu
            {
                // The children's items move to the new Window menu.
                remove_items(
                    &mut env.win16.user.menus,
                    m.window_menu,
                    m.first_id,
                    m.menu_separator,
                );
                if let Some(m) = env.win16.user.mdi.get_mut(&hwnd) {
                    m.window_menu = window_menu;
                    m.menu_separator = false;
                }
                window_menu_items(env, hwnd);
            }
            if frame_menu != 0 && frame != 0 {
                super::menu::set_menu(env, uc, &[u32::from(frame), u32::from(frame_menu)])?;
            }
            Ok(u32::from(old))
        }
        WM_SIZE => {
            let max = env.win16.user.mdi.get(&hwnd).map_or(0, |m| m.maximized);
            if max != 0 && env.win16.user.app_window(max).is_some_and(|w| w.zoomed()) {
                fit_maximized(env, uc, hwnd, max)?;
            }
            super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        WM_SETFOCUS => {
            let active = env.win16.user.mdi.get(&hwnd).map_or(0, |m| m.active);
            if active != 0
                && env
                    .win16
                    .user
                    .app_window(active)
                    .is_some_and(|w| !w.iconic())
            {
                super::focus::set_focus(env, uc, active)?;
            }
            Ok(0)
        }
        _ => super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

/// A maximized child fills the client area, its frame just outside.
fn fit_maximized(env: &mut Env, uc: &mut Uc<'_>, client: u16, child: u16) -> Result<(), Stop> {
    let Some(c) = env.win16.user.window(client) else {
        return Ok(());
    };
    let area = Rect::new(0, 0, c.client.width(), c.client.height());
    let style = env.win16.user.app_window(child).map_or(0, |w| w.style);
    let r = super::winpos::adjust(area, style & !WS_MAXIMIZE, false, 0);
    set_window_pos(
        env,
        uc,
        child,
        0,
        r.left,
        r.top,
        r.width(),
        r.height(),
        SWP_NOZORDER | SWP_NOACTIVATE,
    )?;
    Ok(())
}

/// USER.445 DefFrameProc(hWnd, hWndMDIClient, wMsg, wParam, lParam).
fn def_frame_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, client, msg, wparam, lparam) =
        (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16, a[4]);
    let dwp = |env: &mut Env, uc: &mut Uc<'_>| {
        super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam)
    };
    if client == 0 || env.win16.user.app_window(client).is_none() {
        return dwp(env, uc);
    }
    match msg {
        WM_COMMAND => {
            let m = env.win16.user.mdi.get(&client).cloned().unwrap_or_default();
            let i = wparam.wrapping_sub(m.first_id);
            if usize::from(i) < m.children.len() {
                send(
                    env,
                    uc,
                    client,
                    WM_MDIACTIVATE,
                    m.children[usize::from(i)],
                    0,
                )?;
                return Ok(0);
            }
            if wparam & 0xF000 == 0xF000 && m.maximized != 0 {
                // A system command of the maximized child's (its menu is
                // on the frame's menu bar).
                return send(env, uc, m.maximized, WM_SYSCOMMAND, wparam, lparam);
            }
            dwp(env, uc)
        }
        WM_SETFOCUS => {
            super::focus::set_focus(env, uc, client)?;
            Ok(0)
        }
        WM_SETTEXT
            if env
                .win16
                .user
                .mdi
                .get(&client)
                .is_some_and(|m| m.frame_title.is_some()) =>
        {
            // The frame's own title changes; the composite shows it.
            let t = super::bytes_arg(uc, lparam, MAX_TEXT);
            if let Some(m) = env.win16.user.mdi.get_mut(&client) {
                m.frame_title = Some(t);
            }
            frame_text(env, uc, client)?;
            Ok(1)
        }
        WM_SIZE => {
            let (cx, cy) = (i32::from(lparam as u16), i32::from((lparam >> 16) as u16));
            set_window_pos(
                env,
                uc,
                client,
                0,
                0,
                0,
                cx,
                cy,
                SWP_NOZORDER | SWP_NOACTIVATE,
            )?;
            Ok(0)
        }
        _ => dwp(env, uc),
    }
}

/// USER.447 DefMDIChildProc(hWnd, wMsg, wParam, lParam).
fn def_mdi_child_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    let dwp = |env: &mut Env, uc: &mut Uc<'_>| {
        super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam)
    };
    let Some(client) = client_of(env, hwnd) else {
        return dwp(env, uc);
    };
    match msg {
        WM_SETFOCUS | WM_CHILDACTIVATE => {
            if env
                .win16
                .user
                .mdi
                .get(&client)
                .is_some_and(|m| m.active != hwnd)
            {
                activate(env, uc, client, hwnd)?;
            }
            if msg == WM_SETFOCUS {
                return dwp(env, uc);
            }
            Ok(0)
        }
        WM_CLOSE => {
            send(env, uc, client, WM_MDIDESTROY, hwnd, 0)?;
            Ok(0)
        }
        WM_SYSCOMMAND => match wparam & 0xFFF0 {
            SC_NEXTWINDOW => {
                send(env, uc, client, WM_MDINEXT, hwnd, 0)?;
                Ok(0)
            }
            SC_PREVWINDOW => {
                send(env, uc, client, WM_MDINEXT, hwnd, 1)?;
                Ok(0)
            }
            _ => dwp(env, uc),
        },
        WM_GETMINMAXINFO => {
            // Maximized, the child fills the MDI client area.
            let Some(c) = env.win16.user.window(client) else {
                return Ok(0);
            };
            let area = Rect::new(0, 0, c.client.width(), c.client.height());
            let style = env.win16.user.app_window(hwnd).map_or(0, |w| w.style);
            let r = super::winpos::adjust(area, style & !WS_MAXIMIZE, false, 0);
            let (seg, off) = split(lparam);
            let _ = uc.write_u16_at(seg, off.wrapping_add(4), r.width() as u16);
            let _ = uc.write_u16_at(seg, off.wrapping_add(6), r.height() as u16);
            let _ = uc.write_u16_at(seg, off.wrapping_add(8), r.left as u16);
            let _ = uc.write_u16_at(seg, off.wrapping_add(10), r.top as u16);
            Ok(0)
        }
        WM_SIZE => {
            let m = env.win16.user.mdi.get_mut(&client);
            if let Some(m) = m {
                if wparam == SIZE_MAXIMIZED {
                    m.maximized = hwnd;
                } else if m.maximized == hwnd {
                    m.maximized = 0;
                }
            }
            frame_text(env, uc, client)?;
            dwp(env, uc)
        }
        WM_SETTEXT => {
            let r = dwp(env, uc)?;
            refresh(env, uc, client)?;
            Ok(r)
        }
        _ => dwp(env, uc),
    }
}

/// USER.198 CascadeChildWindows(hwndParent, wFlags) and USER.199
/// TileChildWindows(hwndParent, wFlags): the parent's visible children
/// that are not minimized (nor disabled, with MDITILE_SKIPDISABLED 2) are
/// cascaded or tiled over its client area (undocumented in 3.1; Wine's
/// CascadeChildWindows16 / TileChildWindows16, as the MDI client does).
fn arrange_children(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], tile: bool) -> Result<u32, Stop> {
    const MDITILE_SKIPDISABLED: u16 = 2;
    let parent = a[0] as u16;
    let skip_disabled = a[1] as u16 & MDITILE_SKIPDISABLED != 0;
    let u = &env.win16.user;
    let list: Vec<u16> = u
        .children(parent)
        .into_iter()
        .filter(|&h| {
            u.app_window(h)
                .is_some_and(|w| !skip_disabled || w.style & WS_DISABLED == 0)
        })
        .collect();
    arrange_windows(env, uc, parent, &list, tile)?;
    Ok(0)
}

fn cascade_child_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    arrange_children(env, uc, a, false)
}

fn tile_child_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    arrange_children(env, uc, a, true)
}

/// USER.462 CalcChildScroll(hWnd, wBar): the window's scroll bars (SB_HORZ,
/// SB_VERT or SB_BOTH 3) cover the union of its visible children and its
/// client area, the position where the client area is in it; with a
/// maximized child there are none (Wine's CalcChildScroll).
pub fn calc_child_scroll(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    which: u16,
) -> Result<(), Stop> {
    let u = &env.win16.user;
    let Some(w) = u.app_window(hwnd) else {
        return Ok(());
    };
    let client = Rect::new(0, 0, w.client.width(), w.client.height());
    let mut all = client;
    for c in u.children(hwnd) {
        let Some(cw) = u.app_window(c) else { continue };
        if cw.zoomed() {
            super::scroll::show_bars(env, uc, hwnd, SB_BOTH, false)?;
            return Ok(());
        }
        if cw.visible() {
            all = all.union(&cw.rect).unwrap_or(all);
        }
    }
    let h = (all.left, all.right - client.right, client.left - all.left);
    let v = (all.top, all.bottom - client.bottom, client.top - all.top);
    let n = |x: i32| x.clamp(-0x7FFF, 0x7FFF) as i16;
    if which == SB_HORZ || which == SB_BOTH {
        super::scroll::set_bar(env, uc, hwnd, SB_HORZ, n(h.0), n(h.1), n(h.2))?;
    }
    if which == SB_VERT || which == SB_BOTH {
        super::scroll::set_bar(env, uc, hwnd, SB_VERT, n(v.0), n(v.1), n(v.2))?;
    }
    Ok(())
}

fn calc_child_scroll_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    calc_child_scroll(env, uc, a[0] as u16, a[1] as u16)?;
    Ok(0)
}

/// USER.463 ScrollChildren(hWnd, uMsg, wParam, lParam): an MDI client's
/// WM_HSCROLL / WM_VSCROLL — the position moves by a scroll bar's width a
/// line, half the client area a page, to the thumb's position, or to an
/// end; the window's contents and children scroll with it; SB_ENDSCROLL
/// recalculates the bar (Wine's ScrollChildren).
fn scroll_children(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, code, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    let (which, length, shift) = match msg {
        WM_HSCROLL => (SB_HORZ, w.client.width() / 2, fixed(SM_CYHSCROLL)),
        WM_VSCROLL => (SB_VERT, w.client.height() / 2, fixed(SM_CXVSCROLL)),
        _ => return Ok(0),
    };
    let b = super::scroll::bar(env, hwnd, which).unwrap_or_default();
    let (min, max, cur) = (i32::from(b.min), i32::from(b.max), i32::from(b.pos));
    let new = match code {
        SB_LINEUP => cur - shift,
        SB_LINEDOWN => cur + shift,
        SB_PAGEUP => cur - length,
        SB_PAGEDOWN => cur + length,
        SB_THUMBPOSITION => i32::from(lparam as u16 as i16),
        SB_TOP => min,
        SB_BOTTOM => max,
        SB_ENDSCROLL => {
            calc_child_scroll(env, uc, hwnd, which)?;
            return Ok(0);
        }
        _ => return Ok(0),
    }
    .clamp(min.min(max), max.max(min));
    if let Some(b) = super::scroll::bar_mut(env, hwnd, which) {
        b.pos = new as i16;
    }
    let (dx, dy) = if which == SB_VERT {
        (0, cur - new)
    } else {
        (cur - new, 0)
    };
    super::paint::scroll_window(env, uc, hwnd, dx, dy, None, None, true, true, true)?;
    Ok(0)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        198,
        "CASCADECHILDWINDOWS",
        &[Arg::W, Arg::W],
        cascade_child_windows,
    ),
    Api::new(
        "USER",
        199,
        "TILECHILDWINDOWS",
        &[Arg::W, Arg::W],
        tile_child_windows,
    ),
    Api::new(
        "USER",
        462,
        "CALCCHILDSCROLL",
        &[Arg::W, Arg::W],
        calc_child_scroll_api,
    ),
    Api::new(
        "USER",
        463,
        "SCROLLCHILDREN",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        scroll_children,
    ),
    Api::new(
        "USER",
        445,
        "DEFFRAMEPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        def_frame_proc,
    ),
    Api::new(
        "USER",
        447,
        "DEFMDICHILDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        def_mdi_child_proc,
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
