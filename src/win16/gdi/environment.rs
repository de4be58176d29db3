//! Device environments: GDI's copy, per output port, of the data a printer
//! driver keeps for the device on that port (its DEVMODE, device name
//! first), which GDI hands the driver when a DC is made for that port
//! (Windows 3.1 SDK, GetEnvironment and SetEnvironment).
//!
//! - `SetEnvironment(lpPortName, lpEnviron, nCount)` replaces the port's
//!   environment with `nCount` bytes and returns how many were copied;
//!   `nCount` 0 deletes it and returns -1; 0 on an error (an unreadable
//!   name or buffer, or no room for another port).
//! - `GetEnvironment(lpPortName, lpEnviron, nMaxCount)` copies at most
//!   `nMaxCount` bytes of it and returns how many; with a NULL
//!   `lpEnviron` it returns the environment's size; 0 when the port has
//!   none.
//!
//! Port names compare without regard to case or a trailing colon
//! (`LPT1:` and `lpt1` are one port). The environments last for the run,
//! as they lasted for the Windows session; the run starts with none (no
//! printer driver has set one).

use std::collections::HashMap;

use super::{Env, Stop, Uc};
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;

/// The functions of this file.
pub static APIS: &[Api] = &[
    Api::new(
        "GDI",
        132,
        "SETENVIRONMENT",
        &[Arg::L, Arg::L, Arg::W],
        set_environment,
    ),
    Api::new(
        "GDI",
        133,
        "GETENVIRONMENT",
        &[Arg::L, Arg::L, Arg::W],
        get_environment,
    ),
];

/// At most this many ports hold an environment (each at most 64 KiB).
pub const MAX_PORTS: usize = 64;

/// The environments by port.
#[derive(Debug, Default, Clone)]
pub struct Environments {
    by_port: HashMap<String, Vec<u8>>,
}

impl Environments {
    /// The port's key: upper case, without a trailing colon.
    fn key(port: &[u8]) -> String {
        let s = String::from_utf8_lossy(port).to_ascii_uppercase();
        s.trim_end_matches(':').to_string()
    }

    /// Set (or, with no bytes, delete) a port's environment; false when
    /// there is no room for another port.
    pub fn set(&mut self, port: &[u8], data: &[u8]) -> bool {
        let k = Self::key(port);
        if data.is_empty() {
            self.by_port.remove(&k);
            return true;
        }
        if !self.by_port.contains_key(&k) && self.by_port.len() >= MAX_PORTS {
            return false;
        }
        self.by_port.insert(k, data.to_vec());
        true
    }

    /// A port's environment.
    pub fn get(&self, port: &[u8]) -> Option<&[u8]> {
        self.by_port.get(&Self::key(port)).map(Vec::as_slice)
    }
}

/// GDI.132 SetEnvironment(lpPortName, lpEnviron, nCount) (module doc).
fn set_environment(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(port) = farptr::read_cstr(uc, a[0], 128).filter(|p| !p.is_empty()) else {
        return Ok(0);
    };
    let n = a[2] as u16;
    if n == 0 {
        env.win16.gdi.environments.set(&port, &[]);
        return Ok(0xFFFF);
    }
    let Some(data) = farptr::read_bytes(uc, a[1], usize::from(n)) else {
        return Ok(0);
    };
    Ok(if env.win16.gdi.environments.set(&port, &data) {
        u32::from(n)
    } else {
        0
    })
}

/// GDI.133 GetEnvironment(lpPortName, lpEnviron, nMaxCount) (module doc).
fn get_environment(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(port) = farptr::read_cstr(uc, a[0], 128).filter(|p| !p.is_empty()) else {
        return Ok(0);
    };
    let Some(data) = env.win16.gdi.environments.get(&port).map(<[u8]>::to_vec) else {
        return Ok(0);
    };
    if a[1] == 0 {
        return Ok(data.len() as u32);
    }
    let n = data.len().min(usize::from(a[2] as u16));
    Ok(if farptr::write_bytes(uc, a[1], &data[..n]) {
        n as u32
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_compare_without_case_or_colon() {
        let mut e = Environments::default();
        assert!(e.set(b"LPT1:", b"PCL / HP LaserJet\0"));
        assert_eq!(e.get(b"lpt1"), Some(&b"PCL / HP LaserJet\0"[..]));
        assert!(e.get(b"LPT2:").is_none());
        assert!(e.set(b"lpt1", b""));
        assert!(e.get(b"LPT1:").is_none());
    }

    #[test]
    fn ports_are_bounded() {
        let mut e = Environments::default();
        for i in 0..MAX_PORTS {
            assert!(e.set(format!("COM{i}").as_bytes(), b"x"));
        }
        assert!(!e.set(b"FILE:", b"x"));
        assert!(e.set(b"COM0", b"y"));
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
