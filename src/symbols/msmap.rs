//! Microsoft LINK `.MAP` files (LINK 3.x to 5.x, segmented and DOS).
//!
//! The parts read, in the order LINK writes them:
//!
//! ```text
//!  DEMO                                     <- the module name (NE maps)
//!
//!  Start     Length     Name                   Class
//!  0001:0000 00052H     _TEXT                  CODE       <- NE: FRAME:OFFSET
//!  00000H 00051H 00052H _TEXT                  CODE       <- DOS: START STOP LENGTH
//!
//!  Origin   Group
//!  0003:0   DGROUP
//!
//!   Address         Publics by Name
//!  0001:0010       _WinMain
//!  0000:0000  Abs  __acrtused                               <- skipped
//!  0000:0000  Imp  GETMESSAGE  (USER.108)                   <- skipped
//!
//!   Address         Publics by Value
//!  ...
//! Program entry point at 0001:0000
//!
//! Line numbers for obj\hello.obj(hello.c) segment _TEXT    <- with /LI
//!
//!      9 0001:0010    10 0001:0015    11 0001:0021
//! ```
//!
//! Both public lists name the same symbols; each symbol is kept once.
//! LINK `/LINENUMBERS` adds a "Line numbers for" section per object file
//! and segment: the source file (in parentheses after the object file) and
//! pairs of a decimal line number and the FRAME:OFFSET of its first byte.
//! A line's code runs to the next line's, to the next public symbol, or to
//! its segment's end, whichever comes first. Anything else (exports) is
//! passed over.

use super::{At, FrameOff, Layout, MapSegment, SegAddr, SymError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Head,
    Segments,
    Groups,
    Publics,
    /// A "Line numbers for" section: the index of its file.
    Lines(u32),
    Other,
}

