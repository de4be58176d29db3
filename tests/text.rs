//! Text with Windows' raster fonts, through the GDI and USER functions:
//! roms/fonts.exe measuring and drawing in two fonts, and the text calls
//! made directly (as a program makes them) on a memory DC, each compared
//! with what the `.FON` files and the documented rules give. The fonts are
//! read by the test's own reader (tests/common/fnt.rs); the tests skip
//! loudly without Debian's fonts-wine.

mod common;

use common::fnt::{Fnt, u16at, wine_fonts, wrap};
use toolhelp16::machine::{Cpu, Machine, SegKind};
use toolhelp16::system::Env;
use toolhelp16::win16::api;
use toolhelp16::win16::gdi::font::{FontSearch, FontState};

/// The address of a public of a roms/ program's LINK map (`SEG:OFF`).
fn public(map: &str, name: &str) -> (u16, u16) {
    let text = std::fs::read_to_string(common::rom(map)).unwrap();
    for l in text.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() == 2 && f[1] == name {
            let (s, o) = f[0].split_once(':').unwrap();
            return (
                u16::from_str_radix(s, 16).unwrap(),
                u16::from_str_radix(o, 16).unwrap(),
            );
        }
    }
    panic!("{name} not in {map}");
}

fn w(b: &[u8], o: usize) -> i16 {
    i16::from_le_bytes([b[o], b[o + 1]])
}

/// The TEXTMETRIC a plain (unscaled) raster font gives (SDK, TEXTMETRIC,
/// from the font file's header: the default and break characters count
/// from dfFirstChar), with GDI's bold simulation when `bold` (weight
/// FW_BOLD, overhang 1: KB Q74298).
fn expected_tm(f: &Fnt, bold: bool) -> Vec<i16> {
    let h = f.height() as i16;
    let a = f.ascent() as i16;
    vec![
        h,
        a,
        h - a,
        f.internal_leading() as i16,
        f.external_leading() as i16,
        f.avg_width() as i16,
        f.max_width() as i16,
        if bold { 700 } else { f.weight() as i16 },
    ]
}

fn tm_words(b: &[u8]) -> Vec<i16> {
    (0..8).map(|i| w(b, i * 2)).collect()
}

