//! Fault translation: an access the TLB hook refused, or execution past
//! a code segment's limit, turned into the fault the 286 would have raised
//! at the instruction that caused it.

use super::{
    Cause, CpuMode, FIRST_LDT_INDEX, Fault, MemType, Regs, SLOT_BASE, SLOT_SIZE, Stop, Uc,
    descriptor, exception, insn_bytes, uc_error, uc_words,
};
use crate::machine::Cpu;

/// Turn an access the TLB hook refused (tlb.rs) into the fault the 286
/// would have raised, at the faulting instruction.
pub(super) fn translate_error(uc: &mut Uc<'_>, e: uc_error) -> Stop {
    let regs = uc.regs();
    let fault = uc.get_data_mut().tlb_fault.take();
    match (e, fault) {
        (uc_error::FETCH_UNMAPPED | uc_error::FETCH_PROT, _) | (_, Some((MemType::FETCH, _))) => {
            code_overrun(uc, regs)
        }
        (_, Some((t, page))) => {
            let write = matches!(
                t,
                MemType::WRITE_UNMAPPED | MemType::WRITE_PROT | MemType::WRITE
            );
            let insn = insn_bytes(uc, regs.cs, regs.ip);
            let cause = exception::access_cause(uc, &regs, write, Some(page));
            // An SS-relative access past the stack segment is a stack
            // fault; any other a general-protection fault.
            let via_ss = match &cause {
                Some(Cause::Access { segment, .. }) => *segment == "SS",
                _ => uses_ss(&insn),
            };
            let number = if via_ss { 12 } else { 13 };
            if let Some(cause) = cause {
                return Stop::Fault(Fault::with_cause(number, regs, cause));
            }
            let what = if write { "write" } else { "read" };
            let detail = match locate(uc, page) {
                Some((sel, off, limit)) => {
                    format!("{what} at {sel:04X}:{off:04X} past the segment limit {limit:04X}")
                }
                None => format!("{what} at linear {page:08X} outside every segment"),
            };
            Stop::Fault(Fault::new(number, regs, detail))
        }
        // Real mode maps all the 1 MiB and the HMA: an access outside them
        // has an effective address past FFFFh, made with a 32-bit
        // address-size prefix (67h). A 386 faults on it: #SS through SS,
        // else #GP (Intel SDM vol. 2, real-address mode exceptions: "if a
        // memory operand effective address is outside the ... segment
        // limit"). Found by the `commands` fuzz target
        // (tests/fuzz_regressions.rs, RECORD.COM).
        (uc_error::READ_UNMAPPED | uc_error::WRITE_UNMAPPED, None)
            if uc.get_data().mode == CpuMode::Real =>
        {
            let insn = insn_bytes(uc, regs.cs, regs.ip);
            let number = if uses_ss(&insn) { 12 } else { 13 };
            Stop::Fault(Fault::new(
                number,
                regs,
                "an effective address past FFFFh (32-bit addressing), outside the 64 KiB segment",
            ))
        }
        (e, None) => Stop::Error(format!(
            "emulation failed at {:04X}:{:04X}: {}",
            regs.cs,
            regs.ip,
            uc_words(e)
        )),
    }
}

/// Which segment's hole a linear address lies in: (selector, offset,
/// limit).
pub(super) fn locate(uc: &Uc<'_>, addr: u64) -> Option<(u16, u32, u32)> {
    if uc.get_data().mode != CpuMode::Protected || addr < SLOT_BASE {
        return None;
    }
    let slot = (addr - SLOT_BASE) / SLOT_SIZE;
    let index = FIRST_LDT_INDEX as u64 + slot;
    if index >= u64::from(uc.get_data().next_ldt) {
        return None;
    }
    let sel = descriptor::ldt_selector(index as u16);
    let d = uc.descriptor_of(sel)?;
    let off = addr.checked_sub(u64::from(d.base))?;
    Some((sel, off as u32, d.limit))
}

/// Execution left a code segment (a near jump or a fall-through past its
/// limit): #GP at the instruction that did it, as the 286 checks the
/// target before it jumps. `regs` are those at the target (CS:IP past the
/// limit).
///
/// No hook per block runs on the fast path, so the machine does not know
/// which block ran last; it finds the jump from what the jump left behind,
/// the same way whether a hook ran or not (so a traced run reports the
/// same fault as an untraced one): [`jumper`].
pub(super) fn code_overrun(uc: &Uc<'_>, regs: Regs) -> Stop {
    let d = uc.descriptor_of(regs.cs);
    let limit = d.map(|d| d.limit).unwrap_or(0);
    let mut r = regs;
    if let Some(ip) = jumper(uc, &regs, limit) {
        r.ip = ip;
    }
    Stop::Fault(Fault::with_cause(
        13,
        r,
        Cause::CodeLimit {
            target: regs.ip,
            limit,
        },
    ))
}

