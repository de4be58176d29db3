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
//!
//! Inside win16 the same rule holds between tiers of its rooms
//! ([`WIN16_LAYERS`]: the shared vocabulary, KERNEL, GDI, USER, the other
//! DLLs), with its own shrink-only list, [`WIN16_BACK_EDGES`]; and reads
//! of a higher tier's state through the environment (`env.win16.user` in
//! KERNEL), which are no imports, fail too ([`WIN16_FIELDS`],
//! [`WIN16_FIELD_BACK_EDGES`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms from the bottom up. A room may use the rooms before it.
#[rustfmt::skip]
const LAYERS: &[&str] = &[
    // Bytes: escaping untrusted text for output, PNG files.
    "escape", "pngfile",
    // The 16-bit CPU's shared vocabulary: registers, descriptors, the
    // memory interface the walkers read and the machine implements.
    "x86",
    // Executable files: NE, MZ, COM, resources.
    "loader",
    // Debug information files (map, .sym, CodeView, DWARF) and names.
    "symbols",
    // The emulated CPU.
    "machine",
    // The stack walkers: they read any WalkMemory, the machine's or a
    // snapshot's.
    "walk",
    // The environment: DOS's drive C: (a sandboxed host directory), the
    // shared state (env), then DOS, then Win16 (which runs on DOS).
    "dosfs", "env", "dos", "win16",
    // The dispatch of the machine's interrupts, thunks and faults to them.
    "system",
    // Loading and running a program, its stops and walks.
    "session",
    // Observers of a run: tracer, shadow stack, profiler, recordings.
    "trace",
    // Pictures and text made from a run.
    "report", "disasm",
    // The debugger front ends (gdb remote, monitor).
    "debug",
    // Any moment of a run as a page (a debugger front end).
    "serve",
    // The command line.
    "cli",
];

/// Imports that still run up a layer: (file, room it names). Each is a
/// debt docs/architecture.md describes; the list may only shrink.
const BACK_EDGES: &[(&str, &str)] = &[];

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
    Dot,
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
                b'.' => Tok::Dot,
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

/// Win16's rooms (the first name under src/win16/: a file's stem or a
/// directory; `mod` is win16/mod.rs) from the bottom up, tier by tier, as
/// docs/architecture.md draws them: a file may name the rooms of its own
/// tier and of the tiers below.
const WIN16_LAYERS: &[&[&str]] = &[
    // The vocabulary every subsystem shares: the state of tasks and
    // modules (mod.rs), the API entry type (api.rs), far pointers,
    // strings, names of code.
    &[
        "mod",
        "api",
        "farptr",
        "geom",
        "guest",
        "strings",
        "nametable",
        "prologue",
        "tdb",
        "search",
        "script",
        "code_names",
        "hostile",
    ],
    // KERNEL: memory, tasks, modules (the built-in ones' thunks, and
    // the functions named by them), atoms, calls into the program,
    // resources, the scheduler.
    &[
        "kernel",
        "sysexport",
        "relayfilter",
        "atom",
        "callback",
        "global",
        "local",
        "sysheap",
        "resource",
        "scheduler",
    ],
    // GDI.
    &["gdi"],
    // USER, with the keyboard and the sound drivers it drives.
    &["user", "keyboard", "sound", "systemdrv", "win87em"],
    // The other system DLLs, and what serves the debugger: TOOLHELP, the
    // fault handler, Dr. Watson.
    &[
        "commctrl",
        "commdlg",
        "ddeml",
        "lzexpand",
        "mci",
        "midi",
        "mmio",
        "mmsystem",
        "wave",
        "ole",
        "shell",
        "shellenv",
        "ver",
        "winsock",
        "toolhelp",
        "toolhelp_global",
        "toolhelp_heap",
        "toolhelp_notify",
        "toolhelp_task",
        "fault",
        "fault_record",
        "drwatson",
    ],
    // The top: the table of every subsystem's functions, the thunk
    // dispatch that calls them, and the catalog made from the table.
    &["table", "dispatch", "catalog"],
];

/// Names win16/mod.rs re-exports from a room (`pub use kernel::{...}`).
const WIN16_ALIASES: &[(&str, &str)] = &[
    ("module", "kernel"),
    ("profile", "kernel"),
    ("system", "kernel"),
];

