//! The devices GDI draws on and what GetDeviceCaps says of them.
//!
//! GetDeviceCaps(hdc, nIndex) returned the word at byte offset `nIndex` of
//! the driver's GDIINFO structure (the indices are even byte offsets:
//! HORZSIZE 4, LOGPIXELSX 88, …), so this module builds each device's
//! GDIINFO as the drivers of Windows 3.1 filled it.
//!
//! **The display** is by default the standard VGA driver: 640×480, 16
//! colours as 4 planes of 1 bit. Its values come from the VGA driver's
//! GDIINFO table (Windows 3.1 DDK display drivers, VGA.ASM / EGA.ASM;
//! Petzold, *Programming Windows 3.1*, chapter 11, GetDeviceCaps for the
//! VGA): version 3.10, HORZSIZE 208 mm, VERTSIZE 156 mm, BITSPIXEL 1,
//! PLANES 4, NUMBRUSHES −1, NUMPENS 80 (16 colours × 5 styles),
//! NUMCOLORS 16, CURVECAPS 0, LINECAPS LC_POLYLINE|LC_STYLED, POLYGONALCAPS
//! PC_SCANLINE, TEXTCAPS TC_CP_STROKE|TC_RA_ABLE|TC_EA_DOUBLE, CLIPCAPS
//! CP_RECTANGLE, RASTERCAPS RC_BITBLT|RC_BITMAP64|RC_GDI20_OUTPUT|
//! RC_SAVEBITMAP|RC_DI_BITMAP|RC_DIBTODEV|RC_BIGFONT|RC_OP_DX_OUTPUT,
//! ASPECTX/Y/XY 36/36/51, LOGPIXELSX/Y 96, and the fixed mapping modes'
//! extents (MM_LOMETRIC window 2080×1560 on viewport 640×−480, …). The
//! palette fields (SIZEPALETTE, NUMRESERVED, COLORRES) are 0: the VGA
//! driver manages no palette. PDEVICESIZE is the size of the driver's
//! physical device block, which starts with a 32-byte PBITMAP; the exact
//! size of the VGA driver's block could not be checked, so this reports
//! the PBITMAP's 32 (documented here as the one value not from a source).
//!
//! **Other displays** (`--display WxHxBPP`): 256 colours (8 bits per pixel,
//! palette-managed as the 8514/A and Super VGA drivers were: SIZEPALETTE
//! 256, NUMRESERVED 20, NUMCOLORS 20, RC_PALETTE) or true colour (24 bits,
//! NUMCOLORS −1), with the VGA's physical size (208×156 mm), 96 dots per
//! logical inch and the metric extents computed exactly from them.
//!
//! **The printer** is a 300 dpi monochrome laser printer of this project's
//! own (no driver file is emulated): US Letter with ¼-inch margins, a
//! printable 2400×3150 page (8 × 10.5 inches), 203×267 mm, DT_RASPRINTER,
//! 2 colours, RC_BITBLT|RC_BANDING|RC_BITMAP64|RC_GDI20_OUTPUT|
//! RC_DI_BITMAP|RC_DIBTODEV|RC_BIGFONT|RC_STRETCHBLT, LOGPIXELS 300, and
//! mapping extents computed from those numbers.

use super::surface::Format;