fn hex(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

/// `HHHHH` followed by `H`.
fn hex_h(s: &str) -> Option<u32> {
    hex(s.strip_suffix(['H', 'h'])?)
}

/// `FFFF:OOOO` (offset up to 8 digits).
pub(crate) fn frame_off(s: &str) -> Option<FrameOff> {
    let (f, o) = s.split_once(':')?;
    if f.len() > 4 {
        return None;
    }
    Some(FrameOff {
        frame: u16::from_str_radix(f, 16).ok()?,
        offset: hex(o)?,
    })
}

/// Read a LINK map.
pub fn parse(text: &str) -> Result<Layout, SymError> {
    let mut layout = Layout {
        format: "Microsoft LINK map".into(),
        ..Layout::default()
    };
    let mut section = Section::Head;
    let mut seen = std::collections::HashSet::new();
    let mut lines: Option<super::lines::DebugInfo> = None;
    let mut rows: Vec<(FrameOff, u32, u32)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim();
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("start") && lower.contains("length") && lower.contains("name") {
            section = Section::Segments;
            continue;
        }
        if lower.starts_with("origin") && lower.contains("group") {
            section = Section::Groups;
            continue;
        }
        if lower.contains("publics by name") || lower.contains("publics by value") {
            section = Section::Publics;
            continue;
        }
        if lower.starts_with("line numbers for") {
            let file = line_file(t);
            let info = lines.get_or_insert_with(|| super::lines::DebugInfo {
                format: "Microsoft LINK map line numbers".into(),
                ..Default::default()
            });
            section = Section::Lines(info.file_index(&file));
            continue;
        }
        if lower.starts_with("address") {
            section = Section::Other;
            continue;
        }
        if lower.starts_with("program entry point") {
            section = Section::Other;
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let tok: Vec<&str> = t.split_whitespace().collect();
        match section {
            Section::Head => {
                if layout.module.is_none() && tok.len() == 1 {
                    layout.module = Some(super::clip_name(tok[0]));
                }
            }
            Section::Segments => layout.segments.push(segment_row(&tok, n)?),
            Section::Groups | Section::Other => {}
            Section::Lines(file) => {
                if tok.len() % 2 != 0 {
                    return Err(SymError::line(
                        n,
                        "a line-number row must hold pairs of LINE FRAME:OFFSET",
                    ));
                }
                for pair in tok.chunks(2) {
                    let (Ok(number), Some(addr)) = (pair[0].parse::<u32>(), frame_off(pair[1]))
                    else {
                        return Err(SymError::line(
                            n,
                            format!(
                                "'{} {}' is not a pair of a decimal line number and FRAME:OFFSET",
                                pair[0], pair[1]
                            ),
                        ));
                    };
                    if rows.len() >= super::lines::MAX_ROWS {
                        return Err(SymError::line(
                            n,
                            format!("more than {} line numbers", super::lines::MAX_ROWS),
                        ));
                    }
                    rows.push((addr, file, number));
                }
            }
            Section::Publics => {
                let Some(addr) = frame_off(tok[0]) else {
                    return Err(SymError::line(
                        n,
                        format!(
                            "a public symbol's line must start FRAME:OFFSET, not '{}'",
                            tok[0]
                        ),
                    ));
                };
                let mut rest = &tok[1..];
                let mut skip = false;
                while let Some((first, more)) = rest.split_first() {
                    match *first {
                        "Abs" | "Imp" => {
                            skip = true;
                            rest = more;
                        }
                        "Idle" | "Res" => rest = more,
                        _ => break,
                    }
                }
                let Some(name) = rest.first() else {
                    return Err(SymError::line(n, "a public symbol's line has no name"));
                };
                if skip || !seen.insert((addr, name.to_string())) {
                    continue;
                }
                layout.push_public(name, addr, n)?;
            }
        }
    }
    if let Some(mut info) = lines {
        line_rows(&layout, &mut rows, &mut info);
        layout.lines = Some(info);
    }
    layout.nonempty(
        "no segment list (\" Start  Length  Name  Class\") and no public symbols: not a LINK map",
    )
}

/// The source file of a "Line numbers for OBJ(SOURCE) segment SEG" line:
/// the name in parentheses, else the object file's.
fn line_file(t: &str) -> String {
    let rest = t["line numbers for".len()..].trim();
    let rest = match rest.to_ascii_lowercase().rfind(" segment ") {
        Some(k) => &rest[..k],
        None => rest,
    };
    match (rest.find('('), rest.rfind(')')) {
        (Some(a), Some(b)) if b > a + 1 => rest[a + 1..b].trim().to_string(),
        _ => rest.trim().to_string(),
    }
}

/// The rows' extents: each line up to the next line, the next public
/// symbol or its segment's end (the map says no more).
fn line_rows(
    layout: &Layout,
    rows: &mut [(FrameOff, u32, u32)],
    info: &mut super::lines::DebugInfo,
) {
    let linear = |f: FrameOff| (u32::from(f.frame) << 4).saturating_add(f.offset);
    // The end of the segment holding an address, as an offset in its frame.
    let seg_end = |f: FrameOff| -> Option<u32> {
        layout.segments.iter().find_map(|s| {
            let len = s.len?;
            match s.addr {
                SegAddr::Frame(fo) if fo.frame == f.frame => {
                    let end = fo.offset.saturating_add(len);
                    (f.offset >= fo.offset && f.offset < end).then_some(end)
                }
                SegAddr::Frame(_) => None,
                SegAddr::Linear(l) => {
                    let a = linear(f);
                    let end = l.saturating_add(len);
                    (a >= l && a < end).then(|| end - (u32::from(f.frame) << 4))
                }
            }
        })
    };
    let mut starts: Vec<FrameOff> = layout.publics.iter().map(|p| p.addr).collect();
    starts.sort_unstable();
    rows.sort_by_key(|&(a, _, _)| a);
    for (i, &(addr, file, line)) in rows.iter().enumerate() {
        let next_row = rows[i + 1..]
            .iter()
            .map(|&(a, _, _)| a)
            .find(|a| a.frame == addr.frame && a.offset > addr.offset)
            .map(|a| a.offset);
        let k = starts.partition_point(|s| *s <= addr);
        let next_public = starts
            .get(k)
            .filter(|s| s.frame == addr.frame)
            .map(|s| s.offset);
        let end = [next_row, next_public, seg_end(addr)]
            .into_iter()
            .flatten()
            .min();
        if let Some(end) = end {
            info.push_row(super::lines::RawRow {
                segment: addr.frame,
                start: addr.offset,
                end,
                file,
                line,
            });
        }
    }
}

fn segment_row(tok: &[&str], n: usize) -> Result<MapSegment, SymError> {
    let bad = || {
        SymError::line(
            n,
            "a segment line must read START [STOP] LENGTH NAME [CLASS] (START as FRAME:OFFSET or NNNNNH, LENGTH as NNNNH)",
        )
    };
    let addr = match tok.first() {
        Some(a) if a.contains(':') => SegAddr::Frame(frame_off(a).ok_or_else(bad)?),
        Some(a) => SegAddr::Linear(hex_h(a).ok_or_else(bad)?),
        None => return Err(bad()),
    };
    // With a STOP column, the next two both end in H.
    let with_stop = tok.len() >= 4
        && (tok[1].contains(':') || hex_h(tok[1]).is_some())
        && hex_h(tok[2]).is_some();
    let rest = if with_stop { &tok[2..] } else { &tok[1..] };
    let len = rest.first().and_then(|l| hex_h(l)).ok_or_else(bad)?;
    let name = rest.get(1).ok_or_else(bad)?;
    Ok(MapSegment {
        name: super::clip_name(name),
        class: rest.get(2).map(|c| super::clip_name(c)),
        addr,
        len: Some(len),
        at: At::Line(n),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NE_MAP: &str = "
 DEMO

 Start     Length     Name                   Class
 0001:0000 00052H     _TEXT                  CODE
 0002:0000 00034H     SEG2_TEXT              CODE
 0003:0000 00100H     _DATA                  DATA

 Origin   Group
 0003:0   DGROUP

  Address         Export                  Alias

 0002:0000       MAINWNDPROC             MAINWNDPROC

  Address         Publics by Name

 0000:0000  Imp  INITTASK             (KERNEL.91)
 0001:0030       PaintLine
 0000:1234  Abs  __acrtused
 0001:0000       start

  Address         Publics by Value

 0001:0000       start
 0001:0030       PaintLine

Program entry point at 0001:0000
";

    #[test]
    fn reads_an_ne_map() {
        let l = parse(NE_MAP).unwrap();
        assert_eq!(l.module.as_deref(), Some("DEMO"));
        assert_eq!(l.segments.len(), 3);
        assert_eq!(l.segments[1].name, "SEG2_TEXT");
        assert_eq!(l.segments[1].len, Some(0x34));
        assert_eq!(l.segments[2].is_code(), Some(false));
        // Imp and Abs skipped, by-name and by-value merged.
        let names: Vec<_> = l.publics.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["PaintLine", "start"]);
        assert_eq!(
            l.publics[0].addr,
            FrameOff {
                frame: 1,
                offset: 0x30
            }
        );
    }

    #[test]
    fn reads_a_dos_map_with_stop_column() {
        let l = parse(
            "
 Start  Stop   Length Name                   Class
 00000H 0001FH 00020H _TEXT                  CODE
 00020H 0002FH 00010H _DATA                  DATA

  Address         Publics by Value

 0000:0004       _main
 0002:0002       _counter
",
        )
        .unwrap();
        assert_eq!(l.segments[0].addr, SegAddr::Linear(0));
        assert_eq!(l.segments[1].len, Some(0x10));
        assert_eq!(l.publics[1].addr.frame, 2);
    }

    #[test]
    fn reads_line_numbers() {
        let map = format!(
            "{NE_MAP}
Line numbers for obj\\demo.obj(demo.c) segment _TEXT

     9 0001:0000    10 0001:0004    12 0001:0030    13 0001:0038
Line numbers for seg2.obj(SEG2.C) segment SEG2_TEXT

     4 0002:0000
"
        );
        let l = parse(&map).unwrap();
        let info = l.lines.unwrap();
        assert_eq!(&*info.files[0], "demo.c");
        assert_eq!(&*info.files[1], "SEG2.C");
        let rows: Vec<(u16, u32, u32, u32)> = info
            .rows
            .iter()
            .map(|r| (r.segment, r.start, r.end, r.line))
            .collect();
        // Line 10 ends at PaintLine (a public symbol at 0x30); line 13 at
        // _TEXT's end (0x52); SEG2's line 4 at SEG2_TEXT's (0x34).
        assert_eq!(
            rows,
            [
                (1, 0, 4, 9),
                (1, 4, 0x30, 10),
                (1, 0x30, 0x38, 12),
                (1, 0x38, 0x52, 13),
                (2, 0, 0x34, 4)
            ]
        );
        let e = parse(&format!(
            "{NE_MAP}\nLine numbers for a.obj(a.c) segment _TEXT\n 9 0001:0000 10\n"
        ))
        .unwrap_err();
        assert!(matches!(e.at, At::Line(_)), "{e}");
    }

    #[test]
    fn a_bad_row_names_its_line() {
        let e = parse("\n Start Length Name Class\n 0001:0000 zzz _TEXT CODE\n").unwrap_err();
        assert_eq!(e.at, At::Line(3));
        let e = parse("just some text\n").unwrap_err();
        assert_eq!(e.at, At::File);
    }
}
