//! Menus drawing themselves: the menu bar in a window's non-client area
//! ([`draw_menu_bar`], for the window manager's WM_NCPAINT), a bar item
//! again when the menu loop selects it, and WM_DRAWITEM for owner-drawn
//! items.
//!
//! **The Windows 3.1 look** (system colours of the default scheme, which
//! SetSysColors may change): the bar is COLOR_MENU; a text item's text is
//! COLOR_MENUTEXT, COLOR_GRAYTEXT when grayed; a selected (MF_HILITE) item
//! is COLOR_HIGHLIGHT with COLOR_HIGHLIGHTTEXT; the text starts half of
//! [`layout::BAR_ITEM_SPACE`] into the item and is centred in its line;
//! the mnemonic character (after `&`) is underlined on the font's
//! underline row; a line of COLOR_WINDOWFRAME runs under the bar. A
//! bitmap item is its GDI bitmap copied to the item's top left (a
//! monochrome one in the menu's text and background colours).
//!
//! **Owner-drawn items** are drawn by their owner: WM_DRAWITEM (wParam 0,
//! lParam a DRAWITEMSTRUCT: CtlType ODT_MENU, CtlID 0, itemID, itemAction
//! ODA_DRAWENTIRE when the whole menu is drawn or ODA_SELECT when the
//! selection moves, itemState ODS_SELECTED / ODS_GRAYED / ODS_DISABLED /
//! ODS_CHECKED from the item's flags, hwndItem the menu's handle, hDC,
//! rcItem, itemData). Pop-ups are windows of their own on Windows, whose
//! pixels go when they close (the screen under them is restored); here a
//! pop-up's items are drawn only by their owners, with a DC whose visible
//! region is empty — the program draws as it would, and the screen keeps
//! what was under the pop-up.

use super::layout::{self, BAR_ITEM_SPACE, ODT_MENU, system_font};
use super::{
    Content, MF_CHECKED, MF_DISABLED, MF_GRAYED, MF_HILITE, MF_OWNERDRAW, MF_SEPARATOR, MenuItem,
};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::callback::CallArg;
use crate::win16::gdi::dc::{Canvas, DEFAULT_SYS_COLORS, R2_COPYPEN};
use crate::win16::gdi::raster::Paint;
use crate::win16::geom::{Point, Rect, Region};
use crate::win16::user::call_wndproc;

pub const WM_DRAWITEM: u16 = 0x002B;
pub const ODA_DRAWENTIRE: u16 = 0x0001;
pub const ODA_SELECT: u16 = 0x0002;
pub const ODS_SELECTED: u16 = 0x0001;
pub const ODS_GRAYED: u16 = 0x0002;
pub const ODS_DISABLED: u16 = 0x0004;
pub const ODS_CHECKED: u16 = 0x0008;

/// DRAWITEMSTRUCT (Windows 3.1 SDK): CtlType, CtlID, itemID, itemAction,
/// itemState, hwndItem, hDC (words), rcItem (RECT), itemData (dword): 26
/// bytes.
pub mod drawitem {
    pub const CTL_TYPE: usize = 0;
    pub const CTL_ID: usize = 2;
    pub const ITEM_ID: usize = 4;
    pub const ITEM_ACTION: usize = 6;
    pub const ITEM_STATE: usize = 8;
    pub const HWND_ITEM: usize = 10;
    pub const HDC: usize = 12;
    pub const RC_ITEM: usize = 14;
    pub const ITEM_DATA: usize = 22;
    pub const SIZE: usize = 26;
}

const COLOR_MENU: usize = 4;
const COLOR_WINDOWFRAME: usize = 6;
const COLOR_MENUTEXT: usize = 7;
const COLOR_HIGHLIGHT: usize = 13;
const COLOR_HIGHLIGHTTEXT: usize = 14;
const COLOR_GRAYTEXT: usize = 17;

fn sys_color(i: usize) -> u32 {
    DEFAULT_SYS_COLORS[i]
}

