//! In-process fuzzing of the library: a plain loop per parser and one
//! that runs mutated programs, each feeding inputs made by a seeded
//! mutator from the seeds in the repository, catching panics and saving
//! every input that panics, takes too long or grows the process's memory
//! past a bound (README.md, "Fuzzing").
//!
//! ```sh
//! cargo run --release --example fuzz -- TARGET [--seconds N] [--seed N] [--out DIR]
//! cargo run --release --example fuzz -- TARGET --replay FILE...   # run saved inputs again
//! ```
//!
//! TARGET is one of:
//!
//! - `loader`: MZ, NE, COM, boot and raw images (`loader::parse`, `info`,
//!   the text and JSON of `info`, NE relocations);
//! - `resources`: NE files' resources read by what reads them (dialog
//!   and menu templates, accelerators, name tables, fonts and font
//!   directories, DIBs, icons, metafiles, wave files);
//! - `symbols`: `.SYM` files and LINK and wlink maps, and the `.SYM`
//!   writer on what was read;
//! - `trace`: recordings (`trace --record`), mutated as bytes and built
//!   record by record with valid checks, read and expanded;
//! - `snapshot`: snapshots (`snapshot`), mutated as bytes and as JSON
//!   values, walked from every start; and read as checkpoint files
//!   (`snapshot --resumable`, src/debug/checkpoint_file.rs: the `resume`
//!   member; fuzz/seeds/snapshot/resumable.json), what reads written
//!   back and read again to itself;
//! - `rsp`: gdb's packet framing, byte streams and framed packets;
//! - `programs`: mutated DOS and Win16 programs (roms/*.com, roms/*.exe
//!   and fuzz/seeds/watcom/*.c built with Open Watcom when it is there)
//!   loaded and run as `run` runs them, with a budget of 200,000
//!   instructions and 2 seconds, the outcome classified;
//! - `commands`: the same programs through the command line's own code
//!   in process (`info`, `disasm`, `run`, `trace`, `trace --record` and
//!   `--replay`, `stack`, `heap`, `profile`, `snapshot` and `walk`,
//!   `debug --commands`), `--json` half of the time, with small budgets;
//!   an exit 125 or JSON output that is empty or not JSON to its end is
//!   a finding (examples/fuzz/commands.rs).
//!
//! The loop runs for `--seconds` (60 by default) and prints a line per
//! finding and a summary. Findings go to `--out` (fuzz/out/TARGET by
//! default): `panic-HASH.bin`, `slow-HASH.bin`, `memory-HASH.bin`; the
//! input being run is kept in `current.bin` first, so an input that kills
//! the process (a signal in the engine) is there afterwards; a case of
//! `programs` or `commands` that runs past 60 seconds of processor time
//! is saved as `hang-HASH.bin` and ends the process with status 3. Time
//! is processor time (a case waiting for a processor on a busy machine
//! is not slow). Exit status 1 when anything was found.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use debug::rsp;
use toolhelp16::debug::checkpoint_file::Resume;
use toolhelp16::loader::ne::{NeImage, ResourceId};
use toolhelp16::loader::{FarPtr, Image, KindHint, RelocTarget, apply_relocations, info, parse};
use toolhelp16::machine::record::Step;
use toolhelp16::machine::{RunLimits, Stop};
use toolhelp16::session::{LoadOptions, Writes};
use toolhelp16::trace::record::{self, End, Header, Reader, Recorded};
use toolhelp16::trace::{Place, Render, Sink, Syntax};
use toolhelp16::walk::snapshot::Snapshot;
use toolhelp16::walk::stackframe::Start;

// The command line's modules, compiled into this harness so that the
// `commands` target runs them in process as the binary does
// (`cli::run_from_args`). They name the library's modules as
// `crate::...`: these bind them at this crate's root, as src/main.rs does.
#[path = "../src/cli/mod.rs"]
mod cli;
#[path = "fuzz/commands.rs"]
mod commands;
use toolhelp16::{
    debug, disasm, dos, escape, loader, machine, report, serve, session, symbols, system, trace,
    walk, win16,
};

/// A small, fast, seeded generator (xorshift64*): the same seed makes the
/// same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Values that sit on edges: lengths, counts, offsets and shifts.
const INTERESTING16: [u16; 14] = [
    0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF, 0x1000, 0x10, 0x40,
];

