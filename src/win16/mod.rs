//! The Win16 side: tasks, modules in emulated memory, the built-in system
//! DLLs and their thunks, and loading NE programs and DLLs into a
//! protected-mode machine.

pub mod api;
pub mod atom;
pub mod callback;
pub mod catalog;
pub mod code_names;
pub mod commctrl;
pub mod commdlg;
pub mod ddeml;
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

pub use kernel::{module, profile, system};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The whole environment as Win16's functions see it: the shared state
/// (`env::Env`), DOS's (below Win16: its services are Win16's to call)
/// and Win16's own.
pub type Env = crate::env::Env<crate::dos::Dos, Win16>;

/// What DOS asks of Win16 (dos::Upper): GDI's series of screenshots.
impl crate::dos::Upper for Win16 {
    fn next_shot_file(&self) -> Option<PathBuf> {
        self.gdi.shots.series.as_ref()?.next_file()
    }

    fn shot_failed(&self, error: String) {
        if let Some(s) = &self.gdi.shots.series {
            s.fail(error);
        }
    }
}
use crate::loader::ne::{FarPtr, NeImage, RelocTarget};
use crate::machine::{Cpu, MachineError, R, SegKind, Stop, Uc, alloc_seg, make_writable};
use crate::walk::CodeOwner;
use global::{GlobalArena, gt};
use tdb::{Tdb, module_db};

/// The software interrupt a thunk uses to call into Rust.
pub const API_INT: u8 = 0xF0;
/// Bytes per thunk: `int F0h; retf N` padded.
const THUNK_SIZE: u16 = 8;
/// Thunks per built-in module (the last slot is the callback return).
const THUNKS_PER_MODULE: u16 = 0x400;
/// Offset, in every built-in module's thunk segment, of the address a
/// callback from that module returns to (never executed: the nested run
/// ends there).
pub const CALLBACK_RETURN: u16 = (THUNKS_PER_MODULE - 1) * THUNK_SIZE;

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
    /// ([`thunk_for`]); None for an import with no Rust function.
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
    pub global: GlobalArena,
    /// TOOLHELP's NotifyRegister and InterruptRegister callbacks.
    pub toolhelp: toolhelp::Registrations,
    /// USER: classes, windows, the message queue.
    pub user: user::User,
    /// GDI: objects and drawing.
    pub gdi: gdi::Gdi,
    /// Local and global atom tables.
    pub atoms: atom::Atoms,
    /// WIN.INI and private initialization files.
    pub profiles: profile::Profiles,
    /// Handles of loaded icons, cursors, bitmaps, menus, accelerators.
    pub resources: resource::ResourceHandles,
    /// Local heaps by segment.
    pub local_heaps: local::LocalHeaps,
    /// USER's and GDI's heap segments (sysheap.rs).
    pub sys_heaps: sysheap::SysHeaps,
    /// MakeProcInstance thunks, the clock, the error mode.
    pub system: system::SystemState,
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
    /// ([`load_module`]).
    pub loading: Vec<Loading>,
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

/// How many distinct DLLs one chain of imports may pass through (each
/// module is loaded once, so a cycle ends at the first module met again;
/// this bounds only the loader's recursion).
const MAX_DLL_DEPTH: usize = 32;

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

/// Enter an existing segment in the global arena (global.rs, "Owners and
/// types").
#[allow(clippy::too_many_arguments)]
fn register(
    m: &Uc<'_>,
    w: &mut Win16,
    sel: u16,
    moveable: bool,
    owner: u16,
    pdb_owner: bool,
    kind: u16,
    segment: Option<u16>,
) {
    if let Some(b) = global::block_for(m, sel, moveable, owner, pdb_owner, kind, segment) {
        w.global.insert(b);
    }
}

/// Build a module database block: 'NE', the header copy, the segment table
/// with handles, the module name.
fn module_db_bytes(
    name: &str,
    ne_header: Option<&[u8]>,
    seg_entries: &[[u8; 8]],
    handles: &[u16],
    library: bool,
) -> Vec<u8> {
    let mut b = vec![0u8; usize::from(module_db::SEGMENT_TABLE)];
    if let Some(h) = ne_header {
        let n = h.len().min(b.len());
        b[..n].copy_from_slice(&h[..n]);
    }
    b[0] = b'N';
    b[1] = b'E';
    b[usize::from(module_db::USAGE)..][..2].copy_from_slice(&1u16.to_le_bytes());
    b[usize::from(module_db::NEXT)..][..2].copy_from_slice(&0u16.to_le_bytes());
    b[usize::from(module_db::SEGMENT_TABLE_PTR)..][..2]
        .copy_from_slice(&module_db::SEGMENT_TABLE.to_le_bytes());
    if library {
        b[0x0C] |= 0x00;
        b[0x0D] |= 0x80;
    }
    b[0x1C..0x1E].copy_from_slice(&(seg_entries.len() as u16).to_le_bytes());
    for (e, h) in seg_entries.iter().zip(handles) {
        b.extend_from_slice(e);
        b.extend_from_slice(&h.to_le_bytes());
    }
    let res = b.len() as u16;
    b[0x26..0x28].copy_from_slice(&res.to_le_bytes());
    let nm = name.as_bytes();
    b.push(nm.len().min(255) as u8);
    b.extend_from_slice(&nm[..nm.len().min(255)]);
    b.extend_from_slice(&[0, 0, 0]);
    b
}

