//! MMSYSTEM's waveform output: one wave output device whose sound goes
//! into .WAV files on drive C:, and sndPlaySound through it.
//!
//! The machine has one wave output device (waveOutGetNumDevs: 1). Its
//! capabilities (WAVEOUTCAPS): manufacturer 1 (MM_MICROSOFT), product 0,
//! driver version 1.00, the name `Wave file output`, every standard PCM
//! format of 11, 22 and 44 kHz, mono and stereo, 8 and 16 bits (dwFormats
//! FFFh), 2 channels, no volume, pitch or rate control (dwSupport 0: the
//! volume, pitch and rate functions answer MMSYSERR_NOTSUPPORTED).
//!
//! - waveOutOpen(lphWaveOut, uDeviceID, lpFormat, dwCallback,
//!   dwCallbackInstance, dwFlags) takes device 0 or WAVE_MAPPER (-1) and
//!   a PCM format (WAVE_FORMAT_PCM, 1 or 2 channels, 8 or 16 bits,
//!   nBlockAlign = channels × bytes per sample, nAvgBytesPerSec = rate ×
//!   nBlockAlign, a rate of 1 to 100000 Hz), else WAVERR_BADFORMAT;
//!   WAVE_FORMAT_QUERY only checks. The device can be open once
//!   (MMSYSERR_ALLOCATED). The callback (CALLBACK_WINDOW: messages
//!   MM_WOM_OPEN, MM_WOM_DONE, MM_WOM_CLOSE posted to the window with
//!   wParam = the HWAVEOUT and lParam = the WAVEHDR for DONE;
//!   CALLBACK_FUNCTION: the function called (hWaveOut, WOM_x,
//!   dwInstance, dwParam1, dwParam2)) hears of the open at once.
//! - waveOutPrepareHeader / waveOutUnprepareHeader set and clear
//!   WHDR_PREPARED in the WAVEHDR (WAVERR_STILLPLAYING while it is
//!   queued). waveOutWrite (WAVERR_UNPREPARED for a header not prepared)
//!   plays the buffer: its dwBufferLength bytes (a WHDR_BEGINLOOP ..
//!   WHDR_ENDLOOP block dwLoops times) go to the device's file, and since
//!   the device plays as fast as the emulated machine runs, the buffer is
//!   done at once: WHDR_DONE is set and WOM_DONE is sent.
//! - waveOutGetPosition: the bytes played, as TIME_BYTES, TIME_SAMPLES
//!   or TIME_MS (asked for) — other formats get TIME_BYTES, as the SDK
//!   allows. waveOutPause, waveOutRestart, waveOutReset, waveOutBreakLoop:
//!   0 (nothing is ever waiting). waveOutGetID: device 0.
//! - waveOutClose (WAVERR_STILLPLAYING never happens: nothing stays
//!   queued) writes the file and sends WOM_CLOSE.
//!
//! Each device session (open to close) and each sound sndPlaySound plays
//! is one file in the root of drive C:, `WAVEnnnn.WAV` (nnnn counting
//! from 0001 in the run), a RIFF WAVE file with the format's `fmt ` chunk
//! (a PCMWAVEFORMAT) and the sound's `data` chunk. A session that plays
//! nothing writes no file. At most [`MAX_SOUND`] bytes are kept a file.
//!
//! sndPlaySound(lpszSound, fuSound): the sound is a .WAV file (the name
//! as given, or the file of WIN.INI's `[sounds]` entry of that name) or,
//! with SND_MEMORY, a WAV image in memory; a name that is neither plays
//! `[sounds]`'s SystemDefault unless SND_NODEFAULT. NULL stops the sound
//! (TRUE). It plays into its own file and returns TRUE; FALSE when
//! nothing could be played, or while the device is open (the device is
//! busy).

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
    Api::new(
        "MMSYSTEM",
        2,
        "SNDPLAYSOUND",
        &[Arg::L, Arg::W],
        snd_play_sound,
    ),
    Api::new("MMSYSTEM", 401, "WAVEOUTGETNUMDEVS", &[], get_num_devs),
    Api::new(
        "MMSYSTEM",
        402,
        "WAVEOUTGETDEVCAPS",
        &[Arg::W, Arg::L, Arg::W],
        get_dev_caps,
    ),
    Api::new(
        "MMSYSTEM",
        404,
        "WAVEOUTOPEN",
        &[Arg::L, Arg::W, Arg::L, Arg::L, Arg::L, Arg::L],
        wave_out_open,
    ),
    Api::new("MMSYSTEM", 405, "WAVEOUTCLOSE", &[Arg::W], wave_out_close),
    Api::new(
        "MMSYSTEM",
        406,
        "WAVEOUTPREPAREHEADER",
        &[Arg::W, Arg::L, Arg::W],
        prepare_header,
    ),
    Api::new(
        "MMSYSTEM",
        407,
        "WAVEOUTUNPREPAREHEADER",
        &[Arg::W, Arg::L, Arg::W],
        unprepare_header,
    ),
    Api::new(
        "MMSYSTEM",
        408,
        "WAVEOUTWRITE",
        &[Arg::W, Arg::L, Arg::W],
        wave_out_write,
    ),
    Api::new("MMSYSTEM", 409, "WAVEOUTPAUSE", &[Arg::W], handle_ok),
    Api::new("MMSYSTEM", 410, "WAVEOUTRESTART", &[Arg::W], handle_ok),
    Api::new("MMSYSTEM", 411, "WAVEOUTRESET", &[Arg::W], handle_ok),
    Api::new(
        "MMSYSTEM",
        412,
        "WAVEOUTGETPOSITION",
        &[Arg::W, Arg::L, Arg::W],
        get_position,
    ),
    Api::new(
        "MMSYSTEM",
        413,
        "WAVEOUTGETPITCH",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        414,
        "WAVEOUTSETPITCH",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        415,
        "WAVEOUTGETVOLUME",
        &[Arg::W, Arg::L],
        not_supported_device,
    ),
    Api::new(
        "MMSYSTEM",
        416,
        "WAVEOUTSETVOLUME",
        &[Arg::W, Arg::L],
        not_supported_device,
    ),
    Api::new(
        "MMSYSTEM",
        417,
        "WAVEOUTGETPLAYBACKRATE",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new(
        "MMSYSTEM",
        418,
        "WAVEOUTSETPLAYBACKRATE",
        &[Arg::W, Arg::L],
        not_supported,
    ),
    Api::new("MMSYSTEM", 419, "WAVEOUTBREAKLOOP", &[Arg::W], handle_ok),
    Api::new("MMSYSTEM", 420, "WAVEOUTGETID", &[Arg::W, Arg::L], get_id),
];

