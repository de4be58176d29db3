//! Drawing the non-client area: what DefWindowProc's WM_NCPAINT and
//! WM_NCACTIVATE put on the screen around the client area.
//!
//! The Windows 3.1 look, in the system colours (Wine's 3.1-era nonclient.c,
//! NC_DoNCPaint / NC_DrawFrame / NC_DrawCaption / NC_DrawSysButton, which
//! copies it; the layout is winpos.rs's):
//! - a window with a border has a one-pixel COLOR_WINDOWFRAME line round
//!   it;
//! - a sizing frame is a band of COLOR_ACTIVEBORDER (COLOR_INACTIVEBORDER
//!   when not active) with a COLOR_WINDOWFRAME line inside it;
//! - a dialog frame (WS_DLGFRAME without WS_BORDER, or
//!   WS_EX_DLGMODALFRAME) is a band of COLOR_ACTIVECAPTION
//!   (COLOR_INACTIVECAPTION);
//! - the caption is SM_CYSIZE pixels of COLOR_ACTIVECAPTION
//!   (COLOR_INACTIVECAPTION) with a COLOR_WINDOWFRAME line under it; the
//!   system-menu box (SM_CXSIZE wide, a bar in it) at its left and the
//!   minimize and maximize boxes (button faces with their arrows) at its
//!   right, each with a COLOR_WINDOWFRAME line on its inner side;
//! - the menu bar is COLOR_MENU with a COLOR_WINDOWFRAME line under it,
//!   its items drawn by the menu code (menu/draw.rs);
//! - a scroll bar is COLOR_SCROLLBAR between two arrow boxes (button faces
//!   with arrows, square), with its thumb box (a button face) at the
//!   position when the range is not empty, and a COLOR_WINDOWFRAME line
//!   along its inner edge; the corner between two scroll bars is
//!   COLOR_BTNFACE.
//!
//! The caption's text is asked for with WM_GETTEXT (as Windows does) and
//! drawn centred between the boxes in the system font, COLOR_CAPTIONTEXT
//! (COLOR_INACTIVECAPTIONTEXT).

use super::message::send_struct;
use super::metrics::{SM_CXFRAME, SM_CXSIZE, SM_CYFRAME, SM_CYSIZE, SM_CYVTHUMB, fixed};
use super::paint::{DcKind, release_window_dc, window_dc};
use super::winpos::{has_dlgframe, has_thickframe, nc_parts};
use super::{
    Env, Point, Rect, Region, SB_HORZ, SB_VERT, ScrollBar, Stop, Uc, WM_GETTEXT, WS_BORDER,
    WS_CAPTION, WS_DLGFRAME, WS_EX_DLGMODALFRAME, WS_MAXIMIZE, WS_MAXIMIZEBOX, WS_MINIMIZEBOX,
    WS_POPUP, WS_SYSMENU, WS_THICKFRAME, scroll,
};
use crate::win16::gdi::dc::Fill;

// The system colours the frame uses (COLOR_ indices).
const COLOR_SCROLLBAR: usize = 0;
const COLOR_ACTIVECAPTION: usize = 2;
const COLOR_INACTIVECAPTION: usize = 3;
const COLOR_MENU: usize = 4;
const COLOR_WINDOW: usize = 5;
const COLOR_WINDOWFRAME: usize = 6;
const COLOR_CAPTIONTEXT: usize = 9;
const COLOR_INACTIVECAPTIONTEXT: usize = 19;
const COLOR_ACTIVEBORDER: usize = 10;
const COLOR_INACTIVEBORDER: usize = 11;
const COLOR_BTNFACE: usize = 15;
const COLOR_BTNSHADOW: usize = 16;
const COLOR_BTNTEXT: usize = 18;
const COLOR_BTNHIGHLIGHT: usize = 20;

/// A window DC being drawn on.
struct Pen<'a> {
    env: &'a mut Env,
    hdc: u16,
}