/// One mutation of `b` (`other` is a second seed for splicing).
fn mutate_once(rng: &mut Rng, b: &mut Vec<u8>, other: &[u8], max_len: usize) {
    let len = b.len();
    match rng.below(12) {
        0 if len > 0 => {
            let i = rng.below(len);
            b[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            b[i] = rng.next() as u8;
        }
        2 if len > 1 => {
            let i = rng.below(len - 1);
            let v = INTERESTING16[rng.below(INTERESTING16.len())];
            let v = if rng.chance(2) { v } else { v.swap_bytes() };
            b[i..i + 2].copy_from_slice(&v.to_le_bytes());
        }
        3 if len > 3 => {
            let i = rng.below(len - 3);
            let v = [0u32, u32::MAX, 0x7FFF_FFFF, 0x8000_0000, 0x10000][rng.below(5)];
            b[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        4 if len > 0 => {
            // Delete a run.
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64));
            b.drain(i..i + n);
        }
        5 if len < max_len => {
            // Insert random bytes.
            let i = rng.below(len + 1);
            let n = 1 + rng.below(32);
            let ins: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            b.splice(i..i, ins);
        }
        6 if len > 1 && len < max_len => {
            // Duplicate a run elsewhere.
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(256));
            let run = b[i..i + n].to_vec();
            let at = rng.below(len + 1);
            b.splice(at..at, run);
        }
        7 if len > 0 => {
            b.truncate(rng.below(len));
        }
        8 if !other.is_empty() => {
            // Splice: our head, the other's tail.
            let cut = rng.below(len + 1);
            let from = rng.below(other.len());
            b.truncate(cut);
            b.extend_from_slice(&other[from..]);
        }
        9 if len > 0 => {
            // A byte copied over a run (a fill).
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(128));
            let v = rng.next() as u8;
            b[i..i + n].fill(v);
        }
        10 if len > 1 => {
            // Add or subtract a little from a word (a count, a length).
            let i = rng.below(len - 1);
            let w = u16::from_le_bytes([b[i], b[i + 1]]);
            let d = 1 + rng.below(16) as u16;
            let w = if rng.chance(2) {
                w.wrapping_add(d)
            } else {
                w.wrapping_sub(d)
            };
            b[i..i + 2].copy_from_slice(&w.to_le_bytes());
        }
        11 if len > 0 && len < max_len => {
            // A short pattern (an instruction) repeated hundreds of times
            // in place: long blocks of one instruction are where a
            // translator runs out of something (vendor patch 0011).
            let i = rng.below(len);
            let k = 1 + rng.below(4);
            let pat: Vec<u8> = (0..k)
                .map(|j| b.get(i + j).copied().unwrap_or(rng.next() as u8))
                .collect();
            let reps = 64 + rng.below(1024);
            let run: Vec<u8> = pat.iter().copied().cycle().take(k * reps).collect();
            let end = (i + run.len()).min(len);
            b.splice(i..end, run);
        }
        _ => {
            b.push(rng.next() as u8);
        }
    }
    b.truncate(max_len);
}

/// Several mutations; for an MZ program, often in its header and
/// relocation table, where the loader decides most.
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8], max_len: usize) -> Vec<u8> {
    let mut b = seed.to_vec();
    let n = 1 + rng.below(8);
    for _ in 0..n {
        if b.len() >= 0x1C && b.starts_with(b"MZ") && rng.chance(3) {
            mutate_mz_header(rng, &mut b);
        } else {
            mutate_once(rng, &mut b, other, max_len);
        }
    }
    b
}

/// A field of the MZ header, or a relocation, set to an edge value.
fn mutate_mz_header(rng: &mut Rng, b: &mut [u8]) {
    let field = 2 + 2 * rng.below(13); // e_cblp .. e_ovno
    let relocs = usize::from(u16::from_le_bytes([b[6], b[7]]));
    let table = usize::from(u16::from_le_bytes([b[0x18], b[0x19]]));
    let at = if relocs > 0 && rng.chance(2) {
        let k = rng.below(relocs);
        table + 4 * k + 2 * rng.below(2)
    } else {
        field
    };
    if at + 1 < b.len() {
        let v = if rng.chance(2) {
            INTERESTING16[rng.below(INTERESTING16.len())]
        } else {
            rng.next() as u16
        };
        b[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
}

/// The repository's root (the example runs from anywhere in it).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files under `dir` (not recursive) whose names end with one of `exts`.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.to_string_lossy().to_ascii_lowercase();
            exts.iter().any(|e| n.ends_with(e))
        })
        .collect();
    v.sort();
    v
}

