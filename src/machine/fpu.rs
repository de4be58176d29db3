//! The x87's state as a system function reads and writes it ([`Fpu`]).

use super::{MachineError, RegisterX86, Uc, uerr};

/// The x87's state as a system function sees it: control, status (with
/// TOP in bits 11-13) and tag words, and the data registers ST(0)..ST(7)
/// in stack order, 80 bits each (64-bit significand, then sign and
/// exponent), little-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fpu {
    /// The FPU control word.
    pub cw: u16,
    /// The FPU status word.
    pub sw: u16,
    /// The FPU tag word.
    pub tag: u16,
    /// ST(0)..ST(7), 80-bit extended reals.
    pub st: [[u8; 10]; 8],
}

/// Read the x87's state.
pub fn read_fpu(uc: &Uc<'_>) -> Result<Fpu, MachineError> {
    let word = |r: RegisterX86| {
        uc.reg_read(r)
            .map(|v| v as u16)
            .map_err(|e| uerr("reading the FPU", e))
    };
    let mut f = Fpu {
        cw: word(RegisterX86::FPCW)?,
        sw: word(RegisterX86::FPSW)?,
        tag: word(RegisterX86::FPTAG)?,
        st: [[0; 10]; 8],
    };
    for (i, r) in f.st.iter_mut().enumerate() {
        let v = uc
            .reg_read_long(RegisterX86::ST0 as i32 + i as i32)
            .map_err(|e| uerr("reading the FPU", e))?;
        r.copy_from_slice(&v[..10]);
    }
    Ok(f)
}

/// Write the x87's state (TOP from the status word first, so the data
/// registers land in stack order).
pub fn write_fpu(uc: &mut Uc<'_>, f: &Fpu) -> Result<(), MachineError> {
    let e = |e| uerr("writing the FPU", e);
    uc.reg_write(RegisterX86::FPCW, u64::from(f.cw))
        .map_err(e)?;
    uc.reg_write(RegisterX86::FPSW, u64::from(f.sw))
        .map_err(e)?;
    for (i, r) in f.st.iter().enumerate() {
        uc.reg_write_long(RegisterX86::ST0 as i32 + i as i32, r)
            .map_err(e)?;
    }
    uc.reg_write(RegisterX86::FPTAG, u64::from(f.tag))
        .map_err(e)?;
    Ok(())
}
