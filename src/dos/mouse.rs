//! A Microsoft mouse driver (INT 33h) with a two-button PS/2 mouse moved by
//! a script (`--mouse`), for DOS programs. Without the option no driver is
//! installed: INT 33h's vector points at an IRET, as on a PC where MOUSE.COM
//! was never run, so AX=0000h comes back as 0000h, "no mouse", and every
//! other register as it was.
//!
//! The functions follow the Microsoft Mouse Programmer's Reference, with
//! Ralf Brown's interrupt list where it says more:
//!
//! | AX | function |
//! | --- | --- |
//! | 00h | reset: AX = FFFFh, BX = 2 buttons; cursor hidden (flag -1) at the centre, ranges the whole screen, mickey/pixel ratios 8 and 16, counters 0, no event handler |
//! | 01h, 02h | show and hide: the internal cursor flag goes up (never above 0) and down; the cursor shows at 0 |
//! | 03h | BX buttons (bit 0 left, bit 1 right), CX, DX the position |
//! | 04h | set the position (clipped to the ranges) |
//! | 05h, 06h | for button BX: AX the buttons now, BX the presses (releases) since the last call, which are cleared, CX, DX where the last was |
//! | 07h, 08h | horizontal and vertical range CX..DX (swapped when CX > DX); the position is moved inside |
//! | 09h | graphics cursor: hot spot BX, CX; screen and cursor masks, 32 words at ES:DX |
//! | 0Ah | text cursor: BX = 0 software, CX the screen mask and DX the cursor mask ANDed and XORed with the cell under the cursor; BX = 1 hardware, scan lines CX to DX |
//! | 0Bh | CX, DX the mickeys moved since the last call (signed), then cleared |
//! | 0Ch | the event handler: call mask CX, far routine ES:DX |
//! | 0Fh | mickeys per 8 pixels, CX horizontally and DX vertically |
//! | 14h | exchange handlers: the new mask CX and routine ES:DX in, the old ones out |
//! | 1Ah, 1Bh | sensitivity: BX horizontal, CX vertical, DX double-speed threshold |
//! | 21h | software reset: as 00h, AX = FFFFh, BX = 2 |
//! | 24h | version 8.20 (BX = 0820h), CH = 4 a PS/2 mouse, CL = 0 its IRQ (PS/2) |
//!
//! Other functions change nothing. Positions are in the driver's virtual
//! screen: 640 × 200 in the CGA text and graphics modes (640 × 8·rows for
//! text with more rows, 640 × 350 and 640 × 480 in the EGA and VGA modes),
//! and in text modes they are reported rounded down to the character cell,
//! multiples of 8 in 80 × 25 (16 across in the 40-column modes), as the
//! Microsoft driver reports them; in the 320-pixel modes to even numbers.
//!
//! # The script and the hardware
//!
//! Each step of the script is one interrupt of the mouse, IRQ 12 (INT 74h),
//! raised at a timer tick ([`super::hardware`]) when interrupts are
//! enabled: a program that hooked INT 74h sees it first and chains to the
//! BIOS's; the driver then updates its state and, when the step caused an
//! event the handler's call mask asks for, far-calls the handler with AX =
//! those events, BX the buttons, CX, DX the position, SI, DI the mickey
//! counters (horizontal, vertical: what 0Bh would read) and DS the driver's
//! segment; every other register is the interrupted program's when the
//! interrupt returns. A step waits while the handler runs.
//!
//! In text mode 3 (and 2), the 80 × 25 screen this tool shows, the
//! software text cursor is drawn as the driver draws it: the cell under
//! the pointer is saved, replaced by (cell AND screen mask) XOR cursor
//! mask while the cursor shows, and put back when it hides or moves.

use std::collections::VecDeque;

use super::{ROM_SEG, ROM_STUBS, host, screen};
use crate::dos::Env;
use crate::machine::{Cpu, Machine, MachineError, R, Regs, Stop, Uc};

