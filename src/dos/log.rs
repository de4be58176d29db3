//! The interrupt log of `run --events`: each DOS and BIOS service call a
//! program makes (INT 20h, 21h, 27h, 10h-1Ah, 2Fh, 33h), with what it
//! asked and what it got, as the Win16 relay log shows API calls
//! (win16/dispatch.rs, `call_api`). A Win16 program's INT 21h and DOS3Call
//! are logged the same way.
//!
//! One event per call, at the CS:IP of the `int` instruction's return:
//!
//! ```text
//! INT 21h AH=3Dh open file: AX=3D00 BX=0000 CX=0000 DX=0180 DS:DX "TEST.TXT" -> CF=0 AX=0005
//! INT 10h AH=0Eh teletype output: AX=0E41 BX=0007 CX=0000 DX=0000 -> AX=0E41
//! INT 16h AH=00h read key: AX=0000 BX=0000 CX=0000 DX=0000 -> AX=1C0D
//! ```
//!
//! - The function: AH for INT 10h, 16h, 1Ah, 21h (with its name from the
//!   DOS 5 dispatch table or the BIOS's), AX for INT 2Fh and 33h, whose
//!   functions are numbered by AX.
//! - What the program passed: AX, BX, CX and DX, and the text a pointer
//!   argument points at (an ASCIIZ file name at DS:DX, DS:SI or ES:DI, the
//!   `$`-terminated string of AH=09h, the bytes AH=40h writes; at most 64
//!   characters, control characters shown as `\xNN`).
//! - What it got: CF (for the functions that report with it, or when the
//!   call changed it), AX, and every other register the call changed (so
//!   BX's handle, CX:DX's size, ES:BX's pointer are there when the
//!   function returns them); for AH=47h the directory it wrote. A call
//!   that ends the program, or stops the run, says so.
//!
//! The log costs one test of a flag per call when `--events` is off
//! ([`super::Dos::log_calls`]).

use crate::dos::Env;
use crate::machine::{Cpu, Regs, Stop, Uc};

/// At most this many characters of a string argument are shown.
const MAX_SHOWN: usize = 64;

