//! VER: version information from a file's VS_VERSION_INFO resource.
//!
//! GetFileVersionInfoSize and GetFileVersionInfo read the RT_VERSION (16)
//! resource of an NE file on drive C: (found as OpenFile finds a name),
//! and VerQueryValue walks its blocks (Windows 3.1 SDK, "File
//! Installation Library"). A block is a WORD cbBlock, a WORD cbValue, the
//! NUL-terminated key, padding to a 4-byte boundary of the block, the
//! value (cbValue bytes), padding to 4 again, then its children, each a
//! block. `\` names the root's value (VS_FIXEDFILEINFO); `\A\B` the value
//! of child B of child A, keys compared without regard to case. The
//! pointer VerQueryValue returns points into the caller's copy.
//!
//! GetFileResourceSize and GetFileResource read any resource of a file,
//! VerLanguageName names a language id as Windows 3.1's VER.DLL did, and
//! VerFindFile says where a file is and where to install it (the
//! application's directory, or the Windows directory for a shared file).

use crate::loader::ne::{NeImage, ResourceId};
use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "VER",
        2,
        "GETFILERESOURCESIZE",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        get_file_resource_size,
    ),
    Api::new(
        "VER",
        3,
        "GETFILERESOURCE",
        &[Arg::L, Arg::L, Arg::L, Arg::L, Arg::L, Arg::L],
        get_file_resource,
    ),
    Api::new(
        "VER",
        6,
        "GETFILEVERSIONINFOSIZE",
        &[Arg::L, Arg::L],
        get_file_version_info_size,
    ),
    Api::new(
        "VER",
        7,
        "GETFILEVERSIONINFO",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        get_file_version_info,
    ),
    Api::new(
        "VER",
        8,
        "VERFINDFILE",
        &[
            Arg::W,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
            Arg::L,
        ],
        ver_find_file,
    ),
    Api::new(
        "VER",
        10,
        "VERLANGUAGENAME",
        &[Arg::W, Arg::L, Arg::W],
        ver_language_name,
    ),
    Api::new(
        "VER",
        11,
        "VERQUERYVALUE",
        &[Arg::L, Arg::L, Arg::L, Arg::L],
        ver_query_value,
    ),
];

/// RT_VERSION.
pub const RT_VERSION: u16 = 16;
/// The largest file read.
const MAX_FILE: u64 = 16 << 20;

/// The NE image of a file on drive C:, found as OpenFile finds it.
fn image(env: &Env, uc: &Uc<'_>, name: &[u8]) -> Option<NeImage> {
    let d = env.drive.as_ref()?;
    let bare = !name.iter().any(|&c| matches!(c, b'\\' | b'/' | b':'));
    let mut tries = vec![name.to_vec()];
    if bare {
        for dir in ["C:\\WINDOWS\\", "C:\\WINDOWS\\SYSTEM\\", "C:\\"] {
            let mut p = dir.as_bytes().to_vec();
            p.extend_from_slice(name);
            tries.push(p);
        }
    }
    let _ = uc;
    let bytes = tries.iter().find_map(|t| d.read_file(t, MAX_FILE).ok())?;
    NeImage::parse(&bytes).ok()
}

/// A type or name argument: an integer (selector 0) or a string (`#n`
/// counts as the integer n).
fn id_arg(uc: &Uc<'_>, p: u32) -> Option<ResourceId> {
    if farptr::is_int(p) {
        return Some(ResourceId::Int(p as u16));
    }
    let s = farptr::read_cstr(uc, p, 256)?;
    let s = String::from_utf8_lossy(&s).into_owned();
    Some(match s.strip_prefix('#').and_then(|n| n.parse().ok()) {
        Some(n) => ResourceId::Int(n),
        None => ResourceId::Name(s.to_ascii_uppercase()),
    })
}

fn same(a: &ResourceId, b: &ResourceId) -> bool {
    match (a, b) {
        (ResourceId::Int(x), ResourceId::Int(y)) => x == y,
        (ResourceId::Name(x), ResourceId::Name(y)) => x.eq_ignore_ascii_case(y),
        _ => false,
    }
}