/// Imports inside win16 that still run up a tier: (file, room it names).
/// The list may only shrink (docs/architecture.md says why each is left).
const WIN16_BACK_EDGES: &[(&str, &str)] = &[
    // mod.rs holds the state every system function reaches through Env:
    // `Win16`, every subsystem's state as a field. It names the rooms
    // above it there only, as the types of those fields
    // (`win16_mod_names_upper_tiers_only_as_state_fields`): it calls
    // none of them.
    ("src/win16/mod.rs", "atom"),
    ("src/win16/mod.rs", "commctrl"),
    ("src/win16/mod.rs", "commdlg"),
    ("src/win16/mod.rs", "ddeml"),
    ("src/win16/mod.rs", "gdi"),
    ("src/win16/mod.rs", "global"),
    ("src/win16/mod.rs", "kernel"),
    ("src/win16/mod.rs", "local"),
    ("src/win16/mod.rs", "lzexpand"),
    ("src/win16/mod.rs", "mci"),
    ("src/win16/mod.rs", "midi"),
    ("src/win16/mod.rs", "mmio"),
    ("src/win16/mod.rs", "ole"),
    ("src/win16/mod.rs", "resource"),
    ("src/win16/mod.rs", "scheduler"),
    ("src/win16/mod.rs", "shell"),
    ("src/win16/mod.rs", "sound"),
    ("src/win16/mod.rs", "sysheap"),
    ("src/win16/mod.rs", "toolhelp"),
    ("src/win16/mod.rs", "user"),
    ("src/win16/mod.rs", "wave"),
    ("src/win16/mod.rs", "winsock"),
];

/// The win16 room a name `n` right under win16 lies in (`mod` for items
/// of win16/mod.rs itself).
fn win16_room(n: &str) -> String {
    if let Some((_, r)) = WIN16_ALIASES.iter().find(|(a, _)| *a == n) {
        return r.to_string();
    }
    let known = WIN16_LAYERS.iter().any(|t| t.contains(&n));
    if known {
        n.to_string()
    } else {
        "mod".to_string()
    }
}

/// The first names of the members of a path group `{a::b, c, *}` starting
/// at token `i` (an `Open`).
fn group_members(t: &[Tok], i: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    for tok in &t[i..] {
        match tok {
            Tok::Open => {
                depth += 1;
                if depth == 1 {
                    expect = true;
                    continue;
                }
            }
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Tok::Comma if depth == 1 => expect = true,
            Tok::Ident(s) if depth == 1 && expect => {
                out.push(s.clone());
                expect = false;
            }
            _ if depth == 1 => {
                if expect {
                    // `*` or `self`: the module itself.
                    out.push(String::new());
                }
                expect = false;
            }
            _ => {}
        }
    }
    out
}

/// The win16 rooms a file names: `crate::win16::ROOM`, `super::` paths
/// that leave the file's room, and in win16/mod.rs its child modules.
/// `module` is the file's module path under win16 (empty for mod.rs).
fn win16_named(src: &str, module: &[String]) -> BTreeSet<String> {
    let t = tokens(src);
    let mut rooms = BTreeSet::new();
    let child_names: Vec<&str> = WIN16_LAYERS
        .iter()
        .flat_map(|t| t.iter().copied())
        .collect();
    let mut i = 0;
    while i < t.len() {
        let ident = |k: usize| match t.get(k) {
            Some(Tok::Ident(s)) => Some(s.as_str()),
            _ => None,
        };
        // The path's first segments, as a module path under win16.
        let mut base: Option<Vec<String>> = None;
        let mut j = i;
        if ident(i) == Some("crate")
            && t.get(i + 1) == Some(&Tok::Path)
            && ident(i + 2) == Some("win16")
            && t.get(i + 3) == Some(&Tok::Path)
        {
            base = Some(Vec::new());
            j = i + 4;
        } else if ident(i) == Some("super")
            && !(i > 0 && t[i - 1] == Tok::Path)
            && t.get(i + 1) == Some(&Tok::Path)
        {
            let mut m = module.to_vec();
            j = i;
            let mut ok = true;
            while ident(j) == Some("super") && t.get(j + 1) == Some(&Tok::Path) {
                if m.pop().is_none() {
                    ok = false;
                }
                j += 2;
            }
            if ok {
                base = Some(m);
            }
        } else if module.is_empty()
            && !(i > 0 && t[i - 1] == Tok::Path)
            && ident(i).is_some_and(|s| {
                child_names.contains(&s) || WIN16_ALIASES.iter().any(|(a, _)| *a == s)
            })
            && t.get(i + 1) == Some(&Tok::Path)
        {
            base = Some(Vec::new());
            j = i;
        }
        let Some(base) = base else {
            i += 1;
            continue;
        };
        if let Some(first) = base.first() {
            rooms.insert(win16_room(first));
        } else {
            match t.get(j) {
                Some(Tok::Ident(s)) => {
                    rooms.insert(win16_room(s));
                }
                Some(Tok::Open) => {
                    for m in group_members(&t, j) {
                        rooms.insert(if m.is_empty() {
                            "mod".to_string()
                        } else {
                            win16_room(&m)
                        });
                    }
                }
                _ => {
                    // `super::*` at win16's top.
                    rooms.insert("mod".to_string());
                }
            }
        }
        i = j.max(i + 1);
    }
    rooms
}

