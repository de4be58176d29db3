//! The VGA BIOS's graphics services (INT 10h), over the adapter of
//! machine/vga.rs: setting a mode (AH=00h, bit 7 of AL keeping the
//! screen's memory), the display page (AH=05h), the CGA palette (AH=0Bh),
//! pixels (AH=0Ch/0Dh), the BIOS's text in graphics modes (AH=09h, 0Ah,
//! 0Eh, scrolling with AH=06h/07h), the palette and DAC (AH=10h) and the
//! ROM fonts (AX=1130h). Text-mode services stay with the text screen
//! (screen.rs, bios.rs).
//!
//! What each call does is the IBM VGA BIOS's (IBM VGA Technical Reference,
//! "BIOS summary"; Ralf Brown's interrupt list for the register
//! conventions): a mode set loads the registers and the DAC table of the
//! mode (vga.rs), fills the BIOS data area (0040:0049 mode, 004A columns,
//! 004C page size, 004E page start, 0050 cursors, 0062 page, 0065/0066 the
//! CGA mode and palette bytes, 0084 rows - 1, 0085 character height, 0087
//! bit 7 "memory not cleared"), and clears the mode's memory unless AL bit
//! 7 is set; pixel colours with bit 7 set are XORed in.

use super::{font, host, picture, set_al};
use crate::dos::Env;
use crate::machine::vga::PLANE;
use crate::machine::{Cpu, R, Stop, Uc};

/// The BIOS's mode number (0040:0049).
pub fn mode(uc: &Uc<'_>) -> u8 {
    let mut m = [3u8];
    let _ = uc.read_seg(0x40, 0x49, &mut m);
    m[0]
}

/// Is the adapter in a graphics mode?
pub fn graphics(uc: &Uc<'_>) -> bool {
    uc.get_data().vga.gc[6] & 1 != 0
}

/// Geometry of a BIOS mode: columns, rows, character height, page size,
/// graphics width and height (0 for text).
fn geometry(mode: u8) -> Option<(u16, u8, u8, u16, u16, u16)> {
    Some(match mode {
        0 | 1 => (40, 25, 16, 0x0800, 0, 0),
        2 | 3 | 7 => (80, 25, 16, 0x1000, 0, 0),
        4 | 5 => (40, 25, 8, 0x4000, 320, 200),
        6 => (80, 25, 8, 0x4000, 640, 200),
        0x0D => (40, 25, 8, 0x2000, 320, 200),
        0x0E => (80, 25, 8, 0x4000, 640, 200),
        0x10 => (80, 25, 14, 0x8000, 640, 350),
        0x11 | 0x12 => (80, 30, 16, 0xA000, 640, 480),
        0x13 => (40, 25, 8, 0xFA00, 320, 200),
        _ => return None,
    })
}

/// INT 10h AH=00h.
pub fn set_mode(env: &mut Env, uc: &mut Uc<'_>, al: u8) -> Result<(), Stop> {
    let m = al & 0x7F;
    let Some((cols, rows, char_h, page_size, _, _)) = geometry(m) else {
        // A mode this VGA does not have: the BIOS changes nothing.
        return Ok(());
    };
    picture::before_mode_set(env, uc, al);
    uc.get_data_mut().vga.load_mode(m);
    crate::machine::vga::update_mapping(uc).map_err(|e| Stop::Error(e.0))?;
    let _ = uc.write_seg(0x40, 0x49, &[m]);
    let _ = uc.write_u16_at(0x40, 0x4A, cols);
    let _ = uc.write_u16_at(0x40, 0x4C, page_size);
    let _ = uc.write_u16_at(0x40, 0x4E, 0);
    let _ = uc.write_seg(0x40, 0x50, &[0; 16]);
    let _ = uc.write_seg(0x40, 0x62, &[0]);
    let (crt_mode, palette) = match m {
        0 => (0x2C, 0x30),
        1 => (0x28, 0x30),
        2 => (0x2D, 0x30),
        4 => (0x2A, 0x30),
        5 => (0x2E, 0x30),
        6 => (0x1E, 0x3F),
        _ => (0x29, 0x30),
    };
    let _ = uc.write_seg(0x40, 0x65, &[crt_mode, palette]);
    let _ = uc.write_seg(0x40, 0x84, &[rows - 1]);
    let _ = uc.write_u16_at(0x40, 0x85, u16::from(char_h));
    let mut info = [0u8];
    let _ = uc.read_seg(0x40, 0x87, &mut info);
    let _ = uc.write_seg(0x40, 0x87, &[(info[0] & 0x7F) | (al & 0x80)]);
    let f = font::for_mode(m);
    let _ = uc.write_u16_at(0, 0x43 * 4, f.off);
    let _ = uc.write_u16_at(0, 0x43 * 4 + 2, font::SEG);
    if al & 0x80 == 0 {
        clear(uc, m);
    }
    Ok(())
}