/// The first resource of type `ty` (and name `id`, when given): its bytes
/// and file offset.
fn resource(ne: &NeImage, ty: &ResourceId, id: Option<&ResourceId>) -> Option<(Vec<u8>, u64)> {
    let t = ne.resources.iter().find(|t| same(&t.type_id, ty))?;
    let r = t
        .resources
        .iter()
        .find(|r| id.is_none_or(|i| same(&r.id, i)))?;
    Some((r.data.to_vec(), r.file_offset))
}

/// VER.6 GetFileVersionInfoSize(lpszFileName, lpdwHandle): the size of
/// the version resource, 0 when the file has none; *lpdwHandle 0.
pub fn get_file_version_info_size(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(0);
    };
    if a[1] != 0 {
        farptr::write_bytes(uc, a[1], &[0; 4]);
    }
    Ok(image(env, uc, &name)
        .and_then(|ne| resource(&ne, &ResourceId::Int(RT_VERSION), None))
        .map_or(0, |(b, _)| b.len() as u32))
}

/// VER.7 GetFileVersionInfo(lpszFileName, dwHandle, cbBuf, lpvData): the
/// version resource (at most cbBuf bytes); TRUE, FALSE without one.
pub fn get_file_version_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = farptr::read_cstr(uc, a[0], MAX_STRING) else {
        return Ok(0);
    };
    let Some((b, _)) =
        image(env, uc, &name).and_then(|ne| resource(&ne, &ResourceId::Int(RT_VERSION), None))
    else {
        return Ok(0);
    };
    let n = b.len().min(a[2] as usize);
    Ok(u32::from(farptr::write_bytes(uc, a[3], &b[..n])))
}

/// VER.2 GetFileResourceSize(lpszFileName, lpszResType, lpszResID,
/// lpdwFileOffset): the resource's size and (at lpdwFileOffset) its file
/// offset; 0 when there is none.
pub fn get_file_resource_size(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(name), Some(ty)) = (farptr::read_cstr(uc, a[0], MAX_STRING), id_arg(uc, a[1])) else {
        return Ok(0);
    };
    let id = if a[2] == 0 { None } else { id_arg(uc, a[2]) };
    let Some((b, off)) = image(env, uc, &name).and_then(|ne| resource(&ne, &ty, id.as_ref()))
    else {
        return Ok(0);
    };
    if a[3] != 0 {
        farptr::write_bytes(uc, a[3], &(off as u32).to_le_bytes());
    }
    Ok(b.len() as u32)
}

/// VER.3 GetFileResource(lpszFileName, lpszResType, lpszResID,
/// dwFileOffset, dwResLen, lpvData): the resource's bytes (at most
/// dwResLen); TRUE, FALSE when there is none.
pub fn get_file_resource(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(name), Some(ty)) = (farptr::read_cstr(uc, a[0], MAX_STRING), id_arg(uc, a[1])) else {
        return Ok(0);
    };
    let id = if a[2] == 0 { None } else { id_arg(uc, a[2]) };
    let Some((b, _)) = image(env, uc, &name).and_then(|ne| resource(&ne, &ty, id.as_ref())) else {
        return Ok(0);
    };
    let n = b.len().min(a[4] as usize);
    Ok(u32::from(farptr::write_bytes(uc, a[5], &b[..n])))
}

/// A version block's parts: the key, the value's offset and length, the
/// children's offsets, the block's end.
type Block = (Vec<u8>, usize, usize, Vec<usize>, usize);

/// The block at `at` of `data` (module notes).
fn block(data: &[u8], at: usize) -> Option<Block> {
    let word = |o: usize| Some(u16::from_le_bytes([*data.get(o)?, *data.get(o + 1)?]) as usize);
    let len = word(at)?;
    let vlen = word(at + 2)?;
    let end = at.checked_add(len)?.min(data.len());
    if len < 4 {
        return None;
    }
    let key_start = at + 4;
    let key_end = key_start + data.get(key_start..end)?.iter().position(|&c| c == 0)?;
    let key = data[key_start..key_end].to_vec();
    let value = at + ((key_end + 1 - at + 3) & !3);
    let mut child = at + ((value + vlen - at + 3) & !3);
    let mut children = Vec::new();
    while child + 4 <= end {
        let clen = word(child)?;
        if clen < 4 {
            break;
        }
        children.push(child);
        child += (clen + 3) & !3;
    }
    Some((key, value, vlen, children, end))
}

