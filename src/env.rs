//! The environment's shared state: what every subsystem of the
//! environment a program runs in (DOS and the BIOS, the Win16 system
//! modules) may read and write, whichever of them the program called.
//!
//! [`Env`] is a plain struct at the bottom of the environment
//! (docs/architecture.md): the console, the debug strings, the drive, the
//! program's name and symbols. Each subsystem owns its own state, held here
//! as the type parameters `dos` and `win16` name; this room names none of
//! them. DOS sees the layer above it only through the small interface it
//! names (`dos::Upper`, so DOS's functions take `Env<Dos, dyn Upper>`);
//! Win16 takes the whole `Env<Dos, Win16>` (`win16::Env`). The dispatch of
//! the machine's interrupts and thunks to them lies above both
//! (`system`).

/// Everything the program can call: the shared state, and each
/// subsystem's own (`D`: DOS and the BIOS; `W`: what runs on DOS, last so
/// a reference to the whole unsizes to DOS's view of it).
#[derive(Default, Clone)]
pub struct Env<D, W: ?Sized> {
    /// What the program wrote to the console: the first [`MAX_CONSOLE`]
    /// bytes (all of it still goes to the echo).
    pub console: Vec<u8>,
    /// Console bytes written past [`MAX_CONSOLE`], counted, not kept.
    pub console_dropped: u64,
    /// Echo console output to the host's stdout as it is written.
    pub echo: bool,
    /// The host's stdout is a terminal: the echo shows the console's
    /// bytes as the screen would (code page 437 glyphs, no raw control
    /// bytes: `dos::screen::terminal_text`); otherwise it writes
    /// them as they are, as DOS writes redirected output.
    pub echo_terminal: bool,
    /// Strings passed to OutputDebugString: the first
    /// [`MAX_DEBUG_STRINGS`].
    pub debug_output: Vec<String>,
    /// OutputDebugString calls past [`MAX_DEBUG_STRINGS`], counted.
    pub debug_output_dropped: u64,
    /// The sandboxed drive C: (`--dir`); None when the run has no drive.
    pub drive: Option<crate::dosfs::Drive>,
    /// A DOS program's name (its file's stem, upper case), the module name
    /// of its code in traces.
    pub program_name: Option<String>,
    /// The symbol tables of the run (symbols/mod.rs).
    pub symbols: crate::symbols::Registry,
    /// A DOS program (or raw image), for its symbols: its file, the
    /// segment its map's addresses count from, and the bytes a map may
    /// describe.
    pub dos_program: Option<DosProgram>,
    /// The DOS and BIOS state.
    pub dos: D,
    /// The Win16 state: tasks, modules, USER and GDI (last: it may be
    /// unsized, DOS's view of it).
    pub win16: W,
}

/// What symbols need of a DOS program (see [`Env::dos_program`]).
#[derive(Debug, Clone)]
pub struct DosProgram {
    /// The program's file.
    pub path: std::path::PathBuf,
    /// The paragraph its load image starts at.
    pub base_seg: u16,
    /// The load image's length in bytes.
    pub image_len: u32,
}

/// Console output a run keeps for its report (the echo to stdout has all
/// of it): a program that prints in a loop must not grow the tool without
/// bound.
pub const MAX_CONSOLE: usize = 1 << 20;

/// OutputDebugString strings a run keeps for its report.
pub const MAX_DEBUG_STRINGS: usize = 10_000;

impl<D, W: ?Sized> Env<D, W> {
    /// Record an OutputDebugString string (at most [`MAX_DEBUG_STRINGS`]
    /// kept, the rest counted).
    pub fn debug_string(&mut self, s: String) {
        if self.debug_output.len() < MAX_DEBUG_STRINGS {
            self.debug_output.push(s);
        } else {
            self.debug_output_dropped += 1;
        }
    }
}

impl<D: Default, W: Default> Env<D, W> {
    /// A fresh environment.
    pub fn new(echo: bool) -> Self {
        Env {
            console: Vec::new(),
            console_dropped: 0,
            echo,
            echo_terminal: echo && std::io::IsTerminal::is_terminal(&std::io::stdout()),
            debug_output: Vec::new(),
            debug_output_dropped: 0,
            drive: None,
            program_name: None,
            symbols: crate::symbols::Registry::default(),
            dos_program: None,
            dos: D::default(),
            win16: W::default(),
        }
    }
}
