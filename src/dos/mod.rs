//! DOS and BIOS services, as far as this version implements them, and the
//! real-mode program loaders (COM, MZ, raw images and boot sectors).
//!
//! INT 21h is here (console, process, memory, clock) and in [`files`]
//! (handle calls over the sandboxed [`fs::Drive`]) and [`fcb`] (DOS 1.x
//! FCB calls); BIOS services (INT 10h, 11h, 12h, 13h "no drive", 16h over
//! the BIOS keyboard buffer, 1Ah) are in [`bios`]; the timer and keyboard
//! interrupts in [`hardware`]. Anything else stops the program with
//! [`Stop::Unimplemented`] naming the function and AH/AL (win16.md: never a
//! guess).

pub mod clock;
pub mod fcb;
pub mod files;
pub mod fs;
pub mod hardware;
pub mod memory;
pub mod screen;

use crate::env::Env;
use std::io::Read as _;

use crate::machine::{Cpu, Machine, MachineError, R, Stop, Uc};

/// DOS's own state.
#[derive(Debug, Clone, Default)]
pub struct Dos {
    /// Segment of the current PSP (INT 21h AH=51h/62h).
    pub psp: u16,
    /// Segment of the first memory control block (0 = no DOS memory, as for
    /// Win16 tasks and raw images).
    pub first_mcb: u16,
    /// Interrupt vectors set through AH=25h, as (segment, offset).
    pub vectors: std::collections::HashMap<u8, (u16, u16)>,
    /// BIOS tick count (INT 1Ah), advanced per call for a fixed clock.
    pub ticks: u32,
    /// Drive C:'s volume serial number (INT 21h AH=69h); `None` until a
    /// program sets one, then kept for the run (the host directory has no
    /// boot sector to write it to).
    pub volume_serial: Option<u32>,
    /// The disk transfer address (AH=1Ah/2Fh) as (segment, offset).
    pub dta: (u16, u16),
    /// Standard input: `--stdin FILE`'s bytes, or the host's stdin read on
    /// first use.
    pub input: Option<Vec<u8>>,
    /// Read position in `input`.
    pub input_pos: usize,
    /// Scripted keys not typed yet (`--keys`), as (scan code, ASCII).
    pub keys: std::collections::VecDeque<(u8, u8)>,
    /// The keyboard controller: port 60h and keys in flight.
    pub keyboard: hardware::Keyboard,
    /// The clock.
    pub clock: clock::Clock,
    /// Ctrl-Break checking flag (AH=33h).
    pub break_flag: bool,
    /// The last child's return code (AH=4Dh).
    pub return_code: u16,
    /// Reads of standard input made after its end.
    pub reads_at_eof: u32,
    /// The search of FCB find first/next (AH=11h/12h).
    pub fcb_find: Option<fs::FindState>,
}

/// How many reads past the end of standard input a program may make before
/// it is stopped as waiting for input that will never come.
pub const MAX_READS_AT_EOF: u32 = 64;

impl Dos {
    fn fill_input(&mut self) {
        if self.input.is_none() {
            let mut v = Vec::new();
            let _ = std::io::Read::read_to_end(&mut std::io::stdin().lock().take(16 << 20), &mut v);
            self.input = Some(v);
        }
    }

    /// The next byte of standard input, if any.
    pub fn read_input(&mut self) -> Option<u8> {
        self.fill_input();
        let b = self.input.as_ref()?.get(self.input_pos).copied();
        if b.is_some() {
            self.input_pos += 1;
        } else {
            self.reads_at_eof = self.reads_at_eof.saturating_add(1);
        }
        b
    }

    /// A program that keeps asking for input after the end of its standard
    /// input would loop until the budget runs out; stop it instead.
    pub fn check_input_loop(&self) -> Result<(), Stop> {
        if self.reads_at_eof > MAX_READS_AT_EOF {
            return Err(Stop::NoInput {
                what: format!(
                    "the program read past the end of its standard input {MAX_READS_AT_EOF} times"
                ),
            });
        }
        Ok(())
    }

    /// Is a byte of standard input waiting?
    pub fn input_ready(&mut self) -> bool {
        self.fill_input();
        self.input
            .as_ref()
            .is_some_and(|v| self.input_pos < v.len())
    }
}

/// Parse a `--keys` script: characters stand for themselves; `\n` or
/// `{enter}` is Enter, `{esc}`, `{tab}`, `{bs}`, `{up}`, `{down}`, `{left}`,
/// `{right}`, `{f1}`..`{f10}` name keys.
pub fn parse_keys(script: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut out = Vec::new();
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '{' {
            let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
            let k = match name.to_ascii_lowercase().as_str() {
                "enter" => (0x1C, 0x0D),
                "esc" => (0x01, 0x1B),
                "tab" => (0x0F, 0x09),
                "bs" => (0x0E, 0x08),
                "space" => (0x39, b' '),
                "up" => (0x48, 0),
                "down" => (0x50, 0),
                "left" => (0x4B, 0),
                "right" => (0x4D, 0),
                f if f.starts_with('f')
                    && f[1..].parse::<u8>().is_ok_and(|n| (1..=10).contains(&n)) =>
                {
                    (0x3A + f[1..].parse::<u8>().unwrap_or(1), 0)
                }
                other => return Err(format!("--keys: unknown key {{{other}}}")),
            };
            out.push(k);
        } else if c == '\n' {
            out.push((0x1C, 0x0D));
        } else if c.is_ascii() {
            out.push((scan_code(c as u8), c as u8));
        } else {
            return Err(format!("--keys: '{c}' is not an ASCII key"));
        }
    }
    Ok(out)
}

/// The US-layout scan code (set 1) of the key that types ASCII `c`, shifted
/// or not; control characters are their letter's key; 0 when no key does.
pub fn scan_code(c: u8) -> u8 {
    const ROWS: [(u8, &[u8], &[u8]); 4] = [
        (0x02, b"1234567890-=", b"!@#$%^&*()_+"),
        (0x10, b"qwertyuiop[]", b"QWERTYUIOP{}"),
        (0x1E, b"asdfghjkl;'`", b"ASDFGHJKL:\"~"),
        (0x2C, b"zxcvbnm,./", b"ZXCVBNM<>?"),
    ];
    match c {
        b'\r' | b'\n' => return 0x1C,
        0x1B => return 0x01,
        b'\t' => return 0x0F,
        0x08 => return 0x0E,
        b' ' => return 0x39,
        b'\\' | b'|' => return 0x2B,
        1..=26 => return scan_code(c + b'a' - 1),
        _ => {}
    }
    for (first, plain, shifted) in ROWS {
        if let Some(i) = plain.iter().chain(shifted.iter()).position(|&k| k == c) {
            return first + (i % plain.len()) as u8;
        }
    }
    0
}

