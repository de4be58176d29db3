//! String functions of KERNEL and USER: `lstrcpy` and friends, the ANSI
//! case and character functions, and `wsprintf` / `wvsprintf`.
//!
//! Windows 3.1 validates pointer parameters: a function given a pointer it
//! cannot read or write fails with 0 (NULL) instead of faulting. The
//! functions here do the same (see [`super::farptr`]).
//!
//! The character set is Windows ANSI as Windows 3.1 shipped it: ASCII, the
//! Latin-1 letters 0xC0-0xFF (without 0xD7 and 0xF7), and Š Œ š œ Ÿ at
//! 0x8A 0x8C 0x9A 0x9C 0x9F. ß (0xDF) is a lower-case letter without an
//! upper-case partner.
//!
//! `lstrcmp` sorts as Microsoft's KB article Q96748 (SDK 3.0/3.1) describes
//! it: the primary weight of a character is its upper-case value, and only
//! when two strings are equal under it does case decide, upper case first:
//! "A" < "a" < "B" < "b", "Aaa" < "aaa" < "Aab". The result is -1, 0 or 1.

use super::api::{Api, Arg};
use super::farptr::{self, MAX_STRING};
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 88, "LSTRCPY", &[Arg::L, Arg::L], lstrcpy),
    Api::new("KERNEL", 89, "LSTRCAT", &[Arg::L, Arg::L], lstrcat),
    Api::new("KERNEL", 90, "LSTRLEN", &[Arg::L], lstrlen),
    Api::new(
        "KERNEL",
        352,
        "LSTRCATN",
        &[Arg::L, Arg::L, Arg::W],
        lstrcatn,
    ),
    Api::new(
        "KERNEL",
        353,
        "LSTRCPYN",
        &[Arg::L, Arg::L, Arg::W],
        lstrcpyn,
    ),
    Api::cdecl("USER", 420, "_WSPRINTF", &[Arg::L, Arg::L], wsprintf),
    Api::new(
        "USER",
        421,
        "WVSPRINTF",
        &[Arg::L, Arg::L, Arg::L],
        wvsprintf,
    ),
    Api::new("USER", 430, "LSTRCMP", &[Arg::L, Arg::L], lstrcmp),
    Api::new("USER", 431, "ANSIUPPER", &[Arg::L], ansi_upper),
    Api::new("USER", 432, "ANSILOWER", &[Arg::L], ansi_lower),
    Api::new("USER", 433, "ISCHARALPHA", &[Arg::W], is_char_alpha),
    Api::new(
        "USER",
        434,
        "ISCHARALPHANUMERIC",
        &[Arg::W],
        is_char_alphanumeric,
    ),
    Api::new("USER", 435, "ISCHARUPPER", &[Arg::W], is_char_upper),
    Api::new("USER", 436, "ISCHARLOWER", &[Arg::W], is_char_lower),
    Api::new(
        "USER",
        437,
        "ANSIUPPERBUFF",
        &[Arg::L, Arg::W],
        ansi_upper_buff,
    ),
    Api::new(
        "USER",
        438,
        "ANSILOWERBUFF",
        &[Arg::L, Arg::W],
        ansi_lower_buff,
    ),
    Api::new("USER", 471, "LSTRCMPI", &[Arg::L, Arg::L], lstrcmpi),
    Api::new("USER", 472, "ANSINEXT", &[Arg::L], ansi_next),
    Api::new("USER", 473, "ANSIPREV", &[Arg::L, Arg::L], ansi_prev),
];

// ---- the character set ---------------------------------------------------

/// Upper case of an ANSI character.
pub fn upper(c: u8) -> u8 {
    match c {
        b'a'..=b'z' => c - 0x20,
        0xE0..=0xFE if c != 0xF7 => c - 0x20,
        0x9A | 0x9C => c - 0x10,
        0xFF => 0x9F,
        _ => c,
    }
}

/// Lower case of an ANSI character.
pub fn lower(c: u8) -> u8 {
    match c {
        b'A'..=b'Z' => c + 0x20,
        0xC0..=0xDE if c != 0xD7 => c + 0x20,
        0x8A | 0x8C => c + 0x10,
        0x9F => 0xFF,
        _ => c,
    }
}

