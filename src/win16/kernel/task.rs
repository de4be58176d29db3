//! KERNEL's task queries beside the scheduler (scheduler.rs) and the
//! system services (system.rs): task queues, priorities, a task's data
//! segment, which handles are tasks, executable versions, code handles
//! and segment information.
//!
//! A task's priority starts at 0 and SetPriority moves it within -32..15
//! (Windows 3.1 SDK); the cooperative scheduler does not consult it. A
//! task's queue handle lives in its TDB (tdb.rs, `off::HQUEUE`), where
//! GetTaskQueue reads it and SetTaskQueue writes it.

use std::collections::HashMap;

use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::tdb;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 32, "SETPRIORITY", &[Arg::W, Arg::W], set_priority),
    Api::new(
        "KERNEL",
        33,
        "LOCKCURRENTTASK",
        &[Arg::W],
        lock_current_task,
    ),
    Api::new(
        "KERNEL",
        34,
        "SETTASKQUEUE",
        &[Arg::W, Arg::W],
        set_task_queue,
    ),
    Api::new("KERNEL", 35, "GETTASKQUEUE", &[Arg::W], get_task_queue),
    Api::new("KERNEL", 118, "GETTASKQUEUEDS", &[], get_task_queue_ds),
    Api::new("KERNEL", 119, "GETTASKQUEUEES", &[], get_task_queue_es),
    Api::new(
        "KERNEL",
        38,
        "SETTASKSIGNALPROC",
        &[Arg::W, Arg::L],
        set_task_signal_proc,
    ),
    Api::new("KERNEL", 41, "ENABLEDOS", &[], nothing),
    Api::new("KERNEL", 42, "DISABLEDOS", &[], nothing),
    Api::new("KERNEL", 93, "GETCODEHANDLE", &[Arg::L], get_code_handle),
    Api::new(
        "KERNEL",
        94,
        "DEFINEHANDLETABLE",
        &[Arg::W],
        define_handle_table,
    ),
    Api::new("KERNEL", 98, "GETLASTDISKCHANGE", &[], nothing),
    Api::new("KERNEL", 100, "VALIDATECODESEGMENTS", &[], nothing),
    Api::new(
        "KERNEL",
        104,
        "GETCODEINFO",
        &[Arg::L, Arg::L],
        get_code_info,
    ),
    Api::new("KERNEL", 105, "GETEXEVERSION", &[], get_exe_version),
    Api::new("KERNEL", 122, "ISTASKLOCKED", &[], is_task_locked),
    Api::new("KERNEL", 133, "GETEXEPTR", &[Arg::W], get_exe_ptr),
    Api::new("KERNEL", 155, "GETTASKDS", &[], get_task_ds),
    Api::new("KERNEL", 158, "ISWINOLDAPTASK", &[Arg::W], is_winoldap_task),
    Api::new("KERNEL", 165, "A20PROC", &[Arg::W], nothing),
    Api::new("KERNEL", 167, "GETEXPWINVER", &[Arg::W], get_exp_win_ver),
    Api::new("KERNEL", 199, "SETHANDLECOUNT", &[Arg::W], set_handle_count),
    Api::new("KERNEL", 200, "VALIDATEFREESPACES", &[], nothing),
    Api::new("KERNEL", 320, "ISTASK", &[Arg::W], is_task),
    Api::new("KERNEL", 323, "ISROMMODULE", &[Arg::W], is_rom),
    Api::new("KERNEL", 326, "ISROMFILE", &[Arg::W], is_rom),
    Api::new(
        "KERNEL",
        345,
        "ISSHAREDSELECTOR",
        &[Arg::W],
        is_shared_selector,
    ),
];

