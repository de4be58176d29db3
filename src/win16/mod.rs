//! The Win16 side: its state (tasks, modules in emulated memory, every
//! subsystem's state: [`Win16`]) and the built-in system DLLs' modules and
//! thunks. Loading NE programs and DLLs is KERNEL's (kernel/loader.rs,
//! re-exported here); the table of every system function (table.rs) and
//! the dispatch of a thunk's call to it (dispatch.rs) sit above every
//! subsystem (docs/architecture.md, "Inside win16").

pub mod api;
pub mod atom;
pub mod callback;
pub mod catalog;
pub mod code_names;
pub mod commctrl;
pub mod commdlg;
pub mod ddeml;
pub mod dispatch;
pub mod drwatson;
pub mod farptr;
pub mod fault;
pub mod fault_record;
pub mod gdi;
pub mod geom;
pub mod global;
pub mod guest;
#[cfg(test)]
pub mod hostile;
pub mod kernel;
pub mod keyboard;
pub mod local;
pub mod lzexpand;
pub mod mci;
pub mod midi;
pub mod mmio;
pub mod mmsystem;
pub mod nametable;
pub mod ole;
pub mod prologue;
pub mod relayfilter;
pub mod resource;
pub mod scheduler;
pub mod script;
pub mod search;
pub mod shell;
pub mod shellenv;
pub mod sound;
pub mod strings;
pub mod sysexport;
pub mod sysheap;
pub mod systemdrv;
pub mod table;
pub mod tdb;
pub mod toolhelp;
pub mod toolhelp_global;
pub mod toolhelp_heap;
pub mod toolhelp_notify;
pub mod toolhelp_task;
pub mod user;
pub mod ver;
pub mod wave;
pub mod win87em;
pub mod winsock;

use std::collections::HashMap;
use std::path::PathBuf;

/// The whole environment as Win16's functions see it: the shared state
/// (`env::Env`), DOS's (below Win16: its services are Win16's to call)
/// and Win16's own.
pub type Env = crate::env::Env<crate::dos::Dos, Win16>;

use crate::loader::ne::{FarPtr, NeImage};
use crate::machine::{Cpu, MachineError, R, Uc};
use crate::walk::CodeOwner;
use tdb::Tdb;

/// The software interrupt a thunk uses to call into Rust.
pub const API_INT: u8 = 0xF0;
/// Bytes per thunk: `int F0h; retf N` padded.
pub(crate) const THUNK_SIZE: u16 = 8;
/// Thunks per built-in module (the last slot is the callback return).
pub(crate) const THUNKS_PER_MODULE: u16 = 0x400;
/// Offset, in every built-in module's thunk segment, of the address a
/// callback from that module returns to (never executed: the nested run
/// ends there).
pub const CALLBACK_RETURN: u16 = (THUNKS_PER_MODULE - 1) * THUNK_SIZE;

/// Thunks of a module's imports by a name it does not know count from
/// here (they have no ordinal).
pub const UNKNOWN_NAME_ORDINAL: u16 = 0x8000;
/// The system modules this emulator provides itself (win16.md, "System
/// DLLs").
pub const BUILTIN_MODULES: &[&str] = &[
    "KERNEL", "USER", "GDI", "KEYBOARD", "SOUND", "WIN87EM", "SYSTEM", "TOOLHELP", "COMMDLG",
    "SHELL", "MMSYSTEM", "DDEML", "WINSOCK", "LZEXPAND", "VER", "OLECLI", "OLESVR", "COMMCTRL",
];

/// One imported function's thunk.
#[derive(Debug, Clone)]
pub struct Thunk {
    pub module: String,
    pub ordinal: u16,
    pub name: Option<String>,
    /// The function the thunk calls, found once when the thunk was made
    /// ([`kernel::builtin::thunk_for`]); None for an import with no Rust function.
    pub api: Option<&'static api::Api>,
}

