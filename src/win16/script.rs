//! The `--messages FILE` script: input for headless Win16 programs (keys,
//! characters, mouse clicks, menu commands, timer ticks, WM_CLOSE) and the
//! answers of message boxes and dialog boxes.
//!
//! **Format.** Plain text, one command per line; blank lines and lines
//! whose first non-blank character is `#` are ignored. Words are separated
//! by blanks; verbs and names are case-insensitive. Numbers are decimal or
//! `0x` hexadecimal.
//!
//! | line | what the program gets |
//! | --- | --- |
//! | `key NAME` | WM_KEYDOWN then WM_KEYUP for one key: a letter `A`..`Z`, a digit `0`..`9`, `enter`, `esc`, `space`, `tab`, `backspace`, `left`, `right`, `up`, `down`, `home`, `end`, `pgup`, `pgdn`, `insert`, `delete`, `shift`, `ctrl`, `alt`, `f1`..`f12`; TranslateMessage makes the WM_CHAR of a key that types one (a letter types its lower case). `ctrl+`, `shift+` and `alt+` before the name (in any combination: `ctrl+shift+z`) hold those keys around it: their key-down messages come first and their key-up messages last. Alt (without Ctrl) makes the messages WM_SYSKEYDOWN / WM_SYSKEYUP with lParam bit 29, as does F10; `key alt` alone is WM_SYSKEYDOWN and WM_SYSKEYUP of VK_MENU, which enters the menu bar |
//! | `char C` | WM_CHAR for one character: `C` itself when it is one character, else a number 0..255 |
//! | `click X Y [left\|right]` | WM_LBUTTONDOWN then WM_LBUTTONUP (or the R pair) at client point (X, Y): lParam = MAKELONG(X, Y), wParam MK_LBUTTON (MK_RBUTTON) on the down message and 0 on the up |
//! | `command ID` | WM_INITMENU (sent, wParam = the window's menu) then WM_COMMAND posted with wParam = ID, lParam = 0, as a menu choice |
//! | `scroll vert\|horz CODE [N]` | WM_VSCROLL (WM_HSCROLL) to the main window as its scroll bar sends them: the SB_ code (`lineUp`, `lineDown`, `pageUp`, `pageDown`, `top`, `bottom`; `thumb N` sends SB_THUMBTRACK then SB_THUMBPOSITION with position N, `track N` SB_THUMBTRACK), then SB_ENDSCROLL |
//! | `menu ITEM...` | a mouse choice from the menu bar: ITEM is an item's text (a word, or `"quoted text"`), matched without regard to case and with or without its `&` (compared with the `&` when ITEM has one), the part after a tab left out; or `#N`, the item at position N. The first ITEM is on the bar, each next one in the pop-up the previous opened. WM_NCLBUTTONDOWN (HTMENU) is posted at the first item; DefWindowProc's menu loop then sends WM_INITMENU, WM_MENUSELECT, WM_INITMENUPOPUP ... and posts the chosen item's WM_COMMAND (user/menu/track.rs) |
//! | `sysmenu ITEM...` | the same from the system menu (a click on its box, HTSYSMENU): `sysmenu close` chooses Close and the window gets WM_SYSCOMMAND SC_CLOSE |
//! | `popup ITEM...` or `popup cancel` | the answer of the next TrackPopupMenu: the items chosen in the pop-up, or none (the menu is cancelled, as it is without a `popup` line) |
//! | `timer [N]` | N (default 1, at most 1000) WM_TIMER ticks of the task's timers, soonest due first, one per empty queue |
//! | `close` | WM_CLOSE posted to the main window |
//! | `msgbox ANSWER` | the answer of the next MessageBox (`ok` 1, `cancel` 2, `abort` 3, `retry` 4, `ignore` 5, `yes` 6, `no` 7, or a number) |
//! | `dialog ANSWER` | the next DialogBox, when its modal loop finds the queue empty and no input line comes before this one: the control with that id (the same names, or a number) is clicked (WM_COMMAND(id, MAKELONG(hwnd, BN_CLICKED)) to the dialog), or with no such control the dialog gets WM_COMMAND(id, 0); the next common dialog (commdlg/): `ok` chooses, anything else cancels (Find and Replace are modeless dialogs: `type` and `click-id` lines reach them) |
//! | `type ID TEXT` | the control with that id gets the focus as Tab gives it (an edit control's text selected) and WM_CHAR for each character of TEXT (the rest of the line; `"..."` keeps leading and trailing blanks) |
//! | `click-id ID` | WM_LBUTTONDOWN then WM_LBUTTONUP at the centre of the control with that id |
//! | `select ID ITEM` | the list box or combo box with that id chooses item ITEM (an index, or the item's text, `"..."` when it has blanks) as a click on it would |
//! | `file NAME` | the next file dialog (GetOpenFileName, GetSaveFileName) chooses the file NAME (a DOS path; the rest of the line, blanks included): a `dialog ok` that carries a name |
//!
//! Menu paths hold at most [`MAX_PATH`] items of at most 255 bytes.
//!
//! Keys have the Windows 3.1 virtual-key codes and lParam of a US keyboard:
//! repeat count 1, the set-1 scan code in bits 16..23, bit 24 for the
//! extended keys (arrows, Home, End, PgUp, PgDn, Insert, Delete), and bits
//! 30 and 31 set on WM_KEYUP. `char` uses the scan code of the key that
//! types the character when there is one.
//!
//! **Which task.** A line may start with `@MODULE` (the module name, as in
//! the NE file): it is for the first task of that module that asks for
//! messages or opens a box. Lines without it are for the first task loaded.
//!
//! **When.** The input lines of a task are delivered in order, one line
//! each time its queue runs empty (GetMessage, PeekMessage), to its main
//! window (see user/message.rs for the rest of the headless session: timers, the
//! default WM_CLOSE after the script). `msgbox`, `dialog` and `popup`
//! lines are taken when a box or a pop-up menu opens: the first pending
//! line of that kind. While a menu is open (Alt, F10, Alt+letter), its
//! loop takes the `key` and `char` lines that follow as its own input.
//!
//! A malformed file is refused before the program runs, with the line
//! number and what is wrong (the CLI names the file and exits with
//! EXIT_LOAD).