impl Pen<'_> {
    fn color(&self, index: usize) -> u32 {
        self.env.win16.user.sys.colors[index]
    }

    fn fill(&mut self, r: Rect, index: usize) {
        if !r.is_empty() {
            let c = self.color(index);
            self.env.win16.gdi.fill_rect(self.hdc, r, Fill::Color(c));
        }
    }

    /// A one-pixel line round `r`, inside it.
    fn frame(&mut self, r: Rect, index: usize) {
        self.fill(Rect::new(r.left, r.top, r.right, r.top + 1), index);
        self.fill(Rect::new(r.left, r.bottom - 1, r.right, r.bottom), index);
        self.fill(Rect::new(r.left, r.top, r.left + 1, r.bottom), index);
        self.fill(Rect::new(r.right - 1, r.top, r.right, r.bottom), index);
    }

    /// A band `w`×`h` wide just inside `r`.
    fn band(&mut self, r: Rect, w: i32, h: i32, index: usize) {
        self.fill(Rect::new(r.left, r.top, r.right, r.top + h), index);
        self.fill(Rect::new(r.left, r.bottom - h, r.right, r.bottom), index);
        self.fill(Rect::new(r.left, r.top, r.left + w, r.bottom), index);
        self.fill(Rect::new(r.right - w, r.top, r.right, r.bottom), index);
    }

    /// A raised edge inside `r`: `light` pixels of COLOR_BTNHIGHLIGHT along
    /// the top and left, `dark` pixels of COLOR_BTNSHADOW along the bottom
    /// and right, the corners where they meet cut diagonally (the shadow
    /// over the highlight), as Windows 3.1's button bitmaps have them.
    fn relief(&mut self, r: Rect, light: i32, dark: i32) {
        relief_fills(r, light, dark, &mut |rect, shadow| {
            let c = if shadow {
                COLOR_BTNSHADOW
            } else {
                COLOR_BTNHIGHLIGHT
            };
            self.fill(rect, c);
        });
    }

    /// A raised button face (the caption boxes, the scroll arrows' and
    /// thumb's insides): COLOR_BTNFACE, one pixel of highlight, two of
    /// shadow (OBM_REDUCE, OBM_ZOOM, OBM_UPARROW ...).
    fn button(&mut self, r: Rect) {
        if r.is_empty() {
            return;
        }
        self.fill(r, COLOR_BTNFACE);
        self.relief(r, 1, 2);
    }

    /// Fill the pixels `(x, y)` of `cells` (relative to `at`) with
    /// COLOR_BTNTEXT.
    fn glyph(&mut self, at: Point, cells: &[(i32, i32, i32)]) {
        self.glyph_in(at, cells, COLOR_BTNTEXT);
    }

    /// [`Pen::glyph`] in system colour `index`.
    fn glyph_in(&mut self, at: Point, cells: &[(i32, i32, i32)], index: usize) {
        for &(y, x1, x2) in cells {
            self.fill(
                Rect::new(at.x + x1, at.y + y, at.x + x2 + 1, at.y + y + 1),
                index,
            );
        }
    }

    /// A caption box's triangle (OBM_REDUCE, OBM_ZOOM): seven pixels wide
    /// at its base, four rows, its base row `base` rows from the face's
    /// centre row, pointing up or down.
    fn caption_arrow(&mut self, face: Rect, up: bool, base: i32) {
        let c = Point::new(
            face.left + (face.width() - 1) / 2,
            face.top + (face.height() - 1) / 2,
        );
        let rows: Vec<(i32, i32, i32)> = (0..4)
            .map(|k| {
                let y = if up { base - k } else { base + k };
                (y, -(3 - k), 3 - k)
            })
            .collect();
        self.glyph(c, &rows);
    }

    /// A scroll arrow (OBM_UPARROW ...): a head four rows deep and seven
    /// pixels wide with a stem three wide and three long, centred in the
    /// box's face `r`, pointing `dir` (0 up, 1 down, 2 left, 3 right).
    /// Drawn in system colour `index`: COLOR_BTNTEXT, or COLOR_BTNSHADOW
    /// for a disabled arrow (OBM_UPARROWI ...).
    fn arrow_in(&mut self, r: Rect, dir: u8, index: usize) {
        let c = Point::new(r.left + (r.width() - 1) / 2, r.top + (r.height() - 1) / 2);
        // Up-pointing rows (dy, x1, x2) round the centre; the others turn
        // them.
        let mut cells = Vec::new();
        for k in 0..4 {
            cells.push((k - 3, -k, k));
        }
        for dy in 1..=3 {
            cells.push((dy, -1, 1));
        }
        for (dy, x1, x2) in cells {
            for dx in x1..=x2 {
                let (x, y) = match dir {
                    0 => (dx, dy),
                    1 => (dx, -dy),
                    2 => (dy, dx),
                    _ => (-dy, dx),
                };
                self.glyph_in(c, &[(y, x, x)], index);
            }
        }
    }
}

