//! The JSON every `--json` prints: one `#[derive(Serialize)]` type per
//! command, each with a JSON Schema generated from it (`schemars`) and
//! committed under docs/schema/ (`toolhelp16 schema --write docs/schema`
//! writes them; tests/json_schema.rs checks that they are current and that
//! real outputs of every command validate against them).
//!
//! Every document carries `version` ([`toolhelp16::JSON_VERSION`]) and
//! `command`; the JSON lines of `trace` and `disasm` carry `version` on
//! every line. An error under `--json` is an [`ErrorOutput`] on stdout,
//! with the same non-zero exit status as in text.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

/// A document: the version and the command, then the command's members.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Doc<T> {
    /// The JSON output's version (docs/schema/README.md).
    pub version: u32,
    /// The command that printed it.
    pub command: String,
    /// The command's members.
    #[serde(flatten)]
    pub body: T,
}

impl<T> Doc<T> {
    /// `body` as `command`'s output, at the current version.
    pub fn new(command: &str, body: T) -> Self {
        Doc {
            version: toolhelp16::JSON_VERSION,
            command: command.to_string(),
            body,
        }
    }
}

/// A line of JSON lines (`trace`, `disasm`): the version, then the line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Versioned<T> {
    /// The JSON output's version.
    pub version: u32,
    /// The line's members.
    #[serde(flatten)]
    pub body: T,
}

/// An error under `--json` (on stdout, and the exit status is as in text).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ErrorOutput {
    /// The message, as text mode prints it on stderr (without the
    /// `toolhelp16: ` prefix).
    pub message: String,
    /// The exit status the command ends with (README, "Exit status").
    pub exit_code: i32,
    /// What kind of error: `usage` (a malformed command line, exit 2),
    /// `load` (a file that cannot be read or loaded, a LOC that does not
    /// resolve, an output that cannot be written), `stopped` (the run
    /// ended before what was asked), `internal` (a bug in toolhelp16).
    pub kind: String,
}

/// A stop: how a run ended.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Exit {
    /// `exited`, `fault`, `budget`, `timeout`, `unimplemented`, `fatal`,
    /// `no-input`, `hung` (HLT with interrupts disabled), `breakpoint`
    /// or `error` (a bug in toolhelp16).
    pub kind: String,
    /// The program's exit code, for `exited`; else null.
    pub code: Option<u8>,
    /// The stop in words, as the text report says it.
    pub text: String,
}

/// A frame of a ToolHelp walk: the STACKTRACEENTRY fields and what names
/// them.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct Frame {
    /// A fault dispatch frame the walk saw through (walk/dispatch.rs).
    #[serde(rename = "virtual")]
    pub virtual_frame: bool,
    /// STACKTRACEENTRY.hTask.
    pub hTask: u16,
    /// STACKTRACEENTRY.wSS.
    pub wSS: u16,
    /// STACKTRACEENTRY.wBP.
    pub wBP: u16,
    /// STACKTRACEENTRY.wCS.
    pub wCS: u16,
    /// STACKTRACEENTRY.wIP.
    pub wIP: u16,
    /// STACKTRACEENTRY.hModule.
    pub hModule: u16,
    /// STACKTRACEENTRY.wSegment (the NE segment number, 0 when none).
    pub wSegment: u16,
    /// STACKTRACEENTRY.wFlags (FRAME_FAR 0, FRAME_NEAR 1).
    pub wFlags: u16,
    /// wFlags is FRAME_FAR.
    pub far: bool,
    /// The module's name, or null.
    pub module: Option<String>,
    /// `NAME+0x12`, demangled, or null (a return address is named from
    /// the byte before it).
    pub symbol: Option<String>,
    /// The name as the symbol file spells it, or null.
    pub symbol_raw: Option<String>,
    /// The source line, from the module's debug information, or null.
    pub source: Option<SourceLine>,
    /// The function's parameters, from debug information: each one's
    /// place relative to the frame's BP and the word there.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub params: Vec<Param>,
}

