//! Messages: the task queues and GetMessage, PeekMessage, PostMessage,
//! SendMessage, DispatchMessage, TranslateMessage and their relatives, and
//! the headless session that feeds an empty queue.
//!
//! **Which message comes next.** GetMessage and PeekMessage look, in this
//! order, at the messages posted to the task (PostMessage, PostAppMessage,
//! TranslateMessage's WM_CHAR), WM_QUIT once PostQuitMessage was called,
//! the input (the scripted keyboard and mouse, timer ticks), then — only
//! when nothing else is there, as Windows generates it — WM_PAINT for the
//! first visible window of the task (parent before children, in z-order)
//! whose update region is not empty. A WM_PAINT is not removed from the
//! queue: it comes again until the window is validated (BeginPaint,
//! ValidateRect, DefWindowProc). The default queue holds 8 posted messages
//! (SDK, SetMessageQueue); PostMessage fails when it is full. DDEML's
//! wake-up (ddeml/conv.rs, WM_DDEML_WAKE) is never returned: GetMessage,
//! PeekMessage and WaitMessage hand it to DDEML first, which runs the
//! task's waiting DDEML transactions in its callbacks.
//!
//! **The headless session.** Each time a task's queue runs empty in
//! GetMessage or PeekMessage (no posted message, no WM_QUIT, no window to
//! paint), the session gives it, in this order:
//!
//! 1. the next input line of its `--messages` script (script.rs), once its
//!    main window is shown (its first top-level window shown; when that
//!    one is destroyed, its remaining or next top-level one, winpos.rs):
//!    keys go to the focus window (the active window when none has it),
//!    clicks to the window under the point (input.rs), scroll-bar lines to
//!    the main window; one line per empty queue;
//! 2. a tick of its timers (SetTimer): the timer due soonest gives
//!    WM_TIMER (hWnd, wParam = the id, lParam = its TimerProc or 0, which
//!    DispatchMessage calls). A timer fires when its elapse has passed on
//!    the emulated clock (system.rs); when it has not yet, the machine
//!    waits idle until it has: the clock skips ahead to its due time. So
//!    that a headless run ends, each timer fires this way at most
//!    [`IDLE_TICKS`](super::IDLE_TICKS) times after the task's last script
//!    input line (a `timer N` line fires them regardless);
//! 3. the default session's WM_CLOSE, once, to the main window: a
//!    well-behaved program destroys it, posts WM_QUIT and leaves its
//!    message loop. A queue that runs empty again afterwards can never be
//!    filled: the run stops with [`Stop::NoInput`].
//!
//! Pending script input counts as input for the scheduler
//! ([`User::has_input`]); timers and the default WM_CLOSE do not, so other
//! tasks that can run go first.
//!
//! **SendMessage** calls the window procedure at once, after the WH_CALLWNDPROC
//! hooks. A window of another task has its procedure run in that task's
//! context, as Windows does: on the receiving task's own stack, with
//! GetCurrentTask() the receiver, InSendMessage() TRUE until it returns
//! or replies. ReplyMessage gives the sender its answer early, and the
//! sender of a program's own SendMessage runs on at once while the
//! receiver's procedure is still in progress (scheduler.rs, "Replying").

use std::collections::VecDeque;

use super::{
    DEFWINDOWPROC, DESKTOP, Env, HC_ACTION, InSend, Line, MAX_QUEUE, PM_NOYIELD, PM_REMOVE, Point,
    QS_KEY, QS_MOUSEBUTTON, QS_MOUSEMOVE, QS_PAINT, QS_POSTMESSAGE, QS_TIMER, RDW_NOCHILDREN,
    RDW_NOFRAME, RDW_NOINTERNALPAINT, RDW_VALIDATE, SB_ENDSCROLL, SB_THUMBPOSITION, SB_THUMBTRACK,
    Stop, Uc, User, WH_CALLWNDPROC, WH_GETMESSAGE, WM_CHAR, WM_CLOSE, WM_COMMAND, WM_HSCROLL,
    WM_INITMENU, WM_KEYDOWN, WM_LBUTTONDOWN, WM_MBUTTONDBLCLK, WM_MOUSEMOVE, WM_NCLBUTTONDOWN,
    WM_NCMOUSEMOVE, WM_PAINT, WM_QUIT, WM_SYSCHAR, WM_SYSDEADCHAR, WM_SYSKEYDOWN, WM_TIMER,
    WM_VSCROLL, bytes_arg, callback, event, get, get32, instance_ds, makelong, message_name,
    point_lparam, put, split, top_level_windows, user_cs,
};
use crate::machine::Cpu;
use crate::machine::R;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::make;
use crate::win16::scheduler::{self, Resume, Wait};
use crate::win16::script::Action;

/// A message in a queue: MSG without its time and point until retrieved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Msg {
    pub hwnd: u16,
    pub message: u16,
    pub wparam: u16,
    pub lparam: u32,
    /// GetTickCount when it was queued.
    pub time: u32,
    /// The cursor position (screen) when it was queued.
    pub pt: Point,
}

impl Msg {
    pub fn new(hwnd: u16, message: u16, wparam: u16, lparam: u32) -> Msg {
        Msg {
            hwnd,
            message,
            wparam,
            lparam,
            time: 0,
            pt: Point::default(),
        }
    }
}

/// The QS_ bit of a message (GetQueueStatus).
fn qs_bit(m: u16, input: bool) -> u16 {
    match m {
        WM_KEYDOWN..=WM_SYSDEADCHAR => QS_KEY,
        WM_MOUSEMOVE | WM_NCMOUSEMOVE => QS_MOUSEMOVE,
        WM_LBUTTONDOWN..=WM_MBUTTONDBLCLK | WM_NCLBUTTONDOWN..=0x00A9 => QS_MOUSEBUTTON,
        WM_TIMER if input => QS_TIMER,
        _ => QS_POSTMESSAGE,
    }
}

