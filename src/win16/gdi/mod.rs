//! GDI: device contexts, coordinates, objects, and drawing into pixels.
//!
//! The room by concept:
//!
//! | file | what |
//! | --- | --- |
//! | dc.rs | device contexts and their state; the interface USER uses |
//! | devcaps.rs | the display, the printer, GetDeviceCaps |
//! | mapping.rs | mapping modes, window and viewport, LPtoDP |
//! | region.rs | region objects and clipping |
//! | objects.rs | the handle table, SelectObject, DeleteObject, GetObject |
//! | pen.rs, brush.rs, logfont.rs, bitmap.rs, palette.rs | each object kind |
//! | color.rs | COLORREFs and the VGA driver's colour rules |
//! | surface.rs, raster.rs | pixels, ROP2/ROP3, painting spans |
//! | lines.rs, shapes.rs, blit.rs, fill.rs | the drawing calls |
//! | printer.rs | printing: Escape, StartDoc…, pages written as PNG |
//! | screen.rs | the screen as a picture (screenshots) |
//!
//! Fonts and text (font.rs, fnt.rs, text.rs) and metafiles (metafile.rs)
//! are the text engine's, drawing through the same DCs and surfaces: a
//! drawing call opens a [`dc::Canvas`] on the DC (its surface, clip region,
//! mapping, realized pen and brush), draws, and closes it.
//!
//! Each file registers its functions in its own table; [`TABLES`] lists
//! them for api.rs.

pub mod bitmap;
pub mod blit;
pub mod brush;
pub mod color;
pub mod dc;
pub mod devcaps;
pub mod fill;
pub mod fnt;
pub mod font;
pub mod fontmap;
pub mod lines;
pub mod logfont;
pub mod mapping;
pub mod metafile;
pub mod objects;
pub mod palette;
pub mod pen;
pub mod printer;
pub mod raster;
pub mod region;
pub mod screen;
pub mod shapes;
pub mod surface;
pub mod text;

use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::geom::{Point, Rect};

pub(crate) use crate::env::Env;
pub(crate) use crate::machine::{Cpu, Stop, Uc};

/// Every GDI table (api.rs chains them after its own list).
pub static TABLES: &[&[Api]] = &[
    dc::APIS,
    mapping::APIS,
    region::APIS,
    objects::APIS,
    pen::APIS,
    brush::APIS,
    logfont::APIS,
    bitmap::APIS,
    palette::APIS,
    lines::APIS,
    shapes::APIS,
    blit::APIS,
    fill::APIS,
    printer::APIS,
    font::APIS,
    metafile::APIS,
    LEGACY_TEXT,
];

/// The most host memory all bitmaps, pages and the screen may take.
pub const MAX_BYTES: usize = 512 * 1024 * 1024;

/// GDI's state.
#[derive(Debug)]
pub struct Gdi {
    pub objects: objects::Table,
    /// The display the session emulates (`--display`).
    pub display: devcaps::DisplayMode,
    /// The screen's framebuffer, made at first use.
    screen: Option<surface::Surface>,
    /// The system palette (256-colour displays), its slots taken by
    /// realized palettes, and SetSystemPaletteUse's setting.
    pub syspal: [u32; 256],
    pub syspal_used: [bool; 256],
    pub syspal_use: u16,
    /// DCs of window handles GDI never made (dc.rs, "The bridge").
    pub bridge: std::collections::HashMap<u16, dc::Dc>,
    /// Printing: documents and pages (printer.rs).
    pub printer: printer::Spool,
    /// Screenshots taken while the program runs (screen.rs).
    pub shots: screen::Shots,
    /// The system colours a `COLOR_x + 1` brush stands for (dc.rs).
    pub sys_colors: [u32; 21],
    /// The fonts (font.rs): the catalogue, loaded when first needed.
    pub fonts: font::FontState,
    /// Bytes of pixels allocated.
    bytes_used: usize,
}

impl Default for Gdi {
    fn default() -> Self {
        Gdi {
            objects: objects::Table::default(),
            display: devcaps::DisplayMode::VGA,
            screen: None,
            syspal: color::default_system_palette(),
            syspal_used: [false; 256],
            syspal_use: 1,
            bridge: std::collections::HashMap::new(),
            printer: printer::Spool::default(),
            shots: screen::Shots::default(),
            sys_colors: dc::DEFAULT_SYS_COLORS,
            fonts: font::FontState::default(),
            bytes_used: 0,
        }
    }
}

impl Gdi {
    /// Account for `n` more bytes of pixels; false when over the limit.
    pub fn reserve_bytes(&mut self, n: usize) -> bool {
        if self.bytes_used.saturating_add(n) > MAX_BYTES {
            return false;
        }
        self.bytes_used += n;
        true
    }

    /// Give back `n` bytes of pixels.
    pub fn release_bytes(&mut self, n: usize) {
        self.bytes_used = self.bytes_used.saturating_sub(n);
    }

    /// The screen's framebuffer (made black at first use).
    pub fn screen(&mut self) -> &mut surface::Surface {
        let d = self.display;
        self.screen.get_or_insert_with(|| {
            surface::Surface::new(d.width, d.height, d.format(), 0)
                .expect("display sizes are bounded")
        })
    }

    /// The screen, if anything made it.
    pub fn screen_if_made(&self) -> Option<&surface::Surface> {
        self.screen.as_ref()
    }

    pub(crate) fn take_screen(&mut self) -> surface::Surface {
        self.screen();
        self.screen.take().expect("made above")
    }

