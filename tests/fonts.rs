//! Real Windows raster fonts: Debian's fonts-wine `.FON` files and the
//! corpus's vgaoem.fon. Each expectation is read from the file by this
//! test's own small reader of the SDK's layouts (NE resource table, FNT
//! header, column-major glyph bits), then compared with what the library
//! parsed. Skips loudly without the files.

mod common;

use std::path::{Path, PathBuf};

use toolhelp16::win16::gdi::font::{self, FontCatalogue, FontSearch, PhysFont};

/// The FONT resources of a file: (resource id, bytes), read with nothing
/// but the NE header's e_lfanew, ne_rsrctab and the table's layout.
fn font_resources(file: &[u8]) -> Vec<(u16, Vec<u8>)> {
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

fn wine_fonts() -> Option<PathBuf> {
    let p = PathBuf::from(font::WINE_FONTS);
    if p.join("vgasys.fon").is_file() {
        Some(p)
    } else {
        common::need::tool_missing(
            &format!("{}/vgasys.fon", p.display()),
            "Debian package fonts-wine; ./x test installs it",
        );
        None
    }
}

fn u16at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}

/// Compare every header field and every glyph bit of every FONT resource
/// of `path` with the library's reading.
fn check_file(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let fon = font::read_fon(path).unwrap_or_else(|e| panic!("{e}"));
    let raw = font_resources(&bytes);
    assert_eq!(fon.fonts.len(), raw.len(), "{}", path.display());
    for (f, (id, d)) in fon.fonts.iter().zip(&raw) {
        let name = format!("{} font {id}", path.display());
        let h = f.header();
        assert_eq!(h.version, u16at(d, 0), "{name}");
        assert_eq!(h.points, u16at(d, 68), "{name}");
        assert_eq!(h.vert_res, u16at(d, 70), "{name}");
        assert_eq!(h.ascent, u16at(d, 74), "{name}");
        assert_eq!(h.internal_leading, u16at(d, 76), "{name}");
        assert_eq!(h.weight, u16at(d, 83), "{name}");
        assert_eq!(h.char_set, d[85], "{name}");
        assert_eq!(h.pix_height, u16at(d, 88), "{name}");
        assert_eq!(h.pitch_and_family, d[90], "{name}");
        assert_eq!((h.avg_width, h.max_width), (u16at(d, 91), u16at(d, 93)));
        assert_eq!((h.first_char, h.last_char), (d[95], d[96]), "{name}");
        let face_at = u32::from_le_bytes(d[105..109].try_into().unwrap()) as usize;
        let face: Vec<u8> = d[face_at..]
            .iter()
            .take_while(|&&c| c != 0)
            .copied()
            .collect();
        assert_eq!(f.face().as_bytes(), &face[..], "{name}");
        // Glyphs: the table after the 118- or 148-byte header.
        let (table, entry) = if h.version == 0x0300 {
            (148, 6)
        } else {
            (118, 4)
        };
        let rows = h.pix_height as usize;
        let mut maxw = 0;
        for (i, ch) in (h.first_char..=h.last_char).enumerate() {
            let e = table + i * entry;
            let width = u16at(d, e) as usize;
            let off = if entry == 6 {
                u32::from_le_bytes(d[e + 2..e + 6].try_into().unwrap()) as usize
            } else {
                u16at(d, e + 2) as usize
            };
            maxw = maxw.max(width);
            let g = f.font.glyph(ch);
            assert_eq!(g.width as usize, width, "{name} char {ch}");
            for y in 0..rows {
                for x in 0..width {
                    let byte = d[off + (x / 8) * rows + y];
                    let want = byte & (0x80 >> (x % 8)) != 0;
                    assert_eq!(
                        g.pixel(x as u32, y as u32),
                        want,
                        "{name} char {ch} ({x},{y})"
                    );
                }
            }
        }
        // dfMaxWidth is at least the widest glyph (more in the Far East
        // fonts, whose double-byte characters are twice as wide).
        assert!(usize::from(h.max_width) >= maxw, "{name}");
    }
    fon.fonts.len()
}

