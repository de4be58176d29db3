//! How the controls paint themselves: the Windows 3.1 look, drawn through
//! GDI's and USER's own functions (FillRect, FrameRect, TextOut, DrawText,
//! Ellipse, MoveTo/LineTo, SelectObject...) called from Rust as a control's
//! WM_PAINT in USER called them, in the DC BeginPaint gave it.
//!
//! Before painting, a control asks its parent for its colours with
//! WM_CTLCOLOR (wParam the DC, lParam MAKELONG(hwnd, CTLCOLOR_x)); the
//! parent's answer is the background brush, and it may set the DC's text
//! and background colours. When the parent answers 0 (DefWindowProc did
//! not choose), the control uses DefWindowProc's Windows 3.1 choice: the
//! window colour (COLOR_WINDOW) behind the window text colour
//! (COLOR_WINDOWTEXT), the scroll bar colour for scroll bars.
//!
//! The pieces (SDK "Button Styles", the Windows 3.1 User's Guide's
//! pictures; sizes for a VGA):
//!
//! - push button: a black frame with its corner pixels left out (a second,
//!   complete frame inside it for the default button), the face in
//!   COLOR_BTNFACE, a two-pixel COLOR_BTNHIGHLIGHT edge at the top and
//!   left and a two-pixel COLOR_BTNSHADOW edge at the bottom and right,
//!   meeting on a diagonal (measured on Windows 3.1's VGA screens:
//!   winbox.js's notes, "Standard controls"; Wine's 3.1-era button code
//!   drew the same, GRAPH_DrawReliefRect 2, 2) — pushed, one pixel of
//!   shadow at the top and left and the text a pixel lower and to the
//!   right; the text on one line, centred one pixel left of the middle;
//! - check box and radio button: a 13 × 13 cell of OBM_CHECKBOXES — a
//!   box with an X when checked, grey inside when indeterminate; a
//!   12 × 12 circle with a round dot when chosen — in the text colour on
//!   the control's brush, the text five pixels after it (before it with
//!   BS_LEFTTEXT);
//! - group box: a black frame from half the font's height down, the text
//!   over it at 8 pixels from the left;
//! - static: the text with DrawText (SS_LEFT/CENTER/RIGHT word-wrapped,
//!   SS_SIMPLE and SS_LEFTNOWORDWRAP on one line, DT_NOPREFIX for
//!   SS_NOPREFIX), or a rectangle or frame in COLOR_WINDOWFRAME
//!   (black), COLOR_BACKGROUND (gray) or COLOR_WINDOW (white);
//! - edit control: the visible lines, the selection inverted while it has
//!   the focus (or with ES_NOHIDESEL), an ES_PASSWORD control's characters
//!   as its password character;
//! - list box: the visible items from 2 pixels in, the selected ones in
//!   COLOR_HIGHLIGHTTEXT on COLOR_HIGHLIGHT;
//! - disabled text in COLOR_GRAYTEXT.

use super::wm;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::geom::Rect;

pub const COLOR_SCROLLBAR: u16 = 0;
pub const COLOR_BACKGROUND: u16 = 1;
pub const COLOR_WINDOW: u16 = 5;
pub const COLOR_WINDOWFRAME: u16 = 6;
pub const COLOR_WINDOWTEXT: u16 = 8;
pub const COLOR_HIGHLIGHT: u16 = 13;
pub const COLOR_HIGHLIGHTTEXT: u16 = 14;
pub const COLOR_BTNFACE: u16 = 15;
pub const COLOR_BTNSHADOW: u16 = 16;
pub const COLOR_GRAYTEXT: u16 = 17;
pub const COLOR_BTNTEXT: u16 = 18;
pub const COLOR_BTNHIGHLIGHT: u16 = 20;

pub const CTLCOLOR_EDIT: u16 = 1;
pub const CTLCOLOR_LISTBOX: u16 = 2;
pub const CTLCOLOR_BTN: u16 = 3;
pub const CTLCOLOR_SCROLLBAR: u16 = 5;
pub const CTLCOLOR_STATIC: u16 = 6;

