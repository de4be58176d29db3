//! USER, headless: window classes, windows, the message queue and loop,
//! painting, timers, menus, message boxes and dialog boxes — enough for a
//! normal program's whole life without a screen.
//!
//! Windows exist only as records; their procedures are called in emulated
//! code through [`super::callback::call_far`], so a walk from inside a
//! window procedure shows the program's frames, USER's frame, then the
//! program's frames that called USER.
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
//!    [`IDLE_TICKS`] times after the task's last script input line (a
//!    `timer N` line fires them regardless);
//! 3. the default session's WM_CLOSE, once, to the main window: a
//!    well-behaved program destroys it, posts WM_QUIT and leaves its
//!    message loop. A queue that runs empty again afterwards can never be
//!    filled: the run stops with [`Stop::NoInput`].
//!
//! Pending script input counts as input for the scheduler
//! ([`User::has_input`]); timers and the default WM_CLOSE do not, so other
//! tasks that can run go first.
//!
//! Message boxes are recorded (`--events`) and answered with the task's
//! next `msgbox` script line, else with their first button (IDOK for MB_OK
//! and MB_OKCANCEL, IDYES for MB_YESNO[CANCEL], IDABORT, IDRETRY). A
//! dialog box gets WM_INITDIALOG, then, unless its procedure already ended
//! it, WM_COMMAND with the id of the task's next `dialog` script line, then
//! (if still not ended) WM_COMMAND IDCANCEL; it returns what EndDialog was
//! given (IDCANCEL when nothing ended it).
//!
//! Menus are handles without items: LoadMenu (resource.rs) and CreateMenu
//! make them, a top-level window gets its class's menu, and
//! CheckMenuItem / EnableMenuItem / GetMenuState remember each item's
//! state by (menu, item). A script's `command ID` sends WM_INITMENU to the
//! main window (when it has a menu) and posts WM_COMMAND (wParam = ID,
//! lParam = 0) as choosing the item would; an item disabled or grayed by
//! command is not chosen (the event says so).

use std::collections::VecDeque;

use super::api::{Api, Arg};
use super::callback::{CallArg, call_far};
use super::farptr::{NameArg, split};
use super::scheduler::{self, Resume, Wait};
use super::script::{Action, Line, Script};
use crate::env::Env;
use crate::machine::{Cpu, R, Stop, Uc, record_event};

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

const MK_LBUTTON: u16 = 0x0001;
const MK_RBUTTON: u16 = 0x0002;
const MF_BYPOSITION: u16 = 0x0400;
const MF_GRAYED: u16 = 0x0001;
const MF_DISABLED: u16 = 0x0002;
const MF_CHECKED: u16 = 0x0008;

/// How many times each timer fires on an otherwise empty queue after the
/// task's last script input line (module doc).
pub const IDLE_TICKS: u8 = 3;

const SC_CLOSE: u16 = 0xF060;
const IDCANCEL: u16 = 2;
const WS_CHILD: u32 = 0x4000_0000;
const WS_VISIBLE: u32 = 0x1000_0000;
const CW_USEDEFAULT: u16 = 0x8000;

/// The emulated screen, for default window sizes and GetSystemMetrics.
pub const SCREEN: (i16, i16) = (640, 480);

/// Most classes, windows and queued messages a session keeps: a runaway
/// program gets a failure (0), never unbounded host memory.
const MAX_CLASSES: usize = 256;
const MAX_WINDOWS: usize = 4096;
const MAX_QUEUE: usize = 4096;
const MAX_TIMERS: usize = 64;
const MAX_MENUS: u16 = 256;
const MAX_MENU_STATES: usize = 4096;

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

