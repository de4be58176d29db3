//! The PC's hardware interrupts in real mode: the timer (IRQ 0, INT 08h and
//! the user hook INT 1Ch) and the keyboard (IRQ 1, INT 09h, port 60h), and
//! the BIOS keyboard buffer in the BIOS data area that INT 16h reads.
//!
//! Time is emulated, not the host's: the machine calls [`timer_tick`] once
//! per [`crate::machine::time::TICK_INSNS`] of its emulated clock
//! (machine/time.rs says how the clock advances, and why a run's ticks
//! fall at the same instructions every time). The BIOS's INT 08h handler
//! advances the tick count at 0040:006Ch, then calls INT 1Ch; a program
//! that took INT 08h sees the count advance only when its handler calls
//! the BIOS's (tests/watcom/tickchain.c). A program that installed its
//! own INT 08h, 09h or 1Ch handler has it called there, with interrupts enabled only (IF set), as
//! the 8259 would; taking one of those vectors makes the machine count
//! every instruction from then on, so the handler's ticks come while the
//! program computes too. Vectors still pointing at the BIOS stubs cost
//! nothing.
//!
//! Keys of the `--keys` script are typed one per tick while the BIOS buffer
//! is empty, so a program that empties the buffer at start-up (Turbo
//! Pascal's CRT unit does) and then waits for a key sees the key when it
//! waits. With an INT 09h handler installed the key arrives as the hardware
//! delivers it: the make code at port 60h and INT 09h, the handler chains to
//! the BIOS, which stores the key; the break code follows on the next tick.
//! A blocking read (INT 16h AH=00h) takes the next scripted key at once.
//!
//! The `--mouse` script's steps arrive the same way, one per tick, as IRQ 12
//! (INT 74h, [`super::mouse`]).

use super::{ROM_SEG, ROM_STUBS, get_vector};
use crate::dos::Env;
use crate::dos::host;
use crate::machine::{Cpu, R, Stop, Uc, count_tick};

/// BIOS data area: keyboard buffer head and tail (offsets in segment 40h).
const KB_HEAD: u16 = 0x1A;
const KB_TAIL: u16 = 0x1C;
/// BIOS data area: the buffer's start and end offsets (AT BIOS and later).
const KB_START: u16 = 0x80;
const KB_END: u16 = 0x82;
/// The default buffer: 16 words at 0040:001E, one always left free.
const BUF_FIRST: u16 = 0x1E;
const BUF_LAST: u16 = 0x3E;

/// The keyboard controller's side of typing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keyboard {
    /// A key whose make code was delivered through a program's INT 09h
    /// handler, for the BIOS handler (reached by chaining) to store.
    pub typed: Option<(u8, u8)>,
    /// The break code still to be delivered.
    pub pending_break: Option<u8>,
    /// INT 16h polls that found no key after the script was used up.
    pub empty_polls: u64,
}

fn bda_word(uc: &Uc<'_>, off: u16) -> u16 {
    uc.read_u16_at(0x40, off).unwrap_or(0)
}

/// Set up an empty keyboard buffer at 0040:001E.
pub fn init(uc: &mut Uc<'_>) -> Result<(), Stop> {
    for (off, v) in [
        (KB_HEAD, BUF_FIRST),
        (KB_TAIL, BUF_FIRST),
        (KB_START, BUF_FIRST),
        (KB_END, BUF_LAST),
    ] {
        uc.write_u16_at(0x40, off, v)
            .map_err(|e| Stop::Error(e.to_string()))?;
    }
    Ok(())
}

/// The buffer's bounds; a program that stored nonsense there gets the
/// default buffer rather than a walk through the whole segment.
fn bounds(uc: &Uc<'_>) -> (u16, u16) {
    let (s, e) = (bda_word(uc, KB_START), bda_word(uc, KB_END));
    if s < e && s % 2 == 0 && e % 2 == 0 && e - s >= 4 && e <= 0x200 {
        (s, e)
    } else {
        (BUF_FIRST, BUF_LAST)
    }
}

fn advance(p: u16, (s, e): (u16, u16)) -> u16 {
    if p + 2 >= e { s } else { p + 2 }
}

/// The key at the head of the BIOS buffer, as (scan code, ASCII).
pub fn peek(uc: &Uc<'_>) -> Option<(u8, u8)> {
    let (head, tail) = (bda_word(uc, KB_HEAD), bda_word(uc, KB_TAIL));
    if head == tail {
        return None;
    }
    let w = bda_word(uc, head);
    Some(((w >> 8) as u8, w as u8))
}

/// Take the key at the head of the BIOS buffer.
pub fn pop(uc: &mut Uc<'_>) -> Option<(u8, u8)> {
    let key = peek(uc)?;
    let b = bounds(uc);
    let head = bda_word(uc, KB_HEAD);
    let head = if (b.0..b.1).contains(&head) {
        advance(head, b)
    } else {
        b.0
    };
    let _ = uc.write_u16_at(0x40, KB_HEAD, head);
    Some(key)
}

/// Store a key at the tail of the BIOS buffer; false when it is full.
pub fn push(uc: &mut Uc<'_>, (scan, ascii): (u8, u8)) -> bool {
    let b = bounds(uc);
    let tail = bda_word(uc, KB_TAIL);
    let tail = if (b.0..b.1).contains(&tail) {
        tail
    } else {
        b.0
    };
    let next = advance(tail, b);
    if next == bda_word(uc, KB_HEAD) {
        return false;
    }
    let w = u16::from(scan) << 8 | u16::from(ascii);
    uc.write_u16_at(0x40, tail, w).is_ok() && uc.write_u16_at(0x40, KB_TAIL, next).is_ok()
}

