//! USER.175 LoadBitmap: a module's bitmap resource (RT_BITMAP, a packed
//! DIB) becomes a GDI bitmap, a new one per call, so a program can select
//! it into a DC and blit it; hInstance NULL names one of USER's predefined
//! bitmaps (OBM_*), which gets a handle of resource.rs's (no GDI object
//! yet). LoadBitmap is USER's (Windows 3.1 SDK: USER.EXE exports it),
//! reading the resource through KERNEL (resource.rs) and making the
//! bitmap through GDI, the tiers below it.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::NameArg;
use crate::win16::resource::{RT_BITMAP, STOCK_BITMAPS, find, image, load};

/// The functions this file implements.
pub static APIS: &[Api] = &[Api::new(
    "USER",
    175,
    "LOADBITMAP",
    &[Arg::W, Arg::L],
    load_bitmap,
)];

/// USER.175 LoadBitmap(hInstance, lpszBitmap).
pub fn load_bitmap(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[0] as u16 != 0 {
        let Some(name) = NameArg::read(uc, a[1]) else {
            return Ok(0);
        };
        let packed = image(env, a[0] as u16)
            .and_then(|(_, ne)| find(ne, &name, &NameArg::Int(RT_BITMAP)))
            .map(|(_, r)| r.data.to_vec());
        return Ok(packed.map_or(0, |p| {
            u32::from(crate::win16::gdi::blit::bitmap_from_packed_dib(env, uc, &p))
        }));
    }
    Ok(load(env, uc, a, &[RT_BITMAP], |id| {
        STOCK_BITMAPS.contains(&id)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn load_bitmap_makes_a_gdi_bitmap() {
        let (mut m, mut env, _) = crate::win16::resource::tests::setup();
        let h1 = load_bitmap(&mut env, &mut m, &[0x222E, 5]).unwrap() as u16;
        let h2 = load_bitmap(&mut env, &mut m, &[0x222E, 5]).unwrap() as u16;
        assert_ne!(h1, h2, "a new bitmap per call");
        let bm = env.win16.gdi.objects.bitmap(h1).unwrap();
        assert_eq!((bm.surface.width, bm.surface.height), (2, 1));
        // VGA indices: 9 bright red, 12 bright blue.
        assert_eq!(bm.surface.get(0, 0), Some(9));
        assert_eq!(bm.surface.get(1, 0), Some(12));
        assert_eq!(load_bitmap(&mut env, &mut m, &[0x222E, 6]).unwrap(), 0);
    }

    /// hInstance NULL: a predefined bitmap (OBM_CLOSE, 32754) has a
    /// handle, an id outside OBM_* none.
    #[test]
    fn predefined_bitmaps_have_handles() {
        let (mut m, mut env, _) = crate::win16::resource::tests::setup();
        assert_ne!(load_bitmap(&mut env, &mut m, &[0, 32754]).unwrap(), 0);
        assert_eq!(load_bitmap(&mut env, &mut m, &[0, 1]).unwrap(), 0);
    }
}