/// A timer (SetTimer).
#[derive(Debug, Clone, Copy)]
pub struct Timer {
    pub hwnd: u16,
    pub id: u16,
    pub elapse: u32,
    pub proc_: (u16, u16),
    /// The task whose queue gets its WM_TIMER: its window's, or the one
    /// that set it.
    pub htask: u16,
    /// When it is due next, in emulated milliseconds (GetTickCount).
    pub due: u64,
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
    /// Menus made by CreateMenu / CreatePopupMenu so far.
    pub menus_created: u16,
    /// Check and enable flags of menu items by (hMenu, item, by position).
    pub menu_states: std::collections::BTreeMap<(u16, u16, bool), u16>,
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

// ---------------------------------------------------------------------------
// The API functions.

/// USER.57 RegisterClass(lpWndClass) -> ATOM.
fn register_class(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[0]);
    let mut b = [0u8; 0x1A];
    if uc.read_seg(seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let name_p = u32::from(get(&b, 0x18)) << 16 | u32::from(get(&b, 0x16));
    let menu_p = u32::from(get(&b, 0x14)) << 16 | u32::from(get(&b, 0x12));
    // Class names keep their case and compare without it, like atoms.
    let name = string_arg(uc, name_p);
    let u = &mut env.win16.user;
    if u.classes.iter().any(|c| c.name.eq_ignore_ascii_case(&name))
        || u.classes.len() >= MAX_CLASSES
    {
        return Ok(0);
    }
    let atom = 0xC000 + u.classes.len() as u16;
    u.classes.push(WndClass {
        name,
        atom,
        style: get(&b, 0),
        wndproc: (get(&b, 4), get(&b, 2)),
        cls_extra: get(&b, 6),
        wnd_extra: get(&b, 8),
        hinstance: get(&b, 0x0A),
        menu: (menu_p != 0).then(|| string_arg(uc, menu_p)),
    });
    Ok(u32::from(atom))
}

/// USER.41 CreateWindow(lpClassName, lpWindowName, dwStyle, X, Y, nWidth,
/// nHeight, hWndParent, hMenu, hInstance, lpParam) -> HWND.
///
/// Sends WM_GETMINMAXINFO, WM_NCCREATE, WM_NCCALCSIZE, WM_CREATE (with a
/// CREATESTRUCT on the stack), then WM_SIZE and WM_MOVE, and shows the
/// window if WS_VISIBLE, as Windows 3.1's CreateWindow does.
fn create_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let class_name = string_arg(uc, a[0]).to_ascii_uppercase();
    let title = if a[1] == 0 {
        String::new()
    } else {
        string_arg(uc, a[1])
    };
    let style = a[2];
    let (mut x, mut y, mut cx, mut cy) = (a[3] as u16, a[4] as u16, a[5] as u16, a[6] as u16);
    let (parent, menu, hinstance, param) = (a[7] as u16, a[8] as u16, a[9] as u16, a[10]);
    let Some(class) = env
        .win16
        .user
        .classes
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(&class_name) || class_name == format!("#{}", c.atom))
        .cloned()
    else {
        event(uc, format!("CreateWindow: no class {class_name:?}"));
        return Ok(0);
    };
    if env.win16.user.windows.len() >= MAX_WINDOWS {
        return Ok(0);
    }
    if x == CW_USEDEFAULT {
        (x, y) = (16, 16);
    }
    if cx == CW_USEDEFAULT {
        (cx, cy) = ((SCREEN.0 * 3 / 4) as u16, (SCREEN.1 * 3 / 4) as u16);
    }
    let hwnd = 0x3000 + 4 * env.win16.user.windows.len() as u16;
    // A top-level window without a menu of its own gets its class's.
    let id = match &class.menu {
        Some(name) if menu == 0 && style & WS_CHILD == 0 => {
            let name = match name.strip_prefix('#').map(str::parse::<u16>) {
                Some(Ok(n)) => NameArg::Int(n),
                _ => NameArg::Str(name.as_bytes().to_vec()),
            };
            super::resource::menu_handle(env, hinstance, &name)
        }
        _ => menu,
    };
    let rect = (
        x as i16,
        y as i16,
        (x as i16).wrapping_add(cx as i16),
        (y as i16).wrapping_add(cy as i16),
    );
    let htask = uc.get_data().current_task;
    env.win16.user.windows.push(Window {
        hwnd,
        class: class.name.clone(),
        title: title.clone(),
        style,
        rect,
        parent,
        id,
        hinstance,
        wndproc: class.wndproc,
        htask,
        visible: false,
        destroyed: false,
        needs_paint: false,
        extra: vec![0; usize::from(class.wnd_extra.min(1024))],
        dialog_result: None,
    });
    event(
        uc,
        format!(
            "window {hwnd:04X} created: class {} title {title:?}",
            class.name
        ),
    );
    // CREATESTRUCT: lpCreateParams, hInstance, hMenu, hwndParent, cy, cx,
    // y, x, style, lpszName, lpszClass, dwExStyle.
    let mut cs = vec![0u8; 0x22];
    cs[0..4].copy_from_slice(&param.to_le_bytes());
    put(&mut cs, 4, hinstance);
    put(&mut cs, 6, menu);
    put(&mut cs, 8, parent);
    put(&mut cs, 0x0A, cy);
    put(&mut cs, 0x0C, cx);
    put(&mut cs, 0x0E, y);
    put(&mut cs, 0x10, x);
    cs[0x12..0x16].copy_from_slice(&style.to_le_bytes());
    cs[0x16..0x1A].copy_from_slice(&a[1].to_le_bytes());
    cs[0x1A..0x1E].copy_from_slice(&a[0].to_le_bytes());
    if style & WS_CHILD == 0 {
        // MINMAXINFO: ptReserved, ptMaxSize, ptMaxPosition, ptMinTrackSize,
        // ptMaxTrackSize.
        let mut mm = vec![0u8; 20];
        for (i, v) in [0, 0, SCREEN.0, SCREEN.1, 0, 0, 100, 50, SCREEN.0, SCREEN.1]
            .iter()
            .enumerate()
        {
            put(&mut mm, i * 2, *v as u16);
        }
        call_wndproc(env, uc, hwnd, WM_GETMINMAXINFO, 0, CallArg::Scratch, &mm)?;
    }
    let (r, _) = call_wndproc(env, uc, hwnd, WM_NCCREATE, 0, CallArg::Scratch, &cs)?;
    if r == 0 {
        destroy(env, uc, hwnd)?;
        return Ok(0);
    }
    let mut rc = vec![0u8; 8];
    for (i, v) in [rect.0, rect.1, rect.2, rect.3].iter().enumerate() {
        put(&mut rc, i * 2, *v as u16);
    }
    call_wndproc(env, uc, hwnd, WM_NCCALCSIZE, 0, CallArg::Scratch, &rc)?;
    let (r, _) = call_wndproc(env, uc, hwnd, WM_CREATE, 0, CallArg::Scratch, &cs)?;
    if r as u16 == 0xFFFF {
        destroy(env, uc, hwnd)?;
        return Ok(0);
    }
    let Some(w) = env.win16.user.window(hwnd) else {
        return Ok(0);
    };
    let (ccx, ccy) = client_size(w, class.menu.is_some() || menu != 0);
    send(
        env,
        uc,
        hwnd,
        WM_SIZE,
        0,
        u32::from(ccy as u16) << 16 | u32::from(ccx as u16),
    )?;
    send(env, uc, hwnd, WM_MOVE, 0, u32::from(y) << 16 | u32::from(x))?;
    if style & WS_VISIBLE != 0 {
        show(env, uc, hwnd, true)?;
    }
    Ok(u32::from(hwnd))
}

