//! Bitmaps: device-dependent bitmaps (DDBs) and device-independent
//! bitmaps (DIBs).
//!
//! **DDBs** are GDI objects holding a [`Surface`]: monochrome (1 plane, 1
//! bit: 1 white, 0 black), or the display's format (the VGA's 4 planes of
//! 1 bit, 8 or 24 bits per pixel). Their bits as GetBitmapBits and
//! SetBitmapBits move them (SDK, "BITMAP"; Petzold, *Programming Windows
//! 3.1*, "The color bitmap format"): scan lines from the top, each padded
//! to an even number of bytes (bmWidthBytes); for the VGA each scan line is
//! its four planes one after the other, red, green, blue, intensity; pixels
//! most significant bit first. BITMAP (GetObject), 14 bytes: int bmType
//! (0), bmWidth, bmHeight, bmWidthBytes; BYTE bmPlanes, bmBitsPixel; void
//! FAR *bmBits (0: the bits are GDI's).
//!
//! **DIBs** (SetDIBits, GetDIBits, CreateDIBitmap, SetDIBitsToDevice,
//! StretchDIBits, DIB pattern brushes, bitmap resources) are a
//! BITMAPINFOHEADER (40 bytes: DWORD biSize; LONG biWidth, biHeight; WORD
//! biPlanes, biBitCount; DWORD biCompression, biSizeImage; LONG
//! biXPelsPerMeter, biYPelsPerMeter; DWORD biClrUsed, biClrImportant) or
//! an OS/2 BITMAPCOREHEADER (12 bytes: DWORD bcSize; WORD bcWidth,
//! bcHeight, bcPlanes, bcBitCount), a colour table (RGBQUADs B,G,R,0, or
//! RGBTRIPLEs after a core header, or, with DIB_PAL_COLORS, WORD indices
//! into the DC's logical palette), then the pixels: rows from the
//! *bottom*, each padded to 4 bytes, 1, 4, 8 or 24 bits per pixel, or
//! RLE8/RLE4 compressed. Every field is checked and sizes are bounded: a
//! malformed DIB is refused (the call returns 0), never followed.

use super::surface::{Format, MAX_PIXELS, Surface};
use super::{Env, Stop, Uc, arg_h, arg_i, read_huge, read_struct, write_huge, write_struct};
use crate::win16::api::{Api, Arg};

/// A bitmap object.
#[derive(Debug, Clone)]
pub struct Bitmap {
    pub surface: Surface,
    /// SetBitmapDimension's width and height in 0.1 mm.
    pub dimension: (i16, i16),
}

/// BITMAP, 14 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitmapInfo {
    pub width: i16,
    pub height: i16,
    pub width_bytes: i16,
    pub planes: u8,
    pub bits_pixel: u8,
    pub bits: u32,
}

impl BitmapInfo {
    pub const SIZE: usize = 14;

    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[2..4].copy_from_slice(&self.width.to_le_bytes());
        b[4..6].copy_from_slice(&self.height.to_le_bytes());
        b[6..8].copy_from_slice(&self.width_bytes.to_le_bytes());
        b[8] = self.planes;
        b[9] = self.bits_pixel;
        b[10..14].copy_from_slice(&self.bits.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8; Self::SIZE]) -> BitmapInfo {
        BitmapInfo {
            width: i16::from_le_bytes([b[2], b[3]]),
            height: i16::from_le_bytes([b[4], b[5]]),
            width_bytes: i16::from_le_bytes([b[6], b[7]]),
            planes: b[8],
            bits_pixel: b[9],
            bits: u32::from_le_bytes([b[10], b[11], b[12], b[13]]),
        }
    }
}

/// Bytes in one plane's scan line: the bits rounded up to 16.
pub fn width_bytes(width: i32, bits: u32) -> usize {
    ((width.max(0) as usize) * bits as usize).div_ceil(16) * 2
}

impl Bitmap {
    /// A blank bitmap (black, as new bitmaps' memory held zeros... GDI
    /// made them of whatever the memory held; zeros here).
    pub fn new(width: i32, height: i32, format: Format) -> Option<Bitmap> {
        Some(Bitmap {
            surface: Surface::new(width, height, format, 0)?,
            dimension: (0, 0),
        })
    }

    /// The 1×1 monochrome bitmap every new memory DC holds.
    pub fn stock() -> Bitmap {
        Bitmap {
            surface: Surface::new(1, 1, Format::Mono, 0).expect("1x1"),
            dimension: (0, 0),
        }
    }

