//! Self-loading applications (NE header flag 0x0800): programs whose own
//! code loads their segments.
//!
//! The protocol is the Windows 3.1 SDK's (Programmer's Reference, Volume
//! 4, chapter 24, "Self-Loading Windows Applications"; Volume 2 for
//! PatchCodeHandle).
//!
//! # The loader data table
//!
//! Segment 1 is the loader. It starts with a table of far pointers
//! ([`table`]): the version (`A0`), a reserved word, BootApp (04h) and
//! LoadAppSeg (08h), which the application provides, a reserved pointer,
//! MyAlloc (10h) and EntryAddrProc (14h), which KERNEL provides, ExitProc
//! (18h), the application's again, four reserved words, and SetOwner (24h),
//! KERNEL's. The application's pointers are far pointers into segment 1,
//! fixed up by segment 1's own relocations; segment 1 may have no fixups to
//! any other segment of the module.
//!
//! # Loading
//!
//! KERNEL reads the header and its tables into the module database (the
//! *information block*, [`info_block`]), loads the modules the application
//! imports, loads segment 1 as any segment (its data and its relocations),
//! writes the addresses of MyAlloc, EntryAddrProc and SetOwner into the
//! table, opens the executable file and calls
//! `BootApp(hBlock, hFile)` (pascal): hBlock is the information block's
//! selector, hFile a DOS handle of the file. BootApp allocates the other
//! segments with MyAlloc, the automatic data segment first, gives them to
//! the module with SetOwner, stores each handle in the segment table of
//! the information block (the word after each 8-byte entry) and loads the
//! segments it wants to with `LoadAppSeg(hBlock, hFile, wSegID)`, which
//! returns the segment's selector. LoadAppSeg reads a segment through the
//! DOS handle, applies its relocations itself (EntryAddrProc gives the
//! address of an entry ordinal of any module; imported modules' handles are
//! in the module reference table of the information block), sets the
//! segment's flags 0002h (allocated) and 0004h (loaded) and calls
//! PatchCodeHandle.
//!
//! Windows loads a segment that is not loaded when it is first used (the
//! reload thunks); this tool has no such thunks, so when BootApp returns
//! KERNEL calls LoadAppSeg for every segment not marked loaded, in order,
//! as Wine does. Then it closes the file, and the task starts at the
//! header's CS:IP in the segments the application loaded, with the stack
//! in the automatic data segment the application allocated.
//!
//! KERNEL's services ([`INTERNAL`]): MyAlloc(wFlags, wSize, wElem)
//! allocates `wSize << wElem` bytes (0 for 64 KiB) as code or data per the
//! segment flags (0001h data, 0010h moveable) and returns the handle in AX
//! and the selector in DX; EntryAddrProc(hBlock, wEntry) returns the far
//! address of entry ordinal `wEntry` of the module whose handle is
//! `hBlock` (any loaded module, built-in ones included), 0 when there is
//! none or its segment is not loaded; SetOwner(hSel, hOwner) makes module
//! `hOwner` the owner of the segment. MyAlloc, EntryAddrProc and SetOwner
//! were not exported by name, so they have private ordinals here (api.rs,
//! INTERNAL). PatchCodeHandle (KERNEL.110) returns the segment's handle in
//! AX and its selector in DX; Windows also patched the prologues of the
//! segment's exported functions, which this tool's loader never patches
//! for any module (MakeProcInstance thunks load AX instead, kernel/module.rs).
//!
//! When the application's last instance ends, KERNEL calls its
//! `ExitProc(hBlock)` (18h), on the ending task's stack.
//!
//! The executable must lie on drive C: (`--dir`), since the application
//! reads it through DOS. A self-loading library is refused: the SDK
//! describes the protocol for applications.

use std::path::Path;

