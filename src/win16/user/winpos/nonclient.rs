//! The non-client layout a window style implies (see the parent module).

use crate::win16::Env;
use crate::win16::geom::Rect;
use crate::win16::user::consts::{
    WS_BORDER, WS_CAPTION, WS_CHILD, WS_DLGFRAME, WS_EX_DLGMODALFRAME, WS_HSCROLL, WS_MINIMIZE,
    WS_POPUP, WS_THICKFRAME, WS_VSCROLL,
};
use crate::win16::user::metrics::{
    SM_CXBORDER, SM_CXDLGFRAME, SM_CXFRAME, SM_CXVSCROLL, SM_CYBORDER, SM_CYCAPTION, SM_CYDLGFRAME,
    SM_CYFRAME, SM_CYHSCROLL, SM_CYMENU, fixed,
};

/// Does the style draw a dialog frame (SDK/Wine HAS_DLGFRAME)?
pub fn has_dlgframe(style: u32, ex: u32) -> bool {
    ex & WS_EX_DLGMODALFRAME != 0 || (style & WS_DLGFRAME != 0 && style & WS_BORDER == 0)
}

/// Does the style draw a sizing frame (Wine HAS_THICKFRAME)?
pub fn has_thickframe(style: u32) -> bool {
    style & WS_THICKFRAME != 0 && style & (WS_DLGFRAME | WS_BORDER) != WS_DLGFRAME
}

/// The rectangle a window needs around a client rectangle `r` (module
/// doc): NC_AdjustRect.
pub fn adjust(r: Rect, style: u32, menu: bool, ex: u32) -> Rect {
    let mut r = r;
    if style & WS_MINIMIZE != 0 {
        return r;
    }
    if has_dlgframe(style, ex) {
        r = r.inflate(fixed(SM_CXDLGFRAME), fixed(SM_CYDLGFRAME));
    } else {
        if has_thickframe(style) {
            r = r.inflate(fixed(SM_CXFRAME), fixed(SM_CYFRAME));
        }
        if style & WS_BORDER != 0 {
            r = r.inflate(fixed(SM_CXBORDER), fixed(SM_CYBORDER));
        }
    }
    if style & WS_CAPTION == WS_CAPTION {
        r.top -= fixed(SM_CYCAPTION) - fixed(SM_CYBORDER);
    }
    if menu {
        r.top -= fixed(SM_CYMENU) + fixed(SM_CYBORDER);
    }
    if style & WS_VSCROLL != 0 {
        r.right += fixed(SM_CXVSCROLL) - 1 + i32::from(style & WS_BORDER == 0);
    }
    if style & WS_HSCROLL != 0 {
        r.bottom += fixed(SM_CYHSCROLL) - 1 + i32::from(style & WS_BORDER == 0);
    }
    r
}

/// AdjustWindowRectEx's rectangle: overlapped windows count a caption,
/// only the frame styles matter (scroll bars do not), and
/// WS_EX_DLGMODALFRAME replaces a thick frame.
pub fn adjust_window_rect(r: Rect, style: u32, menu: bool, ex: u32) -> Rect {
    let mut style = style;
    if style & (WS_POPUP | WS_CHILD) == 0 {
        style |= WS_CAPTION;
    }
    style &= WS_DLGFRAME | WS_BORDER | WS_THICKFRAME | WS_CHILD;
    let ex = ex & WS_EX_DLGMODALFRAME;
    if ex & WS_EX_DLGMODALFRAME != 0 {
        style &= !WS_THICKFRAME;
    }
    adjust(r, style, menu, ex)
}

/// The height of a window's menu bar, the line under it included: as the
/// menu code laid it out (menu/layout.rs: more than one line when its
/// items do not fit the width), one line (SM_CYMENU) until then.
pub fn menu_bar_height(env: &Env, hwnd: u16) -> i32 {
    let bar = env
        .win16
        .user
        .menus
        .bar_heights
        .get(&hwnd)
        .copied()
        .filter(|&h| h > 0)
        .unwrap_or(fixed(SM_CYMENU));
    bar + fixed(SM_CYBORDER)
}

/// DefWindowProc's WM_NCCALCSIZE: the client rectangle of window `hwnd`
/// if its window rectangle were `win` (both in the parent's client
/// coordinates).
pub fn calc_client(env: &Env, hwnd: u16, win: Rect) -> Rect {
    let Some(w) = env.win16.user.window(hwnd) else {
        return win;
    };
    if w.iconic() {
        return win;
    }
    let ins = adjust(Rect::default(), w.style, false, w.ex_style);
    let mut c = Rect::new(
        win.left - ins.left,
        win.top - ins.top,
        win.right - ins.right,
        win.bottom - ins.bottom,
    );
    if w.has_menu() {
        c.top += menu_bar_height(env, hwnd);
    }
    c.right = c.right.max(c.left);
    c.bottom = c.bottom.max(c.top);
    c
}

