//! The one policy for a test whose prerequisite is missing, so that no
//! test passes in silence without having run.
//!
//! Two kinds of prerequisite:
//!
//! * **a tool** of the host (nasm, gdb, chromium, dosbox, Debian's
//!   fonts-wine, bash/git, mkfifo, `script`, /proc, /dev/full): `./x test`
//!   installs what it can and runs the suite with `TOOLHELP16_STRICT=1`,
//!   and CI sets `CI`; under either a missing tool is a failure. Under a
//!   plain `cargo test` it is a skip.
//! * **`../shared`** (the corpus of real programs, the Open Watcom
//!   toolchain), which only this project's workplace has: a skip on a
//!   user's checkout (`./x test` too), a failure when `CI` is set (CI
//!   always has it).
//!
//! A skip is never silent: its line goes straight to the process's stderr
//! (not through `eprintln!`, which the test harness captures and shows
//! only for a failing test), and is added to `target/tmp/skipped-tests.txt`,
//! which `./x test` empties before the run and prints as a summary after it.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Is `CI` set (to anything but empty, `0` or `false`)?
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Must every tool be present (`./x test`, or CI)?
pub fn strict_tools() -> bool {
    ci() || std::env::var_os("TOOLHELP16_STRICT").is_some_and(|v| !v.is_empty())
}

/// The file `./x test` summarises the skips from.
pub fn skip_file() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skipped-tests.txt")
}

/// Say that the calling test did not run `what`, where the harness does
/// not swallow it, and note it for `./x test`'s summary.
fn skip(what: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("(unnamed test)")
        .to_string();
    let exe = std::env::args()
        .next()
        .and_then(|a| {
            PathBuf::from(a)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    // The test binary's name ends in a hash: keep the crate's name.
    let krate = exe.rsplit_once('-').map_or(exe.as_str(), |(k, _)| k);
    let line = format!("SKIP {krate}::{test}: {what}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    let path = skip_file();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// A host tool or facility `what` is missing (`install` says how to get
/// it): a failure under `./x test` and CI, else a visible skip.
pub fn tool_missing(what: &str, install: &str) {
    assert!(
        !strict_tools(),
        "{what} is missing ({install}); under ./x test and CI a missing tool fails the test \
         instead of skipping it"
    );
    skip(&format!("{what} is missing ({install})"));
}

/// Part of `../shared` (`what`) is missing: a failure under CI, else a
/// visible skip.
pub fn shared_missing(what: &str) {
    assert!(
        !ci(),
        "CI: {what} is missing; CI always has ../shared, so a test needing it fails instead \
         of skipping"
    );
    skip(&format!(
        "{what} is missing (../shared exists only in the project's workplace)"
    ));
}

/// Does `cmd --version` (or `cmd ARG`) run and succeed?
pub fn runs(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Is the tool `cmd` there (it answers `arg`)? When not, the policy above
/// (`package`: the Debian package that has it).
pub fn tool(cmd: &str, arg: &str, package: &str) -> bool {
    if runs(cmd, arg) {
        return true;
    }
    tool_missing(
        &format!("`{cmd}`"),
        &format!("Debian package {package}; ./x test installs it"),
    );
    false
}
