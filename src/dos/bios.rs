//! BIOS services of a VGA AT: INT 10h video (an 80×25 colour text screen at
//! B800:0000, [`super::screen`]; modes, pixels, palettes and fonts of the
//! graphics modes, [`super::video`]), INT 11h equipment, INT 12h memory size,
//! INT 13h disks (none answer), INT 15h system services (the A20 gate of
//! [`crate::machine::a20`], the configuration table), INT 16h keyboard
//! (the BIOS buffer and the `--keys` script), INT 1Ah clock, and what DOS
//! answers for INT 2Fh (the multiplex interrupt) when nothing is
//! installed: registers as they were, which is "not installed" for every
//! installation check, XMS (AX=4300h) and DPMI (AX=1687h) included. INT 33h
//! is the mouse driver of [`super::mouse`], or an IRET without one.

use super::{
    ROM_SEG, clock, hardware, host, screen, set_al, set_carry, set_zf, unimplemented, video,
};
use crate::dos::Env;
use crate::machine::{Cpu, Machine, MachineError, R, Stop, Uc};
use crate::walk::CpuMode;

/// The case-map routine of the country information (AH=38h +12h): a far
/// routine upper-casing AL (80h-FFh through code page 437's table).
pub const CASE_MAP: u16 = 0xEA80;
/// Its table, for characters 80h-FFh.
const CASE_MAP_TABLE: u16 = 0xEA00;
/// The system configuration table (INT 15h AH=C0h), where IBM's BIOS keeps
/// it.
const CONFIG_TABLE: u16 = 0xE6F5;

/// Write the BIOS's own tables and routines into the system ROM.
pub fn init_rom(m: &mut Machine) -> Result<(), MachineError> {
    let at = |off: u16| (u32::from(ROM_SEG) << 4) + u32::from(off);
    m.write_linear(at(CASE_MAP_TABLE), &super::data::UPPER_437)?;
    let base = CASE_MAP_TABLE.wrapping_sub(0x80).to_le_bytes();
    m.write_linear(
        at(CASE_MAP),
        &[
            0x3C, 0x80, // cmp al, 80h
            0x72, 0x07, // jb done
            0x53, // push bx
            0xBB, base[0], base[1], // mov bx, table - 80h
            0x2E, 0xD7, // xlat cs:[bx]
            0x5B, // pop bx
            0xCB, // done: retf
        ],
    )?;
    // Size 8; model FCh submodel 01h (AT), BIOS revision 0; feature byte
    // 1: second 8259, real-time clock, INT 15h/4Fh keyboard intercept.
    m.write_linear(
        at(CONFIG_TABLE),
        &[8, 0, 0xFC, 0x01, 0x00, 0x70, 0, 0, 0, 0],
    )
}

/// BIOS services (and INT 2Fh, INT 33h as DOS leaves them).
pub fn bios(env: &mut Env, uc: &mut Uc<'_>, intno: u8) -> Result<(), Stop> {
    match intno {
        0x10 => video(env, uc),
        0x11 => uc.set_reg(R::AX, 0x0021).map_err(host),
        0x12 => uc.set_reg(R::AX, 640).map_err(host),
        0x13 => {
            let al = uc.reg(R::AX) as u8;
            uc.set_reg(R::AX, 0x8000 | u16::from(al)).map_err(host)?; // timeout: no drive
            set_carry(uc, true)
        }
        0x15 => system(uc),
        0x16 => keyboard(env, uc),
        0x1A => time(env, uc),
        0x2F => multiplex(uc),
        0x33 => super::mouse::int33(env, uc),
        _ => Err(unimplemented(uc, format!("INT {intno:02X}h"))),
    }
}

