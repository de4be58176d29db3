//! The names and source lines of code addresses in the environment: a
//! built-in function's thunk by its name, a Win16 module's code from its
//! symbol table, a DOS program's from its map, for walks, traces, the
//! fault dialog and the debugger.

use super::Env;

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
