//! A DOS program's screen as a picture: what `run --screenshot`, `run
//! --screenshots DIR`, `stack --screenshot` and the stack page show for a
//! real-mode program, drawn from the VGA's registers (machine/vga.rs) and
//! its memory as the adapter would scan it out.
//!
//! * **Text modes** (0-3, 7): each cell's character in the VGA's 8x16 ROM
//!   font (dos/font.rs; 8x14 or 8x8 when the maximum scan line register
//!   says so; the font a program loaded through INT 10h AH=11h once it
//!   did), 9 dots wide as the VGA shows 80x25 text (720x400), the 9th
//!   dot repeating the 8th for the line-drawing characters C0h-DFh; 40
//!   columns are doubled to the same width. The foreground is the
//!   attribute's low nibble, the background its bits 4-6 with blinking on
//!   (as the BIOS leaves it; a blinking character is shown in its visible
//!   phase) or 4-7 with it off. Colours go through the attribute
//!   controller's palette registers and the DAC.
//! * **CGA modes** 4/5 (320x200, 2 bits a pixel) and 6 (640x200, 1 bit)
//!   at B8000h, even rows from offset 0 and odd rows from 2000h.
//! * **EGA/VGA planar modes** 0Dh, 0Eh, 10h, 11h, 12h: a pixel's bits from
//!   the four planes, through the palette registers and the DAC.
//! * **256 colours**: mode 13h (chain 4, A0000h + y * 320 + x) and its
//!   unchained form ("mode X": pixel x in plane x mod 4), straight through
//!   the DAC.
//!
//! The geometry comes from the CRT controller, as on the adapter: width
//! from the horizontal display end, height from the vertical display end
//! over the scan doubling and the character height, the line pitch from
//! the offset register, the first byte shown from the start address (so
//! a program flipping pages shows the page it shows). DAC values (6 bits)
//! become 8-bit components as v * 255 / 63.
//!
//! The run's picture ([`final_png`]) is the screen at the stop, except
//! when the program ended in a text mode after leaving a graphics mode:
//! the text screen a game restores at its exit is not its picture, so the
//! picture is then the graphics screen as the program left it (kept at
//! that mode set, [`before_mode_set`]). A series (`--screenshots DIR`)
//! gets a file every N instructions and one before each mode set (the
//! screen about to be left), unless that screen is an empty text screen.

use super::font;
use crate::dos::Env;
use crate::machine::{Uc, vga::Vga};

/// The largest picture drawn (registers a program set to nonsense cannot
/// make a larger one).
const MAX_SIDE: usize = 1600;

/// A picture: width, height, RGB bytes row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl Frame {
    fn new(width: usize, height: usize) -> Frame {
        let (width, height) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        Frame {
            width,
            height,
            rgb: vec![0; width * height * 3],
        }
    }

    fn set(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 3;
            self.rgb[i..i + 3].copy_from_slice(&c);
        }
    }

    /// The colour at (x, y).
    pub fn get(&self, x: usize, y: usize) -> Option<[u8; 3]> {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 3;
            Some([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
        } else {
            None
        }
    }

    /// The picture as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        crate::pngfile::encode_png(self.width as u32, self.height as u32, &self.rgb)
    }
}

/// DOS's screenshot state.
#[derive(Debug, Clone, Default)]
pub struct Shots {
    /// The graphics screen as the program last left it for a text mode.
    pub left_graphics: Option<Frame>,
    /// The program has exited.
    pub ended: bool,
}

/// Lines shown: the vertical display end over scan doubling.
fn scan_lines(v: &Vga) -> usize {
    let vde = usize::from(v.crtc[0x12])
        | (usize::from(v.crtc[7] & 0x02) << 7)
        | (usize::from(v.crtc[7] & 0x40) << 3);
    let lines = vde + 1;
    if v.crtc[9] & 0x80 != 0 {
        lines / 2
    } else {
        lines
    }
}

