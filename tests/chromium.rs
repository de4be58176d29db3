//! The pages in a real browser: headless Chromium (Debian's `chromium`
//! package; `./x test` installs it) renders the demo's stack page, its SVG,
//! a drawing program's stack page (with its screen) and a trace page to PNG
//! screenshots, and each must show a picture: many
//! pixels that are not the white background, several colours, and the
//! colours of the frame bands and the saved-BP words. A blank page, taken
//! the same way, must count as blank, so the check can fail.
//!
//! Without Chromium: common/need.rs (a failure under `./x test` and CI).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{bin, root, succeed};

/// How long a screenshot may take before Chromium is killed.
const TIMEOUT: Duration = Duration::from_secs(60);

use common::chromium;

/// Render `page` to `out` at `width`×`height`, in a user-data directory of
/// its own, killed after [`TIMEOUT`].
fn screenshot(browser: &Path, page: &Path, out: &Path, size: (u32, u32), profile: &Path) {
    let _ = std::fs::remove_file(out);
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", out.display()))
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", browser.display()));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took more than {TIMEOUT:?} on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(
        status.success(),
        "chromium failed on {}: {err}",
        page.display()
    );
    assert!(
        out.is_file(),
        "chromium wrote no screenshot of {}: {err}",
        page.display()
    );
}

/// What a screenshot shows.
struct Ink {
    width: u32,
    height: u32,
    /// Pixels that are not white.
    inked: usize,
    /// Distinct colours.
    colours: usize,
    pixels: std::collections::HashSet<[u8; 3]>,
}

fn ink(png_path: &Path) -> Ink {
    let file = std::fs::File::open(png_path).unwrap();
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Grayscale => 1,
        png::ColorType::Indexed => panic!("indexed after EXPAND"),
    };
    let data = &buf[..info.buffer_size()];
    let mut pixels = std::collections::HashSet::new();
    let mut inked = 0;
    for px in data.chunks_exact(channels) {
        let rgb = match channels {
            1 | 2 => [px[0]; 3],
            _ => [px[0], px[1], px[2]],
        };
        if rgb != [255, 255, 255] {
            inked += 1;
        }
        pixels.insert(rgb);
    }
    Ink {
        width: info.width,
        height: info.height,
        inked,
        colours: pixels.len(),
        pixels,
    }
}

fn hex(rgb: &str) -> [u8; 3] {
    let v = u32::from_str_radix(rgb.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

#[test]
fn the_pages_render_to_pictures_that_are_not_blank() {
    let Some(browser) = chromium() else {
        common::need::tool_missing(
            "`chromium` (the stack pages are not rendered in a browser)",
            "Debian package chromium; ./x test installs it",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("toolhelp16-chromium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("profile");
    let (svg, html, trace) = (
        dir.join("demo.svg"),
        dir.join("demo.html"),
        dir.join("trace.html"),
    );
    succeed(
        bin()
            .current_dir(root())
            .args(["stack", "--at", "DEMO:1:3A", "roms/demo.exe", "--svg"])
            .arg(&svg)
            .arg("--html")
            .arg(&html),
    );
    succeed(
        bin()
            .current_dir(root())
            .args(["trace", "--to", "DEMO:1:3A", "roms/demo.exe", "--html"])
            .arg(&trace),
    );

    // The control: a blank page is blank by this measure.
    let blank = dir.join("blank.html");
    std::fs::write(
        &blank,
        "<!DOCTYPE html><html><head><style>body{background:#fff}</style></head><body></body></html>",
    )
    .unwrap();
    let shot = dir.join("blank.png");
    screenshot(&browser, &blank, &shot, (800, 600), &profile);
    let b = ink(&shot);
    assert_eq!((b.width, b.height), (800, 600));
    assert!(
        b.inked * 1000 < (b.width * b.height) as usize,
        "the blank page has ink"
    );

    let size = (1360, 1000);
    for page in [&svg, &html] {
        let shot = page.with_extension("png");
        screenshot(&browser, page, &shot, size, &profile);
        let i = ink(&shot);
        assert_eq!((i.width, i.height), size);
        let area = (i.width * i.height) as usize;
        assert!(
            i.inked * 20 > area,
            "{}: only {} of {area} pixels drawn",
            page.display(),
            i.inked
        );
        assert!(i.colours >= 16, "{}: {} colours", page.display(), i.colours);
        // Frame 0's band and a saved BP's word box (report/svg.rs).
        for c in ["#e3effb", "#ffd966"] {
            assert!(
                i.pixels.contains(&hex(c)),
                "{}: no pixel of {c}",
                page.display()
            );
        }
    }
    // The stack page of a drawing program shows its screen beside the
    // stack: the scene's pure colours appear (report/html.rs embeds the
    // screenshot; roms/gdiscene.exe paints magenta, cyan and yellow).
    let scene = dir.join("scene.html");
    succeed(
        bin()
            .current_dir(root())
            .args([
                "stack",
                "--at",
                "GDISCENE!painted",
                "roms/gdiscene.exe",
                "--html",
            ])
            .arg(&scene),
    );
    let shot = scene.with_extension("png");
    screenshot(&browser, &scene, &shot, size, &profile);
    let i = ink(&shot);
    for c in ["#ff00ff", "#00ffff", "#ffff00", "#ff0000", "#e3effb"] {
        assert!(
            i.pixels.contains(&hex(c)),
            "{}: no pixel of {c}: the screen is not shown beside the stack",
            scene.display()
        );
    }
    let shot = dir.join("trace.png");
    screenshot(&browser, &trace, &shot, (1200, 900), &profile);
    let i = ink(&shot);
    assert!(
        i.inked * 30 > (i.width * i.height) as usize,
        "the trace page is blank"
    );
    // The changed registers are marked (report/tracepage.rs).
    assert!(
        i.pixels.contains(&hex("#ffe08a")),
        "no changed register shown"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
