//! The Windows 3.1 look of what USER draws, checked pixel by pixel on
//! screenshots: roms/winmenu.exe's overlapped window (a sizing frame, a
//! caption with its three boxes, a menu bar) and a message box of the
//! corpus's helljw16.exe. The expected values are Windows 3.1's facts:
//! the default system colours (COLOR_ACTIVECAPTION dark blue 000080,
//! COLOR_ACTIVEBORDER and COLOR_BTNFACE light grey C0C0C0, COLOR_BTNSHADOW
//! 808080, COLOR_BTNHIGHLIGHT and COLOR_MENU white, COLOR_WINDOWFRAME
//! black), the VGA system metrics (SM_CXFRAME 4 plus the one-pixel border,
//! SM_CXSIZE 18, SM_CYCAPTION 20), and the shapes of USER's bitmaps
//! (OBM_CLOSE, OBM_REDUCE, OBM_ZOOM: one pixel of highlight, two of
//! shadow) — src/win16/user/frame.rs cites each.

mod common;
use common::{bin, corpus, rom};

type Rgb = (u8, u8, u8);
const BLACK: Rgb = (0, 0, 0);
const WHITE: Rgb = (255, 255, 255);
const LTGRAY: Rgb = (192, 192, 192);
const DKGRAY: Rgb = (128, 128, 128);
const NAVY: Rgb = (0, 0, 128);

struct Shot {
    w: i32,
    h: i32,
    px: Vec<u8>,
}

impl Shot {
    fn at(&self, x: i32, y: i32) -> Rgb {
        let i = ((y * self.w + x) * 3) as usize;
        (self.px[i], self.px[i + 1], self.px[i + 2])
    }

    /// The first pixel of colour `c` in reading order.
    fn find(&self, c: Rgb) -> Option<(i32, i32)> {
        (0..self.h)
            .flat_map(|y| (0..self.w).map(move |x| (x, y)))
            .find(|&(x, y)| self.at(x, y) == c)
    }
}

fn shoot(program: &std::path::Path, name: &str) -> Shot {
    shoot_with(program, name, None)
}

