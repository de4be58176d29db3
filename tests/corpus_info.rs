//! Every NE and MZ file of the shared corpus parses and agrees with the
//! header column of `../shared/corpus/MANIFEST.tsv`; the refusals the
//! corpus README promises happen. Without the corpus: common/need.rs.

use std::collections::BTreeMap;
use std::path::Path;

use toolhelp16::loader::{
    FarPtr, Image, KindHint, MzImage, NeImage, RelocTarget, apply_relocations, info, parse,
    render_text,
};

mod common;
use common::corpus;

/// MANIFEST.tsv: path -> header column.
fn manifest(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Some((cols.first()?.to_string(), cols.last()?.to_string()))
        })
        .collect()
}

/// `key=value` fields of a header column.
fn field<'a>(header: &'a str, key: &str) -> &'a str {
    header
        .split(' ')
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in {header:?}"))
}

fn hex_pair(s: &str) -> (u16, u16) {
    let (a, b) = s.split_once(':').expect("seg:off");
    (
        u16::from_str_radix(a, 16).expect("hex"),
        u16::from_str_radix(b, 16).expect("hex"),
    )
}

fn read(dir: &Path, rel: &str) -> Vec<u8> {
    std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_corpus_file_matches_the_manifest() {
    let Some(dir) = corpus() else { return };
    let m = manifest(&dir);
    let (mut n_ne, mut n_mz, mut n_other) = (0, 0, 0);
    for (rel, header) in &m {
        if !(rel.starts_with("ne/") || rel.starts_with("dos/")) {
            continue;
        }
        let bytes = read(&dir, rel);
        let img = parse(&bytes, KindHint::Auto).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let i = info(&img);
        assert_eq!(i.size, bytes.len() as u64, "{rel}");
        assert!(!render_text(&i).is_empty());
        serde_json::to_string(&i).expect("serialise");
        if let Some(h) = header.strip_prefix("MZ ") {
            let Image::Mz(mz) = &img else {
                panic!("{rel}: expected MZ, got {}", i.format)
            };
            assert_eq!(
                (mz.header.e_cs, mz.header.e_ip),
                hex_pair(field(h, "cs:ip")),
                "{rel} cs:ip"
            );
            assert_eq!(
                (mz.header.e_ss, mz.header.e_sp),
                hex_pair(field(h, "ss:sp")),
                "{rel} ss:sp"
            );
            let relocs: usize = field(h, "relocs").parse().expect("relocs");
            assert_eq!(mz.relocs.len(), relocs, "{rel} relocs");
            assert!(!mz.image.is_empty(), "{rel}: empty load module");
            n_mz += 1;
        } else if let Some(h) = header.strip_prefix("NE ") {
            let Image::Ne(ne) = &img else {
                panic!("{rel}: expected NE, got {}", i.format)
            };
            let os: u8 = field(h, "os").parse().expect("os");
            assert_eq!(ne.header.target_os, os, "{rel} os");
            let segs: usize = field(h, "segs").parse().expect("segs");
            assert_eq!(ne.segments.len(), segs, "{rel} segs");
            assert_eq!(ne.module_name(), Some(field(h, "module")), "{rel} module");
            let dll = h.split(' ').any(|w| w == "DLL");
            assert_eq!(ne.header.is_library(), dll, "{rel} DLL/EXE");
            let link = format!("{}.{}", ne.header.linker_version, ne.header.linker_revision);
            assert_eq!(link, field(h, "link"), "{rel} link");
            assert_eq!(
                ne.header.windows_version_text(),
                field(h, "winver"),
                "{rel} winver"
            );
            assert_eq!(
                ne.module_refs.join(","),
                field(h, "imports"),
                "{rel} imports"
            );
            // Every segment's relocations apply to its allocated image.
            for s in &ne.segments {
                let mut data = s.data.clone();
                data.resize(s.alloc_size() as usize, 0);
                apply_relocations(&mut data, &s.relocs, &mut |_| {
                    Ok(FarPtr {
                        selector: 0x1007,
                        offset: 0x1234,
                    })
                })
                .unwrap_or_else(|e| panic!("{rel} segment {}: {e}", s.number));
            }
            n_ne += 1;
        } else {
            assert!(
                matches!(img, Image::Com(_) | Image::Raw(_)),
                "{rel}: manifest says {header:?}, parsed as {}",
                i.format
            );
            n_other += 1;
        }
    }
    assert_eq!(n_ne, 7, "NE files seen");
    assert!(n_mz >= 20, "MZ files seen: {n_mz}");
    assert!(n_other >= 20, "other files seen: {n_other}");
}

fn ne(dir: &Path, rel: &str) -> NeImage {
    NeImage::parse(&read(dir, rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn refusals_say_what_the_file_is() {
    let Some(dir) = corpus() else { return };
    for rel in ["ne/os2lib.exe", "ne/helloo16.exe"] {
        let e = ne(&dir, rel).check_runnable(true).unwrap_err();
        assert!(e.message.contains("OS/2 NE executable"), "{rel}: {e}");
    }
    let e = ne(&dir, "ne/helloo16.exe")
        .check_runnable(true)
        .unwrap_err();
    assert!(e.message.contains("DOSCALLS"), "{e}");
    let e = ne(&dir, "ne/vgaoem.fon").check_runnable(true).unwrap_err();
    assert!(
        e.message.contains("no segments") && e.message.contains("resource-only"),
        "{e}"
    );
    let e = ne(&dir, "ne/dummydll.dll")
        .check_runnable(true)
        .unwrap_err();
    assert!(e.message.contains("library module"), "{e}");
    ne(&dir, "ne/dummydll.dll").check_runnable(false).unwrap();
    for rel in ["ne/flaggen.exe", "ne/helljw16.exe", "ne/wheeltst.exe"] {
        ne(&dir, rel)
            .check_runnable(true)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
    }
}

#[test]
fn imports_of_known_programs() {
    let Some(dir) = corpus() else { return };
    let f = ne(&dir, "ne/flaggen.exe");
    assert_eq!(f.module_refs, ["GDI", "USER", "KERNEL"]);
    let w = ne(&dir, "ne/wheeltst.exe");
    for m in ["KEYBOARD", "SOUND", "WIN87EM"] {
        assert!(w.module_refs.iter().any(|r| r == m), "wheeltst lacks {m}");
    }
    // helljw16: the classic start-up imports, named.
    let h = ne(&dir, "ne/helljw16.exe");
    let j = serde_json::to_value(info(&Image::Ne(h))).unwrap();
    let kernel = j["imports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["module"] == "KERNEL")
        .expect("KERNEL import");
    let names: Vec<&str> = kernel["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(names, ["WaitEvent", "InitTask"]);
    // Every ordinal the corpus programs import from a Windows module has a
    // name in the ordinal table.
    for rel in [
        "ne/flaggen.exe",
        "ne/helljw16.exe",
        "ne/wheeltst.exe",
        "ne/dummydll.dll",
    ] {
        let n = ne(&dir, rel);
        for r in n.segments.iter().flat_map(|s| s.relocs.iter()) {
            if let RelocTarget::ImportOrdinal { module, ordinal } = r.target {
                let m = n.module_ref_name(module).expect("module index in range");
                assert!(
                    toolhelp16::loader::ordinal_name(m, ordinal).is_some(),
                    "{rel}: {m}.{ordinal} has no name"
                );
            }
        }
    }
    // helljw16: segment 2 has no file data, alignment shift 1.
    let h = ne(&dir, "ne/helljw16.exe");
    assert_eq!(h.header.alignment_shift(), 1);
    assert!(!h.segments[1].has_data());
    assert_eq!(h.segments[1].file_length(), 0);
    assert_eq!(h.segments[1].alloc_size(), 0x10);
}

#[test]
fn helloe_header_overlaps_code_and_is_runnable() {
    let Some(dir) = corpus() else { return };
    let b = read(&dir, "dos/edge/helloe.exe");
    let m = MzImage::parse(&b).unwrap();
    assert_eq!(m.image_range, 0..40);
    assert_eq!(m.header.e_lfanew, None);
    // CS:IP = FFF0:010A relative to the load segment, which sits 0x10
    // paragraphs above the PSP: PSP:010A, i.e. image offset 0x0A.
    let entry = (m.header.e_cs as i16 as i64) * 16 + m.header.e_ip as i64;
    assert_eq!(entry, 0x0A);
    assert_eq!(m.image.get(0x0A), Some(&0xB8), "mov ax, imm16 at the entry");
}

#[test]
fn com_files_are_com() {
    let Some(dir) = corpus() else { return };
    let b = read(&dir, "dos/edge/helloc.com");
    assert!(matches!(parse(&b, KindHint::Auto), Ok(Image::Com(c)) if c.bytes == b));
    assert!(matches!(parse(&b, KindHint::Com), Ok(Image::Com(_))));
}
