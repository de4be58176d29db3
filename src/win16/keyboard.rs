//! KEYBOARD: the keyboard driver's exports, for a US keyboard (an IBM
//! enhanced 101/102-key keyboard, code page 437), as Windows 3.1's
//! KEYBOARD.DRV answered them: virtual keys, scan codes and characters
//! (VkKeyScan, OemKeyScan, MapVirtualKey, ToAscii, GetKeyNameText), the
//! keyboard's type and code page, and the conversions between the ANSI
//! character set (Windows code page 1252) and the OEM one (code page 437)
//! that AnsiToOem and OemToAnsi do.
//!
//! A character one set lacks becomes its closest letter in the other
//! (an accented letter loses its accent: ANSI `À` is OEM `A`), else `?`,
//! as Windows' tables map what they cannot keep.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KEYBOARD", 1, "INQUIRE", &[Arg::L], inquire),
    Api::new(
        "KEYBOARD",
        4,
        "TOASCII",
        &[Arg::W, Arg::W, Arg::L, Arg::L, Arg::W],
        to_ascii,
    ),
    Api::new("KEYBOARD", 5, "ANSITOOEM", &[Arg::L, Arg::L], ansi_to_oem),
    Api::new("KEYBOARD", 6, "OEMTOANSI", &[Arg::L, Arg::L], oem_to_ansi),
    Api::new("KEYBOARD", 7, "SETSPEED", &[Arg::W], set_speed),
    Api::new("KEYBOARD", 8, "WEP", &[Arg::W], wep),
    Api::new("KEYBOARD", 128, "OEMKEYSCAN", &[Arg::W], oem_key_scan),
    Api::new("KEYBOARD", 129, "VKKEYSCAN", &[Arg::W], vk_key_scan),
    Api::new(
        "KEYBOARD",
        130,
        "GETKEYBOARDTYPE",
        &[Arg::W],
        get_keyboard_type,
    ),
    Api::new(
        "KEYBOARD",
        131,
        "MAPVIRTUALKEY",
        &[Arg::W, Arg::W],
        map_virtual_key,
    ),
    Api::new("KEYBOARD", 132, "GETKBCODEPAGE", &[], get_kb_code_page),
    Api::new(
        "KEYBOARD",
        133,
        "GETKEYNAMETEXT",
        &[Arg::L, Arg::L, Arg::W],
        get_key_name_text,
    ),
    Api::new(
        "KEYBOARD",
        134,
        "ANSITOOEMBUFF",
        &[Arg::L, Arg::L, Arg::W],
        ansi_to_oem_buff,
    ),
    Api::new(
        "KEYBOARD",
        135,
        "OEMTOANSIBUFF",
        &[Arg::L, Arg::L, Arg::W],
        oem_to_ansi_buff,
    ),
];

/// Code page 1252's characters 80h..9Fh (the rest are Latin-1's); `\0`
/// where it has none.
const CP1252_80: &str = "€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0\0‘’“”•–—˜™š›œ\0žŸ";

/// Code page 437's character for a byte (the same decoding as the DOS
/// screen's, dos/screen.rs).
fn cp437(b: u8) -> char {
    codepage_437::CP437_CONTROL.decode(b)
}

fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_80.chars().nth(usize::from(b - 0x80)).unwrap_or('\0'),
        _ => char::from(b),
    }
}

/// The closest plain letter of an accented Latin-1 one.
fn base_letter(c: char) -> Option<char> {
    let map: &[(&str, char)] = &[
        ("ÀÁÂÃÄÅ", 'A'),
        ("àáâãäå", 'a'),
        ("Ç", 'C'),
        ("ç", 'c'),
        ("ÈÉÊË", 'E'),
        ("èéêë", 'e'),
        ("ÌÍÎÏ", 'I'),
        ("ìíîï", 'i'),
        ("Ð", 'D'),
        ("ð", 'd'),
        ("Ñ", 'N'),
        ("ñ", 'n'),
        ("ÒÓÔÕÖØ", 'O'),
        ("òóôõöø", 'o'),
        ("ÙÚÛÜ", 'U'),
        ("ùúûü", 'u'),
        ("ÝŸ", 'Y'),
        ("ýÿ", 'y'),
        ("Šš", 'S'),
        ("Žž", 'Z'),
        ("©", 'c'),
        ("®", 'r'),
        ("‚", ','),
        ("„“”\"", '"'),
        ("‘’´`", '\''),
        ("–—", '-'),
        ("˜", '~'),
    ];
    map.iter().find(|(s, _)| s.contains(c)).map(|&(_, b)| b)
}

