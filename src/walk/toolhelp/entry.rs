//! STACKTRACEENTRY, the structure every ToolHelp stack function fills.

use serde::Serialize;

/// STACKTRACEENTRY (toolhelp.md, "Structures and constants"): 0x14 bytes,
/// packed, little-endian.
///
/// | off | field |
/// | --- | --- |
/// | 00 | dwSize |
/// | 04 | hTask |
/// | 06 | wSS |
/// | 08 | wBP |
/// | 0A | wCS |
/// | 0C | wIP |
/// | 0E | hModule |
/// | 10 | wSegment |
/// | 12 | wFlags |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StackTraceEntry {
    /// Must be [`StackTraceEntry::SIZE`] before every call.
    #[serde(rename = "dwSize")]
    pub dw_size: u32,
    /// Task whose stack this is (the TDB selector).
    #[serde(rename = "hTask")]
    pub h_task: u16,
    /// Stack segment.
    #[serde(rename = "wSS")]
    pub w_ss: u16,
    /// Frame pointer of this frame.
    #[serde(rename = "wBP")]
    pub w_bp: u16,
    /// Code segment of this frame's CS:IP.
    #[serde(rename = "wCS")]
    pub w_cs: u16,
    /// Instruction pointer (a return address for every frame but the first).
    #[serde(rename = "wIP")]
    pub w_ip: u16,
    /// Module owning wCS.
    #[serde(rename = "hModule")]
    pub h_module: u16,
    /// 1-based NE segment number of wCS in that module.
    #[serde(rename = "wSegment")]
    pub w_segment: u16,
    /// [`StackTraceEntry::FRAME_FAR`] or [`StackTraceEntry::FRAME_NEAR`].
    #[serde(rename = "wFlags")]
    pub w_flags: u16,
}

impl StackTraceEntry {
    /// sizeof(STACKTRACEENTRY): the only dwSize the functions accept.
    pub const SIZE: usize = 0x14;
    /// wFlags of a frame reached by a far call.
    pub const FRAME_FAR: u16 = 0;
    /// wFlags of a frame reached by a near call.
    pub const FRAME_NEAR: u16 = 1;

    /// The packed little-endian bytes, offsets as in the table above.
    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0x00..0x04].copy_from_slice(&self.dw_size.to_le_bytes());
        let words = [
            self.h_task,
            self.w_ss,
            self.w_bp,
            self.w_cs,
            self.w_ip,
            self.h_module,
            self.w_segment,
            self.w_flags,
        ];
        for (i, w) in words.iter().enumerate() {
            let off = 4 + 2 * i;
            b[off..off + 2].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// Parse the first 0x14 bytes of `bytes`; `None` if there are fewer.
    /// dwSize is taken as it is, not checked (the functions check it).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..Self::SIZE)?;
        let w = |off: usize| u16::from_le_bytes([b[off], b[off + 1]]);
        Some(StackTraceEntry {
            dw_size: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            h_task: w(0x04),
            w_ss: w(0x06),
            w_bp: w(0x08),
            w_cs: w(0x0A),
            w_ip: w(0x0C),
            h_module: w(0x0E),
            w_segment: w(0x10),
            w_flags: w(0x12),
        })
    }

    pub(super) fn size_ok(&self) -> bool {
        self.dw_size == Self::SIZE as u32
    }
}

impl Default for StackTraceEntry {
    /// dwSize = 0x14, everything else 0.
    fn default() -> Self {
        StackTraceEntry {
            dw_size: Self::SIZE as u32,
            h_task: 0,
            w_ss: 0,
            w_bp: 0,
            w_cs: 0,
            w_ip: 0,
            h_module: 0,
            w_segment: 0,
            w_flags: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::ste;
    use super::*;

    // ---- The structure -------------------------------------------------

    #[test]
    fn entry_field_offsets_match_the_table() {
        let e = StackTraceEntry {
            dw_size: 0x0403_0201,
            h_task: 0x0605,
            w_ss: 0x0807,
            w_bp: 0x0A09,
            w_cs: 0x0C0B,
            w_ip: 0x0E0D,
            h_module: 0x100F,
            w_segment: 0x1211,
            w_flags: 0x1413,
        };
        let b = e.to_bytes();
        let want: Vec<u8> = (1..=0x14).collect();
        assert_eq!(b.to_vec(), want, "every byte at its toolhelp.md offset");
        assert_eq!(StackTraceEntry::from_bytes(&b), Some(e));
        assert_eq!(StackTraceEntry::from_bytes(&b[..0x13]), None);
        let mut longer = b.to_vec();
        longer.push(0xFF);
        assert_eq!(StackTraceEntry::from_bytes(&longer), Some(e));
        assert_eq!(StackTraceEntry::SIZE, 0x14);
        assert_eq!(
            (StackTraceEntry::FRAME_FAR, StackTraceEntry::FRAME_NEAR),
            (0, 1)
        );
    }

    #[test]
    fn entry_default_is_size_and_zeros() {
        let b = StackTraceEntry::default().to_bytes();
        assert_eq!(&b[..4], &[0x14, 0, 0, 0]);
        assert!(b[4..].iter().all(|&x| x == 0));
    }

    #[test]
    fn entry_serializes_with_toolhelp_field_names() {
        let v = serde_json::to_value(ste(0x600)).unwrap();
        for k in [
            "dwSize", "hTask", "wSS", "wBP", "wCS", "wIP", "hModule", "wSegment", "wFlags",
        ] {
            assert!(v.get(k).is_some(), "missing {k} in {v}");
        }
        assert_eq!(v["wBP"], 0x600);
    }
}
