//! 286-style segment descriptors as they sit in the GDT and LDT.

use super::memory::Descriptor;

/// Encode a byte-granular 16-bit segment descriptor (limit <= 0xFFFFF).
pub fn encode(d: &Descriptor) -> [u8; 8] {
    let mut b = [0u8; 8];
    b[0] = d.limit as u8;
    b[1] = (d.limit >> 8) as u8;
    b[2] = d.base as u8;
    b[3] = (d.base >> 8) as u8;
    b[4] = (d.base >> 16) as u8;
    b[5] = d.access;
    b[6] = ((d.limit >> 16) & 0x0F) as u8;
    b[7] = (d.base >> 24) as u8;
    b
}

/// Decode an 8-byte descriptor (honouring the granularity bit).
pub fn decode(b: &[u8; 8]) -> Descriptor {
    let mut limit = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[6] & 0x0F) << 16;
    if b[6] & 0x80 != 0 {
        limit = (limit << 12) | 0xFFF;
    }
    Descriptor {
        base: u32::from(b[2])
            | u32::from(b[3]) << 8
            | u32::from(b[4]) << 16
            | u32::from(b[7]) << 24,
        limit,
        access: b[5],
    }
}

/// Selector for LDT index `index` at ring 3 (TI = 1, RPL = 3): win16.md,
/// "Application selectors have TI = 1 and RPL = 3, so they end in 7".
pub fn ldt_selector(index: u16) -> u16 {
    (index << 3) | 7
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_layout() {
        let d = Descriptor {
            base: 0x0123_4567,
            limit: 0x0_ABCD,
            access: 0xF2,
        };
        let b = encode(&d);
        assert_eq!(b, [0xCD, 0xAB, 0x67, 0x45, 0x23, 0xF2, 0x00, 0x01]);
        assert_eq!(decode(&b), d);
        assert_eq!(ldt_selector(512), 0x1007);
        assert_eq!(ldt_selector(513), 0x100F);
    }

    #[test]
    fn granular_limit() {
        let b = [0xFF, 0xFF, 0, 0, 0, 0x92, 0xCF, 0];
        assert_eq!(decode(&b).limit, 0xFFFF_FFFF);
    }
}