use crate::loader::ne::{FarPtr, NeImage};
use crate::machine::{Cpu, SegKind, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{self, CallArg};
use crate::win16::global::{self, gt};
use crate::win16::tdb::module_db;
use crate::win16::{Win16LoadError, selector_of_handle};

/// Offsets in the loader data table (module notes).
pub mod table {
    /// The version word, `A0`.
    pub const VERSION: u16 = 0x00;
    /// BootApp, the application's.
    pub const BOOT_APP: u16 = 0x04;
    /// LoadAppSeg, the application's.
    pub const LOAD_APP_SEG: u16 = 0x08;
    /// MyAlloc, KERNEL's.
    pub const MY_ALLOC: u16 = 0x10;
    /// EntryAddrProc, KERNEL's.
    pub const ENTRY_ADDR_PROC: u16 = 0x14;
    /// ExitProc, the application's.
    pub const EXIT_PROC: u16 = 0x18;
    /// SetOwner, KERNEL's.
    pub const SET_OWNER: u16 = 0x24;
}

/// The private ordinals of KERNEL's self-loader services (api.rs,
/// INTERNAL).
pub const ORD_MY_ALLOC: u16 = 0xF000;
/// EntryAddrProc's private ordinal.
pub const ORD_ENTRY_ADDR_PROC: u16 = 0xF001;
/// SetOwner's private ordinal.
pub const ORD_SET_OWNER: u16 = 0xF002;

/// Segment-table flags the loader maintains: memory allocated, loaded.
pub const SEG_ALLOCATED: u16 = 0x0002;
/// The segment is loaded.
pub const SEG_LOADED: u16 = 0x0004;

/// The functions this file implements that programs import.
pub static APIS: &[Api] = &[Api::new(
    "KERNEL",
    110,
    "PATCHCODEHANDLE",
    &[Arg::W],
    patch_code_handle,
)];

/// KERNEL's services reached only through the loader data table.
pub static INTERNAL: &[Api] = &[
    Api::new(
        "KERNEL",
        ORD_MY_ALLOC,
        "MYALLOC",
        &[Arg::W, Arg::W, Arg::W],
        my_alloc,
    ),
    Api::new(
        "KERNEL",
        ORD_ENTRY_ADDR_PROC,
        "ENTRYADDRPROC",
        &[Arg::W, Arg::W],
        entry_addr_proc,
    ),
    Api::new(
        "KERNEL",
        ORD_SET_OWNER,
        "SETOWNER",
        &[Arg::W, Arg::W],
        set_owner,
    ),
];

/// The information block of a self-loading application (module notes):
/// the NE header as the file has it, with the usage count (02h), the next
/// module (06h) and the table offsets rewritten for this block; the
/// segment table with a handle after each 8-byte entry (40h); the
/// resident names; the module reference table holding the imported
/// modules' handles (`refs`); the imported names; an empty entry table
/// (entry points come from EntryAddrProc). At most 64 KiB.
pub fn info_block(
    ne: &NeImage,
    name: &str,
    entries: &[[u8; 8]],
    handles: &[u16],
    refs: &[u16],
) -> Vec<u8> {
    let h = &ne.header;
    let mut b = vec![0u8; usize::from(module_db::SEGMENT_TABLE)];
    let put = |b: &mut Vec<u8>, at: usize, v: u16| b[at..at + 2].copy_from_slice(&v.to_le_bytes());
    b[0] = b'N';
    b[1] = b'E';
    put(&mut b, 0x02, 1); // usage
    put(&mut b, 0x04, 0); // entry table offset, below
    put(&mut b, 0x06, 0); // next module
    b[0x08..0x0C].copy_from_slice(&h.crc.to_le_bytes());
    put(&mut b, 0x0C, h.flags);
    put(&mut b, 0x0E, h.auto_data_segment);
    put(&mut b, 0x10, h.heap_size);
    put(&mut b, 0x12, h.stack_size);
    put(&mut b, 0x14, h.ip);
    put(&mut b, 0x16, h.cs);
    put(&mut b, 0x18, h.sp);
    put(&mut b, 0x1A, h.ss);
    put(&mut b, 0x1C, entries.len() as u16);
    put(&mut b, 0x1E, refs.len() as u16);
    put(&mut b, 0x20, 0);
    put(&mut b, 0x22, module_db::SEGMENT_TABLE);
    put(&mut b, 0x2C, 0);
    put(&mut b, 0x2E, 0);
    put(&mut b, 0x30, h.movable_entry_count);
    put(&mut b, 0x32, h.alignment_shift_raw);
    put(&mut b, 0x34, h.resource_segment_count);
    b[0x36] = h.target_os;
    b[0x37] = h.other_flags;
    put(&mut b, 0x3E, h.expected_windows_version);
    for (e, hd) in entries.iter().zip(handles) {
        b.extend_from_slice(e);
        b.extend_from_slice(&hd.to_le_bytes());
    }
    // Resident names (no resource table: the resource offset equals it).
    let res = b.len() as u16;
    put(&mut b, 0x24, res);
    put(&mut b, 0x26, res);
    let names: Vec<(String, u16)> = if ne.resident_names.is_empty() {
        vec![(name.to_string(), 0)]
    } else {
        ne.resident_names.clone()
    };
    for (n, ord) in &names {
        let bytes: Vec<u8> = n.chars().map(|c| c as u32 as u8).take(255).collect();
        b.push(bytes.len() as u8);
        b.extend_from_slice(&bytes);
        b.extend_from_slice(&ord.to_le_bytes());
    }
    b.push(0);
    let modtab = b.len() as u16;
    put(&mut b, 0x28, modtab);
    for r in refs {
        b.extend_from_slice(&r.to_le_bytes());
    }
    let imptab = b.len() as u16;
    put(&mut b, 0x2A, imptab);
    let imp = ne.imported_names_bytes();
    // The names the module references: at most what is left of 64 KiB.
    let room = 0xFF00usize.saturating_sub(b.len());
    b.extend_from_slice(&imp[..imp.len().min(room).min(0x8000)]);
    let enttab = b.len() as u16;
    put(&mut b, 0x04, enttab);
    b.extend_from_slice(&[0, 0, 0]);
    b.truncate(0x1_0000);
    b
}

/// Write a far pointer into segment `sel` at `off` (the loader's table).
fn put_far(uc: &mut Uc<'_>, sel: u16, off: u16, p: FarPtr) -> bool {
    let mut v = [0u8; 4];
    v[..2].copy_from_slice(&p.offset.to_le_bytes());
    v[2..].copy_from_slice(&p.selector.to_le_bytes());
    crate::win16::write_code(uc, sel, off, &v)
}

fn get_far(uc: &Uc<'_>, sel: u16, off: u16) -> Option<FarPtr> {
    Some(FarPtr {
        offset: uc.read_u16_at(sel, off).ok()?,
        selector: uc.read_u16_at(sel, off.wrapping_add(2)).ok()?,
    })
}

/// Where segment `n`'s entry (1-based) lies in an information block.
fn entry_at(n: u16) -> u16 {
    module_db::SEGMENT_TABLE + (n - 1) * module_db::SEGMENT_ENTRY_SIZE
}

/// The DOS path of `path` on the drive, if the file lies inside it.
fn path_on_drive(env: &Env, path: &Path) -> Option<String> {
    let d = env.drive.as_ref()?;
    let full = std::fs::canonicalize(path).ok()?;
    let root = std::fs::canonicalize(d.root()).ok()?;
    let rel = full.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_ascii_uppercase())
        .collect();
    (!parts.is_empty()).then(|| format!("C:\\{}", parts.join("\\")))
}

