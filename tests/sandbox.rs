//! The drive a DOS program gets: by default its own directory, read-only,
//! with its writes in a discarded overlay; `--dir` read-write; FIFOs and
//! hard links; the write quota. roms/dossafe.asm does what a program
//! should not be able to do to the host, and its header gives its output.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;
use common::{bin, json, rom, run_measured, scratch};

/// A directory holding dossafe.com and what it works on: PIPE.TXT a FIFO,
/// LINK.TXT a second hard link to OUTSIDE.TXT beside the directory,
/// DATA.TXT and OLD.TXT. Returns (the program's directory, OUTSIDE.TXT);
/// None where the host cannot make a FIFO (common/need.rs).
fn fixture(name: &str) -> Option<(PathBuf, PathBuf)> {
    let outer = scratch(name);
    let dir = outer.join("prog");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(rom("dossafe.com"), dir.join("dossafe.com")).unwrap();
    let outside = outer.join("OUTSIDE.TXT");
    std::fs::write(&outside, b"outside\n").unwrap();
    std::fs::hard_link(&outside, dir.join("LINK.TXT")).unwrap();
    std::fs::write(dir.join("DATA.TXT"), b"data\n").unwrap();
    std::fs::write(dir.join("OLD.TXT"), b"old\n").unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("PIPE.TXT"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        common::need::tool_missing("`mkfifo` (the sandbox tests need a FIFO)", "coreutils");
        return None;
    }
    Some((dir, outside))
}

/// Every entry of a directory with its bytes (a FIFO as "<fifo>").
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let data = if e.file_type().unwrap().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                b"<fifo>".to_vec()
            };
            (name, data)
        })
        .collect();
    v.sort();
    v
}

fn lines(v: &serde_json::Value) -> Vec<String> {
    v["output"]
        .as_str()
        .unwrap()
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Without --dir the program sees its own directory read-only: it deletes,
/// creates, renames and writes there as it likes, the directory is left
/// exactly as it was, and the report lists what it did. The FIFO opens
/// not at all (error 2: DOS does not see it) and never blocks; the quota
/// (64 KiB: every file made costs 512 bytes besides its data, dosfs/quota.rs)
/// ends the big write short with CF clear, as DOS's handle write does on
/// a full disk.
#[test]
fn default_drive_is_the_programs_directory_copy_on_write() {
    let Some((dir, outside)) = fixture("cow") else {
        return;
    };
    let before = contents(&dir);
    let m = run_measured(
        bin()
            .args(["run", "--json", "--timeout", "20", "--disk-quota", "64K"])
            .arg(dir.join("dossafe.com")),
        Duration::from_secs(60),
    );
    assert!(
        !m.killed && m.elapsed < Duration::from_secs(20),
        "{:?}",
        m.elapsed
    );
    let v = json(&m.out);
    assert_eq!(m.out.status.code(), Some(0), "{v}");
    // Copies made: LINK.TXT (8 bytes) before its write, OLD.TXT (4 bytes)
    // for the rename; made: NEW.TXT (3 bytes), BIG.DAT. BIG.DAT gets the
    // rest of 65536 bytes: 65536 - (520 + 515 + 516 + 512) = F7F1h. AH=36h
    // reports the 40 MiB disk (4FCFh clusters of 2 KiB, dosfs/geometry.rs
    // geometry) with no more free than the quota leaves: 1Fh clusters
    // before BIG.DAT, none after.
    assert_eq!(
        lines(&v),
        [
            "open PIPE.TXT error 0002",
            "open LINK.TXT ok",
            "delete DATA.TXT ok",
            "create NEW.TXT ok",
            "rename OLD.TXT ok",
            "free 001F of 4FCF clusters",
            "wrote 0000 F7F1 bytes",
            "short write 07F1",
            "free 0000 of 4FCF clusters",
            "done",
        ]
    );
    assert_eq!(contents(&dir), before, "the program's directory changed");
    assert_eq!(std::fs::read(&outside).unwrap(), b"outside\n");
    let drive = &v["drive"];
    assert_eq!(drive["mode"], "copy-on-write");
    assert_eq!(drive["writes_kept_in"], serde_json::Value::Null);
    assert_eq!(drive["full_writes"], 1);
    assert_eq!(drive["quota"], 65536);
    let changes: Vec<String> = drive["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut s = format!(
                "{} {}",
                c["kind"].as_str().unwrap(),
                c["path"].as_str().unwrap()
            );
            if let Some(to) = c["to"].as_str() {
                s.push_str(&format!(" -> {to}"));
            }
            s
        })
        .collect();
    assert_eq!(
        changes,
        [
            "wrote C:\\LINK.TXT",
            "deleted C:\\DATA.TXT",
            "created C:\\NEW.TXT",
            "renamed C:\\OLD.TXT -> C:\\REN.TXT",
            "created C:\\BIG.DAT",
        ]
    );
    // The text report says the same, and that the writes are gone.
    let out = bin()
        .args(["run", "--disk-quota", "64K"])
        .arg(dir.join("dossafe.com"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("read-only; the program's changes went to a temporary overlay, now discarded"),
        "{err}"
    );
    for line in [
        "  deleted C:\\DATA.TXT\n",
        "  created C:\\NEW.TXT\n",
        "  renamed C:\\OLD.TXT to C:\\REN.TXT\n",
        "  wrote C:\\LINK.TXT\n",
    ] {
        assert!(err.contains(line), "{line:?} missing from\n{err}");
    }
    assert!(err.contains("1 write(s) were cut short"), "{err}");
    assert_eq!(contents(&dir), before);
    // No overlay is left behind in the temporary directory.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("toolhelp16-writes-{}-", m.pid))
        })
        .collect();
    assert!(left.is_empty());
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}

