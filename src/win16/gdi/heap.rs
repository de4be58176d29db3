//! GDI's heap: GDI's data segment and the blocks its objects occupy.
//!
//! # What Windows 3.1 did
//!
//! GDI.EXE had one data segment of at most 64 KiB: its static data, its
//! stack, and a local heap holding every logical object — pens, brushes,
//! fonts, palettes, bitmap headers, regions, device contexts (KB Q90762;
//! KB Q125699 recalls that Windows 3.1's GDI "allocates all resources from
//! a single 64K heap", regions included). An object's handle was the
//! local handle of its moveable block, so a program that kept creating
//! objects without deleting them filled the heap and creation failed for
//! every program (KB Q85285, KB Q66654). TOOLHELP's LocalFirst/LocalNext
//! walked that heap, reporting each block's LT_GDI_ type (TOOLHELP.H), and
//! GetFreeSystemResources(GFSR_GDIRESOURCES) and SystemHeapInfo's
//! wGDIFreePercent gave its free percentage (KB Q61803).
//!
//! # Here
//!
//! [`start`] makes the segment (sysheap.rs) when GDI's module is made,
//! then the stock objects in it. Every object is a moveable block of
//! LT_GDI_PEN (1) … LT_GDI_METADC (9) whose local handle is the object's
//! handle; the block holds an [`ObjHeader`] and the object's logical data:
//!
//! | object | after the header |
//! | --- | --- |
//! | pen | LOGPEN (10 bytes) |
//! | brush | LOGBRUSH (8 bytes) |
//! | font | LOGFONT (50 bytes) |
//! | palette | LOGPALETTE: palVersion 300h, palNumEntries, the entries |
//! | bitmap | BITMAP (14 bytes, bmBits 0: the bits are elsewhere) |
//! | region | wSize, nScans, nMaxScan, the bounding RECT, then each scan: count of x's, top, bottom, the x's (left, right pairs), the count again |
//! | DC | [`DC_BODY`] bytes: the room of Windows 3.1's DC attributes |
//!
//! The header's wMagic is the object's kind (the values Wine's GDI gives
//! Windows 3.1's objects, PEN_MAGIC 4F47h …), hOwner the PDB of the task
//! that created it (0 for GDI's own stock objects; SetObjectOwner changes
//! it) and dwCount a serial number of creation. IsGDIObject reads the
//! magic word back, so it answers from the heap. The drawing state (a
//! DC's attributes, a bitmap's pixels, a realized palette's mapping) stays
//! in Rust's table (objects.rs), keyed by the same handle; a region's or a
//! palette's block is rewritten (and resized) when the object changes.
//!
//! HMETAFILE is no GDI heap object here: Windows 3.1's metafile handle is
//! a global memory handle (GetMetaFileBits returns it as one; metafile.rs),
//! so LT_GDI_METAFILE (10) is never used.
//!
//! # Sizes
//!
//! Windows 3.1's object layouts are not documented; what is documented is
//! that 3.1's objects are a byte larger than 3.0's (Q90762). The header
//! here is 14 bytes: hNext, wMagic, dwCount, hMetaList, wSelCount, hOwner,
//! the fields *Undocumented Windows* and Wine list for the 3.x header
//! (hNext, hMetaList and wSelCount are written 0: nothing here chains
//! objects or counts selections in emulated memory). A pen then takes
//! 24 bytes, in a 32-byte arena plus its 4-byte handle-table entry, about
//! 36 bytes of GDI's heap, so some 1,500 pens fill it. [`STATICS`] is an
//! estimate of GDI.EXE 3.1's static data and stack: 9 KiB.

use super::objects::{DcPart, Obj};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::Win16;
use crate::win16::api::{Api, Arg};
use crate::win16::sysheap::{self, lmem};

/// The bytes of GDI's segment before its heap (static data and stack;
/// Q61803's denominator is 64 KiB less these).
pub const STATICS: u32 = 0x2400;
/// The heap's size when the segment is made (it grows to 64 KiB).
pub const INITIAL: u32 = 0x1000;

