//! Initialization files: WIN.INI (`GetProfileString` and friends) and
//! private .INI files (`GetPrivateProfileString` and friends).
//!
//! Every file lives in memory for the run, keyed by its full upper-case DOS
//! path; WIN.INI is `C:\WINDOWS\WIN.INI`, so the private functions reach it
//! too, as on Windows. A name without a path is in the Windows directory,
//! `C:\WINDOWS`. The first time a file is used it is read from the
//! sandboxed drive C: (`--dir`) when the run has one and the file exists
//! there; otherwise it starts empty. A Win16 run's drive has the Windows
//! directory beneath it (dosfs/windir.rs), so WIN.INI and SYSTEM.INI
//! start as a fresh Windows 3.1 set-up wrote them. A write changes the copy in memory
//! and is written back to the drive at once, in WIN.INI's format: a
//! `[section]` line, a `key=value` line per key, a blank line between
//! sections, CR LF line ends; comment lines stay where they were (before
//! the same key); the directories on the file's path (`C:\WINDOWS`) are
//! made when the drive lacks them. A run without a drive keeps the
//! changes in memory only.
//!
//! Windows semantics, as the SDK describes them:
//! - section and key names compare without regard to case; a key's value is
//!   the text after `=` with the surrounding blanks removed; lines starting
//!   with `;` are comments;
//! - a NULL key lists the section's keys, a NULL section the file's
//!   sections: each name NUL-terminated, one more NUL at the end; when the
//!   buffer is too small the list is cut, ends in two NULs, and the result
//!   is the buffer size minus 2;
//! - a missing key gives the default (NULL meaning ""), cut to the buffer
//!   size minus 1; the result is the number of bytes copied without the
//!   NUL;
//! - GetProfileInt gives the value of the leading decimal digits ("102abc"
//!   is 102), 0 for a value that is negative or not a number, and the
//!   default when the key is missing or empty;
//! - WriteProfileString with a NULL value deletes the key, with a NULL key
//!   the whole section.
//!
//! Bounds: at most [`MAX_FILES`] files of at most [`MAX_FILE_BYTES`] bytes
//! each (the 64 KiB Windows 3.1 allowed); a write that would pass them
//! fails.

use std::collections::HashMap;

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};
use crate::win16::strings::eq_nocase;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "KERNEL",
        57,
        "GETPROFILEINT",
        &[Arg::L, Arg::L, Arg::W],
        get_profile_int,
    ),
    Api::new(
        "KERNEL",
        58,
        "GETPROFILESTRING",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::W],
        get_profile_string,
    ),
    Api::new(
        "KERNEL",
        59,
        "WRITEPROFILESTRING",
        &[Arg::L, Arg::L, Arg::L],
        write_profile_string,
    ),
    Api::new(
        "KERNEL",
        127,
        "GETPRIVATEPROFILEINT",
        &[Arg::L, Arg::L, Arg::W, Arg::L],
        get_private_profile_int,
    ),
    Api::new(
        "KERNEL",
        128,
        "GETPRIVATEPROFILESTRING",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::W, Arg::L],
        get_private_profile_string,
    ),
    Api::new(
        "KERNEL",
        129,
        "WRITEPRIVATEPROFILESTRING",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        write_private_profile_string,
    ),
    Api::new("KERNEL", 315, "WRITEOUTPROFILES", &[], write_out_profiles),
];

/// The Windows directory.
pub const WINDOWS_DIR: &str = "C:\\WINDOWS";
/// WIN.INI's key.
pub const WIN_INI: &str = "C:\\WINDOWS\\WIN.INI";
/// The most files kept.
pub const MAX_FILES: usize = 64;
/// The largest file, as text.
pub const MAX_FILE_BYTES: usize = 0x1_0000;

