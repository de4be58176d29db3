//! The 80x25 colour text screen at B800:0000 and the BIOS cursor in the BIOS
//! data area (0040:0050 column, 0040:0051 row, page 0), as INT 10h keeps
//! them. `--screen` prints the final screen as text.

use crate::machine::Uc;

const VRAM: u64 = 0xB8000;
const COLS: u16 = 80;
const ROWS: u16 = 25;
const BDA_CURSOR: u64 = 0x450;
const DEFAULT_ATTR: u8 = 0x07;

/// Cursor (column, row).
pub fn cursor(uc: &Uc<'_>) -> (u16, u16) {
    let mut b = [0u8; 2];
    let _ = uc.mem_read(BDA_CURSOR, &mut b);
    (u16::from(b[0]).min(COLS - 1), u16::from(b[1]).min(ROWS - 1))
}

/// Move the cursor.
pub fn set_cursor(uc: &mut Uc<'_>, col: u16, row: u16) {
    let _ = uc.mem_write(
        BDA_CURSOR,
        &[col.min(COLS - 1) as u8, row.min(ROWS - 1) as u8],
    );
}

fn cell(col: u16, row: u16) -> u64 {
    VRAM + (u64::from(row) * u64::from(COLS) + u64::from(col)) * 2
}

/// Write a character and attribute at a position.
pub fn put(uc: &mut Uc<'_>, col: u16, row: u16, ch: u8, attr: u8) {
    if col < COLS && row < ROWS {
        let _ = uc.mem_write(cell(col, row), &[ch, attr]);
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
    let (bottom, right) = (bottom.min(ROWS - 1), right.min(COLS - 1));
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
                let _ = uc.mem_read(cell(col, src), &mut b);
            }
            let _ = uc.mem_write(cell(col, row), &b);
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
            let _ = uc.mem_read(cell(col, row) + 1, &mut attr);
            put(
                uc,
                col,
                row,
                ch,
                if attr[0] == 0 { DEFAULT_ATTR } else { attr[0] },
            );
            col += 1;
            if col >= COLS {
                col = 0;
                row += 1;
            }
        }
    }
    if row >= ROWS {
        scroll_up(uc, 1, DEFAULT_ATTR, 0, 0, ROWS - 1, COLS - 1);
        row = ROWS - 1;
    }
    set_cursor(uc, col, row);
}

/// The screen as 25 lines of text (trailing blanks trimmed; NUL shown as a
/// space; other characters as Latin-1).
pub fn text(uc: &Uc<'_>) -> String {
    let mut buf = vec![0u8; usize::from(COLS * ROWS) * 2];
    let _ = uc.mem_read(VRAM, &mut buf);
    let mut out = String::new();
    for row in 0..usize::from(ROWS) {
        let line: String = (0..usize::from(COLS))
            .map(|c| {
                let b = buf[(row * usize::from(COLS) + c) * 2];
                if b == 0 { ' ' } else { char::from(b) }
            })
            .collect();
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
    let (bottom, right) = (bottom.min(ROWS - 1), right.min(COLS - 1));
    if top > bottom || left > right {
        return;
    }
    let height = bottom - top + 1;
    let n = if n == 0 || n > height { height } else { n };
    for row in (top..=bottom).rev() {
        for col in left..=right {
            let mut b = [b' ', attr];
            if row >= top + n {
                let _ = uc.mem_read(cell(col, row - n), &mut b);
            }
            let _ = uc.mem_write(cell(col, row), &b);
        }
    }
}

/// The character and attribute at a position.
pub fn get(uc: &Uc<'_>, col: u16, row: u16) -> (u8, u8) {
    let mut b = [b' ', DEFAULT_ATTR];
    if col < COLS && row < ROWS {
        let _ = uc.mem_read(cell(col, row), &mut b);
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

/// Columns and rows of the text screen.
pub const SIZE: (u16, u16) = (COLS, ROWS);
