//! `trace --html`: a page that steps through a short program one
//! instruction at a time — each instruction with its bytes and
//! disassembly, the registers after it (the ones it changed marked), and
//! a small stack picture after it (the words from SP up, the frames of the
//! walk there, the BP chain). The arrow keys (or j and k) move from step to
//! step; without JavaScript every step is on the page, one after another.
//!
//! The [`StepRecorder`] observer records the steps as the program runs; it
//! keeps at most its cap of steps, and the page says when the run went on
//! past them.

use std::fmt::Write as _;

use iced_x86::{Formatter, GasFormatter, IntelFormatter, MasmFormatter, NasmFormatter};

use super::stackmodel::{self, Input, Limits, Picture, Row};
use super::{Namer, esc, hex_bytes};
use crate::machine::{Cpu, Fault, Observer, Regs, Stop, Uc};
use crate::trace::{Syntax, blocks, code_place};
use crate::walk::{StackTraceEntry, WalkMemory, walk_from_csip};

/// The most steps a page holds, whatever `--max` asks for.
pub const HARD_MAX: usize = 10_000;
/// Steps recorded when `--max` is not given.
pub const DEFAULT_MAX: usize = 2_000;
/// The most frames each step's small picture walks.
const STEP_FRAMES: usize = 8;

/// One executed instruction and the machine after it.
#[derive(Debug, Clone)]
pub struct Step {
    /// CS of the instruction.
    pub cs: u16,
    /// IP of the instruction.
    pub ip: u16,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The disassembly.
    pub text: String,
    /// `MODULE:SEG:OFF` (or the module's name) when a module owns CS.
    pub place: Option<String>,
    /// The registers before it ran.
    pub before: Regs,
    /// The registers after it (None until the next instruction starts).
    pub after: Option<Regs>,
    /// The stack after it.
    pub picture: Option<Picture>,
    /// The fault it raised, if it faulted.
    pub fault: Option<String>,
}

/// Names from the machine itself: module names, and symbols through the
/// environment (machine::symbol_at).
struct MachineNames<'a, 'b>(&'a Uc<'b>);

impl Namer for MachineNames<'_, '_> {
    fn module(&self, f: &StackTraceEntry) -> Option<String> {
        crate::machine::module_name(self.0, f.h_module)
    }
    fn symbol(&self, cs: u16, ip: u16, exact: bool) -> Option<String> {
        if let Some(env) = crate::machine::environment_of::<crate::system::Env>(self.0) {
            return env
                .frame_symbol(self.0 as &dyn WalkMemory, cs, ip, exact)
                .map(|s| s.to_string());
        }
        crate::symbols::frame_lookup(ip, exact, |ip| crate::machine::symbol_at(self.0, cs, ip))
            .map(|s| s.to_string())
    }
}

/// The small picture of the stack of a machine with registers `r`.
fn picture(uc: &Uc<'_>, r: &Regs) -> Picture {
    let mem = uc as &dyn WalkMemory;
    let walk = walk_from_csip(mem, r.ss, r.cs, r.ip, r.bp, STEP_FRAMES);
    stackmodel::build(
        &Input {
            mem,
            names: &MachineNames(uc),
            walk: &walk,
            regs: *r,
            title: String::new(),
        },
        Limits::COMPACT,
    )
}

/// Records each instruction, its registers and the stack after it: an
/// [`Observer`] that needs [`crate::machine::Machine::watch_instructions`].
pub struct StepRecorder {
    max: usize,
    from: Option<u64>,
    active: bool,
    module: Option<String>,
    syntax: Syntax,
    /// The steps recorded, in order.
    pub steps: Vec<Step>,
    /// The last step waits for the state after it.
    pending: bool,
    /// Instructions ran past the cap.
    pub truncated: bool,
}

impl StepRecorder {
    /// Record at most `max` steps (at most [`HARD_MAX`]), from linear
    /// address `from` on when given, only code of `module` when given.
    pub fn new(max: usize, from: Option<u64>, module: Option<String>, syntax: Syntax) -> Self {
        StepRecorder {
            max: max.min(HARD_MAX),
            active: from.is_none(),
            from,
            module,
            syntax,
            steps: Vec::new(),
            pending: false,
            truncated: false,
        }
    }

