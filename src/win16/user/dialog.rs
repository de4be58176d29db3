//! Dialog boxes: CreateDialog, DialogBox and their Param and Indirect
//! forms, EndDialog, DefDlgProc, and the functions on a dialog's items.
//!
//! **Building a dialog** (Windows 3.1, SDK "Dialog Boxes" and the
//! functions' pages): the template (template.rs; a RT_DIALOG resource, or
//! memory for the Indirect forms) gives the dialog's style, position and
//! size in dialog units, its menu, class (the dialog class `#32770`,
//! DefDlgProc, unless it names one), caption and, with DS_SETFONT, a font.
//! The font is the face at that point size at the VGA's 96 dots per inch
//! (LOGFONT height −MulDiv(points, 96, 72)) and bold, as Windows 3.1 made
//! dialog fonts (Windows 95's DS_3DLOOK is what later made them plain); its
//! physical font is what Windows' font mapper chose (gdi/fontmap.rs). The
//! dialog's base units are that font's average character width and cell
//! height — the System font's without DS_SETFONT, which is what
//! GetDialogBaseUnits answers — the average width being the 52 letters'
//! extent over 52, rounded ((extent / 26 + 1) / 2, the computation KB
//! Q125681 gives). A dialog unit is a quarter of the base width and an
//! eighth of the base height: pixels = units × base / 4 (or / 8),
//! truncated, as the SDK's GetDialogBaseUnits page writes it and
//! MapDialogRect applies it. The template's size is the client area's; the
//! window gets its frame and caption around it, at the template's position
//! in the owner's client area (the screen with DS_ABSALIGN). A template x
//! of CW_USEDEFAULT (0x8000) is not a position: the window is made with
//! CW_USEDEFAULT for x and y, so CreateWindow places it (an overlapped
//! dialog at the next default position, a pop-up at 0), as Windows 3.1's
//! dialog manager passed it on.
//!
//! The dialog window is created hidden; a modal dialog disables its owner
//! (the top-level window of hWndParent) at once. Its procedure is stored
//! (DWL_DLGPROC) after creation, so it never sees WM_CREATE, as on Windows.
//! With a font, WM_SETFONT goes to the dialog and then to each control as
//! it is created, in template order (each control a child window of its
//! class, WS_CHILD added, the creation data as lpCreateParams). Edit
//! controls keep their text in the local heap of the program's data
//! segment with DS_LOCALEDIT, else of a segment the dialog manager makes
//! for the dialog's edit controls, their hInstance (SDK, DS_LOCALEDIT). A
//! control that cannot be created fails the whole dialog. Then
//! WM_INITDIALOG (wParam = the first WS_TABSTOP control, lParam = the
//! Param forms' value): if the procedure answers TRUE, that control gets
//! the focus (an edit control with all its text selected). A template
//! with WS_VISIBLE is then shown.
//!
//! **DialogBox's modal loop** runs on the task's queue: messages are
//! given to IsDialogMessage, and those it does not take to TranslateMessage
//! and DispatchMessage, until EndDialog; then the owner is enabled again,
//! the dialog destroyed, and EndDialog's value returned (−1 when the
//! dialog could not be created). When the queue is empty the headless
//! session feeds it as GetMessage's does (message.rs), in this order: the
//! task's next script line, whichever comes first in the file — an input
//! line (keys and characters go to the focus window, script.rs's control
//! lines to their control) or a `dialog ANSWER` line (the control with that
//! id is clicked: a button notifies BN_CLICKED; with no such control the
//! dialog gets WM_COMMAND(id, 0)); then a tick of its timers; then the
//! owner gets WM_ENTERIDLE (MSGF_DIALOGBOX) once; then, once, what Escape
//! does (WM_COMMAND IDCANCEL, the Cancel button as lParam) — except while
//! the session closes the program (after its default WM_CLOSE), when a
//! dialog with an enabled No button (IDNO) has that button clicked, as a
//! user leaving without saving would; then, once,
//! WM_CLOSE, as the Close item or Alt+F4 gives it (for a procedure that
//! ends its dialog there and ignores IDCANCEL); and when even that did not
//! end it, the session has nothing more to give: the dialog ends with
//! IDCANCEL (an event says so).
//!
//! **DefDlgProc** (USER.308) calls the dialog procedure first; when it
//! answers TRUE, DefDlgProc answers DWL_MSGRESULT (reset to 0 before each
//! call) — or the answer itself for WM_CTLCOLOR, WM_COMPAREITEM,
//! WM_VKEYTOITEM, WM_CHARTOITEM, WM_QUERYDRAGICON and WM_INITDIALOG. When
//! it answers FALSE, DefDlgProc does the default: DM_GETDEFID (MAKELONG(id,
//! DC_HASDEFID), 0 without a default button), DM_SETDEFID (the old default
//! button becomes BS_PUSHBUTTON, the new one BS_DEFPUSHBUTTON),
//! WM_ERASEBKGND (the brush the dialog's own WM_CTLCOLOR with CTLCOLOR_DLG
//! gives, else the window colour),
//! WM_NEXTDLGCTL and the focus rules (navigate.rs), WM_GETFONT,
//! WM_SETFONT, WM_CLOSE (posts WM_COMMAND IDCANCEL, or beeps when the
//! Cancel button is disabled), and DefWindowProc for the rest.

pub mod dir;
pub mod input;
pub mod navigate;
pub mod template;

use std::collections::HashMap;

use super::controls::{self, DIALOG_ATOM, button, wm};
use super::{WM_COMMAND, WM_INITDIALOG, WM_NCDESTROY, event, instance_ds, user_cs};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr::{self, split};
use crate::win16::gdi::font::{FW_BOLD, LogFont, PhysFont};
use crate::win16::scheduler;
use crate::win16::scheduler::{Resume, Wait};
use template::{ItemClass, Name};

pub const IDOK: u16 = 1;
pub const IDCANCEL: u16 = 2;

pub const DS_ABSALIGN: u32 = 0x0001;
pub const DS_SYSMODAL: u32 = 0x0002;
pub const DS_LOCALEDIT: u32 = 0x0020;
pub const DS_SETFONT: u32 = 0x0040;
pub const DS_MODALFRAME: u32 = 0x0080;
pub const DS_NOIDLEMSG: u32 = 0x0100;

pub const DM_GETDEFID: u16 = 0x0400;
pub const DM_SETDEFID: u16 = 0x0401;
/// DM_GETDEFID's high word when there is a default button ('SK').
pub const DC_HASDEFID: u16 = 0x534B;

