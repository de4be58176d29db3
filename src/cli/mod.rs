//! The `toolhelp16` command line: a thin layer over the library.
//!
//! Exit status: a program that exits gives its own exit code; otherwise
//! [`EXIT_FAULT`] for a processor fault, [`EXIT_BUDGET`] when the instruction
//! budget ran out, [`EXIT_TIMEOUT`] for the wall-clock limit,
//! [`EXIT_UNIMPLEMENTED`] when the program called something not implemented,
//! [`EXIT_HUNG`] when it halted with interrupts disabled,
//! [`EXIT_LOAD`] when the file cannot be loaded (or an output file cannot be
//! written), [`EXIT_INTERNAL`] only for a bug in toolhelp16 itself: every
//! condition a program can cause ends as the machine would answer it (a
//! fault, a DOS error code), never with that code. `stack` exits 0 when it printed a walk.
//! `snapshot` exits 0 when it wrote the file. `walk` exits 0 when the
//! walk agrees with the snapshot's expected frames (or there are none),
//! [`EXIT_MISMATCH`] when it does not, [`EXIT_WALK_FAILED`] when its first
//! step fails (the IStackWalker start always does), and [`EXIT_LOAD`] when
//! the snapshot cannot be read.

mod args;
pub mod bench;
mod bench_dosbox;
#[cfg(unix)]
pub mod crash;
pub mod debug;
pub mod disasm;
mod heapcmd;
pub mod json;
pub mod nearptr;
pub mod output;
mod resume;
mod servecmd;
pub mod tracecmd;

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::loader::KindHint;
use crate::machine::{RunLimits, Stop};
use crate::session::{self, LoadOptions, Loc};

pub use args::{Cli, Command, RunOpts, parse_show};
use args::{env_pair, parse_segoff};

/// A fault stopped the program.
pub const EXIT_FAULT: i32 = 121;
/// The instruction budget ran out.
pub const EXIT_BUDGET: i32 = 122;
/// The wall-clock limit ran out.
pub const EXIT_TIMEOUT: i32 = 123;
/// The program called a function that is not implemented.
pub const EXIT_UNIMPLEMENTED: i32 = 124;
/// The file could not be loaded (or a LOC could not be resolved).
pub const EXIT_LOAD: i32 = 120;
/// A bug in toolhelp16 (the message says so and what to report).
pub const EXIT_INTERNAL: i32 = 125;

/// What an internal error says after itself.
pub const BUG_REPORT: &str = session::BUG_REPORT;
/// The program waited for input the run does not have (an empty `--keys`).
pub const EXIT_NO_INPUT: i32 = 126;
/// The program ended itself with a fatal error (FatalExit, FatalAppExit).
pub const EXIT_FATAL: i32 = 127;
/// The program halted with interrupts disabled (`cli; hlt`): the machine
/// would hang there.
pub const EXIT_HUNG: i32 = 117;
/// `walk`: the walk disagrees with the snapshot's expected frames;
/// `--resume`: the replay did not reach the checkpoint file's state.
pub const EXIT_MISMATCH: i32 = 118;
/// `walk`: the first step failed (an ADDRESS could not be translated).
pub const EXIT_WALK_FAILED: i32 = 119;

fn limits(o: &RunOpts) -> RunLimits {
    let secs = if o.timeout.is_finite() && o.timeout > 0.0 {
        o.timeout.min(86_400.0)
    } else {
        30.0
    };
    RunLimits {
        max_insns: o.max_insns,
        timeout: Duration::from_secs_f64(secs),
    }
}

fn load_opts(
    o: &RunOpts,
    file: &std::path::Path,
    more: &[PathBuf],
    args: &[String],
    echo: bool,
) -> Result<LoadOptions, String> {
    let kind = match (&o.load, &o.entry) {
        (Some(l), Some(e)) => KindHint::Raw {
            load: parse_segoff(l)?,
            entry: parse_segoff(e)?,
        },
        _ => KindHint::Auto,
    };
    let tail = if args.is_empty() {
        String::new()
    } else {
        format!(" {}", args.join(" "))
    };
    let stdin = match &o.stdin {
        Some(p) => Some(
            crate::loader::read_capped(p, session::MAX_STDIN_BYTES, "standard input")
                .map_err(|e| format!("--stdin {e}"))?,
        ),
        None => None,
    };
    let keys = crate::dos::parse_keys(&o.keys)?;
    let mouse = o
        .mouse
        .as_deref()
        .map(crate::dos::mouse::parse_script)
        .transpose()?;
    let clock = match &o.clock {
        Some(t) => crate::dos::clock::Clock::Fixed(crate::dos::clock::DateTime::parse(t)?),
        None => crate::dos::clock::Clock::Host,
    };
    let mut env = Vec::new();
    for kv in &o.env {
        env.push(env_pair(kv)?);
    }
    Ok(LoadOptions {
        kind,
        tail,
        echo,
        env,
        stdin,
        keys,
        mouse,
        clock,
        dir: Some(o.dir.clone().unwrap_or_else(|| own_directory(file))),
        writes: match (&o.dir, &o.keep_writes) {
            (Some(_), _) => session::Writes::Direct,
            (None, Some(k)) => session::Writes::KeptIn(k.clone()),
            (None, None) => session::Writes::Discarded,
        },
        disk_quota: o.disk_quota,
        more: more.to_vec(),
        messages: o.messages.clone(),
        symbol_files: o.syms.iter().chain(&o.maps).cloned().collect(),
        symbols_beside: !o.no_symbol_search,
        fonts: o.fonts.clone(),
        display: match &o.display {
            Some(d) => Some(crate::win16::gdi::devcaps::DisplayMode::parse(d)?),
            None => None,
        },
        log_calls: o.events.is_some(),
        cmd_show: match &o.show {
            Some(v) => parse_show(v)?,
            None => 1,
        },
        windows: o.windows.clone(),
        load_timeout: Some(limits(o).timeout),
    })
}

