//! The VGA BIOS's tables that programs read through the BIOS data area's
//! video save pointer (0040:00A8), in the layout of IBM's VGA BIOS (IBM
//! Personal System/2 and Personal Computer BIOS Interface Technical
//! Reference, "Video"; Ralf Brown's memory map, 0040:00A8 "video save
//! pointer table", and interrupt list, INT 10h). Programs that load their
//! own fonts (TSRs that keep a character set across mode sets: Turbo
//! Pascal 7's LARGE.COM in the corpus) copy the tables and chain theirs in.
//!
//! All live in the video BIOS's ROM segment C000h, after the fonts
//! ([`super::font`]):
//!
//! - the **save pointer table** (7 far pointers, 28 bytes): +00 the video
//!   parameter table, +04 the dynamic save area (none: 0), +08 the
//!   alphanumeric character set override (none), +0C the graphics
//!   character set override (none), +10 the secondary save pointer table,
//!   +14 and +18 reserved (0);
//! - the **secondary save pointer table** (26 bytes, VGA): +00 its length
//!   (1Ah), +02 the display combination code table, +06 the secondary
//!   alphanumeric character set override (none), +0A the user palette
//!   profile table (none), +0E..+19 reserved (0);
//! - the **display combination code table** INT 10h AH=1Ah reads: +00 the
//!   number of entries, +01 its version (1), +02 the highest display type
//!   code, +03 reserved, then pairs of display codes (the VGA's list: no
//!   display, MDA, CGA, EGA, PGC, VGA with their partners);
//! - the **video parameter table**: 29 entries of 64 bytes, one per mode
//!   and scan-line variant, each: +00 columns, +01 rows - 1, +02 character
//!   height, +03 regen buffer size (word), +05 sequencer registers 1-4,
//!   +09 miscellaneous output register, +0A CRT controller registers
//!   00h-18h, +23 attribute controller registers 00h-13h, +37 graphics
//!   controller registers 00h-08h. Entry numbers follow IBM's order: 0-3
//!   modes 0-3 (200 lines), 4-7 modes 4-7, 8-0Ch (PCjr and reserved), 0Dh
//!   and 0Eh modes 0Dh and 0Eh, 0Fh-12h modes 0Fh and 10h (64 KiB, then
//!   more), 13h-16h modes 0-3 in 350 lines, 17h modes 0/1 in 400 lines,
//!   18h modes 2/3 in 400 lines, 19h mode 7 in 400 lines, 1Ah-1Ch modes
//!   11h-13h. The entries filled are those of the modes this BIOS sets
//!   (the VGA's 400-line text modes, CGA graphics 4-6, EGA 0Dh, 0Eh and
//!   10h, VGA 11h-13h), with the register values of IBM's VGA; the
//!   EGA-only and PCjr variants are zero.

use crate::machine::{Machine, MachineError};

/// Where the tables start in the video BIOS segment ([`super::font::SEG`]),
/// after the fonts.
pub const SAVE_PTR: u16 = 0x4000;
/// The secondary save pointer table.
pub const SECONDARY: u16 = SAVE_PTR + 0x20;
/// The display combination code table.
pub const DCC: u16 = SECONDARY + 0x20;
/// The video parameter table.
pub const PARAMS: u16 = DCC + 0x30;
/// Entries of the video parameter table.
pub const ENTRIES: usize = 0x1D;
/// Bytes of one entry.
pub const ENTRY_LEN: usize = 64;

/// The display combination code pairs of IBM's VGA BIOS (active, then
/// alternate display; 00 none, 01 MDA, 02 CGA, 04 EGA colour, 05 EGA
/// mono, 06 PGC, 07 VGA mono, 08 VGA colour).
const DCC_PAIRS: [[u8; 2]; 16] = [
    [0x00, 0x00],
    [0x00, 0x01],
    [0x00, 0x02],
    [0x02, 0x01],
    [0x00, 0x04],
    [0x04, 0x01],
    [0x00, 0x05],
    [0x02, 0x05],
    [0x00, 0x06],
    [0x01, 0x06],
    [0x05, 0x06],
    [0x00, 0x08],
    [0x01, 0x08],
    [0x00, 0x07],
    [0x02, 0x07],
    [0x06, 0x07],
];

