//! TOOLHELP.DLL: the exports of toolhelp.md's ordinal list, over the
//! emulator's tasks, modules, classes and global arena (the global-heap
//! walk: `toolhelp_global`; the local-heap walk: `toolhelp_heap`).
//!
//! Every function that fills a structure first checks its dwSize (the
//! structure sizes below, from toolhelp.md and the Windows 3.1 SDK's
//! toolhelp.h) and fails with 0 when it is wrong. A far pointer that does
//! not name enough writable memory fails the call the same way (see
//! `guest`). The stack-trace functions are the walker of
//! `crate::walk::toolhelp`, run on the live machine.

use super::api::{Api, Arg};
use super::guest;
use super::tdb::{module_db, off};
use super::toolhelp_global;
use super::toolhelp_heap;
use crate::machine::{Cpu, Stop, Uc};
use crate::walk::{StackTraceEntry, WalkMemory};
use crate::win16::Env;

/// MAX_MODULE_NAME + 1: the bytes of szModule (toolhelp.md).
pub const MODULE_NAME_BYTES: usize = 10;
/// MAX_PATH + 1: the bytes of MODULEENTRY.szExePath.
pub const EXE_PATH_BYTES: usize = 256;

/// Little-endian packed structure builder.
#[derive(Default)]
struct Packed(Vec<u8>);

impl Packed {
    fn w(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn d(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
}

/// A NUL-padded fixed-size string field (always NUL-terminated).
fn name_field<const N: usize>(s: &str) -> [u8; N] {
    let mut b = [0u8; N];
    let n = s.len().min(N - 1);
    b[..n].copy_from_slice(&s.as_bytes()[..n]);
    b
}

/// TASKENTRY, 0x28 bytes (toolhelp.md, "Structures and constants").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskEntry {
    pub h_task: u16,
    pub h_task_parent: u16,
    pub h_inst: u16,
    pub h_module: u16,
    pub w_ss: u16,
    pub w_sp: u16,
    pub w_stack_top: u16,
    pub w_stack_minimum: u16,
    pub w_stack_bottom: u16,
    pub wc_events: u16,
    pub h_queue: u16,
    pub sz_module: [u8; MODULE_NAME_BYTES],
    pub w_psp_offset: u16,
    pub h_next: u16,
}

impl TaskEntry {
    pub const SIZE: usize = 0x28;
    /// Offset of hNext, which TaskNext follows.
    pub const H_NEXT: u16 = 0x26;

    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .w(self.h_task)
            .w(self.h_task_parent)
            .w(self.h_inst)
            .w(self.h_module)
            .w(self.w_ss)
            .w(self.w_sp)
            .w(self.w_stack_top)
            .w(self.w_stack_minimum)
            .w(self.w_stack_bottom)
            .w(self.wc_events)
            .w(self.h_queue)
            .bytes(&self.sz_module)
            .w(self.w_psp_offset)
            .w(self.h_next)
            .0
    }
}

/// MODULEENTRY, 0x114 bytes (toolhelp.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleEntry {
    pub sz_module: [u8; MODULE_NAME_BYTES],
    pub h_module: u16,
    pub wc_usage: u16,
    pub sz_exe_path: [u8; EXE_PATH_BYTES],
    pub w_next: u16,
}

impl ModuleEntry {
    pub const SIZE: usize = 0x114;
    /// Offset of wNext, which ModuleNext follows.
    pub const W_NEXT: u16 = 0x112;

    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .bytes(&self.sz_module)
            .w(self.h_module)
            .w(self.wc_usage)
            .bytes(&self.sz_exe_path)
            .w(self.w_next)
            .0
    }
}

/// GLOBALENTRY, 0x24 bytes (toolhelp.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GlobalEntry {
    pub dw_address: u32,
    pub dw_block_size: u32,
    pub h_block: u16,
    pub wc_lock: u16,
    pub wc_page_lock: u16,
    pub w_flags: u16,
    pub w_heap_present: u16,
    pub h_owner: u16,
    pub w_type: u16,
    pub w_data: u16,
    pub dw_next: u32,
    pub dw_next_alt: u32,
}

impl GlobalEntry {
    pub const SIZE: usize = 0x24;
    /// Offsets of dwNext and dwNextAlt, which GlobalNext follows.
    pub const DW_NEXT: u16 = 0x1C;
    pub const DW_NEXT_ALT: u16 = 0x20;

    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .d(self.dw_address)
            .d(self.dw_block_size)
            .w(self.h_block)
            .w(self.wc_lock)
            .w(self.wc_page_lock)
            .w(self.w_flags)
            .w(self.w_heap_present)
            .w(self.h_owner)
            .w(self.w_type)
            .w(self.w_data)
            .d(self.dw_next)
            .d(self.dw_next_alt)
            .0
    }
}

/// GLOBALINFO (Windows 3.1 SDK toolhelp.h): dwSize, wcItems, wcItemsFree,
/// wcItemsLRU; 0x0A bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GlobalInfo {
    pub wc_items: u16,
    pub wc_items_free: u16,
    pub wc_items_lru: u16,
}

impl GlobalInfo {
    pub const SIZE: usize = 0x0A;
    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .w(self.wc_items)
            .w(self.wc_items_free)
            .w(self.wc_items_lru)
            .0
    }
}

/// LOCALINFO (SDK): dwSize, wcItems; 6 bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocalInfo {
    pub wc_items: u16,
}

impl LocalInfo {
    pub const SIZE: usize = 0x06;
    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default().d(Self::SIZE as u32).w(self.wc_items).0
    }
}

/// sizeof(LOCALENTRY) (SDK): dwSize, then hHandle, wAddress, wSize, wFlags,
/// wcLock, wType, hHeap, wHeapType, wNext: 0x16 bytes.
pub const LOCAL_ENTRY_SIZE: usize = 0x16;

