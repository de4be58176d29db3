//! The run loop: limits of a run ([`RunLimits`]), emulating until the
//! program stops, waiting at HLT, and nested runs from inside a hook
//! ([`run_nested`]).

use super::{
    CpuMode, Duration, Environment, Instant, R, Stop, Uc, counter, debug, offer_fault, page0, time,
    translate_error, uc_error, with_host,
};
use crate::machine::Cpu;

/// Limits for one run.
#[derive(Debug, Clone, Copy)]
pub struct RunLimits {
    /// Instruction budget (0 = none): exact, counted a block at a time
    /// (counter.rs). A nested run ([`run_nested`]) gets what is left of
    /// it.
    pub max_insns: u64,
    /// Wall-clock limit.
    pub timeout: Duration,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            max_insns: 0,
            timeout: Duration::from_secs(60),
        }
    }
}

/// The `begin` argument of `emu_start` that resumes at the current CS:IP.
pub(super) fn start_address(uc: &Uc<'_>) -> u64 {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    match uc.get_data().mode {
        // unicorn's 16-bit mode sets IP = begin - CS*16 with CS as a
        // signed 16-bit value.
        CpuMode::Real => (i64::from(ip) + i64::from(cs as i16) * 16) as u64,
        // In 32-bit mode it sets EIP = begin; CS keeps its descriptor.
        CpuMode::Protected => u64::from(ip),
    }
}

/// The `until` of a run that has no end address. unicorn stops a run when
/// execution reaches its `until`; any linear address a program can reach
/// would be one (0 was: `JMP 0000:0000`, an ordinary crash of a DOS
/// program that runs the interrupt vector table as code, stopped there
/// for no reason). A linear address is `CS base + IP` < 2^33, so this is
/// none; vendor patch 0008 keeps unicorn from dropping the code "at" it
/// after each run, as it does for a real end address.
pub const NO_END: u64 = u64::MAX;