/// GetDeviceCaps indices (byte offsets in GDIINFO).
pub mod idx {
    pub const DRIVERVERSION: u16 = 0;
    pub const TECHNOLOGY: u16 = 2;
    pub const HORZSIZE: u16 = 4;
    pub const VERTSIZE: u16 = 6;
    pub const HORZRES: u16 = 8;
    pub const VERTRES: u16 = 10;
    pub const BITSPIXEL: u16 = 12;
    pub const PLANES: u16 = 14;
    pub const NUMBRUSHES: u16 = 16;
    pub const NUMPENS: u16 = 18;
    pub const NUMMARKERS: u16 = 20;
    pub const NUMFONTS: u16 = 22;
    pub const NUMCOLORS: u16 = 24;
    pub const PDEVICESIZE: u16 = 26;
    pub const CURVECAPS: u16 = 28;
    pub const LINECAPS: u16 = 30;
    pub const POLYGONALCAPS: u16 = 32;
    pub const TEXTCAPS: u16 = 34;
    pub const CLIPCAPS: u16 = 36;
    pub const RASTERCAPS: u16 = 38;
    pub const ASPECTX: u16 = 40;
    pub const ASPECTY: u16 = 42;
    pub const ASPECTXY: u16 = 44;
    /// dpStyleLen: not a documented index, but GetDeviceCaps returns it.
    pub const STYLELEN: u16 = 46;
    pub const LOGPIXELSX: u16 = 88;
    pub const LOGPIXELSY: u16 = 90;
    pub const SIZEPALETTE: u16 = 104;
    pub const NUMRESERVED: u16 = 106;
    pub const COLORRES: u16 = 108;
}

const DT_RASDISPLAY: i16 = 1;
const DT_RASPRINTER: i16 = 2;
const LC_POLYLINE: i16 = 2;
const LC_STYLED: i16 = 32;
const PC_SCANLINE: i16 = 8;
const TC_CP_STROKE: i16 = 4;
const TC_EA_DOUBLE: i16 = 0x200;
const TC_RA_ABLE: i16 = 0x2000;
const CP_RECTANGLE: i16 = 1;
const RC_BITBLT: u16 = 1;
const RC_BANDING: u16 = 2;
const RC_BITMAP64: u16 = 8;
const RC_GDI20_OUTPUT: u16 = 0x10;
const RC_SAVEBITMAP: u16 = 0x40;
const RC_DI_BITMAP: u16 = 0x80;
const RC_PALETTE: u16 = 0x100;
const RC_DIBTODEV: u16 = 0x200;
const RC_BIGFONT: u16 = 0x400;
const RC_STRETCHBLT: u16 = 0x800;
const RC_OP_DX_OUTPUT: u16 = 0x4000;

/// A display: its size and colour depth (`--display WxHxBPP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisplayMode {
    pub width: i32,
    pub height: i32,
    /// 4 (the VGA's 16 colours), 8 or 24.
    pub bpp: u8,
}

impl Default for DisplayMode {
    fn default() -> Self {
        DisplayMode::VGA
    }
}

impl DisplayMode {
    /// The standard VGA: 640×480, 16 colours.
    pub const VGA: DisplayMode = DisplayMode {
        width: 640,
        height: 480,
        bpp: 4,
    };

    /// Parse `WxHxBPP` (`800x600x8`); sides 64..=4096, depth 4, 8 or 24.
    pub fn parse(s: &str) -> Result<DisplayMode, String> {
        let parts: Vec<&str> = s.split(['x', 'X']).collect();
        let [w, h, b] = parts.as_slice() else {
            return Err(format!(
                "--display {s}: expected WIDTHxHEIGHTxBPP, e.g. 800x600x8"
            ));
        };
        let num = |t: &str, what: &str| {
            t.parse::<i32>()
                .map_err(|_| format!("--display {s}: the {what} '{t}' is not a number"))
        };
        let (width, height, bpp) = (num(w, "width")?, num(h, "height")?, num(b, "depth")?);
        if !(64..=4096).contains(&width) || !(64..=4096).contains(&height) {
            return Err(format!(
                "--display {s}: width and height must lie between 64 and 4096"
            ));
        }
        let bpp = match bpp {
            4 | 8 | 24 => bpp as u8,
            _ => {
                return Err(format!(
                    "--display {s}: the depth must be 4 (16 colours), 8 (256) or 24 (true colour)"
                ));
            }
        };
        Ok(DisplayMode { width, height, bpp })
    }

    /// The screen's pixel format.
    pub fn format(&self) -> Format {
        match self.bpp {
            4 => Format::Vga16,
            8 => Format::Pal8,
            _ => Format::Rgb24,
        }
    }
}

