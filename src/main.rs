//! The `toolhelp16` command: a thin layer over the library (src/cli/).

mod cli;

// The command line's modules name the library's as `crate::...`: these
// bind them at this crate's root.
use toolhelp16::{
    debug, disasm, dos, escape, loader, machine, report, serve, session, symbols, system, trace,
    walk, win16,
};

fn main() {
    machine::set_backstop(backstop);
    std::process::exit(cli::run_from_args(std::env::args_os()));
}

/// A run still going well past its wall-clock limit: the emulation was
/// stopped, but code of the emulated system itself kept running (a
/// loop in a DOS or Win16 function that did not end). The command ends
/// with the wall-clock status rather than hang (src/machine/watchdog.rs).
fn backstop(limit: std::time::Duration) {
    eprintln!(
        "toolhelp16: the wall-clock limit (--timeout {:.3} s) ran out {} s ago and the run did not \
         stop: a function of the emulated system (DOS, BIOS or Win16, run by toolhelp16 itself) \
         kept running; ended without a report",
        limit.as_secs_f64(),
        machine::GRACE.as_secs()
    );
    std::process::exit(123);
}
