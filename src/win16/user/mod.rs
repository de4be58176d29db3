//! USER, headless: a window manager that behaves as Windows 3.1's in
//! standard and enhanced mode on a VGA display, without a screen. One file
//! per concept:
//!
//! | file | concept |
//! | --- | --- |
//! | `consts.rs` | message numbers, styles, flags (WINDOWS.H) |
//! | `class.rs` | window classes: RegisterClass, class words and longs |
//! | `window.rs` | the window tree: CreateWindow, DestroyWindow, relations, window words, text |
//! | `winpos.rs` | rectangles: the non-client layout, SetWindowPos, ShowWindow, coordinates |
//! | `focus.rs` | the active window, the focus, the capture |
//! | `defwnd.rs` | DefWindowProc |
//! | `message.rs` | queues, Get/Peek/Post/Send/DispatchMessage, the headless session feed |
//! | `input.rs` | the keyboard state and the scripted mouse |
//! | `paint.rs` | update regions, BeginPaint/EndPaint, window DCs, scrolling |
//! | `palette.rs` | SelectPalette and RealizePalette: a window's DC in the foreground or the background |
//! | `scroll.rs` | window scroll bars |
//! | `caret.rs`, `cursor.rs` | the caret; cursors and icons |
//! | `bitmap.rs` | LoadBitmap: a module's bitmap as a GDI bitmap |
//! | `clipboard.rs`, `hook.rs`, `prop.rs` | the clipboard, window hooks, window properties |
//! | `mdi.rs` | the multiple-document interface |
//! | `rect.rs` | SetRect and the other rectangle functions |
//! | `timer.rs`, `msgbox.rs`, `metrics.rs` | timers, message boxes, system metrics and colours |
//! | `dialog.rs` (and `dialog/`) | dialog boxes: templates, the dialog manager, navigation |
//! | `controls/` | the predefined control classes |
//! | `menu.rs` (and `menu/`) | menus: templates, layout, the system menu, the menu loop |
//! | `accel.rs` | accelerators |
//! | `comm.rs`, `wnet.rs` | the communications functions (no serial port) and the network functions (no network) |
//! | `system.rs`, `draw.rs`, `frame.rs` | system services; icons and the focus rectangle; the frame's drawing |
//! | `heap.rs` | USER's data segment, menu heap and string heap in emulated memory, with the objects' blocks |
//! | `dlls.rs` | what USER calls in the DLLs above it (SHELL's WH_SHELL hook, DDEML's wake-up): a table the top of win16 fills in |
//!
//! This file keeps USER's state ([`User`]): the window records, the
//! classes, the queues, and what the files share.
//!
//! **Windows.** A window is a record in [`User::windows`], slot 0 being the
//! desktop window; its handle is the address of its WND structure in
//! USER's data segment (`heap.rs`), and [`User::handles`] finds its slot. The
//! tree is kept as Windows keeps it: every window has a parent (the
//! desktop for top-level windows) and its parent lists its children in
//! z-order, the topmost first; top-level windows may have an owner. The
//! window rectangle and the client rectangle are held in the parent's
//! client coordinates (for top-level windows, the screen's), as USER's
//! WND structure holds rectWindow and rectClient.
//!
//! Window procedures are called in emulated code through
//! [`super::callback::call_far`], so a walk from inside a window procedure
//! shows the program's frames, USER's frame, then the program's frames that
//! called USER. USER's own procedures (DefWindowProc, the built-in
//! classes') are thunks of USER's code segment: a program can call them
//! through the far pointer GetWindowLong(GWL_WNDPROC) returns, and USER
//! calls them in Rust directly.

pub mod accel;
pub mod bitmap;
pub mod caret;
pub mod class;
pub mod clipboard;
pub mod comm;
pub mod consts;
pub mod controls;
pub mod cursor;
pub mod dce;
pub mod defwnd;
pub mod dialog;
pub mod dlls;
pub mod draw;
pub mod focus;
pub mod frame;
pub mod heap;
pub mod hook;
pub mod input;
pub mod mdi;
pub mod menu;
pub mod message;
pub mod metrics;
pub mod msgbox;
pub mod paint;
pub mod palette;
pub mod prop;
pub mod rect;
pub mod scroll;
pub mod system;
pub mod text;
pub mod timer;
pub mod window;
pub mod winpos;
pub mod wnet;