/// WAVERR_* (MMSYSTEM.H; the MMSYSERR_* codes are mmsystem.rs's).
pub const WAVERR_BADFORMAT: u32 = 32;
pub const WAVERR_STILLPLAYING: u32 = 33;
pub const WAVERR_UNPREPARED: u32 = 34;
/// Messages (MMSYSTEM.H): the window messages and the callback codes.
pub const MM_WOM_OPEN: u16 = 0x3BB;
pub const MM_WOM_CLOSE: u16 = 0x3BC;
pub const MM_WOM_DONE: u16 = 0x3BD;
/// dwFlags of waveOutOpen.
pub const WAVE_FORMAT_QUERY: u32 = 0x0001;
/// WAVEHDR.dwFlags.
pub const WHDR_DONE: u32 = 0x01;
pub const WHDR_PREPARED: u32 = 0x02;
pub const WHDR_BEGINLOOP: u32 = 0x04;
pub const WHDR_ENDLOOP: u32 = 0x08;
pub const WHDR_INQUEUE: u32 = 0x10;
/// MMTIME.wType.
pub const TIME_MS: u16 = 0x0001;
pub const TIME_SAMPLES: u16 = 0x0002;
pub const TIME_BYTES: u16 = 0x0004;
/// sndPlaySound flags.
pub const SND_NODEFAULT: u16 = 0x0002;
pub const SND_MEMORY: u16 = 0x0004;

/// The most bytes of sound one file keeps.
pub const MAX_SOUND: usize = 64 << 20;
/// The most times a loop block is repeated.
pub const MAX_LOOPS: u32 = 1000;
/// Bytes of WAVEHDR, WAVEOUTCAPS and PCMWAVEFORMAT.
pub const WAVEHDR_SIZE: usize = 32;
pub const WAVEOUTCAPS_SIZE: usize = 48;
pub const PCMWAVEFORMAT_SIZE: usize = 16;

/// A PCM format (PCMWAVEFORMAT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub channels: u16,
    pub rate: u32,
    pub avg_bytes: u32,
    pub block_align: u16,
    pub bits: u16,
}

