//! Checkpoint files: a stopped run written into a snapshot file
//! (`snapshot --resumable`, walk/snapshot.rs) and resumed from it on
//! another machine (`run --resume`, `debug --resume`, `gdbserver
//! --resume`), so that a user can hand someone a program stopped at its
//! bug.
//!
//! **How.** Not the state itself: the environment's state (DOS, Win16,
//! the scheduler, the host's open files) holds host resources and Rust
//! closures that have no file form. The file holds instead what makes
//! the run reach the same moment again by deterministic replay (debug/
//! mod.rs, "Reverse execution": emulated time, a fixed clock, scripted
//! input): the program's bytes and every file of the directory it sees
//! as drive C:, the command tail, every run option that changes the run,
//! the stop's *position* (instructions started before it, as the
//! debugger counts them) and a digest of the state there. Resuming
//! unpacks the directory into a fresh temporary directory, runs the
//! program under the debugger to the position, and compares the digest;
//! a run that does not reach the same state is refused with what
//! differs. Since the whole run is replayed, a `debug` or `gdbserver`
//! session resumed from a file can go back (reverse-stepi,
//! reverse-continue, `goto`) to before the file's position, to the
//! program's start.
//!
//! # Format (the `resume` member of a snapshot, version 1)
//!
//! ```text
//! "resume": {
//!   "version": 1,
//!   "position": N,                 instructions started before the stop
//!   "digest": {"registers": REGS,  the 16-bit registers (as the
//!                                  snapshot's), live at the stop
//!              "memory": HEX16, "vga": HEX16, "output": HEX16,
//!              "clock": N},        FNV-1a hashes ([`Digest`])
//!   "program": "PATH",             the program, relative to the drive
//!   "more": ["PATH"...],           other tasks' programs, relative too
//!   "args": ["..."],               the command tail's words
//!   "drive": "program" | "dir",    C: was the program's own directory
//!                                  (read-only, writes discarded) or
//!                                  --dir (read-write)
//!   "options": {"clock": "YYYY-MM-DD HH:MM:SS", "max_insns": N,
//!               "keys": S, "mouse": S|null, "env": ["N=V"...],
//!               "stdin": BASE64, "messages": BASE64|null,
//!               "inject_fault": LOC|null, "display": S|null,
//!               "show": S|null, "disk_quota": N,
//!               "load": "SEG:OFF"|null, "entry": "SEG:OFF"|null},
//!   "files": [{"path": "DIR/NAME", "modified": SECONDS,
//!              "base64": BASE64}...]
//! }
//! ```
//!
//! - `files`: every regular file under the drive's directory (symbolic
//!   links followed), at most [`MAX_DEPTH`] directories deep, paths
//!   relative with `/`; at most [`MAX_FILES`] files and
//!   [`MAX_DRIVE_BYTES`] bytes together (a larger directory is refused
//!   when writing: give `--dir` with a directory holding only what the
//!   program needs). `modified` is the file's time (seconds since
//!   1970, UTC; DOS's FindFirst and the file handles report it), given
//!   back to the unpacked file.
//! - Not in the file, so not a run option of a checkpoint file: `--fonts`
//!   and `--windows` (host directories; refused when writing), symbol
//!   files (`--map`, `--sym`: they name code, they do not change the run;
//!   `STEM.map` beside the program is among the files), `--keep-writes`.
//!   The raster fonts Win16 programs draw with come from the resuming
//!   machine (`TOOLHELP16_FONTS`, Wine's); when they differ, the digest
//!   says so.
//! - Standard input is `--stdin FILE`'s bytes, or empty (a checkpoint
//!   file's run never reads the terminal); the clock is `--clock` or the
//!   time the snapshot was taken, fixed.
//!
//! Reading is bounded and exact: unknown members are refused, every
//! string and list has a cap, paths are checked (relative, no `..`, no
//! empty or `.` part), and an error names the file and the field (or the
//! line and column where the JSON itself is wrong).

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::machine::{Cpu, Uc};
use crate::walk::memory::CpuMode;
use crate::walk::snapshot::Registers;

/// The `resume` member's version this code writes and reads.
pub const VERSION: u32 = 1;
/// The most files a checkpoint file's drive holds.
pub const MAX_FILES: usize = 4096;
/// The most bytes a checkpoint file's drive holds, all files together.
pub const MAX_DRIVE_BYTES: u64 = 24 << 20;
/// The deepest directory of the drive packed (C:\ is depth 0).
pub const MAX_DEPTH: usize = 8;
/// The longest path of a file in the drive.
const MAX_PATH: usize = 255;
/// The most words in the command tail, programs, `--env` pairs.
const MAX_LIST: usize = 256;
/// The longest option text (`--keys`, `--mouse`, a word of the tail).
const MAX_TEXT: usize = 1 << 16;
/// The most bytes of `--stdin` and of `--messages` kept.
const MAX_INPUT: usize = 16 << 20;