/// A module in memory (built-in or loaded from an NE file).
#[derive(Debug, Clone)]
pub struct Module {
    pub name: String,
    /// hModule: the module database selector.
    pub hmodule: u16,
    /// Selector of each NE segment, by segment number - 1.
    pub segments: Vec<u16>,
    /// For built-ins: thunks by index in the thunk segment.
    pub thunks: Vec<Thunk>,
    /// Exported entry points: ordinal → (selector, offset); names → ordinal.
    pub exports: HashMap<u16, FarPtr>,
    pub export_names: HashMap<String, u16>,
    /// The file, for modules loaded from disk.
    pub path: Option<PathBuf>,
    /// The parsed NE image, for modules loaded from disk.
    pub image: Option<Box<NeImage>>,
    pub builtin: bool,
}

/// A task.
#[derive(Debug, Clone)]
pub struct Task {
    pub htask: u16,
    pub hmodule: u16,
    pub hinstance: u16,
    pub hprev: u16,
    pub psp: u16,
    pub dgroup: u16,
    pub stack_size: u16,
    pub heap_size: u16,
    /// The SP the task starts with (the top of its stack).
    pub start_sp: u16,
    pub start_cs: u16,
    pub start_ip: u16,
    /// The DOS environment block's selector (PSP:2Ch).
    pub env_sel: u16,
    /// The code segment of the task's MakeProcInstance thunks.
    pub proc_thunks: u16,
    /// How its main window is to be shown first (InitTask's DX, WinMain's
    /// nCmdShow): `--show`, WinExec's nCmdShow, LoadModule's.
    pub cmd_show: u16,
}

impl Task {
    /// The stack bounds InitTask writes to the instance data (kernel.rs):
    /// (pStackTop, pStackBot) = ((start SP - stack size) & ~1, start SP).
    pub fn stack_bounds(&self) -> (u16, u16) {
        (
            self.start_sp.wrapping_sub(self.stack_size) & !1,
            self.start_sp,
        )
    }
}

/// Win16 state: modules and tasks.
#[derive(Clone, Debug, Default)]
pub struct Win16 {
    pub modules: Vec<Module>,
    pub tasks: Vec<Task>,
    /// Thunk code segment → index in `modules`.
    thunk_segments: HashMap<u16, usize>,
    /// Every global memory block (global.rs).
    pub global: global::GlobalArena,
    /// TOOLHELP's NotifyRegister and InterruptRegister callbacks.
    pub toolhelp: toolhelp::Registrations,
    /// USER: classes, windows, the message queue.
    pub user: user::User,
    /// GDI: objects and drawing.
    pub gdi: gdi::Gdi,
    /// Local and global atom tables.
    pub atoms: atom::Atoms,
    /// WIN.INI and private initialization files.
    pub profiles: kernel::profile::Profiles,
    /// Handles of loaded icons, cursors, bitmaps, menus, accelerators.
    pub resources: resource::ResourceHandles,
    /// Local heaps by segment.
    pub local_heaps: local::LocalHeaps,
    /// USER's and GDI's heap segments (sysheap.rs).
    pub sys_heaps: sysheap::SysHeaps,
    /// MakeProcInstance thunks, the clock, the error mode.
    pub system: kernel::system::SystemState,
    /// The cooperative scheduler: suspended tasks, exits.
    pub scheduler: scheduler::Scheduler,
    /// The DOS environment a task starts with (the default one when
    /// empty).
    pub environment: Vec<(String, String)>,
    /// Where DLLs are looked for (search.rs): Windows 3.1's order on the
    /// sandboxed drive, set when a program is loaded.
    pub dll_search: search::DllSearch,
    /// KERNEL's runtime state: loaded libraries, selectors, files, the
    /// error mode (kernel/).
    pub kernel: kernel::KernelState,
    /// The state of COMMDLG, SHELL, DDEML, SOUND, LZEXPAND and WINSOCK
    /// (their files).
    pub commdlg: commdlg::CommDlgState,
    pub shell: shell::ShellState,
    pub ddeml: ddeml::DdemlState,
    pub sound: sound::SoundState,
    pub lzexpand: lzexpand::LzState,
    pub winsock: winsock::WinsockState,
    /// The modules whose imports are being loaded, outermost first
    /// (kernel/loader.rs, `load_module`).
    pub loading: Vec<kernel::loader::Loading>,
    /// MMSYSTEM's MIDI output device (midi.rs).
    pub midi: midi::MidiState,
    /// MMSYSTEM's open MCI devices (mci.rs).
    pub mci: mci::MciState,
    /// MMSYSTEM's wave output device (wave.rs).
    pub wave: wave::WaveState,
    /// MMSYSTEM's open mmio files (mmio.rs).
    pub mmio: mmio::MmioState,
    /// COMMCTRL's classes, status bars and toolbars (commctrl/).
    pub commctrl: commctrl::CommCtrlState,
    /// OLECLI's and OLESVR's registrations (ole/).
    pub ole: ole::OleState,
    /// The *absent* modules, by hModule: imported, but neither built in
    /// nor found as a DLL. Each has thunks like a built-in module and no
    /// functions: calling one stops the run. The text says where its file
    /// was looked for.
    pub absent: HashMap<u16, String>,
}

