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
//! | heap.rs | GDI's data segment and heap: each object's block, GdiSeeGdiDo |
//! | pen.rs, brush.rs, logfont.rs, bitmap.rs, palette.rs | each object kind |
//! | color.rs | COLORREFs and the VGA driver's colour rules |
//! | surface.rs, raster.rs | pixels, ROP2/ROP3, painting spans |
//! | lines.rs, shapes.rs, blit.rs, fill.rs | the drawing calls |
//! | printer.rs | printing: Escape, StartDoc…, pages written as PNG |
//! | environment.rs | the device environments of the output ports |
//! | screen.rs | the screen as a picture (screenshots) |
//! | bounds.rs | SetBoundsRect/GetBoundsRect: the drawing bounds |
//! | visrgn.rs | the visible-region family USER uses |
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
pub mod bounds;
pub mod brush;
pub mod color;
pub mod dc;
pub mod devcaps;
pub mod environment;
pub mod fill;
pub mod fnt;
pub mod font;
pub mod fontmap;
pub mod heap;
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
pub mod visrgn;

use crate::win16::api::Api;
use crate::win16::farptr;
use crate::win16::geom::{Point, Rect};

pub(crate) use crate::machine::{Cpu, Stop, Uc};
pub(crate) use crate::win16::Env;

/// Every GDI table (api.rs chains them after its own list).
pub static TABLES: &[&[Api]] = &[
    dc::APIS,
    bounds::APIS,
    visrgn::APIS,
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
    environment::APIS,
    font::APIS,
    text::APIS,
    metafile::APIS,
    heap::APIS,
];

/// What runs before every system function (win16/dispatch.rs, call_api): a
/// GetObject or SelectObject of a stock font gives the stock fonts their
/// faces' LOGFONTs first (text.rs, settle_stock_fonts); a call on a
/// metafile DC is recorded instead of run (metafile.rs) — its result then.
pub fn before_call(
    env: &mut Env,
    uc: &mut Uc<'_>,
    api: &Api,
    args: &[u32],
) -> Result<Option<u32>, Stop> {
    if api.module == "GDI"
        && (api.ordinal == 82 || api.ordinal == 45)
        && !env.win16.gdi.fonts.stock_settled
    {
        let h = if api.ordinal == 82 { args[0] } else { args[1] } as u16;
        if text::is_stock_font(env, h) {
            text::settle_stock_fonts(env);
            // Their blocks in GDI's heap hold the settled LOGFONTs.
            for i in [10, 11, 12, 13, 14, 16] {
                let h = env.win16.gdi.objects.stock(i);
                heap::sync(&mut env.win16, uc, h);
            }
        }
    }
    metafile::intercept(env, uc, api, args)
}

/// The most host memory all bitmaps, pages and the screen may take.
pub const MAX_BYTES: usize = 512 * 1024 * 1024;

/// GDI's state.
#[derive(Clone, Debug)]
pub struct Gdi {
    pub objects: objects::Table,
    /// The display the session emulates (`--display`).
    pub display: devcaps::DisplayMode,
    /// The screen's framebuffer, made at first use. Shared with the
    /// debugger's checkpoints (a copy of the environment) until either
    /// changes it, so a checkpoint does not copy the screen's pixels.
    screen: Option<std::rc::Rc<surface::Surface>>,
    /// The system palette (256-colour displays), its slots taken by
    /// realized palettes, and SetSystemPaletteUse's setting.
    pub syspal: [u32; 256],
    pub syspal_used: [bool; 256],
    pub syspal_use: u16,
    /// The palette last selected as a foreground palette (palette.rs,
    /// IsDCCurrentPalette); 0 until one is.
    pub primary_palette: u16,
    /// Printing: documents and pages (printer.rs).
    pub printer: printer::Spool,
    /// The ports' device environments (environment.rs).
    pub environments: environment::Environments,
    /// Screenshots taken while the program runs (screen.rs).
    pub shots: screen::Shots,
    /// The system colours a `COLOR_x + 1` brush stands for (dc.rs).
    pub sys_colors: [u32; 21],
    /// The fonts (font.rs): the catalogue, loaded when first needed.
    pub fonts: font::FontState,
    /// Metafile DCs being recorded (metafile.rs).
    pub metafiles: metafile::Recording,
    /// The common window DCs released and waiting to be handed out again
    /// (dc.rs, "The DC cache").
    pub dc_cache: Vec<u16>,
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
            primary_palette: 0,
            printer: printer::Spool::default(),
            environments: environment::Environments::default(),
            shots: screen::Shots::default(),
            sys_colors: dc::DEFAULT_SYS_COLORS,
            fonts: font::FontState::default(),
            metafiles: metafile::Recording::default(),
            dc_cache: Vec::new(),
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
        std::rc::Rc::make_mut(self.screen.get_or_insert_with(|| {
            std::rc::Rc::new(
                surface::Surface::new(d.width, d.height, d.format(), 0)
                    .expect("display sizes are bounded"),
            )
        }))
    }

    /// The screen, if anything made it.
    pub fn screen_if_made(&self) -> Option<&surface::Surface> {
        self.screen.as_deref()
    }

    pub(crate) fn take_screen(&mut self) -> surface::Surface {
        self.screen();
        std::rc::Rc::unwrap_or_clone(self.screen.take().expect("made above"))
    }

    pub(crate) fn put_screen(&mut self, s: surface::Surface) {
        self.screen = Some(std::rc::Rc::new(s));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every GDI function called with arguments a bad program could pass:
    /// handles of live, deleted and made-up objects, pointers to random
    /// bytes and to nothing, extreme numbers. Nothing panics, nothing
    /// hangs, and what it allocates stays bounded. (Functions that call
    /// back into the program are left out: they need a running task.)
    #[test]
    fn no_call_panics_on_hostile_arguments() {
        let callbacks = [
            ("GDI", 38),
            ("GDI", 71),
            ("GDI", 100),
            ("GDI", 155),
            ("GDI", 380),
            ("GDI", 381),
        ];
        let apis: Vec<&Api> = TABLES
            .iter()
            .flat_map(|t| t.iter())
            .filter(|a| !callbacks.contains(&(a.module, a.ordinal)))
            .collect();
        let env = crate::win16::hostile::hostile_calls(
            0x2545_F491_4F6C_DD1D,
            6000,
            &mut |r| apis[r as usize % apis.len()],
            &mut |env, uc, api, args| (api.func)(env, uc, args),
        );
        assert!(heap::consistent(&env.win16));
    }
}
