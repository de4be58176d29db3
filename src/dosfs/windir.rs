//! The Windows directory a Win16 program finds on drive C:: `C:\WINDOWS`
//! with `SYSTEM` and `TEMP` below it, holding the initialization files a
//! fresh Windows 3.1 set-up writes (VGA display, enhanced mode, a US
//! keyboard, no network, an HP LaserJet III on LPT1: as the default
//! printer).
//!
//! It is a read-only layer beneath the drive ([`super::Drive::add_windows_layer`]):
//! a private directory made for the run, holding `WINDOWS\...`, removed
//! with the drive. Everything the program's own drive has wins over it
//! (a `WINDOWS\WIN.INI` in the drive's directory is the one it reads); what
//! the program writes there goes where its other writes go (the
//! copy-on-write overlay by default, the host directory with `--dir`),
//! the file copied up first. So directory searches, OpenFile, `_lopen` and
//! the profile functions all see the same files. With `--windows DIR`,
//! DIR's files are copied over the built-in ones when the layer is made:
//! the user's WIN.INI or a DLL appear in `C:\WINDOWS`, read-only as the
//! rest of the layer; DIR itself is only read.
//!
//! Where the contents come from: the settings and their defaults as
//! Microsoft documents them for Windows 3.0 and 3.1 (WININI.TXT and
//! SYSINI.TXT, which Setup copied to the Windows directory: KB Q58327
//! "Windows 3.0 WIN.INI [windows] Section", KB Q83055 "WIN.INI File
//! Settings" from WININI.WRI of 3.1; the Windows 3.1 Resource Kit,
//! chapter 4, "The Windows Initialization Files"), with the values Setup
//! writes for the machine above: the fonts of a VGA install, the
//! "Windows Default" colour scheme (the colours USER starts with,
//! `gdi::dc::DEFAULT_SYS_COLORS`), the United States' [intl] settings,
//! and the drivers of [boot].

use std::fs;
use std::io;
use std::path::Path;

/// WIN.INI as Windows 3.1 Setup leaves it.
pub const WIN_INI: &str = "\
[windows]
spooler=yes
load=
run=
Beep=yes
NullPort=None
BorderWidth=3
CursorBlinkRate=530
DoubleClickSpeed=452
Programs=com exe bat pif
Documents=
DeviceNotSelectedTimeout=15
TransmissionRetryTimeout=45
KeyboardDelay=2
KeyboardSpeed=31
ScreenSaveActive=0
ScreenSaveTimeOut=120
swapdisk=
NetWarn=1
device=HP LaserJet III,HPPCL5A,LPT1:

[Desktop]
Pattern=(None)
Wallpaper=(None)
TileWallpaper=0
GridGranularity=0
IconSpacing=75

[Extensions]
cal=calendar.exe ^.cal
crd=cardfile.exe ^.crd
trm=terminal.exe ^.trm
txt=notepad.exe ^.txt
ini=notepad.exe ^.ini
pcx=pbrush.exe ^.pcx
bmp=pbrush.exe ^.bmp
wri=write.exe ^.wri
rec=recorder.exe ^.rec
hlp=winhelp.exe ^.hlp

[intl]
sLanguage=enu
sCountry=United States
iCountry=1
iDate=0
iTime=0
iTLZero=0
iCurrency=0
iCurrDigits=2
iNegCurr=0
iLzero=1
iDigits=2
iMeasure=1
s1159=AM
s2359=PM
sCurrency=$
sThousand=,
sDecimal=.
sDate=/
sTime=:
sList=,
sShortDate=M/d/yy
sLongDate=dddd, MMMM dd, yyyy

[ports]
; A line with [filename].PRN followed by an equal sign causes
; [filename] to appear in the Control Panel's Printer Configuration dialog
; box. A printer connected to [filename] directs its output into this file.
LPT1:=
LPT2:=
LPT3:=
COM1:=9600,n,8,1,x
COM2:=9600,n,8,1,x
COM3:=9600,n,8,1,x
COM4:=9600,n,8,1,x
EPT:=
FILE:=
LPT1.DOS=
LPT2.DOS=

[FontSubstitutes]
Helv=MS Sans Serif
Tms Rmn=MS Serif
Times=Times New Roman
Helvetica=Arial

[TrueType]

