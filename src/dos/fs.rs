//! The sandboxed DOS drive C: one host directory (the sandbox root) seen
//! through DOS semantics, for the INT 21h file services.
//!
//! win16.md ("DOS and BIOS"): all file access happens inside one directory
//! chosen by the user; a path that tries to leave it is refused with a DOS
//! error code, never followed. This module holds no emulator state: the
//! INT 21h handlers read the registers and guest memory, call a [`Drive`]
//! method and write the result (or `CF` set and the [`DosError`] code) back.
//!
//! How a DOS path reaches the host:
//! - `C:` (any case) or no drive; any other drive is error 15.
//! - `\` and `/` both separate; `.` and `..` are resolved in the DOS
//!   namespace (`..` above the root is error 3), never handed to the host.
//! - every component is normalised to an upper-case 8.3 name, truncated as
//!   DOS does (`LONGFILENAME.TEXT` is `LONGFILE.TEX`), and looked up
//!   case-insensitively in a listing of the host directory; host names that
//!   are not valid 8.3 names are invisible.
//! - a final component naming a device (CON, NUL, PRN, AUX, COM1-4, LPT1-3,
//!   CLOCK$, with or without extension or trailing colon) in an existing
//!   directory is [`HostPath::Device`]: never a host file. So
//!   `IF EXIST C:\DIR\NUL` works as on DOS.
//! - every existing entry reached is canonicalised and must lie under the
//!   canonical root; a symlink that leaves it (or dangles) is error 5.
//!
//! Not guarded against: another host process swapping entries between the
//! check and the use (no `openat` without unsafe or extra crates), and bind
//! mounts that already point outside the root. Hard links are: a file with
//! more than one link is read-only on a read-write drive (its other link
//! may lie outside), and a copy-on-write drive never writes its files.
//!
//! Copy-on-write ([`Drive::copy_on_write`]): the given directory is the
//! read-only lower layer; what the program writes, creates, deletes or
//! renames goes to a writable overlay, whiteouts hiding what it deleted.
//! FIFOs, sockets and devices are never seen, and host files are opened
//! non-blocking and checked to be regular files once open. A write quota
//! bounds what the program adds to the host disk.
//!
//! The read-only layers are a list, the first hiding the next: the given
//! directory (copy-on-write only), then, for a Win16 program, the Windows
//! directory's layer ([`windir`], [`Drive::add_windows_layer`]), which
//! lies beneath a read-write drive too. A write to a layer's file copies
//! it up to the writable layer; a delete or rename of one leaves a
//! whiteout, on every drive.

mod listing;
mod process;
mod tempdir;
pub mod windir;

use std::collections::{HashMap, HashSet, VecDeque};
use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tempdir::temporary_dir;

/// A DOS error code, as returned in AX with CF set (INT 21h AH=59h numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DosError(pub u16);

impl DosError {
    /// 01h: invalid function number (bad seek origin, bad 6Ch action).
    pub const INVALID_FUNCTION: Self = Self(0x01);
    /// 02h: file not found.
    pub const FILE_NOT_FOUND: Self = Self(0x02);
    /// 03h: path not found (also invalid names, `..` above the root).
    pub const PATH_NOT_FOUND: Self = Self(0x03);
    /// 04h: too many open files (no free handle).
    pub const TOO_MANY_OPEN_FILES: Self = Self(0x04);
    /// 05h: access denied.
    pub const ACCESS_DENIED: Self = Self(0x05);
    /// 06h: invalid handle.
    pub const INVALID_HANDLE: Self = Self(0x06);
    /// 0Ch: invalid access code (open mode).
    pub const INVALID_ACCESS: Self = Self(0x0C);
    /// 0Fh: invalid drive.
    pub const INVALID_DRIVE: Self = Self(0x0F);
    /// 10h: attempt to remove the current directory.
    pub const CURRENT_DIRECTORY: Self = Self(0x10);
    /// 11h: not same device.
    pub const NOT_SAME_DEVICE: Self = Self(0x11);
    /// 12h: no more files.
    pub const NO_MORE_FILES: Self = Self(0x12);
    /// 27h: insufficient disk space (DOS 4+): a copy the program's write
    /// needs does not fit the drive's write quota.
    pub const DISK_FULL: Self = Self(0x27);
    /// 50h: file exists.
    pub const FILE_EXISTS: Self = Self(0x50);

    /// What DOS calls this error.
    pub fn meaning(self) -> &'static str {
        match self.0 {
            0x01 => "invalid function number",
            0x02 => "file not found",
            0x03 => "path not found",
            0x04 => "too many open files",
            0x05 => "access denied",
            0x06 => "invalid handle",
            0x0C => "invalid access code",
            0x0F => "invalid drive",
            0x10 => "attempt to remove the current directory",
            0x11 => "not same device",
            0x12 => "no more files",
            0x27 => "insufficient disk space",
            0x50 => "file exists",
            _ => "unknown error",
        }
    }
}

impl fmt::Display for DosError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DOS error {:02X}h ({})", self.0, self.meaning())
    }
}

impl std::error::Error for DosError {}

/// File attribute bits (INT 21h AX=4300h/4301h, 4Eh).
pub const ATTR_READ_ONLY: u8 = 0x01;
/// Hidden.
pub const ATTR_HIDDEN: u8 = 0x02;
/// System.
pub const ATTR_SYSTEM: u8 = 0x04;
/// Volume label.
pub const ATTR_VOLUME: u8 = 0x08;
/// Directory.
pub const ATTR_DIRECTORY: u8 = 0x10;
/// Archive.
pub const ATTR_ARCHIVE: u8 = 0x20;
/// Character device (find first on a device name).
pub const ATTR_DEVICE: u8 = 0x40;

/// DOS's default number of handles per process (the PSP's JFT).
pub const DEFAULT_HANDLES: usize = 20;
/// Longest DOS path accepted (DOS's 128-byte buffers, without the NUL).
pub const MAX_PATH: usize = 127;
/// Longest current directory, with its leading backslash (DOS: 64).
pub const MAX_DIR: usize = 64;
/// Largest file a program may grow (writes past it are short, as on a full
/// disk): DOS's own limit, the 32-bit size of a directory entry. What a
/// program may add to the host disk is bounded by the quota
/// ([`DEFAULT_QUOTA`], `--disk-quota`), which AH=36h reports as the free
/// space; so a program that fills the free space with one file (a disk
/// test) can, as on a real disk (issue 30: a 64 MiB cap under a 256 MiB
/// quota stopped such a program with "disk write error").
pub const DEFAULT_MAX_FILE_SIZE: u64 = 0xFFFF_FFFF;
/// Host directory entries examined per listing; the rest are invisible.
const MAX_SCAN: usize = 1 << 16;
/// Find-first searches remembered for 4Fh (DOS keeps them in the DTA; a
/// program may abandon a search at any time, so the oldest are dropped).
const MAX_SEARCHES: usize = 64;
/// Matches kept over all remembered searches; the oldest searches are
/// dropped past it.
const MAX_KEPT_RESULTS: usize = 1 << 17;
/// Length of the DTA block 4Eh/4Fh fill.
pub const DTA_LEN: usize = 43;
/// Tag in the DTA's reserved bytes identifying a search id of ours.
const DTA_TAG: &[u8; 4] = b"th16";

/// DOS character device names.
const DEVICES: [&str; 12] = [
    "CON", "NUL", "PRN", "AUX", "COM1", "COM2", "COM3", "COM4", "LPT1", "LPT2", "LPT3", "CLOCK$",
];

/// What a DOS path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostPath {
    /// A character device (upper-case name without extension, e.g. `NUL`);
    /// the caller decides what it means. Never a host file.
    Device(String),
    /// An existing directory. `dos` is the full DOS path (`\` for the root).
    Dir { host: PathBuf, dos: String },
    /// An existing file.
    File { host: PathBuf, dos: String },
    /// Nothing by that name in an existing directory: `host` is where a
    /// create would put it (upper-case 8.3 name).
    Missing { host: PathBuf, dos: String },
}

/// One match of find first/next (INT 21h AH=4Eh/4Fh).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindResult {
    /// 8.3 name, upper-case, with a dot only if there is an extension.
    pub name: String,
    /// Attribute byte.
    pub attr: u8,
    /// DOS packed time.
    pub time: u16,
    /// DOS packed date.
    pub date: u16,
    /// Size in bytes.
    pub size: u32,
}

/// A find-first search: every match, taken when 4Eh ran, and a cursor.
#[derive(Clone, Debug)]
pub struct FindState {
    id: u32,
    pattern: [u8; 11],
    attr: u8,
    results: Vec<FindResult>,
    pos: usize,
}

impl FindState {
    /// The id stored in the DTA's reserved bytes.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The match the last find first/next returned.
    pub fn current(&self) -> Option<&FindResult> {
        self.results.get(self.pos)
    }

    /// The 43-byte DTA for the current match (see [`dta_bytes`]).
    pub fn dta(&self) -> Option<[u8; DTA_LEN]> {
        self.current()
            .map(|r| dta_bytes(self.id, &self.pattern, self.attr, r))
    }
}

/// Serialise the find first/next DTA (INT 21h AH=4Eh/4Fh): bytes 00h-14h
/// reserved (drive 3 = C:, the 11-byte search template, the search
/// attribute, then our tag and the search id), 15h attribute, 16h time,
/// 18h date, 1Ah size, 1Eh ASCIZ name (13 bytes).
pub fn dta_bytes(id: u32, pattern: &[u8; 11], attr: u8, r: &FindResult) -> [u8; DTA_LEN] {
    let mut d = [0u8; DTA_LEN];
    d[0] = 3;
    d[1..12].copy_from_slice(pattern);
    d[0x0C] = attr;
    d[0x0D..0x11].copy_from_slice(DTA_TAG);
    d[0x11..0x15].copy_from_slice(&id.to_le_bytes());
    d[0x15] = r.attr;
    d[0x16..0x18].copy_from_slice(&r.time.to_le_bytes());
    d[0x18..0x1A].copy_from_slice(&r.date.to_le_bytes());
    d[0x1A..0x1E].copy_from_slice(&r.size.to_le_bytes());
    for (i, b) in r.name.bytes().take(12).enumerate() {
        d[0x1E + i] = b;
    }
    d
}

/// The search id a DTA written by [`dta_bytes`] carries (INT 21h AH=4Fh),
/// or `None` if the bytes are not one of ours.
pub fn dta_search_id(dta: &[u8]) -> Option<u32> {
    if dta.len() < 0x15 || &dta[0x0D..0x11] != DTA_TAG {
        return None;
    }
    let mut id = [0u8; 4];
    id.copy_from_slice(&dta[0x11..0x15]);
    Some(u32::from_le_bytes(id))
}

/// IOCTL device information word (INT 21h AX=4400h) for a device.
pub fn device_info_word(name: &str) -> u16 {
    match name {
        // Device, not EOF, special (INT 29h), console input and output.
        "CON" => 0x80D3,
        // Device, not EOF, NUL device.
        "NUL" => 0x80C4,
        // Device, not EOF, clock device.
        "CLOCK$" => 0x80C8,
        _ => 0x80C0,
    }
}

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

/// Whether `b` may appear in a DOS file name (besides the dot and space).
fn is_name_byte(b: u8) -> bool {
    b > 0x20 && b < 0x7F && !b"\"*+,./:;<=>?[\\]|".contains(&b)
}

/// One half of an 8.3 name: checked, upper-cased, truncated to `max`,
/// trailing spaces dropped (they are FCB padding). Bytes above 7Eh are
/// refused: there is no code page to map them to host names.
fn name_part(p: &[u8], max: usize) -> Option<String> {
    if p.first() == Some(&b' ') || p.iter().any(|&b| b != b' ' && !is_name_byte(b)) {
        return None;
    }
    let mut s: String = p
        .iter()
        .take(max)
        .map(|&b| char::from(b.to_ascii_uppercase()))
        .collect();
    while s.ends_with(' ') {
        s.pop();
    }
    Some(s)
}

/// The canonical 8.3 name of a path component (no wildcards), or `None` if
/// DOS would refuse it.
fn dos_name(comp: &[u8]) -> Option<String> {
    let (base, ext) = match comp.iter().position(|&b| b == b'.') {
        Some(i) => (&comp[..i], &comp[i + 1..]),
        None => (comp, &[][..]),
    };
    let base = name_part(base, 8)?;
    let ext = name_part(ext, 3)?;
    if base.is_empty() {
        return None;
    }
    Some(if ext.is_empty() {
        base
    } else {
        format!("{base}.{ext}")
    })
}

/// The device a final path component names, if any (extension and a
/// trailing colon ignored, as DOS does).
fn device_name(comp: &[u8]) -> Option<&'static str> {
    let comp = comp.strip_suffix(b":").unwrap_or(comp);
    let base = match comp.iter().position(|&b| b == b'.') {
        Some(i) => &comp[..i],
        None => comp,
    };
    let mut base = base;
    while let Some(b) = base.strip_suffix(b" ") {
        base = b;
    }
    DEVICES
        .iter()
        .copied()
        .find(|d| d.as_bytes().eq_ignore_ascii_case(base))
}

/// The DOS name of a host entry, if DOS can see it: ASCII, a valid 8.3 name
/// with nothing truncated, and not a device name.
fn visible_name(host: &std::ffi::OsStr) -> Option<String> {
    let s = host.to_str()?;
    if !s.is_ascii() || s.starts_with('.') {
        return None;
    }
    let n = dos_name(s.as_bytes())?;
    if n != s.to_ascii_uppercase() || device_name(n.as_bytes()).is_some() {
        return None;
    }
    Some(n)
}

/// A name in FCB form: base padded to 8, extension padded to 3.
fn fcb11(name: &str) -> [u8; 11] {
    let mut f = [b' '; 11];
    if name == "." || name == ".." {
        f[..name.len()].copy_from_slice(name.as_bytes());
        return f;
    }
    let (base, ext) = name.split_once('.').unwrap_or((name, ""));
    for (i, b) in base.bytes().take(8).enumerate() {
        f[i] = b;
    }
    for (i, b) in ext.bytes().take(3).enumerate() {
        f[8 + i] = b;
    }
    f
}

/// A find pattern in FCB form: `*` fills the rest of its half with `?`.
fn fcb_pattern(comp: &[u8]) -> Option<[u8; 11]> {
    if comp == b"." || comp == b".." {
        return Some(fcb11(if comp == b"." { "." } else { ".." }));
    }
    let (base, ext) = match comp.iter().position(|&b| b == b'.') {
        Some(i) => (&comp[..i], &comp[i + 1..]),
        None => (comp, &[][..]),
    };
    if base.is_empty() || ext.contains(&b'.') {
        return None;
    }
    let mut f = [b' '; 11];
    for (part, start, width) in [(base, 0usize, 8usize), (ext, 8, 3)] {
        for (i, &b) in part.iter().take(width).enumerate() {
            match b {
                b'*' => {
                    f[start + i..start + width].fill(b'?');
                    break;
                }
                b'?' | b' ' => f[start + i] = b,
                _ if is_name_byte(b) => f[start + i] = b.to_ascii_uppercase(),
                _ => return None,
            }
        }
    }
    Some(f)
}

/// FCB-style match: `?` in the pattern matches any byte, including padding.
fn fcb_match(pattern: &[u8; 11], name: &[u8; 11]) -> bool {
    pattern.iter().zip(name).all(|(&p, &n)| p == b'?' || p == n)
}

/// DOS packed (time, date) of a host time, in UTC, clamped to 1980-2107.
pub fn dos_datetime(t: SystemTime) -> (u16, u16) {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs().min(i64::MAX as u64) as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, m, d) = civil_from_days(days);
    if y < 1980 {
        return (0, (1 << 5) | 1);
    }
    if y > 2107 {
        return ((23 << 11) | (59 << 5) | 29, (127 << 9) | (12 << 5) | 31);
    }
    let time = ((rem / 3600) << 11) | (((rem / 60) % 60) << 5) | ((rem % 60) / 2);
    let date = ((y - 1980) << 9) | (m << 5) | d;
    (time as u16, date as u16)
}

/// The host time of a DOS packed (time, date), read as UTC. Out-of-range
/// fields are taken arithmetically, never refused.
pub fn system_time(time: u16, date: u16) -> SystemTime {
    let y = 1980 + i64::from(date >> 9);
    let m = i64::from((date >> 5) & 15).clamp(1, 12);
    let d = i64::from(date & 31).max(1);
    let days = days_from_civil(y, m, d);
    let secs = days * 86400
        + i64::from(time >> 11) * 3600
        + i64::from((time >> 5) & 63) * 60
        + i64::from(time & 31) * 2;
    UNIX_EPOCH + Duration::from_secs(secs.max(0) as u64)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn host_err(e: &io::Error) -> DosError {
    match e.kind() {
        io::ErrorKind::NotFound => DosError::FILE_NOT_FOUND,
        _ => DosError::ACCESS_DENIED,
    }
}

/// Open a host file without ever blocking and make sure it is a regular
/// file. The listing already hides FIFOs, sockets and devices; this holds
/// even when an entry changes between the listing and the open: the open
/// is non-blocking (a FIFO opens at once, or fails) and does not take a
/// controlling terminal, and `fstat` on the open file must say "regular
/// file".
fn open_regular(o: &mut OpenOptions, host: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let f = o.open(host)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "not a regular file",
        ));
    }
    Ok(f)
}

/// Hard links of a host file (1 where the platform does not say).
fn links(md: &Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        md.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = md;
        1
    }
}

/// Is a host entry one DOS may see: a regular file or a directory (a
/// symlink counts as what it points to; a dangling one stays visible, and
/// is refused when used)? FIFOs, sockets and devices are not.
fn plain_entry(e: &fs::DirEntry) -> bool {
    match e.file_type() {
        Ok(t) if t.is_file() || t.is_dir() => true,
        Ok(t) if t.is_symlink() => match fs::metadata(e.path()) {
            Ok(md) => md.is_file() || md.is_dir(),
            Err(_) => true,
        },
        _ => false,
    }
}

