//! Brushes: CreateSolidBrush, CreateHatchBrush, CreatePatternBrush,
//! CreateDIBPatternBrush, CreateBrushIndirect and LOGBRUSH; how a brush
//! becomes the 8×8 pattern it paints.
//!
//! LOGBRUSH, 8 bytes: WORD lbStyle (BS_SOLID 0, BS_NULL 1, BS_HATCHED 2,
//! BS_PATTERN 3, BS_INDEXED 4, BS_DIBPATTERN 5); COLORREF lbColor (for
//! BS_DIBPATTERN the DIB_RGB_COLORS / DIB_PAL_COLORS usage); short lbHatch
//! (the HS_ style, the pattern's HBITMAP, the packed DIB's global handle).
//!
//! How each kind paints (Windows 3.1 DDK, VGA/EGA ROBJECT.ASM):
//!
//! - *solid*: on the VGA an exact colour is solid, any other is dithered
//!   (color.rs); a monochrome surface gets a grey dither of the colour's
//!   weighted brightness (white and black stay solid).
//! - *hatched* (HS_HORIZONTAL 0, HS_VERTICAL 1, HS_FDIAGONAL 2 "\",
//!   HS_BDIAGONAL 3 "/", HS_CROSS 4, HS_DIAGCROSS 5): the 8×8 patterns of
//!   the VGA driver ([`HATCH`]: the horizontal line on row 4, the vertical
//!   on column 4), hatch pixels in the brush's colour matched as a solid
//!   (never dithered), the others in the DC's background colour when the
//!   background mode is OPAQUE and left alone when it is TRANSPARENT.
//! - *pattern* from a bitmap: its top-left 8×8 pixels are copied when the
//!   brush is made (a smaller bitmap is tiled). A monochrome pattern paints
//!   its 0 bits in the DC's text colour and its 1 bits in its background
//!   colour; a colour pattern paints its pixels (on a monochrome surface:
//!   their mono bits).
//! - *DIB pattern*: its pixels' colours matched as solids.
//!
//! The pattern is aligned to the brush origin (see raster.rs).

use super::color::{Colors, rgb_of};
use super::raster::Paint;
use super::surface::Format;
use super::{Env, Stop, Uc, arg_h, read_struct};
use crate::win16::api::{Api, Arg};
use crate::win16::geom::Point;

pub const BS_SOLID: u16 = 0;
pub const BS_NULL: u16 = 1;
pub const BS_HATCHED: u16 = 2;
pub const BS_PATTERN: u16 = 3;
pub const BS_INDEXED: u16 = 4;
pub const BS_DIBPATTERN: u16 = 5;

/// The six hatch patterns, rows top to bottom, bit 7 the leftmost pixel (1
/// = hatch line).
pub const HATCH: [[u8; 8]; 6] = [
    [0x00, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00],
    [0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08],
    [0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01],
    [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80],
    [0x08, 0x08, 0x08, 0x08, 0xFF, 0x08, 0x08, 0x08],
    [0x81, 0x42, 0x24, 0x18, 0x18, 0x24, 0x42, 0x81],
];

/// LOGBRUSH.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogBrush {
    pub style: u16,
    pub color: u32,
    pub hatch: i16,
}

impl LogBrush {
    pub const SIZE: usize = 8;

    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0..2].copy_from_slice(&self.style.to_le_bytes());
        b[2..6].copy_from_slice(&self.color.to_le_bytes());
        b[6..8].copy_from_slice(&self.hatch.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8; Self::SIZE]) -> LogBrush {
        LogBrush {
            style: u16::from_le_bytes([b[0], b[1]]),
            color: u32::from_le_bytes([b[2], b[3], b[4], b[5]]),
            hatch: i16::from_le_bytes([b[6], b[7]]),
        }
    }
}

