//! `trace`, `profile` and `stack --verify`: the commands over the machine's
//! observers (src/trace/).

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::{EXIT_LOAD, RunOpts, exit_code, fail, load_and_run_with, output};
use crate::machine::{Cpu, R};
use crate::session::{Loc, Program};
use crate::trace::profile::Profiler;
use crate::trace::record::{
    self, Check, CheckRecorder, ExpandOptions, Header, Reader, RecordWriter,
};
use crate::trace::shadow::ShadowStack;
use crate::trace::{Render, Sink, Syntax, TraceOptions, Tracer};
use crate::walk::WalkMemory;

/// The linear address of LOC in the loaded program.
fn linear_of(p: &mut Program, text: &str) -> Result<u64, String> {
    let loc: Loc = text.parse()?;
    let (seg, off) = p.resolve(&loc)?;
    let d = WalkMemory::descriptor(&*p.machine, seg)
        .ok_or_else(|| format!("{text}: no segment {seg:04X}"))?;
    Ok(u64::from(d.base) + u64::from(off))
}

/// What `trace` was asked for.
pub struct TraceArgs {
    pub syntax: Syntax,
    pub regs: bool,
    pub from: Option<String>,
    pub to: Option<String>,
    pub module: Option<String>,
    pub max: Option<u64>,
    pub output: Option<PathBuf>,
    /// `--html FILE`: the step-through page instead of the text trace.
    pub html: Option<PathBuf>,
    /// `--record FILE`: record the executed blocks instead.
    pub record: Option<PathBuf>,
    /// `--replay FILE`: the trace of a recorded run.
    pub replay: Option<PathBuf>,
}

thread_local! {
    /// The command line [`super::run_from_args`] was given: `trace
    /// --record` keeps it in the recording, to run it again.
    pub(crate) static ARGS: RefCell<Vec<std::ffi::OsString>> = const { RefCell::new(Vec::new()) };
}

/// `toolhelp16 trace`.
pub fn trace(opts: &RunOpts, files: &[PathBuf], args: &[String], t: TraceArgs) -> i32 {
    if let Some(path) = t.replay.clone() {
        return replay(opts, files, args, t, &path);
    }
    if let Some(path) = t.record.clone() {
        return record(opts, files, args, &t, &path);
    }
    trace_checked(opts, files, args, t, None)
}

/// The trace, with the path of the run checked against a recording's
/// when `check` is given (`--replay FILE --regs`).
fn trace_checked(
    opts: &RunOpts,
    files: &[PathBuf],
    args: &[String],
    t: TraceArgs,
    check: Option<Rc<RefCell<Check>>>,
) -> i32 {
    if let Some(path) = &t.html {
        return trace_html(opts, files, args, &t, path, check);
    }
    let out: Box<dyn Write> = match &t.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::with_capacity(1 << 20, f)),
            Err(e) => return fail(EXIT_LOAD, &format!("-o {}: {e}", path.display())),
        },
        None => Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            std::io::stdout().lock(),
        )),
    };
    let to_loc: Option<Loc> = match t.to.as_deref().map(str::parse) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => return fail(EXIT_LOAD, &format!("--to: {e}")),
    };
    let mut out = Some(out);
    let mut setup = |p: &mut Program| -> Result<(), String> {
        let from = match &t.from {
            Some(text) => Some(linear_of(p, text).map_err(|e| format!("--from {e}"))?),
            None => None,
        };
        let o = TraceOptions {
            syntax: t.syntax,
            json: opts.json,
            from,
            module: t.module.clone(),
            max: t.max,
            regs: t.regs,
            progress: (t.output.is_some() || !std::io::stdout().is_terminal())
                .then(|| {
                    super::progress("{spinner} trace: {human_pos} instructions written, {elapsed}")
                })
                .flatten(),
        };
        let tracer = Tracer::new(o, out.take().ok_or("the output is taken")?);
        p.machine.add_observer(Box::new(tracer));
        if let Some(c) = &check {
            p.machine.record_blocks(Box::new(CheckRecorder(c.clone())));
        }
        if t.regs {
            p.machine.watch_instructions().map_err(|e| e.0)?;
        }
        Ok(())
    };
    let to = to_loc.as_ref().map(|l| (l, t.to.as_deref().unwrap_or("")));
    let (mut prog, stop) = match load_and_run_with(opts, files, args, false, to, &mut setup) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (cs, ip) = (prog.machine.reg(R::CS), prog.machine.reg(R::IP));
    let mut stop = stop;
    let recording = prog.machine.stop_recording();
    if let Some(mut tracer) = prog.machine.take_observer::<Tracer>() {
        // `--max N` ends the trace and the run with it: a stop where it was
        // asked for (exit 0), not a budget that ran out.
        if tracer.full() && matches!(stop, crate::machine::Stop::Budget) {
            stop = crate::machine::Stop::Breakpoint { cs, ip };
        }
        match tracer.finish(cs, ip, prog.machine.executed()) {
            // The reader stopped reading (`| head`), and the run stopped
            // with it: not an error, and not the program's status.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                return if matches!(stop, crate::machine::Stop::Budget) {
                    0
                } else {
                    exit_code(&stop)
                };
            }
            Err(e) => return fail(EXIT_LOAD, &format!("writing the trace: {e}")),
            Ok(()) => {}
        }
        super::tell(&format!(
            "toolhelp16: trace: {} instructions written\n",
            tracer.written()
        ));
        if let Some(c) = &check {
            if let Err(code) = checked(c, recording, !tracer.full()) {
                return code;
            }
        }
    }
    let said = output::run_text(&prog, &stop);
    super::tell(&said);
    super::tell_events(&prog, opts);
    if opts.screen {
        super::tell(&prog.screen_text());
    }
    let code = exit_code(&stop);
    if opts.json && code != 0 {
        super::json_stop_line(code, &said);
    }
    code
}