use std::fmt;

/// The most bytes a script file may have.
pub const MAX_BYTES: usize = 1 << 20;
/// The most script lines (commands) a file may have.
pub const MAX_LINES: usize = 10_000;
/// The most ticks one `timer N` line may ask for.
pub const MAX_TICKS: u32 = 1000;
/// The most items a `menu`, `sysmenu` or `popup` path may have.
pub const MAX_PATH: usize = 16;
/// The most characters one `type` line may type.
pub const MAX_TYPED: usize = 4096;

/// A key: virtual-key code, scan code, extended, the character it types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub vk: u16,
    pub scan: u8,
    pub extended: bool,
    pub ch: Option<u8>,
    /// Held with it: [`MOD_SHIFT`], [`MOD_CTRL`], [`MOD_ALT`].
    pub mods: u8,
}

/// Modifier keys held with a scripted key (`shift+`, `ctrl+`, `alt+`).
pub const MOD_SHIFT: u8 = 1;
pub const MOD_CTRL: u8 = 2;
pub const MOD_ALT: u8 = 4;

impl Key {
    /// lParam of WM_KEYDOWN and WM_CHAR: repeat 1, scan code, extended.
    pub fn lparam_down(self) -> u32 {
        1 | u32::from(self.scan) << 16 | u32::from(self.extended) << 24
    }
    /// lParam of WM_KEYUP: also the previous-state and transition bits.
    pub fn lparam_up(self) -> u32 {
        self.lparam_down() | 0xC000_0000
    }
}

/// Scan codes of the letters A..Z (set 1, US layout).
const LETTER_SCANS: [u8; 26] = [
    0x1E, 0x30, 0x2E, 0x20, 0x12, 0x21, 0x22, 0x23, 0x17, 0x24, 0x25, 0x26, 0x32, 0x31, 0x18, 0x19,
    0x10, 0x13, 0x1F, 0x14, 0x16, 0x2F, 0x11, 0x2D, 0x15, 0x2C,
];

/// Named keys: name, VK_ code, scan code, extended, character.
const NAMED_KEYS: &[(&str, u16, u8, bool, Option<u8>)] = &[
    ("backspace", 0x08, 0x0E, false, Some(0x08)),
    ("tab", 0x09, 0x0F, false, Some(0x09)),
    ("enter", 0x0D, 0x1C, false, Some(0x0D)),
    ("return", 0x0D, 0x1C, false, Some(0x0D)),
    ("shift", 0x10, 0x2A, false, None),
    ("ctrl", 0x11, 0x1D, false, None),
    ("alt", 0x12, 0x38, false, None),
    ("esc", 0x1B, 0x01, false, Some(0x1B)),
    ("escape", 0x1B, 0x01, false, Some(0x1B)),
    ("space", 0x20, 0x39, false, Some(b' ')),
    ("pgup", 0x21, 0x49, true, None),
    ("pgdn", 0x22, 0x51, true, None),
    ("end", 0x23, 0x4F, true, None),
    ("home", 0x24, 0x47, true, None),
    ("left", 0x25, 0x4B, true, None),
    ("up", 0x26, 0x48, true, None),
    ("right", 0x27, 0x4D, true, None),
    ("down", 0x28, 0x50, true, None),
    ("insert", 0x2D, 0x52, true, None),
    ("delete", 0x2E, 0x53, true, None),
];

