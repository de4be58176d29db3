//! Dialog boxes: DialogBox, EndDialog.
//!
//! A dialog box gets WM_INITDIALOG, then, unless its procedure already ended
//! it, WM_COMMAND with the id of the task's next `dialog` script line, then
//! (if still not ended) WM_COMMAND IDCANCEL; it returns what EndDialog was
//! given (IDCANCEL when nothing ended it).

use super::message::take_answer;
use super::{
    DEFWINDOWPROC, MAX_WINDOWS, WM_COMMAND, WM_INITDIALOG, Window, event, instance_ds, string_arg,
    user_cs,
};
use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::split;
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};

const IDCANCEL: u16 = 2;

/// USER.87 DialogBox(hInstance, lpTemplateName, hWndParent, lpDialogFunc):
/// ended by the task's next `dialog` script line or IDCANCEL (module doc).
fn dialog_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let template = string_arg(uc, a[1]);
    let (hinstance, parent, proc_) = (a[0] as u16, a[2] as u16, split(a[3]));
    if env.win16.user.windows.len() >= MAX_WINDOWS {
        return Ok(0xFFFF);
    }
    let hwnd = 0x3000 + 4 * env.win16.user.windows.len() as u16;
    let htask = uc.get_data().current_task;
    env.win16.user.windows.push(Window {
        hwnd,
        class: "#32770".into(),
        title: template.clone(),
        style: 0x80C8_0000,
        rect: (40, 40, 340, 240),
        parent,
        id: 0,
        hinstance,
        wndproc: DEFWINDOWPROC,
        htask,
        visible: true,
        destroyed: false,
        needs_paint: false,
        extra: Vec::new(),
        dialog_result: None,
    });
    event(
        uc,
        format!(
            "dialog {} opened as {hwnd:04X}",
            crate::escape::quoted(&template.to_string())
        ),
    );
    let cs = user_cs(env)?;
    let ds = instance_ds(hinstance);
    let dlg = |w: u16, m: u16, wp: u16, lp: u32| {
        [CallArg::W(w), CallArg::W(m), CallArg::W(wp), CallArg::L(lp)]
    };
    call_far(env, uc, cs, proc_, ds, &[], &dlg(hwnd, WM_INITDIALOG, 0, 0))?;
    let ended = |env: &Env| {
        env.win16
            .user
            .windows
            .iter()
            .find(|w| w.hwnd == hwnd)
            .and_then(|w| w.dialog_result)
    };
    if ended(env).is_none()
        && let Some((line, id)) = take_answer(env, htask, true)
    {
        event(
            uc,
            format!("dialog {hwnd:04X} gets command {id} (script line {line})"),
        );
        call_far(env, uc, cs, proc_, ds, &[], &dlg(hwnd, WM_COMMAND, id, 0))?;
    }
    if ended(env).is_none() {
        event(uc, format!("dialog {hwnd:04X} gets IDCANCEL"));
        call_far(
            env,
            uc,
            cs,
            proc_,
            ds,
            &[],
            &dlg(hwnd, WM_COMMAND, IDCANCEL, 0),
        )?;
    }
    let result = ended(env).unwrap_or(IDCANCEL);
    if let Some(w) = env.win16.user.windows.iter_mut().find(|w| w.hwnd == hwnd) {
        w.destroyed = true;
        w.visible = false;
    }
    event(uc, format!("dialog {hwnd:04X} ended with {result}"));
    // The dialog's modal loop lets the other tasks run.
    let result = u32::from(result);
    scheduler::yield_now(env, uc, Wait::Ready, Resume::After(result))?;
    Ok(result)
}

/// USER.88 EndDialog(hDlg, nResult).
fn end_dialog(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    match env.win16.user.window_mut(a[0] as u16) {
        Some(w) => {
            w.dialog_result = Some(a[1] as u16);
            Ok(0)
        }
        None => Ok(0),
    }
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        87,
        "DIALOGBOX",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        dialog_box,
    ),
    Api::new("USER", 88, "ENDDIALOG", &[Arg::W, Arg::W], end_dialog),
];
