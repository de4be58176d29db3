//! The 16-bit register file, as the machine reads it and a report or a
//! walk needs it.

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
