//! SHELL: the registration database, drag and drop, ShellExecute.
//!
//! # The registration database
//!
//! Windows 3.1's registration database (REG.DAT) is a tree of keys under
//! HKEY_CLASSES_ROOT (1), each with an optional string value. Here it
//! lives in memory for the run and starts as a Windows 3.1 installation's
//! did: with the entries Setup merged from SETUP.REG for the accessories
//! ([`SETUP_REG`]: Notepad, Cardfile, Calendar, Terminal, Recorder, Write,
//! Registration Editor, and Paintbrush, the OLE server whose
//! OleRegisterServer needs its class there: KB Q82650, "Failed to
//! register server"). The functions follow the
//! Windows 3.1 SDK, and where it is silent what SHELL.DLL 3.1 does as
//! others measured it: RegOpenKey opens an existing key (ERROR_BADKEY
//! when there is none), RegCreateKey opens or makes one (and the keys on
//! its path), RegSetValue (REG_SZ only, else ERROR_INVALID_PARAMETER)
//! sets the value of a key or of a subkey it makes, an empty value taking
//! the value away, RegQueryValue copies a value (an empty string for a
//! key without one) and sets the count to its length with the NUL,
//! RegEnumKey names the n-th subkey, newest first (SHELL puts a new key
//! first among its parent's children), and answers ERROR_BADKEY past the
//! last, RegDeleteKey deletes a key with all its subkeys (ERROR_BADKEY
//! for none or an empty name), RegCloseKey ignores its handle and counts
//! the keys open (ERROR_INVALID_PARAMETER when none is): a handle names
//! its key for good. Names compare without regard to case; a handle of 0
//! means HKEY_CLASSES_ROOT.
//!
//! # ExtractIcon
//!
//! ExtractIcon(hInst, lpszExeFileName, nIconIndex) reads the file on the
//! drive (SDK, ExtractIcon): for an NE executable or DLL its icons are its
//! RT_GROUP_ICON resources in resource-table order, for an .ICO file the
//! entries of its directory. nIconIndex -1 answers how many there are;
//! another index the icon's handle: LoadIcon's handle of that group when
//! the file is a module that is loaded (the program itself, a DLL it
//! loaded), so DrawIcon draws its picture, else a new icon handle as
//! CreateIcon gives. 1 for a file that is no executable, DLL or icon file;
//! NULL for a file with no such icon, or no such file.
//! ExtractAssociatedIcon falls back on the associated program's first
//! icon, then on IDI_APPLICATION.
//!
//! # The shell hook
//!
//! RegisterShellHook(hwnd, flags) (SHELL.102, undocumented; Program
//! Manager calls it as its frame window is made; what SHELL.DLL 3.1 does
//! as others have read it out and measured it) with flags 1 adds `hwnd`
//! to the windows SHELL tells of other windows, with 2 also makes it the
//! shell's own window, and with 0 takes it off; it answers 1 each time.
//! The first window registered makes SHELL register the window messages
//! `OTHERWINDOWCREATED`, `OTHERWINDOWDESTROYED` and
//! `ACTIVATESHELLWINDOW`. From then on SHELL's WH_SHELL hook posts each
//! registered window the first when an unowned top-level window of any
//! task is made (overlapped or pop-up, shown or not; not a child or an
//! owned window), the second when one is destroyed, wParam that window
//! and lParam 0, and posts the shell's own window the third when USER
//! asks to activate the shell (HSHELL_ACTIVATESHELLWINDOW, which nothing
//! here asks: there is no Ctrl+Esc). A registered window that no longer
//! exists is dropped when there is next something to post.
//!
//! # Drag and drop, ShellExecute
//!
//! DragAcceptFiles records which windows accept files; nothing is ever
//! dropped (there is no File Manager), so no WM_DROPFILES arrives and the
//! DragQuery functions have no drop to answer from. ShellExecute starts a
//! program with WinExec (scheduler.rs): the file itself when it is an
//! .EXE, .COM, .PIF or .BAT, else the program its extension is associated
//! with (in the database: `.ext` names a class whose `shell\open\command`
//! (or the verb's) holds the command line, `%1` standing for the file; or
//! WIN.INI's `[Extensions]` line `ext=program ^.ext`). Its results are
//! WinExec's; SE_ERR_NOASSOC (31) when nothing is associated.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "SHELL",
        1,
        "REGOPENKEY",
        &[Arg::L, Arg::L, Arg::L],
        reg_open_key,
    ),
    Api::new(
        "SHELL",
        2,
        "REGCREATEKEY",
        &[Arg::L, Arg::L, Arg::L],
        reg_create_key,
    ),
    Api::new("SHELL", 3, "REGCLOSEKEY", &[Arg::L], reg_close_key),
    Api::new(
        "SHELL",
        4,
        "REGDELETEKEY",
        &[Arg::L, Arg::L],
        reg_delete_key,
    ),
    Api::new(
        "SHELL",
        5,
        "REGSETVALUE",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::L],
        reg_set_value,
    ),
    Api::new(
        "SHELL",
        6,
        "REGQUERYVALUE",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        reg_query_value,
    ),
    Api::new(
        "SHELL",
        7,
        "REGENUMKEY",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        reg_enum_key,
    ),
    Api::new("SHELL", 8, "WEP", &[Arg::W], wep),
    Api::new(
        "SHELL",
        34,
        "EXTRACTICON",
        &[Arg::W, Arg::L, Arg::W],
        extract_icon,
    ),
    Api::new(
        "SHELL",
        36,
        "EXTRACTASSOCIATEDICON",
        &[Arg::W, Arg::L, Arg::L],
        extract_associated_icon,
    ),
    Api::new(
        "SHELL",
        9,
        "DRAGACCEPTFILES",
        &[Arg::W, Arg::W],
        drag_accept_files,
    ),
    Api::new(
        "SHELL",
        11,
        "DRAGQUERYFILE",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        drag_query_file,
    ),
    Api::new("SHELL", 12, "DRAGFINISH", &[Arg::W], drag_finish),
    Api::new(
        "SHELL",
        13,
        "DRAGQUERYPOINT",
        &[Arg::W, Arg::L],
        drag_query_point,
    ),
    Api::new(
        "SHELL",
        20,
        "SHELLEXECUTE",
        &[Arg::W, Arg::L, Arg::L, Arg::L, Arg::L, Arg::W],
        shell_execute,
    ),
    Api::new(
        "SHELL",
        21,
        "FINDEXECUTABLE",
        &[Arg::L, Arg::L, Arg::L],
        find_executable,
    ),
    Api::new(
        "SHELL",
        22,
        "SHELLABOUT",
        &[Arg::W, Arg::L, Arg::L, Arg::W],
        shell_about,
    ),
    Api::new(
        "SHELL",
        102,
        "REGISTERSHELLHOOK",
        &[Arg::W, Arg::W],
        register_shell_hook,
    ),
];

