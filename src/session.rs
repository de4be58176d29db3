//! A loaded program ready to run: the glue between a file on disk, the
//! loaders, the machine and its environment, and the walk. The CLI and the
//! tests both drive programs through this.

use std::path::{Path, PathBuf};

use crate::loader::{self, Image, KindHint};
use crate::machine::{Cpu, Machine, RunLimits, Stop};
use crate::system::Env;
use crate::walk::snapshot::{Snapshot, Source};
use crate::walk::stackframe::{FrameWalk, Start, WalkContext, walk_with_start};
use crate::walk::{CpuMode, StackTraceEntry, Walk, WalkMemory, walk_from_csip};

/// The most `--stdin FILE` gives the program (as much as DOS takes from
/// the host's own standard input).
pub const MAX_STDIN_BYTES: u64 = 16 << 20;

pub use crate::walk::MAX_FRAMES;

/// The most files a screenshot series writes.
pub const MAX_SHOTS: u32 = 10_000;

/// Takes a screenshot every N instructions (counted a translation block at
/// a time, like the profiler's samples).
struct ScreenSeries {
    every: u64,
    next: u64,
}

impl crate::machine::Observer for ScreenSeries {
    fn on_block(
        &mut self,
        uc: &crate::machine::Uc<'_>,
        _addr: u64,
        _size: u32,
        _cs: u16,
        _ip: u16,
    ) -> Option<Stop> {
        let n = uc.get_data().total_insns();
        if n >= self.next {
            self.next = (n / self.every + 1) * self.every;
            if let Some(env) = crate::machine::environment_of::<Env>(uc) {
                if crate::machine::Cpu::mode(uc) == CpuMode::Real {
                    crate::dos::picture::series_shot(env, uc);
                } else {
                    crate::win16::gdi::screen::series_shot(env);
                }
            }
        }
        None
    }
}

/// How to load a file.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// How to read the file (detected, or a raw image's place).
    pub kind: KindHint,
    /// The command tail (everything after `--`).
    pub tail: String,
    /// Echo program output to stdout as it is written.
    pub echo: bool,
    /// Extra DOS environment variables (`--env NAME=VALUE`).
    pub env: Vec<(String, String)>,
    /// Standard input's bytes (`--stdin FILE`); None reads the host's stdin
    /// when the program first asks.
    pub stdin: Option<Vec<u8>>,
    /// Scripted keys for INT 16h (`--keys`).
    pub keys: Vec<(u8, u8)>,
    /// A mouse driver moved by this script (`--mouse`, DOS programs only);
    /// None: no mouse driver.
    pub mouse: Option<Vec<crate::dos::mouse::Step>>,
    /// The clock DOS and the BIOS report.
    pub clock: crate::dos::clock::Clock,
    /// The host directory that is the program's drive C: (None: no drive;
    /// file functions then stop the program as unimplemented).
    pub dir: Option<PathBuf>,
    /// How the program's writes reach `dir`.
    pub writes: Writes,
    /// The total write quota of the drive, in bytes (dosfs.rs).
    pub disk_quota: u64,
    /// More Win16 programs to load as tasks beside the first (`run A.EXE
    /// B.EXE`); the first one named runs first.
    pub more: Vec<PathBuf>,
    /// The `--messages` script for Win16 programs (win16/script.rs), read
    /// and checked at load.
    pub messages: Option<PathBuf>,
    /// Symbol files (`--map [MODULE=]FILE`, `--sym [MODULE=]FILE`), read
    /// and fitted at load; a file that does not fit is an error.
    pub symbol_files: Vec<String>,
    /// Look for `STEM.sym` and `STEM.map` beside each module's file.
    pub symbols_beside: bool,
    /// `--fonts DIR`: searched first for the Windows raster fonts
    /// (win16/gdi/font.rs, "Where the fonts come from").
    pub fonts: Option<PathBuf>,
    /// The display Win16 programs draw on (`--display WxHxBPP`; the VGA's
    /// 640×480×16 when None).
    pub display: Option<crate::win16::gdi::devcaps::DisplayMode>,
    /// Log each DOS and BIOS service call as an event (`--events`,
    /// dos/log.rs).
    pub log_calls: bool,
    /// WinMain's nCmdShow for the first Win16 task (`--show`; 1,
    /// SW_SHOWNORMAL, by default).
    pub cmd_show: u16,
    /// `--windows DIR`: host files shown in C:\WINDOWS above the
    /// built-in ones (dosfs/windir.rs).
    pub windows: Option<PathBuf>,
    /// The wall-clock limit on the program's own code that runs while it
    /// loads (a self-loading application's BootApp and LoadAppSeg,
    /// win16/kernel/selfload.rs): past it the load fails, naming the
    /// limit. None: no limit (the run's own limits start with the run).
    /// The default is 30 s, the command line's default `--timeout`.
    pub load_timeout: Option<std::time::Duration>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            kind: KindHint::Auto,
            tail: String::new(),
            echo: false,
            env: Vec::new(),
            stdin: None,
            keys: Vec::new(),
            mouse: None,
            clock: crate::dos::clock::Clock::Host,
            dir: None,
            writes: Writes::Direct,
            disk_quota: crate::dos::fs::DEFAULT_QUOTA,
            more: Vec::new(),
            messages: None,
            symbol_files: Vec::new(),
            symbols_beside: true,
            fonts: None,
            display: None,
            log_calls: false,
            cmd_show: 1,
            windows: None,
            load_timeout: Some(std::time::Duration::from_secs(30)),
        }
    }
}

/// How a program's writes reach its drive's directory (dosfs.rs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Writes {
    /// Read-write: the program changes the directory itself (`--dir`).
    Direct,
    /// Copy-on-write: the directory is read-only; writes go to a private
    /// temporary overlay, discarded at the end (`run` without `--dir`).
    Discarded,
    /// Copy-on-write, the overlay kept in this directory
    /// (`--keep-writes DIR`).
    KeptIn(PathBuf),
}

/// What an internal error (a bug in toolhelp16) says after itself.
pub const BUG_REPORT: &str = "this is a bug in toolhelp16: please report it with this message, \
     the command line and the file it ran";

