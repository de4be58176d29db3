//! A list box's vertical scroll bar follows its items (Windows 3.1 SDK,
//! "List Box Styles": WS_VSCROLL's bar is hidden while every item fits;
//! LBS_DISABLENOSCROLL, new in 3.1, shows it disabled instead), driven
//! through USER's functions as a program calls them.

use toolhelp16::machine::{Cpu, Machine, R, SegKind};
use toolhelp16::system::Env;
use toolhelp16::win16::api;

const WS_CHILD: u32 = 0x4000_0000;
const WS_VISIBLE: u32 = 0x1000_0000;
const WS_POPUP: u32 = 0x8000_0000;
const WS_VSCROLL: u32 = 0x0020_0000;
const WS_BORDER: u32 = 0x0080_0000;
const LBS_DISABLENOSCROLL: u32 = 0x1000;
const LB_ADDSTRING: u32 = 0x0401;
const LB_DELETESTRING: u32 = 0x0403;
const LB_SETTOPINDEX: u32 = 0x0418;
const GWL_STYLE: u32 = 0xFFF0;
const SB_VERT: u32 = 1;

struct T {
    m: Machine,
    env: Env,
    data: u16,
}

impl T {
    fn new() -> T {
        let mut m = Machine::new_protected().unwrap();
        let data = m.alloc_segment(SegKind::Data, 0x1000, &[]).unwrap();
        // A stack for the messages' data USER puts there.
        let stack = m.alloc_segment(SegKind::Data, 0x2000, &[]).unwrap();
        m.set_reg(R::SS, stack).unwrap();
        m.set_reg(R::SP, 0x1FF0).unwrap();
        let mut env = Env::new(false);
        toolhelp16::win16::user::controls::register_system_classes(&mut m, &mut env.win16).unwrap();
        T { m, env, data }
    }

    fn user(&mut self, ord: u16, args: &[u32]) -> u32 {
        let f = api::find("USER", ord).unwrap_or_else(|| panic!("USER.{ord}"));
        assert_eq!(f.args.len(), args.len(), "{} arguments", f.name);
        (f.func)(&mut self.env, &mut self.m, args).unwrap()
    }

    fn put(&mut self, off: u16, b: &[u8]) -> u32 {
        self.m.write_seg(self.data, off, b).unwrap();
        u32::from(self.data) << 16 | u32::from(off)
    }

    /// CreateWindow of class `class` (x, y, cx, cy).
    fn create(&mut self, class: &str, style: u32, parent: u32, r: (u32, u32, u32, u32)) -> u32 {
        let c = self.put(0, format!("{class}\0").as_bytes());
        let t = self.put(0x40, b"\0");
        let (hi, lo) = (style >> 16, style & 0xFFFF);
        let h = self.user(
            41,
            &[c, t, hi << 16 | lo, r.0, r.1, r.2, r.3, parent, 0, 0, 0],
        );
        assert_ne!(h, 0, "CreateWindow {class}");
        h
    }

    fn add(&mut self, lb: u32, s: &str) {
        let p = self.put(0x80, format!("{s}\0").as_bytes());
        self.user(111, &[lb, LB_ADDSTRING, 0, p]);
    }

    fn has_bar(&mut self, lb: u32) -> bool {
        self.user(135, &[lb, GWL_STYLE]) & WS_VSCROLL != 0
    }

    /// GetScrollRange(SB_VERT).
    fn range(&mut self, lb: u32) -> (i16, i16) {
        let a = self.put(0x100, &[0; 4]);
        self.user(65, &[lb, SB_VERT, a, a + 2]);
        let mut b = [0u8; 4];
        self.m.read_seg(self.data, 0x100, &mut b).unwrap();
        (
            i16::from_le_bytes([b[0], b[1]]),
            i16::from_le_bytes([b[2], b[3]]),
        )
    }

    /// The client width (GetClientRect's right).
    fn client_width(&mut self, h: u32) -> i16 {
        let a = self.put(0x200, &[0; 8]);
        self.user(33, &[h, a]);
        let mut b = [0u8; 8];
        self.m.read_seg(self.data, 0x200, &mut b).unwrap();
        i16::from_le_bytes([b[4], b[5]])
    }
}

