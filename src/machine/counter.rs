//! Counting executed instructions a translation block at a time, only
//! when something needs the count: an instruction budget, an observer
//! (tracer, profiler, shadow stack), or a timed run (time.rs).
//!
//! **The hooks.** One block hook does everything per block: the due
//! timer ticks of a timed run, the budget, the count, a recording's word
//! (record.rs), and the observers. It is installed the first time
//! counting is wanted and stays: cached translations made before it do
//! not call it, so installing it also drops them ([`forget_all_code`]).
//! It comes in two forms:
//!
//! * while nothing observes blocks, [`on_block_fast`], registered with
//!   unicorn's C API so that QEMU's translated code calls it directly
//!   with the machine's state as its argument: no trip through the Rust
//!   binding, and a common path of a table look-up, two compares and two
//!   stores. Block hooks of any kind cost this engine a call per block,
//!   so this is about as cheap as a count can be (`bench` prints an
//!   empty hook's cost beside it). What needs the machine at hand (a
//!   timer tick, a translation to give a recording) it leaves to the
//!   machine's loop, stopping before the block runs ([`slow_block`]);
//! * with observers, [`on_block`] through the binding, which hands them
//!   the machine. It replaces the fast one and stays.
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
//! there, as at a stop, so the count stays exact. A block of one
//! instruction that stores into itself is not abandoned (the patched
//! engine finishes the instruction as decoded; vendor/README.md, patch
//! 0010, which also gives code rewritten in place blocks of one
//! instruction): it counts as the one instruction it ran.
//!
//! **Counting inside the translated code.** A call out of translated
//! code on every block costs this engine most of its speed, and the cost
//! of the call moves from one process to the next on a shared host. So
//! the patched engine (vendor/README.md, patch 0006) counts a block
//! itself when it can: at each block's entry, translated code adds the
//! block's instructions to [`InlineCount`] and notes the block as the last
//! one, exactly what the fast hook's common case does, unless that would
//! pass the count's limit; then, or for a lone instruction re-translated
//! after a store into its own block, it calls the hook as before. The
//! limit is the budget, the debugger's next poll and a timed real-mode
//! run's next timer tick ([`limit`]) while the count is *armed*, and 0
//! (every block to the hook) otherwise. Only the fast hook arms it, at
//! the end of its common case; every other hook, a stop, the start of
//! a timed run, a recording and each start and end of an emulation
//! disarm it. So the translated code counts only blocks the hook would
//! have counted the same way, with nothing the hook's rules rest on
//! changed since it last looked. A timed run's blocks count themselves
//! too: its clock is derived from the count (time.rs), and a block
//! entered where a timer tick is due goes to the hook, which delivers
//! the tick.
//!
//! **Recording inside the translated code.** While a recording is made
//! (record.rs), the fast hook arms the count in its common case too, and
//! blocks translated since the recording started (patch 0012) also write
//! their step word into the recording's ring as they count themselves,
//! when their translation has been given to the recorder (the hook marks
//! it, [`mark_given`]) and the ring has room; else they call the hook,
//! which appends the word itself.
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
use crate::x86::CpuMode;

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

/// The count the translated code keeps itself while the fast hook is
/// installed: the patched engine's `struct uc_inline_count`
/// (include/unicorn/unicorn.h as patch 0006 makes it), field
/// for field. It lives boxed in the machine's state, in place for the
/// engine's life, and in cells: the translated code writes it between the
/// hook's calls (module notes, "Counting inside the translated code").
#[repr(C)]
#[derive(Debug)]
pub struct InlineCount {
    /// Not read by the engine.
    _reserved: Cell<u32>,
    /// The last block counted: its size in bytes.
    last_size: Cell<u32>,
    /// Instructions executed in this run (exact at every stop).
    executed: Cell<u64>,
    /// The most `executed` may reach without the hook: 0 while the next
    /// block must go to the hook, else the budget (`u64::MAX` without
    /// one).
    limit: Cell<u64>,
    /// The last block counted: its linear address.
    last_addr: Cell<u64>,
    /// The last block counted: the instructions counted for it.
    last_n: Cell<u64>,
}

impl Default for InlineCount {
    fn default() -> Self {
        InlineCount {
            _reserved: Cell::new(0),
            last_size: Cell::new(0),
            executed: Cell::new(0),
            limit: Cell::new(0),
            last_addr: Cell::new(0),
            last_n: Cell::new(0),
        }
    }
}

impl InlineCount {
    /// Instructions executed in this run.
    pub(super) fn executed(&self) -> u64 {
        self.executed.get()
    }

