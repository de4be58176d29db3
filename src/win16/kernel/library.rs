//! KERNEL's libraries: LoadLibrary, FreeLibrary, LoadModule, FreeModule,
//! and the two calls Windows makes into a DLL itself, its LibEntry when it
//! is loaded and its WEP when it is freed.
//!
//! # LibEntry
//!
//! A DLL's entry point (the NE header's CS:IP) is its LibEntry. Windows
//! 3.1 calls it once, when the library is loaded, with (Windows 3.1 SDK,
//! "Dynamic-Link Libraries", the LibEntry routine):
//!
//! - DI = the library's instance handle (its data segment's handle, or
//!   its module handle when it has no data segment);
//! - DS = its data segment;
//! - CX = the heap size from its NE header;
//! - ES:SI = the command line (here the loading task's command tail, PSP
//!   offset 81h).
//!
//! LibEntry returns AX nonzero when the library initialized, 0 when it
//! refused to load. A DLL loaded with a program (an import) is initialized
//! before the program's first instruction: here, when the program's
//! InitTask runs (kernel/mod.rs), on the task's stack, deepest import
//! first. A library LoadLibrary loads is initialized before LoadLibrary
//! returns.
//!
//! The call goes through a small stub in a KERNEL code segment that sets
//! DI, CX, SI and ES and jumps to LibEntry, so the entry's return address
//! is KERNEL's callback return (callback.rs): a walk from inside LibEntry
//! climbs through KERNEL into the code that loaded the library.
//!
//! # Usage and WEP
//!
//! A library's module database keeps its usage count (tdb.rs,
//! `module_db::USAGE`): 1 when it is loaded, one more for each
//! LoadLibrary of a library already loaded, one less for each
//! FreeLibrary. When it reaches 0, Windows calls the library's exported
//! `WEP(WEP_FREE_DLL)` (if it has one) and frees the library: its
//! segments and module database go away and its handles are invalid.
//!
//! # Results
//!
//! LoadLibrary and LoadModule return an instance handle (32 or more), or
//! one of Windows 3.1's load errors: 2 file not found, 5 an attempt to
//! link to a task, 11 not a valid Windows executable, 20 a DLL that did
//! not initialize (its LibEntry returned 0).

use std::path::PathBuf;

use crate::machine::{Cpu, R, SegKind, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{self, CallArg};
use crate::win16::farptr::{self, MAX_STRING};
use crate::win16::search::DllSearch;
use crate::win16::tdb::module_db;
use crate::win16::{Module, Win16LoadError, write_code};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 45, "LOADMODULE", &[Arg::L, Arg::L], load_module),
    Api::new("KERNEL", 46, "FREEMODULE", &[Arg::W], free_module),
    Api::new("KERNEL", 95, "LOADLIBRARY", &[Arg::L], load_library),
    Api::new("KERNEL", 96, "FREELIBRARY", &[Arg::W], free_library),
];

/// File not found.
pub const ERROR_FILE_NOT_FOUND: u32 = 2;
/// An attempt to link to a task (LoadLibrary of a program).
pub const ERROR_TASK: u32 = 5;
/// Not a valid Windows executable.
pub const ERROR_BAD_FORMAT: u32 = 11;
/// A library that did not initialize.
pub const ERROR_DLL_INIT: u32 = 20;

/// WEP's argument when a library is freed (Windows 3.1 SDK, WEP).
pub const WEP_FREE_DLL: u16 = 0;

/// Libraries' state for the run.
#[derive(Clone, Debug, Default)]
pub struct Libraries {
    /// hModules of DLLs whose LibEntry is still due, in load order.
    pending: Vec<u16>,
    /// The code segment of the LibEntry stub (module notes).
    stub: Option<u16>,
}

impl Libraries {
    /// A DLL was loaded from disk: its LibEntry is due, if it has one.
    pub fn loaded(&mut self, m: &Module) {
        let has_entry = m.image.as_ref().is_some_and(|ne| ne.header.cs != 0);
        if !m.builtin && has_entry {
            self.pending.push(m.hmodule);
        }
    }

