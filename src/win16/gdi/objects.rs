//! GDI's objects and their handles: pens, brushes, fonts, bitmaps,
//! regions, palettes and device contexts share one table, as they shared
//! GDI's local heap in Windows 3.1.
//!
//! **Handles.** A GDI handle is the local handle of the object's moveable
//! block in GDI's heap (heap.rs): one handle space for every kind of
//! object, the stock objects first, a freed handle-table entry given out
//! again first, as LocalAlloc does. [`create`] makes the block and
//! [`destroy`] frees it; creation fails (returns 0) when the heap is full
//! at 64 KiB. The table keeps each object's drawing state by handle.
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
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};
use crate::win16::geom::Region;

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

/// The object table: each object's drawing state by its handle (the
/// handle of its block in GDI's heap, heap.rs).
#[derive(Clone, Debug, Default)]
pub struct Table {
    objs: HashMap<u16, Obj>,
    /// Handle of each stock object by index (0 for index 9).
    stock: [u16; stock::COUNT as usize],
    /// The default 1×1 monochrome bitmap of memory DCs.
    pub stock_bitmap: u16,
    /// Objects made so far (the blocks' dwCount).
    serial: u32,
}

/// The stock objects, made in GDI's heap `sel` when it is made
/// (heap::start): the brushes, pens, fonts and palette in
/// GetStockObject's order, then the 1×1 bitmap of memory DCs; owned by
/// no task.
pub fn make_stock(w: &mut crate::win16::Win16, uc: &mut Uc<'_>, sel: u16) {
    use super::color::rgb;
    let brush = |c| Obj::Brush(Brush::solid(c));
    let pen = |style, c| Obj::Pen(Pen::new(style, 0, c));
    let font = |i| Obj::Font(LogFont::stock(i));
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
        (stock::OEM_FIXED_FONT, font(stock::OEM_FIXED_FONT)),
        (stock::ANSI_FIXED_FONT, font(stock::ANSI_FIXED_FONT)),
        (stock::ANSI_VAR_FONT, font(stock::ANSI_VAR_FONT)),
        (stock::SYSTEM_FONT, font(stock::SYSTEM_FONT)),
        (stock::DEVICE_DEFAULT_FONT, font(stock::DEVICE_DEFAULT_FONT)),
        (
            stock::DEFAULT_PALETTE,
            Obj::Palette(Box::new(Palette::default_palette())),
        ),
        (stock::SYSTEM_FIXED_FONT, font(stock::SYSTEM_FIXED_FONT)),
    ];
    for (i, o) in list {
        let h = place(w, uc, sel, o, Some(0)).unwrap_or(0);
        w.gdi.objects.stock[usize::from(i)] = h;
    }
    let bm = Obj::Bitmap(Box::new(Bitmap::stock()));
    w.gdi.objects.stock_bitmap = place(w, uc, sel, bm, Some(0)).unwrap_or(0);
}

/// Object `o` in a new block of GDI's heap `sel`: its handle, None when
/// the heap cannot take the block.
fn place(
    w: &mut crate::win16::Win16,
    uc: &mut Uc<'_>,
    sel: u16,
    o: Obj,
    owner: Option<u16>,
) -> Option<u16> {
    let kind = super::heap::kind_of(&o);
    let h = super::heap::alloc_block(w, uc, sel, &o, kind, owner);
    if h == 0 {
        return None;
    }
    w.gdi.objects.objs.insert(h, o);
    Some(h)
}

/// Make object `o`: a block in GDI's heap (made first if need be) whose
/// handle is the object's; None when the heap is full, as creation failed
/// on Windows.
pub fn create(w: &mut crate::win16::Win16, uc: &mut Uc<'_>, o: Obj) -> Option<u16> {
    let sel = super::heap::start(uc, w)?;
    place(w, uc, sel, o, None)
}

/// Take object `h` out of the table and free its block (no checks).
pub fn destroy(w: &mut crate::win16::Win16, uc: &mut Uc<'_>, h: u16) -> Option<Obj> {
    let o = w.gdi.objects.objs.remove(&h)?;
    super::heap::free_block(w, uc, h);
    Some(o)
}

impl Table {
    /// The next creation serial number.
    pub fn next_serial(&mut self) -> u32 {
        self.serial = self.serial.wrapping_add(1);
        self.serial
    }

    pub fn get(&self, h: u16) -> Option<&Obj> {
        self.objs.get(&h)
    }

    pub fn get_mut(&mut self, h: u16) -> Option<&mut Obj> {
        self.objs.get_mut(&h)
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

    /// Every live object's handle, in order.
    pub fn handles(&self) -> Vec<u16> {
        let mut v: Vec<u16> = self.objs.keys().copied().collect();
        v.sort_unstable();
        v
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
pub fn get_stock_object(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.gdi.objects.stock(a[0] as u16)))
}

/// GDI.45 SelectObject(hDC, hObject) -> the previous object of that kind
/// (a region: the clip region's type), 0 on failure.
pub fn select_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdc, h) = (arg_h(a[0]), arg_h(a[1]));
    Ok(super::dc::select(&mut env.win16.gdi, uc, hdc, h).map_or(0, u32::from))
}

/// GDI.69 DeleteObject(hObject) -> BOOL.
pub fn delete_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(delete(&mut env.win16, uc, arg_h(a[0]))))
}