/// Run the service `run` for `INT intno`, logging the call when the run
/// logs them.
pub fn logged(
    env: &mut Env,
    uc: &mut Uc<'_>,
    intno: u8,
    via: Option<&str>,
    run: impl FnOnce(&mut Env, &mut Uc<'_>) -> Result<(), Stop>,
) -> Result<(), Stop> {
    if !env.dos.log_calls {
        return run(env, uc);
    }
    let before = uc.regs();
    let asked = describe_call(uc, intno, &before, via);
    let r = run(env, uc);
    let after = uc.regs();
    let got = match &r {
        Ok(()) => describe_result(uc, intno, &before, &after),
        Err(Stop::Exited { code }) => format!("ends the program with exit code {code}"),
        Err(Stop::NoInput { what }) => format!("stops the run: {what}"),
        Err(Stop::Unimplemented { what, .. }) => {
            format!("stops the run: {what} is not implemented")
        }
        Err(Stop::Fatal { what, .. }) => format!("stops the run: {what}"),
        Err(Stop::Fault(_)) => "faults".to_string(),
        Err(Stop::Error(e)) => format!("the emulator failed: {e}"),
        Err(_) => "stops the run".to_string(),
    };
    crate::machine::record_event_at(uc, before.cs, before.ip, format!("{asked} -> {got}"));
    r
}

/// The function's name, by interrupt and AH (or AX).
fn function_name(intno: u8, r: &Regs) -> Option<&'static str> {
    let ah = (r.ax >> 8) as u8;
    Some(match intno {
        0x20 => "terminate program",
        0x27 => "terminate and stay resident",
        0x21 => return super::int21::TABLE.get(usize::from(ah)).map(|f| f.name),
        0x10 => match ah {
            0x00 => "set video mode",
            0x01 => "set cursor shape",
            0x02 => "set cursor position",
            0x03 => "get cursor position",
            0x05 => "select page",
            0x06 => "scroll up",
            0x07 => "scroll down",
            0x08 => "read character and attribute",
            0x09 => "write character and attribute",
            0x0A => "write character",
            0x0E => "teletype output",
            0x0F => "get video mode",
            0x10 => "palette",
            0x11 => "character generator",
            0x12 => "alternate select",
            0x13 => "write string",
            0x1A => "display combination",
            _ => return None,
        },
        0x11 => "equipment list",
        0x12 => "memory size",
        0x13 => "disk services",
        0x15 => match ah {
            0x24 => "A20 gate",
            0x4F => "keyboard intercept",
            0x86 => "wait",
            0x88 => "extended memory size",
            0xC0 => "system configuration",
            _ => "system services",
        },
        0x16 => match ah {
            0x00 | 0x10 => "read key",
            0x01 | 0x11 => "key status",
            0x02 | 0x12 => "shift flags",
            0x03 => "typematic rate",
            0x05 => "store key",
            0x09 => "keyboard capabilities",
            0x0A => "keyboard ID",
            _ => return None,
        },
        0x1A => match ah {
            0x00 => "get tick count",
            0x01 => "set tick count",
            0x02 => "get real-time clock time",
            0x03 => "set real-time clock time",
            0x04 => "get real-time clock date",
            0x05 => "set real-time clock date",
            _ => return None,
        },
        0x2F => match r.ax {
            0x1600 => "Windows enhanced mode check",
            0x1680 => "release time slice",
            0x1684 => "VxD API entry",
            0x1687 => "DPMI check",
            0x4300 => "XMS installation check",
            0x4310 => "XMS driver address",
            0x4A01 => "free HMA",
            _ => return None,
        },
        0x33 => match r.ax {
            0x0000 => "reset mouse",
            0x0001 => "show cursor",
            0x0002 => "hide cursor",
            0x0003 => "position and buttons",
            0x0004 => "set position",
            0x0005 => "button press information",
            0x0006 => "button release information",
            0x0007 => "horizontal range",
            0x0008 => "vertical range",
            0x0009 => "graphics cursor",
            0x000A => "text cursor",
            0x000B => "motion counters",
            0x000C => "event handler",
            0x000F => "mickey ratio",
            0x0014 => "swap event handler",
            0x001A => "set sensitivity",
            0x001B => "get sensitivity",
            0x0021 => "software reset",
            0x0024 => "version",
            _ => return None,
        },
        _ => return None,
    })
}

/// `"text"` of at most [`MAX_SHOWN`] characters, control characters
/// escaped.
fn shown(bytes: &[u8]) -> String {
    let s: String = bytes
        .iter()
        .take(MAX_SHOWN)
        .map(|&b| char::from(b))
        .collect();
    let more = if bytes.len() > MAX_SHOWN { "..." } else { "" };
    format!("{}{more}", crate::escape::quoted(&s))
}

fn asciiz(uc: &Uc<'_>, seg: u16, off: u16) -> String {
    shown(&super::read_until(uc, seg, off, 0, 128))
}

/// `INT 21h AH=3Dh open file: AX=3D00 BX=.. CX=.. DX=.. DS:DX "NAME"`.
fn describe_call(uc: &Uc<'_>, intno: u8, r: &Regs, via: Option<&str>) -> String {
    let ah = (r.ax >> 8) as u8;
    let mut s = format!("INT {intno:02X}h");
    match intno {
        0x2F | 0x33 => s.push_str(&format!(" AX={:04X}h", r.ax)),
        0x10 | 0x15 | 0x16 | 0x1A | 0x21 => s.push_str(&format!(" AH={ah:02X}h")),
        _ => {}
    }
    if let Some(name) = function_name(intno, r) {
        s.push(' ');
        s.push_str(name);
    }
    if let Some(v) = via {
        s.push_str(&format!(" (through {v})"));
    }
    s.push_str(&format!(
        ": AX={:04X} BX={:04X} CX={:04X} DX={:04X}",
        r.ax, r.bx, r.cx, r.dx
    ));
    if intno == 0x21 {
        let text = match ah {
            0x09 => Some((
                "DS:DX",
                shown(&super::read_until(uc, r.ds, r.dx, b'$', 256)),
            )),
            0x39..=0x3D | 0x41 | 0x43 | 0x4B | 0x4E | 0x5A | 0x5B => {
                Some(("DS:DX", asciiz(uc, r.ds, r.dx)))
            }
            0x56 => {
                s.push_str(&format!(" DS:DX {}", asciiz(uc, r.ds, r.dx)));
                Some(("ES:DI", asciiz(uc, r.es, r.di)))
            }
            0x6C => Some(("DS:SI", asciiz(uc, r.ds, r.si))),
            0x40 => {
                let mut b = vec![0u8; usize::from(r.cx).min(MAX_SHOWN + 1)];
                let _ = uc.read_seg(r.ds, r.dx, &mut b);
                let mut t = shown(&b);
                if usize::from(r.cx) > MAX_SHOWN && !t.ends_with("...") {
                    t.push_str("...");
                }
                Some(("DS:DX", t))
            }
            _ => None,
        };
        if let Some((at, t)) = text {
            s.push_str(&format!(" {at} {t}"));
        }
    }
    s
}

