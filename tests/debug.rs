//! The debugger (src/debug/): the gdb remote stub driven by the real gdb
//! in batch mode (skipped, loudly, without a `gdb` on PATH: `./x test`
//! installs Debian's), the `debug --commands` session, and the stub's
//! packet handling fed arbitrary bytes.
//!
//! Expected values come from the programs' own documentation: roms/demo.asm
//! and roms/demo.expect give the call chain, the stack words and the
//! frames at PaintLine; roms/faults.asm the divide error in `div_site`;
//! the .map files the symbols' offsets.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_toolhelp16")
}

fn rom(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("roms")
        .join(name)
}

fn have_gdb() -> bool {
    common::need::tool("gdb", "--version", "gdb")
}

use common::{gdbserver, wait_for};

/// Run gdb in batch mode against a fresh server for `program`; gdb's
/// output and the server's exit status.
fn gdb_session(program: &[&str], commands: &[&str]) -> (String, Option<std::process::ExitStatus>) {
    let (mut server, addr) = gdbserver(program);
    let (_, text) = common::gdb_batch(&addr, commands, 60.0);
    let status = wait_for(&mut server, 10.0);
    (text, status)
}

/// The value gdb printed for `p/x EXPR` as the N-th `$N = 0x...` line.
fn printed(out: &str, n: usize) -> u64 {
    let tag = format!("${n} = 0x");
    let line = out
        .lines()
        .find(|l| l.starts_with(&tag))
        .unwrap_or_else(|| panic!("no {tag} in gdb's output:\n{out}"));
    u64::from_str_radix(line[tag.len()..].trim(), 16).unwrap()
}

/// A symbol's offset from a .map file (`0001:0030       PaintLine`).
fn map_offset(map: &str, name: &str) -> u16 {
    let text = std::fs::read_to_string(rom(map)).unwrap();
    for l in text.lines() {
        let mut w = l.split_whitespace();
        if let (Some(at), Some(n)) = (w.next(), w.next())
            && n == name
            && let Some((_, off)) = at.split_once(':')
        {
            return u16::from_str_radix(off, 16).unwrap();
        }
    }
    panic!("{name} is not in {map}");
}

#[test]
fn gdb_breaks_at_a_symbol_and_reads_registers_and_the_stack() {
    if !have_gdb() {
        return;
    }
    let demo = rom("demo.exe");
    let (out, status) = gdb_session(
        &[demo.to_str().unwrap()],
        &[
            "monitor break DEMO!PaintLine",
            "continue",
            "info registers",
            "p/x $ip",
            "p/x $pc - $csbase",
            "x/8xh $ssbase + $sp",
            "kill",
        ],
    );
    assert!(
        out.contains("Program received signal SIGTRAP"),
        "the breakpoint stops as SIGTRAP:\n{out}"
    );
    let paint = u64::from(map_offset("demo.map", "PaintLine"));
    // IP is PaintLine's offset, and $pc is linear: CS's base plus IP.
    assert_eq!(printed(&out, 1), paint, "{out}");
    assert_eq!(printed(&out, 2), paint, "{out}");
    for reg in [
        "eax", "esp", "eip", "eflags", "cs", "ss", "ds", "ip", "csbase", "ssbase",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(reg) && l.contains("0x")),
            "info registers shows {reg}:\n{out}"
        );
    }
    // demo.expect: at PaintLine's entry SP = 9E2 and the words from it
    // are the return IP 0027, sel(s2), the argument 0020, WinMain's...
    // OnEraseBkgnd's BP 09F0, the near return 0010, 0014, DS, 09F9.
    let words = out
        .lines()
        .find(|l| l.contains("0x0027"))
        .unwrap_or_else(|| panic!("x/8xh shows the stack:\n{out}"));
    let w: Vec<&str> = words.split_whitespace().skip(1).collect();
    assert_eq!(w.len(), 8, "{words}");
    assert_eq!(w[0], "0x0027");
    assert_eq!(w[2], "0x0020");
    assert_eq!(w[3], "0x09f0");
    assert_eq!(w[4], "0x0010");
    assert_eq!(w[5], "0x0014");
    assert_eq!(w[7], "0x09f9");
    assert!(
        status.is_some(),
        "the server ends when gdb kills the program"
    );
}

