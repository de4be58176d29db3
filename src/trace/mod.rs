//! Execution traces (`toolhelp16 trace`), the shadow call stack and the
//! sampling profiler: observers of the machine (machine.rs `Observer`).
//!
//! **How the tracer stays fast.** It does not run Rust once per
//! instruction. unicorn calls it once per translation block; each block is
//! decoded once ([`blocks`]) and rendered once — every line of it, with
//! CS:IP, MODULE:SEG:OFF, bytes and disassembly — and an executed block is
//! written as that text in one piece. Only the block a fault or the end of
//! the run cuts short is written line by line, up to where execution
//! stopped. `--regs` needs every instruction's registers and so a hook per
//! instruction: the slow path, used only when asked for.

pub mod blocks;
pub mod profile;
pub mod record;
pub mod shadow;
pub mod verify;

use std::io::Write;

use iced_x86::{Formatter, GasFormatter, IntelFormatter, MasmFormatter, NasmFormatter};

use crate::machine::{Cpu, Fault, Observer, Regs, Stop, Uc};
use crate::walk::WalkMemory;
use blocks::{Block, Blocks, Insn};

/// Assembler syntax of the disassembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Syntax {
    #[default]
    /// NASM syntax.
    Nasm,
    /// MASM syntax.
    Masm,
    /// Intel (XED) syntax.
    Intel,
    /// GNU as (AT&T) syntax.
    Gas,
}

/// What to trace and how.
#[derive(Debug, Clone, Default)]
pub struct TraceOptions {
    /// Disassembly syntax.
    pub syntax: Syntax,
    /// JSON lines instead of text.
    pub json: bool,
    /// Start writing at this linear address (`--from`).
    pub from: Option<u64>,
    /// Only instructions of this module (`--module`, upper case).
    pub module: Option<String>,
    /// Stop the run after writing this many instructions (`--max`).
    pub max: Option<u64>,
    /// Append the registers each instruction changed (`--regs`).
    pub regs: bool,
    /// Count the instructions written on this progress bar (the CLI
    /// gives one on a terminal only; indicatif draws it).
    pub progress: Option<indicatif::ProgressBar>,
}

/// Where an instruction's code belongs: module name and NE segment number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place {
    /// The owning module's name (None when no module owns the code, or
    /// the environment has no name for it).
    pub module: Option<String>,
    /// The NE segment number (None for DOS code).
    pub segment: Option<u16>,
}

impl Place {
    /// The place of code at `cs` in the machine (empty when no module
    /// owns it).
    pub fn of(uc: &Uc<'_>, cs: u16) -> Place {
        let (module, segment) = code_place(uc, cs).unwrap_or((None, None));
        Place { module, segment }
    }

    /// Whether `--module` (`filter`, any case) selects code of this place.
    pub fn selected(&self, filter: Option<&str>) -> bool {
        match filter {
            Some(m) => self
                .module
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(m)),
            None => true,
        }
    }
}

/// Where code at `cs` belongs: the owning module's name (None when the
/// environment has no name for it) and its NE segment number (None for
/// DOS code); None when no module owns `cs`.
pub fn code_place(uc: &Uc<'_>, cs: u16) -> Option<(Option<String>, Option<u16>)> {
    let owner = WalkMemory::code_owner(uc, cs)?;
    Some((
        crate::machine::module_name(uc, owner.hmodule),
        owner.segment,
    ))
}

/// How instruction lines are rendered: the live tracer and the expansion
/// of a recording (record.rs) share it, so both write the same text from
/// the same block bytes, place and symbols.
#[derive(Debug, Clone, Copy, Default)]
pub struct Render {
    /// Disassembly syntax.
    pub syntax: Syntax,
    /// JSON lines instead of text.
    pub json: bool,
}

/// A block's rendered lines: the text, and where each instruction's line
/// ends in it (an instruction outside `--module` has an empty line).
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// The lines, each with its newline.
    pub text: String,
    /// End of each instruction's line in `text`, by instruction.
    pub ends: Vec<usize>,
}

