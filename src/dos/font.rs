//! The VGA's ROM fonts: the 8x16, 8x14 and 8x8 character sets of code
//! page 437 (`fonts/README.md` says where they come from and under which
//! licence), kept in the video BIOS's ROM segment C000h as a VGA keeps
//! them, where INT 10h AX=1130h points a program and INT 1Fh / 43h point
//! (the upper half of the 8x8 set, the graphics modes' character set). The
//! text screen's picture and the BIOS's text output in graphics modes
//! draw with them.

use crate::machine::{Machine, MachineError};

/// The 8x16 set (VGA text modes, mode 11h/12h text).
pub static VGA8X16: &[u8; 4096] = include_bytes!("fonts/vga8x16.bin");
/// The 8x14 set (EGA 350-line modes).
pub static VGA8X14: &[u8; 3584] = include_bytes!("fonts/vga8x14.bin");
/// The 8x8 set (CGA modes, 0Dh, 0Eh, 13h).
pub static VGA8X8: &[u8; 2048] = include_bytes!("fonts/vga8x8.bin");

/// The video BIOS's segment.
pub const SEG: u16 = 0xC000;
/// Offsets of the sets in [`SEG`].
pub const OFF_8X16: u16 = 0x1000;
pub const OFF_8X14: u16 = 0x2000;
pub const OFF_8X8: u16 = 0x3000;

/// A set: its height in scan lines and where it is in the ROM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Font {
    pub height: u8,
    pub off: u16,
    pub bytes: &'static [u8],
}

pub const F16: Font = Font {
    height: 16,
    off: OFF_8X16,
    bytes: VGA8X16,
};
pub const F14: Font = Font {
    height: 14,
    off: OFF_8X14,
    bytes: VGA8X14,
};
pub const F8: Font = Font {
    height: 8,
    off: OFF_8X8,
    bytes: VGA8X8,
};

impl Font {
    /// The scan lines of character `c`.
    pub fn glyph(&self, c: u8) -> &'static [u8] {
        let h = usize::from(self.height);
        &self.bytes[usize::from(c) * h..usize::from(c) * h + h]
    }
}

/// The character set a graphics mode's BIOS text uses (IBM VGA BIOS: 8x8
/// in the 200-line modes, 8x14 in the 350-line ones, 8x16 in 480 lines).
pub fn for_mode(mode: u8) -> Font {
    match mode & 0x7F {
        0x0F | 0x10 => F14,
        0x11 | 0x12 => F16,
        0..=3 | 7 => F16,
        _ => F8,
    }
}

/// Write the sets into the video ROM and point INT 1Fh at the upper half
/// of the 8x8 set and INT 43h at its whole.
pub fn init_rom(m: &mut Machine) -> Result<(), MachineError> {
    let base = u32::from(SEG) << 4;
    for f in [F16, F14, F8] {
        m.write_linear(base + u32::from(f.off), f.bytes)?;
    }
    set_vector(m, 0x1F, OFF_8X8 + 0x400)?;
    set_vector(m, 0x43, OFF_8X8)
}

/// Point vector `n` at `SEG:off`.
pub fn set_vector(m: &mut Machine, n: u8, off: u16) -> Result<(), MachineError> {
    let mut v = off.to_le_bytes().to_vec();
    v.extend_from_slice(&SEG.to_le_bytes());
    m.write_linear(u32::from(n) * 4, &v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(f: Font, c: u8) -> Vec<String> {
        f.glyph(c)
            .iter()
            .map(|b| {
                (0..8)
                    .map(|i| if b & (0x80 >> i) != 0 { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_sets_draw_code_page_437() {
        // 'A' of the VGA's 8x16 set, and the full block DBh.
        assert_eq!(
            picture(F16, b'A')[2..12],
            [
                "...#....", "..###...", ".##.##..", "##...##.", "##...##.", "#######.", "##...##.",
                "##...##.", "##...##.", "##...##."
            ]
        );
        assert!(F16.glyph(0xDB).iter().all(|&b| b == 0xFF));
        assert!(F16.glyph(0).iter().all(|&b| b == 0));
        assert_eq!(
            F8.glyph(b'A'),
            [0x30, 0x78, 0xCC, 0xCC, 0xFC, 0xCC, 0xCC, 0x00]
        );
        assert_eq!(F14.glyph(b'A')[2..8], [0x10, 0x38, 0x6C, 0xC6, 0xC6, 0xFE]);
        // The double-line corner C9h reaches the cell's right edge (the
        // 9th dot repeats it in text mode).
        assert_eq!(F16.glyph(0xC9)[5], 0x3F);
    }
}
