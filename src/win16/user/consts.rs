//! USER's numbers: window messages, styles, SetWindowPos and ShowWindow
//! flags, hit-test codes, system commands, indices of Get/SetWindowWord and
//! Get/SetClassWord, RedrawWindow flags, virtual keys, clipboard formats,
//! hook types. The values are WINDOWS.H's of the Windows 3.1 SDK.

// --------------------------------------------------------------- messages
pub const WM_NULL: u16 = 0x0000;
pub const WM_CREATE: u16 = 0x0001;
pub const WM_DESTROY: u16 = 0x0002;
pub const WM_MOVE: u16 = 0x0003;
pub const WM_SIZE: u16 = 0x0005;
pub const WM_ACTIVATE: u16 = 0x0006;
pub const WM_SETFOCUS: u16 = 0x0007;
pub const WM_KILLFOCUS: u16 = 0x0008;
pub const WM_ENABLE: u16 = 0x000A;
pub const WM_SETREDRAW: u16 = 0x000B;
pub const WM_SETTEXT: u16 = 0x000C;
pub const WM_GETTEXT: u16 = 0x000D;
pub const WM_GETTEXTLENGTH: u16 = 0x000E;
pub const WM_PAINT: u16 = 0x000F;
pub const WM_CLOSE: u16 = 0x0010;
pub const WM_QUERYENDSESSION: u16 = 0x0011;
pub const WM_QUIT: u16 = 0x0012;
pub const WM_QUERYOPEN: u16 = 0x0013;
pub const WM_ERASEBKGND: u16 = 0x0014;
pub const WM_SYSCOLORCHANGE: u16 = 0x0015;
pub const WM_ENDSESSION: u16 = 0x0016;
pub const WM_SHOWWINDOW: u16 = 0x0018;
pub const WM_CTLCOLOR: u16 = 0x0019;
pub const WM_WININICHANGE: u16 = 0x001A;
pub const WM_ACTIVATEAPP: u16 = 0x001C;
pub const WM_CANCELMODE: u16 = 0x001F;
pub const WM_SETCURSOR: u16 = 0x0020;
pub const WM_MOUSEACTIVATE: u16 = 0x0021;
pub const WM_CHILDACTIVATE: u16 = 0x0022;
pub const WM_GETMINMAXINFO: u16 = 0x0024;
pub const WM_PAINTICON: u16 = 0x0026;
pub const WM_ICONERASEBKGND: u16 = 0x0027;
pub const WM_NEXTDLGCTL: u16 = 0x0028;
pub const WM_DRAWITEM: u16 = 0x002B;
pub const WM_MEASUREITEM: u16 = 0x002C;
pub const WM_DELETEITEM: u16 = 0x002D;
pub const WM_VKEYTOITEM: u16 = 0x002E;
pub const WM_CHARTOITEM: u16 = 0x002F;
pub const WM_SETFONT: u16 = 0x0030;
pub const WM_GETFONT: u16 = 0x0031;
pub const WM_QUERYDRAGICON: u16 = 0x0037;
pub const WM_COMPAREITEM: u16 = 0x0039;
pub const WM_WINDOWPOSCHANGING: u16 = 0x0046;
pub const WM_WINDOWPOSCHANGED: u16 = 0x0047;
pub const WM_NCCREATE: u16 = 0x0081;
pub const WM_NCDESTROY: u16 = 0x0082;
pub const WM_NCCALCSIZE: u16 = 0x0083;
pub const WM_NCHITTEST: u16 = 0x0084;
pub const WM_NCPAINT: u16 = 0x0085;
pub const WM_NCACTIVATE: u16 = 0x0086;
pub const WM_GETDLGCODE: u16 = 0x0087;
pub const WM_NCMOUSEMOVE: u16 = 0x00A0;
pub const WM_NCLBUTTONDOWN: u16 = 0x00A1;
pub const WM_NCLBUTTONUP: u16 = 0x00A2;
pub const WM_NCLBUTTONDBLCLK: u16 = 0x00A3;
pub const WM_NCRBUTTONDOWN: u16 = 0x00A4;
pub const WM_NCRBUTTONUP: u16 = 0x00A5;
pub const WM_KEYDOWN: u16 = 0x0100;
pub const WM_KEYUP: u16 = 0x0101;
pub const WM_CHAR: u16 = 0x0102;
pub const WM_DEADCHAR: u16 = 0x0103;
pub const WM_SYSKEYDOWN: u16 = 0x0104;
pub const WM_SYSKEYUP: u16 = 0x0105;
pub const WM_SYSCHAR: u16 = 0x0106;
pub const WM_SYSDEADCHAR: u16 = 0x0107;
pub const WM_INITDIALOG: u16 = 0x0110;
pub const WM_COMMAND: u16 = 0x0111;
pub const WM_SYSCOMMAND: u16 = 0x0112;
pub const WM_TIMER: u16 = 0x0113;
pub const WM_HSCROLL: u16 = 0x0114;
pub const WM_VSCROLL: u16 = 0x0115;
pub const WM_INITMENU: u16 = 0x0116;
pub const WM_INITMENUPOPUP: u16 = 0x0117;
pub const WM_MENUSELECT: u16 = 0x011F;
pub const WM_MENUCHAR: u16 = 0x0120;
pub const WM_ENTERIDLE: u16 = 0x0121;
pub const WM_MOUSEMOVE: u16 = 0x0200;
pub const WM_LBUTTONDOWN: u16 = 0x0201;
pub const WM_LBUTTONUP: u16 = 0x0202;
pub const WM_LBUTTONDBLCLK: u16 = 0x0203;
pub const WM_RBUTTONDOWN: u16 = 0x0204;
pub const WM_RBUTTONUP: u16 = 0x0205;
pub const WM_RBUTTONDBLCLK: u16 = 0x0206;
pub const WM_MBUTTONDOWN: u16 = 0x0207;
pub const WM_MBUTTONUP: u16 = 0x0208;
pub const WM_MBUTTONDBLCLK: u16 = 0x0209;
pub const WM_PARENTNOTIFY: u16 = 0x0210;
pub const WM_MDICREATE: u16 = 0x0220;
pub const WM_MDIDESTROY: u16 = 0x0221;
pub const WM_MDIACTIVATE: u16 = 0x0222;
pub const WM_MDIRESTORE: u16 = 0x0223;
pub const WM_MDINEXT: u16 = 0x0224;
pub const WM_MDIMAXIMIZE: u16 = 0x0225;
pub const WM_MDITILE: u16 = 0x0226;
pub const WM_MDICASCADE: u16 = 0x0227;
pub const WM_MDIICONARRANGE: u16 = 0x0228;
pub const WM_MDIGETACTIVE: u16 = 0x0229;
pub const WM_MDISETMENU: u16 = 0x0230;
pub const WM_DROPFILES: u16 = 0x0233;
pub const WM_CUT: u16 = 0x0300;
pub const WM_COPY: u16 = 0x0301;
pub const WM_PASTE: u16 = 0x0302;
pub const WM_CLEAR: u16 = 0x0303;
pub const WM_UNDO: u16 = 0x0304;
pub const WM_RENDERFORMAT: u16 = 0x0305;
pub const WM_RENDERALLFORMATS: u16 = 0x0306;
pub const WM_DESTROYCLIPBOARD: u16 = 0x0307;
pub const WM_DRAWCLIPBOARD: u16 = 0x0308;
pub const WM_CHANGECBCHAIN: u16 = 0x030D;
pub const WM_QUERYNEWPALETTE: u16 = 0x030F;
pub const WM_PALETTEISCHANGING: u16 = 0x0310;
pub const WM_PALETTECHANGED: u16 = 0x0311;
pub const WM_USER: u16 = 0x0400;

