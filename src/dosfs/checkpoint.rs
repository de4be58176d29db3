//! The drive's files in a checkpoint (the debugger's checkpoints,
//! src/debug/checkpoint.rs): what the program wrote lives on the host's
//! disk, in the overlay's writable directory, so a checkpoint of a run
//! keeps a copy of that directory's files and a restore puts them back.
//!
//! Only a copy-on-write drive (the overlay, the default without `--dir`)
//! is saved: its writable directory holds everything the program changed,
//! bounded by the disk quota. A drive over the user's own directory
//! (`--dir`) is the user's files, which a restore does not rewrite (the
//! debugger's replays never did either; debug/mod.rs, "Reverse
//! execution").
//!
//! A file's contents are shared with the previous checkpoint's when they
//! are the same bytes, so checkpoints of a program that writes little
//! cost little. The drive's state in memory (handles, searches, the
//! quota's count) is cloned with the environment; its open files share
//! their host file with the drive they were cloned from and are opened
//! again, by their host path, when the checkpoint is restored.

use super::{Drive, File, HashMap, How, Node, Path, PathBuf, SystemTime, fs, io, open_host};
use std::io::Write;
use std::rc::Rc;

/// Entries of the writable directory a checkpoint keeps at most.
const MAX_ENTRIES: usize = 1 << 16;

/// The writable layer's files at a checkpoint.
#[derive(Clone, Debug, Default)]
pub struct DriveFiles {
    /// Paths relative to the writable directory, parents before their
    /// children.
    entries: Vec<(PathBuf, Saved)>,
    /// Bytes of contents not shared with the checkpoint saved before.
    fresh: u64,
}

#[derive(Clone, Debug)]
enum Saved {
    Dir,
    File {
        data: Rc<Vec<u8>>,
        modified: Option<SystemTime>,
        read_only: bool,
    },
}

impl DriveFiles {
    /// Bytes this checkpoint's files added to those of the one before.
    pub fn fresh_bytes(&self) -> u64 {
        self.fresh
    }
}

fn too_many() -> io::Error {
    io::Error::other(format!(
        "the drive's writable directory holds more than {MAX_ENTRIES} entries"
    ))
}

impl Drive {
    /// The files of the writable layer of a copy-on-write drive (None for
    /// a drive over the user's own directory), sharing contents that are
    /// the same as in `prev`.
    pub fn save_files(&self, prev: Option<&DriveFiles>) -> io::Result<Option<DriveFiles>> {
        let Some(o) = &self.overlay else {
            return Ok(None);
        };
        let before: HashMap<&Path, &Rc<Vec<u8>>> = prev
            .map(|p| {
                p.entries
                    .iter()
                    .filter_map(|(path, s)| match s {
                        Saved::File { data, .. } => Some((path.as_path(), data)),
                        Saved::Dir => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut out = DriveFiles::default();
        let mut todo = vec![PathBuf::new()];
        while let Some(rel) = todo.pop() {
            let mut names: Vec<_> = fs::read_dir(o.upper.join(&rel))?
                .map(|e| e.map(|e| e.file_name()))
                .collect::<Result<_, _>>()?;
            names.sort();
            for name in names {
                let rel = rel.join(name);
                let host = o.upper.join(&rel);
                let md = fs::symlink_metadata(&host)?;
                if out.entries.len() >= MAX_ENTRIES {
                    return Err(too_many());
                }
                if md.is_dir() {
                    out.entries.push((rel.clone(), Saved::Dir));
                    todo.push(rel);
                } else if md.is_file() {
                    let bytes = fs::read(&host)?;
                    let data = match before.get(rel.as_path()) {
                        Some(d) if d.as_slice() == bytes.as_slice() => Rc::clone(d),
                        _ => {
                            out.fresh += bytes.len() as u64;
                            Rc::new(bytes)
                        }
                    };
                    out.entries.push((
                        rel,
                        Saved::File {
                            data,
                            modified: md.modified().ok(),
                            read_only: md.permissions().readonly(),
                        },
                    ));
                }
            }
        }
        Ok(Some(out))
    }

    /// Put the writable layer back as `files` saved it, and open the
    /// drive's open files again (this drive is the checkpoint's clone).
    pub fn restore_files(&mut self, files: Option<&DriveFiles>) -> io::Result<()> {
        if let (Some(o), Some(files)) = (&self.overlay, files) {
            for e in fs::read_dir(&o.upper)? {
                let e = e?;
                let path = e.path();
                if e.file_type()?.is_dir() {
                    fs::remove_dir_all(&path)?;
                } else {
                    fs::remove_file(&path)?;
                }
            }
            for (rel, s) in &files.entries {
                let host = o.upper.join(rel);
                match s {
                    Saved::Dir => fs::create_dir(&host)?,
                    Saved::File {
                        data,
                        modified,
                        read_only,
                    } => {
                        let f = File::create(&host)?;
                        (&f).write_all(data)?;
                        if let Some(t) = modified {
                            f.set_modified(*t)?;
                        }
                        drop(f);
                        if *read_only {
                            let mut p = fs::metadata(&host)?.permissions();
                            p.set_readonly(true);
                            fs::set_permissions(&host, p)?;
                        }
                    }
                }
            }
        }
        for s in self.sft.iter_mut().flatten() {
            if let Node::File(f) = &mut s.node {
                f.file = Rc::new(open_host(&f.host, f.access, How::Open).map_err(|e| {
                    io::Error::other(format!(
                        "{}: cannot be opened again ({e:?})",
                        f.host.display()
                    ))
                })?);
            }
        }
        // The directory cache (listing.rs) reads a directory again when
        // its modification time changed, as every one restored has.
        Ok(())
    }
}
