//! `toolhelp16 bench`: speed figures measured in one run, with their
//! ratios (README, "Benchmarks").
//!
//! * **Emulation.** A real-mode loop (10 instructions a round, the inner
//!   block 10 instructions long) runs on bare unicorn with no hooks, and on
//!   the machine untraced: instructions per second and the ratio.
//! * **Tracing.** The same loop with the tracer writing to nowhere (block
//!   decoding and rendering alone) and writing text to a file; and with a
//!   hook per instruction doing nothing, for comparison.
//! * **Recorded traces.** `trace --record` beside the untraced run,
//!   measured in the same rounds (target: at least 0.5 x untraced, issue
//!   33); and
//!   the expansion of a recording to text beside a hook per instruction
//!   writing the same text (checked equal; target: faster).
//! * **Debugging.** A debugged run (`debug`, `gdbserver`: the debugger's
//!   session, src/debug/) with three breakpoints set that the program
//!   never reaches, beside the untraced run (target: at least 0.8 x
//!   untraced, issue 33): a DOS loop, and roms/ticks.exe (bundled, a
//!   Win16 program in protected mode making system calls).
//! * **A timed Win16 program.** roms/clockwork.exe (bundled), which reads
//!   the clock once a frame as most Win16 programs do (GetMessage's and
//!   GetTickCount's time make a run timed, machine/time.rs): `trace
//!   --record` (record section) and a debugged run with three breakpoints
//!   that never hit (debug section), each against its plain run (targets
//!   0.5 x and 0.8 x, issue 33).
//! * **Self-modifying code.** roms/smc8.com, dossmc.com, smcdata.com and
//!   smcboot.img (bundled) under a budget of 2 M instructions each:
//!   microseconds per instruction (wall and the thread's CPU time), and
//!   the worst CPU figure against its target (at most 3 us:
//!   `--max-insns N` bounds a run whatever it runs).
//! * **System calls.** roms/ticks.exe (bundled): a Win16 program calling
//!   USER.13 GetTickCount 100,000 times in a tight loop, each call through
//!   its import thunk: calls per second, the loop's own instructions
//!   included (target: at least 1 M calls/s).
//! * **Walking.** StackTraceNext frames per second over roms/recurse.exe's
//!   chain (bundled in the binary).
//! * **Loading.** roms/winmenu.exe (bundled), and the largest program of
//!   the shared corpus when it is there (`TOOLHELP16_CORPUS`, else
//!   `../shared/corpus` from the current directory).
//! * **Drawing.** GDI on the VGA screen (a display DC): pixels per second
//!   of solid and dithered PatBlt fills, filled rectangles and ellipses,
//!   SRCCOPY and general-ROP BitBlts and a monochrome-to-colour blit, each
//!   against its target (a solid fill of the whole screen in under 10 ms,
//!   50 M pixels/s; blits and shapes 10 M pixels/s).
//! * **Text.** Glyphs per second drawn by TextOut (gdi/text.rs), called
//!   as a program calls it, with the System font on a memory DC holding a
//!   640×480 16-colour bitmap.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::machine::{Observer, RunLimits, Stop, Uc};
use crate::session::{self, LoadOptions, Loc};
use crate::trace::{TraceOptions, Tracer, record};
use std::io::Write;

/// The loop, as a .COM: `mov dx,OUTER; outer: mov cx,INNER; inner: 8 ALU
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

/// Instructions the loop executes (tests/fastpath.rs counts them one by
/// one).
fn loop_insns(outer: u64, inner: u64) -> u64 {
    1 + outer * (1 + inner * 10 + 2) + 2
}

/// Offset of `mov ax,4C00h` in the loop (where bare unicorn stops).
const LOOP_END: u64 = 0x11B;

/// Bare unicorn: the loop at 1000:0100 in 16-bit mode with no hooks, or
/// (`block_hook`) with one block hook that does nothing: what a call per
/// block costs on this engine.
fn bare_unicorn(code: &[u8], block_hook: bool) -> Result<Duration, String> {
    use unicorn_engine::unicorn_const::{Arch, Mode, Permission};
    use unicorn_engine::{RegisterX86, Unicorn};
    let mut uc = Unicorn::new(Arch::X86, Mode::MODE_16)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    uc.mem_map(0, 0x10_0000, Permission::ALL)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    uc.mem_write(0x10100, code)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    uc.reg_write(RegisterX86::CS, 0x1000)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    uc.reg_write(RegisterX86::SS, 0x1000)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    uc.reg_write(RegisterX86::SP, 0xFFFE)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    if block_hook {
        let mut hook: unicorn_engine::ffi::uc_hook = std::ptr::null_mut();
        // SAFETY: a block hook of unicorn's `uc_cb_hookcode_t` shape with
        // no user data, over every address; it touches nothing.
        let err = unsafe {
            unicorn_engine::ffi::uc_hook_add(
                uc.get_handle(),
                &mut hook,
                unicorn_engine::unicorn_const::HookType::BLOCK,
                empty_block_hook as *mut std::ffi::c_void,
                std::ptr::null_mut(),
                1,
                0,
            )
        };
        if err != unicorn_engine::unicorn_const::uc_error::OK {
            return Err(crate::machine::uc_words(err).to_string());
        }
    }
    let t = Instant::now();
    uc.emu_start(0x10100, 0x10000 + LOOP_END, 0, 0)
        .map_err(|e| crate::machine::uc_words(e).to_string())?;
    Ok(t.elapsed())
}

/// A block hook that does nothing, called by QEMU's code directly as the
/// machine's own counting hook is (machine/counter.rs): what a call per
/// block costs on this engine, which the budget's count, made inside the
/// translated code, no longer pays in the common case.
extern "C" fn empty_block_hook(
    _uc: unicorn_engine::ffi::uc_handle,
    _addr: u64,
    _size: u32,
    _data: *mut std::ffi::c_void,
) {
}

/// An observer that does nothing, per instruction.
struct Nothing;

impl Observer for Nothing {
    fn on_block(&mut self, _: &Uc<'_>, _: u64, _: u32, _: u16, _: u16) -> Option<Stop> {
        None
    }
}

/// A hook per instruction writing each instruction's trace line as it
/// is about to run: the same text as the tracer's, the per-instruction
/// way (the reference the expansion of a recording must beat).
struct LinePerInsn {
    render: crate::trace::Render,
    out: Box<dyn std::io::Write>,
    error: Option<std::io::Error>,
}

impl Observer for LinePerInsn {
    fn on_block(&mut self, _: &Uc<'_>, _: u64, _: u32, _: u16, _: u16) -> Option<Stop> {
        None
    }