    fn complete(&mut self, uc: &Uc<'_>, r: Regs) {
        if !self.pending {
            return;
        }
        self.pending = false;
        if let Some(s) = self.steps.last_mut() {
            s.picture = Some(picture(uc, &r));
            s.after = Some(r);
        }
    }

    /// The run ended: the last step's state is the machine's now. A last
    /// step whose registers are still those before it did not run (a
    /// breakpoint or the budget stopped the machine after the hook saw it
    /// coming): it is dropped.
    pub fn finish(&mut self, uc: &Uc<'_>) {
        let r = uc.regs();
        if self.pending && self.steps.last().is_some_and(|s| s.before == r) {
            self.steps.pop();
            self.pending = false;
        }
        self.complete(uc, r);
    }

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
}

impl Observer for StepRecorder {
    fn on_block(&mut self, _uc: &Uc<'_>, _a: u64, _s: u32, _cs: u16, _ip: u16) -> Option<Stop> {
        (self.steps.len() >= self.max && !self.pending).then_some(Stop::Budget)
    }

    fn on_fault(&mut self, uc: &Uc<'_>, f: &Fault) {
        if let Some(s) = self.steps.last_mut() {
            if self.pending && (s.cs, s.ip) == (f.cs, f.ip) {
                s.fault = Some(format!(
                    "{} (exception {}): {}",
                    crate::machine::fault_name(f.number),
                    f.number,
                    f.detail
                ));
                let mut r = f.regs;
                (r.cs, r.ip) = (f.cs, f.ip);
                self.complete(uc, r);
            }
        }
    }

    fn on_insn(&mut self, uc: &Uc<'_>, addr: u64, size: u32) {
        let regs = uc.regs();
        self.complete(uc, regs);
        if self.steps.len() >= self.max {
            self.truncated = true;
            return;
        }
        if !self.active {
            if self.from != Some(addr) {
                return;
            }
            self.active = true;
        }
        let place = code_place(uc, regs.cs);
        if let Some(m) = &self.module {
            let mine = place
                .as_ref()
                .and_then(|p| p.0.as_deref())
                .is_some_and(|p| p.eq_ignore_ascii_case(m));
            if !mine {
                return;
            }
        }
        let mut bytes = vec![0u8; size.clamp(1, 16) as usize];
        if uc.mem_read(addr, &mut bytes).is_err() {
            bytes.clear();
        }
        let b = blocks::decode(addr, regs.cs, regs.ip, bytes);
        let (text, len) = match b.insns.first() {
            Some(i) => (self.format(&i.insn), usize::from(i.len)),
            None => ("(unreadable)".to_string(), 0),
        };
        let place = place.map(|(module, seg)| match (module, seg) {
            (Some(m), Some(s)) => format!("{m}:{s}:{:04X}", regs.ip),
            (Some(m), None) => m,
            (None, _) => String::new(),
        });
        self.steps.push(Step {
            cs: regs.cs,
            ip: regs.ip,
            bytes: b.bytes.get(..len).unwrap_or_default().to_vec(),
            text,
            place: place.filter(|p| !p.is_empty()),
            before: regs,
            after: None,
            picture: None,
            fault: None,
        });
        self.pending = true;
    }
}

/// The registers a step shows, in order.
fn regs_list(r: &Regs) -> [(&'static str, u16); 14] {
    [
        ("AX", r.ax),
        ("BX", r.bx),
        ("CX", r.cx),
        ("DX", r.dx),
        ("SI", r.si),
        ("DI", r.di),
        ("BP", r.bp),
        ("SP", r.sp),
        ("DS", r.ds),
        ("ES", r.es),
        ("SS", r.ss),
        ("CS", r.cs),
        ("IP", r.ip),
        ("FLAGS", r.flags),
    ]
}

/// What the page says about the run.
pub struct PageInfo<'a> {
    /// The page's title.
    pub title: String,
    /// How the run ended.
    pub ended: String,
    /// The cap in force.
    pub max: usize,
    /// Notes (a lowered `--max`).
    pub notes: &'a [String],
    /// Symbols for code addresses (filled in where the steps show code).
    pub names: &'a dyn Namer,
}