/// The emulated clock in milliseconds (GetTickCount).
pub(crate) fn now_ms(env: &mut Env, uc: &Uc<'_>) -> u32 {
    env.win16.system.tick_ms(uc.get_data().insns())
}

/// Post a message to the queue of the task that owns its window (the
/// current task's for hWnd 0): false when the queue is full.
pub fn post(env: &mut Env, uc: &Uc<'_>, m: Msg) -> bool {
    let htask = env
        .win16
        .user
        .window(m.hwnd)
        .filter(|w| w.hwnd != DESKTOP)
        .map_or(uc.get_data().current_task, |w| w.htask);
    post_to(env, uc, htask, m, false)
}

/// Queue a message for a task: posted, or (`input`) as input.
pub(crate) fn post_to(env: &mut Env, uc: &Uc<'_>, htask: u16, m: Msg, input: bool) -> bool {
    let time = now_ms(env, uc);
    let pt = env.win16.user.cursor.pos;
    let q = env.win16.user.queue(htask);
    let m = Msg { time, pt, ..m };
    if input {
        if q.input.len() >= MAX_QUEUE {
            return false;
        }
        q.input.push_back(m);
    } else {
        if q.msgs.len() >= q.size {
            return false;
        }
        q.msgs.push_back(m);
    }
    q.new_bits |= qs_bit(m.message, input);
    true
}

// ------------------------------------------------------------------ send

/// Most SendMessage calls nested in Rust at once.
const MAX_SEND_DEPTH: u32 = 256;

/// Is `p` USER's DefWindowProc (its thunk, or the desktop's stand-in)?
fn is_def_window_proc(env: &Env, p: (u16, u16)) -> bool {
    p == DEFWINDOWPROC || env.win16.thunk_target(p.0, p.1) == Some(("USER", 107))
}

/// The far address of USER.ordinal's thunk (a window procedure of USER's
/// own classes: GetWindowLong(GWL_WNDPROC) gives it to the program).
pub fn user_proc(env: &mut Env, uc: &mut Uc<'_>, ordinal: u16) -> (u16, u16) {
    let Some(idx) = env.win16.modules.iter().position(|m| m.name == "USER") else {
        return DEFWINDOWPROC;
    };
    match crate::win16::kernel::builtin::thunk_for(uc, &mut env.win16, idx, ordinal, None) {
        Ok(p) => (p.selector, p.offset),
        Err(_) => DEFWINDOWPROC,
    }
}

/// Call a window procedure with (hWnd, msg, wParam, lParam): DefWindowProc
/// in Rust, anything else in emulated code (USER's other procedures run
/// there through their thunks) with DS = AX = `ds`.
#[allow(clippy::too_many_arguments)]
pub fn call_proc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    proc_: (u16, u16),
    ds: u16,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    if is_def_window_proc(env, proc_) {
        return super::defwnd::def_window_proc(env, uc, hwnd, msg, wparam, lparam);
    }
    if proc_.0 == 0 {
        // A null procedure (a program that subclassed with 0): nothing
        // runs.
        return Ok(0);
    }
    // Another of USER's window procedures (a control class's, DefDlgProc):
    // its Rust function, called directly (controls/mod.rs).
    if let Some(api) = super::controls::native_proc(env, proc_) {
        return (api.func)(
            env,
            uc,
            &[u32::from(hwnd), u32::from(msg), u32::from(wparam), lparam],
        );
    }
    let cs = user_cs(env)?;
    let r = call_far(
        env,
        uc,
        cs,
        proc_,
        ds,
        &[],
        &[
            CallArg::W(hwnd),
            CallArg::W(msg),
            CallArg::W(wparam),
            CallArg::L(lparam),
        ],
    )?;
    Ok(r.value)
}

/// Deliver a message to a window's procedure now (DispatchMessage, and
/// SendMessage after its hooks), recording it.
fn deliver(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let (proc_, ds) = (w.wndproc, instance_ds(w.hinstance));
    event(
        uc,
        format!(
            "message {hwnd:04X} {}({wparam:04X}, {:04X}:{:04X})",
            message_name(msg),
            lparam >> 16,
            lparam & 0xFFFF
        ),
    );
    let u = &mut env.win16.user;
    if u.send_depth >= MAX_SEND_DEPTH {
        event(
            uc,
            format!("message {hwnd:04X}: sends nested too deep, dropped"),
        );
        return Ok(0);
    }
    u.send_depth += 1;
    let r = call_proc(env, uc, proc_, ds, hwnd, msg, wparam, lparam);
    env.win16.user.send_depth -= 1;
    r
}

/// HWND_BROADCAST: SendMessage and PostMessage to every top-level window.
pub const HWND_BROADCAST: u16 = 0xFFFF;

/// SendMessage: the window procedure runs now (module doc).
pub fn send(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    send_as(env, uc, hwnd, msg, wparam, lparam, false)
}