// ---------------------------------------------------------------- styles
pub const WS_POPUP: u32 = 0x8000_0000;
pub const WS_CHILD: u32 = 0x4000_0000;
pub const WS_MINIMIZE: u32 = 0x2000_0000;
pub const WS_VISIBLE: u32 = 0x1000_0000;
pub const WS_DISABLED: u32 = 0x0800_0000;
pub const WS_CLIPSIBLINGS: u32 = 0x0400_0000;
pub const WS_CLIPCHILDREN: u32 = 0x0200_0000;
pub const WS_MAXIMIZE: u32 = 0x0100_0000;
pub const WS_CAPTION: u32 = 0x00C0_0000;
pub const WS_BORDER: u32 = 0x0080_0000;
pub const WS_DLGFRAME: u32 = 0x0040_0000;
pub const WS_VSCROLL: u32 = 0x0020_0000;
pub const WS_HSCROLL: u32 = 0x0010_0000;
pub const WS_SYSMENU: u32 = 0x0008_0000;
pub const WS_THICKFRAME: u32 = 0x0004_0000;
pub const WS_MINIMIZEBOX: u32 = 0x0002_0000;
pub const WS_MAXIMIZEBOX: u32 = 0x0001_0000;

pub const WS_EX_DLGMODALFRAME: u32 = 0x0001;
pub const WS_EX_NOPARENTNOTIFY: u32 = 0x0004;
pub const WS_EX_TOPMOST: u32 = 0x0008;
pub const WS_EX_ACCEPTFILES: u32 = 0x0010;

