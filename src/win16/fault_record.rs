//! Every fault a Win16 task took in the run, recorded at the fault
//! (win16.md, "Faults"; README, "Faults").
//!
//! A fault is reported long after it happened: when the run stops, the
//! task that faulted may have been ended (by the default action, or by a
//! post-mortem tool's callback calling TerminateApp) and its modules
//! deleted, so their names, its code and its descriptors are gone. So
//! when a fault is offered ([`super::fault::offer`]) the run takes, there
//! and then, what a report of it says: the task, the faulting code's
//! module, NE segment number and symbol, the instruction, the segment
//! registers' descriptors, the task's stack bounds, and the walk from the faulting context —
//! StackTraceCSIPFirst with the faulting SS, CS, IP and BP, then
//! StackTraceNext until it fails, exactly the walk a TOOLHELP client's
//! fault callback takes (the Windows 3.1 SDK, "InterruptRegister": the
//! callback runs with the faulting task's registers) — with each frame's
//! module and symbol named.
//!
//! What became of the fault ([`Outcome`]) is set as it is decided: a
//! callback resumed it, a callback ended the task with TerminateApp, it
//! went to the module's GP handler, or nobody handled it (the Application
//! Error). At most [`MAX_RECORDS`] are kept; later ones are counted.

use crate::machine::{Fault, Uc};
use crate::walk::MAX_FRAMES;
use crate::walk::{Descriptor, Walk, WalkMemory, walk_from_csip};
use crate::win16::Env;

/// Most faults a run records (a callback restarting the same fault may
/// raise it many times).
pub const MAX_RECORDS: usize = 64;

/// What became of a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// An InterruptRegister callback took it and the task went on
    /// (resumed by IRET, or still inside the callback when the run
    /// stopped).
    Handled,
    /// An InterruptRegister callback ended the task with TerminateApp.
    Terminated,
    /// A general protection fault the module's C runtime declared a
    /// handler for (HasGPHandler) went to that handler.
    GpHandler,
    /// No callback handled it: Windows' default action, the Application
    /// Error (the task ended, or the run with it).
    Unhandled,
}

impl Outcome {
    /// The outcome's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Handled => "handled",
            Outcome::Terminated => "terminated",
            Outcome::GpHandler => "gp_handler",
            Outcome::Unhandled => "unhandled",
        }
    }

    /// The outcome in words, for the text report.
    pub fn words(self) -> &'static str {
        match self {
            Outcome::Handled => "caught by an InterruptRegister callback; the task went on",
            Outcome::Terminated => {
                "caught by an InterruptRegister callback, which ended the task (TerminateApp)"
            }
            Outcome::GpHandler => "handled by the module's GP handler (HasGPHandler)",
            Outcome::Unhandled => "not handled: Windows' Application Error",
        }
    }
}

/// A frame's names, taken at the fault.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameNames {
    /// The module of the frame's hModule.
    pub module: Option<String>,
    /// `NAME+0x12` (a return address named from the byte before it).
    pub symbol: Option<String>,
    /// The name as the symbol file spells it.
    pub symbol_raw: Option<String>,
    /// The source line, from the module's debug information.
    pub line: Option<crate::symbols::lines::SourceLine>,
    /// The function's parameters, their places and values at the fault.
    pub params: Vec<crate::symbols::lines::ParamValue>,
}