/// Hashes of a run's state at a stop, to tell that a replay reached the
/// same state: what the `digest` monitor command shows (debug/views.rs),
/// with FNV-1a (64 bits), a hash that does not change between builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// The 16-bit registers.
    pub registers: Registers,
    /// Memory: in real mode the megabyte above the first page (the
    /// first page holds the BIOS's tick count), in protected mode every
    /// mapped region.
    pub memory: u64,
    /// The VGA planes.
    pub vga: u64,
    /// The console output and the OutputDebugString strings.
    pub output: u64,
    /// The emulated clock (instructions the machine counted).
    pub clock: u64,
}

const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

impl Digest {
    /// The digest of the machine's state now.
    pub fn of(uc: &Uc<'_>) -> Digest {
        let ranges: Vec<(u64, u64)> = match uc.mode() {
            CpuMode::Real => vec![(0x1000, 0x10_0000)],
            CpuMode::Protected => uc
                .mem_regions()
                .map(|v| v.iter().map(|r| (r.begin, r.end + 1)).collect())
                .unwrap_or_default(),
        };
        let mut memory = FNV_START;
        let mut buf = vec![0u8; 0x1000];
        for (a, b) in ranges {
            let mut at = a;
            while at < b {
                let n = ((b - at) as usize).min(buf.len());
                // Unreadable pages hash as their address alone.
                memory = fnv(memory, &at.to_le_bytes());
                if uc.mem_read(at, &mut buf[..n]).is_ok() {
                    memory = fnv(memory, &buf[..n]);
                }
                at += n as u64;
            }
        }
        let data = uc.get_data();
        let vga = fnv(FNV_START, &data.vga.planes);
        let mut output = FNV_START;
        if let Some(e) = crate::machine::environment_of::<crate::system::Env>(uc) {
            output = fnv(output, &e.console);
            for s in &e.debug_output {
                output = fnv(output, &(s.len() as u64).to_le_bytes());
                output = fnv(output, s.as_bytes());
            }
        }
        Digest {
            registers: uc.regs().into(),
            memory,
            vga,
            output,
            clock: data.total_insns(),
        }
    }

    /// What differs from `other` (the file's), in words; None when
    /// nothing does.
    pub fn differences(&self, file: &Digest) -> Option<String> {
        let mut d = Vec::new();
        if self.registers != file.registers {
            let (a, b) = (self.registers, file.registers);
            d.push(format!(
                "registers (here CS:IP {:04X}:{:04X} SS:SP {:04X}:{:04X} AX {:04X} FLAGS {:04X}, \
                 the file's {:04X}:{:04X} {:04X}:{:04X} {:04X} {:04X})",
                a.cs, a.ip, a.ss, a.sp, a.ax, a.flags, b.cs, b.ip, b.ss, b.sp, b.ax, b.flags
            ));
        }
        for (name, a, b) in [
            ("memory", self.memory, file.memory),
            ("VGA planes", self.vga, file.vga),
            ("output", self.output, file.output),
        ] {
            if a != b {
                d.push(format!("{name} (hash {a:016x}, the file's {b:016x})"));
            }
        }
        if self.clock != file.clock {
            d.push(format!("clock ({}, the file's {})", self.clock, file.clock));
        }
        (!d.is_empty()).then(|| d.join(", "))
    }
}

/// Where drive C: was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drive {
    /// The program's own directory, read-only (writes to an overlay).
    Program,
    /// `--dir`, read-write.
    Dir,
}

/// The run options a checkpoint file keeps (the module's format).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunOptions {
    /// `--clock`, fixed.
    pub clock: String,
    /// `--max-insns`.
    pub max_insns: u64,
    /// `--keys`.
    pub keys: String,
    /// `--mouse`.
    pub mouse: Option<String>,
    /// `--env` pairs, NAME=VALUE.
    pub env: Vec<String>,
    /// Standard input's bytes.
    pub stdin: Vec<u8>,
    /// The `--messages` script's bytes.
    pub messages: Option<Vec<u8>>,
    /// `--inject-fault`.
    pub inject_fault: Option<String>,
    /// `--display`.
    pub display: Option<String>,
    /// `--show`.
    pub show: Option<String>,
    /// `--disk-quota`, bytes.
    pub disk_quota: u64,
    /// `--load`.
    pub load: Option<String>,
    /// `--entry`.
    pub entry: Option<String>,
}

