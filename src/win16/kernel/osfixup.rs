//! The OS fixups of an NE segment: the floating-point instructions a
//! compiler wrote in the FPU emulator's interrupt form, which KERNEL's
//! loader turns back into x87 instructions on a machine with a
//! coprocessor.
//!
//! Microsoft C (and other compilers' emulator libraries) compile an x87
//! instruction for Windows into a software interrupt: `WAIT; ESC n` (9B,
//! D8+n) becomes `INT 34h+n` (CD, 34h+n) for n = 0..7; a segment-override
//! form `WAIT; seg:; ESC n` becomes `INT 3Ch` followed by a byte whose top
//! two bits name the segment (11 ES, 00 DS, 10 CS, 01 SS) and whose low
//! three bits are n; a lone `NOP; WAIT` (90 9B) becomes `INT 3Dh`. The
//! linker marks each site with an NE relocation record of type 3, an *OS
//! fixup*, whose kind names the pattern (1 FIARQQ/FJARQQ, the DS form; 2
//! FISRQQ/FJSRQQ, SS; 3 FICRQQ/FJCRQQ, CS; 4 FIERQQ, ES; 5 FIDRQQ, the
//! plain form; 6 FIWRQQ, the WAIT) — the names are the linker symbols
//! whose values, subtracted from the two bytes, give the interrupt form
//! (Microsoft's object format, the NE format's OSFIXUP records; Open
//! Watcom's linker and Wine's NE loader keep the same table).
//!
//! Windows with a coprocessor turns them back into the real instructions
//! when KERNEL loads the segment (the OS fixups are KERNEL's loader's to
//! apply, as it applies a segment's other relocation records), and so does
//! this loader ([`apply_os_fixups`], called by kernel/loader.rs): the
//! machine is a 386 with an 80387 (GetWinFlags says WF_80x87) and unicorn
//! executes the x87 instructions. A site whose
//! bytes are not an interrupt form is left alone (a second record of the
//! same instruction, or code already in x87 form).
//!
//! WIN87EM's own interrupt handlers (win87em.rs, for code nobody fixed up)
//! use the same forms ([`x87_form`]).

use crate::loader::ne::{NeReloc, RelocTarget};

/// The x87 form of the interrupt form at the start of `code` (module
/// notes): the bytes that replace it, as many as it has; None when `code`
/// does not start with one.
pub fn x87_form(code: &[u8]) -> Option<Vec<u8>> {
    match code {
        [0xCD, n @ 0x34..=0x3B, ..] => Some(vec![0x9B, 0xD8 + (n - 0x34)]),
        [0xCD, 0x3C, b, ..] => {
            let prefix = match b >> 6 {
                0b11 => 0x26, // ES:
                0b00 => 0x3E, // DS:
                0b10 => 0x2E, // CS:
                _ => 0x36,    // SS:
            };
            Some(vec![0x9B, prefix, 0xD8 | (b & 7)])
        }
        [0xCD, 0x3D, ..] => Some(vec![0x90, 0x9B]),
        _ => None,
    }
}

/// Apply a segment's OS fixups (module notes) to its bytes: each site in
/// interrupt form becomes the x87 instruction. Returns how many changed.
pub fn apply_os_fixups(data: &mut [u8], relocs: &[NeReloc]) -> usize {
    let mut n = 0;
    for r in relocs {
        let RelocTarget::OsFixup { kind } = r.target else {
            continue;
        };
        if !(1..=6).contains(&kind) {
            continue;
        }
        let at = usize::from(r.offset);
        let Some(code) = data.get(at..) else {
            continue;
        };
        if let Some(x87) = x87_form(code) {
            data[at..at + x87.len()].copy_from_slice(&x87);
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interrupt_forms_become_x87_instructions() {
        // INT 39h 07 = fld qword [bx]: 9B DD 07.
        assert_eq!(x87_form(&[0xCD, 0x39, 0x07]), Some(vec![0x9B, 0xDD]));
        assert_eq!(x87_form(&[0xCD, 0x34, 0xC1]), Some(vec![0x9B, 0xD8]));
        // INT 3Ch with ES (11): 9B 26 DC; DS (00), CS (10), SS (01).
        assert_eq!(
            x87_form(&[0xCD, 0x3C, 0xDC, 0x07]),
            Some(vec![0x9B, 0x26, 0xDC])
        );
        assert_eq!(x87_form(&[0xCD, 0x3C, 0x1D]), Some(vec![0x9B, 0x3E, 0xDD]));
        assert_eq!(x87_form(&[0xCD, 0x3C, 0x99]), Some(vec![0x9B, 0x2E, 0xD9]));
        assert_eq!(x87_form(&[0xCD, 0x3C, 0x5B]), Some(vec![0x9B, 0x36, 0xDB]));
        assert_eq!(x87_form(&[0xCD, 0x3D]), Some(vec![0x90, 0x9B]));
        assert_eq!(x87_form(&[0x9B, 0xDD, 0x07]), None);
        assert_eq!(x87_form(&[0xCD, 0x21]), None);
        assert_eq!(x87_form(&[0xCD]), None);
    }

    #[test]
    fn os_fixups_patch_only_interrupt_forms() {
        let mut data = vec![0xCD, 0x39, 0x07, 0xCD, 0x3D, 0xCD, 0x3C, 0xDC, 0x07, 0x90];
        let rec = |offset: u16, kind: u16| NeReloc {
            src_type: 5,
            flags: 3,
            offset,
            target: RelocTarget::OsFixup { kind },
        };
        let relocs = vec![
            rec(0, 5),
            rec(3, 6),
            rec(6, 4),
            rec(5, 4),
            rec(9, 5),
            rec(200, 5),
        ];
        assert_eq!(apply_os_fixups(&mut data, &relocs), 3);
        assert_eq!(
            data,
            vec![0x9B, 0xDD, 0x07, 0x90, 0x9B, 0x9B, 0x26, 0xDC, 0x07, 0x90]
        );
    }
}