/// A parameter of a frame's function.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its place: the signed offset from the frame's BP.
    pub bp_offset: i32,
    /// The word there, or null (not readable, or the frame stopped in
    /// the function's prologue, before BP is the function's).
    pub value: Option<u16>,
}

impl From<&crate::symbols::lines::ParamValue> for Param {
    fn from(p: &crate::symbols::lines::ParamValue) -> Param {
        Param {
            name: p.param.name.clone(),
            bp_offset: p.param.bp_offset,
            value: p.value,
        }
    }
}

/// A place in a source file, from debug information.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SourceLine {
    /// The file as the debug information names it.
    pub file: String,
    /// The 1-based line.
    pub line: u32,
}

impl From<&crate::symbols::lines::SourceLine> for SourceLine {
    fn from(l: &crate::symbols::lines::SourceLine) -> SourceLine {
        SourceLine {
            file: l.file.to_string(),
            line: l.line,
        }
    }
}

/// The faulting instruction.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Instruction {
    /// Its bytes in hex.
    pub bytes: String,
    /// Its disassembly (NASM syntax).
    pub text: String,
}

/// A segment register of the faulting context and its descriptor.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SegmentRegister {
    /// The selector (or real-mode paragraph).
    pub selector: u16,
    /// The descriptor's base, or null for a null or invalid selector.
    pub base: Option<u32>,
    /// Its limit, or null.
    pub limit: Option<u32>,
    /// Its access byte, or null.
    pub access: Option<u8>,
}

/// The stack bounds of the faulting SS (protected mode, when the instance
/// data holds them).
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct StackBounds {
    /// The instance data's pStackTop (the lowest SP allowed).
    pub pStackTop: u16,
    /// pStackMin (the lowest SP seen).
    pub pStackMin: u16,
    /// pStackBot (the stack's bottom, its highest address).
    pub pStackBot: u16,
    /// SP at the fault.
    pub sp: u16,
    /// SP lies outside [pStackTop, pStackBot]: a stack overflow.
    pub overflow: bool,
}

/// A processor fault.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct Fault {
    /// The exception number (13 = #GP).
    pub number: u8,
    /// Its name.
    pub name: String,
    /// CS of the faulting instruction.
    pub wCS: u16,
    /// IP of the faulting instruction.
    pub wIP: u16,
    /// The module owning the code, or null.
    pub module: Option<String>,
    /// The NE segment number of the code, or null.
    pub wSegment: Option<u16>,
    /// The symbol of the faulting instruction, or null.
    pub symbol: Option<String>,
    /// What went wrong, in words.
    pub detail: String,
    /// What went wrong, as data (machine/exception.rs), or null.
    pub cause: Option<toolhelp16::machine::exception::Cause>,
    /// The registers at the fault.
    pub registers: toolhelp16::machine::Regs,
    /// The linear address of the faulting instruction, or null.
    pub linear: Option<u32>,
    /// The faulting instruction, when it can be read.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub instruction: Option<Instruction>,
    /// Win16: the line of Windows 3.1's Application Error box.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub application_error: Option<String>,
    /// Win16, unhandled: Dr. Watson's failure report, a string a line.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub drwatson: Option<Vec<String>>,
    /// CS, DS, ES and SS with their descriptors.
    pub segments: BTreeMap<String, SegmentRegister>,
    /// The stack bounds (protected mode, when known).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stack: Option<StackBounds>,
}

/// A Win16 task that ended.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct TaskExit {
    /// Its task handle.
    pub hTask: u16,
    /// Its module.
    pub module: String,
    /// Its exit code.
    pub code: u8,
    /// The unhandled fault that ended it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fault: Option<Fault>,
}

/// A fault a Win16 task took during the run, as it was when it happened
/// (win16/fault_record.rs).
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct FaultSeen {
    /// The task that faulted.
    pub hTask: u16,
    /// Its module.
    pub module: String,
    /// What became of it: `handled` (an InterruptRegister callback took
    /// it and the task went on), `terminated` (the callback ended the task
    /// with TerminateApp), `gp_handler` (the module's GP handler took it),
    /// `unhandled` (Windows' Application Error).
    pub outcome: String,
    /// The fault.
    pub fault: Fault,
    /// The walk from the faulting context (StackTraceCSIPFirst with the
    /// faulting SS, CS, IP and BP, then StackTraceNext), taken at the fault.
    pub frames: Vec<Frame>,
    /// Why the walk's StackTraceNext failed.
    pub walk_end: String,
}

