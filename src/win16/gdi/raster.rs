//! Raster operations and painting spans of pixels.
//!
//! **ROP2** (SetROP2, the 16 modes R2_BLACK = 1 … R2_WHITE = 16) combines
//! the pen or brush P with the destination D. Mode `n`'s value `n − 1` is
//! its truth table: bit `(P << 1) | D` of it is the result for those input
//! bits (R2_COPYPEN = 13: 1100b, P; R2_NOT = 6: 0101b, NOT D; R2_XORPEN =
//! 7: 0110b). It applies bit by bit to the device pixels.
//!
//! **ROP3** (BitBlt, PatBlt, StretchBlt's dwRop) combines pattern P,
//! source S and destination D. Bits 16..23 of the DWORD are the truth
//! table: bit `(P << 2) | (S << 1) | D` is the result (so SRCCOPY's 0xCC is
//! S, PATCOPY's 0xF0 is P, DSTINVERT's 0x55 is NOT D). The low word is the
//! operation's RPN encoding, which GDI did not need; all 256 codes work from
//! the table alone. Evaluated on whole pixel words as the OR of the table's
//! minterms.
//!
//! **Spans.** Every filled shape becomes horizontal runs `[x1, x2)` of one
//! row, clipped against the clip region's runs of that row (geom/region.rs)
//! and painted with a [`Paint`]: a solid pixel or an 8×8 pattern aligned to
//! the brush origin in surface coordinates (KB Q102353: in Windows 3.1
//! the brush origin is the screen's, fixed when the brush is realized).

use super::surface::Surface;
use crate::win16::geom::Region;

/// Apply ROP2 mode `r2` (1..=16; others act as R2_COPYPEN) to pen `p` and
/// destination `d`.
pub fn rop2(r2: u16, p: u32, d: u32, mask: u32) -> u32 {
    let t = if (1..=16).contains(&r2) { r2 - 1 } else { 12 };
    let v = match t {
        0 => 0,
        12 => p,
        5 => !d,
        6 => p ^ d,
        10 => d,
        15 => !0,
        _ => {
            let mut out = 0u32;
            for (k, (pp, dd)) in [(!p, !d), (!p, d), (p, !d), (p, d)].into_iter().enumerate() {
                if t >> k & 1 != 0 {
                    out |= pp & dd;
                }
            }
            out
        }
    };
    v & mask
}

/// Apply ternary raster operation `rop` (its truth-table byte, bits 16..23
/// of the DWORD) to pattern `p`, source `s`, destination `d`.
pub fn rop3(rop: u8, p: u32, s: u32, d: u32, mask: u32) -> u32 {
    let v = match rop {
        0x00 => 0,
        0xFF => !0,
        0xCC => s,
        0xF0 => p,
        0xAA => d,
        0x55 => !d,
        0x33 => !s,
        0x0F => !p,
        0x66 => s ^ d,
        0x88 => s & d,
        0xEE => s | d,
        0x5A => p ^ d,
        0xC0 => p & s,
        0xBB => !s | d,
        0x44 => s & !d,
        0x11 => !(s | d),
        0xFB => p | !s | d,
        _ => {
            let mut out = 0u32;
            for k in 0..8u8 {
                if rop >> k & 1 != 0 {
                    let pp = if k & 4 != 0 { p } else { !p };
                    let ss = if k & 2 != 0 { s } else { !s };
                    let dd = if k & 1 != 0 { d } else { !d };
                    out |= pp & ss & dd;
                }
            }
            out
        }
    };
    v & mask
}

/// Does the operation read the pattern, the source, the destination?
pub fn rop3_uses(rop: u8) -> (bool, bool, bool) {
    let uses = |bit: u8| (0..8u8).any(|k| (rop >> k & 1) != (rop >> (k ^ bit) & 1));
    (uses(4), uses(2), uses(1))
}

/// What a span is painted with.
#[derive(Debug, Clone)]
pub struct Paint {
    /// The 8×8 pattern's device pixels, row-major; all equal for a solid.
    pub pattern: [u32; 64],
    /// Cells left untouched (a hatched brush's gaps in TRANSPARENT mode).
    pub skip: Option<[bool; 64]>,
    /// Surface coordinates of the pattern's cell (0, 0).
    pub org: (i32, i32),
    pub solid: bool,
    /// The ROP2 mode.
    pub rop2: u16,
}

impl Paint {
    /// One colour, R2_COPYPEN unless changed.
    pub fn solid(px: u32, rop2: u16) -> Paint {
        Paint {
            pattern: [px; 64],
            skip: None,
            org: (0, 0),
            solid: true,
            rop2,
        }
    }

    /// The pattern's pixel for surface position (x, y), None when the cell
    /// is skipped.
    pub fn at(&self, x: i32, y: i32) -> Option<u32> {
        let i = (((y - self.org.1) & 7) * 8 + ((x - self.org.0) & 7)) as usize;
        match &self.skip {
            Some(s) if s[i] => None,
            _ => Some(self.pattern[i]),
        }
    }
}

