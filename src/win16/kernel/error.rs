//! KERNEL's parameter checking and error reporting: the IsBad*Ptr
//! functions, LogError, LogParamError, `_DebugOutput`, DebugBreak, and the
//! few answers a retail (non-debugging) Windows 3.1 gives about itself.
//!
//! # Pointer checks
//!
//! IsBadReadPtr, IsBadWritePtr, IsBadCodePtr, IsBadStringPtr and the huge
//! forms answer from the descriptor tables, as Windows 3.1's did (they
//! checked the selector's type and limit with LAR and LSL, Windows 3.1
//! SDK): a pointer is bad when its selector names no segment, the range
//! passes the segment's limit, or the segment is of the wrong kind (a
//! code segment cannot be written; a data segment holds no code). A count
//! of 0 is never bad. A huge range goes on into the next selectors, 8 apart.
//!
//! # Errors
//!
//! LogError and LogParamError are what a debugging Windows reports and a
//! retail one ignores; both are recorded here, as OutputDebugString's text
//! is (`ERR_...` numbers in hex), and the program goes on. DebugBreak
//! executes a breakpoint (INT 3) in the program that called it: a fault
//! handler (TOOLHELP's InterruptRegister) sees exception 3 at the caller's
//! return address; without one the run stops there.

use crate::dos::host;
use crate::machine::{Cpu, Fault, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 203, "DEBUGBREAK", &[], debug_break),
    Api::new(
        "KERNEL",
        207,
        "ISDBCSLEADBYTE",
        &[Arg::W],
        is_dbcs_lead_byte,
    ),
    Api::new("KERNEL", 324, "LOGERROR", &[Arg::W, Arg::L], log_error),
    Api::new(
        "KERNEL",
        325,
        "LOGPARAMERROR",
        &[Arg::W, Arg::L, Arg::L],
        log_param_error,
    ),
    Api::cdecl(
        "KERNEL",
        328,
        "_DEBUGOUTPUT",
        &[Arg::W, Arg::L],
        debug_output,
    ),
    Api::new(
        "KERNEL",
        334,
        "ISBADREADPTR",
        &[Arg::L, Arg::W],
        is_bad_read_ptr,
    ),
    Api::new(
        "KERNEL",
        335,
        "ISBADWRITEPTR",
        &[Arg::L, Arg::W],
        is_bad_write_ptr,
    ),
    Api::new("KERNEL", 336, "ISBADCODEPTR", &[Arg::L], is_bad_code_ptr),
    Api::new(
        "KERNEL",
        337,
        "ISBADSTRINGPTR",
        &[Arg::L, Arg::W],
        is_bad_string_ptr,
    ),
    Api::new(
        "KERNEL",
        346,
        "ISBADHUGEREADPTR",
        &[Arg::L, Arg::L],
        is_bad_huge_read_ptr,
    ),
    Api::new(
        "KERNEL",
        347,
        "ISBADHUGEWRITEPTR",
        &[Arg::L, Arg::L],
        is_bad_huge_write_ptr,
    ),
    Api::new("KERNEL", 338, "HASGPHANDLER", &[Arg::L], has_gp_handler),
    Api::new(
        "KERNEL",
        354,
        "GETAPPCOMPATFLAGS",
        &[Arg::W],
        get_app_compat_flags,
    ),
    Api::new(
        "KERNEL",
        355,
        "GETWINDEBUGINFO",
        &[Arg::L, Arg::W],
        get_win_debug_info,
    ),
    Api::new(
        "KERNEL",
        356,
        "SETWINDEBUGINFO",
        &[Arg::L],
        set_win_debug_info,
    ),
];

/// What a range must allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Read,
    Write,
    Execute,
}

/// Is `[off, off + len)` of selector `sel` usable as `need` asks (module
/// notes)? `len` may run past 64 KiB into the next selectors.
fn good(uc: &Uc<'_>, p: u32, len: u32, need: Need) -> bool {
    if len == 0 {
        return true;
    }
    let (mut sel, off) = farptr::split(p);
    let mut start = u32::from(off);
    let mut left = len;
    loop {
        if sel & !3 == 0 {
            return false;
        }
        let Some(d) = uc.descriptor_of(sel) else {
            return false;
        };
        let kind_ok = match need {
            Need::Read => !d.is_code() || d.access & 0x02 != 0,
            Need::Write => !d.is_code() && d.access & 0x02 != 0,
            Need::Execute => d.is_code(),
        };
        if !kind_ok {
            return false;
        }
        let piece = (0x1_0000 - start).min(left);
        if start + piece - 1 > d.limit {
            return false;
        }
        left -= piece;
        if left == 0 {
            return true;
        }
        sel = sel.wrapping_add(super::selector::AHINCR);
        start = 0;
    }
}

