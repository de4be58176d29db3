//! ADDRESS64 with its modes and STACKFRAME64 (dbghelp.md), laid out byte
//! for byte as dbghelp declares them, and their JSON form.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::walk::memory::CpuMode;

/// ADDRESS_MODE (dbghelp.md, "ADDRESS and its modes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrMode {
    /// 0: base(Segment) + (Offset & 0xFFFF), Segment a protected-mode
    /// selector. The value of a zero-filled structure.
    Mode1616 = 0,
    /// 1: base(Segment) + Offset (a 32-bit segment).
    Mode1632 = 1,
    /// 2: Segment * 16 + Offset.
    Real = 2,
    /// 3: Offset is the linear address.
    Flat = 3,
}

impl AddrMode {
    /// The ADDRESS_MODE value.
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The mode a raw Mode value names; `None` outside 0..=3.
    pub fn from_value(v: u32) -> Option<AddrMode> {
        match v {
            0 => Some(AddrMode::Mode1616),
            1 => Some(AddrMode::Mode1632),
            2 => Some(AddrMode::Real),
            3 => Some(AddrMode::Flat),
            _ => None,
        }
    }

    /// dbghelp's name: `AddrMode1616`, `AddrMode1632`, `AddrModeReal`,
    /// `AddrModeFlat`.
    pub fn name(self) -> &'static str {
        match self {
            AddrMode::Mode1616 => "AddrMode1616",
            AddrMode::Mode1632 => "AddrMode1632",
            AddrMode::Real => "AddrModeReal",
            AddrMode::Flat => "AddrModeFlat",
        }
    }

    /// The mode a machine's own segment values are in: AddrMode1616 in
    /// protected mode, AddrModeReal in real mode.
    pub fn native(mode: CpuMode) -> AddrMode {
        match mode {
            CpuMode::Protected => AddrMode::Mode1616,
            CpuMode::Real => AddrMode::Real,
        }
    }
}

/// The name of a raw Mode value: dbghelp's name, or "Mode N" for a value
/// that is no ADDRESS_MODE.
pub fn mode_name(v: u32) -> String {
    match AddrMode::from_value(v) {
        Some(m) => m.name().to_string(),
        None => format!("Mode {v}"),
    }
}

/// ADDRESS64 (dbghelp.md): `{ DWORD64 Offset; WORD Segment; ADDRESS_MODE
/// Mode; }`, laid out as C lays it out:
///
/// | off | size | field |
/// | --- | --- | --- |
/// | 00 | 8 | Offset |
/// | 08 | 2 | Segment |
/// | 0A | 2 | (padding) |
/// | 0C | 4 | Mode |
///
/// 16 bytes. Mode is kept as the raw value so that any structure, also one
/// with a Mode that is no ADDRESS_MODE, can be represented and refused.
#[repr(C)]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Address64 {
    #[serde(rename = "Offset")]
    /// ADDRESS64.Offset.
    pub offset: u64,
    #[serde(rename = "Segment")]
    /// ADDRESS64.Segment.
    pub segment: u16,
    #[serde(rename = "Mode")]
    /// ADDRESS64.Mode (an ADDRESS_MODE value, kept raw).
    pub mode: u32,
}

impl Address64 {
    /// sizeof(ADDRESS64).
    pub const SIZE: usize = 16;

    /// An address in `mode`.
    pub fn new(mode: AddrMode, segment: u16, offset: u64) -> Self {
        Address64 {
            offset,
            segment,
            mode: mode.value(),
        }
    }

    /// No address: Offset and Segment 0 (as the last frame's AddrReturn
    /// when its return address cannot be read).
    pub fn is_none(&self) -> bool {
        self.offset == 0 && self.segment == 0
    }

    /// The little-endian bytes, offsets as in the table above (padding 0).
    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0x00..0x08].copy_from_slice(&self.offset.to_le_bytes());
        b[0x08..0x0A].copy_from_slice(&self.segment.to_le_bytes());
        b[0x0C..0x10].copy_from_slice(&self.mode.to_le_bytes());
        b
    }

    /// Parse the first 16 bytes; `None` if there are fewer. The padding is
    /// ignored.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..Self::SIZE)?;
        let mut off = [0u8; 8];
        off.copy_from_slice(&b[0..8]);
        Some(Address64 {
            offset: u64::from_le_bytes(off),
            segment: u16::from_le_bytes([b[8], b[9]]),
            mode: u32::from_le_bytes([b[12], b[13], b[14], b[15]]),
        })
    }
}