fn video(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let (ah, al) = ((ax >> 8) as u8, ax as u8);
    let (bx, cx, dx) = (uc.reg(R::BX), uc.reg(R::CX), uc.reg(R::DX));
    let (cols, rows) = screen::size(uc);
    match ah {
        0x00 => video::set_mode(env, uc, al)?,
        // Cursor shape: start line CH, end line CL.
        0x01 => {
            let _ = uc.write_seg(0x40, 0x60, &[cx as u8, (cx >> 8) as u8]);
        }
        0x02 => {
            let page = usize::from((bx >> 8) as u8 & 7);
            let _ = uc.write_seg(0x40, 0x50 + 2 * page as u16, &[dx as u8, (dx >> 8) as u8]);
            if page == 0 {
                screen::set_cursor(uc, dx & 0xFF, dx >> 8);
            }
        }
        0x03 => {
            let page = (bx >> 8) & 7;
            let pos = uc.read_u16_at(0x40, 0x50 + 2 * page).unwrap_or(0);
            let shape = uc.read_u16_at(0x40, 0x60).unwrap_or(0x0607);
            // The BIOS data area keeps column then row, end then start line.
            uc.set_reg(R::DX, pos).map_err(host)?;
            uc.set_reg(R::CX, shape).map_err(host)?;
        }
        // Light pen: not triggered.
        0x04 => uc.set_reg(R::AX, ax & 0x00FF).map_err(host)?,
        0x05 => video::set_page(uc, al),
        0x06 | 0x07 if video::graphics(uc) => {
            let (top, left, bottom, right) = (cx >> 8, cx & 0xFF, dx >> 8, dx & 0xFF);
            video::scroll(
                uc,
                ah == 0x06,
                u16::from(al),
                (bx >> 8) as u8,
                top,
                left,
                bottom,
                right,
            );
        }
        0x06 | 0x07 => {
            let (top, left, bottom, right) = (cx >> 8, cx & 0xFF, dx >> 8, dx & 0xFF);
            let attr = (bx >> 8) as u8;
            if ah == 0x06 {
                screen::scroll_up(uc, u16::from(al), attr, top, left, bottom, right);
            } else {
                screen::scroll_down(uc, u16::from(al), attr, top, left, bottom, right);
            }
        }
        0x08 => {
            let (c, r) = screen::cursor(uc);
            let (ch, attr) = screen::get(uc, c, r);
            uc.set_reg(R::AX, u16::from(attr) << 8 | u16::from(ch))
                .map_err(host)?;
        }
        0x09 | 0x0A if video::graphics(uc) => video::write_chars(uc, al, bx as u8, cx),
        0x09 | 0x0A => {
            let (c, r) = screen::cursor(uc);
            for k in 0..cx.min(cols * rows) {
                let pos = c + k;
                let (col, row) = (pos % cols, r + pos / cols);
                let attr = if ah == 0x09 {
                    bx as u8
                } else {
                    screen::get(uc, col, row).1
                };
                screen::put(uc, col, row, al, attr);
            }
        }
        0x0B => video::cga_palette(uc, (bx >> 8) as u8, bx as u8),
        0x10 => video::palette(uc, al)?,
        0x0C | 0x0D => video::pixel(uc, ah == 0x0C)?,
        0x0E => {
            env.write_console(&[al]);
            if video::graphics(uc) {
                video::teletype(uc, al, bx as u8);
            } else {
                screen::teletype(uc, al);
            }
        }
        // The mode (bit 7: the last mode set kept the memory), columns,
        // page.
        0x0F => {
            let mut mode = [3u8, 0];
            let _ = uc.read_seg(0x40, 0x49, &mut mode[..1]);
            let _ = uc.read_seg(0x40, 0x87, &mut mode[1..]);
            mode[0] |= mode[1] & 0x80;
            let c = uc.read_u16_at(0x40, 0x4A).unwrap_or(80);
            let mut page = [0u8];
            let _ = uc.read_seg(0x40, 0x62, &mut page);
            uc.set_reg(R::AX, (c & 0xFF) << 8 | u16::from(mode[0]))
                .map_err(host)?;
            uc.set_reg(R::BX, u16::from(page[0]) << 8 | (bx & 0x00FF))
                .map_err(host)?;
        }
        // Character generator: AL=30h tells where a ROM font is and the
        // screen's character height and rows; AL=00h-14h load text fonts.
        0x11 if al == 0x30 => video::font_info(uc)?,
        0x11 if al <= 0x14 => video::load_font(uc, al)?,
        // EGA/VGA information: a colour adapter with 256 KiB.
        0x12 if bx & 0xFF == 0x10 => {
            uc.set_reg(R::BX, 0x0003).map_err(host)?;
            uc.set_reg(R::CX, 0x0009).map_err(host)?;
        }
        0x12 => {
            if matches!(bx & 0xFF, 0x30..=0x36) {
                set_al(uc, 0x12)?;
            }
        }
        // Write string ES:BP (CX characters) at row DH, column DL of page
        // BH; AL bit 0 moves the cursor, bit 1 means character/attribute
        // pairs.
        0x13 => {
            let (es, bp) = (uc.reg(R::ES), uc.reg(R::BP));
            let with_attrs = al & 2 != 0;
            let n = usize::from(cx) * if with_attrs { 2 } else { 1 };
            let mut s = vec![0u8; n.min(0x10000)];
            let _ = uc.read_seg(es, bp, &mut s);
            let saved = screen::cursor(uc);
            screen::set_cursor(uc, dx & 0xFF, dx >> 8);
            let mut text = Vec::new();
            for k in 0..usize::from(cx) {
                let (ch, attr) = if with_attrs {
                    (s[2 * k], s[2 * k + 1])
                } else {
                    (s[k], bx as u8)
                };
                screen::teletype_attr(uc, ch, attr);
                text.push(ch);
            }
            env.write_console(&text);
            if al & 1 == 0 {
                screen::set_cursor(uc, saved.0, saved.1);
            }
        }
        // Display combination: VGA with colour display.
        0x1A => {
            set_al(uc, 0x1A)?;
            uc.set_reg(R::BX, 0x0008).map_err(host)?;
        }
        // VESA BIOS extensions: none (AL != 4Fh means "not supported").
        0x4F => uc.set_reg(R::AX, 0x0100).map_err(host)?,
        // Anything else a VGA BIOS leaves as it was.
        _ => {}
    }
    Ok(())
}