/// Window longs of a dialog (offsets in its window extra bytes).
pub const DWL_MSGRESULT: usize = 0;
pub const DWL_DLGPROC: usize = 4;
pub const DWL_USER: usize = 8;

const WM_CLOSE: u16 = 0x0010;
const WM_ERASEBKGND: u16 = 0x0014;
/// WM_CTLCOLOR's type for a dialog box's own background.
const CTLCOLOR_DLG: u16 = 4;
const WM_SETFOCUS: u16 = 0x0007;
const WM_SHOWWINDOW: u16 = 0x0018;
const WM_ACTIVATE: u16 = 0x0006;
/// WM_ENTERIDLE's wParam from a dialog box's modal loop.
pub const MSGF_DIALOGBOX: u16 = 0;
/// The segment a dialog makes for its edit controls (no DS_LOCALEDIT).
const EDIT_SEGMENT: u32 = 0x8000;

/// A dialog box's state beside its window.
#[derive(Debug, Clone, Default)]
pub struct Dialog {
    /// EndDialog's value, once called.
    pub result: Option<u16>,
    /// The default push button's id (DM_SETDEFID); 0 for none.
    pub def_id: u16,
    /// WM_SETFONT's font.
    pub font: u16,
    /// The dialog manager made `font` (DS_SETFONT) and deletes it.
    pub own_font: bool,
    /// The dialog's base units (module doc).
    pub base: (u16, u16),
    /// The control that had the focus when the dialog was deactivated.
    pub saved_focus: u16,
    /// A modal dialog's owner, and whether the dialog disabled it.
    pub owner: u16,
    pub owner_disabled: bool,
    /// The segment its edit controls keep their text in (0: DS).
    pub edit_ds: u16,
    /// The dialog procedure (DWL_DLGPROC's value when made).
    pub proc_: u32,
    pub modal: bool,
    /// How events name it.
    pub name: String,
    /// Which dialog this is in the order they were made (1, 2, ...): the
    /// newest dialog is the one with the highest, whatever its handle
    /// (handles are addresses in USER's heap, reused after a free).
    pub serial: u64,
}

/// Every dialog's state, by window handle.
#[derive(Clone, Debug, Default)]
pub struct Dialogs {
    pub map: HashMap<u16, Dialog>,
    /// GetDialogBaseUnits, once computed.
    pub system_base: Option<(u16, u16)>,
    /// The dialogs made so far (the last [`Dialog::serial`]).
    pub made: u64,
}

/// Is `hwnd` a dialog box (made by the dialog manager)?
pub fn is_dialog(env: &Env, hwnd: u16) -> bool {
    hwnd != 0 && env.win16.user.dialogs.map.contains_key(&hwnd) && wm::exists(env, hwnd)
}

fn dialog(env: &mut Env, hwnd: u16) -> Option<&mut Dialog> {
    env.win16.user.dialogs.map.get_mut(&hwnd)
}

/// The base units of physical font `f`: the 52 letters' average width,
/// rounded, and the cell height (module doc).
pub fn font_base(f: &PhysFont) -> (u16, u16) {
    let extent: i32 = (b'A'..=b'Z').chain(b'a'..=b'z').map(|c| f.advance(c)).sum();
    (
        ((extent / 26 + 1) / 2).max(1) as u16,
        f.height().max(1) as u16,
    )
}

/// GetDialogBaseUnits: the System font's base units.
pub fn base_units(env: &mut Env) -> (u16, u16) {
    if let Some(b) = env.win16.user.dialogs.system_base {
        return b;
    }
    let b = font_base(&controls::font_of(env, 0));
    env.win16.user.dialogs.system_base = Some(b);
    b
}

/// The base units dialog `hwnd` converts with (the System font's for a
/// window that is no dialog).
fn dialog_base(env: &mut Env, hwnd: u16) -> (u16, u16) {
    match env.win16.user.dialogs.map.get(&hwnd) {
        Some(d) => d.base,
        None => base_units(env),
    }
}

/// Dialog units to pixels.
fn to_pixels(v: i16, base: u16, div: i32) -> i16 {
    (i32::from(v) * i32::from(base) / div).clamp(-32768, 32767) as i16
}

/// A rectangle in dialog units to pixels.
pub fn map_rect(r: (i16, i16, i16, i16), base: (u16, u16)) -> (i16, i16, i16, i16) {
    (
        to_pixels(r.0, base.0, 4),
        to_pixels(r.1, base.1, 8),
        to_pixels(r.2, base.0, 4),
        to_pixels(r.3, base.1, 8),
    )
}

