//! The machine at a stop, as a front end (the gdb stub, the command
//! session, the web pages) sees it: registers, memory, breakpoints and
//! watchpoints, and the changes a user makes there, which the session
//! keeps so that a replay makes them again (the module above, "Reverse
//! execution").

use unicorn_engine::RegisterX86;

use super::{Control, Edit, Pending, TempBreak, Watch, Why, install_watch};
use crate::machine::{Cpu, Regs, Stop, Uc};
use crate::session::Loc;
use crate::system::Env;
use crate::walk::CpuMode;

/// The machine at a stop, as a front end sees it: registers, memory,
/// breakpoints and watchpoints.
pub struct Here<'a, 'b> {
    pub(super) uc: UcRef<'a, 'b>,
    pub(super) ctl: &'a mut Control,
    pub(super) pending: &'a Pending,
    /// Why the program stopped.
    pub why: Why,
    /// The stop's position (module notes).
    pub pos: u64,
    /// The program's file.
    pub path: &'a std::path::Path,
}

pub(super) enum UcRef<'a, 'b> {
    Mut(&'a mut Uc<'b>),
    Ref(&'a Uc<'b>),
}

impl<'b> UcRef<'_, 'b> {
    pub(super) fn get(&self) -> &Uc<'b> {
        match self {
            UcRef::Mut(u) => u,
            UcRef::Ref(u) => u,
        }
    }
}

/// The reason a change cannot be made at this stop.
const READ_ONLY: &str = "the machine cannot be changed at this stop (a fault being reported, or the end of the program)";