pub const DT_LEFT: u16 = 0x0000;
pub const DT_CENTER: u16 = 0x0001;
pub const DT_RIGHT: u16 = 0x0002;
pub const DT_VCENTER: u16 = 0x0004;
pub const DT_WORDBREAK: u16 = 0x0010;
pub const DT_SINGLELINE: u16 = 0x0020;
pub const DT_EXPANDTABS: u16 = 0x0040;
pub const DT_NOCLIP: u16 = 0x0100;
pub const DT_NOPREFIX: u16 = 0x0800;

const TRANSPARENT: u16 = 1;
const OPAQUE: u16 = 2;
const BLACK_PEN: u16 = 7;

/// A rectangle (left, top, right, bottom).
pub type R = (i16, i16, i16, i16);

/// Painting into one DC.
pub struct Painter {
    pub hdc: u16,
    /// The brush WM_CTLCOLOR gave (or the default).
    pub background: u16,
}

/// The brush handle FillRect takes for system colour `i` (COLOR_x + 1).
pub fn sys_brush(i: u16) -> u16 {
    i + 1
}

/// System colour `i` (GetSysColor).
pub fn sys_color(env: &Env, i: u16) -> u32 {
    env.win16
        .gdi
        .sys_colors
        .get(usize::from(i))
        .copied()
        .unwrap_or(0)
}

fn rect_bytes(r: R) -> [u8; 8] {
    let mut b = [0u8; 8];
    for (i, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
        b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
    }
    b
}

impl Painter {
    /// Ask the parent of `hwnd` for its colours (WM_CTLCOLOR, module doc).
    pub fn new(
        env: &mut Env,
        uc: &mut Uc<'_>,
        hwnd: u16,
        hdc: u16,
        kind: u16,
    ) -> Result<Painter, Stop> {
        let parent = wm::parent(env, hwnd);
        let mut brush = 0;
        if parent != 0 {
            brush = wm::send(
                env,
                uc,
                parent,
                wm::WM_CTLCOLOR,
                hdc,
                u32::from(kind) << 16 | u32::from(hwnd),
            )? as u16;
        }
        let p = Painter {
            hdc,
            background: brush,
        };
        if brush == 0 {
            let (bk, text) = if kind == CTLCOLOR_SCROLLBAR {
                (COLOR_SCROLLBAR, COLOR_WINDOWTEXT)
            } else {
                (COLOR_WINDOW, COLOR_WINDOWTEXT)
            };
            p.bk_color(env, uc, sys_color(env, bk))?;
            p.text_color(env, uc, sys_color(env, text))?;
            return Ok(Painter {
                hdc,
                background: sys_brush(bk),
            });
        }
        Ok(p)
    }

    pub fn fill(&self, env: &mut Env, uc: &mut Uc<'_>, r: R, brush: u16) -> Result<(), Stop> {
        if r.2 <= r.0 || r.3 <= r.1 {
            return Ok(());
        }
        let hdc = self.hdc;
        super::with_data(env, uc, &rect_bytes(r), |env, uc, p| {
            crate::win16::gdi::shapes::fill_rect(env, uc, &[u32::from(hdc), p, u32::from(brush)])
        })?;
        Ok(())
    }

    pub fn frame(&self, env: &mut Env, uc: &mut Uc<'_>, r: R, brush: u16) -> Result<(), Stop> {
        let hdc = self.hdc;
        super::with_data(env, uc, &rect_bytes(r), |env, uc, p| {
            crate::win16::gdi::shapes::frame_rect(env, uc, &[u32::from(hdc), p, u32::from(brush)])
        })?;
        Ok(())
    }

    pub fn invert(&self, env: &mut Env, uc: &mut Uc<'_>, r: R) -> Result<(), Stop> {
        if r.2 <= r.0 || r.3 <= r.1 {
            return Ok(());
        }
        let hdc = self.hdc;
        super::with_data(env, uc, &rect_bytes(r), |env, uc, p| {
            crate::win16::gdi::shapes::invert_rect(env, uc, &[u32::from(hdc), p])
        })?;
        Ok(())
    }

