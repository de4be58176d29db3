//! Counting executed instructions a translation block at a time, only
//! when something needs the count: an instruction budget, an observer
//! (tracer, profiler, shadow stack), or a timed run (time.rs).
//!
//! **The hook.** One block hook ([`on_block`]) does everything per block:
//! the due timer ticks of a timed run, the budget, the count, and the
//! observers. It is installed the first time counting is wanted and stays:
//! cached translations made before it do not call it, so installing it
//! also drops them ([`forget_all_code`]).
//!
//! **Instructions per block** come from a direct-mapped table keyed by
//! the block's linear address and size ([`TbCounts`]), filled when QEMU
//! translates a block: unicorn's edge-generation hook reports every new
//! translation with its instruction count, so a block that a program
//! rewrote and QEMU translated again is counted as it is now. A block
//! the table does not hold (the first one of a machine, or one whose slot
//! a later block took) is decoded once. No hashing, no allocation.
//!
//! **Self-modifying code.** A store into the block that is running makes
//! QEMU abandon the block at the store (precise SMC: the state is put
//! back as it was before the store) and run the store again as a block of
//! its own, translated afresh. That block starts inside the last one and
//! ends before it, which a block entered in the ordinary way never does
//! (it would run to the same final jump): the hook settles the last block
//! there, as at a stop, so the count stays exact.
//!
//! **An exact budget.** A block is counted when it is entered, before it
//! runs. When the budget ends inside the block (`k` of its `n`
//! instructions still allowed), the emulation stops at the block's start,
//! a code hook is set on the instruction after the `k`-th (for that one
//! address only), and the block runs again up to it. Blocks entered but
//! not run to their end (a fault, a breakpoint, a stop an observer asked
//! for) are settled when the run stops ([`settle`]), so the count is the
//! number of instructions completed, at every stop.

use std::cell::Cell;

use unicorn_engine::unicorn_const::HookType;

use super::{Cpu, R, Stop, Uc, uerr, with_host, with_observers};
use crate::walk::CpuMode;

/// Slots of the direct-mapped table of block instruction counts.
const SLOTS: usize = 1 << 13;

/// One slot: the block's key (`linear << 16 | size`, `u64::MAX` when
/// empty), its instruction count, and whether a recording has been given
/// its translation (record.rs).
struct Slot {
    key: Cell<u64>,
    n: Cell<u32>,
    given: Cell<bool>,
}

/// Instruction counts of translated blocks (module notes). Shared with
/// unicorn's edge-generation hook through a raw pointer, hence cells. The
/// slots are held in place (the state boxes the table once), so the hook
/// reaches a slot in one step from the state, with no bounds check.
pub struct TbCounts {
    slots: [Slot; SLOTS],
}

impl Default for TbCounts {
    fn default() -> Self {
        TbCounts {
            slots: std::array::from_fn(|_| Slot {
                key: Cell::new(u64::MAX),
                n: Cell::new(0),
                given: Cell::new(false),
            }),
        }
    }
}

fn key(addr: u64, size: u32) -> u64 {
    addr << 16 | u64::from(size & 0xFFFF)
}

fn slot_index(addr: u64, size: u32) -> usize {
    ((addr ^ (addr >> 13) ^ u64::from(size) << 7) as usize) & (SLOTS - 1)
}

impl TbCounts {
    #[inline(always)]
    fn find(&self, addr: u64, size: u32) -> Option<&Slot> {
        let s = &self.slots[slot_index(addr, size)];
        (s.key.get() == key(addr, size)).then_some(s)
    }

    fn get(&self, addr: u64, size: u32) -> Option<u32> {
        self.find(addr, size).map(|s| s.n.get())
    }

    fn put(&self, addr: u64, size: u32, n: u32) {
        let s = &self.slots[slot_index(addr, size)];
        s.key.set(key(addr, size));
        s.n.set(n);
        s.given.set(false);
    }

    /// A new recording starts: no translation has been given to it.
    pub(super) fn forget_given(&self) {
        for s in self.slots.iter() {
            s.given.set(false);
        }
    }

    /// Forget every block starting in `[from, to)` (code unmapped or
    /// rewritten by the host).
    pub fn forget(&self, from: u64, to: u64) {
        for s in self.slots.iter() {
            let k = s.key.get();
            if k != u64::MAX && (from..to).contains(&(k >> 16)) {
                s.key.set(u64::MAX);
            }
        }
    }
}