/// The rectangles of a window's non-client parts, in window coordinates
/// (0, 0 = its top left corner), for hit testing and drawing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NcParts {
    /// The window, and the area inside the frame.
    pub window: Rect,
    pub inside: Rect,
    pub caption: Option<Rect>,
    pub menu: Option<Rect>,
    /// The scroll bars: from the client area's edge, SM_CXVSCROLL
    /// (SM_CYHSCROLL) across, as long as the client area.
    pub vscroll: Option<Rect>,
    pub hscroll: Option<Rect>,
    pub client: Rect,
    /// The frame can be dragged to size the window.
    pub sizing: bool,
}

/// The non-client parts of a window.
pub fn nc_parts(env: &Env, hwnd: u16) -> Option<NcParts> {
    let w = env.win16.user.window(hwnd)?;
    let window = Rect::new(0, 0, w.rect.width(), w.rect.height());
    let client = w.client.offset(-w.rect.left, -w.rect.top);
    if w.iconic() {
        return Some(NcParts {
            window,
            inside: window,
            client: window,
            ..NcParts::default()
        });
    }
    // The frame alone: the caption is laid out below, and the scroll
    // bars are inside the frame, not part of it.
    let frame = adjust(
        Rect::default(),
        w.style & !(WS_CAPTION & !WS_BORDER) & !(WS_VSCROLL | WS_HSCROLL),
        false,
        w.ex_style,
    );
    let inside = Rect::new(
        -frame.left,
        -frame.top,
        window.right - frame.right,
        window.bottom - frame.bottom,
    );
    // What is left below the caption and the menu bar.
    let mut rest = inside;
    let caption = (w.style & WS_CAPTION == WS_CAPTION).then(|| {
        let c = Rect::new(
            rest.left,
            rest.top,
            rest.right,
            rest.top + fixed(SM_CYCAPTION) - fixed(SM_CYBORDER),
        );
        rest.top = c.bottom;
        c
    });
    let menu = w.has_menu().then(|| {
        let m = Rect::new(
            rest.left,
            rest.top,
            rest.right,
            rest.top + menu_bar_height(env, hwnd),
        );
        rest.top = m.bottom;
        m
    });
    // A scroll bar is SM_CXVSCROLL (SM_CYHSCROLL) across from the client
    // area's edge, its outer line on the border when there is one (Wine's
    // 3.1-era SCROLL_GetScrollBarRect); the frame code adds its end lines.
    let vscroll = (w.style & WS_VSCROLL != 0).then(|| {
        Rect::new(
            client.right,
            client.top,
            client.right + fixed(SM_CXVSCROLL),
            client.bottom,
        )
    });
    let hscroll = (w.style & WS_HSCROLL != 0).then(|| {
        Rect::new(
            client.left,
            client.bottom,
            client.right,
            client.bottom + fixed(SM_CYHSCROLL),
        )
    });
    Some(NcParts {
        window,
        inside,
        caption,
        menu,
        vscroll,
        hscroll,
        client,
        sizing: has_thickframe(w.style),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::user::consts::{WS_MAXIMIZEBOX, WS_MINIMIZEBOX, WS_SYSMENU};

    const OVERLAPPEDWINDOW: u32 =
        WS_CAPTION | WS_SYSMENU | WS_THICKFRAME | WS_MINIMIZEBOX | WS_MAXIMIZEBOX;

    #[test]
    fn non_client_layout_of_windows_3_1() {
        let z = Rect::default();
        // A sizable captioned window: frame 4 + border 1 on each side, the
        // caption 20 - 1 more on top.
        assert_eq!(
            adjust(z, OVERLAPPEDWINDOW, false, 0),
            Rect::new(-5, -24, 5, 5)
        );
        // A menu bar: 18 + the line under it.
        assert_eq!(
            adjust(z, OVERLAPPEDWINDOW, true, 0),
            Rect::new(-5, -43, 5, 5)
        );
        // Scroll bars overlap the border by one pixel.
        assert_eq!(
            adjust(z, OVERLAPPEDWINDOW | WS_VSCROLL | WS_HSCROLL, false, 0),
            Rect::new(-5, -24, 21, 21)
        );
        // A dialog frame (WS_DLGFRAME without WS_BORDER, or the modal
        // frame) replaces the others.
        assert_eq!(
            adjust(z, WS_POPUP | WS_DLGFRAME, false, 0),
            Rect::new(-4, -4, 4, 4)
        );
        assert_eq!(
            adjust(z, WS_POPUP | WS_CAPTION, false, WS_EX_DLGMODALFRAME),
            Rect::new(-4, -23, 4, 4)
        );
        // A child with a border, a scroll bar without a border.
        assert_eq!(
            adjust(z, WS_CHILD | WS_BORDER, false, 0),
            Rect::new(-1, -1, 1, 1)
        );
        assert_eq!(
            adjust(z, WS_CHILD | WS_VSCROLL, false, 0),
            Rect::new(0, 0, 17, 0)
        );
        // AdjustWindowRect: an overlapped window counts a caption; scroll
        // bars do not count.
        assert_eq!(
            adjust_window_rect(Rect::new(0, 0, 100, 50), WS_VSCROLL, false, 0),
            Rect::new(-1, -20, 101, 51)
        );
    }
}
