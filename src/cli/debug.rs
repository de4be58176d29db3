//! `debug` (a command session) and `gdbserver` (a gdb remote stub, also
//! `run --gdb PORT`): the debugger of src/debug/ on a program loaded with
//! the run options.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::{EXIT_LOAD, RunOpts, fail, load_opts, say};
use crate::debug::{Frontend, Here, Resume, TempBreak, Why, monitor, views};
use crate::machine::Stop;
use crate::session::{self, Program};

use super::resume::{ResumeFront, Resumed};

/// Load options made reproducible (src/debug/mod.rs, "Reverse
/// execution"): the clock fixed at the session's start unless `--clock`
/// fixed it, and standard input from `--stdin FILE` or empty, never the
/// terminal the session reads its commands from.
pub(super) fn loader<'a>(
    opts: &'a RunOpts,
    files: &'a [PathBuf],
    args: &'a [String],
    echo: bool,
) -> Result<impl FnMut() -> Result<Program, String> + 'a, i32> {
    let (file, more) = files
        .split_first()
        .ok_or_else(|| fail(EXIT_LOAD, "no program named"))?;
    let mut lo = load_opts(opts, file, more, args, echo).map_err(|e| fail(EXIT_LOAD, &e))?;
    if let crate::dos::clock::Clock::Host = lo.clock {
        lo.clock = crate::dos::clock::Clock::Fixed(crate::dos::clock::Clock::Host.now());
    }
    if lo.stdin.is_none() {
        lo.stdin = Some(Vec::new());
    }
    let inject = opts.inject_fault.clone();
    Ok(move || {
        let mut prog = session::load(file, &lo).map_err(|e| e.to_string())?;
        if let Some(text) = &inject {
            let loc: session::Loc = text
                .parse()
                .map_err(|e: String| format!("--inject-fault {text}: {e}"))?;
            prog.inject_invalid_opcode(&loc)
                .map_err(|e| format!("{}: --inject-fault {text}: {e}", file.display()))?;
        }
        Ok(prog)
    })
}

/// The exit status of a finished session.
fn status(outcome: &crate::debug::Outcome) -> i32 {
    match &outcome.stop {
        Some(s) => super::exit_code(s),
        None => 0,
    }
}

/// A front end that ends the session at its first stop (a checkpoint
/// file checked before a gdb client is waited for).
struct Kill;

impl Frontend for Kill {
    fn stopped(&mut self, _: &mut Here<'_, '_>) -> Resume {
        Resume::Kill
    }
}

/// The checkpoint file of `--resume`, opened, when given.
fn resumed(resume: Option<&Path>, opts: &RunOpts) -> Result<Option<Resumed>, i32> {
    resume.map(|p| super::resume::open(p, opts)).transpose()
}

