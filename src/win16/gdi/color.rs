//! Colours: COLORREFs, and how Windows 3.1's display drivers turned them
//! into pixels.
//!
//! A COLORREF is `0x00BBGGRR`; its high byte says how to read the rest
//! (SDK, "COLORREF"): 0 an explicit RGB, 1 `PALETTEINDEX(i)` (entry `i` of
//! the DC's logical palette), 2 `PALETTERGB(r,g,b)` (the nearest entry of
//! the logical palette on a palette device, the RGB elsewhere).
//!
//! **The 16-colour VGA.** The VGA driver of Windows 3.1 keeps its 16 colours
//! in four planes: bit 0 of a pixel is the red plane, bit 1 green, bit 2
//! blue, bit 3 intensity. Its colour table ([`VGA_COLORS`], the driver's
//! `PColorTable`) gives index 7 to dark grey 808080 and index 8 to light
//! grey C0C0C0; pixels here are those *driver* indices, so the raster
//! operations act on exactly the bits the hardware planes held (NOT of
//! light grey is dark grey, NOT of red is dark cyan). GDI's own 16-colour
//! order (DIB colour tables, the default palette) swaps 7 and 8.
//!
//! Two rules of that driver (Windows 3.1 DDK, display driver sources:
//! COLOR.ASM's `rgb_to_ipc`, DITHERS.ASM's `ColorDither`, ROBJECT.ASM's
//! `realize_solid`; written here from their description, not their code):
//!
//! - *Nearest colour* ([`vga_nearest`]), for pens, text and SetPixel: sort
//!   the components (max ≥ mid ≥ min, remembering the permutation), split
//!   the colour into its pure-hue, two-hue and grey parts (max−mid,
//!   mid−min, min), pick the axis of the largest part, and match the
//!   *maximum* component against that axis's intensities (0/80/FF for a
//!   hue, 0/80/C0/FF for grey); the permutation then puts the planes back.
//! - *Dithered brushes* ([`vga_brush`]): white and black are solid; a colour
//!   the nearest-colour rule matches exactly is solid; any other colour is
//!   an 8×8 ordered dither: the RGB cube (scaled to 0..64) is cut into four
//!   tetrahedra with corners among black, dark hue, dark two-hue, dark grey
//!   808080, bright hue, bright two-hue and white; the colour's barycentric
//!   weights (in 64ths) are the pixel counts of the corners, the corners are
//!   ordered by brightness and laid onto the 8×8 Bayer matrix
//!   [`DITHER_MATRIX`]. Light grey C0C0C0 is never a dither corner.
//!
//! Monochrome: a pen colour drawn into a monochrome bitmap on the VGA is
//! white when its matched colour's "mono bit" is set (light grey, green,
//! yellow, magenta, cyan, white: the driver's `PAccelTable`); on other
//! devices a colour is white when R+G+B exceeds 382, the drivers'
//! `BW_THRESHOLD` of (3·255)/2.

/// A COLORREF's red, green and blue.
pub fn rgb_of(c: u32) -> (u8, u8, u8) {
    (c as u8, (c >> 8) as u8, (c >> 16) as u8)
}

/// `RGB(r, g, b)`.
pub const fn rgb(r: u8, g: u8, b: u8) -> u32 {
    r as u32 | (g as u32) << 8 | (b as u32) << 16
}

/// The VGA driver's colours by driver index (bit 0 red, 1 green, 2 blue, 3
/// intensity; 7 = 808080, 8 = C0C0C0), as COLORREFs.
pub const VGA_COLORS: [u32; 16] = [
    rgb(0, 0, 0),
    rgb(0x80, 0, 0),
    rgb(0, 0x80, 0),
    rgb(0x80, 0x80, 0),
    rgb(0, 0, 0x80),
    rgb(0x80, 0, 0x80),
    rgb(0, 0x80, 0x80),
    rgb(0x80, 0x80, 0x80),
    rgb(0xC0, 0xC0, 0xC0),
    rgb(0xFF, 0, 0),
    rgb(0, 0xFF, 0),
    rgb(0xFF, 0xFF, 0),
    rgb(0, 0, 0xFF),
    rgb(0xFF, 0, 0xFF),
    rgb(0, 0xFF, 0xFF),
    rgb(0xFF, 0xFF, 0xFF),
];