/// The rectangles of a raised edge inside `r` (see `Pen::relief`), each
/// with whether it is shadow.
pub fn relief_fills(r: Rect, light: i32, dark: i32, out: &mut dyn FnMut(Rect, bool)) {
    let (w, h) = (r.width(), r.height());
    for i in 0..light.min(w).min(h) {
        out(
            Rect::new(r.left + i, r.top, r.left + i + 1, r.bottom - i),
            false,
        );
        out(
            Rect::new(r.left, r.top + i, r.right - i, r.top + i + 1),
            false,
        );
    }
    for i in 0..dark.min(w).min(h) {
        out(
            Rect::new(r.right - i - 1, r.top + i, r.right - i, r.bottom),
            true,
        );
        out(
            Rect::new(r.left + i, r.bottom - i - 1, r.right, r.bottom - i),
            true,
        );
    }
}

/// Draw window `hwnd`'s frame (`active`: in the active colours). The
/// caption's text is asked for with WM_GETTEXT.
pub fn draw(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, active: bool) -> Result<(), Stop> {
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(());
    };
    if !env.win16.user.shown(hwnd) {
        return Ok(());
    }
    let (style, ex, iconic) = (w.style, w.ex_style, w.iconic());
    let bars = (
        scroll::bar(env, hwnd, SB_HORZ).unwrap_or_default(),
        scroll::bar(env, hwnd, SB_VERT).unwrap_or_default(),
    );
    let mut title = Vec::new();
    if style & WS_CAPTION == WS_CAPTION && !iconic {
        let (n, b) = send_struct(env, uc, hwnd, WM_GETTEXT, 80, &[0u8; 80])?;
        let n = (n as usize).min(b.len());
        title = b[..n].split(|&c| c == 0).next().unwrap_or(&[]).to_vec();
    }
    let Some(parts) = nc_parts(env, hwnd) else {
        return Ok(());
    };
    if iconic || parts.client == parts.window {
        return Ok(());
    }
    let hdc = window_dc(env, uc, hwnd, DcKind::Window, None);
    if hdc == 0 {
        return Ok(());
    }
    // Not over the client area.
    let client = parts.client;
    let o = super::paint::dc_origin(env, hwnd, DcKind::Window);
    if let Some(d) = env.win16.gdi.dc_mut(hdc) {
        d.vis = d.vis.subtract(&Region::rect(client.offset(o.x, o.y)));
    }
    let mut p = Pen { env, hdc };
    let mut r = parts.window;
    let _ = &mut r;
    let bordered =
        style & (WS_BORDER | WS_DLGFRAME | WS_THICKFRAME) != 0 || ex & WS_EX_DLGMODALFRAME != 0;
    if has_dlgframe(style, ex) {
        let (cx, cy) = (r.left - parts.inside.left, r.top - parts.inside.top);
        let (cx, cy) = (-cx, -cy);
        p.frame(r, COLOR_WINDOWFRAME);
        let band = Rect::new(r.left + 1, r.top + 1, r.right - 1, r.bottom - 1);
        let c = if active {
            COLOR_ACTIVECAPTION
        } else {
            COLOR_INACTIVECAPTION
        };
        p.band(band, cx - 1, cy - 1, c);
    } else {
        if bordered {
            p.frame(r, COLOR_WINDOWFRAME);
            r = Rect::new(r.left + 1, r.top + 1, r.right - 1, r.bottom - 1);
        }
        if has_thickframe(style) {
            // What is left of the frame inside the outer line: a band and
            // the inner line.
            let (fx, fy) = (parts.inside.left - r.left, parts.inside.top - r.top);
            let c = if active {
                COLOR_ACTIVEBORDER
            } else {
                COLOR_INACTIVEBORDER
            };
            p.band(r, fx - 1, fy - 1, c);
            // The sizing corners' marks: a COLOR_WINDOWFRAME line across
            // the band SM_CYFRAME + SM_CYSIZE − 1 pixels from each corner
            // (Wine's 3.1-era NC_DrawFrame).
            let dy = fixed(SM_CYFRAME) + fixed(SM_CYSIZE) - 1;
            let dx = fixed(SM_CXFRAME) + fixed(SM_CXSIZE) - 1;
            if r.height() > 2 * dy && r.width() > 2 * dx {
                for y in [r.top + dy, r.bottom - dy] {
                    p.fill(
                        Rect::new(r.left, y, r.left + fx - 1, y + 1),
                        COLOR_WINDOWFRAME,
                    );
                    p.fill(
                        Rect::new(r.right - fx + 1, y, r.right, y + 1),
                        COLOR_WINDOWFRAME,
                    );
                }
                for x in [r.left + dx, r.right - dx] {
                    p.fill(
                        Rect::new(x, r.top, x + 1, r.top + fy - 1),
                        COLOR_WINDOWFRAME,
                    );
                    p.fill(
                        Rect::new(x, r.bottom - fy + 1, x + 1, r.bottom),
                        COLOR_WINDOWFRAME,
                    );
                }
            }
            let inner = Rect::new(
                r.left + fx - 1,
                r.top + fy - 1,
                r.right - fx + 1,
                r.bottom - fy + 1,
            );
            p.frame(inner, COLOR_WINDOWFRAME);
        }
    }
    if let Some(cap) = parts.caption {
        caption(&mut p, cap, style, ex, active, &title);
    }
    if let Some(m) = parts.menu {
        p.fill(Rect::new(m.left, m.top, m.right, m.bottom - 1), COLOR_MENU);
        p.fill(
            Rect::new(m.left, m.bottom - 1, m.right, m.bottom),
            COLOR_WINDOWFRAME,
        );
    }
    if let Some(v) = parts.vscroll {
        // Its inner line is at the client area's right edge.
        let r = Rect::new(v.left, v.top - 1, v.right, v.bottom + 1);
        scroll_bar(&mut p, r, true, bars.1);
    }
    if let Some(h) = parts.hscroll {
        let r = Rect::new(h.left - 1, h.top, h.right + 1, h.bottom);
        scroll_bar(&mut p, r, false, bars.0);
    }
    if let (Some(v), Some(h)) = (parts.vscroll, parts.hscroll) {
        // Inside the frame: the bars' outer lines are on the border.
        let inside = parts.inside;
        p.fill(
            Rect::new(
                v.left + 1,
                h.top + 1,
                v.right.min(inside.right),
                h.bottom.min(inside.bottom),
            ),
            COLOR_BTNFACE,
        );
    }
    release_window_dc(p.env, uc, hdc);
    if parts.menu.is_some() {
        // The items are the menu code's to draw (menu/draw.rs).
        super::menu::draw::redraw_bar(env, uc, hwnd)?;
    }
    Ok(())
}

