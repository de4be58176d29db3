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
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    module: Option<String>,
    segment: Option<u16>,
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

/// The trace writer: an [`Observer`].
pub struct Tracer {
    opts: TraceOptions,
    out: Box<dyn Write>,
    blocks: Blocks,
    /// Rendered text of each block (index as in `blocks`), with the end of
    /// each line.
    rendered: Vec<Option<(String, Vec<usize>)>>,
    /// The block entered last, not yet written: it may be cut short.
    pending: Option<usize>,
    /// Instructions of the pending block before `--from`, not written.
    pending_skip: usize,
    /// Writing has started (`--from` reached).
    active: bool,
    /// Instructions written.
    pub written: u64,
    /// The first write error.
    pub error: Option<std::io::Error>,
    /// `--regs`: the line of the previous instruction, and the registers
    /// before it.
    prev: Option<(String, Regs)>,
    last_progress: u64,
}

impl Tracer {
    /// A tracer writing to `out`.
    pub fn new(opts: TraceOptions, out: Box<dyn Write>) -> Tracer {
        Tracer {
            active: opts.from.is_none(),
            opts,
            out,
            blocks: Blocks::default(),
            rendered: Vec::new(),
            pending: None,
            pending_skip: 0,
            written: 0,
            error: None,
            prev: None,
            last_progress: 0,
        }
    }

    fn place(&self, uc: &Uc<'_>, cs: u16) -> Place {
        let (module, segment) = code_place(uc, cs).unwrap_or((None, None));
        Place { module, segment }
    }

    fn format(&self, insn: &iced_x86::Instruction) -> String {
        let mut text = String::new();
        if insn.is_invalid() {
            text.push_str("(bad)");
            return text;
        }
        match self.opts.syntax {
            Syntax::Nasm => NasmFormatter::new().format(insn, &mut text),
            Syntax::Masm => MasmFormatter::new().format(insn, &mut text),
            Syntax::Intel => IntelFormatter::new().format(insn, &mut text),
            Syntax::Gas => GasFormatter::new().format(insn, &mut text),
        }
        text
    }

    /// One instruction's line (without the newline), with the symbol
    /// that names its address (symbols/mod.rs).
    fn line(&self, b: &Block, i: &Insn, place: &Place, symbol: Option<String>) -> String {
        let bytes = &b.bytes[usize::from(i.at)..usize::from(i.at) + usize::from(i.len)];
        let hex: Vec<String> = bytes.iter().map(|x| format!("{x:02X}")).collect();
        let text = self.format(&i.insn);
        if self.opts.json {
            let line = TraceLine {
                version: crate::JSON_VERSION,
                cs: b.cs,
                ip: i.ip,
                bytes: hex.join(" "),
                text,
                module: place.module.clone(),
                symbol,
                segment: place.segment,
                offset: place.segment.map(|_| i.ip),
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
            match symbol {
                Some(sym) => format!("{line:<78} ; {}", crate::escape::name(&sym)),
                None => line,
            }
        }
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
        let cs = self.blocks.blocks[k].cs;
        let place = self.place(uc, cs);
        let wanted = match &self.opts.module {
            Some(m) => place
                .module
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(m)),
            None => true,
        };
        let mut text = String::new();
        let mut ends = Vec::new();
        let b = &self.blocks.blocks[k];
        for i in &b.insns {
            if wanted {
                let sym = crate::machine::symbol_at(uc, b.cs, i.ip).map(|s| s.to_string());
                text.push_str(&self.line(b, i, &place, sym));
                text.push('\n');
            }
            ends.push(text.len());
        }
        self.rendered[k] = Some((text, ends));
    }