/// Is `c` a letter?
pub fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c, 0x8A | 0x8C | 0x9A | 0x9C | 0x9F)
        || (c >= 0xC0 && c != 0xD7 && c != 0xF7)
}

fn is_upper(c: u8) -> bool {
    is_alpha(c) && lower(c) != c
}

fn is_lower(c: u8) -> bool {
    is_alpha(c) && !is_upper(c)
}

/// Equal without regard to case.
pub fn eq_nocase(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| upper(x) == upper(y))
}

/// Windows 3.1's `lstrcmp` order (module notes): -1, 0 or 1.
pub fn compare(a: &[u8], b: &[u8]) -> i16 {
    let primary = a.iter().map(|&c| upper(c)).cmp(b.iter().map(|&c| upper(c)));
    let order = primary.then_with(|| {
        // Equal but for case: the first difference decides, upper first.
        a.iter()
            .zip(b)
            .find(|(x, y)| x != y)
            .map(|(&x, &y)| is_lower(x).cmp(&is_lower(y)))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order as i16
}

/// `lstrcmpi`: case-insensitive, -1, 0 or 1.
pub fn compare_nocase(a: &[u8], b: &[u8]) -> i16 {
    a.iter().map(|&c| upper(c)).cmp(b.iter().map(|&c| upper(c))) as i16
}

// ---- KERNEL lstr* --------------------------------------------------------

fn cstr(uc: &Uc<'_>, p: u32) -> Option<Vec<u8>> {
    farptr::read_cstr(uc, p, MAX_STRING)
}

/// Write `s` and its NUL at `p`; returns `p`, or 0 when not writable.
fn put(uc: &mut Uc<'_>, p: u32, s: &[u8]) -> u32 {
    let mut b = s.to_vec();
    b.push(0);
    if farptr::write_bytes(uc, p, &b) { p } else { 0 }
}

/// KERNEL.88 lstrcpy(lpszDest, lpszSrc): lpszDest, or 0 for a bad pointer.
pub fn lstrcpy(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(cstr(uc, a[1]).map_or(0, |s| put(uc, a[0], &s)))
}

/// KERNEL.89 lstrcat(lpszDest, lpszSrc): lpszDest, or 0 for a bad pointer.
pub fn lstrcat(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(d), Some(s)) = (cstr(uc, a[0]), cstr(uc, a[1])) else {
        return Ok(0);
    };
    Ok(match put(uc, farptr::add(a[0], d.len()), &s) {
        0 => 0,
        _ => a[0],
    })
}

/// KERNEL.90 lstrlen(lpsz): the length, 0 for a bad pointer.
pub fn lstrlen(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(cstr(uc, a[0]).map_or(0, |s| s.len() as u32))
}

/// KERNEL.353 lstrcpyn(lpszDest, lpszSrc, cChars): at most cChars - 1
/// bytes and a NUL; lpszDest, or 0 for a bad pointer. cChars 0 writes
/// nothing.
pub fn lstrcpyn(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let size = a[2] as u16 as usize;
    let Some(s) = farptr::read_cstr(uc, a[1], size.max(1)).or_else(|| {
        // The source may be longer than the count: read just what is used.
        farptr::read_bytes(uc, a[1], size.saturating_sub(1))
    }) else {
        return Ok(0);
    };
    Ok(match farptr::write_cstr_truncated(uc, a[0], &s, size) {
        Some(_) => a[0],
        None => 0,
    })
}

/// KERNEL.352 lstrcatn(lpszDest, lpszSrc, cbDest): appends so that the
/// result, with its NUL, fits in cbDest bytes; lpszDest, or 0 for a bad
/// pointer.
pub fn lstrcatn(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let size = a[2] as u16 as usize;
    let (Some(d), Some(s)) = (cstr(uc, a[0]), cstr(uc, a[1])) else {
        return Ok(0);
    };
    if d.len() + 1 >= size {
        return Ok(a[0]);
    }
    let room = size - d.len();
    Ok(
        match farptr::write_cstr_truncated(uc, farptr::add(a[0], d.len()), &s, room) {
            Some(_) => a[0],
            None => 0,
        },
    )
}

// ---- USER string functions -----------------------------------------------

/// USER.430 lstrcmp(lpsz1, lpsz2).
pub fn lstrcmp(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match (cstr(uc, a[0]), cstr(uc, a[1])) {
        (Some(x), Some(y)) => u32::from(compare(&x, &y) as u16),
        _ => 0,
    })
}

