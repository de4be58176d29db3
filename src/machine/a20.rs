//! The A20 gate of a real-mode PC: whether address line 20 is forced to 0.
//!
//! An 8086 has 20 address lines, so FFFF:0010 (linear 10_0000h) wraps to
//! 0000:0000. A 286 or later has more, and the AT's designers added a gate
//! on line 20, off at power-on, so that old programs keep seeing the wrap.
//! DOS loaded low leaves it off. Programs still depend on it: the EXEPACK
//! unpacker that Microsoft's LINK put in front of packed programs computes
//! segments that fall below zero and wrap to FFFxh when the program is
//! loaded in the first 64 KiB, and expects the bytes of low memory there
//! ("Packed file is corrupt" otherwise).
//!
//! With the gate off, the 64 KiB from linear 10_0000h are an alias of the
//! first 64 KiB: a unicorn MMIO region whose reads and writes go to low
//! memory (through unicorn's own memory writes, so code translated from low
//! memory is invalidated when a write through the alias changes it). With
//! the gate on they are the high memory area, plain memory of their own,
//! whose bytes are kept while the gate is off again.
//!
//! Who switches it, as an XMS driver does: INT 15h AX=2400h/2401h (the
//! BIOS, in `dos::bios`), bit 1 of port 92h (the PS/2 "fast A20" port) and
//! the keyboard controller's output port (command D1h on port 64h, then
//! the new output port byte on port 60h, bit 1 = A20; D0h reads it back).

use unicorn_engine::unicorn_const::Permission;

use super::{MachineError, Uc, uerr};

/// Linear address of the high memory area (FFFF:0010).
pub const HMA_BASE: u64 = 0x10_0000;
/// Size of the high memory area (and of the alias): 64 KiB.
pub const HMA_SIZE: usize = 0x1_0000;

/// The gate and the controllers that switch it.
#[derive(Debug, Clone, Default)]
pub struct Gate {
    /// Line 20 passes (the HMA is memory) rather than being forced to 0.
    pub enabled: bool,
    /// The HMA's bytes while the alias is mapped in its place.
    saved: Option<Vec<u8>>,
    /// The keyboard controller command whose data byte is awaited on port
    /// 60h (D1h: write the output port).
    kbc_pending: Option<u8>,
    /// The keyboard controller's output port answers the next read of port
    /// 60h (after command D0h).
    kbc_read_output: bool,
}

/// The keyboard controller's output port: bit 0 system reset (1 = running),
/// bit 1 the A20 gate, bits 4-7 as an AT's controller reports them.
fn output_port(enabled: bool) -> u8 {
    0xC1 | if enabled { 2 } else { 0 }
}

/// Map the alias: linear 10_0000h..11_0000h reads and writes 0..1_0000h.
pub(super) fn map_alias(uc: &mut Uc<'_>) -> Result<(), MachineError> {
    uc.mmio_map(
        HMA_BASE,
        HMA_SIZE,
        Some(|uc: &mut Uc<'_>, offset: u64, size: usize| -> u64 {
            super::hookguard::guard(uc, "A20 read", 0, |uc| {
                super::counter::inline_off(uc);
                let mut b = [0u8; 8];
                let n = size.min(8);
                let _ = uc.mem_read(offset, &mut b[..n]);
                u64::from_le_bytes(b)
            })
        }),
        Some(|uc: &mut Uc<'_>, offset: u64, size: usize, value: u64| {
            super::hookguard::guard(uc, "A20 write", (), |uc| {
                super::counter::inline_off(uc);
                let n = size.min(8);
                let _ = uc.mem_write(offset, &value.to_le_bytes()[..n]);
                super::forget_code(uc, offset, n);
            })
        }),
    )
    .map_err(|e| uerr("mapping the A20 wrap", e))
}

/// Is the A20 line enabled (the HMA is memory)?
pub fn enabled(uc: &Uc<'_>) -> bool {
    uc.get_data().a20.enabled
}

