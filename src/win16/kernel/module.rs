//! KERNEL's module functions: module handles, names, file names and usage,
//! exported addresses, instance thunks, another instance's data.
//!
//! Handles: an hModule here is the module database's selector; any of
//! GetModuleHandle's, GetModuleUsage's, GetModuleFileName's and
//! GetProcAddress's handle arguments may also be an instance handle (see
//! [`crate::win16::Win16::module_for_handle`]), as Windows 3.1 accepts both.
//!
//! File names are DOS paths as the program sees them: a module loaded from
//! inside the sandboxed drive (`--dir`) has its path there, any other
//! module `C:\NAME.EXT`; the built-in modules live in `C:\WINDOWS\SYSTEM`
//! under the names Windows 3.1 enhanced mode gives them (KRNL386.EXE,
//! USER.EXE, GDI.EXE, KEYBOARD.DRV, ...).
//!
//! MakeProcInstance builds what Windows 3.1 builds, an instance thunk
//! `mov ax, DGROUP; jmp far lpProc`, so that an exported function whose
//! prologue moves AX into DS gets the instance's data segment wherever it
//! is called from. The thunks live in a code segment of the task's (256 of
//! them, 8 bytes each). For a library's function, which loads its own DS,
//! it returns the address itself, as Windows does.

use std::path::Path;

use crate::machine::{Cpu, R, SegKind, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING, NameArg};
use crate::win16::kernel::builtin::thunk_for;
use crate::win16::{THUNK_SIZE, Win16LoadError, write_code};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        27,
        "GETMODULENAME",
        &[Arg::W, Arg::L, Arg::W],
        get_module_name,
    ),
    Api::new(
        "KERNEL",
        47,
        "GETMODULEHANDLE",
        &[Arg::L],
        get_module_handle,
    ),
    Api::new("KERNEL", 48, "GETMODULEUSAGE", &[Arg::W], get_module_usage),
    Api::new(
        "KERNEL",
        49,
        "GETMODULEFILENAME",
        &[Arg::W, Arg::L, Arg::W],
        get_module_file_name,
    ),
    Api::new(
        "KERNEL",
        50,
        "GETPROCADDRESS",
        &[Arg::W, Arg::L],
        get_proc_address,
    ),
    Api::new(
        "KERNEL",
        51,
        "MAKEPROCINSTANCE",
        &[Arg::L, Arg::W],
        make_proc_instance,
    ),
    Api::new(
        "KERNEL",
        52,
        "FREEPROCINSTANCE",
        &[Arg::L],
        free_proc_instance,
    ),
    Api::new(
        "KERNEL",
        319,
        "FLUSHCACHEDFILEHANDLE",
        &[Arg::W],
        flush_cached_file_handle,
    ),
    Api::new(
        "KERNEL",
        54,
        "GETINSTANCEDATA",
        &[Arg::W, Arg::W, Arg::W],
        get_instance_data,
    ),
];

/// Instance thunks per task.
pub const PROC_THUNKS: u16 = 256;

/// The file name of a built-in module in the Windows system directory.
fn builtin_file(name: &str) -> String {
    match name {
        "KERNEL" => "KRNL386.EXE".into(),
        "USER" | "GDI" => format!("{name}.EXE"),
        "KEYBOARD" | "SOUND" | "SYSTEM" => format!("{name}.DRV"),
        _ => format!("{name}.DLL"),
    }
}

/// The DOS path of a module's file (module notes): `path` is its host
/// file, None for a built-in module called `name`.
pub fn dos_path(env: &Env, path: Option<&Path>, name: &str) -> String {
    let Some(path) = path else {
        return format!("C:\\WINDOWS\\SYSTEM\\{}", builtin_file(name));
    };
    let inside = env.drive.as_ref().and_then(|d| {
        let full = std::fs::canonicalize(path).ok()?;
        let rel = full.strip_prefix(d.root()).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_ascii_uppercase())
            .collect();
        (!parts.is_empty()).then(|| format!("C:\\{}", parts.join("\\")))
    });
    inside.unwrap_or_else(|| {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        format!("C:\\{file}")
    })
}

