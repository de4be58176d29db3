//! Pixel surfaces: the screen's framebuffer, a printer's page, and every
//! memory bitmap. A surface holds *device pixels* (what the hardware or a
//! device-dependent bitmap held), one `u32` each:
//!
//! | format | pixel |
//! | --- | --- |
//! | [`Format::Mono`] | 0 black, 1 white (a monochrome bitmap's bit) |
//! | [`Format::Vga16`] | a VGA driver index 0..15 (color.rs: bit 0 red, 1 green, 2 blue, 3 intensity) |
//! | [`Format::Pal8`] | an index into the system palette (256-colour displays) |
//! | [`Format::Rgb24`] | a COLORREF 0x00BBGGRR (true-colour displays) |
//!
//! Raster operations work on these bits, as the drivers did on their
//! planes and bytes. Sizes are bounded ([`MAX_PIXELS`]): no program can make
//! the host allocate without limit.

/// The most pixels one surface may hold (a 16-megapixel bitmap; a 300 dpi
/// page is 7.5 megapixels).
pub const MAX_PIXELS: u64 = 16 * 1024 * 1024;

/// How a surface's pixels are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Mono,
    Vga16,
    Pal8,
    Rgb24,
}

impl Format {
    /// The bits a pixel value may have set.
    pub const fn mask(self) -> u32 {
        match self {
            Format::Mono => 1,
            Format::Vga16 => 0xF,
            Format::Pal8 => 0xFF,
            Format::Rgb24 => 0x00FF_FFFF,
        }
    }

    /// (planes, bits per pixel) as a BITMAP structure describes a bitmap
    /// of this format (the VGA's colour bitmaps are 4 planes of 1 bit).
    pub const fn planes_bits(self) -> (u8, u8) {
        match self {
            Format::Mono => (1, 1),
            Format::Vga16 => (4, 1),
            Format::Pal8 => (1, 8),
            Format::Rgb24 => (1, 24),
        }
    }

    /// The format of a bitmap with these planes and bits per pixel, as
    /// CreateBitmap takes them (None for combinations no device here has).
    pub fn from_planes_bits(planes: u8, bits: u8) -> Option<Format> {
        match (planes, bits) {
            (1, 1) => Some(Format::Mono),
            (4, 1) | (1, 4) => Some(Format::Vga16),
            (1, 8) => Some(Format::Pal8),
            (1, 24) | (1, 32) => Some(Format::Rgb24),
            _ => None,
        }
    }

    /// The colour depth in bits (1, 4, 8, 24).
    pub const fn depth(self) -> u32 {
        match self {
            Format::Mono => 1,
            Format::Vga16 => 4,
            Format::Pal8 => 8,
            Format::Rgb24 => 24,
        }
    }
}

/// A rectangle of pixels.
#[derive(Clone, PartialEq, Eq)]
pub struct Surface {
    pub width: i32,
    pub height: i32,
    pub format: Format,
    pub px: Vec<u32>,
}

impl std::fmt::Debug for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Surface {}x{} {:?}",
            self.width, self.height, self.format
        )
    }
}

impl Surface {
    /// A surface filled with `fill`; None when a side is not positive or it
    /// would hold more than [`MAX_PIXELS`].
    pub fn new(width: i32, height: i32, format: Format, fill: u32) -> Option<Surface> {
        if width <= 0 || height <= 0 || (width as u64) * (height as u64) > MAX_PIXELS {
            return None;
        }
        Some(Surface {
            width,
            height,
            format,
            px: vec![fill & format.mask(); (width as usize) * (height as usize)],
        })
    }

    /// Bytes of host memory the pixels take.
    pub fn bytes(&self) -> usize {
        self.px.len() * 4
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// The pixel at (x, y); None outside.
    pub fn get(&self, x: i32, y: i32) -> Option<u32> {
        self.contains(x, y)
            .then(|| self.px[(y as usize) * (self.width as usize) + x as usize])
    }

    /// Set one pixel (ignored outside).
    pub fn set(&mut self, x: i32, y: i32, v: u32) {
        if self.contains(x, y) {
            let w = self.width as usize;
            self.px[(y as usize) * w + x as usize] = v & self.format.mask();
        }
    }

    /// Row `y` (which must lie inside).
    pub fn row(&self, y: i32) -> &[u32] {
        let w = self.width as usize;
        &self.px[(y as usize) * w..(y as usize + 1) * w]
    }

    /// Row `y`, writable (which must lie inside).
    pub fn row_mut(&mut self, y: i32) -> &mut [u32] {
        let w = self.width as usize;
        &mut self.px[(y as usize) * w..(y as usize + 1) * w]
    }

    /// The surface as 8-bit RGB rows, each pixel's colour given by `rgb`
    /// (a COLORREF).
    pub fn to_rgb(&self, rgb: &dyn Fn(u32) -> u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.px.len() * 3);
        // Most surfaces have few distinct colours: remember the last one.
        let mut last = (u32::MAX, 0u32);
        for &p in &self.px {
            if p != last.0 {
                last = (p, rgb(p));
            }
            let c = last.1;
            out.extend_from_slice(&[c as u8, (c >> 8) as u8, (c >> 16) as u8]);
        }
        out
    }

    /// The surface as a PNG file (8-bit RGB).
    pub fn to_png(&self, rgb: &dyn Fn(u32) -> u32) -> Result<Vec<u8>, String> {
        crate::pngfile::encode_png(self.width as u32, self.height as u32, &self.to_rgb(rgb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_addressed() {
        assert!(Surface::new(0, 5, Format::Mono, 0).is_none());
        assert!(Surface::new(32767, 32767, Format::Rgb24, 0).is_none());
        let mut s = Surface::new(3, 2, Format::Vga16, 0x1F).unwrap();
        assert_eq!(s.get(2, 1), Some(0xF));
        s.set(1, 1, 4);
        s.set(5, 5, 4);
        assert_eq!(s.row(1), &[15, 4, 15]);
        assert_eq!(s.get(3, 0), None);
        let png = s
            .to_png(&|p| crate::win16::gdi::color::VGA_COLORS[p as usize])
            .unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
