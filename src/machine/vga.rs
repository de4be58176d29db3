//! The VGA adapter's registers and, in its planar graphics modes, its
//! memory: what a DOS program programs through ports 3B4h-3DFh and reads
//! back as pixels, and what `dos::picture` draws screenshots from.
//!
//! The registers (IBM VGA Technical Reference, "Registers"):
//!
//! * Miscellaneous output (write 3C2h, read 3CCh).
//! * Sequencer (index 3C4h, data 3C5h): 1 clocking mode, 2 map mask (the
//!   planes a CPU write reaches), 4 memory mode (bit 3 chain 4).
//! * CRT controller (index 3D4h / 3B4h, data 3D5h / 3B5h): the display's
//!   geometry (horizontal display end 01h, overflow 07h, maximum scan line
//!   09h, start address 0Ch/0Dh, vertical display end 12h, offset 13h, mode
//!   control 17h).
//! * Graphics controller (index 3CEh, data 3CFh): 0 set/reset, 1 enable
//!   set/reset, 2 colour compare, 3 data rotate and function, 4 read map
//!   select, 5 mode (write mode bits 0-1, read mode bit 3, odd/even bit 4,
//!   shift register interleave bit 5, 256-colour shift bit 6), 6
//!   miscellaneous (bit 0 graphics, bits 2-3 memory map), 7 colour don't
//!   care, 8 bit mask.
//! * Attribute controller (3C0h: index and data in turn, flip-flop reset by
//!   reading input status 1; 3C1h reads data): 16 palette registers, 10h
//!   mode control, 11h overscan, 12h colour plane enable, 13h horizontal
//!   panning, 14h colour select.
//! * DAC (3C6h pel mask, 3C7h read index / state, 3C8h write index, 3C9h
//!   data: three 6-bit components per entry, the index advancing after
//!   the third).
//! * Input status 1 (3DAh / 3BAh): bit 3 vertical retrace, bit 0 display
//!   disabled. Time in the machine is instructions, not a beam, so each
//!   read moves through the four states in turn: a program waiting for the
//!   retrace to start (or end) sees it at its next reads.
//!
//! **Memory.** The four 64 KiB planes are the adapter's own memory. Text
//! modes, the CGA modes and mode 13h (chain 4) see them as plain memory
//! at B8000h or A0000h, so those stay ordinary RAM with no hook (the fast
//! path is unchanged). Only while the registers select a planar graphics
//! mode at A0000h (graphics, chain 4 off, odd/even off: modes 0Dh, 0Eh,
//! 10h, 12h and an unchained mode 13h, "mode X") is A0000h-AFFFFh a
//! device region whose reads load the four latches and return plane data
//! (read mode 0) or a colour comparison (read mode 1), and whose writes go
//! through write modes 0-3, the data rotate, the logical function, the
//! bit mask and the map mask ([`read`], [`write`]). The region is mapped
//! when a port write or a BIOS mode set ([`update_mapping`]) enters such a
//! mode and unmapped (plain memory again) when it leaves it.

use unicorn_engine::unicorn_const::Permission;

use super::{MachineError, Uc, uerr};

/// Linear address of the graphics window.
pub const WINDOW: u64 = 0xA0000;
/// Bytes of one plane (and of the window).
pub const PLANE: usize = 0x10000;

/// The adapter's state.
#[derive(Debug, Clone)]
pub struct Vga {
    /// Miscellaneous output register.
    pub misc: u8,
    /// Sequencer index.
    pub seq_index: u8,
    /// Sequencer registers 0-4.
    pub seq: [u8; 5],
    /// CRT controller index.
    pub crtc_index: u8,
    /// CRT controller registers 00h-18h.
    pub crtc: [u8; 0x19],
    /// Graphics controller index.
    pub gc_index: u8,
    /// Graphics controller registers 0-8.
    pub gc: [u8; 9],
    /// Attribute controller index (bits 0-4) and palette address source
    /// (bit 5).
    pub ac_index: u8,
    /// The next write to 3C0h is data (else an index).
    pub ac_data: bool,
    /// Attribute controller registers 00h-14h.
    pub ac: [u8; 0x15],
    /// DAC entries: red, green, blue, 6 bits each.
    pub dac: [[u8; 3]; 256],
    /// The DAC's pel mask (3C6h).
    pub pel_mask: u8,
    /// DAC write position: entry and component.
    dac_write: (u8, u8),
    /// DAC read position: entry and component.
    dac_read: (u8, u8),
    /// 3C7h reads 3 after a read index was set, 0 after a write index.
    dac_reading: bool,
    /// The four latches, loaded by every read of the planar window.
    pub latch: [u8; 4],
    /// The four planes, plane p at `p * PLANE` (empty until a planar mode
    /// first needs them).
    pub planes: Vec<u8>,
    /// The window A0000h-AFFFFh is the device region.
    pub mapped: bool,
    /// The text font in character generator block 0 once a program
    /// loaded one (INT 10h AH=11h): 256 characters of 32 bytes, as plane
    /// 2 holds them; None: the ROM's set for the character height, which
    /// the BIOS's mode set loads.
    pub text_font: Option<Vec<u8>>,
    /// Input status 1 reads so far (the retrace cycle).
    status_reads: u8,
}

