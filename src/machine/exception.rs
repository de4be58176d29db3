//! Exception records: what a processor fault was, where, and what the
//! faulting instruction tried to do (win16.md, "Faults": "what fault, at
//! which MODULE:segment:offset and CS:IP, the instruction there, the
//! registers").
//!
//! The machine builds one [`Fault`] per fault with the registers as they
//! were before the faulting instruction. Its [`Cause`] is the structured
//! part a debugger needs beyond the number: for a memory access, the
//! segment register, selector, offset, size, direction, the segment's limit
//! and the linear address; for a segment-register load, the register and
//! the selector refused; for code that ran past its segment, the target and
//! the limit. The `detail` sentence is written from the cause.

use iced_x86::{Decoder, DecoderOptions, Instruction, InstructionInfoFactory, OpAccess, Register};

use super::{Cpu, Regs, Uc};

/// Processor exceptions by number, with the names Windows used.
pub fn fault_name(number: u8) -> &'static str {
    match number {
        0 => "divide error",
        1 => "single step",
        3 => "breakpoint",
        4 => "overflow",
        5 => "bound range exceeded",
        6 => "invalid opcode",
        7 => "coprocessor not available",
        8 => "double fault",
        10 => "invalid TSS",
        11 => "segment not present",
        12 => "stack fault",
        13 => "general protection fault",
        14 => "page fault",
        16 => "coprocessor error",
        _ => "exception",
    }
}

/// What the faulting instruction did wrong, as structured data.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cause {
    /// A data or stack access outside its segment: past the limit, or
    /// through a null selector.
    Access {
        /// The segment register used: "DS", "ES", "SS", "CS", ...
        segment: &'static str,
        /// Its selector.
        selector: u16,
        /// The offset of the first byte accessed.
        offset: u16,
        /// Bytes accessed.
        size: u16,
        /// A write (else a read).
        write: bool,
        /// The segment's limit; None for a null or invalid selector.
        limit: Option<u32>,
        /// The linear address of the access (the segment's base + offset),
        /// when the selector has a descriptor.
        linear: Option<u32>,
    },
    /// Loading a segment register with a selector the CPU refused.
    SelectorLoad {
        /// "DS", "ES", "SS", ...
        register: &'static str,
        /// The selector, when it came from a register.
        selector: Option<u16>,
        /// "invalid", "not present" or "null".
        reason: &'static str,
    },
    /// Execution left its code segment (a near jump past the limit, or a
    /// fall-through off the end).
    CodeLimit {
        /// The offset execution went to.
        target: u16,
        /// The code segment's limit.
        limit: u32,
    },
}

/// A processor fault, stopped at the faulting instruction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fault {
    /// Exception number (0 divide error, 6 invalid opcode, 12 stack fault,
    /// 13 general protection, ...).
    pub number: u8,
    /// CS of the faulting instruction.
    pub cs: u16,
    /// IP of the faulting instruction (for INT 3, of the INT 3 itself).
    pub ip: u16,
    /// What a debugger wants to know beyond the number, in a sentence.
    pub detail: String,
    /// The same, as data, when the instruction's operands explain it.
    pub cause: Option<Cause>,
    /// Registers as they were before the faulting instruction.
    pub regs: Regs,
}

impl Fault {
    /// A fault at the registers' CS:IP.
    pub fn new(number: u8, regs: Regs, detail: impl Into<String>) -> Fault {
        Fault {
            number,
            cs: regs.cs,
            ip: regs.ip,
            detail: detail.into(),
            cause: None,
            regs,
        }
    }

    /// A fault explained by `cause` (the detail sentence is written from
    /// it).
    pub fn with_cause(number: u8, regs: Regs, cause: Cause) -> Fault {
        Fault {
            detail: cause.sentence(),
            cause: Some(cause),
            ..Fault::new(number, regs, "")
        }
    }
}