/// What a brush paints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Solid,
    Null,
    Hatched(usize),
    /// A copy of a bitmap's 8×8 pixels in its format.
    Pattern {
        format: Format,
        px: Box<[u32; 64]>,
    },
    /// DIB pixels' colours (COLORREFs, or PALETTEINDEX values).
    Dib(Box<[u32; 64]>),
}

/// A brush object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brush {
    pub log: LogBrush,
    pub kind: Kind,
    /// Where its pattern was aligned at its last realization (screen or
    /// bitmap coordinates); None until selected, and after UnrealizeObject.
    pub realized_at: Option<Point>,
}

impl Brush {
    pub fn solid(color: u32) -> Brush {
        Brush {
            log: LogBrush {
                style: BS_SOLID,
                color,
                hatch: 0,
            },
            kind: Kind::Solid,
            realized_at: None,
        }
    }

    pub fn null() -> Brush {
        Brush {
            log: LogBrush {
                style: BS_NULL,
                color: 0,
                hatch: 0,
            },
            kind: Kind::Null,
            realized_at: None,
        }
    }

    pub fn logbrush(&self) -> LogBrush {
        self.log
    }

    pub fn is_null(&self) -> bool {
        self.kind == Kind::Null
    }

    /// The paint this brush makes on a surface: `colors` for the surface,
    /// the DC's text and background colours and background mode
    /// (TRANSPARENT 1, OPAQUE 2), the ROP2, and the pattern's origin. None
    /// for a null brush.
    pub fn paint(
        &self,
        colors: &Colors<'_>,
        text: u32,
        bk: u32,
        bk_mode: u16,
        rop2: u16,
        org: (i32, i32),
    ) -> Option<Paint> {
        let mut p = Paint {
            pattern: [0; 64],
            skip: None,
            org,
            solid: false,
            rop2,
        };
        match &self.kind {
            Kind::Null => return None,
            Kind::Solid => match colors.brush(self.log.color) {
                Ok(px) => {
                    p.pattern = [px; 64];
                    p.solid = true;
                }
                Err(pat) => p.pattern = *pat,
            },
            Kind::Hatched(h) => {
                let fg = colors.solid(self.log.color);
                let bg = colors.solid(bk);
                let mut skip = [false; 64];
                for (y, row) in HATCH[*h].iter().enumerate() {
                    for x in 0..8 {
                        let on = row & (0x80 >> x) != 0;
                        p.pattern[y * 8 + x] = if on { fg } else { bg };
                        skip[y * 8 + x] = !on && bk_mode == 1;
                    }
                }
                if bk_mode == 1 {
                    p.skip = Some(skip);
                }
            }
            Kind::Pattern { format, px } => {
                if *format == Format::Mono {
                    let (t, b) = (colors.solid(text), colors.solid(bk));
                    let same_mono = colors.format == Format::Mono;
                    for (i, &v) in px.iter().enumerate() {
                        p.pattern[i] = if same_mono {
                            v & 1
                        } else if v & 1 != 0 {
                            b
                        } else {
                            t
                        };
                    }
                } else {
                    for (i, &v) in px.iter().enumerate() {
                        p.pattern[i] = convert_pixel(*format, v, colors);
                    }
                }
            }
            Kind::Dib(c) => {
                for (i, &v) in c.iter().enumerate() {
                    p.pattern[i] = colors.solid(v);
                }
            }
        }
        if !p.solid && p.skip.is_none() && p.pattern.iter().all(|&v| v == p.pattern[0]) {
            p.solid = true;
        }
        Some(p)
    }
}

/// A pixel of one format as a pixel of the surface `colors` describes:
/// the same value for the same format, the driver's mono bit for a VGA
/// colour on a monochrome surface, else through its RGB.
pub fn convert_pixel(from: Format, v: u32, colors: &Colors<'_>) -> u32 {
    if from == colors.format {
        return v;
    }
    if from == Format::Vga16 && colors.format == Format::Mono {
        return u32::from(super::color::vga_mono_bit(v as u8));
    }
    let rgb = super::color::pixel_rgb(from, colors.syspal, v);
    colors.solid(rgb)
}