/// One entry of the video parameter table, as its fields.
struct Mode {
    cols: u8,
    rows_minus_1: u8,
    char_height: u8,
    regen: u16,
    seq: [u8; 4],
    misc: u8,
    crtc: [u8; 25],
    attr: [u8; 20],
    gc: [u8; 9],
}

impl Mode {
    fn bytes(&self) -> [u8; ENTRY_LEN] {
        let mut b = [0u8; ENTRY_LEN];
        b[0] = self.cols;
        b[1] = self.rows_minus_1;
        b[2] = self.char_height;
        b[3..5].copy_from_slice(&self.regen.to_le_bytes());
        b[5..9].copy_from_slice(&self.seq);
        b[9] = self.misc;
        b[10..35].copy_from_slice(&self.crtc);
        b[35..55].copy_from_slice(&self.attr);
        b[55..64].copy_from_slice(&self.gc);
        b
    }
}

/// The EGA/VGA text palette in the attribute controller (registers
/// 00h-0Fh), then mode control, overscan, plane enable, panning.
const TEXT_ATTR: [u8; 20] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
    0x0C, 0x00, 0x0F, 0x08,
];
const TEXT_GC: [u8; 9] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0E, 0x00, 0xFF];
/// CRTC of the 400-line 80-column text modes.
const CRTC_TEXT80: [u8; 25] = [
    0x5F, 0x4F, 0x50, 0x82, 0x55, 0x81, 0xBF, 0x1F, 0x00, 0x4F, 0x0D, 0x0E, 0x00, 0x00, 0x00, 0x00,
    0x9C, 0x8E, 0x8F, 0x28, 0x1F, 0x96, 0xB9, 0xA3, 0xFF,
];
const PLANAR_ATTR_EGA: [u8; 20] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x01, 0x00, 0x0F, 0x00,
];
const PLANAR_ATTR_VGA: [u8; 20] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
    0x01, 0x00, 0x0F, 0x00,
];
const PLANAR_GC: [u8; 9] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x0F, 0xFF];
/// CRTC of the 480-line modes 11h and 12h.
const CRTC_480: [u8; 25] = [
    0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80, 0x0B, 0x3E, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xEA, 0x8C, 0xDF, 0x28, 0x00, 0xE7, 0x04, 0xE3, 0xFF,
];