/// Bytes from one line to the next in the adapter's address space (the
/// offset register in byte, word or doubleword units).
fn pitch(v: &Vga) -> usize {
    let unit = if v.crtc[0x14] & 0x40 != 0 {
        8
    } else if v.crtc[0x17] & 0x40 == 0 {
        4
    } else {
        2
    };
    usize::from(v.crtc[0x13]) * unit
}

fn start_address(v: &Vga) -> usize {
    usize::from(v.crtc[0x0C]) << 8 | usize::from(v.crtc[0x0D])
}

/// Linear address of the memory map the graphics controller selects.
fn map_base(v: &Vga) -> u64 {
    match (v.gc[6] >> 2) & 3 {
        2 => 0xB0000,
        3 => 0xB8000,
        _ => 0xA0000,
    }
}

fn read(uc: &Uc<'_>, at: u64, len: usize) -> Vec<u8> {
    let mut b = vec![0u8; len];
    let _ = uc.mem_read(at, &mut b);
    b
}

/// The screen as the adapter shows it now.
pub fn render(uc: &Uc<'_>) -> Frame {
    let v: &Vga = &uc.get_data().vga;
    if v.gc[6] & 1 == 0 {
        return text(uc, v);
    }
    let dots = (usize::from(v.crtc[1]) + 1) * 8;
    let width = if v.ac[0x10] & 0x40 != 0 {
        dots / 2
    } else {
        dots
    };
    let max_scan = usize::from(v.crtc[9] & 0x1F) + 1;
    let cga = v.crtc[0x17] & 1 == 0;
    let height = if cga {
        scan_lines(v) / (max_scan / 2).max(1)
    } else {
        scan_lines(v) / max_scan
    };
    let mut f = Frame::new(width, height);
    let (width, height) = (f.width, f.height);
    let pitch = pitch(v);
    let start = start_address(v);
    if v.gc[5] & 0x40 != 0 {
        // 256 colours.
        if v.seq[4] & 0x08 != 0 {
            let mem = read(uc, 0xA0000, 0x10000);
            for y in 0..height {
                for x in 0..width {
                    let a = (start * 4 + y * pitch + x) & 0xFFFF;
                    f.set(x, y, v.rgb(mem[a]));
                }
            }
        } else {
            for y in 0..height {
                for x in 0..width {
                    let a = (start + y * pitch + x / 4) & 0xFFFF;
                    f.set(x, y, v.rgb(plane(v, x & 3, a)));
                }
            }
        }
    } else if v.gc[5] & 0x20 != 0 || (cga && !v.planar()) {
        // CGA: even rows at the map's start, odd ones 2000h on.
        let bits = if v.gc[5] & 0x20 != 0 { 2 } else { 1 };
        let mem = read(uc, map_base(v), 0x8000);
        for y in 0..height {
            let row = (y & 1) * 0x2000 + (y >> 1) * pitch + start * 2;
            for x in 0..width {
                let byte = mem[(row + x * bits / 8) & 0x7FFF];
                let shift = 8 - bits - (x * bits) % 8;
                let p = (byte >> shift) & ((1 << bits) - 1);
                f.set(x, y, v.rgb(v.attribute(p)));
            }
        }
    } else {
        // Planar 16 colours.
        for y in 0..height {
            for x in 0..width {
                let a = (start + y * pitch + x / 8) & 0xFFFF;
                let bit = 7 - (x % 8);
                let mut p = 0u8;
                for k in 0..4 {
                    p |= ((plane(v, k, a) >> bit) & 1) << k;
                }
                f.set(x, y, v.rgb(v.attribute(p)));
            }
        }
    }
    f
}

fn plane(v: &Vga, p: usize, a: usize) -> u8 {
    v.planes
        .get(p * crate::machine::vga::PLANE + a)
        .copied()
        .unwrap_or(0)
}

