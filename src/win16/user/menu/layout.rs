//! Where menu items lie: the menu bar's lines for a window width
//! ([`menu_bar_height`]), a pop-up's size, and the owner's measurements
//! of owner-drawn items (WM_MEASUREITEM).
//!
//! # The menu bar (Windows 3.1 on a VGA display)
//!
//! - Items go left to right from the bar's left edge. A text item is as
//!   wide as its text in the System font (each `&` prefix left out, `&&`
//!   counted as one `&`) plus [`BAR_ITEM_SPACE`] (6 pixels each side); an
//!   owner-drawn item as WM_MEASUREITEM said; a bitmap item as its
//!   bitmap.
//! - A text item is at least [`LINE_MIN`] high: SM_CYMENU = 18 pixels on
//!   a VGA display (the System font's cell is 16). A line is as high as
//!   its tallest item, and every item of a line gets the line's height.
//! - An item starts a new line when it has MF_MENUBREAK or MF_MENUBARBREAK
//!   (unless it is first on its line), or when it would end past the
//!   bar's right edge — unless it is first on its line, then it is cut at
//!   the edge. So a narrow window's bar takes several lines.
//! - The first MF_HELP item and the items after it that are on the last
//!   line move to the right edge, keeping their order.
//! - The bar takes the height of its lines plus SM_CYBORDER (1 pixel),
//!   the line drawn under it: a one-line bar takes SM_CYMENU + 1 = 19
//!   pixels of the window, what AdjustWindowRect counts for a menu (SDK:
//!   it "assumes a single-row menu"; Microsoft's "System Metrics
//!   Differences": SM_CYMENU does not count the line under the bar). A
//!   bar without items is one empty line high.
//!
//! These are the rules of Windows 3.1's menu layout as Wine's menu code
//! (MENU_MenuBarCalcSize, MENU_CalcItemSize) records them; the spacing
//! constants are Wine's, which reproduce the Windows 3.1 bar.
//!
//! # Pop-ups
//!
//! A pop-up is one column of items (MF_MENUBREAK / MF_MENUBARBREAK start
//! another column to the right). A text item is [`CHECK_MARK`]'s width for
//! the check mark column on each side of its text, the text before a `\t`,
//! and, when an item of the pop-up has a `\t`, [`TAB_SPACE`] and the widest
//! text after a `\t` (the accelerator column); an item that opens a pop-up
//! adds the arrow's width (that of the check mark). Text items are
//! [`LINE_MIN`] high, separators [`SEPARATOR_HEIGHT`]. The pop-up's
//! geometry matters headless only for the rectangles owner-drawn items
//! get; it is this project's approximation of the Windows 3.1 look.
//!
//! # Owner-drawn items
//!
//! An MF_OWNERDRAW item is measured by its owner: the first time its menu
//! is laid out after the item was made or changed, the window that owns
//! the menu gets WM_MEASUREITEM (wParam 0, lParam a MEASUREITEMSTRUCT with
//! CtlType ODT_MENU, itemID the item's id, itemData its data) and its
//! answer is kept. A menu bar is measured when it is set (SetMenu,
//! CreateWindow) or redrawn (DrawMenuBar), a pop-up when it opens.
//!
//! # Fonts
//!
//! Text is measured with the System font of the VGA font set (gdi/font.rs:
//! `vgasys.fon` from the font search path, else the documented VGA System
//! metrics, every character 7 pixels wide). A bitmap item is as large as
//! its GDI bitmap (on the bar; in a pop-up, with the check-mark columns).

use std::cell::RefCell;
use std::rc::Rc;

use super::MenuItem;
use super::{Content, MF_HELP, MF_MENUBARBREAK, MF_MENUBREAK, MF_OWNERDRAW, MF_POPUP};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::callback::CallArg;
use crate::win16::gdi::font::{FontCatalogue, FontResource, FontSearch, PhysFont};
use crate::win16::geom::Rect;
use crate::win16::user::call_wndproc;