/// Registry results (Windows 3.1 SDK).
pub const ERROR_SUCCESS: u32 = 0;
pub const ERROR_BADKEY: u32 = 2;
pub const ERROR_INVALID_PARAMETER: u32 = 7;
/// HKEY_CLASSES_ROOT.
pub const HKEY_CLASSES_ROOT: u32 = 1;
/// REG_SZ, the only value type of Windows 3.1.
pub const REG_SZ: u32 = 1;
/// ShellExecute: no program is associated with the file.
pub const SE_ERR_NOASSOC: u32 = 31;

/// The most keys the database holds.
pub const MAX_KEYS: usize = 10_000;

/// One key: its name, value, parent and whether it still exists.
#[derive(Debug, Clone)]
struct Key {
    name: String,
    value: Option<String>,
    parent: usize,
    live: bool,
}

/// SHELL's state: the database and its open handles, the windows that
/// accept dropped files.
#[derive(Clone, Debug)]
pub struct ShellState {
    /// Keys by index; 0 is HKEY_CLASSES_ROOT.
    keys: Vec<Key>,
    /// Keys open (RegOpenKey and RegCreateKey less RegCloseKey): SHELL
    /// counts them only, a handle naming its key for good.
    open: u32,
    /// Windows that called DragAcceptFiles(TRUE).
    pub accept_files: std::collections::BTreeSet<u16>,
    /// The windows RegisterShellHook registered, and the messages they are
    /// posted.
    pub hook: Option<ShellHook>,
}

