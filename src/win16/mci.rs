//! MMSYSTEM's Media Control Interface with one MCI device type, the
//! `waveaudio` driver, playing .WAV files through the wave output device
//! (wave.rs): mciSendCommand, mciSendString and mciGetDeviceID (Windows
//! 3.1 SDK, Multimedia Programmer's Reference, "MCI command messages" and
//! "MCI command strings"; codes from MMSYSTEM.H).
//!
//! A waveaudio device is opened on a .WAV file of drive C: (MCI_OPEN with
//! MCI_OPEN_ELEMENT, the type `waveaudio` given or taken from the `.WAV`
//! extension, or `open file.wav [type waveaudio] [alias name]`); the file
//! is read at the open (MCIERR_FILE_NOT_FOUND when it is not there,
//! MCIERR_INVALID_FILE when it is no PCM RIFF WAVE file). Device IDs count
//! from 1. The other types a Windows 3.1 SYSTEM.INI names (`sequencer`,
//! `cdaudio`) are MCIERR_CANNOT_LOAD_DRIVER, their drivers not being
//! here; a type it does not name MCIERR_INVALID_DEVICE_NAME; a file whose
//! extension `[mci extensions]` does not name MCIERR_EXTENSION_NOT_FOUND
//! (as MMSYSTEM 3.1 answers, others have measured). An open of
//! `waveaudio` with no file (a new recording) is not provided:
//! MCIERR_DEVICE_NOT_INSTALLED.
//!
//! - MCI_PLAY (MCI_FROM, MCI_TO in the time format) plays that part of
//!   the sound: it goes into the next `WAVEnnnn.WAV` (wave.rs) at once,
//!   the position moves to its end and the device is stopped again
//!   (MCIERR_WAVE_OUTPUTSINUSE while the wave device is open by
//!   waveOutOpen). MCI_SEEK (MCI_SEEK_TO_START, MCI_SEEK_TO_END, MCI_TO),
//!   MCI_STOP and MCI_PAUSE: 0. A position past the length is
//!   MCIERR_OUTOFRANGE.
//! - MCI_STATUS items: length and position in the time format, mode
//!   (MCI_MODE_STOP: the sound is played at once), number of tracks and
//!   current track (1), media present and ready (TRUE), time format, and
//!   waveaudio's format tag, channels, samples per second, average bytes
//!   per second, block alignment and bits per sample. MCI_SET
//!   MCI_SET_TIME_FORMAT: milliseconds, bytes or samples
//!   (MCIERR_BAD_TIME_FORMAT otherwise). MCI_GETDEVCAPS: can play, has
//!   audio, uses files, compound device: TRUE; device type
//!   MCI_DEVTYPE_WAVEFORM_AUDIO; can record, can save, can eject, has
//!   video: FALSE. MCI_INFO: MCI_INFO_PRODUCT `Sound`,
//!   MCI_INFO_FILE the file name.
//! - MCI_CLOSE closes (MCI_ALL_DEVICE_ID: all of the task's devices).
//!   Another command is MCIERR_UNRECOGNIZED_COMMAND; an unknown ID
//!   MCIERR_INVALID_DEVICE_ID.
//! - MCI_NOTIFY posts MM_MCINOTIFY (wParam MCI_NOTIFY_SUCCESSFUL, lParam
//!   the device ID) to the callback window when the command is done.
//!
//! mciSendString takes the same commands as words: `open`, `close`,
//! `play` (`from n`, `to n`), `seek` (`to start|end|n`), `stop`, `pause`,
//! `status` (`length`, `position`, `mode`, `ready`, `media present`,
//! `number of tracks`, `current track`, `time format`, `format tag`,
//! `channels`, `samplespersec`, `bytespersec`, `alignment`,
//! `bitspersample`), `set` (`time format milliseconds|ms|bytes|samples`),
//! `capability`, `info` (`product`, `file`), with `wait` and `notify`; the
//! answer (`open`: the device ID) goes to lpstrReturn. An empty string is
//! MCIERR_MISSING_COMMAND_STRING, a command with no device
//! MCIERR_MISSING_DEVICE_NAME, an unknown command
//! MCIERR_UNRECOGNIZED_COMMAND, a device the task has not open
//! MCIERR_INVALID_DEVICE_NAME, a status item there is none of
//! MCIERR_BAD_CONSTANT, another unknown word MCIERR_UNRECOGNIZED_KEYWORD,
//! a number that is none MCIERR_BAD_INTEGER. Lengths and positions in
//! milliseconds are to the nearest millisecond.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::{self, MAX_STRING};
use crate::win16::wave::{self, Format};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "MMSYSTEM",
        701,
        "MCISENDCOMMAND",
        &[Arg::W, Arg::W, Arg::L, Arg::L],
        mci_send_command,
    ),
    Api::new(
        "MMSYSTEM",
        702,
        "MCISENDSTRING",
        &[Arg::L, Arg::L, Arg::W, Arg::W],
        mci_send_string,
    ),
    Api::new(
        "MMSYSTEM",
        703,
        "MCIGETDEVICEID",
        &[Arg::L],
        mci_get_device_id,
    ),
];

