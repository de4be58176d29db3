//! USER's system-wide services: ending the session (ExitWindows,
//! ExitWindowsExec), WinHelp, FlashWindow, SwitchToThisWindow, the
//! resources left (GetFreeSystemResources), the timer's resolution, the
//! system's input and debugging states, UserYield, RepaintScreen, the
//! system error box, drag detection, and the installable-driver functions
//! (there are no installable drivers headless).

use super::message::send;
use super::{
    Env, Region, SW_RESTORE, Stop, Uc, WM_ENDSESSION, WM_NCACTIVATE, WM_QUERYENDSESSION,
    WS_DISABLED, bytes_arg, event, top_level_windows,
};
use crate::win16::api::{Api, Arg};

/// Ask every top-level window whether the session may end
/// (WM_QUERYENDSESSION), in z-order, stopping at the first that refuses;
/// then tell the ones asked the outcome (WM_ENDSESSION with TRUE or FALSE).
/// True when all agreed. (SDK, ExitWindows and WM_ENDSESSION; Wine's
/// 3.1-era ExitWindows16 sends WM_ENDSESSION to the windows that answered
/// before the refusal.)
fn end_session(env: &mut Env, uc: &mut Uc<'_>) -> Result<bool, Stop> {
    let mut asked = Vec::new();
    let mut all = true;
    for h in top_level_windows(env) {
        if env.win16.user.app_window(h).is_none() {
            continue;
        }
        if send(env, uc, h, WM_QUERYENDSESSION, 0, 0)? & 0xFFFF == 0 {
            all = false;
            break;
        }
        asked.push(h);
    }
    for h in asked {
        if env.win16.user.app_window(h).is_some() {
            send(env, uc, h, WM_ENDSESSION, u16::from(all), 0)?;
        }
    }
    Ok(all)
}

/// USER.7 ExitWindows(dwReturnCode, reserved) -> FALSE when an application
/// refuses; when all agree Windows ends and the function does not return:
/// the run ends with the low byte of dwReturnCode as the code Windows gave
/// MS-DOS (SDK, ExitWindows: EW_RESTARTWINDOWS 42h and EW_REBOOTSYSTEM 43h
/// restart instead, which headless is the same end).
fn exit_windows(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    event(uc, format!("ExitWindows({:08X})", a[0]));
    if end_session(env, uc)? {
        event(uc, "the Windows session ends".into());
        return Err(Stop::Exited { code: a[0] as u8 });
    }
    Ok(0)
}

/// USER.2 OldExitWindows(): ExitWindows(0, 0).
fn old_exit_windows(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    exit_windows(env, uc, &[0, 0])
}

/// USER.246 ExitWindowsExec(lpszExe, lpszParams) -> FALSE when an
/// application refuses; otherwise Windows ends to run the MS-DOS program
/// and starts again: here the run ends (code 0).
fn exit_windows_exec(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let exe = String::from_utf8_lossy(&bytes_arg(uc, a[0], 128)).into_owned();
    let params = String::from_utf8_lossy(&bytes_arg(uc, a[1], 128)).into_owned();
    event(uc, format!("ExitWindowsExec({exe:?}, {params:?})"));
    if end_session(env, uc)? {
        event(uc, "the Windows session ends".into());
        return Err(Stop::Exited { code: 0 });
    }
    Ok(0)
}

/// USER.171 WinHelp(hWnd, lpHelpFile, wCommand, dwData) -> TRUE: Windows
/// starts WINHELP.EXE with the request and returns; headless the request is
/// an event (HELP_QUIT 2 closes a help window that never opened).
fn win_help(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let file = String::from_utf8_lossy(&bytes_arg(uc, a[1], 128)).into_owned();
    event(
        uc,
        format!(
            "WinHelp({:04X}, {file:?}, {:04X}, {:08X})",
            a[0] as u16, a[2] as u16, a[3]
        ),
    );
    Ok(1)
}