/// The shell hook's registrations (module notes, "The shell hook").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellHook {
    /// The windows told of other windows, in the order registered.
    pub windows: Vec<u16>,
    /// The shell's own window (flags 2), 0 for none.
    pub shell: u16,
    /// The registered messages OTHERWINDOWCREATED, OTHERWINDOWDESTROYED
    /// and ACTIVATESHELLWINDOW.
    pub created: u16,
    pub destroyed: u16,
    pub activate: u16,
}

/// The entries of Windows 3.1's SETUP.REG (the registration script Setup
/// merges into REG.DAT), in REGEDIT's format: `HKEY_CLASSES_ROOT\key =
/// value` (the Windows 3.1 SDK's "Registration Database" chapter gives
/// the format and Paintbrush's entries; KB Q82650 gives Paintbrush's as
/// Setup writes them).
pub const SETUP_REG: &str = r"REGEDIT
HKEY_CLASSES_ROOT\.ini = txtfile
HKEY_CLASSES_ROOT\.txt = txtfile
HKEY_CLASSES_ROOT\txtfile = Text File
HKEY_CLASSES_ROOT\txtfile\shell\print\command = notepad.exe /p %1
HKEY_CLASSES_ROOT\txtfile\shell\open\command = notepad.exe %1
HKEY_CLASSES_ROOT\.crd = crdfile
HKEY_CLASSES_ROOT\crdfile = Card File
HKEY_CLASSES_ROOT\crdfile\shell\print\command = cardfile.exe /p %1
HKEY_CLASSES_ROOT\crdfile\shell\open\command = cardfile.exe %1
HKEY_CLASSES_ROOT\.cal = calfile
HKEY_CLASSES_ROOT\calfile = Calendar File
HKEY_CLASSES_ROOT\calfile\shell\print\command = calendar.exe /p %1
HKEY_CLASSES_ROOT\calfile\shell\open\command = calendar.exe %1
HKEY_CLASSES_ROOT\.trm = trmfile
HKEY_CLASSES_ROOT\trmfile = Terminal Settings
HKEY_CLASSES_ROOT\trmfile\shell\open\command = terminal.exe %1
HKEY_CLASSES_ROOT\.rec = recfile
HKEY_CLASSES_ROOT\recfile = Recorder Macro
HKEY_CLASSES_ROOT\recfile\shell\open\command = recorder.exe %1
HKEY_CLASSES_ROOT\.wri = wrifile
HKEY_CLASSES_ROOT\wrifile = Write Document
HKEY_CLASSES_ROOT\wrifile\shell\print\command = write.exe /p %1
HKEY_CLASSES_ROOT\wrifile\shell\open\command = write.exe %1
HKEY_CLASSES_ROOT\.reg = regedit
HKEY_CLASSES_ROOT\regedit = Registration Entries
HKEY_CLASSES_ROOT\regedit\shell\open\command = regedit.exe %1
HKEY_CLASSES_ROOT\.bmp = PBrush
HKEY_CLASSES_ROOT\.msp = PBrush
HKEY_CLASSES_ROOT\.pcx = PBrush
HKEY_CLASSES_ROOT\PBrush = Paintbrush Picture
HKEY_CLASSES_ROOT\PBrush\shell\print\command = PBRUSH.EXE /P %1
HKEY_CLASSES_ROOT\PBrush\shell\open\command = PBRUSH.EXE %1
HKEY_CLASSES_ROOT\PBrush\protocol\StdFileEditing\verb\0 = Edit
HKEY_CLASSES_ROOT\PBrush\protocol\StdFileEditing\server = PBRUSH.EXE
";

impl Default for ShellState {
    fn default() -> Self {
        let mut s = ShellState {
            keys: vec![Key {
                name: String::new(),
                value: None,
                parent: 0,
                live: true,
            }],
            open: 0,
            accept_files: Default::default(),
            hook: None,
        };
        s.merge(SETUP_REG);
        s
    }
}

/// The first handle RegOpenKey hands out.
const FIRST_HANDLE: u32 = 0x100;

impl ShellState {
    /// The key a handle names.
    fn key_of(&self, h: u32) -> Option<usize> {
        if h == 0 || h == HKEY_CLASSES_ROOT {
            return Some(0);
        }
        let i = h.checked_sub(FIRST_HANDLE)? as usize;
        self.keys.get(i).filter(|k| k.live).map(|_| i)
    }

    fn child(&self, parent: usize, name: &str) -> Option<usize> {
        self.keys
            .iter()
            .position(|k| k.live && k.parent == parent && k.name.eq_ignore_ascii_case(name))
            .filter(|&i| i != 0)
    }

