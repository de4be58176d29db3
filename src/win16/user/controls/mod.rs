//! USER's predefined window classes: BUTTON, EDIT, STATIC, LISTBOX,
//! COMBOBOX (with its drop-down list, COMBOLBOX), SCROLLBAR and the dialog
//! class `#32770` (dialog.rs). One file per class:
//!
//! | file | class | procedure |
//! | --- | --- | --- |
//! | `button.rs` | BUTTON | USER.303 ButtonWndProc |
//! | `edit.rs` | EDIT | USER.301 (exported as BozosLiveHere) |
//! | `static.rs` | STATIC | USER.302 StaticWndProc |
//! | `listbox.rs` | LISTBOX | USER.307 LBoxCtlWndProc |
//! | `combobox.rs` | COMBOBOX, COMBOLBOX | not exported (internal thunks) |
//! | `scrollbar.rs` | SCROLLBAR | USER.304 SBWndProc |
//!
//! **Procedures programs can call.** As on Windows, each class's window
//! procedure lives in USER's code segment: here a thunk (`int F0h; retf
//! 10`, mod.rs) whose Rust function is the procedure. The class's
//! `lpfnWndProc` (GetClassInfo) and every control's GWL_WNDPROC are that
//! thunk's far address, so a program can subclass a control (SetWindowLong
//! its own procedure in) and call the old one through CallWindowProc or a
//! far call: the thunk runs the Rust procedure with the arguments on the
//! stack. When USER itself sends a message to a window whose procedure is
//! such a thunk ([`native_proc`]), it calls the Rust function directly
//! ([`call_native`]) instead of emulating the thunk.
//!
//! Windows 3.1 exported five of these procedures (their ordinals are in
//! the SDK's USER export table; 301, the edit control's, under the name
//! BozosLiveHere); COMBOBOX's, COMBOLBOX's and MDICLIENT's were internal,
//! and get private ordinals here ([`INTERNAL`], api.rs).
//!
//! **State.** Each control's state (check state, text selection, list
//! items...) is kept in Rust by window handle ([`Controls::state`]), made
//! at WM_NCCREATE/WM_CREATE and dropped at WM_NCDESTROY; what Windows kept
//! in the program's memory is kept there too (the edit control's text, in
//! a local heap: edit.rs).
//!
//! **Painting.** The controls validate their update region on WM_PAINT.
//! Drawing them (the Windows 3.1 look: push buttons with their two-pixel
//! shadow, check boxes, radio circles, the edit's text and caret, list box
//! items in the highlight colour) waits for GDI's device contexts and
//! raster operations (gdi/dc.rs, gdi/raster.rs, gdi/text.rs): until then a
//! control's WM_PAINT only validates, and its state is what tests check.

pub mod button;
pub mod combobox;
pub mod edit;
pub mod listbox;
pub mod paint;
pub mod scrollbar;
pub mod r#static;
pub mod wm;

use std::collections::HashMap;

use super::WndClass;
use crate::machine::{Cpu, R, SegKind, Stop, Uc, alloc_seg};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::CallArg;
use crate::win16::gdi::font::{PhysFont, TextMetric};
use crate::win16::kernel::builtin::{ensure_builtin, thunk_for};
use crate::win16::{Win16, Win16LoadError};

/// The private ordinals of USER's internal window procedures (api.rs,
/// [`crate::win16::api::INTERNAL`]).
pub const ORD_COMBOBOX: u16 = 0xF000;
pub const ORD_COMBOLBOX: u16 = 0xF001;

/// The atom of the dialog class, `MAKEINTATOM(0x8002)`, which Windows
/// names `#32770` (WC_DIALOG).
pub const DIALOG_ATOM: u16 = 0x8002;
/// Window extra bytes of a dialog box: DWL_MSGRESULT, DWL_DLGPROC,
/// DWL_USER and USER's own words (DLGWINDOWEXTRA, windows.h).
pub const DLGWINDOWEXTRA: u16 = 30;

// Class styles (windows.h).
const CS_VREDRAW: u16 = 0x0001;
const CS_HREDRAW: u16 = 0x0002;
const CS_DBLCLKS: u16 = 0x0008;
const CS_SAVEBITS: u16 = 0x0800;
const CS_PARENTDC: u16 = 0x0080;

/// A predefined class: its name, its procedure's USER ordinal, class
/// style and window extra bytes.
struct SystemClass {
    name: &'static str,
    ordinal: u16,
    style: u16,
    wnd_extra: u16,
}

