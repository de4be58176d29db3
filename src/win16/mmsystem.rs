//! MMSYSTEM: the multimedia extensions (Windows 3.1's MMSYSTEM 1.01) on a
//! machine whose multimedia devices are one wave output device that
//! plays into .WAV files (wave.rs, with sndPlaySound) and one MIDI output
//! device that plays into MIDI files (midi.rs): no wave or MIDI input,
//! auxiliary, mixer or joystick device, and MCI's waveaudio driver only (Windows
//! 3.1 SDK, "Multimedia Programmer's Reference"). File I/O (mmio) is
//! mmio.rs's.
//!
//! The other device counts are 0; opening such a device fails with
//! MMSYSERR_BADDEVICEID (there is no device 0); MCI has the waveaudio
//! driver only (mci.rs: other device types are
//! MCIERR_DEVICE_NOT_INSTALLED) and
//! mciGetErrorString gives the documented texts; the joystick is
//! JOYERR_UNPLUGGED. The multimedia timer works: timeGetTime and
//! timeGetSystemTime read the emulated clock (kernel/system.rs),
//! timeGetDevCaps gives a 1 ms to 65535 ms period range, timeBeginPeriod
//! and timeEndPeriod accept periods within it.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::callback::{CallArg, call_far};
use crate::win16::farptr;

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("MMSYSTEM", 1, "WEP", &[Arg::W, Arg::W, Arg::W, Arg::L], wep),
    Api::new(
        "MMSYSTEM",
        5,
        "MMSYSTEMGETVERSION",
        &[],
        mmsystem_get_version,
    ),
    Api::new(
        "MMSYSTEM",
        30,
        "OUTPUTDEBUGSTR",
        &[Arg::L],
        output_debug_str,
    ),
    Api::new("MMSYSTEM", 101, "JOYGETNUMDEVS", &[], zero),
    Api::new(
        "MMSYSTEM",
        102,
        "JOYGETDEVCAPS",
        &[Arg::W, Arg::L, Arg::W],
        joy_error,
    ),
    Api::new("MMSYSTEM", 103, "JOYGETPOS", &[Arg::W, Arg::L], joy_error),
    Api::new(
        "MMSYSTEM",
        203,
        "MIDIOUTGETERRORTEXT",
        &[Arg::W, Arg::L, Arg::W],
        get_error_text,
    ),
    Api::new("MMSYSTEM", 301, "MIDIINGETNUMDEVS", &[], zero),
    Api::new("MMSYSTEM", 350, "AUXGETNUMDEVS", &[], zero),
    Api::new(
        "MMSYSTEM",
        403,
        "WAVEOUTGETERRORTEXT",
        &[Arg::W, Arg::L, Arg::W],
        get_error_text,
    ),
    Api::new("MMSYSTEM", 501, "WAVEINGETNUMDEVS", &[], zero),
    Api::new(
        "MMSYSTEM",
        601,
        "TIMEGETSYSTEMTIME",
        &[Arg::L, Arg::W],
        time_get_system_time,
    ),
    Api::new(
        "MMSYSTEM",
        604,
        "TIMEGETDEVCAPS",
        &[Arg::L, Arg::W],
        time_get_dev_caps,
    ),
    Api::new("MMSYSTEM", 605, "TIMEBEGINPERIOD", &[Arg::W], time_period),
    Api::new("MMSYSTEM", 606, "TIMEENDPERIOD", &[Arg::W], time_period),
    Api::new("MMSYSTEM", 607, "TIMEGETTIME", &[], time_get_time),
    Api::new(
        "MMSYSTEM",
        706,
        "MCIGETERRORSTRING",
        &[Arg::L, Arg::L, Arg::W],
        mci_get_error_string,
    ),
];

