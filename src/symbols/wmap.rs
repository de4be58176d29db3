//! Open Watcom wlink `.MAP` files.
//!
//! ```text
//! Open Watcom Linker Version 1.9
//! ...
//! Executable Image: wheeltst.exe
//!
//!                         +--------------+
//!                         |   Segments   |
//!                         +--------------+
//!
//! Segment                Class          Group          Address         Size
//! =======                =====          =====          =======         ====
//!
//! WHEELTST_TEXT          CODE           AUTO           0001:0000       000002a3
//!
//!                         +----------------+
//!                         |   Memory Map   |
//!                         +----------------+
//!
//! * = unreferenced symbol
//! + = symbol only referenced locally
//!
//! Address        Symbol
//! =======        ======
//!
//! Module: wheeltst.obj(wheeltst.c)
//! 0001:0000      WinMain_
//! 0001:01a0+     WndProc_
//! ```
//!
//! Addresses are `SEG:OFF` (a segment number for a segmented executable, a
//! paragraph for a DOS one), sizes plain hexadecimal. A symbol's name is the
//! rest of its line (wlink writes C++ names demangled, with spaces).

use super::{At, Layout, MapSegment, SegAddr, SymError};

/// Does this text come from wlink?
pub fn is_watcom(text: &str) -> bool {
    text.lines()
        .take(8)
        .any(|l| l.contains("Watcom Linker") || l.contains("WATCOM Linker"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Head,
    Segments,
    Memory,
    Other,
}

/// Read a wlink map.
pub fn parse(text: &str) -> Result<Layout, SymError> {
    let mut layout = Layout {
        format: "Open Watcom wlink map".into(),
        ..Layout::default()
    };
    let mut section = Section::Head;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim();
        if let Some(img) = t.strip_prefix("Executable Image:") {
            let stem = std::path::Path::new(img.trim())
                .file_stem()
                .map(|s| s.to_string_lossy().to_ascii_uppercase());
            layout.module = stem.map(|s| super::clip_name(&s));
            continue;
        }
        if t.starts_with('|') && t.ends_with('|') {
            let title = t.trim_matches('|').trim();
            section = match title {
                "Segments" => Section::Segments,
                "Memory Map" => Section::Memory,
                _ => Section::Other,
            };
            continue;
        }
        if t.is_empty()
            || t.starts_with('+')
            || t.starts_with('=')
            || t.starts_with("Segment ")
            || t.starts_with("Address ")
            || t.starts_with("Module:")
            || t.starts_with("* =")
            || t.starts_with("+ =")
            || t.starts_with("s =")
        {
            continue;
        }
        match section {
            Section::Head | Section::Other => {}
            Section::Segments => {
                let tok: Vec<&str> = t.split_whitespace().collect();
                let bad =
                    || SymError::line(n, "a segment line must read NAME CLASS GROUP SEG:OFF SIZE");
                if tok.len() < 5 {
                    return Err(bad());
                }
                let k = tok.len();
                let addr = super::msmap::frame_off(tok[k - 2]).ok_or_else(bad)?;
                let len = u32::from_str_radix(tok[k - 1], 16).map_err(|_| bad())?;
                layout.segments.push(MapSegment {
                    name: super::clip_name(tok[0]),
                    class: Some(super::clip_name(tok[1])),
                    addr: SegAddr::Frame(addr),
                    len: Some(len),
                    at: At::Line(n),
                });
            }
            Section::Memory => {
                let (addr_tok, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
                // A flag may follow the address: * unreferenced, + local,
                // s static.
                let addr_text = addr_tok.trim_end_matches(['*', '+', 's']);
                let Some(addr) = super::msmap::frame_off(addr_text) else {
                    return Err(SymError::line(
                        n,
                        format!("a symbol's line must start SEG:OFF, not '{addr_tok}'"),
                    ));
                };
                let name = rest.trim();
                if name.is_empty() {
                    return Err(SymError::line(n, "a symbol's line has no name"));
                }
                layout.push_public(name, addr, n)?;
            }
        }
    }
    layout.nonempty("no Segments table and no Memory Map: not a wlink map this tool reads")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "Open Watcom Linker Version 1.9
Portions Copyright (c) 1985-2002 Sybase, Inc. All Rights Reserved.
Created on:       26/11/22 10:00:00
Executable Image: demo.exe
creating a Windows executable


                        +------------+
                        |   Groups   |
                        +------------+

Group                           Address              Size
=====                           =======              ====

DGROUP                          0003:0000            00000100



                        +--------------+
                        |   Segments   |
                        +--------------+

Segment                Class          Group          Address         Size
=======                =====          =====          =======         ====

_TEXT                  CODE           AUTO           0001:0000       00000052
SEG2_TEXT              CODE           AUTO           0002:0000       00000034
_DATA                  DATA           DGROUP         0003:0000       00000100


                        +----------------+
                        |   Memory Map   |
                        +----------------+

* = unreferenced symbol
+ = symbol only referenced locally

Address        Symbol
=======        ======

Module: demo.obj(demo.asm)
0001:0000      start
0001:0030+     PaintLine
0002:0000*     int near MainWndProc( int )
";

    #[test]
    fn reads_segments_and_the_memory_map() {
        assert!(is_watcom(MAP));
        let l = parse(MAP).unwrap();
        assert_eq!(l.module.as_deref(), Some("DEMO"));
        assert_eq!(l.segments.len(), 3);
        assert_eq!(l.segments[2].is_code(), Some(false));
        assert_eq!(l.publics.len(), 3);
        assert_eq!(l.publics[1].name, "PaintLine");
        assert_eq!(l.publics[1].addr.offset, 0x30);
        assert_eq!(l.publics[2].name, "int near MainWndProc( int )");
    }

    #[test]
    fn a_bad_symbol_line_names_its_line() {
        let bad = MAP.replace("0001:0030+", "zz:0030+");
        let e = parse(&bad).unwrap_err();
        assert!(matches!(e.at, At::Line(_)), "{e}");
        assert!(e.what.contains("zz:0030"), "{e}");
    }
}
