//! Property tests: no input makes the loader panic or hang, and broken
//! relocation chains are errors.

use std::path::PathBuf;

use proptest::prelude::*;
use toolhelp16::loader::ne::expand_iterated;
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
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
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
    if out.is_empty() {
        eprintln!(
            "SKIP: {} corpus absent; mutating only the sample NE",
            dir.display()
        );
    }
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