/// Emulate from the current CS:IP until the program stops, or (with
/// `until` not [`NO_END`]) until execution reaches linear address `until` (Ok):
/// the loop of [`Machine::run`] and of [`run_nested`]. Between two
/// emulations it does what hooks asked for (counter.rs,
/// `apply_pending`), waits at HLT, and offers faults to the environment.
pub(super) fn emulate(uc: &mut Uc<'_>, until: u64) -> Result<(), Stop> {
    // Emulations that ended for no reason the loop knows, in a row at the
    // same CS:IP (a stop undone, or one that only interrupted).
    let mut unexplained = (0u32, 0u64);
    loop {
        counter::apply_pending(uc)?;
        if debug::call_between(uc) {
            let stop = uc.get_data_mut().stop.take();
            return Err(stop.unwrap_or_else(|| Stop::Error("stopped between emulations".into())));
        }
        let begin = start_address(uc);
        let was_host = {
            let st = uc.get_data_mut();
            st.emulating += 1;
            st.ran = true;
            st.host.replace(false)
        };
        // The translated code counts only while the counting hook has just
        // seen the common case (counter.rs): not across the host's work.
        uc.get_data().ic.off();
        let res = emu_start(uc, begin, until);
        let polled = {
            let st = uc.get_data_mut();
            st.ic.off();
            st.emulating -= 1;
            st.host.set(was_host);
            std::mem::take(&mut st.polled)
        };
        // The fast counting hook stopped before a block it leaves to the
        // loop (counter.rs): seen to, then the emulation goes on.
        if let Some((addr, size)) = uc.get_data_mut().slow.take()
            && res.is_ok()
        {
            counter::slow_block(uc, addr, size);
            if uc.get_data().stop.is_none() && !deadline_passed(uc) {
                continue;
            }
        }
        let stop = match uc.get_data_mut().stop.take() {
            Some(stop) => stop,
            None => match res {
                Ok(()) if until != NO_END && linear_pc(uc) == Some(until) => {
                    counter::apply_pending(uc)?;
                    return Ok(());
                }
                Ok(()) if deadline_passed(uc) => Stop::Timeout,
                // The budget ends inside the next block (counter.rs).
                Ok(()) if counter::tail_to_arm(uc) => continue,
                // The program's HLT, as the engine tells it (`halted`):
                // before the debugger's stop, which may have been on its
                // way while the HLT ran.
                Ok(()) if HALT_IS_KNOWN && halted(uc) => match after_hlt(uc) {
                    None => continue,
                    Some(stop) => stop,
                },
                // The block hook's poll (counter.rs, `poll_due`): before a
                // block it did not enter; the `between` function runs next.
                Ok(()) if polled => continue,
                // The debugger's stop, to go on at once (debug.rs).
                Ok(())
                    if uc
                        .get_data()
                        .poked
                        .swap(false, std::sync::atomic::Ordering::Relaxed) =>
                {
                    if uc.get_data().counting() {
                        counter::settle_resumed(uc, linear_pc(uc).unwrap_or(0));
                    }
                    continue;
                }
                // Without patch 0013 only the byte before CS:IP tells a
                // HLT, after the debugger's own stops are accounted for.
                Ok(()) if !HALT_IS_KNOWN && halted(uc) => match after_hlt(uc) {
                    None => continue,
                    Some(stop) => stop,
                },
                Ok(()) => {
                    let here = linear_pc(uc).unwrap_or(0);
                    // A stop that only interrupted (the debugger's, which
                    // goes on at once): the block it left is entered again
                    // at CS:IP, counted from there.
                    if uc.get_data().counting() {
                        counter::settle_resumed(uc, here);
                    }
                    unexplained = if unexplained.1 == here {
                        (unexplained.0 + 1, here)
                    } else {
                        (1, here)
                    };
                    if unexplained.0 < 1000 {
                        continue;
                    }
                    let regs = uc.regs();
                    Stop::Error(format!(
                        "the emulation keeps stopping at {:04X}:{:04X} for no reason",
                        regs.cs, regs.ip
                    ))
                }
                Err(uc_error::FETCH_PROT | uc_error::FETCH_UNMAPPED) if page0::fetch(uc) => {
                    continue;
                }
                Err(e) => translate_error(uc, e),
            },
        };
        if uc.get_data().counting() {
            let pc = stop_pc(uc, &stop);
            counter::settle(uc, pc, matches!(stop, Stop::Fault(_)));
            uc.get_data_mut().preentered = None;
        }
        match offer_fault(uc, stop) {
            None => continue,
            Some(stop) => return Err(stop),
        }
    }
}

/// Start the engine at `begin` until `until` ([`NO_END`]: none).
#[cfg(not(feature = "unpatched-engine"))]
fn emu_start(uc: &mut Uc<'_>, begin: u64, until: u64) -> Result<(), uc_error> {
    uc.emu_start(begin, until, 0, 0)
}

/// Start the engine at `begin` until `until` ([`NO_END`]: none), on the
/// engine as published: without patch 0008 it would take [`NO_END`] for
/// an address and, after every run, look up the code page "at" it to drop
/// a block there (a TLB fill for an address that is none). The engine's
/// list of exits does the same work without that: a run with no end has
/// an empty list, which drops nothing; one with an end has that address
/// (dropped after the run, as the engine does for an `until`); a nested
/// run puts the outer run's list back when it returns.
#[cfg(feature = "unpatched-engine")]
fn emu_start(uc: &mut Uc<'_>, begin: u64, until: u64) -> Result<(), uc_error> {
    uc.ctl_exits_enable()?;
    let outer = uc.ctl_get_exits()?;
    if until == NO_END {
        uc.ctl_set_exits(&[])?;
    } else {
        uc.ctl_set_exits(&[until])?;
    }
    let res = uc.emu_start(begin, until, 0, 0);
    let _ = uc.ctl_set_exits(&outer);
    res
}

/// The linear address of CS:IP.
pub(super) fn linear_pc(uc: &Uc<'_>) -> Option<u64> {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    uc.descriptor_of(cs)
        .map(|d| u64::from(d.base) + u64::from(ip))
}

/// The linear address a stop happened at: the fault's or breakpoint's
/// CS:IP, else the current one.
pub(super) fn stop_pc(uc: &Uc<'_>, stop: &Stop) -> u64 {
    let (cs, ip) = match stop {
        Stop::Fault(f) => (f.cs, f.ip),
        Stop::Breakpoint { cs, ip } => (*cs, *ip),
        _ => (uc.reg(R::CS), uc.reg(R::IP)),
    };
    uc.descriptor_of(cs)
        .map_or(0, |d| u64::from(d.base) + u64::from(ip))
}