/// Every (file, win16 room named) pair whose room lies in a higher tier
/// than the file's.
fn win16_back_edges() -> BTreeSet<(String, String)> {
    let win16 = src_dir().join("win16");
    let mut files = Vec::new();
    rust_files(&win16, &mut files);
    let tier = |room: &str| WIN16_LAYERS.iter().position(|t| t.contains(&room));
    let mut found = BTreeSet::new();
    for f in files {
        let rel = f.strip_prefix(&win16).unwrap();
        let mut module: Vec<String> = rel
            .iter()
            .map(|c| c.to_str().unwrap().trim_end_matches(".rs").to_string())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        let own = module.first().cloned().unwrap_or_else(|| "mod".to_string());
        let own_tier = tier(&own).unwrap_or_else(|| {
            panic!(
                "src/win16/{}: room {own} is in no tier (WIN16_LAYERS)",
                rel.display()
            )
        });
        let text = std::fs::read_to_string(&f).unwrap();
        for named in win16_named(&text, &module) {
            if named == own {
                continue;
            }
            if tier(&named).is_some_and(|t| t > own_tier) {
                let file = format!("src/win16/{}", rel.display()).replace('\\', "/");
                found.insert((file, named));
            }
        }
    }
    found
}

#[test]
fn win16_imports_only_point_down() {
    let found = win16_back_edges();
    let listed: BTreeSet<(String, String)> = WIN16_BACK_EDGES
        .iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect();
    let new: Vec<_> = found.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&found).collect();
    assert!(
        new.is_empty(),
        "win16 imports that run up a tier (docs/architecture.md): {new:#?}"
    );
    assert!(
        gone.is_empty(),
        "win16 back-edges that are gone: remove them from WIN16_BACK_EDGES and docs/architecture.md: {gone:?}"
    );
}

#[test]
fn every_win16_room_has_a_tier() {
    let win16 = src_dir().join("win16");
    for e in std::fs::read_dir(&win16).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap();
        let room = name.trim_end_matches(".rs");
        if room == "mod" || room.starts_with('.') {
            continue;
        }
        assert!(
            WIN16_LAYERS.iter().any(|t| t.contains(&room)),
            "src/win16/{name}: room {room} is in no tier (WIN16_LAYERS)"
        );
    }
}

#[test]
fn the_win16_reader_resolves_super_and_crate_paths() {
    let src = r#"
        use super::api::{Api, Arg};
        use super::super::gdi::dc;
        use crate::win16::{user::send, Env, scheduler};
        use crate::win16::profile::get;
        fn f() { super::super::super::dos::x(); }
    "#;
    let m = ["kernel".to_string(), "library".to_string()];
    let rooms: Vec<_> = win16_named(src, &m).into_iter().collect();
    // super:: from kernel/library.rs is kernel (its own room); super::super
    // is win16's top; three supers leave win16 (not followed).
    assert_eq!(rooms, ["gdi", "kernel", "mod", "scheduler", "user"]);
}

/// No file outside a test module takes everything of its parent with a
/// top-level `use super::*;`: the readers above see the rooms a file
/// names, and a glob hides them (a loader's calls up into USER went
/// unseen behind one). Test modules (`mod tests { use super::*; }`) are
/// indented and not concerned.
#[test]
fn no_file_imports_its_parent_whole() {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let globbed: Vec<String> = files
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .any(|l| l.trim_end() == "use super::*;")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        globbed.is_empty(),
        "top-level `use super::*;` in {globbed:?}: import the names used"
    );
}

/// The fields of `Win16` (win16/mod.rs) and the room whose state each is.
/// A field of the vocabulary (`modules`, `tasks`, ...) is `mod`'s.
const WIN16_FIELDS: &[(&str, &str)] = &[
    ("global", "global"),
    ("toolhelp", "toolhelp"),
    ("user", "user"),
    ("gdi", "gdi"),
    ("atoms", "atom"),
    ("profiles", "kernel"),
    ("resources", "resource"),
    ("local_heaps", "local"),
    ("sys_heaps", "sysheap"),
    ("system", "kernel"),
    ("scheduler", "scheduler"),
    ("kernel", "kernel"),
    ("commdlg", "commdlg"),
    ("shell", "shell"),
    ("ddeml", "ddeml"),
    ("sound", "sound"),
    ("lzexpand", "lzexpand"),
    ("winsock", "winsock"),
    ("midi", "midi"),
    ("mci", "mci"),
    ("wave", "wave"),
    ("mmio", "mmio"),
    ("commctrl", "commctrl"),
    ("ole", "ole"),
];

