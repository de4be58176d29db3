//! Reading the PNG pictures `run --screenshot` writes and checking their
//! pixels: one decoder for every test that looks at a picture.

use std::path::Path;

/// A decoded PNG: width, height, 8-bit RGB rows.
pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl Picture {
    /// The PNG file at `path`, which must be 8-bit RGB (what the
    /// screenshots are).
    pub fn load(path: &Path) -> Picture {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Picture::decode(&bytes, &path.display().to_string())
    }

    /// PNG `bytes` (`what` names them in a failure).
    pub fn decode(bytes: &[u8], what: &str) -> Picture {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut r = dec.read_info().unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r
            .next_frame(&mut buf)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(info.color_type, png::ColorType::Rgb, "{what}");
        assert_eq!(info.bit_depth, png::BitDepth::Eight, "{what}");
        buf.truncate(info.buffer_size());
        Picture {
            width: info.width as usize,
            height: info.height as usize,
            rgb: buf,
        }
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    pub fn at(&self, x: usize, y: usize) -> u32 {
        let (r, g, b) = self.rgb_at(x as i64, y as i64);
        u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
    }

    /// The pixel at (x, y) as (red, green, blue).
    pub fn rgb_at(&self, x: i64, y: i64) -> (u8, u8, u8) {
        assert!(
            (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y),
            "({x},{y}) outside the {}x{} picture",
            self.width,
            self.height
        );
        let i = (y as usize * self.width + x as usize) * 3;
        (self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }

    /// How many pixels are not black.
    pub fn lit(&self) -> usize {
        self.rgb.chunks(3).filter(|c| c != &[0, 0, 0]).count()
    }

    /// The picture is `size` and each of `points` (x, y, 0xRRGGBB) has its
    /// colour (`name` names the picture in a failure).
    pub fn check(&self, name: &str, size: (usize, usize), points: &[(usize, usize, u32)]) {
        assert_eq!((self.width, self.height), size, "{name}: size");
        for &(x, y, c) in points {
            assert_eq!(self.at(x, y), c, "{name}: pixel ({x},{y})");
        }
    }
}