/// SM_CYMENU on a VGA display: the height of a one-line menu bar without
/// the line under it.
pub const SM_CYMENU: i32 = 18;
/// SM_CYBORDER: the line under the menu bar.
pub const SM_CYBORDER: i32 = 1;
/// The least height of a text item.
pub const LINE_MIN: i32 = SM_CYMENU;
/// Space added to a menu-bar text item's width (6 pixels on each side).
pub const BAR_ITEM_SPACE: i32 = 12;
/// Space between a pop-up item's text and its accelerator text.
pub const TAB_SPACE: i32 = 8;
/// Height of a separator in a pop-up.
pub const SEPARATOR_HEIGHT: i32 = 8;
/// The standard check mark's size (GetMenuCheckMarkDimensions): that of
/// the display driver's check mark bitmap (OBM_CHECK), which the SDK
/// leaves to the driver ("depends on the current screen"); 14 × 14 is
/// this project's value for the VGA driver, not a documented one.
pub const CHECK_MARK: (i32, i32) = (14, 14);

/// WM_MEASUREITEM, ODT_MENU.
pub const WM_MEASUREITEM: u16 = 0x002C;
pub const ODT_MENU: u16 = 1;

/// MEASUREITEMSTRUCT (Windows 3.1 SDK): CtlType, CtlID, itemID,
/// itemWidth, itemHeight (words), itemData (dword): 14 bytes.
pub mod measureitem {
    pub const CTL_TYPE: usize = 0;
    pub const CTL_ID: usize = 2;
    pub const ITEM_ID: usize = 4;
    pub const ITEM_WIDTH: usize = 6;
    pub const ITEM_HEIGHT: usize = 8;
    pub const ITEM_DATA: usize = 10;
    pub const SIZE: usize = 14;
}

/// How wide and high menu text and bitmaps are.
pub trait Measure {
    /// The width of `text` as a menu shows it (module doc: prefixes).
    fn text_width(&self, text: &[u8]) -> i32;
    /// The height of a line of text.
    fn text_height(&self) -> i32;
    /// A bitmap item's (width, height).
    fn bitmap_size(&self, _hbitmap: u16) -> (i32, i32) {
        (0, 0)
    }
}

/// Text measured with a font; bitmaps with the sizes GDI gave.
pub struct FontMeasure {
    pub font: PhysFont,
    bitmaps: Vec<(u16, (i32, i32))>,
}

impl Measure for FontMeasure {
    fn text_width(&self, text: &[u8]) -> i32 {
        self.font.advances(&shown_text(text))
    }
    fn text_height(&self) -> i32 {
        self.font.height()
    }
    fn bitmap_size(&self, h: u16) -> (i32, i32) {
        self.bitmaps
            .iter()
            .find(|(b, _)| *b == h)
            .map_or((0, 0), |(_, s)| *s)
    }
}

/// The measure for menu `hmenu`: the System font, and the sizes of its
/// bitmap items' GDI bitmaps (0 × 0 for a handle that is no bitmap).
pub fn measure_for(env: &Env, hmenu: u16) -> FontMeasure {
    let mut m = system_font(&env.win16.user.menus);
    if let Some(menu) = env.win16.user.menus.get(hmenu) {
        for it in &menu.items {
            if let Content::Bitmap(h) = it.content
                && let Some(b) = env.win16.gdi.objects.bitmap(h)
            {
                m.bitmaps.push((h, (b.surface.width, b.surface.height)));
            }
        }
    }
    m
}

thread_local! {
    static SYSTEM_FONT: RefCell<Option<Rc<FontResource>>> = const { RefCell::new(None) };
}

/// Take the session's System font (GDI's catalogue, with `--fonts`) for
/// measuring menus, the first time a menu is made.
pub fn ensure_font(env: &mut Env) {
    if env.win16.user.menus.font.is_none() {
        let f = env.win16.gdi.fonts.catalogue().system();
        env.win16.user.menus.font = Some(f);
    }
}