/// --keep-writes DIR keeps the overlay: what the program made is there.
#[test]
fn kept_writes_land_in_the_given_directory() {
    let Some((dir, _)) = fixture("keep") else {
        return;
    };
    let before = contents(&dir);
    let keep = dir.parent().unwrap().join("kept");
    let out = bin()
        .args(["run", "--json", "--disk-quota", "64K", "--keep-writes"])
        .arg(&keep)
        .arg(dir.join("dossafe.com"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(contents(&dir), before);
    assert_eq!(std::fs::read(keep.join("NEW.TXT")).unwrap(), b"new");
    assert_eq!(std::fs::read(keep.join("REN.TXT")).unwrap(), b"old\n");
    assert_eq!(std::fs::read(keep.join("LINK.TXT")).unwrap(), b"Xutside\n");
    assert_eq!(
        std::fs::metadata(keep.join("BIG.DAT")).unwrap().len(),
        0xF7F1
    );
    assert_eq!(
        v["drive"]["writes_kept_in"].as_str().map(PathBuf::from),
        Some(std::fs::canonicalize(&keep).unwrap())
    );
    // A directory that is not empty is refused before the program runs.
    let out = bin()
        .args(["run", "--keep-writes"])
        .arg(&keep)
        .arg(dir.join("dossafe.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--keep-writes") && err.contains("not empty"),
        "{err}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}

/// --dir is read-write, the user's choice; even there a hard-linked file
/// is read-only (its other link may lie outside: OUTSIDE.TXT keeps its
/// bytes), the FIFO does not block, and the quota holds.
#[test]
fn read_write_dir_keeps_hard_links_read_only() {
    let Some((dir, outside)) = fixture("rw") else {
        return;
    };
    let m = run_measured(
        bin()
            .args([
                "run",
                "--json",
                "--timeout",
                "20",
                "--disk-quota",
                "64K",
                "--dir",
            ])
            .arg(&dir)
            .arg(dir.join("dossafe.com")),
        Duration::from_secs(60),
    );
    assert!(!m.killed && m.elapsed < Duration::from_secs(20));
    let v = json(&m.out);
    assert_eq!(m.out.status.code(), Some(0), "{v}");
    // Made: NEW.TXT (515), BIG.DAT (512): 65536 - 1027 = FBFDh.
    assert_eq!(
        lines(&v),
        [
            "open PIPE.TXT error 0002",
            "open LINK.TXT error 0005",
            "delete DATA.TXT ok",
            "create NEW.TXT ok",
            "rename OLD.TXT ok",
            "free 001F of 4FCF clusters",
            "wrote 0000 FBFD bytes",
            "short write 0BFD",
            "free 0000 of 4FCF clusters",
            "done",
        ]
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"outside\n");
    assert_eq!(std::fs::read(dir.join("LINK.TXT")).unwrap(), b"outside\n");
    assert!(!dir.join("DATA.TXT").exists());
    assert_eq!(std::fs::read(dir.join("REN.TXT")).unwrap(), b"old\n");
    assert_eq!(
        std::fs::metadata(dir.join("BIG.DAT")).unwrap().len(),
        0xFBFD
    );
    assert_eq!(v["drive"]["mode"], "read-write");
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}