/// TOOLHELP.H's LT_GDI_* block types.
pub mod lt {
    pub const PEN: u16 = 1;
    pub const BRUSH: u16 = 2;
    pub const FONT: u16 = 3;
    pub const PALETTE: u16 = 4;
    pub const BITMAP: u16 = 5;
    pub const RGN: u16 = 6;
    pub const DC: u16 = 7;
    pub const DISABLED_DC: u16 = 8;
    pub const METADC: u16 = 9;
    pub const METAFILE: u16 = 10;
    /// TOOLHELP.H's names, by type.
    pub fn name(t: u16) -> Option<&'static str> {
        Some(match t {
            PEN => "LT_GDI_PEN",
            BRUSH => "LT_GDI_BRUSH",
            FONT => "LT_GDI_FONT",
            PALETTE => "LT_GDI_PALETTE",
            BITMAP => "LT_GDI_BITMAP",
            RGN => "LT_GDI_RGN",
            DC => "LT_GDI_DC",
            DISABLED_DC => "LT_GDI_DISABLED_DC",
            METADC => "LT_GDI_METADC",
            METAFILE => "LT_GDI_METAFILE",
            _ => return None,
        })
    }
}

/// The header's wMagic for each kind (Wine's GDI's values for
/// Windows 3.1's objects): the LT_ type plus 4F46h.
pub const MAGIC_BASE: u16 = 0x4F46;

/// The magic word of LT_ type `t`.
pub fn magic(t: u16) -> u16 {
    MAGIC_BASE + t
}

/// IsGDIObject's answer for a magic word: its LT_ type, 0 if none.
pub fn type_of_magic(m: u16) -> u16 {
    match m.wrapping_sub(MAGIC_BASE) {
        t @ lt::PEN..=lt::METAFILE => t,
        _ => 0,
    }
}

/// The bytes of a DC's block after its header.
pub const DC_BODY: usize = 0x80;

/// The header at the start of every object's block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObjHeader {
    pub next: u16,
    pub magic: u16,
    pub count: u32,
    pub meta_list: u16,
    pub sel_count: u16,
    pub owner: u16,
}

impl ObjHeader {
    pub const SIZE: usize = 14;
    /// Offset of hOwner.
    pub const OWNER: u16 = 12;

    pub fn to_bytes(self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0..2].copy_from_slice(&self.next.to_le_bytes());
        b[2..4].copy_from_slice(&self.magic.to_le_bytes());
        b[4..8].copy_from_slice(&self.count.to_le_bytes());
        b[8..10].copy_from_slice(&self.meta_list.to_le_bytes());
        b[10..12].copy_from_slice(&self.sel_count.to_le_bytes());
        b[12..14].copy_from_slice(&self.owner.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8; Self::SIZE]) -> ObjHeader {
        let w = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        ObjHeader {
            next: w(0),
            magic: w(2),
            count: u32::from(w(4)) | u32::from(w(6)) << 16,
            meta_list: w(8),
            sel_count: w(10),
            owner: w(12),
        }
    }
}

/// GDI's heap segment, if made.
pub fn selector(w: &Win16) -> Option<u16> {
    w.sys_heaps.get("GDI", 0).map(|h| h.selector)
}

/// Make GDI's segment and heap, and the stock objects in it, the first
/// time; the segment's selector (None when the machine cannot make it).
pub fn start(uc: &mut Uc<'_>, w: &mut Win16) -> Option<u16> {
    if let Some(sel) = selector(w) {
        return Some(sel);
    }
    let sel = sysheap::ensure(uc, w, "GDI", 0, STATICS, INITIAL)?;
    // Making GDI's module may have come back here and made them already.
    if w.gdi.objects.is_empty() {
        super::objects::make_stock(w, uc, sel);
    }
    Some(sel)
}

/// The LT_ type of an object.
pub fn kind_of(o: &Obj) -> u16 {
    match o {
        Obj::Pen(_) => lt::PEN,
        Obj::Brush(_) => lt::BRUSH,
        Obj::Font(_) => lt::FONT,
        Obj::Palette(_) => lt::PALETTE,
        Obj::Bitmap(_) => lt::BITMAP,
        Obj::Region(_) | Obj::DcRegion(_) => lt::RGN,
        Obj::Dc(_) => lt::DC,
    }
}

