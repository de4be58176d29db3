//! DOS's own data in segment 0070h, as programs find it through the list of
//! lists (INT 21h AH=52h) and the pointers other calls return: the list of
//! lists itself (MS-DOS 5 layout, Ralf Brown's interrupt list at AH=52h),
//! the NUL device header, the drive parameter block of C: (AH=1Fh/32h), the
//! current directory structures of drives A: to E: (LASTDRIVE=E), the
//! swappable data area with the InDOS flag (AH=34h, AX=5D06h) and the
//! country tables (AH=38h, 65h).

use super::fs;
use crate::machine::{Cpu, Uc};

/// The segment of DOS's data.
pub const SEG: u16 = super::process::DOS_DATA;
/// The swappable data area: critical-error flag, then the InDOS flag.
pub const SDA: u16 = 0x0001;
/// The InDOS flag (AH=34h).
pub const INDOS: u16 = SDA + 1;
/// Size of the swappable data area (AX=5D06h CX, DX).
pub const SDA_SIZE: u16 = 0x0020;
/// The NUL device header, inside the list of lists.
pub const NUL_DEVICE: u16 = LOL + 0x22;
/// The CON and CLOCK$ device headers.
pub const CON_DEVICE: u16 = 0x0040;
pub const CLOCK_DEVICE: u16 = 0x0052;
/// The cell INT 21h AH=1Bh/1Ch copy C:'s media byte into and point at
/// (FATBYTE in MS-DOS 4.0's MISC.ASM).
pub const MEDIA: u16 = 0x0070;
/// C:'s media byte: F8h, fixed disk.
pub const MEDIA_BYTE: u8 = 0xF8;
/// The list of lists (AH=52h ES:BX); the first MCB's segment is the word
/// before it.
pub const LOL: u16 = 0x0100;
/// The drive parameter block of C:.
pub const DPB_C: u16 = 0x0200;
/// The system file table header.
pub const SFT: u16 = 0x0300;
/// The current directory structures, A: to E:.
pub const CDS: u16 = 0x0400;
/// Size of one CDS entry (DOS 4+).
pub const CDS_LEN: u16 = 0x58;
/// LASTDRIVE: E:.
pub const LAST_DRIVE: u8 = 5;
/// The country tables (AH=65h): uppercase, file name uppercase, file name
/// terminators, collating sequence, DBCS lead bytes.
pub const UPPERCASE_TABLE: u16 = 0x0600;
pub const FILENAME_UPPERCASE_TABLE: u16 = 0x0600;
pub const TERMINATOR_TABLE: u16 = 0x0700;
pub const COLLATE_TABLE: u16 = 0x0800;
pub const DBCS_TABLE: u16 = 0x0A04;

/// Code page 437's upper case of 80h-FFh, as MS-DOS's US table has it
/// (accented small letters to their capitals, or to the plain capital
/// where 437 has no accented one).
pub const UPPER_437: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 0x80 + i as u8;
        i += 1;
    }
    let pairs: [(u8, u8); 27] = [
        (0x81, 0x9A),
        (0x82, 0x90),
        (0x83, 0x41),
        (0x84, 0x8E),
        (0x85, 0x41),
        (0x86, 0x8F),
        (0x87, 0x80),
        (0x88, 0x45),
        (0x89, 0x45),
        (0x8A, 0x45),
        (0x8B, 0x49),
        (0x8C, 0x49),
        (0x8D, 0x49),
        (0x91, 0x92),
        (0x93, 0x4F),
        (0x94, 0x99),
        (0x95, 0x4F),
        (0x96, 0x55),
        (0x97, 0x55),
        (0x98, 0x59),
        (0xA0, 0x41),
        (0xA1, 0x49),
        (0xA2, 0x4F),
        (0xA3, 0x55),
        (0xA4, 0xA5),
        (0x80, 0x80),
        (0x8E, 0x8E),
    ];
    let mut k = 0;
    while k < pairs.len() {
        t[(pairs[k].0 - 0x80) as usize] = pairs[k].1;
        k += 1;
    }
    t
};

/// Upper case of one character in code page 437.
pub fn upper(c: u8) -> u8 {
    if c >= 0x80 {
        UPPER_437[usize::from(c - 0x80)]
    } else {
        c.to_ascii_uppercase()
    }
}

/// Characters that end a file name (AH=65h AL=05h's table).
pub const TERMINATORS: &[u8] = b".\"/\\[]:|<>+=;,";