/// One line describing a stop, as the reports say it: `exited with code
/// 0`, `General Protection Fault (exception 13) at 0117:0094: ...`,
/// `the instruction budget ran out`.
pub fn describe_stop(stop: &Stop) -> String {
    match stop {
        Stop::Exited { code } => format!("exited with code {code}"),
        Stop::Fault(f) => format!(
            "{} (exception {}) at {:04X}:{:04X}: {}",
            crate::machine::fault_name(f.number),
            f.number,
            f.cs,
            f.ip,
            f.detail
        ),
        Stop::Budget => "the instruction budget ran out".into(),
        Stop::NoInput { what } => format!("stopped: {what}"),
        Stop::Timeout => "the wall-clock limit ran out".into(),
        Stop::Unimplemented { what, caller } => {
            format!(
                "called {what}, which is not implemented (from {:04X}:{:04X})",
                caller.0, caller.1
            )
        }
        Stop::Fatal { what, caller } => format!(
            "ended with a fatal error: {what} (from {:04X}:{:04X})",
            caller.0, caller.1
        ),
        Stop::Hung { cs, ip } => {
            format!("halted with interrupts disabled at {cs:04X}:{ip:04X}: the machine would hang")
        }
        Stop::Breakpoint { cs, ip } => format!("stopped at {cs:04X}:{ip:04X}"),
        Stop::Error(e) => format!("internal error: {e}; {}", BUG_REPORT),
    }
}

/// A file that could not be loaded: the message names the file, and the
/// offset and field where the loader knows them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadFailure {
    /// The bytes are not a program this tool loads, or are malformed: the
    /// file (or the name given to [`load_bytes`]) and where and why
    /// (offset, field, what was wrong).
    #[error("{file}: {error}")]
    Format {
        /// The file's path or name.
        file: String,
        /// What the loader found wrong.
        #[source]
        error: loader::LoadError,
    },
    /// Anything else: a file that cannot be read, an option that does not
    /// fit the program, a DLL or a symbol file that does not load, the
    /// machine refusing it. The message names the file and what.
    #[error("{0}")]
    Other(String),
}

/// What kind of program is loaded, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loaded {
    /// A Win16 task.
    Ne {
        /// The task handle.
        htask: u16,
    },
    /// A DOS program with its PSP and load segment.
    Dos {
        /// The PSP segment.
        psp: u16,
        /// The segment the image is loaded at.
        load_seg: u16,
    },
    /// A raw image or boot sector.
    Raw {
        /// The segment the image is loaded at.
        load_seg: u16,
    },
}

/// A loaded program.
pub struct Program {
    /// The machine it runs on (its environment inside).
    pub machine: Machine,
    /// The program's file.
    pub path: PathBuf,
    /// The parsed executable.
    pub image: Image,
    /// What kind of program it is, and where.
    pub loaded: Loaded,
}

/// Read and parse a file, naming it in any error.
pub fn parse_file(path: &Path, kind: KindHint) -> Result<Image, LoadFailure> {
    let bytes = loader::read_capped(path, loader::MAX_EXECUTABLE_BYTES, "an executable")
        .map_err(LoadFailure::Other)?;
    let kind = match kind {
        KindHint::Auto
            if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("com"))
                && !bytes.starts_with(b"MZ")
                && !bytes.starts_with(b"ZM") =>
        {
            KindHint::Com
        }
        k => k,
    };
    loader::parse(&bytes, kind).map_err(|error| LoadFailure::Format {
        file: path.display().to_string(),
        error,
    })
}

/// How DOS starts this program: its tail, environment and DOS path.
fn dos_start(path: &Path, opts: &LoadOptions) -> crate::dos::DosStart {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    let mut env = crate::dos::default_environment();
    for (k, v) in &opts.env {
        let k = k.to_ascii_uppercase();
        env.retain(|(x, _)| *x != k);
        env.push((k, v.clone()));
    }
    crate::dos::DosStart {
        tail: opts.tail.clone(),
        env,
        program: format!("C:\\{name}"),
    }
}

/// The DOS environment of a Win16 task: Windows 3.1's
/// ([`crate::win16::kernel::task::default_environment`]) with the
/// `--env` variables added or replacing.
fn win16_environment(opts: &LoadOptions) -> Vec<(String, String)> {
    let mut env = crate::win16::kernel::task::default_environment();
    for (k, v) in &opts.env {
        let k = k.to_ascii_uppercase();
        env.retain(|(x, _)| !x.eq_ignore_ascii_case(&k));
        env.push((k, v.clone()));
    }
    env
}

/// Read and parse a `--messages` script; the error names the file and the
/// line (`FILE:LINE: what`).
pub fn read_script(path: &Path) -> Result<crate::win16::script::Script, LoadFailure> {
    use crate::win16::script;
    let fail = |what: String| LoadFailure::Other(format!("--messages {}{what}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| fail(format!(": {e}")))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, script::MAX_BYTES as u64 + 1),
        &mut bytes,
    )
    .map_err(|e| fail(format!(": {e}")))?;
    script::parse(&bytes).map_err(|e| match e.line {
        0 => fail(format!(": {}", e.what)),
        n => fail(format!(":{n}: {}", e.what)),
    })
}

/// Load a file into a new machine.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Program, LoadFailure> {
    let image = parse_file(path, opts.kind)?;
    load_image(path, image, opts)
}

