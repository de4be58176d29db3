//! The debugger: breakpoints, single steps, watchpoints, faults as
//! signals, and reverse execution by deterministic replay, for two
//! front ends: a gdb remote stub ([`gdb`]) and a command session (the
//! `debug` command, src/cli/debug.rs).
//!
//! **Where the debugger runs.** A Win16 program's window procedures run
//! in nested emulations, started from inside the system function that
//! calls them (machine/run.rs, `run_nested`): a stop that unwound the
//! emulation there could never be resumed. So the debugger never stops
//! the emulation to talk to its user: a code hook on every instruction
//! decides whether to stop *before* that instruction runs, and when it
//! does it serves its front end from inside the hook (the gdb packets, or
//! the session's commands) until the user resumes; then the hook returns
//! and the instruction runs. Breakpoints at any depth of callbacks, steps
//! into and out of window procedures, and stops in the middle of a system
//! function's callback all work the same. The hook per instruction makes
//! a debugged program ten to twenty times slower than a plain run, so it
//! is installed only while something needs it ("Hooks").
//!
//! **Hooks.** While the session only continues to breakpoints and
//! watchpoints, or replays ("Reverse execution") — no single step, and
//! no position stop (a position breakpoint, the instruction budget, a
//! replay's target) a few thousand instructions ahead or nearer
//! ([`NEAR_POSITION`](hooks::NEAR_POSITION)) — in a Win16 program (protected mode, nested emulations
//! included) or a DOS one, keeping time or not ([`may_run_fast`](hooks::may_run_fast)), the
//! instruction hook is given up for a
//! code hook on each breakpoint's address (and the one-time stop's of
//! `next` and `finish`), one address each, so that code elsewhere runs
//! as in a plain run. A stop's position is then the machine's count of
//! instructions completed (machine/counter.rs, exact at a code hook) plus
//! an offset fixed when the instruction hook was given up, and moved by
//! one at each fault (a faulting instruction counts as started, not as
//! completed). Going either way happens at a stop: the block running
//! then was translated with the hooks as they were, so the emulation is
//! stopped before the stop's instruction and goes on at once from there
//! (machine/debug.rs, `interrupt_here`; the machine settles its count
//! and clock so that nothing sees the difference). A stop where the
//! machine cannot be changed (a fault) leaves the change to the next
//! point between two emulations ([`between`]). Without the instruction
//! hook, the machine's counting hook stops the run where a block starts
//! every [`POLL_INSNS`] instructions (machine/debug.rs, `poll_every`; on
//! the emulation's own thread, so nothing is left half done and no stop
//! can be taken for the program's HLT), and at most every [`POLL_EVERY`]
//! the front end is asked whether the user interrupted it; the
//! wall-clock limit is looked at each time. tests/debug_fast.rs runs
//! sessions both ways and compares them line for line.
//!
//! A watchpoint is a memory hook on its range alone (the engine calls it
//! only for accesses there, though any memory hook sends every access
//! down the engine's slower path). With the instruction hook, an access
//! is noted and the next instruction's hook stops; without it, the
//! memory hook has the engine put the accessing instruction back
//! (machine/debug.rs, `redo_insn`, vendor patch 0013) and [`between`]
//! runs it again with the instruction hook, which stops after it; the
//! stop's `arrange` then gives the hook up again. In real and protected
//! mode (Win16, nested emulations included) alike ([`may_run_fast`](hooks::may_run_fast)).
//!
//! **Positions.** The hook counts the instructions it sees: a stop is at
//! *position* N when N instructions were started before it (the first
//! instruction of the program is position 0). An instruction that faults
//! counts as started; a `REP` string instruction counts once per
//! repetition (each repetition passes the hook, as each one takes the
//! 8086's single-step trap).
//!
//! **Reverse execution** (`reverse-stepi`, `reverse-continue`, `goto`)
//! replays the run from the nearest checkpoint before the wanted
//! position ([`checkpoint`]): the program is loaded again, with the same
//! options, the checkpoint's state is put into it (CPU, memory, the
//! machine's and the environment's state, the drive's files), and it runs
//! without stopping to the wanted position (one instruction back; or the
//! last breakpoint, watchpoint or fault before the current position,
//! found by a replay that records them: from the nearest checkpoint, and
//! when that stretch holds none, from the checkpoint before it, and so
//! on back to the start). Checkpoints are taken between two emulations
//! of the top-level run every few hundred thousand positions (the
//! interval adapts; their memory is bounded by `--checkpoint-memory`,
//! the oldest thinned out first), so a step back costs at most one
//! interval of running, wherever the run is; without checkpoints
//! (`--checkpoint-memory 0`) the program's loaded state is the only one
//! and a step back costs a run from the start. Running without the
//! instruction hook ("Hooks"), checkpoints are taken at the poller's
//! stops, which come where one is due ([`poll_distance`]).
//!
//! A replay runs without the instruction hook too, where the count
//! without it is exact (the patched engine,
//! [`crate::machine::debug::EXACT_COUNT`]; the unpatched engine replays
//! with the hook all the way): its first instruction passes the hook,
//! and from there the program runs with the breakpoints' code hooks
//! until [`NEAR_POSITION`](hooks::NEAR_POSITION) before the replay's next *position stop*
//! ([`next_position_stop`](hooks::next_position_stop): its target, or the end of the stretch a
//! search back looks at, the next change from the debugger it makes
//! again, a position breakpoint a search notes, the instruction budget),
//! then with the hook to it exactly, as for a position breakpoint; past a
//! change, far from the next stop, it gives the hook up again. What the
//! hook did on the way is done without it: a replay to a position passes
//! breakpoints and watched accesses by (no code hooks; the watchpoints'
//! memory hooks keep quiet); a search back notes a breakpoint hit at the
//! position its code hook gives, a fault at the fault observer's, and a
//! watched access by running its instruction again with the hook
//! (`redo_insn`, as a continue does), at most [`REPLAY_REDOS`] times,
//! after which the rest of that replay keeps the hook; the wall-clock
//! limit is looked at each poll. `TOOLHELP16_ALWAYS_HOOK=1` keeps the
//! hook all the time (tests/replay_fast.rs compares sessions both ways).
//! What keeps the replay identical:
//!
//! * the emulated clock counts instructions, never the host's time
//!   (machine/time.rs): GetTickCount, the BIOS tick count and the timer
//!   interrupts fall at the same instructions in every run;
//! * the date and time DOS and Windows report are fixed for the session
//!   (the time it started, unless `--clock` gives one);
//! * input is scripted (`--keys`, `--mouse`, `--messages`) and standard
//!   input comes from `--stdin FILE` or is empty, never from the
//!   terminal;
//! * without `--dir`, the program's writes go to an overlay that every
//!   load starts empty; with `--dir` a replay sees the files as the
//!   first run left them, and can differ;
//! * register and memory changes made from the debugger are recorded
//!   with their position and made again by the replay (those after the
//!   position the replay returns to are forgotten: going back rewrites
//!   history from there); a change drops the checkpoints after its
//!   position, and a replay from a checkpoint makes only the changes at
//!   or after the checkpoint's position (the earlier ones are in it);
//! * a checkpoint restored goes on as the emulation that started at its
//!   position (machine/checkpoint.rs): the same clock, count, pending
//!   timer tick and memory, the translated code dropped; the checkpoint
//!   taken there had stopped the emulation and started another at the
//!   same place, which the machine's loop does for any stop that only
//!   interrupts.
//!
//! **Limits.** `--max-insns` and `--timeout` hold for the whole session,
//! as for `run`, whatever the user does: continue, step, go back, or
//! detach. The debugger's hook keeps them, not the machine's counters
//! (which start again with every run, and would count the time the user
//! spends at a stop). The instruction budget is a position: no
//! instruction at position `--max-insns` or beyond runs, in the first run
//! or in a replay. The wall-clock limit is on the time the program runs
//! (replays included), summed over the session; the time it waits at a
//! stop for its user or client is not counted (the hook reads the
//! clock every 256 instructions). A limit ends the program as it ends a
//! run (`Stop::Budget`, `Stop::Timeout`): the front end sees the end (gdb
//! a `T18`, SIGXCPU, then `X18` if it resumes; `debug` prints it), can
//! look at it and go back (a replay that runs out of time ends at the
//! limit again), and the session's exit status is the limit's (122 or
//! 123) even when the user then quits. After a detach the hook still
//! counts and stops the program at either limit. `--disk-quota` is the
//! loader's (every load, replays included, gets it).

