//! A gdb remote stub: the Remote Serial Protocol over TCP, serving the
//! debugger's stops (the module above) to gdb, IDA, Ghidra, radare2 or
//! any other client of the protocol.
//!
//! **Addresses are linear.** gdb knows no segments: every address it sends
//! or reads (`m`, `M`, `X`, `Z`, and the program counter) is a linear
//! address, the one the CPU forms from a segment's base and an offset: in
//! real mode `segment * 16 + offset`, in protected mode the descriptor's
//! base plus the offset (`monitor selector SEL` shows a base). The target
//! description says the machine is an `i8086` with the i386 register file
//! gdb expects (`org.gnu.gdb.i386.core`), where:
//!
//! * `eip` is the **linear** address of CS:IP, so that `x/i $pc`,
//!   `break *ADDR`, `display` and stepping all speak linear addresses;
//!   writing it moves IP inside the current code segment;
//! * `eax` ... `edi`, `esp`, `ebp` and `eflags` are the registers as the
//!   CPU holds them (the 16-bit program's are the low words: gdb's `$ax`,
//!   `$sp` ...), and `cs` ... `gs` the selectors or real-mode segments;
//! * a feature of the tool's own, `org.toolhelp16.segments`, adds `ip`
//!   (the 16-bit offset) and `csbase`, `ssbase`, `dsbase`, `esbase` (the
//!   linear bases), so `x/8xh $ssbase + $sp` shows the stack;
//! * the x87 registers are reported unavailable.
//!
//! gdb's own unwinder cannot walk segmented 16:16 frames: `monitor stack`
//! gives the ToolHelp walk, and `monitor break LOC` takes every place
//! `stack --at` takes (`MODULE!NAME` ...).
//!
//! Faults stop as signals before the environment sees them (SIGSEGV for
//! #GP, #SS, #NP; SIGFPE for a divide error; SIGILL for an invalid
//! opcode; SIGTRAP for INT 3 and the single-step trap); continuing lets
//! TOOLHELP's dispatch or the default action have them.
//!
//! A limit of the session (`--max-insns`, `--timeout`; the module above,
//! "Limits") ends the program: gdb gets `T18` (SIGXCPU, "Program received
//! signal SIGXCPU"), and `X18` (the process ended by SIGXCPU) if it
//! resumes from there (gone back from it, gdb sees the limit as a
//! `T18` stop again when the program comes to it again); after a detach the server ends the program at the limit and
//! exits with the limit's status. `--timeout` also bounds the wait for a
//! client: when none connects within it the server says so and exits
//! with the wall-clock limit's status (123), the program not run.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};

use unicorn_engine::RegisterX86;

use super::rsp::{self, Decoder, Event};
use super::{Frontend, Here, Resume, Watch, WatchKind, Why, monitor};
use crate::machine::Cpu;
use crate::machine::Stop;