/// The System font menus are measured with (module doc): the session's
/// ([`ensure_font`]); for menus made outside a session, the standard
/// search path's, loaded once.
pub fn system_font(menus: &super::Menus) -> FontMeasure {
    let res = menus.font.clone().unwrap_or_else(|| {
        SYSTEM_FONT.with(|f| {
            f.borrow_mut()
                .get_or_insert_with(|| FontCatalogue::load(&FontSearch::standard(None)).system())
                .clone()
        })
    });
    FontMeasure {
        font: PhysFont::plain(res),
        bitmaps: Vec::new(),
    }
}

/// A menu text as drawn: each `&` prefix dropped (`&&` is one `&`), and a
/// backspace (right-justification mark) dropped.
pub fn shown_text(t: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            b'&' if i + 1 < t.len() => {
                out.push(t[i + 1]);
                i += 2;
            }
            b'&' | 0x08 => i += 1,
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// An item's (width, height) on the menu bar.
fn bar_item_size(it: &MenuItem, m: &dyn Measure) -> (i32, i32) {
    if it.flags & MF_OWNERDRAW != 0 {
        let (w, h) = it.measured.unwrap_or((0, 0));
        return (i32::from(w), i32::from(h));
    }
    match &it.content {
        Content::Text(t) => (
            m.text_width(t) + BAR_ITEM_SPACE,
            m.text_height().max(LINE_MIN),
        ),
        Content::Separator => (0, SEPARATOR_HEIGHT),
        Content::Bitmap(h) => m.bitmap_size(*h),
        Content::OwnerDraw(_) => (0, 0),
    }
}

/// Lay out a menu bar's items for a bar `width` pixels wide (module doc):
/// each item's rectangle relative to the bar's top left; returns the
/// height of the bar's lines (without the line under the bar).
pub fn lay_out_bar(items: &mut [MenuItem], width: i32, m: &dyn Measure) -> i32 {
    let n = items.len();
    if n == 0 {
        return m.text_height().max(LINE_MIN);
    }
    let mut y = 0;
    let mut start = 0;
    let mut help = None;
    while start < n {
        let mut x = 0;
        let mut line = 0;
        let mut i = start;
        while i < n {
            let it = &items[i];
            if help.is_none() && it.flags & MF_HELP != 0 {
                help = Some(i);
            }
            if i != start && it.flags & (MF_MENUBREAK | MF_MENUBARBREAK) != 0 {
                break;
            }
            let (w, h) = bar_item_size(it, m);
            let mut right = x + w;
            if right > width {
                if i != start {
                    break;
                }
                right = width.max(x);
            }
            items[i].rect = Rect::new(x, y, right, y + h);
            line = line.max(h);
            x = right;
            i += 1;
        }
        for it in &mut items[start..i] {
            it.rect.bottom = y + line;
        }
        y += line;
        start = i;
    }
    if let Some(first) = help {
        let top = items[n - 1].rect.top;
        let mut edge = width;
        for it in items[first..].iter_mut().rev() {
            if it.rect.top != top || it.rect.right >= edge {
                break;
            }
            let w = it.rect.right - it.rect.left;
            it.rect.right = edge;
            it.rect.left = edge - w;
            edge = it.rect.left;
        }
    }
    y
}

/// The text of a pop-up item before and after its `\t`.
fn split_tab(t: &[u8]) -> (&[u8], Option<&[u8]>) {
    match t.iter().position(|&c| c == b'\t') {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    }
}

/// Lay out a pop-up's items (module doc): their rectangles relative to the
/// pop-up's top left; returns its (width, height).
pub fn lay_out_popup(items: &mut [MenuItem], m: &dyn Measure) -> (i32, i32) {
    let (check, _) = CHECK_MARK;
    // The accelerator column's width, over the whole pop-up.
    let accel = items
        .iter()
        .filter_map(|it| it.text().and_then(|t| split_tab(t).1))
        .map(|a| m.text_width(a))
        .max();
    let mut sizes = Vec::with_capacity(items.len());
    for it in items.iter() {
        let size = if it.flags & MF_OWNERDRAW != 0 {
            let (w, h) = it.measured.unwrap_or((0, 0));
            (i32::from(w), i32::from(h))
        } else {
            match &it.content {
                Content::Text(t) => {
                    let (left, _) = split_tab(t);
                    let mut w = 2 * check + m.text_width(left);
                    if let Some(a) = accel {
                        w += TAB_SPACE + a;
                    }
                    if it.flags & MF_POPUP != 0 {
                        w += check;
                    }
                    (w, m.text_height().max(LINE_MIN))
                }
                Content::Separator => (0, SEPARATOR_HEIGHT),
                Content::Bitmap(h) => {
                    let (w, bh) = m.bitmap_size(*h);
                    (2 * check + w, bh)
                }
                Content::OwnerDraw(_) => (2 * check, 0),
            }
        };
        sizes.push(size);
    }
    // Columns: each starts at a break; its items get the column's width.
    let (mut x, mut width, mut height) = (0, 0, 0);
    let mut start = 0;
    while start < items.len() {
        let mut end = start + 1;
        while end < items.len() && items[end].flags & (MF_MENUBREAK | MF_MENUBARBREAK) == 0 {
            end += 1;
        }
        let col = sizes[start..end].iter().map(|s| s.0).max().unwrap_or(0);
        let mut y = 0;
        for (it, &(_, h)) in items[start..end].iter_mut().zip(&sizes[start..end]) {
            it.rect = Rect::new(x, y, x + col, y + h);
            y += h;
        }
        x += col;
        width = x;
        height = height.max(y);
        start = end;
    }
    (width, height)
}

/// The height a menu bar takes from a window whose bar is `width` pixels
/// wide (module doc: its lines and the line under it); 0 when `hmenu` is
/// not a menu. The window manager subtracts it from the client area.
pub fn menu_bar_height(env: &Env, hmenu: u16, width: i32) -> i32 {
    let menus = &env.win16.user.menus;
    let Some(menu) = menus.get(hmenu) else {
        return 0;
    };
    let mut items = menu.items.clone();
    lay_out_bar(&mut items, width, &measure_for(env, hmenu)) + SM_CYBORDER
}

/// Lay out window `hwnd`'s menu bar `hmenu` for a bar `width` pixels wide,
/// keeping each item's rectangle: the bar's height as
/// [`menu_bar_height`] gives it.
pub fn lay_out_window_bar(env: &mut Env, hmenu: u16, width: i32) -> i32 {
    let font = measure_for(env, hmenu);
    let Some(menu) = env.win16.user.menus.get_mut(hmenu) else {
        return 0;
    };
    let h = lay_out_bar(&mut menu.items, width, &font) + SM_CYBORDER;
    menu.size = Some((width, h));
    h
}

/// Ask window `owner` for the size of every owner-drawn item of menu
/// `hmenu` not measured yet (module doc).
pub fn measure_owner_drawn(
    env: &mut Env,
    uc: &mut Uc<'_>,
    owner: u16,
    hmenu: u16,
) -> Result<(), Stop> {
    use measureitem as mi;
    let todo: Vec<(usize, u16, u32)> = match env.win16.user.menus.get(hmenu) {
        Some(m) => m
            .items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.flags & MF_OWNERDRAW != 0 && it.measured.is_none())
            .map(|(i, it)| {
                let data = match it.content {
                    Content::OwnerDraw(d) => d,
                    _ => 0,
                };
                (i, it.id, data)
            })
            .collect(),
        None => return Ok(()),
    };
    for (i, id, data) in todo {
        let mut mis = [0u8; mi::SIZE];
        mis[mi::CTL_TYPE..mi::CTL_TYPE + 2].copy_from_slice(&ODT_MENU.to_le_bytes());
        mis[mi::ITEM_ID..mi::ITEM_ID + 2].copy_from_slice(&id.to_le_bytes());
        mis[mi::ITEM_DATA..mi::ITEM_DATA + 4].copy_from_slice(&data.to_le_bytes());
        let (_, back) = call_wndproc(env, uc, owner, WM_MEASUREITEM, 0, CallArg::Scratch, &mis)?;
        let word = |o: usize| u16::from_le_bytes([back[o], back[o + 1]]);
        let size = (word(mi::ITEM_WIDTH), word(mi::ITEM_HEIGHT));
        // The owner may have changed the menu meanwhile: the item is
        // measured only if it is still the one asked about.
        if let Some(it) = env
            .win16
            .user
            .menus
            .get_mut(hmenu)
            .and_then(|m| m.items.get_mut(i))
            .filter(|it| it.id == id && it.flags & MF_OWNERDRAW != 0)
        {
            it.measured = Some(size);
        }
        if let Some(m) = env.win16.user.menus.get_mut(hmenu) {
            m.size = None;
        }
    }
    Ok(())
}