pub const CS_VREDRAW: u16 = 0x0001;
pub const CS_HREDRAW: u16 = 0x0002;
pub const CS_DBLCLKS: u16 = 0x0008;
pub const CS_OWNDC: u16 = 0x0020;
pub const CS_CLASSDC: u16 = 0x0040;
pub const CS_PARENTDC: u16 = 0x0080;
pub const CS_NOCLOSE: u16 = 0x0200;
pub const CS_GLOBALCLASS: u16 = 0x4000;

pub const CW_USEDEFAULT: u16 = 0x8000;

// ------------------------------------------------------ SetWindowPos etc.
pub const SWP_NOSIZE: u16 = 0x0001;
pub const SWP_NOMOVE: u16 = 0x0002;
pub const SWP_NOZORDER: u16 = 0x0004;
pub const SWP_NOREDRAW: u16 = 0x0008;
pub const SWP_NOACTIVATE: u16 = 0x0010;
pub const SWP_FRAMECHANGED: u16 = 0x0020;
pub const SWP_SHOWWINDOW: u16 = 0x0040;
pub const SWP_HIDEWINDOW: u16 = 0x0080;
pub const SWP_NOCOPYBITS: u16 = 0x0100;
pub const SWP_NOOWNERZORDER: u16 = 0x0200;

pub const HWND_TOP: u16 = 0;
pub const HWND_BOTTOM: u16 = 1;
pub const HWND_TOPMOST: u16 = 0xFFFF;
pub const HWND_NOTOPMOST: u16 = 0xFFFE;

pub const SW_HIDE: u16 = 0;
pub const SW_SHOWNORMAL: u16 = 1;
pub const SW_SHOWMINIMIZED: u16 = 2;
pub const SW_SHOWMAXIMIZED: u16 = 3;
pub const SW_SHOWNOACTIVATE: u16 = 4;
pub const SW_SHOW: u16 = 5;
pub const SW_MINIMIZE: u16 = 6;
pub const SW_SHOWMINNOACTIVE: u16 = 7;
pub const SW_SHOWNA: u16 = 8;
pub const SW_RESTORE: u16 = 9;

/// WM_SHOWWINDOW's lParam when an owner is minimized or restored.
pub const SW_PARENTCLOSING: u16 = 1;
pub const SW_PARENTOPENING: u16 = 3;

pub const SIZE_RESTORED: u16 = 0;
pub const SIZE_MINIMIZED: u16 = 1;
pub const SIZE_MAXIMIZED: u16 = 2;

// ------------------------------------------------------------- hit tests
pub const HTERROR: u16 = 0xFFFE;
pub const HTTRANSPARENT: u16 = 0xFFFF;
pub const HTNOWHERE: u16 = 0;
pub const HTCLIENT: u16 = 1;
pub const HTCAPTION: u16 = 2;
pub const HTSYSMENU: u16 = 3;
pub const HTGROWBOX: u16 = 4;
pub const HTMENU: u16 = 5;
pub const HTHSCROLL: u16 = 6;
pub const HTVSCROLL: u16 = 7;
pub const HTREDUCE: u16 = 8;
pub const HTZOOM: u16 = 9;
pub const HTLEFT: u16 = 10;
pub const HTRIGHT: u16 = 11;
pub const HTTOP: u16 = 12;
pub const HTTOPLEFT: u16 = 13;
pub const HTTOPRIGHT: u16 = 14;
pub const HTBOTTOM: u16 = 15;
pub const HTBOTTOMLEFT: u16 = 16;
pub const HTBOTTOMRIGHT: u16 = 17;
pub const HTBORDER: u16 = 18;