mod budget;
pub mod checkpoint;
pub mod checkpoint_file;
pub mod gdb;
mod here;
mod hooks;
pub mod monitor;
pub mod rsp;
pub mod source;
pub mod views;

use budget::Budget;
pub use here::Here;
use here::{UcRef, apply};
use hooks::{REPLAY_REDOS, may_run_fast, poll_distance, position_stop_near};

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use unicorn_engine::RegisterX86;
use unicorn_engine::unicorn_const::{HookType, MemType};

use crate::machine::{Cpu, Fault, R, RunLimits, Stop, Uc};
use crate::session::Program;
use crate::system::Env;

/// Why the program stopped in the debugger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The program is loaded and has not run yet.
    Start,
    /// A single step ended.
    Step,
    /// A breakpoint: the instruction at the stop has not run.
    Breakpoint,
    /// A watchpoint: the instruction before the stop accessed the
    /// watched memory at `addr` (linear).
    Watch {
        /// What the watchpoint watches for.
        kind: WatchKind,
        /// The linear address accessed.
        addr: u64,
    },
    /// A processor fault, before the environment (TOOLHELP's dispatch, a
    /// DOS handler) sees it; registers as before the faulting instruction.
    Fault(Fault),
    /// The user interrupted the running program.
    Interrupted,
    /// Reverse execution reached the start of the recorded history.
    HistoryStart,
    /// The program ended: it exited, or stopped in a way it cannot go on
    /// from (an unhandled fault, an unimplemented function, ...).
    Ended(Stop),
}

/// What a watchpoint watches for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WatchKind {
    /// A write to the memory (gdb's `watch`).
    Write,
    /// A read of it (`rwatch`).
    Read,
    /// A read or a write (`awatch`).
    Access,
}

impl WatchKind {
    /// `write`, `read`, `access`.
    pub fn word(self) -> &'static str {
        match self {
            WatchKind::Write => "write",
            WatchKind::Read => "read",
            WatchKind::Access => "access",
        }
    }

    /// gdb's name of the stop reason (`watch`, `rwatch`, `awatch`).
    pub fn gdb_name(self) -> &'static str {
        match self {
            WatchKind::Write => "watch",
            WatchKind::Read => "rwatch",
            WatchKind::Access => "awatch",
        }
    }
}

/// What the user wants after a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Run on to the next stop.
    Continue,
    /// Run one instruction.
    Step,
    /// Go back one instruction (replay).
    ReverseStep,
    /// Go back to the previous stop (replay).
    ReverseContinue,
    /// Go back to position N (replay).
    GoTo(u64),
    /// End the program and the session.
    Kill,
    /// Let the program run on, undebugged, to its end.
    Detach,
}

/// A watchpoint: `len` bytes at linear `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Watch {
    /// What it watches for.
    pub kind: WatchKind,
    /// The first byte watched (linear).
    pub addr: u64,
    /// Bytes watched.
    pub len: u64,
}

/// A one-time stop the command session sets for `next` and `finish`:
/// at linear `addr` once SP is at least `min_sp` with SS `ss` (the frame
/// that asked has returned or the call came back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TempBreak {
    /// Where to stop (linear).
    pub addr: u64,
    /// The stack segment of the frame that asked.
    pub ss: u16,
    /// The lowest SP at which the stop counts.
    pub min_sp: u16,
}

/// A change made from the debugger, made again by a replay.
#[derive(Debug, Clone, PartialEq)]
enum Edit {
    Reg(RegisterX86, u64),
    Mem(u64, Vec<u8>),
}

/// Where a replay goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Replay {
    /// To position N, stopping there for `why`.
    To(u64, Why),
    /// To position `limit`, noting the last stop before it; then to that.
    Search { limit: u64, found: Option<u64> },
}

impl Replay {
    /// A search back met a stop (a breakpoint, a watched access, a
    /// fault) at `pos`: noted when before its limit, the last one kept.
    fn note(&mut self, pos: u64) {
        if let Replay::Search { limit, found } = self
            && pos < *limit
        {
            *found = Some(found.map_or(pos, |f| f.max(pos)));
        }
    }
}