/// USER.105 FlashWindow(hWnd, bInvert) -> whether the window was shown
/// active before: the caption turns the other way (bInvert) or back to
/// the window's real state, by WM_NCACTIVATE (Wine's 3.1-era FlashWindow;
/// SDK, FlashWindow).
fn flash_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    let was = w.nc_active;
    let now = if a[1] as u16 != 0 {
        !was
    } else {
        env.win16.user.active == hwnd
    };
    send(env, uc, hwnd, WM_NCACTIVATE, u16::from(now), 0)?;
    Ok(u32::from(was))
}

/// USER.172 SwitchToThisWindow(hWnd, fRestore): the window becomes active
/// and comes to the top; a minimized one is restored with fRestore.
fn switch_to_this_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let Some(w) = env.win16.user.app_window(hwnd) else {
        return Ok(0);
    };
    if w.iconic() && a[1] as u16 != 0 {
        super::winpos::show_window(env, uc, hwnd, SW_RESTORE)?;
    } else {
        super::focus::set_active(env, uc, hwnd, false, true)?;
    }
    Ok(0)
}

/// USER.284 GetFreeSystemResources(fuSysResource) -> the percentage of
/// USER's (GFSR_USERRESOURCES 2) or GDI's (GFSR_GDIRESOURCES 1) heaps
/// free, or the smaller of the two (GFSR_SYSTEMRESOURCES 0). USER's is
/// the lowest of its three heaps' KB Q61803 figures (heap.rs, Q90762);
/// GDI's is its heap's, by the same formula (gdi/heap.rs, free_percent).
fn get_free_system_resources(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let user = u32::from(user_free_percent(env, uc));
    let gdi = u32::from(crate::win16::gdi::heap::free_percent(&env.win16, uc).0);
    Ok(match a[0] as u16 {
        1 => gdi,
        2 => user,
        _ => user.min(gdi),
    })
}

/// USER's percentage of free system resources (GFSR_USERRESOURCES,
/// TOOLHELP's SYSHEAPINFO.wUserFreePercent): heap.rs.
pub fn user_free_percent(env: &Env, uc: &Uc<'_>) -> u16 {
    super::heap::free_percent(&env.win16, uc)
}

/// USER.14 GetTimerResolution() -> 1000: microseconds per timer tick
/// (Wine's GetTimerResolution16).
fn get_timer_resolution(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1000)
}

