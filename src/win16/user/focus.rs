//! The active window, the keyboard focus, the mouse capture and the
//! system-modal window: SetActiveWindow, SetFocus, SetCapture and what
//! their changes send.
//!
//! **Activation** (Wine's tested notes, documentation/gui, "ShowWindow for
//! overlapped window", confirmed for Win16, and its 3.1-era
//! WINPOS_SetActiveWindow): the WH_CBT hook (HCBT_ACTIVATE) may refuse;
//! the window losing activation gets WM_NCACTIVATE (FALSE; a FALSE answer
//! keeps it active) and WM_ACTIVATE (WA_INACTIVE, lParam = MAKELONG(the
//! window gaining it, whether the loser is minimized)); the new window is
//! brought to the top (SetWindowPos(HWND_TOP)); when the active task
//! changes, every top-level window of the old task gets WM_ACTIVATEAPP
//! (FALSE, the new task) and every one of the new task WM_ACTIVATEAPP
//! (TRUE, the old task); the new window gets WM_NCACTIVATE (TRUE) and
//! WM_ACTIVATE (WA_ACTIVE or WA_CLICKACTIVE, lParam = MAKELONG(the window
//! losing it, whether the winner is minimized)); DefWindowProc answers
//! WM_ACTIVATE by giving the window the focus. 16-colour VGA has no
//! palette, so WM_QUERYNEWPALETTE is not sent (the notes: "if in
//! 256-color mode").
//!
//! **Focus** (Wine's 3.1-era SetFocus): a child cannot take the focus
//! while it or a parent below the top-level window is minimized or
//! disabled; the WH_CBT hook (HCBT_SETFOCUS) may refuse; the top-level
//! window is activated first if it is not active; then the old focus gets
//! WM_KILLFOCUS (wParam the new one) and the new one WM_SETFOCUS (wParam
//! the old one), the focus having moved before the first message.

use super::message::send;
use super::winpos::set_window_pos;
use super::{
    DESKTOP, Env, HCBT_ACTIVATE, HCBT_SETFOCUS, HWND_TOP, SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE,
    Stop, Uc, User, WA_ACTIVE, WA_CLICKACTIVE, WA_INACTIVE, WM_ACTIVATE, WM_ACTIVATEAPP,
    WM_KILLFOCUS, WM_NCACTIVATE, WM_SETFOCUS, WS_CHILD, WS_DISABLED, WS_MINIMIZE, WS_POPUP, event,
    makelong, put, top_level_windows,
};
use crate::win16::api::{Api, Arg};

/// Can the window be activated: visible and enabled?
fn good_enough(u: &User, hwnd: u16) -> bool {
    u.app_window(hwnd)
        .is_some_and(|w| w.enabled() && w.visible())
}