/// The seeds of a target: files of the repository, and its own
/// directory fuzz/seeds/TARGET/.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let r = root();
    let mut paths = files(&r.join("fuzz/seeds").join(target), &[""]);
    match target {
        "loader" | "resources" => {
            paths.extend(files(
                &r.join("roms"),
                &[".exe", ".com", ".dll", ".img", ".fon"],
            ));
            paths.extend(watcom_seeds());
        }
        "programs" | "commands" => {
            paths.extend(files(&r.join("roms"), &[".exe", ".com"]));
            paths.extend(watcom_seeds());
        }
        "symbols" => {
            paths.extend(files(&r.join("roms"), &[".map"]));
            paths.extend(files(&r.join("tests/symbols"), &[".map", ".sym"]));
        }
        "snapshot" => paths.extend(files(&r.join("tests/vectors"), &[".json"])),
        _ => {}
    }
    let mut v: Vec<(String, Vec<u8>)> = paths
        .into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect();
    match target {
        "trace" => {
            v.extend((0..8u64).map(|k| ("(built)".to_string(), built_recording(&mut Rng(k + 1)))))
        }
        "rsp" => {
            for body in [
                &b"g"[..],
                b"m1000,40",
                b"M1000,2:9090",
                b"X1000,2:\x90}\x03",
                b"Z0,1000,1",
                b"qSupported:multiprocess+;swbreak+",
                b"qRcmd,68656c70",
                b"vCont;c",
                b"p8",
                b"P8=00100000",
                b"c",
                b"s",
            ] {
                let mut f = rsp::frame(body);
                f.push(b'+');
                v.push(("(built)".to_string(), f));
            }
        }
        _ => {}
    }
    v
}

/// The seed programs of fuzz/seeds/watcom/*.c, built with Open Watcom
/// into fuzz/out/watcom/ (again only when a source is newer than its
/// program): a source that includes `windows.h` as a Win16 program, the
/// others as DOS programs. None without the toolchain (looked for where
/// the tests look: ../shared/toolchains/openwatcom beside the repository,
/// $TOOLHELP16_WATCOM, $WATCOM).
fn watcom_seeds() -> Vec<PathBuf> {
    let r = root();
    // Where tests/common/watcom.rs looks, in the same order.
    let mut tries = vec![r.join("../shared/toolchains/openwatcom")];
    for var in ["TOOLHELP16_WATCOM", "WATCOM"] {
        if let Some(v) = std::env::var_os(var) {
            tries.push(PathBuf::from(v));
        }
    }
    tries.push(PathBuf::from("/work/shared/toolchains/openwatcom"));
    let watcom = tries
        .iter()
        .find(|w| w.join("binl/wcl").is_file())
        .cloned()
        .unwrap_or_else(|| tries[0].clone());
    let wcl = watcom.join("binl/wcl");
    if !wcl.is_file() {
        eprintln!(
            "fuzz: no Open Watcom at {}: the Watcom seeds are left out",
            watcom.display()
        );
        return Vec::new();
    }
    let out = r.join("fuzz/out/watcom");
    let _ = std::fs::create_dir_all(&out);
    let mut built = Vec::new();
    for src in files(&r.join("fuzz/seeds/watcom"), &[".c"]) {
        let stem = src
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let exe = out.join(format!("{stem}.exe"));
        let t = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        if !exe.is_file() || t(&src) > t(&exe) {
            let text = std::fs::read_to_string(&src).unwrap_or_default();
            let win = text.contains("<windows.h>");
            let h = watcom.join("h");
            let include = if win {
                format!("{}:{}", h.display(), h.join("win").display())
            } else {
                h.display().to_string()
            };
            let path = format!(
                "{}:{}",
                watcom.join("binl").display(),
                std::env::var("PATH").unwrap_or_default()
            );
            let mut cmd = std::process::Command::new(&wcl);
            cmd.current_dir(&out)
                .env("WATCOM", &watcom)
                .env("INCLUDE", include)
                .env("PATH", path)
                .arg("-q");
            if win {
                cmd.args(["-bt=windows", "-l=windows", "-ml"]);
            } else {
                cmd.args(["-bt=dos", "-l=dos", "-ms"]);
            }
            let ok = cmd
                .arg(&src)
                .arg(format!("-fe={}", exe.display()))
                .output()
                .is_ok_and(|o| o.status.success());
            let _ = std::fs::remove_file(out.join(format!("{stem}.o")));
            if !ok {
                eprintln!("fuzz: {} did not build", src.display());
                continue;
            }
        }
        built.push(exe);
    }
    built
}