impl Cause {
    /// The cause as a sentence, for the text report and `detail`.
    pub fn sentence(&self) -> String {
        match self {
            Cause::Access {
                segment,
                selector,
                offset,
                size,
                write,
                limit,
                ..
            } => {
                let what = if *write { "write" } else { "read" };
                match limit {
                    _ if selector & !3 == 0 => format!(
                        "{what} of {size} byte(s) at {segment}:{offset:04X} through a null selector ({segment} = {selector:04X})"
                    ),
                    Some(limit) => format!(
                        "{what} of {size} byte(s) at {segment}:{offset:04X} ({selector:04X}:{offset:04X}) past the segment limit {limit:04X}"
                    ),
                    None => format!(
                        "{what} of {size} byte(s) at {segment}:{offset:04X} through selector {selector:04X}, which has no descriptor"
                    ),
                }
            }
            Cause::SelectorLoad {
                register,
                selector,
                reason,
            } => {
                let sel = selector.map(|s| format!(" {s:04X}")).unwrap_or_default();
                format!("loading {register} with {reason} selector{sel}")
            }
            Cause::CodeLimit { target, limit } => format!(
                "execution went to offset {target:04X}, past the code segment limit {limit:04X}"
            ),
        }
    }
}

/// The instruction at CS:IP, decoded (16-bit).
fn decode(uc: &Uc<'_>, regs: &Regs) -> Option<Instruction> {
    let bytes = super::insn_bytes(uc, regs.cs, regs.ip);
    let mut dec = Decoder::new(16, &bytes, DecoderOptions::NONE);
    let insn = dec.decode();
    (!insn.is_invalid()).then_some(insn)
}

fn seg_name(r: Register) -> Option<&'static str> {
    Some(match r {
        Register::ES => "ES",
        Register::CS => "CS",
        Register::SS => "SS",
        Register::DS => "DS",
        Register::FS => "FS",
        Register::GS => "GS",
        _ => return None,
    })
}

fn reg16(regs: &Regs, r: Register) -> Option<u16> {
    Some(match r {
        Register::AX => regs.ax,
        Register::BX => regs.bx,
        Register::CX => regs.cx,
        Register::DX => regs.dx,
        Register::SI => regs.si,
        Register::DI => regs.di,
        Register::BP => regs.bp,
        Register::SP => regs.sp,
        Register::ES => regs.es,
        Register::CS => regs.cs,
        Register::SS => regs.ss,
        Register::DS => regs.ds,
        Register::FS => regs.fs,
        Register::GS => regs.gs,
        Register::AL => regs.ax & 0xFF,
        Register::BL => regs.bx & 0xFF,
        Register::CL => regs.cx & 0xFF,
        Register::DL => regs.dx & 0xFF,
        Register::AH => regs.ax >> 8,
        Register::BH => regs.bx >> 8,
        Register::CH => regs.cx >> 8,
        Register::DH => regs.dx >> 8,
        _ => return None,
    })
}

