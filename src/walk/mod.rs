//! Stack walkers. They read memory only through [`WalkMemory`], so the same
//! code walks the live machine, a saved snapshot or a hand-built test buffer.

pub mod backtrace;
pub mod cache;
pub mod dispatch;
pub use crate::x86::memory;
pub use crate::x86::prologue;
pub mod snapshot;
pub mod stackframe;
pub mod testmem;
pub mod toolhelp;

/// The most frames a walk reports (a climbing chain has at most 32768).
pub const MAX_FRAMES: usize = 0x8000;

pub use memory::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};
pub use testmem::{StackCursor, TestMemory};
pub use toolhelp::{
    FirstFailure, FrameKind, Narrator, NextFailure, Rule, StackTraceEntry, StopReason, Walk,
    no_chain_at_start, stack_bounds, stack_trace_csip_first, stack_trace_first,
    stack_trace_first_explained, stack_trace_info, stack_trace_next, stack_trace_next_explained,
    stack_trace_next_narrated, walk_from_csip, walk_from_csip_narrated, walk_task,
};
