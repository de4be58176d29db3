//! The command line's grammar: the commands, their options and the run
//! options they share (clap's derive), with the parsers of option values;
//! cli/mod.rs does what they say.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use super::events_filter;
use crate::session::Loc;

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
              value_parser = clap::builder::PossibleValuesParser::new(super::bench::SECTIONS))]
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
pub(super) fn env_pair(kv: &str) -> Result<(String, String), String> {
    let (k, v) = kv
        .split_once('=')
        .ok_or_else(|| format!("--env {kv}: expected NAME=VALUE"))?;
    if k.is_empty() {
        return Err(format!("--env {kv}: the name is empty"));
    }
    Ok((k.to_string(), v.to_string()))
}

pub(super) fn parse_segoff(s: &str) -> Result<(u16, u16), String> {
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