fn clear(uc: &mut Uc<'_>, m: u8) {
    // The adapter's memory is the planes: whatever mode comes, what
    // another mode left there is gone.
    let vga = &mut uc.get_data_mut().vga;
    if !vga.planes.is_empty() {
        vga.planes.iter_mut().for_each(|b| *b = 0);
    }
    match m {
        0..=3 => super::screen::clear(uc),
        7 => {
            let blank: Vec<u8> = [b' ', 0x07].repeat(0x4000);
            let _ = uc.mem_write(0xB0000, &blank);
        }
        4..=6 => {
            let _ = uc.mem_write(0xB8000, &[0u8; 0x8000]);
        }
        0x13 => {
            let _ = uc.mem_write(0xA0000, &vec![0u8; PLANE]);
        }
        _ => uc.get_data_mut().vga.planes.resize(4 * PLANE, 0),
    }
    if (0..=3).contains(&m) {
        super::screen::set_cursor(uc, 0, 0);
    }
}

/// INT 10h AH=05h: show page AL (the CRTC's start address moves to it).
pub fn set_page(uc: &mut Uc<'_>, page: u8) {
    let m = mode(uc);
    let Some((_, _, _, size, w, _)) = geometry(m) else {
        return;
    };
    let page = page & 7;
    let start = u32::from(page) * u32::from(size);
    let _ = uc.write_seg(0x40, 0x62, &[page]);
    let _ = uc.write_u16_at(0x40, 0x4E, start as u16);
    // Text counts the start in cells; planar modes in bytes of a plane.
    let crtc_start = if w == 0 { start / 2 } else { start };
    let vga = &mut uc.get_data_mut().vga;
    vga.crtc[0x0C] = (crtc_start >> 8) as u8;
    vga.crtc[0x0D] = crtc_start as u8;
}

/// Where a pixel of a BIOS mode lives.
enum Place {
    /// CGA memory: linear address, bit shift, bits per pixel.
    Cga(u64, u8, u8),
    /// Planar: offset in each plane, bit.
    Planar(usize, u8),
    /// Mode 13h: linear address (chain 4) or plane and offset (unchained).
    Linear(u64),
    Unchained(usize, usize),
}

/// The graphics mode as one BIOS call finds it: the mode byte and its
/// geometry read once, not for every pixel (a string printed in a
/// graphics mode draws and scrolls hundreds of thousands of pixels).
#[derive(Clone, Copy)]
struct Screen {
    mode: u8,
    /// Character cells: columns and rows.
    cols: u16,
    rows: u16,
    width: u16,
    height: u16,
    page_size: u16,
    /// Mode 13h with chain 4 off (the "mode X" planes).
    unchained: bool,
}

/// Where the bytes of one row's pixels live, for moving whole rows.
enum Rows {
    /// The same offsets in each of the four planes.
    Planes,
    /// Emulated memory from a linear address, of this length.
    Memory(u64, usize),
}

