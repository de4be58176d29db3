//! Windows 3.1 exports that real programs import beyond the common core
//! (KERNEL's GlobalMasterHandle and path functions, GDI's device
//! environments and FastWindowFrame, SHELL's RegisterShellHook) and OLE
//! 1.0's OLECLI and OLESVR, and Windows for Workgroups' COMMCTRL, each
//! exercised by an Open Watcom C program in tests/watcom/.

mod common;

use common::{bin, json, strings, watcom};

/// Run a built program with a fresh drive C: of its own; its debug output.
fn run(exe: &std::path::Path) -> Vec<String> {
    let dir = exe.parent().unwrap().join("drive");
    std::fs::create_dir_all(&dir).unwrap();
    let name = exe.file_name().unwrap();
    std::fs::copy(exe, dir.join(name)).unwrap();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join(name))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    strings(&v["debug_output"])
}

/// tests/watcom/exports31.c. Expected values:
/// - GlobalMasterHandle returns the burgermaster's handle in AX and its
///   selector in DX; its header and arenas follow KRNL386's GINFO.INC
///   (hi_count at 4, hi_first at 6, hi_last at 0Ah; an arena's pga_next
///   at 0, pga_prev at 4, pga_handle at 10h, pga_owner at 12h and the
///   signature word at 14h): the first sentinel is owned by -1 with
///   GA_SIGNATURE (4Dh) and points back to itself, the last has GA_ENDSIG
///   (5Ah) and points forward to itself, hi_count entries lie between,
///   and the master's own arena is owned by GA_BURGERMASTER (-3).
/// - DeletePathName is OpenPathName with DOS's delete (KERNEL's entry
///   pushes 4100h): the file is gone (OpenFile OF_EXIST: -1) and a second
///   delete fails (-1).
/// - SetEnvironment/GetEnvironment (Windows 3.1 SDK): the bytes copied;
///   GetEnvironment with NULL the size; nCount 0 deletes and returns -1;
///   a port without one: 0.
/// - FastWindowFrame paints the frame with the DC's brush (black), and
///   not the inside (white).
/// - GetAspectRatioFilterEx: (0, 0) while the mapper flags are 0 (SDK,
///   GetAspectRatioFilterEx / SetMapperFlags).
/// - FileCDR (KRNL386's behaviour as read out of it; kernel/filecdr.rs):
///   a query (selector FFFFh) answers NULL, then the procedure set; setting
///   answers 1; the procedure hears `_lcreat` as 3C00h and OpenFile's
///   OF_DELETE and DeletePathName as 4100h, each with the whole path;
///   NULL clears it.
/// - GetSpoolJob with no printer (GDI 3.1's behaviour as measured by
///   others, gdi/printer.rs): 19h and 1Dh count 0 queues; 22h is 1 until
///   15h gives Print Manager's window, 0 then, 1 again after 15h with 0;
///   14h zeroes the 42-byte job details and answers 0.
/// - GetCurLogFont: the font selected in the DC (the stock System font
///   at first, then ANSI_VAR_FONT once selected).
/// - GetTaskQueueES: AX is the current task's queue, as GetTaskQueue
///   answers it.
/// - SetMetaFileBitsBetter: the memory block becomes a metafile again and
///   plays.
/// - GetMessageExtraInfo: 0 (no driver here gives extra information).
/// - RegisterShellHook(hwnd, 2) answers 1, and the window is posted
///   OTHERWINDOWCREATED and OTHERWINDOWDESTROYED with wParam = the other
///   top-level window (bits 1 and 2); RegisterShellHook(hwnd, 0) answers 1
///   too, and no more is posted (bit 4 stays clear) — SHELL 3.1 as others
///   measured it.
/// - The registration database (SHELL 3.1 as others measured it): a key's
///   children enumerate newest first (`b` before `a`), ERROR_BADKEY (2)
///   past the last; an empty value takes the value away (RegQueryValue:
///   '' and size 1); a type other than REG_SZ is ERROR_INVALID_PARAMETER
///   (7); RegDeleteKey of an empty name or a missing key ERROR_BADKEY;
///   RegCloseKey counts the keys open (7 when none is); Paintbrush's
///   server is registered from SETUP.REG (`PBRUSH.EXE`, size 11).
/// - DoEnvironmentSubst replaces `%COMSPEC%` with the task's COMSPEC
///   (the run's DOS environment: `C:\COMMAND.COM`) and keeps an unknown
///   `%NOPE%` and a lone `%`: MAKELONG(27, TRUE); a result that does not
///   fit leaves the string and answers MAKELONG(6, FALSE).
///   FindEnvironmentString points at the value (`$p$g`, the PROMPT of a Win16 task's environment, docs/win16.md), NULL for a name
///   not there.
#[test]
fn windows_31_exports_real_programs_import() {
    let Some(exe) = watcom::win16("exports31") else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "master same 1",
            "first owner FFFF sig 4D prev-self 1",
            "last owner FFFF sig 5A next-self 1",
            "walk 1 master 1",
            "paths open 1 delete 0 again -1 exists -1",
            "env set 20 size 20 got 8 same",
            "env delete -1 after 0 other 0",
            "frame 1 000000 000000 000000 FFFFFF 000000",
            "aspect 1 0 0",
            "curfont 1 1",
            "better 1 play 1",
            "extra 0",
            "shellhook 1 1 got 3",
            "subst 1 27 C:\\COMMAND.COM /c %NOPE% 5%",
            "subst-small 0 6 %PATH% find $p$g 1",
            "filecdr 0 1 1 1 0: 3C00 C:\\CDR.TMP 4100 C:\\CDR.TMP 3C00 C:\\CDR2.TMP 4100 C:\\CDR2.TMP",
            "registry b a 2 query 0 '' 1 type 7 delete 2 2 close 0 7 pbrush 0 PBRUSH.EXE 11",
            "spool 0 0 1 0 0 0 1 0 1",
            "queue-es 1",
        ]
    );
}