/// The trace page.
pub fn page(rec: &StepRecorder, info: &PageInfo) -> String {
    let n = rec.steps.len();
    let mut s = String::with_capacity(n * 3000 + 8192);
    super::html::head(&mut s, &info.title, TRACE_STYLE);
    let _ = writeln!(s, "<h1>{}</h1>", esc(&info.title));
    let _ = writeln!(
        s,
        "<p class=\"lead\">{n} instruction(s), each with the registers after it (changed ones marked) and the stack after it. Keys: <kbd>→</kbd> or <kbd>j</kbd> next, <kbd>←</kbd> or <kbd>k</kbd> previous, <kbd>Home</kbd> first, <kbd>End</kbd> last. Without JavaScript every step is below, one after another.</p>"
    );
    if rec.truncated {
        let _ = writeln!(
            s,
            "<p class=\"note\" id=\"truncated\">Truncated: the program ran on past the first {} instructions, which are all this page holds (<code>--max N</code> sets the cap, at most {HARD_MAX}).</p>",
            info.max
        );
    }
    for note in info.notes {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(note));
    }
    let _ = writeln!(
        s,
        "<div id=\"nav\">step <span id=\"pos\">1</span> of {n} <button type=\"button\" id=\"prev\">← previous</button> <button type=\"button\" id=\"next\">next →</button></div>"
    );
    let _ = writeln!(s, "<ol class=\"steps\">");
    for (i, st) in rec.steps.iter().enumerate() {
        step_html(&mut s, i, st, info.names);
    }
    let _ = writeln!(s, "</ol>");
    let _ = writeln!(s, "<p class=\"end\">the run: {}</p>", esc(&info.ended));
    let _ = writeln!(s, "<script>//<![CDATA[\n{SCRIPT}\n//]]></script>");
    let _ = writeln!(s, "</body>\n</html>");
    s
}

fn step_html(s: &mut String, i: usize, st: &Step, names: &dyn Namer) {
    let _ = writeln!(
        s,
        "<li class=\"step\" id=\"step-{}\" data-cs=\"{:04X}\" data-ip=\"{:04X}\">",
        i + 1,
        st.cs,
        st.ip
    );
    let place = st
        .place
        .as_deref()
        .map(|p| format!(" {p}"))
        .unwrap_or_default();
    let symbol = names
        .symbol(st.cs, st.ip, true)
        .map(|x| format!(" {x}"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "<h2><span class=\"n\">{}.</span> <code>{:04X}:{:04X}</code>{}{} <code class=\"bytes\">{}</code> <code class=\"insn\">{}</code></h2>",
        i + 1,
        st.cs,
        st.ip,
        esc(&place),
        esc(&symbol),
        esc(&hex_bytes(&st.bytes)),
        esc(&st.text)
    );
    if let Some(f) = &st.fault {
        let _ = writeln!(s, "<p class=\"fault\">faulted: {}</p>", esc(f));
    }
    let after = st.after.unwrap_or(st.before);
    let _ = write!(s, "<table class=\"regs\"><tr>");
    for (name, _) in regs_list(&after) {
        let _ = write!(s, "<th>{name}</th>");
    }
    let _ = write!(s, "</tr><tr>");
    for ((_, a), (_, b)) in regs_list(&after).iter().zip(regs_list(&st.before).iter()) {
        let class = if a != b { " class=\"changed\"" } else { "" };
        let _ = write!(s, "<td{class}>{a:04X}</td>");
    }
    let _ = writeln!(s, "</tr></table>");
    if let Some(pic) = &st.picture {
        stack_table(s, pic);
    }
    let _ = writeln!(s, "</li>");
}

/// A step's stack: the words from SP up, highest first, with the frames.
fn stack_table(s: &mut String, pic: &Picture) {
    let _ = writeln!(
        s,
        "<table class=\"stack\"><thead><tr><th>{:04X}:off</th><th>word</th><th></th><th>frame</th><th>what the walk makes of it</th></tr></thead><tbody>",
        pic.ss
    );
    for row in &pic.rows {
        match row {
            Row::Word(w) => {
                let mut marks = Vec::new();
                if w.sp {
                    marks.push("◀ SP");
                }
                if w.bp {
                    marks.push("◀ BP");
                }
                let band = w.frame.map(|f| format!(" f{}", f % 6)).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "<tr class=\"{}{band}\"><td>{:04X}</td><td class=\"value\">{}</td><td class=\"mark\">{}</td><td>{}</td><td>{}</td></tr>",
                    w.kind.class(),
                    w.off,
                    w.value
                        .map_or_else(|| "????".to_string(), |v| format!("{v:04X}")),
                    marks.join(" "),
                    w.frame.map(|f| f.to_string()).unwrap_or_default(),
                    esc(&w.note)
                );
            }
            Row::Gap { lo, hi } => {
                let _ = writeln!(
                    s,
                    "<tr class=\"gap\"><td colspan=\"5\">⋮ {lo:04X}–{:04X}</td></tr>",
                    hi.saturating_sub(1)
                );
            }
        }
    }
    let _ = writeln!(s, "</tbody></table>");
    let frames: Vec<String> = pic
        .frames
        .iter()
        .map(|f| format!("{} {} {} ({})", f.index, f.csip(), f.place.full(), f.kind()))
        .collect();
    let _ = writeln!(
        s,
        "<p class=\"frames\">frames: {} — walk ended: {}</p>",
        esc(&frames.join(" ← ")),
        esc(&pic.walk_end)
    );
}