/// roms/fonts.exe: the System font's metrics and extent are its file's;
/// "MS Sans Serif" asked at lfHeight -11 (8 points) is the 13-pixel font
/// (character height 13 - 2 = 11), emboldened; both strings are drawn
/// glyph for glyph; DrawText wraps its paragraph as the rule does;
/// EnumFonts and EnumFontFamilies call back once per face and per size;
/// a metafile's record is enumerated and played by the program.
#[test]
fn fonts_exe_measures_and_draws_in_two_fonts() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let ss = Fnt::load(&dir, "sserife.fon", 13);
    let sc = common::Scenario {
        name: "fonts".into(),
        file: "roms/fonts.exe".into(),
        at: String::new(),
        more: Vec::new(),
    };
    let (mut p, _) = {
        let p = toolhelp16::session::load(
            &common::root().join("roms/fonts.exe"),
            &common::scenario_options(&sc),
        )
        .unwrap();
        (p, ())
    };
    let (_, off) = public("fonts.map", "done_here");
    let stop = common::run_to(&mut p, &sc, &format!("FONTS:1:{off:04X}"));
    let ds = p.registers_at_stop(&stop).unwrap().ds;
    let mut d = vec![0u8; 0x500];
    p.machine.read_seg(ds, 0, &mut d).unwrap();

    // The System font (SYSTEM_FONT): TEXTMETRIC and "Hello".
    let tm1 = &d[0x10..0x10 + 31];
    assert_eq!(tm_words(tm1), expected_tm(&sys, false));
    assert_eq!(
        (tm1[19], tm1[20], tm1[21], tm1[22]),
        (
            sys.first(),
            sys.last(),
            sys.first().wrapping_add(sys.default_char()),
            sys.first().wrapping_add(sys.break_char())
        )
    );
    assert_eq!((tm1[23], tm1[24]), (sys.pitch_and_family(), sys.charset()));
    assert_eq!(
        (w(tm1, 25), w(tm1, 27), w(tm1, 29)),
        (0, sys.horiz_res() as i16, sys.vert_res() as i16)
    );
    let ext1 = u32::from_le_bytes(d[0x30..0x34].try_into().unwrap());
    assert_eq!(ext1 & 0xFFFF, sys.text_width(b"Hello") as u32);
    assert_eq!(ext1 >> 16, u32::from(sys.height()));

    // MS Sans Serif 8 point bold.
    let tm2 = &d[0x34..0x34 + 31];
    assert_eq!(tm_words(tm2), expected_tm(&ss, true));
    assert_eq!(w(tm2, 25), 1, "tmOverhang of simulated bold");
    let ext2 = u32::from_le_bytes(d[0x54..0x58].try_into().unwrap());
    assert_eq!(ext2 & 0xFFFF, ss.text_width(b"World") as u32 + 1);
    assert_eq!(ext2 >> 16, u32::from(ss.height()));
    let face: Vec<u8> = d[0x58..0x78]
        .iter()
        .take_while(|&&c| c != 0)
        .copied()
        .collect();
    assert_eq!(String::from_utf8(face).unwrap(), ss.face());
    assert_eq!(u16at(&d, 0x78) as usize, ss.face().len());
    for (i, c) in (b'A'..=b'E').enumerate() {
        assert_eq!(
            w(&d, 0x84 + i * 2) as i32,
            ss.width(c),
            "GetCharWidth {}",
            c as char
        );
    }

    // DrawText(DT_WORDBREAK | DT_CALCRECT) in a 60-pixel rectangle.
    let para = "The quick brown fox jumps over the lazy dog.";
    let lines = wrap(&ss, para, 60);
    assert!(lines.len() >= 3, "{lines:?}");
    let height = lines.len() as i16 * ss.height() as i16;
    assert_eq!(w(&d, 0x7A), height, "{lines:?}");
    // Several lines: the width stays, the bottom bounds the last line.
    assert_eq!(
        (w(&d, 0x7C), w(&d, 0x7E), w(&d, 0x80), w(&d, 0x82)),
        (0, 0, 60, height)
    );

    // EnumFonts: one call per face, the first the System font.
    let faces = {
        let cat = toolhelp16::win16::gdi::font::FontCatalogue::load(&FontSearch::standard(None));
        cat.faces().len()
    };
    assert_eq!(u16at(&d, 0x8E) as usize, faces);
    assert_eq!(
        u16at(&d, 0x90),
        1,
        "EnumFonts returns the callback's last value"
    );
    let lf = &d[0x96..0x96 + 50];
    assert_eq!((w(lf, 0), w(lf, 2), w(lf, 8)), (16, 7, 700));
    assert_eq!(&lf[18..25], b"System\0");
    assert_eq!(u16at(&d, 0x92), 1024, "GetBitmapBits");
    // EnumFontFamilies("MS Sans Serif"): each of its VGA sizes.
    let sizes: Vec<u16> =
        common::fnt::font_resources(&std::fs::read(dir.join("sserife.fon")).unwrap())
            .iter()
            .filter(|(_, f)| u16at(f, 70) == 96)
            .map(|(_, f)| u16at(f, 88))
            .collect();
    let n = u16at(&d, 0xC8) as usize;
    let got: Vec<u16> = (0..n.min(8)).map(|i| u16at(&d, 0xCA + 2 * i)).collect();
    assert_eq!(got, sizes, "EnumFontFamilies' lfHeights");
    assert_eq!(u16at(&d, 0xDA), 1);
    // EnumMetaFile: one record (the TEXTOUT), played by the callback.
    assert_eq!(u16at(&d, 0xDC), 1, "records enumerated");
    assert_eq!(u16at(&d, 0xDE), 1, "EnumMetaFile's result");
    assert_eq!(u16at(&d, 0x94), 1, "DeleteObject of the deselected font");

    // The pixels: black ink on white, the rest untouched.
    let mut want = vec![vec![true; 128]; 64];
    for (x, y) in sys.ink(b"Hello", 2, 2, false) {
        want[y as usize][x as usize] = false;
    }
    for (x, y) in ss.ink(b"World", 2, 24, true) {
        want[y as usize][x as usize] = false;
    }
    // The metafile's TextOut, played on the DC with its font of the
    // moment (the metafile selected none).
    for (x, y) in ss.ink(b"Meta", 2, 44, true) {
        want[y as usize][x as usize] = false;
    }
    let bits = &d[0x100..0x500];
    let mut bad = Vec::new();
    for (y, row) in want.iter().enumerate() {
        for (x, &white) in row.iter().enumerate() {
            let got = bits[y * 16 + x / 8] & (0x80 >> (x % 8)) != 0;
            if got != white {
                bad.push((x, y));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} pixels differ, first {:?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
    let ink = want.iter().flatten().filter(|&&b| !b).count();
    assert!(ink > 100, "both strings leave ink ({ink} pixels)");
}

// ---------------------------------------------------------------------
// The calls made directly on a memory DC.

const WHITENESS: u32 = 0x00FF_0062;

/// A machine, an environment, and a memory DC with a monochrome bitmap.
struct T {
    m: Machine,
    env: Env,
    data: u16,
    dc: u32,
    bm: u16,
    w: i32,
    h: i32,
}

impl T {
    fn new(w: i32, h: i32, fonts: Option<FontSearch>) -> T {
        let mut m = Machine::new_protected().unwrap();
        let data = m.alloc_segment(SegKind::Data, 0x4000, &[]).unwrap();
        let mut env = Env::new(false);
        if let Some(s) = fonts {
            env.win16.gdi.fonts = FontState::new(s);
        }
        let mut t = T {
            m,
            env,
            data,
            dc: 0,
            bm: 0,
            w,
            h,
        };
        t.dc = t.call("GDI", 52, &[0]);
        t.bm = t.call("GDI", 48, &[w as u32, h as u32, 1, 1, 0]) as u16;
        let (dc, bm) = (t.dc, u32::from(t.bm));
        t.call("GDI", 45, &[dc, bm]);
        t.call("GDI", 29, &[dc, 0, 0, w as u32, h as u32, WHITENESS]);
        t
    }

    fn call(&mut self, module: &str, ord: u16, args: &[u32]) -> u32 {
        let f = api::find(module, ord).unwrap_or_else(|| panic!("{module}.{ord}"));
        assert_eq!(f.args.len(), args.len(), "{} arguments", f.name);
        (f.func)(&mut self.env, &mut self.m, args).unwrap()
    }

    fn put(&mut self, off: u16, b: &[u8]) -> u32 {
        self.m.write_seg(self.data, off, b).unwrap();
        u32::from(self.data) << 16 | u32::from(off)
    }

    fn get(&mut self, off: u16, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        self.m.read_seg(self.data, off, &mut b).unwrap();
        b
    }

    /// The black pixels.
    fn black(&self) -> Vec<(i32, i32)> {
        let px = &self
            .env
            .win16
            .gdi
            .objects
            .bitmap(self.bm)
            .unwrap()
            .surface
            .px;
        let mut out = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if px[(y * self.w + x) as usize] == 0 {
                    out.push((x, y));
                }
            }
        }
        out
    }

    fn clear(&mut self) {
        let dc = self.dc;
        self.call(
            "GDI",
            29,
            &[dc, 0, 0, self.w as u32, self.h as u32, WHITENESS],
        );
    }

    fn text_out(&mut self, x: i32, y: i32, s: &[u8]) -> u32 {
        let p = self.put(0x100, s);
        let dc = self.dc;
        self.call(
            "GDI",
            33,
            &[dc, x as u16 as u32, y as u16 as u32, p, s.len() as u32],
        )
    }
}

