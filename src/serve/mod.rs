//! `toolhelp16 serve`: any moment of a run in the browser. A program run
//! under the debugger (src/debug/), or a recording (`trace --record`)
//! replayed by running its program again as the recording names it, is
//! served as pages, one per position: `/at/N` is the moment after N
//! instructions (the debugger's positions, src/debug/mod.rs), so a moment
//! can be bookmarked. Each page is made on the server ([`page`]): the
//! screen, the registers, the disassembly around CS:IP, the ToolHelp
//! walk as `stack` prints it and its picture, the task list, and a
//! timeline whose links and forms move the run (step either way, go to
//! a position, run to a breakpoint or to the next system call).
//!
//! **How it runs.** The server is the debugger's front end: the page is
//! served from inside the debugger's stop (as gdb's packets are), and a
//! request for another moment is answered after the debugger moved the
//! program there. Going back is the debugger's reverse execution (a
//! replay, made faster by checkpoints where the debugger has them);
//! going forward runs to a position breakpoint (without the debugger's
//! hook on every instruction until the position is near, as a
//! `continue` runs: src/debug/mod.rs, "Hooks"); both go through
//! [`go_to`], the one place that asks the debugger to move.
//!
//! **Bounds.** It listens on 127.0.0.1 unless `--listen` names another
//! address (a warning says so). At most [`MAX_CONNS`] connections are
//! held open, read as their bytes come (one that sends nothing holds up no
//! other), one request per connection, answered one at a time; a
//! request's head is at most 8 KiB, its body 1 KiB, and it must arrive
//! within 5 s ([`http`]). The program's `--timeout` and
//! `--max-insns` hold for the whole session, whatever the requests ask;
//! a search for the next system call gives up after
//! [`MAX_SEARCH`] instructions. No request names a file: the pages are
//! made in memory, and nothing is read or written on the host for them
//! (a source line's text comes from the file the program's debug
//! information names, as `debug` shows it).

pub mod http;
pub mod page;

use std::io::Read as _;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use crate::debug::{Frontend, Here, Loader, Outcome, Resume, Why};
use crate::machine::{Cpu, RunLimits};

use http::{Method, Request, Response};

/// The most instructions a search for the next system call steps over.
pub const MAX_SEARCH: u64 = 1_000_000;

/// The most connections held open at once (a browser opens some before
/// it has a request for them); past it, the oldest is closed.
const MAX_CONNS: usize = 8;
/// How long the server sleeps when no connection has anything to read.
const IDLE: Duration = Duration::from_millis(10);

/// A connection whose request is not all there yet.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    since: Instant,
}

/// A recording served: its file and what its end record says.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The recording's file, as named.
    pub file: String,
    /// The instructions the recorded run executed, when counted.
    pub instructions: Option<u64>,
}

/// What to serve, and where.
pub struct Config {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The program's name for the pages.
    pub title: String,
    /// The recording, when one is served.
    pub recording: Option<Recording>,
}

/// What a request waits for, while the debugger moves the program.
enum Goal {
    /// The moment at position N; `tried`: the move was asked once.
    At { n: u64, tried: bool },
    /// Run from position `from` to a breakpoint at `loc`; `placed`: the
    /// breakpoint set (linear) and whether it was there before.
    RunTo {
        from: u64,
        loc: String,
        tried: bool,
        placed: Option<(u64, bool)>,
    },
    /// From position `from`, step to the next system call; `steps`:
    /// instructions stepped so far (None: not started).
    Syscall {
        from: u64,
        tried: bool,
        steps: Option<u64>,
    },
}

/// A request waiting for the program to move.
struct Pending {
    stream: TcpStream,
    head_only: bool,
    goal: Goal,
}

/// The debugger's front end that serves pages.
struct Server {
    listener: TcpListener,
    title: String,
    recording: Option<Recording>,
    pending: Option<Pending>,
    /// A position breakpoint set by [`go_to`], removed at the next stop.
    position_break: Option<u64>,
    /// The furthest position reached.
    furthest: u64,
    /// Connections waiting for their requests.
    conns: Vec<Conn>,
}