    fn on_insn(&mut self, uc: &Uc<'_>, addr: u64, size: u32) {
        use crate::machine::Cpu;
        let (cs, ip) = (uc.reg(crate::machine::R::CS), uc.reg(crate::machine::R::IP));
        let mut bytes = vec![0u8; size.min(16) as usize];
        if uc.mem_read(addr, &mut bytes).is_err() {
            return;
        }
        let b = crate::trace::blocks::decode(addr, cs, ip, bytes);
        let Some(i) = b.insns.first() else {
            return;
        };
        let place = crate::trace::Place::of(uc, cs);
        let sym = crate::machine::symbol_at(uc, cs, ip).map(|s| s.to_string());
        let line = self.render.line(&b, i, &place, sym.as_deref(), None);
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{line}") {
                self.error = Some(e);
            }
        }
    }
}

/// How the machine runs the loop.
enum Mode {
    Untraced,
    /// With an instruction budget (`--max-insns`) too large to end the
    /// run: the block counter's whole cost (machine/counter.rs).
    Budget,
    PerInsnHook,
    Trace(Option<PathBuf>),
    /// `trace --record`: the executed blocks recorded into the file.
    Record(PathBuf),
    /// Each instruction's trace line written into the file by a hook per
    /// instruction ([`LinePerInsn`]).
    LineHook(PathBuf),
}

/// A budget no benchmark reaches.
const NO_END: u64 = u64::MAX / 2;

fn machine_run(file: &Path, mode: Mode) -> Result<Duration, String> {
    machine_run_with(file, mode, &LoadOptions::default()).map(|(d, _)| d)
}

/// Run `file` in `mode`: the time of the run (the load excluded) and the
/// instructions it executed when the machine counted them.
fn machine_run_with(
    file: &Path,
    mode: Mode,
    opts: &LoadOptions,
) -> Result<(Duration, Option<u64>), String> {
    machine_run_clock(file, mode, opts, false)
}

/// [`machine_run_with`], with a timed run's clock kept by the counting
/// hook block by block (`time_by_hook`, machine/time.rs,
/// `keep_time_by_hook`: the way before the clock was derived from the
/// count) or not.
fn machine_run_clock(
    file: &Path,
    mode: Mode,
    opts: &LoadOptions,
    time_by_hook: bool,
) -> Result<(Duration, Option<u64>), String> {
    let mut p = session::load(file, opts).map_err(|e| e.to_string())?;
    if time_by_hook {
        p.machine.keep_time_by_hook();
    }
    let mut max_insns = 0;
    let mut recording = None;
    let create = |path: &Path| -> Result<Box<dyn std::io::Write>, String> {
        Ok(Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            std::fs::File::create(path).map_err(|e| e.to_string())?,
        )))
    };
    match mode {
        Mode::Untraced => {}
        Mode::Budget => max_insns = NO_END,
        Mode::PerInsnHook => {
            p.machine.add_observer(Box::new(Nothing));
            p.machine.watch_instructions().map_err(|e| e.to_string())?;
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
        Mode::Record(path) => {
            let header = record::Header {
                program: file.display().to_string(),
                ..Default::default()
            };
            let (w, shared) = record::RecordWriter::new(
                Box::new(std::fs::File::create(&path).map_err(|e| e.to_string())?),
                &header,
            )
            .map_err(|e| e.to_string())?;
            p.machine.record_blocks(Box::new(w));
            recording = Some(shared);
        }
        Mode::LineHook(path) => {
            p.machine.add_observer(Box::new(LinePerInsn {
                render: crate::trace::Render::default(),
                out: create(&path)?,
                error: None,
            }));
            p.machine.watch_instructions().map_err(|e| e.to_string())?;
        }
    }
    let limits = RunLimits {
        max_insns,
        timeout: Duration::from_secs(600),
    };
    let t = Instant::now();
    let stop = p.run(limits, None)?;
    if let Some(mut tr) = p.machine.take_observer::<Tracer>() {
        tr.finish(0, 0, p.machine.executed())
            .map_err(|e| e.to_string())?;
    }
    if let Some(mut l) = p.machine.take_observer::<LinePerInsn>() {
        if let Some(e) = l.error.take() {
            return Err(e.to_string());
        }
        l.out.flush().map_err(|e| e.to_string())?;
    }
    if let Some(shared) = recording {
        if let Some((_, Some(e))) = p.machine.stop_recording() {
            return Err(e.to_string());
        }
        let end = record::End {
            instructions: p.machine.executed(),
            ..Default::default()
        };
        shared
            .borrow_mut()
            .finish(&end)
            .map_err(|e| e.to_string())?;
    }
    let d = t.elapsed();
    match stop {
        Stop::Exited { code: 0 } => Ok((d, p.machine.executed())),
        other => Err(format!(
            "the benchmark loop stopped: {}",
            crate::cli::output::describe(&other)
        )),
    }
}

fn rate(insns: u64, d: Duration) -> f64 {
    insns as f64 / d.as_secs_f64().max(1e-9)
}

fn mips(r: f64) -> String {
    format!("{:8.1} M instructions/s", r / 1e6)
}

/// `met` or `NOT met`: whether `value` reaches `target`.
fn verdict(value: f64, target: f64) -> &'static str {
    if value >= target { "met" } else { "NOT met" }
}

/// The debugger's front end for [`debug_bench`]: at the program's start
/// it sets breakpoints at `never` (linear addresses the program does not
/// reach) and continues; at the end it notes the time and ends the
/// session. Any other stop is an error: a breakpoint that hit.
struct BenchFront {
    never: Vec<u64>,
    started: std::rc::Rc<std::cell::Cell<Option<Instant>>>,
    ran: std::rc::Rc<std::cell::Cell<Option<Duration>>>,
    other: std::rc::Rc<std::cell::Cell<bool>>,
}

impl crate::debug::Frontend for BenchFront {
    fn stopped(&mut self, h: &mut crate::debug::Here<'_, '_>) -> crate::debug::Resume {
        use crate::debug::{Resume, Why};
        match &h.why {
            Why::Start => {
                for &a in &self.never {
                    h.add_breakpoint(a);
                }
                self.started.set(Some(Instant::now()));
                Resume::Continue
            }
            Why::Ended(Stop::Exited { code: 0 }) => {
                if let Some(t) = self.started.get() {
                    self.ran.set(Some(t.elapsed()));
                }
                Resume::Kill
            }
            _ => {
                self.other.set(true);
                Resume::Kill
            }
        }
    }
}

