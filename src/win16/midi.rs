//! MMSYSTEM's MIDI output: one MIDI output device whose messages go into
//! Standard MIDI Files on drive C: (Windows 3.1 SDK, Multimedia
//! Programmer's Reference, midiOut functions; codes from MMSYSTEM.H).
//!
//! The machine has one MIDI output device (midiOutGetNumDevs: 1), a
//! synthesizer: MIDIOUTCAPS manufacturer 1 (MM_MICROSOFT), product 0,
//! driver version 1.00, the name `MIDI file output`, wTechnology MOD_SYNTH
//! (2), 16 voices, 16 notes, all 16 channels (wChannelMask FFFFh),
//! dwSupport 0 (no volume or patch caching: those functions answer
//! MMSYSERR_NOTSUPPORTED).
//!
//! - midiOutOpen(lphMidiOut, wDeviceID, dwCallback, dwInstance, dwFlags)
//!   takes device 0 or MIDI_MAPPER (-1); the device opens once
//!   (MMSYSERR_ALLOCATED). The callback hears MOM_OPEN, MOM_DONE (the
//!   MIDIHDR) and MOM_CLOSE, as wave.rs's does for WOM_x
//!   (CALLBACK_WINDOW: MM_MOM_OPEN/DONE/CLOSE posted to the window;
//!   CALLBACK_FUNCTION: the function called).
//! - midiOutShortMsg(hMidiOut, dwMsg): the status byte in the low byte,
//!   then one or two data bytes as the status needs (a data byte as the
//!   low byte repeats the last status, as running status does). Each
//!   message is an event of the file, at the time of the emulated clock.
//! - midiOutPrepareHeader / midiOutUnprepareHeader set and clear
//!   MHDR_PREPARED; midiOutLongMsg (MIDIERR_UNPREPARED unless prepared)
//!   sends the buffer's dwBufferLength bytes (system-exclusive messages,
//!   F0h .. F7h, as the file's sysex events), marks it MHDR_DONE and
//!   sends MOM_DONE at once.
//! - midiOutReset: a note-off for every note still on, on each channel
//!   (what the SDK says reset does), as events; midiOutClose writes the
//!   file (MIDInnnn.MID in the root of drive C:, nnnn counting from 0001
//!   in the run; none when nothing was sent) and sends MOM_CLOSE.
//!
//! The file is format 0 with one track: division 500 ticks per quarter
//! note at the default tempo (500000 µs a quarter note), so one tick is
//! one millisecond of the emulated clock, counted from the open. At most
//! [`MAX_EVENTS`] bytes of events are kept.

use crate::machine::{Cpu, R, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr;
use crate::win16::mmsystem::{
    DriverClient, MMSYSERR_ALLOCATED, MMSYSERR_BADDEVICEID, MMSYSERR_INVALHANDLE,
    MMSYSERR_INVALPARAM, MMSYSERR_NOTSUPPORTED, device_id_ok, give_dev_caps, header_flags,
    notify_client, set_header_flags,
};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("MMSYSTEM", 201, "MIDIOUTGETNUMDEVS", &[], get_num_devs),
    Api::new(
        "MMSYSTEM",
        202,
        "MIDIOUTGETDEVCAPS",
        &[Arg::W, Arg::L, Arg::W],
        get_dev_caps,
    ),
    Api::new(
        "MMSYSTEM",
        204,
        "MIDIOUTOPEN",
        &[Arg::L, Arg::W, Arg::L, Arg::L, Arg::L],
        midi_out_open,
    ),
    Api::new("MMSYSTEM", 205, "MIDIOUTCLOSE", &[Arg::W], midi_out_close),
    Api::new(
        "MMSYSTEM",
        206,
        "MIDIOUTPREPAREHEADER",
        &[Arg::W, Arg::L, Arg::W],
        prepare_header,
    ),
    Api::new(
        "MMSYSTEM",
        207,
        "MIDIOUTUNPREPAREHEADER",
        &[Arg::W, Arg::L, Arg::W],
        unprepare_header,
    ),
    Api::new(
        "MMSYSTEM",
        208,
        "MIDIOUTSHORTMSG",
        &[Arg::W, Arg::L],
        short_msg,
    ),
    Api::new(
        "MMSYSTEM",
        209,
        "MIDIOUTLONGMSG",
        &[Arg::W, Arg::L, Arg::W],
        long_msg,
    ),
    Api::new("MMSYSTEM", 210, "MIDIOUTRESET", &[Arg::W], reset),
    Api::new(
        "MMSYSTEM",
        211,
        "MIDIOUTGETVOLUME",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        212,
        "MIDIOUTSETVOLUME",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        213,
        "MIDIOUTCACHEPATCHES",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        214,
        "MIDIOUTCACHEDRUMPATCHES",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        not_supported,
    ),
    Api::new("MMSYSTEM", 215, "MIDIOUTGETID", &[Arg::W, Arg::L], get_id),
];