/// The target description (module notes).
pub const TARGET_XML: &str = r#"<?xml version="1.0"?>
<!DOCTYPE target SYSTEM "gdb-target.dtd">
<target version="1.0">
  <architecture>i8086</architecture>
  <osabi>none</osabi>
  <feature name="org.gnu.gdb.i386.core">
    <flags id="i386_eflags" size="4">
      <field name="CF" start="0" end="0"/>
      <field name="" start="1" end="1"/>
      <field name="PF" start="2" end="2"/>
      <field name="AF" start="4" end="4"/>
      <field name="ZF" start="6" end="6"/>
      <field name="SF" start="7" end="7"/>
      <field name="TF" start="8" end="8"/>
      <field name="IF" start="9" end="9"/>
      <field name="DF" start="10" end="10"/>
      <field name="OF" start="11" end="11"/>
      <field name="NT" start="14" end="14"/>
      <field name="RF" start="16" end="16"/>
      <field name="VM" start="17" end="17"/>
      <field name="AC" start="18" end="18"/>
    </flags>
    <reg name="eax" bitsize="32" type="int32" regnum="0"/>
    <reg name="ecx" bitsize="32" type="int32"/>
    <reg name="edx" bitsize="32" type="int32"/>
    <reg name="ebx" bitsize="32" type="int32"/>
    <reg name="esp" bitsize="32" type="int32"/>
    <reg name="ebp" bitsize="32" type="int32"/>
    <reg name="esi" bitsize="32" type="int32"/>
    <reg name="edi" bitsize="32" type="int32"/>
    <reg name="eip" bitsize="32" type="code_ptr"/>
    <reg name="eflags" bitsize="32" type="i386_eflags"/>
    <reg name="cs" bitsize="32" type="int32"/>
    <reg name="ss" bitsize="32" type="int32"/>
    <reg name="ds" bitsize="32" type="int32"/>
    <reg name="es" bitsize="32" type="int32"/>
    <reg name="fs" bitsize="32" type="int32"/>
    <reg name="gs" bitsize="32" type="int32"/>
    <reg name="st0" bitsize="80" type="i387_ext"/>
    <reg name="st1" bitsize="80" type="i387_ext"/>
    <reg name="st2" bitsize="80" type="i387_ext"/>
    <reg name="st3" bitsize="80" type="i387_ext"/>
    <reg name="st4" bitsize="80" type="i387_ext"/>
    <reg name="st5" bitsize="80" type="i387_ext"/>
    <reg name="st6" bitsize="80" type="i387_ext"/>
    <reg name="st7" bitsize="80" type="i387_ext"/>
    <reg name="fctrl" bitsize="32" type="int" group="float"/>
    <reg name="fstat" bitsize="32" type="int" group="float"/>
    <reg name="ftag" bitsize="32" type="int" group="float"/>
    <reg name="fiseg" bitsize="32" type="int" group="float"/>
    <reg name="fioff" bitsize="32" type="int" group="float"/>
    <reg name="foseg" bitsize="32" type="int" group="float"/>
    <reg name="fooff" bitsize="32" type="int" group="float"/>
    <reg name="fop" bitsize="32" type="int" group="float"/>
  </feature>
  <feature name="org.toolhelp16.segments">
    <reg name="ip" bitsize="16" type="uint16" regnum="32"/>
    <reg name="csbase" bitsize="32" type="data_ptr"/>
    <reg name="ssbase" bitsize="32" type="data_ptr"/>
    <reg name="dsbase" bitsize="32" type="data_ptr"/>
    <reg name="esbase" bitsize="32" type="data_ptr"/>
  </feature>
</target>
"#;

/// Registers in the description's order: gdb's register numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Reg {
    Cpu(RegisterX86),
    Pc,
    /// x87 register n (16..=31): unavailable.
    Fpu(usize),
    Ip,
    Base(RegisterX86),
}

const NUM_REGS: usize = 37;

fn reg(n: usize) -> Option<Reg> {
    use RegisterX86 as X;
    Some(match n {
        0 => Reg::Cpu(X::EAX),
        1 => Reg::Cpu(X::ECX),
        2 => Reg::Cpu(X::EDX),
        3 => Reg::Cpu(X::EBX),
        4 => Reg::Cpu(X::ESP),
        5 => Reg::Cpu(X::EBP),
        6 => Reg::Cpu(X::ESI),
        7 => Reg::Cpu(X::EDI),
        8 => Reg::Pc,
        9 => Reg::Cpu(X::EFLAGS),
        10 => Reg::Cpu(X::CS),
        11 => Reg::Cpu(X::SS),
        12 => Reg::Cpu(X::DS),
        13 => Reg::Cpu(X::ES),
        14 => Reg::Cpu(X::FS),
        15 => Reg::Cpu(X::GS),
        16..=31 => Reg::Fpu(n),
        32 => Reg::Ip,
        33 => Reg::Base(X::CS),
        34 => Reg::Base(X::SS),
        35 => Reg::Base(X::DS),
        36 => Reg::Base(X::ES),
        _ => return None,
    })
}

/// A register's size in bytes.
fn reg_size(r: Reg) -> usize {
    match r {
        Reg::Fpu(n) if n < 24 => 10,
        Reg::Ip => 2,
        _ => 4,
    }
}