#[test]
fn gdb_breakpoint_at_a_linear_address_and_monitor_stack_match_stack_json() {
    if !have_gdb() {
        return;
    }
    let demo = rom("demo.exe");
    let stop = map_offset("demo.map", "paint_stop");
    let brk = format!("break *($csbase + {stop:#x})");
    // At the start CS is segment 1, paint_stop's segment (demo.map).
    let (out, _) = gdb_session(
        &[demo.to_str().unwrap()],
        &[&brk, "continue", "p/x $ip", "monitor stack", "kill"],
    );
    assert!(out.contains("Breakpoint 1"), "{out}");
    assert_eq!(printed(&out, 1), u64::from(stop), "{out}");
    // `stack --json` at the same place.
    let json = Command::new(exe())
        .args(["stack", "--json", "--at", "DEMO!paint_stop"])
        .arg(&demo)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4, "demo.expect has four frames");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.split_whitespace()
                .next()
                .is_some_and(|n| n.parse::<usize>().is_ok())
                && l.contains(':')
        })
        .collect();
    assert_eq!(rows.len(), frames.len(), "monitor stack:\n{out}");
    for (row, f) in rows.iter().zip(frames) {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let bp = format!(
            "{:04X}:{:04X}",
            f["wSS"].as_u64().unwrap(),
            f["wBP"].as_u64().unwrap()
        );
        let csip = format!(
            "{:04X}:{:04X}",
            f["wCS"].as_u64().unwrap(),
            f["wIP"].as_u64().unwrap()
        );
        assert_eq!(cols[2], bp, "{row}");
        assert_eq!(cols[3], csip, "{row}");
        assert_eq!(Some(cols[4]), f["module"].as_str(), "{row}");
        let sym = f["symbol"].as_str().unwrap_or("-");
        assert_eq!(*cols.last().unwrap(), sym, "{row}");
    }
}

#[test]
fn gdb_write_watchpoint_stops_after_the_writing_instruction() {
    if !have_gdb() {
        return;
    }
    let demo = rom("demo.exe");
    // demo.expect: WinMain's `push 0x14` (WM_ERASEBKGND) writes SS:09F6.
    let winmain = map_offset("demo.map", "WinMain");
    let (out, _) = gdb_session(
        &[demo.to_str().unwrap()],
        &[
            "watch -l *(short *)($ssbase + 0x9f6)",
            "continue",
            "p/x $ip",
            "p/x $sp",
            "kill",
        ],
    );
    assert!(out.contains("Hardware watchpoint 1"), "{out}");
    assert!(out.contains("New value = 20"), "0x14 was written:\n{out}");
    // WinMain: push bp (1 byte), mov bp,sp (2), push 0x14 (2): the stop is
    // at the instruction after the push, SP = 09F6.
    assert_eq!(printed(&out, 1), u64::from(winmain) + 5, "{out}");
    assert_eq!(printed(&out, 2), 0x9f6, "{out}");
}

#[test]
fn gdb_reverse_stepi_returns_to_the_previous_instruction_and_registers() {
    if !have_gdb() {
        return;
    }
    let demo = rom("demo.exe");
    let (out, _) = gdb_session(
        &[demo.to_str().unwrap()],
        &[
            "monitor break DEMO!WinMain",
            "continue",
            "p/x $ip",
            "p/x $sp",
            "p/x $bp",
            "stepi",
            "stepi",
            "p/x $ip",
            "p/x $sp",
            "p/x $bp",
            "reverse-stepi",
            "p/x $ip",
            "p/x $sp",
            "p/x $bp",
            "reverse-stepi",
            "p/x $ip",
            "p/x $sp",
            "p/x $bp",
            "kill",
        ],
    );
    let winmain = u64::from(map_offset("demo.map", "WinMain"));
    // WinMain: push bp; mov bp,sp (demo.asm's NEAR_PROLOGUE).
    let (ip0, sp0, bp0) = (printed(&out, 1), printed(&out, 2), printed(&out, 3));
    assert_eq!(ip0, winmain, "{out}");
    let (ip2, sp2, bp2) = (printed(&out, 4), printed(&out, 5), printed(&out, 6));
    assert_eq!((ip2, sp2, bp2), (winmain + 3, sp0 - 2, sp0 - 2), "{out}");
    // One back: after push bp, before mov bp,sp.
    let (ip1, sp1, bp1) = (printed(&out, 7), printed(&out, 8), printed(&out, 9));
    assert_eq!((ip1, sp1, bp1), (winmain + 1, sp0 - 2, bp0), "{out}");
    // Two back: where the breakpoint stopped.
    let back = (printed(&out, 10), printed(&out, 11), printed(&out, 12));
    assert_eq!(back, (ip0, sp0, bp0), "{out}");
}

