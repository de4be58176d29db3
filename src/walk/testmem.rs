//! A hand-built 16-bit machine for tests: segments, bytes and owners set up
//! one by one, read back through [`WalkMemory`].
//!
//! Not `cfg(test)`: integration tests and other crates build their stacks
//! with it too. The builders panic on misuse (an unknown selector, a stack
//! pushed below offset 0), as test helpers should; the [`WalkMemory`]
//! implementation never panics.
//!
//! Memory is kept in 4 KiB pages. [`TestMemory::add_segment`] maps the pages
//! its bytes cover and the `write_*` helpers map pages on demand; reading a
//! page never mapped fails with [`MemError::Unmapped`], so a segment placed at
//! the end of its pages has a guard after it.

use std::collections::{BTreeMap, HashMap};

use super::memory::{CodeOwner, CpuMode, Descriptor, MemError, WalkMemory};

const PAGE: u32 = 0x1000;

/// A hand-built machine (see the module documentation).
#[derive(Debug, Clone)]
pub struct TestMemory {
    mode: CpuMode,
    /// Protected mode: descriptors by selector with the RPL bits cleared
    /// (index and table bit), as the CPU looks them up.
    descriptors: BTreeMap<u16, Descriptor>,
    pages: HashMap<u32, Box<[u8]>>,
    current_task: u16,
    /// Owners by selector without RPL (protected) or by paragraph (real).
    owners: BTreeMap<u16, CodeOwner>,
}

/// Where a stack being built stands: SS, SP and BP as the simulated code
/// would have them. The `push_*` builders of [`TestMemory`] move it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackCursor {
    /// Stack segment.
    pub ss: u16,
    /// Stack pointer: the offset of the last word pushed.
    pub sp: u16,
    /// Frame pointer of the innermost frame built so far (0 at a task's
    /// entry point, win16.md "How a Win16 task starts").
    pub bp: u16,
}

impl StackCursor {
    /// An empty stack whose first push lands just below `sp`, with BP = 0.
    pub fn new(ss: u16, sp: u16) -> Self {
        StackCursor { ss, sp, bp: 0 }
    }
}

impl TestMemory {
    /// An empty 16-bit protected-mode machine: no selectors, no memory.
    pub fn protected() -> Self {
        Self::new(CpuMode::Protected)
    }

    /// An empty real-mode machine: every segment value names the 64 KiB at
    /// `seg * 16`, but only memory written so far is mapped.
    pub fn real() -> Self {
        Self::new(CpuMode::Real)
    }

    fn new(mode: CpuMode) -> Self {
        TestMemory {
            mode,
            descriptors: BTreeMap::new(),
            pages: HashMap::new(),
            current_task: 0,
            owners: BTreeMap::new(),
        }
    }

    fn key(&self, seg: u16) -> u16 {
        match self.mode {
            CpuMode::Protected => seg & !3,
            CpuMode::Real => seg,
        }
    }

    /// Define a protected-mode selector (LDT style, e.g. 0x1007) with a
    /// descriptor `{base, limit, access}` and put `bytes` at `base`. Any RPL
    /// of the same index names the same descriptor, as on the CPU. `bytes`
    /// may be shorter than the limit (or empty, for a descriptor alone).
    ///
    /// # Panics
    /// In real mode, where segments have no descriptors (use
    /// [`TestMemory::write_bytes`]).
    pub fn add_segment(
        &mut self,
        selector: u16,
        base: u32,
        bytes: Vec<u8>,
        limit: u32,
        access: u8,
    ) {
        assert!(
            self.mode == CpuMode::Protected,
            "add_segment defines a descriptor: protected mode only"
        );
        self.descriptors.insert(
            self.key(selector),
            Descriptor {
                base,
                limit,
                access,
            },
        );
        self.write_linear(base, &bytes);
    }

    /// Builder form of [`TestMemory::add_segment`].
    pub fn with_segment(
        mut self,
        selector: u16,
        base: u32,
        bytes: Vec<u8>,
        limit: u32,
        access: u8,
    ) -> Self {
        self.add_segment(selector, base, bytes, limit, access);
        self
    }

