//! USER, headless: window classes, windows, the message queue and loop,
//! painting, timers, menus, message boxes and dialog boxes — enough for a
//! normal program's whole life without a screen. One file per concept:
//!
//! | file | concept |
//! | --- | --- |
//! | `class.rs` | window classes (RegisterClass) |
//! | `window.rs` | windows: creation, showing, destruction, text, rectangles |
//! | `defwnd.rs` | DefWindowProc |
//! | `message.rs` | the queue, Get/Peek/Post/Send/DispatchMessage, the headless session feed |
//! | `paint.rs` | update state, BeginPaint/EndPaint, window DCs |
//! | `timer.rs` | SetTimer/KillTimer and the ticks of the emulated clock |
//! | `msgbox.rs` | MessageBox |
//! | `dialog.rs` | DialogBox, EndDialog |
//! | `menu.rs` | menus (and `menu/`: templates, layout, the system menu, the menu loop) |
//! | `accel.rs` | accelerators |
//! | `metrics.rs` | GetSystemMetrics |
//!
//! This file keeps USER's state ([`User`]) and what the files share:
//! message numbers, calling a window procedure ([`send`]) and posting to a
//! queue.
//!
//! Windows exist only as records; their procedures are called in emulated
//! code through [`super::callback::call_far`], so a walk from inside a
//! window procedure shows the program's frames, USER's frame, then the
//! program's frames that called USER.

use crate::env::Env;
use crate::machine::{Cpu, Stop, Uc, record_event};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::split;
use crate::win16::script::{Line, Script};
use defwnd::def_window_proc_impl;
use std::collections::VecDeque;

pub mod accel;
pub mod class;
pub mod controls;
pub mod defwnd;
pub mod dialog;
pub mod menu;
pub mod message;
pub mod metrics;
pub mod msgbox;
pub mod paint;
pub mod timer;
pub mod window;

pub use metrics::SCREEN;
pub use timer::{IDLE_TICKS, Timer};

pub const WM_CREATE: u16 = 0x0001;
pub const WM_DESTROY: u16 = 0x0002;
pub const WM_MOVE: u16 = 0x0003;
pub const WM_SIZE: u16 = 0x0005;
pub const WM_ACTIVATE: u16 = 0x0006;
pub const WM_SETFOCUS: u16 = 0x0007;
pub const WM_PAINT: u16 = 0x000F;
pub const WM_CLOSE: u16 = 0x0010;
pub const WM_QUIT: u16 = 0x0012;
pub const WM_ERASEBKGND: u16 = 0x0014;
pub const WM_SHOWWINDOW: u16 = 0x0018;
pub const WM_GETMINMAXINFO: u16 = 0x0024;
pub const WM_NCCREATE: u16 = 0x0081;
pub const WM_NCDESTROY: u16 = 0x0082;
pub const WM_NCCALCSIZE: u16 = 0x0083;
pub const WM_INITDIALOG: u16 = 0x0110;
pub const WM_COMMAND: u16 = 0x0111;
pub const WM_SYSCOMMAND: u16 = 0x0112;
pub const WM_TIMER: u16 = 0x0113;
pub const WM_KEYDOWN: u16 = 0x0100;
pub const WM_KEYUP: u16 = 0x0101;
pub const WM_CHAR: u16 = 0x0102;
pub const WM_INITMENU: u16 = 0x0116;
pub const WM_LBUTTONDOWN: u16 = 0x0201;
pub const WM_LBUTTONUP: u16 = 0x0202;
pub const WM_RBUTTONDOWN: u16 = 0x0204;
pub const WM_RBUTTONUP: u16 = 0x0205;
const WS_CHILD: u32 = 0x4000_0000;
const WS_VISIBLE: u32 = 0x1000_0000;

/// Most classes, windows and queued messages a session keeps: a runaway
/// program gets a failure (0), never unbounded host memory.
const MAX_CLASSES: usize = 256;
const MAX_WINDOWS: usize = 4096;
const MAX_QUEUE: usize = 4096;