/// Load a program from its bytes, named `name` (`CHIPS.EXE`): as
/// [`load`] loads a file of that name in `opts.dir` (the current
/// directory without it), which is where DLLs, `STEM.map` and `STEM.sym`
/// are looked for and what DOS is told the program is. A `.COM` name
/// without an MZ signature loads as a .COM, as a file would. The bytes are
/// checked as a file's are: at most [`loader::MAX_EXECUTABLE_BYTES`], and
/// a malformed program is a [`LoadFailure::Format`] naming `name`.
pub fn load_bytes(name: &str, bytes: &[u8], opts: &LoadOptions) -> Result<Program, LoadFailure> {
    if bytes.len() as u64 > loader::MAX_EXECUTABLE_BYTES {
        return Err(LoadFailure::Other(format!(
            "{name}: {} bytes is more than an executable this tool loads ({} bytes)",
            bytes.len(),
            loader::MAX_EXECUTABLE_BYTES
        )));
    }
    let path = match &opts.dir {
        Some(d) => d.join(name),
        None => PathBuf::from(name),
    };
    let kind = match opts.kind {
        KindHint::Auto
            if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("com"))
                && !bytes.starts_with(b"MZ")
                && !bytes.starts_with(b"ZM") =>
        {
            KindHint::Com
        }
        k => k,
    };
    let image = loader::parse(bytes, kind).map_err(|error| LoadFailure::Format {
        file: name.to_string(),
        error,
    })?;
    load_image(&path, image, opts)
}

/// Load a parsed program, read from `path`, into a new machine.
fn load_image(path: &Path, image: Image, opts: &LoadOptions) -> Result<Program, LoadFailure> {
    // An OS/2 bound program runs as DOS runs it: its real-mode part
    // (loader/ne.rs, `bound_dos_program`).
    let bound = match &image {
        Image::Ne(ne) => ne.bound_dos_program().cloned(),
        _ => None,
    };
    let image = match bound {
        Some(mz) => Image::Mz(mz),
        None => image,
    };
    let script = match &opts.messages {
        Some(p) if !matches!(image, Image::Ne(_)) => {
            return Err(LoadFailure::Other(format!(
                "--messages {}: only Win16 programs get window messages",
                p.display()
            )));
        }
        Some(p) => Some(read_script(p)?),
        None => None,
    };
    if let (Some(w), false) = (&opts.windows, matches!(image, Image::Ne(_))) {
        return Err(LoadFailure::Other(format!(
            "--windows {}: only Win16 programs get a Windows directory",
            w.display()
        )));
    }
    if opts.mouse.is_some() && !matches!(image, Image::Com(_) | Image::Mz(_)) {
        return Err(LoadFailure::Other(format!(
            "{}: --mouse: only DOS programs get a mouse driver",
            path.display()
        )));
    }
    let fail = |e: &dyn std::fmt::Display| LoadFailure::Other(format!("{}: {e}", path.display()));
    let mut env = Env::new(opts.echo);
    env.dos.input = opts.stdin.clone();
    env.dos.keys = opts.keys.iter().copied().collect();
    env.dos.log_calls = opts.log_calls;
    // Keys without --stdin: standard input is the console's keyboard.
    env.dos.console_keyboard = opts.stdin.is_none() && !opts.keys.is_empty();
    env.dos.clock = opts.clock;
    env.win16.gdi.fonts = crate::win16::gdi::font::FontState::new(
        crate::win16::gdi::font::FontSearch::standard(opts.fonts.as_deref()),
    );
    env.program_name = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_uppercase());
    if let Some(d) = opts.display {
        env.win16.gdi.display = d;
        env.win16.user.set_screen(d.width, d.height);
    }
    if let Some(dir) = &opts.dir {
        use crate::dos::fs::Drive;
        let mut drive = match &opts.writes {
            Writes::Direct => Drive::new(dir.clone()),
            Writes::Discarded => Drive::copy_on_write(dir.clone(), None),
            Writes::KeptIn(keep) => {
                Drive::copy_on_write(dir.clone(), Some(keep.clone())).map_err(|e| {
                    std::io::Error::other(format!("--keep-writes {}: {e}", keep.display()))
                })
            }
        }
        .map_err(|e| LoadFailure::Other(format!("drive C: {}: {e}", dir.display())))?;
        drive.set_quota(opts.disk_quota);
        // A fixed clock stamps what the program writes (dosfs.rs, the
        // drive's `stamp`): in DOS's directory form, to its 2 seconds.
        if let crate::dos::clock::Clock::Fixed(t) = opts.clock {
            let time = u16::from(t.hour) << 11 | u16::from(t.minute) << 5 | u16::from(t.second / 2);
            let date = (t.year.saturating_sub(1980) & 0x7F) << 9
                | u16::from(t.month) << 5
                | u16::from(t.day);
            drive.set_stamp(Some(crate::dos::fs::system_time(time, date)));
        }
        // A Win16 program finds Windows on the drive: C:\WINDOWS beneath
        // it (dosfs/windir.rs).
        if matches!(image, Image::Ne(_)) {
            drive
                .add_windows_layer(opts.windows.as_deref())
                .map_err(|e| LoadFailure::Other(format!("the Windows directory: {e}")))?;
        }
        env.drive = Some(drive);
    }
    let (mut machine, loaded) = match &image {
        Image::Ne(ne) => {
            let mut m = Machine::new_protected().map_err(|e| fail(&e))?;
            env.win16.environment = win16_environment(opts);
            let limit = opts.load_timeout.unwrap_or(std::time::Duration::MAX);
            let htask = m
                .within_deadline(limit, |m| {
                    crate::win16::kernel::loader::load_program(
                        m,
                        &mut env,
                        ne,
                        path,
                        &opts.tail,
                        opts.cmd_show,
                    )
                })
                .map_err(|e| LoadFailure::Other(e.0))?;
            for other in &opts.more {
                let Image::Ne(ne) = parse_file(other, KindHint::Auto)? else {
                    return Err(LoadFailure::Other(format!(
                        "{}: only Win16 programs run as further tasks",
                        other.display()
                    )));
                };
                m.within_deadline(limit, |m| {
                    crate::win16::kernel::loader::load_program(m, &mut env, &ne, other, "", 1)
                })
                .map_err(|e| LoadFailure::Other(e.0))?;
            }
            if let Some(script) = script {
                env.win16.commdlg.files = script.files.clone();
                env.win16.user.set_script(script);
            }
            crate::win16::user::paint::show_desktop(&mut env, &mut m);
            crate::win16::kernel::loader::start_task(&mut m, &mut env, htask)
                .map_err(|e| fail(&e))?;
            (m, Loaded::Ne { htask })
        }
        Image::Com(c) => {
            let mut m = Machine::new_real().map_err(|e| fail(&e))?;
            let r = crate::dos::load_com(&mut m, &c.bytes, &dos_start(path, opts))
                .map_err(|e| fail(&e))?;
            env.dos.first_mcb = r.first_mcb;
            (
                m,
                Loaded::Dos {
                    psp: r.psp,
                    load_seg: r.load_seg,
                },
            )
        }
        Image::Mz(mz) => {
            let mut m = Machine::new_real().map_err(|e| fail(&e))?;
            let r =
                crate::dos::load_mz(&mut m, mz, &dos_start(path, opts)).map_err(|e| fail(&e))?;
            env.dos.first_mcb = r.first_mcb;
            (
                m,
                Loaded::Dos {
                    psp: r.psp,
                    load_seg: r.load_seg,
                },
            )
        }
        Image::Raw(raw) => {
            let mut m = Machine::new_real().map_err(|e| fail(&e))?;
            let r = crate::dos::load_raw(&mut m, raw).map_err(|e| fail(&e))?;
            (
                m,
                Loaded::Raw {
                    load_seg: r.load_seg,
                },
            )
        }
    };
    let mut given = Vec::new();
    for arg in &opts.symbol_files {
        given.push(crate::symbols::Given::read(arg).map_err(LoadFailure::Other)?);
    }
    env.symbols = crate::symbols::Registry::new(given, opts.symbols_beside);
    env.dos_program = match (&image, loaded) {
        (Image::Com(_), Loaded::Dos { psp, .. }) => Some((psp, 0x1_0000)),
        (Image::Mz(mz), Loaded::Dos { load_seg, .. }) => Some((
            load_seg,
            (mz.image.len() as u32).saturating_add(u32::from(mz.header.e_minalloc) << 4),
        )),
        (Image::Raw(raw), Loaded::Raw { load_seg }) => Some((load_seg, raw.bytes.len() as u32)),
        _ => None,
    }
    .map(|(base_seg, image_len)| crate::env::DosProgram {
        path: path.to_path_buf(),
        base_seg,
        image_len: image_len.min(0xA_0000),
    });
    check_symbols(&env)?;
    if let (Loaded::Dos { .. }, Some(script)) = (loaded, &opts.mouse) {
        env.dos.mouse =
            Some(crate::dos::mouse::install(&mut machine, script.clone()).map_err(|e| fail(&e))?);
    }
    if let Loaded::Dos { psp, .. } = loaded {
        env.dos.psp = psp;
        env.dos.root_psp = psp;
        env.dos.dta = (psp, 0x80);
        let st = machine.get_data_mut();
        st.real_owner = Some((psp, crate::dos::TOP_OF_MEMORY, psp));
        st.current_task = psp;
    }
    machine.set_environment(Box::new(env));
    Ok(Program {
        machine,
        path: path.to_path_buf(),
        image,
        loaded,
    })
}