/// GDI's 16-colour order (a 4-bit DIB's colour table from GetDIBits on the
/// VGA, the default palette's first 8 and last 8 entries): the driver's
/// order with 7 and 8 swapped.
pub fn gdi16_to_vga(i: u8) -> u8 {
    match i {
        7 => 8,
        8 => 7,
        i => i & 15,
    }
}

/// The VGA driver index of a GDI 16-colour index (the same swap).
pub fn vga_to_gdi16(i: u8) -> u8 {
    gdi16_to_vga(i)
}

/// The driver's "mono bit" of each VGA colour (`PAccelTable` bit 4): the
/// colours a monochrome bitmap shows white.
const VGA_MONO: [bool; 16] = [
    false, false, false, false, false, false, false, false, true, false, true, true, false, true,
    true, true,
];

/// Is VGA colour `i` white on a monochrome bitmap?
pub fn vga_mono_bit(i: u8) -> bool {
    VGA_MONO[usize::from(i & 15)]
}

/// Black or white for a colour on a monochrome surface of a non-VGA device:
/// white when R+G+B exceeds BW_THRESHOLD (382).
pub fn threshold_mono(c: u32) -> bool {
    let (r, g, b) = rgb_of(c);
    u32::from(r) + u32::from(g) + u32::from(b) > (3 * 255) / 2
}

/// The driver's ComputeSymmetry: sort three components descending with
/// three compare-and-swaps (first 0↔2, then 1↔2, then 0↔1, each only when
/// strictly less), and the swap bits (bit 2 the first swap, bit 1 the
/// second, bit 0 the third).
fn symmetry(x: [i32; 3]) -> ([i32; 3], u8) {
    let mut v = x;
    let mut code = 0u8;
    let s1 = v[0] < v[2];
    if s1 {
        v.swap(0, 2);
    }
    code = code << 1 | u8::from(s1);
    let s2 = v[1] < v[2];
    if s2 {
        v.swap(1, 2);
    }
    code = code << 1 | u8::from(s2);
    let s3 = v[0] < v[1];
    if s3 {
        v.swap(0, 1);
    }
    code = code << 1 | u8::from(s3);
    (v, code)
}

/// Undo [`symmetry`] on a colour code whose bits 0, 1, 2 are the sorted
/// components (largest first) and bit 3 the intensity: the VGA index
/// (bit 0 red, 1 green, 2 blue, 3 intensity).
fn unsort(code: u8, sym: u8) -> u8 {
    let mut c = [code & 1 != 0, code & 2 != 0, code & 4 != 0];
    // The swaps undone in reverse order.
    if sym & 1 != 0 {
        c.swap(0, 1);
    }
    if sym & 2 != 0 {
        c.swap(1, 2);
    }
    if sym & 4 != 0 {
        c.swap(0, 2);
    }
    (code & 8) | u8::from(c[0]) | u8::from(c[1]) << 1 | u8::from(c[2]) << 2
}

/// The VGA driver's nearest colour (module doc): the driver index.
pub fn vga_nearest(c: u32) -> u8 {
    let (r, g, b) = rgb_of(c);
    let ([a, m, n], sym) = symmetry([i32::from(r), i32::from(g), i32::from(b)]);
    if a == 0 {
        return 0;
    }
    // Pure hue, two-hue and grey parts; the largest picks the axis.
    let (_, sym2) = symmetry([a - m, m - n, n]);
    // AxisHashTable: symmetry codes 0/2 (hue largest), 1/5 (two-hue), 4/6
    // (grey) and the unreachable 3/7 (read as hue).
    let axis = [0usize, 1, 0, 0, 2, 1, 2, 0][usize::from(sym2)];
    const MATCH: [&[i32]; 3] = [&[0, 0x80, 0xFF], &[0, 0x80, 0xFF], &[0, 0x80, 0xC0, 0xFF]];
    const CODE: [&[u8]; 3] = [&[0, 1, 9], &[0, 3, 0x0B], &[0, 7, 8, 0x0F]];
    let mut best = 0usize;
    let mut err = i32::MAX;
    for (k, &v) in MATCH[axis].iter().enumerate() {
        let e = (v - a).abs();
        if e < err {
            best = k;
            err = e;
        }
        if e == 0 {
            break;
        }
    }
    unsort(CODE[axis][best], sym)
}