/// The DOS environment a Win16 task gets (PSP:2Ch, GetDOSEnvironment)
/// when the run adds nothing: what MS-DOS 5 and a fresh Windows 3.1
/// set-up leave in it. COMMAND.COM's COMSPEC and PROMPT $p$g (DOS 5's
/// AUTOEXEC.BAT); Windows Setup puts the Windows directory on the PATH
/// (with its SYSTEM directory here, where the system DLLs are) and, when
/// there is no TEMP, makes C:\WINDOWS\TEMP and sets TEMP to it; Windows
/// itself adds `windir` (lower case), "the drive and directory where
/// Windows is stored" (DOS technical reference, predefined environment
/// variables).
pub fn default_environment() -> Vec<(String, String)> {
    [
        ("COMSPEC", "C:\\COMMAND.COM"),
        ("PROMPT", "$p$g"),
        ("PATH", "C:\\WINDOWS;C:\\WINDOWS\\SYSTEM"),
        ("TEMP", "C:\\WINDOWS\\TEMP"),
        ("windir", "C:\\WINDOWS"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The environment the run gives Win16 tasks: the run's own
/// (`--env` applied), else [`default_environment`].
pub fn environment(env: &Env) -> Vec<(String, String)> {
    if env.win16.environment.is_empty() {
        default_environment()
    } else {
        env.win16.environment.clone()
    }
}

/// Priorities and the locked task.
#[derive(Clone, Debug, Default)]
pub struct TaskState {
    pub priority: HashMap<u16, i16>,
    /// LockCurrentTask's task, 0 when none.
    pub locked: u16,
    /// SetTaskSignalProc's procedures, by task.
    pub signal_procs: HashMap<u16, u32>,
}

/// KERNEL.38 SetTaskSignalProc(hTask, lpfnSignal): the procedure USER
/// calls with task signals (kept, never called: no signal is raised);
/// the previous one.
pub fn set_task_signal_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(t) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    Ok(env
        .win16
        .kernel
        .tasks
        .signal_procs
        .insert(t, a[1])
        .unwrap_or(0))
}

/// A function that does nothing and returns 0 (EnableDos, DisableDos,
/// GetLastDiskChange, ValidateCodeSegments, A20Proc, ValidateFreeSpaces:
/// nothing to do in protected mode on this machine).
pub fn nothing(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.32 SetPriority(hTask, nChangeAmount): the task's new priority,
/// kept within -32..15.
pub fn set_priority(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(t) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    let p = env.win16.kernel.tasks.priority.entry(t).or_insert(0);
    *p = (*p + a[1] as u16 as i16).clamp(-32, 15);
    Ok(u32::from(*p as u16))
}

/// KERNEL.33 LockCurrentTask(fLock): the current task is locked (TRUE) or
/// unlocked; the locked task's handle, 0 when none.
pub fn lock_current_task(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = &mut env.win16.kernel.tasks.locked;
    *t = if a[0] as u16 != 0 {
        uc.get_data().current_task
    } else {
        0
    };
    Ok(u32::from(*t))
}

/// KERNEL.122 IsTaskLocked(): the locked task, 0 when none.
pub fn is_task_locked(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.kernel.tasks.locked))
}

/// KERNEL.35 GetTaskQueue(hTask): the task's message queue handle.
pub fn get_task_queue(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(t) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    Ok(u32::from(uc.read_u16_at(t, tdb::off::HQUEUE).unwrap_or(0)))
}

/// The current task's queue, loaded into segment register `r`: what
/// KERNEL.118 GetTaskQueueDS and KERNEL.119 GetTaskQueueES do for USER
/// (undocumented; Wine's KERNEL notes): AX = the queue, and DS or ES
/// = it (unchanged when the task has no queue yet).
fn task_queue_into(env: &mut Env, uc: &mut Uc<'_>, r: R) -> Result<u32, Stop> {
    let current = uc.get_data().current_task;
    let q = get_task_queue(env, uc, &[u32::from(current)])? as u16;
    if q != 0 {
        let _ = uc.set_reg(r, q);
    }
    Ok(u32::from(q))
}

/// KERNEL.118 GetTaskQueueDS() ([`task_queue_into`]).
pub fn get_task_queue_ds(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    task_queue_into(env, uc, R::DS)
}

/// KERNEL.119 GetTaskQueueES() ([`task_queue_into`]).
pub fn get_task_queue_es(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    task_queue_into(env, uc, R::ES)
}

/// KERNEL.34 SetTaskQueue(hTask, hQueue): the previous queue handle.
pub fn set_task_queue(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(t) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    let old = uc.read_u16_at(t, tdb::off::HQUEUE).unwrap_or(0);
    let _ = uc.write_u16_at(t, tdb::off::HQUEUE, a[1] as u16);
    Ok(u32::from(old))
}

/// KERNEL.155 GetTaskDS(): the current task's automatic data segment.
pub fn get_task_ds(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .task(uc.get_data().current_task)
        .map_or(0, |t| u32::from(t.dgroup)))
}