/// Build the symbol tables of the modules loaded so far, so that a given
/// symbol file that does not fit is an error now, and one that fits no
/// module is said.
fn check_symbols(env: &Env) -> Result<(), LoadFailure> {
    let mut names = Vec::new();
    for m in env.win16.modules.iter().filter(|m| !m.builtin) {
        env.symbol_table(Some(m.hmodule))
            .map_err(LoadFailure::Other)?;
        names.push(m.name.clone());
    }
    if env.dos_program.is_some() {
        env.symbol_table(None).map_err(LoadFailure::Other)?;
        names.extend(env.program_name.clone());
    }
    for g in &env.symbols.given {
        let used = names.iter().any(|n| {
            env.symbols
                .cached(n)
                .is_some_and(|t| t.sources.iter().any(|s| *s == g.path.display().to_string()))
        });
        if !used {
            env.symbols.warn(format!(
                "{}: no module loaded at start is {} (it is used if that module loads later)",
                g.path.display(),
                g.module
                    .clone()
                    .or_else(|| g.layouts.first().and_then(|l| l.module.clone()))
                    .unwrap_or_else(|| "named by it".into())
            ));
        }
    }
    Ok(())
}

/// Where to stop (the CLI's LOC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loc {
    /// `MODULE:SEG:OFF`: NE segment number and offset in a module; for
    /// a DOS program `MODULE:PARA:OFF`, a paragraph of its load image.
    ModuleSeg {
        /// The module name.
        module: String,
        /// The NE segment number (the middle part read as decimal; 0 when
        /// it is not decimal, which no NE segment is).
        segment: u16,
        /// The middle part read as hexadecimal: a DOS program's paragraph
        /// (`MZFAR:1A:2B`), as `disasm` headings give it; None when it is
        /// not hexadecimal.
        para: Option<u16>,
        /// The offset (hex).
        offset: u16,
    },
    /// `SEG:OFF`: a raw segment or selector.
    SegOff {
        /// The segment (hex).
        seg: u16,
        /// The offset (hex).
        offset: u16,
    },
    /// `MODULE!NAME`: a name from any symbol source (NE names tables,
    /// `.MAP`, `.SYM`).
    Export {
        /// The module name.
        module: String,
        /// The name.
        name: String,
    },
    /// `MODULE!#N`: entry ordinal N.
    Ordinal {
        /// The module name.
        module: String,
        /// The entry ordinal.
        ordinal: u16,
    },
    /// `+N`: after N instructions.
    After(u64),
    /// `LOC+prologue`: after the prologue of the function at LOC, where
    /// its frame exists (x86/prologue.rs).
    AfterPrologue(Box<Loc>),
}

fn hex16(s: &str) -> Result<u16, String> {
    let t = s.trim_start_matches("0x").trim_start_matches("0X");
    u16::from_str_radix(t, 16).map_err(|_| format!("'{s}' is not a hexadecimal 16-bit number"))
}