impl Render {
    fn format(&self, insn: &iced_x86::Instruction) -> String {
        let mut text = String::new();
        if insn.is_invalid() {
            text.push_str("(bad)");
            return text;
        }
        match self.syntax {
            Syntax::Nasm => NasmFormatter::new().format(insn, &mut text),
            Syntax::Masm => MasmFormatter::new().format(insn, &mut text),
            Syntax::Intel => IntelFormatter::new().format(insn, &mut text),
            Syntax::Gas => GasFormatter::new().format(insn, &mut text),
        }
        text
    }

    /// One instruction's line (without the newline), with the symbol
    /// that names its address (symbols/mod.rs) and its source line, from
    /// debug information (symbols/lines.rs).
    pub fn line(
        &self,
        b: &Block,
        i: &Insn,
        place: &Place,
        symbol: Option<&str>,
        source: Option<&crate::symbols::lines::SourceLine>,
    ) -> String {
        let bytes = &b.bytes[usize::from(i.at)..usize::from(i.at) + usize::from(i.len)];
        let hex: Vec<String> = bytes.iter().map(|x| format!("{x:02X}")).collect();
        let text = self.format(&i.insn);
        if self.json {
            let line = TraceLine {
                version: crate::JSON_VERSION,
                cs: b.cs,
                ip: i.ip,
                bytes: hex.join(" "),
                text,
                module: place.module.clone(),
                symbol: symbol.map(str::to_string),
                segment: place.segment,
                offset: place.segment.map(|_| i.ip),
                source: source.map(|l| l.to_string()),
                changed: None,
            };
            serde_json::to_string(&line).unwrap_or_default()
        } else {
            let loc = match (&place.module, place.segment) {
                (Some(m), Some(s)) => format!("{}:{s}:{:04X}", crate::escape::name(m), i.ip),
                (Some(m), None) => crate::escape::name(m).into_owned(),
                _ => String::new(),
            };
            let line = format!(
                "{:04X}:{:04X}  {loc:<20} {:<20} {text}",
                b.cs,
                i.ip,
                hex.join(" ")
            );
            let at = source
                .map(|l| format!(" at {}", crate::escape::name(&l.to_string())))
                .unwrap_or_default();
            match symbol {
                Some(sym) => format!("{line:<78} ; {}{at}", crate::escape::name(sym)),
                None if source.is_some() => format!("{line:<78} ;{at}"),
                None => line,
            }
        }
    }

    /// Every line of block `b` at `place`; `symbol(k)` names instruction
    /// `k`'s address and gives its source line. With `wanted` false
    /// (outside `--module`), every line is empty and `symbol` is not asked.
    pub fn block(
        &self,
        b: &Block,
        place: &Place,
        wanted: bool,
        mut symbol: impl FnMut(usize) -> (Option<String>, Option<crate::symbols::lines::SourceLine>),
    ) -> Lines {
        let mut text = String::new();
        let mut ends = Vec::with_capacity(b.insns.len());
        for (k, i) in b.insns.iter().enumerate() {
            if wanted {
                let (sym, src) = symbol(k);
                text.push_str(&self.line(b, i, place, sym.as_deref(), src.as_ref()));
                text.push('\n');
            }
            ends.push(text.len());
        }
        Lines { text, ends }
    }
}

/// Where rendered lines go: the output, `--max`, the progress bar and the
/// first write error. The live tracer and the expansion write through it.
pub struct Sink {
    out: Box<dyn Write>,
    max: Option<u64>,
    progress: Option<indicatif::ProgressBar>,
    last_progress: u64,
    /// Instructions written.
    pub written: u64,
    /// The first write error.
    pub error: Option<std::io::Error>,
}

impl Sink {
    /// A sink writing to `out`, at most `max` instructions, counting them
    /// on `progress`.
    pub fn new(
        out: Box<dyn Write>,
        max: Option<u64>,
        progress: Option<indicatif::ProgressBar>,
    ) -> Sink {
        Sink {
            out,
            max,
            progress,
            last_progress: 0,
            written: 0,
            error: None,
        }
    }