/// The code segment for a task's instance thunks.
pub fn alloc_thunk_segment(m: &mut Uc<'_>) -> Result<u16, Win16LoadError> {
    let sel =
        crate::machine::alloc_seg(m, SegKind::Code, u32::from(PROC_THUNKS * THUNK_SIZE), &[])?;
    crate::machine::make_writable(m, sel)?;
    Ok(sel)
}

/// The module a handle names, or the current task's for 0.
fn module_index(env: &Env, uc: &Uc<'_>, h: u16) -> Option<usize> {
    let w = &env.win16;
    if h == 0 {
        let t = w.task(uc.get_data().current_task)?;
        return w.module_for_handle(t.hmodule);
    }
    w.module_for_handle(h)
}

/// KERNEL.47 GetModuleHandle(lpszModuleName): the module's handle, 0 if
/// it is not loaded. The name may carry a path and an extension; a far
/// pointer whose selector word is 0 holds a handle instead of a name.
pub fn get_module_handle(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let w = &env.win16;
    let idx = if farptr::is_int(a[0]) {
        w.module_for_handle(a[0] as u16)
    } else {
        let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
            return Ok(0);
        };
        let name = String::from_utf8_lossy(&name).into_owned();
        let base = name.rsplit(['\\', '/', ':']).next().unwrap_or("");
        let stem = base.split('.').next().unwrap_or("");
        w.modules
            .iter()
            .position(|m| !stem.is_empty() && m.name.eq_ignore_ascii_case(stem))
    };
    Ok(idx.map_or(0, |i| u32::from(w.modules[i].hmodule)))
}

/// KERNEL.48 GetModuleUsage(hModule): how many tasks run a program
/// module; a library's usage count (library.rs: one for its load, one more
/// per LoadLibrary); 1 for a built-in module; 0 for a bad handle.
pub fn get_module_usage(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = module_index(env, uc, a[0] as u16) else {
        return Ok(0);
    };
    let m = &env.win16.modules[i];
    if !m.builtin && m.image.as_ref().is_some_and(|ne| ne.header.is_library()) {
        return Ok(u32::from(super::library::usage(uc, m.hmodule)));
    }
    let tasks = env
        .win16
        .tasks
        .iter()
        .filter(|t| t.hmodule == m.hmodule)
        .count();
    Ok(tasks.max(1) as u32)
}

/// KERNEL.49 GetModuleFileName(hInstance, lpszFilename, cbFileName): the
/// number of bytes copied (the name cut to cbFileName - 1), 0 for a bad
/// handle or buffer.
pub fn get_module_file_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = module_index(env, uc, a[0] as u16) else {
        return Ok(0);
    };
    let m = &env.win16.modules[i];
    let path = dos_path(env, m.path.as_deref(), &m.name);
    let size = farptr::int_size(a[2]);
    Ok(farptr::write_cstr_truncated(uc, a[1], path.as_bytes(), size).map_or(0, |n| n as u32))
}

/// KERNEL.27 GetModuleName(hInstance, lpszName, cbName) (undocumented;
/// KRNL386 as Wine's notes on it describe): the module's name, the first
/// entry of its resident-name table, cut to cbName - 1 characters and
/// ended with a NUL (nothing written when cbName is 0 or negative); TRUE,
/// or FALSE for a handle that names no module.
pub fn get_module_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(i) = env.win16.module_for_handle(h) else {
        return Ok(0);
    };
    let name = env.win16.modules[i].name.clone();
    let count = a[2] as u16 as i16;
    if count > 0
        && farptr::write_cstr_truncated(uc, a[1], name.as_bytes(), count as usize).is_none()
    {
        return Ok(0);
    }
    Ok(1)
}

