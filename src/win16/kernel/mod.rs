//! KERNEL: one file per concept, each with its own API table (registered
//! in `table::TABLES`):
//!
//! - this file: the task's start (InitTask, InitApp), GetVersion, DOS3Call,
//!   OutputDebugString;
//! - [`module`]: module handles, file names, GetProcAddress, instance
//!   thunks;
//! - [`library`]: LoadLibrary, FreeLibrary, LoadModule, a DLL's LibEntry and
//!   WEP;
//! - [`loader`]: loading an NE program or DLL: segments, imports,
//!   relocations, the module database, the task;
//! - [`osfixup`]: the OS fixups the loader applies (FPU instructions in
//!   the emulator's interrupt form become x87 instructions);
//! - [`file`]: `_lopen` and the other file functions, OpenFile;
//! - [`directory`]: the Windows and system directories, temporary files,
//!   drive types;
//! - [`selector`]: selector functions, the absolute entries (`__AHINCR`,
//!   `__B800H`, ...) and the real-mode memory they name;
//! - [`memory`]: what is left of KERNEL's memory functions (huge copies,
//!   free space, page locks, notification procedures);
//! - [`error`]: parameter checking (IsBad*Ptr), error logging,
//!   DebugBreak;
//! - [`task`]: task queues, priorities and the other task queries;
//! - [`profile`]: WIN.INI and private initialization files;
//! - [`system`]: the clock, Catch/Throw, the error mode, fatal exits,
//!   NetBIOSCall;
//! - [`stack`]: SwitchStackTo and SwitchStackBack;
//! - [`burgermaster`]: the global heap's master object,
//!   GlobalMasterHandle;
//! - [`filecdr`]: FileCDR, the procedure told of changes to the disk;
//! - [`notify`]: the events KERNEL tells a debugging DLL of (NFY_*) and
//!   the hook it tells them through (ToolHelpHook);
//! - [`signal`]: what KERNEL calls in the tiers above it (USER's
//!   SignalProc at a task's end, USER's initialization, its boxes), a
//!   table the top of win16 fills in.
//!
//! Global and local memory, atoms, resources, strings and the scheduler
//! have their own files beside this folder (`win16/global.rs`, ...).

pub mod builtin;
pub mod burgermaster;
pub mod directory;
pub mod error;
pub mod file;
pub mod filecdr;
pub mod library;
pub mod loader;
pub mod memory;
pub mod module;
pub mod notify;
pub mod osfixup;
pub mod profile;
pub mod selector;
pub mod selfload;
pub mod signal;
pub mod stack;
pub mod system;
pub mod task;
#[cfg(test)]
pub(crate) mod testing;

use super::api::{Api, Arg};
use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 3, "GETVERSION", &[], get_version),
    Api::new("KERNEL", 91, "INITTASK", &[], init_task),
    Api::new("KERNEL", 101, "NOHOOKDOSCALL", &[], dos3call),
    Api::new("KERNEL", 102, "DOS3CALL", &[], dos3call),
    Api::new(
        "KERNEL",
        115,
        "OUTPUTDEBUGSTRING",
        &[Arg::L],
        output_debug_string,
    ),
    Api::new("USER", 5, "INITAPP", &[Arg::W], init_app),
    // KERNEL's exports of USER's string functions (Windows 2.x put them
    // in KERNEL; 3.1 keeps the ordinals).
    Api::new(
        "KERNEL",
        77,
        "ANSINEXT",
        &[Arg::L],
        super::strings::ansi_next,
    ),
    Api::new(
        "KERNEL",
        78,
        "ANSIPREV",
        &[Arg::L, Arg::L],
        super::strings::ansi_prev,
    ),
    Api::new(
        "KERNEL",
        79,
        "ANSIUPPER",
        &[Arg::L],
        super::strings::ansi_upper,
    ),
    Api::new(
        "KERNEL",
        80,
        "ANSILOWER",
        &[Arg::L],
        super::strings::ansi_lower,
    ),
    Api::new(
        "KERNEL",
        87,
        "LSTRCMP",
        &[Arg::L, Arg::L],
        super::strings::lstrcmp,
    ),
];

