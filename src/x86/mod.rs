//! The 16-bit x86's vocabulary that the machine and the stack walkers
//! share, below both (docs/architecture.md): the CPU mode, segment
//! descriptors and their byte layout, the register file, and the small
//! memory interface ([`WalkMemory`]) every walker reads through — the
//! machine implements it, and so does a snapshot of a run.

pub mod descriptor;
pub mod memory;
pub mod prologue;
mod regs;

pub use memory::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};
pub use regs::Regs;