/// Make `hwnd` the active window (0: none) — module doc. False when
/// nothing changed or a message refused it.
pub fn set_active(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    mouse: bool,
    change_focus: bool,
) -> Result<bool, Stop> {
    let u = &env.win16.user;
    if hwnd == DESKTOP || hwnd == u.active {
        return Ok(false);
    }
    let prev = u.active;
    // CBTACTIVATESTRUCT: fMouse, hWndActive.
    let mut cbt = [0u8; 4];
    put(&mut cbt, 0, u16::from(mouse));
    put(&mut cbt, 2, prev);
    if super::hook::cbt_struct(env, uc, HCBT_ACTIVATE, hwnd, &cbt)? {
        return Ok(false);
    }
    if env.win16.user.app_window(prev).is_some() {
        let r = send(env, uc, prev, WM_NCACTIVATE, 0, 0)?;
        if r & 0xFFFF == 0 && env.win16.user.sysmodal != hwnd {
            return Ok(false);
        }
        let winner_iconic = env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic());
        let _ = winner_iconic;
        let loser_iconic = env.win16.user.app_window(prev).is_some_and(|w| w.iconic());
        send(
            env,
            uc,
            prev,
            WM_ACTIVATE,
            WA_INACTIVE,
            makelong(hwnd, u16::from(loser_iconic)),
        )?;
        if env.win16.user.active != prev {
            return Ok(false);
        }
    }
    {
        let u = &mut env.win16.user;
        u.prev_active = prev;
        u.active = hwnd;
    }
    if hwnd != 0 {
        event(uc, format!("window {hwnd:04X} active"));
    }
    let top_level = env
        .win16
        .user
        .app_window(hwnd)
        .is_some_and(|w| !w.is_child());
    if top_level {
        set_window_pos(
            env,
            uc,
            hwnd,
            HWND_TOP,
            0,
            0,
            0,
            0,
            SWP_NOSIZE | SWP_NOMOVE | SWP_NOACTIVATE,
        )?;
        if env.win16.user.app_window(hwnd).is_none() {
            return Ok(false);
        }
    }
    let old_task = env.win16.user.active_task;
    let new_task = env.win16.user.app_window(hwnd).map_or(0, |w| w.htask);
    if old_task != new_task {
        if old_task != 0 {
            for h in task_top_windows(env, old_task) {
                send(env, uc, h, WM_ACTIVATEAPP, 0, u32::from(new_task))?;
            }
        }
        env.win16.user.active_task = new_task;
        if new_task != 0 {
            for h in task_top_windows(env, new_task) {
                send(env, uc, h, WM_ACTIVATEAPP, 1, u32::from(old_task))?;
            }
        }
        if env.win16.user.app_window(hwnd).is_none() && hwnd != 0 {
            return Ok(false);
        }
    }
    if hwnd != 0 {
        // The unowned window at the root of the owner chain remembers its
        // last active pop-up.
        let mut root = hwnd;
        for _ in 0..64 {
            match env.win16.user.app_window(root).map(|w| w.owner) {
                Some(o) if o != 0 => root = o,
                _ => break,
            }
        }
        if let Some(r) = env.win16.user.window_mut(root) {
            r.last_active = hwnd;
        }
        let iconic = env.win16.user.app_window(hwnd).is_some_and(|w| w.iconic());
        send(env, uc, hwnd, WM_NCACTIVATE, 1, 0)?;
        let how = if mouse { WA_CLICKACTIVE } else { WA_ACTIVE };
        send(
            env,
            uc,
            hwnd,
            WM_ACTIVATE,
            how,
            makelong(prev, u16::from(iconic)),
        )?;
        if env.win16.user.app_window(hwnd).is_none() {
            return Ok(false);
        }
    }
    if change_focus {
        let u = &env.win16.user;
        let f = u.focus;
        if f != 0 && u.top_level(f) != u.active {
            let to = match u.app_window(u.active) {
                Some(w) if !w.iconic() => u.active,
                _ => 0,
            };
            switch_focus(env, uc, f, to)?;
        }
    }
    Ok(env.win16.user.active == hwnd)
}

/// The top-level windows of a task.
fn task_top_windows(env: &Env, htask: u16) -> Vec<u16> {
    top_level_windows(env)
        .into_iter()
        .filter(|&h| env.win16.user.window(h).is_some_and(|w| w.htask == htask))
        .collect()
}

/// SetWindowPos's activation of a top-level window.
pub fn change_active(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, mouse: bool) -> Result<bool, Stop> {
    if hwnd == env.win16.user.active {
        return Ok(false);
    }
    set_active(env, uc, hwnd, mouse, true)
}

/// What a window being hidden or destroyed gives up: the activation goes
/// to its owner (a pop-up's, when it can take it), to the window active
/// before, or to the next top-level window that can; the focus leaves it
/// (to its parent for a child); its caret goes.
pub fn after_hide(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(());
    };
    let (child, owner, popup, parent) = (w.is_child(), w.owner, w.style & WS_POPUP != 0, w.parent);
    if env.win16.user.active == hwnd {
        let u = &env.win16.user;
        let next = if popup && good_enough(u, owner) {
            owner
        } else if u.prev_active != hwnd && good_enough(u, u.prev_active) {
            u.prev_active
        } else {
            top_level_windows(env)
                .into_iter()
                .find(|&h| {
                    h != hwnd && good_enough(&env.win16.user, h) && {
                        let x = env.win16.user.window(h);
                        x.is_some_and(|x| x.owner == 0 || x.owner != hwnd)
                    }
                })
                .unwrap_or(0)
        };
        set_active(env, uc, next, false, true)?;
    }
    if env.win16.user.caret.hwnd == hwnd {
        super::caret::destroy_caret_now(env, uc);
    }
    let u = &env.win16.user;
    let f = u.focus;
    if f != 0 && (f == hwnd || u.is_descendant(hwnd, f)) {
        let to = if child { parent } else { 0 };
        set_focus(env, uc, to)?;
    }
    Ok(())
}

/// Move the focus from `from` to `to`, with WM_KILLFOCUS and WM_SETFOCUS.
fn switch_focus(env: &mut Env, uc: &mut Uc<'_>, from: u16, to: u16) -> Result<(), Stop> {
    env.win16.user.focus = to;
    if from != 0 && env.win16.user.window(from).is_some() {
        send(env, uc, from, WM_KILLFOCUS, to, 0)?;
    }
    if to == 0 || env.win16.user.focus != to || env.win16.user.window(to).is_none() {
        return Ok(());
    }
    send(env, uc, to, WM_SETFOCUS, from, 0)?;
    Ok(())
}

