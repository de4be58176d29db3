//! KERNEL's loader (LoadModule's work): an NE program's or DLL's segments
//! loaded into the global arena, its imports resolved (built-in modules'
//! thunks, DLLs found on the search path, loaded first), its relocations
//! applied, its module database written; a program's task made.

use std::path::{Path, PathBuf};

use super::super::kernel::builtin::{ensure_builtin, module_db_bytes, register, thunk_for};
use super::super::kernel::module;
use super::super::{
    BUILTIN_MODULES, CodeOwner, Env, HashMap, Module, Task, Tdb, UNKNOWN_NAME_ORDINAL, Win16,
    Win16LoadError, global::gt, kernel, prologue, scheduler, search, tdb,
};
use crate::loader::ne::{FarPtr, NeImage, RelocTarget};
use crate::machine::{Cpu, SegKind, Stop, Uc, alloc_seg, make_writable};

/// How many distinct DLLs one chain of imports may pass through (each
/// module is loaded once, so a cycle ends at the first module met again;
/// this bounds only the loader's recursion).
const MAX_DLL_DEPTH: usize = 32;

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
            // coprocessor present (osfixup.rs).
            super::osfixup::apply_os_fixups(&mut data, &seg.relocs);
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
    // USER's initialization: its predefined window classes (BUTTON,
    // EDIT, ... and dialogs), through KERNEL's table of USER's procedures
    // (signal.rs).
    (super::signal::signals().user_init)(m, &mut env.win16)?;
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
        super::osfixup::apply_os_fixups(&mut data, &seg.relocs);
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