/// The debugger's state that lives across replays (module notes).
#[derive(Debug, Default)]
pub struct Control {
    /// Instructions started in this run (module notes, "Positions").
    count: u64,
    /// Breakpoints, by linear address.
    pub breakpoints: BTreeSet<u64>,
    /// Breakpoints at positions (`+N`: before the instruction at
    /// position N).
    pub position_breaks: BTreeSet<u64>,
    /// The one-time stop of `next` or `finish`, if any.
    pub temp: Option<TempBreak>,
    watches: Vec<(Watch, Option<unicorn_engine::UcHookId>)>,
    stepping: bool,
    replay: Option<Replay>,
    edits: Vec<(u64, Edit)>,
    next_edit: usize,
    restart: Option<Replay>,
    killed: bool,
    detached: bool,
    /// The last fault reported, its linear CS:IP, and whether that
    /// instruction ran again since: the machine offers a fault once more
    /// on its way out of a nested emulation (win16/fault.rs,
    /// `final_stop`), which is not a new fault.
    last_fault: Option<(Fault, u64)>,
    fault_refired: bool,
    /// The program's console echo, as the first load set it (replays
    /// keep it off until they reach their target).
    echo: bool,
    /// The session's limits and what it used of them (module notes,
    /// "Limits").
    budget: Budget,
    /// Running without the instruction hook (module notes, "Hooks"): a
    /// position is this plus the machine's count of instructions
    /// completed in the run.
    fast: Option<u64>,
    /// The instruction hook, while installed.
    insn_hook: Option<unicorn_engine::UcHookId>,
    /// The code hooks on the breakpoints' (and the one-time stop's)
    /// addresses, one address each.
    bp_hooks: Vec<(u64, unicorn_engine::UcHookId)>,
    /// A breakpoint hit at this position is the stop already made there.
    pass: Option<u64>,
    /// The instruction hook's next call, when at this address, is for the
    /// instruction at the last stop, already counted (the rest of a block
    /// translated again with the hook).
    reenter: Option<u64>,
    /// The hooks are to be put in order at the next chance (a stop made
    /// where the machine could not be changed: a fault).
    dirty: bool,
    /// The machine's count at the last fault reported without the
    /// instruction hook (the same fault offered again comes with the same
    /// count).
    last_fault_exec: Option<u64>,
    /// Hooks given up, removed between two emulations (not from inside a
    /// hook, which may be one of them).
    stale_hooks: Vec<unicorn_engine::UcHookId>,
    /// The instruction hook installed last: one given up but not removed
    /// yet does nothing.
    insn_gen: u64,
    /// The instruction hook's last call: where, and the machine's count
    /// then ([`Seen`]).
    seen: Option<Seen>,
    /// The checkpoints (checkpoint.rs).
    pub checkpoints: checkpoint::Checkpoints,
    /// The position this run started at: 0, or the checkpoint's it was
    /// restored from.
    started_at: u64,
    /// The instruction hook stopped the emulation for a checkpoint at
    /// this position, to be taken between the two emulations.
    ckpt_asked: Option<u64>,
    /// The run to the coming stop went on with the instruction hook from
    /// this position, having run without it up to there (a position
    /// breakpoint come near): what `monitor hooks` says.
    left_fast_at: Option<u64>,
    /// The instruction at this position made a watched access without
    /// the instruction hook and runs again with it (module notes,
    /// "Hooks"): the hook stays until the stop after it.
    redo_at: Option<u64>,
    /// This replay keeps the instruction hook to its end: it met too many
    /// watched accesses without it ([`REPLAY_REDOS`]).
    replay_hooked: bool,
    /// Watched accesses this replay ran again with the hook.
    replay_redos: u32,
}

/// The machine's raw count: instructions counted, and the last block
/// counted (linear address, size, instructions counted).
type RawCount = (u64, (u64, u32, u64));

/// What the instruction hook saw at its last call: the instruction's
/// address, the machine's count of instructions completed before it, and
/// the machine's raw count then.
#[derive(Debug, Clone, Copy)]
struct Seen {
    addr: u64,
    before: u64,
    raw: RawCount,
}

/// The machine's count of instructions completed before the one at
/// `addr`, from the instruction hook (and the raw count): the next
/// instruction of the block the last call saw costs nothing to place,
/// nor does the first of a block.
fn before_here(uc: &Uc<'_>, addr: u64, last: Option<Seen>) -> Option<(u64, RawCount)> {
    let raw = crate::machine::debug::count_state(uc)?;
    let (exec, (start, size, counted)) = raw;
    let inside = counted != 0 && addr >= start && addr < start + u64::from(size);
    if !inside {
        return Some((exec, raw));
    }
    match last {
        // The instruction after the last one seen, in the same block.
        Some(s) if s.raw == raw && s.addr < addr && s.addr >= start => Some((s.before + 1, raw)),
        _ if addr == start => Some((exec.saturating_sub(counted), raw)),
        _ => crate::machine::debug::executed_before(uc, addr).map(|b| (b, raw)),
    }
}

/// What a watchpoint's memory hook saw last: the kind and address, for
/// the next instruction's stop.
type Pending = Rc<WatchHits>;

/// What the watchpoints' memory hooks leave for the debugger.
#[derive(Debug, Default)]
struct WatchHits {
    /// An access seen, for the next instruction's stop (with the hook on
    /// every instruction).
    hit: Cell<Option<(WatchKind, u64)>>,
    /// The program runs without the instruction hook (module notes,
    /// "Hooks").
    fast: Cell<bool>,
    /// Without it: the instruction making a watched access, asked to run
    /// again (machine/debug.rs, `redo_insn`): its linear address, and the
    /// access ([`between`] takes it).
    redo: Cell<Option<(u64, WatchKind, u64)>>,
    /// A replay to a position runs without the instruction hook: the
    /// watched accesses on the way are nothing to it (with the hook they
    /// are noted and passed over).
    quiet: Cell<bool>,
}

/// A front end: the gdb stub or the command session.
pub trait Frontend {
    /// The program stopped: talk to the user until they resume.
    fn stopped(&mut self, here: &mut Here<'_, '_>) -> Resume;

    /// Called every 65536 instructions while the program runs: true to
    /// stop it (the user pressed Ctrl-C, or went away).
    fn interrupted(&mut self) -> bool {
        false
    }

    /// The user went away: end the session without asking more.
    fn gone(&self) -> bool {
        false
    }
}

