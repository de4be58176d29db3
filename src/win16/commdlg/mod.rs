//! COMMDLG: the common dialog boxes, headless.
//!
//! Nobody sits at the screen, so a common dialog is answered by the
//! `--messages` script (script.rs): it takes its task's next `dialog`
//! line (or `file NAME`, a `dialog ok` carrying a file name), as a
//! DialogBox does. With no such line the dialog is cancelled: the
//! function returns FALSE and CommDlgExtendedError() 0, what Windows 3.1
//! returns when the user presses Cancel (Windows 3.1 SDK, "Common Dialog
//! Box Library"). A structure whose lStructSize is wrong fails with
//! CDERR_STRUCTSIZE before any answer is taken.
//!
//! | dialog | with `dialog ok` |
//! | --- | --- |
//! | GetOpenFileName, GetSaveFileName | TRUE: lpstrFile gets the full path of the `file` line's name (or of the name already in lpstrFile) in lower case, as Windows 3.1's dialogs gave it, with lpstrDefExt added to a name without an extension; nFileOffset and nFileExtension index its name and extension; lpstrFileTitle gets the name alone. A buffer too small: FALSE, FNERR_BUFFERTOOSMALL, and the size needed in its first word |
//! | ChooseColor | TRUE: rgbResult is the colour the dialog started with (CC_RGBINIT), else black |
//! | ChooseFont | TRUE: the LOGFONT as the dialog started with it (CF_INITTOLOGFONTSTRUCT), else the default 10-point System font; iPointSize in tenths of a point (96 pixels to the logical inch); nFontType SCREEN_FONTTYPE |
//! | PrintDlg | TRUE: hDevNames and hDevMode (made when NULL) describe WIN.INI's default printer (`[windows] device=`), hDC a DC (PD_RETURNDC) or an information context (PD_RETURNIC) of it; see [`print_dlg`] |
//! | FindText, ReplaceText | modeless dialogs of USER's dialog manager, driven by `type` and `click-id` lines ([`find`]) |
//!
//! GetFileTitle and CommDlgExtendedError work as documented.

pub mod find;

use std::collections::BTreeMap;

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "COMMDLG",
        1,
        "GETOPENFILENAME",
        &[Arg::L],
        get_open_file_name,
    ),
    Api::new(
        "COMMDLG",
        2,
        "GETSAVEFILENAME",
        &[Arg::L],
        get_save_file_name,
    ),
    Api::new("COMMDLG", 5, "CHOOSECOLOR", &[Arg::L], choose_color),
    Api::new("COMMDLG", 11, "FINDTEXT", &[Arg::L], find_text),
    Api::new("COMMDLG", 12, "REPLACETEXT", &[Arg::L], replace_text),
    Api::new(
        "COMMDLG",
        13,
        "FINDTEXTDLGPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        find::dlg_proc,
    ),
    Api::new(
        "COMMDLG",
        14,
        "REPLACETEXTDLGPROC",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        find::dlg_proc,
    ),
    Api::new("COMMDLG", 15, "CHOOSEFONT", &[Arg::L], choose_font),
    Api::new("COMMDLG", 20, "PRINTDLG", &[Arg::L], print_dlg),
    Api::new(
        "COMMDLG",
        26,
        "COMMDLGEXTENDEDERROR",
        &[],
        comm_dlg_extended_error,
    ),
    Api::new(
        "COMMDLG",
        27,
        "GETFILETITLE",
        &[Arg::L, Arg::L, Arg::W],
        get_file_title,
    ),
    Api::new("COMMDLG", 28, "WEP", &[Arg::W], wep),
];

/// CommDlgExtendedError codes (Windows 3.1 SDK, CDERR_*).
pub mod cderr {
    pub const STRUCTSIZE: u32 = 0x0001;
    pub const NODEFAULTPRN: u32 = 0x1008;
    pub const RETDEFFAILURE: u32 = 0x1009;
    pub const BUFFERTOOSMALL: u32 = 0x3003;
}

/// Structure sizes (Windows 3.1, 16-bit).
pub const OPENFILENAME_SIZE: u32 = 72;
pub const CHOOSECOLOR_SIZE: u32 = 32;
pub const CHOOSEFONT_SIZE: u32 = 46;
pub const PRINTDLG_SIZE: u32 = 52;
pub const FINDREPLACE_SIZE: u32 = find::FINDREPLACE_SIZE;

