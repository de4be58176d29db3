//! Windows metafiles: the format (METAHEADER and METARECORDs, exactly as
//! Windows 3.1 wrote them in memory and on disk), the recorder behind a
//! metafile DC, and the GDI functions that create, copy, enumerate and
//! play them.
//!
//! # The format (Windows 3.1 SDK, "Metafile Format", Reference volume 4)
//!
//! ```text
//! METAHEADER, 18 bytes:
//!   0 mtType WORD          1 in memory, 2 on disk
//!   2 mtHeaderSize WORD    9 (words)
//!   4 mtVersion WORD       0x0300 (device-independent bitmaps) or 0x0100
//!   6 mtSize DWORD         the whole metafile, in words
//!  10 mtNoObjects WORD     the most objects alive at once in the
//!                          metafile's object table
//!  12 mtMaxRecord DWORD    the largest record, in words
//!  16 mtNoParameters WORD  0
//! METARECORD:
//!   0 rdSize DWORD         the record, in words, these 6 bytes included
//!   4 rdFunction WORD      META_*: the low byte names the function, the
//!                          high byte is (for most) the count of
//!                          parameter words
//!   6 rdParm[]             the parameters, in reverse order of the
//!                          function's arguments (the hDC not stored);
//!                          strings, points and structures inline
//! The last record is META_EOF: rdSize 3, rdFunction 0.
//! ```
//!
//! Objects: a metafile does not store handles. When a pen, brush, font,
//! palette or region is first selected into a metafile DC, the recorder
//! writes its creation record (META_CREATEPENINDIRECT ...) and gives it
//! the lowest free slot of the metafile's object table; META_SELECTOBJECT
//! names that slot. Deleting the object writes META_DELETEOBJECT and frees
//! the slot. Playing creates each object into a handle table of
//! mtNoObjects entries (PlayMetaRecord's HANDLETABLE) and deletes what is
//! left at the end.

//!
//! # Files
//!
//! - `metafile/format.rs`: the format above in bytes (METAHEADER,
//!   METARECORD, the META_* functions, the object-slot recorder, encoding
//!   and decoding of record parameters), with no machine.
//! - this file: metafile handles in global memory, the GDI functions on
//!   them, and recording: GDI calls on a metafile DC written as records.
//! - `metafile/play.rs`: playing records back onto a DC (PlayMetaFile,
//!   PlayMetaFileRecord, EnumMetaFile).

use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::global::{self, gmem};

mod format;
mod play;

pub use format::*;
pub use play::play_record;
use play::{enum_meta_file, play_meta_file, play_meta_file_record, scratch};

// ---------------------------------------------------------------------
// Metafile handles.
//
// An HMETAFILE is a global memory handle whose block holds the metafile's
// bits, header first (Windows 3.1 kept a memory metafile so: GetMetaFileBits
// gives the same handle back as a memory handle, and SetMetaFileBits takes
// any global block holding a metafile). A disk metafile's block holds the
// bits as read from or written to its file, mtType 2.

/// The bits of the metafile `hmf` (its block's first mtSize words), parsed;
/// None when it is no global block or holds no valid metafile.
pub fn read_handle(env: &Env, uc: &Uc<'_>, hmf: u16) -> Option<(Vec<u8>, Metafile)> {
    let b = env.win16.global.find(hmf)?;
    let (sel, size) = (b.selector, b.size);
    let mut head = [0u8; HEADER_SIZE];
    uc.read_seg(sel, 0, &mut head).ok()?;
    let words = u32::from_le_bytes([head[6], head[7], head[8], head[9]]);
    let len = (u64::from(words) * 2)
        .min(u64::from(size))
        .min(MAX_METAFILE_BYTES);
    let mut bits = vec![0u8; len as usize];
    // A block over 64 KiB spans selectors: read it through each.
    let mut done = 0usize;
    while done < bits.len() {
        let chunk = (bits.len() - done).min(0x8000);
        let off = done as u32;
        let s = sel.wrapping_add(((off >> 16) as u16) * 8);
        uc.read_seg(s, off as u16, &mut bits[done..done + chunk])
            .ok()?;
        done += chunk;
    }
    let m = Metafile::parse(&bits).ok()?;
    Some((bits, m))
}