impl Screen {
    /// The current graphics mode; None in a text mode.
    fn of(uc: &Uc<'_>) -> Option<Screen> {
        let mode = mode(uc);
        let (cols, rows, _, page_size, width, height) = geometry(mode)?;
        (width != 0).then(|| Screen {
            mode,
            cols,
            rows: u16::from(rows),
            width,
            height,
            page_size,
            unchained: uc.get_data().vga.mapped,
        })
    }

    fn place(&self, page: u8, x: u16, y: u16) -> Option<Place> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let (x, y) = (usize::from(x), usize::from(y));
        let bank = (y & 1) * 0x2000 + (y >> 1) * 80;
        Some(match self.mode {
            4 | 5 => Place::Cga(0xB8000 + (bank + x / 4) as u64, (6 - 2 * (x % 4)) as u8, 2),
            6 => Place::Cga(0xB8000 + (bank + x / 8) as u64, (7 - x % 8) as u8, 1),
            0x13 if self.unchained => Place::Unchained(x & 3, y * 80 + x / 4),
            0x13 => Place::Linear(0xA0000 + (y * 320 + x) as u64),
            _ => {
                let pitch = usize::from(self.width) / 8;
                let base = usize::from(page & 7) * usize::from(self.page_size);
                Place::Planar((base + y * pitch + x / 8) % PLANE, (7 - x % 8) as u8)
            }
        })
    }

    /// Where rows live, for [`Screen::row`].
    fn rows(&self) -> Rows {
        match self.mode {
            4..=6 => Rows::Memory(0xB8000, 0x4000),
            0x13 if self.unchained => Rows::Planes,
            0x13 => Rows::Memory(0xA0000, 320 * 200),
            _ => Rows::Planes,
        }
    }

    /// The bytes of page 0 holding pixels `x0..x1` of row `y` (`x0` and
    /// `x1` multiples of 8, as character cells are): offset and length,
    /// in each plane or in the memory of [`Screen::rows`].
    fn row(&self, y: u16, x0: u16, x1: u16) -> (usize, usize) {
        let (y, x0, x1) = (usize::from(y), usize::from(x0), usize::from(x1));
        let bank = (y & 1) * 0x2000 + (y >> 1) * 80;
        match self.mode {
            4 | 5 => (bank + x0 / 4, (x1 - x0) / 4),
            6 => (bank + x0 / 8, (x1 - x0) / 8),
            0x13 if self.unchained => (y * 80 + x0 / 4, (x1 - x0) / 4),
            0x13 => (y * 320 + x0, x1 - x0),
            _ => (y * (usize::from(self.width) / 8) + x0 / 8, (x1 - x0) / 8),
        }
    }

    /// The byte that fills a row with colour `c`: in plane `plane`, or in
    /// memory (`None`).
    fn fill_byte(&self, c: u8, plane: Option<usize>) -> u8 {
        match (self.mode, plane) {
            (4 | 5, _) => (c & 3) * 0x55,
            (6, _) => 0u8.wrapping_sub(c & 1),
            (0x13, _) => c,
            (_, Some(p)) => 0u8.wrapping_sub((c >> p) & 1),
            (_, None) => 0,
        }
    }

    /// Write a pixel as INT 10h AH=0Ch does (colour bit 7: XOR).
    fn put(&self, uc: &mut Uc<'_>, page: u8, x: u16, y: u16, color: u8) {
        let xor = color & 0x80 != 0;
        match self.place(page, x, y) {
            Some(Place::Cga(at, shift, bits)) => {
                let mut b = [0u8];
                let _ = uc.mem_read(at, &mut b);
                let mask = ((1u8 << bits) - 1) << shift;
                let v = ((color & 0x7F) << shift) & mask;
                b[0] = if xor { b[0] ^ v } else { (b[0] & !mask) | v };
                let _ = uc.mem_write(at, &b);
            }
            Some(Place::Planar(off, bit)) => {
                let vga = &mut uc.get_data_mut().vga;
                if vga.planes.is_empty() {
                    vga.planes.resize(4 * PLANE, 0);
                }
                for p in 0..4 {
                    let byte = &mut vga.planes[p * PLANE + off];
                    let on = color & (1 << p) != 0;
                    if xor {
                        if on {
                            *byte ^= 1 << bit;
                        }
                    } else if on {
                        *byte |= 1 << bit;
                    } else {
                        *byte &= !(1 << bit);
                    }
                }
            }
            Some(Place::Linear(at)) => {
                let mut b = [0u8];
                let _ = uc.mem_read(at, &mut b);
                b[0] = if xor { b[0] ^ color } else { color };
                let _ = uc.mem_write(at, &b);
            }
            Some(Place::Unchained(p, off)) => {
                let vga = &mut uc.get_data_mut().vga;
                if let Some(b) = vga.planes.get_mut(p * PLANE + off) {
                    *b = if xor { *b ^ color } else { color };
                }
            }
            None => {}
        }
    }

    /// Read a pixel as INT 10h AH=0Dh does (0 outside the screen).
    fn get(&self, uc: &Uc<'_>, page: u8, x: u16, y: u16) -> u8 {
        let vga = &uc.get_data().vga;
        let plane = |p: usize, off: usize| vga.planes.get(p * PLANE + off).copied().unwrap_or(0);
        match self.place(page, x, y) {
            Some(Place::Cga(at, shift, bits)) => {
                let mut b = [0u8];
                let _ = uc.mem_read(at, &mut b);
                (b[0] >> shift) & ((1 << bits) - 1)
            }
            Some(Place::Planar(off, bit)) => {
                (0..4).fold(0, |c, p| c | ((plane(p, off) >> bit) & 1) << p)
            }
            Some(Place::Linear(at)) => {
                let mut b = [0u8];
                let _ = uc.mem_read(at, &mut b);
                b[0]
            }
            Some(Place::Unchained(p, off)) => plane(p, off),
            None => 0,
        }
    }

    /// The BIOS's character cells: columns, rows, character height.
    fn cells(&self) -> (u16, u16, u16) {
        (
            self.cols,
            self.rows,
            u16::from(font::for_mode(self.mode).height),
        )
    }

    /// Draw character `ch` at cell (col, row) in colour `color` (bit 7:
    /// XOR), the rest of the cell in colour 0 (IBM's BIOS in graphics
    /// modes).
    fn draw_char(&self, uc: &mut Uc<'_>, page: u8, col: u16, row: u16, ch: u8, color: u8) {
        let f = font::for_mode(self.mode);
        let h = u16::from(f.height);
        for (line, bits) in f.glyph(ch).iter().enumerate() {
            for dot in 0..8u16 {
                let on = bits & (0x80 >> dot) != 0;
                let (x, y) = (col * 8 + dot, row * h + line as u16);
                if color & 0x80 != 0 {
                    if on {
                        self.put(uc, page, x, y, color);
                    }
                } else {
                    self.put(uc, page, x, y, if on { color } else { 0 });
                }
            }
        }
    }
}