/// Read a dialog's window long (DWL_*), from its extra bytes.
pub fn get_long(env: &Env, hwnd: u16, at: usize) -> u32 {
    wm::window(env, hwnd)
        .and_then(|w| w.extra.get(at..at + 4))
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Write a dialog's window long.
pub fn set_long(env: &mut Env, hwnd: u16, at: usize, v: u32) {
    if let Some(w) = env.win16.user.window_mut(hwnd)
        && let Some(b) = w.extra.get_mut(at..at + 4)
    {
        b.copy_from_slice(&v.to_le_bytes());
    }
}

/// The first child of `hdlg` with id `id` (GetDlgItem), or 0.
pub fn item(env: &Env, hdlg: u16, id: u16) -> u16 {
    wm::children(env, hdlg)
        .into_iter()
        .find(|&h| wm::id(env, h) == id)
        .unwrap_or(0)
}

/// The controls of `hwnd`'s group among `parent`'s children: from the
/// WS_GROUP control at or before it to the one before the next WS_GROUP
/// control (GetNextDlgGroupItem's groups).
pub fn group_of(env: &Env, parent: u16, hwnd: u16) -> Vec<u16> {
    let kids = wm::children(env, parent);
    let Some(i) = kids.iter().position(|&h| h == hwnd) else {
        return vec![hwnd];
    };
    let group = |h: u16| wm::style(env, h) & wm::WS_GROUP != 0;
    let start = (0..=i).rev().find(|&k| group(kids[k])).unwrap_or(0);
    let end = (i + 1..kids.len())
        .find(|&k| group(kids[k]))
        .unwrap_or(kids.len());
    kids[start..end].to_vec()
}

/// The far pointer to the program's procedure DefDlgProc calls.
fn dlgproc_of(env: &Env, hwnd: u16) -> u32 {
    let p = get_long(env, hwnd, DWL_DLGPROC);
    if p != 0 {
        return p;
    }
    env.win16.user.dialogs.map.get(&hwnd).map_or(0, |d| d.proc_)
}

/// Call the dialog procedure: its BOOL answer (AX).
fn call_dlgproc(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    proc_: u32,
    msg: u16,
    wparam: u16,
    lparam: u32,
) -> Result<u32, Stop> {
    if let Some(api) = controls::native_proc(env, split(proc_)) {
        return (api.func)(
            env,
            uc,
            &[u32::from(hwnd), u32::from(msg), u32::from(wparam), lparam],
        );
    }
    let ds = instance_ds(wm::hinstance(env, hwnd));
    let cs = user_cs(env)?;
    let r = call_far(
        env,
        uc,
        cs,
        split(proc_),
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

/// The messages whose dialog-procedure answer is the result itself.
fn answers_directly(msg: u16) -> bool {
    matches!(
        msg,
        wm::WM_CTLCOLOR
            | wm::WM_COMPAREITEM
            | wm::WM_VKEYTOITEM
            | wm::WM_CHARTOITEM
            | wm::WM_QUERYDRAGICON
            | WM_INITDIALOG
    )
}

/// USER.308 DefDlgProc(hDlg, msg, wParam, lParam).
pub fn def_dlg_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if !wm::exists(env, hwnd) {
        return Ok(0);
    }
    let proc_ = dlgproc_of(env, hwnd);
    if proc_ != 0 {
        set_long(env, hwnd, DWL_MSGRESULT, 0);
        let r = call_dlgproc(env, uc, hwnd, proc_, msg, wparam, lparam)? & 0xFFFF;
        if r != 0 || !wm::exists(env, hwnd) {
            return Ok(if answers_directly(msg) {
                r
            } else {
                get_long(env, hwnd, DWL_MSGRESULT)
            });
        }
    }
    match msg {
        DM_GETDEFID => {
            let id = dialog(env, hwnd).map_or(0, |d| d.def_id);
            Ok(if id == 0 {
                0
            } else {
                u32::from(DC_HASDEFID) << 16 | u32::from(id)
            })
        }
        DM_SETDEFID => {
            navigate::set_default(env, uc, hwnd, wparam)?;
            Ok(1)
        }
        wm::WM_NEXTDLGCTL => {
            navigate::next_dlg_ctl(env, uc, hwnd, wparam, lparam as u16 != 0)?;
            Ok(0)
        }
        wm::WM_GETFONT => Ok(dialog(env, hwnd).map_or(0, |d| u32::from(d.font))),
        wm::WM_SETFONT => {
            if let Some(d) = dialog(env, hwnd) {
                d.font = wparam;
            }
            Ok(0)
        }
        WM_CLOSE => {
            let cancel = item(env, hwnd, IDCANCEL);
            if cancel != 0 && !wm::is_enabled(env, cancel) {
                wm::beep(env, uc)?;
            } else {
                wm::post(
                    env,
                    uc,
                    hwnd,
                    WM_COMMAND,
                    IDCANCEL,
                    u32::from(button::BN_CLICKED) << 16 | u32::from(cancel),
                );
            }
            Ok(0)
        }
        WM_ERASEBKGND => {
            // The dialog's own WM_CTLCOLOR (CTLCOLOR_DLG) gives the brush;
            // 0: the window colour.
            let hdc = wparam;
            let b = wm::send(
                env,
                uc,
                hwnd,
                wm::WM_CTLCOLOR,
                hdc,
                u32::from(CTLCOLOR_DLG) << 16 | u32::from(hwnd),
            )? as u16;
            let brush = if b == 0 {
                controls::paint::sys_brush(controls::paint::COLOR_WINDOW)
            } else {
                b
            };
            let (cx, cy) = wm::client_size(env, hwnd);
            let p = controls::paint::Painter {
                hdc,
                background: brush,
            };
            p.fill(env, uc, (0, 0, cx, cy), brush)?;
            Ok(1)
        }
        WM_SHOWWINDOW => {
            if wparam == 0 {
                navigate::save_focus(env, uc, hwnd)?;
            }
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        WM_ACTIVATE => {
            if wparam != 0 {
                navigate::restore_focus(env, uc, hwnd)?;
            } else {
                navigate::save_focus(env, uc, hwnd)?;
            }
            Ok(0)
        }
        WM_SETFOCUS => {
            navigate::restore_focus(env, uc, hwnd)?;
            Ok(0)
        }
        WM_NCDESTROY => {
            if let Some(d) = env.win16.user.dialogs.map.remove(&hwnd) {
                if d.own_font && d.font != 0 {
                    crate::win16::gdi::objects::delete_object(env, uc, &[u32::from(d.font)])?;
                    env.win16.user.controls.fonts.remove(&d.font);
                }
                if d.edit_ds != 0 {
                    env.win16.local_heaps.heaps.remove(&d.edit_ds);
                    crate::win16::global::free_block(env, uc, d.edit_ds);
                }
            }
            wm::def_proc(env, uc, hwnd, msg, wparam, lparam)
        }
        _ => wm::def_proc(env, uc, hwnd, msg, wparam, lparam),
    }
}

/// The template's bytes at far pointer `p` (to the segment's end, at most
/// 64 KiB).
fn read_template(uc: &Uc<'_>, p: u32) -> Option<Vec<u8>> {
    let (sel, off) = split(p);
    let limit = uc.descriptor_of(sel)?.limit;
    if u32::from(off) > limit {
        return None;
    }
    let n = ((limit - u32::from(off) + 1) as usize).min(0x1_0000 - usize::from(off));
    farptr::read_bytes(uc, p, n)
}

/// The dialog's font (DS_SETFONT): a GDI font handle when GDI makes fonts
/// (0 otherwise) and the physical font the mapper chose.
fn make_font(
    env: &mut Env,
    uc: &mut Uc<'_>,
    points: u16,
    face: &[u8],
) -> Result<(u16, PhysFont), Stop> {
    let height = -((i32::from(points) * 96 + 36) / 72).min(32767) as i16;
    let lf = LogFont {
        height,
        weight: FW_BOLD as i16,
        face: face[..face.len().min(31)].to_vec(),
        ..LogFont::default()
    };
    let phys = env.win16.gdi.fonts.map_cached(&lf);
    let (r, _) = controls::with_data(env, uc, &lf.to_bytes(), |env, uc, p| {
        crate::win16::gdi::logfont::create_font_indirect(env, uc, &[p])
    })?;
    let h = r as u16;
    if h != 0 {
        env.win16.user.controls.fonts.insert(h, phys.clone());
    }
    Ok((h, phys))
}

/// Where `hwnd`'s client area starts, in screen coordinates (ClientToScreen
/// of (0, 0)).
fn client_origin(env: &Env, hwnd: u16) -> (i16, i16) {
    if hwnd == 0 || !wm::exists(env, hwnd) {
        return (0, 0);
    }
    let p = env.win16.user.client_origin(hwnd);
    (p.x as i16, p.y as i16)
}

/// The window rectangle for client rectangle `r` of a window of `style`
/// and `ex_style` (AdjustWindowRectEx, winpos.rs).
fn adjust(r: (i16, i16, i16, i16), style: u32, menu: bool, ex_style: u32) -> (i16, i16, i16, i16) {
    let r = super::winpos::adjust_window_rect(
        crate::win16::geom::Rect::new(
            i32::from(r.0),
            i32::from(r.1),
            i32::from(r.2),
            i32::from(r.3),
        ),
        style,
        menu,
        ex_style,
    );
    let c = |v: i32| v.clamp(-32768, 32767) as i16;
    (c(r.left), c(r.top), c(r.right), c(r.bottom))
}

/// `a + b` held to a 16-bit coordinate.
fn add16(a: i16, b: i16) -> i16 {
    a.saturating_add(b)
}

/// The extent from `a` to `b`, held to 0 ..= 32767.
fn extent16(a: i16, b: i16) -> i16 {
    (i32::from(b) - i32::from(a)).clamp(0, 32767) as i16
}

/// Build a dialog from the template at `tp` (module doc): its window, or 0.
#[allow(clippy::too_many_arguments)]
fn create(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinst: u16,
    tp: u32,
    parent: u16,
    proc_: u32,
    param: u32,
    modal: bool,
    name: String,
) -> Result<u16, Stop> {
    let name = crate::escape::quoted(&name);
    let Some(bytes) = read_template(uc, tp) else {
        event(
            uc,
            format!(
                "dialog {name}: the template at {:04X}:{:04X} cannot be read",
                tp >> 16,
                tp & 0xFFFF
            ),
        );
        return Ok(0);
    };
    let t = match template::parse(&bytes) {
        Ok(t) => t,
        Err(e) => {
            event(uc, format!("dialog {name}: {e}"));
            return Ok(0);
        }
    };
    let at = |off: usize| farptr::add(tp, off);
    let style = t.fixed.style;
    // The font and the base units.
    let (font, base) = match &t.font {
        Some((pt, face)) => {
            let (h, phys) = make_font(env, uc, *pt, face)?;
            (h, font_base(&phys))
        }
        None => (0, base_units(env)),
    };
    // The owner: a modal dialog's is hWndParent's top-level window.
    let mut owner = parent;
    if modal {
        for _ in 0..64 {
            if wm::style(env, owner) & wm::WS_CHILD == 0 {
                break;
            }
            owner = wm::parent(env, owner);
        }
    }
    let client = map_rect(
        (
            t.fixed.x,
            t.fixed.y,
            t.fixed.x.saturating_add(t.fixed.cx),
            t.fixed.y.saturating_add(t.fixed.cy),
        ),
        base,
    );
    let (ox, oy) = if style & wm::WS_CHILD != 0 || style & DS_ABSALIGN != 0 {
        (0, 0)
    } else {
        client_origin(env, parent)
    };
    let client = (
        add16(client.0, ox),
        add16(client.1, oy),
        add16(client.2, ox),
        add16(client.3, oy),
    );
    // The menu.
    let menu = match &t.menu {
        Name::Str { text, .. } if text.is_empty() => 0,
        Name::Str { text, .. } => super::menu::template::load_resource(
            env,
            uc,
            hinst,
            &crate::win16::farptr::NameArg::parse(text.clone()),
        ),
        Name::Ord { id, .. } => super::menu::template::load_resource(
            env,
            uc,
            hinst,
            &crate::win16::farptr::NameArg::Int(*id),
        ),
    };
    // A DS_MODALFRAME dialog has the dialog frame, WS_EX_DLGMODALFRAME
    // (Wine's DIALOG_CreateIndirect: the extended style, then
    // AdjustWindowRectEx with it).
    let ex_style = if style & DS_MODALFRAME != 0 {
        super::WS_EX_DLGMODALFRAME
    } else {
        0
    };
    let default_pos = t.fixed.x as u16 == super::consts::CW_USEDEFAULT;
    let client = if default_pos {
        // x = CW_USEDEFAULT (0x8000): the window's position is
        // CreateWindow's default (the cascade for an overlapped dialog, 0
        // for a pop-up or child); the size is still the template's.
        map_rect((0, 0, t.fixed.cx, t.fixed.cy), base)
    } else {
        client
    };
    let r = adjust(client, style, menu != 0, ex_style);
    let (w, h) = (extent16(r.0, r.2), extent16(r.1, r.3));
    let (x, y) = if default_pos {
        let d = super::consts::CW_USEDEFAULT as i16;
        (d, d)
    } else {
        (r.0, r.1)
    };
    let class = match &t.class {
        Name::Str { text, .. } if text.is_empty() => u32::from(DIALOG_ATOM),
        Name::Str { offset, .. } => at(*offset),
        Name::Ord { id, .. } => u32::from(*id),
    };
    let caption = match &t.caption {
        Name::Str { offset, .. } => at(*offset),
        Name::Ord { .. } => 0,
    };
    let hdlg = wm::create_ex(
        env,
        uc,
        ex_style,
        class,
        caption,
        style & !wm::WS_VISIBLE,
        (x, y, w, h),
        parent,
        menu,
        hinst,
        0,
    )?;
    if hdlg == 0 {
        event(
            uc,
            format!("dialog {name}: its window could not be created"),
        );
        return Ok(0);
    }
    event(uc, format!("dialog {name} opened as {hdlg:04X}"));
    env.win16.user.dialogs.made += 1;
    let serial = env.win16.user.dialogs.made;
    env.win16.user.dialogs.map.insert(
        hdlg,
        Dialog {
            serial,
            base,
            owner,
            proc_,
            modal,
            name: name.clone(),
            own_font: font != 0,
            ..Dialog::default()
        },
    );
    if modal && owner != 0 && wm::is_enabled(env, owner) {
        wm::enable(env, uc, owner, false)?;
        if let Some(d) = dialog(env, hdlg) {
            d.owner_disabled = true;
        }
    }
    set_long(env, hdlg, DWL_DLGPROC, proc_);
    if font != 0 || t.font.is_some() {
        wm::send(env, uc, hdlg, wm::WM_SETFONT, font, 0)?;
    }
    // The segment of its edit controls.
    let has_edit = t.items.iter().any(|i| match &i.class {
        ItemClass::Predefined(0x81) => true,
        ItemClass::Named(Name::Str { text, .. }) => text.eq_ignore_ascii_case(b"EDIT"),
        _ => false,
    });
    let mut edit_hinst = hinst;
    if has_edit && style & DS_LOCALEDIT == 0 {
        if let Some(sel) = controls::edit::private_heap(env, uc, EDIT_SEGMENT) {
            edit_hinst = sel;
            if let Some(d) = dialog(env, hdlg) {
                d.edit_ds = sel;
            }
        }
    }
    // The controls, in template order.
    for (k, it) in t.items.iter().enumerate() {
        let (class, is_edit, class_name) = match &it.class {
            ItemClass::Predefined(b) => {
                let n = controls::class_of_byte(*b);
                let p = n
                    .and_then(|n| controls::class_name_ptr(env, uc, n))
                    .unwrap_or(0);
                (p, *b == 0x81, n.unwrap_or("?").to_string())
            }
            ItemClass::Named(Name::Str { offset, text }) => (
                at(*offset),
                text.eq_ignore_ascii_case(b"EDIT"),
                String::from_utf8_lossy(text).into_owned(),
            ),
            ItemClass::Named(Name::Ord { id, .. }) => (u32::from(*id), false, format!("#{id}")),
        };
        let f = it.fixed;
        let rr = map_rect(
            (f.x, f.y, f.x.saturating_add(f.cx), f.y.saturating_add(f.cy)),
            base,
        );
        let data = if it.data.1 > 0 { at(it.data.0) } else { 0 };
        let h = wm::create(
            env,
            uc,
            class,
            at(it.text.offset()),
            f.style | wm::WS_CHILD,
            (rr.0, rr.1, extent16(rr.0, rr.2), extent16(rr.1, rr.3)),
            hdlg,
            f.id,
            if is_edit { edit_hinst } else { hinst },
            data,
        )?;
        if h == 0 {
            event(
                uc,
                format!(
                    "dialog {name}: item {k} (class {class_name}, id {}) could not be created; the dialog fails",
                    f.id
                ),
            );
            if let Some(d) = dialog(env, hdlg)
                && d.owner_disabled
            {
                let o = d.owner;
                wm::enable(env, uc, o, true)?;
            }
            wm::destroy(env, uc, hdlg)?;
            return Ok(0);
        }
        if class_name.eq_ignore_ascii_case("BUTTON")
            && button::kind(f.style) == button::BS_DEFPUSHBUTTON
            && dialog(env, hdlg).is_some_and(|d| d.def_id == 0)
            && let Some(d) = dialog(env, hdlg)
        {
            d.def_id = f.id;
        }
        if font != 0 {
            wm::send(env, uc, h, wm::WM_SETFONT, font, 0)?;
        }
    }
    // WM_INITDIALOG and the first focus.
    let first = navigate::next_tab_item(env, hdlg, 0, false);
    let r = wm::send(env, uc, hdlg, WM_INITDIALOG, first, param)?;
    if !wm::exists(env, hdlg) {
        return Ok(0);
    }
    if r & 0xFFFF != 0 {
        let first = navigate::next_tab_item(env, hdlg, 0, false);
        if first != 0 {
            navigate::set_dlg_focus(env, uc, hdlg, first)?;
        }
    }
    if style & wm::WS_VISIBLE != 0 && !wm::is_visible(env, hdlg) {
        wm::show(env, uc, hdlg, 1)?; // SW_SHOWNORMAL
    }
    Ok(hdlg)
}

/// The template named `name` in `hinst`'s resources: its locked far
/// pointer (FindResource, LoadResource, LockResource), or None.
fn load_template(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinst: u16,
    name: u32,
) -> Result<Option<u32>, Stop> {
    use crate::win16::resource;
    let hrsrc = resource::find_resource(env, uc, &[u32::from(hinst), name, 5])?;
    if hrsrc == 0 {
        return Ok(None);
    }
    let hres = resource::load_resource(env, uc, &[u32::from(hinst), hrsrc])?;
    if hres == 0 {
        return Ok(None);
    }
    let p = resource::lock_resource(env, uc, &[hres])?;
    Ok((p != 0).then_some(p))
}

/// How events name a template argument.
fn template_name(uc: &Uc<'_>, p: u32) -> String {
    super::string_arg(uc, p)
}

/// The modeless forms: the dialog's window, or 0.
#[allow(clippy::too_many_arguments)]
fn create_dialog_common(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinst: u16,
    template: Option<u32>,
    name: String,
    parent: u16,
    proc_: u32,
    param: u32,
) -> Result<u32, Stop> {
    let Some(tp) = template else {
        event(
            uc,
            format!("dialog {}: no such template", crate::escape::quoted(&name)),
        );
        return Ok(0);
    };
    Ok(u32::from(create(
        env, uc, hinst, tp, parent, proc_, param, false, name,
    )?))
}

/// A modeless dialog for another system module (COMMDLG's Find and
/// Replace): from the template at `tp` (`name` when it is a resource name
/// of `hinst`'s module, read with LoadResource as CreateDialogParam does;
/// events call a template in memory `label`), its procedure `proc_`,
/// WM_INITDIALOG's lParam `param`. The window, or 0.
#[allow(clippy::too_many_arguments)]
pub fn create_modeless(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinst: u16,
    tp: Option<u32>,
    name: Option<u32>,
    label: &str,
    parent: u16,
    proc_: u32,
    param: u32,
) -> Result<u16, Stop> {
    let (tp, shown) = match name {
        Some(n) => (load_template(env, uc, hinst, n)?, template_name(uc, n)),
        None => (tp, label.to_string()),
    };
    Ok(create_dialog_common(env, uc, hinst, tp, shown, parent, proc_, param)? as u16)
}

/// USER.89 CreateDialog(hInstance, lpTemplateName, hWndParent, lpDialogFunc).
fn create_dialog(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hinst = a[0] as u16;
    let tp = load_template(env, uc, hinst, a[1])?;
    let name = template_name(uc, a[1]);
    create_dialog_common(env, uc, hinst, tp, name, a[2] as u16, a[3], 0)
}

/// USER.241 CreateDialogParam(hInstance, lpTemplateName, hWndParent,
/// lpDialogFunc, lParamInit).
fn create_dialog_param(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hinst = a[0] as u16;
    let tp = load_template(env, uc, hinst, a[1])?;
    let name = template_name(uc, a[1]);
    create_dialog_common(env, uc, hinst, tp, name, a[2] as u16, a[3], a[4])
}

/// USER.219 CreateDialogIndirect(hInstance, lpDialogTemplate, hWndParent,
/// lpDialogFunc).
fn create_dialog_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_dialog_common(
        env,
        uc,
        a[0] as u16,
        Some(a[1]),
        "(indirect)".into(),
        a[2] as u16,
        a[3],
        0,
    )
}

/// USER.242 CreateDialogIndirectParam(hInstance, lpDialogTemplate,
/// hWndParent, lpDialogFunc, lParamInit).
fn create_dialog_indirect_param(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    create_dialog_common(
        env,
        uc,
        a[0] as u16,
        Some(a[1]),
        "(indirect)".into(),
        a[2] as u16,
        a[3],
        a[4],
    )
}

/// The modal forms: build the dialog, run its loop, return its result.
#[allow(clippy::too_many_arguments)]
fn dialog_box_common(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hinst: u16,
    template: Option<u32>,
    name: String,
    parent: u16,
    proc_: u32,
    param: u32,
) -> Result<u32, Stop> {
    let htask = uc.get_data().current_task;
    let hdlg = match template {
        Some(tp) => create(env, uc, hinst, tp, parent, proc_, param, true, name.clone())?,
        None => {
            event(
                uc,
                format!("dialog {}: no such template", crate::escape::quoted(&name)),
            );
            0
        }
    };
    if hdlg == 0 {
        return Ok(0xFFFF);
    }
    if !wm::is_visible(env, hdlg) && dialog(env, hdlg).is_some_and(|d| d.result.is_none()) {
        wm::show(env, uc, hdlg, 1)?;
    }
    let result = input::modal_loop(env, uc, hdlg, htask)?;
    if let Some(d) = env.win16.user.dialogs.map.get(&hdlg).cloned()
        && d.owner_disabled
    {
        wm::enable(env, uc, d.owner, true)?;
    }
    wm::destroy(env, uc, hdlg)?;
    event(uc, format!("dialog {hdlg:04X} ended with {result}"));
    // The dialog's modal loop lets the other tasks run.
    let result = u32::from(result);
    scheduler::yield_now(env, uc, Wait::Ready, Resume::After(result))?;
    Ok(result)
}

/// USER.87 DialogBox(hInstance, lpTemplateName, hWndParent, lpDialogFunc).
fn dialog_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hinst = a[0] as u16;
    let tp = load_template(env, uc, hinst, a[1])?;
    let name = template_name(uc, a[1]);
    dialog_box_common(env, uc, hinst, tp, name, a[2] as u16, a[3], 0)
}

/// USER.239 DialogBoxParam(hInstance, lpTemplateName, hWndParent,
/// lpDialogFunc, lParamInit).
fn dialog_box_param(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hinst = a[0] as u16;
    let tp = load_template(env, uc, hinst, a[1])?;
    let name = template_name(uc, a[1]);
    dialog_box_common(env, uc, hinst, tp, name, a[2] as u16, a[3], a[4])
}

/// The global handle an Indirect form was given, locked.
fn lock_global(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<Option<u32>, Stop> {
    let p = crate::win16::global::global_lock(env, uc, &[u32::from(h)])?;
    Ok((p != 0).then_some(p))
}

/// USER.218 DialogBoxIndirect(hInstance, hDialogTemplate, hWndParent,
/// lpDialogFunc): the template is a global memory handle.
fn dialog_box_indirect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let tp = lock_global(env, uc, a[1] as u16)?;
    let r = dialog_box_common(
        env,
        uc,
        a[0] as u16,
        tp,
        "(indirect)".into(),
        a[2] as u16,
        a[3],
        0,
    );
    crate::win16::global::global_unlock(env, uc, &[a[1]])?;
    r
}

/// USER.240 DialogBoxIndirectParam(hInstance, hDialogTemplate,
/// hWndParent, lpDialogFunc, lParamInit).
fn dialog_box_indirect_param(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let tp = lock_global(env, uc, a[1] as u16)?;
    let r = dialog_box_common(
        env,
        uc,
        a[0] as u16,
        tp,
        "(indirect)".into(),
        a[2] as u16,
        a[3],
        a[4],
    );
    crate::win16::global::global_unlock(env, uc, &[a[1]])?;
    r
}

/// USER.88 EndDialog(hDlg, nResult): the modal loop ends when it next
/// looks (SDK: EndDialog sets a flag; the dialog is destroyed by the
/// loop).
fn end_dialog(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(d) = dialog(env, a[0] as u16) {
        d.result = Some(a[1] as u16);
    }
    Ok(0)
}

/// Has dialog `hdlg` been ended, and with what?
pub fn ended(env: &Env, hdlg: u16) -> Option<u16> {
    env.win16.user.dialogs.map.get(&hdlg).and_then(|d| d.result)
}

/// End dialog `hdlg` with `result` (the session's default).
pub fn end(env: &mut Env, hdlg: u16, result: u16) {
    if let Some(d) = dialog(env, hdlg) {
        d.result = Some(result);
    }
}

/// USER.91 GetDlgItem(hDlg, nIDDlgItem).
pub fn get_dlg_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(item(env, a[0] as u16, a[1] as u16)))
}

