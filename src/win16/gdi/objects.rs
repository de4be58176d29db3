//! GDI's objects and their handles: pens, brushes, fonts, bitmaps,
//! regions, palettes and device contexts share one table, as they shared
//! GDI's local heap in Windows 3.1.
//!
//! **Handles.** A GDI handle was a local handle of GDI's heap: a small even
//! number, never 0, and one handle space for every kind of object (a DC
//! handle never equals a pen's). Here handles are multiples of 4 from
//! [`FIRST_HANDLE`] (a moveable local handle pointed at a 4-byte handle
//! table entry), the stock objects first, each freed handle reused. At most
//! [`MAX_OBJECTS`] live at once: creation then fails (returns 0), as GDI's
//! heap ran full.
//!
//! **The calls of this file.** SelectObject (returns the previous object of
//! that kind; a region selects a clip region and returns its type; a bitmap
//! only into a memory DC, one DC at a time, of a format the DC can hold),
//! DeleteObject (refuses, returning FALSE, an object selected into a DC, as
//! Windows 3.1 did; stock objects are never deleted), GetObject (fills
//! LOGPEN, LOGBRUSH, LOGFONT, BITMAP or a palette's entry count with their
//! 16-bit layouts, at most cbBuffer bytes, and returns the bytes written),
//! GetStockObject, UnrealizeObject (a brush realizes its pattern again at
//! its next selection, at the DC's brush origin: KB Q102353) and
//! IsGDIObject (the object's type: 1 pen, 2 brush, 3 font, 4 palette,
//! 5 bitmap, 6 region, 7 DC; Wine's gdi.exe16 after *Windows 95 System
//! Programming Secrets*).

use std::collections::HashMap;

use super::Gdi;
use super::bitmap::Bitmap;
use super::brush::Brush;
use super::dc::Dc;
use super::logfont::LogFont;
use super::palette::Palette;
use super::pen::Pen;
use crate::win16::api::{Api, Arg};
use crate::win16::geom::Region;

/// The first handle; handles step by 4.
pub const FIRST_HANDLE: u16 = 0x0100;
/// Handles stay below this (the table's size).
pub const HANDLE_LIMIT: u16 = 0x5000;
/// The most objects alive at once.
pub const MAX_OBJECTS: usize = ((HANDLE_LIMIT - FIRST_HANDLE) / 4) as usize;

/// One object.
#[derive(Debug, Clone)]
pub enum Obj {
    Pen(Pen),
    Brush(Brush),
    Font(LogFont),
    Bitmap(Box<Bitmap>),
    Region(Region),
    Palette(Box<Palette>),
    Dc(Box<Dc>),
    /// A region a DC owns and keeps its own region in (InquireVisRgn's
    /// and GetClipRgn's handles, visrgn.rs): the handle names the DC's
    /// region itself, so reading it reads the DC's region as it is now
    /// and changing it (CombineRgn, OffsetRgn, SetRectRgn) changes the
    /// DC's. Freed with the DC.
    DcRegion(DcRegion),
}

/// Which of a DC's regions an [`Obj::DcRegion`] handle names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DcRegion {
    pub hdc: u16,
    pub part: DcPart,
}

/// A DC's own regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DcPart {
    /// The visible region (surface coordinates): Windows 3.1's hVisRgn.
    Vis,
    /// The clip region the program selected (device coordinates):
    /// hClipRgn; absent while the DC has none.
    Clip,
}

impl Obj {
    /// IsGDIObject's type number.
    pub fn type_number(&self) -> u16 {
        match self {
            Obj::Pen(_) => 1,
            Obj::Brush(_) => 2,
            Obj::Font(_) => 3,
            Obj::Palette(_) => 4,
            Obj::Bitmap(_) => 5,
            Obj::Region(_) | Obj::DcRegion(_) => 6,
            Obj::Dc(_) => 7,
        }
    }
}

/// The stock objects (GetStockObject's index).
pub mod stock {
    pub const WHITE_BRUSH: u16 = 0;
    pub const LTGRAY_BRUSH: u16 = 1;
    pub const GRAY_BRUSH: u16 = 2;
    pub const DKGRAY_BRUSH: u16 = 3;
    pub const BLACK_BRUSH: u16 = 4;
    pub const NULL_BRUSH: u16 = 5;
    pub const WHITE_PEN: u16 = 6;
    pub const BLACK_PEN: u16 = 7;
    pub const NULL_PEN: u16 = 8;
    pub const OEM_FIXED_FONT: u16 = 10;
    pub const ANSI_FIXED_FONT: u16 = 11;
    pub const ANSI_VAR_FONT: u16 = 12;
    pub const SYSTEM_FONT: u16 = 13;
    pub const DEVICE_DEFAULT_FONT: u16 = 14;
    pub const DEFAULT_PALETTE: u16 = 15;
    pub const SYSTEM_FIXED_FONT: u16 = 16;
    /// Indices 0..=16 (9 is no object in Windows 3.1).
    pub const COUNT: u16 = 17;
}

