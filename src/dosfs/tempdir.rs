//! The private directories of overlays' writes in the system's
//! temporary directory, and the sweep of those that runs killed before
//! they could remove them left behind.

use std::fs;
use std::io;
use std::path::PathBuf;

/// The name prefix of an overlay's private directory in the system's
/// temporary directory: `toolhelp16-writes-PID-N`.
const WRITES_PREFIX: &str = "toolhelp16-writes-";

/// Remove the overlay directories in `base` that a run killed before it
/// could remove them left behind: those named [`WRITES_PREFIX`]`PID-N`
/// whose process `PID` no longer runs, and only this user's. Where it
/// cannot be told whether a process runs (no `/proc`), nothing is removed.
/// Returns how many were removed.
fn sweep_stale_writes(base: &std::path::Path) -> usize {
    if !std::path::Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(entries) = fs::read_dir(base) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(WRITES_PREFIX)) else {
            continue;
        };
        let Some((pid, n)) = rest.split_once('-') else {
            continue;
        };
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 10 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(pid) || !digits(n) || u64::from(std::process::id()).to_string() == pid {
            continue;
        }
        if std::path::Path::new("/proc").join(pid).exists() {
            continue;
        }
        let path = e.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let mine = fs::symlink_metadata("/proc/self").map(|m| m.uid());
            if mine.ok() != Some(meta.uid()) {
                continue;
            }
        }
        if meta.is_dir() && fs::remove_dir_all(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// A fresh private directory for an overlay's writes. The first time in
/// a process, the directories of earlier runs that were killed before
/// they could clean up are removed ([`sweep_stale_writes`]).
pub(super) fn temporary_dir() -> io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let base = std::env::temp_dir();
    SWEPT.call_once(|| {
        sweep_stale_writes(&base);
    });
    for _ in 0..100 {
        let p = base.join(format!(
            "{WRITES_PREFIX}{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let mut b = fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        match b.create(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free temporary directory name"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_overlay_directories_of_dead_runs_are_swept() {
        let base = std::env::temp_dir().join(format!("th16-sweep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).unwrap();
        // A process id past Linux's largest pid_max (2^22) never runs.
        let dead = base.join(format!("{WRITES_PREFIX}99999999-0"));
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join("FILE.TXT"), b"x").unwrap();
        // This process's own, a running process's (pid 1), and names
        // that are not the pattern stay.
        let own = base.join(format!("{WRITES_PREFIX}{}-7", std::process::id()));
        let init = base.join(format!("{WRITES_PREFIX}1-0"));
        let other = base.join(format!("{WRITES_PREFIX}99999999-x"));
        let file = base.join(format!("{WRITES_PREFIX}99999998-0"));
        for d in [&own, &init, &other] {
            fs::create_dir(d).unwrap();
        }
        fs::write(&file, b"not a directory").unwrap();
        assert_eq!(sweep_stale_writes(&base), 1);
        assert!(!dead.exists());
        for p in [&own, &init, &other, &file] {
            assert!(p.exists(), "{}", p.display());
        }
        fs::remove_dir_all(&base).unwrap();
    }
}