    /// Write instructions `skip..n` of `lines` (to their end when None),
    /// within `--max`.
    pub fn write(&mut self, lines: &Lines, skip: usize, n: Option<usize>) {
        let all = lines.ends.len();
        let mut n = n.unwrap_or(all).min(all);
        if let Some(max) = self.max {
            n = n.min(skip.saturating_add(max.saturating_sub(self.written) as usize));
        }
        if n <= skip {
            return;
        }
        let start = if skip == 0 { 0 } else { lines.ends[skip - 1] };
        let end = lines.ends[n - 1];
        // A block outside `--module` renders to nothing.
        let count = if end == start { 0 } else { (n - skip) as u64 };
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&lines.text.as_bytes()[start..end]) {
                self.error = Some(e);
            }
        }
        self.written += count;
        if let Some(bar) = &self.progress {
            if self.written - self.last_progress >= 65_536 {
                self.last_progress = self.written;
                bar.set_position(self.written);
            }
        }
    }

    /// Write one whole line (`--regs`).
    fn write_line(&mut self, line: &str) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{line}") {
                self.error = Some(e);
            }
        }
        self.written += 1;
    }

    /// `--max` instructions are written.
    pub fn full(&self) -> bool {
        self.max.is_some_and(|m| self.written >= m)
    }

    /// The output failed (a closed pipe).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Flush the output and clear the progress bar; the first error.
    pub fn finish(&mut self) -> std::io::Result<()> {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }
}

/// The block a block hook sees entered at `addr` (`size` bytes) cuts the
/// block entered before it (`last`, `last_size` bytes) short: it starts
/// inside that one and ends before it — what QEMU does after a store into
/// the code it is running (machine/counter.rs, "Self-modifying code").
pub fn cuts_short(last: u64, last_size: u64, addr: u64, size: u64) -> bool {
    addr.wrapping_sub(last) < last_size && addr + size < last + last_size
}

/// The trace writer: an [`Observer`].
pub struct Tracer {
    opts: TraceOptions,
    render: Render,
    sink: Sink,
    blocks: Blocks,
    /// Rendered text of each block (index as in `blocks`).
    rendered: Vec<Option<Lines>>,
    /// The block entered last, not yet written: it may be cut short.
    pending: Option<usize>,
    /// Instructions of the pending block before `--from`, not written.
    pending_skip: usize,
    /// Writing has started (`--from` reached).
    active: bool,
    /// Instructions completed in the blocks before the pending one,
    /// written or not (`finish` tells from the machine's count how much of
    /// the pending block ran).
    ran: u64,
    /// `--regs`: the line of the previous instruction, and the registers
    /// before it.
    prev: Option<(String, Regs)>,
}

impl Tracer {
    /// A tracer writing to `out`.
    pub fn new(mut opts: TraceOptions, out: Box<dyn Write>) -> Tracer {
        let sink = Sink::new(out, opts.max, opts.progress.take());
        Tracer {
            active: opts.from.is_none(),
            render: Render {
                syntax: opts.syntax,
                json: opts.json,
            },
            opts,
            sink,
            blocks: Blocks::default(),
            rendered: Vec::new(),
            pending: None,
            pending_skip: 0,
            ran: 0,
            prev: None,
        }
    }

    /// Instructions written.
    pub fn written(&self) -> u64 {
        self.sink.written
    }

    fn render(&mut self, uc: &Uc<'_>, k: usize) {
        if self.rendered.len() > self.blocks.blocks.len() {
            // The block cache started afresh.
            self.rendered.clear();
        }
        if self.rendered.len() <= k {
            self.rendered.resize(k + 1, None);
        }
        if self.rendered[k].is_some() {
            return;
        }
        let b = &self.blocks.blocks[k];
        let place = Place::of(uc, b.cs);
        let wanted = place.selected(self.opts.module.as_deref());
        let lines = self.render.block(b, &place, wanted, |k| {
            let ip = b.insns[k].ip;
            (
                crate::machine::symbol_at(uc, b.cs, ip).map(|s| s.to_string()),
                crate::machine::line_at(uc, b.cs, ip),
            )
        });
        self.rendered[k] = Some(lines);
    }

