//! Regions: sets of pixels made of rectangles, as GDI keeps them for
//! clipping (SelectClipRgn, the update region of a window, the visible
//! region of a DC) and as the region objects of CreateRectRgn,
//! CombineRgn and friends.
//!
//! The representation is Windows' own idea (and X11's): *y-x banding*. A
//! region is a list of horizontal bands, top to bottom, each a half-open
//! range of rows `[top, bottom)` with a sorted list of half-open column
//! ranges `[x1, x2)` that are inside. The form is canonical: bands do not
//! overlap and are never empty, spans inside a band are sorted and
//! neither overlap nor touch, and two adjacent bands (one's bottom is the
//! other's top) never have the same spans (they are merged). So two
//! regions holding the same pixels compare equal (EqualRgn), and the
//! rectangles a region lists are the ones GetRegionData would give: each
//! band's spans, top to bottom, left to right.
//!
//! Every combination (CombineRgn's RGN_AND, RGN_OR, RGN_XOR, RGN_DIFF) is
//! one sweep: the rows where either operand changes cut the plane into
//! strips, and within a strip the two span lists are combined with the
//! operation's truth table.

use super::{Point, Rect};

/// What CombineRgn, GetRgnBox and SelectClipRgn return about a region
/// (SDK: ERROR 0, NULLREGION 1, SIMPLEREGION 2, COMPLEXREGION 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum RegionKind {
    /// No pixels.
    Null = 1,
    /// One rectangle.
    Simple = 2,
    /// More than one rectangle.
    Complex = 3,
}

/// One band: the rows `[top, bottom)` and the column ranges inside.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Band {
    top: i32,
    bottom: i32,
    spans: Vec<(i32, i32)>,
}

/// A region (module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Region {
    bands: Vec<Band>,
}

/// The boolean operations of CombineRgn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// RGN_AND (1): pixels in both.
    And,
    /// RGN_OR (2): pixels in either.
    Or,
    /// RGN_XOR (3): pixels in exactly one.
    Xor,
    /// RGN_DIFF (4): pixels of the first not in the second.
    Diff,
}

impl Op {
    fn keep(self, a: bool, b: bool) -> bool {
        match self {
            Op::And => a && b,
            Op::Or => a || b,
            Op::Xor => a != b,
            Op::Diff => a && !b,
        }
    }
}

/// Combine two sorted, canonical span lists with `op`.
fn combine_spans(a: &[(i32, i32)], b: &[(i32, i32)], op: Op) -> Vec<(i32, i32)> {
    let mut edges: Vec<i32> = Vec::with_capacity(2 * (a.len() + b.len()));
    for &(x1, x2) in a.iter().chain(b) {
        edges.push(x1);
        edges.push(x2);
    }
    edges.sort_unstable();
    edges.dedup();
    let mut out: Vec<(i32, i32)> = Vec::new();
    let (mut ia, mut ib) = (0, 0);
    for w in edges.windows(2) {
        let (x1, x2) = (w[0], w[1]);
        while ia < a.len() && a[ia].1 <= x1 {
            ia += 1;
        }
        while ib < b.len() && b[ib].1 <= x1 {
            ib += 1;
        }
        let in_a = ia < a.len() && a[ia].0 <= x1;
        let in_b = ib < b.len() && b[ib].0 <= x1;
        if op.keep(in_a, in_b) {
            match out.last_mut() {
                Some(last) if last.1 == x1 => last.1 = x2,
                _ => out.push((x1, x2)),
            }
        }
    }
    out
}

/// Sort and merge spans (overlapping or touching ones become one).
fn normalize_spans(mut spans: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    spans.retain(|s| s.0 < s.1);
    spans.sort_unstable();
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(spans.len());
    for (x1, x2) in spans {
        match out.last_mut() {
            Some(last) if x1 <= last.1 => last.1 = last.1.max(x2),
            _ => out.push((x1, x2)),
        }
    }
    out
}

impl Region {
    /// The empty region.
    pub fn empty() -> Region {
        Region::default()
    }

    /// The pixels of a rectangle (CreateRectRgn): none when it is empty.
    pub fn rect(r: Rect) -> Region {
        if r.is_empty() {
            return Region::empty();
        }
        Region {
            bands: vec![Band {
                top: r.top,
                bottom: r.bottom,
                spans: vec![(r.left, r.right)],
            }],
        }
    }

    /// The union of any rectangles.
    pub fn from_rects(rects: impl IntoIterator<Item = Rect>) -> Region {
        let mut rows: Vec<Rect> = rects.into_iter().filter(|r| !r.is_empty()).collect();
        if rows.is_empty() {
            return Region::empty();
        }
        // Cut at every top and bottom, then collect each strip's spans.
        let mut ys: Vec<i32> = rows.iter().flat_map(|r| [r.top, r.bottom]).collect();
        ys.sort_unstable();
        ys.dedup();
        rows.sort_unstable_by_key(|r| r.top);
        let mut out = Region::empty();
        for w in ys.windows(2) {
            let spans: Vec<(i32, i32)> = rows
                .iter()
                .filter(|r| r.top <= w[0] && r.bottom >= w[1])
                .map(|r| (r.left, r.right))
                .collect();
            out.push_band(w[0], w[1], normalize_spans(spans));
        }
        out
    }

