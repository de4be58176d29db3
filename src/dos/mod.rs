//! DOS and BIOS services, and the real-mode program loaders (COM, MZ, raw
//! images and boot sectors).
//!
//! INT 21h is [`int21`]: one dispatch table over rooms by concept (console,
//! files, FCBs, directories, disks, IOCTL, memory, processes, country,
//! time, system), each function citing the DOS rule it follows. DOS's own
//! memory, the PSP and loading programs are [`process`] and [`psp`]; DOS's
//! tables in segment 0070h are [`data`]; the MCB chain is [`memory`]; the
//! sandboxed drive C: is [`fs`]. BIOS services (INT 10h, 11h, 12h, 13h "no
//! drive", 15h, 16h over the BIOS keyboard buffer, 1Ah) are in [`bios`],
//! the graphics side of INT 10h in [`video`] (the adapter itself is
//! `machine::vga`), the ROM fonts in [`font`] and the screen's pictures
//! in [`picture`]; the timer and keyboard interrupts in [`hardware`]; the
//! mouse driver (INT 33h, `--mouse`) in [`mouse`].

pub mod bios;
pub mod clock;
pub mod data;
pub mod font;
pub use crate::dosfs as fs;
pub mod hardware;
pub mod int21;
pub mod log;
pub mod memory;
pub mod mouse;
pub mod picture;
pub mod process;
pub mod psp;
pub mod screen;
pub mod vgatables;
pub mod video;

pub use bios::bios;
pub use int21::fcb;
pub use int21::int21;
pub use psp::environment_block;

/// The environment as DOS's functions see it: the shared state
/// (`env::Env`), DOS's own, and of the layer that runs on DOS (Win16) only
/// the interface [`Upper`].
pub type Env = crate::env::Env<Dos, dyn Upper>;

/// What DOS needs of the layer that runs on it (Win16): the one thing it
/// shares with DOS's screen, the run's series of screenshots
/// (`--screenshots DIR`, held by GDI), which a DOS program's screen is
/// written to as well (picture.rs).
pub trait Upper {
    /// The next file of the series (counted as written), or None when no
    /// series is asked for or it has all its files.
    fn next_shot_file(&self) -> Option<std::path::PathBuf>;
    /// A file of the series could not be written (the first error is
    /// kept for the report).
    fn shot_failed(&self, error: String);
}

impl<W: ?Sized> crate::env::Env<Dos, W> {
    /// Write program output to the console: kept for the report (at most
    /// [`crate::env::MAX_CONSOLE`] bytes, the rest counted) and echoed to
    /// the host's stdout when asked.
    pub fn write_console(&mut self, bytes: &[u8]) {
        use std::io::Write as _;
        let room = crate::env::MAX_CONSOLE.saturating_sub(self.console.len());
        let kept = bytes.len().min(room);
        self.console.extend_from_slice(&bytes[..kept]);
        self.console_dropped += (bytes.len() - kept) as u64;
        if self.echo {
            let mut out = std::io::stdout().lock();
            if self.echo_terminal {
                let _ = out.write_all(screen::terminal_text(bytes).as_bytes());
            } else {
                let _ = out.write_all(bytes);
            }
            let _ = out.flush();
        }
    }
}
use std::io::Read as _;

use crate::machine::{Cpu, Machine, MachineError, R, Stop, Uc};