pub const MIDIERR_UNPREPARED: u32 = 64;
pub const MIDIERR_STILLPLAYING: u32 = 65;
pub const MM_MOM_OPEN: u16 = 0x3C7;
pub const MM_MOM_CLOSE: u16 = 0x3C8;
pub const MM_MOM_DONE: u16 = 0x3C9;
pub const MHDR_DONE: u32 = 0x01;
pub const MHDR_PREPARED: u32 = 0x02;
pub const MHDR_INQUEUE: u32 = 0x04;
/// The open device's handle.
pub const HMIDIOUT: u16 = 0x4D01;
/// Bytes of MIDIOUTCAPS and MIDIHDR.
pub const MIDIOUTCAPS_SIZE: usize = 50;
pub const MIDIHDR_SIZE: usize = 28;
/// The most bytes of events one file keeps.
pub const MAX_EVENTS: usize = 16 << 20;
/// Ticks per quarter note (module doc).
pub const DIVISION: u16 = 500;

/// The open device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub callback: u32,
    pub instance: u32,
    pub flags: u32,
    pub ds: u16,
    /// The clock at the open and at the last event (ms).
    pub start: u32,
    pub last: u32,
    /// The track's events so far.
    pub events: Vec<u8>,
    /// The running status.
    pub status: u8,
    /// Notes on, by channel: a bit per note.
    pub on: [u128; 16],
}

/// The MIDI device's state.
#[derive(Debug, Default, Clone)]
pub struct MidiState {
    pub device: Option<Device>,
    pub written: Vec<String>,
}