/// unicorn's `uc_tb`: a translation block's guest address, instruction
/// count and size in bytes.
#[repr(C)]
struct UcTb {
    pc: u64,
    icount: u16,
    size: u16,
}

/// unicorn's UC_HOOK_EDGE_GENERATED (the Rust binding has no method for
/// it): called when QEMU has translated a new block.
const HOOK_EDGE_GENERATED: i32 = 1 << 15;

extern "C" fn on_new_block(
    _uc: unicorn_engine::ffi::uc_handle,
    cur: *const UcTb,
    _prev: *const UcTb,
    user_data: *mut std::ffi::c_void,
) {
    // SAFETY: unicorn passes the `uc_tb` of the new block (a valid
    // pointer for the call) and the user data we registered: the
    // machine's `TbCounts`, boxed in its state, which lives as long as
    // the engine (hooks only run inside `uc_emu_start`).
    let (cur, counts) = unsafe { (&*cur, &*(user_data as *const TbCounts)) };
    if cur.icount > 0 {
        counts.put(cur.pc, u32::from(cur.size), u32::from(cur.icount));
    }
}

/// Register the edge-generation hook that fills `counts`.
pub(super) fn install_edge_hook(uc: &mut Uc<'_>) -> Result<(), super::MachineError> {
    let counts: *const TbCounts = &*uc.get_data().tb_counts;
    let mut hook: unicorn_engine::ffi::uc_hook = std::ptr::null_mut();
    // SAFETY: `uc_hook_add` with UC_HOOK_EDGE_GENERATED takes a callback
    // of the `uc_hook_edge_gen_t` shape (`on_new_block`'s), a user-data
    // pointer and the address range, and no further arguments. The
    // pointer stays valid: `TbCounts` is boxed in the state, never
    // replaced, and dropped only with the engine.
    let err = unsafe {
        unicorn_engine::ffi::uc_hook_add(
            uc.get_handle(),
            &mut hook,
            HookType::from_bits_retain(HOOK_EDGE_GENERATED),
            on_new_block as *mut std::ffi::c_void,
            counts as *mut std::ffi::c_void,
            1,
            0,
        )
    };
    if err != unicorn_engine::unicorn_const::uc_error::OK {
        return Err(uerr("block translation hook", err));
    }
    Ok(())
}

/// Instructions in the block at `addr` of `size` bytes.
#[inline(always)]
fn icount(uc: &Uc<'_>, addr: u64, size: u32) -> u32 {
    match uc.get_data().tb_counts.get(addr, size) {
        Some(n) => n,
        None => icount_missed(uc, addr, size),
    }
}

/// A block the table does not hold: decoded once, then held. Out of line
/// (and its 4 KiB buffer with it), so that the hook's common path sets up
/// no large stack frame.
#[cold]
#[inline(never)]
fn icount_missed(uc: &Uc<'_>, addr: u64, size: u32) -> u32 {
    let n = decode_count(uc, addr, size, None);
    uc.get_data().tb_counts.put(addr, size, n);
    n
}

/// Decode the block's instructions: how many there are, or (with
/// `before`) how many start before that linear address.
fn decode_count(uc: &Uc<'_>, addr: u64, size: u32, before: Option<u64>) -> u32 {
    let mut bytes = [0u8; 4096];
    let len = (size as usize).min(bytes.len());
    if uc.mem_read(addr, &mut bytes[..len]).is_err() {
        return 1;
    }
    // Real-mode code and Win16's code segments are 16-bit.
    let mut d = iced_x86::Decoder::with_ip(16, &bytes[..len], addr, iced_x86::DecoderOptions::NONE);
    let mut n = 0u32;
    let mut insn = iced_x86::Instruction::default();
    while d.can_decode() {
        if before.is_some_and(|b| d.ip() >= b) {
            break;
        }
        d.decode_out(&mut insn);
        n += 1;
    }
    if before.is_none() { n.max(1) } else { n }
}

