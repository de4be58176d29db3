//! The clipboard: OpenClipboard, CloseClipboard, EmptyClipboard,
//! SetClipboardData, GetClipboardData, IsClipboardFormatAvailable,
//! CountClipboardFormats, EnumClipboardFormats, RegisterClipboardFormat,
//! GetClipboardFormatName, GetClipboardOwner, GetOpenClipboardWindow,
//! GetPriorityClipboardFormat, and the viewer chain (SetClipboardViewer,
//! GetClipboardViewer, ChangeClipboardChain).
//!
//! As the SDK's "Clipboard" chapter has it: the data are global memory
//! blocks the program gives away with SetClipboardData (a bitmap or
//! palette for CF_BITMAP and CF_PALETTE); a window opens the clipboard,
//! EmptyClipboard (the current owner getting WM_DESTROYCLIPBOARD first,
//! its data freed) makes the opener the owner; SetClipboardData with a
//! NULL handle promises the format, and GetClipboardData then asks the
//! owner for it with WM_RENDERFORMAT (the owner calls SetClipboardData
//! without opening the clipboard); an owner being destroyed with formats
//! still promised gets WM_RENDERALLFORMATS; CloseClipboard after a change
//! sends WM_DRAWCLIPBOARD to the first clipboard viewer. CF_TEXT and
//! CF_OEMTEXT are each available from the other, converted between the
//! ANSI and the OEM (code page 437) character sets. Registered formats
//! are global atoms from 0xC000 (RegisterWindowMessage shares them).

use super::message::send;
use super::{
    CF_BITMAP, CF_OEMTEXT, CF_PALETTE, CF_TEXT, Env, Stop, Uc, WM_CHANGECBCHAIN,
    WM_DESTROYCLIPBOARD, WM_DRAWCLIPBOARD, WM_RENDERALLFORMATS, WM_RENDERFORMAT, bytes_arg, event,
    split,
};
use crate::machine::Cpu;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::NameArg;

/// The clipboard's state.
#[derive(Debug, Default, Clone)]
pub struct Clipboard {
    /// The window that has it open (and its task), if any.
    pub open: Option<(u16, u16)>,
    pub owner: u16,
    /// The formats in the order they were set: (format, handle); handle 0
    /// for a format promised and not rendered yet.
    pub formats: Vec<(u16, u16)>,
    /// The first window of the viewer chain.
    pub viewer: u16,
    /// The contents changed since it was opened.
    pub changed: bool,
    /// The owner is rendering (WM_RENDERFORMAT, WM_RENDERALLFORMATS).
    pub rendering: bool,
}

impl Clipboard {
    /// Windows going away: they no longer own, open or view it.
    pub fn forget_windows(&mut self, gone: &[u16]) {
        if gone.contains(&self.owner) {
            self.owner = 0;
        }
        if self.open.is_some_and(|(h, _)| h != 0 && gone.contains(&h)) {
            self.open = None;
        }
        if gone.contains(&self.viewer) {
            self.viewer = 0;
        }
    }
}

/// The most formats at once.
const MAX_FORMATS: usize = 64;

/// Windows ANSI 0xA0..=0xFF as code page 437 ('?' where 437 has no such
/// character).
const ANSI_TO_OEM: [u8; 96] = [
    0xFF, 0xAD, 0x9B, 0x9C, b'?', 0x9D, b'|', 0x15, b'"', b'c', 0xA6, 0xAE, 0xAA, b'-', b'r', b'-',
    0xF8, 0xF1, 0xFD, b'3', b'\'', 0xE6, 0x14, 0xFA, b',', b'1', 0xA7, 0xAF, 0xAC, 0xAB, b'?',
    0xA8, b'A', b'A', b'A', b'A', 0x8E, 0x8F, 0x92, 0x80, b'E', 0x90, b'E', b'E', b'I', b'I', b'I',
    b'I', b'D', 0xA5, b'O', b'O', b'O', b'O', 0x99, b'x', b'0', b'U', b'U', b'U', 0x9A, b'Y', b'?',
    0xE1, 0x85, 0xA0, 0x83, b'a', 0x84, 0x86, 0x91, 0x87, 0x8A, 0x82, 0x88, 0x89, 0x8D, 0xA1, 0x8C,
    0x8B, b'd', 0xA4, 0x95, 0xA2, 0x93, b'o', 0x94, 0xF6, b'0', 0x97, 0xA3, 0x96, 0x81, b'y', b'?',
    0x98,
];

