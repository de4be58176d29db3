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

/// Read `bytes` as an executable's appended debug information, fit what
/// is read to a DOS image and to the sample NE module, and look up.
fn exercise_debug(bytes: &[u8]) {
    use toolhelp16::symbols::{codeview, dwarf, lines, watdbg};
    let ne = toolhelp16::loader::NeImage::parse(&toolhelp16::loader::testdata::sample_ne())
        .expect("the sample NE parses");
    for info in [
        dwarf::parse(bytes),
        codeview::parse(bytes),
        watdbg::parse(bytes),
    ]
    .into_iter()
    .flatten()
    {
        assert!(info.rows.len() <= lines::MAX_ROWS);
        for target in [Target::Dos { image_len: 0x10000 }, Target::Ne(&ne)] {
            if let Ok(t) = lines::fit(&info, &target) {
                for probe in [0u32, 1, 0x7F, 0xFFFF] {
                    let _ = t.line(1, probe);
                    let _ = t.line(lines::DOS_SEGMENT, probe);
                    let _ = t.function(1, probe);
                }
                let _ = t.address_of("a.c", 1);
            }
        }
    }
}

/// An ELF32 image holding `sections` (name, bytes) and a DWARF TIS
/// trailer, as wlink appends it.
fn elf_with(sections: &[(&str, &[u8])]) -> Vec<u8> {
    let mut names = vec![0u8];
    let mut name_at = Vec::new();
    for (n, _) in sections {
        name_at.push(names.len() as u32);
        names.extend_from_slice(n.as_bytes());
        names.push(0);
    }
    let shstr_name = names.len() as u32;
    names.extend_from_slice(b".shstrtab\0");
    let count = sections.len() + 2;
    let shoff = 52u32;
    let mut data_at = shoff as usize + 40 * count;
    let mut elf = vec![0u8; 52];
    elf[..6].copy_from_slice(b"\x7fELF\x01\x01");
    elf[0x20..0x24].copy_from_slice(&shoff.to_le_bytes());
    elf[0x2E..0x30].copy_from_slice(&40u16.to_le_bytes());
    elf[0x30..0x32].copy_from_slice(&(count as u16).to_le_bytes());
    elf[0x32..0x34].copy_from_slice(&((count - 1) as u16).to_le_bytes());
    let mut headers = vec![0u8; 40];
    let mut body = Vec::new();
    let header = |name: u32, len: usize, at: usize| {
        let mut h = vec![0u8; 40];
        h[0..4].copy_from_slice(&name.to_le_bytes());
        h[16..20].copy_from_slice(&(at as u32).to_le_bytes());
        h[20..24].copy_from_slice(&(len as u32).to_le_bytes());
        h
    };
    for (i, (_, b)) in sections.iter().enumerate() {
        headers.extend(header(name_at[i], b.len(), data_at));
        body.extend_from_slice(b);
        data_at += b.len();
    }
    headers.extend(header(shstr_name, names.len(), data_at));
    body.extend_from_slice(&names);
    elf.extend(headers);
    elf.extend(body);
    let size = (elf.len() + 16) as u32;
    elf.extend_from_slice(b"TIS\0");
    elf.extend_from_slice(&[0; 8]);
    elf.extend_from_slice(&size.to_le_bytes());
    let mut exe = b"MZ..".to_vec();
    exe.extend(elf);
    exe
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn debug_readers_take_arbitrary_bytes_after_any_trailer(
        body in proptest::collection::vec(any::<u8>(), 0..2048),
        back in 0u32..2200,
        sig in 0usize..3,
    ) {
        let mut b = body;
        match sig {
            0 => {
                b.extend_from_slice(b"TIS\0");
                b.extend_from_slice(&[0; 8]);
            }
            1 => b.extend_from_slice(b"NB09"),
            _ => b.extend_from_slice(b"NB05"),
        }
        b.extend_from_slice(&back.to_le_bytes());
        exercise_debug(&b);
    }

    #[test]
    fn watcom_information_of_arbitrary_bytes_never_panics(
        body in proptest::collection::vec(any::<u8>(), 0..2048),
        sizes in proptest::collection::vec(any::<u16>(), 2),
        back in 0u32..2200,
        trailer in any::<bool>(),
    ) {
        // A master header (signature 0x8386, versions 3.0 and 1.3) with
        // arbitrary table sizes and debug size over arbitrary bytes,
        // sometimes under another Watcom trailer.
        let mut b = body;
        b.extend_from_slice(&[0x86, 0x83, 3, 0, 1, 3]);
        b.extend_from_slice(&(sizes[0] % 64).to_le_bytes());
        b.extend_from_slice(&(sizes[1] % 64).to_le_bytes());
        b.extend_from_slice(&back.to_le_bytes());
        if trailer {
            b.extend_from_slice(&[0x02, 0x83, 0, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0]);
        }
        exercise_debug(&b);
    }

    #[test]
    fn dwarf_sections_of_arbitrary_bytes_never_panic(
        info in proptest::collection::vec(any::<u8>(), 0..512),
        abbrev in proptest::collection::vec(any::<u8>(), 0..256),
        line in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        // A plausible unit header in front: version 2, 16-bit addresses.
        let mut unit = ((info.len() + 7) as u32).to_le_bytes().to_vec();
        unit.extend_from_slice(&[2, 0, 0, 0, 0, 0, 2]);
        unit.extend_from_slice(&info);
        exercise_debug(&elf_with(&[
            (".debug_info", &unit),
            (".debug_abbrev", &abbrev),
            (".debug_line", &line),
        ]));
        exercise_debug(&elf_with(&[(".debug_info", &info), (".debug_line", &line)]));
    }
}

#[test]
fn the_generated_dwarf_container_is_read() {
    let info = toolhelp16::symbols::dwarf::parse(&elf_with(&[(".debug_line", &[])]))
        .expect("an empty DWARF image reads");
    assert!(info.rows.is_empty() && info.functions.is_empty());
}