/// The selector a global handle names: a moveable block's handle is its
/// selector minus 1 (both are accepted; 0 stays 0).
pub fn selector_of_handle(h: u16) -> u16 {
    if h == 0 { 0 } else { h | 1 }
}

/// Why loading failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Win16LoadError(pub String);

impl std::fmt::Display for Win16LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Win16LoadError {}

impl From<MachineError> for Win16LoadError {
    fn from(e: MachineError) -> Self {
        Win16LoadError(e.0)
    }
}

impl Win16 {
    /// The task with this handle.
    pub fn task(&self, htask: u16) -> Option<&Task> {
        self.tasks.iter().find(|t| t.htask == htask)
    }

    /// The task a system function's hTask argument names: 0 is the
    /// current task; None for a handle that is no task.
    pub fn task_arg(&self, uc: &Uc<'_>, h: u16) -> Option<u16> {
        let h = if h == 0 {
            uc.get_data().current_task
        } else {
            h
        };
        self.task(h).map(|t| t.htask)
    }

    /// The name of the built-in function whose thunk holds `cs:ip`, and
    /// the distance into the thunk: the API table's name, else the
    /// ordinal's name from the system DLLs' tables, else `#N`.
    pub fn thunk_symbol(&self, cs: u16, ip: u16) -> Option<(String, u16)> {
        let m = &self.modules[*self.thunk_segments.get(&cs)?];
        let t = m.thunks.get(usize::from(ip / THUNK_SIZE))?;
        // The SDK's spelling first (`GetMessage`), then the name the
        // import gave, then the built-in table's.
        let name = crate::loader::ordnames::ordinal_name(&m.name, t.ordinal)
            .map(str::to_string)
            .or_else(|| t.name.clone())
            .or_else(|| t.api.map(|a| a.sdk_name().to_string()))
            .unwrap_or_else(|| format!("#{}", t.ordinal));
        Some((name, ip % THUNK_SIZE))
    }

    /// The built-in function whose thunk starts at `cs:ip`: its module and
    /// ordinal (USER calls its own window procedures this way).
    pub fn thunk_target(&self, cs: u16, ip: u16) -> Option<(&str, u16)> {
        let m = &self.modules[*self.thunk_segments.get(&cs)?];
        if ip % THUNK_SIZE != 0 {
            return None;
        }
        let t = m.thunks.get(usize::from(ip / THUNK_SIZE))?;
        Some((m.name.as_str(), t.ordinal))
    }