/// Arguments that name a host file or directory the program cannot
/// reach: it sees only `dir` as drive C: (and its current directory is
/// C:\), so `x/T.ZIP`, found from where toolhelp16 was started but not
/// inside `dir`, is not there for it. One hint each, naming `--dir`.
fn outside_drive_hints(dir: &std::path::Path, args: &[String]) -> Vec<String> {
    let Ok(root) = dir.canonicalize() else {
        return Vec::new();
    };
    let mut hints = Vec::new();
    for a in args {
        if a.starts_with('-') || (a.starts_with('/') && a.len() <= 3) {
            continue;
        }
        let host = std::path::Path::new(a);
        let Ok(full) = host.canonicalize() else {
            continue;
        };
        let inside = full.starts_with(&root);
        let there = root.join(a.replace('\\', "/")).exists();
        if !inside && !there {
            hints.push(format!(
                "the argument {a} names {} on this machine, but the program sees only {} as \
                 drive C: (its current directory C:\\): it will not find {a}; give --dir with a \
                 directory holding both, or copy the file beside the program",
                full.display(),
                root.display()
            ));
        }
    }
    hints
}

/// The directory a program's file lies in (`.` for a bare file name).
fn own_directory(file: &std::path::Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Load `file` with the run options and run it, to `at` when given,
/// calling `setup` between loading and running (to add
/// observers: the tracer, the shadow call stack, the profiler).
pub(crate) fn load_and_run_with(
    opts: &RunOpts,
    files: &[PathBuf],
    args: &[String],
    echo: bool,
    at: Option<(&Loc, &str)>,
    setup: &mut dyn FnMut(&mut session::Program) -> Result<(), String>,
) -> Result<(session::Program, Stop), i32> {
    let (file, more) = files
        .split_first()
        .ok_or_else(|| fail(EXIT_LOAD, "no program named"))?;
    let lo = load_opts(opts, file, more, args, echo).map_err(|e| fail(EXIT_LOAD, &e))?;
    let mut prog = session::load(file, &lo).map_err(|e| fail(EXIT_LOAD, &e.to_string()))?;
    warn_symbols(&prog, opts.quiet);
    if !opts.quiet {
        if let Some(dir) = &lo.dir {
            for hint in outside_drive_hints(dir, args) {
                tell(&format!("toolhelp16: note: {hint}\n"));
            }
        }
    }
    if let Some(text) = &opts.inject_fault {
        let loc: Loc = text
            .parse()
            .map_err(|e: String| fail(EXIT_LOAD, &format!("--inject-fault {text}: {e}")))?;
        prog.inject_invalid_opcode(&loc).map_err(|e| {
            fail(
                EXIT_LOAD,
                &format!("{}: --inject-fault {text}: {e}", file.display()),
            )
        })?;
    }
    setup(&mut prog).map_err(|e| fail(EXIT_LOAD, &format!("{}: {e}", file.display())))?;
    if let Some(filter) = opts.events.as_deref().filter(|f| !f.is_empty()) {
        // Only the calls the filter names (win16/relayfilter.rs), from
        // the load's on.
        let f = crate::win16::relayfilter::RelayFilter::parse(filter)
            .map_err(|e| fail(EXIT_LOAD, &e))?;
        let st = prog.machine.get_data_mut();
        st.events.retain(|e| f.keeps_event(e));
        st.event_filter = Some(Box::new(move |e| f.keeps_event(e)));
    }
    if opts.events.is_some() {
        // Port events name their exact instruction only while the machine
        // counts blocks (machine/ports.rs, `port_site`).
        prog.machine.count_instructions();
    }
    let spinner = run_spinner(file, echo);
    let stop = prog.run(limits(opts), at.map(|(loc, _)| loc));
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let stop = stop.map_err(|e| {
        let text = at.map(|(_, t)| t).unwrap_or("");
        fail(EXIT_LOAD, &format!("{}: --at {text}: {e}", file.display()))
    })?;
    warn_symbols(&prog, opts.quiet);
    Ok((prog, stop))
}

/// Say on stderr, once each, what the symbol tables noticed (a map beside
/// a module that does not fit it).
fn warn_symbols(prog: &session::Program, quiet: bool) {
    if quiet {
        // Taken, so that they are not said later either.
        let _ = (prog.symbol_warnings(), prog.font_warnings());
        return;
    }
    for w in prog.symbol_warnings() {
        tell(&format!("toolhelp16: warning: {w}\n"));
    }
    for w in prog.font_warnings() {
        tell(&format!("toolhelp16: warning: fonts: {w}\n"));
    }
}

/// `--events` as JSON: the events and how many were dropped (None, None
/// without `--events`).
pub(crate) fn events_json(
    prog: &session::Program,
    opts: &RunOpts,
) -> (Option<Vec<String>>, Option<u64>) {
    if opts.events.is_none() {
        return (None, None);
    }
    let st = prog.machine.get_data();
    (Some(st.events.clone()), Some(st.events_dropped))
}

/// `--events` in text, on stderr after the report: `event: ...` lines
/// (`trace`, `profile`, `snapshot`, whose stdout is their own).
pub(crate) fn tell_events(prog: &session::Program, opts: &RunOpts) {
    tell(&events_text(prog, opts));
}

/// `--events` in text, on stdout after the report (`run`, `stack`, as
/// the README's "Options of every command" says).
pub(crate) fn say_events(prog: &session::Program, opts: &RunOpts) {
    say(&events_text(prog, opts));
}

/// The `event: ...` lines of `--events` (nothing without it).
fn events_text(prog: &session::Program, opts: &RunOpts) -> String {
    let mut s = String::new();
    if opts.events.is_none() {
        return s;
    }
    let st = prog.machine.get_data();
    for e in &st.events {
        s.push_str(&format!("event: {}\n", crate::escape::name(e)));
    }
    if st.events_dropped > 0 {
        s.push_str(&format!("event: ... and {} more\n", st.events_dropped));
    }
    s
}

/// `--events USER!*` written with a space: the filter joined to the
/// option (`--events=USER!*`), as clap takes an optional value. The word
/// after `--events` is a filter when it names a function (`!`, or
/// `MODULE.N`) and is no file: `--events prog.exe` stays the option and
/// the program.
fn events_filter_args(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    let mut after_dashes = false;
    while let Some(a) = it.next() {
        after_dashes |= a == "--";
        let filter = match it.peek().and_then(|n| n.to_str()) {
            Some(n) if !after_dashes && a == "--events" => {
                let dotted = n.split_once('.').is_some_and(|(m, o)| {
                    !m.is_empty() && !o.is_empty() && o.bytes().all(|b| b.is_ascii_digit())
                });
                ((n.contains('!') || dotted) && !std::path::Path::new(n).exists())
                    .then(|| format!("--events={n}"))
            }
            _ => None,
        };
        match filter {
            Some(f) => {
                out.push(f.into());
                it.next();
            }
            None => out.push(a),
        }
    }
    out
}

/// `--events FILTER`: checked as clap parses (an empty value is every
/// event).
pub(super) fn events_filter(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    crate::win16::relayfilter::RelayFilter::parse(s).map(|_| ())
}

/// The exit status for a stop.
pub fn exit_code(stop: &Stop) -> i32 {
    match stop {
        Stop::Exited { code } => i32::from(*code),
        Stop::Fault(_) => EXIT_FAULT,
        Stop::Budget => EXIT_BUDGET,
        Stop::Timeout => EXIT_TIMEOUT,
        Stop::Unimplemented { .. } => EXIT_UNIMPLEMENTED,
        Stop::NoInput { .. } => EXIT_NO_INPUT,
        Stop::Fatal { .. } => EXIT_FATAL,
        Stop::Hung { .. } => EXIT_HUNG,
        Stop::Breakpoint { .. } => 0,
        Stop::Error(_) => EXIT_INTERNAL,
    }
}

/// Whether the command asked for JSON: then an error is a JSON object on
/// stdout too ([`fail`]).
static JSON_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Report an error (on stderr; under `--json` also as a json.rs
/// `ErrorOutput` on stdout) and give back its exit status.
fn fail(code: i32, msg: &str) -> i32 {
    tell(&format!("toolhelp16: {msg}\n"));
    if JSON_ERRORS.load(std::sync::atomic::Ordering::Relaxed) {
        let kind = match code {
            2 => "usage",
            EXIT_LOAD => "load",
            EXIT_INTERNAL => "internal",
            _ => "stopped",
        };
        let doc = json::Doc::new(
            "error",
            json::ErrorOutput {
                message: msg.to_string(),
                exit_code: code,
                kind: kind.to_string(),
            },
        );
        if JSON_LINES.load(std::sync::atomic::Ordering::Relaxed) {
            // A JSON-lines command (trace, disasm) may have printed lines
            // already: its error is one more line, so that a reader of
            // lines reads it as JSON too.
            let mut text = serde_json::to_string(&doc).unwrap_or_default();
            text.push('\n');
            write_stdout(text.as_bytes());
        } else {
            print_json(&doc);
        }
    }
    code
}

/// Under `trace --json` (live or replayed), a run whose exit status is
/// not 0 (a fault, the budget, the time limit, the program's own non-zero
/// exit code; not `--max`) says so in one more line, the `error`
/// document of kind `stopped` (`internal` for a bug in toolhelp16) with
/// the exit status and `said`, the report text mode prints on stderr
/// (each line's `toolhelp16: ` left out): the stop is not on stderr
/// alone, and a program that stops before its first instruction still
/// prints a line.
fn json_stop_line(code: i32, said: &str) {
    let msg = said
        .lines()
        .map(|l| l.strip_prefix("toolhelp16: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let doc = json::Doc::new(
        "error",
        json::ErrorOutput {
            message: msg.trim_end().to_string(),
            exit_code: code,
            kind: if code == EXIT_INTERNAL {
                "internal"
            } else {
                "stopped"
            }
            .to_string(),
        },
    );
    let mut text = serde_json::to_string(&doc).unwrap_or_default();
    text.push('\n');
    write_stdout(text.as_bytes());
}

/// Whether the command prints JSON lines (`trace --json`, `disasm
/// --json`): then an error under `--json` is one line too.
static JSON_LINES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a command line names a JSON-lines command (`trace`, `disasm`).
fn is_json_lines(c: &Command) -> bool {
    matches!(c, Command::Trace { .. } | Command::Disasm { .. })
}

/// Whether the running command may show a spinner while the program runs
/// (`run`, `stack`, `profile`, `snapshot`; `trace` has its own bar).
static SPINNER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// An indicatif bar drawn on stderr with `template`, when stderr is a
/// terminal and the command does not print JSON; None otherwise (piped,
/// redirected, `--json`), so that no output but a terminal's sees it.
pub(crate) fn progress(template: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if JSON_ERRORS.load(std::sync::atomic::Ordering::Relaxed) || !std::io::stderr().is_terminal() {
        return None;
    }
    let style = indicatif::ProgressStyle::with_template(template).ok()?;
    // Drawn only once the run has lasted a moment: a short run shows no
    // flicker.
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden())
            .with_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    let shown = bar.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        if !shown.is_finished() {
            shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    });
    Some(bar)
}

/// The spinner of a long run: shown on a terminal while the program runs,
/// when the program's own output does not go to the same terminal.
fn run_spinner(file: &std::path::Path, echo: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !SPINNER.load(std::sync::atomic::Ordering::Relaxed)
        || (echo && std::io::stdout().is_terminal())
    {
        return None;
    }
    let bar = progress("{spinner} running {msg}: {elapsed}")?;
    bar.set_message(crate::escape::name(&file.display().to_string()).into_owned());
    Some(bar)
}

/// Write bytes on stdout. Every write of the command line goes through
/// this, [`say`], [`tell`] or [`print_json`]: a closed pipe (`| head`)
/// or a full disk loses the output, never panics (`println!` would).
pub(crate) fn write_stdout(bytes: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(bytes);
    let _ = out.flush();
}

/// Print a JSON document on stdout, pretty, with a newline.
pub(crate) fn print_json<T: serde::Serialize>(v: &T) {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    write_stdout(text.as_bytes());
}

/// Print a report on stdout with the input's control characters made
/// visible (escape.rs): everything the tool prints but the program's own
/// console stream and JSON goes through this or [`tell`].
pub(crate) fn say(s: &str) {
    write_stdout(crate::escape::text(s).as_bytes());
}

/// [`say`] on stderr.
pub(crate) fn tell(s: &str) {
    use std::io::Write;
    let _ = std::io::stderr()
        .lock()
        .write_all(crate::escape::text(s).as_bytes());
}

/// Parse the command line and run it; returns the process exit status.
/// A usage error exits 2 (clap's status), `--help` and `--version` 0;
/// with `--json` among the options a usage error is JSON too.
pub fn run_from_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let args = events_filter_args(args.into_iter().collect());
    // A crash of the engine (a signal) ends the tool with exit 116 and a
    // message, never silently (crash.rs).
    #[cfg(unix)]
    crash::install();
    // `trace --record` keeps the command line, to run it again.
    tracecmd::ARGS.with(|a| *a.borrow_mut() = args.clone());
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let code = e.exit_code();
            let wants_json = args
                .iter()
                .skip(1)
                .take_while(|a| *a != "--")
                .any(|a| a == "--json");
            if code != 0 && wants_json {
                JSON_ERRORS.store(true, std::sync::atomic::Ordering::Relaxed);
                let lines = args.get(1).is_some_and(|a| a == "trace" || a == "disasm");
                JSON_LINES.store(lines, std::sync::atomic::Ordering::Relaxed);
                let text = e.render().to_string();
                let first = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ");
                return fail(code, first);
            }
            let _ = e.print();
            return code;
        }
    };
    // A panic anywhere in the command (a hook's is already a stop,
    // machine/hookguard.rs) is an internal error with its message: exit
    // 125, the JSON error under --json, never Rust's exit 101.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| main_with(cli))) {
        Ok(code) => code,
        Err(p) => fail(
            EXIT_INTERNAL,
            &format!(
                "internal error: a panic: {}; {BUG_REPORT}",
                crate::machine::hookguard::panic_message(p.as_ref())
            ),
        ),
    }
}

