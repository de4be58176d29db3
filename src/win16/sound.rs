//! SOUND: the Windows 3.1 sound driver's music interface, on a machine
//! whose only sound device is the PC speaker, which nobody hears here.
//!
//! The functions keep the state the SDK describes (Windows 3.1 SDK,
//! "Sound functions"): OpenSound opens the one voice (a second OpenSound
//! fails with S_SERDVNA, the device already open); each voice queue holds
//! SetVoiceQueueSize bytes (192 until set), 6 bytes a note or accent, and
//! a note past it fails with S_SERQFUL; StartSound plays the queues, which
//! empty at once (no time passes for the notes), StopSound empties them;
//! CountVoiceNotes counts what is queued. Notes, lengths, tempos, volumes,
//! modes and pitches are checked against their documented ranges, with
//! the documented errors. Every note played is recorded as an event.

use crate::machine::{Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new("SOUND", 1, "OPENSOUND", &[], open_sound),
    Api::new("SOUND", 2, "CLOSESOUND", &[], close_sound),
    Api::new(
        "SOUND",
        3,
        "SETVOICEQUEUESIZE",
        &[Arg::W, Arg::W],
        set_voice_queue_size,
    ),
    Api::new(
        "SOUND",
        4,
        "SETVOICENOTE",
        &[Arg::W, Arg::W, Arg::W, Arg::W],
        set_voice_note,
    ),
    Api::new(
        "SOUND",
        5,
        "SETVOICEACCENT",
        &[Arg::W, Arg::W, Arg::W, Arg::W, Arg::W],
        set_voice_accent,
    ),
    Api::new(
        "SOUND",
        6,
        "SETVOICEENVELOPE",
        &[Arg::W, Arg::W, Arg::W],
        voice_checked,
    ),
    Api::new(
        "SOUND",
        7,
        "SETSOUNDNOISE",
        &[Arg::W, Arg::W],
        set_sound_noise,
    ),
    Api::new(
        "SOUND",
        8,
        "SETVOICESOUND",
        &[Arg::W, Arg::L, Arg::W],
        set_voice_sound,
    ),
    Api::new("SOUND", 9, "STARTSOUND", &[], start_sound),
    Api::new("SOUND", 10, "STOPSOUND", &[], stop_sound),
    Api::new("SOUND", 11, "WAITSOUNDSTATE", &[Arg::W], wait_sound_state),
    Api::new("SOUND", 12, "SYNCALLVOICES", &[], sync_all_voices),
    Api::new("SOUND", 13, "COUNTVOICENOTES", &[Arg::W], count_voice_notes),
    Api::new("SOUND", 14, "GETTHRESHOLDEVENT", &[], get_threshold_event),
    Api::new("SOUND", 15, "GETTHRESHOLDSTATUS", &[], get_threshold_status),
    Api::new(
        "SOUND",
        16,
        "SETVOICETHRESHOLD",
        &[Arg::W, Arg::W],
        voice_checked,
    ),
    Api::new("SOUND", 17, "DOBEEP", &[], do_beep),
    Api::new("SOUND", 18, "WEP", &[Arg::W], wep),
];

/// The driver's errors (Windows 3.1 SDK), as the 16-bit values returned.
pub mod err {
    pub const S_SERDVNA: i16 = -1;
    pub const S_SERQFUL: i16 = -4;
    pub const S_SERBDNT: i16 = -5;
    pub const S_SERDLN: i16 = -6;
    pub const S_SERDCC: i16 = -7;
    pub const S_SERDTP: i16 = -8;
    pub const S_SERDVL: i16 = -9;
    pub const S_SERDMD: i16 = -10;
    pub const S_SERDPT: i16 = -12;
    pub const S_SERDFQ: i16 = -13;
    pub const S_SERDSR: i16 = -15;
    pub const S_SERDST: i16 = -16;
}

/// A queue's default size in bytes.
pub const DEFAULT_QUEUE: u16 = 192;
/// Bytes one queued note or accent takes.
pub const NOTE_BYTES: u16 = 6;

/// SOUND's state.
#[derive(Debug, Clone)]
pub struct SoundState {
    pub open: bool,
    pub queue_size: u16,
    /// Notes (and accents) queued on the voice.
    pub queued: u16,
}

