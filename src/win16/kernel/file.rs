//! KERNEL's file functions: `_lopen`, `_lcreat`, `_lread`, `_lwrite`,
//! `_llseek`, `_lclose`, `_hread`, `_hwrite`, OpenFile, and
//! DeletePathName's relatives.
//!
//! They work on DOS file handles, as Windows 3.1's did (they called DOS):
//! a handle from `_lopen` is the one INT 21h functions and DOS3Call use
//! too. The files are those of the sandboxed drive C: (`--dir`), reached
//! through the DOS layer's handle interface (`dos::fs::Drive`); a run
//! without a drive has no files (every name fails as not found), but
//! handles 0 to 4 are still the standard devices, and what a program
//! writes to 1 or 2 is console output.
//!
//! Results follow the Windows 3.1 SDK: HFILE_ERROR (-1) for a failed open,
//! create, read, write, seek or close; `_lread` and `_lwrite` return the
//! count moved (`_lwrite` of 0 bytes cuts the file at the position, as DOS
//! does); `_llseek` the new position.
//!
//! # OpenFile
//!
//! `OpenFile(lpszFileName, lpOpenBuff, fuMode)` fills the OFSTRUCT
//! (Windows 3.1 SDK):
//!
//! | offset | field | value |
//! | --- | --- | --- |
//! | 0 | cBytes | 136, the structure's size |
//! | 1 | fFixedDisk | 1: drive C: is a fixed disk |
//! | 2 | nErrCode | the DOS error code of a failure, else 0 |
//! | 4 | reserved | the file's DOS date (word), then its time (word) |
//! | 8 | szPathName | the full path, upper case (`C:\DIR\FILE.EXT`) |
//!
//! A name without a directory is searched for as Windows 3.1 did: the
//! current directory, the Windows directory, the system directory, the
//! program's directory, then the directories of PATH. The modes:
//! OF_PARSE only fills the structure; OF_EXIST opens and closes, returning
//! 1; OF_DELETE deletes, returning 1; OF_CREATE creates or truncates;
//! OF_REOPEN takes the name from the structure; OF_VERIFY fails unless the
//! file's date and time are the ones in the structure; otherwise the file
//! opens with the access and sharing bits of fuMode (those of DOS's open).
//! OF_PROMPT and OF_CANCEL would show a dialog box; none is shown here.
//!
//! # OpenPathName and DeletePathName
//!
//! Two older KERNEL entries (Windows 2.x) that Windows 3.1 kept:
//! `OpenPathName(lpszPath, wMode)` tries the name as given and then along
//! OpenFile's search path. Its mode's low byte is DOS's access and sharing
//! byte; a high byte of 0 means DOS function 3Dh (open), any other is the
//! DOS function to do instead, which is how `DeletePathName(lpszPath)`
//! works: it is OpenPathName with mode 4100h (DOS's delete). The result is
//! the handle for an open, 0 for a delete or another call done, and -1
//! when the file is not found anywhere or DOS refuses. FileCDR's
//! procedure hears of each file created or deleted here (filecdr.rs).

use crate::dos::fs::{DosError, HostPath};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        74,
        "OPENFILE",
        &[Arg::L, Arg::L, Arg::W],
        open_file,
    ),
    Api::new("KERNEL", 81, "_LCLOSE", &[Arg::W], lclose),
    Api::new(
        "KERNEL",
        75,
        "OPENPATHNAME",
        &[Arg::L, Arg::W],
        open_path_name,
    ),
    Api::new("KERNEL", 76, "DELETEPATHNAME", &[Arg::L], delete_path_name),
    Api::new(
        "KERNEL",
        64,
        "ACCESSRESOURCE",
        &[Arg::W, Arg::W],
        access_resource,
    ),
    Api::new("KERNEL", 82, "_LREAD", &[Arg::W, Arg::L, Arg::W], lread),
    Api::new("KERNEL", 83, "_LCREAT", &[Arg::L, Arg::W], lcreat),
    Api::new("KERNEL", 84, "_LLSEEK", &[Arg::W, Arg::L, Arg::W], llseek),
    Api::new("KERNEL", 85, "_LOPEN", &[Arg::L, Arg::W], lopen),
    Api::new("KERNEL", 86, "_LWRITE", &[Arg::W, Arg::L, Arg::W], lwrite),
    Api::new("KERNEL", 349, "_HREAD", &[Arg::W, Arg::L, Arg::L], hread),
    Api::new("KERNEL", 350, "_HWRITE", &[Arg::W, Arg::L, Arg::L], hwrite),
];