/// The stop for a service that is not implemented: names it and keeps the
/// caller's CS:IP (the INT instruction) and BP for the walk.
pub fn unimplemented(uc: &Uc<'_>, what: String) -> Stop {
    let ip = uc.reg(R::IP).wrapping_sub(2);
    Stop::Unimplemented {
        what,
        caller: (uc.reg(R::CS), ip, uc.reg(R::BP)),
    }
}

pub(crate) fn set_carry(uc: &mut Uc<'_>, on: bool) -> Result<(), Stop> {
    let f = uc.reg(R::FLAGS);
    let f = if on { f | 1 } else { f & !1 };
    uc.set_reg(R::FLAGS, f).map_err(host)
}

/// Real-mode interrupt vector `n` from the table at 0000:0000, as
/// (segment, offset).
pub fn get_vector(uc: &Uc<'_>, n: u8) -> Result<(u16, u16), Stop> {
    let mut b = [0u8; 4];
    uc.read_seg(0, u16::from(n) * 4, &mut b)
        .map_err(|e| Stop::Error(e.to_string()))?;
    Ok((
        u16::from_le_bytes([b[2], b[3]]),
        u16::from_le_bytes([b[0], b[1]]),
    ))
}

/// Set real-mode interrupt vector `n` to (segment, offset).
pub fn set_vector(uc: &mut Uc<'_>, n: u8, (seg, off): (u16, u16)) -> Result<(), Stop> {
    let mut b = [0u8; 4];
    b[..2].copy_from_slice(&off.to_le_bytes());
    b[2..].copy_from_slice(&seg.to_le_bytes());
    uc.write_seg(0, u16::from(n) * 4, &b)
        .map_err(|e| Stop::Error(e.to_string()))
}

/// A host-side machine error, as the stop it causes.
pub(crate) fn host(e: MachineError) -> Stop {
    Stop::Error(e.0)
}

/// Read a string ending in `term` at seg:off, at most `max` bytes, stopping
/// early at the segment limit.
pub fn read_until(uc: &Uc<'_>, seg: u16, off: u16, term: u8, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut o = off;
    for _ in 0..max {
        let mut b = [0u8];
        if uc.read_seg(seg, o, &mut b).is_err() || b[0] == term {
            break;
        }
        out.push(b[0]);
        o = o.wrapping_add(1);
    }
    out
}

pub(crate) fn set_al(uc: &mut Uc<'_>, v: u8) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    uc.set_reg(R::AX, (ax & 0xFF00) | u16::from(v))
        .map_err(host)
}

fn set_zf(uc: &mut Uc<'_>, on: bool) -> Result<(), Stop> {
    let f = uc.reg(R::FLAGS);
    uc.set_reg(R::FLAGS, if on { f | 0x40 } else { f & !0x40 })
        .map_err(host)
}

/// Console output the way DOS does it: to the program's output stream and,
/// in real mode, through the BIOS onto the text screen.
pub fn console_out(env: &mut Env, uc: &mut Uc<'_>, bytes: &[u8]) {
    env.write_console(bytes);
    if uc.mode() == crate::walk::CpuMode::Real {
        for &b in bytes {
            screen::teletype(uc, b);
        }
    }
}

/// A character read from standard input (AH=01h/07h/08h): at the end of
/// input, Ctrl-Z, as DOS returns for redirected input.
fn read_char(env: &mut Env, uc: &mut Uc<'_>, echo: bool) -> Result<(), Stop> {
    let c = env.dos.read_input().unwrap_or(0x1A);
    if echo && c != 0x1A {
        console_out(env, uc, &[c]);
    }
    set_al(uc, c)
}

/// AH=0Ah: buffered line input into DS:DX (max, count, characters, CR).
fn read_line(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    let max = uc
        .read_seg(ds, dx, &mut [0u8])
        .map(|_| ())
        .ok()
        .and_then(|_| {
            let mut b = [0u8];
            uc.read_seg(ds, dx, &mut b).ok().map(|_| b[0])
        });
    let Some(max) = max else { return Ok(()) };
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
        files::write_wrapping(uc, "DS", ds, dx.wrapping_add(1), &out)?;
    }
    Ok(())
}

/// INT 21h AH=29h: parse a file name at DS:SI into the FCB at ES:DI.
fn parse_fcb_name(uc: &mut Uc<'_>, al: u8) -> Result<(), Stop> {
    let (ds, mut si, es, di) = (uc.reg(R::DS), uc.reg(R::SI), uc.reg(R::ES), uc.reg(R::DI));
    let peek = |uc: &Uc<'_>, o: u16| -> u8 {
        let mut b = [0u8];
        uc.read_seg(ds, o, &mut b).map(|_| b[0]).unwrap_or(0)
    };
    if al & 1 != 0 {
        while matches!(
            peek(uc, si),
            b' ' | b'\t' | b':' | b';' | b',' | b'=' | b'+'
        ) {
            si = si.wrapping_add(1);
        }
    }
    let mut fcb = [0u8; 12];
    let mut result = 0u8;
    let c0 = peek(uc, si);
    if c0.is_ascii_alphabetic() && peek(uc, si.wrapping_add(1)) == b':' {
        let d = c0.to_ascii_uppercase() - b'A' + 1;
        if d > 5 {
            result = 0xFF;
        }
        fcb[0] = d;
        si = si.wrapping_add(2);
    } else if al & 2 != 0 {
        let mut b = [0u8];
        let _ = uc.read_seg(es, di, &mut b);
        fcb[0] = b[0];
    }
    let field = |uc: &Uc<'_>,
                 si: &mut u16,
                 start: usize,
                 len: usize,
                 keep: bool,
                 fcb: &mut [u8; 12],
                 result: &mut u8| {
        let mut n = 0;
        let terminator = |c: u8| c <= b' ' || b".\"/\\[]:|<>+=;,".contains(&c);
        while n < len {
            let c = peek(uc, *si);
            if terminator(c) {
                break;
            }
            if c == b'*' {
                while n < len {
                    fcb[start + n] = b'?';
                    n += 1;
                }
                *result = (*result).max(1);
                *si = si.wrapping_add(1);
                break;
            }
            if c == b'?' {
                *result = (*result).max(1);
            }
            fcb[start + n] = c.to_ascii_uppercase();
            n += 1;
            *si = si.wrapping_add(1);
        }
        if n == 0 && keep {
            return false;
        }
        while n < len {
            fcb[start + n] = b' ';
            n += 1;
        }
        // Skip what does not fit.
        while !terminator(peek(uc, *si)) && peek(uc, *si) != b'*' {
            *si = si.wrapping_add(1);
        }
        true
    };
    let had_name = field(uc, &mut si, 1, 8, al & 4 != 0, &mut fcb, &mut result);
    if !had_name {
        let mut b = [0u8; 8];
        let _ = uc.read_seg(es, di.wrapping_add(1), &mut b);
        fcb[1..9].copy_from_slice(&b);
    }
    if peek(uc, si) == b'.' {
        si = si.wrapping_add(1);
        field(uc, &mut si, 9, 3, false, &mut fcb, &mut result);
    } else if al & 8 != 0 {
        let mut b = [0u8; 3];
        let _ = uc.read_seg(es, di.wrapping_add(9), &mut b);
        fcb[9..12].copy_from_slice(&b);
    } else {
        fcb[9..12].copy_from_slice(b"   ");
    }
    files::write_wrapping(uc, "ES", es, di, &fcb)?;
    uc.set_reg(R::SI, si).map_err(host)?;
    set_al(uc, result)
}

