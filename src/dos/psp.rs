//! The program segment prefix (PSP): the 256 bytes DOS puts in front of
//! every program, and the job file table it holds.
//!
//! Layout (MS-DOS 5; Ralf Brown's interrupt list, INT 21h AH=26h):
//! 00 `INT 20h`; 02 the first segment past the program's memory; 05 a far
//! call to DOS's CP/M-style entry (`CALL F01D:FEF0`, which reaches 0:00C0
//! through the A20 wrap), whose offset word at 06 doubles as the bytes
//! available in the segment; 0A, 0E, 12 the INT 22h (terminate), 23h
//! (Ctrl-Break) and 24h (critical error) vectors DOS restores when the
//! program ends; 16 the parent's PSP; 18 the default job file table (20
//! handles); 2C the environment segment; 2E the SS:SP the program had when
//! it last called DOS to start a child; 32 the number of handles and 34
//! the far pointer to the job file table; 38 the previous PSP (FFFFFFFFh);
//! 40 the DOS version AH=30h reports to it; 50 `INT 21h; RETF`; 5C and 6C
//! the two default FCBs; 80 the command tail (count byte, text, CR), also
//! the default DTA.

use super::fs::Drive;
use crate::machine::{Cpu, Uc};

pub const INT20: usize = 0x00;
pub const TOP: usize = 0x02;
pub const CPM_CALL: usize = 0x05;
pub const TERMINATE: usize = 0x0A;
pub const BREAK: usize = 0x0E;
pub const CRITICAL: usize = 0x12;
pub const PARENT: usize = 0x16;
pub const DEFAULT_JFT: usize = 0x18;
pub const ENVIRONMENT: usize = 0x2C;
pub const SAVED_STACK: usize = 0x2E;
pub const JFT_SIZE: usize = 0x32;
pub const JFT_POINTER: usize = 0x34;
pub const PREVIOUS: usize = 0x38;
pub const VERSION: usize = 0x40;
pub const DISPATCHER: usize = 0x50;
pub const FCB1: usize = 0x5C;
pub const FCB2: usize = 0x6C;
pub const TAIL: usize = 0x80;

/// Handles in a PSP's own job file table.
pub const DEFAULT_HANDLES: usize = 20;

/// Where the CP/M-style far call of PSP:05 goes: F01D:FEF0, linear
/// 10_00C0h, which with A20 off is 0000:00C0, where DOS keeps a far jump
/// to its CP/M entry (INT 30h's vector slot).
pub const CPM_TARGET: (u16, u16) = (0xF01D, 0xFEF0);

/// The DOS version every PSP reports (AH=30h): 5.00.
pub const DOS_VERSION: u16 = 0x0005;