/// A region's bytes in its block (the table after the header in the
/// module doc): its rectangles gathered in scans of equal top and bottom.
pub fn region_bytes(r: &crate::win16::geom::Region) -> Vec<u8> {
    let mut scans: Vec<(i32, i32, Vec<i32>)> = Vec::new();
    for rc in r.rects() {
        match scans.last_mut() {
            Some((t, b, xs)) if *t == rc.top && *b == rc.bottom => {
                xs.extend([rc.left, rc.right]);
            }
            _ => scans.push((rc.top, rc.bottom, vec![rc.left, rc.right])),
        }
    }
    let w16 = |v: i32| (v as i16).to_le_bytes();
    let mut body = Vec::new();
    let mut max = 0u16;
    for (t, b, xs) in &scans {
        let n = xs.len() as u16;
        max = max.max(n);
        body.extend_from_slice(&n.to_le_bytes());
        body.extend_from_slice(&w16(*t));
        body.extend_from_slice(&w16(*b));
        for x in xs {
            body.extend_from_slice(&w16(*x));
        }
        body.extend_from_slice(&n.to_le_bytes());
    }
    let bb = r.bbox();
    let mut out = Vec::with_capacity(14 + body.len());
    let size = (14 + body.len()).min(0xFFFF) as u16;
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&(scans.len().min(0xFFFF) as u16).to_le_bytes());
    out.extend_from_slice(&max.to_le_bytes());
    out.extend_from_slice(&bb.to_bytes());
    out.extend_from_slice(&body);
    out
}

/// The logical data of object `o` in its block, after the header.
pub fn body_of(t: &super::objects::Table, o: &Obj) -> Vec<u8> {
    match o {
        Obj::Pen(p) => p.logpen().to_bytes().to_vec(),
        Obj::Brush(b) => b.logbrush().to_bytes().to_vec(),
        Obj::Font(f) => f.to_bytes().to_vec(),
        Obj::Palette(p) => {
            let mut v = Vec::with_capacity(4 + 4 * p.entries.len());
            v.extend_from_slice(&0x0300u16.to_le_bytes());
            v.extend_from_slice(&(p.entries.len() as u16).to_le_bytes());
            for e in &p.entries {
                v.extend_from_slice(e);
            }
            v
        }
        Obj::Bitmap(b) => b.info().to_bytes().to_vec(),
        Obj::Region(r) => region_bytes(r),
        Obj::DcRegion(d) => {
            let r = t.dc(d.hdc).and_then(|dc| match d.part {
                DcPart::Vis => Some(&dc.vis),
                DcPart::Clip => dc.state.clip.as_ref(),
            });
            region_bytes(r.unwrap_or(&crate::win16::geom::Region::empty()))
        }
        Obj::Dc(_) => vec![0; DC_BODY],
    }
}

/// The owner a new object gets: the current task's PDB (GetCurrentPDB),
/// 0 when no task runs.
fn current_owner(w: &Win16, uc: &Uc<'_>) -> u16 {
    w.task(uc.get_data().current_task).map_or(0, |t| t.psp)
}

/// A block for object `o` in GDI's heap `sel`, its header and data
/// written, of LT_ type `kind`: its handle, 0 when the heap is full.
pub fn alloc_block(
    w: &mut Win16,
    uc: &mut Uc<'_>,
    sel: u16,
    o: &Obj,
    kind: u16,
    owner: Option<u16>,
) -> u16 {
    let body = body_of(&w.gdi.objects, o);
    let Ok(size) = u16::try_from(ObjHeader::SIZE + body.len()) else {
        return 0;
    };
    let h = sysheap::alloc(w, uc, sel, lmem::MOVEABLE | lmem::ZEROINIT, size, kind);
    if h == 0 {
        return 0;
    }
    let owner = owner.unwrap_or_else(|| current_owner(w, uc));
    let count = w.gdi.objects.next_serial();
    let head = ObjHeader {
        magic: magic(kind),
        count,
        owner,
        ..ObjHeader::default()
    };
    let mut bytes = head.to_bytes().to_vec();
    bytes.extend_from_slice(&body);
    sysheap::write(w, uc, sel, h, 0, &bytes);
    h
}

/// The header of the block with handle `h` in GDI's heap, None when it is
/// no block there.
pub fn header(w: &Win16, uc: &Uc<'_>, h: u16) -> Option<ObjHeader> {
    let sel = selector(w)?;
    w.sys_heaps.kind(sel, h)?;
    let a = sysheap::address(w, sel, h)?;
    let mut b = [0u8; ObjHeader::SIZE];
    uc.read_seg(sel, a, &mut b).ok()?;
    Some(ObjHeader::from_bytes(&b))
}