    /// GetObject's BITMAP.
    pub fn info(&self) -> BitmapInfo {
        let (planes, bits) = self.surface.format.planes_bits();
        BitmapInfo {
            width: self.surface.width as i16,
            height: self.surface.height as i16,
            width_bytes: width_bytes(self.surface.width, u32::from(bits)) as i16,
            planes,
            bits_pixel: bits,
            bits: 0,
        }
    }

    /// Bytes of one scan line with all its planes.
    pub fn scan_bytes(&self) -> usize {
        let (planes, bits) = self.surface.format.planes_bits();
        width_bytes(self.surface.width, u32::from(bits)) * usize::from(planes)
    }

    /// The bitmap's bits in GetBitmapBits' layout (module doc).
    pub fn ddb_bits(&self) -> Vec<u8> {
        let s = &self.surface;
        let mut out = Vec::with_capacity(self.scan_bytes() * s.height as usize);
        for y in 0..s.height {
            encode_ddb_row(s.format, s.row(y), &mut out);
        }
        out
    }

    /// Set the bits from SetBitmapBits' layout: whole scan lines from the
    /// top, as many as `bits` holds. Returns the bytes used.
    pub fn set_ddb_bits(&mut self, bits: &[u8]) -> usize {
        let scan = self.scan_bytes();
        if scan == 0 {
            return 0;
        }
        let rows = (bits.len() / scan).min(self.surface.height as usize);
        let fmt = self.surface.format;
        for y in 0..rows {
            let src = &bits[y * scan..(y + 1) * scan];
            decode_ddb_row(fmt, src, self.surface.row_mut(y as i32));
        }
        // A partial last scan line is copied too (SetBitmapBits copied the
        // bytes it was given).
        let used = rows * scan;
        if rows < self.surface.height as usize && bits.len() > used {
            let mut last = bits[used..].to_vec();
            last.resize(scan, 0);
            let mut row = self.surface.row(rows as i32).to_vec();
            let mut decoded = row.clone();
            decode_ddb_row(fmt, &last, &mut decoded);
            // Only the pixels whose bytes were given change.
            let given = bits.len() - used;
            for (x, px) in row.iter_mut().enumerate() {
                if ddb_pixel_covered(fmt, x, given, self.surface.width) {
                    *px = decoded[x];
                }
            }
            self.surface.row_mut(rows as i32).copy_from_slice(&row);
            return bits.len();
        }
        used
    }
}

/// Is pixel `x`'s data within the first `given` bytes of its scan line?
fn ddb_pixel_covered(fmt: Format, x: usize, given: usize, width: i32) -> bool {
    let (planes, bits) = fmt.planes_bits();
    let wb = width_bytes(width, u32::from(bits));
    let byte = x * usize::from(bits) / 8;
    // The last plane's byte must be there.
    byte + wb * (usize::from(planes) - 1) < given
}

/// Append one row of pixels in DDB layout.
pub fn encode_ddb_row(fmt: Format, row: &[u32], out: &mut Vec<u8>) {
    let w = row.len() as i32;
    match fmt {
        Format::Mono | Format::Vga16 => {
            let planes = if fmt == Format::Mono { 1 } else { 4 };
            let wb = width_bytes(w, 1);
            for plane in 0..planes {
                let start = out.len();
                out.resize(start + wb, 0);
                for (x, &p) in row.iter().enumerate() {
                    if p >> plane & 1 != 0 {
                        out[start + x / 8] |= 0x80 >> (x % 8);
                    }
                }
            }
        }
        Format::Pal8 => {
            let wb = width_bytes(w, 8);
            let start = out.len();
            out.extend(row.iter().map(|&p| p as u8));
            out.resize(start + wb, 0);
        }
        Format::Rgb24 => {
            let wb = width_bytes(w, 24);
            let start = out.len();
            for &p in row {
                out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
            }
            out.resize(start + wb, 0);
        }
    }
}