#[test]
fn every_wine_font_file_parses_bit_for_bit() {
    let Some(dir) = wine_fonts() else { return };
    let mut files = 0;
    let mut fonts = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("fon")) {
            fonts += check_file(&p);
            files += 1;
        }
    }
    assert!(files >= 8 && fonts >= files, "{files} files, {fonts} fonts");
}

#[test]
fn corpus_vgaoem_is_terminal_in_the_oem_charset() {
    let Some(c) = common::corpus() else { return };
    let p = c.join("ne/vgaoem.fon");
    assert_eq!(check_file(&p), 1);
    let fon = font::read_fon(&p).unwrap();
    let f = &fon.fonts[0];
    // A version 2.00 font (2-byte glyph offsets), as Windows 3.1 still
    // shipped for the OEM font.
    assert_eq!(f.header().version, 0x0200);
    assert_eq!(f.face(), "Terminal");
    assert_eq!(f.header().char_set, font::OEM_CHARSET);
    assert_eq!(f.header().vert_res, 96);
    // Its FONTDIR names the same font.
    assert_eq!(fon.directory.len(), 1);
    assert_eq!(fon.directory[0].face, "Terminal");
    assert_eq!(fon.directory[0].pix_height, f.header().pix_height);
}

#[test]
fn the_catalogue_takes_the_vga_fonts_of_the_windows_31_files() {
    let Some(dir) = wine_fonts() else { return };
    let cat = FontCatalogue::load(&FontSearch::only(&[&dir]));
    // Every font taken is a 96-dpi one, and the files that exist in
    // fonts-wine give their faces.
    assert!(cat.fonts.iter().all(|f| f.header().vert_res == 96));
    let faces = cat.faces();
    for want in [
        "System",
        "Fixedsys",
        "MS Sans Serif",
        "Courier",
        "Small Fonts",
    ] {
        assert!(
            faces.iter().any(|f| f == want),
            "{want} missing from {faces:?}"
        );
    }
    // sseriff.fon (120 dpi) is not one of the files; sserife.fon's three
    // sizes are all VGA ones.
    let ss: Vec<u16> = cat
        .fonts
        .iter()
        .filter(|f| f.face() == "MS Sans Serif")
        .map(|f| f.header().pix_height)
        .collect();
    let expect: Vec<u16> = font_resources(&std::fs::read(dir.join("sserife.fon")).unwrap())
        .iter()
        .filter(|(_, d)| u16at(d, 70) == 96)
        .map(|(_, d)| u16at(d, 88))
        .collect();
    assert_eq!(ss, expect);
    // fonts-wine lacks vgaoem.fon (Terminal), serife.fon (MS Serif) and
    // symbole.fon: each face is listed as absent, with a warning naming
    // its file for when a program asks for it; nothing is said before.
    let w = cat.warnings.join("\n");
    for (f, face) in [
        ("vgaoem.fon", "Terminal"),
        ("serife.fon", "MS Serif"),
        ("symbole.fon", "Symbol"),
    ] {
        assert!(!w.contains(f), "{w}");
        if !dir.join(f).exists() {
            let said = cat.absent.iter().find(|(x, _)| x == face);
            assert!(said.is_some_and(|(_, t)| t.contains(f)), "{:?}", cat.absent);
        }
    }
    assert!(
        !cat.fonts[0].is_builtin(),
        "the System font came from vgasys.fon"
    );
    // The System font's TEXTMETRIC is its header's.
    let sys = PhysFont::plain(cat.system());
    let d = &font_resources(&std::fs::read(dir.join("vgasys.fon")).unwrap())[0].1;
    let tm = sys.metrics();
    assert_eq!(tm.height as u16, u16at(d, 88));
    assert_eq!(tm.ascent as u16, u16at(d, 74));
    assert_eq!(tm.internal_leading as u16, u16at(d, 76));
    assert_eq!(tm.ave_char_width as u16, u16at(d, 91));
    assert_eq!(tm.default_char, d[95].wrapping_add(d[97]));
}

#[test]
fn a_font_directory_given_first_wins() {
    let Some(wine) = wine_fonts() else { return };
    let Some(c) = common::corpus() else { return };
    // The corpus's ne/ directory holds vgaoem.fon, which fonts-wine lacks:
    // with both on the search path the catalogue has Terminal too.
    let cat = FontCatalogue::load(&FontSearch::only(&[&c.join("ne"), &wine]));
    assert!(cat.faces().iter().any(|f| f == "Terminal"));
    assert!(!cat.warnings.join("\n").contains("vgaoem.fon"));
}

