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

/// A byte changed in a file no patch touches: the check names the file.
#[test]
fn a_change_outside_the_patches_fails_the_check() {
    if !tools_or_skip() {
        return;
    }
    let tree = copy_of_tree("vendor-changed");
    let file = tree.join("qemu/target/i386/translate.c");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.iter().position(|&b| b == b'x').unwrap();
    bytes[at] = b'y';
    std::fs::write(&file, bytes).unwrap();
    let out = check(Some(&tree));
    assert!(!out.status.success(), "a changed translate.c passed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("qemu/target/i386/translate.c"),
        "the check names the changed file: {err}"
    );
}

/// A patched line changed again: the patch no longer comes back out.
#[test]
fn a_change_inside_a_patch_fails_the_check() {
    if !tools_or_skip() {
        return;
    }
    let tree = copy_of_tree("vendor-repatched");
    let file = tree.join("qemu/accel/tcg/cputlb.c");
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen(
        "!tb_page_has_code(cpu->uc, ram_addr)",
        "!tb_page_has_code(cpu->uc, ram_addr + 1)",
        1,
    );
    assert_ne!(changed, text, "patch 0002's line is in cputlb.c");
    std::fs::write(&file, changed).unwrap();
    let out = check(Some(&tree));
    assert!(!out.status.success(), "a changed patched line passed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not come back out"),
        "the check says which patch: {err}"
    );
}