/// `gdbserver [--listen ADDR] PROGRAM` and `run --gdb PORT`; with a
/// checkpoint file (`--resume`), the session starts at its position.
pub fn gdbserver(
    opts: &RunOpts,
    listen: &str,
    files: &[PathBuf],
    args: &[String],
    resume: Option<&Path>,
) -> i32 {
    let addr = match crate::debug::gdb::listen_address(listen) {
        Ok(a) => a,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let resumed = match resumed(resume, opts) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (opts, files, args) = match &resumed {
        Some(r) => (&r.opts, &r.files[..], &r.args[..]),
        None => (opts, files, args),
    };
    let checkpoints = crate::debug::checkpoint::Options {
        memory: opts.checkpoint_memory.saturating_mul(1 << 20),
        every: opts.checkpoint_every,
    };
    let mut load = match loader(opts, files, args, true) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if let Some(r) = &resumed {
        // A file that does not resume here is said before a client
        // waits for it.
        let (front, checked) = ResumeFront::new(r, Some(Box::new(Kill)));
        let first = crate::debug::run_session_from(
            &mut load,
            Box::new(front),
            super::limits(opts),
            crate::debug::checkpoint::Options {
                memory: 0,
                every: 0,
            },
            r.position,
        );
        if let Err(e) = first {
            return fail(EXIT_LOAD, &e);
        }
        if let Some(why) = &checked.borrow().refused {
            return super::resume::refused(r, why);
        }
    }
    // Load once before listening: a file that cannot be loaded is said
    // before a client waits for it.
    let first = match load() {
        Ok(p) => p,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    // The wait for a client is bounded by --timeout too (gdb.rs, module
    // notes): exit 123 when nobody connects.
    let wait = super::limits(opts).timeout;
    let stream = match crate::debug::gdb::accept(addr, wait) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return fail(
                super::EXIT_TIMEOUT,
                &format!(
                    "no gdb client connected within the time limit (--timeout {} s); the program was not run",
                    wait.as_secs_f64()
                ),
            );
        }
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let mut first = Some(first);
    let mut again = move || match first.take() {
        Some(p) => Ok(p),
        None => load(),
    };
    let server = crate::debug::gdb::GdbServer::new(stream);
    let (front, start, checked): (Box<dyn Frontend>, u64, _) = match &resumed {
        Some(r) => {
            let (f, c) = ResumeFront::new(r, Some(Box::new(server)));
            (Box::new(f), r.position, Some(c))
        }
        None => (Box::new(server), 0, None),
    };
    let outcome =
        crate::debug::run_session_from(&mut again, front, super::limits(opts), checkpoints, start);
    if let (Some(r), Some(c)) = (&resumed, &checked)
        && let Some(why) = &c.borrow().refused
    {
        return super::resume::refused(r, why);
    }
    match outcome {
        Ok(o) => {
            eprintln!(
                "toolhelp16: gdb session ended after {} instructions{}",
                o.position,
                match &o.stop {
                    Some(s) => format!(": {}", super::output::describe(s)),
                    None => String::new(),
                }
            );
            status(&o)
        }
        Err(e) => fail(EXIT_LOAD, &e),
    }
}

/// Where the session's commands come from.
enum Input {
    Batch(std::io::Lines<std::io::BufReader<std::fs::File>>),
    Interactive(Box<rustyline::DefaultEditor>),
}

/// The command session's front end.
struct Session {
    input: Input,
    /// The last command, repeated by an empty line (interactive).
    last: String,
    /// A step by line in progress (`step`, `next` on a line the debug
    /// information names).
    line_step: Option<crate::debug::source::LineStep>,
}

const HELP: &str = "\
commands:
  continue (c, cont)      run to a breakpoint, a watchpoint, a fault or the end
  step (s)                to the next source line, into called functions that have lines
                          (one instruction where the debug information names no line)
  next (n)                to the next source line, over calls (else one instruction, over
                          a call or an INT)
  stepi (si)              one instruction
  nexti (ni)              one instruction, over a call or an INT
  finish                  until the current function returns (from the ToolHelp walk)
  reverse-stepi (rsi, rs) back one instruction (replays the run from its start)
  reverse-continue (rc)   back to the last breakpoint, watchpoint or fault
  goto N                  back to position N (instructions from the start)
  kill, quit (q)          end the program and the session
  detach                  let the program run on to its end
";

impl Session {
    fn read_line(&mut self) -> Option<String> {
        match &mut self.input {
            Input::Batch(lines) => loop {
                let line = lines.next()?.ok()?;
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                say(&format!("(debug) {t}\n"));
                return Some(t.to_string());
            },
            Input::Interactive(ed) => loop {
                match ed.readline("(debug) ") {
                    Ok(line) => {
                        let t = line.trim().to_string();
                        if t.is_empty() {
                            if self.last.is_empty() {
                                continue;
                            }
                            return Some(self.last.clone());
                        }
                        let _ = ed.add_history_entry(t.as_str());
                        self.last = t.clone();
                        return Some(t);
                    }
                    Err(rustyline::error::ReadlineError::Interrupted) => continue,
                    Err(_) => return None,
                }
            },
        }
    }

    /// `next` by instruction: over a call, an INT or a string
    /// instruction's repetitions.
    fn next(h: &mut Here<'_, '_>) -> Resume {
        crate::debug::source::over_instruction(h)
    }

    /// `step` or `next` (`over`) by line, where the debug information
    /// names the line at CS:IP; else by instruction.
    fn line_step(&mut self, h: &mut Here<'_, '_>, over: bool) -> Resume {
        match crate::debug::source::LineStep::begin(h, over) {
            Some((s, r)) => {
                self.line_step = Some(s);
                r
            }
            None if over => Self::next(h),
            None => Resume::Step,
        }
    }

    /// `finish`: to the return address of the walk's second frame, once
    /// the frame's BP is below SP.
    fn finish(h: &mut Here<'_, '_>) -> Result<Resume, String> {
        let w = views::walk(h).ok_or("the program has ended")?;
        let (Some(f0), Some(f1)) = (w.frames.first(), w.frames.get(1)) else {
            return Err(format!(
                "the walk has no caller's frame to return to ({})",
                w.stop
            ));
        };
        let addr = h
            .linear(f1.w_cs, f1.w_ip)
            .ok_or("the return address's segment is not valid")?;
        h.set_temp(Some(TempBreak {
            addr,
            ss: f0.w_ss,
            min_sp: f0.w_bp.wrapping_add(2),
        }));
        Ok(Resume::Continue)
    }
}

/// Ctrl-C while the program runs in an interactive session: the handler
/// notes it, and the session stops the program at the next check (every
/// 65536 instructions). At the prompt the line editor reads Ctrl-C as a
/// key.
#[cfg(unix)]
mod sigint {
    use std::sync::atomic::{AtomicBool, Ordering};

    static HIT: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_sigint(_: libc::c_int) {
        HIT.store(true, Ordering::Relaxed);
    }

    pub fn install() {
        let handler: extern "C" fn(libc::c_int) = on_sigint;
        // SAFETY: `signal` is the C library's; the handler only stores
        // to an atomic flag, which is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
    }

    pub fn take() -> bool {
        HIT.swap(false, Ordering::Relaxed)
    }
}

#[cfg(not(unix))]
mod sigint {
    pub fn install() {}
    pub fn take() -> bool {
        false
    }
}

impl Frontend for Session {
    fn interrupted(&mut self) -> bool {
        matches!(self.input, Input::Interactive(_)) && sigint::take()
    }

    fn stopped(&mut self, h: &mut Here<'_, '_>) -> Resume {
        if let Some(s) = &mut self.line_step {
            match s.resume(h) {
                Ok(r) => return r,
                Err(note) => {
                    self.line_step = None;
                    if let Some(n) = note {
                        say(&n);
                    }
                }
            }
        }
        say(&format!("{}\n", views::describe(h)));
        if !matches!(h.why, Why::Ended(Stop::Exited { .. })) {
            if let Some(t) = crate::debug::source::here_text(h) {
                say(&t);
            }
            let r = h.regs();
            say(&views::disasm_text(h, r.cs, r.ip, 1));
        }
        loop {
            let Some(line) = self.read_line() else {
                return Resume::Kill;
            };
            let mut words = line.split_whitespace();
            let cmd = words.next().unwrap_or("");
            let ended = matches!(h.why, Why::Ended(_));
            let resume = match cmd {
                "c" | "cont" | "continue" => Some(Resume::Continue),
                "si" | "stepi" => Some(Resume::Step),
                "ni" | "nexti" => Some(Self::next(h)),
                "s" | "step" if !ended => Some(self.line_step(h, false)),
                "n" | "next" if !ended => Some(self.line_step(h, true)),
                "s" | "step" | "n" | "next" => Some(Resume::Step),
                "finish" => match Self::finish(h) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        say(&format!("error: {e}\n"));
                        None
                    }
                },
                "rs" | "rsi" | "reverse-step" | "reverse-stepi" => Some(Resume::ReverseStep),
                "rc" | "reverse-continue" => Some(Resume::ReverseContinue),
                "goto" => match words.next().and_then(|n| n.parse::<u64>().ok()) {
                    Some(n) => Some(Resume::GoTo(n)),
                    None => {
                        say("error: goto N: N is a position (see `position`)\n");
                        None
                    }
                },
                "q" | "quit" | "kill" => return Resume::Kill,
                "detach" => return Resume::Detach,
                "help" | "h" => {
                    say(HELP);
                    say(monitor::HELP);
                    None
                }
                _ => {
                    match monitor::run(h, &line) {
                        Ok(Some(text)) => say(&text),
                        Ok(None) => say(&format!(
                            "error: unknown command '{}'; `help` lists them\n",
                            crate::escape::name(cmd)
                        )),
                        Err(e) => say(&format!("error: {e}\n")),
                    }
                    None
                }
            };
            match resume {
                Some(Resume::Continue | Resume::Step) if ended => {
                    say(
                        "error: the program has ended; reverse-stepi, reverse-continue or goto go back\n",
                    );
                }
                Some(r) => return r,
                None => {}
            }
        }
    }
}