    pub fn text_color(&self, env: &mut Env, uc: &mut Uc<'_>, c: u32) -> Result<u32, Stop> {
        crate::win16::gdi::dc::set_text_color(env, uc, &[u32::from(self.hdc), c])
    }

    pub fn bk_color(&self, env: &mut Env, uc: &mut Uc<'_>, c: u32) -> Result<u32, Stop> {
        crate::win16::gdi::dc::set_bk_color(env, uc, &[u32::from(self.hdc), c])
    }

    pub fn bk_mode(&self, env: &mut Env, uc: &mut Uc<'_>, mode: u16) -> Result<u32, Stop> {
        crate::win16::gdi::dc::set_bk_mode(env, uc, &[u32::from(self.hdc), u32::from(mode)])
    }

    /// SelectObject: the object it replaced (0 for none given).
    pub fn select(&self, env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<u16, Stop> {
        if h == 0 {
            return Ok(0);
        }
        Ok(
            crate::win16::gdi::objects::select_object(
                env,
                uc,
                &[u32::from(self.hdc), u32::from(h)],
            )? as u16,
        )
    }

    pub fn stock(&self, env: &mut Env, uc: &mut Uc<'_>, i: u16) -> Result<u16, Stop> {
        Ok(crate::win16::gdi::objects::get_stock_object(env, uc, &[u32::from(i)])? as u16)
    }

    pub fn text_out(
        &self,
        env: &mut Env,
        uc: &mut Uc<'_>,
        x: i16,
        y: i16,
        t: &[u8],
    ) -> Result<(), Stop> {
        if t.is_empty() {
            return Ok(());
        }
        let hdc = self.hdc;
        let n = t.len().min(0x7FFF) as u32;
        super::with_data(env, uc, t, |env, uc, p| {
            crate::win16::gdi::text::text_out(
                env,
                uc,
                &[
                    u32::from(hdc),
                    u32::from(x as u16),
                    u32::from(y as u16),
                    p,
                    n,
                ],
            )
        })?;
        Ok(())
    }

    pub fn draw_text(
        &self,
        env: &mut Env,
        uc: &mut Uc<'_>,
        t: &[u8],
        r: R,
        format: u16,
    ) -> Result<(), Stop> {
        let hdc = self.hdc;
        let mut data = rect_bytes(r).to_vec();
        data.extend_from_slice(t);
        let n = t.len().min(0x7FFF) as u32;
        super::with_data(env, uc, &data, |env, uc, p| {
            let text = crate::win16::farptr::add(p, 8);
            crate::win16::user::text::draw_text(
                env,
                uc,
                &[u32::from(hdc), text, n, p, u32::from(format)],
            )
        })?;
        Ok(())
    }

    /// An ellipse in the bounding rectangle with the stock brush and pen.
    pub fn ellipse(&self, env: &mut Env, uc: &mut Uc<'_>, r: R, brush: u16) -> Result<(), Stop> {
        let b = self.stock(env, uc, brush)?;
        let p = self.stock(env, uc, BLACK_PEN)?;
        let ob = self.select(env, uc, b)?;
        let op = self.select(env, uc, p)?;
        let args = [
            u32::from(self.hdc),
            u32::from(r.0 as u16),
            u32::from(r.1 as u16),
            u32::from(r.2 as u16),
            u32::from(r.3 as u16),
        ];
        crate::win16::gdi::shapes::ellipse(env, uc, &args)?;
        self.select(env, uc, ob)?;
        self.select(env, uc, op)?;
        Ok(())
    }

    /// A one-pixel line from (x1, y1) to (x2, y2) (the end pixel excluded)
    /// in the stock black pen.
    pub fn line(
        &self,
        env: &mut Env,
        uc: &mut Uc<'_>,
        a: (i16, i16),
        b: (i16, i16),
    ) -> Result<(), Stop> {
        let p = self.stock(env, uc, BLACK_PEN)?;
        let op = self.select(env, uc, p)?;
        let hdc = u32::from(self.hdc);
        crate::win16::gdi::dc::move_to(
            env,
            uc,
            &[hdc, u32::from(a.0 as u16), u32::from(a.1 as u16)],
        )?;
        crate::win16::gdi::lines::line_to(
            env,
            uc,
            &[hdc, u32::from(b.0 as u16), u32::from(b.1 as u16)],
        )?;
        self.select(env, uc, op)?;
        Ok(())
    }
}

/// The text colour of a control's text: grey when disabled.
fn text_for(env: &Env, hwnd: u16, normal: u16) -> u32 {
    if wm::is_enabled(env, hwnd) {
        sys_color(env, normal)
    } else {
        sys_color(env, COLOR_GRAYTEXT)
    }
}

/// A caption as DrawText shows it: a single `&` (the mnemonic's mark)
/// left out, `&&` shown as one `&`.
fn shown_text(t: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'&' {
            i += 1;
            if i < t.len() && t[i] == b'&' {
                v.push(b'&');
                i += 1;
            }
            continue;
        }
        v.push(t[i]);
        i += 1;
    }
    v
}

