//! System metrics, system colours and system parameters: GetSystemMetrics,
//! GetSysColor, SetSysColors, SystemParametersInfo, the double-click time
//! and the mouse-button swap — Windows 3.1 on a VGA display (640×480, 16
//! colours) with WIN.INI's default settings.
//!
//! Where the numbers come from:
//! - WIN.INI's defaults, from the Windows 3.0/3.1 WININI.TXT documents (KB
//!   Q58327 "Windows 3.0 WIN.INI [windows] Section", Q83055 "WININI.WRI"):
//!   BorderWidth=3, CursorBlinkRate=530, Beep=yes, DoubleClickSpeed=452,
//!   KeyboardSpeed=31, KeyboardDelay=2, MouseThreshold1=6,
//!   MouseThreshold2=10, MouseSpeed=1, GridGranularity=0 ([desktop]),
//!   IconTitleWrap=1, MenuDropAlignment=0, CoolSwitch=1.
//! - The non-client metrics of the Windows 3.1 look, from Wine's tested
//!   notes (documentation/gui: "CYCAPTION = 20, includes both borders",
//!   "CYDLGFRAME = 4", "CYBORDER = 1", "CYMENU = 18, does not include any
//!   borders", "CYHSCROLL = 17, includes both borders") and its Windows 3.1
//!   metrics table (sysmetrics.c: the frame is BorderWidth + 1 — 4 with
//!   BorderWidth=3; the size boxes SM_CXSIZE are SM_CYCAPTION − 2; the
//!   scroll thumbs SM_CXVSCROLL − 1; SM_CXMIN 100 and SM_CYMIN 28; icon
//!   spacing 75; the double-click rectangle (4 + 1) & ~1).
//! - Microsoft's "System Metrics Differences" (Win32 SDK, for version 3.x
//!   applications): SM_CYCAPTION counts the border line under the title,
//!   SM_CYVSCROLL/SM_CYHSCROLL the border a scroll bar overlaps, SM_CYMENU
//!   not the line under the menu bar, and SM_CYFULLSCREEN is the screen
//!   height less SM_CYCAPTION (460).
//! - The default colours: the "Windows Default" colour scheme of Windows
//!   3.1's CONTROL.INI for 16-colour displays (the scheme string lists
//!   Background, AppWorkspace, Window, WindowText, MenuBar, MenuText,
//!   ActiveTitle, InactiveTitle, ActiveTitleText, ActiveBorder,
//!   InactiveBorder, WindowFrame, Scrollbars, ButtonFace, ButtonShadow,
//!   ButtonText, DisabledText, Highlight, HighlightText, InactiveTitleText,
//!   ButtonHilight as BBGGRR): C0C0C0, FFFFFF, FFFFFF, 0, FFFFFF, 0,
//!   800000, FFFFFF, FFFFFF, C0C0C0, C0C0C0, 0, C0C0C0, C0C0C0, 808080, 0,
//!   808080, 800000, FFFFFF, 0, FFFFFF.

use super::{WM_SYSCOLORCHANGE, event, top_level_windows};
use crate::machine::{Cpu, Stop, Uc};
use crate::win16::Env;
use crate::win16::api::{Api, Arg};
use crate::win16::farptr::split;

/// The emulated screen.
pub const SCREEN: (i16, i16) = (640, 480);