/// USER.471 lstrcmpi(lpsz1, lpsz2).
pub fn lstrcmpi(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match (cstr(uc, a[0]), cstr(uc, a[1])) {
        (Some(x), Some(y)) => u32::from(compare_nocase(&x, &y) as u16),
        _ => 0,
    })
}

/// AnsiUpper / AnsiLower: a character in the low word when the selector
/// word is 0, else a string converted in place.
fn convert(uc: &mut Uc<'_>, p: u32, f: fn(u8) -> u8) -> u32 {
    if farptr::is_int(p) {
        return u32::from(f(p as u8));
    }
    match cstr(uc, p) {
        Some(s) => {
            let t: Vec<u8> = s.iter().map(|&c| f(c)).collect();
            if farptr::write_bytes(uc, p, &t) { p } else { 0 }
        }
        None => 0,
    }
}

/// USER.431 AnsiUpper(lpsz or character).
pub fn ansi_upper(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert(uc, a[0], upper))
}

/// USER.432 AnsiLower(lpsz or character).
pub fn ansi_lower(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert(uc, a[0], lower))
}

/// AnsiUpperBuff / AnsiLowerBuff(lpsz, cb): cb bytes (0 means 64 KiB)
/// converted in place; returns cb, 0 for a bad buffer.
fn convert_buff(uc: &mut Uc<'_>, a: &[u32], f: fn(u8) -> u8) -> u32 {
    let n = match a[1] as u16 {
        0 => MAX_STRING,
        n => usize::from(n),
    };
    let Some(b) = farptr::read_bytes(uc, a[0], n) else {
        return 0;
    };
    let t: Vec<u8> = b.iter().map(|&c| f(c)).collect();
    if farptr::write_bytes(uc, a[0], &t) {
        n as u16 as u32
    } else {
        0
    }
}

/// USER.437 AnsiUpperBuff(lpsz, cb).
pub fn ansi_upper_buff(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert_buff(uc, a, upper))
}

/// USER.438 AnsiLowerBuff(lpsz, cb).
pub fn ansi_lower_buff(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert_buff(uc, a, lower))
}

/// USER.433 IsCharAlpha(ch).
pub fn is_char_alpha(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(is_alpha(a[0] as u8)))
}

/// USER.434 IsCharAlphaNumeric(ch).
pub fn is_char_alphanumeric(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = a[0] as u8;
    Ok(u32::from(is_alpha(c) || c.is_ascii_digit()))
}

/// USER.435 IsCharUpper(ch).
pub fn is_char_upper(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(is_upper(a[0] as u8)))
}

/// USER.436 IsCharLower(ch).
pub fn is_char_lower(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(is_lower(a[0] as u8)))
}

/// USER.472 AnsiNext(lpsz): the next character; at the terminating NUL,
/// lpsz itself (single-byte character set).
pub fn ansi_next(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match farptr::read_bytes(uc, a[0], 1) {
        Some(b) if b[0] != 0 => farptr::add(a[0], 1),
        Some(_) => a[0],
        None => 0,
    })
}

/// USER.473 AnsiPrev(lpszStart, lpszCurrent): the character before
/// lpszCurrent, never before lpszStart.
pub fn ansi_prev(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (start, cur) = (a[0], a[1]);
    if farptr::split(start).0 != farptr::split(cur).0 || cur as u16 <= start as u16 {
        return Ok(start);
    }
    Ok(cur - 1)
}

// ---- wsprintf ------------------------------------------------------------

/// The most bytes wsprintf writes, with the NUL.
pub const WSPRINTF_MAX: usize = 1024;

/// Where the variable arguments come from: successive words at a far
/// address (the stack for `wsprintf`, the caller's array for `wvsprintf`).
/// A word that cannot be read is 0.
pub struct ArgCursor {
    at: u32,
}

impl ArgCursor {
    pub fn new(at: u32) -> ArgCursor {
        ArgCursor { at }
    }

