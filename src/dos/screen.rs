//! The colour text screen at B800:0000 (80x25, or 40x25 in modes 0 and 1:
//! the columns are the BIOS data area's at 0040:004A) and the BIOS cursor
//! in the BIOS data area (0040:0050 column, 0040:0051 row, page 0), as
//! INT 10h keeps them. `--screen` prints the final screen as text.

use crate::machine::Uc;

const VRAM: u64 = 0xB8000;
const COLS: u16 = 80;
const ROWS: u16 = 25;

/// Columns of the text mode (0040:004A: 40 or 80; anything else reads as
/// 80).
fn cols(uc: &Uc<'_>) -> u16 {
    use crate::machine::Cpu;
    match uc.read_u16_at(0x40, 0x4A) {
        Ok(c) if (1..=COLS).contains(&c) => c,
        _ => COLS,
    }
}
const BDA_CURSOR: u64 = 0x450;
const DEFAULT_ATTR: u8 = 0x07;

/// Cursor (column, row).
pub fn cursor(uc: &Uc<'_>) -> (u16, u16) {
    let mut b = [0u8; 2];
    let _ = uc.mem_read(BDA_CURSOR, &mut b);
    (
        u16::from(b[0]).min(cols(uc) - 1),
        u16::from(b[1]).min(ROWS - 1),
    )
}

/// Move the cursor.
pub fn set_cursor(uc: &mut Uc<'_>, col: u16, row: u16) {
    let c = cols(uc);
    let _ = uc.mem_write(BDA_CURSOR, &[col.min(c - 1) as u8, row.min(ROWS - 1) as u8]);
}

fn cell(uc: &Uc<'_>, col: u16, row: u16) -> u64 {
    VRAM + (u64::from(row) * u64::from(cols(uc)) + u64::from(col)) * 2
}

/// Write a character and attribute at a position.
pub fn put(uc: &mut Uc<'_>, col: u16, row: u16, ch: u8, attr: u8) {
    if col < cols(uc) && row < ROWS {
        let at = cell(uc, col, row);
        let _ = uc.mem_write(at, &[ch, attr]);
    }
}

/// Clear the screen (mode set) and home the cursor.
pub fn clear(uc: &mut Uc<'_>) {
    let blank: Vec<u8> = std::iter::repeat_n([b' ', DEFAULT_ATTR], usize::from(COLS * ROWS))
        .flatten()
        .collect();
    let _ = uc.mem_write(VRAM, &blank);
    set_cursor(uc, 0, 0);
}

/// Scroll rows `top..=bottom` of columns `left..=right` up by `n` lines
/// (0 = clear), filling with `attr` (INT 10h AH=06h).
pub fn scroll_up(uc: &mut Uc<'_>, n: u16, attr: u8, top: u16, left: u16, bottom: u16, right: u16) {
    let (bottom, right) = (bottom.min(ROWS - 1), right.min(cols(uc) - 1));
    if top > bottom || left > right {
        return;
    }
    let height = bottom - top + 1;
    let n = if n == 0 || n > height { height } else { n };
    for row in top..=bottom {
        for col in left..=right {
            let src = row + n;
            let mut b = [b' ', attr];
            if src <= bottom {
                let _ = uc.mem_read(cell(uc, col, src), &mut b);
            }
            let at = cell(uc, col, row);
            let _ = uc.mem_write(at, &b);
        }
    }
}

/// BIOS teletype (INT 10h AH=0Eh): BEL, BS, CR and LF act; other
/// characters are written at the cursor, which advances and scrolls.
pub fn teletype(uc: &mut Uc<'_>, ch: u8) {
    let (mut col, mut row) = cursor(uc);
    match ch {
        0x07 => {}
        0x08 => col = col.saturating_sub(1),
        b'\r' => col = 0,
        b'\n' => row += 1,
        _ => {
            let mut attr = [DEFAULT_ATTR; 1];
            let _ = uc.mem_read(cell(uc, col, row) + 1, &mut attr);
            put(
                uc,
                col,
                row,
                ch,
                if attr[0] == 0 { DEFAULT_ATTR } else { attr[0] },
            );
            col += 1;
            if col >= cols(uc) {
                col = 0;
                row += 1;
            }
        }
    }
    if row >= ROWS {
        let right = cols(uc) - 1;
        scroll_up(uc, 1, DEFAULT_ATTR, 0, 0, ROWS - 1, right);
        row = ROWS - 1;
    }
    set_cursor(uc, col, row);
}

/// What a cell holding byte `b` shows, as Unicode: the VGA's text font is
/// code page 437, so every byte is a glyph — 01h-1Fh are the pictures
/// (☺ ♥ ♪ ← ...), 7Fh is ⌂, 80h-FFh the accented letters and the line
/// and block drawing — and none is a control character. NUL shows as a
/// blank, as the font draws it. The table is the `codepage-437` crate's
/// (its dialect that decodes the low range as glyphs).
pub fn glyph(b: u8) -> char {
    if b == 0 {
        ' '
    } else {
        codepage_437::CP437_WINGDINGS.decode(b)
    }
}