/// COMMDLG's state: the last error and the script's file names.
#[derive(Clone, Debug, Default)]
pub struct CommDlgState {
    pub last_error: u32,
    /// The `file` lines' names by line number (script.rs).
    pub files: BTreeMap<usize, String>,
    /// The open Find and Replace dialogs.
    pub finds: find::FindDialogs,
    /// The Find or Replace dialog being created (its WM_INITDIALOG).
    pub pending: Option<find::FindDialog>,
}

/// The answer a common dialog takes (module notes): OK with the `file`
/// line's name if any, or cancelled. None when no line is left.
fn take_answer(env: &mut Env, uc: &mut Uc<'_>, what: &str) -> Option<(bool, Option<String>)> {
    let htask = uc.get_data().current_task;
    let (number, a) = crate::win16::user::message::take_answer(env, htask, true)?;
    let file = env.win16.commdlg.files.remove(&number);
    crate::machine::record_event(
        uc,
        format!(
            "script line {}: {what} answered {}",
            number,
            file.as_deref()
                .unwrap_or(if a == 1 { "ok" } else { "cancel" })
        ),
    );
    Some((a == 1, file))
}

/// The structure's size word, checked: false (and CDERR_STRUCTSIZE) when
/// it is not `want`.
fn size_ok(env: &mut Env, uc: &Uc<'_>, p: u32, want: u32) -> bool {
    let ok = farptr::read_bytes(uc, p, 4)
        .is_some_and(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == want);
    env.win16.commdlg.last_error = if ok { 0 } else { cderr::STRUCTSIZE };
    ok
}

fn dword(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The full DOS path a file dialog returns for `name` (module notes):
/// lower case, on drive C:, relative names under the initial directory or
/// the current one; `def_ext` added to a name without an extension.
fn full_name(env: &Env, name: &str, initial: Option<&str>, def_ext: Option<&str>) -> String {
    let name = name.trim().replace('/', "\\");
    let mut path = if name.len() >= 2 && name.as_bytes()[1] == b':' {
        name.clone()
    } else if let Some(rest) = name.strip_prefix('\\') {
        format!("C:\\{rest}")
    } else {
        let dir = match initial.filter(|d| !d.is_empty()) {
            Some(d) => {
                let d = d.trim_end_matches('\\');
                if d.len() >= 2 && d.as_bytes()[1] == b':' {
                    d.to_string()
                } else {
                    format!("C:\\{}", d.trim_start_matches('\\'))
                }
            }
            None => {
                let cwd = env.drive.as_ref().map(|d| d.getcwd()).unwrap_or_default();
                if cwd.is_empty() {
                    "C:".into()
                } else {
                    format!("C:\\{cwd}")
                }
            }
        };
        format!("{}\\{name}", dir.trim_end_matches('\\'))
    };
    let base = path.rsplit('\\').next().unwrap_or("");
    if !base.contains('.') {
        if let Some(e) = def_ext.filter(|e| !e.is_empty()) {
            path.push('.');
            path.push_str(&e[..e.len().min(3)]);
        }
    }
    path.to_ascii_lowercase()
}

/// GetOpenFileName's and GetSaveFileName's work (module notes).
fn file_dialog(env: &mut Env, uc: &mut Uc<'_>, p: u32, what: &str) -> Result<u32, Stop> {
    if !size_ok(env, uc, p, OPENFILENAME_SIZE) {
        return Ok(0);
    }
    let Some(ofn) = farptr::read_bytes(uc, p, OPENFILENAME_SIZE as usize) else {
        return Ok(0);
    };
    let (file_p, max_file) = (dword(&ofn, 24), dword(&ofn, 28) as usize);
    let (title_p, max_title) = (dword(&ofn, 32), dword(&ofn, 36) as usize);
    let read = |uc: &Uc<'_>, q: u32| {
        (q != 0)
            .then(|| farptr::read_cstr(uc, q, MAX_STRING))
            .flatten()
            .map(|s| String::from_utf8_lossy(&s).into_owned())
    };
    let Some((ok, file)) = take_answer(env, uc, what) else {
        return Ok(0);
    };
    let name = file.or_else(|| read(uc, file_p).filter(|s| !s.trim().is_empty()));
    let Some(name) = name.filter(|_| ok) else {
        return Ok(0);
    };
    let path = full_name(
        env,
        &name,
        read(uc, dword(&ofn, 40)).as_deref(),
        read(uc, dword(&ofn, 56)).as_deref(),
    );
    if path.len() + 1 > max_file {
        env.win16.commdlg.last_error = cderr::BUFFERTOOSMALL;
        if max_file >= 2 {
            farptr::write_bytes(uc, file_p, &((path.len() + 1) as u16).to_le_bytes());
        }
        return Ok(0);
    }
    let mut b = path.clone().into_bytes();
    b.push(0);
    farptr::write_bytes(uc, file_p, &b);
    let offset = path.rfind('\\').map_or(0, |i| i + 1);
    let title = &path[offset..];
    let ext = title.rfind('.').map_or(path.len(), |i| offset + i + 1);
    let mut w = Vec::with_capacity(4);
    w.extend_from_slice(&(offset as u16).to_le_bytes());
    w.extend_from_slice(&(ext as u16).to_le_bytes());
    farptr::write_bytes(uc, farptr::add(p, 52), &w);
    if title_p != 0 && max_title > 0 {
        farptr::write_cstr_truncated(uc, title_p, title.as_bytes(), max_title);
    }
    Ok(1)
}