/// The value `path` names (module notes): its offset and length.
pub fn query(data: &[u8], path: &str) -> Option<(usize, usize)> {
    let (_, mut value, mut vlen, mut children, _) = block(data, 0)?;
    for part in path.split('\\').filter(|p| !p.is_empty()) {
        let (_, v, l, c, _) = children.iter().find_map(|&c| {
            let b = block(data, c)?;
            b.0.eq_ignore_ascii_case(part.as_bytes()).then_some(b)
        })?;
        value = v;
        vlen = l;
        children = c;
    }
    Some((value, vlen))
}

/// VER.11 VerQueryValue(lpvBlock, lpszSubBlock, lplpBuffer, lpcb): a far
/// pointer to the value in the block and its length; TRUE, FALSE when the
/// block has no such value.
pub fn ver_query_value(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(len) = farptr::read_u16(uc, a[0]) else {
        return Ok(0);
    };
    let Some(data) = farptr::read_bytes(uc, a[0], usize::from(len)) else {
        return Ok(0);
    };
    let path = farptr::read_cstr(uc, a[1], 256)
        .map(|s| String::from_utf8_lossy(&s).into_owned())
        .unwrap_or_default();
    let Some((off, n)) = query(&data, &path) else {
        return Ok(0);
    };
    let p = farptr::add(a[0], off);
    farptr::write_bytes(uc, a[2], &p.to_le_bytes());
    farptr::write_bytes(uc, a[3], &(n as u16).to_le_bytes());
    Ok(1)
}

/// Windows 3.1's language names.
const LANGUAGES: &[(u16, &str)] = &[
    (0x0000, "Language Neutral"),
    (0x0401, "Arabic"),
    (0x0402, "Bulgarian"),
    (0x0403, "Catalan"),
    (0x0404, "Traditional Chinese"),
    (0x0405, "Czech"),
    (0x0406, "Danish"),
    (0x0407, "German"),
    (0x0408, "Greek"),
    (0x0409, "U.S. English"),
    (0x040A, "Castilian Spanish"),
    (0x040B, "Finnish"),
    (0x040C, "French"),
    (0x040D, "Hebrew"),
    (0x040E, "Hungarian"),
    (0x040F, "Icelandic"),
    (0x0410, "Italian"),
    (0x0411, "Japanese"),
    (0x0412, "Korean"),
    (0x0413, "Dutch"),
    (0x0414, "Norwegian - Bokmal"),
    (0x0415, "Polish"),
    (0x0416, "Brazilian Portuguese"),
    (0x0417, "Rhaeto-Romanic"),
    (0x0418, "Romanian"),
    (0x0419, "Russian"),
    (0x041A, "Croato-Serbian (Latin)"),
    (0x041B, "Slovak"),
    (0x041C, "Albanian"),
    (0x041D, "Swedish"),
    (0x041E, "Thai"),
    (0x041F, "Turkish"),
    (0x0420, "Urdu"),
    (0x0421, "Bahasa"),
    (0x0804, "Simplified Chinese"),
    (0x0807, "Swiss German"),
    (0x0809, "U.K. English"),
    (0x080A, "Mexican Spanish"),
    (0x080C, "Belgian French"),
    (0x0810, "Swiss Italian"),
    (0x0813, "Belgian Dutch"),
    (0x0814, "Norwegian - Nynorsk"),
    (0x0816, "Portuguese"),
    (0x081A, "Serbo-Croatian (Cyrillic)"),
    (0x0C0C, "Canadian French"),
    (0x100C, "Swiss French"),
];

/// VER.10 VerLanguageName(uLang, lpszLang, cbLang): the language's name
/// ("Unknown language" for another id); its length.
pub fn ver_language_name(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let id = a[0] as u16;
    let name = LANGUAGES
        .iter()
        .find(|(l, _)| *l == id)
        .map_or("Unknown language", |(_, n)| n);
    Ok(
        farptr::write_cstr_truncated(uc, a[1], name.as_bytes(), usize::from(a[2] as u16))
            .map_or(0, |n| n as u32),
    )
}

