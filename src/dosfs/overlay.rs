//! The layers of the drive: the copy-on-write overlay over a read-only
//! directory, the Windows directory's layer beneath, whiteouts, and
//! copying a file or tree up to the writable layer.

use super::{
    DosError, Drive, ENTRY_COST, How, OpenOptions, Path, PathBuf, fs, io, open_host, open_regular,
    set_read_only,
};
use std::io::Read;

/// The copy-on-write layer of a drive whose directory is read-only.
#[derive(Clone, Debug)]
pub(super) struct Overlay {
    /// Where the program's writes go (canonical).
    pub(super) upper: PathBuf,
    /// `upper` is a temporary directory, removed with the drive.
    pub(super) temporary: bool,
}

/// A DOS directory on the layers: its host directory on the writable
/// layer and on each read-only one where it exists there, as (the layer's
/// index in [`Drive::lower_roots`], host directory), the first layer
/// first.
#[derive(Debug, Clone)]
pub(super) struct DirAt {
    pub(super) comps: Vec<String>,
    pub(super) upper: Option<PathBuf>,
    pub(super) lower: Vec<(usize, PathBuf)>,
}

/// An entry of a [`DirAt`].
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// Its host path (not canonicalised: a symlink stays one).
    pub(super) host: PathBuf,
    /// It lies on the writable layer.
    pub(super) upper: bool,
    /// The read-only layer it lies on (an index in
    /// [`Drive::lower_roots`]; 0 when `upper`).
    pub(super) layer: usize,
    /// It is a directory.
    pub(super) dir: bool,
}

impl Drive {
    /// The read-only layers, the first hiding the next: the given
    /// directory on a copy-on-write drive, then the Windows directory's
    /// layer.
    pub(super) fn lower_roots(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = Vec::new();
        if self.overlay.is_some() {
            v.push(&self.root);
        }
        if let Some(w) = &self.windows {
            v.push(w);
        }
        v
    }

    /// Is the read-only entry at `comps` hidden (it, or a directory above
    /// it, was deleted or renamed away)?
    pub(super) fn hidden(&self, comps: &[String]) -> bool {
        !self.whiteouts.is_empty()
            && (1..=comps.len()).any(|n| self.whiteouts.contains(&Self::dos_string(&comps[..n])))
    }

    pub(super) fn hide(&mut self, comps: &[String]) {
        let dos = Self::dos_string(comps);
        self.whiteouts.insert(dos);
    }

    /// Does a read-only layer of `dir` hold `name` (not hidden)?
    pub(super) fn in_lower(&self, dir: &DirAt, name: &str) -> bool {
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
    pub(super) fn entry(&self, dir: &DirAt, name: &str) -> Result<Option<Entry>, DosError> {
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
    pub(super) fn walk(&self, comps: &[String]) -> Result<DirAt, DosError> {
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
    pub(super) fn listing(&self, dir: &DirAt) -> Result<Vec<(String, Entry)>, DosError> {
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
    pub(super) fn upper_dir(&mut self, comps: &[String]) -> Result<PathBuf, DosError> {
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
    pub(super) fn copy_file_up(&mut self, from: &Path, to: &Path) -> Result<(), DosError> {
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
    pub(super) fn tree_cost(&self, from: &DirAt) -> Result<u64, DosError> {
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
    pub(super) fn copy_tree_up(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
        if self.tree_cost(from)? > self.room() {
            return Err(DosError::DISK_FULL);
        }
        self.move_tree(from, to)
    }

    pub(super) fn move_tree(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
        let r = self.move_tree_entries(from, to);
        self.forget_listings();
        r
    }

    pub(super) fn move_tree_entries(&mut self, from: &DirAt, to: &Path) -> Result<(), DosError> {
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
    pub(super) fn writable(
        &mut self,
        comps: &[String],
        name: &str,
        e: &Entry,
    ) -> Result<PathBuf, DosError> {
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
}

#[cfg(test)]
mod tests {
    use super::super::ATTR_DIRECTORY;
    use super::super::testutil::*;
    use super::*;

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
}
