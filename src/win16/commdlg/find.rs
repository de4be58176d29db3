//! FindText and ReplaceText: COMMDLG's modeless Find and Replace dialog
//! boxes, made of USER's dialog manager and controls.
//!
//! What Windows 3.1 does (SDK, "FindText", "ReplaceText", FINDREPLACE,
//! FINDMSGSTRING):
//!
//! - The function checks the structure (lStructSize 36: CDERR_STRUCTSIZE;
//!   hwndOwner a window: else CDERR_DIALOGFAILURE; lpstrFindWhat and a
//!   wFindWhatLen of at least 1, and for ReplaceText lpstrReplaceWith and
//!   wReplaceWithLen too: else FRERR_BUFFERLENGTHZERO), creates the dialog
//!   owned by hwndOwner, visible, and returns its window at once; the
//!   program's message loop must pass its messages through
//!   IsDialogMessage.
//! - The dialog starts with the structure's text in its edit control(s)
//!   and its options (FR_DOWN, FR_WHOLEWORD, FR_MATCHCASE) in its buttons;
//!   FR_HIDE* hide a choice, FR_NO* disable it, FR_SHOWHELP shows Help.
//!   Find Next (and Replace, Replace All) are disabled while the find
//!   text is empty.
//! - Find Next, Replace and Replace All copy the texts into the
//!   structure's buffers (cut to their lengths), set Flags (FR_FINDNEXT,
//!   FR_REPLACE or FR_REPLACEALL, with FR_DOWN, FR_WHOLEWORD and
//!   FR_MATCHCASE as the buttons show them) and send the registered
//!   message "commdlg_FindReplace" to the owner with lParam the
//!   structure. Cancel (or closing the box) sends it with FR_DIALOGTERM,
//!   then destroys the dialog. Help sends "commdlg_help".
//! - FR_ENABLEHOOK: the hook sees WM_INITDIALOG after the dialog's own
//!   handling (its answer is the dialog's), and every other message
//!   first (non-zero: the dialog does nothing more). FR_ENABLETEMPLATE:
//!   the dialog is built from lpTemplateName in hInstance's module;
//!   FR_ENABLETEMPLATEHANDLE: from the template in memory block
//!   hInstance.
//!
//! The templates are this module's own, with the controls and ids of
//! COMMDLG's (edt1 0x480, edt2 0x481, chx1 0x410 whole word, chx2 0x411
//! case, rad1 0x420 up, rad2 0x421 down, grp1 0x430, IDOK Find Next, psh1
//! 0x400 Replace, psh2 0x401 Replace All, IDCANCEL, pshHelp 0x40E), so a
//! `--messages` script reaches them with `type 0x480 TEXT` and
//! `click-id 1`.

use std::collections::BTreeMap;

use crate::machine::{Stop, Uc, record_event};
use crate::win16::Env;
use crate::win16::farptr::{self, NameArg};
use crate::win16::user::controls::{button, wm};
use crate::win16::user::dialog;

/// FINDREPLACE's size (16-bit).
pub const FINDREPLACE_SIZE: u32 = 36;

/// The Flags bits (COMMDLG.H).
pub mod fr {
    pub const DOWN: u32 = 0x0000_0001;
    pub const WHOLEWORD: u32 = 0x0000_0002;
    pub const MATCHCASE: u32 = 0x0000_0004;
    pub const FINDNEXT: u32 = 0x0000_0008;
    pub const REPLACE: u32 = 0x0000_0010;
    pub const REPLACEALL: u32 = 0x0000_0020;
    pub const DIALOGTERM: u32 = 0x0000_0040;
    pub const SHOWHELP: u32 = 0x0000_0080;
    pub const ENABLEHOOK: u32 = 0x0000_0100;
    pub const ENABLETEMPLATE: u32 = 0x0000_0200;
    pub const NOUPDOWN: u32 = 0x0000_0400;
    pub const NOMATCHCASE: u32 = 0x0000_0800;
    pub const NOWHOLEWORD: u32 = 0x0000_1000;
    pub const ENABLETEMPLATEHANDLE: u32 = 0x0000_2000;
    pub const HIDEUPDOWN: u32 = 0x0000_4000;
    pub const HIDEMATCHCASE: u32 = 0x0000_8000;
    pub const HIDEWHOLEWORD: u32 = 0x0001_0000;
}