/// Has the program replaced vector `n` (rather than leaving the BIOS stub)?
pub fn hooked(uc: &Uc<'_>, n: u8) -> Result<bool, Stop> {
    Ok(get_vector(uc, n)? != (ROM_SEG, ROM_STUBS + u16::from(n) * 8))
}

/// Deliver `INT n` through the interrupt vector table as the CPU does: push
/// FLAGS, CS, IP; clear IF and TF; jump to the vector.
pub fn deliver(uc: &mut Uc<'_>, n: u8) -> Result<(), Stop> {
    let (seg, off) = get_vector(uc, n)?;
    let flags = uc.reg(R::FLAGS);
    let (cs, ip) = (uc.reg(R::CS), uc.reg(R::IP));
    for w in [flags, cs, ip] {
        uc.push16(w).map_err(host)?;
    }
    uc.set_reg(R::FLAGS, flags & !0x0300).map_err(host)?;
    uc.set_reg(R::CS, seg).map_err(host)?;
    uc.set_reg(R::IP, off).map_err(host)
}

/// The byte port 60h returns from now on (a make or break code).
fn set_port60(uc: &mut Uc<'_>, code: u8) {
    uc.get_data_mut().port60 = code;
}

/// One timer tick: type the next scripted key if the buffer is empty, then
/// run the program's timer handlers. Keyboard first and timer second, so
/// the timer handler runs first and returns into the keyboard handler, as
/// IRQ 0's priority over IRQ 1 orders them.
pub fn timer_tick(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    // The mouse's IRQ 12 first: the lowest priority runs last.
    super::mouse::tick(env, uc)?;
    let enabled = uc.reg(R::FLAGS) & 0x200 != 0;
    let kb_hooked = hooked(uc, 0x09)?;
    if let Some(code) = env.dos.keyboard.pending_break {
        if !kb_hooked {
            env.dos.keyboard.pending_break = None;
        } else if enabled {
            env.dos.keyboard.pending_break = None;
            set_port60(uc, code);
            deliver(uc, 0x09)?;
        }
    } else if peek(uc).is_none()
        && let Some(&key) = env.dos.keys.front()
    {
        if !kb_hooked {
            env.dos.keys.pop_front();
            push(uc, key);
        } else if enabled {
            env.dos.keys.pop_front();
            env.dos.keyboard.typed = Some(key);
            env.dos.keyboard.pending_break = Some(key.0 | 0x80);
            set_port60(uc, key.0);
            deliver(uc, 0x09)?;
        }
    }
    if enabled && hooked(uc, 0x08)? {
        // The program's handler runs in the BIOS's place: the tick is
        // counted when it calls the BIOS handler (bios_irq), if it does.
        deliver(uc, 0x08)?;
    } else {
        // The BIOS handler (or, with interrupts disabled, the tick the
        // 8259 would hold: counted now, delivered to nobody).
        count_tick(uc);
        if enabled && hooked(uc, 0x1C)? {
            deliver(uc, 0x1C)?;
        }
    }
    Ok(())
}

/// The BIOS half of a hardware interrupt, reached when a program's handler
/// chains to the original vector (the ROM stub) or the stub is called.
pub fn bios_irq(env: &mut Env, uc: &mut Uc<'_>, n: u8) -> Result<(), Stop> {
    match n {
        // The BIOS timer handler counts the tick and calls the user hook.
        0x08 => {
            count_tick(uc);
            if hooked(uc, 0x1C)? {
                deliver(uc, 0x1C)?;
            }
            Ok(())
        }
        // The BIOS keyboard handler stores the key the make code stands for.
        0x09 => {
            if let Some(key) = env.dos.keyboard.typed.take() {
                push(uc, key);
            }
            Ok(())
        }
        // IRQ 12: the mouse driver's part.
        super::mouse::IRQ_VECTOR => super::mouse::irq(env, uc),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;

    #[test]
    fn the_bios_buffer_holds_fifteen_keys_and_wraps() {
        let mut m = Machine::new_real().unwrap();
        init(&mut m).unwrap();
        assert_eq!(peek(&m), None);
        for round in 0..3u8 {
            for i in 0..15u8 {
                assert!(push(&mut m, (i, round)), "key {i} of round {round}");
            }
            assert!(!push(&mut m, (0xFF, 0xFF)), "a sixteenth key fits");
            for i in 0..15u8 {
                assert_eq!(pop(&mut m), Some((i, round)));
            }
            assert_eq!(pop(&mut m), None);
        }
    }

    #[test]
    fn nonsense_bounds_fall_back_to_the_default_buffer() {
        let mut m = Machine::new_real().unwrap();
        init(&mut m).unwrap();
        m.write_u16_at(0x40, KB_START, 0xFFF1).unwrap();
        m.write_u16_at(0x40, KB_TAIL, 0x9999).unwrap();
        assert!(push(&mut m, (1, 2)));
        assert_eq!(m.read_u16_at(0x40, KB_TAIL).unwrap(), BUF_FIRST + 2);
    }
}
