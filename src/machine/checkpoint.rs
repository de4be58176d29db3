//! Checkpoints of the machine: the CPU, the emulated memory, and the
//! machine's own state kept in Rust (descriptor-table bookkeeping, the
//! emulated clock and its pending timer tick, the instruction count, the
//! VGA adapter, the A20 gate, the first page's device memory), saved in
//! memory and put back into a machine of the same program, so that the
//! run goes on from there exactly as it did (the debugger's reverse
//! execution, src/debug/checkpoint.rs; the environment — DOS, Win16, the
//! drive's files — is saved beside it there).
//!
//! **Where.** A checkpoint is taken and restored between two emulations
//! of the top-level run (the machine's loop, run.rs `emulate`, in its
//! [`super::debug::set_between`] function, at nesting depth 0): nothing
//! of the run is then on the host's call stack. A Win16 window procedure
//! runs in a nested emulation started from inside a system function
//! (`run_nested`); DOS's handlers run inside the interrupt hook; neither
//! can be saved, so no checkpoint is taken while one is in progress
//! ([`Machine::checkpoint_safe`]).
//!
//! **The CPU** is the engine's whole register file (its context: general
//! registers, segment registers with their descriptor caches, GDTR,
//! LDTR, control registers, flags, the FPU), saved and restored as a
//! block.
//!
//! **Memory** is saved a 4 KiB page at a time; a page that holds the same
//! bytes as in the checkpoint saved before shares that one's copy, so a
//! run that changes little between checkpoints costs little. In
//! protected mode the mapped regions themselves (segments allocated and
//! freed since) are put back as they were, with their permissions.
//!
//! **The count and the clock.** A run restored from a checkpoint goes on
//! as the emulation that was about to start there: [`Machine::run`]
//! keeps the emulated clock, the instruction count and the last block
//! counted as the checkpoint had them instead of starting them at 0; the
//! translated code is dropped.

use super::{
    BTreeSet, CodeOwner, CpuMode, HashMap, Machine, MachineError, Permission, Uc, a20, page0, time,
    tlb, uc_error, uerr, vga,
};
use std::rc::Rc;

/// Bytes of a page of memory.
const PAGE_BYTES: usize = 0x1000;

/// A page of memory, shared between checkpoints where unchanged.
type Page = Rc<Vec<u8>>;

/// The machine's Rust state a checkpoint keeps.
#[derive(Clone)]
struct Kept {
    events: Vec<String>,
    events_dropped: u64,
    port60: u8,
    a20: a20::Gate,
    vga: Box<vga::Vga>,
    pages: tlb::Pages,
    page0_to_ram: bool,
    port_seq: (u32, u64),
    owners: HashMap<u16, CodeOwner>,
    real_owner: Option<(u16, u16, u16)>,
    current_task: u16,
    total_insns: u64,
    next_tick: u64,
    timed: bool,
    preentered: Option<(u64, u32, u64)>,
    resumed_mid_block: bool,
    next_ldt: u16,
    free_ldt: BTreeSet<u16>,
    resume: Resume,
}

/// What a restored run starts with instead of zeros (state.rs,
/// `restored`): this run's clock, its count of instructions executed,
/// the last block counted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Resume {
    pub(super) insns: u64,
    pub(super) executed: u64,
    pub(super) last_block: (u64, u32, u64),
}

/// A checkpoint of the machine (module notes).
pub struct MachineCheckpoint {
    mode: CpuMode,
    cpu: unicorn_engine::Context,
    /// Protected mode: the mapped regions (begin, length, permissions).
    regions: Vec<(u64, usize, Permission)>,
    /// The memory's pages by linear address (those of device memory
    /// excepted).
    pages: Vec<(u64, Page)>,
    /// Real mode: the first page while it is device memory.
    page0: Option<Vec<u8>>,
    kept: Kept,
    fresh: u64,
}

impl MachineCheckpoint {
    /// Bytes this checkpoint holds that the one before it did not share:
    /// its new pages and its copy of the machine's state.
    pub fn fresh_bytes(&self) -> u64 {
        self.fresh
    }