/// The dialogs' control ids (DLGS.H).
pub mod id {
    pub const IDOK: u16 = 1;
    pub const IDCANCEL: u16 = 2;
    pub const PSH1: u16 = 0x400;
    pub const PSH2: u16 = 0x401;
    pub const PSH_HELP: u16 = 0x40E;
    pub const CHX1: u16 = 0x410;
    pub const CHX2: u16 = 0x411;
    pub const RAD1: u16 = 0x420;
    pub const RAD2: u16 = 0x421;
    pub const GRP1: u16 = 0x430;
    pub const EDT1: u16 = 0x480;
    pub const EDT2: u16 = 0x481;
}

/// The registered messages the dialog sends its owner.
pub const FINDMSGSTRING: &[u8] = b"commdlg_FindReplace";
pub const HELPMSGSTRING: &[u8] = b"commdlg_help";

/// FRERR_BUFFERLENGTHZERO and CDERR_DIALOGFAILURE.
pub const FRERR_BUFFERLENGTHZERO: u32 = 0x4001;
pub const CDERR_DIALOGFAILURE: u32 = 0xFFFF;

const WM_DESTROY: u16 = 0x0002;
const WM_CLOSE: u16 = 0x0010;
const WM_INITDIALOG: u16 = 0x0110;
const WM_COMMAND: u16 = 0x0111;
const EN_CHANGE: u16 = 0x0300;
const EM_LIMITTEXT: u16 = 0x0415;

/// One open Find or Replace dialog.
#[derive(Debug, Clone, Copy)]
pub struct FindDialog {
    /// The program's FINDREPLACE.
    pub lpfr: u32,
    pub replace: bool,
    pub owner: u16,
    /// FR_ENABLEHOOK's hook.
    pub hook: Option<(u16, u16)>,
}

/// The open dialogs, by window.
#[derive(Clone, Debug, Default)]
pub struct FindDialogs {
    pub map: BTreeMap<u16, FindDialog>,
}

// ------------------------------------------------------- the templates

const WS_POPUP: u32 = 0x8000_0000;
const WS_CHILD: u32 = 0x4000_0000;
const WS_VISIBLE: u32 = 0x1000_0000;
const WS_CAPTION: u32 = 0x00C0_0000;
const WS_BORDER: u32 = 0x0080_0000;
const WS_SYSMENU: u32 = 0x0008_0000;
const WS_GROUP: u32 = 0x0002_0000;
const WS_TABSTOP: u32 = 0x0001_0000;
const DS_MODALFRAME: u32 = 0x0080;
const DS_SETFONT: u32 = 0x0040;
const ES_AUTOHSCROLL: u32 = 0x0080;
const BS_DEFPUSHBUTTON: u32 = 1;
const BS_AUTOCHECKBOX: u32 = 3;
const BS_GROUPBOX: u32 = 7;
const BS_AUTORADIOBUTTON: u32 = 9;