/// A recording built record by record: every check right, the fields
/// random, so the reader gets past its checks to the expansion.
fn built_recording(rng: &mut Rng) -> Vec<u8> {
    let header = Header {
        cwd: "C:\\".into(),
        args: vec!["roms/hot.com".into()],
        program: "hot.com".into(),
    };
    let mut f = record::header_bytes(&header);
    let mut blocks: Vec<(u64, u32)> = Vec::new();
    for _ in 0..1 + rng.below(12) {
        match rng.below(3) {
            0 => {
                let n = rng.below(24);
                let linear = (rng.next() & 0xF_FFFF) & !0xF | rng.below(16) as u64;
                let bytes: Vec<u8> = (0..n)
                    .map(|_| {
                        [0x90, 0xEB, 0xE8, 0xCD, 0x66, 0x0F, 0xF0, rng.next() as u8][rng.below(8)]
                    })
                    .collect();
                let t = Recorded {
                    linear,
                    cs: rng.next() as u16,
                    ip: rng.next() as u16,
                    icount: rng.below(30) as u32,
                    bytes,
                    place: Place {
                        module: rng.chance(2).then(|| "HOT".to_string()),
                        segment: rng.chance(2).then(|| rng.next() as u16),
                    },
                    symbols: (0..rng.below(4))
                        .map(|_| (rng.below(40) as u16, "sym".to_string()))
                        .collect(),
                    sources: (0..rng.below(4))
                        .map(|_| {
                            (
                                rng.below(40) as u16,
                                toolhelp16::symbols::lines::SourceLine {
                                    file: "a.c".into(),
                                    line: rng.below(100) as u32,
                                },
                            )
                        })
                        .collect(),
                };
                blocks.push((t.linear, n as u32));
                f.extend(record::translation_bytes(&t));
            }
            1 => {
                let words: Vec<u64> = (0..rng.below(40))
                    .map(|_| {
                        if !blocks.is_empty() && rng.below(4) != 0 {
                            let (l, s) = blocks[rng.below(blocks.len())];
                            Step::Block { linear: l, size: s }.word()
                        } else if rng.chance(2) {
                            Step::Cut {
                                linear: rng.next() & 0xF_FFFF,
                                faulted: rng.chance(2),
                            }
                            .word()
                        } else {
                            rng.next()
                        }
                    })
                    .collect();
                record::steps_bytes(&mut f, &words);
            }
            _ => {}
        }
    }
    if rng.below(4) != 0 {
        f.extend(record::end_bytes(&End {
            blocks: rng.next(),
            instructions: rng.chance(2).then(|| rng.next()),
            status: rng.next() as i32,
            stop: "exited".into(),
        }));
    }
    f
}

fn any_ptr(_: &RelocTarget) -> Result<FarPtr, String> {
    Ok(FarPtr {
        selector: 0x1007,
        offset: 0x0123,
    })
}

fn run_loader(b: &[u8]) -> &'static str {
    let mut outcome = "refused";
    for hint in [
        KindHint::Auto,
        KindHint::Com,
        KindHint::BootSector,
        KindHint::Raw {
            load: (0xF000, 0),
            entry: (0xF000, 0xFFF0),
        },
    ] {
        if let Ok(img) = parse(b, hint) {
            if matches!(hint, KindHint::Auto) {
                outcome = "parsed";
            }
            let i = info(&img);
            let _ = toolhelp16::loader::render_text(&i);
            let _ = serde_json::to_string(&i);
            if let Image::Ne(ne) = &img {
                let _ = ne.check_runnable(true);
                let _ = ne.check_runnable(false);
                for s in &ne.segments {
                    let mut data = s.data.to_vec();
                    data.resize(s.alloc_size() as usize, 0);
                    let _ = apply_relocations(&mut data, &s.relocs, &mut any_ptr);
                }
            }
        }
    }
    outcome
}