/// INT 21h.
pub fn int21(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let ah = (ax >> 8) as u8;
    let al = ax as u8;
    env.dos.check_input_loop()?;
    if files::serves(ah) {
        return files::call(env, uc, ah, al);
    }
    if fcb::serves(ah) {
        return fcb::call(env, uc, ah);
    }
    match ah {
        0x01 => read_char(env, uc, true)?,
        0x02 => {
            let dl = uc.reg(R::DX) as u8;
            console_out(env, uc, &[dl]);
        }
        0x06 => {
            let dl = uc.reg(R::DX) as u8;
            if dl == 0xFF {
                match env.dos.read_input() {
                    Some(c) => {
                        set_al(uc, c)?;
                        set_zf(uc, false)?;
                    }
                    None => {
                        set_al(uc, 0)?;
                        set_zf(uc, true)?;
                    }
                }
            } else {
                console_out(env, uc, &[dl]);
            }
        }
        0x07 | 0x08 => read_char(env, uc, false)?,
        0x09 => {
            let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
            let s = read_until(uc, ds, dx, b'$', 0x10000);
            console_out(env, uc, &s);
            set_al(uc, b'$')?;
        }
        0x0A => read_line(env, uc)?,
        0x0B => {
            let r = if env.dos.input_ready() { 0xFF } else { 0 };
            set_al(uc, r)?;
        }
        0x0C => {
            // Flush the type-ahead buffer (nothing is buffered ahead here),
            // then run the input function in AL.
            if matches!(al, 0x01 | 0x06 | 0x07 | 0x08 | 0x0A) {
                uc.set_reg(R::AX, u16::from(al) << 8 | (uc.reg(R::DX) & 0xFF))
                    .map_err(host)?;
                if al == 0x06 {
                    uc.set_reg(R::DX, (uc.reg(R::DX) & 0xFF00) | 0xFF)
                        .map_err(host)?;
                }
                return int21(env, uc);
            }
            set_al(uc, 0)?;
        }
        0x0D => {}
        0x0E => set_al(uc, 5)?, // drives A: to E:; C: stays current
        0x19 => set_al(uc, 2)?,
        0x1A => env.dos.dta = (uc.reg(R::DS), uc.reg(R::DX)),
        0x2F => {
            let (seg, off) = env.dos.dta;
            uc.set_reg(R::ES, seg).map_err(host)?;
            uc.set_reg(R::BX, off).map_err(host)?;
        }
        0x1C | 0x1B => {
            // Allocation information: 4 sectors of 512 bytes a cluster, a
            // fixed-disk media byte in the DOS data area.
            let dl = uc.reg(R::DX) as u8;
            if ah == 0x1C && dl != 0 && dl != 3 {
                return set_al(uc, 0xFF);
            }
            let _ = uc.write_seg(0x0070, 0, &[0xF8]);
            uc.set_reg(R::AX, 0x0004).map_err(host)?;
            uc.set_reg(R::CX, 512).map_err(host)?;
            uc.set_reg(R::DX, 0xFFF0).map_err(host)?;
            uc.set_reg(R::DS, 0x0070).map_err(host)?;
            uc.set_reg(R::BX, 0).map_err(host)?;
        }
        0x25 => {
            let v = (uc.reg(R::DS), uc.reg(R::DX));
            if uc.mode() == crate::walk::CpuMode::Real {
                set_vector(uc, al, v)?;
            } else {
                env.dos.vectors.insert(al, v);
            }
        }
        0x26 => {
            // Create a new PSP at DX: a copy of the current one.
            let mut p = [0u8; 0x100];
            let cur = env.dos.psp;
            uc.read_seg(cur, 0, &mut p)
                .map_err(|e| Stop::Error(e.to_string()))?;
            uc.write_seg(uc.reg(R::DX), 0, &p)
                .map_err(|e| Stop::Error(e.to_string()))?;
        }
        0x29 => parse_fcb_name(uc, al)?,
        0x2A => {
            let t = env.dos.clock.now();
            uc.set_reg(R::CX, t.year).map_err(host)?;
            uc.set_reg(R::DX, u16::from(t.month) << 8 | u16::from(t.day))
                .map_err(host)?;
            set_al(uc, t.weekday)?;
        }
        0x2C => {
            let t = env.dos.clock.now();
            uc.set_reg(R::CX, u16::from(t.hour) << 8 | u16::from(t.minute))
                .map_err(host)?;
            uc.set_reg(R::DX, u16::from(t.second) << 8 | u16::from(t.hundredths))
                .map_err(host)?;
        }
        // Setting the date or time is accepted and ignored: the program
        // cannot change the host's clock.
        0x2B | 0x2D => set_al(uc, 0)?,
        // Set / get the verify flag: writes are never verified here.
        0x2E => {}
        0x54 => set_al(uc, 0)?,
        // The switch character: '/', and setting it is accepted.
        0x37 if al == 0 => {
            set_al(uc, 0)?;
            uc.set_reg(R::DX, (uc.reg(R::DX) & 0xFF00) | u16::from(b'/'))
                .map_err(host)?;
        }
        0x37 if al == 1 => set_al(uc, 0)?,
        0x30 => {
            // DOS 5.0, OEM 0 (what Windows 3.1 typically ran on).
            uc.set_reg(R::AX, 0x0005).map_err(host)?;
            uc.set_reg(R::BX, 0).map_err(host)?;
            uc.set_reg(R::CX, 0).map_err(host)?;
        }
        0x33 => match al {
            0x00 => uc
                .set_reg(
                    R::DX,
                    (uc.reg(R::DX) & 0xFF00) | u16::from(env.dos.break_flag),
                )
                .map_err(host)?,
            0x01 => env.dos.break_flag = uc.reg(R::DX) & 0xFF != 0,
            0x05 => uc
                .set_reg(R::DX, (uc.reg(R::DX) & 0xFF00) | 3)
                .map_err(host)?,
            0x06 => {
                uc.set_reg(R::BX, 0x0005).map_err(host)?;
                uc.set_reg(R::DX, 0).map_err(host)?;
            }
            _ => return Err(unimplemented(uc, format!("INT 21h AX={ax:04X}h"))),
        },
        0x34 => {
            // The InDOS flag: a byte in DOS's data area, always 0 when a
            // program can look.
            let _ = uc.write_seg(0x0070, 2, &[0]);
            uc.set_reg(R::ES, 0x0070).map_err(host)?;
            uc.set_reg(R::BX, 2).map_err(host)?;
        }
        0x35 => {
            let (seg, off) = if uc.mode() == crate::walk::CpuMode::Real {
                get_vector(uc, al)?
            } else {
                env.dos.vectors.get(&al).copied().unwrap_or((0, 0))
            };
            uc.set_reg(R::ES, seg).map_err(host)?;
            uc.set_reg(R::BX, off).map_err(host)?;
        }
        0x44 => return ioctl(env, uc, al),
        0x4C => return Err(Stop::Exited { code: al }),
        0x4D => {
            uc.set_reg(R::AX, env.dos.return_code).map_err(host)?;
        }
        0x48..=0x4A if env.dos.first_mcb != 0 => return memory_call(env, uc, ah),
        0x50 => env.dos.psp = uc.reg(R::BX),
        0x69 if al <= 1 && !matches!(uc.reg(R::BX) as u8, 0 | 3) => {
            // Only drive C: (BL=3, or 0 for the current drive) exists.
            uc.set_reg(R::AX, 0x0F).map_err(host)?;
            return set_carry(uc, true);
        }
        0x69 if al == 1 => {
            // Set the disk serial number: the dword at DS:DX+2.
            let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
            let mut b = [0u8; 4];
            files::read_wrapping(uc, "DS", ds, dx.wrapping_add(2), &mut b)?;
            env.dos.volume_serial = Some(u32::from_le_bytes(b));
            set_carry(uc, false)?;
        }
        0x69 if al == 0 => {
            // Get the disk serial number (DOS 4+): info level 0, the
            // serial, the volume label and the file system type.
            let mut b = [0u8; 0x19];
            let serial = env.dos.volume_serial.unwrap_or(DEFAULT_VOLUME_SERIAL);
            b[2..6].copy_from_slice(&serial.to_le_bytes());
            b[6..17].copy_from_slice(b"NO NAME    ");
            b[17..25].copy_from_slice(b"FAT16   ");
            let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
            files::write_wrapping(uc, "DS", ds, dx, &b)?;
            set_carry(uc, false)?;
        }
        0x52 if env.dos.first_mcb != 0 => {
            // The "list of lists" in DOS's data area; the word before it is
            // the first memory control block.
            let lol = 0x0100u16;
            uc.write_seg(LOL_SEG, lol - 2, &env.dos.first_mcb.to_le_bytes())
                .map_err(|e| Stop::Error(e.to_string()))?;
            uc.set_reg(R::ES, LOL_SEG).map_err(host)?;
            uc.set_reg(R::BX, lol).map_err(host)?;
        }
        0x51 | 0x62 => uc.set_reg(R::BX, env.dos.psp).map_err(host)?,
        _ => {
            return Err(unimplemented(
                uc,
                format!("INT 21h AH={ah:02X}h AL={al:02X}h"),
            ));
        }
    }
    Ok(())
}