/// KERNEL.320 IsTask(hTask): TRUE for a running task's handle.
pub fn is_task(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        a[0] as u16 != 0 && env.win16.task(a[0] as u16).is_some(),
    ))
}

/// KERNEL.158 IsWinOldApTask(hTask): FALSE (no DOS box runs here).
pub fn is_winoldap_task(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.323 IsRomModule and KERNEL.326 IsRomFile: FALSE (nothing runs
/// from ROM).
pub fn is_rom(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.345 IsSharedSelector(hSel): FALSE (no block is shared between
/// tasks here except a DLL's, which this does not report).
pub fn is_shared_selector(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.133 GetExePtr(hInstance): the module handle of any handle a
/// module has (instance, module, segment); 0 otherwise.
pub fn get_exe_ptr(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .module_for_handle(a[0] as u16)
        .map_or(0, |i| u32::from(env.win16.modules[i].hmodule)))
}

/// The expected Windows version in a module's NE header (3.10 for a
/// built-in module).
fn exp_version(env: &Env, idx: usize) -> u16 {
    env.win16.modules[idx]
        .image
        .as_ref()
        .map_or(0x030A, |ne| ne.header.expected_windows_version)
}

/// KERNEL.105 GetExeVersion(): the current task's expected Windows
/// version.
pub fn get_exe_version(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let Some(t) = env.win16.task(uc.get_data().current_task) else {
        return Ok(0);
    };
    let h = t.hmodule;
    Ok(env
        .win16
        .module_for_handle(h)
        .map_or(0, |i| u32::from(exp_version(env, i))))
}

/// KERNEL.167 GetExpWinVer(hModule): the module's expected Windows
/// version; 0 for a bad handle.
pub fn get_exp_win_ver(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let idx = if h == 0 {
        env.win16
            .task(uc.get_data().current_task)
            .and_then(|t| env.win16.module_for_handle(t.hmodule))
    } else {
        env.win16.module_for_handle(h)
    };
    Ok(idx.map_or(0, |i| u32::from(exp_version(env, i))))
}

/// KERNEL.199 SetHandleCount(wNumber): the number of file handles the task
/// now has: the request, at most 255, as the SDK documents.
pub fn set_handle_count(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from((a[0] as u16).min(255)))
}

/// KERNEL.94 DefineHandleTable(wOffset): TRUE (protected mode has no
/// handle table to update).
pub fn define_handle_table(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The module index and 1-based segment number that `lpfn` names: a far
/// pointer into one of a module's segments, or (SDK) a module handle in
/// the high word and a segment number in the low one.
fn segment_of(env: &Env, p: u32) -> Option<(usize, u16)> {
    let (sel, off) = farptr::split(p);
    if let Some(i) = env.win16.modules.iter().position(|m| m.hmodule == sel) {
        return (usize::from(off) <= env.win16.modules[i].segments.len() && off != 0)
            .then_some((i, off));
    }
    env.win16.modules.iter().enumerate().find_map(|(i, m)| {
        m.segments
            .iter()
            .position(|&s| s & !3 == sel & !3)
            .map(|k| (i, k as u16 + 1))
    })
}

/// KERNEL.93 GetCodeHandle(lpfnCode): the handle of the code segment
/// holding the function (a moveable segment's handle is its selector -
/// 1); 0 when it is in no module.
pub fn get_code_handle(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((i, n)) = segment_of(env, a[0]) else {
        return Ok(0);
    };
    let sel = env.win16.modules[i].segments[usize::from(n) - 1];
    Ok(env
        .win16
        .global
        .find(sel)
        .map_or(u32::from(sel), |b| u32::from(b.handle)))
}

/// KERNEL.104 GetCodeInfo(lpProc, lpSegInfo): fills SEGINFO (offSegment,
/// cbSegment, flags, cbAlloc, h, alignShift, reserved[2]: words, the first
/// four as the NE segment table has them); TRUE, FALSE when lpProc names
/// no module's segment.
pub fn get_code_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some((i, n)) = segment_of(env, a[0]) else {
        return Ok(0);
    };
    let m = &env.win16.modules[i];
    let sel = m.segments[usize::from(n) - 1];
    let handle = env.win16.global.find(sel).map_or(sel, |b| b.handle);
    let (sector, len, flags, min, shift) = match m.image.as_ref().and_then(|ne| {
        ne.segment(n).map(|s| {
            (
                s.sector,
                s.length_raw,
                s.flags,
                s.min_alloc_raw,
                ne.header.alignment_shift_raw,
            )
        })
    }) {
        Some(v) => v,
        None => {
            let size = uc.descriptor_of(sel).map_or(0, |d| (d.limit + 1) as u16);
            (0, size, 0, size, 0)
        }
    };
    let mut b = Vec::with_capacity(16);
    for w in [sector, len, flags, min, handle, shift, 0, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    Ok(u32::from(farptr::write_bytes(uc, a[1], &b)))
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
    fn task_queries() {
        let (mut m, mut env, htask) = kernsvc();
        let t = env.win16.task(htask).unwrap().clone();
        let mut call = |f: crate::win16::api::ApiFn, a: &[u32]| f(&mut env, &mut m, a).unwrap();
        assert_eq!(call(set_priority, &[0, 5]), 5);
        assert_eq!(call(set_priority, &[0, 20]), 15);
        assert_eq!(call(set_priority, &[0, 0xFF00]) as u16 as i16, -32);
        assert_eq!(call(get_task_queue, &[0]), 0);
        assert_eq!(call(set_task_queue, &[0, 0x1234]), 0);
        assert_eq!(call(get_task_queue, &[u32::from(htask)]), 0x1234);
        assert_eq!(call(get_task_ds, &[]), u32::from(t.dgroup));
        assert_eq!(call(is_task, &[u32::from(htask)]), 1);
        assert_eq!(call(is_task, &[u32::from(t.dgroup)]), 0);
        assert_eq!(
            call(get_exe_ptr, &[u32::from(t.hinstance)]),
            u32::from(t.hmodule)
        );
        assert_eq!(call(get_exe_version, &[]), 0x030A);
        assert_eq!(call(set_handle_count, &[300]), 255);
        assert_eq!(call(set_handle_count, &[30]), 30);
        assert_eq!(call(lock_current_task, &[1]), u32::from(htask));
        assert_eq!(call(is_task_locked, &[]), u32::from(htask));
    }

    #[test]
    fn code_handles_and_segment_info() {
        let (mut m, mut env, _) = kernsvc();
        let me = env.win16.module_by_name("KERNSVC").unwrap().clone();
        let f = farptr::make(me.segments[1], 0x10);
        assert_eq!(
            get_code_handle(&mut env, &mut m, &[f]).unwrap(),
            u32::from(me.segments[1])
        );
        let ds = m.reg(R::DS);
        let buf = farptr::make(ds, 0x300);
        assert_eq!(get_code_info(&mut env, &mut m, &[f, buf]).unwrap(), 1);
        let ne = me.image.as_ref().unwrap();
        let s = ne.segment(2).unwrap();
        assert_eq!(m.read_u16_at(ds, 0x302).unwrap(), s.length_raw);
        assert_eq!(m.read_u16_at(ds, 0x304).unwrap(), s.flags);
        assert_eq!(m.read_u16_at(ds, 0x308).unwrap(), me.segments[1]);
        assert_eq!(m.read_u16_at(ds, 0x30A).unwrap(), 4);
        // hModule:segment works too.
        let by_number = farptr::make(me.hmodule, 2);
        assert_eq!(
            get_code_handle(&mut env, &mut m, &[by_number]).unwrap(),
            u32::from(me.segments[1])
        );
        assert_eq!(
            get_code_info(&mut env, &mut m, &[0x1234_0000, buf]).unwrap(),
            0
        );
    }
}
