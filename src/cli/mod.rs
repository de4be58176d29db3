//! The `toolhelp16` command line: a thin layer over the library.
//!
//! Exit status: a program that exits gives its own exit code; otherwise
//! [`EXIT_FAULT`] for a processor fault, [`EXIT_BUDGET`] when the instruction
//! budget ran out, [`EXIT_TIMEOUT`] for the wall-clock limit,
//! [`EXIT_UNIMPLEMENTED`] when the program called something not implemented,
//! [`EXIT_HUNG`] when it halted with interrupts disabled,
//! [`EXIT_LOAD`] when the file cannot be loaded (or an output file cannot be
//! written), [`EXIT_INTERNAL`] only for a bug in toolhelp16 itself: every
//! condition a program can cause ends as the machine would answer it (a
//! fault, a DOS error code), never with that code. `stack` exits 0 when it printed a walk.
//! `snapshot` exits 0 when it wrote the file. `walk` exits 0 when the
//! walk agrees with the snapshot's expected frames (or there are none),
//! [`EXIT_MISMATCH`] when it does not, [`EXIT_WALK_FAILED`] when its first
//! step fails (the IStackWalker start always does), and [`EXIT_LOAD`] when
//! the snapshot cannot be read.

pub mod bench;
mod bench_dosbox;
#[cfg(unix)]
pub mod crash;
pub mod debug;
pub mod disasm;
mod heapcmd;
pub mod json;
pub mod nearptr;
pub mod output;
mod resume;
mod servecmd;
pub mod tracecmd;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::loader::KindHint;
use crate::machine::{RunLimits, Stop};
use crate::session::{self, LoadOptions, Loc};

/// A fault stopped the program.
pub const EXIT_FAULT: i32 = 121;
/// The instruction budget ran out.
pub const EXIT_BUDGET: i32 = 122;
/// The wall-clock limit ran out.
pub const EXIT_TIMEOUT: i32 = 123;
/// The program called a function that is not implemented.
pub const EXIT_UNIMPLEMENTED: i32 = 124;
/// The file could not be loaded (or a LOC could not be resolved).
pub const EXIT_LOAD: i32 = 120;
/// A bug in toolhelp16 (the message says so and what to report).
pub const EXIT_INTERNAL: i32 = 125;

/// What an internal error says after itself.
pub const BUG_REPORT: &str = session::BUG_REPORT;
/// The program waited for input the run does not have (an empty `--keys`).
pub const EXIT_NO_INPUT: i32 = 126;
/// The program ended itself with a fatal error (FatalExit, FatalAppExit).
pub const EXIT_FATAL: i32 = 127;
/// The program halted with interrupts disabled (`cli; hlt`): the machine
/// would hang there.
pub const EXIT_HUNG: i32 = 117;
/// `walk`: the walk disagrees with the snapshot's expected frames;
/// `--resume`: the replay did not reach the checkpoint file's state.
pub const EXIT_MISMATCH: i32 = 118;
/// `walk`: the first step failed (an ADDRESS could not be translated).
pub const EXIT_WALK_FAILED: i32 = 119;