/// The 8×8 ordered-dither thresholds of the VGA driver
/// (`DitherPatternTable`), row by row from the brush's top.
pub const DITHER_MATRIX: [[u8; 8]; 8] = [
    [0, 32, 8, 40, 2, 34, 10, 42],
    [48, 16, 56, 24, 50, 18, 58, 26],
    [12, 44, 4, 36, 14, 46, 6, 38],
    [60, 28, 52, 20, 62, 30, 54, 22],
    [3, 35, 11, 43, 1, 33, 9, 41],
    [51, 19, 59, 27, 49, 17, 57, 25],
    [15, 47, 7, 39, 13, 45, 5, 37],
    [63, 31, 55, 23, 61, 29, 53, 21],
];

/// One tetrahedron of the dither: its origin corner (in 0..64 units), the
/// matrix taking a colour's offset from the origin to the weights of the
/// three other corners, and the corners' codes (origin first).
struct Tetra {
    origin: [i32; 3],
    m: [[i32; 3]; 3],
    corners: [u8; 4],
}

/// The four tetrahedra (`TransformTable`, chosen by `SubDivPlanes`).
/// Corner codes: 0 black, 1 dark hue, 2 dark two-hue, 3 dark grey,
/// 4 bright hue, 5 bright two-hue, 6 white.
const TETRA: [Tetra; 4] = [
    Tetra {
        origin: [32, 32, 0],
        m: [[-2, 0, 0], [2, -2, 0], [0, 0, 2]],
        corners: [2, 0, 1, 3],
    },
    Tetra {
        origin: [32, 32, 0],
        m: [[-2, -2, 0], [2, 0, 0], [0, 0, 2]],
        corners: [2, 1, 4, 3],
    },
    Tetra {
        origin: [32, 32, 0],
        m: [[1, -1, 0], [1, 1, 0], [0, 0, 2]],
        corners: [2, 4, 5, 3],
    },
    Tetra {
        origin: [64, 0, 0],
        m: [[-2, 0, 0], [0, 1, -1], [1, 0, 1]],
        corners: [4, 3, 5, 6],
    },
];

/// Corner code → colour code (`PColorMap`): bits 0..2 the sorted
/// components, bit 3 the intensity; dark grey is 7 (GDI's order, turned
/// into the driver's 808080 = 7 by [`unsort`] keeping bit patterns and the
/// final 7/8 swap below).
const CORNER_CODE: [u8; 7] = [0, 1, 3, 8, 9, 0x0B, 0x0F];

/// Brightness order of GDI's 16 colours (`PColorIntensities`), by GDI
/// index (7, light grey, never occurs).
const GDI_BRIGHTNESS: [u8; 16] = [
    0, 2, 3, 6, 1, 4, 5, 0xFF, 8, 0x0A, 0x0B, 0x0E, 9, 0x0C, 0x0D, 0x0F,
];

/// The VGA driver's dithered 8×8 pattern for an RGB (module doc), as
/// driver indices, row-major.
pub fn vga_dither(c: u32) -> [u8; 64] {
    let (r, g, b) = rgb_of(c);
    let ([a, m, n], sym) = symmetry([i32::from(r), i32::from(g), i32::from(b)]);
    // Which tetrahedron: the first of the dividing planes the colour lies
    // on the inner side of.
    let sub = if a <= 128 {
        0
    } else if a + m <= 256 {
        1
    } else if a + n <= 256 {
        2
    } else {
        3
    };
    let scale = |x: i32| ((x >> 1) + (x & 1)) >> 1;
    let t = &TETRA[sub];
    let d = [
        scale(a) - t.origin[0],
        scale(m) - t.origin[1],
        scale(n) - t.origin[2],
    ];
    let w: Vec<i32> =
        t.m.iter()
            .map(|row| row[0] * d[0] + row[1] * d[1] + row[2] * d[2])
            .collect();
    // (count, GDI index) of each corner with a non-zero weight.
    let mut parts: Vec<(i32, u8)> = Vec::with_capacity(4);
    let base = 64 - w[0] - w[1] - w[2];
    for (count, corner) in [base, w[0], w[1], w[2]].into_iter().zip(t.corners) {
        if count != 0 {
            let code = CORNER_CODE[usize::from(corner)];
            // unsort keeps bit 3 and permutes bits 0..2: dark grey (7) and
            // light grey (8) are fixed by it.
            parts.push((count, unsort(code, sym)));
        }
    }
    parts.sort_by_key(|&(_, i)| GDI_BRIGHTNESS[usize::from(i)]);
    let mut out = [0u8; 64];
    for (y, row) in DITHER_MATRIX.iter().enumerate() {
        for (x, &th) in row.iter().enumerate() {
            let mut cum = 0;
            let mut pick = parts.last().map(|p| p.1).unwrap_or(0);
            for &(count, i) in &parts {
                cum += count;
                if i32::from(th) < cum {
                    pick = i;
                    break;
                }
            }
            // GDI's order → the driver's (PhysicalIndexTable).
            out[y * 8 + x] = gdi16_to_vga(pick);
        }
    }
    out
}