/// The ink of `s` clipped to a w×h picture.
fn inside(v: Vec<(i32, i32)>, w: i32, h: i32) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = v
        .into_iter()
        .filter(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
        .collect();
    v.sort_by_key(|&(x, y)| (y, x));
    v
}

fn sorted(mut v: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    v.sort_by_key(|&(x, y)| (y, x));
    v
}

/// SetTextAlign: the reference point is the cell's left, right or centre
/// across and its top, bottom or baseline down (SDK, SetTextAlign); with
/// TA_UPDATECP the current position is used and moved past the string.
#[test]
fn text_alignment_and_the_current_position() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(96, 40, None);
    let dc = t.dc;
    let ext = sys.text_width(b"Hi");
    let cases: [(u16, i32, i32, i32, i32); 4] = [
        (0, 5, 3, 5, 3),                                          // TA_LEFT | TA_TOP
        (2 | 8, 90, 38, 90 - ext, 38 - 16),                       // TA_RIGHT | TA_BOTTOM
        (6 | 24, 48, 30, 48 - ext / 2, 30 - sys.ascent() as i32), // TA_CENTER | TA_BASELINE
        (2, 40, 0, 40 - ext, 0),                                  // TA_RIGHT
    ];
    for (align, x, y, left, top) in cases {
        t.clear();
        t.call("GDI", 346, &[dc, u32::from(align)]); // SetTextAlign
        t.text_out(x, y, b"Hi");
        assert_eq!(
            sorted(t.black()),
            inside(sys.ink(b"Hi", left, top, false), 96, 40),
            "align {align:#x}"
        );
    }
    // TA_UPDATECP: drawn at the current position, which moves by the
    // string's width.
    t.clear();
    t.call("GDI", 346, &[dc, 1]);
    t.call("GDI", 20, &[dc, 4, 6]); // MoveTo
    t.text_out(70, 70, b"Hi");
    t.text_out(70, 70, b"Hi");
    let mut want = sys.ink(b"Hi", 4, 6, false);
    want.extend(sys.ink(b"Hi", 4 + ext, 6, false));
    assert_eq!(sorted(t.black()), inside(want, 96, 40));
    let pos = t.call("GDI", 20, &[dc, 0, 0]); // MoveTo returns the old position
    assert_eq!(pos & 0xFFFF, (4 + 2 * ext) as u32);
}

