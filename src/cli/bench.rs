//! `toolhelp16 bench`: speed figures measured in one run, with their
//! ratios (README, "Benchmarks").
//!
//! * **Emulation.** A real-mode loop (11 instructions a round, the inner
//!   block 11 instructions long) runs on bare unicorn with no hooks, and on
//!   the machine untraced: instructions per second and the ratio.
//! * **Tracing.** The same loop with the tracer writing to nowhere (block
//!   recording and rendering alone) and writing text to a file; and with a
//!   hook per instruction doing nothing, the figure the tracer must beat.
//!   The target: a trace to a file at no less than a quarter of the
//!   untraced speed.
//! * **Walking.** StackTraceNext frames per second over roms/recurse.exe's
//!   chain.
//! * **Loading.** The largest program of ../shared/corpus (skipped when
//!   absent).
//! * **Text.** Glyphs per second drawn by the text engine (gdi/text.rs):
//!   lines of the System font's glyphs turned into ink spans and painted
//!   into a 640×480 framebuffer.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::machine::{Observer, RunLimits, Stop, Uc};
use crate::session::{self, LoadOptions, Loc};
use crate::trace::{TraceOptions, Tracer};

/// The loop, as a .COM: `mov dx,OUTER; outer: mov cx,INNER; inner: 9 ALU
/// instructions; dec cx; jnz inner; dec dx; jnz outer; mov ax,4C00h; int
/// 21h`.
fn loop_com(outer: u16, inner: u16) -> Vec<u8> {
    let mut c = vec![0xBA];
    c.extend_from_slice(&outer.to_le_bytes());
    c.push(0xB9);
    c.extend_from_slice(&inner.to_le_bytes());
    c.extend_from_slice(&[
        0x01, 0xD8, 0x31, 0xC6, 0x47, 0x11, 0xF3, 0xD1, 0xC0, 0x29, 0xC7, 0x09, 0xFB, 0x21, 0xDE,
        0x49, 0x75, 0xEE, 0x4A, 0x75, 0xE8, 0xB8, 0x00, 0x4C, 0xCD, 0x21,
    ]);
    c
}

/// Instructions the loop executes.
fn loop_insns(outer: u64, inner: u64) -> u64 {
    1 + outer * (1 + inner * 11 + 2) + 2
}

/// Offset of `mov ax,4C00h` in the loop (where bare unicorn stops).
const LOOP_END: u64 = 0x11B;

/// Bare unicorn: the loop at 1000:0100 in 16-bit mode with no hooks.
fn bare_unicorn(code: &[u8]) -> Result<Duration, String> {
    use unicorn_engine::unicorn_const::{Arch, Mode, Permission};
    use unicorn_engine::{RegisterX86, Unicorn};
    let mut uc = Unicorn::new(Arch::X86, Mode::MODE_16).map_err(|e| format!("{e:?}"))?;
    uc.mem_map(0, 0x10_0000, Permission::ALL)
        .map_err(|e| format!("{e:?}"))?;
    uc.mem_write(0x10100, code).map_err(|e| format!("{e:?}"))?;
    uc.reg_write(RegisterX86::CS, 0x1000)
        .map_err(|e| format!("{e:?}"))?;
    uc.reg_write(RegisterX86::SS, 0x1000)
        .map_err(|e| format!("{e:?}"))?;
    uc.reg_write(RegisterX86::SP, 0xFFFE)
        .map_err(|e| format!("{e:?}"))?;
    let t = Instant::now();
    uc.emu_start(0x10100, 0x10000 + LOOP_END, 0, 0)
        .map_err(|e| format!("{e:?}"))?;
    Ok(t.elapsed())
}

/// An observer that does nothing, per instruction.
struct Nothing;

impl Observer for Nothing {
    fn on_block(&mut self, _: &Uc<'_>, _: u64, _: u32, _: u16, _: u16) -> Option<Stop> {
        None
    }
}

/// How the machine runs the loop.
enum Mode {
    Untraced,
    PerInsnHook,
    Trace(Option<PathBuf>),
}