/// A popup with a dialog frame, a caption and a system-menu box (what a
/// message box is: WS_POPUP | WS_CAPTION | WS_SYSMENU with
/// WS_EX_DLGMODALFRAME) at `r` on DC `hdc`, as [`draw`] paints such a
/// window: its client rectangle.
pub fn draw_dialog_popup(env: &mut Env, hdc: u16, r: Rect, title: &[u8], active: bool) -> Rect {
    use super::metrics::{SM_CXDLGFRAME, SM_CYBORDER, SM_CYCAPTION, SM_CYDLGFRAME};
    let mut p = Pen { env, hdc };
    let (fx, fy) = (fixed(SM_CXDLGFRAME), fixed(SM_CYDLGFRAME));
    p.frame(r, COLOR_WINDOWFRAME);
    let band = Rect::new(r.left + 1, r.top + 1, r.right - 1, r.bottom - 1);
    let c = if active {
        COLOR_ACTIVECAPTION
    } else {
        COLOR_INACTIVECAPTION
    };
    p.band(band, fx - 1, fy - 1, c);
    let inside = Rect::new(r.left + fx, r.top + fy, r.right - fx, r.bottom - fy);
    let cap = Rect::new(
        inside.left,
        inside.top,
        inside.right,
        inside.top + fixed(SM_CYCAPTION) - fixed(SM_CYBORDER),
    );
    caption(
        &mut p,
        cap,
        WS_POPUP | WS_CAPTION | WS_SYSMENU,
        WS_EX_DLGMODALFRAME,
        active,
        title,
    );
    Rect::new(inside.left, cap.bottom, inside.right, inside.bottom)
}

