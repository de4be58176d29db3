//! Font objects as GDI keeps them: the LOGFONT the program asked for
//! (CreateFont, CreateFontIndirect, the stock fonts). Choosing and
//! realizing a physical font from a LOGFONT, and drawing text with it, is
//! the text engine's (font.rs, text.rs).
//!
//! LOGFONT, 50 bytes: int lfHeight, lfWidth, lfEscapement, lfOrientation,
//! lfWeight; BYTE lfItalic, lfUnderline, lfStrikeOut, lfCharSet,
//! lfOutPrecision, lfClipPrecision, lfQuality, lfPitchAndFamily; char
//! lfFaceName[32] (LF_FACESIZE).

use super::{Env, Stop, Uc, arg_i, read_struct};
use crate::win16::api::{Api, Arg};

/// A LOGFONT.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogFont {
    pub height: i16,
    pub width: i16,
    pub escapement: i16,
    pub orientation: i16,
    pub weight: i16,
    pub italic: u8,
    pub underline: u8,
    pub strike_out: u8,
    pub char_set: u8,
    pub out_precision: u8,
    pub clip_precision: u8,
    pub quality: u8,
    pub pitch_and_family: u8,
    /// The face name's bytes up to (not including) its NUL, at most 31.
    pub face: Vec<u8>,
}

impl LogFont {
    pub const SIZE: usize = 50;
    pub const FACESIZE: usize = 32;

    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        for (i, v) in [
            self.height,
            self.width,
            self.escapement,
            self.orientation,
            self.weight,
        ]
        .into_iter()
        .enumerate()
        {
            b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
        }
        b[10..18].copy_from_slice(&[
            self.italic,
            self.underline,
            self.strike_out,
            self.char_set,
            self.out_precision,
            self.clip_precision,
            self.quality,
            self.pitch_and_family,
        ]);
        let n = self.face.len().min(Self::FACESIZE - 1);
        b[18..18 + n].copy_from_slice(&self.face[..n]);
        b
    }

    /// A LOGFONT from its bytes; the face name ends at its first NUL or at
    /// 31 bytes.
    pub fn from_bytes(b: &[u8; Self::SIZE]) -> LogFont {
        let w = |o: usize| i16::from_le_bytes([b[o], b[o + 1]]);
        let face_bytes = &b[18..18 + Self::FACESIZE - 1];
        let end = face_bytes
            .iter()
            .position(|&c| c == 0)
            .unwrap_or(face_bytes.len());
        LogFont {
            height: w(0),
            width: w(2),
            escapement: w(4),
            orientation: w(6),
            weight: w(8),
            italic: b[10],
            underline: b[11],
            strike_out: b[12],
            char_set: b[13],
            out_precision: b[14],
            clip_precision: b[15],
            quality: b[16],
            pitch_and_family: b[17],
            face: face_bytes[..end].to_vec(),
        }
    }

    /// The LOGFONT of a stock font (objects.rs `stock`), with Wine's
    /// 16-bit stock font descriptions (the text engine replaces them with
    /// the realized fonts' own values when it has the font files).
    pub fn stock(index: u16) -> LogFont {
        use super::objects::stock;
        const FW_NORMAL: i16 = 400;
        const FW_BOLD: i16 = 700;
        const ANSI_CHARSET: u8 = 0;
        const OEM_CHARSET: u8 = 255;
        const FIXED_MODERN: u8 = 0x01 | 0x30;
        const VARIABLE_SWISS: u8 = 0x02 | 0x20;
        let (h, w, weight, cs, pf, face): (i16, i16, i16, u8, u8, &str) = match index {
            stock::OEM_FIXED_FONT => (12, 8, FW_NORMAL, OEM_CHARSET, FIXED_MODERN, "Terminal"),
            stock::ANSI_FIXED_FONT => (12, 9, FW_NORMAL, ANSI_CHARSET, FIXED_MODERN, "Courier"),
            stock::ANSI_VAR_FONT => (
                12,
                9,
                FW_NORMAL,
                ANSI_CHARSET,
                VARIABLE_SWISS,
                "MS Sans Serif",
            ),
            stock::SYSTEM_FIXED_FONT => (16, 8, FW_NORMAL, ANSI_CHARSET, FIXED_MODERN, "Fixedsys"),
            stock::DEVICE_DEFAULT_FONT => (16, 0, FW_NORMAL, ANSI_CHARSET, 0, ""),
            _ => (16, 7, FW_BOLD, ANSI_CHARSET, VARIABLE_SWISS, "System"),
        };
        LogFont {
            height: h,
            width: w,
            escapement: 0,
            orientation: 0,
            weight,
            italic: 0,
            underline: 0,
            strike_out: 0,
            char_set: cs,
            out_precision: 0,
            clip_precision: 0,
            quality: 0,
            pitch_and_family: pf,
            face: face.as_bytes().to_vec(),
        }
    }
}