/// One control: class byte (0x80 button, 0x81 edit, 0x82 static), id,
/// style, rectangle in dialog units, text.
type Item = (u8, u16, u32, (u16, u16, u16, u16), &'static str);

const BUTTON: u8 = 0x80;
const EDIT: u8 = 0x81;
const STATIC: u8 = 0x82;
const TAB: u32 = WS_TABSTOP;
const EDIT_STYLE: u32 = WS_BORDER | WS_GROUP | WS_TABSTOP | ES_AUTOHSCROLL;

const FIND_ITEMS: &[Item] = &[
    (STATIC, 0xFFFF, 0, (4, 8, 42, 8), "Fi&nd What:"),
    (EDIT, id::EDT1, EDIT_STYLE, (47, 7, 128, 12), ""),
    (
        BUTTON,
        id::CHX1,
        BS_AUTOCHECKBOX | WS_GROUP | TAB,
        (4, 26, 100, 12),
        "Match &Whole Word Only",
    ),
    (
        BUTTON,
        id::CHX2,
        BS_AUTOCHECKBOX | TAB,
        (4, 42, 64, 12),
        "Match &Case",
    ),
    (
        BUTTON,
        id::GRP1,
        BS_GROUPBOX | WS_GROUP,
        (107, 26, 68, 28),
        "Direction",
    ),
    (
        BUTTON,
        id::RAD1,
        BS_AUTORADIOBUTTON | WS_GROUP | TAB,
        (111, 38, 20, 12),
        "&Up",
    ),
    (
        BUTTON,
        id::RAD2,
        BS_AUTORADIOBUTTON,
        (138, 38, 30, 12),
        "&Down",
    ),
    (
        BUTTON,
        id::IDOK,
        BS_DEFPUSHBUTTON | WS_GROUP | TAB,
        (182, 5, 50, 14),
        "&Find Next",
    ),
    (BUTTON, id::IDCANCEL, TAB, (182, 23, 50, 14), "Cancel"),
    (BUTTON, id::PSH_HELP, TAB, (182, 45, 50, 14), "&Help"),
];

const REPLACE_ITEMS: &[Item] = &[
    (STATIC, 0xFFFF, 0, (4, 9, 48, 8), "Fi&nd What:"),
    (EDIT, id::EDT1, EDIT_STYLE, (54, 7, 114, 12), ""),
    (STATIC, 0xFFFF, 0, (4, 26, 48, 8), "Re&place With:"),
    (EDIT, id::EDT2, EDIT_STYLE, (54, 24, 114, 12), ""),
    (
        BUTTON,
        id::CHX1,
        BS_AUTOCHECKBOX | WS_GROUP | TAB,
        (5, 46, 104, 12),
        "Match &Whole Word Only",
    ),
    (
        BUTTON,
        id::CHX2,
        BS_AUTOCHECKBOX | TAB,
        (5, 62, 59, 12),
        "Match &Case",
    ),
    (
        BUTTON,
        id::IDOK,
        BS_DEFPUSHBUTTON | WS_GROUP | TAB,
        (174, 4, 50, 14),
        "&Find Next",
    ),
    (BUTTON, id::PSH1, TAB, (174, 21, 50, 14), "&Replace"),
    (BUTTON, id::PSH2, TAB, (174, 38, 50, 14), "Replace &All"),
    (BUTTON, id::IDCANCEL, TAB, (174, 55, 50, 14), "Cancel"),
    (BUTTON, id::PSH_HELP, TAB, (174, 75, 50, 14), "&Help"),
];

fn push_str(b: &mut Vec<u8>, s: &str) {
    b.extend_from_slice(s.as_bytes());
    b.push(0);
}

/// The DLGTEMPLATE of the Find (or Replace) dialog: a visible pop-up with
/// a caption, the system menu and the modal frame, in 8-point Helv.
pub fn template(replace: bool) -> Vec<u8> {
    let (items, caption, size) = if replace {
        (REPLACE_ITEMS, "Replace", (230u16, 94u16))
    } else {
        (FIND_ITEMS, "Find", (236, 62))
    };
    let style = WS_POPUP | WS_VISIBLE | WS_CAPTION | WS_SYSMENU | DS_MODALFRAME | DS_SETFONT;
    let mut b = Vec::with_capacity(512);
    b.extend_from_slice(&style.to_le_bytes());
    b.push(items.len() as u8);
    for v in [30u16, 73, size.0, size.1] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.push(0); // no menu
    b.push(0); // the dialog class
    push_str(&mut b, caption);
    b.extend_from_slice(&8u16.to_le_bytes());
    push_str(&mut b, "Helv");
    for &(class, id, style, r, text) in items {
        for v in [r.0, r.1, r.2, r.3, id] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&(WS_CHILD | WS_VISIBLE | style).to_le_bytes());
        b.push(class);
        push_str(&mut b, text);
        b.push(0); // no creation data
    }
    b
}

// ------------------------------------------------------- FINDREPLACE

/// The fields of a FINDREPLACE the dialog uses.
#[derive(Debug, Clone, Copy)]
struct Fr {
    owner: u16,
    hinstance: u16,
    flags: u32,
    find: u32,
    replace: u32,
    find_len: u16,
    replace_len: u16,
    hook: u32,
    template: u32,
}