#[test]
fn gdb_sees_a_fault_as_a_signal_at_the_faulting_instruction() {
    if !have_gdb() {
        return;
    }
    let faults = rom("faults.exe");
    let (out, _) = gdb_session(
        &[faults.to_str().unwrap(), "--", "d"],
        &["continue", "p/x $ip", "monitor where", "continue"],
    );
    assert!(
        out.contains("Program received signal SIGFPE"),
        "a divide error is SIGFPE:\n{out}"
    );
    let site = u64::from(map_offset("faults.map", "div_site"));
    assert_eq!(printed(&out, 1), site, "{out}");
    assert!(out.contains("div_site"), "monitor where names it:\n{out}");
    // Continuing lets the default action end the program.
    assert!(
        out.contains("terminated with signal SIGFPE"),
        "the unhandled fault ends the program:\n{out}"
    );
}

#[test]
fn a_client_that_goes_away_leaves_no_server_behind() {
    // At the first stop.
    let demo = rom("demo.exe");
    let (mut server, addr) = gdbserver(&[demo.to_str().unwrap()]);
    let s = TcpStream::connect(&addr).unwrap();
    drop(s);
    assert!(
        wait_for(&mut server, 10.0).is_some(),
        "the server ends when its client disconnects"
    );
    // While the program runs (dosirq.com polls for a key forever).
    let (mut server, addr) = gdbserver(&[rom("dosirq.com").to_str().unwrap()]);
    let mut s = TcpStream::connect(&addr).unwrap();
    let sum = |b: &str| b.bytes().fold(0u8, |s, c| s.wrapping_add(c));
    s.write_all(format!("$c#{:02x}", sum("c")).as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        server.try_wait().unwrap().is_none(),
        "the program is running"
    );
    drop(s);
    assert!(
        wait_for(&mut server, 10.0).is_some(),
        "the server ends when its client disconnects while the program runs"
    );
    // Ctrl-C (the byte 0x03) stops the running program: SIGINT.
    let (mut server, addr) = gdbserver(&[rom("dosirq.com").to_str().unwrap()]);
    let mut s = TcpStream::connect(&addr).unwrap();
    s.write_all(&framed(b"c")).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.write_all(&[0x03]).unwrap();
    assert_eq!(
        reply(&mut s),
        "T02",
        "an interrupted program stops with SIGINT"
    );
    s.write_all(&framed(b"k")).unwrap();
    assert!(wait_for(&mut server, 10.0).is_some(), "k ends the server");
}

