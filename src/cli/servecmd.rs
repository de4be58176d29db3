//! `serve`: the run as web pages (src/serve/), for a program loaded with
//! the run options, or for a recording whose program is run again as the
//! recording names it.

use std::path::{Path, PathBuf};

use super::{EXIT_LOAD, RunOpts, fail};
use crate::trace::record::{Reader, Record};

/// The instructions a recording's end record counts (None: not counted,
/// or the recording was cut short).
fn recorded_instructions(mut reader: Reader) -> Result<Option<u64>, String> {
    loop {
        match reader.next_record().map_err(|e| e.to_string())? {
            Some(Record::End(end)) => return Ok(end.instructions),
            Some(_) => {}
            None => return Ok(None),
        }
    }
}

/// `serve [--listen ADDR] (PROGRAM | --recording FILE)`.
pub fn serve(
    opts: &RunOpts,
    listen: &str,
    recording: Option<&Path>,
    files: &[PathBuf],
    args: &[String],
) -> i32 {
    let addr = match crate::debug::gdb::listen_address(listen) {
        Ok(a) => a,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let mut limits = super::limits(opts);
    let (ropts, rfiles, rargs, rec) = match recording {
        None => {
            if files.is_empty() {
                return fail(EXIT_LOAD, "serve: name a program, or --recording FILE");
            }
            (opts.clone(), files.to_vec(), args.to_vec(), None)
        }
        Some(path) => {
            let reader = match Reader::open(path) {
                Ok(r) => r,
                Err(e) => return fail(EXIT_LOAD, &e.to_string()),
            };
            let header = reader.header.clone();
            let (ropts, rfiles, rargs, _) = match super::tracecmd::recorded_command(&header) {
                Ok(c) => c,
                Err(e) => return fail(EXIT_LOAD, &format!("{}: {e}", path.display())),
            };
            let instructions = match recorded_instructions(reader) {
                Ok(n) => n,
                Err(e) => return fail(EXIT_LOAD, &e),
            };
            // The recording's paths are relative to the directory it was
            // made in; a recording brought from elsewhere is looked at
            // from its own directory.
            if let Err(e) = super::tracecmd::enter_recorded_dir(&header) {
                let own = std::path::absolute(path)
                    .ok()
                    .and_then(|p| p.parent().map(Path::to_path_buf));
                match own {
                    Some(d) if std::env::set_current_dir(&d).is_ok() => eprintln!(
                        "toolhelp16: {}: {e}; the program is looked for from {}",
                        path.display(),
                        d.display()
                    ),
                    _ => return fail(EXIT_LOAD, &format!("{}: {e}", path.display())),
                }
            }
            // The recorded run's budget ends the replay where it ended.
            if ropts.max_insns != 0 {
                limits.max_insns = ropts.max_insns;
            }
            let rec = crate::serve::Recording {
                file: path.display().to_string(),
                instructions,
            };
            (ropts, rfiles, rargs, Some(rec))
        }
    };
    let title = rfiles
        .first()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    let mut load = match super::debug::loader(&ropts, &rfiles, &rargs, true) {
        Ok(l) => l,
        Err(code) => return code,
    };
    // Load once before listening: a program that cannot be loaded is
    // said before anyone opens the page.
    let first = match load() {
        Ok(p) => p,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let mut first = Some(first);
    let mut again = move || match first.take() {
        Some(p) => Ok(p),
        None => load(),
    };
    let cfg = crate::serve::Config {
        listen: addr,
        title,
        recording: rec,
    };
    match crate::serve::serve(&mut again, cfg, limits) {
        Ok(o) => {
            eprintln!(
                "toolhelp16: serve ended after {} instructions{}",
                o.position,
                match &o.stop {
                    Some(s) => format!(": {}", super::output::describe(s)),
                    None => String::new(),
                }
            );
            match &o.stop {
                Some(s) => super::exit_code(s),
                None => 0,
            }
        }
        Err(e) => fail(EXIT_LOAD, &e),
    }
}