/// The loop run in a debugging session with breakpoints that never hit:
/// the time from the first instruction to the end.
fn debugged_run(file: &Path) -> Result<Duration, String> {
    debugged_run_with(file, crate::debug::checkpoint::Options::default())
}

/// [`debugged_run`], the session taking checkpoints as `checkpoints`
/// says.
fn debugged_run_with(
    file: &Path,
    checkpoints: crate::debug::checkpoint::Options,
) -> Result<Duration, String> {
    let started = std::rc::Rc::new(std::cell::Cell::new(None));
    let ran = std::rc::Rc::new(std::cell::Cell::new(None));
    let other = std::rc::Rc::new(std::cell::Cell::new(false));
    // Past the program's code in its first code segment (the DOS loop:
    // PSP at 0, the code at 0100h and ending at 011Dh; roms/ticks.exe's
    // code segment is shorter than 4000h): linear addresses it never
    // runs, in real or protected mode.
    let probe = session::load(file, &LoadOptions::default()).map_err(|e| e.to_string())?;
    let regs = crate::machine::Cpu::regs(&*probe.machine);
    let base = probe
        .machine
        .linear(regs.cs, 0)
        .ok_or_else(|| format!("{}: no code segment at its entry", file.display()))?;
    drop(probe);
    let front = BenchFront {
        never: vec![base + 0x4000, base + 0x8000, base + 0xC000],
        started: started.clone(),
        ran: ran.clone(),
        other: other.clone(),
    };
    let mut load = || session::load(file, &LoadOptions::default()).map_err(|e| e.to_string());
    let limits = RunLimits {
        max_insns: 0,
        timeout: Duration::MAX,
    };
    crate::debug::run_session_checkpointed(&mut load, Box::new(front), limits, checkpoints)
        .map_err(|e| e.to_string())?;
    if other.get() {
        return Err("the debugged benchmark loop stopped before its end".into());
    }
    ran.get()
        .ok_or_else(|| "the debugged benchmark loop did not end".to_string())
}

/// A debugged run with breakpoints set that never hit, beside the
/// untraced run, in the same rounds (target: at least 0.8 x untraced).
fn debug_bench(dir: &Path, quick: bool, reps: usize) -> Result<String, String> {
    let outer = if quick { 50 } else { 5_000 };
    let file = dir.join("debugged.com");
    std::fs::write(&file, loop_com(outer, 1000)).map_err(|e| e.to_string())?;
    let n = loop_insns(u64::from(outer), 1000);
    let (mut plain, mut debugged) = (0f64, 0f64);
    for _ in 0..reps {
        plain = plain.max(rate(n, machine_run(&file, Mode::Untraced)?));
        debugged = debugged.max(rate(n, debugged_run(&file)?));
    }
    Ok(format!(
        "debugging ({n} instructions)\n  untraced                 {}\n  debugged, 3 breakpoints  {}   {:.2} x untraced   target >= 0.80: {}\n",
        mips(plain),
        mips(debugged),
        debugged / plain,
        verdict(debugged / plain, 0.80),
    ))
}

/// The debugger's front end for [`reverse_bench`]: at the start it sets
/// a breakpoint at position `at` and continues; there it goes back one
/// instruction and notes how long that took; then it ends the session.
struct ReverseFront {
    at: u64,
    asked: Option<Instant>,
    took: std::rc::Rc<std::cell::Cell<Option<(Duration, u64)>>>,
}

impl crate::debug::Frontend for ReverseFront {
    fn stopped(&mut self, h: &mut crate::debug::Here<'_, '_>) -> crate::debug::Resume {
        use crate::debug::{Resume, Why};
        match (&h.why, self.asked) {
            (Why::Start, None) => {
                h.add_position_break(self.at);
                Resume::Continue
            }
            (Why::Breakpoint, None) if h.pos == self.at => {
                self.asked = Some(Instant::now());
                Resume::ReverseStep
            }
            (_, Some(t)) => {
                self.took.set(Some((t.elapsed(), h.pos)));
                Resume::Kill
            }
            _ => Resume::Kill,
        }
    }
}

/// Reverse-stepi after `at` instructions of the loop in a debugging
/// session (issue 33: target at most 50 ms): the time from the request
/// to the stop one instruction back, replayed from the nearest
/// checkpoint (src/debug/checkpoint.rs).
fn reverse_bench(dir: &Path, quick: bool) -> Result<String, String> {
    let at: u64 = if quick { 1_000_000 } else { 100_000_000 };
    // Enough passes of the outer loop to run past `at` (each pass is
    // the difference of two counts: `loop_insns(1, ..)` also counts the
    // instructions before and after the loop).
    let per_pass = loop_insns(2, 1000) - loop_insns(1, 1000);
    let outer = (at / per_pass + 2) as u16;
    let file = dir.join("reverse.com");
    std::fs::write(&file, loop_com(outer, 1000)).map_err(|e| e.to_string())?;
    let took = std::rc::Rc::new(std::cell::Cell::new(None));
    let front = ReverseFront {
        at,
        asked: None,
        took: took.clone(),
    };
    let mut load = || session::load(&file, &LoadOptions::default()).map_err(|e| e.to_string());
    crate::debug::run_session(&mut load, Box::new(front)).map_err(|e| e.to_string())?;
    let (t, pos) = took
        .get()
        .ok_or_else(|| "the reverse-stepi benchmark did not reach its position".to_string())?;
    if pos != at - 1 {
        return Err(format!(
            "reverse-stepi from position {at} stopped at {pos}, not {}",
            at - 1
        ));
    }
    let ms = t.as_secs_f64() * 1000.0;
    Ok(format!(
        "reverse execution\n  reverse-stepi after 10^{} instructions  {ms:.1} ms   target <= 50 ms: {}\n",
        at.ilog10(),
        if ms <= 50.0 { "met" } else { "NOT met" },
    ))
}

/// A debugged run of a Win16 program (protected mode, system calls,
/// nested emulations allowed) with breakpoints set that never hit, beside
/// its plain run: roms/ticks.exe (bundled), in time from its first
/// instruction to its end (target: at least 0.8 x the plain run).
fn debug_win16_bench(reps: usize) -> Result<String, String> {
    let file = Bundled::new("ticks.exe", TICKS_EXE)?;
    let (mut plain, mut debugged) = (Duration::MAX, Duration::MAX);
    for _ in 0..reps {
        plain = plain.min(machine_run(&file.path, Mode::Untraced)?);
        debugged = debugged.min(debugged_run(&file.path)?);
    }
    let ratio = plain.as_secs_f64() / debugged.as_secs_f64().max(1e-9);
    Ok(format!(
        "debugging a Win16 program (roms/ticks.exe, {TICKS_CALLS} GetTickCount calls)
  plain run                {:8.1} ms
  debugged, 3 breakpoints  {:8.1} ms   {ratio:.2} x the plain run's speed   target >= 0.80: {}
",
        plain.as_secs_f64() * 1e3,
        debugged.as_secs_f64() * 1e3,
        verdict(ratio, 0.80),
    ))
}