/// The program's drive C: and what the program did to it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Drive {
    /// The host directory the program saw.
    pub dir: String,
    /// `copy-on-write` (the default: writes go to an overlay) or
    /// `read-write` (`--dir`).
    pub mode: String,
    /// The overlay kept with --keep-writes, or null.
    pub writes_kept_in: Option<String>,
    /// `--disk-quota` in bytes.
    pub quota: u64,
    /// Bytes the program added.
    pub used: u64,
    /// Writes the quota cut short.
    pub full_writes: u64,
    /// Writes cut short because a file reached the per-file size limit
    /// (DOS's 4 GiB - 1, or less where a test sets it): the write wrote
    /// what fitted, as on a full disk.
    pub capped_writes: u64,
    /// What the program changed, in order.
    pub changes: Vec<toolhelp16::dos::fs::Change>,
    /// Changes past what a run keeps.
    pub changes_dropped: u64,
}

/// A message box shown during the run.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct MessageBox {
    /// The task it was shown for.
    pub hTask: u16,
    /// That task's module.
    pub module: String,
    /// The caption ("Error" when the program gave none).
    pub caption: String,
    /// The text.
    pub text: String,
    /// MessageBox's wType (MB_*), or null for a box the environment showed.
    pub style: Option<u16>,
    /// The button that answered it (1 IDOK, 2 IDCANCEL, 3 IDABORT, 4
    /// IDRETRY, 5 IDIGNORE, 6 IDYES, 7 IDNO), or null when the program saw
    /// no answer.
    pub answer: Option<u16>,
    /// `program` (MessageBox) or `environment` (shown on the program's
    /// behalf: the Application Error box of an unhandled fault, the File
    /// Error box of a LoadLibrary that finds no file).
    pub by: String,
}

/// `run --json`.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct Run {
    /// The program's file.
    pub file: String,
    /// How the run ended.
    pub exit: Option<Exit>,
    /// The console text the program wrote, decoded as code page 437.
    pub output: String,
    /// OutputDebugString strings.
    pub debug_output: Vec<String>,
    /// The fault, for `fault`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fault: Option<Fault>,
    /// The function's name, for `unimplemented`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unimplemented: Option<String>,
    /// Why a run that ran out of budget or time may have been waiting
    /// for a key.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
    /// Console bytes past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub output_dropped: Option<u64>,
    /// OutputDebugString strings past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub debug_output_dropped: Option<u64>,
    /// Drive C: (null without one).
    pub drive: Option<Drive>,
    /// Win16: every message box shown, in order (empty when none was).
    pub message_boxes: Vec<MessageBox>,
    /// Message boxes past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub message_boxes_dropped: Option<u64>,
    /// Win16: every task that ended, in order.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_exits: Option<Vec<TaskExit>>,
    /// When it stopped other than by exiting: the walk there.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub frames: Option<Vec<Frame>>,
    /// Why the walk's StackTraceNext failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub walk_end: Option<String>,
    /// Win16: every fault a task took, in order, each with the walk at it,
    /// whether a callback handled it or not.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub faults: Option<Vec<FaultSeen>>,
    /// Faults past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub faults_dropped: Option<u64>,
    /// `--screen`: the 80x25 text screen, decoded as code page 437.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub screen: Option<String>,
    /// `--events`: what the program did (API calls, interrupts, port I/O).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub events: Option<Vec<String>>,
    /// `--events`: events past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub events_dropped: Option<u64>,
}

/// A CS:IP.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CsIp {
    /// CS.
    pub cs: u16,
    /// IP.
    pub ip: u16,
}