    /// LibEntry calls still due.
    pub fn pending(&self) -> &[u16] {
        &self.pending
    }
}

/// A library's instance handle and data segment: its automatic data
/// segment's handle and selector, or its module handle (and the caller's
/// DS) when it has none.
pub fn instance_of(m: &Module, fallback_ds: u16) -> (u16, u16) {
    let Some(ne) = m.image.as_ref() else {
        return (m.hmodule, fallback_ds);
    };
    let auto = ne.header.auto_data_segment;
    match (
        ne.segment(auto),
        m.segments.get(usize::from(auto).wrapping_sub(1)),
    ) {
        (Some(seg), Some(&sel)) => {
            let h = if seg.flags & 0x0010 != 0 {
                sel - 1
            } else {
                sel
            };
            (h, sel)
        }
        _ => (m.hmodule, fallback_ds),
    }
}

/// Run every LibEntry that is due (module notes); a library whose LibEntry
/// returns 0 stops the run with a fatal error naming it, as Windows 3.1
/// refused to start the program.
pub fn run_pending(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    while !env.win16.kernel.libraries.pending.is_empty() {
        let hmodule = env.win16.kernel.libraries.pending.remove(0);
        let Some(idx) = env.win16.modules.iter().position(|m| m.hmodule == hmodule) else {
            continue;
        };
        if !lib_entry(env, uc, idx)? {
            let name = env.win16.modules[idx].name.clone();
            return Err(Stop::Fatal {
                what: format!("the LibEntry of {name} returned 0: the library did not initialize"),
                caller: crate::win16::api_caller(uc),
            });
        }
    }
    Ok(())
}

/// The stub segment (module notes), made on first use.
fn stub_segment(env: &mut Env, uc: &mut Uc<'_>) -> Result<u16, Stop> {
    if let Some(s) = env.win16.kernel.libraries.stub {
        return Ok(s);
    }
    let sel = crate::machine::alloc_seg(uc, SegKind::Code, 32, &[0xCC; 32])
        .and_then(|s| crate::machine::make_writable(uc, s).map(|_| s))
        .map_err(|e| Stop::Error(format!("LibEntry stub: {e}")))?;
    if let Some(k) = env.win16.module_by_name("KERNEL") {
        uc.get_data_mut().owners.insert(
            sel,
            crate::walk::CodeOwner {
                hmodule: k.hmodule,
                segment: Some(2),
            },
        );
    }
    env.win16.kernel.libraries.stub = Some(sel);
    Ok(sel)
}

/// Call the LibEntry of module `idx` with the registers of the module
/// notes; true when it returned AX nonzero (or the module has no entry
/// point).
pub fn lib_entry(env: &mut Env, uc: &mut Uc<'_>, idx: usize) -> Result<bool, Stop> {
    let m = env.win16.modules[idx].clone();
    let Some(ne) = m.image.as_ref() else {
        return Ok(true);
    };
    let Some(&cs) = m.segments.get(usize::from(ne.header.cs).wrapping_sub(1)) else {
        return Ok(true);
    };
    let ip = ne.header.ip;
    let heap = ne.header.heap_size;
    super::notify::dll_starting(env, uc, m.hmodule, cs, ip)?;
    let (hinst, ds) = instance_of(&m, uc.reg(R::DS));
    let psp = env
        .win16
        .task(uc.get_data().current_task)
        .map_or(0, |t| t.psp);
    let kernel_cs = match env.win16.module_by_name("KERNEL") {
        Some(k) => k.segments[0],
        None => return Ok(true),
    };
    let stub = stub_segment(env, uc)?;
    // mov di,hinst; mov cx,heap; mov si,81h; mov ax,psp; mov es,ax;
    // mov ax,ds; jmp far cs:ip
    let mut code = Vec::with_capacity(24);
    for (op, v) in [(0xBF, hinst), (0xB9, heap), (0xBE, 0x81), (0xB8, psp)] {
        code.push(op);
        code.extend_from_slice(&v.to_le_bytes());
    }
    code.extend_from_slice(&[0x8E, 0xC0, 0xB8]);
    code.extend_from_slice(&ds.to_le_bytes());
    code.push(0xEA);
    code.extend_from_slice(&ip.to_le_bytes());
    code.extend_from_slice(&cs.to_le_bytes());
    if !write_code(uc, stub, 0, &code) {
        return Err(Stop::Error("the LibEntry stub cannot be written".into()));
    }
    crate::machine::record_event(
        uc,
        format!(
            "LibEntry of {} at {cs:04X}:{ip:04X} (DI {hinst:04X}, DS {ds:04X}, CX {heap:04X})",
            m.name
        ),
    );
    let r = callback::call_far(env, uc, kernel_cs, (stub, 0), ds, &[], &[])?;
    Ok(r.value & 0xFFFF != 0)
}

