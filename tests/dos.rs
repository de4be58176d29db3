//! DOS and BIOS behaviour through real programs: roms/ test programs (their
//! expected output is in each source's header) and the corpus.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolhelp16"))
}

fn rom(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-dos-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn boot_sector_writes_through_int10_and_b800() {
    let out = bin()
        .args(["run", "--json", "--screen"])
        .arg(rom("dosboot.img"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "halted");
    let screen = v["screen"].as_str().unwrap();
    let rows: Vec<&str> = screen.lines().collect();
    assert_eq!(rows.len(), 25);
    assert_eq!(rows[0], "BOOT VIA INT10");
    assert_eq!(rows[1], "");
    assert_eq!(rows[2], "DIRECT B800");
    assert!(rows[3..].iter().all(|r| r.is_empty()));
}

#[test]
fn environment_block_tail_and_version() {
    let out = bin()
        .args([
            "run",
            "--json",
            "--env",
            "TOOL=toolhelp16",
            "--env",
            "path=C:\\BIN",
        ])
        .arg(rom("dosenv.com"))
        .args(["--", "alpha", "beta"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let text = v["output"].as_str().unwrap().replace("\r\n", "\n");
    // An overridden variable moves to the end, as DOS's SET does.
    assert_eq!(
        text,
        "[ alpha beta]\nCOMSPEC=C:\\COMMAND.COM\nPROMPT=$P$G\nTOOL=toolhelp16\nPATH=C:\\BIN\nprogram C:\\DOSENV.COM\nDOS 5.0\n"
    );
}

#[test]
fn standard_input_from_a_file() {
    let d = temp("stdin");
    let f = d.join("in.txt");
    std::fs::write(&f, "one\ntwo\nsix\n").unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin"])
        .arg(&f)
        .arg(rom("dosread.com"))
        .output()
        .unwrap();
    assert_eq!(json(&out)["output"], "bytes=000C lines=0003\r\n");
    std::fs::write(&f, "").unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin"])
        .arg(&f)
        .arg(rom("dosread.com"))
        .output()
        .unwrap();
    assert_eq!(json(&out)["output"], "bytes=0000 lines=0000\r\n");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn exe_gets_its_max_allocation_and_exit_code() {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom("dosexit.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 7);
    assert_eq!(v["output"], "exe ok\r\nalloc ok\r\nfree ok\r\n");
}

#[test]
fn corpus_programs_that_need_only_console_services_exit_cleanly() {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dos");
    if !c.is_dir() {
        eprintln!("SKIP: ../shared/corpus is absent; corpus DOS runs not checked");
        return;
    }
    // helloc.com / helloe.exe print a greeting; MESSAGE.COM prints its text.
    for (f, want) in [("edge/helloc.com", "Hello"), ("edge/helloe.exe", "Hello")] {
        let out = bin()
            .args(["run", "--json", "--clock", "1992-04-06 12:00:00"])
            .arg(c.join(f))
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(v["exit"]["kind"], "exited", "{f}: {v}");
        assert!(v["output"].as_str().unwrap().contains(want), "{f}: {v}");
    }
}

#[test]
fn file_services_stay_inside_the_sandbox() {
    let outer = temp("sandbox");
    let inner = outer.join("drive");
    std::fs::create_dir_all(&inner).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&inner)
        .arg(rom("dosfile.com"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(42),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let text = v["output"].as_str().unwrap().replace("\r\n", "\n");
    let want = "shrink ok\ncreate TEST.TXT ok\nwrite TEST.TXT ok\nclose TEST.TXT ok\nopen TEST.TXT ok\nread 0010 bytes\n\
read back ok\nsize 0010\nclose TEST.TXT ok\ncreate SECOND.DAT ok\nclose SECOND.DAT ok\nfound SECOND.DAT\nfound TEST.TXT\n\
find end 0012\nalloc ok\nfree ok\nopen ..\\ESCAPE.TXT error 0003\ncreate ..\\ESCAPE.TXT error 0003\n\
open C:\\..\\ESCAPE.TXT error 0003\ncreate C:\\..\\ESCAPE.TXT error 0003\nopen \\..\\..\\ESCAPE.TXT error 0003\n\
create \\..\\..\\ESCAPE.TXT error 0003\ndelete SECOND.DAT ok\ndone\n";
    assert_eq!(text, want);
    // The file is in the sandbox with what was written, and nothing else
    // appeared anywhere around it.
    assert_eq!(
        std::fs::read(inner.join("TEST.TXT")).unwrap(),
        b"hello, sandbox\r\n"
    );
    let inside: Vec<_> = std::fs::read_dir(&inner)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(inside, vec![std::ffi::OsString::from("TEST.TXT")]);
    let outside: Vec<_> = std::fs::read_dir(&outer)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(outside, vec![std::ffi::OsString::from("drive")]);
    std::fs::remove_dir_all(&outer).ok();
}
