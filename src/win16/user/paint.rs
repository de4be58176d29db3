//! Painting: the update state, UpdateWindow, InvalidateRect, ValidateRect,
//! BeginPaint/EndPaint and the window device contexts (GetDC, ReleaseDC).

use super::{WM_PAINT, client_size, event, put, send};
use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::split;

/// USER.124 UpdateWindow(hWnd): WM_PAINT now if the window needs it.
fn update_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if env
        .win16
        .user
        .window(hwnd)
        .is_some_and(|w| w.needs_paint && w.visible)
    {
        send(env, uc, hwnd, WM_PAINT, 0, 0)?;
        if let Some(w) = env.win16.user.window_mut(hwnd) {
            // A procedure that did not paint leaves the region valid
            // anyway once DefWindowProc or BeginPaint ran; either way
            // UpdateWindow sends one WM_PAINT.
            w.needs_paint = false;
        }
    }
    Ok(0)
}

/// USER.125 InvalidateRect(hWnd, lpRect, bErase).
fn invalidate_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(w) = env.win16.user.window_mut(a[0] as u16) {
        w.needs_paint = true;
    }
    Ok(0)
}

/// USER.127 ValidateRect(hWnd, lpRect).
fn validate_rect(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(w) = env.win16.user.window_mut(a[0] as u16) {
        w.needs_paint = false;
    }
    Ok(0)
}

/// The device context handle of a window (GetDC, BeginPaint).
fn dc_of(hwnd: u16) -> u16 {
    0x5000 | (hwnd & 0x0FFF)
}

/// USER.39 BeginPaint(hWnd, lpPaint) -> HDC; fills PAINTSTRUCT (hdc,
/// fErase, rcPaint = the client area).
fn begin_paint(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(0);
    };
    w.needs_paint = false;
    let (cx, cy) = client_size(w, false);
    let mut ps = [0u8; 32];
    put(&mut ps, 0, dc_of(hwnd));
    put(&mut ps, 2, 1);
    put(&mut ps, 8, cx as u16);
    put(&mut ps, 10, cy as u16);
    let (seg, off) = split(a[1]);
    if uc.write_seg(seg, off, &ps).is_err() {
        return Ok(0);
    }
    event(uc, format!("paint {hwnd:04X} begins"));
    Ok(u32::from(dc_of(hwnd)))
}

/// USER.40 EndPaint(hWnd, lpPaint).
fn end_paint(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    event(uc, format!("paint {:04X} ends", a[0] as u16));
    crate::win16::gdi::screen::after_paint(env);
    Ok(1)
}

/// USER.66 GetDC(hWnd).
fn get_dc(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(dc_of(a[0] as u16)))
}

/// USER.68 ReleaseDC(hWnd, hDC).
fn release_dc(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 39, "BEGINPAINT", &[Arg::W, Arg::L], begin_paint),
    Api::new("USER", 40, "ENDPAINT", &[Arg::W, Arg::L], end_paint),
    Api::new("USER", 66, "GETDC", &[Arg::W], get_dc),
    Api::new("USER", 68, "RELEASEDC", &[Arg::W, Arg::W], release_dc),
    Api::new("USER", 124, "UPDATEWINDOW", &[Arg::W], update_window),
    Api::new(
        "USER",
        125,
        "INVALIDATERECT",
        &[Arg::W, Arg::L, Arg::W],
        invalidate_rect,
    ),
    Api::new(
        "USER",
        127,
        "VALIDATERECT",
        &[Arg::W, Arg::L],
        validate_rect,
    ),
];
