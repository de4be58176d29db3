//! Stack walkers. They read memory only through [`WalkMemory`], so the same
//! code walks the live machine, a saved snapshot or a hand-built test buffer.

pub mod memory;
pub mod toolhelp;

pub use memory::{CodeOwner, CpuMode, Descriptor, MemError, WalkMemory};