/// Call a library's exported WEP(WEP_FREE_DLL), if it has one.
fn call_wep(env: &mut Env, uc: &mut Uc<'_>, idx: usize) -> Result<(), Stop> {
    let m = env.win16.modules[idx].clone();
    let Some(p) = m.export_names.get("WEP").and_then(|o| m.exports.get(o)) else {
        return Ok(());
    };
    let Some(kernel_cs) = env.win16.module_by_name("KERNEL").map(|k| k.segments[0]) else {
        return Ok(());
    };
    let (_, ds) = instance_of(&m, uc.reg(R::DS));
    callback::call_far(
        env,
        uc,
        kernel_cs,
        (p.selector, p.offset),
        ds,
        &[],
        &[CallArg::W(WEP_FREE_DLL)],
    )?;
    Ok(())
}

/// The usage count in a module's database.
pub fn usage(uc: &Uc<'_>, hmodule: u16) -> u16 {
    uc.read_u16_at(hmodule, module_db::USAGE).unwrap_or(0)
}

fn set_usage(uc: &mut Uc<'_>, hmodule: u16, n: u16) {
    let _ = uc.write_u16_at(hmodule, module_db::USAGE, n);
}

/// What a library name names: its module name (the file's stem, upper
/// case) and the DOS path to look for, with ".DLL" added when the name has
/// no extension.
fn parse_name(name: &str) -> (String, String) {
    let name = name.trim();
    let base = name.rsplit(['\\', '/', ':']).next().unwrap_or("");
    let stem = base.split('.').next().unwrap_or("").to_ascii_uppercase();
    let path = if base.contains('.') {
        name.to_string()
    } else {
        format!("{name}.DLL")
    };
    (stem, path)
}

/// Find a library file as Windows 3.1 searches (LoadLibrary): a path as
/// given, on drive C:; a bare name in the current directory, the Windows
/// directory, the system directory, the directory of the current task's
/// program, then the PATH directories (win16/search.rs), as they are now.
fn find_library(env: &Env, uc: &Uc<'_>, path: &str) -> Option<PathBuf> {
    use crate::dos::fs::HostPath;
    let bare = !path.contains(['\\', '/', ':']);
    if !bare {
        return match env.drive.as_ref()?.resolve(path.as_bytes()) {
            Ok(HostPath::File { host, .. }) => Some(host),
            _ => None,
        };
    }
    let program = env
        .win16
        .task(uc.get_data().current_task)
        .and_then(|t| env.win16.modules.iter().find(|m| m.hmodule == t.hmodule))
        .and_then(|m| m.path.clone());
    let search = match (&env.drive, &program) {
        (Some(d), Some(p)) => {
            let vars = if env.win16.environment.is_empty() {
                crate::dos::default_environment()
            } else {
                env.win16.environment.clone()
            };
            DllSearch::for_drive(d, &vars, p)
        }
        _ => env.win16.dll_search.clone(),
    };
    let importer = program.unwrap_or_default();
    crate::win16::search::find(&search, &importer, path).ok()
}

