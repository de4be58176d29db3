//! Load a program, run it to a place, walk its stack as TOOLHELP's
//! StackTraceCSIPFirst / StackTraceNext would, and print the frames.
//!
//! ```sh
//! cargo run --example walk                       # the bundled demo
//! cargo run --example walk -- FILE LOC           # e.g. roms/mzfar.exe MZFAR!leaf_stop
//! ```
//!
//! LOC is the command line's: `MODULE:SEG:OFF`, `SEG:OFF`, `MODULE!NAME`,
//! `MODULE!#N` or `+N` (after N instructions).

use std::error::Error;

use toolhelp16::machine::RunLimits;
use toolhelp16::session::{self, LoadOptions, Loc};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = LoadOptions::default();
    // A program from a file, or the demo from bytes (no file needed).
    let (mut program, at) = match args.as_slice() {
        [file, at] => (session::load(file.as_ref(), &opts)?, at.clone()),
        [] => {
            let demo = include_bytes!("../roms/demo.exe");
            // PaintLine's first instruction after its prologue: segment 1,
            // offset 3A (roms/demo.asm).
            (
                session::load_bytes("DEMO.EXE", demo, &opts)?,
                "DEMO:1:003A".to_string(),
            )
        }
        _ => return Err("usage: walk [FILE LOC]".into()),
    };
    let loc: Loc = at.parse()?;
    let stop = program.run(RunLimits::default(), Some(&loc))?;
    let walk = program
        .walk_at_stop(&stop)
        .ok_or("the program ended before it reached LOC")?;
    println!("{}: stopped ({stop:?})", program.path.display());
    println!("  #  SS:BP      CS:IP      module    seg  kind  symbol");
    for (i, f) in walk.frames.iter().enumerate() {
        let module = program.module_name(f).unwrap_or_else(|| "-".into());
        let symbol = program
            .frame_symbol(&walk, i)
            .map_or_else(|| "-".to_string(), |s| s.to_string());
        let kind = if f.w_flags == toolhelp16::walk::StackTraceEntry::FRAME_NEAR {
            "near"
        } else {
            "far"
        };
        println!(
            "{i:>3}  {:04X}:{:04X}  {:04X}:{:04X}  {module:<8}  {:>3}  {kind:<4}  {symbol}",
            f.w_ss, f.w_bp, f.w_cs, f.w_ip, f.w_segment
        );
    }
    println!("walk ended: {}", walk.stop);
    Ok(())
}
