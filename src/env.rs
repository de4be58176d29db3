//! The environment a program runs in: DOS, the BIOS and the Win16 system
//! modules, reached through software interrupts and API thunks.

use std::io::Write;

use crate::dos::Dos;
use crate::machine::{Cpu, Environment, R, Stop, Uc};
use crate::win16::{API_INT, Win16};

/// Everything the program can call.
pub struct Env {
    pub dos: Dos,
    pub win16: Win16,
    /// What the program wrote to the console.
    pub console: Vec<u8>,
    /// Echo console output to the host's stdout as it is written.
    pub echo: bool,
    /// Strings passed to OutputDebugString.
    pub debug_output: Vec<String>,
}

impl Env {
    /// A fresh environment.
    pub fn new(echo: bool) -> Env {
        Env {
            dos: Dos::default(),
            win16: Win16::default(),
            console: Vec::new(),
            echo,
            debug_output: Vec::new(),
        }
    }

    /// Write program output to the console.
    pub fn write_console(&mut self, bytes: &[u8]) {
        self.console.extend_from_slice(bytes);
        if self.echo {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(bytes);
            let _ = out.flush();
        }
    }
}

impl Environment for Env {
    fn interrupt(&mut self, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
        match intno {
            0x20 => Err(Stop::Exited { code: 0 }),
            0x21 => crate::dos::int21(self, uc),
            0x10 | 0x11 | 0x12 | 0x13 | 0x16 | 0x1A => crate::dos::bios(self, uc, intno),
            API_INT if self.win16.is_thunk_segment(uc.reg(R::CS)) => {
                crate::win16::call_api(self, uc)
            }
            _ => Err(crate::dos::unimplemented(uc, format!("INT {intno:02X}h"))),
        }
    }
}