const TRACE_STYLE: &str = "
ol.steps { padding-left: 0; }
li.step { list-style: none; border-top: 2px solid #99a; padding: 0.4em 0 1em 0; }
li.step h2 { font-size: 1em; margin: 0.3em 0; }
body.js li.step { display: none; }
body.js li.step.current { display: block; }
#nav { position: sticky; top: 0; background: #f4f4fa; padding: 4px 8px; border: 1px solid #ccd; }
body:not(.js) #nav button { display: none; }
table.regs td.changed { background: #ffe08a; font-weight: bold; }
table.stack td.mark { color: #c0392b; font-weight: bold; }
tr.f0 td { background: #e3effb; } tr.f1 td { background: #fcefdc; } tr.f2 td { background: #e3f4e6; }
tr.f3 td { background: #f3e6f5; } tr.f4 td { background: #f8f5d6; } tr.f5 td { background: #e0f3f3; }
tr.saved-bp td.value { background: #ffd966; }
tr.ret-ip td.value, tr.ret-cs td.value { background: #9fd3ff; }
.fault { color: #b00; font-weight: bold; }
";

/// Keyboard navigation; written without `<` or `&` so the page stays
/// well-formed XML.
const SCRIPT: &str = r#"(function () {
  var steps = document.querySelectorAll('li.step');
  if (steps.length === 0) { return; }
  var cur = 0;
  document.body.classList.add('js');
  function show(i) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    steps[cur].classList.remove('current');
    cur = i;
    steps[cur].classList.add('current');
    document.getElementById('pos').textContent = String(cur + 1);
  }
  document.addEventListener('keydown', function (e) {
    var k = e.key;
    if (k === 'ArrowRight' || k === 'j' || k === 'PageDown') { show(cur + 1); }
    else if (k === 'ArrowLeft' || k === 'k' || k === 'PageUp') { show(cur - 1); }
    else if (k === 'Home') { show(0); }
    else if (k === 'End') { show(steps.length - 1); }
    else { return; }
    e.preventDefault();
  });
  document.getElementById('next').addEventListener('click', function () { show(cur + 1); });
  document.getElementById('prev').addEventListener('click', function () { show(cur - 1); });
  var m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) - 1 : 0);
})();"#;