/// The drive parameter block of C: (DOS 4+ layout, 21h bytes): the
/// [`fs::geometry`] FORMAT gives a drive of `total_sectors`, with
/// AH=36h's numbers `free` ([`fs::drive_numbers`]).
pub fn dpb_c(total_sectors: u32, free: (u16, u16, u16, u16)) -> [u8; 0x21] {
    let g = fs::geometry(total_sectors);
    let (spc, free, bps, total) = free;
    let mut d = [0u8; 0x21];
    d[0] = 2; // drive C:
    d[1] = 0; // unit
    d[2..4].copy_from_slice(&bps.to_le_bytes());
    d[4] = (spc - 1) as u8;
    d[5] = spc.trailing_zeros() as u8;
    d[6..8].copy_from_slice(&g.reserved_sectors.to_le_bytes());
    d[8] = g.fats;
    d[9..0x0B].copy_from_slice(&g.root_entries.to_le_bytes());
    let fat_sectors = g.fat_sectors;
    let root_sectors = g.root_entries * 32 / bps;
    let first_root = g.reserved_sectors + u16::from(g.fats) * fat_sectors;
    let first_data = first_root + root_sectors;
    d[0x0B..0x0D].copy_from_slice(&first_data.to_le_bytes());
    d[0x0D..0x0F].copy_from_slice(&total.wrapping_add(1).to_le_bytes());
    d[0x0F..0x11].copy_from_slice(&fat_sectors.to_le_bytes());
    d[0x11..0x13].copy_from_slice(&first_root.to_le_bytes());
    // Device driver header: the block device lives in IO.SYS; point at NUL.
    d[0x13..0x15].copy_from_slice(&NUL_DEVICE.to_le_bytes());
    d[0x15..0x17].copy_from_slice(&SEG.to_le_bytes());
    d[0x17] = MEDIA_BYTE; // media: fixed disk
    d[0x18] = 0; // accessed
    d[0x19..0x1D].copy_from_slice(&[0xFF; 4]); // last DPB
    d[0x1D..0x1F].copy_from_slice(&2u16.to_le_bytes());
    d[0x1F..0x21].copy_from_slice(&free.to_le_bytes());
    d
}

/// The CDS path of C: for a current directory (`""` at the root).
pub fn cds_path(cwd: &str) -> Vec<u8> {
    let mut p = b"C:\\".to_vec();
    p.extend_from_slice(cwd.as_bytes());
    p.truncate(66);
    p.push(0);
    p
}

fn put(uc: &mut Uc<'_>, off: u16, data: &[u8]) {
    let _ = uc.write_seg(SEG, off, data);
}

/// Write DOS's tables. `first_mcb` goes in the word before the list of
/// lists.
pub fn init(uc: &mut Uc<'_>, first_mcb: u16) {
    let far = |off: u16| -> [u8; 4] {
        let mut b = [0u8; 4];
        b[..2].copy_from_slice(&off.to_le_bytes());
        b[2..].copy_from_slice(&SEG.to_le_bytes());
        b
    };
    put(uc, SDA, &[0; SDA_SIZE as usize]);
    // Device headers: CON and CLOCK$ (character devices), then NUL heads
    // the chain in the list of lists.
    let dev = |next: u16, attr: u16, name: &[u8; 8]| -> [u8; 18] {
        let mut h = [0u8; 18];
        if next == 0xFFFF {
            h[..4].fill(0xFF);
        } else {
            h[..2].copy_from_slice(&next.to_le_bytes());
            h[2..4].copy_from_slice(&SEG.to_le_bytes());
        }
        h[4..6].copy_from_slice(&attr.to_le_bytes());
        h[10..18].copy_from_slice(name);
        h
    };
    put(uc, CON_DEVICE, &dev(CLOCK_DEVICE, 0x8013, b"CON     "));
    put(uc, CLOCK_DEVICE, &dev(0xFFFF, 0x8008, b"CLOCK$  "));
    put(uc, MEDIA, &[MEDIA_BYTE]);
    let mut lol = [0u8; 0x60];
    lol[0x00..0x04].copy_from_slice(&far(DPB_C));
    lol[0x04..0x08].copy_from_slice(&far(SFT));
    lol[0x08..0x0C].copy_from_slice(&far(CLOCK_DEVICE));
    lol[0x0C..0x10].copy_from_slice(&far(CON_DEVICE));
    lol[0x10..0x12].copy_from_slice(&512u16.to_le_bytes());
    lol[0x12..0x16].fill(0xFF);
    lol[0x16..0x1A].copy_from_slice(&far(CDS));
    lol[0x1A..0x1E].fill(0xFF);
    lol[0x20] = 3; // block devices: A:, B:, C:
    lol[0x21] = LAST_DRIVE;
    lol[0x22..0x34].copy_from_slice(&dev(CON_DEVICE, 0x8004, b"NUL     "));
    lol[0x43] = 3; // boot drive C:
    lol[0x44] = 1; // 80386 or later: no
    put(uc, LOL - 2, &first_mcb.to_le_bytes());
    put(uc, LOL, &lol);
    let (sectors, free) = fs::drive_numbers(None);
    put(uc, DPB_C, &dpb_c(sectors, free));
    // The SFT header: no next table, FILES=20.
    put(uc, SFT, &[0xFF, 0xFF, 0xFF, 0xFF, 20, 0]);
    for d in 0..LAST_DRIVE {
        let mut e = [0u8; CDS_LEN as usize];
        e[0] = b'A' + d;
        e[1] = b':';
        e[2] = b'\\';
        if d == 2 {
            e[0x43..0x45].copy_from_slice(&0x4000u16.to_le_bytes()); // physical
            e[0x45..0x49].copy_from_slice(&far(DPB_C));
        }
        e[0x49..0x4B].fill(0xFF);
        e[0x4B..0x4F].fill(0xFF);
        e[0x4F..0x51].copy_from_slice(&2u16.to_le_bytes());
        put(uc, CDS + u16::from(d) * CDS_LEN, &e);
    }
    // Country tables: each is a word count then the bytes.
    let mut up = Vec::with_capacity(130);
    up.extend_from_slice(&128u16.to_le_bytes());
    up.extend_from_slice(&UPPER_437);
    put(uc, UPPERCASE_TABLE, &up);
    let mut term = Vec::new();
    // DOS 5's table: size, then 1, lowest and highest valid character, 0,
    // lowest and highest excluded (none), 2, the terminators.
    let body: Vec<u8> = [1u8, 0x00, 0xFF, 0, 0x00, 0x20, 2, TERMINATORS.len() as u8]
        .into_iter()
        .chain(TERMINATORS.iter().copied())
        .collect();
    term.extend_from_slice(&(body.len() as u16).to_le_bytes());
    term.extend_from_slice(&body);
    put(uc, TERMINATOR_TABLE, &term);
    let mut col = Vec::with_capacity(258);
    col.extend_from_slice(&256u16.to_le_bytes());
    col.extend((0..=255u8).map(upper));
    put(uc, COLLATE_TABLE, &col);
    put(uc, DBCS_TABLE, &[0, 0, 0, 0]);
}