#[derive(Parser, Debug)]
#[command(
    name = "toolhelp16",
    version,
    about = "Run 16-bit x86 programs and walk their stacks as Windows 3.1 TOOLHELP.DLL did",
    after_help = EXIT_STATUS_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The exit statuses, as `--help` and the man page list them (README,
/// "Exit status", has the same rows: tests/help.rs).
const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    done: the program exited with 0, LOC was reached, the walk agrees
  N    run: the program's own exit code
  1    stack --verify disagrees; stack, snapshot, heap: LOC not reached, the program exited with 0
  2    a usage error (an unknown option, a malformed value)
  116  the tool crashed (a signal: SIGSEGV in the emulation engine, a stack overflow, an abort)
  117  the program halted with interrupts disabled (cli; hlt)
  118  walk: the walk disagrees with the snapshot's expected frames; --resume: the state differs from the file's
  119  walk: the first step fails
  120  a file cannot be loaded or written, or a LOC cannot be resolved
  121  a fault ended the program
  122  the instruction budget (--max-insns) ran out
  123  the wall-clock limit (--timeout) ran out
  124  the program called something not implemented
  125  a bug in toolhelp16 itself
  126  the program waits for input the run does not have
  127  the program ended itself with a fatal error (FatalExit, FatalAppExit)

With --json, an error is a JSON object on stdout (docs/schema/error.json).

LOC (stack --at, snapshot --at, trace --from/--to, --inject-fault, disasm --at,
debug and gdb's monitor break):
  MODULE:SEG:OFF    NE segment number (decimal), offset (hex): DEMO:1:3A; for a DOS
                    program a paragraph of its load image (hex): MZFAR:0:2A, MZFAR:A:75
  SEG:OFF           a segment or selector and offset, both hex: 102F:003A
  MODULE!NAME       a name from the NE names tables, a .MAP or .SYM, or a built-in
                    DLL's function (any case): DEMO!WinMain, USER!GetMessage
  MODULE!#N         entry ordinal N: GDI!#20
  MODULE.N          the same, as reports print it: KERNEL.91
  +N                after N instructions
  LOC+prologue      after the prologue of the function at LOC, where its frame exists

Examples:
  toolhelp16 demo
  toolhelp16 stack --at DEMO:1:3A roms/demo.exe
  toolhelp16 stack --at USER!GetMessage prog.exe
  toolhelp16 stack --verify --at DEMO!OnEraseBkgnd+prologue roms/demo.exe
  toolhelp16 run --events 'GDI!TextOut,KERNEL!LocalAlloc' prog.exe
  toolhelp16 disasm --at KERNEL!GetVersion prog.exe
  toolhelp16 info roms/demo.exe

Documentation: README.md and docs/ of toolhelp16's source (`toolhelp16 COMMAND
--help` for each command).";

/// Options shared by the commands that run a program.
#[derive(clap::Args, Debug, Clone)]
pub struct RunOpts {
    /// Instruction budget (0 = none, the default: the wall-clock limit
    /// ends a runaway program; a budget makes the machine count every
    /// block, machine/counter.rs).
    #[arg(long, default_value_t = 0)]
    pub max_insns: u64,
    /// Wall-clock limit in seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// `debug`, `gdbserver`, `run --gdb`: memory in MiB for the
    /// checkpoints that reverse execution replays from (src/debug/
    /// checkpoint.rs; the oldest are thinned out past it); 0 = none,
    /// every replay from the program's start.
    #[arg(long, value_name = "MIB", default_value_t = crate::debug::checkpoint::DEFAULT_MEMORY >> 20)]
    pub checkpoint_memory: u64,
    /// Take a checkpoint every N positions instead of an interval that
    /// adapts to the run (tests: checkpoints in short programs).
    #[arg(long, value_name = "N", default_value_t = 0, hide = true)]
    pub checkpoint_every: u64,
    /// Load a raw image at SEG:OFF (hex) instead of detecting the format.
    #[arg(long, value_name = "SEG:OFF", requires = "entry", value_parser = checked(parse_segoff))]
    pub load: Option<String>,
    /// Entry point SEG:OFF (hex) of a raw image.
    #[arg(long, value_name = "SEG:OFF", requires = "load", value_parser = checked(parse_segoff))]
    pub entry: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Standard input for the program, from a file (default: this
    /// process's standard input, read when the program first asks).
    #[arg(long, value_name = "FILE")]
    pub stdin: Option<PathBuf>,
    /// Keys typed on the keyboard, for INT 16h and (without --stdin) DOS's
    /// console reads: text, with {enter}, {esc}, {tab}, {bs}, {up}, {down},
    /// {left}, {right}, {f1}..{f10}, {ctrl-a}..{ctrl-z}. When used up, a
    /// program waiting for a key stops (exit 126) instead of hanging.
    #[arg(long, value_name = "SCRIPT", default_value = "", value_parser = checked(crate::dos::parse_keys))]
    pub keys: String,
    /// Install a mouse driver (INT 33h) for a DOS program and move its
    /// mouse: `move X Y` (virtual screen, 8 pixels a text cell), `press`,
    /// `release` or `click` `left`/`right`, `wait TICKS`; separated by `;`
    /// or newlines, one step per timer tick. Without it there is no driver.
    #[arg(long, value_name = "SCRIPT", value_parser = checked(crate::dos::mouse::parse_script))]
    pub mouse: Option<String>,
    /// A fixed clock, "YYYY-MM-DD HH:MM:SS", for reproducible runs (default:
    /// the host's clock, UTC).
    #[arg(long, value_name = "TIME", value_parser = checked(crate::dos::clock::DateTime::parse))]
    pub clock: Option<String>,
    /// Add NAME=VALUE to the DOS environment (repeatable).
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = checked(env_pair))]
    pub env: Vec<String>,
    /// Print the final 80x25 text screen after the run.
    #[arg(long)]
    pub screen: bool,
    /// Say no warnings on stderr (a font file or a symbol file that is
    /// missing, not used or does not fit); errors are still said.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Print what the program did, after the run: the Win16 API calls
    /// (relay log), messages and boxes, the DOS and BIOS interrupt calls
    /// with their registers and results, and port I/O (ports read FFh).
    /// With a FILTER, only the system calls it names, as winedbg's relay
    /// filters: `--events USER!*`, `--events GDI!TextOut,KERNEL!LocalAlloc`
    /// (MODULE!NAME, MODULE!#N, MODULE.N, MODULE!PREFIX*, MODULE!*; any
    /// case).
    #[arg(long, value_name = "FILTER", num_args = 0..=1, require_equals = true,
          default_missing_value = "", value_parser = checked(events_filter))]
    pub events: Option<String>,
    /// Input for Win16 programs, one command per line: `key NAME`, `char C`,
    /// `click X Y [right]`, `command ID`, `scroll vert|horz CODE [N]`,
    /// `timer [N]`, `close`, `msgbox ANSWER`, `dialog ANSWER`, `type ID
    /// TEXT`, `click-id ID`, `select ID ITEM`, `# comment`, each optionally
    /// prefixed `@MODULE` (README, "Windows, messages and scripted input").
    #[arg(long, value_name = "FILE")]
    pub messages: Option<PathBuf>,
    /// Write an invalid opcode (UD2) over the instruction at LOC once the
    /// program is loaded (MODULE:SEG:OFF, SEG:OFF, MODULE!NAME ...): it
    /// faults there, and the report shows the walk from that point.
    #[arg(long, value_name = "LOC")]
    pub inject_fault: Option<String>,
    /// A linker map (Microsoft LINK or Open Watcom wlink) naming the code
    /// of MODULE (default: the module the map names, else the file's
    /// stem); repeatable. Without it, STEM.map beside each module's file
    /// is used when it fits.
    #[arg(long = "map", value_name = "[MODULE=]FILE")]
    pub maps: Vec<String>,
    /// A MAPSYM .SYM file (versions 3.x to 6.x), as --map; without it,
    /// STEM.sym beside each module's file.
    #[arg(long = "sym", value_name = "[MODULE=]FILE")]
    pub syms: Vec<String>,
    /// Do not look for STEM.map / STEM.sym beside the modules (the NE
    /// names tables and --map/--sym still name code).
    #[arg(long)]
    pub no_symbol_search: bool,
    /// The host directory the program sees as drive C:, read-write (nothing
    /// outside it is read or written). Without it the program sees its own
    /// directory read-only: what it writes goes to a temporary overlay,
    /// discarded at the end, and the report lists it.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Without --dir: keep the program's writes in DIR (made if missing; it
    /// must be empty) instead of discarding them.
    #[arg(long, value_name = "DIR", conflicts_with = "dir")]
    pub keep_writes: Option<PathBuf>,
    /// The most the program may add to the host disk through drive C:
    /// (bytes, or with K, M or G for KiB, MiB, GiB); past it its writes are
    /// short, as on a full disk.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub disk_quota: u64,
    /// A directory of Windows raster fonts (.FON files: vgasys.fon,
    /// sserife.fon ...), searched first; then the directories of
    /// TOOLHELP16_FONTS, or /usr/share/wine/fonts when that variable is
    /// not set.
    #[arg(long, value_name = "DIR")]
    pub fonts: Option<PathBuf>,
    /// The display Win16 programs draw on: WIDTHxHEIGHTxBPP with 4 (16
    /// colours, VGA), 8 (256, palette) or 24 (true colour) bits per pixel
    /// (default 640x480x4, the standard VGA).
    #[arg(long, value_name = "WxHxBPP", value_parser = checked(crate::win16::gdi::devcaps::DisplayMode::parse))]
    pub display: Option<String>,
    /// How a Win16 program's main window is first shown: WinMain's
    /// nCmdShow, a number or a name (hide 0, normal 1, minimized 2,
    /// maximized 3, noactivate 4, show 5, minimize 6, minnoactive 7, na 8,
    /// restore 9); default normal (SW_SHOWNORMAL), as Program Manager
    /// started programs.
    #[arg(long, value_name = "N|NAME", value_parser = checked(parse_show))]
    pub show: Option<String>,
    /// A host directory whose files appear in C:\WINDOWS for a Win16
    /// program, above the built-in WIN.INI, SYSTEM.INI, CONTROL.INI and
    /// PROGMAN.INI of a fresh Windows 3.1 set-up (its own WIN.INI, a
    /// DLL): read-only, the program's writes going where drive C:'s go.
    #[arg(long, value_name = "DIR")]
    pub windows: Option<PathBuf>,
}

/// `--show`: an SW_ value by number (0-9) or name.
pub fn parse_show(s: &str) -> Result<u16, String> {
    const NAMES: [&str; 10] = [
        "hide",
        "normal",
        "minimized",
        "maximized",
        "noactivate",
        "show",
        "minimize",
        "minnoactive",
        "na",
        "restore",
    ];
    let t = s.trim().to_ascii_lowercase();
    let t = t.strip_prefix("sw_").unwrap_or(&t);
    let t = t
        .strip_prefix("show")
        .filter(|r| !r.is_empty())
        .unwrap_or(t);
    if let Ok(n) = t.parse::<u16>() {
        if usize::from(n) < NAMES.len() {
            return Ok(n);
        }
    }
    NAMES
        .iter()
        .position(|n| *n == t)
        .map(|i| i as u16)
        .ok_or_else(|| format!("--show {s}: expected 0-9 or one of {}", NAMES.join(", ")))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Describe an executable: format, header, segments, imports, exports.
    Info {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        /// Also look for imported DLLs in this directory (the run's drive
        /// C:), as `run --dir` would.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Run a program to exit, fault or budget. Several Win16 programs run
    /// together as tasks under the cooperative scheduler; the first named
    /// runs first and its exit code is the run's.
    Run {
        #[command(flatten)]
        opts: RunOpts,
        /// Write the screen as a PNG: as the program last showed it before
        /// the headless session closed its windows, or at the stop when
        /// the run ended otherwise (Win16 programs); a DOS program's text or
        /// graphics screen at the stop, or the graphics screen it left when
        /// it exited in text mode.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        /// Write numbered screenshots (screen-00001.png …) into DIR: one
        /// after each WM_PAINT (a DOS program: before each video mode
        /// set), and one every --every instructions.
        #[arg(long, value_name = "DIR")]
        screenshots: Option<PathBuf>,
        /// Instructions between the screenshots of --screenshots (0: only
        /// after paints).
        #[arg(long, value_name = "N", default_value_t = 0, requires = "screenshots")]
        every: u64,
        /// Run under the gdb remote stub on 127.0.0.1:PORT instead (as
        /// `gdbserver --listen PORT`).
        #[arg(long, value_name = "PORT")]
        gdb: Option<u16>,
        /// Resume a checkpoint file (`snapshot --resumable`): its program
        /// from its stop on, the state there checked (docs/debugging.md,
        /// "Checkpoint files"); the file holds the run options.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["files", "screenshots"])]
        resume: Option<PathBuf>,
        #[arg(required_unless_present = "resume", num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The program's command tail.
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Serve the program to gdb (or any client of gdb's remote protocol):
    /// it stops before its first instruction; addresses are linear,
    /// `monitor help` lists the tool's own views (docs/debugging.md).
    #[command(
        mut_arg("json", |a| a.hide(true)),
        mut_arg("screen", |a| a.hide(true)),
        mut_arg("events", |a| a.hide(true))
    )]
    Gdbserver {
        #[command(flatten)]
        opts: RunOpts,
        /// Where to listen: PORT (on 127.0.0.1), or ADDRESS:PORT, an IP
        /// address named explicitly to listen beyond the loopback
        /// address. Port 0 picks a free port (said on stderr).
        #[arg(long, value_name = "[ADDRESS:]PORT", default_value = "127.0.0.1:1234")]
        listen: String,
        /// Start at a checkpoint file's stop (`snapshot --resumable`),
        /// the state there checked; reverse execution still goes back to
        /// the program's start.
        #[arg(long, value_name = "FILE", conflicts_with = "files")]
        resume: Option<PathBuf>,
        #[arg(required_unless_present = "resume", num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Debug the program in a command session: break, continue, step,
    /// next, finish, bt (the ToolHelp walk), x, regs, disasm, watch,
    /// reverse-stepi, reverse-continue (`help` lists them).
    #[command(
        mut_arg("json", |a| a.hide(true)),
        mut_arg("screen", |a| a.hide(true)),
        mut_arg("events", |a| a.hide(true))
    )]
    Debug {
        #[command(flatten)]
        opts: RunOpts,
        /// Read the commands from FILE instead of the terminal (one a
        /// line; `#` starts a comment); the session ends with the file.
        #[arg(long, value_name = "FILE")]
        commands: Option<PathBuf>,
        /// Start at a checkpoint file's stop (`snapshot --resumable`),
        /// the state there checked; reverse execution still goes back to
        /// the program's start.
        #[arg(long, value_name = "FILE", conflicts_with = "files")]
        resume: Option<PathBuf>,
        #[arg(required_unless_present = "resume", num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Serve the run as web pages, one per moment (/at/N: after N
    /// instructions): the screen, registers, disassembly, the ToolHelp
    /// walk, the tasks, and a timeline to step either way, go to a
    /// position, run to a breakpoint or the next system call. A program
    /// (run under the debugger, with the run options) or a recording
    /// (`--recording FILE`, made by `trace --record`).
    #[command(
        mut_arg("json", |a| a.hide(true)),
        mut_arg("screen", |a| a.hide(true)),
        mut_arg("events", |a| a.hide(true))
    )]
    Serve {
        #[command(flatten)]
        opts: RunOpts,
        /// Where to listen: PORT (on 127.0.0.1), or ADDRESS:PORT, an IP
        /// address named explicitly to listen beyond the loopback
        /// address. Port 0 (the default) picks a free port; the URL is
        /// printed.
        #[arg(long, value_name = "[ADDRESS:]PORT", default_value = "127.0.0.1:0")]
        listen: String,
        /// Serve this recording (`trace --record FILE`): its program is
        /// run again as the recording names it.
        #[arg(long, value_name = "FILE", conflicts_with = "files")]
        recording: Option<PathBuf>,
        #[arg(num_args = 0.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Run until LOC is about to execute and print the ToolHelp walk there.
    Stack {
        #[command(flatten)]
        opts: RunOpts,
        /// MODULE:SEG:OFF, SEG:OFF, MODULE!NAME, MODULE!#N, MODULE.N or +N;
        /// a built-in DLL's function too (USER!GetMessage, GDI!#20, KERNEL.91).
        #[arg(long)]
        at: String,
        /// After the current task's walk, walk every other task from the
        /// state the scheduler saved (StackTraceFirst), each headed by its
        /// TASKENTRY.
        #[arg(long)]
        all_tasks: bool,
        /// Check the walk against the shadow call stack kept from the
        /// executed calls and returns; exit 1 when they disagree.
        #[arg(long)]
        verify: bool,
        /// Back trace (RtlCaptureStackBackTrace): frames to skip from the
        /// innermost.
        #[arg(long, value_name = "N", default_value_t = 0)]
        skip: usize,
        /// Back trace: the most addresses to capture, FramesToCapture
        /// (default: all). (`trace --max` counts instructions; this counts
        /// frames, hence its own name.)
        #[arg(long = "max-frames", value_name = "N")]
        max: Option<usize>,
        /// Narrate the walk rule by rule as docs/walk.md gives the rules,
        /// with the values each rule saw, and where and why it stopped.
        #[arg(long)]
        explain: bool,
        /// Draw the stack as SVG into FILE: the words from SP up, a band
        /// per frame, the BP chain's arrows, the bounds, the selector's
        /// translation, every return address.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Write a self-contained HTML page into FILE: the SVG picture, the
        /// frames and the words as tables, and the narrated walk (and, for
        /// a Win16 program, the screen at the stop).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Write the screen at the stop as a PNG (Win16 or DOS programs).
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        #[arg(required = true, num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Show the heaps at a stop as TOOLHELP's walks give them (HEAPWALK's
    /// views): the global heap (GlobalFirst, GlobalNext) and, with
    /// --local, one local heap (LocalFirst, LocalNext).
    Heap {
        #[command(flatten)]
        opts: RunOpts,
        /// Stop when LOC is about to execute (as `stack --at`; +N: after N
        /// instructions); without it, where the run ends.
        #[arg(long, value_name = "LOC")]
        at: Option<String>,
        /// The local heap to list: a module's (its automatic data
        /// segment; USER is USER's data segment, USER.MENU and USER.STRING
        /// its menu and string heaps) or a segment's, by selector or
        /// handle in hex.
        #[arg(long, value_name = "MODULE|SELECTOR")]
        local: Option<String>,
        #[arg(required = true, num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Trace every executed instruction: CS:IP, MODULE:SEG:OFF, bytes and
    /// disassembly (JSON lines with --json), to stdout or -o FILE.
    Trace {
        #[command(flatten)]
        opts: RunOpts,
        /// Disassembly syntax.
        #[arg(long, value_enum, default_value_t)]
        syntax: crate::trace::Syntax,
        /// Show the registers each instruction changed (a hook per
        /// instruction: much slower).
        #[arg(long)]
        regs: bool,
        /// Start tracing at LOC.
        #[arg(long, value_name = "LOC")]
        from: Option<String>,
        /// Stop the run when LOC is about to execute.
        #[arg(long, value_name = "LOC")]
        to: Option<String>,
        /// Only instructions of module NAME.
        #[arg(long, value_name = "NAME")]
        module: Option<String>,
        /// Stop after N traced instructions.
        #[arg(long, value_name = "N")]
        max: Option<u64>,
        /// Write the trace to FILE instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write a step-through HTML page into FILE instead: each
        /// instruction with the registers and the stack after it, moved
        /// through with the keyboard (for short programs: at most --max
        /// steps, 2000 when not given, 10000 at most).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["output", "regs"])]
        html: Option<PathBuf>,
        /// Record the executed blocks into FILE instead, at nearly
        /// untraced speed (a compact binary log, docs/trace-recording.md);
        /// --replay FILE writes the trace from it after the run.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["replay", "regs", "html", "from", "module", "max", "output"])]
        record: Option<PathBuf>,
        /// Write the trace of the run recorded in FILE (by --record)
        /// without running the program; --json, --output, --from,
        /// --module, --max and --syntax apply. With --regs or --html the
        /// recorded program runs again, and must take the recorded path.
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
        #[arg(required_unless_present = "replay", num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Sample the shadow call stack every N instructions: folded stacks
    /// (stdout or --folded FILE) and an SVG flame graph (--svg FILE).
    Profile {
        #[command(flatten)]
        opts: RunOpts,
        /// Instructions between samples.
        #[arg(long, default_value_t = 1000)]
        every: u64,
        #[arg(long, value_name = "FILE")]
        folded: Option<PathBuf>,
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[arg(required = true, num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Measure emulation, tracing, walking and loading speed, and print
    /// the figures with their ratios.
    Bench {
        /// Small sizes (a smoke test; the figures mean little).
        #[arg(long)]
        quick: bool,
        /// Only the sections whose names are given (comma-separated):
        /// emulation, tracing, record, debug, reverse (reverse-stepi deep
        /// into a debugged run), smc, syscall, walk, corpus, dosbox, load,
        /// draw, text.
        #[arg(long, value_delimiter = ',',
              value_parser = clap::builder::PossibleValuesParser::new(bench::SECTIONS))]
        only: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run until LOC and save the machine for the walk there as a JSON
    /// snapshot (descriptor tables, the memory the walk reads, registers,
    /// mode, and the expected STACKFRAME64 frames).
    Snapshot {
        #[command(flatten)]
        opts: RunOpts,
        /// MODULE:SEG:OFF, SEG:OFF, MODULE!NAME, MODULE!#N, MODULE.N or +N;
        /// a built-in DLL's function too (USER!GetMessage, GDI!#20, KERNEL.91).
        #[arg(long)]
        at: String,
        /// The snapshot file to write.
        #[arg(short = 'o', long = "output", value_name = "OUT.json")]
        output: PathBuf,
        /// Also make it a checkpoint file: the program, the files of its
        /// drive C:, the run options and the stop's position and state,
        /// for `run`, `debug` and `gdbserver --resume FILE` to go on from
        /// the stop (docs/debugging.md, "Checkpoint files").
        #[arg(long)]
        resumable: bool,
        #[arg(required = true, num_args = 1.., value_name = "FILE")]
        files: Vec<PathBuf>,
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Walk a snapshot with STACKFRAME64 steps and compare the frames with
    /// the ones it expects.
    Walk {
        /// The snapshot (JSON).
        snapshot: PathBuf,
        /// How the first STACKFRAME64 is filled: native (the machine's own
        /// mode), flat (linear addresses), istackwalker (OLE32's bug:
        /// AddrFrame's Mode left 0 = AddrMode1616).
        #[arg(long, value_name = "START", default_value = "native")]
        init: crate::walk::stackframe::Start,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Convert a linker map (Microsoft LINK or wlink) into a MAPSYM 5.1
    /// .SYM file, as Microsoft's MAPSYM did: one segment per physical
    /// segment of the map, its publics sorted by value.
    Mapsym {
        /// The .MAP file.
        map: PathBuf,
        /// The .SYM file to write (default: the map's stem + .sym, beside
        /// it).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print what was written as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// List a module's code without running it: each instruction with its
    /// bytes, symbols and entry points marked, relocations resolved to
    /// their targets (`call far USER.MessageBox`, `seg DGROUP`). NE: every
    /// code segment, or --segment N; MZ: from the entry to the end of its
    /// segment; COM: from 0100h.
    Disasm {
        file: PathBuf,
        /// One segment: its number in the NE segment table, or a DOS
        /// program's segment as the listing's heading numbers them.
        #[arg(long, value_name = "N", conflicts_with = "at")]
        segment: Option<u16>,
        /// List from LOC instead: MODULE:SEG:OFF or SEG:OFF (an NE segment
        /// number, or a DOS program's paragraph from its load image),
        /// MODULE!NAME, MODULE!#N, MODULE.N; for a built-in DLL's function
        /// (USER!GetMessage) the instructions that call it.
        #[arg(long, value_name = "LOC")]
        at: Option<String>,
        /// Instructions to list from --at (default 20).
        #[arg(long, value_name = "N", requires = "at")]
        count: Option<usize>,
        /// Disassembly syntax.
        #[arg(long, value_enum, default_value_t)]
        syntax: crate::trace::Syntax,
        /// JSON lines: one object per instruction.
        #[arg(long)]
        json: bool,
        /// A linker map naming the code (as for run).
        #[arg(long = "map", value_name = "[MODULE=]FILE")]
        maps: Vec<String>,
        /// A MAPSYM .SYM file (as for run).
        #[arg(long = "sym", value_name = "[MODULE=]FILE")]
        syms: Vec<String>,
        /// Do not look for STEM.map / STEM.sym beside the file.
        #[arg(long)]
        no_symbol_search: bool,
    },
    /// Run the bundled demo program and show its walk and stack.
    Demo {
        /// Print JSON instead of text (as `stack --json`).
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of a command's `--json` output (the files of
    /// docs/schema/), or write them all into a directory.
    #[command(
        override_usage = "toolhelp16 schema <COMMAND>\n       toolhelp16 schema --write <DIR>"
    )]
    Schema {
        /// The command: run, stack, trace, profile, bench, snapshot, walk,
        /// mapsym, disasm, demo, info, heap, or error (what an error under
        /// --json prints).
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(SCHEMA_NAMES), required_unless_present = "write")]
        command: Option<String>,
        /// Write every schema, COMMAND.json, into DIR.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        write: Option<PathBuf>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell) on stdout.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `toolhelp16 man | man -l -`;
    /// with --dir, write it and a page per command (toolhelp16-stack.1 ...)
    /// into DIR.
    Man {
        /// Write toolhelp16.1 and toolhelp16-COMMAND.1 into DIR.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The commands with a JSON schema (`schema COMMAND`).
const SCHEMA_NAMES: [&str; 13] = [
    "bench", "demo", "disasm", "error", "heap", "info", "mapsym", "profile", "run", "snapshot",
    "stack", "trace", "walk",
];

/// A value parser for clap that checks an option's value with `parse` and
/// keeps its text: a malformed value is a usage error (clap's exit status
/// 2, with the usage line), like a malformed number, and not a load
/// failure.
fn checked<T: 'static>(
    parse: fn(&str) -> Result<T, String>,
) -> impl Fn(&str) -> Result<String, String> + Clone + Send + Sync + 'static {
    move |s: &str| parse(s).map(|_| s.to_string())
}

/// `--env NAME=VALUE`: the name and the value.
fn env_pair(kv: &str) -> Result<(String, String), String> {
    let (k, v) = kv
        .split_once('=')
        .ok_or_else(|| format!("--env {kv}: expected NAME=VALUE"))?;
    if k.is_empty() {
        return Err(format!("--env {kv}: the name is empty"));
    }
    Ok((k.to_string(), v.to_string()))
}

fn parse_segoff(s: &str) -> Result<(u16, u16), String> {
    match s.parse::<Loc>()? {
        Loc::SegOff { seg, offset } => Ok((seg, offset)),
        _ => Err(format!("'{s}': expected SEG:OFF in hexadecimal")),
    }
}

/// `--disk-quota`: bytes, or a number with K, M or G (binary units).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mul) = match t.char_indices().last() {
        Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&t[..i], 1u64 << 10),
        Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&t[..i], 1 << 20),
        Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .ok_or_else(|| format!("'{s}' is not a size (bytes, or a number with K, M or G)"))
}

fn limits(o: &RunOpts) -> RunLimits {
    let secs = if o.timeout.is_finite() && o.timeout > 0.0 {
        o.timeout.min(86_400.0)
    } else {
        30.0
    };
    RunLimits {
        max_insns: o.max_insns,
        timeout: Duration::from_secs_f64(secs),
    }
}

fn load_opts(
    o: &RunOpts,
    file: &std::path::Path,
    more: &[PathBuf],
    args: &[String],
    echo: bool,
) -> Result<LoadOptions, String> {
    let kind = match (&o.load, &o.entry) {
        (Some(l), Some(e)) => KindHint::Raw {
            load: parse_segoff(l)?,
            entry: parse_segoff(e)?,
        },
        _ => KindHint::Auto,
    };
    let tail = if args.is_empty() {
        String::new()
    } else {
        format!(" {}", args.join(" "))
    };
    let stdin = match &o.stdin {
        Some(p) => Some(
            crate::loader::read_capped(p, session::MAX_STDIN_BYTES, "standard input")
                .map_err(|e| format!("--stdin {e}"))?,
        ),
        None => None,
    };
    let keys = crate::dos::parse_keys(&o.keys)?;
    let mouse = o
        .mouse
        .as_deref()
        .map(crate::dos::mouse::parse_script)
        .transpose()?;
    let clock = match &o.clock {
        Some(t) => crate::dos::clock::Clock::Fixed(crate::dos::clock::DateTime::parse(t)?),
        None => crate::dos::clock::Clock::Host,
    };
    let mut env = Vec::new();
    for kv in &o.env {
        env.push(env_pair(kv)?);
    }
    Ok(LoadOptions {
        kind,
        tail,
        echo,
        env,
        stdin,
        keys,
        mouse,
        clock,
        dir: Some(o.dir.clone().unwrap_or_else(|| own_directory(file))),
        writes: match (&o.dir, &o.keep_writes) {
            (Some(_), _) => session::Writes::Direct,
            (None, Some(k)) => session::Writes::KeptIn(k.clone()),
            (None, None) => session::Writes::Discarded,
        },
        disk_quota: o.disk_quota,
        more: more.to_vec(),
        messages: o.messages.clone(),
        symbol_files: o.syms.iter().chain(&o.maps).cloned().collect(),
        symbols_beside: !o.no_symbol_search,
        fonts: o.fonts.clone(),
        display: match &o.display {
            Some(d) => Some(crate::win16::gdi::devcaps::DisplayMode::parse(d)?),
            None => None,
        },
        log_calls: o.events.is_some(),
        cmd_show: match &o.show {
            Some(v) => parse_show(v)?,
            None => 1,
        },
        windows: o.windows.clone(),
    })
}

/// Arguments that name a host file or directory the program cannot
/// reach: it sees only `dir` as drive C: (and its current directory is
/// C:\), so `x/T.ZIP`, found from where toolhelp16 was started but not
/// inside `dir`, is not there for it. One hint each, naming `--dir`.
fn outside_drive_hints(dir: &std::path::Path, args: &[String]) -> Vec<String> {
    let Ok(root) = dir.canonicalize() else {
        return Vec::new();
    };
    let mut hints = Vec::new();
    for a in args {
        if a.starts_with('-') || (a.starts_with('/') && a.len() <= 3) {
            continue;
        }
        let host = std::path::Path::new(a);
        let Ok(full) = host.canonicalize() else {
            continue;
        };
        let inside = full.starts_with(&root);
        let there = root.join(a.replace('\\', "/")).exists();
        if !inside && !there {
            hints.push(format!(
                "the argument {a} names {} on this machine, but the program sees only {} as \
                 drive C: (its current directory C:\\): it will not find {a}; give --dir with a \
                 directory holding both, or copy the file beside the program",
                full.display(),
                root.display()
            ));
        }
    }
    hints
}

/// The directory a program's file lies in (`.` for a bare file name).
fn own_directory(file: &std::path::Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Load `file` with the run options and run it, to `at` when given,
/// calling `setup` between loading and running (to add
/// observers: the tracer, the shadow call stack, the profiler).
pub(crate) fn load_and_run_with(
    opts: &RunOpts,
    files: &[PathBuf],
    args: &[String],
    echo: bool,
    at: Option<(&Loc, &str)>,
    setup: &mut dyn FnMut(&mut session::Program) -> Result<(), String>,
) -> Result<(session::Program, Stop), i32> {
    let (file, more) = files
        .split_first()
        .ok_or_else(|| fail(EXIT_LOAD, "no program named"))?;
    let lo = load_opts(opts, file, more, args, echo).map_err(|e| fail(EXIT_LOAD, &e))?;
    let mut prog = session::load(file, &lo).map_err(|e| fail(EXIT_LOAD, &e.to_string()))?;
    warn_symbols(&prog, opts.quiet);
    if !opts.quiet {
        if let Some(dir) = &lo.dir {
            for hint in outside_drive_hints(dir, args) {
                tell(&format!("toolhelp16: note: {hint}\n"));
            }
        }
    }
    if let Some(text) = &opts.inject_fault {
        let loc: Loc = text
            .parse()
            .map_err(|e: String| fail(EXIT_LOAD, &format!("--inject-fault {text}: {e}")))?;
        prog.inject_invalid_opcode(&loc).map_err(|e| {
            fail(
                EXIT_LOAD,
                &format!("{}: --inject-fault {text}: {e}", file.display()),
            )
        })?;
    }
    setup(&mut prog).map_err(|e| fail(EXIT_LOAD, &format!("{}: {e}", file.display())))?;
    if let Some(filter) = opts.events.as_deref().filter(|f| !f.is_empty()) {
        // Only the calls the filter names (win16/relayfilter.rs), from
        // the load's on.
        let f = crate::win16::relayfilter::RelayFilter::parse(filter)
            .map_err(|e| fail(EXIT_LOAD, &e))?;
        let st = prog.machine.get_data_mut();
        st.events.retain(|e| f.keeps_event(e));
        st.event_filter = Some(Box::new(move |e| f.keeps_event(e)));
    }
    if opts.events.is_some() {
        // Port events name their exact instruction only while the machine
        // counts blocks (machine/ports.rs, `port_site`).
        prog.machine.count_instructions();
    }
    let spinner = run_spinner(file, echo);
    let stop = prog.run(limits(opts), at.map(|(loc, _)| loc));
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let stop = stop.map_err(|e| {
        let text = at.map(|(_, t)| t).unwrap_or("");
        fail(EXIT_LOAD, &format!("{}: --at {text}: {e}", file.display()))
    })?;
    warn_symbols(&prog, opts.quiet);
    Ok((prog, stop))
}

/// Say on stderr, once each, what the symbol tables noticed (a map beside
/// a module that does not fit it).
fn warn_symbols(prog: &session::Program, quiet: bool) {
    if quiet {
        // Taken, so that they are not said later either.
        let _ = (prog.symbol_warnings(), prog.font_warnings());
        return;
    }
    for w in prog.symbol_warnings() {
        tell(&format!("toolhelp16: warning: {w}\n"));
    }
    for w in prog.font_warnings() {
        tell(&format!("toolhelp16: warning: fonts: {w}\n"));
    }
}

/// `--events` as JSON: the events and how many were dropped (None, None
/// without `--events`).
pub(crate) fn events_json(
    prog: &session::Program,
    opts: &RunOpts,
) -> (Option<Vec<String>>, Option<u64>) {
    if opts.events.is_none() {
        return (None, None);
    }
    let st = prog.machine.get_data();
    (Some(st.events.clone()), Some(st.events_dropped))
}

/// `--events` in text, on stderr after the report: `event: ...` lines
/// (`trace`, `profile`, `snapshot`, whose stdout is their own).
pub(crate) fn tell_events(prog: &session::Program, opts: &RunOpts) {
    tell(&events_text(prog, opts));
}

/// `--events` in text, on stdout after the report (`run`, `stack`, as
/// the README's "Options of every command" says).
pub(crate) fn say_events(prog: &session::Program, opts: &RunOpts) {
    say(&events_text(prog, opts));
}

/// The `event: ...` lines of `--events` (nothing without it).
fn events_text(prog: &session::Program, opts: &RunOpts) -> String {
    let mut s = String::new();
    if opts.events.is_none() {
        return s;
    }
    let st = prog.machine.get_data();
    for e in &st.events {
        s.push_str(&format!("event: {}\n", crate::escape::name(e)));
    }
    if st.events_dropped > 0 {
        s.push_str(&format!("event: ... and {} more\n", st.events_dropped));
    }
    s
}

/// `--events USER!*` written with a space: the filter joined to the
/// option (`--events=USER!*`), as clap takes an optional value. The word
/// after `--events` is a filter when it names a function (`!`, or
/// `MODULE.N`) and is no file: `--events prog.exe` stays the option and
/// the program.
fn events_filter_args(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    let mut after_dashes = false;
    while let Some(a) = it.next() {
        after_dashes |= a == "--";
        let filter = match it.peek().and_then(|n| n.to_str()) {
            Some(n) if !after_dashes && a == "--events" => {
                let dotted = n.split_once('.').is_some_and(|(m, o)| {
                    !m.is_empty() && !o.is_empty() && o.bytes().all(|b| b.is_ascii_digit())
                });
                ((n.contains('!') || dotted) && !std::path::Path::new(n).exists())
                    .then(|| format!("--events={n}"))
            }
            _ => None,
        };
        match filter {
            Some(f) => {
                out.push(f.into());
                it.next();
            }
            None => out.push(a),
        }
    }
    out
}

/// `--events FILTER`: checked as clap parses (an empty value is every
/// event).
fn events_filter(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    crate::win16::relayfilter::RelayFilter::parse(s).map(|_| ())
}

/// The exit status for a stop.
pub fn exit_code(stop: &Stop) -> i32 {
    match stop {
        Stop::Exited { code } => i32::from(*code),
        Stop::Fault(_) => EXIT_FAULT,
        Stop::Budget => EXIT_BUDGET,
        Stop::Timeout => EXIT_TIMEOUT,
        Stop::Unimplemented { .. } => EXIT_UNIMPLEMENTED,
        Stop::NoInput { .. } => EXIT_NO_INPUT,
        Stop::Fatal { .. } => EXIT_FATAL,
        Stop::Hung { .. } => EXIT_HUNG,
        Stop::Breakpoint { .. } => 0,
        Stop::Error(_) => EXIT_INTERNAL,
    }
}

/// Whether the command asked for JSON: then an error is a JSON object on
/// stdout too ([`fail`]).
static JSON_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Report an error (on stderr; under `--json` also as a json.rs
/// `ErrorOutput` on stdout) and give back its exit status.
fn fail(code: i32, msg: &str) -> i32 {
    tell(&format!("toolhelp16: {msg}\n"));
    if JSON_ERRORS.load(std::sync::atomic::Ordering::Relaxed) {
        let kind = match code {
            2 => "usage",
            EXIT_LOAD => "load",
            EXIT_INTERNAL => "internal",
            _ => "stopped",
        };
        let doc = json::Doc::new(
            "error",
            json::ErrorOutput {
                message: msg.to_string(),
                exit_code: code,
                kind: kind.to_string(),
            },
        );
        if JSON_LINES.load(std::sync::atomic::Ordering::Relaxed) {
            // A JSON-lines command (trace, disasm) may have printed lines
            // already: its error is one more line, so that a reader of
            // lines reads it as JSON too.
            let mut text = serde_json::to_string(&doc).unwrap_or_default();
            text.push('\n');
            write_stdout(text.as_bytes());
        } else {
            print_json(&doc);
        }
    }
    code
}

/// Under `trace --json` (live or replayed), a run whose exit status is
/// not 0 (a fault, the budget, the time limit, the program's own non-zero
/// exit code; not `--max`) says so in one more line, the `error`
/// document of kind `stopped` (`internal` for a bug in toolhelp16) with
/// the exit status and `said`, the report text mode prints on stderr
/// (each line's `toolhelp16: ` left out): the stop is not on stderr
/// alone, and a program that stops before its first instruction still
/// prints a line.
fn json_stop_line(code: i32, said: &str) {
    let msg = said
        .lines()
        .map(|l| l.strip_prefix("toolhelp16: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let doc = json::Doc::new(
        "error",
        json::ErrorOutput {
            message: msg.trim_end().to_string(),
            exit_code: code,
            kind: if code == EXIT_INTERNAL {
                "internal"
            } else {
                "stopped"
            }
            .to_string(),
        },
    );
    let mut text = serde_json::to_string(&doc).unwrap_or_default();
    text.push('\n');
    write_stdout(text.as_bytes());
}

/// Whether the command prints JSON lines (`trace --json`, `disasm
/// --json`): then an error under `--json` is one line too.
static JSON_LINES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a command line names a JSON-lines command (`trace`, `disasm`).
fn is_json_lines(c: &Command) -> bool {
    matches!(c, Command::Trace { .. } | Command::Disasm { .. })
}

/// Whether the running command may show a spinner while the program runs
/// (`run`, `stack`, `profile`, `snapshot`; `trace` has its own bar).
static SPINNER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// An indicatif bar drawn on stderr with `template`, when stderr is a
/// terminal and the command does not print JSON; None otherwise (piped,
/// redirected, `--json`), so that no output but a terminal's sees it.
pub(crate) fn progress(template: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if JSON_ERRORS.load(std::sync::atomic::Ordering::Relaxed) || !std::io::stderr().is_terminal() {
        return None;
    }
    let style = indicatif::ProgressStyle::with_template(template).ok()?;
    // Drawn only once the run has lasted a moment: a short run shows no
    // flicker.
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden())
            .with_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    let shown = bar.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        if !shown.is_finished() {
            shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    });
    Some(bar)
}

/// The spinner of a long run: shown on a terminal while the program runs,
/// when the program's own output does not go to the same terminal.
fn run_spinner(file: &std::path::Path, echo: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !SPINNER.load(std::sync::atomic::Ordering::Relaxed)
        || (echo && std::io::stdout().is_terminal())
    {
        return None;
    }
    let bar = progress("{spinner} running {msg}: {elapsed}")?;
    bar.set_message(crate::escape::name(&file.display().to_string()).into_owned());
    Some(bar)
}

/// Write bytes on stdout. Every write of the command line goes through
/// this, [`say`], [`tell`] or [`print_json`]: a closed pipe (`| head`)
/// or a full disk loses the output, never panics (`println!` would).
pub(crate) fn write_stdout(bytes: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(bytes);
    let _ = out.flush();
}

/// Print a JSON document on stdout, pretty, with a newline.
pub(crate) fn print_json<T: serde::Serialize>(v: &T) {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    write_stdout(text.as_bytes());
}

/// Print a report on stdout with the input's control characters made
/// visible (escape.rs): everything the tool prints but the program's own
/// console stream and JSON goes through this or [`tell`].
pub(crate) fn say(s: &str) {
    write_stdout(crate::escape::text(s).as_bytes());
}

/// [`say`] on stderr.
pub(crate) fn tell(s: &str) {
    use std::io::Write;
    let _ = std::io::stderr()
        .lock()
        .write_all(crate::escape::text(s).as_bytes());
}

/// Parse the command line and run it; returns the process exit status.
/// A usage error exits 2 (clap's status), `--help` and `--version` 0;
/// with `--json` among the options a usage error is JSON too.
pub fn run_from_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let args = events_filter_args(args.into_iter().collect());
    // A crash of the engine (a signal) ends the tool with exit 116 and a
    // message, never silently (crash.rs).
    #[cfg(unix)]
    crash::install();
    // `trace --record` keeps the command line, to run it again.
    tracecmd::ARGS.with(|a| *a.borrow_mut() = args.clone());
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let code = e.exit_code();
            let wants_json = args
                .iter()
                .skip(1)
                .take_while(|a| *a != "--")
                .any(|a| a == "--json");
            if code != 0 && wants_json {
                JSON_ERRORS.store(true, std::sync::atomic::Ordering::Relaxed);
                let lines = args.get(1).is_some_and(|a| a == "trace" || a == "disasm");
                JSON_LINES.store(lines, std::sync::atomic::Ordering::Relaxed);
                let text = e.render().to_string();
                let first = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ");
                return fail(code, first);
            }
            let _ = e.print();
            return code;
        }
    };
    // A panic anywhere in the command (a hook's is already a stop,
    // machine/hookguard.rs) is an internal error with its message: exit
    // 125, the JSON error under --json, never Rust's exit 101.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| main_with(cli))) {
        Ok(code) => code,
        Err(p) => fail(
            EXIT_INTERNAL,
            &format!(
                "internal error: a panic: {}; {BUG_REPORT}",
                crate::machine::hookguard::panic_message(p.as_ref())
            ),
        ),
    }
}

/// Whether a command prints JSON (then its errors are JSON too), and
/// whether it may show a spinner while its program runs.
fn json_and_spinner(c: &Command) -> (bool, bool) {
    match c {
        Command::Run { opts, .. }
        | Command::Stack { opts, .. }
        | Command::Snapshot { opts, .. }
        | Command::Heap { opts, .. } => (opts.json, true),
        Command::Profile { opts, .. } => (opts.json, true),
        Command::Trace { opts, .. } => (opts.json, false),
        // A debugging session talks to its user or its client while the
        // program runs: no spinner.
        Command::Gdbserver { opts, .. }
        | Command::Debug { opts, .. }
        | Command::Serve { opts, .. } => (opts.json, false),
        Command::Info { json, .. }
        | Command::Walk { json, .. }
        | Command::Disasm { json, .. }
        | Command::Demo { json }
        | Command::Bench { json, .. }
        | Command::Mapsym { json, .. } => (*json, false),
        Command::Schema { .. } | Command::Completions { .. } | Command::Man { .. } => {
            (false, false)
        }
    }
}

/// Run the command line; returns the process exit status.
pub fn main_with(cli: Cli) -> i32 {
    let (json_out, spinner) = json_and_spinner(&cli.command);
    JSON_ERRORS.store(json_out, std::sync::atomic::Ordering::Relaxed);
    JSON_LINES.store(
        is_json_lines(&cli.command),
        std::sync::atomic::Ordering::Relaxed,
    );
    SPINNER.store(spinner, std::sync::atomic::Ordering::Relaxed);
    // A debugging session shows the program through its own commands:
    // the report options would be accepted and ignored, so they are not
    // accepted (a usage error, as clap gives).
    let session = match &cli.command {
        Command::Gdbserver { opts, .. }
        | Command::Debug { opts, .. }
        | Command::Serve { opts, .. } => Some(opts),
        Command::Run {
            opts, gdb: Some(_), ..
        } => Some(opts),
        _ => None,
    };
    if let Some(o) = session.filter(|o| o.json || o.screen || o.events.is_some()) {
        let which: Vec<&str> = [
            (o.json, "--json"),
            (o.screen, "--screen"),
            (o.events.is_some(), "--events"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        return fail(
            2,
            &format!(
                "{} does not apply to a debugging session (gdbserver, debug, run --gdb): \
                 its views are the session's commands and `monitor` (docs/debugging.md)",
                which.join(", ")
            ),
        );
    }
    match cli.command {
        Command::Info { file, json, dir } => match session::parse_file(&file, KindHint::Auto) {
            Ok(image) => {
                // The rule for `info`: OS/2 modules are refused with the
                // reason. A resource-only module (a .FON font file, no
                // segments) is described, its resources listed, and says
                // it cannot be run (issue 31).
                if let crate::loader::Image::Ne(ne) = &image {
                    // A bound OS/2 program runs (its real-mode part), so
                    // it is described.
                    let not_win16 = (ne.header.target_os == 1 || !ne.os2_imports().is_empty())
                        && ne.bound_dos_program().is_none();
                    if let (true, Err(e)) = (not_win16, ne.check_runnable(true)) {
                        return fail(EXIT_LOAD, &format!("{}: {e}", file.display()));
                    }
                }
                let mut info = crate::loader::info::info(&image);
                info.demangle_names(&crate::symbols::demangle::demangle);
                // Where each imported module comes from, as a run finds it.
                let dirs: Vec<PathBuf> = dir.into_iter().collect();
                let sources = crate::win16::import_sources(&file, &info.import_names(), &dirs)
                    .into_iter()
                    .map(|s| match s {
                        crate::win16::ImportSource::BuiltIn => ("built-in", None),
                        crate::win16::ImportSource::Dll(p) => {
                            ("dll", Some(p.display().to_string()))
                        }
                        crate::win16::ImportSource::Absent(why) => ("absent", Some(why)),
                    })
                    .collect();
                info.set_import_sources(sources);
                if json {
                    print_json(&json::Doc::new("info", info));
                } else {
                    say(&crate::loader::info::render_text(&info));
                }
                0
            }
            Err(e) => fail(EXIT_LOAD, &e.to_string()),
        },
        Command::Run {
            opts,
            screenshot,
            screenshots,
            every,
            gdb,
            resume,
            files,
            args,
        } => {
            if let Some(port) = gdb {
                return debug::gdbserver(
                    &opts,
                    &port.to_string(),
                    &files,
                    &args,
                    resume.as_deref(),
                );
            }
            if let Some(path) = &resume {
                return resume::run(&opts, path, screenshot.as_deref());
            }
            let mut setup = |p: &mut session::Program| match &screenshots {
                Some(dir) => p.start_screenshots(dir, every),
                None => Ok(()),
            };
            let (prog, stop) =
                match load_and_run_with(&opts, &files, &args, !opts.json, None, &mut setup) {
                    Ok(r) => r,
                    Err(code) => return code,
                };
            if let Err(code) =
                write_screenshots(&prog, screenshot.as_deref(), screenshots.is_some())
            {
                return code;
            }
            if opts.json {
                let mut v = output::run_json(&prog, &stop);
                v.screen = opts.screen.then(|| prog.screen_text());
                (v.events, v.events_dropped) = events_json(&prog, &opts);
                print_json(&json::Doc::new("run", v));
            } else {
                tell(&output::run_text(&prog, &stop));
                say_events(&prog, &opts);
                if opts.screen {
                    say(&prog.screen_text());
                }
            }
            exit_code(&stop)
        }
        Command::Stack {
            opts,
            at,
            all_tasks,
            verify,
            skip,
            max,
            explain,
            svg,
            html,
            screenshot,
            files,
            args,
        } => {
            let loc: Loc = match at.parse() {
                Ok(l) => l,
                Err(e) => return fail(EXIT_LOAD, &e),
            };
            let mut setup = |p: &mut session::Program| {
                if verify {
                    tracecmd::verify_setup(p)
                } else {
                    Ok(())
                }
            };
            let (mut prog, stop) =
                match load_and_run_with(&opts, &files, &args, false, Some((&loc, &at)), &mut setup)
                {
                    Ok(r) => r,
                    Err(code) => return code,
                };
            let verdict = if verify {
                tracecmd::verify_report(&mut prog, &stop)
            } else {
                None
            };
            let reached = session::after_reached(&loc, &stop, opts.max_insns);
            let walk = prog.walk_at_stop(&stop);
            let bt = walk
                .as_ref()
                .map(|w| crate::walk::backtrace::capture_walk(w, skip, max));
            let pictured = if explain || svg.is_some() || html.is_some() {
                crate::report::at_stop(&prog, &stop, stack_title(&prog, &stop, reached))
            } else {
                None
            };
            if pictured.is_none() && (svg.is_some() || html.is_some()) {
                return fail(
                    exit_code(&stop).max(1),
                    &format!(
                        "{}: {}: there is no stack to draw",
                        prog.path.display(),
                        output::describe(&stop)
                    ),
                );
            }
            if let Some((pic, lines)) = &pictured {
                let screen = prog.screenshot_now().ok();
                if let Err(e) = write_pictures(
                    pic,
                    lines,
                    svg.as_deref(),
                    html.as_deref(),
                    screen.as_deref(),
                ) {
                    return fail(EXIT_LOAD, &e);
                }
            }
            if let Some(path) = &screenshot {
                let png = match prog.screenshot_now() {
                    Ok(p) => p,
                    Err(e) => return fail(EXIT_LOAD, &format!("--screenshot: {e}")),
                };
                if let Err(e) = crate::report::write_file("--screenshot", path, &png) {
                    return fail(EXIT_LOAD, &e);
                }
                tell(&format!(
                    "toolhelp16: wrote {} (screen at the stop)\n",
                    path.display()
                ));
            }
            let told = pictured.as_ref().filter(|_| explain).map(|p| &p.1);
            if opts.json {
                let mut v = output::stack_json(&prog, &stop, reached);
                v.backtrace = bt.as_ref().map(output::backtrace_json);
                v.tasks = all_tasks.then(|| output::tasks_json(&prog));
                v.explain = told.map(|lines| {
                    lines
                        .iter()
                        .map(|l| format!("{}{}", "  ".repeat(usize::from(l.depth)), l.text))
                        .collect()
                });
                v.verify = verdict.as_ref().map(|(verdict, _)| json::Verify {
                    agrees: verdict.agrees(),
                    frames: verdict.frames.clone(),
                    disagreements: verdict
                        .disagreements
                        .iter()
                        .map(|d| json::Disagreement {
                            what: d.clone(),
                            text: d.to_string(),
                        })
                        .collect(),
                    beyond_end: verdict.beyond_end,
                });
                v.screen = opts.screen.then(|| prog.screen_text());
                (v.events, v.events_dropped) = events_json(&prog, &opts);
                print_json(&json::Doc::new("stack", v));
            } else {
                say(&output::stack_text(&prog, &stop, reached));
                if let Some(note) = output::entry_note(&prog, &stop) {
                    say(&note);
                }
                if let Some(bt) = &bt {
                    let name = |k: usize| {
                        let w = walk.as_ref()?;
                        let i = skip + k;
                        (i < w.frames.len())
                            .then(|| output::frame_symbol(&prog, w, i))
                            .flatten()
                            .map(|s| s.to_string())
                    };
                    say(&output::backtrace_text(bt, &name));
                }
                if all_tasks {
                    say(&output::tasks_text(&prog));
                }
                if let Some((_, text)) = &verdict {
                    say(text);
                }
                if let Some(lines) = told {
                    say(&crate::report::explain::text(lines));
                }
                say_events(&prog, &opts);
                if opts.screen {
                    say(&prog.screen_text());
                }
            }
            if verify && !verdict.as_ref().is_some_and(|v| v.0.agrees()) {
                return 1;
            }
            if reached { 0 } else { exit_code(&stop).max(1) }
        }
        Command::Heap {
            opts,
            at,
            local,
            files,
            args,
        } => heapcmd::heap(&opts, at.as_deref(), local.as_deref(), &files, &args),
        Command::Trace {
            opts,
            syntax,
            regs,
            from,
            to,
            module,
            max,
            output,
            html,
            record,
            replay,
            files,
            args,
        } => tracecmd::trace(
            &opts,
            &files,
            &args,
            tracecmd::TraceArgs {
                syntax,
                regs,
                from,
                to,
                module,
                max,
                output,
                html,
                record,
                replay,
            },
        ),
        Command::Profile {
            opts,
            every,
            folded,
            svg,
            files,
            args,
        } => tracecmd::profile(
            &opts,
            &files,
            &args,
            every,
            folded.as_deref(),
            svg.as_deref(),
        ),
        Command::Bench { quick, only, json } => match bench::bench(quick, &only) {
            Ok(text) if json => {
                print_json(&json::Doc::new(
                    "bench",
                    json::Bench {
                        quick,
                        lines: text.lines().map(str::to_string).collect(),
                    },
                ));
                0
            }
            Ok(text) => {
                say(&text);
                0
            }
            Err(e) => fail(EXIT_INTERNAL, &format!("bench: {e}; {BUG_REPORT}")),
        },
        Command::Snapshot {
            opts,
            at,
            output,
            resumable,
            files,
            args,
        } => resume::snapshot(&opts, &at, &output, resumable, &files, &args),
        Command::Walk {
            snapshot,
            init,
            json,
        } => walk(&snapshot, init, json),
        Command::Mapsym { map, output, json } => mapsym(&map, output, json),
        Command::Disasm {
            file,
            segment,
            at,
            count,
            syntax,
            json,
            maps,
            syms,
            no_symbol_search,
        } => disasm::disasm(disasm::DisasmArgs {
            file,
            segment,
            at,
            count,
            syntax,
            json,
            maps: syms.into_iter().chain(maps).collect(),
            no_symbol_search,
        }),
        Command::Demo { json } => output::demo(json),
        Command::Gdbserver {
            opts,
            listen,
            resume,
            files,
            args,
        } => debug::gdbserver(&opts, &listen, &files, &args, resume.as_deref()),
        Command::Debug {
            opts,
            commands,
            resume,
            files,
            args,
        } => debug::debug(&opts, commands.as_deref(), &files, &args, resume.as_deref()),
        Command::Serve {
            opts,
            listen,
            recording,
            files,
            args,
        } => servecmd::serve(&opts, &listen, recording.as_deref(), &files, &args),
        Command::Schema { command, write } => schema(command.as_deref(), write.as_deref()),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "toolhelp16",
                &mut out,
            );
            write_stdout(&out);
            0
        }
        Command::Man { dir: Some(dir) } => {
            let written = std::fs::create_dir_all(&dir)
                .and_then(|()| clap_mangen::generate_to(man_command(), &dir));
            match written {
                Ok(()) => {
                    tell(&format!(
                        "toolhelp16: wrote the manual pages into {}\n",
                        dir.display()
                    ));
                    0
                }
                Err(e) => fail(EXIT_LOAD, &format!("man --dir {}: {e}", dir.display())),
            }
        }
        Command::Man { dir: None } => {
            let mut out = Vec::new();
            let man = clap_mangen::Man::new(man_command());
            match man.render(&mut out) {
                Ok(()) => {
                    write_stdout(&out);
                    0
                }
                Err(e) => fail(EXIT_INTERNAL, &format!("man: {e}; {BUG_REPORT}")),
            }
        }
    }
}

/// The command line as the manual pages describe it: without clap's
/// `help` subcommand, which has no page of its own (`--help` is listed).
fn man_command() -> clap::Command {
    <Cli as clap::CommandFactory>::command().disable_help_subcommand(true)
}

/// `schema COMMAND` / `schema --write DIR`.
fn schema(command: Option<&str>, write: Option<&std::path::Path>) -> i32 {
    let all = json::schemas();
    if let Some(dir) = write {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(EXIT_LOAD, &format!("{}: {e}", dir.display()));
        }
        for (name, schema) in &all {
            let path = dir.join(name);
            let text = serde_json::to_string_pretty(schema).unwrap_or_default() + "\n";
            if let Err(e) = std::fs::write(&path, text) {
                return fail(EXIT_LOAD, &format!("{}: {e}", path.display()));
            }
        }
        tell(&format!(
            "toolhelp16: wrote {} schemas into {}\n",
            all.len(),
            dir.display()
        ));
        return 0;
    }
    let want = format!("{}.json", command.unwrap_or(""));
    match all.iter().find(|(n, _)| *n == want) {
        Some((_, schema)) => {
            print_json(schema);
            0
        }
        None => fail(2, &format!("no schema named {want}")),
    }
}

