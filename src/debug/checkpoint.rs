//! The debugger's checkpoints: the whole state of a run at a position,
//! kept in memory, so that reverse execution replays from the nearest
//! checkpoint before its target instead of from the program's start
//! (module notes of debug/mod.rs, "Reverse execution").
//!
//! A checkpoint is the machine's (machine/checkpoint.rs: the CPU,
//! memory shared page by page with the checkpoint before, the machine's
//! own state, the emulated clock), a clone of the environment (`Env`:
//! DOS and Win16 state, the console, the scheduler, the drive's state in
//! memory), the files of the drive's writable layer (dos/fs/checkpoint.rs),
//! and the watchpoint access noted for the next instruction.
//!
//! **When.** Only between two emulations of the top-level run (nothing of
//! the run on the host's stack: no Win16 window procedure's nested run,
//! no DOS handler in progress; `Machine::checkpoint_safe`). With the
//! instruction hook, the hook stops the emulation before the instruction
//! at a position where a checkpoint is due, and the checkpoint is taken
//! at once between the two emulations (the emulation then goes on from
//! there, as after any stop that only interrupts); without it, at the
//! poller thread's interruptions.
//!
//! **How often.** Every [`Checkpoints::every`] positions, at least
//! [`MIN_EVERY`] and at most [`MAX_EVERY`]: the interval grows so that
//! taking checkpoints costs at most about a twentieth of the run's time
//! (a Win16 program's memory is larger than a DOS program's). A replay
//! to a position then costs at most one interval of running, nearly all
//! of it without the debugger's hook on every instruction (debug/mod.rs,
//! "Reverse execution"; bench, release build: reverse-stepi after 10^8
//! instructions in 9-10 ms with the ceiling of 16,000,000, 4 ms with
//! 2,000,000, 24-47 ms when replays kept the hook and the ceiling was
//! 1,000,000). What a checkpoint copies is what changed: memory pages
//! are shared with the checkpoint before, and so is GDI's screen (the
//! largest part of a Win16 environment) until the program draws on it;
//! a Win16 program's checkpoint then costs about 0.1-0.3 ms (bench: a
//! debugged timed Win16 program at 0.93x its plain run, 0.5-0.6x when
//! every checkpoint copied the screen).
//!
//! **How much.** The checkpoints' memory (the pages and files each one
//! does not share with the one before, and its copy of the environment)
//! is bounded by `--checkpoint-memory` ([`DEFAULT_MEMORY`]); past it,
//! every other checkpoint of the older half is dropped, so older history
//! is covered more thinly than recent.
//!
//! **History rewritten.** A change made from the debugger at position P
//! (a register or memory written) makes every checkpoint after P wrong:
//! they are dropped, as are those after the target of a replay that
//! forgets changes made after it.

use std::time::{Duration, Instant};

use crate::machine::checkpoint::MachineCheckpoint;
use crate::machine::{Machine, Uc};
use crate::system::Env;

use super::WatchKind;

/// Positions between two checkpoints at least.
pub const MIN_EVERY: u64 = 50_000;
/// Positions between two checkpoints at most. Where replays run without
/// the instruction hook until near their target (the patched engine,
/// `machine::debug::EXACT_COUNT`), a replay runs about as fast as the
/// run did, so the twentieth-of-the-time rule alone bounds a step back
/// to about twenty checkpoints' cost of running, and the ceiling only
/// keeps that for a program that runs fast between cheap checkpoints;
/// where replays keep the hook (some tens of millions of positions a
/// second), the ceiling bounds a step back to a fraction of a second.
pub const MAX_EVERY: u64 = if crate::machine::debug::EXACT_COUNT {
    MAX_EVERY_FAST
} else {
    1_000_000
};
/// [`MAX_EVERY`] where replays run without the instruction hook.
const MAX_EVERY_FAST: u64 = 16_000_000;
/// The checkpoints' memory when not given: 256 MiB.
pub const DEFAULT_MEMORY: u64 = 256 << 20;
/// Checkpoints kept at most, whatever their size.
const MAX_CHECKPOINTS: usize = 4096;

