//! What is left of KERNEL's memory functions beside the global and local
//! heaps (global.rs, local/): huge pointers (hmemcpy and the helpers
//! `_hread` and `_hwrite` use), free space, page and wire locks, and the
//! notification and handler procedures a program registers.
//!
//! # Huge pointers
//!
//! A huge pointer `sel:off` reaches byte `n` of its block at
//! `sel + (off + n) / 64 KiB * __AHINCR : (off + n) % 64 KiB` (Windows 3.1
//! SDK, "Huge memory"): a copy that crosses a 64 KiB boundary goes on at
//! offset 0 of the next selector. [`read_huge`] and [`write_huge`] copy
//! that way, a piece per selector.
//!
//! # Registered procedures
//!
//! LocalNotify, GlobalNotify and SetResourceHandler keep the procedure and
//! return the one before it (LocalNotify, SetResourceHandler). GlobalNotify's
//! procedure is called before GlobalCompact discards a GMEM_NOTIFY block
//! (global.rs, "Discarded blocks"); LocalNotify's and the resource
//! handlers are never called (local blocks are moved and discarded without
//! telling, resources are never discarded). LocalHandleDelta keeps its
//! number.

use std::collections::HashMap;

use super::selector::AHINCR;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// KERNEL.26 GlobalFreeAll(wOwner): every block GlobalAlloc made for
/// owner wOwner (a task's PDB, or a module for GMEM_DDESHARE blocks)
/// is freed, as KERNEL does when a task ends (Wine's notes; the SDK does
/// not document it). 0 names the calling task's PDB. The blocks the
/// loader made and the block that is the stack stay (GlobalFree's
/// rules, global.rs). Answers 0.
pub fn global_free_all(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let owner = match a[0] as u16 {
        0 => env
            .win16
            .task(uc.get_data().current_task)
            .map_or(0, |t| t.psp),
        o => o,
    };
    if owner == 0 {
        return Ok(0);
    }
    let mine: Vec<u16> = env
        .win16
        .global
        .blocks()
        .iter()
        .filter(|b| b.dynamic && b.owner == owner)
        .map(|b| b.selector)
        .collect();
    for sel in mine {
        crate::win16::global::free_block(env, uc, sel);
    }
    Ok(0)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 14, "LOCALNOTIFY", &[Arg::L], local_notify),
    Api::new("KERNEL", 26, "GLOBALFREEALL", &[Arg::W], global_free_all),
    Api::new(
        "KERNEL",
        67,
        "SETRESOURCEHANDLER",
        &[Arg::W, Arg::L, Arg::L],
        set_resource_handler,
    ),
    Api::new("KERNEL", 111, "GLOBALWIRE", &[Arg::W], global_wire),
    Api::new("KERNEL", 112, "GLOBALUNWIRE", &[Arg::W], global_unwire),
    Api::new("KERNEL", 154, "GLOBALNOTIFY", &[Arg::L], global_notify),
    Api::new(
        "KERNEL",
        159,
        "GLOBALHANDLENORIP",
        &[Arg::W],
        global_handle_no_rip,
    ),
    Api::new("KERNEL", 163, "GLOBALLRUOLDEST", &[Arg::W], global_lru),
    Api::new("KERNEL", 164, "GLOBALLRUNEWEST", &[Arg::W], global_lru),
    Api::new("KERNEL", 169, "GETFREESPACE", &[Arg::W], get_free_space),
    Api::new("KERNEL", 191, "GLOBALPAGELOCK", &[Arg::W], global_page_lock),
    Api::new(
        "KERNEL",
        192,
        "GLOBALPAGEUNLOCK",
        &[Arg::W],
        global_page_unlock,
    ),
    Api::new("KERNEL", 197, "GLOBALFIX", &[Arg::W], global_fix),
    Api::new("KERNEL", 198, "GLOBALUNFIX", &[Arg::W], global_unfix),
    Api::new(
        "KERNEL",
        310,
        "LOCALHANDLEDELTA",
        &[Arg::W],
        local_handle_delta,
    ),
    Api::new("KERNEL", 348, "HMEMCPY", &[Arg::L, Arg::L, Arg::L], hmemcpy),
    Api::new("KERNEL", 156, "LIMITEMSPAGES", &[Arg::L], limit_ems_pages),
    Api::new(
        "KERNEL",
        106,
        "SETSWAPAREASIZE",
        &[Arg::W],
        set_swap_area_size,
    ),
    Api::new("KERNEL", 138, "GETHEAPSPACES", &[Arg::W], get_heap_spaces),
];