/// What a handle refers to.
#[derive(Debug)]
enum Node {
    Device(&'static str),
    File(OpenFile),
}

#[derive(Debug)]
struct OpenFile {
    file: File,
    pos: u32,
    access: u8,
    written: bool,
    /// The DOS path it was opened by (for the list of changes).
    dos: String,
    /// It lies on the writable layer (its time may be set).
    writable: bool,
}

/// A system file table entry, shared by handles made with dup/dup2.
#[derive(Debug)]
struct Sft {
    node: Node,
    refs: usize,
}

/// How [`open_host`] opens a host file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum How {
    Open,
    Truncate,
    CreateNew,
}

fn open_host(host: &Path, access: u8, how: How) -> Result<File, DosError> {
    let mut o = OpenOptions::new();
    o.read(true).write(access != 0 || how != How::Open);
    match how {
        How::Open => {}
        How::Truncate => {
            o.truncate(true);
        }
        How::CreateNew => {
            o.create_new(true);
        }
    }
    open_regular(&mut o, host).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => DosError::FILE_NOT_FOUND,
        _ => DosError::ACCESS_DENIED,
    })
}

/// What the program did to a file or directory (the run's report lists
/// them, `Drive::changes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// A new file.
    Created,
    /// An existing file written, truncated or replaced.
    Wrote,
    /// A file deleted.
    Deleted,
    /// A file or directory renamed (`to` says to what).
    Renamed,
    /// A directory made.
    MadeDirectory,
    /// A directory removed.
    RemovedDirectory,
    /// Attributes set (AX=4301h).
    SetAttributes,
    /// Date and time set (AX=5701h).
    SetTime,
}

impl ChangeKind {
    /// The verb the text report uses.
    pub fn verb(self) -> &'static str {
        match self {
            ChangeKind::Created => "created",
            ChangeKind::Wrote => "wrote",
            ChangeKind::Deleted => "deleted",
            ChangeKind::Renamed => "renamed",
            ChangeKind::MadeDirectory => "made directory",
            ChangeKind::RemovedDirectory => "removed directory",
            ChangeKind::SetAttributes => "set attributes of",
            ChangeKind::SetTime => "set the time of",
        }
    }
}

/// One change to the drive, with its DOS path (`C:\DIR\FILE.EXT`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Change {
    pub kind: ChangeKind,
    pub path: String,
    /// The new name of a rename.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<String>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.verb(), self.path)?;
        if let Some(to) = &self.to {
            write!(f, " to {to}")?;
        }
        Ok(())
    }
}

/// Changes a run keeps for its report; later ones are counted.
pub const MAX_CHANGES: usize = 1000;

/// The default total write quota (`--disk-quota`): 256 MiB.
pub const DEFAULT_QUOTA: u64 = 256 << 20;

/// What a file or directory made on the writable layer costs against the
/// quota besides its data: a 512-byte sector, so that a program making
/// empty files in a loop also runs out of room.
const ENTRY_COST: u64 = 512;

/// The copy-on-write layer of a drive whose directory is read-only.
#[derive(Debug)]
struct Overlay {
    /// Where the program's writes go (canonical).
    upper: PathBuf,
    /// `upper` is a temporary directory, removed with the drive.
    temporary: bool,
}

/// A DOS directory on the layers: its host directory on the writable
/// layer and on each read-only one where it exists there, as (the layer's
/// index in [`Drive::lower_roots`], host directory), the first layer
/// first.
#[derive(Debug, Clone)]
struct DirAt {
    comps: Vec<String>,
    upper: Option<PathBuf>,
    lower: Vec<(usize, PathBuf)>,
}

/// An entry of a [`DirAt`].
#[derive(Debug, Clone)]
struct Entry {
    /// Its host path (not canonicalised: a symlink stays one).
    host: PathBuf,
    /// It lies on the writable layer.
    upper: bool,
    /// The read-only layer it lies on (an index in
    /// [`Drive::lower_roots`]; 0 when `upper`).
    layer: usize,
    /// It is a directory.
    dir: bool,
}

/// The sandboxed drive C:.
#[derive(Debug)]
pub struct Drive {
    /// The directory the program was given (canonical): its own when it
    /// runs copy-on-write, read-only then.
    root: PathBuf,
    overlay: Option<Overlay>,
    /// The Windows directory's layer beneath everything (windir.rs): a
    /// private directory holding `WINDOWS\...`, removed with the drive.
    windows: Option<PathBuf>,
    /// DOS paths (`\DIR\NAME`) of read-only entries the program deleted,
    /// removed or renamed away: they, and all below them, are hidden.
    whiteouts: HashSet<String>,
    cwd: Vec<String>,
    jft: Vec<Option<usize>>,
    sft: Vec<Option<Sft>>,
    /// Attributes DOS keeps that the host does not, by DOS path.
    attrs: HashMap<String, u8>,
    searches: VecDeque<FindState>,
    next_search: u32,
    max_file_size: u64,
    quota: u64,
    used: u64,
    /// Writes cut short because the quota was reached.
    full_writes: u64,
    /// Writes cut short because a file reached `max_file_size`.
    capped_writes: u64,
    changes: Vec<Change>,
    changes_dropped: u64,
    /// DOS paths already listed as created or written (each is listed
    /// once).
    touched: HashSet<String>,
    /// The TMPnnnnn number AH=5Ah tries first in each DOS directory.
    temp_next: HashMap<Vec<String>, u32>,
    /// The host directories read, and the DOS directories' entry counts
    /// (listing.rs).
    listings: std::cell::RefCell<listing::Listings>,
}

impl Drop for Drive {
    fn drop(&mut self) {
        if let Some(o) = &self.overlay {
            if o.temporary {
                let _ = fs::remove_dir_all(&o.upper);
            }
        }
        if let Some(w) = &self.windows {
            let _ = fs::remove_dir_all(w);
        }
    }
}

impl Drive {
    /// A read-write drive over `root` (canonicalised; must be a directory)
    /// with [`DEFAULT_HANDLES`] handles; 0-2 are CON, 3 AUX, 4 PRN.
    pub fn new(root: PathBuf) -> io::Result<Drive> {
        Drive::with_handles(root, DEFAULT_HANDLES)
    }