impl Default for Vga {
    fn default() -> Self {
        let mut v = Vga {
            misc: 0x67,
            seq_index: 0,
            seq: [0; 5],
            crtc_index: 0,
            crtc: [0; 0x19],
            gc_index: 0,
            gc: [0; 9],
            ac_index: 0x20,
            ac_data: false,
            ac: [0; 0x15],
            dac: [[0; 3]; 256],
            pel_mask: 0xFF,
            dac_write: (0, 0),
            dac_read: (0, 0),
            dac_reading: false,
            latch: [0; 4],
            planes: Vec::new(),
            mapped: false,
            text_font: None,
            status_reads: 0,
        };
        v.load_mode(3);
        v
    }
}

/// The registers IBM's VGA BIOS loads for a mode (Technical Reference,
/// "BIOS video parameter table"), those this adapter acts on. Modes 0-3
/// and 7 are text (0/1 40 columns), 4/5 CGA 320x200x4, 6 CGA 640x200x2,
/// 0Dh 320x200x16, 0Eh 640x200x16, 10h 640x350x16, 11h 640x480x2, 12h
/// 640x480x16, 13h 320x200x256.
struct ModeRegs {
    seq: [u8; 5],
    crtc: &'static [(usize, u8)],
    gc: [u8; 9],
    ac_mode: u8,
    palette: [u8; 16],
}

const TEXT_PALETTE: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
];
const EGA200_PALETTE: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
];
/// Mode 4/5 after the mode set: palette 1, high intensity (pixel 1 light
/// cyan, 2 light magenta, 3 white: registers 13h, 15h, 17h of the
/// 200-line DAC table).
const CGA4_PALETTE: [u8; 16] = [
    0x00, 0x13, 0x15, 0x17, 0x02, 0x04, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
];
const CGA2_PALETTE: [u8; 16] = [
    0x00, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17,
];
const MONO_PALETTE: [u8; 16] = [
    0x00, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
];
const IDENTITY_PALETTE: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
];

/// CRTC values: horizontal display end, overflow, maximum scan line,
/// vertical display end, offset, underline location, mode control.
const CRTC_TEXT80: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x1F),
    (0x09, 0x4F),
    (0x12, 0x8F),
    (0x13, 0x28),
    (0x14, 0x1F),
    (0x17, 0xA3),
];
const CRTC_TEXT40: &[(usize, u8)] = &[
    (0x01, 0x27),
    (0x07, 0x1F),
    (0x09, 0x4F),
    (0x12, 0x8F),
    (0x13, 0x14),
    (0x14, 0x1F),
    (0x17, 0xA3),
];
const CRTC_CGA320: &[(usize, u8)] = &[
    (0x01, 0x27),
    (0x07, 0x1F),
    (0x09, 0xC1),
    (0x12, 0x8F),
    (0x13, 0x14),
    (0x14, 0x00),
    (0x17, 0xA2),
];
const CRTC_CGA640: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x1F),
    (0x09, 0xC1),
    (0x12, 0x8F),
    (0x13, 0x28),
    (0x14, 0x00),
    (0x17, 0xC2),
];
const CRTC_0D: &[(usize, u8)] = &[
    (0x01, 0x27),
    (0x07, 0x1F),
    (0x09, 0xC0),
    (0x12, 0x8F),
    (0x13, 0x14),
    (0x14, 0x00),
    (0x17, 0xE3),
];
const CRTC_0E: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x1F),
    (0x09, 0xC0),
    (0x12, 0x8F),
    (0x13, 0x28),
    (0x14, 0x00),
    (0x17, 0xE3),
];
const CRTC_10: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x1F),
    (0x09, 0x40),
    (0x12, 0x5D),
    (0x13, 0x28),
    (0x14, 0x0F),
    (0x17, 0xE3),
];
const CRTC_12: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x3E),
    (0x09, 0x40),
    (0x12, 0xDF),
    (0x13, 0x28),
    (0x14, 0x00),
    (0x17, 0xE3),
];
const CRTC_13: &[(usize, u8)] = &[
    (0x01, 0x4F),
    (0x07, 0x1F),
    (0x09, 0x41),
    (0x12, 0x8F),
    (0x13, 0x28),
    (0x14, 0x40),
    (0x17, 0xA3),
];