/// SYSHEAPINFO (SDK): dwSize, wUserFreePercent, wGDIFreePercent,
/// hUserSegment, hGDISegment; 0x0C bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SysHeapInfo {
    pub w_user_free_percent: u16,
    pub w_gdi_free_percent: u16,
    pub h_user_segment: u16,
    pub h_gdi_segment: u16,
}

impl SysHeapInfo {
    pub const SIZE: usize = 0x0C;
    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .w(self.w_user_free_percent)
            .w(self.w_gdi_free_percent)
            .w(self.h_user_segment)
            .w(self.h_gdi_segment)
            .0
    }
}

/// MEMMANINFO (SDK): dwSize, nine DWORDs (largest free block in bytes,
/// then page counts), wPageSize; 0x2A bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemManInfo {
    pub dw_largest_free_block: u32,
    pub dw_max_pages_available: u32,
    pub dw_max_pages_lockable: u32,
    pub dw_total_linear_space: u32,
    pub dw_total_unlocked_pages: u32,
    pub dw_free_pages: u32,
    pub dw_total_pages: u32,
    pub dw_free_linear_space: u32,
    pub dw_swap_file_pages: u32,
    pub w_page_size: u16,
}

impl MemManInfo {
    pub const SIZE: usize = 0x2A;
    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .d(self.dw_largest_free_block)
            .d(self.dw_max_pages_available)
            .d(self.dw_max_pages_lockable)
            .d(self.dw_total_linear_space)
            .d(self.dw_total_unlocked_pages)
            .d(self.dw_free_pages)
            .d(self.dw_total_pages)
            .d(self.dw_free_linear_space)
            .d(self.dw_swap_file_pages)
            .w(self.w_page_size)
            .0
    }
}

/// TIMERINFO (SDK): dwSize, dwmsSinceStart, dwmsThisVM; 0x0C bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimerInfo {
    pub dw_ms_since_start: u32,
    pub dw_ms_this_vm: u32,
}

impl TimerInfo {
    pub const SIZE: usize = 0x0C;
    pub fn to_bytes(&self) -> Vec<u8> {
        Packed::default()
            .d(Self::SIZE as u32)
            .d(self.dw_ms_since_start)
            .d(self.dw_ms_this_vm)
            .0
    }
}

/// A callback registered with NotifyRegister or InterruptRegister.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Callback {
    pub htask: u16,
    /// The far procedure, `seg << 16 | off`.
    pub proc_addr: u32,
    /// NotifyRegister's wFlags (NF_NORMAL 0, NF_TASKSWITCH 1, NF_RIP 2).
    pub flags: u16,
}

/// NotifyRegister/InterruptRegister registrations: at most one callback of
/// each kind per task (registering again replaces it). fault.rs calls the
/// interrupt callbacks for faults; toolhelp_notify.rs the notification
/// callbacks.
#[derive(Debug, Clone, Default)]
pub struct Registrations {
    pub notify: Vec<Callback>,
    pub interrupt: Vec<Callback>,
    /// The fault being offered to the interrupt callbacks (fault.rs).
    pub dispatch: Option<super::fault::Dispatch>,
    /// A fault handled to its end (CS, IP, number): when the machine offers
    /// it again, it ends the run.
    pub declined: Option<(u16, u16, u8)>,
    /// TOOLHELP's own stack for low-stack faults (fault.rs).
    pub fault_stack: Option<u16>,
    /// Faults no callback handled, in order (fault.rs, the default action).
    pub unhandled: Vec<super::fault::Unhandled>,
    /// NotifyRegister callbacks are running.
    pub notifying: bool,
    /// Every fault of the run, recorded at the fault (fault_record.rs).
    pub faults: super::fault_record::FaultLog,
}