pub(super) fn deadline_passed(uc: &Uc<'_>) -> bool {
    uc.get_data().deadline.is_some_and(|d| Instant::now() >= d)
}

/// Does the engine say whether a HLT ended the emulation (patch 0013)?
const HALT_IS_KNOWN: bool = cfg!(not(feature = "unpatched-engine"));

/// Did the emulation end at the program's HLT (real mode; CS:IP after
/// it)? The engine says so itself (patch 0013, `uc_toolhelp16_halted`):
/// the byte before CS:IP cannot tell, since a stop from elsewhere (the
/// debugger's poller thread, debug.rs) may land after any instruction
/// whose last byte is F4h (`MOV AL,0F4h` before a jump's target), and
/// a real HLT may run while such a stop is on its way. A stop's own
/// reason is looked at only when the engine says no HLT ran.
pub(super) fn halted(uc: &Uc<'_>) -> bool {
    uc.get_data().mode == CpuMode::Real && engine_halted(uc)
}

#[cfg(not(feature = "unpatched-engine"))]
unsafe extern "C" {
    /// The patched engine's `uc_toolhelp16_halted` (unicorn.h, patch
    /// 0013): did the last emulation end at the guest's HLT?
    fn uc_toolhelp16_halted(
        uc: unicorn_engine::ffi::uc_handle,
        halted: *mut bool,
    ) -> unicorn_engine::unicorn_const::uc_error;
}

/// The engine's word on whether the last emulation ended at a HLT.
#[cfg(not(feature = "unpatched-engine"))]
fn engine_halted(uc: &Uc<'_>) -> bool {
    let mut h = false;
    // SAFETY: the engine is live (`uc` borrows it) and `h` is a bool the
    // call writes once, before it returns.
    let err = unsafe { uc_toolhelp16_halted(uc.get_handle(), &mut h) };
    err == unicorn_engine::unicorn_const::uc_error::OK && h
}

/// The engine as published cannot say (patch 0013): the byte before
/// CS:IP is looked at, which an asynchronous stop landing after an F4h
/// byte would fool; the debugger's poller is the only such stop, and it
/// marks its own (`poked`), looked at first.
#[cfg(feature = "unpatched-engine")]
fn engine_halted(uc: &Uc<'_>) -> bool {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    // IP wraps: a HLT at FFFFh leaves IP 0000h.
    let mut b = [0u8];
    uc.read_seg(cs, ip.wrapping_sub(1), &mut b).is_ok() && b[0] == 0xF4
}

/// HLT stops the 8086 until an interrupt arrives. The environment may
/// name it first (a HLT standing for ROM code that is not emulated).
/// With IF clear only NMI would wake it, and nothing raises one: the
/// machine hangs, a stop of its own ([`Stop::Hung`]). With IF set the
/// next timer tick (IRQ 0) wakes it: the emulated clock skips ahead to
/// that tick, which runs the program's timer handlers and types the
/// next scripted key ([`Environment::timer_tick`]), and execution goes
/// on after the HLT.
pub(super) fn after_hlt(uc: &mut Uc<'_>) -> Option<Stop> {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP).wrapping_sub(1));
    let stop = with_host(uc, |uc| {
        let mut env = uc.get_data_mut().env.take()?;
        let stop = env.halted(uc, cs, ip);
        uc.get_data_mut().env = Some(env);
        stop
    });
    if stop.is_some() {
        return stop;
    }
    if uc.reg(R::FLAGS) & 0x200 == 0 {
        return Some(Stop::Hung { cs, ip });
    }
    time::skip_to_next_tick(uc);
    uc.get_data_mut().stop.take()
}

/// How deep system functions may call back into the program (unicorn
/// allows 64 nested runs; a few are left for the machine's own use).
pub const MAX_NESTING: u32 = 48;

