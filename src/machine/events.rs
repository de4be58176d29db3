//! The event log (`--events`): port I/O and system calls, at the CS:IP
//! that made them.

use super::{R, Uc};
use crate::machine::Cpu;

/// Most port I/O events kept; later ones are counted, not stored.
pub const MAX_EVENTS: usize = 10_000;

/// Log an event (`--events`): port I/O, system calls. CS:IP is the
/// current instruction's.
pub fn record_event(uc: &mut Uc<'_>, text: String) {
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    record_event_at(uc, cs, ip, text);
}

/// [`record_event`] at a given CS:IP (for an event recorded after the
/// registers changed, as when a system function switched tasks).
pub fn record_event_at(uc: &mut Uc<'_>, cs: u16, ip: u16, text: String) {
    let regs = (cs, ip);
    let st = uc.get_data_mut();
    let line = format!("{:04X}:{:04X} {text}", regs.0, regs.1);
    if st.event_filter.as_ref().is_some_and(|keep| !keep(&line)) {
        return;
    }
    if st.events.len() < MAX_EVENTS {
        st.events.push(line);
    } else {
        st.events_dropped += 1;
    }
}
