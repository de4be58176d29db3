//! Window scroll bars: SetScrollPos, GetScrollPos, SetScrollRange,
//! GetScrollRange, ShowScrollBar, EnableScrollBar.
//!
//! A window's scroll bars (SB_HORZ, SB_VERT) are part of its frame: they
//! show while the window has WS_HSCROLL / WS_VSCROLL. Their state, and a
//! SCROLLBAR control's (SB_CTL, kept in the control window's own record
//! for its window procedure), is a [`ScrollBar`]: a range (0..100 by
//! default), a position kept inside it, and the arrows EnableScrollBar
//! disabled. As the SDK says: setting a window scroll bar's range to
//! nothing (nMinPos = nMaxPos) hides it, another range shows it again;
//! showing or hiding one changes the frame, so the window gets
//! WM_NCCALCSIZE and, its client area changing, WM_SIZE.

use super::winpos::set_window_pos;
use super::{
    DESKTOP, Env, RDW_INVALIDATE, SB_BOTH, SB_CTL, SB_HORZ, SB_VERT, SW_HIDE, SW_SHOW,
    SWP_FRAMECHANGED, SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SWP_NOZORDER, ScrollBar, Stop, Uc,
    WS_HSCROLL, WS_VSCROLL, split,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};

/// The style bit of a window scroll bar.
fn style_of(bar: u16) -> u32 {
    match bar {
        SB_HORZ => WS_HSCROLL,
        SB_VERT => WS_VSCROLL,
        SB_BOTH => WS_HSCROLL | WS_VSCROLL,
        _ => 0,
    }
}

/// The state of a scroll bar (SB_HORZ, SB_VERT, SB_CTL) of a window.
pub fn bar(env: &Env, hwnd: u16, which: u16) -> Option<ScrollBar> {
    env.win16
        .user
        .app_window(hwnd)
        .and_then(|w| w.scroll.get(usize::from(which)).copied())
}

/// The state of a scroll bar, to change.
pub fn bar_mut(env: &mut Env, hwnd: u16, which: u16) -> Option<&mut ScrollBar> {
    if hwnd == DESKTOP {
        return None;
    }
    env.win16
        .user
        .window_mut(hwnd)
        .and_then(|w| w.scroll.get_mut(usize::from(which)))
}

/// The scroll bar is drawn again: a window's as part of its frame, a
/// control's as its client area.
fn redraw_bar(env: &mut Env, hwnd: u16, which: u16) {
    if which == SB_CTL {
        super::paint::redraw(env, hwnd, None, RDW_INVALIDATE);
    } else if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.frame = true;
    }
}

/// Show or hide window scroll bars: the style changes and the frame is
/// recalculated (SetWindowPos with SWP_FRAMECHANGED).
pub fn show_bars(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    which: u16,
    show: bool,
) -> Result<(), Stop> {
    let bits = style_of(which);
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(());
    };
    let old = w.style;
    if show {
        w.style |= bits;
    } else {
        w.style &= !bits;
    }
    if w.style != old {
        set_window_pos(
            env,
            uc,
            hwnd,
            0,
            0,
            0,
            0,
            0,
            SWP_FRAMECHANGED | SWP_NOSIZE | SWP_NOMOVE | SWP_NOZORDER | SWP_NOACTIVATE,
        )?;
    }
    Ok(())
}

/// Set a window scroll bar's range and position at once (the position
/// kept within the range); an empty range hides it, another shows it.
pub fn set_bar(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    which: u16,
    min: i16,
    max: i16,
    pos: i16,
) -> Result<(), Stop> {
    let Some(b) = bar_mut(env, hwnd, which) else {
        return Ok(());
    };
    b.min = min;
    b.max = max;
    b.pos = pos.clamp(min.min(max), max.max(min));
    if which == SB_HORZ || which == SB_VERT {
        show_bars(env, uc, hwnd, which, min != max)?;
    }
    redraw_bar(env, hwnd, which);
    Ok(())
}

/// USER.62 SetScrollPos(hWnd, nBar, nPos, bRedraw) -> the previous
/// position (the new one is kept within the range).
fn set_scroll_pos(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, which, pos, redraw) = (
        a[0] as u16,
        a[1] as u16,
        a[2] as u16 as i16,
        a[3] as u16 != 0,
    );
    let Some(b) = bar_mut(env, hwnd, which) else {
        return Ok(0);
    };
    let old = b.pos;
    b.pos = pos.clamp(b.min.min(b.max), b.max.max(b.min));
    if redraw {
        redraw_bar(env, hwnd, which);
    }
    Ok(u32::from(old as u16))
}