    /// Write what of the pending block ran: its first `n` instructions
    /// (all when None), of which the last faulted when `faulted`.
    fn flush_pending(&mut self, n: Option<usize>, faulted: bool) {
        let Some(k) = self.pending.take() else {
            return;
        };
        let all = self.blocks.blocks[k].insns.len();
        let n = n.unwrap_or(all).min(all);
        self.ran += (n - usize::from(faulted && n > 0)) as u64;
        let skip = std::mem::take(&mut self.pending_skip);
        if let Some(Some(lines)) = self.rendered.get(k) {
            self.sink.write(lines, skip, Some(n));
        }
    }

    /// The output failed (a closed pipe: `trace | head`): the run stops
    /// at the next block, since nothing more can be written.
    pub fn failed(&self) -> bool {
        self.sink.failed()
    }

    /// The trace has written `--max` instructions (the run stops).
    pub fn full(&self) -> bool {
        self.sink.full()
    }

    /// The run ended at CS:IP (the next instruction, not run) after
    /// `executed` instructions when the machine counted them: write what
    /// of the last block ran, and flush.
    ///
    /// The count decides: a run stopped where a block ends, before a next
    /// block that starts inside the last one (a loop back to its own
    /// start), ran the last block whole, though CS:IP lies in it. Without
    /// a count, the instructions before CS:IP are taken.
    pub fn finish(&mut self, cs: u16, ip: u16, executed: Option<u64>) -> std::io::Result<()> {
        if let Some(k) = self.pending {
            let b = &self.blocks.blocks[k];
            let n = match executed {
                Some(e) if e >= self.ran => Some((e - self.ran).min(b.insns.len() as u64) as usize),
                _ if cs == b.cs => Some(b.before(ip).len()),
                _ => None,
            };
            self.flush_pending(n, false);
        }
        if let Some((line, _)) = self.prev.take() {
            self.sink.write_line(&line);
        }
        self.sink.finish()
    }

    /// `--regs`: the line with the registers that differ, in text as
    /// " AX=1234 SP=09F0" after it, in JSON as a `"changed"` member
    /// (`{"AX": 4660, ...}`).
    fn with_changed(&self, line: &str, before: &Regs, after: &Regs) -> String {
        let pairs = Self::changed(before, after);
        if self.opts.json {
            match serde_json::from_str::<TraceLine>(line) {
                Ok(mut v) => {
                    v.changed = Some(pairs.iter().map(|(n, x)| ((*n).to_string(), *x)).collect());
                    serde_json::to_string(&v).unwrap_or_default()
                }
                Err(_) => line.to_string(),
            }
        } else {
            let text: String = pairs.iter().map(|(n, x)| format!(" {n}={x:04X}")).collect();
            format!("{line}{text}")
        }
    }

    /// The registers that differ, by name.
    fn changed(before: &Regs, after: &Regs) -> Vec<(&'static str, u16)> {
        let pairs = [
            ("AX", before.ax, after.ax),
            ("BX", before.bx, after.bx),
            ("CX", before.cx, after.cx),
            ("DX", before.dx, after.dx),
            ("SI", before.si, after.si),
            ("DI", before.di, after.di),
            ("BP", before.bp, after.bp),
            ("SP", before.sp, after.sp),
            ("DS", before.ds, after.ds),
            ("ES", before.es, after.es),
            ("SS", before.ss, after.ss),
            ("FLAGS", before.flags, after.flags),
        ];
        pairs
            .iter()
            .filter(|p| p.1 != p.2)
            .map(|p| (p.0, p.2))
            .collect()
    }
}

