//! DOS `.COM` programs: the whole file is loaded at PSP:0100 and entered
//! there.

use super::LoadError;

/// The largest `.COM` program: it is loaded at offset 0x100 of a 64 KiB
/// segment and needs room above it for at least a small stack, so it may not
/// exceed 0xFF00 bytes.
pub const COM_MAX: usize = 0xFF00;

/// A DOS `.COM` program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComImage {
    /// The program bytes, loaded at PSP:0100.
    pub bytes: Vec<u8>,
}

impl ComImage {
    /// Accept `bytes` as a `.COM` program: at most [`COM_MAX`] bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, LoadError> {
        if bytes.len() > COM_MAX {
            return Err(LoadError::at(
                COM_MAX as u64,
                "file size",
                format!(
                    "a .COM program is loaded at offset 0x100 of one 64 KiB segment and may be \
                     at most {COM_MAX:#X} bytes; this file has {:#X}",
                    bytes.len()
                ),
            ));
        }
        Ok(ComImage {
            bytes: bytes.to_vec(),
        })
    }

    /// Load offset within the PSP segment (0x100).
    pub const LOAD_OFFSET: u16 = 0x100;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert_eq!(ComImage::parse(&[]).unwrap().bytes.len(), 0);
        assert_eq!(
            ComImage::parse(&vec![0; COM_MAX]).unwrap().bytes.len(),
            COM_MAX
        );
        let e = ComImage::parse(&vec![0; COM_MAX + 1]).unwrap_err();
        assert_eq!(e.offset, Some(0xFF00));
        assert!(e.message.contains("0xFF01"), "{e}");
    }
}