/// The linear address of instruction `k` (0-based) of the block.
fn insn_address(uc: &Uc<'_>, addr: u64, size: u32, k: u32) -> u64 {
    let mut bytes = [0u8; 4096];
    let len = (size as usize).min(bytes.len());
    if uc.mem_read(addr, &mut bytes[..len]).is_err() {
        return addr;
    }
    let mut d = iced_x86::Decoder::with_ip(16, &bytes[..len], addr, iced_x86::DecoderOptions::NONE);
    let mut insn = iced_x86::Instruction::default();
    for _ in 0..k {
        if !d.can_decode() {
            break;
        }
        d.decode_out(&mut insn);
    }
    d.ip()
}

/// Where the budget ends inside a block: the block, the address of the
/// first instruction not allowed, the instructions allowed before it, and
/// the code hook stopping there once armed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tail {
    block: u64,
    at: u64,
    k: u64,
    hook: Option<unicorn_engine::UcHookId>,
    entered: bool,
}

/// Ask for the counting hook. During an emulation (a hook, or the
/// first page's device callbacks, asked) it is installed at once and every
/// translated block is dropped: the block running now finishes as it was
/// translated (its chained jumps are undone with it), and the next block,
/// translated again, is the first counted. The emulation is not stopped:
/// unicorn leaves a block it stops in the middle (after any memory access)
/// with IP at the block's start and the registers half-way. Outside any
/// emulation the next one installs it ([`apply_pending`]).
pub(super) fn want_counting(uc: &mut Uc<'_>) {
    let st = uc.get_data_mut();
    if st.counting {
        return;
    }
    if st.emulating > 0 {
        if let Err(e) = install(uc) {
            uc.request_stop(e);
        }
    } else {
        st.want_count = true;
    }
}

fn install(uc: &mut Uc<'_>) -> Result<(), Stop> {
    uc.add_block_hook(1, 0, on_block)
        .map_err(|e| Stop::Error(uerr("block hook", e).0))?;
    let st = uc.get_data_mut();
    st.counting = true;
    st.want_count = false;
    forget_all_code(uc);
    Ok(())
}

/// Do what hooks asked of the machine's loop, between two emulations:
/// install the counting hook, arm the budget's stop inside a block, make
/// the first page plain memory.
pub(super) fn apply_pending(uc: &mut Uc<'_>) -> Result<(), Stop> {
    if uc.get_data().want_count && !uc.get_data().counting {
        install(uc)?;
    }
    uc.get_data_mut().want_count = false;
    if let Some(mut t) = uc.get_data().tail
        && t.hook.is_none()
    {
        let id = uc
            .add_code_hook(t.at, t.at, on_tail)
            .map_err(|e| Stop::Error(uerr("budget hook", e).0))?;
        let _ = uc.ctl_remove_cache(t.at, t.at + 1);
        t.hook = Some(id);
        uc.get_data_mut().tail = Some(t);
    }
    if std::mem::take(&mut uc.get_data_mut().page0_to_ram) {
        super::page0::to_ram(uc).map_err(|e| Stop::Error(e.0))?;
    }
    Ok(())
}

/// Did the block hook stop the emulation to arm the budget's stop inside
/// a block?
pub(super) fn tail_to_arm(uc: &Uc<'_>) -> bool {
    uc.get_data().tail.is_some_and(|t| t.hook.is_none())
}

/// Remove the budget's code hook once the run stopped.
pub(super) fn disarm(uc: &mut Uc<'_>) {
    if let Some(t) = uc.get_data_mut().tail.take() {
        if let Some(id) = t.hook {
            let _ = uc.remove_hook(id);
        }
        let _ = uc.ctl_remove_cache(t.at, t.at + 1);
    }
}

/// Drop every translated block, so that new translations call the hooks
/// installed since. Outside any emulation QEMU's whole cache is flushed;
/// during one (the code of the running block must stay where it is) the
/// blocks of every executable range are invalidated instead, one mapped
/// region at a time (unicorn finds a range's translations from its
/// first page, so a range must not span two regions).
pub(super) fn forget_all_code(uc: &mut Uc<'_>) {
    if uc.get_data().emulating == 0 {
        let _ = uc.ctl_flush_tb();
        return;
    }
    match uc.get_data().mode {
        CpuMode::Real => {
            // The first page holds no code while it is device memory, and
            // unicorn cannot find translations from it.
            let from = if uc.get_data().page0.is_some() {
                super::page0::SIZE as u64
            } else {
                0
            };
            let _ = uc.ctl_remove_cache(from, super::a20::HMA_BASE);
            if super::a20::enabled(uc) {
                let hma = super::a20::HMA_BASE;
                let _ = uc.ctl_remove_cache(hma, hma + super::a20::HMA_SIZE as u64);
            }
        }
        CpuMode::Protected => {
            for (from, to) in super::tlb::exec_ranges(uc) {
                let mut p = from;
                while p < to {
                    let _ = uc.ctl_remove_cache(p, p + 0x1000);
                    p += 0x1000;
                }
            }
        }
    }
}