/// HFILE_ERROR as a 16-bit result.
pub const HFILE_ERROR: u32 = 0xFFFF;
/// HFILE_ERROR as a 32-bit result (`_llseek`, `_hread`, `_hwrite`).
pub const HFILE_ERROR_LONG: u32 = 0xFFFF_FFFF;

/// OpenFile's modes (Windows 3.1 SDK).
pub mod of {
    pub const READ: u16 = 0x0000;
    pub const WRITE: u16 = 0x0001;
    pub const READWRITE: u16 = 0x0002;
    pub const SHARE_EXCLUSIVE: u16 = 0x0010;
    pub const SHARE_DENY_WRITE: u16 = 0x0020;
    pub const SHARE_DENY_READ: u16 = 0x0030;
    pub const SHARE_DENY_NONE: u16 = 0x0040;
    pub const PARSE: u16 = 0x0100;
    pub const DELETE: u16 = 0x0200;
    pub const VERIFY: u16 = 0x0400;
    pub const CANCEL: u16 = 0x0800;
    pub const CREATE: u16 = 0x1000;
    pub const PROMPT: u16 = 0x2000;
    pub const EXIST: u16 = 0x4000;
    pub const REOPEN: u16 = 0x8000;
}

/// OFSTRUCT's size.
pub const OFSTRUCT_SIZE: usize = 136;

/// Bytes moved by one drive read or write.
const CHUNK: usize = 0x8000;

/// A path argument, or None when it cannot be read.
fn path_arg(uc: &Uc<'_>, p: u32) -> Option<Vec<u8>> {
    farptr::read_cstr(uc, p, 260).filter(|s| !s.is_empty())
}

fn error(what: &str, uc: &mut Uc<'_>, e: DosError) {
    crate::machine::record_event(uc, format!("{what}: DOS error {}", e.0));
}