/// The object table.
#[derive(Debug)]
pub struct Table {
    objs: HashMap<u16, Obj>,
    /// Handle of each stock object by index (0 for index 9).
    stock: [u16; stock::COUNT as usize],
    /// The default 1×1 monochrome bitmap of memory DCs.
    pub stock_bitmap: u16,
    next: u16,
}

impl Default for Table {
    fn default() -> Self {
        let mut t = Table {
            objs: HashMap::new(),
            stock: [0; stock::COUNT as usize],
            stock_bitmap: 0,
            next: FIRST_HANDLE,
        };
        use super::color::rgb;
        let brush = |c| Obj::Brush(Brush::solid(c));
        let pen = |style, c| Obj::Pen(Pen::new(style, 0, c));
        let list: [(u16, Obj); 16] = [
            (stock::WHITE_BRUSH, brush(rgb(255, 255, 255))),
            (stock::LTGRAY_BRUSH, brush(rgb(0xC0, 0xC0, 0xC0))),
            (stock::GRAY_BRUSH, brush(rgb(0x80, 0x80, 0x80))),
            (stock::DKGRAY_BRUSH, brush(rgb(0x40, 0x40, 0x40))),
            (stock::BLACK_BRUSH, brush(rgb(0, 0, 0))),
            (stock::NULL_BRUSH, Obj::Brush(Brush::null())),
            (stock::WHITE_PEN, pen(0, rgb(255, 255, 255))),
            (stock::BLACK_PEN, pen(0, rgb(0, 0, 0))),
            (stock::NULL_PEN, pen(5, 0)),
            (
                stock::OEM_FIXED_FONT,
                Obj::Font(LogFont::stock(stock::OEM_FIXED_FONT)),
            ),
            (
                stock::ANSI_FIXED_FONT,
                Obj::Font(LogFont::stock(stock::ANSI_FIXED_FONT)),
            ),
            (
                stock::ANSI_VAR_FONT,
                Obj::Font(LogFont::stock(stock::ANSI_VAR_FONT)),
            ),
            (
                stock::SYSTEM_FONT,
                Obj::Font(LogFont::stock(stock::SYSTEM_FONT)),
            ),
            (
                stock::DEVICE_DEFAULT_FONT,
                Obj::Font(LogFont::stock(stock::DEVICE_DEFAULT_FONT)),
            ),
            (
                stock::DEFAULT_PALETTE,
                Obj::Palette(Box::new(Palette::default_palette())),
            ),
            (
                stock::SYSTEM_FIXED_FONT,
                Obj::Font(LogFont::stock(stock::SYSTEM_FIXED_FONT)),
            ),
        ];
        for (i, o) in list {
            let h = t.insert(o).unwrap_or(0);
            t.stock[usize::from(i)] = h;
        }
        t.stock_bitmap = t
            .insert(Obj::Bitmap(Box::new(Bitmap::stock())))
            .unwrap_or(0);
        t
    }
}

impl Table {
    /// Add an object: its new handle, None when the table is full.
    pub fn insert(&mut self, o: Obj) -> Option<u16> {
        if self.objs.len() >= MAX_OBJECTS {
            return None;
        }
        let mut h = self.next;
        loop {
            if !(FIRST_HANDLE..HANDLE_LIMIT).contains(&h) {
                h = FIRST_HANDLE;
            }
            if !self.objs.contains_key(&h) {
                break;
            }
            h += 4;
        }
        self.objs.insert(h, o);
        self.next = h + 4;
        Some(h)
    }

    pub fn get(&self, h: u16) -> Option<&Obj> {
        self.objs.get(&h)
    }

    pub fn get_mut(&mut self, h: u16) -> Option<&mut Obj> {
        self.objs.get_mut(&h)
    }

    /// Remove an object (no checks).
    pub fn remove(&mut self, h: u16) -> Option<Obj> {
        let o = self.objs.remove(&h);
        if o.is_some() && h < self.next {
            // Reuse the lowest freed handle first, as LocalAlloc did.
            self.next = h;
        }
        o
    }

    /// The stock object with index `i`.
    pub fn stock(&self, i: u16) -> u16 {
        self.stock.get(usize::from(i)).copied().unwrap_or(0)
    }