/// OPAQUE mode fills the text's cell box (its extent × the cell height)
/// with the background colour; TRANSPARENT leaves it. ExtTextOut's
/// ETO_OPAQUE fills its rectangle, ETO_CLIPPED keeps the ink inside it,
/// and lpDx places each character.
#[test]
fn backgrounds_rectangles_and_spacing() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(64, 24, None);
    let dc = t.dc;
    // Black background, white text: the box is black except the ink.
    t.call("GDI", 1, &[dc, 0]); // SetBkColor(black)
    t.call("GDI", 9, &[dc, 0x00FF_FFFF]); // SetTextColor(white)
    t.text_out(2, 2, b"Ab");
    let ink = sys.ink(b"Ab", 2, 2, false);
    let ext = sys.text_width(b"Ab");
    let mut want = Vec::new();
    for y in 2..18 {
        for x in 2..2 + ext {
            if !ink.contains(&(x, y)) {
                want.push((x, y));
            }
        }
    }
    assert_eq!(sorted(t.black()), sorted(want));

    // TRANSPARENT, black text; ExtTextOut with lpDx 10 per character,
    // clipped to x < 15.
    t.clear();
    t.call("GDI", 2, &[dc, 1]); // SetBkMode(TRANSPARENT)
    t.call("GDI", 9, &[dc, 0]);
    let rect = t.put(0x200, &[0, 0, 0, 0, 15, 0, 24, 0]);
    let dx = t.put(0x210, &[10, 0, 10, 0, 10, 0]);
    let s = t.put(0x220, b"HHH");
    t.call("GDI", 351, &[dc, 0, 0, 4, rect, s, 3, dx]); // ETO_CLIPPED
    let mut want = sys.ink(b"H", 0, 0, false);
    want.extend(sys.ink(b"H", 10, 0, false));
    want.retain(|&(x, _)| x < 15);
    assert_eq!(sorted(t.black()), sorted(want));

    // ETO_OPAQUE with a black background: the rectangle is black.
    t.clear();
    t.call("GDI", 1, &[dc, 0]);
    let rect = t.put(0x200, &[40, 0, 4, 0, 50, 0, 8, 0]);
    t.call("GDI", 351, &[dc, 0, 0, 2, rect, s, 0, 0]);
    let want: Vec<(i32, i32)> = (4..8).flat_map(|y| (40..50).map(move |x| (x, y))).collect();
    assert_eq!(sorted(t.black()), sorted(want));
}