[Sounds]
SystemDefault=ding.wav, Default Beep
SystemExclamation=chord.wav, Exclamation
SystemStart=tada.wav, Windows Start
SystemExit=chimes.wav, Windows Exit
SystemHand=chord.wav, Critical Stop
SystemQuestion=chord.wav, Question
SystemAsterisk=chord.wav, Asterisk

[mci extensions]
wav=waveaudio
mid=sequencer
rmi=sequencer

[Compatibility]
NOTSHELL=0x0001
WPWINFIL=0x0006
CCMAIL=0x0008
AMIPRO=0x0010
REM=0x8022
PIXIE=0x0040
CP=0x0040
JW=0x42080
TME=0x0100
VB=0x0200
WIN2WRS=0x1210
PACKRAT=0x0800
VISION=0x0040
MCOURIER=0x0800
_BNOTES=0x24000
MILESV3=0x1000
PM4=0x2000
DESIGNER=0x2000
PLANNER=0x2000
DRAW=0x2000
WINSIM=0x4000
FRAME=0x0020

[fonts]
Arial (TrueType)=ARIAL.FOT
Arial Bold (TrueType)=ARIALBD.FOT
Arial Bold Italic (TrueType)=ARIALBI.FOT
Arial Italic (TrueType)=ARIALI.FOT
Courier New (TrueType)=COUR.FOT
Courier New Bold (TrueType)=COURBD.FOT
Courier New Bold Italic (TrueType)=COURBI.FOT
Courier New Italic (TrueType)=COURI.FOT
Times New Roman (TrueType)=TIMES.FOT
Times New Roman Bold (TrueType)=TIMESBD.FOT
Times New Roman Bold Italic (TrueType)=TIMESBI.FOT
Times New Roman Italic (TrueType)=TIMESI.FOT
WingDings (TrueType)=WINGDING.FOT
Symbol (TrueType)=SYMBOL.FOT
MS Sans Serif 8,10,12,14,18,24 (VGA res)=SSERIFE.FON
Courier 10,12,15 (VGA res)=COURE.FON
MS Serif 8,10,12,14,18,24 (VGA res)=SERIFE.FON
Symbol 8,10,12,14,18,24 (VGA res)=SYMBOLE.FON
Small Fonts (VGA res)=SMALLE.FON
Roman (Plotter)=ROMAN.FON
Script (Plotter)=SCRIPT.FON
Modern (Plotter)=MODERN.FON

[embedding]
SoundRec=Sound,Sound,SoundRec.exe,picture
Package=Package,Package,packager.exe,picture
PBrush=Paintbrush Picture,Paintbrush Picture,pbrush.exe,picture

[colors]
Background=192 192 192
AppWorkspace=255 255 255
Window=255 255 255
WindowText=0 0 0
Menu=255 255 255
MenuText=0 0 0
ActiveTitle=0 0 128
InactiveTitle=255 255 255
TitleText=255 255 255
ActiveBorder=192 192 192
InactiveBorder=192 192 192
WindowFrame=0 0 0
Scrollbar=192 192 192
ButtonFace=192 192 192
ButtonShadow=128 128 128
ButtonText=0 0 0
GrayText=128 128 128
Hilight=0 0 128
HilightText=255 255 255
InactiveTitleText=0 0 0
ButtonHilight=255 255 255

[PrinterPorts]
HP LaserJet III=HPPCL5A,LPT1:,15,45

[devices]
HP LaserJet III=HPPCL5A,LPT1:
";

/// SYSTEM.INI as Windows 3.1 Setup leaves it for the machine above.
pub const SYSTEM_INI: &str = "\
[boot]
shell=progman.exe
network.drv=
mouse.drv=mouse.drv
language.dll=
sound.drv=sound.drv
comm.drv=comm.drv
keyboard.drv=keyboard.drv
system.drv=system.drv
386grabber=vga.3gr
oemfonts.fon=vgaoem.fon
286grabber=vgacolor.2gr
fixedfon.fon=vgafix.fon
fonts.fon=vgasys.fon
display.drv=vga.drv
drivers=mmsystem.dll

[keyboard]
subtype=
type=4
keyboard.dll=
oemansi.bin=

[boot.description]
keyboard.typ=Enhanced 101 or 102 key US and Non US keyboards
mouse.drv=Microsoft, or IBM PS/2
network.drv=No Network Installed
language.dll=English (American)
system.drv=MS-DOS System
codepage=437
woafont.fon=English (437)
aspect=100,96,96
display.drv=VGA