/// The caption `cap` (window coordinates, its line underneath included):
/// the bar, the system-menu box, the minimize and maximize boxes, the
/// title. A WS_EX_DLGMODALFRAME window's caption has a COLOR_WINDOW line
/// on its left, right and above it, inside the frame (Wine's 3.1-era
/// NC_DrawCaption).
fn caption(p: &mut Pen<'_>, cap: Rect, style: u32, ex: u32, active: bool, title: &[u8]) {
    let c = if active {
        COLOR_ACTIVECAPTION
    } else {
        COLOR_INACTIVECAPTION
    };
    let mut cap = cap;
    if ex & WS_EX_DLGMODALFRAME != 0 {
        p.fill(
            Rect::new(cap.left, cap.top - 1, cap.right, cap.top),
            COLOR_WINDOW,
        );
        p.fill(
            Rect::new(cap.left, cap.top, cap.left + 1, cap.bottom),
            COLOR_WINDOW,
        );
        p.fill(
            Rect::new(cap.right - 1, cap.top, cap.right, cap.bottom),
            COLOR_WINDOW,
        );
        cap = Rect::new(cap.left + 1, cap.top, cap.right - 1, cap.bottom);
    }
    let bar = Rect::new(cap.left, cap.top, cap.right, cap.bottom - 1);
    p.fill(bar, c);
    p.fill(
        Rect::new(cap.left, cap.bottom - 1, cap.right, cap.bottom),
        COLOR_WINDOWFRAME,
    );
    let (bw, bh) = (fixed(SM_CXSIZE), fixed(SM_CYSIZE).min(bar.height()));
    let mut left = bar.left;
    let mut right = bar.right;
    if style & WS_SYSMENU != 0 {
        let b = Rect::new(left, bar.top, left + bw, bar.top + bh);
        sysmenu_box(p, b);
        p.fill(
            Rect::new(b.right, bar.top, b.right + 1, bar.bottom),
            COLOR_WINDOWFRAME,
        );
        left = b.right + 1;
    }
    if style & WS_MAXIMIZEBOX != 0 {
        let b = Rect::new(right - bw - 1, bar.top, right, bar.top + bh);
        p.fill(
            Rect::new(b.left, bar.top, b.left + 1, bar.bottom),
            COLOR_WINDOWFRAME,
        );
        let face = Rect::new(b.left + 1, b.top, b.right, b.bottom);
        p.button(face);
        // OBM_ZOOM: an up triangle with its base a row below the
        // centre; OBM_RESTORE: an up and a down triangle.
        if style & WS_MAXIMIZE != 0 {
            p.caption_arrow(face, true, -1);
            p.caption_arrow(face, false, 2);
        } else {
            p.caption_arrow(face, true, 1);
        }
        right = b.left;
    }
    if style & WS_MINIMIZEBOX != 0 {
        let b = Rect::new(right - bw - 1, bar.top, right, bar.top + bh);
        p.fill(
            Rect::new(b.left, bar.top, b.left + 1, bar.bottom),
            COLOR_WINDOWFRAME,
        );
        let face = Rect::new(b.left + 1, b.top, b.right, b.bottom);
        p.button(face);
        // OBM_REDUCE: a down triangle, its base a row above the centre.
        p.caption_arrow(face, false, -1);
        right = b.left;
    }
    // The text, centred in what the boxes leave, in the system font.
    let text_color = if active {
        COLOR_CAPTIONTEXT
    } else {
        COLOR_INACTIVECAPTIONTEXT
    };
    let area = Rect::new(left, bar.top, right, bar.bottom);
    caption_text(p, area, title, text_color);
}

/// The caption's text in `area` (window coordinates), centred, clipped to
/// the area.
fn caption_text(p: &mut Pen<'_>, area: Rect, text: &[u8], color: usize) {
    use crate::win16::gdi::dc::Canvas;
    use crate::win16::gdi::font::PhysFont;
    use crate::win16::gdi::raster::Paint;
    if text.is_empty() || area.is_empty() {
        return;
    }
    let font = PhysFont::plain(p.env.win16.gdi.fonts.catalogue().system());
    let rgb = p.color(color);
    let gdi = &mut p.env.win16.gdi;
    let Some(mut cv) = Canvas::open(gdi, p.hdc) else {
        return;
    };
    let adv: Vec<i32> = text.iter().map(|&c| font.advance(c)).collect();
    let width: i32 = adv.iter().sum();
    let x = area.left + (area.width() - width).max(0) / 2;
    let y = area.top + (area.height() - font.height()) / 2;
    let o = cv.lp_to_sp(Point::new(x, y));
    let a = cv.lp_to_sp(Point::new(area.left, area.top));
    let b = cv.lp_to_sp(Point::new(area.right, area.bottom));
    let ink = Paint::solid(cv.colors().solid(rgb), 13);
    let mut spans = Vec::new();
    crate::win16::gdi::text::string_ink(&font, text, &adv, o.x, o.y, |y, x1, x2| {
        spans.push((y, x1, x2));
    });
    for (y, x1, x2) in spans {
        if (a.y..b.y).contains(&y) {
            cv.span(y, x1.max(a.x), x2.min(b.x), &ink);
        }
    }
    cv.close(gdi);
}

