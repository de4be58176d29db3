//! Device contexts: the state GDI draws with, the DC table's calls, and
//! the interface USER makes its windows' DCs through.
//!
//! A DC has a device (the display or the printer, devcaps.rs), a surface
//! (the screen, the printer's page, or a memory DC's selected bitmap), an
//! *origin* (where its device point (0, 0) lies on the surface: a window's
//! client or window corner on the screen), a *visible region* (surface
//! coordinates: what of the window shows) and its attributes
//! ([`DcState`]): colours, modes, the mapping, the selected objects, the
//! current position and the *clip region* (device coordinates, relative
//! to the origin). What a drawing call may touch is the visible region ∩
//! the clip region moved by the origin ∩ the surface.
//!
//! Defaults of a new DC (SDK, "Device-context attributes"): text black,
//! background white, OPAQUE, R2_COPYPEN, ALTERNATE, BLACKONWHITE,
//! TA_LEFT|TA_TOP|TA_NOUPDATECP, no character extra or justification,
//! brush origin (0, 0), position (0, 0), MM_TEXT, ABSOLUTE, BLACK_PEN,
//! WHITE_BRUSH, SYSTEM_FONT, DEFAULT_PALETTE, no clip region; a memory DC
//! holds a 1×1 monochrome bitmap.
//!
//! SaveDC pushes the attributes (with the clip region and the selected
//! objects) and returns the new depth; RestoreDC(n) goes back to depth n
//! (n > 0), or |n| levels back (n < 0), re-selecting the saved objects.
//! GetDCState copies the attributes into a new DC of their own (one that
//! draws nothing) and SetDCState gives them back, the pair SaveDC and
//! RestoreDC are built on in GDI 3.1.
//!
//! # The interface for USER
//!
//! USER makes the DCs of its windows (GetDC, GetWindowDC, BeginPaint) with
//! [`create_window_dc`]: the window's handle, the DC origin on the
//! screen (the client area's or the whole window's top-left corner) and
//! its visible region in screen coordinates (the part of the window not
//! covered, clipped to the update region for BeginPaint). As windows move
//! or uncover, [`Gdi::set_visible_region`] changes a DC's origin and
//! visible region; [`release_dc`] (ReleaseDC, EndPaint) gives it back.
//! [`Gdi::fill_rect`] fills a rectangle (logical coordinates of the DC,
//! right and bottom excluded, clipped) with a brush or a colour, for
//! WM_ERASEBKGND and the non-client area. `Gdi::sys_colors` holds the
//! system colours a `COLOR_x + 1` brush in FillRect stands for; USER's
//! SetSysColors writes them there.
//!
use super::color::Colors;
use super::devcaps::{Device, DisplayMode, idx};
use super::mapping::Mapping;
use super::objects::{Obj, Table};
use super::palette::Palette;
use super::raster::{self, Paint};
use super::surface::{Format, Surface};
use super::{Env, Gdi, Stop, Uc, arg_h, arg_i, pack_point, write_point};
use crate::win16::Win16;
use crate::win16::api::{Api, Arg};
use crate::win16::geom::{Point, Rect, Region};

/// What kind of DC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DcKind {
    /// A window's (USER's).
    Window,
    /// CreateDC("DISPLAY"): the whole screen.
    Display,
    /// CreateIC: answers questions, draws nothing.
    Info,
    /// CreateCompatibleDC: draws into its selected bitmap.
    Memory,
    /// CreateDC of a printer: draws into its page.
    Printer,
}

pub const TRANSPARENT: u16 = 1;
pub const OPAQUE: u16 = 2;
pub const R2_COPYPEN: u16 = 13;
pub const ALTERNATE: u16 = 1;
pub const WINDING: u16 = 2;
pub const BLACKONWHITE: u16 = 1;
pub const COLORONCOLOR: u16 = 3;
pub const TA_UPDATECP: u16 = 1;

/// A DC's attributes (what SaveDC saves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcState {
    pub text_color: u32,
    pub bk_color: u32,
    pub bk_mode: u16,
    pub rop2: u16,
    pub poly_fill_mode: u16,
    pub stretch_mode: u16,
    pub text_align: u16,
    /// SetTextCharacterExtra: extra space after each character (logical
    /// units).
    pub char_extra: i32,
    /// SetTextJustification: extra space (logical units) spread over the
    /// break characters of the next text output, and the number of breaks.
    pub break_extra: i32,
    pub break_count: i32,
    /// SetBrushOrg (device units, screen coordinates: KB Q102353).
    pub brush_org: Point,
    /// The current position (logical).
    pub pos: Point,
    pub map: Mapping,
    /// SetRelAbs: ABSOLUTE 1 or RELATIVE 2 (recorded; GDI ignored it).
    pub rel_abs: u16,
    pub pen: u16,
    pub brush: u16,
    pub font: u16,
    pub bitmap: u16,
    pub palette: u16,
    /// The clip region in device coordinates (None: no clipping beyond
    /// the visible region).
    pub clip: Option<Region>,
}

impl DcState {
    fn new(t: &Table, memory: bool) -> DcState {
        use super::objects::stock;
        DcState {
            text_color: 0,
            bk_color: 0x00FF_FFFF,
            bk_mode: OPAQUE,
            rop2: R2_COPYPEN,
            poly_fill_mode: ALTERNATE,
            stretch_mode: BLACKONWHITE,
            text_align: 0,
            char_extra: 0,
            break_extra: 0,
            break_count: 0,
            brush_org: Point::new(0, 0),
            pos: Point::new(0, 0),
            map: Mapping::default(),
            rel_abs: 1,
            pen: t.stock(stock::BLACK_PEN),
            brush: t.stock(stock::WHITE_BRUSH),
            font: t.stock(stock::SYSTEM_FONT),
            bitmap: if memory { t.stock_bitmap } else { 0 },
            palette: t.stock(stock::DEFAULT_PALETTE),
            clip: None,
        }
    }
}

