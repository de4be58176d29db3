//! Geometry shared by USER and GDI: points, rectangles with Windows'
//! rules, and regions (region.rs).
//!
//! A Win16 `RECT` is four 16-bit signed integers, left, top, right, bottom
//! (SDK, "RECT"): the right and bottom edges lie *outside* the rectangle,
//! so a rectangle is empty when `right <= left` or `bottom <= top`, and a
//! point lies in it when `left <= x < right` and `top <= y < bottom`
//! (PtInRect). Arithmetic here is done in `i32` so that sums of 16-bit
//! coordinates never overflow; values go back to memory truncated to 16
//! bits, as Windows' own 16-bit arithmetic wrapped.

pub mod region;

pub use region::{Region, RegionKind};

/// A point (POINT: x, y, two 16-bit integers in memory).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// The POINT's 4 bytes.
    pub fn to_bytes(self) -> [u8; 4] {
        let mut b = [0u8; 4];
        b[0..2].copy_from_slice(&(self.x as i16).to_le_bytes());
        b[2..4].copy_from_slice(&(self.y as i16).to_le_bytes());
        b
    }

    /// A POINT from its 4 bytes (at least 4 must be given).
    pub fn from_bytes(b: &[u8]) -> Point {
        let w = |o: usize| i32::from(i16::from_le_bytes([b[o], b[o + 1]]));
        Point::new(w(0), w(2))
    }
}

/// A rectangle (RECT), right and bottom exclusive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// Bytes of a RECT in emulated memory.
pub const RECT_SIZE: usize = 8;

impl Rect {
    pub const fn new(left: i32, top: i32, right: i32, bottom: i32) -> Rect {
        Rect {
            left,
            top,
            right,
            bottom,
        }
    }

    /// The rectangle at `(x, y)` of size `w` × `h`.
    pub const fn with_size(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect::new(x, y, x + w, y + h)
    }

    /// The RECT's 8 bytes, each coordinate truncated to 16 bits.
    pub fn to_bytes(self) -> [u8; RECT_SIZE] {
        let mut b = [0u8; RECT_SIZE];
        for (i, v) in [self.left, self.top, self.right, self.bottom]
            .into_iter()
            .enumerate()
        {
            b[i * 2..i * 2 + 2].copy_from_slice(&(v as i16).to_le_bytes());
        }
        b
    }

    /// A RECT from its 8 bytes (at least 8 must be given).
    pub fn from_bytes(b: &[u8]) -> Rect {
        let w = |o: usize| i32::from(i16::from_le_bytes([b[o], b[o + 1]]));
        Rect::new(w(0), w(2), w(4), w(6))
    }

    pub const fn width(&self) -> i32 {
        self.right - self.left
    }

    pub const fn height(&self) -> i32 {
        self.bottom - self.top
    }

    /// IsRectEmpty: no area (right <= left or bottom <= top).
    pub const fn is_empty(&self) -> bool {
        self.right <= self.left || self.bottom <= self.top
    }

    /// PtInRect: left <= x < right and top <= y < bottom.
    pub const fn contains(&self, p: Point) -> bool {
        p.x >= self.left && p.x < self.right && p.y >= self.top && p.y < self.bottom
    }

    /// IntersectRect: the common part, or None when it is empty (Windows
    /// then sets the destination to all zeros and returns FALSE).
    pub fn intersect(&self, o: &Rect) -> Option<Rect> {
        let r = Rect::new(
            self.left.max(o.left),
            self.top.max(o.top),
            self.right.min(o.right),
            self.bottom.min(o.bottom),
        );
        (!r.is_empty()).then_some(r)
    }

    /// UnionRect: the smallest rectangle holding both; an empty operand is
    /// ignored, and when both are empty the union is empty (None).
    pub fn union(&self, o: &Rect) -> Option<Rect> {
        match (self.is_empty(), o.is_empty()) {
            (true, true) => None,
            (true, false) => Some(*o),
            (false, true) => Some(*self),
            (false, false) => Some(Rect::new(
                self.left.min(o.left),
                self.top.min(o.top),
                self.right.max(o.right),
                self.bottom.max(o.bottom),
            )),
        }
    }

    /// OffsetRect.
    pub const fn offset(&self, dx: i32, dy: i32) -> Rect {
        Rect::new(
            self.left + dx,
            self.top + dy,
            self.right + dx,
            self.bottom + dy,
        )
    }

    /// InflateRect: left and top move out by (dx, dy), right and bottom
    /// by the same (negative values shrink).
    pub const fn inflate(&self, dx: i32, dy: i32) -> Rect {
        Rect::new(
            self.left - dx,
            self.top - dy,
            self.right + dx,
            self.bottom + dy,
        )
    }

    /// The same rectangle with left <= right and top <= bottom (GDI
    /// normalises the corners of the rectangles it draws).
    pub fn normalized(&self) -> Rect {
        Rect::new(
            self.left.min(self.right),
            self.top.min(self.bottom),
            self.left.max(self.right),
            self.top.max(self.bottom),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_layout_is_four_words() {
        let r = Rect::new(-1, 2, 0x7FFF, -0x8000);
        let b = r.to_bytes();
        assert_eq!(b, [0xFF, 0xFF, 2, 0, 0xFF, 0x7F, 0x00, 0x80]);
        assert_eq!(Rect::from_bytes(&b), r);
        let p = Point::new(-2, 300);
        assert_eq!(Point::from_bytes(&p.to_bytes()), p);
    }

    #[test]
    fn windows_rect_rules() {
        // SDK: PtInRect excludes the right and bottom edges.
        let r = Rect::new(10, 10, 20, 20);
        assert!(r.contains(Point::new(10, 10)));
        assert!(!r.contains(Point::new(20, 15)));
        assert!(!r.contains(Point::new(15, 20)));
        // IntersectRect of disjoint or touching rectangles is empty.
        assert_eq!(r.intersect(&Rect::new(20, 10, 30, 20)), None);
        assert_eq!(
            r.intersect(&Rect::new(15, 0, 30, 12)),
            Some(Rect::new(15, 10, 20, 12))
        );
        // UnionRect ignores an empty operand.
        assert_eq!(r.union(&Rect::new(50, 50, 50, 60)), Some(r));
        assert_eq!(Rect::default().union(&Rect::new(1, 1, 1, 1)), None);
        assert!(Rect::new(5, 5, 5, 9).is_empty());
        assert_eq!(r.inflate(-2, 1), Rect::new(12, 9, 18, 21));
    }
}