/// DrawText draws what its layout says: a centred single line, the
/// mnemonic's underline on the font's underline row, clipping to the
/// rectangle.
#[test]
fn drawtext_draws_its_lines() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(100, 40, None);
    let dc = t.dc;
    t.call("GDI", 2, &[dc, 1]); // TRANSPARENT
    // DT_SINGLELINE | DT_CENTER | DT_VCENTER in (0, 0, 100, 40).
    let r = t.put(0x200, &[0, 0, 0, 0, 100, 0, 40, 0]);
    let s = t.put(0x220, b"&File\0");
    let h = t.call("USER", 85, &[dc, s, 0xFFFF, r, 0x0020 | 0x0001 | 0x0004]);
    assert_eq!(h, 16);
    let wdt = sys.text_width(b"File");
    let (x0, y0) = ((100 - wdt) / 2, (40 - 16) / 2);
    let mut want = sys.ink(b"File", x0, y0, false);
    // The underline of F: the second row below the baseline, across F's
    // advance (gdi/font.rs, underline).
    let row = y0 + sys.ascent() as i32 + 1;
    for x in x0..x0 + sys.width(b'F') {
        want.push((x, row));
    }
    want.sort();
    want.dedup();
    assert_eq!(sorted(t.black()), sorted(want));

    // Clipped to a rectangle narrower than the text.
    t.clear();
    let r = t.put(0x200, &[0, 0, 0, 0, 20, 0, 40, 0]);
    let s = t.put(0x220, b"Wide text\0");
    t.call("USER", 85, &[dc, s, 0xFFFF, r, 0x0020]);
    let mut want = sys.ink(b"Wide text", 0, 0, false);
    want.retain(|&(x, _)| x < 20);
    assert_eq!(sorted(t.black()), sorted(want));
}

/// GrayString with no output function and no brush: the string's ink,
/// every other pixel of it (the gray brush's 50% checkerboard, aligned at
/// the string's corner), in the text colour.
#[test]
fn gray_string_keeps_every_other_pixel_of_the_ink() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(40, 24, None);
    let dc = t.dc;
    let s = t.put(0x220, b"Hi\0");
    assert_eq!(t.call("USER", 185, &[dc, 0, 0, s, 0, 4, 4, 0, 0]), 1);
    let mut want = sys.ink(b"Hi", 4, 4, false);
    want.retain(|&(x, y)| (x - 4 + y - 4) % 2 == 0);
    assert!(!want.is_empty());
    assert_eq!(sorted(t.black()), sorted(want));
}