    /// As [`Drive::new`] with `handles` handles (clamped to 5..=255).
    pub fn with_handles(root: PathBuf, handles: usize) -> io::Result<Drive> {
        let root = fs::canonicalize(root)?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "sandbox root is not a directory",
            ));
        }
        let mut jft = vec![None; handles.clamp(5, 255)];
        jft[..5].copy_from_slice(&[Some(0), Some(0), Some(0), Some(1), Some(2)]);
        let dev = |name, refs| {
            Some(Sft {
                node: Node::Device(name),
                refs,
            })
        };
        Ok(Drive {
            root,
            overlay: None,
            windows: None,
            whiteouts: HashSet::new(),
            cwd: Vec::new(),
            jft,
            sft: vec![dev("CON", 3), dev("AUX", 1), dev("PRN", 1)],
            attrs: HashMap::new(),
            searches: VecDeque::new(),
            next_search: 1,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            quota: DEFAULT_QUOTA,
            used: 0,
            full_writes: 0,
            capped_writes: 0,
            changes: Vec::new(),
            changes_dropped: 0,
            touched: HashSet::new(),
            temp_next: HashMap::new(),
            listings: std::cell::RefCell::new(listing::Listings::default()),
        })
    }

    /// A copy-on-write drive: the program sees `root` but cannot change
    /// it. What it writes, creates, deletes or renames goes to an overlay:
    /// `keep` (created if missing; it must be empty and must not lie inside
    /// `root`, where the program would see it), or a private temporary
    /// directory removed with the drive.
    pub fn copy_on_write(root: PathBuf, keep: Option<PathBuf>) -> io::Result<Drive> {
        let mut d = Drive::new(root)?;
        let (upper, temporary) = match keep {
            Some(k) => {
                fs::create_dir_all(&k)?;
                let k = fs::canonicalize(&k)?;
                if fs::read_dir(&k)?.next().is_some() {
                    return Err(io::Error::other(format!(
                        "{} is not empty (the program's writes would mix with what is there)",
                        k.display()
                    )));
                }
                if k.starts_with(&d.root) {
                    return Err(io::Error::other(format!(
                        "{} lies inside {}, the directory the program sees",
                        k.display(),
                        d.root.display()
                    )));
                }
                (k, false)
            }
            None => (fs::canonicalize(temporary_dir()?)?, true),
        };
        d.overlay = Some(Overlay { upper, temporary });
        Ok(d)
    }

    /// The canonical host directory the program was given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the program's writes go: the root of a read-write drive, the
    /// overlay of a copy-on-write one.
    pub fn writes_dir(&self) -> &Path {
        self.overlay.as_ref().map_or(&self.root, |o| &o.upper)
    }

    /// Add the Windows directory beneath the drive (windir.rs):
    /// `C:\WINDOWS` with its SYSTEM and TEMP directories and the .INI
    /// files of a fresh Windows 3.1 set-up, and above those the files of
    /// `user` (`--windows DIR`) when given. The layer is read-only: what
    /// the program changes there goes where its other writes go. Nothing
    /// of `root`, `user` or the overlay is created or changed by this.
    pub fn add_windows_layer(&mut self, user: Option<&Path>) -> io::Result<()> {
        let dir = fs::canonicalize(temporary_dir()?)?;
        if let Err(e) = windir::build(&dir, user) {
            let _ = fs::remove_dir_all(&dir);
            return Err(e);
        }
        if let Some(old) = self.windows.replace(dir) {
            let _ = fs::remove_dir_all(old);
        }
        self.forget_listings();
        Ok(())
    }

    /// The read-only layers, the first hiding the next: the given
    /// directory on a copy-on-write drive, then the Windows directory's
    /// layer.
    fn lower_roots(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = Vec::new();
        if self.overlay.is_some() {
            v.push(&self.root);
        }
        if let Some(w) = &self.windows {
            v.push(w);
        }
        v
    }

    /// Is the given directory read-only, its writes going to an overlay?
    pub fn is_copy_on_write(&self) -> bool {
        self.overlay.is_some()
    }

    /// Is the overlay a temporary directory (its writes discarded)?
    pub fn discards_writes(&self) -> bool {
        self.overlay.as_ref().is_some_and(|o| o.temporary)
    }

    /// Change the largest size a write may grow a file to.
    pub fn set_max_file_size(&mut self, max: u64) {
        self.max_file_size = max.min(u64::from(u32::MAX));
    }

    /// Set the total write quota: the bytes the program may add to the
    /// host disk (file data, and [`ENTRY_COST`] per file or directory
    /// made). Past it writes are short and DOS reports the disk full.
    pub fn set_quota(&mut self, bytes: u64) {
        self.quota = bytes;
    }

    /// The write quota and what the program has used of it.
    pub fn quota(&self) -> (u64, u64) {
        (self.quota, self.used)
    }

    /// How many writes the quota cut short.
    pub fn full_writes(&self) -> u64 {
        self.full_writes
    }

    /// How many writes the per-file size limit ([`DEFAULT_MAX_FILE_SIZE`])
    /// cut short.
    pub fn capped_writes(&self) -> u64 {
        self.capped_writes
    }

    /// The per-file size limit in bytes.
    pub fn max_file_size(&self) -> u64 {
        self.max_file_size
    }

    /// What the program wrote, created, deleted or renamed, in order (the
    /// first [`MAX_CHANGES`]), and how many more changes there were.
    pub fn changes(&self) -> (&[Change], u64) {
        (&self.changes, self.changes_dropped)
    }

    /// INT 21h AH=36h for this drive (the caller answers AX=FFFFh for any
    /// other drive): [`disk_free`] of the drive's [`Drive::sectors`], the
    /// free clusters what is left of the write quota.
    pub fn disk_free(&self) -> (u16, u16, u16, u16) {
        disk_free(self.sectors(), self.room())
    }

    /// The size of the drive in sectors ([`drive_sectors`] of its quota).
    pub fn sectors(&self) -> u32 {
        drive_sectors(self.quota)
    }

    fn room(&self) -> u64 {
        self.quota.saturating_sub(self.used)
    }

    /// Take `bytes` of the quota; false (nothing taken) when they do not
    /// fit.
    fn charge(&mut self, bytes: u64) -> bool {
        if bytes > self.room() {
            return false;
        }
        self.used += bytes;
        true
    }

    fn refund(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }

    fn note(&mut self, kind: ChangeKind, dos: &str, to: Option<&str>) {
        match kind {
            // Listed once, until the file goes away.
            ChangeKind::Created | ChangeKind::Wrote if !self.touched.insert(dos.to_string()) => {
                return;
            }
            ChangeKind::Deleted | ChangeKind::Renamed | ChangeKind::RemovedDirectory => {
                self.touched.remove(dos);
                if let Some(t) = to {
                    self.touched.remove(t);
                }
            }
            _ => {}
        }
        if self.changes.len() >= MAX_CHANGES {
            self.changes_dropped += 1;
            return;
        }
        self.changes.push(Change {
            kind,
            path: format!("C:{dos}"),
            to: to.map(|t| format!("C:{t}")),
        });
    }

    // ---- paths -----------------------------------------------------------

    /// Split a DOS path into resolved directory components (upper-case 8.3,
    /// `.`/`..` applied) and the raw final component, if any.
    fn split(&self, path: &[u8]) -> Result<(Vec<String>, Option<Vec<u8>>), DosError> {
        let path = match path.iter().position(|&b| b == 0) {
            Some(i) => &path[..i],
            None => path,
        };
        if path.len() > MAX_PATH {
            return Err(DosError::PATH_NOT_FOUND);
        }
        let mut rest = path;
        let mut drive = false;
        if rest.len() >= 2 && rest[1] == b':' {
            if !rest[0].eq_ignore_ascii_case(&b'C') {
                return Err(DosError::INVALID_DRIVE);
            }
            rest = &rest[2..];
            drive = true;
        }
        let is_sep = |b: &u8| *b == b'\\' || *b == b'/';
        let Some(first) = rest.first() else {
            return if drive {
                Ok((self.cwd.clone(), None))
            } else {
                Err(DosError::PATH_NOT_FOUND)
            };
        };
        let abs = is_sep(first);
        let mut comps = if abs { Vec::new() } else { self.cwd.clone() };
        let body = if abs { &rest[1..] } else { rest };
        if body.is_empty() {
            return Ok((comps, None));
        }
        let parts: Vec<&[u8]> = body.split(is_sep).collect();
        let n = parts.len();
        let mut last = None;
        for (i, part) in parts.into_iter().enumerate() {
            let is_last = i + 1 == n;
            match part {
                b"" if is_last => {}
                b"" => return Err(DosError::PATH_NOT_FOUND),
                b"." => {}
                b".." => {
                    comps.pop().ok_or(DosError::PATH_NOT_FOUND)?;
                }
                _ if is_last => last = Some(part.to_vec()),
                _ => comps.push(dos_name(part).ok_or(DosError::PATH_NOT_FOUND)?),
            }
        }
        Ok((comps, last))
    }

    /// The canonical form of an existing host path, refused (error 5) if it
    /// lies outside `layer` or cannot be canonicalised (dangling link).
    fn confine(layer: &Path, p: &Path) -> Result<PathBuf, DosError> {
        let c = fs::canonicalize(p).map_err(|_| DosError::ACCESS_DENIED)?;
        if c.starts_with(layer) {
            Ok(c)
        } else {
            Err(DosError::ACCESS_DENIED)
        }
    }

    /// The DOS-visible entries of a host directory as (DOS name, host name),
    /// sorted by DOS name then host name, one per DOS name. FIFOs, sockets
    /// and devices are not visible ([`plain_entry`]).
    fn list(&self, dir: &Path) -> Result<Vec<(String, OsString)>, DosError> {
        self.listings.borrow_mut().list(dir)
    }

    /// The host name of the entry `name` (upper-case 8.3) in `dir`.
    fn lookup(&self, dir: &Path, name: &str) -> Result<Option<OsString>, DosError> {
        self.listings.borrow_mut().lookup(dir, name)
    }

    /// Host directories read so far (what path lookups cost).
    #[cfg(test)]
    fn reads(&self) -> u64 {
        self.listings.borrow().reads
    }

    /// The drive made host entry `path` (a file or directory).
    fn made(&self, path: &Path) {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            self.listings.borrow_mut().added(dir, name);
        }
    }

    /// The drive removed host entry `path`.
    fn unmade(&self, path: &Path) {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            self.listings.borrow_mut().removed(dir, name);
        }
    }

    /// Forget what was read of the host directories (after a change not
    /// followed entry by entry: a rename, a directory removed).
    fn forget_listings(&self) {
        self.listings.borrow_mut().forget();
    }

    /// Error 5 when DOS directory `dir` is full: 512 entries in the root,
    /// 65,534 in any other (listing.rs, "The FAT limits").
    fn room_in(&self, dir: &DirAt) -> Result<(), DosError> {
        let kept = self.listings.borrow().count(&dir.comps);
        let n = match kept {
            Some(n) => n,
            None => {
                let n = self.listing(dir)?.len();
                self.listings.borrow_mut().set_count(&dir.comps, n);
                n
            }
        };
        if n >= listing::limit(&dir.comps) {
            return Err(DosError::ACCESS_DENIED);
        }
        Ok(())
    }

    /// DOS directory `comps` gained or lost a visible entry.
    fn counted(&self, comps: &[String], gained: bool) {
        self.listings.borrow_mut().count_changed(comps, gained);
    }

    fn dos_string(comps: &[String]) -> String {
        format!("\\{}", comps.join("\\"))
    }

    /// Is the read-only entry at `comps` hidden (it, or a directory above
    /// it, was deleted or renamed away)?
    fn hidden(&self, comps: &[String]) -> bool {
        !self.whiteouts.is_empty()
            && (1..=comps.len()).any(|n| self.whiteouts.contains(&Self::dos_string(&comps[..n])))
    }

    fn hide(&mut self, comps: &[String]) {
        let dos = Self::dos_string(comps);
        self.whiteouts.insert(dos);
    }

    /// Does a read-only layer of `dir` hold `name` (not hidden)?
    fn in_lower(&self, dir: &DirAt, name: &str) -> bool {
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        !self.hidden(&comps)
            && dir
                .lower
                .iter()
                .any(|(_, l)| self.lookup(l, name).ok().flatten().is_some())
    }

    /// The entry `name` of `dir`: the writable layer's first, then the
    /// read-only layer's unless hidden.
    fn entry(&self, dir: &DirAt, name: &str) -> Result<Option<Entry>, DosError> {
        if let Some(u) = &dir.upper {
            if let Some(h) = self.lookup(u, name)? {
                let host = u.join(h);
                let canon = Self::confine(self.writes_dir(), &host)?;
                return Ok(Some(Entry {
                    host,
                    upper: true,
                    layer: 0,
                    dir: canon.is_dir(),
                }));
            }
        }
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        if self.hidden(&comps) {
            return Ok(None);
        }
        let roots = self.lower_roots();
        for (i, l) in &dir.lower {
            if let Some(h) = self.lookup(l, name)? {
                let host = l.join(h);
                let canon = Self::confine(roots[*i], &host)?;
                return Ok(Some(Entry {
                    host,
                    upper: false,
                    layer: *i,
                    dir: canon.is_dir(),
                }));
            }
        }
        Ok(None)
    }

    /// The DOS directory at resolved components, on both layers.
    fn walk(&self, comps: &[String]) -> Result<DirAt, DosError> {
        let roots = self.lower_roots();
        let mut at = DirAt {
            comps: Vec::new(),
            upper: Some(self.writes_dir().to_path_buf()),
            lower: roots
                .iter()
                .enumerate()
                .map(|(i, r)| (i, r.to_path_buf()))
                .collect(),
        };
        for c in comps {
            let mut next = DirAt {
                comps: at.comps.clone(),
                upper: None,
                lower: Vec::new(),
            };
            next.comps.push(c.clone());
            if let Some(u) = &at.upper {
                if let Some(h) = self.lookup(u, c)? {
                    let canon = Self::confine(self.writes_dir(), &u.join(h))?;
                    if !canon.is_dir() {
                        // A file on the writable layer hides any directory
                        // of that name below it.
                        return Err(DosError::PATH_NOT_FOUND);
                    }
                    next.upper = Some(canon);
                }
            }
            if !self.hidden(&next.comps) {
                for (i, l) in &at.lower {
                    if let Some(h) = self.lookup(l, c)? {
                        let canon = Self::confine(roots[*i], &l.join(h))?;
                        if canon.is_dir() {
                            next.lower.push((*i, canon));
                        } else if next.upper.is_none() && next.lower.is_empty() {
                            return Err(DosError::PATH_NOT_FOUND);
                        } else {
                            // A file hides the directories of its name
                            // on the layers below it.
                            break;
                        }
                    }
                }
            }
            if next.upper.is_none() && next.lower.is_empty() {
                return Err(DosError::PATH_NOT_FOUND);
            }
            at = next;
        }
        Ok(at)
    }

    /// The visible entries of a DOS directory, sorted by DOS name:
    /// (DOS name, entry).
    fn listing(&self, dir: &DirAt) -> Result<Vec<(String, Entry)>, DosError> {
        let mut out: Vec<(String, Entry)> = Vec::new();
        if let Some(u) = &dir.upper {
            for (name, h) in self.list(u)? {
                let host = u.join(h);
                let isdir = fs::metadata(&host).is_ok_and(|m| m.is_dir());
                out.push((
                    name,
                    Entry {
                        host,
                        upper: true,
                        layer: 0,
                        dir: isdir,
                    },
                ));
            }
        }
        for (i, l) in &dir.lower {
            let mut comps = dir.comps.clone();
            for (name, h) in self.list(l)? {
                if out.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                comps.push(name.clone());
                let hidden = self.hidden(&comps);
                comps.pop();
                if hidden {
                    continue;
                }
                let host = l.join(h);
                let isdir = fs::metadata(&host).is_ok_and(|m| m.is_dir());
                out.push((
                    name,
                    Entry {
                        host,
                        upper: false,
                        layer: *i,
                        dir: isdir,
                    },
                ));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Make sure the DOS directory `comps` exists on the writable layer
    /// (making the directories missing there, as copy-on-write needs) and
    /// return its host path.
    fn upper_dir(&mut self, comps: &[String]) -> Result<PathBuf, DosError> {
        let mut u = self.writes_dir().to_path_buf();
        for c in comps {
            match self.lookup(&u, c)? {
                Some(h) => {
                    let canon = Self::confine(self.writes_dir(), &u.join(h))?;
                    if !canon.is_dir() {
                        return Err(DosError::PATH_NOT_FOUND);
                    }
                    u = canon;
                }
                None => {
                    if !self.charge(ENTRY_COST) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    let next = u.join(c);
                    fs::create_dir(&next).map_err(|_| DosError::ACCESS_DENIED)?;
                    self.made(&next);
                    u = next;
                }
            }
        }
        Ok(u)
    }

    /// Copy a read-only file to the writable layer as `to` (a file that
    /// does not exist there), keeping its time and read-only permission.
    /// Error 27h (insufficient disk space) when it does not fit the quota.
    fn copy_file_up(&mut self, from: &Path, to: &Path) -> Result<(), DosError> {
        let mut src = open_host(from, 0, How::Open)?;
        let md = src.metadata().map_err(|_| DosError::ACCESS_DENIED)?;
        let len = md.len();
        if !self.charge(len.saturating_add(ENTRY_COST)) {
            return Err(DosError::DISK_FULL);
        }
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        let copied = open_regular(&mut o, to).and_then(|mut dst| {
            io::copy(&mut (&mut src).take(len), &mut dst)?;
            if let Ok(t) = md.modified() {
                let _ = dst.set_modified(t);
            }
            Ok(())
        });
        if copied.is_err() {
            let _ = fs::remove_file(to);
            self.refund(len + ENTRY_COST);
            self.forget_listings();
            return Err(DosError::ACCESS_DENIED);
        }
        self.made(to);
        if md.permissions().readonly() {
            let _ = set_read_only(to, true);
        }
        Ok(())
    }

    /// What copying the read-only parts of a directory tree to the
    /// writable layer costs against the quota (see [`Drive::copy_tree_up`]).
    fn tree_cost(&self, from: &DirAt) -> Result<u64, DosError> {
        let mut cost = if from.upper.is_none() { ENTRY_COST } else { 0 };
        for (name, e) in self.listing(from)? {
            if e.dir {
                let mut comps = from.comps.clone();
                comps.push(name);
                cost = cost.saturating_add(self.tree_cost(&self.walk(&comps)?)?);
            } else if !e.upper {
                let len = fs::metadata(&e.host).map_or(0, |m| m.len());
                cost = cost.saturating_add(len + ENTRY_COST);
            }
        }
        Ok(cost)
    }

    /// Give a directory that has read-only parts a new name on the writable
    /// layer, `to`: everything visible in it moves there, its read-only
    /// files as copies (for a rename of it). Error 27h, before anything
    /// moves, when the copies do not fit the quota.
    fn copy_tree_up(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
        if self.tree_cost(from)? > self.room() {
            return Err(DosError::DISK_FULL);
        }
        self.move_tree(from, to)
    }

    fn move_tree(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
        let r = self.move_tree_entries(from, to);
        self.forget_listings();
        r
    }

    fn move_tree_entries(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
        if !to.is_dir() {
            self.charge(ENTRY_COST);
            fs::create_dir(to).map_err(|_| DosError::ACCESS_DENIED)?;
        }
        for (name, e) in self.listing(from)? {
            let target = to.join(&name);
            if e.dir {
                let mut comps = from.comps.clone();
                comps.push(name);
                let sub = self.walk(&comps)?;
                self.move_tree_entries(&sub, &target)?;
            } else if e.upper {
                fs::rename(&e.host, &target).map_err(|_| DosError::ACCESS_DENIED)?;
            } else {
                self.copy_file_up(&e.host, &target)?;
            }
        }
        Ok(())
    }

    /// A file on the writable layer for writing: `e` itself when it lies
    /// there (refused when read-only or hard-linked: another link may lie
    /// outside the sandbox), else a copy of it made there.
    fn writable(&mut self, comps: &[String], name: &str, e: &Entry) -> Result<PathBuf, DosError> {
        if e.upper {
            if self.read_only(&e.host, true) {
                return Err(DosError::ACCESS_DENIED);
            }
            return Ok(e.host.clone());
        }
        if self.read_only(&e.host, false) {
            return Err(DosError::ACCESS_DENIED);
        }
        let dir = self.upper_dir(comps)?;
        let to = dir.join(name);
        self.copy_file_up(&e.host, &to)?;
        Ok(to)
    }

    /// Resolve a DOS path (the ASCIZ argument of INT 21h AH=39h-3Dh, 41h,
    /// 43h, 4Eh, 56h, 5Bh, 6Ch) to what it names on the host. Errors: 15
    /// other drive, 3 missing directory, invalid name or `..` above the
    /// root, 5 a symlink leaving the root. On a copy-on-write drive a file
    /// is where the program sees it (its own copy once it wrote it), and a
    /// missing name is where a create would put it, on the writable layer.
    pub fn resolve(&self, dos_path: &[u8]) -> Result<HostPath, DosError> {
        let (mut comps, last) = self.split(dos_path)?;
        let dir = self.walk(&comps)?;
        let Some(raw) = last else {
            return Ok(HostPath::Dir {
                host: dir
                    .upper
                    .or(dir.lower.into_iter().next().map(|(_, l)| l))
                    .unwrap_or_default(),
                dos: Self::dos_string(&comps),
            });
        };
        if let Some(d) = device_name(&raw) {
            return Ok(HostPath::Device(d.to_string()));
        }
        let name = dos_name(&raw).ok_or(DosError::PATH_NOT_FOUND)?;
        let found = self.entry(&dir, &name)?;
        let upper = dir.upper.clone();
        comps.push(name.clone());
        let dos = Self::dos_string(&comps);
        let Some(e) = found else {
            let parent = upper.unwrap_or_else(|| {
                let mut p = self.writes_dir().to_path_buf();
                p.extend(&comps[..comps.len() - 1]);
                p
            });
            return Ok(HostPath::Missing {
                host: parent.join(name),
                dos,
            });
        };
        Ok(if e.dir {
            HostPath::Dir { host: e.host, dos }
        } else {
            HostPath::File { host: e.host, dos }
        })
    }

    /// The host directories that make up the DOS directory `dos_path`,
    /// the writable layer's first, then each read-only layer's (empty when
    /// there is no such directory): where the loader looks for a DLL in
    /// `C:\WINDOWS` and `C:\WINDOWS\SYSTEM`.
    pub fn host_dirs(&self, dos_path: &[u8]) -> Vec<PathBuf> {
        let Ok((mut comps, last)) = self.split(dos_path) else {
            return Vec::new();
        };
        if let Some(l) = last {
            match dos_name(&l) {
                Some(n) => comps.push(n),
                None => return Vec::new(),
            }
        }
        let Ok(at) = self.walk(&comps) else {
            return Vec::new();
        };
        at.upper
            .into_iter()
            .chain(at.lower.into_iter().map(|(_, l)| l))
            .collect()
    }

    /// Resolve a DOS path to its directory and entry name: (directory,
    /// name, entry), for the functions that change things.
    fn place(&self, dos_path: &[u8]) -> Result<Place, DosError> {
        let (comps, last) = self.split(dos_path)?;
        let dir = self.walk(&comps)?;
        let Some(raw) = last else {
            return Ok(Place::Dir(dir));
        };
        if let Some(d) = device_name(&raw) {
            return Ok(Place::Device(d));
        }
        let name = dos_name(&raw).ok_or(DosError::PATH_NOT_FOUND)?;
        let e = self.entry(&dir, &name)?;
        Ok(Place::Named {
            dir,
            name,
            entry: e,
        })
    }

    /// Read a whole file of the drive, at most `cap` bytes (more is error
    /// 5): for what the system reads on the program's behalf (profile
    /// files, WinExec's program). Never blocks: see [`open_regular`].
    pub fn read_file(&self, dos_path: &[u8], cap: u64) -> Result<Vec<u8>, DosError> {
        let v = self.read_head(dos_path, cap.saturating_add(1))?;
        if v.len() as u64 > cap {
            return Err(DosError::ACCESS_DENIED);
        }
        Ok(v)
    }

    /// Write a whole file of the drive (created, or replaced) as INT 21h
    /// AH=3Ch and 40h would, for what the system writes on the program's
    /// behalf (a disk metafile): copy-on-write, the quota and the list of
    /// changes apply. Error 27h when the quota cut it short. Takes no
    /// handle of the program's.
    pub fn write_file(&mut self, dos_path: &[u8], data: &[u8]) -> Result<(), DosError> {
        self.jft.push(None);
        let slot = self.jft.len() - 1;
        let made = match self.place(dos_path) {
            Ok(Place::Named { dir, name, entry }) if !entry.as_ref().is_some_and(|e| e.dir) => {
                self.make_file(slot, &dir, &name, entry.as_ref(), 0, 2)
            }
            Ok(_) => Err(DosError::ACCESS_DENIED),
            Err(e) => Err(e),
        };
        let result = made.and_then(|h| {
            let mut r = Ok(());
            for piece in data.chunks(0xFFFF) {
                match self.write(h, piece) {
                    Ok(n) if n == piece.len() => {}
                    Ok(_) => {
                        r = Err(DosError::DISK_FULL);
                        break;
                    }
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            let _ = self.close(h);
            r
        });
        self.jft.pop();
        result
    }

    /// The first `max` bytes (or fewer) of a file of the drive; see
    /// [`Drive::read_file`].
    pub fn read_head(&self, dos_path: &[u8], max: u64) -> Result<Vec<u8>, DosError> {
        let HostPath::File { host, .. } = self.resolve(dos_path)? else {
            return Err(DosError::FILE_NOT_FOUND);
        };
        let f = open_host(&host, 0, How::Open)?;
        let mut v = Vec::new();
        f.take(max)
            .read_to_end(&mut v)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        Ok(v)
    }

    // ---- directories -----------------------------------------------------

    /// INT 21h AH=47h: the current directory without drive letter and
    /// leading backslash (`""` at the root).
    pub fn getcwd(&self) -> String {
        self.cwd.join("\\")
    }

    /// INT 21h AH=3Bh: change the current directory. Error 3 unless the
    /// path names an existing directory.
    pub fn chdir(&mut self, path: &[u8]) -> Result<(), DosError> {
        match self.resolve(path)? {
            HostPath::Dir { dos, .. } if dos.len() <= MAX_DIR => {
                self.cwd = dos
                    .split('\\')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                Ok(())
            }
            _ => Err(DosError::PATH_NOT_FOUND),
        }
    }

    /// INT 21h AH=39h: make a directory (upper-case name). Error 5 if the
    /// name exists or is a device, or the disk (the quota) is full; 3 if
    /// the parent is missing or the path would be longer than DOS allows.
    pub fn mkdir(&mut self, path: &[u8]) -> Result<(), DosError> {
        let Place::Named {
            dir,
            name,
            entry: None,
        } = self.place(path)?
        else {
            return Err(DosError::ACCESS_DENIED);
        };
        let mut comps = dir.comps.clone();
        comps.push(name);
        let dos = Self::dos_string(&comps);
        if dos.len() > MAX_DIR {
            return Err(DosError::PATH_NOT_FOUND);
        }
        self.room_in(&dir)?;
        self.upper_dir(&comps)?;
        self.counted(&dir.comps, true);
        self.note(ChangeKind::MadeDirectory, &dos, None);
        Ok(())
    }

    /// INT 21h AH=3Ah: remove an empty directory. Error 16 for the current
    /// directory, 5 for the root or a non-empty directory, 3 if not a
    /// directory.
    pub fn rmdir(&mut self, path: &[u8]) -> Result<(), DosError> {
        let (dir, name) = match self.place(path)? {
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } if e.dir => (dir, name),
            Place::Dir(d) if d.comps.is_empty() => return Err(DosError::ACCESS_DENIED),
            Place::Dir(d) => {
                let mut comps = d.comps.clone();
                let name = comps.pop().unwrap_or_default();
                (self.walk(&comps)?, name)
            }
            _ => return Err(DosError::PATH_NOT_FOUND),
        };
        let mut comps = dir.comps.clone();
        comps.push(name);
        if comps == self.cwd {
            return Err(DosError::CURRENT_DIRECTORY);
        }
        let at = self.walk(&comps)?;
        if !self.listing(&at)?.is_empty() {
            return Err(DosError::ACCESS_DENIED);
        }
        if let Some(u) = &at.upper {
            fs::remove_dir(u).map_err(|_| DosError::ACCESS_DENIED)?;
            self.refund(ENTRY_COST);
        }
        self.forget_listings();
        if !at.lower.is_empty() {
            self.hide(&comps);
        }
        let dos = Self::dos_string(&comps);
        self.attrs.remove(&dos);
        self.note(ChangeKind::RemovedDirectory, &dos, None);
        Ok(())
    }

    // ---- handles ---------------------------------------------------------

    fn free_slot(&self) -> Result<usize, DosError> {
        self.jft
            .iter()
            .position(Option::is_none)
            .ok_or(DosError::TOO_MANY_OPEN_FILES)
    }

    fn install(&mut self, slot: usize, node: Node) -> u16 {
        let sft = Sft { node, refs: 1 };
        let idx = match self.sft.iter().position(Option::is_none) {
            Some(i) => {
                self.sft[i] = Some(sft);
                i
            }
            None => {
                self.sft.push(Some(sft));
                self.sft.len() - 1
            }
        };
        self.jft[slot] = Some(idx);
        slot as u16
    }

    fn sft_index(&self, h: u16) -> Result<usize, DosError> {
        self.jft
            .get(usize::from(h))
            .copied()
            .flatten()
            .ok_or(DosError::INVALID_HANDLE)
    }

    fn node(&mut self, h: u16) -> Result<&mut Node, DosError> {
        let i = self.sft_index(h)?;
        self.sft
            .get_mut(i)
            .and_then(Option::as_mut)
            .map(|s| &mut s.node)
            .ok_or(DosError::INVALID_HANDLE)
    }

    fn device_node(name: &str) -> Node {
        Node::Device(
            DEVICES
                .iter()
                .copied()
                .find(|d| *d == name)
                .unwrap_or("NUL"),
        )
    }

    /// Is a host file read-only to DOS: its permission says so, or (on
    /// the writable layer) it has another hard link, which may lie outside
    /// the sandbox.
    fn read_only(&self, host: &Path, writable_layer: bool) -> bool {
        fs::metadata(host)
            .map(|m| m.permissions().readonly() || (writable_layer && links(&m) > 1))
            .unwrap_or(false)
    }

    fn file_node(file: File, access: u8, dos: String, writable: bool) -> Node {
        Node::File(OpenFile {
            file,
            pos: 0,
            access,
            written: false,
            dos,
            writable,
        })
    }

    /// Create `name` in `dir` (it does not exist), or truncate `existing`,
    /// with attribute `attr`; the handle's access is `access`.
    fn make_file(
        &mut self,
        slot: usize,
        dir: &DirAt,
        name: &str,
        existing: Option<&Entry>,
        attr: u8,
        access: u8,
    ) -> Result<u16, DosError> {
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        let dos = Self::dos_string(&comps);
        let (host, file) = match existing {
            Some(e) => {
                if e.upper {
                    if self.read_only(&e.host, true) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    let old = fs::metadata(&e.host).map(|m| m.len()).unwrap_or(0);
                    let f = open_host(&e.host, access, How::Truncate)?;
                    self.refund(old);
                    (e.host.clone(), f)
                } else {
                    if self.read_only(&e.host, false) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    // Replacing a read-only layer's file: a new, empty
                    // file on the writable layer hides it.
                    let d = self.upper_dir(&dir.comps)?;
                    let host = d.join(name);
                    if !self.charge(ENTRY_COST) {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    let f = open_host(&host, access, How::CreateNew).inspect_err(|_| {
                        self.refund(ENTRY_COST);
                    })?;
                    self.made(&host);
                    (host, f)
                }
            }
            None => {
                // A new directory entry: none left in a full directory.
                self.room_in(dir)?;
                let d = self.upper_dir(&dir.comps)?;
                let host = d.join(name);
                if !self.charge(ENTRY_COST) {
                    return Err(DosError::ACCESS_DENIED);
                }
                let f = open_host(&host, access, How::CreateNew).inspect_err(|_| {
                    self.refund(ENTRY_COST);
                })?;
                self.made(&host);
                self.counted(&dir.comps, true);
                (host, f)
            }
        };
        if attr & ATTR_READ_ONLY != 0 {
            set_read_only(&host, true)?;
        }
        self.attrs.insert(
            dos.clone(),
            attr & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE),
        );
        let kind = if existing.is_some() {
            ChangeKind::Wrote
        } else {
            ChangeKind::Created
        };
        self.touched.remove(&dos);
        self.note(kind, &dos, None);
        Ok(self.install(slot, Self::file_node(file, access, dos, true)))
    }

    /// INT 21h AH=3Ch: create or truncate a file, opened read/write.
    /// `attr` (CL) may not have the volume or directory bit (error 5).
    /// Error 5 for a directory or read-only file, 4 with no free handle.
    pub fn create(&mut self, path: &[u8], attr: u8) -> Result<u16, DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok(self.install(slot, Self::device_node(d))),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named { dir, name, entry } => {
                self.make_file(slot, &dir, &name, entry.as_ref(), attr, 2)
            }
        }
    }

    /// INT 21h AH=5Bh: create a file that must not exist (error 80 if it
    /// does).
    pub fn create_new(&mut self, path: &[u8], attr: u8) -> Result<u16, DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Named {
                dir,
                name,
                entry: None,
            } => self.make_file(slot, &dir, &name, None, attr, 2),
            _ => Err(DosError::FILE_EXISTS),
        }
    }

    /// INT 21h AH=5Ah: create a file with a name no file in the directory
    /// `dir` has (a DOS path ending in `\`, or empty for the current
    /// directory): the first free `TMPnnnnn` name from the one after the
    /// last this directory gave (from TMP00000 at first). Returns the handle and the full path, as
    /// the program's buffer receives it (its directory, then the name).
    pub fn create_temp(&mut self, dir: &[u8], attr: u8) -> Result<(u16, Vec<u8>), DosError> {
        if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let slot = self.free_slot()?;
        let mut prefix = dir.to_vec();
        if let Some(i) = prefix.iter().position(|&b| b == 0) {
            prefix.truncate(i);
        }
        if !prefix.is_empty()
            && !prefix.ends_with(b"\\")
            && !prefix.ends_with(b"/")
            && !prefix.ends_with(b":")
        {
            prefix.push(b'\\');
        }
        let at = match self.place(if prefix.is_empty() { b"." } else { &prefix })? {
            Place::Dir(d) => d,
            Place::Named {
                entry: Some(e),
                dir,
                name,
            } if e.dir => {
                let mut comps = dir.comps.clone();
                comps.push(name);
                self.walk(&comps)?
            }
            _ => return Err(DosError::PATH_NOT_FOUND),
        };
        // The names are tried in order from the one after the last this
        // directory gave (each a lookup in the kept listing: listing.rs),
        // so that n temporary files cost n lookups, not n listings.
        let first = self.temp_next.get(&at.comps).copied().unwrap_or(0);
        for k in 0..0x10_0000u32 {
            let n = (first + k) & 0xF_FFFF;
            let name = format!("TMP{n:05X}");
            if self.entry(&at, &name)?.is_some() {
                continue;
            }
            match self.make_file(slot, &at, &name, None, attr, 2) {
                Ok(h) => {
                    self.temp_next.insert(at.comps.clone(), (n + 1) & 0xF_FFFF);
                    let mut full = prefix;
                    full.extend_from_slice(name.as_bytes());
                    return Ok((h, full));
                }
                // Taken since the listing (by another host process).
                Err(DosError::ACCESS_DENIED)
                    if at.upper.as_ref().is_some_and(|u| u.join(&name).exists()) =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(DosError::ACCESS_DENIED)
    }

    /// INT 21h AH=3Dh: open an existing file. `mode` is AL: bits 0-2 access
    /// (0 read, 1 write, 2 read/write; else error 12); sharing and
    /// inheritance bits are accepted and ignored. Errors: 2 no such file, 3
    /// no such directory, 4 no free handle, 5 a directory or a read-only
    /// file opened for writing (a hard-linked file of a read-write drive is
    /// read-only).
    pub fn open(&mut self, path: &[u8], mode: u8) -> Result<u16, DosError> {
        let access = mode & 7;
        if access > 2 {
            return Err(DosError::INVALID_ACCESS);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok(self.install(slot, Self::device_node(d))),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: None, .. } => Err(DosError::FILE_NOT_FOUND),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => self.open_file(slot, &dir, &name, &e, access),
        }
    }

    fn open_file(
        &mut self,
        slot: usize,
        dir: &DirAt,
        name: &str,
        e: &Entry,
        access: u8,
    ) -> Result<u16, DosError> {
        let mut comps = dir.comps.clone();
        comps.push(name.to_string());
        let dos = Self::dos_string(&comps);
        let (host, writable) = if access != 0 {
            (self.writable(&dir.comps, name, e)?, true)
        } else {
            (e.host.clone(), e.upper)
        };
        let file = open_host(&host, access, How::Open)?;
        Ok(self.install(slot, Self::file_node(file, access, dos, writable)))
    }

    /// INT 21h AX=6C00h: extended open/create. `mode` is BX (access in bits
    /// 0-2), `attr` CX, `action` DX: bits 0-3 if the file exists (0 fail
    /// with error 80, 1 open, 2 replace), bits 4-7 if it does not (0 fail
    /// with error 2, 1 create); anything else is error 1. Returns the
    /// handle and CX's status: 1 opened, 2 created, 3 replaced.
    pub fn extended_open(
        &mut self,
        path: &[u8],
        mode: u16,
        attr: u8,
        action: u16,
    ) -> Result<(u16, u16), DosError> {
        let (if_exists, if_missing) = (action & 0xF, (action >> 4) & 0xF);
        if action > 0xFF || if_exists > 2 || if_missing > 1 {
            return Err(DosError::INVALID_FUNCTION);
        }
        let access = (mode & 7) as u8;
        if access > 2 {
            return Err(DosError::INVALID_ACCESS);
        }
        let slot = self.free_slot()?;
        match self.place(path)? {
            Place::Device(d) => Ok((self.install(slot, Self::device_node(d)), 1)),
            Place::Dir(_) => Err(DosError::ACCESS_DENIED),
            Place::Named { entry: Some(e), .. } if e.dir => Err(DosError::ACCESS_DENIED),
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => match if_exists {
                0 => Err(DosError::FILE_EXISTS),
                1 => Ok((self.open_file(slot, &dir, &name, &e, access)?, 1)),
                _ => {
                    if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    Ok((
                        self.make_file(slot, &dir, &name, Some(&e), attr, access)?,
                        3,
                    ))
                }
            },
            Place::Named {
                dir,
                name,
                entry: None,
            } => {
                if if_missing == 0 {
                    return Err(DosError::FILE_NOT_FOUND);
                }
                if attr & (ATTR_VOLUME | ATTR_DIRECTORY) != 0 {
                    return Err(DosError::ACCESS_DENIED);
                }
                Ok((self.make_file(slot, &dir, &name, None, attr, access)?, 2))
            }
        }
    }

    /// INT 21h AH=3Eh: close a handle (error 6 if not open). Handles made
    /// by dup/dup2 share the file; it closes with the last of them.
    pub fn close(&mut self, h: u16) -> Result<(), DosError> {
        let i = self.sft_index(h)?;
        self.jft[usize::from(h)] = None;
        if let Some(slot) = self.sft.get_mut(i) {
            if let Some(s) = slot.as_mut() {
                s.refs = s.refs.saturating_sub(1);
                if s.refs == 0 {
                    *slot = None;
                }
            }
        }
        Ok(())
    }

    /// The device a handle refers to, `None` for a file (INT 21h AH=3Fh and
    /// 40h callers route CON, AUX, PRN, COMn, LPTn and CLOCK$ themselves).
    pub fn handle_device(&mut self, h: u16) -> Result<Option<&'static str>, DosError> {
        Ok(match self.node(h)? {
            Node::Device(d) => Some(d),
            Node::File(_) => None,
        })
    }

    /// INT 21h AH=3Fh: read up to `n` bytes at the handle's position. A
    /// device handle reads as NUL (nothing); the caller handles console
    /// input before calling this. Error 5 on a write-only handle.
    pub fn read(&mut self, h: u16, n: u16) -> Result<Vec<u8>, DosError> {
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(Vec::new()),
            Node::File(f) => f,
        };
        if f.access == 1 {
            return Err(DosError::ACCESS_DENIED);
        }
        let mut buf = Vec::with_capacity(usize::from(n));
        f.file
            .seek(SeekFrom::Start(u64::from(f.pos)))
            .map_err(|_| DosError::ACCESS_DENIED)?;
        (&mut f.file)
            .take(u64::from(n))
            .read_to_end(&mut buf)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.pos = f.pos.wrapping_add(buf.len() as u32);
        Ok(buf)
    }

    /// INT 21h AH=40h: write at the handle's position; returns the count
    /// written. It is short, with no error, when the disk is full (the
    /// quota: a write writes what fits, as DOS's does on a full disk) or
    /// the file would pass its size limit. Writing 0 bytes truncates (or
    /// extends) the file to the position, as DOS does; an extension that
    /// does not fit changes nothing and still returns 0, as DOS 5's does.
    /// A device handle swallows the bytes as NUL does; the caller handles
    /// console output before calling this. At most 0FFFFh bytes; error 5
    /// on a read-only handle.
    pub fn write(&mut self, h: u16, data: &[u8]) -> Result<usize, DosError> {
        let max = self.max_file_size;
        let room = self.room();
        let data = &data[..data.len().min(0xFFFF)];
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(data.len()),
            Node::File(f) => f,
        };
        if f.access == 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let pos = u64::from(f.pos);
        if pos > max || (pos == max && !data.is_empty()) {
            self.capped_writes += 1;
            return Ok(0);
        }
        let len = f
            .file
            .metadata()
            .map_err(|_| DosError::ACCESS_DENIED)?
            .len();
        let dos = f.dos.clone();
        if data.is_empty() {
            if pos > len && pos - len > room {
                self.full_writes += 1;
                return Ok(0);
            }
            f.written = true;
            f.file.set_len(pos).map_err(|_| DosError::ACCESS_DENIED)?;
            if pos > len {
                self.used += pos - len;
            } else {
                self.refund(len - pos);
            }
            self.note(ChangeKind::Wrote, &dos, None);
            return Ok(0);
        }
        let mut n = data.len() as u64;
        let capped = n > max - pos;
        n = n.min(max - pos);
        let fits = (len + room).saturating_sub(pos);
        let short = n > fits;
        n = n.min(fits);
        if n == 0 {
            self.full_writes += u64::from(short);
            self.capped_writes += u64::from(capped && !short);
            return Ok(0);
        }
        f.written = true;
        f.file
            .seek(SeekFrom::Start(pos))
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.file
            .write_all(&data[..n as usize])
            .map_err(|_| DosError::ACCESS_DENIED)?;
        f.pos = f.pos.wrapping_add(n as u32);
        let end = pos + n;
        if end > len {
            self.used += end - len;
        }
        self.full_writes += u64::from(short);
        self.capped_writes += u64::from(capped && !short);
        self.note(ChangeKind::Wrote, &dos, None);
        Ok(n as usize)
    }

    /// INT 21h AH=42h: move the handle's position; `whence` is AL (0 from
    /// the start, offset unsigned; 1 from the current position; 2 from the
    /// end; else error 1). Positions wrap at 32 bits as DOS's do. Returns
    /// the new position (always 0 for a device).
    pub fn seek(&mut self, h: u16, offset: i32, whence: u8) -> Result<u32, DosError> {
        if whence > 2 {
            return Err(DosError::INVALID_FUNCTION);
        }
        let f = match self.node(h)? {
            Node::Device(_) => return Ok(0),
            Node::File(f) => f,
        };
        let base = match whence {
            0 => 0,
            1 => f.pos,
            _ => {
                let len = f
                    .file
                    .metadata()
                    .map_err(|_| DosError::ACCESS_DENIED)?
                    .len();
                len.min(u64::from(u32::MAX)) as u32
            }
        };
        f.pos = base.wrapping_add(offset as u32);
        Ok(f.pos)
    }

    /// INT 21h AH=45h: a new handle for the same open file (shared
    /// position). Errors 6, 4.
    pub fn dup(&mut self, h: u16) -> Result<u16, DosError> {
        let i = self.sft_index(h)?;
        let slot = self.free_slot()?;
        if let Some(Some(s)) = self.sft.get_mut(i) {
            s.refs += 1;
        }
        self.jft[slot] = Some(i);
        Ok(slot as u16)
    }

    /// INT 21h AH=46h: make handle `new` refer to `h`'s file, closing what
    /// `new` referred to. Error 6 if `h` is not open or `new` is out of
    /// range.
    pub fn dup2(&mut self, h: u16, new: u16) -> Result<(), DosError> {
        let i = self.sft_index(h)?;
        if usize::from(new) >= self.jft.len() {
            return Err(DosError::INVALID_HANDLE);
        }
        if h == new {
            return Ok(());
        }
        if self.jft[usize::from(new)].is_some() {
            self.close(new)?;
        }
        if let Some(Some(s)) = self.sft.get_mut(i) {
            s.refs += 1;
        }
        self.jft[usize::from(new)] = Some(i);
        Ok(())
    }

    /// INT 21h AX=4400h: the device information word (DX): 80xxh for
    /// devices ([`device_info_word`]); for files the drive number (2 = C:)
    /// with bit 6 set while the file has not been written.
    pub fn ioctl_info(&mut self, h: u16) -> Result<u16, DosError> {
        Ok(match self.node(h)? {
            Node::Device(d) => device_info_word(d),
            Node::File(f) => 2 | if f.written { 0 } else { 0x40 },
        })
    }

    /// INT 21h AX=5700h: the file's (time, date), from the host mtime in
    /// UTC. Error 1 for a device handle.
    pub fn file_time(&mut self, h: u16) -> Result<(u16, u16), DosError> {
        match self.node(h)? {
            Node::Device(_) => Err(DosError::INVALID_FUNCTION),
            Node::File(f) => {
                let md = f.file.metadata().map_err(|_| DosError::ACCESS_DENIED)?;
                Ok(dos_datetime(md.modified().unwrap_or(UNIX_EPOCH)))
            }
        }
    }

    /// INT 21h AX=5701h: set the file's time (CX) and date (DX) as the
    /// host mtime, read as UTC. Error 1 for a device handle; error 5 for a
    /// file the program cannot change (read-only on a copy-on-write drive,
    /// or hard-linked: see [`Drive::open`]).
    pub fn set_file_time(&mut self, h: u16, time: u16, date: u16) -> Result<(), DosError> {
        let f = match self.node(h)? {
            Node::Device(_) => return Err(DosError::INVALID_FUNCTION),
            Node::File(f) => f,
        };
        let md = f.file.metadata().map_err(|_| DosError::ACCESS_DENIED)?;
        if !f.writable || links(&md) > 1 {
            return Err(DosError::ACCESS_DENIED);
        }
        f.file
            .set_modified(system_time(time, date))
            .map_err(|_| DosError::ACCESS_DENIED)?;
        let dos = f.dos.clone();
        self.note(ChangeKind::SetTime, &dos, None);
        Ok(())
    }

    // ---- names -----------------------------------------------------------

    /// INT 21h AH=41h: delete a file. Error 2 if missing, 5 for a
    /// directory, a device or a read-only file. Wildcards are refused
    /// (error 3), as for every handle call. On a copy-on-write drive the
    /// program's directory keeps the file; the program no longer sees it.
    pub fn delete(&mut self, path: &[u8]) -> Result<(), DosError> {
        let Place::Named { dir, name, entry } = self.place(path)? else {
            return Err(DosError::ACCESS_DENIED);
        };
        let Some(e) = entry else {
            return Err(DosError::FILE_NOT_FOUND);
        };
        if e.dir || self.read_only(&e.host, false) {
            return Err(DosError::ACCESS_DENIED);
        }
        let mut comps = dir.comps.clone();
        comps.push(name.clone());
        if e.upper {
            let len = fs::symlink_metadata(&e.host).map(|m| m.len()).unwrap_or(0);
            fs::remove_file(&e.host).map_err(|e| host_err(&e))?;
            self.unmade(&e.host);
            self.refund(len + ENTRY_COST);
        }
        if !e.upper || self.in_lower(&dir, &name) {
            self.hide(&comps);
        }
        self.counted(&dir.comps, false);
        let dos = Self::dos_string(&comps);
        self.attrs.remove(&dos);
        self.note(ChangeKind::Deleted, &dos, None);
        Ok(())
    }

    /// INT 21h AH=56h: rename `old` to `new`, both inside the drive. A file
    /// may move to another directory; a directory is only renamed in place
    /// and never while it holds the current directory. Errors: 2 `old`
    /// missing, 3 a missing directory, 5 `new` exists, either is a device
    /// or the root, or a directory would move. On a copy-on-write drive
    /// the renamed file or directory is copied to the writable layer.
    pub fn rename(&mut self, old: &[u8], new: &[u8]) -> Result<(), DosError> {
        let (from_dir, from_name, from) = match self.place(old)? {
            Place::Named { entry: None, .. } => return Err(DosError::FILE_NOT_FOUND),
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => (dir, name, e),
            Place::Dir(d) if !d.comps.is_empty() => {
                let mut comps = d.comps.clone();
                let name = comps.pop().unwrap_or_default();
                let dir = self.walk(&comps)?;
                let e = self.entry(&dir, &name)?.ok_or(DosError::FILE_NOT_FOUND)?;
                (dir, name, e)
            }
            _ => return Err(DosError::ACCESS_DENIED),
        };
        let Place::Named {
            dir: to_dir,
            name: to_name,
            entry: None,
        } = self.place(new)?
        else {
            return Err(DosError::ACCESS_DENIED);
        };
        let mut from_comps = from_dir.comps.clone();
        from_comps.push(from_name.clone());
        let mut to_comps = to_dir.comps.clone();
        to_comps.push(to_name.clone());
        let (from_dos, to_dos) = (Self::dos_string(&from_comps), Self::dos_string(&to_comps));
        if from.dir {
            let inside = self.cwd.starts_with(&from_comps);
            if from_dir.comps != to_dir.comps || inside {
                return Err(DosError::ACCESS_DENIED);
            }
        }
        if from_dir.comps != to_dir.comps {
            // A new entry in the target directory: none in a full one.
            self.room_in(&to_dir)?;
        }
        let target_parent = self.upper_dir(&to_dir.comps)?;
        let to = target_parent.join(&to_name);
        // A host entry DOS cannot see (a FIFO, say) is not replaced.
        if fs::symlink_metadata(&to).is_ok() {
            return Err(DosError::ACCESS_DENIED);
        }
        let lower_too = self.in_lower(&from_dir, &from_name);
        if from.dir && (lower_too || !from.upper) {
            let tree = self.walk(&from_comps)?;
            self.copy_tree_up(&tree, &to)?;
            if let Some(u) = &tree.upper {
                // Emptied by the move but for directories.
                let _ = fs::remove_dir_all(u);
                self.refund(ENTRY_COST);
            }
        } else if from.upper {
            fs::rename(&from.host, &to).map_err(|_| DosError::ACCESS_DENIED)?;
        } else {
            self.copy_file_up(&from.host, &to)?;
        }
        if lower_too || !from.upper {
            self.hide(&from_comps);
        }
        if let Some(a) = self.attrs.remove(&from_dos) {
            self.attrs.insert(to_dos.clone(), a);
        }
        self.forget_listings();
        self.note(ChangeKind::Renamed, &from_dos, Some(&to_dos));
        Ok(())
    }

    fn attr_of(&self, dos: &str, e: &Entry, md: &Metadata) -> u8 {
        let kept = self.attrs.get(dos).copied();
        if md.is_dir() {
            ATTR_DIRECTORY
                | kept.unwrap_or(0) & (ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE)
        } else {
            let ro = if md.permissions().readonly() || (e.upper && links(md) > 1) {
                ATTR_READ_ONLY
            } else {
                0
            };
            ro | kept.unwrap_or(ATTR_ARCHIVE) & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE)
        }
    }

    /// INT 21h AX=4300h: a file's or directory's attributes. Read-only of a
    /// file is the host permission (or a second hard link on a read-write
    /// drive); hidden, system and archive (and read-only of a directory)
    /// live in memory. Files default to archive. Error 2 if missing, 5 for
    /// a device.
    pub fn get_attr(&self, path: &[u8]) -> Result<u8, DosError> {
        match self.place(path)? {
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => {
                let md = fs::metadata(&e.host).map_err(|e| host_err(&e))?;
                let mut comps = dir.comps;
                comps.push(name);
                Ok(self.attr_of(&Self::dos_string(&comps), &e, &md))
            }
            Place::Dir(d) => Ok(ATTR_DIRECTORY
                | self
                    .attrs
                    .get(&Self::dos_string(&d.comps))
                    .copied()
                    .unwrap_or(0)
                    & (ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE)),
            Place::Named { entry: None, .. } => Err(DosError::FILE_NOT_FOUND),
            Place::Device(_) => Err(DosError::ACCESS_DENIED),
        }
    }

    /// INT 21h AX=4301h: set attributes (CL). The volume, directory and
    /// device bits are refused (error 5), as are the root and devices. A
    /// file's read-only bit is its host permission (a file of the
    /// read-only layer is copied first; a hard-linked one is refused).
    pub fn set_attr(&mut self, path: &[u8], attr: u8) -> Result<(), DosError> {
        if attr & !(ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | ATTR_ARCHIVE) != 0 {
            return Err(DosError::ACCESS_DENIED);
        }
        let (dir, name, e) = match self.place(path)? {
            Place::Named {
                dir,
                name,
                entry: Some(e),
            } => (dir, name, e),
            Place::Named { entry: None, .. } => return Err(DosError::FILE_NOT_FOUND),
            Place::Dir(d) if !d.comps.is_empty() => {
                let dos = Self::dos_string(&d.comps);
                self.attrs.insert(dos.clone(), attr);
                self.note(ChangeKind::SetAttributes, &dos, None);
                return Ok(());
            }
            _ => return Err(DosError::ACCESS_DENIED),
        };
        let mut comps = dir.comps.clone();
        comps.push(name.clone());
        let dos = Self::dos_string(&comps);
        if e.dir {
            self.attrs.insert(dos.clone(), attr);
        } else {
            let md = fs::metadata(&e.host).map_err(|e| host_err(&e))?;
            let want_ro = attr & ATTR_READ_ONLY != 0;
            if md.permissions().readonly() != want_ro || !e.upper {
                let host = if e.upper {
                    if links(&md) > 1 {
                        return Err(DosError::ACCESS_DENIED);
                    }
                    e.host.clone()
                } else {
                    let d = self.upper_dir(&dir.comps)?;
                    let to = d.join(&name);
                    self.copy_file_up(&e.host, &to)?;
                    to
                };
                set_read_only(&host, want_ro)?;
            }
            self.attrs.insert(dos.clone(), attr & !ATTR_READ_ONLY);
        }
        self.note(ChangeKind::SetAttributes, &dos, None);
        Ok(())
    }

    // ---- find first/next -------------------------------------------------

    /// INT 21h AH=4Eh: start a search. `pattern` is a path whose last
    /// component may hold `*` and `?`, matched FCB-style on the 11-byte
    /// `NNNNNNNNEEE` forms; `attr` (CL) admits hidden (02h), system (04h)
    /// and directory (10h) entries besides plain files; exactly 08h asks
    /// for the volume label, which this drive has none of (error 18).
    /// Subdirectories list `.` and `..` first, the rest sorted by name. A
    /// device name without wildcards matches the device (attribute 40h). No
    /// match: error 18 for a pattern with wildcards, 2 without. The matches
    /// are taken now; later changes are not seen by find next.
    pub fn find_first(&mut self, pattern: &[u8], attr: u8) -> Result<FindState, DosError> {
        let (comps, last) = self.split(pattern)?;
        let dir = self.walk(&comps)?;
        let raw = last.ok_or(DosError::PATH_NOT_FOUND)?;
        let wild = raw.iter().any(|&b| b == b'*' || b == b'?');
        let pat = fcb_pattern(&raw).ok_or(DosError::PATH_NOT_FOUND)?;
        let id = self.next_search;
        self.next_search = self.next_search.wrapping_add(1).max(1);
        let mut state = FindState {
            id,
            pattern: pat,
            attr,
            results: Vec::new(),
            pos: 0,
        };
        if attr == ATTR_VOLUME {
            return Err(DosError::NO_MORE_FILES);
        }
        if let (false, Some(d)) = (wild, device_name(&raw)) {
            let (time, date) = dos_datetime(SystemTime::now());
            state.results.push(FindResult {
                name: d.to_string(),
                attr: ATTR_DEVICE,
                time,
                date,
                size: 0,
            });
            return Ok(state);
        }
        let admit = |a: u8| a & (ATTR_HIDDEN | ATTR_SYSTEM | ATTR_DIRECTORY) & !attr == 0;
        if !comps.is_empty() {
            let here = dir.upper.as_ref().or(dir.lower.first().map(|(_, l)| l));
            if let Some(md) = here.and_then(|h| fs::metadata(h).ok()) {
                let (time, date) = dos_datetime(md.modified().unwrap_or(UNIX_EPOCH));
                for name in [".", ".."] {
                    if admit(ATTR_DIRECTORY) && fcb_match(&pat, &fcb11(name)) {
                        state.results.push(FindResult {
                            name: name.to_string(),
                            attr: ATTR_DIRECTORY,
                            time,
                            date,
                            size: 0,
                        });
                    }
                }
            }
        }
        for (name, e) in self.listing(&dir)? {
            if !fcb_match(&pat, &fcb11(&name)) {
                continue;
            }
            let roots = self.lower_roots();
            let layer = if e.upper {
                self.writes_dir()
            } else {
                roots[e.layer]
            };
            let Ok(lmd) = fs::symlink_metadata(&e.host) else {
                continue;
            };
            if lmd.file_type().is_symlink() && Self::confine(layer, &e.host).is_err() {
                continue;
            }
            let Ok(md) = fs::metadata(&e.host) else {
                continue;
            };
            let mut full = comps.clone();
            full.push(name.clone());
            let a = self.attr_of(&Self::dos_string(&full), &e, &md);
            if !admit(a) {
                continue;
            }
            let (time, date) = dos_datetime(md.modified().unwrap_or(UNIX_EPOCH));
            state.results.push(FindResult {
                name,
                attr: a,
                time,
                date,
                size: if md.is_dir() {
                    0
                } else {
                    md.len().min(u64::from(u32::MAX)) as u32
                },
            });
        }
        if state.results.is_empty() {
            return Err(if wild {
                DosError::NO_MORE_FILES
            } else {
                DosError::FILE_NOT_FOUND
            });
        }
        Ok(state)
    }

    /// INT 21h AH=4Fh: advance a search to its next match; error 18 when
    /// there is none.
    pub fn find_next(state: &mut FindState) -> Result<&FindResult, DosError> {
        if state.pos < state.results.len() {
            state.pos += 1;
        }
        state.results.get(state.pos).ok_or(DosError::NO_MORE_FILES)
    }

    /// INT 21h AH=4Eh in one step: start a search, remember it, and return
    /// the DTA to store at the caller's DTA address.
    pub fn find_first_dta(&mut self, pattern: &[u8], attr: u8) -> Result<[u8; DTA_LEN], DosError> {
        let state = self.find_first(pattern, attr)?;
        let dta = state.dta().ok_or(DosError::NO_MORE_FILES)?;
        self.searches.push_back(state);
        while self.searches.len() > MAX_SEARCHES
            || self.searches.iter().map(|s| s.results.len()).sum::<usize>() > MAX_KEPT_RESULTS
        {
            self.searches.pop_front();
        }
        Ok(dta)
    }

    /// INT 21h AH=4Fh in one step: find the search a DTA from
    /// [`Drive::find_first_dta`] names and return the next DTA. Error 18
    /// when done, or when the DTA is not ours or its search was dropped.
    pub fn find_next_dta(&mut self, dta: &[u8]) -> Result<[u8; DTA_LEN], DosError> {
        let id = dta_search_id(dta).ok_or(DosError::NO_MORE_FILES)?;
        let i = self
            .searches
            .iter()
            .position(|s| s.id == id)
            .ok_or(DosError::NO_MORE_FILES)?;
        let state = &mut self.searches[i];
        if Self::find_next(state).is_err() {
            self.searches.remove(i);
            return Err(DosError::NO_MORE_FILES);
        }
        state.dta().ok_or(DosError::NO_MORE_FILES)
    }
}