/// The emulated clock: instructions per millisecond. The CPU is taken to
/// run one million instructions a second (a 286 of the time), and time is
/// counted from instructions executed so that runs are reproducible.
pub const INSNS_PER_MS: u64 = 1000;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("TOOLHELP", 69, "CLASSFIRST", &[Arg::L], class_first),
    Api::new("TOOLHELP", 70, "CLASSNEXT", &[Arg::L], class_next),
    Api::new(
        "TOOLHELP",
        50,
        "GLOBALHANDLETOSEL",
        &[Arg::W],
        toolhelp_global::global_handle_to_sel,
    ),
    Api::new(
        "TOOLHELP",
        51,
        "GLOBALFIRST",
        &[Arg::L, Arg::W],
        toolhelp_global::global_first,
    ),
    Api::new(
        "TOOLHELP",
        52,
        "GLOBALNEXT",
        &[Arg::L, Arg::W],
        toolhelp_global::global_next,
    ),
    Api::new(
        "TOOLHELP",
        53,
        "GLOBALINFO",
        &[Arg::L],
        toolhelp_global::global_info,
    ),
    Api::new(
        "TOOLHELP",
        54,
        "GLOBALENTRYHANDLE",
        &[Arg::L, Arg::W],
        toolhelp_global::global_entry_handle,
    ),
    Api::new(
        "TOOLHELP",
        55,
        "GLOBALENTRYMODULE",
        &[Arg::L, Arg::W, Arg::W],
        toolhelp_global::global_entry_module,
    ),
    Api::new(
        "TOOLHELP",
        56,
        "LOCALINFO",
        toolhelp_heap::LOCAL_INFO_ARGS,
        toolhelp_heap::local_info,
    ),
    Api::new(
        "TOOLHELP",
        57,
        "LOCALFIRST",
        toolhelp_heap::LOCAL_FIRST_ARGS,
        toolhelp_heap::local_first,
    ),
    Api::new(
        "TOOLHELP",
        58,
        "LOCALNEXT",
        toolhelp_heap::LOCAL_NEXT_ARGS,
        toolhelp_heap::local_next,
    ),
    Api::new("TOOLHELP", 59, "MODULEFIRST", &[Arg::L], module_first),
    Api::new("TOOLHELP", 60, "MODULENEXT", &[Arg::L], module_next),
    Api::new(
        "TOOLHELP",
        61,
        "MODULEFINDNAME",
        &[Arg::L, Arg::L],
        module_find_name,
    ),
    Api::new(
        "TOOLHELP",
        62,
        "MODULEFINDHANDLE",
        &[Arg::L, Arg::W],
        module_find_handle,
    ),
    Api::new("TOOLHELP", 63, "TASKFIRST", &[Arg::L], task_first),
    Api::new("TOOLHELP", 64, "TASKNEXT", &[Arg::L], task_next),
    Api::new(
        "TOOLHELP",
        65,
        "TASKFINDHANDLE",
        &[Arg::L, Arg::W],
        task_find_handle,
    ),
    Api::new(
        "TOOLHELP",
        66,
        "STACKTRACEFIRST",
        &[Arg::L, Arg::W],
        stack_trace_first,
    ),
    Api::new(
        "TOOLHELP",
        67,
        "STACKTRACECSIPFIRST",
        &[Arg::L, Arg::W, Arg::W, Arg::W, Arg::W],
        stack_trace_csip_first,
    ),
    Api::new(
        "TOOLHELP",
        68,
        "STACKTRACENEXT",
        &[Arg::L],
        stack_trace_next,
    ),
    Api::new(
        "TOOLHELP",
        71,
        "SYSTEMHEAPINFO",
        &[Arg::L],
        system_heap_info,
    ),
    Api::new("TOOLHELP", 72, "MEMMANINFO", &[Arg::L], mem_man_info),
    Api::new(
        "TOOLHELP",
        73,
        "NOTIFYREGISTER",
        &[Arg::W, Arg::L, Arg::W],
        notify_register,
    ),
    Api::new(
        "TOOLHELP",
        74,
        "NOTIFYUNREGISTER",
        &[Arg::W],
        notify_unregister,
    ),
    Api::new(
        "TOOLHELP",
        75,
        "INTERRUPTREGISTER",
        &[Arg::W, Arg::L],
        interrupt_register,
    ),
    Api::new(
        "TOOLHELP",
        76,
        "INTERRUPTUNREGISTER",
        &[Arg::W],
        interrupt_unregister,
    ),
    Api::new(
        "TOOLHELP",
        77,
        "TERMINATEAPP",
        &[Arg::W, Arg::W],
        terminate_app,
    ),
    Api::new(
        "TOOLHELP",
        78,
        "MEMORYREAD",
        &[Arg::W, Arg::L, Arg::L, Arg::L],
        memory_read,
    ),
    Api::new(
        "TOOLHELP",
        79,
        "MEMORYWRITE",
        &[Arg::W, Arg::L, Arg::L, Arg::L],
        memory_write,
    ),
    Api::new("TOOLHELP", 80, "TIMERCOUNT", &[Arg::L], timer_count),
];

fn arg(a: &[u32], i: usize) -> u32 {
    a.get(i).copied().unwrap_or(0)
}

fn warg(a: &[u32], i: usize) -> u16 {
    arg(a, i) as u16
}

/// Write a structure whose dwSize must be `size`: 1 if it was, and the
/// memory took it; else 0 and nothing written.
fn fill(uc: &mut Uc<'_>, p: u32, size: usize, bytes: &[u8]) -> u32 {
    debug_assert_eq!(bytes.len(), size);
    if guest::read_u32(uc, p) != Some(size as u32) {
        return 0;
    }
    u32::from(guest::write(uc, p, bytes))
}

/// Does the structure at `p` carry dwSize = `size`, with all `size` bytes
/// writable?
fn size_ok(uc: &Uc<'_>, p: u32, size: usize) -> bool {
    guest::read_u32(uc, p) == Some(size as u32) && guest::usable(uc, p, size, true)
}

/// A First/Next/Find result: fill the structure at `p` with `entry` when
/// it carries dwSize = `size` and is writable. 1 on success; 0, with
/// nothing written, when the structure is wrong or there is no entry.
fn fill_entry(uc: &mut Uc<'_>, p: u32, size: usize, entry: Option<Vec<u8>>) -> u32 {
    if !size_ok(uc, p, size) {
        return 0;
    }
    entry.map_or(0, |b| fill(uc, p, size, &b))
}

/// Which entry one of TOOLHELP's First/Next/FindHandle triplets
/// (TaskFirst, TaskNext, TaskFindHandle; ModuleFirst, ModuleNext,
/// ModuleFindHandle) asks for.
#[derive(Debug, Clone, Copy)]
enum Pick {
    /// xxxFirst: the first of the list.
    First,
    /// xxxNext: the one whose handle the structure's next field holds (0
    /// after the last).
    Next,
    /// xxxFindHandle: the one with this handle (never 0).
    Handle(u16),
    /// Found already (ModuleFindName), or none.
    At(Option<usize>),
}