fn create(env: &mut Env, uc: &mut Uc<'_>, f: LogFont) -> u32 {
    super::objects::create(&mut env.win16, uc, super::objects::Obj::Font(f)).map_or(0, u32::from)
}

/// GDI.56 CreateFont(nHeight, nWidth, nEscapement, nOrientation, fnWeight,
/// fbItalic, fbUnderline, fbStrikeOut, fbCharSet, fbOutputPrecision,
/// fbClipPrecision, fbQuality, fbPitchAndFamily, lpszFace) -> HFONT. The
/// BYTE arguments are passed as words; a NULL face is the empty name.
fn create_font(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let face = if a[13] == 0 {
        Vec::new()
    } else {
        match crate::win16::farptr::read_cstr(uc, a[13], LogFont::FACESIZE - 1) {
            Some(s) => s,
            // A face name of 31 bytes or more without a NUL within them:
            // its first 31 bytes.
            None => crate::win16::farptr::read_bytes(uc, a[13], LogFont::FACESIZE - 1)
                .map(|mut b| {
                    if let Some(z) = b.iter().position(|&c| c == 0) {
                        b.truncate(z);
                    }
                    b
                })
                .unwrap_or_default(),
        }
    };
    let i = |k: usize| arg_i(a[k]) as i16;
    Ok(create(
        env,
        uc,
        LogFont {
            height: i(0),
            width: i(1),
            escapement: i(2),
            orientation: i(3),
            weight: i(4),
            italic: a[5] as u8,
            underline: a[6] as u8,
            strike_out: a[7] as u8,
            char_set: a[8] as u8,
            out_precision: a[9] as u8,
            clip_precision: a[10] as u8,
            quality: a[11] as u8,
            pitch_and_family: a[12] as u8,
            face,
        },
    ))
}

/// GDI.57 CreateFontIndirect(lpLogFont) -> HFONT.
pub fn create_font_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    // The face name may end before the structure's 50 bytes do: read what
    // can be read.
    let b = match read_struct::<{ LogFont::SIZE }>(uc, a[0]) {
        Some(b) => b,
        None => {
            let Some(head) = crate::win16::farptr::read_bytes(uc, a[0], 18) else {
                return Ok(0);
            };
            let mut b = [0u8; LogFont::SIZE];
            b[..18].copy_from_slice(&head);
            if let Some(f) = crate::win16::farptr::read_cstr(
                uc,
                crate::win16::farptr::add(a[0], 18),
                LogFont::FACESIZE - 1,
            ) {
                b[18..18 + f.len()].copy_from_slice(&f);
            }
            b
        }
    };
    Ok(create(env, uc, LogFont::from_bytes(&b)))
}

pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        56,
        "CREATEFONT",
        &[
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
        ],
        create_font,
    ),
    Api::new(
        "GDI",
        57,
        "CREATEFONTINDIRECT",
        &[Arg::L],
        create_font_indirect,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logfont_layout() {
        let f = LogFont {
            height: -13,
            width: 0,
            escapement: 900,
            orientation: 0,
            weight: 700,
            italic: 1,
            underline: 0,
            strike_out: 1,
            char_set: 0,
            out_precision: 0,
            clip_precision: 0,
            quality: 2,
            pitch_and_family: 0x22,
            face: b"MS Sans Serif".to_vec(),
        };
        let b = f.to_bytes();
        assert_eq!(&b[0..2], &(-13i16).to_le_bytes());
        assert_eq!(&b[4..6], &900i16.to_le_bytes());
        assert_eq!(&b[8..10], &700i16.to_le_bytes());
        assert_eq!(b[10], 1);
        assert_eq!(b[12], 1);
        assert_eq!(b[16], 2);
        assert_eq!(b[17], 0x22);
        assert_eq!(&b[18..31], b"MS Sans Serif");
        assert_eq!(b[31], 0);
        assert_eq!(LogFont::from_bytes(&b), f);
        // A 32-byte name keeps 31 bytes and its NUL.
        let mut long = f.clone();
        long.face = vec![b'A'; 40];
        let lb = long.to_bytes();
        assert_eq!(lb[48], b'A');
        assert_eq!(lb[49], 0);
        assert_eq!(LogFont::from_bytes(&lb).face.len(), 31);
    }
}