    fn word(&mut self, uc: &Uc<'_>) -> u16 {
        let v = farptr::read_u16(uc, self.at).unwrap_or(0);
        self.at = farptr::add(self.at, 2);
        v
    }

    fn dword(&mut self, uc: &Uc<'_>) -> u32 {
        let lo = self.word(uc);
        let hi = self.word(uc);
        u32::from(hi) << 16 | u32::from(lo)
    }
}

/// Format as Windows' wsprintf: `%[-][#][0][width][.precision][l]type` with
/// types c, d, i, u, x, X, s (a far pointer), and `%%`. `%d`-style
/// arguments are words unless `l` makes them double words. `#` prefixes
/// hex numbers with 0x / 0X. An unknown type character is copied as it is.
/// A NULL or unreadable `%s` pointer prints `(null)` (where Windows would
/// fault). The output is at most [`WSPRINTF_MAX`] - 1 bytes.
pub fn format(uc: &Uc<'_>, fmt: &[u8], args: &mut ArgCursor) -> Vec<u8> {
    let max = WSPRINTF_MAX - 1;
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() && out.len() < max {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let (mut left, mut prefix, mut zero) = (false, false, false);
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => left = true,
                b'#' => prefix = true,
                b'0' => zero = true,
                _ => break,
            }
            i += 1;
        }
        let number = |i: &mut usize| {
            let mut n = 0usize;
            while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
                n = (n * 10 + usize::from(d - b'0')).min(WSPRINTF_MAX);
                *i += 1;
            }
            n
        };
        let width = number(&mut i);
        let precision = if fmt.get(i) == Some(&b'.') {
            i += 1;
            Some(number(&mut i))
        } else {
            None
        };
        let mut long = false;
        while let Some(&s) = fmt.get(i) {
            match s {
                b'l' | b'L' => long = true,
                b'h' => long = false,
                _ => break,
            }
            i += 1;
        }
        let Some(&ty) = fmt.get(i) else {
            break;
        };
        i += 1;
        let mut int = |uc: &Uc<'_>, signed: bool| -> (bool, u32) {
            if long {
                let v = args.dword(uc);
                if signed && (v as i32) < 0 {
                    (true, (v as i32).unsigned_abs())
                } else {
                    (false, v)
                }
            } else {
                let v = args.word(uc);
                if signed && (v as i16) < 0 {
                    (true, u32::from((v as i16).unsigned_abs()))
                } else {
                    (false, u32::from(v))
                }
            }
        };
        let (sign, digits, text): (&[u8], Vec<u8>, Option<Vec<u8>>) = match ty {
            b'd' | b'i' => {
                let (neg, v) = int(uc, true);
                (
                    if neg { &b"-"[..] } else { &b""[..] },
                    v.to_string().into_bytes(),
                    None,
                )
            }
            b'u' => (&b""[..], int(uc, false).1.to_string().into_bytes(), None),
            b'x' => {
                let v = int(uc, false).1;
                let p: &[u8] = if prefix { b"0x" } else { &[] };
                (p, format!("{v:x}").into_bytes(), None)
            }
            b'X' => {
                let v = int(uc, false).1;
                let p: &[u8] = if prefix { b"0X" } else { &[] };
                (p, format!("{v:X}").into_bytes(), None)
            }
            b'c' => (&b""[..], Vec::new(), Some(vec![args.word(uc) as u8])),
            b's' => {
                let p = args.dword(uc);
                let limit = precision.unwrap_or(max);
                let s = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    farptr::read_cstr(uc, p, max)
                        .or_else(|| farptr::read_bytes(uc, p, limit.min(max)))
                        .unwrap_or_else(|| b"(null)".to_vec())
                };
                (&b""[..], Vec::new(), Some(s[..s.len().min(limit)].to_vec()))
            }
            other => (&b""[..], Vec::new(), Some(vec![other])),
        };
        // The field: sign or prefix, zeros for the precision, the digits.
        let body = match text {
            Some(t) => t,
            None => {
                let mut d = digits;
                if let Some(p) = precision {
                    if d.len() < p {
                        let mut z = vec![b'0'; p - d.len()];
                        z.extend_from_slice(&d);
                        d = z;
                    }
                }
                let mut b = sign.to_vec();
                if zero && !left && precision.is_none() && b.len() + d.len() < width {
                    b.extend(std::iter::repeat_n(b'0', width - b.len() - d.len()));
                }
                b.extend_from_slice(&d);
                b
            }
        };
        let pad = width.saturating_sub(body.len());
        if !left {
            out.extend(std::iter::repeat_n(b' ', pad));
        }
        out.extend_from_slice(&body);
        if left {
            out.extend(std::iter::repeat_n(b' ', pad));
        }
    }
    out.truncate(max);
    out
}