/// The interrupt of IRQ 12, the PS/2 mouse.
pub const IRQ_VECTOR: u8 = 0x74;

/// A mouse button: a Microsoft mouse has two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    Left,
    Right,
}

impl Button {
    fn index(self) -> usize {
        match self {
            Button::Left => 0,
            Button::Right => 1,
        }
    }
}

/// One step of a `--mouse` script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Move the mouse until the pointer is at (x, y) of the virtual screen.
    Move(u16, u16),
    Press(Button),
    Release(Button),
    /// Nothing happens for this many timer ticks.
    Wait(u32),
}

/// The longest `wait` (about an hour of ticks).
const MAX_WAIT: u32 = 65_536;
/// The most steps a script may have.
const MAX_STEPS: usize = 100_000;

/// Parse a `--mouse` script: steps separated by `;` or newlines, `#` to
/// the end of a line a comment. `move X Y` (the pointer's place on the
/// virtual screen: 0-639, 0-199 in 80 × 25 text, 8 pixels a cell),
/// `press BUTTON`, `release BUTTON`, `click BUTTON` (a press, then a
/// release), `wait N` (N timer ticks); BUTTON is `left` or `right`.
pub fn parse_script(script: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for line in script.lines() {
        let line = line.split('#').next().unwrap_or("");
        for item in line.split(';') {
            let words: Vec<&str> = item.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let bad = || format!("--mouse: `{}`: {}", item.trim(), USAGE);
            let button = |w: &str| match w.to_ascii_lowercase().as_str() {
                "left" => Ok(Button::Left),
                "right" => Ok(Button::Right),
                _ => Err(bad()),
            };
            let number =
                |w: &str, max: u32| w.parse::<u32>().ok().filter(|&n| n <= max).ok_or_else(bad);
            match (words[0].to_ascii_lowercase().as_str(), &words[1..]) {
                ("move", [x, y]) => out.push(Step::Move(
                    number(x, 0xFFFF)? as u16,
                    number(y, 0xFFFF)? as u16,
                )),
                ("press", [b]) => out.push(Step::Press(button(b)?)),
                ("release", [b]) => out.push(Step::Release(button(b)?)),
                ("click", [b]) => {
                    let b = button(b)?;
                    out.extend([Step::Press(b), Step::Release(b)]);
                }
                ("wait", [n]) => out.push(Step::Wait(number(n, MAX_WAIT)?.max(1))),
                _ => return Err(bad()),
            }
            if out.len() > MAX_STEPS {
                return Err(format!("--mouse: more than {MAX_STEPS} steps"));
            }
        }
    }
    Ok(out)
}

const USAGE: &str = "expected `move X Y`, `press left|right`, `release left|right`, \
                     `click left|right` or `wait TICKS`";

/// Presses or releases of one button: how many since the last query, and
/// where the last one was.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Count {
    count: u16,
    x: u16,
    y: u16,
}

/// The text cursor (function 0Ah).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextCursor {
    Software { screen: u16, cursor: u16 },
    Hardware { start: u16, stop: u16 },
}

/// The registers of the program a handler call interrupted, and where its
/// stack is when the handler has returned.
#[derive(Debug, Clone, Copy)]
struct Interrupted {
    regs: Regs,
    stack: (u16, u16),
}

/// The driver's state and the script still to come.
#[derive(Debug, Clone)]
pub struct Mouse {
    script: VecDeque<Step>,
    waiting: u32,
    /// A step delivered with IRQ 12, for the driver's interrupt handler.
    pending: Option<Step>,
    /// A handler call in progress.
    interrupted: Option<Interrupted>,
    x: u16,
    y: u16,
    buttons: u8,
    /// The internal cursor flag: shown at 0, hidden below.
    flag: i16,
    range_x: (u16, u16),
    range_y: (u16, u16),
    presses: [Count; 2],
    releases: [Count; 2],
    /// Mickeys since the last function 0Bh.
    mickeys: (i16, i16),
    /// Mickeys per 8 pixels.
    ratio: (u16, u16),
    sensitivity: (u16, u16, u16),
    call_mask: u16,
    handler: (u16, u16),
    graphics_cursor: (u16, u16, [u16; 32]),
    text_cursor: TextCursor,
    /// The software cursor drawn on the screen: its cell and what was there.
    drawn: Option<(u16, u16, u8, u8)>,
}