/// Run a self-loading application's loader for module `idx` (module
/// notes): BootApp, then LoadAppSeg for each segment still not loaded.
/// Afterwards the module's segments are those the loader allocated.
pub fn boot(uc: &mut Uc<'_>, env: &mut Env, idx: usize, path: &Path) -> Result<(), Win16LoadError> {
    let fname = path.display().to_string();
    let module = env.win16.modules[idx].clone();
    let Some(ne) = module.image.clone() else {
        return Ok(());
    };
    let hmodule = module.hmodule;
    let seg1 = module.segments[0];
    let kernel = crate::win16::kernel::builtin::ensure_builtin(uc, &mut env.win16, "KERNEL")?;
    let kernel_cs = env.win16.modules[kernel].segments[0];
    for (off, ord) in [
        (table::MY_ALLOC, ORD_MY_ALLOC),
        (table::ENTRY_ADDR_PROC, ORD_ENTRY_ADDR_PROC),
        (table::SET_OWNER, ORD_SET_OWNER),
    ] {
        let p = crate::win16::kernel::builtin::thunk_for(uc, &mut env.win16, kernel, ord, None)?;
        if !put_far(uc, seg1, off, p) {
            return Err(Win16LoadError(format!(
                "{fname}: the loader data table in segment 1 cannot be written"
            )));
        }
    }
    let far = |uc: &Uc<'_>, off: u16| {
        get_far(uc, seg1, off).ok_or_else(|| {
            Win16LoadError(format!(
                "{fname}: segment 1 is too short for its loader data table"
            ))
        })
    };
    let boot_app = far(uc, table::BOOT_APP)?;
    let load_app_seg = far(uc, table::LOAD_APP_SEG)?;
    // The file, open to the program through DOS.
    let Some(dos) = path_on_drive(env, path) else {
        return Err(Win16LoadError(format!(
            "{fname}: a self-loading application reads its own file through DOS, and this file \
             is not on drive C: (--dir)"
        )));
    };
    let hfile = match env.drive.as_mut().map(|d| d.open(dos.as_bytes(), 0)) {
        Some(Ok(h)) => h,
        Some(Err(e)) => {
            return Err(Win16LoadError(format!(
                "{fname}: opening {dos} for the application's loader: DOS error {}",
                e.0
            )));
        }
        None => unreachable!("path_on_drive found a drive"),
    };
    // The loader runs on a stack of its own, as Windows gave it.
    let stack = crate::machine::alloc_seg(uc, SegKind::Data, 0xFF00, &[])?;
    let saved = uc.regs();
    let run = |uc: &mut Uc<'_>, env: &mut Env, what: &str, target: FarPtr, args: &[CallArg]| {
        uc.set_reg(crate::machine::R::SS, stack)
            .and_then(|_| uc.set_reg(crate::machine::R::SP, 0xFF00))
            .map_err(|e| Win16LoadError(e.to_string()))?;
        crate::machine::record_event(
            uc,
            format!(
                "self-loader: {what} at {:04X}:{:04X}",
                target.selector, target.offset
            ),
        );
        callback::call_far(
            env,
            uc,
            kernel_cs,
            (target.selector, target.offset),
            stack,
            &[],
            args,
        )
        .map_err(|stop| {
            Win16LoadError(format!(
                "{fname}: the application's loader stopped in {what} ({:04X}:{:04X}): {}",
                target.selector,
                target.offset,
                crate::win16::kernel::loader::stop_text(&stop)
            ))
        })
    };
    let result = (|| {
        run(
            uc,
            env,
            "BootApp",
            boot_app,
            &[CallArg::W(hmodule), CallArg::W(hfile)],
        )?;
        for n in 2..=ne.segments.len() as u16 {
            let at = entry_at(n);
            let flags = uc.read_u16_at(hmodule, at + 4).unwrap_or(0);
            if flags & SEG_LOADED != 0 {
                continue;
            }
            let r = run(
                uc,
                env,
                &format!("LoadAppSeg({n})"),
                load_app_seg,
                &[CallArg::W(hmodule), CallArg::W(hfile), CallArg::W(n)],
            )?;
            let sel = r.value as u16;
            if sel == 0 {
                return Err(Win16LoadError(format!(
                    "{fname}: the application's LoadAppSeg returned 0 for segment {n}: it did \
                     not load it"
                )));
            }
            let handle = uc.read_u16_at(hmodule, at + 8).unwrap_or(0);
            if handle == 0 {
                let _ = uc.write_u16_at(hmodule, at + 8, sel);
            }
            let _ = uc.write_u16_at(hmodule, at + 4, flags | SEG_ALLOCATED | SEG_LOADED);
        }
        Ok(())
    })();
    if let Some(d) = env.drive.as_mut() {
        let _ = d.close(hfile);
    }
    let _ = uc.set_regs(&saved);
    let _ = crate::machine::free_seg(uc, stack);
    result?;
    // The segments the loader made.
    let mut sels = vec![seg1];
    for n in 2..=ne.segments.len() as u16 {
        let h = uc.read_u16_at(hmodule, entry_at(n) + 8).unwrap_or(0);
        let sel = selector_of_handle(h);
        let sel = if sel != 0 && uc.descriptor_of(sel).is_some() {
            sel
        } else {
            0
        };
        sels.push(sel);
    }
    let h = &ne.header;
    for (what, n) in [
        ("the entry point's segment (CS)", h.cs),
        ("the automatic data segment", h.auto_data_segment),
        ("the stack segment (SS)", h.ss),
    ] {
        if n != 0 && sels.get(usize::from(n) - 1).is_some_and(|&s| s == 0) {
            return Err(Win16LoadError(format!(
                "{fname}: the application's loader did not load segment {n}, {what}"
            )));
        }
    }
    let m = &mut env.win16.modules[idx];
    m.segments = sels.clone();
    m.exports.clear();
    for e in &ne.entries {
        if e.segment == 0xFE || e.segment == 0 {
            continue;
        }
        if let Some(&sel) = sels.get(usize::from(e.segment) - 1).filter(|&&s| s != 0) {
            m.exports.insert(
                e.ordinal,
                FarPtr {
                    selector: sel,
                    offset: e.offset,
                },
            );
        }
    }
    crate::win16::kernel::loader::register_segments(uc, &mut env.win16, &ne, hmodule, &sels);
    Ok(())
}