/// KERNEL.50 GetProcAddress(hModule, lpszProcName): the far address of an
/// export, by name or by ordinal (a selector word of 0, or `#n`); NULL
/// when the module has no such export. For a built-in module it is the
/// function's thunk (an unimplemented one stops the program when called,
/// as an import does); built-in functions are known by the names and
/// ordinals in [`crate::loader::ordnames`].
pub fn get_proc_address(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = module_index(env, uc, a[0] as u16) else {
        return Ok(0);
    };
    let Some(what) = NameArg::read(uc, a[1]) else {
        return Ok(0);
    };
    let m = &env.win16.modules[i];
    if !m.builtin {
        let ord = match &what {
            NameArg::Int(n) => Some(*n),
            NameArg::Str(s) => m
                .export_names
                .get(&String::from_utf8_lossy(s).to_ascii_uppercase())
                .copied(),
        };
        return Ok(ord
            .and_then(|o| m.exports.get(&o))
            .map_or(0, |p| farptr::make(p.selector, p.offset)));
    }
    let known = |o: u16| {
        crate::win16::api::find(&m.name, o).is_some()
            || crate::loader::ordnames::ordinal_name(&m.name, o).is_some()
    };
    let ord = match &what {
        NameArg::Int(n) => Some(*n).filter(|&o| known(o)),
        NameArg::Str(s) => {
            crate::loader::ordnames::ordinal_of(&m.name, &String::from_utf8_lossy(s))
        }
    };
    let Some(ord) = ord else {
        return Ok(0);
    };
    let name = m.name.clone();
    if let Some(v) = super::selector::absolute_export(uc, &mut env.win16, &name, ord) {
        return Ok(u32::from(v));
    }
    Ok(thunk_for(uc, &mut env.win16, i, ord, None)
        .map_or(0, |p| farptr::make(p.selector, p.offset)))
}

/// KERNEL.51 MakeProcInstance(lpProc, hInstance): an instance thunk
/// (module notes), lpProc itself for a library's function, NULL when
/// lpProc is NULL or the task's 256 thunks are all in use.
pub fn make_proc_instance(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let proc_ = a[0];
    if proc_ == 0 {
        return Ok(0);
    }
    let (sel, off) = farptr::split(proc_);
    let w = &env.win16;
    if let Some(i) = w.module_for_handle(sel) {
        let m = &w.modules[i];
        if m.builtin || m.image.as_ref().is_some_and(|ne| ne.header.is_library()) {
            return Ok(proc_);
        }
    }
    let ds = match a[1] as u16 {
        0 => uc.reg(R::DS),
        h => crate::win16::selector_of_handle(h),
    };
    let Some(seg) = w.task(uc.get_data().current_task).map(|t| t.proc_thunks) else {
        return Ok(0);
    };
    let used = env
        .win16
        .system
        .thunks_used
        .entry(seg)
        .or_insert_with(|| vec![false; usize::from(PROC_THUNKS)]);
    let Some(k) = used.iter().position(|u| !u) else {
        return Ok(0);
    };
    let [d0, d1] = ds.to_le_bytes();
    let [o0, o1] = off.to_le_bytes();
    let [s0, s1] = sel.to_le_bytes();
    // mov ax, ds-value ; jmp far sel:off
    let code = [0xB8, d0, d1, 0xEA, o0, o1, s0, s1];
    let at = k as u16 * THUNK_SIZE;
    // A freed thunk may be reused with other code.
    if !write_code(uc, seg, at, &code) {
        return Ok(0);
    }
    used[k] = true;
    Ok(farptr::make(seg, at))
}

/// KERNEL.52 FreeProcInstance(lpProc): frees an instance thunk; anything
/// else is ignored.
pub fn free_proc_instance(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (sel, off) = farptr::split(a[0]);
    if off % THUNK_SIZE == 0 {
        if let Some(u) = env
            .win16
            .system
            .thunks_used
            .get_mut(&sel)
            .and_then(|u| u.get_mut(usize::from(off / THUNK_SIZE)))
        {
            *u = false;
        }
    }
    Ok(0)
}

/// KERNEL.319 FlushCachedFileHandle(hExe) (undocumented): KRNL386 keeps
/// a small cache of DOS handles open on the files of loaded modules, to
/// read their segments and resources again, and this closes hExe's (on
/// KERNEL's own PDB) and frees its entry; a module not in the cache, or 0,
/// is nothing to do. Here KERNEL reads segments and resources from the
/// module's image, never through a DOS handle, so the cache is always
/// empty and no handle is closed. Registers are kept (AX and DX come back
/// as they were), as KRNL386's preserves them.
pub fn flush_cached_file_handle(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok((u32::from(uc.reg(R::DX)) << 16) | u32::from(uc.reg(R::AX)))
}

