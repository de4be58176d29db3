//! Register, memory and descriptor access ([`Cpu`]) for the machine and
//! for environment code inside a hook, with the 286's checks of segment
//! limits and selector loads, and the walkers' view of the same memory
//! ([`WalkMemory`]).

use super::{
    Cause, CodeOwner, CpuMode, Descriptor, DescriptorTable, Fault, GDT_BASE, GDT_LIMIT, LDT_BASE,
    LDT_LIMIT, MachineError, MemError, R, RegisterX86, Regs, Stop, Uc, WalkMemory, a20, descriptor,
    uerr,
};

/// Register, memory and descriptor access shared by the machine and by
/// environment code running inside a hook.
pub trait Cpu {
    /// Real or protected mode.
    fn mode(&self) -> CpuMode;
    /// A register's value.
    fn reg(&self, r: R) -> u16;
    /// Set a register.
    fn set_reg(&mut self, r: R, v: u16) -> Result<(), MachineError>;
    /// All the 16-bit registers.
    fn regs(&self) -> Regs;
    /// The descriptor a selector names (protected mode), or None.
    fn descriptor_of(&self, sel: u16) -> Option<Descriptor>;
    /// Read bytes at SEG:OFF, checked against the segment's limit.
    fn read_seg(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError>;
    /// Write bytes at SEG:OFF, checked against the segment's limit.
    fn write_seg(&mut self, seg: u16, off: u16, data: &[u8]) -> Result<(), MemError>;
    /// Read a word at SEG:OFF.
    fn read_u16_at(&self, seg: u16, off: u16) -> Result<u16, MemError> {
        let mut b = [0u8; 2];
        self.read_seg(seg, off, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
    /// Write a word at SEG:OFF.
    fn write_u16_at(&mut self, seg: u16, off: u16, v: u16) -> Result<(), MemError> {
        self.write_seg(seg, off, &v.to_le_bytes())
    }
    /// Push a word on SS:SP.
    fn push16(&mut self, v: u16) -> Result<(), MachineError> {
        let sp = self.reg(R::SP).wrapping_sub(2);
        let ss = self.reg(R::SS);
        self.write_u16_at(ss, sp, v)
            .map_err(|e| MachineError(format!("push: {e}")))?;
        self.set_reg(R::SP, sp)
    }
    /// Load the whole 16-bit register file: segment registers first (a
    /// selector is checked when loaded), CS:IP last (where execution goes
    /// on, also from inside a hook). FS and GS are left alone.
    fn set_regs(&mut self, r: &Regs) -> Result<(), MachineError> {
        for (reg, v) in [
            (R::SS, r.ss),
            (R::SP, r.sp),
            (R::DS, r.ds),
            (R::ES, r.es),
            (R::AX, r.ax),
            (R::BX, r.bx),
            (R::CX, r.cx),
            (R::DX, r.dx),
            (R::SI, r.si),
            (R::DI, r.di),
            (R::BP, r.bp),
            (R::FLAGS, r.flags),
            (R::CS, r.cs),
            (R::IP, r.ip),
        ] {
            self.set_reg(reg, v)?;
        }
        Ok(())
    }
    /// Record why the machine must stop and stop it.
    fn request_stop(&mut self, stop: Stop);
}

/// Real mode: forget what unicorn translated from `len` bytes at `lin`
/// that the host just wrote. unicorn's own memory writes skip QEMU's
/// tracking of code pages, so without this a program would run the old
/// code after DOS read new code over it (EXEC, overlays, a file read into
/// a code buffer) or after a write through the A20 wrap.
pub fn forget_code(uc: &Uc<'_>, lin: u64, len: usize) {
    if len == 0 || uc.get_data().mode != CpuMode::Real {
        return;
    }
    let end = lin.saturating_add(len as u64);
    let low_end = end.min(a20::HMA_BASE);
    if lin < low_end {
        crate::machine::tlb::remove_cache(uc, lin, low_end);
    }
    if end > a20::HMA_BASE && !a20::enabled(uc) {
        let from = lin.max(a20::HMA_BASE) - a20::HMA_BASE;
        let to = (end - a20::HMA_BASE).min(a20::HMA_SIZE as u64);
        if from < to {
            crate::machine::tlb::remove_cache(uc, from, to);
        }
    }
}

pub(super) fn seg_range(d: &Descriptor, seg: u16, off: u16, len: usize) -> Result<u64, MemError> {
    let end = u64::from(off) + len as u64;
    if len > 0 && end - 1 > u64::from(d.limit) {
        return Err(MemError::BeyondLimit {
            seg,
            off: off.into(),
            len: len as u32,
            limit: d.limit,
        });
    }
    Ok(u64::from(d.base) + u64::from(off))
}

impl Cpu for Uc<'_> {
    fn mode(&self) -> CpuMode {
        self.get_data().mode
    }
    fn reg(&self, r: R) -> u16 {
        self.reg_read(r.uc()).unwrap_or(0) as u16
    }
    fn set_reg(&mut self, r: R, v: u16) -> Result<(), MachineError> {
        let res = if r == R::SP && self.get_data().mode == CpuMode::Protected {
            // Keep ESP's high word clear: the stack is 16-bit.
            self.reg_write(RegisterX86::ESP, u64::from(v))
        } else if r == R::IP && self.get_data().mode == CpuMode::Protected {
            self.reg_write(RegisterX86::EIP, u64::from(v))
        } else {
            self.reg_write(r.uc(), u64::from(v))
        };
        res.map_err(|e| {
            if let Some(f) = refused_load(self, r, v) {
                self.get_data().refused.set(Some(f));
            }
            uerr(&format!("setting {} to {v:04X}", r.name()), e)
        })
    }
    fn regs(&self) -> Regs {
        Regs {
            ax: self.reg(R::AX),
            bx: self.reg(R::BX),
            cx: self.reg(R::CX),
            dx: self.reg(R::DX),
            si: self.reg(R::SI),
            di: self.reg(R::DI),
            bp: self.reg(R::BP),
            sp: self.reg(R::SP),
            ip: self.reg(R::IP),
            flags: self.reg(R::FLAGS),
            cs: self.reg(R::CS),
            ds: self.reg(R::DS),
            es: self.reg(R::ES),
            ss: self.reg(R::SS),
            fs: self.reg(R::FS),
            gs: self.reg(R::GS),
        }
    }
    fn descriptor_of(&self, sel: u16) -> Option<Descriptor> {
        match self.get_data().mode {
            CpuMode::Real => Some(Descriptor::real(sel)),
            CpuMode::Protected => {
                if sel & 0xFFFC == 0 {
                    return None;
                }
                let table = if sel & 4 != 0 { LDT_BASE } else { GDT_BASE };
                let limit = u64::from(if sel & 4 != 0 { LDT_LIMIT } else { GDT_LIMIT });
                let index = u64::from(sel & 0xFFF8);
                if index + 7 > limit {
                    return None;
                }
                let mut b = [0u8; 8];
                self.mem_read(table + index, &mut b).ok()?;
                let d = descriptor::decode(&b);
                if d.access == 0 { None } else { Some(d) }
            }
        }
    }
    fn read_seg(&self, seg: u16, off: u16, buf: &mut [u8]) -> Result<(), MemError> {
        (|| {
            let d = self.descriptor_of(seg).ok_or(MemError::BadSelector(seg))?;
            let lin = seg_range(&d, seg, off, buf.len())?;
            self.mem_read(lin, buf)
                .map_err(|_| MemError::Unmapped { linear: lin as u32 })
        })()
        .inspect_err(|_| note_refused_access(self, seg, off, buf.len(), false))
    }
    fn write_seg(&mut self, seg: u16, off: u16, data: &[u8]) -> Result<(), MemError> {
        let d = self
            .descriptor_of(seg)
            .ok_or(MemError::BadSelector(seg))
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        let lin = seg_range(&d, seg, off, data.len())
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        self.mem_write(lin, data)
            .map_err(|_| MemError::Unmapped { linear: lin as u32 })
            .inspect_err(|_| note_refused_access(self, seg, off, data.len(), true))?;
        forget_code(self, lin, data.len());
        Ok(())
    }
    fn request_stop(&mut self, stop: Stop) {
        let st = self.get_data_mut();
        st.ic.off();
        // A system function that failed because the CPU refused a
        // selector the program gave it (a window procedure's, a saved
        // stack's), or could not reach memory the program pointed it at (a
        // MSG buffer past its segment), stops as the fault the CPU raises
        // for it, as Windows' own code faulted there: never as an emulator
        // error.
        let stop = match (stop, st.refused.take()) {
            (Stop::Error(_), Some(f)) => Stop::Fault(f),
            (stop, _) => stop,
        };
        if st.stop.is_none() {
            st.stop = Some(stop);
        }
        let _ = self.emu_stop();
    }
}

/// Remember, in protected mode, the fault of an access to guest memory
/// that failed (see [`Cpu::request_stop`]): #GP (13), or #SS (12) through
/// the stack segment, at the current CS:IP, the segment register named by
/// which one holds the selector.
pub(super) fn note_refused_access(uc: &Uc<'_>, seg: u16, off: u16, len: usize, write: bool) {
    let st = uc.get_data();
    if st.mode != CpuMode::Protected {
        return;
    }
    let regs = uc.regs();
    let segment = [
        ("DS", regs.ds),
        ("ES", regs.es),
        ("SS", regs.ss),
        ("CS", regs.cs),
    ]
    .into_iter()
    .find(|&(_, v)| v == seg)
    .map_or("DS", |(n, _)| n);
    let d = uc.descriptor_of(seg);
    let f = Fault::with_cause(
        if segment == "SS" { 12 } else { 13 },
        regs,
        Cause::Access {
            segment,
            selector: seg,
            offset: off,
            size: len.min(usize::from(u16::MAX)) as u16,
            write,
            limit: d.map(|d| d.limit),
            linear: d.map(|d| d.base.wrapping_add(u32::from(off))),
        },
    );
    st.refused.set(Some(f));
}

/// The fault the CPU raises for loading segment register `r` with `sel`
/// in protected mode (None for other registers, or in real mode): #GP
/// (13) for a null, invalid or unsuitable selector, #NP (11) for a segment
/// not present, #SS (12) for a stack segment not present (Intel's rules
/// for MOV to a segment register and far transfers), at the current
/// CS:IP.
pub(super) fn refused_load(uc: &Uc<'_>, r: R, sel: u16) -> Option<Fault> {
    if uc.get_data().mode != CpuMode::Protected {
        return None;
    }
    let name = match r {
        R::CS => "CS",
        R::DS => "DS",
        R::ES => "ES",
        R::SS => "SS",
        R::FS => "FS",
        R::GS => "GS",
        _ => return None,
    };
    let d = uc.descriptor_of(sel);
    let (number, reason) = match d {
        _ if sel & !3 == 0 => (13, "null"),
        None => (13, "invalid"),
        Some(d) if d.access & 0x80 == 0 => (if r == R::SS { 12 } else { 11 }, "not present"),
        Some(d) if r == R::CS && !d.is_code() => (13, "non-code"),
        Some(d) if r == R::SS && d.is_code() => (13, "non-writable"),
        Some(_) => (13, "invalid"),
    };
    Some(Fault::with_cause(
        number,
        uc.regs(),
        Cause::SelectorLoad {
            register: name,
            selector: Some(sel),
            reason,
        },
    ))
}

impl WalkMemory for Uc<'_> {
    fn mode(&self) -> CpuMode {
        self.get_data().mode
    }
    fn descriptor(&self, seg: u16) -> Option<Descriptor> {
        self.descriptor_of(seg)
    }
    fn read_linear(&self, linear: u32, buf: &mut [u8]) -> Result<(), MemError> {
        self.mem_read(u64::from(linear), buf)
            .map_err(|_| MemError::Unmapped { linear })
    }
    fn current_task(&self) -> u16 {
        self.get_data().current_task
    }
    fn code_owner(&self, cs: u16) -> Option<CodeOwner> {
        let st = self.get_data();
        match (st.mode, st.real_owner) {
            (CpuMode::Real, Some((lo, hi, psp))) if (lo..hi).contains(&cs) => Some(CodeOwner {
                hmodule: psp,
                segment: None,
            }),
            (CpuMode::Real, _) => None,
            (CpuMode::Protected, _) => st.owners.get(&cs).copied(),
        }
    }
    fn descriptor_table(&self, ldt: bool) -> Option<DescriptorTable> {
        if self.get_data().mode != CpuMode::Protected {
            return None;
        }
        Some(match ldt {
            false => DescriptorTable {
                base: GDT_BASE as u32,
                limit: GDT_LIMIT,
            },
            true => DescriptorTable {
                base: LDT_BASE as u32,
                limit: LDT_LIMIT,
            },
        })
    }
}
