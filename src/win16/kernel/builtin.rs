//! The built-in modules (KERNEL, USER, GDI and the other system DLLs
//! written in Rust): KERNEL's module table holds each as a module
//! database and one code segment of thunks, `int F0h; retf N`, which the
//! dispatch sends to the module's Rust function (win16/dispatch.rs).
//! Also the module database's bytes for every module, built in or
//! loaded, and the entry of a segment in KERNEL's global arena.

use std::collections::HashMap;

use crate::loader::ne::FarPtr;
use crate::machine::{Cpu, SegKind, Uc, alloc_seg, make_writable};
use crate::walk::CodeOwner;
use crate::win16::global::{self, gt};
use crate::win16::kernel::signal::signals;
use crate::win16::tdb::module_db;
use crate::win16::{
    API_INT, Module, THUNK_SIZE, THUNKS_PER_MODULE, Thunk, Win16, Win16LoadError, api, write_code,
};

/// Enter an existing segment in the global arena (global.rs, "Owners and
/// types").
#[allow(clippy::too_many_arguments)]
pub(crate) fn register(
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
pub(crate) fn module_db_bytes(
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
    // The module's own start, as KERNEL runs a DLL's initialization
    // when it loads it: GDI's data segment and heap, with the stock
    // objects in it, exist from GDI's start (gdi/heap.rs).
    (signals().builtin_init)(m, w, idx);
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