/// ANSI byte to OEM byte (module notes).
pub fn ansi_to_oem_byte(b: u8) -> u8 {
    if b < 0x80 {
        return b;
    }
    let c = cp1252(b);
    if let Some(i) = (0x80..=0xFFu8).find(|&o| cp437(o) == c) {
        return i;
    }
    base_letter(c).map_or(b'?', |l| ansi_to_oem_byte(l as u8))
}

/// OEM byte to ANSI byte (module notes).
pub fn oem_to_ansi_byte(b: u8) -> u8 {
    if b < 0x80 {
        return b;
    }
    let c = cp437(b);
    if let Some(i) = (0x80..=0xFFu8).find(|&a| cp1252(a) == c) {
        return i;
    }
    match c {
        '─' | '═' => b'-',
        '│' | '║' => b'|',
        '░' | '▒' | '▓' | '█' | '▄' | '▌' | '▐' | '▀' | '■' => b'#',
        c if ('\u{2500}'..='\u{257F}').contains(&c) => b'+',
        _ => base_letter(c).map_or(b'?', |l| l as u8),
    }
}

/// Convert a string in place or into another buffer, `n` bytes or up to
/// its NUL.
fn convert(uc: &mut Uc<'_>, src: u32, dst: u32, n: Option<usize>, f: fn(u8) -> u8) {
    let bytes = match n {
        Some(n) => farptr::read_bytes(uc, src, n),
        None => farptr::read_cstr(uc, src, MAX_STRING).map(|mut s| {
            s.push(0);
            s
        }),
    };
    if let Some(b) = bytes {
        let out: Vec<u8> = b.iter().map(|&c| if c == 0 { 0 } else { f(c) }).collect();
        farptr::write_bytes(uc, dst, &out);
    }
}

/// KEYBOARD.5 AnsiToOem(lpszWindowsStr, lpszOemStr): always -1, as the
/// SDK documents.
pub fn ansi_to_oem(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    convert(uc, a[0], a[1], None, ansi_to_oem_byte);
    Ok(0xFFFF)
}

/// KEYBOARD.6 OemToAnsi(lpszOemStr, lpszWindowsStr): always -1.
pub fn oem_to_ansi(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    convert(uc, a[0], a[1], None, oem_to_ansi_byte);
    Ok(0xFFFF)
}

/// KEYBOARD.134 AnsiToOemBuff(lpszWindowsStr, lpszOemStr, cbLength).
pub fn ansi_to_oem_buff(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = usize::from(match a[2] as u16 {
        0 => 0xFFFF,
        n => n,
    });
    convert(uc, a[0], a[1], Some(n), ansi_to_oem_byte);
    Ok(0)
}

/// KEYBOARD.135 OemToAnsiBuff(lpszOemStr, lpszWindowsStr, cbLength).
pub fn oem_to_ansi_buff(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = usize::from(match a[2] as u16 {
        0 => 0xFFFF,
        n => n,
    });
    convert(uc, a[0], a[1], Some(n), oem_to_ansi_byte);
    Ok(0)
}

