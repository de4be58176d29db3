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
//! **Cost.** A step is one word in a ring of [`BUFFER_WORDS`] words the
//! machine owns ([`Ring`]), handed over when it is full. On the patched
//! engine (vendor/README.md, patch 0012, an extension of 0006's inline
//! count) the translated code of a block writes the block's word itself
//! as it counts the block: no call out of the translated code per block,
//! so a recorded run costs about what a run with an instruction budget
//! costs (`bench --only record`). The block hook is called instead, and
//! appends the word, only where the hook must look anyway: a block whose
//! translation the recording has not been given yet (each translation
//! carries a *given* flag, 0 when it is made, which the hook sets during
//! its call once the recorder has it), a full ring, the budget's edge, a
//! block cut short, a timed real-mode run's timer tick, a stop (a timed
//! run's blocks record themselves too: its clock is derived from the
//! count, time.rs); and a cut is always
//! appended by the machine, at the stop that makes it. On the unpatched
//! engine, and with [`super::Machine::record_blocks_by_hook`], the hook
//! appends every word (the words are the same; tests/record_inline.rs
//! compares the two, and both with a run that records nothing). A
//! translation is handed over when its block is first entered, with the
//! steps before it, so a recorder sees everything in order.
//!
//! **A limit.** The counting table keys a block by linear address and
//! size, not by CS: in real mode, one block of code entered through two
//! CS:IP aliases of the same linear address (0000:7C00 and 07C0:0000)
//! is given once, with the CS it was first entered with.

use std::cell::Cell;

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

/// The buffer of step words, shared with the patched engine's translated
/// code (vendor/README.md, patch 0012): the engine's `struct
/// uc_inline_record`, field for field, then the words. It lives boxed in
/// the machine's state, in place for the engine's life, and in cells: the
/// translated code writes it between the hook's calls (module notes,
/// "Cost").
#[repr(C)]
pub(super) struct Ring {
    /// The first word (`words`).
    words_ptr: Cell<*mut u64>,
    /// Words written (`pos`).
    pos: Cell<u64>,
    /// The translated code writes a word only while `pos` is below this
    /// (`end`): [`BUFFER_WORDS`] while it records, 0 while every block must
    /// go to the hook.
    end: Cell<u64>,
    /// Stored by the translated code before each call of the block hook:
    /// where the block's *given* flag is (`given`).
    given: Cell<*mut u32>,
    /// The words (empty until the first recording, then
    /// [`BUFFER_WORDS`], never moved).
    buf: Vec<Cell<u64>>,
    /// Words handed over since the recording started, and how many of
    /// them the machine's own code appended (the rest the translated code
    /// wrote).
    handed: Cell<u64>,
    by_hook: Cell<u64>,
}

impl Default for Ring {
    fn default() -> Self {
        Ring {
            words_ptr: Cell::new(std::ptr::null_mut()),
            pos: Cell::new(0),
            end: Cell::new(0),
            given: Cell::new(std::ptr::null_mut()),
            buf: Vec::new(),
            handed: Cell::new(0),
            by_hook: Cell::new(0),
        }
    }
}

impl Ring {
    /// A recording starts: the buffer allocated (once) and emptied;
    /// `inline`, the translated code writes into it from now on.
    pub(super) fn start(&mut self, inline: bool) {
        if self.buf.is_empty() {
            self.buf = (0..BUFFER_WORDS).map(|_| Cell::new(0)).collect();
            self.words_ptr.set(self.buf.as_ptr() as *mut u64);
        }
        self.pos.set(0);
        self.handed.set(0);
        self.by_hook.set(0);
        self.given.set(std::ptr::null_mut());
        self.end.set(if inline { BUFFER_WORDS as u64 } else { 0 });
    }

    /// The recording ends: every block goes to the hook.
    pub(super) fn stop(&self) {
        self.end.set(0);
        self.given.set(std::ptr::null_mut());
    }

    /// Has the buffer room for a word?
    #[inline(always)]
    pub(super) fn has_room(&self) -> bool {
        (self.pos.get() as usize) < self.buf.len()
    }

    /// Append a word (there is room: [`Ring::has_room`]).
    #[inline(always)]
    pub(super) fn append(&self, word: u64) {
        let pos = self.pos.get();
        self.buf[pos as usize].set(word);
        self.pos.set(pos + 1);
        self.by_hook.set(self.by_hook.get() + 1);
    }

