//! INT 21h AH=01h-0Ch: character and line I/O on the console, as DOS does
//! it on standard input and output (handles 0 and 1). Output is the
//! program's console stream and, in real mode, the text screen through the
//! BIOS.
//!
//! # Where the input comes from
//!
//! DOS reads standard input from the console device unless it was
//! redirected, and the console device reads the keyboard through the BIOS.
//! So:
//!
//! - With `--stdin FILE` (or a pipe, when `--keys` is not given) standard
//!   input is redirected: each read takes the next byte, and at the end
//!   the reads return Ctrl-Z (1Ah) as DOS does for a redirected file.
//! - With `--keys` and no `--stdin`, standard input is the console: each
//!   read takes the next key from the BIOS keyboard buffer, then from the
//!   `--keys` script, the same keys INT 16h reads (bios.rs). A key with no
//!   ASCII code (F1, the arrows) reads as 00h and its scan code comes with
//!   the next read, as DOS gives extended keys. A read that would wait
//!   when the script is used up stops the program (exit 126) instead of
//!   hanging; the calls that only look (06h with DL = FFh, 0Bh) say
//!   nothing is there, and a program that keeps looking is told of in the
//!   budget's note. A handle read of the console (AH=3Fh on CON, file.rs)
//!   reads a whole line first, as the console device in cooked mode does,
//!   and hands it out with its CR LF.
//!
//! Type-ahead: the script's keys are typed while the program waits for
//! them, so none is ahead of a read and AH=0Ch flushes nothing.

use super::{al, set};
use crate::dos::Env;
use crate::dos::{console_out, hardware, read_until, set_al, set_zf};
use crate::machine::{Cpu, R, Stop, Uc};

/// The next key typed for the console: the BIOS buffer (a key a timer
/// tick typed), then the `--keys` script.
fn next_key(env: &mut Env, uc: &mut Uc<'_>) -> Option<(u8, u8)> {
    hardware::pop(uc).or_else(|| env.dos.keys.pop_front())
}

/// One byte of console input (module documentation): standard input's
/// next byte, or the keyboard's next key (00h, then the scan code, for an
/// extended key). None: standard input has ended, or the keyboard has no
/// key left.
pub fn console_byte(env: &mut Env, uc: &mut Uc<'_>) -> Option<u8> {
    if !env.dos.console_keyboard {
        return env.dos.read_input();
    }
    if let Some(scan) = env.dos.console_scan.take() {
        return Some(scan);
    }
    let (scan, ascii) = next_key(env, uc)?;
    if ascii == 0 || ascii == 0xE0 {
        env.dos.console_scan = Some(scan);
        return Some(0);
    }
    Some(ascii)
}

/// Is a byte of console input waiting (AH=0Bh, IOCTL 4406h)?
pub fn console_ready(env: &mut Env, uc: &Uc<'_>) -> bool {
    if !env.dos.console_keyboard {
        return env.dos.input_ready();
    }
    let ready = env.dos.console_scan.is_some()
        || !env.dos.console_line.is_empty()
        || hardware::peek(uc).is_some()
        || !env.dos.keys.is_empty();
    if !ready {
        env.dos.keyboard.empty_polls += 1;
    }
    ready
}

/// The stop of a console read that would wait for a key that will never
/// be typed.
fn no_key(what: &str) -> Stop {
    Stop::NoInput {
        what: format!("{what} waits for a key and the --keys script is used up"),
    }
}

/// A character from standard input: at its end, Ctrl-Z, as DOS returns for
/// redirected input; from the keyboard, the next key.
fn read_char(env: &mut Env, uc: &mut Uc<'_>, echo: bool) -> Result<(), Stop> {
    let ah = env.dos.call_ah;
    let c = match console_byte(env, uc) {
        Some(c) => c,
        None if env.dos.console_keyboard => {
            return Err(no_key(&format!("INT 21h AH={ah:02X}h")));
        }
        None => 0x1A,
    };
    if echo && (c != 0x1A || env.dos.console_keyboard) && c != 0 {
        console_out(env, uc, &[c]);
    }
    set_al(uc, c)
}