/// KERNEL.334 IsBadReadPtr(lp, cb).
pub fn is_bad_read_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(!good(uc, a[0], a[1] & 0xFFFF, Need::Read)))
}

/// KERNEL.335 IsBadWritePtr(lp, cb).
pub fn is_bad_write_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(!good(uc, a[0], a[1] & 0xFFFF, Need::Write)))
}

/// KERNEL.346 IsBadHugeReadPtr(lp, cb).
pub fn is_bad_huge_read_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(!good(uc, a[0], a[1], Need::Read)))
}

/// KERNEL.347 IsBadHugeWritePtr(lp, cb).
pub fn is_bad_huge_write_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(!good(uc, a[0], a[1], Need::Write)))
}

/// KERNEL.336 IsBadCodePtr(lpfn): bad unless the selector is code and the
/// offset within it.
pub fn is_bad_code_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(!good(uc, a[0], 1, Need::Execute)))
}

/// KERNEL.337 IsBadStringPtr(lpsz, cchMax): bad when a byte before the
/// terminating NUL (or the first cchMax bytes) cannot be read.
pub fn is_bad_string_ptr(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let max = a[1] & 0xFFFF;
    if max == 0 {
        return Ok(0);
    }
    let (sel, off) = farptr::split(a[0]);
    let Some(d) = uc.descriptor_of(sel).filter(|_| sel & !3 != 0) else {
        return Ok(1);
    };
    if !d.is_code() || d.access & 0x02 != 0 {
        let mut o = u32::from(off);
        for _ in 0..max {
            if o > d.limit || o > 0xFFFF {
                return Ok(1);
            }
            match farptr::read_bytes(uc, farptr::make(sel, o as u16), 1) {
                Some(b) if b[0] == 0 => return Ok(0),
                Some(_) => o += 1,
                None => return Ok(1),
            }
        }
        return Ok(0);
    }
    Ok(1)
}

/// KERNEL.324 LogError(uErr, lpvInfo): recorded with the debug output.
pub fn log_error(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.debug_output.push(format!(
        "LogError({:04X}, {:04X}:{:04X})",
        a[0] as u16,
        a[1] >> 16,
        a[1] & 0xFFFF
    ));
    let e = super::notify::NfyLogError {
        w_err_code: a[0] as u16,
        lp_info: a[1],
    };
    super::notify::log_error(env, uc, &e)?;
    Ok(0)
}

/// KERNEL.325 LogParamError(uErr, lpfn, lpvParam): recorded with the debug
/// output; TOOLHELP's callbacks get NFY_LOGPARAMERROR.
pub fn log_param_error(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.debug_output.push(format!(
        "LogParamError({:04X}, {:04X}:{:04X}, {:08X})",
        a[0] as u16,
        a[1] >> 16,
        a[1] & 0xFFFF,
        a[2]
    ));
    super::notify::log_param_error(env, uc, a[0] as u16, a[1], a[2])?;
    Ok(0)
}

/// KERNEL.328 _DebugOutput(flags, lpsz, ...): cdecl; the text formatted
/// as wsprintf formats it, recorded with the debug output.
pub fn debug_output(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(fmt) = farptr::read_cstr(uc, a[1], 0x400) else {
        return Ok(0);
    };
    // The variable arguments follow the fixed ones: return address (4),
    // flags (2), format (4).
    let at = farptr::make(uc.reg(R::SS), uc.reg(R::SP).wrapping_add(10));
    let mut args = crate::win16::strings::ArgCursor::new(at);
    let text = crate::win16::strings::format(uc, &fmt, &mut args);
    env.debug_output
        .push(String::from_utf8_lossy(&text).into_owned());
    Ok(0)
}

/// KERNEL.203 DebugBreak(): a breakpoint in the caller (module notes).
pub fn debug_break(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let (cs, ip, _) = crate::win16::api_caller(uc);
    let sp = uc.reg(R::SP).wrapping_add(4);
    uc.set_reg(R::SP, sp).map_err(host)?;
    uc.set_reg(R::CS, cs).map_err(host)?;
    uc.set_reg(R::IP, ip).map_err(host)?;
    let regs = uc.regs();
    Err(Stop::Fault(Fault::new(
        3,
        regs,
        "DebugBreak: a breakpoint (INT 3) in the program",
    )))
}

