//! Where a DLL is found, and which system modules a file may replace.
//!
//! # The search order
//!
//! Windows 3.1 looked for a library, whether imported by a module being
//! loaded or named to LoadLibrary or LoadModule without a directory, in
//! this order (Windows 3.1 SDK, LoadLibrary and LoadModule, "Comments"):
//!
//! 1. the current directory;
//! 2. the Windows directory (here `C:\WINDOWS` on the sandboxed drive);
//! 3. the Windows system directory (`C:\WINDOWS\SYSTEM`);
//! 4. the directory of the executable file of the current task;
//! 5. the directories listed in the PATH environment variable;
//! 6. the directories mapped in a network (none here).
//!
//! [`DllSearch`] holds those directories as host paths: the first three and
//! the PATH directories resolved on the sandboxed drive (those that do not
//! exist are left out), the program's directory as the host directory it
//! was loaded from (it may lie outside the drive). The root of drive C:
//! ends the list when PATH does not name it, so a DLL put at the root of
//! `--dir` is found as before. A module loaded with no drive (the library
//! API, tests) searches the program's directory only.
//!
//! # Replacing a system module
//!
//! The modules that were in memory before any program ran were found by
//! name whatever files a program's directory held, since Windows looked a
//! module up among the loaded ones before it searched for a file: they
//! are [`CORE_MODULES`], always the built-in ones. They are KERNEL, USER
//! and GDI; the drivers KEYBOARD, SYSTEM and SOUND; WIN87EM, the
//! floating-point emulator whose fixups the loader applies; MMSYSTEM,
//! which a fresh Windows 3.1 loads as a driver at start
//! (SYSTEM.INI `[boot] drivers=mmsystem.dll`); and SHELL and COMMDLG,
//! which the shell (Program Manager, with its association and icon
//! functions and its Browse dialogs) had loaded before the user started
//! anything. Every other system DLL (DDEML, LZEXPAND, VER, TOOLHELP,
//! WINSOCK, OLECLI, OLESVR, COMMCTRL) was an ordinary library, loaded from
//! the first file of its name in the search order when a program first
//! needed it; programs shipped their own copies (VER.DLL and TOOLHELP.DLL
//! in an application's directory were common). So a file of that name in
//! one of the searched directories is loaded and run instead of the
//! built-in module, as Windows did; without one, the built-in module
//! serves.

use std::path::{Path, PathBuf};

use crate::dos::fs::Drive;

/// The system modules that are always the built-in ones (module notes).
pub const CORE_MODULES: &[&str] = &[
    "KERNEL", "USER", "GDI", "KEYBOARD", "SYSTEM", "SOUND", "WIN87EM", "MMSYSTEM", "SHELL",
    "COMMDLG",
];

/// True for a module name that is always the built-in module.
pub fn is_core(name: &str) -> bool {
    CORE_MODULES.iter().any(|c| c.eq_ignore_ascii_case(name))
}

/// The directories searched for a DLL (module notes), as host paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DllSearch {
    /// The current directory, the Windows directory and the system
    /// directory, those that exist.
    pub first: Vec<PathBuf>,
    /// The directory of the current task's executable.
    pub program_dir: Option<PathBuf>,
    /// The PATH directories that exist, then the drive's root.
    pub path: Vec<PathBuf>,
}

