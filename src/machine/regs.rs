//! The 16-bit register file ([`Regs`]) and the register names ([`R`])
//! that [`Cpu::reg`] and [`Cpu::set_reg`] take.

use super::*;

/// The 16-bit register file, as a report or a walk needs it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Regs {
    /// AX.
    pub ax: u16,
    /// BX.
    pub bx: u16,
    /// CX.
    pub cx: u16,
    /// DX.
    pub dx: u16,
    /// SI.
    pub si: u16,
    /// DI.
    pub di: u16,
    /// BP.
    pub bp: u16,
    /// SP.
    pub sp: u16,
    /// IP.
    pub ip: u16,
    /// FLAGS.
    pub flags: u16,
    /// CS.
    pub cs: u16,
    /// DS.
    pub ds: u16,
    /// ES.
    pub es: u16,
    /// SS.
    pub ss: u16,
    /// FS.
    pub fs: u16,
    /// GS.
    pub gs: u16,
}

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