/// The font mapper on the real catalogue (gdi/fontmap.rs states the
/// penalty table each choice follows).
#[test]
fn the_mapper_on_the_fonts_wine_catalogue() {
    use toolhelp16::win16::gdi::font::LogFont;
    use toolhelp16::win16::gdi::fontmap;
    let Some(dir) = wine_fonts() else { return };
    let cat = FontCatalogue::load(&FontSearch::only(&[&dir]));
    let lf = |face: &str, height: i16, pf: u8| LogFont {
        height,
        pitch_and_family: pf,
        face: face.as_bytes().to_vec(),
        ..LogFont::default()
    };
    let cases = [
        // Nothing asked: ties go to the first font, System.
        (lf("", 0, 0), "System", 16, 1),
        // 8 points: character height 11 = MS Sans Serif's 13 - 2.
        (lf("MS Sans Serif", -11, 0), "MS Sans Serif", 13, 1),
        // 19: the nearest smaller size.
        (lf("MS Sans Serif", 19, 0), "MS Sans Serif", 16, 1),
        // 40: twice the 20-pixel font (whole-number scaling).
        (lf("MS Sans Serif", 40, 0), "MS Sans Serif", 40, 2),
        // Helv is MS Sans Serif's substitute.
        (lf("Helv", 13, 0), "MS Sans Serif", 13, 1),
        // Fixed pitch, no face, 16: Fixedsys (15) is the nearest smaller.
        (lf("", 16, 1), "Fixedsys", 15, 1),
        // Courier by name.
        (lf("Courier", 13, 0), "Courier", 13, 1),
        // Tiny: Small Fonts' 11 beats every bigger font.
        (lf("Small Fonts", -9, 0), "Small Fonts", 11, 1),
    ];
    for (req, face, height, scale) in cases {
        let f = fontmap::map(&cat, &req);
        assert_eq!(
            (f.face(), f.height(), f.scale_y),
            (face, height, scale),
            "{req:?}"
        );
    }
}

/// A missing standard font file is said only when a program asks for its
/// face, and once however often it asks (issue 31, Why 7); `--quiet`
/// says nothing; a program that asks for no such face hears nothing.
#[test]
fn a_missing_face_is_warned_about_once_when_asked_for() {
    let Some(wine) = wine_fonts() else {
        return;
    };
    // fonts-wine's files but the Terminal face's (vgaoem.fon, which some
    // releases of fonts-wine ship and some do not).
    let dir = common::scratch("fonts-no-vgaoem");
    for e in std::fs::read_dir(&wine).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "vgaoem.fon" {
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
    let Some(exe) = common::watcom::win16("fontwarn") else {
        return;
    };
    let run = |quiet: bool| {
        let mut c = common::bin();
        c.arg("run");
        if quiet {
            c.arg("--quiet");
        }
        let out = c.arg(&exe).env("TOOLHELP16_FONTS", &dir).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run(false);
    assert_eq!(err.matches("vgaoem.fon").count(), 1, "{err}");
    assert!(err.contains("the Terminal face"), "{err}");
    assert!(
        !err.contains("serife.fon") && !err.contains("symbole.fon"),
        "{err}"
    );
    assert!(!run(true).contains("warning"));
    let out = common::bin()
        .arg("run")
        .arg(common::rom("winmsg.exe"))
        .env("TOOLHELP16_FONTS", &dir)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}

/// `info` describes a resource-only module, a .FON above all, instead of
/// refusing it: its resources listed, and that nothing in it runs
/// (issue 31, Why 7).
#[test]
fn info_describes_a_font_file() {
    let out = common::bin()
        .arg("info")
        .arg(common::rom("resonly.dll"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("no segments: a resource-only module; nothing in it runs"),
        "{text}"
    );
    assert!(text.contains("STRING"), "{text}");
    let Some(wine) = wine_fonts() else {
        return;
    };
    let fon = wine.join("vgasys.fon");
    let out = common::bin().arg("info").arg(fon).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("a font file"), "{text}");
    assert!(text.contains("FONT: "), "{text}");
}
