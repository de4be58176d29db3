//! The up-down control (class `msctls_updown`) and CreateUpDownControl.
//!
//! An up-down control is a pair of arrow buttons (one above the other, or
//! side by side with UDS_HORZ) holding a position within a range
//! (UDM_SETRANGE: lParam MAKELONG(upper, lower); until set, lower 100 and
//! upper 0, as the common controls documentation gives it). A click on
//! the up (right) arrow moves the position one step towards `upper`, on
//! the down (left) arrow towards `lower`; at the end of the range it
//! stays, or with UDS_WRAP goes round to the other end. After each step
//! the parent gets WM_VSCROLL (WM_HSCROLL with UDS_HORZ) with wParam
//! SB_THUMBPOSITION and lParam MAKELONG(the position, the control), then
//! SB_ENDSCROLL; with UDS_SETBUDDYINT the buddy window's text becomes the
//! position (decimal, or hexadecimal after UDM_SETBASE 16).
//!
//! UDM_SETPOS sets the position (kept within the range) and returns the
//! old one; UDM_GETPOS returns MAKELONG(position, 0) (with UDS_SETBUDDYINT
//! the buddy's text is read first: a number in the range becomes the
//! position, anything else answers MAKELONG(position, 1), the error);
//! UDM_SETBUDDY (the old buddy; with UDS_ALIGNRIGHT or UDS_ALIGNLEFT the
//! control moves beside the buddy, at its height, and the buddy narrows
//! by the control's width), UDM_GETBUDDY, UDM_SETBASE (10 or 16, else 0;
//! the old base), UDM_GETBASE, UDM_GETRANGE.
//!
//! CreateUpDownControl(dwStyle, x, y, cx, cy, hParent, nID, hInst,
//! hBuddy, nUpper, nLower, nPos) makes one and sends it UDM_SETBUDDY,
//! UDM_SETRANGE and UDM_SETPOS.
//!
//! Each arrow is drawn as a push button in the button face colour with a
//! black triangle, sunken while pressed.

use super::WM_USER;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::user::controls::paint::{
    COLOR_BTNFACE, COLOR_BTNHIGHLIGHT, COLOR_BTNSHADOW, Painter, R, sys_brush,
};
use crate::win16::user::controls::wm;

pub const UDM_SETRANGE: u16 = WM_USER + 101;
pub const UDM_GETRANGE: u16 = WM_USER + 102;
pub const UDM_SETPOS: u16 = WM_USER + 103;
pub const UDM_GETPOS: u16 = WM_USER + 104;
pub const UDM_SETBUDDY: u16 = WM_USER + 105;
pub const UDM_GETBUDDY: u16 = WM_USER + 106;
pub const UDM_SETBASE: u16 = WM_USER + 109;
pub const UDM_GETBASE: u16 = WM_USER + 110;
pub const UDS_WRAP: u32 = 0x0001;
pub const UDS_SETBUDDYINT: u32 = 0x0002;
pub const UDS_ALIGNRIGHT: u32 = 0x0004;
pub const UDS_ALIGNLEFT: u32 = 0x0008;
pub const UDS_HORZ: u32 = 0x0040;
const SB_THUMBPOSITION: u16 = 4;
const SB_ENDSCROLL: u16 = 8;

/// An up-down control's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpDown {
    pub lower: i16,
    pub upper: i16,
    pub pos: i16,
    pub buddy: u16,
    pub base: u16,
    /// The arrow pressed with the mouse: 1 up, -1 down.
    pub pressed: i8,
}

impl Default for UpDown {
    fn default() -> Self {
        UpDown {
            lower: 100,
            upper: 0,
            pos: 0,
            buddy: 0,
            base: 10,
            pressed: 0,
        }
    }
}

impl UpDown {
    /// `p` within the range.
    pub fn clamp(&self, p: i16) -> i16 {
        let (lo, hi) = (self.lower.min(self.upper), self.lower.max(self.upper));
        p.clamp(lo, hi)
    }

