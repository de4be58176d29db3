//! The mouse cursor and icons: SetCursor, GetCursor, ShowCursor,
//! GetCursorPos, SetCursorPos, ClipCursor, GetClipCursor, CreateCursor,
//! CreateIcon, CopyCursor, CopyIcon, DestroyCursor, DestroyIcon.
//! LoadCursor and LoadIcon (resource.rs) give the handles of a program's
//! cursors and icons and of the predefined IDC_ and IDI_ ones.
//!
//! The cursor starts in the middle of the screen; ShowCursor counts
//! (SDK: the cursor shows while the count is 0 or more; it starts at 0
//! with a mouse); SetCursorPos and the scripted clicks move it, within
//! ClipCursor's rectangle.

use super::{Env, Point, Rect, SCREEN, Stop, Uc, read_rect, write_point, write_rect};
use crate::win16::api::{Api, Arg};

pub const IDC_ARROW: u16 = 32512;
pub const IDC_IBEAM: u16 = 32513;
pub const IDC_WAIT: u16 = 32514;
pub const IDC_SIZEWE: u16 = 32644;
pub const IDC_SIZENS: u16 = 32645;
pub const IDC_SIZENWSE: u16 = 32642;
pub const IDC_SIZENESW: u16 = 32643;
pub const IDI_APPLICATION: u16 = 32512;

/// The cursor's state.
#[derive(Debug, Clone)]
pub struct CursorState {
    pub current: u16,
    pub show_count: i16,
    /// The position on the screen.
    pub pos: Point,
    /// ClipCursor's rectangle.
    pub clip: Option<Rect>,
    /// Cursors and icons CreateCursor, CreateIcon, CopyCursor and CopyIcon
    /// made (handles from 0x4C04), with whether each is an icon.
    pub made: Vec<(u16, bool)>,
}

impl Default for CursorState {
    fn default() -> CursorState {
        CursorState {
            current: 0,
            show_count: 0,
            pos: Point::new(i32::from(SCREEN.0) / 2, i32::from(SCREEN.1) / 2),
            clip: None,
            made: Vec::new(),
        }
    }
}

/// The handle of a predefined cursor (LoadCursor(NULL, id)).
pub fn stock_cursor(env: &mut Env, uc: &mut Uc<'_>, id: u16) -> u16 {
    crate::win16::resource::load_cursor(env, uc, &[0, u32::from(id)]).map_or(0, |h| h as u16)
}

/// The handle of a predefined icon (LoadIcon(NULL, id)).
pub fn stock_icon(env: &mut Env, uc: &mut Uc<'_>, id: u16) -> u16 {
    crate::win16::resource::load_icon(env, uc, &[0, u32::from(id)]).map_or(0, |h| h as u16)
}

/// SetCursor: the previous cursor.
pub fn set_cursor(env: &mut Env, h: u16) -> u16 {
    std::mem::replace(&mut env.win16.user.cursor.current, h)
}

/// Keep a point on the screen and in the clip rectangle.
fn clamp(env: &Env, p: Point) -> Point {
    let screen = env.win16.user.screen();
    let r = env
        .win16
        .user
        .cursor
        .clip
        .and_then(|c| c.intersect(&screen))
        .unwrap_or(screen);
    Point::new(
        p.x.clamp(r.left, r.right - 1),
        p.y.clamp(r.top, r.bottom - 1),
    )
}

/// Move the cursor (a click, SetCursorPos).
pub fn move_to(env: &mut Env, p: Point) {
    let p = clamp(env, p);
    env.win16.user.cursor.pos = p;
}

/// USER.69 SetCursor(hCursor) -> the previous cursor.
fn set_cursor_api(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(set_cursor(env, a[0] as u16)))
}

/// USER.247 GetCursor().
fn get_cursor(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.cursor.current))
}

/// USER.71 ShowCursor(bShow) -> the new display count.
fn show_cursor(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let c = &mut env.win16.user.cursor;
    c.show_count = if a[0] as u16 != 0 {
        c.show_count.saturating_add(1)
    } else {
        c.show_count.saturating_sub(1)
    };
    Ok(u32::from(c.show_count as u16))
}

/// USER.17 GetCursorPos(lpPoint).
fn get_cursor_pos(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let p = env.win16.user.cursor.pos;
    write_point(uc, a[0], p);
    Ok(0)
}

