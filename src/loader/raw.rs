//! Raw images: boot sectors and ROM images, loaded at a fixed real-mode
//! address.

use super::LoadError;

/// A raw image loaded at a fixed segment:offset (real mode, see win16.md
/// "The CPU the programs expect": linear = seg * 16 + off).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawImage {
    /// The bytes, copied to `load`.
    pub bytes: Vec<u8>,
    /// Load address (segment, offset).
    pub load: (u16, u16),
    /// Entry point (segment, offset).
    pub entry: (u16, u16),
    /// True for a boot sector (512 bytes ending 55 AA, at 0000:7C00).
    pub boot_sector: bool,
}

/// True for exactly 512 bytes ending in the boot signature 55 AA.
pub fn looks_like_boot_sector(bytes: &[u8]) -> bool {
    bytes.len() == 512 && bytes.ends_with(&[0x55, 0xAA])
}

impl RawImage {
    /// A raw image at `load`, entered at `entry`.
    pub fn new(bytes: &[u8], load: (u16, u16), entry: (u16, u16), boot_sector: bool) -> Self {
        RawImage {
            bytes: bytes.to_vec(),
            load,
            entry,
            boot_sector,
        }
    }

    /// A boot sector: 512 bytes ending 55 AA, loaded and entered at
    /// 0000:7C00 as the BIOS does.
    pub fn boot_sector(bytes: &[u8]) -> Result<Self, LoadError> {
        if bytes.len() != 512 {
            return Err(LoadError::whole(
                "file size",
                format!(
                    "a boot sector is exactly 512 (0x200) bytes; this file has {:#X}",
                    bytes.len()
                ),
            ));
        }
        if !bytes.ends_with(&[0x55, 0xAA]) {
            let found = bytes.get(510..512).unwrap_or(&[]);
            return Err(LoadError::at(
                0x1FE,
                "boot signature",
                format!("expected 55 AA, found {found:02X?}"),
            ));
        }
        Ok(Self::new(bytes, (0, 0x7C00), (0, 0x7C00), true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boot_sector_rules() {
        let mut b = vec![0u8; 512];
        let e = RawImage::boot_sector(&b).unwrap_err();
        assert_eq!(e.offset, Some(0x1FE));
        b[510] = 0x55;
        b[511] = 0xAA;
        assert!(looks_like_boot_sector(&b));
        let r = RawImage::boot_sector(&b).unwrap();
        assert_eq!(
            (r.load, r.entry, r.boot_sector),
            ((0, 0x7C00), (0, 0x7C00), true)
        );
        assert!(RawImage::boot_sector(&b[..511]).is_err());
    }
}