fn trim(s: &[u8]) -> &[u8] {
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let start = s.iter().position(|c| !blank(c)).unwrap_or(s.len());
    let end = s.iter().rposition(|c| !blank(c)).map_or(start, |e| e + 1);
    &s[start..end]
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Section {
    name: Vec<u8>,
    keys: Vec<(Vec<u8>, Vec<u8>)>,
    /// Comment lines, each with the number of keys before it, kept so a
    /// file written back keeps them (module notes).
    comments: Vec<(usize, Vec<u8>)>,
}

/// One initialization file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IniFile {
    sections: Vec<Section>,
    /// Comment lines before the first section.
    preamble: Vec<Vec<u8>>,
}

impl IniFile {
    /// Parse a file's text. Lines before the first section and lines
    /// without `=` hold no keys.
    pub fn parse(text: &[u8]) -> IniFile {
        let mut f = IniFile::default();
        for line in text.split(|&c| c == b'\n') {
            let line = trim(line);
            if line.is_empty() {
                continue;
            }
            if line[0] == b';' {
                match f.sections.last_mut() {
                    Some(sec) => sec.comments.push((sec.keys.len(), line.to_vec())),
                    None => f.preamble.push(line.to_vec()),
                }
                continue;
            }
            if line[0] == b'[' {
                let end = line.iter().position(|&c| c == b']').unwrap_or(line.len());
                let name = trim(&line[1..end]).to_vec();
                if f.section(&name).is_none() {
                    f.sections.push(Section {
                        name,
                        ..Section::default()
                    });
                }
                continue;
            }
            let (Some(eq), Some(sec)) =
                (line.iter().position(|&c| c == b'='), f.sections.last_mut())
            else {
                continue;
            };
            let key = trim(&line[..eq]).to_vec();
            if !sec.keys.iter().any(|(k, _)| eq_nocase(k, &key)) {
                sec.keys.push((key, trim(&line[eq + 1..]).to_vec()));
            }
        }
        f
    }

    /// The file as text.
    pub fn to_text(&self) -> Vec<u8> {
        let mut t = Vec::new();
        for c in &self.preamble {
            t.extend_from_slice(c);
            t.extend_from_slice(b"\r\n");
        }
        for (n, s) in self.sections.iter().enumerate() {
            if n > 0 || !self.preamble.is_empty() {
                t.extend_from_slice(b"\r\n");
            }
            t.push(b'[');
            t.extend_from_slice(&s.name);
            t.extend_from_slice(b"]\r\n");
            let comment = |t: &mut Vec<u8>, at: usize| {
                for (_, c) in s.comments.iter().filter(|(i, _)| *i == at) {
                    t.extend_from_slice(c);
                    t.extend_from_slice(b"\r\n");
                }
            };
            for (i, (k, v)) in s.keys.iter().enumerate() {
                comment(&mut t, i);
                t.extend_from_slice(k);
                t.push(b'=');
                t.extend_from_slice(v);
                t.extend_from_slice(b"\r\n");
            }
            for (_, c) in s.comments.iter().filter(|(i, _)| *i >= s.keys.len()) {
                t.extend_from_slice(c);
                t.extend_from_slice(b"\r\n");
            }
        }
        t
    }

    fn section(&self, name: &[u8]) -> Option<&Section> {
        self.sections.iter().find(|s| eq_nocase(&s.name, name))
    }

    /// The value of `key` in `section`.
    pub fn get(&self, section: &[u8], key: &[u8]) -> Option<&[u8]> {
        let key = trim(key);
        self.section(trim(section))?
            .keys
            .iter()
            .find(|(k, _)| eq_nocase(k, key))
            .map(|(_, v)| v.as_slice())
    }

    /// The section names.
    pub fn section_names(&self) -> Vec<&[u8]> {
        self.sections.iter().map(|s| s.name.as_slice()).collect()
    }

    /// The key names of `section` (empty when it does not exist).
    pub fn key_names(&self, section: &[u8]) -> Vec<&[u8]> {
        self.section(trim(section))
            .map(|s| s.keys.iter().map(|(k, _)| k.as_slice()).collect())
            .unwrap_or_default()
    }