/// Listen on `cfg.listen`, say where on stdout, and serve the program the
/// loader loads until a client ends the session (the page's "End the
/// session"), or the process is ended.
pub fn serve(load: &mut Loader<'_>, cfg: Config, limits: RunLimits) -> Result<Outcome, String> {
    let listener = TcpListener::bind(cfg.listen)
        .map_err(|e| format!("cannot listen on {}: {e}", cfg.listen))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listening on {local}: {e}"))?;
    if !local.ip().is_loopback() {
        eprintln!(
            "toolhelp16: warning: listening on {local}, not a loopback address: whoever reaches it controls the program"
        );
    }
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "toolhelp16: serving {} at http://{local}/ (the page's \"End the session\" or Ctrl-C ends it)",
            crate::escape::name(&cfg.title)
        );
        let _ = out.flush();
    }
    let server = Server {
        listener,
        title: cfg.title,
        recording: cfg.recording,
        pending: None,
        position_break: None,
        furthest: 0,
        conns: Vec::new(),
    };
    crate::debug::run_session_within(load, Box::new(server), limits)
}

/// Ask the debugger to move to position `n`: back by its reverse
/// execution (`GoTo`), forward one instruction by a step, further by a
/// position breakpoint (removed at the next stop). None when the program
/// cannot move there (it has ended, and `n` is ahead).
fn go_to(h: &mut Here<'_, '_>, n: u64, position_break: &mut Option<u64>) -> Option<Resume> {
    if n < h.pos {
        return Some(Resume::GoTo(n));
    }
    if matches!(h.why, Why::Ended(_)) || n == h.pos {
        return None;
    }
    if n == h.pos + 1 {
        return Some(Resume::Step);
    }
    h.add_position_break(n);
    *position_break = Some(n);
    Some(Resume::Continue)
}

/// Is the instruction at CS:IP a system call: an `INT n` (DOS, the BIOS;
/// a Win16 system function's thunk is `int F0h; retf N`, win16/api.rs)?
fn at_system_call(h: &Here<'_, '_>) -> bool {
    let r = h.regs();
    let mut b = [0u8; 1];
    h.uc().read_seg(r.cs, r.ip, &mut b).is_ok() && b[0] == 0xCD
}

/// What to do with a request once handled.
enum Next {
    /// Answered; wait for the next connection.
    Served,
    /// Move the program (the request waits in `pending`).
    Move(Resume),
    /// End the session.
    Quit,
}

impl Server {
    fn info<'a>(&'a self, note: Option<&'a str>) -> page::Info<'a> {
        page::Info {
            title: &self.title,
            recording: self.recording.as_ref(),
            furthest: self.furthest,
            note,
        }
    }

    /// Answer with the moment at the stop.
    fn show(&self, h: &Here<'_, '_>, stream: &mut TcpStream, head_only: bool, note: Option<&str>) {
        let body = page::moment(h, &self.info(note));
        http::write(stream, &Response::html(200, body), head_only);
    }