/// A registered window class.
#[derive(Debug, Clone)]
pub struct WndClass {
    pub name: String,
    pub atom: u16,
    pub style: u16,
    pub wndproc: (u16, u16),
    pub cls_extra: u16,
    pub wnd_extra: u16,
    pub hinstance: u16,
    pub menu: Option<String>,
}

/// A window.
#[derive(Debug, Clone)]
pub struct Window {
    pub hwnd: u16,
    pub class: String,
    pub title: String,
    pub style: u32,
    pub rect: (i16, i16, i16, i16),
    pub parent: u16,
    pub id: u16,
    pub hinstance: u16,
    pub wndproc: (u16, u16),
    pub htask: u16,
    pub visible: bool,
    pub destroyed: bool,
    pub needs_paint: bool,
    pub extra: Vec<u8>,
    /// For dialog boxes: EndDialog's result once ended.
    pub dialog_result: Option<u16>,
}

/// A posted message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Msg {
    pub hwnd: u16,
    pub message: u16,
    pub wparam: u16,
    pub lparam: u32,
}

/// One task's message queue (every Win16 task has its own, TDB+20h
/// hQueue), with what the default session keeps per task.
#[derive(Debug, Default, Clone)]
pub struct Queue {
    pub msgs: VecDeque<Msg>,
    /// PostQuitMessage's exit code, once posted.
    pub quit: Option<u16>,
    /// The task's main window (its first top-level window shown).
    pub main_window: u16,
    /// The default session's WM_CLOSE was sent.
    pub close_sent: bool,
    /// Its script input lines still to deliver, in order.
    pub script: VecDeque<Line>,
    /// Its `msgbox` and `dialog` script lines still to use.
    pub answers: VecDeque<Line>,
    /// Ticks fired on an idle queue since its last script line, by timer
    /// (hWnd, id): kept when a timer is killed and set again, so that a
    /// program that re-arms its timer in WM_TIMER still runs out of them.
    pub idle_fired: std::collections::BTreeMap<(u16, u16), u8>,
}

/// USER's state.
#[derive(Debug, Default)]
pub struct User {
    pub classes: Vec<WndClass>,
    pub windows: Vec<Window>,
    /// Message queues by hTask.
    pub queues: std::collections::BTreeMap<u16, Queue>,
    pub timers: Vec<Timer>,
    /// Messages handed out, for MSG.time.
    pub msg_time: u32,
    /// Script lines no task has taken yet (see [`User::set_script`]).
    pub unclaimed: Vec<Line>,
    /// Every menu and the menu loop's state (menu.rs).
    pub menus: menu::Menus,
    /// The keyboard state the task has seen, by virtual key: 0x80 down
    /// (between the key-down and key-up messages GetMessage/PeekMessage
    /// took from the queue).
    pub key_state: Vec<u8>,
    /// The predefined control classes and each control's state.
    pub controls: controls::Controls,
    /// Each dialog box's state (dialog.rs).
    pub dialogs: dialog::Dialogs,
}

impl User {
    /// The queue of task `htask` (made when first used).
    pub fn queue(&mut self, htask: u16) -> &mut Queue {
        self.queues.entry(htask).or_default()
    }

    /// A `--messages` script for the session: each line goes to its task
    /// (script.rs, "Which task") when that task first asks for messages
    /// or opens a box.
    pub fn set_script(&mut self, script: Script) {
        self.unclaimed = script.lines;
    }

    /// Does task `htask` have something GetMessage would return without
    /// the timers or the default WM_CLOSE: a posted message, WM_QUIT, a
    /// visible window that needs painting, or a script input line for its
    /// main window?
    pub fn has_input(&self, htask: u16) -> bool {
        self.has_queued(htask) || self.script_pending(htask)
    }