/// RtlCaptureStackBackTrace over a walk's frames (walk/backtrace.rs).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BackTrace {
    /// FramesToSkip.
    pub skip: usize,
    /// FramesToCapture, or null: all.
    pub max: Option<usize>,
    /// The addresses captured.
    pub count: usize,
    /// Packed CS:IP DWORDs (CS in the high word), innermost first.
    pub addresses: Vec<u32>,
    /// BackTraceHash: their 32-bit wrapping sum.
    pub hash: u32,
}

/// A task of `stack --all-tasks`: its TASKENTRY and its walk.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct Task {
    /// TASKENTRY.hTask.
    pub hTask: u16,
    /// TASKENTRY.hTaskParent.
    pub hTaskParent: u16,
    /// TASKENTRY.hInst.
    pub hInst: u16,
    /// TASKENTRY.hModule.
    pub hModule: u16,
    /// TASKENTRY.wSS (saved).
    pub wSS: u16,
    /// TASKENTRY.wSP (saved).
    pub wSP: u16,
    /// TASKENTRY.wStackTop.
    pub wStackTop: u16,
    /// TASKENTRY.wStackMinimum.
    pub wStackMinimum: u16,
    /// TASKENTRY.wStackBottom.
    pub wStackBottom: u16,
    /// TASKENTRY.wcEvents.
    pub wcEvents: u16,
    /// TASKENTRY.hQueue.
    pub hQueue: u16,
    /// TASKENTRY.szModule.
    pub module: String,
    /// The current task (its walk is the document's `frames`).
    pub current: bool,
    /// StackTraceFirst and StackTraceNext from the saved state (empty for
    /// the current task).
    pub frames: Vec<Frame>,
    /// Why the walk ended, or null.
    pub walk_end: Option<String>,
}

/// `stack --verify`: the walk against the shadow call stack.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Verify {
    /// No disagreement.
    pub agrees: bool,
    /// Per walk frame: it agrees.
    pub frames: Vec<bool>,
    /// What disagrees, each with its sentence in `text`.
    pub disagreements: Vec<Disagreement>,
    /// Running calls beyond the chain's end.
    pub beyond_end: usize,
}

/// A disagreement of `stack --verify`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Disagreement {
    /// The disagreement as data.
    #[serde(flatten)]
    pub what: toolhelp16::trace::verify::Disagreement,
    /// In words.
    pub text: String,
}

/// `heap --json`: the heaps at a stop as TOOLHELP's walks give them.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Heap {
    /// The program's file.
    pub file: String,
    /// The location asked for (`--at`) was reached; false when the run
    /// ended before it (or no `--at` was given and the run ended).
    pub reached: bool,
    /// How the run stopped.
    pub stop: Exit,
    /// The global heap, GlobalFirst/GlobalNext(GLOBAL_ALL) order.
    pub global: Vec<GlobalBlockView>,
    /// The local heap `--local` named, or null.
    pub local: Option<LocalHeapView>,
}

/// A block of the global heap: its GLOBALENTRY and names for it.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct GlobalBlockView {
    /// GLOBALENTRY.dwAddress: the linear address.
    pub dwAddress: u32,
    /// GLOBALENTRY.dwBlockSize.
    pub dwBlockSize: u32,
    /// GLOBALENTRY.hBlock.
    pub hBlock: u16,
    /// GLOBALENTRY.wcLock.
    pub wcLock: u16,
    /// GLOBALENTRY.wcPageLock.
    pub wcPageLock: u16,
    /// GLOBALENTRY.wFlags (GF_PDB_OWNER 0100h).
    pub wFlags: u16,
    /// GLOBALENTRY.wHeapPresent: the block holds a local heap.
    pub wHeapPresent: bool,
    /// GLOBALENTRY.hOwner.
    pub hOwner: u16,
    /// The owner's module name ("NAME (PDB)" for a task's PSP).
    pub owner: String,
    /// GLOBALENTRY.wType (GT_*).
    pub wType: u16,
    /// wType's name (GT_ dropped).
    pub r#type: String,
    /// GLOBALENTRY.wData: the segment number, or the resource's GD_ type.
    pub wData: u16,
}