/// A timed Win16 program (roms/clockwork.exe, bundled: a GetTickCount
/// call a frame and 50,000 rounds of a 10-instruction block between; its
/// first call makes the run timed, machine/time.rs), as most real Win16
/// programs are timed (GetMessage stamps every message with the clock):
/// `trace --record` against its plain run (target: at least 0.5 x) and
/// a debugged run with three breakpoints that never hit against its
/// plain run (target: at least 0.8 x), the best of `reps` rounds, each
/// figure beside its reference in the same round. The same recorded run
/// with the clock kept by the hook on every block (the way before the
/// clock was derived from the count) shows what the derived clock saves.
fn timed_win16_bench(dir: &Path, reps: usize, record: bool, debug: bool) -> Result<String, String> {
    let file = Bundled::new("clockwork.exe", CLOCKWORK_EXE)?;
    let n = CLOCKWORK_INSNS;
    let rec = dir.join("clockwork.rec");
    let opts = LoadOptions::default();
    let mut s = String::new();
    if record {
        let (mut plain, mut recorded, mut by_hook) = (0f64, 0f64, 0f64);
        for _ in 0..reps.max(3) {
            plain = plain.max(rate(n, machine_run(&file.path, Mode::Untraced)?));
            recorded = recorded.max(rate(n, machine_run(&file.path, Mode::Record(rec.clone()))?));
            by_hook = by_hook.max(rate(
                n,
                machine_run_clock(&file.path, Mode::Record(rec.clone()), &opts, true)?.0,
            ));
        }
        let _ = std::fs::remove_file(&rec);
        s.push_str(&format!(
            "recorded trace of a timed Win16 program (roms/clockwork.exe, about {n} instructions, a GetTickCount call a frame)\n  untraced                 {}\n  trace --record           {}   {:.2} x untraced   target >= 0.50: {}\n  (the clock kept by the hook on every block, as before: {}   {:.2} x untraced)\n",
            mips(plain),
            mips(recorded),
            recorded / plain,
            verdict(recorded / plain, 0.50),
            mips(by_hook),
            by_hook / plain,
        ));
    }
    if debug {
        let (mut plain, mut debugged, mut bare) = (Duration::MAX, Duration::MAX, Duration::MAX);
        let none = crate::debug::checkpoint::Options {
            memory: 0,
            ..Default::default()
        };
        for _ in 0..reps {
            plain = plain.min(machine_run(&file.path, Mode::Untraced)?);
            debugged = debugged.min(debugged_run(&file.path)?);
            bare = bare.min(debugged_run_with(&file.path, none)?);
        }
        let ratio = plain.as_secs_f64() / debugged.as_secs_f64().max(1e-9);
        let bare_ratio = plain.as_secs_f64() / bare.as_secs_f64().max(1e-9);
        s.push_str(&format!(
            "debugging a timed Win16 program (roms/clockwork.exe)\n  plain run                {:8.1} ms\n  debugged, 3 breakpoints  {:8.1} ms   {ratio:.2} x the plain run's speed   target >= 0.80: {}\n  (without checkpoints, --checkpoint-memory 0: {:8.1} ms   {bare_ratio:.2} x: what the checkpoints cost)\n",
            plain.as_secs_f64() * 1e3,
            debugged.as_secs_f64() * 1e3,
            verdict(ratio, 0.80),
            bare.as_secs_f64() * 1e3,
        ));
    }
    Ok(s)
}

/// The fastest of `n` runs of `f`.
fn best<F: FnMut() -> Result<Duration, String>>(n: usize, mut f: F) -> Result<Duration, String> {
    let mut b = Duration::MAX;
    for _ in 0..n {
        b = b.min(f()?);
    }
    Ok(b)
}

/// The sections `bench --only` names.
pub const SECTIONS: [&str; 13] = [
    "emulation",
    "tracing",
    "record",
    "debug",
    "reverse",
    "smc",
    "syscall",
    "walk",
    "corpus",
    "dosbox",
    "load",
    "draw",
    "text",
];

/// Run the benchmarks; `quick` shrinks them (for a smoke test); `only`,
/// when not empty, names the sections to run ([`SECTIONS`]).
pub fn bench(quick: bool, only: &[String]) -> Result<String, String> {
    if let Some(bad) = only.iter().find(|o| !SECTIONS.contains(&o.as_str())) {
        return Err(format!(
            "--only {bad}: no such section (the sections: {})",
            SECTIONS.join(", ")
        ));
    }
    let dir = std::env::temp_dir().join(format!("toolhelp16-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let want = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let result = run_all(&dir, quick, &want);
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|text| if quick { quick_text(&text) } else { text })
}

/// `--quick`'s report: one short round per figure is a check that every
/// figure runs, not a measurement, so no figure is judged against its
/// target (no `met` / `NOT met`), and a part that could not run for want
/// of something a user need not have (the project's corpus, DOSBox) is
/// left out instead of saying SKIPPED.
fn quick_text(text: &str) -> String {
    let mut out = String::from(
        "bench --quick: one short round each, to see that every figure runs; the figures are \
         not measurements and are not judged against their targets (`bench` measures)\n",
    );
    let lines: Vec<&str> = text.lines().collect();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        // A heading whose part was skipped: the heading and its lines.
        let skipped = |l: &str| {
            l.trim_start().starts_with("SKIPPED")
                || l.contains(": SKIPPED")
                || l.contains("corpus is not at")
        };
        // A heading all of whose lines say SKIPPED goes with them.
        let body = lines[k + 1..]
            .iter()
            .take_while(|n| n.starts_with(' '))
            .collect::<Vec<_>>();
        if !line.starts_with(' ') && !body.is_empty() && body.iter().all(|n| skipped(n)) {
            k += 1 + body.len();
            continue;
        }
        if skipped(line) {
            k += 1;
            continue;
        }
        let judged = line
            .strip_suffix(": NOT met")
            .or_else(|| line.strip_suffix(": met"));
        out.push_str(judged.unwrap_or(line));
        out.push('\n');
        k += 1;
    }
    out
}