fn seg_value(h: &Here<'_, '_>, r: RegisterX86) -> u16 {
    let regs = h.regs();
    match r {
        RegisterX86::CS => regs.cs,
        RegisterX86::SS => regs.ss,
        RegisterX86::DS => regs.ds,
        RegisterX86::ES => regs.es,
        RegisterX86::FS => regs.fs,
        _ => regs.gs,
    }
}

/// A register's value as the packet carries it (little-endian hex), or
/// `x`s for an unavailable one.
fn read_reg(h: &Here<'_, '_>, r: Reg) -> String {
    let v: u64 = match r {
        Reg::Fpu(_) => return "x".repeat(reg_size(r) * 2),
        Reg::Pc => h.pc(),
        Reg::Ip => u64::from(h.regs().ip),
        Reg::Base(s) => {
            let sel = seg_value(h, s);
            h.linear(sel, 0).unwrap_or(0)
        }
        Reg::Cpu(x) => match x {
            RegisterX86::CS
            | RegisterX86::SS
            | RegisterX86::DS
            | RegisterX86::ES
            | RegisterX86::FS
            | RegisterX86::GS => u64::from(seg_value(h, x)),
            _ => h.reg32(x),
        },
    };
    rsp::to_hex(&v.to_le_bytes()[..reg_size(r)])
}

/// Set a register from gdb's value.
fn write_reg(h: &mut Here<'_, '_>, r: Reg, bytes: &[u8]) -> Result<(), String> {
    if bytes.len() != reg_size(r) {
        return Err("the value has the wrong size".into());
    }
    let mut b = [0u8; 8];
    b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
    let v = u64::from_le_bytes(b);
    match r {
        Reg::Fpu(_) => Ok(()),
        Reg::Base(_) => Err("a segment's base is set by loading the segment register".into()),
        Reg::Ip => h.set_reg(RegisterX86::IP, v & 0xFFFF),
        Reg::Pc => {
            let cs = h.regs().cs;
            let base = h.linear(cs, 0).ok_or("CS is not a valid segment")?;
            let limit = h.uc().descriptor_of(cs).map_or(0xFFFF, |d| d.limit);
            match v.checked_sub(base) {
                Some(off) if off <= u64::from(limit) && off <= 0xFFFF => {
                    h.set_reg(RegisterX86::IP, off)
                }
                _ => Err(format!(
                    "linear {v:#x} is outside the code segment {cs:04X} (base {base:#x}); set $cs and $ip instead"
                )),
            }
        }
        Reg::Cpu(x) => h.set_reg(x, v),
    }
}

/// gdb's signal number for a stop (gdb/signals.def numbering).
fn signal_of(why: &Why) -> u8 {
    match why {
        Why::Fault(f) => super::fault_signal(f.number),
        Why::Interrupted => 2,
        Why::Ended(s) => match s {
            Stop::Fault(f) => super::fault_signal(f.number),
            Stop::Unimplemented { .. } => 12,   // SIGSYS
            Stop::Budget | Stop::Timeout => 24, // SIGXCPU
            _ => 6,                             // SIGABRT
        },
        _ => 5,
    }
}

/// The gdb server's side of a session.
pub struct GdbServer {
    stream: TcpStream,
    dec: Decoder,
    /// Events read while the program ran, not yet handled.
    queued: std::collections::VecDeque<Event>,
    no_ack: bool,
    gone: bool,
    /// The end was reported (W or X): gdb sees no process any more.
    reported_end: bool,
    /// The end's stop was reported as a stop; the next resume reports it
    /// as the end.
    end_shown: bool,
    /// The breakpoints gdb set (Z0, Z1), by linear address.
    gdb_breaks: std::collections::BTreeSet<u64>,
    /// Log the packets on stderr (TOOLHELP16_GDB_LOG set).
    log: bool,
}

impl GdbServer {
    /// Serve the client on `stream`.
    pub fn new(stream: TcpStream) -> GdbServer {
        let _ = stream.set_nodelay(true);
        GdbServer {
            stream,
            dec: Decoder::default(),
            queued: Default::default(),
            no_ack: false,
            gone: false,
            reported_end: false,
            end_shown: false,
            gdb_breaks: Default::default(),
            log: std::env::var_os("TOOLHELP16_GDB_LOG").is_some(),
        }
    }

