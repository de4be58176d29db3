//! The prologues of exported functions, patched as Windows 3.1's loader
//! patched them when it loaded a code segment.
//!
//! A compiler for Windows begins every far function that may be exported
//! with a prologue that gets its data segment from AX:
//!
//! ```text
//!   mov ax,ds / nop      (8C D8 90: Microsoft C, Borland C)
//!   push ds / pop ax / nop  (1E 58 90: Open Watcom)
//!   inc bp / push bp / mov bp,sp / push ds / mov ds,ax
//! ```
//!
//! Unpatched, the first three bytes make AX the caller's DS, which is
//! right for a function the program calls itself. For an *exported*
//! function Windows rewrites them when it loads the segment (Petzold,
//! Programming Windows 3.1, chapter 7, "The Difference for Dynamic
//! Libraries"; Windows 3.1 SDK Guide to Programming, 21.1.3):
//! - in a program (a module that may have several instances) they become
//!   `nop / nop / nop`, so DS comes from AX as its caller set it: the
//!   instance thunk MakeProcInstance built (`mov ax,DGROUP`), or USER,
//!   which calls a window procedure with AX the window's instance;
//! - in a library they become `mov ax,DGROUP` (B8 and the selector of
//!   the library's automatic data segment), since a library has one
//!   instance and its functions run with its own data wherever they are
//!   called from.
//!
//! Only entries the entry table marks exported (flag 01h) are patched, and
//! only where one of the two three-byte sequences stands; any other
//! prologue (`mov ax,ss`, Borland's smart callbacks, assembly code) is
//! left as it is, as Windows left it. A library without an automatic data
//! segment has no DGROUP to load and is not patched.

use crate::loader::ne::NeEntry;

/// The two prologues that load AX from DS (module notes).
const FROM_DS: [[u8; 3]; 2] = [[0x8C, 0xD8, 0x90], [0x1E, 0x58, 0x90]];

/// What an exported function's prologue becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patch {
    /// A program's: `nop / nop / nop`.
    Program,
    /// A library's: `mov ax,DGROUP` with the DGROUP's selector.
    Library(u16),
}

impl Patch {
    fn bytes(self) -> [u8; 3] {
        match self {
            Patch::Program => [0x90; 3],
            Patch::Library(sel) => {
                let [lo, hi] = sel.to_le_bytes();
                [0xB8, lo, hi]
            }
        }
    }
}

/// Patch the prologues of the exported entries of segment `segment`
/// (1-based) whose bytes are `code`; returns how many were patched.
pub fn patch_segment(code: &mut [u8], segment: u16, entries: &[NeEntry], patch: Patch) -> usize {
    let mut n = 0;
    for e in entries {
        if u16::from(e.segment) != segment || e.segment == 0xFE || e.flags & 0x01 == 0 {
            continue;
        }
        let at = usize::from(e.offset);
        let Some(bytes) = code.get_mut(at..at + 3) else {
            continue;
        };
        if FROM_DS.iter().any(|p| bytes == p) {
            bytes.copy_from_slice(&patch.bytes());
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(ordinal: u16, segment: u8, offset: u16, flags: u8) -> NeEntry {
        NeEntry {
            ordinal,
            segment,
            offset,
            flags,
            movable: false,
        }
    }

    #[test]
    fn a_programs_exported_prologues_become_nops() {
        // mov ax,ds; nop at 0, push ds; pop ax; nop at 8, an unexported
        // one at 16, mov ax,ss at 24.
        let mut code = vec![0u8; 32];
        code[0..3].copy_from_slice(&[0x8C, 0xD8, 0x90]);
        code[8..11].copy_from_slice(&[0x1E, 0x58, 0x90]);
        code[16..19].copy_from_slice(&[0x8C, 0xD8, 0x90]);
        code[24..27].copy_from_slice(&[0x8C, 0xD0, 0x90]);
        let entries = [
            entry(1, 1, 0, 1),
            entry(2, 1, 8, 3),
            entry(3, 1, 16, 0),
            entry(4, 1, 24, 1),
            entry(5, 2, 0, 1),
            entry(6, 1, 31, 1),
        ];
        assert_eq!(patch_segment(&mut code, 1, &entries, Patch::Program), 2);
        assert_eq!(code[0..3], [0x90; 3]);
        assert_eq!(code[8..11], [0x90; 3]);
        assert_eq!(code[16..19], [0x8C, 0xD8, 0x90], "not exported");
        assert_eq!(code[24..27], [0x8C, 0xD0, 0x90], "mov ax,ss stays");
    }

    #[test]
    fn a_librarys_exported_prologues_load_its_dgroup() {
        let mut code = vec![0x1E, 0x58, 0x90, 0x45, 0x55];
        let entries = [entry(1, 3, 0, 1)];
        assert_eq!(
            patch_segment(&mut code, 3, &entries, Patch::Library(0x1237)),
            1
        );
        assert_eq!(code[0..3], [0xB8, 0x37, 0x12]);
    }
}