/// MCIERR_* (MMSYSTEM.H).
pub const MCIERR_INVALID_DEVICE_ID: u32 = 257;
pub const MCIERR_UNRECOGNIZED_KEYWORD: u32 = 259;
pub const MCIERR_UNRECOGNIZED_COMMAND: u32 = 261;
pub const MCIERR_INVALID_DEVICE_NAME: u32 = 263;
pub const MCIERR_BAD_INTEGER: u32 = 270;
pub const MCIERR_CANNOT_LOAD_DRIVER: u32 = 266;
pub const MCIERR_MISSING_COMMAND_STRING: u32 = 267;
pub const MCIERR_MISSING_PARAMETER: u32 = 273;
pub const MCIERR_EXTENSION_NOT_FOUND: u32 = 281;
pub const MCIERR_BAD_CONSTANT: u32 = 290;
pub const MCIERR_MISSING_DEVICE_NAME: u32 = 292;
pub const MCIERR_FILE_NOT_FOUND: u32 = 275;
pub const MCIERR_OUTOFRANGE: u32 = 282;
pub const MCIERR_DUPLICATE_ALIAS: u32 = 289;
pub const MCIERR_BAD_TIME_FORMAT: u32 = 293;
pub const MCIERR_INVALID_FILE: u32 = 296;
pub const MCIERR_NULL_PARAMETER_BLOCK: u32 = 297;
pub const MCIERR_DEVICE_NOT_INSTALLED: u32 = 306;
pub const MCIERR_WAVE_OUTPUTSINUSE: u32 = 320;
/// Command messages.
pub const MCI_OPEN: u16 = 0x0803;
pub const MCI_CLOSE: u16 = 0x0804;
pub const MCI_PLAY: u16 = 0x0806;
pub const MCI_SEEK: u16 = 0x0807;
pub const MCI_STOP: u16 = 0x0808;
pub const MCI_PAUSE: u16 = 0x0809;
pub const MCI_INFO: u16 = 0x080A;
pub const MCI_GETDEVCAPS: u16 = 0x080B;
pub const MCI_SET: u16 = 0x080D;
pub const MCI_STATUS: u16 = 0x0814;
/// Flags.
pub const MCI_NOTIFY: u32 = 0x0001;
pub const MCI_FROM: u32 = 0x0004;
pub const MCI_TO: u32 = 0x0008;
pub const MCI_OPEN_ELEMENT: u32 = 0x0200;
pub const MCI_OPEN_ALIAS: u32 = 0x0400;
pub const MCI_OPEN_TYPE_ID: u32 = 0x1000;
pub const MCI_OPEN_TYPE: u32 = 0x2000;
pub const MCI_SEEK_TO_START: u32 = 0x0100;
pub const MCI_SEEK_TO_END: u32 = 0x0200;
pub const MCI_STATUS_ITEM: u32 = 0x0100;
pub const MCI_GETDEVCAPS_ITEM: u32 = 0x0100;
pub const MCI_SET_TIME_FORMAT: u32 = 0x0400;
pub const MCI_INFO_PRODUCT: u32 = 0x0100;
pub const MCI_INFO_FILE: u32 = 0x0200;
pub const MCI_ALL_DEVICE_ID: u16 = 0xFFFF;
/// MCI_DEVTYPE_WAVEFORM_AUDIO.
pub const DEVTYPE_WAVEAUDIO: u32 = 522;
/// MCI_MODE_STOP.
pub const MCI_MODE_STOP: u32 = 525;
/// Time formats.
pub const FORMAT_MS: u32 = 0;
pub const FORMAT_BYTES: u32 = 8;
pub const FORMAT_SAMPLES: u32 = 9;
/// MM_MCINOTIFY and MCI_NOTIFY_SUCCESSFUL.
pub const MM_MCINOTIFY: u16 = 0x03B9;
pub const MCI_NOTIFY_SUCCESSFUL: u16 = 0x0001;
/// The most devices open at once.
pub const MAX_DEVICES: usize = 64;

