//! Property tests: no bytes make the symbol readers panic, hang or
//! allocate without bound, and whatever they accept fits or is refused
//! cleanly; the demangler takes any string.

use proptest::prelude::*;
use toolhelp16::symbols::{self, SymbolTable, demangle::demangle, fit::Target};

/// Parse, fit to a DOS image and to the sample NE module, and look up.
fn exercise(bytes: &[u8]) {
    let ne = toolhelp16::loader::NeImage::parse(&toolhelp16::loader::testdata::sample_ne())
        .expect("the sample NE parses");
    for ext in [Some("sym"), Some("map"), None] {
        let Ok(layouts) = symbols::parse_bytes(bytes, ext) else {
            continue;
        };
        for l in &layouts {
            for target in [Target::Dos { image_len: 0x10000 }, Target::Ne(&ne)] {
                let mut t = SymbolTable::new();
                if symbols::fit::fit(l, &target, &mut t).is_ok() {
                    t.finish();
                    for probe in [0u32, 1, 0x7F, 0xFFFF] {
                        let _ = t.lookup(1, probe);
                        let _ = t.lookup_linear(probe);
                    }
                }
            }
            let _ = symbols::mapsym::write_layout("PROP", l);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        exercise(&bytes);
    }

    #[test]
    fn a_damaged_sym_file_never_panics(
        edits in proptest::collection::vec((0usize..0x200, any::<u8>()), 1..16)
    ) {
        let mut bytes = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/symbols/demo.sym"),
        )
        .unwrap();
        for (at, b) in edits {
            if at < bytes.len() {
                bytes[at] = b;
            }
        }
        exercise(&bytes);
    }

    #[test]
    fn map_like_text_never_panics(lines in proptest::collection::vec(
        prop_oneof![
            Just(" Start     Length     Name                   Class".to_string()),
            Just("  Address         Publics by Value".to_string()),
            Just("|   Memory Map   |".to_string()),
            Just("|   Segments   |".to_string()),
            "[ 0-9A-Fa-f:H]{0,24}[ A-Za-z_?@]{0,12}",
        ],
        0..40,
    )) {
        let text = lines.join("\n");
        exercise(text.as_bytes());
        let watcom = format!("Open Watcom Linker Version 1.9\n{text}");
        exercise(watcom.as_bytes());
    }

    #[test]
    fn demangling_any_string_never_panics(s in "\\?[?@0-9A-Z_a-z$]{0,60}") {
        let _ = demangle(&s);
    }
}