pub const SM_CXSCREEN: u16 = 0;
pub const SM_CYSCREEN: u16 = 1;
pub const SM_CXVSCROLL: u16 = 2;
pub const SM_CYHSCROLL: u16 = 3;
pub const SM_CYCAPTION: u16 = 4;
pub const SM_CXBORDER: u16 = 5;
pub const SM_CYBORDER: u16 = 6;
pub const SM_CXDLGFRAME: u16 = 7;
pub const SM_CYDLGFRAME: u16 = 8;
pub const SM_CYVTHUMB: u16 = 9;
pub const SM_CXHTHUMB: u16 = 10;
pub const SM_CXICON: u16 = 11;
pub const SM_CYICON: u16 = 12;
pub const SM_CXCURSOR: u16 = 13;
pub const SM_CYCURSOR: u16 = 14;
pub const SM_CYMENU: u16 = 15;
pub const SM_CXFULLSCREEN: u16 = 16;
pub const SM_CYFULLSCREEN: u16 = 17;
pub const SM_CYKANJIWINDOW: u16 = 18;
pub const SM_MOUSEPRESENT: u16 = 19;
pub const SM_CYVSCROLL: u16 = 20;
pub const SM_CXHSCROLL: u16 = 21;
pub const SM_DEBUG: u16 = 22;
pub const SM_SWAPBUTTON: u16 = 23;
pub const SM_CXMIN: u16 = 28;
pub const SM_CYMIN: u16 = 29;
pub const SM_CXSIZE: u16 = 30;
pub const SM_CYSIZE: u16 = 31;
pub const SM_CXFRAME: u16 = 32;
pub const SM_CYFRAME: u16 = 33;
pub const SM_CXMINTRACK: u16 = 34;
pub const SM_CYMINTRACK: u16 = 35;
pub const SM_CXDOUBLECLK: u16 = 36;
pub const SM_CYDOUBLECLK: u16 = 37;
pub const SM_CXICONSPACING: u16 = 38;
pub const SM_CYICONSPACING: u16 = 39;
pub const SM_MENUDROPALIGNMENT: u16 = 40;
pub const SM_PENWINDOWS: u16 = 41;
pub const SM_DBCSENABLED: u16 = 42;

/// Every metric of Windows 3.1 (indices 0..=42; SM_RESERVED1..4 are 24..27)
/// with its VGA value (module doc). SM_SWAPBUTTON is the live setting.
const METRICS: [i16; 43] = [
    640, // SM_CXSCREEN
    480, // SM_CYSCREEN
    17,  // SM_CXVSCROLL
    17,  // SM_CYHSCROLL
    20,  // SM_CYCAPTION
    1,   // SM_CXBORDER
    1,   // SM_CYBORDER
    4,   // SM_CXDLGFRAME
    4,   // SM_CYDLGFRAME
    16,  // SM_CYVTHUMB
    16,  // SM_CXHTHUMB
    32,  // SM_CXICON
    32,  // SM_CYICON
    32,  // SM_CXCURSOR
    32,  // SM_CYCURSOR
    18,  // SM_CYMENU
    640, // SM_CXFULLSCREEN
    460, // SM_CYFULLSCREEN
    0,   // SM_CYKANJIWINDOW
    1,   // SM_MOUSEPRESENT
    17,  // SM_CYVSCROLL
    17,  // SM_CXHSCROLL
    0,   // SM_DEBUG
    0,   // SM_SWAPBUTTON
    0,   // SM_RESERVED1
    0,   // SM_RESERVED2
    0,   // SM_RESERVED3
    0,   // SM_RESERVED4
    100, // SM_CXMIN
    28,  // SM_CYMIN
    18,  // SM_CXSIZE
    18,  // SM_CYSIZE
    4,   // SM_CXFRAME
    4,   // SM_CYFRAME
    100, // SM_CXMINTRACK
    28,  // SM_CYMINTRACK
    4,   // SM_CXDOUBLECLK
    4,   // SM_CYDOUBLECLK
    75,  // SM_CXICONSPACING
    75,  // SM_CYICONSPACING
    0,   // SM_MENUDROPALIGNMENT
    0,   // SM_PENWINDOWS
    0,   // SM_DBCSENABLED
];

/// A system metric (0 for an index Windows 3.1 does not have).
pub fn metric(env: &Env, index: u16) -> i32 {
    match index {
        SM_SWAPBUTTON => i32::from(env.win16.user.sys.swap_buttons),
        // The screen follows `--display`.
        SM_CXSCREEN | SM_CXFULLSCREEN => env.win16.user.screen().width(),
        SM_CYSCREEN => env.win16.user.screen().height(),
        SM_CYFULLSCREEN => env.win16.user.screen().height() - fixed(SM_CYCAPTION),
        SM_MENUDROPALIGNMENT => i32::from(env.win16.user.sys.menu_drop_alignment),
        SM_CXICONSPACING => i32::from(env.win16.user.sys.icon_spacing.0),
        SM_CYICONSPACING => i32::from(env.win16.user.sys.icon_spacing.1),
        _ => METRICS.get(usize::from(index)).map_or(0, |&v| i32::from(v)),
    }
}

