//! Logical coordinates: mapping modes, the window and the viewport.
//!
//! GDI maps a logical point to a device point with (SDK, "Transformation
//! equations"):
//!
//! ```text
//! Dx = (Lx − xWO) × xVE / xWE + xVO        Lx = (Dx − xVO) × xWE / xVE + xWO
//! ```
//!
//! where the product and quotient are MulDiv's: computed in 32 bits and
//! rounded to the nearest integer, halves away from zero (Wine's 16-bit
//! GDI, dlls/gdi.exe16, computes LPtoDP16/DPtoLP16 exactly so).
//!
//! The eight mapping modes (SetMapMode): MM_TEXT (1, one unit a pixel, y
//! down), MM_LOMETRIC (2, 0.1 mm), MM_HIMETRIC (3, 0.01 mm), MM_LOENGLISH
//! (4, 0.01 inch), MM_HIENGLISH (5, 0.001 inch), MM_TWIPS (6, 1/1440 inch)
//! — all five with y up, their extents fixed by the device's GDIINFO
//! (devcaps.rs) — MM_ISOTROPIC (7) and MM_ANISOTROPIC (8), whose extents
//! the program sets. Setting a mode resets nothing else (origins stay);
//! MM_ISOTROPIC starts from MM_LOMETRIC's extents, MM_ANISOTROPIC keeps the
//! current ones. Window and viewport extents can only be changed in those
//! two modes (elsewhere the calls succeed and change nothing).
//!
//! ISOTROPIC keeps one logical unit the same physical size on both axes:
//! after every change of an extent GDI shrinks the viewport extent of the
//! axis whose units came out larger, to the other's scale (Wine's
//! MAPPING_FixIsotropic states the computation: compare
//! |VE × size_mm / (res × WE)| on both axes, scale the larger axis's
//! viewport extent by the ratio, rounded, never to 0).

use super::devcaps::{Caps, idx};
use crate::win16::geom::Point;

pub const MM_TEXT: u16 = 1;
pub const MM_LOMETRIC: u16 = 2;
pub const MM_TWIPS: u16 = 6;
pub const MM_ISOTROPIC: u16 = 7;
pub const MM_ANISOTROPIC: u16 = 8;

/// MulDiv(a, b, c): a×b/c rounded to nearest, halves away from zero; −1
/// when c is 0 (KERNEL's and Wine's MulDiv).
pub fn mul_div(a: i32, b: i32, c: i32) -> i32 {
    if c == 0 {
        return -1;
    }
    let (mut a, mut c) = (i64::from(a), i64::from(c));
    if c < 0 {
        a = -a;
        c = -c;
    }
    let p = a * i64::from(b);
    let r = if p >= 0 {
        (p + c / 2) / c
    } else {
        (p - c / 2) / c
    };
    r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A DC's mapping state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    pub mode: u16,
    pub win_org: Point,
    pub win_ext: (i32, i32),
    pub vp_org: Point,
    pub vp_ext: (i32, i32),
}

impl Default for Mapping {
    fn default() -> Self {
        Mapping {
            mode: MM_TEXT,
            win_org: Point::new(0, 0),
            win_ext: (1, 1),
            vp_org: Point::new(0, 0),
            vp_ext: (1, 1),
        }
    }
}

impl Mapping {
    /// Logical → device (DC-relative) point.
    pub fn lp_to_dp(&self, p: Point) -> Point {
        if self.is_identity_scale() {
            return Point::new(
                p.x.saturating_sub(self.win_org.x)
                    .saturating_add(self.vp_org.x),
                p.y.saturating_sub(self.win_org.y)
                    .saturating_add(self.vp_org.y),
            );
        }
        Point::new(
            mul_div(
                p.x.saturating_sub(self.win_org.x),
                self.vp_ext.0,
                self.win_ext.0,
            )
            .saturating_add(self.vp_org.x),
            mul_div(
                p.y.saturating_sub(self.win_org.y),
                self.vp_ext.1,
                self.win_ext.1,
            )
            .saturating_add(self.vp_org.y),
        )
    }