    /// The key at `path` below `from` (backslash-separated); made when
    /// `create`. None when missing or the database is full.
    fn walk(&mut self, from: usize, path: &str, create: bool) -> Option<usize> {
        let mut at = from;
        for part in path.split('\\').filter(|p| !p.is_empty()) {
            at = match self.child(at, part) {
                Some(c) => c,
                None if create && self.keys.len() < MAX_KEYS => {
                    self.keys.push(Key {
                        name: part.to_string(),
                        value: None,
                        parent: at,
                        live: true,
                    });
                    self.keys.len() - 1
                }
                None => return None,
            };
        }
        Some(at)
    }

    fn open_handle(&mut self, key: usize) -> u32 {
        self.open = self.open.saturating_add(1);
        FIRST_HANDLE + key as u32
    }

    /// Delete a key and everything below it.
    fn delete(&mut self, key: usize) {
        self.keys[key].live = false;
        let children: Vec<usize> = (1..self.keys.len())
            .filter(|&i| self.keys[i].live && self.keys[i].parent == key)
            .collect();
        for c in children {
            self.delete(c);
        }
    }

    /// Merge a registration script (REGEDIT's format, [`SETUP_REG`]): each
    /// line `HKEY_CLASSES_ROOT\path = value` makes the key (and those on
    /// its path) and sets its value; a line `HKEY_CLASSES_ROOT\path` alone
    /// makes the key; other lines are comments, as REGEDIT takes them.
    pub fn merge(&mut self, script: &str) {
        for line in script.lines() {
            let Some(rest) = line.strip_prefix("HKEY_CLASSES_ROOT\\") else {
                continue;
            };
            let (path, value) = match rest.split_once(" = ") {
                Some((p, v)) => (p.trim_end(), Some(v)),
                None => (rest.trim_end(), None),
            };
            if let Some(k) = self.walk(0, path, true) {
                if let Some(v) = value {
                    self.keys[k].value = Some(v.to_string());
                }
            }
        }
    }

    /// Is there a key at `path` (below the root)?
    pub fn key_exists(&mut self, path: &str) -> bool {
        self.walk(0, path, false).is_some()
    }

    /// The value at `path` (a key below the root), as ShellExecute reads
    /// associations.
    pub fn value_at(&mut self, path: &str) -> Option<String> {
        let k = self.walk(0, path, false)?;
        self.keys[k].value.clone()
    }
}

/// A string argument that may be NULL (None) or empty.
fn opt_str(uc: &Uc<'_>, p: u32) -> Option<String> {
    if p == 0 {
        return None;
    }
    farptr::read_cstr(uc, p, MAX_STRING).map(|s| String::from_utf8_lossy(&s).into_owned())
}

fn write_dword(uc: &mut Uc<'_>, p: u32, v: u32) -> bool {
    farptr::write_bytes(uc, p, &v.to_le_bytes())
}

/// RegOpenKey and RegCreateKey: a new handle to `subkey` below `hkey`.
fn open(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], create: bool) -> u32 {
    let s = &mut env.win16.shell;
    let Some(from) = s.key_of(a[0]) else {
        return ERROR_BADKEY;
    };
    if a[2] == 0 {
        return ERROR_INVALID_PARAMETER;
    }
    let sub = opt_str(uc, a[1]).unwrap_or_default();
    let Some(k) = s.walk(from, &sub, create) else {
        return ERROR_BADKEY;
    };
    let h = s.open_handle(k);
    if !write_dword(uc, a[2], h) {
        return ERROR_INVALID_PARAMETER;
    }
    ERROR_SUCCESS
}

/// SHELL.1 RegOpenKey(hkey, lpszSubKey, lphkResult).
pub fn reg_open_key(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(open(env, uc, a, false))
}

/// SHELL.2 RegCreateKey(hkey, lpszSubKey, lphkResult).
pub fn reg_create_key(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(open(env, uc, a, true))
}

/// SHELL.3 RegCloseKey(hkey): SHELL ignores the handle and counts the
/// keys open: ERROR_INVALID_PARAMETER when none is.
pub fn reg_close_key(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let s = &mut env.win16.shell;
    if s.open == 0 {
        return Ok(ERROR_INVALID_PARAMETER);
    }
    s.open -= 1;
    Ok(ERROR_SUCCESS)
}

