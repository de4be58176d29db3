//! The EDIT class (USER.301, exported as BozosLiveHere): single-line and
//! multiline edit controls.
//!
//! Windows 3.1 behaviour (SDK: "Edit Control Styles", the EM_ messages,
//! EN_ notifications, WM_SETTEXT, WM_GETTEXT, WM_CUT, WM_COPY, WM_PASTE,
//! WM_CLEAR, WM_UNDO):
//!
//! - **The text lives in a local heap**, in one moveable block holding a
//!   NUL-terminated string, as Windows kept it: in the heap of the data
//!   segment of the instance the control was created with (a program's
//!   DGROUP; in a dialog box, the DGROUP with DS_LOCALEDIT, else a segment
//!   the dialog manager made for its edit controls, dialog.rs). EM_GETHANDLE
//!   answers that block's local handle (0 for a single-line control), which
//!   the program can LocalLock in that segment; EM_SETHANDLE gives the
//!   control another block (the program frees the old one), clearing the
//!   undo buffer and the modified flag. The control reads the block each
//!   time, so what the program wrote into it is the text. When the
//!   instance has no local heap, or its heap has no room, the control makes
//!   a segment of its own for the block (an event says so): Windows grew
//!   DGROUP instead, which this machine cannot do in place. A block that
//!   cannot grow sends EN_ERRSPACE and the change is refused.
//! - **Selection** is a range [start, end) and the caret is at its end as
//!   EM_SETSEL left it: EM_SETSEL(start, end) in lParam's words, clamped to
//!   the text; (0, -1) selects everything, start -1 removes the selection;
//!   EM_GETSEL answers MAKELONG(start, end), smaller first.
//! - **Lines** of a multiline control end at CR LF, and (without
//!   ES_AUTOHSCROLL) wrap at the formatting rectangle's width (the client
//!   area, or EM_SETRECT's) after the last blank that fits, a word wider
//!   than the line being cut, measured with the control's font (the System
//!   font when none was set). EM_GETLINECOUNT, EM_LINEINDEX (-1: the
//!   caret's line; -1 past the last line), EM_LINELENGTH (-1: the
//!   unselected characters of the lines the selection touches),
//!   EM_LINEFROMCHAR (-1: the selection's start), EM_GETLINE (the buffer's
//!   first word is its size; no NUL is added; the count copied) work on
//!   them. EM_FMTLINES(TRUE) writes CR CR LF into the text at every wrap
//!   (and keeps it so), FALSE takes them out again.
//! - **Editing**: WM_CHAR types (replacing the selection; backspace, CR in
//!   a multiline control, tab in a multiline control; ES_UPPERCASE and
//!   ES_LOWERCASE convert), WM_KEYDOWN moves the caret (arrows, Home, End,
//!   Ctrl+Home/End; with Shift it extends the selection) and Delete
//!   deletes. ES_READONLY refuses changes. Typing past EM_LIMITTEXT's limit
//!   (30,000 by default; 0 sets 65,535), past the width of a single-line
//!   control without ES_AUTOHSCROLL, or below the last line that fits in a
//!   multiline control without ES_AUTOVSCROLL, is refused with EN_MAXTEXT.
//!   WM_SETTEXT is not limited.
//! - **Notifications** go to the parent as WM_COMMAND(id, MAKELONG(hwnd,
//!   code)): EN_UPDATE before a change is shown then EN_CHANGE after it,
//!   for typing, EM_REPLACESEL, WM_SETTEXT, cut, paste, clear and undo;
//!   EN_SETFOCUS, EN_KILLFOCUS; EN_MAXTEXT; EN_ERRSPACE.
//! - **Undo** keeps the last change (a run of typing is one change):
//!   EM_UNDO / WM_UNDO put it back (and undoing again redoes it),
//!   EM_CANUNDO says whether there is one, EM_EMPTYUNDOBUFFER forgets it.
//!   EM_GETMODIFY is set by every change the user or EM_REPLACESEL makes,
//!   cleared by WM_SETTEXT and EM_SETMODIFY.
//! - **Clipboard**: WM_COPY puts the selection on the clipboard as
//!   CF_TEXT (not from an ES_PASSWORD control), WM_CUT also clears it,
//!   WM_PASTE replaces the selection with the clipboard's CF_TEXT.
//! - In a dialog box, a multiline control sends Tab to the dialog
//!   (WM_NEXTDLGCTL), Escape (WM_CLOSE, posted) and, without
//!   ES_WANTRETURN, Enter (the default button's WM_COMMAND) too.
//!
//! The text's block in its local heap is `buffer.rs`'s; measuring and
//! breaking lines (and EM_FMTLINES's soft breaks) is `lines.rs`'s; this
//! file holds the control: its state, editing, the keyboard, painting and
//! the window procedure.

use super::button::{DLGC_HASSETSEL, DLGC_WANTALLKEYS, DLGC_WANTARROWS, DLGC_WANTCHARS};
use super::wm::{
    self, WM_CLEAR, WM_COPY, WM_CUT, WM_GETDLGCODE, WM_GETFONT, WM_GETTEXT, WM_GETTEXTLENGTH,
    WM_KILLFOCUS, WM_LBUTTONDBLCLK, WM_NEXTDLGCTL, WM_PASTE, WM_SETFONT, WM_SETTEXT, WM_UNDO,
};
use super::{Control, notify};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::local::{LMEM_MOVEABLE, LMEM_ZEROINIT};
use crate::win16::strings::{lower, upper};
use crate::win16::user::{
    WM_CHAR, WM_CLOSE, WM_COMMAND, WM_KEYDOWN, WM_LBUTTONDOWN, WM_LBUTTONUP, WM_NCCREATE,
    WM_NCDESTROY, WM_PAINT, WM_SETFOCUS, event,
};

mod buffer;
mod lines;

use buffer::{make_buffer, store};
pub use buffer::{private_heap, text};
pub use lines::{Line, break_lines};
use lines::{add_soft, clamp_sel, format_rect, line_of, lines, measure, multiline, strip_soft};

pub const ES_LEFT: u32 = 0x0000;
pub const ES_CENTER: u32 = 0x0001;
pub const ES_RIGHT: u32 = 0x0002;
pub const ES_MULTILINE: u32 = 0x0004;
pub const ES_UPPERCASE: u32 = 0x0008;
pub const ES_LOWERCASE: u32 = 0x0010;
pub const ES_PASSWORD: u32 = 0x0020;
pub const ES_AUTOVSCROLL: u32 = 0x0040;
pub const ES_AUTOHSCROLL: u32 = 0x0080;
pub const ES_NOHIDESEL: u32 = 0x0100;
pub const ES_OEMCONVERT: u32 = 0x0400;
pub const ES_READONLY: u32 = 0x0800;
pub const ES_WANTRETURN: u32 = 0x1000;