/// LoadLibrary's work for the name `name`: an instance handle or an error
/// below 32 (module notes).
pub fn load_library_named(env: &mut Env, uc: &mut Uc<'_>, name: &str) -> Result<u32, Stop> {
    let (stem, path) = parse_name(name);
    if stem.is_empty() {
        return Ok(ERROR_FILE_NOT_FOUND);
    }
    let ds = uc.reg(R::DS);
    if let Some(i) = env
        .win16
        .modules
        .iter()
        .position(|m| m.name.eq_ignore_ascii_case(&stem))
    {
        let m = &env.win16.modules[i];
        if env.win16.absent.contains_key(&m.hmodule) {
            return Ok(ERROR_FILE_NOT_FOUND);
        }
        if m.builtin {
            return Ok(u32::from(m.hmodule));
        }
        if !m.image.as_ref().is_some_and(|ne| ne.header.is_library()) {
            return Ok(ERROR_TASK);
        }
        let h = m.hmodule;
        let (hinst, _) = instance_of(m, ds);
        set_usage(uc, h, usage(uc, h).saturating_add(1));
        return Ok(u32::from(hinst));
    }
    // A system module: KERNEL, USER, GDI and the drivers are always the
    // built-in ones; any other is a file of its name if the search finds
    // one, else the built-in module (win16/search.rs).
    let builtin = crate::win16::BUILTIN_MODULES.contains(&stem.as_str());
    let file = if crate::win16::search::is_core(&stem) {
        None
    } else {
        find_library(env, uc, &path)
    };
    if builtin && file.is_none() {
        return Ok(
            match crate::win16::kernel::builtin::ensure_builtin(uc, &mut env.win16, &stem) {
                Ok(i) => u32::from(env.win16.modules[i].hmodule),
                Err(_) => 0,
            },
        );
    }
    let Some(file) = file else {
        crate::machine::record_event(
            uc,
            format!(
                "LoadLibrary {}: no file {path}",
                crate::escape::quoted(name)
            ),
        );
        return Ok(ERROR_FILE_NOT_FOUND);
    };
    let idx = match crate::win16::kernel::loader::load_dll(uc, &mut env.win16, &file, 1) {
        Ok(i) => i,
        Err(Win16LoadError(why)) => {
            crate::machine::record_event(
                uc,
                format!("LoadLibrary {}: {why}", crate::escape::quoted(name)),
            );
            return Ok(ERROR_BAD_FORMAT);
        }
    };
    let hmodule = env.win16.modules[idx].hmodule;
    // Its imports' LibEntries first, then its own.
    while let Some(&h) = env.win16.kernel.libraries.pending.first() {
        env.win16.kernel.libraries.pending.remove(0);
        let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == h) else {
            continue;
        };
        if !lib_entry(env, uc, i)? {
            let name = env.win16.modules[i].name.clone();
            crate::machine::record_event(uc, format!("LibEntry of {name} returned 0"));
            if h == hmodule {
                env.win16.remove_module(uc, i);
            }
            return Ok(ERROR_DLL_INIT);
        }
    }
    let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == hmodule) else {
        return Ok(ERROR_DLL_INIT);
    };
    let (hinst, _) = instance_of(&env.win16.modules[i], ds);
    Ok(u32::from(hinst))
}

/// KERNEL.95 LoadLibrary(lpszLibFileName): an instance handle, or an error
/// below 32 (module notes). A library that cannot be found gets Windows'
/// "File Error" box, "Cannot find NAME.DLL", unless the task's error mode
/// has SEM_NOOPENFILEERRORBOX (KB Q111610): it is reported with the run's
/// message boxes.
pub fn load_library(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(ERROR_FILE_NOT_FOUND);
    };
    let name = String::from_utf8_lossy(&name).into_owned();
    let r = load_library_named(env, uc, &name)?;
    if r == ERROR_FILE_NOT_FOUND && env.win16.system.error_mode & SEM_NOOPENFILEERRORBOX == 0 {
        // Windows' "File Error" box (KB Q111610), USER's to show: kept
        // with the run's message boxes (kernel/signal.rs).
        let (_, path) = parse_name(&name);
        let file = path.rsplit(['\\', '/', ':']).next().unwrap_or("");
        let htask = uc.get_data().current_task;
        let text = format!("Cannot find {}", file.to_ascii_uppercase());
        (super::signal::signals().system_box)(env, htask, "File Error", text);
    }
    Ok(r)
}