    /// Write bytes at a linear address, mapping the pages they touch.
    pub fn write_linear(&mut self, linear: u32, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            let a = linear.wrapping_add(i as u32);
            let page = self
                .pages
                .entry(a / PAGE)
                .or_insert_with(|| vec![0u8; PAGE as usize].into_boxed_slice());
            page[(a % PAGE) as usize] = *b;
        }
    }

    /// Map the pages covering `[linear, linear + len)`, zero-filled where
    /// nothing was written yet.
    pub fn map_linear(&mut self, linear: u32, len: u32) {
        let first = linear / PAGE;
        let last = linear.saturating_add(len.max(1) - 1) / PAGE;
        for p in first..=last {
            self.pages
                .entry(p)
                .or_insert_with(|| vec![0u8; PAGE as usize].into_boxed_slice());
        }
    }

    /// The linear address of `seg:off` (real: `seg * 16 + off`; protected:
    /// descriptor base + off, with no limit check).
    ///
    /// # Panics
    /// For a protected-mode selector that was never added.
    pub fn linear(&self, seg: u16, off: u16) -> u32 {
        match self.mode {
            CpuMode::Real => (u32::from(seg) << 4) + u32::from(off),
            CpuMode::Protected => {
                let d = self
                    .descriptors
                    .get(&self.key(seg))
                    .unwrap_or_else(|| panic!("selector {seg:04X} was never added"));
                d.base.wrapping_add(u32::from(off))
            }
        }
    }

    /// Write bytes at `seg:off` (no limit check: tests may write past a
    /// limit on purpose).
    pub fn write_bytes(&mut self, seg: u16, off: u16, bytes: &[u8]) {
        let a = self.linear(seg, off);
        self.write_linear(a, bytes);
    }

    /// Write a little-endian word at `seg:off` (no limit check).
    pub fn write_u16(&mut self, seg: u16, off: u16, v: u16) {
        self.write_bytes(seg, off, &v.to_le_bytes());
    }

    /// The task StackTraceCSIPFirst reports and StackTraceFirst refuses.
    pub fn set_current_task(&mut self, h_task: u16) {
        self.current_task = h_task;
    }

    /// Who owns code segment `cs` (matched without RPL in protected mode,
    /// by exact paragraph in real mode).
    pub fn set_code_owner(&mut self, cs: u16, owner: CodeOwner) {
        self.owners.insert(self.key(cs), owner);
    }

    /// Builder form of [`TestMemory::set_code_owner`].
    pub fn with_code_owner(mut self, cs: u16, owner: CodeOwner) -> Self {
        self.set_code_owner(cs, owner);
        self
    }

    /// Write the instance data a stack walk reads (toolhelp.md, "Where the
    /// stack bounds live"): pStackTop at SS:0A, pStackMin at SS:0C (set to
    /// `top`) and pStackBot at SS:0E.
    pub fn set_instance_data(&mut self, ss: u16, top: u16, bot: u16) {
        self.write_u16(ss, 0x0A, top);
        self.write_u16(ss, 0x0C, top);
        self.write_u16(ss, 0x0E, bot);
    }

    /// Builder form of [`TestMemory::set_instance_data`].
    pub fn with_instance_data(mut self, ss: u16, top: u16, bot: u16) -> Self {
        self.set_instance_data(ss, top, bot);
        self
    }

    /// Push a word: SP -= 2, then `[SS:SP] = v`.
    ///
    /// # Panics
    /// If SP would go below 0.
    pub fn push_word(&mut self, cur: &mut StackCursor, v: u16) {
        cur.sp = cur
            .sp
            .checked_sub(2)
            .expect("test stack pushed below offset 0");
        self.write_u16(cur.ss, cur.sp, v);
    }

    /// A near call into a function with the standard prologue
    /// (toolhelp.md, "Prologue conventions"): `call` pushes `ret_ip`, then
    /// `push bp; mov bp,sp`. Returns the new frame's BP.
    pub fn push_near_frame(&mut self, cur: &mut StackCursor, ret_ip: u16) -> u16 {
        self.push_word(cur, ret_ip);
        let bp = cur.bp;
        self.push_word(cur, bp);
        cur.bp = cur.sp;
        cur.bp
    }

    /// A far call into a function: `call far` pushes `ret_cs:ret_ip`, then
    /// the prologue pushes BP, odd (`inc bp; push bp`, the Windows far
    /// marker) when `odd_bp`, else unchanged (the optional form Windows 3.1
    /// allowed), and does `mov bp,sp`. Returns the new frame's BP.
    pub fn push_far_frame(
        &mut self,
        cur: &mut StackCursor,
        ret_cs: u16,
        ret_ip: u16,
        odd_bp: bool,
    ) -> u16 {
        self.push_word(cur, ret_cs);
        self.push_word(cur, ret_ip);
        let saved = if odd_bp { cur.bp | 1 } else { cur.bp };
        self.push_word(cur, saved);
        cur.bp = cur.sp;
        cur.bp
    }

    /// Reserve `bytes` of locals below the frame (SP -= bytes).
    pub fn push_locals(&mut self, cur: &mut StackCursor, bytes: u16) {
        cur.sp = cur
            .sp
            .checked_sub(bytes)
            .expect("test stack pushed below offset 0");
    }

    /// The frame KERNEL's scheduler leaves on a task it switches away from
    /// (toolhelp.md, StackTraceFirst step 3): a far call from
    /// `ret_cs:ret_ip`, `inc bp; push bp; mov bp,sp`, then DS, SI, DI, AX,
    /// CX, ES, BX, DX. The saved BP is `bp + 1`, except for a task that
    /// never ran (BP = 0), whose saved BP is 0 (win16.md). DS is pushed as
    /// SS, the other registers as 0. Returns the SP to store in the TDB.
    pub fn push_scheduler_frame(&mut self, cur: &mut StackCursor, ret_cs: u16, ret_ip: u16) -> u16 {
        self.push_word(cur, ret_cs);
        self.push_word(cur, ret_ip);
        let saved = if cur.bp == 0 {
            0
        } else {
            cur.bp.wrapping_add(1)
        };
        self.push_word(cur, saved);
        cur.bp = cur.sp;
        let ds = cur.ss;
        for v in [ds, 0, 0, 0, 0, 0, 0, 0] {
            self.push_word(cur, v);
        }
        cur.sp
    }

    /// A task database at selector `h_task` (base `base`, 0x100 bytes, a
    /// ring-3 data segment) whose 'TD' signature is at +FA and whose saved
    /// SS:SP (+04, +02) is `ss:sp` (win16.md, "The task database").
    pub fn add_task(&mut self, h_task: u16, base: u32, ss: u16, sp: u16) {
        self.add_segment(h_task, base, vec![0; 0x100], 0xFF, Descriptor::DATA_R3);
        self.write_u16(h_task, 0x02, sp);
        self.write_u16(h_task, 0x04, ss);
        self.write_u16(h_task, 0xFA, 0x4454);
    }
}

