//! The machine and entries the ToolHelp walk tests share.

use super::{NextFailure, StackTraceEntry, stack_trace_next, stack_trace_next_explained};
use crate::walk::memory::{CodeOwner, Descriptor};
use crate::walk::testmem::TestMemory;

/// The stack: SS 1017, 4 KiB at 1_0000, limit 0FFF, bounds [0200, 0FF0).
pub(super) const SS: u16 = 0x1017;
pub(super) const LIMIT: u16 = 0x0FFF;
pub(super) const TOP: u16 = 0x0200;
pub(super) const BOT: u16 = 0x0FF0;
/// Ring-3 code, limit 07FF, owned by module 1036 as segment 2.
pub(super) const CS1: u16 = 0x1027;
/// Ring-3 code, limit 03FF, owned by module 1046 as segment 1.
pub(super) const CS2: u16 = 0x102F;
/// Ring-3 data.
pub(super) const DS: u16 = 0x1037;
/// Ring-3 code, not present.
pub(super) const CS_NP: u16 = 0x103F;
/// A task that is not running; its TDB at 3_0000.
pub(super) const TASK: u16 = 0x1047;
/// The current task (only a number here).
pub(super) const CUR: u16 = 0x1057;
pub(super) const UNTOUCHED: u16 = 0xAAAA;

pub(super) fn machine() -> TestMemory {
    let mut m = TestMemory::protected()
        .with_segment(
            SS,
            0x1_0000,
            vec![0; 0x1000],
            LIMIT.into(),
            Descriptor::DATA_R3,
        )
        .with_segment(CS1, 0x2_0000, vec![0x90; 0x800], 0x7FF, Descriptor::CODE_R3)
        .with_segment(CS2, 0x2_1000, vec![0x90; 0x400], 0x3FF, Descriptor::CODE_R3)
        .with_segment(DS, 0x2_2000, vec![0; 0x800], 0x7FF, Descriptor::DATA_R3)
        .with_segment(CS_NP, 0x2_3000, vec![], 0x7FF, Descriptor::CODE_R3 & 0x7F)
        .with_instance_data(SS, TOP, BOT)
        .with_code_owner(
            CS1,
            CodeOwner {
                hmodule: 0x1036,
                segment: Some(2),
            },
        )
        .with_code_owner(
            CS2,
            CodeOwner {
                hmodule: 0x1046,
                segment: Some(1),
            },
        );
    m.set_current_task(CUR);
    m
}

/// An entry at SS:bp in CS1:ip with sentinels where the call should not
/// write.
pub(super) fn ste(bp: u16) -> StackTraceEntry {
    StackTraceEntry {
        dw_size: 0x14,
        h_task: UNTOUCHED,
        w_ss: SS,
        w_bp: bp,
        w_cs: CS1,
        w_ip: 0x0100,
        h_module: UNTOUCHED,
        w_segment: UNTOUCHED,
        w_flags: UNTOUCHED,
    }
}

/// Write a frame at SS:bp: [bp] = next, [bp+2] = ip, [bp+4] = cs.
pub(super) fn frame(m: &mut TestMemory, bp: u16, next: u16, ip: u16, cs: u16) {
    m.write_u16(SS, bp, next);
    m.write_u16(SS, bp + 2, ip);
    m.write_u16(SS, bp + 4, cs);
}

/// StackTraceNext must fail with `want` and leave `e` byte-identical.
pub(super) fn next_fails(m: &TestMemory, e: StackTraceEntry, want: NextFailure) {
    let mut got = e;
    assert_eq!(stack_trace_next_explained(m, &mut got), Err(want));
    assert_eq!(
        got.to_bytes(),
        e.to_bytes(),
        "a failed StackTraceNext touched the structure"
    );
    let mut got = e;
    assert!(!stack_trace_next(m, &mut got));
    assert_eq!(got.to_bytes(), e.to_bytes());
}

/// StackTraceNext must succeed; returns the new entry.
pub(super) fn next_ok(m: &TestMemory, e: StackTraceEntry) -> StackTraceEntry {
    let mut got = e;
    assert_eq!(stack_trace_next_explained(m, &mut got), Ok(()));
    let mut again = e;
    assert!(stack_trace_next(m, &mut again));
    assert_eq!(again, got);
    got
}

/// A 64 KiB stack 10F7 (limit FFFF, bounds [0200, FFFF)) in `machine()`.
pub(super) const BIG: u16 = 0x10F7;
pub(super) fn big_stack() -> TestMemory {
    let mut m = machine();
    m.add_segment(
        BIG,
        0x10_0000,
        vec![0; 0x1_0000],
        0xFFFF,
        Descriptor::DATA_R3,
    );
    m.set_instance_data(BIG, TOP, 0xFFFF);
    m
}

pub(super) const RSS: u16 = 0x2000;
pub(super) const RCS: u16 = 0x1000;

pub(super) fn real_machine() -> TestMemory {
    let mut m = TestMemory::real();
    m.write_linear(u32::from(RSS) << 4, &vec![0u8; 0x1_0000]);
    // Garbage where protected-mode instance data would be.
    m.write_u16(RSS, 0x0A, 0xF000);
    m.write_u16(RSS, 0x0E, 0x0010);
    m.set_current_task(0x0F00); // the PSP
    m.set_code_owner(
        RCS,
        CodeOwner {
            hmodule: 0x0F00,
            segment: None,
        },
    );
    m
}

pub(super) fn rste(bp: u16) -> StackTraceEntry {
    StackTraceEntry {
        w_ss: RSS,
        w_cs: RCS,
        ..ste(bp)
    }
}