fn machine_run(file: &Path, mode: Mode) -> Result<Duration, String> {
    let mut p = session::load(file, &LoadOptions::default()).map_err(|e| e.0)?;
    match mode {
        Mode::Untraced => {}
        Mode::PerInsnHook => {
            p.machine.add_observer(Box::new(Nothing));
            p.machine.watch_instructions().map_err(|e| e.0)?;
        }
        Mode::Trace(out) => {
            let w: Box<dyn std::io::Write> = match out {
                Some(path) => Box::new(std::io::BufWriter::with_capacity(
                    1 << 20,
                    std::fs::File::create(path).map_err(|e| e.to_string())?,
                )),
                None => Box::new(std::io::sink()),
            };
            p.machine
                .add_observer(Box::new(Tracer::new(TraceOptions::default(), w)));
        }
    }
    let limits = RunLimits {
        max_insns: 0,
        timeout: Duration::from_secs(600),
    };
    let t = Instant::now();
    let stop = p.run(limits, None)?;
    if let Some(mut tr) = p.machine.take_observer::<Tracer>() {
        tr.finish(0, 0).map_err(|e| e.to_string())?;
    }
    let d = t.elapsed();
    match stop {
        Stop::Exited { code: 0 } => Ok(d),
        other => Err(format!("the benchmark loop stopped: {other:?}")),
    }
}

fn rate(insns: u64, d: Duration) -> f64 {
    insns as f64 / d.as_secs_f64().max(1e-9)
}

fn mips(r: f64) -> String {
    format!("{:8.1} M instructions/s", r / 1e6)
}

/// The fastest of `n` runs of `f`.
fn best<F: FnMut() -> Result<Duration, String>>(n: usize, mut f: F) -> Result<Duration, String> {
    let mut b = Duration::MAX;
    for _ in 0..n {
        b = b.min(f()?);
    }
    Ok(b)
}

/// Run the benchmarks; `quick` shrinks them (for a smoke test).
pub fn bench(quick: bool) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("toolhelp16-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = run_all(&dir, quick);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_all(dir: &Path, quick: bool) -> Result<String, String> {
    let mut s = String::new();
    let (outer, traced_outer) = if quick { (50, 5) } else { (4500, 90) };
    let inner = 1000;
    let big = dir.join("loop.com");
    std::fs::write(&big, loop_com(outer, inner)).map_err(|e| e.to_string())?;
    let small = dir.join("small.com");
    std::fs::write(&small, loop_com(traced_outer, inner)).map_err(|e| e.to_string())?;
    let n_big = loop_insns(u64::from(outer), u64::from(inner));
    let n_small = loop_insns(u64::from(traced_outer), u64::from(inner));
    let reps = if quick { 1 } else { 3 };

    let bare = rate(n_big, best(reps, || bare_unicorn(&loop_com(outer, inner)))?);
    let plain = rate(n_big, best(reps, || machine_run(&big, Mode::Untraced))?);
    s.push_str(&format!(
        "emulation ({n_big} instructions, a loop of 11-instruction blocks)\n  bare unicorn, no hooks   {}\n  machine, untraced        {}   {:.2} x bare unicorn\n",
        mips(bare),
        mips(plain),
        plain / bare
    ));
    let plain_small = rate(n_small, best(reps, || machine_run(&small, Mode::Untraced))?);
    let hook = rate(
        n_small,
        best(reps, || machine_run(&small, Mode::PerInsnHook))?,
    );
    let sink = rate(
        n_small,
        best(reps, || machine_run(&small, Mode::Trace(None)))?,
    );
    let file = dir.join("loop.trace");
    let to_file = rate(
        n_small,
        best(reps, || {
            machine_run(&small, Mode::Trace(Some(file.clone())))
        })?,
    );
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    s.push_str(&format!(
        "tracing ({n_small} instructions)\n  untraced                 {}\n  a hook per instruction   {}   {:.2} x untraced\n  trace, blocks recorded   {}   {:.2} x untraced\n  trace, text to a file    {}   {:.2} x untraced ({} MB written; target >= 0.25: {})\n",
        mips(plain_small),
        mips(hook),
        hook / plain_small,
        mips(sink),
        sink / plain_small,
        mips(to_file),
        to_file / plain_small,
        bytes / 1_000_000,
        if to_file / plain_small >= 0.25 { "met" } else { "NOT met" }
    ));
    s.push_str(&walk_bench(if quick { 200 } else { 20_000 })?);
    s.push_str(&load_bench());
    s.push_str(&text_bench(if quick { 2_000 } else { 100_000 }));
    Ok(s)
}

