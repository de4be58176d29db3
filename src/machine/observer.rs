//! Observers that watch execution a translation block at a time
//! (src/trace/) and how the machine tells them what happens.

use super::{Fault, R, Stop, Uc, counter, with_host};
use crate::machine::Cpu;

/// Something that watches execution a translation block at a time
/// (src/trace/: the tracer, the shadow call stack, the profiler). Called
/// from unicorn's hooks: it must be quick, and it sees the machine only to
/// read it.
pub trait Observer: std::any::Any {
    /// A translation block of `size` bytes at linear `addr` is entered with
    /// CS:IP at its first instruction. Returning a stop ends the run.
    fn on_block(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<Stop>;

    /// The environment is about to enter program code at `target` without a
    /// call instruction (a callback from a system function), with the far
    /// return address `ret` at SS:SP = `sp`.
    fn on_call(&mut self, _uc: &Uc<'_>, _target: (u16, u16), _ret: (u16, u16), _ss: u16, _sp: u16) {
    }

    /// The instruction at the fault's CS:IP faulted: it ran no further.
    fn on_fault(&mut self, _uc: &Uc<'_>, _fault: &Fault) {}

    /// One instruction is about to run (only after
    /// [`Machine::watch_instructions`]).
    fn on_insn(&mut self, _uc: &Uc<'_>, _addr: u64, _size: u32) {}

    /// Does it need [`Observer::on_block`]? An observer of faults and
    /// calls alone (the debugger's) says no: it then costs the machine no
    /// hook call per block (counter.rs).
    fn watches_blocks(&self) -> bool {
        true
    }
}

/// Lend the observers to `f` (they live in the machine's state, which `f`
/// also reads through `uc`).
pub(super) fn with_observers<R>(
    uc: &mut Uc<'_>,
    f: impl FnOnce(&mut Uc<'_>, &mut [Box<dyn Observer>]) -> R,
) -> R {
    let mut obs = std::mem::take(&mut uc.get_data_mut().observers);
    let r = f(uc, &mut obs);
    uc.get_data_mut().observers = obs;
    r
}

/// Tell the observers that the environment calls into the program (see
/// [`Observer::on_call`]).
pub fn note_call(uc: &mut Uc<'_>, target: (u16, u16), ret: (u16, u16)) {
    if uc.get_data().observers.is_empty() {
        return;
    }
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    with_observers(uc, |uc, obs| {
        for o in obs {
            o.on_call(uc, target, ret, ss, sp);
        }
    });
}

pub(super) fn note_fault(uc: &mut Uc<'_>, f: &Fault) {
    if uc.get_data().observers.is_empty() {
        return;
    }
    with_observers(uc, |uc, obs| {
        for o in obs {
            o.on_fault(uc, f);
        }
    });
}

pub(super) fn on_insn(uc: &mut Uc<'_>, addr: u64, size: u32) {
    counter::inline_off(uc);
    with_host(uc, |uc| {
        with_observers(uc, |uc, obs| {
            for o in obs {
                o.on_insn(uc, addr, size);
            }
        })
    });
}