impl fmt::Display for Address64 {
    /// `1616 1017:09E0`, `real 1000:FFE6`, `flat 010109E0`,
    /// `1632 1017:000009E0`, or `mode 7 ...` for a Mode that is no
    /// ADDRESS_MODE.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match AddrMode::from_value(self.mode) {
            Some(AddrMode::Mode1616) => write!(f, "1616 {:04X}:{:04X}", self.segment, self.offset),
            Some(AddrMode::Mode1632) => write!(f, "1632 {:04X}:{:08X}", self.segment, self.offset),
            Some(AddrMode::Real) => write!(f, "real {:04X}:{:04X}", self.segment, self.offset),
            Some(AddrMode::Flat) => write!(f, "flat {:08X}", self.offset),
            None => write!(
                f,
                "mode {} {:04X}:{:X}",
                self.mode, self.segment, self.offset
            ),
        }
    }
}

/// STACKFRAME64 as dbghelp.h declares it, laid out as C lays it out
/// (natural alignment; the same on x86 and x64, where the 4- or 8-byte
/// FuncTableEntry is followed by padding to Params' 8-byte alignment):
///
/// | off | size | field |
/// | --- | --- | --- |
/// | 00 | 16 | AddrPC |
/// | 10 | 16 | AddrReturn |
/// | 20 | 16 | AddrFrame |
/// | 30 | 16 | AddrStack |
/// | 40 | 16 | AddrBStore |
/// | 50 | 8 | FuncTableEntry |
/// | 58 | 32 | Params[4] (DWORD64) |
/// | 78 | 4 | Far (BOOL) |
/// | 7C | 4 | Virtual (BOOL) |
/// | 80 | 24 | Reserved[3] (DWORD64) |
/// | 98 | 112 | KdHelp (KDHELP64) |
///
/// 0x108 = 264 bytes. The module documentation says what each member
/// means for a 16-bit frame.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(into = "FrameJson", from = "FrameJson")]
pub struct StackFrame64 {
    /// AddrPC: the frame's CS:IP.
    pub addr_pc: Address64,
    /// AddrReturn: where the frame returns to.
    pub addr_return: Address64,
    /// AddrFrame: SS:BP.
    pub addr_frame: Address64,
    /// AddrStack: SS:SP.
    pub addr_stack: Address64,
    /// AddrBStore (IA-64 only; 0).
    pub addr_bstore: Address64,
    /// FuncTableEntry (0: no function tables here).
    pub func_table_entry: u64,
    /// Params: the four words above the return address.
    pub params: [u64; 4],
    /// BOOL: TRUE (nonzero) for a far call frame.
    pub far: u32,
    /// BOOL: TRUE (nonzero) for a virtual frame. (`Virtual` in C.)
    pub virtual_frame: u32,
    /// Reserved (0).
    pub reserved: [u64; 3],
    /// KDHELP64, 112 bytes, always zero here.
    pub kd_help: [u64; 14],
}

impl StackFrame64 {
    /// sizeof(STACKFRAME64).
    pub const SIZE: usize = 0x108;

    /// Far as a bool.
    pub fn is_far(&self) -> bool {
        self.far != 0
    }

    /// Virtual as a bool.
    pub fn is_virtual(&self) -> bool {
        self.virtual_frame != 0
    }