/// [`send`]; `replyable` when it is the program's own SendMessage, whose
/// sender may go on at the receiver's ReplyMessage (scheduler.rs,
/// "Replying").
fn send_as(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
    replyable: bool,
) -> Result<u32, Stop> {
    if hwnd == HWND_BROADCAST {
        for h in top_level_windows(env) {
            send(env, uc, h, msg, wparam, lparam)?;
        }
        return Ok(0);
    }
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let receiver = w.htask;
    let (mut msg, mut wparam, mut lparam) = (msg, wparam, lparam);
    let current = uc.get_data().current_task;
    if super::hook::installed(env, WH_CALLWNDPROC, receiver) {
        // The hook sees SendMessage's arguments as they lie on the stack:
        // lParam, wParam, msg, hWnd.
        let mut cwp = [0u8; 10];
        cwp[0..4].copy_from_slice(&lparam.to_le_bytes());
        put(&mut cwp, 4, wparam);
        put(&mut cwp, 6, msg);
        put(&mut cwp, 8, hwnd);
        let b = super::hook::call_with_struct(
            env,
            uc,
            WH_CALLWNDPROC,
            receiver,
            HC_ACTION,
            u16::from(receiver == current),
            &cwp,
        )?;
        if b.len() == 10 {
            lparam = get32(&b, 0);
            wparam = get(&b, 4);
            msg = get(&b, 6);
        }
    }
    if receiver != 0 && receiver != current && env.win16.task(receiver).is_some() {
        return send_other_task(env, uc, hwnd, receiver, (msg, wparam, lparam), replyable);
    }
    deliver(env, uc, hwnd, msg, wparam, lparam)
}

/// SendMessage to a window of another task: its procedure runs as that
/// task, on that task's stack when it is waiting in the scheduler (module
/// doc). With `replyable` (the program's own SendMessage), ReplyMessage
/// lets the sender go on before the procedure returns (scheduler.rs,
/// "Replying").
fn send_other_task(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    receiver: u16,
    (msg, wparam, lparam): (u16, u16, u32),
    replyable: bool,
) -> Result<u32, Stop> {
    let sender = uc.get_data().current_task;
    let call = |env: &mut Env, uc: &mut Uc<'_>| {
        env.win16.user.in_send.push(InSend {
            sender,
            receiver,
            reply: None,
        });
        event(
            uc,
            format!("task {sender:04X} sends to task {receiver:04X}"),
        );
        // A stop inside (a breakpoint, a fault) leaves the machine as it
        // is, in the receiver, for the report (as call_far does).
        let r = deliver(env, uc, hwnd, msg, wparam, lparam)?;
        let reply = env.win16.user.in_send.pop().and_then(|s| s.reply);
        Ok(reply.unwrap_or(r))
    };
    if replyable {
        scheduler::run_as_replyable(env, uc, receiver, call)
    } else {
        scheduler::run_as(env, uc, receiver, call)
    }
}

/// Put `data` on the stack below SP, run `f` with a far pointer to it,
/// and read the data back as `f` left it.
pub(crate) fn with_stack_data<T>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    data: &[u8],
    fixup: impl FnOnce(u32, &mut Vec<u8>),
    f: impl FnOnce(&mut Env, &mut Uc<'_>, u32) -> Result<T, Stop>,
) -> Result<(T, Vec<u8>), Stop> {
    // SS:SP holds the far return into the program that called the system
    // function (or the copy of it an outer call of this function left): it
    // is copied again below the data, so that the frame a callback pushes
    // next has that return address above its saved BP and a walk from
    // inside the callback climbs into the program (callback.rs).
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let mut ret = [0u8; 4];
    let _ = uc.read_seg(ss, sp, &mut ret);
    let len = (data.len() as u16 + 1) & !1;
    let at = sp.wrapping_sub(len);
    let copy_at = at.wrapping_sub(4);
    let ptr = make(ss, at);
    let mut bytes = data.to_vec();
    fixup(ptr, &mut bytes);
    bytes.resize(usize::from(len), 0);
    bytes.splice(0..0, ret);
    uc.write_seg(ss, copy_at, &bytes).map_err(|e| {
        Stop::Error(format!(
            "no room on the stack {ss:04X}:{sp:04X} for a message's data: {e}"
        ))
    })?;
    uc.set_reg(R::SP, copy_at).map_err(crate::dos::host)?;
    let r = f(env, uc, ptr);
    // The registers are this task's again once the procedure returned.
    let _ = uc.set_reg(R::SP, sp);
    let r = r?;
    let mut out = vec![0u8; data.len()];
    let _ = uc.read_seg(ss, at, &mut out);
    Ok((r, out))
}

/// SendMessage with lParam pointing at a copy of `data` (a CREATESTRUCT,
/// a RECT...): the result and the data as the procedure left it.
pub fn send_struct(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    data: &[u8],
) -> Result<(u32, Vec<u8>), Stop> {
    send_struct_with(env, uc, hwnd, msg, wparam, data, |_, _| {})
}

/// [`send_struct`] with a chance to write pointers into the data once its
/// address is known.
pub fn send_struct_with(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    data: &[u8],
    fixup: impl FnOnce(u32, &mut Vec<u8>),
) -> Result<(u32, Vec<u8>), Stop> {
    with_stack_data(env, uc, data, fixup, |env, uc, p| {
        send(env, uc, hwnd, msg, wparam, p)
    })
}