/// A device context.
#[derive(Debug, Clone)]
pub struct Dc {
    pub kind: DcKind,
    pub device: Device,
    /// The window a window DC belongs to (0 for others).
    pub hwnd: u16,
    /// Device (0, 0) on the surface.
    pub origin: Point,
    /// The visible region, surface coordinates.
    pub vis: Region,
    pub state: DcState,
    pub saved: Vec<DcState>,
    /// The surface's format (a memory DC's: its bitmap's).
    format: Format,
    /// A printer DC's page.
    pub page: Option<Surface>,
    /// Bounds accumulation (bounds.rs): on, and what was drawn (device
    /// coordinates).
    pub bounds_on: bool,
    pub bounds: Option<Rect>,
    /// SaveVisRgn's stack (visrgn.rs): the region objects holding the
    /// saved visible regions.
    pub vis_saved: Vec<u16>,
    /// The handles InquireVisRgn and GetClipRgn gave out for this DC's
    /// visible and clip regions (objects.rs `Obj::DcRegion`), made at the
    /// first asking and freed with the DC.
    pub vis_rgn: Option<u16>,
    pub clip_rgn: Option<u16>,
}

/// The deepest SaveDC stack.
const MAX_SAVED: usize = 256;

impl Dc {
    fn new(kind: DcKind, device: Device, t: &Table) -> Dc {
        let format = if kind == DcKind::Memory {
            Format::Mono
        } else {
            device.format()
        };
        let size = match device {
            Device::Display(m) => Rect::new(0, 0, m.width, m.height),
            Device::Printer => {
                let (w, h) = super::devcaps::PRINTER_PAGE;
                Rect::new(0, 0, w, h)
            }
        };
        let vis = match kind {
            DcKind::Memory => Region::rect(Rect::new(0, 0, 1, 1)),
            _ => Region::rect(size),
        };
        Dc {
            kind,
            device,
            hwnd: 0,
            origin: Point::new(0, 0),
            vis,
            state: DcState::new(t, kind == DcKind::Memory),
            saved: Vec::new(),
            format,
            page: None,
            bounds_on: false,
            bounds: None,
            vis_saved: Vec::new(),
            vis_rgn: None,
            clip_rgn: None,
        }
    }

    /// A DC on the screen at `origin`, showing `vis` (screen coordinates).
    pub fn window(display: DisplayMode, t: &Table, hwnd: u16, origin: Point, vis: Region) -> Dc {
        let mut d = Dc::new(DcKind::Window, Device::Display(display), t);
        d.hwnd = hwnd;
        d.origin = origin;
        d.vis = vis;
        d
    }

    /// Does this DC (or a state it saved) hold object `h`?
    pub fn selects(&self, h: u16) -> bool {
        let s = |st: &DcState| {
            st.pen == h || st.brush == h || st.font == h || st.bitmap == h || st.palette == h
        };
        s(&self.state) || self.saved.iter().any(s)
    }

    /// The format of what it draws on.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Is it the VGA display's (its colours follow the VGA driver)?
    pub fn is_vga(&self) -> bool {
        matches!(self.device, Device::Display(m) if m.bpp == 4)
    }

    /// The device's GDIINFO.
    pub fn caps(&self) -> super::devcaps::Caps {
        self.device.caps()
    }

    /// A logical point as a surface point (clamped as
    /// [`Canvas::lp_to_sp`] does).
    pub fn lp_to_sp(&self, p: Point) -> Point {
        let d = self.state.map.lp_to_dp(p);
        let c = |v: i32, o: i32| v.saturating_add(o).clamp(-(1 << 28), 1 << 28);
        Point::new(c(d.x, self.origin.x), c(d.y, self.origin.y))
    }

    /// The region drawing may touch, surface coordinates.
    pub fn effective_clip(&self, surface: Rect) -> Region {
        let mut r = self.vis.intersect(&Region::rect(surface));
        if let Some(c) = &self.state.clip {
            r = r.intersect(&c.offset(self.origin.x, self.origin.y));
        }
        r
    }

    /// The surface's bounds (its size is known without the pixels for a
    /// memory DC from its visible region, which is its bitmap).
    pub fn surface_rect(&self, gdi_display: DisplayMode) -> Rect {
        match self.kind {
            DcKind::Memory => self.vis.bbox(),
            DcKind::Printer => {
                let (w, h) = super::devcaps::PRINTER_PAGE;
                Rect::new(0, 0, w, h)
            }
            _ => Rect::new(0, 0, gdi_display.width, gdi_display.height),
        }
    }
}

impl Gdi {
    /// The DC `h` (None for a handle that is no DC: Windows failed such
    /// calls).
    pub fn dc_mut(&mut self, h: u16) -> Option<&mut Dc> {
        self.objects.dc_mut(h)
    }

    /// The DC `h`, read-only.
    pub fn dc(&self, h: u16) -> Option<&Dc> {
        self.objects.dc(h)
    }

    /// How colours become pixels on DC `h`'s surface.
    pub fn colors_of(&mut self, h: u16) -> Option<Colors<'_>> {
        let (vga, format, pal) = {
            let d = self.dc_mut(h)?;
            (d.is_vga(), d.format(), d.state.palette)
        };
        Some(Colors {
            vga,
            format,
            syspal: &self.syspal,
            logpal: self.objects.palette(pal),
        })
    }

    /// USER's interface: move a DC's origin and change its visible region.
    pub fn set_visible_region(&mut self, hdc: u16, origin: Point, vis: Region) -> bool {
        match self.objects.dc_mut(hdc) {
            Some(d) => {
                d.origin = origin;
                d.vis = vis;
                true
            }
            None => false,
        }
    }

    /// USER's interface: fill `r` (logical coordinates of the DC) with a
    /// brush or a colour, as FillRect does.
    pub fn fill_rect(&mut self, hdc: u16, r: Rect, fill: Fill) -> bool {
        super::shapes::fill_rect_with(self, hdc, r, fill)
    }
}