/// The key called `name` (module doc), with any `ctrl+`, `shift+` and
/// `alt+` before it, if there is one.
pub fn key_by_name(name: &str) -> Option<Key> {
    let mut lower = name.to_ascii_lowercase();
    let mut mods = 0;
    loop {
        let m = [
            ("ctrl+", MOD_CTRL),
            ("shift+", MOD_SHIFT),
            ("alt+", MOD_ALT),
        ]
        .into_iter()
        .find(|(p, _)| lower.starts_with(p) && lower.len() > p.len());
        match m {
            Some((p, bit)) if mods & bit == 0 => {
                mods |= bit;
                lower = lower[p.len()..].to_string();
            }
            Some(_) => return None,
            None => break,
        }
    }
    plain_key(&lower).map(|k| Key { mods, ..k })
}

/// The key called `lower` (lower case, no modifiers).
fn plain_key(lower: &str) -> Option<Key> {
    if let [c] = lower.as_bytes() {
        return match c {
            b'a'..=b'z' => Some(Key {
                vk: u16::from(c.to_ascii_uppercase()),
                scan: LETTER_SCANS[usize::from(c - b'a')],
                extended: false,
                ch: Some(*c),
                mods: 0,
            }),
            b'0'..=b'9' => Some(Key {
                vk: u16::from(*c),
                // 1..9 are 02..0A, 0 is 0B.
                scan: if *c == b'0' { 0x0B } else { c - b'1' + 2 },
                extended: false,
                ch: Some(*c),
                mods: 0,
            }),
            _ => None,
        };
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok())
        && (1..=12).contains(&n)
    {
        // F1..F10 are scan codes 3B..44, F11 and F12 are 57 and 58.
        let scan = if n <= 10 { 0x3A + n } else { 0x4C + n };
        return Some(Key {
            vk: 0x6F + u16::from(n),
            scan,
            extended: false,
            ch: None,
            mods: 0,
        });
    }
    NAMED_KEYS
        .iter()
        .find(|k| k.0 == lower)
        .map(|&(_, vk, scan, extended, ch)| Key {
            vk,
            scan,
            extended,
            ch,
            mods: 0,
        })
}

/// The scan code of the key that types character `c` unshifted, or 0.
pub fn scan_of_char(c: u8) -> u8 {
    let c = c.to_ascii_lowercase();
    let name = [c];
    let name = std::str::from_utf8(&name).unwrap_or("");
    let named = match c {
        b' ' => Some("space"),
        0x0D => Some("enter"),
        0x1B => Some("esc"),
        0x08 => Some("backspace"),
        0x09 => Some("tab"),
        _ => None,
    };
    key_by_name(named.unwrap_or(name)).map_or(0, |k| k.scan)
}

/// What one script line does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Key(Key),
    Char(u8),
    Click {
        x: i16,
        y: i16,
        right: bool,
    },
    Command(u16),
    /// WM_VSCROLL (`vertical`) or WM_HSCROLL with an SB_ code, and the
    /// position for SB_THUMBPOSITION and SB_THUMBTRACK.
    Scroll {
        vertical: bool,
        code: u16,
        pos: u16,
    },
    /// Ticks still to deliver.
    Timer(u32),
    Close,
    MsgBox(u16),
    Dialog(u16),
    /// A choice from the menu bar: the item path is the line's `args`.
    Menu,
    /// A choice from the system menu (path in `args`).
    SysMenu,
    /// TrackPopupMenu's answer (path in `args`; none: cancel).
    Popup,
    /// `type ID TEXT`: the text is the line's first `args`.
    Type(u16),
    /// `click-id ID`.
    ClickId(u16),
    /// `select ID ITEM`: the item by index, or (None) by the text in the
    /// line's first `args`.
    Select(u16, Option<u16>),
}

impl Action {
    /// Is this an answer for a box or a pop-up menu (taken when it
    /// opens), not input?
    pub fn is_answer(&self) -> bool {
        matches!(self, Action::MsgBox(_) | Action::Dialog(_) | Action::Popup)
    }
}

impl fmt::Display for Action {
    /// The line as the events show it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Key(k) => {
                f.write_str("key ")?;
                for (bit, name) in [
                    (MOD_CTRL, "ctrl+"),
                    (MOD_SHIFT, "shift+"),
                    (MOD_ALT, "alt+"),
                ] {
                    if k.mods & bit != 0 {
                        f.write_str(name)?;
                    }
                }
                write!(f, "VK {:02X}", k.vk)
            }
            Action::Char(c) => write!(f, "char {c:02X}"),
            Action::Click { x, y, right } => {
                let b = if right { "right" } else { "left" };
                write!(f, "click {x} {y} {b}")
            }
            Action::Command(id) => write!(f, "command {id}"),
            Action::Scroll {
                vertical,
                code,
                pos,
            } => {
                let bar = if vertical { "vert" } else { "horz" };
                let name = SCROLL_CODES
                    .iter()
                    .find(|c| c.1 == code)
                    .map_or("?", |c| c.0);
                write!(f, "scroll {bar} {name} {pos}")
            }
            Action::Timer(n) => write!(f, "timer {n}"),
            Action::Close => f.write_str("close"),
            Action::MsgBox(a) => write!(f, "msgbox {a}"),
            Action::Dialog(a) => write!(f, "dialog {a}"),
            Action::Menu => f.write_str("menu"),
            Action::SysMenu => f.write_str("sysmenu"),
            Action::Popup => f.write_str("popup"),
            Action::Type(id) => write!(f, "type {id}"),
            Action::ClickId(id) => write!(f, "click-id {id}"),
            Action::Select(id, Some(i)) => write!(f, "select {id} {i}"),
            Action::Select(id, None) => write!(f, "select {id} (by text)"),
        }
    }
}

