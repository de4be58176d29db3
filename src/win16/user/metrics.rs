//! System metrics: GetSystemMetrics.

use crate::env::Env;
use crate::machine::{Stop, Uc};
use crate::win16::api::{Api, Arg};

/// The emulated screen, for default window sizes and GetSystemMetrics.
pub const SCREEN: (i16, i16) = (640, 480);

/// USER.179 GetSystemMetrics(nIndex): a 640x480 VGA screen.
fn get_system_metrics(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match a[0] as u16 {
        0 | 16 => SCREEN.0 as u32,    // SM_CXSCREEN, SM_CXFULLSCREEN
        1 => SCREEN.1 as u32,         // SM_CYSCREEN
        17 => (SCREEN.1 - 19) as u32, // SM_CYFULLSCREEN
        2 | 3 | 20 | 21 => 16,        // scroll bar sizes
        4 => 19,                      // SM_CYCAPTION
        5 | 6 => 1,                   // border
        7 | 8 => 4,                   // dialog frame
        11..=14 => 32,                // icon and cursor sizes
        15 => 18,                     // SM_CYMENU
        32 | 33 => 4,                 // frame
        _ => 0,
    })
}

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    179,
    "GETSYSTEMMETRICS",
    &[Arg::W],
    get_system_metrics,
)];