/// KERNEL.85 _lopen(lpPathName, iReadWrite): a DOS handle, or -1.
pub fn lopen(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(path) = path_arg(uc, a[0]) else {
        return Ok(HFILE_ERROR);
    };
    let Some(d) = env.drive.as_mut() else {
        return Ok(HFILE_ERROR);
    };
    match d.open(&path, (a[1] & 0x73) as u8) {
        Ok(h) => Ok(u32::from(h)),
        Err(e) => {
            error("_lopen", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.64 AccessResource(hInstance, hResInfo): the module's file
/// opened for reading, its pointer at the resource's first byte (SDK,
/// AccessResource); -1 when the module has no such resource or its file is
/// not on the drive. The program reads the resource with `_lread` and
/// closes the handle with `_lclose`.
pub fn access_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (hinst, hrsrc) = (a[0] as u16, a[1] as u16);
    let found = env.win16.module_for_handle(hinst).and_then(|i| {
        let m = &env.win16.modules[i];
        let r = crate::win16::resource::by_handle(m.image.as_deref()?, hrsrc)?;
        let path = super::module::dos_path(env, m.path.as_deref(), &m.name);
        Some((path, r.file_offset))
    });
    let Some((path, offset)) = found else {
        crate::machine::record_event(
            uc,
            format!("AccessResource {hinst:04X} {hrsrc:04X}: no such resource"),
        );
        return Ok(HFILE_ERROR);
    };
    let Some(d) = env.drive.as_mut() else {
        return Ok(HFILE_ERROR);
    };
    let h = match d.open(path.as_bytes(), 0) {
        Ok(h) => h,
        Err(e) => {
            error("AccessResource", uc, e);
            return Ok(HFILE_ERROR);
        }
    };
    match d.seek(h, offset.min(0x7FFF_FFFF) as i32, 0) {
        Ok(_) => Ok(u32::from(h)),
        Err(e) => {
            let _ = d.close(h);
            error("AccessResource", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.83 _lcreat(lpPathName, iAttribute): creates or truncates the
/// file (attribute 0 normal, 1 read-only, 2 hidden, 3 system), open for
/// reading and writing; a DOS handle, or -1.
pub fn lcreat(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(path) = path_arg(uc, a[0]) else {
        return Ok(HFILE_ERROR);
    };
    let Some(d) = env.drive.as_mut() else {
        return Ok(HFILE_ERROR);
    };
    match d.create(&path, (a[1] & 0x27) as u8) {
        Ok(h) => {
            super::filecdr::notify(env, uc, 0x3C00, &path, None)?;
            Ok(u32::from(h))
        }
        Err(e) => {
            error("_lcreat", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.81 _lclose(hFile): 0, or -1 for a handle that is not open.
pub fn lclose(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let Some(d) = env.drive.as_mut() else {
        return Ok(if h <= 4 { 0 } else { HFILE_ERROR });
    };
    Ok(d.close(h).map_or(HFILE_ERROR, |_| 0))
}

/// Is handle `h` a character device (and which)? Without a drive, 0-4 are.
fn device(env: &mut Env, h: u16) -> Result<Option<&'static str>, DosError> {
    match env.drive.as_mut() {
        Some(d) => d.handle_device(h),
        None if h <= 4 => Ok(Some(if h == 4 { "PRN" } else { "CON" })),
        None => Err(DosError::INVALID_HANDLE),
    }
}

/// Read up to `n` bytes from handle `h` (standard input for the console).
fn read(env: &mut Env, h: u16, n: usize) -> Result<Vec<u8>, DosError> {
    match device(env, h)? {
        Some("CON") => {
            let mut b = Vec::new();
            while b.len() < n {
                match env.dos.read_input() {
                    Some(c) => b.push(c),
                    None => break,
                }
            }
            Ok(b)
        }
        Some(_) => Ok(Vec::new()),
        None => {
            let d = env.drive.as_mut().ok_or(DosError::INVALID_HANDLE)?;
            let mut out = Vec::with_capacity(n.min(CHUNK));
            while out.len() < n {
                let want = (n - out.len()).min(CHUNK);
                let got = d.read(h, want as u16)?;
                let short = got.len() < want;
                out.extend_from_slice(&got);
                if short {
                    break;
                }
            }
            Ok(out)
        }
    }
}

/// Write `data` to handle `h` (console output for CON); the count.
fn write(env: &mut Env, uc: &mut Uc<'_>, h: u16, data: &[u8]) -> Result<usize, DosError> {
    match device(env, h)? {
        Some("CON") => {
            crate::dos::console_out(env, uc, data);
            Ok(data.len())
        }
        Some(_) => Ok(data.len()),
        None => {
            let d = env.drive.as_mut().ok_or(DosError::INVALID_HANDLE)?;
            if data.is_empty() {
                return d.write(h, &[]);
            }
            let mut done = 0;
            for piece in data.chunks(CHUNK) {
                let n = d.write(h, piece)?;
                done += n;
                if n < piece.len() {
                    break;
                }
            }
            Ok(done)
        }
    }
}

/// KERNEL.82 _lread(hFile, lpBuffer, wBytes): the count read (0 at the
/// end of the file), or -1.
pub fn lread(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, buf, n) = (a[0] as u16, a[1], usize::from(a[2] as u16));
    match read(env, h, n) {
        Ok(b) if farptr::write_bytes(uc, buf, &b) => Ok(b.len() as u32),
        Ok(_) => Ok(HFILE_ERROR),
        Err(e) => {
            error("_lread", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.86 _lwrite(hFile, lpBuffer, wBytes): the count written, or -1;
/// 0 bytes cut the file at its position.
pub fn lwrite(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, buf, n) = (a[0] as u16, a[1], usize::from(a[2] as u16));
    let Some(data) = farptr::read_bytes(uc, buf, n) else {
        return Ok(HFILE_ERROR);
    };
    match write(env, uc, h, &data) {
        Ok(n) => Ok(n as u32),
        Err(e) => {
            error("_lwrite", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.349 _hread(hFile, hpBuffer, cbBuffer): `_lread` for more than 64
/// KiB into a huge buffer (memory.rs); the count, or -1.
pub fn hread(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, buf, n) = (a[0] as u16, a[1], a[2]);
    if n > super::memory::MAX_HUGE {
        return Ok(HFILE_ERROR_LONG);
    }
    match read(env, h, n as usize) {
        Ok(b) if super::memory::write_huge(uc, buf, &b) => Ok(b.len() as u32),
        Ok(_) => Ok(HFILE_ERROR_LONG),
        Err(e) => {
            error("_hread", uc, e);
            Ok(HFILE_ERROR_LONG)
        }
    }
}

/// KERNEL.350 _hwrite(hFile, hpBuffer, cbBuffer): `_lwrite` from a huge
/// buffer; the count, or -1.
pub fn hwrite(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, buf, n) = (a[0] as u16, a[1], a[2]);
    let Some(data) = super::memory::read_huge(uc, buf, n) else {
        return Ok(HFILE_ERROR_LONG);
    };
    match write(env, uc, h, &data) {
        Ok(n) => Ok(n as u32),
        Err(e) => {
            error("_hwrite", uc, e);
            Ok(HFILE_ERROR_LONG)
        }
    }
}

/// KERNEL.84 _llseek(hFile, lOffset, iOrigin): the new position from the
/// start, or -1.
pub fn llseek(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (h, off, whence) = (a[0] as u16, a[1] as i32, a[2] as u16);
    if whence > 2 {
        return Ok(HFILE_ERROR_LONG);
    }
    let Some(d) = env.drive.as_mut() else {
        return Ok(if h <= 4 { 0 } else { HFILE_ERROR_LONG });
    };
    match d.seek(h, off, whence as u8) {
        Ok(p) => Ok(p),
        Err(e) => {
            error("_llseek", uc, e);
            Ok(HFILE_ERROR_LONG)
        }
    }
}

/// The full DOS path (`C:\...`) of what `path` names on the drive, and
/// whether a file is there.
fn full_path(env: &Env, path: &[u8]) -> Result<(String, bool), DosError> {
    let d = env.drive.as_ref().ok_or(DosError::FILE_NOT_FOUND)?;
    match d.resolve(path)? {
        HostPath::File { dos, .. } => Ok((format!("C:{dos}"), true)),
        HostPath::Missing { dos, .. } => Ok((format!("C:{dos}"), false)),
        HostPath::Dir { .. } => Err(DosError::ACCESS_DENIED),
        HostPath::Device(n) => Ok((n, true)),
    }
}

/// The directories OpenFile searches for a bare name (module notes), as
/// DOS paths.
fn search_dirs(env: &Env, uc: &Uc<'_>) -> Vec<String> {
    let mut dirs = vec![String::new()];
    dirs.push("C:\\WINDOWS\\".into());
    dirs.push("C:\\WINDOWS\\SYSTEM\\".into());
    let program = env
        .win16
        .task(uc.get_data().current_task)
        .and_then(|t| env.win16.modules.iter().find(|m| m.hmodule == t.hmodule))
        .map(|m| super::module::dos_path(env, m.path.as_deref(), &m.name));
    if let Some(p) = program {
        if let Some((dir, _)) = p.rsplit_once('\\') {
            dirs.push(format!("{dir}\\"));
        }
    }
    let vars = crate::win16::kernel::task::environment(env);
    if let Some((_, path)) = vars.iter().find(|(k, _)| k.eq_ignore_ascii_case("PATH")) {
        for p in path.split(';').filter(|p| !p.is_empty()) {
            let p = p.trim_end_matches('\\');
            dirs.push(format!("{p}\\"));
        }
    }
    dirs
}

/// Find `name` as OpenFile does (module notes): the full path of the
/// first file found, else the full path in the current directory.
fn search(env: &Env, uc: &Uc<'_>, name: &[u8]) -> Result<(String, bool), DosError> {
    let bare = !name.iter().any(|&c| matches!(c, b'\\' | b'/' | b':'));
    if !bare {
        return full_path(env, name);
    }
    let first = full_path(env, name)?;
    if first.1 {
        return Ok(first);
    }
    for dir in search_dirs(env, uc).into_iter().skip(1) {
        let mut p = dir.into_bytes();
        p.extend_from_slice(name);
        if let Ok((full, true)) = full_path(env, &p) {
            return Ok((full, true));
        }
    }
    Ok(first)
}

/// The bytes of an OFSTRUCT.
fn ofstruct(err: u16, date_time: (u16, u16), path: &str) -> [u8; OFSTRUCT_SIZE] {
    let mut b = [0u8; OFSTRUCT_SIZE];
    b[0] = OFSTRUCT_SIZE as u8;
    b[1] = 1;
    b[2..4].copy_from_slice(&err.to_le_bytes());
    b[4..6].copy_from_slice(&date_time.0.to_le_bytes());
    b[6..8].copy_from_slice(&date_time.1.to_le_bytes());
    let p = path.to_ascii_uppercase();
    let p = p.as_bytes();
    let n = p.len().min(127);
    b[8..8 + n].copy_from_slice(&p[..n]);
    b
}

/// The DOS (date, time) of an open handle.
fn date_time(env: &mut Env, h: u16) -> (u16, u16) {
    env.drive
        .as_mut()
        .and_then(|d| d.file_time(h).ok())
        .map_or((0, 0), |(t, d)| (d, t))
}

/// KERNEL.74 OpenFile(lpszFileName, lpOpenBuff, fuMode) (module notes): a
/// DOS handle, 1 for OF_EXIST and OF_DELETE, 0 for OF_PARSE, or -1 with
/// the DOS error in nErrCode.
pub fn open_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (name_p, buf, mode) = (a[0], a[1], a[2] as u16);
    let old = farptr::read_bytes(uc, buf, OFSTRUCT_SIZE);
    let name = if mode & of::REOPEN != 0 {
        old.as_ref().map(|b| {
            let p = &b[8..];
            p[..p.iter().position(|&c| c == 0).unwrap_or(p.len())].to_vec()
        })
    } else {
        farptr::read_cstr(uc, name_p, MAX_STRING)
    };
    let fail = |uc: &mut Uc<'_>, e: DosError, path: &str| {
        farptr::write_bytes(uc, buf, &ofstruct(e.0, (0, 0), path));
        crate::machine::record_event(
            uc,
            format!(
                "OpenFile {}: DOS error {}",
                crate::escape::quoted(path),
                e.0
            ),
        );
        Ok(HFILE_ERROR)
    };
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return fail(uc, DosError::FILE_NOT_FOUND, "");
    };
    let shown = String::from_utf8_lossy(&name).into_owned();
    let create = mode & of::CREATE != 0;
    let found = if create {
        full_path(env, &name)
    } else {
        search(env, uc, &name)
    };
    let (path, exists) = match found {
        Ok(f) => f,
        Err(e) => return fail(uc, e, &shown),
    };
    if mode & of::PARSE != 0 {
        farptr::write_bytes(uc, buf, &ofstruct(0, (0, 0), &path));
        return Ok(0);
    }
    let Some(d) = env.drive.as_mut() else {
        return fail(uc, DosError::FILE_NOT_FOUND, &path);
    };
    if mode & of::DELETE != 0 {
        return match d.delete(path.as_bytes()) {
            Ok(()) => {
                farptr::write_bytes(uc, buf, &ofstruct(0, (0, 0), &path));
                super::filecdr::notify(env, uc, 0x4100, path.as_bytes(), None)?;
                Ok(1)
            }
            Err(e) => fail(uc, e, &path),
        };
    }
    let opened = if create {
        d.create(path.as_bytes(), 0)
    } else if !exists {
        Err(DosError::FILE_NOT_FOUND)
    } else {
        d.open(path.as_bytes(), (mode & 0x73) as u8)
    };
    let h = match opened {
        Ok(h) => h,
        Err(e) => return fail(uc, e, &path),
    };
    if create {
        super::filecdr::notify(env, uc, 0x3C01, path.as_bytes(), None)?;
    }
    let dt = date_time(env, h);
    if mode & of::VERIFY != 0 {
        let before = old
            .as_ref()
            .map(|b| {
                (
                    u16::from_le_bytes([b[4], b[5]]),
                    u16::from_le_bytes([b[6], b[7]]),
                )
            })
            .unwrap_or((0, 0));
        if before != dt {
            if let Some(d) = env.drive.as_mut() {
                let _ = d.close(h);
            }
            return fail(uc, DosError::FILE_NOT_FOUND, &path);
        }
    }
    farptr::write_bytes(uc, buf, &ofstruct(0, dt, &path));
    if mode & of::EXIST != 0 {
        if let Some(d) = env.drive.as_mut() {
            let _ = d.close(h);
        }
        return Ok(1);
    }
    Ok(u32::from(h))
}

/// OpenPathName's work (module notes): DOS function `mode >> 8` (3Dh when
/// 0) on the file `name` names, found as given or along the search path.
fn path_name_call(env: &mut Env, uc: &mut Uc<'_>, name: &[u8], mode: u16) -> Result<u32, Stop> {
    let func = match (mode >> 8) as u8 {
        0 => 0x3D,
        f => f,
    };
    let path = match search(env, uc, name) {
        Ok((path, true)) => path,
        Ok(_) | Err(_) => {
            error("OpenPathName", uc, DosError::FILE_NOT_FOUND);
            return Ok(HFILE_ERROR);
        }
    };
    let Some(d) = env.drive.as_mut() else {
        return Ok(HFILE_ERROR);
    };
    let done = match func {
        0x3D => d.open(path.as_bytes(), (mode & 0x73) as u8).map(u32::from),
        0x41 => d.delete(path.as_bytes()).map(|()| 0),
        _ => Err(DosError::INVALID_FUNCTION),
    };
    match done {
        Ok(v) => {
            if func == 0x41 {
                super::filecdr::notify(env, uc, 0x4100, path.as_bytes(), None)?;
            }
            Ok(v)
        }
        Err(e) => {
            error("OpenPathName", uc, e);
            Ok(HFILE_ERROR)
        }
    }
}

/// KERNEL.75 OpenPathName(lpszPath, wMode) (module notes): a DOS handle,
/// or -1.
pub fn open_path_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = path_arg(uc, a[0]) else {
        return Ok(HFILE_ERROR);
    };
    path_name_call(env, uc, &name, a[1] as u16)
}

/// KERNEL.76 DeletePathName(lpszPath) (module notes): 0 when the file was
/// deleted, -1 when it is not found or DOS refuses.
pub fn delete_path_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = path_arg(uc, a[0]) else {
        return Ok(HFILE_ERROR);
    };
    path_name_call(env, uc, &name, 0x4100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn ofstruct_layout() {
        let b = ofstruct(2, (0x1234, 0x5678), "c:\\dir\\x.txt");
        assert_eq!(b[0], 136);
        assert_eq!(b[1], 1);
        assert_eq!(&b[2..8], &[2, 0, 0x34, 0x12, 0x78, 0x56]);
        assert_eq!(&b[8..20], b"C:\\DIR\\X.TXT");
        assert_eq!(b[20], 0);
    }
}