/// Call the ExitProc(hBlock) of task `htask`'s module when it is a
/// self-loading application and this is its last instance (module notes;
/// SDK, ExitProc). A null pointer in the table is not called.
pub fn exit_proc(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<(), Stop> {
    let Some(hmodule) = env.win16.task(htask).map(|t| t.hmodule) else {
        return Ok(());
    };
    if env
        .win16
        .tasks
        .iter()
        .any(|t| t.hmodule == hmodule && t.htask != htask)
    {
        return Ok(());
    }
    let Some(m) = env.win16.modules.iter().find(|m| m.hmodule == hmodule) else {
        return Ok(());
    };
    if !m.image.as_ref().is_some_and(|ne| ne.is_self_loading()) {
        return Ok(());
    }
    let Some(p) = m
        .segments
        .first()
        .and_then(|&s| get_far(uc, s, table::EXIT_PROC))
    else {
        return Ok(());
    };
    if p.selector == 0 {
        return Ok(());
    }
    let Some(kernel_cs) = env.win16.module_by_name("KERNEL").map(|k| k.segments[0]) else {
        return Ok(());
    };
    let ds = uc.reg(crate::machine::R::DS);
    crate::machine::record_event(
        uc,
        format!(
            "self-loader: ExitProc at {:04X}:{:04X}",
            p.selector, p.offset
        ),
    );
    callback::call_far(
        env,
        uc,
        kernel_cs,
        (p.selector, p.offset),
        ds,
        &[],
        &[CallArg::W(hmodule)],
    )?;
    Ok(())
}

/// KERNEL MyAlloc(wFlags, wSize, wElem) (module notes): DX = the
/// selector, AX = the handle; 0 when the memory cannot be had.
fn my_alloc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let flags = a[0] as u16;
    let shift = u32::from(a[2] as u16).min(16);
    let bytes = (u32::from(a[1] as u16) << shift).min(0x1_0000);
    let bytes = if bytes == 0 { 0x1_0000 } else { bytes };
    let data = flags & 0x0001 != 0;
    let kind = if data { SegKind::Data } else { SegKind::Code };
    let size = bytes.div_ceil(32) * 32;
    let Ok(sel) = crate::machine::alloc_seg(uc, kind, size, &[]) else {
        return Ok(0);
    };
    if !data && crate::machine::make_writable(uc, sel).is_err() {
        return Ok(0);
    }
    let moveable = flags & 0x0010 != 0;
    let gtype = if data { gt::DATA } else { gt::CODE };
    if let Some(b) = global::block_for(&*uc, sel, moveable, 0, false, gtype, None) {
        env.win16.global.insert(b);
    }
    let handle = if moveable { sel - 1 } else { sel };
    Ok(u32::from(sel) << 16 | u32::from(handle))
}