use std::collections::{BTreeMap, VecDeque};

pub use consts::*;
pub use message::{Msg, call_wndproc, post, send};
pub use metrics::SCREEN;
pub use timer::{IDLE_TICKS, Timer};

use crate::machine::{Cpu, Stop, Uc, record_event};
use crate::win16::Env;
use crate::win16::farptr::split;
use crate::win16::geom::{Point, Rect, Region};
use crate::win16::script::{Line, Script};

/// The desktop window (GetDesktopWindow): the address of its WND, the
/// first block USER's data segment's heap gives (heap.rs).
pub const DESKTOP: u16 = 0x3040;

/// Most classes, live windows, queued messages a session keeps: a runaway
/// program gets a failure (0), never unbounded host memory.
const MAX_CLASSES: usize = 256;
const MAX_WINDOWS: usize = 4096;
pub(crate) const MAX_QUEUE: usize = 4096;
/// The longest window text kept.
const MAX_TEXT: usize = 0x7FFF;

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
    pub hicon: u16,
    pub hcursor: u16,
    pub hbrush: u16,
    /// The menu name: a string, or `#n` for an integer resource id.
    pub menu: Option<String>,
    /// lpszMenuName as the program gave it (GetClassLong(GCL_MENUNAME)).
    pub menu_ptr: u32,
    /// The class extra bytes (Get/SetClassWord with index >= 0).
    pub extra: Vec<u8>,
    /// The module that registered it (0: USER's own classes).
    pub hmodule: u16,
    /// A class every module may use: CS_GLOBALCLASS or USER's own.
    pub global: bool,
    /// The class structure's block in USER's data segment (heap.rs; 0
    /// before USER's heaps exist).
    pub block: u16,
}

/// The state of one scroll bar (SB_HORZ, SB_VERT, or a SCROLLBAR control's
/// SB_CTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScrollBar {
    pub min: i16,
    pub max: i16,
    pub pos: i16,
    /// EnableScrollBar's ESB_ flags: arrows disabled.
    pub disabled: u16,
}

impl Default for ScrollBar {
    /// A window scroll bar starts with the range 0..100 (SDK,
    /// GetScrollRange: "the default range for a standard scroll bar is 0
    /// to 100").
    fn default() -> ScrollBar {
        ScrollBar {
            min: 0,
            max: 100,
            pos: 0,
            disabled: 0,
        }
    }
}

/// A window property (SetProp): named by a global atom (a string name is
/// added to the global atom table, as Windows 3.1 does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prop {
    pub atom: u16,
    /// The name was given as a string (its atom is deleted with the
    /// property).
    pub string: bool,
    pub data: u16,
    /// Its block of LT_USER_PROP in USER's data segment (heap.rs; 0 when
    /// USER's heaps are not there).
    pub block: u16,
}

