//! Calls from system functions back into the program: window and dialog
//! procedures, enumeration callbacks, timer procedures.
//!
//! A system function runs in Rust inside the interrupt hook of its thunk
//! (`int F0h; retf N`), with SS:SP at the far return address into the
//! program. To call the program it builds on the same stack what the real
//! system function's code would have left there, so a stack walk from inside
//! the callback climbs through it:
//!
//! ```text
//!   program's frames ...
//!   far return into the program (the call of the system function)  <- SP at entry
//!   caller's BP | 1           <- BP of the system function's frame (far, odd)
//!   scratch data (a CREATESTRUCT, a MINMAXINFO ...), if any
//!   the callback's arguments, Pascal order (first pushed first)
//!   far return into the system module's code segment (CALLBACK_RETURN)
//! ```
//!
//! The system function's frame is the Windows far prologue's (`inc bp; push
//! bp; mov bp,sp`, toolhelp.md "Prologue conventions"): StackTraceNext from
//! the callback's frame finds the odd saved BP, reports the return into the
//! system module (module and segment of that module's thunk segment), then
//! the program's frame that called the system function.
//!
//! The callback runs in a nested emulation ([`crate::machine::run_nested`])
//! that ends when it returns to CALLBACK_RETURN. DS and AX hold the
//! instance's data segment, as for any exported callback whose prologue
//! loads DS from AX. Every register is restored afterwards except what the
//! system function then returns in DX:AX.

use super::CALLBACK_RETURN;
use crate::dos::host;
use crate::machine::{Cpu, Environment, R, Stop, Uc, run_nested};
use crate::walk::WalkMemory as _;
use crate::win16::Env;

/// One argument pushed for a callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallArg {
    /// A WORD.
    W(u16),
    /// A DWORD or far pointer: the high word is pushed first.
    L(u32),
    /// A far pointer to the scratch data pushed for this call.
    Scratch,
    /// A far pointer `n` bytes into the scratch data (a callback given
    /// two structures, as EnumFonts' LOGFONT and TEXTMETRIC).
    ScratchAt(u16),
}

/// What a callback returned, and the scratch data as it left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallResult {
    /// DX:AX.
    pub value: u32,
    pub scratch: Vec<u8>,
}

/// Call the program's far function `target` (selector, offset) from the
/// system module whose thunk segment is `module_cs`, with DS = AX = `ds`.
/// `scratch` is copied onto the stack first and [`CallArg::Scratch`] points
/// at it.
pub fn call_far(
    env: &mut Env,
    uc: &mut Uc<'_>,
    module_cs: u16,
    target: (u16, u16),
    ds: u16,
    scratch: &[u8],
    args: &[CallArg],
) -> Result<CallResult, Stop> {
    let saved = uc.regs();
    let ss = saved.ss;
    // Everything pushed below: the frame's BP, the scratch data, the
    // arguments and the far return. A stack without room for it is a
    // stack fault, as when Windows pushed it.
    let len = (scratch.len() as u16 + 1) & !1;
    let arg_bytes: u16 = args
        .iter()
        .map(|a| match a {
            CallArg::W(_) => 2,
            CallArg::L(_) | CallArg::Scratch | CallArg::ScratchAt(_) => 4,
        })
        .sum();
    crate::machine::stack_room(
        uc,
        2u16.saturating_add(len)
            .saturating_add(arg_bytes)
            .saturating_add(4),
    )?;
    // The system function's frame.
    uc.push16(saved.bp | 1).map_err(host)?;
    let frame_bp = uc.reg(R::SP);
    // Scratch data, word-aligned.
    let scratch_off = frame_bp.wrapping_sub(len);
    if len > 0 {
        let mut data = scratch.to_vec();
        data.resize(usize::from(len), 0);
        uc.write_seg(ss, scratch_off, &data).map_err(|e| {
            Stop::Error(format!(
                "no room on the stack {:04X}:{:04X} for a callback frame: {e}",
                saved.ss, saved.sp
            ))
        })?;
        uc.set_reg(R::SP, scratch_off).map_err(host)?;
    }
    for a in args {
        match *a {
            CallArg::W(w) => uc.push16(w),
            CallArg::L(l) => uc
                .push16((l >> 16) as u16)
                .and_then(|_| uc.push16(l as u16)),
            CallArg::Scratch => uc.push16(ss).and_then(|_| uc.push16(scratch_off)),
            CallArg::ScratchAt(n) => uc
                .push16(ss)
                .and_then(|_| uc.push16(scratch_off.wrapping_add(n))),
        }
        .map_err(|e| Stop::Error(format!("callback arguments: {}", e.0)))?;
    }
    uc.push16(module_cs)
        .and_then(|_| uc.push16(CALLBACK_RETURN))
        .map_err(host)?;
    for (reg, v) in [
        (R::BP, frame_bp),
        (R::DS, ds),
        (R::ES, ds),
        (R::AX, ds),
        (R::CS, target.0),
        (R::IP, target.1),
    ] {
        uc.set_reg(reg, v).map_err(host)?;
    }
    let until = uc
        .descriptor(module_cs)
        .map(|d| u64::from(d.base) + u64::from(CALLBACK_RETURN))
        .ok_or_else(|| Stop::Error(format!("callback return segment {module_cs:04X}")))?;
    // The nested run belongs to the calling task (scheduler.rs, "Callbacks
    // and switching").
    crate::machine::note_call(uc, target, (module_cs, CALLBACK_RETURN));
    let owner = uc.get_data().current_task;
    env.win16.scheduler.level_owner.push(owner);
    let boxed: Box<dyn Environment> = Box::new(std::mem::take(env));
    let (back, res) = run_nested(uc, boxed, until);
    let back: Box<dyn std::any::Any> = back;
    match back.downcast::<Env>() {
        Ok(e) => *env = *e,
        Err(_) => return Err(Stop::Error("the environment changed type".into())),
    }
    env.win16.scheduler.level_owner.pop();
    res?;
    let value = u32::from(uc.reg(R::DX)) << 16 | u32::from(uc.reg(R::AX));
    let mut out = vec![0u8; scratch.len()];
    if !out.is_empty() {
        let _ = uc.read_seg(ss, scratch_off, &mut out);
    }
    uc.set_regs(&saved).map_err(host)?;
    Ok(CallResult {
        value,
        scratch: out,
    })
}