/// Make sure built-in module `name` exists: a module database and a code
/// segment of thunks.
pub fn ensure_builtin(m: &mut Uc<'_>, w: &mut Win16, name: &str) -> Result<usize, Win16LoadError> {
    let upper = name.to_ascii_uppercase();
    if let Some(i) = w.modules.iter().position(|x| x.name == upper) {
        return Ok(i);
    }
    let hmodule = alloc_seg(
        m,
        SegKind::Data,
        0x100,
        &module_db_bytes(&upper, None, &[], &[], true),
    )?;
    let size = u32::from(THUNKS_PER_MODULE) * u32::from(THUNK_SIZE);
    let cs = alloc_seg(m, SegKind::Code, size, &[])?;
    make_writable(m, cs)?;
    // Rewrite the module database now that the segment handle is known.
    let entry = {
        let mut e = [0u8; 8];
        e[2..4].copy_from_slice(&(size as u16).to_le_bytes());
        e
    };
    let db = module_db_bytes(&upper, None, &[entry], &[cs], true);
    m.write_seg(hmodule, 0, &db)
        .map_err(|e| Win16LoadError(format!("module database: {e}")))?;
    m.get_data_mut().owners.insert(
        cs,
        CodeOwner {
            hmodule,
            segment: Some(1),
        },
    );
    register(m, w, hmodule, false, hmodule, false, gt::MODULE, None);
    register(m, w, cs, false, hmodule, false, gt::CODE, Some(1));
    w.modules.push(Module {
        name: upper,
        hmodule,
        segments: vec![cs],
        thunks: Vec::new(),
        exports: HashMap::new(),
        export_names: HashMap::new(),
        path: None,
        image: None,
        builtin: true,
    });
    let idx = w.modules.len() - 1;
    w.thunk_segments.insert(cs, idx);
    // GDI's data segment and heap, with the stock objects in it, exist
    // from GDI's start (gdi/heap.rs).
    if w.modules[idx].name == "GDI" {
        gdi::heap::start(m, w);
    }
    Ok(idx)
}