/// The screen as 25 lines of text, each cell's byte as its code page 437
/// glyph ([`glyph`]), trailing blanks trimmed. Nothing in it is a control
/// character but the line ends, so printing it cannot move a terminal's
/// cursor or send it an escape sequence.
pub fn text(uc: &Uc<'_>) -> String {
    let w = usize::from(cols(uc));
    let mut buf = vec![0u8; w * usize::from(ROWS) * 2];
    let _ = uc.mem_read(VRAM, &mut buf);
    let mut out = String::new();
    for row in 0..usize::from(ROWS) {
        let line: String = (0..w).map(|c| glyph(buf[(row * w + c) * 2])).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Scroll rows `top..=bottom` of columns `left..=right` down by `n` lines
/// (0 = clear), filling with `attr` (INT 10h AH=07h).
pub fn scroll_down(
    uc: &mut Uc<'_>,
    n: u16,
    attr: u8,
    top: u16,
    left: u16,
    bottom: u16,
    right: u16,
) {
    let (bottom, right) = (bottom.min(ROWS - 1), right.min(cols(uc) - 1));
    if top > bottom || left > right {
        return;
    }
    let height = bottom - top + 1;
    let n = if n == 0 || n > height { height } else { n };
    for row in (top..=bottom).rev() {
        for col in left..=right {
            let mut b = [b' ', attr];
            if row >= top + n {
                let _ = uc.mem_read(cell(uc, col, row - n), &mut b);
            }
            let at = cell(uc, col, row);
            let _ = uc.mem_write(at, &b);
        }
    }
}

/// The character and attribute at a position.
pub fn get(uc: &Uc<'_>, col: u16, row: u16) -> (u8, u8) {
    let mut b = [b' ', DEFAULT_ATTR];
    if col < cols(uc) && row < ROWS {
        let _ = uc.mem_read(cell(uc, col, row), &mut b);
    }
    (b[0], b[1])
}

/// BIOS teletype with an attribute for the characters it writes (INT 10h
/// AH=13h with attributes).
pub fn teletype_attr(uc: &mut Uc<'_>, ch: u8, attr: u8) {
    let (col, row) = cursor(uc);
    if !matches!(ch, 0x07 | 0x08 | b'\r' | b'\n') {
        put(uc, col, row, b' ', attr);
    }
    teletype(uc, ch);
}

/// A byte stream (console output) decoded as code page 437: bytes 00h-1Fh
/// and 7Fh stay the control characters they are in a stream (CR, LF, Tab
/// keep their meaning), 80h-FFh become their glyphs (box drawing, accented
/// letters), so `\xC9\xCD\xBB` reads as "╔═╗", not as invalid UTF-8.
pub fn cp437_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| codepage_437::CP437_CONTROL.decode(b))
        .collect()
}

/// Columns and rows of the text screen.
pub fn size(uc: &Uc<'_>) -> (u16, u16) {
    (cols(uc), ROWS)
}

/// Console output as a terminal should show it: what the BIOS teletype
/// acts on (CR, LF, Backspace, Tab) stays, BEL is dropped (the teletype
/// beeps and shows nothing), and every other byte is its code page 437
/// glyph ([`glyph`]), ESC included (without ANSI.SYS, DOS shows ESC as
/// ←). So a program's output cannot send a terminal escape sequence or a
/// control character to the user's terminal.
pub fn terminal_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .filter(|&&b| b != 0x07)
        .map(|&b| match b {
            b'\r' | b'\n' | b'\t' | 0x08 => char::from(b),
            _ => glyph(b),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{glyph, terminal_text};

    #[test]
    fn a_console_stream_decodes_as_code_page_437() {
        // CP437: C9h, CDh, BBh are the double box corners and line; 82h is
        // e acute; control bytes stay controls in a stream.
        assert_eq!(
            super::cp437_text(b"\xc9\xcd\xbb \x82t\xe9\r\n"),
            "\u{2554}\u{2550}\u{2557} \u{e9}t\u{398}\r\n"
        );
    }

    #[test]
    fn console_output_reaches_a_terminal_without_raw_control_bytes() {
        let t = terminal_text(b"\x1b[31mred\x07\r\n\xc9\xcd\xbb\tx\x08\x00");
        assert_eq!(t, "\u{2190}[31mred\r\n\u{2554}\u{2550}\u{2557}\tx\x08 ");
        assert!(
            !t.chars()
                .any(|c| c.is_control() && !matches!(c, '\r' | '\n' | '\t' | '\x08'))
        );
    }

    #[test]
    fn cells_decode_as_code_page_437_glyphs() {
        // The low range is pictures, not control characters.
        assert_eq!(glyph(0x01), '\u{263A}'); // ☺
        assert_eq!(glyph(0x07), '\u{2022}'); // •
        assert_eq!(glyph(0x0D), '\u{266A}'); // ♪
        assert_eq!(glyph(0x1B), '\u{2190}'); // ←
        assert_eq!(glyph(0x7F), '\u{2302}'); // ⌂
        // Line drawing and letters above 80h (Latin-1 would give É, Í, »).
        assert_eq!(glyph(0xC9), '\u{2554}'); // ╔
        assert_eq!(glyph(0xCD), '\u{2550}'); // ═
        assert_eq!(glyph(0xBB), '\u{2557}'); // ╗
        assert_eq!(glyph(0x82), '\u{E9}'); // é
        assert_eq!(glyph(0xDB), '\u{2588}'); // █
        assert_eq!(glyph(b'A'), 'A');
        assert_eq!(glyph(0), ' ');
        for b in 0..=255u8 {
            assert!(
                !glyph(b).is_control(),
                "{b:#04X} decodes to a control character"
            );
        }
    }
}
