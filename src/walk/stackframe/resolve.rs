//! Translating an ADDRESS64 by its own mode into the walked machine's
//! segment:offset (dbghelp.md, "ADDRESS and its modes"), and the reasons
//! an address cannot be translated.

use std::fmt;

use super::{AddrMode, Address64};
use crate::walk::memory::{CpuMode, Descriptor, WalkMemory};

/// Which ADDRESS of a STACKFRAME64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// STACKFRAME64.AddrPC.
    AddrPC,
    /// STACKFRAME64.AddrReturn.
    AddrReturn,
    /// STACKFRAME64.AddrFrame.
    AddrFrame,
    /// STACKFRAME64.AddrStack.
    AddrStack,
}

impl Field {
    /// dbghelp's member name.
    pub fn name(self) -> &'static str {
        match self {
            Field::AddrPC => "AddrPC",
            Field::AddrReturn => "AddrReturn",
            Field::AddrFrame => "AddrFrame",
            Field::AddrStack => "AddrStack",
        }
    }

    fn wants_code(self) -> bool {
        matches!(self, Field::AddrPC | Field::AddrReturn)
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an ADDRESS cannot be translated (dbghelp.md, "ADDRESS and its
/// modes": "a selector that is null, past the table's limit, or not
/// present cannot be translated").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressProblem {
    /// The selector's index and table bit are 0.
    NullSelector,
    /// A selector-based mode on a real-mode machine, which has no
    /// descriptor tables.
    NoTables,
    /// The selector's entry lies past its table's limit.
    PastTableLimit {
        /// The selector names the LDT (else the GDT).
        ldt: bool,
        /// The table's limit.
        limit: u32,
    },
    /// The entry is empty or its present bit is clear.
    NotPresent,
    /// The entry is a system descriptor (an LDT, a gate), not a code or
    /// data segment.
    NotASegment,
    /// The linear address does not fit 32 bits.
    TooFar,
    /// No present segment of the wanted kind (code for AddrPC, data for
    /// AddrFrame and AddrStack) in the descriptor tables holds the linear
    /// address, so it has no 16:16 form on this machine.
    NoSegmentHolds {
        /// The linear address.
        linear: u32,
        /// A code segment was wanted (AddrPC), else data.
        code: bool,
    },
    /// Real mode: the linear address is not within 64 KiB above the
    /// context's segment, and without descriptor tables there is no
    /// other segment to express it in.
    OutsideContextSegment {
        /// The linear address.
        linear: u32,
        /// The context's segment.
        seg: u16,
    },
    /// Mode is no ADDRESS_MODE.
    UnknownMode,
    /// AddrFrame and AddrStack translate into different stack segments.
    TwoStacks {
        /// The stack segment AddrFrame translates to.
        frame_ss: u16,
        /// The stack segment AddrStack translates to.
        stack_ss: u16,
    },
}

impl fmt::Display for AddressProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressProblem::NullSelector => f.write_str("null selector"),
            AddressProblem::NoTables => {
                f.write_str("the machine is in real mode and has no descriptor tables")
            }
            AddressProblem::PastTableLimit { ldt, limit } => write!(
                f,
                "past the {}'s limit 0x{limit:04X}",
                if *ldt { "LDT" } else { "GDT" }
            ),
            AddressProblem::NotPresent => f.write_str("not present"),
            AddressProblem::NotASegment => {
                f.write_str("a system descriptor, not a code or data segment")
            }
            AddressProblem::TooFar => f.write_str("the linear address does not fit 32 bits"),
            AddressProblem::NoSegmentHolds { linear, code } => write!(
                f,
                "no present {} segment in the descriptor tables holds linear 0x{linear:08X}",
                if *code { "code" } else { "data" }
            ),
            AddressProblem::OutsideContextSegment { linear, seg } => write!(
                f,
                "linear 0x{linear:08X} is not within 64 KiB above the context's segment \
                 {seg:04X}, and real mode has no descriptor tables to find another"
            ),
            AddressProblem::UnknownMode => f.write_str("not an ADDRESS_MODE (0 to 3)"),
            AddressProblem::TwoStacks { frame_ss, stack_ss } => write!(
                f,
                "AddrFrame is in stack segment {frame_ss:04X} and AddrStack in {stack_ss:04X}: \
                 a frame has one stack segment"
            ),
        }
    }
}