/// What a DC draws on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    Display(DisplayMode),
    Printer,
}

/// The printer's printable page in pixels, and its resolution.
pub const PRINTER_PAGE: (i32, i32) = (2400, 3150);
pub const PRINTER_DPI: i32 = 300;

/// A GDIINFO: word values by byte offset / 2.
#[derive(Debug, Clone)]
pub struct Caps {
    words: [i16; 56],
}

impl Caps {
    /// GetDeviceCaps: the word at byte offset `index` (0 beyond GDIINFO;
    /// an odd offset reads the word there, as GDI's indexing did).
    pub fn get(&self, index: u16) -> i16 {
        let bytes: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let i = usize::from(index);
        if i + 1 < bytes.len() {
            i16::from_le_bytes([bytes[i], bytes[i + 1]])
        } else {
            0
        }
    }

    fn set(&mut self, index: u16, v: i16) {
        self.words[usize::from(index / 2)] = v;
    }

    /// The fixed extents of a metric or English mapping mode (2..=6):
    /// (window x, window y, viewport x, viewport y).
    pub fn mapping(&self, mode: u16) -> Option<(i32, i32, i32, i32)> {
        let base: u16 = match mode {
            2 => 48,
            3 => 56,
            4 => 64,
            5 => 72,
            6 => 80,
            _ => return None,
        };
        let w = |k: u16| i32::from(self.get(base + 2 * k));
        Some((w(0), w(1), w(2), w(3)))
    }
}

/// Reduce `num/den` to 16-bit terms (exactly when they fit, else the
/// nearest fraction whose terms do).
fn fit16(num: i64, den: i64) -> (i32, i32) {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    let g = gcd(num, den).max(1);
    let (mut n, mut d) = (num / g, den / g);
    while n.abs() > 32767 || d.abs() > 32767 {
        n = (n + n.signum()) / 2;
        d = (d + d.signum()) / 2;
    }
    (n as i32, d.max(1) as i32)
}