    /// The next event from the client; None when it has gone.
    fn next_event(&mut self) -> Option<Event> {
        if let Some(e) = self.queued.pop_front() {
            return Some(e);
        }
        let mut buf = [0u8; 4096];
        loop {
            if self.gone {
                return None;
            }
            let n = match self.stream.read(&mut buf) {
                Ok(0) | Err(_) => {
                    self.gone = true;
                    return None;
                }
                Ok(n) => n,
            };
            for &b in &buf[..n] {
                if let Some(e) = self.dec.feed(b) {
                    self.queued.push_back(e);
                }
            }
            if let Some(e) = self.queued.pop_front() {
                return Some(e);
            }
        }
    }

    fn send(&mut self, body: &[u8]) {
        if self.log {
            eprintln!(
                "gdb <- {}",
                crate::escape::name(&String::from_utf8_lossy(body))
            );
        }
        let framed = rsp::frame(body);
        if self.stream.write_all(&framed).is_err() {
            self.gone = true;
        }
        // Acknowledgements are not waited for: a `-` makes the client's
        // next packet arrive again, which costs nothing to ignore here.
    }

    fn send_str(&mut self, s: &str) {
        self.send(s.as_bytes());
    }

    fn ack(&mut self, good: bool) {
        if !self.no_ack
            && self
                .stream
                .write_all(if good { b"+" } else { b"-" })
                .is_err()
        {
            self.gone = true;
        }
    }

    /// Send console text (`O` packets), in pieces that fit a packet.
    fn console(&mut self, text: &str) {
        for chunk in text.as_bytes().chunks(rsp::MAX_PACKET / 2 - 8) {
            let body = format!("O{}", rsp::to_hex(chunk));
            self.send_str(&body);
        }
    }

    fn stop_reply(&mut self, h: &Here<'_, '_>) -> String {
        match &h.why {
            Why::Ended(Stop::Exited { code }) => format!("W{code:02x}"),
            Why::Ended(Stop::Fault(_)) => format!("X{:02x}", signal_of(&h.why)),
            Why::Ended(_) if self.end_shown => format!("X{:02x}", signal_of(&h.why)),
            Why::Watch { kind, addr } => {
                format!("T05{}:{addr:x};", kind.gdb_name())
            }
            // gdb resumes silently at a `swbreak` where it set no
            // breakpoint: a `monitor break` stops as a plain SIGTRAP.
            Why::Breakpoint if self.gdb_breaks.contains(&h.pc()) => "T05swbreak:;".into(),
            Why::HistoryStart => "T05replaylog:begin;".into(),
            w => format!("T{:02x}", signal_of(w)),
        }
    }

    /// Report the stop (after a resume packet, or for `?`).
    fn report(&mut self, h: &Here<'_, '_>) {
        if let Why::Fault(_) | Why::Ended(_) = h.why
            && !self.end_shown
        {
            self.console(&format!("toolhelp16: {}\n", super::views::describe(h)));
        }
        let r = self.stop_reply(h);
        if r.starts_with('W') || r.starts_with('X') {
            self.reported_end = true;
        }
        // The end was shown at this stop: resuming from it is the end
        // of the process. A stop elsewhere (gdb went back from the end)
        // makes the end a stop again when the program reaches it anew.
        self.end_shown = matches!(h.why, Why::Ended(_));
        self.send_str(&r);
    }