/// The predefined classes, in the order dialog item templates number them
/// (0x80 BUTTON, 0x81 EDIT, 0x82 STATIC, 0x83 LISTBOX, 0x84 SCROLLBAR,
/// 0x85 COMBOBOX), then COMBOLBOX and the dialog class.
const CLASSES: &[SystemClass] = &[
    SystemClass {
        name: "BUTTON",
        ordinal: 303,
        style: CS_DBLCLKS | CS_PARENTDC | CS_VREDRAW | CS_HREDRAW,
        wnd_extra: 4,
    },
    SystemClass {
        name: "EDIT",
        ordinal: 301,
        style: CS_DBLCLKS | CS_PARENTDC,
        wnd_extra: 6,
    },
    SystemClass {
        name: "STATIC",
        ordinal: 302,
        style: CS_PARENTDC,
        wnd_extra: 4,
    },
    SystemClass {
        name: "LISTBOX",
        ordinal: 307,
        style: CS_DBLCLKS | CS_PARENTDC,
        wnd_extra: 4,
    },
    SystemClass {
        name: "SCROLLBAR",
        ordinal: 304,
        style: CS_DBLCLKS | CS_PARENTDC | CS_VREDRAW | CS_HREDRAW,
        wnd_extra: 4,
    },
    SystemClass {
        name: "COMBOBOX",
        ordinal: ORD_COMBOBOX,
        style: CS_DBLCLKS | CS_PARENTDC | CS_VREDRAW | CS_HREDRAW,
        wnd_extra: 4,
    },
    SystemClass {
        name: "COMBOLBOX",
        ordinal: ORD_COMBOLBOX,
        style: CS_DBLCLKS | CS_SAVEBITS,
        wnd_extra: 4,
    },
    SystemClass {
        name: "#32770",
        ordinal: 308,
        style: CS_SAVEBITS | CS_DBLCLKS,
        wnd_extra: DLGWINDOWEXTRA,
    },
    // The MDI client (mdi.rs): its background is COLOR_APPWORKSPACE.
    SystemClass {
        name: "MDICLIENT",
        ordinal: super::mdi::ORD_MDICLIENT,
        style: 0,
        wnd_extra: 2,
    },
];

/// The class name of a dialog item's predefined-class byte (0x80..0x85).
pub fn class_of_byte(b: u8) -> Option<&'static str> {
    CLASSES
        .get(usize::from(b.checked_sub(0x80)?))
        .filter(|_| b <= 0x85)
        .map(|c| c.name)
}