/// KERNEL's state for the run that belongs to no other part of Win16.
#[derive(Clone, Debug, Default)]
pub struct KernelState {
    /// Libraries: usage counts, LibEntry calls still due (library.rs).
    pub libraries: library::Libraries,
    /// Selectors made by the selector functions, and the real-mode memory
    /// (selector.rs).
    pub selectors: selector::Selectors,
    /// Notification and handler procedures, handle deltas (memory.rs).
    pub memory: memory::MemoryState,
    /// Task priorities and queues (task.rs).
    pub tasks: task::TaskState,
    /// Temporary-file numbers handed out (directory.rs).
    pub temp_files: u16,
    /// The global heap's master object, once GlobalMasterHandle made it
    /// (burgermaster.rs).
    pub burgermaster: Option<u16>,
    /// The procedure FileCDR set (filecdr.rs).
    pub file_cdr: filecdr::FileCdr,
    /// The procedure KERNEL tells its events to (ToolHelpHook;
    /// notify.rs), once a debugging DLL installed one.
    pub notify: Option<notify::Hook>,
}

/// KERNEL.3 GetVersion: Windows 3.10 in AX (major in AL), DOS 5.00 in DX.
pub fn get_version(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0x0500_0A03)
}

/// USER.5 InitApp(hInstance): TRUE.
pub fn init_app(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// KERNEL.91 InitTask (win16.md, "How a Win16 task starts"): fills the
/// instance data at DS:0..0F and returns AX = 1, BX = command line offset in
/// the PSP (0x81), CX = stack limit, DX = nCmdShow, SI = hPrevInstance,
/// DI = hInstance, ES = PSP.
///
/// Stack bounds (toolhelp.md, "Where the stack bounds live"): pStackBot =
/// the SP the task started with (the top of its stack), pStackMin = the same
/// (nothing has been used yet), pStackTop = (start SP - stack size) & ~1,
/// the lowest offset the stack may grow to.
///
/// It also makes the task's local heap (see [`super::local`]) when the NE
/// header gives a heap size.
pub fn init_task(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    let Some(task) = env.win16.task(htask).cloned() else {
        return Err(Stop::Error(format!(
            "InitTask called outside a task (hTask {htask:04X})"
        )));
    };
    let (limit, top) = task.stack_bounds();
    let ds = task.dgroup;
    for (off, v) in [(0x0Au16, limit), (0x0C, top), (0x0E, top)] {
        uc.write_u16_at(ds, off, v)
            .map_err(|e| Stop::Error(format!("InitTask: {e}")))?;
    }
    super::local::init_task_heap(env, uc, htask);
    // The LibEntry of every DLL loaded with the task, before the task's
    // own code runs (library.rs).
    library::run_pending(env, uc)?;
    let bx = prepare_command_line(uc, task.psp);
    uc.set_reg(R::BX, bx).map_err(host)?;
    uc.set_reg(R::CX, limit).map_err(host)?;
    uc.set_reg(R::SI, task.hprev).map_err(host)?;
    uc.set_reg(R::DI, task.hinstance).map_err(host)?;
    uc.set_reg(R::ES, task.psp).map_err(host)?;
    // DX = nCmdShow, AX = 1.
    Ok((u32::from(task.cmd_show) << 16) | 1)
}

/// InitTask's work on the command tail at PSP:80h (count byte, text,
/// CR): the CR that ends it becomes a NUL, and the offset of its first
/// character that is not a blank or a tab is returned for BX. ES:BX is
/// what the C start-up code passes on as WinMain's lpCmdLine unchanged
/// (Open Watcom's cstrtw16.asm pushes ES and BX; Microsoft C's and
/// Borland's start-ups do the same), and the SDK's WinMain says that
/// lpCmdLine "points to a null-terminated string": the arguments with
/// the blanks before them skipped, "" when there are none. The count
/// byte stays (a start-up that reads the tail by its length still can).
pub fn prepare_command_line(uc: &mut Uc<'_>, psp: u16) -> u16 {
    let tail = crate::dos::psp::TAIL as u16;
    let mut t = [0u8; 0x80];
    if uc.read_seg(psp, tail, &mut t).is_err() {
        return tail + 1;
    }
    let n = usize::from(t[0]).min(126);
    let _ = uc.write_seg(psp, tail + 1 + n as u16, &[0]);
    let blanks = t[1..1 + n]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    tail + 1 + blanks as u16
}

/// KERNEL.102 DOS3Call: INT 21h with the caller's registers (and
/// KERNEL.101 NoHookDosCall, the same call past any hook: none is set
/// here).
pub fn dos3call(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let before = [R::AX, R::DS, R::DX, R::ES, R::DI].map(|r| uc.reg(r));
    crate::dos::log::logged(env, uc, 0x21, Some("KERNEL.DOS3Call"), crate::dos::int21)?;
    filecdr::after_dos_call(env, uc, before)?;
    Ok((u32::from(uc.reg(R::DX)) << 16) | u32::from(uc.reg(R::AX)))
}

/// KERNEL.115 OutputDebugString(LPCSTR): recorded, and shown on the console
/// stream of debug output; TOOLHELP's callbacks get NFY_OUTSTR.
pub fn output_debug_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = a.first().copied().unwrap_or(0);
    let (seg, off) = super::farptr::split(p);
    let s = crate::dos::read_until(uc, seg, off, 0, 0x1000);
    env.debug_string(String::from_utf8_lossy(&s).into_owned());
    notify::out_str(env, uc, p)?;
    Ok((u32::from(uc.reg(R::DX)) << 16) | u32::from(uc.reg(R::AX)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn init_task_hands_over_the_command_line_as_a_c_string() {
        let (mut m, mut env, htask) = crate::win16::kernel::testing::kernsvc();
        let psp = env.win16.task(htask).unwrap().psp;
        // DOS's tail: count 6, " \t a b", CR.
        let tail = crate::dos::psp::tail_bytes(b" \t a b");
        m.write_seg(psp, 0x80, &tail).unwrap();
        init_task(&mut env, &mut m, &[]).unwrap();
        assert_eq!(m.reg(R::ES), psp);
        assert_eq!(m.reg(R::BX), 0x84);
        let mut b = [0u8; 8];
        m.read_seg(psp, 0x80, &mut b).unwrap();
        assert_eq!(&b, b"\x06 \t a b\0");
        // No arguments: BX at the NUL that replaced the CR.
        let (mut m, mut env, htask) = crate::win16::kernel::testing::kernsvc();
        let psp = env.win16.task(htask).unwrap().psp;
        init_task(&mut env, &mut m, &[]).unwrap();
        assert_eq!(m.reg(R::BX), 0x81);
        assert_eq!(m.read_u16_at(psp, 0x80).unwrap(), 0x0000);
    }

    #[test]
    fn init_task_makes_the_local_heap_between_data_and_stack() {
        let (mut m, mut env, _) = crate::win16::kernel::testing::kernsvc();
        assert_eq!(init_task(&mut env, &mut m, &[]).unwrap(), 0x0001_0001);
        // kernsvc: DGROUP data 0x400, heap 0x200, stack 0x800 from 0x600.
        let ds = m.reg(R::DS);
        assert_eq!(m.read_u16_at(ds, 0x0A).unwrap(), 0x600);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0xE00);
        let alloc = crate::win16::local::local_alloc;
        // The heap [400h, 600h): its first arena, the information block,
        // then a free arena [43Ch, 5F4h) before the last arena.
        let a = alloc(&mut env, &mut m, &[0, 0x1B4]).unwrap();
        assert_eq!(a, 0x440);
        // The heap is full: the next block grows DGROUP past the stack
        // (local/mod.rs, "Growth"), which stays where it is.
        m.write_seg(ds, 0xDFE, &[0x5A, 0xA5]).unwrap();
        let b = alloc(&mut env, &mut m, &[0, 1]).unwrap();
        assert_eq!(b, 0xE04);
        assert_eq!(m.descriptor_of(ds).unwrap().limit + 1, 0x1020);
        assert_eq!(m.read_u16_at(ds, 0xDFE).unwrap(), 0xA55A);
        assert_eq!(m.read_u16_at(ds, 0x0A).unwrap(), 0x600);
    }
}