fn ansi_to_oem(c: u8) -> u8 {
    match c {
        0..=0x7F => c,
        0xA0..=0xFF => ANSI_TO_OEM[usize::from(c - 0xA0)],
        _ => b'?',
    }
}

fn oem_to_ansi(c: u8) -> u8 {
    if c < 0x80 {
        return c;
    }
    ANSI_TO_OEM
        .iter()
        .position(|&o| o == c)
        .map_or(b'?', |i| 0xA0 + i as u8)
}

/// Is the clipboard open for the calling task (or being rendered into)?
fn usable(env: &Env, uc: &Uc<'_>) -> bool {
    let c = &env.win16.user.clipboard;
    c.rendering || c.open.is_some_and(|(_, t)| t == uc.get_data().current_task)
}

/// Free a format's data (GDI objects through GDI's DeleteObject).
fn free_data(env: &mut Env, uc: &mut Uc<'_>, fmt: u16, h: u16) -> Result<(), Stop> {
    if h == 0 {
        return Ok(());
    }
    match fmt {
        CF_BITMAP | CF_PALETTE => {
            crate::win16::gdi::objects::delete_object(env, uc, &[u32::from(h)])?;
        }
        _ => {
            crate::win16::global::free_block(env, uc, h);
        }
    }
    Ok(())
}

/// The text formats one can be made from the other.
fn text_twin(fmt: u16) -> Option<u16> {
    match fmt {
        CF_TEXT => Some(CF_OEMTEXT),
        CF_OEMTEXT => Some(CF_TEXT),
        _ => None,
    }
}

pub(crate) fn has(env: &Env, fmt: u16) -> bool {
    let f = &env.win16.user.clipboard.formats;
    f.iter().any(|&(x, _)| x == fmt)
        || text_twin(fmt).is_some_and(|t| f.iter().any(|&(x, _)| x == t))
}

/// The formats as EnumClipboardFormats lists them: those set, then the
/// text format made from another.
fn listed(env: &Env) -> Vec<u16> {
    let f = &env.win16.user.clipboard.formats;
    let mut v: Vec<u16> = f.iter().map(|&(x, _)| x).collect();
    for t in [CF_TEXT, CF_OEMTEXT] {
        if !v.contains(&t) && has(env, t) {
            v.push(t);
        }
    }
    v
}

/// A clipboard owner being destroyed renders what it promised.
pub fn owner_destroyed(env: &mut Env, uc: &mut Uc<'_>, hwnd: u16) -> Result<(), Stop> {
    let c = &env.win16.user.clipboard;
    if c.owner != hwnd {
        return Ok(());
    }
    if c.formats.iter().any(|&(_, h)| h == 0) {
        env.win16.user.clipboard.rendering = true;
        let r = send(env, uc, hwnd, WM_RENDERALLFORMATS, 0, 0);
        env.win16.user.clipboard.rendering = false;
        r?;
        env.win16.user.clipboard.formats.retain(|&(_, h)| h != 0);
    }
    env.win16.user.clipboard.owner = 0;
    Ok(())
}

/// USER.137 OpenClipboard(hWnd) -> BOOL: FALSE while another window has it
/// open.
pub(crate) fn open_clipboard(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    let task = uc.get_data().current_task;
    let c = &mut env.win16.user.clipboard;
    if c.open.is_some_and(|(h, t)| h != hwnd || t != task) {
        return Ok(0);
    }
    c.open = Some((hwnd, task));
    c.changed = false;
    Ok(1)
}

