//! DOS's error state: the extended error (INT 21h AH=59h) that every failing
//! call leaves behind, with its class, suggested action and locus, and the
//! narrower codes some calls return in AX.
//!
//! The tables follow MS-DOS 4.0's own (MS_TABLE.ASM, `ERR_TABLE_21` and
//! `I21_MAP_E_TAB`), as Ralf Brown's interrupt list documents them for
//! INT 21h AH=59h: the error code picks the class, action and locus; a
//! locus the table leaves to the call is "block device" for calls that
//! name a file or handle and "unknown" for the rest. A call whose own
//! documented codes do not include the real error returns the last of its
//! codes in AX, and AH=59h still tells the real one.

use super::super::fs::DosError;

/// Error classes (AH=59h BH).
pub mod class {
    pub const OUT_OF_RESOURCE: u8 = 1;
    pub const AUTHORIZATION: u8 = 3;
    pub const APPLICATION: u8 = 7;
    pub const NOT_FOUND: u8 = 8;
    pub const BAD_FORMAT: u8 = 9;
    pub const LOCKED: u8 = 10;
    pub const ALREADY_EXISTS: u8 = 12;
    pub const UNKNOWN: u8 = 13;
}

/// Suggested actions (AH=59h BL).
pub mod action {
    pub const DELAY_RETRY: u8 = 2;
    pub const USER: u8 = 3;
    pub const ABORT: u8 = 4;
    pub const PANIC: u8 = 5;
}

/// Error loci (AH=59h CH).
pub mod locus {
    pub const UNKNOWN: u8 = 1;
    pub const BLOCK_DEVICE: u8 = 2;
    pub const NETWORK: u8 = 3;
    pub const MEMORY: u8 = 5;
}

/// DOS error codes beyond those the drive returns.
pub const ERR_ARENA_TRASHED: u16 = 0x07;
pub const ERR_NOT_ENOUGH_MEMORY: u16 = 0x08;
pub const ERR_INVALID_BLOCK: u16 = 0x09;
pub const ERR_BAD_ENVIRONMENT: u16 = 0x0A;
pub const ERR_BAD_FORMAT: u16 = 0x0B;
pub const ERR_INVALID_DATA: u16 = 0x0D;
pub const ERR_NOT_SUPPORTED: u16 = 0x32;

/// The extended error of the last failing call (AH=59h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExtError {
    pub code: u16,
    pub class: u8,
    pub action: u8,
    pub locus: u8,
}

/// Class, action and locus of `code` (ERR_TABLE_21); `call_locus` stands in
/// where the table leaves the locus to the call.
pub fn describe(code: u16, call_locus: u8) -> ExtError {
    use action::*;
    use class::*;
    let (class, action, locus) = match code {
        0x01 => (APPLICATION, ABORT, call_locus),
        0x02 | 0x03 | 0x0F | 0x12 => (NOT_FOUND, USER, locus::BLOCK_DEVICE),
        0x04 => (OUT_OF_RESOURCE, ABORT, locus::UNKNOWN),
        0x05 => (AUTHORIZATION, USER, call_locus),
        0x06 | 0x0C => (APPLICATION, ABORT, locus::UNKNOWN),
        0x07 => (APPLICATION, PANIC, locus::MEMORY),
        0x08 => (OUT_OF_RESOURCE, ABORT, locus::MEMORY),
        0x09 | 0x0A => (APPLICATION, ABORT, locus::MEMORY),
        0x0B => (BAD_FORMAT, USER, locus::UNKNOWN),
        0x0D => (BAD_FORMAT, ABORT, locus::UNKNOWN),
        0x10 => (AUTHORIZATION, USER, locus::BLOCK_DEVICE),
        0x11 => (UNKNOWN, USER, locus::BLOCK_DEVICE),
        0x20 | 0x21 => (LOCKED, DELAY_RETRY, locus::BLOCK_DEVICE),
        0x24 => (OUT_OF_RESOURCE, ABORT, locus::MEMORY),
        0x32 => (BAD_FORMAT, USER, locus::NETWORK),
        0x50 => (ALREADY_EXISTS, USER, locus::BLOCK_DEVICE),
        0x57 => (BAD_FORMAT, USER, locus::UNKNOWN),
        _ => (UNKNOWN, ABORT, call_locus),
    };
    ExtError {
        code,
        class,
        action,
        locus,
    }
}