/// SHELL.4 RegDeleteKey(hkey, lpszSubKey): the subkey and all below it.
pub fn reg_delete_key(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sub = opt_str(uc, a[1]).unwrap_or_default();
    if sub.is_empty() {
        return Ok(ERROR_BADKEY);
    }
    let s = &mut env.win16.shell;
    let Some(from) = s.key_of(a[0]) else {
        return Ok(ERROR_BADKEY);
    };
    match s.walk(from, &sub, false) {
        Some(0) | None => Ok(ERROR_BADKEY),
        Some(k) => {
            s.delete(k);
            Ok(ERROR_SUCCESS)
        }
    }
}

/// SHELL.5 RegSetValue(hkey, lpszSubKey, fdwType, lpszValue, cb): REG_SZ
/// only; the subkey is made when missing.
pub fn reg_set_value(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[2] != REG_SZ {
        return Ok(ERROR_INVALID_PARAMETER);
    }
    let sub = opt_str(uc, a[1]).unwrap_or_default();
    let Some(value) = opt_str(uc, a[3]) else {
        return Ok(ERROR_INVALID_PARAMETER);
    };
    let s = &mut env.win16.shell;
    let Some(from) = s.key_of(a[0]) else {
        return Ok(ERROR_BADKEY);
    };
    let Some(k) = s.walk(from, &sub, true) else {
        return Ok(ERROR_BADKEY);
    };
    // An empty value takes the key's value away.
    s.keys[k].value = (!value.is_empty()).then_some(value);
    Ok(ERROR_SUCCESS)
}

/// SHELL.6 RegQueryValue(hkey, lpszSubKey, lpszValue, lpcb): the value
/// cut to *lpcb bytes with its NUL; *lpcb becomes the bytes copied with
/// the NUL.
pub fn reg_query_value(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let sub = opt_str(uc, a[1]).unwrap_or_default();
    let Some(cb) = farptr::read_bytes(uc, a[3], 4) else {
        return Ok(ERROR_INVALID_PARAMETER);
    };
    let size = u32::from_le_bytes([cb[0], cb[1], cb[2], cb[3]]) as usize;
    let s = &mut env.win16.shell;
    let Some(from) = s.key_of(a[0]) else {
        return Ok(ERROR_BADKEY);
    };
    let Some(k) = s.walk(from, &sub, false) else {
        return Ok(ERROR_BADKEY);
    };
    let v = s.keys[k].value.clone().unwrap_or_default();
    let n = farptr::write_cstr_truncated(uc, a[2], v.as_bytes(), size.min(MAX_STRING)).unwrap_or(0);
    write_dword(uc, a[3], n as u32 + 1);
    Ok(ERROR_SUCCESS)
}

/// SHELL.7 RegEnumKey(hkey, iSubkey, lpszBuffer, cbBuffer).
pub fn reg_enum_key(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = &env.win16.shell;
    let Some(from) = s.key_of(a[0]) else {
        return Ok(ERROR_BADKEY);
    };
    // A new key goes first among its parent's children: newest first.
    let Some(name) = (1..s.keys.len())
        .rev()
        .filter(|&i| s.keys[i].live && s.keys[i].parent == from)
        .nth(a[1] as usize)
        .map(|i| s.keys[i].name.clone())
    else {
        return Ok(ERROR_BADKEY);
    };
    farptr::write_cstr_truncated(uc, a[2], name.as_bytes(), a[3] as usize);
    Ok(ERROR_SUCCESS)
}

/// The icons of a file's bytes: the RT_GROUP_ICON resources of an NE
/// file (their ids), or an .ICO file's count; None when it is neither.
enum Icons {
    Ne(Vec<crate::loader::ne::ResourceId>),
    Ico(u16),
}

fn icons_of(bytes: &[u8]) -> Option<Icons> {
    if bytes.len() >= 6 && bytes[..4] == [0, 0, 1, 0] {
        return Some(Icons::Ico(u16::from_le_bytes([bytes[4], bytes[5]])));
    }
    if bytes.get(..2) != Some(b"MZ") {
        return None;
    }
    let ne = crate::loader::ne::NeImage::parse(bytes).ok()?;
    Some(Icons::Ne(
        ne.resources
            .iter()
            .filter(|t| t.type_id == crate::loader::ne::ResourceId::Int(14))
            .flat_map(|t| t.resources.iter().map(|r| r.id.clone()))
            .collect(),
    ))
}