    /// A posted message, WM_QUIT or a window to paint?
    fn has_queued(&self, htask: u16) -> bool {
        self.queues
            .get(&htask)
            .is_some_and(|q| !q.msgs.is_empty() || q.quit.is_some())
            || self
                .windows
                .iter()
                .any(|w| w.htask == htask && w.needs_paint && w.visible && !w.destroyed)
    }

    /// A script input line that can be delivered now (the main window is
    /// there)?
    fn script_pending(&self, htask: u16) -> bool {
        self.queues
            .get(&htask)
            .is_some_and(|q| !q.script.is_empty() && self.window(q.main_window).is_some())
    }

    pub fn window(&self, hwnd: u16) -> Option<&Window> {
        self.windows.iter().find(|w| w.hwnd == hwnd && !w.destroyed)
    }
    fn window_mut(&mut self, hwnd: u16) -> Option<&mut Window> {
        self.windows
            .iter_mut()
            .find(|w| w.hwnd == hwnd && !w.destroyed)
    }
}

/// A string argument: a far pointer to ASCIZ text, or (segment 0) an
/// integer atom / resource id, shown as `#n`.
fn string_arg(uc: &Uc<'_>, p: u32) -> String {
    let (seg, off) = split(p);
    if seg == 0 {
        return format!("#{off}");
    }
    String::from_utf8_lossy(&crate::dos::read_until(uc, seg, off, 0, 256)).into_owned()
}

fn put(b: &mut [u8], off: usize, v: u16) {
    b[off..off + 2].copy_from_slice(&v.to_le_bytes());
}

fn get(b: &[u8], off: usize) -> u16 {
    u16::from_le_bytes([b[off], b[off + 1]])
}

/// The data segment for code of instance `h` (hInstance is DGROUP's
/// handle).
pub fn instance_ds(h: u16) -> u16 {
    super::selector_of_handle(h)
}

/// USER's thunk segment: where callbacks from USER return.
fn user_cs(env: &Env) -> Result<u16, Stop> {
    env.win16
        .module_by_name("USER")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("USER is not loaded".into()))
}

fn event(uc: &mut Uc<'_>, text: String) {
    record_event(uc, text);
}

/// Call window `hwnd`'s procedure with a message; `scratch` is pushed on the
/// stack and `lparam` may point at it. Returns DX:AX and the scratch data.
fn call_wndproc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: CallArg,
    scratch: &[u8],
) -> Result<(u32, Vec<u8>), Stop> {
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok((0, scratch.to_vec()));
    };
    let (proc_, ds) = (w.wndproc, instance_ds(w.hinstance));
    let lp = match lparam {
        CallArg::L(l) => format!("{:04X}:{:04X}", l >> 16, l & 0xFFFF),
        _ => "(data)".into(),
    };
    event(
        uc,
        format!(
            "message {hwnd:04X} {}({wparam:04X}, {lp})",
            message_name(msg)
        ),
    );
    if let Some(api) = controls::native_proc(env, proc_) {
        return controls::call_native(env, uc, api, hwnd, msg, wparam, lparam, scratch);
    }
    if proc_ == DEFWINDOWPROC {
        let lp = match lparam {
            CallArg::L(l) => l,
            _ => 0,
        };
        return Ok((
            def_window_proc_impl(env, uc, hwnd, msg, wparam, lp)?,
            scratch.to_vec(),
        ));
    }
    let cs = user_cs(env)?;
    let r = call_far(
        env,
        uc,
        cs,
        proc_,
        ds,
        scratch,
        &[
            CallArg::W(hwnd),
            CallArg::W(msg),
            CallArg::W(wparam),
            lparam,
        ],
    )?;
    Ok((r.value, r.scratch))
}

