//! The engine is unicorn-engine 2.1.3 as crates.io publishes it, with
//! exactly the patches in `vendor/unicorn-patches/` applied by the build
//! (build.rs; vendor/README.md). `vendor/unicorn.sh check` takes the
//! `.crate` cargo downloaded, checks its SHA-256, compares every file with
//! the manifest of the published crate (`vendor/unicorn-pristine.txt`) and
//! applies the patches in order. A crate changed anywhere, or a patch that
//! no longer applies, fails the check.
//!
//! Needs bash, git, tar and sha256sum; a missing one is handled as
//! common/need.rs says (a failure under `./x test` and CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{need, root, scratch};

fn tools() -> bool {
    need::tool("bash", "--version", "bash")
        && need::tool("git", "--version", "git")
        && need::tool("tar", "--version", "tar")
        && need::tool("sha256sum", "--version", "coreutils")
}

fn check(source: Option<&Path>, patches: Option<&Path>) -> Output {
    let mut c = Command::new("bash");
    c.arg(root().join("vendor/unicorn.sh")).arg("check");
    if let Some(t) = source {
        c.arg(t);
    }
    if let Some(p) = patches {
        c.env("UNICORN_PATCHES", p);
    }
    c.output().expect("bash runs")
}

fn patch_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("vendor/unicorn-patches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "patch"))
        .collect();
    v.sort();
    v
}

/// The published crate unpacked under a scratch directory (through the
/// script's own `tree`, which also checks the SHA-256).
fn unpacked(name: &str) -> PathBuf {
    let dst = scratch(name).join("unicorn-engine-2.1.3");
    let out = Command::new("bash")
        .arg(root().join("vendor/unicorn.sh"))
        .arg("tree")
        .arg(&dst)
        .env("UNICORN_PATCHES", scratch(&format!("{name}-nopatches")))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "unpacking the crate: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dst.join(".git"));
    dst
}

#[test]
fn the_published_crate_takes_every_patch() {
    if !tools() {
        return;
    }
    let out = check(None, None);
    assert!(
        out.status.success(),
        "vendor/unicorn.sh check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    let n = patch_files().len();
    assert!(n > 0, "no patches in vendor/unicorn-patches");
    assert!(
        said.contains(&format!("and {n} patches apply to it")),
        "the check counts the patches: {said}"
    );
}

/// A byte changed in a file of the crate that no patch touches: the check
/// names the file.
#[test]
fn a_changed_crate_fails_the_check() {
    if !tools() {
        return;
    }
    let file = "qemu/target/i386/seg_helper.c";
    for p in patch_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            !text.contains(&format!("+++ b/{file}")),
            "{} touches {file}",
            p.display()
        );
    }
    let tree = unpacked("vendor-changed");
    let path = tree.join(file);
    let mut b = std::fs::read(&path).unwrap();
    let at = b.iter().position(|&c| c == b'x').unwrap();
    b[at] = b'y';
    std::fs::write(&path, b).unwrap();
    let out = check(Some(&tree), None);
    assert!(!out.status.success(), "the check passed a changed {file}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(file),
        "the check names the changed file: {err}"
    );
}

/// A patch whose context no longer matches the crate: the check names it.
#[test]
fn a_patch_that_does_not_apply_fails_the_check() {
    if !tools() {
        return;
    }
    let dir = scratch("vendor-badpatch");
    let mut changed = None;
    for p in patch_files() {
        let name = p.file_name().unwrap().to_owned();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if name.to_string_lossy().starts_with("0002-") {
            // The first context line of the first hunk, changed.
            let mut in_hunk = false;
            let mut done = false;
            text = text
                .lines()
                .map(|l| {
                    in_hunk |= l.starts_with("@@");
                    if in_hunk && !done && l.starts_with(' ') {
                        done = true;
                        format!(" /* changed */{}", &l[1..])
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
            assert!(done, "patch 0002 has a context line");
            changed = Some(name.to_string_lossy().into_owned());
        }
        std::fs::write(dir.join(&name), text).unwrap();
    }
    let changed = changed.expect("patch 0002 exists");
    let out = check(None, Some(&dir));
    assert!(!out.status.success(), "the check passed a changed patch");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{changed} does not apply")),
        "the check says which patch: {err}"
    );
}
