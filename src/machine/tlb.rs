//! Protected mode: the machine fills QEMU's TLB itself, so that a memory
//! fault stops at the exact instruction without any hook per instruction.
//!
//! unicorn 2 does not restore the guest's instruction pointer when an
//! access touches unmapped or protected memory through its ordinary TLB:
//! the emulation ends with IP wherever it was last written (often the
//! start of a block several blocks back, since chained blocks do not write
//! it). Its per-instruction count hook used to hide that by writing IP
//! before every instruction. In unicorn's *virtual TLB* mode, though, a
//! TLB miss asks a hook for the page, and a page the hook refuses raises
//! the fault through QEMU's `cpu_loop_exit_restore`, which finds the
//! faulting instruction from the translated block's search data: IP (and
//! the lazily computed flags) are exact, and the general registers are
//! already as they were before the instruction (QEMU writes them only
//! after the accesses that can fault). The hook runs on TLB misses only,
//! a few times after each change of the memory map, never per access.
//!
//! The hook answers from [`Pages`], the permissions of every mapped page
//! of linear space, kept by [`map`], [`unmap`] and [`protect`] (the only
//! ways the machine changes its memory map). Paging is off, so a linear
//! page maps to the same physical page.

use unicorn_engine::unicorn_const::{MemType, Permission, TlbEntry, TlbType, uc_error};

use super::{MachineError, Uc, uerr};
use crate::x86::CpuMode;

const PAGE_SHIFT: u32 = 12;

/// Permissions of every page of linear space (R = 1, W = 2, X = 4, as
/// unicorn's `Permission`); 0 for a page not mapped.
#[derive(Clone, Debug, Default)]
pub struct Pages {
    perms: Vec<u8>,
}

impl Pages {
    fn set(&mut self, start: u64, len: u64, perms: u8) {
        let first = (start >> PAGE_SHIFT) as usize;
        let end = (start + len).div_ceil(1 << PAGE_SHIFT) as usize;
        if self.perms.len() < end {
            self.perms.resize(end, 0);
        }
        self.perms[first..end].fill(perms);
    }

    /// The permissions of the page holding linear address `addr`.
    pub fn get(&self, addr: u64) -> u8 {
        self.perms
            .get((addr >> PAGE_SHIFT) as usize)
            .copied()
            .unwrap_or(0)
    }
}

/// Map memory, keeping [`Pages`] (in protected mode).
pub(super) fn map(
    uc: &mut Uc<'_>,
    start: u64,
    len: usize,
    perms: Permission,
) -> Result<(), uc_error> {
    uc.mem_map(start, len, perms)?;
    if uc.get_data().mode == CpuMode::Protected {
        uc.get_data_mut()
            .pages
            .set(start, len as u64, perms.bits() as u8);
    }
    Ok(())
}

/// Unmap memory, keeping [`Pages`].
pub(super) fn unmap(uc: &mut Uc<'_>, start: u64, len: usize) -> Result<(), uc_error> {
    uc.mem_unmap(start, len)?;
    if uc.get_data().mode == CpuMode::Protected {
        uc.get_data_mut().pages.set(start, len as u64, 0);
    }
    uc.get_data()
        .tb_counts
        .forget(start, start.saturating_add(len as u64));
    Ok(())
}

/// Change permissions, keeping [`Pages`].
pub(super) fn protect(
    uc: &mut Uc<'_>,
    start: u64,
    len: usize,
    perms: Permission,
) -> Result<(), uc_error> {
    uc.mem_protect(start, len, perms)?;
    if uc.get_data().mode == CpuMode::Protected {
        uc.get_data_mut()
            .pages
            .set(start, len as u64, perms.bits() as u8);
    }
    Ok(())
}

/// Switch the engine to the virtual TLB with [`on_fill`] answering.
pub(super) fn install(uc: &mut Uc<'_>) -> Result<(), MachineError> {
    uc.ctl_tlb_type(TlbType::VIRTUAL)
        .map_err(|e| uerr("virtual TLB", e))?;
    uc.add_tlb_hook(1, 0, |uc, vaddr, t| {
        super::hookguard::guard(uc, "TLB", None, |uc| on_fill(uc, vaddr, t))
    })
    .map_err(|e| uerr("TLB hook", e))?;
    Ok(())
}

/// A TLB miss: the page with its permissions when the access is allowed,
/// else None (the fault, remembered for the machine's report).
fn on_fill(uc: &mut Uc<'_>, vaddr: u64, t: MemType) -> Option<TlbEntry> {
    super::counter::inline_off(uc);
    let st = uc.get_data_mut();
    let mut perms = st.pages.get(vaddr);
    // A fetch from any mapped page is let through. unicorn asks for one
    // itself, outside any emulation, whenever it drops translations of a
    // range (unmapping, invalidating): refusing it would leave an error
    // behind that makes every later `uc_mem_map` fail (unicorn 2.1.3
    // checks a stale error there). The program cannot fetch from a data
    // page anyway: a near transfer stays in its code segment's slot and
    // lands on its HLT padding or its hole (unmapped), and a far one is
    // checked by the CPU against the selector's descriptor.
    if t == MemType::FETCH && perms != 0 {
        perms |= 4;
    }
    let need = match t {
        MemType::WRITE => 2,
        MemType::FETCH => 4,
        _ => 1,
    };
    if perms & need != 0 {
        return Some(TlbEntry {
            paddr: vaddr,
            perms: Permission::from_bits_truncate(perms.into()),
        });
    }
    st.tlb_fault = Some((t, vaddr));
    None
}

/// The executable ranges of linear space, `[from, to)`.
pub(super) fn exec_ranges(uc: &Uc<'_>) -> Vec<(u64, u64)> {
    let pages = &uc.get_data().pages.perms;
    let mut out = Vec::new();
    let mut start = None;
    for (i, &p) in pages.iter().chain(std::iter::once(&0)).enumerate() {
        let page = (i as u64) << PAGE_SHIFT;
        match (p & 4 != 0, start) {
            (true, None) => start = Some(page),
            (false, Some(s)) => {
                out.push((s, page));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Drop the engine's translations of linear `[from, to)` (unicorn's
/// TB_REMOVE_CACHE control), as every part of the tool must: unicorn finds
/// the range's pages through the TLB, and in protected mode a page the
/// TLB refuses ([`on_fill`]: no permission at all, as a segment's hole or
/// freed memory) leaves the refusal's exception pending in the CPU, so
/// that the next emulation starts with a #GP at its first instruction (a
/// debugger's breakpoint past a code segment's end did that). No
/// translation of such a page can run (a fetch from it faults before any
/// translation is looked up), so those pages are skipped.
pub fn remove_cache(uc: &Uc<'_>, from: u64, to: u64) {
    if from >= to {
        return;
    }
    let st = uc.get_data();
    if st.mode != CpuMode::Protected {
        let _ = uc.ctl_remove_cache(from, to);
        return;
    }
    let page = 1u64 << PAGE_SHIFT;
    let mut run: Option<u64> = None;
    let mut p = from & !(page - 1);
    while p < to {
        let ok = st.pages.get(p) != 0;
        match (ok, run) {
            (true, None) => run = Some(p.max(from)),
            (false, Some(s)) => {
                let _ = uc.ctl_remove_cache(s, p);
                run = None;
            }
            _ => {}
        }
        p += page;
    }
    if let Some(s) = run {
        let _ = uc.ctl_remove_cache(s, to);
    }
}