/// SetFocus (module doc): the previous focus, 0 when refused.
pub fn set_focus(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<u16, Stop> {
    let u = &env.win16.user;
    if hwnd != 0 {
        if u.app_window(hwnd).is_none() {
            return Ok(0);
        }
        let mut top = hwnd;
        for _ in 0..64 {
            let Some(w) = u.app_window(top) else {
                return Ok(0);
            };
            if w.style & (WS_CHILD | WS_POPUP) != WS_CHILD {
                break;
            }
            if w.style & (WS_MINIMIZE | WS_DISABLED) != 0 {
                return Ok(0);
            }
            top = w.parent;
        }
        if hwnd == u.focus {
            return Ok(hwnd);
        }
        let old = u.focus;
        if super::hook::cbt(env, uc, HCBT_SETFOCUS, hwnd, u32::from(old))? {
            return Ok(0);
        }
        if top != env.win16.user.active {
            if !set_active(env, uc, top, false, false)? {
                return Ok(0);
            }
            if env.win16.user.app_window(hwnd).is_none() {
                return Ok(0);
            }
        }
    } else {
        let old = u.focus;
        if super::hook::cbt(env, uc, HCBT_SETFOCUS, 0, u32::from(old))? {
            return Ok(0);
        }
    }
    let prev = env.win16.user.focus;
    if prev != hwnd {
        switch_focus(env, uc, prev, hwnd)?;
    }
    Ok(prev)
}

/// USER.22 SetFocus(hWnd) -> the window that had the focus.
fn set_focus_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(set_focus(env, uc, a[0] as u16)?))
}

/// USER.23 GetFocus().
fn get_focus(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.focus))
}

/// USER.59 SetActiveWindow(hWnd) -> the previously active window (0 when a
/// hidden or disabled window was given).
fn set_active_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let prev = env.win16.user.active;
    if !good_enough(&env.win16.user, hwnd) {
        return Ok(0);
    }
    let top = env.win16.user.top_level(hwnd);
    set_active(env, uc, top, false, false)?;
    Ok(u32::from(prev))
}

/// USER.60 GetActiveWindow().
fn get_active_window(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.active))
}

/// USER.18 SetCapture(hWnd) -> the window that had the capture.
fn set_capture(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let u = &mut env.win16.user;
    let prev = u.capture;
    if u.app_window(hwnd).is_some() {
        u.capture = hwnd;
    }
    Ok(u32::from(prev))
}

/// ReleaseCapture: the mouse goes back to the window under it.
pub fn release_capture(env: &mut Env, _uc: &mut Uc<'_>) -> Result<(), Stop> {
    env.win16.user.capture = 0;
    Ok(())
}

/// USER.19 ReleaseCapture().
fn release_capture_api(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    release_capture(env, uc)?;
    Ok(0)
}

/// USER.236 GetCapture().
fn get_capture(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.capture))
}

/// USER.188 SetSysModalWindow(hWnd) -> the previous system-modal window;
/// the window is activated.
fn set_sys_modal_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let prev = env.win16.user.sysmodal;
    if env.win16.user.app_window(hwnd).is_some() {
        env.win16.user.sysmodal = hwnd;
        set_active(env, uc, env.win16.user.top_level(hwnd), false, true)?;
    } else if hwnd == 0 {
        env.win16.user.sysmodal = 0;
    }
    Ok(u32::from(prev))
}

/// USER.189 GetSysModalWindow().
fn get_sys_modal_window(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.sysmodal))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 18, "SETCAPTURE", &[Arg::W], set_capture),
    Api::new("USER", 19, "RELEASECAPTURE", &[], release_capture_api),
    Api::new("USER", 22, "SETFOCUS", &[Arg::W], set_focus_api),
    Api::new("USER", 23, "GETFOCUS", &[], get_focus),
    Api::new("USER", 59, "SETACTIVEWINDOW", &[Arg::W], set_active_window),
    Api::new("USER", 60, "GETACTIVEWINDOW", &[], get_active_window),
    Api::new(
        "USER",
        188,
        "SETSYSMODALWINDOW",
        &[Arg::W],
        set_sys_modal_window,
    ),
    Api::new("USER", 189, "GETSYSMODALWINDOW", &[], get_sys_modal_window),
    Api::new("USER", 236, "GETCAPTURE", &[], get_capture),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
