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
//! and DOS (`docs/dos.md`). Doc comments cite where each fact comes from.

pub mod cli;
pub mod debug;
pub mod disasm;
pub mod dos;
pub mod env;
pub mod escape;
pub mod loader;
pub mod machine;
pub mod report;
pub mod session;
pub mod symbols;
pub mod trace;
pub mod walk;
pub mod win16;