/// Write a pixel as INT 10h AH=0Ch does (colour bit 7: XOR).
pub fn put_pixel(uc: &mut Uc<'_>, page: u8, x: u16, y: u16, color: u8) {
    if let Some(s) = Screen::of(uc) {
        s.put(uc, page, x, y, color);
    }
}

/// Read a pixel as INT 10h AH=0Dh does (0 outside the screen).
pub fn get_pixel(uc: &Uc<'_>, page: u8, x: u16, y: u16) -> u8 {
    Screen::of(uc).map_or(0, |s| s.get(uc, page, x, y))
}

/// Draw character `ch` at cell (col, row) in colour `color` (bit 7: XOR),
/// the rest of the cell in colour 0 (IBM's BIOS in graphics modes).
pub fn draw_char(uc: &mut Uc<'_>, page: u8, col: u16, row: u16, ch: u8, color: u8) {
    if let Some(s) = Screen::of(uc) {
        s.draw_char(uc, page, col, row, ch, color);
    }
}

/// Scroll the window of cells (top, left)-(bottom, right) up (or down)
/// by `n` rows (0: clear it), filling with colour `fill` (AH=06h/07h in a
/// graphics mode). Cells are whole bytes in every mode, so the window
/// moves a row of bytes at a time (in each plane, or in the mode's memory,
/// read once and written back once): the same pixels as moving them one
/// by one, at the cost of a memory copy.
#[allow(clippy::too_many_arguments)]
pub fn scroll(
    uc: &mut Uc<'_>,
    up: bool,
    n: u16,
    fill: u8,
    top: u16,
    left: u16,
    bottom: u16,
    right: u16,
) {
    let Some(s) = Screen::of(uc) else {
        return;
    };
    let (cols, rows, h) = s.cells();
    let (bottom, right) = (bottom.min(rows - 1), right.min(cols - 1));
    if top > bottom || left > right {
        return;
    }
    let height = bottom - top + 1;
    let n = if n == 0 || n > height { height } else { n };
    let (x0, x1) = (left * 8, right * 8 + 8);
    let (y0, y1) = (top * h, ((bottom + 1) * h).min(s.height));
    let dy = n * h;
    let fill = fill & 0x7F;
    // Each destination row, in the order that never reads a row already
    // written: its source row, or None to fill.
    let moves = (y0..y1).map(|y| {
        let src = if up {
            y.checked_add(dy)
        } else {
            y.checked_sub(dy)
        };
        (y, src.filter(|&r| r >= y0 && r < y1))
    });
    let moves: Vec<(u16, Option<u16>)> = if up {
        moves.collect()
    } else {
        moves.rev().collect()
    };
    match s.rows() {
        Rows::Planes => {
            let vga = &mut uc.get_data_mut().vga;
            if vga.planes.is_empty() {
                vga.planes.resize(4 * PLANE, 0);
            }
            for p in 0..4 {
                let plane = &mut vga.planes[p * PLANE..(p + 1) * PLANE];
                let b = s.fill_byte(fill, Some(p));
                for &(y, src) in &moves {
                    let (to, len) = s.row(y, x0, x1);
                    match src {
                        Some(r) => {
                            let from = s.row(r, x0, x1).0;
                            plane.copy_within(from..from + len, to);
                        }
                        None => plane[to..to + len].fill(b),
                    }
                }
            }
        }
        Rows::Memory(at, size) => {
            let mut mem = vec![0u8; size];
            if uc.mem_read(at, &mut mem).is_err() {
                return;
            }
            let b = s.fill_byte(fill, None);
            for &(y, src) in &moves {
                let (to, len) = s.row(y, x0, x1);
                match src {
                    Some(r) => {
                        let from = s.row(r, x0, x1).0;
                        mem.copy_within(from..from + len, to);
                    }
                    None => mem[to..to + len].fill(b),
                }
            }
            let _ = uc.mem_write(at, &mem);
        }
    }
}