impl WalkMemory for TestMemory {
    fn mode(&self) -> CpuMode {
        self.mode
    }

    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        match self.mode {
            CpuMode::Real => Some(Descriptor::real(seg)),
            CpuMode::Protected if seg & !3 == 0 => None,
            CpuMode::Protected => self.descriptors.get(&(seg & !3)).copied(),
        }
    }

    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        for (i, b) in buf.iter_mut().enumerate() {
            let a = linear.wrapping_add(i as u32);
            let page = self
                .pages
                .get(&(a / PAGE))
                .ok_or(MemError::Unmapped { linear: a })?;
            *b = page[(a % PAGE) as usize];
        }
        Ok(())
    }

    fn current_task(&self) -> u16 {
        self.current_task
    }

    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        self.owners.get(&self.key(cs)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_reads_are_limit_checked_and_null_selectors_are_none() {
        let m = TestMemory::protected().with_segment(
            0x1007,
            0x2_0000,
            vec![1, 2, 3, 4],
            3,
            Descriptor::DATA_R3,
        );
        assert_eq!(m.descriptor(0), None);
        assert_eq!(m.descriptor(3), None);
        assert_eq!(m.descriptor(0x100F), None);
        assert_eq!(m.read_u16(0x1007, 2), Ok(0x0403));
        assert_eq!(
            m.read_u16(0x1004, 0),
            Ok(0x0201),
            "RPL does not change the descriptor"
        );
        assert!(matches!(
            m.read_u16(0x1007, 3),
            Err(MemError::BeyondLimit { .. })
        ));
        assert_eq!(m.read_u16(0x100F, 0), Err(MemError::BadSelector(0x100F)));
    }

    #[test]
    fn unmapped_pages_fail() {
        let m = TestMemory::protected().with_segment(
            0x1007,
            0x2_0FFE,
            vec![1, 2],
            0xFFFF,
            Descriptor::DATA_R3,
        );
        assert_eq!(m.read_u16(0x1007, 0), Ok(0x0201));
        assert_eq!(
            m.read_u16(0x1007, 2),
            Err(MemError::Unmapped { linear: 0x2_1000 })
        );
    }

    #[test]
    fn real_mode_segments_overlap_by_paragraph() {
        let mut m = TestMemory::real();
        m.write_u16(0x1000, 0x12, 0xBEEF);
        assert_eq!(m.read_u16(0x1001, 2), Ok(0xBEEF));
        assert_eq!(m.descriptor(0), Some(Descriptor::real(0)));
    }

    #[test]
    fn stack_builders_lay_frames_as_the_prologues_do() {
        let mut m = TestMemory::protected().with_segment(
            0x1017,
            0x3_0000,
            vec![0; 0x100],
            0xFF,
            Descriptor::DATA_R3,
        );
        let mut cur = StackCursor::new(0x1017, 0x100);
        let a = m.push_near_frame(&mut cur, 0x1234);
        assert_eq!(
            (a, m.read_u16(0x1017, a), m.read_u16(0x1017, a + 2)),
            (0xFC, Ok(0), Ok(0x1234))
        );
        let b = m.push_far_frame(&mut cur, 0x2007, 0x5678, true);
        assert_eq!(b, 0xF6);
        assert_eq!(m.read_u16(0x1017, b), Ok(0xFD));
        assert_eq!(m.read_u16(0x1017, b + 2), Ok(0x5678));
        assert_eq!(m.read_u16(0x1017, b + 4), Ok(0x2007));
        let sp = m.push_scheduler_frame(&mut cur, 0x3007, 0x9ABC);
        assert_eq!(sp, 0xF6 - 6 - 16);
        assert_eq!(m.read_u16(0x1017, sp + 0x10), Ok(0xF7));
        assert_eq!(m.read_u16(0x1017, sp + 0x12), Ok(0x9ABC));
        assert_eq!(m.read_u16(0x1017, sp + 0x14), Ok(0x3007));
        assert_eq!(m.read_u16(0x1017, sp + 0x0E), Ok(0x1017));
    }
}