/// KERNEL EntryAddrProc(hBlock, wEntry) (module notes): the far address
/// of the entry, or 0.
fn entry_addr_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, ordinal) = (a[0] as u16, a[1] as u16);
    let Some(idx) = env.win16.module_for_handle(h) else {
        return Ok(0);
    };
    let m = &env.win16.modules[idx];
    if m.builtin {
        return Ok(
            match crate::win16::kernel::loader::import(uc, &mut env.win16, idx, ordinal, None) {
                Ok(p) => u32::from(p.selector) << 16 | u32::from(p.offset),
                Err(_) => 0,
            },
        );
    }
    let Some(e) = m.image.as_ref().and_then(|ne| ne.entry(ordinal).copied()) else {
        return Ok(0);
    };
    if e.segment == 0xFE {
        return Ok(u32::from(e.offset));
    }
    if e.segment == 0 {
        return Ok(0);
    }
    // The segment's handle as the module's segment table holds it now (a
    // self-loader fills it in as it allocates).
    let handle = uc
        .read_u16_at(m.hmodule, entry_at(u16::from(e.segment)) + 8)
        .unwrap_or(0);
    let sel = selector_of_handle(handle);
    if sel == 0 {
        return Ok(0);
    }
    Ok(u32::from(sel) << 16 | u32::from(e.offset))
}

