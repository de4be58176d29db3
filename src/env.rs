//! The environment a program runs in: DOS, the BIOS and the Win16 system
//! modules, reached through software interrupts and API thunks.

use std::io::Write;

use crate::dos::{Dos, host};
use crate::machine::{Cpu, Environment, R, Stop, Uc};
use crate::win16::{API_INT, Win16};

/// Everything the program can call.
#[derive(Default, Clone)]
pub struct Env {
    /// The DOS and BIOS state.
    pub dos: Dos,
    /// The Win16 state: tasks, modules, USER and GDI.
    pub win16: Win16,
    /// What the program wrote to the console: the first [`MAX_CONSOLE`]
    /// bytes (all of it still goes to the echo).
    pub console: Vec<u8>,
    /// Console bytes written past [`MAX_CONSOLE`], counted, not kept.
    pub console_dropped: u64,
    /// Echo console output to the host's stdout as it is written.
    pub echo: bool,
    /// The host's stdout is a terminal: the echo shows the console's
    /// bytes as the screen would (code page 437 glyphs, no raw control
    /// bytes: [`crate::dos::screen::terminal_text`]); otherwise it writes
    /// them as they are, as DOS writes redirected output.
    pub echo_terminal: bool,
    /// Strings passed to OutputDebugString: the first
    /// [`MAX_DEBUG_STRINGS`].
    pub debug_output: Vec<String>,
    /// OutputDebugString calls past [`MAX_DEBUG_STRINGS`], counted.
    pub debug_output_dropped: u64,
    /// The sandboxed drive C: (`--dir`); None when the run has no drive.
    pub drive: Option<crate::dos::fs::Drive>,
    /// A DOS program's name (its file's stem, upper case), the module name
    /// of its code in traces.
    pub program_name: Option<String>,
    /// The symbol tables of the run (symbols/mod.rs).
    pub symbols: crate::symbols::Registry,
    /// A DOS program (or raw image), for its symbols: its file, the
    /// segment its map's addresses count from, and the bytes a map may
    /// describe.
    pub dos_program: Option<DosProgram>,
}

/// What symbols need of a DOS program (see [`Env::dos_program`]).
#[derive(Debug, Clone)]
pub struct DosProgram {
    /// The program's file.
    pub path: std::path::PathBuf,
    /// The paragraph its load image starts at.
    pub base_seg: u16,
    /// The load image's length in bytes.
    pub image_len: u32,
}

/// Console output a run keeps for its report (the echo to stdout has all
/// of it): a program that prints in a loop must not grow the tool without
/// bound.
pub const MAX_CONSOLE: usize = 1 << 20;

/// OutputDebugString strings a run keeps for its report.
pub const MAX_DEBUG_STRINGS: usize = 10_000;

impl Env {
    /// Record an OutputDebugString string (at most [`MAX_DEBUG_STRINGS`]
    /// kept, the rest counted).
    pub fn debug_string(&mut self, s: String) {
        if self.debug_output.len() < MAX_DEBUG_STRINGS {
            self.debug_output.push(s);
        } else {
            self.debug_output_dropped += 1;
        }
    }

    /// A fresh environment.
    pub fn new(echo: bool) -> Env {
        Env {
            dos: Dos::default(),
            win16: Win16::default(),
            console: Vec::new(),
            console_dropped: 0,
            echo,
            echo_terminal: echo && std::io::IsTerminal::is_terminal(&std::io::stdout()),
            debug_output: Vec::new(),
            debug_output_dropped: 0,
            drive: None,
            program_name: None,
            symbols: crate::symbols::Registry::default(),
            dos_program: None,
        }
    }

    /// Write program output to the console.
    pub fn write_console(&mut self, bytes: &[u8]) {
        let room = MAX_CONSOLE.saturating_sub(self.console.len());
        let kept = bytes.len().min(room);
        self.console.extend_from_slice(&bytes[..kept]);
        self.console_dropped += (bytes.len() - kept) as u64;
        if self.echo {
            let mut out = std::io::stdout().lock();
            if self.echo_terminal {
                let _ = out.write_all(crate::dos::screen::terminal_text(bytes).as_bytes());
            } else {
                let _ = out.write_all(bytes);
            }
            let _ = out.flush();
        }
    }
}