/// Rewrite object `h`'s block from the table (after the object changed),
/// resizing it when its data's size changed; false when the block cannot
/// grow (the block keeps its old data).
pub fn sync(w: &mut Win16, uc: &mut Uc<'_>, h: u16) -> bool {
    let Some(sel) = selector(w) else {
        return false;
    };
    let Some(o) = w.gdi.objects.get(h) else {
        return false;
    };
    let body = body_of(&w.gdi.objects, o);
    let Ok(size) = u16::try_from(ObjHeader::SIZE + body.len()) else {
        return false;
    };
    let Some(heap) = w.local_heaps.heaps.get(&sel) else {
        return false;
    };
    if heap.size(h) < size && sysheap::realloc(w, uc, sel, h, size) == 0 {
        return false;
    }
    sysheap::write(w, uc, sel, h, ObjHeader::SIZE as u16, &body)
}

/// Change object `h`'s LT_ type (and magic word): a DC becoming a
/// metafile DC.
pub fn retype(w: &mut Win16, uc: &mut Uc<'_>, h: u16, kind: u16) {
    let Some(sel) = selector(w) else {
        return;
    };
    if let Some(s) = w.sys_heaps.heaps.iter_mut().find(|s| s.selector == sel)
        && let Some(k) = s.kinds.get_mut(&h)
    {
        *k = kind;
        sysheap::write(w, uc, sel, h, 2, &magic(kind).to_le_bytes());
    }
}

/// Set object `h`'s owner (SetObjectOwner); false when `h` is no object.
pub fn set_owner(w: &mut Win16, uc: &mut Uc<'_>, h: u16, owner: u16) -> bool {
    let Some(sel) = selector(w) else {
        return false;
    };
    header(w, uc, h).is_some()
        && sysheap::write(w, uc, sel, h, ObjHeader::OWNER, &owner.to_le_bytes())
}

/// Free object `h`'s block.
pub fn free_block(w: &mut Win16, uc: &mut Uc<'_>, h: u16) {
    if let Some(sel) = selector(w) {
        sysheap::free(w, uc, sel, h);
    }
}

/// GDI's free percentage (Q61803's formula over GDI's segment), what
/// GetFreeSystemResources(GFSR_GDIRESOURCES) and SystemHeapInfo's
/// wGDIFreePercent report; with its segment. (100, 0) before GDI exists.
pub fn free_percent(w: &Win16, uc: &Uc<'_>) -> (u16, u16) {
    match selector(w) {
        Some(sel) => (sysheap::free_percent(w, uc, sel), sel),
        None => (100, 0),
    }
}

/// Does every object of the table have its block in GDI's heap, and
/// every typed block of the heap its object? (The tests' invariant.)
pub fn consistent(w: &Win16) -> bool {
    let Some(s) = selector(w).and_then(|sel| w.sys_heaps.by_selector(sel)) else {
        return w.gdi.objects.is_empty();
    };
    let mut blocks: Vec<u16> = s
        .kinds
        .iter()
        .filter(|(_, k)| **k != LT_NORMAL)
        .map(|(h, _)| *h)
        .collect();
    blocks.sort_unstable();
    blocks == w.gdi.objects.handles()
}

/// LOCALENTRY.wType of a block GdiSeeGdiDo allocated (no object).
const LT_NORMAL: u16 = 0;

/// GDI.452 GdiSeeGdiDo(wReqType, wParam1, wParam2, wParam3) -> DWORD:
/// KERNEL's local heap functions run on GDI's heap (the requests Wine's
/// GDI documents for Windows 3.1's): 0001h LocalAlloc(wParam1 flags,
/// wParam3 bytes) -> the handle, 0 when full; 0002h LocalFree(wParam1)
/// -> 0, or the handle when it names no block GdiSeeGdiDo allocated (an
/// object's block is freed by DeleteObject/DeleteDC only); 0003h
/// LocalCompact(wParam3) -> the largest free block after compacting;
/// 0103h -> GDI's heap segment; any other request -1.
fn gdi_see_gdi_do(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let w = &mut env.win16;
    let Some(sel) = start(uc, w) else {
        return Ok(u32::MAX);
    };
    let (p1, p3) = (a[1] as u16, a[3] as u16);
    Ok(match a[0] as u16 {
        0x0001 => u32::from(sysheap::alloc(w, uc, sel, p1, p3, LT_NORMAL)),
        0x0002 => {
            let ours = w.sys_heaps.kind(sel, p1) == Some(LT_NORMAL);
            if ours && sysheap::free(w, uc, sel, p1) {
                0
            } else {
                u32::from(p1)
            }
        }
        0x0003 => match w.local_heaps.heaps.get_mut(&sel) {
            Some(h) => u32::from(h.compact_for(uc, sel, p3)),
            None => 0,
        },
        0x0103 => u32::from(sel),
        _ => u32::MAX,
    })
}