/// A window.
#[derive(Debug, Clone)]
pub struct Window {
    pub hwnd: u16,
    /// Its class's name, and atom.
    pub class: String,
    pub class_atom: u16,
    /// The window text (ANSI bytes).
    pub text: Vec<u8>,
    pub style: u32,
    pub ex_style: u32,
    /// The window rectangle, in the parent's client coordinates.
    pub rect: Rect,
    /// The client rectangle, in the parent's client coordinates.
    pub client: Rect,
    /// The parent: [`DESKTOP`] for a top-level window, 0 for the desktop.
    pub parent: u16,
    /// A top-level window's owner (0 for none).
    pub owner: u16,
    /// The children, topmost first.
    pub children: Vec<u16>,
    /// A child's id, or a top-level window's menu.
    pub id: u16,
    pub hinstance: u16,
    pub wndproc: (u16, u16),
    pub htask: u16,
    pub destroyed: bool,
    /// WM_NCDESTROY was sent; the slot is free once `destroyed`.
    pub extra: Vec<u8>,
    pub props: Vec<Prop>,
    /// The update region, in client coordinates.
    pub update: Region,
    /// The background of the update region still needs erasing.
    pub erase: bool,
    /// The non-client area needs painting (WM_NCPAINT).
    pub frame: bool,
    /// RDW_INTERNALPAINT: a WM_PAINT without an update region.
    pub internal_paint: bool,
    /// SB_HORZ, SB_VERT and SB_CTL.
    pub scroll: [ScrollBar; 3],
    /// The window rectangle to restore from minimized or maximized.
    pub normal: Rect,
    pub icon_pos: Option<Point>,
    pub max_pos: Option<Point>,
    /// Restore to maximized when opened from an icon.
    pub restore_max: bool,
    /// WM_SIZE and WM_MOVE are still owed (an overlapped window's are sent
    /// by its first ShowWindow).
    pub need_size: bool,
    /// For an unowned top-level window: its last active owned popup.
    pub last_active: u16,
    /// The frame shows as active (DefWindowProc's WM_NCACTIVATE).
    pub nc_active: bool,
    /// WM_SETREDRAW(FALSE) was received.
    pub no_redraw: bool,
    /// For dialog boxes: EndDialog's result once ended.
    pub dialog_result: Option<u16>,
    /// The client rectangle WM_SIZE and WM_MOVE last reported.
    pub reported: Option<Rect>,
    /// The text's block in USER's string heap (heap.rs; 0 for none).
    pub text_block: u16,
}

impl Window {
    /// A window record with everything but what CreateWindow fills.
    pub fn new(hwnd: u16, class: &WndClass, style: u32, ex_style: u32) -> Window {
        Window {
            hwnd,
            class: class.name.clone(),
            class_atom: class.atom,
            text: Vec::new(),
            style,
            ex_style,
            rect: Rect::default(),
            client: Rect::default(),
            parent: DESKTOP,
            owner: 0,
            children: Vec::new(),
            id: 0,
            hinstance: 0,
            wndproc: class.wndproc,
            htask: 0,
            destroyed: false,
            extra: vec![0; usize::from(class.wnd_extra.min(1024))],
            props: Vec::new(),
            update: Region::empty(),
            erase: false,
            frame: false,
            internal_paint: false,
            scroll: [ScrollBar::default(); 3],
            normal: Rect::default(),
            icon_pos: None,
            max_pos: None,
            restore_max: false,
            need_size: false,
            last_active: hwnd,
            nc_active: false,
            no_redraw: false,
            dialog_result: None,
            reported: None,
            text_block: 0,
        }
    }

    pub fn visible(&self) -> bool {
        self.style & WS_VISIBLE != 0
    }
    pub fn is_child(&self) -> bool {
        self.style & WS_CHILD != 0
    }
    pub fn enabled(&self) -> bool {
        self.style & WS_DISABLED == 0
    }
    pub fn iconic(&self) -> bool {
        self.style & WS_MINIMIZE != 0
    }
    pub fn zoomed(&self) -> bool {
        self.style & WS_MAXIMIZE != 0
    }
    /// Does the window have a menu bar (a top-level window with a menu)?
    pub fn has_menu(&self) -> bool {
        !self.is_child() && self.id != 0
    }
    /// Does WM_PAINT wait for this window?
    pub fn needs_paint(&self) -> bool {
        !self.update.is_empty() || self.internal_paint
    }
    /// The window text, lossily as UTF-8, for events.
    pub fn title(&self) -> String {
        String::from_utf8_lossy(&self.text).into_owned()
    }
}

