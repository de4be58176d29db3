//! roms/gdiscene.exe draws a scene in its window (shapes, a wide pen, a
//! bitmap copied and stretched, regions, mapping modes) and the screenshot
//! `run --screenshot` writes shows it: each checked pixel's colour follows
//! from the rules of src/win16/gdi (cited at each check). The program
//! prints its paint DC's origin on the screen, so the checks hold wherever
//! USER puts its client area.

mod common;
use common::picture::Picture;
use common::{bin, rom};

const BLACK: (u8, u8, u8) = (0, 0, 0);
const WHITE: (u8, u8, u8) = (255, 255, 255);
const RED: (u8, u8, u8) = (255, 0, 0);
const GREEN: (u8, u8, u8) = (0, 255, 0);
const BLUE: (u8, u8, u8) = (0, 0, 255);
const YELLOW: (u8, u8, u8) = (255, 255, 0);
const CYAN: (u8, u8, u8) = (0, 255, 255);
const MAGENTA: (u8, u8, u8) = (255, 0, 255);
const DKGRAY: (u8, u8, u8) = (128, 128, 128);
const LTGRAY: (u8, u8, u8) = (192, 192, 192);

/// The screenshot, the paint DC's origin, and what the program printed.
fn run_scene() -> (Picture, i32, i32, String) {
    let path = std::env::temp_dir().join(format!("toolhelp16-scene-{}.png", std::process::id()));
    let out = bin()
        .args(["run", "--screenshot"])
        .arg(&path)
        .arg(rom("gdiscene.exe"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("org "))
        .unwrap_or_else(|| panic!("no org line: {text}"));
    let mut it = line.split_whitespace();
    let x = i32::from_str_radix(it.next().unwrap(), 16).unwrap();
    let y = i32::from_str_radix(it.next().unwrap(), 16).unwrap();
    let shot = Picture::load(&path);
    assert_eq!((shot.width, shot.height), (640, 480), "the VGA's screen");
    let _ = std::fs::remove_file(&path);
    (shot, x, y, text.into_owned())
}

/// A pixel to check: where, the colour the rules give, and why.
type Check = ((i32, i32), (u8, u8, u8), &'static str);

#[test]
fn the_scene_is_drawn_by_the_rules() {
    let (shot, ox, oy, text) = run_scene();
    // EnumObjects(OBJ_PEN) on the VGA: 16 colours × 5 styles, NUMPENS.
    assert!(text.contains("pens 0050"), "{text}");
    let c = |x: i32, y: i32| shot.rgb_at(i64::from(ox + x), i64::from(oy + y));
    let checks: &[Check] = &[
        // Rectangle(10,10,110,60): border on 10 and 109 / 59 (right and
        // bottom excluded), red inside.
        ((50, 30), RED, "rectangle inside"),
        ((10, 10), BLACK, "rectangle corner"),
        ((109, 59), BLACK, "rectangle's last pixel"),
        ((110, 30), WHITE, "right edge excluded"),
        ((50, 60), WHITE, "bottom edge excluded"),
        // RoundRect: green inside; the 20×20 corner leaves its corner pixel
        // outside.
        ((280, 35), GREEN, "round rect inside"),
        ((230, 10), WHITE, "round rect's cut corner"),
        ((230, 35), BLACK, "round rect's left border"),
        // Polygon with a 3-pixel pen: the top edge on row 70 covers rows
        // 69..71; yellow below it.
        ((60, 70), BLACK, "wide pen on the edge"),
        ((60, 69), BLACK, "wide pen above the edge"),
        ((60, 71), BLACK, "wide pen below the edge"),
        ((60, 73), YELLOW, "triangle inside"),
        // Pie: the top-right quarter of the ellipse (120,70,220,130).
        ((190, 85), CYAN, "pie inside"),
        ((150, 85), WHITE, "the pie's missing quarter"),
        // The bitmap: 1 bits take the background colour (white), 0 bits
        // the text colour (black); stretched twice.
        ((233, 73), WHITE, "bitmap top-left quadrant"),
        ((241, 73), BLACK, "bitmap top-right quadrant"),
        ((233, 81), BLACK, "bitmap bottom-left quadrant"),
        ((241, 81), WHITE, "bitmap bottom-right quadrant"),
        ((255, 75), WHITE, "stretched top-left"),
        ((270, 75), BLACK, "stretched top-right"),
        ((255, 90), BLACK, "stretched bottom-left"),
        ((270, 90), WHITE, "stretched bottom-right"),
        // FillRgn of the elliptic region.
        ((370, 35), MAGENTA, "region inside"),
        ((341, 11), WHITE, "region's corner outside the ellipse"),
        // The clipped ellipse: only x < 370 drawn.
        ((355, 100), RED, "clipped ellipse, inside the clip"),
        ((385, 100), WHITE, "clipped ellipse, outside the clip"),
        // MM_LOMETRIC: (0,0)-(300,-150) from viewport origin (10,200) is
        // device (10,200)-(102,246): 300·640/2080 = 92.3 → 92, 150·480/1560
        // = 46.2 → 46.
        ((50, 220), DKGRAY, "lometric rectangle inside"),
        ((10, 200), BLACK, "lometric rectangle corner"),
        ((101, 245), BLACK, "lometric rectangle's last pixel"),
        ((102, 245), WHITE, "lometric right edge excluded"),
        ((50, 199), WHITE, "above the lometric rectangle"),
        // MM_ANISOTROPIC: ×4, ×2 from (120,150): (120,150)-(200,190).
        ((160, 170), LTGRAY, "anisotropic rectangle inside"),
        ((120, 150), BLACK, "anisotropic corner"),
        ((199, 189), BLACK, "anisotropic last pixel"),
        ((200, 189), WHITE, "anisotropic right edge excluded"),
        // MoveTo(230,120) LineTo(330,120): the end point excluded.
        ((230, 120), BLACK, "line start"),
        ((329, 120), BLACK, "line's last pixel"),
        ((330, 120), WHITE, "line end excluded"),
        // LineDDA(230,140, 330,140) gives 230..=329 (the end excluded,
        // as LineTo); the callback colours every other point.
        ((230, 140), BLUE, "LineDDA's first point"),
        ((231, 140), WHITE, "LineDDA's second point, skipped"),
        ((328, 140), BLUE, "LineDDA's last coloured point"),
        ((329, 140), WHITE, "LineDDA's last point, skipped"),
        ((330, 140), WHITE, "LineDDA's end excluded"),
    ];
    let mut bad = Vec::new();
    for &((x, y), want, what) in checks {
        if c(x, y) != want {
            bad.push(format!("({x}, {y}) {what}: {:?}, want {want:?}", c(x, y)));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // The hatched ellipse (HS_DIAGCROSS, blue on the white background):
    // the brush's pattern is aligned to the screen's origin (KB Q102353),
    // its lines where x ≡ y or x ≡ 7 − y (mod 8) in screen coordinates.
    for (x, y) in [(160, 30), (161, 30), (165, 33), (170, 35), (171, 36)] {
        let (sx, sy) = (ox + x, oy + y);
        let on = sx & 7 == sy & 7 || sx & 7 == 7 - (sy & 7);
        assert_eq!(
            c(x, y),
            if on { BLUE } else { WHITE },
            "hatch at ({x}, {y})"
        );
    }
}

/// `stack --screenshot` writes the screen at the stop and `stack --html`
/// puts it in the page as a PNG beside the stack; `run --screenshots DIR`
/// writes one picture after each WM_PAINT and one every `--every`
/// instructions; `--display` changes the screen.
#[test]
fn screenshots_at_stops_in_pages_and_in_series() {
    let dir = std::env::temp_dir().join(format!("toolhelp16-shots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (page, stop) = (dir.join("page.html"), dir.join("stop.png"));
    let out = bin()
        .args(["stack", "--at", "GDISCENE!painted"])
        .arg(rom("gdiscene.exe"))
        .arg("--html")
        .arg(&page)
        .arg("--screenshot")
        .arg(&stop)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html
        .find("data:image/png;base64,")
        .expect("the screen is in the page")
        + "data:image/png;base64,".len();
    let end = start + html[start..].find('"').unwrap();
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD
        .decode(&html[start..end])
        .unwrap();
    assert_eq!(
        png,
        std::fs::read(&stop).unwrap(),
        "the page shows the stop's screen"
    );
    let shot = Picture::decode(&png, "the page's picture");
    assert_eq!((shot.width, shot.height), (640, 480));

    // A series: the paint's shot plus at least one by instruction count.
    let series = dir.join("series");
    let out = bin()
        .args(["run", "--screenshots"])
        .arg(&series)
        .args(["--every", "500"])
        .arg(rom("gdiscene.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&series)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    assert_eq!(names[0], "screen-00001.png");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("screen-") && n.ends_with(".png"))
    );

    // A true-colour 800×600 display.
    let big = dir.join("big.png");
    let out = bin()
        .args(["run", "--display", "800x600x24", "--screenshot"])
        .arg(&big)
        .arg(rom("gdiscene.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let shot = Picture::load(&big);
    assert_eq!((shot.width, shot.height), (800, 600));
    // A bad --display is refused with the reason, as a usage error.
    let out = bin()
        .args(["run", "--display", "800x600x16"])
        .arg(rom("gdiscene.exe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--display 800x600x16"));
    // A DOS program's picture is its VGA text screen, 80x25 cells of 9x16
    // (tests/dos_pictures.rs checks its pixels).
    let out = bin()
        .args(["run", "--screenshot"])
        .arg(dir.join("dos.png"))
        .arg(rom("hot.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let shot = Picture::load(&dir.join("dos.png"));
    assert_eq!((shot.width, shot.height), (720, 400));
    let _ = std::fs::remove_dir_all(&dir);
}
