//! The environment a program runs in (DOS, BIOS, Win16) as the machine
//! sees it: the [`Environment`] trait its hooks call, and the helpers that
//! reach the environment from inside a hook.

use super::{Fault, Stop, Uc, note_fault, with_host};

/// The environment the program runs in (DOS, BIOS, Win16): called for every
/// software interrupt. Returning `Err(stop)` stops the machine.
pub trait Environment: std::any::Any {
    /// Handle `INT intno`; CS:IP already points after the instruction.
    fn interrupt(&mut self, cpu: &mut Uc<'_>, intno: u8) -> Result<(), Stop>;

    /// A timer tick in real mode (every [`time::TICK_INSNS`] of the
    /// emulated clock): the place to deliver hardware interrupts, and to
    /// advance the BIOS tick count ([`count_tick`]) as the BIOS timer
    /// handler does when it runs. CS:IP is where the program goes on (a
    /// block's start, or after a system call or a HLT).
    fn timer_tick(&mut self, cpu: &mut Uc<'_>) -> Result<(), Stop> {
        // A PC with only its BIOS: the BIOS timer handler counts the tick.
        count_tick(cpu);
        Ok(())
    }

    /// HLT ran in real mode at `cs:ip` (CS:IP now points after it). A stop
    /// here ends the run (the environment knows HLTs that stand for code it
    /// does not emulate); None lets the machine treat it as the processor
    /// does: wait for the next interrupt.
    fn halted(&mut self, _cpu: &mut Uc<'_>, _cs: u16, _ip: u16) -> Option<Stop> {
        None
    }

    /// A processor fault stopped the emulation (registers as before the
    /// faulting instruction). Return true after setting up a handler to run
    /// (the emulation resumes at the new CS:IP), false to let the fault end
    /// the run, or another stop.
    fn fault(&mut self, _cpu: &mut Uc<'_>, _fault: &Fault) -> Result<bool, Stop> {
        Ok(false)
    }

    /// The name of the module with this hModule (a Win16 module, or the
    /// DOS program by its PSP), for traces and profiles.
    fn module_name(&self, _hmodule: u16) -> Option<String> {
        None
    }

    /// The symbol naming code address `cs:ip` (symbols/mod.rs), for
    /// traces, profiles and fault reports.
    fn symbol(&self, _cpu: &Uc<'_>, _cs: u16, _ip: u16) -> Option<crate::symbols::SymbolRef> {
        None
    }

    /// The source line of code address `cs:ip`, from the debug
    /// information of the module that holds it (symbols/lines.rs).
    fn source_line(
        &self,
        _cpu: &Uc<'_>,
        _cs: u16,
        _ip: u16,
    ) -> Option<crate::symbols::lines::SourceLine> {
        None
    }
}

/// [`Environment::source_line`] of the machine's environment.
pub fn line_at(uc: &Uc<'_>, cs: u16, ip: u16) -> Option<crate::symbols::lines::SourceLine> {
    uc.get_data().env.as_ref()?.source_line(uc, cs, ip)
}

/// [`Environment::symbol`] of the machine's environment.
pub fn symbol_at(uc: &Uc<'_>, cs: u16, ip: u16) -> Option<crate::symbols::SymbolRef> {
    uc.get_data().env.as_ref()?.symbol(uc, cs, ip)
}

/// The machine's environment as its concrete type, from inside a hook
/// (observers that read it: the screenshot series).
pub fn environment_of<'a, T: Environment>(uc: &'a Uc<'_>) -> Option<&'a T> {
    let env: &dyn std::any::Any = uc.get_data().env.as_deref()?;
    env.downcast_ref::<T>()
}

/// Run `f` with the machine's environment, as its concrete type, and the
/// machine, both mutable (the environment is lent out of the machine's
/// state for the call, as the interrupt hook does). None when there is no
/// such environment, or it is lent out already.
pub fn with_environment<T: Environment, R>(
    uc: &mut Uc<'_>,
    f: impl FnOnce(&mut T, &mut Uc<'_>) -> R,
) -> Option<R> {
    let mut env = uc.get_data_mut().env.take()?;
    let any: &mut dyn std::any::Any = env.as_mut();
    let r = any
        .downcast_mut::<T>()
        .map(|t| with_host(uc, |uc| f(t, uc)));
    uc.get_data_mut().env = Some(env);
    r
}

/// [`Environment::module_name`] of the machine's environment.
pub fn module_name(uc: &Uc<'_>, hmodule: u16) -> Option<String> {
    uc.get_data().env.as_ref()?.module_name(hmodule)
}

/// Offer a fault to the environment: None when a handler was started and
/// the emulation must go on, else the stop that ends the run.
pub(super) fn offer_fault(uc: &mut Uc<'_>, stop: Stop) -> Option<Stop> {
    let Stop::Fault(f) = &stop else {
        return Some(stop);
    };
    note_fault(uc, f);
    let Some(mut env) = uc.get_data_mut().env.take() else {
        return Some(stop);
    };
    let res = env.fault(uc, f);
    uc.get_data_mut().env = Some(env);
    match res {
        Ok(true) => None,
        Ok(false) => Some(stop),
        Err(other) => Some(other),
    }
}

/// The BIOS timer handler's count (IBM PC/AT Technical Reference, BIOS
/// listing, TIMER_INT): the tick count at 0040:006C (TIMER_LOW, TIMER_HIGH)
/// advances by one; at 24 hours' worth (1800B0h ticks) it starts again
/// at 0 and the day's rollover flag at 0040:0070 (TIMER_OFL) is set.
pub fn count_tick(cpu: &mut Uc<'_>) {
    const DAY: u32 = 0x18_00B0;
    let mut b = [0u8; 4];
    if cpu.mem_read(0x46C, &mut b).is_ok() {
        let mut t = u32::from_le_bytes(b).wrapping_add(1);
        if t >= DAY {
            t = 0;
            let _ = cpu.mem_write(0x470, &[1]);
        }
        let _ = cpu.mem_write(0x46C, &t.to_le_bytes());
    }
}
