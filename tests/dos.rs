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
    let Some(c) = corpus_dos() else {
        return;
    };
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
    let Some(c) = corpus_dos() else {
        return;
    };
    let c = c.join("msdos125/EXE2BIN.EXE");
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
    // The two port accesses, then the DOS call that ends the program.
    assert_eq!(ev.len(), 3, "{ev:?}");
    assert!(
        ev[0].contains("in  port 0040") && ev[0].ends_with("-> FF"),
        "{ev:?}"
    );
    assert!(
        ev[1].contains("out port 0061") && ev[1].ends_with("<- FF"),
        "{ev:?}"
    );
    assert!(
        ev[2].contains("INT 21h AH=4Ch") && ev[2].ends_with("exit code 255"),
        "{ev:?}"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn turbo_pascal_program_prints_its_report() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let c = c.join("tp7");
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
    let c = corpus_dos()?.join("tp7");
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
    let Some(c) = corpus_dos() else {
        return;
    };
    let c = c.join("msdos125");
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

/// Run a roms/ program in a fresh sandbox holding `files` (name, bytes);
/// returns the run's JSON and the sandbox.
fn run_in_sandbox(
    prog: &str,
    files: &[(&str, Vec<u8>)],
    args: &[&str],
) -> (serde_json::Value, PathBuf) {
    let d = temp(prog);
    std::fs::create_dir_all(&d).unwrap();
    for (name, bytes) in files {
        std::fs::write(d.join(name), bytes).unwrap();
    }
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
        .arg(rom(prog))
        .args(args)
        .output()
        .unwrap();
    (json(&out), d)
}

/// Each line is what MS-DOS 5.0 answers (the MS-DOS Programmer's
/// Reference for INT 21h; Ralf Brown's interrupt list where it says more;
/// the class/action/locus table and the per-call error codes of MS-DOS
/// 4.0's MS_TABLE.ASM). "c" is CF as DOS leaves it: functions that do not
/// report errors with CF leave the caller's.
#[test]
fn dos21_answers_as_ms_dos_5() {
    let (v, d) = run_in_sandbox("dos21.com", &[], &[]);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    let out = v["output"].as_str().unwrap().replace("\r\n", "\n");
    let want = "\
wrap 0001 0
a20 status 0000 0
a20 support 0003 0 0003
a20 on 0001 0
hma separate 0001 0
a20 status 0001 0
a20 off 0000 0
30 version 0005 0 0000
3306 true version 3306 1 0005 0000
3305 boot drive 3303 1
19 drive 1902 1
3700 switch 3700 1 002F
71 none 7100 1
3D missing 0002 1
  ext 0002 0 0803 0002
3B missing 0003 1
  ext 0003 0 0803 0002
48 too much 0008 1
  ext 0008 0 0104 0005
49 no block 0009 1
  ext 0009 0 0704 0005
3E bad handle 0006 1
  ext 0006 0 0704 0001
4B02 0001 1
  ext 0001 0 0704 0001
5B new 0005 0
40 write 0005 0
45 dup 0006 0
4400 file 0002 0 0002
68 commit 6802 0
5C lock 0001 1
3E close 3E01 0
5B exists 0050 1
  ext 0050 0 0C03 0002
6C open missing 0002 1
6C create 0005 0 0002
5A temp 0005 0
4400 stdout 80D3 0 80D3
4408 C: 0001 0
4408 A: 000F 1
4409 4409 0 0842
11 find 1100 1 0003 NEW     TXT 0005
11 find ext 1100 1 00FF 0003 0005
12 next 1200 1 OTHER   TXT
12 end 12FF 1
  ext 0012 0 0803 0002
32 dpb 3200 0 0002 0200
32 A: 32FF 1
36 free 0020 1 0200
38 country 0001 0 0001 $-
6501 6501 0 0029 0001 01B5
6520 6520 0 FF9A
6601 6601 0 01B5 01B5
6300 6300 1
5800 0000 0
5800 last fit 0002 0
67 handles 6701 0 001E
4D 0000 0
2F 4300 xms 4300 0
2F 1687 dpmi 1687 0
33 mouse 0000 0 1234
33 vector 00CF 0
";
    // Line by line, so a failure names the function.
    for (got, want) in out.lines().zip(want.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(out.lines().count(), want.lines().count(), "{out}");
    // 5Bh and 6Ch made their files; 5Ah a TMPxxxxx one.
    assert_eq!(std::fs::read(d.join("NEW.TXT")).unwrap(), b"12345");
    assert!(d.join("OTHER.TXT").is_file());
    assert!(
        std::fs::read_dir(&d).unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("TMP"))
    );
    std::fs::remove_dir_all(&d).ok();
}

/// AX=4B00h runs a child process from the sandbox: its own PSP (parent
/// field = the caller's PSP), the command tail and an environment ending
/// in its name; the caller continues with its registers after the child's
/// AH=4Ch, and AH=4Dh gives the child's code once. AX=4B01h loads without
/// running: the block gets CS:IP = PSP:0100h and SS:SP with the child's AX
/// on it, and the child is the current PSP (EXEC.ASM of MS-DOS 4.0; Ralf
/// Brown's list, AX=4B01h).
#[test]
fn exec_runs_a_child_process_and_returns_to_the_parent() {
    let child = std::fs::read(rom("doschild.com")).unwrap();
    let (v, d) = run_in_sandbox("dosexec.com", &[("DOSCHILD.COM", child)], &[]);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let out = v["output"].as_str().unwrap().replace("\r\n", "\n");
    let lines: Vec<&str> = out.lines().collect();
    let psp = lines[0].strip_prefix("parent psp=").unwrap();
    assert_eq!(lines[1], "child tail=[ hello world]");
    assert_eq!(lines[2], format!("child parent={psp}"));
    assert_eq!(lines[3], "child name=DOSCHILD.COM");
    assert_eq!(lines[4], "4B00 4B00 0");
    assert_eq!(lines[5], "regs kept");
    assert_eq!(lines[6], "4D 0007 0");
    assert_eq!(lines[7], "4D 0000 0");
    assert_eq!(lines[8], "4B00 missing 0002 1");
    let cs = lines[9]
        .strip_prefix("4B01 cs=")
        .and_then(|r| r.split(' ').next())
        .unwrap();
    assert!(
        lines[9].ends_with(" ip=0100 sp=FFFC ax=0000"),
        "{}",
        lines[9]
    );
    assert_eq!(lines[10], format!("current={cs}"));
    // The child was loaded above the parent.
    assert!(u16::from_str_radix(cs, 16).unwrap() > u16::from_str_radix(psp, 16).unwrap());
    std::fs::remove_dir_all(&d).ok();
}

/// The first program is loaded where DOS 5 loads it: after DOS's system
/// block and COMMAND.COM, whose PSP is its parent (and its own parent),
/// below 64 KiB; the MCB chain from AH=52h's list of lists is intact and
/// names them.
#[test]
fn the_first_program_is_command_com_s_child_below_64k() {
    let p = toolhelp16::session::load(&rom("dosenv.com"), &Default::default()).unwrap();
    let toolhelp16::session::Loaded::Dos { psp, .. } = p.loaded else {
        panic!("dosenv.com is a DOS program")
    };
    assert!(psp < 0x1000 && psp > 0x0A00, "PSP {psp:04X}");
    let m = &p.machine;
    use toolhelp16::machine::Cpu;
    let parent = m.read_u16_at(psp, 0x16).unwrap();
    assert_eq!(
        m.read_u16_at(parent, 0x16).unwrap(),
        parent,
        "COMMAND.COM is its own parent"
    );
    let first = m.read_u16_at(0x0070, 0x00FE).unwrap();
    let chain = toolhelp16::dos::memory::chain(m, first).unwrap();
    let owners: Vec<u16> = chain.iter().map(|b| b.owner).collect();
    assert_eq!(owners[0], 8, "DOS's system block first");
    assert!(owners.contains(&parent) && owners.contains(&psp));
    assert!(chain.last().unwrap().last);
}

/// The corpus directory of DOS programs, or None without the corpus
/// (common/need.rs).
fn corpus_dos() -> Option<PathBuf> {
    Some(common::corpus()?.join("dos"))
}

/// A real assembler and a real linker build a program inside the sandbox:
/// NASM writes an OMF object file, MS-DOS 1.25's LINK (IBM Linker 1.10)
/// links it on drive C: into HELLO.EXE, and HELLO.EXE runs and prints.
#[test]
fn link_links_an_assembled_object_in_the_sandbox_and_it_runs() {
    let Some(c) = corpus_dos() else {
        return;
    };
    if !common::need::tool("nasm", "-v", "nasm") {
        return;
    }
    let d = temp("link");
    std::fs::write(
        d.join("hello.asm"),
        "segment code public class=CODE\n..start:\n mov ax, data\n mov ds, ax\n mov dx, msg\n \
         mov ah, 9\n int 21h\n mov ax, 4C05h\n int 21h\nsegment data public class=DATA\n\
         msg db 'Hello from LINK', 13, 10, '$'\nsegment stack stack class=STACK\n resb 256\n",
    )
    .unwrap();
    let st = std::process::Command::new("nasm")
        .args(["-f", "obj", "-o"])
        .arg(d.join("HELLO.OBJ"))
        .arg(d.join("hello.asm"))
        .status()
        .unwrap();
    assert!(st.success());
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null", "--dir"])
        .arg(&d)
        .arg(c.join("msdos125/LINK.EXE"))
        .args(["--", "HELLO;"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert!(v["output"].as_str().unwrap().contains("Linker"), "{v}");
    let exe = std::fs::read(d.join("HELLO.EXE")).expect("LINK wrote HELLO.EXE");
    assert_eq!(&exe[..2], b"MZ");
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&d)
        .arg(d.join("HELLO.EXE"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 5, "{v}");
    assert_eq!(v["output"], "Hello from LINK\r\n");
    std::fs::remove_dir_all(&d).ok();
}

/// Corpus programs end as they do on MS-DOS 5 with one fixed disk C:
/// (LASTDRIVE=E, booted from C:): what each prints first and its exit code.
#[test]
fn corpus_programs_run_to_their_dos_5_exits() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let cases: [(&str, &str, i64); 10] = [
        // INT 21h AX=3305h: the boot drive.
        ("tp7/BOOTDRIV.COM", "BOOT_DRIVE=C:\r\n", 0),
        // The list of lists' LASTDRIVE byte.
        ("tp7/LASTDRIV.COM", "LAST_DRIVE=E:\r\n", 0),
        // IOCTL 4408h: C: is not removable.
        (
            "tp7/DTYPE.COM",
            "Drive C: is a valid drive, and is using non-removable media.",
            0,
        ),
        // IOCTL 4408h/4409h on every letter: only C: answers.
        (
            "tp7/DRIVE.EXE",
            "Drive C:\r\n  Drive C: is a local physical drive, using fixed",
            0,
        ),
        ("tp7/MESSAGE.COM", "Hello World!\r\n", 0),
        (
            "tp7/COMASM.COM",
            "This is a very simple COM program.\r\n",
            0,
        ),
        ("msdos125/EDLIN.COM", "File name must be specified", 0),
        ("msdos125/EXE2BIN.EXE", "File not found", 0),
        ("msdos125/MODE.COM", "\r\nInvalid parameters", 0),
        (
            "tp7/TESTBDIV.EXE",
            "-1449859/75321\r\nresult= -19 (18760 remainder)",
            0,
        ),
    ];
    for (f, starts, code) in cases {
        let d = temp("corpus");
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
            .arg(c.join(f))
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(v["exit"]["kind"], "exited", "{f}: {v}");
        assert_eq!(v["exit"]["code"], code, "{f}: {v}");
        let text = v["output"].as_str().unwrap();
        assert!(text.starts_with(starts), "{f}: {text:?}");
        std::fs::remove_dir_all(&d).ok();
    }
}

/// MS-DOS 1.25's CHKDSK under DOS 5, on the sandbox drive (with a 20 MiB
/// quota, a 40 MiB fixed disk as DOS 5's FORMAT lays it out: 2 KiB
/// clusters, 20431 of them).
///
/// CHKDSK 1.25 asks INT 21h AH=1Ch for the drive and reads DS:BX as DOS 1
/// gave it: a pointer to the FAT itself. DOS 2 and later point DS:BX at one
/// byte, the media ID (MS-DOS 4.0's MISC.ASM copies it into the fixed cell
/// FATBYTE of DOS's data), so CHKDSK walks DOS's own variables as a 12-bit
/// FAT: the root's files have chains that do not match their sizes ("File
/// size error", and CHKDSK "fixes" each by setting the size to what it
/// found: 0 bytes, through FCB random block write with CX = 0), and every
/// non-zero 12-bit word of DOS's data it cannot account for is a lost
/// cluster it frees by writing zeros there. Then it prints its report and
/// exits. A real PC running DOS 5 does the same: this is why DOS 2 and later
/// tools refuse another version. (It clears a word per cluster at its
/// PSP:07B8 first, so a disk of more than 31780 clusters would have it wipe
/// its own code; the 40 MiB drive has fewer. The default 256 MiB quota's
/// 512 MiB drive has more, as a real disk of that size would.)
#[test]
fn chkdsk_1_25_reads_dos_5_data_as_its_fat_and_truncates_files() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let d = temp("chkdsk");
    std::fs::write(d.join("HELLO.TXT"), b"hello, world\r\n").unwrap();
    let out = bin()
        .args([
            "run",
            "--json",
            "--stdin",
            "/dev/null",
            "--disk-quota",
            "20M",
            "--dir",
        ])
        .arg(&d)
        .arg(c.join("msdos125/CHKDSK.COM"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[0], "File size error for file  HELLO    TXT", "{text}");
    assert!(lines[1].ends_with(" bytes disk space freed"), "{text}");
    // AH=1Ch's numbers: 20431 clusters of 4 sectors of 512 bytes.
    assert_eq!(lines[3], " 41842688 bytes total disk space", "{text}");
    assert_eq!(lines[4], " 41842688 bytes available on disk", "{text}");
    // PSP:0002 (top of memory, A000h) and CHKDSK's own segment.
    assert_eq!(lines[6], "   655360 bytes total memory", "{text}");
    assert!(lines[7].ends_with(" bytes free"), "{text}");
    assert_eq!(
        std::fs::read(d.join("HELLO.TXT")).unwrap(),
        b"",
        "CHKDSK set HELLO.TXT's size to the 0 clusters it found"
    );
    std::fs::remove_dir_all(&d).ok();
}

/// Terminate and stay resident, both ways (MS-DOS Programmer's Reference:
/// INT 21h AH=31h keeps DX paragraphs of the PSP's block and ends with
/// code AL; INT 27h keeps DX bytes from the PSP, rounded up to paragraphs,
/// code 0; AH=4Dh answers AH = 3, "ended resident"). DOSTSR.COM hooks
/// INT 66h and goes resident; the parent that EXECs it calls the hook
/// afterwards (the handler and its data are still there: a counter kept
/// across calls, the old vector it chains to), and finds the resident
/// block on the MCB chain, owned by the TSR's PSP, of the size it asked.
#[test]
fn a_tsr_stays_resident_and_its_hook_answers_its_parent() {
    let tsr = std::fs::read(rom("dostsr.com")).unwrap();
    let (v, d) = run_in_sandbox("dostsrp.com", &[("DOSTSR.COM", tsr)], &[]);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let out = v["output"].as_str().unwrap().replace("\r\n", "\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 16, "{out}");
    let mut first_handler = String::new();
    for (run, block) in lines.chunks(8).enumerate() {
        let psp = block[0].strip_prefix("tsr psp=").expect(block[0]);
        let (how, kept) = block[1]
            .strip_prefix("keep ")
            .and_then(|r| r.split_once(' '))
            .expect(block[1]);
        let kept = u16::from_str_radix(kept, 16).unwrap();
        let (paras, code) = match (run, how) {
            (0, "31") => (kept, "0305"),
            (1, "27") => (kept.div_ceil(16), "0300"),
            _ => panic!("run {run} ended with {how}"),
        };
        assert_eq!(block[2], "4B00 4B00 0");
        assert_eq!(block[3], format!("4D {code} 0"), "AH=4Dh: resident, code");
        let hook = block[4].strip_prefix("66 7352 psp=").expect(block[4]);
        assert!(
            hook.starts_with(&format!("{psp} calls=0001 old=")),
            "{hook}"
        );
        assert_eq!(block[5], "66 calls=0002", "the counter was kept");
        let vector = block[6].strip_prefix("35 vector=").expect(block[6]);
        assert!(vector.starts_with(&format!("{psp}:")), "{vector}");
        if run == 0 {
            first_handler = vector[5..].to_string();
        } else {
            // The second TSR chains to the first, still resident.
            assert!(hook.ends_with(&format!("old={first_handler}")), "{hook}");
        }
        assert_eq!(
            block[7],
            format!("mcb M owner={psp} size={paras:04X} next=Z"),
            "the resident block: the TSR's, of the size it kept, then free memory"
        );
    }
    std::fs::remove_dir_all(&d).ok();
}

const MOUSE_SCRIPT: &str = "wait 2; move 100 50; click left; move 200 120; click right; wait 3\n\
                            move 8 8 # the handler wants left presses only now\nclick left; wait 2";

/// The INT 33h driver `--mouse` installs, as the Microsoft Mouse
/// Programmer's Reference describes it (Ralf Brown's list for SI/DI and
/// the text-mode cells), checked line by line through roms/dosmouse.com;
/// then again with the program's own IRQ 12 handler in front of the BIOS's
/// (it counts the nine steps that move or click, and chains).
#[test]
fn mouse_driver_answers_as_microsoft_s() {
    let run = |tail: &[&str]| {
        let out = bin()
            .args([
                "run",
                "--json",
                "--stdin",
                "/dev/null",
                "--mouse",
                MOUSE_SCRIPT,
            ])
            .arg(rom("dosmouse.com"))
            .arg("--")
            .args(tail)
            .output()
            .unwrap();
        let v = json(&out);
        assert_eq!(v["exit"]["code"], 0, "{v}");
        v["output"].as_str().unwrap().replace("\r\n", "\n")
    };
    let mut want = vec![
        // 00h: installed, two buttons.
        "00 FFFF 0002",
        // 03h after a reset: no button down, the centre of the 640 x 200
        // virtual screen (320, 100), reported in 8 x 8 cells: (320, 96).
        "03 0000 0140 0060",
        // 24h: version 8.20, a PS/2 mouse (type 4, IRQ 0 meaning PS/2).
        "24 0820 0400",
        // 04h to (123h, 45h): reported rounded down to the cell.
        "04 0120 0040",
        // 07h/08h: ranges 16..600 (given as 600, 16: swapped) and 8..184;
        // 04h outside them is clipped to the range's ends.
        "07 high 0258 00B8",
        "07 low 0010 0008",
        // 1Ah then 1Bh: the sensitivity as set.
        "1B 001E 0046 0014",
        // The software text cursor (0Ah: screen mask 00FFh, cursor mask
        // 7000h) over 'M' (attribute 07h): hidden after the reset (flag
        // -1); 01h shows it (flag 0) and a second 01h keeps it at 0; 02h
        // twice (-2) needs 01h twice to show again; moving puts the cell
        // back and draws over the next (0000h there: 7000h); 02h erases.
        "cursor 074D 704D 704D 074D 074D 074D 704D 074D 7000 0000",
        // 14h: the mask and handler 0Ch set come back (1: ES:DX is it).
        "14 001F 0001",
        // Six handler calls interrupted the program's loop: its registers
        // are its own again.
        "kept 1111 2222 3333",
        // 0Bh: mickeys since the reset (8 per 8 pixels across, 16 per 8
        // down): -220 + 100 across, -100 + 140 down; then 0.
        "0B FF88 0028",
        "0B 0000 0000",
        // 05h/06h: one press and one release of each button, where they
        // were; a second query: count 0, the place kept.
        "05 left 0000 0001 0060 0030",
        "06 left 0000 0001 0060 0030",
        "05 right 0000 0001 00C8 0078",
        "06 right 0000 0001 00C8 0078",
        "05 left 0000 0000 0060 0030",
        "03 0000 00C8 0078",
        // The handler calls: AX the events (1 moved, 2/4 left down/up,
        // 8/10h right down/up), BX the buttons, CX, DX the position, SI,
        // DI the mickey counters.
        "cb 0001 0000 0060 0030 FF24 FF9C",
        "cb 0002 0001 0060 0030 FF24 FF9C",
        "cb 0004 0000 0060 0030 FF24 FF9C",
        "cb 0001 0000 00C8 0078 FF88 0028",
        "cb 0008 0002 00C8 0078 FF88 0028",
        "cb 0010 0000 00C8 0078 FF88 0028",
        // With the call mask 0002h: the move and the release call nothing,
        // the press does (the counters were read, so from 0).
        "cb 0002 0001 0008 0008 FF40 FF20",
        // 21h: reset again, back to the centre.
        "21 FFFF 0002",
        "03 0000 0140 0060",
    ];
    for tail in [&[][..], &["hook"][..]] {
        if !tail.is_empty() {
            want.push("74 0009");
        }
        let text = run(tail);
        let got: Vec<&str> = text.lines().collect();
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w, "tail {tail:?}");
        }
        assert_eq!(got.len(), want.len(), "{text}");
    }
}

/// Without `--mouse` there is no driver: INT 33h's vector points at an
/// IRET (dos21.com checks its byte), so AX=0000h comes back 0000h and BX
/// as it was; `--mouse` is refused for programs that are not DOS's, and a
/// script that is not one is refused naming the step.
#[test]
fn without_mouse_there_is_no_driver() {
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null"])
        .arg(rom("dosmouse.com"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 1, "{v}");
    assert_eq!(v["output"], "no mouse 0000 1234\r\n");
    let out = bin()
        .args(["run", "--mouse", "click left"])
        .arg(rom("demo.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only DOS programs get a mouse driver"));
    let out = bin()
        .args(["run", "--mouse", "move 1 2; press middle"])
        .arg(rom("dosmouse.com"))
        .output()
        .unwrap();
    // A malformed option value is a usage error (clap's exit status 2).
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`press middle`"));
}

/// `--keys` without `--stdin` makes standard input the console, and DOS's
/// console reads take the keys (MS-DOS reads the console device, which
/// reads the keyboard through the BIOS, unless standard input was
/// redirected). roms/doskeys.asm's header lists what each function returns:
/// 0Bh status, 01h with echo, 08h without, 07h's extended key as 00h then
/// its scan code, 06h DL=FFh with ZF, 0Ah with Backspace editing, 0Ch, a
/// handle read of the console (a whole line and CR LF), and the waiting
/// read that stops the run when the script is used up (exit 126).
#[test]
fn keys_reach_dos_console_reads() {
    let out = bin()
        .args(["run", "--json", "--keys", "a{esc}{f1}xab{bs}c\\rYhi\\r"])
        .arg(rom("doskeys.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126));
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "no-input", "{v}");
    assert!(
        v["exit"]["text"]
            .as_str()
            .unwrap()
            .contains("INT 21h AH=01h"),
        "{v}"
    );
    let want = [
        "0B FF",
        "a01 61",
        "08 1B",
        "07 00 3B",
        "06 78 0",
        "ab\u{8} \u{8}c\r0A 02 ac",
        "0C 59",
        "hi",
        "3F 0004 hi^M^J",
        "06 00 1",
        "0B 00",
        "",
    ];
    assert_eq!(v["output"], want.join("\r\n"), "{v}");
    // With --stdin as well, standard input is that file: the keys stay
    // with INT 16h, and DOS's reads take the file's bytes.
    let d = temp("keys-stdin");
    let f = d.join("in.txt");
    std::fs::write(&f, "one\ntwo\nsix\n").unwrap();
    let out = bin()
        .args(["run", "--json", "--keys", "q", "--stdin"])
        .arg(&f)
        .arg(rom("dosread.com"))
        .output()
        .unwrap();
    assert_eq!(json(&out)["output"], "bytes=000C lines=0003\r\n");
    std::fs::remove_dir_all(&d).ok();
}

/// MS-DOS 1.25's EDLIN edits a file with the keys of `--keys`: it reads
/// its commands and the inserted lines through INT 21h's console input,
/// which ignored the script before. The file it writes back has the new
/// line and EDLIN's Ctrl-Z end-of-file mark; the screen is EDLIN's.
#[test]
fn edlin_takes_its_commands_from_keys() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let d = temp("edlin");
    std::fs::write(d.join("T.TXT"), "one\r\ntwo\r\n").unwrap();
    let out = bin()
        .args([
            "run",
            "--json",
            "--keys",
            "1l\\r3i\\rthree\\r{ctrl-z}\\re\\r",
            "--dir",
        ])
        .arg(&d)
        .arg(c.join("msdos125/EDLIN.COM"))
        .args(["--", "T.TXT"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"],
        "End of input file\r\n*1l\r\n     1:*one\r\n     2: two\r\n*3i\r\n     3:*three\r\n     \
         4:*^Z\r\n*e\r\n"
    );
    assert_eq!(
        std::fs::read(d.join("T.TXT")).unwrap(),
        b"one\r\ntwo\r\nthree\r\n\x1a"
    );
    std::fs::remove_dir_all(&d).ok();
}

/// The text screen is code page 437, as the VGA's font draws it: POST's
/// box (C9h, CDh, BBh ...) reads as ╔═╗, not as Latin-1's É Í », and its
/// tabs were expanded to spaces by DOS's console output, as DOS does.
/// TESTANSI writes ANSI escape sequences, which without ANSI.SYS DOS shows
/// as they are, ESC as its glyph ←: the screen text holds no ESC or any
/// other control byte, so `--screen` cannot drive the user's terminal.
#[test]
fn the_text_screen_is_code_page_437_without_control_bytes() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let screen = |prog: &str| {
        let out = bin()
            .args(["run", "--json", "--stdin", "/dev/null", "--screen"])
            .arg(c.join(prog))
            .output()
            .unwrap();
        let v = json(&out);
        let s = v["screen"].as_str().unwrap().to_string();
        assert!(
            !s.chars().any(|c| c.is_control() && c != '\n'),
            "{prog}: a control character on the screen: {s:?}"
        );
        s
    };
    let post = screen("tp7/POST.COM");
    assert!(post.contains("        ╔═════"), "{post}");
    assert!(post.contains("║  POST version 2.10a"), "{post}");
    assert!(post.contains("═╝"), "{post}");
    let ansi = screen("tp7/TESTANSI.EXE");
    assert!(ansi.contains("←[33;44m╔═══"), "{ansi}");
}

/// An OS/2 bound program (Microsoft LIB 3.10 of MS-DOS 4.0: target OS 1,
/// whose DOS part is BIND's stub loader and Family API library) runs as
/// DOS runs it: the loader opens its own file (C:\LIB.EXE, the name DOS
/// gives it after its environment), loads the OS/2 segments in real mode
/// and runs LIB, which makes an empty library: an OMF library header
/// record (F0h) and the end record (F1h). `info` describes it and says it
/// is bound. An OS/2 program whose DOS part is only a message stub
/// (helloo16.exe) is still refused, as it was.
#[test]
fn a_bound_os2_program_runs_its_dos_part() {
    let Some(c) = corpus_dos() else {
        return;
    };
    let os2lib = c.join("../ne/os2lib.exe");
    let d = temp("bound");
    std::fs::copy(&os2lib, d.join("LIB.EXE")).unwrap();
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null", "--dir"])
        .arg(&d)
        .arg(d.join("LIB.EXE"))
        .args(["--", "NEW.LIB;"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert!(
        v["output"]
            .as_str()
            .unwrap()
            .contains("Microsoft (R) Library Manager  Version 3.10"),
        "{v}"
    );
    let lib = std::fs::read(d.join("NEW.LIB")).expect("LIB wrote NEW.LIB");
    assert_eq!(lib[0], 0xF0, "an OMF library header record");
    assert!(lib.contains(&0xF1), "the library's end record");
    let info = bin()
        .args(["info", "--json"])
        .arg(&os2lib)
        .output()
        .unwrap();
    assert!(info.status.success());
    let i = json(&info);
    assert_eq!(i["format"], "NE");
    assert_eq!(i["target_os"], 1);
    assert_eq!(i["os2_bound"], true);
    let text = bin().args(["info"]).arg(&os2lib).output().unwrap();
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("OS/2 bound (Family API) program"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
    let out = bin()
        .args(["run", "--stdin", "/dev/null"])
        .arg(c.join("../ne/helloo16.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    assert!(String::from_utf8_lossy(&out.stderr).contains("OS/2"));
    std::fs::remove_dir_all(&d).ok();
}

/// `run --events` logs each DOS and BIOS call as the relay log logs Win16
/// API calls: the function (AH, its name), the registers passed and the
/// string a pointer points at, then CF, AX and what else changed. The
/// values are DOS 5's: roms/dosfile.asm creates TEST.TXT (handle 5, the
/// first after the five standard handles), writes its 16 bytes, and its
/// escape from the sandbox fails with 0003 (path not found) and CF set;
/// dosirq's INT 16h read gets `q` (scan 10h, ASCII 71h); demo.exe, a Win16
/// program, prints with INT 21h AH=09h.
#[test]
fn events_log_dos_and_bios_calls() {
    let d = temp("events");
    let run = |args: &[&str], prog: &str| {
        let out = bin()
            .args(["run", "--json", "--events", "--stdin", "/dev/null", "--dir"])
            .arg(&d)
            .args(args)
            .arg(rom(prog))
            .output()
            .unwrap();
        let v = json(&out);
        v["events"]
            .as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let has = |events: &[String], want: &str| {
        assert!(
            events.iter().any(|e| e.contains(want)),
            "no event with {want:?}:\n{}",
            events.join("\n")
        );
    };
    let ev = run(&[], "dosfile.com");
    has(
        &ev,
        "INT 21h AH=3Ch create file: AX=3C00 BX=0089 CX=0000 DX=0411 DS:DX \"TEST.TXT\" -> CF=0 AX=0005",
    );
    has(&ev, "INT 21h AH=40h write: AX=4005 BX=0005 CX=0010");
    has(&ev, "DS:DX \"hello, sandbox\\x0D\\x0A\" -> CF=0 AX=0010");
    has(&ev, "DS:DX \"..\\ESCAPE.TXT\" -> CF=1 AX=0003");
    has(&ev, "INT 21h AH=4Ch terminate with return code: AX=4C2A");
    has(&ev, "ends the program with exit code 42");
    let ev = run(&["--keys", "q"], "dosirq.com");
    has(&ev, "INT 16h AH=00h read key");
    has(&ev, "-> AX=1071");
    let ev = run(&[], "demo.exe");
    has(
        &ev,
        "INT 21h AH=09h display string: AX=0901 BX=0081 CX=0200 DX=0010 DS:DX \"toolhelp16 demo: hello from a Win16 task\\x0D\\x0A\"",
    );
    std::fs::remove_dir_all(&d).ok();
}

/// Without `--events` no interrupt call is logged (the log costs a flag
/// test per call, nothing more).
#[test]
fn without_events_no_interrupt_call_is_logged() {
    for log_calls in [false, true] {
        let opts = toolhelp16::session::LoadOptions {
            stdin: Some(Vec::new()),
            log_calls,
            ..Default::default()
        };
        let mut p = toolhelp16::session::load(&rom("dos21.com"), &opts).unwrap();
        p.run(
            toolhelp16::machine::RunLimits {
                max_insns: 10_000_000,
                timeout: std::time::Duration::from_secs(20),
            },
            None,
        )
        .unwrap();
        let logged = p
            .machine
            .get_data()
            .events
            .iter()
            .filter(|e| e.contains("INT 21h"))
            .count();
        assert_eq!(
            logged > 0,
            log_calls,
            "log_calls {log_calls}: {logged} events"
        );
    }
}

/// The Win16 relay log (`call MODULE.NAME(args) -> DX:AX`) is kept only
/// when asked for (`--events`, LoadOptions::log_calls): an unlogged run
/// formats no call.
#[test]
fn without_events_no_win16_api_call_is_logged() {
    for log_calls in [false, true] {
        let opts = toolhelp16::session::LoadOptions {
            log_calls,
            ..Default::default()
        };
        let mut p = toolhelp16::session::load(&rom("demo.exe"), &opts).unwrap();
        p.run(toolhelp16::machine::RunLimits::default(), None)
            .unwrap();
        let calls = p
            .machine
            .get_data()
            .events
            .iter()
            .filter(|e| e.contains(" call KERNEL.") || e.contains(" call USER."))
            .count();
        assert_eq!(
            calls > 0,
            log_calls,
            "log_calls {log_calls}: {calls} calls logged"
        );
    }
}

/// A DOS program's MODULE:PARA:OFF counts from its load image, in `stack`
/// as in `disasm` (issue 31, Why 7): roms/mzfar.map puts leaf_stop at
/// 0000:002A and helper at 0010:0015 of the image.
#[test]
fn module_para_off_names_the_load_image_in_stack_and_disasm() {
    // A paragraph with hex letters names the same bytes: helper at image
    // offset 0x115 is A:75 and b:65 too.
    for (at, symbol) in [
        ("MZFAR:0:2A", "leaf_stop"),
        ("mzfar:10:15", "helper"),
        ("MZFAR:A:75", "helper"),
        ("mzfar:b:65", "helper"),
    ] {
        let out = common::bin()
            .args(["stack", "--json", "--at", at])
            .arg(common::rom("mzfar.exe"))
            .output()
            .unwrap();
        let v = common::json(&out);
        assert_eq!(v["stop"]["kind"], "breakpoint", "{at}: {v}");
        assert_eq!(v["frames"][0]["symbol"], symbol, "{at}: {v}");
    }
    let out = common::bin()
        .args(["disasm", "--count", "1", "--at", "MZFAR:0:2A"])
        .arg(common::rom("mzfar.exe"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("leaf_stop:\n0000:002A "), "{text}");
    let out = common::bin()
        .args(["disasm", "--count", "1", "--at", "MZFAR:A:75"])
        .arg(common::rom("mzfar.exe"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("helper:\n"), "{text}");
    // An NE module's segment number stays decimal: a hex letter there is
    // refused with a message saying so.
    let out = common::bin()
        .args(["stack", "--at", "DEMO:1A:0"])
        .arg(common::rom("demo.exe"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("decimal from 1"), "{err}");
}

/// A program sees only its own directory as drive C: (README, "DOS
/// programs"); an argument naming a host file outside it gets a note
/// saying so and naming --dir, so the program's "file not found" is not a
/// mystery (issue 31, Why 7). `--quiet` leaves it out.
#[test]
fn an_argument_outside_the_programs_drive_gets_a_hint() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-outside-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("x")).unwrap();
    std::fs::write(dir.join("x").join("T.TXT"), b"hi").unwrap();
    let run = |quiet: bool| {
        let mut c = bin();
        c.current_dir(&dir).arg("run");
        if quiet {
            c.arg("--quiet");
        }
        let out = c
            .arg(rom("dosfile.com"))
            .args(["--", "x/T.TXT", "/L"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run(false);
    assert_eq!(err.matches("note: the argument").count(), 1, "{err}");
    assert!(err.contains("x/T.TXT") && err.contains("--dir"), "{err}");
    assert!(!run(true).contains("note: the argument"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The VGA BIOS's tables behind the video save pointer (0040:00A8), as
/// IBM's VGA BIOS lays them out (Ralf Brown's memory map at 0040:00A8 and
/// INT 10h AH=1Ah; src/dos/vgatables.rs): the secondary save pointer
/// table is 1Ah bytes long; the display combination code table has 16
/// entries, version 1; the 400-line 80-column text entry (18h) holds 80
/// columns, 25 rows, 16-line characters, a 1000h-byte page, misc output
/// 67h, CRTC 09h 4Fh and graphics controller 06h 0Eh (B800h, odd/even);
/// mode 13h's (1Ch) 40 columns, 25 rows, 8 lines, misc 63h.
#[test]
fn the_video_save_pointer_leads_to_ibm_s_vga_tables() {
    let out = common::bin()
        .arg("run")
        .arg(common::rom("vgatable.com"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1A \r\n10 01 \r\n50 18 10 00 10 67 4F 0E \r\n28 18 08 63 \r\n"
    );
}

/// Turbo Pascal 7's LARGE.COM (the corpus's dos/tp7, a TSR that keeps its
/// own text font across mode sets) copies the save pointer table and
/// refuses to install ("Unknown VGA table format") unless the secondary
/// table is the VGA's 1Ah bytes; with the tables there it installs.
#[test]
fn tp7_large_com_installs_its_font_over_the_vga_tables() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let exe = corpus.join("dos/tp7/LARGE.COM");
    if !exe.is_file() {
        common::need::shared_missing(&exe.display().to_string());
        return;
    }
    let out = common::bin().arg("run").arg(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("Large Text Font is now installed."), "{text}");
    assert!(!text.contains("Unknown VGA table format"), "{text}");
}

/// The BIOS tick count (0040:006C) is the BIOS timer handler's to advance
/// (IBM PC/AT Technical Reference, BIOS listing, TIMER_INT): a program
/// that took INT 08h sees it move by one inside each call it makes to the
/// handler it replaced, and not at all while it does not call it
/// (tests/watcom/tickchain.c: three chained ticks, then three it
/// acknowledges itself).
#[test]
fn the_tick_count_advances_when_a_timer_handler_chains_to_the_bios() {
    let Some(exe) = common::watcom::build(
        "tickchain",
        common::watcom::Kind::DosExe,
        &["tickchain.c"],
        None,
        &["-ms"],
    ) else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--stdin", "/dev/null", "--timeout", "60"])
        .arg(&exe)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exit"]["code"], 0, "{v}");
    assert_eq!(
        v["output"].as_str().unwrap().replace("\r\n", "\n"),
        "chained 1 0\nchained 1 0\nchained 1 0\nunchained 0 0\nfirst same\n"
    );
}