/// The filled entries: (entry number, its values).
fn modes() -> Vec<(usize, Mode)> {
    let cga_graphics_crtc = |cols: u8, last: u8| {
        let mut c = [
            0x2D, 0x27, 0x28, 0x90, 0x2B, 0x80, 0xBF, 0x1F, 0x00, 0xC1, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x9C, 0x8E, 0x8F, 0x14, 0x00, 0x96, 0xB9, 0xA2, 0xFF,
        ];
        if cols == 80 {
            c[..6].copy_from_slice(&[0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80]);
            c[19] = 0x28;
        }
        c[23] = last;
        c
    };
    let mut v = Vec::new();
    // Modes 4 and 5: 320x200 4 colours.
    for n in [4, 5] {
        v.push((
            n,
            Mode {
                cols: 40,
                rows_minus_1: 24,
                char_height: 8,
                regen: 0x4000,
                seq: [0x09, 0x03, 0x00, 0x02],
                misc: 0x63,
                crtc: cga_graphics_crtc(40, 0xA2),
                attr: [
                    0x00, 0x13, 0x15, 0x17, 0x02, 0x04, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14,
                    0x15, 0x16, 0x17, 0x01, 0x00, 0x03, 0x00,
                ],
                gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x0F, 0x00, 0xFF],
            },
        ));
    }
    // Mode 6: 640x200 2 colours.
    let mut attr6 = [0x17u8; 20];
    attr6[0] = 0x00;
    attr6[16..].copy_from_slice(&[0x01, 0x00, 0x01, 0x00]);
    v.push((
        6,
        Mode {
            cols: 80,
            rows_minus_1: 24,
            char_height: 8,
            regen: 0x4000,
            seq: [0x01, 0x01, 0x00, 0x06],
            misc: 0x63,
            crtc: cga_graphics_crtc(80, 0xC2),
            attr: attr6,
            gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0D, 0x00, 0xFF],
        },
    ));
    // Modes 0Dh and 0Eh: 320x200 and 640x200 16 colours.
    for (n, cols, regen, seq1) in [(0x0D, 40u8, 0x2000u16, 0x09u8), (0x0E, 80, 0x4000, 0x01)] {
        let mut crtc = cga_graphics_crtc(cols, 0xE3);
        crtc[9] = 0xC0;
        v.push((
            n,
            Mode {
                cols,
                rows_minus_1: 24,
                char_height: 8,
                regen,
                seq: [seq1, 0x0F, 0x00, 0x06],
                misc: 0x63,
                crtc,
                attr: PLANAR_ATTR_EGA,
                gc: PLANAR_GC,
            },
        ));
    }
    // Mode 10h (more than 64 KiB of display memory): 640x350 16 colours.
    v.push((
        0x12,
        Mode {
            cols: 80,
            rows_minus_1: 24,
            char_height: 14,
            regen: 0x8000,
            seq: [0x01, 0x0F, 0x00, 0x06],
            misc: 0xA3,
            crtc: [
                0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80, 0xBF, 0x1F, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x83, 0x85, 0x5D, 0x28, 0x0F, 0x63, 0xBA, 0xE3, 0xFF,
            ],
            attr: PLANAR_ATTR_VGA,
            gc: PLANAR_GC,
        },
    ));
    // Modes 0 and 1 (40 columns) in 400 lines.
    let mut crtc40 = CRTC_TEXT80;
    crtc40[..6].copy_from_slice(&[0x2D, 0x27, 0x28, 0x90, 0x2B, 0xA0]);
    crtc40[19] = 0x14;
    v.push((
        0x17,
        Mode {
            cols: 40,
            rows_minus_1: 24,
            char_height: 16,
            regen: 0x0800,
            seq: [0x08, 0x03, 0x00, 0x02],
            misc: 0x67,
            crtc: crtc40,
            attr: TEXT_ATTR,
            gc: TEXT_GC,
        },
    ));
    // Modes 2 and 3 (80 columns) in 400 lines: the VGA's text mode.
    v.push((
        0x18,
        Mode {
            cols: 80,
            rows_minus_1: 24,
            char_height: 16,
            regen: 0x1000,
            seq: [0x00, 0x03, 0x00, 0x02],
            misc: 0x67,
            crtc: CRTC_TEXT80,
            attr: TEXT_ATTR,
            gc: TEXT_GC,
        },
    ));
    // Mode 7 in 400 lines (monochrome, 720x400).
    let mut crtc7 = CRTC_TEXT80;
    crtc7[20] = 0x0F;
    v.push((
        0x19,
        Mode {
            cols: 80,
            rows_minus_1: 24,
            char_height: 16,
            regen: 0x1000,
            seq: [0x00, 0x03, 0x00, 0x02],
            misc: 0x66,
            crtc: crtc7,
            attr: [
                0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x10, 0x18, 0x18, 0x18, 0x18, 0x18,
                0x18, 0x18, 0x0E, 0x00, 0x0F, 0x08,
            ],
            gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0A, 0x00, 0xFF],
        },
    ));
    // Mode 11h: 640x480 2 colours.
    let mut attr11 = [0x3Fu8; 20];
    attr11[0] = 0x00;
    attr11[16..].copy_from_slice(&[0x01, 0x00, 0x0F, 0x00]);
    v.push((
        0x1A,
        Mode {
            cols: 80,
            rows_minus_1: 29,
            char_height: 16,
            regen: 0xA000,
            seq: [0x01, 0x0F, 0x00, 0x06],
            misc: 0xE3,
            crtc: CRTC_480,
            attr: attr11,
            gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x0F, 0xFF],
        },
    ));
    // Mode 12h: 640x480 16 colours.
    v.push((
        0x1B,
        Mode {
            cols: 80,
            rows_minus_1: 29,
            char_height: 16,
            regen: 0xA000,
            seq: [0x01, 0x0F, 0x00, 0x06],
            misc: 0xE3,
            crtc: CRTC_480,
            attr: PLANAR_ATTR_VGA,
            gc: PLANAR_GC,
        },
    ));
    // Mode 13h: 320x200 256 colours.
    let mut attr13 = [0u8; 20];
    for (i, a) in attr13.iter_mut().enumerate().take(16) {
        *a = i as u8;
    }
    attr13[16..].copy_from_slice(&[0x41, 0x00, 0x0F, 0x00]);
    v.push((
        0x1C,
        Mode {
            cols: 40,
            rows_minus_1: 24,
            char_height: 8,
            regen: 0xFA00,
            seq: [0x01, 0x0F, 0x00, 0x0E],
            misc: 0x63,
            crtc: [
                0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80, 0xBF, 0x1F, 0x00, 0x41, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x9C, 0x8E, 0x8F, 0x28, 0x40, 0x96, 0xB9, 0xA3, 0xFF,
            ],
            attr: attr13,
            gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x05, 0x0F, 0xFF],
        },
    ));
    v
}