    /// Write instructions `skip..n` of block `k` (to its end when None).
    fn write_block(&mut self, k: usize, skip: usize, n: Option<usize>) {
        let Some(Some((text, ends))) = self.rendered.get(k) else {
            return;
        };
        let all = ends.len();
        let mut n = n.unwrap_or(all).min(all);
        if let Some(max) = self.opts.max {
            n = n.min(skip.saturating_add(max.saturating_sub(self.written) as usize));
        }
        if n <= skip {
            return;
        }
        let start = if skip == 0 { 0 } else { ends[skip - 1] };
        let end = ends[n - 1];
        // A block outside `--module` renders to nothing.
        let lines = if end == start { 0 } else { (n - skip) as u64 };
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&text.as_bytes()[start..end]) {
                self.error = Some(e);
            }
        }
        self.written += lines;
        if let Some(bar) = &self.opts.progress {
            if self.written - self.last_progress >= 65_536 {
                self.last_progress = self.written;
                bar.set_position(self.written);
            }
        }
    }

    fn flush_pending(&mut self, upto: Option<(u16, u16, bool)>) {
        let Some(k) = self.pending.take() else {
            return;
        };
        let n = upto.map(|(cs, ip, inclusive)| {
            let b = &self.blocks.blocks[k];
            if cs != b.cs {
                return b.insns.len();
            }
            if inclusive {
                b.through(ip).len()
            } else {
                b.before(ip).len()
            }
        });
        let skip = std::mem::take(&mut self.pending_skip);
        self.write_block(k, skip, n);
    }

    /// The output failed (a closed pipe: `trace | head`): the run stops
    /// at the next block, since nothing more can be written.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// The trace has written `--max` instructions (the run stops).
    pub fn full(&self) -> bool {
        self.opts.max.is_some_and(|m| self.written >= m)
    }

    /// The run ended at CS:IP (the next instruction, not run): write what
    /// of the last block ran, and flush.
    pub fn finish(&mut self, cs: u16, ip: u16) -> std::io::Result<()> {
        self.flush_pending(Some((cs, ip, false)));
        if let Some((line, _)) = self.prev.take() {
            let _ = writeln!(self.out, "{line}");
        }
        if let Some(bar) = &self.opts.progress {
            bar.finish_and_clear();
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
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
        self.flush_pending(None);
        if self.full() || self.failed() {
            return Some(Stop::Budget);
        }
        let k = self.blocks.enter(uc, addr, size, cs, ip)?;
        if !self.active {
            let b = &self.blocks.blocks[k];
            let from = self.opts.from?;
            if from < b.linear || from >= b.linear + b.bytes.len() as u64 {
                return None;
            }
            self.active = true;
            // Only from the `--from` instruction on: the block is pending
            // without its head, and written (within --max) as it ends.
            self.pending_skip = b.before(ip.wrapping_add((from - b.linear) as u16)).len();
            self.render(uc, k);
            self.pending = Some(k);
            return None;
        }
        self.render(uc, k);
        self.pending = Some(k);
        None
    }

    fn on_fault(&mut self, _uc: &Uc<'_>, f: &Fault) {
        // The faulting instruction is the last one that ran (in part).
        self.flush_pending(Some((f.cs, f.ip, true)));
    }

    fn on_insn(&mut self, uc: &Uc<'_>, addr: u64, size: u32) {
        if !self.opts.regs || self.full() {
            return;
        }
        let regs = uc.regs();
        if let Some((line, before)) = self.prev.take() {
            let text = self.with_changed(&line, &before, &regs);
            if self.error.is_none() {
                if let Err(e) = writeln!(self.out, "{text}") {
                    self.error = Some(e);
                }
            }
            self.written += 1;
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
        let place = self.place(uc, regs.cs);
        if let Some(m) = &self.opts.module {
            if !place
                .module
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(m))
            {
                return;
            }
        }
        let sym = crate::machine::symbol_at(uc, regs.cs, regs.ip).map(|s| s.to_string());
        let line = self.line(&b, i, &place, sym);
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
    /// `--regs`: the registers the instruction changed, by name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub changed: Option<std::collections::BTreeMap<String, u16>>,
}
