//! The house's layers (docs/architecture.md): every room (a top-level
//! module of src/) may name only itself and the rooms below it. The test
//! reads every file under src/, collects the rooms its code names through
//! `crate::ROOM` (and, in the command line, `toolhelp16::ROOM`), and fails
//! when a file names a room above its own.
//!
//! Back-edges that are not removed yet are listed in [`BACK_EDGES`], file by
//! file: the list may only shrink. A new back-edge fails the test, and so
//! does a listed one that is gone (remove it from the list, and from
//! docs/architecture.md's account of what is left).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms from the bottom up. A room may use the rooms before it.
const LAYERS: &[&str] = &[
    // Bytes: escaping untrusted text for output, PNG files.
    "escape", "pngfile",
    // The 16-bit CPU's shared vocabulary: registers, descriptors, the
    // memory interface the walkers read and the machine implements.
    "x86",     // Executable files: NE, MZ, COM, resources.
    "loader",  // Debug information files (map, .sym, CodeView, DWARF) and names.
    "symbols", // The emulated CPU.
    "machine",
    // The stack walkers: they read any WalkMemory, the machine's or a
    // snapshot's.
    "walk",
    // The environment: its shared state (env) at the bottom, then DOS, then
    // Win16 (which runs on DOS).
    "env", "dos", "win16",   // Loading and running a program, its stops and walks.
    "session", // Observers of a run: tracer, shadow stack, profiler, recordings.
    "trace",   // Pictures and text made from a run.
    "report", "disasm", // The debugger front ends (gdb remote, monitor).
    "debug",  // Any moment of a run as a page (a debugger front end).
    "serve",  // The command line.
    "cli",
];

/// Imports that still run up a layer: (file, room it names). Each is a
/// debt docs/architecture.md describes; the list may only shrink.
const BACK_EDGES: &[(&str, &str)] = &[
    // env.rs holds the environment's state and also dispatches interrupts
    // and system calls to DOS and Win16: the dispatch belongs above them.
    ("src/env.rs", "dos"),
    ("src/env.rs", "win16"),
];

/// The crate's source directory.
fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The room a file lies in (None for the crate roots lib.rs and main.rs).
fn room_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let room = first.strip_suffix(".rs").unwrap_or(first);
    (room != "lib" && room != "main").then(|| room.to_string())
}

/// A token of Rust source, as far as paths need: identifiers, `::`, braces
/// and commas; comments, strings and characters are dropped.
#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Open,
    Close,
    Comma,
    Other,
}

fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(Tok::Ident("r".into()));
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(Tok::Other);
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Tok::Other);
        } else if c == b'\'' {
            // A character literal, or a lifetime / label.
            if b.get(i + 2) == Some(&b'\'') {
                i += 3;
            } else if b.get(i + 1) == Some(&b'\\') {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            } else {
                i += 1;
            }
            out.push(Tok::Other);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(src[s..i].to_string()));
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(match c {
                b'{' => Tok::Open,
                b'}' => Tok::Close,
                b',' => Tok::Comma,
                _ => Tok::Other,
            });
            i += 1;
        }
    }
    out
}

/// The rooms a file's code names: `crate::ROOM`, `crate::{ROOM, ...}` and,
/// in `cli`, `toolhelp16::ROOM`.
fn named_rooms(src: &str) -> BTreeSet<String> {
    let t = tokens(src);
    let mut rooms = BTreeSet::new();
    for i in 0..t.len() {
        let is_root = matches!(&t[i], Tok::Ident(s) if s == "crate" || s == "toolhelp16");
        if !is_root || t.get(i + 1) != Some(&Tok::Path) {
            continue;
        }
        match t.get(i + 2) {
            Some(Tok::Ident(s)) => {
                rooms.insert(s.clone());
            }
            Some(Tok::Open) => {
                // A group: the first segment of each member at depth 1.
                let mut depth = 1;
                let mut expect = true;
                for tok in &t[i + 3..] {
                    match tok {
                        Tok::Open => depth += 1,
                        Tok::Close => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Tok::Comma if depth == 1 => expect = true,
                        Tok::Ident(s) if depth == 1 && expect => {
                            rooms.insert(s.clone());
                            expect = false;
                        }
                        _ if depth == 1 => expect = false,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    rooms
}

/// Every (file, room named) pair of src/ whose room lies above the file's.
fn back_edges() -> BTreeMap<(String, String), ()> {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let layer = |room: &str| LAYERS.iter().position(|r| *r == room);
    let mut found = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let Some(room) = room_of(rel) else { continue };
        let own = layer(&room).unwrap_or_else(|| {
            panic!("src/{}: room {room} is in no layer (LAYERS)", rel.display())
        });
        let text = std::fs::read_to_string(&f).unwrap();
        for named in named_rooms(&text) {
            let Some(l) = layer(&named) else {
                // Not a room: an item at the crate's root (JSON_VERSION).
                continue;
            };
            if l > own {
                let file = format!("src/{}", rel.display()).replace('\\', "/");
                found.insert((file, named), ());
            }
        }
    }
    found
}

#[test]
fn imports_only_point_down() {
    let found = back_edges();
    let listed: BTreeSet<(String, String)> = BACK_EDGES
        .iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect();
    let new: Vec<_> = found.keys().filter(|e| !listed.contains(*e)).collect();
    let gone: Vec<_> = listed.iter().filter(|e| !found.contains_key(*e)).collect();
    assert!(
        new.is_empty(),
        "imports that run back up a layer (docs/architecture.md): {new:?}"
    );
    assert!(
        gone.is_empty(),
        "back-edges that are gone: remove them from BACK_EDGES and docs/architecture.md: {gone:?}"
    );
}

#[test]
fn every_room_has_a_layer() {
    let src = src_dir();
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(m) = line.trim().strip_prefix("pub mod ") {
            let m = m.trim_end_matches(';');
            assert!(LAYERS.contains(&m), "room {m} (lib.rs) is in no layer");
        }
    }
    assert!(LAYERS.contains(&"cli"));
}

#[test]
fn the_reader_sees_paths_as_rustc_does() {
    let src = r#"
        use crate::machine::{Cpu, Uc};
        use crate::{dos, win16::api::{self, Api}};
        // use crate::session;
        /* crate::report */
        let s = "crate::trace";
        let t = r"crate::debug";
        fn f<'a>(x: &'a u8) -> char { crate::walk::f(); 'x' }
        use toolhelp16::cli_thing;
    "#;
    let rooms: Vec<_> = named_rooms(src).into_iter().collect();
    assert_eq!(rooms, ["cli_thing", "dos", "machine", "walk", "win16"]);
}
