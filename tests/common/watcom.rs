//! Building test programs with Open Watcom C/C++ 2.0 (16-bit), the real
//! Win16 and DOS toolchain beside the project at
//! `../shared/toolchains/openwatcom` (its README gives the commands).
//!
//! The C sources live in `tests/watcom/`; what the toolchain makes goes to
//! a directory of its own under cargo's scratch directory for integration
//! tests, so nothing it writes enters the repository. Each test builds its
//! own program (`wcl` takes a few milliseconds).
//!
//! When the toolchain is absent (a checkout outside this workplace) the
//! build is a visible skip and returns None; under CI (`CI` set), where
//! `../shared` is always present, an absent toolchain is a failure
//! (need.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Win16 application (`wcl -bt=windows -l=windows`).
    Win16Exe,
    /// A Win16 DLL (`wcl -bt=windows -l=windows_dll -bd`).
    Win16Dll,
    /// A DOS .EXE (`wcl -bt=dos -l=dos`).
    DosExe,
    /// A DOS .COM (`wcl -bt=dos -l=com -mt`).
    DosCom,
}

/// The toolchain's directory, or None (a visible skip) when it is absent;
/// panics when it is absent under CI.
pub fn toolchain() -> Option<PathBuf> {
    let mut tries = vec![super::root().join("../shared/toolchains/openwatcom")];
    if let Some(v) = std::env::var_os("TOOLHELP16_WATCOM") {
        tries.insert(0, PathBuf::from(v));
    }
    tries.push(PathBuf::from("/work/shared/toolchains/openwatcom"));
    let found = tries
        .into_iter()
        .find(|p| p.join("binl").join("wcl").is_file());
    if found.is_none() {
        super::need::shared_missing("the Open Watcom toolchain (../shared/toolchains/openwatcom)");
    }
    found
}

/// A source file in `tests/watcom/`.
pub fn source(name: &str) -> PathBuf {
    super::root().join("tests").join("watcom").join(name)
}

/// The 1-based line of `tests/watcom/<file>` holding the comment
/// `/* MARKER */` (exactly one line must).
pub fn line_of(file: &str, marker: &str) -> u32 {
    let text = std::fs::read_to_string(source(file)).unwrap();
    let hits: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&format!("/* {marker} */")))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "{file}: marker {marker}");
    hits[0] as u32
}

/// A fresh directory for one build named `name`: unique to this process
/// and this build, so tests running in parallel that build the same
/// program never share one.
fn out_dir(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static BUILDS: AtomicU32 = AtomicU32::new(0);
    let n = BUILDS.fetch_add(1, Ordering::Relaxed);
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("watcom")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tool(wat: &Path, name: &str, dir: &Path) -> Command {
    let mut c = Command::new(wat.join("binl").join(name));
    c.current_dir(dir)
        .env("WATCOM", wat)
        .env(
            "PATH",
            format!(
                "{}:{}",
                wat.join("binl").display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env(
            "INCLUDE",
            format!(
                "{}:{}",
                wat.join("h").display(),
                wat.join("h/win").display()
            ),
        );
    c
}

fn check(what: &str, out: std::process::Output) {
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Build `sources` (files in `tests/watcom/`) into `<name>.exe` (or `.dll`,
/// `.com`) with the given extra compiler flags (`-ml` is the default
/// memory model for Win16 and DOS .EXEs; a flag `-m?` replaces it), then
/// bind the resource script `rc` (a file in `tests/watcom/`) into it when
/// given. Returns the program's path in a fresh directory of its own, or
/// None when the toolchain is absent (see [`toolchain`]).
pub fn build(
    name: &str,
    kind: Kind,
    sources: &[&str],
    rc: Option<&str>,
    flags: &[&str],
) -> Option<PathBuf> {
    let wat = toolchain()?;
    let dir = out_dir(name);
    let ext = match kind {
        Kind::Win16Exe | Kind::DosExe => "exe",
        Kind::Win16Dll => "dll",
        Kind::DosCom => "com",
    };
    let out = dir.join(format!("{}.{ext}", name.to_ascii_uppercase()));
    let mut c = tool(&wat, "wcl", &dir);
    c.arg("-q");
    match kind {
        Kind::Win16Exe => c.args(["-bt=windows", "-l=windows"]),
        Kind::Win16Dll => c.args(["-bt=windows", "-l=windows_dll", "-bd"]),
        Kind::DosExe => c.args(["-bt=dos", "-l=dos"]),
        Kind::DosCom => c.args(["-bt=dos", "-l=com", "-mt"]),
    };
    if kind != Kind::DosCom && !flags.iter().any(|f| f.starts_with("-m")) {
        c.arg("-ml");
    }
    c.args(flags);
    c.arg(format!("-fe={}", out.display()));
    for s in sources {
        c.arg(source(s));
    }
    check(&format!("wcl {name}"), c.output().unwrap());
    if let Some(rc) = rc {
        let mut r = tool(&wat, "wrc", &dir);
        // The compiled .RES goes beside the program, not beside the
        // script (which is in the repository).
        r.args(["-q", "-bt=windows"])
            .arg(format!("-fo={}", dir.join(format!("{name}.res")).display()))
            .arg(source(rc))
            .arg(&out);
        check(&format!("wrc {name}"), r.output().unwrap());
    }
    Some(out)
}

/// A DOS .EXE with CodeView 4 debug information: each of `sources` (in
/// `tests/watcom/`) compiled by `wcc -d2 -hc` with `flags`, then linked by
/// `wlink debug codeview all` (wcl would run CVPACK after, which the
/// toolchain lacks; wlink's own output is CodeView 4, signature NB05).
pub fn dos_codeview(name: &str, sources: &[&str], flags: &[&str]) -> Option<PathBuf> {
    let wat = toolchain()?;
    let dir = out_dir(name);
    let out = dir.join(format!("{}.exe", name.to_ascii_uppercase()));
    let mut objs = Vec::new();
    for s in sources {
        let obj = dir.join(format!("{}.obj", s.trim_end_matches(".c")));
        let mut c = tool(&wat, "wcc", &dir);
        c.args(["-q", "-bt=dos", "-d2", "-hc"])
            .args(flags)
            .arg(format!("-fo={}", obj.display()))
            .arg(source(s));
        check(&format!("wcc {s}"), c.output().unwrap());
        objs.push(obj.display().to_string());
    }
    let mut l = tool(&wat, "wlink", &dir);
    l.args([
        "op", "q", "system", "dos", "debug", "codeview", "all", "name",
    ])
    .arg(&out)
    .arg("file")
    .arg(objs.join(","));
    check(&format!("wlink {name}"), l.output().unwrap());
    Some(out)
}

/// A TOOLHELP client: `tests/watcom/name.c` built as a small-model
/// Win16 program linked with TOOLHELP's import library.
pub fn toolhelp_client(name: &str) -> Option<PathBuf> {
    build(
        name,
        Kind::Win16Exe,
        &[&format!("{name}.c")],
        None,
        &["-ms", "toolhelp.lib"],
    )
}

/// Build a Win16 application from one C file `<name>.c` in `tests/watcom/`
/// (and `<name>.rc` when it is there).
pub fn win16(name: &str) -> Option<PathBuf> {
    let rc = format!("{name}.rc");
    let rc = source(&rc).is_file().then_some(rc);
    build(
        name,
        Kind::Win16Exe,
        &[&format!("{name}.c")],
        rc.as_deref(),
        &[],
    )
}