/// INT 21h AH=44h, IOCTL, for the standard devices (handles 0-4).
fn ioctl(env: &mut Env, uc: &mut Uc<'_>, al: u8) -> Result<(), Stop> {
    let bx = uc.reg(R::BX);
    match (al, bx) {
        // Device information: CON is a character device (bit 7), stdin
        // (bit 0) / stdout (bit 1), special (bit 4), not at end of file
        // (bit 6); AUX and PRN are plain character devices.
        (0x00, _) if env.drive.is_some() && bx > 4 => {
            match env.drive.as_mut().map(|d| d.ioctl_info(bx)) {
                Some(Ok(info)) => uc.set_reg(R::DX, info).map_err(host)?,
                Some(Err(e)) => {
                    uc.set_reg(R::AX, e.0).map_err(host)?;
                    return set_carry(uc, true);
                }
                None => {}
            }
        }
        (0x00, 0..=2) => uc.set_reg(R::DX, 0x80D3).map_err(host)?,
        (0x00, 3) => uc.set_reg(R::DX, 0x80C0).map_err(host)?,
        (0x00, 4) => uc.set_reg(R::DX, 0xA8C0).map_err(host)?,
        (0x01, 0..=4) => {}
        // Logical drive map: one logical drive per physical drive.
        (0x0E | 0x0F, _) => set_al(uc, 0)?,
        (0x06, 0) => set_al(uc, if env.dos.input_ready() { 0xFF } else { 0 })?,
        (0x06 | 0x07, 1..=4) => set_al(uc, 0xFF)?,
        // Removable media (BL = drive): the fixed disk C: is not removable.
        (0x08, _) => uc.set_reg(R::AX, 1).map_err(host)?,
        // Remote drive: local.
        (0x09, _) => uc.set_reg(R::DX, 0).map_err(host)?,
        _ => {
            return Err(unimplemented(
                uc,
                format!("INT 21h AX=44{al:02X}h on handle {bx}"),
            ));
        }
    }
    set_carry(uc, false)
}