fn mode_regs(mode: u8) -> Option<ModeRegs> {
    let gc = |g5: u8, g6: u8| [0, 0, 0, 0, 0, g5, g6, 0x0F, 0xFF];
    Some(match mode {
        0 | 1 => ModeRegs {
            seq: [3, 0x08, 0x03, 0, 0x02],
            crtc: CRTC_TEXT40,
            gc: gc(0x10, 0x0E),
            ac_mode: 0x0C,
            palette: TEXT_PALETTE,
        },
        2 | 3 => ModeRegs {
            seq: [3, 0x00, 0x03, 0, 0x02],
            crtc: CRTC_TEXT80,
            gc: gc(0x10, 0x0E),
            ac_mode: 0x0C,
            palette: TEXT_PALETTE,
        },
        7 => ModeRegs {
            seq: [3, 0x00, 0x03, 0, 0x02],
            crtc: CRTC_TEXT80,
            gc: gc(0x10, 0x0A),
            ac_mode: 0x0E,
            palette: [
                0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x10, 0x18, 0x18, 0x18, 0x18, 0x18,
                0x18, 0x18,
            ],
        },
        4 | 5 => ModeRegs {
            seq: [3, 0x09, 0x03, 0, 0x02],
            crtc: CRTC_CGA320,
            gc: gc(0x30, 0x0F),
            ac_mode: 0x01,
            palette: CGA4_PALETTE,
        },
        6 => ModeRegs {
            seq: [3, 0x01, 0x01, 0, 0x06],
            crtc: CRTC_CGA640,
            gc: gc(0x00, 0x0D),
            ac_mode: 0x01,
            palette: CGA2_PALETTE,
        },
        0x0D => ModeRegs {
            seq: [3, 0x09, 0x0F, 0, 0x06],
            crtc: CRTC_0D,
            gc: gc(0x00, 0x05),
            ac_mode: 0x01,
            palette: EGA200_PALETTE,
        },
        0x0E => ModeRegs {
            seq: [3, 0x01, 0x0F, 0, 0x06],
            crtc: CRTC_0E,
            gc: gc(0x00, 0x05),
            ac_mode: 0x01,
            palette: EGA200_PALETTE,
        },
        0x10 => ModeRegs {
            seq: [3, 0x01, 0x0F, 0, 0x06],
            crtc: CRTC_10,
            gc: gc(0x00, 0x05),
            ac_mode: 0x01,
            palette: TEXT_PALETTE,
        },
        0x11 => ModeRegs {
            seq: [3, 0x01, 0x0F, 0, 0x06],
            crtc: CRTC_12,
            gc: gc(0x00, 0x05),
            ac_mode: 0x01,
            palette: MONO_PALETTE,
        },
        0x12 => ModeRegs {
            seq: [3, 0x01, 0x0F, 0, 0x06],
            crtc: CRTC_12,
            gc: gc(0x00, 0x05),
            ac_mode: 0x01,
            palette: TEXT_PALETTE,
        },
        0x13 => ModeRegs {
            seq: [3, 0x01, 0x0F, 0, 0x0E],
            crtc: CRTC_13,
            gc: gc(0x40, 0x05),
            ac_mode: 0x41,
            palette: IDENTITY_PALETTE,
        },
        _ => return None,
    })
}