/// SetErrorMode's flag that keeps LoadLibrary from showing its "Cannot
/// find" box.
const SEM_NOOPENFILEERRORBOX: u16 = 0x8000;

/// FreeLibrary's work: the library's usage goes down; at 0 its WEP runs
/// and it is freed. False when `h` names no library loaded from disk.
pub fn free_library_handle(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<bool, Stop> {
    let Some(idx) = env.win16.module_for_handle(h) else {
        return Ok(false);
    };
    let m = &env.win16.modules[idx];
    if m.builtin || !m.image.as_ref().is_some_and(|ne| ne.header.is_library()) {
        return Ok(false);
    }
    let hmodule = m.hmodule;
    let n = usage(uc, hmodule).saturating_sub(1);
    set_usage(uc, hmodule, n);
    if n == 0 {
        call_wep(env, uc, idx)?;
        crate::machine::record_event(uc, format!("FreeLibrary: {} is freed", m_name(env, idx)));
        if let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == hmodule) {
            super::notify::module_deleted(env, uc, hmodule)?;
            env.win16.remove_module(uc, i);
        }
    }
    Ok(true)
}

fn m_name(env: &Env, idx: usize) -> String {
    env.win16.modules[idx].name.clone()
}

/// KERNEL.96 FreeLibrary(hLibModule) (module notes).
pub fn free_library(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    free_library_handle(env, uc, a[0] as u16)?;
    Ok(0)
}

/// KERNEL.46 FreeModule(hModule): FreeLibrary for a library; TRUE when the
/// handle named one.
pub fn free_module(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(free_library_handle(env, uc, a[0] as u16)?))
}

/// KERNEL.45 LoadModule(lpszModuleName, lpvParameterBlock): a library
/// loads as LoadLibrary; a program starts as a new task with the command
/// tail of the parameter block (LOADPARMS: environment segment, far
/// pointer to the tail, its first byte the length, far pointer to the show
/// command, reserved). The new task's instance handle, or an error below
/// 32.
pub fn load_module(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(ERROR_FILE_NOT_FOUND);
    };
    let name = String::from_utf8_lossy(&name).trim().to_string();
    let ext = name
        .rsplit(['\\', '/', ':'])
        .next()
        .and_then(|b| b.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_uppercase());
    let is_program = match ext.as_deref() {
        None | Some("EXE") => {
            // A library with an .EXE name is possible but rare: look at the
            // file's header when it can be read.
            program_file(env, &name).unwrap_or(true)
        }
        _ => false,
    };
    if !is_program {
        return load_library_named(env, uc, &name);
    }
    let mut tail = String::new();
    // The show command: a far pointer at +6 to two words, 2 and the
    // nCmdShow value (SDK, LoadModule); SW_SHOWNORMAL when absent.
    let mut show = 1u16;
    if a[1] != 0 {
        if let Some(p) = farptr::read_bytes(uc, a[1], 14) {
            let sp = farptr::make(
                u16::from_le_bytes([p[8], p[9]]),
                u16::from_le_bytes([p[6], p[7]]),
            );
            if let Some(w) = farptr::read_bytes(uc, sp, 4).filter(|_| sp != 0) {
                show = u16::from_le_bytes([w[2], w[3]]);
            }
            let cmd = farptr::make(
                u16::from_le_bytes([p[4], p[5]]),
                u16::from_le_bytes([p[2], p[3]]),
            );
            if let Some(b) = farptr::read_bytes(uc, cmd, 1) {
                let n = usize::from(b[0]);
                if let Some(t) = farptr::read_bytes(uc, farptr::add(cmd, 1), n) {
                    tail = String::from_utf8_lossy(&t).trim().to_string();
                }
            }
        }
    }
    let line = if tail.is_empty() {
        name
    } else {
        format!("{name} {tail}")
    };
    crate::win16::scheduler::exec_line(env, uc, &line, show)
}