/// USER.277 GetDlgCtrlID(hwndCtl): a child window's id, 0 for others.
fn get_dlg_ctrl_id(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    Ok(if wm::style(env, h) & wm::WS_CHILD != 0 {
        u32::from(wm::id(env, h))
    } else {
        0
    })
}

/// USER.92 SetDlgItemText(hDlg, nIDDlgItem, lpsz): WM_SETTEXT to the
/// item.
fn set_dlg_item_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    if h != 0 {
        wm::send(env, uc, h, wm::WM_SETTEXT, 0, a[2])?;
    }
    Ok(0)
}

/// USER.93 GetDlgItemText(hDlg, nIDDlgItem, lpsz, cbMax): WM_GETTEXT.
fn get_dlg_item_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    if h == 0 {
        if a[3] as u16 > 0 {
            wm::write(uc, a[2], &[0]);
        }
        return Ok(0);
    }
    wm::send(env, uc, h, wm::WM_GETTEXT, a[3] as u16, a[2])
}

/// Set an item's text from Rust (WM_SETTEXT with the text on the stack).
pub fn set_item_text(env: &mut Env, uc: &mut Uc<'_>, h: u16, text: &[u8]) -> Result<(), Stop> {
    let mut t = text.to_vec();
    t.push(0);
    controls::with_data(env, uc, &t, |env, uc, p| {
        wm::send(env, uc, h, wm::WM_SETTEXT, 0, p)
    })?;
    Ok(())
}