/// AH=48h allocate, 49h free, 4Ah resize, on the MCB chain.
fn memory_call(env: &mut Env, uc: &mut Uc<'_>, ah: u8) -> Result<(), Stop> {
    let first = env.dos.first_mcb;
    let bx = uc.reg(R::BX);
    let es = uc.reg(R::ES);
    let res = match ah {
        0x48 => memory::allocate(uc, first, env.dos.psp, bx).map(Some),
        0x49 => memory::free(uc, first, es)
            .map(|_| None)
            .map_err(|e| (e, 0)),
        _ => memory::resize(uc, first, es, bx).map(|_| None),
    };
    match res {
        Ok(seg) => {
            if let Some(seg) = seg {
                uc.set_reg(R::AX, seg).map_err(host)?;
            }
            set_carry(uc, false)
        }
        Err((code, largest)) => {
            uc.set_reg(R::AX, code).map_err(host)?;
            if ah != 0x49 {
                uc.set_reg(R::BX, largest).map_err(host)?;
            }
            set_carry(uc, true)
        }
    }
}

/// BIOS services.
pub fn bios(env: &mut Env, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let ah = (ax >> 8) as u8;
    let al = ax as u8;
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    match (intno, ah) {
        (0x10, 0x00) => {
            let _ = uc.write_seg(0x40, 0x49, &[al & 0x7F]);
            screen::clear(uc);
        }
        (0x10, 0x01) => {}
        (0x10, 0x02) => screen::set_cursor(uc, dx & 0xFF, dx >> 8),
        (0x10, 0x03) => {
            let (c, r) = screen::cursor(uc);
            uc.set_reg(R::DX, r << 8 | c).map_err(host)?;
            uc.set_reg(R::CX, 0x0607).map_err(host)?;
        }
        (0x10, 0x05) => {}
        (0x10, 0x06) | (0x10, 0x07) => {
            let (top, left, bottom, right) = (cx >> 8, cx & 0xFF, dx >> 8, dx & 0xFF);
            if ah == 0x06 || al == 0 {
                screen::scroll_up(uc, u16::from(al), (bx >> 8) as u8, top, left, bottom, right);
            } else {
                return Err(unimplemented(uc, "INT 10h AH=07h (scroll down)".into()));
            }
        }
        (0x10, 0x08) => {
            let (c, r) = screen::cursor(uc);
            let mut b = [0u8; 2];
            let _ = uc.mem_read(0xB8000 + (u64::from(r) * 80 + u64::from(c)) * 2, &mut b);
            uc.set_reg(R::AX, u16::from(b[1]) << 8 | u16::from(b[0]))
                .map_err(host)?;
        }
        (0x10, 0x09) | (0x10, 0x0A) => {
            let (c, r) = screen::cursor(uc);
            for k in 0..cx.min(2000) {
                let pos = c + k;
                let attr = if ah == 0x09 {
                    bx as u8
                } else {
                    let mut b = [0x07u8];
                    let _ = uc.mem_read(
                        0xB8000 + (u64::from(r + pos / 80) * 80 + u64::from(pos % 80)) * 2 + 1,
                        &mut b,
                    );
                    b[0]
                };
                screen::put(uc, pos % 80, r + pos / 80, al, attr);
            }
        }
        (0x10, 0x0E) => {
            env.write_console(&[al]);
            screen::teletype(uc, al);
        }
        (0x10, 0x0F) => {
            let mut mode = [3u8];
            let _ = uc.read_seg(0x40, 0x49, &mut mode);
            uc.set_reg(R::AX, 0x5000 | u16::from(mode[0]))
                .map_err(host)?;
            uc.set_reg(R::BX, bx & 0x00FF).map_err(host)?;
        }
        // EGA/VGA information: a colour adapter with 256 KiB.
        // VESA BIOS extensions: none (AL != 4Fh means "not supported").
        (0x10, 0x4F) => uc.set_reg(R::AX, 0x0100).map_err(host)?,
        // Palette, font and display-combination set-up change nothing
        // this text screen shows.
        (0x10, 0x10) | (0x10, 0x11) | (0x10, 0x0B) => {}
        (0x10, 0x12) if bx & 0xFF == 0x10 => uc.set_reg(R::BX, 0x0003).map_err(host)?,
        (0x10, 0x12) => {}
        (0x10, 0x1A) => {
            set_al(uc, 0x1A)?;
            uc.set_reg(R::BX, 0x0008).map_err(host)?;
        }
        (0x11, _) => uc.set_reg(R::AX, 0x0021).map_err(host)?,
        // Windows enhanced mode's "get the API entry point of VxD BX": no
        // such VxD, ES:DI = 0:0.
        (0x2F, _) if ax == 0x1684 => {
            uc.set_reg(R::ES, 0).map_err(host)?;
            uc.set_reg(R::DI, 0).map_err(host)?;
        }
        // The multiplex interrupt: nothing is installed (AL = 0 for every
        // installation check).
        (0x2F, _) => set_al(uc, 0)?,
        // The mouse driver: none (reset answers AX = 0, not installed).
        (0x33, _) => {
            if ax == 0 {
                uc.set_reg(R::AX, 0).map_err(host)?;
                uc.set_reg(R::BX, 0).map_err(host)?;
            }
        }
        (0x12, _) => uc.set_reg(R::AX, 640).map_err(host)?,
        (0x13, _) => {
            uc.set_reg(R::AX, 0x8000 | u16::from(al)).map_err(host)?; // timeout: no drive
            set_carry(uc, true)?;
        }
        (0x16, 0x00) | (0x16, 0x10) => match hardware::pop(uc).or_else(|| env.dos.keys.pop_front())
        {
            Some((scan, ascii)) => uc
                .set_reg(R::AX, u16::from(scan) << 8 | u16::from(ascii))
                .map_err(host)?,
            None => {
                return Err(Stop::NoInput {
                    what: "INT 16h waits for a key and the --keys script is used up".into(),
                });
            }
        },
        (0x16, 0x01) | (0x16, 0x11) => match hardware::peek(uc) {
            Some((scan, ascii)) => {
                uc.set_reg(R::AX, u16::from(scan) << 8 | u16::from(ascii))
                    .map_err(host)?;
                set_zf(uc, false)?;
            }
            None => {
                if env.dos.keys.is_empty() {
                    env.dos.keyboard.empty_polls += 1;
                }
                set_zf(uc, true)?
            }
        },
        (0x16, 0x02) | (0x16, 0x12) => set_al(uc, 0)?,
        (0x16, 0x03) => {}
        (0x16, 0x05) => {
            let stored = hardware::push(uc, ((cx >> 8) as u8, cx as u8));
            set_al(uc, u8::from(!stored))?;
        }
        (0x1A, 0x00) => {
            let t = match env.dos.clock {
                clock::Clock::Fixed(_) => {
                    env.dos.ticks = env.dos.ticks.wrapping_add(1);
                    env.dos.clock.ticks().wrapping_add(env.dos.ticks)
                }
                clock::Clock::Host => env.dos.clock.ticks(),
            };
            uc.set_reg(R::CX, (t >> 16) as u16).map_err(host)?;
            uc.set_reg(R::DX, t as u16).map_err(host)?;
            uc.set_reg(R::AX, 0).map_err(host)?;
        }
        (0x1A, 0x02) | (0x1A, 0x04) => {
            let t = env.dos.clock.now();
            let bcd = |v: u16| (((v / 10) << 4) | (v % 10)) & 0xFF;
            if ah == 0x02 {
                uc.set_reg(R::CX, bcd(t.hour.into()) << 8 | bcd(t.minute.into()))
                    .map_err(host)?;
                uc.set_reg(R::DX, bcd(t.second.into()) << 8).map_err(host)?;
            } else {
                uc.set_reg(R::CX, bcd(t.year / 100) << 8 | bcd(t.year % 100))
                    .map_err(host)?;
                uc.set_reg(R::DX, bcd(t.month.into()) << 8 | bcd(t.day.into()))
                    .map_err(host)?;
            }
            set_carry(uc, false)?;
        }
        _ => return Err(unimplemented(uc, format!("INT {intno:02X}h AH={ah:02X}h"))),
    }
    Ok(())
}