impl Format {
    /// A PCMWAVEFORMAT's format, when it is one the device plays (module
    /// doc).
    pub fn parse(b: &[u8]) -> Option<Format> {
        if b.len() < PCMWAVEFORMAT_SIZE {
            return None;
        }
        let w = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let d = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let f = Format {
            channels: w(2),
            rate: d(4),
            avg_bytes: d(8),
            block_align: w(12),
            bits: w(14),
        };
        let ok = w(0) == 1
            && (1..=2).contains(&f.channels)
            && (f.bits == 8 || f.bits == 16)
            && f.block_align == f.channels * f.bits / 8
            && (1..=100_000).contains(&f.rate)
            && f.avg_bytes == f.rate * u32::from(f.block_align);
        ok.then_some(f)
    }

    pub fn to_bytes(&self) -> [u8; PCMWAVEFORMAT_SIZE] {
        let mut b = [0u8; PCMWAVEFORMAT_SIZE];
        b[0..2].copy_from_slice(&1u16.to_le_bytes());
        b[2..4].copy_from_slice(&self.channels.to_le_bytes());
        b[4..8].copy_from_slice(&self.rate.to_le_bytes());
        b[8..12].copy_from_slice(&self.avg_bytes.to_le_bytes());
        b[12..14].copy_from_slice(&self.block_align.to_le_bytes());
        b[14..16].copy_from_slice(&self.bits.to_le_bytes());
        b
    }
}

/// A RIFF WAVE file of `data` in `format`.
pub fn wav_file(format: &Format, data: &[u8]) -> Vec<u8> {
    let pad = data.len() & 1;
    let mut v = Vec::with_capacity(44 + data.len() + pad);
    v.extend_from_slice(b"RIFF");
    v.extend_from_slice(&((4 + 8 + 16 + 8 + data.len() + pad) as u32).to_le_bytes());
    v.extend_from_slice(b"WAVEfmt ");
    v.extend_from_slice(&16u32.to_le_bytes());
    v.extend_from_slice(&format.to_bytes());
    v.extend_from_slice(b"data");
    v.extend_from_slice(&(data.len() as u32).to_le_bytes());
    v.extend_from_slice(data);
    if pad != 0 {
        v.push(0);
    }
    v
}

/// The format and sound of a WAV image: its `fmt ` and `data` chunks.
pub fn parse_wav(b: &[u8]) -> Option<(Format, Vec<u8>)> {
    if b.len() < 12 || &b[0..4] != b"RIFF" || &b[8..12] != b"WAVE" {
        return None;
    }
    let mut at = 12usize;
    let (mut fmt, mut data) = (None, None);
    while at + 8 <= b.len() {
        let id = &b[at..at + 4];
        let size = u32::from_le_bytes([b[at + 4], b[at + 5], b[at + 6], b[at + 7]]) as usize;
        let start = at + 8;
        let end = start.checked_add(size)?.min(b.len());
        match id {
            b"fmt " => fmt = Format::parse(&b[start..end]),
            b"data" => data = Some(b[start..end].to_vec()),
            _ => {}
        }
        at = end + (size & 1);
    }
    Some((fmt?, data?))
}

/// The open device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub handle: u16,
    pub format: Format,
    pub callback: u32,
    pub instance: u32,
    pub flags: u32,
    /// The DS the program had at waveOutOpen (a callback function's).
    pub ds: u16,
    pub htask: u16,
    pub data: Vec<u8>,
    pub played: u64,
}

/// The wave device's state.
#[derive(Debug, Default, Clone)]
pub struct WaveState {
    pub device: Option<Device>,
    /// Files written (DOS names), in order.
    pub written: Vec<String>,
}

/// The handle of the open device (a fixed value: one device).
pub const HWAVEOUT: u16 = 0x5701;