fn cursor(uc: &Uc<'_>) -> (u16, u16) {
    let mut b = [0u8; 2];
    let _ = uc.read_seg(0x40, 0x50, &mut b);
    (u16::from(b[0]), u16::from(b[1]))
}

fn set_cursor(uc: &mut Uc<'_>, col: u16, row: u16) {
    let _ = uc.write_seg(0x40, 0x50, &[col as u8, row as u8]);
}

/// The BIOS teletype in a graphics mode (AH=0Eh, and DOS's console
/// output there): BEL, BS, CR, LF act, other characters are drawn in
/// `color` at the cursor, which advances; the screen scrolls a row at the
/// bottom.
pub fn teletype(uc: &mut Uc<'_>, ch: u8, color: u8) {
    let Some(s) = Screen::of(uc) else {
        return;
    };
    let (cols, rows, _) = s.cells();
    let (mut col, mut row) = cursor(uc);
    match ch {
        0x07 => {}
        0x08 => col = col.saturating_sub(1),
        b'\r' => col = 0,
        b'\n' => row += 1,
        _ => {
            s.draw_char(uc, 0, col.min(cols - 1), row.min(rows - 1), ch, color);
            col += 1;
            if col >= cols {
                col = 0;
                row += 1;
            }
        }
    }
    if row >= rows {
        scroll(uc, true, 1, 0, 0, 0, rows - 1, cols - 1);
        row = rows - 1;
    }
    set_cursor(uc, col, row);
}