/// The DRAWITEMSTRUCT of an owner-drawn item.
pub fn drawitem_bytes(
    hmenu: u16,
    it: &MenuItem,
    action: u16,
    hdc: u16,
    rc: Rect,
) -> [u8; drawitem::SIZE] {
    use drawitem as di;
    let mut b = [0u8; di::SIZE];
    let mut w = |o: usize, v: u16| b[o..o + 2].copy_from_slice(&v.to_le_bytes());
    w(di::CTL_TYPE, ODT_MENU);
    w(di::ITEM_ID, it.id);
    w(di::ITEM_ACTION, action);
    let mut state = 0;
    if it.flags & MF_HILITE != 0 {
        state |= ODS_SELECTED;
    }
    if it.flags & MF_GRAYED != 0 {
        state |= ODS_GRAYED;
    }
    if it.flags & MF_DISABLED != 0 {
        state |= ODS_DISABLED;
    }
    if it.flags & MF_CHECKED != 0 {
        state |= ODS_CHECKED;
    }
    w(di::ITEM_STATE, state);
    w(di::HWND_ITEM, hmenu);
    w(di::HDC, hdc);
    b[di::RC_ITEM..di::RC_ITEM + 8].copy_from_slice(&rc.to_bytes());
    let data = match it.content {
        Content::OwnerDraw(d) => d,
        _ => 0,
    };
    b[di::ITEM_DATA..di::ITEM_DATA + 4].copy_from_slice(&data.to_le_bytes());
    b
}

/// Send `owner` WM_DRAWITEM with DRAWITEMSTRUCT `dis`.
fn owner_draw(
    env: &mut Env,
    uc: &mut Uc<'_>,
    owner: u16,
    dis: [u8; drawitem::SIZE],
) -> Result<(), Stop> {
    call_wndproc(env, uc, owner, WM_DRAWITEM, 0, CallArg::Scratch, &dis)?;
    Ok(())
}

/// Where a menu bar is drawn: a DC and the bar's rectangle in it.
#[derive(Debug, Clone, Copy)]
pub struct BarTarget {
    pub hdc: u16,
    pub rect: Rect,
}

/// Paint a text (or bitmap, or separator) bar item at `rc` (DC
/// coordinates) in the Windows 3.1 look (module doc).
fn paint_bar_item(env: &mut Env, hdc: u16, it: &MenuItem, rc: Rect) {
    let font = system_font(&env.win16.user.menus).font;
    let hilite = it.flags & MF_HILITE != 0;
    let bitmap = match it.content {
        Content::Bitmap(h) => env.win16.gdi.objects.bitmap(h).map(|b| b.surface.clone()),
        _ => None,
    };
    let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) else {
        return;
    };
    let bg = cv.solid_paint(sys_color(if hilite { COLOR_HIGHLIGHT } else { COLOR_MENU }));
    let to_sp = |cv: &Canvas, x: i32, y: i32| cv.lp_to_sp(Point::new(x, y));
    let (a, b) = (to_sp(&cv, rc.left, rc.top), to_sp(&cv, rc.right, rc.bottom));
    for y in a.y..b.y {
        cv.span(y, a.x, b.x, &bg);
    }
    if let Some(src) = bitmap {
        // BitBlt SRCCOPY of the bitmap at the item's top left: a
        // monochrome bitmap's 0 bits in the menu's text colour, its 1
        // bits in the menu's colour; a bitmap of the screen's format as
        // it is.
        let mono = src.format == crate::win16::gdi::surface::Format::Mono;
        let (fg, bk) = (
            cv.colors().solid(sys_color(COLOR_MENUTEXT)),
            cv.colors().solid(sys_color(COLOR_MENU)),
        );
        if mono || src.format == cv.surf.format {
            for y in 0..src.height.min(rc.height()) {
                for x in 0..src.width.min(rc.width()) {
                    let v = src.get(x, y).unwrap_or(0);
                    let px = match (mono, v) {
                        (true, 0) => fg,
                        (true, _) => bk,
                        _ => v,
                    };
                    cv.plot(a.x + x, a.y + y, &Paint::solid(px, R2_COPYPEN));
                }
            }
        }
    }
    if let Content::Text(t) = &it.content
        && it.flags & MF_SEPARATOR == 0
    {
        let color = if it.flags & MF_GRAYED != 0 {
            COLOR_GRAYTEXT
        } else if hilite {
            COLOR_HIGHLIGHTTEXT
        } else {
            COLOR_MENUTEXT
        };
        let ink = cv.solid_paint(sys_color(color));
        let shown = layout::shown_text(t);
        let x0 = rc.left + BAR_ITEM_SPACE / 2;
        let y0 = rc.top + (rc.height() - font.height()) / 2;
        let origin = to_sp(&cv, x0, y0);
        let adv: Vec<i32> = shown.iter().map(|&c| font.advance(c)).collect();
        let mut spans = Vec::new();
        crate::win16::gdi::text::string_ink(
            &font,
            &shown,
            &adv,
            origin.x,
            origin.y,
            |y, x1, x2| spans.push((y, x1, x2)),
        );
        // The mnemonic: the character after the first single `&`.
        if let Some(k) = mnemonic_index(t) {
            let x: i32 = origin.x + adv[..k].iter().sum::<i32>();
            spans.push((origin.y + font.underline_row(), x, x + adv[k]));
        }
        for (y, x1, x2) in spans {
            cv.span(y, x1, x2, &ink);
        }
    }
    cv.close(&mut env.win16.gdi);
}

