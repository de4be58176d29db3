//! Port I/O: what a program reads from and writes to I/O ports (the
//! keyboard controller, the VGA), and where the port instruction is.

use super::{CpuMode, R, Stop, Uc, a20, counter, record_event_at, time, vga, with_host};
use crate::machine::Cpu;

/// Port input: no device answers, so the bus reads all ones (FFh per byte).
/// The keyboard controller answers at port 60h (the last scan code) and
/// 64h (status: output buffer full, system flag, keyboard enabled), the
/// VGA at its ports (vga.rs).
pub(super) fn on_port_in(uc: &mut Uc<'_>, port: u32, size: usize) -> u32 {
    counter::inline_off(uc);
    time::advance(uc.get_data_mut(), time::PORT_INSNS);
    with_host(uc, |uc| {
        let gate = if size == 1 {
            a20::port_in(uc, port)
        } else {
            None
        }
        .or_else(|| vga::port_in(uc, port, size));
        let v = match (port, size) {
            _ if gate.is_some() => gate.unwrap_or(0xFF),
            (0x60, 1) => u32::from(uc.get_data().port60),
            (0x64, 1) => 0x1D,
            (_, 1) => 0xFF,
            (_, 2) => 0xFFFF,
            _ => 0xFFFF_FFFF,
        };
        let (cs, ip) = port_site(uc);
        record_event_at(
            uc,
            cs,
            ip,
            format!("in  port {port:04X} ({size} byte(s)) -> {v:X}"),
        );
        v
    })
}

/// Port output: the VGA (vga.rs) and the A20 gate's controllers take
/// theirs; the write is logged.
pub(super) fn on_port_out(uc: &mut Uc<'_>, port: u32, size: usize, value: u32) {
    counter::inline_off(uc);
    time::advance(uc.get_data_mut(), time::PORT_INSNS);
    with_host(uc, |uc| {
        let (cs, ip) = port_site(uc);
        record_event_at(
            uc,
            cs,
            ip,
            format!("out port {port:04X} ({size} byte(s)) <- {value:X}"),
        );
        if vga::port_out(uc, port, size, value) {
            return;
        }
        if uc.get_data().mode == CpuMode::Real
            && let a20::PortEffect::Reset(how) = a20::port_out(uc, port, value as u8)
        {
            let regs = uc.regs();
            uc.request_stop(Stop::Unimplemented {
                what: format!("a machine restart through {how}"),
                caller: (regs.cs, regs.ip, regs.bp),
            });
        }
    })
}

/// CS:IP of the port instruction running now, for its event. QEMU does
/// not write IP before a port access, so IP is that of an earlier block
/// boundary; while the machine counts blocks (`--events` asks it to) the
/// access is the n-th port instruction of the block entered last, and its
/// address is found by decoding the block.
pub(super) fn port_site(uc: &mut Uc<'_>) -> (u16, u16) {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    let st = uc.get_data_mut();
    if st.port_seq.1 != st.ic.executed() {
        st.port_seq = (0, st.ic.executed());
    }
    let seq = st.port_seq.0;
    st.port_seq.0 += 1;
    if !st.counting() {
        return (cs, ip);
    }
    let (addr, size, _) = st.ic.last_block();
    let base = uc.descriptor_of(cs).map_or(0, |d| u64::from(d.base));
    let mut bytes = vec![0u8; size.min(4096) as usize];
    if uc.mem_read(addr, &mut bytes).is_err() {
        return (cs, ip);
    }
    let mut d = iced_x86::Decoder::with_ip(16, &bytes, addr, iced_x86::DecoderOptions::NONE);
    let mut n = 0;
    while d.can_decode() {
        let i = d.decode();
        use iced_x86::Mnemonic as M;
        if matches!(
            i.mnemonic(),
            M::In | M::Out | M::Insb | M::Insw | M::Insd | M::Outsb | M::Outsw | M::Outsd
        ) {
            if n == seq {
                return match i.ip().checked_sub(base) {
                    Some(off) if off <= 0xFFFF => (cs, off as u16),
                    _ => (cs, ip),
                };
            }
            n += 1;
        }
    }
    (cs, ip)
}