/// An open waveaudio device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub id: u16,
    pub alias: String,
    pub file: String,
    pub format: Format,
    pub data: Vec<u8>,
    /// The position, in bytes.
    pub pos: u32,
    pub time_format: u32,
    pub htask: u16,
}

impl Device {
    fn len(&self) -> u32 {
        self.data.len() as u32
    }
    /// Bytes as the time format counts them.
    fn to_units(&self, bytes: u32) -> u32 {
        match self.time_format {
            FORMAT_BYTES => bytes,
            FORMAT_SAMPLES => bytes / u32::from(self.format.block_align.max(1)),
            // Milliseconds to the nearest.
            _ => {
                let per_s = u64::from(self.format.avg_bytes.max(1));
                ((u64::from(bytes) * 1000 + per_s / 2) / per_s) as u32
            }
        }
    }
    /// The time format's units as bytes (whole blocks).
    fn to_bytes(&self, units: u32) -> u64 {
        let align = u64::from(self.format.block_align.max(1));
        let b = match self.time_format {
            FORMAT_BYTES => u64::from(units),
            FORMAT_SAMPLES => u64::from(units) * align,
            _ => u64::from(units) * u64::from(self.format.avg_bytes) / 1000,
        };
        b / align * align
    }
}

/// MCI's state: the open devices.
#[derive(Debug, Default, Clone)]
pub struct MciState {
    pub devices: Vec<Device>,
    next_id: u16,
}

fn device(env: &mut Env, id: u16) -> Option<&mut Device> {
    env.win16.mci.devices.iter_mut().find(|d| d.id == id)
}

/// Open a waveaudio device on `file` (module doc): its ID or an error.
fn open(env: &mut Env, uc: &Uc<'_>, file: &str, alias: &str) -> Result<u16, u32> {
    let mci = &env.win16.mci;
    if !alias.is_empty()
        && mci
            .devices
            .iter()
            .any(|d| d.alias.eq_ignore_ascii_case(alias))
    {
        return Err(MCIERR_DUPLICATE_ALIAS);
    }
    if mci.devices.len() >= MAX_DEVICES {
        return Err(MCIERR_DEVICE_NOT_INSTALLED);
    }
    let d = env.drive.as_ref().ok_or(MCIERR_FILE_NOT_FOUND)?;
    let bytes = d
        .read_file(file.as_bytes(), wave::MAX_SOUND as u64 + 0x1000)
        .map_err(|_| MCIERR_FILE_NOT_FOUND)?;
    let (format, data) = wave::parse_wav(&bytes).ok_or(MCIERR_INVALID_FILE)?;
    let mci = &mut env.win16.mci;
    mci.next_id = mci.next_id.wrapping_add(1).max(1);
    let id = mci.next_id;
    mci.devices.push(Device {
        id,
        alias: alias.to_string(),
        file: file.to_string(),
        format,
        data,
        pos: 0,
        time_format: FORMAT_MS,
        htask: uc.get_data().current_task,
    });
    Ok(id)
}