/// USER.70 SetCursorPos(X, Y).
fn set_cursor_pos(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    move_to(
        env,
        Point::new(i32::from(a[0] as u16 as i16), i32::from(a[1] as u16 as i16)),
    );
    Ok(0)
}

/// USER.16 ClipCursor(lpRect): the cursor stays in the rectangle (NULL:
/// anywhere).
fn clip_cursor(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    env.win16.user.cursor.clip = read_rect(uc, a[0]);
    let p = env.win16.user.cursor.pos;
    move_to(env, p);
    Ok(0)
}

/// USER.309 GetClipCursor(lpRect): the clip rectangle (the screen when
/// there is none).
fn get_clip_cursor(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let r = env
        .win16
        .user
        .cursor
        .clip
        .unwrap_or(env.win16.user.screen());
    write_rect(uc, a[0], r);
    Ok(0)
}

/// A new cursor or icon handle (CreateCursor, CreateIcon, CopyCursor,
/// CopyIcon): 0 past 256 of them.
/// A new cursor or icon handle (CreateCursor's, CreateIcon's), or 0
/// when too many were made.
pub fn make(env: &mut Env, icon: bool) -> u32 {
    let c = &mut env.win16.user.cursor;
    if c.made.len() >= 256 {
        return 0;
    }
    let h = 0x4C04 + 4 * c.made.len() as u16;
    c.made.push((h, icon));
    u32::from(h)
}

/// USER.406 CreateCursor(hInst, xHotSpot, yHotSpot, nWidth, nHeight,
/// lpANDbitPlane, lpXORbitPlane).
fn create_cursor(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(make(env, false))
}

/// USER.407 CreateIcon(hInst, nWidth, nHeight, nPlanes, nBitsPixel,
/// lpANDbits, lpXORbits).
fn create_icon(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(make(env, true))
}

/// USER.369 CopyCursor(hInst, hCursor) and USER.368 CopyIcon(hInst,
/// hIcon).
fn copy_cursor(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[1] as u16 == 0 {
        return Ok(0);
    }
    Ok(make(env, false))
}

fn copy_icon(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[1] as u16 == 0 {
        return Ok(0);
    }
    Ok(make(env, true))
}

/// USER.458 DestroyCursor(hCursor) and USER.457 DestroyIcon(hIcon) ->
/// BOOL: a created one goes; a loaded one is a resource (FreeResource's).
fn destroy_cursor(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    let c = &mut env.win16.user.cursor;
    let n = c.made.len();
    c.made.retain(|&(x, _)| x != h);
    Ok(u32::from(c.made.len() != n || h != 0))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("USER", 16, "CLIPCURSOR", &[Arg::L], clip_cursor),
    Api::new("USER", 17, "GETCURSORPOS", &[Arg::L], get_cursor_pos),
    Api::new("USER", 69, "SETCURSOR", &[Arg::W], set_cursor_api),
    Api::new(
        "USER",
        70,
        "SETCURSORPOS",
        &[Arg::W, Arg::W],
        set_cursor_pos,
    ),
    Api::new("USER", 71, "SHOWCURSOR", &[Arg::W], show_cursor),
    Api::new("USER", 247, "GETCURSOR", &[], get_cursor),
    Api::new("USER", 309, "GETCLIPCURSOR", &[Arg::L], get_clip_cursor),
    Api::new("USER", 368, "COPYICON", &[Arg::W, Arg::W], copy_icon),
    Api::new("USER", 369, "COPYCURSOR", &[Arg::W, Arg::W], copy_cursor),
    Api::new(
        "USER",
        406,
        "CREATECURSOR",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        create_cursor,
    ),
    Api::new(
        "USER",
        407,
        "CREATEICON",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W, Arg::L, Arg::L],
        create_icon,
    ),
    Api::new("USER", 457, "DESTROYICON", &[Arg::W], destroy_cursor),
    Api::new("USER", 458, "DESTROYCURSOR", &[Arg::W], destroy_cursor),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn the_cursor_stays_on_the_screen_and_in_the_clip() {
        let mut env = Env::new(false);
        assert_eq!(env.win16.user.cursor.pos, Point::new(320, 240));
        move_to(&mut env, Point::new(-5, 900));
        assert_eq!(env.win16.user.cursor.pos, Point::new(0, 479));
        env.win16.user.cursor.clip = Some(Rect::new(10, 10, 20, 20));
        move_to(&mut env, Point::new(100, 0));
        assert_eq!(env.win16.user.cursor.pos, Point::new(19, 10));
    }
}
