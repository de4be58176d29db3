//! The system a program runs on, as the machine sees it: the whole
//! environment ([`Env`]: the shared state with DOS's and Win16's) and the
//! dispatch of the machine's calls to its subsystems: software interrupts
//! to DOS and the BIOS, API thunks to the Win16 system modules, faults to
//! KERNEL's handlers. It lies above the subsystems it dispatches to
//! (docs/architecture.md).

use crate::dos::host;
use crate::machine::{Cpu, Environment, R, Stop, Uc};
use crate::win16::API_INT;

/// The whole environment: the shared state with DOS's and Win16's
/// (`env::Env`), the type the machine's hooks are given.
pub use crate::win16::Env;

/// The built-in service for `INT intno`.
fn native(env: &mut Env, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
    match intno {
        // INT 20h ends the program; INT 27h ends it resident with DX
        // bytes (DOS's own rules, dos::process).
        0x20 => crate::dos::log::logged(env, uc, intno, None, |env, uc| {
            crate::dos::process::terminate(env, uc, 0, None)
        }),
        0x27 => crate::dos::log::logged(env, uc, intno, None, |env, uc| {
            let paras = u32::from(uc.reg(R::DX)).div_ceil(16);
            crate::dos::process::terminate(env, uc, 0, Some(paras as u16))
        }),
        // DOS's CP/M-style entry, reached from PSP:05 (its vector slot
        // holds the jump there).
        crate::dos::CPM_VECTOR if uc.mode() == crate::walk::CpuMode::Real => {
            crate::dos::int21::process::cpm_entry(env, uc)
        }
        n if crate::dos::is_hardware_vector(n) => crate::dos::hardware::bios_irq(env, uc, n),
        0x21 => crate::dos::log::logged(env, uc, intno, None, crate::dos::int21),
        0x10 | 0x11 | 0x12 | 0x13 | 0x15 | 0x16 | 0x1A | 0x2F | 0x33 => {
            crate::dos::log::logged(env, uc, intno, None, |env, uc| {
                crate::dos::bios(env, uc, intno)
            })
        }
        // DOS idle and fast console output.
        0x28 => Ok(()),
        0x29 => {
            let al = uc.reg(R::AX) as u8;
            crate::dos::console_out(env, uc, &[al]);
            Ok(())
        }
        _ => Err(crate::dos::unimplemented(uc, format!("INT {intno:02X}h"))),
    }
}

impl Environment for Env {
    fn module_name(&self, hmodule: u16) -> Option<String> {
        match self.win16.modules.iter().find(|m| m.hmodule == hmodule) {
            Some(m) => Some(m.name.clone()),
            None if self.win16.modules.is_empty() => self.program_name.clone(),
            None => None,
        }
    }

    fn symbol(&self, uc: &Uc<'_>, cs: u16, ip: u16) -> Option<crate::symbols::SymbolRef> {
        self.symbol_at(uc, cs, ip)
    }

    fn source_line(
        &self,
        uc: &Uc<'_>,
        cs: u16,
        ip: u16,
    ) -> Option<crate::symbols::lines::SourceLine> {
        self.line_at(uc, cs, ip)
    }

    fn halted(&mut self, uc: &mut Uc<'_>, cs: u16, ip: u16) -> Option<Stop> {
        // The system ROM is HLT where its code is not emulated (ROM BASIC,
        // the reset entry): the jump there, named.
        crate::dos::rom_entry(cs, ip, uc.reg(R::BP))
    }

    fn fault(&mut self, uc: &mut Uc<'_>, fault: &crate::machine::Fault) -> Result<bool, Stop> {
        if uc.mode() == crate::walk::CpuMode::Protected && !self.win16.tasks.is_empty() {
            crate::win16::fault::offer(self, uc, fault)
        } else {
            Ok(false)
        }
    }

    fn timer_tick(&mut self, uc: &mut Uc<'_>) -> Result<(), Stop> {
        if uc.mode() == crate::walk::CpuMode::Real {
            crate::dos::hardware::timer_tick(self, uc)?;
        }
        Ok(())
    }

    fn interrupt(&mut self, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
        if uc.mode() == crate::walk::CpuMode::Real {
            use crate::dos::{ROM_INT, ROM_SEG};
            let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
            if intno == ROM_INT && cs == ROM_SEG {
                // A ROM stub `int F1h; db n; retf 2`, reached by a program
                // that chained to the original vector.
                let mut n = [0u8];
                uc.read_seg(cs, ip, &mut n)
                    .map_err(|e| Stop::Error(e.to_string()))?;
                uc.set_reg(R::IP, ip.wrapping_add(1)).map_err(host)?;
                return native(self, uc, n[0]);
            }
            if crate::dos::hardware::hooked(uc, intno)? {
                return crate::dos::hardware::deliver(uc, intno);
            }
            return native(self, uc, intno);
        }
        let r = match intno {
            API_INT if self.win16.is_thunk_segment(uc.reg(R::CS)) => {
                crate::win16::dispatch::call_api(self, uc)
            }
            // The floating-point emulator's interrupts (win16/win87em.rs).
            0x34..=0x3D if !self.win16.tasks.is_empty() => {
                crate::win16::win87em::emulator_int(self, uc, intno)
            }
            _ => native(self, uc, intno),
        };
        match r {
            // A Win16 task ended: the scheduler runs the next one, or ends
            // the run with the last.
            Err(Stop::Exited { code }) if !self.win16.tasks.is_empty() => {
                crate::win16::scheduler::exit_current(self, uc, code)
            }
            r => r,
        }
    }
}
