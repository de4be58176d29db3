//! The toolbar (class `ToolbarWindow`) and CreateToolbar.
//!
//! CreateToolbar(hwndParent, ws, wID, nBitmaps, hBMInst, wBMID,
//! lpButtons, iNumButtons) makes a toolbar child window along the top of
//! the parent's client area (the bottom with CCS_BOTTOM), as wide as it
//! and [`HEIGHT`] pixels high, with the buttons of the TBBUTTON array
//! (12 bytes each in 16-bit Windows: iBitmap, idCommand, fsState,
//! fsStyle, dwData, iString) and the button images of bitmap resource
//! `wBMID` of `hBMInst`: a strip of `nBitmaps` images of [`BITMAP_CX`] ×
//! [`BITMAP_CY`] pixels side by side, image `iBitmap` centred on its
//! button (the bitmap is loaded when the toolbar first paints). Buttons are
//! [`BUTTON_CX`] × [`BUTTON_CY`] pixels, laid side by side from
//! [`X_START`]; a separator (TBSTYLE_SEP) is a gap of [`SEP_CX`] pixels
//! (its iBitmap, when not 0, gives its width instead). Hidden buttons
//! take no room.
//!
//! A button is drawn as a raised push button in the button face colour
//! (a black frame, a one-pixel highlight at the top and left, a
//! two-pixel shadow at the bottom and right), sunken and its image one
//! pixel lower and to the right while pressed or checked (a checked
//! button's face in the highlight colour).
//!
//! A click: WM_LBUTTONDOWN on an enabled button presses it; WM_LBUTTONUP
//! over the same button releases it, toggles a TBSTYLE_CHECK button
//! (TBSTYLE_CHECKGROUP: checks it and unchecks the other buttons of its
//! group, the neighbouring CHECKGROUP buttons) and sends the parent
//! WM_COMMAND with wParam = its idCommand and lParam = MAKELONG(the
//! toolbar, 0).
//!
//! The TB_ messages (WM_USER + n): ENABLEBUTTON 1, CHECKBUTTON 2,
//! PRESSBUTTON 3, HIDEBUTTON 4, INDETERMINATE 5, ISBUTTONENABLED 9,
//! ISBUTTONCHECKED 10, ISBUTTONPRESSED 11, ISBUTTONHIDDEN 12,
//! ISBUTTONINDETERMINATE 13, SETSTATE 17, GETSTATE 18, ADDBUTTONS 20,
//! INSERTBUTTON 21, DELETEBUTTON 22, GETBUTTON 23, BUTTONCOUNT 24,
//! COMMANDTOINDEX 25, GETITEMRECT 29. A command id that no button has
//! answers FALSE (GETSTATE: -1).

use super::WM_USER;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::farptr;
use crate::win16::user::controls::paint::{
    COLOR_BTNFACE, COLOR_BTNHIGHLIGHT, COLOR_BTNSHADOW, Painter, R, sys_brush,
};
use crate::win16::user::controls::wm;

pub const TBSTATE_CHECKED: u8 = 0x01;
pub const TBSTATE_PRESSED: u8 = 0x02;
pub const TBSTATE_ENABLED: u8 = 0x04;
pub const TBSTATE_HIDDEN: u8 = 0x08;
pub const TBSTATE_INDETERMINATE: u8 = 0x10;
pub const TBSTYLE_SEP: u8 = 0x01;
pub const TBSTYLE_CHECK: u8 = 0x02;
pub const TBSTYLE_GROUP: u8 = 0x04;
pub const TBSTYLE_CHECKGROUP: u8 = TBSTYLE_GROUP | TBSTYLE_CHECK;
/// CCS_BOTTOM: along the bottom instead.
pub const CCS_BOTTOM: u32 = 0x0003;

/// Sizes (module doc).
pub const BITMAP_CX: i16 = 16;
pub const BITMAP_CY: i16 = 15;
pub const BUTTON_CX: i16 = 24;
pub const BUTTON_CY: i16 = 22;
pub const SEP_CX: i16 = 8;
pub const X_START: i16 = 8;
pub const Y_START: i16 = 2;
pub const HEIGHT: i16 = BUTTON_CY + 2 * Y_START;
/// Bytes of a 16-bit TBBUTTON.
pub const TBBUTTON_SIZE: usize = 12;
/// The most buttons a toolbar holds.
pub const MAX_BUTTONS: usize = 256;