// ------------------------------------------------------- system commands
pub const SC_SIZE: u16 = 0xF000;
pub const SC_MOVE: u16 = 0xF010;
pub const SC_MINIMIZE: u16 = 0xF020;
pub const SC_MAXIMIZE: u16 = 0xF030;
pub const SC_NEXTWINDOW: u16 = 0xF040;
pub const SC_PREVWINDOW: u16 = 0xF050;
pub const SC_CLOSE: u16 = 0xF060;
pub const SC_VSCROLL: u16 = 0xF070;
pub const SC_HSCROLL: u16 = 0xF080;
pub const SC_MOUSEMENU: u16 = 0xF090;
pub const SC_KEYMENU: u16 = 0xF100;
pub const SC_ARRANGE: u16 = 0xF110;
pub const SC_RESTORE: u16 = 0xF120;
pub const SC_TASKLIST: u16 = 0xF130;
pub const SC_SCREENSAVE: u16 = 0xF140;

pub const WA_INACTIVE: u16 = 0;
pub const WA_ACTIVE: u16 = 1;
pub const WA_CLICKACTIVE: u16 = 2;

pub const MA_ACTIVATE: u16 = 1;
pub const MA_ACTIVATEANDEAT: u16 = 2;
pub const MA_NOACTIVATE: u16 = 3;

// ------------------------------------------------- window and class words
pub const GW_HWNDFIRST: u16 = 0;
pub const GW_HWNDLAST: u16 = 1;
pub const GW_HWNDNEXT: u16 = 2;
pub const GW_HWNDPREV: u16 = 3;
pub const GW_OWNER: u16 = 4;
pub const GW_CHILD: u16 = 5;

pub const GWW_HINSTANCE: i16 = -6;
pub const GWW_HWNDPARENT: i16 = -8;
pub const GWW_ID: i16 = -12;
pub const GWL_WNDPROC: i16 = -4;
pub const GWL_STYLE: i16 = -16;
pub const GWL_EXSTYLE: i16 = -20;

pub const GCW_HBRBACKGROUND: i16 = -10;
pub const GCW_HCURSOR: i16 = -12;
pub const GCW_HICON: i16 = -14;
pub const GCW_HMODULE: i16 = -16;
pub const GCW_CBWNDEXTRA: i16 = -18;
pub const GCW_CBCLSEXTRA: i16 = -20;
pub const GCL_WNDPROC: i16 = -24;
pub const GCW_STYLE: i16 = -26;
pub const GCW_ATOM: i16 = -32;
pub const GCL_MENUNAME: i16 = -8;

// ---------------------------------------------------------- RedrawWindow
pub const RDW_INVALIDATE: u16 = 0x0001;
pub const RDW_INTERNALPAINT: u16 = 0x0002;
pub const RDW_ERASE: u16 = 0x0004;
pub const RDW_VALIDATE: u16 = 0x0008;
pub const RDW_NOINTERNALPAINT: u16 = 0x0010;
pub const RDW_NOERASE: u16 = 0x0020;
pub const RDW_NOCHILDREN: u16 = 0x0040;
pub const RDW_ALLCHILDREN: u16 = 0x0080;
pub const RDW_UPDATENOW: u16 = 0x0100;
pub const RDW_ERASENOW: u16 = 0x0200;
pub const RDW_FRAME: u16 = 0x0400;
pub const RDW_NOFRAME: u16 = 0x0800;

// ------------------------------------------------------------ scroll bars
pub const SB_HORZ: u16 = 0;
pub const SB_VERT: u16 = 1;
pub const SB_CTL: u16 = 2;
pub const SB_BOTH: u16 = 3;

pub const SB_LINEUP: u16 = 0;
pub const SB_LINEDOWN: u16 = 1;
pub const SB_PAGEUP: u16 = 2;
pub const SB_PAGEDOWN: u16 = 3;
pub const SB_THUMBPOSITION: u16 = 4;
pub const SB_THUMBTRACK: u16 = 5;
pub const SB_TOP: u16 = 6;
pub const SB_BOTTOM: u16 = 7;
pub const SB_ENDSCROLL: u16 = 8;

