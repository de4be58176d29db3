//! Drive C: as a DOS program sees it (issue 30 item 8), with a program
//! built by Open Watcom (tests/watcom/dosdisk.c):
//!
//! - INT 21h AH=36h reports what is left of the write quota as the free
//!   space, on a disk FORMAT would lay out for twice the quota (MS-DOS
//!   4.0 FORMAT.ASM's table: 32 sectors a cluster from 512 MiB, 4 below
//!   128 MiB), and the numbers fall by what the program writes;
//! - the root directory of a fixed disk holds 512 entries (KB Q120138,
//!   "all 512 root directory entries have been used"): the 513th create
//!   is refused with error 05h, access denied (Ralf Brown's list, AH=3Ch),
//!   a directory too; a delete makes room; a subdirectory is not so
//!   limited.

mod common;

use common::{bin, watcom};

fn run(quota: &str) -> Option<Vec<String>> {
    run_program("dosdisk", quota)
}

fn run_program(name: &str, quota: &str) -> Option<Vec<String>> {
    let exe = watcom::build(
        name,
        watcom::Kind::DosExe,
        &[&format!("{name}.c")],
        None,
        &["-ms"],
    )?;
    let dir =
        std::env::temp_dir().join(format!("toolhelp16-{name}-{quota}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin()
        .args([
            "run",
            "--json",
            "--stdin",
            "/dev/null",
            "--disk-quota",
            quota,
            "--dir",
        ])
        .arg(&dir)
        .arg(&exe)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let _ = std::fs::remove_dir_all(&dir);
    Some(
        v["output"]
            .as_str()
            .unwrap()
            .replace("\r\n", "\n")
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn the_default_quota_is_the_free_space_and_the_root_holds_512_entries() {
    let Some(lines) = run("256M") else {
        return;
    };
    // 2 x 256 MiB = 1,048,576 sectors: 16 KiB clusters, a 128-sector
    // FAT, 32,758 clusters; 256 MiB free = 16,384 clusters. 100,000
    // bytes and the file's entry (a 512-byte sector of the quota) leave
    // (268,435,456 - 100,512) / 16,384 = 16,377 whole clusters.
    assert_eq!(
        lines,
        [
            "start: spc 32 free 16384 bps 512 total 32758",
            "after 100000 bytes: spc 32 free 16377 bps 512 total 32758",
            "after delete: spc 32 free 16384 bps 512 total 32758",
            "root: 512 files, then error 05",
            "mkdir in the full root: -1",
            "after a delete: created",
            "subdirectory: 700 files",
        ]
    );
}

#[test]
fn a_small_quota_is_a_40_mib_disk_with_that_much_free() {
    let Some(lines) = run("1M") else {
        return;
    };
    // The smallest disk, 40 MiB: 2 KiB clusters, 20,431 of them; 1 MiB
    // free = 512 clusters; (1,048,576 - 100,512) / 2,048 = 462.
    assert_eq!(lines[0], "start: spc 4 free 512 bps 512 total 20431");
    assert_eq!(
        lines[1],
        "after 100000 bytes: spc 4 free 462 bps 512 total 20431"
    );
    assert_eq!(lines[2], "after delete: spc 4 free 512 bps 512 total 20431");
}

/// A disk test fills the free space AH=36h reports with one file, as on a
/// real disk, under a quota larger than the 64 MiB one file was once
/// limited to (issue 30: DISKTEST.EXE stopped with Turbo Pascal's runtime
/// error 101, disk write error). The file's directory entry takes a
/// 512-byte sector of the quota (README, `--disk-quota`), so the free space
/// after the create is the quota less that sector, in whole clusters; it
/// all fits, and a cluster more is a short write (AX < CX).
#[test]
fn one_file_fills_the_free_space_past_64_mib() {
    let Some(lines) = run_program("dosfill", "100M") else {
        return;
    };
    let quota: u64 = 100 << 20;
    let nums = |l: &str| -> Vec<u64> {
        l.split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let first = nums(&lines[0]);
    let (cluster, free) = (first[0], first[1]);
    assert!(cluster.is_power_of_two() && cluster >= 512, "{lines:?}");
    assert_eq!(free, (quota - 512) / cluster * cluster, "{lines:?}");
    assert!(free > 64 << 20, "{lines:?}");
    assert_eq!(lines[1], format!("written {free}"), "{lines:?}");
    assert_eq!(lines[2], "a cluster more: short", "{lines:?}");
}

/// A DOS program run with a fixed clock sees that clock's date and time
/// on what it creates and writes (tests/watcom/dosftime.c): DOS stamps a
/// file's directory entry from its clock when the file is created and
/// when it is closed after a write, and a directory when it is made
/// (MS-DOS Programmer's Reference: INT 21h AH=3Ch, 3Eh, 39h; AX=5700h
/// and FindFirst read the stamp back); a time set with AX=5701h is kept
/// at the close. The packed forms: date (year-1980)<<9 | month<<5 | day,
/// time hour<<11 | minute<<5 | seconds/2. With the host's time instead,
/// a replay of the run (the debugger's, a checkpoint file's) would see
/// other times than the first run saw.
#[test]
fn a_fixed_clock_stamps_what_the_program_writes() {
    let Some(exe) = watcom::build(
        "dosftime",
        watcom::Kind::DosExe,
        &["dosftime.c"],
        None,
        &["-ms"],
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("toolhelp16-dosftime-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null"])
        .args(["--clock", "1994-03-15 10:20:31", "--dir"])
        .arg(&dir)
        .arg(&exe)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let date = (1994 - 1980) << 9 | 3 << 5 | 15;
    let time = 10 << 11 | 20 << 5 | (31 / 2);
    let set = format!(
        "set {:04X} {:04X}",
        11 << 9 | 12 << 5 | 31,
        23 << 11 | 58 << 5 | 29
    );
    let stamped = |w: &str| format!("{w} {date:04X} {time:04X}");
    let want = [
        stamped("open"),
        stamped("closed"),
        stamped("find"),
        stamped("empty"),
        stamped("dir"),
        set,
    ];
    let got: Vec<String> = v["output"]
        .as_str()
        .unwrap()
        .replace("\r\n", "\n")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(got, want);
}
