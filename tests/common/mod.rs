//! What the CLI tests share: the binary, the roms directory, and reading
//! the JSON a run prints. Each test crate uses its own part of it.
#![allow(dead_code)]

pub mod fnt;
pub mod need;
pub mod picture;
pub mod watcom;

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// The toolhelp16 binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_toolhelp16"))
}

/// A file in roms/.
pub fn rom(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

/// The JSON a command printed on stdout (the panic shows stdout and
/// stderr).
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The lines a program wrote to its standard output, from a `run --json`
/// report's `output` (CR LF ends each; empty lines left out).
pub fn output_lines(v: &Value) -> Vec<String> {
    v["output"]
        .as_str()
        .unwrap_or_else(|| panic!("no output: {v}"))
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Build the Open Watcom programs `names` (`tests/watcom/NAME.c`, each a
/// Win16 application) and run them together, one task each in the order
/// named (`toolhelp16 run --json A.EXE B.EXE ...`): the process's output,
/// its JSON report, and the lines the programs wrote to standard output,
/// in the order they ran (every line, empty ones too). None when the
/// toolchain is absent (need.rs says when that is a skip).
pub fn run_together(names: &[&str]) -> Option<(Output, Value, Vec<String>)> {
    let mut exes = Vec::new();
    for name in names {
        exes.push(watcom::win16(name)?);
    }
    let out = bin().args(["run", "--json"]).args(&exes).output().unwrap();
    let v = json(&out);
    let lines = v["output"]
        .as_str()
        .unwrap_or_else(|| panic!("no output: {v:#}"))
        .lines()
        .map(str::to_string)
        .collect();
    Some((out, v, lines))
}

/// A JSON array of strings.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect()
}

/// A roms/ scenario a walk is taken in: a program and where it stops.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// A short name: the `.expect` file's stem, or the one given.
    pub name: String,
    /// The program, relative to the crate (`roms/demo.exe`).
    pub file: String,
    /// Where it stops, in an `.expect` file's token syntax (`s1:003A`,
    /// `psp:0163`, `load+0000:002A`, `0000:7C64`) or as a CLI LOC
    /// (`FAULTSKIP:1:0069`).
    pub at: String,
    /// More programs to run beside it (Win16 tasks).
    pub more: Vec<String>,
}

/// Every scenario with an `.expect` file (roms/README.md), by name.
pub fn expect_scenarios() -> Vec<Scenario> {
    let dir = rom("");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let mut file = String::new();
            let mut at = String::new();
            for line in text.lines() {
                let line = line.split('#').next().unwrap().trim();
                match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                    ["file", f] => file = format!("roms/{f}"),
                    ["at", a] => at = a.to_string(),
                    _ => {}
                }
            }
            Scenario {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                file,
                at,
                more: Vec::new(),
            }
        })
        .collect()
}

/// The scenarios without an `.expect` file whose walks are checked
/// elsewhere: inside a fault callback (a virtual dispatch frame), a
/// program walking itself through TOOLHELP, a walk through USER's
/// window-procedure frame, and one task of two.
pub fn more_scenarios() -> Vec<Scenario> {
    let s = |name: &str, file: &str, at: &str, more: &[&str]| Scenario {
        name: name.into(),
        file: format!("roms/{file}"),
        at: at.into(),
        more: more.iter().map(|m| format!("roms/{m}")).collect(),
    };
    vec![
        s("faultskip", "faultskip.exe", "FAULTSKIP:1:0069", &[]),
        s("thwalk", "thwalk.exe", "THWALK:1:0052", &[]),
        s("winmsg", "winmsg.exe", "WINMSG:1:011A", &[]),
        s("pong", "ping.exe", "PONG:2:003F", &["pong.exe"]),
    ]
}

/// The crate's directory (where `roms/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared corpus of real programs: `../shared/corpus` from the
/// repository root, or, from a worktree elsewhere, `TOOLHELP16_CORPUS` or
/// /work/shared/corpus. None when absent: a visible skip, a failure under
/// CI (need.rs).
pub fn corpus() -> Option<PathBuf> {
    let mut tries = vec![root().join("../shared/corpus")];
    if let Some(v) = std::env::var_os("TOOLHELP16_CORPUS") {
        tries.insert(0, PathBuf::from(v));
    }
    tries.push(PathBuf::from("/work/shared/corpus"));
    let found = tries.into_iter().find(|p| p.join("MANIFEST.tsv").is_file());
    if found.is_none() {
        need::shared_missing("the shared corpus (../shared/corpus)");
    }
    found
}