/// USER's interface: a DC for window `hwnd` with device origin `origin`
/// (screen coordinates) and visible region `vis` (screen coordinates).
/// None when GDI's heap is full.
///
/// **The DC cache**: Windows 3.1's GetDC handed out one of USER's cached
/// common DCs, with default attributes each time (SDK, GetDC), and
/// ReleaseDC gave it back to the cache: the handle stayed a DC. So a DC
/// released is kept here, reset to the defaults with nothing visible, and
/// handed out again (the last released first); a program that still uses
/// a handle after ReleaseDC measures text with the System font, as on
/// Windows, instead of failing.
pub fn create_window_dc(
    w: &mut Win16,
    uc: &mut Uc<'_>,
    hwnd: u16,
    origin: Point,
    vis: Region,
) -> Option<u16> {
    super::heap::start(uc, w)?;
    while let Some(h) = w.gdi.dc_cache.pop() {
        if w.gdi
            .objects
            .dc(h)
            .is_some_and(|d| d.kind == DcKind::Window)
        {
            reset_window_dc(w, uc, h, hwnd, origin, vis);
            return Some(h);
        }
    }
    let d = Dc::window(w.gdi.display, &w.gdi.objects, hwnd, origin, vis);
    super::objects::create(w, uc, Obj::Dc(Box::new(d)))
}

/// Window DC `hdc` as fresh: default attributes, window `hwnd`, `origin`
/// and `vis`; the regions it owned are freed.
fn reset_window_dc(
    w: &mut Win16,
    uc: &mut Uc<'_>,
    hdc: u16,
    hwnd: u16,
    origin: Point,
    vis: Region,
) {
    let fresh = Dc::window(w.gdi.display, &w.gdi.objects, hwnd, origin, vis);
    let Some(d) = w.gdi.objects.dc_mut(hdc) else {
        return;
    };
    let old = std::mem::replace(d, fresh);
    for h in old
        .vis_saved
        .iter()
        .chain(&old.vis_rgn)
        .chain(&old.clip_rgn)
    {
        super::objects::destroy(w, uc, *h);
    }
}

/// USER's interface: give a window's DC back (ReleaseDC, EndPaint): it
/// goes to the DC cache ([`create_window_dc`]) with default attributes and
/// nothing visible.
pub fn release_dc(w: &mut Win16, uc: &mut Uc<'_>, hdc: u16) -> bool {
    match w.gdi.objects.dc(hdc) {
        Some(d) if d.kind == DcKind::Window => {
            reset_window_dc(w, uc, hdc, 0, Point::new(0, 0), Region::empty());
            if !w.gdi.dc_cache.contains(&hdc) {
                w.gdi.dc_cache.push(hdc);
            }
            true
        }
        _ => false,
    }
}

/// Take DC `hdc` out of the table and GDI's heap with the regions it
/// owns: the visible regions SaveVisRgn saved and not restored, and the
/// handles InquireVisRgn and GetClipRgn gave out (Windows 3.1 freed a DC's
/// hVisRgn and hClipRgn with it). The DC, None if `hdc` is none.
pub fn drop_dc(w: &mut Win16, uc: &mut Uc<'_>, hdc: u16) -> Option<Box<Dc>> {
    w.gdi.objects.dc(hdc)?;
    let Some(Obj::Dc(d)) = super::objects::destroy(w, uc, hdc) else {
        return None;
    };
    for h in d.vis_saved.iter().chain(&d.vis_rgn).chain(&d.clip_rgn) {
        super::objects::destroy(w, uc, *h);
    }
    Some(d)
}

/// What [`Gdi::fill_rect`] fills with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// A brush object.
    Brush(u16),
    /// A solid colour (a COLORREF), realized as a brush of that colour.
    Color(u32),
}

/// The system colours (COLOR_SCROLLBAR 0 … COLOR_BTNHIGHLIGHT 20) a
/// `COLOR_x + 1` brush handle stands for in FillRect, until USER's
/// SetSysColors changes them: Windows 3.1's default colour scheme.
pub static DEFAULT_SYS_COLORS: [u32; 21] = [
    0x00C0_C0C0,
    0x00C0_C0C0,
    0x0080_0000,
    0x00FF_FFFF,
    0x00FF_FFFF,
    0x00FF_FFFF,
    0x0000_0000,
    0x0000_0000,
    0x0000_0000,
    0x00FF_FFFF,
    0x00C0_C0C0,
    0x00C0_C0C0,
    0x00FF_FFFF,
    0x0080_0000,
    0x00FF_FFFF,
    0x00C0_C0C0,
    0x0080_8080,
    0x0080_8080,
    0x0000_0000,
    0x0000_0000,
    0x00FF_FFFF,
];

/// Where a canvas's pixels live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    Screen,
    Bitmap(u16),
    Page(u16),
}

/// A realized pen.
#[derive(Debug, Clone)]
pub struct PenSpec {
    pub style: u16,
    /// Width in device pixels (at least 1).
    pub width: i32,
    pub paint: Paint,
    /// The background paint for a styled pen's gaps (OPAQUE), if any.
    pub gap: Option<Paint>,
    /// The style-length unit of the device (GDIINFO dpStyleLen).
    pub style_len: i32,
}

/// An open drawing target: what every drawing call draws with (module
/// doc). Made by [`Canvas::open`], given back by [`Canvas::close`].
pub struct Canvas {
    pub hdc: u16,
    pub surf: Surface,
    pub loc: Loc,
    /// The pixels drawing may touch (surface coordinates).
    pub clip: Region,
    pub origin: Point,
    pub state: DcState,
    pub vga: bool,
    pub syspal: [u32; 256],
    pub logpal: Option<Palette>,
    /// None for PS_NULL.
    pub pen: Option<PenSpec>,
    /// None for a null brush.
    pub brush: Option<Paint>,
    /// What was drawn (surface coordinates), kept only while the DC
    /// accumulates bounds (bounds.rs).
    pub drawn: Option<Option<Rect>>,
}