/// KERNEL.207 IsDBCSLeadByte(bTestChar): FALSE (a single-byte code page).
pub fn is_dbcs_lead_byte(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.338 HasGPHandler(lpFault): the GP-fault handler the faulting
/// module's C runtime declared for that address, or NULL. Windows 3.1
/// looked the module owning the address's selector up for an export named
/// `__GP`: a table of four-word entries (selector, first offset, offset
/// past the end, handler offset; the selectors fixed up at load), ended by
/// a selector of 0. The handler of the first entry whose selector is the
/// address's and whose range holds its offset is the answer, a far
/// pointer into that selector (the table's format as Wine documents it).
pub fn has_gp_handler(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(gp_handler(env, uc, a[0]).unwrap_or(0))
}

/// Most entries a `__GP` table is read for: a table without its end
/// marker stops at the segment's end, or here.
const MAX_GP_ENTRIES: u16 = 0x1000;

/// HasGPHandler's work (also the default action's, fault.rs).
pub fn gp_handler(env: &Env, uc: &Uc<'_>, address: u32) -> Option<u32> {
    let (sel, off) = farptr::split(address);
    if sel == 0 {
        return None;
    }
    let (m, _) = env.win16.owner_of(sel)?;
    let ord = *m.export_names.get("__GP")?;
    let table = *m.exports.get(&ord)?;
    for i in 0..MAX_GP_ENTRIES {
        let at = table.offset.checked_add(i.checked_mul(8)?)?;
        let mut e = [0u16; 4];
        for (k, w) in e.iter_mut().enumerate() {
            *w = uc
                .read_u16_at(table.selector, at.checked_add(2 * k as u16)?)
                .ok()?;
        }
        let [s, start, end, handler] = e;
        if s == 0 {
            return None;
        }
        if s == sel && (start..end).contains(&off) {
            return Some(farptr::make(sel, handler));
        }
    }
    None
}

/// KERNEL.354 GetAppCompatFlags(hTask): 0, no compatibility hacks.
pub fn get_app_compat_flags(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.355 GetWinDebugInfo(lpwdi, flags): FALSE, the retail version's
/// answer (only the debugging version keeps WINDEBUGINFO).
pub fn get_win_debug_info(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KERNEL.356 SetWinDebugInfo(lpwdi): FALSE, as GetWinDebugInfo.
pub fn set_win_debug_info(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn pointers_are_checked_against_descriptors() {
        let (mut m, mut env, _) = kernsvc();
        let ds = m.reg(R::DS);
        let code = env.win16.module_by_name("KERNSVC").unwrap().segments[0];
        let limit = m.descriptor_of(ds).unwrap().limit;
        let p = farptr::make(ds, 0);
        let mut call = |f: crate::win16::api::ApiFn, a: &[u32]| f(&mut env, &mut m, a).unwrap();
        assert_eq!(call(is_bad_read_ptr, &[p, 16]), 0);
        assert_eq!(call(is_bad_read_ptr, &[p, limit + 1]), 0);
        assert_eq!(call(is_bad_read_ptr, &[p, limit + 2]), 1);
        assert_eq!(call(is_bad_read_ptr, &[0, 0]), 0);
        assert_eq!(call(is_bad_read_ptr, &[0x0000_0010, 1]), 1);
        assert_eq!(call(is_bad_write_ptr, &[p, 4]), 0);
        let c = farptr::make(code, 0);
        assert_eq!(call(is_bad_write_ptr, &[c, 4]), 1);
        assert_eq!(call(is_bad_read_ptr, &[c, 4]), 0);
        assert_eq!(call(is_bad_code_ptr, &[c]), 0);
        assert_eq!(call(is_bad_code_ptr, &[p]), 1);
        assert_eq!(call(is_bad_huge_read_ptr, &[p, 0x2_0000]), 1);
        m.write_seg(ds, limit as u16, b"x").unwrap();
        let mut call = |f: crate::win16::api::ApiFn, a: &[u32]| f(&mut env, &mut m, a).unwrap();
        assert_eq!(
            call(is_bad_string_ptr, &[farptr::make(ds, limit as u16), 100]),
            1
        );
        assert_eq!(
            call(is_bad_string_ptr, &[farptr::make(ds, limit as u16), 1]),
            0
        );
        assert_eq!(call(is_bad_string_ptr, &[p, 0]), 0);
    }
}
