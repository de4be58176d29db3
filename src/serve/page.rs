//! One moment of a run as a page: plain HTML with the screen as an
//! inline PNG and the stack and timeline as inline SVG, made on the
//! server from the debugger's stop ([`Here`]), so that it reads the same
//! with scripting off and asks nothing of the network. Each view is the
//! text the debugger's own views give (src/debug/views.rs): the
//! registers as `regs`, the walk as `stack` prints its table, the
//! disassembly as `disasm`, the tasks as `tasks`.

use std::fmt::Write as _;

use crate::debug::{Here, Why, views};
use crate::machine::{Cpu, Stop};
use crate::report::esc;
use crate::walk::CpuMode;

use super::http::encode;

/// What the page says besides the moment itself.
pub struct Info<'a> {
    /// The program (or the recording) served.
    pub title: &'a str,
    /// The recording served, if any: its file and its instruction count.
    pub recording: Option<&'a super::Recording>,
    /// The furthest position the session has reached.
    pub furthest: u64,
    /// A note on the move that led here (an error, a search that gave up).
    pub note: Option<&'a str>,
}

/// Instructions listed before CS:IP (when they can be decoded back) and
/// from it.
const BEFORE: usize = 6;
const FROM: usize = 12;

/// The screen as `run --screenshot` writes it at this moment.
pub fn screen_png(h: &Here<'_, '_>) -> Result<Vec<u8>, String> {
    let env = h.env().ok_or("the program has no environment to show")?;
    crate::session::screenshot_of(env, h.uc(), h.mode() == CpuMode::Real)
}

/// The page of the moment at `h`.
pub fn moment(h: &Here<'_, '_>, info: &Info<'_>) -> String {
    let pos = h.pos;
    let mut s = String::with_capacity(64 * 1024);
    crate::report::html::head(
        &mut s,
        &format!("{} at {pos}", info.title),
        "pre{font-size:13px;line-height:1.25}nav form{display:inline;margin-right:1em}nav a{margin-right:.8em}.screen img{max-width:100%;image-rendering:pixelated;border:1px solid #888}section{margin:1em 0}.note{background:#fff3cd;padding:.3em .6em}",
    );
    let _ = writeln!(
        s,
        "<h1>{} <small>at position {pos}</small></h1>",
        esc(info.title)
    );
    if let Some(r) = info.recording {
        let _ = writeln!(
            s,
            "<p>Recording <code>{}</code>{}, replayed.</p>",
            esc(&r.file),
            match r.instructions {
                Some(n) => format!(" of {n} instructions"),
                None => String::new(),
            }
        );
    }
    let _ = writeln!(s, "<p id=\"why\"><b>{}</b></p>", esc(&views::describe(h)));
    if let Some(n) = info.note {
        let _ = writeln!(s, "<p class=\"note\" id=\"note\">{}</p>", esc(n));
    }
    timeline(&mut s, h, info);
    let ended = matches!(h.why, Why::Ended(_));
    let exited = matches!(h.why, Why::Ended(Stop::Exited { .. }));

    let _ = writeln!(s, "<section id=\"screen\" class=\"screen\"><h2>Screen</h2>");
    match screen_png(h) {
        Ok(png) => {
            use base64::Engine as _;
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            let _ = writeln!(
                s,
                "<img id=\"screen-png\" alt=\"the program's screen at position {pos}\" src=\"data:image/png;base64,{data}\"/>"
            );
        }
        Err(e) => {
            let _ = writeln!(s, "<p>No screen: {}</p>", esc(&e));
        }
    }
    let _ = writeln!(s, "</section>");

    let r = h.regs();
    let _ = writeln!(
        s,
        "<section id=\"registers\"><h2>Registers</h2>\n<pre id=\"regs\">{}</pre></section>",
        esc(&views::regs_text(&r))
    );

    let _ = writeln!(s, "<section id=\"code\"><h2>Code at CS:IP</h2>");
    if !exited {
        if let Some(t) = crate::debug::source::here_text(h) {
            let _ = writeln!(s, "<p id=\"line\"><code>{}</code></p>", esc(t.trim_end()));
        }
        let (start, before) = back_from(h, r.cs, r.ip);
        if before > 0 {
            let _ = writeln!(
                s,
                "<p>The {before} instructions before CS:IP are decoded back from it (data before the code would decode wrongly).</p>"
            );
        }
        let _ = writeln!(
            s,
            "<pre id=\"disasm\">{}</pre>",
            esc(&views::disasm_text(h, r.cs, start, before + FROM))
        );
    } else {
        let _ = writeln!(s, "<p>The program has exited.</p>");
    }
    let _ = writeln!(s, "</section>");

    let _ = writeln!(
        s,
        "<section id=\"stack\"><h2>Stack (the ToolHelp walk)</h2>\n<pre id=\"stack-text\">{}</pre>",
        esc(&views::stack_text(h))
    );
    if let Some(w) = views::walk(h) {
        let pic = crate::report::stackmodel::build(
            &crate::report::stackmodel::Input {
                mem: h.uc() as &dyn crate::walk::WalkMemory,
                names: &views::Names(h),
                walk: &w,
                regs: r,
                title: format!("{} at position {pos}", info.title),
            },
            crate::report::stackmodel::Limits::PAGE,
        );
        let _ = writeln!(
            s,
            "<div class=\"picture\">{}</div>",
            crate::report::svg::render(&pic)
        );
    }
    let _ = writeln!(s, "</section>");

    if h.mode() == CpuMode::Protected {
        let _ = writeln!(
            s,
            "<section id=\"tasks\"><h2>Tasks</h2>\n<pre id=\"tasks-text\">{}</pre></section>",
            esc(&views::tasks_text(h))
        );
    }
    let _ = writeln!(
        s,
        "<form method=\"post\" action=\"/quit\"><button>End the session</button></form>{}",
        if ended {
            "<p>The program has ended: move back with the timeline.</p>"
        } else {
            ""
        }
    );
    let _ = writeln!(s, "</body>\n</html>");
    s
}