// ------------------------------------------------------- the session

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
/// says which): its line number and answer. Message boxes, dialog boxes
/// and the common dialogs (commdlg/) all take their answers here.
pub fn take_answer(env: &mut Env, htask: u16, dialog: bool) -> Option<(usize, u16)> {
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

/// Deliver task `htask`'s next script input line: true when it queued a
/// message.
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
    let msgs = match action {
        Action::Key(k) => super::input::key_messages(env, main, k),
        Action::Char(c) => {
            let to = super::input::keyboard_target(env, main);
            vec![Msg::new(
                to,
                WM_CHAR,
                u16::from(c),
                1 | u32::from(crate::win16::script::scan_of_char(c)) << 16,
            )]
        }
        Action::Click { x, y, right } => super::input::click_messages(
            env,
            uc,
            main,
            Point::new(i32::from(x), i32::from(y)),
            right,
        )?,
        Action::Scroll {
            vertical,
            code,
            pos,
        } => {
            let m = if vertical { WM_VSCROLL } else { WM_HSCROLL };
            let mut v = Vec::new();
            if code == SB_THUMBPOSITION {
                v.push(Msg::new(main, m, SB_THUMBTRACK, u32::from(pos)));
            }
            v.push(Msg::new(main, m, code, u32::from(pos)));
            v.push(Msg::new(main, m, SB_ENDSCROLL, 0));
            v
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
            let posted = post(env, uc, Msg::new(main, WM_COMMAND, id, 0));
            return Ok(posted);
        }
        Action::Timer(_) => {
            if super::timer::fire_timer(env, uc, htask, false) {
                return Ok(true);
            }
            event(uc, format!("script line {number}: the task has no timer"));
            let q = env.win16.user.queue(htask);
            if q.script.front().is_some_and(|l| l.number == number) {
                q.script.pop_front();
            }
            return Ok(false);
        }
        Action::Close => vec![Msg::new(main, WM_CLOSE, 0, 0)],
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
    let mut queued = false;
    for m in msgs {
        queued |= post_to(env, uc, htask, m, true);
    }
    Ok(queued)
}

/// When task `htask`'s queue is empty, fill it from the headless session
/// (module doc): its next script line, else a timer tick. The default
/// WM_CLOSE comes from [`next_message`] when this queued nothing.
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
    super::timer::fire_timer(env, uc, htask, true);
    Ok(())
}

/// The keyboard state follows a key message taken from the queue (the
/// menu loop takes its messages itself).
pub(crate) fn note_key_state(env: &mut Env, m: &Msg) {
    super::input::retrieved(env, m);
}

/// Is virtual key `vk` down in the keyboard state the task has seen?
pub(crate) fn key_down(env: &Env, vk: u16) -> bool {
    env.win16.user.keys.down(vk)
}

/// GetMessage's and PeekMessage's filter: a window (0: any of the task's)
/// and a range of messages (0, 0: all).
#[derive(Debug, Clone, Copy)]
pub struct Filter {
    pub hwnd: u16,
    pub min: u16,
    pub max: u16,
}

impl Filter {
    fn accepts(&self, m: &Msg) -> bool {
        (self.hwnd == 0 || m.hwnd == self.hwnd)
            && (self.min == 0 && self.max == 0 || (self.min..=self.max).contains(&m.message))
    }
}

/// The first window of a task that waits for WM_PAINT: visible, in tree
/// order (a parent before its children, siblings in z-order).
fn window_to_paint(u: &User, htask: u16, filter: &Filter) -> Option<u16> {
    let mut stack: Vec<u16> = u.children(DESKTOP).into_iter().rev().collect();
    while let Some(h) = stack.pop() {
        let Some(w) = u.window(h) else { continue };
        if !w.visible() {
            continue;
        }
        if w.htask == htask && w.needs_paint() && (filter.hwnd == 0 || filter.hwnd == h) {
            return Some(h);
        }
        stack.extend(w.children.iter().rev());
    }
    None
}

/// The next message for task `htask` (module doc), removed from its queue
/// with `remove` (WM_PAINT never is). None when nothing is there.
/// Does task `htask` have a message PeekMessage with this filter would
/// take now (posted, WM_QUIT, input, a window to paint), or script input
/// waiting?
fn has_matching(u: &User, htask: u16, filter: &Filter) -> bool {
    if u.script_pending(htask) {
        return true;
    }
    let queued = u.queues.get(&htask).is_some_and(|q| {
        q.msgs.iter().chain(&q.input).any(|m| filter.accepts(m))
            || (q.quit.is_some() && filter.hwnd == 0)
    });
    queued
        || (filter.accepts(&Msg::new(filter.hwnd, WM_PAINT, 0, 0))
            && window_to_paint(u, htask, filter).is_some())
}

fn next_message(env: &mut Env, htask: u16, filter: Filter, remove: bool) -> Option<(Msg, bool)> {
    let u = &mut env.win16.user;
    let q = u.queue(htask);
    let take = |v: &mut VecDeque<Msg>| {
        let i = v.iter().position(|m| filter.accepts(m))?;
        if remove {
            v.remove(i)
        } else {
            v.get(i).copied()
        }
    };
    if let Some(m) = take(&mut q.msgs) {
        return Some((m, false));
    }
    if let Some(code) = q.quit
        && filter.hwnd == 0
    {
        return Some((Msg::new(0, WM_QUIT, code, 0), false));
    }
    let (last_time, last_pos) = (q.last_time, q.last_pos);
    if let Some(m) = take(&mut q.input) {
        return Some((m, true));
    }
    if filter.accepts(&Msg::new(filter.hwnd, WM_PAINT, 0, 0))
        && let Some(h) = window_to_paint(u, htask, &filter)
    {
        return Some((
            Msg {
                time: last_time,
                pt: last_pos,
                ..Msg::new(h, WM_PAINT, 0, 0)
            },
            false,
        ));
    }
    let main = u.queue(htask).main_window;
    let alive = u.window(main).is_some();
    if !u.queue(htask).close_sent
        && main != 0
        && alive
        && filter.accepts(&Msg::new(main, WM_CLOSE, 0, 0))
    {
        // About to send the default WM_CLOSE: the screen as the program
        // last showed it (gdi/screen.rs).
        crate::win16::gdi::screen::before_default_close(env);
        let q = env.win16.user.queue(htask);
        q.close_sent = true;
        let m = Msg::new(main, WM_CLOSE, 0, 0);
        if !remove {
            q.msgs.push_back(m);
        }
        return Some((m, false));
    }
    None
}

/// MSG (16-bit): hwnd, message, wParam, lParam, time, pt; 18 bytes.
pub const MSG_SIZE: usize = 18;

