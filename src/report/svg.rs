//! The stack picture as SVG (`stack --svg`, and inline in the HTML page):
//! the stack segment as a column of words, highest offset at the top so
//! the stack grows down the page; a band behind each frame's words; an
//! arrow from each saved BP to the frame it names; dashed lines at the
//! bounds pStackTop, pStackMin and pStackBot; the selector → descriptor →
//! linear translation above; and a legend with every frame's CS:IP, place
//! and symbol below. Every number is text, so the picture can be searched.
//!
//! Hooks for tests and style sheets: `g.frame-band[data-frame]`,
//! `path.chain-arrow[data-to-frame]`, `g.word[data-off]`,
//! `g.bound[data-bound]`, `g.translation`, `text.frame-legend[data-frame]`.

use std::fmt::Write as _;

use super::stackmodel::{Picture, Row, WordKind};
use super::{clip, esc};
use crate::walk::CpuMode;

/// Width of the picture: at most 1200 px, so it fits a page and a
/// README without scaling (issue 31, Why 7). Text that would pass the
/// right edge is wrapped or elided, the whole of it kept in a `<title>`
/// (a tooltip) — see [`text_full`].
pub const W: u32 = 1200;
/// Right edge of the bands and bound lines; the segment map lies past it.
const COL_R: u32 = 1006;
/// The segment map's bar.
const MAP_X: u32 = 1030;
const MAP_W: u32 = 16;
/// Least height of the segment map.
const MAP_MIN_H: u32 = 240;
/// Height of a word row.
const ROW_H: u32 = 22;
/// Left edge of the word boxes (arrows run left of it).
const WORD_X: u32 = 240;
const WORD_W: u32 = 64;
const OFF_X: u32 = WORD_X + WORD_W + 14;
const LIN_X: u32 = OFF_X + 52;
const MARK_X: u32 = LIN_X + 82;
const NOTE_X: u32 = MARK_X + 70;
/// Longest note drawn, in characters (the HTML table and the note's
/// `<title>` have them whole): 12 px monospace is 7.2 px a character, and
/// a note runs from NOTE_X to COL_R.
const NOTE_MAX: usize = ((COL_R - NOTE_X) * 10 / 72) as usize;
/// Longest header and legend line before it wraps or is elided.
const LINE_MAX: usize = ((W - 14 - 14) * 10 / 72) as usize;
/// Band colours (fill, stroke), frame by frame.
const BANDS: [(&str, &str); 6] = [
    ("#e3effb", "#4a7fb5"),
    ("#fcefdc", "#b5803a"),
    ("#e3f4e6", "#4a9a5a"),
    ("#f3e6f5", "#8e5a9a"),
    ("#f8f5d6", "#9a913a"),
    ("#e0f3f3", "#3a8e8e"),
];

fn word_fill(kind: WordKind) -> &'static str {
    match kind {
        WordKind::SavedBp => "#ffd966",
        WordKind::ReturnIp => "#9fd3ff",
        WordKind::ReturnCs => "#7fbfff",
        WordKind::Argument => "#e4e4e4",
        WordKind::Local => "#ffffff",
        WordKind::Fault => "#ffadad",
        WordKind::Other => "#f2f2f2",
    }
}

/// Break `s` into lines of at most `max` characters at spaces (a word
/// longer than that stays whole).
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// The SVG text element `<text ...>content</text>`, escaped.
fn text(out: &mut String, x: u32, y: u32, class: &str, extra: &str, content: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x}" y="{y}" class="{class}"{extra}>{}</text>"#,
        esc(content)
    );
}

/// Like [`text`], with `content` elided to `max` characters; when it is
/// cut, the whole text is the element's `<title>`, which viewers show as
/// its tooltip and screen readers read, so no name is lost.
fn text_full(
    out: &mut String,
    x: u32,
    y: u32,
    class: &str,
    extra: &str,
    content: &str,
    max: usize,
) {
    let shown = clip(content, max);
    if shown == content {
        text(out, x, y, class, extra, content);
    } else {
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{y}" class="{class}"{extra}><title>{}</title>{}</text>"#,
            esc(content),
            esc(&shown)
        );
    }
}

