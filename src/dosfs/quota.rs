//! The write quota and the file size limit, and the list of changes a run
//! made to the drive (its report).

use super::{Drive, disk_free, drive_sectors, fmt};

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
pub(super) const ENTRY_COST: u64 = 512;

impl Drive {
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

    pub(super) fn room(&self) -> u64 {
        self.quota.saturating_sub(self.used)
    }

    /// Take `bytes` of the quota; false (nothing taken) when they do not
    /// fit.
    pub(super) fn charge(&mut self, bytes: u64) -> bool {
        if bytes > self.room() {
            return false;
        }
        self.used += bytes;
        true
    }

    pub(super) fn refund(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }

    pub(super) fn note(&mut self, kind: ChangeKind, dos: &str, to: Option<&str>) {
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
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{DosError, fs, geometry};
    use super::*;

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
}