impl std::str::FromStr for Loc {
    type Err = String;
    fn from_str(s: &str) -> Result<Loc, String> {
        const PROLOGUE: &str = "+prologue";
        if s.len() > PROLOGUE.len()
            && s.is_char_boundary(s.len() - PROLOGUE.len())
            && s[s.len() - PROLOGUE.len()..].eq_ignore_ascii_case(PROLOGUE)
        {
            let inner: Loc = s[..s.len() - PROLOGUE.len()].parse()?;
            if matches!(inner, Loc::After(_) | Loc::AfterPrologue(_)) {
                return Err(format!("'{s}': +prologue follows a function's place"));
            }
            return Ok(Loc::AfterPrologue(Box::new(inner)));
        }
        if let Some(n) = s.strip_prefix('+') {
            return n
                .parse()
                .map(Loc::After)
                .map_err(|_| format!("'{s}': +N needs a decimal instruction count"));
        }
        // `MODULE!NAME`, `MODULE!#N` and `MODULE.N` (as reports print a
        // system function, `USER.108 GetMessage`): win16/sysexport.rs
        // reads them, for the relay filter too.
        use crate::win16::sysexport::{Export, parse_ref};
        match parse_ref(s).map_err(|e| format!("'{s}': {e}"))? {
            Some((module, Export::Ordinal(ordinal))) => {
                return Ok(Loc::Ordinal {
                    module: module.into(),
                    ordinal,
                });
            }
            Some((module, Export::Name(name))) => {
                return Ok(Loc::Export {
                    module: module.into(),
                    name: name.into(),
                });
            }
            None => {}
        }
        let parts: Vec<&str> = s.split(':').collect();
        match parts.as_slice() {
            [seg, off] => Ok(Loc::SegOff {
                seg: hex16(seg)?,
                offset: hex16(off)?,
            }),
            [module, seg, off] => {
                // Decimal for an NE segment number, hexadecimal for a DOS
                // paragraph: which one applies depends on the program,
                // so both readings are kept.
                let segment = seg.parse().ok();
                let para = hex16(seg).ok();
                if segment.is_none() && para.is_none() {
                    return Err(format!(
                        "'{s}': the middle part is an NE segment number (decimal) or a DOS \
                         program's paragraph (hex, up to FFFF)"
                    ));
                }
                Ok(Loc::ModuleSeg {
                    module: (*module).into(),
                    segment: segment.unwrap_or(0),
                    para,
                    offset: hex16(off)?,
                })
            }
            _ => Err(format!(
                "'{s}': LOC is MODULE:SEG:OFF, SEG:OFF, MODULE!NAME, MODULE!#N, MODULE.N or +N, \
                 optionally followed by +prologue"
            )),
        }
    }
}

impl Program {
    /// The environment (console output, Win16 state).
    pub fn env(&self) -> &Env {
        self.machine
            .environment::<Env>()
            .expect("the session installs an Env")
    }

    /// Write an invalid opcode (UD2, `0F 0B`) over the code at `loc`, so
    /// that the program faults there (`run --inject-fault`): the way to see
    /// the fault report, the dispatch and the walk from any instruction.
    /// Returns the SEG:OFF written.
    pub fn inject_invalid_opcode(&mut self, loc: &Loc) -> Result<(u16, u16), String> {
        let (seg, off) = self.resolve(loc)?;
        let d = WalkMemory::descriptor(&*self.machine, seg)
            .ok_or_else(|| format!("{seg:04X}:{off:04X}: no such segment"))?;
        if u32::from(off) + 1 > d.limit {
            return Err(format!(
                "{seg:04X}:{off:04X}: the two bytes of UD2 do not fit below the segment limit {:04X}",
                d.limit
            ));
        }
        let linear = d.base.wrapping_add(u32::from(off));
        self.machine
            .write_linear(linear, &[0x0F, 0x0B])
            .map_err(|e| e.0)?;
        Ok((seg, off))
    }

    /// Resolve a location to SEG:OFF in this machine (making a built-in
    /// DLL function's thunk when the program does not import it:
    /// [`prepare_location`]).
    pub fn resolve(&mut self, loc: &Loc) -> Result<(u16, u16), String> {
        if matches!(self.machine.cpu_mode(), crate::walk::CpuMode::Protected) {
            prepare_location(&mut self.machine, loc)?;
        }
        resolve_in(self.env(), &*self.machine as &dyn WalkMemory, loc)
    }
}