/// Segment of the PSP of the first DOS program (its memory control block is
/// the paragraph before). Fixed so that addresses are reproducible.
pub const FIRST_PSP: u16 = 0x0800;
/// First paragraph past conventional memory.
pub const TOP_OF_MEMORY: u16 = memory::TOP;
/// DOS's own data segment (the list of lists, the InDOS flag).
pub const LOL_SEG: u16 = 0x0070;
/// Where the ROM stubs that the interrupt vectors point at live.
pub const ROM_SEG: u16 = 0xF000;
/// Offset of the stub for vector 0; vector n's is at `ROM_STUBS + 8 * n`.
pub const ROM_STUBS: u16 = 0xE000;
/// The private interrupt a ROM stub uses: `int F1h; db n; retf 2`.
pub const ROM_INT: u8 = 0xF1;

/// Build a DOS program segment prefix (DOS 3.3+ layout) for a program
/// owning memory up to `end_seg`, with `tail` as its command tail and its
/// environment at `env_seg`.
pub fn make_psp(end_seg: u16, tail: &str) -> [u8; 0x100] {
    make_psp_full(end_seg, tail, 0, 0)
}

fn make_psp_full(end_seg: u16, tail: &str, env_seg: u16, psp: u16) -> [u8; 0x100] {
    let mut p = [0u8; 0x100];
    p[0] = 0xCD; // INT 20h
    p[1] = 0x20;
    p[2..4].copy_from_slice(&end_seg.to_le_bytes());
    // 05: far call to the DOS dispatcher (CP/M entry), kept as a RETF-less
    // marker; 16: parent PSP (itself: the first program); 18: the job file
    // table, handles 0-4 open on the console, the rest unused.
    p[0x16..0x18].copy_from_slice(&psp.to_le_bytes());
    p[0x18..0x2C].fill(0xFF);
    p[0x18..0x1D].copy_from_slice(&[1, 1, 1, 0, 2]);
    p[0x2C..0x2E].copy_from_slice(&env_seg.to_le_bytes());
    p[0x32..0x34].copy_from_slice(&20u16.to_le_bytes());
    p[0x34..0x36].copy_from_slice(&0x18u16.to_le_bytes());
    p[0x36..0x38].copy_from_slice(&psp.to_le_bytes());
    p[0x50] = 0xCD; // INT 21h; RETF: the DOS function dispatcher
    p[0x51] = 0x21;
    p[0x52] = 0xCB;
    // DOS parses the first two arguments into the FCBs at 5C and 6C.
    let mut args = tail.split_whitespace().filter(|a| !a.starts_with('/'));
    p[0x5C..0x68].copy_from_slice(&fcb::fcb_from_arg(args.next().unwrap_or("")));
    p[0x6C..0x78].copy_from_slice(&fcb::fcb_from_arg(args.next().unwrap_or("")));
    let t = tail.as_bytes();
    let n = t.len().min(126);
    p[0x80] = n as u8;
    p[0x81..0x81 + n].copy_from_slice(&t[..n]);
    p[0x81 + n] = 0x0D;
    p
}

/// The environment block (DOS 3.3+): `NAME=VALUE` strings, an empty string,
/// the word 1, then the program's full path.
pub fn environment_block(vars: &[(String, String)], program: &str) -> Vec<u8> {
    let mut b = Vec::new();
    for (k, v) in vars {
        b.extend_from_slice(k.as_bytes());
        b.push(b'=');
        b.extend_from_slice(v.as_bytes());
        b.push(0);
    }
    if vars.is_empty() {
        b.push(0);
    }
    b.push(0);
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(program.as_bytes());
    b.push(0);
    b
}

/// The default environment: a COMSPEC and a PATH, as a DOS prompt has them.
pub fn default_environment() -> Vec<(String, String)> {
    vec![
        ("COMSPEC".into(), "C:\\COMMAND.COM".into()),
        ("PATH".into(), "C:\\".into()),
        ("PROMPT".into(), "$P$G".into()),
    ]
}

/// How a DOS program is started.
#[derive(Debug, Clone, Default)]
pub struct DosStart {
    /// Command tail, with its leading space.
    pub tail: String,
    /// Environment variables.
    pub env: Vec<(String, String)>,
    /// The program's DOS path, e.g. `C:\\HELLO.COM`.
    pub program: String,
}

/// Where a real-mode program was put.
#[derive(Debug, Clone, Copy)]
pub struct RealLoad {
    /// PSP segment (0 for raw images).
    pub psp: u16,
    /// Load segment of the image (PSP + 0x10 for MZ, PSP for COM).
    pub load_seg: u16,
    /// First memory control block.
    pub first_mcb: u16,
}

fn wl(m: &mut Machine, seg: u16, off: u16, data: &[u8]) -> Result<(), MachineError> {
    m.write_linear(u32::from(seg) * 16 + u32::from(off), data)
}

