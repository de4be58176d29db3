//! The message queue and loop: GetMessage, PeekMessage, PostMessage,
//! SendMessage, DispatchMessage, TranslateMessage, and the headless session
//! that feeds an empty queue.
//!
//! **The headless session.** Each time a task's queue runs empty in
//! GetMessage or PeekMessage (no posted message, no WM_QUIT, no window to
//! paint), the session gives it, in this order:
//!
//! 1. the next input line of its `--messages` script (script.rs), once its
//!    main window (its first top-level window) is shown: the line's
//!    messages are posted to the main window, one line per empty queue;
//! 2. a tick of its timers (SetTimer): the timer due soonest posts
//!    WM_TIMER (hWnd, wParam = the id, lParam = its TimerProc or 0, which
//!    DispatchMessage calls). A timer fires when its elapse has passed on
//!    the emulated clock (system.rs); when it has not yet, the machine
//!    waits idle until it has: the clock skips ahead to its due time. So
//!    that a headless run ends, each timer fires this way at most
//!    [`IDLE_TICKS`](super::IDLE_TICKS) times after the task's last script input line (a
//!    `timer N` line fires them regardless);
//! 3. the default session's WM_CLOSE, once, to the main window: a
//!    well-behaved program destroys it, posts WM_QUIT and leaves its
//!    message loop. A queue that runs empty again afterwards can never be
//!    filled: the run stops with [`Stop::NoInput`].
//!
//! Pending script input counts as input for the scheduler
//! ([`User::has_input`]); timers and the default WM_CLOSE do not, so other
//! tasks that can run go first.

use super::menu::track::{WM_SYSCHAR, WM_SYSKEYDOWN, WM_SYSKEYUP};
use super::timer::fire_timer;
use super::{
    MAX_QUEUE, Msg, WM_CHAR, WM_CLOSE, WM_COMMAND, WM_INITMENU, WM_KEYDOWN, WM_KEYUP,
    WM_LBUTTONDOWN, WM_LBUTTONUP, WM_PAINT, WM_QUIT, WM_RBUTTONDOWN, WM_RBUTTONUP, WM_TIMER, event,
    get, instance_ds, post, put, send, user_cs,
};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::split;
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};
use crate::win16::script::{Action, Line};

const MK_LBUTTON: u16 = 0x0001;
const MK_RBUTTON: u16 = 0x0002;

/// Write a MSG (hwnd, message, wParam, lParam, time, pt) at `p`.
fn write_msg(env: &mut Env, uc: &mut Uc<'_>, p: u32, m: Msg) -> Result<(), Stop> {
    env.win16.user.msg_time = env.win16.user.msg_time.wrapping_add(55);
    let mut b = [0u8; 18];
    put(&mut b, 0, m.hwnd);
    put(&mut b, 2, m.message);
    put(&mut b, 4, m.wparam);
    b[6..10].copy_from_slice(&m.lparam.to_le_bytes());
    b[10..14].copy_from_slice(&env.win16.user.msg_time.to_le_bytes());
    let (seg, off) = split(p);
    uc.write_seg(seg, off, &b)
        .map_err(|e| Stop::Error(format!("MSG at {seg:04X}:{off:04X}: {e}")))
}

/// Give task `htask` the script lines meant for it (script.rs, "Which
/// task"), the first time it asks for messages or opens a box.
pub(crate) fn claim_script(env: &mut Env, htask: u16) {
    if env.win16.user.unclaimed.is_empty() {
        return;
    }
    let first = env.win16.scheduler.first.is_none_or(|f| f == htask);
    let module = env
        .win16
        .task(htask)
        .and_then(|t| env.win16.modules.iter().find(|m| m.hmodule == t.hmodule))
        .map(|m| m.name.clone())
        .unwrap_or_default();
    let u = &mut env.win16.user;
    let (mine, rest): (Vec<Line>, Vec<Line>) = std::mem::take(&mut u.unclaimed)
        .into_iter()
        .partition(|l| match &l.module {
            None => first,
            Some(m) => m.eq_ignore_ascii_case(&module),
        });
    u.unclaimed = rest;
    let q = u.queue(htask);
    for l in mine {
        if l.action.is_answer() {
            q.answers.push_back(l);
        } else {
            q.script.push_back(l);
        }
    }
}