/// Switch the A20 gate. Turning it on maps the HMA (with the bytes it held
/// when it was last on); turning it off saves them and maps the alias.
pub fn set(uc: &mut Uc<'_>, on: bool) -> Result<(), MachineError> {
    if uc.get_data().mode != crate::x86::CpuMode::Real || enabled(uc) == on {
        return Ok(());
    }
    if on {
        uc.mem_unmap(HMA_BASE, HMA_SIZE)
            .map_err(|e| uerr("unmapping the A20 wrap", e))?;
        uc.mem_map(HMA_BASE, HMA_SIZE, Permission::ALL)
            .map_err(|e| uerr("mapping the HMA", e))?;
        if let Some(bytes) = uc.get_data_mut().a20.saved.take() {
            uc.mem_write(HMA_BASE, &bytes)
                .map_err(|e| uerr("restoring the HMA", e))?;
        }
    } else {
        let mut bytes = vec![0u8; HMA_SIZE];
        uc.mem_read(HMA_BASE, &mut bytes)
            .map_err(|e| uerr("saving the HMA", e))?;
        uc.mem_unmap(HMA_BASE, HMA_SIZE)
            .map_err(|e| uerr("unmapping the HMA", e))?;
        map_alias(uc)?;
        uc.get_data_mut().a20.saved = Some(bytes);
    }
    uc.get_data_mut().a20.enabled = on;
    Ok(())
}

/// Port reads the gate answers: 92h (bit 1 = A20), and 60h right after
/// the keyboard controller was asked for its output port (D0h).
pub(super) fn port_in(uc: &mut Uc<'_>, port: u32) -> Option<u32> {
    let on = enabled(uc);
    let st = &mut uc.get_data_mut().a20;
    match port {
        0x92 => Some(if on { 2 } else { 0 }),
        0x60 if st.kbc_read_output => {
            st.kbc_read_output = false;
            Some(u32::from(output_port(on)))
        }
        _ => None,
    }
}

/// What a port write did to the gate or the machine.
pub(super) enum PortEffect {
    /// Nothing the gate cares about.
    None,
    /// The write asked for a machine reset (port 92h bit 0, keyboard
    /// controller command FEh, or output port bit 0 cleared).
    Reset(&'static str),
}

/// Port writes that switch the gate.
pub(super) fn port_out(uc: &mut Uc<'_>, port: u32, value: u8) -> PortEffect {
    match port {
        0x92 => {
            if value & 1 != 0 {
                return PortEffect::Reset("port 92h bit 0 (fast reset)");
            }
            let _ = set(uc, value & 2 != 0);
        }
        0x64 => {
            let st = &mut uc.get_data_mut().a20;
            st.kbc_pending = None;
            match value {
                0xD0 => st.kbc_read_output = true,
                0xD1 => st.kbc_pending = Some(0xD1),
                // Some controllers switch A20 by command alone.
                0xDD => {
                    let _ = set(uc, false);
                }
                0xDF => {
                    let _ = set(uc, true);
                }
                0xFE => return PortEffect::Reset("keyboard controller command FEh"),
                _ => {}
            }
        }
        0x60 if uc.get_data().a20.kbc_pending == Some(0xD1) => {
            uc.get_data_mut().a20.kbc_pending = None;
            if value & 1 == 0 {
                return PortEffect::Reset("the keyboard controller's output port bit 0");
            }
            let _ = set(uc, value & 2 != 0);
        }
        _ => {}
    }
    PortEffect::None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Cpu, Machine, R, RunLimits, Stop};

    fn run_at(m: &mut Machine, code: &[u8]) -> Stop {
        m.write_linear(0x700, code).unwrap();
        m.set_reg(R::SS, 0).unwrap();
        m.set_reg(R::SP, 0x600).unwrap();
        m.set_csip(0, 0x700).unwrap();
        m.run(RunLimits::default())
    }

    #[test]
    fn ffff_0010_is_0000_0000_while_a20_is_off() {
        let mut m = Machine::new_real().unwrap();
        assert!(!enabled(&m));
        m.write_linear(0x500, &[0x5A]).unwrap();
        let code = [
            0xB8, 0xFF, 0xFF, // mov ax, 0FFFFh
            0x8E, 0xD8, // mov ds, ax
            0xA0, 0x10, 0x05, // mov al, [0510h]    ; FFFF:0510 = 10_0500h
            0xC6, 0x06, 0x20, 0x05, 0x77, // mov byte [0520h], 77h
            0xF4, // hlt
        ];
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert_eq!(m.reg(R::AX) & 0xFF, 0x5A);
        let mut b = [0u8];
        m.mem_read(0x510, &mut b).unwrap();
        assert_eq!(b[0], 0x77);
        // The host side sees the same wrap.
        let mut w = [0u8; 2];
        m.read_seg(0xFFFF, 0x0510, &mut w).unwrap();
        assert_eq!(w[0], 0x5A);
    }