pub const EM_GETSEL: u16 = 0x0400;
pub const EM_SETSEL: u16 = 0x0401;
pub const EM_GETRECT: u16 = 0x0402;
pub const EM_SETRECT: u16 = 0x0403;
pub const EM_SETRECTNP: u16 = 0x0404;
pub const EM_SCROLL: u16 = 0x0405;
pub const EM_LINESCROLL: u16 = 0x0406;
pub const EM_GETMODIFY: u16 = 0x0408;
pub const EM_SETMODIFY: u16 = 0x0409;
pub const EM_GETLINECOUNT: u16 = 0x040A;
pub const EM_LINEINDEX: u16 = 0x040B;
pub const EM_SETHANDLE: u16 = 0x040C;
pub const EM_GETHANDLE: u16 = 0x040D;
pub const EM_GETTHUMB: u16 = 0x040E;
pub const EM_LINELENGTH: u16 = 0x0411;
pub const EM_REPLACESEL: u16 = 0x0412;
pub const EM_SETFONT: u16 = 0x0413;
pub const EM_GETLINE: u16 = 0x0414;
pub const EM_LIMITTEXT: u16 = 0x0415;
pub const EM_CANUNDO: u16 = 0x0416;
pub const EM_UNDO: u16 = 0x0417;
pub const EM_FMTLINES: u16 = 0x0418;
pub const EM_LINEFROMCHAR: u16 = 0x0419;
pub const EM_SETWORDBREAK: u16 = 0x041A;
pub const EM_SETTABSTOPS: u16 = 0x041B;
pub const EM_SETPASSWORDCHAR: u16 = 0x041C;
pub const EM_EMPTYUNDOBUFFER: u16 = 0x041D;
pub const EM_GETFIRSTVISIBLELINE: u16 = 0x041E;
pub const EM_SETREADONLY: u16 = 0x041F;
pub const EM_SETWORDBREAKPROC: u16 = 0x0420;
pub const EM_GETWORDBREAKPROC: u16 = 0x0421;
pub const EM_GETPASSWORDCHAR: u16 = 0x0422;

pub const EN_SETFOCUS: u16 = 0x0100;
pub const EN_KILLFOCUS: u16 = 0x0200;
pub const EN_CHANGE: u16 = 0x0300;
pub const EN_UPDATE: u16 = 0x0400;
pub const EN_ERRSPACE: u16 = 0x0500;
pub const EN_MAXTEXT: u16 = 0x0501;
pub const EN_HSCROLL: u16 = 0x0601;
pub const EN_VSCROLL: u16 = 0x0602;

/// EM_LIMITTEXT's limit before any EM_LIMITTEXT (SDK, EM_LIMITTEXT).
pub const DEFAULT_LIMIT: u16 = 30000;
/// Default tab stops: every 32 dialog units.
const DEFAULT_TAB: u16 = 32;

const VK_BACK: u16 = 0x08;
const VK_TAB: u16 = 0x09;
const VK_RETURN: u16 = 0x0D;
const VK_SHIFT: u16 = 0x10;
const VK_CONTROL: u16 = 0x11;
const VK_ESCAPE: u16 = 0x1B;
const VK_END: u16 = 0x23;
const VK_HOME: u16 = 0x24;
const VK_LEFT: u16 = 0x25;
const VK_UP: u16 = 0x26;
const VK_RIGHT: u16 = 0x27;
const VK_DOWN: u16 = 0x28;
const VK_INSERT: u16 = 0x2D;
const VK_DELETE: u16 = 0x2E;
const DM_GETDEFID: u16 = 0x0400;

/// The last change, to undo.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Undo {
    /// Where the change happened.
    pub at: usize,
    /// How many bytes it put there.
    pub inserted: usize,
    /// What it took away.
    pub removed: Vec<u8>,
}

/// An edit control's state.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    /// The segment whose local heap holds the text.
    pub ds: u16,
    /// The text's moveable block.
    pub hbuf: u16,
    /// `ds` is a segment this control made (freed when it goes).
    pub own_segment: bool,
    /// The selection's ends: the anchor and the caret.
    pub anchor: usize,
    pub caret: usize,
    pub limit: u16,
    pub modified: bool,
    pub undo: Option<Undo>,
    pub password: u8,
    /// Tab stops in dialog units (EM_SETTABSTOPS).
    pub tabs: Vec<u16>,
    /// EM_SETRECT's formatting rectangle.
    pub format: Option<(i16, i16, i16, i16)>,
    /// The first visible line (multiline) or character (single-line).
    pub first: usize,
    pub font: u16,
    pub focus: bool,
    pub fmt_lines: bool,
    pub word_break_proc: u32,
    pub tracking: bool,
}

impl Edit {
    /// The selection, smaller end first.
    pub fn sel(&self) -> (usize, usize) {
        (self.anchor.min(self.caret), self.anchor.max(self.caret))
    }
}

fn state(env: &mut Env, hwnd: u16) -> &mut Edit {
    super::state_of(env, hwnd)
}

/// Set the whole text and selection, keeping EM_FMTLINES' wraps: false
/// when the heap has no room (EN_ERRSPACE sent).
fn set_all(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    t: Vec<u8>,
    anchor: usize,
    caret: usize,
) -> Result<bool, Stop> {
    let mut pos = [anchor, caret];
    let t = if state(env, hwnd).fmt_lines && multiline(env, hwnd) {
        let plain = strip_soft(&t, &mut pos);
        if wm::style(env, hwnd) & ES_AUTOHSCROLL == 0 {
            add_soft(env, hwnd, &plain, &mut pos)
        } else {
            plain
        }
    } else {
        t
    };
    if !store(env, uc, hwnd, &t) {
        notify(env, uc, hwnd, EN_ERRSPACE)?;
        return Ok(false);
    }
    let e = state(env, hwnd);
    e.anchor = pos[0].min(t.len());
    e.caret = pos[1].min(t.len());
    Ok(true)
}

