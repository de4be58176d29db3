//! Property tests: no input makes the loader panic or hang, and broken
//! relocation chains are errors.

use std::path::PathBuf;

mod common;

use proptest::prelude::*;
use toolhelp16::loader::ne::{MAX_EXPANDED_BYTES, expand_iterated};
use toolhelp16::loader::testdata::{SAMPLE_CHAIN, sample_iterated_ne, sample_ne};
use toolhelp16::loader::{
    FarPtr, Image, KindHint, MzImage, NeImage, NeReloc, RelocTarget, apply_relocations, info,
    parse, render_text,
};

fn any_ptr(_: &RelocTarget) -> Result<FarPtr, String> {
    Ok(FarPtr {
        selector: 0x1007,
        offset: 0x0123,
    })
}

/// Everything a caller might do with a file; must never panic.
fn exercise(bytes: &[u8]) {
    for hint in [
        KindHint::Auto,
        KindHint::Com,
        KindHint::BootSector,
        KindHint::Raw {
            load: (0xF000, 0),
            entry: (0xF000, 0xFFF0),
        },
    ] {
        if let Ok(img) = parse(bytes, hint) {
            let i = info(&img);
            let _ = render_text(&i);
            let _ = serde_json::to_string(&i);
            if let Image::Ne(ne) = &img {
                exercise_ne(ne);
            }
        }
    }
    let _ = MzImage::parse(bytes);
    if let Ok(ne) = NeImage::parse(bytes) {
        exercise_ne(&ne);
    }
}

fn exercise_ne(ne: &NeImage) {
    let _ = ne.check_runnable(true);
    let _ = ne.check_runnable(false);
    for s in &ne.segments {
        let mut data = s.data.clone();
        let _ = apply_relocations(&mut data, &s.relocs, &mut any_ptr);
        data.resize(s.alloc_size() as usize, 0);
        let _ = apply_relocations(&mut data, &s.relocs, &mut any_ptr);
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Mutation::Flip(i, x)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Insert(i, x)),
        1 => any::<usize>().prop_map(Mutation::Delete),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut v: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
    for m in ms {
        if v.is_empty() {
            break;
        }
        let n = v.len();
        match *m {
            Mutation::Flip(i, x) => v[i % n] ^= x,
            Mutation::Insert(i, x) => v.insert(i % (n + 1), x),
            Mutation::Delete(i) => {
                v.remove(i % n);
            }
            Mutation::Truncate(i) => v.truncate(i % n),
        }
    }
    v
}