    #[test]
    fn code_changed_through_the_wrap_runs_changed() {
        let mut m = Machine::new_real().unwrap();
        m.write_linear(0x800, &[0xB3, 0x01, 0xC3]).unwrap(); // mov bl, 1; ret
        let code = [
            0xE8, 0xFD, 0x00, // call 0800h
            0x88, 0xD9, // mov cl, bl
            0xB8, 0xFF, 0xFF, // mov ax, 0FFFFh
            0x8E, 0xC0, // mov es, ax
            0x26, 0xC6, 0x06, 0x11, 0x08, 0x02, // mov byte [es:0811h], 2
            0xE8, 0xED, 0x00, // call 0800h
            0xF4, // hlt
        ];
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert_eq!(m.reg(R::CX) & 0xFF, 1);
        assert_eq!(
            m.reg(R::BX) & 0xFF,
            2,
            "stale code ran after a write through the wrap"
        );
    }

    #[test]
    fn port_92h_switches_between_the_hma_and_the_wrap() {
        let mut m = Machine::new_real().unwrap();
        m.write_linear(0, &[0x11]).unwrap();
        let code = [
            0xB0, 0x02, // mov al, 2
            0xE6, 0x92, // out 92h, al       ; A20 on
            0xB8, 0xFF, 0xFF, // mov ax, 0FFFFh
            0x8E, 0xD8, // mov ds, ax
            0xC6, 0x06, 0x10, 0x00, 0xAA, // mov byte [0010h], 0AAh
            0xA0, 0x10, 0x00, // mov al, [0010h]
            0x88, 0xC4, // mov ah, al
            0xB0, 0x00, // mov al, 0
            0xE6, 0x92, // out 92h, al       ; A20 off
            0xA0, 0x10, 0x00, // mov al, [0010h]
            0xF4, // hlt
        ];
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert_eq!(m.reg(R::AX), 0xAA11);
        assert!(!enabled(&m));
        let mut b = [0u8];
        m.mem_read(0, &mut b).unwrap();
        assert_eq!(b[0], 0x11, "the HMA write reached low memory");
        // The HMA keeps its bytes while the wrap is in its place.
        set(&mut m, true).unwrap();
        m.mem_read(HMA_BASE, &mut b).unwrap();
        assert_eq!(b[0], 0xAA);
    }

    #[test]
    fn the_keyboard_controller_output_port_switches_a20() {
        let mut m = Machine::new_real().unwrap();
        let code = [
            0xB0, 0xD1, // mov al, 0D1h
            0xE6, 0x64, // out 64h, al
            0xB0, 0xDF, // mov al, 0DFh
            0xE6, 0x60, // out 60h, al   ; output port: A20 on
            0xB0, 0xD0, // mov al, 0D0h
            0xE6, 0x64, // out 64h, al
            0xE4, 0x60, // in al, 60h    ; the output port
            0x88, 0xC4, // mov ah, al
            0xE4, 0x92, // in al, 92h
            0xF4, // hlt
        ];
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert!(enabled(&m));
        assert_eq!(m.reg(R::AX), 0xC302);
    }

    #[test]
    fn code_the_host_writes_over_runs_new() {
        let mut m = Machine::new_real().unwrap();
        m.write_linear(0x800, &[0xB3, 0x01, 0xC3]).unwrap(); // mov bl, 1; ret
        let code = [0xE8, 0xFD, 0x00, 0xF4]; // call 0800h; hlt
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert_eq!(m.reg(R::BX) & 0xFF, 1);
        m.write_seg(0x0080, 0x0001, &[0x03]).unwrap(); // mov bl, 3
        assert!(matches!(run_at(&mut m, &code), Stop::Hung { .. }));
        assert_eq!(m.reg(R::BX) & 0xFF, 3, "stale code ran after a host write");
    }
}