/// The extent (width, height) of `t` in the DC's font (GDI.91
/// GetTextExtent).
fn text_extent(env: &mut Env, uc: &mut Uc<'_>, hdc: u16, t: &[u8]) -> Result<(i16, i16), Stop> {
    if t.is_empty() {
        let v = super::with_data(env, uc, b" ", |env, uc, p| {
            crate::win16::gdi::text::get_text_extent(env, uc, &[u32::from(hdc), p, 1])
        })?
        .0;
        return Ok((0, (v >> 16) as i16));
    }
    let n = t.len().min(0x7FFF) as u32;
    let v = super::with_data(env, uc, t, |env, uc, p| {
        crate::win16::gdi::text::get_text_extent(env, uc, &[u32::from(hdc), p, n])
    })?
    .0;
    Ok((v as u16 as i16, (v >> 16) as i16))
}

/// The focus rectangle round a caption whose text starts at (x, y) and
/// is `ext` large: two borders (SM_CXBORDER, 1 on the VGA) left and right
/// of the text, one above it and two below, kept inside `bounds` (USER.EXE
/// as read out for winbox.js's notes, "Standard controls").
fn caption_focus(x: i16, y: i16, ext: (i16, i16), bounds: R) -> R {
    (
        (x - 2).max(bounds.0),
        (y - 1).max(bounds.1),
        (x + ext.0 + 2).min(bounds.2),
        (y + ext.1 + 2).min(bounds.3),
    )
}

/// A push button (module doc).
pub fn push_button(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    hdc: u16,
    font: u16,
    pushed: bool,
    default: bool,
) -> Result<R, Stop> {
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_BTN)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    let frame = sys_brush(COLOR_WINDOWFRAME);
    p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    // The frame without its corners.
    p.fill(env, uc, (1, 0, cx - 1, 1), frame)?;
    p.fill(env, uc, (1, cy - 1, cx - 1, cy), frame)?;
    p.fill(env, uc, (0, 1, 1, cy - 1), frame)?;
    p.fill(env, uc, (cx - 1, 1, cx, cy - 1), frame)?;
    let mut inner = (1, 1, cx - 1, cy - 1);
    if default {
        p.frame(env, uc, inner, frame)?;
        inner = (2, 2, cx - 2, cy - 2);
    }
    p.fill(env, uc, inner, sys_brush(COLOR_BTNFACE))?;
    let (l, t, _, b) = inner;
    let shadow = sys_brush(COLOR_BTNSHADOW);
    if pushed {
        p.fill(env, uc, (l, t, inner.2, t + 1), shadow)?;
        p.fill(env, uc, (l, t, l + 1, b), shadow)?;
    } else {
        relief(env, uc, &p, inner, 2, 2)?;
    }
    let shift = i16::from(pushed);
    let color = text_for(env, hwnd, COLOR_BTNTEXT);
    p.text_color(env, uc, color)?;
    p.bk_mode(env, uc, TRANSPARENT)?;
    let old = p.select(env, uc, font)?;
    let text = wm::title(env, hwnd);
    // Centred on the whole button, one pixel left of centre across
    // ((width - text width) / 2 - 1) and (height - tmHeight) / 2 down, as
    // Windows 3.1 places it (captures on the VGA: winbox.js's
    // measurements, "Standard controls").
    p.draw_text(
        env,
        uc,
        &text,
        (shift - 1, shift, cx - 1 + shift, cy + shift),
        DT_CENTER | DT_VCENTER | DT_SINGLELINE,
    )?;
    let ext = text_extent(env, uc, hdc, &shown_text(&text))?;
    p.select(env, uc, old)?;
    // The focus rectangle stays inside the edge: three borders from the
    // top (two on a screen of 300 rows or fewer), four from the bottom.
    let top = if env.win16.gdi.screen_rect().height() <= 300 {
        2
    } else {
        3
    };
    let (x, y) = ((cx - ext.0) / 2 - 1 + shift, (cy - ext.1) / 2 + shift);
    Ok(caption_focus(x, y, ext, (0, top, cx, cy - 4)))
}