/// One task's message queue (every Win16 task has its own, TDB+20h
/// hQueue), with what the default session keeps per task.
#[derive(Debug, Clone)]
pub struct Queue {
    /// Posted messages (PostMessage, PostAppMessage, WM_CHAR from
    /// TranslateMessage).
    pub msgs: VecDeque<Msg>,
    /// Input: the scripted keyboard and mouse messages, and timer ticks.
    pub input: VecDeque<Msg>,
    /// How many posted messages the queue holds (SetMessageQueue; 8 by
    /// default).
    pub size: usize,
    /// PostQuitMessage's exit code, once posted.
    pub quit: Option<u16>,
    /// The task's main window (its first top-level window shown).
    pub main_window: u16,
    /// The default session's WM_CLOSE was sent.
    pub close_sent: bool,
    /// How many windows have been the main window (winpos.rs).
    pub main_windows: u8,
    /// Its script input lines still to deliver, in order.
    pub script: VecDeque<Line>,
    /// Its `msgbox` and `dialog` script lines still to use.
    pub answers: VecDeque<Line>,
    /// Ticks fired on an idle queue since its last script line, by timer
    /// (hWnd, id): kept when a timer is killed and set again, so that a
    /// program that re-arms its timer in WM_TIMER still runs out of them.
    pub idle_fired: BTreeMap<(u16, u16), u8>,
    /// The last message GetMessage or PeekMessage returned: its time and
    /// cursor position (GetMessageTime, GetMessagePos).
    pub last_time: u32,
    pub last_pos: Point,
    /// QS_ bits of messages that arrived since the last GetQueueStatus.
    pub new_bits: u16,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            msgs: VecDeque::new(),
            input: VecDeque::new(),
            size: 8,
            quit: None,
            main_window: 0,
            close_sent: false,
            main_windows: 0,
            script: VecDeque::new(),
            answers: VecDeque::new(),
            idle_fired: BTreeMap::new(),
            last_time: 0,
            last_pos: Point::default(),
            new_bits: 0,
        }
    }
}

/// An inter-task SendMessage being handled (InSendMessage, ReplyMessage).
#[derive(Debug, Clone, Copy)]
pub struct InSend {
    pub sender: u16,
    pub receiver: u16,
    /// ReplyMessage's result, once replied.
    pub reply: Option<u32>,
}

/// USER's state.
#[derive(Clone, Debug)]
pub struct User {
    pub classes: Vec<WndClass>,
    /// Window records by slot; slot 0 is the desktop.
    pub windows: Vec<Window>,
    /// The slot of each window handle (the address of its WND in USER's
    /// data segment, heap.rs).
    pub handles: std::collections::HashMap<u16, usize>,
    /// Message queues by hTask.
    pub queues: BTreeMap<u16, Queue>,
    pub timers: Vec<Timer>,
    /// Script lines no task has taken yet (see [`User::set_script`]).
    pub unclaimed: Vec<Line>,
    /// Every menu and the menu loop's state (menu.rs).
    pub menus: menu::Menus,
    /// The predefined control classes and each control's state.
    pub controls: controls::Controls,
    /// Each dialog box's state (dialog.rs).
    pub dialogs: dialog::Dialogs,
    /// Metrics settings, colours, SystemParametersInfo.
    pub sys: metrics::SysParams,
    /// The active window, the one active before it, the focus, the
    /// capture, the system-modal window.
    pub active: u16,
    pub prev_active: u16,
    pub focus: u16,
    pub capture: u16,
    pub sysmodal: u16,
    /// The task whose window is active (WM_ACTIVATEAPP).
    pub active_task: u16,
    pub caret: caret::Caret,
    pub cursor: cursor::CursorState,
    pub keys: input::Keys,
    pub clipboard: clipboard::Clipboard,
    pub hooks: hook::Hooks,
    /// Nested SendMessage calls in Rust (a bound against runaway
    /// recursion).
    pub send_depth: u32,
    /// Inter-task sends being handled, innermost last.
    pub in_send: Vec<InSend>,
    /// Windows placed with CW_USEDEFAULT so far (the cascade).
    pub default_placed: u16,
    /// Pending DeferWindowPos lists by handle.
    /// Each HDWP's positions and the room its block has (winpos.rs).
    pub defer: BTreeMap<u16, (Vec<winpos::Deferred>, usize)>,
    /// WM_SETREDRAW / LockWindowUpdate: the window whose drawing is locked.
    pub locked: u16,
    /// The MDICLIENT windows.
    pub mdi: mdi::MdiClients,
    /// The DCs USER made and has not released (paint.rs).
    pub dcs: Vec<paint::DcUse>,
    /// The desktop was painted (at the first CreateWindow).
    pub desktop_painted: bool,
    /// The message boxes shown so far, for the run's report (msgbox.rs).
    pub boxes: msgbox::Shown,
}