/// Whether a command prints JSON (then its errors are JSON too), and
/// whether it may show a spinner while its program runs.
fn json_and_spinner(c: &Command) -> (bool, bool) {
    match c {
        Command::Run { opts, .. }
        | Command::Stack { opts, .. }
        | Command::Snapshot { opts, .. }
        | Command::Heap { opts, .. } => (opts.json, true),
        Command::Profile { opts, .. } => (opts.json, true),
        Command::Trace { opts, .. } => (opts.json, false),
        // A debugging session talks to its user or its client while the
        // program runs: no spinner.
        Command::Gdbserver { opts, .. }
        | Command::Debug { opts, .. }
        | Command::Serve { opts, .. } => (opts.json, false),
        Command::Info { json, .. }
        | Command::Walk { json, .. }
        | Command::Disasm { json, .. }
        | Command::Demo { json }
        | Command::Bench { json, .. }
        | Command::Mapsym { json, .. } => (*json, false),
        Command::Schema { .. } | Command::Completions { .. } | Command::Man { .. } => {
            (false, false)
        }
    }
}

/// Run the command line; returns the process exit status.
pub fn main_with(cli: Cli) -> i32 {
    let (json_out, spinner) = json_and_spinner(&cli.command);
    JSON_ERRORS.store(json_out, std::sync::atomic::Ordering::Relaxed);
    JSON_LINES.store(
        is_json_lines(&cli.command),
        std::sync::atomic::Ordering::Relaxed,
    );
    SPINNER.store(spinner, std::sync::atomic::Ordering::Relaxed);
    // A debugging session shows the program through its own commands:
    // the report options would be accepted and ignored, so they are not
    // accepted (a usage error, as clap gives).
    let session = match &cli.command {
        Command::Gdbserver { opts, .. }
        | Command::Debug { opts, .. }
        | Command::Serve { opts, .. } => Some(opts),
        Command::Run {
            opts, gdb: Some(_), ..
        } => Some(opts),
        _ => None,
    };
    if let Some(o) = session.filter(|o| o.json || o.screen || o.events.is_some()) {
        let which: Vec<&str> = [
            (o.json, "--json"),
            (o.screen, "--screen"),
            (o.events.is_some(), "--events"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        return fail(
            2,
            &format!(
                "{} does not apply to a debugging session (gdbserver, debug, run --gdb): \
                 its views are the session's commands and `monitor` (docs/debugging.md)",
                which.join(", ")
            ),
        );
    }
    match cli.command {
        Command::Info { file, json, dir } => match session::parse_file(&file, KindHint::Auto) {
            Ok(image) => {
                // The rule for `info`: OS/2 modules are refused with the
                // reason. A resource-only module (a .FON font file, no
                // segments) is described, its resources listed, and says
                // it cannot be run (issue 31).
                if let crate::loader::Image::Ne(ne) = &image {
                    // A bound OS/2 program runs (its real-mode part), so
                    // it is described.
                    let not_win16 = (ne.header.target_os == 1 || !ne.os2_imports().is_empty())
                        && ne.bound_dos_program().is_none();
                    if let (true, Err(e)) = (not_win16, ne.check_runnable(true)) {
                        return fail(EXIT_LOAD, &format!("{}: {e}", file.display()));
                    }
                }
                let mut info = crate::loader::info::info(&image);
                info.demangle_names(&crate::symbols::demangle::demangle);
                // Where each imported module comes from, as a run finds it.
                let dirs: Vec<PathBuf> = dir.into_iter().collect();
                let sources = crate::win16::kernel::loader::import_sources(
                    &file,
                    &info.import_names(),
                    &dirs,
                )
                .into_iter()
                .map(|s| match s {
                    crate::win16::kernel::loader::ImportSource::BuiltIn => ("built-in", None),
                    crate::win16::kernel::loader::ImportSource::Dll(p) => {
                        ("dll", Some(p.display().to_string()))
                    }
                    crate::win16::kernel::loader::ImportSource::Absent(why) => {
                        ("absent", Some(why))
                    }
                })
                .collect();
                info.set_import_sources(sources);
                if json {
                    print_json(&json::Doc::new("info", info));
                } else {
                    say(&crate::loader::info::render_text(&info));
                }
                0
            }
            Err(e) => fail(EXIT_LOAD, &e.to_string()),
        },
        Command::Run {
            opts,
            screenshot,
            screenshots,
            every,
            gdb,
            resume,
            files,
            args,
        } => {
            if let Some(port) = gdb {
                return debug::gdbserver(
                    &opts,
                    &port.to_string(),
                    &files,
                    &args,
                    resume.as_deref(),
                );
            }
            if let Some(path) = &resume {
                return resume::run(&opts, path, screenshot.as_deref());
            }
            let mut setup = |p: &mut session::Program| match &screenshots {
                Some(dir) => p.start_screenshots(dir, every),
                None => Ok(()),
            };
            let (prog, stop) =
                match load_and_run_with(&opts, &files, &args, !opts.json, None, &mut setup) {
                    Ok(r) => r,
                    Err(code) => return code,
                };
            if let Err(code) =
                write_screenshots(&prog, screenshot.as_deref(), screenshots.is_some())
            {
                return code;
            }
            if opts.json {
                let mut v = output::run_json(&prog, &stop);
                v.screen = opts.screen.then(|| prog.screen_text());
                (v.events, v.events_dropped) = events_json(&prog, &opts);
                print_json(&json::Doc::new("run", v));
            } else {
                tell(&output::run_text(&prog, &stop));
                say_events(&prog, &opts);
                if opts.screen {
                    say(&prog.screen_text());
                }
            }
            exit_code(&stop)
        }
        Command::Stack {
            opts,
            at,
            all_tasks,
            verify,
            skip,
            max,
            explain,
            svg,
            html,
            screenshot,
            files,
            args,
        } => {
            let loc: Loc = match at.parse() {
                Ok(l) => l,
                Err(e) => return fail(EXIT_LOAD, &e),
            };
            let mut setup = |p: &mut session::Program| {
                if verify {
                    tracecmd::verify_setup(p)
                } else {
                    Ok(())
                }
            };
            let (mut prog, stop) =
                match load_and_run_with(&opts, &files, &args, false, Some((&loc, &at)), &mut setup)
                {
                    Ok(r) => r,
                    Err(code) => return code,
                };
            let verdict = if verify {
                tracecmd::verify_report(&mut prog, &stop)
            } else {
                None
            };
            let reached = session::after_reached(&loc, &stop, opts.max_insns);
            let walk = prog.walk_at_stop(&stop);
            let bt = walk
                .as_ref()
                .map(|w| crate::walk::backtrace::capture_walk(w, skip, max));
            let pictured = if explain || svg.is_some() || html.is_some() {
                crate::report::at_stop(&prog, &stop, stack_title(&prog, &stop, reached))
            } else {
                None
            };
            if pictured.is_none() && (svg.is_some() || html.is_some()) {
                return fail(
                    exit_code(&stop).max(1),
                    &format!(
                        "{}: {}: there is no stack to draw",
                        prog.path.display(),
                        output::describe(&stop)
                    ),
                );
            }
            if let Some((pic, lines)) = &pictured {
                let screen = prog.screenshot_now().ok();
                if let Err(e) = write_pictures(
                    pic,
                    lines,
                    svg.as_deref(),
                    html.as_deref(),
                    screen.as_deref(),
                ) {
                    return fail(EXIT_LOAD, &e);
                }
            }
            if let Some(path) = &screenshot {
                let png = match prog.screenshot_now() {
                    Ok(p) => p,
                    Err(e) => return fail(EXIT_LOAD, &format!("--screenshot: {e}")),
                };
                if let Err(e) = crate::report::write_file("--screenshot", path, &png) {
                    return fail(EXIT_LOAD, &e);
                }
                tell(&format!(
                    "toolhelp16: wrote {} (screen at the stop)\n",
                    path.display()
                ));
            }
            let told = pictured.as_ref().filter(|_| explain).map(|p| &p.1);
            if opts.json {
                let mut v = output::stack_json(&prog, &stop, reached);
                v.backtrace = bt.as_ref().map(output::backtrace_json);
                v.tasks = all_tasks.then(|| output::tasks_json(&prog));
                v.explain = told.map(|lines| {
                    lines
                        .iter()
                        .map(|l| format!("{}{}", "  ".repeat(usize::from(l.depth)), l.text))
                        .collect()
                });
                v.verify = verdict.as_ref().map(|(verdict, _)| json::Verify {
                    agrees: verdict.agrees(),
                    frames: verdict.frames.clone(),
                    disagreements: verdict
                        .disagreements
                        .iter()
                        .map(|d| json::Disagreement {
                            what: d.clone(),
                            text: d.to_string(),
                        })
                        .collect(),
                    beyond_end: verdict.beyond_end,
                });
                v.screen = opts.screen.then(|| prog.screen_text());
                (v.events, v.events_dropped) = events_json(&prog, &opts);
                print_json(&json::Doc::new("stack", v));
            } else {
                say(&output::stack_text(&prog, &stop, reached));
                if let Some(note) = output::entry_note(&prog, &stop) {
                    say(&note);
                }
                if let Some(bt) = &bt {
                    let name = |k: usize| {
                        let w = walk.as_ref()?;
                        let i = skip + k;
                        (i < w.frames.len())
                            .then(|| output::frame_symbol(&prog, w, i))
                            .flatten()
                            .map(|s| s.to_string())
                    };
                    say(&output::backtrace_text(bt, &name));
                }
                if all_tasks {
                    say(&output::tasks_text(&prog));
                }
                if let Some((_, text)) = &verdict {
                    say(text);
                }
                if let Some(lines) = told {
                    say(&crate::report::explain::text(lines));
                }
                say_events(&prog, &opts);
                if opts.screen {
                    say(&prog.screen_text());
                }
            }
            if verify && !verdict.as_ref().is_some_and(|v| v.0.agrees()) {
                return 1;
            }
            if reached { 0 } else { exit_code(&stop).max(1) }
        }
        Command::Heap {
            opts,
            at,
            local,
            files,
            args,
        } => heapcmd::heap(&opts, at.as_deref(), local.as_deref(), &files, &args),
        Command::Trace {
            opts,
            syntax,
            regs,
            from,
            to,
            module,
            max,
            output,
            html,
            record,
            replay,
            files,
            args,
        } => tracecmd::trace(
            &opts,
            &files,
            &args,
            tracecmd::TraceArgs {
                syntax,
                regs,
                from,
                to,
                module,
                max,
                output,
                html,
                record,
                replay,
            },
        ),
        Command::Profile {
            opts,
            every,
            folded,
            svg,
            files,
            args,
        } => tracecmd::profile(
            &opts,
            &files,
            &args,
            every,
            folded.as_deref(),
            svg.as_deref(),
        ),
        Command::Bench { quick, only, json } => match bench::bench(quick, &only) {
            Ok(text) if json => {
                print_json(&json::Doc::new(
                    "bench",
                    json::Bench {
                        quick,
                        lines: text.lines().map(str::to_string).collect(),
                    },
                ));
                0
            }
            Ok(text) => {
                say(&text);
                0
            }
            Err(e) => fail(EXIT_INTERNAL, &format!("bench: {e}; {BUG_REPORT}")),
        },
        Command::Snapshot {
            opts,
            at,
            output,
            resumable,
            files,
            args,
        } => resume::snapshot(&opts, &at, &output, resumable, &files, &args),
        Command::Walk {
            snapshot,
            init,
            json,
        } => walk(&snapshot, init, json),
        Command::Mapsym { map, output, json } => mapsym(&map, output, json),
        Command::Disasm {
            file,
            segment,
            at,
            count,
            syntax,
            json,
            maps,
            syms,
            no_symbol_search,
        } => disasm::disasm(disasm::DisasmArgs {
            file,
            segment,
            at,
            count,
            syntax,
            json,
            maps: syms.into_iter().chain(maps).collect(),
            no_symbol_search,
        }),
        Command::Demo { json } => output::demo(json),
        Command::Gdbserver {
            opts,
            listen,
            resume,
            files,
            args,
        } => debug::gdbserver(&opts, &listen, &files, &args, resume.as_deref()),
        Command::Debug {
            opts,
            commands,
            resume,
            files,
            args,
        } => debug::debug(&opts, commands.as_deref(), &files, &args, resume.as_deref()),
        Command::Serve {
            opts,
            listen,
            recording,
            files,
            args,
        } => servecmd::serve(&opts, &listen, recording.as_deref(), &files, &args),
        Command::Schema { command, write } => schema(command.as_deref(), write.as_deref()),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "toolhelp16",
                &mut out,
            );
            write_stdout(&out);
            0
        }
        Command::Man { dir: Some(dir) } => {
            let written = std::fs::create_dir_all(&dir)
                .and_then(|()| clap_mangen::generate_to(man_command(), &dir));
            match written {
                Ok(()) => {
                    tell(&format!(
                        "toolhelp16: wrote the manual pages into {}\n",
                        dir.display()
                    ));
                    0
                }
                Err(e) => fail(EXIT_LOAD, &format!("man --dir {}: {e}", dir.display())),
            }
        }
        Command::Man { dir: None } => {
            let mut out = Vec::new();
            let man = clap_mangen::Man::new(man_command());
            match man.render(&mut out) {
                Ok(()) => {
                    write_stdout(&out);
                    0
                }
                Err(e) => fail(EXIT_INTERNAL, &format!("man: {e}; {BUG_REPORT}")),
            }
        }
    }
}