/// Decode one row of DDB layout into pixels (`src` holds the whole scan).
pub fn decode_ddb_row(fmt: Format, src: &[u8], row: &mut [u32]) {
    let w = row.len() as i32;
    match fmt {
        Format::Mono | Format::Vga16 => {
            let planes = if fmt == Format::Mono { 1 } else { 4 };
            let wb = width_bytes(w, 1);
            for (x, px) in row.iter_mut().enumerate() {
                let mut v = 0;
                for plane in 0..planes {
                    let b = src.get(plane * wb + x / 8).copied().unwrap_or(0);
                    if b & (0x80 >> (x % 8)) != 0 {
                        v |= 1 << plane;
                    }
                }
                *px = v;
            }
        }
        Format::Pal8 => {
            for (x, px) in row.iter_mut().enumerate() {
                *px = u32::from(src.get(x).copied().unwrap_or(0));
            }
        }
        Format::Rgb24 => {
            for (x, px) in row.iter_mut().enumerate() {
                let b = |k: usize| u32::from(src.get(x * 3 + k).copied().unwrap_or(0));
                *px = b(2) | b(1) << 8 | b(0) << 16;
            }
        }
    }
}

/// BI_RGB, BI_RLE8, BI_RLE4.
pub const BI_RGB: u32 = 0;
pub const BI_RLE8: u32 = 1;
pub const BI_RLE4: u32 = 2;
/// DIB_RGB_COLORS, DIB_PAL_COLORS.
pub const DIB_RGB_COLORS: u16 = 0;
pub const DIB_PAL_COLORS: u16 = 1;

/// A DIB's header and colour table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DibHeader {
    /// 40 (BITMAPINFOHEADER) or 12 (BITMAPCOREHEADER).
    pub header_size: u32,
    pub width: i32,
    pub height: i32,
    pub bit_count: u16,
    pub compression: u32,
    pub size_image: u32,
    pub clr_used: u32,
    /// Colour table: COLORREFs (DIB_RGB_COLORS) or palette indices in the
    /// low word (DIB_PAL_COLORS).
    pub colors: Vec<u32>,
    pub usage: u16,
}

impl DibHeader {
    /// Bytes of the header and colour table.
    pub fn info_size(&self) -> usize {
        let entry = match (self.usage, self.header_size) {
            (DIB_PAL_COLORS, _) => 2,
            (_, 12) => 3,
            _ => 4,
        };
        self.header_size as usize + self.colors.len() * entry
    }

    /// Bytes of one row of pixels (padded to 4).
    pub fn stride(&self) -> usize {
        ((self.width as usize) * usize::from(self.bit_count)).div_ceil(32) * 4
    }

    /// Bytes of the uncompressed pixels.
    pub fn image_size(&self) -> usize {
        self.stride() * self.height as usize
    }

    /// Number of colour table entries a header implies.
    fn table_len(header_size: u32, bit_count: u16, clr_used: u32) -> usize {
        match bit_count {
            1 | 4 | 8 => {
                let full = 1usize << bit_count;
                if header_size >= 40 && clr_used != 0 {
                    (clr_used as usize).min(full)
                } else {
                    full
                }
            }
            _ => 0,
        }
    }

    /// The header at the start of `b`, with its colour table; `usage` is
    /// DIB_RGB_COLORS or DIB_PAL_COLORS. Err names what was wrong.
    pub fn parse(b: &[u8], usage: u16) -> Result<DibHeader, String> {
        let d32 = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let d16 = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        if b.len() < 12 {
            return Err("the header is shorter than 12 bytes".into());
        }
        let size = d32(0);
        let (width, height, planes, bit_count, compression, size_image, clr_used) = match size {
            12 => (
                i32::from(d16(4)),
                i32::from(d16(6)),
                d16(8),
                d16(10),
                BI_RGB,
                0,
                0,
            ),
            40..=0x400 => {
                if b.len() < 40 {
                    return Err("BITMAPINFOHEADER: fewer than 40 bytes".into());
                }
                (
                    d32(4) as i32,
                    d32(8) as i32,
                    d16(12),
                    d16(14),
                    d32(16),
                    d32(20),
                    d32(32),
                )
            }
            n => return Err(format!("biSize {n} is neither 12 nor 40")),
        };
        if planes != 1 {
            return Err(format!("biPlanes is {planes}, not 1"));
        }
        if !matches!(bit_count, 1 | 4 | 8 | 24) {
            return Err(format!("biBitCount {bit_count} is not 1, 4, 8 or 24"));
        }
        if width <= 0 || height <= 0 || (width as u64) * (height as u64) > MAX_PIXELS {
            return Err(format!("{width}x{height} pixels is not a bitmap size"));
        }
        match (compression, bit_count) {
            (BI_RGB, _) | (BI_RLE8, 8) | (BI_RLE4, 4) => {}
            (c, n) => return Err(format!("compression {c} with {n} bits per pixel")),
        }
        if usage != DIB_RGB_COLORS && usage != DIB_PAL_COLORS {
            return Err(format!(
                "usage {usage} is neither DIB_RGB_COLORS nor DIB_PAL_COLORS"
            ));
        }
        let n = Self::table_len(size, bit_count, clr_used);
        let entry = if usage == DIB_PAL_COLORS {
            2
        } else if size == 12 {
            3
        } else {
            4
        };
        let start = size as usize;
        let end = start + n * entry;
        if b.len() < end {
            return Err(format!(
                "the colour table of {n} entries runs past the {} bytes given",
                b.len()
            ));
        }
        let colors = (0..n)
            .map(|i| {
                let o = start + i * entry;
                if usage == DIB_PAL_COLORS {
                    u32::from(d16(o))
                } else {
                    u32::from(b[o + 2]) | u32::from(b[o + 1]) << 8 | u32::from(b[o]) << 16
                }
            })
            .collect();
        Ok(DibHeader {
            header_size: size,
            width,
            height,
            bit_count,
            compression,
            size_image,
            clr_used,
            colors,
            usage,
        })
    }