/// How a session takes checkpoints.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Their memory at most, in bytes (0: no checkpoints; every replay
    /// from the program's start).
    pub memory: u64,
    /// Positions between two (0: an interval that adapts, module notes).
    pub every: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            memory: DEFAULT_MEMORY,
            every: 0,
        }
    }
}

/// A run's state at a position (module notes).
pub struct Checkpoint {
    /// Its position: the instructions started before it.
    pub pos: u64,
    machine: MachineCheckpoint,
    env: Option<Env>,
    files: Option<crate::dos::fs::DriveFiles>,
    /// The watchpoint access the next instruction stops for.
    pub pending: Option<(WatchKind, u64)>,
    bytes: u64,
}

impl Checkpoint {
    /// Save the run at `pos`, sharing what did not change with `prev`.
    /// Only where `Machine::checkpoint_safe` says so.
    pub fn take(
        uc: &Uc<'_>,
        pos: u64,
        pending: Option<(WatchKind, u64)>,
        prev: Option<&Checkpoint>,
    ) -> Result<Checkpoint, String> {
        let machine = Machine::checkpoint(uc, prev.map(|p| &p.machine)).map_err(|e| e.0)?;
        let env = crate::machine::environment_of::<Env>(uc);
        let files = match env.and_then(|e| e.drive.as_ref()) {
            Some(d) => d
                .save_files(prev.and_then(|p| p.files.as_ref()))
                .map_err(|e| format!("checkpoint: the drive's files: {e}"))?,
            None => None,
        };
        let env = env.cloned();
        let env_bytes = env.as_ref().map_or(0, |e| {
            (e.console.len() + e.debug_output.iter().map(|s| s.len() + 24).sum::<usize>()) as u64
                + 64 * 1024
        });
        let bytes =
            machine.fresh_bytes() + files.as_ref().map_or(0, |f| f.fresh_bytes()) + env_bytes;
        Ok(Checkpoint {
            pos,
            machine,
            env,
            files,
            pending,
            bytes,
        })
    }

    /// Put the run back as it was at the checkpoint, into `machine` (the
    /// same program freshly loaded, the same way). The console's echo is
    /// left as `echo`.
    pub fn restore(&self, machine: &mut Machine, echo: bool) -> Result<(), String> {
        machine.restore(&self.machine).map_err(|e| e.0)?;
        if let (Some(saved), Some(env)) = (&self.env, machine.environment_mut::<Env>()) {
            let mut e = saved.clone();
            e.echo = echo;
            if let Some(d) = e.drive.as_mut() {
                d.restore_files(self.files.as_ref())
                    .map_err(|e| format!("restoring a checkpoint: the drive's files: {e}"))?;
            }
            *env = e;
        }
        Ok(())
    }
}

/// The checkpoints of a session, by position (module notes).
pub struct Checkpoints {
    list: Vec<Checkpoint>,
    /// Their memory, in bytes (module notes, "How much").
    total: u64,
    /// The most memory they may take.
    limit: u64,
    /// Positions between two checkpoints now.
    every: u64,
    /// The position at which the next one is due.
    due: u64,
    /// When and at which position the last one was taken.
    last: Option<(Instant, u64)>,
    /// Checkpoints are taken (a session can do without).
    pub on: bool,
    /// The interval was given: it does not adapt.
    fixed: bool,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints {
            list: Vec::new(),
            total: 0,
            limit: DEFAULT_MEMORY,
            every: MIN_EVERY * 2,
            due: MIN_EVERY * 2,
            last: None,
            on: true,
            fixed: false,
        }
    }
}

impl std::fmt::Debug for Checkpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoints")
            .field("count", &self.list.len())
            .field("bytes", &self.total)
            .field("every", &self.every)
            .finish()
    }
}

impl Checkpoints {
    /// Take checkpoints as `o` says.
    pub fn configure(&mut self, o: Options) {
        self.limit = o.memory;
        self.on = o.memory != 0;
        if o.every != 0 {
            self.fixed = true;
            self.every = o.every;
            self.due = o.every;
        }
        self.thin();
    }