/// DOS's own state.
#[derive(Debug, Clone, Default)]
pub struct Dos {
    /// Segment of the current PSP (INT 21h AH=51h/62h).
    pub psp: u16,
    /// The first program's PSP: its end is the end of the run.
    pub root_psp: u16,
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
    /// Log each DOS and BIOS service call (log.rs) and each Win16 API
    /// call (the relay log, win16/mod.rs) as an event (`--events`).
    pub log_calls: bool,
    /// Standard input is the console's keyboard (`--keys` without
    /// `--stdin`): DOS's console reads take the keys (int21/console.rs).
    pub console_keyboard: bool,
    /// The scan code of an extended key whose 00h a console read returned:
    /// the next read returns it.
    pub console_scan: Option<u8>,
    /// What is left of a line a handle read took from the keyboard (CON
    /// in cooked mode reads a whole line).
    pub console_line: std::collections::VecDeque<u8>,
    /// The keyboard controller: port 60h and keys in flight.
    pub keyboard: hardware::Keyboard,
    /// The clock.
    pub clock: clock::Clock,
    /// Ctrl-Break checking flag (AH=33h).
    pub break_flag: bool,
    /// The verify flag (AH=2Eh/54h).
    pub verify: bool,
    /// The switch character (AH=37h).
    pub switch_char: u8,
    /// The last child's return code and how it ended (AH=4Dh).
    pub return_code: u16,
    /// Reads of standard input made after its end.
    pub reads_at_eof: u32,
    /// The search of FCB find first/next (AH=11h/12h).
    pub fcb_find: Option<fs::FindState>,
    /// AH of the INT 21h call being served (for its error codes).
    pub call_ah: u8,
    /// The extended error of the last failing call (AH=59h).
    pub ext_error: int21::error::ExtError,
    /// The memory allocation strategy (AH=58h).
    pub strategy: memory::Strategy,
    /// Parents waiting in AX=4B00h for a child, innermost last.
    pub waiting: Vec<process::Waiting>,
    /// System file table entries opened "not inherited" (open mode bit 7).
    pub no_inherit: std::collections::HashSet<u8>,
    /// The mouse driver and its script (`--mouse`); None: no driver.
    pub mouse: Option<mouse::Mouse>,
    /// The screen's pictures (picture.rs).
    pub shots: picture::Shots,
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

/// Parse a `--keys` script: characters stand for themselves; a newline,
/// `\r`, `\n` or `{enter}` is Enter, `\t` Tab, `\e` Esc, `\\` a backslash, `{esc}`, `{tab}`, `{bs}`, `{up}`, `{down}`, `{left}`,
/// `{right}`, `{f1}`..`{f10}` name keys, and `{ctrl-a}`..`{ctrl-z}` (or
/// `{ctrl+z}`) type a letter with Ctrl held (ASCII 01h-1Ah).
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
                c if (c.starts_with("ctrl-") || c.starts_with("ctrl+"))
                    && c.len() == 6
                    && c.as_bytes()[5].is_ascii_lowercase() =>
                {
                    let l = c.as_bytes()[5];
                    (scan_code(l), l - b'a' + 1)
                }
                f if f.starts_with('f')
                    && f[1..].parse::<u8>().is_ok_and(|n| (1..=10).contains(&n)) =>
                {
                    (0x3A + f[1..].parse::<u8>().unwrap_or(1), 0)
                }
                other => return Err(format!("--keys: unknown key {{{other}}}")),
            };
            out.push(k);
        } else if c == '\\' {
            // Escapes as a shell string would write them: \r and \n are
            // Enter, \t Tab, \e Esc, \\ a backslash.
            let k = match chars.next() {
                Some('r' | 'n') => (0x1C, 0x0D),
                Some('t') => (0x0F, 0x09),
                Some('e') => (0x01, 0x1B),
                Some('\\') | None => (scan_code(b'\\'), b'\\'),
                Some(o) => return Err(format!("--keys: unknown escape \\{o}")),
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

pub(crate) fn set_zf(uc: &mut Uc<'_>, on: bool) -> Result<(), Stop> {
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
            if b == b'\t' {
                // DOS's console output expands a tab to spaces up to the
                // next column that is a multiple of 8 (the BIOS teletype
                // would show it as the glyph 09h).
                loop {
                    screen::teletype(uc, b' ');
                    if screen::cursor(uc).0 % 8 == 0 {
                        break;
                    }
                }
            } else if video::graphics(uc) {
                // DOS's console in a graphics mode: the BIOS teletype in
                // colour 7.
                video::teletype(uc, b, 7);
            } else {
                screen::teletype(uc, b);
            }
        }
    }
}

/// First paragraph past conventional memory.
pub const TOP_OF_MEMORY: u16 = memory::TOP;
/// DOS's own data segment (the list of lists, the InDOS flag).
pub const LOL_SEG: u16 = data::SEG;
/// Where the ROM stubs that the interrupt vectors point at live.
pub const ROM_SEG: u16 = 0xF000;
/// Offset of the stub for vector 0; vector n's is at `ROM_STUBS + 8 * n`.
pub const ROM_STUBS: u16 = 0xE000;
/// The private interrupt a ROM stub uses: `int F1h; db n; retf 2`.
pub const ROM_INT: u8 = 0xF1;
/// The pseudo-vector of DOS's CP/M-style entry (PSP:05's far call lands on
/// its stub through the jump at 0000:00C0).
pub const CPM_VECTOR: u8 = 0x30;

/// Build a DOS program segment prefix for a Win16 task owning memory up to
/// `end_seg`, with `tail` as its command tail (see [`psp`] for the layout).
pub fn make_psp(end_seg: u16, tail: &str) -> [u8; 0x100] {
    let jft = [
        1, 1, 1, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF,
    ];
    let mut p = psp::build(0, end_seg, 0, 0, [(0, 0); 3], &jft);
    let (f1, f2) = fcbs_of(tail);
    p[psp::FCB1..psp::FCB1 + 12].copy_from_slice(&f1);
    p[psp::FCB2..psp::FCB2 + 12].copy_from_slice(&f2);
    p[psp::TAIL..].copy_from_slice(&psp::tail_bytes(tail.as_bytes()));
    p
}

