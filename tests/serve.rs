//! `toolhelp16 serve`: the moments of a run as pages, fetched with a plain
//! HTTP client and shown in headless Chromium. Each moment a page shows
//! must be what the other commands show at the same instruction count:
//! the embedded screen PNG pixel for pixel what `run --max-insns N
//! --screenshot` writes (a run stopped by its budget after N
//! instructions), the registers what `debug` prints at position N
//! (`break +N`, `continue`, `regs`), the walk's table what `stack --at
//! +N` prints. The programs: roms/vgashow.com (DOS, text and graphics
//! modes), tests/watcom/servewin.c (a Win16 window painted red, then
//! three nested calls), and a `trace --record` recording of vgashow.
//! Junk requests are answered with an error status and the server goes
//! on serving; idle connections hold up no request.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::picture::Picture;
use common::{bin, rom, watcom};

/// How long one request may take (a move may replay the run).
const REQUEST: Duration = Duration::from_secs(120);

/// A running `serve`, ended when dropped.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `toolhelp16 serve ARGS` in `dir` on port 0 and read the URL it
/// prints.
fn start(dir: &Path, args: &[&str]) -> Server {
    start_with(dir, args, Stdio::inherit())
}

/// [`start`] with the server's standard error sent to `stderr`.
fn start_with(dir: &Path, args: &[&str], stderr: Stdio) -> Server {
    let mut child = bin()
        .current_dir(dir)
        .arg("serve")
        .args(["--listen", "127.0.0.1:0", "--timeout", "120"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("serve said no URL within 60 s");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let base = url.trim_end_matches('/').to_string();
    // Loopback by default, and the port was picked.
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    assert!(!base.ends_with(":0"), "{base}");
    Server { child, base }
}

/// An answer: status, head, body.
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn location(&self) -> Option<String> {
        self.head
            .lines()
            .find_map(|l| l.strip_prefix("Location: "))
            .map(str::to_string)
    }
}

/// Send `raw` bytes to the server and read its whole answer.
fn raw(s: &Server, bytes: &[u8]) -> Answer {
    let addr = s.base.trim_start_matches("http://");
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(REQUEST)).unwrap();
    c.write_all(bytes).unwrap();
    let mut all = Vec::new();
    c.read_to_end(&mut all).unwrap();
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(&all)));
    let head = String::from_utf8_lossy(&all[..end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head}"));
    Answer {
        status,
        head,
        body: all[end + 4..].to_vec(),
    }
}

