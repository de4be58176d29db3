//! USER as a window manager, through real thunks: roms/wmgr.exe makes a
//! window and its children and prints what USER answers (the program's
//! header lists the lines). The expected values are Windows 3.1's: the
//! SDK reference for the functions, the VGA system metrics and the
//! non-client layout (src/win16/user/metrics.rs and winpos.rs cite their
//! sources), and the message orders of Wine's tested notes
//! (documentation/gui, confirmed on Windows for Win16). In the message
//! logs a message to the main window is its number, one to another window
//! has 8000h added.

mod common;
use common::{bin, json, rom};

/// Run a program headless and return its printed lines and the JSON.
fn lines(exe: &str) -> (Vec<String>, serde_json::Value) {
    let out = bin()
        .args(["run", "--json"])
        .arg(rom(exe))
        .output()
        .unwrap();
    let v = json(&out);
    let text = v["output"].as_str().unwrap_or("").to_string();
    let lines = text
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    (lines, v)
}

#[test]
fn the_window_manager_answers_as_windows_3_1() {
    let (got, v) = lines("wmgr.exe");
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let want = [
        // GetSystemMetrics on VGA: SM_CXSCREEN 640, SM_CYSCREEN 480,
        // SM_CYCAPTION 20, SM_CXFRAME 4 (WIN.INI BorderWidth=3, + 1),
        // SM_CXDLGFRAME 4, SM_CXBORDER 1, SM_CXVSCROLL and SM_CYHSCROLL 17,
        // SM_CYMENU 18, SM_CYFULLSCREEN 480 - 20, SM_CXICON 32, SM_CXMIN
        // 100, SM_CYMIN 28; index 43 is none of Windows 3.1's: 0.
        "metrics 640 480 20 4 4 1 17 17 18 460 32 100 28 0",
        // CreateWindow of an overlapped window not yet visible:
        // WM_GETMINMAXINFO, WM_NCCREATE, WM_NCCALCSIZE, WM_CREATE (Wine's
        // notes, "CreateWindow (for overlapped window, not initially
        // visible) (16/32)").
        "create 0024 0081 0083 0001",
        // ShowWindow (the notes, "ShowWindow (for overlapped window)
        // (16/32)"): WM_SHOWWINDOW, WM_WINDOWPOSCHANGING twice (the show,
        // then the activation's bring-to-top), WM_ACTIVATEAPP,
        // WM_NCACTIVATE (DefWindowProc: WM_GETTEXT), WM_ACTIVATE
        // (DefWindowProc: WM_SETFOCUS), WM_NCPAINT (WM_GETTEXT),
        // WM_ERASEBKGND, WM_WINDOWPOSCHANGED, then WM_SIZE and WM_MOVE;
        // UpdateWindow's WM_PAINT follows.
        "show 0018 0046 0046 001C 0086 000D 0006 0007 0085 000D 0014 0047 0005 0003 000F",
        // The window shown is active and has the focus.
        "active 1 1",
        // GetWindowRect in screen coordinates; GetClientRect: 300 less
        // the frame (4) and border (1) on each side, 200 less those and the
        // caption (20, less the line it shares with the frame).
        "rects 10 20 310 220 0 0 290 171",
        // AdjustWindowRect of that client rectangle: the window's size.
        "adjust -5 -24 295 176",
        // ClientToScreen(0, 0): the client area's corner.
        "c2s 15 44",
        // GetUpdateRect after InvalidateRect(10,10,50,40): TRUE and that
        // rectangle; after InvalidateRect(100,50,120,60) their union.
        "update 1 10 10 50 40 1 10 10 120 60",
        // UpdateWindow: WM_PAINT, and BeginPaint's WM_ERASEBKGND (the
        // first invalidation asked to erase).
        "paint 000F 0014",
        // PAINTSTRUCT.rcPaint is the update region's box; fErase FALSE
        // (DefWindowProc erased with the class brush); the window is valid
        // after BeginPaint.
        "painted 10 10 120 60 0 0",
        // A posted message comes before WM_PAINT, which GetMessage and
        // PeekMessage give only when nothing else is there.
        "order 0402 000F",
        // A child, created visible (the notes, "CreateWindow (for child
        // window)" and "ShowWindow (for child window)"): WM_NCCREATE,
        // WM_NCCALCSIZE, WM_CREATE, WM_SIZE, WM_MOVE, the parent's
        // WM_PARENTNOTIFY; then WM_SHOWWINDOW, WM_WINDOWPOSCHANGING, the
        // parent's WM_ERASEBKGND, WM_WINDOWPOSCHANGED.
        "child 8081 8083 8001 8005 8003 0210 8018 8046 0014 8047",
        // At (5, 5) in the parent's client area: (20, 49) on the screen;
        // WS_BORDER leaves a 98 x 48 client area.
        "childrect 20 49 120 99 0 0 98 48",
        // GetParent, IsChild, GetWindow(GW_CHILD), GetDlgCtrlID,
        // GetWindowWord(GWW_ID) 7, GWW_HWNDPARENT, GW_OWNER 0.
        "relations 1 1 1 7 7 1 0",
        // MoveWindow growing the child in place (the notes, "Resizing child
        // window with MoveWindow"): WM_WINDOWPOSCHANGING, WM_NCCALCSIZE,
        // WM_NCPAINT (its border), WM_ERASEBKGND, WM_WINDOWPOSCHANGED and
        // DefWindowProc's WM_SIZE (it did not move: no WM_MOVE).
        "move 8046 8083 8085 8014 8047 8005",
        "moved 118 58",
        // A new child goes to the bottom of the z-order; BringWindowToTop
        // and SetWindowPos(HWND_BOTTOM) move it.
        "zorder 1 1 1 1 1 1",
        // SetWindowWord returns the old word; past the 6 extra bytes
        // GetWindowWord gives 0; SetWindowLong returns the old long.
        "words 0 1234 0 12340000 3344 1122",
        // SetClassWord / GetClassWord on the 4 class extra bytes;
        // GCW_CBWNDEXTRA 6, GCW_CBCLSEXTRA 4, GCW_HBRBACKGROUND
        // COLOR_WINDOW + 1; GetClassName's length and name.
        "classwords 0 ABCD 6 4 6 9 WmgrClass",
        // SetWindowLong(GWL_WNDPROC) returns the class's procedure; the
        // subclass passes WM_USER+1 on with CallWindowProc (100 + 2 * 5);
        // GetWindowLong gives the new one; GetClassInfo(NULL, "STATIC")'s
        // procedure is callable (WM_GETTEXTLENGTH of "wmgr": 4).
        "subclass 1 110 1 1 4",
        // SetProp, GetProp by name and by its atom, EnumProps (the last
        // answer, one property), RemoveProp's data, then nothing.
        "props 1 5 5 1 1 5 0",
        // WM_NCHITTEST: HTCAPTION 2, HTSYSMENU 3, HTZOOM 9, HTREDUCE 8,
        // HTCLIENT 1, HTLEFT 10, HTTOPLEFT 13, HTBOTTOMRIGHT 17, HTNOWHERE.
        "hittest 2 3 9 8 1 10 13 17 0",
        // SetFocus returns the window that had the focus; WM_KILLFOCUS to
        // it, then WM_SETFOCUS to the child.
        "focus 1 1",
        "focuslog 0008 8007",
        // EnableWindow(FALSE) returns FALSE (it was enabled); the disabled
        // window loses the focus (WM_KILLFOCUS) and gets WM_ENABLE;
        // EnableWindow(TRUE) returns TRUE (it was disabled).
        "enable 0 0 0 1",
        "enablelog 8008 800A 800A",
        // SetScrollRange shows WS_VSCROLL: the client area loses
        // SM_CXVSCROLL - 1 (274) and WM_SIZE says so; SetScrollPos returns
        // the old position and keeps the new one in the range (50);
        // an empty range hides the scroll bar again, and GetScrollRange
        // then gives 0, 0.
        "scroll 274 274 0 50 0 50 290 0 0",
        // ScrollWindow(0, -10): the bottom 10 lines are invalid; a NULL
        // lpRect moves the children too.
        "scrollwin 1 0 161 290 171 39",
        // The caret blinks every 530 ms (WIN.INI CursorBlinkRate);
        // GetCaretPos gives SetCaretPos's point.
        "caret 530 3 4",
        // ShowCursor counts from 0; SetCursorPos / GetCursorPos;
        // ClipCursor keeps the cursor inside (0,0)-(50,50).
        "cursor -1 0 100 200 49 49",
        // The Windows 3.1 default scheme: COLOR_WINDOW white,
        // COLOR_ACTIVECAPTION RGB(0,0,128), COLOR_BTNFACE light grey; an
        // unknown index 0.
        "colors 00FFFFFF 00800000 00C0C0C0 00000000",
        // RegisterWindowMessage gives the same number from 0xC000 each
        // time, and RegisterClipboardFormat the same for the same name.
        "regmsg 1 1 1",
        // IntersectRect, UnionRect, SubtractRect (the right part covered
        // along the whole height goes), PtInRect (the right edge is
        // outside), EqualRect.
        "rectfn 1 5 5 10 10 1 0 0 20 20 1 0 0 5 10 0 1",
        // SW_MINIMIZE: an icon at the first spot along the bottom
        // (SM_CXICONSPACING 75), WM_SIZE with SIZE_MINIMIZED.
        "min 1 1 21 427 53 459",
        // SW_RESTORE: where it was.
        "restore 0 10 20 310 220",
        // SW_SHOWMAXIMIZED: the frame just off the screen, SIZE_MAXIMIZED,
        // a 640 x 461 client area.
        "max 1 2 -5 -5 645 485 640 461",
        // FindWindow by class, by title, for no such class; EnumWindows
        // finds the task's one top-level window, EnumChildWindows its two
        // children.
        "find 1 1 0 1 2",
        // OpenClipboard, EmptyClipboard, SetClipboardData returns the
        // handle, CloseClipboard; CF_TEXT, and CF_OEMTEXT made from it,
        // are available, CF_BITMAP is not; three formats (CF_TEXT, the
        // promised CF_DIB, CF_OEMTEXT).
        "clip 1 1 1 1 1 1 0 3",
        // The text again; EnumClipboardFormats in order; the promised
        // format is rendered by the owner (WM_RENDERFORMAT); the owner is
        // the window; EmptyClipboard sends it WM_DESTROYCLIPBOARD.
        "clip2 1 hello 1 8 7 0 1 1 0307 1",
        // SetWindowsHookEx(WH_CALLWNDPROC) sees SendMessage's message;
        // WH_GETMESSAGE changes the MSG GetMessage returns; WH_CBT sees
        // HCBT_CREATEWND first and HCBT_DESTROYWND last.
        "hooks 1 0403 1 11 3 4",
        // DestroyWindow (the notes, "DestroyWindow (for overlapped
        // window)"): hidden (WM_WINDOWPOSCHANGING, WM_WINDOWPOSCHANGED),
        // deactivated (WM_NCACTIVATE, WM_ACTIVATE, WM_ACTIVATEAPP),
        // WM_KILLFOCUS; WM_DESTROY to the window and then to its
        // children; WM_NCDESTROY to the children and then to the window.
        "destroy 0046 0047 0086 0006 001C 0008 0002 8002 8002 8082 8082 0082",
    ];
    assert_eq!(got, want, "{}", got.join("\n"));
}