/// Reads of another tier's state through the environment that still run
/// up (file, room whose state it reads; win16/mod.rs, which holds the
/// fields, is not read: docs/architecture.md, "What is left"). The list
/// may only shrink.
const WIN16_FIELD_BACK_EDGES: &[(&str, &str)] = &[];

/// The rooms whose `Win16` fields a file's code reaches: `win16.FIELD`
/// (`env.win16.user`, `&mut env.win16.gdi`).
fn win16_fields_read(src: &str) -> BTreeSet<String> {
    let t = tokens(src);
    let mut rooms = BTreeSet::new();
    for i in 0..t.len().saturating_sub(2) {
        if t[i] != Tok::Ident("win16".into()) || t[i + 1] != Tok::Dot {
            continue;
        }
        if let Tok::Ident(f) = &t[i + 2] {
            if let Some((_, room)) = WIN16_FIELDS.iter().find(|(n, _)| n == f) {
                rooms.insert(room.to_string());
            }
        }
    }
    rooms
}

/// No file of win16 reads the state of a room in a higher tier through
/// the environment (`env.win16.user` in KERNEL): a subsystem reaches
/// another's state through the functions or tables it names
/// (docs/architecture.md, "A subsystem's small interface"). Field reads
/// are not imports, so `win16_imports_only_point_down` cannot see them.
#[test]
fn win16_state_is_read_only_from_its_tier_or_above() {
    let win16 = src_dir().join("win16");
    let mut files = Vec::new();
    rust_files(&win16, &mut files);
    let tier = |room: &str| WIN16_LAYERS.iter().position(|t| t.contains(&room));
    let mut found = BTreeSet::new();
    for f in files {
        let rel = f.strip_prefix(&win16).unwrap();
        let first = rel.iter().next().unwrap().to_str().unwrap();
        let own = first.trim_end_matches(".rs");
        if own == "mod" {
            // The holder of the fields (WIN16_BACK_EDGES lists its names).
            continue;
        }
        let own_tier = tier(own).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        for room in win16_fields_read(&text) {
            if room != own && tier(&room).is_some_and(|t| t > own_tier) {
                let file = format!("src/win16/{}", rel.display()).replace('\\', "/");
                found.insert((file, room));
            }
        }
    }
    let listed: BTreeSet<(String, String)> = WIN16_FIELD_BACK_EDGES
        .iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect();
    let new: Vec<_> = found.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&found).collect();
    assert!(
        new.is_empty(),
        "win16 state read from a lower tier (docs/architecture.md): {new:#?}"
    );
    assert!(
        gone.is_empty(),
        "field back-edges that are gone: remove them from WIN16_FIELD_BACK_EDGES: {gone:?}"
    );
}

#[test]
fn the_field_reader_sees_reads_through_the_environment() {
    let src = r#"
        let q = env.win16.user.queue(h);
        let g = &mut env.win16.gdi;
        // env.win16.toolhelp
        let s = "env.win16.ddeml";
        let t = env.win16.tasks.len();
        let k = env.win16.kernel.notify;
    "#;
    let rooms: Vec<_> = win16_fields_read(src).into_iter().collect();
    assert_eq!(rooms, ["gdi", "kernel", "user"]);
}

/// `Win16` (win16/mod.rs) is the one place the bottom tier names the
/// tiers above it, and only as the types of its fields, the subsystems'
/// states (docs/architecture.md): the rest of mod.rs (the vocabulary of
/// tasks, modules and thunks every subsystem shares) names no room above
/// it, so no call runs up from it.
#[test]
fn win16_mod_names_upper_tiers_only_as_state_fields() {
    let text = std::fs::read_to_string(src_dir().join("win16/mod.rs")).unwrap();
    let start = text
        .find("pub struct Win16 {")
        .expect("win16/mod.rs defines the struct Win16");
    let end = start + text[start..].find("\n}\n").expect("the struct ends") + 3;
    let fields = &text[start..end];
    let rest = format!("{}{}", &text[..start], &text[end..]);
    let tier = |room: &str| WIN16_LAYERS.iter().position(|t| t.contains(&room));
    let upper = |named: BTreeSet<String>| -> BTreeSet<String> {
        named
            .into_iter()
            .filter(|n| tier(n).is_some_and(|t| t > 0))
            .collect()
    };
    let in_rest = upper(win16_named(&rest, &[]));
    assert!(
        in_rest.is_empty(),
        "win16/mod.rs names rooms above it outside Win16's fields: {in_rest:?}"
    );
    // And the listed edges are exactly those fields' rooms.
    let in_fields = upper(win16_named(fields, &[]));
    let listed: BTreeSet<String> = WIN16_BACK_EDGES
        .iter()
        .filter(|(f, _)| *f == "src/win16/mod.rs")
        .map(|(_, r)| r.to_string())
        .collect();
    assert_eq!(in_fields, listed);
}