/// The two FCBs DOS parses from a command tail (the first two arguments
/// that are not switches).
fn fcbs_of(tail: &str) -> ([u8; 12], [u8; 12]) {
    let mut args = tail.split_whitespace().filter(|a| !a.starts_with('/'));
    (
        fcb::fcb_from_arg(args.next().unwrap_or("")),
        fcb::fcb_from_arg(args.next().unwrap_or("")),
    )
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
        if n == 0x33 {
            // No mouse driver: INT 33h's vector points at an IRET
            // (mouse::install puts the driver's entry there).
            rom.extend_from_slice(&[0xCF; 8]);
            continue;
        }
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
    bios::init_rom(m)?;
    font::init_rom(m)?;
    vgatables::init(m)?;
    // BIOS data area.
    wl(m, 0x40, 0x10, &0x0021u16.to_le_bytes())?; // equipment: 80x25 colour, FPU-less, 1 floppy bit off
    wl(m, 0x40, 0x13, &640u16.to_le_bytes())?; // KiB of conventional memory
    wl(m, 0x40, 0x49, &[3])?; // video mode 3
    wl(m, 0x40, 0x4A, &80u16.to_le_bytes())?; // columns
    wl(m, 0x40, 0x4C, &0x1000u16.to_le_bytes())?; // page size
    wl(m, 0x40, 0x63, &0x03D4u16.to_le_bytes())?; // CRT controller port
    wl(m, 0x40, 0x60, &[0x07, 0x06])?; // cursor shape: lines 6-7
    wl(m, 0x40, 0x84, &[24])?; // rows - 1
    wl(m, 0x40, 0x85, &16u16.to_le_bytes())?; // character height
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

/// DOS as it is when COMMAND.COM has started (see [`process`]): its data,
/// the system data block, COMMAND.COM's resident block and master
/// environment (the run's variables), the rest of memory free; the CP/M
/// entry's jump at 0000:00C0. Returns the first MCB.
pub fn boot(m: &mut Machine, start: &DosStart) -> Result<u16, MachineError> {
    use memory::{Mcb, write};
    use process::{COMMAND_PSP, FIRST_MCB, OWNER_DOS};
    let env = psp::environment_block(&start.env, "");
    // The master environment has no program name after it.
    let strings = &env[..env.len() - 3];
    let env_paras = ((strings.len() as u32).div_ceil(16) as u16).max(0x10);
    if env_paras > 0x800 {
        return Err(MachineError(format!(
            "the environment is too large ({} bytes)",
            strings.len()
        )));
    }
    let uc: &mut Uc<'static> = m;
    data::init(uc, FIRST_MCB);
    let sys_size = COMMAND_PSP - 1 - FIRST_MCB - 1;
    write(
        uc,
        &Mcb {
            seg: FIRST_MCB,
            last: false,
            owner: OWNER_DOS,
            size: sys_size,
        },
        Some("SD"),
    );
    let cmd_size = process::COMMAND_ENV - 1 - COMMAND_PSP;
    write(
        uc,
        &Mcb {
            seg: COMMAND_PSP - 1,
            last: false,
            owner: COMMAND_PSP,
            size: cmd_size,
        },
        Some("COMMAND"),
    );
    let env_seg = process::COMMAND_ENV;
    write(
        uc,
        &Mcb {
            seg: env_seg - 1,
            last: false,
            owner: COMMAND_PSP,
            size: env_paras,
        },
        Some(""),
    );
    let free = env_seg + env_paras;
    write(
        uc,
        &Mcb {
            seg: free,
            last: true,
            owner: 0,
            size: TOP_OF_MEMORY - free - 1,
        },
        Some(""),
    );
    let mut e = strings.to_vec();
    e.resize(usize::from(env_paras) * 16, 0);
    wl(m, env_seg, 0, &e)?;
    let v = |n: u8| {
        let s = ROM_STUBS + u16::from(n) * 8;
        (s, ROM_SEG)
    };
    let jft = [
        0, 0, 0, 1, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF,
    ];
    let p = psp::build(
        COMMAND_PSP,
        TOP_OF_MEMORY,
        COMMAND_PSP,
        env_seg,
        [v(0x22), v(0x23), v(0x24)],
        &jft,
    );
    wl(m, COMMAND_PSP, 0, &p)?;
    // The CP/M entry: PSP:05 calls F01D:FEF0 = 0000:00C0 (A20 off), where
    // DOS keeps a far jump to its dispatcher.
    let (off, seg) = v(CPM_VECTOR);
    let mut jmp = vec![0xEA];
    jmp.extend_from_slice(&off.to_le_bytes());
    jmp.extend_from_slice(&seg.to_le_bytes());
    m.write_linear(0xC0, &jmp)?;
    Ok(FIRST_MCB)
}

/// Load the first program (a .COM or .EXE) as DOS 5 would: COMMAND.COM's
/// child, at the first free paragraph, through the same loader as INT 21h
/// AX=4B00h (see [`process`]).
pub fn load_program(
    m: &mut Machine,
    exe: &process::Executable,
    start: &DosStart,
) -> Result<RealLoad, MachineError> {
    init_real_mode_tables(m)?;
    let first_mcb = boot(m, start)?;
    let no_inherit = std::collections::HashSet::new();
    let terminate = get_vector(m, 0x22)
        .map_err(|e| MachineError(format!("the INT 22h vector: {}", e.kind())))?;
    let mut loader = process::Loader {
        first_mcb,
        strategy: memory::Strategy::FirstFit,
        parent: process::COMMAND_PSP,
        drive: None,
        no_inherit: &no_inherit,
        terminate,
    };
    let (fcb1, fcb2) = fcbs_of(&start.tail);
    let params = process::Params {
        env: None,
        tail: psp::tail_bytes(start.tail.as_bytes()),
        fcb1,
        fcb2,
    };
    let uc: &mut Uc<'static> = m;
    let s = loader
        .load(uc, exe, start.program.as_bytes(), &params)
        .map_err(|code| MachineError(load_error(code, exe, uc, first_mcb)))?;
    for (r, v) in [
        (R::AX, s.ax),
        (R::BX, s.ax),
        (R::CX, 0x00FF),
        (R::DX, s.psp),
        (R::SI, s.ip),
        (R::DI, s.sp),
        (R::BP, 0),
        (R::DS, s.psp),
        (R::ES, s.psp),
        (R::SS, s.ss),
        (R::SP, s.sp),
        (R::FLAGS, START_FLAGS),
    ] {
        m.set_reg(r, v)?;
    }
    m.set_csip(s.cs, s.ip)?;
    Ok(RealLoad {
        psp: s.psp,
        load_seg: s.load_seg,
        first_mcb,
    })
}

/// Why the first program could not be loaded, in words.
fn load_error(code: u16, exe: &process::Executable, uc: &Uc<'_>, first: u16) -> String {
    let free = memory::chain(uc, first)
        .ok()
        .and_then(|c| c.iter().filter(|b| b.owner == 0).map(|b| b.size).max())
        .unwrap_or(0);
    match (code, exe) {
        (int21::error::ERR_NOT_ENOUGH_MEMORY, process::Executable::Exe(mz)) => {
            let h = &mz.header;
            let need = (u32::from(h.e_cp) * 32).saturating_sub(u32::from(h.e_cparhdr))
                + 0x10
                + u32::from(h.e_minalloc);
            format!(
                "the program needs {need:#x} paragraphs (load module and e_minalloc) and only {free:#x} are free"
            )
        }
        (int21::error::ERR_NOT_ENOUGH_MEMORY, process::Executable::Com(b)) => format!(
            "the .COM program ({} bytes) does not fit in the {free:#x} free paragraphs",
            b.len()
        ),
        (c, _) => format!("DOS error {c:02X}h loading the program"),
    }
}

/// Load a `.COM` program (see [`load_program`]): CS = DS = ES = SS = PSP,
/// IP = 100h, SP at the top of the segment with a zero word there (a RET
/// reaches INT 20h at PSP:0000), BP = 0.
pub fn load_com(m: &mut Machine, code: &[u8], start: &DosStart) -> Result<RealLoad, MachineError> {
    load_program(m, &process::Executable::Com(code.to_vec()), start)
}

/// Load an MZ executable (see [`load_program`]): load module at PSP+10h
/// (or at the top of memory when e_minalloc and e_maxalloc are 0), segment
/// relocations applied, CS:IP and SS:SP from the header, DS = ES = PSP.
pub fn load_mz(
    m: &mut Machine,
    mz: &crate::loader::mz::MzImage,
    start: &DosStart,
) -> Result<RealLoad, MachineError> {
    load_program(m, &process::Executable::Exe(Box::new(mz.clone())), start)
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
        assert_eq!(
            parse_keys("{ctrl-z}{Ctrl+C}").unwrap(),
            [(0x2C, 0x1A), (0x2E, 0x03)]
        );
        assert!(parse_keys("{ctrl-1}").is_err());
        assert_eq!(
            parse_keys("ok\\r").unwrap(),
            vec![(0x18, b'o'), (0x25, b'k'), (0x1C, 0x0D)]
        );
        assert!(parse_keys("\\q").is_err());
    }
}