impl Canvas {
    /// Open DC `hdc` for drawing: None when it is no DC or draws nothing
    /// (an information context).
    pub fn open(gdi: &mut Gdi, hdc: u16) -> Option<Canvas> {
        let display = gdi.display;
        let d = gdi.dc_mut(hdc)?.clone_head();
        let loc = match d.kind {
            DcKind::Info => return None,
            DcKind::Window | DcKind::Display => Loc::Screen,
            DcKind::Memory => Loc::Bitmap(d.state.bitmap),
            DcKind::Printer => Loc::Page(hdc),
        };
        let surf = match loc {
            Loc::Screen => gdi.take_screen(),
            Loc::Bitmap(h) => {
                std::mem::replace(&mut gdi.objects.bitmap_mut(h)?.surface, empty_surface())
            }
            Loc::Page(h) => {
                let dc = gdi.dc_mut(h)?;
                match dc.page.take() {
                    Some(p) => p,
                    None => {
                        let (w, hh) = super::devcaps::PRINTER_PAGE;
                        Surface::new(w, hh, Format::Mono, 1)?
                    }
                }
            }
        };
        let srect = Rect::new(0, 0, surf.width, surf.height);
        let _ = display;
        let clip = d.effective_clip(srect);
        let logpal = gdi.objects.palette(d.state.palette).cloned();
        let mut cv = Canvas {
            hdc,
            surf,
            loc,
            clip,
            origin: d.origin,
            state: d.state.clone(),
            vga: d.is_vga(),
            syspal: gdi.syspal,
            logpal,
            pen: None,
            brush: None,
            drawn: d.bounds_on.then_some(None),
        };
        cv.pen = cv.realize_pen(&gdi.objects, &d);
        cv.brush = cv.realize_brush(&gdi.objects);
        Some(cv)
    }

    /// Note that `r` (surface coordinates, already clipped) was drawn on,
    /// when the DC accumulates bounds.
    pub fn touch(&mut self, r: Rect) {
        if let Some(d) = &mut self.drawn
            && !r.is_empty()
        {
            *d = Some(match d {
                Some(b) => b.union(&r).unwrap_or(r),
                None => r,
            });
        }
    }

    /// Give the pixels back.
    pub fn close(self, gdi: &mut Gdi) {
        if let Some(Some(r)) = self.drawn
            && let Some(d) = gdi.dc_mut(self.hdc)
        {
            super::bounds::accumulate(d, r.offset(-self.origin.x, -self.origin.y));
        }
        match self.loc {
            Loc::Screen => gdi.put_screen(self.surf),
            Loc::Bitmap(h) => {
                if let Some(b) = gdi.objects.bitmap_mut(h) {
                    b.surface = self.surf;
                }
            }
            Loc::Page(h) => {
                if let Some(d) = gdi.dc_mut(h) {
                    d.page = Some(self.surf);
                }
            }
        }
    }

    /// Colour rules of this surface.
    pub fn colors(&self) -> Colors<'_> {
        Colors {
            vga: self.vga,
            format: self.surf.format,
            syspal: &self.syspal,
            logpal: self.logpal.as_ref(),
        }
    }

    /// A logical point on the surface (clamped to ±2^28: far beyond any
    /// surface, near enough that arithmetic on it never overflows).
    pub fn lp_to_sp(&self, p: Point) -> Point {
        let d = self.state.map.lp_to_dp(p);
        let c = |v: i32, o: i32| v.saturating_add(o).clamp(-(1 << 28), 1 << 28);
        Point::new(c(d.x, self.origin.x), c(d.y, self.origin.y))
    }

    /// A surface point as a logical point.
    pub fn sp_to_lp(&self, p: Point) -> Point {
        self.state
            .map
            .dp_to_lp(Point::new(p.x - self.origin.x, p.y - self.origin.y))
    }

    /// A solid paint of a colour with the DC's ROP2.
    pub fn solid_paint(&self, color: u32) -> Paint {
        Paint::solid(self.colors().solid(color), self.state.rop2)
    }

    /// Paint `[x1, x2)` of row `y`, clipped.
    pub fn span(&mut self, y: i32, x1: i32, x2: i32, paint: &Paint) {
        let Canvas {
            surf, clip, drawn, ..
        } = self;
        let track = drawn.is_some();
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        raster::clip_span(clip, y, x1, x2, |a, b| {
            if track {
                lo = lo.min(a);
                hi = hi.max(b);
            }
            raster::fill_span(surf, y, a, b, paint)
        });
        if track && lo < hi {
            self.touch(Rect::new(lo, y, hi, y + 1));
        }
    }

    /// Paint one pixel, clipped.
    pub fn plot(&mut self, x: i32, y: i32, paint: &Paint) {
        raster::plot(&mut self.surf, &self.clip, x, y, paint);
        if self.drawn.is_some() && self.clip.contains(Point::new(x, y)) && self.surf.contains(x, y)
        {
            self.touch(Rect::new(x, y, x + 1, y + 1));
        }
    }

    /// Paint a region (surface coordinates), clipped.
    pub fn fill_region(&mut self, area: &Region, paint: &Paint) {
        raster::fill_region(&mut self.surf, area, &self.clip, paint);
        if self.drawn.is_some() {
            let b = area.bbox().intersect(&self.clip.bbox()).unwrap_or_default();
            self.touch(b);
        }
    }

    fn realize_pen(&self, t: &Table, d: &Dc) -> Option<PenSpec> {
        let pen = t
            .pen(self.state.pen)
            .copied()
            .unwrap_or(super::pen::Pen::new(0, 0, 0));
        let style = pen.style();
        if style == super::pen::PS_NULL || pen.log.width.0 < 0 {
            return None;
        }
        let width = self
            .state
            .map
            .width_to_device(i32::from(pen.log.width.0))
            .max(1);
        let colors = self.colors();
        let paint = if style == super::pen::PS_INSIDEFRAME && width > 1 {
            // A wide inside-frame pen is drawn with the dithered colour
            // (DDK, LPEN).
            match colors.brush(pen.log.color) {
                Ok(px) => Paint::solid(px, self.state.rop2),
                Err(p) => Paint {
                    pattern: *p,
                    skip: None,
                    org: (self.state.brush_org.x, self.state.brush_org.y),
                    solid: false,
                    rop2: self.state.rop2,
                },
            }
        } else {
            Paint::solid(colors.solid(pen.log.color), self.state.rop2)
        };
        let styled = (1..=4).contains(&style) && width == 1;
        let gap = (styled && self.state.bk_mode == OPAQUE)
            .then(|| Paint::solid(colors.solid(self.state.bk_color), self.state.rop2));
        Some(PenSpec {
            style: if styled || style == super::pen::PS_INSIDEFRAME {
                style
            } else {
                super::pen::PS_SOLID
            },
            width,
            paint,
            gap,
            style_len: i32::from(d.caps().get(idx::STYLELEN)).max(1),
        })
    }

    fn realize_brush(&self, t: &Table) -> Option<Paint> {
        let b = t.brush(self.state.brush)?;
        let org = b.realized_at.unwrap_or(self.state.brush_org);
        b.paint(
            &self.colors(),
            self.state.text_color,
            self.state.bk_color,
            self.state.bk_mode,
            self.state.rop2,
            (org.x, org.y),
        )
    }
}