// ------------------------------------------------------------------ input
pub const MK_LBUTTON: u16 = 0x0001;
pub const MK_RBUTTON: u16 = 0x0002;
pub const MK_SHIFT: u16 = 0x0004;
pub const MK_CONTROL: u16 = 0x0008;
pub const MK_MBUTTON: u16 = 0x0010;

pub const VK_LBUTTON: u16 = 0x01;
pub const VK_RBUTTON: u16 = 0x02;
pub const VK_MBUTTON: u16 = 0x04;
pub const VK_SHIFT: u16 = 0x10;
pub const VK_CONTROL: u16 = 0x11;
pub const VK_MENU: u16 = 0x12;
pub const VK_CAPITAL: u16 = 0x14;
pub const VK_ESCAPE: u16 = 0x1B;
pub const VK_SPACE: u16 = 0x20;
pub const VK_F4: u16 = 0x73;
pub const VK_F10: u16 = 0x79;
pub const VK_NUMLOCK: u16 = 0x90;
pub const VK_SCROLL: u16 = 0x91;

pub const QS_KEY: u16 = 0x0001;
pub const QS_MOUSEMOVE: u16 = 0x0002;
pub const QS_MOUSEBUTTON: u16 = 0x0004;
pub const QS_POSTMESSAGE: u16 = 0x0008;
pub const QS_TIMER: u16 = 0x0010;
pub const QS_PAINT: u16 = 0x0020;
pub const QS_SENDMESSAGE: u16 = 0x0040;

pub const PM_REMOVE: u16 = 0x0001;
pub const PM_NOYIELD: u16 = 0x0002;

// ------------------------------------------------------------- clipboard
pub const CF_TEXT: u16 = 1;
pub const CF_BITMAP: u16 = 2;
pub const CF_METAFILEPICT: u16 = 3;
pub const CF_OEMTEXT: u16 = 7;
pub const CF_PALETTE: u16 = 9;

// ------------------------------------------------------------------ hooks
pub const WH_MSGFILTER: i16 = -1;
pub const WH_JOURNALRECORD: i16 = 0;
pub const WH_JOURNALPLAYBACK: i16 = 1;
pub const WH_KEYBOARD: i16 = 2;
pub const WH_GETMESSAGE: i16 = 3;
pub const WH_CALLWNDPROC: i16 = 4;
pub const WH_CBT: i16 = 5;
pub const WH_SYSMSGFILTER: i16 = 6;
pub const WH_MOUSE: i16 = 7;
pub const WH_HARDWARE: i16 = 8;
pub const WH_DEBUG: i16 = 9;
pub const WH_SHELL: i16 = 10;

pub const HC_ACTION: u16 = 0;
pub const HC_NOREMOVE: u16 = 3;

pub const HCBT_MOVESIZE: u16 = 0;
pub const HCBT_MINMAX: u16 = 1;
pub const HCBT_CREATEWND: u16 = 3;
pub const HCBT_DESTROYWND: u16 = 4;
pub const HCBT_ACTIVATE: u16 = 5;
pub const HCBT_SYSCOMMAND: u16 = 8;
pub const HCBT_SETFOCUS: u16 = 9;

pub const HSHELL_WINDOWCREATED: u16 = 1;
pub const HSHELL_WINDOWDESTROYED: u16 = 2;

// ------------------------------------------------------ WM_CTLCOLOR types
pub const CTLCOLOR_MSGBOX: u16 = 0;
pub const CTLCOLOR_EDIT: u16 = 1;
pub const CTLCOLOR_LISTBOX: u16 = 2;
pub const CTLCOLOR_BTN: u16 = 3;
pub const CTLCOLOR_DLG: u16 = 4;
pub const CTLCOLOR_SCROLLBAR: u16 = 5;
pub const CTLCOLOR_STATIC: u16 = 6;

/// The name of a window message, or its number in hex.
pub fn message_name(msg: u16) -> String {
    match MESSAGE_NAMES.binary_search_by_key(&msg, |&(m, _)| m) {
        Ok(i) => MESSAGE_NAMES[i].1.to_string(),
        Err(_) if msg >= WM_USER => format!("WM_USER+{}", msg - WM_USER),
        Err(_) => format!("message {msg:04X}"),
    }
}