/// The title of a stack picture: the file and where it stopped.
fn stack_title(prog: &session::Program, stop: &Stop, reached: bool) -> String {
    use crate::machine::{Cpu, R};
    let what = match stop {
        Stop::Budget if reached => format!(
            "stopped at {:04X}:{:04X} after the requested number of instructions",
            prog.machine.reg(R::CS),
            prog.machine.reg(R::IP)
        ),
        _ => output::describe(stop),
    };
    format!("{}: {what}", prog.path.display())
}

/// `run --screenshot FILE` and the end of `--screenshots DIR`: write the
/// run's picture, report the series.
fn write_screenshots(
    prog: &session::Program,
    file: Option<&std::path::Path>,
    series: bool,
) -> Result<(), i32> {
    if let Some(path) = file {
        let png = prog
            .screenshot_final()
            .map_err(|e| fail(EXIT_LOAD, &format!("--screenshot: {e}")))?;
        crate::report::write_file("--screenshot", path, &png).map_err(|e| fail(EXIT_LOAD, &e))?;
        tell(&format!("toolhelp16: wrote {} (screen)\n", path.display()));
    }
    if series {
        let (n, err) = prog.screenshots_written();
        if let Some(e) = err {
            return Err(fail(EXIT_LOAD, &format!("--screenshots: {e}")));
        }
        tell(&format!("toolhelp16: wrote {n} screenshots\n"));
    }
    Ok(())
}

