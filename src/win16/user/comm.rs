//! USER's communications functions (OpenComm and the rest), on a PC with
//! no serial and no parallel port: the BIOS equipment word (0040:0010,
//! dos/mod.rs) says 0 serial and 0 parallel ports, so the COMM driver has
//! no hardware to open.
//!
//! What a program sees (Windows 3.1 SDK, "OpenComm" and the functions
//! after it; the codes are WINDOWS.H's):
//!
//! | call | answer |
//! | --- | --- |
//! | OpenComm("COM1".."COM9" or "LPT1".."LPT3", an optional `:`) | IE_HARDWARE (-10): the device is not there |
//! | OpenComm(any other name) | IE_BADID (-1) |
//! | BuildCommDCB(lpDef, lpDCB) | the string parsed as the MS-DOS MODE command's (`COM1:96,n,8,1`, see [`build_dcb`]): 0, or -1 for a string it cannot read |
//! | GetCommError(nCid, lpStat) | CE_MODE (0x8000): the id is not an open device; the COMSTAT is zeroed |
//! | SetCommEventMask | NULL; GetCommEventMask 0; EnableCommNotification FALSE |
//! | CloseComm, ReadComm, WriteComm, GetCommState, SetCommState, FlushComm, TransmitCommChar, UngetCommChar, SetCommBreak, ClearCommBreak, EscapeCommFunction | -1 (IE_BADID): no device is open, so no id is valid |
//!
//! Every call is an event, so a trace shows what the program tried.

use crate::machine::{Stop, Uc, record_event};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        200,
        "OPENCOMM",
        &[Arg::L, Arg::W, Arg::W],
        open_comm,
    ),
    Api::new("USER", 201, "SETCOMMSTATE", &[Arg::L], set_comm_state),
    Api::new(
        "USER",
        202,
        "GETCOMMSTATE",
        &[Arg::W, Arg::L],
        get_comm_state,
    ),
    Api::new(
        "USER",
        203,
        "GETCOMMERROR",
        &[Arg::W, Arg::L],
        get_comm_error,
    ),
    Api::new(
        "USER",
        204,
        "READCOMM",
        &[Arg::W, Arg::L, Arg::W],
        read_comm,
    ),
    Api::new(
        "USER",
        205,
        "WRITECOMM",
        &[Arg::W, Arg::L, Arg::W],
        write_comm,
    ),
    Api::new(
        "USER",
        206,
        "TRANSMITCOMMCHAR",
        &[Arg::W, Arg::W],
        transmit_comm_char,
    ),
    Api::new("USER", 207, "CLOSECOMM", &[Arg::W], close_comm),
    Api::new(
        "USER",
        208,
        "SETCOMMEVENTMASK",
        &[Arg::W, Arg::W],
        set_comm_event_mask,
    ),
    Api::new(
        "USER",
        209,
        "GETCOMMEVENTMASK",
        &[Arg::W, Arg::W],
        get_comm_event_mask,
    ),
    Api::new("USER", 210, "SETCOMMBREAK", &[Arg::W], set_comm_break),
    Api::new("USER", 211, "CLEARCOMMBREAK", &[Arg::W], clear_comm_break),
    Api::new(
        "USER",
        212,
        "UNGETCOMMCHAR",
        &[Arg::W, Arg::W],
        unget_comm_char,
    ),
    Api::new(
        "USER",
        213,
        "BUILDCOMMDCB",
        &[Arg::L, Arg::L],
        build_comm_dcb,
    ),
    Api::new(
        "USER",
        214,
        "ESCAPECOMMFUNCTION",
        &[Arg::W, Arg::W],
        escape_comm_function,
    ),
    Api::new("USER", 215, "FLUSHCOMM", &[Arg::W, Arg::W], flush_comm),
    Api::new(
        "USER",
        245,
        "ENABLECOMMNOTIFICATION",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        enable_comm_notification,
    ),
];

/// OpenComm's and the others' error codes (WINDOWS.H).
pub const IE_BADID: i16 = -1;
pub const IE_HARDWARE: i16 = -10;
/// GetCommError: the id is not an open device.
pub const CE_MODE: u16 = 0x8000;