/// A metric of the fixed table, for the geometry code (no setting changes
/// it).
pub const fn fixed(index: u16) -> i32 {
    METRICS[index as usize] as i32
}

/// COLOR_BACKGROUND: the desktop.
pub const COLOR_BACKGROUND: u16 = 1;

/// The number of system colours (COLOR_SCROLLBAR 0 .. COLOR_BTNHIGHLIGHT
/// 20).
pub const NUM_COLORS: usize = 21;

/// The default colours by COLOR_ index, as COLORREF (0x00BBGGRR; module
/// doc).
pub const DEFAULT_COLORS: [u32; NUM_COLORS] = [
    0xC0C0C0, // COLOR_SCROLLBAR
    0xC0C0C0, // COLOR_BACKGROUND
    0x800000, // COLOR_ACTIVECAPTION
    0xFFFFFF, // COLOR_INACTIVECAPTION
    0xFFFFFF, // COLOR_MENU
    0xFFFFFF, // COLOR_WINDOW
    0x000000, // COLOR_WINDOWFRAME
    0x000000, // COLOR_MENUTEXT
    0x000000, // COLOR_WINDOWTEXT
    0xFFFFFF, // COLOR_CAPTIONTEXT
    0xC0C0C0, // COLOR_ACTIVEBORDER
    0xC0C0C0, // COLOR_INACTIVEBORDER
    0xFFFFFF, // COLOR_APPWORKSPACE
    0x800000, // COLOR_HIGHLIGHT
    0xFFFFFF, // COLOR_HIGHLIGHTTEXT
    0xC0C0C0, // COLOR_BTNFACE
    0x808080, // COLOR_BTNSHADOW
    0x808080, // COLOR_GRAYTEXT
    0x000000, // COLOR_BTNTEXT
    0x000000, // COLOR_INACTIVECAPTIONTEXT
    0xFFFFFF, // COLOR_BTNHIGHLIGHT
];

/// The settings SystemParametersInfo and its relatives read and change.
#[derive(Debug, Clone)]
pub struct SysParams {
    pub colors: [u32; NUM_COLORS],
    pub beep: bool,
    /// MouseThreshold1, MouseThreshold2, MouseSpeed.
    pub mouse: [u16; 3],
    pub border: u16,
    pub keyboard_speed: u16,
    pub keyboard_delay: u16,
    pub screen_save_timeout: u16,
    pub screen_save_active: bool,
    pub grid_granularity: u16,
    pub icon_spacing: (u16, u16),
    pub icon_title_wrap: bool,
    pub menu_drop_alignment: u16,
    pub fast_task_switch: bool,
    pub double_click_ms: u16,
    pub double_click_size: (u16, u16),
    pub swap_buttons: bool,
    pub caret_blink_ms: u16,
    /// EnableHardwareInput(FALSE) was called.
    pub input_disabled: bool,
}

impl Default for SysParams {
    fn default() -> SysParams {
        SysParams {
            colors: DEFAULT_COLORS,
            beep: true,
            mouse: [6, 10, 1],
            border: 3,
            keyboard_speed: 31,
            keyboard_delay: 2,
            screen_save_timeout: 120,
            screen_save_active: false,
            grid_granularity: 0,
            icon_spacing: (75, 75),
            icon_title_wrap: true,
            menu_drop_alignment: 0,
            fast_task_switch: true,
            double_click_ms: 452,
            double_click_size: (4, 4),
            swap_buttons: false,
            caret_blink_ms: 530,
            input_disabled: false,
        }
    }
}

/// USER.179 GetSystemMetrics(nIndex).
pub(crate) fn get_system_metrics(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(metric(env, a[0] as u16) as u16))
}

/// USER.180 GetSysColor(nIndex) -> COLORREF (0 for an unknown index).
fn get_sys_color(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    Ok(env
        .win16
        .user
        .sys
        .colors
        .get(a[0] as u16 as usize)
        .copied()
        .unwrap_or(0))
}