/// The timeline: links to step either way and to chosen positions, a bar
/// of the run so far (or of the recording) with a mark at `pos`, and the
/// forms that go to a position, run to a breakpoint or to the next
/// system call.
fn timeline(s: &mut String, h: &Here<'_, '_>, info: &Info<'_>) {
    let pos = h.pos;
    let _ = writeln!(s, "<nav id=\"timeline\"><h2>Timeline</h2><p>");
    let link = |s: &mut String, to: u64, id: &str, text: &str| {
        let _ = write!(s, "<a id=\"{id}\" href=\"/at/{to}\">{text}</a>");
    };
    link(s, 0, "start", "|&lt; start");
    if pos > 0 {
        link(s, pos.saturating_sub(1000), "back1000", "&lt;&lt; 1000");
        link(s, pos.saturating_sub(10), "back10", "&lt; 10");
        link(s, pos - 1, "rstep", "reverse step");
    }
    if !matches!(h.why, Why::Ended(_)) {
        link(s, pos + 1, "step", "step");
        link(s, pos + 10, "fwd10", "10 &gt;");
        link(s, pos + 1000, "fwd1000", "1000 &gt;&gt;");
    }
    let _ = writeln!(s, "</p>");
    let extent = info
        .recording
        .and_then(|r| r.instructions)
        .unwrap_or(0)
        .max(info.furthest)
        .max(pos)
        .max(1);
    let (w, bar) = (800u64, 760u64);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"44\" viewBox=\"0 0 {w} 44\" role=\"img\" aria-label=\"the run from position 0 to {extent}\">"
    );
    let _ = writeln!(
        s,
        "<rect x=\"20\" y=\"12\" width=\"{bar}\" height=\"12\" fill=\"#dde\" stroke=\"#557\"/>"
    );
    let mut last = None;
    for k in 0..=10u64 {
        let at = (u128::from(extent) * u128::from(k) / 10) as u64;
        if last == Some(at) {
            continue;
        }
        last = Some(at);
        let x = 20 + (u128::from(bar) * u128::from(at) / u128::from(extent)) as u64;
        let _ = writeln!(
            s,
            "<a href=\"/at/{at}\"><rect x=\"{}\" y=\"8\" width=\"8\" height=\"20\" fill=\"#557\"><title>position {at}</title></rect><text x=\"{x}\" y=\"40\" font-size=\"9\" text-anchor=\"middle\">{at}</text></a>",
            x - 4
        );
    }
    let x = 20 + (u128::from(bar) * u128::from(pos) / u128::from(extent)) as u64;
    let _ = writeln!(
        s,
        "<polygon points=\"{},2 {},2 {x},12\" fill=\"#c00\"><title>position {pos}</title></polygon></svg>",
        x - 6,
        x + 6
    );
    let _ = writeln!(
        s,
        "<div><form method=\"get\" action=\"/goto\"><label>Go to position <input name=\"n\" size=\"12\" value=\"{pos}\"/></label> <button>go</button></form>\
<form method=\"get\" action=\"/run\"><input type=\"hidden\" name=\"from\" value=\"{pos}\"/><label>Run to <input name=\"to\" size=\"24\" placeholder=\"DEMO!WinMain, 1:2A, CS:IP, +N\"/></label> <button>run</button></form>\
<a id=\"syscall\" href=\"/syscall?from={pos}\">to the next system call</a></div>"
    );
    let _ = writeln!(s, "</nav>");
}