/// MMSYSERR_* (MMSYSTEM.H), the codes every device driver answers with.
pub const MMSYSERR_BADDEVICEID: u32 = 2;
pub const MMSYSERR_ALLOCATED: u32 = 4;
pub const MMSYSERR_INVALHANDLE: u32 = 5;
pub const MMSYSERR_NOTSUPPORTED: u32 = 8;
pub const MMSYSERR_INVALPARAM: u32 = 11;
/// The callback kinds in the dwFlags of waveOutOpen and midiOutOpen
/// (MMSYSTEM.H).
pub const CALLBACK_TYPEMASK: u32 = 0x0007_0000;
pub const CALLBACK_WINDOW: u32 = 0x0001_0000;
pub const CALLBACK_FUNCTION: u32 = 0x0003_0000;
/// JOYERR_UNPLUGGED.
pub const JOYERR_UNPLUGGED: u32 = 167;
/// MCIERR_DEVICE_NOT_INSTALLED (MCIERR_BASE 256 + 50).
pub const MCIERR_DEVICE_NOT_INSTALLED: u32 = 306;
/// TIMERR_NOCANDO.
pub const TIMERR_NOCANDO: u32 = 97;

/// 0: no devices (the *GetNumDevs functions, mciGetDeviceID).
pub fn zero(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// MMSYSERR_BADDEVICEID: there is no such device.
pub fn bad_device(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(MMSYSERR_BADDEVICEID)
}

/// JOYERR_UNPLUGGED: no joystick.
pub fn joy_error(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(JOYERR_UNPLUGGED)
}

/// MMSYSTEM.1 WEP: 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

/// MMSYSTEM.5 mmsystemGetVersion(): 0x0101, MMSYSTEM 1.01.
pub fn mmsystem_get_version(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0x0101)
}

/// MMSYSTEM.30 OutputDebugStr(lpszString): as OutputDebugString.
pub fn output_debug_str(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = farptr::read_cstr(uc, a[0], 0x1000).unwrap_or_default();
    env.debug_output
        .push(String::from_utf8_lossy(&s).into_owned());
    Ok(0)
}

/// The emulated clock.
fn now(env: &mut Env, uc: &mut Uc<'_>) -> u32 {
    let insns = crate::machine::time::observe(uc);
    env.win16.system.tick_ms(insns)
}

/// MMSYSTEM.607 timeGetTime(): milliseconds since Windows started.
pub fn time_get_time(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(now(env, uc))
}

/// MMSYSTEM.601 timeGetSystemTime(lpTime, wSize): MMTIME with wType
/// TIME_MS (1) and the milliseconds; 0 (TIMERR_NOERROR).
pub fn time_get_system_time(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if (a[1] as u16) < 6 {
        return Ok(TIMERR_NOCANDO);
    }
    let t = now(env, uc);
    let mut b = 1u16.to_le_bytes().to_vec();
    b.extend_from_slice(&t.to_le_bytes());
    Ok(if farptr::write_bytes(uc, a[0], &b) {
        0
    } else {
        TIMERR_NOCANDO
    })
}

/// MMSYSTEM.604 timeGetDevCaps(lpTimeCaps, wSize): wPeriodMin 1,
/// wPeriodMax 65535.
pub fn time_get_dev_caps(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if (a[1] as u16) < 4 || !farptr::write_bytes(uc, a[0], &[1, 0, 0xFF, 0xFF]) {
        return Ok(TIMERR_NOCANDO);
    }
    Ok(0)
}

/// MMSYSTEM.605 timeBeginPeriod and 606 timeEndPeriod(wPeriod): 0 for a
/// period within 1..65535, TIMERR_NOCANDO for 0.
pub fn time_period(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if a[0] as u16 == 0 { TIMERR_NOCANDO } else { 0 })
}

/// The texts of the device errors (MMSYSERR_*).
fn error_text(e: u32) -> &'static str {
    match e {
        0 => "The specified command was carried out.",
        1 => "Undefined external error.",
        2 => "A device ID has been used that is out of range for your system.",
        3 => "The driver was not enabled.",
        4 => "The specified device is already in use. Wait until it is free, and then try again.",
        5 => "The specified device handle is invalid.",
        6 => "There is no driver installed on your system.",
        7 => "There is not enough memory available for this task.",
        8 => "This function is not supported.",
        11 => "An invalid parameter was passed to a system function.",
        _ => "Unknown error.",
    }
}