/// The size of the DCB (Windows 3.1, byte-packed).
pub const DCB_SIZE: usize = 25;
/// The size of COMSTAT: a status byte, cbInQue, cbOutQue.
pub const COMSTAT_SIZE: usize = 5;

/// The DCB's parity values and stop bits (WINDOWS.H).
pub const NOPARITY: u8 = 0;
pub const ODDPARITY: u8 = 1;
pub const EVENPARITY: u8 = 2;
pub const MARKPARITY: u8 = 3;
pub const SPACEPARITY: u8 = 4;
pub const ONESTOPBIT: u8 = 0;
pub const ONE5STOPBITS: u8 = 1;
pub const TWOSTOPBITS: u8 = 2;
/// The id bit of a parallel port (LPT1 is 0x80).
pub const LPTX: u8 = 0x80;

fn ret(v: i16) -> u32 {
    u32::from(v as u16)
}

/// A device name OpenComm and BuildCommDCB know: COM1..COM9 give ids
/// 0..8, LPT1..LPT3 ids 0x80..0x82.
fn device_id(name: &[u8]) -> Option<u8> {
    if name.len() != 4 {
        return None;
    }
    let n = name[3].checked_sub(b'1')?;
    if name[..3].eq_ignore_ascii_case(b"COM") && n < 9 {
        Some(n)
    } else if name[..3].eq_ignore_ascii_case(b"LPT") && n < 3 {
        Some(LPTX | n)
    } else {
        None
    }
}

fn event(uc: &mut Uc<'_>, s: String) {
    record_event(uc, s);
}

/// USER.200 OpenComm(lpszDevControl, cbInQueue, cbOutQueue) (module
/// notes).
fn open_comm(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = farptr::read_cstr(uc, a[0], MAX_STRING).unwrap_or_default();
    let dev = name.strip_suffix(b":").unwrap_or(&name);
    let shown = String::from_utf8_lossy(&name).into_owned();
    let r = match device_id(dev) {
        None => IE_BADID,
        Some(_) => IE_HARDWARE,
    };
    event(uc, format!("OpenComm {shown:?}: {r} (no such port)"));
    Ok(ret(r))
}

/// A call on a communications id when no device is open: the error it
/// gets, and an event naming it.
fn no_device(uc: &mut Uc<'_>, what: &str, cid: u32) -> u32 {
    event(uc, format!("{what} {}: no open device", cid as u16 as i16));
    ret(IE_BADID)
}

/// USER.201 SetCommState(lpDCB).
fn set_comm_state(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = farptr::read_bytes(uc, a[0], 1).map_or(0, |b| b[0]);
    Ok(no_device(uc, "SetCommState", u32::from(id)))
}

/// USER.202 GetCommState(nCid, lpDCB).
fn get_comm_state(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "GetCommState", a[0]))
}

/// USER.203 GetCommError(nCid, lpStat): CE_MODE, and a COMSTAT of zeros.
fn get_comm_error(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[1] != 0 {
        farptr::write_bytes(uc, a[1], &[0; COMSTAT_SIZE]);
    }
    no_device(uc, "GetCommError", a[0]);
    Ok(u32::from(CE_MODE))
}

/// USER.204 ReadComm(nCid, lpBuf, cbRead).
fn read_comm(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "ReadComm", a[0]))
}

/// USER.205 WriteComm(nCid, lpBuf, cbWrite).
fn write_comm(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "WriteComm", a[0]))
}

/// USER.206 TransmitCommChar(nCid, chTransmit).
fn transmit_comm_char(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "TransmitCommChar", a[0]))
}

/// USER.207 CloseComm(nCid).
fn close_comm(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "CloseComm", a[0]))
}

/// USER.208 SetCommEventMask(nCid, fuEvtMask) -> the far address of the
/// device's event word: NULL.
fn set_comm_event_mask(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    no_device(uc, "SetCommEventMask", a[0]);
    Ok(0)
}

/// USER.209 GetCommEventMask(nCid, fnEvtClear) -> the events that
/// happened: none.
fn get_comm_event_mask(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    no_device(uc, "GetCommEventMask", a[0]);
    Ok(0)
}

