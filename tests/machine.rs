//! The machine's fault paths, limits, breakpoints and budget, on hand-assembled
//! code (bytes written out with their NASM source in comments).

use std::time::Duration;
use toolhelp16::machine::{Cpu, Machine, R, RunLimits, SegKind, Stop};

fn limits() -> RunLimits {
    RunLimits {
        max_insns: 10_000,
        timeout: Duration::from_secs(10),
    }
}

/// A protected-mode machine running `code` at offset 0 of a code segment,
/// with DS = SS = a 0x100-byte data segment and SP = 0x100.
fn pm(code: &[u8]) -> (Machine, u16, u16) {
    let mut m = Machine::new_protected().expect("machine");
    let cs = m
        .alloc_segment(SegKind::Code, code.len() as u32, code)
        .unwrap();
    let ds = m.alloc_segment(SegKind::Data, 0x100, &[]).unwrap();
    m.set_reg(R::SS, ds).unwrap();
    m.set_reg(R::SP, 0x100).unwrap();
    m.set_reg(R::DS, ds).unwrap();
    m.set_csip(cs, 0).unwrap();
    (m, cs, ds)
}

fn fault(stop: Stop) -> toolhelp16::machine::Fault {
    match stop {
        Stop::Fault(f) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn selectors_are_ring3_ldt() {
    let (m, cs, ds) = pm(&[0xF4]);
    assert_eq!(cs & 7, 7);
    assert_eq!(ds & 7, 7);
    assert_eq!(m.reg(R::CS), cs);
    let d = m.descriptor_of(ds).unwrap();
    assert_eq!(d.limit, 0xFF);
    // The limit ends one byte before a hole.
    assert!(m.read_seg(ds, 0xFF, &mut [0]).is_ok());
    assert!(m.read_seg(ds, 0x100, &mut [0]).is_err());
    assert!(m.read_seg(ds, 0xFF, &mut [0, 0]).is_err());
}

#[test]
fn write_one_byte_past_limit_is_gp() {
    // mov al,1 ; mov [0x00FF],al ; mov [0x0100],al
    let (mut m, cs, _) = pm(&[0xB0, 0x01, 0xA2, 0xFF, 0x00, 0xA2, 0x00, 0x01, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (13, cs, 5));
    assert!(f.detail.contains("write"), "{}", f.detail);
    assert!(f.detail.contains("00FF"), "{}", f.detail);
    assert_eq!(f.regs.ax & 0xFF, 1);
}

#[test]
fn word_straddling_the_limit_is_gp() {
    // mov [0x00FF],ax
    let (mut m, cs, _) = pm(&[0xA3, 0xFF, 0x00, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (13, cs, 0));
}

#[test]
fn stack_past_limit_is_stack_fault() {
    // mov sp,0 ; push ax  (SP wraps to FFFE, far past the 0xFF limit)
    let (mut m, cs, _) = pm(&[0xBC, 0x00, 0x00, 0x50, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (12, cs, 3));
}

#[test]
fn near_jump_past_code_limit_faults_at_the_jump() {
    // nop ; jmp short +0x20 (target 0x23, limit 0x03)
    let (mut m, cs, _) = pm(&[0x90, 0xEB, 0x20, 0x90]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (13, cs, 1), "{}", f.detail);
}

#[test]
fn falling_off_the_end_of_code_faults() {
    // nop ; nop  (limit 1)
    let (mut m, cs, _) = pm(&[0x90, 0x90]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs), (13, cs));
    assert_eq!(f.ip, 2);
}

#[test]
fn invalid_selector_is_gp_before_the_load() {
    // mov ax,0x2007 ; mov es,ax
    let (mut m, cs, _) = pm(&[0xB8, 0x07, 0x20, 0x8E, 0xC0, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (13, cs, 3));
    assert_eq!(f.regs.ax, 0x2007);
    assert!(f.detail.contains("2007"), "{}", f.detail);
}

#[test]
fn invalid_opcode() {
    // nop ; ud2
    let (mut m, cs, _) = pm(&[0x90, 0x0F, 0x0B]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (6, cs, 1));
}

#[test]
fn divide_error() {
    // mov ax,5 ; xor bx,bx ; div bx
    let (mut m, cs, _) = pm(&[0xB8, 0x05, 0x00, 0x31, 0xDB, 0xF7, 0xF3, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (0, cs, 5));
    assert_eq!(f.regs.ax, 5);
}

#[test]
fn int3_reports_the_int3() {
    // nop ; int3 ; nop
    let (mut m, cs, _) = pm(&[0x90, 0xCC, 0x90, 0xF4]);
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (3, cs, 1));
}

#[test]
fn breakpoint_stops_before_the_instruction() {
    // mov ax,1 ; mov ax,2 ; mov ax,3
    let (mut m, cs, _) = pm(&[0xB8, 1, 0, 0xB8, 2, 0, 0xB8, 3, 0, 0xF4]);
    m.add_breakpoint(cs, 6).unwrap();
    assert_eq!(m.run(limits()), Stop::Breakpoint { cs, ip: 6 });
    assert_eq!(m.reg(R::AX), 2);
}

#[test]
fn budget_stops_a_runaway() {
    // jmp $
    let (mut m, _, _) = pm(&[0xEB, 0xFE]);
    assert_eq!(
        m.run(RunLimits {
            max_insns: 1000,
            timeout: Duration::from_secs(30)
        }),
        Stop::Budget
    );
}

#[test]
fn wall_clock_stops_a_runaway() {
    let (mut m, _, _) = pm(&[0xEB, 0xFE]);
    assert_eq!(
        m.run(RunLimits {
            max_insns: 0,
            timeout: Duration::from_millis(200)
        }),
        Stop::Timeout
    );
}

#[test]
fn host_reads_are_limit_checked() {
    let (mut m, _, ds) = pm(&[0xF4]);
    m.write_u16_at(ds, 0x10, 0xBEEF).unwrap();
    assert_eq!(m.read_u16_at(ds, 0x10).unwrap(), 0xBEEF);
    assert!(m.read_u16_at(ds, 0xFF).is_err());
    assert!(m.read_u16_at(0x2007, 0).is_err());
    assert!(m.read_u16_at(0, 0).is_err());
}

#[test]
fn real_mode_basics() {
    let mut m = Machine::new_real().unwrap();
    // at 1000:0100: mov ax,7 ; xor bx,bx ; div bx
    m.write_linear(0x10100, &[0xB8, 7, 0, 0x31, 0xDB, 0xF7, 0xF3])
        .unwrap();
    m.set_reg(R::SS, 0x1000).unwrap();
    m.set_reg(R::SP, 0xFFFE).unwrap();
    m.set_csip(0x1000, 0x100).unwrap();
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip, f.regs.ax), (0, 0x1000, 0x105, 7));
    // Real-mode reads wrap nothing and are bounded by 64 KiB.
    assert_eq!(m.read_u16_at(0x1000, 0x100).unwrap(), 0x07B8);
    assert!(m.read_u16_at(0x1000, 0xFFFF).is_err());
}

#[test]
fn real_mode_high_segment_start() {
    let mut m = Machine::new_real().unwrap();
    // F000:FFF0 style start in a high segment: 9000:0010: int3
    m.write_linear(0x90010, &[0x90, 0xCC]).unwrap();
    m.set_csip(0x9000, 0x10).unwrap();
    let f = fault(m.run(limits()));
    assert_eq!((f.number, f.cs, f.ip), (3, 0x9000, 0x11));
}

#[test]
fn freed_segments_fault_and_their_ldt_entry_is_used_again() {
    use toolhelp16::machine::{alloc_seg, free_seg};
    let (mut m, _, _) = pm(&[0xF4]);
    let a = alloc_seg(&mut m, SegKind::Data, 0x40, b"hello").unwrap();
    let b = alloc_seg(&mut m, SegKind::Data, 0x40, &[]).unwrap();
    assert_eq!(b, a + 8);
    free_seg(&mut m, a).unwrap();
    assert!(
        m.descriptor_of(a).is_none(),
        "a freed selector has no descriptor"
    );
    assert!(m.read_seg(a, 0, &mut [0]).is_err());
    assert!(free_seg(&mut m, a).is_err(), "freeing twice fails");
    // The lowest freed entry comes back first, with fresh (zeroed) memory.
    let c = alloc_seg(&mut m, SegKind::Data, 0x20, &[]).unwrap();
    assert_eq!(c, a);
    let mut buf = [0xAAu8; 5];
    m.read_seg(c, 0, &mut buf).unwrap();
    assert_eq!(buf, [0; 5]);
    assert_eq!(m.descriptor_of(c).unwrap().limit, 0x1F);
    // A loaded program's code can be freed too; its slot stays a hole.
    let code = alloc_seg(&mut m, SegKind::Code, 0x10, &[0x90]).unwrap();
    free_seg(&mut m, code).unwrap();
    assert!(m.descriptor_of(code).is_none());
    // Not a program selector: refused.
    assert!(free_seg(&mut m, 0x0008).is_err());
    assert!(free_seg(&mut m, 0x0007).is_err());
}

#[test]
fn resized_segments_keep_their_bytes_and_end_on_the_hole() {
    use toolhelp16::machine::{alloc_seg, resize_seg};
    let (mut m, cs, _) = pm(&[0xF4]);
    let s = alloc_seg(&mut m, SegKind::Data, 0x20, b"0123456789").unwrap();
    resize_seg(&mut m, s, 0x3000).unwrap();
    let d = m.descriptor_of(s).unwrap();
    assert_eq!(d.limit, 0x2FFF);
    let mut buf = [0u8; 12];
    m.read_seg(s, 0, &mut buf).unwrap();
    assert_eq!(&buf, b"0123456789\0\0");
    m.write_seg(s, 0x2FFF, &[7]).unwrap();
    assert!(m.read_seg(s, 0x3000, &mut [0]).is_err());
    resize_seg(&mut m, s, 4).unwrap();
    let mut buf = [0u8; 4];
    m.read_seg(s, 0, &mut buf).unwrap();
    assert_eq!(&buf, b"0123");
    assert!(m.read_seg(s, 4, &mut [0]).is_err());
    assert!(resize_seg(&mut m, s, 0).is_err());
    assert!(resize_seg(&mut m, s, 0x1_0001).is_err());
    assert!(resize_seg(&mut m, cs, 0x40).is_err(), "code is not resized");
}

#[test]
fn the_instruction_clock_only_goes_forward() {
    // inc ax ; inc ax ; hlt
    let (mut m, _, _) = pm(&[0x40, 0x40, 0xF4]);
    assert_eq!(m.get_data().total_insns(), 0);
    let _ = m.run(limits());
    let first = m.get_data().total_insns();
    assert!(first >= 2, "{first}");
    let _ = m.run(limits());
    assert!(m.get_data().total_insns() >= first);
}