/// How DOS's buffered input echoes a character: a control character as
/// `^` and its letter (Ctrl-Z as `^Z`), Tab as it is.
fn echo_char(env: &mut Env, uc: &mut Uc<'_>, c: u8) {
    if c < 0x20 && c != b'\t' {
        console_out(env, uc, &[b'^', c + 0x40]);
    } else {
        console_out(env, uc, &[c]);
    }
}

/// A line of console input, edited and echoed as DOS's buffered input
/// does: each character is echoed as it comes ([`echo_char`]), Backspace
/// takes back the last character (echoing backspace, space, backspace), a
/// key without an ASCII code is ignored, and CR (or, redirected, LF; CR
/// LF counts once) ends the line and is echoed alone: the cursor goes back
/// to the line's start and the program writes the line feed itself, as
/// EDLIN and COMMAND.COM do. At most `room` characters are kept (DOS
/// refuses the rest). Redirected input that ends ends the line; the
/// keyboard running out of keys stops the program (`what` names the call).
fn read_line(env: &mut Env, uc: &mut Uc<'_>, room: usize, what: &str) -> Result<Vec<u8>, Stop> {
    let mut line: Vec<u8> = Vec::new();
    loop {
        let Some(c) = console_byte(env, uc) else {
            if env.dos.console_keyboard {
                return Err(no_key(what));
            }
            break;
        };
        match c {
            0 if env.dos.console_keyboard => {
                env.dos.console_scan = None;
            }
            b'\n' if !env.dos.console_keyboard => break,
            b'\r' => {
                if !env.dos.console_keyboard
                    && env
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
            0x08 => {
                if let Some(gone) = line.pop() {
                    let width = if gone < 0x20 && gone != b'\t' { 2 } else { 1 };
                    for _ in 0..width {
                        console_out(env, uc, b"\x08 \x08");
                    }
                }
            }
            _ if line.len() < room => {
                line.push(c);
                echo_char(env, uc, c);
            }
            _ => {}
        }
    }
    console_out(env, uc, b"\r");
    Ok(line)
}

/// A handle read of the console (AH=3Fh on CON) when standard input is the
/// keyboard: the rest of the line read before, else a new line, echoed
/// and ending CR LF (at most 127 characters, as the console device keeps).
/// A line that starts with Ctrl-Z reads as the end of the file: 0 bytes.
pub fn read_console_handle(env: &mut Env, uc: &mut Uc<'_>, max: usize) -> Result<Vec<u8>, Stop> {
    if env.dos.console_line.is_empty() {
        let line = read_line(env, uc, 127, "INT 21h AH=3Fh (a read of the console)")?;
        // The console device ends the line it hands out with CR LF, and
        // echoes the line feed.
        console_out(env, uc, b"\n");
        if line.first() == Some(&0x1A) {
            return Ok(Vec::new());
        }
        env.dos.console_line.extend(line);
        env.dos.console_line.extend(b"\r\n");
    }
    let n = max.min(env.dos.console_line.len());
    Ok(env.dos.console_line.drain(..n).collect())
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
    let c = if env.dos.console_keyboard && !console_ready(env, uc) {
        None
    } else {
        console_byte(env, uc)
    };
    match c {
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
/// count read, then the characters and CR), edited and echoed as
/// [`read_line`] says. A room of 0 returns at once without reading.
pub fn buffered_input(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let mut b = [0u8];
    if uc.read_seg(ds, dx, &mut b).is_err() {
        return Ok(());
    }
    let max = b[0];
    if max == 0 {
        return Ok(());
    }
    let line = read_line(env, uc, usize::from(max) - 1, "INT 21h AH=0Ah")?;
    let mut out = vec![line.len() as u8];
    out.extend_from_slice(&line);
    out.push(b'\r');
    super::write_wrapping(uc, "DS", ds, dx.wrapping_add(1), &out)?;
    Ok(())
}

/// AH=0Bh: AL = FFh when a character is waiting, else 0.
pub fn input_status(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let r = if console_ready(env, uc) { 0xFF } else { 0 };
    set_al(uc, r)
}

/// AH=0Ch: flush the type-ahead buffer (nothing is read ahead here: see
/// the module documentation), then
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
