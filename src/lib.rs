//! toolhelp16: run 16-bit x86 programs (Win16 NE, DOS COM/MZ, boot sectors,
//! ROM images) on an emulated CPU and tell where they are, the way Windows
//! 3.1's TOOLHELP.DLL did.
//!
//! Data flows one way:
//!
//! ```text
//! bytes --loader--> Image --> Machine (unicorn) --> Environment (DOS, Win16)
//!       --> run / break / fault
//! Machine memory --> walk (ToolHelp) --> frames --> report (text, JSON,
//!       SVG and HTML pictures: src/report/)
//! ```
//!
//! The rules the tool follows are written down in the repository's
//! `docs/`: the stack walk (`docs/walk.md`), Win16 tasks and NE files
//! (`docs/win16.md`), STACKFRAME and ADDRESS modes (`docs/stackframe.md`)
//! and DOS (`docs/dos.md`); the modules' layers in `docs/architecture.md`.
//! Doc comments cite where each fact comes from.
//!
//! # Using the library
//!
//! Load a program ([`session::load`] from a path, [`session::load_bytes`]
//! from memory), run it to a place ([`session::Program::run`] with a
//! [`session::Loc`]), and walk its stack ([`session::Program::walk_at_stop`]:
//! StackTraceCSIPFirst, then StackTraceNext, as [`walk::StackTraceEntry`]
//! frames). `examples/walk.rs` does exactly that:
//!
//! ```no_run
//! use toolhelp16::machine::RunLimits;
//! use toolhelp16::session::{self, LoadOptions, Loc};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read("roms/demo.exe")?;
//! let mut program = session::load_bytes("DEMO.EXE", &bytes, &LoadOptions::default())?;
//! let at: Loc = "DEMO:1:003A".parse()?;
//! let stop = program.run(RunLimits::default(), Some(&at))?;
//! for frame in program.walk_at_stop(&stop).map(|w| w.frames).unwrap_or_default() {
//!     println!("{:04X}:{:04X} BP {:04X}", frame.w_cs, frame.w_ip, frame.w_bp);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Loading fails with a typed [`session::LoadFailure`]: a malformed file is
//! [`session::LoadFailure::Format`] with the loader's [`loader::LoadError`]
//! (offset, field, what was wrong).

#![warn(missing_docs)]

/// The version of the JSON every `--json` output carries in its
/// `version` member (docs/schema/): raised when a member changes meaning
/// or goes away, not when one is added.
pub const JSON_VERSION: u32 = 1;

pub mod debug;
pub mod disasm;
// The emulated DOS and Win16 environments are documented by concept in
// docs/dos.md and docs/win16.md and by their modules' own docs; their
// many structure fields and API functions (one per Windows function) are
// not all documented item by item yet, so the lint is off there only.
#[allow(missing_docs)]
pub mod dos;
// DOS's drive C: (it was dos::fs; documented as dos is).
#[allow(missing_docs)]
pub mod dosfs;
pub mod env;
pub mod escape;
pub mod loader;
pub mod machine;
pub mod pngfile;
pub mod report;
pub mod serve;
pub mod session;
pub mod symbols;
pub mod system;
pub mod trace;
pub mod walk;
#[allow(missing_docs)]
pub mod win16;
pub mod x86;