/// The load options the scenarios run with: a fixed clock, so that runs
/// repeat byte for byte.
pub fn scenario_options(sc: &Scenario) -> toolhelp16::session::LoadOptions {
    toolhelp16::session::LoadOptions {
        clock: toolhelp16::dos::clock::Clock::Fixed(
            toolhelp16::dos::clock::DateTime::parse(CLOCK).unwrap(),
        ),
        dir: Some(root()),
        more: sc.more.iter().map(|m| root().join(m)).collect(),
        ..Default::default()
    }
}

/// The fixed clock (`--clock`).
pub const CLOCK: &str = "1992-04-06 00:00:00";

/// Load a scenario's program and work out its stop as a CLI LOC.
pub fn load_scenario(sc: &Scenario) -> (toolhelp16::session::Program, String) {
    let p = toolhelp16::session::load(&root().join(&sc.file), &scenario_options(sc))
        .unwrap_or_else(|e| panic!("{}: {e}", sc.name));
    let loc = scenario_loc(&p, sc);
    (p, loc)
}

/// A scenario's stop as a CLI LOC in the loaded program `p`.
pub fn scenario_loc(p: &toolhelp16::session::Program, sc: &Scenario) -> String {
    use toolhelp16::session::Loaded;
    let (tok, off) = sc.at.rsplit_once(':').unwrap();
    if sc.at.matches(':').count() == 2 || sc.at.contains('!') {
        sc.at.clone()
    } else if let Some(n) = tok.strip_prefix('s') {
        let module = p
            .env()
            .win16
            .modules
            .iter()
            .rev()
            .find(|m| !m.builtin)
            .expect("an NE module")
            .name
            .clone();
        format!("{module}:{n}:{off}")
    } else if tok == "psp" {
        let Loaded::Dos { psp, .. } = p.loaded else {
            panic!("{}: psp in a non-DOS scenario", sc.name)
        };
        format!("{psp:04X}:{off}")
    } else if let Some(x) = tok.strip_prefix("load+") {
        let Loaded::Dos { load_seg, .. } = p.loaded else {
            panic!("{}: load+ in a non-DOS scenario", sc.name)
        };
        let seg = load_seg + u16::from_str_radix(x, 16).unwrap();
        format!("{seg:04X}:{off}")
    } else {
        sc.at.clone()
    }
}

/// Run a scenario to its stop; panics unless it gets there.
pub fn run_scenario(
    sc: &Scenario,
) -> (
    toolhelp16::session::Program,
    toolhelp16::machine::Stop,
    String,
) {
    let (mut p, loc) = load_scenario(sc);
    let stop = run_to(&mut p, sc, &loc);
    (p, stop, loc)
}