/// DeleteObject's rule: not a DC (DeleteDC deletes those), not selected,
/// not a region a DC owns (its visible or clip region's handle, a saved
/// visible region: the DC frees those itself); stock objects succeed and
/// stay. The object's block in GDI's heap is freed.
pub fn delete(w: &mut crate::win16::Win16, uc: &mut Uc<'_>, h: u16) -> bool {
    let t = &w.gdi.objects;
    match t.get(h) {
        None | Some(Obj::Dc(_)) => false,
        Some(_) if t.is_stock(h) => true,
        Some(_) if t.is_selected(h) || t.is_dc_owned(h) => false,
        Some(_) => {
            if let Some(Obj::Bitmap(b)) = destroy(w, uc, h) {
                w.gdi.release_bytes(b.surface.bytes());
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
    // The structure is read from the object's block in GDI's heap, where
    // it follows the header (heap.rs); a palette's entry count is its
    // LOGPALETTE's palNumEntries. (A stock font's block is brought up to
    // the LOGFONT of the face it was realized with first.)
    super::heap::sync(&mut env.win16, uc, h);
    let Some(bytes) = block_bytes(&env.win16, uc, h, &bytes) else {
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

/// What GetObject copies, read from object `h`'s block: the `like.len()`
/// bytes after the header (a palette's: palNumEntries); None when the
/// heap holds no block of the object's kind for `h`.
fn block_bytes(w: &crate::win16::Win16, uc: &Uc<'_>, h: u16, like: &[u8]) -> Option<Vec<u8>> {
    use super::heap::{ObjHeader, header, lt, selector, type_of_magic};
    let o = w.gdi.objects.get(h)?;
    let kind = super::heap::kind_of(o);
    if type_of_magic(header(w, uc, h)?.magic) != kind {
        return None;
    }
    let sel = selector(w)?;
    let at = crate::win16::sysheap::address(w, sel, h)? as usize + ObjHeader::SIZE;
    let skip = if kind == lt::PALETTE { 2 } else { 0 };
    let mut b = vec![0u8; like.len()];
    uc.read_seg(sel, (at + skip) as u16, &mut b).ok()?;
    Some(b)
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

/// GDI.462 IsGDIObject(hObject) -> its type, 0 if none: read from the
/// header of the object's block in GDI's heap (heap.rs), the LT_GDI_ type
/// (1 pen, 2 brush, 3 font, 4 palette, 5 bitmap, 6 region, 7 DC,
/// 9 metafile DC) — the magic word less 4F46h, as Wine's gdi.exe16
/// describes Windows 3.1's answer.
fn is_gdi_object(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    if env.win16.gdi.objects.get(h).is_none() {
        return Ok(0);
    }
    Ok(super::heap::header(&env.win16, uc, h)
        .map_or(0, |hd| u32::from(super::heap::type_of_magic(hd.magic))))
}

/// GDI.461 SetObjectOwner(hObject, hOwner): the object's block's hOwner
/// word (heap.rs) becomes hOwner.
fn set_object_owner(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    if env.win16.gdi.objects.get(h).is_some() && !env.win16.gdi.objects.is_stock(h) {
        super::heap::set_owner(&mut env.win16, uc, h, arg_h(a[1]));
    }
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
    fn objects_are_blocks_of_gdis_heap() {
        use super::super::heap::{self, lt};
        let mut m = crate::machine::Machine::new_protected().unwrap();
        let mut w = crate::win16::Win16::default();
        let sel = heap::start(&mut m, &mut w).unwrap();
        // The stock objects exist from the start, each a moveable block
        // (a handle 2 modulo 4, Windows 3.1's moveable local handles) of
        // its LT_GDI_ type.
        assert_eq!(w.gdi.objects.len(), 17);
        let kinds = [
            (0u16, lt::BRUSH),
            (5, lt::BRUSH),
            (7, lt::PEN),
            (13, lt::FONT),
            (15, lt::PALETTE),
        ];
        for (i, k) in kinds {
            let h = w.gdi.objects.stock(i);
            assert_eq!(h % 4, 2, "{i}");
            assert_eq!(w.sys_heaps.kind(sel, h), Some(k), "{i}");
            assert_eq!(heap::header(&w, &m, h).unwrap().magic, heap::magic(k));
        }
        assert_eq!(w.gdi.objects.stock(9), 0);
        assert_eq!(w.gdi.objects.stock(17), 0);
        assert!(heap::consistent(&w));
        // A pen's block: the header, then its LOGPEN.
        let start = heap::free_percent(&w, &m).0;
        let pen = Obj::Pen(Pen::new(2, 3, 0x0012_3456));
        let a = create(&mut w, &mut m, pen.clone()).unwrap();
        let at = crate::win16::sysheap::address(&w, sel, a).unwrap();
        let mut b = [0u8; 24];
        m.read_seg(sel, at, &mut b).unwrap();
        assert_eq!(&b[2..4], &0x4F47u16.to_le_bytes());
        assert_eq!(&b[14..], &[2, 0, 3, 0, 0, 0, 0x56, 0x34, 0x12, 0]);
        // Freed, the handle is the next one given out (LocalAlloc reuses
        // the freed handle-table entry first).
        let b2 = create(&mut w, &mut m, pen.clone()).unwrap();
        assert_ne!(a, b2);
        destroy(&mut w, &mut m, a);
        assert_eq!(w.sys_heaps.kind(sel, a), None);
        assert_eq!(create(&mut w, &mut m, pen.clone()), Some(a));
        // Until the heap is full at 64 KiB: creation then fails, and the
        // free percentage fell to (nearly) nothing.
        let mut n = 2;
        while create(&mut w, &mut m, pen.clone()).is_some() {
            n += 1;
            assert!(n < 4000);
        }
        assert!((1300..1700).contains(&n), "{n} pens");
        assert!(heap::free_percent(&w, &m).0 <= 1);
        assert!(start >= 95, "{start}");
        assert!(heap::consistent(&w));
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
