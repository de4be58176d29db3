//! A walk's view of memory that remembers what it read: the walkers read
//! a few words per frame, each through [`WalkMemory::read_u16`], which
//! looks the selector's descriptor up again and reads two bytes of the
//! machine (on the live machine: two calls into unicorn, a descriptor
//! decode, every time). Memory does not change while a walk runs, so
//! [`Cached`] keeps the descriptors, the code owners and 256-byte chunks
//! of linear memory it has seen, and answers every later read from them.
//! It changes no answer: a read the inner memory refuses, or a chunk it
//! cannot read whole, goes to the inner memory as it is.

use std::cell::{Cell, RefCell};

use super::memory::{CodeOwner, CpuMode, Descriptor, DescriptorTable, MemError, WalkMemory};

/// Bytes per cached chunk of linear memory.
const CHUNK: u32 = 256;
/// Chunks kept (direct-mapped by linear address).
const CHUNKS: usize = 16;
/// Descriptors kept (direct-mapped by selector index).
const DESCRIPTORS: usize = 16;

/// One cached chunk: its linear base, whether it holds data, its bytes.
type Chunk = (u32, bool, [u8; CHUNK as usize]);
/// One cached descriptor slot: the selector and what it decoded to.
type DescriptorSlot = Cell<Option<(u16, Option<Descriptor>)>>;

/// A walk's cache over `inner` (module notes).
pub struct Cached<'a> {
    inner: &'a dyn WalkMemory,
    mode: CpuMode,
    chunks: RefCell<Box<[Chunk; CHUNKS]>>,
    descriptors: [DescriptorSlot; DESCRIPTORS],
    owner: Cell<Option<(u16, Option<CodeOwner>)>>,
    /// The segment of the last word read that passed `read`'s checks:
    /// selector + 1 (0: none yet), base, limit. The walk reads most
    /// words from one stack segment.
    word_seg: Cell<(u32, u32, u32)>,
}

impl<'a> Cached<'a> {
    /// A cache over `inner`, empty.
    pub fn new(inner: &'a dyn WalkMemory) -> Cached<'a> {
        Cached {
            inner,
            mode: inner.mode(),
            chunks: RefCell::new(Box::new([(0, false, [0; CHUNK as usize]); CHUNKS])),
            descriptors: Default::default(),
            owner: Cell::new(None),
            word_seg: Cell::new((0, 0, 0)),
        }
    }

    /// Copy `buf.len()` bytes at `linear` from the cached chunks, loading
    /// them; false when a chunk cannot be read whole.
    fn read_chunks(&self, linear: u32, buf: &mut [u8]) -> bool {
        let mut chunks = self.chunks.borrow_mut();
        let mut done = 0usize;
        while done < buf.len() {
            let at = linear.wrapping_add(done as u32);
            let base = at & !(CHUNK - 1);
            if base.checked_add(CHUNK).is_none() {
                return false;
            }
            let slot = &mut chunks[(base / CHUNK) as usize % CHUNKS];
            if !(slot.1 && slot.0 == base) {
                if self.inner.read_linear(base, &mut slot.2).is_err() {
                    slot.1 = false;
                    return false;
                }
                slot.0 = base;
                slot.1 = true;
            }
            let off = (at - base) as usize;
            let n = (CHUNK as usize - off).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&slot.2[off..off + n]);
            done += n;
        }
        true
    }
}

impl WalkMemory for Cached<'_> {
    fn mode(&self) -> CpuMode {
        self.mode
    }

    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        let slot = &self.descriptors[usize::from(seg >> 3) % DESCRIPTORS];
        if let Some((s, d)) = slot.get()
            && s == seg
        {
            return d;
        }
        let d = self.inner.descriptor(seg);
        slot.set(Some((seg, d)));
        d
    }

    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        if self.read_chunks(linear, buf) {
            return Ok(());
        }
        self.inner.read_linear(linear, buf)
    }

    fn current_task(&self) -> u16 {
        self.inner.current_task()
    }

    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        if let Some((c, o)) = self.owner.get()
            && c == cs
        {
            return o;
        }
        let o = self.inner.code_owner(cs);
        self.owner.set(Some((cs, o)));
        o
    }

    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        self.inner.descriptor_table(ldt)
    }

    fn cacheable(&self) -> bool {
        false
    }

    /// [`WalkMemory::read`] with the same checks in the same order, the
    /// descriptor from the cache, and a read inside one cached chunk
    /// copied straight out of it.
    fn read(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError> {
        let d = self.descriptor(seg).ok_or(MemError::BadSelector(seg))?;
        if self.mode == CpuMode::Protected && (!d.present() || !d.is_segment()) {
            return Err(MemError::BadSelector(seg));
        }
        let len = buf.len() as u32;
        let end = u32::from(off) + len;
        if len > 0 && end - 1 > d.limit {
            return Err(MemError::BeyondLimit {
                seg,
                off: off.into(),
                len,
                limit: d.limit,
            });
        }
        let linear = d.base.wrapping_add(off.into());
        if self.read_within_chunk(linear, buf) {
            return Ok(());
        }
        self.read_linear(linear, buf)
    }

    /// [`WalkMemory::read_u16`] through [`Cached::read`]: the walkers'
    /// read, a few per frame. Its common case — a word of the segment
    /// read last, inside a cached chunk — is small enough to inline into
    /// the walk; everything else is [`Cached::read_u16_slow`].
    #[inline]
    fn read_u16(&self, seg: u16, off: u16) -> Result<u16, MemError> {
        let (s, base, limit) = self.word_seg.get();
        if s == u32::from(seg) + 1 && u32::from(off) < limit {
            // The checks of `read` passed for this segment before.
            let linear = base.wrapping_add(off.into());
            let chunk = linear & !(CHUNK - 1);
            let at = (linear - chunk) as usize;
            if at + 2 <= CHUNK as usize {
                let chunks = self.chunks.borrow();
                let slot = &chunks[(chunk / CHUNK) as usize % CHUNKS];
                if slot.1 && slot.0 == chunk {
                    return Ok(u16::from_le_bytes([slot.2[at], slot.2[at + 1]]));
                }
            }
        }
        self.read_u16_slow(seg, off)
    }
}

