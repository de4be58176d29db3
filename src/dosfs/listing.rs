//! What DOS sees of the host directories, read once and kept: the
//! directory cache that keeps a path lookup from reading the whole host
//! directory again, and the count of entries each DOS directory holds,
//! for the FAT limits on them.
//!
//! **Why.** Each lookup of a name used to list its host directory: a
//! program creating n files in one directory paid n listings of up to n
//! entries, O(n²) (issue 30: creating 100,000 files slowed down
//! quadratically). Now a host directory is read once into a sorted map of
//! DOS names; the drive's own changes (a file or directory made, a file
//! deleted) update the map in place, and the rest (renames, directory
//! removals, moves of trees) drop the whole cache. A lookup costs a `stat`
//! of the directory and a map lookup.
//!
//! **Changes from outside.** Each cached directory keeps the host
//! directory's modification time when it was read (or last updated by the
//! drive); a lookup finding another time reads the directory again. A
//! change by another host process within the same tick of the file
//! system's clock as the drive's own last change goes unseen until the
//! next one.
//!
//! **The FAT limits** (Microsoft's FAT specification, "FAT Directory
//! Structure"; KB Q120138): a FAT12/16 root directory has a fixed number
//! of entries, 512 on a fixed disk ([`ROOT_ENTRIES`], the geometry's
//! `root_entries`); any other directory holds at most 65,536 32-byte
//! entries, two of them `.` and `..` ([`SUBDIR_ENTRIES`]). DOS refuses a
//! new entry in a full directory with error 05h, access denied (INT 21h
//! AH=3Ch, 39h, 5Bh, 56h: Ralf Brown's list gives 05h for "directory
//! full"). The counts of DOS directories (every layer's visible entries)
//! are counted once by listing and then kept by the drive's changes.

use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{DosError, MAX_SCAN, plain_entry, visible_name};

/// Entries of the root directory of a fixed disk (FORMAT's 512).
pub const ROOT_ENTRIES: usize = 512;
/// Entries of any other directory besides `.` and `..`.
pub const SUBDIR_ENTRIES: usize = 65_536 - 2;

/// Host directories kept at most; past it the cache starts again.
const MAX_DIRS: usize = 4096;

/// One host directory as DOS sees it.
#[derive(Clone, Debug)]
struct Listed {
    /// The directory's modification time when read or last updated.
    mtime: Option<SystemTime>,
    /// DOS name -> the host names that have it, sorted (the first is
    /// the one DOS sees: names differing only in case pick one
    /// deterministically).
    names: BTreeMap<String, Vec<OsString>>,
}

/// The cache of host directories and of DOS directories' entry counts.
#[derive(Clone, Debug, Default)]
pub struct Listings {
    dirs: HashMap<PathBuf, Listed>,
    /// DOS directory (its components) -> visible entries on all layers.
    counts: HashMap<Vec<String>, usize>,
    /// Host directories read (what lookups cost; tests look at it).
    pub reads: u64,
}

fn key(dir: &Path) -> PathBuf {
    fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

fn mtime(dir: &Path) -> Option<SystemTime> {
    fs::metadata(dir).ok()?.modified().ok()
}

impl Listings {
    /// Call `f` with the DOS names of host directory `dir` (read it when
    /// not kept or changed from outside). Error 3 when it cannot be read.
    fn with<R>(
        &mut self,
        dir: &Path,
        f: impl FnOnce(&BTreeMap<String, Vec<OsString>>) -> R,
    ) -> Result<R, DosError> {
        let k = key(dir);
        let now = mtime(&k);
        if let Some(l) = self.dirs.get(&k) {
            if now.is_some() && l.mtime == now {
                return Ok(f(&l.names));
            }
            // Changed from outside: the counts built on it may be wrong.
            self.counts.clear();
        }
        let rd = fs::read_dir(&k).map_err(|_| DosError::PATH_NOT_FOUND)?;
        self.reads += 1;
        let mut names: BTreeMap<String, Vec<OsString>> = BTreeMap::new();
        for e in rd.take(MAX_SCAN).filter_map(Result::ok) {
            let host = e.file_name();
            if let Some(name) = visible_name(&host) {
                if plain_entry(&e) {
                    names.entry(name).or_default().push(host);
                }
            }
        }
        for v in names.values_mut() {
            v.sort();
        }
        if self.dirs.len() >= MAX_DIRS {
            self.dirs.clear();
        }
        let r = f(&names);
        self.dirs.insert(k, Listed { mtime: now, names });
        Ok(r)
    }

    /// The DOS-visible entries of `dir` as (DOS name, host name), sorted
    /// by DOS name, one per DOS name.
    pub fn list(&mut self, dir: &Path) -> Result<Vec<(String, OsString)>, DosError> {
        self.with(dir, |m| {
            m.iter()
                .filter_map(|(n, hs)| Some((n.clone(), hs.first()?.clone())))
                .collect()
        })
    }

    /// The host name of entry `name` (upper-case 8.3) of `dir`.
    pub fn lookup(&mut self, dir: &Path, name: &str) -> Result<Option<OsString>, DosError> {
        self.with(dir, |m| m.get(name).and_then(|hs| hs.first().cloned()))
    }

    /// The drive made `host` in `dir`.
    pub fn added(&mut self, dir: &Path, host: &OsStr) {
        let k = key(dir);
        let now = mtime(&k);
        if let Some(l) = self.dirs.get_mut(&k) {
            if let Some(name) = visible_name(host) {
                let v = l.names.entry(name).or_default();
                if let Err(i) = v.binary_search_by(|h| h.as_os_str().cmp(host)) {
                    v.insert(i, host.to_os_string());
                }
            }
            l.mtime = now;
        }
    }

    /// The drive removed `host` from `dir`.
    pub fn removed(&mut self, dir: &Path, host: &OsStr) {
        let k = key(dir);
        let now = mtime(&k);
        if let Some(l) = self.dirs.get_mut(&k) {
            if let Some(name) = visible_name(host) {
                if let Some(v) = l.names.get_mut(&name) {
                    v.retain(|h| h != host);
                    if v.is_empty() {
                        l.names.remove(&name);
                    }
                }
            }
            l.mtime = now;
        }
    }

    /// Drop everything kept (after a change not followed entry by entry).
    pub fn forget(&mut self) {
        self.dirs.clear();
        self.counts.clear();
    }

    /// The kept count of DOS directory `comps`, if counted.
    pub fn count(&self, comps: &[String]) -> Option<usize> {
        self.counts.get(comps).copied()
    }

    /// Keep the count of DOS directory `comps`.
    pub fn set_count(&mut self, comps: &[String], n: usize) {
        if self.counts.len() >= MAX_DIRS {
            self.counts.clear();
        }
        self.counts.insert(comps.to_vec(), n);
    }

    /// DOS directory `comps` gained (`+1`) or lost (`-1`) an entry.
    pub fn count_changed(&mut self, comps: &[String], gained: bool) {
        if let Some(n) = self.counts.get_mut(comps) {
            *n = if gained { *n + 1 } else { n.saturating_sub(1) };
        }
    }
}

/// The most entries DOS directory `comps` may hold.
pub fn limit(comps: &[String]) -> usize {
    if comps.is_empty() {
        ROOT_ENTRIES
    } else {
        SUBDIR_ENTRIES
    }
}