fn w(p: &mut [u8], at: usize, v: u16) {
    p[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

/// A fresh PSP for a program owning memory up to `top`, child of `parent`,
/// with environment `env`, the interrupt vectors 22h-24h it will restore
/// (each as offset, segment), and the default job file table `jft`.
pub fn build(
    psp: u16,
    top: u16,
    parent: u16,
    env: u16,
    vectors: [(u16, u16); 3],
    jft: &[u8; DEFAULT_HANDLES],
) -> [u8; 0x100] {
    let mut p = [0u8; 0x100];
    p[INT20] = 0xCD;
    p[INT20 + 1] = 0x20;
    w(&mut p, TOP, top);
    p[CPM_CALL] = 0x9A;
    w(&mut p, CPM_CALL + 1, CPM_TARGET.1);
    w(&mut p, CPM_CALL + 3, CPM_TARGET.0);
    for (i, (off, seg)) in vectors.into_iter().enumerate() {
        w(&mut p, TERMINATE + 4 * i, off);
        w(&mut p, TERMINATE + 4 * i + 2, seg);
    }
    w(&mut p, PARENT, parent);
    p[DEFAULT_JFT..DEFAULT_JFT + DEFAULT_HANDLES].copy_from_slice(jft);
    w(&mut p, ENVIRONMENT, env);
    w(&mut p, JFT_SIZE, DEFAULT_HANDLES as u16);
    w(&mut p, JFT_POINTER, DEFAULT_JFT as u16);
    w(&mut p, JFT_POINTER + 2, psp);
    p[PREVIOUS..PREVIOUS + 4].fill(0xFF);
    w(&mut p, VERSION, DOS_VERSION);
    p[DISPATCHER..DISPATCHER + 3].copy_from_slice(&[0xCD, 0x21, 0xCB]);
    p[FCB1 + 1..FCB1 + 12].fill(b' ');
    p[FCB2 + 1..FCB2 + 12].fill(b' ');
    p[TAIL + 1] = 0x0D;
    p
}

/// The command tail at PSP:80h: length byte, at most 126 characters, CR.
pub fn tail_bytes(tail: &[u8]) -> [u8; 0x80] {
    let mut t = [0u8; 0x80];
    let n = tail.len().min(126);
    t[0] = n as u8;
    t[1..1 + n].copy_from_slice(&tail[..n]);
    t[1 + n] = 0x0D;
    t
}

/// A word of a PSP.
pub fn word(uc: &Uc<'_>, psp: u16, at: usize) -> u16 {
    uc.read_u16_at(psp, at as u16).unwrap_or(0)
}

/// Set a word of a PSP.
pub fn set_word(uc: &mut Uc<'_>, psp: u16, at: usize, v: u16) {
    let _ = uc.write_u16_at(psp, at as u16, v);
}

/// A far pointer of a PSP, as (segment, offset).
pub fn far(uc: &Uc<'_>, psp: u16, at: usize) -> (u16, u16) {
    (word(uc, psp, at + 2), word(uc, psp, at))
}

/// Where the job file table of `psp` is and how long: the far pointer and
/// count at PSP:34h/32h, at most 255 entries.
fn jft_place(uc: &Uc<'_>, psp: u16) -> (u16, u16, usize) {
    let n = usize::from(word(uc, psp, JFT_SIZE)).min(255);
    let (seg, off) = far(uc, psp, JFT_POINTER);
    (seg, off, n)
}

/// The job file table of `psp`, as bytes.
pub fn jft(uc: &Uc<'_>, psp: u16) -> Vec<u8> {
    let (seg, off, n) = jft_place(uc, psp);
    let mut t = vec![0xFF; n];
    if uc.read_seg(seg, off, &mut t).is_err() {
        t.fill(0xFF);
    }
    t
}

/// Load the job file table of `psp` into the drive (before a handle call).
pub fn load_jft(uc: &Uc<'_>, psp: u16, drive: &mut Drive) {
    drive.load_jft(&jft(uc, psp));
}

/// Store the drive's job file table back into `psp` (after a handle call),
/// when it changed.
pub fn store_jft(uc: &mut Uc<'_>, psp: u16, drive: &Drive) {
    let (seg, off, n) = jft_place(uc, psp);
    let mut now = drive.jft_bytes();
    now.resize(n, 0xFF);
    if jft(uc, psp) != now {
        let _ = uc.write_seg(seg, off, &now);
    }
}

/// The environment block (DOS 3.3+): `NAME=VALUE` strings, an empty
/// string, the word 1, then the program's full path.
pub fn environment_block(vars: &[(String, String)], program: &str) -> Vec<u8> {
    let mut b = Vec::new();
    for (k, v) in vars {
        b.extend_from_slice(k.as_bytes());
        b.push(b'=');
        b.extend_from_slice(v.as_bytes());
        b.push(0);
    }
    if vars.is_empty() {
        b.push(0);
    }
    b.push(0);
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(program.as_bytes());
    b.push(0);
    b
}

/// The strings of an environment block in memory, up to and with the
/// empty string that ends them (EXEC copies these): at most 32 KiB, as
/// DOS scans; None when no end is found (error 0Ah, bad environment).
pub fn environment_strings(uc: &Uc<'_>, seg: u16) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut prev = 0xFFu8;
    for off in 0..0x7FFFu16 {
        let mut b = [0u8];
        uc.read_seg(seg, off, &mut b).ok()?;
        out.push(b[0]);
        if b[0] == 0 && (prev == 0 || off == 0) {
            if off == 0 {
                // An empty environment is a single NUL; DOS keeps two.
                out.push(0);
            }
            return Some(out);
        }
        prev = b[0];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psp_fields_sit_where_dos_puts_them() {
        let jft = [0xFF; DEFAULT_HANDLES];
        let p = build(
            0x1234,
            0x9FFF,
            0x0C02,
            0x1200,
            [(1, 2), (3, 4), (5, 6)],
            &jft,
        );
        assert_eq!(&p[0..2], &[0xCD, 0x20]);
        assert_eq!(u16::from_le_bytes([p[2], p[3]]), 0x9FFF);
        assert_eq!(&p[5..10], &[0x9A, 0xF0, 0xFE, 0x1D, 0xF0]);
        assert_eq!(&p[0x0A..0x16], &[1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0]);
        assert_eq!(u16::from_le_bytes([p[0x16], p[0x17]]), 0x0C02);
        assert_eq!(u16::from_le_bytes([p[0x2C], p[0x2D]]), 0x1200);
        assert_eq!(&p[0x32..0x38], &[20, 0, 0x18, 0, 0x34, 0x12]);
        assert_eq!(&p[0x50..0x53], &[0xCD, 0x21, 0xCB]);
        // F01D:FEF0 is 10_00C0h: the wrap takes it to 0000:00C0.
        assert_eq!((0xF01Du32 << 4) + 0xFEF0, 0x10_00C0);
    }
}
