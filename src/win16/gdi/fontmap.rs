//! The font mapper: a LOGFONT (already in device units) to the physical
//! font GDI realises for it.
//!
//! Windows 3.1's mapper scores every font the device can use by a sum of
//! penalties, one per attribute that differs from the request, and takes
//! the font with the smallest sum (Ron Gery, "Windows Font Mapping", MSDN
//! Technology Group, 1992, table 1; the SDK's own table of weights, KB
//! Q71226, only gives their order). The weights used here are that
//! table's:
//!
//! | penalty | weight | when |
//! | --- | --- | --- |
//! | CharSet | 65000 | the charset differs (none for DEFAULT_CHARSET) |
//! | OutputPrecision | 19000 | OUT_STROKE_PRECIS asked of a raster font |
//! | FixedPitch | 15000 | fixed pitch asked, the font is variable |
//! | FaceName | 10000 | a face named and this is not it |
//! | Family | 9000 | a family named and the font's differs |
//! | FamilyUnknown | 8000 | a family named and the font has none |
//! | HeightBigger | 600 | a raster font taller than asked, plus... |
//! | HeightBiggerDifference | 150 × pixels | ...per pixel too tall |
//! | FaceNameSubst | 500 | the face named is a substitute's (Helv, Tms Rmn) |
//! | PitchVariable | 350 | variable pitch asked, the font is fixed |
//! | HeightSmaller | 150 × pixels | a raster font shorter than asked |
//! | FamilyUnlikely | 50 | roman/swiss/modern asked and the font is script or decorative, or the reverse |
//! | Width | 50 × pixels | a width asked and the average width differs |
//! | SizeSynth | 50 | the font must be scaled |
//! | UnevenSizeSynth | 4 | scaled by different factors across and down |
//! | Italic | 4 | the font's slant differs from the request |
//! | Weight | 3 × (difference / 10) | the weight differs (not for FW_DONTCARE) |
//! | Underline, StrikeOut | 3 | the font has one the request does not |
//! | DefaultPitchFixed | 1 | DEFAULT_PITCH asked and the font is fixed |
//!
//! So for a raster font the mapper takes the nearest *smaller* size (a
//! pixel too small costs 150, too big 600 + 150) unless every size is
//! bigger; a face named beats the family and weight; the charset beats
//! everything (a program must ask for OEM_CHARSET to get Terminal).
//!
//! Heights: a positive lfHeight is matched against the cell height
//! (tmHeight), a negative one against the character height (tmHeight -
//! tmInternalLeading), zero asks for no particular size (the SDK,
//! CreateFont). The mapper may scale a raster font by whole multiples
//! (rows and columns duplicated, see font.rs): by the largest factor that
//! keeps it no taller than asked, at most [`MAX_SCALE`]; with no width
//! asked, across by the same factor. A width asked (lfWidth) picks the
//! horizontal factor that keeps the average width nearest to it.
//!
//! Ties go to the font loaded first (the catalogue's order: System first),
//! so a LOGFONT of zeros — no face, no family, no height, FW_DONTCARE —
//! gets the System font, as on Windows.
//!
//! After choosing, GDI simulates what the font lacks (font.rs): bold when
//! lfWeight is FW_SEMIBOLD or more and the font's weight is less, italic,
//! underline and strike-out when asked.

use std::rc::Rc;

use super::font::*;

/// The largest factor GDI scales a raster font by, each way. (Petzold:
/// "in integral multiples only and within certain limits"; the limit is
/// this project's choice.)
pub const MAX_SCALE: u16 = 8;

/// Face names Windows 3.1 substituted ([FontSubstitutes] in WIN.INI), for
/// the raster fonts.
pub const SUBSTITUTES: &[(&str, &str)] = &[("Helv", "MS Sans Serif"), ("Tms Rmn", "MS Serif")];

const OUT_STROKE_PRECIS: u8 = 3;