/// `debug [--commands FILE] PROGRAM`; with a checkpoint file
/// (`--resume`), the session starts at its position.
pub fn debug(
    opts: &RunOpts,
    commands: Option<&std::path::Path>,
    files: &[PathBuf],
    args: &[String],
    resume: Option<&Path>,
) -> i32 {
    let input = match commands {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Input::Batch(std::io::BufReader::new(f).lines()),
            Err(e) => return fail(EXIT_LOAD, &format!("--commands {}: {e}", p.display())),
        },
        None => match rustyline::DefaultEditor::new() {
            Ok(ed) => {
                sigint::install();
                Input::Interactive(Box::new(ed))
            }
            Err(e) => return fail(EXIT_LOAD, &format!("the line editor: {e}")),
        },
    };
    let resumed = match resumed(resume, opts) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (opts, files, args) = match &resumed {
        Some(r) => (&r.opts, &r.files[..], &r.args[..]),
        None => (opts, files, args),
    };
    let mut load = match loader(opts, files, args, true) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let session = Box::new(Session {
        input,
        last: String::new(),
        line_step: None,
    });
    let (front, start, checked): (Box<dyn Frontend>, u64, _) = match &resumed {
        Some(r) => {
            let (f, c) = ResumeFront::new(r, Some(session));
            (Box::new(f), r.position, Some(c))
        }
        None => (session, 0, None),
    };
    let outcome = crate::debug::run_session_from(
        &mut load,
        front,
        super::limits(opts),
        crate::debug::checkpoint::Options {
            memory: opts.checkpoint_memory.saturating_mul(1 << 20),
            every: opts.checkpoint_every,
        },
        start,
    );
    if let (Some(r), Some(c)) = (&resumed, &checked)
        && let Some(why) = &c.borrow().refused
    {
        return super::resume::refused(r, why);
    }
    match outcome {
        Ok(o) => status(&o),
        Err(e) => fail(EXIT_LOAD, &e),
    }
}