    /// Set (`Some`) or delete (`None`) a key, or delete the whole section
    /// (`key` None).
    pub fn write(&mut self, section: &[u8], key: Option<&[u8]>, value: Option<&[u8]>) {
        let section = trim(section);
        let pos = self
            .sections
            .iter()
            .position(|s| eq_nocase(&s.name, section));
        let Some(key) = key.map(trim) else {
            if let Some(i) = pos {
                self.sections.remove(i);
            }
            return;
        };
        let i = match (pos, value) {
            (Some(i), _) => i,
            (None, None) => return,
            (None, Some(_)) => {
                self.sections.push(Section {
                    name: section.to_vec(),
                    ..Section::default()
                });
                self.sections.len() - 1
            }
        };
        let keys = &mut self.sections[i].keys;
        let at = keys.iter().position(|(k, _)| eq_nocase(k, key));
        match (at, value) {
            (Some(j), Some(v)) => keys[j].1 = trim(v).to_vec(),
            (Some(j), None) => {
                keys.remove(j);
                for (i, _) in self.sections[i].comments.iter_mut() {
                    if *i > j {
                        *i -= 1;
                    }
                }
            }
            (None, Some(v)) => keys.push((key.to_vec(), trim(v).to_vec())),
            (None, None) => {}
        }
    }
}

/// Every initialization file of the run.
#[derive(Clone, Debug, Default)]
pub struct Profiles {
    pub files: HashMap<String, IniFile>,
}

/// The key of a file name: its full upper-case DOS path. A bare name is in
/// the Windows directory; a path without a drive is on C:, one without a
/// leading backslash under the current directory `cwd` ("" is the root).
pub fn file_key(name: &[u8], cwd: &str) -> String {
    let name: String = String::from_utf8_lossy(trim(name))
        .to_ascii_uppercase()
        .replace('/', "\\");
    if !name.contains('\\') && !name.contains(':') {
        return format!("{WINDOWS_DIR}\\{name}");
    }
    let rest = name.strip_prefix("C:").unwrap_or(&name);
    if name.len() >= 2 && name.as_bytes()[1] == b':' && !name.starts_with("C:") {
        return name;
    }
    if rest.starts_with('\\') {
        format!("C:{rest}")
    } else if cwd.is_empty() {
        format!("C:\\{rest}")
    } else {
        format!("C:\\{cwd}\\{rest}")
    }
}

/// The file `key`, read from the sandboxed drive the first time when it is
/// there. None when [`MAX_FILES`] other files are already in use.
fn file<'a>(env: &'a mut Env, key: &str) -> Option<&'a mut IniFile> {
    if !env.win16.profiles.files.contains_key(key) {
        if env.win16.profiles.files.len() >= MAX_FILES {
            return None;
        }
        let text = env
            .drive
            .as_ref()
            .and_then(|d| d.read_head(key.as_bytes(), MAX_FILE_BYTES as u64).ok())
            .unwrap_or_default();
        env.win16
            .profiles
            .files
            .insert(key.to_string(), IniFile::parse(&text));
    }
    env.win16.profiles.files.get_mut(key)
}

fn cwd(env: &Env) -> String {
    env.drive.as_ref().map(|d| d.getcwd()).unwrap_or_default()
}

/// A string argument that may be NULL: Ok(None) for NULL, Err for a
/// pointer that cannot be read.
fn opt_str(uc: &Uc<'_>, p: u32) -> Result<Option<Vec<u8>>, ()> {
    if p == 0 {
        return Ok(None);
    }
    farptr::read_cstr(uc, p, MAX_STRING).map(Some).ok_or(())
}