/// One button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Button {
    pub bitmap: i16,
    pub id: u16,
    pub state: u8,
    pub style: u8,
    pub data: u32,
    pub string: i16,
}

impl Button {
    pub fn from_bytes(b: &[u8]) -> Button {
        let w = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        Button {
            bitmap: w(0) as i16,
            id: w(2),
            state: b[4],
            style: b[5],
            data: u32::from(w(6)) | u32::from(w(8)) << 16,
            string: w(10) as i16,
        }
    }

    pub fn to_bytes(&self) -> [u8; TBBUTTON_SIZE] {
        let mut b = [0u8; TBBUTTON_SIZE];
        b[0..2].copy_from_slice(&self.bitmap.to_le_bytes());
        b[2..4].copy_from_slice(&self.id.to_le_bytes());
        b[4] = self.state;
        b[5] = self.style;
        b[6..10].copy_from_slice(&self.data.to_le_bytes());
        b[10..12].copy_from_slice(&self.string.to_le_bytes());
        b
    }
}

/// A toolbar's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Toolbar {
    pub buttons: Vec<Button>,
    /// The image strip: its module and resource id, and the bitmap once
    /// loaded.
    pub bm_inst: u16,
    pub bm_id: u16,
    pub bitmap: u16,
    /// The button pressed with the mouse, by index.
    pub pressed: Option<usize>,
}

/// The rectangles of the buttons (None for a hidden one), left to right.
pub fn button_rects(tb: &Toolbar) -> Vec<Option<R>> {
    let mut x = X_START;
    tb.buttons
        .iter()
        .map(|b| {
            if b.state & TBSTATE_HIDDEN != 0 {
                return None;
            }
            let w = if b.style & TBSTYLE_SEP != 0 {
                if b.bitmap > 0 { b.bitmap } else { SEP_CX }
            } else {
                BUTTON_CX
            };
            let r = (x, Y_START, x.saturating_add(w), Y_START + BUTTON_CY);
            x = x.saturating_add(w);
            Some(r)
        })
        .collect()
}

/// Read `n` TBBUTTONs at `p`.
pub fn read_buttons(uc: &Uc<'_>, p: u32, n: usize) -> Option<Vec<Button>> {
    if n > MAX_BUTTONS {
        return None;
    }
    let b = farptr::read_bytes(uc, p, n * TBBUTTON_SIZE)?;
    Some(b.chunks(TBBUTTON_SIZE).map(Button::from_bytes).collect())
}

fn state(env: &mut Env, hwnd: u16) -> &mut Toolbar {
    env.win16.commctrl.toolbars.entry(hwnd).or_default()
}

/// Take its place along the parent's client area (module doc).
pub fn place(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let style = wm::style(env, hwnd);
    if style & 0x000C != 0 {
        // CCS_NORESIZE or CCS_NOPARENTALIGN.
        return Ok(());
    }
    let parent = wm::parent(env, hwnd);
    let (cx, cy) = wm::client_size(env, parent);
    let r = if style & 0x0003 == CCS_BOTTOM {
        (0, cy - HEIGHT, cx, cy)
    } else {
        (0, 0, cx, HEIGHT)
    };
    if wm::rect(env, hwnd) != r {
        wm::move_window(env, uc, hwnd, r)?;
    }
    Ok(())
}