/// A placeholder while a bitmap's pixels are out in a canvas.
fn empty_surface() -> Surface {
    Surface {
        width: 0,
        height: 0,
        format: Format::Mono,
        px: Vec::new(),
    }
}

impl Dc {
    /// A copy without the page's pixels.
    fn clone_head(&self) -> Dc {
        Dc {
            kind: self.kind,
            device: self.device,
            hwnd: self.hwnd,
            origin: self.origin,
            vis: self.vis.clone(),
            state: self.state.clone(),
            saved: Vec::new(),
            format: self.format,
            page: None,
            bounds_on: self.bounds_on,
            bounds: None,
            vis_saved: Vec::new(),
            vis_rgn: None,
            clip_rgn: None,
        }
    }
}

/// The surface format of DC `hdc` (CreateCompatibleBitmap's format).
pub fn surface_format(gdi: &mut Gdi, hdc: u16) -> Option<Format> {
    if hdc == 0 {
        return Some(gdi.display.format());
    }
    let d = gdi.dc_mut(hdc)?;
    Some(match d.kind {
        // A memory DC's bitmaps are of its device's format unless the DC
        // holds a monochrome one (then compatible means monochrome).
        DcKind::Memory => d.format,
        _ => d.device.format(),
    })
}

/// SelectObject's work (objects.rs): the previous object, or for a region
/// the new clip region's type; None on failure.
pub fn select(gdi: &mut Gdi, _uc: &mut Uc<'_>, hdc: u16, h: u16) -> Option<u16> {
    let kind = match gdi.objects.get(h)? {
        Obj::Pen(_) => 1,
        Obj::Brush(_) => 2,
        Obj::Font(_) => 3,
        Obj::Bitmap(_) => 5,
        Obj::Region(_) | Obj::DcRegion(_) => {
            let r = gdi.objects.region(h)?.clone();
            return Some(super::region::select_clip(gdi, hdc, Some(&r)).unwrap_or(0));
        }
        Obj::Palette(_) | Obj::Dc(_) => return None,
    };
    if kind == 5 {
        return select_bitmap(gdi, hdc, h);
    }
    if kind == 2 {
        // The brush is realized at the DC's brush origin the first time
        // it is selected (and after UnrealizeObject).
        let org = gdi.dc_mut(hdc)?.state.brush_org;
        let b = gdi.objects.brush_mut(h)?;
        if b.realized_at.is_none() {
            b.realized_at = Some(org);
        }
    }
    let d = gdi.dc_mut(hdc)?;
    let slot = match kind {
        1 => &mut d.state.pen,
        2 => &mut d.state.brush,
        _ => &mut d.state.font,
    };
    let prev = *slot;
    *slot = h;
    Some(prev)
}

/// Select bitmap `h` into memory DC `hdc`: it must be monochrome or of the
/// DC's device format, and in no other DC (the stock 1×1 bitmap excepted).
fn select_bitmap(gdi: &mut Gdi, hdc: u16, h: u16) -> Option<u16> {
    let (fmt, w, hgt) = {
        let b = gdi.objects.bitmap(h)?;
        (b.surface.format, b.surface.width, b.surface.height)
    };
    if h != gdi.objects.stock_bitmap {
        let elsewhere = gdi
            .objects
            .dcs()
            .into_iter()
            .any(|o| o != hdc && gdi.objects.dc(o).is_some_and(|d| d.state.bitmap == h));
        if elsewhere {
            return None;
        }
    }
    let d = gdi.dc_mut(hdc)?;
    if d.kind != DcKind::Memory {
        return None;
    }
    if fmt != Format::Mono && fmt != d.device.format() {
        return None;
    }
    let prev = d.state.bitmap;
    d.state.bitmap = h;
    d.format = fmt;
    d.vis = Region::rect(Rect::new(0, 0, w, hgt));
    Some(prev)
}

// ---------------------------------------------------------------------
// The calls.

pub(crate) fn make_dc(env: &mut Env, uc: &mut Uc<'_>, kind: DcKind, device: Device) -> u32 {
    if super::heap::start(uc, &mut env.win16).is_none() {
        return 0;
    }
    let d = Dc::new(kind, device, &env.win16.gdi.objects);
    super::objects::create(&mut env.win16, uc, Obj::Dc(Box::new(d))).map_or(0, u32::from)
}