/// Run a loaded scenario program to `loc`; panics unless it gets there.
pub fn run_to(
    p: &mut toolhelp16::session::Program,
    sc: &Scenario,
    loc: &str,
) -> toolhelp16::machine::Stop {
    let parsed: toolhelp16::session::Loc = loc.parse().unwrap();
    let stop = p
        .run(
            toolhelp16::machine::RunLimits {
                max_insns: 20_000_000,
                ..Default::default()
            },
            Some(&parsed),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", sc.name));
    assert!(
        matches!(stop, toolhelp16::machine::Stop::Breakpoint { .. }),
        "{}: did not reach {loc}: {stop:?}",
        sc.name
    );
    stop
}

/// Run a command and assert it succeeded (the panic shows its stderr).
pub fn succeed(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A finished child process: its output, how long it ran, and its peak
/// resident memory in KiB (VmHWM, read from /proc while it ran; 0 where
/// the host has no /proc).
pub struct Measured {
    pub out: Output,
    pub elapsed: std::time::Duration,
    pub peak_kib: u64,
    /// It was still running at the limit and was killed.
    pub killed: bool,
    /// Its process id.
    pub pid: u32,
}

/// Run `cmd` (stdin empty) and measure it; kill it after `limit`.
pub fn run_measured(cmd: &mut Command, limit: std::time::Duration) -> Measured {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::Instant;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let so = drain(Box::new(child.stdout.take().unwrap()));
    let se = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let pid = child.id();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let mut killed = false;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            if let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kib = peak_kib.max(kb);
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            killed = true;
            break child.wait().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    Measured {
        out: Output {
            status,
            stdout: so.join().unwrap(),
            stderr: se.join().unwrap(),
        },
        elapsed,
        peak_kib,
        killed,
        pid,
    }
}

/// A fresh empty directory for one test, removed first if it is there.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("th16-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `toolhelp16 gdbserver --listen 0 ARGS` on a free loopback port: the
/// server and the address it said it listens on (its stderr is drained
/// from then on, so that it never blocks writing it).
#[allow(clippy::zombie_processes)]
pub fn gdbserver(args: &[&str]) -> (std::process::Child, String) {
    gdbserver_env(args, &[])
}

/// [`gdbserver`] with `envs` set in the server's environment.
#[allow(clippy::zombie_processes)]
pub fn gdbserver_env(args: &[&str], envs: &[(&str, &str)]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = bin()
        .args(["gdbserver", "--listen", "0"])
        .args(args)
        .envs(envs.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start gdbserver");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        if err.read_line(&mut line).unwrap_or(0) == 0 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gdbserver ended before listening");
        }
        if let Some(i) = line.find("listening on ") {
            let addr = line[i + 13..].split(';').next().unwrap().trim().to_string();
            std::thread::spawn(move || {
                let mut sink = String::new();
                while err.read_line(&mut sink).unwrap_or(0) > 0 {
                    sink.clear();
                }
            });
            return (child, addr);
        }
    }
}

/// The transcript (standard output) of `toolhelp16 debug --commands
/// SCRIPT ARGS`, with `envs` set in its environment (e.g.
/// `TOOLHELP16_ALWAYS_HOOK=1`, src/debug/hooks.rs). The script goes to a
/// file of its own, removed afterwards, so sessions may run in parallel.
pub fn debug_session(args: &[&str], script: &str, envs: &[(&str, &str)]) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file =
        std::env::temp_dir().join(format!("th16-{}-debug-script-{n}.txt", std::process::id()));
    std::fs::write(&file, script).unwrap();
    let out = bin()
        .arg("debug")
        .arg("--commands")
        .arg(&file)
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line after each `(debug) CMD` line of a session's transcript.
pub fn after<'a>(out: &'a str, cmd: &str) -> Vec<&'a str> {
    let prompt = format!("(debug) {cmd}");
    out.lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == prompt)
        .map(|w| w[1])
        .collect()
}

/// Wait for `child` to end, at most `secs` seconds: its exit status, or
/// None (and it is killed) when it did not end in time.
pub fn wait_for(child: &mut std::process::Child, secs: f64) -> Option<std::process::ExitStatus> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
    while std::time::Instant::now() < until {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// The real gdb in batch mode against the server at `addr` (pagination
/// off, `target remote`, then `commands` in order), killed if it has not
/// ended within `secs`: whether it ended, and its standard output and
/// error (read while it runs, so a full pipe cannot stall it).
pub fn gdb_batch<S: AsRef<str>>(addr: &str, commands: &[S], secs: f64) -> (bool, String) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut c = Command::new("gdb");
    c.args(["-batch", "-nx", "-ex", "set pagination off"])
        .args(["-ex", &format!("target remote {addr}")]);
    for cmd in commands {
        c.args(["-ex", cmd.as_ref()]);
    }
    let mut gdb = c
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gdb");
    let (mut out, mut err) = (gdb.stdout.take().unwrap(), gdb.stderr.take().unwrap());
    let errs = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let outs = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let ended = wait_for(&mut gdb, secs).is_some();
    let text = outs.join().unwrap_or_default() + &errs.join().unwrap_or_default();
    (ended, text)
}

/// The browser: `$CHROMIUM`, or `chromium` / `chromium-browser` on PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}
