//! A panic inside an engine hook becomes an ordinary stop.
//!
//! unicorn calls the machine's hooks (interrupts, ports, blocks, the TLB,
//! memory-mapped devices, breakpoints, the debugger's) from its C code.
//! A Rust panic may not unwind through C: the binding's `extern "C"`
//! trampolines would abort the process (SIGABRT, which the command line
//! reports as exit 116, "the process crashed"). So every hook runs its
//! Rust body under [`guard`], which catches the panic at the hook's
//! boundary, records [`Stop::Error`] with the panic's message (replacing
//! any stop already asked for: the machine's state is no longer to be
//! trusted), asks unicorn to stop, and returns a neutral value to the C
//! side. `uc_emu_start` then returns and the run loop reports the stop as
//! any other: exit 125, "internal error: ... a bug in toolhelp16"
//! (README, "Exit status"), the JSON error under `--json`. A nested run
//! (a callback into the program from a system function) ends the same
//! way and hands the stop to the hook that nested it, which stops too.
//!
//! **A way to make one, for tests.** In a build with debug assertions
//! (tests use the debug build), `TOOLHELP16_PANIC_IN_HOOK=NN` (hex)
//! makes the interrupt hook panic on software interrupt NNh: see
//! [`test_panic`]. Release builds do not read the variable.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{Stop, Uc};

/// Run the hook body `f` on `uc`; a panic in it stops the machine with
/// [`Stop::Error`] naming `hook` and the panic's message, and gives
/// `fallback` back to unicorn.
pub fn guard<T>(uc: &mut Uc<'_>, hook: &str, fallback: T, f: impl FnOnce(&mut Uc<'_>) -> T) -> T {
    match catch_unwind(AssertUnwindSafe(|| f(&mut *uc))) {
        Ok(v) => v,
        Err(payload) => {
            stop_for_panic(uc, hook, payload.as_ref());
            fallback
        }
    }
}

/// The message of a panic's payload (`panic!` with a format or a
/// string; anything else is "an unknown panic").
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "an unknown panic".to_string())
}

/// Record the stop for a panic in `hook` and ask unicorn to stop.
fn stop_for_panic(uc: &mut Uc<'_>, hook: &str, payload: &(dyn Any + Send)) {
    let msg = format!(
        "a panic in the engine's {hook} hook: {}",
        panic_message(payload)
    );
    let st = uc.get_data_mut();
    st.ic.off();
    st.stop = Some(Stop::Error(msg));
    let _ = uc.emu_stop();
}

/// The test trigger (debug builds only): panic when software interrupt
/// `intno` is the one `TOOLHELP16_PANIC_IN_HOOK` names (two hex digits).
#[cfg(debug_assertions)]
pub fn test_panic(intno: u8) {
    static WANTED: std::sync::OnceLock<Option<u8>> = std::sync::OnceLock::new();
    let wanted = WANTED.get_or_init(|| {
        std::env::var("TOOLHELP16_PANIC_IN_HOOK")
            .ok()
            .and_then(|v| u8::from_str_radix(v.trim(), 16).ok())
    });
    if *wanted == Some(intno) {
        panic!("TOOLHELP16_PANIC_IN_HOOK: a panic asked for at INT {intno:02X}h");
    }
}

/// The test trigger: nothing in a release build.
#[cfg(not(debug_assertions))]
pub fn test_panic(_intno: u8) {}

/// The backstop's test trigger (debug builds only): when software
/// interrupt `intno` is the one `TOOLHELP16_HANG_IN_HOOK` names (two hex
/// digits), the hook never returns, as a system function whose loop did
/// not end would (watchdog.rs, the backstop).
#[cfg(debug_assertions)]
pub fn test_hang(intno: u8) {
    static WANTED: std::sync::OnceLock<Option<u8>> = std::sync::OnceLock::new();
    let wanted = WANTED.get_or_init(|| {
        std::env::var("TOOLHELP16_HANG_IN_HOOK")
            .ok()
            .and_then(|v| u8::from_str_radix(v.trim(), 16).ok())
    });
    if *wanted == Some(intno) {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
}

/// The backstop's test trigger: nothing in a release build.
#[cfg(not(debug_assertions))]
pub fn test_hang(_intno: u8) {}