/// A new metafile handle holding `bits`.
pub fn new_handle(env: &mut Env, uc: &mut Uc<'_>, bits: &[u8]) -> u16 {
    let owner = global::task_owner(env, uc, gmem::MOVEABLE);
    global::alloc_block(env, uc, gmem::MOVEABLE, bits.len() as u32, bits, owner)
}

/// Write a metafile's bits to a file of the sandbox, as a disk metafile
/// (through the drive: copy-on-write and the quota hold).
pub fn write_file(env: &mut Env, name: &[u8], m: &Metafile) -> bool {
    let Some(d) = env.drive.as_mut() else {
        return false;
    };
    let mut m = m.clone();
    m.header.kind = DISK_METAFILE;
    d.write_file(name, &m.to_bytes()).is_ok()
}

/// GDI.124 GetMetaFile(lpFilename) -> a handle of the disk metafile, or 0.
fn get_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
        return Ok(0);
    };
    let read = env
        .drive
        .as_ref()
        .map(|d| d.read_file(&name, MAX_METAFILE_BYTES));
    let Some(Ok(bytes)) = read else {
        return Ok(0);
    };
    let Ok(m) = Metafile::parse(&bytes) else {
        return Ok(0);
    };
    let bits = m.to_bytes();
    Ok(u32::from(new_handle(env, uc, &bits)))
}

/// GDI.127 DeleteMetaFile(hmf): frees the handle (not the file).
fn delete_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    if read_handle(env, uc, h).is_none() {
        return Ok(0);
    }
    Ok(u32::from(global::free_block(env, uc, h)))
}

/// GDI.151 CopyMetaFile(hmfSrc, lpFilename): a copy in memory (NULL name)
/// or in a file of the sandbox; the new handle, or 0.
fn copy_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((_, mut m)) = read_handle(env, uc, a[0] as u16) else {
        return Ok(0);
    };
    if a[1] == 0 {
        m.header.kind = MEMORY_METAFILE;
    } else {
        let Some(name) = farptr::read_cstr(uc, a[1], 260) else {
            return Ok(0);
        };
        if !write_file(env, &name, &m) {
            return Ok(0);
        }
        m.header.kind = DISK_METAFILE;
    }
    Ok(u32::from(new_handle(env, uc, &m.to_bytes())))
}

/// GDI.159 GetMetaFileBits(hmf) -> the global handle of the bits: the
/// same block (the metafile handle is no longer one).
fn get_meta_file_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    Ok(if read_handle(env, uc, h).is_some() {
        u32::from(h)
    } else {
        0
    })
}

/// GDI.410 IsValidMetaFile(hmf) (undocumented; GDI 3.1 as Wine's notes
/// on it describe) -> TRUE when the global block hmf begins with a
/// Windows 3.x METAHEADER: mtType 1 (memory) or 2 (disk), mtHeaderSize 9
/// and mtVersion 0300h. Only the header is looked at, not the records.
fn is_valid_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = env.win16.global.find(a[0] as u16) else {
        return Ok(0);
    };
    let mut head = [0u8; 6];
    if b.size < HEADER_SIZE as u32 || uc.read_seg(b.selector, 0, &mut head).is_err() {
        return Ok(0);
    }
    let word = |i: usize| u16::from_le_bytes([head[i], head[i + 1]]);
    let kind = word(0);
    Ok(u32::from(
        (kind == MEMORY_METAFILE || kind == DISK_METAFILE)
            && usize::from(word(2)) * 2 == HEADER_SIZE
            && word(4) == METAVERSION,
    ))
}

/// GDI.160 SetMetaFileBits(hMem) -> a metafile handle for a global block
/// that holds a metafile (the same handle), or 0.
fn set_meta_file_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    get_meta_file_bits(env, uc, a)
}