/// MMSYSTEM.401 waveOutGetNumDevs(): 1.
pub fn get_num_devs(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// The device's WAVEOUTCAPS (module doc).
pub fn caps() -> [u8; WAVEOUTCAPS_SIZE] {
    let mut b = [0u8; WAVEOUTCAPS_SIZE];
    b[0..2].copy_from_slice(&1u16.to_le_bytes());
    b[4..6].copy_from_slice(&0x0100u16.to_le_bytes());
    let name = b"Wave file output";
    b[6..6 + name.len()].copy_from_slice(name);
    b[38..42].copy_from_slice(&0x0FFFu32.to_le_bytes());
    b[42..44].copy_from_slice(&2u16.to_le_bytes());
    b
}

/// MMSYSTEM.402 waveOutGetDevCaps(uDeviceID, lpCaps, wSize): the first
/// wSize bytes of [`caps`].
pub fn get_dev_caps(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(give_dev_caps(uc, a, &caps()))
}

/// Tell the program's callback of `msg` (module doc).
fn notify(env: &mut Env, uc: &mut Uc<'_>, msg: u16, param1: u32) -> Result<(), Stop> {
    let Some(d) = env.win16.wave.device.clone() else {
        return Ok(());
    };
    let client = DriverClient {
        flags: d.flags,
        callback: d.callback,
        instance: d.instance,
        ds: d.ds,
    };
    notify_client(env, uc, client, d.handle, msg, param1)
}

/// MMSYSTEM.404 waveOutOpen (module doc).
pub fn wave_out_open(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (lph, id, lpfmt, cb, inst, flags) = (a[0], a[1] as u16, a[2], a[3], a[4], a[5]);
    if !device_id_ok(id) {
        return Ok(MMSYSERR_BADDEVICEID);
    }
    let Some(format) = farptr::read_bytes(uc, lpfmt, PCMWAVEFORMAT_SIZE)
        .as_deref()
        .and_then(Format::parse)
    else {
        return Ok(WAVERR_BADFORMAT);
    };
    if flags & WAVE_FORMAT_QUERY != 0 {
        return Ok(0);
    }
    if env.win16.wave.device.is_some() {
        return Ok(MMSYSERR_ALLOCATED);
    }
    if !farptr::write_bytes(uc, lph, &HWAVEOUT.to_le_bytes()) {
        return Ok(MMSYSERR_INVALPARAM);
    }
    env.win16.wave.device = Some(Device {
        handle: HWAVEOUT,
        format,
        callback: cb,
        instance: inst,
        flags,
        ds: uc.reg(R::DS),
        htask: uc.get_data().current_task,
        data: Vec::new(),
        played: 0,
    });
    notify(env, uc, MM_WOM_OPEN, 0)?;
    Ok(0)
}

/// The next `WAVEnnnn.WAV` on drive C: with `data` in `format`; false
/// when it cannot be written.
pub fn write_sound(env: &mut Env, format: &Format, data: &[u8]) -> bool {
    let n = env.win16.wave.written.len() + 1;
    let name = format!("WAVE{:04}.WAV", n % 10000);
    let bytes = wav_file(format, data);
    let Some(d) = env.drive.as_mut() else {
        return false;
    };
    let path = format!("\\{name}");
    let ok = match d.create(path.as_bytes(), 0) {
        Ok(h) => {
            let w = bytes
                .chunks(0x8000)
                .all(|c| d.write(h, c).is_ok_and(|k| k == c.len()));
            d.close(h).is_ok() && w
        }
        Err(_) => false,
    };
    if ok {
        env.win16.wave.written.push(name);
    }
    ok
}

fn open_device(env: &Env, h: u16) -> bool {
    env.win16
        .wave
        .device
        .as_ref()
        .is_some_and(|d| d.handle == h)
}

/// MMSYSTEM.405 waveOutClose(hWaveOut) (module doc).
pub fn wave_out_close(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open_device(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    notify(env, uc, MM_WOM_CLOSE, 0)?;
    let Some(d) = env.win16.wave.device.take() else {
        return Ok(MMSYSERR_INVALHANDLE);
    };
    if !d.data.is_empty() && !write_sound(env, &d.format, &d.data) {
        crate::machine::record_event(uc, "waveOutClose: the sound could not be written".into());
    }
    Ok(0)
}

/// MMSYSTEM.406 waveOutPrepareHeader(hWaveOut, lpWaveHdr, wSize).
pub fn prepare_header(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open_device(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    if usize::from(a[2] as u16) < WAVEHDR_SIZE {
        return Ok(MMSYSERR_INVALPARAM);
    }
    let Some(f) = header_flags(uc, a[1]) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    set_header_flags(uc, a[1], f | WHDR_PREPARED);
    Ok(0)
}

/// MMSYSTEM.407 waveOutUnprepareHeader(hWaveOut, lpWaveHdr, wSize).
pub fn unprepare_header(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open_device(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let Some(f) = header_flags(uc, a[1]) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    if f & WHDR_INQUEUE != 0 {
        return Ok(WAVERR_STILLPLAYING);
    }
    set_header_flags(uc, a[1], f & !WHDR_PREPARED);
    Ok(0)
}

/// MMSYSTEM.408 waveOutWrite(hWaveOut, lpWaveHdr, wSize) (module doc).
pub fn wave_out_write(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open_device(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    let Some(h) = farptr::read_bytes(uc, a[1], WAVEHDR_SIZE) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    let d = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let (data_p, len, flags, loops) = (d(0), d(4), d(16), d(20));
    if flags & WHDR_PREPARED == 0 {
        return Ok(WAVERR_UNPREPARED);
    }
    if len as usize > MAX_SOUND {
        return Ok(MMSYSERR_INVALPARAM);
    }
    let Some(bytes) = crate::win16::kernel::memory::read_huge(uc, data_p, len) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    let times = if flags & WHDR_BEGINLOOP != 0 && flags & WHDR_ENDLOOP != 0 {
        loops.clamp(1, MAX_LOOPS)
    } else {
        1
    };
    if let Some(dev) = env.win16.wave.device.as_mut() {
        for _ in 0..times {
            let room = MAX_SOUND.saturating_sub(dev.data.len());
            dev.data.extend_from_slice(&bytes[..bytes.len().min(room)]);
            dev.played += bytes.len() as u64;
        }
    }
    set_header_flags(uc, a[1], (flags & !WHDR_INQUEUE) | WHDR_DONE);
    notify(env, uc, MM_WOM_DONE, a[1])?;
    Ok(0)
}

/// waveOutPause, waveOutRestart, waveOutReset, waveOutBreakLoop: 0
/// (module doc).
pub fn handle_ok(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if open_device(env, a[0] as u16) {
        0
    } else {
        MMSYSERR_INVALHANDLE
    })
}

/// The pitch and rate functions: MMSYSERR_NOTSUPPORTED (or
/// MMSYSERR_INVALHANDLE).
pub fn not_supported(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if open_device(env, a[0] as u16) {
        MMSYSERR_NOTSUPPORTED
    } else {
        MMSYSERR_INVALHANDLE
    })
}

/// waveOutGetVolume / waveOutSetVolume(uDeviceID, ...): the device has
/// no volume control: MMSYSERR_NOTSUPPORTED.
pub fn not_supported_device(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if device_id_ok(a[0] as u16) || a[0] as u16 == HWAVEOUT {
        MMSYSERR_NOTSUPPORTED
    } else {
        MMSYSERR_BADDEVICEID
    })
}

/// MMSYSTEM.420 waveOutGetID(hWaveOut, lpuDeviceID): device 0.
pub fn get_id(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !open_device(env, a[0] as u16) {
        return Ok(MMSYSERR_INVALHANDLE);
    }
    Ok(if farptr::write_bytes(uc, a[1], &[0, 0]) {
        0
    } else {
        MMSYSERR_INVALPARAM
    })
}

/// MMSYSTEM.412 waveOutGetPosition(hWaveOut, lpInfo, wSize) (module
/// doc): MMTIME is wType, then the value.
pub fn get_position(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(d) = env
        .win16
        .wave
        .device
        .clone()
        .filter(|d| d.handle == a[0] as u16)
    else {
        return Ok(MMSYSERR_INVALHANDLE);
    };
    if (a[2] as u16) < 6 {
        return Ok(MMSYSERR_INVALPARAM);
    }
    let Some(asked) = farptr::read_u16(uc, a[1]) else {
        return Ok(MMSYSERR_INVALPARAM);
    };
    let bytes = d.played;
    let (kind, v) = match asked {
        TIME_SAMPLES => (TIME_SAMPLES, bytes / u64::from(d.format.block_align.max(1))),
        TIME_MS => (TIME_MS, bytes * 1000 / u64::from(d.format.avg_bytes.max(1))),
        _ => (TIME_BYTES, bytes),
    };
    let mut b = kind.to_le_bytes().to_vec();
    b.extend_from_slice(&(v as u32).to_le_bytes());
    farptr::write_bytes(uc, a[1], &b);
    Ok(0)
}

/// The bytes of a .WAV file named by sndPlaySound (module doc).
fn sound_file(env: &mut Env, name: &str) -> Option<Vec<u8>> {
    let d = env.drive.as_ref()?;
    let cap = MAX_SOUND as u64 + 0x1000;
    if let Ok(b) = d.read_file(name.as_bytes(), cap) {
        return Some(b);
    }
    if !name.contains(['\\', ':', '.']) {
        let with_ext = format!("{name}.WAV");
        if let Ok(b) = d.read_file(with_ext.as_bytes(), cap) {
            return Some(b);
        }
    }
    let entry = crate::win16::kernel::profile::read_string(env, "sounds", name)?;
    let file = entry.split(',').next()?.trim().to_string();
    let d = env.drive.as_ref()?;
    d.read_file(file.as_bytes(), cap)
        .or_else(|_| d.read_file(format!("\\WINDOWS\\{file}").as_bytes(), cap))
        .ok()
}

/// MMSYSTEM.2 sndPlaySound(lpszSound, fuSound) (module doc).
pub fn snd_play_sound(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (p, flags) = (a[0], a[1] as u16);
    if p == 0 {
        return Ok(1);
    }
    if env.win16.wave.device.is_some() {
        return Ok(0);
    }
    let image = if flags & SND_MEMORY != 0 {
        // The image's RIFF size says how long it is.
        farptr::read_bytes(uc, p, 8).and_then(|h| {
            let n = u32::from_le_bytes([h[4], h[5], h[6], h[7]]).saturating_add(8);
            if n as usize > MAX_SOUND {
                return None;
            }
            crate::win16::kernel::memory::read_huge(uc, p, n)
        })
    } else {
        let name = farptr::read_cstr(uc, p, 128)
            .map(|s| String::from_utf8_lossy(&s).into_owned())
            .unwrap_or_default();
        let found = sound_file(env, &name);
        if found.is_none() && flags & SND_NODEFAULT == 0 {
            sound_file(env, "SystemDefault")
        } else {
            found
        }
    };
    let Some((format, data)) = image.as_deref().and_then(parse_wav) else {
        return Ok(0);
    };
    Ok(u32::from(write_sound(env, &format, &data)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONO8: Format = Format {
        channels: 1,
        rate: 11025,
        avg_bytes: 11025,
        block_align: 1,
        bits: 8,
    };

    #[test]
    fn formats_are_checked() {
        assert_eq!(Format::parse(&MONO8.to_bytes()), Some(MONO8));
        let mut b = MONO8.to_bytes();
        b[12] = 2; // a block align that does not fit
        assert_eq!(Format::parse(&b), None);
        let mut b = MONO8.to_bytes();
        b[0] = 2; // not PCM
        assert_eq!(Format::parse(&b), None);
    }

    #[test]
    fn wav_files_round_trip() {
        let f = wav_file(&MONO8, &[1, 2, 3]);
        assert_eq!(f.len(), 48);
        assert_eq!(&f[0..8], b"RIFF\x28\0\0\0");
        assert_eq!(&f[36..44], b"data\x03\0\0\0");
        assert_eq!(f[47], 0);
        assert_eq!(parse_wav(&f), Some((MONO8, vec![1, 2, 3])));
        assert_eq!(parse_wav(b"RIFF\0\0\0\0WAVE"), None);
    }

    proptest::proptest! {
        /// Any bytes: parse_wav never panics, and what it accepts is a
        /// format the device plays, with at most the bytes given.
        #[test]
        fn parse_wav_takes_any_bytes(b in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            if let Some((f, data)) = parse_wav(&b) {
                proptest::prop_assert_eq!(Format::parse(&f.to_bytes()), Some(f));
                proptest::prop_assert!(data.len() <= b.len());
            }
        }

        /// A WAV file made of any format the device plays and any sound
        /// reads back the same.
        #[test]
        fn wav_files_round_trip_any(rate in 1u32..=100_000, stereo in proptest::bool::ANY,
                                    wide in proptest::bool::ANY,
                                    data in proptest::collection::vec(proptest::num::u8::ANY, 0..100)) {
            let channels = 1 + u16::from(stereo);
            let bits = if wide { 16 } else { 8 };
            let block_align = channels * bits / 8;
            let f = Format { channels, rate, avg_bytes: rate * u32::from(block_align), block_align, bits };
            proptest::prop_assert_eq!(parse_wav(&wav_file(&f, &data)), Some((f, data)));
        }
    }

    #[test]
    fn caps_layout() {
        let c = caps();
        assert_eq!(&c[6..22], b"Wave file output");
        assert_eq!(&c[38..44], &[0xFF, 0x0F, 0, 0, 2, 0]);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