/// One control's state, by class.
#[derive(Debug, Clone)]
pub enum Control {
    Button(button::Button),
    Edit(Box<edit::Edit>),
    Static(r#static::Static),
    ListBox(Box<listbox::ListBox>),
    ComboBox(Box<combobox::ComboBox>),
    ScrollBar(scrollbar::ScrollBar),
}

/// A predefined class's state kept per control in [`Controls::state`]:
/// the variant of [`Control`] that holds it.
pub trait ControlState: Default {
    /// The variant holding `self`.
    fn wrap(self) -> Control;
    /// The state in `c`, when `c` is this kind's.
    fn of(c: &mut Control) -> Option<&mut Self>;
}

macro_rules! control_state {
    ($t:ty, $variant:ident, boxed) => {
        impl ControlState for $t {
            fn wrap(self) -> Control {
                Control::$variant(Box::new(self))
            }
            fn of(c: &mut Control) -> Option<&mut Self> {
                match c {
                    Control::$variant(s) => Some(s.as_mut()),
                    _ => None,
                }
            }
        }
    };
    ($t:ty, $variant:ident) => {
        impl ControlState for $t {
            fn wrap(self) -> Control {
                Control::$variant(self)
            }
            fn of(c: &mut Control) -> Option<&mut Self> {
                match c {
                    Control::$variant(s) => Some(s),
                    _ => None,
                }
            }
        }
    };
}

control_state!(button::Button, Button);
control_state!(edit::Edit, Edit, boxed);
control_state!(r#static::Static, Static);
control_state!(listbox::ListBox, ListBox, boxed);
control_state!(combobox::ComboBox, ComboBox, boxed);
control_state!(scrollbar::ScrollBar, ScrollBar);

/// Control `hwnd`'s state as a `T`: made fresh (the class's defaults)
/// when the window has none yet, or holds another class's.
pub fn state_of<T: ControlState>(env: &mut Env, hwnd: u16) -> &mut T {
    let c = env
        .win16
        .user
        .controls
        .state
        .entry(hwnd)
        .or_insert_with(|| T::default().wrap());
    if T::of(c).is_none() {
        *c = T::default().wrap();
    }
    match T::of(c) {
        Some(s) => s,
        None => unreachable!("the state was just made of this kind"),
    }
}

/// The predefined classes' session state.
#[derive(Clone, Debug, Default)]
pub struct Controls {
    /// Far pointers to the class names in USER's data segment, by
    /// [`CLASSES`] index (what a dialog passes CreateWindow for an item of
    /// a predefined class).
    pub class_names: Vec<u32>,
    /// Each control's state, by window handle.
    pub state: HashMap<u16, Control>,
    /// The focus window, kept here only while USER has no SetFocus of its
    /// own (wm.rs).
    pub interim_focus: u16,
    /// The physical fonts behind the font handles the dialog manager made
    /// (DS_SETFONT), by handle.
    pub fonts: HashMap<u16, PhysFont>,
}

/// The physical font a control draws and measures with for `hfont`
/// (WM_SETFONT): a font the dialog manager made, else the System font (the
/// font of a control nobody gave one; fonts a program creates itself are
/// measured as the System font until GDI keeps its font objects).
pub fn font_of(env: &mut Env, hfont: u16) -> PhysFont {
    if let Some(f) = env.win16.user.controls.fonts.get(&hfont) {
        return f.clone();
    }
    PhysFont::plain(env.win16.gdi.fonts.catalogue().system())
}

/// TEXTMETRIC of [`font_of`].
pub fn font_metrics(env: &mut Env, hfont: u16) -> TextMetric {
    font_of(env, hfont).metrics()
}

/// Register USER's predefined classes (once per session; Windows did it at
/// start-up, so they come before any class of a program).
pub fn register_system_classes(m: &mut Uc<'_>, w: &mut Win16) -> Result<(), Win16LoadError> {
    if w.user
        .classes
        .iter()
        .any(|c| c.name == CLASSES[0].name && c.hmodule == 0)
    {
        return Ok(());
    }
    let idx = ensure_builtin(m, w, "USER")?;
    let hmodule = w.modules[idx].hmodule;
    // USER's heaps, with what USER made at its start (heap.rs).
    if !super::heap::init(m, w) {
        return Err(Win16LoadError("USER's heaps cannot be made".into()));
    }
    for c in CLASSES {
        let block = super::heap::alloc_class(w, m, 0);
        let p = thunk_for(m, w, idx, c.ordinal, None)?;
        let atom = if c.name == "#32770" {
            DIALOG_ATOM
        } else {
            w.atoms.global.add(crate::win16::farptr::NameArg::Str(
                c.name.as_bytes().to_vec(),
            ))
        };
        w.user.classes.push(WndClass {
            name: c.name.to_string(),
            atom,
            // USER's classes are global (CS_GLOBALCLASS).
            style: c.style | 0x4000,
            wndproc: (p.selector, p.offset),
            cls_extra: 0,
            wnd_extra: c.wnd_extra,
            hinstance: hmodule,
            hicon: 0,
            // The cursor is set when the window manager first needs the
            // classes (class.rs, ensure_system_classes).
            hcursor: 0,
            hbrush: if c.name == "MDICLIENT" {
                super::mdi::COLOR_APPWORKSPACE + 1
            } else {
                0
            },
            menu: None,
            menu_ptr: 0,
            extra: Vec::new(),
            hmodule: 0,
            global: true,
            block,
        });
    }
    Ok(())
}

/// The far pointer to predefined class `name`'s name string, in a small
/// segment of USER's made the first time a dialog or combo box needs one
/// (what it passes CreateWindow as lpszClass).
pub fn class_name_ptr(env: &mut Env, uc: &mut Uc<'_>, name: &str) -> Option<u32> {
    let i = CLASSES.iter().position(|c| c.name == name)?;
    if env.win16.user.controls.class_names.is_empty() {
        let mut strings = Vec::new();
        let mut offsets = Vec::new();
        for c in CLASSES {
            offsets.push(strings.len() as u16);
            strings.extend_from_slice(c.name.as_bytes());
            strings.push(0);
        }
        let size = (strings.len() as u32).div_ceil(16) * 16;
        let ds = alloc_seg(uc, SegKind::Data, size, &strings).ok()?;
        env.win16.user.controls.class_names = offsets
            .iter()
            .map(|&o| u32::from(ds) << 16 | u32::from(o))
            .collect();
    }
    env.win16.user.controls.class_names.get(i).copied()
}

/// The Rust function behind a window procedure address, when the address
/// is the thunk of a system function with a window procedure's arguments
/// (hWnd, msg, wParam, lParam): a control class's procedure, DefDlgProc,
/// DefWindowProc.
pub fn native_proc(env: &Env, proc_: (u16, u16)) -> Option<&'static Api> {
    env.win16
        .api_at(proc_.0, proc_.1)
        .filter(|a| a.args == [Arg::W, Arg::W, Arg::W, Arg::L] && !a.cdecl)
}

/// Call window procedure `api` (a Rust function, [`native_proc`]) as
/// call_wndproc would call an emulated one: scratch data goes on the
/// stack below SP, where an emulated USER would have put it, and lParam
/// points at it; SP stays below it while the procedure runs (it may call
/// back into the program).
#[allow(clippy::too_many_arguments)]
pub fn call_native(
    env: &mut Env,
    uc: &mut Uc<'_>,
    api: &'static Api,
    hwnd: u16,
    msg: u16,
    wparam: u16,
    lparam: CallArg,
    scratch: &[u8],
) -> Result<(u32, Vec<u8>), Stop> {
    let base = [u32::from(hwnd), u32::from(msg), u32::from(wparam)];
    match lparam {
        CallArg::Scratch => with_data(env, uc, scratch, |env, uc, p| {
            (api.func)(env, uc, &[base[0], base[1], base[2], p])
        }),
        CallArg::ScratchAt(n) => with_data(env, uc, scratch, |env, uc, p| {
            let p = crate::win16::farptr::add(p, usize::from(n));
            (api.func)(env, uc, &[base[0], base[1], base[2], p])
        }),
        CallArg::L(l) => Ok((
            (api.func)(env, uc, &[base[0], base[1], base[2], l])?,
            scratch.to_vec(),
        )),
        CallArg::W(w) => Ok((
            (api.func)(env, uc, &[base[0], base[1], base[2], u32::from(w)])?,
            scratch.to_vec(),
        )),
    }
}

/// Run `f` with a far pointer to `data` copied onto the stack below SP
/// (SP stays below it meanwhile, so callbacks from `f` do not overwrite
/// it): `f`'s result and the data as `f` left it.
pub fn with_data<T>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    data: &[u8],
    f: impl FnOnce(&mut Env, &mut Uc<'_>, u32) -> Result<T, Stop>,
) -> Result<(T, Vec<u8>), Stop> {
    let (ss, sp) = (uc.reg(R::SS), uc.reg(R::SP));
    let len = (data.len() as u16 + 1) & !1;
    let at = sp.wrapping_sub(len);
    let mut bytes = data.to_vec();
    bytes.resize(usize::from(len), 0);
    uc.write_seg(ss, at, &bytes).map_err(|e| {
        Stop::Error(format!(
            "no room on the stack {ss:04X}:{sp:04X} for {len} bytes of USER's data: {e}"
        ))
    })?;
    uc.set_reg(R::SP, at).map_err(|e| Stop::Error(e.0))?;
    let r = f(env, uc, u32::from(ss) << 16 | u32::from(at));
    let mut out = vec![0u8; data.len()];
    let _ = uc.read_seg(ss, at, &mut out);
    uc.set_reg(R::SP, sp).map_err(|e| Stop::Error(e.0))?;
    Ok((r?, out))
}

/// [`with_data`] with `len` zero bytes.
pub fn with_stack<T>(
    env: &mut Env,
    uc: &mut Uc<'_>,
    len: usize,
    f: impl FnOnce(&mut Env, &mut Uc<'_>, u32) -> Result<T, Stop>,
) -> Result<(T, Vec<u8>), Stop> {
    with_data(env, uc, &vec![0u8; len], f)
}

/// WM_COMMAND from control `hwnd` to its parent with notification `code`
/// (Windows 3.1: wParam = the control's id, lParam = MAKELONG(hwnd,
/// code)).
pub fn notify(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16, code: u16) -> Result<u32, Stop> {
    let parent = wm::parent(env, hwnd);
    if parent == 0 {
        return Ok(0);
    }
    let id = wm::id(env, hwnd);
    wm::send(
        env,
        uc,
        parent,
        super::WM_COMMAND,
        id,
        u32::from(code) << 16 | u32::from(hwnd),
    )
}

/// Forget the state of destroyed control `hwnd`.
pub fn forget(env: &mut Env, hwnd: u16) -> Option<Control> {
    env.win16.user.controls.state.remove(&hwnd)
}

/// The window procedures registered as USER exports.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        301,
        "BOZOSLIVEHERE",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        edit::edit_wnd_proc,
    ),
    Api::new(
        "USER",
        302,
        "STATICWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        r#static::static_wnd_proc,
    ),
    Api::new(
        "USER",
        303,
        "BUTTONWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        button::button_wnd_proc,
    ),
    Api::new(
        "USER",
        304,
        "SBWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        scrollbar::sb_wnd_proc,
    ),
    Api::new(
        "USER",
        307,
        "LBOXCTLWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        listbox::lbox_wnd_proc,
    ),
];

/// The window procedures Windows 3.1 did not export (api.rs, INTERNAL).
pub static INTERNAL: &[Api] = &[
    Api::new(
        "USER",
        ORD_COMBOBOX,
        "COMBOBOXCTLWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        combobox::combo_wnd_proc,
    ),
    Api::new(
        "USER",
        ORD_COMBOLBOX,
        "COMBOLBOXWNDPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        listbox::combolbox_wnd_proc,
    ),
];
