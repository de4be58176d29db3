//! KERNEL's directories and drives: the Windows and system directories,
//! temporary files and drive types.
//!
//! Windows lives in `C:\WINDOWS` (system files in `C:\WINDOWS\SYSTEM`) on
//! the sandboxed drive C:, the only drive: a fixed disk (DRIVE_FIXED); any
//! other drive letter names no drive (0).
//!
//! GetTempFileName (Windows 3.1 SDK) makes `~PPPXXXX.TMP` names: up to
//! three characters of the prefix, four upper-case hex digits of the
//! number, in the directory the TEMP environment variable names
//! (`C:\WINDOWS\TEMP` in the default environment, kernel/task.rs; the root
//! of the drive when it is not set). With a number of 0 it picks one
//! itself, from the emulated clock, counting up past names already taken,
//! and creates the (empty) file; the result is the number used.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("KERNEL", 92, "GETTEMPDRIVE", &[Arg::W], get_temp_drive),
    Api::new(
        "KERNEL",
        97,
        "GETTEMPFILENAME",
        &[Arg::W, Arg::L, Arg::W, Arg::L],
        get_temp_file_name,
    ),
    Api::new(
        "KERNEL",
        134,
        "GETWINDOWSDIRECTORY",
        &[Arg::L, Arg::W],
        get_windows_directory,
    ),
    Api::new(
        "KERNEL",
        135,
        "GETSYSTEMDIRECTORY",
        &[Arg::L, Arg::W],
        get_system_directory,
    ),
    Api::new("KERNEL", 136, "GETDRIVETYPE", &[Arg::W], get_drive_type),
];

/// The Windows directory.
pub const WINDOWS_DIR: &str = "C:\\WINDOWS";
/// The system directory.
pub const SYSTEM_DIR: &str = "C:\\WINDOWS\\SYSTEM";
/// GetDriveType's answer for a hard disk.
pub const DRIVE_FIXED: u32 = 3;

/// Copy a directory name as GetWindowsDirectory does: its length without
/// the NUL when it fits, else the size a buffer needs (with the NUL).
fn copy_dir(uc: &mut Uc<'_>, buf: u32, size: u16, dir: &str) -> u32 {
    let n = dir.len() as u32;
    if u32::from(size) <= n {
        return n + 1;
    }
    let mut b = dir.as_bytes().to_vec();
    b.push(0);
    if farptr::write_bytes(uc, buf, &b) {
        n
    } else {
        0
    }
}

/// KERNEL.134 GetWindowsDirectory(lpszSysPath, cbSysPath).
pub fn get_windows_directory(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(copy_dir(uc, a[0], a[1] as u16, WINDOWS_DIR))
}

/// KERNEL.135 GetSystemDirectory(lpszSysPath, cbSysPath).
pub fn get_system_directory(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(copy_dir(uc, a[0], a[1] as u16, SYSTEM_DIR))
}

/// KERNEL.136 GetDriveType(nDrive): DRIVE_FIXED for C: (2), 0 for any
/// other drive.
pub fn get_drive_type(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if a[0] as u16 == 2 { DRIVE_FIXED } else { 0 })
}

/// KERNEL.92 GetTempDrive(chDriveLetter): the drive for temporary files,
/// C:, its letter in AL and ':' in AH.
pub fn get_temp_drive(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(b'C') | u32::from(b':') << 8)
}

/// The directory for temporary files, ending in a backslash (module
/// notes).
fn temp_dir(env: &Env) -> String {
    let vars = crate::win16::kernel::task::environment(env);
    match vars.iter().find(|(k, _)| k.eq_ignore_ascii_case("TEMP")) {
        Some((_, v)) if !v.trim().is_empty() => {
            let v = v.trim().trim_end_matches('\\').to_ascii_uppercase();
            if v.len() >= 2 && v.as_bytes()[1] == b':' {
                format!("{v}\\")
            } else {
                format!("C:{v}\\")
            }
        }
        _ => "C:\\".into(),
    }
}

/// A temporary file's name (module notes).
pub fn temp_name(dir: &str, prefix: &[u8], n: u16) -> String {
    let p: String = prefix
        .iter()
        .take(3)
        .map(|&c| char::from(c.to_ascii_uppercase()))
        .collect();
    format!("{dir}~{p}{n:04X}.TMP")
}

/// KERNEL.97 GetTempFileName(bDriveLetter, lpszPrefixString, uUnique,
/// lpszTempFileName) (module notes): the number in the name; 0 when no
/// file could be made.
pub fn get_temp_file_name(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let prefix = farptr::read_cstr(uc, a[1], MAX_STRING).unwrap_or_default();
    let unique = a[2] as u16;
    let dir = temp_dir(env);
    if unique != 0 {
        let name = temp_name(&dir, &prefix, unique);
        farptr::write_cstr_truncated(uc, a[3], name.as_bytes(), 144);
        return Ok(u32::from(unique));
    }
    let insns = crate::machine::time::observe(uc);
    let start = (env.win16.system.tick_ms(insns) as u16)
        .wrapping_add(env.win16.kernel.temp_files)
        .max(1);
    env.win16.kernel.temp_files = env.win16.kernel.temp_files.wrapping_add(1);
    let Some(d) = env.drive.as_mut() else {
        return Ok(0);
    };
    for k in 0..0x1000u16 {
        let n = start.wrapping_add(k).max(1);
        let name = temp_name(&dir, &prefix, n);
        match d.create_new(name.as_bytes(), 0) {
            Ok(h) => {
                let _ = d.close(h);
                farptr::write_cstr_truncated(uc, a[3], name.as_bytes(), 144);
                return Ok(u32::from(n));
            }
            Err(crate::dos::fs::DosError::FILE_EXISTS) => continue,
            Err(_) => return Ok(0),
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{Cpu, R};
    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn directories_and_temporary_names() {
        let (mut m, mut env, _) = kernsvc();
        let ds = m.reg(R::DS);
        let buf = farptr::make(ds, 0x300);
        assert_eq!(
            get_windows_directory(&mut env, &mut m, &[buf, 64]).unwrap(),
            10
        );
        assert_eq!(farptr::read_cstr(&m, buf, 64).unwrap(), b"C:\\WINDOWS");
        assert_eq!(
            get_windows_directory(&mut env, &mut m, &[buf, 10]).unwrap(),
            11
        );
        assert_eq!(
            get_system_directory(&mut env, &mut m, &[buf, 64]).unwrap(),
            17
        );
        assert_eq!(get_drive_type(&mut env, &mut m, &[2]).unwrap(), 3);
        assert_eq!(get_drive_type(&mut env, &mut m, &[0]).unwrap(), 0);
        assert_eq!(get_temp_drive(&mut env, &mut m, &[0]).unwrap() & 0xFF, 0x43);
        assert_eq!(temp_name("C:\\", b"abcd", 0x1F), "C:\\~ABC001F.TMP");
        m.write_seg(ds, 0x280, b"xy\0").unwrap();
        let pre = farptr::make(ds, 0x280);
        assert_eq!(
            get_temp_file_name(&mut env, &mut m, &[0, pre, 0x2A, buf]).unwrap(),
            0x2A
        );
        // TEMP is C:\WINDOWS\TEMP on a fresh Windows 3.1 (task.rs).
        assert_eq!(
            farptr::read_cstr(&m, buf, 64).unwrap(),
            b"C:\\WINDOWS\\TEMP\\~XY002A.TMP"
        );
    }
}