/// The waveaudio driver's product name (MCIWAVE.DRV's, as measured).
pub const PRODUCT: &str = "Sound";

/// Can a device of type `ty` be opened (module doc)? None is a file
/// whose extension names no type.
fn type_ok(ty: Option<&str>) -> Result<(), u32> {
    match ty {
        None => Err(MCIERR_EXTENSION_NOT_FOUND),
        Some(t) if is_waveaudio(t) => Ok(()),
        // The other types a Windows 3.1 SYSTEM.INI's [mci] names: their
        // drivers are not here.
        Some(t)
            if ["sequencer", "cdaudio"]
                .iter()
                .any(|k| t.eq_ignore_ascii_case(k)) =>
        {
            Err(MCIERR_CANNOT_LOAD_DRIVER)
        }
        Some(_) => Err(MCIERR_INVALID_DEVICE_NAME),
    }
}

/// Is `name` the waveaudio type?
fn is_waveaudio(name: &str) -> bool {
    name.eq_ignore_ascii_case("waveaudio")
}

/// The type an element's extension names (WIN.INI's `[mci extensions]`,
/// whose default line for .WAV is `wav=waveaudio`).
fn type_of_file(env: &mut Env, file: &str) -> Option<String> {
    let ext = file.rsplit_once('.')?.1;
    if let Some(t) = crate::win16::kernel::profile::read_string(env, "mci extensions", ext) {
        return Some(t);
    }
    ext.eq_ignore_ascii_case("wav")
        .then(|| "waveaudio".to_string())
}

/// Play bytes [from, to) of a device (module doc).
fn play(env: &mut Env, id: u16, from: Option<u32>, to: Option<u32>) -> u32 {
    if env.win16.wave.device.is_some() {
        return MCIERR_WAVE_OUTPUTSINUSE;
    }
    let Some(d) = device(env, id) else {
        return MCIERR_INVALID_DEVICE_ID;
    };
    let start = from.map_or(u64::from(d.pos), |f| d.to_bytes(f));
    let end = to.map_or(u64::from(d.len()), |t| d.to_bytes(t));
    if start > u64::from(d.len()) || end > u64::from(d.len()) || end < start {
        return MCIERR_OUTOFRANGE;
    }
    let (format, part) = (d.format, d.data[start as usize..end as usize].to_vec());
    d.pos = end as u32;
    if !part.is_empty() {
        wave::write_sound(env, &format, &part);
    }
    0
}

/// Seek (module doc).
fn seek(env: &mut Env, id: u16, to: Option<u32>, end: bool) -> u32 {
    let Some(d) = device(env, id) else {
        return MCIERR_INVALID_DEVICE_ID;
    };
    let p = match to {
        Some(t) => d.to_bytes(t),
        None if end => u64::from(d.len()),
        None => 0,
    };
    if p > u64::from(d.len()) {
        return MCIERR_OUTOFRANGE;
    }
    d.pos = p as u32;
    0
}

/// Close one device, or all of the task's.
fn close(env: &mut Env, uc: &Uc<'_>, id: u16) -> u32 {
    let task = uc.get_data().current_task;
    let devs = &mut env.win16.mci.devices;
    if id == MCI_ALL_DEVICE_ID {
        devs.retain(|d| d.htask != task);
        return 0;
    }
    let n = devs.len();
    devs.retain(|d| d.id != id);
    if devs.len() == n {
        MCIERR_INVALID_DEVICE_ID
    } else {
        0
    }
}

/// Status item numbers (MMSYSTEM.H).
fn status(d: &Device, item: u32) -> Option<u32> {
    Some(match item {
        1 => d.to_units(d.len()),
        2 => d.to_units(d.pos),
        3 | 8 => 1,
        4 => MCI_MODE_STOP,
        5 | 7 => 1,
        6 => d.time_format,
        0x4001 => 1,
        0x4002 => u32::from(d.format.channels),
        0x4003 => d.format.rate,
        0x4004 => d.format.avg_bytes,
        0x4005 => u32::from(d.format.block_align),
        0x4006 => u32::from(d.format.bits),
        _ => return None,
    })
}