/// The most bytes ExtractIcon reads of a file.
const MAX_ICON_FILE: u64 = 16 << 20;

/// SHELL.34 ExtractIcon(hInst, lpszExeFileName, nIconIndex) (module
/// notes).
pub fn extract_icon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[1], MAX_STRING) else {
        return Ok(0);
    };
    extract(env, uc, &name, a[2] as u16)
}

/// ExtractIcon's work for the file `name` (module notes).
fn extract(env: &mut Env, uc: &mut Uc<'_>, name: &[u8], index: u16) -> Result<u32, Stop> {
    use crate::loader::ne::ResourceId;
    let name = name.to_vec();
    let Some(d) = env.drive.as_ref() else {
        return Ok(0);
    };
    let host = match d.resolve(&name) {
        Ok(crate::dos::fs::HostPath::File { host, .. }) => host,
        _ => return Ok(0),
    };
    let Ok(bytes) = d.read_file(&name, MAX_ICON_FILE) else {
        return Ok(0);
    };
    let Some(icons) = icons_of(&bytes) else {
        return Ok(1);
    };
    let count = match &icons {
        Icons::Ne(ids) => ids.len(),
        Icons::Ico(n) => usize::from(*n),
    };
    if index == 0xFFFF {
        return Ok(count as u32);
    }
    if usize::from(index) >= count {
        return Ok(0);
    }
    // A loaded module's icon: LoadIcon's handle.
    let canon = std::fs::canonicalize(&host).ok();
    let loaded = env.win16.modules.iter().find(|m| {
        m.path
            .as_deref()
            .and_then(|p| std::fs::canonicalize(p).ok())
            .is_some_and(|p| Some(p) == canon)
    });
    if let (Icons::Ne(ids), Some(m)) = (&icons, loaded) {
        let hmodule = m.hmodule;
        let h = match &ids[usize::from(index)] {
            ResourceId::Int(id) => {
                crate::win16::resource::load_icon(env, uc, &[u32::from(hmodule), u32::from(*id)])?
            }
            ResourceId::Name(n) => {
                let mut b = n.clone().into_bytes();
                b.push(0);
                crate::win16::user::controls::with_data(env, uc, &b, |env, uc, p| {
                    crate::win16::resource::load_icon(env, uc, &[u32::from(hmodule), p])
                })?
                .0
            }
        };
        return Ok(h & 0xFFFF);
    }
    Ok(crate::win16::user::cursor::make(env, true))
}

/// SHELL.36 ExtractAssociatedIcon(hInst, lpIconPath, lpiIcon) (SDK): the
/// icon *lpiIcon of the file itself when it has one (ExtractIcon's);
/// else the first icon of the program associated with its extension (the
/// registration database's or WIN.INI's, as ShellExecute finds it), the
/// program's path written over lpIconPath (at most 128 bytes, the SDK's
/// path buffer) and 0 in *lpiIcon; else the default icon,
/// IDI_APPLICATION.
pub fn extract_associated_icon(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let name = farptr::read_cstr(uc, a[1], MAX_STRING).unwrap_or_default();
    let index = farptr::read_bytes(uc, a[2], 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]));
    let own = extract(env, uc, &name, index)?;
    if own > 1 {
        return Ok(own);
    }
    let file = String::from_utf8_lossy(&name).into_owned();
    let program = association(env, uc, &file, "open")
        .and_then(|c| c.split_whitespace().next().map(str::to_string));
    if let Some(p) = program {
        let h = extract(env, uc, p.as_bytes(), 0)?;
        if h > 1 {
            farptr::write_cstr_truncated(uc, a[1], p.as_bytes(), 128);
            farptr::write_bytes(uc, a[2], &[0, 0]);
            return Ok(h);
        }
    }
    Ok(u32::from(crate::win16::user::cursor::stock_icon(
        env,
        uc,
        crate::win16::user::cursor::IDI_APPLICATION,
    )))
}

/// The shell hook's messages (module notes).
pub const MSG_WINDOW_CREATED: &str = "OTHERWINDOWCREATED";
pub const MSG_WINDOW_DESTROYED: &str = "OTHERWINDOWDESTROYED";
pub const MSG_ACTIVATE_SHELL_WINDOW: &str = "ACTIVATESHELLWINDOW";