    /// One step towards `upper` (`dir` 1) or `lower` (-1); `wrap` goes
    /// round at the ends.
    pub fn step(&self, dir: i8, wrap: bool) -> i16 {
        let towards_upper = dir > 0;
        let inc: i16 = if (self.upper >= self.lower) == towards_upper {
            1
        } else {
            -1
        };
        let next = self.pos.saturating_add(inc);
        if self.clamp(next) == next {
            return next;
        }
        match (wrap, towards_upper) {
            (true, true) => self.lower,
            (true, false) => self.upper,
            _ => self.pos,
        }
    }

    /// The position as the buddy shows it.
    pub fn text(&self) -> String {
        if self.base == 16 {
            format!("0x{:04X}", self.pos as u16)
        } else {
            self.pos.to_string()
        }
    }
}

fn state(env: &mut Env, hwnd: u16) -> &mut UpDown {
    env.win16.commctrl.updowns.entry(hwnd).or_default()
}

/// Put the position into the buddy's text (UDS_SETBUDDYINT).
fn show_in_buddy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let ud = *state(env, hwnd);
    if wm::style(env, hwnd) & UDS_SETBUDDYINT == 0 || !wm::exists(env, ud.buddy) {
        return Ok(());
    }
    let mut t = ud.text().into_bytes();
    t.push(0);
    // WM_SETTEXT with the text on the stack.
    wm::send_data(env, uc, ud.buddy, 0x000C, 0, &t)?;
    Ok(())
}

/// The number a buddy's text holds, in `base`.
pub fn parse(text: &str, base: u16) -> Option<i16> {
    let t = text.trim();
    let v = if base == 16 {
        let h = t.trim_start_matches("0x").trim_start_matches("0X");
        i32::from_str_radix(h, 16).ok()?
    } else {
        t.replace(',', "").parse::<i32>().ok()?
    };
    i16::try_from(v).ok()
}

/// The two arrows' rectangles: (up or right, down or left).
fn halves(env: &Env, hwnd: u16) -> (R, R) {
    let (cx, cy) = wm::client_size(env, hwnd);
    if wm::style(env, hwnd) & UDS_HORZ != 0 {
        ((cx / 2, 0, cx, cy), (0, 0, cx / 2, cy))
    } else {
        ((0, 0, cx, cy / 2), (0, cy / 2, cx, cy))
    }
}

/// Draw one arrow button.
fn draw_arrow(
    env: &mut Env,
    uc: &mut Uc<'_>,
    p: &Painter,
    r: R,
    pointing: u8,
    down: bool,
) -> Result<(), Stop> {
    p.fill(env, uc, r, sys_brush(COLOR_BTNFACE))?;
    let black = p.stock(env, uc, 4)?;
    p.frame(env, uc, r, black)?;
    let (l, t, rt, b) = (r.0 + 1, r.1 + 1, r.2 - 1, r.3 - 1);
    let (light, dark) = if down {
        (COLOR_BTNSHADOW, COLOR_BTNFACE)
    } else {
        (COLOR_BTNHIGHLIGHT, COLOR_BTNSHADOW)
    };
    p.fill(env, uc, (l, t, rt, t + 1), sys_brush(light))?;
    p.fill(env, uc, (l, t, l + 1, b), sys_brush(light))?;
    p.fill(env, uc, (l, b - 1, rt, b), sys_brush(dark))?;
    p.fill(env, uc, (rt - 1, t, rt, b), sys_brush(dark))?;
    // A triangle of up to 4 rows, centred: each row a line of the black
    // brush.
    let off = i16::from(down);
    let (cx, cy) = ((r.0 + r.2) / 2 + off, (r.1 + r.3) / 2 + off);
    for i in 0..3i16 {
        let row = match pointing {
            b'u' => (cx - i, cy - 1 + i, cx + i + 1, cy + i),
            b'd' => (cx - i, cy + 1 - i, cx + i + 1, cy + 2 - i),
            b'l' => (cx - 1 + i, cy - i, cx + i, cy + i + 1),
            _ => (cx + 1 - i, cy - i, cx + 2 - i, cy + i + 1),
        };
        p.fill(env, uc, row, black)?;
    }
    Ok(())
}