/// Message names by number, in order.
const MESSAGE_NAMES: &[(u16, &str)] = &[
    (WM_NULL, "WM_NULL"),
    (WM_CREATE, "WM_CREATE"),
    (WM_DESTROY, "WM_DESTROY"),
    (WM_MOVE, "WM_MOVE"),
    (WM_SIZE, "WM_SIZE"),
    (WM_ACTIVATE, "WM_ACTIVATE"),
    (WM_SETFOCUS, "WM_SETFOCUS"),
    (WM_KILLFOCUS, "WM_KILLFOCUS"),
    (WM_ENABLE, "WM_ENABLE"),
    (WM_SETREDRAW, "WM_SETREDRAW"),
    (WM_SETTEXT, "WM_SETTEXT"),
    (WM_GETTEXT, "WM_GETTEXT"),
    (WM_GETTEXTLENGTH, "WM_GETTEXTLENGTH"),
    (WM_PAINT, "WM_PAINT"),
    (WM_CLOSE, "WM_CLOSE"),
    (WM_QUERYENDSESSION, "WM_QUERYENDSESSION"),
    (WM_QUIT, "WM_QUIT"),
    (WM_QUERYOPEN, "WM_QUERYOPEN"),
    (WM_ERASEBKGND, "WM_ERASEBKGND"),
    (WM_SYSCOLORCHANGE, "WM_SYSCOLORCHANGE"),
    (WM_ENDSESSION, "WM_ENDSESSION"),
    (WM_SHOWWINDOW, "WM_SHOWWINDOW"),
    (WM_CTLCOLOR, "WM_CTLCOLOR"),
    (WM_WININICHANGE, "WM_WININICHANGE"),
    (WM_ACTIVATEAPP, "WM_ACTIVATEAPP"),
    (WM_CANCELMODE, "WM_CANCELMODE"),
    (WM_SETCURSOR, "WM_SETCURSOR"),
    (WM_MOUSEACTIVATE, "WM_MOUSEACTIVATE"),
    (WM_CHILDACTIVATE, "WM_CHILDACTIVATE"),
    (WM_GETMINMAXINFO, "WM_GETMINMAXINFO"),
    (WM_PAINTICON, "WM_PAINTICON"),
    (WM_ICONERASEBKGND, "WM_ICONERASEBKGND"),
    (WM_NEXTDLGCTL, "WM_NEXTDLGCTL"),
    (WM_DRAWITEM, "WM_DRAWITEM"),
    (WM_MEASUREITEM, "WM_MEASUREITEM"),
    (WM_DELETEITEM, "WM_DELETEITEM"),
    (WM_VKEYTOITEM, "WM_VKEYTOITEM"),
    (WM_CHARTOITEM, "WM_CHARTOITEM"),
    (WM_SETFONT, "WM_SETFONT"),
    (WM_GETFONT, "WM_GETFONT"),
    (WM_QUERYDRAGICON, "WM_QUERYDRAGICON"),
    (WM_COMPAREITEM, "WM_COMPAREITEM"),
    (WM_WINDOWPOSCHANGING, "WM_WINDOWPOSCHANGING"),
    (WM_WINDOWPOSCHANGED, "WM_WINDOWPOSCHANGED"),
    (WM_NCCREATE, "WM_NCCREATE"),
    (WM_NCDESTROY, "WM_NCDESTROY"),
    (WM_NCCALCSIZE, "WM_NCCALCSIZE"),
    (WM_NCHITTEST, "WM_NCHITTEST"),
    (WM_NCPAINT, "WM_NCPAINT"),
    (WM_NCACTIVATE, "WM_NCACTIVATE"),
    (WM_GETDLGCODE, "WM_GETDLGCODE"),
    (WM_NCMOUSEMOVE, "WM_NCMOUSEMOVE"),
    (WM_NCLBUTTONDOWN, "WM_NCLBUTTONDOWN"),
    (WM_NCLBUTTONUP, "WM_NCLBUTTONUP"),
    (WM_NCLBUTTONDBLCLK, "WM_NCLBUTTONDBLCLK"),
    (WM_NCRBUTTONDOWN, "WM_NCRBUTTONDOWN"),
    (WM_NCRBUTTONUP, "WM_NCRBUTTONUP"),
    (WM_KEYDOWN, "WM_KEYDOWN"),
    (WM_KEYUP, "WM_KEYUP"),
    (WM_CHAR, "WM_CHAR"),
    (WM_DEADCHAR, "WM_DEADCHAR"),
    (WM_SYSKEYDOWN, "WM_SYSKEYDOWN"),
    (WM_SYSKEYUP, "WM_SYSKEYUP"),
    (WM_SYSCHAR, "WM_SYSCHAR"),
    (WM_SYSDEADCHAR, "WM_SYSDEADCHAR"),
    (WM_INITDIALOG, "WM_INITDIALOG"),
    (WM_COMMAND, "WM_COMMAND"),
    (WM_SYSCOMMAND, "WM_SYSCOMMAND"),
    (WM_TIMER, "WM_TIMER"),
    (WM_HSCROLL, "WM_HSCROLL"),
    (WM_VSCROLL, "WM_VSCROLL"),
    (WM_INITMENU, "WM_INITMENU"),
    (WM_INITMENUPOPUP, "WM_INITMENUPOPUP"),
    (WM_MENUSELECT, "WM_MENUSELECT"),
    (WM_MENUCHAR, "WM_MENUCHAR"),
    (WM_ENTERIDLE, "WM_ENTERIDLE"),
    (WM_MOUSEMOVE, "WM_MOUSEMOVE"),
    (WM_LBUTTONDOWN, "WM_LBUTTONDOWN"),
    (WM_LBUTTONUP, "WM_LBUTTONUP"),
    (WM_LBUTTONDBLCLK, "WM_LBUTTONDBLCLK"),
    (WM_RBUTTONDOWN, "WM_RBUTTONDOWN"),
    (WM_RBUTTONUP, "WM_RBUTTONUP"),
    (WM_RBUTTONDBLCLK, "WM_RBUTTONDBLCLK"),
    (WM_MBUTTONDOWN, "WM_MBUTTONDOWN"),
    (WM_MBUTTONUP, "WM_MBUTTONUP"),
    (WM_MBUTTONDBLCLK, "WM_MBUTTONDBLCLK"),
    (WM_PARENTNOTIFY, "WM_PARENTNOTIFY"),
    (WM_MDICREATE, "WM_MDICREATE"),
    (WM_MDIDESTROY, "WM_MDIDESTROY"),
    (WM_MDIACTIVATE, "WM_MDIACTIVATE"),
    (WM_MDIRESTORE, "WM_MDIRESTORE"),
    (WM_MDINEXT, "WM_MDINEXT"),
    (WM_MDIMAXIMIZE, "WM_MDIMAXIMIZE"),
    (WM_MDITILE, "WM_MDITILE"),
    (WM_MDICASCADE, "WM_MDICASCADE"),
    (WM_MDIICONARRANGE, "WM_MDIICONARRANGE"),
    (WM_MDIGETACTIVE, "WM_MDIGETACTIVE"),
    (WM_MDISETMENU, "WM_MDISETMENU"),
    (WM_DROPFILES, "WM_DROPFILES"),
    (WM_CUT, "WM_CUT"),
    (WM_COPY, "WM_COPY"),
    (WM_PASTE, "WM_PASTE"),
    (WM_CLEAR, "WM_CLEAR"),
    (WM_UNDO, "WM_UNDO"),
    (WM_RENDERFORMAT, "WM_RENDERFORMAT"),
    (WM_RENDERALLFORMATS, "WM_RENDERALLFORMATS"),
    (WM_DESTROYCLIPBOARD, "WM_DESTROYCLIPBOARD"),
    (WM_DRAWCLIPBOARD, "WM_DRAWCLIPBOARD"),
    (WM_CHANGECBCHAIN, "WM_CHANGECBCHAIN"),
    (WM_QUERYNEWPALETTE, "WM_QUERYNEWPALETTE"),
    (WM_PALETTEISCHANGING, "WM_PALETTEISCHANGING"),
    (WM_PALETTECHANGED, "WM_PALETTECHANGED"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_found() {
        assert!(MESSAGE_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(message_name(WM_NCCALCSIZE), "WM_NCCALCSIZE");
        assert_eq!(message_name(0x0402), "WM_USER+2");
        assert_eq!(message_name(0x0099), "message 0099");
    }
}