/// `toolhelp16 trace --html FILE`: record each instruction with the
/// registers and the stack after it (report/tracepage.rs) and write the
/// step-through page.
fn trace_html(
    opts: &RunOpts,
    files: &[PathBuf],
    args: &[String],
    t: &TraceArgs,
    path: &Path,
    check: Option<Rc<RefCell<Check>>>,
) -> i32 {
    use crate::report::tracepage::{DEFAULT_MAX, HARD_MAX, PageInfo, StepRecorder, page};
    if opts.json {
        return fail(
            EXIT_LOAD,
            "trace --html writes a page; --json does not apply",
        );
    }
    let to_loc: Option<Loc> = match t.to.as_deref().map(str::parse) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => return fail(EXIT_LOAD, &format!("--to: {e}")),
    };
    let asked = t
        .max
        .map_or(DEFAULT_MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let mut notes = Vec::new();
    if asked > HARD_MAX {
        let note = format!(
            "--max {asked} was lowered to {HARD_MAX}: a page holds at most {HARD_MAX} steps"
        );
        // Said at once, not only on the page.
        super::tell(&format!("toolhelp16: warning: trace --html: {note}\n"));
        notes.push(note);
    }
    let max = asked.min(HARD_MAX);
    // Created first, so that a file that cannot be written stops the run
    // before it starts.
    let mut file = match std::fs::File::create(path) {
        Ok(f) => f,
        Err(e) => return fail(EXIT_LOAD, &format!("--html {}: {e}", path.display())),
    };
    let mut setup = |p: &mut Program| -> Result<(), String> {
        let from = match &t.from {
            Some(text) => Some(linear_of(p, text).map_err(|e| format!("--from {e}"))?),
            None => None,
        };
        let rec = StepRecorder::new(max, from, t.module.clone(), t.syntax);
        p.machine.add_observer(Box::new(rec));
        if let Some(c) = &check {
            p.machine.record_blocks(Box::new(CheckRecorder(c.clone())));
        }
        p.machine.watch_instructions().map_err(|e| e.0)
    };
    let to = to_loc.as_ref().map(|l| (l, t.to.as_deref().unwrap_or("")));
    let (mut prog, stop) = match load_and_run_with(opts, files, args, false, to, &mut setup) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (cs, ip) = (prog.machine.reg(R::CS), prog.machine.reg(R::IP));
    let recording = prog.machine.stop_recording();
    let Some(mut rec) = prog.machine.take_observer::<StepRecorder>() else {
        return fail(EXIT_LOAD, "the step recorder was lost");
    };
    rec.finish(&prog.machine);
    // The page's cap (`--max`, 2000 when not given) ended the run: a stop
    // where it was asked for (the exit table: reaching --max is 0), not
    // a budget that ran out.
    let stop = if rec.truncated && matches!(stop, crate::machine::Stop::Budget) {
        crate::machine::Stop::Breakpoint { cs, ip }
    } else {
        stop
    };
    let info = PageInfo {
        title: format!("Step through {}", prog.path.display()),
        ended: output::describe(&stop),
        max,
        notes: &notes,
        names: &prog,
    };
    let text = page(&rec, &info);
    if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
        return fail(EXIT_LOAD, &format!("--html {}: {e}", path.display()));
    }
    super::tell(&format!(
        "toolhelp16: trace: {} step(s) written to {}{}\n",
        rec.steps.len(),
        path.display(),
        if rec.truncated {
            " (truncated: the run went on)"
        } else {
            ""
        }
    ));
    if let Some(c) = &check {
        // The page's recorder stops the run at its last step.
        if let Err(code) = checked(c, recording, !rec.truncated) {
            return code;
        }
    }
    super::tell(&output::run_text(&prog, &stop));
    super::tell_events(&prog, opts);
    if opts.screen {
        super::tell(&prog.screen_text());
    }
    if to_loc.is_some() && matches!(stop, crate::machine::Stop::Breakpoint { .. }) {
        return 0;
    }
    exit_code(&stop)
}