    /// Words recorded since the recording started (handed over or not),
    /// and how many of them the translated code wrote itself.
    pub(super) fn counts(&self) -> (u64, u64) {
        let total = self.handed.get() + self.pos.get();
        (total, total.saturating_sub(self.by_hook.get()))
    }

    /// Take where the block calling the hook now keeps its *given* flag,
    /// if the translated code said (patch 0012).
    #[inline(always)]
    pub(super) fn take_given(&self) -> *mut u32 {
        self.given.replace(std::ptr::null_mut())
    }

    /// The engine's view of the ring (what `uc_toolhelp16_inline_record`
    /// is given).
    #[cfg_attr(feature = "unpatched-engine", allow(dead_code))]
    pub(super) fn as_engine_ptr(&self) -> *mut Ring {
        (self as *const Ring).cast_mut()
    }
}

/// The recording state the machine keeps while a recorder is set.
pub(super) struct Recording {
    pub recorder: Box<dyn BlockRecorder>,
    /// The words handed over, copied out of the ring.
    out: Vec<u64>,
    /// The first error the recorder returned.
    pub error: Option<std::io::Error>,
}

impl Recording {
    pub fn new(recorder: Box<dyn BlockRecorder>) -> Recording {
        Recording {
            recorder,
            out: Vec::new(),
            error: None,
        }
    }

    /// Hand the steps buffered in `ring` over.
    pub fn flush(&mut self, ring: &Ring) {
        let n = ring.pos.get() as usize;
        if n == 0 {
            return;
        }
        self.out.clear();
        self.out
            .extend(ring.buf[..n.min(ring.buf.len())].iter().map(Cell::get));
        ring.pos.set(0);
        ring.handed.set(ring.handed.get() + n as u64);
        if self.error.is_none()
            && let Err(e) = self.recorder.steps(&mut self.out)
        {
            self.error = Some(e);
        }
        self.out.clear();
    }

    /// The stop a failed recording asks for: the recorder's first error.
    pub fn failure(&self) -> Option<super::Stop> {
        let e = self.error.as_ref()?;
        Some(super::Stop::Error(format!("recording the run: {e}")))
    }

    /// Add a step to `ring` (the buffer is handed over first when full).
    pub fn push(&mut self, ring: &Ring, step: Step) {
        if !ring.has_room() {
            self.flush(ring);
        }
        if ring.has_room() {
            ring.append(step.word());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's `struct uc_inline_record` (unicorn.h, patch 0012):
    /// uint64_t *words; uint64_t pos, end; uint32_t *given.
    #[test]
    fn the_ring_starts_with_the_engine_s_layout() {
        use std::mem::offset_of;
        assert_eq!(offset_of!(Ring, words_ptr), 0);
        assert_eq!(offset_of!(Ring, pos), 8);
        assert_eq!(offset_of!(Ring, end), 16);
        assert_eq!(offset_of!(Ring, given), 24);
    }

    /// Pushed steps come out in order at a flush, across a full buffer.
    #[test]
    fn steps_pushed_through_a_full_ring_come_out_in_order() {
        struct Keep(std::rc::Rc<std::cell::RefCell<Vec<u64>>>);
        impl BlockRecorder for Keep {
            fn translation(&mut self, _: &Uc<'_>, _: &Translation<'_>) -> std::io::Result<()> {
                Ok(())
            }
            fn steps(&mut self, words: &mut Vec<u64>) -> std::io::Result<()> {
                self.0.borrow_mut().append(words);
                Ok(())
            }
        }
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut ring = Ring::default();
        ring.start(false);
        assert_eq!(ring.end.get(), 0, "not inline: the engine writes nothing");
        let mut r = Recording::new(Box::new(Keep(seen.clone())));
        let n = BUFFER_WORDS as u64 + 5;
        for i in 0..n {
            r.push(&ring, Step::Block { linear: i, size: 1 });
        }
        assert_eq!(
            seen.borrow().len(),
            BUFFER_WORDS,
            "one full buffer handed over"
        );
        r.flush(&ring);
        let seen = seen.borrow();
        assert_eq!(seen.len() as u64, n);
        for (i, w) in seen.iter().enumerate() {
            assert_eq!(
                Step::from_word(*w),
                Step::Block {
                    linear: i as u64,
                    size: 1
                }
            );
        }
    }

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