/// The code hook on the first instruction the budget does not allow.
fn on_tail(uc: &mut Uc<'_>, addr: u64, _size: u32) {
    if uc
        .get_data()
        .tail
        .is_some_and(|t| t.at == addr && t.entered)
    {
        uc.request_stop(Stop::Budget);
    }
}

/// The block hook (module notes). Its common path — no stop asked for,
/// no timed run, no budget stop armed, no observer, the block's count in
/// the table, the budget not reached, the last block not cut short — is a
/// table look-up, an addition and a store; everything else is
/// [`on_block_full`], out of line.
fn on_block(uc: &mut Uc<'_>, addr: u64, size: u32) {
    let st = uc.get_data_mut();
    let quiet = st.stop.is_none() && st.tail.is_none() && st.observers.is_empty();
    let tick_due = st.timed && st.mode == CpuMode::Real && st.total_insns >= st.next_tick;
    if quiet
        && !tick_due
        && let Some(slot) = st.tb_counts.find(addr, size)
    {
        let n = u64::from(slot.n.get());
        let (last, last_size, last_counted) = st.last_block;
        let cut_short = last_counted != 0
            && addr.wrapping_sub(last) < u64::from(last_size)
            && addr + u64::from(size) < last + u64::from(last_size);
        let within = st.max_insns == 0 || st.executed.saturating_add(n) <= st.max_insns;
        if within && !cut_short {
            // Recording: one word into the buffer, unless the buffer is
            // full or the block's translation is still to be given.
            if let Some(r) = &mut st.recording {
                if !slot.given.get() || r.words.len() == super::record::BUFFER_WORDS {
                    return on_block_full(uc, addr, size);
                }
                r.words
                    .push(super::record::Step::Block { linear: addr, size }.word());
            }
            st.executed += n;
            if st.timed {
                super::time::advance(st, n);
            }
            st.last_block = (addr, size, n);
            return;
        }
    }
    on_block_full(uc, addr, size);
}

/// The block hook's every case (module notes).
#[inline(never)]
fn on_block_full(uc: &mut Uc<'_>, addr: u64, size: u32) {
    let st = uc.get_data();
    if st.stop.is_some() {
        return;
    }
    // A timed run's ticks first: a tick that starts a handler sends the
    // program elsewhere, and this block does not run now.
    if st.timed && st.mode == CpuMode::Real && st.total_insns >= st.next_tick && tick(uc) {
        return;
    }
    // A block starting inside the last one and ending before it: the
    // last one was cut short (module notes, "Self-modifying code").
    let (last, last_size, last_counted) = uc.get_data().last_block;
    if last_counted != 0
        && addr.wrapping_sub(last) < u64::from(last_size)
        && addr + u64::from(size) < last + u64::from(last_size)
    {
        settle(uc, addr, false);
    }
    let n = u64::from(icount(uc, addr, size));
    let st = uc.get_data_mut();
    let mut counted = n;
    if st.tail.is_some() || (st.max_insns != 0 && st.executed.saturating_add(n) > st.max_insns) {
        match budget_edge(uc, addr, size, n) {
            Some(k) => counted = k,
            None => return,
        }
    }
    let st = uc.get_data_mut();
    st.executed += counted;
    if st.timed {
        super::time::advance(st, n);
    }
    st.last_block = (addr, size, counted);
    if st.recording.is_some() {
        record_block(uc, addr, size);
    }
    if !uc.get_data().observers.is_empty() {
        observe_block(uc, addr, size);
    }
}