impl Default for SoundState {
    fn default() -> Self {
        SoundState {
            open: false,
            queue_size: DEFAULT_QUEUE,
            queued: 0,
        }
    }
}

fn r(v: i16) -> Result<u32, Stop> {
    Ok(u32::from(v as u16))
}

/// SOUND.1 OpenSound(): the number of voices (1), or S_SERDVNA when the
/// device is already open.
pub fn open_sound(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let s = &mut env.win16.sound;
    if s.open {
        return r(err::S_SERDVNA);
    }
    *s = SoundState {
        open: true,
        ..SoundState::default()
    };
    Ok(1)
}

/// SOUND.2 CloseSound(): the queues are emptied and the device closed.
pub fn close_sound(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    env.win16.sound = SoundState::default();
    Ok(0)
}

/// SOUND.3 SetVoiceQueueSize(nVoice, nBytes): 0, or S_SERMACT while notes
/// are queued, S_SERDVNA for another voice.
pub fn set_voice_queue_size(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = &mut env.win16.sound;
    if a[0] as u16 != 1 || !s.open {
        return r(err::S_SERDVNA);
    }
    if s.queued > 0 {
        return r(-3);
    }
    s.queue_size = a[1] as u16;
    Ok(0)
}

/// Queue one entry on voice 1.
fn queue(env: &mut Env, voice: u16) -> Result<(), i16> {
    let s = &mut env.win16.sound;
    if voice != 1 || !s.open {
        return Err(err::S_SERDVNA);
    }
    if (s.queued + 1).saturating_mul(NOTE_BYTES) > s.queue_size {
        return Err(err::S_SERQFUL);
    }
    s.queued += 1;
    Ok(())
}

/// SOUND.4 SetVoiceNote(nVoice, nValue, nLength, nCdots): queue a note
/// (1..84, 0 a rest) of length 1..256 (1 a whole note) with nCdots dots;
/// 0, or the errors of the module notes.
pub fn set_voice_note(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (voice, note, len, dots) = (a[0] as u16, a[1] as u16, a[2] as u16, a[3] as u16);
    if note > 84 {
        return r(err::S_SERBDNT);
    }
    if len == 0 || len > 256 {
        return r(err::S_SERDLN);
    }
    if dots > 10 {
        return r(err::S_SERDCC);
    }
    if let Err(e) = queue(env, voice) {
        return r(e);
    }
    crate::machine::record_event(uc, format!("SOUND: note {note} length 1/{len} dots {dots}"));
    Ok(0)
}

/// SOUND.5 SetVoiceAccent(nVoice, nTempo, nVolume, nMode, nPitch): tempo
/// 32..255, volume 0..255, mode 0..2 (S_NORMAL, S_LEGATO, S_STACCATO),
/// pitch 0..83; queued like a note.
pub fn set_voice_accent(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (voice, tempo, volume, mode, pitch) = (
        a[0] as u16,
        a[1] as u16,
        a[2] as u16,
        a[3] as u16,
        a[4] as u16,
    );
    if !(32..=255).contains(&tempo) {
        return r(err::S_SERDTP);
    }
    if volume > 255 {
        return r(err::S_SERDVL);
    }
    if mode > 2 {
        return r(err::S_SERDMD);
    }
    if pitch > 83 {
        return r(err::S_SERDPT);
    }
    match queue(env, voice) {
        Ok(()) => Ok(0),
        Err(e) => r(e),
    }
}

/// SOUND.6 SetVoiceEnvelope and SOUND.16 SetVoiceThreshold: 0 for voice
/// 1 of an open device, S_SERDVNA otherwise.
pub fn voice_checked(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[0] as u16 == 1 && env.win16.sound.open {
        Ok(0)
    } else {
        r(err::S_SERDVNA)
    }
}

/// SOUND.7 SetSoundNoise(nSource, nDuration): sources 0..7 (S_PERIOD512
/// .. S_WHITEN); 0.
pub fn set_sound_noise(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if !env.win16.sound.open {
        return r(err::S_SERDVNA);
    }
    if a[0] as u16 > 7 {
        return r(err::S_SERDSR);
    }
    Ok(0)
}