fn run_resources(b: &[u8]) -> &'static str {
    use toolhelp16::win16::gdi::{bitmap, fnt, font, metafile};
    use toolhelp16::win16::user::{accel, dialog, draw, menu};
    let _ = font::parse_fon(b, None);
    let _ = metafile::Metafile::parse(b);
    let Ok(ne) = NeImage::parse(b) else {
        return "refused";
    };
    let mut n = 0;
    for t in &ne.resources {
        for r in &t.resources {
            n += 1;
            let d: &[u8] = &r.data;
            match t.type_id {
                ResourceId::Int(1) | ResourceId::Int(3) => {
                    let _ = draw::decode_image(d);
                }
                ResourceId::Int(2) => {
                    if let Ok(h) = bitmap::DibHeader::parse(d, 0) {
                        let bits = d.get(h.info_size()..).unwrap_or(&[]);
                        let _ = bitmap::decode_dib(&h, bits, 0, 64);
                    }
                }
                ResourceId::Int(4) => {
                    let _ = menu::template::parse(d);
                }
                ResourceId::Int(5) => {
                    let _ = dialog::template::parse(d);
                }
                ResourceId::Int(7) => {
                    let _ = fnt::parse_fontdir(d);
                }
                ResourceId::Int(8) => {
                    let _ = fnt::FntFont::parse(d);
                }
                ResourceId::Int(9) => {
                    let _ = accel::parse(d);
                }
                ResourceId::Int(15) => {
                    let _ = toolhelp16::win16::nametable::parse(d);
                }
                _ => {
                    // Anything else read every way, as a program could
                    // hand any resource to any of them.
                    let _ = dialog::template::parse(d);
                    let _ = menu::template::parse(d);
                    let _ = toolhelp16::win16::wave::parse_wav(d);
                    let _ = metafile::Metafile::parse(d);
                }
            }
        }
    }
    if n > 0 { "resources" } else { "no resources" }
}

fn run_symbols(b: &[u8]) -> &'static str {
    let mut outcome = "refused";
    for ext in [Some("sym"), Some("map"), None] {
        if let Ok(layouts) = symbols::parse_bytes(b, ext) {
            outcome = "parsed";
            for l in &layouts {
                let _ = symbols::mapsym::frames_of(l);
                if let Ok(out) = symbols::mapsym::write_layout("FUZZ", l) {
                    // What the writer writes reads back.
                    if let Err(e) = symbols::mapsym::parse(&out) {
                        panic!("a .SYM the writer wrote does not read back: {e}");
                    }
                }
            }
        }
    }
    let text = String::from_utf8_lossy(b);
    for word in text.split_whitespace().take(64) {
        let _ = symbols::demangle::demangle(word);
    }
    outcome
}

fn run_trace(b: &[u8]) -> &'static str {
    let name = Path::new("fuzz.th16rec");
    let checked = match Reader::new(name, Box::new(Cursor::new(b.to_vec()))) {
        Ok(r) => record::check(r).is_ok(),
        Err(_) => return "refused",
    };
    for json in [false, true] {
        if let Ok(r) = Reader::new(name, Box::new(Cursor::new(b.to_vec()))) {
            let mut sink = Sink::new(Box::new(std::io::sink()), Some(100_000), None);
            let opts = record::ExpandOptions {
                render: Render {
                    syntax: Syntax::Nasm,
                    json,
                },
                from: None,
                module: json.then(|| "HOT".to_string()),
            };
            let _ = record::expand(r, opts, &mut sink);
        }
    }
    if checked { "read" } else { "header only" }
}

/// Change one value of a JSON document (a number to an edge, a string
/// to other text), or drop a member.
fn mutate_json(rng: &mut Rng, v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(m) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.below(keys.len())];
            if rng.chance(12) {
                m.remove(k);
            } else if let Some(x) = m.get_mut(k) {
                mutate_json(rng, x);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len());
            if rng.chance(12) {
                a.remove(i);
            } else if rng.chance(12) {
                let x = a[i].clone();
                a.push(x);
            } else {
                mutate_json(rng, &mut a[i]);
            }
        }
        Value::Number(_) => {
            let edges: [i64; 9] = [
                0,
                1,
                -1,
                0xFFFF,
                0x10000,
                0x7FFF_FFFF,
                -0x8000_0000,
                0xFFFF_FFFF,
                i64::MAX,
            ];
            *v = if rng.chance(2) {
                edges[rng.below(edges.len())].into()
            } else {
                (rng.next() as u16).into()
            };
        }
        Value::String(s) => {
            let mut b = s.clone().into_bytes();
            mutate_once(rng, &mut b, &[], 1 << 16);
            *s = String::from_utf8_lossy(&b).into_owned();
        }
        Value::Bool(x) => *x = !*x,
        _ => *v = Value::Null,
    }
}

