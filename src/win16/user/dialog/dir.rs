//! Directory lists in dialog boxes: LB_DIR / CB_DIR, DlgDirList,
//! DlgDirListComboBox, DlgDirSelect(Ex), DlgDirSelectComboBox(Ex), over
//! the sandbox drive C: (`--dir`).
//!
//! Windows 3.1 behaviour (SDK: DlgDirList, LB_DIR, DlgDirSelect):
//!
//! - LB_DIR(uAttrs, lpszFileSpec) adds the files matching the spec in the
//!   current directory that DOS's find functions give for the DDL_ flags
//!   (every file, read-only and archived ones included; hidden and system
//!   ones with DDL_HIDDEN and DDL_SYSTEM; with DDL_EXCLUSIVE only files
//!   with one of the attributes asked for), then with DDL_DIRECTORY every subdirectory
//!   (and `..` below the root) as `[name]`, then with DDL_DRIVES every drive
//!   as `[-c-]`. Names are shown in lower case, as Windows 3.1's lists
//!   showed them. The answer is the index of the last name added, LB_ERR
//!   when nothing matched, LB_ERRSPACE when the list is full.
//! - DlgDirList(hDlg, lpPathSpec, idList, idStaticPath, uAttrs): a path
//!   spec with a drive or directory part changes the current directory
//!   there first (a spec naming a directory lists it with `*.*`) and is
//!   left holding only the file part; the list is emptied and filled by
//!   LB_DIR; the static control gets the current directory (`c:\sub`). FALSE
//!   for a path that does not exist.
//! - DlgDirSelect(hDlg, lpString, idList) copies the list's selection:
//!   a directory without its brackets and with a backslash (`sub\`), a
//!   drive as `c:`, a file as it is; nonzero when the selection is a
//!   directory or drive. With no selection lpString is left alone.

use super::item;
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::user::controls::combobox::{CB_DIR, CB_GETCURSEL, CB_GETLBTEXT, CB_RESETCONTENT};
use crate::win16::user::controls::listbox::{
    self, LB_DIR, LB_ERR, LB_ERRSPACE, LB_GETCURSEL, LB_GETTEXT, LB_RESETCONTENT,
};
use crate::win16::user::controls::{self, wm};

pub const DDL_READWRITE: u16 = 0x0000;
pub const DDL_READONLY: u16 = 0x0001;
pub const DDL_HIDDEN: u16 = 0x0002;
pub const DDL_SYSTEM: u16 = 0x0004;
pub const DDL_DIRECTORY: u16 = 0x0010;
pub const DDL_ARCHIVE: u16 = 0x0020;
pub const DDL_POSTMSGS: u16 = 0x2000;
pub const DDL_DRIVES: u16 = 0x4000;
pub const DDL_EXCLUSIVE: u16 = 0x8000;

/// The names LB_DIR adds for `spec` with `attrs`, in order; None without
/// a drive.
pub fn dir_names(env: &mut Env, spec: &[u8], attrs: u16) -> Option<Vec<Vec<u8>>> {
    let drive = env.drive.as_mut()?;
    let mut out = Vec::new();
    let exclusive = attrs & DDL_EXCLUSIVE != 0;
    let want = (attrs & 0x27) as u8;
    if !exclusive || attrs & 0x27 != 0 {
        if let Ok(mut st) = drive.find_first(spec, want) {
            loop {
                if let Some(r) = st.current() {
                    let is_dir = r.attr & 0x10 != 0;
                    if !is_dir && (!exclusive || r.attr & want & 0x27 != 0) {
                        out.push(r.name.to_ascii_lowercase().into_bytes());
                    }
                }
                if crate::dos::fs::Drive::find_next(&mut st).is_err() {
                    break;
                }
            }
        }
    }
    if attrs & DDL_DIRECTORY != 0 {
        let mut pattern = spec.to_vec();
        // Directories are listed whatever the file part asks for.
        let cut = pattern
            .iter()
            .rposition(|&c| c == b'\\' || c == b':')
            .map_or(0, |i| i + 1);
        pattern.truncate(cut);
        pattern.extend_from_slice(b"*.*");
        if let Ok(mut st) = drive.find_first(&pattern, 0x10 | 0x06) {
            loop {
                if let Some(r) = st.current()
                    && r.attr & 0x10 != 0
                    && r.name != "."
                {
                    let mut n = b"[".to_vec();
                    n.extend_from_slice(r.name.to_ascii_lowercase().as_bytes());
                    n.push(b']');
                    out.push(n);
                }
                if crate::dos::fs::Drive::find_next(&mut st).is_err() {
                    break;
                }
            }
        }
    }
    if attrs & DDL_DRIVES != 0 {
        out.push(b"[-c-]".to_vec());
    }
    Some(out)
}

