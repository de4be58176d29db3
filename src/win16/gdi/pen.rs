//! Pens: CreatePen, CreatePenIndirect and the LOGPEN structure.
//!
//! A pen has a style (PS_SOLID 0, PS_DASH 1, PS_DOT 2, PS_DASHDOT 3,
//! PS_DASHDOTDOT 4, PS_NULL 5, PS_INSIDEFRAME 6), a width in logical units
//! (LOGPEN's lopnWidth.x; 0 draws one pixel whatever the mapping mode) and
//! a colour. The dashed styles exist only one pixel wide: a wider styled
//! pen draws solid (SDK, CreatePen). How pens draw is in lines.rs.

use super::{Env, Stop, Uc, arg_i, read_struct};
use crate::win16::api::{Api, Arg};

pub const PS_SOLID: u16 = 0;
pub const PS_DASH: u16 = 1;
pub const PS_DOT: u16 = 2;
pub const PS_DASHDOT: u16 = 3;
pub const PS_DASHDOTDOT: u16 = 4;
pub const PS_NULL: u16 = 5;
pub const PS_INSIDEFRAME: u16 = 6;

/// LOGPEN, 10 bytes: WORD lopnStyle; POINT lopnWidth; COLORREF lopnColor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogPen {
    pub style: u16,
    pub width: (i16, i16),
    pub color: u32,
}

impl LogPen {
    pub const SIZE: usize = 10;

    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[0..2].copy_from_slice(&self.style.to_le_bytes());
        b[2..4].copy_from_slice(&self.width.0.to_le_bytes());
        b[4..6].copy_from_slice(&self.width.1.to_le_bytes());
        b[6..10].copy_from_slice(&self.color.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8; Self::SIZE]) -> LogPen {
        LogPen {
            style: u16::from_le_bytes([b[0], b[1]]),
            width: (
                i16::from_le_bytes([b[2], b[3]]),
                i16::from_le_bytes([b[4], b[5]]),
            ),
            color: u32::from_le_bytes([b[6], b[7], b[8], b[9]]),
        }
    }
}

/// A pen object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pen {
    pub log: LogPen,
}

impl Pen {
    pub fn new(style: u16, width: i16, color: u32) -> Pen {
        Pen {
            log: LogPen {
                style,
                width: (width, 0),
                color,
            },
        }
    }

    pub fn logpen(&self) -> LogPen {
        self.log
    }

    /// The style as drawing uses it: unknown styles draw solid.
    pub fn style(&self) -> u16 {
        match self.log.style {
            s @ 0..=6 => s,
            _ => PS_SOLID,
        }
    }

    pub fn is_null(&self) -> bool {
        self.style() == PS_NULL
    }
}

fn create(env: &mut Env, uc: &mut Uc<'_>, log: LogPen) -> u32 {
    super::objects::create(&mut env.win16, uc, super::objects::Obj::Pen(Pen { log }))
        .map_or(0, u32::from)
}

/// GDI.61 CreatePen(nPenStyle, nWidth, crColor) -> HPEN.
fn create_pen(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(create(
        env,
        uc,
        LogPen {
            style: a[0] as u16,
            width: (arg_i(a[1]) as i16, 0),
            color: a[2],
        },
    ))
}

/// GDI.62 CreatePenIndirect(lpLogPen) -> HPEN.
fn create_pen_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(b) = read_struct::<{ LogPen::SIZE }>(uc, a[0]) else {
        return Ok(0);
    };
    Ok(create(env, uc, LogPen::from_bytes(&b)))
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        61,
        "CREATEPEN",
        &[Arg::W, Arg::W, Arg::L],
        create_pen,
    ),
    Api::new(
        "GDI",
        62,
        "CREATEPENINDIRECT",
        &[Arg::L],
        create_pen_indirect,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logpen_layout() {
        let p = LogPen {
            style: PS_DASH,
            width: (3, -1),
            color: 0x00112233,
        };
        assert_eq!(
            p.to_bytes(),
            [1, 0, 3, 0, 0xFF, 0xFF, 0x33, 0x22, 0x11, 0x00]
        );
        assert_eq!(LogPen::from_bytes(&p.to_bytes()), p);
        assert_eq!(Pen::new(9, 1, 0).style(), PS_SOLID);
    }
}