fn run_snapshot(b: &[u8]) -> &'static str {
    // The checkpoint file's reader (its own, offset-precise pass).
    match Resume::from_json(b, "fuzz") {
        Ok(Some(r)) => {
            let again = serde_json::json!({
                "format": toolhelp16::walk::snapshot::FORMAT,
                "version": toolhelp16::walk::snapshot::VERSION,
                "resume": r.to_value(),
            });
            let back = Resume::from_json(again.to_string().as_bytes(), "fuzz")
                .unwrap_or_else(|e| panic!("a checkpoint file's own JSON does not read back: {e}"));
            assert_eq!(
                back.as_ref(),
                Some(&r),
                "a checkpoint file reads back otherwise"
            );
        }
        Ok(None) => {}
        Err(e) => assert!(
            e.starts_with("fuzz: "),
            "an error that does not name the file: {e}"
        ),
    }
    match Snapshot::from_json(b) {
        Ok(s) => {
            for start in Start::ALL {
                let w = s.walk(start, 0x8000);
                assert!(w.frames.len() <= 0x8000, "more frames than asked for");
                let _ = s.check(start, &w);
            }
            let _ = Snapshot::from_json(s.to_json().as_bytes())
                .map_err(|e| panic!("a snapshot's own JSON does not read back: {e}"));
            "walked"
        }
        Err(e) => {
            assert!(!e.is_empty(), "an empty error");
            "refused"
        }
    }
}

fn run_rsp(b: &[u8]) -> &'static str {
    let mut d = rsp::Decoder::default();
    let mut packets = 0;
    for &x in b {
        if let Some(rsp::Event::Packet(p)) = d.feed(x) {
            assert!(
                p.len() <= rsp::MAX_PACKET,
                "a packet longer than MAX_PACKET"
            );
            packets += 1;
            // What frame() writes decodes to itself.
            let mut again = rsp::Decoder::default();
            let back: Vec<rsp::Event> = rsp::frame(&p)
                .iter()
                .filter_map(|&y| again.feed(y))
                .collect();
            assert_eq!(
                back,
                vec![rsp::Event::Packet(p.clone())],
                "frame() does not decode to itself"
            );
            let _ = rsp::from_hex(&p);
            let _ = rsp::hex_number(&p);
        }
    }
    if packets > 0 { "packets" } else { "no packet" }
}

/// The directory a mutated program runs in: empty, its writes discarded
/// (the overlay `run` uses without `--dir`).
fn program_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("toolhelp16-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    d
}

fn run_program(b: &[u8], name: &str) -> &'static str {
    let opts = LoadOptions {
        dir: Some(program_dir()),
        writes: Writes::Discarded,
        stdin: Some(Vec::new()),
        load_timeout: Some(Duration::from_secs(2)),
        ..LoadOptions::default()
    };
    let mut prog = match session::load_bytes(name, b, &opts) {
        Ok(p) => p,
        Err(_) => return "load refused",
    };
    let limits = RunLimits {
        max_insns: 200_000,
        timeout: Duration::from_secs(2),
    };
    match prog.run(limits, None) {
        Ok(stop) => {
            let _ = session::describe_stop(&stop);
            let _ = prog.walk_at_stop(&stop);
            match stop {
                Stop::Exited { .. } => "exited",
                Stop::Fault(_) => "fault",
                Stop::Breakpoint { .. } => "breakpoint",
                Stop::Unimplemented { .. } => "unimplemented",
                Stop::Fatal { .. } => "fatal exit",
                Stop::NoInput { .. } => "no input",
                Stop::Hung { .. } => "hung (cli; hlt)",
                Stop::Budget => "budget",
                Stop::Timeout => "timeout",
                Stop::Error(e) => {
                    if e.contains("bug in toolhelp16") {
                        panic!("an internal error: {e}");
                    }
                    "error"
                }
            }
        }
        Err(e) => {
            if e.contains("bug in toolhelp16") {
                panic!("an internal error: {e}");
            }
            "run error"
        }
    }
}