/// Paint `[x1, x2)` of row `y` (already clipped to the surface and the clip
/// region).
pub fn fill_span(s: &mut Surface, y: i32, x1: i32, x2: i32, paint: &Paint) {
    if y < 0 || y >= s.height {
        return;
    }
    let x1 = x1.max(0);
    let x2 = x2.min(s.width);
    if x1 >= x2 {
        return;
    }
    let mask = s.format.mask();
    let row = s.row_mut(y);
    if paint.solid && paint.skip.is_none() {
        let p = paint.pattern[0] & mask;
        let r2 = if (1..=16).contains(&paint.rop2) {
            paint.rop2
        } else {
            13
        };
        match r2 {
            13 => row[x1 as usize..x2 as usize].fill(p),
            1 => row[x1 as usize..x2 as usize].fill(0),
            16 => row[x1 as usize..x2 as usize].fill(mask),
            11 => {}
            _ => {
                for d in &mut row[x1 as usize..x2 as usize] {
                    *d = rop2(r2, p, *d, mask);
                }
            }
        }
        return;
    }
    for x in x1..x2 {
        if let Some(p) = paint.at(x, y) {
            let d = &mut row[x as usize];
            *d = rop2(paint.rop2, p & mask, *d, mask);
        }
    }
}

/// Call `f(x1, x2)` for each part of `[x1, x2)` on row `y` inside `clip`.
pub fn clip_span(clip: &Region, y: i32, x1: i32, x2: i32, mut f: impl FnMut(i32, i32)) {
    if x1 >= x2 {
        return;
    }
    for &(a, b) in clip.row(y) {
        let l = a.max(x1);
        let r = b.min(x2);
        if l < r {
            f(l, r);
        }
        if a >= x2 {
            break;
        }
    }
}

/// Paint the pixels of `area` (surface coordinates) inside `clip`.
pub fn fill_region(s: &mut Surface, area: &Region, clip: &Region, paint: &Paint) {
    let visible = area.intersect(clip);
    for r in visible.rects() {
        for y in r.top..r.bottom {
            fill_span(s, y, r.left, r.right, paint);
        }
    }
}

/// Paint one pixel (x, y) if `clip` holds it.
pub fn plot(s: &mut Surface, clip: &Region, x: i32, y: i32, paint: &Paint) {
    if clip.contains(crate::win16::geom::Point::new(x, y)) {
        fill_span(s, y, x, x + 1, paint);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rop2_truth_tables() {
        let m = 1;
        for (p, d) in [(0u32, 0u32), (0, 1), (1, 0), (1, 1)] {
            assert_eq!(rop2(1, p, d, m), 0); // R2_BLACK
            assert_eq!(rop2(13, p, d, m), p); // R2_COPYPEN
            assert_eq!(rop2(6, p, d, m), d ^ 1); // R2_NOT
            assert_eq!(rop2(7, p, d, m), p ^ d); // R2_XORPEN
            assert_eq!(rop2(9, p, d, m), p & d); // R2_MASKPEN
            assert_eq!(rop2(15, p, d, m), p | d); // R2_MERGEPEN
            assert_eq!(rop2(4, p, d, m), p ^ 1); // R2_NOTCOPYPEN
            assert_eq!(rop2(11, p, d, m), d); // R2_NOP
            assert_eq!(rop2(16, p, d, m), 1); // R2_WHITE
            // Every mode from its table, by the generic path.
            for r2 in 1..=16u16 {
                let want = ((r2 - 1) >> ((p << 1) | d)) & 1;
                assert_eq!(rop2(r2, p, d, m), u32::from(want), "R2 {r2} p{p} d{d}");
            }
        }
    }

    #[test]
    fn every_rop3_follows_its_truth_table_bit_by_bit() {
        // Pattern F0, source CC, destination AA: the result is the code.
        for rop in 0..=255u8 {
            assert_eq!(
                rop3(rop, 0xF0, 0xCC, 0xAA, 0xFF),
                u32::from(rop),
                "{rop:02X}"
            );
        }
        assert_eq!(rop3_uses(0xCC), (false, true, false));
        assert_eq!(rop3_uses(0x5A), (true, false, true));
        assert_eq!(rop3_uses(0x00), (false, false, false));
    }

    #[test]
    fn patterns_align_to_the_origin() {
        let mut pat = [0u32; 64];
        pat[0] = 1;
        let p = Paint {
            pattern: pat,
            skip: None,
            org: (3, 2),
            solid: false,
            rop2: 13,
        };
        assert_eq!(p.at(3, 2), Some(1));
        assert_eq!(p.at(11, 10), Some(1));
        assert_eq!(p.at(4, 2), Some(0));
        assert_eq!(p.at(-5, -6), Some(1));
    }
}