/// A First/Next/FindHandle call over the list whose handles are `handles`
/// in order, of structures of `size` bytes whose next field is at
/// `next_at`: the entry `entry` makes for the index picked, written at
/// `p` ([`fill_entry`]). 1 on success; 0, with nothing written, when the
/// structure is wrong or there is no such entry.
fn walk_list(
    uc: &mut Uc<'_>,
    p: u32,
    (size, next_at): (usize, u16),
    handles: &[u16],
    pick: Pick,
    entry: impl FnOnce(&Uc<'_>, usize) -> Option<Vec<u8>>,
) -> u32 {
    let position = |h: u16| handles.iter().position(|&x| x == h && h != 0);
    let i = match pick {
        Pick::First => (!handles.is_empty()).then_some(0),
        Pick::Next if !size_ok(uc, p, size) => None,
        Pick::Next => position(field_u16(uc, p, next_at).unwrap_or(0)),
        Pick::Handle(h) => position(h),
        Pick::At(i) => i,
    };
    let bytes = i.and_then(|i| entry(uc, i));
    fill_entry(uc, p, size, bytes)
}

/// The word at offset `at` of the structure at `p`.
fn field_u16(uc: &Uc<'_>, p: u32, at: u16) -> Option<u16> {
    let b = guest::read(uc, p.wrapping_add(u32::from(at)), 2)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

// ------------------------------------------------------------ stack traces

/// The STACKTRACEENTRY at `p`, if all 0x14 bytes are readable and
/// writable.
fn read_ste(uc: &Uc<'_>, p: u32) -> Option<StackTraceEntry> {
    if !guest::usable(uc, p, StackTraceEntry::SIZE, true) {
        return None;
    }
    StackTraceEntry::from_bytes(&guest::read(uc, p, StackTraceEntry::SIZE)?)
}

/// Store the entry back if the walk changed it (a failed call leaves the
/// caller's structure as the walker left it: untouched, or filled as
/// StackTraceFirst step 5 says).
fn store_ste(uc: &mut Uc<'_>, p: u32, before: &StackTraceEntry, after: &StackTraceEntry) {
    if before != after {
        guest::write(uc, p, &after.to_bytes());
    }
}

/// TOOLHELP.66 StackTraceFirst(lpste, hTask): toolhelp.md "StackTraceFirst",
/// by `crate::walk::stack_trace_first`.
pub fn stack_trace_first(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    let Some(before) = read_ste(uc, p) else {
        return Ok(0);
    };
    let mut ste = before;
    let ok = crate::walk::stack_trace_first(&*uc as &dyn WalkMemory, &mut ste, warg(a, 1));
    store_ste(uc, p, &before, &ste);
    Ok(u32::from(ok))
}

/// TOOLHELP.67 StackTraceCSIPFirst(lpste, wSS, wCS, wIP, wBP):
/// toolhelp.md "StackTraceCSIPFirst", by
/// `crate::walk::stack_trace_csip_first` (wFlags is not written).
pub fn stack_trace_csip_first(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    let Some(before) = read_ste(uc, p) else {
        return Ok(0);
    };
    let mut ste = before;
    let ok = crate::walk::stack_trace_csip_first(
        &*uc as &dyn WalkMemory,
        &mut ste,
        warg(a, 1),
        warg(a, 2),
        warg(a, 3),
        warg(a, 4),
    );
    store_ste(uc, p, &before, &ste);
    Ok(u32::from(ok))
}

/// TOOLHELP.68 StackTraceNext(lpste): toolhelp.md "StackTraceNext", by
/// `crate::walk::stack_trace_next` (a failure leaves the structure
/// untouched).
pub fn stack_trace_next(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    let Some(before) = read_ste(uc, p) else {
        return Ok(0);
    };
    let mut ste = before;
    let ok = crate::walk::stack_trace_next(&*uc as &dyn WalkMemory, &mut ste);
    store_ste(uc, p, &before, &ste);
    Ok(u32::from(ok))
}

// ------------------------------------------------------------------- tasks

/// Every task's TASKENTRY in TaskFirst/TaskNext order, for the host side
/// (`stack --all-tasks`).
pub fn task_entries(env: &Env, uc: &Uc<'_>) -> Vec<TaskEntry> {
    (0..env.win16.tasks.len())
        .filter_map(|i| task_entry(env, uc, i))
        .collect()
}

/// The TASKENTRY of task `i` in `env.win16.tasks`, read from its TDB
/// (win16.md, "The task database") as TOOLHELP reads it:
///
/// - wSS/wSP are the TDB's saved SS:SP (+04/+02). For the running task they
///   are whatever the TDB holds, not the live registers: the scheduler
///   saves them when the task gives up the CPU (scheduler.rs), and a task
///   that never ran holds its first frame's SS:SP.
/// - wStackTop/wStackMinimum/wStackBottom are pStackTop, pStackMin and
///   pStackBot of the instance data (toolhelp.md, "Where the stack bounds
///   live") in the saved SS, or in the task's DGROUP when no SS is saved.
/// - wPSPOffset is 0x100: the PSP lies 0x100 bytes into the TDB's
///   segment, as in Windows 3.1 (tdb.rs, "The PSP"), so hTask:wPSPOffset
///   and the PSP's own selector (TDB+60h) read the same bytes.
/// - hNext is the next task of `env.win16.tasks`, 0 after the last.
fn task_entry(env: &Env, uc: &Uc<'_>, i: usize) -> Option<TaskEntry> {
    let t = env.win16.tasks.get(i)?;
    let h = t.htask;
    let tdb = |o: u16| uc.read_u16_at(h, o).unwrap_or(0);
    let (ss, sp) = (tdb(off::SS), tdb(off::SP));
    let stack_seg = if ss != 0 { ss } else { t.dgroup };
    let inst = |o: u16| uc.read_u16_at(stack_seg, o).unwrap_or(0);
    let mut name = [0u8; 8];
    if uc.read_seg(h, off::MODULE_NAME, &mut name).is_err() {
        name = [0; 8];
    }
    let mut sz_module = [0u8; MODULE_NAME_BYTES];
    let n = name.iter().position(|&c| c == 0).unwrap_or(name.len());
    sz_module[..n].copy_from_slice(&name[..n]);
    Some(TaskEntry {
        h_task: h,
        h_task_parent: tdb(off::HPARENT),
        h_inst: tdb(off::HINSTANCE),
        h_module: tdb(off::HMODULE),
        w_ss: ss,
        w_sp: sp,
        w_stack_top: inst(0x0A),
        w_stack_minimum: inst(0x0C),
        w_stack_bottom: inst(0x0E),
        wc_events: tdb(off::EVENTS),
        h_queue: tdb(off::HQUEUE),
        sz_module,
        w_psp_offset: super::tdb::PSP_OFFSET,
        h_next: env.win16.tasks.get(i + 1).map_or(0, |n| n.htask),
    })
}

fn fill_task(env: &Env, uc: &mut Uc<'_>, p: u32, pick: Pick) -> u32 {
    let handles: Vec<u16> = env.win16.tasks.iter().map(|t| t.htask).collect();
    let list = (TaskEntry::SIZE, TaskEntry::H_NEXT);
    walk_list(uc, p, list, &handles, pick, |uc, i| {
        task_entry(env, uc, i).map(|te| te.to_bytes())
    })
}

/// TOOLHELP.63 TaskFirst(lpte): the first task.
pub fn task_first(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_task(env, uc, arg(a, 0), Pick::First))
}

/// TOOLHELP.64 TaskNext(lpte): the task the structure's hNext names; FALSE
/// after the last.
pub fn task_next(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_task(env, uc, arg(a, 0), Pick::Next))
}