/// Registered procedures and counts (module notes).
#[derive(Clone, Debug, Default)]
pub struct MemoryState {
    /// LocalNotify's procedure.
    pub local_notify: u32,
    /// GlobalNotify's procedure, by task.
    pub global_notify: HashMap<u16, u32>,
    /// SetResourceHandler's procedures, by (module, type).
    pub resource_handlers: HashMap<(u16, u32), u32>,
    /// LocalHandleDelta's number of handles (32 until set).
    pub handle_delta: Option<u16>,
    /// GlobalPageLock and GlobalFix counts, by selector.
    pub page_locks: HashMap<u16, u16>,
}

/// The largest huge copy (the global heap's own bound).
pub const MAX_HUGE: u32 = crate::win16::global::ARENA_LIMIT;

/// The far pointer `n` bytes into a huge object at `p` (module notes).
pub fn huge_add(p: u32, n: u32) -> u32 {
    let (sel, off) = farptr::split(p);
    let lin = u32::from(off) + n;
    let sel = sel.wrapping_add((lin >> 16) as u16 * AHINCR);
    farptr::make(sel, lin as u16)
}

/// Read `n` bytes of a huge object at `p`; None when any piece cannot be
/// read.
pub fn read_huge(uc: &Uc<'_>, p: u32, n: u32) -> Option<Vec<u8>> {
    if n > MAX_HUGE {
        return None;
    }
    let mut out = Vec::with_capacity(n as usize);
    let mut done = 0u32;
    while done < n {
        let q = huge_add(p, done);
        let (_, off) = farptr::split(q);
        let piece = (0x1_0000 - u32::from(off)).min(n - done);
        out.extend_from_slice(&farptr::read_bytes(uc, q, piece as usize)?);
        done += piece;
    }
    Some(out)
}

/// Write `data` into a huge object at `p`; false when a piece cannot be
/// written (the pieces before it are written).
pub fn write_huge(uc: &mut Uc<'_>, p: u32, data: &[u8]) -> bool {
    let mut done = 0usize;
    while done < data.len() {
        let q = huge_add(p, done as u32);
        let (_, off) = farptr::split(q);
        let piece = (0x1_0000 - usize::from(off)).min(data.len() - done);
        if !farptr::write_bytes(uc, q, &data[done..done + piece]) {
            return false;
        }
        done += piece;
    }
    true
}

/// KERNEL.348 hmemcpy(hpvDest, hpvSource, cbCopy): copies across 64 KiB
/// boundaries (module notes); overlapping copies come out as if through a
/// buffer. Nothing when a piece cannot be read.
pub fn hmemcpy(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(b) = read_huge(uc, a[1], a[2]) {
        write_huge(uc, a[0], &b);
    }
    Ok(0)
}

/// KERNEL.14 LocalNotify(lpNotifyProc): the previous procedure.
pub fn local_notify(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(std::mem::replace(
        &mut env.win16.kernel.memory.local_notify,
        a[0],
    ))
}

/// KERNEL.154 GlobalNotify(lpNotifyProc): kept for the current task.
pub fn global_notify(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = uc.get_data().current_task;
    env.win16.kernel.memory.global_notify.insert(t, a[0]);
    Ok(0)
}

/// KERNEL.67 SetResourceHandler(hInstance, lpszType, lpLoadFunc): the
/// previous handler for that type (NULL at first).
pub fn set_resource_handler(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let m = env
        .win16
        .module_for_handle(a[0] as u16)
        .map_or(0, |i| env.win16.modules[i].hmodule);
    // A type named by a string is kept by its text's hash-free identity:
    // its pointer (programs pass the same literal).
    let ty = if farptr::is_int(a[1]) {
        a[1] & 0xFFFF
    } else {
        a[1]
    };
    let _ = uc;
    Ok(env
        .win16
        .kernel
        .memory
        .resource_handlers
        .insert((m, ty), a[2])
        .unwrap_or(0))
}

/// KERNEL.310 LocalHandleDelta(nNewDelta): the number of handles the local
/// heap makes at a time; 0 asks without changing it.
pub fn local_handle_delta(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let d = &mut env.win16.kernel.memory.handle_delta;
    if a[0] as u16 != 0 {
        *d = Some(a[0] as u16);
    }
    Ok(u32::from(d.unwrap_or(32)))
}

/// KERNEL.111 GlobalWire(hMem): as GlobalLock (the block is already where
/// it stays).
pub fn global_wire(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::win16::global::global_lock(env, uc, a)
}

/// KERNEL.112 GlobalUnWire(hMem): as GlobalUnlock; TRUE when the block is
/// unlocked.
pub fn global_unwire(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let still = crate::win16::global::global_unlock(env, uc, a)?;
    Ok(u32::from(
        still == 0 && env.win16.global.find(a[0] as u16).is_some(),
    ))
}