[386Enh]
32BitDiskAccess=OFF
device=*int13
device=*wdctrl
mouse=*vmd
network=*dosnet,*vnetbios
ebios=*ebios
woafont=dosapp.fon
display=*vddvga
EGA80WOA.FON=EGA80WOA.FON
EGA40WOA.FON=EGA40WOA.FON
CGA80WOA.FON=CGA80WOA.FON
CGA40WOA.FON=CGA40WOA.FON
keyboard=*vkd
device=vtdapi.386
device=*vpicd
device=*vtd
device=*reboot
device=*vdmad
device=*vsd
device=*v86mmgr
device=*pageswap
device=*dosmgr
device=*vmpoll
device=*wshell
device=*BLOCKDEV
device=*PAGEFILE
device=*vfd
device=*parity
device=*biosxlat
device=*vcd
device=*vmcpd
device=*combuff
device=*cdpscsi
local=CON
FileSysChange=off
PagingFile=C:\\WINDOWS\\WIN386.SWP

[standard]

[NonWindowsApp]
localtsrs=dosedit,ced

[mci]
WaveAudio=mciwave.drv
Sequencer=mciseq.drv
CDAudio=mcicda.drv

[drivers]
timer=timer.drv
midimapper=midimap.drv
";

/// CONTROL.INI: the current colour scheme and the ones Control Panel
/// offers first, the desktop patterns, and what is installed.
pub const CONTROL_INI: &str = "\
[current]
color schemes=Windows Default

[color schemes]
Windows Default=C0C0C0,FFFFFF,FFFFFF,0,FFFFFF,0,800000,C0C0C0,FFFFFF,C0C0C0,C0C0C0,0,808080,C0C0C0,808080,0,808080,800000,FFFFFF,0,FFFFFF

[Patterns]
(None)=(None)
Boxes=127 65 65 65 65 65 127 0
Paisley=2 7 7 2 32 80 80 32
Weave=136 84 34 69 136 21 34 81
Waffle=0 0 0 0 128 128 128 240
Tulip=0 0 84 124 124 56 146 124
Spinner=20 12 200 121 158 19 48 40
Scottie=64 192 200 120 120 72 0 0
Critters=0 80 114 32 0 5 39 2
50% Gray=170 85 170 85 170 85 170 85
Quilt=130 68 40 17 40 68 130 1
Diamonds=32 80 136 80 32 0 0 0
Thatches=248 116 34 71 143 23 34 113
Pattern=224 128 142 136 234 10 14 0

[installed]
3.1=yes

[drivers.desc]
timer.drv=Timer
midimap.drv=MIDI Mapper
";

/// PROGMAN.INI: Program Manager's settings (its groups are made when it
/// first runs).
pub const PROGMAN_INI: &str = "\
[Settings]
Window=60 28 565 388 1
display.drv=vga.drv
Order=
SaveSettings=1
MinOnRun=0
AutoArrange=1

[Groups]
";

/// The files of the layer: (path under the layer's root, contents), CR LF
/// line ends as Windows wrote them.
pub fn files() -> [(&'static str, &'static str); 4] {
    [
        ("WINDOWS/WIN.INI", WIN_INI),
        ("WINDOWS/SYSTEM.INI", SYSTEM_INI),
        ("WINDOWS/CONTROL.INI", CONTROL_INI),
        ("WINDOWS/PROGMAN.INI", PROGMAN_INI),
    ]
}

/// The directories of the layer.
pub const DIRS: [&str; 3] = ["WINDOWS", "WINDOWS/SYSTEM", "WINDOWS/TEMP"];

/// The most `--windows DIR` may bring in: bytes, entries, levels.
pub const MAX_USER_BYTES: u64 = 64 << 20;
pub const MAX_USER_ENTRIES: usize = 4096;
pub const MAX_USER_DEPTH: usize = 8;