/// The command line as the manual pages describe it: without clap's
/// `help` subcommand, which has no page of its own (`--help` is listed).
fn man_command() -> clap::Command {
    <Cli as clap::CommandFactory>::command().disable_help_subcommand(true)
}

/// `schema COMMAND` / `schema --write DIR`.
fn schema(command: Option<&str>, write: Option<&std::path::Path>) -> i32 {
    let all = json::schemas();
    if let Some(dir) = write {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(EXIT_LOAD, &format!("{}: {e}", dir.display()));
        }
        for (name, schema) in &all {
            let path = dir.join(name);
            let text = serde_json::to_string_pretty(schema).unwrap_or_default() + "\n";
            if let Err(e) = std::fs::write(&path, text) {
                return fail(EXIT_LOAD, &format!("{}: {e}", path.display()));
            }
        }
        tell(&format!(
            "toolhelp16: wrote {} schemas into {}\n",
            all.len(),
            dir.display()
        ));
        return 0;
    }
    let want = format!("{}.json", command.unwrap_or(""));
    match all.iter().find(|(n, _)| *n == want) {
        Some((_, schema)) => {
            print_json(schema);
            0
        }
        None => fail(2, &format!("no schema named {want}")),
    }
}

/// The title of a stack picture: the file and where it stopped.
fn stack_title(prog: &session::Program, stop: &Stop, reached: bool) -> String {
    use crate::machine::{Cpu, R};
    let what = match stop {
        Stop::Budget if reached => format!(
            "stopped at {:04X}:{:04X} after the requested number of instructions",
            prog.machine.reg(R::CS),
            prog.machine.reg(R::IP)
        ),
        _ => output::describe(stop),
    };
    format!("{}: {what}", prog.path.display())
}