/// AH=09h/0Ah in a graphics mode: CX copies of AL from the cursor on, in
/// colour BL; the cursor stays.
pub fn write_chars(uc: &mut Uc<'_>, ch: u8, color: u8, count: u16) {
    let Some(s) = Screen::of(uc) else {
        return;
    };
    let (cols, rows, _) = s.cells();
    let (c, r) = cursor(uc);
    for k in 0..count.min(cols * rows) {
        let pos = c + k;
        let (col, row) = (pos % cols, r + pos / cols);
        if row < rows {
            s.draw_char(uc, 0, col, row, ch, color);
        }
    }
}

/// AH=0Bh: BH=0 sets the background (and border) colour from BL, whose
/// bit 4 also picks the foreground intensity in the CGA modes; BH=1
/// selects CGA palette BL (0: green, red, brown; 1: cyan, magenta, white).
pub fn cga_palette(uc: &mut Uc<'_>, bh: u8, bl: u8) {
    let g = graphics(uc);
    let vga = &mut uc.get_data_mut().vga;
    if bh == 0 {
        let c = (bl & 7) | if bl & 8 != 0 { 0x10 } else { 0 };
        vga.ac[0x11] = c;
        if g {
            vga.ac[0] = c;
            for i in 1..4 {
                vga.ac[i] = (vga.ac[i] & !0x10) | (bl & 0x10);
            }
        }
    } else if bh == 1 && g {
        for i in 1..4 {
            vga.ac[i] = (vga.ac[i] & 0x10) | (2 * i as u8 + (bl & 1));
        }
    }
}