/// An item's text from Rust (WM_GETTEXTLENGTH, WM_GETTEXT).
pub fn item_text(env: &mut Env, uc: &mut Uc<'_>, h: u16) -> Result<Vec<u8>, Stop> {
    let n = (wm::send(env, uc, h, wm::WM_GETTEXTLENGTH, 0, 0)? as usize).min(0x7FFF);
    let (_, b) = controls::with_stack(env, uc, n + 1, |env, uc, p| {
        wm::send(env, uc, h, wm::WM_GETTEXT, (n + 1) as u16, p)
    })?;
    let z = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    Ok(b[..z].to_vec())
}

/// USER.94 SetDlgItemInt(hDlg, nIDDlgItem, uValue, fSigned).
fn set_dlg_item_int(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    let v = a[2] as u16;
    let text = if a[3] as u16 != 0 {
        (v as i16).to_string()
    } else {
        v.to_string()
    };
    if h != 0 {
        set_item_text(env, uc, h, text.as_bytes())?;
    }
    Ok(0)
}

/// GetDlgItemInt's reading of a text: leading blanks skipped, a minus
/// sign when signed, decimal digits up to the first other character; None
/// without digits or out of range (−32768..32767 signed, 0..65535
/// unsigned).
pub fn parse_int(t: &[u8], signed: bool) -> Option<u16> {
    let mut i = t.iter().take_while(|&&c| c == b' ').count();
    let neg = signed && t.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    let digits: Vec<u8> = t[i..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .copied()
        .collect();
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for d in digits {
        v = v * 10 + i64::from(d - b'0');
        if v > 70000 {
            return None;
        }
    }
    if neg {
        v = -v;
    }
    let ok = if signed {
        (-32768..=32767).contains(&v)
    } else {
        (0..=65535).contains(&v)
    };
    ok.then_some(v as u16)
}

/// USER.95 GetDlgItemInt(hDlg, nIDDlgItem, lpTranslated, fSigned).
fn get_dlg_item_int(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    let v = if h == 0 {
        None
    } else {
        let t = item_text(env, uc, h)?;
        parse_int(&t, a[3] as u16 != 0)
    };
    if a[2] != 0 {
        wm::write(uc, a[2], &u16::from(v.is_some()).to_le_bytes());
    }
    Ok(u32::from(v.unwrap_or(0)))
}

/// USER.96 CheckRadioButton(hDlg, nIDFirst, nIDLast, nIDCheck): checks
/// nIDCheck and unchecks the other buttons with ids in the range.
fn check_radio_button(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdlg, first, last, check) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16);
    for h in wm::children(env, hdlg) {
        let id = wm::id(env, h);
        if (first..=last).contains(&id) {
            wm::send(env, uc, h, button::BM_SETCHECK, u16::from(id == check), 0)?;
        }
    }
    Ok(0)
}