/// GDI.196 SetMetaFileBitsBetter(hMem) -> a metafile handle, or 0: as
/// SetMetaFileBits, and the block becomes GDI's (Windows 3.1 SDK: the
/// metafile then outlives the application that made it, which is how OLE
/// hands metafiles between programs).
fn set_meta_file_bits_better(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = set_meta_file_bits(env, uc, a)? as u16;
    if h == 0 {
        return Ok(0);
    }
    let gdi = env.win16.module_by_name("GDI").map_or(0, |m| m.hmodule);
    if let Some(b) = env.win16.global.find_mut(h) {
        b.owner = gdi;
        b.pdb_owner = false;
    }
    Ok(u32::from(h))
}

// ---------------------------------------------------------------------
// Metafile DCs: recording.
//
// CreateMetaFile makes an information DC of the display (it answers
// GetTextMetrics, GetDeviceCaps and the like as the display would, and
// draws nothing) and a recorder for it. Every GDI call on that DC passes
// through [`intercept`] before its function runs (win16/mod.rs,
// call_api): the calls a metafile holds are recorded and return TRUE
// (SelectObject: the object of that kind selected before), the others
// run on the information DC. What is recorded: the attribute and
// mapping calls, the drawing calls (lines, shapes, PatBlt, pixels, flood
// fills, text), SaveDC/RestoreDC, clip rectangles, the pens, brushes and
// fonts selected (their creation records, then SELECTOBJECT), and the
// blits: BitBlt and StretchBlt as DIBBITBLT and DIBSTRETCHBLT carrying
// the source rectangle as a packed DIB of the source's depth (without
// one when the raster operation takes no source), StretchDIBits and
// SetDIBitsToDevice as STRETCHDIB and SETDIBTODEV with the program's DIB.
// Not recorded (the call returns TRUE and a `metafile: ... not recorded`
// event says so): regions, palettes, escapes, and DIBs over 64 KB.

/// Metafile DCs being recorded: DC handle -> recorder.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    dcs: std::collections::HashMap<u16, Recorder>,
}

impl Recording {
    /// Is `hdc` a metafile DC?
    pub fn is_metafile(&self, hdc: u16) -> bool {
        self.dcs.contains_key(&hdc)
    }

    /// The recorder of metafile DC `hdc`.
    pub fn recorder(&mut self, hdc: u16) -> Option<&mut Recorder> {
        self.dcs.get_mut(&hdc)
    }
}

/// GDI calls recorded as the image of their arguments after the hDC:
/// (GDI ordinal, META_ function).
pub const STACK_RECORDS: &[(u16, u16)] = &[
    (1, META_SETBKCOLOR),
    (2, META_SETBKMODE),
    (3, META_SETMAPMODE),
    (4, META_SETROP2),
    (5, META_SETRELABS),
    (6, META_SETPOLYFILLMODE),
    (7, META_SETSTRETCHBLTMODE),
    (8, META_SETTEXTCHAREXTRA),
    (9, META_SETTEXTCOLOR),
    (10, META_SETTEXTJUSTIFICATION),
    (11, META_SETWINDOWORG),
    (12, META_SETWINDOWEXT),
    (13, META_SETVIEWPORTORG),
    (14, META_SETVIEWPORTEXT),
    (15, META_OFFSETWINDOWORG),
    (16, META_SCALEWINDOWEXT),
    (17, META_OFFSETVIEWPORTORG),
    (18, META_SCALEVIEWPORTEXT),
    (19, META_LINETO),
    (20, META_MOVETO),
    (21, META_EXCLUDECLIPRECT),
    (22, META_INTERSECTCLIPRECT),
    (23, META_ARC),
    (24, META_ELLIPSE),
    (25, META_FLOODFILL),
    (26, META_PIE),
    (27, META_RECTANGLE),
    (28, META_ROUNDRECT),
    (29, META_PATBLT),
    (30, META_SAVEDC),
    (31, META_SETPIXEL),
    (32, META_OFFSETCLIPRGN),
    (39, META_RESTOREDC),
    (46, META_SETTEXTALIGN),
    (48, META_CHORD),
    (349, META_SETMAPPERFLAGS),
    (372, META_EXTFLOODFILL),
];