/// USER.181 SetSysColors(cDspElements, lpnDspElements, lpdwRgbValues):
/// the colours change, every top-level window gets WM_SYSCOLORCHANGE and
/// every window is repainted (SDK, SetSysColors).
fn set_sys_colors(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let n = (a[0] as u16).min(NUM_COLORS as u16 * 4);
    let (is, io) = split(a[1]);
    let (vs, vo) = split(a[2]);
    let mut changed = false;
    for i in 0..n {
        let idx = uc.read_u16_at(is, io.wrapping_add(i * 2)).unwrap_or(0xFFFF);
        let lo = uc.read_u16_at(vs, vo.wrapping_add(i * 4)).unwrap_or(0);
        let hi = uc.read_u16_at(vs, vo.wrapping_add(i * 4 + 2)).unwrap_or(0);
        if let Some(c) = env.win16.user.sys.colors.get_mut(usize::from(idx)) {
            *c = (u32::from(hi) << 16 | u32::from(lo)) & 0x00FF_FFFF;
            changed = true;
            // GDI paints `COLOR_x + 1` brushes with these (gdi/dc.rs).
            if let Some(g) = env.win16.gdi.sys_colors.get_mut(usize::from(idx)) {
                *g = *c;
            }
        }
    }
    if changed {
        event(uc, format!("system colours changed ({n})"));
        for h in top_level_windows(env) {
            super::send(env, uc, h, WM_SYSCOLORCHANGE, 0, 0)?;
        }
        super::paint::invalidate_all(env);
    }
    Ok(0)
}

/// USER.21 GetDoubleClickTime().
fn get_double_click_time(env: &mut Env, _uc: &mut Uc<'_>, _a: &[u32]) -> Result<u32, Stop> {
    Ok(u32::from(env.win16.user.sys.double_click_ms))
}

/// USER.20 SetDoubleClickTime(wCount): 0 restores the default of 500 ms
/// (SDK, SetDoubleClickTime).
fn set_double_click_time(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let ms = a[0] as u16;
    env.win16.user.sys.double_click_ms = if ms == 0 { 500 } else { ms };
    Ok(0)
}

/// USER.186 SwapMouseButton(bSwap) -> whether they were swapped before.
fn swap_mouse_button(env: &mut Env, _uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let s = &mut env.win16.user.sys;
    let was = s.swap_buttons;
    s.swap_buttons = a[0] as u16 != 0;
    Ok(u32::from(was))
}

/// SystemParametersInfo's actions (SDK, SystemParametersInfo).
const SPI_GETBEEP: u16 = 1;
const SPI_SETBEEP: u16 = 2;
const SPI_GETMOUSE: u16 = 3;
const SPI_SETMOUSE: u16 = 4;
const SPI_GETBORDER: u16 = 5;
const SPI_SETBORDER: u16 = 6;
const SPI_GETKEYBOARDSPEED: u16 = 10;
const SPI_SETKEYBOARDSPEED: u16 = 11;
const SPI_LANGDRIVER: u16 = 12;
const SPI_ICONHORIZONTALSPACING: u16 = 13;
const SPI_GETSCREENSAVETIMEOUT: u16 = 14;
const SPI_SETSCREENSAVETIMEOUT: u16 = 15;
const SPI_GETSCREENSAVEACTIVE: u16 = 16;
const SPI_SETSCREENSAVEACTIVE: u16 = 17;
const SPI_GETGRIDGRANULARITY: u16 = 18;
const SPI_SETGRIDGRANULARITY: u16 = 19;
const SPI_SETDESKWALLPAPER: u16 = 20;
const SPI_SETDESKPATTERN: u16 = 21;
const SPI_GETKEYBOARDDELAY: u16 = 22;
const SPI_SETKEYBOARDDELAY: u16 = 23;
const SPI_ICONVERTICALSPACING: u16 = 24;
const SPI_GETICONTITLEWRAP: u16 = 25;
const SPI_SETICONTITLEWRAP: u16 = 26;
const SPI_GETMENUDROPALIGNMENT: u16 = 27;
const SPI_SETMENUDROPALIGNMENT: u16 = 28;
const SPI_SETDOUBLECLKWIDTH: u16 = 29;
const SPI_SETDOUBLECLKHEIGHT: u16 = 30;
const SPI_GETICONTITLELOGFONT: u16 = 31;
const SPI_SETDOUBLECLICKTIME: u16 = 32;
const SPI_SETMOUSEBUTTONSWAP: u16 = 33;
const SPI_SETICONTITLELOGFONT: u16 = 34;
const SPI_GETFASTTASKSWITCH: u16 = 35;
const SPI_SETFASTTASKSWITCH: u16 = 36;