/// The memory hook of a watchpoint: note the access for the next
/// instruction's stop.
fn install_watch(
    uc: &mut Uc<'_>,
    w: Watch,
    pending: Pending,
) -> Result<unicorn_engine::UcHookId, String> {
    let ty = match w.kind {
        WatchKind::Write => HookType::MEM_WRITE,
        WatchKind::Read => HookType::MEM_READ,
        WatchKind::Access => HookType::MEM_READ | HookType::MEM_WRITE,
    };
    let end = w.addr + w.len - 1;
    // An access of up to 8 bytes that starts before the range and
    // reaches into it is one: the engine calls a hook for the access's
    // first address only.
    uc.add_mem_hook(
        ty,
        w.addr.saturating_sub(7),
        end,
        move |uc, t, addr, size, _v| {
            let hit = addr <= end && addr.saturating_add(size as u64) > w.addr;
            let kind_ok = match w.kind {
                WatchKind::Write => t == MemType::WRITE,
                WatchKind::Read => t == MemType::READ,
                WatchKind::Access => matches!(t, MemType::READ | MemType::WRITE),
            };
            if !(hit && kind_ok) {
                return true;
            }
            if pending.fast.get() {
                if pending.quiet.get() {
                    return true;
                }
                // Without the instruction hook: the instruction is put back
                // and run again with it, which stops after it (`between`).
                if pending.redo.get().is_none() {
                    pending
                        .redo
                        .set(Some((linear_pc(uc), w.kind, addr.max(w.addr))));
                    crate::machine::debug::redo_insn(uc);
                }
            } else if pending.hit.get().is_none() {
                pending.hit.set(Some((w.kind, addr.max(w.addr))));
            }
            true
        },
    )
    .map_err(|e| format!("watchpoint: {}", crate::machine::uc_words(e)))
    .inspect(|_| {
        // Memory hooks are called from the slow path of an access, which
        // the TLB's entries made before the hook skip: drop them, so the
        // next access (even in the block running now) sees the hook; and
        // code translated before the first memory hook reads memory
        // without looking for one: drop it too.
        let _ = uc.ctl_flush_tlb();
        crate::machine::debug::forget_all_code(uc);
    })
}

/// The exception's signal, as gdb numbers signals (gdb/signals.def):
/// SIGFPE for divide errors and the coprocessor, SIGTRAP for the debug
/// exceptions, SIGILL for an invalid opcode, SIGSEGV for the others.
pub fn fault_signal(number: u8) -> u8 {
    match number {
        0 | 7 | 16 => 8,
        1 | 3 => 5,
        6 => 4,
        _ => 11,
    }
}

/// Shared between the hooks and the driver.
struct Shared {
    ctl: RefCell<Control>,
    front: RefCell<Box<dyn Frontend>>,
    pending: Pending,
    path: std::path::PathBuf,
    /// Itself, for the hooks it installs.
    me: Weak<Shared>,
    /// When the front end was last asked whether the user interrupted
    /// the program running without the instruction hook.
    looked: Cell<Instant>,
}

/// How often the front end is asked whether the user interrupted the
/// program running without the instruction hook, at most.
const POLL_EVERY: Duration = Duration::from_millis(20);

/// Every how many instructions the program running without the
/// instruction hook stops between two blocks for the debugger to look at
/// its front end and its wall-clock limit (machine/debug.rs,
/// `poll_every`): a few milliseconds of a plain run, a few tens in a
/// debug build.
const POLL_INSNS: u64 = 1 << 20;

/// Where a stop is made, for putting the hooks in order after it.
#[derive(Debug, Clone, Copy)]
enum Site {
    /// In the instruction hook, before the instruction at this address.
    Insn(u64),
    /// In a breakpoint's code hook, before the instruction there.
    Bp(u64),
    /// Between two emulations, at CS:IP (this linear address).
    Between(u64),
    /// Where the machine cannot be changed (a fault), or at the end.
    Other,
}

/// The linear address of CS:IP.
fn linear_pc(uc: &Uc<'_>) -> u64 {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    uc.descriptor_of(cs)
        .map_or(u64::from(ip), |d| u64::from(d.base) + u64::from(ip))
}

/// Put the hooks in the order the debugger's state asks for, at a stop
/// at position `pos` made at `site`: with `passed`, the instruction at the
/// stop passed the hooks (it was counted as started). Without the
/// instruction hook, a code hook on each breakpoint's address; with it,
/// those hooks do nothing.
fn arrange(sh: &Shared, c: &mut Control, uc: &mut Uc<'_>, site: Site, pos: u64, passed: bool) {
    let addr = match site {
        Site::Insn(a) | Site::Bp(a) | Site::Between(a) => a,
        Site::Other => {
            if c.fast.is_some() {
                c.dirty = true;
            }
            return;
        }
    };
    c.dirty = false;
    let next = if passed { pos + 1 } else { pos };
    if may_run_fast(c, uc.mode(), next) {
        let mut changed = false;
        if c.fast.is_none() {
            let Some(done) = crate::machine::debug::executed_before(uc, addr) else {
                return;
            };
            if let Some(id) = c.insn_hook.take() {
                c.stale_hooks.push(id);
            }
            c.insn_gen += 1;
            crate::machine::debug::forget_all_code(uc);
            c.fast = Some(pos.wrapping_sub(done));
            changed = true;
        }
        c.pass = passed.then_some(pos);
        changed |= sync_bp_hooks(sh, c, uc);
        // The block running now was translated with the hooks as they
        // were: its rest is translated again, from here (the
        // instruction here, stopped at already, is passed: `pass`).
        if changed && matches!(site, Site::Insn(_) | Site::Bp(_)) {
            crate::machine::debug::interrupt_here(uc);
        }
    } else if c.fast.take().is_some() {
        c.left_fast_at = Some(pos);
        // What the hook saw last is from before the program ran without
        // it: the instruction at the stop, seen there, would be taken for
        // the same one seen again (`on_insn`) and `reenter` not used up,
        // putting the next stop one position short (a watched `PUSH` at
        // the stop, run again with the hook: tests/debug.rs, demo.exe).
        c.seen = None;
        c.insn_gen += 1;
        let generation = c.insn_gen;
        if let Some(me) = sh.me.upgrade() {
            match uc.add_code_hook(1, 0, move |uc, a, _| on_insn(&me, uc, a, generation)) {
                Ok(id) => c.insn_hook = Some(id),
                Err(e) => uc.request_stop(Stop::Error(format!(
                    "the debugger's instruction hook: {}",
                    crate::machine::uc_words(e)
                ))),
            }
        }
        crate::machine::debug::forget_all_code(uc);
        c.pass = None;
        if passed {
            c.count = pos + 1;
            c.reenter = Some(addr);
        } else {
            c.count = pos;
        }
        // The block running now was translated without the hook: its
        // rest is translated again, from here.
        if matches!(site, Site::Bp(_)) {
            crate::machine::debug::interrupt_here(uc);
        }
    }
    let poll = if c.fast.is_some() {
        poll_distance(c, next)
    } else {
        0
    };
    crate::machine::debug::poll_every(uc, poll);
    sh.pending.fast.set(c.fast.is_some() && !c.detached);
    sh.pending
        .quiet
        .set(matches!(c.replay, Some(Replay::To(..))));
}