/// What a DOS path names, for the functions that change things.
enum Place {
    Device(&'static str),
    /// A directory named without a final component (`C:\`, `SUB\`).
    Dir(DirAt),
    /// A final component in a directory, and its entry if it exists.
    Named {
        dir: DirAt,
        name: String,
        entry: Option<Entry>,
    },
}

fn set_read_only(host: &Path, on: bool) -> Result<(), DosError> {
    let md = fs::metadata(host).map_err(|e| host_err(&e))?;
    let mut perm = md.permissions();
    if perm.readonly() != on {
        #[allow(clippy::permissions_set_readonly_false)]
        perm.set_readonly(on);
        fs::set_permissions(host, perm).map_err(|_| DosError::ACCESS_DENIED)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {

    use super::*;
    use std::collections::BTreeSet;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static COUNTER: AtomicUsize = AtomicUsize::new(0);

    /// A temp directory `outer` holding the sandbox `outer/root`; removed
    /// on drop.
    struct Tmp {
        outer: PathBuf,
        root: PathBuf,
    }

    impl Tmp {
        fn new(tag: &str) -> Tmp {
            let outer = std::env::temp_dir().join(format!(
                "th16-dosfs-{}-{}-{}",
                std::process::id(),
                tag,
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = fs::remove_dir_all(&outer);
            let root = outer.join("root");
            fs::create_dir_all(&root).unwrap();
            Tmp { outer, root }
        }

        fn drive(&self) -> Drive {
            Drive::new(self.root.clone()).unwrap()
        }

        fn put(&self, rel: &str, data: &[u8]) {
            fs::write(self.root.join(rel), data).unwrap();
        }

        fn host_names(dir: &Path) -> BTreeSet<String> {
            fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        }
    }

    impl Drop for Tmp {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.outer);
        }
    }

    #[test]
    fn the_windows_layer_lies_beneath_the_drive() {
        let t = Tmp::new("windir");
        // The program's own directory has a WINDOWS\SYSTEM.INI: it wins.
        fs::create_dir(t.root.join("WINDOWS")).unwrap();
        t.put("WINDOWS/SYSTEM.INI", b"[boot]\r\n");
        let mut d = t.drive();
        d.add_windows_layer(None).unwrap();
        assert_eq!(
            find_all(&mut d, b"C:\\WINDOWS\\*.INI", 0).unwrap(),
            ["CONTROL.INI", "PROGMAN.INI", "SYSTEM.INI", "WIN.INI"]
        );
        assert_eq!(
            d.read_file(b"C:\\WINDOWS\\SYSTEM.INI", 100).unwrap(),
            b"[boot]\r\n"
        );
        let win = d.read_file(b"\\WINDOWS\\WIN.INI", 1 << 16).unwrap();
        assert!(win.starts_with(b"[windows]\r\nspooler=yes\r\n"));
        assert_eq!(d.get_attr(b"C:\\WINDOWS\\TEMP").unwrap(), ATTR_DIRECTORY);
        // Nothing was made in the directory by the layer.
        assert_eq!(
            Tmp::host_names(&t.root),
            BTreeSet::from(["WINDOWS".to_string()])
        );
        assert!(!t.root.join("WINDOWS/WIN.INI").exists());
        // A write copies the file up into the drive's directory (--dir).
        let h = d.open(b"C:\\WINDOWS\\WIN.INI", 2).unwrap();
        d.seek(h, 0, 2).unwrap();
        d.write(h, b"[x]\r\n").unwrap();
        d.close(h).unwrap();
        let up = fs::read(t.root.join("WINDOWS/WIN.INI")).unwrap();
        assert_eq!(up.len(), win.len() + 5);
        // Deleting a file only the layer has hides it.
        d.delete(b"C:\\WINDOWS\\CONTROL.INI").unwrap();
        assert_eq!(
            d.open(b"C:\\WINDOWS\\CONTROL.INI", 0),
            Err(DosError::FILE_NOT_FOUND)
        );
        assert_eq!(
            find_all(&mut d, b"C:\\WINDOWS\\*.INI", 0).unwrap(),
            ["PROGMAN.INI", "SYSTEM.INI", "WIN.INI"]
        );
        // The system directory's host directories: the layer's.
        let dirs = d.host_dirs(b"C:\\WINDOWS\\SYSTEM");
        assert_eq!(dirs.len(), 1);
        assert!(dirs[0].ends_with("WINDOWS/SYSTEM"));
    }

    fn find_all(d: &mut Drive, pat: &[u8], attr: u8) -> Result<Vec<String>, DosError> {
        let mut st = d.find_first(pat, attr)?;
        let mut v = vec![st.current().unwrap().name.clone()];
        loop {
            match Drive::find_next(&mut st) {
                Ok(r) => v.push(r.name.clone()),
                Err(e) => {
                    assert_eq!(e, DosError::NO_MORE_FILES);
                    return Ok(v);
                }
            }
        }
    }

    #[test]
    fn create_write_read_seek_close() {
        let t = Tmp::new("rw");
        let mut d = t.drive();
        let h = d.create(b"TEST.DAT", 0).unwrap();
        assert_eq!(h, 5);
        assert_eq!(d.ioctl_info(h), Ok(0x42));
        assert_eq!(d.write(h, b"hello world"), Ok(11));
        assert_eq!(d.ioctl_info(h), Ok(0x02));
        assert_eq!(d.seek(h, 0, 0), Ok(0));
        assert_eq!(d.read(h, 5).unwrap(), b"hello");
        assert_eq!(d.seek(h, -5, 2), Ok(6));
        assert_eq!(d.read(h, 100).unwrap(), b"world");
        assert_eq!(d.read(h, 100).unwrap(), b"");
        assert_eq!(d.seek(h, 0, 3), Err(DosError::INVALID_FUNCTION));
        assert_eq!(d.seek(h, 5, 0), Ok(5));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(d.seek(h, 0, 1), Ok(5));
        assert_eq!(d.close(h), Ok(()));
        assert_eq!(d.close(h), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.read(h, 1), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.write(h, b"x"), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.read(99, 1), Err(DosError::INVALID_HANDLE));
        assert_eq!(fs::read(t.root.join("TEST.DAT")).unwrap(), b"hello");

        let h = d.open(b"test.dat", 0).unwrap();
        assert_eq!(d.write(h, b"x"), Err(DosError::ACCESS_DENIED));
        d.close(h).unwrap();
        let h = d.open(b"test.dat", 1).unwrap();
        assert_eq!(d.read(h, 1), Err(DosError::ACCESS_DENIED));
        d.close(h).unwrap();
        assert_eq!(d.open(b"test.dat", 3), Err(DosError::INVALID_ACCESS));
        assert_eq!(d.open(b"nothere.dat", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.open(b"NODIR\\X.DAT", 0), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(d.open(b"\\", 0), Err(DosError::ACCESS_DENIED));
    }

    #[test]
    fn size_limit_makes_short_writes() {
        let t = Tmp::new("limit");
        let mut d = t.drive();
        d.set_max_file_size(10);
        let h = d.create(b"BIG", 0).unwrap();
        assert_eq!(d.write(h, b"0123456789abc"), Ok(10));
        assert_eq!(d.write(h, b"x"), Ok(0));
        assert_eq!(d.seek(h, -1, 0), Ok(u32::MAX));
        assert_eq!(d.read(h, 10).unwrap(), b"");
        assert_eq!(d.write(h, b"x"), Ok(0));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(fs::metadata(t.root.join("BIG")).unwrap().len(), 10);
    }

    #[test]
    fn case_insensitive_names() {
        let t = Tmp::new("case");
        t.put("Hello.Txt", b"hi");
        let mut d = t.drive();
        for name in [
            &b"HELLO.TXT"[..],
            b"hello.txt",
            b"C:\\hello.TXT",
            b"c:/HeLLo.txt",
        ] {
            let h = d.open(name, 0).unwrap();
            assert_eq!(d.read(h, 10).unwrap(), b"hi");
            d.close(h).unwrap();
        }
        match d.resolve(b"hello.txt").unwrap() {
            HostPath::File { host, dos } => {
                assert_eq!(host.file_name().unwrap(), "Hello.Txt");
                assert_eq!(dos, "\\HELLO.TXT");
            }
            other => panic!("{other:?}"),
        }
        let h = d.create(b"newfile.txt", 0).unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("NEWFILE.TXT"));
    }

    #[test]
    fn names_differing_only_in_case_pick_one_deterministically() {
        let t = Tmp::new("dupcase");
        t.put("dup.txt", b"lower");
        t.put("DUP.TXT", b"upper");
        if Tmp::host_names(&t.root).len() < 2 {
            return; // case-insensitive host file system
        }
        let mut d = t.drive();
        let h = d.open(b"Dup.Txt", 0).unwrap();
        assert_eq!(d.read(h, 10).unwrap(), b"upper");
        assert_eq!(find_all(&mut d, b"*.*", 0).unwrap(), ["DUP.TXT"]);
    }

    #[test]
    fn eight_three_truncation_and_invisible_names() {
        let t = Tmp::new("trunc");
        let mut d = t.drive();
        let h = d.create(b"LONGFILENAME.TEXT", 0).unwrap();
        d.write(h, b"x").unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("LONGFILE.TEX"));
        for name in [&b"longfile.tex"[..], b"LONGFILEXYZ.TEXXX"] {
            let h = d.open(name, 0).unwrap();
            d.close(h).unwrap();
        }
        let h = d.create(b"FOO .TXT ", 0).unwrap();
        d.close(h).unwrap();
        assert!(Tmp::host_names(&t.root).contains("FOO.TXT"));

        t.put("averylongname.txt", b"");
        t.put("two.dots.txt", b"");
        t.put("trail.", b"");
        t.put("ext.toolong", b"");
        assert_eq!(d.open(b"AVERYLON.TXT", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.open(b"EXT.TOO", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(
            find_all(&mut d, b"*.*", !ATTR_VOLUME).unwrap(),
            ["FOO.TXT", "LONGFILE.TEX"]
        );
    }

    #[test]
    fn invalid_names() {
        let t = Tmp::new("invalid");
        let mut d = t.drive();
        for name in [
            &b"A*B.TXT"[..],
            b"A?.TXT",
            b"A+B",
            b"A|B",
            b"A<B",
            b"A>B",
            b"A\"B",
            b"A;B",
            b"A,B",
            b"A=B",
            b"A[B]",
            b"A\x01B",
            b"\xE9T\xE9",
            b".TXT",
            b"A.B.C",
            b" LEAD",
            b"",
            b"DIR\\\\X",
            b"...",
            b"XY:Z",
        ] {
            assert_eq!(d.create(name, 0), Err(DosError::PATH_NOT_FOUND), "{name:?}");
        }
        assert_eq!(d.create(b"D:\\X", 0), Err(DosError::INVALID_DRIVE));
        assert_eq!(d.create(b"a:X", 0), Err(DosError::INVALID_DRIVE));
        assert_eq!(d.create(b"X", ATTR_DIRECTORY), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create(b"X", ATTR_VOLUME), Err(DosError::ACCESS_DENIED));
        let long = vec![b'A'; MAX_PATH + 1];
        assert_eq!(d.create(&long, 0), Err(DosError::PATH_NOT_FOUND));
        assert!(Tmp::host_names(&t.root).is_empty());
        fs::create_dir(t.root.join("D")).unwrap();
        assert_eq!(d.create(b"D", 0), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create_new(b"D", 0), Err(DosError::FILE_EXISTS));
    }

    fn find_tree(t: &Tmp) -> Drive {
        for f in [
            "A1.C", "AB.C", "A.C", "ABC.C", "X.TXT", "Y.TXT", "README", "H.TXT",
        ] {
            t.put(f, f.as_bytes());
        }
        fs::create_dir(t.root.join("SUB")).unwrap();
        t.put("SUB/S.TXT", b"s");
        let mut d = t.drive();
        d.set_attr(b"H.TXT", ATTR_HIDDEN).unwrap();
        d
    }

    #[test]
    fn find_first_next() {
        let t = Tmp::new("find");
        let mut d = find_tree(&t);
        assert_eq!(
            find_all(&mut d, b"*.*", 0).unwrap(),
            ["A.C", "A1.C", "AB.C", "ABC.C", "README", "X.TXT", "Y.TXT"]
        );
        assert_eq!(find_all(&mut d, b"*.TXT", 0).unwrap(), ["X.TXT", "Y.TXT"]);
        assert_eq!(
            find_all(&mut d, b"*.txt", ATTR_HIDDEN).unwrap(),
            ["H.TXT", "X.TXT", "Y.TXT"]
        );
        assert_eq!(
            find_all(&mut d, b"A?.C", 0).unwrap(),
            ["A.C", "A1.C", "AB.C"]
        );
        assert_eq!(find_all(&mut d, b"*", 0).unwrap(), ["README"]);
        assert_eq!(find_all(&mut d, b"x.txt", 0).unwrap(), ["X.TXT"]);
        assert_eq!(
            find_all(&mut d, b"C:\\*.*", ATTR_DIRECTORY).unwrap(),
            [
                "A.C", "A1.C", "AB.C", "ABC.C", "README", "SUB", "X.TXT", "Y.TXT"
            ]
        );
        assert_eq!(
            find_all(&mut d, b"SUB\\*.*", ATTR_DIRECTORY).unwrap(),
            [".", "..", "S.TXT"]
        );
        assert_eq!(find_all(&mut d, b"sub/*.*", 0).unwrap(), ["S.TXT"]);
        let st = d.find_first(b"*.*", ATTR_DIRECTORY).unwrap();
        let sub = st.results.iter().find(|r| r.name == "SUB").unwrap();
        assert_eq!((sub.attr, sub.size), (ATTR_DIRECTORY, 0));
        assert_eq!(
            d.find_first(b"NOPE.TXT", 0).err(),
            Some(DosError::FILE_NOT_FOUND)
        );
        assert_eq!(
            d.find_first(b"*.ZZZ", 0).err(),
            Some(DosError::NO_MORE_FILES)
        );
        assert_eq!(
            d.find_first(b"NODIR\\*.*", 0).err(),
            Some(DosError::PATH_NOT_FOUND)
        );
        assert_eq!(
            d.find_first(b"*.*", ATTR_VOLUME).err(),
            Some(DosError::NO_MORE_FILES)
        );
        let st = d.find_first(b"NUL", 0).unwrap();
        assert_eq!(st.current().unwrap().attr, ATTR_DEVICE);
    }

    #[test]
    fn find_through_the_dta() {
        let t = Tmp::new("dta");
        let mut d = find_tree(&t);
        let dta = d.find_first_dta(b"*.TXT", 0).unwrap();
        assert_eq!(&dta[0x1E..0x24], b"X.TXT\0");
        assert_eq!(dta[0x15], ATTR_ARCHIVE);
        assert_eq!(u32::from_le_bytes(dta[0x1A..0x1E].try_into().unwrap()), 5);
        assert_eq!(&dta[1..12], b"????????TXT");
        let id = dta_search_id(&dta).unwrap();
        let dta2 = d.find_next_dta(&dta).unwrap();
        assert_eq!(&dta2[0x1E..0x24], b"Y.TXT\0");
        assert_eq!(dta_search_id(&dta2), Some(id));
        assert_eq!(d.find_next_dta(&dta2), Err(DosError::NO_MORE_FILES));
        assert_eq!(d.find_next_dta(&dta2), Err(DosError::NO_MORE_FILES));
        assert_eq!(
            d.find_next_dta(&[0u8; DTA_LEN]),
            Err(DosError::NO_MORE_FILES)
        );
        assert_eq!(d.find_next_dta(&[]), Err(DosError::NO_MORE_FILES));
        // Abandoned searches are forgotten oldest first.
        let first = d.find_first_dta(b"*.TXT", 0).unwrap();
        let mut last = first;
        for _ in 0..MAX_SEARCHES {
            last = d.find_first_dta(b"*.TXT", 0).unwrap();
        }
        assert_eq!(d.find_next_dta(&first), Err(DosError::NO_MORE_FILES));
        assert_eq!(&d.find_next_dta(&last).unwrap()[0x1E..0x24], b"Y.TXT\0");
        assert!(d.searches.len() <= MAX_SEARCHES);
    }

    #[test]
    fn directories() {
        let t = Tmp::new("dirs");
        let mut d = t.drive();
        assert_eq!(d.getcwd(), "");
        d.mkdir(b"sub").unwrap();
        assert!(Tmp::host_names(&t.root).contains("SUB"));
        assert_eq!(d.mkdir(b"SUB"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.mkdir(b"NUL"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.mkdir(b"NO\\X"), Err(DosError::PATH_NOT_FOUND));
        d.chdir(b"sub").unwrap();
        assert_eq!(d.getcwd(), "SUB");
        d.mkdir(b"deep").unwrap();
        d.chdir(b"DEEP").unwrap();
        assert_eq!(d.getcwd(), "SUB\\DEEP");
        let h = d.create(b"F.TXT", 0).unwrap();
        d.close(h).unwrap();
        assert!(t.root.join("SUB/DEEP/F.TXT").is_file());
        assert_eq!(d.chdir(b"..\\..\\.."), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(d.getcwd(), "SUB\\DEEP");
        d.chdir(b"..").unwrap();
        assert_eq!(d.getcwd(), "SUB");
        assert_eq!(d.chdir(b"NOPE"), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(d.chdir(b"DEEP\\F.TXT"), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(d.rmdir(b"C:\\SUB"), Err(DosError::CURRENT_DIRECTORY));
        assert_eq!(d.resolve(b"DEEP\\NUL"), Ok(HostPath::Device("NUL".into())));
        assert_eq!(d.resolve(b"NOPE\\NUL"), Err(DosError::PATH_NOT_FOUND));
        d.chdir(b"\\").unwrap();
        assert_eq!(d.getcwd(), "");
        assert_eq!(d.rmdir(b"SUB"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.rmdir(b"\\"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.rmdir(b"SUB\\DEEP\\F.TXT"), Err(DosError::PATH_NOT_FOUND));
        d.delete(b"SUB\\DEEP\\F.TXT").unwrap();
        d.rmdir(b"SUB\\DEEP").unwrap();
        d.rmdir(b"SUB").unwrap();
        assert!(Tmp::host_names(&t.root).is_empty());
        // DOS's 64-byte limit on directory paths.
        for _ in 0..12 {
            let _ = d.mkdir(b"ABCDEFGH");
            let _ = d.chdir(b"ABCDEFGH");
        }
        assert!(d.getcwd().len() < MAX_DIR);
    }

    #[test]
    fn rename_inside_only() {
        let t = Tmp::new("rename");
        let mut d = find_tree(&t);
        d.rename(b"X.TXT", b"x2.txt").unwrap();
        assert!(t.root.join("X2.TXT").is_file());
        d.rename(b"X2.TXT", b"SUB\\X3.TXT").unwrap();
        assert!(t.root.join("SUB/X3.TXT").is_file());
        assert_eq!(
            d.rename(b"Y.TXT", b"..\\Y.TXT"),
            Err(DosError::PATH_NOT_FOUND)
        );
        assert_eq!(
            d.rename(b"Y.TXT", b"C:\\..\\Y.TXT"),
            Err(DosError::PATH_NOT_FOUND)
        );
        assert_eq!(
            d.rename(b"Y.TXT", b"D:\\Y.TXT"),
            Err(DosError::INVALID_DRIVE)
        );
        assert_eq!(d.rename(b"Y.TXT", b"A.C"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.rename(b"Y.TXT", b"NUL"), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.rename(b"NOPE", b"Q"), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.rename(b"\\", b"Q"), Err(DosError::ACCESS_DENIED));
        d.mkdir(b"OTHER").unwrap();
        assert_eq!(
            d.rename(b"SUB", b"OTHER\\SUB"),
            Err(DosError::ACCESS_DENIED)
        );
        d.rename(b"SUB", b"SUB2").unwrap();
        assert!(t.root.join("SUB2/X3.TXT").is_file());
        assert_eq!(
            Tmp::host_names(&t.outer),
            BTreeSet::from(["root".to_string()])
        );
    }

    #[test]
    fn attributes_and_read_only() {
        let t = Tmp::new("attr");
        let mut d = find_tree(&t);
        assert_eq!(d.get_attr(b"A.C"), Ok(ATTR_ARCHIVE));
        assert_eq!(d.get_attr(b"H.TXT"), Ok(ATTR_HIDDEN));
        assert_eq!(d.get_attr(b"SUB"), Ok(ATTR_DIRECTORY));
        assert_eq!(d.get_attr(b"NOPE"), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(
            d.set_attr(b"A.C", ATTR_DIRECTORY),
            Err(DosError::ACCESS_DENIED)
        );
        d.set_attr(b"A.C", ATTR_READ_ONLY | ATTR_ARCHIVE).unwrap();
        assert_eq!(d.get_attr(b"a.c"), Ok(ATTR_READ_ONLY | ATTR_ARCHIVE));
        assert!(
            fs::metadata(t.root.join("A.C"))
                .unwrap()
                .permissions()
                .readonly()
        );
        assert_eq!(d.open(b"A.C", 1), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.open(b"A.C", 2), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create(b"A.C", 0), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.delete(b"A.C"), Err(DosError::ACCESS_DENIED));
        let h = d.open(b"A.C", 0).unwrap();
        d.close(h).unwrap();
        d.set_attr(b"A.C", 0).unwrap();
        assert_eq!(d.get_attr(b"A.C"), Ok(0));
        d.delete(b"A.C").unwrap();
        assert_eq!(d.delete(b"A.C"), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.delete(b"SUB"), Err(DosError::ACCESS_DENIED));
        // Created read-only: the handle still writes.
        let h = d.create(b"RO.TXT", ATTR_READ_ONLY).unwrap();
        assert_eq!(d.write(h, b"ok"), Ok(2));
        d.close(h).unwrap();
        assert_eq!(d.get_attr(b"RO.TXT"), Ok(ATTR_READ_ONLY));
        d.set_attr(b"RO.TXT", 0).unwrap();
    }

    #[test]
    fn date_time() {
        // 2024-02-29 13:45:30 UTC
        let t = UNIX_EPOCH + Duration::from_secs(1_709_214_330);
        let (time, date) = dos_datetime(t);
        assert_eq!(date, (44 << 9) | (2 << 5) | 29);
        assert_eq!(time, (13 << 11) | (45 << 5) | 15);
        assert_eq!(system_time(time, date), t);
        assert_eq!(dos_datetime(UNIX_EPOCH), (0, (1 << 5) | 1));
        let _ = system_time(0xFFFF, 0xFFFF);
        let _ = system_time(0, 0);

        let tmp = Tmp::new("time");
        let mut d = tmp.drive();
        let h = d.create(b"T", 0).unwrap();
        d.set_file_time(h, time, date).unwrap();
        assert_eq!(d.file_time(h), Ok((time, date)));
        assert_eq!(d.file_time(1), Err(DosError::INVALID_FUNCTION));
        let st = d.find_first(b"T", 0).unwrap();
        let r = st.current().unwrap();
        assert_eq!((r.time, r.date), (time, date));
    }

    #[test]
    fn extended_open_and_create_new() {
        let t = Tmp::new("ext");
        let mut d = t.drive();
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x01),
            Err(DosError::FILE_NOT_FOUND)
        );
        let (h, st) = d.extended_open(b"E.TXT", 2, 0, 0x10).unwrap();
        assert_eq!(st, 2);
        d.write(h, b"abc").unwrap();
        d.close(h).unwrap();
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x10),
            Err(DosError::FILE_EXISTS)
        );
        let (h, st) = d.extended_open(b"E.TXT", 0, 0, 0x11).unwrap();
        assert_eq!(st, 1);
        assert_eq!(d.read(h, 10).unwrap(), b"abc");
        d.close(h).unwrap();
        let (h, st) = d.extended_open(b"E.TXT", 2, 0, 0x12).unwrap();
        assert_eq!(st, 3);
        d.close(h).unwrap();
        assert_eq!(fs::metadata(t.root.join("E.TXT")).unwrap().len(), 0);
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x03),
            Err(DosError::INVALID_FUNCTION)
        );
        assert_eq!(
            d.extended_open(b"E.TXT", 2, 0, 0x21),
            Err(DosError::INVALID_FUNCTION)
        );
        assert_eq!(
            d.extended_open(b"E.TXT", 7, 0, 0x01),
            Err(DosError::INVALID_ACCESS)
        );
        assert_eq!(d.create_new(b"E.TXT", 0), Err(DosError::FILE_EXISTS));
        let h = d.create_new(b"F.TXT", 0).unwrap();
        d.close(h).unwrap();
    }

    #[test]
    fn handles_devices_dup() {
        let t = Tmp::new("handles");
        let mut d = Drive::with_handles(t.root.clone(), 8).unwrap();
        for h in 0..3 {
            assert_eq!(d.handle_device(h), Ok(Some("CON")));
            assert_eq!(d.ioctl_info(h), Ok(0x80D3));
        }
        assert_eq!(d.handle_device(3), Ok(Some("AUX")));
        assert_eq!(d.handle_device(4), Ok(Some("PRN")));
        t.put("F", b"0123456789");
        let a = d.open(b"F", 0).unwrap();
        let b = d.dup(a).unwrap();
        assert_eq!(d.read(a, 3).unwrap(), b"012");
        assert_eq!(d.read(b, 3).unwrap(), b"345");
        d.close(a).unwrap();
        assert_eq!(d.read(b, 2).unwrap(), b"67");
        d.dup2(b, 1).unwrap();
        assert_eq!(d.handle_device(1), Ok(None));
        assert_eq!(d.read(1, 1).unwrap(), b"8");
        assert_eq!(d.dup2(b, 200), Err(DosError::INVALID_HANDLE));
        assert_eq!(d.dup2(200, 1), Err(DosError::INVALID_HANDLE));
        let n = d.open(b"nul", 2).unwrap();
        assert_eq!(d.ioctl_info(n), Ok(0x80C4));
        assert_eq!(d.write(n, b"abc"), Ok(3));
        assert_eq!(d.read(n, 3).unwrap(), b"");
        assert_eq!(d.seek(n, 10, 0), Ok(0));
        // The default 256 MiB quota: a 512 MiB partition as FORMAT lays
        // it out (16 KiB clusters), the quota's 256 MiB free.
        let g = geometry(0x10_0000);
        assert_eq!(d.sectors(), 0x10_0000);
        assert_eq!(d.disk_free(), (32, 16384, 512, g.clusters));
        // A small quota: the 40 MiB disk (2 KiB clusters), no more free
        // than the quota leaves.
        d.set_quota(1 << 20);
        assert_eq!(d.disk_free(), (4, 512, 512, 20431));
        assert_eq!(
            DosError::NO_MORE_FILES.to_string(),
            "DOS error 12h (no more files)"
        );
    }

    #[test]
    fn too_many_open_files() {
        let t = Tmp::new("many");
        t.put("F", b"x");
        let mut d = t.drive();
        let hs: Vec<u16> = (0..15).map(|_| d.open(b"F", 0).unwrap()).collect();
        assert_eq!(hs, (5..20).collect::<Vec<u16>>());
        assert_eq!(d.open(b"F", 0), Err(DosError::TOO_MANY_OPEN_FILES));
        assert_eq!(d.create(b"G", 0), Err(DosError::TOO_MANY_OPEN_FILES));
        assert!(!t.root.join("G").exists());
        assert_eq!(d.dup(5), Err(DosError::TOO_MANY_OPEN_FILES));
        d.close(7).unwrap();
        assert_eq!(d.open(b"F", 0), Ok(7));
        let mut d = Drive::with_handles(t.root.clone(), 5).unwrap();
        assert_eq!(d.open(b"F", 0), Err(DosError::TOO_MANY_OPEN_FILES));
    }

    /// Copy-on-write: the program sees its directory and its own changes;
    /// the directory itself is never written; the changes are listed, and
    /// the overlay goes with the drive.
    #[test]
    fn copy_on_write_leaves_the_directory_alone() {
        let t = Tmp::new("cow");
        t.put("KEEP.TXT", b"original");
        t.put("GONE.TXT", b"delete me");
        t.put("MOVE.TXT", b"move me");
        fs::create_dir_all(t.root.join("Sub/Deep")).unwrap();
        t.put("Sub/Deep/IN.TXT", b"inside");
        t.put("RO.TXT", b"ro");
        set_read_only(&t.root.join("RO.TXT"), true).unwrap();
        let before = snapshot(&t.root);
        let mut d = Drive::copy_on_write(t.root.clone(), None).unwrap();
        assert!(d.is_copy_on_write() && d.discards_writes());
        let upper = d.writes_dir().to_path_buf();
        assert!(upper.is_dir() && !upper.starts_with(&t.root));

        // Write into an existing file: the program reads its own bytes.
        let h = d.open(b"keep.txt", 2).unwrap();
        assert_eq!(d.read(h, 4).unwrap(), b"orig");
        assert_eq!(d.write(h, b"XX"), Ok(2));
        d.close(h).unwrap();
        let h = d.open(b"KEEP.TXT", 0).unwrap();
        assert_eq!(d.read(h, 20).unwrap(), b"origXXal");
        d.close(h).unwrap();
        // Delete, rename, create, directories, attributes.
        d.delete(b"GONE.TXT").unwrap();
        assert_eq!(d.open(b"GONE.TXT", 0), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(d.delete(b"GONE.TXT"), Err(DosError::FILE_NOT_FOUND));
        d.rename(b"MOVE.TXT", b"SUB\\MOVED.TXT").unwrap();
        assert_eq!(d.open(b"MOVE.TXT", 0), Err(DosError::FILE_NOT_FOUND));
        let h = d.open(b"SUB\\MOVED.TXT", 0).unwrap();
        assert_eq!(d.read(h, 20).unwrap(), b"move me");
        d.close(h).unwrap();
        let h = d.create(b"SUB\\DEEP\\NEW.TXT", 0).unwrap();
        d.write(h, b"new").unwrap();
        d.close(h).unwrap();
        d.mkdir(b"MADE").unwrap();
        d.rmdir(b"MADE").unwrap();
        assert_eq!(d.open(b"RO.TXT", 2), Err(DosError::ACCESS_DENIED));
        d.set_attr(b"RO.TXT", 0).unwrap();
        assert_eq!(d.get_attr(b"RO.TXT"), Ok(0));
        let h = d.open(b"RO.TXT", 2).unwrap();
        d.close(h).unwrap();
        assert_eq!(
            find_all(&mut d, b"*.*", ATTR_DIRECTORY).unwrap(),
            ["KEEP.TXT", "RO.TXT", "SUB"]
        );
        assert_eq!(
            find_all(&mut d, b"SUB\\*.*", ATTR_DIRECTORY).unwrap(),
            [".", "..", "DEEP", "MOVED.TXT"]
        );
        // A directory with read-only contents is renamed whole.
        d.rename(b"SUB", b"SUB2").unwrap();
        assert_eq!(d.chdir(b"SUB"), Err(DosError::PATH_NOT_FOUND));
        assert_eq!(
            find_all(&mut d, b"SUB2\\DEEP\\*.*", 0).unwrap(),
            ["IN.TXT", "NEW.TXT"]
        );
        // Deleting a directory's contents and the directory, then making
        // one of that name: the old contents stay gone.
        d.delete(b"SUB2\\DEEP\\IN.TXT").unwrap();
        d.delete(b"SUB2\\DEEP\\NEW.TXT").unwrap();
        d.rmdir(b"SUB2\\DEEP").unwrap();
        d.mkdir(b"SUB2\\DEEP").unwrap();
        assert_eq!(
            d.find_first(b"SUB2\\DEEP\\*.*", 0).err(),
            Some(DosError::NO_MORE_FILES)
        );

        assert_eq!(snapshot(&t.root), before, "the program's directory changed");
        let (changes, dropped) = d.changes();
        let text: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
        assert_eq!(dropped, 0);
        assert_eq!(
            text,
            [
                "wrote C:\\KEEP.TXT",
                "deleted C:\\GONE.TXT",
                "renamed C:\\MOVE.TXT to C:\\SUB\\MOVED.TXT",
                "created C:\\SUB\\DEEP\\NEW.TXT",
                "made directory C:\\MADE",
                "removed directory C:\\MADE",
                "set attributes of C:\\RO.TXT",
                "renamed C:\\SUB to C:\\SUB2",
                "deleted C:\\SUB2\\DEEP\\IN.TXT",
                "deleted C:\\SUB2\\DEEP\\NEW.TXT",
                "removed directory C:\\SUB2\\DEEP",
                "made directory C:\\SUB2\\DEEP",
            ]
        );
        drop(d);
        assert!(!upper.exists(), "the temporary overlay is removed");
        assert_eq!(snapshot(&t.root), before);
    }

    /// `--keep-writes DIR`: the overlay is DIR, left with what the program
    /// wrote; it must be empty and outside the program's directory.
    #[test]
    fn kept_writes() {
        let t = Tmp::new("keep");
        t.put("A.TXT", b"a");
        let keep = t.outer.join("kept");
        let mut d = Drive::copy_on_write(t.root.clone(), Some(keep.clone())).unwrap();
        assert!(!d.discards_writes());
        let h = d.create(b"OUT.TXT", 0).unwrap();
        d.write(h, b"result").unwrap();
        d.close(h).unwrap();
        drop(d);
        assert_eq!(fs::read(keep.join("OUT.TXT")).unwrap(), b"result");
        assert!(!t.root.join("OUT.TXT").exists());
        assert!(Drive::copy_on_write(t.root.clone(), Some(keep)).is_err());
        assert!(Drive::copy_on_write(t.root.clone(), Some(t.root.join("IN"))).is_err());
    }

    /// Every file's name, size and bytes, and every directory, under `p`.
    fn snapshot(p: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v = Vec::new();
        for e in fs::read_dir(p).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                v.push((format!("{name}/"), Vec::new()));
                for (n, b) in snapshot(&e.path()) {
                    v.push((format!("{name}/{n}"), b));
                }
            } else {
                v.push((name, fs::read(e.path()).unwrap_or_default()));
            }
        }
        v.sort();
        v
    }

    /// A file with a second hard link (which may lie outside the sandbox)
    /// is read-only on a read-write drive.
    #[cfg(unix)]
    #[test]
    fn hard_links_are_read_only() {
        let t = Tmp::new("hardlink");
        fs::write(t.outer.join("OUTSIDE.TXT"), b"outside").unwrap();
        fs::hard_link(t.outer.join("OUTSIDE.TXT"), t.root.join("LINK.TXT")).unwrap();
        let mut d = t.drive();
        assert_eq!(d.get_attr(b"LINK.TXT"), Ok(ATTR_READ_ONLY | ATTR_ARCHIVE));
        assert_eq!(d.open(b"LINK.TXT", 1), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.open(b"LINK.TXT", 2), Err(DosError::ACCESS_DENIED));
        assert_eq!(d.create(b"LINK.TXT", 0), Err(DosError::ACCESS_DENIED));
        assert_eq!(
            d.extended_open(b"LINK.TXT", 2, 0, 0x12).err(),
            Some(DosError::ACCESS_DENIED)
        );
        assert_eq!(
            d.set_attr(b"LINK.TXT", ATTR_READ_ONLY),
            Err(DosError::ACCESS_DENIED)
        );
        let h = d.open(b"LINK.TXT", 0).unwrap();
        assert_eq!(d.read(h, 20).unwrap(), b"outside");
        assert_eq!(d.set_file_time(h, 0, 0x21), Err(DosError::ACCESS_DENIED));
        d.close(h).unwrap();
        assert_eq!(fs::read(t.outer.join("OUTSIDE.TXT")).unwrap(), b"outside");
        // Copy-on-write, the link is copied before any write.
        let mut d = Drive::copy_on_write(t.root.clone(), None).unwrap();
        let h = d.open(b"LINK.TXT", 2).unwrap();
        assert_eq!(d.write(h, b"IN"), Ok(2));
        d.close(h).unwrap();
        assert_eq!(fs::read(t.outer.join("OUTSIDE.TXT")).unwrap(), b"outside");
    }

    /// FIFOs, sockets and devices are not there for DOS, and nothing
    /// blocks on them.
    #[cfg(unix)]
    #[test]
    fn fifos_are_invisible_and_never_block() {
        let t = Tmp::new("fifo");
        let fifo = t.root.join("PIPE.TXT");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("SKIP: mkfifo not available");
            return;
        }
        std::os::unix::fs::symlink(&fifo, t.root.join("TOPIPE.TXT")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", t.root.join("ZERO.DAT")).unwrap();
        t.put("PLAIN.TXT", b"p");
        let mut d = t.drive();
        for p in [&b"PIPE.TXT"[..], b"TOPIPE.TXT", b"ZERO.DAT"] {
            assert_eq!(d.open(p, 0), Err(DosError::FILE_NOT_FOUND), "{p:?}");
            assert_eq!(d.open(p, 2), Err(DosError::FILE_NOT_FOUND), "{p:?}");
            assert_eq!(d.create(p, 0), Err(DosError::ACCESS_DENIED), "{p:?}");
            assert_eq!(d.read_file(p, 100), Err(DosError::FILE_NOT_FOUND), "{p:?}");
            assert_eq!(
                d.rename(b"PLAIN.TXT", p),
                Err(DosError::ACCESS_DENIED),
                "{p:?}"
            );
        }
        assert_eq!(find_all(&mut d, b"*.*", 0x16).unwrap(), ["PLAIN.TXT"]);
        // Even named to the host open, a FIFO is refused at once.
        assert_eq!(
            open_host(&fifo, 0, How::Open).err(),
            Some(DosError::ACCESS_DENIED)
        );
        assert_eq!(
            open_host(&fifo, 2, How::Open).err(),
            Some(DosError::ACCESS_DENIED)
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }

    /// The write quota: a write that does not fit writes what fits and
    /// returns the short count; the free space shows it; a copy that does
    /// not fit is error 27h.
    #[test]
    fn quota_makes_the_disk_full() {
        let t = Tmp::new("quota");
        let mut d = t.drive();
        d.set_quota(8192);
        let h = d.create(b"A", 0).unwrap();
        let (_, used) = d.quota();
        assert_eq!(used, ENTRY_COST);
        let big = vec![7u8; 10_000];
        let n = d.write(h, &big).unwrap();
        assert_eq!(n as u64, 8192 - ENTRY_COST);
        assert_eq!(d.write(h, b"x"), Ok(0));
        assert_eq!(d.full_writes(), 2);
        assert_eq!(d.disk_free().1, 0);
        // Writing over bytes already there needs no room.
        assert_eq!(d.seek(h, 0, 0), Ok(0));
        assert_eq!(d.write(h, b"over"), Ok(4));
        // Extending with a zero-byte write does not fit: nothing changes.
        assert_eq!(d.seek(h, 100_000, 0), Ok(100_000));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(fs::metadata(t.root.join("A")).unwrap().len(), n as u64);
        // Truncating gives the room back.
        assert_eq!(d.seek(h, 100, 0), Ok(100));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(d.write(h, b"more"), Ok(4));
        d.close(h).unwrap();
        d.delete(b"A").unwrap();
        assert_eq!(d.quota().1, 0);
        // Copy-on-write: a copy larger than the quota.
        t.put("BIG.DAT", &vec![1u8; 20_000]);
        let mut d = Drive::copy_on_write(t.root.clone(), None).unwrap();
        d.set_quota(8192);
        assert_eq!(d.open(b"BIG.DAT", 2), Err(DosError::DISK_FULL));
        let h = d.open(b"BIG.DAT", 0).unwrap();
        assert_eq!(d.read(h, 3).unwrap(), [1, 1, 1]);
        d.close(h).unwrap();
        assert_eq!(d.quota().1, 0);
    }

    /// AH=36h's free space is what is left of the quota, byte for byte
    /// (rounded down to clusters), whatever the quota: a program that
    /// checks the free space before writing gets that much written, and
    /// no more.
    #[test]
    fn free_space_is_what_the_quota_leaves() {
        let t = Tmp::new("free");
        for quota in [64u64 << 10, 1 << 20, 30 << 20, 256 << 20, 3 << 30] {
            let mut d = t.drive();
            d.set_quota(quota);
            let (spc, free, bps, total) = d.disk_free();
            let cluster = u64::from(spc) * u64::from(bps);
            let g = geometry(d.sectors());
            assert_eq!((spc, bps, total), (g.sectors_per_cluster, 512, g.clusters));
            // All of the quota free, up to what FAT16's 2 GiB can hold.
            let whole = (quota / cluster).min(u64::from(g.clusters));
            assert_eq!(u64::from(free), whole, "quota {quota}");
            if quota > 1 << 20 {
                continue;
            }
            // Write until the disk is full: exactly the free bytes fit
            // (the file's entry costs a sector of the quota).
            let h = d.create(b"FILL.DAT", 0).unwrap();
            let mut written = 0u64;
            loop {
                let n = d.write(h, &[0u8; 0xF000]).unwrap() as u64;
                written += n;
                if n < 0xF000 {
                    break;
                }
            }
            assert_eq!(written, quota - ENTRY_COST);
            assert_eq!(d.disk_free().1, 0);
            d.close(h).unwrap();
            d.delete(b"FILL.DAT").unwrap();
            assert_eq!(u64::from(d.disk_free().1), whole);
        }
    }

    /// A write the per-file size limit stops is short, as on a full disk,
    /// and counted for the run's note; one the quota stops is not counted
    /// as capped.
    #[test]
    fn the_file_size_limit_is_counted() {
        let t = Tmp::new("cap");
        let mut d = t.drive();
        d.set_max_file_size(10);
        let h = d.create(b"A", 0).unwrap();
        assert_eq!(d.write(h, b"0123456"), Ok(7));
        assert_eq!(d.capped_writes(), 0);
        assert_eq!(d.write(h, b"789ABC"), Ok(3));
        assert_eq!(d.capped_writes(), 1);
        assert_eq!(d.write(h, b"x"), Ok(0));
        assert_eq!(d.capped_writes(), 2);
        assert_eq!(d.full_writes(), 0);
        // Extending past the limit with a zero-byte write: refused, counted.
        assert_eq!(d.seek(h, 50, 0), Ok(50));
        assert_eq!(d.write(h, b""), Ok(0));
        assert_eq!(d.capped_writes(), 3);
        assert_eq!(fs::metadata(t.root.join("A")).unwrap().len(), 10);
        d.close(h).unwrap();
    }

    /// The root directory holds 512 entries (a fixed disk's FAT root, KB
    /// Q120138): the 513th file or directory is refused with error 05h,
    /// access denied, as DOS refuses a create in a full directory; a
    /// deletion makes room again. A subdirectory is not limited by it.
    #[test]
    fn the_root_directory_holds_512_entries() {
        let t = Tmp::new("root512");
        t.put("OLD.TXT", b"x");
        fs::create_dir(t.root.join("SUB")).unwrap();
        let mut d = t.drive();
        for n in 0..510u32 {
            let h = d.create(format!("F{n}.DAT").as_bytes(), 0).unwrap();
            d.close(h).unwrap();
        }
        assert_eq!(d.create(b"ONEMORE.DAT", 0), Err(DosError::ACCESS_DENIED));
        assert_eq!(
            d.create_new(b"ONEMORE.DAT", 0),
            Err(DosError::ACCESS_DENIED)
        );
        assert_eq!(d.mkdir(b"NEWDIR"), Err(DosError::ACCESS_DENIED));
        // Renaming in place takes no new entry.
        assert_eq!(d.rename(b"OLD.TXT", b"X.TXT"), Ok(()));
        assert!(!t.root.join("ONEMORE.DAT").exists());
        // Truncating an existing file takes no new entry.
        let h = d.create(b"F0.DAT", 0).unwrap();
        d.close(h).unwrap();
        // Moving a file into the full root is refused too.
        let h = d.create(b"SUB\\IN.DAT", 0).unwrap();
        d.close(h).unwrap();
        assert_eq!(
            d.rename(b"SUB\\IN.DAT", b"IN.DAT"),
            Err(DosError::ACCESS_DENIED)
        );
        // A subdirectory has room.
        for n in 0..600u32 {
            let h = d.create(format!("SUB\\G{n}.DAT").as_bytes(), 0).unwrap();
            d.close(h).unwrap();
        }
        d.delete(b"F7.DAT").unwrap();
        let h = d.create(b"ONEMORE.DAT", 0).unwrap();
        d.close(h).unwrap();
        assert_eq!(d.create(b"TWOMORE.DAT", 0), Err(DosError::ACCESS_DENIED));
    }

    /// Creating many files in one directory reads the host directory a
    /// bounded number of times, not once per file (issue 30: 100,000
    /// files slowed down quadratically), and every file made is seen by
    /// the lookups and by a search after.
    #[test]
    fn many_files_do_not_list_the_directory_each_time() {
        let t = Tmp::new("many");
        fs::create_dir(t.root.join("D")).unwrap();
        let mut d = t.drive();
        let before = d.reads();
        let n = 20_000u32;
        for k in 0..n {
            let h = d.create(format!("D\\{k:X}.DAT").as_bytes(), 0).unwrap();
            d.close(h).unwrap();
        }
        let reads = d.reads() - before;
        assert!(reads < 10, "{reads} listings for {n} files");
        assert!(d.get_attr(b"D\\4E1F.DAT").is_ok());
        d.delete(b"D\\10.DAT").unwrap();
        assert_eq!(d.get_attr(b"D\\10.DAT"), Err(DosError::FILE_NOT_FOUND));
        assert_eq!(
            find_all(&mut d, b"D\\*.*", 0).unwrap().len(),
            n as usize - 1
        );
        assert!(d.reads() - before < 20);
    }

    /// AH=5Ah takes the first free TMPnnnnn name without listing the
    /// directory again, however many names are taken.
    #[test]
    fn temporary_files_list_the_directory_once() {
        let t = Tmp::new("temp");
        fs::create_dir(t.root.join("T")).unwrap();
        for n in 0..300u32 {
            t.put(&format!("T/TMP{n:05X}"), b"");
        }
        let mut d = t.drive();
        let before = d.reads();
        let (h, path) = d.create_temp(b"T\\", 0).unwrap();
        assert_eq!(path, b"T\\TMP0012C");
        d.close(h).unwrap();
        assert!(d.reads() - before < 10, "{} listings", d.reads() - before);
        let (h, path) = d.create_temp(b"", 0).unwrap();
        assert_eq!(path, b"TMP00000");
        d.close(h).unwrap();
        assert_eq!(
            d.create_temp(b"NODIR\\", 0).err(),
            Some(DosError::PATH_NOT_FOUND)
        );
        assert!(t.root.join("T/TMP0012C").is_file());
        // Many more: each a few lookups, the directory read no more.
        let before = d.reads();
        for k in 0..3000u32 {
            let (h, path) = d.create_temp(b"T\\", 0).unwrap();
            assert_eq!(path, format!("T\\TMP{:05X}", 0x12D + k).into_bytes());
            d.close(h).unwrap();
        }
        assert!(d.reads() - before < 10, "{} listings", d.reads() - before);
    }

    /// Every escape attempt is refused with the DOS error, and nothing
    /// outside the root is created, changed or read.
    #[test]
    fn escapes_are_refused() {
        let t = Tmp::new("escape");
        fs::write(t.outer.join("SECRET.TXT"), b"secret").unwrap();
        fs::write(t.outer.join("X"), b"outside").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink("/etc", t.root.join("SYSETC")).unwrap();
            symlink(t.outer.join("SECRET.TXT"), t.root.join("LINK.TXT")).unwrap();
            symlink(&t.outer, t.root.join("OUTDIR")).unwrap();
            symlink(t.outer.join("NOWHERE"), t.root.join("DANGLE.TXT")).unwrap();
            fs::create_dir(t.root.join("IN")).unwrap();
            symlink(t.root.join("IN"), t.root.join("INLINK")).unwrap();
        }
        let mut d = t.drive();
        let climbs: [&[u8]; 7] = [
            b"..\\x",
            b"C:\\..\\x",
            b"\\..\\..\\etc\\passwd",
            b"C:/../x",
            b"..\\SECRET.TXT",
            b"IN\\..\\..\\X",
            b"/etc/passwd",
        ];
        for p in climbs {
            let e = Some(DosError::PATH_NOT_FOUND);
            assert_eq!(d.resolve(p).err(), e, "{p:?}");
            assert_eq!(d.open(p, 0).err(), e, "{p:?}");
            assert_eq!(d.create(p, 0).err(), e, "{p:?}");
            assert_eq!(d.create_new(p, 0).err(), e, "{p:?}");
            assert_eq!(d.extended_open(p, 2, 0, 0x12).err(), e, "{p:?}");
            assert_eq!(d.delete(p).err(), e, "{p:?}");
            assert_eq!(d.mkdir(p).err(), e, "{p:?}");
            assert_eq!(d.rmdir(p).err(), e, "{p:?}");
            assert_eq!(d.chdir(p).err(), e, "{p:?}");
            assert_eq!(d.get_attr(p).err(), e, "{p:?}");
            assert_eq!(d.set_attr(p, 0).err(), e, "{p:?}");
            assert_eq!(d.rename(b"NEW.TXT", p), Err(DosError::FILE_NOT_FOUND));
            assert_eq!(d.find_first(p, 0xFF).err(), Some(DosError::PATH_NOT_FOUND));
        }
        assert_eq!(d.open(b"D:\\X", 0), Err(DosError::INVALID_DRIVE));
        assert_eq!(d.resolve(b"NUL"), Ok(HostPath::Device("NUL".into())));
        assert_eq!(
            d.resolve(b"C:\\nul.txt"),
            Ok(HostPath::Device("NUL".into()))
        );
        assert_eq!(d.resolve(b"con:"), Ok(HostPath::Device("CON".into())));
        assert_eq!(d.resolve(b"clock$"), Ok(HostPath::Device("CLOCK$".into())));
        assert_eq!(
            d.resolve(b"COM5"),
            Ok(HostPath::Missing {
                host: d.root().join("COM5"),
                dos: "\\COM5".into()
            })
        );
        let h = d.create(b"NUL", 0).unwrap();
        assert_eq!(d.write(h, b"zzz"), Ok(3));
        d.close(h).unwrap();
        #[cfg(unix)]
        {
            let denied = Some(DosError::ACCESS_DENIED);
            for p in [
                &b"SYSETC\\PASSWD"[..],
                b"sysetc/passwd",
                b"OUTDIR\\SECRET.TXT",
            ] {
                assert_eq!(d.resolve(p).err(), denied, "{p:?}");
                assert_eq!(d.open(p, 0).err(), denied, "{p:?}");
                assert_eq!(d.create(p, 0).err(), denied, "{p:?}");
                assert_eq!(d.delete(p).err(), denied, "{p:?}");
            }
            for p in [&b"LINK.TXT"[..], b"DANGLE.TXT", b"SYSETC", b"OUTDIR"] {
                assert_eq!(d.resolve(p).err(), denied, "{p:?}");
                assert_eq!(d.open(p, 0).err(), denied, "{p:?}");
                assert_eq!(d.create(p, 0).err(), denied, "{p:?}");
                assert_eq!(d.create_new(p, 0).err(), denied, "{p:?}");
                assert_eq!(d.delete(p).err(), denied, "{p:?}");
                assert_eq!(d.set_attr(p, ATTR_READ_ONLY).err(), denied, "{p:?}");
                assert_eq!(d.rename(p, b"Q.TXT").err(), denied, "{p:?}");
                assert_eq!(d.chdir(p).err(), denied, "{p:?}");
            }
            assert_eq!(
                d.find_first(b"SYSETC\\*.*", 0xFF).err(),
                Some(DosError::ACCESS_DENIED)
            );
            assert_eq!(
                d.find_first(b"OUTDIR\\*.*", 0).err(),
                Some(DosError::ACCESS_DENIED)
            );
            assert_eq!(find_all(&mut d, b"*.*", 0x16).unwrap(), ["IN", "INLINK"]);
            // A link that stays inside works, and `..` is the DOS parent.
            d.chdir(b"INLINK").unwrap();
            assert_eq!(d.getcwd(), "INLINK");
            let h = d.create(b"..\\MADE.TXT", 0).unwrap();
            d.close(h).unwrap();
            assert!(t.root.join("MADE.TXT").is_file());
        }
        assert_eq!(
            Tmp::host_names(&t.outer),
            BTreeSet::from(["SECRET.TXT", "X", "root"].map(String::from))
        );
        assert_eq!(fs::read(t.outer.join("SECRET.TXT")).unwrap(), b"secret");
        assert_eq!(fs::read(t.outer.join("X")).unwrap(), b"outside");
        assert!(!t.root.join("NUL").exists() && !t.root.join("x").exists());
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        /// A fresh sandbox per case: `root` with a few entries and a link
        /// to /etc, beside a file that must stay untouched.
        fn sandbox() -> Tmp {
            let t = Tmp::new("prop");
            fs::create_dir_all(t.root.join("SUB/DEEP")).unwrap();
            t.put("A.TXT", b"a");
            t.put("SUB/B.C", b"b");
            fs::write(t.outer.join("SECRET"), b"s").unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink("/etc", t.root.join("ETC")).unwrap();
            t
        }

        fn path_bytes() -> impl Strategy<Value = Vec<u8>> {
            proptest::collection::vec(
                prop_oneof![
                    any::<u8>(),
                    proptest::sample::select(b"\\/.:cCaAsSuUbBtTxX*? nNlLeE".to_vec()),
                ],
                0..160,
            )
        }

        proptest! {
            #[test]
            fn arbitrary_paths_stay_inside(p in path_bytes(), attr in any::<u8>(), mode in any::<u8>()) {
                let t = sandbox();
                let mut d = t.drive();
                let canon_root = d.root().to_path_buf();
                let _ = d.chdir(b"SUB");
                match d.resolve(&p) {
                    Ok(HostPath::Dir { host, .. } | HostPath::File { host, .. }) => {
                        prop_assert!(host.starts_with(&canon_root));
                        let c = fs::canonicalize(&host).unwrap();
                        prop_assert!(c.starts_with(&canon_root));
                    }
                    Ok(HostPath::Missing { host, .. }) => {
                        prop_assert!(host.starts_with(&canon_root));
                        let parent = fs::canonicalize(host.parent().unwrap()).unwrap();
                        prop_assert!(parent.starts_with(&canon_root));
                    }
                    Ok(HostPath::Device(name)) => prop_assert!(DEVICES.contains(&name.as_str())),
                    Err(e) => prop_assert!([2, 3, 5, 15].contains(&e.0), "{e}"),
                }
                if let Ok(h) = d.open(&p, mode & 0x83) {
                    let _ = d.read(h, 0xFFFF);
                    d.close(h).unwrap();
                }
                if let Ok(mut st) = d.find_first(&p, attr) {
                    while Drive::find_next(&mut st).is_ok() {}
                }
                let _ = d.get_attr(&p);
                if let Ok(h) = d.create(&p, attr & 0x27) {
                    let _ = d.write(h, &p);
                    d.close(h).unwrap();
                }
                let _ = d.set_attr(&p, 0);
                let _ = d.rename(&p, b"\\SUB\\R.TXT");
                let _ = d.rename(b"A.TXT", &p);
                let _ = d.delete(&p);
                let _ = d.mkdir(&p);
                let _ = d.rmdir(&p);
                let _ = d.chdir(&p);
                let _ = d.getcwd();
                let outside: BTreeSet<String> = Tmp::host_names(&t.outer);
                prop_assert_eq!(outside, BTreeSet::from(["SECRET".to_string(), "root".to_string()]));
                prop_assert_eq!(fs::read(t.outer.join("SECRET")).unwrap(), b"s");
            }

            /// The same calls on a copy-on-write drive change nothing in
            /// the program's directory or beside it.
            #[test]
            fn copy_on_write_changes_nothing(p in path_bytes(), q in path_bytes(), attr in any::<u8>()) {
                let t = sandbox();
                let before = snapshot(&t.root);
                let mut d = Drive::copy_on_write(t.root.clone(), None).unwrap();
                let upper = d.writes_dir().to_path_buf();
                let _ = d.chdir(b"SUB");
                for (a, b) in [(&p, &q), (&q, &p)] {
                    if let Ok(h) = d.open(a, 2) {
                        let _ = d.write(h, b);
                        d.close(h).unwrap();
                    }
                    if let Ok(h) = d.create(a, attr & 0x27) {
                        let _ = d.write(h, a);
                        d.close(h).unwrap();
                    }
                    let _ = d.set_attr(a, attr & 0x27);
                    let _ = d.rename(a, b);
                    let _ = d.rename(b"\\A.TXT", a);
                    let _ = d.rename(b"\\SUB", a);
                    let _ = d.delete(a);
                    let _ = d.mkdir(a);
                    let _ = d.rmdir(a);
                    let _ = d.chdir(a);
                }
                prop_assert_eq!(snapshot(&t.root), before);
                let outside: BTreeSet<String> = Tmp::host_names(&t.outer);
                prop_assert_eq!(outside, BTreeSet::from(["SECRET".to_string(), "root".to_string()]));
                drop(d);
                prop_assert!(!upper.exists());
            }

            /// Whatever the program does to C:\WINDOWS on a read-write
            /// drive changes the drive's directory, never the Windows
            /// layer beneath it; the layer goes with the drive.
            #[test]
            fn the_windows_layer_is_never_written(
                p in prop_oneof![path_bytes(), windows_path()],
                q in prop_oneof![path_bytes(), windows_path()],
                attr in any::<u8>(),
            ) {
                let t = sandbox();
                let mut d = t.drive();
                d.add_windows_layer(None).unwrap();
                let layer = d.windows.clone().unwrap();
                let before = snapshot(&layer);
                for (a, b) in [(&p, &q), (&q, &p)] {
                    if let Ok(h) = d.open(a, 2) {
                        let _ = d.write(h, b);
                        d.close(h).unwrap();
                    }
                    if let Ok(h) = d.create(a, attr & 0x27) {
                        let _ = d.write(h, a);
                        d.close(h).unwrap();
                    }
                    let _ = d.set_attr(a, attr & 0x27);
                    let _ = d.rename(a, b);
                    let _ = d.rename(b"\\WINDOWS\\WIN.INI", a);
                    let _ = d.rename(b"\\WINDOWS", a);
                    let _ = d.delete(a);
                    let _ = d.mkdir(a);
                    let _ = d.rmdir(a);
                    let _ = d.chdir(a);
                }
                prop_assert_eq!(snapshot(&layer), before);
                drop(d);
                prop_assert!(!layer.exists());
            }
        }

        fn windows_path() -> impl Strategy<Value = Vec<u8>> {
            proptest::sample::select(vec![
                b"C:\\WINDOWS\\WIN.INI".to_vec(),
                b"\\WINDOWS\\SYSTEM.INI".to_vec(),
                b"\\WINDOWS\\SYSTEM".to_vec(),
                b"\\WINDOWS\\TEMP\\X.TMP".to_vec(),
                b"\\WINDOWS".to_vec(),
                b"WINDOWS\\NEW.INI".to_vec(),
            ])
        }
    }
}