/// INT 15h. AH=24h: the A20 gate (AL=0 off, 1 on, 2 status in AL, 3
/// support in BX: keyboard controller and port 92h); AH=88h: extended
/// memory, none beyond the HMA's 64 KiB that XMS would manage; AH=C0h: ES:BX
/// = the configuration table; AH=86h: wait (returns at once; time is
/// emulated); AH=90h/91h: device busy/post, AH=0. Anything else: CF set, AH
/// = 86h, "function not supported", as an AT BIOS answers.
fn system(uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let (ah, al) = ((ax >> 8) as u8, ax as u8);
    let ok = |uc: &mut Uc<'_>, ah: u8| -> Result<(), Stop> {
        let ax = uc.reg(R::AX);
        uc.set_reg(R::AX, u16::from(ah) << 8 | (ax & 0xFF))
            .map_err(host)?;
        set_carry(uc, false)
    };
    match (ah, al) {
        (0x24, 0 | 1) => {
            crate::machine::a20::set(uc, al == 1).map_err(|e| Stop::Error(e.0))?;
            ok(uc, 0)
        }
        (0x24, 2) => {
            let on = crate::machine::a20::enabled(uc);
            uc.set_reg(R::AX, u16::from(on)).map_err(host)?;
            set_carry(uc, false)
        }
        (0x24, 3) => {
            uc.set_reg(R::BX, 0x0003).map_err(host)?;
            ok(uc, 0)
        }
        (0x88, _) => {
            uc.set_reg(R::AX, 0).map_err(host)?;
            set_carry(uc, false)
        }
        (0xC0, _) => {
            uc.set_reg(R::ES, ROM_SEG).map_err(host)?;
            uc.set_reg(R::BX, CONFIG_TABLE).map_err(host)?;
            ok(uc, 0)
        }
        (0x86, _) | (0x90, _) | (0x91, _) => ok(uc, 0),
        _ => ok(uc, 0x86).and_then(|_| set_carry(uc, true)),
    }
}