/// A local heap: where it is and its LOCALENTRY walk.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct LocalHeapView {
    /// The segment holding it.
    pub selector: u16,
    /// LOCALENTRY.hHeap: the segment's global handle.
    pub hHeap: u16,
    /// LOCALENTRY.wHeapType (NORMAL_HEAP 0, USER_HEAP 1, GDI_HEAP 2).
    pub wHeapType: u16,
    /// LOCALINFO.wcItems.
    pub wcItems: u16,
    /// LocalFirst, then LocalNext.
    pub entries: Vec<LocalEntryView>,
}

/// One LOCALENTRY.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct LocalEntryView {
    /// LOCALENTRY.hHandle.
    pub hHandle: u16,
    /// LOCALENTRY.wAddress.
    pub wAddress: u16,
    /// LOCALENTRY.wSize.
    pub wSize: u16,
    /// LOCALENTRY.wFlags (LF_FIXED 1, LF_FREE 2, LF_MOVEABLE 4).
    pub wFlags: u16,
    /// wFlags' name: FIXED, FREE or MOVEABLE.
    pub flags: String,
    /// LOCALENTRY.wcLock.
    pub wcLock: u16,
    /// LOCALENTRY.wType (LT_NORMAL 0, LT_FREE 255, ...).
    pub wType: u16,
    /// wType's name (LT_ dropped): NORMAL, FREE, or in USER's heaps
    /// USER_WND, USER_CLASS, ..., in GDI's GDI_PEN, GDI_BRUSH, GDI_FONT,
    /// GDI_PALETTE, GDI_BITMAP, GDI_RGN, GDI_DC, GDI_METADC, ...
    pub r#type: String,
    /// LOCALENTRY.wNext.
    pub wNext: u16,
}

/// The near pointers of a stop that fall in a block of DS's local heap
/// (`stack`, src/cli/nearptr.rs).
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct NearPointers {
    /// DS at the stop: the segment the pointers are offsets in.
    pub selector: u16,
    /// LOCALENTRY.hHeap of its heap.
    pub hHeap: u16,
    /// Each register and stack word that points into a block in use,
    /// registers first, then the stack from SP up.
    pub pointers: Vec<NearPointer>,
}

/// One near pointer and the local block it points into.
#[derive(Debug, Serialize, JsonSchema)]
#[allow(non_snake_case)]
pub struct NearPointer {
    /// Where it was found, as the text report writes it: a register
    /// (`SI`) or a frame's word (`frame 1 [BP-4]`).
    pub place: String,
    /// The register's name, or null for a stack word.
    pub register: Option<String>,
    /// The stack word's offset in SS, or null for a register.
    pub ss_offset: Option<u16>,
    /// The walk's frame whose BP the word is counted from, or null.
    pub frame: Option<usize>,
    /// The word's offset from that frame's BP.
    pub bp_offset: Option<i32>,
    /// The pointer: an offset in DS.
    pub value: u16,
    /// The block's LOCALENTRY.hHandle.
    pub hHandle: u16,
    /// LOCALENTRY.wAddress: where the block's bytes start.
    pub wAddress: u16,
    /// LOCALENTRY.wSize.
    pub wSize: u16,
    /// LOCALENTRY.wFlags (LF_FIXED 1, LF_MOVEABLE 4).
    pub wFlags: u16,
    /// wFlags' name: FIXED or MOVEABLE.
    pub flags: String,
    /// LOCALENTRY.wcLock.
    pub wcLock: u16,
    /// value - wAddress: how far into the block it points.
    pub offset: u16,
}