/// The icon-title font: MS Sans Serif, 8 points at 96 dots per inch (WIN.INI
/// IconTitleFaceName and IconTitleSize) as a LOGFONT (50 bytes).
fn icon_title_logfont() -> [u8; 50] {
    let mut lf = [0u8; 50];
    // lfHeight = -MulDiv(8, 96, 72) = -11; lfWeight FW_NORMAL (400).
    lf[0..2].copy_from_slice(&(-11i16).to_le_bytes());
    lf[8..10].copy_from_slice(&400u16.to_le_bytes());
    // lfPitchAndFamily: VARIABLE_PITCH | FF_SWISS.
    lf[17] = 0x22;
    lf[18..18 + 13].copy_from_slice(b"MS Sans Serif");
    lf
}

/// USER.483 SystemParametersInfo(uAction, uParam, lpvParam, fuWinIni) ->
/// BOOL: reads or changes one of the settings above; FALSE for an action
/// Windows 3.1 does not know.
fn system_parameters_info(env: &mut Env, uc: &mut Uc<'_>, a: &[u32]) -> Result<u32, Stop> {
    let (action, param, ptr) = (a[0] as u16, a[1] as u16, a[2]);
    let (seg, off) = split(ptr);
    let put16 =
        |uc: &mut Uc<'_>, i: u16, v: u16| uc.write_u16_at(seg, off.wrapping_add(i * 2), v).is_ok();
    let s = &mut env.win16.user.sys;
    let ok = match action {
        SPI_GETBEEP => put16(uc, 0, u16::from(s.beep)),
        SPI_SETBEEP => {
            s.beep = param != 0;
            true
        }
        SPI_GETMOUSE => (0..3).all(|i| put16(uc, i, s.mouse[usize::from(i)])),
        SPI_SETMOUSE => {
            for i in 0..3u16 {
                s.mouse[usize::from(i)] = uc.read_u16_at(seg, off.wrapping_add(i * 2)).unwrap_or(0);
            }
            true
        }
        SPI_GETBORDER => put16(uc, 0, s.border),
        SPI_SETBORDER => {
            s.border = param.clamp(1, 49);
            true
        }
        SPI_GETKEYBOARDSPEED => put16(uc, 0, s.keyboard_speed),
        SPI_SETKEYBOARDSPEED => {
            s.keyboard_speed = param.min(31);
            true
        }
        SPI_LANGDRIVER => true,
        SPI_ICONHORIZONTALSPACING => {
            if ptr != 0 {
                put16(uc, 0, s.icon_spacing.0)
            } else {
                s.icon_spacing.0 = param.max(32);
                true
            }
        }
        SPI_ICONVERTICALSPACING => {
            if ptr != 0 {
                put16(uc, 0, s.icon_spacing.1)
            } else {
                s.icon_spacing.1 = param.max(32);
                true
            }
        }
        SPI_GETSCREENSAVETIMEOUT => put16(uc, 0, s.screen_save_timeout),
        SPI_SETSCREENSAVETIMEOUT => {
            s.screen_save_timeout = param;
            true
        }
        SPI_GETSCREENSAVEACTIVE => put16(uc, 0, u16::from(s.screen_save_active)),
        SPI_SETSCREENSAVEACTIVE => {
            s.screen_save_active = param != 0;
            true
        }
        SPI_GETGRIDGRANULARITY => put16(uc, 0, s.grid_granularity),
        SPI_SETGRIDGRANULARITY => {
            s.grid_granularity = param;
            true
        }
        SPI_SETDESKWALLPAPER | SPI_SETDESKPATTERN => true,
        SPI_GETKEYBOARDDELAY => put16(uc, 0, s.keyboard_delay),
        SPI_SETKEYBOARDDELAY => {
            s.keyboard_delay = param.min(3);
            true
        }
        SPI_GETICONTITLEWRAP => put16(uc, 0, u16::from(s.icon_title_wrap)),
        SPI_SETICONTITLEWRAP => {
            s.icon_title_wrap = param != 0;
            true
        }
        SPI_GETMENUDROPALIGNMENT => put16(uc, 0, s.menu_drop_alignment),
        SPI_SETMENUDROPALIGNMENT => {
            s.menu_drop_alignment = u16::from(param != 0);
            true
        }
        SPI_SETDOUBLECLKWIDTH => {
            s.double_click_size.0 = param;
            true
        }
        SPI_SETDOUBLECLKHEIGHT => {
            s.double_click_size.1 = param;
            true
        }
        SPI_GETICONTITLELOGFONT => uc.write_seg(seg, off, &icon_title_logfont()).is_ok(),
        SPI_SETICONTITLELOGFONT => true,
        SPI_SETDOUBLECLICKTIME => {
            s.double_click_ms = if param == 0 { 500 } else { param };
            true
        }
        SPI_SETMOUSEBUTTONSWAP => {
            s.swap_buttons = param != 0;
            true
        }
        SPI_GETFASTTASKSWITCH => put16(uc, 0, u16::from(s.fast_task_switch)),
        SPI_SETFASTTASKSWITCH => {
            s.fast_task_switch = param != 0;
            true
        }
        _ => false,
    };
    Ok(u32::from(ok))
}