    /// The 40-byte BITMAPINFOHEADER GetDIBits writes for this header.
    pub fn to_info_bytes(&self) -> [u8; 40] {
        let mut b = [0u8; 40];
        b[0..4].copy_from_slice(&40u32.to_le_bytes());
        b[4..8].copy_from_slice(&self.width.to_le_bytes());
        b[8..12].copy_from_slice(&self.height.to_le_bytes());
        b[12..14].copy_from_slice(&1u16.to_le_bytes());
        b[14..16].copy_from_slice(&self.bit_count.to_le_bytes());
        b[16..20].copy_from_slice(&self.compression.to_le_bytes());
        b[20..24].copy_from_slice(&self.size_image.to_le_bytes());
        b[32..36].copy_from_slice(&self.clr_used.to_le_bytes());
        b
    }
}

/// A DIB's pixels as colour-table indices (≤ 8 bits) or COLORREFs (24
/// bits), row 0 the *top*. `lines` rows are decoded starting at DIB row
/// `start` counted from the bottom (SetDIBits' uStartScan, cScanLines).
pub struct DibPixels {
    pub width: i32,
    /// Top row first.
    pub rows: Vec<Vec<u32>>,
    /// Are the values indices into the colour table?
    pub indexed: bool,
}

/// Decode `lines` scan lines of a DIB's pixels from `bits`, bottom-up from
/// line `start`. Err names what was wrong.
pub fn decode_dib(h: &DibHeader, bits: &[u8], start: u32, lines: u32) -> Result<DibPixels, String> {
    let total = h.height as u32;
    let start = start.min(total);
    let lines = lines.min(total - start);
    let w = h.width as usize;
    let mut bottom_up: Vec<Vec<u32>> = Vec::with_capacity(lines as usize);
    match h.compression {
        BI_RGB => {
            let stride = h.stride();
            if stride
                .checked_mul(lines as usize)
                .is_none_or(|n| n > bits.len())
            {
                return Err(format!(
                    "{lines} scan lines of {stride} bytes need more than the {} bytes given",
                    bits.len()
                ));
            }
            for y in 0..lines as usize {
                let row = &bits[y * stride..(y + 1) * stride];
                let v: Vec<u32> = (0..w)
                    .map(|x| match h.bit_count {
                        1 => u32::from(row[x / 8] >> (7 - x % 8) & 1),
                        4 => u32::from(row[x / 2] >> (if x % 2 == 0 { 4 } else { 0 }) & 15),
                        8 => u32::from(row[x]),
                        _ => {
                            u32::from(row[x * 3 + 2])
                                | u32::from(row[x * 3 + 1]) << 8
                                | u32::from(row[x * 3]) << 16
                        }
                    })
                    .collect();
                bottom_up.push(v);
            }
        }
        _ => {
            // RLE: decode the whole image, then take the lines asked for.
            let all = decode_rle(h, bits)?;
            bottom_up = all
                .into_iter()
                .skip(start as usize)
                .take(lines as usize)
                .collect();
        }
    }
    bottom_up.reverse();
    Ok(DibPixels {
        width: h.width,
        rows: bottom_up,
        indexed: h.bit_count <= 8,
    })
}