    /// The little-endian bytes, offsets as in the table above.
    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        let addrs = [
            self.addr_pc,
            self.addr_return,
            self.addr_frame,
            self.addr_stack,
            self.addr_bstore,
        ];
        for (i, a) in addrs.iter().enumerate() {
            b[i * 16..i * 16 + 16].copy_from_slice(&a.to_bytes());
        }
        b[0x50..0x58].copy_from_slice(&self.func_table_entry.to_le_bytes());
        for (i, p) in self.params.iter().enumerate() {
            b[0x58 + 8 * i..0x60 + 8 * i].copy_from_slice(&p.to_le_bytes());
        }
        b[0x78..0x7C].copy_from_slice(&self.far.to_le_bytes());
        b[0x7C..0x80].copy_from_slice(&self.virtual_frame.to_le_bytes());
        for (i, r) in self.reserved.iter().enumerate() {
            b[0x80 + 8 * i..0x88 + 8 * i].copy_from_slice(&r.to_le_bytes());
        }
        for (i, k) in self.kd_help.iter().enumerate() {
            b[0x98 + 8 * i..0xA0 + 8 * i].copy_from_slice(&k.to_le_bytes());
        }
        b
    }

    /// Parse the first 0x108 bytes; `None` if there are fewer.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..Self::SIZE)?;
        let q = |off: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[off..off + 8]);
            u64::from_le_bytes(x)
        };
        let d = |off: usize| u32::from_le_bytes([b[off], b[off + 1], b[off + 2], b[off + 3]]);
        let a = |i: usize| Address64::from_bytes(&b[i * 16..]).unwrap_or_default();
        let mut f = StackFrame64 {
            addr_pc: a(0),
            addr_return: a(1),
            addr_frame: a(2),
            addr_stack: a(3),
            addr_bstore: a(4),
            func_table_entry: q(0x50),
            far: d(0x78),
            virtual_frame: d(0x7C),
            ..StackFrame64::default()
        };
        for i in 0..4 {
            f.params[i] = q(0x58 + 8 * i);
        }
        for i in 0..3 {
            f.reserved[i] = q(0x80 + 8 * i);
        }
        for i in 0..14 {
            f.kd_help[i] = q(0x98 + 8 * i);
        }
        Some(f)
    }
}

/// The JSON form of a STACKFRAME64: dbghelp's member names, ADDRESSes as
/// `{"Offset", "Segment", "Mode"}` integers, Far and Virtual as booleans.
/// The members that are always 0 here (FuncTableEntry, AddrBStore,
/// Reserved, KdHelp) are left out.
#[derive(Serialize, Deserialize, Clone, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameJson {
    #[serde(rename = "AddrPC")]
    addr_pc: Address64,
    #[serde(rename = "AddrReturn")]
    addr_return: Address64,
    #[serde(rename = "AddrFrame")]
    addr_frame: Address64,
    #[serde(rename = "AddrStack")]
    addr_stack: Address64,
    #[serde(rename = "Params")]
    params: [u64; 4],
    #[serde(rename = "Far")]
    far: bool,
    #[serde(rename = "Virtual")]
    virtual_frame: bool,
}

/// A STACKFRAME64's JSON Schema is its JSON form's.
impl schemars::JsonSchema for StackFrame64 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StackFrame64".into()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        FrameJson::json_schema(g)
    }
}

impl From<StackFrame64> for FrameJson {
    fn from(f: StackFrame64) -> Self {
        FrameJson {
            addr_pc: f.addr_pc,
            addr_return: f.addr_return,
            addr_frame: f.addr_frame,
            addr_stack: f.addr_stack,
            params: f.params,
            far: f.is_far(),
            virtual_frame: f.is_virtual(),
        }
    }
}

