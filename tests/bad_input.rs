//! What a bad file or a misbehaving program gets: the answer the real
//! machine gives (a fault with its number and walk, a DOS result), or a
//! load error naming the file, the structure and field, and the offset.
//! Never exit 125 (kept for toolhelp16's own bugs), never an emulator's
//! internal words, never a control character from the file on a terminal.

mod common;
use common::{bin, json, rom, scratch};

/// A copy of a roms/ program with `edit` applied, in a directory of its
/// own (its drive C:).
fn variant(name: &str, from: &str, edit: impl FnOnce(&mut Vec<u8>)) -> std::path::PathBuf {
    let dir = scratch(name);
    let mut data = std::fs::read(rom(from)).unwrap();
    edit(&mut data);
    let ext = std::path::Path::new(from).extension().unwrap();
    let path = dir.join(format!("{name}.{}", ext.to_string_lossy()));
    std::fs::write(&path, data).unwrap();
    path
}

/// The file offset of the NE header.
fn ne(data: &[u8]) -> usize {
    usize::from(u16::from_le_bytes([data[0x3C], data[0x3D]]))
}

fn run(args: &[&str], file: &std::path::Path) -> (Option<i32>, String, String) {
    let out = bin().args(args).arg(file).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Nothing internal shows: no Debug formatting, no unicorn error names.
fn plain_words(text: &str) {
    for bad in [
        "Error(",
        "unicorn",
        "EXCEPTION",
        "READ_UNMAPPED",
        "Some(",
        "emulator error",
    ] {
        assert!(!text.contains(bad), "{bad:?} in {text}");
    }
}

/// An NE header whose SS:SP names a code segment as the stack: a load
/// error naming the field and its file offset (demo.exe: the NE header at
/// 80h, SS:SP at 80h + 18h), not the CPU refusing the selector.
#[test]
fn a_stack_in_a_code_segment_is_a_load_error_naming_the_field() {
    let f = variant("sscode", "demo.exe", |d| {
        let at = ne(d) + 0x1A;
        d[at..at + 2].copy_from_slice(&1u16.to_le_bytes());
    });
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(120), "{err}");
    assert!(
        err.contains("NE header field SS:SP (offset 98h): SS is segment 1, a code segment"),
        "{err}"
    );
    plain_words(&err);
    // SP outside the stack segment names the same field.
    let f = variant("spfar", "demo.exe", |d| {
        let at = ne(d) + 0x18;
        d[at..at + 2].copy_from_slice(&0xFFF0u16.to_le_bytes());
    });
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(120), "{err}");
    assert!(
        err.contains("NE header field SS:SP (offset 98h): SP FFF0"),
        "{err}"
    );
    // An entry point in a data segment names CS:IP.
    let f = variant("csdata", "demo.exe", |d| {
        let at = ne(d) + 0x16;
        d[at..at + 2].copy_from_slice(&3u16.to_le_bytes());
    });
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(120), "{err}");
    assert!(
        err.contains("NE header field CS:IP (offset 94h): CS is segment 3, a data segment"),
        "{err}"
    );
}

/// A relocation that makes a far call into the data segment: the call
/// loads CS with a selector that is no code segment, a general-protection
/// fault on Windows, reported with the selector and the walk. (demo.exe's
/// segment 1 relocation 1 is the far call to segment 2; its record lies at
/// 1B9h, the target segment number at 1BDh.)
#[test]
fn a_relocation_to_a_data_segment_faults_at_the_call() {
    let f = variant("reldata", "demo.exe", |d| d[0x1BD] = 3);
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(121), "{err}");
    assert!(
        err.contains("general protection fault (exception 13)"),
        "{err}"
    );
    assert!(err.contains("loading CS with non-code selector"), "{err}");
    assert!(err.contains("walk ended:"), "{err}");
    plain_words(&err);
    // A relocation record that names no segment: a load error with the
    // record's file offset.
    let f = variant("relnone", "demo.exe", |d| d[0x1BD] = 9);
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(120), "{err}");
    assert!(
        err.contains("offset 0x1BD (segment 1 relocation 1)"),
        "{err}"
    );
    let f = variant("reltype", "demo.exe", |d| d[0x1B9] = 7);
    let (code, _, err) = run(&["run"], &f);
    assert_eq!(code, Some(120), "{err}");
    assert!(
        err.contains("offset 0x1B9 (relocation record 1): unknown source type 7"),
        "{err}"
    );
}