fn run_all(dir: &Path, quick: bool, want: &dyn Fn(&str) -> bool) -> Result<String, String> {
    let mut s = String::new();
    let (outer, traced_outer) = if quick { (50, 5) } else { (40_000, 90) };
    let inner = 1000;
    let big = dir.join("loop.com");
    std::fs::write(&big, loop_com(outer, inner)).map_err(|e| e.to_string())?;
    let small = dir.join("small.com");
    std::fs::write(&small, loop_com(traced_outer, inner)).map_err(|e| e.to_string())?;
    let n_big = loop_insns(u64::from(outer), u64::from(inner));
    let n_small = loop_insns(u64::from(traced_outer), u64::from(inner));
    let reps = if quick { 1 } else { 3 };

    // Each figure beside its reference, measured in turn within one
    // round, the best of `reps` rounds: a busy host slows both alike.
    let code = loop_com(outer, inner);
    let (mut bare, mut plain, mut budget, mut hooked) = (0f64, 0f64, 0f64, 0f64);
    for _ in 0..if want("emulation") { reps } else { 0 } {
        bare = bare.max(rate(n_big, bare_unicorn(&code, false)?));
        hooked = hooked.max(rate(n_big, bare_unicorn(&code, true)?));
        plain = plain.max(rate(n_big, machine_run(&big, Mode::Untraced)?));
        budget = budget.max(rate(n_big, machine_run(&big, Mode::Budget)?));
    }
    if want("emulation") {
        s.push_str(&format!(
        "emulation ({n_big} instructions, a loop of 10-instruction blocks)\n  bare unicorn, no hooks   {}\n  machine, untraced        {}   {:.2} x bare unicorn   target >= 0.85: {}\n  machine, --max-insns     {}   {:.2} x bare unicorn   target >= 0.50: {}\n  (bare unicorn, one empty block hook {}   {:.2} x: a call per block, what the budget no longer pays)\n",
        mips(bare),
        mips(plain),
        plain / bare,
        verdict(plain / bare, 0.85),
        mips(budget),
        budget / bare,
        verdict(budget / bare, 0.5),
        mips(hooked),
        hooked / bare,
    ));
    }
    if want("tracing") {
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
        "tracing ({n_small} instructions)\n  untraced                 {}\n  a hook per instruction   {}   {:.2} x untraced\n  trace, blocks rendered   {}   {:.2} x untraced\n  trace, text to a file    {}   {:.2} x untraced ({} MB written)\n",
        mips(plain_small),
        mips(hook),
        hook / plain_small,
        mips(sink),
        sink / plain_small,
        mips(to_file),
        to_file / plain_small,
        bytes / 1_000_000,
    ));
    }
    if want("record") {
        s.push_str(&recording_bench(dir, quick, reps, &small, n_small)?);
    }
    if want("debug") {
        s.push_str(&debug_bench(dir, quick, reps)?);
        s.push_str(&debug_win16_bench(reps)?);
    }
    if want("record") || want("debug") {
        s.push_str(&timed_win16_bench(
            dir,
            reps,
            want("record"),
            want("debug"),
        )?);
    }
    if want("reverse") {
        s.push_str(&reverse_bench(dir, quick)?);
    }
    if want("smc") {
        s.push_str(&smc_bench(dir, if quick { 20_000 } else { 2_000_000 })?);
    }
    if want("syscall") {
        s.push_str(&syscall_bench(reps)?);
    }
    if want("walk") {
        s.push_str(&walk_bench(if quick { 200 } else { 20_000 })?);
    }
    if want("corpus") {
        s.push_str(&corpus_run_bench(if quick { 1 } else { 3 }));
    }
    if want("dosbox") {
        s.push_str(&super::bench_dosbox::bench(dir, quick));
    }
    if want("load") {
        s.push_str(&load_bench());
    }
    if want("draw") {
        s.push_str(&draw_bench(quick)?);
    }
    if want("text") {
        s.push_str(&text_bench(if quick { 2_000 } else { 100_000 }));
    }
    Ok(s)
}

/// `trace --record` beside the untraced run, in the same rounds, on a
/// loop long enough to time (target: at least 0.5 x untraced); and the
/// expansion of the small loop's recording to text beside the same text
/// written by a hook per instruction (target: faster).
fn recording_bench(
    dir: &Path,
    quick: bool,
    reps: usize,
    small: &Path,
    n_small: u64,
) -> Result<String, String> {
    let outer = if quick { 50 } else { 20_000 };
    let inner = 1000;
    let mid = dir.join("mid.com");
    std::fs::write(&mid, loop_com(outer, inner)).map_err(|e| e.to_string())?;
    let n_mid = loop_insns(u64::from(outer), u64::from(inner));
    let rec = dir.join("mid.rec");
    // The recording rides on the machine's block counter: its figure
    // alone (a budget) shows what the recorder itself adds.
    let (mut plain, mut recorded, mut counted) = (0f64, 0f64, 0f64);
    for _ in 0..reps.max(5) {
        plain = plain.max(rate(n_mid, machine_run(&mid, Mode::Untraced)?));
        recorded = recorded.max(rate(n_mid, machine_run(&mid, Mode::Record(rec.clone()))?));
        counted = counted.max(rate(n_mid, machine_run(&mid, Mode::Budget)?));
    }
    let rec_bytes = std::fs::metadata(&rec).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&rec);

    let small_rec = dir.join("small.rec");
    machine_run(small, Mode::Record(small_rec.clone()))?;
    let expanded = dir.join("expanded.txt");
    let hooked = dir.join("hooked.txt");
    let (mut by_hook, mut by_expansion) = (0f64, 0f64);
    for _ in 0..reps {
        by_hook = by_hook.max(rate(
            n_small,
            machine_run(small, Mode::LineHook(hooked.clone()))?,
        ));
        let t = Instant::now();
        let reader = record::Reader::open(&small_rec).map_err(|e| e.to_string())?;
        let out = std::io::BufWriter::with_capacity(
            1 << 20,
            std::fs::File::create(&expanded).map_err(|e| e.to_string())?,
        );
        let mut sink = crate::trace::Sink::new(Box::new(out), None, None);
        let x = record::expand(reader, record::ExpandOptions::default(), &mut sink)
            .map_err(|e| e.to_string())?;
        sink.finish().map_err(|e| e.to_string())?;
        by_expansion = by_expansion.max(rate(x.written, t.elapsed()));
    }
    let a = std::fs::read(&expanded).map_err(|e| e.to_string())?;
    let b = std::fs::read(&hooked).map_err(|e| e.to_string())?;
    let same = if a == b {
        format!("the same {} MB", a.len() / 1_000_000)
    } else {
        "the texts DIFFER".to_string()
    };
    Ok(format!(
        "recorded trace ({n_mid} instructions; {} MB recorded)\n  untraced                 {}\n  trace --record           {}   {:.2} x untraced   target >= 0.50: {}\n  (--max-insns alone       {}   {:.2} x untraced: the budget's count, made in the translated code; so is the recording's word, patch 0012)\ntext of a trace ({n_small} instructions, {same})\n  a hook per instruction   {}\n  expansion of a recording {}   {:.2} x the hook   target > 1 (faster): {}\n",
        rec_bytes / 1_000_000,
        mips(plain),
        mips(recorded),
        recorded / plain,
        verdict(recorded / plain, 0.50),
        mips(counted),
        counted / plain,
        mips(by_hook),
        mips(by_expansion),
        by_expansion / by_hook,
        if by_expansion > by_hook {
            "met"
        } else {
            "NOT met"
        },
    ))
}