/// The DAC table the BIOS loads for 200-line 16-colour and CGA modes (4,
/// 5, 6, 0Dh, 0Eh): 64 entries where bit 4 of the index is the CGA's
/// intensity, bits 0-2 blue, green, red at 2/3 (2Ah), and entry 6 (and
/// 16h) the CGA's brown (2Ah, 15h, 00h) and yellow (3Fh, 3Fh, 15h).
pub fn dac_cga(i: u8) -> [u8; 3] {
    let (b, g, r) = (i & 1, (i >> 1) & 1, (i >> 2) & 1);
    let lo = if i & 0x10 != 0 { 0x15 } else { 0 };
    let mut c = [r * 0x2A + lo, g * 0x2A + lo, b * 0x2A + lo];
    if i & 7 == 6 {
        c[1] = 0x15 + lo;
        if lo != 0 {
            c[1] = 0x3F;
        }
    }
    c
}

/// The DAC table the BIOS loads for the 350- and 400/480-line 16-colour
/// modes (text, 10h, 12h): the EGA's 64 colours, index bits 0-2 blue,
/// green, red at 2Ah and bits 3-5 blue, green, red at 15h.
pub fn dac_ega(i: u8) -> [u8; 3] {
    let bit = |n: u8| (i >> n) & 1;
    [
        bit(2) * 0x2A + bit(5) * 0x15,
        bit(1) * 0x2A + bit(4) * 0x15,
        bit(0) * 0x2A + bit(3) * 0x15,
    ]
}

/// The DAC table the BIOS loads for mode 13h (IBM VGA Technical
/// Reference, "default colour register values"): 0-15 the 16 EGA colours,
/// 16-31 a grey scale, 32-247 a 24-step hue circle at three intensities
/// (3Fh, 1Ch, 10h) and three saturations each, 248-255 black.
pub fn dac_vga256(i: u8) -> [u8; 3] {
    const GREYS: [u8; 16] = [
        0x00, 0x05, 0x08, 0x0B, 0x0E, 0x11, 0x14, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x2D, 0x32, 0x38,
        0x3F,
    ];
    /// The five levels of each block, from its lowest to its highest.
    const LEVELS: [[u8; 5]; 9] = [
        [0x00, 0x10, 0x1F, 0x2F, 0x3F],
        [0x1F, 0x27, 0x2F, 0x37, 0x3F],
        [0x2D, 0x31, 0x36, 0x3A, 0x3F],
        [0x00, 0x07, 0x0E, 0x15, 0x1C],
        [0x0E, 0x11, 0x15, 0x18, 0x1C],
        [0x14, 0x16, 0x18, 0x1A, 0x1C],
        [0x00, 0x04, 0x08, 0x0C, 0x10],
        [0x08, 0x0A, 0x0C, 0x0E, 0x10],
        [0x0B, 0x0C, 0x0D, 0x0F, 0x10],
    ];
    match i {
        0..=15 => {
            // The text palette's registers: 6 is brown (14h), 8-15 are 38h-3Fh.
            dac_ega(TEXT_PALETTE[usize::from(i)])
        }
        16..=31 => [GREYS[usize::from(i - 16)]; 3],
        32..=247 => {
            let k = usize::from(i - 32);
            let l = LEVELS[k / 24];
            let step = k % 24;
            // The hue circle from blue: red rises, blue falls, green rises,
            // red falls, blue rises, green falls; 4 steps each.
            let (lo, hi) = (l[0], l[4]);
            let up = |s: usize| l[s];
            let down = |s: usize| l[4 - s];
            match step / 4 {
                0 => [up(step % 4), lo, hi],
                1 => [hi, lo, down(step % 4)],
                2 => [hi, up(step % 4), lo],
                3 => [down(step % 4), hi, lo],
                4 => [lo, hi, up(step % 4)],
                _ => [lo, down(step % 4), hi],
            }
        }
        _ => [0, 0, 0],
    }
}