/// Move the position one step (module doc) and tell the parent.
fn click(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, dir: i8) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    let ud = state(env, hwnd);
    let next = ud.step(dir, style & UDS_WRAP != 0);
    ud.pos = next;
    show_in_buddy(env, uc, hwnd)?;
    let parent = wm::parent(env, hwnd);
    let msg = if style & UDS_HORZ != 0 {
        0x0114
    } else {
        0x0115
    };
    let lp = u32::from(next as u16) | u32::from(hwnd) << 16;
    wm::send(env, uc, parent, msg, SB_THUMBPOSITION, lp)?;
    wm::send(env, uc, parent, msg, SB_ENDSCROLL, lp)?;
    Ok(())
}

/// UDM_SETBUDDY's work: the old buddy.
fn set_buddy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, buddy: u16) -> Result<u32, Stop> {
    let old = std::mem::replace(&mut state(env, hwnd).buddy, buddy);
    let style = wm::style(env, hwnd);
    if buddy != 0 && wm::exists(env, buddy) && style & (UDS_ALIGNRIGHT | UDS_ALIGNLEFT) != 0 {
        let b = wm::rect(env, buddy);
        let me = wm::rect(env, hwnd);
        let w = me.2.saturating_sub(me.0);
        if style & UDS_ALIGNRIGHT != 0 {
            let x = b.2.saturating_sub(w);
            wm::move_window(env, uc, buddy, (b.0, b.1, x, b.3))?;
            wm::move_window(env, uc, hwnd, (x, b.1, b.2, b.3))?;
        } else {
            let x = b.0.saturating_add(w);
            wm::move_window(env, uc, buddy, (x, b.1, b.2, b.3))?;
            wm::move_window(env, uc, hwnd, (b.0, b.1, x, b.3))?;
        }
    }
    show_in_buddy(env, uc, hwnd)?;
    Ok(u32::from(old))
}