/// One candidate's score, with its reasons (for tests and `--explain`
/// style output).
#[derive(Debug, Clone)]
pub struct Scored {
    pub font: PhysFont,
    pub penalty: u32,
    pub reasons: Vec<(&'static str, u32)>,
}

/// The mapper's choice for `lf` (heights and widths in device pixels)
/// among the catalogue's fonts.
pub fn map(cat: &FontCatalogue, lf: &LogFont) -> PhysFont {
    best(cat, lf).font
}

/// The best-scoring candidate.
pub fn best(cat: &FontCatalogue, lf: &LogFont) -> Scored {
    let mut best: Option<Scored> = None;
    for f in &cat.fonts {
        let s = score(f, lf);
        if best.as_ref().is_none_or(|b| s.penalty < b.penalty) {
            best = Some(s);
        }
    }
    let mut s = best.unwrap_or_else(|| score(&cat.system(), lf));
    simulate(&mut s.font, lf);
    s
}

/// Apply GDI's simulations to the chosen font.
fn simulate(f: &mut PhysFont, lf: &LogFont) {
    let h = f.res.header();
    f.bold = lf.weight >= FW_SEMIBOLD as i16 && h.weight < FW_SEMIBOLD;
    f.italic = lf.italic != 0 && h.italic == 0;
    f.underline = lf.underline != 0 && h.underline == 0;
    f.strike_out = lf.strike_out != 0 && h.strike_out == 0;
}

fn eq_face(a: &[u8], b: &str) -> bool {
    a.eq_ignore_ascii_case(b.as_bytes())
}

/// Score font resource `f` against `lf`.
pub fn score(f: &Rc<FontResource>, lf: &LogFont) -> Scored {
    let h = f.header();
    let mut reasons: Vec<(&'static str, u32)> = Vec::new();
    let mut add = |what: &'static str, p: u32| {
        if p > 0 {
            reasons.push((what, p));
        }
    };

    if lf.char_set != DEFAULT_CHARSET && lf.char_set != h.char_set {
        add("CharSet", 65000);
    }
    if lf.out_precision == OUT_STROKE_PRECIS {
        add("OutputPrecision", 19000);
    }
    let variable = h.pitch_and_family & TMPF_VARIABLE != 0;
    match lf.pitch_and_family & 0x03 {
        FIXED_PITCH if variable => add("FixedPitch", 15000),
        VARIABLE_PITCH if !variable => add("PitchVariable", 350),
        DEFAULT_PITCH if !variable => add("DefaultPitchFixed", 1),
        _ => {}
    }
    if !lf.face.is_empty() && !eq_face(&lf.face, f.face()) {
        let subst = SUBSTITUTES
            .iter()
            .any(|(from, to)| eq_face(&lf.face, from) && to.eq_ignore_ascii_case(f.face()));
        if subst {
            add("FaceNameSubst", 500);
        } else {
            add("FaceName", 10000);
        }
    }
    let want_family = lf.pitch_and_family & 0xF0;
    let family = h.pitch_and_family & 0xF0;
    if want_family != FF_DONTCARE {
        if family == FF_DONTCARE {
            add("FamilyUnknown", 8000);
        } else if family != want_family {
            add("Family", 9000);
        }
        let plain = |f: u8| matches!(f, FF_ROMAN | FF_SWISS | FF_MODERN);
        let fancy = |f: u8| matches!(f, FF_SCRIPT | FF_DECORATIVE);
        if (plain(want_family) && fancy(family)) || (fancy(want_family) && plain(family)) {
            add("FamilyUnlikely", 50);
        }
    }

    // Height, and the vertical scale.
    let cell = i32::from(h.pix_height);
    let size = if lf.height < 0 {
        cell - i32::from(h.internal_leading)
    } else {
        cell
    }
    .max(1);
    let want = i32::from(lf.height).abs();
    let mut sy: u16 = 1;
    if want != 0 {
        sy = (want / size).clamp(1, i32::from(MAX_SCALE)) as u16;
        let got = size * i32::from(sy);
        if got > want {
            add("HeightBigger", 600);
            add("HeightBiggerDifference", 150 * (got - want) as u32);
        } else {
            add("HeightSmaller", 150 * (want - got) as u32);
        }
    }
    // Width, and the horizontal scale.
    let avg = i32::from(h.avg_width).max(1);
    let mut sx = sy;
    if lf.width != 0 {
        let w = i32::from(lf.width).abs();
        // The factor whose width is nearest; the smaller on a tie.
        let lo = (w / avg).clamp(1, i32::from(MAX_SCALE));
        let hi = (lo + 1).min(i32::from(MAX_SCALE));
        sx = if (hi * avg - w).abs() < (lo * avg - w).abs() {
            hi
        } else {
            lo
        } as u16;
        let got = avg * i32::from(sx);
        add("Width", 50 * (got - w).unsigned_abs());
    }
    if sx > 1 || sy > 1 {
        add("SizeSynth", 50);
    }
    if sx != sy {
        add("UnevenSizeSynth", 4);
    }
    if (lf.italic != 0) != (h.italic != 0) {
        add("Italic", 4);
    }
    if lf.weight != 0 {
        let d = (i32::from(lf.weight) - i32::from(h.weight)).unsigned_abs();
        add("Weight", 3 * (d / 10));
    }
    if lf.underline == 0 && h.underline != 0 {
        add("Underline", 3);
    }
    if lf.strike_out == 0 && h.strike_out != 0 {
        add("StrikeOut", 3);
    }

    let penalty = reasons.iter().map(|r| r.1).sum();
    let mut font = PhysFont::plain(f.clone());
    font.scale_x = sx;
    font.scale_y = sy;
    Scored {
        font,
        penalty,
        reasons,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::fnt::{FntFont, FntHeader};
    use super::*;
    use crate::loader::ne::ResourceId;

    /// A metrics-only font (no glyphs needed to map).
    fn face(
        name: &str,
        height: u16,
        il: u16,
        avg: u16,
        weight: u16,
        pf: u8,
        cs: u8,
    ) -> FontResource {
        let h = FntHeader {
            version: 0x0300,
            vert_res: 96,
            horiz_res: 96,
            pix_height: height,
            ascent: height * 4 / 5,
            internal_leading: il,
            avg_width: avg,
            max_width: avg * 2,
            weight,
            pitch_and_family: pf,
            char_set: cs,
            first_char: 32,
            last_char: 255,
            ..FntHeader::default()
        };
        FontResource {
            font: FntFont::from_parts(h, name, &[]),
            file: None,
            id: ResourceId::Int(1),
        }
    }

    /// Windows 3.1's VGA raster set as fonts-wine ships it (the heights,
    /// internal leadings, average widths, weights, pitch and family and
    /// charsets of vgasys, vgafix, vgaoem, sserife, coure, smalle).
    pub(crate) fn vga_catalogue() -> FontCatalogue {
        FontCatalogue::of(vec![
            face("System", 16, 3, 7, 700, 0x21, 0),
            face("Fixedsys", 15, 3, 8, 400, 0x30, 0),
            face("Terminal", 12, 1, 8, 400, 0x30, 255),
            face("MS Sans Serif", 13, 2, 5, 400, 0x21, 0),
            face("MS Sans Serif", 16, 3, 7, 400, 0x21, 0),
            face("MS Sans Serif", 20, 4, 8, 400, 0x21, 0),
            face("Courier", 13, 0, 8, 400, 0x30, 0),
            face("Small Fonts", 11, 2, 5, 400, 0x21, 0),
        ])
    }

    fn lf(face: &str, height: i16) -> LogFont {
        LogFont {
            height,
            face: face.as_bytes().to_vec(),
            ..LogFont::default()
        }
    }

    /// (request, face, cell height, scale, bold, the rule that decides).
    #[test]
    fn the_mapper_chooses_as_windows_31() {
        let cat = vga_catalogue();
        let bold = |mut l: LogFont| {
            l.weight = 700;
            l
        };
        let with = |mut l: LogFont, cs: u8, pf: u8| {
            l.char_set = cs;
            l.pitch_and_family = pf;
            l
        };
        let cases: Vec<(LogFont, &str, i16, u16, bool, &str)> = vec![
            // All zeros: no penalty anywhere for System, the first font.
            (
                LogFont::default(),
                "System",
                16,
                1,
                false,
                "ties go to the first font",
            ),
            // 8 point MS Sans Serif, as -MulDiv(8, 96, 72) = -11: character
            // height 13 - 2 = 11, exact.
            (
                lf("MS Sans Serif", -11),
                "MS Sans Serif",
                13,
                1,
                false,
                "character height",
            ),
            // Cell height 16 exact.
            (
                lf("MS Sans Serif", 16),
                "MS Sans Serif",
                16,
                1,
                false,
                "cell height",
            ),
            // 19: the nearest smaller size (16, 150 × 3 = 450) beats the
            // bigger one (20, 600 + 150 = 750).
            (
                lf("MS Sans Serif", 19),
                "MS Sans Serif",
                16,
                1,
                false,
                "round down",
            ),
            // 10: none smaller; the smallest bigger one, 13.
            (
                lf("MS Sans Serif", 10),
                "MS Sans Serif",
                13,
                1,
                false,
                "none smaller",
            ),
            // 40: twice 20 is exact (SizeSynth 50) against 20 unscaled
            // (150 × 20).
            (
                lf("MS Sans Serif", 40),
                "MS Sans Serif",
                40,
                2,
                false,
                "integer scaling",
            ),
            // Helv is MS Sans Serif's substitute (500) — cheaper than any
            // other face (10000).
            (
                lf("Helv", -11),
                "MS Sans Serif",
                13,
                1,
                false,
                "FaceNameSubst",
            ),
            // An unknown face, FF_MODERN and fixed pitch: Courier 13 or
            // Fixedsys 15 (both modern, fixed); asked 13, Courier exact.
            (
                with(lf("Courier New", 13), 0, FF_MODERN | FIXED_PITCH),
                "Courier",
                13,
                1,
                false,
                "family and pitch",
            ),
            // OEM_CHARSET: only Terminal has it (CharSet 65000 otherwise).
            (
                with(lf("", 12), 255, 0),
                "Terminal",
                12,
                1,
                false,
                "charset",
            ),
            // Terminal named with ANSI_CHARSET: the charset outweighs the
            // face; an ANSI font of height 12 or less... none, so the
            // smallest bigger: Small Fonts 11 is smaller (150), chosen.
            (
                with(lf("Terminal", 12), 0, 0),
                "Small Fonts",
                11,
                1,
                false,
                "charset over face",
            ),
            // Bold without a face: System is bold already (no Weight
            // penalty), MS Sans Serif 16 would pay 3 × 30.
            (bold(lf("", 16)), "System", 16, 1, false, "weight"),
            // Bold MS Sans Serif: the face wins, bold simulated.
            (
                bold(lf("MS Sans Serif", -11)),
                "MS Sans Serif",
                13,
                1,
                true,
                "simulation",
            ),
            // Fixed pitch without a face: Fixedsys (15) and Courier (13)
            // are fixed; 16 asked: Fixedsys is nearer (150 vs 450).
            (
                with(lf("", 16), 0, FIXED_PITCH),
                "Fixedsys",
                15,
                1,
                false,
                "FixedPitch",
            ),
            // A swiss family at 8 points without a face: MS Sans Serif 8
            // (exact) beats System (16, too big).
            (
                with(lf("Arial", -11), 0, FF_SWISS),
                "MS Sans Serif",
                13,
                1,
                false,
                "family",
            ),
        ];
        for (req, face, height, scale, bold, rule) in cases {
            let s = best(&cat, &req);
            let f = &s.font;
            assert_eq!(
                (f.face(), f.metrics().height, f.scale_y, f.bold),
                (face, height, scale, bold),
                "{rule}: {req:?} -> {:?}",
                s.reasons
            );
        }
    }

    #[test]
    fn widths_and_simulations() {
        let cat = vga_catalogue();
        // lfWidth 14 on System (average 7): across twice, down once.
        let mut l = lf("System", 16);
        l.width = 14;
        let s = best(&cat, &l);
        assert_eq!((s.font.scale_x, s.font.scale_y), (2, 1));
        assert!(s.reasons.iter().any(|r| r.0 == "UnevenSizeSynth"));
        assert_eq!(s.font.metrics().ave_char_width, 14);
        // Italic, underline and strike-out are simulated and reported.
        let mut l = lf("MS Sans Serif", 13);
        l.italic = 1;
        l.underline = 1;
        l.strike_out = 1;
        let f = map(&cat, &l);
        let tm = f.metrics();
        assert_eq!((tm.italic, tm.underlined, tm.struck_out), (1, 1, 1));
        assert_eq!(tm.overhang, (13 - 1) / 4);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Any LOGFONT maps to a font of the catalogue, scaled by a whole
        /// factor within the limit, and the best penalty is no more than
        /// any candidate's.
        #[test]
        fn any_logfont_maps(bytes in proptest::collection::vec(any::<u8>(), 50)) {
            let cat = vga_catalogue();
            let lf = LogFont::from_bytes(&bytes[..50].try_into().unwrap());
            let s = best(&cat, &lf);
            prop_assert!(cat.fonts.iter().any(|f| Rc::ptr_eq(f, &s.font.res)));
            prop_assert!((1..=MAX_SCALE).contains(&s.font.scale_x));
            prop_assert!((1..=MAX_SCALE).contains(&s.font.scale_y));
            for f in &cat.fonts {
                prop_assert!(s.penalty <= score(f, &lf).penalty);
            }
            let _ = s.font.metrics();
        }
    }
}
