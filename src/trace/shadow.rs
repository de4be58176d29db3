//! The shadow call stack: the true chain of activations, kept from the
//! instructions that ran, whatever BP says (`stack --verify`, `profile`).
//!
//! Rules, applied at every translation block the CPU enters:
//!
//! 1. **Returns.** Activations live on the stack segment they were made
//!    on (one chain per SS, so each task has its own and a task switch
//!    needs no special case). An activation ends when SP rises above the
//!    SP its call left (the slot of its return address): `ret`, `retf N`,
//!    `iret`, and also a `Throw` or a task's end, which unwind without
//!    returning.
//! 2. **Calls.** When the block that ran before ended in a near or far
//!    `call` or an `int` and the CPU did not simply go on after it (an
//!    `int` the environment serves in Rust returns at once), an activation
//!    starts: the function at CS:IP, the return address after the call
//!    instruction, and SP.
//! 3. **Calls without a call instruction.** A system function calling the
//!    program back (a window procedure, a fault callback) builds the return
//!    address itself and reports it ([`crate::machine::note_call`]).
//! 4. A fault ends the block early: the call that might have ended it did
//!    not run.

use std::collections::HashMap;

use super::blocks::{Blocks, Flow};
use crate::machine::{Cpu, Fault, Observer, R, Stop, Uc};

/// One activation: a function called and not yet returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Activation {
    /// The function's entry CS:IP.
    pub entry: (u16, u16),
    /// Where it returns to.
    pub ret: (u16, u16),
    /// SP after the call pushed the return address.
    pub sp: u16,
    /// How it was called.
    pub how: How,
}

/// How an activation began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    /// A near CALL.
    NearCall,
    /// A far CALL.
    FarCall,
    /// An interrupt (INT or a hardware one).
    Interrupt,
    /// Called by the environment (rule 3).
    Callback,
}

/// At most this many activations per stack are kept (a runaway recursion
/// overflows the emulated stack long before).
const MAX_DEPTH: usize = 1 << 16;

/// The shadow call stack: an [`Observer`].
#[derive(Default)]
pub struct ShadowStack {
    blocks: Blocks,
    /// Activations by SS, outermost first.
    pub stacks: HashMap<u16, Vec<Activation>>,
    /// The block that ran last (index in `blocks`) and the SS it ran on.
    last: Option<(usize, u16)>,
    /// Instructions counted (whole blocks).
    pub insns: u64,
}

impl ShadowStack {
    /// An empty shadow stack.
    pub fn new() -> ShadowStack {
        ShadowStack::default()
    }

    /// The activations on stack segment `ss`, outermost first.
    pub fn chain(&self, ss: u16) -> &[Activation] {
        self.stacks.get(&ss).map_or(&[], |v| v.as_slice())
    }

    fn unwind(&mut self, ss: u16, sp: u16) {
        if let Some(v) = self.stacks.get_mut(&ss) {
            while v.last().is_some_and(|a| a.sp < sp) {
                v.pop();
            }
        }
    }

    fn push(&mut self, ss: u16, a: Activation) {
        let v = self.stacks.entry(ss).or_default();
        if v.len() < MAX_DEPTH {
            v.push(a);
        }
    }
}

impl Observer for ShadowStack {
    fn on_block(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<Stop> {
        let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
        self.unwind(ss, sp);
        // A call keeps SS; a change of SS after an `int` is a task switch
        // inside a system function, not a call.
        if let Some(k) = self.last.take().filter(|l| l.1 == ss).map(|l| l.0) {
            let b = &self.blocks.blocks[k];
            if let Some(last) = b.insns.last() {
                let next = last.ip.wrapping_add(u16::from(last.len));
                let how = match last.flow {
                    Flow::NearCall => Some(How::NearCall),
                    Flow::FarCall => Some(How::FarCall),
                    Flow::Int => Some(How::Interrupt),
                    _ => None,
                };
                if let Some(how) = how.filter(|_| (cs, ip) != (b.cs, next)) {
                    self.push(
                        ss,
                        Activation {
                            entry: (cs, ip),
                            ret: (b.cs, next),
                            sp,
                            how,
                        },
                    );
                }
            }
        }
        let k = self.blocks.enter(uc, addr, size, cs, ip)?;
        self.insns += self.blocks.blocks[k].insns.len() as u64;
        self.last = Some((k, ss));
        None
    }

    fn on_call(&mut self, _uc: &Uc<'_>, target: (u16, u16), ret: (u16, u16), ss: u16, sp: u16) {
        self.unwind(ss, sp);
        self.push(
            ss,
            Activation {
                entry: target,
                ret,
                sp,
                how: How::Callback,
            },
        );
        // The block that ran last did not call anything.
        self.last = None;
    }

    fn on_fault(&mut self, _uc: &Uc<'_>, _f: &Fault) {
        self.last = None;
    }
}