/// Calls a metafile DC accepts without recording them (module notes).
const NOT_RECORDED: &[u16] = &[38, 40, 41, 42, 43, 44];

// The ordinals the recording hook (intercept) tells calls apart by; GDI's
// own calls go to the Rust functions by name.
const ORD_BITBLT: u16 = 34;
const ORD_STRETCHBLT: u16 = 35;
const ORD_STRETCHDIBITS: u16 = 439;
const ORD_SETDIBITSTODEVICE: u16 = 443;
const SRCCOPY: u32 = 0x00CC_0020;
/// The largest DIB a record here carries (one scratch segment).
const MAX_DIB: usize = 0xFF00;

/// The lengths of a packed DIB's parts from its header's first bytes
/// (BITMAPINFOHEADER or BITMAPCOREHEADER) and the colour usage
/// (DIB_RGB_COLORS 0: RGBQUADs, or RGBTRIPLEs after a core header;
/// DIB_PAL_COLORS 1: WORD indices): (header + colour table, bits for
/// `lines` scan lines, or all of them for None).
pub fn dib_parts(head: &[u8], usage: u16, lines: Option<u32>) -> Option<(usize, usize)> {
    let d = |o: usize| {
        head.get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    let w16 = |o: usize| head.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let size = d(0)?;
    let (width, height, bits, compression, size_image, used) = match size {
        12 => (u32::from(w16(4)?), u32::from(w16(6)?), w16(10)?, 0, 0, 0),
        40.. => (
            d(4)?,
            (d(8)? as i32).unsigned_abs(),
            w16(14)?,
            d(16)?,
            d(20)?,
            d(32)?,
        ),
        _ => return None,
    };
    if !matches!(bits, 1 | 4 | 8 | 24) || width > 0x8000 || height > 0x8000 {
        return None;
    }
    let colors = if bits <= 8 {
        if used != 0 && size != 12 {
            used.min(1 << bits)
        } else {
            1 << bits
        }
    } else {
        0
    };
    let entry = match (usage, size) {
        (1, _) => 2,
        (_, 12) => 3,
        _ => 4,
    };
    let table = size as usize + colors as usize * entry;
    let stride = (width as usize * usize::from(bits)).div_ceil(32) * 4;
    let data = if compression != 0 {
        size_image as usize
    } else {
        stride * lines.unwrap_or(height).min(height) as usize
    };
    (table + data <= MAX_DIB).then_some((table, data))
}

/// The source rectangle of a blit as a packed DIB of its own (xSrc = ySrc
/// = 0), in the source's colour depth, as a metafile's DIBBITBLT and
/// DIBSTRETCHBLT records carry it: copied into a compatible bitmap, then
/// read with GetDIBits. None when it cannot be made or is too big.
fn capture(
    env: &mut Env,
    uc: &mut Uc<'_>,
    src: u32,
    xs: u32,
    ys: u32,
    ws: i32,
    hs: i32,
) -> Result<Option<Vec<u8>>, Stop> {
    if ws <= 0 || hs <= 0 || ws > 0x2000 || hs > 0x2000 {
        return Ok(None);
    }
    let depth = match super::dc::surface_format(&mut env.win16.gdi, src as u16) {
        Some(f) => f.depth(),
        None => return Ok(None),
    };
    let colors = if depth <= 8 { 1usize << depth } else { 0 };
    let stride = (ws as usize * depth as usize).div_ceil(32) * 4;
    let bits_len = stride * hs as usize;
    if 40 + colors * 4 + bits_len > MAX_DIB {
        return Ok(None);
    }
    let mem = super::dc::create_compatible_dc(env, uc, &[src])?;
    let bm = super::bitmap::create_compatible_bitmap(env, uc, &[src, ws as u32, hs as u32])?;
    let mut out = None;
    if mem != 0 && bm != 0 {
        let old = super::objects::select_object(env, uc, &[mem, bm])?;
        super::blit::bit_blt(
            env,
            uc,
            &[mem, 0, 0, ws as u32, hs as u32, src, xs, ys, SRCCOPY],
        )?;
        super::objects::select_object(env, uc, &[mem, old])?;
        let mut head = vec![0u8; 40 + colors * 4];
        head[0..4].copy_from_slice(&40u32.to_le_bytes());
        head[4..8].copy_from_slice(&(ws as u32).to_le_bytes());
        head[8..12].copy_from_slice(&(hs as u32).to_le_bytes());
        head[12..14].copy_from_slice(&1u16.to_le_bytes());
        head[14..16].copy_from_slice(&(depth as u16).to_le_bytes());
        let mut data = head.clone();
        data.resize(head.len() + bits_len, 0);
        if let Some((p, blk)) = scratch(env, uc, &data) {
            let lines = super::blit::get_dibits(
                env,
                uc,
                &[mem, bm, 0, hs as u32, farptr::add(p, head.len()), p, 0],
            )?;
            if lines != 0 {
                out = farptr::read_bytes(uc, p, data.len());
            }
            global::free_block(env, uc, blk);
        }
    }
    if mem != 0 {
        super::dc::delete_dc(env, uc, &[mem])?;
    }
    if bm != 0 {
        super::objects::delete_object(env, uc, &[bm])?;
    }
    Ok(out)
}

/// A packed DIB a program passed (header and colour table at `bmi`, bits
/// at `bits`), for `lines` scan lines (None: all).
fn program_dib(
    uc: &Uc<'_>,
    bmi: u32,
    bits: u32,
    usage: u16,
    lines: Option<u32>,
) -> Option<Vec<u8>> {
    let head = farptr::read_bytes(uc, bmi, 40).or_else(|| farptr::read_bytes(uc, bmi, 12))?;
    let (table, data) = dib_parts(&head, usage, lines)?;
    let mut out = farptr::read_bytes(uc, bmi, table)?;
    out.extend(farptr::read_bytes(uc, bits, data)?);
    Some(out)
}

/// Record a blit on metafile DC `hdc`: BitBlt's or StretchBlt's arguments
/// after the hDC as (x, y, w, h, hdcSrc, xSrc, ySrc, wSrc, hSrc, rop).
#[allow(clippy::too_many_arguments)]
fn record_blit(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    stretch: bool,
    d: [u32; 4],
    src: u32,
    s: [u32; 4],
    rop: u32,
) -> Result<(), Stop> {
    let w = |v: u32| v as u16;
    let uses_source = super::raster::rop3_uses((rop >> 16) as u8).1;
    let mut p = vec![rop as u16, (rop >> 16) as u16];
    let dib = if uses_source {
        match capture(
            env,
            uc,
            src,
            s[0],
            s[1],
            s[2] as i16 as i32,
            s[3] as i16 as i32,
        )? {
            Some(dib) => Some(dib),
            None => {
                crate::machine::record_event(
                    uc,
                    format!("metafile {hdc:04X}: a blit's source could not be recorded"),
                );
                return Ok(());
            }
        }
    } else {
        None
    };
    if stretch {
        p.extend([w(s[3]), w(s[2])]);
    }
    if dib.is_some() {
        p.extend([0, 0]);
    } else {
        p.extend([w(s[1]), w(s[0]), 0]);
    }
    p.extend([w(d[3]), w(d[2]), w(d[1]), w(d[0])]);
    if let Some(dib) = dib {
        p.extend(words_of(&dib));
    }
    let f = if stretch {
        META_DIBSTRETCHBLT
    } else {
        META_DIBBITBLT
    };
    if let Some(r) = env.win16.gdi.metafiles.recorder(hdc) {
        r.record(f, p);
    }
    Ok(())
}

const ORD_SELECTOBJECT: u16 = 45;
const ORD_DELETEDC: u16 = 68;
const ORD_DELETEOBJECT: u16 = 69;
const ORD_TEXTOUT: u16 = 33;
const ORD_EXTTEXTOUT: u16 = 351;
const ORD_POLYGON: u16 = 36;
const ORD_POLYLINE: u16 = 37;
const ORD_POLYPOLYGON: u16 = 450;
const ORD_CREATEPENINDIRECT: u16 = 62;
const ORD_CREATEBRUSHINDIRECT: u16 = 50;
const ORD_CREATEFONTINDIRECT: u16 = 57;

/// The most points or characters a recorded call reads.
const MAX_ITEMS: usize = 0x2000;

fn read_points(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<(i16, i16)>> {
    let b = farptr::read_bytes(uc, p, n.min(MAX_ITEMS) * 4)?;
    Some(
        b.chunks(4)
            .map(|c| {
                (
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                )
            })
            .collect(),
    )
}

/// Record SelectObject(hdc, h) on a metafile DC: the object's creation
/// record the first time this metafile sees it, then SELECTOBJECT of its
/// slot. Returns the object of the same kind selected before (the stock
/// default at first), or 0 for an object it cannot record.
fn record_select(env: &mut Env, uc: &mut Uc<'_>, hdc: u16, h: u16) -> u32 {
    use super::objects::{Obj, stock};
    let g = &mut env.win16.gdi;
    let (kind, create) = match g.objects.get(h) {
        Some(Obj::Pen(_)) => (0usize, META_CREATEPENINDIRECT),
        Some(Obj::Brush(_)) => (1, META_CREATEBRUSHINDIRECT),
        Some(Obj::Font(_)) => (2, META_CREATEFONTINDIRECT),
        _ => {
            crate::machine::record_event(
                uc,
                format!("metafile {hdc:04X}: SelectObject {h:04X} not recorded"),
            );
            return 0;
        }
    };
    let Some(bytes) = super::objects::object_bytes(g, h) else {
        return 0;
    };
    let defaults = [
        g.objects.stock(stock::BLACK_PEN),
        g.objects.stock(stock::WHITE_BRUSH),
        g.objects.stock(stock::SYSTEM_FONT),
    ];
    let Some(r) = g.metafiles.recorder(hdc) else {
        return 0;
    };
    let slot = match r.slot_of(h) {
        Some(s) => s,
        None => {
            r.record(create, words_of(&bytes));
            r.add_object(h)
        }
    };
    r.record(META_SELECTOBJECT, vec![slot]);
    let prev = r.selected[kind];
    r.selected[kind] = h;
    u32::from(if prev == 0 { defaults[kind] } else { prev })
}

/// The hook every GDI call passes through (win16/dispatch.rs, call_api): for a
/// call on a metafile DC, its record and result; None to run the
/// function as usual.
pub fn intercept(
    env: &mut Env,
    uc: &mut Uc<'_>,
    api: &Api,
    args: &[u32],
) -> Result<Option<u32>, Stop> {
    if !api.module.eq_ignore_ascii_case("GDI") || env.win16.gdi.metafiles.dcs.is_empty() {
        return Ok(None);
    }
    if api.ordinal == ORD_DELETEOBJECT {
        // An object a metafile uses: its deletion is recorded.
        let h = args.first().copied().unwrap_or(0) as u16;
        for r in env.win16.gdi.metafiles.dcs.values_mut() {
            if let Some(slot) = r.remove_object(h) {
                r.record(META_DELETEOBJECT, vec![slot]);
                for s in &mut r.selected {
                    if *s == h {
                        *s = 0;
                    }
                }
            }
        }
        return Ok(None);
    }
    if api.args.first() != Some(&Arg::W) {
        return Ok(None);
    }
    let hdc = args[0] as u16;
    if !env.win16.gdi.metafiles.is_metafile(hdc) {
        return Ok(None);
    }
    let o = api.ordinal;
    if o == ORD_DELETEDC {
        env.win16.gdi.metafiles.dcs.remove(&hdc);
        return Ok(None);
    }
    let record = |env: &mut Env, rec: MetaRecord| {
        if let Some(r) = env.win16.gdi.metafiles.recorder(hdc) {
            r.records.push(rec);
        }
    };
    if let Some(&(_, f)) = STACK_RECORDS.iter().find(|e| e.0 == o) {
        let pairs: Vec<(bool, u32)> = api.args[1..]
            .iter()
            .zip(&args[1..])
            .map(|(a, &v)| (*a == Arg::L, v))
            .collect();
        record(env, MetaRecord::new(f, stack_params(&pairs)));
        return Ok(Some(1));
    }
    let n = |v: u32| (v as u16 as i16).max(0) as usize;
    match o {
        ORD_SELECTOBJECT => Ok(Some(record_select(env, uc, hdc, args[1] as u16))),
        ORD_TEXTOUT => {
            let text =
                farptr::read_bytes(uc, args[3], n(args[4]).min(MAX_ITEMS)).unwrap_or_default();
            record(env, text_out(args[1] as i16, args[2] as i16, &text));
            Ok(Some(1))
        }
        ORD_EXTTEXTOUT => {
            let count = n(args[6]).min(MAX_ITEMS);
            let text = farptr::read_bytes(uc, args[5], count).unwrap_or_default();
            let options = args[3] as u16;
            let rect = if options & (ETO_OPAQUE | ETO_CLIPPED) != 0 && args[4] != 0 {
                farptr::read_bytes(uc, args[4], 8).map(|b| {
                    let w = |k: usize| i16::from_le_bytes([b[k], b[k + 1]]);
                    [w(0), w(2), w(4), w(6)]
                })
            } else {
                None
            };
            let dx: Option<Vec<i16>> = (args[7] != 0)
                .then(|| farptr::read_bytes(uc, args[7], text.len() * 2))
                .flatten()
                .map(|b| {
                    b.chunks(2)
                        .map(|c| i16::from_le_bytes([c[0], c[1]]))
                        .collect()
                });
            let options = if rect.is_some() {
                options
            } else {
                options & !(ETO_OPAQUE | ETO_CLIPPED)
            };
            record(
                env,
                ext_text_out(
                    args[1] as i16,
                    args[2] as i16,
                    options,
                    rect,
                    &text,
                    dx.as_deref(),
                ),
            );
            Ok(Some(1))
        }
        ORD_POLYGON | ORD_POLYLINE => {
            let pts = read_points(uc, args[1], n(args[2])).unwrap_or_default();
            let f = if o == ORD_POLYGON {
                META_POLYGON
            } else {
                META_POLYLINE
            };
            record(env, poly(f, &pts));
            Ok(Some(1))
        }
        ORD_POLYPOLYGON => {
            let k = n(args[3]).min(MAX_ITEMS);
            let counts = farptr::read_bytes(uc, args[2], k * 2).unwrap_or_default();
            let counts: Vec<usize> = counts
                .chunks(2)
                .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])))
                .collect();
            let total: usize = counts.iter().sum::<usize>().min(MAX_ITEMS);
            let pts = read_points(uc, args[1], total).unwrap_or_default();
            let mut polys = Vec::new();
            let mut at = 0;
            for c in counts {
                let end = (at + c).min(pts.len());
                polys.push(pts[at..end].to_vec());
                at = end;
            }
            record(env, poly_polygon(&polys));
            Ok(Some(1))
        }
        ORD_BITBLT => {
            let d = [args[1], args[2], args[3], args[4]];
            let s = [args[6], args[7], args[3], args[4]];
            record_blit(env, uc, hdc, false, d, args[5], s, args[8])?;
            Ok(Some(1))
        }
        ORD_STRETCHBLT => {
            let d = [args[1], args[2], args[3], args[4]];
            let s = [args[6], args[7], args[8], args[9]];
            record_blit(env, uc, hdc, true, d, args[5], s, args[10])?;
            Ok(Some(1))
        }
        ORD_STRETCHDIBITS => {
            let usage = args[11] as u16;
            if let Some(dib) = program_dib(uc, args[10], args[9], usage, None) {
                let rop = args[12];
                let mut p = vec![rop as u16, (rop >> 16) as u16, usage];
                for k in [8, 7, 6, 5, 4, 3, 2, 1] {
                    p.push(args[k] as u16);
                }
                p.extend(words_of(&dib));
                record(env, MetaRecord::new(META_STRETCHDIB, p));
            }
            Ok(Some(1))
        }
        ORD_SETDIBITSTODEVICE => {
            let usage = args[11] as u16;
            let lines = args[8] as u16 as u32;
            if let Some(dib) = program_dib(uc, args[10], args[9], usage, Some(lines)) {
                let mut p = vec![usage];
                for k in [8, 7, 6, 5, 4, 3, 2, 1] {
                    p.push(args[k] as u16);
                }
                p.extend(words_of(&dib));
                record(env, MetaRecord::new(META_SETDIBTODEV, p));
            }
            Ok(Some(lines.max(1)))
        }
        _ if NOT_RECORDED.contains(&o) => {
            crate::machine::record_event(
                uc,
                format!("metafile {hdc:04X}: {} not recorded", api.name),
            );
            Ok(Some(1))
        }
        _ => Ok(None),
    }
}