/// One fault, as it was when it happened.
#[derive(Debug, Clone)]
pub struct FaultRecord {
    /// The task that faulted, and its module's name.
    pub htask: u16,
    pub task_module: String,
    pub fault: Fault,
    pub outcome: Outcome,
    /// The faulting code's module, NE segment number and symbol.
    pub module: Option<String>,
    pub segment: Option<u16>,
    pub symbol: Option<String>,
    /// The faulting instruction's bytes (hex) and disassembly.
    pub instruction: Option<(String, String)>,
    /// CS, DS, ES and SS with their descriptors.
    pub segments: Vec<(&'static str, u16, Option<Descriptor>)>,
    /// The faulting task's stack bounds, when SS is its DGROUP:
    /// pStackTop, pStackMin (from the instance data) and pStackBot.
    pub stack: Option<(u16, u16, u16)>,
    /// The walk from the faulting context, and each frame's names.
    pub walk: Walk,
    pub frame_names: Vec<FrameNames>,
}

impl FaultRecord {
    /// Is this the record of fault `f` (the same place and registers)?
    pub fn is(&self, f: &Fault) -> bool {
        (
            self.fault.cs,
            self.fault.ip,
            self.fault.number,
            self.fault.regs,
        ) == (f.cs, f.ip, f.number, f.regs)
    }
}

/// The faults of a run, in order.
#[derive(Debug, Clone, Default)]
pub struct FaultLog {
    pub records: Vec<FaultRecord>,
    /// Faults past [`MAX_RECORDS`].
    pub dropped: u64,
}

impl FaultLog {
    /// The latest record of fault `f`.
    pub fn find(&self, f: &Fault) -> Option<&FaultRecord> {
        self.records.iter().rev().find(|r| r.is(f))
    }
}

/// The name of the module `hmodule`, while it is loaded.
fn module_name(env: &Env, hmodule: u16) -> Option<String> {
    env.win16.module_by_handle(hmodule).map(|m| m.name.clone())
}

/// Record fault `f` of the current task, taken now, before any callback
/// runs (its outcome: [`Outcome::Handled`] until [`set_outcome`] says
/// otherwise).
pub fn record(env: &mut Env, uc: &Uc<'_>, f: &Fault) {
    if env.win16.toolhelp.faults.records.len() >= MAX_RECORDS {
        env.win16.toolhelp.faults.dropped += 1;
        return;
    }
    let htask = uc.get_data().current_task;
    let mem = uc as &dyn WalkMemory;
    let walk = walk_from_csip(mem, f.regs.ss, f.cs, f.ip, f.regs.bp, MAX_FRAMES);
    let frame_names = walk
        .frames
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let sym = env.frame_symbol(mem, e.w_cs, e.w_ip, walk.exact_at(i));
            FrameNames {
                module: module_name(env, e.h_module),
                symbol: sym.as_ref().map(|s| s.to_string()),
                symbol_raw: sym.map(|s| s.raw),
                line: env.frame_line(mem, e.w_cs, e.w_ip, walk.exact_at(i)),
                params: env.frame_params(mem, e, walk.exact_at(i)),
            }
        })
        .collect();
    let owner = mem.code_owner(f.cs);
    let r = &f.regs;
    let rec = FaultRecord {
        htask,
        task_module: super::scheduler::task_name(env, htask),
        fault: f.clone(),
        outcome: Outcome::Handled,
        module: owner.and_then(|o| module_name(env, o.hmodule)),
        segment: owner.and_then(|o| o.segment),
        symbol: env.symbol_at(mem, f.cs, f.ip).map(|s| s.to_string()),
        instruction: crate::machine::exception::instruction(uc, f.cs, f.ip),
        segments: [("CS", r.cs), ("DS", r.ds), ("ES", r.es), ("SS", r.ss)]
            .into_iter()
            .map(|(n, sel)| (n, sel, mem.descriptor(sel)))
            .collect(),
        stack: env.win16.tasks.iter().find(|t| t.dgroup == r.ss).map(|t| {
            let (top, bot) = t.stack_bounds();
            (top, mem.read_u16(r.ss, 0x0C).unwrap_or(0), bot)
        }),
        walk,
        frame_names,
    };
    env.win16.toolhelp.faults.records.push(rec);
}

/// Fault `f` (its latest record) came to `outcome`.
pub fn set_outcome(env: &mut Env, f: &Fault, outcome: Outcome) {
    if let Some(r) = env
        .win16
        .toolhelp
        .faults
        .records
        .iter_mut()
        .rev()
        .find(|r| r.is(f))
    {
        r.outcome = outcome;
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn outcomes_have_distinct_names() {
        let all = [
            Outcome::Handled,
            Outcome::Terminated,
            Outcome::GpHandler,
            Outcome::Unhandled,
        ];
        let names: std::collections::BTreeSet<_> = all.iter().map(|o| o.name()).collect();
        assert_eq!(names.len(), all.len());
    }
}