/// One script line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    /// `@MODULE`, upper case; None: the first task.
    pub module: Option<String>,
    pub action: Action,
    /// The item path of a `menu`, `sysmenu` or `popup` line.
    pub args: Vec<String>,
}

/// A parsed script.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    pub lines: Vec<Line>,
    /// The names of `file` lines by line number: each such line is also a
    /// `dialog ok` line in `lines`.
    pub files: std::collections::BTreeMap<usize, String>,
}

/// What is wrong with a script, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// 1-based line number; 0 for the whole file.
    pub line: usize,
    pub what: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.what)
        } else {
            write!(f, "line {}: {}", self.line, self.what)
        }
    }
}

impl std::error::Error for ScriptError {}

/// A decimal or `0x` hexadecimal number.
fn number(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) if !h.is_empty() && h.len() <= 8 => i64::from_str_radix(h, 16).ok()?,
        Some(_) => return None,
        None if !digits.is_empty() && digits.len() <= 10 => digits.parse::<i64>().ok()?,
        None => return None,
    };
    Some(if neg { -v } else { v })
}

/// A number in `lo..=hi`, or an error naming `what`.
fn ranged(s: &str, lo: i64, hi: i64, what: &str) -> Result<i64, String> {
    match number(s) {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        Some(v) => Err(format!("{what} {v} is out of range {lo}..{hi}")),
        None => Err(format!(
            "{what} {} is not a number",
            crate::escape::quoted(s)
        )),
    }
}

/// A box answer: a button name or a number 0..65535.
fn answer(s: &str) -> Result<u16, String> {
    let named = match s.to_ascii_lowercase().as_str() {
        "ok" => Some(1),
        "cancel" => Some(2),
        "abort" => Some(3),
        "retry" => Some(4),
        "ignore" => Some(5),
        "yes" => Some(6),
        "no" => Some(7),
        _ => None,
    };
    match named {
        Some(v) => Ok(v),
        None => ranged(s, 0, 0xFFFF, "the answer")
            .map(|v| v as u16)
            .map_err(|_| {
                format!(
                    "answer {} is not ok, cancel, abort, retry, ignore, yes, no or a number 0..65535", crate::escape::quoted(s)
                )
            }),
    }
}

/// Parse one non-comment line's words (after any `@MODULE`).
fn parse_action(words: &[&str]) -> Result<Action, String> {
    let Some((verb, args)) = words.split_first() else {
        return Err("a module prefix without a command".into());
    };
    let verb = verb.to_ascii_lowercase();
    let want = |n: std::ops::RangeInclusive<usize>, usage: &str| {
        if n.contains(&args.len()) {
            Ok(())
        } else {
            Err(format!("usage: {usage}"))
        }
    };
    match verb.as_str() {
        "key" => {
            want(1..=1, "key NAME")?;
            key_by_name(args[0])
                .map(Action::Key)
                .ok_or_else(|| format!("unknown key {}", crate::escape::quoted(args[0])))
        }
        "char" => {
            want(1..=1, "char C (one character, or a number 0..255)")?;
            match args[0].as_bytes() {
                [c] => Ok(Action::Char(*c)),
                _ => ranged(args[0], 0, 255, "the character").map(|v| Action::Char(v as u8)),
            }
        }
        "click" => {
            want(2..=3, "click X Y [left|right]")?;
            let x = ranged(args[0], -32768, 32767, "X")? as i16;
            let y = ranged(args[1], -32768, 32767, "Y")? as i16;
            let right = match args.get(2).map(|b| b.to_ascii_lowercase()) {
                None => false,
                Some(b) if b == "left" => false,
                Some(b) if b == "right" => true,
                Some(b) => {
                    return Err(format!(
                        "button {} is not left or right",
                        crate::escape::quoted(&b)
                    ));
                }
            };
            Ok(Action::Click { x, y, right })
        }
        "command" => {
            want(1..=1, "command ID")?;
            Ok(Action::Command(
                ranged(args[0], 0, 0xFFFF, "the command id")? as u16,
            ))
        }
        "timer" => {
            want(0..=1, "timer [N]")?;
            let n = match args.first() {
                Some(a) => ranged(a, 1, i64::from(MAX_TICKS), "the tick count")? as u32,
                None => 1,
            };
            Ok(Action::Timer(n))
        }
        "scroll" => {
            want(
                2..=3,
                "scroll vert|horz lineUp|lineDown|pageUp|pageDown|top|bottom|thumb N|track N",
            )?;
            let vertical = match args[0].to_ascii_lowercase().as_str() {
                "vert" | "v" => true,
                "horz" | "h" => false,
                b => return Err(format!("scroll bar {b:?} is not vert or horz")),
            };
            let name = args[1].to_ascii_lowercase();
            let Some(&(_, code)) = SCROLL_CODES
                .iter()
                .find(|c| c.0.eq_ignore_ascii_case(&name))
            else {
                return Err(format!(
                    "scroll code {:?} is not lineUp, lineDown, pageUp, pageDown, top, bottom, thumb or track",
                    args[1]
                ));
            };
            let thumb = code == 4 || code == 5;
            let pos = match (thumb, args.get(2)) {
                (true, Some(n)) => ranged(n, -32768, 32767, "the position")? as u16,
                (true, None) => return Err(format!("scroll {name} needs a position")),
                (false, None) => 0,
                (false, Some(_)) => return Err(format!("scroll {name} takes no position")),
            };
            Ok(Action::Scroll {
                vertical,
                code,
                pos,
            })
        }
        "close" => {
            want(0..=0, "close")?;
            Ok(Action::Close)
        }
        "msgbox" => {
            want(1..=1, "msgbox ANSWER")?;
            Ok(Action::MsgBox(answer(args[0])?))
        }
        "click-id" => {
            want(1..=1, "click-id ID")?;
            Ok(Action::ClickId(control_id(args[0])?))
        }
        "dialog" => {
            want(1..=1, "dialog ANSWER")?;
            Ok(Action::Dialog(answer(args[0])?))
        }
        _ => Err(format!(
            "unknown command {} (key, char, click, command, scroll, menu, sysmenu, popup, timer, \
             close, msgbox, dialog, file, type, click-id, select)",
            crate::escape::quoted(&verb)
        )),
    }
}