/// A code hook on each address the program must stop at without the
/// instruction hook: the breakpoints and the one-time stop. True when a
/// hook was added.
fn sync_bp_hooks(sh: &Shared, c: &mut Control, uc: &mut Uc<'_>) -> bool {
    let mut added = false;
    let mut want: BTreeSet<u64> = match c.replay {
        // A replay to a position passes breakpoints by.
        Some(Replay::To(..)) => BTreeSet::new(),
        None | Some(Replay::Search { .. }) => c.breakpoints.clone(),
    };
    if let Some(t) = c.temp {
        want.insert(t.addr);
    }
    let mut kept = Vec::new();
    for (a, id) in std::mem::take(&mut c.bp_hooks) {
        if want.remove(&a) {
            kept.push((a, id));
        } else {
            c.stale_hooks.push(id);
        }
    }
    for a in want {
        let Some(me) = sh.me.upgrade() else {
            break;
        };
        match uc.add_code_hook(a, a, move |uc, addr, _| on_bp(&me, uc, addr)) {
            Ok(id) => {
                kept.push((a, id));
                added = true;
                // Code translated before the hook does not call it.
                crate::machine::tlb::remove_cache(uc, a, a + 1);
            }
            Err(e) => uc.request_stop(Stop::Error(format!(
                "a breakpoint's hook: {}",
                crate::machine::uc_words(e)
            ))),
        }
    }
    c.bp_hooks = kept;
    added
}

/// The code hook on a breakpoint's address, without the instruction
/// hook (module notes, "Hooks").
fn on_bp(sh: &Shared, uc: &mut Uc<'_>, addr: u64) {
    crate::machine::debug::host_hook(uc);
    let Ok(mut c) = sh.ctl.try_borrow_mut() else {
        return;
    };
    let Some(base) = c.fast else {
        return;
    };
    if c.detached || c.killed || c.restart.is_some() {
        return;
    }
    let Some(done) = crate::machine::debug::executed_before(uc, addr) else {
        return;
    };
    let pos = base.wrapping_add(done);
    if c.pass == Some(pos) {
        return;
    }
    // A search back notes the breakpoints it meets and goes on (as the
    // instruction hook does, `on_insn`); a replay to a position passes
    // them by.
    let hit = c.breakpoints.contains(&addr);
    match &mut c.replay {
        Some(r @ Replay::Search { .. }) => {
            if hit {
                r.note(pos);
            }
            return;
        }
        Some(Replay::To(..)) => return,
        None => {}
    }
    let temp_hit = c
        .temp
        .is_some_and(|t| t.addr == addr && uc.reg(R::SS) == t.ss && uc.reg(R::SP) >= t.min_sp);
    if !(c.breakpoints.contains(&addr) || temp_hit) {
        return;
    }
    c.count = pos + 1;
    stop(sh, c, UcRef::Mut(uc), Why::Breakpoint, pos, Site::Bp(addr));
}

/// Called by the machine between two emulations (machine/debug.rs,
/// `set_between`): without the instruction hook, the hooks put in order
/// after a fault, and the front end asked whether the user interrupted
/// the program.
fn between(sh: &Shared, uc: &mut Uc<'_>) {
    let Ok(mut c) = sh.ctl.try_borrow_mut() else {
        return;
    };
    if !c.stale_hooks.is_empty() {
        for id in std::mem::take(&mut c.stale_hooks) {
            let _ = uc.remove_hook(id);
        }
        crate::machine::debug::forget_all_code(uc);
    }
    take_checkpoint(sh, &mut c, uc);
    let Some(base) = c.fast else {
        return;
    };
    let Some(done) = crate::machine::debug::executed(uc) else {
        return;
    };
    let pos = base.wrapping_add(done);
    c.count = pos;
    if c.killed || c.restart.is_some() {
        uc.request_stop(Stop::Error("the debugger ended this run".into()));
        return;
    }
    // The wall-clock limit, as the instruction hook keeps it (module
    // notes, "Limits"), looked at every poll.
    if c.budget.out_of_time() {
        c.budget.reached = Some(Stop::Timeout);
        uc.request_stop(Stop::Timeout);
        return;
    }
    let pc = linear_pc(uc);
    // A watched access made without the instruction hook: its
    // instruction was put back (machine/debug.rs, `redo_insn`) and runs
    // again with the hook, which stops after it as it always does;
    // or, made outside translated code, it completed: the stop is here.
    if let Some((at, kind, addr)) = sh.pending.redo.take()
        && !c.detached
    {
        if pc == at && c.fast.is_some() {
            c.redo_at = Some(pos);
            if c.replay.is_some() {
                c.replay_redos += 1;
                c.replay_hooked |= c.replay_redos >= REPLAY_REDOS;
            }
            arrange(sh, &mut c, uc, Site::Between(pc), pos, true);
            return;
        }
        // A search back notes the access made outside translated code
        // at the position the instruction hook would (the next
        // instruction's), and goes on.
        if let Some(r) = &mut c.replay {
            r.note(pos);
            return;
        }
        c.count = pos + 1;
        stop(
            sh,
            c,
            UcRef::Mut(uc),
            Why::Watch { kind, addr },
            pos,
            Site::Between(pc),
        );
        return;
    }
    // A position breakpoint come near goes back to the instruction hook
    // here (`may_run_fast`); one further on has the next poll come
    // sooner.
    // (The instruction at a stop made here already is passed.)
    let next = if c.pass == Some(pos) { pos + 1 } else { pos };
    let near = position_stop_near(&c, next);
    if c.dirty || near {
        let passed = next > pos;
        arrange(sh, &mut c, uc, Site::Between(pc), pos, passed);
        if c.fast.is_none() {
            return;
        }
    } else {
        let d = poll_distance(&c, next);
        if d != POLL_INSNS {
            crate::machine::debug::poll_every(uc, d);
        }
    }
    let look = sh.looked.get().elapsed() >= POLL_EVERY;
    if look {
        sh.looked.set(Instant::now());
    }
    // A replay is not interrupted (nor is it with the instruction hook).
    if look && !c.detached && c.replay.is_none() && sh.front.borrow_mut().interrupted() {
        c.count = pos + 1;
        stop(
            sh,
            c,
            UcRef::Mut(uc),
            Why::Interrupted,
            pos,
            Site::Between(pc),
        );
    }
}

