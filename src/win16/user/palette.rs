//! USER's palette functions: SelectPalette (USER.282) and RealizePalette
//! (USER.283). They are USER's exports (Windows 3.1 SDK) and call GDI's
//! GDISelectPalette (GDI.361) and GDIRealizePalette (GDI.362), the palette
//! manager (gdi/palette.rs); what USER adds is which window a DC belongs
//! to and whether that window is in the foreground.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::gdi::palette::{realize_palette, select_palette as gdi_select_palette};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        282,
        "SELECTPALETTE",
        &[Arg::W, Arg::W, Arg::W],
        select_palette,
    ),
    // USER's RealizePalette is GDI's: the palette manager maps the DC's
    // palette.
    Api::new("USER", 283, "REALIZEPALETTE", &[Arg::W], realize_palette),
];

/// USER.282 SelectPalette(hDC, hPalette, bForceBackground) -> the previous
/// palette: GDISelectPalette, in the background also when bForceBackground
/// is FALSE but the DC belongs to a window that is neither the active
/// window nor one of its descendants (Windows 3.1 SDK, SelectPalette: "If
/// bForceBackground is FALSE, the logical palette is a foreground palette
/// when the window has input focus"); a DC of no window (WindowFromDC
/// NULL: a memory DC, the screen's) decides by the argument alone.
pub fn select_palette(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let mut bkg = a[2] as u16 != 0;
    if !bkg {
        let hwnd = super::paint::dc_window(env, a[0] as u16).unwrap_or(0);
        let u = &env.win16.user;
        if hwnd != 0 && hwnd != u.active && !u.is_descendant(u.active, hwnd) {
            bkg = true;
        }
    }
    gdi_select_palette(env, uc, &[a[0], a[1], u32::from(bkg)])
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(super::APIS));
    }
}