/// Take the first of task `htask`'s `msgbox` or `dialog` lines (`dialog`
/// says which): its line number and answer.
pub(super) fn take_answer(env: &mut Env, htask: u16, dialog: bool) -> Option<(usize, u16)> {
    claim_script(env, htask);
    let q = env.win16.user.queue(htask);
    let i = q.answers.iter().position(|l| {
        matches!(
            (l.action, dialog),
            (Action::Dialog(_), true) | (Action::MsgBox(_), false)
        )
    })?;
    let l = q.answers.remove(i)?;
    match l.action {
        Action::Dialog(a) | Action::MsgBox(a) => Some((l.number, a)),
        _ => None,
    }
}

/// Deliver task `htask`'s next script input line to its main window:
/// true when it posted a message.
pub(crate) fn deliver_line(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<bool, Stop> {
    let u = &mut env.win16.user;
    let q = u.queue(htask);
    let main = q.main_window;
    let Some(line) = q.script.front_mut() else {
        return Ok(false);
    };
    let (number, action) = (line.number, line.action);
    let line_copy = matches!(action, Action::Menu | Action::SysMenu).then(|| line.clone());
    let args = line.args.clone();
    // A `timer N` line stays first until its N ticks are out.
    match &mut line.action {
        Action::Timer(n) if *n > 1 => *n -= 1,
        _ => {
            q.script.pop_front();
        }
    }
    q.idle_fired.clear();
    event(uc, format!("script line {number}: {action}"));
    // Keyboard input goes to the focus window when the task has it.
    let focus = super::controls::wm::focus(env, uc)?;
    let keys_to = if focus != 0 && super::controls::wm::task(env, focus) == htask {
        focus
    } else {
        main
    };
    let msg = |message, wparam, lparam| Msg {
        hwnd: if matches!(
            message,
            WM_KEYDOWN | WM_KEYUP | WM_CHAR | WM_SYSKEYDOWN | WM_SYSKEYUP | WM_SYSCHAR
        ) {
            keys_to
        } else {
            main
        },
        message,
        wparam,
        lparam,
    };
    let msgs = match action {
        Action::Key(k) => key_messages(k)
            .into_iter()
            .map(|(m, w, l)| msg(m, w, l))
            .collect(),
        Action::Char(c) => vec![msg(
            WM_CHAR,
            u16::from(c),
            1 | u32::from(crate::win16::script::scan_of_char(c)) << 16,
        )],
        Action::Click { x, y, right } => {
            let lp = u32::from(y as u16) << 16 | u32::from(x as u16);
            let (down, up, mk) = if right {
                (WM_RBUTTONDOWN, WM_RBUTTONUP, MK_RBUTTON)
            } else {
                (WM_LBUTTONDOWN, WM_LBUTTONUP, MK_LBUTTON)
            };
            vec![msg(down, mk, lp), msg(up, 0, lp)]
        }
        Action::Command(id) => {
            let menu = super::menu::window_menu(env, main);
            let m = &env.win16.user.menus;
            let state = m
                .locate(menu, id, false)
                .and_then(|(h, i)| m.item(h, i))
                .map_or(0, |it| it.flags);
            if state & super::menu::MF_ENABLE_MASK != 0 {
                event(
                    uc,
                    format!("script line {number}: menu item {id} is disabled"),
                );
                return Ok(false);
            }
            if menu != 0 {
                send(env, uc, main, WM_INITMENU, menu, 0)?;
            }
            vec![msg(WM_COMMAND, id, 0)]
        }
        Action::Timer(_) => {
            if fire_timer(env, uc, htask, false) {
                return Ok(true);
            }
            event(uc, format!("script line {number}: the task has no timer"));
            let q = env.win16.user.queue(htask);
            if q.script.front().is_some_and(|l| l.number == number) {
                q.script.pop_front();
            }
            return Ok(false);
        }
        Action::Close => vec![msg(WM_CLOSE, 0, 0)],
        Action::Menu | Action::SysMenu => {
            let line = line_copy.expect("a menu line");
            super::menu::track::script_click(env, uc, main, &line)
                .into_iter()
                .collect()
        }
        Action::Type(_) | Action::ClickId(_) | Action::Select(..) => {
            return super::dialog::input::deliver(env, uc, htask, number, action, &args);
        }
        Action::MsgBox(_) | Action::Dialog(_) | Action::Popup => Vec::new(),
    };
    let mut posted = false;
    for m in msgs {
        posted |= post(env, htask, m);
    }
    Ok(posted)
}

/// The messages of one scripted key press: its modifiers go down first
/// and up last (Ctrl, Shift, Alt); with Alt down (and not Ctrl) a key is a
/// system key (WM_SYSKEYDOWN / WM_SYSKEYUP, lParam bit 29 set), and so is
/// F10 always; Alt released after another key is WM_KEYUP, Alt pressed
/// alone WM_SYSKEYDOWN then WM_SYSKEYUP (SDK, WM_SYSKEYDOWN).
fn key_messages(k: crate::win16::script::Key) -> Vec<(u16, u16, u32)> {
    use crate::win16::script::{MOD_ALT, MOD_CTRL, MOD_SHIFT, key_by_name};
    const ALT_BIT: u32 = 1 << 29;
    let mods: Vec<crate::win16::script::Key> =
        [(MOD_CTRL, "ctrl"), (MOD_SHIFT, "shift"), (MOD_ALT, "alt")]
            .iter()
            .filter(|(m, _)| k.mods & m != 0)
            .filter_map(|(_, n)| key_by_name(n))
            .collect();
    let alt = k.mods & MOD_ALT != 0;
    let ctrl = k.mods & MOD_CTRL != 0;
    let mut out = Vec::new();
    // Modifiers down.
    let mut alt_down = false;
    for m in &mods {
        let is_alt = m.vk == 0x12;
        let (msg, bits) = if is_alt || (alt_down && !ctrl) {
            (WM_SYSKEYDOWN, ALT_BIT)
        } else {
            (WM_KEYDOWN, if alt_down { ALT_BIT } else { 0 })
        };
        out.push((msg, m.vk, m.lparam_down() | bits));
        alt_down |= is_alt;
    }
    // The key.
    let key_alone_alt = k.vk == 0x12 && mods.is_empty();
    let sys = (alt && !ctrl) || k.vk == 0x79 || key_alone_alt;
    let bits = if alt || key_alone_alt { ALT_BIT } else { 0 };
    let (down, up) = if sys {
        (WM_SYSKEYDOWN, WM_SYSKEYUP)
    } else {
        (WM_KEYDOWN, WM_KEYUP)
    };
    out.push((down, k.vk, k.lparam_down() | bits));
    out.push((
        up,
        k.vk,
        k.lparam_up() | if key_alone_alt { ALT_BIT } else { bits },
    ));
    // Modifiers up, last first: Alt comes up as WM_KEYUP after a key.
    for m in mods.iter().rev() {
        let is_alt = m.vk == 0x12;
        let (msg, bits) = if is_alt {
            (WM_KEYUP, 0)
        } else if alt && !ctrl {
            (WM_SYSKEYUP, ALT_BIT)
        } else {
            (WM_KEYUP, if alt { ALT_BIT } else { 0 })
        };
        out.push((msg, m.vk, m.lparam_up() | bits));
    }
    out
}

/// When task `htask`'s queue is empty, fill it from the headless session
/// (module doc): its next script line, else a timer tick. The default
/// WM_CLOSE comes from [`next_message`] when this posted nothing.
fn feed(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<(), Stop> {
    claim_script(env, htask);
    if env.win16.user.has_queued(htask) {
        return Ok(());
    }
    while env.win16.user.script_pending(htask) {
        if deliver_line(env, uc, htask)? {
            return Ok(());
        }
    }
    fire_timer(env, uc, htask, true);
    Ok(())
}

/// The next message for task `htask`, as GetMessage and PeekMessage find
/// it: posted messages (with what [`feed`] posted), then WM_QUIT, then
/// WM_PAINT, then the default session's WM_CLOSE. None when nothing is
/// there.
fn next_message(env: &mut Env, htask: u16, remove: bool) -> Option<Msg> {
    let u = &mut env.win16.user;
    let q = u.queue(htask);
    if let Some(&m) = q.msgs.front() {
        if remove {
            q.msgs.pop_front();
            note_key_state(u, &m);
        }
        return Some(m);
    }
    if let Some(code) = q.quit {
        return Some(Msg {
            hwnd: 0,
            message: WM_QUIT,
            wparam: code,
            lparam: 0,
        });
    }
    if let Some(w) = u
        .windows
        .iter()
        .find(|w| w.htask == htask && w.needs_paint && w.visible && !w.destroyed)
    {
        return Some(Msg {
            hwnd: w.hwnd,
            message: WM_PAINT,
            wparam: 0,
            lparam: 0,
        });
    }
    let main = u.queue(htask).main_window;
    let alive = u.window(main).is_some();
    if !u.queue(htask).close_sent && main != 0 && alive {
        // About to send the default WM_CLOSE: the screen as the program
        // last showed it (gdi/screen.rs).
        crate::win16::gdi::screen::before_default_close(env);
        let q = env.win16.user.queue(htask);
        q.close_sent = true;
        let m = Msg {
            hwnd: main,
            message: WM_CLOSE,
            wparam: 0,
            lparam: 0,
        };
        if !remove {
            q.msgs.push_back(m);
        }
        return Some(m);
    }
    None
}

/// USER.108 GetMessage(lpMsg, hWnd, wMsgFilterMin, wMsgFilterMax) -> BOOL:
/// FALSE for WM_QUIT.
///
/// With nothing in the queue the task gives up the CPU (scheduler.rs) and
/// looks again when it resumes; when no other task can run, the default
/// session's WM_CLOSE comes; after that, any other task that can still run
/// goes first; with none left the run stops ([`Stop::NoInput`]).
fn get_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    claim_script(env, htask);
    if !env.win16.user.has_input(htask)
        && scheduler::yield_now(env, uc, Wait::Input, Resume::Retry)?
    {
        return Ok(0);
    }
    feed(env, uc, htask)?;
    match next_message(env, htask, true) {
        Some(m) => {
            write_msg(env, uc, a[0], m)?;
            Ok(u32::from(m.message != WM_QUIT))
        }
        None if scheduler::yield_stuck(env, uc)? => Ok(0),
        None => Err(Stop::NoInput {
            what: "GetMessage waits on an empty queue and the session has no more input".into(),
        }),
    }
}

/// USER.109 PeekMessage(lpMsg, hWnd, min, max, wRemoveMsg) -> BOOL.
/// With nothing in the queue it gives up the CPU (unless PM_NOYIELD) and
/// returns FALSE when the task resumes; when no other task can run, the
/// default session's WM_CLOSE comes as for GetMessage.
fn peek_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    const PM_REMOVE: u16 = 0x0001;
    const PM_NOYIELD: u16 = 0x0002;
    let flags = a[4] as u16;
    let remove = flags & PM_REMOVE != 0;
    let htask = uc.get_data().current_task;
    claim_script(env, htask);
    if !env.win16.user.has_input(htask)
        && flags & PM_NOYIELD == 0
        && scheduler::yield_now(env, uc, Wait::Input, Resume::After(0))?
    {
        return Ok(0);
    }
    feed(env, uc, htask)?;
    match next_message(env, htask, remove) {
        Some(m) => {
            write_msg(env, uc, a[0], m)?;
            Ok(1)
        }
        None => Ok(0),
    }
}