/// `stack --svg FILE --html FILE`: write the picture (and the page, with
/// the screen when there is one).
fn write_pictures(
    pic: &crate::report::stackmodel::Picture,
    lines: &[crate::report::explain::Line],
    svg: Option<&std::path::Path>,
    html: Option<&std::path::Path>,
    screen: Option<&[u8]>,
) -> Result<(), String> {
    if svg.is_none() && html.is_none() {
        return Ok(());
    }
    let drawing = crate::report::svg::render(pic);
    if let Some(path) = svg {
        crate::report::write_file("--svg", path, drawing.as_bytes())?;
        tell(&format!("toolhelp16: wrote {} (SVG)\n", path.display()));
    }
    if let Some(path) = html {
        let page = crate::report::html::page_with_screen(pic, &drawing, lines, screen);
        crate::report::write_file("--html", path, page.as_bytes())?;
        tell(&format!("toolhelp16: wrote {} (HTML)\n", path.display()));
    }
    Ok(())
}

/// `snapshot`: run to LOC and write the snapshot there.
/// `mapsym`: MAP → SYM.
fn mapsym(map: &std::path::Path, output: Option<PathBuf>, json_out: bool) -> i32 {
    let layouts = match crate::symbols::parse_file(map) {
        Ok(l) => l,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let Some(layout) = layouts.first() else {
        return fail(EXIT_LOAD, &format!("{}: no map in it", map.display()));
    };
    let out = output.unwrap_or_else(|| map.with_extension("sym"));
    let module = layout.module.clone().unwrap_or_else(|| {
        map.file_stem()
            .map(|s| s.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default()
    });
    let bytes = match crate::symbols::mapsym::write_layout(&module, layout) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_LOAD, &format!("{}: {e}", map.display())),
    };
    if let Err(e) = std::fs::write(&out, &bytes) {
        return fail(EXIT_LOAD, &format!("{}: {e}", out.display()));
    }
    let segments = crate::symbols::mapsym::frames_of(layout).len();
    if json_out {
        print_json(&json::Doc::new(
            "mapsym",
            json::Mapsym {
                map: map.display().to_string(),
                output: out.display().to_string(),
                module,
                segments,
                symbols: layout.publics.len(),
                bytes: bytes.len(),
            },
        ));
        return 0;
    }
    tell(&format!(
        "toolhelp16: {} -> {}: module {module}, {segments} segments, {} symbols, {} bytes\n",
        map.display(),
        out.display(),
        layout.publics.len(),
        bytes.len()
    ));
    0
}

/// `walk`: walk a snapshot and compare.
fn walk(path: &std::path::Path, init: crate::walk::stackframe::Start, json: bool) -> i32 {
    let snap = match crate::walk::snapshot::Snapshot::read(path) {
        Ok(s) => s,
        Err(e) => return fail(EXIT_LOAD, &e),
    };
    let w = snap.walk(init, session::MAX_FRAMES);
    let agreement = snap.check(init, &w);
    if json {
        let v = output::walk_json(path, &snap, init, &w, agreement.as_ref());
        print_json(&json::Doc::new("walk", v));
    } else {
        say(&output::walk_text(
            path,
            &snap,
            init,
            &w,
            agreement.as_ref(),
        ));
    }
    if matches!(w.end, crate::walk::stackframe::StepError::Address(_)) {
        EXIT_WALK_FAILED
    } else if agreement.is_some_and(|a| !a.agrees()) {
        EXIT_MISMATCH
    } else {
        0
    }
}