/// The side of a check box's or radio button's image (OBM_CHECKBOXES'
/// cell on the VGA: the bitmap's width over four, its height over three).
pub const CHECK_SIZE: i16 = 13;

/// The radio button's circle, 12 × 12 in the 13 × 13 cell: `#` is drawn
/// in the text colour, the rest shows the control's brush.
const RADIO_RING: [&str; 12] = [
    "....####....",
    "..##....##..",
    ".#........#.",
    ".#........#.",
    "#..........#",
    "#..........#",
    "#..........#",
    "#..........#",
    ".#........#.",
    ".#........#.",
    "..##....##..",
    "....####....",
];

/// The ring a pressed radio button adds inside its circle.
const RADIO_PRESSED: [&str; 12] = [
    "............",
    "....####....",
    "..##....##..",
    "..#......#..",
    ".#........#.",
    ".#........#.",
    ".#........#.",
    ".#........#.",
    "..#......#..",
    "..##....##..",
    "....####....",
    "............",
];

/// A checked radio button's dot: a round 6 × 6 spot in the centre.
const RADIO_DOT: [&str; 12] = [
    "............",
    "............",
    "............",
    "....####....",
    "...######...",
    "...######...",
    "...######...",
    "...######...",
    "....####....",
    "............",
    "............",
    "............",
];

/// Fill the `#` pixels of `rows`, placed at (x, y), with `brush`: each
/// row's runs as one FillRect.
fn stamp(
    env: &mut Env,
    uc: &mut Uc<'_>,
    p: &Painter,
    rows: &[&str],
    (x, y): (i16, i16),
    brush: u16,
) -> Result<(), Stop> {
    for (dy, row) in rows.iter().enumerate() {
        let b = row.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'#' {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && b[i] == b'#' {
                i += 1;
            }
            let (l, r, t) = (x + start as i16, x + i as i16, y + dy as i16);
            p.fill(env, uc, (l, t, r, t + 1), brush)?;
        }
    }
    Ok(())
}