/// Run the program from inside a hook, from the current CS:IP until
/// execution reaches the linear address `until`: how a system function
/// calls back into the program (a window procedure, an enumeration
/// callback). unicorn nests `uc_emu_start` for this; the nested run has
/// what is left of the instruction budget and the same wall-clock deadline.
///
/// The hook that called this holds the environment; it lends it back for
/// the nested run, whose own interrupts need it, and gets it back with the
/// result. The caller restores the registers it wants afterwards (writing
/// IP also makes unicorn resume cleanly after the nested run's exit).
pub fn run_nested(
    uc: &mut Uc<'_>,
    env: Box<dyn Environment>,
    until: u64,
) -> (Box<dyn Environment>, Result<(), Stop>) {
    if uc.get_data().depth >= MAX_NESTING {
        let regs = uc.regs();
        return (
            env,
            Err(Stop::Unimplemented {
                what: format!("a call back into the program nested more than {MAX_NESTING} deep"),
                caller: (regs.cs, regs.ip, regs.bp),
            }),
        );
    }
    uc.get_data_mut().env = Some(env);
    uc.get_data_mut().depth += 1;
    let result = emulate(uc, until);
    let st = uc.get_data_mut();
    st.depth -= 1;
    let env = st
        .env
        .take()
        .expect("the environment is back in the state after a nested run");
    (env, result)
}

/// Both need the engine's word on a HLT (patch 0013).
#[cfg(all(test, not(feature = "unpatched-engine")))]
mod tests {
    use super::*;
    use crate::machine::Machine;
    use std::cell::Cell;
    use std::rc::Rc;
    use std::sync::atomic::Ordering;

    /// Real mode, `code` at 0000:0700, IF clear (a HLT there hangs: the
    /// machine's own stop, which tells a HLT taken from any other).
    fn machine(code: &[u8]) -> Machine {
        let mut m = Machine::new_real().unwrap();
        m.write_linear(0x700, code).unwrap();
        m.set_reg(R::SS, 0).unwrap();
        m.set_reg(R::SP, 0x600).unwrap();
        m.set_csip(0, 0x700).unwrap();
        m
    }

    /// A stop from outside (as the debugger's poller makes, but not
    /// marked as its own) landing just after a `MOV AL,0F4h` is not the
    /// program's HLT: the run goes on to the INT 3. Before patch 0013 the
    /// byte F4h before CS:IP made it a HLT, and with IF clear a hang.
    #[test]
    fn a_stop_after_an_f4_byte_is_no_hlt() {
        let code = [
            0xFA, // cli
            0xB0, 0xF4, // mov al, 0F4h
            0xB3, 0x01, // mov bl, 1          ; 0703h: stopped before it
            0xCC, // int3
        ];
        let mut m = machine(&code);
        let once = Rc::new(Cell::new(false));
        let o = once.clone();
        m.uc.add_code_hook(0x703, 0x703, move |uc, _, _| {
            if !o.replace(true) {
                let _ = uc.emu_stop();
            }
        })
        .unwrap();
        let stop = m.run(RunLimits::default());
        assert!(once.get(), "the hook ran");
        match stop {
            Stop::Fault(f) => assert_eq!((f.number, f.ip, f.regs.bx & 0xFF), (3, 0x705, 1)),
            other => panic!("expected the INT 3, got {other:?}"),
        }
    }

    /// The program's HLT while the debugger's stop is on its way (its
    /// mark set, the stop not yet landed): the HLT is the program's, and
    /// with IF clear the machine hangs there, as without the debugger.
    /// Before, the mark made the loop go on after the HLT as if nothing
    /// had happened.
    #[test]
    fn a_hlt_is_the_programs_while_the_debuggers_stop_is_on_its_way() {
        let code = [
            0xFA, // cli
            0xB3, 0x01, // mov bl, 1
            0xF4, // hlt                ; 0703h
            0xCC, // int3
        ];
        let mut m = machine(&code);
        let poked = m.uc.get_data().poked.clone();
        m.uc.add_code_hook(0x703, 0x703, move |_, _, _| {
            poked.store(true, Ordering::Relaxed);
        })
        .unwrap();
        match m.run(RunLimits::default()) {
            Stop::Hung { cs, ip } => assert_eq!((cs, ip), (0, 0x703)),
            other => panic!("expected the HLT's hang, got {other:?}"),
        }
    }
}