/// Draw one button (module doc).
fn draw_button(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdc: u16,
    mem: u16,
    b: &Button,
    r: R,
) -> Result<(), Stop> {
    let p = Painter { hdc, background: 0 };
    if b.style & TBSTYLE_SEP != 0 {
        return Ok(());
    }
    let down = b.state & (TBSTATE_PRESSED | TBSTATE_CHECKED) != 0;
    let face = if b.state & TBSTATE_CHECKED != 0 && b.state & TBSTATE_PRESSED == 0 {
        COLOR_BTNHIGHLIGHT
    } else {
        COLOR_BTNFACE
    };
    p.fill(env, uc, r, sys_brush(face))?;
    // The black frame (the stock black brush).
    let black = p.stock(env, uc, 4)?;
    p.frame(env, uc, r, black)?;
    let (l, t, rt, bt) = (r.0 + 1, r.1 + 1, r.2 - 1, r.3 - 1);
    if down {
        p.fill(env, uc, (l, t, rt, t + 1), sys_brush(COLOR_BTNSHADOW))?;
        p.fill(env, uc, (l, t, l + 1, bt), sys_brush(COLOR_BTNSHADOW))?;
    } else {
        p.fill(
            env,
            uc,
            (l, t, rt - 1, t + 1),
            sys_brush(COLOR_BTNHIGHLIGHT),
        )?;
        p.fill(
            env,
            uc,
            (l, t, l + 1, bt - 1),
            sys_brush(COLOR_BTNHIGHLIGHT),
        )?;
        p.fill(env, uc, (l, bt - 2, rt, bt), sys_brush(COLOR_BTNSHADOW))?;
        p.fill(env, uc, (rt - 2, t, rt, bt), sys_brush(COLOR_BTNSHADOW))?;
    }
    if mem != 0 && b.bitmap >= 0 {
        let off = i16::from(down);
        let x = r.0 + (BUTTON_CX - BITMAP_CX) / 2 + off;
        let y = r.1 + (BUTTON_CY - BITMAP_CY) / 2 + off;
        let args = [
            u32::from(hdc),
            u32::from(x as u16),
            u32::from(y as u16),
            BITMAP_CX as u32,
            BITMAP_CY as u32,
            u32::from(mem),
            u32::from((b.bitmap * BITMAP_CX) as u16),
            0,
            0x00CC_0020,
        ];
        crate::win16::gdi::blit::bit_blt(env, uc, &args)?;
    }
    Ok(())
}

/// Paint the toolbar.
fn paint(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, hdc: u16) -> Result<(), Stop> {
    let (cx, cy) = wm::client_size(env, hwnd);
    let p = Painter { hdc, background: 0 };
    p.fill(env, uc, (0, 0, cx, cy), sys_brush(COLOR_BTNFACE))?;
    let tb = state(env, hwnd).clone();
    let mut bitmap = tb.bitmap;
    if bitmap == 0 && tb.bm_id != 0 {
        bitmap = crate::win16::user::bitmap::load_bitmap(
            env,
            uc,
            &[u32::from(tb.bm_inst), u32::from(tb.bm_id)],
        )? as u16;
        state(env, hwnd).bitmap = bitmap;
    }
    let mem = if bitmap != 0 {
        crate::win16::gdi::dc::create_compatible_dc(env, uc, &[u32::from(hdc)])? as u16
    } else {
        0
    };
    let old = if mem != 0 {
        crate::win16::gdi::objects::select_object(env, uc, &[u32::from(mem), u32::from(bitmap)])?
    } else {
        0
    };
    for (b, r) in tb.buttons.iter().zip(button_rects(&tb)) {
        if let Some(r) = r {
            draw_button(env, uc, hdc, mem, b, r)?;
        }
    }
    if mem != 0 {
        crate::win16::gdi::objects::select_object(env, uc, &[u32::from(mem), old])?;
        crate::win16::gdi::dc::delete_dc(env, uc, &[u32::from(mem)])?;
    }
    Ok(())
}

/// The index of the button with command `id`.
fn index_of(tb: &Toolbar, id: u16) -> Option<usize> {
    tb.buttons
        .iter()
        .position(|b| b.id == id && b.style & TBSTYLE_SEP == 0)
}

/// The button under client point (x, y).
fn hit(tb: &Toolbar, x: i16, y: i16) -> Option<usize> {
    button_rects(tb)
        .iter()
        .position(|r| r.is_some_and(|r| x >= r.0 && x < r.2 && y >= r.1 && y < r.3))
        .filter(|&i| tb.buttons[i].style & TBSTYLE_SEP == 0)
}

/// Set or clear `bit` of button `id`'s state: TRUE, or FALSE when no
/// button has that id.
fn set_bit(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    id: u16,
    bit: u8,
    on: bool,
) -> Result<u32, Stop> {
    let tb = state(env, hwnd);
    let Some(i) = index_of(tb, id) else {
        return Ok(0);
    };
    let s = &mut tb.buttons[i].state;
    *s = if on { *s | bit } else { *s & !bit };
    wm::invalidate(env, uc, hwnd)?;
    Ok(1)
}