/// LB_DIR for list box `hwnd` (`combo`: a combo box's list, which is the
/// same).
pub fn list_dir(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hwnd: u16,
    attrs: u16,
    spec: u32,
    _combo: bool,
) -> Result<u32, Stop> {
    let spec = wm::cstr(uc, spec);
    let Some(names) = dir_names(env, &spec, attrs) else {
        return Ok(LB_ERR);
    };
    let mut last = LB_ERR;
    for n in names {
        let r = listbox::add_string(env, uc, hwnd, &n)?;
        if r == LB_ERRSPACE {
            return Ok(LB_ERRSPACE);
        }
        last = r;
    }
    Ok(last)
}

/// Split a path spec into the directory to change to and the file part:
/// `sub\*.txt` → (`sub`, `*.txt`); a spec naming a directory → (it,
/// `*.*`).
fn split_spec(env: &mut Env, spec: &[u8]) -> (Option<Vec<u8>>, Vec<u8>) {
    let wild = spec.iter().any(|&c| c == b'*' || c == b'?');
    if !wild && !spec.is_empty() {
        let is_dir = env
            .drive
            .as_ref()
            .is_some_and(|d| matches!(d.resolve(spec), Ok(crate::dos::fs::HostPath::Dir { .. })));
        if is_dir {
            return (Some(spec.to_vec()), b"*.*".to_vec());
        }
    }
    match spec.iter().rposition(|&c| c == b'\\' || c == b':') {
        Some(i) => {
            let mut dir = spec[..=i].to_vec();
            if dir.len() > 1 && dir.ends_with(b"\\") && !dir.ends_with(b":\\") {
                dir.pop();
            }
            let file = if i + 1 < spec.len() {
                spec[i + 1..].to_vec()
            } else {
                b"*.*".to_vec()
            };
            (Some(dir), file)
        }
        None => (
            None,
            if spec.is_empty() {
                b"*.*".to_vec()
            } else {
                spec.to_vec()
            },
        ),
    }
}

/// DlgDirList and DlgDirListComboBox (module doc).
fn dir_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], combo: bool) -> Result<u32, Stop> {
    let (hdlg, p, id_list, id_static, attrs) =
        (a[0] as u16, a[1], a[2] as u16, a[3] as u16, a[4] as u16);
    let spec = wm::cstr(uc, p);
    let (dir, file) = split_spec(env, &spec);
    if let Some(d) = dir {
        let Some(drive) = env.drive.as_mut() else {
            return Ok(0);
        };
        if drive.chdir(&d).is_err() {
            return Ok(0);
        }
    }
    if env.drive.is_none() {
        return Ok(0);
    }
    if p != 0 && dir_changed_spec(&spec, &file) {
        let mut f = file.clone();
        f.push(0);
        wm::write(uc, p, &f);
    }
    if id_list != 0 {
        let h = item(env, hdlg, id_list);
        if h != 0 {
            let (reset, dirmsg) = if combo {
                (CB_RESETCONTENT, CB_DIR)
            } else {
                (LB_RESETCONTENT, LB_DIR)
            };
            wm::send(env, uc, h, reset, 0, 0)?;
            let mut f = file.clone();
            f.push(0);
            controls::with_data(env, uc, &f, |env, uc, fp| {
                wm::send(env, uc, h, dirmsg, attrs, fp)
            })?;
        }
    }
    if id_static != 0 {
        let h = item(env, hdlg, id_static);
        if h != 0 {
            let cwd = env.drive.as_ref().map(|d| d.getcwd()).unwrap_or_default();
            let path = format!("c:\\{}", cwd.to_ascii_lowercase());
            super::set_item_text(env, uc, h, path.as_bytes())?;
        }
    }
    Ok(1)
}

/// Was the spec more than its file part?
fn dir_changed_spec(spec: &[u8], file: &[u8]) -> bool {
    spec != file
}