impl From<FrameJson> for StackFrame64 {
    fn from(j: FrameJson) -> Self {
        StackFrame64 {
            addr_pc: j.addr_pc,
            addr_return: j.addr_return,
            addr_frame: j.addr_frame,
            addr_stack: j.addr_stack,
            params: j.params,
            far: u32::from(j.far),
            virtual_frame: u32::from(j.virtual_frame),
            ..StackFrame64::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::chain;
    use super::super::{Start, walk_with_start};
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn address64_layout_is_dbghelps() {
        assert_eq!(size_of::<Address64>(), Address64::SIZE);
        assert_eq!(offset_of!(Address64, offset), 0);
        assert_eq!(offset_of!(Address64, segment), 8);
        assert_eq!(offset_of!(Address64, mode), 12);
        let a = Address64 {
            offset: 0x0807_0605_0403_0201,
            segment: 0x0A09,
            mode: 0x100F_0E0D,
        };
        let b = a.to_bytes();
        assert_eq!(
            b,
            [
                1, 2, 3, 4, 5, 6, 7, 8, 9, 0x0A, 0, 0, 0x0D, 0x0E, 0x0F, 0x10
            ]
        );
        assert_eq!(Address64::from_bytes(&b), Some(a));
        assert_eq!(Address64::from_bytes(&b[..15]), None);
        let modes: Vec<u32> = [
            AddrMode::Mode1616,
            AddrMode::Mode1632,
            AddrMode::Real,
            AddrMode::Flat,
        ]
        .iter()
        .map(|m| m.value())
        .collect();
        assert_eq!(modes, [0, 1, 2, 3]);
        assert_eq!(AddrMode::from_value(0), Some(AddrMode::Mode1616));
        assert_eq!(AddrMode::from_value(4), None);
    }

    #[test]
    fn stackframe64_layout_is_dbghelps() {
        assert_eq!(size_of::<StackFrame64>(), 0x108);
        assert_eq!(StackFrame64::SIZE, 0x108);
        let offsets = [
            offset_of!(StackFrame64, addr_pc),
            offset_of!(StackFrame64, addr_return),
            offset_of!(StackFrame64, addr_frame),
            offset_of!(StackFrame64, addr_stack),
            offset_of!(StackFrame64, addr_bstore),
            offset_of!(StackFrame64, func_table_entry),
            offset_of!(StackFrame64, params),
            offset_of!(StackFrame64, far),
            offset_of!(StackFrame64, virtual_frame),
            offset_of!(StackFrame64, reserved),
            offset_of!(StackFrame64, kd_help),
        ];
        assert_eq!(
            offsets,
            [
                0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x58, 0x78, 0x7C, 0x80, 0x98
            ]
        );
        // to_bytes puts every member at that offset.
        let mut f = StackFrame64 {
            addr_pc: Address64::new(AddrMode::Flat, 0x1111, 0xA1),
            addr_return: Address64::new(AddrMode::Real, 0x2222, 0xA2),
            addr_frame: Address64::new(AddrMode::Mode1632, 0x3333, 0xA3),
            addr_stack: Address64::new(AddrMode::Mode1616, 0x4444, 0xA4),
            addr_bstore: Address64::new(AddrMode::Flat, 0x5555, 0xA5),
            func_table_entry: 0xF7,
            params: [0xB1, 0xB2, 0xB3, 0xB4],
            far: 1,
            virtual_frame: 0xC2,
            reserved: [0xD1, 0xD2, 0xD3],
            ..StackFrame64::default()
        };
        f.kd_help[13] = 0xEE;
        let b = f.to_bytes();
        for (i, x) in [0xA1u8, 0xA2, 0xA3, 0xA4, 0xA5].iter().enumerate() {
            assert_eq!(b[i * 16], *x);
            assert_eq!(b[i * 16 + 12], [3u8, 2, 1, 0, 3][i], "Mode of address {i}");
        }
        assert_eq!(b[0x50], 0xF7);
        assert_eq!(
            [b[0x58], b[0x60], b[0x68], b[0x70]],
            [0xB1, 0xB2, 0xB3, 0xB4]
        );
        assert_eq!((b[0x78], b[0x7C]), (1, 0xC2));
        assert_eq!([b[0x80], b[0x88], b[0x90]], [0xD1, 0xD2, 0xD3]);
        assert_eq!(b[0x98 + 13 * 8], 0xEE);
        assert_eq!(StackFrame64::from_bytes(&b), Some(f));
        assert_eq!(StackFrame64::from_bytes(&b[..0x107]), None);
    }

    #[test]
    fn json_uses_dbghelps_names_with_integer_addresses() {
        let (m, ctx) = chain();
        let w = walk_with_start(&m, ctx, Start::Native, None, 100);
        let v = serde_json::to_value(w.frames[1]).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys.len(),
            7,
            "AddrPC AddrReturn AddrFrame AddrStack Params Far Virtual: {v}"
        );
        for k in ["AddrPC", "AddrReturn", "AddrFrame", "AddrStack"] {
            for sub in ["Offset", "Segment", "Mode"] {
                assert!(v[k][sub].is_u64(), "{k}.{sub} in {v}");
            }
        }
        assert!(v["Far"].is_boolean() && v["Virtual"].is_boolean());
        assert_eq!(v["Params"].as_array().unwrap().len(), 4);
        let back: StackFrame64 = serde_json::from_value(v).unwrap();
        assert_eq!(back, w.frames[1]);
        let bad = serde_json::json!({"AddrPC": {"Offset": 1, "Segment": 2, "Mode": 3, "X": 1}});
        assert!(serde_json::from_value::<Address64>(bad["AddrPC"].clone()).is_err());
    }
}