/// The stock fonts are realised to their faces (gdi/text.rs, stock_font):
/// SYSTEM_FONT and DEVICE_DEFAULT_FONT the System font, SYSTEM_FIXED_FONT
/// Fixedsys, ANSI_FIXED_FONT Courier, ANSI_VAR_FONT MS Sans Serif, each
/// at its file's smallest VGA size.
#[test]
fn stock_fonts_are_their_faces() {
    let Some(dir) = wine_fonts() else { return };
    let mut t = T::new(8, 8, None);
    let dc = t.dc;
    for (index, file, face) in [
        (13, "vgasys.fon", "System"),
        (14, "vgasys.fon", "System"),
        (16, "vgafix.fon", "Fixedsys"),
        (11, "coure.fon", "Courier"),
        (12, "sserife.fon", "MS Sans Serif"),
    ] {
        let h = t.call("GDI", 87, &[index]);
        t.call("GDI", 45, &[dc, h]);
        let buf = t.put(0x500, &[0; 32]);
        let n = t.call("GDI", 92, &[dc, 32, buf]) as usize;
        assert_eq!(&t.get(0x500, n)[..], face.as_bytes(), "stock font {index}");
        let smallest = common::fnt::font_resources(&std::fs::read(dir.join(file)).unwrap())
            .iter()
            .filter(|(_, f)| u16at(f, 70) == 96)
            .map(|(_, f)| u16at(f, 88))
            .min()
            .unwrap();
        let tm = t.put(0x400, &[0; 32]);
        t.call("GDI", 93, &[dc, tm]);
        let tmb = t.get(0x400, 31);
        assert_eq!(w(&tmb, 0) as u16, smallest, "stock font {index}");
        // GetObject gives the realised font's LOGFONT, which maps back to
        // the same font, unscaled.
        let lfp = t.put(0x600, &[0; 50]);
        assert_eq!(t.call("GDI", 82, &[h, 50, lfp]), 50);
        let lf = t.get(0x600, 50);
        assert_eq!(
            (w(&lf, 0), w(&lf, 2)),
            (w(&tmb, 0), w(&tmb, 10)),
            "stock font {index}"
        );
        assert_eq!(&lf[18..18 + face.len()], face.as_bytes());
        let hf = t.call("GDI", 57, &[lfp]);
        t.call("GDI", 45, &[dc, hf]);
        t.call("GDI", 93, &[dc, tm]);
        assert_eq!(
            t.get(0x400, 31),
            tmb,
            "stock font {index} through its LOGFONT"
        );
        t.call("GDI", 45, &[dc, h]);
        t.call("GDI", 69, &[hf]);
    }
}

/// A font asked with lfUnderline and lfStrikeOut: GDI draws a line one
/// pixel high across the string's advance on the underline row (the
/// second row below the baseline) and on the strike-out row (a third of
/// the capitals' height above the baseline) — gdi/font.rs.
#[test]
fn underline_and_strike_out_lines() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(64, 20, None);
    let dc = t.dc;
    let face = t.put(0x300, b"System\0");
    // CreateFont(16, 0, 0, 0, FW_BOLD, 0, underline, strike-out, ...).
    let args = [16, 0, 0, 0, 700, 0, 1, 1, 0, 0, 0, 0, 0, face];
    let hf = t.call("GDI", 56, &args);
    t.call("GDI", 45, &[dc, hf]);
    t.call("GDI", 2, &[dc, 1]);
    t.text_out(1, 1, b"ab");
    let adv = sys.text_width(b"ab");
    let mut want = sys.ink(b"ab", 1, 1, false);
    let a = sys.ascent() as i32;
    let caps = a - sys.internal_leading() as i32;
    for row in [1 + a + 1, 1 + a - 1 - caps / 3] {
        for x in 1..1 + adv {
            want.push((x, row));
        }
    }
    want.sort();
    want.dedup();
    assert_eq!(sorted(t.black()), sorted(want));
}