/// Call GDI (or USER) function `ord` of `module` as a program would.
fn gdi_call(
    env: &mut crate::system::Env,
    m: &mut crate::machine::Machine,
    module: &str,
    ord: u16,
    args: &[u32],
) -> Result<u32, String> {
    let f = crate::win16::api::find(module, ord).ok_or(format!("{module}.{ord} is missing"))?;
    (f.func)(env, m, args).map_err(|e| format!("{e:?}"))
}

/// The drawing figures (module doc).
fn draw_bench(quick: bool) -> Result<String, String> {
    use crate::machine::{Cpu, Machine, SegKind};
    let mut m = Machine::new_protected().map_err(|e| e.to_string())?;
    let mut env = crate::system::Env::new(false);
    let data = m
        .alloc_segment(SegKind::Data, 0x100, b"DISPLAY\0")
        .map_err(|e| e.to_string())?;
    let name = u32::from(data) << 16;
    let call = |env: &mut crate::system::Env, m: &mut Machine, ord: u16, a: &[u32]| {
        gdi_call(env, m, "GDI", ord, a)
    };
    let dc = call(&mut env, &mut m, 53, &[name, 0, 0, 0])?; // CreateDC
    let n = if quick { 2 } else { 60 };
    let screen = 640u64 * 480;
    let mut out = String::from("drawing (GDI on the 640x480 16-colour VGA screen)\n");
    let mut line = |what: &str, pixels: u64, d: Duration, target: f64| {
        let r = pixels as f64 / d.as_secs_f64().max(1e-9);
        out.push_str(&format!(
            "  {what:<24}{:8.1} M pixels/s   target {:.0} M: {}\n",
            r / 1e6,
            target / 1e6,
            if r >= target { "met" } else { "NOT met" }
        ));
    };
    let time = |env: &mut crate::system::Env,
                m: &mut Machine,
                f: &mut dyn FnMut(&mut crate::system::Env, &mut Machine) -> Result<(), String>|
     -> Result<Duration, String> {
        let t = Instant::now();
        for _ in 0..n {
            f(env, m)?;
        }
        Ok(t.elapsed())
    };
    // Solid and dithered PatBlt over the whole screen.
    let solid = call(&mut env, &mut m, 66, &[0x00FF_0000])?; // blue
    let dither = call(&mut env, &mut m, 66, &[0x0000_80FF])?; // orange
    call(&mut env, &mut m, 45, &[dc, solid])?;
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(e, m, "GDI", 29, &[dc, 0, 0, 640, 480, 0x00F0_0021]).map(|_| ())
    })?;
    line("PatBlt, solid", screen * n as u64, d, 50e6);
    call(&mut env, &mut m, 45, &[dc, dither])?;
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(e, m, "GDI", 29, &[dc, 0, 0, 640, 480, 0x00F0_0021]).map(|_| ())
    })?;
    line("PatBlt, dithered", screen * n as u64, d, 10e6);
    // Shapes: a 400x300 rectangle and ellipse with pen and brush.
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(e, m, "GDI", 27, &[dc, 100, 100, 500, 400]).map(|_| ())
    })?;
    line("Rectangle 400x300", 400 * 300 * n as u64, d, 10e6);
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(e, m, "GDI", 24, &[dc, 100, 100, 500, 400]).map(|_| ())
    })?;
    line("Ellipse 400x300", 400 * 300 * n as u64, d, 10e6);
    // Blits: screen to screen, 320x240.
    let blit = 320u64 * 240;
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(
            e,
            m,
            "GDI",
            34,
            &[dc, 0, 0, 320, 240, dc, 320, 240, 0x00CC_0020],
        )
        .map(|_| ())
    })?;
    line("BitBlt SRCCOPY", blit * n as u64, d, 10e6);
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(
            e,
            m,
            "GDI",
            34,
            &[dc, 0, 0, 320, 240, dc, 320, 240, 0x00B8_074A],
        )
        .map(|_| ())
    })?;
    line("BitBlt PSDPxax", blit * n as u64, d, 10e6);
    // Monochrome to colour: a 320x240 monochrome bitmap.
    let mdc = call(&mut env, &mut m, 52, &[dc])?;
    let bm = call(&mut env, &mut m, 48, &[320, 240, 1, 1, 0])?;
    call(&mut env, &mut m, 45, &[mdc, bm])?;
    let d = time(&mut env, &mut m, &mut |e, m| {
        gdi_call(
            e,
            m,
            "GDI",
            34,
            &[dc, 0, 0, 320, 240, mdc, 0, 0, 0x00CC_0020],
        )
        .map(|_| ())
    })?;
    line("BitBlt mono to colour", blit * n as u64, d, 10e6);
    let _ = m.reg(crate::machine::R::AX);
    Ok(out)
}

/// The programs `bench` runs, inside the binary: an installed tool benches
/// from any directory, with no source tree beside it.
const RECURSE_EXE: &[u8] = include_bytes!("../../roms/recurse.exe");
/// The system-call loop: 100,000 GetTickCount calls (roms/ticks.asm).
const TICKS_EXE: &[u8] = include_bytes!("../../roms/ticks.exe");
/// The calls roms/ticks.exe makes.
const TICKS_CALLS: u64 = 100_000;

/// roms/clockwork.exe, the timed Win16 program of the record and debug
/// sections ([`timed_win16_bench`]).
const CLOCKWORK_EXE: &[u8] = include_bytes!("../../roms/clockwork.exe");