    /// Device → logical point.
    pub fn dp_to_lp(&self, p: Point) -> Point {
        if self.is_identity_scale() {
            return Point::new(
                p.x.saturating_sub(self.vp_org.x)
                    .saturating_add(self.win_org.x),
                p.y.saturating_sub(self.vp_org.y)
                    .saturating_add(self.win_org.y),
            );
        }
        Point::new(
            mul_div(
                p.x.saturating_sub(self.vp_org.x),
                self.win_ext.0,
                self.vp_ext.0,
            )
            .saturating_add(self.win_org.x),
            mul_div(
                p.y.saturating_sub(self.vp_org.y),
                self.win_ext.1,
                self.vp_ext.1,
            )
            .saturating_add(self.win_org.y),
        )
    }

    fn is_identity_scale(&self) -> bool {
        self.mode == MM_TEXT || (self.vp_ext == self.win_ext)
    }

    /// A logical width as a device width (its magnitude: pen widths,
    /// RoundRect's corner ellipse).
    pub fn width_to_device(&self, w: i32) -> i32 {
        if self.is_identity_scale() {
            return w.abs();
        }
        mul_div(w, self.vp_ext.0, self.win_ext.0).abs()
    }

    /// A logical height as a device height (magnitude).
    pub fn height_to_device(&self, h: i32) -> i32 {
        if self.is_identity_scale() {
            return h.abs();
        }
        mul_div(h, self.vp_ext.1, self.win_ext.1).abs()
    }

    /// Does the mapping mirror x or y (extents of opposite signs)?
    pub fn flips(&self) -> (bool, bool) {
        (
            (self.vp_ext.0 < 0) != (self.win_ext.0 < 0),
            (self.vp_ext.1 < 0) != (self.win_ext.1 < 0),
        )
    }

    /// SetMapMode: the previous mode; an unknown mode changes nothing and
    /// returns 0.
    pub fn set_mode(&mut self, mode: u16, caps: &Caps) -> u16 {
        let prev = self.mode;
        match mode {
            MM_TEXT => {
                self.win_ext = (1, 1);
                self.vp_ext = (1, 1);
            }
            2..=6 => {
                let (wx, wy, vx, vy) = caps.mapping(mode).unwrap_or((1, 1, 1, 1));
                self.win_ext = (wx, wy);
                self.vp_ext = (vx, vy);
            }
            MM_ISOTROPIC => {
                let (wx, wy, vx, vy) = caps.mapping(MM_LOMETRIC).unwrap_or((1, 1, 1, 1));
                self.win_ext = (wx, wy);
                self.vp_ext = (vx, vy);
            }
            MM_ANISOTROPIC => {}
            _ => return 0,
        }
        self.mode = mode;
        prev
    }

    /// Can the extents be changed (ISOTROPIC or ANISOTROPIC)?
    pub fn extents_settable(&self) -> bool {
        self.mode == MM_ISOTROPIC || self.mode == MM_ANISOTROPIC
    }

    /// SetWindowExt's change (the caller checks the mode and zero).
    pub fn set_window_ext(&mut self, x: i32, y: i32, caps: &Caps) {
        self.win_ext = (x, y);
        if self.mode == MM_ISOTROPIC {
            self.fix_isotropic(caps);
        }
    }

    /// SetViewportExt's change.
    pub fn set_viewport_ext(&mut self, x: i32, y: i32, caps: &Caps) {
        self.vp_ext = (x, y);
        if self.mode == MM_ISOTROPIC {
            self.fix_isotropic(caps);
        }
    }