/// TOOLHELP.65 TaskFindHandle(lpte, hTask).
pub fn task_find_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_task(env, uc, arg(a, 0), Pick::Handle(warg(a, 1))))
}

// ----------------------------------------------------------------- classes

/// CLASSENTRY (toolhelp.h): dwSize 00, hInst 04, szClassName[256] 06,
/// wNext 106; 0x108 bytes. wNext is this implementation's cursor: the
/// 1-based index of the next class in USER's list, 0 after the last.
pub const CLASSENTRY_SIZE: usize = 0x108;

fn fill_class(env: &Env, uc: &mut Uc<'_>, p: u32, i: usize) -> u32 {
    let Some(c) = env.win16.user.classes.get(i) else {
        return 0;
    };
    let mut b = vec![0u8; CLASSENTRY_SIZE];
    b[0..4].copy_from_slice(&(CLASSENTRY_SIZE as u32).to_le_bytes());
    b[4..6].copy_from_slice(&c.hinstance.to_le_bytes());
    let name = c.name.as_bytes();
    let n = name.len().min(255);
    b[6..6 + n].copy_from_slice(&name[..n]);
    let next = if i + 1 < env.win16.user.classes.len() {
        i as u16 + 2
    } else {
        0
    };
    b[0x106..0x108].copy_from_slice(&next.to_le_bytes());
    fill(uc, p, CLASSENTRY_SIZE, &b)
}

/// TOOLHELP.69 ClassFirst(lpce): the first registered window class.
pub fn class_first(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, CLASSENTRY_SIZE) {
        return Ok(0);
    }
    Ok(fill_class(env, uc, p, 0))
}

/// TOOLHELP.70 ClassNext(lpce): the class wNext names; FALSE after the last.
pub fn class_next(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = arg(a, 0);
    if !size_ok(uc, p, CLASSENTRY_SIZE) {
        return Ok(0);
    }
    match field_u16(uc, p, 0x106) {
        Some(n) if n != 0 => Ok(fill_class(env, uc, p, usize::from(n) - 1)),
        _ => Ok(0),
    }
}

// ----------------------------------------------------------------- modules

/// Where Windows 3.1 kept a built-in module's file, for szExePath.
fn builtin_path(name: &str) -> String {
    let file = match name {
        "KERNEL" => "KRNL386.EXE".to_string(),
        "USER" | "GDI" => format!("{name}.EXE"),
        "KEYBOARD" | "SOUND" | "SYSTEM" => format!("{name}.DRV"),
        _ => format!("{name}.DLL"),
    };
    format!("C:\\WINDOWS\\SYSTEM\\{file}")
}

/// The MODULEENTRY of module `i`. szExePath is the path the program sees
/// (its drive is C:, `C:\NAME.EXE`, as DOS reports the program's own path;
/// built-ins sit in C:\WINDOWS\SYSTEM); wcUsage is the usage count in the
/// module database (+02); wNext the next module's handle, 0 after the
/// last.
fn module_entry(env: &Env, uc: &Uc<'_>, i: usize) -> Option<ModuleEntry> {
    let m = env.win16.modules.get(i)?;
    let path = match (&m.path, m.builtin) {
        (Some(p), false) => format!(
            "C:\\{}",
            p.file_name()
                .map(|f| f.to_string_lossy().to_ascii_uppercase())
                .unwrap_or_default()
        ),
        _ => builtin_path(&m.name),
    };
    Some(ModuleEntry {
        sz_module: name_field(&m.name),
        h_module: m.hmodule,
        wc_usage: uc.read_u16_at(m.hmodule, module_db::USAGE).unwrap_or(1),
        sz_exe_path: name_field(&path),
        w_next: env.win16.modules.get(i + 1).map_or(0, |n| n.hmodule),
    })
}

fn fill_module(env: &Env, uc: &mut Uc<'_>, p: u32, pick: Pick) -> u32 {
    let handles: Vec<u16> = env.win16.modules.iter().map(|m| m.hmodule).collect();
    let list = (ModuleEntry::SIZE, ModuleEntry::W_NEXT);
    walk_list(uc, p, list, &handles, pick, |uc, i| {
        module_entry(env, uc, i).map(|me| me.to_bytes())
    })
}