/// tests/watcom/ole1.c: OLE 1.0 on a machine with no server installed.
/// Status numbers are OLE.H's: OLE_OK 0, OLE_ERROR_FORMAT 12,
/// OLE_ERROR_OBJECT 13, OLE_ERROR_OPTION 14, OLE_ERROR_PROTOCOL 15,
/// OLE_ERROR_HANDLE 18, OLE_ERROR_CLASS 20, OLE_ERROR_LAUNCH 35.
/// - OleQueryCreateFromClip needs `Native` and `OwnerLink` on the
///   clipboard for StdFileEditing, OleQueryLinkFromClip `ObjectLink`
///   (Windows 3.1 SDK, "Object Linking and Embedding": the clipboard
///   formats of embedded and linked objects); a Static link and an
///   unknown protocol are protocol errors; olerender_format with a
///   format not there is a format error.
/// - OleCreate of a class with no server in the registration database:
///   OLE_ERROR_CLASS; with one registered (whose program is not run):
///   OLE_ERROR_LAUNCH; a document never registered: OLE_ERROR_HANDLE;
///   the object pointer is NULL after a failure.
/// - OleRegisterServer needs the class in the registration database;
///   Paintbrush's `PBrush` is there from Setup's SETUP.REG (KB Q82650).
/// - A revoked handle is invalid afterwards; revoking a server revokes
///   its documents.
/// - Functions on a pointer that is no OLE object: OLE_ERROR_OBJECT.
#[test]
fn ole1_client_and_server_without_installed_servers() {
    let Some(exe) = watcom::build(
        "ole1",
        watcom::Kind::Win16Exe,
        &["ole1.c"],
        None,
        &["olecli.lib", "olesvr.lib", "shell.lib"],
    ) else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "version 00000001 00000001",
            "registerdoc 0 1",
            "emptyclip 12 12 12 link-static 15 other 15",
            "ownerclip 0 12 12 option 14",
            "fromclip 20 1",
            "create 20 35 18 1 static 15",
            "fromclip-registered 35",
            "enum 0 1",
            "doc 0 0 0",
            "revoke 0 18 new 1",
            "server 20 0 1 pbrush 0 0",
            "serverdoc 0 1 0 0 revert 0",
            "block 0 0 more 0",
            "revokeserver 0 18 18",
            "object 13 13 meta 1 0",
        ]
    );
}

