//! INT 21h functions on directories and names: create, remove and change
//! directory (39h-3Bh), the current directory (47h), delete (41h),
//! attributes (43h), find first/next with attributes (4Eh/4Fh), rename
//! (56h) and the canonical name (60h).

use super::{al, path_at, with_drive};
use crate::dos::Env;
use crate::dos::data;
use crate::dos::fs::{self, DosError, HostPath};
use crate::machine::{Cpu, R, Stop, Uc};

/// AH=39h: create the directory DS:DX.
pub fn mkdir(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    with_drive(env, uc, |d, uc, _| d.mkdir(&path_at(uc, ds, dx)))
}

/// AH=3Ah: remove the directory DS:DX.
pub fn rmdir(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    with_drive(env, uc, |d, uc, _| d.rmdir(&path_at(uc, ds, dx)))
}

/// AH=3Bh: change the current directory to DS:DX (and the CDS of C:).
pub fn chdir(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    with_drive(env, uc, |d, uc, _| {
        d.chdir(&path_at(uc, ds, dx))?;
        if uc.mode() == crate::walk::CpuMode::Real {
            data::set_cwd(uc, &d.getcwd());
        }
        Ok(())
    })
}

/// AH=47h: the current directory of drive DL (0 default, 3 = C:) at DS:SI,
/// without drive and leading backslash; AX = 0100h. Error 0Fh for other
/// drives.
pub fn getcwd(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (dl, ds, si) = (uc.reg(R::DX) as u8, uc.reg(R::DS), uc.reg(R::SI));
    with_drive(env, uc, |d, uc, _| {
        if dl != 0 && dl != 3 {
            return Err(DosError::INVALID_DRIVE);
        }
        let mut cwd = d.getcwd().into_bytes();
        cwd.truncate(63);
        cwd.push(0);
        uc.write_seg(ds, si, &cwd)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        uc.set_reg(R::AX, 0x0100).ok();
        Ok(())
    })
}

/// AH=41h: delete the file DS:DX.
pub fn delete(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx) = (uc.reg(R::DS), uc.reg(R::DX));
    with_drive(env, uc, |d, uc, _| d.delete(&path_at(uc, ds, dx)))
}

/// AX=4300h: CX = the attributes of DS:DX (AX too, as DOS leaves them);
/// AX=4301h: set them from CX. Other AL: error 1.
pub fn attributes(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx, cx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::CX));
    let sub = al(uc);
    with_drive(env, uc, |d, uc, _| match sub {
        0 => {
            let a = d.get_attr(&path_at(uc, ds, dx))?;
            uc.set_reg(R::CX, u16::from(a)).ok();
            uc.set_reg(R::AX, u16::from(a)).ok();
            Ok(())
        }
        1 => d.set_attr(&path_at(uc, ds, dx), cx as u8),
        _ => Err(DosError::INVALID_FUNCTION),
    })
}

/// AH=4Eh: find the first match of DS:DX with attributes CX; the DTA gets
/// the search state and the match (attribute at 15h, time 16h, date 18h,
/// size 1Ah, name 1Eh); AX = 0.
pub fn find_first(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx, cx) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::CX));
    let (seg, off) = env.dos.dta;
    with_drive(env, uc, |d, uc, _| {
        let dta = d.find_first_dta(&path_at(uc, ds, dx), cx as u8)?;
        uc.write_seg(seg, off, &dta)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        uc.set_reg(R::AX, 0).ok();
        Ok(())
    })
}

/// AH=4Fh: the next match of the search whose state is in the DTA.
pub fn find_next(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (seg, off) = env.dos.dta;
    with_drive(env, uc, |d, uc, _| {
        let mut cur = [0u8; fs::DTA_LEN];
        uc.read_seg(seg, off, &mut cur)
            .map_err(|_| DosError::NO_MORE_FILES)?;
        let dta = d.find_next_dta(&cur)?;
        uc.write_seg(seg, off, &dta)
            .map_err(|_| DosError::ACCESS_DENIED)?;
        uc.set_reg(R::AX, 0).ok();
        Ok(())
    })
}

/// AH=56h: rename DS:DX to ES:DI.
pub fn rename(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, dx, es, di) = (uc.reg(R::DS), uc.reg(R::DX), uc.reg(R::ES), uc.reg(R::DI));
    with_drive(env, uc, |d, uc, _| {
        let old = path_at(uc, ds, dx);
        let new = path_at(uc, es, di);
        d.rename(&old, &new)
    })
}

/// AH=60h: the canonical full name of DS:SI at ES:DI (`C:\DIR\NAME.EXT`,
/// upper case; a device as `C:/NAME`).
pub fn truename(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let (ds, si, es, di) = (uc.reg(R::DS), uc.reg(R::SI), uc.reg(R::ES), uc.reg(R::DI));
    with_drive(env, uc, |d, uc, _| {
        let p = path_at(uc, ds, si);
        let full = match d.resolve(&p)? {
            HostPath::Device(dev) => format!("C:/{dev}"),
            HostPath::Dir { dos, .. }
            | HostPath::File { dos, .. }
            | HostPath::Missing { dos, .. } => {
                format!("C:{dos}")
            }
        };
        let mut b = full.into_bytes();
        b.truncate(127);
        b.push(0);
        uc.write_seg(es, di, &b)
            .map_err(|_| DosError::ACCESS_DENIED)
    })
}