#[test]
fn windows_paint_through_gdi_as_windows_3_1_draws_them() {
    let (got, v) = lines("wmpaint.exe");
    // ExitWindows, agreed, ends the session with the code it was given.
    assert_eq!(v["exit"]["kind"], "exited", "{v}");
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let want = [
        // An active overlapped window at (100, 60) on the screen's DC: the
        // outer COLOR_WINDOWFRAME line (black), the sizing band in
        // COLOR_ACTIVEBORDER (C0C0C0), the inner line, the caption in
        // COLOR_ACTIVECAPTION (800000), the line under the caption (at
        // y 60 + 1 + 3 + 1 + 18), the system-menu box (button face), the
        // client area erased with the class brush COLOR_WINDOW (white),
        // the desktop in COLOR_BACKGROUND (C0C0C0): the default colour
        // scheme (src/win16/user/metrics.rs) in the 3.1 frame layout
        // (frame.rs, winpos.rs).
        "frame 000000 C0C0C0 000000 800000 000000 C0C0C0 FFFFFF C0C0C0",
        // A pop-up shown becomes active: the main caption turns
        // COLOR_INACTIVECAPTION (white); the pop-up's border and client
        // area; destroyed, the desktop shows again where it was and the
        // main window is active again.
        "inactive FFFFFF 000000 FFFFFF C0C0C0 800000",
        // Two GetDCs give two DCs; WindowFromDC gives the window (0 for
        // the screen's DC); FillRect through the client DC lands at the
        // client area's corner (105, 84), red both on the screen and
        // through the DC; ReleaseDC gives 1, then 0 for a DC already
        // released; GetWindowDC's (0, 0) is the frame's corner (black) and
        // (150, 10) is in the caption.
        "dcs 1 1 0 0000FF 0000FF 1 0 000000 800000",
        // CS_OWNDC (SDK, "Class styles" and GetDC): GetDC gives the
        // window's own DC every time, with the mapping mode WM_CREATE set
        // (MM_LOMETRIC 2); ReleaseDC leaves it (1); BeginPaint gives the
        // same DC, still MM_LOMETRIC.
        "owndc 1 2 1 1 2",
        // A child erased with COLOR_BTNSHADOW (808080); the parent's DC
        // paints over it (red) without WS_CLIPCHILDREN; with it the child
        // keeps its pixels and only the parent turns black.
        "clipkids 808080 0000FF 0000FF 000000",
        // GetUpdateRgn copies the update region into a region: one
        // rectangle (SIMPLEREGION 2) whose box GetRgnBox gives;
        // InvalidateRgn with an ellipse: GetUpdateRect's box (0, 0, 40,
        // 20), GetUpdateRgn COMPLEXREGION (3); ValidateRgn empties it
        // (GetUpdateRect FALSE).
        "regions 2 10 10 50 40 1 0 0 40 20 3 0",
        // ExcludeUpdateRgn (COMPLEXREGION: the client area with a hole):
        // through the DC the update region's pixels are clipped away
        // (GetPixel gives CLR_INVALID), on the screen they stay white
        // while the rest was painted black.
        "exclude 3 FFFFFFFF FFFFFF 000000",
        // ScrollWindow(0, 30) with lpRect NULL: the strip uncovered at the
        // top is the update region (0, 0, 290, 30); the red square moved
        // down 30 (client (15, 45)); the child moved with the bits (its
        // face at client (60, 90)) and its window rectangle 30 lower.
        "scroll 0 0 290 30 0000FF 808080 155 164",
        // DrawIcon(IDI_APPLICATION) returns TRUE; the AND mask leaves the
        // corner; the picture's edge, caption and window (draw.rs).
        "icon 1 FFFFFF 000000 800000 FFFFFF",
        // DrawFocusRect inverts every other pixel of the outline; a second
        // call restores it (SDK, DrawFocusRect: XOR).
        "focusrect 000000 FFFFFF FFFFFF",
        // FlashWindow returns the state before: active (1), flashed to
        // inactive (0), back (FALSE: the real state, active, 1); the
        // caption is active again.
        "flash 1 0 1 800000",
        // GetTimerResolution 1000 µs, GetSystemDebugState 0, the free
        // resources a percentage, WinHelp TRUE.
        "system 1000 0 1 1",
        // MDI: the last child made is active (WM_MDIGETACTIVE), the
        // children's ids count from CLIENTCREATESTRUCT's idFirstChild
        // (100), the MDICLIENT is their parent; WM_MDINEXT activates the
        // other; the client is 200 x 100.
        "mdi 1 100 101 1 1 200 100",
        // WM_MDITILE: two children side by side over the client area.
        "mditile 0 0 100 100 100 0 200 100",
        // WM_MDIDESTROY destroys the child; the other becomes active.
        "mdidestroy 0 1",
        // ExitWindows refused by the only top-level window: FALSE, and only
        // WM_QUERYENDSESSION was sent (SDK, ExitWindows; WM_ENDSESSION goes
        // to the windows that agreed, none here).
        "exitrefused 0 1 0011",
        // Agreed: WM_ENDSESSION(TRUE), and the session ends inside
        // ExitWindows (it does not return).
        "endsession 1",
    ];
    assert_eq!(got, want, "{}", got.join("\n"));
}