impl Observer for Tracer {
    fn on_block(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<Stop> {
        if self.opts.regs {
            // --regs writes from the instruction hook; the run stops at
            // the first block after the trace is full, as without it.
            return (self.full() || self.failed()).then_some(Stop::Budget);
        }
        // The pending block ran to its end, unless this one cuts it short
        // (self-modifying code): then its instructions from `addr` on did
        // not run.
        let cut = self.pending.and_then(|k| {
            let b = &self.blocks.blocks[k];
            cuts_short(b.linear, b.bytes.len() as u64, addr, u64::from(size)).then(|| {
                b.insns
                    .iter()
                    .filter(|i| b.linear + u64::from(i.at) < addr)
                    .count()
            })
        });
        self.flush_pending(cut, false);
        if self.full() || self.failed() {
            return Some(Stop::Budget);
        }
        let k = self.blocks.enter(uc, addr, size, cs, ip)?;
        if !self.active {
            let b = &self.blocks.blocks[k];
            self.pending = Some(k);
            let from = self.opts.from?;
            if from < b.linear || from >= b.linear + b.bytes.len() as u64 {
                // Not written, but counted when it ends (`finish`).
                self.pending_skip = b.insns.len();
                return None;
            }
            self.active = true;
            // Only from the `--from` instruction on: the block is pending
            // without its head, and written (within --max) as it ends.
            self.pending_skip = b.before(ip.wrapping_add((from - b.linear) as u16)).len();
        }
        self.render(uc, k);
        self.pending = Some(k);
        None
    }

    fn on_fault(&mut self, _uc: &Uc<'_>, f: &Fault) {
        // The faulting instruction is the last one that ran (in part).
        if let Some(k) = self.pending {
            let b = &self.blocks.blocks[k];
            if f.cs == b.cs && b.insns.iter().any(|i| i.ip == f.ip) {
                let n = b.through(f.ip).len();
                self.flush_pending(Some(n), true);
            } else {
                self.flush_pending(None, false);
            }
        }
    }

    fn on_insn(&mut self, uc: &Uc<'_>, addr: u64, size: u32) {
        if !self.opts.regs || self.full() {
            return;
        }
        let regs = uc.regs();
        if let Some((line, before)) = self.prev.take() {
            let text = self.with_changed(&line, &before, &regs);
            self.sink.write_line(&text);
            if self.full() {
                return;
            }
        }
        let mut bytes = vec![0u8; size.min(16) as usize];
        if uc.mem_read(addr, &mut bytes).is_err() {
            return;
        }
        let b = blocks::decode(addr, regs.cs, regs.ip, bytes);
        let Some(i) = b.insns.first() else {
            return;
        };
        let place = Place::of(uc, regs.cs);
        if !place.selected(self.opts.module.as_deref()) {
            return;
        }
        let sym = crate::machine::symbol_at(uc, regs.cs, regs.ip).map(|s| s.to_string());
        let src = crate::machine::line_at(uc, regs.cs, regs.ip);
        let line = self
            .render
            .line(&b, i, &place, sym.as_deref(), src.as_ref());
        self.prev = Some((line, regs));
    }
}

/// One line of `trace --json`: an executed instruction (the schema is
/// docs/schema/trace.json).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct TraceLine {
    /// The JSON output's version ([`crate::JSON_VERSION`]).
    pub version: u32,
    /// CS when it executed (a selector in protected mode, a paragraph in
    /// real mode).
    pub cs: u16,
    /// IP when it executed.
    pub ip: u16,
    /// Its bytes in hex, separated by spaces.
    pub bytes: String,
    /// Its disassembly in the chosen syntax.
    pub text: String,
    /// The module whose code it is, or null.
    pub module: Option<String>,
    /// The symbol naming its address (`NAME+0x12`), or null.
    pub symbol: Option<String>,
    /// The NE segment number, when the code belongs to a module's segment.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub segment: Option<u16>,
    /// The offset in that segment (= `ip`), with `segment`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub offset: Option<u16>,
    /// `file.c:12`: its source line, from the module's debug information.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
    /// `--regs`: the registers the instruction changed, by name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub changed: Option<std::collections::BTreeMap<String, u16>>,
}