/// The memory access of the instruction at CS:IP that left its segment.
///
/// `write` is the direction the emulator reported, `linear` the address it
/// could not reach (None when unknown). Of the instruction's memory
/// operands (explicit ones and the implicit stack and string ones), the one
/// whose bytes include `linear`, else the first in that direction, is
/// named.
pub fn access_cause(uc: &Uc<'_>, regs: &Regs, write: bool, linear: Option<u64>) -> Option<Cause> {
    let insn = decode(uc, regs)?;
    let mut factory = InstructionInfoFactory::new();
    let info = factory.info(&insn);
    let mut candidates = Vec::new();
    for m in info.used_memory() {
        let Some(segment) = seg_name(m.segment()) else {
            continue;
        };
        let selector = reg16(regs, m.segment())?;
        // The offset: the effective address with a segment base of 0.
        let offset = m.virtual_address(0, |r, _, _| {
            if seg_name(r).is_some() {
                Some(0)
            } else {
                reg16(regs, r).map(u64::from)
            }
        })? as u16;
        let size = m.memory_size().size() as u16;
        let writes = matches!(
            m.access(),
            OpAccess::Write | OpAccess::ReadWrite | OpAccess::CondWrite | OpAccess::ReadCondWrite
        );
        let reads = matches!(
            m.access(),
            OpAccess::Read | OpAccess::CondRead | OpAccess::ReadWrite | OpAccess::ReadCondWrite
        );
        let d = if selector & !3 == 0 {
            None
        } else {
            uc.descriptor_of(selector)
        };
        let lin = d.map(|d| d.base.wrapping_add(u32::from(offset)));
        let cause = Cause::Access {
            segment,
            selector,
            offset,
            size,
            write: if write { writes } else { !reads && writes },
            limit: d.map(|d| d.limit),
            linear: lin,
        };
        let hits = match (lin, linear) {
            (Some(l), Some(at)) => {
                let (l, at) = (u64::from(l), at);
                at >= l && at < l + u64::from(size.max(1))
            }
            _ => false,
        };
        let direction = if write { writes } else { reads };
        candidates.push((hits, direction, cause));
    }
    candidates
        .iter()
        .find(|c| c.0)
        .or_else(|| candidates.iter().find(|c| c.1))
        .or(candidates.first())
        .map(|c| c.2.clone())
}

/// Why a #GP, #NP, #SS or #TS at a segment-register load happened, when the
/// instruction at CS:IP is one (`mov es,ax`, `pop ds`, `les`, `lds`, ...).
pub fn load_cause(uc: &Uc<'_>, regs: &Regs, number: u8) -> Option<Cause> {
    use iced_x86::{Mnemonic, OpKind};
    let insn = decode(uc, regs)?;
    let reason = match number {
        11 => "not present",
        _ => "invalid",
    };
    let (register, selector) = match insn.mnemonic() {
        Mnemonic::Mov
            if insn.op0_kind() == OpKind::Register && insn.op0_register().is_segment_register() =>
        {
            let sel = match insn.op1_kind() {
                OpKind::Register => reg16(regs, insn.op1_register()),
                OpKind::Memory => read_operand(uc, regs, &insn),
                _ => None,
            };
            (insn.op0_register(), sel)
        }
        Mnemonic::Pop
            if insn.op0_kind() == OpKind::Register && insn.op0_register().is_segment_register() =>
        {
            let mut b = [0u8; 2];
            let sel = uc
                .read_seg(regs.ss, regs.sp, &mut b)
                .ok()
                .map(|_| u16::from_le_bytes(b));
            (insn.op0_register(), sel)
        }
        // A far transfer loads CS: from the instruction, from memory, or
        // from the stack (a selector a relocation or the program put
        // there).
        Mnemonic::Call | Mnemonic::Jmp if insn.op0_kind() == OpKind::FarBranch16 => {
            (Register::CS, Some(insn.far_branch_selector()))
        }
        Mnemonic::Call | Mnemonic::Jmp
            if insn.op0_kind() == OpKind::Memory
                && (insn.is_call_far_indirect() || insn.is_jmp_far_indirect()) =>
        {
            let sel = operand_offset(regs, &insn).and_then(|(seg, off)| {
                let mut b = [0u8; 2];
                uc.read_seg(seg, off.wrapping_add(2), &mut b)
                    .ok()
                    .map(|_| u16::from_le_bytes(b))
            });
            (Register::CS, sel)
        }
        Mnemonic::Retf | Mnemonic::Iret => {
            let mut b = [0u8; 2];
            let sel = uc
                .read_seg(regs.ss, regs.sp.wrapping_add(2), &mut b)
                .ok()
                .map(|_| u16::from_le_bytes(b));
            (Register::CS, sel)
        }
        Mnemonic::Les | Mnemonic::Lds | Mnemonic::Lss | Mnemonic::Lfs | Mnemonic::Lgs => {
            let r = match insn.mnemonic() {
                Mnemonic::Les => Register::ES,
                Mnemonic::Lds => Register::DS,
                Mnemonic::Lss => Register::SS,
                Mnemonic::Lfs => Register::FS,
                _ => Register::GS,
            };
            // The selector is the word after the offset.
            let sel = operand_offset(regs, &insn).and_then(|(seg, off)| {
                let mut b = [0u8; 2];
                uc.read_seg(seg, off.wrapping_add(2), &mut b)
                    .ok()
                    .map(|_| u16::from_le_bytes(b))
            });
            (r, sel)
        }
        _ => return None,
    };
    let reason = match selector {
        Some(s) if s & !3 == 0 && matches!(register, Register::SS | Register::CS) => "null",
        Some(s) if register == Register::CS && number == 13 => match uc.descriptor_of(s) {
            Some(d) if !d.is_code() => "non-code",
            _ => reason,
        },
        _ => reason,
    };
    Some(Cause::SelectorLoad {
        register: seg_name(register)?,
        selector,
        reason,
    })
}

