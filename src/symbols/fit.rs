//! Fitting a map or symbol file to the executable it is given.
//!
//! A linker's segment and frame numbers are its own: for a segmented (NE)
//! executable LINK and wlink number the physical segments in the order they
//! lay them out, which is the NE segment table's order; for a DOS program a
//! frame is a paragraph from the start of the load image. This module
//! derives the correspondence from the executable (the map's segments in
//! order, their sizes and classes against the NE segment table) and says
//! why when a map does not fit.

use super::{FrameOff, Layout, SegAddr, Source, SymbolTable};
use crate::loader::ne::NeImage;

/// What a map is fitted to.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// A Win16 module.
    Ne(&'a NeImage),
    /// A DOS program (or raw image): the bytes a map may describe, from
    /// the start of the load image (a .COM's includes the PSP's 0x100).
    Dos {
        /// The load image's length in bytes.
        image_len: u32,
    },
}

/// Fit `layout` to `target` and add its symbols to `table`; a map that
/// does not fit adds nothing (it is fitted apart, and taken in whole only
/// when it fits) and says why.
pub fn fit(layout: &Layout, target: &Target<'_>, table: &mut SymbolTable) -> Result<(), String> {
    let mut part = SymbolTable::new();
    match target {
        Target::Ne(ne) => fit_ne(layout, ne, &mut part)?,
        Target::Dos { image_len } => fit_dos(layout, *image_len, &mut part)?,
    }
    table.absorb(part);
    Ok(())
}

fn kind(code: bool) -> &'static str {
    if code { "code" } else { "data" }
}

/// The map's physical segments: the distinct frames, in ascending order.
fn frames(layout: &Layout) -> Result<Vec<u16>, String> {
    let mut frames: Vec<u16> = Vec::new();
    for s in &layout.segments {
        match s.addr {
            SegAddr::Frame(fo) => frames.push(fo.frame),
            SegAddr::Linear(_) => {
                return Err(format!(
                    "the map gives segment {} a linear address, as for a DOS program, not a segment number",
                    s.name
                ));
            }
        }
    }
    if layout.segments.is_empty() {
        frames.extend(layout.publics.iter().map(|p| p.addr.frame));
    }
    frames.sort_unstable();
    frames.dedup();
    Ok(frames)
}

fn fit_ne(layout: &Layout, ne: &NeImage, table: &mut SymbolTable) -> Result<(), String> {
    let name = ne
        .resident_names
        .first()
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    if let Some(m) = &layout.module {
        if !name.is_empty() && !m.eq_ignore_ascii_case(&name) {
            return Err(format!("it is the map of module {m}, not {name}"));
        }
    }
    let frames = frames(layout)?;
    if frames.len() > ne.segments.len() {
        return Err(format!(
            "it lists {} physical segments; the executable has {}",
            frames.len(),
            ne.segments.len()
        ));
    }
    let mut sizes = Vec::with_capacity(frames.len());
    for (i, &frame) in frames.iter().enumerate() {
        let seg = &ne.segments[i];
        let ne_code = !seg.is_data();
        let size = seg.alloc_size().max(seg.file_length());
        let members: Vec<&super::MapSegment> = layout
            .segments
            .iter()
            .filter(|s| matches!(s.addr, SegAddr::Frame(fo) if fo.frame == frame))
            .collect();
        let names = members
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let code = if members.iter().any(|s| s.is_code() == Some(true)) {
            Some(true)
        } else if !members.is_empty() && members.iter().all(|s| s.is_code() == Some(false)) {
            Some(false)
        } else {
            None
        };
        if let Some(code) = code {
            if code != ne_code {
                return Err(format!(
                    "map segment {frame:04X} ({names}) is {} but NE segment {} is {}",
                    kind(code),
                    seg.number,
                    kind(ne_code)
                ));
            }
        }
        let extent = members
            .iter()
            .filter_map(|s| match (s.addr, s.len) {
                (SegAddr::Frame(fo), Some(len)) => Some(fo.offset.saturating_add(len)),
                _ => None,
            })
            .max();
        // Code must fit exactly; a data segment's map extent takes in the
        // stack and BSS the loader adds, so only code is measured.
        if let Some(extent) = extent {
            if ne_code && extent > size {
                return Err(format!(
                    "map segment {frame:04X} ({names}) spans {extent:#X} bytes but NE segment {} holds {size:#X}",
                    seg.number
                ));
            }
        }
        sizes.push((seg.number, size, ne_code));
    }
    for p in &layout.publics {
        let Some(i) = frames.iter().position(|&f| f == p.addr.frame) else {
            // Absolute and imported names sit in no segment of the map.
            continue;
        };
        let (number, size, code) = sizes[i];
        if code && p.addr.offset > size {
            return Err(format!(
                "{} at {:04X}:{:04X} lies past the end of NE segment {number} ({size:#X} bytes)",
                p.name, p.addr.frame, p.addr.offset
            ));
        }
        if p.addr.offset > 0xFFFF {
            continue;
        }
        table.push(&p.name, number, p.addr.offset, None, source_of(layout));
    }
    Ok(())
}

fn source_of(layout: &Layout) -> Source {
    if layout.format.starts_with("MAPSYM") {
        Source::Sym
    } else {
        Source::Map
    }
}

fn fit_dos(layout: &Layout, image_len: u32, table: &mut SymbolTable) -> Result<(), String> {
    let linear = |a: SegAddr| match a {
        SegAddr::Frame(fo) => (u32::from(fo.frame) << 4).saturating_add(fo.offset),
        SegAddr::Linear(l) => l,
    };
    let mut starts: Vec<u32> = layout.segments.iter().map(|s| linear(s.addr)).collect();
    starts.sort_unstable();
    let mut ranges = Vec::new();
    for (i, s) in layout.segments.iter().enumerate() {
        let start = linear(s.addr);
        let len = match s.len {
            Some(l) => l,
            // A .SYM file gives no lengths: up to the next segment.
            None => starts
                .iter()
                .find(|&&x| x > start)
                .copied()
                .unwrap_or(image_len)
                .saturating_sub(start),
        };
        let end = start.saturating_add(len);
        if end > image_len {
            return Err(format!(
                "map segment {} ends at {end:#X}, past the program's {image_len:#X} bytes",
                s.name
            ));
        }
        if len > 0 {
            let k = (i + 1) as u16;
            table.add_linear_segment(k, start, len);
            ranges.push((start, len, k));
        }
    }
    for p in &layout.publics {
        let lin = (u32::from(p.addr.frame) << 4).saturating_add(p.addr.offset);
        let Some(&(start, _, k)) = ranges
            .iter()
            .filter(|&&(start, len, _)| lin >= start && lin - start < len)
            .max_by_key(|&&(start, _, _)| start)
        else {
            continue;
        };
        table.push(
            &p.name,
            k,
            lin - start,
            Some(FrameOff {
                frame: p.addr.frame,
                offset: p.addr.offset,
            }),
            source_of(layout),
        );
    }
    Ok(())
}