/// USER.210 SetCommBreak(nCid).
fn set_comm_break(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "SetCommBreak", a[0]))
}

/// USER.211 ClearCommBreak(nCid).
fn clear_comm_break(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "ClearCommBreak", a[0]))
}

/// USER.212 UngetCommChar(nCid, chUnget).
fn unget_comm_char(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "UngetCommChar", a[0]))
}

/// USER.214 EscapeCommFunction(nCid, nFunction).
fn escape_comm_function(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "EscapeCommFunction", a[0]))
}

/// USER.215 FlushComm(nCid, fnQueue).
fn flush_comm(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(no_device(uc, "FlushComm", a[0]))
}

/// USER.245 EnableCommNotification(nCid, hwnd, cbWriteNotify,
/// cbOutQueue): FALSE.
fn enable_comm_notification(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    no_device(uc, "EnableCommNotification", a[0]);
    Ok(0)
}

/// USER.213 BuildCommDCB(lpszDef, lpDCB): 0 with the DCB filled, or -1.
fn build_comm_dcb(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let def = farptr::read_cstr(uc, a[0], MAX_STRING).unwrap_or_default();
    let shown = String::from_utf8_lossy(&def).into_owned();
    match build_dcb(&def) {
        Some(dcb) if farptr::write_bytes(uc, a[1], &dcb) => {
            event(uc, format!("BuildCommDCB {shown:?}"));
            Ok(0)
        }
        _ => {
            event(
                uc,
                format!("BuildCommDCB {shown:?}: not a device definition"),
            );
            Ok(ret(-1))
        }
    }
}