/// COMMDLG.1 GetOpenFileName(lpofn) (module notes).
pub fn get_open_file_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    file_dialog(env, uc, a[0], "GetOpenFileName")
}

/// COMMDLG.2 GetSaveFileName(lpofn) (module notes).
pub fn get_save_file_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    file_dialog(env, uc, a[0], "GetSaveFileName")
}

/// COMMDLG.5 ChooseColor(lpcc) (module notes).
pub fn choose_color(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !size_ok(env, uc, a[0], CHOOSECOLOR_SIZE) {
        return Ok(0);
    }
    let Some(cc) = farptr::read_bytes(uc, a[0], CHOOSECOLOR_SIZE as usize) else {
        return Ok(0);
    };
    if !matches!(take_answer(env, uc, "ChooseColor"), Some((true, _))) {
        return Ok(0);
    }
    const CC_RGBINIT: u32 = 0x0001;
    if dword(&cc, 16) & CC_RGBINIT == 0 {
        farptr::write_bytes(uc, farptr::add(a[0], 8), &[0; 4]);
    }
    Ok(1)
}

/// The LOGFONT of the default System font: 16 pixels high, bold, the
/// face "System".
fn system_logfont() -> Vec<u8> {
    let mut b = vec![0u8; 50];
    b[0..2].copy_from_slice(&16i16.to_le_bytes());
    b[8..10].copy_from_slice(&700u16.to_le_bytes());
    b[18..24].copy_from_slice(b"System");
    b
}

/// COMMDLG.15 ChooseFont(lpcf) (module notes).
pub fn choose_font(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !size_ok(env, uc, a[0], CHOOSEFONT_SIZE) {
        return Ok(0);
    }
    let Some(cf) = farptr::read_bytes(uc, a[0], CHOOSEFONT_SIZE as usize) else {
        return Ok(0);
    };
    if !matches!(take_answer(env, uc, "ChooseFont"), Some((true, _))) {
        return Ok(0);
    }
    const CF_INITTOLOGFONTSTRUCT: u32 = 0x0040;
    const SCREEN_FONTTYPE: u16 = 0x2000;
    const REGULAR_FONTTYPE: u16 = 0x0400;
    let lf_p = dword(&cf, 8);
    let lf = if dword(&cf, 14) & CF_INITTOLOGFONTSTRUCT != 0 {
        farptr::read_bytes(uc, lf_p, 50).unwrap_or_else(system_logfont)
    } else {
        let lf = system_logfont();
        farptr::write_bytes(uc, lf_p, &lf);
        lf
    };
    let height = i32::from(i16::from_le_bytes([lf[0], lf[1]])).abs();
    // Tenths of a point at 96 pixels to the logical inch.
    let tenths = (height * 720 + 48) / 96;
    farptr::write_bytes(uc, farptr::add(a[0], 12), &(tenths as u16).to_le_bytes());
    farptr::write_bytes(
        uc,
        farptr::add(a[0], 40),
        &(SCREEN_FONTTYPE | REGULAR_FONTTYPE).to_le_bytes(),
    );
    Ok(1)
}

/// WIN.INI's default printer: `[windows] device=DEVICE,DRIVER,PORT`
/// (Windows 3.1 SDK, "Printer Settings in WIN.INI"), as (driver, device,
/// port); None when the entry is missing or incomplete.
fn default_printer(env: &mut Env) -> Option<(String, String, String)> {
    let v = crate::win16::kernel::profile::read_string(env, "windows", "device")?;
    let mut f = v.split(',').map(str::trim);
    let (device, driver, port) = (f.next()?, f.next()?, f.next()?);
    (!device.is_empty() && !driver.is_empty() && !port.is_empty())
        .then(|| (driver.to_string(), device.to_string(), port.to_string()))
}

/// PRINTDLG's Flags (COMMDLG.H).
mod pd {
    pub const RETURNDC: u32 = 0x0100;
    pub const RETURNIC: u32 = 0x0200;
    pub const RETURNDEFAULT: u32 = 0x0400;
}