/// A checkpoint file's `resume` member (the module's format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume {
    /// Instructions started before the stop.
    pub position: u64,
    /// The state there.
    pub digest: Digest,
    /// The program, relative to the drive.
    pub program: String,
    /// Other tasks' programs, relative to the drive.
    pub more: Vec<String>,
    /// The command tail's words.
    pub args: Vec<String>,
    /// Where drive C: was.
    pub drive: Drive,
    /// The run options.
    pub options: RunOptions,
    /// The drive's files.
    pub files: Vec<DriveFile>,
}

// ---- The JSON shapes --------------------------------------------------

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResume {
    version: u32,
    position: u64,
    digest: RawDigest,
    program: String,
    #[serde(default)]
    more: Vec<String>,
    #[serde(default)]
    args: Vec<String>,
    drive: String,
    options: RawOptions,
    files: Vec<RawFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDigest {
    registers: Registers,
    memory: String,
    vga: String,
    output: String,
    clock: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptions {
    clock: String,
    #[serde(default)]
    max_insns: u64,
    #[serde(default)]
    keys: String,
    #[serde(default)]
    mouse: Option<String>,
    #[serde(default)]
    env: Vec<String>,
    #[serde(default)]
    stdin: String,
    #[serde(default)]
    messages: Option<String>,
    #[serde(default)]
    inject_fault: Option<String>,
    #[serde(default)]
    display: Option<String>,
    #[serde(default)]
    show: Option<String>,
    disk_quota: u64,
    #[serde(default)]
    load: Option<String>,
    #[serde(default)]
    entry: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    path: String,
    modified: u64,
    base64: String,
}

/// A file of a checkpoint file's drive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriveFile {
    /// Its path relative to the drive, with `/`.
    pub path: String,
    /// Its time, seconds since 1970 (UTC).
    pub modified: u64,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The members of a snapshot file the resume reader looks at (the
/// others, the walk's, are checked as JSON only).
#[derive(Deserialize)]
struct Top {
    format: String,
    version: u32,
    #[serde(default)]
    resume: Option<RawResume>,
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn unb64(s: &str, field: &str, cap: usize) -> Result<Vec<u8>, String> {
    if s.len() / 4 * 3 > cap + 3 {
        return Err(format!("{field}: more than {cap} bytes"));
    }
    base64::engine::general_purpose::STANDARD
        .decode(s.as_bytes())
        .map_err(|e| format!("{field}: not base64 ({e})"))
}

fn text(s: &str, field: &str) -> Result<String, String> {
    if s.len() > MAX_TEXT {
        return Err(format!("{field}: longer than {MAX_TEXT} bytes"));
    }
    Ok(s.to_string())
}

fn list(v: &[String], field: &str) -> Result<Vec<String>, String> {
    if v.len() > MAX_LIST {
        return Err(format!("{field}: more than {MAX_LIST} entries"));
    }
    v.iter()
        .enumerate()
        .map(|(i, s)| text(s, &format!("{field}[{i}]")))
        .collect()
}

fn hash(s: &str, field: &str) -> Result<u64, String> {
    if s.len() != 16 {
        return Err(format!(
            "{field}: {} characters, not 16 hex digits",
            s.len()
        ));
    }
    u64::from_str_radix(s, 16).map_err(|_| format!("{field}: not 16 hex digits"))
}

/// Check a drive path: relative, `/`-separated, no empty, `.` or `..`
/// part, no backslash or NUL, at most [`MAX_DEPTH`] directories deep.
pub fn check_path(p: &str, field: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("{field}: {}: {why}", crate::escape::quoted(p)));
    if p.is_empty() {
        return bad("empty");
    }
    if p.len() > MAX_PATH {
        return bad("longer than 255 bytes");
    }
    if p.contains(['\\', '\0']) {
        return bad("holds a backslash or NUL");
    }
    let parts: Vec<&str> = p.split('/').collect();
    if parts.len() > MAX_DEPTH + 1 {
        return bad("deeper than 8 directories");
    }
    if parts
        .iter()
        .any(|c| c.is_empty() || *c == "." || *c == "..")
    {
        return bad("not a relative path of names (an empty, . or .. part, or a leading /)");
    }
    Ok(())
}

impl Resume {
    /// The `resume` member as JSON.
    pub fn to_value(&self) -> serde_json::Value {
        let o = &self.options;
        let raw = RawResume {
            version: VERSION,
            position: self.position,
            digest: RawDigest {
                registers: self.digest.registers,
                memory: format!("{:016x}", self.digest.memory),
                vga: format!("{:016x}", self.digest.vga),
                output: format!("{:016x}", self.digest.output),
                clock: self.digest.clock,
            },
            program: self.program.clone(),
            more: self.more.clone(),
            args: self.args.clone(),
            drive: match self.drive {
                Drive::Program => "program",
                Drive::Dir => "dir",
            }
            .to_string(),
            options: RawOptions {
                clock: o.clock.clone(),
                max_insns: o.max_insns,
                keys: o.keys.clone(),
                mouse: o.mouse.clone(),
                env: o.env.clone(),
                stdin: b64(&o.stdin),
                messages: o.messages.as_deref().map(b64),
                inject_fault: o.inject_fault.clone(),
                display: o.display.clone(),
                show: o.show.clone(),
                disk_quota: o.disk_quota,
                load: o.load.clone(),
                entry: o.entry.clone(),
            },
            files: self
                .files
                .iter()
                .map(|f| RawFile {
                    path: f.path.clone(),
                    modified: f.modified,
                    base64: b64(&f.bytes),
                })
                .collect(),
        };
        serde_json::to_value(raw).unwrap_or(serde_json::Value::Null)
    }

    /// Read the `resume` member of a snapshot's JSON bytes (the file
    /// named `name` in errors). Ok(None): a snapshot without one.
    pub fn from_json(bytes: &[u8], name: &str) -> Result<Option<Resume>, String> {
        let fail = |what: String| format!("{name}: {what}");
        if bytes.len() as u64 > crate::walk::snapshot::MAX_FILE_BYTES {
            return Err(fail(format!(
                "larger than {} MiB, the most a snapshot may be",
                crate::walk::snapshot::MAX_FILE_BYTES >> 20
            )));
        }
        let top: Top = serde_json::from_slice(bytes)
            .map_err(|e| fail(format!("not a checkpoint file: {e}")))?;
        if top.format != crate::walk::snapshot::FORMAT {
            return Err(fail(format!(
                "format: {}, not \"{}\"",
                crate::escape::quoted(&top.format.chars().take(80).collect::<String>()),
                crate::walk::snapshot::FORMAT
            )));
        }
        if top.version != crate::walk::snapshot::VERSION {
            return Err(fail(format!(
                "version: {}, but this toolhelp16 reads version {}",
                top.version,
                crate::walk::snapshot::VERSION
            )));
        }
        match top.resume {
            None => Ok(None),
            Some(r) => Self::from_raw(r)
                .map(Some)
                .map_err(|e| fail(format!("resume.{e}"))),
        }
    }

    fn from_raw(r: RawResume) -> Result<Resume, String> {
        if r.version != VERSION {
            return Err(format!(
                "version: {}, but this toolhelp16 reads version {VERSION}",
                r.version
            ));
        }
        let digest = Digest {
            registers: r.digest.registers,
            memory: hash(&r.digest.memory, "digest.memory")?,
            vga: hash(&r.digest.vga, "digest.vga")?,
            output: hash(&r.digest.output, "digest.output")?,
            clock: r.digest.clock,
        };
        check_path(&r.program, "program")?;
        let more = list(&r.more, "more")?;
        for (i, m) in more.iter().enumerate() {
            check_path(m, &format!("more[{i}]"))?;
        }
        let drive = match r.drive.as_str() {
            "program" => Drive::Program,
            "dir" => Drive::Dir,
            other => {
                return Err(format!(
                    "drive: {}, not \"program\" or \"dir\"",
                    crate::escape::quoted(&other.chars().take(80).collect::<String>())
                ));
            }
        };
        let o = r.options;
        let opt = |v: &Option<String>, f: &str| -> Result<Option<String>, String> {
            v.as_deref()
                .map(|s| text(s, &format!("options.{f}")))
                .transpose()
        };
        crate::dos::clock::DateTime::parse(&o.clock).map_err(|e| format!("options.clock: {e}"))?;
        let options = RunOptions {
            clock: text(&o.clock, "options.clock")?,
            max_insns: o.max_insns,
            keys: text(&o.keys, "options.keys")?,
            mouse: opt(&o.mouse, "mouse")?,
            env: list(&o.env, "options.env")?,
            stdin: unb64(&o.stdin, "options.stdin", MAX_INPUT)?,
            messages: o
                .messages
                .as_deref()
                .map(|m| unb64(m, "options.messages", MAX_INPUT))
                .transpose()?,
            inject_fault: opt(&o.inject_fault, "inject_fault")?,
            display: opt(&o.display, "display")?,
            show: opt(&o.show, "show")?,
            disk_quota: o.disk_quota,
            load: opt(&o.load, "load")?,
            entry: opt(&o.entry, "entry")?,
        };
        if r.files.len() > MAX_FILES {
            return Err(format!(
                "files: {} files, more than the {MAX_FILES} allowed",
                r.files.len()
            ));
        }
        let mut total = 0u64;
        let mut files = Vec::with_capacity(r.files.len());
        let mut seen = std::collections::BTreeSet::new();
        for (i, f) in r.files.iter().enumerate() {
            let field = format!("files[{i}]");
            check_path(&f.path, &format!("{field}.path"))?;
            if !seen.insert(f.path.to_ascii_lowercase()) {
                return Err(format!(
                    "{field}.path: {} is there twice (DOS names are in one case)",
                    crate::escape::quoted(&f.path)
                ));
            }
            let left = (MAX_DRIVE_BYTES - total) as usize;
            let bytes = unb64(&f.base64, &format!("{field}.base64"), left)?;
            total += bytes.len() as u64;
            if total > MAX_DRIVE_BYTES {
                return Err(format!(
                    "{field}: the files hold more than {} MiB together",
                    MAX_DRIVE_BYTES >> 20
                ));
            }
            files.push(DriveFile {
                path: f.path.clone(),
                modified: f.modified,
                bytes,
            });
        }
        // A file that is also another's directory cannot be unpacked.
        for p in &seen {
            let mut at = 0;
            while let Some(i) = p[at..].find('/') {
                let dir = &p[..at + i];
                if seen.contains(dir) {
                    return Err(format!(
                        "files: {} is a file and a directory",
                        crate::escape::quoted(dir)
                    ));
                }
                at += i + 1;
            }
        }
        for (what, p) in
            std::iter::once(("program", &r.program)).chain(more.iter().map(|m| ("more", m)))
        {
            if !seen.contains(&p.to_ascii_lowercase()) {
                return Err(format!(
                    "{what}: {} is not among the files",
                    crate::escape::quoted(p)
                ));
            }
        }
        Ok(Resume {
            position: r.position,
            digest,
            program: r.program,
            more,
            args: list(&r.args, "args")?,
            drive,
            options,
            files,
        })
    }

    /// Read a checkpoint file; an error when it is not one, or is a
    /// snapshot without the `resume` member.
    pub fn read(path: &Path) -> Result<Resume, String> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, crate::walk::snapshot::MAX_FILE_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| format!("{name}: {e}"))?;
        Resume::from_json(&bytes, &name)?.ok_or_else(|| {
            format!(
                "{name}: a snapshot without the `resume` member (it was written without \
                 `snapshot --resumable`): it can be walked, not resumed"
            )
        })
    }

    /// Unpack the drive's files under `root` (an empty directory).
    pub fn unpack(&self, root: &Path) -> Result<(), String> {
        for f in &self.files {
            let host = root.join(&f.path);
            if let Some(parent) = host.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            let fail = |e: std::io::Error| format!("{}: {e}", host.display());
            std::fs::write(&host, &f.bytes).map_err(fail)?;
            let when = std::time::UNIX_EPOCH
                .checked_add(std::time::Duration::from_secs(f.modified))
                .unwrap_or(std::time::UNIX_EPOCH);
            std::fs::File::options()
                .write(true)
                .open(&host)
                .and_then(|h| h.set_modified(when))
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// Every regular file under `root` (symbolic links followed), as the
/// drive of a checkpoint file: sorted relative paths with `/`, within
/// [`MAX_FILES`], [`MAX_DRIVE_BYTES`] and [`MAX_DEPTH`]; past a limit,
/// an error naming the directory.
pub fn pack(root: &Path) -> Result<Vec<DriveFile>, String> {
    let too_big = |what: String| {
        format!(
            "{}: {what}; a checkpoint file holds the directory the program sees as drive C: \
             whole: give --dir with a directory holding only what the program needs",
            root.display()
        )
    };
    let mut out = Vec::new();
    let mut total = 0u64;
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(root.to_path_buf(), String::new(), 0)];
    while let Some((dir, rel, depth)) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let path = e.path();
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if check_path(&r, "").is_err() {
                continue;
            }
            if meta.is_dir() {
                if depth < MAX_DEPTH {
                    stack.push((path, r, depth + 1));
                }
            } else if meta.is_file() {
                total += meta.len();
                if total > MAX_DRIVE_BYTES {
                    return Err(too_big(format!(
                        "more than {} MiB of files",
                        MAX_DRIVE_BYTES >> 20
                    )));
                }
                if out.len() == MAX_FILES {
                    return Err(too_big(format!("more than {MAX_FILES} files")));
                }
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let modified = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_secs());
                out.push(DriveFile {
                    path: r,
                    modified,
                    bytes,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// A temporary directory, removed with what it holds when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new() -> Result<TempDir, String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let p = base.join(format!(
                "toolhelp16-resume-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            match std::fs::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("{}: {e}", p.display())),
            }
        }
        Err(format!(
            "{}: no free name for a temporary directory",
            base.display()
        ))
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample() -> Resume {
        Resume {
            position: 1234,
            digest: Digest {
                registers: Registers {
                    cs: 0x1234,
                    ip: 5,
                    ..Registers::default()
                },
                memory: 0x0123_4567_89AB_CDEF,
                vga: 1,
                output: 2,
                clock: 1234,
            },
            program: "A.EXE".into(),
            more: vec![],
            args: vec!["x".into()],
            drive: Drive::Program,
            options: RunOptions {
                clock: "1992-04-06 12:00:00".into(),
                stdin: b"abc".to_vec(),
                disk_quota: 1 << 20,
                ..RunOptions::default()
            },
            files: vec![
                DriveFile {
                    path: "A.EXE".into(),
                    modified: 700_000_000,
                    bytes: vec![0x4D, 0x5A],
                },
                DriveFile {
                    path: "SUB/B.TXT".into(),
                    modified: 0,
                    bytes: b"hi".to_vec(),
                },
            ],
        }
    }

    fn file_of(r: &Resume) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "format": crate::walk::snapshot::FORMAT,
            "version": crate::walk::snapshot::VERSION,
            "mode": "real",
            "registers": {"cs": 0, "ip": 0, "ss": 0, "sp": 0, "bp": 0},
            "memory": [],
            "resume": r.to_value(),
        }))
        .unwrap()
    }

    #[test]
    fn a_resume_member_reads_back_as_written() {
        let r = sample();
        let back = Resume::from_json(&file_of(&r), "f.json").unwrap().unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn bad_members_are_named() {
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["files"][1]["path"] = "../X".into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(e.starts_with("f.json: resume.files[1].path: "), "{e}");
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["digest"]["memory"] = "xyz".into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(e.contains("resume.digest.memory: 3 characters"), "{e}");
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["version"] = 2.into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(e.contains("resume.version: 2"), "{e}");
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["program"] = "B.EXE".into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(
            e.contains("resume.program: \"B.EXE\" is not among the files"),
            "{e}"
        );
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["extra"] = 1.into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(
            e.contains("unknown field `extra`") && e.contains("line 1"),
            "{e}"
        );
        let mut v: serde_json::Value = serde_json::from_slice(&file_of(&sample())).unwrap();
        v["resume"]["files"][0]["path"] = "SUB".into();
        let e = Resume::from_json(&serde_json::to_vec(&v).unwrap(), "f.json").unwrap_err();
        assert!(e.contains("is a file and a directory"), "{e}");
    }

    #[test]
    fn paths_are_relative_names() {
        for bad in ["", "/A", "A//B", "A/./B", "..", "A\\B", "A/"] {
            assert!(check_path(bad, "p").is_err(), "{bad:?}");
        }
        assert!(check_path("A/B/C.TXT", "p").is_ok());
        assert!(check_path("A/A/A/A/A/A/A/A/A", "p").is_ok());
        assert!(check_path("A/A/A/A/A/A/A/A/A/A", "p").is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = Resume::from_json(&bytes, "f.json");
        }

        #[test]
        fn changed_bytes_of_a_good_file_never_panic(
            at in any::<prop::sample::Index>(),
            with in any::<u8>(),
        ) {
            let mut b = file_of(&sample());
            let i = at.index(b.len());
            b[i] = with;
            if let Ok(Some(r)) = Resume::from_json(&b, "f.json") {
                // What reads must write back to itself.
                prop_assert_eq!(Resume::from_json(&file_of(&r), "f.json").unwrap().unwrap(), r);
            }
        }
    }
}