/// USER.138 CloseClipboard() -> BOOL; the viewers hear of a change.
pub(crate) fn close_clipboard(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let task = uc.get_data().current_task;
    let c = &mut env.win16.user.clipboard;
    if c.open.is_none_or(|(_, t)| t != task) {
        return Ok(0);
    }
    c.open = None;
    let (changed, viewer) = (std::mem::take(&mut c.changed), c.viewer);
    if changed && viewer != 0 {
        send(env, uc, viewer, WM_DRAWCLIPBOARD, 0, 0)?;
    }
    Ok(1)
}

/// USER.139 EmptyClipboard() -> BOOL.
pub(crate) fn empty_clipboard(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    if !usable(env, uc) {
        return Ok(0);
    }
    let owner = env.win16.user.clipboard.owner;
    if owner != 0 && env.win16.user.window(owner).is_some() {
        send(env, uc, owner, WM_DESTROYCLIPBOARD, 0, 0)?;
    }
    let formats = std::mem::take(&mut env.win16.user.clipboard.formats);
    for (f, h) in formats {
        free_data(env, uc, f, h)?;
    }
    let c = &mut env.win16.user.clipboard;
    c.owner = c.open.map_or(0, |(h, _)| h);
    c.changed = true;
    event(uc, format!("clipboard emptied, owner {:04X}", c.owner));
    Ok(1)
}

/// USER.141 SetClipboardData(wFormat, hMem) -> hMem (0 on failure): the
/// data replace the format's; a NULL handle promises the format.
pub(crate) fn set_clipboard_data(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (fmt, h) = (a[0] as u16, a[1] as u16);
    if !usable(env, uc) || fmt == 0 {
        return Ok(0);
    }
    let c = &mut env.win16.user.clipboard;
    let old = c.formats.iter().position(|&(x, _)| x == fmt);
    let prev = match old {
        Some(i) => std::mem::replace(&mut c.formats[i].1, h),
        None => {
            if c.formats.len() >= MAX_FORMATS {
                return Ok(0);
            }
            c.formats.push((fmt, h));
            0
        }
    };
    c.changed = true;
    if prev != 0 && prev != h {
        free_data(env, uc, fmt, prev)?;
    }
    event(uc, format!("clipboard format {fmt:04X} set to {h:04X}"));
    Ok(u32::from(h))
}

/// The text in a global block, up to its NUL.
fn block_text(env: &Env, uc: &Uc<'_>, h: u16) -> Option<Vec<u8>> {
    let b = env.win16.global.find(h)?;
    let (sel, size) = (b.selector, b.size.min(0xFFFF) as usize);
    let mut data = vec![0u8; size];
    uc.read_seg(sel, 0, &mut data).ok()?;
    let end = data.iter().position(|&c| c == 0).unwrap_or(data.len());
    data.truncate(end);
    Some(data)
}

/// USER.142 GetClipboardData(wFormat) -> the handle (0 when the format is
/// not there or the clipboard is not open). A promised format is asked of
/// the owner; CF_TEXT and CF_OEMTEXT are made from each other.
pub(crate) fn get_clipboard_data(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let fmt = a[0] as u16;
    if !usable(env, uc) {
        return Ok(0);
    }
    let find = |env: &Env, f: u16| {
        env.win16
            .user
            .clipboard
            .formats
            .iter()
            .find(|&&(x, _)| x == f)
            .map(|&(_, h)| h)
    };
    let render = |env: &mut Env, uc: &mut Uc<'_>, f: u16| -> Result<Option<u16>, Stop> {
        let owner = env.win16.user.clipboard.owner;
        if owner != 0 && env.win16.user.window(owner).is_some() {
            env.win16.user.clipboard.rendering = true;
            let r = send(env, uc, owner, WM_RENDERFORMAT, f, 0);
            env.win16.user.clipboard.rendering = false;
            r?;
        }
        Ok(find(env, f).filter(|&h| h != 0))
    };
    match find(env, fmt) {
        Some(0) => return Ok(render(env, uc, fmt)?.map_or(0, u32::from)),
        Some(h) => return Ok(u32::from(h)),
        None => {}
    }
    let Some(twin) = text_twin(fmt) else {
        return Ok(0);
    };
    let source = match find(env, twin) {
        Some(0) => render(env, uc, twin)?,
        other => other,
    };
    let Some(src) = source else {
        return Ok(0);
    };
    let Some(text) = block_text(env, uc, src) else {
        return Ok(0);
    };
    let conv: Vec<u8> = text
        .iter()
        .map(|&c| {
            if fmt == CF_OEMTEXT {
                ansi_to_oem(c)
            } else {
                oem_to_ansi(c)
            }
        })
        .chain([0])
        .collect();
    const GMEM_MOVEABLE_DDESHARE: u16 = 0x2002;
    let owner = crate::win16::global::task_owner(env, uc, GMEM_MOVEABLE_DDESHARE);
    let h = crate::win16::global::alloc_block(
        env,
        uc,
        GMEM_MOVEABLE_DDESHARE,
        conv.len() as u32,
        &conv,
        owner,
    );
    if h != 0 {
        env.win16.user.clipboard.formats.push((fmt, h));
    }
    Ok(u32::from(h))
}

