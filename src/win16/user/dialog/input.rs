//! DialogBox's modal loop on the headless session (the dialog.rs module
//! doc gives the order), and the `--messages` script's control lines
//! (script.rs): `type ID TEXT`, `click-id ID`, `select ID ITEM`.
//!
//! The control an id names is looked for among the task's windows: a child
//! with that id of the task's most recently made dialog box that has one,
//! else of any of its windows (the first made). `type` gives the control
//! the focus as the Tab key would (in a dialog box an edit control's text
//! is then selected, so the typing replaces it) and posts WM_CHAR for each
//! character; `click-id` posts WM_LBUTTONDOWN and WM_LBUTTONUP at the
//! control's centre (refused for a disabled control, which Windows gives
//! no mouse input); `select` chooses an item of a list box or combo box by
//! index or by its text (without regard to case) as a click on it would:
//! the list gets the focus, the item is selected, LBN_SELCHANGE (with
//! LBS_NOTIFY) or a drop-down combo box's CBN_DROPDOWN, CBN_SELCHANGE,
//! CBN_SELENDOK, CBN_CLOSEUP follow.

use super::super::message::{claim_script, deliver_line, take_answer, take_paint, take_queued};
use super::super::timer::fire_timer;
use super::super::{Msg, WM_PAINT, event};
use super::{IDCANCEL, dialog, end, ended, item, navigate};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::script::Action;
use crate::win16::user::controls::{self, button, combobox, listbox, wm};
use crate::win16::user::{WM_CHAR, WM_CLOSE, WM_COMMAND, WM_LBUTTONDOWN, WM_LBUTTONUP};

const MK_LBUTTON: u16 = 0x0001;
/// The No button's id (IDNO).
const IDNO: u16 = 7;

/// A MSG (18 bytes: hwnd, message, wParam, lParam, time, pt).
fn msg_bytes(_env: &mut Env, m: Msg) -> [u8; 18] {
    super::super::message::msg_bytes(&m)
}

/// One turn of the modal loop for message `m`: CallMsgFilter
/// (MSGF_DIALOGBOX), IsDialogMessage, else
/// TranslateMessage and DispatchMessage.
fn dispatch(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, m: Msg) -> Result<(), Stop> {
    let b = msg_bytes(env, m);
    controls::with_data(env, uc, &b, |env, uc, p| {
        // CallMsgFilter(lpMsg, MSGF_DIALOGBOX).
        if super::super::hook::call_msg_filter(env, uc, p, 0)? {
            return Ok(());
        }
        if navigate::is_dialog_message(env, uc, &[u32::from(hdlg), p])? == 0 {
            super::super::message::translate_message(env, uc, &[p])?;
            super::super::message::dispatch_message(env, uc, &[p])?;
        }
        Ok(())
    })?;
    Ok(())
}

/// What the task's script has next: an input line (true) or a `dialog`
/// answer (false), whichever comes first in the file.
fn next_line(env: &mut Env, htask: u16) -> Option<bool> {
    let q = env.win16.user.queue(htask);
    let input = q.script.front().map(|l| l.number);
    let answer = q
        .answers
        .iter()
        .find(|l| matches!(l.action, Action::Dialog(_)))
        .map(|l| l.number);
    match (input, answer) {
        (Some(i), Some(a)) => Some(i < a),
        (Some(_), None) => Some(true),
        (None, Some(_)) => Some(false),
        (None, None) => None,
    }
}

/// A `dialog ANSWER` line: click the control with that id, or send the
/// dialog WM_COMMAND(id, 0).
fn answer(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, line: usize, id: u16) -> Result<(), Stop> {
    event(
        uc,
        format!("dialog {hdlg:04X} gets command {id} (script line {line})"),
    );
    let h = item(env, hdlg, id);
    let is_button = wm::window(env, h).is_some_and(|w| w.class.eq_ignore_ascii_case("BUTTON"));
    if h != 0 && is_button && wm::is_enabled(env, h) {
        button::click(env, uc, h)
    } else {
        wm::send(env, uc, hdlg, WM_COMMAND, id, u32::from(h)).map(|_| ())
    }
}

