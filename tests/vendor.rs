//! The engine the machine is built on is unicorn-engine 2.1.3 as crates.io
//! publishes it, pruned to the x86 target, with exactly the patches in
//! `vendor/unicorn-patches/` (vendor/README.md): `vendor/unicorn.sh
//! check` takes the patches back out of a copy of `vendor/unicorn-engine`
//! and compares every file with the manifest of the pristine crate. A tree
//! changed outside the patches, or a patch that no longer matches the
//! tree, fails the check.
//!
//! Needs bash and git (the check applies the patches in reverse with `git
//! apply` and names files by `git hash-object`); without them the test
//! prints SKIP and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{root, scratch};

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn check(tree: Option<&Path>) -> Output {
    let mut c = Command::new("bash");
    c.arg(root().join("vendor/unicorn.sh")).arg("check");
    if let Some(t) = tree {
        c.arg(t);
    }
    c.output().expect("bash runs")
}

/// A copy of the vendored tree under a scratch directory.
fn copy_of_tree(name: &str) -> PathBuf {
    let dst = scratch(name).join("unicorn-engine");
    let st = Command::new("cp")
        .arg("-a")
        .arg(root().join("vendor/unicorn-engine"))
        .arg(&dst)
        .status()
        .expect("cp runs");
    assert!(st.success(), "copying vendor/unicorn-engine");
    dst
}

fn tools_or_skip() -> bool {
    if have("git") && have("bash") {
        return true;
    }
    eprintln!("SKIP: the vendored engine's check needs bash and git on PATH");
    false
}

#[test]
fn the_vendored_engine_is_the_published_crate_with_our_patches() {
    if !tools_or_skip() {
        return;
    }
    let out = check(None);
    assert!(
        out.status.success(),
        "vendor/unicorn.sh check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    let patches = std::fs::read_dir(root().join("vendor/unicorn-patches"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "patch"))
        })
        .count();
    assert!(patches > 0, "no patches in vendor/unicorn-patches");
    assert!(
        said.contains(&format!("with {patches} patches")),
        "the check counts the patches: {said}"
    );
}

/// Change `file` (a path in the vendored tree) of a copy of the tree
/// with `edit`, run the check on the copy: it must fail; its complaint.
fn check_after(name: &str, file: &str, edit: impl FnOnce(Vec<u8>) -> Vec<u8>) -> String {
    let tree = copy_of_tree(name);
    let path = tree.join(file);
    let before = std::fs::read(&path).unwrap();
    let after = edit(before.clone());
    assert_ne!(after, before, "the edit changes {file}");
    std::fs::write(&path, after).unwrap();
    let out = check(Some(&tree));
    assert!(!out.status.success(), "the check passed a changed {file}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A byte changed in a file no patch touches: the check names the file.
#[test]
fn a_change_outside_the_patches_fails_the_check() {
    if !tools_or_skip() {
        return;
    }
    let file = "qemu/target/i386/seg_helper.c";
    let err = check_after("vendor-changed", file, |mut b| {
        let at = b.iter().position(|&c| c == b'x').unwrap();
        b[at] = b'y';
        b
    });
    assert!(
        err.contains(file),
        "the check names the changed file: {err}"
    );
}

/// A patched line changed again: the patch no longer comes back out.
#[test]
fn a_change_inside_a_patch_fails_the_check() {
    if !tools_or_skip() {
        return;
    }
    let err = check_after("vendor-repatched", "qemu/accel/tcg/cputlb.c", |b| {
        String::from_utf8(b)
            .unwrap()
            .replacen(
                "!tb_page_has_code(cpu->uc, ram_addr)",
                "!tb_page_has_code(cpu->uc, ram_addr + 1)",
                1,
            )
            .into_bytes()
    });
    assert!(
        err.contains("does not come back out"),
        "the check says which patch: {err}"
    );
}