/// Where to start the disassembly so that it shows up to [`BEFORE`]
/// instructions before CS:IP: the furthest start (at most 32 bytes back)
/// from which instructions decode one after another onto IP exactly.
fn back_from(h: &Here<'_, '_>, cs: u16, ip: u16) -> (u16, usize) {
    use iced_x86::{Decoder, DecoderOptions};
    let back = ip.min(32);
    if back == 0 {
        return (ip, 0);
    }
    let mut bytes = vec![0u8; usize::from(back)];
    if h.uc().read_seg(cs, ip - back, &mut bytes).is_err() {
        return (ip, 0);
    }
    for k in (1..=back).rev() {
        let from = usize::from(back - k);
        let mut d = Decoder::with_ip(16, &bytes[from..], u64::from(ip - k), DecoderOptions::NONE);
        let mut starts = Vec::new();
        let mut bad = false;
        while d.can_decode() {
            let i = d.decode();
            if i.is_invalid() {
                bad = true;
                break;
            }
            starts.push(i.ip() as u16);
        }
        // Decoded to the byte before IP exactly (the decoder stops at the
        // buffer's end, which is IP).
        if bad || d.position() != bytes.len() - from || starts.is_empty() {
            continue;
        }
        let n = starts.len().min(BEFORE);
        return (starts[starts.len() - n], n);
    }
    (ip, 0)
}

/// A page for a request that could not be served.
pub fn refusal(status: u16, what: &str) -> String {
    let mut s = String::new();
    crate::report::html::head(&mut s, "toolhelp16 serve", "");
    let _ = writeln!(
        s,
        "<h1>{status}</h1>\n<p>{}</p>\n<p><a href=\"/\">the current moment</a></p>\n</body>\n</html>",
        esc(what)
    );
    s
}

/// The page after the session ended.
pub fn ended(pos: u64) -> String {
    let mut s = String::new();
    crate::report::html::head(&mut s, "toolhelp16 serve", "");
    let _ = writeln!(
        s,
        "<h1>The session has ended</h1>\n<p>At position {pos}. The server stops.</p>\n</body>\n</html>"
    );
    s
}

/// The path of a moment with a note.
pub fn at_with_note(pos: u64, note: &str) -> String {
    format!("/at/{pos}?note={}", encode(note))
}
