//! Playing a metafile: each record as the GDI call it names, on a DC, with
//! the objects it creates in a handle table.

use super::format::{
    HEADER_SIZE, META_CREATEBRUSHINDIRECT, META_CREATEFONTINDIRECT, META_CREATEPENINDIRECT,
    META_DELETEOBJECT, META_DIBBITBLT, META_DIBSTRETCHBLT, META_EXTTEXTOUT, META_POLYGON,
    META_POLYLINE, META_POLYPOLYGON, META_SELECTOBJECT, META_SETDIBTODEV, META_STRETCHDIB,
    META_TEXTOUT, MetaRecord, parse_ext_text_out, parse_poly, parse_poly_polygon, parse_text_out,
    words_of,
};
use super::{
    ORD_CREATEBRUSHINDIRECT, ORD_CREATEFONTINDIRECT, ORD_CREATEPENINDIRECT, ORD_POLYGON,
    ORD_POLYLINE, STACK_RECORDS, dib_parts, read_handle,
};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::Arg;
use crate::win16::farptr;
use crate::win16::gdi::{blit, objects, shapes, text};
use crate::win16::global;

// ---------------------------------------------------------------------
// Playing.

/// GDI calls a record plays by name: (META_ function, GDI ordinal) of the
/// stack-image records, and the others by their shape.
fn call_gdi(env: &mut Env, uc: &mut Uc<'_>, ordinal: u16, args: &[u32]) -> Result<u32, Stop> {
    match crate::win16::api::find("GDI", ordinal) {
        Some(f) if f.args.len() == args.len() => (f.func)(env, uc, args),
        _ => Ok(0),
    }
}

/// A scratch block holding `data` for the duration of one call: its far
/// pointer and handle.
pub(super) fn scratch(env: &mut Env, uc: &mut Uc<'_>, data: &[u8]) -> Option<(u32, u16)> {
    let owner = global::task_owner(env, uc, 0);
    let h = global::alloc_block(env, uc, 0, data.len().max(2) as u32, data, owner);
    let sel = env.win16.global.find(h)?.selector;
    Some((farptr::make(sel, 0), h))
}