impl Mouse {
    /// A driver that has just been loaded (and so reset), with its script.
    pub fn new(script: Vec<Step>) -> Mouse {
        let mut m = Mouse {
            script: script.into(),
            waiting: 0,
            pending: None,
            interrupted: None,
            x: 0,
            y: 0,
            buttons: 0,
            flag: -1,
            range_x: (0, 639),
            range_y: (0, 199),
            presses: [Count::default(); 2],
            releases: [Count::default(); 2],
            mickeys: (0, 0),
            ratio: (8, 16),
            sensitivity: (50, 50, 50),
            call_mask: 0,
            handler: (0, 0),
            graphics_cursor: (0, 0, [0; 32]),
            text_cursor: TextCursor::Software {
                screen: 0x77FF,
                cursor: 0x7700,
            },
            drawn: None,
        };
        m.reset(&Video::TEXT80);
        m
    }

    /// Function 00h/21h's defaults for the video mode.
    fn reset(&mut self, v: &Video) {
        self.flag = -1;
        self.range_x = (0, v.width - 1);
        self.range_y = (0, v.height - 1);
        self.x = v.width / 2;
        self.y = v.height / 2;
        self.presses = [Count::default(); 2];
        self.releases = [Count::default(); 2];
        self.mickeys = (0, 0);
        self.ratio = (8, 16);
        self.sensitivity = (50, 50, 50);
        self.call_mask = 0;
        self.text_cursor = TextCursor::Software {
            screen: 0x77FF,
            cursor: 0x7700,
        };
    }

    /// Steps not yet taken.
    pub fn steps_left(&self) -> usize {
        self.script.len()
    }

    fn reported(&self, v: &Video) -> (u16, u16) {
        (self.x & !(v.cell.0 - 1), self.y & !(v.cell.1 - 1))
    }

    fn clip(&mut self) {
        self.x = self.x.clamp(self.range_x.0, self.range_x.1);
        self.y = self.y.clamp(self.range_y.0, self.range_y.1);
    }

    /// Take a step; the events it caused (call mask bits).
    fn step(&mut self, s: Step, v: &Video) -> u16 {
        let mut events = 0;
        match s {
            Step::Move(x, y) => {
                let dx = i32::from(x) - i32::from(self.x);
                let dy = i32::from(y) - i32::from(self.y);
                let mx = dx * i32::from(self.ratio.0) / 8;
                let my = dy * i32::from(self.ratio.1) / 8;
                self.mickeys.0 = self.mickeys.0.wrapping_add(mx as i16);
                self.mickeys.1 = self.mickeys.1.wrapping_add(my as i16);
                self.x = x;
                self.y = y;
                self.clip();
                if mx != 0 || my != 0 {
                    events |= 1;
                }
            }
            Step::Press(b) | Step::Release(b) => {
                let bit = 1u8 << b.index();
                let press = matches!(s, Step::Press(_));
                if (self.buttons & bit != 0) != press {
                    self.buttons ^= bit;
                    let (x, y) = self.reported(v);
                    let c = if press {
                        &mut self.presses[b.index()]
                    } else {
                        &mut self.releases[b.index()]
                    };
                    c.count = c.count.wrapping_add(1);
                    (c.x, c.y) = (x, y);
                    events |= 1 << (1 + 2 * b.index() + usize::from(!press));
                }
            }
            Step::Wait(_) => {}
        }
        events
    }
}

