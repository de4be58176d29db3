//! The sampling profiler (`toolhelp16 profile`): every N instructions it
//! takes the shadow call stack of the running code ([`super::shadow`]) as
//! one sample. Samples are written as folded stacks (`a;b;c count`, the
//! format flame-graph tools read) and as an SVG flame graph drawn by the
//! `inferno` crate.
//!
//! A sample names each function by its entry point — MODULE:SEG:OFF for
//! NE code, MODULE:SSSS:OOOO for DOS code — outermost first, under the name
//! of the module the outermost code belongs to. Instructions are counted a
//! translation block at a time, so a sample is taken at the first block
//! boundary at or after each multiple of N.
//!
//! When the program's debug information gives the source line of the
//! code a sample is taken at (symbols/lines.rs), the sample also counts
//! for that line: the hot lines, each with the function holding it.

use std::collections::BTreeMap;

use super::shadow::ShadowStack;
use crate::machine::{Cpu, Fault, Observer, R, Stop, Uc};

/// The profiler: an [`Observer`].
pub struct Profiler {
    /// The shadow call stack sampled.
    pub shadow: ShadowStack,
    every: u64,
    next: u64,
    /// Samples by stack (names outermost first).
    pub samples: BTreeMap<Vec<String>, u64>,
    /// Samples taken.
    pub total: u64,
    /// Samples by the source line they were taken at: (file as the debug
    /// information names it, line) → (the innermost function, samples).
    pub lines: BTreeMap<(String, u32), (String, u64)>,
}

/// A source line samples were taken at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HotLine {
    /// The file, as the debug information names it.
    pub file: String,
    /// The 1-based line.
    pub line: u32,
    /// The function the code is in (MODULE!NAME, as stacks name it).
    pub function: String,
    /// Samples taken there.
    pub samples: u64,
}

impl Profiler {
    /// A profiler sampling every `every` instructions (at least 1).
    pub fn new(every: u64) -> Profiler {
        let every = every.max(1);
        Profiler {
            shadow: ShadowStack::new(),
            every,
            next: every,
            samples: BTreeMap::new(),
            total: 0,
            lines: BTreeMap::new(),
        }
    }

    /// The folded stacks, one line each, sorted.
    pub fn folded(&self) -> Vec<String> {
        self.samples
            .iter()
            .map(|(k, n)| format!("{} {n}", k.join(";")))
            .collect()
    }

    /// The source lines samples were taken at, most samples first (then
    /// by file and line).
    pub fn hot_lines(&self) -> Vec<HotLine> {
        let mut v: Vec<HotLine> = self
            .lines
            .iter()
            .map(|((file, line), (function, samples))| HotLine {
                file: file.clone(),
                line: *line,
                function: function.clone(),
                samples: *samples,
            })
            .collect();
        v.sort_by_key(|h| std::cmp::Reverse(h.samples));
        v
    }

    /// The flame graph of the samples, as SVG.
    pub fn svg(&self, title: &str) -> std::io::Result<Vec<u8>> {
        let lines = self.folded();
        let mut opts = inferno::flamegraph::Options::default();
        opts.title = title.to_string();
        opts.count_name = "samples".to_string();
        let mut out = Vec::new();
        inferno::flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), &mut out)?;
        Ok(out)
    }
}

/// A function's name: MODULE!NAME when a symbol starts at its entry
/// (symbols/mod.rs), else MODULE:SEG:OFF (NE) or MODULE:SSSS:OOOO.
pub fn function_name(uc: &Uc<'_>, cs: u16, ip: u16) -> String {
    if let Some(sym) = crate::machine::symbol_at(uc, cs, ip).filter(|s| s.displacement == 0) {
        return format!("{}!{}", module_of(uc, cs), sym.display);
    }
    match super::code_place(uc, cs) {
        Some((m, seg)) => {
            let m = m.unwrap_or_else(|| "?".into());
            match seg {
                Some(s) => format!("{m}:{s}:{ip:04X}"),
                None => format!("{m}:{cs:04X}:{ip:04X}"),
            }
        }
        None => format!("{cs:04X}:{ip:04X}"),
    }
}

fn module_of(uc: &Uc<'_>, cs: u16) -> String {
    super::code_place(uc, cs)
        .and_then(|(m, _)| m)
        .unwrap_or_else(|| "?".into())
}

impl Observer for Profiler {
    fn on_block(&mut self, uc: &Uc<'_>, addr: u64, size: u32, cs: u16, ip: u16) -> Option<Stop> {
        // The block before this one has run, and is counted: when the count
        // passed a multiple of N, its stack (the chain before this block's
        // call or return is seen) is the sample.
        let counted = self.shadow.insns;
        if counted >= self.next {
            self.next = counted - counted % self.every + self.every;
            let chain = self.shadow.chain(uc.reg(R::SS));
            let root_cs = chain.first().map_or(cs, |a| a.ret.0);
            let mut key = vec![module_of(uc, root_cs)];
            key.extend(
                chain
                    .iter()
                    .map(|a| function_name(uc, a.entry.0, a.entry.1)),
            );
            if let Some(l) = crate::machine::line_at(uc, cs, ip) {
                // The function holding the code (the stack's innermost
                // call may have returned to it in the block before).
                let function = match crate::machine::symbol_at(uc, cs, ip) {
                    Some(sym) => format!("{}!{}", module_of(uc, cs), sym.display),
                    None => key.last().cloned().unwrap_or_default(),
                };
                let e = self
                    .lines
                    .entry((l.file.to_string(), l.line))
                    .or_insert((function, 0));
                e.1 += 1;
            }
            *self.samples.entry(key).or_insert(0) += 1;
            self.total += 1;
        }
        self.shadow.on_block(uc, addr, size, cs, ip)
    }

    fn on_call(&mut self, uc: &Uc<'_>, target: (u16, u16), ret: (u16, u16), ss: u16, sp: u16) {
        self.shadow.on_call(uc, target, ret, ss, sp);
    }

    fn on_fault(&mut self, uc: &Uc<'_>, f: &Fault) {
        self.shadow.on_fault(uc, f);
    }
}
