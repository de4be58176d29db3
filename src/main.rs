//! The `toolhelp16` command: a thin layer over the library (src/cli/).

mod cli;

// The command line's modules name the library's as `crate::...`: these
// bind them at this crate's root.
use toolhelp16::{
    debug, disasm, dos, escape, loader, machine, report, serve, session, symbols, system, trace,
    walk, win16,
};

fn main() {
    std::process::exit(cli::run_from_args(std::env::args_os()));
}