/// tests/watcom/cctest.c: COMMCTRL's status bar and toolbar. Expected
/// values (Windows 95 SDK's common controls reference, which documents
/// the same messages and functions COMMCTRL.DLL had):
/// - CreateStatusWindow makes a status bar along the bottom of the
///   parent's client area, as wide as it; its text is part 0's (SB_GETTEXT
///   returns the length in the low word and the type in the high word:
///   SBT_POPOUT 0200h for part 1); SB_GETPARTS returns the count and the
///   right edges given; in simple mode SB_GETTEXT answers the simple text.
/// - CreateToolbar makes a toolbar along the top, as wide as the client
///   area, with the buttons given (a separator counts); TB_GETSTATE is
///   TBSTATE_ENABLED | TBSTATE_CHECKED (5) for the checked button and -1
///   for an unknown command, TB_ISBUTTON* FALSE for one; a click on an
///   enabled button sends the parent WM_COMMAND with its command id and
///   toggles a TBSTYLE_CHECK button; a disabled one sends nothing.
/// - GetEffectiveClientRect leaves out the visible toolbar and status
///   bar; ShowHideMenuCtl unchecks the checked item and hides its
///   control, and is FALSE for an item not in the list.
/// - CreateUpDownControl with a buddy edit, UDS_SETBUDDYINT and
///   UDS_ALIGNRIGHT: UDM_GETRANGE is MAKELONG(upper 10, lower 0); the
///   buddy shows the position and the control sits at its right, the
///   buddy narrowed by the control's 16 pixels; a click on the up arrow
///   makes it 6 and the parent gets WM_VSCROLL SB_THUMBPOSITION 6;
///   UDM_GETPOS reads the buddy (9), and text that is no number answers
///   with HIWORD 1; UDM_SETPOS keeps the position in the range and returns
///   the old one; UDM_SETBASE returns the old base (10), 0 for a base
///   other than 10 and 16, and base 16 shows `0x000A`.
/// - DrawStatusText with no flags draws a sunken border: shadow (808080h)
///   at the top left, highlight (FFFFFFh) at the bottom right, the button
///   face (C0C0C0h) inside (Windows 3.1's default colours).
#[test]
fn commctrl_status_bar_and_toolbar() {
    let Some(exe) = watcom::win16("cctest") else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "status 1 bottom 1 width 1",
            "text Ready 5 5",
            "parts 2 200 -1 len 02000003",
            "simple Help text 9",
            "toolbar 1 top 1 width 1 count 3 index 2",
            "states 1 0 5 -1 0",
            "click 202 checked 0",
            "disabled 0",
            "effective 1 1 1",
            "showhide 1 visible 0 checked 0 unknown 0",
            "effective-hidden 1",
            "draw 808080 FFFFFF C0C0C0 FFFFFF",
            "updown 1 range 0000000A buddy 1 text 5 beside 1",
            "up 6 text 6 vscroll 6",
            "getpos 00000009 00010009 old 9 base 10 0 clamp 10 0x000A",
            "range2 00640000",
        ]
    );
}

/// tests/watcom/mmiotest.c: MMSYSTEM's mmio functions. Expected values
/// (Windows 3.1 SDK, Multimedia Programmer's Reference, mmio functions
/// and "Resource Interchange File Format"): a chunk is its FOURCC, a
/// little-endian DWORD size and the data padded to an even length; a
/// RIFF chunk's data begins with its form type; dwDataOffset is the
/// offset of the data (after the size); mmioAscend writes the real size
/// of a chunk made by mmioCreateChunk and the pad byte after odd data;
/// mmioRead is not bounded by the chunk (it reads to the end of the
/// file: 3 data bytes and the pad byte); a chunk not in the parent is
/// MMIOERR_CHUNKNOTFOUND (265); an open of a missing file NULL with
/// MMIOERR_FILENOTFOUND (257); a second mmioClose of a handle
/// MMIOERR_CANNOTCLOSE (260).
#[test]
fn mmio_riff_chunks() {
    let Some(exe) = watcom::win16("mmiotest") else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "fourcc 45564157 20746D66",
            "missing 1 err 257 exist 0",
            "create 0 0 riff-offset 8 fmt-offset 20 data-offset 44 size 3 dirty 0",
            "ascend 0 riff-size 40 pos 48 info 1",
            "close 0 again 260",
            "file 48 52 49 46 46 28 00 00 00 57 41 56 45 66 6D 74 20 10 00 00 00 01 00 01 00 \
             11 2B 00 00 11 2B 00 00 01 00 08 00 64 61 74 61 03 00 00 00 80 90 A0 00",
            "descend 0 0 offset 44 size 3 read 4 8090A0 end 0",
            "notfound 265 first 20746D66 16",
        ]
    );
}