#[test]
fn scripted_keys_clicks_and_scroll_lines_arrive_as_windows_sends_them() {
    let dir = std::env::temp_dir().join(format!("th16-winput-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("input.txt");
    std::fs::write(
        &script,
        "key a\nkey shift\nchar Z\nclick 20 15\nclick 100 100\nscroll vert lineDown\n\
         scroll vert thumb 40\nkey f10\n",
    )
    .unwrap();
    let out = bin()
        .args(["run", "--json", "--messages"])
        .arg(&script)
        .arg(rom("winput.exe"))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    let got: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    let want = [
        // 0210: the child's WM_PARENTNOTIFY at its creation. `key a`:
        // WM_KEYDOWN, TranslateMessage's WM_CHAR (posted, so before the
        // WM_KEYUP input), WM_KEYUP; `key shift`: no character; `char Z`.
        // `click 20 15` lands on the child (at (10, 10) in the window):
        // WM_NCHITTEST, the parent's WM_PARENTNOTIFY, WM_MOUSEACTIVATE and
        // WM_SETCURSOR (each asking the parent first, as DefWindowProc
        // does), then the button messages (Wine's notes, "Clicking on
        // inactive button"). `click 100 100` on the window itself.
        // `scroll vert lineDown`: SB_LINEDOWN and SB_ENDSCROLL; `scroll
        // vert thumb 40`: SB_THUMBTRACK, SB_THUMBPOSITION, SB_ENDSCROLL.
        // `key f10`: WM_SYSKEYDOWN / WM_SYSKEYUP, and DefWindowProc's
        // WM_SYSCOMMAND SC_KEYMENU (SDK, WM_SYSKEYDOWN, "F10 activates the
        // menu bar").
        "log 0210 0100 0102 0101 0100 0101 0102 8084 0210 8021 0021 8020 0020 8201 8202 0084 \
         0021 0020 0201 0202 0115 0115 0115 0115 0115 0104 0105 0112",
        // GetKeyState during WM_KEYDOWN: down (the high bit, sign-extended)
        // and toggled (the low bit flips at each press); during WM_KEYUP:
        // up, still toggled. WM_CHAR 'a' (no Shift), 'Z'. The child's
        // WM_LBUTTONDOWN at (10, 5) in its client area, VK_LBUTTON down
        // and toggled; the window's at (100, 100), VK_LBUTTON down and
        // toggled back, GetMessagePos (135, 164): the window at (30, 40),
        // its client area 5 and 24 further. WM_VSCROLL's codes and
        // positions; WM_SYSCOMMAND SC_KEYMENU.
        "vals FF81 0061 0001 FF81 0001 005A 000A 0005 FF81 0064 0064 FF80 0087 00A4 0001 0000 \
         0008 0000 0005 0028 0004 0028 0008 0000 F100",
    ];
    assert_eq!(got, want, "{text}");
}

/// A drive holding roms/wmtask.exe (and its map) as WMTASK.EXE.
fn wmtask_drive() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "th16-wmtask-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(rom("wmtask.exe"), dir.join("WMTASK.EXE")).unwrap();
    std::fs::copy(rom("wmtask.map"), dir.join("WMTASK.map")).unwrap();
    dir
}

#[test]
fn send_message_to_another_task_runs_as_that_task() {
    let dir = wmtask_drive();
    let out = bin()
        .args(["run", "--json", "--dir"])
        .arg(&dir)
        .arg(dir.join("WMTASK.EXE"))
        .output()
        .unwrap();
    let walk = bin()
        .args(["stack", "--json", "--at", "WMTASK!WHO", "--dir"])
        .arg(&dir)
        .arg(dir.join("WMTASK.EXE"))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v = json(&out);
    assert_eq!(v["exit"]["code"], 0, "{v}");
    let text = v["output"].as_str().unwrap();
    // The receiving window procedure ran as the window's task (10h) and
    // InSendMessage said so (1); ReplyMessage(77h) answered the second
    // message before its procedure returned 99h; the two instances are
    // different tasks. PostAppMessage's message reached the first task's
    // queue with hWnd 0.
    assert_eq!(text, "send 0011 0077 1\r\napp 0407 0000\r\n", "{v}");
    // The walk from inside the receiver's procedure is the receiver's: its
    // hTask and stack, through USER's frame into the system function the
    // receiver waits in (WinExec) and its own WinMain.
    let w = json(&walk);
    let frames = w["frames"].as_array().unwrap();
    let shape: Vec<&str> = frames
        .iter()
        .map(|f| f["module"].as_str().unwrap())
        .collect();
    assert_eq!(shape, ["WMTASK", "USER", "KERNEL", "WMTASK"], "{w:#}");
    let first_task = frames[0]["hTask"].clone();
    assert!(frames.iter().all(|f| f["hTask"] == first_task), "{w:#}");
    assert!(frames.iter().all(|f| f["wSS"] == frames[0]["wSS"]), "{w:#}");
    assert_eq!(frames[3]["symbol"], "main+0x86", "{w:#}");
}