/// `stack --json` (and `demo --json`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Stack {
    /// The program's file.
    pub file: String,
    /// Where it stopped.
    pub at: CsIp,
    /// The location asked for was reached.
    pub reached: bool,
    /// How the run stopped.
    pub stop: Exit,
    /// The walk: StackTraceCSIPFirst, then StackTraceNext.
    pub frames: Vec<Frame>,
    /// Why StackTraceNext failed, or null.
    pub walk_end: Option<String>,
    /// Win16: the registers and stack words that are near pointers into
    /// blocks of DS's local heap; null when DS holds no local heap.
    pub near_pointers: Option<NearPointers>,
    /// Win16: every message box shown up to the stop, in order.
    pub message_boxes: Vec<MessageBox>,
    /// For each module a frame lies in, where its names came from.
    pub symbols: Vec<ModuleSymbols>,
    /// What a walk stopped at a function's entry (before its prologue,
    /// or at a built-in function's thunk) does not show, as text mode
    /// says it after the walk; null elsewhere.
    pub entry_note: Option<String>,
    /// The back trace (`--skip`, `--max`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub backtrace: Option<BackTrace>,
    /// `--all-tasks`: every task.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tasks: Option<Vec<Task>>,
    /// `--explain`: the narration, a line each, indented by depth.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub explain: Option<Vec<String>>,
    /// `--verify`: the verdict.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub verify: Option<Verify>,
    /// `--screen`: the text screen at the stop (code page 437).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub screen: Option<String>,
    /// `--events`: what the program did up to the stop.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub events: Option<Vec<String>>,
    /// `--events`: events past what a run keeps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub events_dropped: Option<u64>,
}

/// Where one module's names came from.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ModuleSymbols {
    /// The module.
    pub module: String,
    /// Each source used, in the order they were read.
    pub used: Vec<SymbolSource>,
}

/// One source of names.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SymbolSource {
    /// `exports` (the NE names tables), `map` (a linker's .MAP), `sym`
    /// (a MAPSYM .SYM) or `debug information` (CodeView, DWARF, LINK /LI
    /// line numbers).
    pub kind: String,
    /// The file's path, or the table or debug format.
    pub from: String,
}

/// A first step that failed (`walk`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Failure {
    /// The ADDRESS member: AddrPC, AddrFrame or AddrStack.
    pub field: String,
    /// Its Mode value.
    pub mode: u32,
    /// The mode's name.
    pub mode_name: String,
    /// Its Segment.
    pub selector: u16,
    /// Its Offset.
    pub offset: u64,
    /// Why it could not be translated.
    pub reason: String,
    /// The failure in words.
    pub text: String,
}

/// A frame compared with the snapshot's.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FrameAgreement {
    /// The frame's index.
    pub index: usize,
    /// It agrees.
    pub agrees: bool,
    /// What differs, in words.
    pub differences: Vec<String>,
}

/// The walk compared with the snapshot's expected frames.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Agreement {
    /// Everything agrees.
    pub agrees: bool,
    /// The first-step failure the snapshot expects, or null.
    pub expected_failure: Option<String>,
    /// Frame by frame.
    pub frames: Vec<FrameAgreement>,
    /// Everything else that differs.
    pub problems: Vec<String>,
}

/// `walk --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Walk {
    /// The snapshot's path.
    pub snapshot: String,
    /// Where it was taken, or null.
    pub source: Option<toolhelp16::walk::snapshot::Source>,
    /// The machine's mode.
    pub mode: toolhelp16::walk::CpuMode,
    /// How the first STACKFRAME64 was filled: native, flat, istackwalker.
    pub init: String,
    /// The first STACKFRAME64 as the start filled it.
    pub start: toolhelp16::walk::stackframe::StackFrame64,
    /// The frames StackWalk64 gave.
    pub frames: Vec<toolhelp16::walk::stackframe::StackFrame64>,
    /// How the walk ended, in words.
    pub end: String,
    /// `address` for a first-step failure, else the stop's kind.
    pub end_kind: String,
    /// A first-step failure, or null.
    pub failure: Option<Failure>,
    /// The back trace over the frames.
    pub backtrace: BackTrace,
    /// The agreement, or null when the snapshot expects no frames.
    pub agreement: Option<Agreement>,
}

/// `info --json`: the file's description (loader/info.rs).
pub type Info = toolhelp16::loader::info::Info;

/// `disasm --json`: one line per instruction (disasm.rs).
pub type DisasmLine = toolhelp16::disasm::Line;