/// Is the file `name` on drive C: a program (not a library)? None when it
/// cannot be read.
fn program_file(env: &Env, name: &str) -> Option<bool> {
    let mut path = name.to_string();
    if !path.rsplit(['\\', '/', ':']).next()?.contains('.') {
        path.push_str(".EXE");
    }
    let d = env.drive.as_ref()?;
    let bytes = d
        .read_file(path.as_bytes(), crate::loader::MAX_EXECUTABLE_BYTES)
        .ok()?;
    let ne = crate::loader::ne::NeImage::parse(&bytes).ok()?;
    Some(!ne.header.is_library())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn libraries_count_their_uses_and_go_at_the_last_free() {
        use crate::machine::Cpu;
        let (mut m, mut env, _) = crate::win16::kernel::testing::kernsvc();
        let roms = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("roms");
        env.drive = Some(crate::dos::fs::Drive::new(roms).unwrap());
        let ds = m.reg(R::DS);
        let name = |m: &mut crate::machine::Machine, s: &[u8]| {
            m.write_seg(ds, 0x300, s).unwrap();
            farptr::make(ds, 0x300)
        };
        let p = name(&mut m, b"libdemo\0");
        let h = load_library(&mut env, &mut m, &[p]).unwrap();
        assert!(h >= 32, "{h}");
        let hm = env.win16.module_by_name("LIBDEMO").unwrap().hmodule;
        assert_eq!(usage(&m, hm), 1);
        assert!(env.win16.kernel.libraries.pending().is_empty());
        // LibEntry ran once: its instance handle is in its data.
        let data = instance_of(env.win16.module_by_name("LIBDEMO").unwrap(), 0).1;
        assert_eq!(m.read_u16_at(data, 0).unwrap(), h as u16);
        assert_eq!(m.read_u16_at(data, 6).unwrap(), 1);
        assert_eq!(load_library(&mut env, &mut m, &[p]).unwrap(), h);
        assert_eq!(usage(&m, hm), 2);
        assert_eq!(m.read_u16_at(data, 6).unwrap(), 1, "LibEntry runs once");
        free_library(&mut env, &mut m, &[h]).unwrap();
        assert_eq!(usage(&m, hm), 1);
        free_library(&mut env, &mut m, &[h]).unwrap();
        assert!(env.win16.module_by_name("LIBDEMO").is_none());
        assert!(m.descriptor_of(data).is_none(), "its memory is freed");
        // A built-in module: its handle; a program: 5; nothing: 2.
        let p = name(&mut m, b"keyboard.drv\0");
        let k = load_library(&mut env, &mut m, &[p]).unwrap();
        assert_eq!(
            k,
            u32::from(env.win16.module_by_name("KEYBOARD").unwrap().hmodule)
        );
        let p = name(&mut m, b"KERNSVC.EXE\0");
        assert_eq!(load_library(&mut env, &mut m, &[p]).unwrap(), ERROR_TASK);
        let p = name(&mut m, b"NOSUCH\0");
        assert_eq!(
            load_library(&mut env, &mut m, &[p]).unwrap(),
            ERROR_FILE_NOT_FOUND
        );
    }

    #[test]
    fn names_become_module_names_and_paths() {
        assert_eq!(parse_name("mylib"), ("MYLIB".into(), "mylib.DLL".into()));
        assert_eq!(
            parse_name("C:\\LIBS\\Other.Dll"),
            ("OTHER".into(), "C:\\LIBS\\Other.Dll".into())
        );
        assert_eq!(parse_name("x.drv"), ("X".into(), "x.drv".into()));
    }
}