/// A recording's step for the block entered now, after its translation
/// when the recording has not been given it yet (record.rs).
#[cold]
#[inline(never)]
fn record_block(uc: &mut Uc<'_>, addr: u64, size: u32) {
    let Some(mut rec) = uc.get_data_mut().recording.take() else {
        return;
    };
    let given = uc
        .get_data()
        .tb_counts
        .find(addr, size)
        .is_some_and(|s| s.given.get());
    if !given {
        rec.flush();
        let mut bytes = [0u8; 4096];
        let len = (size as usize).min(bytes.len());
        let n = icount(uc, addr, size);
        if uc.mem_read(addr, &mut bytes[..len]).is_ok() {
            let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
            let t = super::record::Translation {
                linear: addr,
                cs,
                ip,
                icount: n,
                bytes: &bytes[..len],
            };
            if rec.error.is_none() {
                let res = with_host(uc, |uc| rec.recorder.translation(uc, &t));
                if let Err(e) = res {
                    rec.error = Some(e);
                }
            }
        }
        if let Some(s) = uc.get_data().tb_counts.find(addr, size) {
            s.given.set(true);
        }
    }
    rec.push(super::record::Step::Block { linear: addr, size });
    let failed = rec.error.as_ref().map(|e| e.to_string());
    uc.get_data_mut().recording = Some(rec);
    if let Some(e) = failed {
        uc.request_stop(Stop::Error(format!("recording the run: {e}")));
    }
}

/// The timer ticks due before the block at CS:IP runs; true when they
/// stopped the run or sent the program elsewhere.
#[cold]
#[inline(never)]
fn tick(uc: &mut Uc<'_>) -> bool {
    let before = (uc.reg(R::CS), uc.reg(R::IP));
    super::time::ticks_due(uc);
    uc.get_data().stop.is_some() || (uc.reg(R::CS), uc.reg(R::IP)) != before
}

/// The block of `n` instructions at `addr` meets the budget's end, or is
/// the block the budget ends in, entered again to run up to its stop:
/// the instructions to count for it, or None when the block does not run
/// now (the budget is spent, or the run stops to arm the stop inside it).
#[cold]
#[inline(never)]
fn budget_edge(uc: &mut Uc<'_>, addr: u64, size: u32, n: u64) -> Option<u64> {
    let st = uc.get_data_mut();
    match st.tail {
        Some(ref mut t) if t.block == addr && t.hook.is_some() && !t.entered => {
            t.entered = true;
            Some(t.k)
        }
        _ if st.max_insns != 0 && st.executed.saturating_add(n) > st.max_insns => {
            let k = st.max_insns.saturating_sub(st.executed);
            // The block before this one ran to its end; this one is not
            // counted (yet): nothing to settle at the stop.
            st.last_block = (addr, size, 0);
            // A stop armed before, in a block cut short since
            // (self-modifying code), gives way to this one.
            if let Some(Tail { hook: Some(id), .. }) = st.tail.take() {
                let _ = uc.remove_hook(id);
            }
            if k == 0 {
                uc.request_stop(Stop::Budget);
            } else {
                let at = insn_address(uc, addr, size, k as u32);
                let st = uc.get_data_mut();
                st.tail = Some(Tail {
                    block: addr,
                    at,
                    k,
                    hook: None,
                    entered: false,
                });
                let _ = uc.emu_stop();
            }
            None
        }
        _ => Some(n),
    }
}

/// Show the block to the observers.
fn observe_block(uc: &mut Uc<'_>, addr: u64, size: u32) {
    with_host(uc, |uc| {
        let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
        let stop = with_observers(uc, |uc, obs| {
            let mut stop = None;
            for o in obs {
                if let Some(s) = o.on_block(uc, addr, size, cs, ip) {
                    stop = Some(s);
                }
            }
            stop
        });
        if let Some(s) = stop {
            uc.request_stop(s);
        }
    });
}

/// Settle the count at linear address `pc`, at a stop or where a block
/// cut short is run again: the last block was counted whole when it was
/// entered, but its instructions from `pc` on did not complete.
///
/// With `faulted`, the instruction at `pc` faulted. A recording gets the
/// cut as a step (record.rs).
pub(super) fn settle(uc: &mut Uc<'_>, pc: u64, faulted: bool) {
    let (addr, size, counted) = uc.get_data().last_block;
    if counted == 0 || pc < addr || pc >= addr + u64::from(size) {
        return;
    }
    let done = u64::from(decode_count(uc, addr, size, Some(pc)));
    let st = uc.get_data_mut();
    st.executed = st.executed.saturating_sub(counted.saturating_sub(done));
    st.last_block.2 = done.min(counted);
    if let Some(r) = &mut st.recording {
        r.push(super::record::Step::Cut {
            linear: pc,
            faulted,
        });
    }
}