/// The keyboard state follows a key message the task took from its
/// queue (User::key_state).
pub(crate) fn note_key_state(u: &mut super::User, m: &Msg) {
    if u.key_state.len() < 256 {
        u.key_state.resize(256, 0);
    }
    let k = &mut u.key_state[usize::from(m.wparam as u8)];
    match m.message {
        WM_KEYDOWN | WM_SYSKEYDOWN => *k |= 0x80,
        WM_KEYUP | WM_SYSKEYUP => *k &= !0x80,
        _ => {}
    }
}

/// Is virtual key `vk` down in the keyboard state the task has seen?
pub(crate) fn key_down(env: &Env, vk: u16) -> bool {
    env.win16
        .user
        .key_state
        .get(usize::from(vk as u8))
        .is_some_and(|s| s & 0x80 != 0)
}

/// USER.113 TranslateMessage(lpMsg) -> BOOL: a WM_KEYDOWN (WM_SYSKEYDOWN)
/// of a key that types a character (script.rs's keyboard) posts its
/// WM_CHAR (WM_SYSCHAR) — a letter upper case with Shift, a control
/// character with Ctrl — ahead of the queued input as Windows' posted
/// messages come before input.
fn translate_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[0]);
    let mut b = [0u8; 10];
    if uc.read_seg(seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let (hwnd, msg, wparam) = (get(&b, 0), get(&b, 2), get(&b, 4));
    let lparam = u32::from_le_bytes([b[6], b[7], b[8], b[9]]);
    let out = match msg {
        WM_KEYDOWN => WM_CHAR,
        WM_SYSKEYDOWN => WM_SYSCHAR,
        _ => return Ok(0),
    };
    let ch = match wparam {
        0x41..=0x5A if key_down(env, 0x11) => Some(wparam as u8 - 0x40),
        0x41..=0x5A if key_down(env, 0x10) => Some(wparam as u8),
        0x41..=0x5A => Some(wparam as u8 + 0x20),
        0x30..=0x39 | 0x08 | 0x09 | 0x0D | 0x1B | 0x20 => Some(wparam as u8),
        _ => None,
    };
    let Some(ch) = ch else {
        return Ok(0);
    };
    let htask = env
        .win16
        .user
        .window(hwnd)
        .map_or(uc.get_data().current_task, |w| w.htask);
    let q = env.win16.user.queue(htask);
    if q.msgs.len() >= MAX_QUEUE {
        return Ok(0);
    }
    q.msgs.push_front(Msg {
        hwnd,
        message: out,
        wparam: u16::from(ch),
        lparam,
    });
    Ok(1)
}