/// Make a window visible or hidden; the first top-level window the task
/// shows becomes its main window.
fn show(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, visible: bool) -> Result<bool, Stop> {
    let Some(w) = env.win16.user.window_mut(hwnd) else {
        return Ok(false);
    };
    let was = w.visible;
    if was == visible {
        return Ok(was);
    }
    w.visible = visible;
    if visible {
        w.needs_paint = true;
    }
    let top = w.style & WS_CHILD == 0;
    let htask = w.htask;
    let q = env.win16.user.queue(htask);
    if visible && top && q.main_window == 0 {
        q.main_window = hwnd;
    }
    send(env, uc, hwnd, WM_SHOWWINDOW, u16::from(visible), 0)?;
    if visible && top {
        send(env, uc, hwnd, WM_ACTIVATE, 1, 0)?;
        send(env, uc, hwnd, WM_SETFOCUS, 0, 0)?;
    }
    Ok(was)
}

/// USER.42 ShowWindow(hWnd, nCmdShow) -> was visible.
fn show_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let visible = a[1] as u16 != 0; // SW_HIDE = 0
    Ok(u32::from(show(env, uc, a[0] as u16, visible)?))
}

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

/// Destroy a window: WM_DESTROY and WM_NCDESTROY, children first.
fn destroy(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<bool, Stop> {
    if env.win16.user.window(hwnd).is_none() {
        return Ok(false);
    }
    let children: Vec<u16> = env
        .win16
        .user
        .windows
        .iter()
        .filter(|w| w.parent == hwnd && !w.destroyed && w.style & WS_CHILD != 0)
        .map(|w| w.hwnd)
        .collect();
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.visible = false;
    }
    send(env, uc, hwnd, WM_DESTROY, 0, 0)?;
    for c in children {
        destroy(env, uc, c)?;
    }
    send(env, uc, hwnd, WM_NCDESTROY, 0, 0)?;
    if let Some(w) = env.win16.user.window_mut(hwnd) {
        w.destroyed = true;
    }
    env.win16.user.timers.retain(|t| t.hwnd != hwnd);
    event(uc, format!("window {hwnd:04X} destroyed"));
    Ok(true)
}