/// Would `t` overflow what the control shows without scrolling (a
/// single-line control without ES_AUTOHSCROLL, a multiline one without
/// ES_AUTOVSCROLL)?
fn overflows(env: &mut Env, hwnd: u16, t: &[u8]) -> bool {
    let style = wm::style(env, hwnd);
    let r = format_rect(env, hwnd);
    let m = measure(env, hwnd);
    if style & ES_MULTILINE == 0 {
        return style & ES_AUTOHSCROLL == 0 && m.width(t) > i32::from(r.2) - i32::from(r.0);
    }
    if style & ES_AUTOVSCROLL != 0 {
        return false;
    }
    let wrap = (style & ES_AUTOHSCROLL == 0).then_some(i32::from(r.2) - i32::from(r.0));
    let n = break_lines(t, wrap, &|x, c| m.advance(x, c)).len() as i32;
    let h = m.font.height().max(1);
    n * h > (i32::from(r.3) - i32::from(r.1)).max(h)
}

/// Replace the selection with `s` as the user (or EM_REPLACESEL) does:
/// limited, undoable, EN_UPDATE then EN_CHANGE. `limited` applies
/// EM_LIMITTEXT and the control's size (typing, pasting).
fn replace_sel(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    s: &[u8],
    limited: bool,
    merge: bool,
) -> Result<bool, Stop> {
    let style = wm::style(env, hwnd);
    let t = text(env, uc, hwnd);
    clamp_sel(env, t.len(), hwnd);
    let (a, b) = state(env, hwnd).sel();
    let mut s: Vec<u8> = match style & (ES_UPPERCASE | ES_LOWERCASE) {
        ES_UPPERCASE => s.iter().map(|&c| upper(c)).collect(),
        ES_LOWERCASE => s.iter().map(|&c| lower(c)).collect(),
        _ => s.to_vec(),
    };
    if style & ES_MULTILINE == 0 {
        // A single line: the text stops at its first line break.
        if let Some(n) = s.iter().position(|&c| c == b'\r' || c == b'\n') {
            s.truncate(n);
        }
    }
    let mut maxed = false;
    if limited {
        let limit = usize::from(state(env, hwnd).limit);
        let room = limit.saturating_sub(t.len() - (b - a));
        if s.len() > room {
            s.truncate(room);
            maxed = true;
        }
        loop {
            let mut n = t[..a].to_vec();
            n.extend_from_slice(&s);
            n.extend_from_slice(&t[b..]);
            if s.is_empty() || !overflows(env, hwnd, &n) {
                break;
            }
            s.pop();
            maxed = true;
        }
        if s.is_empty() && maxed && a == b {
            notify(env, uc, hwnd, EN_MAXTEXT)?;
            return Ok(false);
        }
    }
    let mut n = t[..a].to_vec();
    n.extend_from_slice(&s);
    n.extend_from_slice(&t[b..]);
    let at = a + s.len();
    if !set_all(env, uc, hwnd, n, at, at)? {
        return Ok(false);
    }
    let e = state(env, hwnd);
    let removed = t[a..b].to_vec();
    e.undo = match e.undo.take() {
        Some(mut u) if merge && removed.is_empty() && u.at + u.inserted == a => {
            u.inserted += s.len();
            Some(u)
        }
        _ => Some(Undo {
            at: a,
            inserted: s.len(),
            removed,
        }),
    };
    e.modified = true;
    scroll_to_caret(env, uc, hwnd);
    notify(env, uc, hwnd, EN_UPDATE)?;
    wm::invalidate(env, uc, hwnd)?;
    notify(env, uc, hwnd, EN_CHANGE)?;
    if maxed {
        notify(env, uc, hwnd, EN_MAXTEXT)?;
    }
    Ok(true)
}

/// What the control shows of text `t`: an ES_PASSWORD control's
/// characters as its password character.
fn shown(env: &mut Env, hwnd: u16, t: &[u8]) -> Vec<u8> {
    let style = wm::style(env, hwnd);
    if style & ES_PASSWORD != 0 && style & ES_MULTILINE == 0 {
        let c = state(env, hwnd).password;
        vec![c; t.len()]
    } else {
        t.to_vec()
    }
}

/// Keep the caret in view (multiline: its line among the visible ones;
/// single-line with ES_AUTOHSCROLL: the first visible character), and put
/// the caret there.
fn scroll_to_caret(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) {
    if !multiline(env, hwnd) {
        let t = text(env, uc, hwnd);
        let t = shown(env, hwnd, &t);
        let r = format_rect(env, hwnd);
        let width = i32::from(r.2) - i32::from(r.0);
        let m = measure(env, hwnd);
        let e = state(env, hwnd);
        let caret = e.caret.min(t.len());
        if e.first > caret {
            e.first = caret;
        }
        while e.first < caret && m.width(&t[e.first..caret]) > width {
            e.first += 1;
        }
        let _ = place_caret(env, uc, hwnd);
        return;
    }
    let ls = lines(env, uc, hwnd);
    let caret = state(env, hwnd).caret;
    let line = line_of(&ls, caret);
    let font = state(env, hwnd).font;
    let h = super::font_of(env, font).height().max(1);
    let r = format_rect(env, hwnd);
    let rows = ((i32::from(r.3) - i32::from(r.1)) / h).max(1) as usize;
    let e = state(env, hwnd);
    if line < e.first {
        e.first = line;
    } else if line >= e.first + rows {
        e.first = line + 1 - rows;
    }
    let _ = place_caret(env, uc, hwnd);
}