pub(crate) fn msg_bytes(m: &Msg) -> [u8; MSG_SIZE] {
    let mut b = [0u8; MSG_SIZE];
    put(&mut b, 0, m.hwnd);
    put(&mut b, 2, m.message);
    put(&mut b, 4, m.wparam);
    b[6..10].copy_from_slice(&m.lparam.to_le_bytes());
    b[10..14].copy_from_slice(&m.time.to_le_bytes());
    b[14..18].copy_from_slice(&m.pt.to_bytes());
    b
}

/// A MSG from its bytes.
pub fn msg_from(b: &[u8]) -> Msg {
    Msg {
        hwnd: get(b, 0),
        message: get(b, 2),
        wparam: get(b, 4),
        lparam: get32(b, 6),
        time: get32(b, 10),
        pt: Point::from_bytes(&b[14..18]),
    }
}

/// Read a MSG at a far pointer.
pub fn read_msg(uc: &Uc<'_>, p: u32) -> Option<Msg> {
    let b = crate::win16::farptr::read_bytes(uc, p, MSG_SIZE)?;
    Some(msg_from(&b))
}

/// Write a MSG at `p`.
fn write_msg(uc: &mut Uc<'_>, p: u32, m: &Msg) -> Result<(), Stop> {
    let (seg, off) = split(p);
    uc.write_seg(seg, off, &msg_bytes(m))
        .map_err(|e| Stop::Error(format!("MSG at {seg:04X}:{off:04X}: {e}")))
}

/// Retrieve the next message for the task into `p` after the hooks that
/// see it (WH_KEYBOARD and WH_MOUSE may discard input; WH_GETMESSAGE may
/// change it): None when nothing is there.
fn retrieve(
    env: &mut Env,
    uc: &mut Uc<'_>,
    htask: u16,
    filter: Filter,
    remove: bool,
    p: u32,
) -> Result<Option<Msg>, Stop> {
    for _ in 0..MAX_QUEUE {
        let Some((m, input)) = next_message(env, htask, filter, remove) else {
            return Ok(None);
        };
        if ddeml_wake(env, uc, htask, &m)? {
            continue;
        }
        if super::hook::input_hooks_discard(env, uc, htask, &m, remove)? {
            if !remove {
                // A discarded input message goes even from PeekMessage.
                let q = env.win16.user.queue(htask);
                if let Some(i) = q.input.iter().position(|x| *x == m) {
                    q.input.remove(i);
                }
            }
            continue;
        }
        if remove && input {
            super::input::retrieved(env, &m);
        }
        let q = env.win16.user.queue(htask);
        q.last_time = m.time;
        q.last_pos = m.pt;
        write_msg(uc, p, &m)?;
        if super::hook::installed(env, WH_GETMESSAGE, htask) {
            super::hook::call(env, uc, WH_GETMESSAGE, htask, HC_ACTION, 0, p)?;
            return Ok(read_msg(uc, p).or(Some(m)));
        }
        return Ok(Some(m));
    }
    Ok(None)
}

/// DDEML's wake-up (ddeml/conv.rs, WM_DDEML_WAKE: the messages DDEML's
/// own windows got in Windows): taken off the queue and handed to DDEML
/// through USER's table of the DLLs' procedures (dlls.rs),
/// which runs the task's waiting DDEML transactions; true when `m` was it.
fn ddeml_wake(env: &mut Env, uc: &mut Uc<'_>, htask: u16, m: &Msg) -> Result<bool, Stop> {
    let dlls = super::dlls::dlls();
    if m.hwnd != 0 || m.message != dlls.wake_message {
        return Ok(false);
    }
    let q = env.win16.user.queue(htask);
    if let Some(i) = q.msgs.iter().position(|x| x == m) {
        q.msgs.remove(i);
    }
    (dlls.wake)(env, uc, htask)?;
    Ok(true)
}

/// Before GetMessage, PeekMessage or WaitMessage look at the queue: DDEML's
/// wake-ups in it are handled first (a few rounds: DDEML may wake the
/// task again).
fn ddeml_wakes(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<(), Stop> {
    let wake = super::dlls::dlls().wake_message;
    for _ in 0..4 {
        let q = env.win16.user.queue(htask);
        let Some(m) = q
            .msgs
            .iter()
            .find(|m| m.hwnd == 0 && m.message == wake)
            .copied()
        else {
            break;
        };
        ddeml_wake(env, uc, htask, &m)?;
    }
    Ok(())
}

/// Task `receiver` ended inside a message another task sent it
/// (scheduler.rs, "Running as another task"): the sends it was handling
/// are over.
pub fn send_abandoned(env: &mut Env, receiver: u16) {
    env.win16.user.in_send.retain(|s| s.receiver != receiver);
}

/// SendMessage with lParam as a [`CallArg`]: a value, or (`Scratch`,
/// `ScratchAt(n)`) a pointer to `scratch` (at offset n) copied onto the
/// stack; the result and the scratch data as the procedure left it.
pub fn call_wndproc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: CallArg,
    scratch: &[u8],
) -> Result<(u32, Vec<u8>), Stop> {
    match lparam {
        CallArg::L(l) => Ok((send(env, uc, hwnd, msg, wparam, l)?, scratch.to_vec())),
        CallArg::W(w) => Ok((
            send(env, uc, hwnd, msg, wparam, u32::from(w))?,
            scratch.to_vec(),
        )),
        CallArg::Scratch => send_struct(env, uc, hwnd, msg, wparam, scratch),
        CallArg::ScratchAt(n) => with_stack_data(
            env,
            uc,
            scratch,
            |_, _| {},
            |env, uc, p| {
                let p = crate::win16::farptr::add(p, usize::from(n));
                send(env, uc, hwnd, msg, wparam, p)
            },
        ),
    }
}