    /// Carry on with a waiting request at a stop: answer it, or move the
    /// program again.
    fn advance(&mut self, h: &mut Here<'_, '_>, mut p: Pending) -> Option<Resume> {
        let pos = h.pos;
        let redirect = |p: &mut Pending, note: Option<&str>| {
            let to = match note {
                Some(n) => page::at_with_note(pos, n),
                None => format!("/at/{pos}"),
            };
            http::write(&mut p.stream, &Response::see_other(to), p.head_only);
        };
        match &mut p.goal {
            Goal::At { n, tried } => {
                if *n == pos {
                    self.show(h, &mut p.stream, p.head_only, None);
                    return None;
                }
                if !*tried {
                    *tried = true;
                    if let Some(r) = go_to(h, *n, &mut self.position_break) {
                        self.pending = Some(p);
                        return Some(r);
                    }
                }
                let note = if *n > pos && matches!(h.why, Why::Ended(_)) {
                    format!("position {n} was asked for; the program ended at {pos}")
                } else {
                    format!("position {n} was asked for; the program stopped at {pos}")
                };
                redirect(&mut p, Some(&note));
                None
            }
            Goal::RunTo {
                from,
                loc,
                tried,
                placed,
            } => {
                if let Some((lin, had)) = placed.take() {
                    if !had {
                        h.remove_breakpoint(lin);
                    }
                    redirect(&mut p, None);
                    return None;
                }
                if pos != *from && !*tried {
                    *tried = true;
                    if let Some(r) = go_to(h, *from, &mut self.position_break) {
                        self.pending = Some(p);
                        return Some(r);
                    }
                }
                if matches!(h.why, Why::Ended(_)) {
                    redirect(
                        &mut p,
                        Some("the program has ended: there is nothing to run"),
                    );
                    return None;
                }
                match h.resolve_linear(loc) {
                    Ok(lin) => {
                        let had = h.breakpoints().contains(&lin);
                        h.add_breakpoint(lin);
                        *placed = Some((lin, had));
                        self.pending = Some(p);
                        Some(Resume::Continue)
                    }
                    Err(e) => {
                        let note = format!("run to {loc}: {e}");
                        redirect(&mut p, Some(&note));
                        None
                    }
                }
            }
            Goal::Syscall { from, tried, steps } => {
                match steps {
                    None => {
                        if pos != *from && !*tried {
                            *tried = true;
                            if let Some(r) = go_to(h, *from, &mut self.position_break) {
                                self.pending = Some(p);
                                return Some(r);
                            }
                        }
                        if matches!(h.why, Why::Ended(_)) {
                            redirect(&mut p, Some("the program has ended"));
                            return None;
                        }
                        *steps = Some(0);
                    }
                    Some(n) => {
                        if h.why != Why::Step {
                            redirect(&mut p, None);
                            return None;
                        }
                        if at_system_call(h) {
                            redirect(&mut p, None);
                            return None;
                        }
                        if *n >= MAX_SEARCH {
                            redirect(
                                &mut p,
                                Some(&format!(
                                    "no system call in the next {MAX_SEARCH} instructions"
                                )),
                            );
                            return None;
                        }
                    }
                }
                if let Some(n) = steps {
                    *n += 1;
                }
                self.pending = Some(p);
                Some(Resume::Step)
            }
        }
    }

    /// Handle one request at the stop.
    fn handle(&mut self, h: &mut Here<'_, '_>, mut stream: TcpStream, req: Request) -> Next {
        let head_only = req.method == Method::Head;
        let pos = h.pos;
        let wait = |goal: Goal, stream: TcpStream| Pending {
            stream,
            head_only,
            goal,
        };
        let position = |text: Option<&str>| text.and_then(|t| t.trim().parse::<u64>().ok());
        match (req.method, req.path.as_str()) {
            (Method::Post, "/quit") => {
                http::write(&mut stream, &Response::html(200, page::ended(pos)), false);
                return Next::Quit;
            }
            (Method::Post, _) => {
                let body = page::refusal(405, "only the quit form is posted");
                http::write(&mut stream, &Response::html(405, body), false);
                return Next::Served;
            }
            (_, "/") => {
                http::write(
                    &mut stream,
                    &Response::see_other(format!("/at/{pos}")),
                    head_only,
                );
                return Next::Served;
            }
            (_, "/goto") => {
                let r = match position(req.param("n")) {
                    Some(n) => Response::see_other(format!("/at/{n}")),
                    None => Response::html(
                        400,
                        page::refusal(400, "go to: the position is a number of instructions"),
                    ),
                };
                http::write(&mut stream, &r, head_only);
                return Next::Served;
            }
            (_, "/run") | (_, "/syscall") => {
                let from = match req.param("from") {
                    None => Some(pos),
                    t => position(t),
                };
                let Some(from) = from else {
                    let body = page::refusal(400, "from: a position is a number of instructions");
                    http::write(&mut stream, &Response::html(400, body), head_only);
                    return Next::Served;
                };
                let goal = if req.path == "/run" {
                    let loc = req.param("to").unwrap_or("").trim().to_string();
                    if loc.is_empty() || loc.len() > 200 {
                        let body = page::refusal(
                            400,
                            "run to: name a location (LOC, as `stack --at` takes)",
                        );
                        http::write(&mut stream, &Response::html(400, body), head_only);
                        return Next::Served;
                    }
                    Goal::RunTo {
                        from,
                        loc,
                        tried: false,
                        placed: None,
                    }
                } else {
                    Goal::Syscall {
                        from,
                        tried: false,
                        steps: None,
                    }
                };
                return match self.advance(h, wait(goal, stream)) {
                    Some(r) => Next::Move(r),
                    None => Next::Served,
                };
            }
            _ => {}
        }
        if let Some(rest) = req.path.strip_prefix("/at/") {
            let Ok(n) = rest.parse::<u64>() else {
                let body = page::refusal(404, "/at/N: N is a number of instructions");
                http::write(&mut stream, &Response::html(404, body), head_only);
                return Next::Served;
            };
            if n == pos {
                let note = req
                    .param("note")
                    .map(|n| n.chars().take(300).collect::<String>());
                self.show(h, &mut stream, head_only, note.as_deref());
                return Next::Served;
            }
            return match self.advance(h, wait(Goal::At { n, tried: false }, stream)) {
                Some(r) => Next::Move(r),
                None => Next::Served,
            };
        }
        let body = page::refusal(404, "no such page: the moments are at /at/N");
        http::write(&mut stream, &Response::html(404, body), head_only);
        Next::Served
    }
}