/// A check box or radio button (module doc): `check` 0, 1 or 2. Its
/// image is the 13 × 13 cell of OBM_CHECKBOXES, centred vertically at the
/// control's left (right with BS_LEFTTEXT); the marks are in the DC's
/// text colour (what WM_CTLCOLOR left, grey text when disabled) and the
/// inside shows the control's brush; the text starts five pixels after
/// the image, one row below the vertical centre (Windows 3.1's pixels as
/// captured on the VGA; winbox.js's measurements, "Standard controls").
#[allow(clippy::too_many_arguments)]
pub fn check_box(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    hdc: u16,
    font: u16,
    radio: bool,
    check: u16,
    pushed: bool,
    left_text: bool,
) -> Result<R, Stop> {
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_BTN)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    if !wm::is_enabled(env, hwnd) {
        p.text_color(env, uc, sys_color(env, COLOR_GRAYTEXT))?;
    }
    let size = CHECK_SIZE;
    let x = if left_text { cx - size } else { 0 };
    let y = (cy - size) / 2;
    // The marks' colour: the DC's text colour (GDI.90 GetTextColor).
    let ink = crate::win16::gdi::dc::get_text_color(env, uc, &[u32::from(hdc)])?;
    let brush = crate::win16::gdi::brush::create_solid_brush(env, uc, &[ink])? as u16;
    if radio {
        stamp(env, uc, &p, &RADIO_RING, (x, y), brush)?;
        if pushed {
            stamp(env, uc, &p, &RADIO_PRESSED, (x, y), brush)?;
        }
        if check != 0 {
            stamp(env, uc, &p, &RADIO_DOT, (x, y), brush)?;
        }
    } else {
        let bx = (x, y, x + size, y + size);
        if check == 2 {
            p.fill(
                env,
                uc,
                (x + 1, y + 1, x + size - 1, y + size - 1),
                sys_brush(COLOR_BTNFACE),
            )?;
        }
        p.frame(env, uc, bx, brush)?;
        if pushed {
            p.frame(env, uc, (x + 1, y + 1, x + size - 1, y + size - 1), brush)?;
        }
        if check != 0 {
            // OBM_CHECKBOXES: the X joins the inside's corners.
            for i in 1..size - 1 {
                p.fill(env, uc, (x + i, y + i, x + i + 1, y + i + 1), brush)?;
                let j = size - 1 - i;
                p.fill(env, uc, (x + j, y + i, x + j + 1, y + i + 1), brush)?;
            }
        }
    }
    if brush != 0 {
        crate::win16::gdi::objects::delete_object(env, uc, &[u32::from(brush)])?;
    }
    p.bk_mode(env, uc, TRANSPARENT)?;
    let old = p.select(env, uc, font)?;
    let text = wm::title(env, hwnd);
    let gap = size + 5;
    let tr = if left_text {
        (0, 1, cx - gap, cy + 1)
    } else {
        (gap, 1, cx, cy + 1)
    };
    let align = if left_text { DT_RIGHT } else { DT_LEFT };
    p.draw_text(env, uc, &text, tr, align | DT_VCENTER | DT_SINGLELINE)?;
    let ext = text_extent(env, uc, hdc, &shown_text(&text))?;
    p.select(env, uc, old)?;
    let x = if left_text { cx - gap - ext.0 } else { gap };
    let y = (cy - ext.1) / 2 + 1;
    Ok(caption_focus(x, y, ext, (0, 0, cx, cy)))
}

/// A group box (module doc).
pub fn group_box(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    hdc: u16,
    font: u16,
) -> Result<(), Stop> {
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_BTN)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    let h = super::font_of(env, font).height() as i16;
    p.frame(env, uc, (0, h / 2, cx, cy), sys_brush(COLOR_WINDOWFRAME))?;
    let text = wm::title(env, hwnd);
    if !text.is_empty() {
        let color = text_for(env, hwnd, COLOR_WINDOWTEXT);
        p.text_color(env, uc, color)?;
        p.bk_mode(env, uc, OPAQUE)?;
        let old = p.select(env, uc, font)?;
        p.draw_text(env, uc, &text, (8, 0, cx - 8, h), DT_LEFT | DT_SINGLELINE)?;
        p.select(env, uc, old)?;
    }
    Ok(())
}