/// USER.53 DestroyWindow(hWnd).
fn destroy_window(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(destroy(env, uc, a[0] as u16)?))
}

/// DefWindowProc's answers.
fn def_window_proc_impl(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    _lparam: u32,
) -> Result<u32, Stop> {
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
fn claim_script(env: &mut Env, htask: u16) {
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
fn take_answer(env: &mut Env, htask: u16, dialog: bool) -> Option<(usize, u16)> {
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

/// The emulated clock in milliseconds (GetTickCount).
fn now_ms(env: &mut Env, uc: &Uc<'_>) -> u64 {
    u64::from(env.win16.system.tick_ms(uc.get_data().insns))
}

/// Fire task `htask`'s timer that is due soonest (the first set, among
/// equals): WM_TIMER is posted, the clock skipping ahead to its due time
/// when that is still to come (module doc). With `idle`, only timers that
/// have fired fewer than [`IDLE_TICKS`] times since the last script line
/// count. False when no timer fires.
fn fire_timer(env: &mut Env, uc: &mut Uc<'_>, htask: u16, idle: bool) -> bool {
    let now = now_ms(env, uc);
    let u = &env.win16.user;
    let fired = u.queues.get(&htask).map(|q| &q.idle_fired);
    // At most MAX_TIMERS timers ever get idle ticks between script lines.
    let may_idle = |t: &Timer| {
        let n = fired.and_then(|f| f.get(&(t.hwnd, t.id)).copied());
        let room = fired.is_none_or(|f| f.len() < MAX_TIMERS);
        n.map_or(room, |n| n < IDLE_TICKS)
    };
    let Some(i) = u
        .timers
        .iter()
        .enumerate()
        .filter(|(_, t)| t.htask == htask && (!idle || may_idle(t)))
        .filter(|(_, t)| t.hwnd == 0 || u.window(t.hwnd).is_some())
        .min_by_key(|(i, t)| (t.due, *i))
        .map(|(i, _)| i)
    else {
        return false;
    };
    if u.queues
        .get(&htask)
        .is_some_and(|q| q.msgs.len() >= MAX_QUEUE)
    {
        return false;
    }
    let t = &mut env.win16.user.timers[i];
    let at = t.due.max(now);
    t.due = at + u64::from(t.elapse.max(1));
    let key = (t.hwnd, t.id);
    let m = Msg {
        hwnd: t.hwnd,
        message: WM_TIMER,
        wparam: t.id,
        lparam: u32::from(t.proc_.0) << 16 | u32::from(t.proc_.1),
    };
    env.win16.system.idle_ms += at - now;
    let q = env.win16.user.queue(htask);
    if idle {
        *q.idle_fired.entry(key).or_default() += 1;
    }
    q.msgs.push_back(m);
    event(
        uc,
        format!("timer {:04X} #{} fires at {at} ms", m.hwnd, m.wparam),
    );
    true
}

/// Deliver task `htask`'s next script input line to its main window:
/// true when it posted a message.
fn deliver_line(env: &mut Env, uc: &mut Uc<'_>, htask: u16) -> Result<bool, Stop> {
    let u = &mut env.win16.user;
    let q = u.queue(htask);
    let main = q.main_window;
    let Some(line) = q.script.front_mut() else {
        return Ok(false);
    };
    let (number, action) = (line.number, line.action);
    // A `timer N` line stays first until its N ticks are out.
    match &mut line.action {
        Action::Timer(n) if *n > 1 => *n -= 1,
        _ => {
            q.script.pop_front();
        }
    }
    q.idle_fired.clear();
    event(uc, format!("script line {number}: {action}"));
    let msg = |message, wparam, lparam| Msg {
        hwnd: main,
        message,
        wparam,
        lparam,
    };
    let msgs = match action {
        Action::Key(k) => vec![
            msg(WM_KEYDOWN, k.vk, k.lparam_down()),
            msg(WM_KEYUP, k.vk, k.lparam_up()),
        ],
        Action::Char(c) => vec![msg(
            WM_CHAR,
            u16::from(c),
            1 | u32::from(super::script::scan_of_char(c)) << 16,
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
            let menu = env.win16.user.window(main).map_or(0, |w| w.id);
            let state = env
                .win16
                .user
                .menu_states
                .get(&(menu, id, false))
                .copied()
                .unwrap_or(0);
            if menu != 0 && state & (MF_GRAYED | MF_DISABLED) != 0 {
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
        Action::MsgBox(_) | Action::Dialog(_) => Vec::new(),
    };
    let mut posted = false;
    for m in msgs {
        posted |= post(env, htask, m);
    }
    Ok(posted)
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

/// USER.113 TranslateMessage(lpMsg) -> BOOL: a WM_KEYDOWN of a key that
/// types a character (script.rs's keyboard) posts its WM_CHAR, ahead of
/// the queued input as Windows' posted messages come before input.
fn translate_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (seg, off) = split(a[0]);
    let mut b = [0u8; 10];
    if uc.read_seg(seg, off, &mut b).is_err() {
        return Ok(0);
    }
    let (hwnd, msg, wparam) = (get(&b, 0), get(&b, 2), get(&b, 4));
    let lparam = u32::from_le_bytes([b[6], b[7], b[8], b[9]]);
    if msg != WM_KEYDOWN {
        return Ok(0);
    }
    let ch = match wparam {
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
        message: WM_CHAR,
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

fn write_rect(uc: &mut Uc<'_>, p: u32, r: (i16, i16, i16, i16)) -> bool {
    let mut b = [0u8; 8];
    for (i, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
        put(&mut b, i * 2, *v as u16);
    }
    let (seg, off) = split(p);
    uc.write_seg(seg, off, &b).is_ok()
}

/// USER.33 GetClientRect(hWnd, lpRect).
fn get_client_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(a[0] as u16) else {
        return Ok(0);
    };
    let has_menu = w.id != 0
        || env
            .win16
            .user
            .classes
            .iter()
            .any(|c| c.name == w.class && c.menu.is_some());
    let (cx, cy) = client_size(w, has_menu && w.style & WS_CHILD == 0);
    write_rect(uc, a[1], (0, 0, cx, cy));
    Ok(0)
}

/// USER.32 GetWindowRect(hWnd, lpRect).
fn get_window_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(w) = env.win16.user.window(a[0] as u16) {
        let r = w.rect;
        write_rect(uc, a[1], r);
    }
    Ok(0)
}

/// USER.179 GetSystemMetrics(nIndex): a 640x480 VGA screen.
fn get_system_metrics(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match a[0] as u16 {
        0 | 16 => SCREEN.0 as u32,    // SM_CXSCREEN, SM_CXFULLSCREEN
        1 => SCREEN.1 as u32,         // SM_CYSCREEN
        17 => (SCREEN.1 - 19) as u32, // SM_CYFULLSCREEN
        2 | 3 | 20 | 21 => 16,        // scroll bar sizes
        4 => 19,                      // SM_CYCAPTION
        5 | 6 => 1,                   // border
        7 | 8 => 4,                   // dialog frame
        11..=14 => 32,                // icon and cursor sizes
        15 => 18,                     // SM_CYMENU
        32 | 33 => 4,                 // frame
        _ => 0,
    })
}

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
        format!("message box {caption:?}: {text:?} answered {answer}{by}"),
    );
    // The box's modal loop lets the other tasks run.
    scheduler::yield_now(env, uc, Wait::Ready, Resume::After(answer))?;
    Ok(answer)
}

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
    event(uc, format!("dialog {template:?} opened as {hwnd:04X}"));
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

/// USER.10 SetTimer(hWnd, nIDEvent, wElapse, lpTimerFunc) -> id: due
/// wElapse milliseconds from now on the emulated clock (module doc).
fn set_timer(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let elapse = a[2] & 0xFFFF;
    let now = now_ms(env, uc);
    let htask = env
        .win16
        .user
        .window(hwnd)
        .map_or(uc.get_data().current_task, |w| w.htask);
    let t = Timer {
        hwnd,
        id: a[1] as u16,
        elapse,
        proc_: split(a[3]),
        htask,
        due: now + u64::from(elapse.max(1)),
    };
    let u = &mut env.win16.user;
    u.timers.retain(|x| !(x.hwnd == t.hwnd && x.id == t.id));
    if u.timers.len() >= MAX_TIMERS {
        return Ok(0);
    }
    u.timers.push(t);
    Ok(u32::from(t.id.max(1)))
}

/// USER.12 KillTimer(hWnd, nIDEvent).
fn kill_timer(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let u = &mut env.win16.user;
    let n = u.timers.len();
    u.timers
        .retain(|x| !(x.hwnd == a[0] as u16 && x.id == a[1] as u16));
    Ok(u32::from(u.timers.len() != n))
}

/// USER.36 GetWindowText(hWnd, lpString, nMaxCount).
fn get_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(w) = env.win16.user.window(a[0] as u16) else {
        return Ok(0);
    };
    let max = usize::from(a[2] as u16);
    if max == 0 {
        return Ok(0);
    }
    let mut t: Vec<u8> = w.title.bytes().take(max - 1).collect();
    let n = t.len();
    t.push(0);
    let (seg, off) = split(a[1]);
    Ok(if uc.write_seg(seg, off, &t).is_ok() {
        n as u32
    } else {
        0
    })
}

/// USER.37 SetWindowText(hWnd, lpString).
fn set_window_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let t = string_arg(uc, a[1]);
    Ok(match env.win16.user.window_mut(a[0] as u16) {
        Some(w) => {
            w.title = t;
            1
        }
        None => 0,
    })
}

/// USER.47 IsWindow(hWnd).
fn is_window(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.window(a[0] as u16).is_some()))
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