/// Write the CDS path of C: after a change of directory.
pub fn set_cwd(uc: &mut Uc<'_>, cwd: &str) {
    let p = cds_path(cwd);
    put(uc, CDS + 2 * CDS_LEN, &p);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page_437_upper_case() {
        assert_eq!(upper(b'a'), b'A');
        assert_eq!(upper(0x81), 0x9A); // ü -> Ü
        assert_eq!(upper(0x82), 0x90); // é -> É
        assert_eq!(upper(0x85), b'A'); // à -> A
        assert_eq!(upper(0xB0), 0xB0);
    }

    #[test]
    fn the_dpb_agrees_with_free_space() {
        let sectors = fs::drive_sectors(fs::DEFAULT_QUOTA);
        let numbers = fs::disk_free(sectors, 1 << 20);
        let d = dpb_c(sectors, numbers);
        let (spc, free, bps, total) = numbers;
        assert_eq!(u16::from_le_bytes([d[2], d[3]]), bps);
        assert_eq!(u16::from(d[4]) + 1, spc);
        assert_eq!(1u16 << d[5], spc);
        assert_eq!(
            u16::from_le_bytes([d[0x0D], d[0x0E]]),
            total.wrapping_add(1)
        );
        assert_eq!(u16::from_le_bytes([d[0x1F], d[0x20]]), free);
        // The data area ends inside the partition: first data sector plus
        // the clusters fit in the drive's sectors.
        let first_data = u32::from(u16::from_le_bytes([d[0x0B], d[0x0C]]));
        assert!(first_data + u32::from(total) * u32::from(spc) <= sectors);
    }

    /// FORMAT's layouts (MS-DOS 4.0 FORMAT.ASM's DiskTable): a power-of-two
    /// cluster size growing with the partition, FAT16 cluster counts within
    /// 4085..=65524, and a FAT that has an entry for every cluster.
    #[test]
    fn format_lays_out_fixed_disks_by_size() {
        let g = fs::geometry(fs::DRIVE_SECTORS);
        assert_eq!(
            (g.sectors_per_cluster, g.fat_sectors, g.clusters),
            (4, 80, 20431)
        );
        assert!(g.fat16);
        let mb = |m: u32| m * 2048;
        for (sectors, spc, fat16) in [
            (mb(10), 8, false),
            (mb(20), 4, true),
            (mb(40), 4, true),
            (mb(127), 4, true),
            (mb(128), 8, true),
            (mb(300), 16, true),
            (mb(600), 32, true),
            (mb(1500), 64, true),
            (u32::MAX, 64, true),
        ] {
            let g = fs::geometry(sectors);
            assert_eq!((g.sectors_per_cluster, g.fat16), (spc, fat16), "{sectors}");
            let limit = if fat16 { 4085..=65524 } else { 1..=4084 };
            assert!(limit.contains(&g.clusters), "{sectors}: {}", g.clusters);
            let entries = u32::from(g.fat_sectors) * 512 * 8 / if fat16 { 16 } else { 12 };
            assert!(entries >= u32::from(g.clusters) + 2, "{sectors}");
            let used =
                1 + 2 * u32::from(g.fat_sectors) + 32 + u32::from(g.clusters) * u32::from(spc);
            assert!(used <= g.total_sectors, "{sectors}");
        }
    }
}