    /// ISOTROPIC's adjustment (module doc).
    pub fn fix_isotropic(&mut self, caps: &Caps) {
        let (hs, vs) = (
            f64::from(caps.get(idx::HORZSIZE)),
            f64::from(caps.get(idx::VERTSIZE)),
        );
        let (hr, vr) = (
            f64::from(caps.get(idx::HORZRES)),
            f64::from(caps.get(idx::VERTRES)),
        );
        if self.win_ext.0 == 0 || self.win_ext.1 == 0 || hr == 0.0 || vr == 0.0 {
            return;
        }
        let xdim = (f64::from(self.vp_ext.0) * hs / (hr * f64::from(self.win_ext.0))).abs();
        let ydim = (f64::from(self.vp_ext.1) * vs / (vr * f64::from(self.win_ext.1))).abs();
        if xdim == 0.0 || ydim == 0.0 {
            return;
        }
        if xdim > ydim {
            let min = if self.vp_ext.0 >= 0 { 1 } else { -1 };
            let v = (f64::from(self.vp_ext.0) * ydim / xdim + 0.5).floor() as i32;
            self.vp_ext.0 = if v == 0 { min } else { v };
        } else {
            let min = if self.vp_ext.1 >= 0 { 1 } else { -1 };
            let v = (f64::from(self.vp_ext.1) * xdim / ydim + 0.5).floor() as i32;
            self.vp_ext.1 = if v == 0 { min } else { v };
        }
    }
}

// ---------------------------------------------------------------------
// The calls.

use super::{Env, Stop, Uc, arg_h, arg_i, pack_point, read_points, write_point};
use crate::win16::api::{Api, Arg};

/// Run `f` on DC `a0`'s mapping and its device's GDIINFO.
fn with_map<R>(env: &mut Env, hdc: u32, f: impl FnOnce(&mut Mapping, &Caps) -> R) -> Option<R> {
    let d = env.win16.gdi.dc_mut(arg_h(hdc))?;
    let caps = d.caps();
    Some(f(&mut d.state.map, &caps))
}

fn pack_ext(e: (i32, i32)) -> u32 {
    pack_point(Point::new(e.0, e.1))
}

/// GDI.3 SetMapMode(hDC, fnMapMode) -> the previous mode (0 on failure).
fn set_map_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_map(env, a[0], |m, c| u32::from(m.set_mode(a[1] as u16, c))).unwrap_or(0))
}

/// GDI.81 GetMapMode(hDC).
fn get_map_mode(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(with_map(env, a[0], |m, _| u32::from(m.mode)).unwrap_or(0))
}

/// Which of the four origins and extents a call changes.
#[derive(Clone, Copy)]
enum Which {
    WinOrg,
    WinExt,
    VpOrg,
    VpExt,
}

/// Set an origin or extent: the previous value; extents only in the two
/// settable modes (elsewhere nothing changes), never to 0 (failure).
fn set_which(m: &mut Mapping, c: &Caps, w: Which, x: i32, y: i32) -> Option<(i32, i32)> {
    match w {
        Which::WinOrg => {
            let p = m.win_org;
            m.win_org = Point::new(x, y);
            Some((p.x, p.y))
        }
        Which::VpOrg => {
            let p = m.vp_org;
            m.vp_org = Point::new(x, y);
            Some((p.x, p.y))
        }
        Which::WinExt | Which::VpExt => {
            let prev = if matches!(w, Which::WinExt) {
                m.win_ext
            } else {
                m.vp_ext
            };
            if !m.extents_settable() {
                return Some(prev);
            }
            if x == 0 || y == 0 {
                return None;
            }
            if matches!(w, Which::WinExt) {
                m.set_window_ext(x, y, c);
            } else {
                m.set_viewport_ext(x, y, c);
            }
            Some(prev)
        }
    }
}

fn get_which(m: &Mapping, w: Which) -> (i32, i32) {
    match w {
        Which::WinOrg => (m.win_org.x, m.win_org.y),
        Which::VpOrg => (m.vp_org.x, m.vp_org.y),
        Which::WinExt => m.win_ext,
        Which::VpExt => m.vp_ext,
    }
}

/// What a call does to an origin or extent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    /// SetXxx(hDC, x, y[, lpPrev]).
    Set,
    /// GetXxx(hDC[, lpOut]).
    Get,
    /// OffsetXxxOrg(hDC, dx, dy[, lpPrev]).
    Offset,
    /// ScaleXxxExt(hDC, xNum, xDenom, yNum, yDenom[, lpPrev]).
    Scale,
}

