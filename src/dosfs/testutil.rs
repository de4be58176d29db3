//! Test helpers of the drive's tests: a temporary sandbox directory.

use super::{ATTR_HIDDEN, DosError, Drive, Path, PathBuf, fs};
pub(super) use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A temp directory `outer` holding the sandbox `outer/root`; removed
/// on drop.
pub(super) struct Tmp {
    pub(super) outer: PathBuf,
    pub(super) root: PathBuf,
}

impl Tmp {
    pub(super) fn new(tag: &str) -> Tmp {
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

    pub(super) fn drive(&self) -> Drive {
        Drive::new(self.root.clone()).unwrap()
    }

    pub(super) fn put(&self, rel: &str, data: &[u8]) {
        fs::write(self.root.join(rel), data).unwrap();
    }

    pub(super) fn host_names(dir: &Path) -> BTreeSet<String> {
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

pub(super) fn find_all(d: &mut Drive, pat: &[u8], attr: u8) -> Result<Vec<String>, DosError> {
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

/// Every file's name, size and bytes, and every directory, under `p`.
pub(super) fn snapshot(p: &Path) -> Vec<(String, Vec<u8>)> {
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

/// A drive over a small tree for the find first/next tests.
pub(super) fn find_tree(t: &Tmp) -> Drive {
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
