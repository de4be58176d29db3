//! The size of drive C: and its free space as DOS reports them: a FAT
//! layout for the number of sectors the quota stands for.

use super::{DEFAULT_QUOTA, Drive};

/// Free space numbers for INT 21h AH=36h: (sectors per cluster, free
/// clusters, bytes per sector, total clusters) of a drive of
/// `total_sectors` laid out by [`geometry`], with `room` bytes free (no
/// more than its clusters hold).
pub fn disk_free(total_sectors: u32, room: u64) -> (u16, u16, u16, u16) {
    let g = geometry(total_sectors);
    let cluster = u64::from(g.sectors_per_cluster) * u64::from(g.bytes_per_sector);
    let free = (room / cluster).min(u64::from(g.clusters)) as u16;
    (g.sectors_per_cluster, free, g.bytes_per_sector, g.clusters)
}

/// The numbers of drive C: — its size in sectors and AH=36h's free space —
/// for `drive` (None, no drive: the default quota's, all of it free).
pub fn drive_numbers(drive: Option<&Drive>) -> (u32, (u16, u16, u16, u16)) {
    match drive {
        Some(d) => (d.sectors(), d.disk_free()),
        None => {
            let sectors = drive_sectors(DEFAULT_QUOTA);
            (sectors, disk_free(sectors, DEFAULT_QUOTA))
        }
    }
}

/// The smallest drive C: stands for, in 512-byte sectors: a 40 MiB
/// partition, the fixed disk of a typical PC of MS-DOS 5's time.
pub const DRIVE_SECTORS: u32 = 40 * 2048;

/// The largest: MS-DOS 5's 2 GiB FAT16 limit ([`geometry`]).
pub const MAX_DRIVE_SECTORS: u32 = 0x40_0000 - 1;

/// The size of drive C: for a write quota of `quota` bytes, in sectors:
/// twice the quota (the files already on a disk fill about half of it),
/// at least [`DRIVE_SECTORS`] and at most [`MAX_DRIVE_SECTORS`]. AH=36h
/// then reports what is left of the quota as the free space, so a program
/// that checks the free space before writing sees the room its writes
/// have (issue 30: the default 256 MiB quota was reported as the 20 MiB
/// free of a fixed 40 MiB disk).
pub fn drive_sectors(quota: u64) -> u32 {
    quota
        .saturating_mul(2)
        .div_ceil(512)
        .clamp(u64::from(DRIVE_SECTORS), u64::from(MAX_DRIVE_SECTORS)) as u32
}

/// How FORMAT lays out a FAT file system on a fixed disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub total_sectors: u32,
    pub bytes_per_sector: u16,
    pub sectors_per_cluster: u16,
    pub reserved_sectors: u16,
    pub fats: u8,
    pub root_entries: u16,
    /// Sectors of one FAT.
    pub fat_sectors: u16,
    /// Data clusters (the DPB's maximum cluster number is this + 1).
    pub clusters: u16,
    /// 16-bit FAT entries (FAT16) rather than 12-bit (FAT12).
    pub fat16: bool,
}

/// The file system FORMAT puts on a fixed-disk partition of `total_sectors`
/// 512-byte sectors. Sectors per cluster follow FORMAT's table for a new
/// hard disk (MS-DOS 4.0 FORMAT.ASM, `DiskTable`): under 32680 sectors a
/// 12-bit FAT with 8; then a 16-bit FAT with 4 below 128 MiB, 8 below
/// 256 MiB, 16 below 512 MiB, 32 below 1 GiB, and 64 up to MS-DOS 5's 2 GiB
/// limit (larger sizes are taken as 2 GiB). One reserved sector (the boot
/// sector), two FATs, 512 root entries; each FAT is the fewest sectors that
/// hold an entry for every cluster plus the two reserved entries.
pub fn geometry(total_sectors: u32) -> Geometry {
    let total = total_sectors.clamp(1, 0x40_0000 - 1);
    let (spc, fat16) = match total {
        0..32680 => (8u32, false),
        32680..0x4_0000 => (4, true),
        0x4_0000..0x8_0000 => (8, true),
        0x8_0000..0x10_0000 => (16, true),
        0x10_0000..0x20_0000 => (32, true),
        _ => (64, true),
    };
    let (bps, reserved, fats, root) = (512u32, 1u32, 2u32, 512u32);
    let root_sectors = root * 32 / bps;
    let bits = if fat16 { 16 } else { 12 };
    let mut fat = 1u32;
    let clusters = loop {
        let data = total.saturating_sub(reserved + root_sectors + fats * fat);
        let clusters = data / spc;
        if fat * bps * 8 / bits >= clusters + 2 {
            break clusters;
        }
        fat += 1;
    };
    Geometry {
        total_sectors: total,
        bytes_per_sector: bps as u16,
        sectors_per_cluster: spc as u16,
        reserved_sectors: reserved as u16,
        fats: fats as u8,
        root_entries: root as u16,
        fat_sectors: fat as u16,
        clusters: clusters.min(0xFFF4) as u16,
        fat16,
    }
}