/// The re-run's path against the recording's (`--replay --regs`,
/// `--replay --html`): said on stderr when it agrees, an error (exit 120)
/// when it does not. `complete`: the re-run went to its end (not stopped
/// by `--max`), so the recording must end where it did.
fn checked(
    check: &Rc<RefCell<Check>>,
    recording: Option<(
        Box<dyn crate::machine::record::BlockRecorder>,
        Option<std::io::Error>,
    )>,
    complete: bool,
) -> Result<(), i32> {
    drop(recording);
    let mut c = check.borrow_mut();
    let file = c.file().display().to_string();
    match c.verdict(complete) {
        Ok(n) => {
            super::tell(&format!(
                "toolhelp16: trace: the re-run took the path recorded in {file} ({n} blocks compared)\n"
            ));
            Ok(())
        }
        Err(e) => Err(fail(
            EXIT_LOAD,
            &format!("{file}: the re-run of the recorded program left the recorded path: {e}"),
        )),
    }
}

/// The command line to keep in a recording: the `trace` arguments
/// without `--record FILE` (and the program name and `trace` itself).
fn recorded_args() -> Vec<String> {
    let mut all: Vec<String> = ARGS.with(|a| {
        a.borrow()
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect()
    });
    if all.is_empty() {
        all = std::env::args().collect();
    }
    let mut out = Vec::new();
    let mut it = all.into_iter().skip(1);
    let mut seen_trace = false;
    let mut after_dashes = false;
    while let Some(a) = it.next() {
        if after_dashes {
            out.push(a);
            continue;
        }
        if !seen_trace && a == "trace" {
            seen_trace = true;
            continue;
        }
        if a == "--record" {
            it.next();
            continue;
        }
        if a.starts_with("--record=") {
            continue;
        }
        after_dashes = a == "--";
        out.push(a);
    }
    out
}