/// GET `path`.
fn get(s: &Server, path: &str) -> Answer {
    raw(
        s,
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// The page of the moment at position `n` (it must be served as such).
fn moment(s: &Server, n: u64) -> String {
    let a = get(s, &format!("/at/{n}"));
    assert_eq!(a.status, 200, "/at/{n}: {}\n{}", a.head, a.text());
    let t = a.text();
    assert!(
        t.contains(&format!("at position {n}</small>")),
        "/at/{n} is not the page of position {n}"
    );
    t
}

/// HTML text back to plain text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text of `<pre id="ID">`.
fn pre(page: &str, id: &str) -> String {
    let open = format!("<pre id=\"{id}\">");
    let start = page
        .find(&open)
        .unwrap_or_else(|| panic!("no <pre id={id}>"))
        + open.len();
    let end = start + page[start..].find("</pre>").unwrap();
    unescape(&page[start..end])
}

/// The screen PNG embedded in a page.
fn embedded_png(page: &str) -> Vec<u8> {
    use base64::Engine as _;
    let at = page.find("id=\"screen-png\"").expect("no screen image");
    let start = at + page[at..].find("base64,").unwrap() + "base64,".len();
    let end = start + page[start..].find('"').unwrap();
    base64::engine::general_purpose::STANDARD
        .decode(&page[start..end])
        .unwrap()
}

/// The walk's table: from its column heads to its `walk ended` line.
fn walk_table(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines
        .iter()
        .position(|l| l.starts_with("  #  hTask"))
        .unwrap_or_else(|| panic!("no walk table in:\n{text}"));
    let to = from
        + lines[from..]
            .iter()
            .position(|l| l.starts_with("walk ended"))
            .unwrap();
    lines[from..=to].iter().map(|l| l.to_string()).collect()
}

/// `run --max-insns N --screenshot`'s picture of `prog` (in `dir`).
fn run_screenshot(dir: &Path, prog: &str, n: u64, out: &Path) -> Picture {
    let o = bin()
        .current_dir(dir)
        .args(["run", "--max-insns", &n.to_string(), "--screenshot"])
        .arg(out)
        .arg(prog)
        .output()
        .unwrap();
    assert!(
        out.is_file(),
        "run --screenshot wrote nothing: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Picture::load(out)
}

/// `stack --at +N`'s walk table.
fn stack_at(dir: &Path, prog: &str, n: u64) -> Vec<String> {
    let o = bin()
        .current_dir(dir)
        .args(["stack", "--at", &format!("+{n}"), prog])
        .output()
        .unwrap();
    walk_table(&String::from_utf8_lossy(&o.stdout))
}

/// `debug`'s output for `commands` (one a line) on `prog`.
fn debug(dir: &Path, prog: &str, commands: &str, scratch: &Path) -> String {
    let file = scratch.join("commands.txt");
    std::fs::write(&file, commands).unwrap();
    let o = bin()
        .current_dir(dir)
        .args(["debug", "--commands"])
        .arg(&file)
        .arg(prog)
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `debug`'s registers at position `n` (the two lines `regs` prints).
fn debug_regs(dir: &Path, prog: &str, n: u64, scratch: &Path) -> String {
    let text = debug(
        dir,
        prog,
        &format!("break +{n}\ncontinue\nposition\nregs\nquit\n"),
        scratch,
    );
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "(debug) regs")
        .unwrap_or_else(|| panic!("no regs in:\n{text}"));
    assert_eq!(
        lines[at - 1],
        n.to_string(),
        "debug did not stop at {n}:\n{text}"
    );
    format!("{}\n{}\n", lines[at + 1], lines[at + 2])
}

/// The page's moment agrees with `run --screenshot`, `debug` and `stack`
/// at the same count.
fn agrees(s: &Server, dir: &Path, prog: &str, n: u64, scratch: &Path) -> String {
    let page = moment(s, n);
    let shown = Picture::decode(&embedded_png(&page), &format!("the page's screen at {n}"));
    let cli = run_screenshot(dir, prog, n, &scratch.join(format!("run-{n}.png")));
    assert_eq!(
        (shown.width, shown.height),
        (cli.width, cli.height),
        "screen size at {n}"
    );
    assert!(
        shown.rgb == cli.rgb,
        "the page's screen at {n} is not run --screenshot's"
    );
    assert_eq!(
        pre(&page, "regs"),
        debug_regs(dir, prog, n, scratch),
        "registers at {n}"
    );
    assert_eq!(
        walk_table(&pre(&page, "stack-text")),
        stack_at(dir, prog, n),
        "the walk at {n}"
    );
    page
}

use common::chromium;

/// Headless Chromium's screenshot of `url` at `size`, as 8-bit RGB.
fn browser_shot(browser: &Path, url: &str, size: (u32, u32), scratch: &Path) -> Picture {
    let out = scratch.join("chromium.png");
    let _ = std::fs::remove_file(&out);
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--force-device-scale-factor=1",
            "--force-color-profile=srgb",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("--screenshot={}", out.display()))
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took more than 90 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let bytes = std::fs::read(&out).unwrap_or_else(|e| panic!("no screenshot of {url}: {e}"));
    let mut dec = png::Decoder::new(std::io::Cursor::new(&bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => panic!("chromium's screenshot is {other:?}"),
    };
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

/// Where `small` lies in `big` pixel for pixel, if anywhere.
fn find_in(big: &Picture, small: &Picture) -> Option<(usize, usize)> {
    if small.width > big.width || small.height > big.height {
        return None;
    }
    let px = |p: &Picture, x: usize, y: usize| {
        let i = (y * p.width + x) * 3;
        [p.rgb[i], p.rgb[i + 1], p.rgb[i + 2]]
    };
    for y in 0..=big.height - small.height {
        'x: for x in 0..=big.width - small.width {
            // The first row, then every row.
            for sy in 0..small.height {
                for sx in 0..small.width {
                    if px(big, x + sx, y + sy) != px(small, sx, sy) {
                        continue 'x;
                    }
                }
            }
            return Some((x, y));
        }
    }
    None
}

#[test]
fn a_dos_program_s_moments_are_what_run_stack_and_debug_show() {
    let scratch = common::scratch("serve-dos");
    let dir = rom("");
    let s = start(&dir, &["vgashow.com"]);
    // / is the current moment: the program as loaded.
    let a = get(&s, "/");
    assert_eq!(a.status, 303);
    assert_eq!(a.location().as_deref(), Some("/at/0"));
    let p0 = moment(&s, 0);
    assert!(p0.contains("the program is loaded, at "), "{p0}");
    let regs0 = pre(&p0, "regs");
    let cs = regs0
        .split_whitespace()
        .find_map(|w| w.strip_prefix("CS="))
        .unwrap()
        .to_string();
    // Forward (a position breakpoint), then back (the debugger's replay),
    // then forward again: each moment as the other commands show it.
    // 5000: mode 13h's picture is being drawn (vgashow.asm, screen 8).
    for n in [5000, 1200, 20_000] {
        agrees(&s, &dir, "vgashow.com", n, &scratch);
    }
    // Step and reverse step are the neighbouring positions.
    let p = moment(&s, 1200);
    assert!(p.contains("href=\"/at/1201\">step"), "no step link");
    assert!(
        p.contains("href=\"/at/1199\">reverse step"),
        "no reverse step link"
    );
    // Run to a breakpoint at an address: vgashow's second INT 10h is at
    // 0118h, the ninth instruction (position 8).
    let a = get(&s, &format!("/run?from=0&to={cs}%3A0118"));
    assert_eq!(a.status, 303, "{}", a.text());
    assert_eq!(a.location().as_deref(), Some("/at/8"));
    // The next system call from position 0: the INT 10h at 0103h.
    let a = get(&s, "/syscall?from=0");
    assert_eq!(a.location().as_deref(), Some("/at/1"));
    assert!(
        pre(&moment(&s, 1), "disasm").contains("=> "),
        "no CS:IP mark"
    );
    assert!(pre(&moment(&s, 1), "disasm").contains("int 10h"));
    // Past the end: the end of the run, said.
    let a = get(&s, "/at/99999999");
    assert_eq!(a.status, 303);
    let to = a.location().unwrap();
    assert!(to.contains("note="), "{to}");
    let end: u64 = to
        .trim_start_matches("/at/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let page = get(&s, &to).text();
    assert!(page.contains("the program has ended"), "{page}");
    assert!(page.contains("exited with code 0"), "{page}");
    assert!(!page.contains("id=\"step\""), "a step link past the end");
    assert!(end > 20_000);
}

#[test]
fn a_win16_program_s_moment_is_what_run_stack_and_debug_show_and_chromium_shows_it() {
    // With wlink's map (-fm), which names the functions.
    let Some(exe) = watcom::build(
        "servewin",
        watcom::Kind::Win16Exe,
        &["servewin.c"],
        None,
        &["-fm"],
    ) else {
        return;
    };
    let scratch = common::scratch("serve-win16");
    let dir = exe.parent().unwrap().to_path_buf();
    let prog = exe.file_name().unwrap().to_str().unwrap().to_string();
    // The position of Deeper's first instruction after its prologue, as
    // the debugger counts it.
    let text = debug(
        &dir,
        &prog,
        "break SERVEWIN!DEEPER+prologue\ncontinue\nposition\nquit\n",
        &scratch,
    );
    assert!(
        text.contains("breakpoint at ") && text.contains("DEEPER"),
        "no stop in Deeper:\n{text}"
    );
    let n: u64 = text
        .lines()
        .skip_while(|l| *l != "(debug) position")
        .nth(1)
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("no position:\n{text}"));
    let s = start(&dir, &[&prog]);
    // The run-to form finds the same position.
    let a = get(&s, "/run?from=0&to=SERVEWIN%21DEEPER%2Bprologue");
    assert_eq!(a.status, 303, "{}", a.text());
    assert_eq!(a.location(), Some(format!("/at/{n}")));
    let page = agrees(&s, &dir, &prog, n, &scratch);
    // The walk names the three nested calls (Middle's frame is Deeper's
    // caller, Shown's and WinMain's above it).
    let walk = pre(&page, "stack-text");
    for name in ["DEEPER", "MIDDLE", "SHOWN", "WINMAIN"] {
        assert!(walk.contains(name), "{name} not in the walk:\n{walk}");
    }
    assert!(page.contains("<svg"), "no stack picture");
    // The task list has the program's task, current.
    let tasks = pre(&page, "tasks-text");
    assert!(
        tasks
            .lines()
            .any(|l| l.contains("SERVEWIN") && l.ends_with('*')),
        "{tasks}"
    );
    // The screen has the window's red rectangle (client (10,10)-(110,60)).
    let shown = Picture::decode(&embedded_png(&page), "the page's screen");
    let red = shown.rgb.chunks(3).filter(|c| c == &[255, 0, 0]).count();
    assert_eq!(red, 100 * 50, "red pixels of the painted rectangle");

    // Headless Chromium shows the page with the very pixels of the screen.
    let Some(browser) = chromium() else {
        common::need::tool_missing(
            "`chromium` (serve's page is not rendered in a browser)",
            "Debian package chromium; ./x test installs it",
        );
        return;
    };
    let shot = browser_shot(
        &browser,
        &format!("{}/at/{n}", s.base),
        (1400, 1400),
        &scratch,
    );
    assert_eq!((shot.width, shot.height), (1400, 1400));
    let at = find_in(&shot, &shown);
    assert!(
        at.is_some(),
        "chromium's screenshot does not hold the page's screen pixel for pixel"
    );
    // And the control: a picture that is not on the page is not found.
    let mut other = Picture {
        width: shown.width,
        height: shown.height,
        rgb: shown.rgb.clone(),
    };
    other.rgb[(20 * other.width + 20) * 3] ^= 0xFF;
    assert_eq!(find_in(&shot, &other), None);
}

#[test]
fn a_recording_is_served_as_the_run_it_recorded() {
    let scratch = common::scratch("serve-rec");
    let dir = rom("");
    let rec = scratch.join("vgashow.th16rec");
    let o = bin()
        .current_dir(&dir)
        .args(["trace", "--record"])
        .arg(&rec)
        .arg("vgashow.com")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stderr);
    // "recorded B blocks, N instructions into FILE".
    let total: u64 = said
        .split(" instructions into")
        .next()
        .and_then(|w| w.rsplit(' ').next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no instruction count in {said}"));
    let s = start(&scratch, &["--recording", rec.to_str().unwrap()]);
    let page = moment(&s, 0);
    assert!(
        page.contains(&format!("of {total} instructions, replayed")),
        "{page}"
    );
    // The timeline spans the recording.
    assert!(
        page.contains(&format!("href=\"/at/{total}\"")),
        "no end mark"
    );
    agrees(&s, &dir, "vgashow.com", 7000, &scratch);
    // The recording's end is the run's end.
    let end = moment(&s, total);
    assert!(end.contains("exited with code 0"), "{end}");
}

#[test]
fn junk_requests_are_refused_and_the_server_goes_on() {
    let dir = rom("");
    let s = start(&dir, &["vgashow.com"]);
    // Connections that send nothing (as a browser opens ahead of its
    // requests) hold up no other: the page comes at once, well before
    // the 5 s an unfinished request is given.
    let addr = s.base.trim_start_matches("http://").to_string();
    let idle: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    let t = Instant::now();
    moment(&s, 0);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "an idle connection held up a request for {:?}",
        t.elapsed()
    );
    drop(idle);
    for (bytes, status) in [
        (&b"\x00\xff\xfe junk\r\n\r\n"[..], 400),
        (b"BREW /at/0 HTTP/1.1\r\n\r\n", 405),
        (b"GET /at/0 HTTP/9.9\r\n\r\n", 400),
        (b"GET /%zz HTTP/1.1\r\n\r\n", 400),
        (b"POST /quit HTTP/1.1\r\nContent-Length: 99999\r\n\r\n", 413),
        (b"GET /at/notanumber HTTP/1.1\r\n\r\n", 404),
        (b"GET /../../../../etc/passwd HTTP/1.1\r\n\r\n", 404),
        (b"GET /goto?n=x HTTP/1.1\r\n\r\n", 400),
        (b"GET /run?from=0&to= HTTP/1.1\r\n\r\n", 400),
    ] {
        let a = raw(&s, bytes);
        assert_eq!(
            a.status,
            status,
            "{:?}: {}",
            String::from_utf8_lossy(bytes),
            a.text()
        );
        assert!(!a.text().contains("root:"), "a file of the host was served");
    }
    // Headers past 8 KiB.
    let mut big = b"GET /at/0 HTTP/1.1\r\nX: ".to_vec();
    big.extend(std::iter::repeat_n(b'a', 9000));
    big.extend_from_slice(b"\r\n\r\n");
    assert_eq!(raw(&s, &big).status, 431);
    // A location that names nothing is said on the page of the moment.
    let a = get(&s, "/run?from=0&to=NOSUCH%21Thing");
    assert_eq!(a.status, 303);
    let to = a.location().unwrap();
    assert!(to.starts_with("/at/0?note="), "{to}");
    // And the server still serves.
    moment(&s, 3);
    // The quit form ends it.
    let a = raw(&s, b"POST /quit HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(a.status, 200);
    let mut s = s;
    let start = Instant::now();
    loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            assert!(st.success(), "{st:?}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "serve did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ending_the_session_says_the_moment_s_position() {
    // The page's "End the session" at the moment after N instructions:
    // serve says it ended after N, as many as ran (the instruction at
    // the moment never runs), whether the move forward was a step (the
    // hook on every instruction), a position near (the hook for the last
    // stretch), or far (without the hook until the position is near;
    // src/debug/mod.rs, "Hooks").
    let scratch = common::scratch("serve-end");
    let dir = rom("");
    for n in [1u64, 3000, 15_000] {
        let log = scratch.join(format!("serve-{n}.log"));
        let s = start_with(
            &dir,
            &["vgashow.com"],
            Stdio::from(std::fs::File::create(&log).unwrap()),
        );
        moment(&s, n);
        let a = raw(&s, b"POST /quit HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(a.status, 200);
        let mut s = s;
        let start = Instant::now();
        while s.child.try_wait().unwrap().is_none() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "serve did not end"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let said = std::fs::read_to_string(&log).unwrap();
        assert!(
            said.contains(&format!("serve ended after {n} instructions")),
            "at {n}: {said}"
        );
    }
}