/// Make the layer in `dir` (an empty private directory): the built-in
/// directories and files, then `user`'s files over them.
pub fn build(dir: &Path, user: Option<&Path>) -> io::Result<()> {
    for d in DIRS {
        fs::create_dir_all(dir.join(d))?;
    }
    for (name, text) in files() {
        fs::write(dir.join(name), text.replace('\n', "\r\n"))?;
    }
    if let Some(u) = user {
        let canon = fs::canonicalize(u)
            .map_err(|e| io::Error::new(e.kind(), format!("--windows {}: {e}", u.display())))?;
        if !canon.is_dir() {
            return Err(io::Error::other(format!(
                "--windows {}: not a directory",
                u.display()
            )));
        }
        let mut budget = (MAX_USER_BYTES, MAX_USER_ENTRIES);
        copy_over(&canon, &canon, &dir.join("WINDOWS"), 0, &mut budget)
            .map_err(|e| io::Error::new(e.kind(), format!("--windows {}: {e}", u.display())))?;
    }
    Ok(())
}

/// Copy the regular files and directories of `from` (inside `top`, the
/// user's directory: a link leading out of it is skipped) into `to`, each
/// replacing an entry of the same name in any case.
fn copy_over(
    top: &Path,
    from: &Path,
    to: &Path,
    depth: usize,
    budget: &mut (u64, usize),
) -> io::Result<()> {
    if depth > MAX_USER_DEPTH {
        return Err(io::Error::other(format!(
            "{}: directories nest more than {MAX_USER_DEPTH} deep",
            from.display()
        )));
    }
    let mut names: Vec<_> = fs::read_dir(from)?
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    names.sort();
    for name in names {
        let src = from.join(&name);
        let Ok(canon) = fs::canonicalize(&src) else {
            continue;
        };
        if !canon.starts_with(top) {
            continue;
        }
        let md = fs::metadata(&canon)?;
        if !(md.is_file() || md.is_dir()) {
            continue;
        }
        if budget.1 == 0 {
            return Err(io::Error::other(format!(
                "more than {MAX_USER_ENTRIES} files and directories"
            )));
        }
        budget.1 -= 1;
        // The entry of the same name (in any case) it replaces.
        let upper = name.to_string_lossy().to_ascii_uppercase();
        let mut dest = to.join(&name);
        for e in fs::read_dir(to)?.filter_map(Result::ok) {
            if e.file_name().to_string_lossy().to_ascii_uppercase() == upper {
                let p = e.path();
                match (md.is_dir(), p.is_dir()) {
                    (true, true) => dest = p,
                    (_, true) => fs::remove_dir_all(&p)?,
                    _ => fs::remove_file(&p)?,
                }
            }
        }
        if md.is_dir() {
            fs::create_dir_all(&dest)?;
            copy_over(top, &canon, &dest, depth + 1, budget)?;
        } else {
            if md.len() > budget.0 {
                return Err(io::Error::other(format!(
                    "more than {} MiB of files",
                    MAX_USER_BYTES >> 20
                )));
            }
            budget.0 -= md.len();
            fs::copy(&canon, &dest)?;
            if let Ok(t) = md.modified() {
                if let Ok(f) = fs::OpenOptions::new().write(true).open(&dest) {
                    let _ = f.set_modified(t);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_sections_of_keys() {
        for (name, text) in files() {
            let mut section = false;
            for line in text.lines() {
                if line.is_empty() || line.starts_with(';') {
                    continue;
                }
                if line.starts_with('[') {
                    assert!(line.ends_with(']'), "{name}: {line}");
                    section = true;
                } else {
                    assert!(section && line.contains('='), "{name}: {line}");
                }
            }
        }
    }

    #[test]
    fn the_user_directory_replaces_files_in_any_case() {
        let base = std::env::temp_dir().join(format!("th16-windir-{}", std::process::id()));
        let user = base.join("user");
        let layer = base.join("layer");
        fs::create_dir_all(user.join("system")).unwrap();
        fs::create_dir_all(&layer).unwrap();
        fs::write(user.join("win.ini"), "[windows]\r\nBeep=no\r\n").unwrap();
        fs::write(user.join("system").join("MY.DLL"), "MZ").unwrap();
        build(&layer, Some(&user)).unwrap();
        let names: Vec<String> = fs::read_dir(layer.join("WINDOWS"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.contains(&"win.ini".to_string()), "{names:?}");
        assert!(!names.contains(&"WIN.INI".to_string()), "{names:?}");
        assert!(names.contains(&"SYSTEM.INI".to_string()), "{names:?}");
        assert_eq!(
            fs::read(layer.join("WINDOWS/SYSTEM/MY.DLL")).unwrap(),
            b"MZ"
        );
        assert!(fs::read_dir(&user).unwrap().count() == 2);
        fs::remove_dir_all(&base).unwrap();
    }
}