/// Point every interrupt vector at its ROM stub and fill the BIOS data area
/// a program may read (equipment, memory size, video mode, screen size).
pub fn init_real_mode_tables(m: &mut Machine) -> Result<(), MachineError> {
    let mut ivt = Vec::with_capacity(0x400);
    let mut rom = Vec::with_capacity(0x800);
    for n in 0..=255u16 {
        ivt.extend_from_slice(&(ROM_STUBS + n * 8).to_le_bytes());
        ivt.extend_from_slice(&ROM_SEG.to_le_bytes());
        // Hardware interrupts return with IRET, restoring IF; software
        // services with RETF 2, keeping the flags they return.
        let ret: &[u8] = if is_hardware_vector(n as u8) {
            &[0xCF, 0x90, 0x90]
        } else {
            &[0xCA, 0x02, 0x00]
        };
        rom.extend_from_slice(&[0xCD, ROM_INT, n as u8]);
        rom.extend_from_slice(ret);
        rom.extend_from_slice(&[0x90, 0x90]);
    }
    m.write_linear(0, &ivt)?;
    // The rest of the system ROM is HLT, so a program that jumps into BIOS
    // code that is not emulated (ROM BASIC, the reset entry) stops there
    // and [`rom_entry`] names it.
    m.write_linear(ROM_LINEAR, &vec![0xF4; 0x10000])?;
    wl(m, ROM_SEG, ROM_STUBS, &rom)?;
    // BIOS data area.
    wl(m, 0x40, 0x10, &0x0021u16.to_le_bytes())?; // equipment: 80x25 colour, FPU-less, 1 floppy bit off
    wl(m, 0x40, 0x13, &640u16.to_le_bytes())?; // KiB of conventional memory
    wl(m, 0x40, 0x49, &[3])?; // video mode 3
    wl(m, 0x40, 0x4A, &80u16.to_le_bytes())?; // columns
    wl(m, 0x40, 0x84, &[24])?; // rows - 1
    hardware::init(m).map_err(|e| MachineError(format!("the BIOS data area: {}", e.kind())))
}

/// Linear address of the system ROM (F000:0000).
const ROM_LINEAR: u32 = 0xF0000;

/// A stop on the HLT filling the system ROM, as the jump into the ROM that
/// caused it: the reset entry, ROM BASIC, or other BIOS code that is not
/// emulated. None when CS:IP is not in the ROM.
pub fn rom_entry(cs: u16, ip: u16, bp: u16) -> Option<Stop> {
    let linear = (u32::from(cs) << 4) + u32::from(ip);
    if !(ROM_LINEAR..ROM_LINEAR + 0x10000).contains(&linear) {
        return None;
    }
    let what = match linear {
        0xFFFF0 => "the BIOS reset entry FFFF:0000 (a machine restart)".to_string(),
        0xF6000..0xFE000 => {
            format!("IBM ROM BASIC at {cs:04X}:{ip:04X} (system ROM code is not emulated)")
        }
        _ => format!("BIOS code at {cs:04X}:{ip:04X} (system ROM code is not emulated)"),
    };
    Some(Stop::Unimplemented {
        what,
        caller: (cs, ip, bp),
    })
}

/// Drive C:'s volume serial number until a program sets another.
pub const DEFAULT_VOLUME_SERIAL: u32 = 0x1992_0406;

/// FLAGS at a program's first instruction: interrupts enabled, as DOS and
/// the BIOS bootstrap leave them.
pub const START_FLAGS: u16 = 0x0202;

/// Vectors the 8259s raise (IRQ 0-7 at 08h-0Fh, IRQ 8-15 at 70h-77h) and
/// the timer's user hook 1Ch, whose BIOS stubs end in IRET.
pub fn is_hardware_vector(n: u8) -> bool {
    matches!(n, 0x08..=0x0F | 0x1C | 0x70..=0x77)
}

/// Lay out the environment block and the program's block in memory:
/// `[env MCB][env][program MCB][PSP...]`, returning (first MCB, env segment).
fn lay_out(
    m: &mut Machine,
    psp: u16,
    prog_paras: u16,
    start: &DosStart,
) -> Result<(u16, u16), MachineError> {
    let env = environment_block(&start.env, &start.program);
    let env_paras = (env.len() as u32).div_ceil(16).max(1);
    if env_paras > 0x400 {
        return Err(MachineError(format!(
            "the environment is too large ({} bytes)",
            env.len()
        )));
    }
    let env_paras = env_paras as u16;
    let env_mcb = psp - 2 - env_paras;
    let env_seg = env_mcb + 1;
    let owner_name = start
        .program
        .rsplit(['\\', '/'])
        .next()
        .unwrap_or("")
        .split('.')
        .next()
        .unwrap_or("")
        .to_string();
    {
        let uc: &mut crate::machine::Uc<'static> = m;
        memory::write(
            uc,
            &memory::Mcb {
                seg: env_mcb,
                last: false,
                owner: psp,
                size: env_paras,
            },
            Some(""),
        );
    }
    wl(m, env_seg, 0, &env)?;
    let avail = TOP_OF_MEMORY - psp;
    let size = prog_paras.min(avail);
    let last = size == avail;
    {
        let uc: &mut crate::machine::Uc<'static> = m;
        memory::write(
            uc,
            &memory::Mcb {
                seg: psp - 1,
                last,
                owner: psp,
                size,
            },
            Some(&owner_name),
        );
        if !last {
            memory::write(
                uc,
                &memory::Mcb {
                    seg: psp + size,
                    last: true,
                    owner: 0,
                    size: avail - size - 1,
                },
                Some(""),
            );
        }
    }
    Ok((env_mcb, env_seg))
}

/// Load a `.COM` program (win16.md, DOS): PSP at [`FIRST_PSP`], code at
/// PSP:0100, CS = DS = ES = SS = PSP, SP = FFFE with a zero word pushed (a RET
/// reaches INT 20h at PSP:0000), BP = 0. A COM owns all free memory.
pub fn load_com(m: &mut Machine, code: &[u8], start: &DosStart) -> Result<RealLoad, MachineError> {
    let psp = FIRST_PSP;
    init_real_mode_tables(m)?;
    let (first_mcb, env_seg) = lay_out(m, psp, TOP_OF_MEMORY - psp, start)?;
    wl(
        m,
        psp,
        0,
        &make_psp_full(TOP_OF_MEMORY, &start.tail, env_seg, psp),
    )?;
    wl(m, psp, 0x100, code)?;
    for r in [R::DS, R::ES, R::SS] {
        m.set_reg(r, psp)?;
    }
    m.set_reg(R::SP, 0xFFFE)?;
    m.set_reg(R::FLAGS, START_FLAGS)?;
    wl(m, psp, 0xFFFE, &[0, 0])?;
    start_regs(m, psp)?;
    m.set_csip(psp, 0x100)?;
    Ok(RealLoad {
        psp,
        load_seg: psp,
        first_mcb,
    })
}

