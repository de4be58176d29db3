//! GDI drawing pixel by pixel: each primitive, pen, brush, mapping mode,
//! ROP and conversion drawn into a small bitmap through the GDI functions
//! themselves (called as a program calls them, arguments and all), and
//! compared with the picture Windows' rules give. The expected pictures
//! are derived by hand from the rules each test cites (the rules are
//! stated in the doc comments of src/win16/gdi/*.rs); monochrome pictures
//! show black as `#` and white as `.`, VGA pictures each pixel's driver
//! colour index in hex.

use toolhelp16::machine::{Cpu, Machine, SegKind};
use toolhelp16::system::Env;
use toolhelp16::win16::api;

/// Stock object indices.
const BLACK_BRUSH: u32 = 4;
const NULL_BRUSH: u32 = 5;
const WHITE_PEN: u32 = 6;
const NULL_PEN: u32 = 8;
const WHITENESS: u32 = 0x00FF_0062;
const BLACKNESS: u32 = 0x0000_0042;
const PATCOPY: u32 = 0x00F0_0021;
const SRCCOPY: u32 = 0x00CC_0020;

/// A machine, an environment and a memory DC with a bitmap selected.
struct T {
    m: Machine,
    env: Env,
    /// A data segment for the structures the calls point at.
    data: u16,
    dc: u16,
    bm: u16,
    w: i32,
    h: i32,
}

fn rgb(r: u8, g: u8, b: u8) -> u32 {
    u32::from(r) | u32::from(g) << 8 | u32::from(b) << 16
}

impl T {
    /// A `w`×`h` bitmap, monochrome or of the VGA's format, made white.
    fn new(w: i32, h: i32, mono: bool) -> T {
        let mut m = Machine::new_protected().unwrap();
        let data = m.alloc_segment(SegKind::Data, 0x4000, &[]).unwrap();
        let env = Env::new(false);
        let mut t = T {
            m,
            env,
            data,
            dc: 0,
            bm: 0,
            w,
            h,
        };
        t.dc = t.gdi(52, &[0]) as u16; // CreateCompatibleDC(NULL)
        t.bm = if mono {
            t.gdi(48, &[w as u32, h as u32, 1, 1, 0]) // CreateBitmap
        } else {
            t.gdi(48, &[w as u32, h as u32, 4, 1, 0])
        } as u16;
        assert_ne!(
            t.gdi(45, &[t.dc.into(), t.bm.into()]),
            0,
            "SelectObject bitmap"
        );
        t.blt(WHITENESS);
        t
    }

    fn call(&mut self, module: &str, ord: u16, args: &[u32]) -> u32 {
        let f = api::find(module, ord).unwrap_or_else(|| panic!("{module}.{ord}"));
        assert_eq!(f.args.len(), args.len(), "{} arguments", f.name);
        (f.func)(&mut self.env, &mut self.m, args).unwrap()
    }

    fn gdi(&mut self, ord: u16, args: &[u32]) -> u32 {
        self.call("GDI", ord, args)
    }

    fn dcw(&self) -> u32 {
        u32::from(self.dc)
    }

    /// PatBlt over the whole bitmap.
    fn blt(&mut self, rop: u32) {
        let dc = self.dcw();
        self.gdi(29, &[dc, 0, 0, self.w as u32, self.h as u32, rop]);
    }

    /// Put bytes in the data segment at `off`: their far pointer.
    fn put(&mut self, off: u16, b: &[u8]) -> u32 {
        self.m.write_seg(self.data, off, b).unwrap();
        u32::from(self.data) << 16 | u32::from(off)
    }

    /// POINTs at `off`.
    fn points(&mut self, off: u16, pts: &[(i16, i16)]) -> u32 {
        let b: Vec<u8> = pts
            .iter()
            .flat_map(|&(x, y)| [x.to_le_bytes(), y.to_le_bytes()].concat())
            .collect();
        self.put(off, &b)
    }

    fn select(&mut self, h: u32) -> u32 {
        let dc = self.dcw();
        self.gdi(45, &[dc, h])
    }

    fn stock(&mut self, i: u32) -> u32 {
        self.gdi(87, &[i])
    }

    /// The bitmap's pixels.
    fn px(&self) -> Vec<u32> {
        self.env
            .win16
            .gdi
            .objects
            .bitmap(self.bm)
            .unwrap()
            .surface
            .px
            .clone()
    }