/// Decode RLE8 or RLE4 pixels (SDK, "Bitmap compression"): pairs (count,
/// index) repeat an index (RLE4: two alternating nibbles); (0, 0) ends a
/// line, (0, 1) the bitmap, (0, 2, dx, dy) moves; (0, n ≥ 3) copies n
/// literal pixels padded to a word. Rows bottom-up; skipped pixels are 0.
fn decode_rle(h: &DibHeader, bits: &[u8]) -> Result<Vec<Vec<u32>>, String> {
    let w = h.width as usize;
    let hgt = h.height as usize;
    let mut rows = vec![vec![0u32; w]; hgt];
    let (mut x, mut y) = (0usize, 0usize);
    let mut i = 0usize;
    let rle4 = h.compression == BI_RLE4;
    let mut put = |x: &mut usize, y: usize, v: u32| {
        if y < hgt && *x < w {
            rows[y][*x] = v;
        }
        *x += 1;
    };
    while i + 1 < bits.len() {
        let (a, b) = (bits[i], bits[i + 1]);
        i += 2;
        if a > 0 {
            for k in 0..usize::from(a) {
                let v = if rle4 {
                    if k % 2 == 0 { b >> 4 } else { b & 15 }
                } else {
                    b
                };
                put(&mut x, y, u32::from(v));
            }
            continue;
        }
        match b {
            0 => {
                x = 0;
                y += 1;
            }
            1 => break,
            2 => {
                if i + 1 >= bits.len() {
                    return Err("an RLE delta runs past the end".into());
                }
                x += usize::from(bits[i]);
                y += usize::from(bits[i + 1]);
                i += 2;
            }
            n => {
                let n = usize::from(n);
                let bytes = if rle4 { n.div_ceil(2) } else { n };
                if i + bytes > bits.len() {
                    return Err("RLE literal pixels run past the end".into());
                }
                for k in 0..n {
                    let v = if rle4 {
                        let byte = bits[i + k / 2];
                        if k % 2 == 0 { byte >> 4 } else { byte & 15 }
                    } else {
                        bits[i + k]
                    };
                    put(&mut x, y, u32::from(v));
                }
                i += bytes + (bytes & 1);
            }
        }
        if y >= hgt {
            break;
        }
    }
    Ok(rows)
}

/// Encode pixels (top row first) as a DIB's uncompressed bits, bottom-up,
/// with `bit_count` bits per pixel; `index` maps a pixel to what the DIB
/// stores (an index for ≤ 8 bits, a COLORREF for 24).
pub fn encode_dib_rows(
    rows_top_down: &[Vec<u32>],
    width: usize,
    bit_count: u16,
    index: &dyn Fn(u32) -> u32,
) -> Vec<u8> {
    let stride = (width * usize::from(bit_count)).div_ceil(32) * 4;
    let mut out = vec![0u8; stride * rows_top_down.len()];
    for (k, row) in rows_top_down.iter().rev().enumerate() {
        let o = &mut out[k * stride..(k + 1) * stride];
        for (x, &p) in row.iter().enumerate().take(width) {
            let v = index(p);
            match bit_count {
                1 => {
                    if v & 1 != 0 {
                        o[x / 8] |= 0x80 >> (x % 8);
                    }
                }
                4 => o[x / 2] |= ((v & 15) as u8) << if x % 2 == 0 { 4 } else { 0 },
                8 => o[x] = v as u8,
                _ => {
                    o[x * 3] = (v >> 16) as u8;
                    o[x * 3 + 1] = (v >> 8) as u8;
                    o[x * 3 + 2] = v as u8;
                }
            }
        }
    }
    out
}

/// Read a DIB header and colour table from guest memory at `p` (at most
/// 40 + 256 × 4 bytes are read).
pub fn read_dib_header(uc: &Uc<'_>, p: u32, usage: u16) -> Option<DibHeader> {
    let head = crate::win16::farptr::read_bytes(uc, p, 12)?;
    let size = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
    let hsize = if size == 12 { 12 } else { 40 };
    let first = crate::win16::farptr::read_bytes(uc, p, hsize.max(12))?;
    // How much colour table follows: parse once without it to know.
    let bit_count = if size == 12 {
        u16::from_le_bytes([first[10], first[11]])
    } else {
        u16::from_le_bytes([first[14], first[15]])
    };
    let clr_used = if size == 12 {
        0
    } else {
        u32::from_le_bytes([first[32], first[33], first[34], first[35]])
    };
    let n = DibHeader::table_len(size as u32, bit_count, clr_used);
    let entry = if usage == DIB_PAL_COLORS {
        2
    } else if size == 12 {
        3
    } else {
        4
    };
    let all = crate::win16::farptr::read_bytes(uc, p, size.min(0x400) + n * entry)?;
    DibHeader::parse(&all, usage).ok()
}