/// TOOLHELP.59 ModuleFirst(lpme): the first module (KERNEL, loaded first).
pub fn module_first(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_module(env, uc, arg(a, 0), Pick::First))
}

/// TOOLHELP.60 ModuleNext(lpme): the module the structure's wNext names.
pub fn module_next(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_module(env, uc, arg(a, 0), Pick::Next))
}

/// TOOLHELP.61 ModuleFindName(lpme, lpszName): the module of that name
/// (case ignored); FALSE if none or the name is unreadable.
pub fn module_find_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = guest::read_cstr(uc, arg(a, 1), 255) else {
        return Ok(0);
    };
    let name = String::from_utf8_lossy(&name).into_owned();
    let i = env
        .win16
        .modules
        .iter()
        .position(|m| m.name.eq_ignore_ascii_case(&name));
    Ok(fill_module(env, uc, arg(a, 0), Pick::At(i)))
}

/// TOOLHELP.62 ModuleFindHandle(lpme, hModule).
pub fn module_find_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(fill_module(env, uc, arg(a, 0), Pick::Handle(warg(a, 1))))
}

// ------------------------------------------------------------- local heap

// LocalInfo, LocalFirst and LocalNext: toolhelp_heap.rs.

// ----------------------------------------------------------- system info

/// TOOLHELP.71 SystemHeapInfo(lpshi): for USER and for GDI the free
/// percentage that GetFreeSystemResources(GFSR_USERRESOURCES or
/// GFSR_GDIRESOURCES) gives (KB Q61803, Q90762) and the selector of the
/// module's data segment (SDK, SYSHEAPINFO; user/heap.rs, gdi/heap.rs).
pub fn system_heap_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let user_ds = super::user::heap::selector(&env.win16, super::user::heap::DS).unwrap_or(0);
    let (gdi_free, gdi_seg) = super::gdi::heap::free_percent(&env.win16, uc);
    let shi = SysHeapInfo {
        w_user_free_percent: super::user::system::user_free_percent(env, uc),
        w_gdi_free_percent: gdi_free,
        h_user_segment: user_ds,
        h_gdi_segment: gdi_seg,
    };
    Ok(fill(uc, arg(a, 0), SysHeapInfo::SIZE, &shi.to_bytes()))
}

/// TOOLHELP.72 MemManInfo(lpmmi): the global arena's limits (global.rs,
/// "Limits") in 4 KiB pages: all of [`super::global::ARENA_LIMIT`] is
/// linear space and physical pages, nothing is locked or swapped; the
/// largest free block is what GlobalCompact(0) reports (what is free, at
/// most the largest huge block), the free pages what GetFreeSpace
/// reports, in whole pages.
pub fn mem_man_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use super::global::{ARENA_LIMIT, MAX_HUGE_BLOCK};
    const PAGE: u32 = 4096;
    let free = env.win16.global.free();
    let mmi = MemManInfo {
        dw_largest_free_block: free.min(MAX_HUGE_BLOCK),
        dw_max_pages_available: free / PAGE,
        dw_max_pages_lockable: free / PAGE,
        dw_total_linear_space: ARENA_LIMIT / PAGE,
        dw_total_unlocked_pages: ARENA_LIMIT / PAGE,
        dw_free_pages: free / PAGE,
        dw_total_pages: ARENA_LIMIT / PAGE,
        dw_free_linear_space: free / PAGE,
        dw_swap_file_pages: 0,
        w_page_size: PAGE as u16,
    };
    Ok(fill(uc, arg(a, 0), MemManInfo::SIZE, &mmi.to_bytes()))
}

/// TOOLHELP.80 TimerCount(lpti): milliseconds since the machine started,
/// from the instructions it executed ([`INSNS_PER_MS`]), never the host's
/// clock, plus the time skipped idle waiting for a timer (system.rs); there
/// is one virtual machine, so dwmsThisVM is the same.
pub fn timer_count(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::machine::time::observe(uc);
    let ms = (uc.get_data().total_insns() / INSNS_PER_MS + env.win16.system.idle_ms) as u32;
    let ti = TimerInfo {
        dw_ms_since_start: ms,
        dw_ms_this_vm: ms,
    };
    Ok(fill(uc, arg(a, 0), TimerInfo::SIZE, &ti.to_bytes()))
}

// ------------------------------------------------------------- callbacks

/// hTask 0 means the current task; any other must be a task.
fn register(list: &mut Vec<Callback>, cb: Callback) {
    list.retain(|c| c.htask != cb.htask);
    list.push(cb);
}

fn unregister(list: &mut Vec<Callback>, htask: u16) -> u32 {
    let n = list.len();
    list.retain(|c| c.htask != htask);
    u32::from(list.len() != n)
}

/// Task `htask` is ending (kernel/signal.rs): its NotifyRegister and
/// InterruptRegister callbacks are forgotten.
pub fn forget_task(env: &mut Env, htask: u16) {
    let t = &mut env.win16.toolhelp;
    t.notify.retain(|c| c.htask != htask);
    t.interrupt.retain(|c| c.htask != htask);
}

/// TOOLHELP.73 NotifyRegister(hTask, lpfnCallback, wFlags): remember the
/// task's notification callback (replacing an earlier one). FALSE for a
/// null callback or an unknown task. The notifications and where they come
/// from: toolhelp_notify.rs.
pub fn notify_register(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let proc_addr = arg(a, 1);
    let Some(htask) = env
        .win16
        .task_arg(uc, warg(a, 0))
        .filter(|_| proc_addr >> 16 != 0)
    else {
        return Ok(0);
    };
    let cb = Callback {
        htask,
        proc_addr,
        flags: warg(a, 2),
    };
    register(&mut env.win16.toolhelp.notify, cb);
    // TOOLHELP's procedure hears KERNEL's events from now on
    // (ToolHelpHook: kernel/notify.rs).
    super::kernel::notify::install(env, super::toolhelp_notify::HOOK);
    Ok(1)
}