/// USER.114 DispatchMessage(lpMsg) -> the window procedure's result.
fn dispatch_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[0]);
    let mut b = [0u8; 10];
    if uc.read_seg(seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let (hwnd, msg, wparam) = (get(&b, 0), get(&b, 2), get(&b, 4));
    let lparam = u32::from_le_bytes([b[6], b[7], b[8], b[9]]);
    if msg == WM_TIMER && lparam != 0 {
        // A timer with its own procedure: TimerProc(hwnd, msg, id, time).
        let ds = env
            .win16
            .user
            .window(hwnd)
            .map(|w| instance_ds(w.hinstance))
            .unwrap_or(uc.reg(R::DS));
        let cs = user_cs(env)?;
        let r = call_far(
            env,
            uc,
            cs,
            split(lparam),
            ds,
            &[],
            &[
                CallArg::W(hwnd),
                CallArg::W(msg),
                CallArg::W(wparam),
                CallArg::L(env.win16.user.msg_time),
            ],
        )?;
        return Ok(r.value);
    }
    send(env, uc, hwnd, msg, wparam, lparam)
}

/// USER.111 SendMessage(hWnd, msg, wParam, lParam).
fn send_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    send(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3])
}

/// USER.110 PostMessage(hWnd, msg, wParam, lParam) -> BOOL.
fn post_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(post(
        env,
        uc.get_data().current_task,
        Msg {
            hwnd: a[0] as u16,
            message: a[1] as u16,
            wparam: a[2] as u16,
            lparam: a[3],
        },
    )))
}