/// Where the caret is in the client area (its top-left), and the line
/// height.
fn caret_point(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> (i16, i16, i16) {
    let t = text(env, uc, hwnd);
    let t = shown(env, hwnd, &t);
    let ls = lines(env, uc, hwnd);
    let m = measure(env, hwnd);
    let r = format_rect(env, hwnd);
    let h = m.font.height().max(1);
    let (caret, first) = {
        let e = state(env, hwnd);
        (e.caret.min(t.len()), e.first)
    };
    if !multiline(env, hwnd) {
        let first = first.min(caret);
        let x = i32::from(r.0) + line_offset(env, hwnd, m.width(&t), r) + m.width(&t[first..caret]);
        return (x.clamp(-32768, 32767) as i16, r.1, h as i16);
    }
    let li = line_of(&ls, caret);
    let l = ls[li];
    let x = i32::from(r.0)
        + line_offset(env, hwnd, m.width(&t[l.start..l.end]), r)
        + m.width(&t[l.start..caret.min(l.end).max(l.start)]);
    let y = i32::from(r.1) + (li as i32 - first as i32) * h;
    (
        x.clamp(-32768, 32767) as i16,
        y.clamp(-32768, 32767) as i16,
        h as i16,
    )
}

/// ES_CENTER and ES_RIGHT: how far in a line of width `w` starts.
fn line_offset(env: &Env, hwnd: u16, w: i32, r: (i16, i16, i16, i16)) -> i32 {
    let room = i32::from(r.2) - i32::from(r.0) - w;
    match wm::style(env, hwnd) & 3 {
        ES_CENTER if room > 0 => room / 2,
        ES_RIGHT if room > 0 => room,
        _ => 0,
    }
}

/// SetCaretPos at the caret, while the control has the focus (USER's
/// caret functions, where USER has them).
fn place_caret(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    if !state(env, hwnd).focus {
        return Ok(());
    }
    let (x, y, _) = caret_point(env, uc, hwnd);
    super::super::caret::set_caret_pos(env, uc, &[u32::from(x as u16), u32::from(y as u16)])?;
    Ok(())
}

/// Paint the control (paint.rs): its visible lines, the selection
/// inverted while it has the focus or with ES_NOHIDESEL.
fn paint_edit(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    use super::paint::{CTLCOLOR_EDIT, Painter, tabbed_text};
    let style = wm::style(env, hwnd);
    let p = Painter::new(env, uc, hwnd, hdc, CTLCOLOR_EDIT)?;
    let (cx, cy) = wm::client_size(env, hwnd);
    p.fill(env, uc, (0, 0, cx, cy), p.background)?;
    let e = state(env, hwnd).clone();
    let old = p.select(env, uc, e.font)?;
    let t = text(env, uc, hwnd);
    let t = shown(env, hwnd, &t);
    let ls = lines(env, uc, hwnd);
    let m = measure(env, hwnd);
    let r = format_rect(env, hwnd);
    let h = m.font.height().max(1);
    let color = if wm::is_enabled(env, hwnd) {
        super::paint::sys_color(env, super::paint::COLOR_WINDOWTEXT)
    } else {
        super::paint::sys_color(env, super::paint::COLOR_GRAYTEXT)
    };
    p.text_color(env, uc, color)?;
    p.bk_mode(env, uc, 1)?;
    let show_sel = e.focus || style & ES_NOHIDESEL != 0;
    let (sa, sb) = e.sel();
    let rows: Vec<(usize, Line, i32)> = if style & ES_MULTILINE != 0 {
        ls.iter()
            .enumerate()
            .skip(e.first)
            .map(|(i, l)| (i, *l, i32::from(r.1) + (i - e.first) as i32 * h))
            .take_while(|(_, _, y)| *y < i32::from(r.3))
            .collect()
    } else {
        vec![(0, ls[0], i32::from(r.1))]
    };
    for (_, l, y) in rows {
        let line = &t[l.start..l.end];
        let mut x = i32::from(r.0) + line_offset(env, hwnd, m.width(line), r);
        let from = if style & ES_MULTILINE == 0 {
            e.first.min(l.end)
        } else {
            l.start
        };
        if style & ES_MULTILINE == 0 && from > l.start {
            x = i32::from(r.0);
        }
        let y16 = y.clamp(-32768, 32767) as i16;
        tabbed_text(
            env,
            uc,
            &p,
            &m.font,
            x.clamp(-32768, 32767) as i16,
            y16,
            &t[from..l.end],
            &m.stops,
            m.every,
        )?;
        if show_sel && sa < sb {
            let a = sa.clamp(from, l.end);
            let b = sb.clamp(from, l.end);
            if a < b {
                let xa = x + m.width(&t[from..a]);
                let xb = x + m.width(&t[from..b]);
                let c = |v: i32| v.clamp(-32768, 32767) as i16;
                p.invert(env, uc, (c(xa), y16, c(xb), c(y + h)))?;
            }
        }
    }
    p.select(env, uc, old)?;
    Ok(())
}

/// EM_UNDO.
fn undo(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    let Some(u) = state(env, hwnd).undo.clone() else {
        return Ok(false);
    };
    let t = text(env, uc, hwnd);
    if u.at + u.inserted > t.len() {
        state(env, hwnd).undo = None;
        return Ok(false);
    }
    let inserted = t[u.at..u.at + u.inserted].to_vec();
    let mut n = t[..u.at].to_vec();
    n.extend_from_slice(&u.removed);
    n.extend_from_slice(&t[u.at + u.inserted..]);
    let end = u.at + u.removed.len();
    if !set_all(env, uc, hwnd, n, u.at, end)? {
        return Ok(false);
    }
    let e = state(env, hwnd);
    e.undo = Some(Undo {
        at: u.at,
        inserted: u.removed.len(),
        removed: inserted,
    });
    e.modified = true;
    notify(env, uc, hwnd, EN_UPDATE)?;
    wm::invalidate(env, uc, hwnd)?;
    notify(env, uc, hwnd, EN_CHANGE)?;
    Ok(true)
}

/// CF_TEXT.
const CF_TEXT: u32 = 1;

/// Put `t` on the clipboard as CF_TEXT (OpenClipboard, EmptyClipboard,
/// SetClipboardData, CloseClipboard).
fn clipboard_put(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, t: &[u8]) -> Result<(), Stop> {
    if super::super::clipboard::open_clipboard(env, uc, &[u32::from(hwnd)])? != 1 {
        return Ok(());
    }
    super::super::clipboard::empty_clipboard(env, uc, &[])?;
    let mut data = t.to_vec();
    data.push(0);
    let owner = crate::win16::global::task_owner(env, uc, 0x2000);
    let h = crate::win16::global::alloc_block(env, uc, 0x2002, data.len() as u32, &data, owner);
    if h != 0 {
        super::super::clipboard::set_clipboard_data(env, uc, &[CF_TEXT, u32::from(h)])?;
    }
    super::super::clipboard::close_clipboard(env, uc, &[])?;
    Ok(())
}

/// The clipboard's CF_TEXT, if there is any.
fn clipboard_get(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<Option<Vec<u8>>, Stop> {
    if super::super::clipboard::open_clipboard(env, uc, &[u32::from(hwnd)])? != 1 {
        return Ok(None);
    }
    let h = super::super::clipboard::get_clipboard_data(env, uc, &[CF_TEXT])? as u16;
    let t = if h != 0 {
        let sel = crate::win16::selector_of_handle(h);
        Some(wm::cstr(uc, u32::from(sel) << 16))
    } else {
        None
    };
    super::super::clipboard::close_clipboard(env, uc, &[])?;
    Ok(t)
}

/// The character index at client point (x, y).
fn char_at(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, x: i16, y: i16) -> usize {
    let t = text(env, uc, hwnd);
    let ls = lines(env, uc, hwnd);
    let m = measure(env, hwnd);
    let r = format_rect(env, hwnd);
    let h = m.font.height().max(1);
    let first = state(env, hwnd).first;
    let row = if multiline(env, hwnd) {
        (first as i32 + (i32::from(y) - i32::from(r.1)).max(0) / h) as usize
    } else {
        0
    };
    let l = ls[row.min(ls.len() - 1)];
    let mut px = i32::from(r.0);
    for (i, &c) in t.iter().enumerate().take(l.end).skip(l.start) {
        let w = m.advance(px - i32::from(r.0), c);
        if i32::from(x) < px + w / 2 {
            return i;
        }
        px += w;
    }
    l.end
}

/// The index one character before or after `i`, a CR LF counting as one.
fn step(t: &[u8], i: usize, forward: bool) -> usize {
    if forward {
        if t[i..].starts_with(b"\r\r\n") {
            i + 3
        } else if t[i..].starts_with(b"\r\n") {
            i + 2
        } else {
            (i + 1).min(t.len())
        }
    } else if i >= 3 && t[..i].ends_with(b"\r\r\n") {
        i - 3
    } else if i >= 2 && t[..i].ends_with(b"\r\n") {
        i - 2
    } else {
        i.saturating_sub(1)
    }
}

/// Move the caret to `to`, extending the selection when `extend`.
fn move_caret(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    to: usize,
    extend: bool,
) -> Result<(), Stop> {
    let e = state(env, hwnd);
    e.caret = to;
    if !extend {
        e.anchor = to;
    }
    scroll_to_caret(env, uc, hwnd);
    wm::invalidate(env, uc, hwnd)
}

/// Delete the selection, or with none the character before (`back`) or
/// after the caret.
fn delete(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, back: bool) -> Result<(), Stop> {
    let t = text(env, uc, hwnd);
    clamp_sel(env, t.len(), hwnd);
    let e = state(env, hwnd);
    let (a, b) = e.sel();
    if a == b {
        let c = e.caret;
        let other = step(&t, c, !back);
        if other == c {
            return Ok(());
        }
        e.anchor = other;
        e.caret = c;
    }
    replace_sel(env, uc, hwnd, b"", false, false).map(|_| ())
}

/// What the control does with a key (WM_KEYDOWN).
fn key_down(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, vk: u16) -> Result<(), Stop> {
    let shift = wm::key_down(env, uc, VK_SHIFT)?;
    let ctrl = wm::key_down(env, uc, VK_CONTROL)?;
    let t = text(env, uc, hwnd);
    clamp_sel(env, t.len(), hwnd);
    let caret = state(env, hwnd).caret;
    let ls = lines(env, uc, hwnd);
    let li = line_of(&ls, caret);
    let readonly = wm::style(env, hwnd) & ES_READONLY != 0;
    match vk {
        VK_LEFT => move_caret(env, uc, hwnd, step(&t, caret, false), shift),
        VK_RIGHT => move_caret(env, uc, hwnd, step(&t, caret, true), shift),
        VK_HOME if ctrl => move_caret(env, uc, hwnd, 0, shift),
        VK_END if ctrl => move_caret(env, uc, hwnd, t.len(), shift),
        VK_HOME => move_caret(env, uc, hwnd, ls[li].start, shift),
        VK_END => move_caret(env, uc, hwnd, ls[li].end, shift),
        VK_UP | VK_DOWN => {
            let target = if vk == VK_UP {
                li.checked_sub(1)
            } else {
                (li + 1 < ls.len()).then_some(li + 1)
            };
            let Some(to) = target else {
                return Ok(());
            };
            let m = measure(env, hwnd);
            let x = m.width(&t[ls[li].start..caret]);
            let l = ls[to];
            let mut px = 0;
            let mut at = l.end;
            for (i, &c) in t.iter().enumerate().take(l.end).skip(l.start) {
                let w = m.advance(px, c);
                if x < px + w / 2 {
                    at = i;
                    break;
                }
                px += w;
            }
            move_caret(env, uc, hwnd, at, shift)
        }
        VK_DELETE if !readonly => {
            if shift {
                wm::send(env, uc, hwnd, WM_CUT, 0, 0)?;
                Ok(())
            } else {
                delete(env, uc, hwnd, false)
            }
        }
        VK_INSERT if ctrl => wm::send(env, uc, hwnd, WM_COPY, 0, 0).map(|_| ()),
        VK_INSERT if shift && !readonly => wm::send(env, uc, hwnd, WM_PASTE, 0, 0).map(|_| ()),
        VK_TAB | VK_ESCAPE | VK_RETURN if multiline(env, hwnd) => {
            dialog_key(env, uc, hwnd, vk, shift)
        }
        _ => Ok(()),
    }
}

/// In a dialog box a multiline control passes on Tab (WM_NEXTDLGCTL),
/// Escape (WM_CLOSE) and, without ES_WANTRETURN, Enter (the default
/// button's command).
fn dialog_key(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, vk: u16, shift: bool) -> Result<(), Stop> {
    let parent = wm::parent(env, hwnd);
    if !crate::win16::user::dialog::is_dialog(env, parent) {
        return Ok(());
    }
    match vk {
        VK_TAB if !wm::key_down(env, uc, VK_CONTROL)? => {
            wm::send(env, uc, parent, WM_NEXTDLGCTL, u16::from(shift), 0)?;
        }
        VK_ESCAPE => {
            wm::post(env, uc, parent, WM_CLOSE, 0, 0);
        }
        VK_RETURN if wm::style(env, hwnd) & ES_WANTRETURN == 0 => {
            let def = wm::send(env, uc, parent, DM_GETDEFID, 0, 0)?;
            let id = if def >> 16 == 0x534B { def as u16 } else { 1 };
            let ctl = crate::win16::user::dialog::item(env, parent, id);
            wm::send(env, uc, parent, WM_COMMAND, id, u32::from(ctl))?;
        }
        _ => {}
    }
    Ok(())
}

/// Is this character one the control passes to its dialog instead of
/// typing it (see [`dialog_key`])?
fn passed_to_dialog(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, c: u16) -> Result<bool, Stop> {
    if !multiline(env, hwnd) || !crate::win16::user::dialog::is_dialog(env, wm::parent(env, hwnd)) {
        return Ok(false);
    }
    Ok(match c {
        VK_TAB => !wm::key_down(env, uc, VK_CONTROL)?,
        VK_ESCAPE => true,
        VK_RETURN => wm::style(env, hwnd) & ES_WANTRETURN == 0,
        _ => false,
    })
}

/// What the control does with a character (WM_CHAR).
fn char_typed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, c: u16) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    if passed_to_dialog(env, uc, hwnd, c)? {
        return Ok(());
    }
    let readonly = style & ES_READONLY != 0;
    match c {
        0x03 => {
            wm::send(env, uc, hwnd, WM_COPY, 0, 0)?;
        }
        0x16 if !readonly => {
            wm::send(env, uc, hwnd, WM_PASTE, 0, 0)?;
        }
        0x18 if !readonly => {
            wm::send(env, uc, hwnd, WM_CUT, 0, 0)?;
        }
        0x1A if !readonly => {
            undo(env, uc, hwnd)?;
        }
        _ if readonly => wm::beep(env, uc)?,
        VK_BACK => delete(env, uc, hwnd, true)?,
        VK_RETURN if style & ES_MULTILINE != 0 => {
            replace_sel(env, uc, hwnd, b"\r\n", true, false)?;
        }
        VK_TAB if style & ES_MULTILINE != 0 => {
            replace_sel(env, uc, hwnd, b"\t", true, true)?;
        }
        c if (0x20..=0xFF).contains(&c) && c != 0x7F => {
            let typed = replace_sel(env, uc, hwnd, &[c as u8], true, true)?;
            if !typed {
                wm::beep(env, uc)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The control's text as DefWindowProc would keep it, also written into
/// the window title (what the window manager shows).
fn set_text(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, t: &[u8]) -> Result<bool, Stop> {
    let t = if multiline(env, hwnd) {
        t.to_vec()
    } else {
        let n = t
            .iter()
            .position(|&c| c == b'\r' || c == b'\n')
            .unwrap_or(t.len());
        t[..n].to_vec()
    };
    if !set_all(env, uc, hwnd, t, 0, 0)? {
        return Ok(false);
    }
    let e = state(env, hwnd);
    e.undo = None;
    e.modified = false;
    e.first = 0;
    notify(env, uc, hwnd, EN_UPDATE)?;
    wm::invalidate(env, uc, hwnd)?;
    notify(env, uc, hwnd, EN_CHANGE)?;
    Ok(true)
}

/// USER.301 (BozosLiveHere: the edit control's procedure)(hWnd, msg,
/// wParam, lParam).
pub fn edit_wnd_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let style = wm::style(env, hwnd);
    let multi = style & ES_MULTILINE != 0;
    if msg != WM_NCCREATE && state(env, hwnd).hbuf == 0 {
        make_buffer(env, uc, hwnd)?;
    }
    match msg {
        WM_NCCREATE => {
            make_buffer(env, uc, hwnd)?;
            if state(env, hwnd).hbuf == 0 {
                return Ok(0);
            }
            // The window text from CREATESTRUCT.lpszName (+16h).
            let name = farptr::read_bytes(uc, farptr::add(lparam, 0x16), 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            let t = wm::cstr(uc, name);
            if !t.is_empty() {
                let mut t = t;
                if !multi {
                    let n = t
                        .iter()
                        .position(|&c| c == b'\r' || c == b'\n')
                        .unwrap_or(t.len());
                    t.truncate(n);
                }
                if !set_all(env, uc, hwnd, t, 0, 0)? {
                    return Ok(0);
                }
            }
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)?;
            Ok(1)
        }
        WM_SETTEXT => {
            let t = wm::cstr(uc, lparam);
            Ok(u32::from(set_text(env, uc, hwnd, &t)?))
        }
        WM_GETTEXT => {
            let t = text(env, uc, hwnd);
            Ok(
                farptr::write_cstr_truncated(uc, lparam, &t, usize::from(wparam)).unwrap_or(0)
                    as u32,
            )
        }
        WM_GETTEXTLENGTH => Ok(text(env, uc, hwnd).len() as u32),
        EM_GETSEL => {
            let len = text(env, uc, hwnd).len();
            clamp_sel(env, len, hwnd);
            let (s, e) = state(env, hwnd).sel();
            Ok((e as u32) << 16 | s as u32)
        }
        EM_SETSEL => {
            let len = text(env, uc, hwnd).len();
            let (s, e) = (lparam as u16, (lparam >> 16) as u16);
            let st = state(env, hwnd);
            if s == 0xFFFF {
                st.anchor = st.caret.min(len);
                st.caret = st.anchor;
            } else {
                st.anchor = usize::from(s).min(len);
                st.caret = usize::from(e).min(len);
            }
            if wparam == 0 {
                scroll_to_caret(env, uc, hwnd);
            }
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        EM_REPLACESEL => {
            let s = wm::cstr(uc, lparam);
            replace_sel(env, uc, hwnd, &s, false, false)?;
            Ok(0)
        }
        EM_GETMODIFY => Ok(u32::from(state(env, hwnd).modified)),
        EM_SETMODIFY => {
            state(env, hwnd).modified = wparam != 0;
            Ok(0)
        }
        EM_GETLINECOUNT => Ok(if multi {
            lines(env, uc, hwnd).len() as u32
        } else {
            1
        }),
        EM_LINEINDEX => {
            let ls = lines(env, uc, hwnd);
            let n = if wparam == 0xFFFF {
                let caret = state(env, hwnd).caret;
                line_of(&ls, caret)
            } else {
                usize::from(wparam)
            };
            Ok(ls.get(n).map_or(0xFFFF_FFFF, |l| l.start as u32))
        }
        EM_LINELENGTH => {
            let ls = lines(env, uc, hwnd);
            if wparam == 0xFFFF {
                let (s, e) = state(env, hwnd).sel();
                let (ls_, le) = (ls[line_of(&ls, s)], ls[line_of(&ls, e)]);
                return Ok(((s - ls_.start) + le.end.saturating_sub(e)) as u32);
            }
            let l = ls[line_of(&ls, usize::from(wparam))];
            Ok((l.end - l.start) as u32)
        }
        EM_LINEFROMCHAR => {
            if !multi {
                return Ok(0);
            }
            let ls = lines(env, uc, hwnd);
            let i = if wparam == 0xFFFF {
                state(env, hwnd).sel().0
            } else {
                usize::from(wparam)
            };
            Ok(line_of(&ls, i) as u32)
        }
        EM_GETLINE => {
            let t = text(env, uc, hwnd);
            let ls = lines(env, uc, hwnd);
            let n = if multi { usize::from(wparam) } else { 0 };
            let Some(l) = ls.get(n) else {
                return Ok(0);
            };
            let max = usize::from(farptr::read_u16(uc, lparam).unwrap_or(0));
            let s = &t[l.start..l.end];
            let s = &s[..s.len().min(max)];
            Ok(if wm::write(uc, lparam, s) || s.is_empty() {
                s.len() as u32
            } else {
                0
            })
        }
        EM_LIMITTEXT => {
            state(env, hwnd).limit = if wparam == 0 { 0xFFFF } else { wparam };
            Ok(0)
        }
        EM_CANUNDO => Ok(u32::from(state(env, hwnd).undo.is_some())),
        EM_UNDO | WM_UNDO => Ok(u32::from(undo(env, uc, hwnd)?)),
        EM_EMPTYUNDOBUFFER => {
            state(env, hwnd).undo = None;
            Ok(0)
        }
        EM_GETHANDLE => Ok(if multi {
            u32::from(state(env, hwnd).hbuf)
        } else {
            0
        }),
        EM_SETHANDLE => {
            if multi && wparam != 0 {
                let e = state(env, hwnd);
                e.hbuf = wparam;
                e.undo = None;
                e.modified = false;
                e.anchor = 0;
                e.caret = 0;
                e.first = 0;
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        EM_FMTLINES => {
            if multi {
                state(env, hwnd).fmt_lines = wparam != 0;
                let t = text(env, uc, hwnd);
                let (a, c) = {
                    let e = state(env, hwnd);
                    (e.anchor, e.caret)
                };
                if wparam == 0 {
                    let mut pos = [a, c];
                    let plain = strip_soft(&t, &mut pos);
                    set_all(env, uc, hwnd, plain, pos[0], pos[1])?;
                } else {
                    set_all(env, uc, hwnd, t, a, c)?;
                }
            }
            Ok(u32::from(wparam != 0))
        }
        EM_SETTABSTOPS => {
            if !multi {
                return Ok(0);
            }
            let stops = match wparam {
                0 => Vec::new(),
                n => farptr::read_bytes(uc, lparam, usize::from(n.min(1024)) * 2)
                    .map(|b| {
                        b.chunks(2)
                            .map(|c| u16::from_le_bytes([c[0], c[1]]))
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            state(env, hwnd).tabs = stops;
            Ok(1)
        }
        EM_SETPASSWORDCHAR => {
            if multi {
                return Ok(0);
            }
            state(env, hwnd).password = wparam as u8;
            let s = if wparam != 0 {
                style | ES_PASSWORD
            } else {
                style & !ES_PASSWORD
            };
            wm::set_style(env, hwnd, s);
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        EM_GETPASSWORDCHAR => Ok(if style & ES_PASSWORD != 0 {
            u32::from(state(env, hwnd).password)
        } else {
            0
        }),
        EM_SETREADONLY => {
            let s = if wparam != 0 {
                style | ES_READONLY
            } else {
                style & !ES_READONLY
            };
            wm::set_style(env, hwnd, s);
            Ok(1)
        }
        EM_GETFIRSTVISIBLELINE => Ok(state(env, hwnd).first as u32),
        EM_GETRECT => {
            let r = format_rect(env, hwnd);
            let mut b = [0u8; 8];
            for (i, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
                b[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
            }
            wm::write(uc, lparam, &b);
            Ok(0)
        }
        EM_SETRECT | EM_SETRECTNP => {
            if let Some(b) = farptr::read_bytes(uc, lparam, 8) {
                let w = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
                state(env, hwnd).format = Some((w(0), w(2), w(4), w(6)));
                if msg == EM_SETRECT {
                    wm::invalidate(env, uc, hwnd)?;
                }
            }
            Ok(0)
        }
        EM_SCROLL | EM_LINESCROLL => {
            if !multi {
                return Ok(0);
            }
            let n = lines(env, uc, hwnd).len() as i32;
            let font = state(env, hwnd).font;
            let h = super::font_of(env, font).height().max(1);
            let r = format_rect(env, hwnd);
            let page = ((i32::from(r.3) - i32::from(r.1)) / h).max(1);
            let first = state(env, hwnd).first as i32;
            let delta = if msg == EM_LINESCROLL {
                i32::from(lparam as u16 as i16)
            } else {
                match wparam {
                    0 => -1,
                    1 => 1,
                    2 => -page,
                    3 => page,
                    _ => return Ok(0),
                }
            };
            let to = (first + delta).clamp(0, (n - 1).max(0));
            state(env, hwnd).first = to as usize;
            wm::invalidate(env, uc, hwnd)?;
            Ok(if msg == EM_SCROLL {
                0x0001_0000 | ((to - first) as u16 as u32)
            } else {
                1
            })
        }
        EM_GETTHUMB => Ok(0),
        EM_SETFONT => Ok(0),
        EM_SETWORDBREAK | EM_SETWORDBREAKPROC => {
            state(env, hwnd).word_break_proc = lparam;
            Ok(0)
        }
        EM_GETWORDBREAKPROC => Ok(state(env, hwnd).word_break_proc),
        WM_CUT | WM_COPY => {
            let t = text(env, uc, hwnd);
            clamp_sel(env, t.len(), hwnd);
            let (s, e) = state(env, hwnd).sel();
            if s == e || style & ES_PASSWORD != 0 {
                return Ok(0);
            }
            clipboard_put(env, uc, hwnd, &t[s..e])?;
            if msg == WM_CUT && style & ES_READONLY == 0 {
                replace_sel(env, uc, hwnd, b"", false, false)?;
            }
            Ok(0)
        }
        WM_CLEAR => {
            if style & ES_READONLY == 0 {
                let (s, e) = state(env, hwnd).sel();
                if s != e {
                    replace_sel(env, uc, hwnd, b"", false, false)?;
                }
            }
            Ok(0)
        }
        WM_PASTE => {
            if style & ES_READONLY == 0
                && let Some(t) = clipboard_get(env, uc, hwnd)?
            {
                replace_sel(env, uc, hwnd, &t, true, false)?;
            }
            Ok(0)
        }
        WM_CHAR => {
            char_typed(env, uc, hwnd, wparam)?;
            Ok(0)
        }
        WM_KEYDOWN => {
            // In a combo box, the arrows and F4 are the combo box's.
            let parent = wm::parent(env, hwnd);
            if matches!(wparam, VK_UP | VK_DOWN | 0x73)
                && wm::window(env, parent).is_some_and(|w| w.class.eq_ignore_ascii_case("COMBOBOX"))
            {
                return wm::send(env, uc, parent, WM_KEYDOWN, wparam, lparam);
            }
            key_down(env, uc, hwnd, wparam)?;
            Ok(0)
        }
        wm::WM_VSCROLL if multi => {
            // The control's own scroll bar: as EM_SCROLL.
            wm::send(env, uc, hwnd, EM_SCROLL, wparam, 0)?;
            Ok(0)
        }
        WM_LBUTTONDOWN | WM_LBUTTONDBLCLK => {
            if !state(env, hwnd).focus {
                wm::set_focus(env, uc, hwnd)?;
            }
            let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
            let i = char_at(env, uc, hwnd, x, y);
            if msg == WM_LBUTTONDBLCLK {
                let t = text(env, uc, hwnd);
                let is_word = |c: u8| !matches!(c, b' ' | b'\t' | b'\r' | b'\n');
                let mut s = i.min(t.len());
                while s > 0 && is_word(t[s - 1]) {
                    s -= 1;
                }
                let mut e = i.min(t.len());
                while e < t.len() && is_word(t[e]) {
                    e += 1;
                }
                let st = state(env, hwnd);
                st.anchor = s;
                st.caret = e;
            } else {
                let shift = wm::key_down(env, uc, VK_SHIFT)?;
                move_caret(env, uc, hwnd, i, shift)?;
                state(env, hwnd).tracking = true;
            }
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_LBUTTONUP => {
            state(env, hwnd).tracking = false;
            Ok(0)
        }
        WM_GETDLGCODE => {
            let mut code = DLGC_WANTCHARS | DLGC_HASSETSEL | DLGC_WANTARROWS;
            if multi {
                code |= DLGC_WANTALLKEYS;
            }
            Ok(code)
        }
        WM_SETFOCUS => {
            state(env, hwnd).focus = true;
            // CreateCaret (a one-pixel line as high as the font), SetCaretPos,
            // ShowCaret.
            let (_, _, h) = caret_point(env, uc, hwnd);
            super::super::caret::create_caret(
                env,
                uc,
                &[u32::from(hwnd), 0, 1, u32::from(h as u16)],
            )?;
            place_caret(env, uc, hwnd)?;
            super::super::caret::show_caret(env, uc, &[u32::from(hwnd)])?;
            wm::invalidate(env, uc, hwnd)?;
            notify(env, uc, hwnd, EN_SETFOCUS)?;
            Ok(0)
        }
        WM_KILLFOCUS => {
            state(env, hwnd).focus = false;
            super::super::caret::destroy_caret(env, uc, &[])?;
            wm::invalidate(env, uc, hwnd)?;
            notify(env, uc, hwnd, EN_KILLFOCUS)?;
            Ok(0)
        }
        WM_SETFONT => {
            state(env, hwnd).font = wparam;
            if lparam & 0xFFFF != 0 {
                wm::invalidate(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_GETFONT => Ok(u32::from(state(env, hwnd).font)),
        WM_PAINT => {
            wm::paint(env, uc, hwnd, |env, uc, hdc| paint_edit(env, uc, hwnd, hdc))?;
            Ok(0)
        }
        WM_NCDESTROY => {
            if let Some(Control::Edit(e)) = super::forget(env, hwnd)
                && e.own_segment
            {
                env.win16.local_heaps.heaps.remove(&e.ds);
                crate::win16::global::free_block(env, uc, e.ds);
            }
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character 8 pixels wide, tabs every 32.
    fn fixed(x: i32, c: u8) -> i32 {
        if c == b'\t' { (x / 32 + 1) * 32 - x } else { 8 }
    }

    fn texts(t: &[u8], ls: &[Line]) -> Vec<String> {
        ls.iter()
            .map(|l| String::from_utf8_lossy(&t[l.start..l.end]).into_owned())
            .collect()
    }

    #[test]
    fn lines_end_at_cr_lf_and_wrap_after_the_last_blank_that_fits() {
        let t = b"one two three\r\nfour";
        let ls = break_lines(t, None, &fixed);
        assert_eq!(texts(t, &ls), ["one two three", "four"]);
        assert_eq!(ls[0].next, 15);
        // 10 characters fit in 80 pixels: "one two " then "three".
        let ls = break_lines(t, Some(80), &fixed);
        assert_eq!(texts(t, &ls), ["one two ", "three", "four"]);
        assert_eq!((ls[1].start, ls[1].end, ls[1].next), (8, 13, 15));
        // A word wider than the line is cut.
        let t = b"abcdefghijkl";
        assert_eq!(
            texts(t, &break_lines(t, Some(40), &fixed)),
            ["abcde", "fghij", "kl"]
        );
        // Blanks overhang the edge instead of starting the next line.
        let t = b"abcd      efg";
        assert_eq!(
            texts(t, &break_lines(t, Some(40), &fixed)),
            ["abcd      ", "efg"]
        );
        // Empty text, and a text ending with a break, have an empty last line.
        assert_eq!(break_lines(b"", None, &fixed).len(), 1);
        assert_eq!(
            texts(b"a\r\n", &break_lines(b"a\r\n", None, &fixed)),
            ["a", ""]
        );
        // EM_FMTLINES' soft break.
        let t = b"one \r\r\ntwo";
        let ls = break_lines(t, None, &fixed);
        assert_eq!(texts(t, &ls), ["one ", "two"]);
        assert_eq!(ls[0].next, 7);
    }

    #[test]
    fn soft_breaks_come_out_with_positions_mapped() {
        let mut pos = [9usize, 2];
        let plain = strip_soft(b"one \r\r\ntwo", &mut pos);
        assert_eq!(plain, b"one two");
        assert_eq!(pos, [6, 2]);
    }

    #[test]
    fn stepping_treats_cr_lf_as_one() {
        let t = b"a\r\nb";
        assert_eq!(step(t, 1, true), 3);
        assert_eq!(step(t, 3, false), 1);
        assert_eq!(step(t, 0, false), 0);
        assert_eq!(step(t, 4, true), 4);
    }
}