#[test]
fn the_server_listens_on_the_loopback_address_unless_told_otherwise() {
    let demo = rom("demo.exe");
    let (mut server, addr) = gdbserver(&[demo.to_str().unwrap()]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    drop(TcpStream::connect(&addr).unwrap());
    wait_for(&mut server, 10.0);
    // A host name is not an address named explicitly.
    let out = Command::new(exe())
        .args(["gdbserver", "--listen", "example.com:1234"])
        .arg(&demo)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--listen"));
}

fn debug_session(program: &[&str], commands: &str) -> String {
    debug_session_in(Path::new("."), program, commands)
}

/// A `debug --commands` session started in directory `cwd`.
fn debug_session_in(cwd: &Path, program: &[&str], commands: &str) -> String {
    let dir = std::env::temp_dir().join(format!("th16-debug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!(
        "{:x}.txt",
        commands.len() ^ commands.bytes().map(usize::from).sum::<usize>()
    ));
    std::fs::write(&file, commands).unwrap();
    let out = Command::new(exe())
        .current_dir(cwd)
        .arg("debug")
        .arg("--commands")
        .arg(&file)
        .args(program)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn debug_session_breaks_steps_walks_and_steps_back() {
    let demo = rom("demo.exe");
    let out = debug_session(
        &[demo.to_str().unwrap()],
        "break DEMO!PaintLine\ncontinue\nbt\nregs\nstepi\nregs\nreverse-stepi\nregs\nx/8 SS:SP\nposition\n",
    );
    // demo.expect's frames, from PaintLine's entry (before its prologue,
    // BP is still OnEraseBkgnd's 09E8).
    assert!(out.contains("breakpoint at"), "{out}");
    let bt: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("walk by StackTraceCSIPFirst"))
        .take_while(|l| !l.starts_with("walk ended"))
        .collect();
    assert!(bt.iter().any(|l| l.contains("PaintLine")), "{out}");
    let regs: Vec<&str> = out.lines().filter(|l| l.starts_with("AX=")).collect();
    assert_eq!(regs.len(), 3, "{out}");
    let ip_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("CS=")).collect();
    assert_eq!(ip_lines.len(), 3, "{out}");
    // stepi ran PaintLine's first instruction (mov ax,ss: IP moves on);
    // reverse-stepi undid it.
    let dumps: Vec<String> = regs
        .iter()
        .zip(&ip_lines)
        .map(|(a, b)| format!("{a} {b}"))
        .collect();
    assert_ne!(dumps[0], dumps[1], "{out}");
    assert_eq!(dumps[0], dumps[2], "{out}");
    let paint = format!("IP={:04X}", map_offset("demo.map", "PaintLine"));
    assert!(
        ip_lines[0].contains(&paint) && ip_lines[2].contains(&paint),
        "{out}"
    );
    assert!(
        out.contains("0027"),
        "the return IP is on the stack:\n{out}"
    );
}

#[test]
fn debug_session_next_finish_watch_and_the_end() {
    let demo = rom("demo.exe");
    let out = debug_session(
        &[demo.to_str().unwrap()],
        "break DEMO!WinMain\ncontinue\nnext\nnext\nwhere\nwatch SS:09F6\ncontinue\nwhere\ndelete DEMO!WinMain\ncontinue\ncontinue\nreverse-stepi\nwhere\n",
    );
    // `next` twice: over push bp and mov bp,sp, to WinMain+3.
    assert!(out.contains("= DEMO:1:0021 WinMain+0x3"), "{out}");
    assert!(out.contains("write watchpoint"), "{out}");
    assert!(out.contains("= DEMO:1:0023 WinMain+0x5"), "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
    assert!(
        out.contains("error: the program has ended"),
        "continue after the end is refused:\n{out}"
    );
    // Back from the end: the last instruction (INT 21h AH=4Ch in start).
    assert!(out.lines().any(|l| l.contains("int 21h")), "{out}");
}

#[test]
fn debug_session_stops_at_a_fault_before_the_default_action() {
    let faults = rom("faults.exe");
    let out = debug_session(
        &[faults.to_str().unwrap(), "--", "d"],
        "continue\nbt\ncontinue\n",
    );
    assert!(out.contains("divide error (exception 0)"), "{out}");
    assert!(out.contains("div_site"), "{out}");
    assert!(out.contains("the program has ended"), "{out}");
}

/// A session of the library's gdb stub on demo.exe in a thread, served
/// on a fresh loopback port: the port, and a receiver that hears when
/// the session ended.
fn stub_in_thread() -> (String, std::sync::mpsc::Receiver<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let server = toolhelp16::debug::gdb::GdbServer::new(stream);
        let opts = toolhelp16::session::LoadOptions {
            stdin: Some(Vec::new()),
            echo: false,
            ..Default::default()
        };
        let mut load =
            || toolhelp16::session::load(&rom("demo.exe"), &opts).map_err(|e| e.to_string());
        let _ = toolhelp16::debug::run_session(&mut load, Box::new(server));
        let _ = tx.send(());
    });
    (addr, rx)
}

fn framed(body: &[u8]) -> Vec<u8> {
    toolhelp16::debug::rsp::frame(body)
}

/// Read the replies until one packet (not an O packet) arrives.
fn reply(s: &mut TcpStream) -> String {
    use std::io::Read;
    let mut dec = toolhelp16::debug::rsp::Decoder::default();
    let mut b = [0u8; 1];
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    loop {
        s.read_exact(&mut b).expect("a reply");
        if let Some(toolhelp16::debug::rsp::Event::Packet(p)) = dec.feed(b[0])
            && !(p.starts_with(b"O") && p.len() > 1)
        {
            return String::from_utf8_lossy(&p).into_owned();
        }
    }
}