/// A brush colour on the VGA (ROBJECT.ASM `realize_solid`): `Ok(index)` for
/// a solid brush, `Err(pattern)` for a dithered one.
pub fn vga_brush(c: u32) -> Result<u8, [u8; 64]> {
    let (r, g, b) = rgb_of(c);
    if r == 0xFF && g == 0xFF && b == 0xFF {
        return Ok(15);
    }
    if r == 0 && g == 0 && b == 0 {
        return Ok(0);
    }
    // The scroll bar's special grey (224,224,224 with flag 10h in the high
    // byte): a 50% dither of light grey and white.
    if c >> 24 & 0x10 != 0 && r == 224 && g == 224 && b == 224 {
        let mut p = [8u8; 64];
        for (i, px) in p.iter_mut().enumerate() {
            // 0xAA55 words: even rows 01010101 (MSB first), odd 10101010.
            let (x, y) = (i % 8, i / 8);
            if (x + y) % 2 == 1 {
                *px = 15;
            }
        }
        return Err(p);
    }
    let i = vga_nearest(c & 0x00FF_FFFF);
    if VGA_COLORS[usize::from(i)] == c & 0x00FF_FFFF {
        return Ok(i);
    }
    Err(vga_dither(c))
}

/// The weighted grey of the driver's monochrome brush plane:
/// ((R+B)/2 + G) / 2.
pub fn bw_sum(c: u32) -> u32 {
    let (r, g, b) = rgb_of(c);
    ((u32::from(r) + u32::from(b)) / 2 + u32::from(g)) / 2
}

/// An 8×8 black-and-white dither of grey level `level` (0..=255) with the
/// driver's matrix: a pixel is white when its threshold is below the level
/// in 64ths.
pub fn grey_dither(level: u32) -> [bool; 64] {
    let n = (level.min(255) * 64 + 127) / 255;
    let mut out = [false; 64];
    for (y, row) in DITHER_MATRIX.iter().enumerate() {
        for (x, &th) in row.iter().enumerate() {
            out[y * 8 + x] = u32::from(th) < n;
        }
    }
    out
}

/// Windows' 20 static colours of a palette device (the default palette,
/// DEFAULT_PALETTE): the first ten, then the last ten.
pub const STATIC_COLORS: [u32; 20] = [
    rgb(0, 0, 0),
    rgb(0x80, 0, 0),
    rgb(0, 0x80, 0),
    rgb(0x80, 0x80, 0),
    rgb(0, 0, 0x80),
    rgb(0x80, 0, 0x80),
    rgb(0, 0x80, 0x80),
    rgb(0xC0, 0xC0, 0xC0),
    rgb(0xC0, 0xDC, 0xC0),
    rgb(0xA6, 0xCA, 0xF0),
    rgb(0xFF, 0xFB, 0xF0),
    rgb(0xA0, 0xA0, 0xA4),
    rgb(0x80, 0x80, 0x80),
    rgb(0xFF, 0, 0),
    rgb(0, 0xFF, 0),
    rgb(0xFF, 0xFF, 0),
    rgb(0, 0, 0xFF),
    rgb(0xFF, 0, 0xFF),
    rgb(0, 0xFF, 0xFF),
    rgb(0xFF, 0xFF, 0xFF),
];

/// The squared distance between two colours.
pub fn distance(a: u32, b: u32) -> u32 {
    let (r1, g1, b1) = rgb_of(a);
    let (r2, g2, b2) = rgb_of(b);
    let d = |x: u8, y: u8| {
        let v = i32::from(x) - i32::from(y);
        (v * v) as u32
    };
    d(r1, r2) + d(g1, g2) + d(b1, b2)
}