/// The far pointer `SEG:off` as 4 bytes.
fn far(off: u16) -> [u8; 4] {
    let s = super::font::SEG.to_le_bytes();
    let o = off.to_le_bytes();
    [o[0], o[1], s[0], s[1]]
}

/// The save pointer table's 28 bytes.
pub fn save_pointer_table() -> [u8; 28] {
    let mut t = [0u8; 28];
    t[0..4].copy_from_slice(&far(PARAMS));
    t[0x10..0x14].copy_from_slice(&far(SECONDARY));
    t
}

/// The secondary save pointer table's 26 bytes.
pub fn secondary_table() -> [u8; 0x1A] {
    let mut t = [0u8; 0x1A];
    t[0..2].copy_from_slice(&0x1Au16.to_le_bytes());
    t[2..6].copy_from_slice(&far(DCC));
    t
}

/// The display combination code table.
pub fn dcc_table() -> Vec<u8> {
    let mut t = vec![DCC_PAIRS.len() as u8, 1, 8, 0];
    for p in DCC_PAIRS {
        t.extend_from_slice(&p);
    }
    t
}

/// The video parameter table: [`ENTRIES`] entries of [`ENTRY_LEN`].
pub fn parameter_table() -> Vec<u8> {
    let mut t = vec![0u8; ENTRIES * ENTRY_LEN];
    for (n, m) in modes() {
        t[n * ENTRY_LEN..(n + 1) * ENTRY_LEN].copy_from_slice(&m.bytes());
    }
    t
}

/// Write the tables into the video BIOS's ROM and point 0040:00A8 at the
/// save pointer table.
pub fn init(m: &mut Machine) -> Result<(), MachineError> {
    let base = u32::from(super::font::SEG) << 4;
    m.write_linear(base + u32::from(SAVE_PTR), &save_pointer_table())?;
    m.write_linear(base + u32::from(SECONDARY), &secondary_table())?;
    m.write_linear(base + u32::from(DCC), &dcc_table())?;
    m.write_linear(base + u32::from(PARAMS), &parameter_table())?;
    m.write_linear(0x400 + 0xA8, &far(SAVE_PTR))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_do_not_overlap_and_fit_after_the_fonts() {
        const {
            assert!(SAVE_PTR >= super::super::font::OFF_8X8 + 0x800);
            assert!(SECONDARY as usize >= SAVE_PTR as usize + 28);
            assert!(DCC as usize >= SECONDARY as usize + 0x1A);
            assert!(PARAMS as usize + ENTRIES * ENTRY_LEN <= 0x8000);
        }
        assert!(usize::from(PARAMS) >= usize::from(DCC) + dcc_table().len());
    }

    #[test]
    fn the_text_mode_entry_is_ibm_s() {
        let t = parameter_table();
        let e = &t[0x18 * ENTRY_LEN..0x19 * ENTRY_LEN];
        // 80 columns, 25 rows, 16 scan lines, 4 KiB a page.
        assert_eq!(&e[..5], &[80, 24, 16, 0x00, 0x10]);
        // Misc output 67h; CRTC 09h (max scan line) 4Fh; GC 06h 0Eh.
        assert_eq!(e[9], 0x67);
        assert_eq!(e[10 + 9], 0x4F);
        assert_eq!(e[55 + 6], 0x0E);
        assert_eq!(secondary_table()[0], 0x1A);
    }
}