impl Env {
    /// The symbol table of the Win16 module `hmodule` (built on first use),
    /// or of the DOS program when `hmodule` is None.
    pub fn symbol_table(
        &self,
        hmodule: Option<u16>,
    ) -> Result<Option<std::rc::Rc<crate::symbols::SymbolTable>>, String> {
        use crate::symbols::{ModuleInfo, fit::Target};
        match hmodule {
            Some(h) => {
                let Some(m) = self.win16.modules.iter().find(|m| m.hmodule == h) else {
                    return Ok(None);
                };
                let Some(ne) = m.image.as_deref() else {
                    return Ok(None);
                };
                self.symbols
                    .table(&ModuleInfo {
                        name: &m.name,
                        path: m.path.as_deref(),
                        target: Target::Ne(ne),
                    })
                    .map(Some)
            }
            None => {
                let (Some(p), Some(name)) = (&self.dos_program, &self.program_name) else {
                    return Ok(None);
                };
                self.symbols
                    .table(&ModuleInfo {
                        name,
                        path: Some(&p.path),
                        target: Target::Dos {
                            image_len: p.image_len,
                        },
                    })
                    .map(Some)
            }
        }
    }

    /// The symbol of a walked frame's CS:IP (symbols::frame_lookup: a
    /// return address is named from the call before it). In a built-in
    /// module's thunk segment every address is named as it is: nothing in
    /// a thunk (`int F0h; retf N`) calls anything, so no return address
    /// there follows a call, and a task parked to run its call again
    /// (GetMessage on an empty queue, scheduler.rs) resumes at its thunk's
    /// first byte, which the previous thunk's last byte must not name.
    pub fn frame_symbol(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
        exact: bool,
    ) -> Option<crate::symbols::SymbolRef> {
        let thunk =
            mem.mode() == crate::walk::CpuMode::Protected && self.win16.is_thunk_segment(cs);
        crate::symbols::frame_lookup(ip, exact || thunk, |ip| self.symbol_at(mem, cs, ip))
    }

    /// Where code address `cs:ip` lies for the debug information: the
    /// module's symbol table, and the NE segment number and offset (for a
    /// DOS program, [`crate::symbols::lines::DOS_SEGMENT`] and the linear
    /// offset from the load image).
    fn debug_place(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
    ) -> Option<(std::rc::Rc<crate::symbols::SymbolTable>, u16, u32)> {
        use crate::walk::CpuMode;
        match mem.mode() {
            CpuMode::Protected => {
                let owner = mem.code_owner(cs)?;
                let seg = owner.segment?;
                let t = self.symbol_table(Some(owner.hmodule)).ok()??;
                Some((t, seg, u32::from(ip)))
            }
            CpuMode::Real => {
                let p = self.dos_program.as_ref()?;
                let linear = (u32::from(cs) << 4) + u32::from(ip);
                let rel = linear.checked_sub(u32::from(p.base_seg) << 4)?;
                let t = self.symbol_table(None).ok()??;
                Some((t, crate::symbols::lines::DOS_SEGMENT, rel))
            }
        }
    }

    /// The source line of code address `cs:ip`, from the debug
    /// information of the module that holds it.
    pub fn line_at(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
    ) -> Option<crate::symbols::lines::SourceLine> {
        let (t, seg, off) = self.debug_place(mem, cs, ip)?;
        t.lines.line(seg, off)
    }

    /// The source line of a walked frame's CS:IP: a return address (`exact`
    /// false) is looked up one byte back, in the call that pushed it (as
    /// [`Env::frame_symbol`]).
    pub fn frame_line(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
        exact: bool,
    ) -> Option<crate::symbols::lines::SourceLine> {
        let ip = if exact || ip == 0 { ip } else { ip - 1 };
        self.line_at(mem, cs, ip)
    }

    /// The function of the debug information whose code holds `cs:ip`.
    pub fn function_at(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
    ) -> Option<crate::symbols::lines::Function> {
        let (t, seg, off) = self.debug_place(mem, cs, ip)?;
        t.lines.function(seg, off).cloned()
    }

    /// The parameters of a walked frame whose function the debug
    /// information describes: each one's place, BP-relative, and the word
    /// there (read from the frame's BP, the low bit that marks a far frame
    /// cleared), except while the frame's CS:IP is still on the function's
    /// first line (its prologue, where BP is not yet the function's). A
    /// return address (`exact` false) is looked up one byte back.
    pub fn frame_params(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        frame: &crate::walk::StackTraceEntry,
        exact: bool,
    ) -> Vec<crate::symbols::lines::ParamValue> {
        let (cs, ip) = (frame.w_cs, frame.w_ip);
        let ip = if exact || ip == 0 { ip } else { ip - 1 };
        let Some((t, seg, off)) = self.debug_place(mem, cs, ip) else {
            return Vec::new();
        };
        let Some(f) = t.lines.function(seg, off) else {
            return Vec::new();
        };
        let in_prologue = t
            .lines
            .line_range(seg, f.start)
            .is_some_and(|(s, e)| off >= s && off < e);
        let bp = frame.w_bp & !1;
        f.params
            .iter()
            .filter(|p| p.is_param)
            .map(|p| crate::symbols::lines::ParamValue {
                param: p.clone(),
                value: if in_prologue {
                    None
                } else {
                    u16::try_from(i32::from(bp) + p.bp_offset)
                        .ok()
                        .and_then(|at| mem.read_u16(frame.w_ss, at).ok())
                },
            })
            .collect()
    }

