//! A test's own reader of Windows raster fonts, straight from the SDK's
//! layouts (NE resource table, the FNT header, the glyph table, the
//! column-major glyph bits), so that tests derive their expectations from
//! the `.FON` files without the library's parser.

use std::path::{Path, PathBuf};

/// Debian's fonts-wine directory, or None without it (need.rs: a failure
/// under `./x test` and CI, else a visible skip).
pub fn wine_fonts() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/share/wine/fonts");
    if p.join("vgasys.fon").is_file() && p.join("sserife.fon").is_file() {
        Some(p)
    } else {
        super::need::tool_missing(
            &format!("{}/vgasys.fon and sserife.fon", p.display()),
            "Debian package fonts-wine; ./x test installs it",
        );
        None
    }
}

pub fn u16at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}

/// The FONT resources of a `.FON` file's bytes: (resource id, bytes).
pub fn font_resources(file: &[u8]) -> Vec<(u16, Vec<u8>)> {
    let w = |o: usize| u16::from_le_bytes([file[o], file[o + 1]]) as usize;
    let ne = u32::from_le_bytes(file[0x3C..0x40].try_into().unwrap()) as usize;
    let rt = ne + w(ne + 0x24);
    let shift = w(rt);
    let mut p = rt + 2;
    let mut out = Vec::new();
    loop {
        let t = w(p);
        if t == 0 {
            break;
        }
        let n = w(p + 2);
        for i in 0..n {
            let e = p + 8 + i * 12;
            let (off, len) = (w(e) << shift, w(e + 2) << shift);
            if t == 0x8008 {
                out.push((
                    (w(e + 6) & 0x7FFF) as u16,
                    file[off..(off + len).min(file.len())].to_vec(),
                ));
            }
        }
        p += 8 + n * 12;
    }
    out
}

/// One font resource, read.
#[derive(Debug, Clone)]
pub struct Fnt {
    pub data: Vec<u8>,
}

impl Fnt {
    /// The FONT resource of `file` (in `dir`) whose cell height is
    /// `height` and whose resolution is 96 dpi.
    pub fn load(dir: &Path, file: &str, height: u16) -> Fnt {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let data = font_resources(&bytes)
            .into_iter()
            .map(|(_, d)| d)
            .find(|d| u16at(d, 88) == height && u16at(d, 70) == 96)
            .unwrap_or_else(|| panic!("{file}: no {height}-pixel VGA font"));
        Fnt { data }
    }

    pub fn version(&self) -> u16 {
        u16at(&self.data, 0)
    }
    pub fn points(&self) -> u16 {
        u16at(&self.data, 68)
    }
    pub fn vert_res(&self) -> u16 {
        u16at(&self.data, 70)
    }
    pub fn horiz_res(&self) -> u16 {
        u16at(&self.data, 72)
    }
    pub fn ascent(&self) -> u16 {
        u16at(&self.data, 74)
    }
    pub fn internal_leading(&self) -> u16 {
        u16at(&self.data, 76)
    }
    pub fn external_leading(&self) -> u16 {
        u16at(&self.data, 78)
    }
    pub fn weight(&self) -> u16 {
        u16at(&self.data, 83)
    }
    pub fn charset(&self) -> u8 {
        self.data[85]
    }
    pub fn height(&self) -> u16 {
        u16at(&self.data, 88)
    }
    pub fn pitch_and_family(&self) -> u8 {
        self.data[90]
    }
    pub fn avg_width(&self) -> u16 {
        u16at(&self.data, 91)
    }
    pub fn max_width(&self) -> u16 {
        u16at(&self.data, 93)
    }
    pub fn first(&self) -> u8 {
        self.data[95]
    }
    pub fn last(&self) -> u8 {
        self.data[96]
    }
    pub fn default_char(&self) -> u8 {
        self.data[97]
    }
    pub fn break_char(&self) -> u8 {
        self.data[98]
    }
    pub fn face(&self) -> String {
        let at = u32::from_le_bytes(self.data[105..109].try_into().unwrap()) as usize;
        self.data[at..]
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as char)
            .collect()
    }

    /// (width, offset of the bits) of character `c` (the default
    /// character's for one outside the font).
    fn entry(&self, c: u8) -> (usize, usize) {
        let i = if (self.first()..=self.last()).contains(&c) {
            usize::from(c - self.first())
        } else {
            usize::from(self.default_char())
        };
        let (table, size) = if self.version() == 0x0300 {
            (148, 6)
        } else {
            (118, 4)
        };
        let e = table + i * size;
        let w = u16at(&self.data, e) as usize;
        let off = if size == 6 {
            u32::from_le_bytes(self.data[e + 2..e + 6].try_into().unwrap()) as usize
        } else {
            u16at(&self.data, e + 2) as usize
        };
        (w, off)
    }

    /// The advance of `c`.
    pub fn width(&self, c: u8) -> i32 {
        self.entry(c).0 as i32
    }

    /// The advances of a string, summed.
    pub fn text_width(&self, s: &[u8]) -> i32 {
        s.iter().map(|&c| self.width(c)).sum()
    }

    /// Is the pixel (x, y) of `c`'s glyph set?
    pub fn pixel(&self, c: u8, x: usize, y: usize) -> bool {
        let (w, off) = self.entry(c);
        let h = self.height() as usize;
        if x >= w || y >= h {
            return false;
        }
        self.data[off + (x / 8) * h + y] & (0x80 >> (x % 8)) != 0
    }

    /// The ink of `s` drawn with its cell's top-left at (x0, y0): each set
    /// pixel, and with `bold` the same pixel one to the right too (GDI's
    /// simulated bold, KB Q74298).
    pub fn ink(&self, s: &[u8], x0: i32, y0: i32, bold: bool) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let mut pen = x0;
        for &c in s {
            let w = self.width(c);
            for y in 0..self.height() as usize {
                for x in 0..w as usize {
                    if self.pixel(c, x, y) {
                        out.push((pen + x as i32, y0 + y as i32));
                        if bold {
                            out.push((pen + x as i32 + 1, y0 + y as i32));
                        }
                    }
                }
            }
            pen += w;
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Word-wrap `text` at `width` pixels by DrawText's documented rule (SDK,
/// DrawText, DT_WORDBREAK: "lines are automatically broken between words
/// if a word would extend past the edge of the rectangle"): the most
/// whole space-separated words that fit; a lone word too long for a line
/// is cut after the last character that fits.
pub fn wrap(f: &Fnt, text: &str, width: i32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let cand = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if f.text_width(cand.as_bytes()) <= width {
            cur = cand;
            continue;
        }
        if !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
        }
        let mut w = word.to_string();
        while f.text_width(w.as_bytes()) > width {
            let mut n = w.len();
            while n > 1 && f.text_width(&w.as_bytes()[..n]) > width {
                n -= 1;
            }
            lines.push(w[..n].to_string());
            w = w[n..].to_string();
        }
        cur = w;
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}