/// USER.193 IsClipboardFormatAvailable(wFormat).
fn is_clipboard_format_available(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(has(env, a[0] as u16)))
}

/// USER.143 CountClipboardFormats().
fn count_clipboard_formats(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(listed(env).len() as u32)
}

/// USER.144 EnumClipboardFormats(wFormat) -> the format after wFormat (the
/// first for 0), 0 after the last or when the clipboard is not open.
fn enum_clipboard_formats(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !usable(env, uc) {
        return Ok(0);
    }
    let v = listed(env);
    let fmt = a[0] as u16;
    let next = if fmt == 0 {
        v.first().copied()
    } else {
        v.iter()
            .position(|&f| f == fmt)
            .and_then(|i| v.get(i + 1).copied())
    };
    Ok(u32::from(next.unwrap_or(0)))
}

/// USER.145 RegisterClipboardFormat(lpszFormatName) -> a format from
/// 0xC000.
fn register_clipboard_format(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = bytes_arg(uc, a[0], 255);
    if name.is_empty() {
        return Ok(0);
    }
    Ok(u32::from(env.win16.atoms.global.add(NameArg::Str(name))))
}

/// USER.146 GetClipboardFormatName(wFormat, lpszFormatName, cbMax) -> the
/// length copied (0 for a predefined format).
fn get_clipboard_format_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let fmt = a[0] as u16;
    if fmt < 0xC000 {
        return Ok(0);
    }
    let Some(name) = env.win16.atoms.global.name(fmt) else {
        return Ok(0);
    };
    let size = crate::win16::farptr::int_size(a[2]);
    Ok(crate::win16::farptr::write_cstr_truncated(uc, a[1], &name, size).map_or(0, |n| n as u32))
}

/// USER.140 GetClipboardOwner().
fn get_clipboard_owner(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.clipboard.owner))
}

/// USER.248 GetOpenClipboardWindow().
fn get_open_clipboard_window(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        env.win16.user.clipboard.open.map_or(0, |(h, _)| h),
    ))
}

/// USER.402 GetPriorityClipboardFormat(lpPriorityList, cFormats) -> the
/// first of the list available, 0 when the clipboard is empty, -1 when
/// none of them is there.
fn get_priority_clipboard_format(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if env.win16.user.clipboard.formats.is_empty() {
        return Ok(0);
    }
    let n = crate::win16::farptr::int_size(a[1]).min(256);
    let (seg, off) = split(a[0]);
    for i in 0..n {
        let f = uc
            .read_u16_at(seg, off.wrapping_add(2 * i as u16))
            .unwrap_or(0);
        if f != 0 && has(env, f) {
            return Ok(u32::from(f));
        }
    }
    Ok(0xFFFF)
}