    pub(super) fn set_executed(&self, n: u64) {
        self.executed.set(n);
    }

    /// The last block counted: linear address, size, instructions counted.
    pub(super) fn last_block(&self) -> (u64, u32, u64) {
        (
            self.last_addr.get(),
            self.last_size.get(),
            self.last_n.get(),
        )
    }

    pub(super) fn set_last_block(&self, (addr, size, n): (u64, u32, u64)) {
        self.last_addr.set(addr);
        self.last_size.set(size);
        self.last_n.set(n);
    }

    /// The block at `addr` of `size` bytes entered with `n` instructions
    /// counted: what the translated code does for a block it counts.
    fn add_block(&self, addr: u64, size: u32, n: u64) {
        self.executed.set(self.executed.get() + n);
        self.set_last_block((addr, size, n));
    }

    /// The next block goes to the hook.
    pub(super) fn off(&self) {
        self.limit.set(0);
    }

    /// The next block may be counted by the translated code, up to
    /// `limit` instructions in this run ([`limit`]).
    fn on(&self, limit: u64) {
        self.limit.set(limit);
    }
}

/// Host code is about to run inside the emulation (any hook but the fast
/// counting one): it may change what the fast hook's common case rests on
/// (a stop, a timed run, the budget's tail, a recording), so the next
/// block goes to the hook, which arms the inline count again when it can.
pub(super) fn inline_off(uc: &Uc<'_>) {
    uc.get_data().ic.off();
}

#[cfg(not(feature = "unpatched-engine"))]
unsafe extern "C" {
    /// The patched engine's `uc_toolhelp16_inline_count` (unicorn.h,
    /// patch 0006): count in `count` from now on, or stop (NULL).
    fn uc_toolhelp16_inline_count(
        uc: unicorn_engine::ffi::uc_handle,
        count: *mut InlineCount,
    ) -> unicorn_engine::unicorn_const::uc_error;
}