/// Format into the buffer at `dest`: the length without the NUL, 0 when
/// the format or the buffer is bad.
fn sprintf_into(uc: &mut Uc<'_>, dest: u32, fmt: u32, mut args: ArgCursor) -> u32 {
    let Some(f) = cstr(uc, fmt) else {
        return 0;
    };
    let s = format(uc, &f, &mut args);
    if put(uc, dest, &s) == 0 {
        return 0;
    }
    s.len() as u32
}

/// USER.420 _wsprintf(lpszOut, lpszFormat, ...), cdecl: the variable
/// arguments follow the two far pointers on the caller's stack.
pub fn wsprintf(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    // Return address (4 bytes), then lpszOut and lpszFormat (4 each).
    let at = farptr::make(ss, sp.wrapping_add(12));
    Ok(sprintf_into(uc, a[0], a[1], ArgCursor::new(at)))
}

/// USER.421 wvsprintf(lpszOut, lpszFormat, lpvArgList).
pub fn wvsprintf(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(sprintf_into(uc, a[0], a[1], ArgCursor::new(a[2])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
    use crate::machine::{Machine, SegKind};

    fn setup() -> (Machine, Env, u16) {
        let mut m = Machine::new_protected().unwrap();
        let ds = m.alloc_segment(SegKind::Data, 0x1000, &[]).unwrap();
        (m, Env::new(false), ds)
    }

    fn put_str(m: &mut Machine, ds: u16, off: u16, s: &[u8]) -> u32 {
        let mut b = s.to_vec();
        b.push(0);
        m.write_seg(ds, off, &b).unwrap();
        farptr::make(ds, off)
    }

    fn get_str(m: &Machine, p: u32) -> String {
        String::from_utf8_lossy(&farptr::read_cstr(m, p, 0x1000).unwrap()).into_owned()
    }

    /// Format with word arguments laid out as a 16-bit caller pushes them.
    fn fmt(m: &mut Machine, ds: u16, f: &str, words: &[u16]) -> String {
        let args: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.write_seg(ds, 0x800, &args).unwrap();
        let mut c = ArgCursor::new(farptr::make(ds, 0x800));
        String::from_utf8_lossy(&format(m, f.as_bytes(), &mut c)).into_owned()
    }

    #[test]
    fn wsprintf_formats() {
        let (mut m, _env, ds) = setup();
        let s = put_str(&mut m, ds, 0x100, b"text");
        let (lo, hi) = (s as u16, (s >> 16) as u16);
        let cases: &[(&str, &[u16], &str)] = &[
            ("%d", &[0xFFFF], "-1"),
            ("%u", &[0xFFFF], "65535"),
            (
                "%i|%5d|%-5d|%05d",
                &[7, 42, 42, 0xFFF6],
                "7|   42|42   |-0010",
            ),
            (
                "%x %X %#x %#X",
                &[0xBEEF, 0xBEEF, 0x1F, 0x1F],
                "beef BEEF 0x1f 0X1F",
            ),
            ("%04x", &[0xA], "000a"),
            ("%lx", &[0x5678, 0x1234], "12345678"),
            ("%ld", &[0xFFFE, 0xFFFF], "-2"),
            ("%lu", &[0x0000, 0x0001], "65536"),
            ("%.3d", &[5], "005"),
            ("[%s]", &[lo, hi], "[text]"),
            ("[%6s][%-6s]", &[lo, hi, lo, hi], "[  text][text  ]"),
            ("[%.2s]", &[lo, hi], "[te]"),
            ("%s", &[0, 0], "(null)"),
            ("%c%c", &[b'O' as u16, b'K' as u16], "OK"),
            ("100%%", &[], "100%"),
            ("%q", &[], "q"),
            ("%", &[], ""),
        ];
        for (f, w, want) in cases {
            assert_eq!(fmt(&mut m, ds, f, w), *want, "format {f:?}");
        }
        // The output is cut at 1023 bytes.
        let long = "x".repeat(2000);
        assert_eq!(fmt(&mut m, ds, &long, &[]).len(), 1023);
        assert_eq!(fmt(&mut m, ds, "%2000d", &[1]).len(), 1023);
    }

    #[test]
    fn wvsprintf_writes_and_counts() {
        let (mut m, mut env, ds) = setup();
        let f = put_str(&mut m, ds, 0x100, b"%d-%s");
        let s = put_str(&mut m, ds, 0x120, b"ab");
        let list: Vec<u8> = [12u16, s as u16, (s >> 16) as u16]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        m.write_seg(ds, 0x140, &list).unwrap();
        let out = farptr::make(ds, 0x200);
        let n = wvsprintf(&mut env, &mut m, &[out, f, farptr::make(ds, 0x140)]).unwrap();
        assert_eq!(n, 5);
        assert_eq!(get_str(&m, out), "12-ab");
        // A bad output buffer or format: 0.
        assert_eq!(
            wvsprintf(&mut env, &mut m, &[0, f, farptr::make(ds, 0x140)]).unwrap(),
            0
        );
        assert_eq!(wvsprintf(&mut env, &mut m, &[out, 0, 0]).unwrap(), 0);
    }

    #[test]
    fn wsprintf_reads_varargs_above_the_fixed_ones() {
        let (mut m, mut env, ds) = setup();
        let f = put_str(&mut m, ds, 0x100, b"%d,%d");
        let out = farptr::make(ds, 0x200);
        // SS:SP -> return address, lpszOut, lpszFormat, 3, 4.
        let mut st = vec![0u8; 4];
        for w in [
            out as u16,
            (out >> 16) as u16,
            f as u16,
            (f >> 16) as u16,
            3,
            4,
        ] {
            st.extend_from_slice(&w.to_le_bytes());
        }
        m.write_seg(ds, 0xF00, &st).unwrap();
        m.set_reg(R::SS, ds).unwrap();
        m.set_reg(R::SP, 0xF00).unwrap();
        let api = crate::win16::api::find("USER", 420).unwrap();
        assert_eq!(api.arg_bytes(), 0);
        let args = api.read_args(&m, ds, 0xF00);
        assert_eq!(args, vec![out, f]);
        assert_eq!(wsprintf(&mut env, &mut m, &args).unwrap(), 3);
        assert_eq!(get_str(&m, out), "3,4");
    }

    #[test]
    fn lstr_functions() {
        let (mut m, mut env, ds) = setup();
        let a = put_str(&mut m, ds, 0x100, b"Hello");
        let b = put_str(&mut m, ds, 0x200, b", world");
        assert_eq!(lstrlen(&mut env, &mut m, &[a]).unwrap(), 5);
        assert_eq!(lstrcat(&mut env, &mut m, &[a, b]).unwrap(), a);
        assert_eq!(get_str(&m, a), "Hello, world");
        let d = farptr::make(ds, 0x300);
        assert_eq!(lstrcpy(&mut env, &mut m, &[d, a]).unwrap(), d);
        assert_eq!(get_str(&m, d), "Hello, world");
        assert_eq!(lstrcpyn(&mut env, &mut m, &[d, b, 4]).unwrap(), d);
        assert_eq!(get_str(&m, d), ", w");
        let c = put_str(&mut m, ds, 0x400, b"ab");
        assert_eq!(lstrcatn(&mut env, &mut m, &[c, b, 5]).unwrap(), c);
        assert_eq!(get_str(&m, c), "ab, ");
        // Bad pointers fail with 0 rather than fault.
        assert_eq!(lstrlen(&mut env, &mut m, &[0]).unwrap(), 0);
        assert_eq!(lstrcpy(&mut env, &mut m, &[0, a]).unwrap(), 0);
        assert_eq!(lstrcpy(&mut env, &mut m, &[d, 0x1234_0000]).unwrap(), 0);
        assert_eq!(
            lstrcat(&mut env, &mut m, &[farptr::make(ds, 0xFFE), a]).unwrap(),
            0
        );
    }

    #[test]
    fn lstrcmp_is_a_dictionary_order() {
        use std::cmp::Ordering::*;
        let ord = |a: &str, b: &str| compare(a.as_bytes(), b.as_bytes()).cmp(&0);
        // KB Q96748's examples.
        assert_eq!(ord("e", "Z"), Less);
        assert_eq!(ord("A", "a"), Less);
        assert_eq!(ord("a", "B"), Less);
        assert_eq!(ord("B", "b"), Less);
        assert_eq!(ord("Aaa", "aaa"), Less);
        assert_eq!(ord("aaa", "Aab"), Less);
        assert_eq!(ord("e", "a"), Greater);
        assert_eq!(ord("e", "A"), Greater);
        assert_eq!(ord("e", "E"), Greater);
        assert_eq!(ord("abc", "abc"), Equal);
        assert_eq!(ord("ab", "abc"), Less);
        assert_eq!(compare_nocase(b"HeLLo", b"hello"), 0);
        assert_eq!(compare_nocase(b"a", b"B"), -1);
        assert_eq!(compare_nocase(b"\xE9", b"\xC9"), 0);
        let (mut m, mut env, ds) = setup();
        let x = put_str(&mut m, ds, 0x100, b"apple");
        let y = put_str(&mut m, ds, 0x200, b"Apple");
        assert_eq!(lstrcmp(&mut env, &mut m, &[x, y]).unwrap(), 1);
        assert_eq!(lstrcmp(&mut env, &mut m, &[y, x]).unwrap(), 0xFFFF);
        assert_eq!(lstrcmpi(&mut env, &mut m, &[x, y]).unwrap(), 0);
    }

    #[test]
    fn ansi_case_and_navigation() {
        let (mut m, mut env, ds) = setup();
        let s = put_str(&mut m, ds, 0x100, b"Gr\xFC\xDFe, \xC9t\xE9!");
        assert_eq!(ansi_upper(&mut env, &mut m, &[s]).unwrap(), s);
        assert_eq!(
            farptr::read_cstr(&m, s, 100).unwrap(),
            b"GR\xDC\xDFE, \xC9T\xC9!".to_vec()
        );
        assert_eq!(ansi_lower(&mut env, &mut m, &[s]).unwrap(), s);
        assert_eq!(
            farptr::read_cstr(&m, s, 100).unwrap(),
            b"gr\xFC\xDFe, \xE9t\xE9!".to_vec()
        );
        // A character instead of a pointer.
        assert_eq!(
            ansi_upper(&mut env, &mut m, &[u32::from(b'q')]).unwrap(),
            0x51
        );
        assert_eq!(ansi_lower(&mut env, &mut m, &[0xD7]).unwrap(), 0xD7);
        assert_eq!(ansi_upper(&mut env, &mut m, &[0xFF]).unwrap(), 0x9F);
        let b = put_str(&mut m, ds, 0x200, b"abc");
        assert_eq!(ansi_upper_buff(&mut env, &mut m, &[b, 2]).unwrap(), 2);
        assert_eq!(get_str(&m, b), "ABc");
        assert_eq!(is_char_alpha(&mut env, &mut m, &[0xE9]).unwrap(), 1);
        assert_eq!(
            is_char_alpha(&mut env, &mut m, &[u32::from(b'1')]).unwrap(),
            0
        );
        assert_eq!(
            is_char_alphanumeric(&mut env, &mut m, &[u32::from(b'1')]).unwrap(),
            1
        );
        assert_eq!(is_char_upper(&mut env, &mut m, &[0xC9]).unwrap(), 1);
        assert_eq!(is_char_lower(&mut env, &mut m, &[0xDF]).unwrap(), 1);
        assert_eq!(is_char_upper(&mut env, &mut m, &[0xDF]).unwrap(), 0);
        // AnsiNext stops at the NUL; AnsiPrev at the start.
        assert_eq!(ansi_next(&mut env, &mut m, &[b]).unwrap(), b + 1);
        assert_eq!(ansi_next(&mut env, &mut m, &[b + 3]).unwrap(), b + 3);
        assert_eq!(ansi_prev(&mut env, &mut m, &[b, b + 2]).unwrap(), b + 1);
        assert_eq!(ansi_prev(&mut env, &mut m, &[b, b]).unwrap(), b);
    }
}