    pub fn is_stock(&self, h: u16) -> bool {
        h != 0 && (self.stock.contains(&h) || h == self.stock_bitmap)
    }

    pub fn pen(&self, h: u16) -> Option<&Pen> {
        match self.objs.get(&h) {
            Some(Obj::Pen(p)) => Some(p),
            _ => None,
        }
    }

    pub fn brush(&self, h: u16) -> Option<&Brush> {
        match self.objs.get(&h) {
            Some(Obj::Brush(b)) => Some(b),
            _ => None,
        }
    }

    pub fn brush_mut(&mut self, h: u16) -> Option<&mut Brush> {
        match self.objs.get_mut(&h) {
            Some(Obj::Brush(b)) => Some(b),
            _ => None,
        }
    }

    pub fn font(&self, h: u16) -> Option<&LogFont> {
        match self.objs.get(&h) {
            Some(Obj::Font(f)) => Some(f),
            _ => None,
        }
    }

    pub fn bitmap(&self, h: u16) -> Option<&Bitmap> {
        match self.objs.get(&h) {
            Some(Obj::Bitmap(b)) => Some(b),
            _ => None,
        }
    }

    pub fn bitmap_mut(&mut self, h: u16) -> Option<&mut Bitmap> {
        match self.objs.get_mut(&h) {
            Some(Obj::Bitmap(b)) => Some(b),
            _ => None,
        }
    }

    /// Region `h`: a region object's, or the DC's own region a
    /// DC-owned handle names.
    pub fn region(&self, h: u16) -> Option<&Region> {
        match self.objs.get(&h) {
            Some(Obj::Region(r)) => Some(r),
            Some(Obj::DcRegion(DcRegion { hdc, part })) => {
                let d = self.dc(*hdc)?;
                match part {
                    DcPart::Vis => Some(&d.vis),
                    DcPart::Clip => d.state.clip.as_ref(),
                }
            }
            _ => None,
        }
    }

    pub fn region_mut(&mut self, h: u16) -> Option<&mut Region> {
        if let Some(Obj::DcRegion(DcRegion { hdc, part })) = self.objs.get(&h) {
            let (hdc, part) = (*hdc, *part);
            let d = self.dc_mut(hdc)?;
            return match part {
                DcPart::Vis => Some(&mut d.vis),
                DcPart::Clip => d.state.clip.as_mut(),
            };
        }
        match self.objs.get_mut(&h) {
            Some(Obj::Region(r)) => Some(r),
            _ => None,
        }
    }

    /// Is `h` a region a DC owns: one of its own regions' handles, or a
    /// region SaveVisRgn saved for it?
    pub fn is_dc_owned(&self, h: u16) -> bool {
        match self.objs.get(&h) {
            Some(Obj::DcRegion(_)) => true,
            Some(Obj::Region(_)) => self.objs.values().any(|o| match o {
                Obj::Dc(d) => d.vis_saved.contains(&h),
                _ => false,
            }),
            _ => false,
        }
    }

    pub fn palette(&self, h: u16) -> Option<&Palette> {
        match self.objs.get(&h) {
            Some(Obj::Palette(p)) => Some(p),
            _ => None,
        }
    }

    pub fn palette_mut(&mut self, h: u16) -> Option<&mut Palette> {
        match self.objs.get_mut(&h) {
            Some(Obj::Palette(p)) => Some(p),
            _ => None,
        }
    }

    pub fn dc(&self, h: u16) -> Option<&Dc> {
        match self.objs.get(&h) {
            Some(Obj::Dc(d)) => Some(d),
            _ => None,
        }
    }

    pub fn dc_mut(&mut self, h: u16) -> Option<&mut Dc> {
        match self.objs.get_mut(&h) {
            Some(Obj::Dc(d)) => Some(d),
            _ => None,
        }
    }

    /// Every DC's handle.
    pub fn dcs(&self) -> Vec<u16> {
        let mut v: Vec<u16> = self
            .objs
            .iter()
            .filter(|(_, o)| matches!(o, Obj::Dc(_)))
            .map(|(&h, _)| h)
            .collect();
        v.sort_unstable();
        v
    }

    /// Is `h` selected into any DC (as its pen, brush, font, bitmap or
    /// palette)?
    pub fn is_selected(&self, h: u16) -> bool {
        self.objs.values().any(|o| match o {
            Obj::Dc(d) => d.selects(h),
            _ => false,
        })
    }

    /// How many objects are alive.
    pub fn len(&self) -> usize {
        self.objs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objs.is_empty()
    }
}