/// USER.157 GetMenu(hWnd): a top-level window's menu handle (module doc).
fn get_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .user
        .window(a[0] as u16)
        .filter(|w| w.style & WS_CHILD == 0)
        .map_or(0, |w| u32::from(w.id)))
}

/// USER.158 SetMenu(hWnd, hMenu) -> BOOL.
fn set_menu(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match env.win16.user.window_mut(a[0] as u16) {
        Some(w) if w.style & WS_CHILD == 0 => {
            w.id = a[1] as u16;
            1
        }
        _ => 0,
    })
}

/// USER.151 CreateMenu() and USER.415 CreatePopupMenu(): a new, empty
/// menu's handle (0 after [`MAX_MENUS`]).
fn create_menu(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let u = &mut env.win16.user;
    if u.menus_created >= MAX_MENUS {
        return Ok(0);
    }
    u.menus_created += 1;
    Ok(u32::from(0x7000 + 4 * u.menus_created))
}

/// Change a menu item's flags (those in `mask` become `flags`'s), and
/// return the old ones.
fn menu_item_flags(env: &mut Env, hmenu: u16, item: u16, flags: u16, mask: u16) -> u16 {
    let key = (hmenu, item, flags & MF_BYPOSITION != 0);
    let states = &mut env.win16.user.menu_states;
    let old = states.get(&key).copied().unwrap_or(0);
    if states.len() < MAX_MENU_STATES || states.contains_key(&key) {
        states.insert(key, old & !mask | flags & mask);
    }
    old & mask
}

