//! The stack page (`stack --html`): the SVG picture inline, the
//! translation of the stack selector, a table of the frames, a table of
//! every word drawn, and the walk narrated rule by rule. One file, no
//! script and nothing fetched; it is also well-formed XML (polyglot
//! markup), so tests can parse it.

use std::fmt::Write as _;

use super::esc;
use super::explain::Line;
use super::stackmodel::{Picture, Row};

/// The page's style sheet (shared with the trace page).
pub const STYLE: &str = "
body { font-family: 'DejaVu Sans', Arial, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.35em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
code, td, .mono { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #eee; }
tr.saved-bp td.value { background: #ffd966; }
tr.ret-ip td.value { background: #9fd3ff; }
tr.ret-cs td.value { background: #7fbfff; }
tr.arg td.value { background: #e4e4e4; }
tr.fault td.value { background: #ffadad; }
.picture { overflow-x: auto; }
.picture svg { max-width: 100%; height: auto; }
.beside { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.beside .picture { flex: 1 1 30em; }
.screen { margin: 0; flex: 0 1 auto; }
.screen img { border: 1px solid #888; image-rendering: pixelated; max-width: 100%; }
.end { color: #7a2c2c; }
ul.explain { padding-left: 1em; }
ul.explain li.call { margin-top: 0.2em; }
ul.explain ul.steps { color: #333; }
.note { color: #7a5c00; }
";

/// The whole page: `pic` drawn as `svg` (the output of
/// [`super::svg::render`]), with the narration `explain`.
pub fn page(pic: &Picture, svg: &str, explain: &[Line]) -> String {
    page_with_screen(pic, svg, explain, None)
}

/// [`page`] with the program's screen (a PNG) beside the stack.
pub fn page_with_screen(
    pic: &Picture,
    svg: &str,
    explain: &[Line],
    screen: Option<&[u8]>,
) -> String {
    let mut s = String::with_capacity(svg.len() * 2 + 4096);
    head(&mut s, &format!("Stack: {}", pic.title), "");
    let _ = writeln!(s, "<h1>{}</h1>", esc(&pic.title));
    let r = &pic.regs;
    let _ = writeln!(
        s,
        "<p>Registers at the stop: <code>SS:SP {:04X}:{:04X}</code>, <code>BP {:04X}</code>, <code>CS:IP {:04X}:{:04X}</code>. The walk: StackTraceCSIPFirst from these registers, then StackTraceNext until it fails (the rules: <code>docs/walk.md</code> in toolhelp16's repository).</p>",
        r.ss, r.sp, r.bp, r.cs, r.ip
    );

    let _ = writeln!(s, "<h2 id=\"picture\">The stack</h2>");
    let _ = writeln!(
        s,
        "<p>Highest offset at the top: the stack grows down the page. Each frame is a band; the arrows follow the BP chain from the BP register through each saved BP; the dashed lines are the bounds.</p>"
    );
    match screen {
        Some(png) => {
            use base64::Engine as _;
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            let _ = writeln!(
                s,
                "<div class=\"beside\"><div class=\"picture\">\n{svg}</div>\n<figure class=\"screen\" id=\"screen\"><img alt=\"the program's screen at the stop\" src=\"data:image/png;base64,{data}\"/><figcaption>The screen at the stop (what the program had drawn).</figcaption></figure></div>"
            );
        }
        None => {
            let _ = writeln!(s, "<div class=\"picture\">\n{svg}</div>");
        }
    }

    let _ = writeln!(
        s,
        "<h2 id=\"translation\">From SS:SP to a linear address</h2>"
    );
    let _ = writeln!(s, "<ol class=\"translation\">");
    for step in pic.stack_steps() {
        let _ = writeln!(s, "<li>{}</li>", esc(&step));
    }
    let _ = writeln!(s, "</ol>");
    let _ = writeln!(s, "<p class=\"bounds\">{}</p>", esc(&pic.bounds_text()));

    let _ = writeln!(s, "<h2 id=\"frames\">Frames</h2>");
    let _ = writeln!(
        s,
        "<table class=\"frames\"><thead><tr><th>#</th><th>kind</th><th>SS:BP</th><th>CS:IP</th><th>where</th><th>symbol</th><th>CS → linear</th><th>hModule</th><th>wSegment</th></tr></thead><tbody>"
    );
    for f in &pic.frames {
        let e = &f.entry;
        let lin = match (f.code.base(), f.linear()) {
            (Some(b), Some(l)) => format!(
                "{} + {:04X} = {}",
                f.code.fmt_linear(b),
                e.w_ip,
                f.code.fmt_linear(l)
            ),
            _ => "no descriptor".into(),
        };
        let _ = writeln!(
            s,
            "<tr class=\"frame\" data-frame=\"{}\"><td>{}</td><td>{}</td><td>{:04X}:{:04X}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:04X}</td><td>{}</td></tr>",
            f.index,
            f.index,
            f.kind(),
            e.w_ss,
            e.w_bp,
            f.csip(),
            esc(&f.place.text),
            esc(f.place.symbol.as_deref().unwrap_or("")),
            esc(&lin),
            e.h_module,
            e.w_segment
        );
    }
    let _ = writeln!(s, "</tbody></table>");
    let _ = writeln!(s, "<p class=\"end\">walk ended: {}</p>", esc(&pic.walk_end));

    let _ = writeln!(s, "<h2 id=\"words\">Word by word</h2>");
    let _ = writeln!(
        s,
        "<table class=\"words\"><thead><tr><th>SS:offset</th><th>linear</th><th>word</th><th>frame</th><th>what the walk makes of it</th></tr></thead><tbody>"
    );
    for row in &pic.rows {
        match row {
            Row::Word(w) => {
                let mut what = w.note.clone();
                for (on, mark) in [(w.sp, "SP points here"), (w.bp, "BP points here")] {
                    if on {
                        if !what.is_empty() {
                            what.push_str("; ");
                        }
                        what.push_str(mark);
                    }
                }
                let _ = writeln!(
                    s,
                    "<tr class=\"word {}\" data-off=\"{:04X}\"><td>{:04X}:{:04X}</td><td>{}</td><td class=\"value\">{}</td><td>{}</td><td>{}</td></tr>",
                    w.kind.class(),
                    w.off,
                    pic.ss,
                    w.off,
                    w.linear
                        .map(|l| pic.stack.fmt_linear(l))
                        .unwrap_or_default(),
                    w.value
                        .map_or_else(|| "????".to_string(), |v| format!("{v:04X}")),
                    w.frame.map(|f| f.to_string()).unwrap_or_default(),
                    esc(&what)
                );
            }
            Row::Gap { lo, hi } => {
                let _ = writeln!(
                    s,
                    "<tr class=\"gap\"><td colspan=\"5\">⋮ {lo:04X}–{:04X} not drawn</td></tr>",
                    hi.saturating_sub(1)
                );
            }
        }
    }
    let _ = writeln!(s, "</tbody></table>");
    if let Some(t) = &pic.truncated {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(t));
    }

    if !explain.is_empty() {
        let _ = writeln!(s, "<h2 id=\"explain\">The walk, rule by rule</h2>");
        explain_list(&mut s, explain);
    }
    let _ = writeln!(s, "</body>\n</html>");
    s
}

/// The narration as a list: each call or frame an item, the steps of a
/// StackTraceNext call a list inside it.
fn explain_list(s: &mut String, lines: &[Line]) {
    let _ = writeln!(s, "<ul class=\"explain\">");
    let mut open_item = false;
    let mut open_steps = false;
    for l in lines {
        if l.depth == 0 {
            if open_steps {
                let _ = writeln!(s, "</ul>");
                open_steps = false;
            }
            if open_item {
                let _ = writeln!(s, "</li>");
            }
            let _ = writeln!(s, "<li class=\"call\">{}", esc(&l.text));
            open_item = true;
        } else {
            if !open_item {
                let _ = writeln!(s, "<li class=\"call\">");
                open_item = true;
            }
            if !open_steps {
                let _ = writeln!(s, "<ul class=\"steps\">");
                open_steps = true;
            }
            let _ = writeln!(s, "<li class=\"step\">{}</li>", esc(&l.text));
        }
    }
    if open_steps {
        let _ = writeln!(s, "</ul>");
    }
    if open_item {
        let _ = writeln!(s, "</li>");
    }
    let _ = writeln!(s, "</ul>");
}

/// The start of a page up to `<body>`: the doctype, the title, the style
/// sheet and `extra_style`.
pub fn head(s: &mut String, title: &str, extra_style: &str) {
    let _ = writeln!(s, "<!DOCTYPE html>");
    let _ = writeln!(
        s,
        "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>"
    );
    let _ = writeln!(s, "<title>{}</title>", esc(title));
    let _ = writeln!(s, "<style>/*<![CDATA[*/{STYLE}{extra_style}/*]]>*/</style>");
    let _ = writeln!(s, "</head>\n<body>");
}