/// Where a boundary offset lies in the column.
enum Place {
    /// At this y, between shown words or inside a gap row.
    At(u32),
    /// Below every shown word (lower offsets than the column shows).
    Below,
    /// Above every shown word.
    Above,
}

/// The drawing: rows from `y0`, each [`ROW_H`] high, highest offset first.
struct Column<'a> {
    pic: &'a Picture,
    y0: u32,
}

impl Column<'_> {
    fn row_y(&self, i: usize) -> u32 {
        self.y0 + i as u32 * ROW_H
    }
    fn bottom(&self) -> u32 {
        self.row_y(self.pic.rows.len())
    }
    /// The row index of the word at `off`.
    fn word_row(&self, off: u16) -> Option<usize> {
        self.pic
            .rows
            .iter()
            .position(|r| matches!(r, Row::Word(w) if w.off == off))
    }
    /// The y of the boundary below offset `x`'s word: the edge between
    /// the words at `x` and `x - 2`.
    fn boundary(&self, x: u32) -> Place {
        for (i, r) in self.pic.rows.iter().enumerate() {
            match *r {
                Row::Word(ref w) if u32::from(w.off) < x => {
                    // Right above the top word is still the column's edge.
                    return if i == 0 && x > u32::from(w.off) + 2 {
                        Place::Above
                    } else {
                        Place::At(self.row_y(i))
                    };
                }
                Row::Gap { lo, hi } if lo < x => {
                    // Inside a gap: under its text.
                    return if x < hi {
                        Place::At(self.row_y(i) + ROW_H - 2)
                    } else if i == 0 && x > hi {
                        Place::Above
                    } else {
                        Place::At(self.row_y(i))
                    };
                }
                _ => {}
            }
        }
        Place::Below
    }
    /// The y range `[top, bottom)` of the rows holding offsets `[lo, hi)`.
    fn span(&self, lo: u32, hi: u32) -> Option<(u32, u32)> {
        let mut top = None;
        let mut bottom = None;
        for (i, r) in self.pic.rows.iter().enumerate() {
            let inside = match *r {
                Row::Word(ref w) => (lo..hi).contains(&u32::from(w.off)),
                Row::Gap { lo: a, hi: b } => a >= lo && b <= hi,
            };
            if inside {
                top.get_or_insert(self.row_y(i));
                bottom = Some(self.row_y(i + 1));
            }
        }
        Some((top?, bottom?))
    }
}