/// The DEVNAMES block of a printer (COMMDLG.H): the offsets of the
/// driver, device and output names from the block's start, wDefault
/// DN_DEFAULTPRN (1), then the three NUL-terminated names.
pub fn devnames_bytes(driver: &str, device: &str, port: &str) -> Vec<u8> {
    let mut b = vec![0u8; 8];
    let mut offsets = [0u16; 3];
    for (i, s) in [driver, device, port].into_iter().enumerate() {
        offsets[i] = b.len() as u16;
        b.extend_from_slice(s.as_bytes());
        b.push(0);
    }
    for (i, o) in offsets.iter().enumerate() {
        b[i * 2..i * 2 + 2].copy_from_slice(&o.to_le_bytes());
    }
    b[6..8].copy_from_slice(&1u16.to_le_bytes());
    b
}

/// The size of Windows 3.1's DEVMODE (PRINT.H, dmSpecVersion 0x30A).
pub const DEVMODE_SIZE: usize = 68;

/// The DEVMODE of the default printer as its driver gives it with no
/// setup changed: Windows 3.1's layout (PRINT.H: dmDeviceName[32],
/// dmSpecVersion, dmDriverVersion, dmSize, dmDriverExtra, dmFields, then
/// the fields), portrait US Letter (215.9 x 279.4 mm, in tenths of a
/// millimetre), 100 %, one copy, the upper tray, 300 dpi, monochrome,
/// simplex.
pub fn devmode_bytes(device: &str) -> Vec<u8> {
    let mut b = vec![0u8; DEVMODE_SIZE];
    let name = device.as_bytes();
    let n = name.len().min(31);
    b[..n].copy_from_slice(&name[..n]);
    let words: [(usize, u16); 16] = [
        (32, 0x030A),              // dmSpecVersion: DM_SPECVERSION
        (34, 0x030A),              // dmDriverVersion
        (36, DEVMODE_SIZE as u16), // dmSize
        (38, 0),                   // dmDriverExtra
        (44, 1),                   // dmOrientation: DMORIENT_PORTRAIT
        (46, 1),                   // dmPaperSize: DMPAPER_LETTER
        (48, 2794),                // dmPaperLength
        (50, 2159),                // dmPaperWidth
        (52, 100),                 // dmScale
        (54, 1),                   // dmCopies
        (56, 1),                   // dmDefaultSource: DMBIN_UPPER
        (58, 300),                 // dmPrintQuality: 300 dpi
        (60, 1),                   // dmColor: DMCOLOR_MONOCHROME
        (62, 1),                   // dmDuplex: DMDUP_SIMPLEX
        (64, 300),                 // dmYResolution
        (66, 0),                   // dmTTOption
    ];
    for (at, v) in words {
        b[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    // dmFields: DM_ORIENTATION | DM_PAPERSIZE | DM_PAPERLENGTH |
    // DM_PAPERWIDTH | DM_SCALE | DM_COPIES | DM_DEFAULTSOURCE |
    // DM_PRINTQUALITY | DM_COLOR | DM_DUPLEX | DM_YRESOLUTION.
    let fields: u32 = 0x0001
        | 0x0002
        | 0x0004
        | 0x0008
        | 0x0010
        | 0x0100
        | 0x0200
        | 0x0400
        | 0x0800
        | 0x1000
        | 0x2000;
    b[40..44].copy_from_slice(&fields.to_le_bytes());
    b
}

/// A moveable global block holding `data` for the calling task, or 0.
fn global_with(env: &mut Env, uc: &mut Uc<'_>, data: &[u8]) -> u16 {
    const GMEM_MOVEABLE: u16 = 0x0002;
    let h = crate::win16::global::alloc(env, uc, GMEM_MOVEABLE, data.len() as u32);
    if let Some(sel) = env.win16.global.find(h).map(|b| b.selector) {
        farptr::write_bytes(uc, u32::from(sel) << 16, data);
    }
    h
}

/// COMMDLG.20 PrintDlg(lppd), as Windows 3.1's did on a machine whose
/// WIN.INI names a default printer (Windows 3.1 SDK, PrintDlg and
/// PRINTDLG):
/// - no `[windows] device=` entry: FALSE, PDERR_NODEFAULTPRN;
/// - PD_RETURNDEFAULT: no dialog; hDevMode and hDevNames must be NULL
///   (else FALSE, PDERR_RETDEFFAILURE) and receive the default printer's
///   DEVMODE and DEVNAMES;
/// - otherwise the Print (or Print Setup) dialog takes the script's
///   answer like every common dialog (module notes): cancelled, FALSE
///   and CommDlgExtendedError() 0; OK, TRUE, with hDevMode and hDevNames
///   made when the program passed NULL (a program's own are kept, as the
///   dialog was initialised from them);
/// - on TRUE, PD_RETURNDC puts a printer DC in hDC, PD_RETURNIC an
///   information context (PD_RETURNDC wins when both are given).
pub fn print_dlg(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = a[0];
    if !size_ok(env, uc, p, PRINTDLG_SIZE) {
        return Ok(0);
    }
    let Some(pd) = farptr::read_bytes(uc, p, PRINTDLG_SIZE as usize) else {
        return Ok(0);
    };
    let word = |at: usize| u16::from_le_bytes([pd[at], pd[at + 1]]);
    let (dev_mode, dev_names, flags) = (word(6), word(8), dword(&pd, 12));
    let Some((driver, device, port)) = default_printer(env) else {
        env.win16.commdlg.last_error = cderr::NODEFAULTPRN;
        crate::machine::record_event(
            uc,
            format!("PrintDlg (Flags {flags:08X}): no default printer (PDERR_NODEFAULTPRN)"),
        );
        return Ok(0);
    };
    if flags & pd::RETURNDEFAULT != 0 {
        if dev_mode != 0 || dev_names != 0 {
            env.win16.commdlg.last_error = cderr::RETDEFFAILURE;
            return Ok(0);
        }
    } else if !matches!(take_answer(env, uc, "PrintDlg"), Some((true, _))) {
        return Ok(0);
    }
    if dev_mode == 0 {
        let h = global_with(env, uc, &devmode_bytes(&device));
        farptr::write_bytes(uc, farptr::add(p, 6), &h.to_le_bytes());
    }
    if dev_names == 0 {
        let h = global_with(env, uc, &devnames_bytes(&driver, &device, &port));
        farptr::write_bytes(uc, farptr::add(p, 8), &h.to_le_bytes());
    }
    if flags & (pd::RETURNDC | pd::RETURNIC) != 0 {
        let kind = if flags & pd::RETURNDC != 0 {
            crate::win16::gdi::dc::DcKind::Printer
        } else {
            crate::win16::gdi::dc::DcKind::Info
        };
        let hdc = crate::win16::gdi::dc::make_dc(
            env,
            uc,
            kind,
            crate::win16::gdi::devcaps::Device::Printer,
        );
        farptr::write_bytes(uc, farptr::add(p, 10), &(hdc as u16).to_le_bytes());
    }
    Ok(1)
}

/// COMMDLG.11 FindText(lpfr) (module notes, [`find`]).
pub fn find_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    find::open(env, uc, a[0], false)
}

/// COMMDLG.12 ReplaceText(lpfr) ([`find`]).
pub fn replace_text(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    find::open(env, uc, a[0], true)
}

/// COMMDLG.26 CommDlgExtendedError(): the last dialog's error.
pub fn comm_dlg_extended_error(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(env.win16.commdlg.last_error)
}

/// COMMDLG.27 GetFileTitle(lpszFile, lpszTitle, cbBuf): the name part of
/// a path; 0 when copied, the size needed when the buffer is too small,
/// -1 for a name that is not a valid file name (empty, or ending in a
/// separator).
pub fn get_file_title(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(0xFFFF);
    };
    let start = name
        .iter()
        .rposition(|&c| matches!(c, b'\\' | b'/' | b':'))
        .map_or(0, |i| i + 1);
    let title = &name[start..];
    if title.is_empty()
        || title
            .iter()
            .any(|&c| matches!(c, b'*' | b'?' | b'[' | b']'))
    {
        return Ok(0xFFFF);
    }
    let size = a[2] as u16;
    if usize::from(size) < title.len() + 1 {
        return Ok(title.len() as u32 + 1);
    }
    farptr::write_cstr_truncated(uc, a[1], title, usize::from(size));
    Ok(0)
}

/// COMMDLG.28 WEP(nExitType): 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn file_names_are_full_lower_case_paths() {
        let env = Env::new(false);
        assert_eq!(full_name(&env, "README.TXT", None, None), "c:\\readme.txt");
        assert_eq!(
            full_name(&env, "notes", Some("C:\\DOCS\\"), Some("txt")),
            "c:\\docs\\notes.txt"
        );
        assert_eq!(
            full_name(&env, "\\a\\b.c", Some("x"), Some("d")),
            "c:\\a\\b.c"
        );
        assert_eq!(full_name(&env, "D:\\X", None, None), "d:\\x");
    }
}