#[test]
fn the_scroll_bar_shows_only_while_the_items_do_not_fit() {
    let mut t = T::new();
    let parent = t.create("STATIC", WS_POPUP | WS_VISIBLE, 0, (0, 0, 300, 300));
    // 5 System-font items (16 pixels each) fit in 80 pixels.
    let lb = t.create(
        "LISTBOX",
        WS_CHILD | WS_VISIBLE | WS_BORDER | WS_VSCROLL,
        parent,
        (10, 10, 100, 82),
    );
    let wide = 100 - 2;
    assert!(!t.has_bar(lb), "an empty list box shows no scroll bar");
    assert_eq!(t.client_width(lb), wide, "the items have the whole width");
    for s in ["a", "b", "c", "d", "e"] {
        t.add(lb, s);
    }
    assert!(!t.has_bar(lb), "five items fit: no scroll bar");
    t.add(lb, "f");
    t.add(lb, "g");
    assert!(t.has_bar(lb), "seven items do not fit: the bar shows");
    // The range runs to the last top index: 7 items - 5 in view.
    assert_eq!(t.range(lb), (0, 2));
    assert!(t.client_width(lb) < wide, "the bar takes its width");
    t.user(111, &[lb, LB_SETTOPINDEX, 2, 0]);
    // Deleting items until they fit hides it again.
    t.user(111, &[lb, LB_DELETESTRING, 0, 0]);
    t.user(111, &[lb, LB_DELETESTRING, 0, 0]);
    assert!(!t.has_bar(lb), "five items again: hidden");
    assert_eq!(t.client_width(lb), wide);
    // A list box made without WS_VSCROLL never gets one.
    let plain = t.create(
        "LISTBOX",
        WS_CHILD | WS_VISIBLE | WS_BORDER,
        parent,
        (120, 10, 100, 82),
    );
    for s in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        t.add(plain, s);
    }
    assert!(!t.has_bar(plain));
}

#[test]
fn disablenoscroll_keeps_a_disabled_bar() {
    let mut t = T::new();
    let parent = t.create("STATIC", WS_POPUP | WS_VISIBLE, 0, (0, 0, 300, 300));
    let lb = t.create(
        "LISTBOX",
        WS_CHILD | WS_VISIBLE | WS_BORDER | WS_VSCROLL | LBS_DISABLENOSCROLL,
        parent,
        (10, 10, 100, 82),
    );
    t.add(lb, "a");
    assert!(
        t.has_bar(lb),
        "LBS_DISABLENOSCROLL: shown though the item fits"
    );
    let narrow = t.client_width(lb);
    assert!(narrow < 98);
    for s in ["b", "c", "d", "e", "f", "g"] {
        t.add(lb, s);
    }
    assert!(t.has_bar(lb));
    assert_eq!(t.range(lb), (0, 2));
    assert_eq!(t.client_width(lb), narrow, "the same bar, enabled");
}

/// The COLORREF (0x00BBGGRR) of the screen's pixel at (x, y).
fn pixel(t: &T, x: i32, y: i32) -> u32 {
    let s = t.env.win16.gdi.screen_if_made().expect("a screen");
    t.env
        .win16
        .gdi
        .screen_rgb(s.get(x, y).expect("on the screen"))
}

// Windows 3.1's default system colours.
const BLACK: u32 = 0x00_0000; // COLOR_WINDOWFRAME, COLOR_BTNTEXT
const WHITE: u32 = 0xFF_FFFF; // COLOR_WINDOW, COLOR_BTNHIGHLIGHT
const LTGRAY: u32 = 0xC0_C0C0; // COLOR_SCROLLBAR, COLOR_BTNFACE
const DKGRAY: u32 = 0x80_8080; // COLOR_BTNSHADOW