/// MMSYSTEM.201 midiOutGetNumDevs(): 1.
pub fn get_num_devs(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The device's MIDIOUTCAPS (module doc).
pub fn caps() -> [u8; MIDIOUTCAPS_SIZE] {
    let mut b = [0u8; MIDIOUTCAPS_SIZE];
    b[0..2].copy_from_slice(&1u16.to_le_bytes());
    b[4..6].copy_from_slice(&0x0100u16.to_le_bytes());
    let name = b"MIDI file output";
    b[6..6 + name.len()].copy_from_slice(name);
    b[38..40].copy_from_slice(&2u16.to_le_bytes());
    b[40..42].copy_from_slice(&16u16.to_le_bytes());
    b[42..44].copy_from_slice(&16u16.to_le_bytes());
    b[44..46].copy_from_slice(&0xFFFFu16.to_le_bytes());
    b
}

/// MMSYSTEM.202 midiOutGetDevCaps(wDeviceID, lpCaps, wSize).
pub fn get_dev_caps(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(give_dev_caps(uc, a, &caps()))
}

fn now(env: &mut Env, uc: &Uc<'_>) -> u32 {
    crate::win16::user::message::now_ms(env, uc)
}

/// A variable-length quantity (Standard MIDI File).
pub fn varlen(mut v: u32, out: &mut Vec<u8>) {
    let mut bytes = vec![(v & 0x7F) as u8];
    v >>= 7;
    while v != 0 {
        bytes.push((v & 0x7F) as u8 | 0x80);
        v >>= 7;
    }
    bytes.reverse();
    out.extend_from_slice(&bytes);
}

/// How many data bytes follow a status byte.
pub fn data_bytes(status: u8) -> usize {
    match status {
        0x80..=0xBF | 0xE0..=0xEF | 0xF2 => 2,
        0xC0..=0xDF | 0xF1 | 0xF3 => 1,
        _ => 0,
    }
}

/// Append an event at time `t` (ms).
fn event(d: &mut Device, t: u32, bytes: &[u8]) {
    if d.events.len() + bytes.len() + 8 > MAX_EVENTS {
        return;
    }
    varlen(t.saturating_sub(d.last), &mut d.events);
    d.last = t.max(d.last);
    d.events.extend_from_slice(bytes);
}

/// The file of a track's events (module doc).
pub fn smf(events: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(events.len() + 26);
    v.extend_from_slice(b"MThd\0\0\0\x06\0\0\0\x01");
    v.extend_from_slice(&DIVISION.to_be_bytes());
    v.extend_from_slice(b"MTrk");
    v.extend_from_slice(&((events.len() + 4) as u32).to_be_bytes());
    v.extend_from_slice(events);
    v.extend_from_slice(&[0, 0xFF, 0x2F, 0]);
    v
}

fn notify(env: &mut Env, uc: &mut Uc<'_>, msg: u16, param1: u32) -> Result<(), Stop> {
    let Some(d) = env.win16.midi.device.clone() else {
        return Ok(());
    };
    let client = DriverClient {
        flags: d.flags,
        callback: d.callback,
        instance: d.instance,
        ds: d.ds,
    };
    notify_client(env, uc, client, HMIDIOUT, msg, param1)
}

/// MMSYSTEM.204 midiOutOpen (module doc).
pub fn midi_out_open(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !device_id_ok(a[1] as u16) {
        return Ok(MMSYSERR_BADDEVICEID);
    }
    if env.win16.midi.device.is_some() {
        return Ok(MMSYSERR_ALLOCATED);
    }
    if !farptr::write_bytes(uc, a[0], &HMIDIOUT.to_le_bytes()) {
        return Ok(MMSYSERR_INVALPARAM);
    }
    let t = now(env, uc);
    env.win16.midi.device = Some(Device {
        callback: a[2],
        instance: a[3],
        flags: a[4],
        ds: uc.reg(R::DS),
        start: t,
        last: t,
        events: Vec::new(),
        status: 0,
        on: [0; 16],
    });
    notify(env, uc, MM_MOM_OPEN, 0)?;
    Ok(0)
}

fn open(env: &Env, h: u16) -> bool {
    h == HMIDIOUT && env.win16.midi.device.is_some()
}

/// MMSYSTEM.208 midiOutShortMsg(hMidiOut, dwMsg) (module doc).
pub fn short_msg(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let t = now(env, uc);
    let Some(d) = env.win16.midi.device.as_mut() else {
        return Ok(MMSYSERR_INVALHANDLE);
    };
    let b = a[1].to_le_bytes();
    let (status, data) = if b[0] & 0x80 != 0 {
        (b[0], &b[1..3])
    } else {
        (d.status, &b[0..2])
    };
    if status & 0x80 == 0 {
        return Ok(0);
    }
    let n = data_bytes(status);
    let mut msg = vec![status];
    msg.extend(data[..n].iter().map(|&x| x & 0x7F));
    if status < 0xF0 {
        d.status = status;
        let ch = usize::from(status & 0x0F);
        match (status & 0xF0, msg.get(1), msg.get(2)) {
            (0x90, Some(&k), Some(&v)) if v != 0 => d.on[ch] |= 1u128 << k,
            (0x80 | 0x90, Some(&k), _) => d.on[ch] &= !(1u128 << k),
            _ => {}
        }
    }
    event(d, t, &msg);
    Ok(0)
}

/// MMSYSTEM.206 midiOutPrepareHeader(hMidiOut, lpMidiOutHdr, wSize).
pub fn prepare_header(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let Some(f) = header_flags(uc, a[1]).filter(|_| usize::from(a[2] as u16) >= MIDIHDR_SIZE)
    else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    set_header_flags(uc, a[1], f | MHDR_PREPARED);
    Ok(0)
}

/// MMSYSTEM.207 midiOutUnprepareHeader(hMidiOut, lpMidiOutHdr, wSize).
pub fn unprepare_header(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let Some(f) = header_flags(uc, a[1]) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    if f & MHDR_INQUEUE != 0 {
        return Ok(MIDIERR_STILLPLAYING);
    }
    set_header_flags(uc, a[1], f & !MHDR_PREPARED);
    Ok(0)
}

/// MMSYSTEM.209 midiOutLongMsg(hMidiOut, lpMidiOutHdr, wSize) (module
/// doc).
pub fn long_msg(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let Some(h) = farptr::read_bytes(uc, a[1], MIDIHDR_SIZE) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    let d = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let (data_p, len, flags) = (d(0), d(4), d(16));
    if flags & MHDR_PREPARED == 0 {
        return Ok(MIDIERR_UNPREPARED);
    }
    if len > 0x1_0000 {
        return Ok(MMSYSERR_INVALPARAM);
    }
    let Some(bytes) = crate::win16::kernel::memory::read_huge(uc, data_p, len) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    let t = now(env, uc);
    if let Some(dev) = env.win16.midi.device.as_mut() {
        // Each F0h .. F7h message is a sysex event: F0h, its length, the
        // bytes after F0h.
        for m in bytes.split_inclusive(|&b| b == 0xF7) {
            if let Some(rest) = m.strip_prefix(&[0xF0]) {
                let mut e = vec![0xF0];
                varlen(rest.len() as u32, &mut e);
                e.extend_from_slice(rest);
                event(dev, t, &e);
            }
        }
    }
    set_header_flags(uc, a[1], (flags & !MHDR_INQUEUE) | MHDR_DONE);
    notify(env, uc, MM_MOM_DONE, a[1])?;
    Ok(0)
}

/// MMSYSTEM.210 midiOutReset(hMidiOut) (module doc).
pub fn reset(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let t = now(env, uc);
    if let Some(d) = env.win16.midi.device.as_mut() {
        for ch in 0..16u8 {
            for k in 0..128u8 {
                if d.on[usize::from(ch)] & (1u128 << k) != 0 {
                    event(d, t, &[0x80 | ch, k, 0]);
                }
            }
            d.on[usize::from(ch)] = 0;
        }
        d.status = 0;
    }
    Ok(0)
}

/// MMSYSTEM.205 midiOutClose(hMidiOut) (module doc).
pub fn midi_out_close(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    notify(env, uc, MM_MOM_CLOSE, 0)?;
    let Some(d) = env.win16.midi.device.take() else {
        return Ok(MMSYSERR_INVALHANDLE);
    };
    if d.events.is_empty() {
        return Ok(0);
    }
    let n = env.win16.midi.written.len() + 1;
    let name = format!("MIDI{:04}.MID", n % 10000);
    let bytes = smf(&d.events);
    let written = env.drive.as_mut().is_some_and(|drive| {
        let path = format!("\\{name}");
        match drive.create(path.as_bytes(), 0) {
            Ok(h) => {
                let w = bytes
                    .chunks(0x8000)
                    .all(|c| drive.write(h, c).is_ok_and(|k| k == c.len()));
                drive.close(h).is_ok() && w
            }
            Err(_) => false,
        }
    });
    if written {
        env.win16.midi.written.push(name);
    } else {
        crate::machine::record_event(
            uc,
            "midiOutClose: the MIDI file could not be written".into(),
        );
    }
    Ok(0)
}

/// Volume and patch caching: not supported (module doc).
pub fn not_supported(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let h = a[0] as u16;
    Ok(if device_id_ok(h) || h == HMIDIOUT {
        MMSYSERR_NOTSUPPORTED
    } else {
        MMSYSERR_INVALHANDLE
    })
}

/// MMSYSTEM.215 midiOutGetID(hMidiOut, lpwDeviceID): device 0.
pub fn get_id(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    Ok(if farptr::write_bytes(uc, a[1], &[0, 0]) {
        0
    } else {
        MMSYSERR_INVALPARAM
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_length_quantities() {
        let enc = |v| {
            let mut o = Vec::new();
            varlen(v, &mut o);
            o
        };
        // The Standard MIDI File specification's examples.
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(0x40), [0x40]);
        assert_eq!(enc(0x80), [0x81, 0x00]);
        assert_eq!(enc(0x2000), [0xC0, 0x00]);
        assert_eq!(enc(0x3FFF), [0xFF, 0x7F]);
        assert_eq!(enc(0x0FFF_FFFF), [0xFF, 0xFF, 0xFF, 0x7F]);
    }

    #[test]
    fn file_layout() {
        let f = smf(&[0, 0x90, 60, 100]);
        assert_eq!(&f[0..14], b"MThd\0\0\0\x06\0\0\0\x01\x01\xF4");
        assert_eq!(&f[14..22], b"MTrk\0\0\0\x08");
        assert_eq!(&f[22..], &[0, 0x90, 60, 100, 0, 0xFF, 0x2F, 0]);
    }

    #[test]
    fn data_byte_counts() {
        assert_eq!(data_bytes(0x90), 2);
        assert_eq!(data_bytes(0xC5), 1);
        assert_eq!(data_bytes(0xF8), 0);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