    /// Handle one packet; Some(resume) for a packet that resumes.
    fn packet(&mut self, h: &mut Here<'_, '_>, p: &[u8]) -> Option<Resume> {
        let text = String::from_utf8_lossy(p).into_owned();
        let (head, rest) = match p.first() {
            Some(&c) => (c, &p[1..]),
            None => {
                self.send_str("");
                return None;
            }
        };
        if text == "QStartNoAckMode" {
            self.send_str("OK");
            self.no_ack = true;
            return None;
        }
        let reply: String = match head {
            b'?' => {
                if let Why::Start = h.why {
                    "S05".into()
                } else {
                    self.stop_reply(h)
                }
            }
            b'g' => (0..NUM_REGS)
                .filter_map(reg)
                .map(|r| read_reg(h, r))
                .collect(),
            b'G' => match rsp::from_hex(rest) {
                Some(bytes) => self.write_all_regs(h, &bytes),
                None => "E01".into(),
            },
            b'p' => match rsp::hex_number(rest).and_then(|n| reg(n as usize)) {
                Some(r) => read_reg(h, r),
                None => "E01".into(),
            },
            b'P' => {
                let parsed = rest.iter().position(|&b| b == b'=').and_then(|i| {
                    let r = reg(rsp::hex_number(&rest[..i])? as usize)?;
                    Some((r, rsp::from_hex(&rest[i + 1..])?))
                });
                match parsed {
                    Some((r, v)) => match write_reg(h, r, &v) {
                        Ok(()) => "OK".into(),
                        Err(e) => self.error(&e),
                    },
                    None => "E01".into(),
                }
            }
            b'm' => match addr_len(rest) {
                Some((a, n)) if n <= rsp::MAX_PACKET as u64 / 2 => {
                    let mut buf = vec![0u8; n as usize];
                    match h.read(a, &mut buf) {
                        Ok(()) => rsp::to_hex(&buf),
                        Err(_) => read_partial(h, a, n as usize),
                    }
                }
                _ => "E01".into(),
            },
            b'M' | b'X' => {
                let colon = rest.iter().position(|&b| b == b':');
                let parsed = colon.and_then(|i| {
                    let (a, n) = addr_len(&rest[..i])?;
                    let data = if head == b'M' {
                        rsp::from_hex(&rest[i + 1..])?
                    } else {
                        rest[i + 1..].to_vec()
                    };
                    (data.len() as u64 == n).then_some((a, data))
                });
                match parsed {
                    Some((_, data)) if data.is_empty() => "OK".into(),
                    Some((a, data)) => match h.write(a, &data) {
                        Ok(()) => "OK".into(),
                        Err(e) => self.error(&e),
                    },
                    None => "E01".into(),
                }
            }
            b'Z' | b'z' => self.point(h, head == b'Z', rest),
            b'c' | b'C' => return self.resume(h, Resume::Continue),
            b's' | b'S' => return self.resume(h, Resume::Step),
            b'b' if rest == b"s" => return self.resume(h, Resume::ReverseStep),
            b'b' if rest == b"c" => return self.resume(h, Resume::ReverseContinue),
            b'k' => {
                self.gone = true;
                return Some(Resume::Kill);
            }
            b'D' => {
                self.send_str("OK");
                self.gone = true;
                return Some(Resume::Detach);
            }
            b'H' | b'T' => "OK".into(),
            b'v' => {
                if text == "vCont?" {
                    "vCont;c;C;s;S".into()
                } else if let Some(actions) = text.strip_prefix("vCont;") {
                    let first = actions.split(';').next().unwrap_or("");
                    let r = match first.as_bytes().first() {
                        Some(b'c' | b'C') => Resume::Continue,
                        Some(b's' | b'S' | b'r') => Resume::Step,
                        _ => {
                            self.send_str("E01");
                            return None;
                        }
                    };
                    return self.resume(h, r);
                } else if text == "vKill;1" || text.starts_with("vKill") {
                    self.send_str("OK");
                    self.gone = true;
                    return Some(Resume::Kill);
                } else {
                    String::new()
                }
            }
            b'q' | b'Q' => self.query(h, &text),
            _ => String::new(),
        };
        self.send_str(&reply);
        None
    }

    /// An error reply; the message goes to the console first.
    fn error(&mut self, msg: &str) -> String {
        self.console(&format!("toolhelp16: {msg}\n"));
        "E0e".into()
    }

    fn write_all_regs(&mut self, h: &mut Here<'_, '_>, bytes: &[u8]) -> String {
        let mut at = 0;
        for n in 0..NUM_REGS {
            let Some(r) = reg(n) else { break };
            let size = reg_size(r);
            let Some(v) = bytes.get(at..at + size) else {
                break;
            };
            at += size;
            if matches!(r, Reg::Fpu(_) | Reg::Base(_)) {
                continue;
            }
            let now = rsp::from_hex(read_reg(h, r).as_bytes());
            if now.as_deref() == Some(v) {
                continue;
            }
            if let Err(e) = write_reg(h, r, v) {
                return self.error(&e);
            }
        }
        "OK".into()
    }