/// USER.63 GetScrollPos(hWnd, nBar).
fn get_scroll_pos(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(bar(env, a[0] as u16, a[1] as u16).map_or(0, |b| u32::from(b.pos as u16)))
}

/// USER.64 SetScrollRange(hWnd, nBar, nMinPos, nMaxPos, bRedraw): the
/// position moves into the new range; a window scroll bar with an empty
/// range is hidden, one with a range shown.
fn set_scroll_range(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, which) = (a[0] as u16, a[1] as u16);
    let (min, max, redraw) = (a[2] as u16 as i16, a[3] as u16 as i16, a[4] as u16 != 0);
    if i32::from(max) - i32::from(min) > 0x7FFF {
        return Ok(0);
    }
    let Some(b) = bar_mut(env, hwnd, which) else {
        return Ok(0);
    };
    b.min = min;
    b.max = max;
    b.pos = b.pos.clamp(min.min(max), max.max(min));
    if which == SB_HORZ || which == SB_VERT {
        show_bars(env, uc, hwnd, which, min != max)?;
    }
    if redraw {
        redraw_bar(env, hwnd, which);
    }
    Ok(0)
}

/// USER.65 GetScrollRange(hWnd, nBar, lpMinPos, lpMaxPos).
fn get_scroll_range(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, which) = (a[0] as u16, a[1] as u16);
    let b = bar(env, hwnd, which).unwrap_or(ScrollBar {
        min: 0,
        max: 0,
        pos: 0,
        disabled: 0,
    });
    // A window without the scroll bar reports 0, 0 (SDK, GetScrollRange).
    let shown = which == SB_CTL
        || env
            .win16
            .user
            .app_window(hwnd)
            .is_some_and(|w| w.style & style_of(which) != 0);
    let (lo, hi) = if shown { (b.min, b.max) } else { (0, 0) };
    let (s1, o1) = split(a[2]);
    let (s2, o2) = split(a[3]);
    let _ = uc.write_u16_at(s1, o1, lo as u16);
    let _ = uc.write_u16_at(s2, o2, hi as u16);
    Ok(0)
}

/// USER.267 ShowScrollBar(hWnd, wBar, bShow): a window's scroll bars, or a
/// scroll-bar control (SB_CTL) as a window.
fn show_scroll_bar(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, which, show) = (a[0] as u16, a[1] as u16, a[2] as u16 != 0);
    if which == SB_CTL {
        super::winpos::show_window(env, uc, hwnd, if show { SW_SHOW } else { SW_HIDE })?;
    } else {
        show_bars(env, uc, hwnd, which, show)?;
    }
    Ok(0)
}

/// USER.482 EnableScrollBar(hWnd, wSBflags, wArrows) -> whether anything
/// changed (ESB_ENABLE_BOTH 0, ESB_DISABLE_LTUP 1, ESB_DISABLE_RTDN 2,
/// ESB_DISABLE_BOTH 3).
fn enable_scroll_bar(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, which, arrows) = (a[0] as u16, a[1] as u16, a[2] as u16 & 3);
    let bars: &[u16] = match which {
        SB_BOTH => &[SB_HORZ, SB_VERT],
        SB_HORZ => &[SB_HORZ],
        SB_VERT => &[SB_VERT],
        SB_CTL => &[SB_CTL],
        _ => return Ok(0),
    };
    let mut changed = false;
    for &b in bars {
        if let Some(s) = bar_mut(env, hwnd, b)
            && s.disabled != arrows
        {
            s.disabled = arrows;
            changed = true;
        }
    }
    if changed {
        for &b in bars {
            redraw_bar(env, hwnd, b);
        }
    }
    Ok(u32::from(changed))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        62,
        "SETSCROLLPOS",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        set_scroll_pos,
    ),
    Api::new(
        "USER",
        63,
        "GETSCROLLPOS",
        &[Arg::W, Arg::W],
        get_scroll_pos,
    ),
    Api::new(
        "USER",
        64,
        "SETSCROLLRANGE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        set_scroll_range,
    ),
    Api::new(
        "USER",
        65,
        "GETSCROLLRANGE",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        get_scroll_range,
    ),
    Api::new(
        "USER",
        267,
        "SHOWSCROLLBAR",
        &[Arg::W, Arg::W, Arg::W],
        show_scroll_bar,
    ),
    Api::new(
        "USER",
        482,
        "ENABLESCROLLBAR",
        &[Arg::W, Arg::W, Arg::W],
        enable_scroll_bar,
    ),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