fn dword(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn word(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn read_fr(uc: &Uc<'_>, p: u32) -> Option<Fr> {
    let b = farptr::read_bytes(uc, p, FINDREPLACE_SIZE as usize)?;
    Some(Fr {
        owner: word(&b, 4),
        hinstance: word(&b, 6),
        flags: dword(&b, 8),
        find: dword(&b, 12),
        replace: dword(&b, 16),
        find_len: word(&b, 20),
        replace_len: word(&b, 22),
        hook: dword(&b, 28),
        template: dword(&b, 32),
    })
}

fn write_flags(uc: &mut Uc<'_>, p: u32, flags: u32) {
    farptr::write_bytes(uc, farptr::add(p, 8), &flags.to_le_bytes());
}

/// The number of a registered message (RegisterWindowMessage's: a global
/// atom).
fn registered(env: &mut Env, name: &[u8]) -> u16 {
    let atoms = &mut env.win16.atoms.global;
    match atoms.find(NameArg::Str(name.to_vec())) {
        0 => atoms.add(NameArg::Str(name.to_vec())),
        n => n,
    }
}

/// The far address of COMMDLG.ordinal's thunk (the dialogs' procedures).
fn proc_thunk(env: &mut Env, uc: &mut Uc<'_>, ordinal: u16) -> Option<u32> {
    let idx = env.win16.modules.iter().position(|m| m.name == "COMMDLG")?;
    let p =
        crate::win16::kernel::builtin::thunk_for(uc, &mut env.win16, idx, ordinal, None).ok()?;
    Some(u32::from(p.selector) << 16 | u32::from(p.offset))
}

/// FindText (`replace` false) and ReplaceText (module notes): the
/// dialog's window, or 0 with the error in CommDlgExtendedError.
pub fn open(env: &mut Env, uc: &mut Uc<'_>, lpfr: u32, replace: bool) -> Result<u32, Stop> {
    let what = if replace { "ReplaceText" } else { "FindText" };
    let ok = farptr::read_bytes(uc, lpfr, 4)
        .is_some_and(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == FINDREPLACE_SIZE);
    let fail = |env: &mut Env, uc: &mut Uc<'_>, e: u32| {
        env.win16.commdlg.last_error = e;
        record_event(uc, format!("{what}: error {e:04X}"));
        Ok(0)
    };
    if !ok {
        return fail(env, uc, super::cderr::STRUCTSIZE);
    }
    let Some(f) = read_fr(uc, lpfr) else {
        return fail(env, uc, super::cderr::STRUCTSIZE);
    };
    if !wm::exists(env, f.owner) {
        return fail(env, uc, CDERR_DIALOGFAILURE);
    }
    if f.find == 0 || f.find_len == 0 || (replace && (f.replace == 0 || f.replace_len == 0)) {
        return fail(env, uc, FRERR_BUFFERLENGTHZERO);
    }
    env.win16.commdlg.last_error = 0;
    let Some(proc_) = proc_thunk(env, uc, if replace { 14 } else { 13 }) else {
        return fail(env, uc, CDERR_DIALOGFAILURE);
    };
    let hook = (f.flags & fr::ENABLEHOOK != 0 && f.hook != 0)
        .then_some(((f.hook >> 16) as u16, f.hook as u16));
    // The edit controls keep their text in the local heap of the
    // dialog's instance: the owner's.
    let hinst = wm::hinstance(env, f.owner);
    let hdlg = if f.flags & fr::ENABLETEMPLATE != 0 {
        dialog::create_modeless(
            env,
            uc,
            f.hinstance,
            None,
            Some(f.template),
            what,
            f.owner,
            proc_,
            lpfr,
        )?
    } else if f.flags & fr::ENABLETEMPLATEHANDLE != 0 {
        let p = crate::win16::global::global_lock(env, uc, &[u32::from(f.hinstance)])?;
        dialog::create_modeless(env, uc, hinst, Some(p), None, what, f.owner, proc_, lpfr)?
    } else {
        let t = template(replace);
        // The template on the stack, as USER's own structures are.
        let (h, _) = crate::win16::user::controls::with_data(env, uc, &t, |env, uc, p| {
            // The dialog is known before WM_INITDIALOG reaches its
            // procedure: the hook is read there.
            env.win16.commdlg.pending = Some(FindDialog {
                lpfr,
                replace,
                owner: f.owner,
                hook,
            });
            dialog::create_modeless(env, uc, hinst, Some(p), None, what, f.owner, proc_, lpfr)
        })?;
        h
    };
    env.win16.commdlg.pending = None;
    if hdlg == 0 {
        return fail(env, uc, CDERR_DIALOGFAILURE);
    }
    record_event(uc, format!("{what}: dialog {hdlg:04X}"));
    Ok(u32::from(hdlg))
}

// ------------------------------------------------------- the procedure

fn item(env: &Env, hdlg: u16, id: u16) -> u16 {
    dialog::item(env, hdlg, id)
}

fn set_check(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, id: u16, on: bool) -> Result<(), Stop> {
    let h = item(env, hdlg, id);
    if h != 0 {
        wm::send(env, uc, h, button::BM_SETCHECK, u16::from(on), 0)?;
    }
    Ok(())
}

fn checked(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, id: u16) -> Result<bool, Stop> {
    let h = item(env, hdlg, id);
    Ok(h != 0 && wm::send(env, uc, h, button::BM_GETCHECK, 0, 0)? & 0xFFFF == 1)
}

/// Hide (`hide`) or disable (`off`) control `id`.
fn restrict(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdlg: u16,
    id: u16,
    hide: bool,
    off: bool,
) -> Result<(), Stop> {
    let h = item(env, hdlg, id);
    if h == 0 {
        return Ok(());
    }
    if hide {
        wm::show(env, uc, h, 0)?;
    } else if off {
        wm::enable(env, uc, h, false)?;
    }
    Ok(())
}

/// Find Next, Replace and Replace All are usable while there is text to
/// find.
fn enable_buttons(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16) -> Result<(), Stop> {
    let e = item(env, hdlg, id::EDT1);
    let any = e != 0 && wm::send(env, uc, e, wm::WM_GETTEXTLENGTH, 0, 0)? & 0xFFFF != 0;
    for i in [id::IDOK, id::PSH1, id::PSH2] {
        let h = item(env, hdlg, i);
        if h != 0 {
            wm::enable(env, uc, h, any)?;
        }
    }
    Ok(())
}

fn init(env: &mut Env, uc: &mut Uc<'_>, hdlg: u16, d: FindDialog) -> Result<(), Stop> {
    let Some(f) = read_fr(uc, d.lpfr) else {
        return Ok(());
    };
    for (eid, p, len) in [
        (id::EDT1, f.find, f.find_len),
        (id::EDT2, f.replace, f.replace_len),
    ] {
        let h = item(env, hdlg, eid);
        if h == 0 || p == 0 {
            continue;
        }
        wm::send(env, uc, h, EM_LIMITTEXT, len.saturating_sub(1), 0)?;
        let text = farptr::read_cstr(uc, p, usize::from(len)).unwrap_or_default();
        dialog::set_item_text(env, uc, h, &text)?;
    }
    set_check(env, uc, hdlg, id::CHX1, f.flags & fr::WHOLEWORD != 0)?;
    set_check(env, uc, hdlg, id::CHX2, f.flags & fr::MATCHCASE != 0)?;
    let down = f.flags & fr::DOWN != 0;
    set_check(env, uc, hdlg, id::RAD1, !down)?;
    set_check(env, uc, hdlg, id::RAD2, down)?;
    let (fl, hide_dir) = (f.flags, f.flags & fr::HIDEUPDOWN != 0);
    restrict(
        env,
        uc,
        hdlg,
        id::CHX1,
        fl & fr::HIDEWHOLEWORD != 0,
        fl & fr::NOWHOLEWORD != 0,
    )?;
    restrict(
        env,
        uc,
        hdlg,
        id::CHX2,
        fl & fr::HIDEMATCHCASE != 0,
        fl & fr::NOMATCHCASE != 0,
    )?;
    for i in [id::RAD1, id::RAD2, id::GRP1] {
        restrict(env, uc, hdlg, i, hide_dir, fl & fr::NOUPDOWN != 0)?;
    }
    restrict(env, uc, hdlg, id::PSH_HELP, fl & fr::SHOWHELP == 0, false)?;
    enable_buttons(env, uc, hdlg)
}

/// Copy the dialog's state into the structure and tell the owner
/// (`action` is FR_FINDNEXT, FR_REPLACE, FR_REPLACEALL or FR_DIALOGTERM).
fn notify(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdlg: u16,
    d: FindDialog,
    action: u32,
) -> Result<(), Stop> {
    let Some(f) = read_fr(uc, d.lpfr) else {
        return Ok(());
    };
    let mut flags = f.flags & !(fr::FINDNEXT | fr::REPLACE | fr::REPLACEALL | fr::DIALOGTERM);
    if action != fr::DIALOGTERM {
        for (eid, p, len) in [
            (id::EDT1, f.find, f.find_len),
            (id::EDT2, f.replace, f.replace_len),
        ] {
            let h = item(env, hdlg, eid);
            if h != 0 && p != 0 && len != 0 {
                wm::send(env, uc, h, wm::WM_GETTEXT, len, p)?;
            }
        }
        flags &= !(fr::DOWN | fr::WHOLEWORD | fr::MATCHCASE);
        if checked(env, uc, hdlg, id::CHX1)? {
            flags |= fr::WHOLEWORD;
        }
        if checked(env, uc, hdlg, id::CHX2)? {
            flags |= fr::MATCHCASE;
        }
        // Replace has no direction: it searches down.
        if d.replace || checked(env, uc, hdlg, id::RAD2)? {
            flags |= fr::DOWN;
        }
    }
    flags |= action;
    write_flags(uc, d.lpfr, flags);
    let msg = registered(env, FINDMSGSTRING);
    if wm::exists(env, d.owner) {
        wm::send(env, uc, d.owner, msg, 0, d.lpfr)?;
    }
    Ok(())
}

/// COMMDLG.13 FindTextDlgProc and COMMDLG.14 ReplaceTextDlgProc(hDlg,
/// msg, wParam, lParam) (module notes).
pub fn dlg_proc(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hdlg, msg, wparam, lparam) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3]);
    if msg == WM_INITDIALOG {
        let d = env
            .win16
            .commdlg
            .pending
            .filter(|d| d.lpfr == lparam)
            .or_else(|| {
                let f = read_fr(uc, lparam)?;
                Some(FindDialog {
                    lpfr: lparam,
                    replace: dialog::item(env, hdlg, id::EDT2) != 0,
                    owner: f.owner,
                    hook: (f.flags & fr::ENABLEHOOK != 0 && f.hook != 0)
                        .then_some(((f.hook >> 16) as u16, f.hook as u16)),
                })
            });
        let Some(d) = d else {
            return Ok(1);
        };
        env.win16.commdlg.finds.map.insert(hdlg, d);
        init(env, uc, hdlg, d)?;
        if let Some(h) = d.hook {
            let ds = wm::hinstance(env, d.owner);
            return crate::win16::user::message::call_proc(
                env, uc, h, ds, hdlg, msg, wparam, lparam,
            );
        }
        return Ok(1);
    }
    let Some(d) = env.win16.commdlg.finds.map.get(&hdlg).copied() else {
        return Ok(0);
    };
    if let Some(h) = d.hook {
        let ds = wm::hinstance(env, d.owner);
        let r = crate::win16::user::message::call_proc(env, uc, h, ds, hdlg, msg, wparam, lparam)?;
        if r & 0xFFFF != 0 {
            return Ok(r);
        }
    }
    match msg {
        WM_COMMAND => {
            let code = (lparam >> 16) as u16;
            match wparam {
                id::IDOK => notify(env, uc, hdlg, d, fr::FINDNEXT)?,
                id::PSH1 if d.replace => notify(env, uc, hdlg, d, fr::REPLACE)?,
                id::PSH2 if d.replace => notify(env, uc, hdlg, d, fr::REPLACEALL)?,
                id::IDCANCEL => {
                    notify(env, uc, hdlg, d, fr::DIALOGTERM)?;
                    wm::destroy(env, uc, hdlg)?;
                }
                id::PSH_HELP => {
                    let m = registered(env, HELPMSGSTRING);
                    if wm::exists(env, d.owner) {
                        wm::send(env, uc, d.owner, m, hdlg, d.lpfr)?;
                    }
                }
                id::EDT1 if code == EN_CHANGE => enable_buttons(env, uc, hdlg)?,
                _ => return Ok(0),
            }
            Ok(1)
        }
        WM_CLOSE => {
            notify(env, uc, hdlg, d, fr::DIALOGTERM)?;
            wm::destroy(env, uc, hdlg)?;
            Ok(1)
        }
        WM_DESTROY => {
            env.win16.commdlg.finds.map.remove(&hdlg);
            Ok(0)
        }
        _ => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_parse_with_commdlgs_controls() {
        for (replace, n, ids) in [
            (
                false,
                10,
                &[id::EDT1, id::CHX1, id::CHX2, id::RAD1, id::RAD2, id::IDOK][..],
            ),
            (
                true,
                11,
                &[id::EDT1, id::EDT2, id::PSH1, id::PSH2, id::IDCANCEL][..],
            ),
        ] {
            let t = crate::win16::user::dialog::template::parse(&template(replace)).unwrap();
            assert_eq!(t.items.len(), n);
            for want in ids {
                assert!(t.items.iter().any(|i| i.fixed.id == *want), "{want:04X}");
            }
        }
    }
}