/// The up-down control's window procedure (module doc).
pub fn updown_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::user::{WM_CREATE, WM_NCDESTROY, WM_PAINT};
    const WM_LBUTTONDOWN: u16 = 0x0201;
    const WM_LBUTTONUP: u16 = 0x0202;
    const WM_LBUTTONDBLCLK: u16 = 0x0203;
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    match msg {
        WM_CREATE => {
            state(env, hwnd);
            Ok(0)
        }
        WM_PAINT => {
            let horz = wm::style(env, hwnd) & UDS_HORZ != 0;
            let (up, down) = halves(env, hwnd);
            let pressed = state(env, hwnd).pressed;
            wm::paint(env, uc, hwnd, |env, uc, hdc| {
                let p = Painter { hdc, background: 0 };
                let (pu, pd) = if horz { (b'r', b'l') } else { (b'u', b'd') };
                draw_arrow(env, uc, &p, up, pu, pressed > 0)?;
                draw_arrow(env, uc, &p, down, pd, pressed < 0)
            })?;
            Ok(0)
        }
        WM_LBUTTONDOWN | WM_LBUTTONDBLCLK => {
            let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
            let (up, _) = halves(env, hwnd);
            let inside = |r: R| x >= r.0 && x < r.2 && y >= r.1 && y < r.3;
            let dir = if inside(up) { 1 } else { -1 };
            state(env, hwnd).pressed = dir;
            click(env, uc, hwnd, dir)?;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        WM_LBUTTONUP => {
            state(env, hwnd).pressed = 0;
            wm::invalidate(env, uc, hwnd)?;
            Ok(0)
        }
        UDM_SETRANGE => {
            let ud = state(env, hwnd);
            ud.upper = lparam as u16 as i16;
            ud.lower = (lparam >> 16) as u16 as i16;
            ud.pos = ud.clamp(ud.pos);
            Ok(0)
        }
        UDM_GETRANGE => {
            let ud = state(env, hwnd);
            Ok(u32::from(ud.upper as u16) | u32::from(ud.lower as u16) << 16)
        }
        UDM_SETPOS => {
            let ud = state(env, hwnd);
            let old = ud.pos;
            ud.pos = ud.clamp(lparam as u16 as i16);
            show_in_buddy(env, uc, hwnd)?;
            Ok(u32::from(old as u16))
        }
        UDM_GETPOS => {
            let ud = *state(env, hwnd);
            if wm::style(env, hwnd) & UDS_SETBUDDYINT != 0 && wm::exists(env, ud.buddy) {
                // WM_GETTEXT, as GetWindowText asks (an edit control keeps
                // its text itself).
                let (n, buf) = wm::send_data(env, uc, ud.buddy, 0x000D, 64, &[0u8; 64])?;
                let text =
                    String::from_utf8_lossy(&buf[..(n as usize).min(buf.len())]).into_owned();
                match parse(&text, ud.base).filter(|&v| ud.clamp(v) == v) {
                    Some(v) => state(env, hwnd).pos = v,
                    None => return Ok(u32::from(ud.pos as u16) | 1 << 16),
                }
            }
            Ok(u32::from(state(env, hwnd).pos as u16))
        }
        UDM_SETBUDDY => set_buddy(env, uc, hwnd, wparam),
        UDM_GETBUDDY => Ok(u32::from(state(env, hwnd).buddy)),
        UDM_SETBASE => {
            if wparam != 10 && wparam != 16 {
                return Ok(0);
            }
            let old = std::mem::replace(&mut state(env, hwnd).base, wparam);
            show_in_buddy(env, uc, hwnd)?;
            Ok(u32::from(old))
        }
        UDM_GETBASE => Ok(u32::from(state(env, hwnd).base)),
        WM_NCDESTROY => {
            env.win16.commctrl.updowns.remove(&hwnd);
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

/// COMMCTRL.16 CreateUpDownControl(dwStyle, x, y, cx, cy, hParent, nID,
/// hInst, hBuddy, nUpper, nLower, nPos) (module doc).
pub fn create_up_down_control(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let names = super::register(env, uc)?;
    let class = names.2;
    let i = |v: u32| v as u16 as i16;
    let (x, y, cx, cy) = (i(a[1]), i(a[2]), i(a[3]), i(a[4]));
    let h = wm::create(
        env,
        uc,
        class,
        0,
        a[0],
        (x, y, cx, cy),
        a[5] as u16,
        a[6] as u16,
        a[7] as u16,
        0,
    )?;
    if h == 0 {
        return Ok(0);
    }
    let range = u32::from(a[9] as u16) | u32::from(a[10] as u16) << 16;
    if a[8] as u16 != 0 {
        wm::send(env, uc, h, UDM_SETBUDDY, a[8] as u16, 0)?;
    }
    wm::send(env, uc, h, UDM_SETRANGE, 0, range)?;
    wm::send(env, uc, h, UDM_SETPOS, 0, u32::from(a[11] as u16))?;
    Ok(u32::from(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_wraps() {
        let ud = UpDown {
            lower: 0,
            upper: 10,
            pos: 10,
            ..UpDown::default()
        };
        assert_eq!(ud.step(1, false), 10);
        assert_eq!(ud.step(1, true), 0);
        assert_eq!(ud.step(-1, false), 9);
        // The default range runs down: up moves towards 0.
        let d = UpDown {
            pos: 50,
            ..UpDown::default()
        };
        assert_eq!(d.step(1, false), 49);
        assert_eq!(d.clamp(200), 100);
    }

    proptest::proptest! {
        /// Any range and position: a step stays in the range.
        #[test]
        fn steps_stay_in_range(lower in proptest::num::i16::ANY, upper in proptest::num::i16::ANY,
                               pos in proptest::num::i16::ANY, up in proptest::bool::ANY,
                               wrap in proptest::bool::ANY) {
            let ud = UpDown { lower, upper, ..UpDown::default() };
            let ud = UpDown { pos: ud.clamp(pos), ..ud };
            let next = ud.step(if up { 1 } else { -1 }, wrap);
            proptest::prop_assert_eq!(ud.clamp(next), next);
        }

        /// Any text: parse never panics.
        #[test]
        fn any_buddy_text(t in "\\PC{0,12}", hex in proptest::bool::ANY) {
            let _ = parse(&t, if hex { 16 } else { 10 });
        }
    }

    #[test]
    fn buddy_numbers() {
        assert_eq!(parse(" 1,234 ", 10), Some(1234));
        assert_eq!(parse("0x1F", 16), Some(31));
        assert_eq!(parse("abc", 10), None);
        assert_eq!(parse("70000", 10), None);
        let ud = UpDown {
            pos: 31,
            base: 16,
            ..UpDown::default()
        };
        assert_eq!(ud.text(), "0x001F");
    }
}
