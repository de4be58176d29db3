//! The debugger and the program's source, from the debug information of
//! the module that holds the code (symbols/lines.rs): the line at a stop,
//! `list` (the source around a line), breakpoints at `FILE:LINE`, and
//! steps by line (`step`, `next` of the `debug` session, as gdb's: run
//! until the program leaves the code of the line it is on; `step` goes
//! into a called function that has lines, `next` runs calls through).

use crate::symbols::lines::{DOS_SEGMENT, SourceLine, source_text};
use crate::system::Env;
use crate::walk::WalkMemory;

use super::{Here, Resume, TempBreak, Why};

/// The most instructions one step by line runs before it stops anyway
/// (a line that loops on itself).
pub const MAX_LINE_STEPS: u32 = 1_000_000;

/// Lines `list` shows.
const LIST_LINES: u32 = 10;

/// The source line at CS:IP of the stop.
pub fn line_here(h: &Here<'_, '_>) -> Option<SourceLine> {
    let r = h.regs();
    h.env()?.line_at(h.uc() as &dyn WalkMemory, r.cs, r.ip)
}

/// `file.c:12: text` for the stop, when debug information names its line.
pub fn here_text(h: &Here<'_, '_>) -> Option<String> {
    let l = line_here(h)?;
    Some(match source_text(&l.file, l.line) {
        Some(t) => format!("{l}: {}\n", t.trim()),
        None => format!("{l}\n"),
    })
}

/// Every module's symbol table that holds lines or functions.
fn tables(env: &Env) -> Vec<(Option<u16>, std::rc::Rc<crate::symbols::SymbolTable>)> {
    let mut out = Vec::new();
    for m in &env.win16.modules {
        if m.image.is_none() {
            continue;
        }
        if let Ok(Some(t)) = env.symbol_table(Some(m.hmodule)) {
            if !t.lines.is_empty() {
                out.push((Some(m.hmodule), t));
            }
        }
    }
    if let Ok(Some(t)) = env.symbol_table(None) {
        if !t.lines.is_empty() {
            out.push((None, t));
        }
    }
    out
}

/// The CS:IP where a table's segment and offset lie at run time.
fn run_address(env: &Env, hmodule: Option<u16>, seg: u16, off: u32) -> Option<(u16, u16)> {
    match hmodule {
        Some(h) => {
            let m = env.win16.module_by_handle(h)?;
            let sel = *m.segments.get(usize::from(seg).checked_sub(1)?)?;
            Some((sel, u16::try_from(off).ok()?))
        }
        None if seg == DOS_SEGMENT => {
            let p = env.dos_program.as_ref()?;
            let para = p.base_seg.checked_add(u16::try_from(off >> 4).ok()?)?;
            Some((para, (off & 0xF) as u16))
        }
        None => None,
    }
}

/// `FILE:LINE` (a decimal line), or None when `text` is not of that form.
pub fn parse_file_line(text: &str) -> Option<(&str, u32)> {
    let (file, line) = text.rsplit_once(':')?;
    if file.is_empty() || !line.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // A SEG:OFF of hex digits is not a file name, nor is a segment
    // register's (`DS:0154`, which `watch` and `delete` take).
    if file.chars().all(|c| c.is_ascii_hexdigit())
        || ["CS", "DS", "ES", "SS", "FS", "GS"]
            .iter()
            .any(|r| file.eq_ignore_ascii_case(r))
    {
        return None;
    }
    Some((file, line.parse().ok()?))
}

/// The CS:IP of the first code of `FILE:LINE`.
pub fn line_address(h: &Here<'_, '_>, file: &str, line: u32) -> Result<(u16, u16), String> {
    let env = h.env().ok_or("the environment is busy at this stop")?;
    let t = tables(env);
    if t.is_empty() {
        return Err("no module of the program has debug information with lines".into());
    }
    for (hm, table) in &t {
        if let Some((seg, off)) = table.lines.address_of(file, line) {
            return run_address(env, *hm, seg, off)
                .ok_or_else(|| format!("{file}:{line}: its segment is not loaded"));
        }
    }
    Err(format!(
        "{file}:{line}: no code of the debug information is on that line"
    ))
}