/// MCI_GETDEVCAPS items.
fn capability(item: u32) -> Option<u32> {
    Some(match item {
        1 | 3 | 7 | 9 => 0,
        2 | 5 | 6 | 8 => 1,
        4 => DEVTYPE_WAVEAUDIO,
        _ => return None,
    })
}

/// Post MM_MCINOTIFY to `hwnd` (module doc).
fn notify(env: &mut Env, uc: &Uc<'_>, hwnd: u16, id: u16) {
    if env.win16.user.window(hwnd).is_some() {
        let m = crate::win16::user::message::Msg::new(
            hwnd,
            MM_MCINOTIFY,
            MCI_NOTIFY_SUCCESSFUL,
            u32::from(id),
        );
        crate::win16::user::message::post(env, uc, m);
    }
}

fn read_dword(uc: &Uc<'_>, p: u32, at: usize) -> Option<u32> {
    let b = farptr::read_bytes(uc, farptr::add(p, at), 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn write_dword(uc: &mut Uc<'_>, p: u32, at: usize, v: u32) -> bool {
    farptr::write_bytes(uc, farptr::add(p, at), &v.to_le_bytes())
}

fn opt_str(uc: &Uc<'_>, p: u32) -> Option<String> {
    if p == 0 {
        return None;
    }
    farptr::read_cstr(uc, p, MAX_STRING).map(|s| String::from_utf8_lossy(&s).into_owned())
}

/// MCI_OPEN's work for mciSendCommand.
fn command_open(env: &mut Env, uc: &mut Uc<'_>, flags: u32, p: u32) -> u32 {
    let ty_p = read_dword(uc, p, 8).unwrap_or(0);
    let ty = if flags & MCI_OPEN_TYPE_ID != 0 {
        (ty_p & 0xFFFF == DEVTYPE_WAVEAUDIO).then(|| "waveaudio".to_string())
    } else if flags & MCI_OPEN_TYPE != 0 {
        opt_str(uc, ty_p)
    } else {
        None
    };
    let file = if flags & MCI_OPEN_ELEMENT != 0 {
        read_dword(uc, p, 12).and_then(|e| opt_str(uc, e))
    } else {
        None
    };
    let alias = if flags & MCI_OPEN_ALIAS != 0 {
        read_dword(uc, p, 16).and_then(|e| opt_str(uc, e))
    } else {
        None
    };
    let ty = ty.or_else(|| file.as_deref().and_then(|f| type_of_file(env, f)));
    if let Err(e) = type_ok(ty.as_deref()) {
        return e;
    }
    let Some(file) = file else {
        return MCIERR_DEVICE_NOT_INSTALLED;
    };
    match open(env, uc, &file, alias.as_deref().unwrap_or("")) {
        Ok(id) => {
            farptr::write_bytes(uc, farptr::add(p, 4), &id.to_le_bytes());
            0
        }
        Err(e) => e,
    }
}

/// MMSYSTEM.701 mciSendCommand(wDeviceID, wMessage, dwParam1, dwParam2)
/// (module doc).
pub fn mci_send_command(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (id, msg, flags, p) = (a[0] as u16, a[1] as u16, a[2], a[3]);
    let needs_block = !matches!(msg, MCI_CLOSE | MCI_STOP | MCI_PAUSE);
    if p == 0 && needs_block {
        return Ok(MCIERR_NULL_PARAMETER_BLOCK);
    }
    let r = match msg {
        MCI_OPEN => command_open(env, uc, flags, p),
        MCI_CLOSE => close(env, uc, id),
        _ if device(env, id).is_none() => {
            return Ok(
                if matches!(
                    msg,
                    MCI_PLAY
                        | MCI_SEEK
                        | MCI_STOP
                        | MCI_PAUSE
                        | MCI_INFO
                        | MCI_GETDEVCAPS
                        | MCI_SET
                        | MCI_STATUS
                ) {
                    MCIERR_INVALID_DEVICE_ID
                } else {
                    MCIERR_UNRECOGNIZED_COMMAND
                },
            );
        }
        MCI_PLAY => {
            let from = (flags & MCI_FROM != 0).then(|| read_dword(uc, p, 4).unwrap_or(0));
            let to = (flags & MCI_TO != 0).then(|| read_dword(uc, p, 8).unwrap_or(0));
            play(env, id, from, to)
        }
        MCI_SEEK => {
            let to = (flags & MCI_TO != 0).then(|| read_dword(uc, p, 4).unwrap_or(0));
            seek(env, id, to, flags & MCI_SEEK_TO_END != 0)
        }
        MCI_STOP | MCI_PAUSE => 0,
        MCI_STATUS | MCI_GETDEVCAPS => {
            let item = read_dword(uc, p, 8).unwrap_or(0);
            let v = if msg == MCI_STATUS {
                device(env, id).and_then(|d| status(d, item))
            } else {
                capability(item)
            };
            match v {
                Some(v) if flags & MCI_STATUS_ITEM != 0 => {
                    write_dword(uc, p, 4, v);
                    0
                }
                Some(_) => MCIERR_MISSING_PARAMETER,
                None => MCIERR_BAD_CONSTANT,
            }
        }
        MCI_SET => {
            let f = read_dword(uc, p, 4).unwrap_or(0);
            if flags & MCI_SET_TIME_FORMAT == 0 {
                0
            } else if matches!(f, FORMAT_MS | FORMAT_BYTES | FORMAT_SAMPLES) {
                if let Some(d) = device(env, id) {
                    d.time_format = f;
                }
                0
            } else {
                MCIERR_BAD_TIME_FORMAT
            }
        }
        MCI_INFO => {
            let text = if flags & MCI_INFO_FILE != 0 {
                device(env, id).map(|d| d.file.clone()).unwrap_or_default()
            } else if flags & MCI_INFO_PRODUCT != 0 {
                PRODUCT.into()
            } else {
                return Ok(MCIERR_MISSING_PARAMETER);
            };
            let (buf, size) = (
                read_dword(uc, p, 4).unwrap_or(0),
                read_dword(uc, p, 8).unwrap_or(0),
            );
            farptr::write_cstr_truncated(uc, buf, text.as_bytes(), size as usize);
            0
        }
        _ => MCIERR_UNRECOGNIZED_COMMAND,
    };
    if r == 0 && flags & MCI_NOTIFY != 0 {
        let cb = read_dword(uc, p, 0).unwrap_or(0) as u16;
        let id = if msg == MCI_OPEN {
            farptr::read_u16(uc, farptr::add(p, 4)).unwrap_or(0)
        } else {
            id
        };
        notify(env, uc, cb, id);
    }
    Ok(r)
}

/// The device an mciSendString names: its alias, or for a device opened
/// without one its file name.
fn named(env: &Env, name: &str) -> Option<u16> {
    env.win16
        .mci
        .devices
        .iter()
        .find(|d| {
            (!d.alias.is_empty() && d.alias.eq_ignore_ascii_case(name))
                || (d.alias.is_empty() && d.file.eq_ignore_ascii_case(name))
        })
        .map(|d| d.id)
}

/// A number word.
fn number(w: Option<&&str>) -> Result<u32, u32> {
    w.ok_or(MCIERR_MISSING_PARAMETER)?
        .parse()
        .map_err(|_| MCIERR_BAD_INTEGER)
}

/// mciSendString's work (module doc): the answer text, or an error.
fn command_string(env: &mut Env, uc: &Uc<'_>, cmd: &str) -> Result<(String, u16), u32> {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Err(MCIERR_MISSING_COMMAND_STRING);
    };
    let verb = verb.to_ascii_lowercase();
    let Some((&name, args)) = rest.split_first() else {
        return Err(MCIERR_MISSING_DEVICE_NAME);
    };
    // `wait` and `notify` may stand anywhere after the device.
    let args: Vec<String> = args
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| w != "wait" && w != "notify")
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if verb == "open" {
        let (mut ty, mut file) = match name.split_once('!') {
            Some((t, f)) => (Some(t.to_string()), Some(f.to_string())),
            // A name with no extension is a device type.
            None if !name.contains('.') => (Some(name.to_string()), None),
            None => (None, Some(name.to_string())),
        };
        let mut alias = String::new();
        let mut i = 0;
        while i < args.len() {
            match args[i] {
                "type" => ty = Some(args.get(i + 1).ok_or(MCIERR_MISSING_PARAMETER)?.to_string()),
                "alias" => alias = args.get(i + 1).ok_or(MCIERR_MISSING_PARAMETER)?.to_string(),
                "shareable" => {
                    i += 1;
                    continue;
                }
                _ => return Err(MCIERR_UNRECOGNIZED_KEYWORD),
            }
            i += 2;
        }
        if ty.is_none() {
            ty = file.as_deref().and_then(|f| type_of_file(env, f));
        }
        type_ok(ty.as_deref())?;
        let Some(f) = file.take() else {
            return Err(MCIERR_DEVICE_NOT_INSTALLED);
        };
        let id = open(env, uc, &f, &alias)?;
        return Ok((id.to_string(), id));
    }
    if verb == "close" && name.eq_ignore_ascii_case("all") {
        close(env, uc, MCI_ALL_DEVICE_ID);
        return Ok((String::new(), 0));
    }
    if !matches!(
        verb.as_str(),
        "close" | "play" | "seek" | "stop" | "pause" | "status" | "set" | "capability" | "info"
    ) {
        return Err(MCIERR_UNRECOGNIZED_COMMAND);
    }
    let id = named(env, name).ok_or(MCIERR_INVALID_DEVICE_NAME)?;
    let done = |r: u32| {
        if r == 0 {
            Ok((String::new(), id))
        } else {
            Err(r)
        }
    };
    match verb.as_str() {
        "close" => done(close(env, uc, id)),
        "stop" | "pause" => Ok((String::new(), id)),
        "play" => {
            let (mut from, mut to) = (None, None);
            let mut i = 0;
            while i < args.len() {
                match args[i] {
                    "from" => from = Some(number(args.get(i + 1))?),
                    "to" => to = Some(number(args.get(i + 1))?),
                    _ => return Err(MCIERR_UNRECOGNIZED_KEYWORD),
                }
                i += 2;
            }
            done(play(env, id, from, to))
        }
        "seek" => match args.as_slice() {
            ["to", "start"] => done(seek(env, id, None, false)),
            ["to", "end"] => done(seek(env, id, None, true)),
            ["to", n] => done(seek(env, id, Some(number(Some(n))?), false)),
            _ => Err(MCIERR_MISSING_PARAMETER),
        },
        "set" => {
            let f = match args.as_slice() {
                ["time", "format", "milliseconds" | "ms"] => FORMAT_MS,
                ["time", "format", "bytes"] => FORMAT_BYTES,
                ["time", "format", "samples"] => FORMAT_SAMPLES,
                ["time", "format", _] => return Err(MCIERR_BAD_TIME_FORMAT),
                _ => return Err(MCIERR_UNRECOGNIZED_KEYWORD),
            };
            if let Some(d) = device(env, id) {
                d.time_format = f;
            }
            Ok((String::new(), id))
        }
        "info" => match args.as_slice() {
            ["product"] => Ok((PRODUCT.into(), id)),
            ["file"] => Ok((
                device(env, id).map(|d| d.file.clone()).unwrap_or_default(),
                id,
            )),
            _ => Err(MCIERR_MISSING_PARAMETER),
        },
        "capability" => {
            let item = match args.join(" ").as_str() {
                "can record" => 1,
                "has audio" => 2,
                "has video" => 3,
                "device type" => return Ok(("waveaudio".into(), id)),
                "uses files" => 5,
                "compound device" => 6,
                "can eject" => 7,
                "can play" => 8,
                "can save" => 9,
                _ => return Err(MCIERR_UNRECOGNIZED_KEYWORD),
            };
            let v = capability(item).unwrap_or(0);
            Ok((if v != 0 { "true" } else { "false" }.into(), id))
        }
        _ => {
            // status
            let d = device(env, id).cloned().ok_or(MCIERR_INVALID_DEVICE_ID)?;
            let item = args.join(" ");
            let text = match item.as_str() {
                "length" => d.to_units(d.len()).to_string(),
                "position" => d.to_units(d.pos).to_string(),
                "mode" => "stopped".into(),
                "ready" | "media present" => "true".into(),
                "number of tracks" | "current track" => "1".into(),
                "time format" => match d.time_format {
                    FORMAT_BYTES => "bytes".into(),
                    FORMAT_SAMPLES => "samples".into(),
                    _ => "milliseconds".into(),
                },
                "format tag" => "pcm".into(),
                "channels" => d.format.channels.to_string(),
                "samplespersec" => d.format.rate.to_string(),
                "bytespersec" => d.format.avg_bytes.to_string(),
                "alignment" => d.format.block_align.to_string(),
                "bitspersample" => d.format.bits.to_string(),
                "" => return Err(MCIERR_MISSING_PARAMETER),
                _ => return Err(MCIERR_BAD_CONSTANT),
            };
            Ok((text, id))
        }
    }
}