/// Copy a NUL-separated list, double-NUL-terminated, into `size` bytes as
/// Windows does (module notes).
fn write_list(uc: &mut Uc<'_>, buf: u32, names: &[&[u8]], size: usize) -> u32 {
    if size == 0 {
        return 0;
    }
    let mut b = Vec::new();
    for n in names {
        b.extend_from_slice(n);
        b.push(0);
    }
    let (bytes, result) = if b.len() < size {
        // Fits with the final NUL; the count leaves that NUL out.
        let r = b.len().saturating_sub(1);
        if b.is_empty() {
            b.push(0);
        }
        b.push(0);
        (b, r)
    } else if size >= 2 {
        b.truncate(size - 2);
        b.extend_from_slice(&[0, 0]);
        (b, size - 2)
    } else {
        (vec![0], 0)
    };
    let bytes = &bytes[..bytes.len().min(size)];
    if farptr::write_bytes(uc, buf, bytes) {
        result as u32
    } else {
        0
    }
}

/// GetPrivateProfileString on file `key`.
fn get_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], key: &str) -> u32 {
    let (buf, size) = (a[3], usize::from(a[4] as u16));
    let (Ok(section), Ok(entry), Ok(default)) =
        (opt_str(uc, a[0]), opt_str(uc, a[1]), opt_str(uc, a[2]))
    else {
        return 0;
    };
    let Some(f) = file(env, key) else {
        return 0;
    };
    match (section, entry) {
        (None, _) => {
            let names = f.section_names();
            write_list(uc, buf, &names, size)
        }
        (Some(s), None) => {
            let names = f.key_names(&s);
            write_list(uc, buf, &names, size)
        }
        (Some(s), Some(k)) => {
            let v = f
                .get(&s, &k)
                .map(<[u8]>::to_vec)
                .unwrap_or_else(|| default.unwrap_or_default());
            farptr::write_cstr_truncated(uc, buf, &v, size).map_or(0, |n| n as u32)
        }
    }
}

/// GetPrivateProfileInt on file `key`.
fn get_int(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], key: &str) -> u32 {
    let default = a[2] & 0xFFFF;
    let (Some(section), Some(entry)) = (
        farptr::read_cstr(uc, a[0], MAX_STRING),
        farptr::read_cstr(uc, a[1], MAX_STRING),
    ) else {
        return default;
    };
    let Some(v) = file(env, key).and_then(|f| f.get(&section, &entry).map(<[u8]>::to_vec)) else {
        return default;
    };
    if v.is_empty() {
        return default;
    }
    // Leading decimal digits; a sign or anything else first gives 0.
    v.iter()
        .take_while(|c| c.is_ascii_digit())
        .fold(0u16, |n, d| {
            n.wrapping_mul(10).wrapping_add(u16::from(d - b'0'))
        })
        .into()
}

/// WritePrivateProfileString on file `key`: TRUE, or FALSE when the
/// section is NULL or a string unreadable, or the file would grow past
/// [`MAX_FILE_BYTES`].
fn write_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], key: &str) -> u32 {
    let (Ok(section), Ok(entry), Ok(value)) =
        (opt_str(uc, a[0]), opt_str(uc, a[1]), opt_str(uc, a[2]))
    else {
        return 0;
    };
    let Some(section) = section else {
        // WriteProfileString(NULL, NULL, NULL) flushes the cache: nothing
        // to do in memory.
        return u32::from(entry.is_none() && value.is_none());
    };
    let Some(f) = file(env, key) else {
        return 0;
    };
    let mut changed = f.clone();
    changed.write(&section, entry.as_deref(), value.as_deref());
    if changed.to_text().len() > MAX_FILE_BYTES {
        return 0;
    }
    *f = changed;
    write_back(env, key);
    1
}

/// Write file `key` back to the sandboxed drive (module notes): the
/// directories on its path are made when missing. Nothing without a
/// drive, or for a file on another drive.
fn write_back(env: &mut Env, key: &str) {
    let Some(text) = env.win16.profiles.files.get(key).map(IniFile::to_text) else {
        return;
    };
    let Some(d) = env.drive.as_mut() else {
        return;
    };
    let Some(rest) = key.strip_prefix("C:\\") else {
        return;
    };
    let parts: Vec<&str> = rest.split('\\').collect();
    let mut dir = String::from("C:");
    for p in &parts[..parts.len().saturating_sub(1)] {
        dir.push('\\');
        dir.push_str(p);
        let _ = d.mkdir(dir.as_bytes());
    }
    if let Ok(h) = d.create(key.as_bytes(), 0) {
        for piece in text.chunks(0x8000) {
            let _ = d.write(h, piece);
        }
        let _ = d.close(h);
    }
}