/// `trace --record FILE`: run the program untraced but for the recording
/// of its executed blocks (src/trace/record.rs).
fn record(opts: &RunOpts, files: &[PathBuf], args: &[String], t: &TraceArgs, path: &Path) -> i32 {
    if opts.json {
        return fail(
            EXIT_LOAD,
            "trace --record writes a recording; --json applies to --replay",
        );
    }
    let to_loc: Option<Loc> = match t.to.as_deref().map(str::parse) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => return fail(EXIT_LOAD, &format!("--to: {e}")),
    };
    let mut opts = opts.clone();
    let mut argv = recorded_args();
    if opts.clock.is_none() {
        // The host's clock moves; a run that is to be run again
        // (`--replay --regs`) reads one fixed at the recording's start.
        let n = crate::dos::clock::Clock::Host.now();
        let text = format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            n.year, n.month, n.day, n.hour, n.minute, n.second
        );
        let at = argv.iter().position(|a| a == "--").unwrap_or(argv.len());
        argv.splice(at..at, ["--clock".to_string(), text.clone()]);
        opts.clock = Some(text);
    }
    let header = Header {
        cwd: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        args: argv,
        program: files
            .first()
            .map(|f| f.display().to_string())
            .unwrap_or_default(),
    };
    let file = match std::fs::File::create(path) {
        Ok(f) => f,
        Err(e) => return fail(EXIT_LOAD, &format!("--record {}: {e}", path.display())),
    };
    // Unbuffered: the writer gathers its records and writes large pieces.
    let (writer, written) = match RecordWriter::new(Box::new(file), &header) {
        Ok(w) => w,
        Err(e) => return fail(EXIT_LOAD, &format!("--record {}: {e}", path.display())),
    };
    let mut writer = Some(writer);
    let mut setup = |p: &mut Program| -> Result<(), String> {
        let w = writer.take().ok_or("the recording is taken")?;
        p.machine.record_blocks(Box::new(w));
        Ok(())
    };
    let to = to_loc.as_ref().map(|l| (l, t.to.as_deref().unwrap_or("")));
    let (mut prog, stop) = match load_and_run_with(&opts, files, args, false, to, &mut setup) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Some((_, Some(e))) = prog.machine.stop_recording() {
        return fail(EXIT_LOAD, &format!("--record {}: {e}", path.display()));
    }
    let status = exit_code(&stop);
    let instructions = prog.machine.executed();
    let end = record::End {
        blocks: 0,
        instructions,
        status,
        stop: output::run_text(&prog, &stop),
    };
    let mut w = written.borrow_mut();
    if let Err(e) = w.finish(&end) {
        return fail(EXIT_LOAD, &format!("--record {}: {e}", path.display()));
    }
    super::tell(&format!(
        "toolhelp16: trace: recorded {} blocks{} into {} ({} translations, {} bytes)\n",
        w.blocks,
        instructions.map_or(String::new(), |n| format!(", {n} instructions")),
        path.display(),
        w.translations,
        w.bytes
    ));
    super::tell(&end.stop);
    super::tell_events(&prog, &opts);
    if opts.screen {
        super::tell(&prog.screen_text());
    }
    status
}

/// What a recording's header names: the run options, the files, the
/// command tail and `--to`.
pub(super) type RecordedCommand = (RunOpts, Vec<PathBuf>, Vec<String>, Option<String>);

/// The program, options and `--to` a recording's header names, parsed
/// as `trace` parses them.
pub(super) fn recorded_command(h: &Header) -> Result<RecordedCommand, String> {
    let mut argv = vec!["toolhelp16".to_string(), "trace".to_string()];
    argv.extend(h.args.iter().cloned());
    match <super::Cli as clap::Parser>::try_parse_from(&argv) {
        Ok(super::Cli {
            command:
                super::Command::Trace {
                    opts,
                    files,
                    args,
                    to,
                    ..
                },
        }) => Ok((opts, files, args, to)),
        Ok(_) => Err("the recorded command line is not a trace".into()),
        Err(e) => Err(format!(
            "the recorded command line does not parse: {}",
            e.render().to_string().lines().next().unwrap_or("")
        )),
    }
}

/// Make the recorded run's directory the current one (its paths are
/// relative to it).
pub(super) fn enter_recorded_dir(h: &Header) -> Result<(), String> {
    std::env::set_current_dir(&h.cwd)
        .map_err(|e| format!("the directory the recording was made in, {}: {e}", h.cwd))
}