impl Vga {
    /// Load the registers and the DAC IBM's BIOS loads for `mode` (bit 7
    /// ignored). False for a mode the adapter does not have.
    pub fn load_mode(&mut self, mode: u8) -> bool {
        let Some(r) = mode_regs(mode & 0x7F) else {
            return false;
        };
        self.seq = r.seq;
        self.crtc = [0; 0x19];
        for &(i, v) in r.crtc {
            self.crtc[i] = v;
        }
        self.gc = r.gc;
        self.ac = [0; 0x15];
        self.ac[..16].copy_from_slice(&r.palette);
        self.ac[0x10] = r.ac_mode;
        self.ac[0x12] = 0x0F;
        self.ac[0x13] = if r.gc[6] & 1 == 0 { 0x08 } else { 0 };
        self.misc = if mode & 0x7F == 7 { 0x66 } else { 0x67 };
        self.pel_mask = 0xFF;
        self.ac_index = 0x20;
        self.ac_data = false;
        self.text_font = None;
        let table: fn(u8) -> [u8; 3] = match mode & 0x7F {
            4 | 5 | 6 | 0x0D | 0x0E => dac_cga,
            0x13 => dac_vga256,
            _ => dac_ega,
        };
        for (i, e) in self.dac.iter_mut().enumerate() {
            *e = if i < 64 || mode & 0x7F == 0x13 {
                table(i as u8)
            } else {
                [0; 3]
            };
        }
        true
    }

    /// The registers select a planar graphics mode at A0000h.
    pub fn planar(&self) -> bool {
        self.gc[6] & 1 != 0
            && self.gc[6] & 0x0C <= 0x04
            && self.seq[4] & 0x08 == 0
            && self.gc[5] & 0x10 == 0
    }

    /// An RGB colour (8 bits a component) of DAC entry `i` through the pel
    /// mask.
    pub fn rgb(&self, i: u8) -> [u8; 3] {
        let e = self.dac[usize::from(i & self.pel_mask)];
        let s = |v: u8| ((u16::from(v & 0x3F) * 255 + 31) / 63) as u8;
        [s(e[0]), s(e[1]), s(e[2])]
    }

    /// The DAC entry the attribute controller sends for a 4-bit pixel or
    /// text colour `p` (palette register, then the colour select bits).
    pub fn attribute(&self, p: u8) -> u8 {
        let p = p & self.ac[0x12] & 0x0F;
        let reg = self.ac[usize::from(p)] & 0x3F;
        let sel = self.ac[0x14];
        let low = if self.ac[0x10] & 0x80 != 0 {
            (reg & 0x0F) | ((sel & 3) << 4)
        } else {
            reg
        };
        low | ((sel & 0x0C) << 4)
    }

    fn ensure_planes(&mut self) {
        if self.planes.is_empty() {
            self.planes = vec![0; 4 * PLANE];
        }
    }

    /// A CPU read of window offset `off` in a planar mode.
    pub fn read_byte(&mut self, off: usize) -> u8 {
        self.ensure_planes();
        let off = off % PLANE;
        for p in 0..4 {
            self.latch[p] = self.planes[p * PLANE + off];
        }
        if self.gc[5] & 0x08 == 0 {
            return self.latch[usize::from(self.gc[4] & 3)];
        }
        // Read mode 1: bits where every plane not "don't care" equals the
        // colour compare register's bit for it.
        let mut differ = 0u8;
        for p in 0..4 {
            if self.gc[7] & (1 << p) != 0 {
                let want = if self.gc[2] & (1 << p) != 0 { 0xFF } else { 0 };
                differ |= self.latch[p] ^ want;
            }
        }
        !differ
    }

    /// A CPU write of `v` to window offset `off` in a planar mode.
    pub fn write_byte(&mut self, off: usize, v: u8) {
        self.ensure_planes();
        let off = off % PLANE;
        let rot = self.gc[3] & 7;
        let func = (self.gc[3] >> 3) & 3;
        let rotated = v.rotate_right(u32::from(rot));
        let mut mask = self.gc[8];
        let expand = |bit: bool| if bit { 0xFFu8 } else { 0 };
        let mode = self.gc[5] & 3;
        if mode == 3 {
            mask &= rotated;
        }
        for p in 0..4 {
            if self.seq[2] & (1 << p) == 0 {
                continue;
            }
            let latch = self.latch[p];
            let data = match mode {
                0 => {
                    if self.gc[1] & (1 << p) != 0 {
                        expand(self.gc[0] & (1 << p) != 0)
                    } else {
                        rotated
                    }
                }
                1 => {
                    self.planes[p * PLANE + off] = latch;
                    continue;
                }
                2 => expand(v & (1 << p) != 0),
                _ => expand(self.gc[0] & (1 << p) != 0),
            };
            let data = match func {
                0 => data,
                1 => data & latch,
                2 => data | latch,
                _ => data ^ latch,
            };
            self.planes[p * PLANE + off] = (data & mask) | (latch & !mask);
        }
    }