/// The `scroll` line's codes and their SB_ numbers.
const SCROLL_CODES: &[(&str, u16)] = &[
    ("lineUp", 0),
    ("lineDown", 1),
    ("pageUp", 2),
    ("pageDown", 3),
    ("thumb", 4),
    ("track", 5),
    ("top", 6),
    ("bottom", 7),
];

/// The words of `s`: blank-separated, or `"quoted"` (a quoted word may
/// hold blanks and `#`; it cannot hold a `"`). Each with whether it was
/// quoted.
fn quoted_words(s: &str) -> Result<Vec<(String, bool)>, String> {
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_ascii_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let start = i + 1;
            let end = loop {
                match chars.next() {
                    Some((j, '"')) => break j,
                    Some(_) => {}
                    None => return Err(format!("a quoted item from {s:?} has no closing quote")),
                }
            };
            if chars.peek().is_some_and(|&(_, c)| !c.is_ascii_whitespace()) {
                return Err("a closing quote must be followed by a blank".into());
            }
            out.push((s[start..end].to_string(), true));
        } else {
            let start = i;
            let mut end = s.len();
            while let Some(&(j, c)) = chars.peek() {
                if c.is_ascii_whitespace() {
                    end = j;
                    break;
                }
                if c == '"' {
                    return Err("a quote in the middle of an item".into());
                }
                chars.next();
            }
            out.push((s[start..end].to_string(), false));
        }
    }
    Ok(out)
}

/// A control id.
fn control_id(s: &str) -> Result<u16, String> {
    Ok(ranged(s, 0, 0xFFFF, "the control id")? as u16)
}

/// The text after the first word of `rest`, a quoted `"..."` taken
/// without its quotes.
fn after_word(rest: &str) -> String {
    let t = rest.trim_start();
    let end = t.find(|c: char| c.is_ascii_whitespace()).unwrap_or(t.len());
    let t = t[end..].trim();
    match t.strip_prefix('"').and_then(|u| u.strip_suffix('"')) {
        Some(u) => u.to_string(),
        None => t.to_string(),
    }
}

/// A `type ID TEXT` or `select ID ITEM` line: `rest` is the text after
/// the verb.
fn parse_control_line(verb: &str, rest: &str) -> Result<(Action, Vec<String>), String> {
    let mut words = rest.split_ascii_whitespace();
    let (Some(id), Some(_)) = (words.next(), words.next()) else {
        return Err(match verb {
            "type" => "usage: type ID TEXT".into(),
            _ => "usage: select ID INDEX|TEXT".into(),
        });
    };
    let id = control_id(id)?;
    let text = after_word(rest);
    if verb == "type" {
        if text.len() > MAX_TYPED {
            return Err(format!("more than {MAX_TYPED} characters to type"));
        }
        return Ok((Action::Type(id), vec![text]));
    }
    let quoted = rest.trim_end().ends_with('"');
    match number(&text) {
        Some(v) if !quoted => {
            if !(0..=0xFFFF).contains(&v) {
                return Err(format!("the item index {v} is out of range 0..65535"));
            }
            Ok((Action::Select(id, Some(v as u16)), Vec::new()))
        }
        _ => Ok((Action::Select(id, None), vec![text])),
    }
}