/// What Escape does, as the session's default: WM_COMMAND(IDCANCEL,
/// MAKELONG(hwndCancel, BN_CLICKED)), or a beep for a disabled Cancel.
fn escape(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16) -> Result<(), Stop> {
    event(uc, format!("dialog {hdlg:04X} gets IDCANCEL"));
    let cancel = item(env, hdlg, IDCANCEL);
    if cancel != 0 && !wm::is_enabled(env, cancel) {
        return wm::beep(env, uc);
    }
    wm::send(
        env,
        uc,
        hdlg,
        WM_COMMAND,
        IDCANCEL,
        u32::from(button::BN_CLICKED) << 16 | u32::from(cancel),
    )?;
    Ok(())
}

/// DialogBox's loop (dialog.rs module doc): EndDialog's value.
pub fn modal_loop(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, htask: u16) -> Result<u16, Stop> {
    let mut idle_told = false;
    let mut escaped = false;
    let mut closed = false;
    loop {
        if let Some(r) = ended(env, hdlg) {
            return Ok(r);
        }
        if !wm::exists(env, hdlg) {
            // Destroyed without EndDialog.
            return Ok(0xFFFF);
        }
        claim_script(env, htask);
        // Posted messages, then input.
        if let Some(m) = take_queued(env, uc, htask)? {
            dispatch(env, uc, hdlg, m)?;
            idle_told = false;
            continue;
        }
        if env.win16.user.queue(htask).quit.is_some() {
            event(
                uc,
                format!("dialog {hdlg:04X}: WM_QUIT is waiting; the dialog ends with IDCANCEL"),
            );
            end(env, hdlg, IDCANCEL);
            continue;
        }
        // Windows to paint (DispatchMessage validates what the procedure
        // did not).
        if let Some(h) = take_paint(env, htask) {
            dispatch(env, uc, hdlg, Msg::new(h, WM_PAINT, 0, 0))?;
            continue;
        }
        // The script.
        match next_line(env, htask) {
            Some(true) => {
                deliver_line(env, uc, htask)?;
                idle_told = false;
                continue;
            }
            Some(false) => {
                if let Some((line, id)) = take_answer(env, htask, true) {
                    answer(env, uc, hdlg, line, id)?;
                }
                idle_told = false;
                continue;
            }
            None => {}
        }
        if fire_timer(env, uc, htask, true) {
            continue;
        }
        if !idle_told {
            idle_told = true;
            let owner = dialog(env, hdlg).map_or(0, |d| d.owner);
            if owner != 0 && wm::style(env, hdlg) & super::DS_NOIDLEMSG == 0 {
                wm::send(
                    env,
                    uc,
                    owner,
                    wm::WM_ENTERIDLE,
                    super::MSGF_DIALOGBOX,
                    u32::from(hdlg),
                )?;
            }
            continue;
        }
        if !escaped {
            escaped = true;
            let no = item(env, hdlg, IDNO);
            let closing = env
                .win16
                .user
                .queues
                .get(&htask)
                .is_some_and(|q| q.close_sent);
            if closing
                && no != 0
                && wm::is_enabled(env, no)
                && wm::window(env, no).is_some_and(|w| w.class.eq_ignore_ascii_case("BUTTON"))
            {
                // The session is closing the program (its default
                // WM_CLOSE): a "Save changes?" dialog of its own is
                // answered No, as a user leaving without saving would
                // (msgbox.rs answers a message box the same way).
                event(
                    uc,
                    format!(
                        "dialog {hdlg:04X}: the session is closing the program; its No button is clicked"
                    ),
                );
                button::click(env, uc, no)?;
                continue;
            }
            escape(env, uc, hdlg)?;
            continue;
        }
        if !closed {
            // What the Close item or Alt+F4 gives: a dialog procedure that
            // ignores IDCANCEL may end the dialog on WM_CLOSE.
            closed = true;
            event(uc, format!("dialog {hdlg:04X} gets WM_CLOSE"));
            wm::send(env, uc, hdlg, WM_CLOSE, 0, 0)?;
            continue;
        }
        event(
            uc,
            format!(
                "dialog {hdlg:04X}: the session has no more input for it; it ends with IDCANCEL"
            ),
        );
        end(env, hdlg, IDCANCEL);
    }
}