/// A case that runs on past every limit (a hang the time bound cannot
/// see, since the case never returns): after [`HANG`] the watchdog
/// thread saves the input as `hang-HASH.bin`, says so and ends the
/// process with status 3.
struct Watchdog(std::sync::Arc<std::sync::Mutex<Option<Armed>>>);

/// The case the watchdog watches: the processor time at its start, the
/// input, and where findings go.
type Armed = (Duration, Vec<u8>, PathBuf);

/// A hang: a case that used this much processor time (not wall-clock
/// time: on a shared machine a case may wait long for a processor).
const HANG: Duration = Duration::from_secs(60);

/// The processor time this process has used (user and system, from
/// /proc/self/stat, in clock ticks of 10 ms).
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command name, which is in parentheses.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

impl Watchdog {
    fn start() -> Watchdog {
        let armed: std::sync::Arc<std::sync::Mutex<Option<Armed>>> = Default::default();
        let seen = armed.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(1));
                let g = seen.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((t, input, out)) = g.as_ref()
                    && cpu_time().saturating_sub(*t) > HANG
                {
                    let file = out.join(format!("hang-{:016x}.bin", hash(input)));
                    let _ = std::fs::write(&file, input);
                    commands::report(&format!(
                        "hang: a case ran past {} s of processor time ({} bytes) -> {}",
                        HANG.as_secs(),
                        input.len(),
                        file.display()
                    ));
                    std::process::exit(3);
                }
            }
        });
        Watchdog(armed)
    }

    /// The case `input` starts now.
    fn arm(&self, input: &[u8], out: &Path) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((cpu_time(), input.to_vec(), out.to_path_buf()));
    }
}

/// The process's peak resident memory so far (VmHWM), in KiB.
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn hash(b: &[u8]) -> u64 {
    b.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01B3)
    })
}