/// USER.154 CheckMenuItem(hMenu, wIDCheckItem, wCheck) -> the previous
/// check state (MF_CHECKED or MF_UNCHECKED).
fn check_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hmenu, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    Ok(u32::from(menu_item_flags(
        env, hmenu, item, flags, MF_CHECKED,
    )))
}

/// USER.155 EnableMenuItem(hMenu, wIDEnableItem, wEnable) -> the previous
/// state (MF_ENABLED, MF_GRAYED, MF_DISABLED).
fn enable_menu_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hmenu, item, flags) = (a[0] as u16, a[1] as u16, a[2] as u16);
    let mask = MF_GRAYED | MF_DISABLED;
    Ok(u32::from(menu_item_flags(env, hmenu, item, flags, mask)))
}

/// USER.250 GetMenuState(hMenu, wId, wFlags) -> the item's check and
/// enable flags as CheckMenuItem and EnableMenuItem left them.
fn get_menu_state(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let key = (a[0] as u16, a[1] as u16, a[2] as u16 & MF_BYPOSITION != 0);
    Ok(u32::from(
        env.win16.user.menu_states.get(&key).copied().unwrap_or(0),
    ))
}

/// USER.152 DestroyMenu, USER.160 DrawMenuBar, USER.411 AppendMenu,
/// USER.414 ModifyMenu: nothing to draw or keep (menus have no items
/// here, module doc): TRUE.
fn menu_true(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        1,
        "MESSAGEBOX",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        message_box,
    ),
    Api::new("USER", 6, "POSTQUITMESSAGE", &[Arg::W], post_quit_message),
    Api::new(
        "USER",
        10,
        "SETTIMER",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_timer,
    ),
    Api::new("USER", 12, "KILLTIMER", &[Arg::W, Arg::W], kill_timer),
    Api::new(
        "USER",
        32,
        "GETWINDOWRECT",
        &[Arg::W, Arg::L],
        get_window_rect,
    ),
    Api::new(
        "USER",
        33,
        "GETCLIENTRECT",
        &[Arg::W, Arg::L],
        get_client_rect,
    ),
    Api::new(
        "USER",
        36,
        "GETWINDOWTEXT",
        &[Arg::W, Arg::L, Arg::W],
        get_window_text,
    ),
    Api::new(
        "USER",
        37,
        "SETWINDOWTEXT",
        &[Arg::W, Arg::L],
        set_window_text,
    ),
    Api::new("USER", 39, "BEGINPAINT", &[Arg::W, Arg::L], begin_paint),
    Api::new("USER", 40, "ENDPAINT", &[Arg::W, Arg::L], end_paint),
    Api::new(
        "USER",
        41,
        "CREATEWINDOW",
        &[
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::W,
            Arg::L,
        ],
        create_window,
    ),
    Api::new("USER", 42, "SHOWWINDOW", &[Arg::W, Arg::W], show_window),
    Api::new("USER", 47, "ISWINDOW", &[Arg::W], is_window),
    Api::new("USER", 53, "DESTROYWINDOW", &[Arg::W], destroy_window),
    Api::new("USER", 57, "REGISTERCLASS", &[Arg::L], register_class),
    Api::new("USER", 66, "GETDC", &[Arg::W], get_dc),
    Api::new("USER", 68, "RELEASEDC", &[Arg::W, Arg::W], release_dc),
    Api::new(
        "USER",
        87,
        "DIALOGBOX",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        dialog_box,
    ),
    Api::new("USER", 88, "ENDDIALOG", &[Arg::W, Arg::W], end_dialog),
    Api::new(
        "USER",
        107,
        "DEFWINDOWPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        def_window_proc,
    ),
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
    Api::new("USER", 151, "CREATEMENU", &[], create_menu),
    Api::new("USER", 152, "DESTROYMENU", &[Arg::W], menu_true),
    Api::new(
        "USER",
        154,
        "CHECKMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        check_menu_item,
    ),
    Api::new(
        "USER",
        155,
        "ENABLEMENUITEM",
        &[Arg::W, Arg::W, Arg::W],
        enable_menu_item,
    ),
    Api::new("USER", 157, "GETMENU", &[Arg::W], get_menu),
    Api::new("USER", 158, "SETMENU", &[Arg::W, Arg::W], set_menu),
    Api::new("USER", 160, "DRAWMENUBAR", &[Arg::W], menu_true),
    Api::new(
        "USER",
        179,
        "GETSYSTEMMETRICS",
        &[Arg::W],
        get_system_metrics,
    ),
    Api::new(
        "USER",
        250,
        "GETMENUSTATE",
        &[Arg::W, Arg::W, Arg::W],
        get_menu_state,
    ),
    Api::new(
        "USER",
        411,
        "APPENDMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        menu_true,
    ),
    Api::new(
        "USER",
        414,
        "MODIFYMENU",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        menu_true,
    ),
    Api::new("USER", 415, "CREATEPOPUPMENU", &[], create_menu),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menu_items_remember_check_and_enable_flags() {
        let mut env = Env::new(false);
        let check = |env: &mut Env, id, f| menu_item_flags(env, 0x1E, id, f, MF_CHECKED);
        let enable =
            |env: &mut Env, id, f| menu_item_flags(env, 0x1E, id, f, MF_GRAYED | MF_DISABLED);
        // CheckMenuItem returns the previous check state only.
        assert_eq!(check(&mut env, 100, MF_CHECKED), 0);
        assert_eq!(check(&mut env, 100, 0), MF_CHECKED);
        assert_eq!(check(&mut env, 100, MF_CHECKED), 0);
        assert_eq!(enable(&mut env, 100, MF_GRAYED), 0);
        assert_eq!(enable(&mut env, 100, 0), MF_GRAYED);
        assert_eq!(env.win16.user.menu_states[&(0x1E, 100, false)], MF_CHECKED);
        // By position is another item.
        assert_eq!(check(&mut env, 0, MF_BYPOSITION | MF_CHECKED), 0);
        assert_eq!(check(&mut env, 0, 0), 0);
        // The table is bounded: new items beyond it are not remembered.
        for i in 0..MAX_MENU_STATES as u16 + 10 {
            check(&mut env, 1000 + i, MF_CHECKED);
        }
        assert_eq!(env.win16.user.menu_states.len(), MAX_MENU_STATES);
    }

    #[test]
    fn script_lines_go_to_their_tasks_and_answers_apart() {
        let mut env = Env::new(false);
        let script =
            super::super::script::parse(b"key a\n@OTHER key b\nmsgbox no\ndialog 5\nmsgbox yes\n")
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