impl Server {
    /// Take the connections waiting to be accepted (the oldest closed
    /// past [`MAX_CONNS`]); true when there was one.
    fn accept_waiting(&mut self) -> bool {
        let mut any = false;
        loop {
            match self.listener.accept() {
                Ok((s, _)) => {
                    any = true;
                    if s.set_nonblocking(true).is_err() {
                        continue;
                    }
                    if self.conns.len() == MAX_CONNS {
                        self.conns.remove(0);
                    }
                    self.conns.push(Conn {
                        stream: s,
                        buf: Vec::new(),
                        since: Instant::now(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return any,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    eprintln!("toolhelp16: serve: accepting a connection: {e}");
                    std::thread::sleep(Duration::from_millis(100));
                    return any;
                }
            }
        }
    }

    /// The next whole request, from whichever connection sends one first
    /// (a connection that sends nothing holds up no other); refused
    /// requests are answered here.
    fn next_request(&mut self) -> (TcpStream, Request) {
        loop {
            let mut busy = self.accept_waiting();
            let mut i = 0;
            while i < self.conns.len() {
                let mut chunk = [0u8; 2048];
                let c = &mut self.conns[i];
                match c.stream.read(&mut chunk) {
                    Ok(0) => {
                        self.conns.remove(i);
                        continue;
                    }
                    Ok(n) => {
                        busy = true;
                        c.buf.extend_from_slice(&chunk[..n]);
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                        ) => {}
                    Err(_) => {
                        self.conns.remove(i);
                        continue;
                    }
                }
                let late = c.since.elapsed() > http::DEADLINE;
                let Some(got) = http::head_in(&c.buf) else {
                    if late {
                        let mut c = self.conns.remove(i);
                        if !c.buf.is_empty() {
                            let _ = c.stream.set_nonblocking(false);
                            let body = page::refusal(408, "the request took too long");
                            http::write(&mut c.stream, &Response::html(408, body), false);
                        }
                        continue;
                    }
                    i += 1;
                    continue;
                };
                let mut c = self.conns.remove(i);
                let _ = c.stream.set_nonblocking(false);
                match got.and_then(|(req, have)| {
                    http::skip_body(&mut c.stream, &req, have, c.since).map(|()| req)
                }) {
                    Ok(req) => return (c.stream, req),
                    Err(refusal) => {
                        let body = page::refusal(refusal.status, &refusal.what);
                        http::write(&mut c.stream, &Response::html(refusal.status, body), false);
                    }
                }
            }
            if !busy {
                std::thread::sleep(IDLE);
            }
        }
    }
}

impl Frontend for Server {
    fn stopped(&mut self, h: &mut Here<'_, '_>) -> Resume {
        if let Some(n) = self.position_break.take() {
            h.remove_position_break(n);
        }
        self.furthest = self.furthest.max(h.pos);
        if let Some(p) = self.pending.take() {
            if let Some(r) = self.advance(h, p) {
                return r;
            }
        }
        loop {
            let (stream, req) = self.next_request();
            match self.handle(h, stream, req) {
                Next::Served => {}
                Next::Move(r) => return r,
                Next::Quit => return Resume::Kill,
            }
        }
    }
}