/// A window scroll bar in `r` (its lines included).
fn scroll_bar(p: &mut Pen<'_>, r: Rect, vertical: bool, bar: ScrollBar) {
    p.frame(r, COLOR_WINDOWFRAME);
    let inner = Rect::new(r.left + 1, r.top + 1, r.right - 1, r.bottom - 1);
    p.fill(inner, COLOR_SCROLLBAR);
    // Square arrow boxes at both ends, a line between each and the shaft.
    let side = if vertical {
        inner.width()
    } else {
        inner.height()
    };
    let len = if vertical {
        inner.height()
    } else {
        inner.width()
    };
    let arrow = side.min(len / 2);
    let (a, b, shaft) = if vertical {
        (
            Rect::new(inner.left, inner.top, inner.right, inner.top + arrow),
            Rect::new(inner.left, inner.bottom - arrow, inner.right, inner.bottom),
            (inner.top + arrow + 1, inner.bottom - arrow - 1),
        )
    } else {
        (
            Rect::new(inner.left, inner.top, inner.left + arrow, inner.bottom),
            Rect::new(inner.right - arrow, inner.top, inner.right, inner.bottom),
            (inner.left + arrow + 1, inner.right - arrow - 1),
        )
    };
    // EnableScrollBar's ESB_DISABLE_LTUP (1) and ESB_DISABLE_RTDN (2)
    // grey the arrow they name.
    for (box_, dir, off) in [
        (a, if vertical { 0 } else { 2 }, bar.disabled & 1 != 0),
        (b, if vertical { 1 } else { 3 }, bar.disabled & 2 != 0),
    ] {
        p.button(box_);
        p.arrow_in(box_, dir, if off { COLOR_BTNSHADOW } else { COLOR_BTNTEXT });
    }
    if vertical {
        p.fill(
            Rect::new(inner.left, a.bottom, inner.right, a.bottom + 1),
            COLOR_WINDOWFRAME,
        );
        p.fill(
            Rect::new(inner.left, b.top - 1, inner.right, b.top),
            COLOR_WINDOWFRAME,
        );
    } else {
        p.fill(
            Rect::new(a.right, inner.top, a.right + 1, inner.bottom),
            COLOR_WINDOWFRAME,
        );
        p.fill(
            Rect::new(b.left - 1, inner.top, b.left, inner.bottom),
            COLOR_WINDOWFRAME,
        );
    }
    // The thumb, when there is a range.
    let thumb = fixed(SM_CYVTHUMB);
    let room = shaft.1 - shaft.0 - thumb;
    if bar.max > bar.min && room >= 0 {
        let span = i32::from(bar.max) - i32::from(bar.min);
        let at = shaft.0 + room * (i32::from(bar.pos) - i32::from(bar.min)) / span;
        // A button face with a COLOR_WINDOWFRAME line on each side across
        // the bar (Wine's 3.1-era SCROLL_DrawInterior).
        let (t, lines) = if vertical {
            (
                Rect::new(inner.left, at, inner.right, at + thumb),
                [
                    Rect::new(inner.left, at - 1, inner.right, at),
                    Rect::new(inner.left, at + thumb, inner.right, at + thumb + 1),
                ],
            )
        } else {
            (
                Rect::new(at, inner.top, at + thumb, inner.bottom),
                [
                    Rect::new(at - 1, inner.top, at, inner.bottom),
                    Rect::new(at + thumb, inner.top, at + thumb + 1, inner.bottom),
                ],
            )
        };
        for l in lines {
            p.fill(l, COLOR_WINDOWFRAME);
        }
        p.button(t);
    }
}

/// The system-menu box `b` (OBM_CLOSE): COLOR_BTNFACE with a bar 13 × 3
/// pixels two from its left and seven from its top (a COLOR_WINDOWFRAME
/// outline round a COLOR_BTNHIGHLIGHT line) and its COLOR_BTNSHADOW
/// shadow one pixel right and down.
fn sysmenu_box(p: &mut Pen<'_>, b: Rect) {
    p.fill(b, COLOR_BTNFACE);
    let (x, y) = (b.left + 2, b.top + (b.height() - 1) / 2 - 1);
    p.fill(Rect::new(x + 1, y + 1, x + 14, y + 4), COLOR_BTNSHADOW);
    p.fill(Rect::new(x, y, x + 13, y + 3), COLOR_WINDOWFRAME);
    p.fill(Rect::new(x + 1, y + 1, x + 12, y + 2), COLOR_BTNHIGHLIGHT);
}