/// The first line of the function `name`: (file, line).
fn function_line(env: &Env, name: &str) -> Option<SourceLine> {
    for (_, table) in tables(env) {
        for f in table.lines.functions_named(name) {
            if let Some(l) = table.lines.line(f.segment, f.start) {
                return Some(l);
            }
        }
    }
    None
}

/// `list [FILE:LINE | FUNCTION]`: the source around the stop's line, a
/// given line or a function's first line, the stop's line marked `=>`.
pub fn list_text(h: &Here<'_, '_>, args: &[&str]) -> Result<String, String> {
    let env = h.env().ok_or("the environment is busy at this stop")?;
    let here = line_here(h);
    let (file, center): (std::rc::Rc<str>, u32) = match args.first() {
        None => {
            let l = here.clone().ok_or(
                "no source line here: the debug information names no line at CS:IP (list FILE:LINE or FUNCTION)",
            )?;
            (l.file, l.line)
        }
        Some(a) => {
            if let Some((file, line)) = parse_file_line(a) {
                let full = tables(env)
                    .iter()
                    .flat_map(|(_, t)| t.lines.files().to_vec())
                    .find(|f| {
                        f.eq_ignore_ascii_case(file)
                            || f.rsplit(['/', '\\'])
                                .next()
                                .is_some_and(|n| n.eq_ignore_ascii_case(file))
                    })
                    .ok_or_else(|| {
                        format!("{file}: no such source file in the debug information")
                    })?;
                (full, line)
            } else {
                let l = function_line(env, a)
                    .ok_or_else(|| format!("{a}: no function of that name has a source line"))?;
                (l.file, l.line)
            }
        }
    };
    let first = center.saturating_sub(LIST_LINES / 2).max(1);
    let mut s = String::new();
    let mut any = false;
    for n in first..first + LIST_LINES {
        let Some(t) = source_text(&file, n) else {
            break;
        };
        any = true;
        let mark = if here.as_ref().is_some_and(|l| l.line == n && l.file == file) {
            "=>"
        } else {
            "  "
        };
        s.push_str(&format!("{mark}{n:>5}  {t}\n"));
    }
    if !any {
        return Err(format!(
            "{}: cannot read line {center} of the source file",
            file
        ));
    }
    Ok(format!("{}:\n{s}", file))
}

/// One instruction, over a call, an INT or a string instruction's
/// repetitions: a temporary breakpoint after it (`next` by instruction).
pub fn over_instruction(h: &mut Here<'_, '_>) -> Resume {
    let (_, over) = decode(h);
    let r = h.regs();
    match over.and_then(|len| h.linear(r.cs, r.ip.wrapping_add(len))) {
        Some(addr) => {
            h.set_temp(Some(TempBreak {
                addr,
                ss: r.ss,
                min_sp: r.sp,
            }));
            Resume::Continue
        }
        None => Resume::Step,
    }
}

/// The instruction at CS:IP: the target of a direct call (CS, IP), and
/// its length when it is one to step over (a call, an INT, a repeated
/// string instruction).
fn decode(h: &Here<'_, '_>) -> (Option<(u16, u16)>, Option<u16>) {
    use iced_x86::{Decoder, DecoderOptions, FlowControl, OpKind};
    let r = h.regs();
    let bytes = crate::machine::insn_bytes(h.uc(), r.cs, r.ip);
    let mut d = Decoder::with_ip(16, &bytes, u64::from(r.ip), DecoderOptions::NONE);
    let i = d.decode();
    if i.is_invalid() {
        return (None, None);
    }
    let over = matches!(
        i.flow_control(),
        FlowControl::Call | FlowControl::IndirectCall | FlowControl::Interrupt
    ) || i.has_rep_prefix()
        || i.has_repe_prefix()
        || i.has_repne_prefix();
    let target = if i.flow_control() == FlowControl::Call {
        match i.op0_kind() {
            OpKind::NearBranch16 => Some((r.cs, i.near_branch16())),
            OpKind::FarBranch16 => Some((i.far_branch_selector(), i.far_branch16())),
            _ => None,
        }
    } else {
        None
    };
    (target, over.then_some(i.len() as u16))
}