/// TOOLHELP.74 NotifyUnRegister(hTask): FALSE if the task had none.
pub fn notify_unregister(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(htask) = env.win16.task_arg(uc, warg(a, 0)) else {
        return Ok(0);
    };
    Ok(unregister(&mut env.win16.toolhelp.notify, htask))
}

/// TOOLHELP.75 InterruptRegister(hTask, lpfnIntCallback): remember the
/// task's fault callback (toolhelp.md, "InterruptRegister callbacks");
/// fault.rs dispatches faults to it.
pub fn interrupt_register(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let proc_addr = arg(a, 1);
    let Some(htask) = env
        .win16
        .task_arg(uc, warg(a, 0))
        .filter(|_| proc_addr >> 16 != 0)
    else {
        return Ok(0);
    };
    let cb = Callback {
        htask,
        proc_addr,
        flags: 0,
    };
    register(&mut env.win16.toolhelp.interrupt, cb);
    Ok(1)
}

/// TOOLHELP.76 InterruptUnRegister(hTask): FALSE if the task had none.
pub fn interrupt_unregister(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(htask) = env.win16.task_arg(uc, warg(a, 0)) else {
        return Ok(0);
    };
    Ok(unregister(&mut env.win16.toolhelp.interrupt, htask))
}

/// TOOLHELP.77 TerminateApp(hTask, wFlags): end a task. The current task
/// (or hTask 0) ends at once with exit code 0xFF, the code Windows 3.1
/// used ("Undocumented Windows", as Wine cites it), and the scheduler
/// runs the next task; called from an InterruptRegister callback, the
/// fault being dispatched is dropped, and with UAE_BOX (0) its
/// Application Error box is shown (toolhelp_notify.rs). Another task is taken off the task list and the
/// scheduler with its windows, TDB, PSP and callbacks. An unknown handle does nothing. Returns nothing.
pub fn terminate_app(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let current = uc.get_data().current_task;
    let h = warg(a, 0);
    if h == 0 || h == current {
        super::toolhelp_notify::terminating_current(env, uc, warg(a, 1));
        return Err(Stop::Exited { code: 0xFF });
    }
    let Some(t) = env.win16.task(h).cloned() else {
        return Ok(0);
    };
    crate::win16::scheduler::remove_task(env, uc, h);
    // The PSP's selector is an alias into the TDB's segment (tdb.rs).
    let w = &mut env.win16;
    if crate::machine::free_alias(uc, t.psp).is_ok() {
        w.global.remove(t.psp);
    }
    if crate::machine::free_seg(uc, t.htask).is_ok() {
        w.global.remove(t.htask);
    }
    Ok(0)
}

// ------------------------------------------------------------ memory

/// Most bytes MemoryRead/MemoryWrite copy in one call: one segment.
const MAX_COPY: u32 = 0x1_0000;

/// The linear address of `sel:offset` and how many of `count` bytes fit
/// below the limit, for a present LDT segment; `None` if the selector is
/// bad or the offset past the limit.
fn span(uc: &Uc<'_>, sel: u16, offset: u32, count: u32) -> Option<(u64, u32)> {
    let d = uc.descriptor_of(sel)?;
    if sel & 4 == 0 || !d.present() || !d.is_segment() || offset > d.limit {
        return None;
    }
    let n = count.min(d.limit - offset + 1).min(MAX_COPY);
    Some((u64::from(d.base) + u64::from(offset), n))
}

/// TOOLHELP.78 MemoryRead(wSel, dwOffset, lpBuffer, dwcb): copy from any
/// segment (code too) into the buffer; the count is cut at the segment's
/// limit. Returns the bytes copied, 0 for a bad selector, an offset past
/// the limit, or a buffer that cannot take them.
pub fn memory_read(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((lin, n)) = span(uc, warg(a, 0), arg(a, 1), arg(a, 3)) else {
        return Ok(0);
    };
    let mut buf = vec![0u8; n as usize];
    if uc.mem_read(lin, &mut buf).is_err() || !guest::write(uc, arg(a, 2), &buf) {
        return Ok(0);
    }
    Ok(n)
}