#[test]
fn malformed_packets_get_error_replies() {
    let (addr, done) = stub_in_thread();
    let mut s = TcpStream::connect(&addr).unwrap();
    for bad in [
        &b"mzz,4"[..],
        b"m10,zz",
        b"P99=00",
        b"pzz",
        b"Gxyz",
        b"Z0,zz,1",
        b"X1,2:a",
        b"Z2,ffffffffffffffff,2",
        b"Z3,0,0",
        b"M0,1:00",
    ] {
        s.write_all(&framed(bad)).unwrap();
        let r = reply(&mut s);
        assert!(r.starts_with('E'), "{}: {r}", String::from_utf8_lossy(bad));
    }
    // A bad checksum is answered `-`.
    s.write_all(b"$g#00").unwrap();
    let mut b = [0u8; 1];
    use std::io::Read;
    loop {
        s.read_exact(&mut b).unwrap();
        if b[0] == b'-' {
            break;
        }
    }
    // The server still answers.
    s.write_all(&framed(b"qAttached")).unwrap();
    assert_eq!(reply(&mut s), "1");
    drop(s);
    done.recv_timeout(Duration::from_secs(20))
        .expect("the session ends when the client goes away");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Arbitrary bytes and arbitrary well-framed packets: no panic, and
    /// the session ends when the client goes away.
    #[test]
    fn the_stub_survives_arbitrary_input(
        noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
        packets in proptest::collection::vec(
            proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40), 0..12),
        heads in proptest::collection::vec(0usize..12, 0..12),
    ) {
        let (addr, done) = stub_in_thread();
        let mut s = TcpStream::connect(&addr).unwrap();
        let _ = s.write_all(&noise);
        // Packets that start like real ones, with random rest.
        let starts = [&b"m"[..], b"M", b"X", b"g", b"G", b"p", b"P", b"Z2,", b"z0,", b"qXfer:features:read:target.xml:", b"qRcmd,", b"vCont;"];
        for (p, h) in packets.iter().zip(heads.iter().chain(std::iter::repeat(&0))) {
            let mut body = starts[*h % starts.len()].to_vec();
            body.extend_from_slice(p);
            let _ = s.write_all(&framed(&body));
        }
        drop(s);
        proptest::prop_assert!(done.recv_timeout(Duration::from_secs(30)).is_ok(), "the session hung");
    }
}

#[test]
fn gdb_reverse_continue_goes_back_to_the_last_breakpoint() {
    if !have_gdb() {
        return;
    }
    let demo = rom("demo.exe");
    let winmain = map_offset("demo.map", "WinMain");
    let brk = format!("break *($csbase + {winmain:#x})");
    let (out, _) = gdb_session(
        &[demo.to_str().unwrap()],
        &[
            &brk,
            "monitor break DEMO!PaintLine",
            "continue",
            "continue",
            "p/x $ip",
            "reverse-continue",
            "p/x $ip",
            "p/x $sp",
            "reverse-continue",
            "p/x $ip",
            "kill",
        ],
    );
    let paint = u64::from(map_offset("demo.map", "PaintLine"));
    assert_eq!(printed(&out, 1), paint, "{out}");
    // Back at WinMain's breakpoint, with WinMain's stack (demo.expect:
    // SP = 09FA after `call WinMain`).
    assert_eq!(printed(&out, 2), u64::from(winmain), "{out}");
    assert_eq!(printed(&out, 3), 0x9fa, "{out}");
    // Before it, no breakpoint: the start of the history.
    assert!(out.contains("No more reverse-execution history"), "{out}");
    assert_eq!(
        printed(&out, 4),
        0,
        "the program's entry, start = 0:\n{out}"
    );
}

#[test]
fn gdb_in_real_mode_pc_is_segment_times_16_plus_ip() {
    if !have_gdb() {
        return;
    }
    let mzfar = rom("mzfar.exe");
    let leaf = map_offset("mzfar.map", "Leaf");
    let (out, _) = gdb_session(
        &[mzfar.to_str().unwrap()],
        &[
            "monitor break MZFAR!Leaf",
            "continue",
            "p/x $ip",
            "p/x $pc - ($cs * 16 + $ip)",
            "p/x $csbase - $cs * 16",
            "monitor stack",
            "kill",
        ],
    );
    assert_eq!(printed(&out, 1), u64::from(leaf), "{out}");
    assert_eq!(printed(&out, 2), 0, "{out}");
    assert_eq!(printed(&out, 3), 0, "{out}");
    assert!(out.contains("Leaf"), "{out}");
}