/// The header-heavy start of every corpus NE and MZ file, when present.
fn corpus_files() -> Vec<Vec<u8>> {
    let Some(dir) = common::corpus() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in ["ne", "dos/edge", "dos/msdos125", "dos/tp7"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if let Ok(b) = std::fs::read(&p) {
                if b.starts_with(b"MZ") {
                    out.push(b);
                }
            }
        }
    }
    assert!(!out.is_empty(), "{}: no NE or MZ files", dir.display());
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        exercise(&bytes);
    }

    #[test]
    fn arbitrary_bytes_behind_headers_never_panic(
        tail in proptest::collection::vec(any::<u8>(), 0..2048),
        lfanew in 0u32..0x100,
    ) {
        // An MZ header pointing at an NE signature followed by noise, so the
        // NE parser sees garbage tables rather than failing at the magic.
        let mut f = vec![0u8; 0x40];
        f[0] = b'M';
        f[1] = b'Z';
        f[0x3C..0x40].copy_from_slice(&lfanew.to_le_bytes());
        f.extend_from_slice(&tail);
        let at = lfanew as usize;
        if at + 2 <= f.len() {
            f[at] = b'N';
            f[at + 1] = b'E';
        }
        exercise(&f);
        let _ = NeImage::parse_at(&f, lfanew as u64);
    }

    #[test]
    fn mutated_sample_ne_never_panics(ms in proptest::collection::vec(mutation(), 1..8)) {
        exercise(&mutate(sample_ne(), &ms));
    }

    #[test]
    fn mutated_iterated_sample_never_panics(ms in proptest::collection::vec(mutation(), 1..8)) {
        exercise(&mutate(sample_iterated_ne(), &ms));
    }

    /// Arbitrary bytes as an iterated segment's records: the expansion is
    /// an error or at most the allocation, never a panic; an error names
    /// an offset inside the records.
    #[test]
    fn arbitrary_iteration_records_are_bounded(
        raw in proptest::collection::vec(any::<u8>(), 0..512),
        limit in 0u32..0x10001,
    ) {
        match expand_iterated(&raw, 0x1000, limit, 1) {
            Ok(out) => prop_assert!(out.len() as u64 <= u64::from(limit)),
            Err(e) => {
                let o = e.offset.unwrap();
                prop_assert!((0x1000..0x1000 + raw.len() as u64).contains(&o), "{}", e);
            }
        }
    }

    /// Iterated records built from arbitrary (count, pattern) pairs expand
    /// to the patterns repeated, in order.
    #[test]
    fn iteration_records_expand_to_their_repetitions(
        recs in proptest::collection::vec(
            (0u16..8, proptest::collection::vec(any::<u8>(), 0..8)), 0..12),
    ) {
        let mut raw = Vec::new();
        let mut want = Vec::new();
        for (count, pat) in &recs {
            raw.extend_from_slice(&count.to_le_bytes());
            raw.extend_from_slice(&(pat.len() as u16).to_le_bytes());
            raw.extend_from_slice(pat);
            for _ in 0..*count {
                want.extend_from_slice(pat);
            }
        }
        prop_assert_eq!(expand_iterated(&raw, 0, 0x10000, 1).unwrap(), want);
    }

    #[test]
    fn arbitrary_relocations_terminate(
        data in proptest::collection::vec(any::<u8>(), 0..512),
        relocs in proptest::collection::vec(
            (prop_oneof![Just(0u8), Just(2), Just(3), Just(5), Just(11), Just(13), any::<u8>()],
             any::<u8>(), any::<u16>()),
            0..16),
    ) {
        let relocs: Vec<NeReloc> = relocs
            .into_iter()
            .map(|(src_type, flags, offset)| NeReloc {
                src_type,
                flags: flags & !3,
                offset: if data.is_empty() { offset } else { offset % data.len() as u16 },
                target: RelocTarget::ImportOrdinal { module: 1, ordinal: 1 },
            })
            .collect();
        let mut d = data.clone();
        let _ = apply_relocations(&mut d, &relocs, &mut any_ptr);
        prop_assert_eq!(d.len(), data.len());
    }

    #[test]
    fn cyclic_chain_is_an_error(back in 0usize..3, from in 0usize..3) {
        // Make the chain's `from`-th location point back at an earlier (or
        // the same) location instead of continuing: a cycle.
        let from = from.max(back);
        let ne = NeImage::parse(&sample_ne()).unwrap();
        let s = &ne.segments[0];
        let mut data = s.data.clone();
        let at = SAMPLE_CHAIN[from];
        let to = SAMPLE_CHAIN[back] as u16;
        data[at..at + 2].copy_from_slice(&to.to_le_bytes());
        let e = apply_relocations(&mut data, &s.relocs[..1], &mut any_ptr).unwrap_err();
        prop_assert!(e.message.contains("cycle"), "{}", e);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_corpus_files_never_panic(
        pick in any::<usize>(),
        ms in proptest::collection::vec(mutation(), 1..6),
    ) {
        thread_local! {
            static FILES: Vec<Vec<u8>> = corpus_files();
        }
        let f = FILES.with(|fs| if fs.is_empty() { None } else { Some(fs[pick % fs.len()].clone()) });
        if let Some(f) = f {
            exercise(&mutate(f, &ms));
        }
    }
}

/// The sample NE with a resource table appended: `count` resources of type
/// RT_RCDATA, every one at file offset 0 with length 0xFFFF << 4 (more than
/// the file; clipped to it), each named by `id` (an integer id when its high
/// bit is set, else a name offset in the table), then the file padded to
/// `size` bytes. Every entry points at the same range of the whole file.
fn hostile_resources(count: u16, id: u16, size: usize) -> Vec<u8> {
    let mut f = sample_ne();
    let table = f.len();
    let rel = (table - 0x40) as u16;
    f[0x40 + 0x24..0x40 + 0x26].copy_from_slice(&rel.to_le_bytes());
    f.extend_from_slice(&4u16.to_le_bytes());
    f.extend_from_slice(&0x800Au16.to_le_bytes());
    f.extend_from_slice(&count.to_le_bytes());
    f.extend_from_slice(&[0; 4]);
    for _ in 0..count {
        f.extend_from_slice(&0u16.to_le_bytes());
        f.extend_from_slice(&0xFFFFu16.to_le_bytes());
        f.extend_from_slice(&0x30u16.to_le_bytes());
        f.extend_from_slice(&id.to_le_bytes());
        f.extend_from_slice(&[0; 4]);
    }
    f.extend_from_slice(&0u16.to_le_bytes());
    // A 255-byte name right after the table (for `id` offsets).
    f.push(255);
    f.extend(std::iter::repeat_n(b'N', 255));
    if f.len() < size {
        f.resize(size, 0xAB);
    }
    f
}