/// For a modal loop of USER's own (DialogBox's): the next posted
/// message, else the next input message, taken as GetMessage takes them
/// (the input hooks may discard one; the keyboard state follows), without
/// the session's feed, WM_QUIT or the default WM_CLOSE.
pub(crate) fn take_queued(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<Option<Msg>, Stop> {
    for _ in 0..MAX_QUEUE {
        let q = env.win16.user.queue(htask);
        if let Some(m) = q.msgs.pop_front() {
            if ddeml_wake(env, uc, htask, &m)? {
                continue;
            }
            return Ok(Some(m));
        }
        let Some(m) = q.input.pop_front() else {
            return Ok(None);
        };
        if super::hook::input_hooks_discard(env, uc, htask, &m, true)? {
            continue;
        }
        super::input::retrieved(env, &m);
        let q = env.win16.user.queue(htask);
        q.last_time = m.time;
        q.last_pos = m.pt;
        return Ok(Some(m));
    }
    Ok(None)
}

/// For a modal loop: a window of the task that waits for WM_PAINT.
pub(crate) fn take_paint(env: &Env, htask: u16) -> Option<u16> {
    let all = Filter {
        hwnd: 0,
        min: 0,
        max: 0,
    };
    window_to_paint(&env.win16.user, htask, &all)
}

// ------------------------------------------------------- the functions

/// USER.108 GetMessage(lpMsg, hWnd, wMsgFilterMin, wMsgFilterMax) -> BOOL:
/// FALSE for WM_QUIT.
///
/// With nothing in the queue the task gives up the CPU (scheduler.rs) and
/// looks again when it resumes; when no other task can run, the default
/// session's WM_CLOSE comes; after that, any other task that can still run
/// goes first; with none left the run stops ([`Stop::NoInput`]).
fn get_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    let filter = Filter {
        hwnd: a[1] as u16,
        min: a[2] as u16,
        max: a[3] as u16,
    };
    claim_script(env, htask);
    ddeml_wakes(env, uc, htask)?;
    if !env.win16.user.has_input(htask)
        && scheduler::yield_now(env, uc, Wait::Input, Resume::Retry)?
    {
        return Ok(0);
    }
    feed(env, uc, htask)?;
    match retrieve(env, uc, htask, filter, true, a[0])? {
        Some(m) => Ok(u32::from(m.message != WM_QUIT)),
        None if scheduler::yield_stuck(env, uc)? => Ok(0),
        None => Err(Stop::NoInput {
            what: "GetMessage waits on an empty queue and the session has no more input".into(),
        }),
    }
}

/// USER.109 PeekMessage(lpMsg, hWnd, min, max, wRemoveMsg) -> BOOL.
/// With nothing in the queue that the filter takes it gives up the CPU
/// (unless PM_NOYIELD) and returns FALSE when the task resumes; when every
/// other task waits, another task's timer that comes due before this
/// task's own fires first, so that task runs; when no other task can run, the
/// default session's WM_CLOSE comes as for GetMessage.
fn peek_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let flags = a[4] as u16;
    let remove = flags & PM_REMOVE != 0;
    let filter = Filter {
        hwnd: a[1] as u16,
        min: a[2] as u16,
        max: a[3] as u16,
    };
    let htask = uc.get_data().current_task;
    claim_script(env, htask);
    ddeml_wakes(env, uc, htask)?;
    // Nothing this call would take: give up the CPU (SDK, WaitMessage:
    // GetMessage, PeekMessage and WaitMessage yield to other
    // applications), also when messages outside the filter wait.
    let empty = |env: &Env| !has_matching(&env.win16.user, htask, &filter);
    if empty(env) && flags & PM_NOYIELD == 0 {
        wake_timer_task(env, uc, htask);
    }
    if empty(env)
        && flags & PM_NOYIELD == 0
        && scheduler::yield_now(env, uc, Wait::Input, Resume::After(0))?
    {
        return Ok(0);
    }
    feed(env, uc, htask)?;
    Ok(u32::from(
        retrieve(env, uc, htask, filter, remove, a[0])?.is_some(),
    ))
}

/// A task polling an empty queue (PeekMessage) while every other task
/// waits for input: when another task's timer comes due before this
/// task's own, that timer fires (the clock going on to its due time, as
/// the idle machine waits), so the other task is ready and PeekMessage
/// yields to it instead of this task's timer firing early.
fn wake_timer_task(env: &mut Env, uc: &mut Uc<'_>, htask: u16) {
    let s = &env.win16.scheduler;
    if s.suspended
        .iter()
        .any(|(h, st)| *h != htask && st.wait == Wait::Ready)
    {
        return;
    }
    let others: Vec<u16> = s
        .suspended
        .iter()
        .filter(|(h, st)| **h != htask && st.wait != Wait::Ready)
        .map(|(h, _)| *h)
        .collect();
    if others.iter().any(|h| env.win16.user.has_input(*h)) {
        return;
    }
    let own = super::timer::next_due(env, htask);
    let soonest = others
        .iter()
        .filter_map(|h| super::timer::next_due(env, *h).map(|d| (d, *h)))
        .min();
    if let Some((due, other)) = soonest
        && own.is_none_or(|o| due < o)
    {
        super::timer::fire_timer(env, uc, other, true);
    }
}

/// USER.112 WaitMessage(): returns when the task has a message (giving up
/// the CPU until then, the session feeding an empty queue).
fn wait_message(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    claim_script(env, htask);
    ddeml_wakes(env, uc, htask)?;
    if !env.win16.user.has_input(htask)
        && scheduler::yield_now(env, uc, Wait::Input, Resume::After(0))?
    {
        return Ok(0);
    }
    feed(env, uc, htask)?;
    Ok(0)
}