impl Device {
    /// The device's GDIINFO.
    pub fn caps(&self) -> Caps {
        let mut c = Caps { words: [0; 56] };
        match *self {
            Device::Display(m) => {
                let vga = m == DisplayMode::VGA;
                c.set(idx::DRIVERVERSION, 0x030A);
                c.set(idx::TECHNOLOGY, DT_RASDISPLAY);
                c.set(idx::HORZSIZE, 208);
                c.set(idx::VERTSIZE, 156);
                c.set(idx::HORZRES, m.width as i16);
                c.set(idx::VERTRES, m.height as i16);
                let (planes, bits, colors) = match m.bpp {
                    4 => (4, 1, 16),
                    8 => (1, 8, 20),
                    _ => (1, 24, -1),
                };
                c.set(idx::BITSPIXEL, bits);
                c.set(idx::PLANES, planes);
                c.set(idx::NUMBRUSHES, -1);
                c.set(idx::NUMPENS, if m.bpp == 4 { 16 * 5 } else { -1 });
                c.set(idx::NUMCOLORS, colors);
                c.set(idx::PDEVICESIZE, 32);
                c.set(idx::LINECAPS, LC_POLYLINE | LC_STYLED);
                c.set(idx::POLYGONALCAPS, PC_SCANLINE);
                c.set(idx::TEXTCAPS, TC_CP_STROKE | TC_RA_ABLE | TC_EA_DOUBLE);
                c.set(idx::CLIPCAPS, CP_RECTANGLE);
                let mut raster = RC_BITBLT
                    | RC_BITMAP64
                    | RC_GDI20_OUTPUT
                    | RC_SAVEBITMAP
                    | RC_DI_BITMAP
                    | RC_DIBTODEV
                    | RC_BIGFONT
                    | RC_OP_DX_OUTPUT;
                if m.bpp == 8 {
                    raster |= RC_PALETTE;
                }
                c.set(idx::RASTERCAPS, raster as i16);
                c.set(idx::ASPECTX, 36);
                c.set(idx::ASPECTY, 36);
                c.set(idx::ASPECTXY, 51);
                c.set(idx::STYLELEN, 51 * 2);
                c.set(idx::LOGPIXELSX, 96);
                c.set(idx::LOGPIXELSY, 96);
                if m.bpp == 8 {
                    c.set(idx::SIZEPALETTE, 256);
                    c.set(idx::NUMRESERVED, 20);
                    c.set(idx::COLORRES, 18);
                }
                if vga {
                    // The VGA driver's own table.
                    let t: [(u16, [i16; 4]); 5] = [
                        (48, [2080, 1560, 640, -480]),
                        (56, [20800, 15600, 640, -480]),
                        (64, [325, 325, 254, -254]),
                        (72, [1625, 1625, 127, -127]),
                        (80, [2340, 2340, 127, -127]),
                    ];
                    for (base, v) in t {
                        for (k, x) in v.into_iter().enumerate() {
                            c.set(base + 2 * k as u16, x);
                        }
                    }
                } else {
                    set_extents(&mut c, 208, 156, m.width, m.height);
                }
            }
            Device::Printer => {
                let (w, h) = PRINTER_PAGE;
                let (mm_w, mm_h) = (
                    (w * 254 + PRINTER_DPI * 5) / (PRINTER_DPI * 10),
                    (h * 254 + PRINTER_DPI * 5) / (PRINTER_DPI * 10),
                );
                c.set(idx::DRIVERVERSION, 0x030A);
                c.set(idx::TECHNOLOGY, DT_RASPRINTER);
                c.set(idx::HORZSIZE, mm_w as i16);
                c.set(idx::VERTSIZE, mm_h as i16);
                c.set(idx::HORZRES, w as i16);
                c.set(idx::VERTRES, h as i16);
                c.set(idx::BITSPIXEL, 1);
                c.set(idx::PLANES, 1);
                c.set(idx::NUMBRUSHES, -1);
                c.set(idx::NUMPENS, 2 * 5);
                c.set(idx::NUMCOLORS, 2);
                c.set(idx::PDEVICESIZE, 32);
                c.set(idx::LINECAPS, LC_POLYLINE | LC_STYLED);
                c.set(idx::POLYGONALCAPS, PC_SCANLINE);
                c.set(idx::TEXTCAPS, TC_CP_STROKE | TC_RA_ABLE);
                c.set(idx::CLIPCAPS, CP_RECTANGLE);
                c.set(
                    idx::RASTERCAPS,
                    (RC_BITBLT
                        | RC_BANDING
                        | RC_BITMAP64
                        | RC_GDI20_OUTPUT
                        | RC_DI_BITMAP
                        | RC_DIBTODEV
                        | RC_BIGFONT
                        | RC_STRETCHBLT) as i16,
                );
                c.set(idx::ASPECTX, 300);
                c.set(idx::ASPECTY, 300);
                c.set(idx::ASPECTXY, 424);
                c.set(idx::STYLELEN, 424 * 2);
                c.set(idx::LOGPIXELSX, PRINTER_DPI as i16);
                c.set(idx::LOGPIXELSY, PRINTER_DPI as i16);
                set_extents(&mut c, mm_w, mm_h, w, h);
            }
        }
        c
    }

    /// The pixel format of the device's own surface.
    pub fn format(&self) -> Format {
        match self {
            Device::Display(m) => m.format(),
            Device::Printer => Format::Mono,
        }
    }
}

