//! DOS and BIOS behaviour through real programs: roms/ test programs (their
//! expected output is in each source's header) and the corpus.

use std::path::PathBuf;

mod common;
use common::{bin, json, rom};

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
    // It ends with cli; hlt: a PC hangs there (exit 117, with the walk).
    assert_eq!(v["exit"]["kind"], "hung");
    assert_eq!(out.status.code(), Some(117));
    assert!(!v["frames"].as_array().unwrap().is_empty());
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

/// An MZ file EXE2BIN can turn into a .COM: CS:IP 0000:0100, no stack
/// segment, no relocations; the code at image offset 100h prints a line. The
/// header is padded to 512 bytes, as LINK wrote it and EXE2BIN expects (it
/// rounds the header size up to 32 paragraphs).
fn convertible_exe() -> Vec<u8> {
    // mov ah,9 ; mov dx,010Ah ; int 21h ; mov ax,4C05h ; int 21h ; db "converted$"
    let code: &[u8] = &[
        0xB4, 0x09, 0xBA, 0x0C, 0x01, 0xCD, 0x21, 0xB8, 0x05, 0x4C, 0xCD, 0x21,
    ];
    let mut image = vec![0u8; 0x100];
    image.extend_from_slice(code);
    image.extend_from_slice(b"converted$");
    let total = 0x200 + image.len();
    let mut h = vec![0u8; 0x200];
    h[0..2].copy_from_slice(b"MZ");
    h[2..4].copy_from_slice(&((total % 512) as u16).to_le_bytes());
    h[4..6].copy_from_slice(&(total.div_ceil(512) as u16).to_le_bytes());
    h[8..10].copy_from_slice(&0x20u16.to_le_bytes()); // header paragraphs
    h[0x14..0x16].copy_from_slice(&0x100u16.to_le_bytes()); // IP
    h[0x18..0x1A].copy_from_slice(&0x1Cu16.to_le_bytes());
    h.extend_from_slice(&image);
    h
}

#[test]
fn exe2bin_converts_an_exe_in_the_sandbox() {
    let c =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dos/msdos125/EXE2BIN.EXE");
    if !c.exists() {
        eprintln!("SKIP: ../shared/corpus is absent; EXE2BIN not run");
        return;
    }
    let d = temp("exe2bin");
    std::fs::write(d.join("HELLO.EXE"), convertible_exe()).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&d)
        .arg(&c)
        .args(["--", "hello.exe", "hello.com"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    // The .COM is the image from offset 100h on.
    let com = std::fs::read(d.join("HELLO.COM")).expect("EXE2BIN wrote HELLO.COM in the sandbox");
    assert_eq!(com, convertible_exe()[0x200 + 0x100..].to_vec());
    // And it runs.
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&d)
        .arg(d.join("HELLO.COM"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["output"], "converted");
    assert_eq!(out.status.code(), Some(5));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn port_io_reads_ff_and_is_logged() {
    let d = temp("ports");
    // in al,40h ; out 61h,al ; mov ah,4Ch ; int 21h  (exit code = AL = FFh)
    // (port 60h is the keyboard controller's, which answers.)
    std::fs::write(
        d.join("PORTS.COM"),
        [0xE4, 0x40, 0xE6, 0x61, 0xB4, 0x4C, 0xCD, 0x21],
    )
    .unwrap();
    let out = bin()
        .args(["run", "--json", "--events", "--dir"])
        .arg(&d)
        .arg(d.join("PORTS.COM"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0xFF));
    let v = json(&out);
    let ev: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert!(
        ev[0].contains("in  port 0040") && ev[0].ends_with("-> FF"),
        "{ev:?}"
    );
    assert!(
        ev[1].contains("out port 0061") && ev[1].ends_with("<- FF"),
        "{ev:?}"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn turbo_pascal_program_prints_its_report() {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dos/tp7");
    if !c.is_dir() {
        eprintln!("SKIP: ../shared/corpus is absent; TP7 program not run");
        return;
    }
    let d = temp("tp7");
    let out = bin()
        .args([
            "run",
            "--json",
            "--stdin",
            "/dev/null",
            "--clock",
            "1992-04-06 12:00:00",
            "--dir",
        ])
        .arg(&d)
        .arg(c.join("TESTBDIV.EXE"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0);
    let text = v["output"].as_str().unwrap();
    // Its signed division report, computed by TP7's runtime on this CPU.
    assert!(
        text.starts_with("-1449859/75321\r\nresult= -19 (18760 remainder)"),
        "{text}"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn hardware_interrupts_reach_program_handlers() {
    // dosirq.com hooks INT 1Ch and INT 09h, counts 3 timer ticks, reads the
    // make and break codes at port 60h and gets the key through INT 16h.
    let out = bin()
        .args(["run", "--json", "--keys", "q"])
        .arg(rom("dosirq.com"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(out.status.code(), Some(i32::from(b'q')));
    let text = v["output"].as_str().unwrap();
    assert_eq!(text, "ticks 3 make 0010 break 0090 key q\r\n");
}

#[test]
fn a_program_waiting_for_a_key_is_named_when_the_budget_ends_it() {
    let out = bin()
        .args(["run", "--max-insns", "2000000"])
        .arg(rom("dosirq.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(122));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the instruction budget ran out"), "{err}");
    assert!(
        err.contains("found the keyboard empty") && err.contains("waiting for a key"),
        "{err}"
    );
}

/// A corpus program run with a key script, its exit and its output.
fn run_tp7(name: &str, keys: &str) -> Option<serde_json::Value> {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dos/tp7");
    if !c.is_dir() {
        eprintln!("SKIP: ../shared/corpus is absent; {name} not run");
        return None;
    }
    let d = temp(name);
    let out = bin()
        .args([
            "run",
            "--json",
            "--stdin",
            "/dev/null",
            "--clock",
            "1992-04-06 12:00:00",
            "--max-insns",
            "200000000",
            "--screen",
            "--keys",
            keys,
            "--dir",
        ])
        .arg(&d)
        .arg(c.join(name))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&d).ok();
    Some(json(&out))
}

#[test]
fn turbo_pascal_programs_with_keyboard_handlers_take_scripted_keys() {
    // ATOM and SLIVER animate in mode 13h until a key; their keyboard unit
    // hooks INT 09h. SERIAL reads a new serial number and sets it.
    for name in ["ATOM.EXE", "SLIVER.EXE"] {
        let Some(v) = run_tp7(name, "{esc}") else {
            return;
        };
        assert_eq!(v["exit"]["kind"], "exited", "{name}: {v}");
        assert_eq!(v["exit"]["code"], 0, "{name}: {v}");
    }
    let Some(v) = run_tp7("SERIAL.EXE", "1234-5678{enter}") else {
        return;
    };
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    // It writes to the screen directly.
    let text = v["screen"].as_str().unwrap();
    assert!(
        text.contains("is 1992-0406") && text.contains("changed to 1234-5678"),
        "{text}"
    );
}

#[test]
fn a_jump_into_rom_basic_is_a_named_stop() {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/dos/msdos125");
    if !c.is_dir() {
        eprintln!("SKIP: ../shared/corpus is absent; BASIC.COM not run");
        return;
    }
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null"])
        .arg(c.join("BASIC.COM"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(124));
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "unimplemented", "{v}");
    assert!(
        v["unimplemented"]
            .as_str()
            .unwrap()
            .starts_with("IBM ROM BASIC at F600:"),
        "{v}"
    );
}