/// `run --screenshot FILE` and the end of `--screenshots DIR`: write the
/// run's picture, report the series.
fn write_screenshots(
    prog: &session::Program,
    file: Option<&std::path::Path>,
    series: bool,
) -> Result<(), i32> {
    if let Some(path) = file {
        let png = prog
            .screenshot_final()
            .map_err(|e| fail(EXIT_LOAD, &format!("--screenshot: {e}")))?;
        crate::report::write_file("--screenshot", path, &png).map_err(|e| fail(EXIT_LOAD, &e))?;
        tell(&format!("toolhelp16: wrote {} (screen)\n", path.display()));
    }
    if series {
        let (n, err) = prog.screenshots_written();
        if let Some(e) = err {
            return Err(fail(EXIT_LOAD, &format!("--screenshots: {e}")));
        }
        tell(&format!("toolhelp16: wrote {n} screenshots\n"));
    }
    Ok(())
}

/// `stack --svg FILE --html FILE`: write the picture (and the page, with
/// the screen when there is one).
fn write_pictures(
    pic: &crate::report::stackmodel::Picture,
    lines: &[crate::report::explain::Line],
    svg: Option<&std::path::Path>,
    html: Option<&std::path::Path>,
    screen: Option<&[u8]>,
) -> Result<(), String> {
    if svg.is_none() && html.is_none() {
        return Ok(());
    }
    let drawing = crate::report::svg::render(pic);
    if let Some(path) = svg {
        crate::report::write_file("--svg", path, drawing.as_bytes())?;
        tell(&format!("toolhelp16: wrote {} (SVG)\n", path.display()));
    }
    if let Some(path) = html {
        let page = crate::report::html::page_with_screen(pic, &drawing, lines, screen);
        crate::report::write_file("--html", path, page.as_bytes())?;
        tell(&format!("toolhelp16: wrote {} (HTML)\n", path.display()));
    }
    Ok(())
}