/// A `menu`, `sysmenu` or `popup` line: its verb and the text after it.
fn parse_menu_line(verb: &str, rest: &str) -> Result<(Action, Vec<String>), String> {
    let words = quoted_words(rest)?;
    let usage = match verb {
        "menu" => "usage: menu ITEM [ITEM...] (an item is a word, \"quoted text\" or #N)",
        "sysmenu" => "usage: sysmenu ITEM [ITEM...] (e.g. sysmenu close)",
        _ => "usage: popup ITEM [ITEM...] or popup cancel",
    };
    if words.is_empty() {
        return Err(usage.into());
    }
    if words.len() > MAX_PATH {
        return Err(format!("a menu path of more than {MAX_PATH} items"));
    }
    for (w, _) in &words {
        if w.is_empty() || w.len() > 255 {
            return Err(format!("item {w:?} is empty or longer than 255 bytes"));
        }
    }
    let action = match verb {
        "menu" => Action::Menu,
        "sysmenu" => Action::SysMenu,
        _ => Action::Popup,
    };
    if action == Action::Popup
        && let [(w, false)] = words.as_slice()
        && w.eq_ignore_ascii_case("cancel")
    {
        return Ok((action, Vec::new()));
    }
    Ok((action, words.into_iter().map(|(w, _)| w).collect()))
}

/// Is `s` a plausible module name (NE module names: at most 8 printable
/// characters, no blanks)?
fn module_name(s: &str) -> Result<String, String> {
    if s.is_empty() {
        return Err("'@' without a module name".into());
    }
    if s.len() > 8 || !s.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!(
            "{} is not a module name (1 to 8 characters)",
            crate::escape::quoted(s)
        ));
    }
    Ok(s.to_ascii_uppercase())
}