/// KERNEL.159 GlobalHandleNoRIP(wSel): GlobalHandle without the debug
/// version's complaint about a bad selector.
pub fn global_handle_no_rip(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::win16::global::global_handle(env, uc, a)
}

/// KERNEL.163 GlobalLRUOldest(hMem) and KERNEL.164 GlobalLRUNewest: move a
/// discardable block in the LRU list; the handle, 0 for a bad one. The
/// list order does not matter here (nothing is discarded).
pub fn global_lru(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    Ok(if env.win16.global.find(h).is_some() {
        u32::from(h)
    } else {
        0
    })
}

/// KERNEL.169 GetFreeSpace(fuFlags): bytes free in the global heap (what
/// is left of its 16 MiB, global.rs "Limits").
pub fn get_free_space(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.global.free())
}

/// A lock count of `h`'s block, changed by `delta`; None for a bad handle.
fn page_lock(env: &mut Env, h: u16, delta: i32) -> Option<u16> {
    let sel = env.win16.global.find(h)?.selector;
    let c = env.win16.kernel.memory.page_locks.entry(sel).or_insert(0);
    *c = (i32::from(*c) + delta).clamp(0, 0xFFFF) as u16;
    Some(*c)
}

/// KERNEL.191 GlobalPageLock(hSel): the new page-lock count, 0 for a bad
/// selector.
pub fn global_page_lock(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(page_lock(env, a[0] as u16, 1).map_or(0, u32::from))
}

/// KERNEL.192 GlobalPageUnlock(hSel): the new page-lock count.
pub fn global_page_unlock(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(page_lock(env, a[0] as u16, -1).map_or(0, u32::from))
}

/// KERNEL.197 GlobalFix(hGlobal): locks the block in place (a lock
/// count); its selector.
pub fn global_fix(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = crate::win16::global::global_lock(env, uc, a)?;
    Ok(p >> 16)
}

/// KERNEL.198 GlobalUnfix(hGlobal): undoes a GlobalFix.
pub fn global_unfix(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::win16::global::global_unlock(env, uc, a)?;
    Ok(0)
}

/// KERNEL.156 LimitEMSPages(dwKbytes): 0 (no expanded memory in protected
/// mode: the SDK's answer in standard and enhanced mode).
pub fn limit_ems_pages(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.106 SetSwapAreaSize(cCodeParagraphs): in enhanced mode nothing
/// is swapped this way: AX the size granted (the request), DX the largest
/// possible (the same).
pub fn set_swap_area_size(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = a[0] & 0xFFFF;
    Ok(n << 16 | n)
}

/// KERNEL.138 GetHeapSpaces(hModule): DX the size of the module's local
/// heap segment (its DGROUP), AX the bytes free in it; 0 for a bad handle.
pub fn get_heap_spaces(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(i) = env.win16.module_for_handle(a[0] as u16) else {
        return Ok(0);
    };
    let m = env.win16.modules[i].clone();
    let (_, ds) = super::library::instance_of(&m, 0);
    if ds == 0 {
        return Ok(0);
    }
    let total = uc
        .descriptor_of(ds)
        .map_or(0, |d| (d.limit + 1).min(0xFFFF));
    let free = crate::win16::local::heap_free(env, ds).unwrap_or(0);
    Ok(total << 16 | u32::from(free))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::R;
    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn huge_pointers_step_by_ahincr() {
        assert_eq!(huge_add(0x1007_FFF0, 0x20), 0x100F_0010);
        assert_eq!(huge_add(0x1007_0000, 0x2_0000), 0x1017_0000);
        assert_eq!(huge_add(0x1007_1234, 0), 0x1007_1234);
    }

    #[test]
    fn registered_procedures_come_back() {
        let (mut m, mut env, _) = kernsvc();
        assert_eq!(local_notify(&mut env, &mut m, &[0x1234_5678]).unwrap(), 0);
        assert_eq!(local_notify(&mut env, &mut m, &[0]).unwrap(), 0x1234_5678);
        assert_eq!(local_handle_delta(&mut env, &mut m, &[0]).unwrap(), 32);
        assert_eq!(local_handle_delta(&mut env, &mut m, &[8]).unwrap(), 8);
        let ds = m.reg(R::DS);
        assert!(get_free_space(&mut env, &mut m, &[0]).unwrap() > 0x10_0000);
        assert_eq!(
            global_page_lock(&mut env, &mut m, &[u32::from(ds)]).unwrap(),
            1
        );
        assert_eq!(
            global_page_lock(&mut env, &mut m, &[u32::from(ds)]).unwrap(),
            2
        );
        assert_eq!(
            global_page_unlock(&mut env, &mut m, &[u32::from(ds)]).unwrap(),
            1
        );
        assert_eq!(global_page_lock(&mut env, &mut m, &[0x0FF7]).unwrap(), 0);
    }
}
