//! DefWindowProc: what a window procedure leaves to USER.

use super::window::destroy;
use super::{WM_CLOSE, WM_ERASEBKGND, WM_NCCREATE, WM_PAINT, WM_SYSCOMMAND, send};
use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};

const SC_CLOSE: u16 = 0xF060;

/// DefWindowProc's answers.
pub(super) fn def_window_proc_impl(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    if let Some(r) = super::menu::track::def_window_proc(env, uc, hwnd, msg, wparam, lparam)? {
        return Ok(r);
    }
    Ok(match msg {
        WM_NCCREATE => 1,
        WM_CLOSE => {
            destroy(env, uc, hwnd)?;
            0
        }
        WM_PAINT => {
            if let Some(w) = env.win16.user.window_mut(hwnd) {
                w.needs_paint = false;
            }
            0
        }
        WM_ERASEBKGND => 1,
        WM_SYSCOMMAND if wparam & 0xFFF0 == SC_CLOSE => {
            send(env, uc, hwnd, WM_CLOSE, 0, 0)?;
            0
        }
        _ => 0,
    })
}

/// USER.107 DefWindowProc(hWnd, msg, wParam, lParam).
fn def_window_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    def_window_proc_impl(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3])
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    107,
    "DEFWINDOWPROC",
    &[Arg::W, Arg::W, Arg::W, Arg::L],
    def_window_proc,
)];