/// An overflowing list box's scroll bar as Windows 3.1 draws it, pixel by
/// pixel. The list box's window is (10, 10)-(110, 92) on the screen (its
/// parent a borderless popup at the origin); VGA metrics: SM_CXVSCROLL
/// and SM_CYVSCROLL 17, SM_CYVTHUMB 16. The bar is SM_CXVSCROLL wide from
/// the client area's right edge, its right line on the border (x 93 to
/// 109); each arrow box is SM_CYVSCROLL tall, lines included (rows 10 to
/// 26 and 75 to 91): COLOR_BTNFACE with one pixel of highlight, two of
/// shadow, and its arrow (OBM_UPARROW, OBM_DNARROW: a head seven pixels
/// wide, four rows, a stem three wide) centred in it; the thumb is a
/// button face between two lines; the shaft COLOR_SCROLLBAR.
#[test]
fn an_overflowing_list_box_draws_its_scroll_bar() {
    let mut t = T::new();
    let parent = t.create("STATIC", WS_POPUP | WS_VISIBLE, 0, (0, 0, 300, 300));
    let lb = t.create(
        "LISTBOX",
        WS_CHILD | WS_VISIBLE | WS_BORDER | WS_VSCROLL,
        parent,
        (10, 10, 100, 82),
    );
    for s in ["a", "b", "c", "d", "e", "f", "g"] {
        t.add(lb, s);
    }
    assert!(t.has_bar(lb));
    // UpdateWindow: the items are painted too.
    t.user(124, &[lb]);
    let art = |t: &T| {
        (8..94)
            .map(|y| {
                (88..112)
                    .map(|x| match pixel(t, x, y) {
                        BLACK => '#',
                        WHITE => '.',
                        LTGRAY => '-',
                        DKGRAY => '+',
                        _ => '?',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let check = |t: &T, checks: &[((i32, i32), u32, &str)]| {
        let bad: Vec<String> = checks
            .iter()
            .filter(|(p, c, _)| pixel(t, p.0, p.1) != *c)
            .map(|(p, c, why)| {
                format!("{p:?}: {:06X}, expected {c:06X}: {why}", pixel(t, p.0, p.1))
            })
            .collect();
        assert!(bad.is_empty(), "{}\n{}", bad.join("\n"), art(t));
    };
    let mut checks = vec![
        (
            (92, 50),
            WHITE,
            "the items' area (COLOR_WINDOW) left of the bar",
        ),
        ((109, 50), BLACK, "the border is the bar's right line"),
        ((100, 10), BLACK, "the border is the bar's top line"),
        ((100, 91), BLACK, "the border is the bar's bottom line"),
        // The up arrow's box: rows 10 to 26.
        ((94, 11), WHITE, "the up box's highlight"),
        ((96, 13), LTGRAY, "the up box's face (COLOR_BTNFACE)"),
        ((107, 20), DKGRAY, "the up box's shadow, two pixels"),
        ((108, 20), DKGRAY, "the up box's shadow, outer pixel"),
        ((100, 24), DKGRAY, "the up box's shadow at its foot"),
        ((100, 26), BLACK, "the line under the up box (SM_CYVSCROLL)"),
        ((101, 15), BLACK, "the up arrow's tip"),
        ((100, 15), LTGRAY, "beside the tip"),
        ((98, 18), BLACK, "the up arrow's base, left"),
        ((104, 18), BLACK, "the up arrow's base, right"),
        ((97, 18), LTGRAY, "the base is seven wide"),
        ((100, 21), BLACK, "the up arrow's stem"),
        ((99, 21), LTGRAY, "the stem is three wide"),
        // The down arrow's box: rows 75 to 91.
        (
            (100, 75),
            BLACK,
            "the line over the down box (SM_CYVSCROLL)",
        ),
        ((94, 76), WHITE, "the down box's highlight"),
        ((96, 78), LTGRAY, "the down box's face (COLOR_BTNFACE)"),
        ((100, 89), DKGRAY, "the down box's shadow"),
        ((101, 86), BLACK, "the down arrow's tip"),
        ((98, 83), BLACK, "the down arrow's base"),
        ((102, 80), BLACK, "the down arrow's stem"),
        // The thumb at the top (position 0): rows 27 to 42.
        ((94, 28), WHITE, "the thumb's highlight"),
        ((100, 35), LTGRAY, "the thumb's face (COLOR_BTNFACE)"),
        ((107, 35), DKGRAY, "the thumb's shadow"),
        ((100, 43), BLACK, "the line under the thumb (SM_CYVTHUMB)"),
        // The shaft below it.
        ((94, 50), LTGRAY, "the shaft (COLOR_SCROLLBAR)"),
        ((100, 60), LTGRAY, "the shaft (COLOR_SCROLLBAR)"),
        ((108, 74), LTGRAY, "the shaft reaches the down box"),
    ];
    check(&t, &checks);
    // At the last top index the thumb is at the bottom of the shaft
    // (rows 59 to 74 between lines 58 and 75).
    t.user(111, &[lb, LB_SETTOPINDEX, 2, 0]);
    t.user(124, &[lb]);
    checks = vec![
        ((100, 35), LTGRAY, "the shaft where the thumb was"),
        ((100, 43), LTGRAY, "no line where the thumb was"),
        ((100, 58), BLACK, "the line over the thumb"),
        ((94, 60), WHITE, "the thumb's highlight"),
        ((100, 66), LTGRAY, "the thumb's face"),
        ((107, 66), DKGRAY, "the thumb's shadow"),
        ((101, 86), BLACK, "the down arrow stays"),
    ];
    check(&t, &checks);
}