/// A line of `disasm --json`: an instruction, or a note the text listing
/// prints as `; note: ...` (first, before the instructions; a listing
/// with no instructions is its notes, so `--json` never prints nothing).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DisasmOut<'a> {
    /// An instruction.
    Line(&'a DisasmLine),
    /// A note about the listing.
    Note {
        /// What the text listing says after `; note: `.
        note: &'a str,
    },
}

/// `trace --json`: one line per executed instruction (trace/mod.rs); it
/// has its own `version`.
pub type TraceLine = toolhelp16::trace::TraceLine;

/// A stack of `profile --json`: the functions from the outermost, and the
/// samples that saw it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProfileStack {
    /// The functions, outermost first.
    pub frames: Vec<String>,
    /// Samples.
    pub samples: u64,
}

/// A source line of `profile --json`: where samples were taken.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProfileLine {
    /// The file, as the debug information names it.
    pub file: String,
    /// The 1-based line.
    pub line: u32,
    /// The function holding it, as the stacks name it.
    pub function: String,
    /// Samples taken there.
    pub samples: u64,
}

/// `profile --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Profile {
    /// The program's file.
    pub file: String,
    /// Instructions between samples.
    pub every: u64,
    /// Samples taken.
    pub samples: u64,
    /// The folded stacks.
    pub stacks: Vec<ProfileStack>,
    /// The source lines the samples were taken at, most samples first,
    /// when the program has debug information.
    pub lines: Vec<ProfileLine>,
    /// How the run ended.
    pub exit: Exit,
}

/// `bench --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Bench {
    /// `--quick` (the figures mean little).
    pub quick: bool,
    /// The report's lines, as text.
    pub lines: Vec<String>,
}

/// `snapshot --json`: what was written.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Snapshot {
    /// The snapshot file written.
    pub output: String,
    /// The machine's mode.
    pub mode: toolhelp16::walk::CpuMode,
    /// Bytes of memory saved.
    pub memory_bytes: usize,
    /// Blobs they are in.
    pub blobs: usize,
    /// Expected frames it holds.
    pub expected_frames: usize,
    /// How the expected walk ends.
    pub walk_end: String,
}

/// `mapsym --json`: what was written.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Mapsym {
    /// The map read.
    pub map: String,
    /// The .SYM file written.
    pub output: String,
    /// Its module name.
    pub module: String,
    /// Segments in it.
    pub segments: usize,
    /// Symbols in it.
    pub symbols: usize,
    /// Its size in bytes.
    pub bytes: usize,
}

/// The schema of each command's JSON, by file name under docs/schema/.
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    use schemars::schema_for;
    let mut all = vec![
        ("bench.json", schema_for!(Doc<Bench>)),
        ("demo.json", schema_for!(Doc<Stack>)),
        ("disasm.json", schema_for!(Versioned<DisasmOut<'static>>)),
        ("error.json", schema_for!(Doc<ErrorOutput>)),
        ("heap.json", schema_for!(Doc<Heap>)),
        ("info.json", schema_for!(Doc<Info>)),
        ("mapsym.json", schema_for!(Doc<Mapsym>)),
        ("profile.json", schema_for!(Doc<Profile>)),
        ("run.json", schema_for!(Doc<Run>)),
        ("snapshot.json", schema_for!(Doc<Snapshot>)),
        ("stack.json", schema_for!(Doc<Stack>)),
        ("trace.json", schema_for!(TraceLine)),
        ("walk.json", schema_for!(Doc<Walk>)),
    ];
    for (name, schema) in &mut all {
        let command = name.trim_end_matches(".json");
        let title = match command {
            "error" => "toolhelp16: an error under --json".to_string(),
            "trace" | "disasm" => format!("toolhelp16 {command} --json: one line"),
            _ => format!("toolhelp16 {command} --json"),
        };
        schema.insert("title".into(), title.into());
        // The version this build prints, exactly.
        if let Some(v) = schema
            .get_mut("properties")
            .and_then(|p| p.get_mut("version"))
            .and_then(|v| v.as_object_mut())
        {
            v.insert("const".into(), toolhelp16::JSON_VERSION.into());
        }
    }
    all
}