/// KERNEL.54 GetInstanceData(hInstance, pbData, cbData): copies cbData
/// bytes at offset pbData of another instance's data segment to the same
/// offset of DS; the count copied, 0 on failure.
pub fn get_instance_data(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (src, off, n) = ((a[0] as u16) | 1, a[1] as u16, usize::from(a[2] as u16));
    let Some(bytes) = farptr::read_bytes(uc, farptr::make(src, off), n) else {
        return Ok(0);
    };
    let ds = uc.reg(R::DS);
    Ok(if farptr::write_bytes(uc, farptr::make(ds, off), &bytes) {
        n as u32
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    use crate::win16::kernel::testing::kernsvc;

    /// A string in the task's DGROUP at `off`.
    fn put(m: &mut Machine, off: u16, s: &str) -> u32 {
        let ds = m.reg(R::DS);
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        m.write_seg(ds, off, &b).unwrap();
        farptr::make(ds, off)
    }

    fn cstr(m: &Machine, p: u32) -> String {
        String::from_utf8_lossy(&farptr::read_cstr(m, p, 300).unwrap()).into_owned()
    }

    #[test]
    fn module_handles_names_and_usage() {
        let (mut m, mut env, htask) = kernsvc();
        let me = env.win16.module_by_name("KERNSVC").unwrap().hmodule;
        let hinst = env.win16.task(htask).unwrap().hinstance;
        for (name, want) in [("KERNSVC", me), ("a:\\x\\kernsvc.EXE", me), ("nosuch", 0)] {
            let p = put(&mut m, 0x300, name);
            assert_eq!(
                get_module_handle(&mut env, &mut m, &[p]).unwrap(),
                u32::from(want),
                "{name}"
            );
        }
        // GDI is not imported, but is there as on Windows.
        let gdi = put(&mut m, 0x300, "GDI");
        assert_ne!(get_module_handle(&mut env, &mut m, &[gdi]).unwrap(), 0);
        assert_eq!(
            get_module_handle(&mut env, &mut m, &[u32::from(hinst)]).unwrap(),
            u32::from(me)
        );
        assert_eq!(
            get_module_handle(&mut env, &mut m, &[0x1234_0000]).unwrap(),
            0
        );
        assert_eq!(
            get_module_usage(&mut env, &mut m, &[u32::from(hinst)]).unwrap(),
            1
        );
        assert_eq!(get_module_usage(&mut env, &mut m, &[0x0FF7]).unwrap(), 0);
        // File names: the program's (no drive: C:\NAME), a built-in's, cut.
        let buf = farptr::make(m.reg(R::DS), 0x380);
        assert_eq!(
            get_module_file_name(&mut env, &mut m, &[0, buf, 64]).unwrap(),
            14
        );
        assert_eq!(cstr(&m, buf), "C:\\KERNSVC.EXE");
        let k = env.win16.module_by_name("KERNEL").unwrap().hmodule;
        get_module_file_name(&mut env, &mut m, &[u32::from(k), buf, 64]).unwrap();
        assert_eq!(cstr(&m, buf), "C:\\WINDOWS\\SYSTEM\\KRNL386.EXE");
        assert_eq!(
            get_module_file_name(&mut env, &mut m, &[u32::from(k), buf, 5]).unwrap(),
            4
        );
        assert_eq!(cstr(&m, buf), "C:\\W");
        assert_eq!(
            get_module_file_name(&mut env, &mut m, &[0x0FF7, buf, 64]).unwrap(),
            0
        );
        assert_eq!(
            get_module_file_name(&mut env, &mut m, &[0, 0, 64]).unwrap(),
            0
        );
    }

    #[test]
    fn proc_addresses() {
        let (mut m, mut env, _) = kernsvc();
        let k = u32::from(env.win16.module_by_name("KERNEL").unwrap().hmodule);
        let thunks = env.win16.module_by_name("KERNEL").unwrap().segments[0];
        let name = put(&mut m, 0x300, "LSTRLEN");
        let p = get_proc_address(&mut env, &mut m, &[k, name]).unwrap();
        assert_eq!(farptr::split(p).0, thunks);
        assert_eq!(get_proc_address(&mut env, &mut m, &[k, 90]).unwrap(), p);
        let hash = put(&mut m, 0x300, "#90");
        assert_eq!(get_proc_address(&mut env, &mut m, &[k, hash]).unwrap(), p);
        let flags = put(&mut m, 0x300, "__WINFLAGS");
        assert_eq!(
            get_proc_address(&mut env, &mut m, &[k, flags]).unwrap(),
            0x0C25
        );
        let none = put(&mut m, 0x300, "NoSuchFunction");
        assert_eq!(get_proc_address(&mut env, &mut m, &[k, none]).unwrap(), 0);
        assert_eq!(get_proc_address(&mut env, &mut m, &[k, 9999]).unwrap(), 0);
        // The program exports nothing.
        assert_eq!(get_proc_address(&mut env, &mut m, &[0, name]).unwrap(), 0);
        assert_eq!(
            get_proc_address(&mut env, &mut m, &[0x0FF7, name]).unwrap(),
            0
        );
    }

    #[test]
    fn instance_thunks() {
        let (mut m, mut env, htask) = kernsvc();
        let t = env.win16.task(htask).unwrap().clone();
        let code = env.win16.module_by_name("KERNSVC").unwrap().segments[1];
        let f = farptr::make(code, 0x20);
        let th = make_proc_instance(&mut env, &mut m, &[f, u32::from(t.hinstance)]).unwrap();
        assert_eq!(farptr::split(th), (t.proc_thunks, 0));
        let mut b = [0u8; 8];
        m.read_seg(t.proc_thunks, 0, &mut b).unwrap();
        let [d0, d1] = t.dgroup.to_le_bytes();
        let [c0, c1] = code.to_le_bytes();
        assert_eq!(b, [0xB8, d0, d1, 0xEA, 0x20, 0, c0, c1]);
        // Library code (a built-in thunk) and NULL come back unchanged.
        let lib = farptr::make(env.win16.module_by_name("USER").unwrap().segments[0], 8);
        assert_eq!(
            make_proc_instance(&mut env, &mut m, &[lib, 0]).unwrap(),
            lib
        );
        assert_eq!(make_proc_instance(&mut env, &mut m, &[0, 0]).unwrap(), 0);
        // 256 thunks, then NULL; a freed one is used again.
        for k in 1..PROC_THUNKS {
            let p = make_proc_instance(&mut env, &mut m, &[f, 0]).unwrap();
            assert_eq!(p, farptr::make(t.proc_thunks, k * THUNK_SIZE));
        }
        assert_eq!(make_proc_instance(&mut env, &mut m, &[f, 0]).unwrap(), 0);
        let again = farptr::make(t.proc_thunks, 5 * THUNK_SIZE);
        free_proc_instance(&mut env, &mut m, &[again]).unwrap();
        free_proc_instance(&mut env, &mut m, &[farptr::make(t.proc_thunks, 3)]).unwrap();
        assert_eq!(
            make_proc_instance(&mut env, &mut m, &[f, 0]).unwrap(),
            again
        );
    }

    #[test]
    fn instance_data_copies_between_segments() {
        let (mut m, mut env, _) = kernsvc();
        let other = m
            .alloc_segment(SegKind::Data, 0x100, &[7u8; 0x100])
            .unwrap();
        let ds = m.reg(R::DS);
        assert_eq!(
            get_instance_data(&mut env, &mut m, &[u32::from(other - 1), 0x10, 4]).unwrap(),
            4
        );
        let mut b = [0u8; 5];
        m.read_seg(ds, 0x10, &mut b).unwrap();
        assert_eq!(&b[..4], &[7; 4]);
        assert_eq!(
            get_instance_data(&mut env, &mut m, &[u32::from(other), 0xFE, 4]).unwrap(),
            0
        );
    }
}