impl Default for User {
    fn default() -> User {
        let desktop_class = WndClass {
            name: "#32769".into(),
            atom: 32769,
            style: 0,
            wndproc: DEFWINDOWPROC,
            cls_extra: 0,
            wnd_extra: 0,
            hinstance: 0,
            hicon: 0,
            hcursor: 0,
            hbrush: 0,
            menu: None,
            menu_ptr: 0,
            extra: Vec::new(),
            hmodule: 0,
            global: true,
            block: 0,
        };
        let screen = Rect::new(0, 0, i32::from(SCREEN.0), i32::from(SCREEN.1));
        let mut desktop = Window::new(
            DESKTOP,
            &desktop_class,
            WS_POPUP | WS_VISIBLE | WS_CLIPCHILDREN | WS_CLIPSIBLINGS,
            0,
        );
        desktop.parent = 0;
        desktop.rect = screen;
        desktop.client = screen;
        desktop.normal = screen;
        User {
            classes: Vec::new(),
            windows: vec![desktop],
            handles: std::collections::HashMap::from([(DESKTOP, 0)]),
            queues: BTreeMap::new(),
            timers: Vec::new(),
            unclaimed: Vec::new(),
            menus: menu::Menus::default(),
            controls: controls::Controls::default(),
            dialogs: dialog::Dialogs::default(),
            sys: metrics::SysParams::default(),
            active: 0,
            prev_active: 0,
            focus: 0,
            capture: 0,
            sysmodal: 0,
            active_task: 0,
            caret: caret::Caret::default(),
            cursor: cursor::CursorState::default(),
            keys: input::Keys::default(),
            clipboard: clipboard::Clipboard::default(),
            hooks: hook::Hooks::default(),
            send_depth: 0,
            in_send: Vec::new(),
            default_placed: 0,
            defer: BTreeMap::new(),
            locked: 0,
            boxes: msgbox::Shown::default(),
            mdi: mdi::MdiClients::new(),
            dcs: Vec::new(),
            desktop_painted: false,
        }
    }
}

/// A stand-in procedure for the desktop: DefWindowProc, called in Rust.
pub(crate) const DEFWINDOWPROC: (u16, u16) = (0, 0);

impl User {
    /// The screen: the desktop window's rectangle (640×480, or what
    /// `--display` made it).
    pub fn screen(&self) -> Rect {
        self.windows[0].rect
    }

    /// The display's size (`--display`): the desktop follows it.
    pub fn set_screen(&mut self, width: i32, height: i32) {
        let r = Rect::new(0, 0, width, height);
        let d = &mut self.windows[0];
        d.rect = r;
        d.client = r;
        d.normal = r;
        self.cursor.pos = Point::new(width / 2, height / 2);
    }

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
    /// the timers or the default WM_CLOSE: a posted or input message,
    /// WM_QUIT, a visible window that needs painting, or a script input
    /// line for its main window?
    pub fn has_input(&self, htask: u16) -> bool {
        self.has_queued(htask) || self.script_pending(htask)
    }

    /// A posted or input message, WM_QUIT or a window to paint?
    pub(crate) fn has_queued(&self, htask: u16) -> bool {
        self.queues
            .get(&htask)
            .is_some_and(|q| !q.msgs.is_empty() || !q.input.is_empty() || q.quit.is_some())
            || self.paint_pending(htask)
    }

    /// Does a visible window of the task wait for WM_PAINT?
    pub(crate) fn paint_pending(&self, htask: u16) -> bool {
        self.windows
            .iter()
            .skip(1)
            .any(|w| !w.destroyed && w.htask == htask && w.needs_paint() && self.shown(w.hwnd))
    }

    /// A script input line that can be delivered now (the main window is
    /// there)?
    pub(crate) fn script_pending(&self, htask: u16) -> bool {
        self.queues
            .get(&htask)
            .is_some_and(|q| !q.script.is_empty() && self.window(q.main_window).is_some())
    }

