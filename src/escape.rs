//! Control characters from the input, made visible before they reach a
//! terminal.
//!
//! Names and strings in a 16-bit file (module names, import and export
//! names, symbols of a map, resource strings) and what a program prints
//! into a report are bytes anyone may have chosen: an ESC in a module name
//! would drive the terminal that shows it (`\x1B[2J` clears the screen).
//! Text output shows each control character as `\xNN`, as `ls` shows
//! unprintable bytes in file names; JSON output stays exact (serde escapes
//! them as `\u001b`).
//!
//! [`name`] escapes every control character, for a string inside a line
//! (a name in a table). [`text`] keeps line feeds and tabs, for whole
//! reports: the CLI passes everything it prints through it except the
//! program's own console stream.

use std::borrow::Cow;

/// Is `c` shown escaped: a C0 control, DEL, or a C1 control (an 8-bit
/// terminal reads U+009B as CSI)?
fn hidden(c: char) -> bool {
    c.is_control()
}

fn escape_with(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| hidden(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) && !keep(c) {
            out.push_str(&format!("\\x{:02X}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` with every control character shown as `\xNN` (`\x1B` for ESC,
/// `\x0A` for a line feed): for a name inside a line.
pub fn name(s: &str) -> Cow<'_, str> {
    escape_with(s, |_| false)
}

/// `s` with every control character but line feed and tab shown as
/// `\xNN`: for a whole report.
pub fn text(s: &str) -> Cow<'_, str> {
    escape_with(s, |c| c == '\n' || c == '\t')
}

/// `s` in double quotes, its control characters shown as [`name`] shows
/// them: a string from the program or the file inside a message (an event,
/// an error), where Rust's `{:?}` would show its own escapes.
pub fn quoted(s: &str) -> String {
    format!("\"{}\"", name(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_and_the_rest_kept() {
        assert_eq!(name("KERNEL"), "KERNEL");
        assert!(matches!(name("KERNEL"), Cow::Borrowed(_)));
        assert_eq!(name("A\x1B[2JB"), "A\\x1B[2JB");
        assert_eq!(name("a\nb\tc\rd\x7F"), "a\\x0Ab\\x09c\\x0Dd\\x7F");
        assert_eq!(name("\u{9B}31m"), "\\x9B31m");
        assert_eq!(name("Grüße"), "Grüße");
        assert_eq!(quoted("T\x1Bx"), "\"T\\x1Bx\"");
        assert_eq!(
            text("line\x1B]0;title\x07\nnext\tcol\r"),
            "line\\x1B]0;title\\x07\nnext\tcol\\x0D"
        );
    }

    proptest::proptest! {
        #[test]
        fn nothing_hidden_is_left(s in ".*") {
            proptest::prop_assert!(!name(&s).chars().any(char::is_control));
            proptest::prop_assert!(!text(&s).chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
        }
    }
}