/// The control script line `id` names for task `htask` (module doc).
fn find_control(env: &Env, htask: u16, id: u16) -> Option<u16> {
    let u = &env.win16.user;
    let matching = |parent: u16| {
        u.windows
            .iter()
            .find(|w| {
                w.parent == parent
                    && !w.destroyed
                    && w.htask == htask
                    && w.id == id
                    && w.style & wm::WS_CHILD != 0
            })
            .map(|w| w.hwnd)
    };
    // The newest dialog first (in the order they were made: handles are
    // addresses in USER's heap, which a new window may reuse).
    let mut dialogs: Vec<(u64, u16)> = u
        .dialogs
        .map
        .iter()
        .filter(|&(&h, _)| wm::task(env, h) == htask && wm::exists(env, h))
        .map(|(&h, d)| (d.serial, h))
        .collect();
    dialogs.sort_unstable();
    dialogs
        .iter()
        .rev()
        .find_map(|&(_, d)| matching(d))
        .or_else(|| {
            u.windows
                .iter()
                .find(|w| {
                    !w.destroyed && w.htask == htask && w.id == id && w.style & wm::WS_CHILD != 0
                })
                .map(|w| w.hwnd)
        })
}

/// Queue a script input message (keyboard or mouse input) for the task.
fn post(
    env: &mut Env,
    uc: &Uc<'_>,
    htask: u16,
    hwnd: u16,
    message: u16,
    wparam: u16,
    lparam: u32,
) -> bool {
    super::super::message::post_to(
        env,
        uc,
        htask,
        Msg::new(hwnd, message, wparam, lparam),
        true,
    )
}

/// Give `h` the focus as the Tab key would (the dialog manager's rules
/// when its parent is a dialog).
fn focus(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<(), Stop> {
    let parent = wm::parent(env, h);
    if super::is_dialog(env, parent) {
        navigate::set_dlg_focus(env, uc, parent, h)
    } else {
        wm::set_focus(env, uc, h).map(|_| ())
    }
}

/// Deliver a control script line (module doc): true when it posted or
/// did something. `args` holds a `type` line's text, a `select` line's
/// item text.
pub fn deliver(
    env: &mut Env,
    uc: &mut Uc<'_>,
    htask: u16,
    number: usize,
    action: Action,
    args: &[String],
) -> Result<bool, Stop> {
    let id = match action {
        Action::Type(id) | Action::ClickId(id) | Action::Select(id, _) => id,
        _ => return Ok(false),
    };
    let Some(h) = find_control(env, htask, id) else {
        event(
            uc,
            format!("script line {number}: the task has no control with id {id}"),
        );
        return Ok(false);
    };
    if !wm::is_enabled(env, h) {
        event(
            uc,
            format!("script line {number}: control {id} is disabled"),
        );
        return Ok(false);
    }
    let text: &[u8] = args.first().map_or(&[], |t| t.as_bytes());
    match action {
        Action::Type(_) => {
            focus(env, uc, h)?;
            let mut posted = false;
            for &c in text {
                let scan = crate::win16::script::scan_of_char(c);
                posted |= post(
                    env,
                    uc,
                    htask,
                    h,
                    WM_CHAR,
                    u16::from(c),
                    1 | u32::from(scan) << 16,
                );
            }
            Ok(posted)
        }
        Action::ClickId(_) => {
            let (cx, cy) = wm::client_size(env, h);
            let lp = u32::from((cy / 2) as u16) << 16 | u32::from((cx / 2) as u16);
            let a = post(env, uc, htask, h, WM_LBUTTONDOWN, MK_LBUTTON, lp);
            let b = post(env, uc, htask, h, WM_LBUTTONUP, 0, lp);
            Ok(a && b)
        }
        Action::Select(_, index) => {
            let class = wm::window(env, h)
                .map(|w| w.class.to_ascii_uppercase())
                .unwrap_or_default();
            let list = match class.as_str() {
                "LISTBOX" => h,
                "COMBOBOX" => combobox::list_of(env, h),
                _ => {
                    event(
                        uc,
                        format!("script line {number}: control {id} is no list box or combo box"),
                    );
                    return Ok(false);
                }
            };
            let count = listbox::get(env, list).map_or(0, |l| l.items.len());
            let index = match index {
                Some(i) => usize::from(i),
                None => listbox::get(env, list)
                    .and_then(|l| {
                        l.items
                            .iter()
                            .position(|it| crate::win16::strings::eq_nocase(&it.text, text))
                    })
                    .unwrap_or(usize::MAX),
            };
            if index >= count {
                event(
                    uc,
                    format!("script line {number}: control {id} has no such item"),
                );
                return Ok(false);
            }
            focus(env, uc, h)?;
            if class == "COMBOBOX" {
                combobox::user_choose(env, uc, h, index as u32)?;
            } else {
                listbox::user_choose(env, uc, h, index)?;
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}