    /// A port read the adapter answers (one byte).
    pub fn port_in(&mut self, port: u16) -> Option<u8> {
        Some(match port {
            0x3C0 => self.ac_index,
            0x3C1 => self.ac[usize::from(self.ac_index & 0x1F).min(0x14)],
            0x3C2 => 0x10,
            0x3C4 => self.seq_index,
            0x3C5 => *self.seq.get(usize::from(self.seq_index))?,
            0x3C6 => self.pel_mask,
            0x3C7 => {
                if self.dac_reading {
                    3
                } else {
                    0
                }
            }
            0x3C8 => self.dac_write.0,
            0x3C9 => {
                let (i, c) = self.dac_read;
                let v = self.dac[usize::from(i)][usize::from(c)];
                self.dac_read = if c == 2 {
                    (i.wrapping_add(1), 0)
                } else {
                    (i, c + 1)
                };
                v
            }
            0x3CC => self.misc,
            0x3CE => self.gc_index,
            0x3CF => *self.gc.get(usize::from(self.gc_index))?,
            0x3B4 | 0x3D4 => self.crtc_index,
            0x3B5 | 0x3D5 => *self.crtc.get(usize::from(self.crtc_index))?,
            0x3BA | 0x3DA => {
                self.ac_data = false;
                self.status_reads = self.status_reads.wrapping_add(1);
                match self.status_reads & 3 {
                    0 => 0x00,
                    1 => 0x01,
                    2 => 0x09,
                    _ => 0x09,
                }
            }
            _ => return None,
        })
    }

    /// A port write the adapter takes (one byte); false for a port it
    /// does not have.
    pub fn port_out(&mut self, port: u16, v: u8) -> bool {
        match port {
            0x3C0 => {
                if self.ac_data {
                    let i = usize::from(self.ac_index & 0x1F);
                    if i < self.ac.len() {
                        self.ac[i] = v;
                    }
                } else {
                    self.ac_index = v & 0x3F;
                }
                self.ac_data = !self.ac_data;
            }
            0x3C2 => self.misc = v,
            0x3C4 => self.seq_index = v,
            0x3C5 => {
                if let Some(r) = self.seq.get_mut(usize::from(self.seq_index)) {
                    *r = v;
                }
            }
            0x3C6 => self.pel_mask = v,
            0x3C7 => {
                self.dac_read = (v, 0);
                self.dac_reading = true;
            }
            0x3C8 => {
                self.dac_write = (v, 0);
                self.dac_reading = false;
            }
            0x3C9 => {
                let (i, c) = self.dac_write;
                self.dac[usize::from(i)][usize::from(c)] = v & 0x3F;
                self.dac_write = if c == 2 {
                    (i.wrapping_add(1), 0)
                } else {
                    (i, c + 1)
                };
            }
            0x3CE => self.gc_index = v,
            0x3CF => {
                if let Some(r) = self.gc.get_mut(usize::from(self.gc_index)) {
                    *r = v;
                }
            }
            0x3B4 | 0x3D4 => self.crtc_index = v,
            0x3B5 | 0x3D5 => {
                if let Some(r) = self.crtc.get_mut(usize::from(self.crtc_index)) {
                    *r = v;
                }
            }
            _ => return false,
        }
        true
    }
}

/// Is `port` one of the adapter's?
pub fn owns(port: u32) -> bool {
    matches!(
        port,
        0x3B4 | 0x3B5 | 0x3BA | 0x3C0..=0x3CF | 0x3D4 | 0x3D5 | 0x3DA
    )
}

/// A port read (`size` bytes, each from the next port).
pub(super) fn port_in(uc: &mut Uc<'_>, port: u32, size: usize) -> Option<u32> {
    if !owns(port) {
        return None;
    }
    let vga = &mut uc.get_data_mut().vga;
    let mut v = 0u32;
    for k in 0..size.min(4) {
        let b = vga
            .port_in((port as u16).wrapping_add(k as u16))
            .unwrap_or(0xFF);
        v |= u32::from(b) << (8 * k);
    }
    Some(v)
}