/// The name of a window message, or its number.
pub fn message_name(msg: u16) -> String {
    let name = match msg {
        WM_CREATE => "WM_CREATE",
        WM_DESTROY => "WM_DESTROY",
        WM_MOVE => "WM_MOVE",
        WM_SIZE => "WM_SIZE",
        WM_ACTIVATE => "WM_ACTIVATE",
        WM_SETFOCUS => "WM_SETFOCUS",
        WM_PAINT => "WM_PAINT",
        WM_CLOSE => "WM_CLOSE",
        WM_QUIT => "WM_QUIT",
        WM_ERASEBKGND => "WM_ERASEBKGND",
        WM_SHOWWINDOW => "WM_SHOWWINDOW",
        WM_GETMINMAXINFO => "WM_GETMINMAXINFO",
        WM_NCCREATE => "WM_NCCREATE",
        WM_NCDESTROY => "WM_NCDESTROY",
        WM_NCCALCSIZE => "WM_NCCALCSIZE",
        WM_INITDIALOG => "WM_INITDIALOG",
        WM_COMMAND => "WM_COMMAND",
        WM_SYSCOMMAND => "WM_SYSCOMMAND",
        WM_TIMER => "WM_TIMER",
        WM_KEYDOWN => "WM_KEYDOWN",
        WM_KEYUP => "WM_KEYUP",
        WM_CHAR => "WM_CHAR",
        WM_INITMENU => "WM_INITMENU",
        WM_LBUTTONDOWN => "WM_LBUTTONDOWN",
        WM_LBUTTONUP => "WM_LBUTTONUP",
        WM_RBUTTONDOWN => "WM_RBUTTONDOWN",
        WM_RBUTTONUP => "WM_RBUTTONUP",
        menu::track::WM_INITMENUPOPUP => "WM_INITMENUPOPUP",
        menu::track::WM_MENUSELECT => "WM_MENUSELECT",
        menu::track::WM_MENUCHAR => "WM_MENUCHAR",
        menu::track::WM_NCLBUTTONDOWN => "WM_NCLBUTTONDOWN",
        menu::track::WM_SYSKEYDOWN => "WM_SYSKEYDOWN",
        menu::track::WM_SYSKEYUP => "WM_SYSKEYUP",
        menu::track::WM_SYSCHAR => "WM_SYSCHAR",
        menu::layout::WM_MEASUREITEM => "WM_MEASUREITEM",
        _ => return format!("message {msg:04X}"),
    };
    name.to_string()
}

/// A stand-in procedure for windows of built-in classes: DefWindowProc.
const DEFWINDOWPROC: (u16, u16) = (0, 0);

/// SendMessage: the window procedure runs now, nested.
pub fn send(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    Ok(call_wndproc(env, uc, hwnd, msg, wparam, CallArg::L(lparam), &[])?.0)
}

/// Post a message to the queue of the task that owns its window (the
/// current task's for hWnd 0).
fn post(env: &mut Env, current: u16, m: Msg) -> bool {
    let u = &mut env.win16.user;
    let htask = u.window(m.hwnd).map(|w| w.htask).unwrap_or(current);
    let q = u.queue(htask);
    if q.msgs.len() >= MAX_QUEUE {
        return false;
    }
    q.msgs.push_back(m);
    true
}

/// Client size of a window whose outer size is (cx, cy): a 4-pixel frame,
/// a 19-pixel caption and an 18-pixel menu bar for top-level windows.
fn client_size(w: &Window, has_menu: bool) -> (i16, i16) {
    let (cx, cy) = (w.rect.2 - w.rect.0, w.rect.3 - w.rect.1);
    if w.style & WS_CHILD != 0 {
        (cx.max(0), cy.max(0))
    } else {
        let menu = if has_menu { 18 } else { 0 };
        ((cx - 8).max(0), (cy - 8 - 19 - menu).max(0))
    }
}

fn write_rect(uc: &mut Uc<'_>, p: u32, r: (i16, i16, i16, i16)) -> bool {
    let mut b = [0u8; 8];
    for (i, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
        put(&mut b, i * 2, *v as u16);
    }
    let (seg, off) = split(p);
    uc.write_seg(seg, off, &b).is_ok()
}