    fn page_at(&self, addr: u64) -> Option<&Page> {
        self.pages
            .binary_search_by_key(&addr, |p| p.0)
            .ok()
            .map(|i| &self.pages[i].1)
    }
}

fn ckerr(what: &str, e: uc_error) -> MachineError {
    uerr(&format!("checkpoint: {what}"), e)
}

/// The memory a checkpoint saves as pages: (begin, length) ranges.
fn ram_ranges(uc: &Uc<'_>) -> Result<Vec<(u64, usize)>, MachineError> {
    let st = uc.get_data();
    Ok(match st.mode {
        CpuMode::Real => {
            let from = if st.page0.is_some() {
                page0::SIZE as u64
            } else {
                0
            };
            let mut v = vec![(from, (a20::HMA_BASE - from) as usize)];
            if st.a20.enabled {
                v.push((a20::HMA_BASE, a20::HMA_SIZE));
            }
            v
        }
        CpuMode::Protected => uc
            .mem_regions()
            .map_err(|e| ckerr("listing memory", e))?
            .iter()
            .map(|r| (r.begin, (r.end - r.begin + 1) as usize))
            .collect(),
    })
}

impl Machine {
    /// Can a checkpoint be taken or restored now: between two emulations
    /// of the top-level run, no nested run in progress (module notes,
    /// "Where")?
    pub fn checkpoint_safe(uc: &Uc<'_>) -> bool {
        let st = uc.get_data();
        st.depth == 0 && st.emulating == 0 && st.stop.is_none() && st.slow.is_none()
    }

    /// Save the machine (module notes), sharing unchanged pages with
    /// `prev`. Only where [`Machine::checkpoint_safe`] says so.
    pub fn checkpoint(
        uc: &Uc<'_>,
        prev: Option<&MachineCheckpoint>,
    ) -> Result<MachineCheckpoint, MachineError> {
        if !Self::checkpoint_safe(uc) {
            return Err(MachineError(
                "a checkpoint cannot be taken inside a nested run".into(),
            ));
        }
        let mut cpu = uc.context_alloc().map_err(|e| ckerr("the CPU", e))?;
        uc.context_save(&mut cpu).map_err(|e| ckerr("the CPU", e))?;
        let st = uc.get_data();
        let mut fresh = 0u64;
        let mut pages = Vec::new();
        let mut buf = vec![0u8; PAGE_BYTES];
        for (begin, len) in ram_ranges(uc)? {
            let mut a = begin;
            while a < begin + len as u64 {
                let n = PAGE_BYTES.min((begin + len as u64 - a) as usize);
                uc.mem_read(a, &mut buf[..n])
                    .map_err(|e| ckerr("reading memory", e))?;
                let page = match prev.and_then(|p| p.page_at(a)) {
                    Some(p) if p.as_slice() == &buf[..n] => Rc::clone(p),
                    _ => {
                        fresh += n as u64;
                        Rc::new(buf[..n].to_vec())
                    }
                };
                pages.push((a, page));
                a += n as u64;
            }
        }
        let regions = match st.mode {
            CpuMode::Protected => uc
                .mem_regions()
                .map_err(|e| ckerr("listing memory", e))?
                .iter()
                .map(|r| (r.begin, (r.end - r.begin + 1) as usize, r.perms))
                .collect(),
            CpuMode::Real => Vec::new(),
        };
        let page0 = st.page0.as_ref().map(|p| p.bytes());
        let kept = Kept {
            events: st.events.clone(),
            events_dropped: st.events_dropped,
            port60: st.port60,
            a20: st.a20.clone(),
            vga: st.vga.clone(),
            pages: st.pages.clone(),
            page0_to_ram: st.page0_to_ram,
            port_seq: st.port_seq,
            owners: st.owners.clone(),
            real_owner: st.real_owner,
            current_task: st.current_task,
            total_insns: st.total_insns(),
            next_tick: st.next_tick,
            timed: st.timed,
            preentered: st.preentered,
            resumed_mid_block: st.resumed_mid_block,
            next_ldt: st.next_ldt,
            free_ldt: st.free_ldt.clone(),
            resume: Resume {
                insns: st.insns(),
                executed: st.ic.executed(),
                last_block: st.ic.last_block(),
            },
        };
        fresh += (std::mem::size_of::<Kept>()
            + st.vga.planes.len()
            + st.owners.len() * 16
            + st.events.iter().map(|e| e.len() + 24).sum::<usize>()
            + page0.as_ref().map_or(0, Vec::len)
            + regions.len() * 24
            + pages.len() * 16) as u64;
        Ok(MachineCheckpoint {
            mode: st.mode,
            cpu,
            regions,
            pages,
            page0,
            kept,
            fresh,
        })
    }