/// Its instructions, about: 200 frames of 50,000 rounds of 10.
const CLOCKWORK_INSNS: u64 = 200 * 50_000 * 10;
/// The largest NE program of roms/, for the load figure.
const WINMENU_EXE: &[u8] = include_bytes!("../../roms/winmenu.exe");

/// A bundled program written into a fresh temporary directory (the
/// loader reads files), removed when dropped.
struct Bundled {
    dir: PathBuf,
    path: PathBuf,
}

impl Bundled {
    fn new(name: &str, bytes: &[u8]) -> Result<Bundled, String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "toolhelp16-bench-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let path = dir.join(name);
        std::fs::create_dir_all(&dir)
            .and_then(|_| std::fs::write(&path, bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Bundled { dir, path })
    }
}

impl Drop for Bundled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The self-modifying programs of roms/ (bundled), each run under a
/// budget it spends whole (it never ends by itself), with the file name
/// the loader goes by.
const SMC_PROGRAMS: [(&str, &[u8], &str); 4] = [
    (
        "smc8.com",
        include_bytes!("../../roms/smc8.com"),
        "rewrites the next instruction",
    ),
    (
        "dossmc.com",
        include_bytes!("../../roms/dossmc.com"),
        "rewrites an instruction of its block",
    ),
    (
        "smcdata.com",
        include_bytes!("../../roms/smcdata.com"),
        "stores next to its code",
    ),
    (
        "smcboot.img",
        include_bytes!("../../roms/smcboot.img"),
        "copies code over code",
    ),
];

/// Self-modifying code: microseconds per instruction of each program of
/// [`SMC_PROGRAMS`] under a budget of `n` instructions, in wall time and
/// in the CPU time of the thread that ran it, and the worst of them
/// against the target (at most 3 us of CPU time, so that `--max-insns N`
/// bounds a run to a few seconds per million instructions whatever it
/// runs; vendor/README.md, patch 0010). The target is judged on CPU
/// time, which a busy host does not stretch as it does wall time.
fn smc_bench(dir: &Path, n: u64) -> Result<String, String> {
    let mut s = format!("self-modifying code ({n} instructions each, --max-insns)\n");
    let mut worst = 0f64;
    for (name, bytes, what) in SMC_PROGRAMS {
        let file = dir.join(name);
        std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
        let mut p = session::load(&file, &LoadOptions::default()).map_err(|e| e.to_string())?;
        let limits = RunLimits {
            max_insns: n,
            timeout: Duration::from_secs(600),
        };
        let (t, cpu0) = (Instant::now(), thread_cpu());
        let stop = p.run(limits, None)?;
        let (wall, cpu) = (t.elapsed(), thread_cpu().saturating_sub(cpu0));
        if stop != Stop::Budget {
            return Err(format!(
                "{name}: {}, not the budget",
                crate::cli::output::describe(&stop)
            ));
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
        worst = worst.max(per(cpu));
        s.push_str(&format!(
            "  {name:<12} {what:<38} wall {:7.3} us/insn   CPU {:7.3} us/insn\n",
            per(wall),
            per(cpu)
        ));
    }
    s.push_str(&format!(
        "  worst case   CPU {worst:.3} us/instruction   target <= 3: {}\n",
        if worst <= 3.0 { "met" } else { "NOT met" }
    ));
    Ok(s)
}

/// CPU time of the calling thread so far (zero where unknown).
#[cfg(unix)]
fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime only writes the `timespec` we pass, which
    // lives on this stack frame; CLOCK_THREAD_CPUTIME_ID is a valid clock.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu() -> Duration {
    Duration::ZERO
}

/// The system-call figure (module doc): the best of `reps` runs of
/// roms/ticks.exe, the load excluded.
fn syscall_bench(reps: usize) -> Result<String, String> {
    let file = Bundled::new("ticks.exe", TICKS_EXE)?;
    let d = best(reps, || machine_run(&file.path, Mode::Untraced))?;
    let r = rate(TICKS_CALLS, d);
    Ok(format!(
        "system calls (roms/ticks.exe, {TICKS_CALLS} GetTickCount calls through the import thunk)\n  calls per second        {:10.3} M calls/s    target >= 1 M: {}\n",
        r / 1e6,
        verdict(r, 1e6)
    ))
}

fn walk_bench(n: usize) -> Result<String, String> {
    let file = Bundled::new("recurse.exe", RECURSE_EXE)?;
    let mut p = session::load(&file.path, &LoadOptions::default()).map_err(|e| e.to_string())?;
    let loc: Loc = "RECURSE:1:0033".parse()?;
    let stop = p.run(RunLimits::default(), Some(&loc))?;
    // The best of five rounds of n/5 walks: a host busy with other work
    // slows a round, never speeds one up.
    let per_round = (n / 5).max(1);
    let mut r = 0f64;
    let mut frames = 0usize;
    for _ in 0..5 {
        let t = Instant::now();
        let mut f = 0usize;
        for _ in 0..per_round {
            f += p.walk_at_stop(&stop).map_or(0, |w| w.frames.len());
        }
        r = r.max(f as f64 / t.elapsed().as_secs_f64().max(1e-9));
        frames += f;
    }
    let n = per_round * 5;
    Ok(format!(
        "walking (roms/recurse.exe, {} frames a walk, {n} walks)\n  StackTraceNext          {:10.1} M frames/s   target >= 20 M: {}\n",
        frames / n.max(1),
        r / 1e6,
        verdict(r, 20e6)
    ))
}

/// The real DOS program the run figure uses (corpus/dos/tp7, MPL-2.0): it
/// runs to its end on its own, writing and reading a file (its temporary
/// `DISKTEST.$$$`, which the copy-on-write overlay takes).
const CORPUS_DOS_PROGRAM: &str = "dos/tp7/DISKTEST.EXE";

/// The shared corpus (`TOOLHELP16_CORPUS`, else `../shared/corpus` from
/// the current directory, as from a checkout's root): every corpus
/// benchmark's.
pub(super) fn corpus_dir() -> PathBuf {
    std::env::var_os("TOOLHELP16_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/corpus"))
}