/// The codes a call may return in AX, the last being what it returns for
/// any other error (I21_MAP_E_TAB). None: the call returns the error as is.
fn allowed(ah: u8) -> Option<&'static [u16]> {
    Some(match ah {
        0x38 => &[0x01, 0x02],
        0x39 => &[0x03, 0x02, 0x05],
        0x3A => &[0x10, 0x03, 0x02, 0x05],
        0x3B => &[0x02, 0x03],
        0x3C => &[0x03, 0x02, 0x04, 0x05],
        0x3D => &[0x03, 0x02, 0x0C, 0x04, 0x1A, 0x05],
        0x3E => &[0x06],
        0x3F | 0x40 => &[0x06, 0x05],
        0x41 => &[0x03, 0x02, 0x05],
        0x42 => &[0x06, 0x01],
        0x43 => &[0x03, 0x02, 0x01, 0x05],
        0x44 => &[0x0F, 0x0D, 0x01, 0x06, 0x05],
        0x45 | 0x46 => &[0x06, 0x04],
        0x47 => &[0x1A, 0x0F],
        0x48 => &[0x07, 0x08],
        0x49 => &[0x07, 0x09],
        0x4A => &[0x07, 0x09, 0x08],
        0x4B => &[0x03, 0x01, 0x02, 0x04, 0x0B, 0x0A, 0x08, 0x05],
        0x4E => &[0x03, 0x02, 0x12],
        0x4F => &[0x12],
        0x56 => &[0x11, 0x03, 0x02, 0x10, 0x05],
        0x57 => &[0x06, 0x08, 0x0D, 0x01],
        0x58 => &[0x01],
        0x5A => &[0x03, 0x02, 0x04, 0x05],
        0x5B => &[0x50, 0x03, 0x02, 0x04, 0x05],
        0x5C => &[0x06, 0x01, 0x24, 0x21],
        0x65 | 0x66 => &[0x01, 0x02],
        0x68 => &[0x06],
        0x67 => &[0x04, 0x08, 0x01],
        0x6C => &[0x03, 0x02, 0x0C, 0x04, 0x50, 0x08, 0x1A, 0x0D, 0x01, 0x05],
        0x69 => &[0x0F, 0x0D, 0x01, 0x05],
        _ => return None,
    })
}

/// What AX holds when call `ah` fails with `code`.
pub fn returned(ah: u8, code: u16) -> u16 {
    match allowed(ah) {
        Some(list) if !list.contains(&code) => *list.last().unwrap_or(&code),
        _ => code,
    }
}

/// The locus a call's own errors have when the table leaves it to the call:
/// calls on files, handles, directories and drives are about a block
/// device; the rest about nothing known.
pub fn call_locus(ah: u8) -> u8 {
    match ah {
        0x0F..=0x17
        | 0x1B
        | 0x1C
        | 0x1F
        | 0x21..=0x24
        | 0x27
        | 0x28
        | 0x32
        | 0x36
        | 0x39..=0x47
        | 0x4B
        | 0x4E
        | 0x4F
        | 0x56
        | 0x57
        | 0x5A..=0x5C
        | 0x60
        | 0x68
        | 0x69
        | 0x6C => locus::BLOCK_DEVICE,
        0x48..=0x4A | 0x58 => locus::MEMORY,
        _ => locus::UNKNOWN,
    }
}

impl From<DosError> for ExtError {
    fn from(e: DosError) -> Self {
        describe(e.0, locus::UNKNOWN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_dos_table() {
        // File not found: not found, ask the user, block device.
        assert_eq!(
            describe(2, 1),
            ExtError {
                code: 2,
                class: 8,
                action: 3,
                locus: 2
            }
        );
        // Not enough memory: out of resource, abort, memory.
        assert_eq!(
            describe(8, 1),
            ExtError {
                code: 8,
                class: 1,
                action: 4,
                locus: 5
            }
        );
        // Access denied takes the call's locus.
        assert_eq!(describe(5, 2).locus, 2);
        assert_eq!(describe(5, 1).locus, 1);
    }

    #[test]
    fn calls_return_their_own_codes() {
        // CHDIR only says 2 or 3; access denied becomes path not found.
        assert_eq!(returned(0x3B, 5), 3);
        assert_eq!(returned(0x3B, 2), 2);
        // Find next only says "no more files".
        assert_eq!(returned(0x4F, 3), 0x12);
        assert_eq!(returned(0x30, 7), 7);
    }
}