impl DllSearch {
    /// The search for a program `program` (a host path) run on `drive`
    /// with the environment `vars` (its PATH).
    pub fn for_drive(drive: &Drive, vars: &[(String, String)], program: &Path) -> Self {
        // Every host directory a DOS directory is made of: the drive's
        // writable layer, then its read-only ones (the Windows directory's
        // files lie in a layer beneath the program's, dosfs/windir.rs).
        let dirs = |dos: &str| drive.host_dirs(dos.as_bytes());
        let cwd = format!("\\{}", drive.getcwd());
        let first: Vec<PathBuf> = [cwd.as_str(), "C:\\WINDOWS", "C:\\WINDOWS\\SYSTEM"]
            .iter()
            .flat_map(|d| dirs(d))
            .collect();
        let mut path: Vec<PathBuf> = vars
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("PATH"))
            .map(|(_, v)| {
                v.split(';')
                    .filter(|p| !p.trim().is_empty())
                    .flat_map(|p| dirs(p.trim()))
                    .collect()
            })
            .unwrap_or_default();
        let root = drive.root().to_path_buf();
        if !path.contains(&root) {
            path.push(root);
        }
        DllSearch {
            first,
            program_dir: Some(crate::loader::directory_of(program)),
            path,
        }
    }

    /// The directories in search order, each once; `importer` stands for
    /// the program when no program directory is known.
    pub fn dirs(&self, importer: &Path) -> Vec<PathBuf> {
        let program = self
            .program_dir
            .clone()
            .unwrap_or_else(|| crate::loader::directory_of(importer));
        let mut out: Vec<PathBuf> = Vec::new();
        for d in self
            .first
            .iter()
            .chain(std::iter::once(&program))
            .chain(&self.path)
        {
            if !out.contains(d) {
                out.push(d.clone());
            }
        }
        out
    }
}

/// The file `file` (a name with its extension, any case) in `dir`.
pub fn file_in(dir: &Path, file: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir).ok().and_then(|rd| {
        rd.flatten().map(|e| e.path()).find(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|f| f.to_str())
                    .is_some_and(|f| f.eq_ignore_ascii_case(file))
        })
    })
}

/// Find `file` in the directories of `search` (module notes): the first
/// found, or the text of where it was looked for.
pub fn find(search: &DllSearch, importer: &Path, file: &str) -> Result<PathBuf, String> {
    let dirs = search.dirs(importer);
    for dir in &dirs {
        if let Some(f) = file_in(dir, file) {
            return Ok(f);
        }
    }
    let places: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    Err(format!("no {file} in {}", places.join(" or ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_windows_31s() {
        let root = std::env::temp_dir().join(format!("th16-search-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["WINDOWS/SYSTEM", "APP", "TOOLS", "CUR"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        let mut drive = Drive::new(root.clone()).unwrap();
        drive.chdir(b"\\CUR").unwrap();
        let vars = vec![("PATH".to_string(), "C:\\TOOLS;C:\\MISSING".to_string())];
        let s = DllSearch::for_drive(&drive, &vars, &root.join("APP").join("X.EXE"));
        let names: Vec<String> = s
            .dirs(Path::new("ignored"))
            .iter()
            .map(|d| {
                d.strip_prefix(&root)
                    .unwrap()
                    .display()
                    .to_string()
                    .to_ascii_uppercase()
            })
            .collect();
        assert_eq!(
            names,
            ["CUR", "WINDOWS", "WINDOWS/SYSTEM", "APP", "TOOLS", ""]
        );
        // The first directory holding the file wins.
        std::fs::write(root.join("TOOLS/a.dll"), b"t").unwrap();
        std::fs::write(root.join("APP/A.DLL"), b"a").unwrap();
        assert_eq!(
            find(&s, Path::new("x"), "A.DLL").unwrap(),
            root.join("APP/A.DLL")
        );
        std::fs::write(root.join("WINDOWS/SYSTEM/A.DLL"), b"s").unwrap();
        assert_eq!(
            find(&s, Path::new("x"), "a.dll").unwrap(),
            root.join("WINDOWS/SYSTEM/A.DLL")
        );
        let e = find(&s, Path::new("x"), "B.DLL").unwrap_err();
        assert!(e.starts_with("no B.DLL in "), "{e}");
        std::fs::remove_dir_all(&root).unwrap();
        assert!(is_core("gdi") && is_core("WIN87EM") && is_core("commdlg") && !is_core("VER"));
    }
}