/// tests/watcom/wavetest.c: the wave output device and sndPlaySound.
/// Expected values (Windows 3.1 SDK, Multimedia Programmer's Reference,
/// waveOut functions; codes from MMSYSTEM.H): a device ID past the last
/// is MMSYSERR_BADDEVICEID (2); WAVE_FORMAT_QUERY of a format whose
/// nBlockAlign does not fit is WAVERR_BADFORMAT (32), of a good one 0;
/// a second open of the device MMSYSERR_ALLOCATED (4); a header written
/// before waveOutPrepareHeader WAVERR_UNPREPARED (34); prepared, its
/// flags are WHDR_PREPARED (2), played WHDR_DONE | WHDR_PREPARED (3),
/// unprepared WHDR_DONE (1); waveOutGetPosition in TIME_BYTES counts the
/// bytes played; the window hears MM_WOM_OPEN with the handle, MM_WOM_DONE
/// with the header and MM_WOM_CLOSE; a closed handle is
/// MMSYSERR_INVALHANDLE (5). A callback function is called with
/// WOM_OPEN (and dwInstance), WOM_DONE and WOM_CLOSE. The files: RIFF
/// WAVE with a 16-byte `fmt ` chunk and the `data` chunk padded to even
/// ("Resource Interchange File Format"). sndPlaySound of a .WAV file is
/// TRUE and plays it (into the next file, the same 50 bytes); of a file
/// not there with SND_NODEFAULT FALSE; NULL stops any sound: TRUE.
#[test]
fn wave_output_goes_into_wav_files() {
    let Some(exe) = watcom::win16("wavetest") else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "devs 1 caps 0 1 Wave file output 00000FFF 2 bad 2",
            "query 32 0",
            "open 0 busy 4 unprepared 34 prepare 0 flags 2",
            "write 0 flags 3 pos 4 5",
            "close 0 0 flags 1 messages 7 again 5",
            "file 50 52 49 46 46 2A 00 00 00 57 41 56 45 66 6D 74 20 10 00 00 00 01 00 01 00 \
             11 2B 00 00 11 2B 00 00 01 00 08 00 64 61 74 61 05 00 00 00 10 20 30 40",
            "function 0 1 1 1 file 50",
            "snd 1 0 file 50 stop 1",
        ]
    );
}

/// tests/watcom/mcitest.c: MCI's waveaudio device. Expected values
/// (Windows 3.1 SDK, Multimedia Programmer's Reference, "MCI command
/// strings" and "MCI command messages"; codes from MMSYSTEM.H): `open`
/// returns the device ID as its string; a one-second 11025 Hz file is
/// 1000 long in milliseconds (the default time format) and 11025 in
/// samples; a device that is not playing is `stopped`; `play from 0 to
/// 100` leaves the position at 100 and plays 100 samples (the file
/// written: a 44-byte header and the 100 bytes); a position past the end
/// is MCIERR_OUTOFRANGE (282); a closed alias is MCIERR_INVALID_DEVICE_NAME
/// (263); cdaudio, whose driver is not here, MCIERR_CANNOT_LOAD_DRIVER
/// (266); an unknown command MCIERR_UNRECOGNIZED_COMMAND (261); a missing
/// file MCIERR_FILE_NOT_FOUND (275). As MMSYSTEM 3.1 was measured (by
/// others, winbox.js's sound-devices notes): an empty string is 267, a
/// command with no device 292, a status item there is none of 290, an
/// extension `[mci extensions]` does not name 281, a type it does not name
/// 263, an alias already open 289; waveaudio's product is `Sound`; `close
/// all` closes the task's devices. With mciSendCommand: MCI_PLAY from 500 ms
/// plays the second half (5513 bytes, an odd count padded: a 5558-byte
/// file) and leaves the position at 1000; a closed ID is
/// MCIERR_INVALID_DEVICE_ID (257).
#[test]
fn mci_waveaudio() {
    let Some(exe) = watcom::win16("mcitest") else {
        return;
    };
    assert_eq!(
        run(&exe),
        [
            "open 0 1 length 0 1000 mode 0 stopped id 1",
            "samples 0 length 0 11025 rate 0 11025",
            "play 0 position 0 100 range 282 file 144",
            "close 0 after 263 cd 266 bogus 261 missing 275",
            "errors 267 292 290 ext 281 type 263 dup 289 product 0",
            "product Sound closeall 0 after 263",
            "command 0 id 1 length 0 1000 play 0 position 1000",
            "bits 0 8 close 0 invalid 257 file2 5558",
        ]
    );
}