/// A step by line in progress.
#[derive(Debug, Clone)]
pub struct LineStep {
    /// The code of the line being left: CS and `[start, end)`.
    cs: u16,
    start: u16,
    end: u16,
    /// The line, for the message when the step runs out.
    line: SourceLine,
    /// `next` (calls run through) rather than `step`.
    over: bool,
    /// Instructions run so far.
    steps: u32,
    /// The temporary breakpoint set over a call (linear), when one is.
    temp: Option<u64>,
}

impl LineStep {
    /// Start a step by line at the stop; None when the debug information
    /// names no line at CS:IP (the caller steps one instruction).
    pub fn begin(h: &mut Here<'_, '_>, over: bool) -> Option<(LineStep, Resume)> {
        let r = h.regs();
        let env = h.env()?;
        let mem = h.uc() as &dyn WalkMemory;
        let line = env.line_at(mem, r.cs, r.ip)?;
        let (start, end) = env.line_range_at(mem, r.cs, r.ip)?;
        let mut s = LineStep {
            cs: r.cs,
            start,
            end,
            line,
            over,
            steps: 0,
            temp: None,
        };
        let resume = s.one(h);
        Some((s, resume))
    }

    /// Run the instruction at CS:IP: into a call whose target has lines
    /// (`step`), else over calls.
    fn one(&mut self, h: &mut Here<'_, '_>) -> Resume {
        self.steps += 1;
        let (target, over) = decode(h);
        let into = !self.over
            && target.is_some_and(|(cs, ip)| {
                h.env()
                    .and_then(|env| env.line_at(h.uc() as &dyn WalkMemory, cs, ip))
                    .is_some()
            });
        if over.is_some() && !into {
            let r = h.regs();
            let resume = over_instruction(h);
            self.temp = match resume {
                Resume::Continue => over.and_then(|len| h.linear(r.cs, r.ip.wrapping_add(len))),
                _ => None,
            };
            resume
        } else {
            self.temp = None;
            Resume::Step
        }
    }

    /// At a stop during the step: how to go on, or None to stop here (the
    /// program left the line, or stopped for another reason), with what
    /// to say.
    pub fn resume(&mut self, h: &mut Here<'_, '_>) -> Result<Resume, Option<String>> {
        let r = h.regs();
        let ours = match &h.why {
            Why::Step => self.temp.is_none(),
            Why::Breakpoint => self.temp.is_some_and(|t| h.linear(r.cs, r.ip) == Some(t)),
            _ => false,
        };
        if !ours {
            return Err(None);
        }
        if r.cs != self.cs || r.ip < self.start || r.ip >= self.end {
            return Err(None);
        }
        if self.steps >= MAX_LINE_STEPS {
            return Err(Some(format!(
                "still on {} after {MAX_LINE_STEPS} instructions; stopped\n",
                self.line
            )));
        }
        Ok(self.one(h))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_file_line;

    #[test]
    fn file_and_line_but_not_an_address() {
        assert_eq!(parse_file_line("hello.c:12"), Some(("hello.c", 12)));
        assert_eq!(parse_file_line("SRC\\MAIN.C:7"), Some(("SRC\\MAIN.C", 7)));
        // Addresses the same commands take.
        assert_eq!(parse_file_line("0CC9:0154"), None);
        assert_eq!(parse_file_line("DS:0154"), None);
        assert_eq!(parse_file_line("ss:0100"), None);
        assert_eq!(parse_file_line("hello.c:12h"), None);
        assert_eq!(parse_file_line(":12"), None);
    }
}
