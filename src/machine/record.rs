//! Recording the executed blocks of a run (`trace --record`): the cheap
//! half of a trace, kept by the counting hook (counter.rs) at nearly the
//! cost of counting, and expanded to instructions after the run
//! (src/trace/record.rs).
//!
//! **What the recorder is given**, in the order things happened:
//!
//! * a [`Translation`] the first time a block is entered since it was
//!   translated (or since its entry in the counting table was reused):
//!   its linear address, size, instruction count, the CS:IP it was
//!   entered with and its bytes as they are then, which are the bytes
//!   QEMU translated (a program that rewrites them makes QEMU translate
//!   the block again, and the new translation is given again before the
//!   new code runs);
//! * [steps](Step), packed into words: each block entered and run (to
//!   its end, unless a cut follows), and each cut — where the block
//!   entered last stopped early (a fault, a breakpoint, the budget, a
//!   store into its own code, the run's end).
//!
//! A block entered but not run (the budget ends before it; a timer tick
//! sends the program elsewhere first) is not a step. So the steps,
//! expanded with the translations, are exactly the instructions the
//! machine completed, plus each faulting instruction, marked.
//!
//! **Cost.** The hook appends one word per block to a buffer and hands
//! the buffer over when it is full: no call out per block. A translation
//! is handed over when its block is first entered, with the steps before
//! it, so a recorder sees everything in order.
//!
//! **A limit.** The counting table keys a block by linear address and
//! size, not by CS: in real mode, one block of code entered through two
//! CS:IP aliases of the same linear address (0000:7C00 and 07C0:0000)
//! is given once, with the CS it was first entered with.

use super::Uc;

/// Words in the step buffer before it is handed over.
pub const BUFFER_WORDS: usize = 1 << 16;

/// Bit 63 of a step word: a cut ([`Step::Cut`]), not a block.
pub const CUT: u64 = 1 << 63;
/// Bit 62 of a cut word: the instruction at the cut faulted ([`Step::Cut`]).
pub const FAULTED: u64 = 1 << 62;

/// One step of a recorded run, as packed into a word ([`Step::word`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The block of `size` bytes at linear address `linear` was entered
    /// and ran to its end, unless the next step is a cut inside it.
    Block {
        /// Linear address of its first instruction.
        linear: u64,
        /// Its size in bytes.
        size: u32,
    },
    /// The block entered last stopped before the instruction at linear
    /// address `linear`: instructions before it completed, none from it
    /// on. With `faulted`, that instruction faulted (it started and did
    /// not complete; a trace shows it as the last one run).
    Cut {
        /// Linear address of the first instruction not completed.
        linear: u64,
        /// The instruction there faulted.
        faulted: bool,
    },
}

impl Step {
    /// The packed word: `linear << 16 | size` for a block, [`CUT`] |
    /// ([`FAULTED`]) | `linear` for a cut.
    pub fn word(self) -> u64 {
        match self {
            Step::Block { linear, size } => {
                (linear & 0x7FFF_FFFF_FFFF) << 16 | u64::from(size & 0xFFFF)
            }
            Step::Cut { linear, faulted } => {
                CUT | if faulted { FAULTED } else { 0 } | (linear & 0x3FFF_FFFF_FFFF_FFFF)
            }
        }
    }

    /// The step a word packs.
    pub fn from_word(w: u64) -> Step {
        if w & CUT != 0 {
            Step::Cut {
                linear: w & !(CUT | FAULTED),
                faulted: w & FAULTED != 0,
            }
        } else {
            Step::Block {
                linear: w >> 16,
                size: (w & 0xFFFF) as u32,
            }
        }
    }
}

/// A translated block, given to the recorder before the first step that
/// runs it (module notes).
#[derive(Debug, Clone, Copy)]
pub struct Translation<'a> {
    /// Linear address of its first instruction.
    pub linear: u64,
    /// CS it was entered with (a paragraph in real mode, a selector in
    /// protected mode).
    pub cs: u16,
    /// IP of its first instruction.
    pub ip: u16,
    /// Instructions QEMU translated in it.
    pub icount: u32,
    /// Its bytes (its size is their length).
    pub bytes: &'a [u8],
}

/// What receives a recording ([`super::Machine::record_blocks`]). Called
/// from the counting hook, with the machine at hand to read (the module
/// and symbol owning the code, say); an error stops the run.
pub trait BlockRecorder {
    /// A block about to run for the first time since it was translated.
    fn translation(&mut self, uc: &Uc<'_>, t: &Translation<'_>) -> std::io::Result<()>;
    /// Steps, in order, packed ([`Step::word`]), handed over: the
    /// recorder takes them and leaves `words` empty. It may swap the
    /// buffer for one of its own (of at least [`BUFFER_WORDS`] capacity,
    /// so that the hook never grows it) instead of copying the steps out.
    fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()>;
}

/// The recording state the machine keeps while a recorder is set.
pub(super) struct Recording {
    pub recorder: Box<dyn BlockRecorder>,
    /// Steps not yet handed over (capacity [`BUFFER_WORDS`], never grown).
    pub words: Vec<u64>,
    /// The first error the recorder returned.
    pub error: Option<std::io::Error>,
}

impl Recording {
    pub fn new(recorder: Box<dyn BlockRecorder>) -> Recording {
        Recording {
            recorder,
            words: Vec::with_capacity(BUFFER_WORDS),
            error: None,
        }
    }

    /// Hand the buffered steps over.
    pub fn flush(&mut self) {
        if self.words.is_empty() {
            return;
        }
        if self.error.is_none()
            && let Err(e) = self.recorder.steps(&mut self.words)
        {
            self.error = Some(e);
        }
        self.words.clear();
        if self.words.capacity() < BUFFER_WORDS {
            self.words.reserve_exact(BUFFER_WORDS);
        }
    }

    /// The stop a failed recording asks for: the recorder's first error.
    pub fn failure(&self) -> Option<super::Stop> {
        let e = self.error.as_ref()?;
        Some(super::Stop::Error(format!("recording the run: {e}")))
    }

    /// Add a step (the buffer is handed over first when full).
    pub fn push(&mut self, step: Step) {
        if self.words.len() == BUFFER_WORDS {
            self.flush();
        }
        self.words.push(step.word());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_pack_and_unpack() {
        for s in [
            Step::Block {
                linear: 0x1_2345,
                size: 17,
            },
            Step::Block {
                linear: 0xFFFF_FFFF,
                size: 0xFFFF,
            },
            Step::Cut {
                linear: 0x7C00,
                faulted: false,
            },
            Step::Cut {
                linear: 0xFFFF_FFFF,
                faulted: true,
            },
        ] {
            assert_eq!(Step::from_word(s.word()), s, "{s:?}");
        }
        // A block word never has the cut bit.
        assert_eq!(
            Step::Block {
                linear: u64::MAX,
                size: 1
            }
            .word()
                & CUT,
            0
        );
    }
}
