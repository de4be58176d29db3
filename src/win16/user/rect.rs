//! The rectangle functions of USER: SetRect, SetRectEmpty, CopyRect,
//! IsRectEmpty, PtInRect, OffsetRect, InflateRect, IntersectRect,
//! UnionRect, SubtractRect, EqualRect — on geom.rs's Rect, whose rules
//! are Windows' (right and bottom edges outside).

use super::{Env, Rect, Stop, Uc, lparam_point, read_rect, write_rect};
use crate::win16::api::{Api, Arg};

fn r(uc: &Uc<'_>, p: u32) -> Option<Rect> {
    read_rect(uc, p)
}

fn int(v: u32) -> i32 {
    i32::from(v as u16 as i16)
}

/// USER.72 SetRect(lpRect, X1, Y1, X2, Y2).
fn set_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    write_rect(
        uc,
        a[0],
        Rect::new(int(a[1]), int(a[2]), int(a[3]), int(a[4])),
    );
    Ok(0)
}

/// USER.73 SetRectEmpty(lpRect): all zeros.
fn set_rect_empty(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    write_rect(uc, a[0], Rect::default());
    Ok(0)
}

/// USER.74 CopyRect(lpDestRect, lpSourceRect).
fn copy_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(match r(uc, a[1]) {
        Some(s) => u32::from(write_rect(uc, a[0], s)),
        None => 0,
    })
}

/// USER.75 IsRectEmpty(lpRect).
fn is_rect_empty(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(r(uc, a[0]).is_none_or(|x| x.is_empty())))
}

/// USER.76 PtInRect(lpRect, Point).
fn pt_in_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        r(uc, a[0]).is_some_and(|x| x.contains(lparam_point(a[1]))),
    ))
}

/// USER.77 OffsetRect(lpRect, x, y).
fn offset_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(x) = r(uc, a[0]) {
        write_rect(uc, a[0], x.offset(int(a[1]), int(a[2])));
    }
    Ok(0)
}

/// USER.78 InflateRect(lpRect, x, y).
fn inflate_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if let Some(x) = r(uc, a[0]) {
        write_rect(uc, a[0], x.inflate(int(a[1]), int(a[2])));
    }
    Ok(0)
}

/// USER.79 IntersectRect(lpDestRect, lpSrc1Rect, lpSrc2Rect) -> whether
/// they intersect (the destination is all zeros when not).
fn intersect_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(x), Some(y)) = (r(uc, a[1]), r(uc, a[2])) else {
        return Ok(0);
    };
    let i = x.intersect(&y);
    write_rect(uc, a[0], i.unwrap_or_default());
    Ok(u32::from(i.is_some()))
}

/// USER.80 UnionRect(lpDestRect, lpSrc1Rect, lpSrc2Rect) -> whether the
/// union is not empty (empty sources are ignored).
fn union_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(x), Some(y)) = (r(uc, a[1]), r(uc, a[2])) else {
        return Ok(0);
    };
    let u = x.union(&y);
    write_rect(uc, a[0], u.unwrap_or_default());
    Ok(u32::from(u.is_some()))
}

/// SubtractRect's result: the first rectangle less the second when that
/// leaves a rectangle (the second covers it along a whole side), else the
/// first unchanged; empty when the second covers it.
pub fn subtract(a: Rect, b: Rect) -> Rect {
    if a.is_empty() {
        return Rect::default();
    }
    let Some(i) = a.intersect(&b) else {
        return a;
    };
    if i == a {
        return Rect::default();
    }
    let mut out = a;
    if i.left == a.left && i.right == a.right {
        if i.top == a.top {
            out.top = i.bottom;
        } else if i.bottom == a.bottom {
            out.bottom = i.top;
        }
    } else if i.top == a.top && i.bottom == a.bottom {
        if i.left == a.left {
            out.left = i.right;
        } else if i.right == a.right {
            out.right = i.left;
        }
    }
    out
}

/// USER.373 SubtractRect(lprcDest, lprcSource1, lprcSource2) -> whether
/// the result is not empty.
fn subtract_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (Some(x), Some(y)) = (r(uc, a[1]), r(uc, a[2])) else {
        return Ok(0);
    };
    let s = subtract(x, y);
    write_rect(uc, a[0], s);
    Ok(u32::from(!s.is_empty()))
}

/// USER.244 EqualRect(lpRect1, lpRect2).
fn equal_rect(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(
        matches!((r(uc, a[0]), r(uc, a[1])), (Some(x), Some(y)) if x == y),
    ))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        72,
        "SETRECT",
        &[Arg::L, Arg::W, Arg::W, Arg::W, Arg::W],
        set_rect,
    ),
    Api::new("USER", 73, "SETRECTEMPTY", &[Arg::L], set_rect_empty),
    Api::new("USER", 74, "COPYRECT", &[Arg::L, Arg::L], copy_rect),
    Api::new("USER", 75, "ISRECTEMPTY", &[Arg::L], is_rect_empty),
    Api::new("USER", 76, "PTINRECT", &[Arg::L, Arg::L], pt_in_rect),
    Api::new(
        "USER",
        77,
        "OFFSETRECT",
        &[Arg::L, Arg::W, Arg::W],
        offset_rect,
    ),
    Api::new(
        "USER",
        78,
        "INFLATERECT",
        &[Arg::L, Arg::W, Arg::W],
        inflate_rect,
    ),
    Api::new(
        "USER",
        79,
        "INTERSECTRECT",
        &[Arg::L, Arg::L, Arg::L],
        intersect_rect,
    ),
    Api::new(
        "USER",
        80,
        "UNIONRECT",
        &[Arg::L, Arg::L, Arg::L],
        union_rect,
    ),
    Api::new("USER", 244, "EQUALRECT", &[Arg::L, Arg::L], equal_rect),
    Api::new(
        "USER",
        373,
        "SUBTRACTRECT",
        &[Arg::L, Arg::L, Arg::L],
        subtract_rect,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn subtract_rect_rules() {
        let a = Rect::new(0, 0, 10, 10);
        // The right half covered along the whole height: the left half.
        assert_eq!(
            subtract(a, Rect::new(5, -1, 20, 20)),
            Rect::new(0, 0, 5, 10)
        );
        // The top covered along the whole width.
        assert_eq!(
            subtract(a, Rect::new(-5, -5, 15, 3)),
            Rect::new(0, 3, 10, 10)
        );
        // A hole in the middle leaves it as it was.
        assert_eq!(subtract(a, Rect::new(2, 2, 4, 4)), a);
        // Covered entirely: empty.
        assert!(subtract(a, Rect::new(-1, -1, 11, 11)).is_empty());
        assert_eq!(subtract(a, Rect::new(20, 20, 30, 30)), a);
    }
}