fn new_bitmap(env: &mut Env, uc: &mut Uc<'_>, bm: Bitmap) -> u32 {
    if !env.win16.gdi.reserve_bytes(bm.surface.bytes()) {
        return 0;
    }
    let bytes = bm.surface.bytes();
    let o = super::objects::Obj::Bitmap(Box::new(bm));
    match super::objects::create(&mut env.win16, uc, o) {
        Some(h) => u32::from(h),
        None => {
            env.win16.gdi.release_bytes(bytes);
            0
        }
    }
}

/// Create a bitmap object of `format`, its bits from `bits` in DDB layout
/// when given. 0 when the size or format is impossible or memory is short.
pub fn create(
    env: &mut Env,
    uc: &mut Uc<'_>,
    w: i32,
    h: i32,
    format: Format,
    bits: Option<&[u8]>,
) -> u32 {
    let Some(mut bm) = Bitmap::new(w, h, format) else {
        return 0;
    };
    if let Some(b) = bits {
        bm.set_ddb_bits(b);
    }
    new_bitmap(env, uc, bm)
}

/// The format of a bitmap CreateBitmap makes: monochrome, or a colour
/// format a device has (4 planes × 1 bit, 8 or 24 bits).
fn format_for(planes: u32, bits: u32) -> Option<Format> {
    if planes > 255 || bits > 255 {
        return None;
    }
    Format::from_planes_bits(planes as u8, bits as u8)
}

/// GDI.48 CreateBitmap(nWidth, nHeight, cPlanes, cBitsPerPel, lpvBits).
pub fn create_bitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (w, h) = (arg_i(a[0]), arg_i(a[1]));
    let Some(fmt) = format_for(a[2] & 0xFFFF, a[3] & 0xFFFF) else {
        return Ok(0);
    };
    Ok(create_from_memory(env, uc, w, h, fmt, a[4]))
}

fn create_from_memory(env: &mut Env, uc: &mut Uc<'_>, w: i32, h: i32, fmt: Format, p: u32) -> u32 {
    if w <= 0 || h <= 0 || (w as u64) * (h as u64) > MAX_PIXELS {
        return 0;
    }
    if p == 0 {
        return create(env, uc, w, h, fmt, None);
    }
    let (planes, bits) = fmt.planes_bits();
    let n = width_bytes(w, u32::from(bits)) * usize::from(planes) * h as usize;
    match read_huge(uc, p, n) {
        Some(b) => create(env, uc, w, h, fmt, Some(&b)),
        None => 0,
    }
}

/// GDI.49 CreateBitmapIndirect(lpBitmap).
fn create_bitmap_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = read_struct::<{ BitmapInfo::SIZE }>(uc, a[0]) else {
        return Ok(0);
    };
    let bi = BitmapInfo::from_bytes(&b);
    let Some(fmt) = format_for(u32::from(bi.planes), u32::from(bi.bits_pixel)) else {
        return Ok(0);
    };
    Ok(create_from_memory(
        env,
        uc,
        i32::from(bi.width),
        i32::from(bi.height),
        fmt,
        bi.bits,
    ))
}

/// GDI.51 CreateCompatibleBitmap(hDC, nWidth, nHeight): a bitmap of the
/// DC's format (a memory DC's: its selected bitmap's). A size of 0 gives a
/// 1×1 monochrome bitmap (SDK, CreateCompatibleBitmap).
pub fn create_compatible_bitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (w, h) = (arg_i(a[1]), arg_i(a[2]));
    let Some(fmt) = super::dc::surface_format(&mut env.win16.gdi, arg_h(a[0])) else {
        return Ok(0);
    };
    if w == 0 || h == 0 {
        return Ok(create(env, uc, 1, 1, Format::Mono, None));
    }
    Ok(create(env, uc, w, h, fmt, None))
}