fn start_regs(m: &mut Machine, psp: u16) -> Result<(), MachineError> {
    for r in [R::AX, R::BX, R::BP, R::SI, R::DI] {
        m.set_reg(r, 0)?;
    }
    m.set_reg(R::CX, 0x00FF)?;
    m.set_reg(R::DX, psp)
}

/// Load an MZ executable: PSP at [`FIRST_PSP`], load module at PSP+10h,
/// segment relocations applied, CS:IP and SS:SP from the header, DS = ES =
/// PSP. The program's block is the PSP, the load module and e_maxalloc
/// paragraphs (at least e_minalloc; all free memory when e_maxalloc asks
/// for more), as DOS allocates it.
pub fn load_mz(
    m: &mut Machine,
    mz: &crate::loader::mz::MzImage,
    start: &DosStart,
) -> Result<RealLoad, MachineError> {
    let psp = FIRST_PSP;
    let load = psp + 0x10;
    let paras = (mz.image.len() as u32).div_ceil(16);
    let avail = u32::from(TOP_OF_MEMORY - psp);
    let need = 0x10 + paras + u32::from(mz.header.e_minalloc);
    if need > avail {
        return Err(MachineError(format!(
            "MZ header field e_minalloc (offset 0Ah): the program needs {need:#x} paragraphs (load module and e_minalloc) and only {avail:#x} are free"
        )));
    }
    let want = (0x10 + paras + u32::from(mz.header.e_maxalloc))
        .min(avail)
        .max(need);
    init_real_mode_tables(m)?;
    let (first_mcb, env_seg) = lay_out(m, psp, want as u16, start)?;
    wl(
        m,
        psp,
        0,
        &make_psp_full(psp + want as u16, &start.tail, env_seg, psp),
    )?;
    let mut image = mz.image.clone();
    for &(off, seg) in &mz.relocs {
        let at = (u32::from(seg) * 16 + u32::from(off)) as usize;
        if at + 2 <= image.len() {
            let v = u16::from_le_bytes([image[at], image[at + 1]]).wrapping_add(load);
            image[at..at + 2].copy_from_slice(&v.to_le_bytes());
        } else {
            // A relocation past the load module patches memory beyond it,
            // as DOS does: at segment load + seg, added in 16 bits as DOS
            // adds it, so the word lies below FFFF:FFFF (the machine has
            // memory up to the end of the HMA).
            let lin = u32::from(load.wrapping_add(seg)) * 16 + u32::from(off);
            let mut b = [0u8; 2];
            m.mem_read(u64::from(lin), &mut b).map_err(|_| {
                MachineError(format!(
                    "relocation {seg:04X}:{off:04X}: no memory at linear {lin:06X}"
                ))
            })?;
            let v = u16::from_le_bytes(b).wrapping_add(load);
            m.write_linear(lin, &v.to_le_bytes())?;
        }
    }
    wl(m, load, 0, &image)?;
    let h = &mz.header;
    m.set_reg(R::DS, psp)?;
    m.set_reg(R::ES, psp)?;
    m.set_reg(R::SS, h.e_ss.wrapping_add(load))?;
    m.set_reg(R::SP, h.e_sp)?;
    m.set_reg(R::FLAGS, START_FLAGS)?;
    start_regs(m, psp)?;
    m.set_csip(h.e_cs.wrapping_add(load), h.e_ip)?;
    Ok(RealLoad {
        psp,
        load_seg: load,
        first_mcb,
    })
}

/// Load a raw image or boot sector at its load address; SS:SP = 0000:7C00
/// (where a BIOS leaves it for a boot sector), DL = 80h (the boot drive).
pub fn load_raw(
    m: &mut Machine,
    raw: &crate::loader::raw::RawImage,
) -> Result<RealLoad, MachineError> {
    let lin = u32::from(raw.load.0) * 16 + u32::from(raw.load.1);
    if u64::from(lin) + raw.bytes.len() as u64 > 0x10_FFF0 {
        return Err(MachineError(format!(
            "the image ({} bytes) does not fit at {:04X}:{:04X}",
            raw.bytes.len(),
            raw.load.0,
            raw.load.1
        )));
    }
    init_real_mode_tables(m)?;
    m.write_linear(lin, &raw.bytes)?;
    for r in [
        R::DS,
        R::ES,
        R::SS,
        R::AX,
        R::BX,
        R::CX,
        R::BP,
        R::SI,
        R::DI,
    ] {
        m.set_reg(r, 0)?;
    }
    m.set_reg(R::SP, 0x7C00)?;
    m.set_reg(R::FLAGS, START_FLAGS)?;
    m.set_reg(R::DX, 0x0080)?;
    m.set_csip(raw.entry.0, raw.entry.1)?;
    Ok(RealLoad {
        psp: 0,
        load_seg: raw.load.0,
        first_mcb: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_codes_follow_the_us_layout() {
        assert_eq!(scan_code(b'q'), 0x10);
        assert_eq!(scan_code(b'Q'), 0x10);
        assert_eq!(scan_code(b'1'), 0x02);
        assert_eq!(scan_code(b'!'), 0x02);
        assert_eq!(scan_code(b'='), 0x0D);
        assert_eq!(scan_code(b'a'), 0x1E);
        assert_eq!(scan_code(b'`'), 0x29);
        assert_eq!(scan_code(b'z'), 0x2C);
        assert_eq!(scan_code(b'?'), 0x35);
        assert_eq!(scan_code(b' '), 0x39);
        assert_eq!(scan_code(b'\r'), 0x1C);
        assert_eq!(scan_code(3), 0x2E); // Ctrl-C is the C key
        assert_eq!(scan_code(0x7F), 0);
    }

    #[test]
    fn keys_parse_with_scan_codes() {
        assert_eq!(
            parse_keys("a{enter}{f1}").unwrap(),
            vec![(0x1E, b'a'), (0x1C, 0x0D), (0x3B, 0)]
        );
        assert!(parse_keys("{nope}").is_err());
    }
}