    /// The window with this handle (the desktop included), if it exists.
    pub fn window(&self, hwnd: u16) -> Option<&Window> {
        self.windows
            .get(*self.handles.get(&hwnd)?)
            .filter(|w| !w.destroyed && w.hwnd == hwnd)
    }
    pub fn window_mut(&mut self, hwnd: u16) -> Option<&mut Window> {
        self.windows
            .get_mut(*self.handles.get(&hwnd)?)
            .filter(|w| !w.destroyed && w.hwnd == hwnd)
    }

    /// The slot of window `hwnd`'s record, gone or not.
    pub(crate) fn slot_of(&self, hwnd: u16) -> Option<usize> {
        self.handles
            .get(&hwnd)
            .copied()
            .filter(|&i| self.windows.get(i).is_some_and(|w| w.hwnd == hwnd))
    }

    /// A window other than the desktop.
    pub fn app_window(&self, hwnd: u16) -> Option<&Window> {
        self.window(hwnd).filter(|w| w.hwnd != DESKTOP)
    }

    /// The live windows other than the desktop.
    pub fn live(&self) -> impl Iterator<Item = &Window> {
        self.windows.iter().skip(1).filter(|w| !w.destroyed)
    }

    /// A window's children, topmost first (empty for none).
    pub fn children(&self, hwnd: u16) -> Vec<u16> {
        self.window(hwnd)
            .map(|w| w.children.clone())
            .unwrap_or_default()
    }

    /// Is the window visible, and every ancestor too (IsWindowVisible)?
    pub fn shown(&self, hwnd: u16) -> bool {
        let mut h = hwnd;
        for _ in 0..64 {
            let Some(w) = self.window(h) else {
                return false;
            };
            if !w.visible() {
                return false;
            }
            if h == DESKTOP || !w.is_child() {
                return true;
            }
            h = w.parent;
        }
        false
    }

    /// Is `hwnd` a descendant of `parent` through child links (IsChild)?
    pub fn is_descendant(&self, parent: u16, hwnd: u16) -> bool {
        let mut h = hwnd;
        for _ in 0..64 {
            let Some(w) = self.app_window(h) else {
                return false;
            };
            if !w.is_child() {
                return false;
            }
            if w.parent == parent {
                return true;
            }
            h = w.parent;
        }
        false
    }

    /// The top-level window a window belongs to (itself for a top-level
    /// one), 0 for none.
    pub fn top_level(&self, hwnd: u16) -> u16 {
        let mut h = hwnd;
        for _ in 0..64 {
            let Some(w) = self.app_window(h) else {
                return 0;
            };
            if !w.is_child() {
                return h;
            }
            h = w.parent;
        }
        0
    }

    /// The screen position of a window's client origin (0, 0 for the
    /// desktop).
    pub fn client_origin(&self, hwnd: u16) -> Point {
        let mut p = Point::default();
        let mut h = hwnd;
        for _ in 0..64 {
            let Some(w) = self.window(h) else {
                break;
            };
            if h == DESKTOP {
                break;
            }
            p.x += w.client.left;
            p.y += w.client.top;
            h = w.parent;
        }
        p
    }

    /// The screen position of the origin of a window's parent's client
    /// area.
    pub fn parent_origin(&self, hwnd: u16) -> Point {
        match self.window(hwnd) {
            Some(w) if hwnd != DESKTOP => self.client_origin(w.parent),
            _ => Point::default(),
        }
    }

    /// A window's rectangle on the screen.
    pub fn window_rect_screen(&self, hwnd: u16) -> Option<Rect> {
        let w = self.window(hwnd)?;
        let o = self.parent_origin(hwnd);
        Some(w.rect.offset(o.x, o.y))
    }

    /// A window's client rectangle on the screen.
    pub fn client_rect_screen(&self, hwnd: u16) -> Option<Rect> {
        let w = self.window(hwnd)?;
        let o = self.parent_origin(hwnd);
        Some(w.client.offset(o.x, o.y))
    }

    /// The class of a window.
    pub fn class_of(&self, hwnd: u16) -> Option<&WndClass> {
        let w = self.window(hwnd)?;
        self.classes
            .iter()
            .find(|c| c.atom == w.class_atom && c.name == w.class)
    }