/// Check button `i` of a check group: the other buttons of its group
/// (the run of TBSTYLE_CHECKGROUP buttons around it) are unchecked.
fn check_in_group(tb: &mut Toolbar, i: usize) {
    let in_group = |b: &Button| b.style & TBSTYLE_CHECKGROUP == TBSTYLE_CHECKGROUP;
    let mut lo = i;
    while lo > 0 && in_group(&tb.buttons[lo - 1]) {
        lo -= 1;
    }
    let mut hi = i;
    while hi + 1 < tb.buttons.len() && in_group(&tb.buttons[hi + 1]) {
        hi += 1;
    }
    for (j, b) in tb.buttons.iter_mut().enumerate().take(hi + 1).skip(lo) {
        if j == i {
            b.state |= TBSTATE_CHECKED;
        } else {
            b.state &= !TBSTATE_CHECKED;
        }
    }
}

/// The toolbar's window procedure (module doc).
pub fn toolbar_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    use crate::win16::user::{WM_CREATE, WM_NCDESTROY, WM_PAINT};
    const WM_SIZE: u16 = 0x0005;
    const WM_COMMAND: u16 = 0x0111;
    const WM_LBUTTONDOWN: u16 = 0x0201;
    const WM_LBUTTONUP: u16 = 0x0202;
    const WM_LBUTTONDBLCLK: u16 = 0x0203;
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let m = msg.wrapping_sub(WM_USER);
    let flag = lparam & 0xFFFF != 0;
    match msg {
        WM_CREATE => {
            state(env, hwnd);
            place(env, uc, hwnd)?;
            return Ok(0);
        }
        WM_SIZE => {
            place(env, uc, hwnd)?;
            return Ok(0);
        }
        WM_PAINT => {
            wm::paint(env, uc, hwnd, |env, uc, hdc| paint(env, uc, hwnd, hdc))?;
            return Ok(0);
        }
        WM_LBUTTONDOWN | WM_LBUTTONDBLCLK => {
            let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
            let tb = state(env, hwnd);
            if let Some(i) = hit(tb, x, y).filter(|&i| tb.buttons[i].state & TBSTATE_ENABLED != 0) {
                tb.pressed = Some(i);
                tb.buttons[i].state |= TBSTATE_PRESSED;
                wm::invalidate(env, uc, hwnd)?;
            }
            return Ok(0);
        }
        WM_LBUTTONUP => {
            let (x, y) = (lparam as u16 as i16, (lparam >> 16) as u16 as i16);
            let tb = state(env, hwnd);
            let Some(i) = tb.pressed.take() else {
                return Ok(0);
            };
            tb.buttons[i].state &= !TBSTATE_PRESSED;
            let over = hit(tb, x, y) == Some(i);
            let b = tb.buttons[i];
            if over {
                if b.style & TBSTYLE_CHECKGROUP == TBSTYLE_CHECKGROUP {
                    check_in_group(tb, i);
                } else if b.style & TBSTYLE_CHECK != 0 {
                    tb.buttons[i].state ^= TBSTATE_CHECKED;
                }
            }
            wm::invalidate(env, uc, hwnd)?;
            if over {
                let parent = wm::parent(env, hwnd);
                wm::send(env, uc, parent, WM_COMMAND, b.id, u32::from(hwnd))?;
            }
            return Ok(0);
        }
        WM_NCDESTROY => {
            if let Some(tb) = env.win16.commctrl.toolbars.remove(&hwnd) {
                if tb.bitmap != 0 {
                    crate::win16::gdi::objects::delete_object(env, uc, &[u32::from(tb.bitmap)])?;
                }
            }
            return wm::def_proc(env, uc, hwnd, msg, wparam, lparam);
        }
        _ if msg < WM_USER => return wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
        _ => {}
    }
    let query = |env: &mut Env, bit: u8| -> u32 {
        let tb = state(env, hwnd);
        index_of(tb, wparam).map_or(0, |i| u32::from(tb.buttons[i].state & bit != 0))
    };
    match m {
        1 => set_bit(env, uc, hwnd, wparam, TBSTATE_ENABLED, flag),
        2 => set_bit(env, uc, hwnd, wparam, TBSTATE_CHECKED, flag),
        3 => set_bit(env, uc, hwnd, wparam, TBSTATE_PRESSED, flag),
        4 => set_bit(env, uc, hwnd, wparam, TBSTATE_HIDDEN, flag),
        5 => set_bit(env, uc, hwnd, wparam, TBSTATE_INDETERMINATE, flag),
        9 => Ok(query(env, TBSTATE_ENABLED)),
        10 => Ok(query(env, TBSTATE_CHECKED)),
        11 => Ok(query(env, TBSTATE_PRESSED)),
        12 => Ok(query(env, TBSTATE_HIDDEN)),
        13 => Ok(query(env, TBSTATE_INDETERMINATE)),
        17 => {
            let tb = state(env, hwnd);
            let Some(i) = index_of(tb, wparam) else {
                return Ok(0);
            };
            tb.buttons[i].state = lparam as u8;
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        18 => {
            let tb = state(env, hwnd);
            Ok(index_of(tb, wparam).map_or(u32::MAX, |i| u32::from(tb.buttons[i].state)))
        }
        20 | 21 => {
            let n = if m == 20 { usize::from(wparam) } else { 1 };
            let Some(new) = read_buttons(uc, lparam, n) else {
                return Ok(0);
            };
            let tb = state(env, hwnd);
            if tb.buttons.len() + new.len() > MAX_BUTTONS {
                return Ok(0);
            }
            let at = if m == 20 {
                tb.buttons.len()
            } else {
                usize::from(wparam).min(tb.buttons.len())
            };
            tb.buttons.splice(at..at, new);
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        22 => {
            let tb = state(env, hwnd);
            if usize::from(wparam) >= tb.buttons.len() {
                return Ok(0);
            }
            tb.buttons.remove(usize::from(wparam));
            wm::invalidate(env, uc, hwnd)?;
            Ok(1)
        }
        23 => {
            let Some(b) = state(env, hwnd).buttons.get(usize::from(wparam)).copied() else {
                return Ok(0);
            };
            Ok(u32::from(farptr::write_bytes(uc, lparam, &b.to_bytes())))
        }
        24 => Ok(state(env, hwnd).buttons.len() as u32),
        25 => Ok(index_of(state(env, hwnd), wparam).map_or(u32::MAX, |i| i as u32)),
        29 => {
            let tb = state(env, hwnd).clone();
            let Some(Some(r)) = button_rects(&tb).get(usize::from(wparam)).copied() else {
                return Ok(0);
            };
            let b: Vec<u8> = [r.0, r.1, r.2, r.3]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            Ok(u32::from(farptr::write_bytes(uc, lparam, &b)))
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(id: u16, style: u8, state: u8) -> Button {
        Button {
            bitmap: 0,
            id,
            state,
            style,
            data: 0,
            string: 0,
        }
    }

    #[test]
    fn tbbutton_round_trips() {
        let x = Button {
            bitmap: 3,
            id: 0x1234,
            state: TBSTATE_ENABLED,
            style: TBSTYLE_CHECK,
            data: 0xAABBCCDD,
            string: -1,
        };
        let bytes = x.to_bytes();
        assert_eq!(
            bytes,
            [3, 0, 0x34, 0x12, 4, 2, 0xDD, 0xCC, 0xBB, 0xAA, 0xFF, 0xFF]
        );
        assert_eq!(Button::from_bytes(&bytes), x);
    }

    #[test]
    fn buttons_and_separators_are_laid_out_left_to_right() {
        let tb = Toolbar {
            buttons: vec![
                b(1, 0, TBSTATE_ENABLED),
                b(0, TBSTYLE_SEP, 0),
                b(2, 0, TBSTATE_ENABLED | TBSTATE_HIDDEN),
                b(3, 0, TBSTATE_ENABLED),
            ],
            ..Toolbar::default()
        };
        let r = button_rects(&tb);
        assert_eq!(r[0], Some((8, 2, 32, 24)));
        assert_eq!(r[1], Some((32, 2, 40, 24)));
        assert_eq!(r[2], None);
        assert_eq!(r[3], Some((40, 2, 64, 24)));
        assert_eq!(hit(&tb, 41, 10), Some(3));
        assert_eq!(hit(&tb, 35, 10), None);
    }

    #[test]
    fn a_check_group_has_one_checked() {
        let mut tb = Toolbar {
            buttons: vec![
                b(1, TBSTYLE_CHECKGROUP, TBSTATE_CHECKED),
                b(2, TBSTYLE_CHECKGROUP, 0),
                b(0, TBSTYLE_SEP, 0),
                b(3, TBSTYLE_CHECKGROUP, TBSTATE_CHECKED),
            ],
            ..Toolbar::default()
        };
        check_in_group(&mut tb, 1);
        assert_eq!(tb.buttons[0].state & TBSTATE_CHECKED, 0);
        assert_ne!(tb.buttons[1].state & TBSTATE_CHECKED, 0);
        assert_ne!(tb.buttons[3].state & TBSTATE_CHECKED, 0);
    }
}