/// A static control (module doc).
pub fn static_control(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    hdc: u16,
    font: u16,
) -> Result<(), Stop> {
    use super::r#static::*;
    let style = wm::style(env, hwnd);
    let (cx, cy) = wm::client_size(env, hwnd);
    let kind = style & 0x0F;
    let color = match kind {
        SS_BLACKRECT | SS_BLACKFRAME => Some(COLOR_WINDOWFRAME),
        SS_GRAYRECT | SS_GRAYFRAME => Some(COLOR_BACKGROUND),
        SS_WHITERECT | SS_WHITEFRAME => Some(COLOR_WINDOW),
        _ => None,
    };
    if let Some(c) = color {
        let p = Painter { hdc, background: 0 };
        if matches!(kind, SS_BLACKRECT | SS_GRAYRECT | SS_WHITERECT) {
            p.fill(env, uc, (0, 0, cx, cy), sys_brush(c))?;
        } else {
            p.frame(env, uc, (0, 0, cx, cy), sys_brush(c))?;
        }
        return Ok(());
    }
    if kind == SS_ICON {
        // DrawIcon (USER.84) where USER has it.
        let icon = match env.win16.user.controls.state.get(&hwnd) {
            Some(super::Control::Static(s)) => s.icon,
            _ => 0,
        };
        if icon != 0 {
            crate::win16::user::draw::draw_icon_api(
                env,
                uc,
                &[u32::from(hdc), 0, 0, u32::from(icon)],
            )?;
        }
        return Ok(());
    }
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_STATIC)?;
    if kind != SS_SIMPLE {
        p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    }
    let mut format = match kind {
        SS_CENTER => DT_CENTER | DT_WORDBREAK,
        SS_RIGHT => DT_RIGHT | DT_WORDBREAK,
        SS_SIMPLE | SS_LEFTNOWORDWRAP => DT_LEFT | DT_SINGLELINE,
        _ => DT_LEFT | DT_WORDBREAK,
    } | DT_EXPANDTABS;
    if style & SS_NOPREFIX != 0 {
        format |= DT_NOPREFIX;
    }
    let color = text_for(env, hwnd, COLOR_WINDOWTEXT);
    p.text_color(env, uc, color)?;
    p.bk_mode(env, uc, TRANSPARENT)?;
    let old = p.select(env, uc, font)?;
    let text = wm::title(env, hwnd);
    p.draw_text(env, uc, &text, (0, 0, cx, cy), format)?;
    p.select(env, uc, old)?;
    Ok(())
}

/// The dotted focus rectangle (DrawFocusRect, where USER has it).
pub fn focus_rect(env: &mut Env, uc: &mut Uc<'_>, hdc: u16, r: R) -> Result<(), Stop> {
    super::with_data(env, uc, &rect_bytes(r), |env, uc, p| {
        crate::win16::user::draw::draw_focus_rect_api(env, uc, &[u32::from(hdc), p])
    })?;
    Ok(())
}

/// A scroll bar's arrow box or thumb: a button face in a black frame, one
/// pixel of highlight and two of shadow inside it (OBM_UPARROW ...).
fn face_box(env: &mut Env, uc: &mut Uc<'_>, p: &Painter, r: R) -> Result<(), Stop> {
    p.fill(env, uc, r, sys_brush(COLOR_BTNFACE))?;
    p.frame(env, uc, r, sys_brush(COLOR_WINDOWFRAME))?;
    relief(env, uc, p, (r.0 + 1, r.1 + 1, r.2 - 1, r.3 - 1), 1, 2)
}

/// A raised edge inside `r` (user/frame.rs, `relief_fills`).
fn relief(
    env: &mut Env,
    uc: &mut Uc<'_>,
    p: &Painter,
    r: R,
    light: i32,
    dark: i32,
) -> Result<(), Stop> {
    let mut fills = Vec::new();
    let rect = Rect::new(r.0.into(), r.1.into(), r.2.into(), r.3.into());
    crate::win16::user::frame::relief_fills(rect, light, dark, &mut |f, shadow| {
        fills.push((f, shadow))
    });
    for (f, shadow) in fills {
        let brush = sys_brush(if shadow {
            COLOR_BTNSHADOW
        } else {
            COLOR_BTNHIGHLIGHT
        });
        let t = (f.left as i16, f.top as i16, f.right as i16, f.bottom as i16);
        p.fill(env, uc, t, brush)?;
    }
    Ok(())
}

