//! `snapshot` (a stopped run's walk, and with `--resumable` a checkpoint
//! file) and `--resume FILE` for `run`, `debug` and `gdbserver`: a run
//! started from a checkpoint file (src/debug/checkpoint_file.rs).

use std::path::{Path, PathBuf};

use super::{
    BUG_REPORT, EXIT_INTERNAL, EXIT_LOAD, EXIT_MISMATCH, RunOpts, exit_code, fail,
    load_and_run_with, output, print_json, tell, tell_events,
};
use crate::debug::checkpoint_file::{Digest, Drive, Resume, RunOptions, TempDir, pack};
use crate::debug::{Frontend, Here, Why};
use crate::session::{self, Loc};
use crate::walk::snapshot::Snapshot;

/// Run options a checkpoint file cannot keep (host directories).
fn not_kept(opts: &RunOpts) -> Option<&'static str> {
    if opts.fonts.is_some() {
        Some("--fonts")
    } else if opts.windows.is_some() {
        Some("--windows")
    } else if opts.keep_writes.is_some() {
        Some("--keep-writes")
    } else {
        None
    }
}

/// The clock as `--clock` writes it.
fn clock_text(t: crate::dos::clock::DateTime) -> String {
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// A path relative to the drive's directory, with `/`.
fn drive_path(root: &Path, file: &Path) -> Result<String, String> {
    let full = file
        .canonicalize()
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let root = root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", root.display()))?;
    let rel = full.strip_prefix(&root).map_err(|_| {
        format!(
            "{}: not inside {}, the directory the program sees as drive C:, so a \
             checkpoint file cannot hold it",
            file.display(),
            root.display()
        )
    })?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

/// `snapshot --at LOC -o FILE [--resumable] PROGRAM`.
pub(super) fn snapshot(
    opts: &RunOpts,
    at: &str,
    out: &Path,
    resumable: bool,
    files: &[PathBuf],
    args: &[String],
) -> i32 {
    let loc: Loc = match at.parse() {
        Ok(l) => l,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    if resumable {
        return snapshot_resumable(opts, at, out, files, args);
    }
    let (prog, stop) =
        match load_and_run_with(opts, files, args, false, Some((&loc, at)), &mut |_| Ok(())) {
            Ok(r) => r,
            Err(code) => return code,
        };
    let reached = session::after_reached(&loc, &stop, opts.max_insns);
    if !reached {
        return fail(
            exit_code(&stop).max(1),
            &format!(
                "{}: --at {at}: the location was not reached: {}; no snapshot written",
                prog.path.display(),
                output::describe(&stop)
            ),
        );
    }
    let snap = match prog.snapshot(&stop, Some(source_of(at, files))) {
        Ok(s) => s,
        Err(e) => {
            return fail(
                EXIT_INTERNAL,
                &format!("{}: {e}; {}", prog.path.display(), BUG_REPORT),
            );
        }
    };
    if let Err(code) = write_snapshot(opts, out, &snap) {
        return code;
    }
    if !opts.json {
        tell_events(&prog, opts);
        if opts.screen {
            tell(&prog.screen_text());
        }
    }
    0
}

/// The snapshot's `source`.
fn source_of(at: &str, files: &[PathBuf]) -> crate::walk::snapshot::Source {
    crate::walk::snapshot::Source {
        file: files
            .first()
            .map(|f| f.display().to_string())
            .unwrap_or_default(),
        at: at.to_string(),
        more: files
            .iter()
            .skip(1)
            .map(|f| f.display().to_string())
            .collect(),
    }
}

/// Write the snapshot and say so.
fn write_snapshot(opts: &RunOpts, out: &Path, snap: &Snapshot) -> Result<(), i32> {
    if let Err(e) = std::fs::write(out, snap.to_json()) {
        return Err(fail(EXIT_LOAD, &format!("{}: {e}", out.display())));
    }
    if opts.json {
        print_json(&super::json::Doc::new(
            "snapshot",
            output::snapshot_json(out, snap),
        ));
    } else {
        tell(&output::snapshot_summary(out, snap));
    }
    Ok(())
}

/// What the debugger's run to the location found.
type Taken = Result<(u64, Digest, Snapshot), (i32, String)>;

/// The front end of `snapshot --resumable`'s run: a breakpoint at the
/// location (`break LOC`, so `+N` is a position as the debugger counts
/// them), and at it the position, the digest and the walk's snapshot.
struct Taker {
    at: String,
    source: crate::walk::snapshot::Source,
    started: bool,
    taken: std::rc::Rc<std::cell::RefCell<Option<Taken>>>,
}

impl Frontend for Taker {
    fn stopped(&mut self, h: &mut Here<'_, '_>) -> crate::debug::Resume {
        let mut taken = self.taken.borrow_mut();
        if !std::mem::replace(&mut self.started, true) {
            if self.at.trim() == "+0" {
                // Before the first instruction: here.
            } else {
                match crate::debug::monitor::run(h, &format!("break {}", self.at)) {
                    Ok(_) => return crate::debug::Resume::Continue,
                    Err(e) => {
                        *taken = Some(Err((EXIT_LOAD, format!("--at {}: {e}", self.at))));
                        return crate::debug::Resume::Kill;
                    }
                }
            }
        } else if !matches!(h.why, Why::Breakpoint) {
            // The status the stop gives `run` (at least 1), as a plain
            // snapshot's.
            let code = match &h.why {
                Why::Ended(stop) => exit_code(stop).max(1),
                _ => 1,
            };
            *taken = Some(Err((
                code,
                format!(
                    "--at {}: the location was not reached: {}; no snapshot written",
                    self.at,
                    crate::debug::views::describe(h)
                ),
            )));
            return crate::debug::Resume::Kill;
        }
        let dispatch = h.env().and_then(crate::win16::fault::pass_on_address);
        let snap = crate::walk::snapshot::capture(
            h.uc(),
            h.regs().into(),
            dispatch,
            Some(self.source.clone()),
            session::MAX_FRAMES,
        );
        *taken = Some(
            snap.map(|s| (h.pos, Digest::of(h.uc()), s))
                .map_err(|e| (EXIT_INTERNAL, format!("{e}; {BUG_REPORT}"))),
        );
        crate::debug::Resume::Kill
    }
}

/// `snapshot --resumable`: the run to the location is the debugger's
/// (as a resumed run's is), so that the position and digest written are
/// the ones a resume reaches.
fn snapshot_resumable(
    opts: &RunOpts,
    at: &str,
    out: &Path,
    files: &[PathBuf],
    args: &[String],
) -> i32 {
    if let Some(o) = not_kept(opts) {
        return fail(
            EXIT_LOAD,
            &format!(
                "snapshot --resumable: {o} names a host directory a checkpoint file does not hold"
            ),
        );
    }
    let Some(file) = files.first() else {
        return fail(EXIT_LOAD, "no program named");
    };
    let mut opts = opts.clone();
    let root = opts
        .dir
        .clone()
        .unwrap_or_else(|| super::own_directory(file));
    // Packed before the run: with --dir, the run writes there.
    let drive = match pack(&root) {
        Ok(f) => f,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let mut names = Vec::new();
    for f in files {
        match drive_path(&root, f) {
            Ok(p) => names.push(p),
            Err(e) => return fail(EXIT_LOAD, &e),
        }
    }
    // A checkpoint file's run is reproducible (debug/mod.rs, "Reverse
    // execution"): a fixed clock, standard input from a file or empty.
    let stdin = match &opts.stdin {
        Some(p) => {
            match crate::loader::read_capped(p, session::MAX_STDIN_BYTES, "standard input") {
                Ok(b) => b,
                Err(e) => return fail(EXIT_LOAD, &format!("--stdin {e}")),
            }
        }
        None => Vec::new(),
    };
    let messages = match &opts.messages {
        Some(p) => match crate::loader::read_capped(p, session::MAX_STDIN_BYTES, "--messages") {
            Ok(b) => Some(b),
            Err(e) => return fail(EXIT_LOAD, &e),
        },
        None => None,
    };
    if opts.clock.is_none() {
        opts.clock = Some(clock_text(crate::dos::clock::Clock::Host.now()));
    }
    let mut load = match super::debug::loader(&opts, files, args, false) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let taken = std::rc::Rc::<std::cell::RefCell<Option<Taken>>>::default();
    let taker = Taker {
        at: at.to_string(),
        source: source_of(at, files),
        started: false,
        taken: taken.clone(),
    };
    if let Err(e) = crate::debug::run_session_from(
        &mut load,
        Box::new(taker),
        super::limits(&opts),
        crate::debug::checkpoint::Options {
            memory: 0,
            every: 0,
        },
        0,
    ) {
        return fail(EXIT_LOAD, &e);
    }
    let name = file.display();
    let (position, digest, mut snap) = match taken.borrow_mut().take() {
        Some(Ok(t)) => t,
        Some(Err((code, e))) => return fail(code, &format!("{name}: {e}")),
        None => {
            return fail(
                EXIT_INTERNAL,
                &format!("{name}: the run to --at {at} was lost; {BUG_REPORT}"),
            );
        }
    };
    let (program, more) = names.split_first().expect("a program is named");
    let r = Resume {
        position,
        digest,
        program: program.clone(),
        more: more.to_vec(),
        args: args.to_vec(),
        drive: if opts.dir.is_some() {
            Drive::Dir
        } else {
            Drive::Program
        },
        options: RunOptions {
            clock: opts.clock.clone().unwrap_or_default(),
            max_insns: opts.max_insns,
            keys: opts.keys.clone(),
            mouse: opts.mouse.clone(),
            env: opts.env.clone(),
            stdin,
            messages,
            inject_fault: opts.inject_fault.clone(),
            display: opts.display.clone(),
            show: opts.show.clone(),
            disk_quota: opts.disk_quota,
            load: opts.load.clone(),
            entry: opts.entry.clone(),
        },
        files: drive,
    };
    snap.resume = Some(r.to_value());
    match write_snapshot(&opts, out, &snap) {
        Ok(()) => 0,
        Err(code) => code,
    }
}

/// A checkpoint file opened to be resumed: its program unpacked into a
/// temporary directory (removed when this is dropped), and the run
/// options, files and tail that load it there.
pub(crate) struct Resumed {
    /// The run options: the file's, with the command line's that do not
    /// change the run (--json, --quiet, --screen, --events, --timeout,
    /// --checkpoint-memory).
    pub opts: RunOpts,
    /// The programs, unpacked.
    pub files: Vec<PathBuf>,
    /// The command tail.
    pub args: Vec<String>,
    /// The stop's position.
    pub position: u64,
    /// The state there.
    pub digest: Digest,
    /// The checkpoint file.
    pub source: PathBuf,
    _dir: TempDir,
}

/// The command line's run options that a checkpoint file fixes, given
/// anyway: their names.
fn given_run_options(o: &RunOpts) -> Vec<&'static str> {
    let mut v = Vec::new();
    let mut given = |on: bool, name: &'static str| {
        if on {
            v.push(name);
        }
    };
    given(o.max_insns != 0, "--max-insns");
    given(o.load.is_some() || o.entry.is_some(), "--load/--entry");
    given(o.stdin.is_some(), "--stdin");
    given(!o.keys.is_empty(), "--keys");
    given(o.mouse.is_some(), "--mouse");
    given(o.clock.is_some(), "--clock");
    given(!o.env.is_empty(), "--env");
    given(o.messages.is_some(), "--messages");
    given(o.inject_fault.is_some(), "--inject-fault");
    given(!o.maps.is_empty() || !o.syms.is_empty(), "--map/--sym");
    given(o.dir.is_some(), "--dir");
    given(o.keep_writes.is_some(), "--keep-writes");
    given(o.disk_quota != 256 << 20, "--disk-quota");
    given(o.fonts.is_some(), "--fonts");
    given(o.display.is_some(), "--display");
    given(o.show.is_some(), "--show");
    given(o.windows.is_some(), "--windows");
    v
}

/// Open a checkpoint file to resume it with the command line's `opts`.
pub(crate) fn open(path: &Path, opts: &RunOpts) -> Result<Resumed, i32> {
    let given = given_run_options(opts);
    if !given.is_empty() {
        return Err(fail(
            EXIT_LOAD,
            &format!(
                "--resume {}: {} would change the run, whose options the checkpoint file holds",
                path.display(),
                given.join(", ")
            ),
        ));
    }
    let r = Resume::read(path).map_err(|e| fail(EXIT_LOAD, &e))?;
    let unpacked = || -> Result<Resumed, String> {
        let tmp = TempDir::new()?;
        let root = tmp.path().join("drive");
        std::fs::create_dir(&root).map_err(|e| format!("{}: {e}", root.display()))?;
        r.unpack(&root)?;
        let stdin = tmp.path().join("stdin");
        std::fs::write(&stdin, &r.options.stdin)
            .map_err(|e| format!("{}: {e}", stdin.display()))?;
        let messages = match &r.options.messages {
            Some(m) => {
                let p = tmp.path().join("messages");
                std::fs::write(&p, m).map_err(|e| format!("{}: {e}", p.display()))?;
                Some(p)
            }
            None => None,
        };
        let o = &r.options;
        let mut run = opts.clone();
        run.max_insns = o.max_insns;
        run.load = o.load.clone();
        run.entry = o.entry.clone();
        run.stdin = Some(stdin);
        run.keys = o.keys.clone();
        run.mouse = o.mouse.clone();
        run.clock = Some(o.clock.clone());
        run.env = o.env.clone();
        run.messages = messages;
        run.inject_fault = o.inject_fault.clone();
        run.dir = (r.drive == Drive::Dir).then(|| root.clone());
        run.disk_quota = o.disk_quota;
        run.display = o.display.clone();
        run.show = o.show.clone();
        let files = std::iter::once(&r.program)
            .chain(&r.more)
            .map(|p| root.join(p))
            .collect();
        Ok(Resumed {
            opts: run,
            files,
            args: r.args.clone(),
            position: r.position,
            digest: r.digest,
            source: path.to_path_buf(),
            _dir: tmp,
        })
    };
    unpacked().map_err(|e| fail(EXIT_LOAD, &format!("--resume {}: {e}", path.display())))
}

/// What a resumed session found at its first stop.
#[derive(Default)]
pub(crate) struct Checked {
    /// The state differed from the file's, or the stop was not at the
    /// file's position: the reason.
    pub refused: Option<String>,
}

/// The front end of a resumed session: at the first stop (the file's
/// position, or the program's end when it ends before) it compares the
/// state with the file's digest; on a difference it ends the session
/// and notes why, else it hands the stop to `inner` (None: detach, the
/// program runs on to its end as `run` runs it).
pub(crate) struct ResumeFront {
    inner: Option<Box<dyn Frontend>>,
    position: u64,
    digest: Digest,
    first: bool,
    checked: std::rc::Rc<std::cell::RefCell<Checked>>,
    quiet: bool,
    source: PathBuf,
}

impl ResumeFront {
    /// A front end resuming `r`, then serving `inner`.
    pub(crate) fn new(
        r: &Resumed,
        inner: Option<Box<dyn Frontend>>,
    ) -> (Self, std::rc::Rc<std::cell::RefCell<Checked>>) {
        let checked = std::rc::Rc::<std::cell::RefCell<Checked>>::default();
        (
            ResumeFront {
                inner,
                position: r.position,
                digest: r.digest,
                first: true,
                checked: checked.clone(),
                quiet: r.opts.quiet || r.opts.json,
                source: r.source.clone(),
            },
            checked,
        )
    }
}

impl Frontend for ResumeFront {
    fn stopped(&mut self, h: &mut Here<'_, '_>) -> crate::debug::Resume {
        if std::mem::take(&mut self.first) {
            let refused = if h.pos != self.position || !matches!(h.why, Why::Start) {
                Some(format!(
                    "the replay stopped at position {} ({}), not at the file's position {}",
                    h.pos,
                    crate::debug::views::describe(h),
                    self.position
                ))
            } else {
                Digest::of(h.uc()).differences(&self.digest).map(|d| {
                    format!(
                        "the replay reached position {} with another state than the file's: {d}",
                        self.position
                    )
                })
            };
            if let Some(why) = refused {
                self.checked.borrow_mut().refused = Some(why);
                return crate::debug::Resume::Kill;
            }
            if !self.quiet {
                tell(&format!(
                    "toolhelp16: resumed {} at position {} (registers, memory, screen, output \
                     and clock as the file says)\n",
                    self.source.display(),
                    self.position
                ));
            }
        }
        match &mut self.inner {
            Some(f) => f.stopped(h),
            None => crate::debug::Resume::Detach,
        }
    }

    fn interrupted(&mut self) -> bool {
        self.inner.as_mut().is_some_and(|f| f.interrupted())
    }

    fn gone(&self) -> bool {
        self.inner.as_ref().is_some_and(|f| f.gone())
    }
}

/// The error of a resume refused at its first stop.
pub(crate) fn refused(r: &Resumed, why: &str) -> i32 {
    fail(
        EXIT_MISMATCH,
        &format!(
            "--resume {}: {why}; not resumed (the run differs on this machine: another \
             toolhelp16, or other fonts)",
            r.source.display()
        ),
    )
}

/// `run --resume FILE`: the program run from the file's position to its
/// end, under the debugger's hook (which replays it to the position),
/// reported as `run` reports a run.
pub(super) fn run(opts: &RunOpts, path: &Path, screenshot: Option<&Path>) -> i32 {
    let r = match open(path, opts) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut load = match super::debug::loader(&r.opts, &r.files, &r.args, !r.opts.json) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (front, checked) = ResumeFront::new(&r, None);
    let outcome = crate::debug::run_session_from(
        &mut load,
        Box::new(front),
        super::limits(&r.opts),
        crate::debug::checkpoint::Options {
            memory: 0,
            every: 0,
        },
        r.position,
    );
    let o = match outcome {
        Ok(o) => o,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    if let Some(why) = &checked.borrow().refused {
        return refused(&r, why);
    }
    let (Some(prog), Some(stop)) = (o.program, o.stop) else {
        return fail(
            EXIT_INTERNAL,
            &format!(
                "--resume {}: the run was lost; {BUG_REPORT}",
                path.display()
            ),
        );
    };
    if let Err(code) = super::write_screenshots(&prog, screenshot, false) {
        return code;
    }
    if r.opts.json {
        let mut v = output::run_json(&prog, &stop);
        v.screen = r.opts.screen.then(|| prog.screen_text());
        (v.events, v.events_dropped) = super::events_json(&prog, &r.opts);
        print_json(&super::json::Doc::new("run", v));
    } else {
        tell(&output::run_text(&prog, &stop));
        super::say_events(&prog, &r.opts);
        if r.opts.screen {
            super::say(&prog.screen_text());
        }
    }
    exit_code(&stop)
}