    /// A region from rows of pixels: each `(y, spans)` gives the half-open
    /// column ranges inside on row `y` (for polygon and ellipse regions,
    /// whose pixels are decided row by row). Rows may come in any order;
    /// a row given twice has its spans joined.
    pub fn from_rows(rows: impl IntoIterator<Item = (i32, Vec<(i32, i32)>)>) -> Region {
        let mut rows: Vec<(i32, Vec<(i32, i32)>)> = rows.into_iter().collect();
        rows.sort_unstable_by_key(|r| r.0);
        let mut out = Region::empty();
        let mut i = 0;
        while i < rows.len() {
            let y = rows[i].0;
            let mut spans = Vec::new();
            while i < rows.len() && rows[i].0 == y {
                spans.append(&mut rows[i].1);
                i += 1;
            }
            out.push_band(y, y + 1, normalize_spans(spans));
        }
        out
    }

    /// Append a band below every existing one, keeping the form canonical
    /// (an empty band is dropped; one equal to the band just above and
    /// touching it extends that band).
    fn push_band(&mut self, top: i32, bottom: i32, spans: Vec<(i32, i32)>) {
        if spans.is_empty() || bottom <= top {
            return;
        }
        if let Some(last) = self.bands.last_mut() {
            debug_assert!(last.bottom <= top);
            if last.bottom == top && last.spans == spans {
                last.bottom = bottom;
                return;
            }
        }
        self.bands.push(Band { top, bottom, spans });
    }

    /// The spans of the band covering row strip `[y, ..)`, starting the
    /// search at band `*i` (bands are visited top to bottom).
    fn spans_at(&self, i: &mut usize, y: i32) -> &[(i32, i32)] {
        while *i < self.bands.len() && self.bands[*i].bottom <= y {
            *i += 1;
        }
        match self.bands.get(*i) {
            Some(b) if b.top <= y => &b.spans,
            _ => &[],
        }
    }

    /// CombineRgn: `self op other`.
    pub fn combine(&self, other: &Region, op: Op) -> Region {
        let mut ys: Vec<i32> = self
            .bands
            .iter()
            .chain(&other.bands)
            .flat_map(|b| [b.top, b.bottom])
            .collect();
        ys.sort_unstable();
        ys.dedup();
        let mut out = Region::empty();
        let (mut ia, mut ib) = (0, 0);
        for w in ys.windows(2) {
            let a = self.spans_at(&mut ia, w[0]).to_vec();
            let b = other.spans_at(&mut ib, w[0]);
            out.push_band(w[0], w[1], combine_spans(&a, b, op));
        }
        out
    }

    /// RGN_OR.
    pub fn union(&self, other: &Region) -> Region {
        self.combine(other, Op::Or)
    }

    /// RGN_AND.
    pub fn intersect(&self, other: &Region) -> Region {
        self.combine(other, Op::And)
    }

    /// RGN_DIFF.
    pub fn subtract(&self, other: &Region) -> Region {
        self.combine(other, Op::Diff)
    }

    /// RGN_XOR.
    pub fn xor(&self, other: &Region) -> Region {
        self.combine(other, Op::Xor)
    }

    /// OffsetRgn.
    pub fn offset(&self, dx: i32, dy: i32) -> Region {
        Region {
            bands: self
                .bands
                .iter()
                .map(|b| Band {
                    top: b.top + dy,
                    bottom: b.bottom + dy,
                    spans: b.spans.iter().map(|&(x1, x2)| (x1 + dx, x2 + dx)).collect(),
                })
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.bands.is_empty()
    }

    /// NULLREGION, SIMPLEREGION or COMPLEXREGION.
    pub fn kind(&self) -> RegionKind {
        match self.bands.as_slice() {
            [] => RegionKind::Null,
            [b] if b.spans.len() == 1 => RegionKind::Simple,
            _ => RegionKind::Complex,
        }
    }

    /// GetRgnBox: the smallest rectangle holding the region (all zeros for
    /// an empty region).
    pub fn bbox(&self) -> Rect {
        let (Some(first), Some(last)) = (self.bands.first(), self.bands.last()) else {
            return Rect::default();
        };
        let left = self.bands.iter().map(|b| b.spans[0].0).min().unwrap_or(0);
        let right = self
            .bands
            .iter()
            .map(|b| b.spans[b.spans.len() - 1].1)
            .max()
            .unwrap_or(0);
        Rect::new(left, first.top, right, last.bottom)
    }

    /// PtInRegion.
    pub fn contains(&self, p: Point) -> bool {
        self.bands
            .iter()
            .find(|b| b.top <= p.y && p.y < b.bottom)
            .is_some_and(|b| b.spans.iter().any(|&(x1, x2)| x1 <= p.x && p.x < x2))
    }

    /// RectInRegion: does any pixel of `r` lie in the region?
    pub fn intersects(&self, r: &Rect) -> bool {
        !r.is_empty()
            && self.bands.iter().any(|b| {
                b.top < r.bottom
                    && r.top < b.bottom
                    && b.spans.iter().any(|&(x1, x2)| x1 < r.right && r.left < x2)
            })
    }

    /// The region's rectangles, band by band, top to bottom and left to
    /// right (the order of GetRegionData's RECTs).
    pub fn rects(&self) -> impl Iterator<Item = Rect> + '_ {
        self.bands.iter().flat_map(|b| {
            b.spans
                .iter()
                .map(move |&(x1, x2)| Rect::new(x1, b.top, x2, b.bottom))
        })
    }