fn insert(env: &mut Env, uc: &mut Uc<'_>, b: Brush) -> u32 {
    super::objects::create(&mut env.win16, uc, super::objects::Obj::Brush(b)).map_or(0, u32::from)
}

/// The brush a LOGBRUSH describes (None when its bitmap or DIB is not
/// there).
fn from_logbrush(env: &mut Env, uc: &Uc<'_>, log: LogBrush) -> Option<Brush> {
    let kind = match log.style {
        BS_SOLID => Kind::Solid,
        BS_NULL => Kind::Null,
        BS_HATCHED => {
            let h = log.hatch as u16;
            if h > 5 {
                // An unknown hatch style makes a solid brush (ROBJECT.ASM).
                Kind::Solid
            } else {
                Kind::Hatched(usize::from(h))
            }
        }
        BS_PATTERN => pattern_of(env, log.hatch as u16)?,
        BS_DIBPATTERN => dib_pattern_of(env, uc, log.hatch as u16, log.color as u16)?,
        _ => Kind::Solid,
    };
    Some(Brush {
        log,
        kind,
        realized_at: None,
    })
}

/// A bitmap's top-left 8×8 pixels, tiled when it is smaller.
fn pattern_of(env: &Env, hbm: u16) -> Option<Kind> {
    let bm = env.win16.gdi.objects.bitmap(hbm)?;
    let s = &bm.surface;
    let mut px = [0u32; 64];
    for y in 0..8 {
        for x in 0..8 {
            px[(y * 8 + x) as usize] = s.get(x % s.width, y % s.height).unwrap_or(0);
        }
    }
    Some(Kind::Pattern {
        format: s.format,
        px: Box::new(px),
    })
}

/// A packed DIB in global memory as an 8×8 pattern of colours.
fn dib_pattern_of(env: &mut Env, uc: &Uc<'_>, hmem: u16, usage: u16) -> Option<Kind> {
    let sel = crate::win16::selector_of_handle(hmem);
    let p = crate::win16::farptr::make(sel, 0);
    let h = super::bitmap::read_dib_header(uc, p, usage)?;
    let rows = h.height.min(8) as usize;
    let bits_at = crate::win16::farptr::add(p, h.info_size());
    let stride = h.stride();
    // The pattern is the DIB's top 8 rows: the last rows stored.
    let first = (h.height as usize).saturating_sub(rows);
    let bytes = super::read_huge(
        uc,
        crate::win16::farptr::add(bits_at, first * stride),
        rows * stride,
    )?;
    let mut small = h.clone();
    small.height = rows as i32;
    small.compression = super::bitmap::BI_RGB;
    let px = super::bitmap::decode_dib(&small, &bytes, 0, rows as u32).ok()?;
    let mut out = [0u32; 64];
    for y in 0..8 {
        let row = &px.rows[y % px.rows.len()];
        for x in 0..8 {
            let v = row[x % row.len()];
            out[y * 8 + x] = if px.indexed {
                let c = h.colors.get(v as usize).copied().unwrap_or(0);
                if usage == super::bitmap::DIB_PAL_COLORS {
                    0x0100_0000 | (c & 0xFFFF)
                } else {
                    c
                }
            } else {
                v
            };
        }
    }
    let _ = env;
    Some(Kind::Dib(Box::new(out)))
}

/// GDI.66 CreateSolidBrush(crColor) -> HBRUSH.
pub fn create_solid_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(insert(env, uc, Brush::solid(a[0])))
}

/// GDI.58 CreateHatchBrush(fnStyle, crColor) -> HBRUSH.
fn create_hatch_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let log = LogBrush {
        style: BS_HATCHED,
        color: a[1],
        hatch: a[0] as i16,
    };
    Ok(from_logbrush(env, uc, log).map_or(0, |b| insert(env, uc, b)))
}