/// A text screen (module doc).
fn text(uc: &Uc<'_>, v: &Vga) -> Frame {
    let cols = (usize::from(v.crtc[1]) + 1).min(160);
    let cell_h = usize::from(v.crtc[9] & 0x1F) + 1;
    let rows = (scan_lines(v) / cell_h).clamp(1, 100);
    let font = match cell_h {
        ..=8 => font::F8,
        9..=14 => font::F14,
        _ => font::F16,
    };
    let nine = v.seq[1] & 1 == 0;
    let dot_w = if nine { 9 } else { 8 };
    let double = if v.seq[1] & 0x08 != 0 { 2 } else { 1 };
    let mut f = Frame::new(cols * dot_w * double, rows * cell_h);
    let pitch_cells = (pitch(v) / 2).max(1);
    let mem = read(uc, map_base(v), 0x8000);
    let start = start_address(v);
    let blink = v.ac[0x10] & 0x08 != 0;
    let line_graphics = v.ac[0x10] & 0x04 != 0;
    for row in 0..rows {
        for col in 0..cols {
            let a = ((start + row * pitch_cells + col) * 2) & 0x7FFF;
            let (ch, attr) = (mem[a], mem[(a + 1) & 0x7FFF]);
            let fg = v.rgb(v.attribute(attr & 0x0F));
            let bg = v.rgb(v.attribute(if blink { (attr >> 4) & 7 } else { attr >> 4 }));
            let glyph = match &v.text_font {
                Some(loaded) => &loaded[usize::from(ch) * 32..usize::from(ch) * 32 + 32],
                None => font.glyph(ch),
            };
            for line in 0..cell_h {
                let bits = glyph.get(line).copied().unwrap_or(0);
                for dot in 0..dot_w {
                    let on = if dot < 8 {
                        bits & (0x80 >> dot) != 0
                    } else {
                        line_graphics && (0xC0..=0xDF).contains(&ch) && bits & 1 != 0
                    };
                    let c = if on { fg } else { bg };
                    for d in 0..double {
                        f.set((col * dot_w + dot) * double + d, row * cell_h + line, c);
                    }
                }
            }
        }
    }
    f
}

/// Is the screen a text screen holding nothing but blanks?
fn blank_text(uc: &Uc<'_>) -> bool {
    let v = &uc.get_data().vga;
    v.gc[6] & 1 == 0
        && read(uc, map_base(v), 80 * 50 * 2)
            .chunks(2)
            .all(|c| c[0] == b' ' || c[0] == 0)
}

/// INT 10h is about to set a mode: keep the graphics screen being left
/// for a text mode (the run's picture, module doc) and write the next
/// file of a series.
pub fn before_mode_set(env: &mut Env, uc: &Uc<'_>, new_mode: u8) {
    use crate::machine::Cpu;
    if uc.mode() != crate::walk::CpuMode::Real {
        // A Win16 program's screen is GDI's, pictured by win16/gdi.
        return;
    }
    let graphics = uc.get_data().vga.gc[6] & 1 != 0;
    if graphics && matches!(new_mode & 0x7F, 0..=3 | 7) {
        env.dos.shots.left_graphics = Some(render(uc));
    }
    if !blank_text(uc) {
        series_shot(env, uc);
    }
}

/// Write the next file of the series, if one is asked for.
pub fn series_shot(env: &Env, uc: &Uc<'_>) {
    let Some(path) = env.win16.next_shot_file() else {
        return;
    };
    if let Err(e) = render(uc)
        .png()
        .and_then(|png| std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display())))
    {
        env.win16.shot_failed(e);
    }
}