/// `snapshot`: run to LOC and write the snapshot there.
/// `mapsym`: MAP → SYM.
fn mapsym(map: &std::path::Path, output: Option<PathBuf>, json_out: bool) -> i32 {
    let layouts = match crate::symbols::parse_file(map) {
        Ok(l) => l,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let Some(layout) = layouts.first() else {
        return fail(EXIT_LOAD, &format!("{}: no map in it", map.display()));
    };
    let out = output.unwrap_or_else(|| map.with_extension("sym"));
    let module = layout.module.clone().unwrap_or_else(|| {
        map.file_stem()
            .map(|s| s.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default()
    });
    let bytes = match crate::symbols::mapsym::write_layout(&module, layout) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_LOAD, &format!("{}: {e}", map.display())),
    };
    if let Err(e) = std::fs::write(&out, &bytes) {
        return fail(EXIT_LOAD, &format!("{}: {e}", out.display()));
    }
    let segments = crate::symbols::mapsym::frames_of(layout).len();
    if json_out {
        print_json(&json::Doc::new(
            "mapsym",
            json::Mapsym {
                map: map.display().to_string(),
                output: out.display().to_string(),
                module,
                segments,
                symbols: layout.publics.len(),
                bytes: bytes.len(),
            },
        ));
        return 0;
    }
    tell(&format!(
        "toolhelp16: {} -> {}: module {module}, {segments} segments, {} symbols, {} bytes\n",
        map.display(),
        out.display(),
        layout.publics.len(),
        bytes.len()
    ));
    0
}

/// `walk`: walk a snapshot and compare.
fn walk(path: &std::path::Path, init: crate::walk::stackframe::Start, json: bool) -> i32 {
    let snap = match crate::walk::snapshot::Snapshot::read(path) {
        Ok(s) => s,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let w = snap.walk(init, session::MAX_FRAMES);
    let agreement = snap.check(init, &w);
    if json {
        let v = output::walk_json(path, &snap, init, &w, agreement.as_ref());
        print_json(&json::Doc::new("walk", v));
    } else {
        say(&output::walk_text(
            path,
            &snap,
            init,
            &w,
            agreement.as_ref(),
        ));
    }
    if matches!(w.end, crate::walk::stackframe::StepError::Address(_)) {
        EXIT_WALK_FAILED
    } else if agreement.is_some_and(|a| !a.agrees()) {
        EXIT_MISMATCH
    } else {
        0
    }
}