/// USER.6 PostQuitMessage(nExitCode).
fn post_quit_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.user.queue(uc.get_data().current_task).quit = Some(a[0] as u16);
    Ok(0)
}

/// USER.122 CallWindowProc(lpPrevWndFunc, hWnd, msg, wParam, lParam).
fn call_window_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[1] as u16;
    let ds = env
        .win16
        .user
        .window(hwnd)
        .map(|w| instance_ds(w.hinstance))
        .unwrap_or(uc.reg(R::DS));
    let cs = user_cs(env)?;
    let r = call_far(
        env,
        uc,
        cs,
        split(a[0]),
        ds,
        &[],
        &[
            CallArg::W(hwnd),
            CallArg::W(a[2] as u16),
            CallArg::W(a[3] as u16),
            CallArg::L(a[4]),
        ],
    )?;
    Ok(r.value)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 6, "POSTQUITMESSAGE", &[Arg::W], post_quit_message),
    Api::new(
        "USER",
        108,
        "GETMESSAGE",
        &[Arg::L, Arg::W, Arg::W, Arg::W],
        get_message,
    ),
    Api::new(
        "USER",
        109,
        "PEEKMESSAGE",
        &[Arg::L, Arg::W, Arg::W, Arg::W, Arg::W],
        peek_message,
    ),
    Api::new(
        "USER",
        110,
        "POSTMESSAGE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        post_message,
    ),
    Api::new(
        "USER",
        111,
        "SENDMESSAGE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        send_message,
    ),
    Api::new(
        "USER",
        113,
        "TRANSLATEMESSAGE",
        &[Arg::L],
        translate_message,
    ),
    Api::new("USER", 114, "DISPATCHMESSAGE", &[Arg::L], dispatch_message),
    Api::new(
        "USER",
        122,
        "CALLWINDOWPROC",
        &[Arg::L, Arg::W, Arg::W, Arg::W, Arg::L],
        call_window_proc,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_lines_go_to_their_tasks_and_answers_apart() {
        let mut env = Env::new(false);
        let script =
            crate::win16::script::parse(b"key a\n@OTHER key b\nmsgbox no\ndialog 5\nmsgbox yes\n")
                .unwrap();
        env.win16.user.set_script(script);
        // No task list here: the first task is whichever asks first.
        claim_script(&mut env, 0x100);
        let q = env.win16.user.queue(0x100);
        assert_eq!(q.script.len(), 1);
        assert_eq!(q.answers.len(), 3);
        assert_eq!(env.win16.user.unclaimed.len(), 1);
        assert_eq!(take_answer(&mut env, 0x100, true), Some((4, 5)));
        assert_eq!(take_answer(&mut env, 0x100, false), Some((3, 7)));
        assert_eq!(take_answer(&mut env, 0x100, false), Some((5, 6)));
        assert_eq!(take_answer(&mut env, 0x100, false), None);
        // Not deliverable without a main window: not input yet.
        assert!(!env.win16.user.has_input(0x100));
    }
}