/// Issue 30 item 2: 10,000 resources that all cover the whole 256 KiB file
/// once made the parser copy 2.5 GB. Their bytes are ranges of one shared
/// copy of the file: the parsed module holds a few times the file's size.
#[test]
fn resources_sharing_one_range_cost_the_file_once() {
    let f = hostile_resources(10_000, 0x8001, 256 << 10);
    let ne = NeImage::parse(&f).unwrap();
    let rs = &ne.resources[0].resources;
    assert_eq!(rs.len(), 10_000);
    assert!(rs.iter().all(|r| r.data.as_slice() == &f[..]));
    let held = ne.held_bytes();
    assert!(
        held <= 8 * f.len() as u64,
        "held {held} bytes for a file of {}",
        f.len()
    );
    // `info` over it, in a child whose address space is limited to 1 GiB
    // (the copies took 2.5 GB): it ends normally, listing the resources.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("HOSTILE30.EXE");
    std::fs::write(&path, &f).unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" info \"$1\"")
        .arg(env!("CARGO_BIN_EXE_toolhelp16"))
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("resources:"), "{stdout}");
}

/// 2,000 entries that all name the same 255-byte name (510 KB of copies
/// from a 24 KB file): the names' copies are
/// bounded by the file's size, past which the table is reported corrupt
/// (naming the entry's offset).
#[test]
fn resource_names_repeated_without_end_are_an_error() {
    let f = hostile_resources(2_000, 0, 0);
    // Name offset 0 from the table start is its shift word (4): a
    // 4-byte name; point the ids at the 255-byte name after the table.
    let table = sample_ne().len();
    let name_rel = (f.len() - 256 - table) as u16;
    let mut g = f.clone();
    for i in 0..2_000usize {
        let e = table + 10 + i * 12 + 6;
        g[e..e + 2].copy_from_slice(&name_rel.to_le_bytes());
    }
    let Err(e) = NeImage::parse(&g) else {
        panic!("2,000 copies of one name parsed");
    };
    assert_eq!(e.field, "resource name");
    assert!(e.message.contains("corrupt"), "{e}");
    let o = e.offset.unwrap();
    assert!(o > table as u64 && o < (g.len() - 256) as u64, "{e}");
    // A few such entries are fine: the names are real.
    let mut h = hostile_resources(3, 0, 0);
    let table3 = table;
    let name_rel3 = (h.len() - 256 - table3) as u16;
    for i in 0..3usize {
        let e = table3 + 10 + i * 12 + 6;
        h[e..e + 2].copy_from_slice(&name_rel3.to_le_bytes());
    }
    let ne = NeImage::parse(&h).unwrap();
    assert_eq!(
        ne.resources[0].resources[2].id,
        toolhelp16::loader::ne::ResourceId::Name("N".repeat(255))
    );
}

/// The bytes a parsed module holds stay within a small multiple of its
/// file's size (plus the iterated-segment expansion's fixed allowance),
/// whatever the file says.
fn assert_held_bounded(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(ne) = NeImage::parse(bytes) {
        let held = ne.held_bytes();
        let bound = 16 * bytes.len() as u64 + MAX_EXPANDED_BYTES + (256 << 10);
        prop_assert!(held <= bound, "held {} for a file of {}", held, bytes.len());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn parsed_size_is_bounded_by_the_input(
        ms in proptest::collection::vec(mutation(), 1..8),
        count in 0u16..3000,
        id in any::<u16>(),
        size in 0usize..(64 << 10),
    ) {
        assert_held_bounded(&mutate(hostile_resources(count, id, size), &ms))?;
        assert_held_bounded(&mutate(sample_ne(), &ms))?;
        assert_held_bounded(&mutate(sample_iterated_ne(), &ms))?;
    }
}
