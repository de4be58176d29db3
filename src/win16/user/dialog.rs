//! Dialog boxes: DialogBox, EndDialog.
//!
//! A dialog box gets WM_INITDIALOG, then, unless its procedure already ended
//! it, WM_COMMAND with the id of the task's next `dialog` script line, then
//! (if still not ended) WM_COMMAND IDCANCEL; it returns what EndDialog was
//! given (IDCANCEL when nothing ended it).

use super::message::take_answer;
use super::{
    DEFWINDOWPROC, HWND_BASE, HWND_TOP, WM_COMMAND, WM_INITDIALOG, Window, event, instance_ds,
    string_arg, user_cs,
};
use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::split;
use crate::win16::geom::Rect;
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};

const IDCANCEL: u16 = 2;

/// USER.87 DialogBox(hInstance, lpTemplateName, hWndParent, lpDialogFunc):
/// ended by the task's next `dialog` script line or IDCANCEL (module doc).
fn dialog_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let template = string_arg(uc, a[1]);
    let (hinstance, parent, proc_) = (a[0] as u16, a[2] as u16, split(a[3]));
    // The dialog window's record (until dialogs are built from their
    // templates): a pop-up of the dialog class, owned by the parent.
    super::class::ensure_system_classes(env, uc);
    let Some(slot) = env.win16.user.free_slot() else {
        return Ok(0xFFFF);
    };
    let Some(class) = env
        .win16
        .user
        .classes
        .iter()
        .find(|c| c.name == "#32770")
        .cloned()
    else {
        return Ok(0xFFFF);
    };
    let hwnd = HWND_BASE + 4 * slot as u16;
    let htask = uc.get_data().current_task;
    let mut w = Window::new(hwnd, &class, 0x90C8_0000, 0);
    w.text = template.clone().into_bytes();
    w.rect = Rect::new(40, 40, 340, 240);
    w.client = w.rect;
    w.owner = env.win16.user.top_level(parent);
    w.hinstance = hinstance;
    w.wndproc = DEFWINDOWPROC;
    w.htask = htask;
    {
        let u = &mut env.win16.user;
        if slot == u.windows.len() {
            u.windows.push(w);
        } else {
            u.windows[slot] = w;
        }
    }
    super::window::link(&mut env.win16.user, hwnd, HWND_TOP);
    event(uc, format!("dialog {template:?} opened as {hwnd:04X}"));
    let cs = user_cs(env)?;
    let ds = instance_ds(hinstance);
    let dlg = |w: u16, m: u16, wp: u16, lp: u32| {
        [CallArg::W(w), CallArg::W(m), CallArg::W(wp), CallArg::L(lp)]
    };
    call_far(env, uc, cs, proc_, ds, &[], &dlg(hwnd, WM_INITDIALOG, 0, 0))?;
    let ended = |env: &Env| env.win16.user.window(hwnd).and_then(|w| w.dialog_result);
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
    super::window::unlink(&mut env.win16.user, hwnd);
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.destroyed = true;
        w.style &= !super::WS_VISIBLE;
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