/// USER.97 CheckDlgButton(hDlg, nIDButton, uCheck): BM_SETCHECK.
fn check_dlg_button(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    if h != 0 {
        wm::send(env, uc, h, button::BM_SETCHECK, a[2] as u16, 0)?;
    }
    Ok(0)
}

/// USER.98 IsDlgButtonChecked(hDlg, nIDButton): BM_GETCHECK.
fn is_dlg_button_checked(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    if h == 0 {
        return Ok(0);
    }
    Ok(wm::send(env, uc, h, button::BM_GETCHECK, 0, 0)? & 0xFFFF)
}

/// USER.101 SendDlgItemMessage(hDlg, nIDDlgItem, uMsg, wParam, lParam).
fn send_dlg_item_message(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = item(env, a[0] as u16, a[1] as u16);
    if h == 0 {
        return Ok(0);
    }
    wm::send(env, uc, h, a[2] as u16, a[3] as u16, a[4])
}

/// USER.103 MapDialogRect(hDlg, lpRect): dialog units to pixels with the
/// dialog's base units.
fn map_dialog_rect(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let base = dialog_base(env, a[0] as u16);
    let Some(b) = farptr::read_bytes(uc, a[1], 8) else {
        return Ok(0);
    };
    let w = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
    let r = map_rect((w(0), w(2), w(4), w(6)), base);
    let mut out = [0u8; 8];
    for (i, v) in [r.0, r.1, r.2, r.3].iter().enumerate() {
        out[i * 2..i * 2 + 2].copy_from_slice(&v.to_le_bytes());
    }
    wm::write(uc, a[1], &out);
    Ok(0)
}