/// The functions this file implements.
pub static APIS: &[Api] = &[
    Api::new(
        "USER",
        20,
        "SETDOUBLECLICKTIME",
        &[Arg::W],
        set_double_click_time,
    ),
    Api::new("USER", 21, "GETDOUBLECLICKTIME", &[], get_double_click_time),
    Api::new(
        "USER",
        179,
        "GETSYSTEMMETRICS",
        &[Arg::W],
        get_system_metrics,
    ),
    Api::new("USER", 180, "GETSYSCOLOR", &[Arg::W], get_sys_color),
    Api::new(
        "USER",
        181,
        "SETSYSCOLORS",
        &[Arg::W, Arg::L, Arg::L],
        set_sys_colors,
    ),
    Api::new("USER", 186, "SWAPMOUSEBUTTON", &[Arg::W], swap_mouse_button),
    Api::new(
        "USER",
        483,
        "SYSTEMPARAMETERSINFO",
        &[Arg::W, Arg::W, Arg::L, Arg::W],
        system_parameters_info,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vga_metrics_of_windows_3_1() {
        let env = Env::new(false);
        let m = |i| metric(&env, i);
        assert_eq!((m(SM_CXSCREEN), m(SM_CYSCREEN)), (640, 480));
        assert_eq!(m(SM_CYCAPTION), 20);
        assert_eq!((m(SM_CXFRAME), m(SM_CYFRAME)), (4, 4));
        assert_eq!((m(SM_CXDLGFRAME), m(SM_CXBORDER)), (4, 1));
        assert_eq!((m(SM_CXVSCROLL), m(SM_CYHSCROLL)), (17, 17));
        assert_eq!(m(SM_CYMENU), 18);
        // The maximized client area plus the caption fills the screen.
        assert_eq!(m(SM_CYFULLSCREEN) + m(SM_CYCAPTION), 480);
        assert_eq!(m(SM_CXSIZE), m(SM_CYCAPTION) - 2);
        assert_eq!(m(SM_DBCSENABLED), 0);
        assert_eq!(m(43), 0);
        assert_eq!(m(0xFFFF), 0);
    }

    #[test]
    fn default_colour_scheme() {
        // COLORREF is 0x00BBGGRR: the active caption is RGB(0, 0, 128).
        assert_eq!(DEFAULT_COLORS[2], 0x0080_0000);
        assert_eq!(DEFAULT_COLORS[5], 0x00FF_FFFF);
        assert_eq!(DEFAULT_COLORS[16], 0x0080_8080);
    }

    #[test]
    fn table_is_registered() {
        assert!(crate::win16::api::is_registered(APIS));
    }
}