/// AH=10h: the palette registers and the DAC.
pub fn palette(uc: &mut Uc<'_>, al: u8) -> Result<(), Stop> {
    let (bx, cx, dx, es) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX), uc.reg(R::ES));
    let (bh, bl) = ((bx >> 8) as u8, bx as u8);
    match al {
        0x00 if bl < 16 => uc.get_data_mut().vga.ac[usize::from(bl)] = bh & 0x3F,
        0x01 => uc.get_data_mut().vga.ac[0x11] = bh,
        0x02 => {
            let mut t = [0u8; 17];
            let _ = uc.read_seg(es, dx, &mut t);
            let vga = &mut uc.get_data_mut().vga;
            for (i, v) in t[..16].iter().enumerate() {
                vga.ac[i] = v & 0x3F;
            }
            vga.ac[0x11] = t[16];
        }
        0x03 => {
            let vga = &mut uc.get_data_mut().vga;
            vga.ac[0x10] = (vga.ac[0x10] & !0x08) | if bl & 1 != 0 { 0x08 } else { 0 };
        }
        0x07 if bl < 0x15 => {
            let v = uc.get_data().vga.ac[usize::from(bl)];
            uc.set_reg(R::BX, u16::from(v) << 8 | u16::from(bl))
                .map_err(host)?;
        }
        0x08 => {
            let v = uc.get_data().vga.ac[0x11];
            uc.set_reg(R::BX, u16::from(v) << 8 | u16::from(bl))
                .map_err(host)?;
        }
        0x09 => {
            let vga = &uc.get_data().vga;
            let mut t = [0u8; 17];
            t[..16].copy_from_slice(&vga.ac[..16]);
            t[16] = vga.ac[0x11];
            let _ = uc.write_seg(es, dx, &t);
        }
        0x10 => {
            uc.get_data_mut().vga.dac[usize::from(bx & 0xFF)] = [
                (dx >> 8) as u8 & 0x3F,
                (cx >> 8) as u8 & 0x3F,
                cx as u8 & 0x3F,
            ];
        }
        0x12 | 0x17 => {
            let first = usize::from(bx & 0xFF);
            let n = usize::from(cx).min(256 - first);
            if al == 0x12 {
                let mut t = vec![0u8; n * 3];
                let _ = uc.read_seg(es, dx, &mut t);
                let vga = &mut uc.get_data_mut().vga;
                for (k, rgb) in t.chunks(3).enumerate() {
                    vga.dac[first + k] = [rgb[0] & 0x3F, rgb[1] & 0x3F, rgb[2] & 0x3F];
                }
            } else {
                let t: Vec<u8> = uc.get_data().vga.dac[first..first + n]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                let _ = uc.write_seg(es, dx, &t);
            }
        }
        0x15 => {
            let [r, g, b] = uc.get_data().vga.dac[usize::from(bx & 0xFF)];
            uc.set_reg(R::DX, u16::from(r) << 8 | (dx & 0xFF))
                .map_err(host)?;
            uc.set_reg(R::CX, u16::from(g) << 8 | u16::from(b))
                .map_err(host)?;
        }
        // Get the colour page state: mode 0 (4 pages of 64), page 0.
        0x1A => {
            let sel = uc.get_data().vga.ac[0x14];
            let paging = uc.get_data().vga.ac[0x10] >> 7;
            uc.set_reg(R::BX, u16::from(sel & 0x0F) << 8 | u16::from(paging))
                .map_err(host)?;
        }
        // Sum to grey: each of CX entries from BX becomes 30% red, 59%
        // green, 11% blue.
        0x1B => {
            let first = usize::from(bx & 0xFF);
            let n = usize::from(cx).min(256 - first);
            let vga = &mut uc.get_data_mut().vga;
            for e in &mut vga.dac[first..first + n] {
                let y =
                    (u32::from(e[0]) * 30 + u32::from(e[1]) * 59 + u32::from(e[2]) * 11 + 50) / 100;
                *e = [y.min(0x3F) as u8; 3];
            }
        }
        _ => {}
    }
    Ok(())
}

