//! Physical fonts: a font resource realised for a request, with GDI's
//! integer scaling and its bold, italic, underline and strike-out
//! simulations.

use std::rc::Rc;

use super::{FW_BOLD, FontCatalogue, FontResource, LogFont, TextMetric};
use crate::win16::gdi::fnt::{FntFont, FntHeader};

// ---------------------------------------------------------------------
// Physical fonts.

/// A font resource as realised for a request: scaled and simulated.
#[derive(Debug, Clone)]
pub struct PhysFont {
    pub res: Rc<FontResource>,
    /// Whole-number scale factors (1 = the font's own size).
    pub scale_x: u16,
    pub scale_y: u16,
    /// GDI's simulations.
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strike_out: bool,
}

impl PhysFont {
    /// The font at its own size, no simulations.
    pub fn plain(res: Rc<FontResource>) -> PhysFont {
        PhysFont {
            res,
            scale_x: 1,
            scale_y: 1,
            bold: false,
            italic: false,
            underline: false,
            strike_out: false,
        }
    }

    fn h(&self) -> &FntHeader {
        self.res.header()
    }

    /// The face name.
    pub fn face(&self) -> &str {
        self.res.face()
    }

    /// Cell height in pixels.
    pub fn height(&self) -> i32 {
        i32::from(self.h().pix_height) * i32::from(self.scale_y)
    }

    /// Rows above the baseline.
    pub fn ascent(&self) -> i32 {
        i32::from(self.h().ascent) * i32::from(self.scale_y)
    }

    /// The per-string overhang of the simulations (tmOverhang).
    pub fn overhang(&self) -> i32 {
        let mut o = 0;
        if self.bold {
            o += 1;
        }
        if self.italic {
            o += (self.height() - 1) / 4;
        }
        o
    }

    /// The advance of character `ch`.
    pub fn advance(&self, ch: u8) -> i32 {
        self.res.font.char_width(ch) as i32 * i32::from(self.scale_x)
    }

    /// TEXTMETRIC, in device units.
    pub fn metrics(&self) -> TextMetric {
        let h = self.h();
        // The factors are at most fontmap::MAX_SCALE.
        let sy = self.scale_y.clamp(1, 64) as i16;
        let sx = self.scale_x.clamp(1, 64) as i16;
        let height = h.pix_height as i16 * sy;
        let ascent = h.ascent as i16 * sy;
        let weight = if self.bold { FW_BOLD } else { h.weight };
        TextMetric {
            height,
            ascent,
            descent: height - ascent,
            internal_leading: h.internal_leading as i16 * sy,
            external_leading: h.external_leading as i16 * sy,
            ave_char_width: h.avg_width as i16 * sx,
            max_char_width: h.max_width as i16 * sx,
            weight: weight as i16,
            italic: u8::from(self.italic || h.italic != 0),
            underlined: u8::from(self.underline || h.underline != 0),
            struck_out: u8::from(self.strike_out || h.strike_out != 0),
            first_char: h.first_char,
            last_char: h.last_char,
            default_char: self.res.font.default_char(),
            break_char: self.res.font.break_char(),
            pitch_and_family: h.pitch_and_family,
            char_set: h.char_set,
            overhang: self.overhang() as i16,
            digitized_aspect_x: h.horiz_res as i16,
            digitized_aspect_y: h.vert_res as i16,
        }
    }

    /// The LOGFONT that names this physical font (what EnumFonts hands a
    /// program, and GetObject's realised view).
    pub fn logfont(&self) -> LogFont {
        let tm = self.metrics();
        LogFont {
            height: tm.height,
            width: tm.ave_char_width,
            escapement: 0,
            orientation: 0,
            weight: tm.weight,
            italic: tm.italic,
            underline: tm.underlined,
            strike_out: tm.struck_out,
            char_set: tm.char_set,
            out_precision: 1,  // OUT_STRING_PRECIS, as raster fonts report
            clip_precision: 2, // CLIP_STROKE_PRECIS
            quality: 1,        // DRAFT_QUALITY
            pitch_and_family: tm.pitch_and_family,
            face: self.face().as_bytes().to_vec(),
        }
    }

    /// The sum of the advances of `text` (no overhang).
    pub fn advances(&self, text: &[u8]) -> i32 {
        text.iter().map(|&c| self.advance(c)).sum()
    }

    /// Rows (from the top of the cell) of the underline and strike-out.
    pub fn underline_row(&self) -> i32 {
        let h = self.h();
        let row = if h.descent() >= 2 {
            h.ascent + 1
        } else {
            h.ascent.min(h.pix_height - 1)
        };
        i32::from(row) * i32::from(self.scale_y)
    }