/// The position, in the shown text, of the mnemonic character.
fn mnemonic_index(t: &[u8]) -> Option<usize> {
    let mut shown = 0;
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'&' && i + 1 < t.len() {
            if t[i + 1] != b'&' {
                return Some(shown);
            }
            i += 1;
        }
        shown += 1;
        i += 1;
    }
    None
}

/// Draw menu `hmenu` as the menu bar of window `owner` into `rect` (DC
/// coordinates; its width is the bar's): lay it out, paint each item (or
/// send its owner WM_DRAWITEM, ODA_DRAWENTIRE) and the line under it.
/// Returns the height the bar takes, the line included — the window
/// manager's WM_NCPAINT calls this with the window's DC.
pub fn draw_menu_bar(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    rect: Rect,
    hmenu: u16,
    owner: u16,
) -> Result<i32, Stop> {
    let height = layout::lay_out_window_bar(env, hmenu, rect.width());
    if height == 0 {
        return Ok(0);
    }
    let lines = height - layout::SM_CYBORDER;
    if let Some(mut cv) = Canvas::open(&mut env.win16.gdi, hdc) {
        let menu = cv.solid_paint(sys_color(COLOR_MENU));
        let frame = cv.solid_paint(sys_color(COLOR_WINDOWFRAME));
        let a = cv.lp_to_sp(Point::new(rect.left, rect.top));
        let b = cv.lp_to_sp(Point::new(rect.right, rect.top + lines));
        for y in a.y..b.y {
            cv.span(y, a.x, b.x, &menu);
        }
        cv.span(b.y, a.x, b.x, &frame);
        cv.close(&mut env.win16.gdi);
    }
    let n = env.win16.user.menus.get(hmenu).map_or(0, |m| m.items.len());
    for i in 0..n {
        draw_bar_item(
            env,
            uc,
            BarTarget { hdc, rect },
            (hmenu, i),
            owner,
            ODA_DRAWENTIRE,
        )?;
    }
    Ok(height)
}

/// Draw item (`hmenu`, index) of a menu bar laid out at `at`.
pub fn draw_bar_item(
    env: &mut Env,
    uc: &mut Uc<'_>,
    at: BarTarget,
    (hmenu, i): (u16, usize),
    owner: u16,
    action: u16,
) -> Result<(), Stop> {
    let (hdc, rect) = (at.hdc, at.rect);
    let Some(it) = env.win16.user.menus.item(hmenu, i).cloned() else {
        return Ok(());
    };
    let rc = Rect::new(
        rect.left + it.rect.left,
        rect.top + it.rect.top,
        rect.left + it.rect.right,
        rect.top + it.rect.bottom,
    );
    if it.flags & MF_OWNERDRAW != 0 {
        owner_draw(env, uc, owner, drawitem_bytes(hmenu, &it, action, hdc, rc))
    } else {
        paint_bar_item(env, hdc, &it, rc);
        Ok(())
    }
}