/// AH=11h AL=00h-14h, the text modes' character generator: AL=00h/10h
/// load CX characters of BH bytes each from ES:BP, the first being DX;
/// AL=01h/11h, 02h/12h, 04h/14h load the ROM's 8x14, 8x8 and 8x16 sets;
/// AL=03h selects the blocks (sequencer register 3). The fonts go into
/// block BL, and only block 0 is shown (the one the BIOS selects). The
/// 1xh forms also make the font's height the character height: the CRTC's
/// maximum scan line, 0040:0085, and the rows (0040:0084) of the 400
/// lines (25 with 16 lines, 28 with 14, 50 with 8).
pub fn load_font(uc: &mut Uc<'_>, al: u8) -> Result<(), Stop> {
    if graphics(uc) {
        return Ok(());
    }
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    let (bh, bl) = ((bx >> 8) as u8, bx as u8);
    if al == 0x03 {
        uc.get_data_mut().vga.seq[3] = bl;
        return Ok(());
    }
    let (height, first, glyphs) = match al & 0x0F {
        0 => {
            let h = usize::from(bh.clamp(1, 32));
            let n = usize::from(cx).min(256);
            let mut t = vec![0u8; n * h];
            let (es, bp) = (uc.reg(R::ES), uc.reg(R::BP));
            let _ = uc.read_seg(es, bp, &mut t);
            (h, usize::from(dx & 0xFF), t)
        }
        1 => (14, 0, font::F14.bytes.to_vec()),
        2 => (8, 0, font::F8.bytes.to_vec()),
        4 => (16, 0, font::F16.bytes.to_vec()),
        _ => return Ok(()),
    };
    if bl & 7 != 0 {
        return Ok(());
    }
    let vga = &mut uc.get_data_mut().vga;
    let cell_h = usize::from(vga.crtc[9] & 0x1F) + 1;
    let font = vga.text_font.get_or_insert_with(|| {
        let rom = match cell_h {
            ..=8 => font::F8,
            9..=14 => font::F14,
            _ => font::F16,
        };
        let mut f = vec![0u8; 256 * 32];
        for c in 0..=255u8 {
            let g = rom.glyph(c);
            f[usize::from(c) * 32..usize::from(c) * 32 + g.len()].copy_from_slice(g);
        }
        f
    });
    for (k, g) in glyphs.chunks(height).enumerate() {
        let c = first + k;
        if c > 255 {
            break;
        }
        let slot = &mut font[c * 32..c * 32 + 32];
        slot.fill(0);
        slot[..g.len()].copy_from_slice(g);
    }
    if al & 0x10 != 0 {
        vga.crtc[9] = (vga.crtc[9] & 0xE0) | (height as u8 - 1);
        let rows = (400 / height).clamp(1, 100) as u8;
        let _ = uc.write_u16_at(0x40, 0x85, height as u16);
        let _ = uc.write_seg(0x40, 0x84, &[rows - 1]);
    }
    Ok(())
}

/// AX=1130h: ES:BP = the font BH names (0 INT 1Fh's, 1 INT 43h's, 2 the
/// 8x14 set, 3 the 8x8 set, 4 its upper half, 5 the 9x14 alternates, 6
/// the 8x16 set, 7 the 9x16 alternates: the 8x14 and 8x16 sets, which
/// have no alternates here), CX = the character height, DL = rows - 1.
pub fn font_info(uc: &mut Uc<'_>) -> Result<(), Stop> {
    let bh = (uc.reg(R::BX) >> 8) as u8;
    let vector = |uc: &Uc<'_>, n: u16| {
        (
            uc.read_u16_at(0, n * 4 + 2).unwrap_or(0),
            uc.read_u16_at(0, n * 4).unwrap_or(0),
        )
    };
    let (seg, off) = match bh {
        0 => vector(uc, 0x1F),
        1 => vector(uc, 0x43),
        2 | 5 => (font::SEG, font::OFF_8X14),
        3 => (font::SEG, font::OFF_8X8),
        4 => (font::SEG, font::OFF_8X8 + 0x400),
        _ => (font::SEG, font::OFF_8X16),
    };
    uc.set_reg(R::ES, seg).map_err(host)?;
    uc.set_reg(R::BP, off).map_err(host)?;
    let h = uc.read_u16_at(0x40, 0x85).unwrap_or(16);
    let mut rows = [24u8];
    let _ = uc.read_seg(0x40, 0x84, &mut rows);
    uc.set_reg(R::CX, h).map_err(host)?;
    let dx = uc.reg(R::DX);
    uc.set_reg(R::DX, (dx & 0xFF00) | u16::from(rows[0]))
        .map_err(host)
}

/// AH=0Ch / 0Dh: write pixel AL at (CX, DX) of page BH, or read it into AL.
pub fn pixel(uc: &mut Uc<'_>, write: bool) -> Result<(), Stop> {
    let (ax, bx, cx, dx) = (uc.reg(R::AX), uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    let page = (bx >> 8) as u8;
    if write {
        put_pixel(uc, page, cx, dx, ax as u8);
        Ok(())
    } else {
        let c = get_pixel(uc, page, cx, dx);
        set_al(uc, c)
    }
}