pub static APIS: &[Api] = &[Api::new(
    "GDI",
    452,
    "GDISEEGDIDO",
    &[Arg::W, Arg::W, Arg::W, Arg::W],
    gdi_see_gdi_do,
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdi_see_gdi_do_works_on_gdis_heap() {
        let mut m = crate::machine::Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let sel = start(&mut m, &mut env.win16).unwrap();
        let mut call = |a: [u32; 4]| gdi_see_gdi_do(&mut env, &mut m, &a).unwrap();
        // 0103h: the heap's segment; 0001h LocalAlloc there (moveable:
        // a handle 2 modulo 4); 0002h LocalFree: 0, then the handle (no
        // block); an unknown request: -1.
        assert_eq!(call([0x0103, 0, 0, 0]), u32::from(sel));
        let h = call([0x0001, 0x0002, 0, 20]);
        assert_eq!(h % 4, 2);
        assert!(call([0x0003, 0, 0, 0]) > 0x100);
        assert_eq!(call([0x0002, h, 0, 0]), 0);
        assert_eq!(call([0x0002, h, 0, 0]), h);
        assert_eq!(call([0x0007, 0, 0, 0]), u32::MAX);
        // An object's block stays the object's.
        let pen = u32::from(env.win16.gdi.objects.stock(7));
        let mut call = |a: [u32; 4]| gdi_see_gdi_do(&mut env, &mut m, &a).unwrap();
        assert_eq!(call([0x0002, pen, 0, 0]), pen);
        assert!(consistent(&env.win16));
    }

    #[test]
    fn header_layout() {
        let h = ObjHeader {
            next: 0x0102,
            magic: 0x4F47,
            count: 0x0A0B_0C0D,
            meta_list: 0x0304,
            sel_count: 0x0506,
            owner: 0x0708,
        };
        let b = h.to_bytes();
        assert_eq!(
            b,
            [2, 1, 0x47, 0x4F, 0x0D, 0x0C, 0x0B, 0x0A, 4, 3, 6, 5, 8, 7]
        );
        assert_eq!(ObjHeader::from_bytes(&b), h);
        assert_eq!(u16::from_le_bytes([b[12], b[13]]), 0x0708);
    }

    #[test]
    fn magic_words_are_wines_and_name_the_lt_type() {
        assert_eq!(magic(lt::PEN), 0x4F47);
        assert_eq!(magic(lt::RGN), 0x4F4C);
        assert_eq!(magic(lt::DC), 0x4F4D);
        assert_eq!(magic(lt::METADC), 0x4F4F);
        assert_eq!(type_of_magic(0x4F49), lt::FONT);
        assert_eq!(type_of_magic(0x4F46), 0);
        assert_eq!(type_of_magic(0x4F51), 0);
        assert_eq!(lt::name(lt::PALETTE), Some("LT_GDI_PALETTE"));
    }

    #[test]
    fn a_rectangle_region_is_one_scan() {
        use crate::win16::geom::{Rect, Region};
        let b = region_bytes(&Region::rect(Rect::new(1, 2, 30, 40)));
        // wSize 26, one scan of two x's.
        assert_eq!(b.len(), 14 + 12);
        assert_eq!(&b[0..6], &[26, 0, 1, 0, 2, 0]);
        assert_eq!(&b[6..14], &[1, 0, 2, 0, 30, 0, 40, 0]);
        assert_eq!(&b[14..], &[2, 0, 2, 0, 40, 0, 1, 0, 30, 0, 2, 0]);
        assert_eq!(region_bytes(&Region::empty()).len(), 14);
    }
}