use super::{Env, Stop, Uc, arg_h, write_struct};

/// GDI.87 GetStockObject(nIndex) -> the object, 0 for an unknown index.
fn get_stock_object(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.gdi.objects.stock(a[0] as u16)))
}

/// GDI.45 SelectObject(hDC, hObject) -> the previous object of that kind
/// (a region: the clip region's type), 0 on failure.
fn select_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdc, h) = (arg_h(a[0]), arg_h(a[1]));
    Ok(super::dc::select(&mut env.win16.gdi, uc, hdc, h).map_or(0, u32::from))
}

/// GDI.69 DeleteObject(hObject) -> BOOL.
fn delete_object(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(delete(&mut env.win16.gdi, arg_h(a[0]))))
}

/// DeleteObject's rule: not a DC (DeleteDC deletes those), not selected,
/// not a region a DC owns (its visible or clip region's handle, a saved
/// visible region: the DC frees those itself); stock objects succeed and
/// stay.
pub fn delete(gdi: &mut Gdi, h: u16) -> bool {
    let t = &mut gdi.objects;
    match t.get(h) {
        None | Some(Obj::Dc(_)) => false,
        Some(_) if t.is_stock(h) => true,
        Some(_) if t.is_selected(h) || t.is_dc_owned(h) => false,
        Some(_) => {
            if let Some(Obj::Bitmap(b)) = t.remove(h) {
                gdi.release_bytes(b.surface.bytes());
            }
            true
        }
    }
}

/// GDI.82 GetObject(hObject, cbBuffer, lpvObject) -> bytes written.
fn get_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, cb, p) = (arg_h(a[0]), a[1] as u16 as i16, a[2]);
    let Some(bytes) = object_bytes(&env.win16.gdi, h) else {
        return Ok(0);
    };
    if p == 0 {
        return Ok(bytes.len() as u32);
    }
    let n = bytes.len().min(cb.max(0) as usize);
    if !write_struct(uc, p, &bytes[..n]) {
        return Ok(0);
    }
    Ok(n as u32)
}

/// The structure GetObject copies for an object.
pub fn object_bytes(gdi: &Gdi, h: u16) -> Option<Vec<u8>> {
    Some(match gdi.objects.get(h)? {
        Obj::Pen(p) => p.logpen().to_bytes().to_vec(),
        Obj::Brush(b) => b.logbrush().to_bytes().to_vec(),
        Obj::Font(f) => f.to_bytes().to_vec(),
        Obj::Bitmap(b) => b.info().to_bytes().to_vec(),
        Obj::Palette(p) => (p.entries.len() as u16).to_le_bytes().to_vec(),
        Obj::Region(_) | Obj::DcRegion(_) | Obj::Dc(_) => return None,
    })
}

/// GDI.150 UnrealizeObject(hObject) -> BOOL: a brush is realized again at
/// its next selection (a palette's mapping is made again at its next
/// realization).
fn unrealize_object(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let t = &mut env.win16.gdi.objects;
    let ok = match t.get_mut(h) {
        Some(Obj::Brush(b)) => {
            b.realized_at = None;
            true
        }
        Some(Obj::Palette(p)) => {
            p.mapping.clear();
            true
        }
        Some(Obj::Dc(_)) | None => false,
        Some(_) => true,
    };
    Ok(u32::from(ok))
}

/// GDI.462 IsGDIObject(hObject) -> its type number, 0 if none.
fn is_gdi_object(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .gdi
        .objects
        .get(arg_h(a[0]))
        .map_or(0, |o| u32::from(o.type_number())))
}