/// What the driver needs of the video mode.
#[derive(Debug, Clone, Copy)]
struct Video {
    mode: u8,
    width: u16,
    height: u16,
    /// Reported positions are multiples of this (the text cell).
    cell: (u16, u16),
}

impl Video {
    const TEXT80: Video = Video {
        mode: 3,
        width: 640,
        height: 200,
        cell: (8, 8),
    };

    /// The current mode, from the BIOS data area.
    fn current(uc: &Uc<'_>) -> Video {
        let mut b = [3u8];
        let _ = uc.read_seg(0x40, 0x49, &mut b);
        let mut rows = [24u8];
        let _ = uc.read_seg(0x40, 0x84, &mut rows);
        let mode = b[0] & 0x7F;
        let (height, cell) = match mode {
            0 | 1 => (200, (16, 8)),
            2 | 3 | 7 => ((u16::from(rows[0]) + 1).clamp(25, 60) * 8, (8, 8)),
            4 | 5 | 0x0D | 0x13 => (200, (2, 1)),
            0x0F | 0x10 => (350, (1, 1)),
            0x11 | 0x12 => (480, (1, 1)),
            _ => (200, (1, 1)),
        };
        Video {
            mode,
            width: 640,
            height,
            cell,
        }
    }

    /// The 80-column colour text screen this tool keeps.
    fn is_shown_text(&self) -> bool {
        matches!(self.mode, 2 | 3)
    }
}

/// Install the driver: INT 33h's ROM entry becomes `int F1h; db 33h;
/// iret` (it is a bare IRET without a driver, [`super::init_real_mode_tables`]).
pub fn install(m: &mut Machine, script: Vec<Step>) -> Result<Mouse, MachineError> {
    let at = (u32::from(ROM_SEG) << 4) + u32::from(ROM_STUBS) + 0x33 * 8;
    m.write_linear(at, &[0xCD, super::ROM_INT, 0x33, 0xCF])?;
    Ok(Mouse::new(script))
}

/// The ROM entry of INT 33h without a driver: IRET.
pub const NO_DRIVER: [u8; 1] = [0xCF];

fn set(uc: &mut Uc<'_>, r: R, v: u16) -> Result<(), Stop> {
    uc.set_reg(r, v).map_err(host)
}

/// Erase the software cursor if it is drawn.
fn erase(m: &mut Mouse, uc: &mut Uc<'_>) {
    if let Some((col, row, ch, attr)) = m.drawn.take() {
        screen::put(uc, col, row, ch, attr);
    }
}

/// Draw the software cursor if it shows (or erase it when it does not).
fn redraw(m: &mut Mouse, uc: &mut Uc<'_>) {
    erase(m, uc);
    let v = Video::current(uc);
    let TextCursor::Software { screen, cursor } = m.text_cursor else {
        return;
    };
    if m.flag < 0 || !v.is_shown_text() {
        return;
    }
    let (col, row) = (m.x / v.cell.0, m.y / v.cell.1);
    let (ch, attr) = screen::get(uc, col, row);
    let word = ((u16::from(attr) << 8 | u16::from(ch)) & screen) ^ cursor;
    screen::put(uc, col, row, word as u8, (word >> 8) as u8);
    m.drawn = Some((col, row, ch, attr));
}