    /// The column ranges inside on row `y` (what a rasteriser clips a
    /// scan line against).
    pub fn row(&self, y: i32) -> &[(i32, i32)] {
        self.bands
            .iter()
            .find(|b| b.top <= y && y < b.bottom)
            .map(|b| b.spans.as_slice())
            .unwrap_or(&[])
    }

    /// How many pixels the region holds.
    pub fn area(&self) -> i64 {
        self.bands
            .iter()
            .map(|b| {
                i64::from(b.bottom - b.top)
                    * b.spans.iter().map(|s| i64::from(s.1 - s.0)).sum::<i64>()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn r(l: i32, t: i32, rr: i32, b: i32) -> Region {
        Region::rect(Rect::new(l, t, rr, b))
    }

    #[test]
    fn kinds_and_boxes() {
        assert_eq!(Region::empty().kind(), RegionKind::Null);
        assert_eq!(r(0, 0, 0, 5).kind(), RegionKind::Null);
        assert_eq!(r(0, 0, 4, 5).kind(), RegionKind::Simple);
        let two = r(0, 0, 4, 4).union(&r(10, 0, 14, 4));
        assert_eq!(two.kind(), RegionKind::Complex);
        assert_eq!(two.bbox(), Rect::new(0, 0, 14, 4));
        assert_eq!(Region::empty().bbox(), Rect::default());
    }

    #[test]
    fn touching_rectangles_merge_into_one() {
        // Side by side: one span. One above the other with the same
        // columns: one band. Both are SIMPLEREGION, as one rectangle.
        assert_eq!(r(0, 0, 5, 5).union(&r(5, 0, 9, 5)), r(0, 0, 9, 5));
        assert_eq!(r(0, 0, 5, 5).union(&r(0, 5, 5, 9)), r(0, 0, 5, 9));
    }

    #[test]
    fn a_hole_gives_three_bands() {
        let frame = r(0, 0, 10, 10).subtract(&r(3, 3, 7, 7));
        let rects: Vec<Rect> = frame.rects().collect();
        assert_eq!(
            rects,
            vec![
                Rect::new(0, 0, 10, 3),
                Rect::new(0, 3, 3, 7),
                Rect::new(7, 3, 10, 7),
                Rect::new(0, 7, 10, 10),
            ]
        );
        assert_eq!(frame.area(), 100 - 16);
        assert!(!frame.contains(Point::new(5, 5)));
        assert!(frame.contains(Point::new(9, 9)));
        assert!(!frame.contains(Point::new(10, 9)));
        assert!(!frame.intersects(&Rect::new(4, 4, 6, 6)));
        assert!(frame.intersects(&Rect::new(6, 6, 8, 8)));
        assert_eq!(frame.offset(2, -1).bbox(), Rect::new(2, -1, 12, 9));
    }

    #[test]
    fn rows_build_a_region() {
        let g = Region::from_rows([
            (1, vec![(0, 2)]),
            (0, vec![(0, 2)]),
            (2, vec![(1, 3), (0, 1)]),
        ]);
        assert_eq!(
            g.rects().collect::<Vec<_>>(),
            vec![Rect::new(0, 0, 2, 2), Rect::new(0, 2, 3, 3)]
        );
    }

    fn arb_rect() -> impl Strategy<Value = Rect> {
        (-20i32..20, -20i32..20, 0i32..15, 0i32..15)
            .prop_map(|(x, y, w, h)| Rect::with_size(x, y, w, h))
    }

    fn arb_region() -> impl Strategy<Value = Region> {
        proptest::collection::vec(arb_rect(), 0..5).prop_map(Region::from_rects)
    }

    proptest! {
        /// Every operation agrees, pixel by pixel, with its truth table;
        /// the result is canonical (equal sets compare equal).
        #[test]
        fn operations_follow_their_truth_tables(a in arb_region(), b in arb_region()) {
            for op in [Op::And, Op::Or, Op::Xor, Op::Diff] {
                let c = a.combine(&b, op);
                let mut pixels = Vec::new();
                for y in -22..38 {
                    for x in -22..38 {
                        let p = Point::new(x, y);
                        let inside = op.keep(a.contains(p), b.contains(p));
                        prop_assert_eq!(c.contains(p), inside, "{:?} at {:?}", op, p);
                        if inside {
                            pixels.push(Rect::with_size(x, y, 1, 1));
                        }
                    }
                }
                prop_assert_eq!(&Region::from_rects(pixels), &c);
                let area: i64 = c.rects().map(|r| i64::from(r.width() * r.height())).sum();
                prop_assert_eq!(area, c.area());
            }
        }
    }
}