    /// A free slot for a new window: the lowest destroyed one, else a new
    /// one (None past [`MAX_WINDOWS`]).
    pub(crate) fn free_slot(&self) -> Option<usize> {
        if self.live().count() >= MAX_WINDOWS {
            return None;
        }
        self.windows
            .iter()
            .position(|w| w.destroyed)
            .or(Some(self.windows.len()))
            .filter(|&i| i < 0x3000)
    }
}

/// The top-level windows, topmost first.
pub fn top_level_windows(env: &Env) -> Vec<u16> {
    env.win16.user.children(DESKTOP)
}

// ------------------------------------------------------- shared helpers

/// A string argument: a far pointer to ASCIZ text, or (segment 0) an
/// integer atom / resource id, shown as `#n`.
pub(crate) fn string_arg(uc: &Uc<'_>, p: u32) -> String {
    let (seg, off) = split(p);
    if seg == 0 {
        return format!("#{off}");
    }
    String::from_utf8_lossy(&crate::dos::read_until(uc, seg, off, 0, 256)).into_owned()
}

/// The bytes of an ASCIZ string argument (empty for a null pointer), at
/// most `max`.
pub(crate) fn bytes_arg(uc: &Uc<'_>, p: u32, max: usize) -> Vec<u8> {
    let (seg, off) = split(p);
    if seg == 0 && off == 0 {
        return Vec::new();
    }
    crate::dos::read_until(uc, seg, off, 0, max)
}

pub(crate) fn put(b: &mut [u8], off: usize, v: u16) {
    b[off..off + 2].copy_from_slice(&v.to_le_bytes());
}

pub(crate) fn get(b: &[u8], off: usize) -> u16 {
    u16::from_le_bytes([b[off], b[off + 1]])
}

pub(crate) fn get32(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes([b[off], b[off + 1], b[off + 2], b[off + 3]])
}

/// MAKELONG(lo, hi).
pub(crate) fn makelong(lo: u16, hi: u16) -> u32 {
    u32::from(hi) << 16 | u32::from(lo)
}

/// A point packed in an lParam (x low, y high, each 16-bit signed).
pub(crate) fn point_lparam(p: Point) -> u32 {
    makelong(p.x as u16, p.y as u16)
}

/// The point packed in an lParam or a POINT passed by value.
pub(crate) fn lparam_point(l: u32) -> Point {
    Point::new(
        i32::from(l as u16 as i16),
        i32::from((l >> 16) as u16 as i16),
    )
}

/// Read a RECT at a far pointer.
pub(crate) fn read_rect(uc: &Uc<'_>, p: u32) -> Option<Rect> {
    let (seg, off) = split(p);
    if seg == 0 {
        return None;
    }
    let mut b = [0u8; 8];
    uc.read_seg(seg, off, &mut b).ok()?;
    Some(Rect::from_bytes(&b))
}

/// Write a RECT at a far pointer; false when it cannot be written.
pub(crate) fn write_rect(uc: &mut Uc<'_>, p: u32, r: Rect) -> bool {
    let (seg, off) = split(p);
    seg != 0 && uc.write_seg(seg, off, &r.to_bytes()).is_ok()
}

/// Read a POINT at a far pointer.
pub(crate) fn read_point(uc: &Uc<'_>, p: u32) -> Option<Point> {
    let (seg, off) = split(p);
    if seg == 0 {
        return None;
    }
    let mut b = [0u8; 4];
    uc.read_seg(seg, off, &mut b).ok()?;
    Some(Point::from_bytes(&b))
}

/// Write a POINT at a far pointer.
pub(crate) fn write_point(uc: &mut Uc<'_>, p: u32, pt: Point) -> bool {
    let (seg, off) = split(p);
    seg != 0 && uc.write_seg(seg, off, &pt.to_bytes()).is_ok()
}

/// The data segment for code of instance `h` (hInstance is DGROUP's
/// handle).
pub fn instance_ds(h: u16) -> u16 {
    super::selector_of_handle(h)
}

/// USER's thunk segment: where callbacks from USER return.
pub(crate) fn user_cs(env: &Env) -> Result<u16, Stop> {
    env.win16
        .module_by_name("USER")
        .and_then(|m| m.segments.first().copied())
        .ok_or_else(|| Stop::Error("USER is not loaded".into()))
}