    pub fn strike_out_row(&self) -> i32 {
        let h = self.h();
        let caps = h.ascent.saturating_sub(h.internal_leading);
        let row = h.ascent.saturating_sub(1 + caps / 3);
        i32::from(row) * i32::from(self.scale_y)
    }

    /// The ink of character `ch` with its cell's top-left at (0, 0), row by
    /// row: `f(y, runs)` for every row with ink, `runs` the `[x1, x2)`
    /// spans of that row, left to right and not overlapping, after the
    /// simulations (scaling, the bold overstrike one pixel to the right,
    /// the italic shear). Underline and strike-out are drawn by the text
    /// output across the advance, not here.
    pub fn glyph_rows(&self, ch: u8, mut f: impl FnMut(i32, &[(i32, i32)])) {
        let g = self.res.font.glyph(ch);
        let (sx, sy) = (i32::from(self.scale_x), i32::from(self.scale_y));
        let height = self.height();
        let mut base: Vec<(i32, i32)> = Vec::new();
        let mut out: Vec<(i32, i32)> = Vec::new();
        for gy in 0..g.height {
            base.clear();
            let mut run: Option<i32> = None;
            let mut x = 0i32;
            g.row_bytes(gy, |_, b| {
                for bit in 0..8 {
                    let on = x < g.width as i32 && b & (0x80 >> bit) != 0;
                    match (on, run) {
                        (true, None) => run = Some(x),
                        (false, Some(s)) => {
                            base.push((s, x));
                            run = None;
                        }
                        _ => {}
                    }
                    x += 1;
                }
            });
            if let Some(s) = run {
                base.push((s, x.min(g.width as i32)));
            }
            if base.is_empty() {
                continue;
            }
            for dy in 0..sy {
                let y = gy as i32 * sy + dy;
                let shear = if self.italic { (height - 1 - y) / 4 } else { 0 };
                out.clear();
                for &(a, b) in &base {
                    let (a, b) = (a * sx + shear, b * sx + shear + i32::from(self.bold));
                    match out.last_mut() {
                        Some(last) if last.1 >= a => last.1 = last.1.max(b),
                        _ => out.push((a, b)),
                    }
                }
                f(y, &out);
            }
        }
    }

    /// Every ink pixel of character `ch` ([`PhysFont::glyph_rows`] pixel by
    /// pixel).
    pub fn glyph_pixels(&self, ch: u8, mut f: impl FnMut(i32, i32)) {
        self.glyph_rows(ch, |y, runs| {
            for &(a, b) in runs {
                for x in a..b {
                    f(x, y);
                }
            }
        });
    }
}

impl FntFont {
    /// A font with `header`'s metrics, every character `avg_width` wide and
    /// no glyph bits (the catalogue's stand-in for a missing System font).
    pub fn metrics_only(header: FntHeader, face: &str) -> FntFont {
        FntFont::from_parts(header, face, &[])
    }
}

/// The dialog base units GetDialogBaseUnits reports (USER): the System
/// font's average character width (low word) and height (high word) — the
/// Windows 3.1 SDK: "the dialog base units are computed from the height
/// and width of the system font".
pub fn dialog_base_units(cat: &FontCatalogue) -> (u16, u16) {
    let h = cat.system();
    (h.header().avg_width, h.header().pix_height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::ne::ResourceId;

    #[test]
    fn simulations() {
        use crate::win16::gdi::fnt::tests::build;
        const I: &[&str] = &["#.", "#.", "#.", "#.", ".."];
        let d = build(0x0300, "T", 65, &[(2, I)]);
        let res = Rc::new(FontResource {
            font: FntFont::parse(&d).unwrap(),
            file: None,
            id: ResourceId::Int(1),
        });
        let mut f = PhysFont::plain(res.clone());
        let mut px = Vec::new();
        f.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px, vec![(0, 0), (0, 1), (0, 2), (0, 3)]);
        // Bold: each pixel also one to the right; overhang 1.
        f.bold = true;
        px.clear();
        f.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px.len(), 8);
        assert!(px.contains(&(1, 3)));
        assert_eq!(f.metrics().overhang, 1);
        assert_eq!(f.metrics().weight, 700);
        // Scaled 2 x 3.
        let mut s = PhysFont::plain(res);
        s.scale_x = 2;
        s.scale_y = 3;
        px.clear();
        s.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert_eq!(px.len(), 4 * 2 * 3);
        assert_eq!(s.metrics().height, 15);
        assert_eq!(s.advance(b'A'), 4);
        // Italic: the top row moves right by (height - 1) / 4.
        let mut it = s.clone();
        it.italic = true;
        assert_eq!(it.overhang(), (15 - 1) / 4);
        px.clear();
        it.glyph_pixels(b'A', |x, y| px.push((x, y)));
        assert!(px.contains(&(3, 0)), "{px:?}");
    }
}