/// GDI.461 SetObjectOwner(hObject, hOwner): ownership is not tracked.
fn set_object_owner(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// GDI.463 MakeObjectPrivate(hObject, bPrivate): a flag nothing here reads.
fn make_object_private(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// The objects EnumObjects lists for a device: its pure colours (2 for a
/// monochrome device, the 20 static colours of a palette display, else
/// the VGA's 16), pens as each of the five styles (PS_SOLID to
/// PS_DASHDOTDOT) in each colour — the VGA's 80, as NUMPENS says — and
/// brushes as a solid brush in each colour, then each of the six hatches
/// in each colour. The order is this project's: the display driver's own
/// enumeration (its EnumObj) is not in the material at hand.
pub fn enumerated(colors: &[u32], pens: bool) -> Vec<Vec<u8>> {
    use super::brush::LogBrush;
    use super::pen::LogPen;
    let mut out = Vec::new();
    if pens {
        for style in 0..5u16 {
            for &color in colors {
                let p = LogPen {
                    style,
                    width: (1, 0),
                    color,
                };
                out.push(p.to_bytes().to_vec());
            }
        }
    } else {
        for &color in colors {
            let b = LogBrush {
                style: 0,
                color,
                hatch: 0,
            };
            out.push(b.to_bytes().to_vec());
        }
        for hatch in 0..6i16 {
            for &color in colors {
                let b = LogBrush {
                    style: 2,
                    color,
                    hatch,
                };
                out.push(b.to_bytes().to_vec());
            }
        }
    }
    out
}

/// GDI.71 EnumObjects(hDC, nObjectType, lpObjectFunc, lpData): calls
/// `lpObjectFunc(LPLOGPEN or LPLOGBRUSH, lpData)` for each pen
/// (OBJ_PEN 1) or brush (OBJ_BRUSH 2) of the device until it returns 0;
/// returns the callback's last value (0 for an unknown DC or type).
fn enum_objects(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::callback::{CallArg, call_far};
    let kind = a[1] as u16;
    let Some(d) = env.win16.gdi.dc_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    if kind != 1 && kind != 2 {
        return Ok(0);
    }
    let caps = d.caps();
    let colors: Vec<u32> = match caps.get(super::devcaps::idx::NUMCOLORS) {
        2 => vec![0, 0x00FF_FFFF],
        20 => super::color::STATIC_COLORS.to_vec(),
        _ => super::color::VGA_COLORS.to_vec(),
    };
    let cs = env
        .win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI's thunk segment is missing".into()))?;
    let ds = crate::machine::Cpu::reg(uc, crate::machine::R::DS);
    let func = crate::win16::farptr::split(a[2]);
    let mut last = 0;
    for rec in enumerated(&colors, kind == 1) {
        let args = [CallArg::Scratch, CallArg::L(a[3])];
        last = call_far(env, uc, cs, func, ds, &rec, &args)?.value & 0xFFFF;
        if last == 0 {
            break;
        }
    }
    Ok(last)
}

pub static APIS: &[Api] = &[
    Api::new("GDI", 45, "SELECTOBJECT", &[Arg::W, Arg::W], select_object),
    Api::new(
        "GDI",
        71,
        "ENUMOBJECTS",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        enum_objects,
    ),
    Api::new("GDI", 69, "DELETEOBJECT", &[Arg::W], delete_object),
    Api::new(
        "GDI",
        82,
        "GETOBJECT",
        &[Arg::W, Arg::W, Arg::L],
        get_object,
    ),
    Api::new("GDI", 87, "GETSTOCKOBJECT", &[Arg::W], get_stock_object),
    Api::new("GDI", 150, "UNREALIZEOBJECT", &[Arg::W], unrealize_object),
    Api::new(
        "GDI",
        461,
        "SETOBJECTOWNER",
        &[Arg::W, Arg::W],
        set_object_owner,
    ),
    Api::new("GDI", 462, "ISGDIOBJECT", &[Arg::W], is_gdi_object),
    Api::new(
        "GDI",
        463,
        "MAKEOBJECTPRIVATE",
        &[Arg::W, Arg::W],
        make_object_private,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_small_even_unique_and_reused() {
        let mut t = Table::default();
        let n0 = t.len();
        assert_eq!(n0, 17);
        for i in [0u16, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16] {
            let h = t.stock(i);
            assert!(h >= FIRST_HANDLE && h % 4 == 0, "{i}");
        }
        assert_eq!(t.stock(9), 0);
        assert_eq!(t.stock(17), 0);
        let a = t.insert(Obj::Region(Region::empty())).unwrap();
        let b = t.insert(Obj::Region(Region::empty())).unwrap();
        assert_ne!(a, b);
        t.remove(a);
        assert_eq!(t.insert(Obj::Region(Region::empty())), Some(a));
        // Full: creation fails.
        while t.len() < MAX_OBJECTS {
            assert!(t.insert(Obj::Region(Region::empty())).unwrap() < HANDLE_LIMIT);
        }
        assert_eq!(t.insert(Obj::Region(Region::empty())), None);
    }

    #[test]
    fn the_vga_enumerates_numpens_pens() {
        let c = super::super::color::VGA_COLORS;
        let pens = enumerated(&c, true);
        assert_eq!(pens.len(), 80);
        // The first: a solid black pen one pixel wide.
        assert_eq!(pens[0], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(enumerated(&c, false).len(), 16 * 7);
        let last = enumerated(&[0, 0xFF_FFFF], false).pop().unwrap();
        assert_eq!(last, [2, 0, 0xFF, 0xFF, 0xFF, 0, 5, 0]);
    }
}