/// GDI.60 CreatePatternBrush(hBitmap) -> HBRUSH.
fn create_pattern_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let log = LogBrush {
        style: BS_PATTERN,
        color: 0,
        hatch: arg_h(a[0]) as i16,
    };
    Ok(from_logbrush(env, uc, log).map_or(0, |b| insert(env, uc, b)))
}

/// GDI.445 CreateDIBPatternBrush(hPackedDIB, fnColorSpec) -> HBRUSH.
fn create_dib_pattern_brush(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let log = LogBrush {
        style: BS_DIBPATTERN,
        color: a[1] & 0xFFFF,
        hatch: arg_h(a[0]) as i16,
    };
    Ok(from_logbrush(env, uc, log).map_or(0, |b| insert(env, uc, b)))
}

/// GDI.50 CreateBrushIndirect(lpLogBrush) -> HBRUSH.
fn create_brush_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = read_struct::<{ LogBrush::SIZE }>(uc, a[0]) else {
        return Ok(0);
    };
    let log = LogBrush::from_bytes(&b);
    Ok(from_logbrush(env, uc, log).map_or(0, |b| insert(env, uc, b)))
}

/// The RGB of a COLORREF for the brush's dithering decisions.
pub fn is_exact_rgb(c: u32) -> bool {
    let (r, g, b) = rgb_of(c);
    super::color::VGA_COLORS.contains(&super::color::rgb(r, g, b))
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        50,
        "CREATEBRUSHINDIRECT",
        &[Arg::L],
        create_brush_indirect,
    ),
    Api::new(
        "GDI",
        58,
        "CREATEHATCHBRUSH",
        &[Arg::W, Arg::L],
        create_hatch_brush,
    ),
    Api::new(
        "GDI",
        60,
        "CREATEPATTERNBRUSH",
        &[Arg::W],
        create_pattern_brush,
    ),
    Api::new("GDI", 66, "CREATESOLIDBRUSH", &[Arg::L], create_solid_brush),
    Api::new(
        "GDI",
        445,
        "CREATEDIBPATTERNBRUSH",
        &[Arg::W, Arg::W],
        create_dib_pattern_brush,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::gdi::color::{default_system_palette, rgb};

    #[test]
    fn logbrush_layout() {
        let l = LogBrush {
            style: BS_HATCHED,
            color: 0x00FF_0080,
            hatch: 5,
        };
        assert_eq!(l.to_bytes(), [2, 0, 0x80, 0, 0xFF, 0, 5, 0]);
        assert_eq!(LogBrush::from_bytes(&l.to_bytes()), l);
    }

    #[test]
    fn hatches_paint_lines_and_gaps() {
        let sys = default_system_palette();
        let colors = Colors {
            vga: true,
            format: Format::Vga16,
            syspal: &sys,
            logpal: None,
        };
        let b = Brush {
            log: LogBrush {
                style: BS_HATCHED,
                color: rgb(255, 0, 0),
                hatch: 0,
            },
            kind: Kind::Hatched(0),
            realized_at: None,
        };
        // OPAQUE: row 4 red, the rest the white background.
        let p = b
            .paint(&colors, 0, rgb(255, 255, 255), 2, 13, (0, 0))
            .unwrap();
        assert!(p.skip.is_none());
        assert_eq!(p.at(3, 4), Some(9));
        assert_eq!(p.at(3, 3), Some(15));
        // TRANSPARENT: the gaps are skipped.
        let p = b
            .paint(&colors, 0, rgb(255, 255, 255), 1, 13, (0, 0))
            .unwrap();
        assert_eq!(p.at(3, 3), None);
        assert_eq!(p.at(0, 12), Some(9));
        assert!(Brush::null().paint(&colors, 0, 0, 2, 13, (0, 0)).is_none());
    }
}