/// The index of the nearest colour of `table` (the first of equals).
pub fn nearest_in(table: &[u32], c: u32) -> usize {
    let mut best = 0;
    let mut bd = u32::MAX;
    for (i, &t) in table.iter().enumerate() {
        let d = distance(t, c);
        if d < bd {
            best = i;
            bd = d;
            if d == 0 {
                break;
            }
        }
    }
    best
}

/// What a colour becomes on one surface of one device: the rules above,
/// with the DC's logical palette for PALETTEINDEX and PALETTERGB.
pub struct Colors<'a> {
    /// The DC belongs to the VGA display (its monochrome rule is the
    /// driver's mono bit; its colour surfaces are [`Format::Vga16`]).
    pub vga: bool,
    /// The surface drawn on.
    pub format: Format,
    /// The system palette (256-colour displays).
    pub syspal: &'a [u32; 256],
    /// The DC's selected logical palette.
    pub logpal: Option<&'a Palette>,
}

use super::palette::Palette;
use super::surface::Format;

impl Colors<'_> {
    /// A COLORREF with its PALETTEINDEX / PALETTERGB flag resolved: an RGB,
    /// or on a palette surface the system palette index to use.
    fn resolve(&self, c: u32) -> Result<u32, u8> {
        let flag = c >> 24;
        let pal = self.logpal;
        match flag {
            1 => {
                let i = (c & 0xFFFF) as usize;
                let Some(p) = pal.filter(|p| i < p.entries.len()) else {
                    return Ok(0);
                };
                if self.format == Format::Pal8 {
                    Err(p.system_index(i, self.syspal))
                } else {
                    Ok(p.rgb(i))
                }
            }
            2 if self.format == Format::Pal8 => match pal.filter(|p| !p.entries.is_empty()) {
                Some(p) => {
                    let i = p.nearest(c & 0x00FF_FFFF);
                    Err(p.system_index(i, self.syspal))
                }
                None => Ok(c & 0x00FF_FFFF),
            },
            _ => Ok(c & 0x00FF_FFFF),
        }
    }

    /// The pixel of a pen, text or SetPixel colour.
    pub fn solid(&self, c: u32) -> u32 {
        let rgb = match self.resolve(c) {
            Ok(rgb) => rgb,
            Err(idx) => {
                return match self.format {
                    Format::Pal8 => u32::from(idx),
                    _ => u32::from(idx),
                };
            }
        };
        match self.format {
            Format::Mono => {
                if self.vga {
                    u32::from(vga_mono_bit(vga_nearest(rgb)))
                } else {
                    u32::from(threshold_mono(rgb))
                }
            }
            Format::Vga16 => u32::from(vga_nearest(rgb)),
            Format::Pal8 => {
                let i = nearest_in(&STATIC_COLORS, rgb);
                u32::from(static_slot(i))
            }
            Format::Rgb24 => rgb,
        }
    }

    /// A solid brush's 8×8 pattern (`Ok` when every cell is the same).
    pub fn brush(&self, c: u32) -> Result<u32, Box<[u32; 64]>> {
        let rgb = match self.resolve(c) {
            Ok(rgb) => rgb,
            Err(idx) => return Ok(u32::from(idx)),
        };
        match self.format {
            Format::Vga16 => match vga_brush(rgb | (c & 0xFF00_0000 & 0x1000_0000)) {
                Ok(i) => Ok(u32::from(i)),
                Err(p) => Err(Box::new(p.map(u32::from))),
            },
            Format::Mono => {
                if rgb == 0 {
                    return Ok(0);
                }
                if rgb == 0x00FF_FFFF {
                    return Ok(1);
                }
                let d = grey_dither(bw_sum(rgb));
                if d.iter().all(|&w| w) {
                    Ok(1)
                } else if d.iter().all(|&w| !w) {
                    Ok(0)
                } else {
                    Err(Box::new(d.map(u32::from)))
                }
            }
            _ => Ok(self.solid(rgb)),
        }
    }

    /// The COLORREF a device pixel shows.
    pub fn to_rgb(&self, px: u32) -> u32 {
        pixel_rgb(self.format, self.syspal, px)
    }
}