/// The fixed mapping modes' extents for a device of `mm_w`×`mm_h`
/// millimetres and `w`×`h` pixels: window units per viewport pixels,
/// exact fractions in 16-bit terms.
fn set_extents(c: &mut Caps, mm_w: i32, mm_h: i32, w: i32, h: i32) {
    // Logical units per millimetre × 10 000: LOMETRIC 0.1 mm, HIMETRIC
    // 0.01 mm, LOENGLISH 0.01 in, HIENGLISH 0.001 in, TWIPS 1/1440 in.
    let modes: [(u16, i64, i64); 5] = [
        (48, 10, 1),
        (56, 100, 1),
        (64, 1000, 254),
        (72, 10000, 254),
        (80, 14400, 254),
    ];
    for (base, num, den) in modes {
        // Window extent / viewport extent = mm × num / den / pixels.
        let (wx, vx) = fit16(i64::from(mm_w) * num, den * i64::from(w));
        let (wy, vy) = fit16(i64::from(mm_h) * num, den * i64::from(h));
        c.set(base, wx as i16);
        c.set(base + 2, wy as i16);
        c.set(base + 4, vx as i16);
        c.set(base + 6, -vy as i16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vga_values_are_the_drivers() {
        let c = Device::Display(DisplayMode::VGA).caps();
        for (i, v) in [
            (idx::DRIVERVERSION, 0x30A),
            (idx::TECHNOLOGY, 1),
            (idx::HORZSIZE, 208),
            (idx::VERTSIZE, 156),
            (idx::HORZRES, 640),
            (idx::VERTRES, 480),
            (idx::BITSPIXEL, 1),
            (idx::PLANES, 4),
            (idx::NUMBRUSHES, -1),
            (idx::NUMPENS, 80),
            (idx::NUMCOLORS, 16),
            (idx::CURVECAPS, 0),
            (idx::LINECAPS, 34),
            (idx::POLYGONALCAPS, 8),
            (idx::TEXTCAPS, 0x2204),
            (idx::CLIPCAPS, 1),
            (idx::RASTERCAPS, 0x46D9),
            (idx::ASPECTX, 36),
            (idx::ASPECTY, 36),
            (idx::ASPECTXY, 51),
            (idx::LOGPIXELSX, 96),
            (idx::LOGPIXELSY, 96),
            (idx::SIZEPALETTE, 0),
        ] {
            assert_eq!(c.get(i), v, "index {i}");
        }
        assert_eq!(c.mapping(2), Some((2080, 1560, 640, -480)));
        assert_eq!(c.mapping(6), Some((2340, 2340, 127, -127)));
        assert_eq!(c.get(200), 0);
    }

    #[test]
    fn computed_extents_agree_with_the_vga_table() {
        // The VGA's table is the exact fractions, reduced.
        let mut c = Caps { words: [0; 56] };
        set_extents(&mut c, 208, 156, 640, 480);
        let vga = Device::Display(DisplayMode::VGA).caps();
        for mode in 2..=6 {
            let (a, b, cc, d) = c.mapping(mode).unwrap();
            let (e, f, g, h) = vga.mapping(mode).unwrap();
            assert_eq!(
                i64::from(a) * i64::from(g),
                i64::from(e) * i64::from(cc),
                "{mode}"
            );
            assert_eq!(
                i64::from(b) * i64::from(h),
                i64::from(f) * i64::from(d),
                "{mode}"
            );
        }
    }

    #[test]
    fn display_modes_parse() {
        assert_eq!(
            DisplayMode::parse("800x600x8"),
            Ok(DisplayMode {
                width: 800,
                height: 600,
                bpp: 8
            })
        );
        assert!(DisplayMode::parse("800x600").is_err());
        assert!(DisplayMode::parse("800x600x16").is_err());
        assert!(DisplayMode::parse("10x600x8").is_err());
        let c = Device::Display(DisplayMode::parse("1024x768x24").unwrap()).caps();
        assert_eq!(c.get(idx::NUMCOLORS), -1);
        assert_eq!(c.get(idx::BITSPIXEL), 24);
        let p = Device::Printer.caps();
        assert_eq!(p.get(idx::HORZRES), 2400);
        assert_eq!(p.get(idx::LOGPIXELSY), 300);
        assert_eq!(p.get(idx::HORZSIZE), 203);
        assert_eq!(p.get(idx::TECHNOLOGY), 2);
    }
}