pub(crate) fn event(uc: &mut Uc<'_>, text: String) {
    record_event(uc, text);
}

/// Take a task's windows, queue and timers away when it ends (called by
/// the scheduler while the task is still in the task list): its windows
/// are gone without messages, as when Windows cleans up after a task that
/// did not destroy them, and the classes its module registered go with the
/// module's last task.
pub fn forget_task(env: &mut Env, uc: &mut Uc<'_>, htask: u16) {
    let hmodule = env.win16.task(htask).map(|t| t.hmodule);
    let last_of_module =
        hmodule.is_some_and(|m| env.win16.tasks.iter().filter(|t| t.hmodule == m).count() == 1);
    let u = &mut env.win16.user;
    let gone: Vec<u16> = u
        .live()
        .filter(|w| w.htask == htask)
        .map(|w| w.hwnd)
        .collect();
    // Their menus go with them (menu.rs).
    for h in &gone {
        menu::task_window_gone(env, *h);
    }
    let u = &mut env.win16.user;
    let mut blocks = Vec::new();
    let mut props = Vec::new();
    for h in &gone {
        window::unlink(u, *h);
        if let Some(w) = u.window_mut(*h) {
            w.destroyed = true;
            w.style &= !WS_VISIBLE;
            w.children.clear();
            blocks.push((*h, std::mem::take(&mut w.text_block)));
            props.extend(w.props.drain(..).map(|p| p.block));
        }
    }
    for f in [
        &mut u.active,
        &mut u.prev_active,
        &mut u.focus,
        &mut u.capture,
        &mut u.sysmodal,
    ] {
        if gone.contains(f) {
            *f = 0;
        }
    }
    if u.active_task == htask {
        u.active_task = 0;
    }
    if gone.contains(&u.caret.hwnd) {
        u.caret = caret::Caret::default();
    }
    u.timers
        .retain(|t| t.htask != htask && !gone.contains(&t.hwnd));
    u.queues.remove(&htask);
    let hooks = u.hooks.forget_task(htask);
    u.clipboard.forget_windows(&gone);
    let mut dead = Vec::new();
    if let (true, Some(m)) = (last_of_module, hmodule) {
        dead = u
            .classes
            .iter()
            .filter(|c| c.hmodule == m && c.hmodule != 0)
            .map(|c| (c.atom, c.block))
            .collect();
        u.classes.retain(|c| !(c.hmodule == m && c.hmodule != 0));
    }
    // Their WNDs, texts and classes leave USER's heaps.
    for (h, text) in blocks {
        dce::window_gone(env, uc, h);
        heap::free_wnd(&mut env.win16, uc, h, text);
        env.win16.user.handles.remove(&h);
    }
    for p in props.into_iter().chain(hooks.iter().copied()) {
        heap::free_block(&mut env.win16, uc, p);
    }
    if !hooks.is_empty() {
        heap::sync_hooks(env, uc);
    }
    for (atom, block) in &dead {
        env.win16.atoms.global.delete(*atom);
        dce::class_gone(env, uc, *block);
        heap::free_block(&mut env.win16, uc, *block);
    }
    let parents: Vec<u16> = env.win16.user.live().map(|w| w.hwnd).collect();
    if !gone.is_empty() {
        heap::sync(env, uc, DESKTOP);
        for h in parents {
            heap::sync(env, uc, h);
        }
    }
    if !dead.is_empty() {
        heap::sync_classes(env, uc);
    }
    heap::sync_menus(env, uc);
}

/// Call a program's callback (an EnumWindows function, a hook, a timer
/// procedure) from USER, with DS = AX = the caller's data segment (an
/// exported function's prologue or a MakeProcInstance thunk sets its own).
pub(crate) fn callback(
    env: &mut Env,
    uc: &mut Uc<'_>,
    proc_: u32,
    ds: u16,
    args: &[crate::win16::callback::CallArg],
) -> Result<u32, Stop> {
    let cs = user_cs(env)?;
    let r = crate::win16::callback::call_far(env, uc, cs, split(proc_), ds, &[], args)?;
    Ok(r.value)
}