/// INT 16h: AH=00h/10h read a key (the BIOS buffer, then the `--keys`
/// script; none left stops the program), 01h/11h peek (ZF set: none),
/// 02h/12h shift flags, 03h typematic rate, 05h store a key (AL = 1 when
/// the buffer is full), 09h capabilities, 0Ah the keyboard ID (an MF2
/// keyboard). Others change nothing.
fn keyboard(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    let cx = uc.reg(R::CX);
    match (ax >> 8) as u8 {
        0x00 | 0x10 => match hardware::pop(uc).or_else(|| env.dos.keys.pop_front()) {
            Some((scan, ascii)) => uc
                .set_reg(R::AX, u16::from(scan) << 8 | u16::from(ascii))
                .map_err(host)?,
            None => {
                return Err(Stop::NoInput {
                    what: "INT 16h waits for a key and the --keys script is used up".into(),
                });
            }
        },
        0x01 | 0x11 => match hardware::peek(uc) {
            Some((scan, ascii)) => {
                uc.set_reg(R::AX, u16::from(scan) << 8 | u16::from(ascii))
                    .map_err(host)?;
                set_zf(uc, false)?;
            }
            None => {
                if env.dos.keys.is_empty() {
                    env.dos.keyboard.empty_polls += 1;
                }
                set_zf(uc, true)?
            }
        },
        0x02 => {
            let mut b = [0u8];
            let _ = uc.read_seg(0x40, 0x17, &mut b);
            set_al(uc, b[0])?;
        }
        0x12 => {
            let f = uc.read_u16_at(0x40, 0x17).unwrap_or(0);
            uc.set_reg(R::AX, f).map_err(host)?;
        }
        0x03 => {}
        0x05 => {
            let stored = hardware::push(uc, ((cx >> 8) as u8, cx as u8));
            set_al(uc, u8::from(!stored))?;
        }
        0x09 => set_al(uc, 0x0F)?,
        0x0A => uc.set_reg(R::BX, 0x41AB).map_err(host)?,
        _ => {}
    }
    Ok(())
}

/// INT 1Ah: AH=00h ticks since midnight (CX:DX, AL = 0: no midnight
/// passed), 02h the real-time clock's time and 04h its date in BCD (CF
/// clear); setting them (01h, 03h, 05h) is accepted and changes nothing:
/// the clock is the host's or `--clock`'s.
fn time(env: &mut Env, uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ah = (uc.reg(R::AX) >> 8) as u8;
    match ah {
        0x00 => {
            let t = match env.dos.clock {
                clock::Clock::Fixed(_) => {
                    env.dos.ticks = env.dos.ticks.wrapping_add(1);
                    env.dos.clock.ticks().wrapping_add(env.dos.ticks)
                }
                clock::Clock::Host => env.dos.clock.ticks(),
            };
            uc.set_reg(R::CX, (t >> 16) as u16).map_err(host)?;
            uc.set_reg(R::DX, t as u16).map_err(host)?;
            uc.set_reg(R::AX, 0).map_err(host)?;
        }
        0x02 | 0x04 => {
            let t = env.dos.clock.now();
            let bcd = |v: u16| (((v / 10) << 4) | (v % 10)) & 0xFF;
            if ah == 0x02 {
                uc.set_reg(R::CX, bcd(t.hour.into()) << 8 | bcd(t.minute.into()))
                    .map_err(host)?;
                uc.set_reg(R::DX, bcd(t.second.into()) << 8).map_err(host)?;
            } else {
                uc.set_reg(R::CX, bcd(t.year / 100) << 8 | bcd(t.year % 100))
                    .map_err(host)?;
                uc.set_reg(R::DX, bcd(t.month.into()) << 8 | bcd(t.day.into()))
                    .map_err(host)?;
            }
            set_carry(uc, false)?;
        }
        0x01 | 0x03 | 0x05 => set_carry(uc, false)?,
        _ => {}
    }
    Ok(())
}

/// INT 2Fh with nothing installed: DOS's own handler returns with the
/// registers as they were, so every installation check (AL = 00h in, 00h
/// out) says "not installed" — XMS's AX=4300h (80h would mean installed)
/// and DPMI's AX=1687h (0 would) too. DOS 5 itself answers AX=4A01h (free
/// HMA: BX = 0, ES:DI = FFFF:FFFF, DOS is not in the HMA). In protected
/// mode (Win16) installation checks read AL = 0, and AX=1684h (a VxD's API
/// entry) ES:DI = 0:0.
fn multiplex(uc: &mut Uc<'_>) -> Result<(), Stop> {
    let ax = uc.reg(R::AX);
    if uc.mode() == CpuMode::Protected {
        if ax == 0x1684 {
            uc.set_reg(R::ES, 0).map_err(host)?;
            uc.set_reg(R::DI, 0).map_err(host)?;
            return Ok(());
        }
        return set_al(uc, 0);
    }
    if ax == 0x4A01 {
        uc.set_reg(R::BX, 0).map_err(host)?;
        uc.set_reg(R::ES, 0xFFFF).map_err(host)?;
        uc.set_reg(R::DI, 0xFFFF).map_err(host)?;
    }
    Ok(())
}
