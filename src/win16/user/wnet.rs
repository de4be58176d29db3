//! USER's network functions (WNet*), on Windows 3.1 without a network:
//! with no network driver loaded, USER answers every one of them itself
//! with WN_NOT_SUPPORTED (1), and WNetGetCaps with 0, no capability
//! (Windows 3.1 SDK, "WNetGetCaps": "If the network does not support the
//! specified capability, the return value is zero"; WINNET.H's codes).
//! Nothing is written through the pointers.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

use Arg::{L, W};

/// WN_NOT_SUPPORTED: the function is not supported (no network).
pub const WN_NOT_SUPPORTED: u32 = 0x0001;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 501, "WNETOPENJOB", &[L, L, W, L], no_network),
    Api::new("USER", 502, "WNETCLOSEJOB", &[W, L, L], no_network),
    Api::new("USER", 503, "WNETABORTJOB", &[L, W], no_network),
    Api::new("USER", 504, "WNETHOLDJOB", &[L, W], no_network),
    Api::new("USER", 505, "WNETRELEASEJOB", &[L, W], no_network),
    Api::new("USER", 506, "WNETCANCELJOB", &[L, W], no_network),
    Api::new("USER", 507, "WNETSETJOBCOPIES", &[L, W, W], no_network),
    Api::new("USER", 508, "WNETWATCHQUEUE", &[W, L, L, W], no_network),
    Api::new("USER", 509, "WNETUNWATCHQUEUE", &[L], no_network),
    Api::new("USER", 510, "WNETLOCKQUEUEDATA", &[L, L, L], no_network),
    Api::new("USER", 511, "WNETUNLOCKQUEUEDATA", &[L], no_network),
    Api::new("USER", 512, "WNETGETCONNECTION", &[L, L, L], no_network),
    Api::new("USER", 513, "WNETGETCAPS", &[W], wnet_get_caps),
    Api::new("USER", 514, "WNETDEVICEMODE", &[W], no_network),
    Api::new("USER", 515, "WNETBROWSEDIALOG", &[W, W, L], no_network),
    Api::new("USER", 516, "WNETGETUSER", &[L, L], no_network),
    Api::new("USER", 517, "WNETADDCONNECTION", &[L, L, L], no_network),
    Api::new("USER", 518, "WNETCANCELCONNECTION", &[L, W], no_network),
    Api::new("USER", 519, "WNETGETERROR", &[L], no_network),
    Api::new("USER", 520, "WNETGETERRORTEXT", &[W, L, L], no_network),
    Api::new("USER", 521, "WNETENABLE", &[], no_network),
    Api::new("USER", 522, "WNETDISABLE", &[], no_network),
    Api::new("USER", 523, "WNETRESTORECONNECTION", &[W, L], no_network),
    Api::new("USER", 524, "WNETWRITEJOB", &[W, L, L], no_network),
    Api::new("USER", 525, "WNETCONNECTDIALOG", &[W, W], no_network),
    Api::new("USER", 526, "WNETDISCONNECTDIALOG", &[W, W], no_network),
    Api::new("USER", 527, "WNETCONNECTIONDIALOG", &[W, W], no_network),
    Api::new("USER", 528, "WNETVIEWQUEUEDIALOG", &[W, L], no_network),
    Api::new(
        "USER",
        529,
        "WNETPROPERTYDIALOG",
        &[W, W, W, L, W],
        no_network,
    ),
    Api::new("USER", 530, "WNETGETDIRECTORYTYPE", &[L, L], no_network),
    Api::new("USER", 531, "WNETDIRECTORYNOTIFY", &[W, L, W], no_network),
    Api::new(
        "USER",
        532,
        "WNETGETPROPERTYTEXT",
        &[W, W, L, L, W, W],
        no_network,
    ),
];

/// Any WNet function but WNetGetCaps: WN_NOT_SUPPORTED.
fn no_network(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(WN_NOT_SUPPORTED)
}

/// USER.513 WNetGetCaps(nIndex): 0 for every index (no network; the
/// WNNC_NET_TYPE index answers WNNC_NET_NONE, which is 0 too).
fn wnet_get_caps(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