impl Cached<'_> {
    /// [`WalkMemory::read_u16`]'s every case: the segment's descriptor
    /// checked (and remembered for the next word), the word read through
    /// [`Cached::read`].
    #[inline(never)]
    fn read_u16_slow(&self, seg: u16, off: u16) -> Result<u16, MemError> {
        let (s, _, _) = self.word_seg.get();
        if s != u32::from(seg) + 1
            && let Some(d) = self.descriptor(seg)
            && (self.mode == CpuMode::Real || (d.present() && d.is_segment()))
        {
            self.word_seg.set((u32::from(seg) + 1, d.base, d.limit));
        }
        let mut b = [0u8; 2];
        self.read(seg, off, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
}

impl Cached<'_> {
    /// Copy `buf` out of the chunk holding all of it, when that chunk is
    /// cached; false otherwise (the caller then reads as usual).
    #[inline]
    fn read_within_chunk(&self, linear: u32, buf: &mut [u8]) -> bool {
        let base = linear & !(CHUNK - 1);
        let off = (linear - base) as usize;
        if off + buf.len() > CHUNK as usize {
            return false;
        }
        let chunks = self.chunks.borrow();
        let slot = &chunks[(base / CHUNK) as usize % CHUNKS];
        if !(slot.1 && slot.0 == base) {
            return false;
        }
        match buf.len() {
            2 => {
                buf[0] = slot.2[off];
                buf[1] = slot.2[off + 1];
            }
            n => buf.copy_from_slice(&slot.2[off..off + n]),
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::testmem::TestMemory;

    #[test]
    fn cached_reads_answer_as_the_memory_does() {
        let mut m = TestMemory::real();
        let bytes: Vec<u8> = (0..=255u8).cycle().take(0x1200).collect();
        m.write_linear(0x1_0F80, &bytes);
        let c = Cached::new(&m);
        for (lin, len) in [
            (0x1_0F80u32, 2usize),
            (0x1_0FFF, 2),
            (0x1_10F0, 0x40),
            (0x1_0F80, 0x300),
        ] {
            let mut a = vec![0u8; len];
            let mut b = vec![0u8; len];
            assert_eq!(c.read_linear(lin, &mut a), m.read_linear(lin, &mut b));
            assert_eq!(a, b, "{lin:x}+{len}");
        }
        for (seg, off) in [(0x1000u16, 0xF80u16), (0x10F8, 0x7), (0x1000, 0xFFFF)] {
            assert_eq!(c.read_u16(seg, off), m.read_u16(seg, off));
        }
    }

    /// Protected mode: the cached word reads refuse what the trait's own
    /// `read` refuses (a word reaching past the limit, a data read of a
    /// missing or not-present segment) with the same error, and agree on
    /// every word they answer, cached chunk or not.
    #[test]
    fn cached_word_reads_keep_the_segment_checks() {
        let m = TestMemory::protected()
            .with_segment(0x1017, 0x1_0000, (0..=255u8).collect(), 0xFF, 0xF2)
            .with_segment(0x101F, 0x1_0100, vec![7; 0x10], 0x0F, 0x72);
        let c = Cached::new(&m);
        for _ in 0..2 {
            for (seg, off) in [
                (0x1017u16, 0u16),
                (0x1017, 0xFD),
                (0x1017, 0xFE),
                (0x1017, 0xFF),
                (0x1017, 0xFFFF),
                (0x101F, 0),
                (0x1027, 0),
                (0, 0),
            ] {
                assert_eq!(
                    c.read_u16(seg, off),
                    m.read_u16(seg, off),
                    "{seg:04X}:{off:04X}"
                );
            }
        }
        assert!(matches!(
            c.read_u16(0x1017, 0xFF),
            Err(MemError::BeyondLimit { limit: 0xFF, .. })
        ));
        assert_eq!(c.read_u16(0x1017, 0xFE), Ok(0xFFFE));
    }
}