/// Have blocks translated from now on count in the machine's
/// [`InlineCount`] (`on`), or not.
#[cfg(not(feature = "unpatched-engine"))]
fn translate_with_inline_count(uc: &mut Uc<'_>, on: bool) -> Result<(), Stop> {
    let count: *const InlineCount = &*uc.get_data().ic;
    let count = if on {
        count.cast_mut()
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: the engine is live. The count is boxed in the state, which
    // lives inside the engine's own allocation and is dropped only with
    // the engine, after its last emulation; its fields are cells, so the
    // translated code may write them between the hook's calls. A null
    // count stops counting in blocks translated from now on (the caller
    // drops the others).
    let err = unsafe { uc_toolhelp16_inline_count(uc.get_handle(), count) };
    if err != unicorn_engine::unicorn_const::uc_error::OK {
        return Err(Stop::Error(uerr("inline count", err).0));
    }
    Ok(())
}

/// The engine as published has no inline count (patch 0006): the hook
/// counts every block itself, as it does whenever the count is not armed.
#[cfg(feature = "unpatched-engine")]
fn translate_with_inline_count(_uc: &mut Uc<'_>, _on: bool) -> Result<(), Stop> {
    Ok(())
}

#[cfg(not(feature = "unpatched-engine"))]
unsafe extern "C" {
    /// The patched engine's `uc_toolhelp16_inline_record` (unicorn.h,
    /// patch 0012): blocks translated from now on that count themselves
    /// also record themselves in `record`, or not (NULL).
    fn uc_toolhelp16_inline_record(
        uc: unicorn_engine::ffi::uc_handle,
        record: *mut std::ffi::c_void,
    ) -> unicorn_engine::unicorn_const::uc_error;
}

/// A recording starts (`on`) or ends: the machine's ring of step words
/// emptied, and the translated code made to write it itself (`inline`,
/// patch 0012) or not. Every translated block is dropped, so that none
/// made before counts a block without recording it (or records after
/// the end).
pub(super) fn record_inline(uc: &mut Uc<'_>, on: bool, inline: bool) {
    let inline = on && inline && cfg!(not(feature = "unpatched-engine"));
    let st = uc.get_data_mut();
    st.ic.off();
    if on {
        st.ring.start(inline);
    } else {
        st.ring.stop();
    }
    st.ring_inline = inline;
    #[cfg(not(feature = "unpatched-engine"))]
    {
        let ring = if inline {
            uc.get_data()
                .ring
                .as_engine_ptr()
                .cast::<std::ffi::c_void>()
        } else {
            std::ptr::null_mut()
        };
        // SAFETY: the engine is live. The ring is boxed in the state, which
        // lives inside the engine's own allocation and is dropped only with
        // the engine, after its last emulation, and its first fields are
        // the engine's `struct uc_inline_record` (record.rs, its layout
        // test); they and the words are cells, written by the translated
        // code between the hook's calls. The words never move once
        // allocated (`Ring::start`). NULL stops recording in blocks
        // translated from now on; the others are dropped below.
        let err = unsafe { uc_toolhelp16_inline_record(uc.get_handle(), ring) };
        if err != unicorn_engine::unicorn_const::uc_error::OK {
            uc.get_data_mut().ring_inline = false;
            uc.get_data().ring.stop();
        }
    }
    forget_all_code(uc);
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

/// The engine, as the counting code reads it: guest memory through
/// unicorn's C API, so that the fast hook (which has no `Uc`) and the
/// full one share every rule.
type Handle = unicorn_engine::ffi::uc_handle;

/// Read `buf.len()` bytes of guest memory at linear `addr`.
fn read_code(h: Handle, addr: u64, buf: &mut [u8]) -> bool {
    // SAFETY: `h` is a live engine (the one calling the hook, or the
    // machine's own), and `buf` is writable for its length.
    let err = unsafe { unicorn_engine::ffi::uc_mem_read(h, addr, buf.as_mut_ptr(), buf.len()) };
    err == unicorn_engine::unicorn_const::uc_error::OK
}

/// Stop the engine with `stop` (the first stop asked for stands), as
/// [`Cpu::request_stop`] does.
fn stop_raw(st: &mut super::State, h: Handle, stop: Stop) {
    st.ic.off();
    if st.stop.is_none() {
        st.stop = Some(stop);
    }
    // SAFETY: stopping the engine that runs is what `uc_emu_stop` is for;
    // outside an emulation it does nothing.
    unsafe { unicorn_engine::ffi::uc_emu_stop(h) };
}

/// Instructions in the block at `addr` of `size` bytes.
#[inline(always)]
fn icount(st: &super::State, h: Handle, addr: u64, size: u32) -> u32 {
    match st.tb_counts.get(addr, size) {
        Some(n) => n,
        None => icount_missed(st, h, addr, size),
    }
}

/// A block the table does not hold: decoded once, then held. Out of line
/// (and its 4 KiB buffer with it), so that the hook's common path sets up
/// no large stack frame.
#[cold]
#[inline(never)]
fn icount_missed(st: &super::State, h: Handle, addr: u64, size: u32) -> u32 {
    let n = decode_count(h, addr, size, None);
    st.tb_counts.put(addr, size, n);
    n
}

/// Decode the block's instructions: how many there are, or (with
/// `before`) how many start before that linear address.
fn decode_count(h: Handle, addr: u64, size: u32, before: Option<u64>) -> u32 {
    let mut bytes = [0u8; 4096];
    let len = (size as usize).min(bytes.len());
    if !read_code(h, addr, &mut bytes[..len]) {
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
fn insn_address(h: Handle, addr: u64, size: u32, k: u32) -> u64 {
    let mut bytes = [0u8; 4096];
    let len = (size as usize).min(bytes.len());
    if !read_code(h, addr, &mut bytes[..len]) {
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

/// Which counting hook is installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Hook {
    /// None yet.
    #[default]
    None,
    /// [`on_block_fast`], registered with unicorn's C API (no observer).
    Fast,
    /// [`on_block`], through the Rust binding (observers need the
    /// machine at hand in every block).
    Full,
}

/// The hook the machine needs now: none installed yet, or the fast one
/// while an observer wants every block.
fn hook_wanted(st: &super::State) -> bool {
    match st.hook {
        Hook::None => true,
        Hook::Fast => observes_blocks(st),
        Hook::Full => false,
    }
}

/// Does an observer need every block ([`super::Observer::watches_blocks`])?
fn observes_blocks(st: &super::State) -> bool {
    st.observers.iter().any(|o| o.watches_blocks())
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
    if !hook_wanted(st) {
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

/// Install the hook the machine needs ([`Hook`]): the fast one while
/// nothing observes blocks, else the full one (which then stays).
fn install(uc: &mut Uc<'_>) -> Result<(), Stop> {
    let st = uc.get_data_mut();
    st.want_count = false;
    if !hook_wanted(st) {
        return Ok(());
    }
    if !observes_blocks(st) {
        install_fast(uc)?;
        uc.get_data_mut().hook = Hook::Fast;
    } else {
        uc.get_data().ic.off();
        // The blocks translated with the count are all dropped below
        // (`forget_all_code`).
        translate_with_inline_count(uc, false)?;
        if let Some(h) = uc.get_data_mut().fast_hook.take() {
            // SAFETY: `h` is the handle `uc_hook_add` gave for the fast
            // hook on this engine, deleted once (taken out of the state).
            // Blocks translated with it may still call it until they are
            // dropped below; its user data (the state) outlives them.
            unsafe { unicorn_engine::ffi::uc_hook_del(uc.get_handle(), h) };
        }
        uc.add_block_hook(1, 0, |uc, addr, size| {
            super::hookguard::guard(uc, "block", (), |uc| on_block(uc, addr, size))
        })
        .map_err(|e| Stop::Error(uerr("block hook", e).0))?;
        uc.get_data_mut().hook = Hook::Full;
    }
    forget_all_code(uc);
    Ok(())
}

/// Register [`on_block_fast`] through unicorn's C API.
fn install_fast(uc: &mut Uc<'_>) -> Result<(), Stop> {
    let state: *mut super::State = uc.get_data_mut();
    let mut hook: unicorn_engine::ffi::uc_hook = std::ptr::null_mut();
    // SAFETY: `uc_hook_add` with UC_HOOK_BLOCK takes a callback of the
    // `uc_cb_hookcode_t` shape (`on_block_fast`'s), a user-data pointer
    // and the address range (1, 0: every address), and no further
    // arguments. The user data is the machine's state, which lives inside
    // the engine's own allocation (the binding's `Rc`), never moves, and
    // is dropped only with the engine, after its last emulation.
    let err = unsafe {
        unicorn_engine::ffi::uc_hook_add(
            uc.get_handle(),
            &mut hook,
            HookType::BLOCK,
            on_block_fast as *mut std::ffi::c_void,
            state as *mut std::ffi::c_void,
            1,
            0,
        )
    };
    if err != unicorn_engine::unicorn_const::uc_error::OK {
        return Err(Stop::Error(uerr("block hook", err).0));
    }
    uc.get_data_mut().fast_hook = Some(hook);
    translate_with_inline_count(uc, true)
}

/// The fast counting hook, called by QEMU's translated code at the entry
/// of every block while no observer is set (module notes). It counts the
/// block by the rules [`on_block_full`] follows — the table, a block cut
/// short, the budget's end — and appends a recording's word, reading guest
/// memory through the engine's handle where it must; it never calls out
/// per block. Two cases need the machine at hand: a timer tick due, and a
/// translation to give a recording. For those it stops the emulation
/// *before the block runs* (IP is then the block's start) and leaves the
/// block to [`slow_block`], which the machine's loop calls; the block,
/// entered again, is then not counted twice
/// ([`super::State::preentered`]).
extern "C" fn on_block_fast(
    handle: unicorn_engine::ffi::uc_handle,
    addr: u64,
    size: u32,
    user_data: *mut std::ffi::c_void,
) {
    // SAFETY: the user data is the machine's state (see `install_fast`).
    // unicorn calls hooks one at a time on the thread running
    // `uc_emu_start`, whose caller holds no reference into the state
    // across the call (the machine's loop and the Rust binding's own
    // hooks reach the state the same way, through the engine).
    let st = unsafe { &mut *(user_data as *mut super::State) };
    // The translated code counted no block since this hook was last
    // called; it counts the next ones itself only if this call ends in
    // the common case, which arms it again.
    st.ic.off();
    // The common case, in as few steps as can be (see `common_case`).
    if st.recording.is_none()
        && let Some((n, _)) = common_case(st, addr, size)
    {
        st.ic.add_block(addr, size, n);
        st.ic.on(limit(st));
        return;
    }
    // The rest under a guard: a panic may not unwind into unicorn's C
    // (hookguard.rs); it stops the machine with an internal error.
    let rest = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if st.recording.is_some() {
            fast_hook_recording(st, handle, addr, size)
        } else {
            fast_hook_rest(st, handle, addr, size)
        }
    }));
    if let Err(p) = rest {
        st.ic.off();
        st.stop = Some(Stop::Error(format!(
            "a panic in the engine's block hook: {}",
            super::hookguard::panic_message(p.as_ref())
        )));
        // SAFETY: `handle` is the engine that called this hook, live for
        // the call; uc_emu_stop may be called from a hook.
        unsafe { unicorn_engine::ffi::uc_emu_stop(handle) };
    }
}

/// The common case of [`on_block_fast`]: nothing pending (a stop, a
/// block let in, the budget's tail, a block gone on with in its middle),
/// a timed run's clock not kept by the hook (time.rs,
/// `keep_time_by_hook`), the block in the table, not cutting the last one short, within the
/// budget. The block's instructions then, and whether a recording has
/// been given its translation.
#[inline(always)]
fn common_case(st: &super::State, addr: u64, size: u32) -> Option<(u64, bool)> {
    if st.preentered.is_some()
        || st.stop.is_some()
        || st.tail.is_some()
        || st.resumed_mid_block
        || (st.timed && st.time_by_hook)
    {
        return None;
    }
    let slot = st.tb_counts.find(addr, size)?;
    let n = u64::from(slot.n.get());
    let max = limit(st);
    (!cuts_short(st.ic.last_block(), addr, size) && st.ic.executed() + n <= max)
        .then(|| (n, slot.given.get()))
}

/// The most instructions this run may count without the hook looking:
/// the budget, the next poll ([`poll_due`]), and a timed real-mode run's
/// next timer tick (time.rs, `State::tick_limit`: a block entered at or
/// past it goes to the hook, which delivers the tick).
#[inline(always)]
fn limit(st: &super::State) -> u64 {
    let budget = if st.max_insns == 0 {
        u64::MAX
    } else {
        st.max_insns
    };
    let budget = budget.min(st.tick_limit());
    if st.poll_every == 0 {
        budget
    } else {
        budget.min(st.poll_at)
    }
}

/// Is a poll due at the entry of the next block (debug.rs,
/// `poll_every`)? Then the next one is set, and the caller stops the
/// emulation before the block runs: at a block's entry nothing is half
/// done (in protected mode too, where a stop from another thread may land
/// inside a helper's memory accesses), and the count is exact. The
/// machine's loop goes on at once, after its `between` function.
#[inline(always)]
fn poll_due(st: &mut super::State) -> bool {
    if st.poll_every == 0
        || st.ic.executed() < st.poll_at
        || st.stop.is_some()
        || st.tail.is_some()
        || st.preentered.is_some()
    {
        return false;
    }
    st.poll_at = st.ic.executed().saturating_add(st.poll_every);
    st.polled = true;
    true
}

/// Poll every `every` instructions from now on (0: never).
pub(super) fn set_poll(st: &mut super::State, every: u64) {
    st.poll_every = every;
    st.poll_at = st.ic.executed().saturating_add(every);
    st.ic.off();
}

/// Does the block at `addr` of `size` bytes start inside the last one
/// (`last_block`) and end before it? Then the last one was cut short
/// (module notes, "Self-modifying code").
#[inline(always)]
fn cuts_short((last, last_size, last_counted): (u64, u32, u64), addr: u64, size: u32) -> bool {
    last_counted != 0
        && addr.wrapping_sub(last) < u64::from(last_size)
        && addr + u64::from(size) < last + u64::from(last_size)
}

/// [`on_block_fast`] while recording: the same common case, with the
/// recording's word (its translation given, room in the buffer). Out of
/// line, so that the count alone stays as small as it can be.
#[inline(never)]
fn fast_hook_recording(st: &mut super::State, handle: Handle, addr: u64, size: u32) {
    mark_given(st, addr, size);
    if let Some((n, true)) = common_case(st, addr, size)
        && st.ring.has_room()
    {
        st.ring
            .append(super::record::Step::Block { linear: addr, size }.word());
        st.ic.add_block(addr, size, n);
        if st.ring_inline {
            st.ic.on(limit(st));
        }
        return;
    }
    fast_hook_rest(st, handle, addr, size);
}

/// The block calling the hook now, when the translated code said where
/// its *given* flag is (patch 0012): marked given when the recording has
/// its translation, so that from its next entry on the translated code
/// records it itself. The flag is written during the hook's call, while
/// the block's translation is the one running (QEMU frees translations
/// only between emulations).
#[inline(always)]
fn mark_given(st: &super::State, addr: u64, size: u32) {
    let flag = st.ring.take_given();
    if !flag.is_null()
        && st
            .tb_counts
            .find(addr, size)
            .is_some_and(|slot| slot.given.get())
    {
        // SAFETY: the translated code of the block now calling the hook
        // stored the address of its own flag (a field of its
        // TranslationBlock) just before the call; the block is running, so
        // its TranslationBlock is allocated, and nothing else writes the
        // flag (the translated code only reads it).
        unsafe { flag.write(1) };
    }
}

/// Every case of [`on_block_fast`] beyond its common one.
#[cold]
#[inline(never)]
fn fast_hook_rest(st: &mut super::State, handle: Handle, addr: u64, size: u32) {
    if let Some((a, sz, counted)) = st.preentered.take() {
        if a == addr && sz == size {
            return;
        }
        // Another block came first (an engine that restarted elsewhere):
        // the one let in did not run.
        undo_entry(st, a, counted);
    }
    if st.stop.is_some() {
        return;
    }
    if poll_due(st) {
        // SAFETY: `handle` is the engine calling this hook.
        unsafe { unicorn_engine::ffi::uc_emu_stop(handle) };
        return;
    }
    let resumed = std::mem::take(&mut st.resumed_mid_block);
    let tick_due =
        st.timed && st.mode == CpuMode::Real && st.total_insns() >= st.next_tick && !resumed;
    let to_give = st.recording.is_some()
        && !st
            .tb_counts
            .find(addr, size)
            .is_some_and(|slot| slot.given.get());
    if tick_due || to_give {
        st.slow = Some((addr, size));
        // SAFETY: `handle` is the engine calling this hook.
        unsafe { unicorn_engine::ffi::uc_emu_stop(handle) };
        return;
    }
    if enter(st, handle, addr, size).is_some()
        && let Some(r) = &mut st.recording
    {
        r.push(&st.ring, super::record::Step::Block { linear: addr, size });
        if let Some(stop) = r.failure() {
            stop_raw(st, handle, stop);
        }
    }
}

/// The block entered now, counted by the rules of the module notes: a
/// last block cut short settled, the budget's end met. The instructions
/// counted, or None when the block does not run now (the budget).
#[inline(always)]
fn enter(st: &mut super::State, h: Handle, addr: u64, size: u32) -> Option<u64> {
    if cuts_short(st.ic.last_block(), addr, size) {
        settle_raw(st, h, addr, false);
    }
    let n = u64::from(icount(st, h, addr, size));
    let mut counted = n;
    if st.tail.is_some() || (st.max_insns != 0 && st.ic.executed().saturating_add(n) > st.max_insns)
    {
        counted = budget_edge(st, h, addr, size, n)?;
    }
    st.ic.add_block(addr, size, counted);
    if st.timed && st.time_by_hook {
        // The clock kept block by block (time.rs, `keep_time_by_hook`).
        super::time::advance(st, n);
    } else if counted < n {
        // The clock counts the block whole (time.rs, `keep_cut`).
        super::time::keep_cut(st, n - counted);
    }
    Some(counted)
}

/// Take `n` instructions back from the count (a block that did not run,
/// or stopped short of its end); the clock, which counted the block whole
/// when it was entered, keeps them (time.rs, `keep_cut`).
fn uncount(st: &mut super::State, n: u64) {
    let before = st.ic.executed();
    st.ic.set_executed(before.saturating_sub(n));
    super::time::keep_cut(st, before - st.ic.executed());
}

/// A block `slow_block` counted did not run: its count and its
/// recording's step undone.
fn undo_entry(st: &mut super::State, addr: u64, counted: u64) {
    uncount(st, counted);
    let (last, last_size, _) = st.ic.last_block();
    if last == addr {
        st.ic.set_last_block((last, last_size, 0));
    }
    if let Some(r) = &mut st.recording {
        r.push(
            &st.ring,
            super::record::Step::Cut {
                linear: addr,
                faulted: false,
            },
        );
    }
}

/// The block the fast hook stopped before (see [`on_block_fast`]), with
/// the machine at hand: everything [`on_block_full`] does. When the block
/// is let in (counted), the fast hook will not count it again as the
/// emulation restarts at it.
pub(super) fn slow_block(uc: &mut Uc<'_>, addr: u64, size: u32) {
    if let Some(counted) = on_block_full(uc, addr, size) {
        uc.get_data_mut().preentered = Some((addr, size, counted));
    }
}

/// Do what hooks asked of the machine's loop, between two emulations:
/// install the counting hook, arm the budget's stop inside a block, make
/// the first page plain memory.
pub(super) fn apply_pending(uc: &mut Uc<'_>) -> Result<(), Stop> {
    if uc.get_data().want_count {
        install(uc)?;
    }
    remove_stale_tail_hooks(uc);
    if let Some(mut t) = uc.get_data().tail
        && t.hook.is_none()
    {
        let id = uc
            .add_code_hook(t.at, t.at, |uc, addr, size| {
                super::hookguard::guard(uc, "budget", (), |uc| on_tail(uc, addr, size))
            })
            .map_err(|e| Stop::Error(uerr("budget hook", e).0))?;
        crate::machine::tlb::remove_cache(uc, t.at, t.at + 1);
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

/// Remove the budget code hooks given up inside an emulation
/// ([`budget_edge`]).
fn remove_stale_tail_hooks(uc: &mut Uc<'_>) {
    for id in std::mem::take(&mut uc.get_data_mut().stale_tail_hooks) {
        let _ = uc.remove_hook(id);
    }
}

/// Remove the budget's code hook once the run stopped.
pub(super) fn disarm(uc: &mut Uc<'_>) {
    remove_stale_tail_hooks(uc);
    if let Some(t) = uc.get_data_mut().tail.take() {
        if let Some(id) = t.hook {
            let _ = uc.remove_hook(id);
        }
        crate::machine::tlb::remove_cache(uc, t.at, t.at + 1);
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
            // unicorn cannot find translations from it; made plain memory
            // (page0.rs, `to_ram`) it is a region of its own, apart from
            // the rest of the first megabyte (a range reaching past it
            // would drop nothing of the rest: a breakpoint's stop in a
            // timed program, whose vectors made it plain memory, ran on
            // the code translated without the debugger's hook).
            let low = super::page0::SIZE as u64;
            if uc.get_data().page0.is_none() {
                crate::machine::tlb::remove_cache(uc, 0, low);
            }
            crate::machine::tlb::remove_cache(uc, low, super::a20::HMA_BASE);
            if super::a20::enabled(uc) {
                let hma = super::a20::HMA_BASE;
                crate::machine::tlb::remove_cache(uc, hma, hma + super::a20::HMA_SIZE as u64);
            }
        }
        CpuMode::Protected => {
            for (from, to) in super::tlb::exec_ranges(uc) {
                let mut p = from;
                while p < to {
                    crate::machine::tlb::remove_cache(uc, p, p + 0x1000);
                    p += 0x1000;
                }
            }
        }
    }
}

/// The code hook on the first instruction the budget does not allow.
fn on_tail(uc: &mut Uc<'_>, addr: u64, _size: u32) {
    inline_off(uc);
    if uc
        .get_data()
        .tail
        .is_some_and(|t| t.at == addr && t.entered)
    {
        uc.request_stop(Stop::Budget);
    }
}

/// The full block hook, through the Rust binding: for runs with
/// observers, which need the machine at hand in every block.
fn on_block(uc: &mut Uc<'_>, addr: u64, size: u32) {
    inline_off(uc);
    if uc.get_data().preentered.is_none() && poll_due(uc.get_data_mut()) {
        let _ = uc.emu_stop();
        return;
    }
    on_block_full(uc, addr, size);
}

/// The block hook's every case (module notes): the instructions counted
/// when the block is let in, None when it does not run now.
#[inline(never)]
fn on_block_full(uc: &mut Uc<'_>, addr: u64, size: u32) -> Option<u64> {
    let resumed = std::mem::take(&mut uc.get_data_mut().resumed_mid_block);
    let st = uc.get_data();
    if st.stop.is_some() {
        return None;
    }
    // A timed run's ticks first: a tick that starts a handler sends the
    // program elsewhere, and this block does not run now. (Not in a block
    // the emulation went on in the middle of: they were looked at when
    // it was first entered, `settle_resumed`.)
    if st.timed
        && st.mode == CpuMode::Real
        && st.total_insns() >= st.next_tick
        && !resumed
        && tick(uc)
    {
        return None;
    }
    let h = uc.get_handle();
    let counted = enter(uc.get_data_mut(), h, addr, size)?;
    if uc.get_data().recording.is_some() {
        record_block(uc, addr, size);
    }
    if !uc.get_data().observers.is_empty() {
        observe_block(uc, addr, size);
    }
    Some(counted)
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
        rec.flush(&uc.get_data().ring);
        let mut bytes = [0u8; 4096];
        let len = (size as usize).min(bytes.len());
        let n = icount(uc.get_data(), uc.get_handle(), addr, size);
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
    rec.push(
        &uc.get_data().ring,
        super::record::Step::Block { linear: addr, size },
    );
    let failed = rec.failure();
    uc.get_data_mut().recording = Some(rec);
    if let Some(stop) = failed {
        uc.request_stop(stop);
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
fn budget_edge(st: &mut super::State, h: Handle, addr: u64, size: u32, n: u64) -> Option<u64> {
    match st.tail {
        Some(ref mut t) if t.block == addr && t.hook.is_some() && !t.entered => {
            t.entered = true;
            Some(t.k)
        }
        _ if st.max_insns != 0 && st.ic.executed().saturating_add(n) > st.max_insns => {
            let k = st.max_insns.saturating_sub(st.ic.executed());
            // The block before this one ran to its end; this one is not
            // counted (yet): nothing to settle at the stop.
            st.ic.set_last_block((addr, size, 0));
            // A stop armed before, in a block cut short since
            // (self-modifying code), gives way to this one; its code hook
            // is removed between two emulations.
            if let Some(Tail { hook: Some(id), .. }) = st.tail.take() {
                st.stale_tail_hooks.push(id);
            }
            if k == 0 {
                stop_raw(st, h, Stop::Budget);
            } else {
                let at = insn_address(h, addr, size, k as u32);
                st.tail = Some(Tail {
                    block: addr,
                    at,
                    k,
                    hook: None,
                    entered: false,
                });
                // SAFETY: stopping the engine that runs (or none).
                unsafe { unicorn_engine::ffi::uc_emu_stop(h) };
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
    let h = uc.get_handle();
    settle_raw(uc.get_data_mut(), h, pc, faulted);
}

/// The emulation stopped at linear address `pc` only to go on from there
/// (a stop the machine's loop does not explain: the debugger's, which
/// changes its hooks or looks at its front end and resumes): the last
/// block is settled as at a stop, and so is the clock of a timed run
/// (time.rs), which counted the block whole when it was entered; the
/// block entered again at `pc` is then counted from there, and when `pc`
/// is inside the last block its entry looks at no timer tick (they were
/// looked at when the block was first entered). So the count, the clock
/// and the ticks are as if the emulation had not stopped.
pub(super) fn settle_resumed(uc: &mut Uc<'_>, pc: u64) {
    let h = uc.get_handle();
    let st = uc.get_data_mut();
    let (addr, size, counted) = st.ic.last_block();
    if counted == 0 || pc < addr || pc >= addr + u64::from(size) {
        return;
    }
    let before = st.ic.executed();
    settle_raw(st, h, pc, false);
    let not_run = before.saturating_sub(st.ic.executed());
    if st.timed {
        // The clock takes the block's rest back too (settle_raw kept it).
        super::time::advance(st, not_run.wrapping_neg());
        st.resumed_mid_block = pc != addr;
    }
    st.preentered = None;
}

/// The instructions completed in this run before the one at linear
/// address `addr`, asked from a code hook on that instruction (the block
/// holding it was counted whole when it was entered); None when the
/// machine does not count.
pub fn executed_before(uc: &Uc<'_>, addr: u64) -> Option<u64> {
    let st = uc.get_data();
    if !st.counting() {
        return None;
    }
    let (last, size, counted) = st.ic.last_block();
    let executed = st.ic.executed();
    if counted == 0 || addr < last || addr >= last + u64::from(size) {
        return Some(executed);
    }
    let done = u64::from(decode_count(uc.get_handle(), last, size, Some(addr)));
    Some(executed.saturating_sub(counted.saturating_sub(done)))
}

fn settle_raw(st: &mut super::State, h: Handle, pc: u64, faulted: bool) {
    let (addr, size, counted) = st.ic.last_block();
    if counted == 0 || pc < addr || pc >= addr + u64::from(size) {
        return;
    }
    let done = u64::from(decode_count(h, addr, size, Some(pc)));
    uncount(st, counted.saturating_sub(done));
    st.ic.set_last_block((addr, size, done.min(counted)));
    if let Some(r) = &mut st.recording {
        r.push(
            &st.ring,
            super::record::Step::Cut {
                linear: pc,
                faulted,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::InlineCount;
    use std::mem::{offset_of, size_of};

    /// The engine's `struct uc_inline_count` (unicorn.h, patch 0006):
    /// uint32_t reserved, last_size; uint64_t executed, limit, last_addr,
    /// last_n.
    #[test]
    fn the_inline_count_has_the_engine_s_layout() {
        assert_eq!(offset_of!(InlineCount, _reserved), 0);
        assert_eq!(offset_of!(InlineCount, last_size), 4);
        assert_eq!(offset_of!(InlineCount, executed), 8);
        assert_eq!(offset_of!(InlineCount, limit), 16);
        assert_eq!(offset_of!(InlineCount, last_addr), 24);
        assert_eq!(offset_of!(InlineCount, last_n), 32);
        assert_eq!(size_of::<InlineCount>(), 40);
    }

    /// Unarmed, the limit is 0, so every block goes to the hook (n >= 1);
    /// armed, it is what [`limit`] says: the budget, or the next poll, or
    /// `u64::MAX` with neither.
    #[test]
    fn unarmed_means_a_limit_of_zero() {
        let c = InlineCount::default();
        assert_eq!(c.limit.get(), 0, "a new count starts unarmed");
        c.on(500);
        assert_eq!(c.limit.get(), 500);
        c.off();
        assert_eq!(c.limit.get(), 0);
        c.on(u64::MAX);
        assert_eq!(c.limit.get(), u64::MAX, "no budget");
    }
}