/// One origin/extent function: `op` on `w` of DC `a[0]`. The Windows 3.0
/// form (`ex` false) returns the value (the previous one, or the current
/// for Get) packed in DX:AX, 0 on failure; the Ex form returns TRUE and
/// writes the value at its last argument, a far pointer that Set, Offset
/// and Scale may leave NULL and Get may not (FALSE when it cannot be
/// written).
fn mapping_call(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], op: Op, w: Which, ex: bool) -> u32 {
    let i = |k: usize| arg_i(a[k]);
    let (value, out) = match op {
        Op::Set => (
            with_map(env, a[0], |m, c| set_which(m, c, w, i(1), i(2))).flatten(),
            3,
        ),
        Op::Get => (with_map(env, a[0], |m, _| get_which(m, w)), 1),
        Op::Offset => (
            with_map(env, a[0], |m, _| offset_which(m, w, i(1), i(2))),
            3,
        ),
        Op::Scale => (
            with_map(env, a[0], |m, c| {
                scale_which(m, c, w, i(1), i(2), i(3), i(4))
            })
            .flatten(),
            5,
        ),
    };
    let Some(v) = value else {
        return 0;
    };
    if !ex {
        return pack_ext(v);
    }
    let at = Point::new(v.0, v.1);
    if op == Op::Get {
        return u32::from(write_point(uc, a[out], at));
    }
    if a[out] != 0 {
        write_point(uc, a[out], at);
    }
    1
}

/// Offset an origin by (dx, dy): the previous origin.
fn offset_which(m: &mut Mapping, w: Which, dx: i32, dy: i32) -> (i32, i32) {
    let o = if matches!(w, Which::WinOrg) {
        &mut m.win_org
    } else {
        &mut m.vp_org
    };
    let prev = (o.x, o.y);
    // Origins are 16-bit in Windows 3.1: keep them in range.
    let c = |v: i32, d: i32| v.saturating_add(d).clamp(-32768, 32767);
    *o = Point::new(c(o.x, dx), c(o.y, dy));
    prev
}

/// Scale an extent: x·xNum/xDenom, y·yNum/yDenom (integer division as
/// GDI's, then the ISOTROPIC adjustment); only in the settable modes. The
/// previous extent; None for a zero denominator or result.
fn scale_which(
    m: &mut Mapping,
    c: &Caps,
    w: Which,
    xn: i32,
    xd: i32,
    yn: i32,
    yd: i32,
) -> Option<(i32, i32)> {
    let prev = get_which(m, w);
    if !m.extents_settable() {
        return Some(prev);
    }
    if xd == 0 || yd == 0 {
        return None;
    }
    // Extents are 16-bit in Windows 3.1: the product in 32 bits, the
    // result kept in range.
    let x = (i64::from(prev.0) * i64::from(xn) / i64::from(xd)).clamp(-32768, 32767) as i32;
    let y = (i64::from(prev.1) * i64::from(yn) / i64::from(yd)).clamp(-32768, 32767) as i32;
    if x == 0 || y == 0 {
        return None;
    }
    if matches!(w, Which::WinExt) {
        m.set_window_ext(x, y, c);
    } else {
        m.set_viewport_ext(x, y, c);
    }
    Some(prev)
}