/// GDI.125 CreateMetaFile(lpFilename) -> a metafile DC: recording into
/// memory (NULL) or into a file of the sandbox, written at CloseMetaFile.
fn create_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let file = if a[0] == 0 {
        None
    } else {
        let Some(name) = farptr::read_cstr(uc, a[0], 260) else {
            return Ok(0);
        };
        // The name must be one the drive can create (a file or a missing
        // name in an existing directory); the file is written at
        // CloseMetaFile, through the drive.
        let creatable = env.drive.as_ref().is_some_and(|d| {
            matches!(
                d.resolve(&name),
                Ok(crate::dos::fs::HostPath::File { .. }
                    | crate::dos::fs::HostPath::Missing { .. })
            )
        });
        if !creatable {
            return Ok(0);
        }
        Some(crate::loader::latin1(&name))
    };
    let device = super::devcaps::Device::Display(env.win16.gdi.display);
    let h = super::dc::make_dc(env, uc, super::dc::DcKind::Info, device) as u16;
    if h != 0 {
        super::heap::retype(&mut env.win16, uc, h, super::heap::lt::METADC);
        env.win16.gdi.metafiles.dcs.insert(h, Recorder::new(file));
    }
    Ok(u32::from(h))
}

/// GDI.126 CloseMetaFile(hDC) -> the metafile's handle (the DC is
/// deleted), or 0.
fn close_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    let Some(r) = env.win16.gdi.metafiles.dcs.remove(&hdc) else {
        return Ok(0);
    };
    crate::win16::gdi::dc::drop_dc(&mut env.win16, uc, hdc);
    let m = r.finish();
    if let Some(f) = &r.file
        && !write_file(env, f.as_bytes(), &m)
    {
        return Ok(0);
    }
    Ok(u32::from(new_handle(env, uc, &m.to_bytes())))
}

