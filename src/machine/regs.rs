//! The register names ([`R`]) that [`Cpu::reg`] and [`Cpu::set_reg`]
//! take, and the register file ([`Regs`], crate::x86) they fill.

use super::RegisterX86;
pub use crate::x86::Regs;

/// 16-bit register names for [`Cpu::reg`] / [`Cpu::set_reg`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum R {
    /// AX.
    AX,
    /// BX.
    BX,
    /// CX.
    CX,
    /// DX.
    DX,
    /// SI.
    SI,
    /// DI.
    DI,
    /// BP.
    BP,
    /// SP.
    SP,
    /// IP.
    IP,
    /// FLAGS.
    FLAGS,
    /// CS.
    CS,
    /// DS.
    DS,
    /// ES.
    ES,
    /// SS.
    SS,
    /// FS.
    FS,
    /// GS.
    GS,
}

impl R {
    /// The register's name, as a report writes it (`SS`).
    pub fn name(self) -> &'static str {
        match self {
            R::AX => "AX",
            R::BX => "BX",
            R::CX => "CX",
            R::DX => "DX",
            R::SI => "SI",
            R::DI => "DI",
            R::BP => "BP",
            R::SP => "SP",
            R::IP => "IP",
            R::FLAGS => "FLAGS",
            R::CS => "CS",
            R::DS => "DS",
            R::ES => "ES",
            R::SS => "SS",
            R::FS => "FS",
            R::GS => "GS",
        }
    }

    pub(super) fn uc(self) -> RegisterX86 {
        match self {
            R::AX => RegisterX86::AX,
            R::BX => RegisterX86::BX,
            R::CX => RegisterX86::CX,
            R::DX => RegisterX86::DX,
            R::SI => RegisterX86::SI,
            R::DI => RegisterX86::DI,
            R::BP => RegisterX86::BP,
            R::SP => RegisterX86::SP,
            R::IP => RegisterX86::IP,
            R::FLAGS => RegisterX86::FLAGS,
            R::CS => RegisterX86::CS,
            R::DS => RegisterX86::DS,
            R::ES => RegisterX86::ES,
            R::SS => RegisterX86::SS,
            R::FS => RegisterX86::FS,
            R::GS => RegisterX86::GS,
        }
    }
}