/// GDI.156 CreateDiscardableBitmap(hDC, nWidth, nHeight): a compatible
/// bitmap (this GDI never discards it).
fn create_discardable_bitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_compatible_bitmap(env, uc, a)
}

/// GDI.74 GetBitmapBits(hBitmap, dwCount, lpBits) -> bytes copied.
fn get_bitmap_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(bm) = env.win16.gdi.objects.bitmap(arg_h(a[0])) else {
        return Ok(0);
    };
    let bits = bm.ddb_bits();
    let n = bits.len().min(a[1] as usize);
    if n == 0 || !write_huge(uc, a[2], &bits[..n]) {
        return Ok(0);
    }
    Ok(n as u32)
}

/// GDI.106 SetBitmapBits(hBitmap, dwCount, lpBits) -> bytes used.
fn set_bitmap_bits(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = arg_h(a[0]);
    let Some(bm) = env.win16.gdi.objects.bitmap(h) else {
        return Ok(0);
    };
    let total = bm.scan_bytes() * bm.surface.height as usize;
    let n = total.min(a[1] as usize);
    let Some(bits) = read_huge(uc, a[2], n) else {
        return Ok(0);
    };
    let used = env
        .win16
        .gdi
        .objects
        .bitmap_mut(h)
        .map_or(0, |b| b.set_ddb_bits(&bits));
    Ok(used as u32)
}

/// GDI.162 GetBitmapDimension(hBitmap) -> MAKELONG(width, height) in 0.1 mm.
fn get_bitmap_dimension(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .gdi
        .objects
        .bitmap(arg_h(a[0]))
        .map_or(0, |b| pack(b.dimension)))
}

fn pack(d: (i16, i16)) -> u32 {
    u32::from(d.0 as u16) | u32::from(d.1 as u16) << 16
}

/// GDI.163 SetBitmapDimension(hBitmap, nWidth, nHeight) -> the previous.
fn set_bitmap_dimension(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .gdi
        .objects
        .bitmap_mut(arg_h(a[0]))
        .map_or(0, |b| {
            let prev = b.dimension;
            b.dimension = (a[1] as i16, a[2] as i16);
            pack(prev)
        }))
}

/// GDI.468 GetBitmapDimensionEx(hBitmap, lpSize) -> BOOL.
fn get_bitmap_dimension_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env
        .win16
        .gdi
        .objects
        .bitmap(arg_h(a[0]))
        .map(|b| b.dimension)
    else {
        return Ok(0);
    };
    let mut b = [0u8; 4];
    b[0..2].copy_from_slice(&d.0.to_le_bytes());
    b[2..4].copy_from_slice(&d.1.to_le_bytes());
    Ok(u32::from(write_struct(uc, a[1], &b)))
}