#[test]
fn run_gdb_port_serves_the_program() {
    if !have_gdb() {
        return;
    }
    // A free port, released for the server to take.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(exe())
        .args(["run", "--gdb", &port.to_string()])
        .arg(rom("demo.exe"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let addr = format!("127.0.0.1:{port}");
    let until = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < until, "run --gdb listens");
        std::thread::sleep(Duration::from_millis(50));
    }
    // That probe was the server's one client; it went away: the server
    // ends.
    assert!(wait_for(&mut server, 10.0).is_some());
    let mut server = Command::new(exe())
        .args(["run", "--gdb", &port.to_string()])
        .arg(rom("demo.exe"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let out = Command::new("gdb")
        .args([
            "-batch",
            "-nx",
            "-ex",
            &format!("target remote {addr}"),
            "-ex",
            "continue",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("exited normally"), "{text}");
    let status = wait_for(&mut server, 10.0).expect("the server ends with the program");
    assert_eq!(status.code(), Some(0), "the program's exit code");
}

#[test]
fn gdb_sees_an_unimplemented_function_as_sigsys() {
    if !have_gdb() {
        return;
    }
    let (out, status) = gdb_session(
        &[rom("unimpl.exe").to_str().unwrap()],
        &["continue", "monitor stack", "continue"],
    );
    assert!(out.contains("Program received signal SIGSYS"), "{out}");
    assert!(
        out.contains("SwapRecording"),
        "the console says what:\n{out}"
    );
    assert!(out.contains("main+0xa"), "the caller's walk:\n{out}");
    assert!(out.contains("terminated with signal SIGSYS"), "{out}");
    assert!(status.is_some());
}

#[test]
fn debug_session_views() {
    let demo = rom("demo.exe");
    let out = debug_session(
        &[demo.to_str().unwrap()],
        "break DEMO!paint_stop\ncontinue\nmodules\ntasks\nselector CS\nselector 0\nstack --explain\ndisasm 2\nx/4b DS:0010\nhelp\nbogus\n",
    );
    assert!(
        out.lines()
            .any(|l| l.contains("DEMO") && l.contains("1=") && l.contains("2=")),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.contains("DEMO") && l.ends_with('*')),
        "the current task:\n{out}"
    );
    // A ring-3 LDT code selector (win16.md: program selectors are LDT
    // selectors with RPL 3).
    assert!(
        out.contains(": LDT index") && out.contains("RPL 3") && out.contains("code"),
        "{out}"
    );
    assert!(out.contains("0000: no such selector"), "{out}");
    assert!(
        out.contains("step 5: saved BP 09E9 is odd"),
        "demo.expect's first far frame:\n{out}"
    );
    assert!(out.contains("=> ") && out.contains("paint_stop:"), "{out}");
    // demo.asm's msg_hello at DS:0010 begins "tool".
    assert!(out.contains(" 74 6F 6F 6C"), "{out}");
    assert!(
        out.contains("reverse-stepi"),
        "help lists the commands:\n{out}"
    );
    assert!(out.contains("error: unknown command 'bogus'"), "{out}");
}

#[test]
fn debug_session_in_a_window_procedure_goes_on_to_the_programs_end() {
    // WndProc runs inside USER's DispatchMessage (a nested emulation):
    // the stop there, `finish` back into WndProc and `continue` must let
    // USER's code go on, so the run ends as a plain run does.
    let winmsg = rom("winmsg.exe");
    let plain = Command::new(exe())
        .arg("run")
        .arg(&winmsg)
        .output()
        .unwrap();
    let out = Command::new(exe())
        .args(["debug", "--commands", "/dev/stdin"])
        .arg(&winmsg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b"break WINMSG!paint_here\ncontinue\nbt\nfinish\nwhere\ncontinue\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let bt: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("walk by"))
        .take_while(|l| !l.starts_with("walk ended"))
        .collect();
    assert!(bt.iter().any(|l| l.contains("paint_here")), "{text}");
    assert!(bt.iter().any(|l| l.contains("WndProc+")), "{text}");
    assert!(
        bt.iter().any(|l| l.contains("USER")),
        "called from USER:\n{text}"
    );
    assert!(
        text.contains("WndProc+0x"),
        "finish returns into WndProc:\n{text}"
    );
    let code = plain.status.code().unwrap();
    assert!(
        text.contains(&format!("exited with code {code}")),
        "the debugged run ends as the plain run (code {code}):\n{text}"
    );
}

#[test]
fn debug_session_position_breakpoints_and_reverse_continue_from_the_end() {
    let demo = rom("demo.exe");
    let out = debug_session(
        &[demo.to_str().unwrap()],
        "break +30\ncontinue\nposition\ncontinue\nreverse-continue\nposition\nreverse-continue\nposition\n",
    );
    let after: Vec<String> = out
        .lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "(debug) position")
        .map(|w| w[1].to_string())
        .collect();
    assert_eq!(after, ["30", "30", "0"], "{out}");
    // The stop at a position breakpoint says the position.
    assert!(out.contains("breakpoint at position 30, at "), "{out}");
    assert!(out.contains("exited with code 0"), "{out}");
    assert!(
        out.contains("at the start of the recorded history"),
        "{out}"
    );
}

#[test]
fn a_replay_reaches_the_same_state_through_timer_interrupts() {
    // dosirq.com takes the timer's and the keyboard's interrupts (its
    // header): a position past several ticks, reached forward, then again
    // after going back by replay, has the same registers, stack and BIOS
    // tick count (0040:006C).
    let out = debug_session(
        &["--keys", "q", rom("dosirq.com").to_str().unwrap()],
        "break +800000\ncontinue\nregs\nx/8 SS:SP\nx/2 0040:006C\ngoto 700000\nposition\ncontinue\nregs\nx/8 SS:SP\nx/2 0040:006C\nposition\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let after = |cmd: &str| -> Vec<&str> {
        lines
            .windows(2)
            .filter(|w| w[0] == format!("(debug) {cmd}"))
            .map(|w| w[1])
            .collect()
    };
    let ticks = after("x/2 0040:006C");
    assert_eq!(ticks.len(), 2, "{out}");
    assert_eq!(ticks[0], ticks[1], "{out}");
    assert_ne!(
        ticks[0], "0040:006C  0000 0000",
        "ticks have passed:\n{out}"
    );
    let stack = after("x/8 SS:SP");
    assert_eq!(stack[0], stack[1], "{out}");
    assert_eq!(after("position"), ["700000", "800000"], "{out}");
    let regs: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("AX=") || l.starts_with("CS="))
        .copied()
        .collect();
    assert_eq!(regs.len(), 4, "{out}");
    assert_eq!(regs[0..2], regs[2..4], "{out}");
}

#[test]
fn debug_session_read_watchpoint_and_screenshot() {
    // demo.asm: paint_stop is `mov cx, [bp+6]`, reading PaintLine's
    // argument at SS:09E6 (demo.expect: BP = 09E0).
    let dir = std::env::temp_dir().join(format!("th16-debug-shot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = debug_session_in(
        &dir,
        &[rom("demo.exe").to_str().unwrap()],
        "rwatch SS:09E6\ncontinue\nwhere\nscreenshot shot.png\n",
    );
    let stop = map_offset("demo.map", "paint_stop");
    assert!(out.contains("read watchpoint: linear"), "{out}");
    assert!(
        out.contains(&format!("= DEMO:1:{:04X} paint_stop+0x3", stop + 3)),
        "the stop follows the reading instruction:\n{out}"
    );
    let bytes = std::fs::read(dir.join("shot.png")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{out}");
}

/// Issue 30 item 6: a screenshot's file is a plain name created new in the
/// directory the tool was started in; any other path is refused, naming
/// the rule, and nothing is written outside that directory.
#[test]
fn debug_screenshot_writes_only_new_plain_files_in_its_directory() {
    let base = std::env::temp_dir().join(format!("th16-debug-jail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let dir = base.join("out");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("kept.png"), b"mine").unwrap();
    let outside = base.join("escape.png");
    let refused = [
        "../escape.png".to_string(),
        outside.display().to_string(),
        "sub/inner.png".into(),
        "sub\\inner.png".into(),
        ".hidden.png".into(),
        "notes.txt".into(),
        "kept.png".into(),
    ];
    let mut cmds = String::from("rwatch SS:09E6\ncontinue\n");
    for r in &refused {
        cmds.push_str(&format!("screenshot {r}\n"));
    }
    cmds.push_str("screenshot fine.PNG\n");
    let out = debug_session_in(&dir, &[rom("demo.exe").to_str().unwrap()], &cmds);
    for r in &refused[..6] {
        assert!(
            out.contains(&format!(
                "screenshot {r}: not a plain file name ending in .png"
            )),
            "{r}:\n{out}"
        );
    }
    assert!(
        out.contains("screenshot kept.png: a file of that name exists"),
        "{out}"
    );
    assert!(!outside.exists(), "{out}");
    assert!(!dir.join("sub").join("inner.png").exists(), "{out}");
    assert!(!dir.join("sub\\inner.png").exists(), "{out}");
    assert!(!dir.join(".hidden.png").exists(), "{out}");
    assert_eq!(std::fs::read(dir.join("kept.png")).unwrap(), b"mine");
    let fine = std::fs::read(dir.join("fine.PNG")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&base);
    assert!(fine.starts_with(b"\x89PNG\r\n\x1a\n"), "{out}");
}

/// The same rule through the gdb stub: `monitor screenshot ../FILE` and an
/// absolute path are refused with the message, and no file appears.
#[test]
fn gdb_monitor_screenshot_refuses_paths_outside_its_directory() {
    if !have_gdb() {
        return;
    }
    let up = format!("th16-gdb-escape-{}.png", std::process::id());
    let abs = std::env::temp_dir().join(&up);
    let (out, _) = gdb_session(
        &[rom("demo.exe").to_str().unwrap()],
        &[
            "monitor break DEMO!PaintLine",
            "continue",
            &format!("monitor screenshot ../{up}"),
            &format!("monitor screenshot {}", abs.display()),
            "kill",
        ],
    );
    assert_eq!(
        out.matches("not a plain file name ending in .png").count(),
        2,
        "{out}"
    );
    assert!(!abs.exists(), "{out}");
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(&up)
            .exists(),
        "{out}"
    );
}

#[test]
fn gdb_detach_lets_the_program_run_to_its_end() {
    if !have_gdb() {
        return;
    }
    let winmsg = rom("winmsg.exe");
    let plain = Command::new(exe())
        .arg("run")
        .arg(&winmsg)
        .output()
        .unwrap();
    let (out, status) = gdb_session(&[winmsg.to_str().unwrap()], &["detach"]);
    assert!(out.contains("detached"), "{out}");
    assert_eq!(
        status.and_then(|s| s.code()),
        plain.status.code(),
        "the detached program ends as a plain run:\n{out}"
    );
}

#[test]
fn a_fault_stops_once_before_its_callbacks_and_again_only_when_it_happens_again() {
    // faultwalk.asm: its InterruptRegister callback walks and passes the
    // #GP at gp_here on (tail: none of its letters), or resumes into the
    // same fault every time (tail `f`).
    let fw = rom("faultwalk.exe");
    let once = debug_session(&[fw.to_str().unwrap(), "--", "g"], "continue\ncontinue\n");
    let faults = once
        .lines()
        .filter(|l| l.starts_with("general protection fault"))
        .count();
    assert_eq!(faults, 1, "one stop, then the end:\n{once}");
    assert!(
        once.contains("the program has ended: general protection fault"),
        "{once}"
    );
    let again = debug_session(
        &[fw.to_str().unwrap(), "--", "f"],
        "continue\nposition\ncontinue\nposition\ncontinue\nposition\n",
    );
    let lines: Vec<&str> = again.lines().collect();
    let positions: Vec<u64> = lines
        .windows(2)
        .filter(|w| w[0] == "(debug) position")
        .map(|w| w[1].parse().unwrap())
        .collect();
    assert_eq!(positions.len(), 3, "{again}");
    assert!(
        positions[0] < positions[1] && positions[1] < positions[2],
        "each stop is the fault happening again, later:\n{again}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("general protection fault"))
            .count(),
        3,
        "{again}"
    );
}