/// The DCB a device definition gives (BuildCommDCB), as the MS-DOS MODE
/// command reads one: `COMn[:]` (or `LPTn`), then for a serial port the
/// baud rate, the parity, the data bits and the stop bits, separated by
/// commas or blanks, each but the rate optional.
///
/// - The rate is read from its first two digits, as MODE reads it: 11
///   (110), 15 (150), 30, 60, 12 (1200), 24, 48, 96 (9600), 19 (19200).
/// - The parity is `n`, `o`, `e`, `m` or `s` (even when left out); the
///   data bits 5 to 8 (7 when left out); the stop bits 1, 1.5 or 2 (2 at
///   110 baud when left out, else 1).
/// - A fifth field `x` asks for XON/XOFF flow control, `p` for hardware
///   handshaking (CTS, DSR); other flow fields leave both off.
///
/// The DCB starts zeroed, binary mode on (Windows supports no other); its
/// Id is the device's (COM1 0, LPT1 0x80). None for what MODE would
/// refuse.
pub fn build_dcb(def: &[u8]) -> Option<[u8; DCB_SIZE]> {
    let s = std::str::from_utf8(def).ok()?.trim();
    let (dev, rest) = match s.find(':') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let id = device_id(dev.trim().as_bytes())?;
    let mut dcb = [0u8; DCB_SIZE];
    dcb[0] = id;
    // fBinary (bit 0 of the flag word at 12).
    dcb[12] = 1;
    let fields: Vec<&str> = rest
        .unwrap_or("")
        .split([',', ' ', '\t'])
        .filter(|f| !f.is_empty())
        .collect();
    if id & LPTX != 0 {
        return fields.is_empty().then_some(dcb);
    }
    if fields.len() > 5 {
        return None;
    }
    let Some(rate) = fields.first() else {
        return Some(dcb);
    };
    let two = rate
        .get(..2)
        .filter(|t| t.bytes().all(|c| c.is_ascii_digit()))?;
    if !rate.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let baud: u16 = match two {
        "11" => 110,
        "15" => 150,
        "30" => 300,
        "60" => 600,
        "12" => 1200,
        "24" => 2400,
        "48" => 4800,
        "96" => 9600,
        "19" => 19200,
        _ => return None,
    };
    dcb[1..3].copy_from_slice(&baud.to_le_bytes());
    let parity = match fields.get(1).map(|p| p.to_ascii_lowercase()) {
        None => EVENPARITY,
        Some(p) => match p.as_str() {
            "n" => NOPARITY,
            "o" => ODDPARITY,
            "e" => EVENPARITY,
            "m" => MARKPARITY,
            "s" => SPACEPARITY,
            _ => return None,
        },
    };
    dcb[4] = parity;
    if parity != NOPARITY {
        // fParity.
        dcb[12] |= 0x04;
    }
    dcb[3] = match fields.get(2).copied() {
        None => 7,
        Some(d @ ("5" | "6" | "7" | "8")) => d.as_bytes()[0] - b'0',
        Some(_) => return None,
    };
    dcb[5] = match fields.get(3).copied() {
        None if baud == 110 => TWOSTOPBITS,
        None | Some("1") => ONESTOPBIT,
        Some("1.5") => ONE5STOPBITS,
        Some("2") => TWOSTOPBITS,
        Some(_) => return None,
    };
    match fields.get(4).map(|f| f.to_ascii_lowercase()).as_deref() {
        // fOutX, fInX.
        Some("x") => dcb[13] |= 0x03,
        // fOutxCtsFlow, fOutxDsrFlow; fDtrflow, fRtsflow.
        Some("p") => {
            dcb[12] |= 0x18;
            dcb[13] |= 0x60;
        }
        _ => {}
    }
    Some(dcb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn device_names_are_com1_to_com9_and_lpt1_to_lpt3() {
        assert_eq!(device_id(b"COM1"), Some(0));
        assert_eq!(device_id(b"com9"), Some(8));
        assert_eq!(device_id(b"LPT1"), Some(0x80));
        assert_eq!(device_id(b"LPT3"), Some(0x82));
        assert_eq!(device_id(b"LPT4"), None);
        assert_eq!(device_id(b"COM0"), None);
        assert_eq!(device_id(b"AUX"), None);
        assert_eq!(device_id(b"COM10"), None);
    }

    #[test]
    fn build_dcb_reads_a_mode_command() {
        let d = build_dcb(b"COM1:9600,n,8,1").unwrap();
        assert_eq!(d[0], 0);
        assert_eq!(u16::from_le_bytes([d[1], d[2]]), 9600);
        assert_eq!((d[3], d[4], d[5]), (8, NOPARITY, ONESTOPBIT));
        assert_eq!(d[12], 0x01, "binary, no parity checking");
        // Two digits are enough, the rest are not looked at.
        let d = build_dcb(b"com2:96,e,7,2").unwrap();
        assert_eq!(d[0], 1);
        assert_eq!(u16::from_le_bytes([d[1], d[2]]), 9600);
        assert_eq!((d[3], d[4], d[5]), (7, EVENPARITY, TWOSTOPBITS));
        assert_eq!(d[12] & 0x04, 0x04, "fParity");
        let d = build_dcb(b"COM1:19200").unwrap();
        assert_eq!(u16::from_le_bytes([d[1], d[2]]), 19200);
        // MODE's defaults: even parity, 7 data bits, 2 stop bits at 110.
        let d = build_dcb(b"COM3:110").unwrap();
        assert_eq!((d[3], d[4], d[5]), (7, EVENPARITY, TWOSTOPBITS));
        let d = build_dcb(b"COM1:1200,o,8,1.5,x").unwrap();
        assert_eq!((d[4], d[5], d[13]), (ODDPARITY, ONE5STOPBITS, 0x03));
        let d = build_dcb(b"COM1: 2400 n 8 1 p").unwrap();
        assert_eq!((d[12] & 0x18, d[13]), (0x18, 0x60));
        assert_eq!(build_dcb(b"LPT1:").unwrap()[0], 0x80);
        assert_eq!(build_dcb(b"COM1").unwrap()[0], 0);
        assert_eq!(build_dcb(b"COM2:").unwrap()[0], 1);
        // What MODE refuses.
        for bad in [
            &b"COM1:9601x"[..],
            b"COM1:1000",
            b"COM1:9600,q",
            b"COM1:9600,n,9",
            b"COM1:9600,n,8,3",
            b"AUX:9600",
            b"LPT1:9600",
            b"",
        ] {
            assert_eq!(build_dcb(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }
}