/// TOOLHELP.79 MemoryWrite(wSel, dwOffset, lpBuffer, dwcb): copy the buffer
/// into any segment, code included (how a debugger plants a breakpoint);
/// the count is cut at the segment's limit. Returns the bytes copied, 0
/// on a bad selector, offset or buffer.
pub fn memory_write(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = warg(a, 0);
    let Some((lin, n)) = span(uc, sel, arg(a, 1), arg(a, 3)) else {
        return Ok(0);
    };
    let Some(data) = guest::read(uc, arg(a, 2), n as usize) else {
        return Ok(0);
    };
    if uc.mem_write(lin, &data).is_err() {
        return Ok(0);
    }
    if uc.descriptor_of(sel).is_some_and(|d| d.is_code()) {
        // Code already translated from these bytes must be translated
        // again.
        crate::machine::tlb::remove_cache(uc, lin, lin + u64::from(n));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(b: &[u8], o: usize) -> u16 {
        u16::from_le_bytes([b[o], b[o + 1]])
    }
    fn d(b: &[u8], o: usize) -> u32 {
        u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
    }

    #[test]
    fn taskentry_layout() {
        let te = TaskEntry {
            h_task: 0x0104,
            h_task_parent: 0x0106,
            h_inst: 0x0108,
            h_module: 0x010A,
            w_ss: 0x010C,
            w_sp: 0x010E,
            w_stack_top: 0x0110,
            w_stack_minimum: 0x0112,
            w_stack_bottom: 0x0114,
            wc_events: 0x0116,
            h_queue: 0x0118,
            sz_module: name_field("THWALKLONG"),
            w_psp_offset: 0x0124,
            h_next: 0x0126,
        };
        let b = te.to_bytes();
        assert_eq!(b.len(), 0x28);
        assert_eq!(d(&b, 0), 0x28);
        for o in (0x04..=0x18).step_by(2).chain([0x24, 0x26]) {
            assert_eq!(w(&b, o), 0x0100 + o as u16, "offset {o:#x}");
        }
        assert_eq!(&b[0x1A..0x24], b"THWALKLON\0");
        assert_eq!(TaskEntry::H_NEXT, 0x26);
    }

    #[test]
    fn moduleentry_layout() {
        let me = ModuleEntry {
            sz_module: name_field("TOOLHELP"),
            h_module: 0x100F,
            wc_usage: 3,
            sz_exe_path: name_field("C:\\WINDOWS\\SYSTEM\\TOOLHELP.DLL"),
            w_next: 0x1017,
        };
        let b = me.to_bytes();
        assert_eq!(b.len(), 0x114);
        assert_eq!(d(&b, 0), 0x114);
        assert_eq!(&b[0x04..0x0E], b"TOOLHELP\0\0");
        assert_eq!(w(&b, 0x0E), 0x100F);
        assert_eq!(w(&b, 0x10), 3);
        assert!(b[0x12..].starts_with(b"C:\\WINDOWS\\SYSTEM\\TOOLHELP.DLL\0"));
        assert_eq!(b[0x111], 0, "szExePath stays terminated");
        assert_eq!(w(&b, 0x112), 0x1017);
        assert_eq!(ModuleEntry::W_NEXT, 0x112);
        // A name longer than MAX_MODULE_NAME is cut and terminated.
        assert_eq!(&name_field::<10>("ABCDEFGHIJKL"), b"ABCDEFGHI\0");
    }

    #[test]
    fn globalentry_layout() {
        let ge = GlobalEntry {
            dw_address: 0x1111_0004,
            dw_block_size: 0x1111_0008,
            h_block: 0x000C,
            wc_lock: 0x000E,
            wc_page_lock: 0x0010,
            w_flags: 0x0012,
            w_heap_present: 0x0014,
            h_owner: 0x0016,
            w_type: 0x0018,
            w_data: 0x001A,
            dw_next: 0x1111_001C,
            dw_next_alt: 0x1111_0020,
        };
        let b = ge.to_bytes();
        assert_eq!(b.len(), 0x24);
        assert_eq!(d(&b, 0), 0x24);
        for o in [0x04, 0x08, 0x1C, 0x20] {
            assert_eq!(d(&b, o), 0x1111_0000 + o as u32, "offset {o:#x}");
        }
        for o in (0x0C..=0x1A).step_by(2) {
            assert_eq!(w(&b, o), o as u16, "offset {o:#x}");
        }
        assert_eq!(
            (GlobalEntry::DW_NEXT, GlobalEntry::DW_NEXT_ALT),
            (0x1C, 0x20)
        );
    }

    #[test]
    fn info_structure_layouts() {
        let b = GlobalInfo {
            wc_items: 4,
            wc_items_free: 6,
            wc_items_lru: 8,
        }
        .to_bytes();
        assert_eq!((b.len(), d(&b, 0)), (0x0A, 0x0A));
        assert_eq!((w(&b, 4), w(&b, 6), w(&b, 8)), (4, 6, 8));

        let b = LocalInfo { wc_items: 7 }.to_bytes();
        assert_eq!((b.len(), d(&b, 0), w(&b, 4)), (6, 6, 7));
        assert_eq!(LOCAL_ENTRY_SIZE, 0x16);

        let b = SysHeapInfo {
            w_user_free_percent: 4,
            w_gdi_free_percent: 6,
            h_user_segment: 8,
            h_gdi_segment: 10,
        }
        .to_bytes();
        assert_eq!((b.len(), d(&b, 0)), (0x0C, 0x0C));
        assert_eq!((w(&b, 4), w(&b, 6), w(&b, 8), w(&b, 10)), (4, 6, 8, 10));

        let b = MemManInfo {
            dw_largest_free_block: 0x04,
            dw_max_pages_available: 0x08,
            dw_max_pages_lockable: 0x0C,
            dw_total_linear_space: 0x10,
            dw_total_unlocked_pages: 0x14,
            dw_free_pages: 0x18,
            dw_total_pages: 0x1C,
            dw_free_linear_space: 0x20,
            dw_swap_file_pages: 0x24,
            w_page_size: 0x28,
        }
        .to_bytes();
        assert_eq!((b.len(), d(&b, 0)), (0x2A, 0x2A));
        for o in (0x04..=0x24).step_by(4) {
            assert_eq!(d(&b, o), o as u32, "offset {o:#x}");
        }
        assert_eq!(w(&b, 0x28), 0x28);

        let b = TimerInfo {
            dw_ms_since_start: 0x1234_5678,
            dw_ms_this_vm: 0x9ABC_DEF0,
        }
        .to_bytes();
        assert_eq!((b.len(), d(&b, 0)), (0x0C, 0x0C));
        assert_eq!((d(&b, 4), d(&b, 8)), (0x1234_5678, 0x9ABC_DEF0));
    }

    #[test]
    fn every_toolhelp_export_is_here() {
        let mine: Vec<u16> = APIS.iter().map(|a| a.ordinal).collect();
        for o in 50..=80 {
            assert!(mine.contains(&o), "TOOLHELP.{o} missing");
        }
        assert!(APIS.iter().all(|a| a.module == "TOOLHELP"));
    }
}