/// VER.8 VerFindFile(fl, szFileName, szWinDir, szAppDir, szCurDir,
/// lpuCurDirLen, szDestDir, lpuDestDirLen): where the file is now (the
/// Windows, system or application directory; empty when nowhere) and where
/// to install it (VFFF_ISSHAREDFILE: the Windows directory, else the
/// application's); VFF_CURNEDEST (1) when they differ,
/// VFF_BUFFTOOSMALL (4) when a buffer is too small.
pub fn ver_find_file(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let read = |uc: &Uc<'_>, p: u32| {
        farptr::read_cstr(uc, p, 256)
            .map(|s| String::from_utf8_lossy(&s).into_owned())
            .unwrap_or_default()
    };
    let file = read(uc, a[1]);
    let win = {
        let w = read(uc, a[2]);
        if w.is_empty() {
            "C:\\WINDOWS".into()
        } else {
            w
        }
    };
    let app = read(uc, a[3]);
    let dirs = [
        win.clone(),
        format!("{}\\SYSTEM", win.trim_end_matches('\\')),
        app.clone(),
    ];
    let cur = dirs
        .iter()
        .find(|d| {
            let p = format!("{}\\{file}", d.trim_end_matches('\\'));
            env.drive.as_ref().is_some_and(|dr| {
                matches!(
                    dr.resolve(p.as_bytes()),
                    Ok(crate::dos::fs::HostPath::File { .. })
                )
            })
        })
        .cloned()
        .unwrap_or_default();
    let dest = if a[0] as u16 & 1 != 0 { win } else { app };
    let mut r = 0;
    if !cur.is_empty() && !cur.eq_ignore_ascii_case(&dest) {
        r |= 1;
    }
    for (s, buf, lenp) in [(&cur, a[4], a[5]), (&dest, a[6], a[7])] {
        let have = farptr::read_u16(uc, lenp).unwrap_or(0);
        farptr::write_bytes(uc, lenp, &(s.len() as u16 + 1).to_le_bytes());
        if usize::from(have) < s.len() + 1 {
            r |= 4;
        }
        if have > 0 {
            farptr::write_cstr_truncated(uc, buf, s.as_bytes(), usize::from(have));
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blk(key: &str, value: &[u8], children: &[Vec<u8>]) -> Vec<u8> {
        let mut b = vec![0u8; 4];
        b.extend_from_slice(key.as_bytes());
        b.push(0);
        while b.len() % 4 != 0 {
            b.push(0);
        }
        b.extend_from_slice(value);
        while b.len() % 4 != 0 {
            b.push(0);
        }
        for c in children {
            b.extend_from_slice(c);
            while b.len() % 4 != 0 {
                b.push(0);
            }
        }
        let n = b.len() as u16;
        b[0..2].copy_from_slice(&n.to_le_bytes());
        b[2..4].copy_from_slice(&(value.len() as u16).to_le_bytes());
        b
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn version_blocks_are_walked() {
        let fixed = [0xBDu8, 0x04, 0xEF, 0xFE, 0, 0, 1, 0];
        let strings = blk(
            "StringFileInfo",
            &[],
            &[blk("040904E4", &[], &[blk("FileVersion", b"1.0\0", &[])])],
        );
        let vars = blk(
            "VarFileInfo",
            &[],
            &[blk("Translation", &[0x09, 0x04, 0xE4, 0x04], &[])],
        );
        let root = blk("VS_VERSION_INFO", &fixed, &[strings, vars]);
        let (o, n) = query(&root, "\\").unwrap();
        assert_eq!(&root[o..o + n], &fixed);
        let (o, n) = query(&root, "\\StringFileInfo\\040904e4\\FileVersion").unwrap();
        assert_eq!(&root[o..o + n], b"1.0\0");
        let (o, n) = query(&root, "\\VarFileInfo\\Translation").unwrap();
        assert_eq!(&root[o..o + n], &[0x09, 0x04, 0xE4, 0x04]);
        assert_eq!(query(&root, "\\NoSuch"), None);
        assert_eq!(query(&[1, 0], "\\"), None);
    }
}
