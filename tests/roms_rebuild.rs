//! The guest programs in `roms/` are committed as NASM sources AND as built
//! binaries (the binaries are what the other tests load).  This test
//! reassembles every `roms/*.asm` into a temporary directory with the same
//! command `roms/build.sh` uses and asserts that the result is byte-for-byte
//! the committed binary.  Without nasm it says so on stderr and returns.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The flags of `roms/build.sh`; nasm runs with `roms/` as its directory.
const NASM_FLAGS: [&str; 3] = ["-f", "bin", "-Ox"];

fn roms_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("roms")
}

/// Every `roms/*.asm`, sorted by name.
fn sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(roms_dir())
        .expect("roms/ is readable")
        .map(|e| e.expect("roms/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    v.sort();
    v
}

/// The binary a source builds, from its `; output: NAME` line.
fn output_name(source: &Path) -> String {
    let text = fs::read_to_string(source).expect("source is readable");
    text.lines()
        .find_map(|l| l.strip_prefix("; output: "))
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace) && !n.contains('/'))
        .unwrap_or_else(|| panic!("{} has no '; output: NAME' line", source.display()))
}

fn nasm_available() -> bool {
    common::need::tool("nasm", "-v", "nasm")
}

/// A fresh directory under the system temp dir, unique per process and call.
fn unique_temp_dir() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "toolhelp16-roms-{}-{}-{}",
        std::process::id(),
        nanos,
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!(
            "first difference at byte 0x{i:X}: committed {:02X}, rebuilt {:02X}",
            a[i], b[i]
        ),
        None => format!(
            "lengths differ: committed {} bytes, rebuilt {} bytes",
            a.len(),
            b.len()
        ),
    }
}

#[test]
fn committed_roms_equal_a_rebuild() {
    let roms = roms_dir();
    let sources = sources();
    assert!(!sources.is_empty(), "no roms/*.asm found");
    for src in &sources {
        let out = roms.join(output_name(src));
        assert!(out.is_file(), "{} is not committed", out.display());
    }

    if !nasm_available() {
        return;
    }

    let tmp = unique_temp_dir();
    let mut failures = Vec::new();
    for src in &sources {
        let name = output_name(src);
        let built = tmp.join(&name);
        let run = Command::new("nasm")
            .current_dir(&roms)
            .args(NASM_FLAGS)
            .arg("-o")
            .arg(&built)
            .arg(src.file_name().expect("file name"))
            .output()
            .expect("run nasm");
        if !run.status.success() {
            failures.push(format!(
                "{}: nasm failed: {}",
                src.display(),
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        let committed = fs::read(roms.join(&name)).expect("read the committed binary");
        let rebuilt = fs::read(&built).expect("read the rebuilt binary");
        if committed != rebuilt {
            failures.push(format!(
                "roms/{name} differs from a rebuild of {} ({}); run roms/build.sh and commit",
                src.file_name().unwrap().to_string_lossy(),
                first_difference(&committed, &rebuilt)
            ));
        }
    }
    let _ = fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reason in a source's `; no-walk-expectation: REASON` line, if any: a
/// program that is not a stack-walk scenario (the DOS and BIOS test
/// programs) has no `.expect` file.
fn no_walk_expectation(source: &Path) -> Option<String> {
    let text = fs::read_to_string(source).expect("source is readable");
    text.lines()
        .find_map(|l| l.strip_prefix("; no-walk-expectation:"))
        .map(|r| r.trim().to_string())
}

/// Every source has an expectation file `roms/<stem>.expect` whose `file`
/// line names the binary that source builds, unless its header says
/// `; no-walk-expectation: REASON` (with a non-empty reason).
#[test]
fn every_rom_has_an_expectation() {
    let roms = roms_dir();
    for src in sources() {
        if let Some(reason) = no_walk_expectation(&src) {
            assert!(
                !reason.is_empty(),
                "{}: 'no-walk-expectation:' needs a reason",
                src.display()
            );
            continue;
        }
        let stem = src.file_stem().unwrap().to_string_lossy().to_string();
        let expect = roms.join(format!("{stem}.expect"));
        let text = fs::read_to_string(&expect)
            .unwrap_or_else(|_| panic!("{} is missing", expect.display()));
        let file = text
            .lines()
            .map(|l| l.split('#').next().unwrap().trim())
            .find_map(|l| l.strip_prefix("file "))
            .map(str::trim)
            .unwrap_or_else(|| panic!("{} has no 'file' line", expect.display()));
        assert_eq!(
            file,
            output_name(&src),
            "{}: 'file' names another binary",
            expect.display()
        );
    }
}

/// roms/build.sh writes a LINK-format map beside every NE program
/// (tools/linkmap.awk over NASM's own map): running it on a copy of roms/
/// must give the committed maps byte for byte, and every NE program has
/// one. Needs nasm and a POSIX shell with awk; says so when absent.
#[test]
fn committed_link_maps_equal_the_build_script_s() {
    if !nasm_available() {
        return;
    }
    let roms = roms_dir();
    let tmp = unique_temp_dir();
    let copy = tmp.join("roms");
    fs::create_dir_all(copy.join("inc")).unwrap();
    fs::create_dir_all(copy.join("tools")).unwrap();
    for sub in ["", "inc", "tools"] {
        for e in fs::read_dir(roms.join(sub)).unwrap().flatten() {
            let p = e.path();
            let keep = p.is_file()
                && (!sub.is_empty() || p.extension().is_some_and(|x| x == "asm" || x == "sh"));
            if keep {
                fs::copy(&p, copy.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    let run = Command::new("bash")
        .arg(copy.join("build.sh"))
        .output()
        .expect("run bash");
    assert!(
        run.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut made = 0;
    for src in sources() {
        let text = fs::read_to_string(&src).unwrap();
        // A resource-only module (`NE_HEADER 0`) has no segment to map.
        let resource_only = text.lines().any(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some("NE_HEADER") && w.next() == Some("0")
        });
        let ne = (text.contains("inc/ne.inc")
            || text.contains("inc/win16app.inc")
            || text.contains("inc/pingpong.inc"))
            && !resource_only;
        let map = format!("{}.map", src.file_stem().unwrap().to_string_lossy());
        let built = copy.join(&map);
        if !ne {
            continue;
        }
        assert!(built.is_file(), "build.sh wrote no {map}");
        let committed = fs::read(roms.join(&map))
            .unwrap_or_else(|_| panic!("roms/{map} is not committed; run roms/build.sh"));
        assert_eq!(
            committed,
            fs::read(&built).unwrap(),
            "roms/{map} differs from build.sh's; run roms/build.sh and commit"
        );
        made += 1;
    }
    assert!(made >= 10, "only {made} maps");
    let _ = fs::remove_dir_all(&tmp);
}