/// MMSYSTEM.702 mciSendString(lpstrCommand, lpstrReturn, wReturnLength,
/// hwndCallback) (module doc).
pub fn mci_send_string(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(cmd) = opt_str(uc, a[0]) else {
        return Ok(MCIERR_NULL_PARAMETER_BLOCK);
    };
    let notify_asked = cmd
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("notify"));
    let (ret_p, ret_len) = (a[1], usize::from(a[2] as u16));
    match command_string(env, uc, &cmd) {
        Ok((text, id)) => {
            if ret_p != 0 && ret_len != 0 {
                farptr::write_cstr_truncated(uc, ret_p, text.as_bytes(), ret_len);
            }
            if notify_asked {
                notify(env, uc, a[3] as u16, id);
            }
            Ok(0)
        }
        Err(e) => {
            if ret_p != 0 && ret_len != 0 {
                farptr::write_bytes(uc, ret_p, &[0]);
            }
            Ok(e)
        }
    }
}

/// MMSYSTEM.703 mciGetDeviceID(lpstrName): the ID of the device with that
/// alias or file, 0 when none.
pub fn mci_get_device_id(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let Some(name) = opt_str(uc, a[0]) else {
        return Ok(0);
    };
    Ok(named(env, &name).map_or(0, u32::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev() -> Device {
        Device {
            id: 1,
            alias: "snd".into(),
            file: "A.WAV".into(),
            format: Format {
                channels: 1,
                rate: 11025,
                avg_bytes: 11025,
                block_align: 1,
                bits: 8,
            },
            data: vec![0; 11025],
            pos: 0,
            time_format: FORMAT_MS,
            htask: 0,
        }
    }

    #[test]
    fn time_formats_convert() {
        let mut d = dev();
        assert_eq!(d.to_units(d.len()), 1000);
        assert_eq!(d.to_bytes(500), 5512);
        d.time_format = FORMAT_SAMPLES;
        assert_eq!(d.to_units(100), 100);
        d.time_format = FORMAT_BYTES;
        assert_eq!(d.to_bytes(7), 7);
    }

    #[test]
    fn status_items() {
        let d = dev();
        assert_eq!(status(&d, 1), Some(1000));
        assert_eq!(status(&d, 4), Some(MCI_MODE_STOP));
        assert_eq!(status(&d, 0x4003), Some(11025));
        assert_eq!(status(&d, 0x99), None);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