/// An MZ relocation far past the load module patches memory where DOS
/// would, its segment added to the load segment in 16 bits, and the
/// program runs (it was "relocation: READ_UNMAPPED", exit 125).
#[test]
fn an_mz_relocation_past_memory_wraps_as_dos_adds_it() {
    let f = variant("mzreloc", "mzfar.exe", |d| {
        let table = usize::from(u16::from_le_bytes([d[0x18], d[0x19]]));
        assert!(
            u16::from_le_bytes([d[6], d[7]]) > 0,
            "mzfar has relocations"
        );
        // The first relocation: offset FFFE in segment FFF0.
        d[table..table + 4].copy_from_slice(&[0xFE, 0xFF, 0xF0, 0xFF]);
    });
    let (code, _, err) = run(&["run", "--max-insns", "100000"], &f);
    assert!(
        code.is_some() && code != Some(125) && code != Some(120),
        "{code:?} {err}"
    );
    plain_words(&err);
}

/// A handle write whose buffer runs past the end of its segment writes
/// the bytes up to the end and returns that count, as DOS's SETUP trims
/// it: 16 of 32 bytes from DS:FFF0. The program exits with AL = AX.
#[test]
fn a_dos_buffer_at_the_end_of_its_segment_is_cut_there() {
    let dir = scratch("bufend");
    let prog = dir.join("bufend.com");
    std::fs::write(
        &prog,
        [
            0xBA, 0xF0, 0xFF, // mov dx, FFF0h
            0xB9, 0x20, 0x00, // mov cx, 20h
            0xBB, 0x01, 0x00, // mov bx, 1 (standard output)
            0xB4, 0x40, // mov ah, 40h
            0xCD, 0x21, // int 21h
            0xB4, 0x4C, // mov ah, 4Ch (AL = bytes written)
            0xCD, 0x21, // int 21h
        ],
    )
    .unwrap();
    let out = bin().args(["run", "--json"]).arg(&prog).output().unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(16), "{v}");
    assert_eq!(v["output"].as_str().unwrap().chars().count(), 16, "{v}");
}

/// An input file past its format's cap is refused with its name and the
/// cap, after reading no more than the cap.
#[test]
fn inputs_are_read_with_a_cap() {
    if !std::path::Path::new("/dev/zero").exists() {
        common::need::tool_missing("/dev/zero", "a Unix host has it");
        return;
    }
    let (code, _, err) = run(&["info"], std::path::Path::new("/dev/zero"));
    assert_eq!(code, Some(120));
    assert!(
        err.contains("/dev/zero: larger than 32 MiB, the most an executable may be"),
        "{err}"
    );
    let out = bin()
        .args(["run", "--stdin", "/dev/zero"])
        .arg(rom("dosread.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(120));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--stdin /dev/zero: larger than 16 MiB"),
        "{err}"
    );
}

/// A module name with an ESC in it: text output shows it as \x1B (info,
/// the stack table, the run report), JSON keeps the exact string.
#[test]
fn control_characters_from_the_file_are_shown_escaped() {
    let f = variant("escname", "demo.exe", |d| {
        let n = ne(d);
        let names = n + usize::from(u16::from_le_bytes([d[n + 0x26], d[n + 0x27]]));
        assert_eq!(&d[names..names + 5], b"\x04DEMO");
        d[names + 2] = 0x1B; // "D\x1BMO"
    });
    let (code, out, err) = run(&["info"], &f);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("module: D\\x1BMO"), "{out}");
    assert!(!out.contains('\x1B') && !err.contains('\x1B'));
    let (_, out, err) = run(&["stack", "--at", "+40"], &f);
    assert!(out.contains("D\\x1BMO"), "{out}{err}");
    assert!(!out.contains('\x1B') && !err.contains('\x1B'));
    let (_, out, _) = run(&["info", "--json"], &f);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["module"], "D\u{1b}MO");
}
