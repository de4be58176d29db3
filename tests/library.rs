//! The library as a program uses it (examples/walk.rs does the same):
//! load from bytes or a path, run to a place, walk; typed load errors.

mod common;

use common::rom;
use toolhelp16::machine::RunLimits;
use toolhelp16::session::{self, LoadFailure, LoadOptions, Loc};

fn frames(p: &session::Program, stop: &toolhelp16::machine::Stop) -> Vec<(u16, u16, u16)> {
    p.walk_at_stop(stop)
        .unwrap()
        .frames
        .iter()
        .map(|f| (f.w_bp, f.w_cs, f.w_ip))
        .collect()
}

#[test]
fn a_program_loaded_from_bytes_walks_as_from_its_file() {
    let at: Loc = "DEMO:1:003A".parse().unwrap();
    let bytes = std::fs::read(rom("demo.exe")).unwrap();
    let mut from_bytes = session::load_bytes("DEMO.EXE", &bytes, &LoadOptions::default()).unwrap();
    let stop = from_bytes.run(RunLimits::default(), Some(&at)).unwrap();
    let a = frames(&from_bytes, &stop);
    let mut from_file = session::load(&rom("demo.exe"), &LoadOptions::default()).unwrap();
    let stop2 = from_file.run(RunLimits::default(), Some(&at)).unwrap();
    let b = frames(&from_file, &stop2);
    // roms/demo.asm: PaintLine, four calls deep (README, "A first example").
    assert_eq!(a.len(), 4, "{a:X?}");
    assert_eq!(a, b);
    assert_eq!(a[0].1, a[3].1, "frames 0 and 3 are in segment 1");
}

#[test]
fn a_com_program_loads_from_bytes_by_its_name() {
    let bytes = std::fs::read(rom("comchain.com")).unwrap();
    let mut p = session::load_bytes("COMCHAIN.COM", &bytes, &LoadOptions::default()).unwrap();
    assert!(matches!(p.loaded, session::Loaded::Dos { .. }));
    let stop = p.run(RunLimits::default(), None).unwrap();
    assert!(
        matches!(stop, toolhelp16::machine::Stop::Exited { .. }),
        "{stop:?}"
    );
}

#[test]
fn malformed_bytes_are_a_typed_format_error_naming_the_program() {
    // An MZ header whose e_cparhdr (offset 8) claims a header longer than
    // the file.
    let mut bytes = vec![0u8; 64];
    bytes[0] = b'M';
    bytes[1] = b'Z';
    bytes[2] = 64; // e_cblp
    bytes[4] = 1; // e_cp
    bytes[8] = 0xFF; // e_cparhdr
    let err = match session::load_bytes("BAD.EXE", &bytes, &LoadOptions::default()) {
        Err(e) => e,
        Ok(_) => panic!("a malformed header loaded"),
    };
    match &err {
        LoadFailure::Format { file, error } => {
            assert_eq!(file, "BAD.EXE");
            assert!(error.offset.is_some(), "{error:?}");
        }
        other => panic!("not a format error: {other:?}"),
    }
    let text = err.to_string();
    assert!(text.starts_with("BAD.EXE: offset 0x"), "{text}");
    // The loader's error is the source (std::error::Error).
    assert!(std::error::Error::source(&err).is_some());
}