/// The run's picture (module doc); `ended`: the program has exited.
pub fn final_png(env: &Env, uc: &Uc<'_>, ended: bool) -> Result<Vec<u8>, String> {
    let in_text = uc.get_data().vga.gc[6] & 1 == 0;
    match &env.dos.shots.left_graphics {
        Some(f) if ended && in_text => f.png(),
        _ => render(uc).png(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;

    #[test]
    fn a_text_cell_is_nine_dots_of_the_vga_font() {
        let mut m = Machine::new_real().unwrap();
        // 'A' white on blue at row 0 column 1; C4h (a horizontal line)
        // light red on black at column 2.
        m.mem_write(0xB8000, &[b' ', 0x07, b'A', 0x1F, 0xC4, 0x0C])
            .unwrap();
        let f = render(&m);
        assert_eq!((f.width, f.height), (720, 400));
        // Column 1 starts at x = 9. 'A' row 7 (#######.) is all
        // foreground but its 8th dot; the 9th dot is background.
        assert_eq!(f.get(9, 7), Some([0xFF; 3]));
        assert_eq!(f.get(15, 7), Some([0xFF; 3]));
        assert_eq!(f.get(16, 7), Some([0, 0, 0xAA]));
        assert_eq!(f.get(17, 7), Some([0, 0, 0xAA]));
        assert_eq!(f.get(9, 0), Some([0, 0, 0xAA]));
        // C4h: its line (rows 7 and 8 of the glyph? the whole 8th row)
        // reaches the 9th dot.
        let g = font::F16.glyph(0xC4);
        let line = g.iter().position(|&b| b == 0xFF).unwrap();
        assert_eq!(f.get(18 + 8, line), Some([0xFF, 0x55, 0x55]));
        assert_eq!(f.get(18, line), Some([0xFF, 0x55, 0x55]));
    }

    #[test]
    fn forty_columns_are_doubled_to_the_same_width() {
        use crate::machine::Cpu;
        let mut m = Machine::new_real().unwrap();
        m.get_data_mut().vga.load_mode(1);
        m.write_u16_at(0x40, 0x4A, 40).unwrap();
        // The BIOS's text functions lay the screen out 40 cells a row.
        super::super::screen::put(&mut m, 1, 1, 0xDB, 0x0E);
        let f = render(&m);
        assert_eq!((f.width, f.height), (720, 400));
        // Cell (1, 1): x 18..=35 (9 dots, each doubled), y from 16; the
        // full block (in C0h-DFh) fills the 9th dot too.
        assert_eq!(f.get(18, 16), Some([0xFF, 0xFF, 0x55]));
        assert_eq!(f.get(33, 31), Some([0xFF, 0xFF, 0x55]));
        assert_eq!(f.get(35, 16), Some([0xFF, 0xFF, 0x55]));
        assert_eq!(f.get(36, 16), Some([0, 0, 0]));
        assert_eq!(f.get(17, 16), Some([0, 0, 0]));
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            /// Whatever a program writes to the adapter's ports and its
            /// planar window, the picture is drawn, bounded, without a
            /// panic.
            #[test]
            fn any_register_values_draw_a_bounded_picture(
                mode in prop::sample::select(vec![3u8, 4, 6, 0x0D, 0x12, 0x13]),
                writes in proptest::collection::vec((0x3B4u16..0x3DB, any::<u8>()), 0..64),
                mem in proptest::collection::vec((any::<u16>(), any::<u8>()), 0..32),
            ) {
                let mut m = Machine::new_real().unwrap();
                m.get_data_mut().vga.load_mode(mode);
                for (port, v) in writes {
                    m.get_data_mut().vga.port_out(port, v);
                    let _ = m.get_data_mut().vga.port_in(port);
                }
                for (off, v) in mem {
                    let vga = &mut m.get_data_mut().vga;
                    vga.read_byte(usize::from(off));
                    vga.write_byte(usize::from(off), v);
                }
                let f = render(&m);
                prop_assert!(f.width >= 1 && f.width <= MAX_SIDE);
                prop_assert!(f.height >= 1 && f.height <= MAX_SIDE);
                prop_assert_eq!(f.rgb.len(), f.width * f.height * 3);
            }
        }
    }
}