/// The device a CreateDC/CreateIC driver name names: "DISPLAY" (any case)
/// is the display, any other driver the printer; None for NULL.
fn device_named(env: &Env, uc: &Uc<'_>, p: u32) -> Option<Device> {
    if p == 0 {
        return None;
    }
    let name = crate::win16::farptr::read_cstr(uc, p, 128)?;
    if name.eq_ignore_ascii_case(b"DISPLAY") {
        Some(Device::Display(env.win16.gdi.display))
    } else if name.is_empty() {
        None
    } else {
        Some(Device::Printer)
    }
}

/// GDI.53 CreateDC(lpszDriver, lpszDevice, lpszOutput, lpInitData).
fn create_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match device_named(env, uc, a[0]) {
        Some(d @ Device::Display(_)) => make_dc(env, uc, DcKind::Display, d),
        Some(Device::Printer) => make_dc(env, uc, DcKind::Printer, Device::Printer),
        None => 0,
    })
}

/// GDI.153 CreateIC(lpszDriver, lpszDevice, lpszOutput, lpInitData).
fn create_ic(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match device_named(env, uc, a[0]) {
        Some(d) => make_dc(env, uc, DcKind::Info, d),
        None => 0,
    })
}

/// GDI.52 CreateCompatibleDC(hDC): a memory DC of hDC's device (the
/// display's for NULL).
pub fn create_compatible_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let device = if hdc == 0 {
        Device::Display(env.win16.gdi.display)
    } else {
        match env.win16.gdi.dc_mut(hdc) {
            Some(d) => d.device,
            None => return Ok(0),
        }
    };
    Ok(make_dc(env, uc, DcKind::Memory, device))
}

/// GDI.68 DeleteDC(hDC) -> BOOL: a DC CreateDC, CreateIC or
/// CreateCompatibleDC made (not a window's).
pub fn delete_dc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    match env.win16.gdi.objects.dc(h) {
        Some(d) if d.kind != DcKind::Window => {
            if let Some(d) = drop_dc(&mut env.win16, uc, h) {
                if let Some(p) = &d.page {
                    env.win16.gdi.release_bytes(p.bytes());
                }
            }
            env.win16.gdi.printer.forget(h);
            Ok(1)
        }
        _ => Ok(0),
    }
}

/// GDI.30 SaveDC(hDC) -> the new save depth, 0 on failure.
fn save_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    if d.saved.len() >= MAX_SAVED {
        return Ok(0);
    }
    d.saved.push(d.state.clone());
    Ok(d.saved.len() as u32)
}

/// GDI.39 RestoreDC(hDC, nSavedDC) -> BOOL.
fn restore_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = arg_h(a[0]);
    let n = arg_i(a[1]);
    let gdi = &mut env.win16.gdi;
    let Some(d) = gdi.dc_mut(hdc) else {
        return Ok(0);
    };
    let depth = d.saved.len() as i32;
    let target = if n < 0 { depth + n + 1 } else { n };
    if target < 1 || target > depth {
        return Ok(0);
    }
    d.saved.truncate(target as usize);
    let st = d.saved.pop().expect("depth checked");
    take_state(gdi, hdc, st);
    Ok(1)
}

/// Give the DC `hdc` the attributes `st`; a memory DC's bitmap comes back
/// with its format and extent.
fn take_state(gdi: &mut super::Gdi, hdc: u16, st: DcState) {
    let bitmap = st.bitmap;
    let Some(d) = gdi.dc_mut(hdc) else {
        return;
    };
    let kind = d.kind;
    d.state = st;
    if kind == DcKind::Memory {
        if let Some(b) = gdi.objects.bitmap(bitmap) {
            let (fmt, r) = (
                b.surface.format,
                Rect::new(0, 0, b.surface.width, b.surface.height),
            );
            let d = gdi.dc_mut(hdc).expect("checked");
            d.format = fmt;
            d.vis = Region::rect(r);
        }
    }
}

/// GDI.179 GetDCState(hDC) (undocumented; the call SaveDC is built on in
/// GDI 3.1, as Schulman's *Undocumented Windows* and Wine's notes describe
/// it): a new DC holding a copy of hDC's attributes — colours, modes, the
/// mapping, the current position, the clip region and the selected
/// objects — that answers queries and draws nothing; DeleteDC frees it.
/// 0 for a handle that is no DC.
fn get_dc_state(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc(arg_h(a[0])) else {
        return Ok(0);
    };
    let (device, state) = (d.device, d.state.clone());
    let copy = make_dc(env, uc, DcKind::Info, device);
    match env.win16.gdi.dc_mut(copy as u16) {
        Some(c) => c.state = state,
        None => return Ok(0),
    }
    Ok(copy)
}

/// GDI.180 SetDCState(hDC, hSavedDC) (undocumented; RestoreDC's half, the
/// same sources): hDC takes hSavedDC's attributes, as RestoreDC gives a
/// saved level back. Nothing happens when either handle is no DC. No
/// return value.
fn set_dc_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let gdi = &mut env.win16.gdi;
    let (hdc, saved) = (arg_h(a[0]), arg_h(a[1]));
    if gdi.dc(hdc).is_none() {
        return Ok(0);
    }
    if let Some(st) = gdi.dc(saved).map(|d| d.state.clone()) {
        take_state(gdi, hdc, st);
    }
    Ok(0)
}

/// A setter of one attribute: the previous value, or 0 for a DC that is
/// not there or a value `valid` refuses.
fn set_attr(
    env: &mut Env,
    hdc: u32,
    v: u32,
    valid: impl Fn(u32) -> bool,
    field: impl Fn(&mut DcState) -> &mut u32,
) -> u32 {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(hdc)) else {
        return 0;
    };
    if !valid(v) {
        return 0;
    }
    std::mem::replace(field(&mut d.state), v)
}

fn set_attr16(
    env: &mut Env,
    hdc: u32,
    v: u32,
    valid: impl Fn(u16) -> bool,
    field: impl Fn(&mut DcState) -> &mut u16,
) -> u32 {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(hdc)) else {
        return 0;
    };
    let v = v as u16;
    if !valid(v) {
        return 0;
    }
    u32::from(std::mem::replace(field(&mut d.state), v))
}

