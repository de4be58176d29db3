//! A crash of the process reported, never silent: exit 116 with a
//! message (and the JSON error under `--json`) when a signal that means
//! a crash arrives — SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT.
//!
//! The emulation engine (unicorn, C) runs in this process and on this
//! thread: a memory error in its code generator would otherwise end the
//! tool by the signal, with no exit status a caller can read and no JSON.
//!
//! **The design.** A handler per signal, installed once at the start of
//! the command, that does only what a signal handler may: `write(2)` of
//! texts made before any signal could arrive, then `_exit(116)`. It does
//! not try to go on (the engine's state is unknown after a fault in it),
//! flush Rust's buffers (their locks may be held by the thread that
//! faulted) or unwind. It runs on the alternate signal stack Rust's
//! runtime gives every thread (SA_ONSTACK), so a stack overflow — which
//! Rust's own handler would report as "thread has overflowed its stack"
//! before aborting — is reported the same way, as exit 116. The handler
//! resets itself on entry (SA_RESETHAND): a fault inside it ends the
//! process by the default action instead of looping.
//!
//! A child process running the emulation under a supervisor would also
//! survive a SIGKILL of the child, but would cost a process and the
//! pass-through of standard input, the terminal and `--gdb`'s socket for
//! every run; the handler costs nothing while nothing crashes, so the
//! run's speed is that of a run without it.
//!
//! What is lost: output the program wrote that was still in the tool's
//! buffers (the handler cannot flush them safely).

use std::sync::OnceLock;
use std::sync::atomic::Ordering;

/// The exit status of a crash (README, "Exit status").
pub const EXIT_CRASHED: i32 = 116;

/// The signals caught, with their names and what they mean.
const SIGNALS: [(libc::c_int, &str, &str); 5] = [
    (
        libc::SIGSEGV,
        "SIGSEGV",
        "a memory access fault (in the emulation engine, or a stack overflow)",
    ),
    (libc::SIGBUS, "SIGBUS", "a bus error"),
    (libc::SIGILL, "SIGILL", "an illegal host instruction"),
    (libc::SIGFPE, "SIGFPE", "a host arithmetic fault"),
    (libc::SIGABRT, "SIGABRT", "an abort"),
];

/// The texts written for each signal: the line on stderr, and the JSON
/// error document (one line, so that it also ends a JSON-lines output).
struct Texts {
    signal: libc::c_int,
    text: Vec<u8>,
    json: Vec<u8>,
}

static TEXTS: OnceLock<Vec<Texts>> = OnceLock::new();

/// The message for a crash by `name` meaning `what`.
pub fn message(name: &str, what: &str) -> String {
    format!(
        "the process crashed with {name}, {what}; {}",
        super::BUG_REPORT
    )
}

/// Install the handlers (once; later calls do nothing).
pub fn install() {
    if TEXTS.get().is_some() {
        return;
    }
    let texts = SIGNALS
        .iter()
        .map(|&(signal, name, what)| {
            let msg = message(name, what);
            let doc = super::json::Doc::new(
                "error",
                super::json::ErrorOutput {
                    message: msg.clone(),
                    exit_code: EXIT_CRASHED,
                    kind: "internal".to_string(),
                },
            );
            let mut json = serde_json::to_string(&doc).unwrap_or_default();
            json.insert(0, '\n');
            json.push('\n');
            Texts {
                signal,
                text: format!("\ntoolhelp16: {msg}\n").into_bytes(),
                json: json.into_bytes(),
            }
        })
        .collect();
    if TEXTS.set(texts).is_err() {
        return;
    }
    for &(signal, ..) in &SIGNALS {
        set_handler(signal);
    }
}

fn set_handler(signal: libc::c_int) {
    // SAFETY: a zeroed sigaction is a valid value of the C struct (no
    // handler, empty flags); its fields are then set as sigaction(2)
    // documents, and the handler is an `extern "C" fn(c_int)` doing only
    // async-signal-safe calls (write, _exit) on data made before it was
    // installed (TEXTS is set first and never changed).
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_crash as extern "C" fn(libc::c_int) as libc::sighandler_t;
        sa.sa_flags = libc::SA_ONSTACK | libc::SA_RESETHAND;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(signal, &sa, std::ptr::null_mut());
    }
}

/// The handler: the texts of the signal, then exit 116.
extern "C" fn on_crash(signal: libc::c_int) {
    if let Some(t) = TEXTS
        .get()
        .and_then(|v| v.iter().find(|t| t.signal == signal))
    {
        write_all(2, &t.text);
        if super::JSON_ERRORS.load(Ordering::Relaxed) {
            write_all(1, &t.json);
        }
    }
    // SAFETY: _exit is async-signal-safe and ends the process at once,
    // without running anything of the interrupted thread's.
    unsafe { libc::_exit(EXIT_CRASHED) }
}

/// `write(2)` all of `b` to `fd`, as far as the file takes it.
fn write_all(fd: libc::c_int, mut b: &[u8]) {
    while !b.is_empty() {
        // SAFETY: `b` is a live slice; write reads at most `b.len()` bytes
        // from it and is async-signal-safe.
        let n = unsafe { libc::write(fd, b.as_ptr().cast(), b.len()) };
        if n <= 0 {
            return;
        }
        b = &b[(n as usize).min(b.len())..];
    }
}
