//! INT 21h AH=01h-0Ch: character and line I/O on the console, as DOS does
//! it on standard input and output (handles 0 and 1): input is the run's
//! standard input (`--stdin`), output the program's console stream and, in
//! real mode, the text screen through the BIOS.

use super::{al, set};
use crate::dos::{console_out, read_until, set_al, set_zf};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};

/// A character from standard input: at its end, Ctrl-Z, as DOS returns for
/// redirected input.
fn read_char(env: &mut Env, uc: &mut Uc<'_>, echo: bool) -> Result<(), Stop> {
    let c = env.dos.read_input().unwrap_or(0x1A);
    if echo && c != 0x1A {
        console_out(env, uc, &[c]);
    }
    set_al(uc, c)
}

/// AH=01h: read a character and echo it.
pub fn input_echo(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    read_char(env, uc, true)
}

/// AH=07h: read a character, no echo, no Ctrl-C check.
pub fn direct_input(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    read_char(env, uc, false)
}

/// AH=08h: read a character without echo.
pub fn input_no_echo(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    read_char(env, uc, false)
}

/// AH=02h: write DL. DOS returns the character in AL.
pub fn output(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dl = uc.reg(R::DX) as u8;
    console_out(env, uc, &[dl]);
    set_al(uc, dl)
}

/// AH=03h: read a character from AUX (COM1). No serial line is connected:
/// it reads as the end of input, Ctrl-Z.
pub fn aux_input(_env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    set_al(uc, 0x1A)
}

/// AH=04h: write DL to AUX; nothing is connected, so it goes nowhere.
pub fn aux_output(_env: &mut Env, _uc: &mut Uc<'_>) -> Result<(), Stop> {
    Ok(())
}

/// AH=05h: write DL to PRN; no printer, so it goes nowhere.
pub fn printer_output(_env: &mut Env, _uc: &mut Uc<'_>) -> Result<(), Stop> {
    Ok(())
}

/// AH=06h: DL = FFh reads a character if one is ready (ZF clear, AL) or
/// returns at once (ZF set, AL = 0); any other DL is written.
pub fn direct_io(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let dl = uc.reg(R::DX) as u8;
    if dl != 0xFF {
        console_out(env, uc, &[dl]);
        return set_al(uc, dl);
    }
    match env.dos.read_input() {
        Some(c) => {
            set_al(uc, c)?;
            set_zf(uc, false)
        }
        None => {
            set_al(uc, 0)?;
            set_zf(uc, true)
        }
    }
}

/// AH=09h: write the `$`-terminated string at DS:DX; AL = '$'.
pub fn print_string(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let s = read_until(uc, ds, dx, b'$', 0x10000);
    console_out(env, uc, &s);
    set_al(uc, b'$')
}

/// AH=0Ah: buffered line input into DS:DX (byte 0 the room, byte 1 the
/// count read, then the characters and CR). The line is echoed.
pub fn buffered_input(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let mut b = [0u8];
    if uc.read_seg(ds, dx, &mut b).is_err() {
        return Ok(());
    }
    let max = b[0];
    let mut line = Vec::new();
    while let Some(c) = env.dos.read_input() {
        match c {
            b'\n' => break,
            b'\r' => {
                if env
                    .dos
                    .input
                    .as_ref()
                    .and_then(|v| v.get(env.dos.input_pos))
                    == Some(&b'\n')
                {
                    env.dos.input_pos += 1;
                }
                break;
            }
            _ if line.len() + 1 < usize::from(max) => line.push(c),
            _ => {}
        }
    }
    console_out(env, uc, &line);
    console_out(env, uc, b"\r\n");
    let mut out = vec![line.len() as u8];
    out.extend_from_slice(&line);
    out.push(b'\r');
    if max > 0 {
        super::write_wrapping(uc, "DS", ds, dx.wrapping_add(1), &out)?;
    }
    Ok(())
}

/// AH=0Bh: AL = FFh when a character is waiting, else 0.
pub fn input_status(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let r = if env.dos.input_ready() { 0xFF } else { 0 };
    set_al(uc, r)
}

/// AH=0Ch: flush the type-ahead buffer (nothing is read ahead here), then
/// run input function AL (01h, 06h, 07h, 08h, 0Ah); other AL: AL = 0.
pub fn flush_and_read(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let al = al(uc);
    let func: Option<super::Handler> = match al {
        0x01 => Some(input_echo),
        0x06 => Some(direct_io),
        0x07 => Some(direct_input),
        0x08 => Some(input_no_echo),
        0x0A => Some(buffered_input),
        _ => None,
    };
    match func {
        Some(run) => {
            set(uc, R::AX, u16::from(al) << 8 | u16::from(al))?;
            run(env, uc)
        }
        None => set_al(uc, 0),
    }
}