/// USER.243 GetDialogBaseUnits(): MAKELONG(width, height) of the System
/// font's base units.
fn get_dialog_base_units(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let (x, y) = base_units(env);
    Ok(u32::from(y) << 16 | u32::from(x))
}

/// USER.228 GetNextDlgTabItem(hDlg, hCtl, fPrevious).
fn get_next_dlg_tab_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(navigate::next_tab_item(
        env,
        a[0] as u16,
        a[1] as u16,
        a[2] as u16 != 0,
    )))
}

/// USER.227 GetNextDlgGroupItem(hDlg, hCtl, fPrevious).
fn get_next_dlg_group_item(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(navigate::next_group_item(
        env,
        a[0] as u16,
        a[1] as u16,
        a[2] as u16 != 0,
    )))
}

/// Rust's end of an `Api` for DefDlgProc's table entry.
fn def_dlg_proc_api(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    def_dlg_proc(env, uc, a)
}

/// Forget the state of a dialog destroyed without DefDlgProc's
/// WM_NCDESTROY (a program's own class that never called it).
pub fn forget(env: &mut Env, hwnd: u16) {
    env.win16.user.dialogs.map.remove(&hwnd);
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
    Api::new(
        "USER",
        89,
        "CREATEDIALOG",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        create_dialog,
    ),
    Api::new(
        "USER",
        90,
        "ISDIALOGMESSAGE",
        &[Arg::W, Arg::L],
        navigate::is_dialog_message,
    ),
    Api::new("USER", 91, "GETDLGITEM", &[Arg::W, Arg::W], get_dlg_item),
    Api::new(
        "USER",
        92,
        "SETDLGITEMTEXT",
        &[Arg::W, Arg::W, Arg::L],
        set_dlg_item_text,
    ),
    Api::new(
        "USER",
        93,
        "GETDLGITEMTEXT",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        get_dlg_item_text,
    ),
    Api::new(
        "USER",
        94,
        "SETDLGITEMINT",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        set_dlg_item_int,
    ),
    Api::new(
        "USER",
        95,
        "GETDLGITEMINT",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        get_dlg_item_int,
    ),
    Api::new(
        "USER",
        96,
        "CHECKRADIOBUTTON",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        check_radio_button,
    ),
    Api::new(
        "USER",
        97,
        "CHECKDLGBUTTON",
        &[Arg::W, Arg::W, Arg::W],
        check_dlg_button,
    ),
    Api::new(
        "USER",
        98,
        "ISDLGBUTTONCHECKED",
        &[Arg::W, Arg::W],
        is_dlg_button_checked,
    ),
    Api::new(
        "USER",
        99,
        "DLGDIRSELECT",
        &[Arg::W, Arg::L, Arg::W],
        dir::dlg_dir_select,
    ),
    Api::new(
        "USER",
        100,
        "DLGDIRLIST",
        &[Arg::W, Arg::L, Arg::W, Arg::W, Arg::W],
        dir::dlg_dir_list,
    ),
    Api::new(
        "USER",
        101,
        "SENDDLGITEMMESSAGE",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        send_dlg_item_message,
    ),
    Api::new(
        "USER",
        103,
        "MAPDIALOGRECT",
        &[Arg::W, Arg::L],
        map_dialog_rect,
    ),
    Api::new(
        "USER",
        194,
        "DLGDIRSELECTCOMBOBOX",
        &[Arg::W, Arg::L, Arg::W],
        dir::dlg_dir_select_combo_box,
    ),
    Api::new(
        "USER",
        195,
        "DLGDIRLISTCOMBOBOX",
        &[Arg::W, Arg::L, Arg::W, Arg::W, Arg::W],
        dir::dlg_dir_list_combo_box,
    ),
    Api::new(
        "USER",
        218,
        "DIALOGBOXINDIRECT",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        dialog_box_indirect,
    ),
    Api::new(
        "USER",
        219,
        "CREATEDIALOGINDIRECT",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        create_dialog_indirect,
    ),
    Api::new(
        "USER",
        227,
        "GETNEXTDLGGROUPITEM",
        &[Arg::W, Arg::W, Arg::W],
        get_next_dlg_group_item,
    ),
    Api::new(
        "USER",
        228,
        "GETNEXTDLGTABITEM",
        &[Arg::W, Arg::W, Arg::W],
        get_next_dlg_tab_item,
    ),
    Api::new(
        "USER",
        239,
        "DIALOGBOXPARAM",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::L],
        dialog_box_param,
    ),
    Api::new(
        "USER",
        240,
        "DIALOGBOXINDIRECTPARAM",
        &[Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        dialog_box_indirect_param,
    ),
    Api::new(
        "USER",
        241,
        "CREATEDIALOGPARAM",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::L],
        create_dialog_param,
    ),
    Api::new(
        "USER",
        242,
        "CREATEDIALOGINDIRECTPARAM",
        &[Arg::W, Arg::L, Arg::W, Arg::L, Arg::L],
        create_dialog_indirect_param,
    ),
    Api::new(
        "USER",
        243,
        "GETDIALOGBASEUNITS",
        &[],
        get_dialog_base_units,
    ),
    Api::new("USER", 277, "GETDLGCTRLID", &[Arg::W], get_dlg_ctrl_id),
    Api::new(
        "USER",
        308,
        "DEFDLGPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        def_dlg_proc_api,
    ),
    Api::new(
        "USER",
        422,
        "DLGDIRSELECTEX",
        &[Arg::W, Arg::L, Arg::W, Arg::W],
        dir::dlg_dir_select_ex,
    ),
    Api::new(
        "USER",
        423,
        "DLGDIRSELECTCOMBOBOXEX",
        &[Arg::W, Arg::L, Arg::W, Arg::W],
        dir::dlg_dir_select_combo_box_ex,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_dlg_item_int_reads_as_windows_does() {
        assert_eq!(parse_int(b"  42", false), Some(42));
        assert_eq!(parse_int(b"42abc", false), Some(42));
        assert_eq!(parse_int(b"-42", true), Some(-42i16 as u16));
        assert_eq!(parse_int(b"-42", false), None);
        assert_eq!(parse_int(b"", true), None);
        assert_eq!(parse_int(b"abc", true), None);
        assert_eq!(parse_int(b"65535", false), Some(65535));
        assert_eq!(parse_int(b"65536", false), None);
        assert_eq!(parse_int(b"32767", true), Some(32767));
        assert_eq!(parse_int(b"32768", true), None);
        assert_eq!(parse_int(b"-32768", true), Some(0x8000));
        assert_eq!(parse_int(b"99999999999999999999", false), None);
    }

    #[test]
    fn dialog_units_are_quarters_and_eighths_of_the_base_units() {
        assert_eq!(map_rect((4, 8, 44, 22), (8, 16)), (8, 16, 88, 44));
        // Truncated, as the SDK's formula writes it.
        assert_eq!(map_rect((3, 3, 5, 5), (7, 13)), (5, 4, 8, 8));
    }

    #[test]
    fn a_modal_frame_dialog_has_the_dialog_frame() {
        // WS_CAPTION alone: a one-pixel border and the 18-pixel caption
        // with its line (SM_CYCAPTION 20 = 19 + the border's pixel).
        let caption = super::super::WS_POPUP | super::super::WS_CAPTION;
        assert_eq!(adjust((0, 0, 10, 10), caption, false, 0), (-1, -20, 11, 11));
        // DS_MODALFRAME's WS_EX_DLGMODALFRAME: the 4-pixel dialog frame
        // (SM_CXDLGFRAME, SM_CYDLGFRAME on VGA) replaces the border.
        assert_eq!(
            adjust(
                (0, 0, 10, 10),
                caption | DS_MODALFRAME,
                false,
                super::super::WS_EX_DLGMODALFRAME
            ),
            (-4, -23, 14, 14)
        );
    }
}
