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
//! The behavioural contracts live in `../shared/spec/` (toolhelp.md,
//! win16.md, dbghelp.md); doc comments cite them where a rule comes from.

pub mod cli;
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