/// USER.100 DlgDirList(hDlg, lpPathSpec, nIDListBox, nIDStaticPath,
/// uFileType).
pub fn dlg_dir_list(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_list(env, uc, a, false)
}

/// USER.195 DlgDirListComboBox(hDlg, lpPathSpec, nIDComboBox,
/// nIDStaticPath, uFileType).
pub fn dlg_dir_list_combo_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_list(env, uc, a, true)
}

/// DlgDirSelect's reading of a list entry: the string to hand back and
/// whether it is a directory or drive.
pub fn selection_name(t: &[u8]) -> (Vec<u8>, bool) {
    if t.len() >= 5 && t.starts_with(b"[-") && t.ends_with(b"-]") {
        let mut d = t[2..t.len() - 2].to_vec();
        d.push(b':');
        return (d, true);
    }
    if t.len() >= 2 && t[0] == b'[' && t[t.len() - 1] == b']' {
        let mut d = t[1..t.len() - 1].to_vec();
        d.push(b'\\');
        return (d, true);
    }
    (t.to_vec(), false)
}

/// DlgDirSelect and its forms: copy the selection into `p` (at most
/// `max` bytes with its NUL).
fn dir_select(
    env: &mut Env,
    uc: &mut Uc<'_>,
    hdlg: u16,
    p: u32,
    max: usize,
    id: u16,
    combo: bool,
) -> Result<u32, Stop> {
    let h = item(env, hdlg, id);
    if h == 0 {
        return Ok(0);
    }
    let (getcur, gettext) = if combo {
        (CB_GETCURSEL, CB_GETLBTEXT)
    } else {
        (LB_GETCURSEL, LB_GETTEXT)
    };
    let sel = wm::send(env, uc, h, getcur, 0, 0)?;
    if sel == LB_ERR {
        return Ok(0);
    }
    let (n, buf) = controls::with_stack(env, uc, 260, |env, uc, bp| {
        wm::send(env, uc, h, gettext, sel as u16, bp)
    })?;
    if n == LB_ERR {
        return Ok(0);
    }
    let text = &buf[..(n as usize).min(buf.len())];
    let (name, is_dir) = selection_name(text);
    crate::win16::farptr::write_cstr_truncated(uc, p, &name, max);
    Ok(u32::from(is_dir))
}

/// USER.99 DlgDirSelect(hDlg, lpString, nIDListBox).
pub fn dlg_dir_select(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_select(env, uc, a[0] as u16, a[1], 128, a[2] as u16, false)
}

/// USER.194 DlgDirSelectComboBox(hDlg, lpString, nIDComboBox).
pub fn dlg_dir_select_combo_box(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_select(env, uc, a[0] as u16, a[1], 128, a[2] as u16, true)
}

/// USER.422 DlgDirSelectEx(hDlg, lpString, cbString, nIDListBox).
pub fn dlg_dir_select_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_select(
        env,
        uc,
        a[0] as u16,
        a[1],
        usize::from(a[2] as u16),
        a[3] as u16,
        false,
    )
}

/// USER.423 DlgDirSelectComboBoxEx(hDlg, lpString, cbString, nIDComboBox).
pub fn dlg_dir_select_combo_box_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    dir_select(
        env,
        uc,
        a[0] as u16,
        a[1],
        usize::from(a[2] as u16),
        a[3] as u16,
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_lose_their_brackets() {
        assert_eq!(selection_name(b"[sub]"), (b"sub\\".to_vec(), true));
        assert_eq!(selection_name(b"[..]"), (b"..\\".to_vec(), true));
        assert_eq!(selection_name(b"[-c-]"), (b"c:".to_vec(), true));
        assert_eq!(selection_name(b"read.me"), (b"read.me".to_vec(), false));
    }

    #[test]
    fn path_specs_split_into_directory_and_file() {
        let mut env = Env::new(false);
        assert_eq!(split_spec(&mut env, b"*.TXT"), (None, b"*.TXT".to_vec()));
        assert_eq!(
            split_spec(&mut env, b"SUB\\*.TXT"),
            (Some(b"SUB".to_vec()), b"*.TXT".to_vec())
        );
        assert_eq!(
            split_spec(&mut env, b"C:\\*.*"),
            (Some(b"C:\\".to_vec()), b"*.*".to_vec())
        );
        assert_eq!(split_spec(&mut env, b""), (None, b"*.*".to_vec()));
    }
}