fn get_attr<T: Into<u32>>(env: &mut Env, hdc: u32, f: impl Fn(&Dc) -> T) -> u32 {
    env.win16.gdi.dc_mut(arg_h(hdc)).map_or(0, |d| f(d).into())
}

/// GDI.1 SetBkColor(hDC, crColor) -> previous colour.
pub fn set_bk_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr(env, a[0], a[1], |_| true, |s| &mut s.bk_color))
}

/// GDI.9 SetTextColor(hDC, crColor) -> previous colour.
pub fn set_text_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr(env, a[0], a[1], |_| true, |s| &mut s.text_color))
}

/// GDI.2 SetBkMode(hDC, nMode) -> previous (TRANSPARENT 1, OPAQUE 2).
pub fn set_bk_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(
        env,
        a[0],
        a[1],
        |v| v == 1 || v == 2,
        |s| &mut s.bk_mode,
    ))
}

/// GDI.4 SetROP2(hDC, nDrawMode) -> previous (1..=16).
fn set_rop2(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(
        env,
        a[0],
        a[1],
        |v| (1..=16).contains(&v),
        |s| &mut s.rop2,
    ))
}

/// GDI.5 SetRelAbs(hDC, nMode) -> previous (ABSOLUTE 1, RELATIVE 2).
fn set_rel_abs(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(
        env,
        a[0],
        a[1],
        |v| v == 1 || v == 2,
        |s| &mut s.rel_abs,
    ))
}

/// GDI.6 SetPolyFillMode(hDC, nMode) -> previous (ALTERNATE 1, WINDING 2).
fn set_poly_fill_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(
        env,
        a[0],
        a[1],
        |v| v == 1 || v == 2,
        |s| &mut s.poly_fill_mode,
    ))
}

/// GDI.7 SetStretchBltMode(hDC, nMode) -> previous (BLACKONWHITE 1,
/// WHITEONBLACK 2, COLORONCOLOR 3).
fn set_stretch_blt_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(
        env,
        a[0],
        a[1],
        |v| (1..=3).contains(&v),
        |s| &mut s.stretch_mode,
    ))
}

/// GDI.8 SetTextCharacterExtra(hDC, nCharExtra) -> previous.
fn set_text_character_extra(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0x8000);
    };
    let prev = std::mem::replace(&mut d.state.char_extra, arg_i(a[1]));
    Ok(u32::from(prev as u16))
}

/// GDI.89 GetTextCharacterExtra(hDC).
fn get_text_character_extra(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.char_extra as u16))
}

/// GDI.10 SetTextJustification(hDC, nBreakExtra, nBreakCount) -> 1.
fn set_text_justification(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    d.state.break_extra = arg_i(a[1]);
    d.state.break_count = arg_i(a[2]);
    Ok(1)
}

/// GDI.346 SetTextAlign(hDC, wFlags) -> previous.
fn set_text_align(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(set_attr16(env, a[0], a[1], |_| true, |s| &mut s.text_align))
}

/// GDI.345 GetTextAlign(hDC).
fn get_text_align(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.text_align))
}

/// GDI.75 GetBkColor(hDC).
fn get_bk_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.bk_color))
}

/// GDI.90 GetTextColor(hDC).
pub fn get_text_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.text_color))
}

/// GDI.76 GetBkMode(hDC).
fn get_bk_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.bk_mode))
}

/// GDI.85 GetROP2(hDC).
fn get_rop2(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.rop2))
}

/// GDI.86 GetRelAbs(hDC).
fn get_rel_abs(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.rel_abs))
}

/// GDI.84 GetPolyFillMode(hDC).
fn get_poly_fill_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.poly_fill_mode))
}

/// GDI.88 GetStretchBltMode(hDC).
fn get_stretch_blt_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| d.state.stretch_mode))
}

/// GDI.148 SetBrushOrg(hDC, x, y) -> the previous origin (x low word).
fn set_brush_org(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let prev = d.state.brush_org;
    d.state.brush_org = Point::new(arg_i(a[1]), arg_i(a[2]));
    Ok(pack_point(prev))
}

/// GDI.149 GetBrushOrg(hDC).
fn get_brush_org(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| pack_point(d.state.brush_org)))
}

/// GDI.469 GetBrushOrgEx(hDC, lpPoint) -> BOOL.
fn get_brush_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(p) = env.win16.gdi.dc_mut(arg_h(a[0])).map(|d| d.state.brush_org) else {
        return Ok(0);
    };
    Ok(u32::from(write_point(uc, a[1], p)))
}

/// GDI.20 MoveTo(hDC, x, y) -> the previous position.
pub fn move_to(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let prev = d.state.pos;
    d.state.pos = Point::new(arg_i(a[1]), arg_i(a[2]));
    Ok(pack_point(prev))
}

/// GDI.483 MoveToEx(hDC, x, y, lpPoint) -> BOOL.
fn move_to_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let prev = d.state.pos;
    d.state.pos = Point::new(arg_i(a[1]), arg_i(a[2]));
    if a[3] != 0 {
        write_point(uc, a[3], prev);
    }
    Ok(1)
}

/// GDI.78 GetCurrentPosition(hDC).
fn get_current_position(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| pack_point(d.state.pos)))
}

/// GDI.470 GetCurrentPositionEx(hDC, lpPoint) -> BOOL.
fn get_current_position_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(p) = env.win16.gdi.dc_mut(arg_h(a[0])).map(|d| d.state.pos) else {
        return Ok(0);
    };
    Ok(u32::from(write_point(uc, a[1], p)))
}

/// GDI.79 GetDCOrg(hDC) -> the DC origin in screen coordinates.
/// GDI.411 GetCurLogFont(hDC) -> the font selected into the DC (the
/// stock System font until another is selected); 0 for no DC.
fn get_cur_log_font(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .gdi
        .dc_mut(arg_h(a[0]))
        .map_or(0, |d| u32::from(d.state.font)))
}