/// INT 33h with the driver installed.
pub fn int33(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let Some(m) = env.dos.mouse.as_mut() else {
        return Ok(());
    };
    let v = Video::current(uc);
    let (ax, bx, cx, dx, es) = (
        uc.reg(R::AX),
        uc.reg(R::BX),
        uc.reg(R::CX),
        uc.reg(R::DX),
        uc.reg(R::ES),
    );
    match ax {
        0x00 | 0x21 => {
            erase(m, uc);
            m.reset(&v);
            set(uc, R::AX, 0xFFFF)?;
            set(uc, R::BX, 2)?;
        }
        0x01 => {
            if m.flag < 0 {
                m.flag += 1;
            }
            redraw(m, uc);
        }
        0x02 => {
            m.flag = m.flag.saturating_sub(1);
            redraw(m, uc);
        }
        0x03 => {
            let (x, y) = m.reported(&v);
            set(uc, R::BX, u16::from(m.buttons))?;
            set(uc, R::CX, x)?;
            set(uc, R::DX, y)?;
        }
        0x04 => {
            (m.x, m.y) = (cx, dx);
            m.clip();
            redraw(m, uc);
        }
        0x05 | 0x06 => {
            let list = if ax == 0x05 {
                &mut m.presses
            } else {
                &mut m.releases
            };
            // The count clears; where the last one was stays.
            let c = match list.get_mut(usize::from(bx)) {
                Some(c) => std::mem::replace(&mut c.count, 0),
                None => 0,
            };
            let (x, y) = list.get(usize::from(bx)).map_or((0, 0), |c| (c.x, c.y));
            set(uc, R::AX, u16::from(m.buttons))?;
            set(uc, R::BX, c)?;
            set(uc, R::CX, x)?;
            set(uc, R::DX, y)?;
        }
        0x07 | 0x08 => {
            let r = (cx.min(dx), cx.max(dx));
            if ax == 0x07 {
                m.range_x = r;
            } else {
                m.range_y = r;
            }
            m.clip();
            redraw(m, uc);
        }
        0x09 => {
            let mut masks = [0u16; 32];
            for (i, w) in masks.iter_mut().enumerate() {
                *w = uc
                    .read_u16_at(es, dx.wrapping_add(2 * i as u16))
                    .unwrap_or(0);
            }
            m.graphics_cursor = (bx, cx, masks);
        }
        0x0A => {
            m.text_cursor = if bx == 0 {
                TextCursor::Software {
                    screen: cx,
                    cursor: dx,
                }
            } else {
                TextCursor::Hardware {
                    start: cx,
                    stop: dx,
                }
            };
            if let TextCursor::Hardware { start, stop } = m.text_cursor {
                let _ = uc.write_seg(0x40, 0x60, &[stop as u8, start as u8]);
            }
            redraw(m, uc);
        }
        0x0B => {
            let (h, v) = std::mem::take(&mut m.mickeys);
            set(uc, R::CX, h as u16)?;
            set(uc, R::DX, v as u16)?;
        }
        0x0C => {
            m.call_mask = cx;
            m.handler = (es, dx);
        }
        0x0F if cx != 0 && dx != 0 => m.ratio = (cx & 0x7FFF, dx & 0x7FFF),
        0x14 => {
            let (old_mask, (old_seg, old_off)) = (m.call_mask, m.handler);
            m.call_mask = cx;
            m.handler = (es, dx);
            set(uc, R::CX, old_mask)?;
            set(uc, R::ES, old_seg)?;
            set(uc, R::DX, old_off)?;
        }
        0x1A => m.sensitivity = (bx, cx, dx),
        0x1B => {
            let (h, v, t) = m.sensitivity;
            set(uc, R::BX, h)?;
            set(uc, R::CX, v)?;
            set(uc, R::DX, t)?;
        }
        0x24 => {
            set(uc, R::BX, 0x0820)?;
            set(uc, R::CX, 0x0400)?;
        }
        _ => {}
    }
    Ok(())
}

/// A timer tick: the next step of the script raises IRQ 12, when
/// interrupts are enabled and no handler call is in progress.
pub fn tick(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let Some(m) = env.dos.mouse.as_mut() else {
        return Ok(());
    };
    if m.interrupted.is_some() {
        return Ok(());
    }
    // A step still pending went to a program's INT 74h handler that did
    // not chain to the BIOS: the packet was taken; it is lost.
    m.pending = None;
    if m.waiting > 0 {
        m.waiting -= 1;
        return Ok(());
    }
    if uc.reg(R::FLAGS) & 0x200 == 0 {
        return Ok(());
    }
    match m.script.pop_front() {
        None => Ok(()),
        Some(Step::Wait(n)) => {
            m.waiting = n - 1;
            Ok(())
        }
        Some(s) => {
            m.pending = Some(s);
            super::hardware::deliver(uc, IRQ_VECTOR)
        }
    }
}