/// The metafile functions.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        123,
        "PLAYMETAFILE",
        &[Arg::W, Arg::W],
        play_meta_file,
    ),
    Api::new("GDI", 125, "CREATEMETAFILE", &[Arg::L], create_meta_file),
    Api::new("GDI", 126, "CLOSEMETAFILE", &[Arg::W], close_meta_file),
    Api::new(
        "GDI",
        175,
        "ENUMMETAFILE",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        enum_meta_file,
    ),
    Api::new(
        "GDI",
        176,
        "PLAYMETAFILERECORD",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        play_meta_file_record,
    ),
    Api::new("GDI", 124, "GETMETAFILE", &[Arg::L], get_meta_file),
    Api::new("GDI", 127, "DELETEMETAFILE", &[Arg::W], delete_meta_file),
    Api::new(
        "GDI",
        151,
        "COPYMETAFILE",
        &[Arg::W, Arg::L],
        copy_meta_file,
    ),
    Api::new("GDI", 159, "GETMETAFILEBITS", &[Arg::W], get_meta_file_bits),
    Api::new("GDI", 160, "SETMETAFILEBITS", &[Arg::W], set_meta_file_bits),
    Api::new(
        "GDI",
        196,
        "SETMETAFILEBITSBETTER",
        &[Arg::W],
        set_meta_file_bits_better,
    ),
    Api::new("GDI", 410, "ISVALIDMETAFILE", &[Arg::W], is_valid_meta_file),
];