/// The selector and offset of an instruction's explicit memory operand.
fn operand_offset(regs: &Regs, insn: &Instruction) -> Option<(u16, u16)> {
    let seg = reg16(regs, insn.memory_segment())?;
    let off = insn.virtual_address(1, 0, |r, _, _| {
        if seg_name(r).is_some() {
            Some(0)
        } else {
            reg16(regs, r).map(u64::from)
        }
    })? as u16;
    Some((seg, off))
}

fn read_operand(uc: &Uc<'_>, regs: &Regs, insn: &Instruction) -> Option<u16> {
    let (seg, off) = operand_offset(regs, insn)?;
    let mut b = [0u8; 2];
    uc.read_seg(seg, off, &mut b).ok()?;
    Some(u16::from_le_bytes(b))
}

/// The instruction at CS:IP: its bytes (hex) and its disassembly (NASM
/// syntax), or None when it cannot be read.
pub fn instruction(uc: &Uc<'_>, cs: u16, ip: u16) -> Option<(String, String)> {
    use iced_x86::{Formatter, NasmFormatter};
    let bytes = super::insn_bytes(uc, cs, ip);
    if bytes.is_empty() {
        return None;
    }
    let mut dec = Decoder::with_ip(16, &bytes, u64::from(ip), DecoderOptions::NONE);
    let insn = dec.decode();
    let len = if insn.is_invalid() { 1 } else { insn.len() };
    let hex: Vec<String> = bytes[..len.min(bytes.len())]
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    let mut text = String::new();
    if insn.is_invalid() {
        text.push_str("(invalid opcode)");
    } else {
        NasmFormatter::new().format(&insn, &mut text);
    }
    Some((hex.join(" "), text))
}

/// A 16-bit register's value in `regs` (for the machine's own analysis).
pub(super) fn reg16_of(regs: &Regs, r: Register) -> Option<u16> {
    reg16(regs, r)
}

/// The word an instruction's memory operand holds now.
pub(super) fn read_operand_of(uc: &Uc<'_>, regs: &Regs, insn: &Instruction) -> Option<u16> {
    read_operand(uc, regs, insn)
}

/// Is interrupt `n`, reported at `cs:ip`, the software interrupt of
/// an `INT n` (or `INT 3`, `INTO`) just executed, rather than a processor
/// exception at the instruction at CS:IP?
///
/// unicorn reports a software interrupt with IP after the instruction and
/// an exception with IP at the faulting one, and does not say which it
/// was. The bytes before IP must be the interrupt instruction, and the
/// instruction at IP must not be one that raises `n` itself: only then is
/// it a software interrupt. (An `INT n` followed by an instruction that
/// could raise exception `n` is taken for the exception: programs do not
/// issue those numbers as calls in front of such instructions.) The
/// answer depends only on the code and the registers, so a traced run
/// and an untraced one agree.
///
/// Only CS:IP is read: the system call's path reads no other register.
pub fn is_software_interrupt(uc: &Uc<'_>, cs: u16, ip: u16, n: u8) -> bool {
    let mut two = [0u8; 2];
    let mut one = [0u8; 1];
    let looks =
        (uc.read_seg(cs, ip.wrapping_sub(2), &mut two).is_ok() && two[0] == 0xCD && two[1] == n)
            || (matches!(n, 3 | 4)
                && uc.read_seg(cs, ip.wrapping_sub(1), &mut one).is_ok()
                && one[0] == if n == 3 { 0xCC } else { 0xCE });
    looks && !raises(uc, cs, ip, n)
}