    /// The system function whose thunk is at `cs:ip` exactly, if it is
    /// implemented (USER calls a window procedure that is one of its own
    /// functions directly, without emulating the thunk).
    pub fn api_at(&self, cs: u16, ip: u16) -> Option<&'static api::Api> {
        if ip % THUNK_SIZE != 0 {
            return None;
        }
        let m = &self.modules[*self.thunk_segments.get(&cs)?];
        m.thunks.get(usize::from(ip / THUNK_SIZE))?.api
    }

    /// Is `cs` a built-in module's thunk segment?
    pub fn is_thunk_segment(&self, cs: u16) -> bool {
        self.thunk_segments.contains_key(&cs)
    }

    /// The module whose hModule is `hmodule` (never for 0).
    pub fn module_by_handle(&self, hmodule: u16) -> Option<&Module> {
        self.modules
            .iter()
            .find(|m| m.hmodule == hmodule && hmodule != 0)
    }

    /// The module with this name, case-insensitively.
    pub fn module_by_name(&self, name: &str) -> Option<&Module> {
        self.modules
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(name))
    }

    /// The index in `modules` of the module that a handle names: its
    /// hModule, the hInstance of one of its tasks, or one of its segments
    /// (a DLL's hInstance is its data segment). A moveable block's handle
    /// (its selector minus 1) names the same block as the selector.
    pub fn module_for_handle(&self, h: u16) -> Option<usize> {
        if h == 0 {
            return None;
        }
        let sel = selector_of_handle(h);
        let module_of = |hmodule: u16| self.modules.iter().position(|m| m.hmodule == hmodule);
        module_of(sel)
            .or_else(|| {
                let t = self
                    .tasks
                    .iter()
                    .find(|t| t.hinstance == h || t.dgroup == sel)?;
                module_of(t.hmodule)
            })
            .or_else(|| self.modules.iter().position(|m| m.segments.contains(&sel)))
    }

    /// Forget module `idx` and free its memory: its segments and module
    /// database (FreeLibrary, kernel/library.rs). Built-in modules stay.
    pub fn remove_module(&mut self, uc: &mut Uc<'_>, idx: usize) {
        if idx >= self.modules.len() || self.modules[idx].builtin {
            return;
        }
        let m = self.modules.remove(idx);
        for &sel in m.segments.iter().chain([&m.hmodule]) {
            self.global.remove(sel);
            uc.get_data_mut().owners.remove(&sel);
            let _ = crate::machine::free_seg(uc, sel);
        }
        for v in self.thunk_segments.values_mut() {
            if *v > idx {
                *v -= 1;
            }
        }
    }

    /// The module owning a code or data selector, with its segment number.
    pub fn owner_of(&self, sel: u16) -> Option<(&Module, u16)> {
        self.modules.iter().find_map(|m| {
            m.segments
                .iter()
                .position(|&s| s == sel)
                .map(|i| (m, i as u16 + 1))
        })
    }
}

/// Where a system function was called from, while its thunk runs: the
/// return address (CS:IP) at SS:SP, and BP.
pub fn api_caller(uc: &Uc<'_>) -> (u16, u16, u16) {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let (cs, ip) = return_address(uc, ss, sp);
    (cs, ip, uc.reg(R::BP))
}

/// The far return address (CS, IP) at `ss:sp`; a word that cannot be read
/// reads as 0.
pub(crate) fn return_address(uc: &Uc<'_>, ss: u16, sp: u16) -> (u16, u16) {
    let mut b = [0u8; 4];
    if sp <= 0xFFFC && uc.read_seg(ss, sp, &mut b).is_ok() {
        return (
            u16::from_le_bytes([b[2], b[3]]),
            u16::from_le_bytes([b[0], b[1]]),
        );
    }
    // Near the end of the segment (or past its limit): word by word.
    let ip = uc.read_u16_at(ss, sp).unwrap_or(0);
    let cs = uc.read_u16_at(ss, sp.wrapping_add(2)).unwrap_or(0);
    (cs, ip)
}

/// Write code at `sel:off` from the host and drop any translation of the
/// bytes it replaces; false when the bytes cannot be written.
pub fn write_code(uc: &mut Uc<'_>, sel: u16, off: u16, code: &[u8]) -> bool {
    if uc.write_seg(sel, off, code).is_err() {
        return false;
    }
    if let Some(d) = uc.descriptor_of(sel) {
        let lin = u64::from(d.base) + u64::from(off);
        crate::machine::tlb::remove_cache(uc, lin, lin + code.len() as u64);
    }
    true
}