/// A DC on window `hwnd`'s whole area (its top left is (0, 0)), for the
/// menu bar: the window manager's GetWindowDC (paint.rs); release it with
/// [`paint::release_window_dc`](crate::win16::user::paint::release_window_dc).
fn window_dc(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Option<u16> {
    use crate::win16::user::paint;
    if !env.win16.user.shown(hwnd) {
        return None;
    }
    match paint::window_dc(env, uc, hwnd, paint::DcKind::Window, None) {
        0 => None,
        h => Some(h),
    }
}

/// Where window `hwnd`'s menu bar lies in the window's own coordinates
/// (the window manager's non-client layout, without the line under it).
fn bar_rect(env: &Env, hwnd: u16) -> Rect {
    crate::win16::user::winpos::nc_parts(env, hwnd)
        .and_then(|p| p.menu)
        .map_or(Rect::default(), |m| {
            Rect::new(m.left, m.top, m.right, m.bottom - layout::SM_CYBORDER)
        })
}

/// Draw window `hwnd`'s menu bar, if it is visible (DrawMenuBar, SetMenu;
/// the window manager's WM_NCPAINT draws it too).
pub fn redraw_bar(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let bar = super::window_menu(env, hwnd);
    if !env.win16.user.menus.exists(bar) {
        return Ok(());
    }
    let Some(hdc) = window_dc(env, uc, hwnd) else {
        return Ok(());
    };
    let rect = bar_rect(env, hwnd);
    let r = draw_menu_bar(env, uc, hdc, rect, bar, hwnd);
    crate::win16::user::paint::release_window_dc(env, uc, hdc);
    r.map(|_| ())
}

/// Draw one item of window `hwnd`'s menu bar again (the menu loop's
/// selection moved to or from it).
pub fn redraw_bar_item(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, i: usize) -> Result<(), Stop> {
    let bar = super::window_menu(env, hwnd);
    if !env.win16.user.menus.exists(bar) {
        return Ok(());
    }
    let Some(hdc) = window_dc(env, uc, hwnd) else {
        return Ok(());
    };
    let rect = bar_rect(env, hwnd);
    let r = draw_bar_item(env, uc, BarTarget { hdc, rect }, (bar, i), hwnd, ODA_SELECT);
    crate::win16::gdi::dc::release_dc(&mut env.win16, uc, hdc);
    r
}

/// Send WM_DRAWITEM for the owner-drawn items of pop-up `hmenu` (all of
/// them with ODA_DRAWENTIRE when `only` is None, else item `only` with
/// ODA_SELECT), with a DC drawing nowhere (module doc).
pub fn draw_popup_items(
    env: &mut Env,
    uc: &mut Uc<'_>,
    owner: u16,
    hmenu: u16,
    only: Option<usize>,
) -> Result<(), Stop> {
    let items: Vec<(usize, MenuItem)> = match env.win16.user.menus.get(hmenu) {
        Some(m) => m
            .items
            .iter()
            .enumerate()
            .filter(|(i, it)| it.flags & MF_OWNERDRAW != 0 && only.is_none_or(|o| o == *i))
            .map(|(i, it)| (i, it.clone()))
            .collect(),
        None => return Ok(()),
    };
    if items.is_empty() {
        return Ok(());
    }
    let Some(hdc) = crate::win16::gdi::dc::create_window_dc(
        &mut env.win16,
        uc,
        owner,
        Point::new(0, 0),
        Region::empty(),
    ) else {
        return Ok(());
    };
    let action = if only.is_some() {
        ODA_SELECT
    } else {
        ODA_DRAWENTIRE
    };
    let mut r = Ok(());
    for (_, it) in items {
        r = owner_draw(
            env,
            uc,
            owner,
            drawitem_bytes(hmenu, &it, action, hdc, it.rect),
        );
        if r.is_err() {
            break;
        }
    }
    crate::win16::gdi::dc::release_dc(&mut env.win16, uc, hdc);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawitemstruct_layout() {
        use drawitem as di;
        assert_eq!(
            (di::CTL_TYPE, di::CTL_ID, di::ITEM_ID, di::ITEM_ACTION),
            (0, 2, 4, 6)
        );
        assert_eq!((di::ITEM_STATE, di::HWND_ITEM, di::HDC), (8, 10, 12));
        assert_eq!((di::RC_ITEM, di::ITEM_DATA, di::SIZE), (14, 22, 26));
        let mut it = MenuItem::new(
            MF_OWNERDRAW | MF_CHECKED | MF_GRAYED,
            500,
            Content::OwnerDraw(0x1234_5678),
        );
        it.flags |= MF_HILITE;
        let b = drawitem_bytes(0x8004, &it, ODA_SELECT, 0x6000, Rect::new(1, 2, 3, 4));
        assert_eq!(
            b,
            [
                1, 0, 0, 0, 0xF4, 1, 2, 0, 0x0B, 0, 0x04, 0x80, 0x00, 0x60, 1, 0, 2, 0, 3, 0, 4, 0,
                0x78, 0x56, 0x34, 0x12
            ]
        );
    }

    #[test]
    fn mnemonics_are_found_in_the_shown_text() {
        assert_eq!(mnemonic_index(b"&File"), Some(0));
        assert_eq!(mnemonic_index(b"E&xit"), Some(1));
        assert_eq!(mnemonic_index(b"A&&B &c"), Some(4));
        assert_eq!(mnemonic_index(b"none"), None);
    }
}