/// The screenshot of `program` run with the `--messages` script `script`.
fn shoot_with(program: &std::path::Path, name: &str, script: Option<&str>) -> Shot {
    let tmp = std::env::temp_dir();
    let path = tmp.join(format!("toolhelp16-look-{name}-{}.png", std::process::id()));
    let mut cmd = bin();
    cmd.args(["run", "--screenshot"]).arg(&path);
    let script_path = tmp.join(format!("toolhelp16-look-{name}-{}.txt", std::process::id()));
    if let Some(s) = script {
        std::fs::write(&script_path, s).unwrap();
        cmd.arg("--messages").arg(&script_path);
    }
    let out = cmd.arg(program).output().unwrap();
    let _ = std::fs::remove_file(&script_path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let _ = std::fs::remove_file(&path);
    Shot {
        w: info.width as i32,
        h: info.height as i32,
        px: buf,
    }
}

fn check(shot: &Shot, checks: &[((i32, i32), Rgb, &str)]) {
    let bad: Vec<String> = checks
        .iter()
        .filter(|(p, c, _)| shot.at(p.0, p.1) != *c)
        .map(|(p, c, why)| format!("{p:?}: {:?}, expected {c:?}: {why}", shot.at(p.0, p.1)))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn an_overlapped_window_has_the_windows_3_1_frame_and_caption() {
    let shot = shoot(&rom("winmenu.exe"), "winmenu");
    // The first caption pixel: right of the system-menu box and its line.
    let (cx, top) = shot
        .find(NAVY)
        .expect("an active caption (COLOR_ACTIVECAPTION)");
    // Inside the frame: the system-menu box (SM_CXSIZE 18) and its line.
    let inside = cx - 19;
    // The window's edge: the border line and SM_CXFRAME (4).
    let x0 = inside - 5;
    let y0 = top - 5;
    let mut checks = vec![
        ((x0, top + 30), BLACK, "the border line (COLOR_WINDOWFRAME)"),
        (
            (x0 + 1, top + 30),
            LTGRAY,
            "the sizing frame (COLOR_ACTIVEBORDER)",
        ),
        (
            (x0 + 3, top + 30),
            LTGRAY,
            "the sizing frame, SM_CXFRAME − 1 wide",
        ),
        ((x0 + 4, top + 30), BLACK, "the frame's inner line"),
        ((x0, y0), BLACK, "the border line at the top"),
        ((x0 + 2, y0 + 2), LTGRAY, "the frame at the top"),
        ((x0 + 4, y0 + 4), BLACK, "the frame's inner line at the top"),
        // The corner marks: SM_CXFRAME + SM_CXSIZE − 1 from the corner,
        // inside the border line.
        ((x0 + 1 + 21, y0 + 2), BLACK, "the sizing corner's mark"),
        ((x0 + 1 + 20, y0 + 2), LTGRAY, "the band beside the mark"),
        ((x0 + 2, y0 + 1 + 21), BLACK, "the left band's mark"),
        // OBM_CLOSE: grey, the bar 13 × 3 two pixels in, seven down.
        ((inside, top), LTGRAY, "the system-menu box (COLOR_BTNFACE)"),
        ((inside + 2, top + 7), BLACK, "the bar's outline"),
        ((inside + 5, top + 8), WHITE, "the bar's white line"),
        ((inside + 14, top + 8), BLACK, "the bar's outline, 13 wide"),
        ((inside + 15, top + 9), DKGRAY, "the bar's shadow"),
        ((inside + 5, top + 10), DKGRAY, "the bar's shadow below"),
        ((inside + 18, top + 5), BLACK, "the line right of the box"),
        (
            (cx + 40, top + 18),
            BLACK,
            "the line under the caption (SM_CYCAPTION 20)",
        ),
        ((cx + 40, top + 17), NAVY, "the caption is 18 rows"),
        ((cx + 40, top + 19), WHITE, "the menu bar (COLOR_MENU)"),
    ];
    // The caption's right end: the minimize and maximize boxes (OBM_REDUCE,
    // OBM_ZOOM), each a line and 18 pixels.
    let last = (cx..shot.w)
        .take_while(|&x| shot.at(x, top + 2) == NAVY)
        .last()
        .unwrap();
    let min = last + 2;
    let max = min + 19;
    checks.extend([
        (
            (last + 1, top + 5),
            BLACK,
            "the line left of the minimize box",
        ),
        (
            (min, top + 5),
            WHITE,
            "one pixel of highlight (COLOR_BTNHIGHLIGHT)",
        ),
        ((min + 1, top + 5), LTGRAY, "the face (COLOR_BTNFACE)"),
        (
            (min + 16, top + 5),
            DKGRAY,
            "two pixels of shadow (COLOR_BTNSHADOW)",
        ),
        ((min + 17, top + 5), DKGRAY, "two pixels of shadow"),
        ((min + 5, top + 16), DKGRAY, "the shadow at the bottom"),
        ((min + 5, top + 17), DKGRAY, "two rows of it"),
        ((min + 8, top + 7), BLACK, "the down triangle's base row"),
        ((min + 5, top + 7), BLACK, "seven pixels wide"),
        ((min + 4, top + 7), LTGRAY, "and no wider"),
        ((min + 8, top + 10), BLACK, "its point, four rows down"),
        ((min + 18, top + 5), BLACK, "the line between the boxes"),
        ((max + 8, top + 6), BLACK, "the up triangle's point"),
        ((max + 5, top + 9), BLACK, "its base, seven wide"),
        (
            (max + 18, top + 5),
            BLACK,
            "the frame's inner line right of the boxes",
        ),
    ]);
    check(&shot, &checks);
}

#[test]
fn a_message_box_is_on_the_picture() {
    let Some(dir) = corpus() else {
        return;
    };
    let shot = shoot(&dir.join("ne/helljw16.exe"), "helljw16");
    // The program shows nothing but MessageBox(0, "Hello, World!", "Hi!",
    // MB_OK): the picture is that box.
    let (cx, top) = shot
        .find(NAVY)
        .expect("the box's frame (COLOR_ACTIVECAPTION)");
    // The dialog frame: the border line, then SM_CXDLGFRAME − 1 of the
    // caption colour.
    let checks = [
        ((cx, top + 10), NAVY, "the dialog frame's band"),
        ((cx + 2, top + 10), NAVY, "three pixels wide"),
        ((cx - 1, top + 10), BLACK, "the border line outside it"),
        (
            (cx + 3, top + 10),
            WHITE,
            "WS_EX_DLGMODALFRAME's white line",
        ),
        ((cx + 4, top + 10), LTGRAY, "the system-menu box"),
    ];
    check(&shot, &checks);
    // One default push button: a black frame two pixels thick, its corner
    // pixels left out, somewhere below the caption.
    let found = (top + 25..shot.h - 30).any(|y| {
        (0..shot.w - 40).any(|x| {
            shot.at(x, y) != BLACK
                && shot.at(x + 1, y) == BLACK
                && shot.at(x + 1, y + 1) == BLACK
                && shot.at(x + 2, y + 2) == WHITE
                && shot.at(x + 3, y + 3) == WHITE
                && shot.at(x + 4, y + 4) == LTGRAY
        })
    });
    assert!(
        found,
        "no default push button (black frame, two pixels of highlight)"
    );
}

/// Where the `#` pixels of `rows` are all black and the `.` ones white,
/// on the picture: the top-left corners.
fn find_all(shot: &Shot, rows: &[&str]) -> Vec<(i32, i32)> {
    let h = rows.len() as i32;
    let w = rows[0].len() as i32;
    let mut v = Vec::new();
    for y in 0..shot.h - h {
        for x in 0..shot.w - w {
            let hit = rows.iter().enumerate().all(|(dy, row)| {
                row.bytes().enumerate().all(|(dx, b)| {
                    let c = shot.at(x + dx as i32, y + dy as i32);
                    match b {
                        b'#' => c == BLACK,
                        b'.' => c == WHITE,
                        _ => true,
                    }
                })
            });
            if hit {
                v.push((x, y));
            }
        }
    }
    v
}

/// dlgnav's check box and two radio buttons, the box checked and the
/// second radio button chosen: each image is a 13 × 13 cell of
/// OBM_CHECKBOXES at the control's left (the three controls share their
/// left edge), marks in the text colour (black) on the control's brush
/// (white, DefWindowProc's answer); the check box a frame with an X
/// joining the inside's corners, a radio button a circle, with a dot
/// when chosen; the text starts five pixels after the image (Windows
/// 3.1's pixels: src/win16/user/controls/paint.rs).
#[test]
fn check_boxes_and_radio_buttons_are_the_windows_3_1_images() {
    let shot = shoot_with(
        &rom("dlgnav.exe"),
        "dlgnav",
        Some("click-id 110\nclick-id 121\nselect 103 green\n"),
    );
    // The checked box: 13 × 13 frame, the X's two diagonals.
    let boxes: Vec<(i32, i32)> = find_all(
        &shot,
        &[
            "#############",
            "##.........##",
            "#.#.......#.#",
            "#..#.....#..#",
            "#...#...#...#",
            "#....#.#....#",
            "#.....#.....#",
            "#....#.#....#",
            "#...#...#...#",
            "#..#.....#..#",
            "#.#.......#.#",
            "##.........##",
            "#############",
        ],
    );
    assert_eq!(boxes.len(), 1, "one checked box: {boxes:?}");
    // A round outline 12 pixels across (its widest rows and columns at
    // the middle four), white inside; the chosen one has a black dot in
    // the middle and white between dot and ring.
    let ring = [
        "????####????",
        "??##....##??",
        "?#........#?",
        "?#........#?",
        "#..........#",
        "#..........#",
        "#..........#",
        "#..........#",
        "?#........#?",
        "?#........#?",
        "??##....##??",
        "????####????",
    ];
    let dot = [
        "????####????",
        "??##....##??",
        "?#........#?",
        "?#..####..#?",
        "#..######..#",
        "#..######..#",
        "#..######..#",
        "#..######..#",
        "?#..####..#?",
        "?#........#?",
        "??##....##??",
        "????####????",
    ];
    let off = find_all(&shot, &ring);
    let on = find_all(&shot, &dot);
    assert_eq!(
        (off.len(), on.len()),
        (1, 1),
        "radio buttons: {off:?} {on:?}"
    );
    let (b, r0, r1) = (boxes[0], off[0], on[0]);
    assert!(
        r0.0 == b.0 && r1.0 == b.0,
        "the images start at the controls' left edge"
    );
    assert!(
        b.1 < r0.1 && r0.1 < r1.1,
        "check box, Left, Right from the top"
    );
    // Five pixels of nothing after each 13-pixel cell, then the text.
    for (x, y) in [b, r0, r1] {
        for dy in 0..13 {
            for dx in 13..18 {
                assert_eq!(shot.at(x + dx, y + dy), WHITE, "the gap at {dx},{dy}");
            }
        }
        let ink = (18..40).any(|dx| (0..13).any(|dy| shot.at(x + dx, y + dy) == BLACK));
        assert!(ink, "the text after the image at {x},{y}");
    }
}

/// A check box with the focus: the dotted focus rectangle goes round its
/// caption (two pixels left of the text, which starts 18 pixels in), not
/// round the whole control (USER.EXE's rule, src/win16/user/controls/
/// paint.rs `caption_focus`).
#[test]
fn the_focus_rectangle_goes_round_the_caption() {
    let shot = shoot_with(
        &rom("dlgnav.exe"),
        "dlgnav-focus",
        Some("select 103 green\nclick-id 121\nclick-id 110\n"),
    );
    let rows = [
        "#############",
        "##.........##",
        "#.#.......#.#",
        "#..#.....#..#",
        "#...#...#...#",
        "#....#.#....#",
        "#.....#.....#",
        "#....#.#....#",
        "#...#...#...#",
        "#..#.....#..#",
        "#.#.......#.#",
        "##.........##",
        "#############",
    ];
    let boxes = find_all(&shot, &rows);
    assert_eq!(boxes.len(), 1, "{boxes:?}");
    let (x, y) = boxes[0];
    // The left side: every other pixel black, down the text's rows.
    let left: Vec<bool> = (y..y + 13).map(|yy| shot.at(x + 16, yy) == BLACK).collect();
    assert!(
        left.windows(2).all(|w| w[0] != w[1]),
        "a dotted line at x + 16: {left:?}"
    );
    // Nothing round the image itself (the old rectangle at 3 pixels in).
    assert!((y..y + 13).all(|yy| shot.at(x - 1, yy) != BLACK));
    // The top side runs above the text, right of the image.
    let top = (y - 3..y + 1)
        .find(|&yy| {
            (x + 18..x + 40)
                .filter(|&xx| shot.at(xx, yy) == BLACK)
                .count()
                >= 8
        })
        .expect("a dotted top side above the text");
    assert!(top < y + 2);
}