/// USER.113 TranslateMessage(lpMsg) -> BOOL: a WM_KEYDOWN (WM_SYSKEYDOWN)
/// of a key that types a character posts its WM_CHAR (WM_SYSCHAR), with
/// Shift and Caps Lock as the keyboard state has them.
pub(crate) fn translate_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(m) = read_msg(uc, a[0]) else {
        return Ok(0);
    };
    let sys = match m.message {
        WM_KEYDOWN => false,
        WM_SYSKEYDOWN => true,
        _ => return Ok(0),
    };
    let Some(ch) = super::input::char_of_key(env, m.wparam) else {
        return Ok(0);
    };
    let msg = if sys { WM_SYSCHAR } else { WM_CHAR };
    Ok(u32::from(post(
        env,
        uc,
        Msg::new(m.hwnd, msg, u16::from(ch), m.lparam),
    )))
}

/// USER.114 DispatchMessage(lpMsg) -> the window procedure's result.
/// WM_TIMER with a TimerProc calls it (hWnd, WM_TIMER, id, the time); a
/// WM_PAINT the procedure did not validate is validated afterwards.
pub(crate) fn dispatch_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(m) = read_msg(uc, a[0]) else {
        return Ok(0);
    };
    if m.message == WM_TIMER && m.lparam != 0 {
        let ds = env
            .win16
            .user
            .window(m.hwnd)
            .map(|w| instance_ds(w.hinstance))
            .unwrap_or(uc.reg(R::DS));
        let time = now_ms(env, uc);
        return callback(
            env,
            uc,
            m.lparam,
            ds,
            &[
                CallArg::W(m.hwnd),
                CallArg::W(m.message),
                CallArg::W(m.wparam),
                CallArg::L(time),
            ],
        );
    }
    let Some(w) = env.win16.user.window(m.hwnd) else {
        return Ok(0);
    };
    let other = w.htask != uc.get_data().current_task;
    let r = if other {
        send(env, uc, m.hwnd, m.message, m.wparam, m.lparam)?
    } else {
        deliver(env, uc, m.hwnd, m.message, m.wparam, m.lparam)?
    };
    if m.message == WM_PAINT
        && env
            .win16
            .user
            .window(m.hwnd)
            .is_some_and(|w| w.needs_paint())
    {
        event(
            uc,
            format!(
                "window {:04X} did not validate on WM_PAINT: validated",
                m.hwnd
            ),
        );
        super::paint::redraw(
            env,
            m.hwnd,
            None,
            RDW_VALIDATE | RDW_NOCHILDREN | RDW_NOFRAME | RDW_NOINTERNALPAINT,
        );
    }
    Ok(r)
}

/// USER.111 SendMessage(hWnd, msg, wParam, lParam).
fn send_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    send_as(env, uc, a[0] as u16, a[1] as u16, a[2] as u16, a[3], true)
}

/// USER.110 PostMessage(hWnd, msg, wParam, lParam) -> BOOL: FALSE when the
/// window does not exist or its queue is full. HWND_BROADCAST posts to
/// every top-level window.
fn post_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if hwnd == HWND_BROADCAST {
        for h in top_level_windows(env) {
            post(env, uc, Msg::new(h, msg, wparam, lparam));
        }
        return Ok(1);
    }
    if hwnd != 0 && env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    Ok(u32::from(post(
        env,
        uc,
        Msg::new(hwnd, msg, wparam, lparam),
    )))
}

/// USER.116 PostAppMessage(hTask, msg, wParam, lParam) -> BOOL: a message
/// with hWnd 0 in the task's queue.
fn post_app_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(htask) = env.win16.task_arg(uc, a[0] as u16) else {
        return Ok(0);
    };
    Ok(u32::from(post_to(
        env,
        uc,
        htask,
        Msg::new(0, a[1] as u16, a[2] as u16, a[3]),
        false,
    )))
}

/// USER.6 PostQuitMessage(nExitCode).
fn post_quit_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.user.queue(uc.get_data().current_task).quit = Some(a[0] as u16);
    Ok(0)
}

/// The message another task sent that the current task is handling, and
/// has not replied to yet: the innermost such (a message this task sends
/// itself meanwhile does not change it, as the queue's record of the
/// message received stays).
pub(crate) fn unreplied(env: &mut Env, current: u16) -> Option<&mut InSend> {
    env.win16
        .user
        .in_send
        .iter_mut()
        .rev()
        .find(|s| s.receiver == current)
        .filter(|s| s.reply.is_none())
}

/// USER.115 ReplyMessage(lResult) (void): the sender of the message
/// another task sent, being handled, gets this result and goes on as if
/// the window procedure had returned; the replying task goes on too
/// (SDK, ReplyMessage). Windows 3.1 yields to the sender at once
/// (scheduler.rs, "Replying"). No effect when the message was not sent
/// from another task, or was answered already.
fn reply_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let current = uc.get_data().current_task;
    let Some(s) = unreplied(env, current) else {
        return Ok(0);
    };
    s.reply = Some(a[0]);
    let sender = s.sender;
    scheduler::reply(env, uc, sender, a[0])?;
    Ok(0)
}

/// USER.192 InSendMessage(): is the current task handling a message
/// another task sent, not yet replied to? After ReplyMessage the sender
/// runs as though the procedure had returned (SDK, ReplyMessage), and the
/// queue no longer records a sender: FALSE.
fn in_send_message(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let current = uc.get_data().current_task;
    Ok(u32::from(unreplied(env, current).is_some()))
}

/// USER.119 GetMessagePos(): the cursor position (screen) of the last
/// message retrieved.
fn get_message_pos(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let p = env.win16.user.queue(uc.get_data().current_task).last_pos;
    Ok(point_lparam(p))
}