    /// Z/z: breakpoints (0, 1) and watchpoints (2 write, 3 read, 4 access).
    fn point(&mut self, h: &mut Here<'_, '_>, insert: bool, rest: &[u8]) -> String {
        let fields: Vec<&[u8]> = rest.splitn(3, |&b| b == b',').collect();
        let (Some(kind), Some(addr), Some(len)) = (
            fields.first().and_then(|k| rsp::hex_number(k)),
            fields.get(1).and_then(|a| rsp::hex_number(a)),
            fields.get(2).and_then(|l| {
                let l = l.split(|&b| b == b';').next().unwrap_or(l);
                rsp::hex_number(l)
            }),
        ) else {
            return "E01".into();
        };
        let watch = |k| Watch { kind: k, addr, len };
        let res = match (kind, insert) {
            (0 | 1, true) => {
                h.add_breakpoint(addr);
                self.gdb_breaks.insert(addr);
                Ok(())
            }
            (0 | 1, false) => {
                h.remove_breakpoint(addr);
                self.gdb_breaks.remove(&addr);
                Ok(())
            }
            (2..=4, _) => {
                let k = match kind {
                    2 => WatchKind::Write,
                    3 => WatchKind::Read,
                    _ => WatchKind::Access,
                };
                if insert {
                    h.add_watch(watch(k))
                } else {
                    h.remove_watch(watch(k)).map(|_| ())
                }
            }
            _ => return String::new(),
        };
        match res {
            Ok(()) => "OK".into(),
            Err(e) => self.error(&e),
        }
    }

    fn resume(&mut self, h: &Here<'_, '_>, r: Resume) -> Option<Resume> {
        if self.reported_end {
            // gdb resumed a process it was told has ended.
            self.send_str(&format!("X{:02x}", signal_of(&h.why)));
            return None;
        }
        if let Why::Ended(_) = h.why
            && matches!(r, Resume::Continue | Resume::Step)
        {
            // The program cannot go on: report its end.
            self.report(h);
            return None;
        }
        Some(r)
    }

    fn query(&mut self, h: &mut Here<'_, '_>, text: &str) -> String {
        if text.starts_with("qSupported") {
            return format!(
                "PacketSize={:x};qXfer:features:read+;swbreak+;hwbreak+;ReverseStep+;ReverseContinue+;QStartNoAckMode+;vContSupported+",
                rsp::MAX_PACKET
            );
        }
        if let Some(rest) = text.strip_prefix("qXfer:features:read:") {
            let Some((annex, range)) = rest.split_once(':') else {
                return "E01".into();
            };
            if annex != "target.xml" {
                return "E00".into();
            }
            let Some((off, len)) = addr_len(range.as_bytes()) else {
                return "E01".into();
            };
            let xml = TARGET_XML.as_bytes();
            let off = (off as usize).min(xml.len());
            let end = off.saturating_add(len as usize).min(xml.len());
            let more = if end < xml.len() { "m" } else { "l" };
            return format!("{more}{}", String::from_utf8_lossy(&xml[off..end]));
        }
        match text {
            "qAttached" => return "1".into(),
            "qC" => return "QC1".into(),
            "qfThreadInfo" => return "m1".into(),
            "qsThreadInfo" => return "l".into(),
            _ => {}
        }
        if let Some(hex) = text.strip_prefix("qRcmd,") {
            let Some(cmd) = rsp::from_hex(hex.as_bytes()) else {
                return "E01".into();
            };
            let cmd = String::from_utf8_lossy(&cmd).into_owned();
            match monitor::run(h, &cmd) {
                Ok(Some(out)) => self.console(&out),
                Ok(None) => self.console(&format!(
                    "toolhelp16: unknown monitor command '{}'; `monitor help` lists them\n",
                    crate::escape::name(&cmd)
                )),
                Err(e) => self.console(&format!("toolhelp16: {e}\n")),
            }
            return "OK".into();
        }
        String::new()
    }
}