/// KERNEL SetOwner(hSel, hOwner) (module notes).
fn set_owner(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sel = selector_of_handle(a[0] as u16);
    if let Some(b) = env.win16.global.find_mut(sel) {
        b.owner = a[1] as u16;
        b.pdb_owner = false;
    }
    Ok(0)
}

/// KERNEL.110 PatchCodeHandle(hSeg) (module notes): the handle in AX, the
/// selector in DX; 0 for a handle that names no segment.
fn patch_code_handle(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let sel = selector_of_handle(h);
    if sel == 0 || uc.descriptor_of(sel).is_none() {
        return Ok(0);
    }
    Ok(u32::from(sel) << 16 | u32::from(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
        for a in INTERNAL {
            assert!(crate::win16::api::find("KERNEL", a.ordinal).is_some());
        }
    }

    #[test]
    fn the_information_block_has_the_tables_at_their_offsets() {
        let f = crate::loader::testdata::sample_ne();
        let ne = NeImage::parse(&f).unwrap();
        let entries = [[1u8, 0, 2, 0, 3, 0, 4, 0], [5, 0, 6, 0, 7, 0, 8, 0]];
        let b = info_block(&ne, "HELLO", &entries, &[0x1117, 0], &[0x2227, 0x3337]);
        let w = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        assert_eq!(&b[0..2], b"NE");
        assert_eq!(w(0x02), 1, "usage");
        assert_eq!(w(0x1C), 2);
        assert_eq!(w(0x22), 0x40);
        assert_eq!(&b[0x40..0x48], &entries[0]);
        assert_eq!(w(0x48), 0x1117);
        assert_eq!(w(0x52), 0);
        let res = usize::from(w(0x26));
        assert_eq!(res, 0x54);
        assert_eq!(&b[res..res + 6], b"\x05HELLO");
        let modtab = usize::from(w(0x28));
        assert_eq!((w(modtab), w(modtab + 2)), (0x2227, 0x3337));
        let imp = usize::from(w(0x2A));
        assert_eq!(&b[imp + 1..imp + 6], b"\x04USER");
        assert_eq!((w(0x0E), w(0x10), w(0x12)), (2, 0x400, 0x1000));
    }
}