/// The far address of the thunk for `module.ordinal` (creating it). The
/// thunk segment is writable from its creation ([`ensure_builtin`]), so
/// this also works while the program runs (GetProcAddress).
pub fn thunk_for(
    m: &mut Uc<'_>,
    w: &mut Win16,
    idx: usize,
    ordinal: u16,
    name: Option<String>,
) -> Result<FarPtr, Win16LoadError> {
    let module = &w.modules[idx];
    if let Some(k) = module.thunks.iter().position(|t| t.ordinal == ordinal) {
        return Ok(FarPtr {
            selector: module.segments[0],
            offset: k as u16 * THUNK_SIZE,
        });
    }
    if module.thunks.len() >= usize::from(THUNKS_PER_MODULE - 1) {
        return Err(Win16LoadError(format!(
            "too many imports from {}",
            module.name
        )));
    }
    let k = module.thunks.len() as u16;
    let api = api::find(&module.name, ordinal);
    let pop = api.map(|a| a.arg_bytes()).unwrap_or(0);
    let mut code = [0x90u8; THUNK_SIZE as usize];
    code[0] = 0xCD;
    code[1] = API_INT;
    code[2] = 0xCA; // retf imm16
    code[3..5].copy_from_slice(&pop.to_le_bytes());
    let cs = module.segments[0];
    if !write_code(m, cs, k * THUNK_SIZE, &code) {
        return Err(Win16LoadError(format!(
            "thunk {cs:04X}:{:04X} cannot be written",
            k * THUNK_SIZE
        )));
    }
    let name = crate::loader::ordnames::ordinal_name(&w.modules[idx].name, ordinal)
        .map(str::to_string)
        .or(name)
        .or_else(|| api.map(|a| a.sdk_name().to_string()));
    let module = &mut w.modules[idx];
    module.thunks.push(Thunk {
        module: module.name.clone(),
        ordinal,
        name,
        api,
    });
    Ok(FarPtr {
        selector: cs,
        offset: k * THUNK_SIZE,
    })
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
fn return_address(uc: &Uc<'_>, ss: u16, sp: u16) -> (u16, u16) {
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

/// Called from the interrupt hook when a thunk runs.
pub fn call_api(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let cs = uc.reg(R::CS);
    let ip = uc.reg(R::IP).wrapping_sub(2);
    let Some(&idx) = env.win16.thunk_segments.get(&cs) else {
        return Err(crate::dos::unimplemented(uc, format!("INT {API_INT:02X}h")));
    };
    if ip == fault::FAULT_PASS_ON && env.win16.modules[idx].name == "TOOLHELP" {
        return fault::pass_on(env, uc);
    }
    let k = usize::from(ip / THUNK_SIZE);
    // The function was found when the thunk was made: no search here.
    let Some(found) = env.win16.modules[idx].thunks.get(k).map(|t| t.api) else {
        return Err(Stop::Error(format!(
            "a thunk at {cs:04X}:{ip:04X} that was never resolved ran"
        )));
    };
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let (ret_cs, ret_ip) = return_address(uc, ss, sp);
    let Some(api) = found else {
        let bp = uc.reg(R::BP);
        let thunk = &env.win16.modules[idx].thunks[k];
        // An import by a name the module does not know has no ordinal
        // (its thunk's number is made up): MODULE.NAME.
        let what = match (&thunk.name, thunk.ordinal >= UNKNOWN_NAME_ORDINAL) {
            (Some(n), true) => format!("{}.{n}", thunk.module),
            (Some(n), false) => format!("{}.{} {n}", thunk.module, thunk.ordinal),
            (None, _) => format!("{}.{}", thunk.module, thunk.ordinal),
        };
        let why = env
            .win16
            .absent
            .get(&env.win16.modules[idx].hmodule)
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        return Err(Stop::Unimplemented {
            what: format!("{what}{why}"),
            caller: (ret_cs, ret_ip, bp),
        });
    };
    // The arguments on this stack frame, without allocating (a function
    // declaring more than MAX_ARGS_INLINE gets a Vec).
    let mut inline = [0u32; api::MAX_ARGS_INLINE];
    let spilled;
    let args: &[u32] = match inline.get_mut(..api.args.len()) {
        Some(a) => {
            api.read_args_into(uc, ss, sp, a);
            a
        }
        None => {
            spilled = api.read_args(uc, ss, sp);
            &spilled
        }
    };
    env.win16.scheduler.switched = false;
    // GDI's hook: a call on a metafile DC is recorded instead
    // (gdi/mod.rs, before_call).
    let r = match gdi::before_call(env, uc, api, args)? {
        Some(r) => r,
        None => (api.func)(env, uc, args)?,
    };
    if api.module == "USER" {
        // The menus' blocks in USER's menu heap follow what the call did
        // (user/heap.rs).
        user::heap::sync_menus(env, uc);
    }
    let switched = std::mem::take(&mut env.win16.scheduler.switched);
    // The relay log: MODULE.NAME(args) -> DX:AX, from the caller's CS:IP;
    // only when asked for (`--events`): formatting every call is a cost
    // an unlogged run does not pay.
    if env.dos.log_calls {
        relay_log(uc, api, args, r, switched, (cs, ip), (ret_cs, ret_ip));
    }
    if switched {
        // The registers are now another task's; this task gets its result
        // when it resumes (scheduler.rs).
        if let Some(text) = env.win16.scheduler.switch_event.take() {
            crate::machine::record_event_at(uc, cs, ip.wrapping_add(2), text);
        }
        return Ok(());
    }
    uc.set_reg(R::AX, r as u16).map_err(|e| Stop::Error(e.0))?;
    uc.set_reg(R::DX, (r >> 16) as u16)
        .map_err(|e| Stop::Error(e.0))?;
    Ok(())
}

/// One line of the relay log (`--events`): `call MODULE.NAME(args) ->
/// DX:AX from CS:IP`, at the thunk that was called.
fn relay_log(
    uc: &mut Uc<'_>,
    api: &api::Api,
    args: &[u32],
    r: u32,
    switched: bool,
    (cs, ip): (u16, u16),
    (ret_cs, ret_ip): (u16, u16),
) {
    let shown: Vec<String> = args
        .iter()
        .zip(api.args)
        .map(|(v, a)| match a {
            api::Arg::W => format!("{v:04X}"),
            api::Arg::L => format!("{:04X}:{:04X}", v >> 16, v & 0xFFFF),
        })
        .collect();
    let result = if switched {
        "gives up the CPU".to_string()
    } else {
        format!("{:04X}:{:04X}", r >> 16, r & 0xFFFF)
    };
    crate::machine::record_event_at(
        uc,
        cs,
        ip.wrapping_add(2),
        format!(
            "call {}.{}({}) -> {result} from {ret_cs:04X}:{ret_ip:04X}",
            api.module,
            api.sdk_name(),
            shown.join(", "),
        ),
    );
}

/// A module whose imports are being loaded ([`load_module`]), and its
/// index in the module list once it has one.
#[derive(Debug, Clone)]
pub struct Loading {
    name: String,
    ne: Box<NeImage>,
    path: PathBuf,
    dgroup_extra: bool,
    idx: Option<usize>,
}

/// Load an NE module's segments, resolve its imports (built-ins, or DLLs
/// found as [`find_dll`] searches), apply relocations, and write its
/// module database. Returns the module's index.
///
/// The imported modules are loaded first, then the module's own database
/// and segments are made, then its relocations resolve against all of
/// them. A module that imports one still being loaded further up the
/// chain (two DLLs that import each other, or a DLL that imports the
/// program) references it instead of loading it again, as Windows 3.1's
/// loader did: the module being loaded is given its database, its
/// segments and its entry points at that moment ([`materialize`]), so the
/// relocations of each resolve once both have their segments. Each module
/// is loaded once whatever the cycles; the recursion is bounded by
/// [`MAX_DLL_DEPTH`] distinct modules in one import chain.
fn load_module(
    m: &mut Uc<'_>,
    w: &mut Win16,
    ne: &NeImage,
    path: &Path,
    dgroup_extra: bool,
    depth: usize,
) -> Result<usize, Win16LoadError> {
    let fname = path.display();
    let name = ne.module_name().unwrap_or("").to_ascii_uppercase();
    if depth > MAX_DLL_DEPTH {
        return Err(Win16LoadError(format!(
            "{fname}: a chain of more than {MAX_DLL_DEPTH} DLLs, each importing the next"
        )));
    }
    w.loading.push(Loading {
        name,
        ne: Box::new(ne.clone()),
        path: path.to_path_buf(),
        dgroup_extra,
        idx: None,
    });
    let result = finish_module(m, w, ne, path, depth);
    let done = w.loading.pop();
    match result {
        Ok(i) => Ok(i),
        Err(e) => {
            // Forget the half-loaded module (its memory too).
            let hmodule = done.and_then(|l| l.idx).map(|i| w.modules[i].hmodule);
            if let Some(i) = hmodule.and_then(|h| w.modules.iter().position(|x| x.hmodule == h)) {
                w.remove_module(m, i);
            }
            Err(e)
        }
    }
}

/// Give the module being loaded at `w.loading[pos]` its module database
/// placeholder, its segments (with their file data) and its entry points,
/// and enter it in the module list (once): its index there.
fn materialize(m: &mut Uc<'_>, w: &mut Win16, pos: usize) -> Result<usize, Win16LoadError> {
    if let Some(i) = w.loading[pos].idx {
        return Ok(i);
    }
    let l = w.loading[pos].clone();
    let ne = &l.ne;
    // Module database placeholder, then the segments. A self-loading
    // application's segments other than 1 are allocated by its own loader
    // (kernel/selfload.rs); their selectors stay 0 until it has run, and its
    // module database is the whole information block its loader reads.
    let self_loading = ne.is_self_loading();
    let db_size = if self_loading { 0x1_0000 } else { 0x1000 };
    let hmodule = alloc_seg(m, SegKind::Data, db_size, &[])?;
    let auto = ne.header.auto_data_segment;
    let mut sels = Vec::new();
    for seg in &ne.segments {
        if self_loading && seg.number != 1 {
            sels.push(0);
            continue;
        }
        let mut size = seg.alloc_size();
        if l.dgroup_extra && seg.number == auto {
            size += u32::from(ne.header.heap_size) + u32::from(ne.header.stack_size);
        }
        // win16.md: rounded up only to the global heap's granularity.
        let size = size.div_ceil(32).saturating_mul(32).clamp(32, 0x1_0000);
        let kind = if seg.is_data() {
            SegKind::Data
        } else {
            SegKind::Code
        };
        let take = seg.data.len().min(size as usize);
        sels.push(alloc_seg(m, kind, size, &seg.data[..take])?);
    }
    let mut module = Module {
        name: l.name.clone(),
        hmodule,
        segments: sels.clone(),
        thunks: Vec::new(),
        exports: HashMap::new(),
        export_names: HashMap::new(),
        path: Some(l.path.clone()),
        image: Some(l.ne.clone()),
        builtin: false,
    };
    for e in &ne.entries {
        if e.segment == 0xFE || e.segment == 0 {
            continue;
        }
        if let Some(&sel) = sels.get(usize::from(e.segment) - 1).filter(|&&s| s != 0) {
            module.exports.insert(
                e.ordinal,
                FarPtr {
                    selector: sel,
                    offset: e.offset,
                },
            );
        }
    }
    for (n, ord) in ne
        .resident_names
        .iter()
        .skip(1)
        .chain(ne.nonresident_names.iter().skip(1))
    {
        module.export_names.insert(n.to_ascii_uppercase(), *ord);
    }
    w.modules.push(module);
    let idx = w.modules.len() - 1;
    w.loading[pos].idx = Some(idx);
    Ok(idx)
}

/// The work of [`load_module`] for the module last pushed on
/// `w.loading`: its imports, its segments, its relocations, its module
/// database. Its index in the module list.
fn finish_module(
    m: &mut Uc<'_>,
    w: &mut Win16,
    ne: &NeImage,
    path: &Path,
    depth: usize,
) -> Result<usize, Win16LoadError> {
    let fname = path.display();
    // Imported modules first, as Windows loads them before the importer's
    // segments; one already in the list is referenced, and one being
    // loaded further up this chain is given its segments and referenced.
    let mut ref_index = Vec::new();
    for r in &ne.module_refs {
        let upper = r.to_ascii_uppercase();
        let idx = if let Some(i) = w.modules.iter().position(|x| x.name == upper) {
            i
        } else if let Some(pos) = w.loading.iter().position(|l| l.name == upper) {
            materialize(m, w, pos)?
        } else if search::is_core(&upper) {
            ensure_builtin(m, w, &upper)?
        } else {
            // A file of the name first, even for a system DLL this tool
            // provides (search.rs: a program's own VER.DLL is loaded).
            match find_dll(w, path, &upper) {
                Ok(dll) => load_dll(m, w, &dll, depth + 1)?,
                Err(_) if BUILTIN_MODULES.contains(&upper.as_str()) => {
                    ensure_builtin(m, w, &upper)?
                }
                Err(looked) => ensure_absent(m, w, &upper, looked)?,
            }
        };
        ref_index.push(idx);
    }
    let own = materialize(m, w, w.loading.len() - 1)?;
    let name = w.modules[own].name.clone();
    let hmodule = w.modules[own].hmodule;
    let sels = w.modules[own].segments.clone();
    let exports = w.modules[own].exports.clone();
    // Relocations, then the prologues of exported functions as Windows
    // patched them (prologue.rs), one read and one write a segment.
    let patch = if ne.header.is_library() {
        sels.get(usize::from(ne.header.auto_data_segment).wrapping_sub(1))
            .filter(|&&dgroup| dgroup != 0)
            .map(|&dgroup| prologue::Patch::Library(dgroup))
    } else {
        Some(prologue::Patch::Program)
    };
    for (i, seg) in ne.segments.iter().enumerate() {
        let sel = sels[i];
        let patch_here = patch.filter(|_| {
            !seg.is_data() && ne.entries.iter().any(|e| usize::from(e.segment) == i + 1)
        });
        // A segment of 0 is not loaded yet: the application's own loader
        // brings it.
        if sel == 0 || (seg.relocs.is_empty() && patch_here.is_none()) {
            continue;
        }
        let d = m
            .descriptor_of(sel)
            .ok_or_else(|| Win16LoadError("segment vanished".into()))?;
        let mut data = vec![0u8; d.limit as usize + 1];
        m.read_seg(sel, 0, &mut data)
            .map_err(|e| Win16LoadError(e.to_string()))?;
        let mut changed = false;
        if !seg.relocs.is_empty() {
            let mut resolve =
                |t: &RelocTarget| resolve_target(m, w, &sels, &exports, &ref_index, t);
            crate::loader::ne::apply_segment_relocations(&mut data, seg, &mut resolve)
                .map_err(|e| Win16LoadError(format!("{fname}: segment {}: {e}", seg.number)))?;
            // Floating-point fixups, as Windows applies them with a
            // coprocessor present (win87em.rs).
            win87em::apply_os_fixups(&mut data, &seg.relocs);
            changed = true;
        }
        if let Some(p) = patch_here {
            changed |= prologue::patch_segment(&mut data, seg.number, &ne.entries, p) > 0;
        }
        if !changed {
            continue;
        }
        if !seg.is_data() {
            make_writable(m, sel)?;
        }
        m.write_seg(sel, 0, &data)
            .map_err(|e| Win16LoadError(e.to_string()))?;
    }
    // The module database, with each segment's handle.
    let entries: Vec<[u8; 8]> = ne
        .segments
        .iter()
        .map(|s| {
            let mut e = [0u8; 8];
            e[0..2].copy_from_slice(&s.sector.to_le_bytes());
            e[2..4].copy_from_slice(&s.length_raw.to_le_bytes());
            e[4..6].copy_from_slice(&s.flags.to_le_bytes());
            e[6..8].copy_from_slice(&s.min_alloc_raw.to_le_bytes());
            e
        })
        .collect();
    let handles: Vec<u16> = ne
        .segments
        .iter()
        .zip(&sels)
        .map(|(s, &sel)| {
            if s.flags & 0x0010 != 0 && sel != 0 {
                sel - 1
            } else {
                sel
            }
        })
        .collect();
    let mut db = module_db_bytes(&name, None, &entries, &handles, ne.header.is_library());
    if ne.is_self_loading() {
        let refs: Vec<u16> = ref_index.iter().map(|&i| w.modules[i].hmodule).collect();
        db = kernel::selfload::info_block(ne, &name, &entries, &handles, &refs);
    }
    let db = &db[..db.len().min(if ne.is_self_loading() {
        0x1_0000
    } else {
        0x1000
    })];
    m.write_seg(hmodule, 0, db)
        .map_err(|e| Win16LoadError(format!("module database: {e}")))?;
    register(m, w, hmodule, false, hmodule, false, gt::MODULE, None);
    register_segments(m, w, ne, hmodule, &sels);
    Ok(own)
}

/// Enter a module's segments in the global arena (owned by its module,
/// typed code, DGROUP or data, with their segment numbers) and mark its
/// code segments as its own for the walk. Selectors 0 (not loaded) are
/// skipped.
pub(crate) fn register_segments(
    m: &mut Uc<'_>,
    w: &mut Win16,
    ne: &NeImage,
    hmodule: u16,
    sels: &[u16],
) {
    let auto = ne.header.auto_data_segment;
    for (seg, &sel) in ne.segments.iter().zip(sels) {
        if sel == 0 {
            continue;
        }
        let kind = if !seg.is_data() {
            gt::CODE
        } else if seg.number == auto {
            gt::DGROUP
        } else {
            gt::DATA
        };
        let moveable = seg.flags & 0x0010 != 0;
        register(m, w, sel, moveable, hmodule, false, kind, Some(seg.number));
        if !seg.is_data() {
            m.get_data_mut().owners.insert(
                sel,
                CodeOwner {
                    hmodule,
                    segment: Some(seg.number),
                },
            );
        }
    }
}

/// Where a relocation's target lies, for a module whose segments are
/// `sels`, with exported entries `exports` and module references resolved
/// to `ref_index` (indices in `w.modules`).
fn resolve_target(
    m: &mut Uc<'_>,
    w: &mut Win16,
    sels: &[u16],
    exports: &HashMap<u16, FarPtr>,
    ref_index: &[usize],
    t: &RelocTarget,
) -> Result<FarPtr, String> {
    match t {
        RelocTarget::Internal { segment, offset } => sels
            .get(usize::from(*segment).wrapping_sub(1))
            .filter(|&&s| s != 0)
            .map(|&s| FarPtr {
                selector: s,
                offset: *offset,
            })
            .ok_or_else(|| {
                if usize::from(*segment) <= sels.len() {
                    format!(
                        "segment {segment} is loaded by the application's own loader \
                         (the loader's segment 1 may only refer to itself)"
                    )
                } else {
                    format!("segment {segment} does not exist")
                }
            }),
        RelocTarget::InternalMovable { ordinal } => exports
            .get(ordinal)
            .copied()
            .ok_or_else(|| format!("entry @{ordinal} does not exist")),
        RelocTarget::ImportOrdinal {
            module: mi,
            ordinal,
        } => {
            let idx = *ref_index
                .get(usize::from(*mi).wrapping_sub(1))
                .ok_or_else(|| format!("module reference {mi} does not exist"))?;
            import(m, w, idx, *ordinal, None)
        }
        RelocTarget::ImportName { module: mi, name } => {
            let idx = *ref_index
                .get(usize::from(*mi).wrapping_sub(1))
                .ok_or_else(|| format!("module reference {mi} does not exist"))?;
            let target = &w.modules[idx];
            let ord = if target.builtin {
                crate::loader::ordnames::ordinal_of(&target.name, name)
            } else {
                target.export_names.get(&name.to_ascii_uppercase()).copied()
            };
            match ord {
                Some(o) => import(m, w, idx, o, Some(name.clone())),
                None if target.builtin => {
                    // An unknown name still resolves: to a thunk that
                    // reports it when called.
                    let fake = UNKNOWN_NAME_ORDINAL + w.modules[idx].thunks.len() as u16;
                    import(m, w, idx, fake, Some(name.clone()))
                }
                None => Err(format!("{} does not export {name}", target.name)),
            }
        }
        RelocTarget::OsFixup { .. } => Ok(FarPtr {
            selector: 0,
            offset: 0,
        }),
    }
}

/// The far address an import of `ordinal` from module `idx` resolves to:
/// a built-in module's thunk (or its absolute value, as offset and
/// selector both), a loaded module's entry point.
pub(crate) fn import(
    m: &mut Uc<'_>,
    w: &mut Win16,
    idx: usize,
    ordinal: u16,
    name: Option<String>,
) -> Result<FarPtr, String> {
    if w.modules[idx].builtin {
        let module = w.modules[idx].name.clone();
        if let Some(v) = kernel::selector::absolute_export(m, w, &module, ordinal) {
            // A value: an offset fixup and a selector fixup both get it.
            return Ok(FarPtr {
                selector: v,
                offset: v,
            });
        }
        thunk_for(m, w, idx, ordinal, name).map_err(|e| e.0)
    } else {
        w.modules[idx]
            .exports
            .get(&ordinal)
            .copied()
            .ok_or_else(|| format!("{} has no entry point @{ordinal}", w.modules[idx].name))
    }
}

/// Find the DLL `name` (`NAME.DLL` in any case) imported by `importer`,
/// in Windows 3.1's order ([`search`]); the file, or the text of where it
/// was looked for.
pub fn find_dll(w: &Win16, importer: &Path, name: &str) -> Result<PathBuf, String> {
    search::find(&w.dll_search, importer, &format!("{name}.DLL"))
        .map_err(|e| format!("not built in, and {e}"))
}

/// Thunks of a module's imports by a name it does not know count from
/// here (they have no ordinal).
pub const UNKNOWN_NAME_ORDINAL: u16 = 0x8000;

/// Make the absent module `name` (see [`Module::absent`]): a module
/// database and a thunk segment, like a built-in module's.
fn ensure_absent(
    m: &mut Uc<'_>,
    w: &mut Win16,
    name: &str,
    looked: String,
) -> Result<usize, Win16LoadError> {
    let idx = ensure_builtin(m, w, name)?;
    w.absent.insert(
        w.modules[idx].hmodule,
        format!("{name} is absent: {looked}"),
    );
    Ok(idx)
}

/// Load the DLL file `dll` as a library module.
pub fn load_dll(
    m: &mut Uc<'_>,
    w: &mut Win16,
    dll: &Path,
    depth: usize,
) -> Result<usize, Win16LoadError> {
    let bytes = crate::loader::read_capped(dll, crate::loader::MAX_EXECUTABLE_BYTES, "a DLL")
        .map_err(Win16LoadError)?;
    let ne =
        NeImage::parse(&bytes).map_err(|e| Win16LoadError(format!("{}: {e}", dll.display())))?;
    ne.check_runnable(false)
        .map_err(|e| Win16LoadError(format!("{}: {e}", dll.display())))?;
    if ne.is_self_loading() {
        return Err(Win16LoadError(format!(
            "{}: offset {:#X} (ne_flags): a self-loading library (flags {:#06X} has bit \
             0x0800); Windows 3.1 ran the loader of self-loading applications, and this one is \
             a library",
            dll.display(),
            ne.header.file_offset + 0x0C,
            ne.header.flags
        )));
    }
    let idx = load_module(m, w, &ne, dll, true, depth)?;
    // Its LibEntry runs before the program's first instruction
    // (kernel/library.rs).
    w.kernel.libraries.loaded(&w.modules[idx]);
    Ok(idx)
}

/// Where each module a program imports comes from, as `info` shows it:
/// built in, a DLL file (found as the loader would find it, beside the
/// program or in `dirs`), or absent (with where it was looked for).
pub fn import_sources(program: &Path, imports: &[String], dirs: &[PathBuf]) -> Vec<ImportSource> {
    let dll_search = match dirs.first().map(|d| crate::dos::fs::Drive::new(d.clone())) {
        Some(Ok(drive)) => {
            search::DllSearch::for_drive(&drive, &crate::dos::default_environment(), program)
        }
        _ => search::DllSearch {
            program_dir: Some(crate::loader::directory_of(program)),
            path: dirs.to_vec(),
            ..Default::default()
        },
    };
    let w = Win16 {
        dll_search,
        ..Win16::default()
    };
    imports
        .iter()
        .map(|name| {
            let upper = name.to_ascii_uppercase();
            let builtin = BUILTIN_MODULES.contains(&upper.as_str());
            if search::is_core(&upper) {
                return ImportSource::BuiltIn;
            }
            match find_dll(&w, program, &upper) {
                Ok(p) => ImportSource::Dll(p),
                Err(_) if builtin => ImportSource::BuiltIn,
                Err(why) => ImportSource::Absent(why),
            }
        })
        .collect()
}

/// Where an imported module comes from ([`import_sources`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportSource {
    BuiltIn,
    Dll(PathBuf),
    Absent(String),
}

/// Load an NE program as a new task, ready to run at its entry point with
/// the start registers of win16.md ("How a Win16 task starts"). The task is
/// suspended until the scheduler picks it; [`start_task`] runs the first
/// one.
pub fn load_program(
    m: &mut Uc<'_>,
    env: &mut Env,
    ne: &NeImage,
    path: &Path,
    tail: &str,
    cmd_show: u16,
) -> Result<u16, Win16LoadError> {
    let fname = path.display();
    ne.check_runnable(true)
        .map_err(|e| Win16LoadError(format!("{fname}: {e}")))?;
    let h = &ne.header;
    env.win16.dll_search = match &env.drive {
        Some(d) => {
            let vars = if env.win16.environment.is_empty() {
                crate::dos::default_environment()
            } else {
                env.win16.environment.clone()
            };
            search::DllSearch::for_drive(d, &vars, path)
        }
        None => search::DllSearch {
            program_dir: Some(crate::loader::directory_of(path)),
            ..Default::default()
        },
    };
    // A second instance shares the running one's module and gets a
    // DGROUP of its own.
    let (idx, own_dgroup) = match new_instance(m, &mut env.win16, ne)? {
        Some((i, sel)) => (i, Some(sel)),
        None => (load_module(m, &mut env.win16, ne, path, true, 0)?, None),
    };
    if own_dgroup.is_none() && ne.is_self_loading() {
        kernel::selfload::boot(m, env, idx, path)?;
    }
    let module = env.win16.modules[idx].clone();
    let auto = h.auto_data_segment;
    let seg_sel = |n: u16| match own_dgroup {
        Some(sel) if n == auto && n != 0 => Some(sel),
        _ => module.segments.get(usize::from(n).wrapping_sub(1)).copied(),
    };
    // A header field whose segment cannot serve: a load error naming the
    // field and its file offset (the NE header's own offsets, win16.md).
    let field = |off: u64, name: &str, what: String| {
        Win16LoadError(format!(
            "{fname}: NE header field {name} (offset {:X}h): {what}",
            h.file_offset + off
        ))
    };
    let count = ne.segments.len();
    let dgroup = seg_sel(h.auto_data_segment);
    let cs = match (ne.segment(h.cs), seg_sel(h.cs)) {
        (Some(s), _) if s.is_data() => {
            return Err(field(
                0x14,
                "CS:IP",
                format!(
                    "CS is segment {}, a data segment; the entry point must lie in a code segment",
                    h.cs
                ),
            ));
        }
        (Some(_), Some(sel)) => sel,
        _ => {
            return Err(field(
                0x14,
                "CS:IP",
                format!(
                    "CS is segment {}, and the module has {count} segment(s)",
                    h.cs
                ),
            ));
        }
    };
    if h.ss != 0 && ne.segment(h.ss).is_none() {
        return Err(field(
            0x18,
            "SS:SP",
            format!(
                "SS is segment {}, and the module has {count} segment(s)",
                h.ss
            ),
        ));
    }
    if ne.segment(h.ss).is_some_and(|s| !s.is_data()) {
        return Err(field(
            0x18,
            "SS:SP",
            format!(
                "SS is segment {}, a code segment; the stack must lie in a data segment",
                h.ss
            ),
        ));
    }
    let ss = seg_sel(h.ss).or(dgroup).ok_or_else(|| {
        field(
            0x18,
            "SS:SP",
            "SS is 0 and there is no automatic data segment (field at offset 0Eh) to hold the stack"
                .into(),
        )
    })?;
    let dgroup = dgroup.unwrap_or(ss);
    // win16.md: DGROUP = data, then the local heap, then the stack; a zero SP
    // in the header means the top of that.
    let sp = if h.sp != 0 {
        h.sp
    } else {
        let seg = ne.segment(h.ss).or_else(|| ne.segment(h.auto_data_segment));
        let base = seg.map(|s| s.alloc_size()).unwrap_or(0);
        let top = base + u32::from(h.heap_size) + u32::from(h.stack_size);
        (top.min(0xFFFE) & !1) as u16
    };
    // The task starts with a switch frame below SP (scheduler.rs): SP must
    // lie inside the stack segment, with room for it.
    let limit = m.descriptor_of(ss).map_or(0, |d| d.limit);
    if u32::from(sp) > limit + 1 || sp < tdb::SwitchFrame::SIZE {
        return Err(field(
            0x18,
            "SS:SP",
            format!(
                "SP {sp:04X} is not a place for the stack: the stack segment is {:X}h bytes, and \
                 SP must lie within it and be at least {:X}h",
                limit + 1,
                tdb::SwitchFrame::SIZE
            ),
        ));
    }
    let dflags = ne
        .segment(h.auto_data_segment)
        .map(|s| s.flags)
        .unwrap_or(0);
    let hinstance = if dflags & 0x0010 != 0 {
        dgroup - 1
    } else {
        dgroup
    };
    // hPrevInstance: the latest instance of the same module still running
    // (SDK, WinMain), 0 for the first.
    let hprev = env
        .win16
        .tasks
        .iter()
        .rev()
        .find(|t| t.hmodule == module.hmodule)
        .map(|t| t.hinstance)
        .unwrap_or(0);
    // The environment block, then the PSP pointing at it.
    let vars = crate::win16::kernel::task::environment(env);
    let block =
        crate::dos::environment_block(&vars, &module::dos_path(env, Some(path), &module.name));
    let env_sel = alloc_seg(
        m,
        SegKind::Data,
        (block.len() as u32).div_ceil(16) * 16,
        &block,
    )?;
    let mut psp_bytes = crate::dos::make_psp(0, tail);
    psp_bytes[0x2C..0x2E].copy_from_slice(&env_sel.to_le_bytes());
    // One block: the TDB, then at TDB+100h the PSP, which its own
    // selector reaches (tdb.rs, "The PSP").
    let mut task_bytes = vec![0u8; tdb::TDB_SIZE];
    task_bytes.extend_from_slice(&psp_bytes);
    let htask = alloc_seg(m, SegKind::Data, task_bytes.len() as u32, &task_bytes)?;
    let psp = {
        let base = m
            .descriptor_of(htask)
            .ok_or_else(|| Win16LoadError("the TDB has no descriptor".into()))?
            .base;
        crate::machine::alloc_alias(
            m,
            crate::walk::Descriptor {
                base: base + tdb::PSP_OFFSET as u32,
                limit: 0xFF,
                access: crate::walk::Descriptor::DATA_R3,
            },
        )
        .map_err(|e| Win16LoadError(format!("PSP: {e}")))?
    };
    let tdb = Tdb {
        next: env.win16.tasks.last().map(|t| t.htask).unwrap_or(0),
        sp: 0,
        ss: 0,
        events: 0,
        hinstance,
        hmodule: module.hmodule,
        hqueue: 0,
        hparent: 0,
        hpdb: psp,
        module_name: module.name.clone(),
    };
    m.write_seg(htask, 0, &tdb.to_bytes())
        .map_err(|e| Win16LoadError(format!("TDB: {e}")))?;
    let w = &mut env.win16;
    register(m, w, psp, false, psp, true, gt::UNKNOWN, None);
    register(m, w, htask, false, module.hmodule, false, gt::TASK, None);
    // The TDB's block ends where the PSP's begins: two blocks side by
    // side, as GlobalEntryHandle shows each.
    if let Some(b) = w.global.find_mut(htask) {
        b.size = tdb::TDB_SIZE as u32;
    }
    let proc_thunks = module::alloc_thunk_segment(m)?;
    // KERNEL, USER and GDI are always there on Windows, imported or not
    // (GetModuleHandle, GetProcAddress).
    for name in ["KERNEL", "USER", "GDI"] {
        ensure_builtin(m, &mut env.win16, name)?;
    }
    // USER's predefined window classes (BUTTON, EDIT, ... and dialogs).
    user::controls::register_system_classes(m, &mut env.win16)?;
    env.win16.tasks.push(Task {
        htask,
        hmodule: module.hmodule,
        hinstance,
        hprev,
        psp,
        dgroup,
        stack_size: h.stack_size,
        heap_size: h.heap_size,
        start_sp: sp,
        start_cs: cs,
        start_ip: h.ip,
        env_sel,
        proc_thunks,
        cmd_show,
    });
    // The start registers (win16.md, "How a Win16 task starts"); the task
    // runs when the scheduler first picks it.
    let start = crate::machine::Regs {
        ss,
        sp,
        ds: dgroup,
        es: psp,
        bx: h.stack_size,
        cx: h.heap_size,
        di: hinstance,
        si: hprev,
        cs,
        ip: h.ip,
        flags: 0x0202,
        ..Default::default()
    };
    scheduler::add_new_task(env, m, htask, start)
        .map_err(|e| Win16LoadError(format!("{fname}: {}", stop_text(&e))))?;
    Ok(htask)
}

/// A second instance of a program that is running (Windows 3.1 shared the
/// module among its instances: code, resources, window classes; each
/// instance has its own automatic data segment, loaded from the file and
/// relocated afresh, its references to DGROUP naming the new one). The
/// module's index and the new DGROUP's selector; None when no task runs
/// a module of that name, or the module does not have one DGROUP per
/// instance (NE flags bits 0-1 = 2).
fn new_instance(
    m: &mut Uc<'_>,
    w: &mut Win16,
    ne: &NeImage,
) -> Result<Option<(usize, u16)>, Win16LoadError> {
    let name = ne.module_name().unwrap_or("").to_ascii_uppercase();
    let Some(idx) = w
        .modules
        .iter()
        .position(|x| x.name == name && !x.builtin && x.image.is_some())
    else {
        return Ok(None);
    };
    let hmodule = w.modules[idx].hmodule;
    if ne.header.flags & 3 != 2 || !w.tasks.iter().any(|t| t.hmodule == hmodule) {
        return Ok(None);
    }
    let auto = ne.header.auto_data_segment;
    let Some(seg) = ne.segment(auto) else {
        return Ok(None);
    };
    if w.modules[idx].segments.len() != ne.segments.len() {
        return Ok(None);
    }
    // Every module it imports is loaded already, by the first instance.
    let Some(ref_index) = ne
        .module_refs
        .iter()
        .map(|r| {
            let upper = r.to_ascii_uppercase();
            w.modules.iter().position(|x| x.name == upper)
        })
        .collect::<Option<Vec<usize>>>()
    else {
        return Ok(None);
    };
    // As load_module sizes it: data, local heap, stack.
    let size = seg.alloc_size() + u32::from(ne.header.heap_size) + u32::from(ne.header.stack_size);
    let size = size.div_ceil(32).saturating_mul(32).clamp(32, 0x1_0000);
    let take = seg.data.len().min(size as usize);
    let sel = alloc_seg(m, SegKind::Data, size, &seg.data[..take])?;
    let mut sels = w.modules[idx].segments.clone();
    sels[usize::from(auto) - 1] = sel;
    if !seg.relocs.is_empty() {
        let mut data = vec![0u8; size as usize];
        m.read_seg(sel, 0, &mut data)
            .map_err(|e| Win16LoadError(e.to_string()))?;
        let exports = w.modules[idx].exports.clone();
        let mut resolve = |t: &RelocTarget| resolve_target(m, w, &sels, &exports, &ref_index, t);
        crate::loader::ne::apply_segment_relocations(&mut data, seg, &mut resolve)
            .map_err(|e| Win16LoadError(format!("{name}: segment {}: {e}", seg.number)))?;
        win87em::apply_os_fixups(&mut data, &seg.relocs);
        m.write_seg(sel, 0, &data)
            .map_err(|e| Win16LoadError(e.to_string()))?;
    }
    let moveable = seg.flags & 0x0010 != 0;
    register(m, w, sel, moveable, hmodule, false, gt::DGROUP, Some(auto));
    // The module's usage count (+02) counts its instances.
    let usage = m.read_u16_at(hmodule, tdb::module_db::USAGE).unwrap_or(0);
    let _ = m.write_u16_at(hmodule, tdb::module_db::USAGE, usage.saturating_add(1));
    Ok(Some((idx, sel)))
}

/// A stop met while loading, as words for a load error.
/// A stop met while loading, as words for a load error.
pub(crate) fn stop_text(stop: &Stop) -> String {
    match stop {
        Stop::Error(t) => t.clone(),
        Stop::Fault(f) => format!(
            "{} (exception {}): {}",
            crate::machine::fault_name(f.number),
            f.number,
            f.detail
        ),
        Stop::Unimplemented { what, .. } => format!("{what} is not implemented"),
        Stop::Fatal { what, .. } => format!("a fatal error: {what}"),
        other => format!("the start stopped: {}", other.kind()),
    }
}

/// Make the loaded, never-run task `htask` the running one (the first task
/// of a run).
pub fn start_task(m: &mut Uc<'_>, env: &mut Env, htask: u16) -> Result<(), Win16LoadError> {
    scheduler::resume(env, m, htask).map_err(|e| Win16LoadError(stop_text(&e)))
}

/// Test support: a machine with a real program loaded.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::machine::Machine;

    /// roms/kernsvc.exe loaded as a task (not started): the machine, its
    /// environment (not installed in the machine: tests call system
    /// functions directly) and hTask.
    pub fn kernsvc() -> (Machine, Env, u16) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("roms/kernsvc.exe");
        let ne = NeImage::parse(&std::fs::read(&path).unwrap()).unwrap();
        let mut m = Machine::new_protected().unwrap();
        let mut env = Env::new(false);
        let htask = load_program(&mut m, &mut env, &ne, &path, "", 1).unwrap();
        start_task(&mut m, &mut env, htask).unwrap();
        (m, env, htask)
    }
}