/// The COLORREF a pixel of `format` shows.
pub fn pixel_rgb(format: Format, syspal: &[u32; 256], px: u32) -> u32 {
    match format {
        Format::Mono => {
            if px & 1 != 0 {
                0x00FF_FFFF
            } else {
                0
            }
        }
        Format::Vga16 => VGA_COLORS[(px & 15) as usize],
        Format::Pal8 => syspal[(px & 255) as usize],
        Format::Rgb24 => px & 0x00FF_FFFF,
    }
}

/// The system palette slot of static colour `i` (0..20): the first ten
/// at 0..9, the last ten at 246..255.
pub fn static_slot(i: usize) -> u8 {
    if i < 10 { i as u8 } else { (236 + i) as u8 }
}

/// A fresh system palette: the static colours in their slots, black
/// elsewhere.
pub fn default_system_palette() -> [u32; 256] {
    let mut p = [0u32; 256];
    for (i, &c) in STATIC_COLORS.iter().enumerate() {
        p[usize::from(static_slot(i))] = c;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixteen_colours_match_themselves() {
        for (i, &c) in VGA_COLORS.iter().enumerate() {
            assert_eq!(usize::from(vga_nearest(c)), i, "{c:06X}");
            assert_eq!(vga_brush(c), Ok(i as u8), "{c:06X}");
        }
        // The 7/8 swap between GDI's order and the driver's.
        assert_eq!(
            VGA_COLORS[usize::from(gdi16_to_vga(7))],
            rgb(0xC0, 0xC0, 0xC0)
        );
        assert_eq!(
            VGA_COLORS[usize::from(gdi16_to_vga(8))],
            rgb(0x80, 0x80, 0x80)
        );
    }

    #[test]
    fn nearest_colour_follows_the_axis_rule() {
        // Orange: the two-hue part (mid − min = 128) beats the hue part
        // (127): the yellow axis, max 255 → bright yellow.
        assert_eq!(vga_nearest(rgb(255, 128, 0)), 11);
        // A dim blue: the hue axis, max 100 → 80 → dark blue.
        assert_eq!(vga_nearest(rgb(10, 20, 100)), 4);
        // Light grey-ish 200: grey axis, nearest C0.
        assert_eq!(vga_nearest(rgb(200, 200, 200)), 8);
        // Exact ties go to the first (lower) intensity: 0x40 → 0? |0-64| =
        // 64, |128-64| = 64: the first, 0.
        assert_eq!(vga_nearest(rgb(64, 0, 0)), 0);
        assert_eq!(vga_nearest(rgb(65, 0, 0)), 1);
    }

    #[test]
    fn dither_counts_are_the_barycentric_weights() {
        // Mid grey 606060 lies between black and dark grey: scaled
        // ((48 + 0) >> 1 = 24 of 32): tetrahedron 0, origin dark two-hue
        // (32,32,0): weights of black 16, dark hue 0, dark grey 48.
        let p = vga_dither(rgb(0x60, 0x60, 0x60));
        let grey = p.iter().filter(|&&i| i == 7).count();
        let black = p.iter().filter(|&&i| i == 0).count();
        assert_eq!((black, grey), (16, 48));
        // Darker colours take the lowest thresholds: black where the matrix
        // is below 16.
        for (k, &i) in p.iter().enumerate() {
            let th = DITHER_MATRIX[k / 8][k % 8];
            assert_eq!(i == 0, th < 16, "{k}");
        }
        // Pure colours and white need no dither.
        assert_eq!(vga_brush(rgb(255, 255, 255)), Ok(15));
        assert!(vga_brush(rgb(255, 128, 0)).is_err());
        // Orange = half red, half yellow.
        let o = vga_dither(rgb(255, 128, 0));
        assert_eq!(o.iter().filter(|&&i| i == 9).count(), 32);
        assert_eq!(o.iter().filter(|&&i| i == 11).count(), 32);
    }

    #[test]
    fn mono_rules() {
        assert!(vga_mono_bit(vga_nearest(rgb(0xC0, 0xC0, 0xC0))));
        assert!(!vga_mono_bit(vga_nearest(rgb(0x80, 0x80, 0x80))));
        assert!(!vga_mono_bit(vga_nearest(rgb(255, 0, 0))));
        assert!(threshold_mono(rgb(128, 128, 128)));
        assert!(!threshold_mono(rgb(127, 127, 128)));
        assert_eq!(grey_dither(0).iter().filter(|&&w| w).count(), 0);
        assert_eq!(grey_dither(255).iter().filter(|&&w| w).count(), 64);
    }
}