/// The code hook on every instruction (module notes), installed as the
/// `generation`-th.
fn on_insn(sh: &Shared, uc: &mut Uc<'_>, addr: u64, generation: u64) {
    let Ok(mut c) = sh.ctl.try_borrow_mut() else {
        return;
    };
    if c.insn_gen != generation {
        return;
    }
    if c.restart.is_some() || c.killed {
        uc.request_stop(Stop::Error("the debugger ended this run".into()));
        return;
    }
    if c.fast.is_some() {
        return;
    }
    // The same instruction seen again with nothing completed since: QEMU
    // gave up the block at a store into it and runs the store again as a
    // block of its own (machine/counter.rs, "Self-modifying code"). It
    // started once.
    if let Some((before, raw)) = before_here(uc, addr, c.seen) {
        let again = c.seen.is_some_and(|s| s.addr == addr && s.before == before);
        c.seen = Some(Seen { addr, before, raw });
        if again {
            return;
        }
    }
    if let Some(a) = c.reenter.take() {
        if a == addr {
            return;
        }
        // Something came before the instruction counted (a timer tick
        // sent the program elsewhere): it has not started.
        c.count = c.count.saturating_sub(1);
    }
    let pos = c.count;
    // The session's limits hold before anything else, detached or not
    // (module notes, "Limits").
    if let Some(limit) = c.budget.passed(pos) {
        c.budget.reached = Some(limit.clone());
        uc.request_stop(limit);
        return;
    }
    // A checkpoint due here is taken between two emulations: this one
    // stops before the instruction, which the next one starts with
    // (checkpoint.rs, "When").
    if !c.detached
        && c.ckpt_asked.is_none()
        && c.checkpoints.due(pos)
        && crate::machine::debug::nesting(uc) == 0
    {
        c.ckpt_asked = Some(pos);
        c.seen = None;
        crate::machine::debug::interrupt_here(uc);
        return;
    }
    c.count += 1;
    if c.detached {
        return;
    }
    if c.last_fault.as_ref().is_some_and(|(_, lin)| *lin == addr) {
        c.fault_refired = true;
    }
    let watched = sh.pending.hit.take();
    // The instruction run again after a watched access made without the
    // hook is done: the stop after it is made here, if the access was
    // seen again; the hook goes at the next chance.
    if c.redo_at.is_some_and(|p| pos > p) {
        c.redo_at = None;
        c.dirty = true;
    }
    if let Some(r) = c.replay.clone() {
        while let Some((p, e)) = c.edits.get(c.next_edit).cloned() {
            if p > pos {
                break;
            }
            c.next_edit += 1;
            if p == pos {
                let _ = apply(uc, &e);
            }
        }
        match r {
            Replay::To(t, why) if pos == t => {
                c.replay = None;
                // The program's output from here on is new to the user.
                if let Some(env) = crate::machine::debug::environment_mut::<Env>(uc) {
                    env.echo = c.echo;
                }
                stop(sh, c, UcRef::Mut(uc), why, pos, Site::Insn(addr));
                return;
            }
            Replay::To(..) => {}
            Replay::Search { limit, found } => {
                let hit = watched.is_some()
                    || c.breakpoints.contains(&addr)
                    || c.position_breaks.contains(&pos);
                let found = if hit && pos < limit { Some(pos) } else { found };
                if pos >= limit {
                    c.replay = None;
                    c.restart = Some(search_done(&c, found));
                    uc.request_stop(Stop::Error("the debugger ended this run".into()));
                    return;
                }
                c.replay = Some(Replay::Search { limit, found });
            }
        }
        // Far enough from the replay's next position stop, the rest runs
        // without the instruction hook (module notes, "Reverse
        // execution"); the instruction here, counted, runs then.
        if c.replay.is_some() && c.fast.is_none() && may_run_fast(&c, uc.mode(), pos + 1) {
            arrange(sh, &mut c, uc, Site::Insn(addr), pos, true);
        }
        return;
    }
    let temp_hit = c
        .temp
        .is_some_and(|t| t.addr == addr && uc.reg(R::SS) == t.ss && uc.reg(R::SP) >= t.min_sp);
    let why = if let Some((kind, a)) = watched {
        Why::Watch { kind, addr: a }
    } else if c.stepping {
        Why::Step
    } else if c.breakpoints.contains(&addr) || temp_hit || c.position_breaks.contains(&pos) {
        Why::Breakpoint
    } else if pos & 0xFFFF == 0 && pos != 0 && sh.front.borrow_mut().interrupted() {
        Why::Interrupted
    } else {
        return;
    };
    stop(sh, c, UcRef::Mut(uc), why, pos, Site::Insn(addr));
}

/// Serve the front end at a stop, and do what it asks.
fn stop(
    sh: &Shared,
    mut c: std::cell::RefMut<'_, Control>,
    uc: UcRef<'_, '_>,
    why: Why,
    pos: u64,
    site: Site,
) {
    c.temp = None;
    c.stepping = false;
    // The user's time at a stop is not the program's.
    let running = c.budget.since.is_some();
    c.budget.pause();
    let mut here = Here {
        uc,
        ctl: &mut c,
        pending: &sh.pending,
        why,
        pos,
        path: &sh.path,
    };
    let resume = loop {
        let r = sh.front.borrow_mut().stopped(&mut here);
        match r {
            Resume::ReverseStep | Resume::ReverseContinue | Resume::GoTo(_) if pos == 0 => {
                here.why = Why::HistoryStart;
            }
            Resume::GoTo(p) if p > pos => {
                // Forward by replay is not a thing: say so by stopping
                // here again.
                here.why = Why::Step;
            }
            r => break r,
        }
    };
    let c = &mut *here.ctl;
    c.left_fast_at = None;
    if running {
        c.budget.start();
    }
    match resume {
        Resume::Continue => {}
        Resume::Step => c.stepping = true,
        Resume::ReverseStep => restart(c, Replay::To(pos - 1, Why::Step)),
        Resume::GoTo(p) => restart(c, Replay::To(p, Why::Step)),
        Resume::ReverseContinue => restart(
            c,
            Replay::Search {
                limit: pos,
                found: None,
            },
        ),
        Resume::Kill => {
            // The instruction at the stop never runs: the program ran
            // `pos` instructions (as many as the stop's position), with or
            // without the instruction hook, which has counted it as
            // started.
            c.killed = true;
            c.count = pos;
        }
        Resume::Detach => c.detached = true,
    }
    if (c.restart.is_some() || c.killed)
        && let UcRef::Mut(uc) = &mut here.uc
    {
        uc.request_stop(Stop::Error("the debugger ended this run".into()));
    }
    match &mut here.uc {
        UcRef::Mut(uc) if !matches!(here.why, Why::Ended(_)) => {
            arrange(sh, c, uc, site, pos, true);
        }
        _ => {
            if c.fast.is_some() {
                c.dirty = true;
            }
        }
    }
}