/// The US layout: character, virtual key, scan code, shifted.
const LAYOUT: &[(u8, u8, u8, bool)] = &[
    (b'1', b'1', 0x02, false),
    (b'!', b'1', 0x02, true),
    (b'2', b'2', 0x03, false),
    (b'@', b'2', 0x03, true),
    (b'3', b'3', 0x04, false),
    (b'#', b'3', 0x04, true),
    (b'4', b'4', 0x05, false),
    (b'$', b'4', 0x05, true),
    (b'5', b'5', 0x06, false),
    (b'%', b'5', 0x06, true),
    (b'6', b'6', 0x07, false),
    (b'^', b'6', 0x07, true),
    (b'7', b'7', 0x08, false),
    (b'&', b'7', 0x08, true),
    (b'8', b'8', 0x09, false),
    (b'*', b'8', 0x09, true),
    (b'9', b'9', 0x0A, false),
    (b'(', b'9', 0x0A, true),
    (b'0', b'0', 0x0B, false),
    (b')', b'0', 0x0B, true),
    (b'-', 0xBD, 0x0C, false),
    (b'_', 0xBD, 0x0C, true),
    (b'=', 0xBB, 0x0D, false),
    (b'+', 0xBB, 0x0D, true),
    (b'[', 0xDB, 0x1A, false),
    (b'{', 0xDB, 0x1A, true),
    (b']', 0xDD, 0x1B, false),
    (b'}', 0xDD, 0x1B, true),
    (b';', 0xBA, 0x27, false),
    (b':', 0xBA, 0x27, true),
    (b'\'', 0xDE, 0x28, false),
    (b'"', 0xDE, 0x28, true),
    (b'`', 0xC0, 0x29, false),
    (b'~', 0xC0, 0x29, true),
    (b'\\', 0xDC, 0x2B, false),
    (b'|', 0xDC, 0x2B, true),
    (b',', 0xBC, 0x33, false),
    (b'<', 0xBC, 0x33, true),
    (b'.', 0xBE, 0x34, false),
    (b'>', 0xBE, 0x34, true),
    (b'/', 0xBF, 0x35, false),
    (b'?', 0xBF, 0x35, true),
    (b' ', 0x20, 0x39, false),
    (0x0D, 0x0D, 0x1C, false),
    (0x09, 0x09, 0x0F, false),
    (0x08, 0x08, 0x0E, false),
    (0x1B, 0x1B, 0x01, false),
];

/// Letters' scan codes, A..Z.
const LETTER_SCANS: [u8; 26] = [
    0x1E, 0x30, 0x2E, 0x20, 0x12, 0x21, 0x22, 0x23, 0x17, 0x24, 0x25, 0x26, 0x32, 0x31, 0x18, 0x19,
    0x10, 0x13, 0x1F, 0x14, 0x16, 0x2F, 0x11, 0x2D, 0x15, 0x2C,
];

/// (virtual key, scan code, shifted) of a character; None when no key
/// types it.
pub fn key_of_char(c: u8) -> Option<(u8, u8, bool)> {
    if c.is_ascii_alphabetic() {
        let u = c.to_ascii_uppercase();
        return Some((
            u,
            LETTER_SCANS[usize::from(u - b'A')],
            c.is_ascii_uppercase(),
        ));
    }
    LAYOUT
        .iter()
        .find(|k| k.0 == c)
        .map(|&(_, vk, scan, shift)| (vk, scan, shift))
}

/// Keys without a character: virtual key, scan code, name.
const NAMED: &[(u8, u8, &str)] = &[
    (0x08, 0x0E, "Backspace"),
    (0x09, 0x0F, "Tab"),
    (0x0D, 0x1C, "Enter"),
    (0x10, 0x2A, "Shift"),
    (0x11, 0x1D, "Ctrl"),
    (0x12, 0x38, "Alt"),
    (0x13, 0x45, "Pause"),
    (0x14, 0x3A, "Caps Lock"),
    (0x1B, 0x01, "Esc"),
    (0x20, 0x39, "Space"),
    (0x21, 0x49, "Page Up"),
    (0x22, 0x51, "Page Down"),
    (0x23, 0x4F, "End"),
    (0x24, 0x47, "Home"),
    (0x25, 0x4B, "Left"),
    (0x26, 0x48, "Up"),
    (0x27, 0x4D, "Right"),
    (0x28, 0x50, "Down"),
    (0x2D, 0x52, "Insert"),
    (0x2E, 0x53, "Delete"),
    (0x90, 0x45, "Num Lock"),
    (0x91, 0x46, "Scroll Lock"),
];

/// The scan code of a virtual key.
fn scan_of_vk(vk: u8) -> Option<u8> {
    if vk.is_ascii_uppercase() {
        return Some(LETTER_SCANS[usize::from(vk - b'A')]);
    }
    if (0x70..=0x7B).contains(&vk) {
        let n = vk - 0x6F;
        return Some(if n <= 10 { 0x3A + n } else { 0x4C + n });
    }
    LAYOUT
        .iter()
        .find(|k| k.1 == vk && !k.3)
        .map(|k| k.2)
        .or_else(|| NAMED.iter().find(|k| k.0 == vk).map(|k| k.1))
}