/// USER.147 SetClipboardViewer(hWnd) -> the next viewer in the chain; the
/// new viewer gets WM_DRAWCLIPBOARD.
fn set_clipboard_viewer(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    let prev = std::mem::replace(&mut env.win16.user.clipboard.viewer, hwnd);
    send(env, uc, hwnd, WM_DRAWCLIPBOARD, 0, 0)?;
    Ok(u32::from(prev))
}

/// USER.148 GetClipboardViewer().
fn get_clipboard_viewer(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.clipboard.viewer))
}

/// USER.149 ChangeClipboardChain(hWnd, hWndNext) -> what the first viewer
/// answers to WM_CHANGECBCHAIN(hWnd, hWndNext); a first viewer leaving is
/// replaced by hWndNext.
fn change_clipboard_chain(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (remove, next) = (a[0] as u16, a[1] as u16);
    let viewer = env.win16.user.clipboard.viewer;
    if viewer == 0 {
        return Ok(0);
    }
    if viewer == remove {
        env.win16.user.clipboard.viewer = next;
        return Ok(1);
    }
    Ok(send(env, uc, viewer, WM_CHANGECBCHAIN, remove, u32::from(next))? & 0xFFFF)
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 137, "OPENCLIPBOARD", &[Arg::W], open_clipboard),
    Api::new("USER", 138, "CLOSECLIPBOARD", &[], close_clipboard),
    Api::new("USER", 139, "EMPTYCLIPBOARD", &[], empty_clipboard),
    Api::new("USER", 140, "GETCLIPBOARDOWNER", &[], get_clipboard_owner),
    Api::new(
        "USER",
        141,
        "SETCLIPBOARDDATA",
        &[Arg::W, Arg::W],
        set_clipboard_data,
    ),
    Api::new(
        "USER",
        142,
        "GETCLIPBOARDDATA",
        &[Arg::W],
        get_clipboard_data,
    ),
    Api::new(
        "USER",
        143,
        "COUNTCLIPBOARDFORMATS",
        &[],
        count_clipboard_formats,
    ),
    Api::new(
        "USER",
        144,
        "ENUMCLIPBOARDFORMATS",
        &[Arg::W],
        enum_clipboard_formats,
    ),
    Api::new(
        "USER",
        145,
        "REGISTERCLIPBOARDFORMAT",
        &[Arg::L],
        register_clipboard_format,
    ),
    Api::new(
        "USER",
        146,
        "GETCLIPBOARDFORMATNAME",
        &[Arg::W, Arg::L, Arg::W],
        get_clipboard_format_name,
    ),
    Api::new(
        "USER",
        147,
        "SETCLIPBOARDVIEWER",
        &[Arg::W],
        set_clipboard_viewer,
    ),
    Api::new("USER", 148, "GETCLIPBOARDVIEWER", &[], get_clipboard_viewer),
    Api::new(
        "USER",
        149,
        "CHANGECLIPBOARDCHAIN",
        &[Arg::W, Arg::W],
        change_clipboard_chain,
    ),
    Api::new(
        "USER",
        193,
        "ISCLIPBOARDFORMATAVAILABLE",
        &[Arg::W],
        is_clipboard_format_available,
    ),
    Api::new(
        "USER",
        248,
        "GETOPENCLIPBOARDWINDOW",
        &[],
        get_open_clipboard_window,
    ),
    Api::new(
        "USER",
        402,
        "GETPRIORITYCLIPBOARDFORMAT",
        &[Arg::L, Arg::W],
        get_priority_clipboard_format,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn ansi_and_oem_round_trip() {
        // é is 0xE9 in Windows ANSI and 0x82 in code page 437.
        assert_eq!(ansi_to_oem(0xE9), 0x82);
        assert_eq!(oem_to_ansi(0x82), 0xE9);
        assert_eq!(ansi_to_oem(b'A'), b'A');
        for c in 0xA0..=0xFFu8 {
            let o = ansi_to_oem(c);
            if o >= 0x80 {
                assert_eq!(oem_to_ansi(o), c, "{c:02X}");
            }
        }
    }
}