/// The most windows the shell hook tells.
pub const MAX_SHELL_WINDOWS: usize = 64;

/// SHELL.102 RegisterShellHook(hwnd, flags) (module notes): 1.
pub fn register_shell_hook(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hwnd, flags) = (a[0] as u16, a[1] as u16);
    if flags == 0 {
        if let Some(h) = env.win16.shell.hook.as_mut() {
            h.windows.retain(|&w| w != hwnd);
            if h.shell == hwnd {
                h.shell = 0;
            }
        }
        return Ok(1);
    }
    if env.win16.shell.hook.is_none() {
        let mut msg = |name: &str| {
            env.win16
                .atoms
                .global
                .add(farptr::NameArg::Str(name.as_bytes().to_vec()))
        };
        let hook = ShellHook {
            windows: Vec::new(),
            shell: 0,
            created: msg(MSG_WINDOW_CREATED),
            destroyed: msg(MSG_WINDOW_DESTROYED),
            activate: msg(MSG_ACTIVATE_SHELL_WINDOW),
        };
        env.win16.shell.hook = Some(hook);
    }
    if let Some(h) = env.win16.shell.hook.as_mut() {
        if !h.windows.contains(&hwnd) && h.windows.len() < MAX_SHELL_WINDOWS {
            h.windows.push(hwnd);
        }
        if flags & 2 != 0 {
            h.shell = hwnd;
        }
    }
    Ok(1)
}

/// SHELL's WH_SHELL hook (module notes): post the registered windows the
/// message for `code` (an HSHELL_* value) about `hwnd`.
pub fn shell_hook(env: &mut Env, uc: &Uc<'_>, code: u16, hwnd: u16) {
    let Some(mut h) = env.win16.shell.hook.clone() else {
        return;
    };
    h.windows.retain(|&w| env.win16.user.window(w).is_some());
    let (message, to) = match code {
        1 => (h.created, h.windows.clone()),
        2 => (h.destroyed, h.windows.clone()),
        3 if h.shell != 0 => (h.activate, vec![h.shell]),
        _ => (0, Vec::new()),
    };
    env.win16.shell.hook = Some(h);
    for w in to {
        let m = crate::win16::user::message::Msg::new(w, message, hwnd, 0);
        crate::win16::user::message::post(env, uc, m);
    }
}

/// SHELL.8 WEP(nExitType): 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// SHELL.9 DragAcceptFiles(hwnd, fAccept) (module notes).
pub fn drag_accept_files(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hwnd = a[0] as u16;
    if a[1] as u16 != 0 {
        env.win16.shell.accept_files.insert(hwnd);
    } else {
        env.win16.shell.accept_files.remove(&hwnd);
    }
    Ok(0)
}

