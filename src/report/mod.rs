//! Pictures of a 16-bit stack for people: an SVG and an HTML page of the
//! stack at a stop (`stack --svg`, `stack --html`), the walk narrated rule
//! by rule (`stack --explain`), and a page that steps through a short
//! program one instruction at a time (`trace --html`).
//!
//! [`stackmodel`] turns a walked machine into a plain description of the
//! picture (words, frame bands, BP-chain arrows, the stack bounds, the
//! selector-to-linear translation); [`svg`] and [`html`] only draw it.
//! Every file written is self-contained: no script, style sheet, font or
//! image is fetched, and the static picture needs no JavaScript.

pub mod explain;
pub mod html;
pub mod stackmodel;
pub mod svg;
pub mod tracepage;

use std::fmt::Write as _;

use crate::machine::Stop;
use crate::session::Program;
use crate::walk::{CpuMode, StackTraceEntry, WalkMemory};

/// The picture of the walk `stack` reports at `stop` (titled `title`) and
/// the narration of that walk; None when the program has ended.
pub fn at_stop(
    p: &Program,
    stop: &Stop,
    title: String,
) -> Option<(stackmodel::Picture, Vec<explain::Line>)> {
    let walk = p.walk_at_stop(stop)?;
    let regs = p.registers_at_stop(stop)?;
    let told = explain::at_stop(p, stop)?;
    let mem = &*p.machine as &dyn WalkMemory;
    let pic = stackmodel::build(
        &stackmodel::Input {
            mem,
            names: p,
            walk: &walk,
            regs,
            title,
        },
        stackmodel::Limits::PAGE,
    );
    Some((pic, explain::lines(mem, p, &told)))
}

/// Names for code addresses, where the picture shows them: the module of
/// a frame and the symbol of a CS:IP.
pub trait Namer {
    /// The name of the module owning a frame's code (its hModule).
    fn module(&self, frame: &StackTraceEntry) -> Option<String>;
    /// The symbol at `cs:ip` (`NAME` or `NAME+0x12`), when one is known;
    /// not `exact`: a return address, named from the call before it
    /// (Env::frame_symbol).
    fn symbol(&self, cs: u16, ip: u16, exact: bool) -> Option<String>;
}

impl Namer for Program {
    fn module(&self, frame: &StackTraceEntry) -> Option<String> {
        self.module_name(frame)
    }
    fn symbol(&self, cs: u16, ip: u16, exact: bool) -> Option<String> {
        self.env()
            .frame_symbol(&*self.machine, cs, ip, exact)
            .map(|s| s.to_string())
    }
}

/// A [`Namer`] that knows no names (hand-built test memories).
pub struct NoNames;

impl Namer for NoNames {
    fn module(&self, _frame: &StackTraceEntry) -> Option<String> {
        None
    }
    fn symbol(&self, _cs: u16, _ip: u16, _exact: bool) -> Option<String> {
        None
    }
}

/// Where a code address belongs: `MODULE:SEG:OFF` in protected mode (the
/// NE segment number the module's segment table gives CS), `MODULE
/// CS:IP` in real mode, plain `CS:IP` when no module owns it; and the
/// symbol there, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// `MODULE:SEG:OFF`, `MODULE CS:IP` or `CS:IP`.
    pub text: String,
    /// The symbol at CS:IP.
    pub symbol: Option<String>,
}

impl Place {
    /// The place of a frame's CS:IP (`exact`: the walk's first frame or
    /// a fault dispatch's, not a return address).
    pub fn of(
        mem: &dyn WalkMemory,
        names: &dyn Namer,
        frame: &StackTraceEntry,
        exact: bool,
    ) -> Place {
        let (cs, ip) = (frame.w_cs, frame.w_ip);
        let owner = mem.code_owner(cs);
        let module = owner.and_then(|_| names.module(frame));
        let text = match (module, owner.and_then(|o| o.segment)) {
            (Some(m), Some(seg)) if mem.mode() == CpuMode::Protected => {
                format!("{m}:{seg}:{ip:04X}")
            }
            (Some(m), _) => format!("{m} {cs:04X}:{ip:04X}"),
            (None, _) => format!("{cs:04X}:{ip:04X}"),
        };
        Place {
            text,
            symbol: names.symbol(cs, ip, exact),
        }
    }

    /// The place and its symbol in one string: `DEMO:2:0027 PaintLine+0x3`.
    pub fn full(&self) -> String {
        match &self.symbol {
            Some(s) => format!("{} {s}", self.text),
            None => self.text.clone(),
        }
    }
}

/// Escape text for XML and HTML content and attribute values: `&`, `<`,
/// `>`, `"` and `'` become references, and characters XML 1.0 does not
/// allow (controls other than tab, newline and carriage return; U+FFFE,
/// U+FFFF) become U+FFFD, so any module name, symbol or file name gives
/// well-formed output.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A string longer than `max` characters cut to `max - 1` and an ellipsis.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Write `bytes` to `path`, naming the option and the file in the error.
pub fn write_file(option: &str, path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{option} {}: {e}", path.display()))
}

/// Hex bytes separated by spaces.
pub fn hex_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02X}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_makes_any_text_safe_for_xml() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(esc("x\u{1}y\u{FFFF}"), "x\u{FFFD}y\u{FFFD}");
        assert_eq!(esc("tab\there"), "tab\there");
        let doc = format!("<a t=\"{}\">{}</a>", esc("\"<&\u{0}"), esc("]]>\u{7}"));
        roxmltree::Document::parse(&doc).unwrap();
    }

    #[test]
    fn clip_cuts_long_text_with_an_ellipsis() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(clip("äöüß", 4), "äöüß");
    }
}