/// `ADDR,LEN` in hexadecimal.
fn addr_len(text: &[u8]) -> Option<(u64, u64)> {
    let i = text.iter().position(|&b| b == b',')?;
    Some((
        rsp::hex_number(&text[..i])?,
        rsp::hex_number(&text[i + 1..])?,
    ))
}

/// A read that failed whole: the bytes that can be read from its start
/// (gdb accepts a short reply), or an error when none can.
fn read_partial(h: &Here<'_, '_>, addr: u64, n: usize) -> String {
    let mut out = Vec::new();
    for i in 0..n as u64 {
        let mut b = [0u8];
        if h.read(addr + i, &mut b).is_err() {
            break;
        }
        out.push(b[0]);
    }
    if out.is_empty() {
        "E14".into()
    } else {
        rsp::to_hex(&out)
    }
}

impl Frontend for GdbServer {
    fn stopped(&mut self, h: &mut Here<'_, '_>) -> Resume {
        if self.gone {
            return Resume::Kill;
        }
        if !matches!(h.why, Why::Start) {
            self.report(h);
        }
        loop {
            let Some(ev) = self.next_event() else {
                return Resume::Kill;
            };
            match ev {
                Event::Packet(p) => {
                    if self.log {
                        eprintln!(
                            "gdb -> {}",
                            crate::escape::name(&String::from_utf8_lossy(&p))
                        );
                    }
                    self.ack(true);
                    if let Some(r) = self.packet(h, &p) {
                        return r;
                    }
                    if self.gone {
                        return Resume::Kill;
                    }
                }
                Event::Bad => self.ack(false),
                Event::Interrupt => {
                    // Already stopped: say so again.
                    self.report(h);
                }
                Event::Ack(_) => {}
            }
        }
    }

    fn interrupted(&mut self) -> bool {
        if self.stream.set_nonblocking(true).is_err() {
            return false;
        }
        let mut buf = [0u8; 512];
        let mut stop = false;
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => {
                    self.gone = true;
                    stop = true;
                    break;
                }
                Ok(n) => {
                    for &b in &buf[..n] {
                        match self.dec.feed(b) {
                            Some(Event::Interrupt) => stop = true,
                            Some(e) => self.queued.push_back(e),
                            None => {}
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.gone = true;
                    stop = true;
                    break;
                }
            }
        }
        let _ = self.stream.set_nonblocking(false);
        stop
    }

    fn gone(&self) -> bool {
        self.gone
    }
}

/// Where to listen: `PORT` or `:PORT` on the loopback address, or
/// `ADDRESS:PORT` (an IP address, which may be any: naming it is the
/// consent to listen there).
pub fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let t = text.trim();
    let port_only = t.strip_prefix(':').unwrap_or(t);
    if let Ok(port) = port_only.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    t.parse::<SocketAddr>().map_err(|_| {
        format!(
            "--listen {t}: expected PORT, or ADDRESS:PORT with an IP address (127.0.0.1:1234, [::1]:1234)"
        )
    })
}

/// Listen on `addr`, say where on stderr, and take one client: None
/// when none connected within `wait` (the session's `--timeout`, which
/// bounds the wait for a client as it bounds the program's run: a server
/// nobody connects to does not wait for ever).
pub fn accept(addr: SocketAddr, wait: std::time::Duration) -> Result<Option<TcpStream>, String> {
    let l = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = l.local_addr().map_err(|e| e.to_string())?;
    if !local.ip().is_loopback() {
        eprintln!(
            "toolhelp16: warning: listening on {local}, not a loopback address: whoever reaches it controls the program"
        );
    }
    eprintln!("toolhelp16: gdbserver listening on {local}; in gdb: target remote {local}");
    let until = std::time::Instant::now() + wait;
    l.set_nonblocking(true)
        .map_err(|e| format!("listening on {local}: {e}"))?;
    let (s, peer) = loop {
        match l.accept() {
            Ok(c) => break c,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if std::time::Instant::now() >= until {
                    return Ok(None);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("accepting a client: {e}")),
        }
    };
    s.set_nonblocking(false)
        .map_err(|e| format!("the client's connection: {e}"))?;
    eprintln!("toolhelp16: gdb connected from {peer}");
    Ok(Some(s))
}