/// GDI.478 SetBitmapDimensionEx(hBitmap, nWidth, nHeight, lpSize) -> BOOL.
fn set_bitmap_dimension_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(bm) = env.win16.gdi.objects.bitmap_mut(arg_h(a[0])) else {
        return Ok(0);
    };
    let prev = bm.dimension;
    bm.dimension = (a[1] as i16, a[2] as i16);
    if a[3] != 0 {
        let mut b = [0u8; 4];
        b[0..2].copy_from_slice(&prev.0.to_le_bytes());
        b[2..4].copy_from_slice(&prev.1.to_le_bytes());
        write_struct(uc, a[3], &b);
    }
    Ok(1)
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        48,
        "CREATEBITMAP",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        create_bitmap,
    ),
    Api::new(
        "GDI",
        49,
        "CREATEBITMAPINDIRECT",
        &[Arg::L],
        create_bitmap_indirect,
    ),
    Api::new(
        "GDI",
        51,
        "CREATECOMPATIBLEBITMAP",
        &[Arg::W, Arg::W, Arg::W],
        create_compatible_bitmap,
    ),
    Api::new(
        "GDI",
        156,
        "CREATEDISCARDABLEBITMAP",
        &[Arg::W, Arg::W, Arg::W],
        create_discardable_bitmap,
    ),
    Api::new(
        "GDI",
        74,
        "GETBITMAPBITS",
        &[Arg::W, Arg::L, Arg::L],
        get_bitmap_bits,
    ),
    Api::new(
        "GDI",
        106,
        "SETBITMAPBITS",
        &[Arg::W, Arg::L, Arg::L],
        set_bitmap_bits,
    ),
    Api::new(
        "GDI",
        162,
        "GETBITMAPDIMENSION",
        &[Arg::W],
        get_bitmap_dimension,
    ),
    Api::new(
        "GDI",
        163,
        "SETBITMAPDIMENSION",
        &[Arg::W, Arg::W, Arg::W],
        set_bitmap_dimension,
    ),
    Api::new(
        "GDI",
        468,
        "GETBITMAPDIMENSIONEX",
        &[Arg::W, Arg::L],
        get_bitmap_dimension_ex,
    ),
    Api::new(
        "GDI",
        478,
        "SETBITMAPDIMENSIONEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_bitmap_dimension_ex,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bitmap_struct_layout() {
        let bm = Bitmap::new(20, 3, Format::Vga16).unwrap();
        let i = bm.info();
        assert_eq!(
            i.to_bytes(),
            [0, 0, 20, 0, 3, 0, 4, 0, 4, 1, 0, 0, 0, 0],
            "bmWidthBytes = 4: 20 bits rounded to 32"
        );
        assert_eq!(BitmapInfo::from_bytes(&i.to_bytes()), i);
        assert_eq!(bm.scan_bytes(), 16);
    }

    #[test]
    fn vga_ddb_rows_are_plane_interleaved() {
        // 8 pixels: red (9 = 1001b), then light grey (8 = 1000b), then
        // six black. Planes: red plane has pixel 0; green none; blue none;
        // intensity pixels 0 and 1.
        let mut bm = Bitmap::new(8, 1, Format::Vga16).unwrap();
        bm.surface.row_mut(0)[0] = 9;
        bm.surface.row_mut(0)[1] = 8;
        assert_eq!(bm.ddb_bits(), vec![0x80, 0, 0, 0, 0, 0, 0xC0, 0]);
        let mut other = Bitmap::new(8, 1, Format::Vga16).unwrap();
        assert_eq!(other.set_ddb_bits(&bm.ddb_bits()), 8);
        assert_eq!(other.surface.px, bm.surface.px);
    }

    #[test]
    fn dib_headers_and_rows() {
        // A 3x2 4-bit DIB: bottom row 1 2 3, top row 4 5 6.
        let mut b = vec![0u8; 40 + 16 * 4];
        b[0] = 40;
        b[4] = 3;
        b[8] = 2;
        b[12] = 1;
        b[14] = 4;
        b[40 + 4 * 4] = 0xFF; // entry 4: blue
        let h = DibHeader::parse(&b, DIB_RGB_COLORS).unwrap();
        assert_eq!(h.colors.len(), 16);
        assert_eq!(h.colors[4], 0x00FF_0000);
        assert_eq!(h.stride(), 4);
        let bits = [0x12, 0x30, 0, 0, 0x45, 0x60, 0, 0];
        let px = decode_dib(&h, &bits, 0, 2).unwrap();
        assert_eq!(px.rows, vec![vec![4, 5, 6], vec![1, 2, 3]]);
        assert_eq!(encode_dib_rows(&px.rows, 3, 4, &|v| v), bits.to_vec());
        // Errors name the field.
        b[14] = 3;
        assert!(DibHeader::parse(&b, 0).unwrap_err().contains("biBitCount"));
    }

    #[test]
    fn rle8_decodes() {
        let mut b = vec![0u8; 40 + 4 * 4];
        b[0] = 40;
        b[4] = 4;
        b[8] = 2;
        b[12] = 1;
        b[14] = 8;
        b[16] = 1; // RLE8
        b[32] = 4;
        let h = DibHeader::parse(&b, 0).unwrap();
        // Bottom row: 3 × index 2, then literal [1]; end of line; top row:
        // delta (2, 0), 2 × index 3; end of bitmap.
        let rle = [3, 2, 0, 3, 1, 1, 1, 0, 0, 0, 0, 2, 2, 0, 2, 3, 0, 1];
        let px = decode_dib(&h, &rle, 0, 2).unwrap();
        assert_eq!(px.rows, vec![vec![0, 0, 3, 3], vec![2, 2, 2, 1]]);
    }

    proptest! {
        #[test]
        fn dib_parsing_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200), usage in 0u16..3) {
            if let Ok(h) = DibHeader::parse(&bytes, usage) {
                if (h.width as u64) * (h.height as u64) <= 1 << 20 {
                    let _ = decode_dib(&h, &bytes, 0, h.height as u32);
                }
            }
        }
    }
}