/// Resolve a location to SEG:OFF in the environment `env`, reading code
/// from `mem` (the debugger resolves from inside a hook, where it has no
/// [`Program`]).
pub fn resolve_in(env: &Env, mem: &dyn WalkMemory, loc: &Loc) -> Result<(u16, u16), String> {
    if let Loc::AfterPrologue(inner) = loc {
        let (seg, off) = resolve_in(env, mem, inner)?;
        let mut code = [0u8; crate::walk::prologue::MAX_PROLOGUE];
        let mut n = code.len();
        // Near the end of the segment: what there is.
        while n > 0 && mem.read(seg, off, &mut code[..n]).is_err() {
            n -= 1;
        }
        return match crate::walk::prologue::prologue(&code[..n]) {
            Some((len, _)) => Ok((seg, off.wrapping_add(len))),
            None => Err(format!(
                "{seg:04X}:{off:04X} does not begin with a prologue that makes a BP frame \
                 ([inc bp;] push bp; mov bp,sp or enter); the bytes there are {}",
                code[..n.min(6)]
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        };
    }
    {
        let w = &env.win16;
        let module = |name: &str| {
            w.module_by_name(name)
                .ok_or_else(|| format!("no module named {name} is loaded"))
        };
        match loc {
            Loc::SegOff { seg, offset } => Ok((*seg, *offset)),
            // A DOS program's MODULE:PARA:OFF counts from its load image,
            // as `disasm --at` and the walk's MODULE name it.
            Loc::ModuleSeg {
                module: name,
                para,
                offset,
                ..
            } if env.dos_program.is_some()
                && env
                    .program_name
                    .as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(name)) =>
            {
                let base = env.dos_program.as_ref().map_or(0, |p| p.base_seg);
                let para = dos_paragraph(*para)?;
                Ok((base.wrapping_add(para), *offset))
            }
            Loc::ModuleSeg {
                module: name,
                segment,
                offset,
                ..
            } => {
                ne_segment(name, *segment)?;
                let m = module(name)?;
                let sel = m
                    .segments
                    .get(usize::from(*segment).wrapping_sub(1))
                    .ok_or_else(|| format!("{name} has no segment {segment}"))?;
                Ok((*sel, *offset))
            }
            Loc::Ordinal {
                module: name,
                ordinal,
            } => {
                if env.dos_program.is_none()
                    && let Some(at) = system_function(w, name, None, Some(*ordinal))?
                {
                    return Ok(at);
                }
                let m = module(name)?;
                m.exports
                    .get(ordinal)
                    .map(|p| (p.selector, p.offset))
                    .ok_or_else(|| format!("{name} has no entry point #{ordinal}"))
            }
            Loc::Export {
                module: name,
                name: export,
            } => {
                if env.dos_program.is_none()
                    && let Some(at) = system_function(w, name, Some(export), None)?
                {
                    return Ok(at);
                }
                if let Some(at) = resolve_symbol(env, name, export)? {
                    return Ok(at);
                }
                let m = module(name)?;
                let ord = m
                    .export_names
                    .get(&export.to_ascii_uppercase())
                    .ok_or_else(|| format!("{name} exports no {export}"))?;
                m.exports
                    .get(ord)
                    .map(|p| (p.selector, p.offset))
                    .ok_or_else(|| format!("{name}!{export} has no address"))
            }
            Loc::After(_) => Err("+N is not an address".into()),
            Loc::AfterPrologue(_) => unreachable!("resolved above"),
        }
    }
}

/// The thunk of the built-in DLL function `module!name` or `module.ordinal`
/// (win16/sysexport.rs): None when `module` is not a built-in DLL (a
/// program's module, or a DLL loaded from a file); an error for a
/// function the module does not export, or one that has no thunk yet
/// (see [`prepare_location`]).
fn system_function(
    w: &crate::win16::Win16,
    module: &str,
    name: Option<&str>,
    ordinal: Option<u16>,
) -> Result<Option<(u16, u16)>, String> {
    use crate::win16::sysexport;
    let builtin = match w.module_by_name(module) {
        Some(m) => m.builtin,
        None => sysexport::is_builtin(module),
    };
    if !builtin {
        return Ok(None);
    }
    // An absent module (imported, neither built in nor found) has thunks
    // by ordinal and no names.
    let absent = !sysexport::is_builtin(module);
    let ordinal = match (absent, ordinal) {
        (true, Some(o)) => o,
        (true, None) => return Ok(None),
        (false, _) => sysexport::function(module, name, ordinal)?,
    };
    match w.thunk_of(module, ordinal) {
        Some(p) => Ok(Some((p.selector, p.offset))),
        None => Err(format!(
            "{}: the program has not imported it, so it has no address yet",
            sysexport::describe(module, ordinal)
        )),
    }
}

/// Make sure a location naming a built-in DLL's function has an address:
/// the function's thunk, made now when the program does not import it
/// (win16/sysexport.rs). Other locations are left alone. Call it where
/// the machine can be changed, before [`resolve_in`].
pub fn prepare_location(uc: &mut crate::machine::Uc<'_>, loc: &Loc) -> Result<(), String> {
    use crate::win16::sysexport;
    let (module, name, ordinal) = match loc {
        Loc::Export { module, name } => (module, Some(name.as_str()), None),
        Loc::Ordinal { module, ordinal } => (module, None, Some(*ordinal)),
        Loc::AfterPrologue(inner) => return prepare_location(uc, inner),
        _ => return Ok(()),
    };
    if !sysexport::is_builtin(module) {
        return Ok(());
    }
    crate::machine::with_environment::<Env, _>(uc, |env, uc| {
        if env.win16.module_by_name(module).is_some_and(|m| !m.builtin) {
            // The program loaded a DLL of that name from a file.
            return Ok(());
        }
        let ordinal = sysexport::function(module, name, ordinal)?;
        sysexport::ensure(uc, &mut env.win16, module, ordinal).map(|_| ())
    })
    .unwrap_or(Ok(()))
}

/// The paragraph a DOS program's `MODULE:PARA:OFF` names, from its
/// load image: the middle part read as hexadecimal (as `disasm` headings
/// give it), [`Loc::ModuleSeg`]'s `para`.
pub fn dos_paragraph(para: Option<u16>) -> Result<u16, String> {
    para.ok_or_else(|| {
        "a DOS program's MODULE:PARA:OFF takes the paragraph in hex, up to FFFF".to_string()
    })
}

/// An NE module's `MODULE:SEG:OFF` segment number: decimal, from 1
/// ([`Loc::ModuleSeg`]'s `segment` is 0 when the part was not decimal).
pub fn ne_segment(module: &str, segment: u16) -> Result<u16, String> {
    if segment == 0 {
        return Err(format!(
            "{module}: the segment of MODULE:SEG:OFF is an NE segment number, decimal from 1"
        ));
    }
    Ok(segment)
}

/// Did a run to `at` with instruction budget `max_insns` (0 = none)
/// that ended with `stop` reach `at`? A breakpoint stop reached its
/// location; a budget stop reached `+N` only when the budget did not end
/// the run before it ([`Program::run`]).
pub fn after_reached(at: &Loc, stop: &Stop, max_insns: u64) -> bool {
    match (at, stop) {
        (Loc::After(n), Stop::Budget) => max_insns == 0 || *n <= max_insns,
        (_, Stop::Breakpoint { .. }) => true,
        _ => false,
    }
}

impl Program {
    /// Run to exit, fault, a limit, or `at`. `+N` stops after N
    /// instructions as a [`Stop::Budget`], within the instruction budget:
    /// a budget below N ends the run first (see [`after_reached`]).
    pub fn run(&mut self, limits: RunLimits, at: Option<&Loc>) -> Result<Stop, String> {
        let mut limits = limits;
        match at {
            Some(Loc::After(n)) => {
                if *n == 0 {
                    return Ok(Stop::Budget);
                }
                limits.max_insns = match limits.max_insns {
                    0 => *n,
                    budget => budget.min(*n),
                };
            }
            Some(loc) => {
                let (seg, off) = self.resolve(loc)?;
                self.machine.add_breakpoint(seg, off).map_err(|e| e.0)?;
            }
            None => {}
        }
        let stop = self.machine.run(limits);
        if let (Stop::Exited { .. }, Some(env)) = (&stop, self.machine.environment_mut::<Env>()) {
            env.dos.shots.ended = true;
        }
        Ok(stop)
    }

    /// The registers a walk from this stop starts with: the fault's
    /// context, the caller of an unimplemented or fatal function, or the
    /// live registers; None when the program has exited.
    pub fn registers_at_stop(&self, stop: &Stop) -> Option<crate::machine::Regs> {
        let m = &self.machine;
        let mut r = m.regs();
        match stop {
            Stop::Exited { .. } | Stop::Error(_) => return None,
            Stop::Fault(f) => {
                r = f.regs;
                (r.cs, r.ip) = (f.cs, f.ip);
            }
            Stop::Unimplemented { caller, .. } | Stop::Fatal { caller, .. } => {
                (r.cs, r.ip, r.bp) = *caller;
            }
            Stop::Breakpoint { cs, ip } | Stop::Hung { cs, ip } => (r.cs, r.ip) = (*cs, *ip),
            Stop::Budget | Stop::Timeout | Stop::NoInput { .. } => {}
        }
        Some(r)
    }

    /// The context a walk from this stop starts from (CS:IP, SS:BP, SS:SP
    /// of [`Program::registers_at_stop`]).
    pub fn walk_context(&self, stop: &Stop) -> Option<WalkContext> {
        self.registers_at_stop(stop).map(|r| WalkContext {
            cs: r.cs,
            ip: r.ip,
            ss: r.ss,
            sp: r.sp,
            bp: r.bp,
        })
    }

    /// TOOLHELP's pass-on address, the CS:IP of a fault dispatch frame,
    /// when TOOLHELP is loaded (walk/dispatch.rs).
    pub fn dispatch_address(&self) -> Option<(u16, u16)> {
        self.machine
            .environment::<Env>()
            .and_then(crate::win16::fault::pass_on_address)
    }

    /// The ToolHelp walk from a stop: StackTraceCSIPFirst at the stopped
    /// context (the fault, the caller of an unimplemented function, or the
    /// live registers), then StackTraceNext until it fails, seeing through
    /// a fault dispatch frame when the stop is inside an InterruptRegister
    /// callback (walk/dispatch.rs). None when the program has exited.
    pub fn walk_at_stop(&self, stop: &Stop) -> Option<Walk> {
        // A fault no callback handled: the walk taken at the fault (the
        // task may have ended and others run since).
        if let Some(u) = match stop {
            Stop::Fault(f) => self.unhandled(f),
            _ => None,
        } {
            return Some(u.walk.clone());
        }
        let c = self.walk_context(stop)?;
        let mem = &*self.machine as &dyn WalkMemory;
        let walk = walk_from_csip(mem, c.ss, c.cs, c.ip, c.bp, MAX_FRAMES);
        // Inside an InterruptRegister callback: on through the dispatch
        // frame to the faulting context (walk/dispatch.rs).
        Some(match self.dispatch_address() {
            Some(d) => crate::walk::dispatch::through_dispatch(mem, walk, d, MAX_FRAMES),
            None => walk,
        })
    }

    /// The record of this unhandled fault in a Win16 task (win16/fault.rs,
    /// the default action).
    pub fn unhandled(&self, f: &crate::machine::Fault) -> Option<&crate::win16::fault::Unhandled> {
        self.machine
            .environment::<Env>()?
            .win16
            .toolhelp
            .unhandled
            .iter()
            .rev()
            .find(|u| {
                (u.fault.cs, u.fault.ip, u.fault.number, u.fault.regs)
                    == (f.cs, f.ip, f.number, f.regs)
            })
    }

    /// The STACKFRAME64 walk from a stop (walk/stackframe.rs), the first
    /// STACKFRAME64 filled by `start`'s convention; the same frames as
    /// [`Program::walk_at_stop`]. None when the program has exited.
    pub fn stackframe_walk(&self, stop: &Stop, start: Start) -> Option<FrameWalk> {
        let c = self.walk_context(stop)?;
        let mem = &*self.machine as &dyn WalkMemory;
        Some(walk_with_start(
            mem,
            c,
            start,
            self.dispatch_address(),
            MAX_FRAMES,
        ))
    }

    /// A snapshot of the machine for the walk from a stop
    /// (walk/snapshot.rs), with its expected frames.
    pub fn snapshot(&self, stop: &Stop, source: Option<Source>) -> Result<Snapshot, String> {
        let regs = self
            .registers_at_stop(stop)
            .ok_or("the program has ended: there is no stack to save")?;
        crate::walk::snapshot::capture(
            &*self.machine as &dyn WalkMemory,
            regs.into(),
            self.dispatch_address(),
            source,
            MAX_FRAMES,
        )
    }

    /// The screen as a PNG: for a Win16 program the picture it last
    /// showed before the session's default WM_CLOSE, else the screen now
    /// (gdi/screen.rs); for a DOS program its text or graphics screen
    /// (dos/picture.rs).
    pub fn screenshot_final(&self) -> Result<Vec<u8>, String> {
        screenshot_of(self.env(), &self.machine, self.is_real_mode())
    }

    /// The screen now, as a PNG.
    pub fn screenshot_now(&self) -> Result<Vec<u8>, String> {
        if self.is_real_mode() {
            return crate::dos::picture::render(&self.machine).png();
        }
        crate::win16::gdi::screen::current_png(&self.env().win16.gdi)
    }

    /// A real-mode program (DOS, raw image): its screen is the VGA's.
    fn is_real_mode(&self) -> bool {
        !matches!(self.loaded, Loaded::Ne { .. })
    }

    /// Write a numbered screenshot into `dir` every `every` instructions
    /// (0: none) and after each WM_PAINT (gdi/screen.rs) or, for a DOS
    /// program, before each video mode set (dos/picture.rs), at most
    /// [`MAX_SHOTS`] files.
    pub fn start_screenshots(&mut self, dir: &Path, every: u64) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if let Some(env) = self.machine.environment_mut::<Env>() {
            env.win16.gdi.shots.series = Some(crate::win16::gdi::screen::Series::new(
                dir.to_path_buf(),
                every,
                MAX_SHOTS,
            ));
        }
        if every > 0 {
            self.machine
                .add_observer(Box::new(ScreenSeries { every, next: every }));
        }
        Ok(())
    }

    /// Screenshots the series wrote, and its first error.
    pub fn screenshots_written(&self) -> (u32, Option<String>) {
        match &self.env().win16.gdi.shots.series {
            Some(s) => (s.written(), s.error.borrow().clone()),
            None => (0, None),
        }
    }

    /// The final 80x25 text screen (real mode), one line per row.
    pub fn screen_text(&self) -> String {
        crate::dos::screen::text(&self.machine)
    }

    /// A module name for a frame's hModule.
    /// The symbol naming code address `cs:ip`, `"NAME+0x12"` (or `"NAME"`
    /// at its first byte), or None when no symbol source names it.
    /// (Symbol sources arrive with the symbols module; until then: None.)
    pub fn symbol_at(&self, cs: u16, ip: u16) -> Option<String> {
        self.symbol_ref(cs, ip).map(|s| s.to_string())
    }

    /// The symbol of frame `i` of a walk: the first frame and a fault
    /// dispatch's frame hold the exact CS:IP, the others return addresses,
    /// named from the byte before them (Env::frame_symbol). None past the
    /// walk's end or when no symbol source names the address.
    pub fn frame_symbol(&self, w: &Walk, i: usize) -> Option<crate::symbols::SymbolRef> {
        let f = w.frames.get(i)?;
        self.env()
            .frame_symbol(&*self.machine, f.w_cs, f.w_ip, w.exact_at(i))
    }

    /// The source line of frame `i` of a walk, from debug information (a
    /// return address from the byte before it, as [`Program::frame_symbol`]).
    pub fn frame_line(&self, w: &Walk, i: usize) -> Option<crate::symbols::lines::SourceLine> {
        let f = w.frames.get(i)?;
        self.env()
            .frame_line(&*self.machine, f.w_cs, f.w_ip, w.exact_at(i))
    }

    /// The parameters of frame `i` of a walk, with their places and
    /// values, from debug information ([`Env::frame_params`]).
    pub fn frame_params(&self, w: &Walk, i: usize) -> Vec<crate::symbols::lines::ParamValue> {
        let Some(f) = w.frames.get(i) else {
            return Vec::new();
        };
        self.env().frame_params(&*self.machine, f, w.exact_at(i))
    }

    /// [`Program::symbol_at`] with the raw (undemangled) name and source.
    pub fn symbol_ref(&self, cs: u16, ip: u16) -> Option<crate::symbols::SymbolRef> {
        self.env().symbol_at(&*self.machine, cs, ip)
    }

    /// Font warnings not yet said (font files missing or unreadable), each
    /// once; none before a program first used a font.
    pub fn font_warnings(&self) -> Vec<String> {
        self.env().win16.gdi.fonts.take_warnings()
    }

    /// Symbol warnings not yet said (a map beside a module that does not
    /// fit it), each once.
    pub fn symbol_warnings(&self) -> Vec<String> {
        self.env().symbols.take_warnings()
    }
}