fn restart(c: &mut Control, r: Replay) {
    c.restart = Some(r);
}

/// Where a search back ends: at the last stop it found; or, when it
/// found none in the stretch it replayed from a checkpoint, a search of
/// the stretch before that checkpoint; or at the start of history.
fn search_done(c: &Control, found: Option<u64>) -> Replay {
    match found {
        Some(p) => Replay::To(p, Why::Breakpoint),
        None if c.started_at > 0 => Replay::Search {
            limit: c.started_at,
            found: None,
        },
        None => Replay::To(0, Why::HistoryStart),
    }
}

/// Take the checkpoint the instruction hook asked for, or one due
/// without the hook, when the run is where one can be taken
/// (checkpoint.rs, "When").
fn take_checkpoint(sh: &Shared, c: &mut Control, uc: &mut Uc<'_>) {
    let asked = c.ckpt_asked.take();
    if c.killed || c.detached || c.restart.is_some() || !c.checkpoints.on {
        return;
    }
    if !crate::machine::Machine::checkpoint_safe(uc) {
        return;
    }
    let pos = match (c.fast, asked) {
        (None, Some(p)) => p,
        (Some(base), _) => match crate::machine::debug::executed(uc) {
            Some(done) => {
                let p = base.wrapping_add(done);
                if !c.checkpoints.due(p) {
                    return;
                }
                p
            }
            None => return,
        },
        (None, None) => return,
    };
    c.checkpoints.take(uc, pos, sh.pending.hit.get());
}

/// The debugger's observer: faults, before the environment sees them.
struct FaultWatch(Rc<Shared>);

impl crate::machine::Observer for FaultWatch {
    fn on_block(&mut self, _: &Uc<'_>, _: u64, _: u32, _: u16, _: u16) -> Option<Stop> {
        None
    }

    fn watches_blocks(&self) -> bool {
        false
    }

    fn on_fault(&mut self, uc: &Uc<'_>, fault: &Fault) {
        let sh = &*self.0;
        let Ok(mut c) = sh.ctl.try_borrow_mut() else {
            return;
        };
        // Without the instruction hook: the machine's count (settled at
        // the fault) leaves the faulting instruction out, a position
        // counts it as started; the same fault offered again on the way
        // out of a nested emulation comes with the same count.
        let mut fresh = true;
        if let Some(base) = c.fast {
            let done = crate::machine::debug::executed(uc).unwrap_or(0);
            if c.last_fault_exec == Some(done) {
                fresh = false;
            } else {
                c.last_fault_exec = Some(done);
                c.fast = Some(base.wrapping_add(1));
                c.count = base.wrapping_add(done).wrapping_add(1);
                c.fault_refired = true;
            }
        }
        if c.detached || c.killed || c.restart.is_some() {
            return;
        }
        // The faulting instruction passed the hook: it is the last one
        // counted.
        let pos = c.count.saturating_sub(1);
        if let Some(r) = &mut c.replay {
            r.note(pos);
            return;
        }
        let again = !fresh
            || c.last_fault.as_ref().is_some_and(|(f, _)| {
                (f.number, f.cs, f.ip, f.regs) == (fault.number, fault.cs, fault.ip, fault.regs)
            });
        if again && !c.fault_refired {
            return;
        }
        let lin = uc
            .descriptor_of(fault.cs)
            .map_or(0, |d| u64::from(d.base) + u64::from(fault.ip));
        c.last_fault = Some((fault.clone(), lin));
        c.fault_refired = false;
        stop(
            sh,
            c,
            UcRef::Ref(uc),
            Why::Fault(fault.clone()),
            pos,
            Site::Other,
        );
    }
}

/// How a session ended.
pub struct Outcome {
    /// The program's last stop (None when the user killed it before it
    /// ended and before a limit stopped it: a limit, once reached, is
    /// the session's outcome).
    pub stop: Option<Stop>,
    /// Instructions it ran.
    pub position: u64,
    /// The program as it ended, after a detach (for a run's report).
    pub program: Option<Program>,
}

/// Load the program (again, for a replay): the front end's `load`.
pub type Loader<'a> = dyn FnMut() -> Result<Program, String> + 'a;

/// Run a debugging session without limits: [`run_session_within`] with
/// no instruction budget and no wall-clock limit.
pub fn run_session(load: &mut Loader<'_>, front: Box<dyn Frontend>) -> Result<Outcome, String> {
    run_session_within(
        load,
        front,
        RunLimits {
            max_insns: 0,
            timeout: Duration::MAX,
        },
    )
}

/// Run a debugging session: load the program, stop before its first
/// instruction, and serve `front` until the user ends it or detaches and
/// the program ends. `load` must load the program identically every time
/// (module notes, "Reverse execution"). `limits` hold for the whole
/// session (module notes, "Limits"); `Duration::MAX` is no wall-clock
/// limit.
pub fn run_session_within(
    load: &mut Loader<'_>,
    front: Box<dyn Frontend>,
    limits: RunLimits,
) -> Result<Outcome, String> {
    run_session_checkpointed(load, front, limits, checkpoint::Options::default())
}

/// [`run_session_within`] with the checkpoints reverse execution replays
/// from as `checkpoints` says (checkpoint.rs).
pub fn run_session_checkpointed(
    load: &mut Loader<'_>,
    front: Box<dyn Frontend>,
    limits: RunLimits,
    checkpoints: checkpoint::Options,
) -> Result<Outcome, String> {
    run_session_from(load, front, limits, checkpoints, 0)
}