fn get_dc_org(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_attr(env, a[0], |d| pack_point(d.origin)))
}

/// GDI.117 SetDCOrg(hDC, x, y) -> the previous origin (USER's internal
/// call; moves the visible region with the origin).
fn set_dc_org(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let prev = d.origin;
    d.origin = Point::new(arg_i(a[1]), arg_i(a[2]));
    Ok(pack_point(prev))
}

/// GDI.80 GetDeviceCaps(hDC, nIndex).
fn get_device_caps(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    Ok(u32::from(d.caps().get(a[1] as u16) as u16))
}

/// GDI.376 ResetDC(hDC, lpDevMode) -> hDC (the DC's attributes are
/// reset; its device stays).
fn reset_dc(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let gdi = &mut env.win16.gdi;
    let fresh = DcState::new(&gdi.objects, false);
    let Some(d) = gdi.dc_mut(h) else {
        return Ok(0);
    };
    let bitmap = d.state.bitmap;
    d.state = DcState { bitmap, ..fresh };
    Ok(u32::from(h))
}

pub static APIS: &[Api] = &[
    Api::new("GDI", 1, "SETBKCOLOR", &[Arg::W, Arg::L], set_bk_color),
    Api::new("GDI", 2, "SETBKMODE", &[Arg::W, Arg::W], set_bk_mode),
    Api::new("GDI", 4, "SETROP2", &[Arg::W, Arg::W], set_rop2),
    Api::new("GDI", 5, "SETRELABS", &[Arg::W, Arg::W], set_rel_abs),
    Api::new(
        "GDI",
        6,
        "SETPOLYFILLMODE",
        &[Arg::W, Arg::W],
        set_poly_fill_mode,
    ),
    Api::new(
        "GDI",
        7,
        "SETSTRETCHBLTMODE",
        &[Arg::W, Arg::W],
        set_stretch_blt_mode,
    ),
    Api::new(
        "GDI",
        8,
        "SETTEXTCHARACTEREXTRA",
        &[Arg::W, Arg::W],
        set_text_character_extra,
    ),
    Api::new("GDI", 9, "SETTEXTCOLOR", &[Arg::W, Arg::L], set_text_color),
    Api::new(
        "GDI",
        10,
        "SETTEXTJUSTIFICATION",
        &[Arg::W, Arg::W, Arg::W],
        set_text_justification,
    ),
    Api::new("GDI", 20, "MOVETO", &[Arg::W, Arg::W, Arg::W], move_to),
    Api::new("GDI", 30, "SAVEDC", &[Arg::W], save_dc),
    Api::new("GDI", 39, "RESTOREDC", &[Arg::W, Arg::W], restore_dc),
    Api::new("GDI", 179, "GETDCSTATE", &[Arg::W], get_dc_state),
    Api::new("GDI", 180, "SETDCSTATE", &[Arg::W, Arg::W], set_dc_state),
    Api::new(
        "GDI",
        52,
        "CREATECOMPATIBLEDC",
        &[Arg::W],
        create_compatible_dc,
    ),
    Api::new(
        "GDI",
        53,
        "CREATEDC",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        create_dc,
    ),
    Api::new("GDI", 68, "DELETEDC", &[Arg::W], delete_dc),
    Api::new("GDI", 75, "GETBKCOLOR", &[Arg::W], get_bk_color),
    Api::new("GDI", 76, "GETBKMODE", &[Arg::W], get_bk_mode),
    Api::new(
        "GDI",
        78,
        "GETCURRENTPOSITION",
        &[Arg::W],
        get_current_position,
    ),
    Api::new("GDI", 79, "GETDCORG", &[Arg::W], get_dc_org),
    Api::new("GDI", 411, "GETCURLOGFONT", &[Arg::W], get_cur_log_font),
    Api::new(
        "GDI",
        80,
        "GETDEVICECAPS",
        &[Arg::W, Arg::W],
        get_device_caps,
    ),
    Api::new("GDI", 84, "GETPOLYFILLMODE", &[Arg::W], get_poly_fill_mode),
    Api::new("GDI", 85, "GETROP2", &[Arg::W], get_rop2),
    Api::new("GDI", 86, "GETRELABS", &[Arg::W], get_rel_abs),
    Api::new(
        "GDI",
        88,
        "GETSTRETCHBLTMODE",
        &[Arg::W],
        get_stretch_blt_mode,
    ),
    Api::new(
        "GDI",
        89,
        "GETTEXTCHARACTEREXTRA",
        &[Arg::W],
        get_text_character_extra,
    ),
    Api::new("GDI", 90, "GETTEXTCOLOR", &[Arg::W], get_text_color),
    Api::new(
        "GDI",
        117,
        "SETDCORG",
        &[Arg::W, Arg::W, Arg::W],
        set_dc_org,
    ),
    Api::new(
        "GDI",
        148,
        "SETBRUSHORG",
        &[Arg::W, Arg::W, Arg::W],
        set_brush_org,
    ),
    Api::new("GDI", 149, "GETBRUSHORG", &[Arg::W], get_brush_org),
    Api::new(
        "GDI",
        153,
        "CREATEIC",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        create_ic,
    ),
    Api::new("GDI", 345, "GETTEXTALIGN", &[Arg::W], get_text_align),
    Api::new(
        "GDI",
        346,
        "SETTEXTALIGN",
        &[Arg::W, Arg::W],
        set_text_align,
    ),
    Api::new("GDI", 376, "RESETDC", &[Arg::W, Arg::L], reset_dc),
    Api::new(
        "GDI",
        469,
        "GETBRUSHORGEX",
        &[Arg::W, Arg::L],
        get_brush_org_ex,
    ),
    Api::new(
        "GDI",
        470,
        "GETCURRENTPOSITIONEX",
        &[Arg::W, Arg::L],
        get_current_position_ex,
    ),
    Api::new(
        "GDI",
        483,
        "MOVETOEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        move_to_ex,
    ),
];