/// AddFontResource takes a `.FON` of the program's directory (here the
/// corpus's vgaoem.fon, copied into a temporary sandbox): its Terminal
/// font then serves OEM_CHARSET requests; RemoveFontResource takes it
/// away again.
#[test]
fn add_font_resource_from_the_sandbox() {
    let Some(c) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("th16-addfont-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(c.join("ne/vgaoem.fon"), dir.join("VGAOEM.FON")).unwrap();
    let empty = dir.join("none");
    std::fs::create_dir_all(&empty).unwrap();
    let mut t = T::new(8, 8, Some(FontSearch::only(&[&empty])));
    t.env.drive = Some(toolhelp16::dos::fs::Drive::new(dir.clone()).unwrap());
    let dc = t.dc;
    let name = t.put(0x300, b"VGAOEM.FON\0");
    assert_eq!(t.call("GDI", 119, &[name]), 1, "one font added");
    // CreateFont(12, 0, ..., OEM_CHARSET, ..., NULL face).
    let args = [12, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0];
    let hf = t.call("GDI", 56, &args);
    t.call("GDI", 45, &[dc, hf]);
    let buf = t.put(0x500, &[0; 32]);
    let n = t.call("GDI", 92, &[dc, 32, buf]) as usize;
    assert_eq!(&t.get(0x500, n)[..], b"Terminal");
    assert_eq!(t.call("GDI", 136, &[name]), 1);
    assert_eq!(t.call("GDI", 136, &[name]), 0, "no longer added");
    let n = t.call("GDI", 92, &[dc, 32, buf]) as usize;
    assert_ne!(&t.get(0x500, n)[..], b"Terminal");
    let missing = t.put(0x340, b"NOSUCH.FON\0");
    assert_eq!(t.call("GDI", 119, &[missing]), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SetTextCharacterExtra adds its extra to every character's advance,
/// SetTextJustification spreads its extra over the break characters
/// (the first ones getting the remainder), in GetTextExtent and in
/// where TextOut puts each glyph (gdi/text.rs, "Measuring").
#[test]
fn character_extra_and_justification() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(120, 20, None);
    let dc = t.dc;
    let s = t.put(0x220, b"a b c");
    let base = sys.text_width(b"a b c") as u32;
    t.call("GDI", 8, &[dc, 2]); // SetTextCharacterExtra(2)
    assert_eq!(t.call("GDI", 91, &[dc, s, 5]) & 0xFFFF, base + 5 * 2);
    t.call("GDI", 8, &[dc, 0]);
    t.call("GDI", 10, &[dc, 7, 2]); // SetTextJustification(7, 2)
    assert_eq!(t.call("GDI", 91, &[dc, s, 5]) & 0xFFFF, base + 7);
    // Drawn: the first space 4 wider, the second 3.
    t.call("GDI", 2, &[dc, 1]);
    t.text_out(0, 0, b"a b c");
    let (wa, ws, wb) = (sys.width(b'a'), sys.width(b' '), sys.width(b'b'));
    let mut want = sys.ink(b"a", 0, 0, false);
    want.extend(sys.ink(b"b", wa + ws + 4, 0, false));
    want.extend(sys.ink(b"c", wa + ws + 4 + wb + ws + 3, 0, false));
    assert_eq!(sorted(t.black()), inside(want, 120, 20));
}

/// Tabs: GetTabbedTextExtent with no stops (every 8 average widths) and
/// with one (every that many pixels).
#[test]
fn tabbed_extents() {
    let Some(dir) = wine_fonts() else { return };
    let sys = Fnt::load(&dir, "vgasys.fon", 16);
    let mut t = T::new(8, 8, None);
    let dc = t.dc;
    let s = t.put(0x220, b"ab\tc");
    let e = t.call("USER", 197, &[dc, s, 4, 0, 0]);
    let stop = 8 * sys.avg_width() as i32;
    assert_eq!(e & 0xFFFF, (stop + sys.width(b'c')) as u32);
    assert_eq!(e >> 16, 16);
    let tabs = t.put(0x240, &[30, 0]);
    let e = t.call("USER", 197, &[dc, s, 4, 1, tabs]);
    let ab = sys.text_width(b"ab");
    let at = (ab / 30 + 1) * 30;
    assert_eq!(e & 0xFFFF, (at + sys.width(b'c')) as u32);
}

/// The mapping mode converts heights: in MM_LOENGLISH (0.01 inch, the
/// VGA's VERTSIZE over VERTRES) a font asked at lfHeight -11 (8 points)
/// is MulDiv'd to device pixels, a character height too small for any MS
/// Sans Serif, so the mapper takes its smallest (13 pixels: HeightBigger
/// costs less than another face); the metrics come back in logical units,
/// as DPtoLP converts the device distances.
#[test]
fn heights_go_through_the_mapping_mode() {
    let Some(dir) = wine_fonts() else { return };
    let ss = Fnt::load(&dir, "sserife.fon", 13);
    let mut t = T::new(8, 8, None);
    let dc = t.dc;
    t.call("GDI", 3, &[dc, 4]); // SetMapMode(MM_LOENGLISH)
    let face = t.put(0x300, b"MS Sans Serif\0");
    let args = [
        (-11i16) as u16 as u32,
        0,
        0,
        0,
        400,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        face,
    ];
    let hf = t.call("GDI", 56, &args);
    t.call("GDI", 45, &[dc, hf]);
    let tm = t.put(0x400, &[0; 32]);
    assert_eq!(t.call("GDI", 93, &[dc, tm]), 1);
    let b = t.get(0x400, 31);
    // DPtoLP of (0, 0) and (avg, height) in device pixels.
    let pts = t.put(
        0x600,
        &[0, 0, 0, 0, ss.avg_width() as u8, 0, ss.height() as u8, 0],
    );
    t.call("GDI", 67, &[dc, pts, 2]);
    let p = t.get(0x600, 8);
    let (lw, lh) = ((w(&p, 4) - w(&p, 0)).abs(), (w(&p, 6) - w(&p, 2)).abs());
    assert_eq!((w(&b, 0), w(&b, 10)), (lh, lw), "tmHeight, tmAveCharWidth");
    assert!(
        lh > ss.height() as i16,
        "hundredths of an inch are smaller than VGA pixels"
    );
    let buf = t.put(0x500, &[0; 32]);
    let n = t.call("GDI", 92, &[dc, 32, buf]);
    assert_eq!(n as usize, ss.face().len());
    assert_eq!(
        &t.get(0x500, n as usize + 1)[..],
        format!("{}\0", ss.face()).as_bytes()
    );
}

/// Without any font file GetTextMetrics still answers, with the VGA
/// System font's documented metrics (Petzold, Programming Windows 3.1,
/// figure 2-3), and the catalogue says so in a warning.
#[test]
fn without_font_files_the_system_metrics_are_documented_ones() {
    let empty = std::env::temp_dir().join(format!("th16-nofonts-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let mut t = T::new(8, 8, Some(FontSearch::only(&[&empty])));
    let dc = t.dc;
    let tm = t.put(0x400, &[0; 32]);
    assert_eq!(t.call("GDI", 93, &[dc, tm]), 1);
    let b = t.get(0x400, 31);
    assert_eq!(
        tm_words(&b),
        vec![16, 13, 3, 3, 0, 7, 14, 700],
        "height, ascent, descent, internal and external leading, average and maximum width, weight"
    );
    let warnings = t.env.win16.gdi.fonts.take_warnings().join("\n");
    assert!(warnings.contains("no System font file"), "{warnings}");
    let _ = std::fs::remove_dir_all(&empty);
}

/// The CLI says it too: fonts.exe runs to its end with TOOLHELP16_FONTS
/// empty (no font directory at all), and stderr carries the warning.
#[test]
fn the_cli_warns_when_it_has_no_fonts() {
    let out = common::bin()
        .env("TOOLHELP16_FONTS", "")
        .args(["run"])
        .arg(common::rom("fonts.exe"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("no System font file"), "{err}");
}