/// A real DOS program of the corpus run untraced, with a budget, and with
/// a hook per instruction, each beside the others in one round (the best
/// of `reps` rounds): a regression of the fast path shows as the first
/// figure nearing the last. Skipped, with a line saying so, without the
/// corpus.
fn corpus_run_bench(reps: usize) -> String {
    let path = corpus_dir().join(CORPUS_DOS_PROGRAM);
    if !path.is_file() {
        return format!(
            "a real DOS program\n  SKIPPED: {} is not there (set TOOLHELP16_CORPUS to the shared corpus)\n",
            path.display()
        );
    }
    let opts = LoadOptions {
        dir: path.parent().map(Path::to_path_buf),
        writes: session::Writes::Discarded,
        stdin: Some(Vec::new()),
        // DISKTEST fills the free space AH=36h reports with one file: a
        // 20 MiB disk, so each run writes about 20 MiB, as the figures
        // were first measured with.
        disk_quota: 20 << 20,
        ..LoadOptions::default()
    };
    let mut best_of = [Duration::MAX; 3];
    let mut insns = None;
    for _ in 0..reps {
        for (i, mode) in [Mode::Untraced, Mode::Budget, Mode::PerInsnHook]
            .into_iter()
            .enumerate()
        {
            match machine_run_with(&path, mode, &opts) {
                Ok((d, n)) => {
                    best_of[i] = best_of[i].min(d);
                    insns = insns.or(n);
                }
                Err(e) => {
                    return format!("a real DOS program\n  FAILED: {}: {e}\n", path.display());
                }
            }
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let [plain, budget, hooked] = best_of;
    format!(
        "a real DOS program ({CORPUS_DOS_PROGRAM}, {} instructions, run to its end)\n  untraced                {:10.2} ms\n  --max-insns             {:10.2} ms   {:.2} x untraced time\n  a hook per instruction  {:10.2} ms   {:.2} x untraced time\n",
        insns.map_or_else(|| "?".into(), |n| n.to_string()),
        ms(plain),
        ms(budget),
        ms(budget) / ms(plain).max(1e-9),
        ms(hooked),
        ms(hooked) / ms(plain).max(1e-9),
    )
}

fn text_bench(lines: usize) -> String {
    use crate::machine::{Machine, SegKind};
    use crate::win16::api;
    let text = b"The quick brown fox jumps over the lazy dog. 0123456789";
    let run = || -> Result<(f64, String), String> {
        let mut m = Machine::new_protected().map_err(|e| e.to_string())?;
        let data = m
            .alloc_segment(SegKind::Data, 0x1000, text)
            .map_err(|e| e.to_string())?;
        let mut env = crate::system::Env::new(false);
        let call = |env: &mut crate::system::Env, m: &mut Machine, ord: u16, a: &[u32]| {
            api::find("GDI", ord)
                .map(|f| (f.func)(env, m, a).unwrap_or(0))
                .unwrap_or(0)
        };
        // A memory DC with a 640x480 16-colour bitmap, the System font.
        let dc = call(&mut env, &mut m, 52, &[0]);
        let bm = call(&mut env, &mut m, 48, &[640, 480, 4, 1, 0]);
        call(&mut env, &mut m, 45, &[dc, bm]);
        let p = u32::from(data) << 16;
        let n = text.len() as u32;
        call(&mut env, &mut m, 33, &[dc, 0, 0, p, n]);
        let t = Instant::now();
        for i in 0..lines as u32 {
            let y = (i * 16) % (480 - 16);
            call(&mut env, &mut m, 33, &[dc, (i % 7) * 3, y, p, n]);
        }
        let d = t.elapsed();
        let font = crate::win16::gdi::text::realized(&mut env, dc as u16)
            .map(|(f, _)| {
                let note = if f.res.is_builtin() {
                    " (no System font file: metrics only, nothing drawn)"
                } else {
                    ""
                };
                format!("{} {}px{note}", f.face(), f.height())
            })
            .unwrap_or_default();
        Ok((
            (lines * text.len()) as f64 / d.as_secs_f64().max(1e-9),
            font,
        ))
    };
    match run() {
        Ok((rate, font)) => format!(
            "text (TextOut of {}-character lines in {font} on a 640x480 16-colour bitmap)\n  glyphs                  {rate:10.0} glyphs/s\n",
            text.len()
        ),
        Err(e) => format!("text\n  SKIPPED: {e}\n"),
    }
}

/// The best of five loads of `path`, or None when it does not load.
fn best_load(path: &Path) -> Option<Duration> {
    session::load(path, &LoadOptions::default()).ok()?;
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        if session::load(path, &LoadOptions::default()).is_ok() {
            best = best.min(t.elapsed());
        }
    }
    Some(best)
}

/// Loading: the bundled roms/winmenu.exe always; the largest program of
/// the shared corpus too when it is there (`TOOLHELP16_CORPUS`, else
/// `../shared/corpus` from the current directory, as from a checkout's
/// root).
fn load_bench() -> String {
    let mut s = String::new();
    match Bundled::new("winmenu.exe", WINMENU_EXE)
        .ok()
        .and_then(|b| best_load(&b.path))
    {
        Some(d) => s.push_str(&format!(
            "loading (roms/winmenu.exe, bundled, {} bytes)\n  load                    {:10.2} ms\n",
            WINMENU_EXE.len(),
            d.as_secs_f64() * 1e3
        )),
        None => s.push_str("loading\n  the bundled roms/winmenu.exe does not load\n"),
    }
    s.push_str(&corpus_load_bench());
    s
}

fn corpus_load_bench() -> String {
    let corpus = corpus_dir();
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
        return format!(
            "  (the shared corpus is not at {}: set TOOLHELP16_CORPUS for its figure)\n",
            corpus.display()
        );
    }
    // The largest program this tool loads (the corpus also holds OS/2 and
    // other programs it refuses, by design).
    files.sort_by(|a, b| b.cmp(a));
    for (len, path) in files {
        let Some(best) = best_load(&path) else {
            continue;
        };
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
        // 1 + 2 * (1 + 3 * 10 + 2) + 2
        assert_eq!(loop_insns(2, 3), 69);
        let c = loop_com(2, 3);
        assert_eq!(c[LOOP_END as usize - 0x100], 0xB8, "mov ax,4C00h");
    }
}

#[cfg(test)]
mod quick_tests {
    use super::quick_text;

    #[test]
    fn quick_judges_nothing_and_leaves_out_what_could_not_run() {
        let text = "emulation\n  machine   1.0 M   target >= 0.85: NOT met\n  other   2.0 M   target >= 0.5: met\na real DOS program\n  SKIPPED: x is not there\nlinking\n  DOSBox: SKIPPED in --quick\n  ours    3 ms\n";
        let q = quick_text(text);
        assert!(!q.contains("met") && !q.contains("SKIPPED"), "{q}");
        assert!(q.contains("  machine   1.0 M   target >= 0.85\n"), "{q}");
        assert!(!q.contains("a real DOS program"), "{q}");
        assert!(q.contains("linking\n  ours    3 ms\n"), "{q}");
    }
}
