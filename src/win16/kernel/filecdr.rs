//! FileCDR: the one procedure KERNEL tells when a program changes a file
//! or directory, which File Manager sets so that its windows follow what
//! other programs do to the disk (undocumented; what KRNL386 does, as
//! others have read it out of KRNL386.EXE).
//!
//! - `FileCDR(lpfnNotify)` with a pointer whose selector is FFFFh answers
//!   the procedure set (NULL for none). With another pointer it sets it
//!   (NULL clears it) and answers 1 — unless another task's procedure is
//!   set, when it answers 0 and leaves that one.
//! - After a DOS call through DOS3Call that creates a file (3Ch, 5Bh),
//!   deletes one (41h), renames one (56h), makes or removes a directory
//!   (39h, 3Ah) or sets attributes (4301h) succeeds, the procedure is
//!   called (wFunction, lpszPath): wFunction the AX of the call, lpszPath
//!   the whole path (drive, the current directory unless the path starts
//!   at the root, the path as given; a rename's new name after the old
//!   one's NUL), in a block of global memory freed after the call.
//!   KERNEL's own functions tell it too: `_lcreat` as 3C00h, OpenFile's
//!   OF_CREATE as 3C01h and OF_DELETE as 4100h, DeletePathName as 4100h.
//!   A program's own INT 21h (not through DOS3Call) is not seen here.

use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::{farptr, global};

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new("KERNEL", 130, "FILECDR", &[Arg::L], file_cdr)];

/// The procedure and the task that set it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCdr {
    pub proc_: u32,
    pub owner: u16,
}

/// Does a DOS call (by its AX) change the disk so that the procedure is
/// told (module doc)?
pub fn tells(ax: u16) -> bool {
    matches!(ax >> 8, 0x39 | 0x3A | 0x3C | 0x41 | 0x56 | 0x5B) || ax == 0x4301
}

/// KERNEL.130 FileCDR(lpfnNotify) (module doc).
pub fn file_cdr(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = a[0];
    let hook = &mut env.win16.kernel.file_cdr;
    if p >> 16 == 0xFFFF {
        return Ok(hook.proc_);
    }
    let task = uc.get_data().current_task;
    if hook.proc_ >> 16 != 0 && hook.owner != task {
        return Ok(0);
    }
    hook.proc_ = p;
    hook.owner = task;
    Ok(1)
}

/// The whole path of `path` (module doc).
pub fn whole_path(env: &Env, path: &[u8]) -> Vec<u8> {
    let (drive, rest) = match path {
        [d, b':', rest @ ..] => (d.to_ascii_uppercase(), rest),
        _ => (b'C', path),
    };
    let mut whole = vec![drive, b':'];
    if !matches!(rest.first(), Some(b'\\' | b'/')) {
        // The current directory as DOS keeps it: "" at the root, else
        // "DIR\\SUB".
        let cwd = env.drive.as_ref().map(|d| d.getcwd()).unwrap_or_default();
        whole.push(b'\\');
        if !cwd.is_empty() {
            whole.extend_from_slice(cwd.as_bytes());
            whole.push(b'\\');
        }
    }
    whole.extend_from_slice(rest);
    whole
}

/// Tell the procedure, if one is set, of a change: `ax` the DOS function,
/// `path` as given, `second` a rename's new name.
pub fn notify(
    env: &mut Env,
    uc: &mut Uc<'_>,
    ax: u16,
    path: &[u8],
    second: Option<&[u8]>,
) -> Result<(), Stop> {
    let hook = env.win16.kernel.file_cdr;
    if hook.proc_ >> 16 == 0 {
        return Ok(());
    }
    let mut text = whole_path(env, path);
    if let Some(s) = second {
        text.push(0);
        text.extend_from_slice(s);
    }
    text.push(0);
    let owner = global::Owner {
        owner: env.win16.task(hook.owner).map_or(0, |t| t.hmodule),
        pdb_owner: false,
        kind: global::gt::UNKNOWN,
    };
    let h = global::alloc_block(env, uc, 0x2042, text.len() as u32, &text, owner);
    if h == 0 {
        return Ok(());
    }
    let sel = crate::win16::selector_of_handle(h);
    let cs = env
        .win16
        .module_by_name("KERNEL")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("KERNEL's thunk segment is missing".into()))?;
    let ds = env
        .win16
        .task(hook.owner)
        .map_or(uc.reg(R::DS), |t| t.dgroup);
    let args = [CallArg::W(ax), CallArg::L(farptr::make(sel, 0))];
    let r = call_far(env, uc, cs, farptr::split(hook.proc_), ds, &[], &args);
    global::free_block(env, uc, h);
    r.map(|_| ())
}

/// After a DOS call through DOS3Call (kernel/mod.rs): tell the procedure
/// of a change that succeeded. `before` holds AX, DS, DX, ES and DI as
/// the call was made.
pub fn after_dos_call(env: &mut Env, uc: &mut Uc<'_>, before: [u16; 5]) -> Result<(), Stop> {
    let [ax, ds, dx, es, di] = before;
    if env.win16.kernel.file_cdr.proc_ >> 16 == 0 || !tells(ax) || uc.reg(R::FLAGS) & 1 != 0 {
        return Ok(());
    }
    let path = farptr::read_cstr(uc, farptr::make(ds, dx), 128).unwrap_or_default();
    let second = (ax >> 8 == 0x56)
        .then(|| farptr::read_cstr(uc, farptr::make(es, di), 128).unwrap_or_default());
    notify(env, uc, ax, &path, second.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_of_changes_only() {
        for ax in [0x3C00, 0x5B00, 0x4100, 0x5600, 0x3900, 0x3A00, 0x4301] {
            assert!(tells(ax), "{ax:04X}");
        }
        for ax in [0x3D00, 0x3E00, 0x4000, 0x4300, 0x4E00] {
            assert!(!tells(ax), "{ax:04X}");
        }
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