/// SOUND.8 SetVoiceSound(nVoice, dwFrequency, nDuration): the frequency
/// (high word Hz, low word fraction) 37..32767 Hz; queued like a note.
pub fn set_voice_sound(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let hz = a[1] >> 16;
    if !(37..=32767).contains(&hz) {
        return r(err::S_SERDFQ);
    }
    if let Err(e) = queue(env, a[0] as u16) {
        return r(e);
    }
    crate::machine::record_event(
        uc,
        format!("SOUND: {hz} Hz for {} clock ticks", a[2] as u16),
    );
    Ok(0)
}

/// SOUND.9 StartSound(): the queued notes play (module notes): 0.
pub fn start_sound(env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    let n = std::mem::take(&mut env.win16.sound.queued);
    if n > 0 {
        crate::machine::record_event(uc, format!("SOUND: {n} queued notes played"));
    }
    Ok(0)
}

/// SOUND.10 StopSound(): the queues are emptied.
pub fn stop_sound(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    env.win16.sound.queued = 0;
    Ok(0)
}

/// SOUND.11 WaitSoundState(fnState): S_QUEUEEMPTY (0), S_THRESHOLD (1) or
/// S_ALLTHRESHOLD (2) are reached at once; anything else S_SERDST.
pub fn wait_sound_state(_env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    if a[0] as u16 > 2 {
        return r(err::S_SERDST);
    }
    Ok(0)
}

/// SOUND.12 SyncAllVoices(): 0 (one voice).
pub fn sync_all_voices(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    if env.win16.sound.open {
        Ok(0)
    } else {
        r(err::S_SERDVNA)
    }
}

/// SOUND.13 CountVoiceNotes(nVoice): the notes queued.
pub fn count_voice_notes(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(if a[0] as u16 == 1 {
        u32::from(env.win16.sound.queued)
    } else {
        0
    })
}

/// SOUND.14 GetThresholdEvent(): a far pointer to the threshold flags;
/// NULL: no queue ever falls below a threshold while it plays here.
pub fn get_threshold_event(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// SOUND.15 GetThresholdStatus(): no voice is below its threshold: 0.
pub fn get_threshold_status(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(0)
}

/// SOUND.17 DoBeep(): a beep on the speaker, recorded.
pub fn do_beep(_env: &mut Env, uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    crate::machine::record_event(uc, "SOUND: beep".into());
    Ok(0)
}

/// SOUND.18 WEP(nExitType): 1.
pub fn wep(_env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::win16::kernel::testing::kernsvc;

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }

    #[test]
    fn the_voice_queue() {
        let (mut m, mut env, _) = kernsvc();
        let mut call =
            |f: crate::win16::api::ApiFn, a: &[u32]| f(&mut env, &mut m, a).unwrap() as u16 as i16;
        assert_eq!(call(set_voice_note, &[1, 40, 4, 0]), err::S_SERDVNA);
        assert_eq!(call(open_sound, &[]), 1);
        assert_eq!(call(open_sound, &[]), err::S_SERDVNA);
        assert_eq!(call(set_voice_queue_size, &[1, 12]), 0);
        assert_eq!(call(set_voice_note, &[1, 40, 4, 0]), 0);
        assert_eq!(call(set_voice_note, &[1, 85, 4, 0]), err::S_SERBDNT);
        assert_eq!(call(set_voice_note, &[1, 40, 0, 0]), err::S_SERDLN);
        assert_eq!(call(set_voice_accent, &[1, 120, 128, 0, 0]), 0);
        assert_eq!(call(set_voice_note, &[1, 41, 4, 0]), err::S_SERQFUL);
        assert_eq!(call(count_voice_notes, &[1]), 2);
        assert_eq!(call(set_voice_queue_size, &[1, 300]), -3);
        assert_eq!(call(start_sound, &[]), 0);
        assert_eq!(call(count_voice_notes, &[1]), 0);
        assert_eq!(call(set_voice_accent, &[1, 10, 0, 0, 0]), err::S_SERDTP);
        assert_eq!(call(wait_sound_state, &[0]), 0);
        assert_eq!(call(close_sound, &[]), 0);
        assert_eq!(call(open_sound, &[]), 1);
    }
}