    pub(crate) fn put_screen(&mut self, s: surface::Surface) {
        self.screen = Some(s);
    }

    /// The screen's bounds.
    pub fn screen_rect(&self) -> Rect {
        Rect::new(0, 0, self.display.width, self.display.height)
    }

    /// The COLORREF a screen pixel shows.
    pub fn screen_rgb(&self, px: u32) -> u32 {
        color::pixel_rgb(self.display.format(), &self.syspal, px)
    }
}

/// A handle argument.
pub fn arg_h(v: u32) -> u16 {
    v as u16
}

/// A signed 16-bit argument (int).
pub fn arg_i(v: u32) -> i32 {
    i32::from(v as u16 as i16)
}

/// `N` bytes at far pointer `p`.
pub fn read_struct<const N: usize>(uc: &Uc<'_>, p: u32) -> Option<[u8; N]> {
    let b = farptr::read_bytes(uc, p, N)?;
    b.try_into().ok()
}

/// Write `b` at far pointer `p`.
pub fn write_struct(uc: &mut Uc<'_>, p: u32, b: &[u8]) -> bool {
    farptr::write_bytes(uc, p, b)
}

/// The selector step between the 64 KiB parts of a huge block
/// (`__AHINCR`, system.rs).
const AHINCR: u16 = 8;

/// `n` bytes from huge pointer `p` (crossing 64 KiB boundaries by
/// `__AHINCR` selectors, as huge pointer arithmetic did); None when any is
/// unreadable. At most 16 MiB.
pub fn read_huge(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<u8>> {
    if n > 16 << 20 {
        return None;
    }
    let (mut sel, mut off) = farptr::split(p);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let room = 0x1_0000 - usize::from(off);
        let take = room.min(n - out.len());
        let mut b = vec![0u8; take];
        uc.read_seg(sel, off, &mut b).ok()?;
        out.extend_from_slice(&b);
        sel = sel.wrapping_add(AHINCR);
        off = 0;
    }
    Some(out)
}

/// Write `b` at huge pointer `p`; false if any part cannot be written
/// (parts before it are written).
pub fn write_huge(uc: &mut Uc<'_>, p: u32, b: &[u8]) -> bool {
    let (mut sel, mut off) = farptr::split(p);
    let mut done = 0;
    while done < b.len() {
        let room = 0x1_0000 - usize::from(off);
        let take = room.min(b.len() - done);
        if uc.write_seg(sel, off, &b[done..done + take]).is_err() {
            return false;
        }
        done += take;
        sel = sel.wrapping_add(AHINCR);
        off = 0;
    }
    true
}

/// `n` POINTs at `p` (at most 16384).
pub fn read_points(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<Point>> {
    if n > 16384 {
        return None;
    }
    let b = read_huge(uc, p, n * 4)?;
    Some(b.chunks(4).map(Point::from_bytes).collect())
}

/// The RECT at `p`.
pub fn read_rect(uc: &Uc<'_>, p: u32) -> Option<Rect> {
    read_struct::<8>(uc, p).map(|b| Rect::from_bytes(&b))
}

/// Write a RECT at `p`.
pub fn write_rect(uc: &mut Uc<'_>, p: u32, r: Rect) -> bool {
    write_struct(uc, p, &r.to_bytes())
}

/// Write a POINT at `p`.
pub fn write_point(uc: &mut Uc<'_>, p: u32, pt: Point) -> bool {
    write_struct(uc, p, &pt.to_bytes())
}

/// A point packed in a DWORD as GDI's Get* functions return them: x in the
/// low word, y in the high.
pub fn pack_point(p: Point) -> u32 {
    u32::from(p.x as u16) | u32::from(p.y as u16) << 16
}

// ---------------------------------------------------------------------
// Until the text engine (font.rs, text.rs) lands: TextOut and DrawText
// are recorded as drawing events, as before, so programs and their tests
// keep running. text.rs replaces this table.

fn text_arg(uc: &Uc<'_>, p: u32, count: u16) -> String {
    let bytes = if count == 0xFFFF {
        farptr::read_cstr(uc, p, 1024).unwrap_or_default()
    } else {
        farptr::read_bytes(uc, p, usize::from(count.min(1024))).unwrap_or_default()
    };
    String::from_utf8_lossy(&bytes).into_owned()
}

/// GDI.33 TextOut(hDC, x, y, lpString, nCount): recorded only.
fn text_out(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = text_arg(uc, a[3], a[4] as u16);
    crate::machine::record_event(
        uc,
        format!(
            "draw TextOut {:04X} ({}, {}) {t:?}",
            a[0],
            arg_i(a[1]),
            arg_i(a[2])
        ),
    );
    Ok(1)
}

/// USER.85 DrawText(hDC, lpString, nCount, lpRect, wFormat) -> height:
/// recorded only.
fn draw_text(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = text_arg(uc, a[1], a[2] as u16);
    let r = read_rect(uc, a[3]).unwrap_or_default();
    crate::machine::record_event(
        uc,
        format!(
            "draw DrawText {:04X} ({}, {}, {}, {}) {t:?} format {:04X}",
            a[0], r.left, r.top, r.right, r.bottom, a[4]
        ),
    );
    Ok(16)
}

static LEGACY_TEXT: &[Api] = &[
    Api::new(
        "GDI",
        33,
        "TEXTOUT",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::W],
        text_out,
    ),
    Api::new(
        "USER",
        85,
        "DRAWTEXT",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::W],
        draw_text,
    ),
];