/// USER.231 GetSystemDebugState() -> 0: no debugger has the system
/// stopped (SDS_ flags none).
fn get_system_debug_state(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// USER.184 QuerySendMessage(h1, h2, h3, lpMessage) -> is a message sent
/// from another task being received, and not replied to yet (as
/// InSendMessage; undocumented; Wine's QuerySendMessage16).
fn query_send_message(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    Ok(u32::from(
        super::message::unreplied(env, htask).is_some_and(|s| s.sender != htask),
    ))
}

/// USER.226 LockInput(hReserved, hwndSysModal, fLock) -> TRUE.
fn lock_input(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// USER.331 EnableHardwareInput(fEnable) -> whether input was enabled.
fn enable_hardware_input(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = &mut env.win16.user.sys;
    let was = !s.input_disabled;
    s.input_disabled = a[0] as u16 == 0;
    Ok(u32::from(was))
}

/// USER.332 UserYield(): other tasks run (their messages too) before this
/// one goes on.
fn user_yield(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    crate::win16::scheduler::yield_(env, uc, a)
}

/// USER.333 IsUserIdle() -> TRUE: no mouse button or key is being held.
fn is_user_idle(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let k = &env.win16.user.keys;
    Ok(u32::from(k.state.iter().all(|&s| s & 0x80 == 0)))
}

/// USER.276 LockMyTask(fLock) -> 0 (undocumented; nothing is locked).
fn lock_my_task(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// USER.275 RepaintScreen(): every window is drawn again.
fn repaint_screen(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let screen = env.win16.user.screen();
    super::paint::paint_desktop(env, uc, &Region::rect(screen));
    super::paint::invalidate_all(env);
    Ok(0)
}

/// USER.279 OldSetDeskPattern() -> TRUE: the desktop pattern is read from
/// WIN.INI again (there is none; the desktop is drawn again).
fn old_set_desk_pattern(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    repaint_screen(env, uc, a)?;
    Ok(1)
}

/// USER.274 GetNextQueueWindow(hWnd, bPrevious) -> the next (or previous)
/// visible, enabled top-level window after hWnd's top-level window that
/// Alt+Tab would switch to: unowned, another than it; 0 when there is none.
fn get_next_queue_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let u = &env.win16.user;
    let top = u.top_level(a[0] as u16);
    let mut list = top_level_windows(env);
    if a[1] as u16 != 0 {
        list.reverse();
    }
    let Some(i) = list.iter().position(|&h| h == top) else {
        return Ok(0);
    };
    let next = list[i + 1..]
        .iter()
        .chain(list[..i].iter())
        .copied()
        .find(|&h| {
            u.app_window(h)
                .is_some_and(|w| w.visible() && w.style & WS_DISABLED == 0 && w.owner == 0)
        });
    Ok(u32::from(next.unwrap_or(0)))
}

/// USER.320 SysErrorBox(lpszText, lpszCaption, wBtn1, wBtn2, wBtn3) -> the
/// number (1 to 3) of the button chosen: the one marked SEB_DEFBUTTON
/// (8000h), else the first (headless, nobody presses another; the box is
/// an event).
fn sys_error_box(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const SEB_DEFBUTTON: u16 = 0x8000;
    let text = String::from_utf8_lossy(&bytes_arg(uc, a[0], 256)).into_owned();
    let caption = String::from_utf8_lossy(&bytes_arg(uc, a[1], 128)).into_owned();
    let buttons = [a[2] as u16, a[3] as u16, a[4] as u16];
    let chosen = buttons
        .iter()
        .position(|&b| b & SEB_DEFBUTTON != 0)
        .or_else(|| buttons.iter().position(|&b| b != 0))
        .unwrap_or(0) as u32
        + 1;
    event(
        uc,
        format!("SysErrorBox {caption:?}: {text:?} -> button {chosen}"),
    );
    Ok(chosen)
}

/// USER.465 DragDetect(hWnd, pt) -> FALSE: the mouse does not move with a
/// button held (the script clicks in place).
fn drag_detect(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// USER.464 DragObject(hwndParent, hwndFrom, wFmt, dwData, hCursor) -> 0:
/// nothing was dropped.
fn drag_object(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

// ------------------------------------------------ installable drivers

/// USER.252 OpenDriver(lpDriverName, lpSectionName, lParam) -> 0: no
/// installable driver is installed (SYSTEM.INI's [drivers] names none).
fn open_driver(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = String::from_utf8_lossy(&bytes_arg(uc, a[0], 128)).into_owned();
    event(uc, format!("OpenDriver({name:?}): no such driver"));
    Ok(0)
}

/// USER.253 CloseDriver(hDriver, lParam1, lParam2) -> 0;
/// USER.251 SendDriverMessage(hDriver, msg, lParam1, lParam2) -> 0;
/// USER.254 GetDriverModuleHandle(hDriver) -> 0;
/// USER.256 GetDriverInfo(hDriver, lpInfo) -> FALSE;
/// USER.257 GetNextDriver(hDriver, fFlags) -> 0: there are no drivers.
fn no_driver(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// USER.255 DefDriverProc(dwDriverID, hDriver, wMessage, lParam1,
/// lParam2): DRV_LOAD, DRV_FREE, DRV_ENABLE and DRV_DISABLE → 1,
/// DRV_INSTALL and DRV_REMOVE → DRVCNF_OK (1), anything else 0 (SDK,
/// DefDriverProc; Wine's DefDriverProc16).
fn def_driver_proc(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const DRV_LOAD: u16 = 1;
    const DRV_ENABLE: u16 = 2;
    const DRV_DISABLE: u16 = 5;
    const DRV_FREE: u16 = 6;
    const DRV_INSTALL: u16 = 9;
    const DRV_REMOVE: u16 = 10;
    Ok(u32::from(matches!(
        a[2] as u16,
        DRV_LOAD | DRV_ENABLE | DRV_DISABLE | DRV_FREE | DRV_INSTALL | DRV_REMOVE
    )))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 2, "OLDEXITWINDOWS", &[], old_exit_windows),
    Api::new("USER", 7, "EXITWINDOWS", &[Arg::L, Arg::W], exit_windows),
    Api::new("USER", 14, "GETTIMERRESOLUTION", &[], get_timer_resolution),
    Api::new("USER", 105, "FLASHWINDOW", &[Arg::W, Arg::W], flash_window),
    Api::new(
        "USER",
        171,
        "WINHELP",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        win_help,
    ),
    Api::new(
        "USER",
        172,
        "SWITCHTOTHISWINDOW",
        &[Arg::W, Arg::W],
        switch_to_this_window,
    ),
    Api::new(
        "USER",
        184,
        "QUERYSENDMESSAGE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        query_send_message,
    ),
    Api::new(
        "USER",
        226,
        "LOCKINPUT",
        &[Arg::W, Arg::W, Arg::W],
        lock_input,
    ),
    Api::new(
        "USER",
        231,
        "GETSYSTEMDEBUGSTATE",
        &[],
        get_system_debug_state,
    ),
    Api::new(
        "USER",
        246,
        "EXITWINDOWSEXEC",
        &[Arg::L, Arg::L],
        exit_windows_exec,
    ),
    Api::new(
        "USER",
        251,
        "SENDDRIVERMESSAGE",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        no_driver,
    ),
    Api::new(
        "USER",
        252,
        "OPENDRIVER",
        &[Arg::L, Arg::L, Arg::L],
        open_driver,
    ),
    Api::new(
        "USER",
        253,
        "CLOSEDRIVER",
        &[Arg::W, Arg::L, Arg::L],
        no_driver,
    ),
    Api::new("USER", 254, "GETDRIVERMODULEHANDLE", &[Arg::W], no_driver),
    Api::new(
        "USER",
        255,
        "DEFDRIVERPROC",
        &[Arg::L, Arg::W, Arg::W, Arg::L, Arg::L],
        def_driver_proc,
    ),
    Api::new("USER", 256, "GETDRIVERINFO", &[Arg::W, Arg::L], no_driver),
    Api::new("USER", 257, "GETNEXTDRIVER", &[Arg::W, Arg::L], no_driver),
    Api::new(
        "USER",
        274,
        "GETNEXTQUEUEWINDOW",
        &[Arg::W, Arg::W],
        get_next_queue_window,
    ),
    Api::new("USER", 275, "REPAINTSCREEN", &[], repaint_screen),
    Api::new("USER", 276, "LOCKMYTASK", &[Arg::W], lock_my_task),
    Api::new("USER", 279, "OLDSETDESKPATTERN", &[], old_set_desk_pattern),
    Api::new(
        "USER",
        284,
        "GETFREESYSTEMRESOURCES",
        &[Arg::W],
        get_free_system_resources,
    ),
    Api::new(
        "USER",
        320,
        "SYSERRORBOX",
        &[Arg::L, Arg::L, Arg::W, Arg::W, Arg::W],
        sys_error_box,
    ),
    Api::new(
        "USER",
        331,
        "ENABLEHARDWAREINPUT",
        &[Arg::W],
        enable_hardware_input,
    ),
    Api::new("USER", 332, "USERYIELD", &[], user_yield),
    Api::new("USER", 333, "ISUSERIDLE", &[], is_user_idle),
    Api::new(
        "USER",
        464,
        "DRAGOBJECT",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::W],
        drag_object,
    ),
    Api::new("USER", 465, "DRAGDETECT", &[Arg::W, Arg::L], drag_detect),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