/// The picture as a standalone SVG document.
pub fn render(pic: &Picture) -> String {
    let mut body = String::new();
    let mut y = 26;
    // The title is 15 px bold: fewer characters fit.
    text_full(
        &mut body,
        14,
        y,
        "title",
        "",
        &pic.title,
        LINE_MAX * 12 / 15,
    );
    y += 20;
    let r = &pic.regs;
    let mode = match pic.mode {
        CpuMode::Real => "real mode",
        CpuMode::Protected => "16-bit protected mode",
    };
    text(
        &mut body,
        14,
        y,
        "sub",
        "",
        &format!(
            "{mode} · SS:SP {:04X}:{:04X} · BP {:04X} · CS:IP {:04X}:{:04X} · {} frame(s) walked by StackTraceCSIPFirst, then StackTraceNext",
            r.ss,
            r.sp,
            r.bp,
            r.cs,
            r.ip,
            pic.frames.len()
        ),
    );

    // The translation of SS:SP, one step a line.
    y += 14;
    let steps = pic.stack_steps();
    let box_h = 10 + 18 * steps.len() as u32;
    let _ = writeln!(body, r#"<g class="translation" data-mode="{mode}">"#);
    let _ = writeln!(
        body,
        r##"<rect x="10" y="{y}" width="{}" height="{box_h}" rx="6" fill="#f7f7fb" stroke="#9a9ab5"/>"##,
        W - 20
    );
    for (i, s) in steps.iter().enumerate() {
        let arrow = if i == 0 { "" } else { "→ " };
        text(
            &mut body,
            22 + if i == 0 { 0 } else { 24 },
            y + 20 + 18 * i as u32,
            "mono",
            "",
            &format!("{arrow}{s}"),
        );
    }
    let _ = writeln!(body, "</g>");
    y += box_h + 20;
    for line in wrap(&pic.bounds_text(), LINE_MAX) {
        text(&mut body, 14, y, "small", "", &line);
        y += 15;
    }

    // Column headings.
    y += 10;
    text(
        &mut body,
        WORD_X + WORD_W / 2,
        y,
        "head",
        r#" text-anchor="middle""#,
        "word",
    );
    text(&mut body, OFF_X, y, "head", "", &format!("{:04X}:", pic.ss));
    text(&mut body, LIN_X, y, "head", "", "linear");
    text(
        &mut body,
        NOTE_X,
        y,
        "head",
        "",
        "what the walk makes of it",
    );
    text(&mut body, 14, y, "head", "", "frame");
    let col = Column { pic, y0: y + 8 };

    // Bands behind the words.
    for b in &pic.bands {
        let Some((top, bottom)) = col.span(b.lo, b.hi) else {
            continue;
        };
        let (fill, stroke) = BANDS[b.frame % BANDS.len()];
        let dash = if b.far {
            ""
        } else {
            r#" stroke-dasharray="6 3""#
        };
        let kind = pic.frames.get(b.frame).map_or("", |f| f.kind());
        let _ = writeln!(
            body,
            r#"<g class="frame-band" data-frame="{}" data-kind="{kind}">"#,
            b.frame
        );
        let _ = writeln!(
            body,
            r#"<rect x="8" y="{top}" width="{}" height="{}" rx="4" fill="{fill}" stroke="{stroke}"{dash}/>"#,
            COL_R - 8,
            (bottom - top).max(4)
        );
        let label = format!("frame {}", b.frame);
        if bottom - top >= 2 * ROW_H {
            text(&mut body, 14, top + 15, "band", "", &label);
            text(&mut body, 14, top + 30, "small", "", kind);
        } else {
            text(
                &mut body,
                14,
                top + 15,
                "band",
                "",
                &format!("{label} · {kind}"),
            );
        }
        let _ = writeln!(body, "</g>");
    }

    // The words and gaps.
    for (i, row) in pic.rows.iter().enumerate() {
        let ry = col.row_y(i);
        match row {
            Row::Word(w) => {
                let _ = writeln!(
                    body,
                    r#"<g class="word {}" data-off="{:04X}">"#,
                    w.kind.class(),
                    w.off
                );
                let _ = writeln!(
                    body,
                    r##"<rect x="{WORD_X}" y="{}" width="{WORD_W}" height="{}" fill="{}" stroke="#555"/>"##,
                    ry + 2,
                    ROW_H - 4,
                    word_fill(w.kind)
                );
                let value = w
                    .value
                    .map_or_else(|| "????".into(), |v| format!("{v:04X}"));
                text(
                    &mut body,
                    WORD_X + WORD_W / 2,
                    ry + 15,
                    "mono",
                    r#" text-anchor="middle""#,
                    &value,
                );
                text(
                    &mut body,
                    OFF_X,
                    ry + 15,
                    "mono",
                    "",
                    &format!("{:04X}", w.off),
                );
                if let Some(l) = w.linear {
                    text(
                        &mut body,
                        LIN_X,
                        ry + 15,
                        "dim",
                        "",
                        &pic.stack.fmt_linear(l),
                    );
                }
                let marks = match (w.sp, w.bp) {
                    (true, true) => "◀ SP, BP",
                    (true, false) => "◀ SP",
                    (false, true) => "◀ BP",
                    (false, false) => "",
                };
                if !marks.is_empty() {
                    text(&mut body, MARK_X, ry + 15, "mark", "", marks);
                }
                if !w.note.is_empty() {
                    text_full(&mut body, NOTE_X, ry + 15, "note", "", &w.note, NOTE_MAX);
                }
                let _ = writeln!(body, "</g>");
            }
            Row::Gap { lo, hi } => {
                let _ = writeln!(
                    body,
                    r#"<g class="gap" data-lo="{lo:04X}" data-hi="{hi:04X}">"#
                );
                text(
                    &mut body,
                    WORD_X + WORD_W / 2,
                    ry + 15,
                    "dim",
                    r#" text-anchor="middle""#,
                    "⋮",
                );
                text(
                    &mut body,
                    OFF_X,
                    ry + 15,
                    "dim",
                    "",
                    &format!(
                        "{lo:04X}–{:04X} not drawn ({:#X} bytes)",
                        hi.saturating_sub(1),
                        hi.saturating_sub(*lo)
                    ),
                );
                let _ = writeln!(body, "</g>");
            }
        }
    }

    // The BP register, and the chain's arrows.
    let reg_y = col.bottom() + 12;
    let _ = writeln!(
        body,
        r##"<g class="register"><rect x="{WORD_X}" y="{reg_y}" width="{WORD_W}" height="{}" rx="3" fill="#fff" stroke="#c0392b"/>"##,
        ROW_H - 4
    );
    text(
        &mut body,
        WORD_X + WORD_W / 2,
        reg_y + 13,
        "mono",
        r#" text-anchor="middle""#,
        &format!("{:04X}", r.bp),
    );
    text(
        &mut body,
        OFF_X,
        reg_y + 13,
        "mark",
        "",
        "the BP register: where the walk starts",
    );
    let _ = writeln!(body, "</g>");
    for a in &pic.arrows {
        let Some(to) = col.word_row(a.to) else {
            continue;
        };
        let yt = col.row_y(to) + ROW_H / 2;
        let yf = match a.from {
            None => reg_y + (ROW_H - 4) / 2,
            Some(off) => match col.word_row(off) {
                Some(k) => col.row_y(k) + ROW_H / 2,
                None => continue,
            },
        };
        let x = WORD_X;
        let d = if yf == yt {
            // The same BP again (a dispatch frame, or a stalled walk).
            format!(
                "M {x} {} C {} {}, {} {}, {x} {}",
                yt + 4,
                x - 40,
                yt + 16,
                x - 40,
                yt - 12,
                yt - 3
            )
        } else {
            let bulge = (30 + yf.abs_diff(yt) / 5).min(105);
            format!(
                "M {x} {yf} C {} {yf}, {} {yt}, {} {yt}",
                x - bulge,
                x - bulge,
                x - 1
            )
        };
        let _ = writeln!(
            body,
            r##"<path class="chain-arrow" data-to-frame="{}" d="{d}" fill="none" stroke="#c0392b" stroke-width="1.6" marker-end="url(#chain-head)"/>"##,
            a.to_frame
        );
    }

    // The bounds.
    let mut y_after = reg_y + ROW_H + 16;
    let bounds = [
        ("pStackBot", pic.bounds.bot, "[SS:0E]"),
        ("pStackMin", pic.bounds.min.map(u32::from), "[SS:0C]"),
        ("pStackTop", pic.bounds.top, "[SS:0A]"),
    ];
    // Bounds that fall on the same line share one label.
    let mut on_line: Vec<(u32, Vec<String>)> = Vec::new();
    for (name, value, whence) in bounds {
        let Some(v) = value else { continue };
        let whence = match pic.mode {
            CpuMode::Real => "real mode: the segment's edge",
            CpuMode::Protected => whence,
        };
        let label = format!("{name} {v:04X} {whence}");
        let _ = writeln!(
            body,
            r#"<g class="bound" data-bound="{name}" data-value="{v:04X}">"#
        );
        match col.boundary(v) {
            Place::At(by) => {
                let _ = writeln!(
                    body,
                    r##"<line x1="{}" y1="{by}" x2="{}" y2="{by}" stroke="#2c7a2c" stroke-width="1.4" stroke-dasharray="7 4"/>"##,
                    WORD_X - 6,
                    COL_R
                );
                match on_line.iter_mut().find(|(y, _)| *y == by) {
                    Some((_, labels)) => labels.push(label),
                    None => on_line.push((by, vec![label])),
                }
            }
            place => {
                let (where_, arrow) = match place {
                    Place::Above => ("above the words drawn", "↑"),
                    _ => ("below the words drawn", "↓"),
                };
                text(
                    &mut body,
                    WORD_X,
                    y_after,
                    "bound",
                    "",
                    &format!("{arrow} {label}: {where_}"),
                );
                y_after += 16;
            }
        }
        let _ = writeln!(body, "</g>");
    }
    for (by, labels) in on_line {
        let label = labels.join(" · ");
        let lw = 7 * label.chars().count() as u32 + 10;
        let _ = writeln!(
            body,
            r##"<rect class="bound-label" x="{}" y="{}" width="{lw}" height="13" fill="#ffffff" opacity="0.9"/>"##,
            COL_R.saturating_sub(2 + lw),
            by.saturating_sub(12)
        );
        text(
            &mut body,
            COL_R - 4,
            by.saturating_sub(2),
            "bound",
            r#" text-anchor="end""#,
            &label,
        );
    }

    let map_bottom = segment_map(&mut body, pic, &col);
    y_after = y_after.max(map_bottom + 16);

    // The legend: every frame, then how the walk ended.
    y_after += 12;
    text(
        &mut body,
        14,
        y_after,
        "head",
        "",
        "frames (innermost first)",
    );
    y_after += 18;
    for f in &pic.frames {
        let e = &f.entry;
        let lin = f
            .linear()
            .map(|l| format!(" · linear {}", f.code.fmt_linear(l)))
            .unwrap_or_default();
        let line = format!(
            "frame {} · {} · SS:BP {:04X}:{:04X} · CS:IP {} = {}{lin}",
            f.index,
            f.kind(),
            e.w_ss,
            e.w_bp,
            f.csip(),
            f.place.full()
        );
        // A long legend (a C++ name) wraps onto more lines.
        for part in wrap(&line, LINE_MAX) {
            // A single word longer than the line (a long C++ name) is
            // elided, the whole of it in the element's <title>.
            let shown = clip(&part, LINE_MAX);
            let title = if shown == part {
                String::new()
            } else {
                format!("<title>{}</title>", esc(&part))
            };
            let _ = writeln!(
                body,
                r#"<text x="14" y="{y_after}" class="frame-legend mono" data-frame="{}">{title}{}</text>"#,
                f.index,
                esc(&shown)
            );
            y_after += 17;
        }
    }
    y_after += 6;
    for line in wrap(&format!("walk ended: {}", pic.walk_end), LINE_MAX) {
        text(&mut body, 14, y_after, "end", "", &line);
        y_after += 16;
    }
    if let Some(t) = &pic.truncated {
        text(&mut body, 14, y_after, "small", "", t);
        y_after += 16;
    }
    let h = y_after + 10;

    let mut out = String::with_capacity(body.len() + 2048);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="stack-picture" width="{W}" height="{h}" viewBox="0 0 {W} {h}" role="img">"#
    );
    let _ = writeln!(out, "<title>{}</title>", esc(&pic.title));
    let _ = writeln!(
        out,
        "<desc>The stack segment {:04X} as a column of words, highest offset at the top; a band behind each frame; arrows along the BP chain; the bounds pStackTop, pStackMin and pStackBot.</desc>",
        pic.ss
    );
    out.push_str(STYLE);
    out.push_str(
        r##"<defs><marker id="chain-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="#c0392b"/></marker></defs>
"##,
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{W}" height="{h}" fill="#ffffff"/>"##
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The whole stack segment at the right, to scale: offset 0 at the
/// bottom, the limit at the top, with pStackTop, pStackMin, pStackBot and
/// SP marked and the words the column shows highlighted. Returns its
/// bottom.
fn segment_map(body: &mut String, pic: &Picture, col: &Column) -> u32 {
    let top = col.y0;
    let h = (col.bottom() - col.y0).max(MAP_MIN_H);
    let end = match pic.mode {
        CpuMode::Real => 0x1_0000,
        CpuMode::Protected => pic.bounds.limit.map_or(0x1_0000, |l| l + 1).max(1),
    };
    let y_of = |off: u32| {
        top + (u64::from(end.saturating_sub(off.min(end))) * u64::from(h) / u64::from(end)) as u32
    };
    let _ = writeln!(body, r#"<g class="segment-map">"#);
    text(
        body,
        MAP_X - 4,
        top - 12,
        "head",
        "",
        &format!("segment {:04X}", pic.ss),
    );
    let _ = writeln!(
        body,
        r##"<rect x="{MAP_X}" y="{top}" width="{MAP_W}" height="{h}" fill="#eef0f4" stroke="#777"/>"##
    );
    // The trusted stack, and the words drawn.
    if let (Some(lo), Some(hi)) = (pic.bounds.top, pic.bounds.bot) {
        if hi > lo {
            let (a, b) = (y_of(hi), y_of(lo));
            let _ = writeln!(
                body,
                r##"<rect x="{MAP_X}" y="{a}" width="{MAP_W}" height="{}" fill="#cfe8cf"/>"##,
                b.saturating_sub(a).max(1)
            );
        }
    }
    let offs: Vec<u32> = pic.words().map(|w| u32::from(w.off)).collect();
    if let (Some(&lo), Some(&hi)) = (offs.iter().min(), offs.iter().max()) {
        let (a, b) = (y_of(hi + 2), y_of(lo));
        let _ = writeln!(
            body,
            r##"<rect x="{}" y="{a}" width="{}" height="{}" fill="none" stroke="#c0392b" stroke-width="2"/>"##,
            MAP_X - 3,
            MAP_W + 6,
            b.saturating_sub(a).max(2)
        );
    }
    let mut marks: Vec<(u32, String)> = Vec::new();
    let b = &pic.bounds;
    for (name, v) in [
        ("pStackBot", b.bot),
        ("pStackMin", b.min.map(u32::from)),
        ("pStackTop", b.top),
    ] {
        if let Some(v) = v {
            marks.push((v, format!("{name} {v:04X}")));
        }
    }
    if pic.ss == pic.regs.ss {
        marks.push((u32::from(pic.regs.sp), format!("SP {:04X}", pic.regs.sp)));
    }
    marks.push((0, "0000".into()));
    if let Some(l) = b.limit {
        marks.push((l + 1, format!("limit {l:04X}")));
    }
    let mut placed: Vec<(u32, u32, String)> = marks
        .into_iter()
        .map(|(v, label)| (y_of(v), 0, label))
        .collect();
    placed.sort_by_key(|p| p.0);
    let mut last: Option<u32> = None;
    for p in &mut placed {
        let want = p.0 + 4;
        p.1 = match last {
            Some(l) if want < l + 12 => l + 12,
            _ => want,
        };
        last = Some(p.1);
    }
    for (y, ly, label) in &placed {
        let _ = writeln!(
            body,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#2c7a2c"/><line x1="{}" y1="{y}" x2="{}" y2="{}" stroke="#9a9a9a"/>"##,
            MAP_X - 4,
            MAP_X + MAP_W + 4,
            MAP_X + MAP_W + 4,
            MAP_X + MAP_W + 10,
            ly - 4
        );
        text(body, MAP_X + MAP_W + 12, *ly, "bound", "", label);
    }
    let _ = writeln!(body, "</g>");
    placed
        .iter()
        .map(|p| p.1)
        .max()
        .unwrap_or(top + h)
        .max(top + h)
}

const STYLE: &str = "<style>
.stack-picture text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12px; fill: #222; }
.stack-picture .title { font-size: 15px; font-weight: bold; }
.stack-picture .sub { fill: #444; }
.stack-picture .small, .stack-picture .dim { font-size: 11px; fill: #666; }
.stack-picture .head { font-weight: bold; fill: #333; }
.stack-picture .band { font-weight: bold; }
.stack-picture .mark { fill: #c0392b; font-weight: bold; }
.stack-picture .bound { fill: #2c7a2c; font-size: 11px; }
.stack-picture .end { fill: #7a2c2c; }
</style>
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("", 5), vec![""]);
        assert_eq!(wrap("abcdefgh ij", 4), vec!["abcdefgh", "ij"]);
    }
}