fn walk_bench(n: usize) -> Result<String, String> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("roms/recurse.exe");
    let mut p = session::load(&file, &LoadOptions::default()).map_err(|e| e.0)?;
    let loc: Loc = "RECURSE:1:0033".parse()?;
    let stop = p.run(RunLimits::default(), Some(&loc))?;
    let t = Instant::now();
    let mut frames = 0usize;
    for _ in 0..n {
        frames += p.walk_at_stop(&stop).map_or(0, |w| w.frames.len());
    }
    let d = t.elapsed();
    Ok(format!(
        "walking (roms/recurse.exe, {} frames a walk, {n} walks)\n  StackTraceNext          {:10.0} frames/s\n",
        frames / n.max(1),
        frames as f64 / d.as_secs_f64().max(1e-9)
    ))
}

fn text_bench(lines: usize) -> String {
    use crate::win16::gdi::font::{FontCatalogue, FontSearch, PhysFont};
    use crate::win16::gdi::text::{Spacing, advances, string_ink};
    let cat = FontCatalogue::load(&FontSearch::standard(None));
    let font = PhysFont::plain(cat.system());
    let text = b"The quick brown fox jumps over the lazy dog. 0123456789";
    let adv = advances(&font, text, &Spacing::default());
    let (w, h) = (640i32, 480i32);
    let mut fb = vec![0u32; (w * h) as usize];
    let t = Instant::now();
    for i in 0..lines {
        let y = (i as i32 * 16) % (h - 16);
        string_ink(&font, text, &adv, (i as i32 % 7) * 3, y, |yy, a, b| {
            let (a, b) = (a.max(0), b.min(w));
            if (0..h).contains(&yy) && a < b {
                let row = (yy * w) as usize;
                fb[row + a as usize..row + b as usize].fill(0x0F);
            }
        });
    }
    let d = t.elapsed();
    let glyphs = lines * text.len();
    let note = if font.res.is_builtin() {
        " (no System font file: metrics only, nothing drawn)"
    } else {
        ""
    };
    format!(
        "text ({} {}px, {}-character lines into a 640x480 framebuffer){note}\n  glyphs                  {:10.0} glyphs/s\n",
        font.face(),
        font.height(),
        text.len(),
        glyphs as f64 / d.as_secs_f64().max(1e-9)
    )
}

fn load_bench() -> String {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut files: Vec<(u64, PathBuf)> = Vec::new();
    for sub in ["ne", "dos"] {
        let Ok(rd) = std::fs::read_dir(corpus.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            files.push((e.metadata().map(|m| m.len()).unwrap_or(0), e.path()));
        }
    }
    if files.is_empty() {
        return "loading\n  SKIPPED: ../shared/corpus is absent\n".into();
    }
    // The largest program this tool loads (the corpus also holds OS/2 and
    // other programs it refuses, by design).
    files.sort_by(|a, b| b.cmp(a));
    for (len, path) in files {
        if session::load(&path, &LoadOptions::default()).is_err() {
            continue;
        }
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            if session::load(&path, &LoadOptions::default()).is_ok() {
                best = best.min(t.elapsed());
            }
        }
        return format!(
            "loading (the largest corpus program it loads, {}, {len} bytes)\n  load                    {:10.2} ms\n",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            best.as_secs_f64() * 1e3
        );
    }
    "loading\n  no corpus program loads\n".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_counts_its_instructions() {
        // 1 + 2 * (1 + 3 * 11 + 2) + 2
        assert_eq!(loop_insns(2, 3), 75);
        let c = loop_com(2, 3);
        assert_eq!(c[LOOP_END as usize - 0x100], 0xB8, "mov ax,4C00h");
    }
}