    /// The code range `[start, end)` of the source line that holds `cs:ip`,
    /// as IPs of the same CS (for stepping by line).
    pub fn line_range_at(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
    ) -> Option<(u16, u16)> {
        let (t, seg, off) = self.debug_place(mem, cs, ip)?;
        let (start, end) = t.lines.line_range(seg, off)?;
        let ip0 = u32::from(ip);
        let s = ip0.checked_sub(off - start)?;
        let e = ip0.checked_add(end - off)?.min(0x1_0000);
        Some((u16::try_from(s).ok()?, (e.min(0xFFFF)) as u16))
    }

    /// The symbol naming code address `cs:ip`: a built-in function's thunk
    /// by its name; in a Win16 module, the nearest preceding symbol of its
    /// NE segment; in a DOS program, of the map segment that holds it.
    pub fn symbol_at(
        &self,
        mem: &dyn crate::walk::WalkMemory,
        cs: u16,
        ip: u16,
    ) -> Option<crate::symbols::SymbolRef> {
        use crate::walk::CpuMode;
        match mem.mode() {
            CpuMode::Protected => {
                if let Some((name, disp)) = self.win16.thunk_symbol(cs, ip) {
                    return Some(crate::symbols::SymbolRef {
                        display: name.clone(),
                        raw: name,
                        displacement: u32::from(disp),
                        source: crate::symbols::Source::Resident,
                    });
                }
                let owner = mem.code_owner(cs)?;
                let seg = owner.segment?;
                let t = self.symbol_table(Some(owner.hmodule)).ok()??;
                t.lookup(seg, u32::from(ip))
            }
            CpuMode::Real => {
                let p = self.dos_program.as_ref()?;
                let linear = (u32::from(cs) << 4) + u32::from(ip);
                let rel = linear.checked_sub(u32::from(p.base_seg) << 4)?;
                let t = self.symbol_table(None).ok()??;
                t.lookup_linear(rel)
            }
        }
    }
}

impl Env {
    /// The built-in service for `INT intno`.
    fn native(&mut self, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
        match intno {
            // INT 20h ends the program; INT 27h ends it resident with DX
            // bytes (DOS's own rules, dos::process).
            0x20 => crate::dos::log::logged(self, uc, intno, None, |env, uc| {
                crate::dos::process::terminate(env, uc, 0, None)
            }),
            0x27 => crate::dos::log::logged(self, uc, intno, None, |env, uc| {
                let paras = u32::from(uc.reg(R::DX)).div_ceil(16);
                crate::dos::process::terminate(env, uc, 0, Some(paras as u16))
            }),
            // DOS's CP/M-style entry, reached from PSP:05 (its vector slot
            // holds the jump there).
            crate::dos::CPM_VECTOR if uc.mode() == crate::walk::CpuMode::Real => {
                crate::dos::int21::process::cpm_entry(self, uc)
            }
            n if crate::dos::is_hardware_vector(n) => crate::dos::hardware::bios_irq(self, uc, n),
            0x21 => crate::dos::log::logged(self, uc, intno, None, crate::dos::int21),
            0x10 | 0x11 | 0x12 | 0x13 | 0x15 | 0x16 | 0x1A | 0x2F | 0x33 => {
                crate::dos::log::logged(self, uc, intno, None, |env, uc| {
                    crate::dos::bios(env, uc, intno)
                })
            }
            // DOS idle and fast console output.
            0x28 => Ok(()),
            0x29 => {
                let al = uc.reg(R::AX) as u8;
                crate::dos::console_out(self, uc, &[al]);
                Ok(())
            }
            _ => Err(crate::dos::unimplemented(uc, format!("INT {intno:02X}h"))),
        }
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
                return self.native(uc, n[0]);
            }
            if crate::dos::hardware::hooked(uc, intno)? {
                return crate::dos::hardware::deliver(uc, intno);
            }
            return self.native(uc, intno);
        }
        let r = match intno {
            API_INT if self.win16.is_thunk_segment(uc.reg(R::CS)) => {
                crate::win16::call_api(self, uc)
            }
            // The floating-point emulator's interrupts (win16/win87em.rs).
            0x34..=0x3D if !self.win16.tasks.is_empty() => {
                crate::win16::win87em::emulator_int(self, uc, intno)
            }
            _ => self.native(uc, intno),
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
