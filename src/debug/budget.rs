//! The session's limits as the debugger keeps them (the module above,
//! "Limits"): `--max-insns` as a position no instruction reaches, and
//! `--timeout` on the time the program runs, summed over the session and
//! its replays, not counting the time it waits at a stop.

use std::time::{Duration, Instant};

use crate::machine::Stop;

/// The session's limits (module notes, "Limits"): the instruction budget
/// as a position the program never passes, and the wall-clock limit on
/// the time the program runs, summed over the session.
#[derive(Debug, Default)]
pub(super) struct Budget {
    /// Instructions (0 = none): no instruction at this position or
    /// beyond it runs.
    pub(super) max_insns: u64,
    /// The most time the program may run (None = no limit).
    pub(super) timeout: Option<Duration>,
    /// Time run before `since`.
    pub(super) spent: Duration,
    /// When the program last started running (None: it is stopped, the
    /// front end has it).
    pub(super) since: Option<Instant>,
    /// The limit that stopped the program, once one did: the session's
    /// outcome from then on.
    pub(super) reached: Option<Stop>,
}

impl Budget {
    /// How often (in positions) the hook reads the host's clock.
    pub(super) const CLOCK_EVERY: u64 = 0x100;

    /// The program (re)starts running.
    pub(super) fn start(&mut self) {
        if self.since.is_none() {
            self.since = Some(Instant::now());
        }
    }

    /// The program stops running (a stop for the front end, or the end
    /// of a run).
    pub(super) fn pause(&mut self) {
        if let Some(t) = self.since.take() {
            self.spent = self.spent.saturating_add(t.elapsed());
        }
    }

    /// Has the program run out of time? (Asked without the instruction
    /// hook, at each poll.)
    pub(super) fn out_of_time(&self) -> bool {
        let Some(timeout) = self.timeout else {
            return false;
        };
        let running = self.since.map_or(Duration::ZERO, |t| t.elapsed());
        self.spent.saturating_add(running) >= timeout
    }

    /// The limit the instruction at `pos` would pass, if any.
    pub(super) fn passed(&self, pos: u64) -> Option<Stop> {
        if self.max_insns != 0 && pos >= self.max_insns {
            return Some(Stop::Budget);
        }
        let timeout = self.timeout?;
        if pos % Self::CLOCK_EVERY != 0 {
            return None;
        }
        let running = self.since.map_or(Duration::ZERO, |t| t.elapsed());
        (self.spent.saturating_add(running) >= timeout).then_some(Stop::Timeout)
    }
}