/// The events of a format-0 Standard MIDI File's track, without their
/// delta times (which follow the emulated clock), each as its bytes.
fn midi_events(file: &[u8]) -> Vec<Vec<u8>> {
    assert_eq!(&file[..14], b"MThd\0\0\0\x06\0\0\0\x01\x01\xF4");
    assert_eq!(&file[14..18], b"MTrk");
    let len = u32::from_be_bytes([file[18], file[19], file[20], file[21]]) as usize;
    let track = &file[22..22 + len];
    let varlen = |at: &mut usize| {
        let mut v = 0u32;
        loop {
            let b = track[*at];
            *at += 1;
            v = v << 7 | u32::from(b & 0x7F);
            if b & 0x80 == 0 {
                return v;
            }
        }
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < track.len() {
        varlen(&mut at);
        let start = at;
        match track[at] {
            0xF0 => {
                at += 1;
                let n = varlen(&mut at) as usize;
                at += n;
            }
            0xFF => {
                at += 2;
                let n = varlen(&mut at) as usize;
                at += n;
            }
            s if (0xC0..0xE0).contains(&s) => at += 2,
            _ => at += 3,
        }
        out.push(track[start..at].to_vec());
    }
    out
}

/// tests/watcom/miditest.c: the MIDI output device. Expected values
/// (Windows 3.1 SDK, Multimedia Programmer's Reference, midiOut
/// functions; MMSYSTEM.H's codes; the Standard MIDI File 1.0
/// specification for the file): device 2 is MMSYSERR_BADDEVICEID; the
/// device opens through MIDI_MAPPER and a second open is
/// MMSYSERR_ALLOCATED (4); a long message before midiOutPrepareHeader is
/// MIDIERR_UNPREPARED (64), after it done (MHDR_DONE | MHDR_PREPARED: 3);
/// the window hears MM_MOM_OPEN, MM_MOM_DONE and MM_MOM_CLOSE; a closed
/// handle is MMSYSERR_INVALHANDLE (5). The file holds, in order: note on
/// 60, note on 62 (sent with running status), note off 60, the GM-on
/// system exclusive message as a sysex event (F0h, length 5, the bytes
/// after F0h), the note off midiOutReset sends for the note still on (62),
/// and the end of the track.
#[test]
fn midi_output_goes_into_midi_files() {
    let Some(exe) = watcom::win16("miditest") else {
        return;
    };
    let out = run(&exe);
    assert_eq!(
        out[..3],
        [
            "devs 1 caps 0 MIDI file output tech 2 voices 16 mask FFFF bad 2",
            "open 0 busy 4 unprepared 64 long 0 flags 3",
            "reset 0 close 0 again 5 messages 7",
        ]
    );
    let hex: Vec<u8> = out[3]
        .split(' ')
        .skip(2)
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect();
    assert_eq!(
        midi_events(&hex),
        [
            vec![0x90, 0x3C, 0x64],
            vec![0x90, 0x3E, 0x40],
            vec![0x80, 0x3C, 0x00],
            vec![0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7],
            vec![0x80, 0x3E, 0x00],
            vec![0xFF, 0x2F, 0x00],
        ]
    );
}