/// Does this function report success or failure in CF? DOS 2 and later
/// handle-style functions (38h-6Ch, but for those that cannot fail), and
/// the BIOS's disk, system and real-time clock services.
fn reports_carry(intno: u8, ah: u8) -> bool {
    match intno {
        0x21 => {
            matches!(ah, 0x38..=0x6C)
                && !matches!(ah, 0x4C | 0x4D | 0x50 | 0x51 | 0x54 | 0x55 | 0x62)
        }
        0x13 | 0x15 => true,
        0x1A => matches!(ah, 0x02..=0x05),
        _ => false,
    }
}

/// `CF=0 AX=0005` and every other register the call changed; CF when the
/// function reports with it or changed it.
fn describe_result(uc: &Uc<'_>, intno: u8, b: &Regs, a: &Regs) -> String {
    let ah = (b.ax >> 8) as u8;
    let mut s = if reports_carry(intno, ah) || (a.flags ^ b.flags) & 1 != 0 {
        format!("CF={} AX={:04X}", a.flags & 1, a.ax)
    } else {
        format!("AX={:04X}", a.ax)
    };
    if a.flags & 0x40 != b.flags & 0x40
        || matches!(
            (intno, (b.ax >> 8) as u8),
            (0x16, 0x01 | 0x11) | (0x21, 0x06)
        )
    {
        s.push_str(&format!(" ZF={}", (a.flags >> 6) & 1));
    }
    for (name, x, y) in [
        ("BX", b.bx, a.bx),
        ("CX", b.cx, a.cx),
        ("DX", b.dx, a.dx),
        ("SI", b.si, a.si),
        ("DI", b.di, a.di),
        ("DS", b.ds, a.ds),
        ("ES", b.es, a.es),
    ] {
        if x != y {
            s.push_str(&format!(" {name}={y:04X}"));
        }
    }
    if intno == 0x21 && (b.ax >> 8) as u8 == 0x47 && a.flags & 1 == 0 {
        s.push_str(&format!(" DS:SI {}", asciiz(uc, a.ds, a.si)));
    }
    if (a.cs, a.ip) != (b.cs, b.ip) && intno != 0x21 {
        s.push_str(&format!(" (continues at {:04X}:{:04X})", a.cs, a.ip));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_named_by_ah_or_ax() {
        let r = |ax: u16| Regs {
            ax,
            ..Regs::default()
        };
        assert_eq!(function_name(0x21, &r(0x3D00)), Some("open file"));
        assert_eq!(function_name(0x10, &r(0x0E41)), Some("teletype output"));
        assert_eq!(function_name(0x16, &r(0x1000)), Some("read key"));
        assert_eq!(function_name(0x1A, &r(0x0000)), Some("get tick count"));
        assert_eq!(
            function_name(0x2F, &r(0x4300)),
            Some("XMS installation check")
        );
        assert_eq!(
            function_name(0x33, &r(0x0003)),
            Some("position and buttons")
        );
        assert_eq!(function_name(0x10, &r(0x7700)), None);
        assert_eq!(shown(b"a\x1bb"), "\"a\\x1Bb\"");
        let long = vec![b'x'; 100];
        assert!(shown(&long).ends_with("\"..."));
    }
}