/// Parse a script file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Script, ScriptError> {
    if bytes.len() > MAX_BYTES {
        return Err(ScriptError {
            line: 0,
            what: format!("larger than {MAX_BYTES} bytes"),
        });
    }
    let mut lines = Vec::new();
    let mut files = std::collections::BTreeMap::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        let err = |what: String| ScriptError { line: number, what };
        let text = std::str::from_utf8(raw)
            .map_err(|_| err("not text (invalid UTF-8)".into()))?
            .trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if lines.len() >= MAX_LINES {
            return Err(err(format!("more than {MAX_LINES} commands")));
        }
        let mut words: Vec<&str> = text.split_ascii_whitespace().collect();
        let mut rest = text;
        let module = match words.first().and_then(|w| w.strip_prefix('@')) {
            Some(m) => {
                let m = module_name(m).map_err(err)?;
                rest = rest[words[0].len()..].trim_start();
                words.remove(0);
                Some(m)
            }
            None => None,
        };
        if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("file"))
        {
            // The name is the rest of the line, blanks and all.
            let rest = text.trim_start();
            let rest = match rest.strip_prefix('@') {
                Some(r) => r.split_once(char::is_whitespace).map_or("", |(_, t)| t),
                None => rest,
            };
            let name = rest.trim_start()[4..].trim();
            if name.is_empty() || name.len() > 127 {
                return Err(err(
                    "usage: file NAME (a DOS path of at most 127 characters)".into(),
                ));
            }
            files.insert(number, name.to_string());
            lines.push(Line {
                number,
                module,
                action: Action::Dialog(1),
                args: Vec::new(),
            });
            continue;
        }
        let verb = words.first().map(|w| w.to_ascii_lowercase());
        let (action, args) = match verb.as_deref() {
            Some(v @ ("menu" | "sysmenu" | "popup")) => {
                parse_menu_line(v, &rest[v.len()..]).map_err(err)?
            }
            Some(v @ ("type" | "select")) => {
                parse_control_line(v, &rest[v.len()..]).map_err(err)?
            }
            _ => (parse_action(&words).map_err(err)?, Vec::new()),
        };
        lines.push(Line {
            number,
            module,
            action,
            args,
        });
    }
    Ok(Script { lines, files })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Action {
        parse(s.as_bytes()).unwrap().lines[0].action
    }

    fn error(s: &str) -> ScriptError {
        parse(s.as_bytes()).unwrap_err()
    }

    #[test]
    fn modifiers_go_before_the_key_name() {
        let k = key_by_name("Ctrl+S").unwrap();
        assert_eq!((k.vk, k.mods), (0x53, MOD_CTRL));
        let k = key_by_name("ctrl+shift+f1").unwrap();
        assert_eq!((k.vk, k.mods), (0x70, MOD_CTRL | MOD_SHIFT));
        assert_eq!(key_by_name("alt+f").unwrap().mods, MOD_ALT);
        assert_eq!(key_by_name("alt").unwrap().vk, 0x12);
        assert_eq!(key_by_name("alt+alt+f"), None);
        assert_eq!(key_by_name("ctrl+"), None);
        assert_eq!(key_by_name("ctrl+banana"), None);
        assert_eq!(
            Action::Key(key_by_name("ctrl+alt+x").unwrap()).to_string(),
            "key ctrl+alt+VK 58"
        );
    }

    #[test]
    fn keys_have_virtual_key_codes_and_scan_codes() {
        let a = key_by_name("A").unwrap();
        assert_eq!((a.vk, a.scan, a.ch), (0x41, 0x1E, Some(b'a')));
        assert_eq!(a.lparam_down(), 0x001E_0001);
        assert_eq!(a.lparam_up(), 0xC01E_0001);
        assert_eq!(key_by_name("z").unwrap().scan, 0x2C);
        let one = key_by_name("1").unwrap();
        assert_eq!((one.vk, one.scan, one.ch), (0x31, 0x02, Some(b'1')));
        assert_eq!(key_by_name("0").unwrap().scan, 0x0B);
        let enter = key_by_name("Enter").unwrap();
        assert_eq!((enter.vk, enter.scan, enter.ch), (0x0D, 0x1C, Some(13)));
        let left = key_by_name("left").unwrap();
        assert_eq!((left.vk, left.ch), (0x25, None));
        assert_eq!(left.lparam_down(), 0x014B_0001);
        assert_eq!(key_by_name("f1").unwrap().vk, 0x70);
        assert_eq!(key_by_name("f1").unwrap().scan, 0x3B);
        assert_eq!(key_by_name("F10").unwrap().scan, 0x44);
        assert_eq!(key_by_name("F11").unwrap().scan, 0x57);
        assert_eq!(key_by_name("f12").unwrap().vk, 0x7B);
        assert_eq!(key_by_name("f13"), None);
        assert_eq!(key_by_name("!"), None);
        assert_eq!(scan_of_char(b'x'), 0x2D);
        assert_eq!(scan_of_char(b'X'), 0x2D);
        assert_eq!(scan_of_char(b' '), 0x39);
        assert_eq!(scan_of_char(b'!'), 0);
    }

    #[test]
    fn every_command_parses() {
        assert_eq!(one("key A"), Action::Key(key_by_name("a").unwrap()));
        assert_eq!(one("char x"), Action::Char(b'x'));
        assert_eq!(one("char 0x0D"), Action::Char(13));
        assert_eq!(one("char 65"), Action::Char(65));
        assert_eq!(
            one("click 10 20"),
            Action::Click {
                x: 10,
                y: 20,
                right: false
            }
        );
        assert_eq!(
            one("CLICK -1 0x20 Right"),
            Action::Click {
                x: -1,
                y: 32,
                right: true
            }
        );
        assert_eq!(one("command 100"), Action::Command(100));
        assert_eq!(one("command 0xFFFF"), Action::Command(0xFFFF));
        assert_eq!(one("timer"), Action::Timer(1));
        assert_eq!(one("timer 3"), Action::Timer(3));
        assert_eq!(one("close"), Action::Close);
        assert_eq!(one("msgbox no"), Action::MsgBox(7));
        assert_eq!(one("msgbox 3"), Action::MsgBox(3));
        assert_eq!(one("dialog OK"), Action::Dialog(1));
        assert_eq!(one("dialog 1001"), Action::Dialog(1001));
        assert!(Action::Dialog(1).is_answer() && !Action::Close.is_answer());
        let line = |s: &str| parse(s.as_bytes()).unwrap().lines[0].clone();
        let l = line("type 101 hello world");
        assert_eq!(
            (l.action, l.args),
            (Action::Type(101), vec!["hello world".into()])
        );
        let l = line("type 0x65 \"  two  \"");
        assert_eq!(
            (l.action, l.args),
            (Action::Type(101), vec!["  two  ".into()])
        );
        assert_eq!(one("click-id 1"), Action::ClickId(1));
        assert_eq!(one("select 200 3"), Action::Select(200, Some(3)));
        let l = line("select 200 \"New York\"");
        assert_eq!(
            (l.action, l.args),
            (Action::Select(200, None), vec!["New York".into()])
        );
        let l = line("select 200 Paris");
        assert_eq!(
            (l.action, l.args),
            (Action::Select(200, None), vec!["Paris".into()])
        );
        let l = line("@DLGTEST type 5 x");
        assert_eq!(
            (l.action, l.args, l.module),
            (Action::Type(5), vec!["x".into()], Some("DLGTEST".into()))
        );
        assert!(!one("type 5 x").is_answer());
        assert!(Action::Popup.is_answer() && !Action::Menu.is_answer());
    }

    fn args(s: &str) -> (Action, Vec<String>) {
        let l = parse(s.as_bytes()).unwrap().lines.remove(0);
        (l.action, l.args)
    }

    #[test]
    fn menu_lines_take_quoted_paths() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            args("menu \"&File\" \"E&xit\""),
            (Action::Menu, v(&["&File", "E&xit"]))
        );
        assert_eq!(
            args("@APP MENU file \"save as...\"  #2"),
            (Action::Menu, v(&["file", "save as...", "#2"]))
        );
        assert_eq!(args("sysmenu close"), (Action::SysMenu, v(&["close"])));
        assert_eq!(args("popup cancel"), (Action::Popup, vec![]));
        assert_eq!(args("popup \"cancel\""), (Action::Popup, v(&["cancel"])));
        assert_eq!(
            args("popup \"# not a comment\" x"),
            (Action::Popup, v(&["# not a comment", "x"]))
        );
        let l = parse(b"@APP menu \"A B\"").unwrap().lines.remove(0);
        assert_eq!(l.module.as_deref(), Some("APP"));
        assert!(error("menu").what.starts_with("usage: menu"));
        assert!(error("menu \"open").what.contains("no closing quote"));
        assert!(error("menu \"a\"b").what.contains("followed by a blank"));
        assert!(error("menu a\"b").what.contains("middle"));
        assert!(error("menu \"\"").what.contains("empty"));
        assert!(
            error(&format!("menu {}", "a ".repeat(MAX_PATH + 1)))
                .what
                .contains("more than")
        );
        // Other lines keep their words as they were: `char "` is a quote.
        assert_eq!(one("char \""), Action::Char(b'"'));
    }

    #[test]
    fn comments_blank_lines_modules_and_line_numbers() {
        let s = parse(b"# a script\r\n\r\n  key a\r\n@pong command 5\n\t# more\nclose").unwrap();
        assert_eq!(s.lines.len(), 3);
        assert_eq!((s.lines[0].number, s.lines[0].module.as_deref()), (3, None));
        assert_eq!(s.lines[1].number, 4);
        assert_eq!(s.lines[1].module.as_deref(), Some("PONG"));
        assert_eq!(s.lines[1].action, Action::Command(5));
        assert_eq!(s.lines[2].number, 6);
        assert_eq!(parse(b"").unwrap(), Script::default());
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let e = error("key a\nkey banana\n");
        assert_eq!(e.line, 2);
        assert_eq!(e.to_string(), "line 2: unknown key \"banana\"");
        assert!(error("jump 3").what.contains("unknown command"));
        assert_eq!(error("click 1").what, "usage: click X Y [left|right]");
        assert_eq!(
            error("click 1 2 middle").what,
            "button \"middle\" is not left or right"
        );
        assert_eq!(
            error("click 40000 2").what,
            "X 40000 is out of range -32768..32767"
        );
        assert_eq!(
            error("command x").what,
            "the command id \"x\" is not a number"
        );
        assert_eq!(error("command 65536").line, 1);
        assert_eq!(
            error("timer 0").what,
            "the tick count 0 is out of range 1..1000"
        );
        assert_eq!(error("timer 1001").line, 1);
        assert_eq!(error("close now").what, "usage: close");
        assert!(error("msgbox maybe").what.contains("not ok, cancel"));
        assert_eq!(error("char ab").line, 1);
        assert_eq!(error("char 256").line, 1);
        assert_eq!(error("@ key a").what, "'@' without a module name");
        assert_eq!(error("@TOOLONGNAME key a").line, 1);
        assert_eq!(error("@PONG").what, "a module prefix without a command");
        assert_eq!(error("type 5").what, "usage: type ID TEXT");
        assert_eq!(
            error("type x y").what,
            "the control id \"x\" is not a number"
        );
        assert_eq!(error("click-id").what, "usage: click-id ID");
        assert_eq!(error("select 4").what, "usage: select ID INDEX|TEXT");
        assert_eq!(
            error("select 4 70000").what,
            "the item index 70000 is out of range 0..65535"
        );
        assert_eq!(error("\n\nkey \u{e9}").line, 3);
        let bad = parse(b"close\n\xFF\xFE\n").unwrap_err();
        assert_eq!(bad.to_string(), "line 2: not text (invalid UTF-8)");
        let big = vec![b'#'; MAX_BYTES + 1];
        assert_eq!(parse(&big).unwrap_err().line, 0);
        let many = "close\n".repeat(MAX_LINES + 1);
        assert_eq!(parse(many.as_bytes()).unwrap_err().line, MAX_LINES + 1);
    }

    #[test]
    fn numbers() {
        assert_eq!(number("0x10"), Some(16));
        assert_eq!(number("-5"), Some(-5));
        assert_eq!(number("0x"), None);
        assert_eq!(number(""), None);
        assert_eq!(number("99999999999999999999"), None);
        assert_eq!(number("0x123456789"), None);
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn arbitrary_words_never_panic(words in proptest::collection::vec(
            "(@?[a-zA-Z]{0,9}|-?(0x)?[0-9a-fA-F]{0,12}|[ -~]{0,3}|\n|#)", 0..12)) {
            let text = words.join(" ");
            match parse(text.as_bytes()) {
                Ok(s) => prop_assert!(s.lines.len() <= MAX_LINES),
                Err(e) => prop_assert!(e.line >= 1 && e.line <= text.split('\n').count()),
            }
        }
    }
}
