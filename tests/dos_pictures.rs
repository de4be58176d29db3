//! Pictures of DOS screens (issue 31 item 4): `run --screenshot` and
//! `--screenshots` for programs in the VGA's text mode and in the CGA, EGA
//! and VGA graphics modes, checked pixel by pixel.
//!
//! The expected colours are the IBM VGA BIOS's defaults (IBM VGA Technical
//! Reference, BIOS video parameter tables and default colour registers): in
//! the 350/400/480-line modes the palette registers 00 01 02 03 04 05 14 07
//! 38-3F over the EGA's 64-colour DAC table (2/3 of full scale is 2Ah,
//! 1/3 is 15h: 2Ah -> AAh, 15h -> 55h, 3Fh -> FFh in 8 bits); in the
//! 200-line modes the registers 00-07 10-17 over the CGA-compatible table
//! (bit 4 = intensity); mode 4 after the mode set shows CGA palette 1 at
//! high intensity (1 light cyan 55FFFF, 2 light magenta FF55FF, 3 white);
//! mode 13h's 256 colours are IBM's default table (20h blue 00,00,3F; 28h
//! red 3F,00,00; 2Ch yellow 3F,3F,00; 30h green 00,3F,00).

use std::path::PathBuf;

mod common;
use common::picture::Picture;
use common::{bin, rom};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-pictures-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// roms/vgashow.com draws in nine screens; the series keeps each before
/// the next mode set, and the run's picture is the last graphics screen
/// (the program ends in text mode).
#[test]
fn every_mode_pictured_with_its_pixels() {
    let dir = temp("vgashow");
    let shots = dir.join("shots");
    let out = bin()
        .arg("run")
        .arg("--screenshots")
        .arg(&shots)
        .arg("--screenshot")
        .arg(dir.join("final.png"))
        .arg(rom("vgashow.com"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // AH=0Fh after mode 93h: mode 13h with bit 7, the memory kept.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "A93 ");
    let shot = |n: u32| Picture::load(&shots.join(format!("screen-{n:05}.png")));
    assert!(!shots.join("screen-00010.png").exists());

    // 1: 80x25 text, 9x16 cells. 'A' (white on blue) at column 1: its
    // glyph row 7 is #######. (x 9..15), the 8th and 9th dots background.
    let p = shot(1);
    p.check(
        "text",
        (720, 400),
        &[
            (9, 7, 0xFFFFFF),
            (15, 7, 0xFFFFFF),
            (16, 7, 0x0000AA),
            (17, 7, 0x0000AA),
            (9, 0, 0x0000AA),
            (8, 7, 0x000000),
            // 'H' light red at row 1: its left stem, glyph row 4.
            (0, 16 + 4, 0xFF5555),
            (1, 16 + 4, 0xFF5555),
            (2, 16 + 4, 0x000000),
        ],
    );
    // The 'A' cell (9x16, blue or white) and the 64 dots of 'H' and 'i'.
    assert_eq!(p.lit(), 9 * 16 + 64);

    // 2: mode 4, palette 1 high intensity.
    shot(2).check(
        "mode 04h",
        (320, 200),
        &[
            (10, 10, 0x55FFFF),
            (11, 10, 0xFF55FF),
            (12, 10, 0xFFFFFF),
            (13, 11, 0xFFFFFF),
            (13, 10, 0x000000),
            (0, 0, 0xFFFFFF),
            (1, 0, 0xFF55FF),
            (2, 0, 0x55FFFF),
            (3, 0, 0x000000),
        ],
    );
    // 3: mode 6.
    let p = shot(3);
    p.check(
        "mode 06h",
        (640, 200),
        &[(639, 199, 0xFFFFFF), (0, 1, 0xFFFFFF), (0, 0, 0)],
    );
    assert_eq!(p.lit(), 2);
    // 4: mode 0Dh: write mode 2 with a bit mask, the map mask, AH=0Ch.
    let p = shot(4);
    p.check(
        "mode 0Dh",
        (320, 200),
        &[
            (0, 0, 0xFF5555),
            (1, 0, 0x000000),
            (0, 10, 0x0000AA),
            (7, 10, 0x0000AA),
            (8, 10, 0x000000),
            (100, 50, 0xFFFF55),
        ],
    );
    assert_eq!(p.lit(), 10);
    // 5: mode 0Eh: set/reset.
    let p = shot(5);
    p.check(
        "mode 0Eh",
        (640, 200),
        &[
            (7, 0, 0),
            (8, 0, 0x55FF55),
            (15, 0, 0x55FF55),
            (16, 0, 0),
            (639, 199, 0xAA00AA),
        ],
    );
    assert_eq!(p.lit(), 9);
    // 6: mode 10h: brown is palette register 6 = 14h; XOR twice is black;
    // write mode 3.
    let p = shot(6);
    p.check(
        "mode 10h",
        (640, 350),
        &[
            (0, 349, 0xAA5500),
            (1, 349, 0),
            (16, 0, 0x5555FF),
            (19, 0, 0x5555FF),
            (20, 0, 0),
        ],
    );
    assert_eq!(p.lit(), 5);
    // 7: mode 12h: set/reset, a DAC entry through the ports, a palette
    // register through AX=1000h, read mode 1's colour compare.
    let p = shot(7);
    p.check(
        "mode 12h",
        (640, 480),
        &[
            (632, 479, 0xAA0000),
            (639, 479, 0xAA0000),
            (631, 479, 0),
            (320, 240, 0xFF0000),
            (0, 0, 0xFFFFFF),
            (0, 1, 0x00AA00),
        ],
    );
    assert_eq!(p.lit(), 11);
    // 8: mode 13h: the default DAC, AX=1010h (10h,20h,30h -> 41h,82h,C2h),
    // the BIOS's 8x8 'A' (row 0 ..##....) in colour 0Fh at text row 2.
    let p = shot(8);
    p.check(
        "mode 13h",
        (320, 200),
        &[
            (0, 0, 0xFF0000),
            (319, 199, 0x0000FF),
            (1, 0, 0x4182C2),
            (2, 16, 0xFFFFFF),
            (3, 16, 0xFFFFFF),
            (1, 16, 0),
            (4, 16, 0),
        ],
    );
    assert_eq!(p.lit(), 3 + 28);
    // 9: mode X: pixel x in plane x mod 4.
    let p = shot(9);
    p.check(
        "mode X",
        (320, 200),
        &[
            (1, 0, 0xFFFF00),
            (0, 0, 0),
            (81, 0, 0x00FF00),
            (316, 199, 0xFFFFFF),
            (319, 199, 0xFFFFFF),
            (315, 199, 0),
        ],
    );
    assert_eq!(p.lit(), 6);
    // The run's picture: the graphics screen the program left at its
    // exit, not the blank text screen it restored.
    assert_eq!(
        std::fs::read(dir.join("final.png")).unwrap(),
        std::fs::read(shots.join("screen-00009.png")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A text-mode program's picture is its text screen drawn with the VGA
/// font, at the stop: roms/dosboot.img writes through INT 10h and B800h
/// and hangs on HLT.
#[test]
fn a_text_screen_pictured_at_the_stop() {
    let dir = temp("dosboot");
    let png = dir.join("boot.png");
    let out = bin()
        .arg("run")
        .arg("--screenshot")
        .arg(&png)
        .arg(rom("dosboot.img"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(117));
    let p = Picture::load(&png);
    assert_eq!((p.width, p.height), (720, 400));
    // "BOOT VIA INT10" in light grey (attribute 07h): 'B' glyph row 2 is
    // ######.. in the VGA font.
    assert_eq!(p.at(0, 2), 0xAAAAAA);
    assert_eq!(p.at(5, 2), 0xAAAAAA);
    assert_eq!(p.at(6, 2), 0);
    // Row 2 "DIRECT B800" in attribute 1Fh: white on blue.
    assert_eq!(p.at(8, 32), 0x0000AA);
    assert_eq!(p.at(0, 32 + 2), 0xFFFFFF);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C program drawing with Open Watcom's graph.lib: its filled
/// rectangles, pixels and `_outtext` in modes 12h, 0Dh and 13h. The
/// program ends in mode 13h, so the run's picture is that screen.
#[test]
fn a_graph_lib_program_pictured() {
    let Some(exe) = common::watcom::build(
        "dosgraph",
        common::watcom::Kind::DosExe,
        &["dosgraph.c"],
        None,
        &["graph.lib"],
    ) else {
        return;
    };
    let dir = temp("dosgraph");
    let shots = dir.join("shots");
    let out = bin()
        .arg("run")
        .arg("--screenshots")
        .arg(&shots)
        .arg("--screenshot")
        .arg(dir.join("final.png"))
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // _getvideoconfig's sizes for 12h, 0Dh, 13h.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
        "640x480 320x200 320x200\n"
    );
    // Before the mode sets: mode 12h (colour 2 green, 9 light blue),
    // then 0Dh (colour 12 light red through register 14h of the 200-line
    // table).
    Picture::load(&shots.join("screen-00001.png")).check(
        "graph.lib 12h",
        (640, 480),
        &[
            (20, 20, 0x00AA00),
            (119, 69, 0x00AA00),
            (19, 20, 0),
            (120, 69, 0),
            (20, 70, 0),
            (300, 200, 0x5555FF),
        ],
    );
    Picture::load(&shots.join("screen-00002.png")).check(
        "graph.lib 0Dh",
        (320, 200),
        &[(0, 0, 0xFF5555), (15, 9, 0xFF5555), (16, 0, 0), (0, 10, 0)],
    );
    assert!(!shots.join("screen-00003.png").exists());
    // Mode 13h at the exit: yellow (DAC 14: 3F,3F,15), red (DAC 4:
    // 2A,00,00), and the 8x8 'O' of "OK" at text row 2, column 2 (its
    // first line ..###...).
    Picture::load(&dir.join("final.png")).check(
        "graph.lib 13h",
        (320, 200),
        &[
            (200, 100, 0xFFFF55),
            (219, 119, 0xFFFF55),
            (220, 119, 0),
            (5, 150, 0xAA0000),
            (10, 8, 0xFFFFFF),
            (12, 8, 0xFFFFFF),
            (9, 8, 0),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real DOS graphics demo from the corpus (Jerome Shidel's SLIVER.EXE,
/// Turbo Pascal 7, direct mode 13h video memory and a palette through
/// AX=1012h): with a fixed clock and budget its picture is the 320x200
/// screen with its dots on it, the same each run.
#[test]
fn a_corpus_demo_pictured() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let dir = temp("sliver");
    let shot = |name: &str| {
        let png = dir.join(name);
        let out = bin()
            .args([
                "run",
                "--clock",
                "1993-01-01T12:00:00",
                "--max-insns",
                "20000000",
            ])
            .arg("--screenshot")
            .arg(&png)
            .arg(corpus.join("dos/tp7/SLIVER.EXE"))
            .output()
            .unwrap();
        // The demo runs until a key; the budget ends it (exit 122).
        assert_eq!(
            out.status.code(),
            Some(122),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        png
    };
    let (a, b) = (shot("a.png"), shot("b.png"));
    let p = Picture::load(&a);
    assert_eq!((p.width, p.height), (320, 200));
    assert!((20..5000).contains(&p.lit()), "{} pixels lit", p.lit());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `stack --screenshot` and the debugger's `screenshot` take the screen
/// at the stop: roms/vgashow.com just before its last mode set shows the
/// mode X screen its series keeps as file 9. `--every N` adds files
/// between the mode sets.
#[test]
fn the_stop_the_debugger_and_the_series_picture_the_screen_now() {
    let dir = temp("stops");
    // The program's PSP (a .COM's CS) from a walk after one instruction;
    // its last `mov ax, 3` is at PSP:03A2 (the listing of vgashow.asm).
    let out = bin()
        .args(["stack", "--json", "--at", "+1"])
        .arg(rom("vgashow.com"))
        .output()
        .unwrap();
    let psp = common::json(&out)["frames"][0]["wCS"].as_u64().unwrap();
    let at = format!("{psp:04X}:03A2");
    let out = bin()
        .args(["run", "--screenshots"])
        .arg(dir.join("series"))
        .args(["--every", "2000"])
        .arg(rom("vgashow.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let files = std::fs::read_dir(dir.join("series")).unwrap().count();
    assert!(files > 9, "{files} files with --every 2000");
    let mode_x = std::fs::read(dir.join("series").join(format!("screen-{files:05}.png"))).unwrap();
    let stack = dir.join("stack.png");
    let out = bin()
        .args(["stack", "--at", &at, "--screenshot"])
        .arg(&stack)
        .arg(rom("vgashow.com"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&stack).unwrap(), mode_x);
    let mut child = bin()
        .arg("debug")
        .arg(rom("vgashow.com"))
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        write!(stdin, "break {at}\ncontinue\nscreenshot dbg.png\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("wrote dbg.png"), "{text}");
    assert_eq!(std::fs::read(dir.join("dbg.png")).unwrap(), mode_x);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Text fonts a program loads (INT 10h AH=11h): roms/vgafont.com loads
/// the ROM's 8x8 set (80x50) and then its own character 80h; the
/// picture shows 50 rows of 8 lines and that character.
#[test]
fn loaded_text_fonts_are_pictured() {
    let dir = temp("vgafont");
    let png = dir.join("font.png");
    let out = bin()
        .arg("run")
        .arg("--screenshot")
        .arg(&png)
        .arg(rom("vgafont.com"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // AX=1130h after AX=1112h: 8 lines a character, 50 rows (DL = 49).
    assert_eq!(String::from_utf8_lossy(&out.stdout), "08 31 ");
    Picture::load(&png).check(
        "80x50",
        (720, 400),
        &[
            // Character 80h: AAh, 55h, ... in white.
            (0, 0, 0xFFFFFF),
            (1, 0, 0),
            (0, 1, 0),
            (1, 1, 0xFFFFFF),
            (6, 7, 0),
            (7, 7, 0xFFFFFF),
            // 'A' of the 8x8 set (..##....) at row 40, column 1.
            (9 + 2, 320, 0x55FF55),
            (9 + 3, 320, 0x55FF55),
            (9 + 1, 320, 0),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The BIOS's scrolling and teletype in graphics modes (INT 10h AH=06h,
/// 07h, 0Ch, 0Dh, 0Eh: IBM VGA Technical Reference, "BIOS summary"), read
/// back pixel by pixel with AH=0Dh in modes 04h, 06h, 0Dh, 0Eh, 10h, 12h
/// and 13h: a full-screen scroll up by one character row (8, 14 or 16
/// pixel rows) with the vacated row in colour BH; a window of two columns
/// scrolled down two rows, a pixel beside it untouched. Then 24 KiB of
/// console output in mode 12h (every line scrolls the screen): the last
/// line holds the one character printed on it. Printing that much used to
/// take minutes (every pixel of every scroll read the mode from the BIOS
/// data area), past any `--timeout`; the run has a generous one
/// (tests/watcom/gscroll.c).
#[test]
fn graphics_modes_scroll_and_print_as_the_bios_does() {
    let Some(exe) = common::watcom::build(
        "gscroll",
        common::watcom::Kind::DosExe,
        &["gscroll.c"],
        None,
        &[],
    ) else {
        return;
    };
    let out = bin()
        .args(["run", "--json", "--timeout", "120"])
        .arg(&exe)
        .output()
        .unwrap();
    let v = common::json(&out);
    assert_eq!(out.status.code(), Some(0), "{}", v["exit"]);
    let text = v["output"]
        .as_str()
        .unwrap_or_default()
        .replace("\r\n", "\n");
    let last: Vec<&str> = text.lines().rev().take(8).collect();
    assert_eq!(
        last.into_iter().rev().collect::<Vec<_>>(),
        [
            "mode 04 ok",
            "mode 06 ok",
            "mode 0D ok",
            "mode 0E ok",
            "mode 10 ok",
            "mode 12 ok",
            "mode 13 ok",
            "text ok"
        ]
    );
}