/// MMSYSTEM.403 waveOutGetErrorText(wError, lpText, wSize) (and MIDI's):
/// the error's text; 0, or MMSYSERR_BADERRNUM (9) past the known ones.
pub fn get_error_text(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let e = a[0] & 0xFFFF;
    farptr::write_cstr_truncated(uc, a[1], error_text(e).as_bytes(), usize::from(a[2] as u16));
    Ok(if e > 11 { 9 } else { 0 })
}

/// MMSYSTEM.706 mciGetErrorString(dwError, lpstrBuffer, wLength): the
/// text of an MCI error; TRUE for a known error.
pub fn mci_get_error_string(_env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let text = match a[0] {
        MCIERR_DEVICE_NOT_INSTALLED => {
            "The specified device is not installed on the system. Use the Drivers option in \
             Control Panel to install the device."
        }
        0 => "The specified command was carried out.",
        _ => "",
    };
    farptr::write_cstr_truncated(uc, a[1], text.as_bytes(), usize::from(a[2] as u16));
    Ok(u32::from(!text.is_empty()))
}

/// An output device's client, as its *Open call named it: dwFlags' callback
/// kind, dwCallback, dwCallbackInstance, and the DS the call was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverClient {
    pub flags: u32,
    pub callback: u32,
    pub instance: u32,
    pub ds: u16,
}

/// Tell a device's client of an event, as the wave and MIDI output
/// drivers did: CALLBACK_WINDOW posts `msg` (wParam the device handle,
/// lParam `param1`) to the window if it still exists; CALLBACK_FUNCTION
/// calls the function (hDevice, wMsg, dwInstance, dwParam1, dwParam2 0)
/// from MMSYSTEM's code with the client's DS; no callback does nothing.
pub fn notify_client(
    env: &mut Env,
    uc: &mut Uc<'_>,
    c: DriverClient,
    handle: u16,
    msg: u16,
    param1: u32,
) -> Result<(), Stop> {
    match c.flags & CALLBACK_TYPEMASK {
        CALLBACK_WINDOW => {
            let hwnd = c.callback as u16;
            if env.win16.user.window(hwnd).is_some() {
                let m = crate::win16::user::message::Msg::new(hwnd, msg, handle, param1);
                crate::win16::user::message::post(env, uc, m);
            }
        }
        CALLBACK_FUNCTION if c.callback != 0 => {
            let cs = env
                .win16
                .module_by_name("MMSYSTEM")
                .and_then(|m| m.segments.first().copied())
                .ok_or_else(|| Stop::Error("MMSYSTEM's thunk segment is missing".into()))?;
            let args = [
                CallArg::W(handle),
                CallArg::W(msg),
                CallArg::L(c.instance),
                CallArg::L(param1),
                CallArg::L(0),
            ];
            call_far(env, uc, cs, farptr::split(c.callback), c.ds, &[], &args)?;
        }
        _ => {}
    }
    Ok(())
}

/// A device id an output driver of one device accepts: 0, or -1 (the
/// mapper, WAVE_MAPPER and MIDIMAPPER).
pub fn device_id_ok(id: u16) -> bool {
    id == 0 || id == 0xFFFF
}

/// The *GetDevCaps(wDeviceID, lpCaps, wSize) of a driver whose caps are
/// `caps`: the first wSize bytes copied; MMSYSERR_BADDEVICEID for another
/// device, MMSYSERR_INVALPARAM when lpCaps cannot take them.
pub fn give_dev_caps(uc: &mut Uc<'_>, a: &[u32], caps: &[u8]) -> u32 {
    if !device_id_ok(a[0] as u16) {
        return MMSYSERR_BADDEVICEID;
    }
    let n = usize::from(a[2] as u16).min(caps.len());
    if farptr::write_bytes(uc, a[1], &caps[..n]) {
        0
    } else {
        MMSYSERR_INVALPARAM
    }
}

/// The dwFlags of a WAVEHDR or MIDIHDR (both at +16).
pub fn header_flags(uc: &Uc<'_>, hdr: u32) -> Option<u32> {
    let b = farptr::read_bytes(uc, farptr::add(hdr, 16), 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Write the dwFlags of a WAVEHDR or MIDIHDR.
pub fn set_header_flags(uc: &mut Uc<'_>, hdr: u32, f: u32) -> bool {
    farptr::write_bytes(uc, farptr::add(hdr, 16), &f.to_le_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
