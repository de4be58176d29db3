//! The sandbox's security rules: how a DOS path is split, resolved and
//! confined to the drive's directory, which host entries DOS may see, and
//! how host files are opened (regular files only, never blocking).

use super::{
    DirAt, DosError, Drive, Entry, File, HostPath, MAX_PATH, Metadata, OpenOptions, OsString, Path,
    PathBuf, device_name, dos_name, fs, io, listing,
};

pub(super) fn host_err(e: &io::Error) -> DosError {
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
pub(super) fn open_regular(o: &mut OpenOptions, host: &Path) -> io::Result<File> {
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
pub(super) fn links(md: &Metadata) -> u64 {
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
pub(super) fn plain_entry(e: &fs::DirEntry) -> bool {
    match e.file_type() {
        Ok(t) if t.is_file() || t.is_dir() => true,
        Ok(t) if t.is_symlink() => match fs::metadata(e.path()) {
            Ok(md) => md.is_file() || md.is_dir(),
            Err(_) => true,
        },
        _ => false,
    }
}

/// What a DOS path names, for the functions that change things.
pub(super) enum Place {
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

pub(super) fn set_read_only(host: &Path, on: bool) -> Result<(), DosError> {
    let md = fs::metadata(host).map_err(|e| host_err(&e))?;
    let mut perm = md.permissions();
    if perm.readonly() != on {
        #[allow(clippy::permissions_set_readonly_false)]
        perm.set_readonly(on);
        fs::set_permissions(host, perm).map_err(|_| DosError::ACCESS_DENIED)?;
    }
    Ok(())
}

impl Drive {
    /// Split a DOS path into resolved directory components (upper-case 8.3,
    /// `.`/`..` applied) and the raw final component, if any.
    pub(super) fn split(&self, path: &[u8]) -> Result<(Vec<String>, Option<Vec<u8>>), DosError> {
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
    pub(super) fn confine(layer: &Path, p: &Path) -> Result<PathBuf, DosError> {
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
    pub(super) fn list(&self, dir: &Path) -> Result<Vec<(String, OsString)>, DosError> {
        self.listings.borrow_mut().list(dir)
    }

    /// The host name of the entry `name` (upper-case 8.3) in `dir`.
    pub(super) fn lookup(&self, dir: &Path, name: &str) -> Result<Option<OsString>, DosError> {
        self.listings.borrow_mut().lookup(dir, name)
    }

    /// Host directories read so far (what path lookups cost).
    #[cfg(test)]
    pub(super) fn reads(&self) -> u64 {
        self.listings.borrow().reads
    }

    /// The drive made host entry `path` (a file or directory).
    pub(super) fn made(&self, path: &Path) {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            self.listings.borrow_mut().added(dir, name);
        }
    }

    /// The drive removed host entry `path`.
    pub(super) fn unmade(&self, path: &Path) {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            self.listings.borrow_mut().removed(dir, name);
        }
    }

    /// Forget what was read of the host directories (after a change not
    /// followed entry by entry: a rename, a directory removed).
    pub(super) fn forget_listings(&self) {
        self.listings.borrow_mut().forget();
    }

    /// Error 5 when DOS directory `dir` is full: 512 entries in the root,
    /// 65,534 in any other (listing.rs, "The FAT limits").
    pub(super) fn room_in(&self, dir: &DirAt) -> Result<(), DosError> {
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
    pub(super) fn counted(&self, comps: &[String], gained: bool) {
        self.listings.borrow_mut().count_changed(comps, gained);
    }

    pub(super) fn dos_string(comps: &[String]) -> String {
        format!("\\{}", comps.join("\\"))
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
    pub(super) fn place(&self, dos_path: &[u8]) -> Result<Place, DosError> {
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
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{ATTR_ARCHIVE, ATTR_READ_ONLY, DEVICES, How, open_host};
    use super::*;

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
