//! BeginDeferWindowPos, DeferWindowPos and EndDeferWindowPos: a list of
//! SetWindowPos calls made together.

use super::{i16v, set_window_pos, w16};
use crate::machine::{Stop, Uc};
use crate::win16::Env;

/// One DeferWindowPos entry.
#[derive(Debug, Clone, Copy)]
pub struct Deferred {
    pub hwnd: u16,
    pub after: u16,
    pub x: i32,
    pub y: i32,
    pub cx: i32,
    pub cy: i32,
    pub flags: u16,
}

/// The multiple-window-position structure BeginDeferWindowPos makes: a
/// fixed block of type LT_USER_MWP in USER's data segment whose address
/// is the HDWP (Windows 3.1 allocated it in USER's heap; DeferWindowPos
/// "may return a different handle" when it must enlarge it, SDK
/// DeferWindowPos, which a block that moves as it grows gives). Its
/// bytes: the count of positions, the count there is room for, then a
/// WINDOWPOS (the SDK's: hwnd, hwndInsertAfter, x, y, cx, cy, flags) for
/// each.
pub mod mwp {
    pub const C_WP: usize = 0;
    pub const C_WP_ALLOC: usize = 2;
    pub const WINDOWPOS: usize = 4;
    pub const WINDOWPOS_SIZE: usize = 14;
}

/// The MWP block's size for `n` positions.
fn mwp_size(n: usize) -> u16 {
    u16::try_from(mwp::WINDOWPOS + mwp::WINDOWPOS_SIZE * n).unwrap_or(u16::MAX)
}

/// Write HDWP `h`'s block from its list, with room for `alloc`.
fn write_mwp(env: &Env, uc: &mut Uc<'_>, h: u16, list: &[Deferred], alloc: usize) {
    let mut b = vec![0u8; mwp::WINDOWPOS + mwp::WINDOWPOS_SIZE * list.len()];
    b[0..2].copy_from_slice(&(list.len() as u16).to_le_bytes());
    b[2..4].copy_from_slice(&(alloc as u16).to_le_bytes());
    for (i, d) in list.iter().enumerate() {
        let o = mwp::WINDOWPOS + mwp::WINDOWPOS_SIZE * i;
        for (j, v) in [
            d.hwnd,
            d.after,
            d.x as u16,
            d.y as u16,
            d.cx as u16,
            d.cy as u16,
            d.flags,
        ]
        .into_iter()
        .enumerate()
        {
            b[o + 2 * j..o + 2 * j + 2].copy_from_slice(&v.to_le_bytes());
        }
    }
    super::heap::write_block(&env.win16, uc, h, &b);
}

/// The most positions a structure holds (and the room it starts with).
const MAX_DEFERRED: usize = 1024;

/// USER.259 BeginDeferWindowPos(nNumWindows) -> HDWP: the block of the
/// structure ([`mwp`]) with room for nNumWindows positions (at least
/// one); 0 when nNumWindows is negative or USER's heap cannot take it.
pub(super) fn begin_defer_window_pos(
    env: &mut Env,
    uc: &mut Uc<'_>,
    a: &[u32],
) -> Result<u32, Stop> {
    let n = a[0] as u16 as i16;
    if n < 0 || env.win16.user.defer.len() >= 64 {
        return Ok(0);
    }
    let alloc = usize::from(n as u16).clamp(1, MAX_DEFERRED);
    let h = super::heap::alloc_fixed(&mut env.win16, uc, mwp_size(alloc), super::heap::lt::MWP);
    if h == 0 {
        return Ok(0);
    }
    env.win16.user.defer.insert(h, (Vec::new(), alloc));
    write_mwp(env, uc, h, &[], alloc);
    Ok(u32::from(h))
}

/// USER.260 DeferWindowPos(hWinPosInfo, hWnd, hWndInsertAfter, x, y, cx,
/// cy, wFlags) -> the HDWP to use next: the same, or another when the
/// structure had to grow and moved. 0 for a window that is none (the
/// structure stays), and when the structure cannot grow: then the whole
/// sequence fails (SDK, BeginDeferWindowPos) and the structure is freed.
pub(super) fn defer_window_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let mut h = w16(a[0]);
    let hwnd = w16(a[1]);
    if !env.win16.user.defer.contains_key(&h) {
        return Ok(0);
    }
    let d = Deferred {
        hwnd,
        after: w16(a[2]),
        x: i16v(a[3]),
        y: i16v(a[4]),
        cx: i16v(a[5]),
        cy: i16v(a[6]),
        flags: w16(a[7]),
    };
    if env.win16.user.app_window(hwnd).is_none() {
        return Ok(0);
    }
    let Some((mut list, mut alloc)) = env.win16.user.defer.remove(&h) else {
        return Ok(0);
    };
    let fail = |env: &mut Env, uc: &mut Uc<'_>, h: u16| {
        super::heap::free_block(&mut env.win16, uc, h);
        Ok(0)
    };
    match list.iter_mut().find(|x| x.hwnd == hwnd) {
        Some(x) => *x = d,
        None => {
            if list.len() >= MAX_DEFERRED {
                return fail(env, uc, h);
            }
            if list.len() == alloc {
                let more = (alloc * 2).min(MAX_DEFERRED);
                let n = super::heap::realloc_block(&mut env.win16, uc, h, mwp_size(more));
                if n == 0 {
                    return fail(env, uc, h);
                }
                (h, alloc) = (n, more);
            }
            list.push(d);
        }
    }
    write_mwp(env, uc, h, &list, alloc);
    env.win16.user.defer.insert(h, (list, alloc));
    Ok(u32::from(h))
}

/// USER.261 EndDeferWindowPos(hWinPosInfo): every deferred position is
/// applied and the structure's block freed.
pub(super) fn end_defer_window_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = w16(a[0]);
    let Some((list, _)) = env.win16.user.defer.remove(&h) else {
        return Ok(0);
    };
    super::heap::free_block(&mut env.win16, uc, h);
    for d in list {
        set_window_pos(env, uc, d.hwnd, d.after, d.x, d.y, d.cx, d.cy, d.flags)?;
    }
    Ok(1)
}