/// GDI.11 SetWindowOrg(hDC, x, y) -> the previous origin.
fn set_window_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::WinOrg, false))
}
/// GDI.12 SetWindowExt(hDC, x, y) -> the previous extent.
fn set_window_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::WinExt, false))
}
/// GDI.13 SetViewportOrg(hDC, x, y).
fn set_viewport_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::VpOrg, false))
}
/// GDI.14 SetViewportExt(hDC, x, y).
fn set_viewport_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::VpExt, false))
}
/// GDI.482 SetWindowOrgEx(hDC, x, y, lpPoint) -> BOOL.
fn set_window_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::WinOrg, true))
}
/// GDI.481 SetWindowExtEx(hDC, x, y, lpSize) -> BOOL.
fn set_window_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::WinExt, true))
}
/// GDI.480 SetViewportOrgEx(hDC, x, y, lpPoint) -> BOOL.
fn set_viewport_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::VpOrg, true))
}
/// GDI.479 SetViewportExtEx(hDC, x, y, lpSize) -> BOOL.
fn set_viewport_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Set, Which::VpExt, true))
}
/// GDI.97 GetWindowOrg(hDC).
fn get_window_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::WinOrg, false))
}
/// GDI.96 GetWindowExt(hDC).
fn get_window_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::WinExt, false))
}
/// GDI.95 GetViewportOrg(hDC).
fn get_viewport_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::VpOrg, false))
}
/// GDI.94 GetViewportExt(hDC).
fn get_viewport_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::VpExt, false))
}
/// GDI.475 GetWindowOrgEx(hDC, lpPoint).
fn get_window_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::WinOrg, true))
}
/// GDI.474 GetWindowExtEx(hDC, lpSize).
fn get_window_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::WinExt, true))
}
/// GDI.473 GetViewportOrgEx(hDC, lpPoint).
fn get_viewport_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::VpOrg, true))
}
/// GDI.472 GetViewportExtEx(hDC, lpSize).
fn get_viewport_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Get, Which::VpExt, true))
}

/// GDI.15 OffsetWindowOrg(hDC, dx, dy) -> the previous origin.
fn offset_window_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Offset, Which::WinOrg, false))
}
/// GDI.17 OffsetViewportOrg(hDC, dx, dy).
fn offset_viewport_org(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Offset, Which::VpOrg, false))
}
/// GDI.477 OffsetWindowOrgEx(hDC, dx, dy, lpPoint) -> BOOL.
fn offset_window_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Offset, Which::WinOrg, true))
}
/// GDI.476 OffsetViewportOrgEx(hDC, dx, dy, lpPoint) -> BOOL.
fn offset_viewport_org_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Offset, Which::VpOrg, true))
}

/// GDI.16 ScaleWindowExt(hDC, xNum, xDenom, yNum, yDenom) -> the previous
/// extent.
fn scale_window_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Scale, Which::WinExt, false))
}
/// GDI.18 ScaleViewportExt(hDC, xNum, xDenom, yNum, yDenom).
fn scale_viewport_ext(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Scale, Which::VpExt, false))
}
/// GDI.485 ScaleWindowExtEx(hDC, xNum, xDenom, yNum, yDenom, lpSize).
fn scale_window_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Scale, Which::WinExt, true))
}
/// GDI.484 ScaleViewportExtEx(hDC, xNum, xDenom, yNum, yDenom, lpSize).
fn scale_viewport_ext_ex(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(mapping_call(env, uc, a, Op::Scale, Which::VpExt, true))
}

fn convert_points(env: &mut Env, uc: &mut Uc<'_>, a: &[u32], to_device: bool) -> u32 {
    let n = arg_i(a[2]);
    if n < 0 {
        return 0;
    }
    let Some(pts) = read_points(uc, a[1], n as usize) else {
        return 0;
    };
    let Some(out) = with_map(env, a[0], |m, _| {
        pts.iter()
            .map(|&p| {
                if to_device {
                    m.lp_to_dp(p)
                } else {
                    m.dp_to_lp(p)
                }
            })
            .collect::<Vec<Point>>()
    }) else {
        return 0;
    };
    let bytes: Vec<u8> = out.iter().flat_map(|p| p.to_bytes()).collect();
    u32::from(super::write_huge(uc, a[1], &bytes))
}

/// GDI.99 LPtoDP(hDC, lpPoints, nCount) -> BOOL.
fn lp_to_dp(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert_points(env, uc, a, true))
}

/// GDI.67 DPtoLP(hDC, lpPoints, nCount) -> BOOL.
fn dp_to_lp(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(convert_points(env, uc, a, false))
}

/// GDI.128 MulDiv(nNumber, nNumerator, nDenominator): 16-bit, rounded;
/// −32768 when the denominator is 0 or the result overflows (Wine's
/// MulDiv16).
fn mul_div16(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (n, num, den) = (arg_i(a[0]), arg_i(a[1]), arg_i(a[2]));
    if den == 0 {
        return Ok(0x8000);
    }
    let r = mul_div(n, num, den);
    if !(-32768..=32767).contains(&r) {
        return Ok(0x8000);
    }
    Ok(u32::from(r as i16 as u16))
}