impl<'b> Here<'_, 'b> {
    /// The machine, to read.
    pub fn uc(&self) -> &Uc<'b> {
        self.uc.get()
    }

    /// The environment (DOS, Win16), when it is there to read.
    pub fn env(&self) -> Option<&Env> {
        crate::machine::environment_of::<Env>(self.uc())
    }

    /// The 16-bit registers at the stop (at a fault: as before the
    /// faulting instruction).
    /// At the end: the registers the run's report walks from (as
    /// `Program::registers_at_stop`): an unimplemented or fatal
    /// function's caller, an unhandled fault's context.
    pub fn regs(&self) -> Regs {
        let mut r = self.uc().regs();
        match &self.why {
            Why::Fault(f) | Why::Ended(Stop::Fault(f)) => {
                r = f.regs;
                (r.cs, r.ip) = (f.cs, f.ip);
            }
            Why::Ended(Stop::Unimplemented { caller, .. } | Stop::Fatal { caller, .. }) => {
                (r.cs, r.ip, r.bp) = *caller;
            }
            Why::Ended(Stop::Hung { cs, ip } | Stop::Breakpoint { cs, ip }) => {
                (r.cs, r.ip) = (*cs, *ip);
            }
            _ => {}
        }
        r
    }

    /// A register of the 32-bit register file (the high words of the
    /// general registers, which 386 instructions reach).
    pub fn reg32(&self, r: RegisterX86) -> u64 {
        let regs = self.regs();
        let low = |v: u16, full: RegisterX86| {
            let hi = self.uc().reg_read(full).unwrap_or(0) & 0xFFFF_0000;
            hi | u64::from(v)
        };
        match r {
            RegisterX86::EAX => low(regs.ax, r),
            RegisterX86::EBX => low(regs.bx, r),
            RegisterX86::ECX => low(regs.cx, r),
            RegisterX86::EDX => low(regs.dx, r),
            RegisterX86::ESI => low(regs.si, r),
            RegisterX86::EDI => low(regs.di, r),
            RegisterX86::EBP => low(regs.bp, r),
            RegisterX86::ESP => low(regs.sp, r),
            RegisterX86::EFLAGS => low(regs.flags, r),
            _ => self.uc().reg_read(r).unwrap_or(0),
        }
    }

    /// The linear address of `seg:off`.
    pub fn linear(&self, seg: u16, off: u16) -> Option<u64> {
        self.uc()
            .descriptor_of(seg)
            .map(|d| u64::from(d.base) + u64::from(off))
    }

    /// The linear address of CS:IP.
    pub fn pc(&self) -> u64 {
        let r = self.regs();
        self.linear(r.cs, r.ip).unwrap_or(u64::from(r.ip))
    }

    /// Read `buf.len()` bytes at linear `addr`.
    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), String> {
        self.uc()
            .mem_read(addr, buf)
            .map_err(|e| format!("{addr:#x}: {}", crate::machine::uc_words(e)))
    }

    /// Can the machine be changed at this stop?
    pub fn writable(&self) -> bool {
        matches!(self.uc, UcRef::Mut(_)) && !matches!(self.why, Why::Ended(_))
    }

    fn uc_mut(&mut self) -> Result<&mut Uc<'b>, String> {
        if matches!(self.why, Why::Ended(_)) {
            return Err(READ_ONLY.into());
        }
        match &mut self.uc {
            UcRef::Mut(u) => Ok(u),
            UcRef::Ref(_) => Err(READ_ONLY.into()),
        }
    }

    /// Write bytes at linear `addr` (recorded for replays).
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), String> {
        let pos = self.pos;
        let uc = self.uc_mut()?;
        apply(uc, &Edit::Mem(addr, data.to_vec()))?;
        self.ctl.edits.push((pos, Edit::Mem(addr, data.to_vec())));
        self.ctl.checkpoints.forget_after(pos);
        Ok(())
    }

    /// Set a register of the 32-bit file (recorded for replays).
    pub fn set_reg(&mut self, r: RegisterX86, v: u64) -> Result<(), String> {
        let pos = self.pos;
        let uc = self.uc_mut()?;
        apply(uc, &Edit::Reg(r, v))?;
        self.ctl.edits.push((pos, Edit::Reg(r, v)));
        self.ctl.checkpoints.forget_after(pos);
        Ok(())
    }

    /// Set a breakpoint at linear `addr`.
    pub fn add_breakpoint(&mut self, addr: u64) {
        self.ctl.breakpoints.insert(addr);
    }

    /// Remove a breakpoint; false when there was none.
    pub fn remove_breakpoint(&mut self, addr: u64) -> bool {
        self.ctl.breakpoints.remove(&addr)
    }

    /// Stop before the instruction at position `n` (`+N`).
    pub fn add_position_break(&mut self, n: u64) {
        self.ctl.position_breaks.insert(n);
    }

    /// The breakpoints at positions.
    pub fn position_breaks(&self) -> Vec<u64> {
        self.ctl.position_breaks.iter().copied().collect()
    }

    /// Remove a breakpoint at a position; false when there was none.
    pub fn remove_position_break(&mut self, n: u64) -> bool {
        self.ctl.position_breaks.remove(&n)
    }

    /// The breakpoints, by linear address.
    pub fn breakpoints(&self) -> Vec<u64> {
        self.ctl.breakpoints.iter().copied().collect()
    }

    /// Stop once at `t` (the command session's `next` and `finish`).
    pub fn set_temp(&mut self, t: Option<TempBreak>) {
        self.ctl.temp = t;
    }

    /// Add a watchpoint (a memory hook on its bytes).
    pub fn add_watch(&mut self, w: Watch) -> Result<(), String> {
        if w.len == 0 || w.len > 0x1_0000 || w.addr.checked_add(w.len).is_none() {
            return Err(format!(
                "a watchpoint of {} bytes at {:#x}: 1 to 65536 bytes of memory",
                w.len, w.addr
            ));
        }
        if self.ctl.watches.iter().any(|(x, _)| *x == w) {
            return Ok(());
        }
        let pending = self.pending.clone();
        let uc = self.uc_mut()?;
        let id = install_watch(uc, w, pending)?;
        self.ctl.watches.push((w, Some(id)));
        Ok(())
    }

    /// Remove a watchpoint; false when there was none.
    pub fn remove_watch(&mut self, w: Watch) -> Result<bool, String> {
        let Some(i) = self.ctl.watches.iter().position(|(x, _)| *x == w) else {
            return Ok(false);
        };
        let id = self.ctl.watches[i].1;
        let uc = self.uc_mut()?;
        if let Some(id) = id {
            uc.remove_hook(id)
                .map_err(|e| crate::machine::uc_words(e).to_string())?;
        }
        self.ctl.watches.remove(i);
        Ok(true)
    }

    /// The watchpoints.
    pub fn watches(&self) -> Vec<Watch> {
        self.ctl.watches.iter().map(|(w, _)| *w).collect()
    }

    /// Resolve a location as `stack --at` takes it (`SEG:OFF`,
    /// `MODULE:SEG:OFF`, `MODULE!NAME`, `MODULE!#N`) to SEG:OFF.
    pub fn resolve(&self, text: &str) -> Result<(u16, u16), String> {
        let loc: Loc = text.parse()?;
        let env = self.env().ok_or("the environment is busy at this stop")?;
        crate::session::resolve_in(env, self.uc() as &dyn crate::walk::WalkMemory, &loc)
    }

    /// [`Here::resolve`], first giving a built-in DLL function the
    /// program does not import its thunk when the machine can be changed
    /// here (`break USER!GetMessage`: session.rs, `prepare_location`).
    pub fn resolve_mut(&mut self, text: &str) -> Result<(u16, u16), String> {
        let loc: Loc = text.parse()?;
        if self.mode() == CpuMode::Protected
            && let Ok(uc) = self.uc_mut()
        {
            crate::session::prepare_location(uc, &loc)?;
        }
        self.resolve(text)
    }

    /// [`Here::resolve`] to a linear address.
    pub fn resolve_linear(&self, text: &str) -> Result<u64, String> {
        let (seg, off) = self.resolve(text)?;
        self.linear(seg, off)
            .ok_or_else(|| format!("{text}: {seg:04X}:{off:04X}: no such segment"))
    }

    /// The CPU mode.
    pub fn mode(&self) -> CpuMode {
        self.uc().mode()
    }

    /// How the program ran to this stop (module notes, "Hooks"): the
    /// position up to which it ran without the hook on every instruction
    /// (None: with the hook all the way), and whether it did so all the
    /// way to the stop.
    pub fn ran_without_hook(&self) -> (Option<u64>, bool) {
        match (self.ctl.fast, self.ctl.left_fast_at) {
            (Some(_), _) => (Some(self.pos), true),
            (None, Some(p)) => (Some(p), false),
            (None, None) => (None, false),
        }
    }
}

/// Make a change to the machine (a user's, or one made again in a
/// replay).
pub(super) fn apply(uc: &mut Uc<'_>, e: &Edit) -> Result<(), String> {
    match e {
        Edit::Mem(addr, data) => {
            uc.mem_write(*addr, data)
                .map_err(|e| format!("{addr:#x}: {}", crate::machine::uc_words(e)))?;
            // Code written over must be translated again.
            crate::machine::tlb::remove_cache(uc, *addr, addr + data.len() as u64);
            Ok(())
        }
        Edit::Reg(r, v) => {
            let protected = uc.mode() == CpuMode::Protected;
            let v = match r {
                // The machine keeps ESP's high word clear in protected
                // mode (a 16-bit stack).
                RegisterX86::ESP if protected => *v & 0xFFFF,
                _ => *v,
            };
            uc.reg_write(*r, v)
                .map_err(|e| format!("{r:?}: {}", crate::machine::uc_words(e)))
        }
    }
}