struct Args {
    target: String,
    seconds: u64,
    seed: u64,
    out: PathBuf,
    replay: Vec<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let target = it
        .next()
        .ok_or("usage: fuzz TARGET [--seconds N] [--seed N] [--out DIR] [--replay FILE...]")?;
    let mut a = Args {
        out: root().join("fuzz/out").join(&target),
        target,
        seconds: 60,
        seed: 1,
        replay: Vec::new(),
    };
    while let Some(x) = it.next() {
        let mut value = || it.next().ok_or(format!("{x} needs a value"));
        match x.as_str() {
            "--seconds" => a.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => a.out = PathBuf::from(value()?),
            "--replay" => a.replay.extend(it.by_ref().map(PathBuf::from)),
            _ => return Err(format!("unknown argument {x}")),
        }
    }
    Ok(a)
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzz: {e}");
            std::process::exit(2);
        }
    };
    let run: fn(&[u8], &str) -> &'static str = match a.target.as_str() {
        "loader" => |b, _| run_loader(b),
        "resources" => |b, _| run_resources(b),
        "symbols" => |b, _| run_symbols(b),
        "trace" => |b, _| run_trace(b),
        "snapshot" => |b, _| run_snapshot(b),
        "rsp" => |b, _| run_rsp(b),
        "programs" => run_program,
        "commands" => commands::run,
        t => {
            eprintln!(
                "fuzz: unknown target {t} (loader, resources, symbols, trace, snapshot, rsp, programs, commands)"
            );
            std::process::exit(2);
        }
    };
    // Bounds of a finding: a parser case past 2 s, a program past its own
    // 2 s limit by a second; memory that grows by 256 MiB in one case.
    let runs = a.target == "programs" || a.target == "commands";
    let slow = if a.target == "commands" {
        // Two commands of a case may each take their 2 s.
        Duration::from_secs(5)
    } else if runs {
        Duration::from_secs(3)
    } else {
        Duration::from_secs(2)
    };
    let memory_kib = 256 * 1024;
    std::panic::set_hook(Box::new(|_| {}));
    let _ = std::fs::create_dir_all(&a.out);

    let cases: Vec<(String, Vec<u8>)> = if a.replay.is_empty() {
        seeds(&a.target)
    } else {
        a.replay
            .iter()
            .filter_map(|p| Some((p.display().to_string(), std::fs::read(p).ok()?)))
            .collect()
    };
    if cases.is_empty() {
        eprintln!("fuzz: no seeds for {}", a.target);
        std::process::exit(2);
    }
    let mut rng = Rng(a.seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let started = Instant::now();
    let mut outcomes: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut findings = 0u64;
    let mut n = 0u64;
    let current = a.out.join("current.bin");
    let watchdog = Watchdog::start();
    if a.target == "commands" {
        // The commands print; the harness reports on its own stderr.
        commands::redirect(&program_dir());
    }
    let replaying = !a.replay.is_empty();
    let mut last_progress = Instant::now();
    loop {
        if replaying && n as usize >= cases.len() {
            break;
        }
        if !replaying && started.elapsed() >= Duration::from_secs(a.seconds) {
            break;
        }
        // A line a minute, so that a run that dies still has its counts.
        if last_progress.elapsed() >= Duration::from_secs(60) {
            last_progress = Instant::now();
            commands::report(&format!(
                "{} progress: {n} cases, {findings} findings",
                a.target
            ));
        }
        let (input, name) = if replaying {
            (cases[n as usize].1.clone(), cases[n as usize].0.clone())
        } else {
            let (seed_name, seed) = &cases[rng.below(cases.len())];
            let other = &cases[rng.below(cases.len())].1;
            let input = if a.target == "snapshot" && rng.chance(2) {
                match serde_json::from_slice::<serde_json::Value>(seed) {
                    Ok(mut v) => {
                        for _ in 0..1 + rng.below(4) {
                            mutate_json(&mut rng, &mut v);
                        }
                        v.to_string().into_bytes()
                    }
                    Err(_) => mutate(&mut rng, seed, other, 1 << 20),
                }
            } else if a.target == "trace" && rng.chance(4) {
                built_recording(&mut rng)
            } else {
                mutate(&mut rng, seed, other, 1 << 20)
            };
            (input, seed_name.clone())
        };
        // A program keeps its seed's extension (.COM or .EXE decides how
        // a file without a signature loads).
        let prog_name = if name.to_ascii_lowercase().ends_with(".com") {
            "FUZZ.COM"
        } else {
            "FUZZ.EXE"
        };
        if runs {
            let _ = std::fs::write(&current, &input);
            watchdog.arm(&input, &a.out);
        }
        let before = peak_kib();
        // Slowness is measured in processor time: on a machine shared with
        // other work a case may wait for a processor far longer than it
        // runs (the wall-clock time is said with it).
        let (t0, c0) = (Instant::now(), cpu_time());
        let result = catch_unwind(AssertUnwindSafe(|| run(&input, prog_name)));
        let (wall, took) = (t0.elapsed(), cpu_time().saturating_sub(c0));
        let grew = peak_kib().saturating_sub(before);
        n += 1;
        let finding = match &result {
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Some(("panic", msg))
            }
            Ok(_) if took > slow => Some((
                "slow",
                format!(
                    "{:.1} s of processor time ({:.1} s wall)",
                    took.as_secs_f64(),
                    wall.as_secs_f64()
                ),
            )),
            Ok(_) if grew > memory_kib => Some(("memory", format!("{} MiB more", grew / 1024))),
            Ok(_) => None,
        };
        match (&result, finding) {
            (_, Some((kind, msg))) => {
                findings += 1;
                *outcomes.entry(kind).or_default() += 1;
                let file = a.out.join(format!("{kind}-{:016x}.bin", hash(&input)));
                let _ = std::fs::write(&file, &input);
                commands::report(&format!(
                    "{kind}: {msg} ({} bytes from {name}) -> {}",
                    input.len(),
                    file.display()
                ));
            }
            (Ok(o), None) => *outcomes.entry(o).or_default() += 1,
            (Err(_), None) => {}
        }
    }
    let _ = std::fs::remove_file(&current);
    let _ = std::fs::remove_dir_all(program_dir());
    let secs = started.elapsed().as_secs_f64();
    commands::report(&format!(
        "{}: {n} cases in {secs:.0} s ({:.0}/s), {findings} findings; outcomes: {}",
        a.target,
        n as f64 / secs.max(1e-9),
        outcomes
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    std::process::exit(i32::from(findings > 0));
}
