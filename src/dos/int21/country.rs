//! INT 21h country-dependent information: country information (38h), the
//! DBCS lead byte table (63h), extended country information and the
//! character tables (65h), and the code page (66h). The machine is set up
//! as MS-DOS 5 without a COUNTRY= line: the United States (country 1),
//! code page 437; asking for another country or code page is error 2, as
//! DOS answers when COUNTRY.SYS has not given it the data.

use super::{al, fail, ok, set};
use crate::dos::Env;
use crate::dos::{bios, data, set_al};
use crate::machine::{Cpu, R, Stop, Uc};

/// The United States.
pub const COUNTRY: u16 = 1;
/// Code page 437.
pub const CODE_PAGE: u16 = 437;

/// The 34-byte country information of the United States (AH=38h's
/// buffer; AX=6501h's body): date format 0 (m-d-y), currency "$",
/// thousands ",", decimal ".", date "-", time ":", currency before the
/// amount without a space, 2 decimals, 12-hour clock, the case-map
/// routine, data-list separator ",".
pub fn country_info() -> [u8; 34] {
    let mut b = [0u8; 34];
    b[2] = b'$';
    b[7] = b',';
    b[9] = b'.';
    b[0x0B] = b'-';
    b[0x0D] = b':';
    b[0x0F] = 0;
    b[0x10] = 2;
    b[0x11] = 0;
    b[0x12..0x14].copy_from_slice(&bios::CASE_MAP.to_le_bytes());
    b[0x14..0x16].copy_from_slice(&crate::dos::ROM_SEG.to_le_bytes());
    b[0x16] = b',';
    b
}

/// AH=38h: get (DX != FFFFh: the buffer DS:DX) or set (DX = FFFFh) the
/// country AL (FFh: BX), 0 the current one. BX = the country code.
pub fn info(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let code = match al(uc) {
        0 => COUNTRY,
        0xFF => uc.reg(R::BX),
        c => u16::from(c),
    };
    if code != COUNTRY {
        return fail(env, uc, 2);
    }
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    if dx != 0xFFFF {
        super::write_wrapping(uc, "DS", ds, dx, &country_info())?;
    }
    set(uc, R::BX, COUNTRY)?;
    set(uc, R::AX, COUNTRY)?;
    ok(uc)
}

/// AH=63h: AL=0 DS:SI = the DBCS lead byte table (empty for 437: the
/// terminating 0000h); AL=1/2 set/get the interim console flag (DL = 0).
/// Other AL: AL = FFh.
pub fn dbcs(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    match al(uc) {
        0 => {
            set(uc, R::DS, data::SEG)?;
            set(uc, R::SI, data::DBCS_TABLE + 2)?;
            set_al(uc, 0)
        }
        1 => set_al(uc, 0),
        2 => {
            let dx = uc.reg(R::DX);
            set(uc, R::DX, dx & 0xFF00)?;
            set_al(uc, 0)
        }
        _ => set_al(uc, 0xFF),
    }
}

fn table_pointer(uc: &mut Uc<'_>, id: u8, off: u16) -> Result<(), Stop> {
    let (es, di) = (uc.reg(R::ES), uc.reg(R::DI));
    let mut b = [id, 0, 0, 0, 0];
    b[1..3].copy_from_slice(&off.to_le_bytes());
    b[3..5].copy_from_slice(&data::SEG.to_le_bytes());
    super::write_wrapping(uc, "ES", es, di, &b)?;
    set(uc, R::CX, 5)
}

/// AH=65h: extended country information. AL=01h the country information
/// (ID, size, country, code page, the 34 bytes of AH=38h), 02h the
/// uppercase table, 04h the file-name uppercase table, 05h the file-name
/// terminator table, 06h the collating table, 07h the DBCS table (each a
/// pointer after the ID byte), into ES:DI (CX bytes at most); 20h
/// capitalize DL, 21h the CX bytes at DS:DX, 22h the ASCIZ string at
/// DS:DX; 23h is DL yes (AX = 1), no (0) or neither (2)? BX is the code
/// page and DX the country (FFFFh: the current one).
pub fn extended(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let al = al(uc);
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    if (1..=7).contains(&al)
        && (!matches!(bx, 0xFFFF | CODE_PAGE) || !matches!(dx, 0xFFFF | COUNTRY))
    {
        return fail(env, uc, 2);
    }
    match al {
        0x01 => {
            if cx < 5 {
                return fail(env, uc, 1);
            }
            let mut b = vec![1u8];
            b.extend_from_slice(&38u16.to_le_bytes());
            b.extend_from_slice(&COUNTRY.to_le_bytes());
            b.extend_from_slice(&CODE_PAGE.to_le_bytes());
            b.extend_from_slice(&country_info());
            b.truncate(usize::from(cx));
            let (es, di) = (uc.reg(R::ES), uc.reg(R::DI));
            super::write_wrapping(uc, "ES", es, di, &b)?;
            set(uc, R::CX, b.len() as u16)?;
        }
        0x02 => table_pointer(uc, 2, data::UPPERCASE_TABLE)?,
        0x04 => table_pointer(uc, 4, data::FILENAME_UPPERCASE_TABLE)?,
        0x05 => table_pointer(uc, 5, data::TERMINATOR_TABLE)?,
        0x06 => table_pointer(uc, 6, data::COLLATE_TABLE)?,
        0x07 => table_pointer(uc, 7, data::DBCS_TABLE)?,
        0x20 => set(uc, R::DX, (dx & 0xFF00) | u16::from(data::upper(dx as u8)))?,
        0x21 | 0x22 => {
            let ds = uc.reg(R::DS);
            let mut s = if al == 0x21 {
                let mut b = vec![0u8; usize::from(cx)];
                let _ = uc.read_seg(ds, dx, &mut b);
                b
            } else {
                crate::dos::read_until(uc, ds, dx, 0, 0x10000)
            };
            for c in &mut s {
                *c = data::upper(*c);
            }
            let _ = uc.write_seg(ds, dx, &s);
        }
        0x23 => {
            let r = match dx as u8 {
                b'Y' | b'y' => 1,
                b'N' | b'n' => 0,
                _ => 2,
            };
            set(uc, R::AX, r)?;
        }
        _ => return fail(env, uc, 1),
    }
    ok(uc)
}

/// AH=66h: AL=1 BX = the active and DX = the system code page (437);
/// AL=2 set the active one (437 only; another is error 2). Other AL:
/// error 1.
pub fn code_page(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    match al(uc) {
        1 => {
            set(uc, R::BX, CODE_PAGE)?;
            set(uc, R::DX, CODE_PAGE)?;
            ok(uc)
        }
        2 if uc.reg(R::BX) == CODE_PAGE => ok(uc),
        2 => fail(env, uc, 2),
        _ => fail(env, uc, 1),
    }
}