/// Can the instruction at CS:IP raise exception `n`?
fn raises(uc: &Uc<'_>, cs: u16, ip: u16, n: u8) -> bool {
    use iced_x86::{FlowControl, Mnemonic, OpKind};
    // The numbers the match at the end can answer yes for; any other (a
    // system call's F0h, DOS's 21h) no instruction raises, whatever it is.
    if !matches!(n, 0 | 5 | 6 | 7 | 10..=13 | 16) {
        return false;
    }
    if uc
        .descriptor_of(cs)
        .is_some_and(|d| u32::from(ip) > d.limit)
    {
        // Past the code segment: the HLT padding's #GP.
        return n == 13;
    }
    let bytes = super::insn_bytes(uc, cs, ip);
    let mut dec = Decoder::new(16, &bytes, DecoderOptions::NONE);
    let insn = dec.decode();
    if insn.is_invalid() {
        return n == 6;
    }
    let m = insn.mnemonic();
    let fpu = {
        let op = bytes
            .iter()
            .find(|&&b| {
                !matches!(
                    b,
                    0x26 | 0x2E | 0x36 | 0x3E | 0x64 | 0x65 | 0x66 | 0x67 | 0xF0 | 0xF2 | 0xF3
                )
            })
            .copied()
            .unwrap_or(0);
        (0xD8..=0xDF).contains(&op) || op == 0x9B
    };
    let segment_load = (insn.op_count() > 0
        && insn.op0_kind() == OpKind::Register
        && insn.op0_register().is_segment_register())
        || matches!(
            m,
            Mnemonic::Lds | Mnemonic::Les | Mnemonic::Lss | Mnemonic::Lfs | Mnemonic::Lgs
        )
        || insn.is_call_far()
        || insn.is_call_far_indirect()
        || insn.is_jmp_far()
        || insn.is_jmp_far_indirect()
        || matches!(
            m,
            Mnemonic::Retf | Mnemonic::Iret | Mnemonic::Int | Mnemonic::Into
        );
    let privileged = insn.flow_control() == FlowControl::Interrupt
        || matches!(
            m,
            Mnemonic::Hlt
                | Mnemonic::Cli
                | Mnemonic::Sti
                | Mnemonic::In
                | Mnemonic::Out
                | Mnemonic::Insb
                | Mnemonic::Insw
                | Mnemonic::Outsb
                | Mnemonic::Outsw
                | Mnemonic::Lgdt
                | Mnemonic::Lidt
                | Mnemonic::Lldt
                | Mnemonic::Ltr
                | Mnemonic::Lmsw
                | Mnemonic::Clts
                | Mnemonic::Popf
                | Mnemonic::Pushf
        );
    let protected = uc.mode() == crate::x86::CpuMode::Protected;
    match n {
        0 => matches!(m, Mnemonic::Div | Mnemonic::Idiv | Mnemonic::Aam),
        5 => m == Mnemonic::Bound,
        6 => matches!(m, Mnemonic::Ud0 | Mnemonic::Ud1 | Mnemonic::Ud2),
        7 | 16 => fpu,
        // Segment checks exist in protected mode only.
        10..=13 => protected && (segment_load || privileged),
        // Exceptions unicorn's interrupt hook never sees raised (a double
        // fault, paging).
        _ => false,
    }
}