/// The value of `key` in WIN.INI's `section`, for other modules (SHELL's
/// [Extensions]).
pub fn read_string(env: &mut Env, section: &str, key: &str) -> Option<String> {
    let f = file(env, WIN_INI)?;
    f.get(section.as_bytes(), key.as_bytes())
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

/// KERNEL.315 WriteOutProfiles(): every write is already on the drive
/// (module notes): nothing left to write.
pub fn write_out_profiles(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

fn private_key(env: &Env, uc: &Uc<'_>, p: u32) -> Option<String> {
    let name = farptr::read_cstr(uc, p, MAX_STRING)?;
    Some(file_key(&name, &cwd(env)))
}

/// KERNEL.57 GetProfileInt(lpszSection, lpszEntry, nDefault).
pub fn get_profile_int(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_int(env, uc, a, WIN_INI))
}

/// KERNEL.58 GetProfileString(lpszSection, lpszEntry, lpszDefault,
/// lpszReturnBuffer, cbReturnBuffer).
pub fn get_profile_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(get_string(env, uc, a, WIN_INI))
}

/// KERNEL.59 WriteProfileString(lpszSection, lpszEntry, lpszString).
pub fn write_profile_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(write_string(env, uc, a, WIN_INI))
}

/// KERNEL.127 GetPrivateProfileInt(lpszSection, lpszEntry, nDefault,
/// lpszFilename).
pub fn get_private_profile_int(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match private_key(env, uc, a[3]) {
        Some(k) => get_int(env, uc, a, &k),
        None => a[2] & 0xFFFF,
    })
}

/// KERNEL.128 GetPrivateProfileString(lpszSection, lpszEntry, lpszDefault,
/// lpszReturnBuffer, cbReturnBuffer, lpszFilename).
pub fn get_private_profile_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match private_key(env, uc, a[5]) {
        Some(k) => get_string(env, uc, a, &k),
        None => 0,
    })
}