/// The bar's width for window `hwnd`: the window's width inside its
/// frame.
fn bar_width(env: &Env, hwnd: u16) -> i32 {
    crate::win16::user::winpos::nc_parts(env, hwnd).map_or(0, |p| p.inside.width())
}

/// The frame of `hwnd` changed with its menu bar (SetMenu, DrawMenuBar):
/// the bar is laid out again for the window's width and the window manager
/// recalculates the frame (SetWindowPos with SWP_FRAMECHANGED: WM_NCCALCSIZE,
/// then WM_SIZE when the client area's height changed with the bar's).
pub fn frame_changed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(());
    };
    let bar = w.id;
    let width = bar_width(env, hwnd);
    let height = if bar == 0 || w.style & crate::win16::user::WS_CHILD != 0 {
        0
    } else {
        lay_out_window_bar(env, bar, width)
    };
    env.win16.user.menus.bar_heights.insert(hwnd, height);
    use crate::win16::user::{
        SWP_FRAMECHANGED, SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SWP_NOZORDER,
    };
    crate::win16::user::winpos::set_window_pos(
        env,
        uc,
        hwnd,
        0,
        0,
        0,
        0,
        0,
        SWP_FRAMECHANGED | SWP_NOMOVE | SWP_NOSIZE | SWP_NOZORDER | SWP_NOACTIVATE,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{MF_BITMAP, MF_SEPARATOR, MF_STRING};
    use super::*;

    /// Every character 7 pixels wide, 16 high: the documented VGA System
    /// metrics.
    struct Fixed;
    impl Measure for Fixed {
        fn text_width(&self, t: &[u8]) -> i32 {
            7 * shown_text(t).len() as i32
        }
        fn text_height(&self) -> i32 {
            16
        }
        /// Bitmap 600h is 32 × 40; other handles are no bitmaps.
        fn bitmap_size(&self, h: u16) -> (i32, i32) {
            if h == 0x600 { (32, 40) } else { (0, 0) }
        }
    }

    fn text(flags: u16, s: &str) -> MenuItem {
        MenuItem::new(flags | MF_STRING, 1, Content::Text(s.as_bytes().to_vec()))
    }

    fn rects(items: &[MenuItem]) -> Vec<(i32, i32, i32, i32)> {
        items
            .iter()
            .map(|i| (i.rect.left, i.rect.top, i.rect.right, i.rect.bottom))
            .collect()
    }

    #[test]
    fn prefixes_are_not_shown() {
        assert_eq!(shown_text(b"&File"), b"File");
        assert_eq!(shown_text(b"Save &As..."), b"Save As...");
        assert_eq!(shown_text(b"A&&B"), b"A&B");
        assert_eq!(shown_text(b"trailing&"), b"trailing");
        assert_eq!(shown_text(b"\x08&Help"), b"Help");
    }

    #[test]
    fn one_line_bar_is_sm_cymenu_high() {
        // "File" 28 + 12, "Edit" 28 + 12, "Help" 28 + 12.
        let mut items = vec![text(0, "&File"), text(0, "&Edit"), text(0, "&Help")];
        let h = lay_out_bar(&mut items, 600, &Fixed);
        assert_eq!(h + SM_CYBORDER, 19);
        assert_eq!(
            rects(&items),
            [(0, 0, 40, 18), (40, 0, 80, 18), (80, 0, 120, 18)]
        );
    }

    #[test]
    fn a_narrow_bar_wraps_and_clips() {
        let mut items = vec![text(0, "&File"), text(0, "&Edit"), text(0, "&Help")];
        // 100 pixels: two items fit on the first line.
        assert_eq!(lay_out_bar(&mut items, 100, &Fixed), 36);
        assert_eq!(
            rects(&items),
            [(0, 0, 40, 18), (40, 0, 80, 18), (0, 18, 40, 36)]
        );
        // 50: one per line.
        assert_eq!(lay_out_bar(&mut items, 50, &Fixed), 54);
        // 30: each is cut at the edge, still one per line.
        assert_eq!(lay_out_bar(&mut items, 30, &Fixed), 54);
        assert_eq!(items[1].rect, Rect::new(0, 18, 30, 36));
    }

    #[test]
    fn breaks_start_lines_and_help_goes_right() {
        let mut items = vec![
            text(0, "&File"),
            text(MF_MENUBREAK, "&View"),
            text(0, "&Edit"),
            text(MF_HELP, "&Help"),
        ];
        assert_eq!(lay_out_bar(&mut items, 300, &Fixed), 36);
        assert_eq!(
            rects(&items),
            [
                (0, 0, 40, 18),
                (0, 18, 40, 36),
                (40, 18, 80, 36),
                (260, 18, 300, 36),
            ]
        );
        // A backspace at the start of the text is MF_HELP too.
        let it = MenuItem::new(0, 5, Content::Text(b"\x08&About".to_vec()));
        assert_eq!(it.flags, MF_HELP);
        assert_eq!(it.text(), Some(&b"&About"[..]));
        // MF_HELP on an earlier line: only the last line's items move.
        let mut items = vec![text(MF_HELP, "&A"), text(MF_MENUBARBREAK, "&B")];
        lay_out_bar(&mut items, 100, &Fixed);
        assert_eq!(rects(&items), [(0, 0, 19, 18), (81, 18, 100, 36)]);
    }

    #[test]
    fn owner_drawn_and_bitmap_items_have_their_sizes() {
        let mut od = MenuItem::new(MF_OWNERDRAW, 7, Content::OwnerDraw(0x1234));
        od.measured = Some((50, 30));
        let bmp = MenuItem::new(MF_BITMAP, 8, Content::Bitmap(0x600));
        let mut items = vec![text(0, "&File"), od, bmp];
        assert_eq!(lay_out_bar(&mut items, 600, &Fixed), 40);
        assert_eq!(
            rects(&items),
            [(0, 0, 40, 40), (40, 0, 90, 40), (90, 0, 122, 40)]
        );
        // No items: one empty line.
        assert_eq!(lay_out_bar(&mut [], 600, &Fixed), LINE_MIN);
    }

    #[test]
    fn popups_have_a_check_column_and_an_accelerator_column() {
        let mut items = vec![
            text(0, "&Open...\tCtrl+O"),
            MenuItem::new(MF_SEPARATOR, 0, Content::Separator),
            text(0, "E&xit"),
            text(MF_POPUP, "&Recent"),
        ];
        items[3].popup = 0x8008;
        let (w, h) = lay_out_popup(&mut items, &Fixed);
        // 2*14 + "Open..." 42 + 8 + "Ctrl+O" 42 = 120; "Recent": 28 + 42
        // + 8 + 42 + 14 (the arrow) = 134.
        assert_eq!((w, h), (134, 18 + 8 + 18 + 18));
        assert_eq!(items[1].rect, Rect::new(0, 18, 134, 26));
    }
}