/// The virtual key of a scan code.
fn vk_of_scan(scan: u8) -> Option<u8> {
    if let Some(i) = LETTER_SCANS.iter().position(|&s| s == scan) {
        return Some(b'A' + i as u8);
    }
    if (0x3B..=0x44).contains(&scan) {
        return Some(0x70 + scan - 0x3B);
    }
    if scan == 0x57 || scan == 0x58 {
        return Some(0x7A + scan - 0x57);
    }
    LAYOUT
        .iter()
        .find(|k| k.2 == scan && !k.3)
        .map(|k| k.1)
        .or_else(|| NAMED.iter().find(|k| k.1 == scan).map(|k| k.0))
}

/// KEYBOARD.129 VkKeyScan(cChar): the virtual key in the low byte, the
/// shift state (1 Shift, 2 Ctrl) in the high byte; -1 when no key types
/// the character. Control characters are Ctrl with a letter.
pub fn vk_key_scan(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = a[0] as u8;
    if let Some((vk, _, shift)) = key_of_char(c) {
        return Ok(u32::from(vk) | u32::from(shift) << 8);
    }
    if (1..=26).contains(&c) {
        return Ok(u32::from(b'A' + c - 1) | 2 << 8);
    }
    Ok(0xFFFF)
}

/// KEYBOARD.128 OemKeyScan(wOemChar): the scan code in the low word and
/// the shift state in the high word; -1 when no key types it.
pub fn oem_key_scan(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match key_of_char(a[0] as u8) {
        Some((_, scan, shift)) => u32::from(scan) | u32::from(shift) << 16,
        None => 0xFFFF_FFFF,
    })
}

/// KEYBOARD.131 MapVirtualKey(wCode, wMapType): 0 virtual key to scan
/// code, 1 scan code to virtual key, 2 virtual key to its unshifted
/// character; 0 when there is none.
pub fn map_virtual_key(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let code = a[0] as u8;
    Ok(match a[1] as u16 {
        0 => scan_of_vk(code).map_or(0, u32::from),
        1 => vk_of_scan(code).map_or(0, u32::from),
        2 => {
            if code.is_ascii_uppercase() {
                u32::from(code)
            } else {
                LAYOUT
                    .iter()
                    .find(|k| k.1 == code && !k.3)
                    .map_or(0, |k| u32::from(k.0))
            }
        }
        _ => 0,
    })
}

/// KEYBOARD.4 ToAscii(wVirtKey, wScanCode, lpKeyState, lpChar, wFlags):
/// the character the key types with the shift, control and caps-lock
/// states in the 256-byte key state (bit 7 down, bit 0 toggled) in the
/// low byte at lpChar; 1 when it types one, 0 otherwise. A key-up (bit
/// 15 of the scan code) types nothing.
pub fn to_ascii(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (vk, scan) = (a[0] as u8, a[1] as u16);
    if scan & 0x8000 != 0 {
        return Ok(0);
    }
    let state = farptr::read_bytes(uc, a[2], 256).unwrap_or_else(|| vec![0; 256]);
    let down = |k: usize| state[k] & 0x80 != 0;
    let shift = down(0x10);
    let ctrl = down(0x11);
    let caps = state[0x14] & 1 != 0;
    let c = if vk.is_ascii_uppercase() {
        if ctrl {
            vk - b'A' + 1
        } else if shift ^ caps {
            vk
        } else {
            vk.to_ascii_lowercase()
        }
    } else if let Some(k) = LAYOUT.iter().find(|k| k.1 == vk && k.3 == shift) {
        k.0
    } else if let Some(k) = LAYOUT.iter().find(|k| k.1 == vk) {
        k.0
    } else {
        return Ok(0);
    };
    farptr::write_bytes(uc, a[3], &[c, 0]);
    Ok(1)
}