/// An arrow in box `r` pointing `dir` (0 up, 1 down, 2 left, 3 right), as
/// the scroll arrows' bitmaps draw it: a head four rows deep and seven
/// pixels wide, a stem three wide and three long, centred in the box's
/// face (inside its frame).
fn arrow(env: &mut Env, uc: &mut Uc<'_>, p: &Painter, r: R, dir: u8) -> Result<(), Stop> {
    let (cx, cy) = ((r.0 + 1 + r.2 - 2) / 2, (r.1 + 1 + r.3 - 2) / 2);
    // Up-pointing rows round the centre (dy, half width); the others turn
    // them.
    let rows = [(-3, 0), (-2, 1), (-1, 2), (0, 3), (1, 1), (2, 1), (3, 1)];
    for (d, half) in rows {
        match dir {
            0 => p.line(env, uc, (cx - half, cy + d), (cx + half + 1, cy + d))?,
            1 => p.line(env, uc, (cx - half, cy - d), (cx + half + 1, cy - d))?,
            2 => p.line(env, uc, (cx + d, cy - half), (cx + d, cy + half + 1))?,
            _ => p.line(env, uc, (cx - d, cy - half), (cx - d, cy + half + 1))?,
        }
    }
    Ok(())
}

/// A scroll bar control: its arrows, shaft and thumb.
pub fn scroll_bar(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    hdc: u16,
    vertical: bool,
    thumb: Option<(i16, i16)>,
) -> Result<(), Stop> {
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_SCROLLBAR)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    p.frame(env, uc, (0, 0, cx, cy), sys_brush(COLOR_WINDOWFRAME))?;
    let (a, b) = if vertical {
        let s = cx.min(cy / 2);
        ((0, 0, cx, s), (0, cy - s, cx, cy))
    } else {
        let s = cy.min(cx / 2);
        ((0, 0, s, cy), (cx - s, 0, cx, cy))
    };
    face_box(env, uc, &p, a)?;
    face_box(env, uc, &p, b)?;
    arrow(env, uc, &p, a, if vertical { 0 } else { 2 })?;
    arrow(env, uc, &p, b, if vertical { 1 } else { 3 })?;
    if let Some((from, to)) = thumb {
        let r = if vertical {
            (0, from, cx, to)
        } else {
            (from, 0, to, cy)
        };
        face_box(env, uc, &p, r)?;
    }
    Ok(())
}

/// A combo box's drop-down button at the right of `r`.
pub fn drop_button(env: &mut Env, uc: &mut Uc<'_>, p: &Painter, r: R) -> Result<(), Stop> {
    face_box(env, uc, p, r)?;
    arrow(env, uc, p, r, 1)
}

/// Draw `text` at (x, y), its tabs moving to the next stop: `stops`
/// (pixels from `x`, ascending), then every `every` pixels.
#[allow(clippy::too_many_arguments)]
pub fn tabbed_text(
    env: &mut Env,
    uc: &mut Uc<'_>,
    p: &Painter,
    font: &crate::win16::gdi::font::PhysFont,
    x: i16,
    y: i16,
    text: &[u8],
    stops: &[i32],
    every: i32,
) -> Result<(), Stop> {
    let mut at = 0i32;
    for (k, seg) in text.split(|&c| c == b'\t').enumerate() {
        if k > 0 {
            at = stops
                .iter()
                .copied()
                .find(|&s| s > at)
                .unwrap_or_else(|| (at / every.max(1) + 1) * every.max(1));
        }
        p.text_out(
            env,
            uc,
            (i32::from(x) + at).clamp(-32768, 32767) as i16,
            y,
            seg,
        )?;
        at += seg.iter().map(|&c| font.advance(c)).sum::<i32>();
    }
    Ok(())
}

/// One line of a list box or edit control: its text at (x, y), inverted
/// colours when `selected`.
#[allow(clippy::too_many_arguments)]
pub fn item_line(
    env: &mut Env,
    uc: &mut Uc<'_>,
    p: &Painter,
    hwnd: u16,
    r: R,
    x: i16,
    text: &[u8],
    selected: bool,
) -> Result<(), Stop> {
    if selected {
        p.fill(env, uc, r, sys_brush(COLOR_HIGHLIGHT))?;
        let c = sys_color(env, COLOR_HIGHLIGHTTEXT);
        p.text_color(env, uc, c)?;
    } else {
        let c = text_for(env, hwnd, COLOR_WINDOWTEXT);
        p.text_color(env, uc, c)?;
    }
    p.bk_mode(env, uc, TRANSPARENT)?;
    p.text_out(env, uc, x, r.1, text)
}