/// INT 74h reaching the BIOS (the ROM entry): the driver's part of the
/// interrupt. Also where a handler the driver called returns to: its far
/// return lands on this entry again, and the interrupted registers come
/// back before the entry's IRET.
pub fn irq(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let Some(m) = env.dos.mouse.as_mut() else {
        return Ok(());
    };
    if let Some(i) = m.interrupted
        && (uc.reg(R::SS), uc.reg(R::SP)) == i.stack
    {
        m.interrupted = None;
        let ip = uc.reg(R::IP);
        let flags = uc.reg(R::FLAGS);
        uc.set_regs(&i.regs).map_err(host)?;
        set(uc, R::IP, ip)?;
        set(uc, R::CS, ROM_SEG)?;
        return set(uc, R::FLAGS, flags);
    }
    let Some(s) = m.pending.take() else {
        return Ok(());
    };
    let v = Video::current(uc);
    let events = m.step(s, &v);
    if matches!(s, Step::Move(..)) {
        redraw(m, uc);
    }
    let due = events & m.call_mask;
    if due == 0 || m.handler == (0, 0) {
        return Ok(());
    }
    let regs = uc.regs();
    let stack = (regs.ss, regs.sp);
    m.interrupted = Some(Interrupted { regs, stack });
    let (x, y) = m.reported(&v);
    let (mx, my) = m.mickeys;
    let (seg, off) = m.handler;
    let buttons = u16::from(m.buttons);
    // The handler returns far to this ROM entry, which comes back here.
    uc.push16(ROM_SEG).map_err(host)?;
    uc.push16(ROM_STUBS + u16::from(IRQ_VECTOR) * 8)
        .map_err(host)?;
    for (r, val) in [
        (R::AX, due),
        (R::BX, buttons),
        (R::CX, x),
        (R::DX, y),
        (R::SI, mx as u16),
        (R::DI, my as u16),
        (R::DS, ROM_SEG),
        (R::CS, seg),
        (R::IP, off),
    ] {
        set(uc, r, val)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_into_steps() {
        assert_eq!(
            parse_script("move 100 50; click left\nwait 3 # pause\n\nrelease RIGHT").unwrap(),
            vec![
                Step::Move(100, 50),
                Step::Press(Button::Left),
                Step::Release(Button::Left),
                Step::Wait(3),
                Step::Release(Button::Right),
            ]
        );
        for bad in [
            "jump",
            "move 1",
            "move -1 2",
            "press middle",
            "wait x",
            "click",
        ] {
            let e = parse_script(bad).unwrap_err();
            assert!(e.starts_with("--mouse: `"), "{bad}: {e}");
        }
    }

    #[test]
    fn moves_count_mickeys_by_the_ratio_and_clip_the_position() {
        let mut m = Mouse::new(Vec::new());
        let v = Video::TEXT80;
        assert_eq!(m.reported(&v), (320, 96));
        assert_eq!(m.step(Step::Move(300, 110), &v), 1);
        // 8 mickeys per 8 pixels across, 16 down.
        assert_eq!(m.mickeys, (-20, 20));
        assert_eq!(m.step(Step::Move(300, 110), &v), 0, "no motion, no event");
        m.range_x = (0, 100);
        assert_eq!(m.step(Step::Move(700, 110), &v), 1);
        assert_eq!(m.reported(&v), (96, 104));
        assert_eq!(m.step(Step::Press(Button::Right), &v), 8);
        assert_eq!(m.step(Step::Press(Button::Right), &v), 0, "already down");
        assert_eq!(m.step(Step::Release(Button::Right), &v), 0x10);
        assert_eq!(m.presses[1].count, 1);
        assert_eq!((m.releases[1].x, m.releases[1].y), (96, 104));
    }
}
