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

mod checkpoint;
mod datetime;
mod find;
mod geometry;
mod handles;
mod listing;
mod names;
mod overlay;
mod process;
mod quota;
mod sandbox;
mod tempdir;
#[cfg(test)]
mod testutil;
pub mod windir;

pub use checkpoint::DriveFiles;
pub use datetime::*;
pub use find::*;
pub use geometry::*;
use handles::*;
pub use names::*;
use overlay::*;
pub use quota::*;
use sandbox::*;

use std::collections::{HashMap, HashSet, VecDeque};
use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, SeekFrom};
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

/// The sandboxed drive C:.
#[derive(Debug, Clone)]
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
    /// Shared by the drive and its clones (a debugger's checkpoints,
    /// checkpoint.rs): the last one dropped removes the temporary
    /// directories.
    owner: std::rc::Rc<()>,
    /// The time DOS stamps what the program creates or writes with, when
    /// its clock is fixed (`--clock`): DOS gives a file it creates,
    /// writes or closes after writing the current date and time of its
    /// clock (MS-DOS Programmer's Reference: INT 21h 3Ch, 40h, 3Eh; AX=
    /// 5700h reads them back), and the host's own time would make the
    /// run differ from one replay to the next. None: the host's clock,
    /// which the host already stamps with.
    stamp: Option<std::time::SystemTime>,
}

impl Drop for Drive {
    fn drop(&mut self) {
        if std::rc::Rc::strong_count(&self.owner) > 1 {
            return;
        }
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
            stamp: None,
            owner: std::rc::Rc::new(()),
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

    /// Is the given directory read-only, its writes going to an overlay?
    pub fn is_copy_on_write(&self) -> bool {
        self.overlay.is_some()
    }

    /// Is the overlay a temporary directory (its writes discarded)?
    pub fn discards_writes(&self) -> bool {
        self.overlay.as_ref().is_some_and(|o| o.temporary)
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

    /// Stamp what the program creates or writes from now on with `t`
    /// (the fixed clock's time, [`Drive`]'s `stamp`), or with the host's
    /// time (None, the default).
    pub fn set_stamp(&mut self, t: Option<std::time::SystemTime>) {
        self.stamp = t;
    }

    /// Give the host file or directory at `host` the stamp's time, when
    /// there is one (best effort: a time the host refuses leaves its own).
    pub(crate) fn stamp_path(&self, host: &Path) {
        if let Some(t) = self.stamp {
            if let Ok(f) = fs::File::open(host) {
                let _ = f.set_modified(t);
            }
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
        let made = self.upper_dir(&comps)?;
        self.stamp_path(&made);
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
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

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
}