    /// The monochrome picture.
    fn art(&self) -> Vec<String> {
        let px = self.px();
        (0..self.h)
            .map(|y| {
                (0..self.w)
                    .map(|x| match px[(y * self.w + x) as usize] {
                        0 => '#',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The VGA picture (hex digits).
    fn hex(&self) -> Vec<String> {
        let px = self.px();
        (0..self.h)
            .map(|y| {
                (0..self.w)
                    .map(|x| {
                        char::from_digit(px[(y * self.w + x) as usize], 16)
                            .unwrap()
                            .to_ascii_uppercase()
                    })
                    .collect()
            })
            .collect()
    }

    fn pixel(&self, x: i32, y: i32) -> u32 {
        self.px()[(y * self.w + x) as usize]
    }
}

/// Rectangle: the box is left..right−1 × top..bottom−1 (SDK, Rectangle;
/// DDK, Output(OS_RECTANGLE)); a one-pixel pen draws its outer ring and the
/// brush fills inside; with a null pen the filled figure is one pixel
/// narrower and shorter.
#[test]
fn rectangle_with_pen_and_without() {
    let mut t = T::new(10, 6, true);
    let dc = t.dcw();
    t.gdi(27, &[dc, 1, 1, 6, 5]);
    let np = t.stock(NULL_PEN);
    t.select(np);
    let bb = t.stock(BLACK_BRUSH);
    t.select(bb);
    t.gdi(27, &[dc, 7, 1, 10, 5]);
    assert_eq!(
        t.art(),
        [
            "..........",
            ".#####.##.",
            ".#...#.##.",
            ".#...#.##.",
            ".#####....",
            "..........",
        ]
    );
}

/// Wide pens: width 3 is centred on the border (one pixel out, one in:
/// KB Q111600's split), PS_INSIDEFRAME keeps all three inside the box;
/// the brush fills inside the ring.
#[test]
fn rectangle_wide_and_insideframe_pens() {
    let mut t = T::new(14, 13, true);
    let dc = t.dcw();
    let pen = t.gdi(61, &[0, 3, 0]); // CreatePen(PS_SOLID, 3, black)
    t.select(pen);
    t.gdi(27, &[dc, 3, 2, 11, 9]);
    assert_eq!(
        t.art(),
        [
            "..............",
            "..##########..",
            "..##########..",
            "..##########..",
            "..###....###..",
            "..###....###..",
            "..###....###..",
            "..##########..",
            "..##########..",
            "..##########..",
            "..............",
            "..............",
            "..............",
        ]
    );
    let mut t = T::new(14, 12, true);
    let dc = t.dcw();
    let pen = t.gdi(61, &[6, 3, 0]); // PS_INSIDEFRAME, 3
    t.select(pen);
    t.gdi(27, &[dc, 3, 2, 11, 10]);
    assert_eq!(
        t.art(),
        [
            "..............",
            "..............",
            "...########...",
            "...########...",
            "...########...",
            "...###..###...",
            "...###..###...",
            "...########...",
            "...########...",
            "...########...",
            "..............",
            "..............",
        ]
    );
}

/// Ellipse in the box 0..8 × 0..6: the midpoint rule (shapes.rs): rows
/// near the top take the columns whose nearest row to the curve is at or
/// above them, the steep rows the nearest column. With a = 4, b = 3:
/// row 0 spans 2..6, row 1 1..7, rows 2..4 0..8. The one-pixel border is
/// the shape's pixels with a 4-neighbour outside it. With a null pen the
/// figure of the box 0..7 × 0..5 is filled.
#[test]
fn ellipse_pixels() {
    let mut t = T::new(9, 7, true);
    let dc = t.dcw();
    t.gdi(24, &[dc, 0, 0, 9, 7]);
    assert_eq!(
        t.art(),
        [
            "..#####..",
            ".#.....#.",
            "#.......#",
            "#.......#",
            "#.......#",
            ".#.....#.",
            "..#####..",
        ]
    );
    let mut t = T::new(9, 7, true);
    let dc = t.dcw();
    let np = t.stock(NULL_PEN);
    t.select(np);
    let bb = t.stock(BLACK_BRUSH);
    t.select(bb);
    t.gdi(24, &[dc, 0, 0, 9, 7]);
    assert_eq!(
        t.art(),
        [
            "..####...",
            ".######..",
            "########.",
            "########.",
            ".######..",
            "..####...",
            ".........",
        ]
    );
}

/// RoundRect: the box with each corner a quarter of the corner ellipse
/// (5×5: the circle whose rows are .###. / ##### …).
#[test]
fn round_rect_pixels() {
    let mut t = T::new(9, 7, true);
    let dc = t.dcw();
    t.gdi(28, &[dc, 1, 1, 8, 7, 5, 5]);
    assert_eq!(
        t.art(),
        [
            ".........",
            "..#####..",
            ".#.....#.",
            ".#.....#.",
            ".#.....#.",
            ".#.....#.",
            "..#####..",
        ]
    );
}

/// Polygon: a pixel is in when its integer centre is inside, edges
/// half-open (the triangle (0,0) (6,0) (0,6) fills row y from 0 to 6 − y,
/// excluded); the border is the closed polyline, each segment without its
/// last point.
#[test]
fn polygon_fill_and_border() {
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    let np = t.stock(NULL_PEN);
    t.select(np);
    let bb = t.stock(BLACK_BRUSH);
    t.select(bb);
    let p = t.points(0, &[(0, 0), (6, 0), (0, 6)]);
    t.gdi(36, &[dc, p, 3]);
    assert_eq!(
        t.art(),
        [
            "######..", "#####...", "####....", "###.....", "##......", "#.......", "........",
            "........",
        ]
    );
    // The same triangle's border alone.
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    let nb = t.stock(NULL_BRUSH);
    t.select(nb);
    let p = t.points(0, &[(0, 0), (6, 0), (0, 6)]);
    t.gdi(36, &[dc, p, 3]);
    assert_eq!(
        t.art(),
        [
            "#######.", "#....#..", "#...#...", "#..#....", "#.#.....", "##......", "#.......",
            "........",
        ]
    );
}

/// ALTERNATE fills by odd crossings, WINDING by a non-zero winding number:
/// two nested squares drawn the same way round leave a hole only in
/// ALTERNATE mode.
#[test]
fn polygon_fill_modes() {
    for (mode, hole) in [(1u32, true), (2, false)] {
        let mut t = T::new(8, 8, true);
        let dc = t.dcw();
        let np = t.stock(NULL_PEN);
        t.select(np);
        let bb = t.stock(BLACK_BRUSH);
        t.select(bb);
        t.gdi(6, &[dc, mode]); // SetPolyFillMode
        let p = t.points(
            0,
            &[
                (0, 0),
                (8, 0),
                (8, 8),
                (0, 8),
                (2, 2),
                (6, 2),
                (6, 6),
                (2, 6),
            ],
        );
        let counts = t.put(0x100, &[4, 0, 4, 0]);
        t.gdi(450, &[dc, p, counts, 2]); // PolyPolygon
        assert_eq!(t.pixel(4, 4) != 0, hole, "mode {mode}");
        assert_eq!(t.pixel(1, 1), 0);
        assert_eq!(t.pixel(7, 7), 0);
    }
}

/// Lines exclude their end point; a tie (y exactly half way) stays on the
/// start's row; LineTo moves the current position.
#[test]
fn line_pixels_and_current_position() {
    let mut t = T::new(6, 3, true);
    let dc = t.dcw();
    t.gdi(20, &[dc, 0, 0]); // MoveTo
    t.gdi(19, &[dc, 4, 1]); // LineTo
    t.gdi(19, &[dc, 4, 2]);
    assert_eq!(t.art(), ["###...", "...##.", "......"]);
    assert_eq!(t.gdi(78, &[dc]), 4 | 2 << 16); // GetCurrentPosition
}

/// PS_DASH along a horizontal line: 6 bits on, 2 off, a bit every 102
/// units at 36 a pixel (lines.rs): 17 pixels on, 6 off, then on again.
#[test]
fn dashed_pen_follows_the_style_dda() {
    let mut t = T::new(32, 1, true);
    let dc = t.dcw();
    t.blt(BLACKNESS);
    t.gdi(2, &[dc, 1]); // TRANSPARENT: the gaps keep the black
    let wp = t.gdi(61, &[1, 1, rgb(255, 255, 255)]); // white PS_DASH
    t.select(wp);
    t.gdi(20, &[dc, 0, 0]);
    t.gdi(19, &[dc, 30, 0]);
    assert_eq!(t.art(), [".................######.......##"]);
    // OPAQUE: the gaps in the background colour (white here too).
    t.blt(BLACKNESS);
    t.gdi(2, &[dc, 2]);
    t.gdi(20, &[dc, 0, 0]);
    t.gdi(19, &[dc, 30, 0]);
    assert_eq!(t.art(), ["..............................##"]);
}

/// All 256 ternary raster operations: pattern 11110000 (a pattern brush),
/// source 11001100, destination 10101010 give the operation's own code
/// (raster.rs), through BitBlt on monochrome bitmaps.
#[test]
fn every_rop3_through_bitblt() {
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    // The pattern: every row 11110000 (1 = white).
    let pat_bits = t.put(
        0x200,
        &[
            0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0,
        ],
    );
    let pbm = t.gdi(48, &[8, 8, 1, 1, pat_bits]);
    let brush = t.gdi(60, &[pbm]); // CreatePatternBrush
    t.select(brush);
    // The source: a second memory DC with rows 11001100.
    let sdc = t.gdi(52, &[0]);
    let src_bits = t.put(
        0x300,
        &[
            0xCC, 0, 0xCC, 0, 0xCC, 0, 0xCC, 0, 0xCC, 0, 0xCC, 0, 0xCC, 0, 0xCC, 0,
        ],
    );
    let sbm = t.gdi(48, &[8, 8, 1, 1, src_bits]);
    t.gdi(45, &[sdc, sbm]);
    let dst_bits = t.put(
        0x400,
        &[
            0xAA, 0, 0xAA, 0, 0xAA, 0, 0xAA, 0, 0xAA, 0, 0xAA, 0, 0xAA, 0, 0xAA, 0,
        ],
    );
    let out = t.put(0x500, &[0; 16]);
    let bm = u32::from(t.bm);
    for rop in 0..=255u32 {
        t.gdi(106, &[bm, 16, dst_bits]); // SetBitmapBits
        // Any low word: only the truth table matters.
        assert_eq!(t.gdi(34, &[dc, 0, 0, 8, 8, sdc, 0, 0, rop << 16]), 1);
        assert_eq!(t.gdi(74, &[bm, 16, out]), 16); // GetBitmapBits
        let mut b = [0u8; 16];
        t.m.read_seg(t.data, 0x500, &mut b).unwrap();
        assert!(
            b.chunks(2).all(|r| u32::from(r[0]) == rop),
            "ROP {rop:02X}: {b:02X?}"
        );
    }
}

/// The 16 ROP2 modes: pen 0 then 1 over destination 0 and 1; mode n's
/// result is bit (P << 1 | D) of n − 1 (raster.rs).
#[test]
fn every_rop2_through_lines() {
    for mode in 1..=16u32 {
        let mut t = T::new(4, 1, true);
        let dc = t.dcw();
        // Destination 0 1 0 1.
        t.gdi(29, &[dc, 0, 0, 4, 1, BLACKNESS]);
        t.gdi(31, &[dc, 1, 0, rgb(255, 255, 255)]);
        t.gdi(31, &[dc, 3, 0, rgb(255, 255, 255)]);
        assert_eq!(t.gdi(4, &[dc, mode]), 13); // SetROP2: COPYPEN before
        t.gdi(20, &[dc, 0, 0]);
        t.gdi(19, &[dc, 2, 0]); // black pen over pixels 0, 1
        let wp = t.stock(WHITE_PEN);
        t.select(wp);
        t.gdi(19, &[dc, 4, 0]); // white pen over 2, 3
        let want: Vec<u32> = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .map(|&(p, d)| ((mode - 1) >> ((p << 1) | d)) & 1)
            .collect();
        assert_eq!(t.px(), want, "R2 mode {mode}");
    }
}

/// Mapping modes: Rectangle(0, 100, 100, 0) with a null pen and a black
/// brush in each fixed mode, viewport origin (0, 40): the device corners
/// are MulDiv(100, vpExt, winExt) of the VGA driver's extents (LOMETRIC
/// 640/2080, HIMETRIC 640/20800, LOENGLISH 254/325, HIENGLISH 127/1625,
/// TWIPS 127/2340; y up), and the null pen takes one pixel off right and
/// bottom.
#[test]
fn each_fixed_mapping_mode_places_the_rectangle() {
    // (mode, logical size, device pixels it makes)
    for (mode, size, px) in [
        (1u32, 31, 31), // MM_TEXT: y down, so the box is 40..71 (checked apart)
        (2, 100, 31),   // 100 × 640 / 2080 = 30.77 → 31
        (3, 1000, 31),  // 1000 × 640 / 20800
        (4, 40, 31),    // 40 × 254 / 325 = 31.26 → 31
        (5, 400, 31),   // 400 × 127 / 1625 = 31.26
        (6, 576, 31),   // 576 × 127 / 2340 = 31.26
    ] {
        let mut t = T::new(40, 80, true);
        let dc = t.dcw();
        let np = t.stock(NULL_PEN);
        t.select(np);
        let bb = t.stock(BLACK_BRUSH);
        t.select(bb);
        assert_eq!(t.gdi(3, &[dc, mode]), 1); // SetMapMode: MM_TEXT before
        t.gdi(13, &[dc, 0, 40]); // SetViewportOrg
        t.gdi(27, &[dc, 0, size as u32, size as u32, 0]);
        let (top, bottom) = if mode == 1 {
            (40, 40 + px)
        } else {
            (40 - px, 40)
        };
        for y in 0..80 {
            for x in 0..40 {
                let inside = x < px - 1 && y >= top && y < bottom - 1;
                assert_eq!(t.pixel(x, y) == 0, inside, "mode {mode} ({x}, {y})");
            }
        }
    }
}

/// ANISOTROPIC scales each axis by its own ratio; ISOTROPIC shrinks the
/// viewport extent of the axis whose units came out larger; DPtoLP and
/// LPtoDP round as MulDiv does (halves away from zero).
#[test]
fn anisotropic_isotropic_and_point_conversion() {
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    t.gdi(3, &[dc, 8]); // MM_ANISOTROPIC
    t.gdi(12, &[dc, 10, 10]); // SetWindowExt
    t.gdi(14, &[dc, 3, 0xFFFE]); // SetViewportExt(3, -2)
    let p = t.points(0, &[(5, 5), (-5, 7), (2, 3)]);
    assert_eq!(t.gdi(99, &[dc, p, 3]), 1); // LPtoDP
    let mut b = [0u8; 12];
    t.m.read_seg(t.data, 0, &mut b).unwrap();
    let w = |b: &[u8], k: usize| i16::from_le_bytes([b[k], b[k + 1]]);
    // 5·3/10 = 1.5 → 2; 5·(−2)/10 = −1; −5·3/10 = −1.5 → −2; 7·(−2)/10 =
    // −1.4 → −1; 2·3/10 = 0.6 → 1; 3·(−2)/10 = −0.6 → −1.
    assert_eq!(
        [w(&b, 0), w(&b, 2), w(&b, 4), w(&b, 6), w(&b, 8), w(&b, 10)],
        [2, -1, -2, -1, 1, -1]
    );
    let p = t.points(0, &[(2, -1)]);
    t.gdi(67, &[dc, p, 1]); // DPtoLP: 2·10/3 = 6.67 → 7; −1·10/−2 = 5
    t.m.read_seg(t.data, 0, &mut b[..4]).unwrap();
    assert_eq!([w(&b, 0), w(&b, 2)], [7, 5]);
    // ISOTROPIC: window 100×100 on a 300×50 viewport: x shrinks to 50.
    t.gdi(3, &[dc, 7]);
    t.gdi(12, &[dc, 100, 100]);
    t.gdi(14, &[dc, 300, 50]);
    assert_eq!(t.gdi(94, &[dc]), 50 | 50 << 16); // GetViewportExt
    // Extents cannot change in the fixed modes.
    t.gdi(3, &[dc, 2]);
    t.gdi(12, &[dc, 5, 5]);
    assert_eq!(t.gdi(96, &[dc]), 2080 | 1560 << 16); // GetWindowExt
}

/// KB Q41464: a colour bitmap drawn on a monochrome one turns the source
/// DC's background colour white and every other colour black; a
/// monochrome bitmap drawn on a colour one gives its 1 bits the
/// destination's background colour and its 0 bits the text colour.
#[test]
fn mono_and_colour_conversions() {
    // Colour source: red, white, black, light grey.
    let mut t = T::new(4, 1, true);
    let dc = t.dcw();
    let sdc = t.gdi(52, &[0]);
    let sbm = t.gdi(48, &[4, 1, 4, 1, 0]);
    t.gdi(45, &[sdc, sbm]);
    for (x, c) in [
        (0, rgb(255, 0, 0)),
        (1, rgb(255, 255, 255)),
        (2, 0),
        (3, rgb(192, 192, 192)),
    ] {
        t.gdi(31, &[sdc, x, 0, c]);
    }
    t.gdi(34, &[dc, 0, 0, 4, 1, sdc, 0, 0, SRCCOPY]);
    assert_eq!(t.art(), ["#.##"]); // source background white → white
    t.gdi(1, &[sdc, rgb(255, 0, 0)]); // SetBkColor(red)
    t.gdi(34, &[dc, 0, 0, 4, 1, sdc, 0, 0, SRCCOPY]);
    assert_eq!(t.art(), [".###"]);
    // Monochrome source 1 0 1 0 into a VGA bitmap: text blue, bk yellow.
    let mut t = T::new(4, 1, false);
    let dc = t.dcw();
    let sdc = t.gdi(52, &[0]);
    let bits = t.put(0, &[0xA0, 0]);
    let sbm = t.gdi(48, &[4, 1, 1, 1, bits]);
    t.gdi(45, &[sdc, sbm]);
    t.gdi(9, &[dc, rgb(0, 0, 255)]); // SetTextColor(blue)
    t.gdi(1, &[dc, rgb(255, 255, 0)]); // SetBkColor(yellow)
    t.gdi(34, &[dc, 0, 0, 4, 1, sdc, 0, 0, SRCCOPY]);
    // VGA driver indices: yellow 11 (B), blue 12 (C).
    assert_eq!(t.hex(), ["BCBC"]);
}

/// StretchBlt: shrinking 1 0 1 0 to two pixels merges pairs by the stretch
/// mode (BLACKONWHITE ANDs: black survives; WHITEONBLACK ORs; COLORONCOLOR
/// keeps the first); enlarging repeats; a negative width mirrors.
#[test]
fn stretch_modes() {
    for (mode, want) in [(1u32, "##"), (2, ".."), (3, "..")] {
        let mut t = T::new(2, 1, true);
        let dc = t.dcw();
        let sdc = t.gdi(52, &[0]);
        let bits = t.put(0, &[0xA0, 0]);
        let sbm = t.gdi(48, &[4, 1, 1, 1, bits]);
        t.gdi(45, &[sdc, sbm]);
        t.gdi(7, &[dc, mode]); // SetStretchBltMode
        t.call("GDI", 35, &[dc, 0, 0, 2, 1, sdc, 0, 0, 4, 1, SRCCOPY]);
        assert_eq!(t.art(), [want], "mode {mode}");
    }
    let mut t = T::new(8, 1, true);
    let dc = t.dcw();
    let sdc = t.gdi(52, &[0]);
    let bits = t.put(0, &[0x80, 0]); // white, black, black, black
    let sbm = t.gdi(48, &[4, 1, 1, 1, bits]);
    t.gdi(45, &[sdc, sbm]);
    t.call("GDI", 35, &[dc, 0, 0, 8, 1, sdc, 0, 0, 4, 1, SRCCOPY]);
    assert_eq!(t.art(), ["..######"]);
    // Mirrored: destination width −8 from x = 8.
    t.call("GDI", 35, &[dc, 8, 0, 0xFFF8, 1, sdc, 0, 0, 4, 1, SRCCOPY]);
    assert_eq!(t.art(), ["######.."]);
}

/// FloodFill fills the 4-connected area up to the border colour;
/// ExtFloodFill's FLOODFILLSURFACE fills the area of one colour.
#[test]
fn flood_fills() {
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    let nb = t.stock(NULL_BRUSH);
    t.select(nb);
    t.gdi(27, &[dc, 1, 1, 7, 7]);
    let bb = t.stock(BLACK_BRUSH);
    t.select(bb);
    assert_eq!(t.gdi(25, &[dc, 3, 3, 0]), 1);
    assert_eq!(
        t.art(),
        [
            "........", ".######.", ".######.", ".######.", ".######.", ".######.", ".######.",
            "........",
        ]
    );
    // Starting on the border colour fails.
    assert_eq!(t.gdi(25, &[dc, 1, 1, 0]), 0);
    // FLOODFILLSURFACE on the white outside paints it black.
    assert_eq!(t.gdi(372, &[dc, 0, 0, rgb(255, 255, 255), 1]), 1);
    assert!(t.art().iter().all(|r| r == "########"));
}

/// A clip region limits every drawing call; IntersectClipRect narrows it,
/// ExcludeClipRect cuts a hole; GetClipBox reports the box.
#[test]
fn clipping() {
    let mut t = T::new(9, 7, true);
    let dc = t.dcw();
    let rgn = t.gdi(54, &[0, 0, 9, 7]); // CreateEllipticRgn
    assert_eq!(t.gdi(44, &[dc, rgn]), 3); // SelectClipRgn: COMPLEXREGION
    t.blt(BLACKNESS);
    // The elliptic region holds what Ellipse draws with a one-pixel pen.
    assert_eq!(
        t.art(),
        [
            "..#####..",
            ".#######.",
            "#########",
            "#########",
            "#########",
            ".#######.",
            "..#####..",
        ]
    );
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    assert_eq!(t.gdi(22, &[dc, 1, 1, 7, 7]), 2); // IntersectClipRect: SIMPLE
    assert_eq!(t.gdi(21, &[dc, 3, 3, 5, 5]), 3); // ExcludeClipRect: COMPLEX
    t.blt(BLACKNESS);
    assert_eq!(
        t.art(),
        [
            "........", ".######.", ".######.", ".##..##.", ".##..##.", ".######.", ".######.",
            "........",
        ]
    );
    let r = t.put(0x100, &[0; 8]);
    assert_eq!(t.gdi(77, &[dc, r]), 3); // GetClipBox
    let mut b = [0u8; 8];
    t.m.read_seg(t.data, 0x100, &mut b).unwrap();
    assert_eq!(b, [1, 0, 1, 0, 7, 0, 7, 0]);
    assert_eq!(t.gdi(103, &[dc, 3, 3]), 0); // PtVisible in the hole
    assert_eq!(t.gdi(103, &[dc, 2, 3]), 1);
}

/// Hatch brushes (the VGA driver's patterns: HS_CROSS is row 4 and
/// column 4); in TRANSPARENT mode the gaps are left alone.
#[test]
fn hatch_brush_patterns() {
    let mut t = T::new(8, 8, true);
    let dc = t.dcw();
    let hb = t.gdi(58, &[4, 0]); // CreateHatchBrush(HS_CROSS, black)
    t.select(hb);
    t.blt(PATCOPY);
    assert_eq!(
        t.art(),
        [
            "....#...", "....#...", "....#...", "....#...", "########", "....#...", "....#...",
            "....#...",
        ]
    );
    // HS_FDIAGONAL in white, TRANSPARENT, over black.
    t.blt(BLACKNESS);
    let hb = t.gdi(58, &[2, rgb(255, 255, 255)]);
    t.select(hb);
    t.gdi(2, &[dc, 1]);
    t.blt(PATCOPY);
    for y in 0..8 {
        for x in 0..8 {
            assert_eq!(t.pixel(x, y), u32::from(x == y), "({x}, {y})");
        }
    }
}

/// A colour the VGA cannot show is dithered in brushes (orange: half red,
/// half yellow, laid on the driver's 8×8 matrix, the darker colour on the
/// lower thresholds) but matched to one colour by pens and SetPixel.
#[test]
fn vga_dither_and_nearest_colour() {
    let mut t = T::new(8, 8, false);
    let dc = t.dcw();
    let b = t.gdi(66, &[rgb(255, 128, 0)]);
    t.select(b);
    t.blt(PATCOPY);
    const MATRIX: [[u32; 8]; 8] = [
        [0, 32, 8, 40, 2, 34, 10, 42],
        [48, 16, 56, 24, 50, 18, 58, 26],
        [12, 44, 4, 36, 14, 46, 6, 38],
        [60, 28, 52, 20, 62, 30, 54, 22],
        [3, 35, 11, 43, 1, 33, 9, 41],
        [51, 19, 59, 27, 49, 17, 57, 25],
        [15, 47, 7, 39, 13, 45, 5, 37],
        [63, 31, 55, 23, 61, 29, 53, 21],
    ];
    for (y, row) in MATRIX.iter().enumerate() {
        for (x, &th) in row.iter().enumerate() {
            let want = if th < 32 { 9 } else { 11 };
            assert_eq!(t.pixel(x as i32, y as i32), want, "({x}, {y})");
        }
    }
    // SetPixel matches the nearest colour: the two-hue axis, yellow.
    assert_eq!(t.gdi(31, &[dc, 0, 0, rgb(255, 128, 0)]), rgb(255, 255, 0));
    assert_eq!(t.gdi(83, &[dc, 0, 0]), rgb(255, 255, 0)); // GetPixel
    // Light grey is exact: a solid brush.
    let g = t.gdi(66, &[rgb(192, 192, 192)]);
    t.select(g);
    t.blt(PATCOPY);
    assert!(t.px().iter().all(|&p| p == 8));
}

/// Objects: SelectObject returns the previous one, DeleteObject refuses a
/// selected object, GetObject copies the 16-bit structures, SaveDC and
/// RestoreDC stack the attributes.
#[test]
fn objects_and_saved_states() {
    let mut t = T::new(4, 4, true);
    let dc = t.dcw();
    let pen = t.gdi(61, &[2, 1, rgb(1, 2, 3)]);
    let prev = t.select(pen);
    assert_eq!(prev, t.stock(7)); // BLACK_PEN
    assert_eq!(t.gdi(69, &[pen]), 0, "a selected pen is not deleted");
    let buf = t.put(0, &[0; 16]);
    assert_eq!(t.gdi(82, &[pen, 16, buf]), 10);
    let mut b = [0u8; 10];
    t.m.read_seg(t.data, 0, &mut b).unwrap();
    assert_eq!(b, [2, 0, 1, 0, 0, 0, 1, 2, 3, 0]);
    assert_eq!(t.gdi(82, &[u32::from(t.bm), 14, buf]), 14);
    let mut b = [0u8; 14];
    t.m.read_seg(t.data, 0, &mut b).unwrap();
    assert_eq!(b, [0, 0, 4, 0, 4, 0, 2, 0, 1, 1, 0, 0, 0, 0]);
    // SaveDC / RestoreDC.
    assert_eq!(t.gdi(30, &[dc]), 1);
    t.gdi(9, &[dc, rgb(9, 9, 9)]);
    let bp = t.stock(7);
    t.select(bp);
    assert_eq!(t.gdi(69, &[pen]), 0, "the saved state still holds it");
    assert_eq!(t.gdi(30, &[dc]), 2);
    assert_eq!(t.gdi(39, &[dc, 0xFFFE]), 1); // RestoreDC(−2): back to level 1
    assert_eq!(t.gdi(90, &[dc]), 0); // GetTextColor: black again
    assert_eq!(t.gdi(39, &[dc, 1]), 0, "no level left");
    t.select(bp);
    assert_eq!(t.gdi(69, &[pen]), 1);
    assert_eq!(t.gdi(462, &[pen]), 0); // IsGDIObject: gone
    assert_eq!(t.gdi(462, &[dc]), 7);
}

/// Pie, Chord and Arc on the 9×9 circle (rows .###. …): the arc runs
/// counter-clockwise from the radial through (9, 4) (angle 0) to the one
/// through (4, 0) (angle 90°); the pie adds the radii from the centre
/// (4, 4), the chord the line between the arc's ends; the brush (white)
/// fills what the pen leaves inside.
#[test]
fn pie_chord_arc() {
    let shapes: [(u16, [&str; 9]); 3] = [
        (
            26, // Pie
            [
                "....##...",
                "....#.#..",
                "....#..#.",
                "....#...#",
                "....#####",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
        ),
        (
            348, // Chord
            [
                "....##...",
                ".....##..",
                "......##.",
                ".......##",
                "........#",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
        ),
        (
            23, // Arc
            [
                "....##...",
                "......#..",
                ".......#.",
                "........#",
                "........#",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
        ),
    ];
    for (ord, want) in shapes {
        let mut t = T::new(9, 9, true);
        let dc = t.dcw();
        t.gdi(ord, &[dc, 0, 0, 9, 9, 9, 4, 4, 0]);
        assert_eq!(t.art(), want, "GDI.{ord}");
    }
}

/// A wide pen has round ends: width 5 from (2, 5) to (12, 5) covers rows
/// 3..7 (two each side), each end a disc of radius 2.5 about its point.
#[test]
fn wide_line_round_caps() {
    let mut t = T::new(16, 10, true);
    let dc = t.dcw();
    let pen = t.gdi(61, &[0, 5, 0]);
    t.select(pen);
    t.gdi(20, &[dc, 2, 5]);
    t.gdi(19, &[dc, 12, 5]);
    let row3 = ".#############..";
    let row4 = "###############.";
    let blank = "................";
    assert_eq!(
        t.art(),
        [
            blank, blank, blank, row3, row4, row4, row4, row3, blank, blank
        ]
    );
}

/// A 4-bit DIB into a VGA bitmap and back: rows are stored bottom-up, each
/// padded to 4 bytes; colours are matched; GetDIBits as 24 bits writes
/// B, G, R.
#[test]
fn dib_round_trip() {
    let mut t = T::new(4, 2, false);
    let dc = t.dcw();
    let mut bmi = vec![0u8; 40 + 16 * 4];
    bmi[0] = 40;
    bmi[4] = 4; // width
    bmi[8] = 2; // height
    bmi[12] = 1; // planes
    bmi[14] = 4; // bits
    for (i, (r, g, b)) in [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
        .iter()
        .enumerate()
    {
        bmi[40 + i * 4..40 + i * 4 + 3].copy_from_slice(&[*b, *g, *r]);
    }
    let pbmi = t.put(0, &bmi);
    // Bottom row 1 2 3 0, top row 3 3 1 1.
    let bits = t.put(0x100, &[0x12, 0x30, 0, 0, 0x33, 0x11, 0, 0]);
    let bm = u32::from(t.bm);
    assert_eq!(t.gdi(440, &[dc, bm, 0, 2, bits, pbmi, 0]), 2); // SetDIBits
    assert_eq!(t.hex(), ["CC99", "9AC0"]);
    // Back as 24 bits per pixel.
    let mut hdr = [0u8; 40];
    hdr[0] = 40;
    hdr[12] = 1;
    hdr[14] = 24;
    let ph = t.put(0x200, &hdr);
    let out = t.put(0x300, &[0; 24]);
    assert_eq!(t.gdi(441, &[dc, bm, 0, 2, out, ph, 0]), 2); // GetDIBits
    let mut b = [0u8; 24];
    t.m.read_seg(t.data, 0x300, &mut b).unwrap();
    assert_eq!(
        b,
        [
            0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0, // bottom: red green blue black
            255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255, // top: blue blue red red
        ]
    );
    let mut h = [0u8; 40];
    t.m.read_seg(t.data, 0x200, &mut h).unwrap();
    assert_eq!(
        (h[4], h[8], h[20]),
        (4, 2, 24),
        "width, height, biSizeImage"
    );
    // StretchDIBits doubles it onto a bigger bitmap.
    let mut t2 = T::new(8, 4, false);
    let dc2 = t2.dcw();
    let pbmi = t2.put(0, &bmi);
    let bits = t2.put(0x100, &[0x12, 0x30, 0, 0, 0x33, 0x11, 0, 0]);
    assert_eq!(
        t2.gdi(439, &[dc2, 0, 0, 8, 4, 0, 0, 4, 2, bits, pbmi, 0, SRCCOPY]),
        2
    );
    assert_eq!(t2.hex(), ["CCCC9999", "CCCC9999", "99AACC00", "99AACC00"]);
}

/// CreateDIBitmap makes a monochrome bitmap from a 1-bit DIB whose colour
/// table is black then white, and a bitmap of the DC's format otherwise.
#[test]
fn create_dibitmap_formats() {
    let mut t = T::new(2, 2, false);
    let dc = t.dcw();
    let mut bmi = vec![0u8; 40 + 8];
    bmi[0] = 40;
    bmi[4] = 8;
    bmi[8] = 1;
    bmi[12] = 1;
    bmi[14] = 1;
    bmi[44..47].copy_from_slice(&[255, 255, 255]);
    let p = t.put(0, &bmi);
    let bits = t.put(0x100, &[0xF0, 0, 0, 0]);
    let mono = t.gdi(442, &[dc, p, 4, bits, p, 0]);
    let info = t.put(0x200, &[0; 14]);
    t.gdi(82, &[mono, 14, info]);
    let mut b = [0u8; 14];
    t.m.read_seg(t.data, 0x200, &mut b).unwrap();
    assert_eq!((b[8], b[9]), (1, 1), "monochrome");
    // White then black: a colour bitmap.
    bmi[40..43].copy_from_slice(&[255, 255, 255]);
    bmi[44..47].copy_from_slice(&[0, 0, 0]);
    let p = t.put(0, &bmi);
    let colour = t.gdi(442, &[dc, p, 4, bits, p, 0]);
    t.gdi(82, &[colour, 14, info]);
    t.m.read_seg(t.data, 0x200, &mut b).unwrap();
    assert_eq!((b[8], b[9]), (4, 1), "the VGA's four planes");
    let bm = t.env.win16.gdi.objects.bitmap(colour as u16).unwrap();
    // Bits 1111 0000 with white for 0: four black then four white.
    assert_eq!(bm.surface.px, [0, 0, 0, 0, 15, 15, 15, 15]);
}

/// A printer DC draws on a 2400×3150 page at 300 dpi; EndPage writes it
/// into the sandbox directory as PRNddppp.PNG.
#[test]
fn printing_writes_png_pages() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut t = T::new(1, 1, true);
    t.env.drive = Some(toolhelp16::dos::fs::Drive::new(dir.clone()).unwrap());
    let driver = t.put(0, b"HPPCL\0");
    let dc = t.gdi(53, &[driver, 0, 0, 0]); // CreateDC
    assert_ne!(dc, 0);
    assert_eq!(t.gdi(80, &[dc, 8]), 2400); // HORZRES
    assert_eq!(t.gdi(80, &[dc, 88]), 300); // LOGPIXELSX
    assert_eq!(t.gdi(80, &[dc, 2]), 2); // DT_RASPRINTER
    let name = t.put(0x10, b"Test\0");
    let mut di = [0u8; 10];
    di[0] = 10;
    di[2..6].copy_from_slice(&name.to_le_bytes());
    let pdi = t.put(0x20, &di);
    assert!(t.gdi(377, &[dc, pdi]) > 0); // StartDoc
    assert!(t.gdi(379, &[dc]) > 0); // StartPage
    t.gdi(27, &[dc, 100, 100, 200, 200]);
    assert_eq!(t.gdi(380, &[dc]), 1); // EndPage
    assert_eq!(t.gdi(378, &[dc]), 1); // EndDoc
    let file = dir.join("PRN01001.PNG");
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&file).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (2400, 3150));
    let at = |x: usize, y: usize| buf[(y * 2400 + x) * 3];
    assert_eq!(at(100, 100), 0);
    assert_eq!(at(199, 150), 0);
    assert_eq!(at(150, 150), 255);
    assert_eq!(at(200, 150), 255);
    assert_eq!(at(99, 99), 255);
    // QUERYESCSUPPORT knows NEWFRAME, not escape 4000.
    let q = t.put(0x40, &1u16.to_le_bytes());
    assert_eq!(t.gdi(38, &[dc, 8, 2, q, 0]), 1);
    let q = t.put(0x40, &4000u16.to_le_bytes());
    assert_eq!(t.gdi(38, &[dc, 8, 2, q, 0]), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 256-colour display manages palettes: a realized logical palette takes
/// free system slots (red is a static colour already), PALETTEINDEX draws
/// its entry; a true-colour display shows any RGB exactly.
#[test]
fn palette_and_true_colour_displays() {
    let mut t = T::new(1, 1, true);
    t.env.win16.gdi.display =
        toolhelp16::win16::gdi::devcaps::DisplayMode::parse("800x600x8").unwrap();
    let dc = t.gdi(52, &[0]);
    assert_eq!(t.gdi(80, &[dc, 104]), 256); // SIZEPALETTE
    assert_eq!(t.gdi(80, &[dc, 38]) & 0x100, 0x100); // RC_PALETTE
    let bm = t.gdi(51, &[0, 2, 1]); // CreateCompatibleBitmap(NULL): 8 bits
    assert_ne!(t.gdi(45, &[dc, bm]), 0);
    let lp = t.put(0, &[0, 3, 2, 0, 1, 2, 3, 0, 255, 0, 0, 0]);
    let pal = t.gdi(360, &[lp]); // CreatePalette
    assert_ne!(t.call("USER", 282, &[dc, pal, 0]), 0); // SelectPalette
    assert_eq!(t.call("USER", 283, &[dc]), 1); // RealizePalette: one new slot
    assert_eq!(t.gdi(31, &[dc, 0, 0, 0x0100_0000]), rgb(1, 2, 3)); // PALETTEINDEX(0)
    assert_eq!(t.gdi(83, &[dc, 0, 0]), rgb(1, 2, 3));
    assert_eq!(t.gdi(31, &[dc, 1, 0, 0x0100_0001]), rgb(255, 0, 0));
    // An RGB not in the palette: the nearest static colour.
    assert_eq!(t.gdi(31, &[dc, 1, 0, rgb(250, 5, 5)]), rgb(255, 0, 0));
    let mut t = T::new(1, 1, true);
    t.env.win16.gdi.display =
        toolhelp16::win16::gdi::devcaps::DisplayMode::parse("640x480x24").unwrap();
    let dc = t.gdi(52, &[0]);
    let bm = t.gdi(51, &[0, 2, 1]);
    t.gdi(45, &[dc, bm]);
    assert_eq!(t.gdi(31, &[dc, 0, 0, rgb(1, 2, 3)]), rgb(1, 2, 3));
    assert_eq!(t.gdi(80, &[dc, 24]), 0xFFFF); // NUMCOLORS −1
}

/// Region types (SDK, "CombineRgn": the return values).
const NULLREGION: u32 = 1;
const SIMPLEREGION: u32 = 2;
const COMPLEXREGION: u32 = 3;

/// The visible-region family (undocumented in the 3.1 SDK; the USER-side
/// contract Wine's GDI.EXE keeps: each returns the type of the new visible
/// region, ERROR 0 on failure). A memory DC's visible region is its
/// bitmap; ExcludeVisRect/IntersectVisRect take logical rectangles (LPtoDP
/// applies), right and bottom excluded as for every rectangle; drawing
/// touches only what the visible region keeps.
#[test]
fn visible_region_calls_clip_drawing() {
    let mut t = T::new(12, 6, true);
    let dc = t.dcw();
    // Take a hole out of the middle: the rest is several rectangles.
    assert_eq!(t.gdi(73, &[dc, 2, 1, 5, 4]), COMPLEXREGION); // ExcludeVisRect
    t.blt(BLACKNESS);
    assert_eq!(
        t.art(),
        [
            "############",
            "##...#######",
            "##...#######",
            "##...#######",
            "############",
            "############",
        ]
    );
    // SaveVisRgn: a region handle of the DC's; DeleteObject refuses it.
    let saved = t.gdi(129, &[dc]);
    assert_ne!(saved, 0, "SaveVisRgn");
    assert_eq!(t.gdi(462, &[saved]), 6, "IsGDIObject: a region");
    assert_eq!(
        t.gdi(69, &[saved]),
        0,
        "DeleteObject refuses a saved region"
    );
    // IntersectVisRect in logical coordinates: the viewport origin moves
    // the logical (0, 0) to device (6, 0).
    t.gdi(13, &[dc, 6, 0]); // SetViewportOrg
    assert_eq!(t.gdi(98, &[dc, 0, 0, 3, 6]), SIMPLEREGION); // IntersectVisRect
    t.blt(WHITENESS); // PatBlt's rectangle is logical too: it covers 6..18
    t.gdi(13, &[dc, 0, 0]);
    assert_eq!(
        t.art(),
        [
            "######...###",
            "##...#...###",
            "##...#...###",
            "##...#...###",
            "######...###",
            "######...###",
        ]
    );
    // RestoreVisRgn: the saved region (with its hole) comes back and the
    // stack is empty again.
    assert_eq!(t.gdi(130, &[dc]), COMPLEXREGION);
    assert_eq!(t.gdi(130, &[dc]), 0, "RestoreVisRgn with nothing saved");
    assert_eq!(t.gdi(462, &[saved]), 0, "the saved region was freed");
    t.blt(BLACKNESS);
    assert_eq!(t.art()[1], "##...#######");
    // OffsetVisRgn moves it in device pixels: the hole moves right by 4,
    // and the strip the move uncovered on the left is outside (what was
    // drawn there stays).
    assert_eq!(t.gdi(102, &[dc, 4, 0]), COMPLEXREGION);
    t.blt(WHITENESS);
    assert_eq!(
        t.art(),
        [
            "####........",
            "##....###...",
            "##....###...",
            "##....###...",
            "####........",
            "####........",
        ]
    );
    // SelectVisRgn: a copy of the region becomes the visible region.
    let r = t.gdi(64, &[8, 1, 10, 5]); // CreateRectRgn
    assert_eq!(t.gdi(105, &[dc, r]), SIMPLEREGION);
    assert_eq!(t.gdi(69, &[r]), 1, "the region is the program's to delete");
    t.blt(BLACKNESS);
    assert_eq!(
        t.art(),
        [
            "####........",
            "##....####..",
            "##....####..",
            "##....####..",
            "####....##..",
            "####........",
        ]
    );
    // Nothing left: NULLREGION, and drawing changes nothing.
    assert_eq!(t.gdi(98, &[dc, 0, 0, 4, 6]), NULLREGION);
    let before = t.art();
    t.blt(WHITENESS);
    assert_eq!(t.art(), before);
    // Bad handles: ERROR.
    assert_eq!(t.gdi(73, &[0x4FF0, 0, 0, 1, 1]), 0);
    assert_eq!(t.gdi(105, &[dc, 0x4FF0]), 0);
}

/// InquireVisRgn and GetClipRgn (GDI.131, GDI.173) give the DC's own
/// region handles, as Windows 3.1's DC hVisRgn and hClipRgn (Wine's
/// GDI.EXE returns those fields): the same handle each time, naming the
/// region the DC draws with now; GetClipRgn is 0 while no clip region is
/// selected. The DC frees them, and any visible region saved and never
/// restored, when it is deleted.
#[test]
fn the_dcs_own_region_handles() {
    let mut t = T::new(8, 4, true);
    let dc = t.dcw();
    let objects_before = t.env.win16.gdi.objects.len();
    let vis = t.gdi(131, &[dc]); // InquireVisRgn
    assert_ne!(vis, 0);
    assert_eq!(t.gdi(131, &[dc]), vis, "the same handle each time");
    let rect = t.put(0x100, &[0; 8]);
    let rect_at = |t: &T| -> [i16; 4] {
        let mut b = [0u8; 8];
        t.m.read_seg(t.data, 0x100, &mut b).unwrap();
        [0, 1, 2, 3].map(|i| i16::from_le_bytes([b[2 * i], b[2 * i + 1]]))
    };
    // GetRgnBox reads the bitmap-sized visible region, and follows it.
    assert_eq!(t.gdi(134, &[vis, rect]), SIMPLEREGION);
    assert_eq!(rect_at(&t), [0, 0, 8, 4]);
    t.gdi(73, &[dc, 0, 0, 8, 2]); // ExcludeVisRect: the top half out
    assert_eq!(t.gdi(134, &[vis, rect]), SIMPLEREGION);
    assert_eq!(rect_at(&t), [0, 2, 8, 4]);
    // Changing the region through the handle changes what is drawn.
    t.gdi(172, &[vis, 2, 0, 4, 4]); // SetRectRgn
    t.blt(BLACKNESS);
    assert_eq!(t.art(), ["..##....", "..##....", "..##....", "..##...."]);
    assert_eq!(t.gdi(69, &[vis]), 0, "DeleteObject refuses the DC's region");
    // GetClipRgn: none yet; IntersectClipRect makes one (device
    // coordinates), and the handle reads it.
    assert_eq!(t.gdi(173, &[dc]), 0, "no clip region");
    t.gdi(22, &[dc, 1, 1, 3, 3]); // IntersectClipRect
    let clip = t.gdi(173, &[dc]);
    assert_ne!(clip, 0);
    assert_ne!(clip, vis);
    assert_eq!(t.gdi(134, &[clip, rect]), SIMPLEREGION);
    assert_eq!(rect_at(&t), [1, 1, 3, 3]);
    // Saved visible regions never restored, and both handles, go with the
    // DC.
    assert_ne!(t.gdi(129, &[dc]), 0);
    assert_ne!(t.gdi(129, &[dc]), 0);
    assert_eq!(t.env.win16.gdi.objects.len(), objects_before + 4);
    assert_eq!(t.gdi(68, &[dc]), 1, "DeleteDC");
    assert_eq!(t.env.win16.gdi.objects.len(), objects_before - 1);
    assert_eq!(t.gdi(462, &[vis]), 0, "the visible region's handle is gone");
    assert_eq!(t.gdi(462, &[clip]), 0, "the clip region's handle is gone");
    assert_eq!(t.gdi(131, &[dc]), 0, "no DC, no region");
}