/// An ADDRESS that cannot be translated: which field, what it held, and
/// why. Its sentence names the field, the mode and the selector, as
/// dbghelp.md asks: "AddrFrame is AddrMode1616 with selector 0x0000: null
/// selector".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressFailure {
    /// The member that failed.
    pub field: Field,
    /// Its value.
    pub address: Address64,
    /// Why it has no 16:16 form.
    pub problem: AddressProblem,
}

impl fmt::Display for AddressFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.address;
        match AddrMode::from_value(a.mode) {
            Some(m @ (AddrMode::Mode1616 | AddrMode::Mode1632)) => write!(
                f,
                "{} is {} with selector 0x{:04X}",
                self.field,
                m.name(),
                a.segment
            )?,
            Some(AddrMode::Real) => write!(
                f,
                "{} is AddrModeReal {:04X}:{:04X}",
                self.field, a.segment, a.offset
            )?,
            Some(AddrMode::Flat) => write!(f, "{} is AddrModeFlat 0x{:08X}", self.field, a.offset)?,
            None => write!(f, "{} has Mode {}", self.field, a.mode)?,
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for AddressFailure {}

/// Check a selector for a selector-based mode: not null, the machine has
/// tables, within its table's limit, present, a code or data segment.
pub fn check_selector(mem: &dyn WalkMemory, sel: u16) -> Result<Descriptor, AddressProblem> {
    if sel & !3 == 0 {
        return Err(AddressProblem::NullSelector);
    }
    if mem.mode() == CpuMode::Real {
        return Err(AddressProblem::NoTables);
    }
    let ldt = sel & 4 != 0;
    if let Some(t) = mem.descriptor_table(ldt) {
        if u32::from(sel & 0xFFF8) + 7 > t.limit {
            return Err(AddressProblem::PastTableLimit {
                ldt,
                limit: t.limit,
            });
        }
    }
    let d = mem.descriptor(sel).ok_or(AddressProblem::NotPresent)?;
    if !d.present() {
        return Err(AddressProblem::NotPresent);
    }
    if !d.is_segment() {
        return Err(AddressProblem::NotASegment);
    }
    Ok(d)
}

/// The linear address an ADDRESS names, by its own Mode (dbghelp.md's
/// table): AddrMode1616 base(Segment) + (Offset & 0xFFFF), AddrMode1632
/// base(Segment) + Offset, AddrModeReal Segment * 16 + Offset, AddrModeFlat
/// Offset. Selector-based modes need a usable selector
/// ([`check_selector`]).
pub fn linear_address(
    mem: &dyn WalkMemory,
    field: Field,
    a: &Address64,
) -> Result<u32, AddressFailure> {
    let fail = |problem| AddressFailure {
        field,
        address: *a,
        problem,
    };
    let Some(mode) = AddrMode::from_value(a.mode) else {
        return Err(fail(AddressProblem::UnknownMode));
    };
    let linear: u64 = match mode {
        AddrMode::Mode1616 | AddrMode::Mode1632 => {
            let d = check_selector(mem, a.segment).map_err(fail)?;
            let off = if mode == AddrMode::Mode1616 {
                a.offset & 0xFFFF
            } else {
                a.offset
            };
            u64::from(d.base).saturating_add(off)
        }
        AddrMode::Real => (u64::from(a.segment) << 4).saturating_add(a.offset),
        AddrMode::Flat => a.offset,
    };
    u32::try_from(linear).map_err(|_| fail(AddressProblem::TooFar))
}

/// The linear address of the machine's own `seg:off` (real: seg * 16 +
/// off; protected: the descriptor's base + off, or `None` for a selector
/// without a descriptor).
pub fn native_linear(mem: &dyn WalkMemory, seg: u16, off: u16) -> Option<u32> {
    match mem.mode() {
        CpuMode::Real => Some((u32::from(seg) << 4) + u32::from(off)),
        CpuMode::Protected => mem
            .descriptor(seg)
            .map(|d| d.base.wrapping_add(u32::from(off))),
    }
}

/// Translate an ADDRESS, by its own Mode, into the machine's own
/// segment:offset form (dbghelp.md, "ADDRESS and its modes").
///
/// - AddrMode1616: the selector must pass [`check_selector`]; the result
///   is Segment:(Offset & 0xFFFF) as it stands (an offset past the limit
///   is kept: StackTraceCSIPFirst does not check BP either).
/// - AddrModeReal on a real-mode machine with an Offset below 0x10000:
///   Segment:Offset as it stands.
/// - Every other case names a linear address ([`linear_address`]), which
///   is expressed in a segment of this machine: in `hint` (the context's
///   CS for AddrPC, SS for AddrFrame and AddrStack) when the address lies
///   within 64 KiB above its base; otherwise, in protected mode, in the
///   first present segment of the wanted kind (code for AddrPC, data for
///   the stack) in the GDT, then the LDT, whose base..=base+limit holds it,
///   with RPL = its DPL. Real mode has no tables: an address outside the
///   hint's 64 KiB fails. No segment: fails.
pub fn resolve(
    mem: &dyn WalkMemory,
    field: Field,
    a: &Address64,
    hint: u16,
) -> Result<(u16, u16), AddressFailure> {
    let fail = |problem| AddressFailure {
        field,
        address: *a,
        problem,
    };
    match AddrMode::from_value(a.mode) {
        None => Err(fail(AddressProblem::UnknownMode)),
        Some(AddrMode::Mode1616) => {
            check_selector(mem, a.segment).map_err(fail)?;
            Ok((a.segment, (a.offset & 0xFFFF) as u16))
        }
        Some(AddrMode::Real) if mem.mode() == CpuMode::Real && a.offset <= 0xFFFF => {
            Ok((a.segment, a.offset as u16))
        }
        Some(_) => {
            let linear = linear_address(mem, field, a)?;
            express(mem, linear, hint, field.wants_code()).map_err(fail)
        }
    }
}

/// A linear address in one of the machine's segments (see [`resolve`]).
fn express(
    mem: &dyn WalkMemory,
    linear: u32,
    hint: u16,
    code: bool,
) -> Result<(u16, u16), AddressProblem> {
    let within = |base: u32| {
        linear
            .checked_sub(base)
            .filter(|&off| off <= 0xFFFF)
            .map(|off| off as u16)
    };
    if mem.mode() == CpuMode::Real {
        return within(u32::from(hint) << 4)
            .map(|off| (hint, off))
            .ok_or(AddressProblem::OutsideContextSegment { linear, seg: hint });
    }
    if let Ok(d) = check_selector(mem, hint) {
        if let Some(off) = within(d.base) {
            return Ok((hint, off));
        }
    }
    for ldt in [false, true] {
        let entries = mem
            .descriptor_table(ldt)
            .map_or(0x2000, |t| (t.limit.saturating_add(1) / 8).min(0x2000));
        for index in 0..entries {
            let sel = ((index as u16) << 3) | if ldt { 4 } else { 0 };
            if sel == 0 {
                continue;
            }
            let Some(d) = mem.descriptor(sel) else {
                continue;
            };
            if !d.present() || !d.is_segment() || d.is_code() != code {
                continue;
            }
            if linear >= d.base && linear - d.base <= d.limit && linear - d.base <= 0xFFFF {
                return Ok((sel | u16::from(d.dpl()), (linear - d.base) as u16));
            }
        }
    }
    Err(AddressProblem::NoSegmentHolds { linear, code })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{CS1_BASE, CS2, SS, SS_BASE, chain};
    use super::super::{
        StackWalker, Start, StepError, WalkContext, start_frame, walk_frames, walk_with_start,
    };
    use super::*;

    #[test]
    fn istackwalker_start_fails_on_addrframe_naming_mode_and_selector() {
        let (m, ctx) = chain();
        let start = start_frame(&m, &ctx, Start::IStackWalker);
        assert_eq!(start.addr_pc.mode, AddrMode::Flat.value());
        assert_eq!(start.addr_stack.mode, AddrMode::Flat.value());
        assert_eq!(start.addr_frame.mode, 0);
        assert_eq!(
            start.addr_frame.offset,
            u64::from(SS_BASE + u32::from(ctx.bp))
        );
        let w = walk_frames(&m, ctx, &start, None, 100);
        assert!(w.frames.is_empty());
        let StepError::Address(a) = &w.end else {
            panic!("{:?}", w.end)
        };
        assert_eq!(a.field, Field::AddrFrame);
        assert_eq!(a.problem, AddressProblem::NullSelector);
        assert_eq!(
            a.to_string(),
            "AddrFrame is AddrMode1616 with selector 0x0000: null selector"
        );
        // Every later step fails the same way.
        let mut walker = StackWalker::new(ctx, None, 100);
        let mut f = start;
        let e1 = walker.step(&m, &mut f).unwrap_err();
        assert_eq!(walker.step(&m, &mut f).unwrap_err(), e1);
        assert_eq!(f, start, "a failed step leaves the structure");
    }

    #[test]
    fn each_address_is_translated_by_its_own_mode() {
        let (m, ctx) = chain();
        let native = walk_with_start(&m, ctx, Start::Native, None, 100);
        // Mixed: PC flat, frame 1616, stack 1632.
        let mut start = start_frame(&m, &ctx, Start::Native);
        start.addr_pc = Address64::new(
            AddrMode::Flat,
            0x7777,
            u64::from(CS1_BASE + u32::from(ctx.ip)),
        );
        start.addr_stack = Address64::new(AddrMode::Mode1632, SS, ctx.sp.into());
        let w = walk_frames(&m, ctx, &start, None, 100);
        assert_eq!(w.entries, native.entries);
        assert_eq!(w.frames[0].addr_pc.mode, 3, "PC stays flat");
        assert_eq!(w.frames[0].addr_return.mode, 3, "AddrReturn follows AddrPC");
        assert_eq!(w.frames[0].addr_frame.mode, 0);
        assert_eq!(
            w.frames[0].addr_stack.mode, 0,
            "1632 is reported in the native mode"
        );
        // A 1616 offset is masked to 16 bits.
        let mut s2 = start_frame(&m, &ctx, Start::Native);
        s2.addr_frame.offset |= 0x5_0000;
        assert_eq!(walk_frames(&m, ctx, &s2, None, 100).entries, native.entries);
    }

    #[test]
    fn untranslatable_selectors_give_their_reasons() {
        let (m, ctx) = chain();
        let fail = |a: Address64, field: Field| {
            let mut s = start_frame(&m, &ctx, Start::Native);
            match field {
                Field::AddrPC => s.addr_pc = a,
                Field::AddrFrame => s.addr_frame = a,
                _ => s.addr_stack = a,
            }
            match walk_frames(&m, ctx, &s, None, 100).end {
                StepError::Address(f) => {
                    assert_eq!(f.field, field);
                    f.to_string()
                }
                e => panic!("{e:?}"),
            }
        };
        assert_eq!(
            fail(
                Address64::new(AddrMode::Mode1616, 0x1037, 0x10),
                Field::AddrFrame
            ),
            "AddrFrame is AddrMode1616 with selector 0x1037: not present"
        );
        assert_eq!(
            fail(
                Address64::new(AddrMode::Mode1632, 0x103F, 0x10),
                Field::AddrPC
            ),
            "AddrPC is AddrMode1632 with selector 0x103F: a system descriptor, not a code or data segment"
        );
        assert_eq!(
            fail(
                Address64::new(AddrMode::Mode1616, 0x0003, 0x10),
                Field::AddrStack
            ),
            "AddrStack is AddrMode1616 with selector 0x0003: null selector"
        );
        assert!(
            fail(
                Address64 {
                    offset: 1,
                    segment: SS,
                    mode: 9
                },
                Field::AddrFrame
            )
            .starts_with("AddrFrame has Mode 9: not an ADDRESS_MODE")
        );
        // Selectors taken for paragraphs: the classic real-mode mistake on a
        // protected-mode machine.
        let s = fail(
            Address64::new(AddrMode::Real, SS, ctx.bp.into()),
            Field::AddrFrame,
        );
        assert!(
            s.starts_with("AddrFrame is AddrModeReal 1017:")
                && s.contains("no present data segment"),
            "{s}"
        );
        // A flat address in no segment.
        let s = fail(Address64::new(AddrMode::Flat, 0, 0x9_0000), Field::AddrPC);
        assert_eq!(
            s,
            "AddrPC is AddrModeFlat 0x00090000: no present code segment in the descriptor tables holds linear 0x00090000"
        );
        // A flat stack address found in the tables although not in the hint.
        let other = WalkContext { ss: 0x1037, ..ctx };
        let mut s2 = start_frame(&m, &ctx, Start::Flat);
        let w = walk_frames(&m, other, &s2, None, 100);
        assert_eq!(w.entries[0].w_ss, SS | 3, "found by scanning, RPL = DPL");
        // Frame and stack in different segments.
        s2.addr_stack = Address64::new(AddrMode::Mode1616, CS2, 0);
        assert!(matches!(
            walk_frames(&m, ctx, &s2, None, 100).end,
            StepError::Address(AddressFailure {
                field: Field::AddrStack,
                problem: AddressProblem::TwoStacks { .. },
                ..
            })
        ));
    }
}