/// A port write (`size` bytes, each to the next port: `out dx, ax` to an
/// index port sets the index and its data). True when the adapter took
/// it.
pub(super) fn port_out(uc: &mut Uc<'_>, port: u32, size: usize, value: u32) -> bool {
    if !owns(port) {
        return false;
    }
    {
        let vga = &mut uc.get_data_mut().vga;
        for k in 0..size.min(4) {
            vga.port_out(
                (port as u16).wrapping_add(k as u16),
                (value >> (8 * k)) as u8,
            );
        }
    }
    if let Err(e) = update_mapping(uc) {
        use super::Cpu;
        uc.request_stop(super::Stop::Error(e.0));
    }
    true
}

/// Map or unmap the planar window so that it matches the registers (real
/// mode only): a planar mode maps A0000h-AFFFFh as the device, any other
/// makes it memory again, holding plane 0's bytes.
pub fn update_mapping(uc: &mut Uc<'_>) -> Result<(), MachineError> {
    if uc.get_data().mode != crate::x86::CpuMode::Real {
        return Ok(());
    }
    let (want, mapped) = {
        let v = &uc.get_data().vga;
        (v.planar(), v.mapped)
    };
    if want == mapped {
        return Ok(());
    }
    if want {
        let mut bytes = vec![0u8; PLANE];
        uc.mem_read(WINDOW, &mut bytes)
            .map_err(|e| uerr("saving the graphics window", e))?;
        uc.mem_unmap(WINDOW, PLANE)
            .map_err(|e| uerr("unmapping the graphics window", e))?;
        uc.mmio_map(
            WINDOW,
            PLANE,
            Some(|uc: &mut Uc<'_>, off: u64, size: usize| -> u64 {
                super::hookguard::guard(uc, "VGA read", 0, |uc| {
                    super::counter::inline_off(uc);
                    let vga = &mut uc.get_data_mut().vga;
                    let mut v = 0u64;
                    for k in 0..size.min(8) {
                        v |= u64::from(vga.read_byte(off as usize + k)) << (8 * k);
                    }
                    v
                })
            }),
            Some(|uc: &mut Uc<'_>, off: u64, size: usize, value: u64| {
                super::hookguard::guard(uc, "VGA write", (), |uc| {
                    super::counter::inline_off(uc);
                    let vga = &mut uc.get_data_mut().vga;
                    for k in 0..size.min(8) {
                        vga.write_byte(off as usize + k, (value >> (8 * k)) as u8);
                    }
                })
            }),
        )
        .map_err(|e| uerr("mapping the planar window", e))?;
        let vga = &mut uc.get_data_mut().vga;
        vga.ensure_planes();
        if vga.planes[..PLANE].iter().all(|&b| b == 0) {
            // What the program left in the window as memory (mode 13h's
            // pixels when it goes unchained) is plane 0's, 1's... in turn
            // as chain 4 stored it: byte n in plane n % 4.
            for (n, b) in bytes.iter().enumerate() {
                vga.planes[(n % 4) * PLANE + n / 4] = *b;
            }
        }
        vga.mapped = true;
    } else {
        uc.mem_unmap(WINDOW, PLANE)
            .map_err(|e| uerr("unmapping the planar window", e))?;
        uc.mem_map(WINDOW, PLANE, Permission::ALL)
            .map_err(|e| uerr("mapping the graphics window", e))?;
        let bytes = uc.get_data().vga.planes[..PLANE.min(uc.get_data().vga.planes.len())].to_vec();
        uc.mem_write(WINDOW, &bytes)
            .map_err(|e| uerr("filling the graphics window", e))?;
        uc.get_data_mut().vga.mapped = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_13h_palette_is_ibms() {
        // IBM VGA Technical Reference, default colour registers: 0-15 the
        // EGA colours (6 brown 2A,15,00), 16-31 greys, then hue circles.
        assert_eq!(dac_vga256(6), [0x2A, 0x15, 0x00]);
        assert_eq!(dac_vga256(14), [0x3F, 0x3F, 0x15]);
        assert_eq!(dac_vga256(23), [0x18; 3]);
        assert_eq!(dac_vga256(32), [0x00, 0x00, 0x3F]);
        assert_eq!(dac_vga256(40), [0x3F, 0x00, 0x00]);
        assert_eq!(dac_vga256(44), [0x3F, 0x3F, 0x00]);
        assert_eq!(dac_vga256(48), [0x00, 0x3F, 0x00]);
        assert_eq!(dac_vga256(55), [0x00, 0x10, 0x3F]);
        assert_eq!(dac_vga256(57), [0x27, 0x1F, 0x3F]);
        assert_eq!(dac_vga256(104), [0x00, 0x00, 0x1C]);
        assert_eq!(dac_vga256(175), [0x14, 0x16, 0x1C]);
        assert_eq!(dac_vga256(247), [0x0B, 0x0C, 0x10]);
        assert_eq!(dac_vga256(248), [0, 0, 0]);
    }

    #[test]
    fn the_sixteen_colour_tables() {
        assert_eq!(dac_ega(0x14), [0x2A, 0x15, 0x00]); // brown
        assert_eq!(dac_ega(0x3F), [0x3F; 3]);
        assert_eq!(dac_ega(0x39), [0x15, 0x15, 0x3F]); // light blue
        assert_eq!(dac_cga(0x06), [0x2A, 0x15, 0x00]);
        assert_eq!(dac_cga(0x13), [0x15, 0x3F, 0x3F]); // light cyan
        assert_eq!(dac_cga(0x15), [0x3F, 0x15, 0x3F]); // light magenta
        assert_eq!(dac_cga(0x16), [0x3F, 0x3F, 0x15]); // yellow
        assert_eq!(dac_cga(0x17), [0x3F; 3]);
        assert_eq!(dac_cga(0x37), [0x3F; 3]);
    }

    #[test]
    fn write_modes_latches_and_masks() {
        let mut v = Vga::default();
        v.load_mode(0x12);
        // Write mode 2: colour 0Ch (planes 2, 3) into bits 7-4 only.
        v.gc[5] = 2;
        v.gc[8] = 0xF0;
        v.read_byte(10);
        v.write_byte(10, 0x0C);
        assert_eq!([v.planes[10], v.planes[PLANE + 10]], [0x00, 0x00]);
        assert_eq!(
            [v.planes[2 * PLANE + 10], v.planes[3 * PLANE + 10]],
            [0xF0, 0xF0]
        );
        // Write mode 0 with set/reset on plane 0, map mask planes 0 and 2,
        // XOR with the latches.
        v.gc[5] = 0;
        v.gc[8] = 0xFF;
        v.gc[0] = 0x01;
        v.gc[1] = 0x01;
        v.gc[3] = 0x18;
        v.seq[2] = 0x05;
        v.read_byte(10);
        v.write_byte(10, 0x0F);
        assert_eq!(v.planes[10], 0xFF);
        assert_eq!(v.planes[2 * PLANE + 10], 0xFF); // F0 ^ 0F
        assert_eq!(v.planes[3 * PLANE + 10], 0xF0); // masked out
        // Write mode 1 copies the latches.
        v.gc[5] = 1;
        v.seq[2] = 0x0F;
        v.read_byte(10);
        v.write_byte(20, 0);
        assert_eq!(v.planes[3 * PLANE + 20], 0xF0);
        // Read mode 1: which pixels are colour 0Fh (planes 0,2,3 = FF,FF,F0; plane 1 = 0).
        v.gc[5] = 0x08;
        v.gc[2] = 0x0D;
        v.gc[7] = 0x0F;
        assert_eq!(v.read_byte(10), 0xF0);
        // Read mode 0 returns the selected plane.
        v.gc[5] = 0;
        v.gc[4] = 2;
        assert_eq!(v.read_byte(10), 0xFF);
        // Write mode 3: rotated data ANDs the bit mask, set/reset colour.
        v.gc[5] = 3;
        v.gc[3] = 0;
        v.gc[0] = 0x02;
        v.gc[8] = 0x0F;
        v.read_byte(30);
        v.write_byte(30, 0x3C);
        assert_eq!(v.planes[PLANE + 30], 0x0C);
        assert_eq!(v.planes[30], 0x00);
    }

    #[test]
    fn the_dac_ports_advance_by_component() {
        let mut v = Vga::default();
        v.port_out(0x3C8, 5);
        for c in [1, 2, 3, 4, 5, 6] {
            v.port_out(0x3C9, c);
        }
        assert_eq!(v.dac[5], [1, 2, 3]);
        assert_eq!(v.dac[6], [4, 5, 6]);
        v.port_out(0x3C7, 6);
        assert_eq!(v.port_in(0x3C7), Some(3));
        assert_eq!(
            [v.port_in(0x3C9), v.port_in(0x3C9), v.port_in(0x3C9)],
            [Some(4), Some(5), Some(6)]
        );
    }
}