/// `trace --replay FILE`.
fn replay(opts: &RunOpts, files: &[PathBuf], args: &[String], t: TraceArgs, path: &Path) -> i32 {
    if !files.is_empty() || !args.is_empty() {
        return fail(
            EXIT_LOAD,
            "trace --replay: the recording names the program; give no FILE",
        );
    }
    if t.to.is_some() {
        return fail(
            EXIT_LOAD,
            "trace --replay: --to applies to the recorded run (trace --record --to LOC)",
        );
    }
    let reader = match Reader::open(path) {
        Ok(r) => r,
        Err(e) => return fail(EXIT_LOAD, &e.to_string()),
    };
    let file = reader.file().display().to_string();
    let absolute = |p: &Option<PathBuf>| {
        p.as_ref()
            .map(|p| std::path::absolute(p).unwrap_or(p.clone()))
    };
    if t.regs || t.html.is_some() {
        // Registers come from running the recorded program again: the
        // machine's runs are reproducible (emulated time, a fixed clock).
        let (mut ropts, files, args, to) = match recorded_command(&reader.header) {
            Ok(c) => c,
            Err(e) => return fail(EXIT_LOAD, &format!("{file}: {e}")),
        };
        let t2 = TraceArgs {
            output: absolute(&t.output),
            html: absolute(&t.html),
            to,
            record: None,
            replay: None,
            ..t
        };
        if let Err(e) = enter_recorded_dir(&reader.header) {
            return fail(EXIT_LOAD, &format!("{file}: {e}"));
        }
        ropts.json = opts.json;
        let check = Rc::new(RefCell::new(Check::new(reader)));
        return trace_checked(&ropts, &files, &args, t2, Some(check));
    }
    let from = match &t.from {
        None => None,
        Some(text) => match replay_from(&reader.header, text) {
            Ok(l) => Some(l),
            Err(e) => return fail(EXIT_LOAD, &format!("{file}: --from {e}")),
        },
    };
    let out: Box<dyn Write> = match &t.output {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::with_capacity(1 << 20, f)),
            Err(e) => return fail(EXIT_LOAD, &format!("-o {}: {e}", p.display())),
        },
        None => Box::new(std::io::BufWriter::with_capacity(
            1 << 20,
            std::io::stdout().lock(),
        )),
    };
    let progress = (t.output.is_some() || !std::io::stdout().is_terminal())
        .then(|| super::progress("{spinner} trace: {human_pos} instructions written, {elapsed}"))
        .flatten();
    let mut sink = Sink::new(out, t.max, progress);
    let x = record::expand(
        reader,
        ExpandOptions {
            render: Render {
                syntax: t.syntax,
                json: opts.json,
            },
            from,
            module: t.module.clone(),
        },
        &mut sink,
    );
    let full = sink.full();
    let written = sink.written;
    let flushed = sink.finish();
    let x = match x {
        Ok(x) => x,
        Err(e) => {
            let _ = flushed;
            return fail(EXIT_LOAD, &e.to_string());
        }
    };
    match flushed {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return 0,
        Err(e) => return fail(EXIT_LOAD, &format!("writing the trace: {e}")),
        Ok(()) => {}
    }
    super::tell(&format!(
        "toolhelp16: trace: {written} instructions written\n"
    ));
    if full {
        // `--max N` ends the trace, as it ends the run of a live trace.
        return 0;
    }
    super::tell(&x.end.stop);
    if opts.json && x.end.status != 0 {
        super::json_stop_line(x.end.status, &x.end.stop);
    }
    x.end.status
}

/// `--replay --from LOC`: LOC resolved in the recorded program, loaded
/// (not run) as the recording names it.
fn replay_from(h: &Header, text: &str) -> Result<u64, String> {
    let (opts, files, args, _) = recorded_command(h)?;
    let (file, more) = files
        .split_first()
        .ok_or("the recording names no program")?;
    let here = std::env::current_dir().ok();
    enter_recorded_dir(h)?;
    let r = (|| {
        let lo = super::load_opts(&opts, file, more, &args, false)?;
        let mut p = crate::session::load(file, &lo).map_err(|e| e.to_string())?;
        linear_of(&mut p, text)
    })();
    // -o FILE is relative to where `trace` was started.
    if let Some(d) = here {
        let _ = std::env::set_current_dir(d);
    }
    r
}

/// The most hot source lines `profile` writes as text (JSON has all).
const HOT_LINES: usize = 20;