/// [`run_session_checkpointed`], the first stop at position `start`
/// instead of before the first instruction (a checkpoint file resumed,
/// checkpoint_file.rs): the program runs there without stopping and
/// without echoing its output, and the front end's first stop is there
/// (`Why::Start`), or at the program's end if it ends before.
pub fn run_session_from(
    load: &mut Loader<'_>,
    front: Box<dyn Frontend>,
    limits: RunLimits,
    checkpoints: checkpoint::Options,
    start: u64,
) -> Result<Outcome, String> {
    let mut prog = load()?;
    let echo = prog.machine.environment::<Env>().is_some_and(|e| e.echo);
    if start > 0
        && let Some(env) = prog.machine.environment_mut::<Env>()
    {
        // What the program writes before `start` was the original run's.
        env.echo = false;
    }
    let sh = Rc::new_cyclic(|me| Shared {
        me: me.clone(),
        looked: Cell::new(Instant::now()),
        ctl: RefCell::new(Control {
            replay: Some(Replay::To(start, Why::Start)),
            echo,
            budget: Budget {
                max_insns: limits.max_insns,
                timeout: (limits.timeout != Duration::MAX).then_some(limits.timeout),
                ..Budget::default()
            },
            ..Control::default()
        }),
        front: RefCell::new(front),
        pending: Rc::default(),
        path: prog.path.clone(),
    });
    sh.ctl.borrow_mut().checkpoints.configure(checkpoints);
    loop {
        install(&mut prog, &sh)?;
        // The limits are the debugger's own (its hook keeps them, module
        // notes, "Limits"): the machine's would count the user's time at
        // a stop, and restart with every replay.
        let unlimited = RunLimits {
            max_insns: 0,
            timeout: Duration::MAX,
        };
        sh.ctl.borrow_mut().budget.start();
        let s = prog.run(unlimited, None);
        let mut c = sh.ctl.borrow_mut();
        c.budget.pause();
        // Without the instruction hook, the position is the machine's
        // (after a kill, the stop's).
        if let Some(base) = c.fast
            && !c.killed
            && let Some(done) = crate::machine::debug::executed(&prog.machine)
        {
            c.count = base.wrapping_add(done);
        }
        let s = s?;
        if c.detached && !c.killed {
            let position = c.count;
            drop(c);
            return Ok(Outcome {
                stop: Some(s),
                position,
                program: Some(prog),
            });
        }
        if c.killed || sh.front.borrow().gone() {
            return Ok(Outcome {
                stop: c.budget.reached.clone(),
                position: c.count,
                program: None,
            });
        }
        if let Some(r) = c.restart.take() {
            drop(c);
            prog = replay(load, &sh, r)?;
            continue;
        }
        // A search back from the end reaches the end again: go to what
        // it found.
        if let Some(Replay::Search { found, .. }) = c.replay.take() {
            let r = search_done(&c, found);
            drop(c);
            prog = replay(load, &sh, r)?;
            continue;
        }
        // The end: the program cannot go on, but can be looked at, and
        // gone back in.
        let pos = c.count;
        c.replay = None;
        stop(
            sh.as_ref(),
            c,
            UcRef::Mut(&mut prog.machine),
            Why::Ended(s.clone()),
            pos,
            Site::Other,
        );
        let mut c = sh.ctl.borrow_mut();
        if let Some(r) = c.restart.take() {
            drop(c);
            prog = replay(load, &sh, r)?;
            continue;
        }
        return Ok(Outcome {
            stop: if c.killed {
                // A limit, or an internal error (a bug in toolhelp16: a
                // panic in a hook, machine/hookguard.rs), stays the
                // session's outcome when the user then quits.
                c.budget
                    .reached
                    .clone()
                    .or_else(|| matches!(s, Stop::Error(_)).then(|| s.clone()))
            } else {
                Some(s)
            },
            position: pos,
            program: None,
        });
    }
}

/// A fresh load of the program, to replay to `r`.
fn replay(load: &mut Loader<'_>, sh: &Rc<Shared>, r: Replay) -> Result<Program, String> {
    let mut prog = load()?;
    let mut c = sh.ctl.borrow_mut();
    // What the program writes on the way was shown when it first ran.
    if let Some(env) = prog.machine.environment_mut::<Env>() {
        env.echo = false;
    }
    // Changes made after the target are history no longer, nor are the
    // checkpoints made after them.
    if let Replay::To(t, _) = r {
        if c.edits.iter().any(|(p, _)| *p > t) {
            c.checkpoints.forget_after(t);
        }
        c.edits.retain(|(p, _)| *p <= t);
    }
    // From the nearest checkpoint before the target (checkpoint.rs),
    // or from the start.
    let target = match &r {
        Replay::To(t, _) => *t,
        Replay::Search { limit, .. } => limit.saturating_sub(1),
    };
    c.count = 0;
    c.started_at = 0;
    sh.pending.hit.set(None);
    if let Some(ck) = c.checkpoints.nearest(target) {
        ck.restore(&mut prog.machine, false)?;
        let (at, pending) = (ck.pos, ck.pending);
        c.count = at;
        c.started_at = at;
        sh.pending.hit.set(pending);
    }
    let from = c.started_at;
    c.next_edit = c.edits.partition_point(|(p, _)| *p < from);
    c.ckpt_asked = None;
    c.last_fault = None;
    c.replay = Some(r);
    c.stepping = false;
    c.temp = None;
    c.restart = None;
    sh.pending.redo.set(None);
    // The replay runs with the instruction hook: a watched access is
    // noted for it, not run again (`install_watch`).
    sh.pending.fast.set(false);
    c.redo_at = None;
    c.replay_hooked = false;
    c.replay_redos = 0;
    c.left_fast_at = None;
    for w in &mut c.watches {
        w.1 = None;
    }
    c.fast = None;
    c.insn_hook = None;
    c.bp_hooks.clear();
    c.pass = None;
    c.reenter = None;
    c.dirty = false;
    c.last_fault_exec = None;
    c.seen = None;
    c.stale_hooks.clear();
    Ok(prog)
}

/// The debugger's hooks on a freshly loaded program.
fn install(prog: &mut Program, sh: &Rc<Shared>) -> Result<(), String> {
    let hook_sh = sh.clone();
    let generation = {
        let mut c = sh.ctl.borrow_mut();
        c.insn_gen += 1;
        c.insn_gen
    };
    let id = prog
        .machine
        .add_code_hook(1, 0, move |uc, addr, _size| {
            crate::machine::hookguard::guard(uc, "debugger's instruction", (), |uc| {
                on_insn(&hook_sh, uc, addr, generation)
            })
        })
        .map_err(|e| {
            format!(
                "the debugger's instruction hook: {}",
                crate::machine::uc_words(e)
            )
        })?;
    prog.machine.add_observer(Box::new(FaultWatch(sh.clone())));
    // Positions without the instruction hook are the machine's count
    // (module notes, "Hooks").
    prog.machine.count_instructions();
    let between_sh = sh.clone();
    crate::machine::debug::set_between(
        &mut prog.machine,
        Some(Box::new(move |uc| between(&between_sh, uc))),
    );
    let mut c = sh.ctl.borrow_mut();
    c.insn_hook = Some(id);
    for w in &mut c.watches {
        if w.1.is_none() {
            w.1 = Some(install_watch(&mut prog.machine, w.0, sh.pending.clone())?);
        }
    }
    Ok(())
}
