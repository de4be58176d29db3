//! `trace`, `profile` and `stack --verify`: the commands over the machine's
//! observers (src/trace/).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::{EXIT_LOAD, RunOpts, exit_code, fail, load_and_run_with, output};
use crate::machine::{Cpu, R};
use crate::session::{Loc, Program};
use crate::trace::profile::Profiler;
use crate::trace::shadow::ShadowStack;
use crate::trace::{Syntax, TraceOptions, Tracer};
use crate::walk::WalkMemory;

/// The linear address of LOC in the loaded program.
fn linear_of(p: &Program, text: &str) -> Result<u64, String> {
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
}

/// `toolhelp16 trace`.
pub fn trace(opts: &RunOpts, files: &[PathBuf], args: &[String], t: TraceArgs) -> i32 {
    if let Some(path) = &t.html {
        return trace_html(opts, files, args, &t, path);
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
    }
    super::tell(&output::run_text(&prog, &stop));
    super::tell_events(&prog, opts);
    if opts.screen {
        super::tell(&prog.screen_text());
    }
    exit_code(&stop)
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
        notes.push(format!(
            "--max {asked} was lowered to {HARD_MAX}: a page holds at most {HARD_MAX} steps"
        ));
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
        p.machine.watch_instructions().map_err(|e| e.0)
    };
    let to = to_loc.as_ref().map(|l| (l, t.to.as_deref().unwrap_or("")));
    let (mut prog, stop) = match load_and_run_with(opts, files, args, false, to, &mut setup) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Some(mut rec) = prog.machine.take_observer::<StepRecorder>() else {
        return fail(EXIT_LOAD, "the step recorder was lost");
    };
    rec.finish(&prog.machine);
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