/// `toolhelp16 profile`.
pub fn profile(
    opts: &RunOpts,
    files: &[PathBuf],
    args: &[String],
    every: u64,
    folded: Option<&Path>,
    svg: Option<&Path>,
) -> i32 {
    let mut setup = |p: &mut Program| -> Result<(), String> {
        p.machine.add_observer(Box::new(Profiler::new(every)));
        Ok(())
    };
    let (mut prog, stop) = match load_and_run_with(opts, files, args, false, None, &mut setup) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Some(prof) = prog.machine.take_observer::<Profiler>() else {
        return fail(EXIT_LOAD, "the profiler was lost");
    };
    let lines = prof.folded();
    let text = lines.join("\n") + "\n";
    match folded {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                return fail(EXIT_LOAD, &format!("--folded {}: {e}", path.display()));
            }
        }
        None if svg.is_none() && !opts.json => super::say(&text),
        None => {}
    }
    if let Some(path) = svg {
        let title = format!("toolhelp16 profile of {}", prog.path.display());
        let res = prof
            .svg(&title)
            .and_then(|bytes| std::fs::write(path, bytes));
        if let Err(e) = res {
            return fail(EXIT_LOAD, &format!("--svg {}: {e}", path.display()));
        }
    }
    if opts.json {
        let stacks = lines
            .iter()
            .filter_map(|l| {
                let (stack, n) = l.rsplit_once(' ')?;
                Some(super::json::ProfileStack {
                    frames: stack.split(';').map(str::to_string).collect(),
                    samples: n.parse().ok()?,
                })
            })
            .collect();
        super::print_json(&super::json::Doc::new(
            "profile",
            super::json::Profile {
                file: prog.path.display().to_string(),
                every: every.max(1),
                samples: prof.total,
                stacks,
                lines: prof
                    .hot_lines()
                    .into_iter()
                    .map(|h| super::json::ProfileLine {
                        file: h.file,
                        line: h.line,
                        function: h.function,
                        samples: h.samples,
                    })
                    .collect(),
                exit: output::stop_json(&stop),
            },
        ));
        return exit_code(&stop);
    }
    super::tell(&format!(
        "toolhelp16: profile: {} samples, one every {} instructions\n",
        prof.total,
        every.max(1)
    ));
    let hot = prof.hot_lines();
    if !hot.is_empty() {
        let mut s = String::from("toolhelp16: profile: the source lines sampled, most first:\n");
        for h in hot.iter().take(HOT_LINES) {
            let place = crate::symbols::lines::SourceLine {
                file: h.file.as_str().into(),
                line: h.line,
            };
            s.push_str(&format!(
                "  {:>8}  {:<24} {}\n",
                h.samples,
                crate::escape::name(&place.to_string()),
                crate::escape::name(&h.function)
            ));
        }
        if hot.len() > HOT_LINES {
            s.push_str(&format!("  ({} more lines)\n", hot.len() - HOT_LINES));
        }
        super::tell(&s);
    }
    super::tell(&output::run_text(&prog, &stop));
    super::tell_events(&prog, opts);
    if opts.screen {
        super::tell(&prog.screen_text());
    }
    exit_code(&stop)
}

/// Add the shadow call stack before a `stack --verify` run.
pub fn verify_setup(p: &mut Program) -> Result<(), String> {
    p.machine.add_observer(Box::new(ShadowStack::new()));
    Ok(())
}

/// `stack --verify` after the run: the verdict as text or JSON, and
/// whether the walk agrees.
pub fn verify_report(
    p: &mut Program,
    stop: &crate::machine::Stop,
) -> Option<(crate::trace::verify::Verdict, String)> {
    let shadow = p.machine.take_observer::<ShadowStack>()?;
    let walk = p.walk_at_stop(stop)?;
    let ss = walk.frames.first().map_or(p.machine.reg(R::SS), |f| f.w_ss);
    let chain = shadow.chain(ss);
    let v = crate::trace::verify::verify(&walk, chain);
    let mut s = String::new();
    s.push_str(&format!(
        "verify: {} running call(s) on the shadow stack, {} frame(s) walked\n",
        chain.len(),
        walk.frames.len()
    ));
    for (i, ok) in v.frames.iter().enumerate() {
        let f = &walk.frames[i];
        s.push_str(&format!(
            "  frame {i} {:04X}:{:04X} bp {:04X}: {}\n",
            f.w_cs,
            f.w_ip,
            f.w_bp,
            if *ok { "agrees" } else { "DISAGREES" }
        ));
    }
    for d in &v.disagreements {
        s.push_str(&format!("  {d}\n"));
    }
    if v.beyond_end > 0 {
        s.push_str(&format!(
            "  {} call(s) lie beyond the chain's end (the start-up code ended the BP chain)\n",
            v.beyond_end
        ));
    }
    s.push_str(if v.agrees() {
        "verify: the walk agrees with the shadow stack\n"
    } else {
        "verify: the walk DISAGREES with the shadow stack\n"
    });
    Some((v, s))
}