/// KEYBOARD.133 GetKeyNameText(lParam, lpszBuffer, cbMaxKey): the name of
/// the key with the scan code in bits 16-23 of lParam (bit 24: extended);
/// its length.
pub fn get_key_name_text(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let scan = (a[0] >> 16) as u8;
    let extended = a[0] & (1 << 24) != 0;
    let name: String = match vk_of_scan(scan) {
        Some(vk @ 0x70..=0x7B) => format!("F{}", vk - 0x6F),
        Some(vk) => match NAMED.iter().find(|k| k.0 == vk) {
            Some(k) if extended || !matches!(vk, 0x21..=0x28 | 0x2D | 0x2E) => k.2.into(),
            // The keypad's keys of the same scan codes.
            Some(_) => format!("Num {}", scan_keypad(scan)),
            None => {
                let c = if vk.is_ascii_uppercase() {
                    vk
                } else {
                    LAYOUT.iter().find(|k| k.1 == vk).map_or(b'?', |k| k.0)
                };
                char::from(c).to_string()
            }
        },
        None => return Ok(0),
    };
    Ok(
        farptr::write_cstr_truncated(uc, a[1], name.as_bytes(), usize::from(a[2] as u16))
            .map_or(0, |n| n as u32),
    )
}

/// The keypad digit or sign of an unextended navigation scan code.
fn scan_keypad(scan: u8) -> char {
    match scan {
        0x52 => '0',
        0x4F => '1',
        0x50 => '2',
        0x51 => '3',
        0x4B => '4',
        0x4D => '6',
        0x47 => '7',
        0x48 => '8',
        0x49 => '9',
        _ => '.',
    }
}

/// KEYBOARD.130 GetKeyboardType(fnKeybInfo): 0 the type (4, the enhanced
/// 101/102-key keyboard), 1 the subtype (0), 2 the function keys (12).
pub fn get_keyboard_type(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match a[0] as u16 {
        0 => 4,
        1 => 0,
        2 => 12,
        _ => 0,
    })
}

/// KEYBOARD.132 GetKBCodePage(): 437.
pub fn get_kb_code_page(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(437)
}

/// KEYBOARD.1 Inquire(lpKBInfo): KBINFO (the two DBCS lead-byte ranges,
/// empty: FFh..FEh each, and the size of the key state, 0); its size, 6.
pub fn inquire(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    farptr::write_bytes(uc, a[0], &[0xFF, 0xFE, 0xFF, 0xFE, 0, 0]);
    Ok(6)
}

/// KEYBOARD.7 SetSpeed(nSpeed): the typematic rate; the previous one
/// (-1 asks without changing it). The rate has no device to go to.
pub fn set_speed(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// KEYBOARD.8 WEP(nExitType): 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn code_pages() {
        let high: std::collections::HashSet<char> = (0x80..=0xFFu8).map(cp437).collect();
        assert_eq!(
            high.len(),
            128,
            "code page 437 has 128 distinct high characters"
        );
        assert_eq!(CP1252_80.chars().count(), 32);
        // é: ANSI E9, OEM 82; Ç: C7 / 80; ½: BD / AB; ß: DF / E1.
        for (a, o) in [
            (0xE9, 0x82),
            (0xC7, 0x80),
            (0xBD, 0xAB),
            (0xDF, 0xE1),
            (b'x', b'x'),
        ] {
            assert_eq!(ansi_to_oem_byte(a), o, "{a:02X}");
            assert_eq!(oem_to_ansi_byte(o), a, "{o:02X}");
        }
        // À has no OEM form: A. A box corner has no ANSI form: +.
        assert_eq!(ansi_to_oem_byte(0xC0), b'A');
        assert_eq!(oem_to_ansi_byte(0xDA), b'+');
        assert_eq!(oem_to_ansi_byte(0xC4), b'-');
    }

    #[test]
    fn keys_and_characters() {
        assert_eq!(key_of_char(b'a'), Some((b'A', 0x1E, false)));
        assert_eq!(key_of_char(b'?'), Some((0xBF, 0x35, true)));
        assert_eq!(key_of_char(0x80), None);
        assert_eq!(scan_of_vk(0x70), Some(0x3B));
        assert_eq!(vk_of_scan(0x58), Some(0x7B));
        assert_eq!(vk_of_scan(0x1C), Some(0x0D));
        assert_eq!(scan_of_vk(b'Q'), Some(0x10));
    }
}