    /// Positions between two checkpoints now.
    pub fn every(&self) -> u64 {
        self.every
    }

    /// How many there are, and their memory in bytes.
    pub fn usage(&self) -> (usize, u64) {
        (self.list.len(), self.total)
    }

    /// Is a checkpoint due at `pos`? Cheap: asked before every
    /// instruction.
    pub fn due(&mut self, pos: u64) -> bool {
        if !self.on || pos < self.due {
            return false;
        }
        match self.nearest(pos) {
            Some(c) if pos - c.pos < self.every => {
                self.due = c.pos + self.every;
                false
            }
            _ => true,
        }
    }

    /// The position at which the next checkpoint is due, when they are
    /// taken: where a program running without the instruction hook is
    /// stopped for one (mod.rs, `poll_distance`).
    pub fn next_due(&self) -> Option<u64> {
        self.on.then_some(self.due)
    }

    /// The last checkpoint at or before `pos`.
    pub fn nearest(&self, pos: u64) -> Option<&Checkpoint> {
        let i = self.list.partition_point(|c| c.pos <= pos);
        i.checked_sub(1).map(|i| &self.list[i])
    }

    /// Take a checkpoint of the run at `pos` (between two emulations of
    /// the top-level run). An error leaves the checkpoints off for the
    /// session: replays then start further back, as before.
    pub fn take(&mut self, uc: &Uc<'_>, pos: u64, pending: Option<(WatchKind, u64)>) {
        let started = Instant::now();
        let i = self.list.partition_point(|c| c.pos < pos);
        if self.list.get(i).is_some_and(|c| c.pos == pos) {
            self.due = pos + self.every;
            return;
        }
        let prev = i.checked_sub(1).map(|i| &self.list[i]);
        let ck = match Checkpoint::take(uc, pos, pending, prev) {
            Ok(c) => c,
            Err(_) => {
                self.on = false;
                return;
            }
        };
        self.total += ck.bytes;
        self.list.insert(i, ck);
        // The interval: taking checkpoints costs at most a twentieth of
        // the time the program runs between two.
        let cost = started.elapsed();
        if let Some((t, p)) = self.last
            && pos > p
            && !self.fixed
        {
            let ran = t
                .elapsed()
                .saturating_sub(cost)
                .max(Duration::from_micros(1));
            let rate = (pos - p) as f64 / ran.as_secs_f64();
            let want = (20.0 * cost.as_secs_f64() * rate) as u64;
            self.every = want.clamp(MIN_EVERY, MAX_EVERY);
        }
        self.last = Some((Instant::now(), pos));
        self.due = pos + self.every;
        self.thin();
    }

    /// Drop the checkpoints after `pos` (history rewritten from there).
    pub fn forget_after(&mut self, pos: u64) {
        let i = self.list.partition_point(|c| c.pos <= pos);
        for c in self.list.drain(i..) {
            self.total = self.total.saturating_sub(c.bytes);
        }
        self.due = self.due.min(pos.saturating_add(1).max(MIN_EVERY));
    }

    /// Within the memory bound: every other checkpoint of the older half
    /// dropped until it holds (module notes, "How much").
    fn thin(&mut self) {
        while (self.total > self.limit || self.list.len() > MAX_CHECKPOINTS)
            && !self.list.is_empty()
        {
            if self.list.len() < 4 {
                let c = self.list.remove(0);
                self.total = self.total.saturating_sub(c.bytes);
                continue;
            }
            let half = self.list.len() / 2;
            let mut kept = Vec::with_capacity(self.list.len());
            for (j, c) in std::mem::take(&mut self.list).into_iter().enumerate() {
                if j < half && j % 2 == 1 {
                    // What the next one shared with it stays counted as
                    // this one's: the count is of what each added, an
                    // estimate once checkpoints were dropped.
                    self.total = self.total.saturating_sub(c.bytes);
                } else {
                    kept.push(c);
                }
            }
            self.list = kept;
        }
    }
}