/// Play one record on `hdc` with the handle table `table` (the objects the
/// metafile created, by slot). Unknown and unplayable records are skipped,
/// as GDI skipped them.
pub fn play_record(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    table: &mut [u16],
    r: &MetaRecord,
) -> Result<(), Stop> {
    let h = u32::from(hdc);
    if let Some(&(ord, _)) = STACK_RECORDS.iter().find(|e| e.1 == r.function) {
        let Some(f) = crate::win16::api::find("GDI", ord) else {
            return Ok(());
        };
        // The parameters are the arguments after the hDC, last first.
        let mut vals = Vec::new();
        let mut k = 0usize;
        for a in f.args[1..].iter().rev() {
            let v = match a {
                Arg::W => u32::from(r.params.get(k).copied().unwrap_or(0)),
                Arg::L => r.dword(k),
            };
            k += if *a == Arg::L { 2 } else { 1 };
            vals.push(v);
        }
        vals.push(h);
        vals.reverse();
        (f.func)(env, uc, &vals)?;
        return Ok(());
    }
    let with_scratch = |env: &mut Env,
                        uc: &mut Uc<'_>,
                        data: &[u8],
                        call: &mut dyn FnMut(&mut Env, &mut Uc<'_>, u32) -> Result<u32, Stop>|
     -> Result<u32, Stop> {
        let Some((p, blk)) = scratch(env, uc, data) else {
            return Ok(0);
        };
        let v = call(env, uc, p);
        global::free_block(env, uc, blk);
        v
    };
    match r.function {
        META_TEXTOUT => {
            if let Some((x, y, text)) = parse_text_out(r) {
                let n = text.len() as u32;
                with_scratch(env, uc, &text, &mut |env, uc, p| {
                    text::text_out(env, uc, &[h, x as u16 as u32, y as u16 as u32, p, n])
                })?;
            }
        }
        META_EXTTEXTOUT => {
            if let Some(e) = parse_ext_text_out(r) {
                let mut data = Vec::new();
                for v in e.rect.unwrap_or_default() {
                    data.extend_from_slice(&v.to_le_bytes());
                }
                let text_at = data.len();
                data.extend_from_slice(&e.text);
                if data.len() % 2 == 1 {
                    data.push(0);
                }
                let dx_at = data.len();
                if let Some(dx) = &e.dx {
                    for v in dx {
                        data.extend_from_slice(&v.to_le_bytes());
                    }
                }
                let n = e.text.len() as u32;
                let has_rect = e.rect.is_some();
                let has_dx = e.dx.is_some();
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    let rect = if has_rect { p } else { 0 };
                    let dx = if has_dx { farptr::add(p, dx_at) } else { 0 };
                    let args = [
                        h,
                        e.x as u16 as u32,
                        e.y as u16 as u32,
                        u32::from(e.options),
                        rect,
                        farptr::add(p, text_at),
                        n,
                        dx,
                    ];
                    text::ext_text_out(env, uc, &args)
                })?;
            }
        }
        META_POLYGON | META_POLYLINE => {
            if let Some(pts) = parse_poly(r) {
                let data: Vec<u8> = pts
                    .iter()
                    .flat_map(|&(x, y)| [x.to_le_bytes(), y.to_le_bytes()].concat())
                    .collect();
                let ord = if r.function == META_POLYGON {
                    ORD_POLYGON
                } else {
                    ORD_POLYLINE
                };
                let n = pts.len() as u32;
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    call_gdi(env, uc, ord, &[h, p, n])
                })?;
            }
        }
        META_POLYPOLYGON => {
            if let Some(polys) = parse_poly_polygon(r) {
                let mut data = Vec::new();
                for q in &polys {
                    for &(x, y) in q {
                        data.extend_from_slice(&x.to_le_bytes());
                        data.extend_from_slice(&y.to_le_bytes());
                    }
                }
                let counts_at = data.len();
                for q in &polys {
                    data.extend_from_slice(&(q.len() as u16).to_le_bytes());
                }
                let n = polys.len() as u32;
                with_scratch(env, uc, &data, &mut |env, uc, p| {
                    shapes::poly_polygon(env, uc, &[h, p, farptr::add(p, counts_at), n])
                })?;
            }
        }
        META_CREATEPENINDIRECT | META_CREATEBRUSHINDIRECT | META_CREATEFONTINDIRECT => {
            let (ord, len) = match r.function {
                META_CREATEPENINDIRECT => (ORD_CREATEPENINDIRECT, 10),
                META_CREATEBRUSHINDIRECT => (ORD_CREATEBRUSHINDIRECT, 8),
                _ => (ORD_CREATEFONTINDIRECT, 50),
            };
            let mut data = r.bytes_from(0);
            data.resize(len, 0);
            let obj = with_scratch(env, uc, &data, &mut |env, uc, p| {
                call_gdi(env, uc, ord, &[p])
            })?;
            // The lowest free slot holds it.
            if let Some(slot) = table.iter_mut().find(|s| **s == 0) {
                *slot = obj as u16;
            } else if obj != 0 {
                objects::delete_object(env, uc, &[obj])?;
            }
        }
        META_DIBBITBLT | META_DIBSTRETCHBLT | META_STRETCHDIB | META_SETDIBTODEV => {
            play_dib(env, uc, h, r)?;
        }
        META_SELECTOBJECT => {
            let slot = usize::from(r.params.first().copied().unwrap_or(u16::MAX));
            if let Some(&o) = table.get(slot).filter(|&&o| o != 0) {
                objects::select_object(env, uc, &[h, u32::from(o)])?;
            }
        }
        META_DELETEOBJECT => {
            let slot = usize::from(r.params.first().copied().unwrap_or(u16::MAX));
            if let Some(o) = table.get_mut(slot).filter(|o| **o != 0) {
                let obj = std::mem::take(o);
                objects::delete_object(env, uc, &[u32::from(obj)])?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Play one of the DIB records (module notes): a blit without a DIB is a
/// PatBlt; with one, StretchDIBits (SetDIBitsToDevice for SETDIBTODEV)
/// from the record's packed DIB.
fn play_dib(env: &mut Env, uc: &mut Uc<'_>, h: u32, r: &MetaRecord) -> Result<(), Stop> {
    let p = &r.params;
    let v = |k: usize| u32::from(p.get(k).copied().unwrap_or(0));
    let rop = r.dword(0);
    // (destination x, y, w, h; source x, y, w, h; usage; the DIB's start)
    let (dst, src, usage, dib_at) = match r.function {
        META_DIBBITBLT if p.len() == 9 => {
            blit::pat_blt(env, uc, &[h, v(8), v(7), v(6), v(5), rop])?;
            return Ok(());
        }
        META_DIBSTRETCHBLT if p.len() == 11 => {
            blit::pat_blt(env, uc, &[h, v(10), v(9), v(8), v(7), rop])?;
            return Ok(());
        }
        META_DIBBITBLT => ([v(7), v(6), v(5), v(4)], [v(3), v(2), v(5), v(4)], 0, 8),
        META_DIBSTRETCHBLT => ([v(9), v(8), v(7), v(6)], [v(5), v(4), v(3), v(2)], 0, 10),
        META_STRETCHDIB => (
            [v(10), v(9), v(8), v(7)],
            [v(6), v(5), v(4), v(3)],
            v(2),
            11,
        ),
        _ => {
            // META_SETDIBTODEV: usage, scan count, start scan, yDib, xDib,
            // height, width, yDest, xDest.
            let dib = r.bytes_from(9);
            let Some((table, _)) = dib_parts(&dib, p.first().copied().unwrap_or(0), Some(v(1)))
            else {
                return Ok(());
            };
            let Some((ptr, blk)) = scratch(env, uc, &dib) else {
                return Ok(());
            };
            let args = [
                h,
                v(8),
                v(7),
                v(6),
                v(5),
                v(4),
                v(3),
                v(2),
                v(1),
                farptr::add(ptr, table),
                ptr,
                v(0),
            ];
            let _ = blit::set_dibits_to_device(env, uc, &args);
            global::free_block(env, uc, blk);
            return Ok(());
        }
    };
    let dib = r.bytes_from(dib_at);
    let Some((table, _)) = dib_parts(&dib, usage as u16, None) else {
        return Ok(());
    };
    let Some((ptr, blk)) = scratch(env, uc, &dib) else {
        return Ok(());
    };
    let args = [
        h,
        dst[0],
        dst[1],
        dst[2],
        dst[3],
        src[0],
        src[1],
        src[2],
        src[3],
        farptr::add(ptr, table),
        ptr,
        usage,
        rop,
    ];
    let res = blit::stretch_dibits(env, uc, &args);
    global::free_block(env, uc, blk);
    res.map(|_| ())
}

/// The handle table of `n` slots at `p` in emulated memory.
fn read_table(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<u16>> {
    let b = farptr::read_bytes(uc, p, n * 2)?;
    Some(
        b.chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
    )
}

fn write_table(uc: &mut Uc<'_>, p: u32, t: &[u16]) {
    let b: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
    farptr::write_bytes(uc, p, &b);
}

/// The record at `p` in emulated memory (bounded by 64 KiB).
fn read_record(uc: &Uc<'_>, p: u32) -> Option<MetaRecord> {
    let head = farptr::read_bytes(uc, p, 6)?;
    let words = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    if !(3..0x8000).contains(&words) {
        return None;
    }
    let body = farptr::read_bytes(uc, farptr::add(p, 6), (words as usize - 3) * 2)?;
    Some(MetaRecord::new(
        u16::from_le_bytes([head[4], head[5]]),
        words_of(&body),
    ))
}

/// GDI.176 PlayMetaFileRecord(hDC, lpHandletable, lpMetaRecord,
/// nHandles).
pub(super) fn play_meta_file_record(
    env: &mut Env,
    uc: &mut Uc<'_>,
    a: &[u32],
) -> Result<u32, Stop> {
    let n = usize::from(a[3] as u16).min(0x4000);
    let Some(rec) = read_record(uc, a[2]) else {
        return Ok(0);
    };
    let mut table = read_table(uc, a[1], n).unwrap_or_default();
    play_record(env, uc, a[0] as u16, &mut table, &rec)?;
    if !table.is_empty() {
        write_table(uc, a[1], &table);
    }
    Ok(1)
}

/// The DC's selected pen, brush and font, to put back after playing.
fn selected(env: &mut Env, hdc: u16) -> Vec<u16> {
    env.win16
        .gdi
        .dc_mut(hdc)
        .map(|d| vec![d.state.pen, d.state.brush, d.state.font])
        .unwrap_or_default()
}

/// After playing: the DC's own objects selected again, and the objects the
/// metafile created and left deleted.
fn tidy(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    saved: &[u16],
    table: &[u16],
) -> Result<(), Stop> {
    for &o in saved {
        objects::select_object(env, uc, &[u32::from(hdc), u32::from(o)])?;
    }
    for &o in table.iter().filter(|&&o| o != 0) {
        objects::delete_object(env, uc, &[u32::from(o)])?;
    }
    Ok(())
}

/// GDI.123 PlayMetaFile(hDC, hMF) -> BOOL: every record in order, with a
/// handle table of mtNoObjects slots; afterwards the DC's pen, brush and
/// font are selected again and the objects the metafile left are deleted.
pub(super) fn play_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hdc = a[0] as u16;
    let Some((_, m)) = read_handle(env, uc, a[1] as u16) else {
        return Ok(0);
    };
    let saved = selected(env, hdc);
    let mut table = vec![0u16; usize::from(m.header.objects)];
    for r in &m.records {
        play_record(env, uc, hdc, &mut table, r)?;
    }
    tidy(env, uc, hdc, &saved, &table)?;
    Ok(1)
}

/// GDI.175 EnumMetaFile(hDC, hMF, lpCallbackFunc, lpClientData) -> BOOL:
/// `EnumMetaFileProc(hDC, lpHTable, lpMFR, nObj, lpClientData)` for every
/// record but META_EOF, the record in the metafile's own memory and the
/// handle table in a block of its own, until the callback returns 0
/// (then FALSE).
pub(super) fn enum_meta_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::callback::{CallArg, call_far};
    let (hdc, hmf) = (a[0] as u16, a[1] as u16);
    let Some((_, m)) = read_handle(env, uc, hmf) else {
        return Ok(0);
    };
    let Some(sel) = env.win16.global.find(hmf).map(|b| b.selector) else {
        return Ok(0);
    };
    let cs = env
        .win16
        .module_by_name("GDI")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("GDI is not loaded".into()))?;
    let n = usize::from(m.header.objects);
    let Some((tp, tblk)) = scratch(env, uc, &vec![0u8; n * 2]) else {
        return Ok(0);
    };
    let ds = uc.reg(crate::machine::R::DS);
    let saved = selected(env, hdc);
    let mut ok = 1;
    let mut off = HEADER_SIZE as u32;
    for r in &m.records {
        let args = [
            CallArg::W(hdc),
            CallArg::L(tp),
            CallArg::L(farptr::make(sel, off as u16)),
            CallArg::W(n as u16),
            CallArg::L(a[3]),
        ];
        let res = call_far(env, uc, cs, farptr::split(a[2]), ds, &[], &args)?;
        off += r.size_words() * 2;
        if res.value & 0xFFFF == 0 {
            ok = 0;
            break;
        }
    }
    let table = read_table(uc, tp, n).unwrap_or_default();
    tidy(env, uc, hdc, &saved, &table)?;
    global::free_block(env, uc, tblk);
    Ok(ok)
}