/// KERNEL.129 WritePrivateProfileString(lpszSection, lpszEntry, lpszString,
/// lpszFilename).
pub fn write_private_profile_string(
    env: &mut Env,
    uc: &mut Uc<'_>,
    a: &[u32],
) -> Result<u32, Stop> {
    Ok(match private_key(env, uc, a[3]) {
        Some(k) => write_string(env, uc, a, &k),
        None => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
    use crate::machine::{Cpu, Machine, SegKind};

    struct T {
        m: Machine,
        env: Env,
        ds: u16,
        next: u16,
    }

    impl T {
        fn new() -> T {
            let mut m = Machine::new_protected().unwrap();
            let ds = m.alloc_segment(SegKind::Data, 0x8000, &[]).unwrap();
            T {
                m,
                env: Env::new(false),
                ds,
                next: 0x1000,
            }
        }
        /// A string in emulated memory (NULL for None).
        fn s(&mut self, v: Option<&str>) -> u32 {
            let Some(v) = v else { return 0 };
            let p = farptr::make(self.ds, self.next);
            let mut b = v.as_bytes().to_vec();
            b.push(0);
            self.m.write_seg(self.ds, self.next, &b).unwrap();
            self.next += b.len() as u16;
            p
        }
        fn buf(&self) -> u32 {
            farptr::make(self.ds, 0)
        }
        fn bytes(&self, n: usize) -> Vec<u8> {
            let mut b = vec![0u8; n];
            self.m.read_seg(self.ds, 0, &mut b).unwrap();
            b
        }
        fn get(
            &mut self,
            sec: Option<&str>,
            key: Option<&str>,
            def: Option<&str>,
            size: u16,
        ) -> u32 {
            let a = [
                self.s(sec),
                self.s(key),
                self.s(def),
                self.buf(),
                u32::from(size),
            ];
            self.m.write_seg(self.ds, 0, &[0xEE; 0x100]).unwrap();
            get_profile_string(&mut self.env, &mut self.m, &a).unwrap()
        }
        fn write(&mut self, sec: Option<&str>, key: Option<&str>, val: Option<&str>) -> u32 {
            let a = [self.s(sec), self.s(key), self.s(val)];
            write_profile_string(&mut self.env, &mut self.m, &a).unwrap()
        }
        fn int(&mut self, sec: &str, key: &str, def: u16) -> u32 {
            let a = [self.s(Some(sec)), self.s(Some(key)), u32::from(def)];
            get_profile_int(&mut self.env, &mut self.m, &a).unwrap()
        }
    }

    #[test]
    fn parse_and_lookup_ignore_case_and_blanks() {
        let f = IniFile::parse(
            b"; comment\r\nstray=1\r\n[Intl]\r\n  sLanguage = enu \r\nnoequals\r\n[intl]\r\niCountry=1\r\n[Other]\r\nk=v=w\r\nsLanguage=deu\r\n",
        );
        assert_eq!(f.get(b"INTL", b"slanguage"), Some(&b"enu"[..]));
        assert_eq!(f.get(b" intl ", b"iCountry"), Some(&b"1"[..]));
        assert_eq!(f.get(b"other", b"k"), Some(&b"v=w"[..]));
        assert_eq!(f.get(b"other", b"stray"), None);
        assert_eq!(f.section_names(), vec![&b"Intl"[..], b"Other"]);
        assert_eq!(f.key_names(b"INTL"), vec![&b"sLanguage"[..], b"iCountry"]);
        assert_eq!(IniFile::parse(&f.to_text()), f);
    }

    #[test]
    fn strings_defaults_and_truncation() {
        let mut t = T::new();
        assert_eq!(t.write(Some("Sec"), Some("Key"), Some("  value  ")), 1);
        assert_eq!(t.get(Some("SEC"), Some("key"), Some("def"), 100), 5);
        assert_eq!(&t.bytes(6), b"value\0");
        // Cut to the buffer size minus one.
        assert_eq!(t.get(Some("sec"), Some("KEY"), None, 4), 3);
        assert_eq!(&t.bytes(5), b"val\0\xEE");
        // A missing key: the default; a NULL default is "".
        assert_eq!(t.get(Some("sec"), Some("nokey"), Some("dflt"), 100), 4);
        assert_eq!(&t.bytes(5), b"dflt\0");
        assert_eq!(t.get(Some("nosec"), Some("k"), None, 100), 0);
        assert_eq!(&t.bytes(2), b"\0\xEE");
        // Size 0 writes nothing.
        assert_eq!(t.get(Some("sec"), Some("key"), None, 0), 0);
        assert_eq!(&t.bytes(1), b"\xEE");
    }

    #[test]
    fn null_key_and_null_section_list_names() {
        let mut t = T::new();
        t.write(Some("A"), Some("one"), Some("1"));
        t.write(Some("A"), Some("two"), Some("2"));
        t.write(Some("B"), Some("x"), Some("3"));
        assert_eq!(t.get(Some("a"), None, Some("ignored"), 100), 7);
        assert_eq!(&t.bytes(9), b"one\0two\0\0");
        assert_eq!(t.get(None, None, None, 100), 3);
        assert_eq!(&t.bytes(5), b"A\0B\0\0");
        // Too small: cut, two NULs, size - 2.
        assert_eq!(t.get(Some("a"), None, None, 6), 4);
        assert_eq!(&t.bytes(7), b"one\0\0\0\xEE");
        assert_eq!(t.get(Some("a"), None, None, 8), 6);
        assert_eq!(&t.bytes(9), b"one\0tw\0\0\xEE");
        assert_eq!(t.get(Some("a"), None, None, 1), 0);
        assert_eq!(&t.bytes(2), b"\0\xEE");
        // An empty list: two NULs.
        assert_eq!(t.get(Some("none"), None, None, 10), 0);
        assert_eq!(&t.bytes(3), b"\0\0\xEE");
    }

    #[test]
    fn writes_delete_keys_and_sections() {
        let mut t = T::new();
        t.write(Some("S"), Some("a"), Some("1"));
        t.write(Some("S"), Some("b"), Some("2"));
        t.write(Some("s"), Some("A"), Some("3"));
        assert_eq!(t.get(Some("S"), Some("a"), None, 10), 1);
        assert_eq!(&t.bytes(2), b"3\0");
        assert_eq!(t.write(Some("S"), Some("a"), None), 1);
        assert_eq!(t.get(Some("S"), None, None, 10), 1);
        assert_eq!(&t.bytes(3), b"b\0\0");
        assert_eq!(t.write(Some("S"), None, None), 1);
        assert_eq!(t.get(None, None, None, 10), 0);
        assert_eq!(t.write(None, Some("k"), Some("v")), 0);
        assert_eq!(t.write(None, None, None), 1);
        // A bad pointer fails.
        let a = [0x1234_0000, 0, 0];
        assert_eq!(write_profile_string(&mut t.env, &mut t.m, &a).unwrap(), 0);
    }

    #[test]
    fn integers() {
        let mut t = T::new();
        for (k, v) in [
            ("n", "102abc"),
            ("neg", "-5"),
            ("txt", "abc"),
            ("empty", ""),
            ("big", "70000"),
        ] {
            t.write(Some("I"), Some(k), Some(v));
        }
        assert_eq!(t.int("i", "n", 7), 102);
        assert_eq!(t.int("i", "neg", 7), 0);
        assert_eq!(t.int("i", "txt", 7), 0);
        assert_eq!(t.int("i", "empty", 7), 7);
        assert_eq!(t.int("i", "missing", 7), 7);
        assert_eq!(t.int("i", "big", 7), 70000 & 0xFFFF);
    }

    #[test]
    fn private_files_are_separate_and_include_win_ini() {
        let mut t = T::new();
        let file = t.s(Some("my.ini"));
        let (s, k, v) = (t.s(Some("S")), t.s(Some("K")), t.s(Some("private")));
        assert_eq!(
            write_private_profile_string(&mut t.env, &mut t.m, &[s, k, v, file]).unwrap(),
            1
        );
        assert!(
            t.env
                .win16
                .profiles
                .files
                .contains_key("C:\\WINDOWS\\MY.INI")
        );
        assert_eq!(t.get(Some("S"), Some("K"), None, 10), 0);
        let win = t.s(Some("win.ini"));
        let buf = t.buf();
        let a = [s, k, 0, buf, 20, win];
        t.write(Some("S"), Some("K"), Some("public"));
        assert_eq!(
            get_private_profile_string(&mut t.env, &mut t.m, &a).unwrap(),
            6
        );
        let a = [s, k, 0, buf, 20, file];
        assert_eq!(
            get_private_profile_string(&mut t.env, &mut t.m, &a).unwrap(),
            7
        );
        assert_eq!(&t.bytes(8), b"private\0");
        assert_eq!(
            get_private_profile_int(&mut t.env, &mut t.m, &[s, k, 9, file]).unwrap(),
            0
        );
    }

    #[test]
    fn file_names() {
        assert_eq!(file_key(b"app.ini", ""), "C:\\WINDOWS\\APP.INI");
        assert_eq!(file_key(b"c:\\x\\app.ini", ""), "C:\\X\\APP.INI");
        assert_eq!(file_key(b"\\app.ini", "SUB"), "C:\\APP.INI");
        assert_eq!(file_key(b"dir\\app.ini", "SUB"), "C:\\SUB\\DIR\\APP.INI");
        assert_eq!(file_key(b"dir/app.ini", ""), "C:\\DIR\\APP.INI");
        assert_eq!(file_key(b"d:\\app.ini", ""), "D:\\APP.INI");
    }

    #[test]
    fn files_are_read_from_the_sandboxed_drive() {
        let dir = std::env::temp_dir().join(format!("th16-profile-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("WINDOWS")).unwrap();
        std::fs::write(dir.join("WINDOWS").join("APP.INI"), b"[Opt]\r\nLevel=3\r\n").unwrap();
        std::fs::write(dir.join("OWN.INI"), b"[Opt]\r\nLevel=4\r\n").unwrap();
        let mut t = T::new();
        t.env.drive = Some(crate::dos::fs::Drive::new(dir.clone()).unwrap());
        let (s, k) = (t.s(Some("opt")), t.s(Some("level")));
        let app = t.s(Some("app.ini"));
        let own = t.s(Some("C:\\own.ini"));
        assert_eq!(
            get_private_profile_int(&mut t.env, &mut t.m, &[s, k, 0, app]).unwrap(),
            3
        );
        assert_eq!(
            get_private_profile_int(&mut t.env, &mut t.m, &[s, k, 0, own]).unwrap(),
            4
        );
        // Writes go back to the file, comments kept, in WIN.INI's format.
        std::fs::write(
            dir.join("OWN.INI"),
            b"; mine\r\n[Opt]\r\n; the level\r\nLevel=4\r\nName = x\r\n[Other]\r\nA=1\r\n",
        )
        .unwrap();
        let mut t2 = T::new();
        t2.env.drive = Some(crate::dos::fs::Drive::new(dir.clone()).unwrap());
        let (s, k, own) = (
            t2.s(Some("opt")),
            t2.s(Some("level")),
            t2.s(Some("C:\\own.ini")),
        );
        let v = t2.s(Some("9"));
        write_private_profile_string(&mut t2.env, &mut t2.m, &[s, k, v, own]).unwrap();
        assert_eq!(
            get_private_profile_int(&mut t2.env, &mut t2.m, &[s, k, 0, own]).unwrap(),
            9
        );
        assert_eq!(
            String::from_utf8(std::fs::read(dir.join("OWN.INI")).unwrap()).unwrap(),
            "; mine\r\n\r\n[Opt]\r\n; the level\r\nLevel=9\r\nName=x\r\n\r\n[Other]\r\nA=1\r\n"
        );
        // WIN.INI goes to C:\WINDOWS, made when missing.
        std::fs::remove_dir_all(dir.join("WINDOWS")).unwrap();
        let (sec, key, val) = (
            t2.s(Some("Desktop")),
            t2.s(Some("Wallpaper")),
            t2.s(Some("none")),
        );
        write_profile_string(&mut t2.env, &mut t2.m, &[sec, key, val]).unwrap();
        assert_eq!(
            std::fs::read(dir.join("WINDOWS").join("WIN.INI")).unwrap(),
            b"[Desktop]\r\nWallpaper=none\r\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_and_sizes_are_bounded() {
        let mut t = T::new();
        for i in 0..MAX_FILES {
            let f = t.s(Some(&format!("f{i}.ini")));
            let (s, k, v) = (t.s(Some("s")), t.s(Some("k")), t.s(Some("v")));
            assert_eq!(
                write_private_profile_string(&mut t.env, &mut t.m, &[s, k, v, f]).unwrap(),
                1
            );
            t.next = 0x1000;
        }
        let f = t.s(Some("more.ini"));
        let (s, k, v) = (t.s(Some("s")), t.s(Some("k")), t.s(Some("v")));
        assert_eq!(
            write_private_profile_string(&mut t.env, &mut t.m, &[s, k, v, f]).unwrap(),
            0
        );
        // One file cannot grow past 64 KiB.
        let mut t = T::new();
        let big = "x".repeat(0x3000);
        let mut ok = 0;
        for i in 0..8 {
            let key = format!("k{i}");
            if t.write(Some("S"), Some(&key), Some(&big)) == 1 {
                ok += 1;
            }
            t.next = 0x1000;
        }
        assert_eq!(ok, 5);
    }
}