/// `MODULE!NAME` from the symbol tables of `env`: the address of the one
/// symbol of that name (raw or demangled, any case).
fn resolve_symbol(env: &Env, module: &str, name: &str) -> Result<Option<(u16, u16)>, String> {
    {
        let (table, segments, dos) = if let Some(m) = env.win16.module_by_name(module) {
            (env.symbol_table(Some(m.hmodule))?, m.segments.clone(), None)
        } else if env
            .program_name
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(module))
            && env.dos_program.is_some()
        {
            (
                env.symbol_table(None)?,
                Vec::new(),
                env.dos_program.as_ref().map(|p| p.base_seg),
            )
        } else {
            return Err(format!("no module named {module} is loaded"));
        };
        let Some(table) = table else {
            return Ok(None);
        };
        let mut places: Vec<(u16, u16)> = Vec::new();
        for s in table.by_name(name) {
            let place = match (dos, s.frame) {
                (Some(base), Some(fo)) => base
                    .checked_add(fo.frame)
                    .zip(u16::try_from(fo.offset).ok()),
                _ => segments
                    .get(usize::from(s.segment).wrapping_sub(1))
                    .copied()
                    .zip(u16::try_from(s.offset).ok()),
            };
            if let Some(p) = place {
                if !places.contains(&p) {
                    places.push(p);
                }
            }
        }
        match places.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => Err(format!(
                "{module}!{name} is ambiguous: {} symbols have that name ({}); give MODULE:SEG:OFF",
                many.len(),
                table
                    .by_name(name)
                    .iter()
                    .map(|s| format!("{} at {}:{:04X}", s.raw, s.segment, s.offset))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

impl Program {
    /// The name of the module a frame's hModule names, or None.
    pub fn module_name(&self, frame: &StackTraceEntry) -> Option<String> {
        match self.machine.cpu_mode() {
            CpuMode::Protected => self
                .env()
                .win16
                .modules
                .iter()
                .find(|m| m.hmodule == frame.h_module && frame.h_module != 0)
                .map(|m| m.name.clone()),
            CpuMode::Real => {
                WalkMemory::code_owner(&*self.machine, frame.w_cs)?;
                self.path
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_ascii_uppercase())
            }
        }
    }
}

/// The screen as `run --screenshot` writes it, from a run's environment
/// and machine (`real_mode`: a DOS program or raw image, whose screen is
/// the VGA's): [`Program::screenshot_final`], and `serve`'s pages at any
/// moment.
pub fn screenshot_of(
    env: &Env,
    uc: &crate::machine::Uc<'_>,
    real_mode: bool,
) -> Result<Vec<u8>, String> {
    if real_mode {
        return crate::dos::picture::final_png(env, uc, env.dos.shots.ended);
    }
    let shown = env.win16.user.live().any(|w| !w.is_child() && w.visible());
    crate::win16::gdi::screen::final_png(&env.win16.gdi, shown)
}