/// SHELL.11 DragQueryFile(hDrop, iFile, lpszFile, cb): no drop exists
/// (module notes): 0.
pub fn drag_query_file(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// SHELL.12 DragFinish(hDrop): nothing to free.
pub fn drag_finish(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// SHELL.13 DragQueryPoint(hDrop, lppt): FALSE, no drop.
pub fn drag_query_point(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// Is this a file WinExec runs itself?
fn runnable(file: &str) -> bool {
    let ext = file
        .rsplit(['\\', '/', ':'])
        .next()
        .and_then(|b| b.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_uppercase());
    matches!(ext.as_deref(), None | Some("EXE" | "COM" | "PIF" | "BAT"))
}

/// The command line that opens `file` with `verb` (module notes); None
/// when nothing is associated with its extension.
fn association(env: &mut Env, uc: &mut Uc<'_>, file: &str, verb: &str) -> Option<String> {
    let ext = file
        .rsplit(['\\', '/', ':'])
        .next()?
        .rsplit_once('.')?
        .1
        .to_string();
    let class = env.win16.shell.value_at(&format!(".{ext}"));
    if let Some(class) = class.filter(|c| !c.is_empty()) {
        let cmd = env
            .win16
            .shell
            .value_at(&format!("{class}\\shell\\{verb}\\command"));
        if let Some(cmd) = cmd.filter(|c| !c.trim().is_empty()) {
            return Some(if cmd.contains("%1") {
                cmd.replace("%1", file)
            } else {
                format!("{cmd} {file}")
            });
        }
    }
    // WIN.INI [Extensions]: ext=program ^.ext
    let _ = uc;
    let ini = crate::win16::kernel::profile::read_string(env, "Extensions", &ext)?;
    let program = ini.split_whitespace().next()?.to_string();
    Some(format!("{program} {file}"))
}

/// SHELL.20 ShellExecute(hwnd, lpszOp, lpszFile, lpszParams, lpszDir,
/// fsShowCmd) (module notes): WinExec's result, or SE_ERR_NOASSOC.
pub fn shell_execute(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let verb = opt_str(uc, a[1]).unwrap_or_else(|| "open".into());
    let Some(file) = opt_str(uc, a[2]).filter(|f| !f.trim().is_empty()) else {
        return Ok(2);
    };
    let params = opt_str(uc, a[3]).unwrap_or_default();
    let line = if runnable(&file) {
        if params.trim().is_empty() {
            file.clone()
        } else {
            format!("{file} {}", params.trim())
        }
    } else {
        match association(env, uc, &file, &verb) {
            Some(l) => l,
            None => return Ok(SE_ERR_NOASSOC),
        }
    };
    crate::machine::record_event(
        uc,
        format!(
            "ShellExecute {verb} {}: WinExec {}",
            crate::escape::quoted(&file),
            crate::escape::quoted(&line)
        ),
    );
    crate::win16::scheduler::exec_line(env, uc, &line, a[5] as u16)
}

/// SHELL.21 FindExecutable(lpszFile, lpszDir, lpszResult): the program
/// that opens the file (the file itself for a program) in lpszResult;
/// 33, or SE_ERR_NOASSOC, or 2 for a file that does not exist.
pub fn find_executable(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(file) = opt_str(uc, a[0]).filter(|f| !f.trim().is_empty()) else {
        return Ok(2);
    };
    let exists = env.drive.as_ref().is_some_and(|d| {
        matches!(
            d.resolve(file.as_bytes()),
            Ok(crate::dos::fs::HostPath::File { .. })
        )
    });
    if !exists {
        farptr::write_bytes(uc, a[2], &[0]);
        return Ok(2);
    }
    let program = if runnable(&file) {
        Some(file.clone())
    } else {
        association(env, uc, &file, "open")
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
    };
    match program {
        Some(p) => {
            farptr::write_cstr_truncated(uc, a[2], p.as_bytes(), 128);
            Ok(33)
        }
        None => {
            farptr::write_bytes(uc, a[2], &[0]);
            Ok(SE_ERR_NOASSOC)
        }
    }
}

/// SHELL.22 ShellAbout(hwnd, lpszApp, lpszOtherStuff, hIcon): the About
/// box, closed at once (nobody reads it); TRUE.
pub fn shell_about(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let app = opt_str(uc, a[1]).unwrap_or_default();
    crate::machine::record_event(uc, format!("ShellAbout {}", crate::escape::quoted(&app)));
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
    fn the_database_starts_with_setup_reg() {
        let mut s = ShellState::default();
        assert_eq!(s.value_at(".wri").as_deref(), Some("wrifile"));
        assert_eq!(
            s.value_at("PBrush\\protocol\\StdFileEditing\\server")
                .as_deref(),
            Some("PBRUSH.EXE")
        );
        assert_eq!(
            s.value_at("txtfile\\shell\\open\\command").as_deref(),
            Some("notepad.exe %1")
        );
        // The first key is the first line's.
        assert_eq!(s.child(0, ".ini"), Some(1));
    }

    #[test]
    fn the_database_is_a_tree() {
        let mut s = ShellState::default();
        let a = s.walk(0, "txtfile\\shell\\open\\command", true).unwrap();
        s.keys[a].value = Some("notepad.exe %1".into());
        assert_eq!(
            s.value_at("TXTFILE\\Shell\\open\\command").as_deref(),
            Some("notepad.exe %1")
        );
        assert_eq!(s.walk(0, "nosuch", false), None);
        let t = s.walk(0, "txtfile", false).unwrap();
        s.delete(t);
        assert_eq!(s.value_at("txtfile\\shell\\open\\command"), None);
        let h = s.open_handle(0);
        assert_eq!(h, FIRST_HANDLE);
        assert_eq!(s.key_of(h), Some(0));
        assert!(runnable("A.EXE") && runnable("c:\\x\\prog") && !runnable("a.txt"));
    }
}