/// The offset of the instruction that sent execution to CS:IP, past the
/// segment's `limit`, judged from the registers and the code: a near call
/// whose return address is on top of the stack (direct, or through a
/// register or memory operand that still holds the target); a direct near
/// jump, conditional jump or loop to the target. When several direct
/// jumps qualify, the last one in the segment. None when nothing
/// explains it: execution fell off the end (reported at the target, the
/// offset past the limit, as before), or a `ret` or an indirect `jmp`
/// went there (they leave no trace of where they were).
pub(super) fn jumper(uc: &Uc<'_>, regs: &Regs, limit: u32) -> Option<u16> {
    use iced_x86::{Decoder, DecoderOptions, FlowControl, Instruction, OpKind};
    let target = regs.ip;
    let len = (limit as usize + 1).min(0x1_0000);
    let mut code = vec![0u8; len];
    uc.read_seg(regs.cs, 0, &mut code).ok()?;
    let decode_at = |o: usize| -> Instruction {
        let mut d = Decoder::with_ip(16, &code[o..], o as u64, DecoderOptions::NONE);
        d.decode()
    };
    // A near call: the return address on the stack ends it.
    if let Ok(ret) = uc.read_u16_at(regs.ss, regs.sp) {
        for back in 2..=5u16 {
            let o = ret.wrapping_sub(back) as usize;
            if o >= len || ret as usize > len {
                continue;
            }
            let i = decode_at(o);
            if i.is_invalid()
                || i.len() != usize::from(back)
                || !matches!(
                    i.flow_control(),
                    FlowControl::Call | FlowControl::IndirectCall
                )
                || i.is_call_far()
                || i.is_call_far_indirect()
            {
                continue;
            }
            let goes = match i.op0_kind() {
                OpKind::NearBranch16 => i.near_branch16() == target,
                OpKind::Register => exception::reg16_of(regs, i.op0_register()) == Some(target),
                OpKind::Memory => exception::read_operand_of(uc, regs, &i) == Some(target),
                _ => false,
            };
            if goes {
                return Some(o as u16);
            }
        }
    }
    // A direct jump to the target.
    let mut found = None;
    for o in 0..len {
        let i = decode_at(o);
        if i.is_invalid() || o + i.len() > len {
            continue;
        }
        let direct = matches!(
            i.flow_control(),
            FlowControl::UnconditionalBranch | FlowControl::ConditionalBranch
        ) && i.op0_kind() == OpKind::NearBranch16;
        if direct && i.near_branch16() == target {
            found = Some(o as u16);
        }
    }
    if found.is_some() {
        return found;
    }
    None
}

/// Does this instruction address memory through SS (explicit override, a
/// BP-based operand, or an implicit stack operation)?
pub(super) fn uses_ss(bytes: &[u8]) -> bool {
    use iced_x86::{Decoder, DecoderOptions, OpKind, Register};
    let mut dec = Decoder::new(16, bytes, DecoderOptions::NONE);
    let i = dec.decode();
    if i.is_invalid() {
        return false;
    }
    if i.is_stack_instruction() {
        return true;
    }
    (0..i.op_count()).any(|n| i.op_kind(n) == OpKind::Memory && i.memory_segment() == Register::SS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Intel's rules for the default segment (SDM vol. 1, 3.7.4): a
    /// BP-based operand and the stack instructions use SS, BX-, SI- and
    /// DI-based operands DS; a segment override replaces the default.
    #[test]
    fn stack_accesses_are_those_through_ss() {
        assert!(uses_ss(&[0x8B, 0x46, 0x04])); // mov ax,[bp+4]
        assert!(uses_ss(&[0x50])); // push ax
        assert!(uses_ss(&[0xC3])); // ret
        assert!(uses_ss(&[0x36, 0x8B, 0x07])); // mov ax,ss:[bx]
        assert!(!uses_ss(&[0x8B, 0x07])); // mov ax,[bx]
        assert!(!uses_ss(&[0x26, 0x8B, 0x46, 0x04])); // mov ax,es:[bp+4]
        assert!(!uses_ss(&[0x90])); // nop
        assert!(!uses_ss(&[])); // nothing to decode
    }
}