/// USER.288 GetMessageExtraInfo(): the extra information of the last
/// message retrieved (Windows 3.1 SDK): the value a keyboard or mouse
/// driver handed USER with a hardware event. Windows' own keyboard and
/// mouse drivers give 0 (only drivers such as Pen Windows' give more), and
/// so does every input of this session, so it is 0.
fn get_message_extra_info(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// USER.120 GetMessageTime(): the time (GetTickCount) of the last message
/// retrieved.
fn get_message_time(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.user.queue(uc.get_data().current_task).last_time)
}

/// The QS_ bits of what a task's queue holds now.
fn queue_bits(env: &Env, htask: u16) -> u16 {
    let u = &env.win16.user;
    let mut bits = 0;
    if let Some(q) = u.queues.get(&htask) {
        for m in &q.msgs {
            bits |= qs_bit(m.message, false);
        }
        for m in &q.input {
            bits |= qs_bit(m.message, true);
        }
    }
    if u.paint_pending(htask) {
        bits |= QS_PAINT;
    }
    bits
}

/// USER.334 GetQueueStatus(fuFlags) -> DWORD: the high word what the
/// queue holds now, the low word what arrived since the last call (both
/// masked by fuFlags); the second is cleared.
fn get_queue_status(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let flags = a[0] as u16;
    let htask = uc.get_data().current_task;
    let now = queue_bits(env, htask) & flags;
    let q = env.win16.user.queue(htask);
    let new = q.new_bits & flags;
    q.new_bits &= !flags;
    Ok(makelong(new, now))
}

/// USER.335 GetInputState() -> whether mouse or keyboard input waits.
fn get_input_state(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let bits = queue_bits(env, uc.get_data().current_task);
    Ok(u32::from(
        bits & (QS_KEY | QS_MOUSEBUTTON | QS_MOUSEMOVE) != 0,
    ))
}

/// USER.266 SetMessageQueue(cMsg) -> BOOL: a new queue of that many posted
/// messages (the old one's messages are lost).
fn set_message_queue(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = usize::from(a[0] as u16);
    if n == 0 {
        return Ok(0);
    }
    let q = env.win16.user.queue(uc.get_data().current_task);
    q.msgs.clear();
    q.size = n.min(MAX_QUEUE);
    Ok(1)
}

/// USER.118 RegisterWindowMessage(lpString) -> a message number from
/// 0xC000 (a global atom: the same string always gives the same number,
/// and RegisterClipboardFormat gives it too).
fn register_window_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = bytes_arg(uc, a[0], 255);
    if name.is_empty() {
        return Ok(0);
    }
    Ok(u32::from(
        env.win16
            .atoms
            .global
            .add(crate::win16::farptr::NameArg::Str(name)),
    ))
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
    call_proc(
        env,
        uc,
        split(a[0]),
        ds,
        hwnd,
        a[2] as u16,
        a[3] as u16,
        a[4],
    )
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
    Api::new("USER", 112, "WAITMESSAGE", &[], wait_message),
    Api::new(
        "USER",
        113,
        "TRANSLATEMESSAGE",
        &[Arg::L],
        translate_message,
    ),
    Api::new("USER", 114, "DISPATCHMESSAGE", &[Arg::L], dispatch_message),
    Api::new("USER", 115, "REPLYMESSAGE", &[Arg::L], reply_message),
    Api::new(
        "USER",
        116,
        "POSTAPPMESSAGE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        post_app_message,
    ),
    Api::new(
        "USER",
        118,
        "REGISTERWINDOWMESSAGE",
        &[Arg::L],
        register_window_message,
    ),
    Api::new("USER", 119, "GETMESSAGEPOS", &[], get_message_pos),
    Api::new("USER", 120, "GETMESSAGETIME", &[], get_message_time),
    Api::new(
        "USER",
        288,
        "GETMESSAGEEXTRAINFO",
        &[],
        get_message_extra_info,
    ),
    Api::new(
        "USER",
        122,
        "CALLWINDOWPROC",
        &[Arg::L, Arg::W, Arg::W, Arg::W, Arg::L],
        call_window_proc,
    ),
    Api::new("USER", 192, "INSENDMESSAGE", &[], in_send_message),
    Api::new("USER", 266, "SETMESSAGEQUEUE", &[Arg::W], set_message_queue),
    Api::new("USER", 334, "GETQUEUESTATUS", &[Arg::W], get_queue_status),
    Api::new("USER", 335, "GETINPUTSTATE", &[], get_input_state),
];

#[cfg(test)]
mod tests {
    use super::super::WM_KEYUP;
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

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

    #[test]
    fn msg_layout_and_filters() {
        let m = Msg {
            hwnd: 0x3000,
            message: WM_KEYDOWN,
            wparam: 0x41,
            lparam: 0x001E_0001,
            time: 0x1234_5678,
            pt: Point::new(-1, 300),
        };
        let b = msg_bytes(&m);
        assert_eq!(msg_from(&b), m);
        assert_eq!(&b[10..14], &[0x78, 0x56, 0x34, 0x12]);
        let f = Filter {
            hwnd: 0,
            min: WM_KEYFIRST,
            max: WM_KEYLAST,
        };
        assert!(f.accepts(&m));
        assert!(!f.accepts(&Msg::new(0x3000, WM_PAINT, 0, 0)));
        assert_eq!(qs_bit(WM_KEYUP, true), QS_KEY);
        assert_eq!(qs_bit(WM_TIMER, true), QS_TIMER);
    }

    const WM_KEYFIRST: u16 = WM_KEYDOWN;
    const WM_KEYLAST: u16 = 0x0108;
}