    /// Put the machine back as `ck` saved it (a machine of the same
    /// program, loaded the same way, outside any emulation). The next
    /// [`Machine::run`] goes on from there (module notes).
    pub fn restore(&mut self, ck: &MachineCheckpoint) -> Result<(), MachineError> {
        let uc = &mut self.uc;
        if uc.get_data().mode != ck.mode || uc.get_data().emulating != 0 {
            return Err(MachineError(
                "a checkpoint restored into another kind of machine".into(),
            ));
        }
        match ck.mode {
            CpuMode::Real => {
                a20::set(uc, ck.kept.a20.enabled)?;
                match (&ck.page0, uc.get_data().page0.clone()) {
                    (Some(bytes), Some(p)) => p.set_bytes(bytes),
                    (Some(bytes), None) => {
                        uc.mem_unmap(0, page0::SIZE)
                            .map_err(|e| ckerr("unmapping the first page", e))?;
                        page0::map(uc)?;
                        if let Some(p) = uc.get_data().page0.clone() {
                            p.set_bytes(bytes);
                        }
                    }
                    (None, Some(_)) => page0::to_ram(uc)?,
                    (None, None) => {}
                }
            }
            CpuMode::Protected => {
                let now: Vec<(u64, usize, Permission)> = uc
                    .mem_regions()
                    .map_err(|e| ckerr("listing memory", e))?
                    .iter()
                    .map(|r| (r.begin, (r.end - r.begin + 1) as usize, r.perms))
                    .collect();
                for r in &now {
                    if !ck.regions.iter().any(|c| (c.0, c.1) == (r.0, r.1)) {
                        uc.mem_unmap(r.0, r.1)
                            .map_err(|e| ckerr("unmapping memory", e))?;
                    }
                }
                for c in &ck.regions {
                    match now.iter().find(|r| (r.0, r.1) == (c.0, c.1)) {
                        Some(r) if r.2.bits() == c.2.bits() => {}
                        Some(_) => uc
                            .mem_protect(c.0, c.1, c.2)
                            .map_err(|e| ckerr("protecting memory", e))?,
                        None => uc
                            .mem_map(c.0, c.1, c.2)
                            .map_err(|e| ckerr("mapping memory", e))?,
                    }
                }
            }
        }
        for (a, page) in &ck.pages {
            uc.mem_write(*a, page)
                .map_err(|e| ckerr("writing memory", e))?;
        }
        uc.context_restore(&ck.cpu)
            .map_err(|e| ckerr("the CPU", e))?;
        let k = ck.kept.clone();
        if k.timed {
            time::start_timing(uc);
        }
        let st = uc.get_data_mut();
        st.events = k.events;
        st.events_dropped = k.events_dropped;
        st.port60 = k.port60;
        st.a20 = k.a20;
        st.vga = k.vga;
        st.pages = k.pages;
        st.page0_to_ram = k.page0_to_ram;
        st.port_seq = k.port_seq;
        st.owners = k.owners;
        st.real_owner = k.real_owner;
        st.current_task = k.current_task;
        st.total_clock = k.total_insns;
        // The clock is whole in its base (time.rs) until the next run
        // sets the count.
        st.clock_mark = st.ic.executed();
        st.next_tick = k.next_tick;
        st.timed = k.timed;
        st.preentered = k.preentered;
        st.resumed_mid_block = k.resumed_mid_block;
        st.next_ldt = k.next_ldt;
        st.free_ldt = k.free_ldt;
        st.restored = Some(k.resume);
        st.tlb_fault = None;
        st.ran = true;
        st.tb_counts.forget(0, u64::MAX);
        let _ = uc.ctl_flush_tb();
        let _ = uc.ctl_flush_tlb();
        Ok(())
    }
}