pub static APIS: &[Api] = &[
    Api::new("GDI", 3, "SETMAPMODE", &[Arg::W, Arg::W], set_map_mode),
    Api::new(
        "GDI",
        11,
        "SETWINDOWORG",
        &[Arg::W, Arg::W, Arg::W],
        set_window_org,
    ),
    Api::new(
        "GDI",
        12,
        "SETWINDOWEXT",
        &[Arg::W, Arg::W, Arg::W],
        set_window_ext,
    ),
    Api::new(
        "GDI",
        13,
        "SETVIEWPORTORG",
        &[Arg::W, Arg::W, Arg::W],
        set_viewport_org,
    ),
    Api::new(
        "GDI",
        14,
        "SETVIEWPORTEXT",
        &[Arg::W, Arg::W, Arg::W],
        set_viewport_ext,
    ),
    Api::new(
        "GDI",
        15,
        "OFFSETWINDOWORG",
        &[Arg::W, Arg::W, Arg::W],
        offset_window_org,
    ),
    Api::new(
        "GDI",
        16,
        "SCALEWINDOWEXT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        scale_window_ext,
    ),
    Api::new(
        "GDI",
        17,
        "OFFSETVIEWPORTORG",
        &[Arg::W, Arg::W, Arg::W],
        offset_viewport_org,
    ),
    Api::new(
        "GDI",
        18,
        "SCALEVIEWPORTEXT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        scale_viewport_ext,
    ),
    Api::new("GDI", 67, "DPTOLP", &[Arg::W, Arg::L, Arg::W], dp_to_lp),
    Api::new("GDI", 81, "GETMAPMODE", &[Arg::W], get_map_mode),
    Api::new("GDI", 94, "GETVIEWPORTEXT", &[Arg::W], get_viewport_ext),
    Api::new("GDI", 95, "GETVIEWPORTORG", &[Arg::W], get_viewport_org),
    Api::new("GDI", 96, "GETWINDOWEXT", &[Arg::W], get_window_ext),
    Api::new("GDI", 97, "GETWINDOWORG", &[Arg::W], get_window_org),
    Api::new("GDI", 99, "LPTODP", &[Arg::W, Arg::L, Arg::W], lp_to_dp),
    Api::new("GDI", 128, "MULDIV", &[Arg::W, Arg::W, Arg::W], mul_div16),
    Api::new(
        "GDI",
        472,
        "GETVIEWPORTEXTEX",
        &[Arg::W, Arg::L],
        get_viewport_ext_ex,
    ),
    Api::new(
        "GDI",
        473,
        "GETVIEWPORTORGEX",
        &[Arg::W, Arg::L],
        get_viewport_org_ex,
    ),
    Api::new(
        "GDI",
        474,
        "GETWINDOWEXTEX",
        &[Arg::W, Arg::L],
        get_window_ext_ex,
    ),
    Api::new(
        "GDI",
        475,
        "GETWINDOWORGEX",
        &[Arg::W, Arg::L],
        get_window_org_ex,
    ),
    Api::new(
        "GDI",
        476,
        "OFFSETVIEWPORTORGEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        offset_viewport_org_ex,
    ),
    Api::new(
        "GDI",
        477,
        "OFFSETWINDOWORGEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        offset_window_org_ex,
    ),
    Api::new(
        "GDI",
        479,
        "SETVIEWPORTEXTEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_viewport_ext_ex,
    ),
    Api::new(
        "GDI",
        480,
        "SETVIEWPORTORGEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_viewport_org_ex,
    ),
    Api::new(
        "GDI",
        481,
        "SETWINDOWEXTEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_window_ext_ex,
    ),
    Api::new(
        "GDI",
        482,
        "SETWINDOWORGEX",
        &[Arg::W, Arg::W, Arg::W, Arg::L],
        set_window_org_ex,
    ),
    Api::new(
        "GDI",
        484,
        "SCALEVIEWPORTEXTEX",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        scale_viewport_ext_ex,
    ),
    Api::new(
        "GDI",
        485,
        "SCALEWINDOWEXTEX",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L],
        scale_window_ext_ex,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::gdi::devcaps::{Device, DisplayMode};

    fn vga() -> Caps {
        Device::Display(DisplayMode::VGA).caps()
    }

    #[test]
    fn mul_div_rounds_halves_away_from_zero() {
        assert_eq!(mul_div(1, 1, 2), 1);
        assert_eq!(mul_div(-1, 1, 2), -1);
        assert_eq!(mul_div(1, 1, 3), 0);
        assert_eq!(mul_div(2, 1, 3), 1);
        assert_eq!(mul_div(-2, 1, 3), -1);
        assert_eq!(mul_div(5, 3, -2), -8);
        assert_eq!(mul_div(1, 1, 0), -1);
    }

    #[test]
    fn each_fixed_mode_maps_by_its_table() {
        let caps = vga();
        let mut m = Mapping::default();
        // MM_TEXT: identity.
        assert_eq!(m.lp_to_dp(Point::new(7, -3)), Point::new(7, -3));
        // MM_LOMETRIC: 2080 units = 640 pixels, y up: 100 units (1 cm) =
        // 100 × 640 / 2080 = 30.77 → 31 pixels; y = 100 → −(100 × 480 /
        // 1560) = −30.77 → −31.
        assert_eq!(m.set_mode(2, &caps), MM_TEXT);
        assert_eq!(m.lp_to_dp(Point::new(100, 100)), Point::new(31, -31));
        assert_eq!(m.dp_to_lp(Point::new(31, -31)), Point::new(101, 101));
        // MM_HIMETRIC: 1000 units = 1 cm again.
        m.set_mode(3, &caps);
        assert_eq!(m.lp_to_dp(Point::new(1000, -1000)), Point::new(31, 31));
        // MM_LOENGLISH: 100 units = 1 inch = 96 pixels: ×254/325.
        m.set_mode(4, &caps);
        assert_eq!(m.lp_to_dp(Point::new(100, 100)), Point::new(78, -78));
        // MM_HIENGLISH: ×127/1625.
        m.set_mode(5, &caps);
        assert_eq!(m.lp_to_dp(Point::new(1000, 0)), Point::new(78, 0));
        // MM_TWIPS: 1440 twips = 1 inch: ×127/2340.
        m.set_mode(6, &caps);
        assert_eq!(m.lp_to_dp(Point::new(1440, 1440)), Point::new(78, -78));
        // Origins: the window origin moves logical space, the viewport
        // origin device space.
        m.set_mode(MM_TEXT, &caps);
        m.win_org = Point::new(10, 20);
        m.vp_org = Point::new(100, 200);
        assert_eq!(m.lp_to_dp(Point::new(10, 20)), Point::new(100, 200));
        assert_eq!(m.dp_to_lp(Point::new(0, 0)), Point::new(-90, -180));
    }

    #[test]
    fn anisotropic_and_isotropic_extents() {
        let caps = vga();
        let mut m = Mapping::default();
        m.set_mode(MM_ANISOTROPIC, &caps);
        // ANISOTROPIC keeps MM_TEXT's 1:1 until set.
        assert_eq!((m.win_ext, m.vp_ext), ((1, 1), (1, 1)));
        m.set_window_ext(100, 100, &caps);
        m.set_viewport_ext(300, -50, &caps);
        assert_eq!(m.lp_to_dp(Point::new(10, 10)), Point::new(30, -5));
        // ISOTROPIC: window 100×100 onto a 300×50 viewport: x units would
        // be 6× larger; the x viewport extent shrinks to 50.
        m.set_mode(MM_ISOTROPIC, &caps);
        m.set_window_ext(100, 100, &caps);
        m.set_viewport_ext(300, 50, &caps);
        assert_eq!(m.vp_ext, (50, 50));
        m.set_viewport_ext(20, -200, &caps);
        assert_eq!(m.vp_ext, (20, -20));
    }
}
