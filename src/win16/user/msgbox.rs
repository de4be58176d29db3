//! Message boxes: MessageBox.
//!
//! Message boxes are recorded (`--events`) and answered with the task's
//! next `msgbox` script line, else with their first button (IDOK for MB_OK
//! and MB_OKCANCEL, IDYES for MB_YESNO[CANCEL], IDABORT, IDRETRY).

use super::message::take_answer;
use super::{event, string_arg};
use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};

/// USER.1 MessageBox(hWnd, lpText, lpCaption, wType): recorded, answered
/// with the task's next `msgbox` script line, else with the first button
/// (module doc).
fn message_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let text = string_arg(uc, a[1]);
    let caption = if a[2] == 0 {
        "Error".to_string()
    } else {
        string_arg(uc, a[2])
    };
    let default = match a[3] as u16 & 0x0F {
        2 => 3,     // MB_ABORTRETRYIGNORE: IDABORT
        3 | 4 => 6, // MB_YESNOCANCEL, MB_YESNO: IDYES
        5 => 4,     // MB_RETRYCANCEL: IDRETRY
        _ => 1,     // MB_OK, MB_OKCANCEL: IDOK
    };
    let htask = uc.get_data().current_task;
    let (answer, by) = match take_answer(env, htask, false) {
        Some((line, answer)) => (u32::from(answer), format!(" (script line {line})")),
        None => (default, String::new()),
    };
    event(
        uc,
        format!(
            "message box {}: {} answered {answer}{by}",
            crate::escape::quoted(&caption),
            crate::escape::quoted(&text)
        ),
    );
    // The box's modal loop lets the other tasks run.
    scheduler::yield_now(env, uc, Wait::Ready, Resume::After(answer))?;
    Ok(answer)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    1,
    "MESSAGEBOX",
    &[Arg::W, Arg::L, Arg::L, Arg::W],
    message_box,
)];
