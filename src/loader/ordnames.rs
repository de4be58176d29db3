//! Names of the exported ordinals of the Windows 3.x system modules that
//! programs import from (win16.md, "System DLLs"), so reports can say
//! `USER.91 GetDlgItem` instead of a bare number.
//!
//! A hand-written, deliberately partial table: every ordinal the corpus NE
//! programs import, the TOOLHELP exports listed in toolhelp.md, and the
//! functions Win16 start-up code and common programs use. Names use the SDK's
//! mixed case; look-ups ignore case.
//!
//! TOOLHELP ordinals follow toolhelp.md (and Wine's toolhelp.spec):
//! GlobalHandleToSel is 50; the corpus file `ord/TOOLHELP.ORD` agrees (the
//! test below checks it like the other modules' files).

type Table = &'static [(u16, &'static str)];

const KERNEL: Table = &[
    (1, "FatalExit"),
    (2, "ExitKernel"),
    (3, "GetVersion"),
    (4, "LocalInit"),
    (5, "LocalAlloc"),
    (6, "LocalReAlloc"),
    (7, "LocalFree"),
    (8, "LocalLock"),
    (9, "LocalUnlock"),
    (10, "LocalSize"),
    (11, "LocalHandle"),
    (12, "LocalFlags"),
    (13, "LocalCompact"),
    (15, "GlobalAlloc"),
    (16, "GlobalReAlloc"),
    (17, "GlobalFree"),
    (18, "GlobalLock"),
    (19, "GlobalUnlock"),
    (20, "GlobalSize"),
    (21, "GlobalHandle"),
    (22, "GlobalFlags"),
    (23, "LockSegment"),
    (24, "UnlockSegment"),
    (25, "GlobalCompact"),
    (29, "Yield"),
    (30, "WaitEvent"),
    (31, "PostEvent"),
    (34, "SetTaskQueue"),
    (35, "GetTaskQueue"),
    (36, "GetCurrentTask"),
    (37, "GetCurrentPDB"),
    (45, "LoadModule"),
    (46, "FreeModule"),
    (47, "GetModuleHandle"),
    (48, "GetModuleUsage"),
    (49, "GetModuleFileName"),
    (50, "GetProcAddress"),
    (51, "MakeProcInstance"),
    (52, "FreeProcInstance"),
    (54, "GetInstanceData"),
    (55, "Catch"),
    (56, "Throw"),
    (57, "GetProfileInt"),
    (58, "GetProfileString"),
    (59, "WriteProfileString"),
    (60, "FindResource"),
    (61, "LoadResource"),
    (62, "LockResource"),
    (63, "FreeResource"),
    (64, "AccessResource"),
    (65, "SizeofResource"),
    (66, "AllocResource"),
    (68, "InitAtomTable"),
    (69, "FindAtom"),
    (70, "AddAtom"),
    (71, "DeleteAtom"),
    (72, "GetAtomName"),
    (81, "_lclose"),
    (82, "_lread"),
    (83, "_lcreat"),
    (85, "_lopen"),
    (88, "lstrcpy"),
    (89, "lstrcat"),
    (90, "lstrlen"),
    (91, "InitTask"),
    (92, "GetTempDrive"),
    (93, "GetCodeHandle"),
    (95, "LoadLibrary"),
    (96, "FreeLibrary"),
    (97, "GetTempFileName"),
    (102, "DOS3Call"),
    (105, "GetExeVersion"),
    (107, "SetErrorMode"),
    (111, "GlobalWire"),
    (112, "GlobalUnWire"),
    (113, "__AHSHIFT"),
    (114, "__AHINCR"),
    (115, "OutputDebugString"),
    (117, "OldYield"),
    (127, "GetPrivateProfileInt"),
    (128, "GetPrivateProfileString"),
    (129, "WritePrivateProfileString"),
    (131, "GetDOSEnvironment"),
    (132, "GetWinFlags"),
    (134, "GetWindowsDirectory"),
    (135, "GetSystemDirectory"),
    (136, "GetDriveType"),
    (137, "FatalAppExit"),
    (150, "DirectedYield"),
    (152, "GetNumTasks"),
    (166, "WinExec"),
    (167, "GetExpWinVer"),
    (170, "AllocCStoDSAlias"),
    (171, "AllocDStoCSAlias"),
    (172, "AllocAlias"),
    (178, "__WINFLAGS"),
    (184, "GlobalDOSAlloc"),
    (185, "GlobalDOSFree"),
    (186, "GetSelectorBase"),
    (188, "GetSelectorLimit"),
    (204, "SwapRecording"),
    (352, "lstrcatn"),
    (353, "lstrcpyn"),
];

const USER: Table = &[
    (1, "MessageBox"),
    (5, "InitApp"),
    (6, "PostQuitMessage"),
    (7, "ExitWindows"),
    (10, "SetTimer"),
    (12, "KillTimer"),
    (13, "GetTickCount"),
    (15, "GetCurrentTime"),
    (18, "SetCapture"),
    (19, "ReleaseCapture"),
    (22, "SetFocus"),
    (31, "IsIconic"),
    (32, "GetWindowRect"),
    (33, "GetClientRect"),
    (34, "EnableWindow"),
    (36, "GetWindowText"),
    (37, "SetWindowText"),
    (39, "BeginPaint"),
    (40, "EndPaint"),
    (41, "CreateWindow"),
    (42, "ShowWindow"),
    (46, "GetParent"),
    (47, "IsWindow"),
    (53, "DestroyWindow"),
    (56, "MoveWindow"),
    (57, "RegisterClass"),
    (60, "GetActiveWindow"),
    (66, "GetDC"),
    (68, "ReleaseDC"),
    (69, "SetCursor"),
    (72, "SetRect"),
    (81, "FillRect"),
    (85, "DrawText"),
    (87, "DialogBox"),
    (88, "EndDialog"),
    (89, "CreateDialog"),
    (90, "IsDialogMessage"),
    (91, "GetDlgItem"),
    (92, "SetDlgItemText"),
    (93, "GetDlgItemText"),
    (94, "SetDlgItemInt"),
    (95, "GetDlgItemInt"),
    (96, "CheckRadioButton"),
    (97, "CheckDlgButton"),
    (98, "IsDlgButtonChecked"),
    (99, "DlgDirSelect"),
    (100, "DlgDirList"),
    (101, "SendDlgItemMessage"),
    (103, "MapDialogRect"),
    (104, "MessageBeep"),
    (106, "GetKeyState"),
    (107, "DefWindowProc"),
    (108, "GetMessage"),
    (109, "PeekMessage"),
    (110, "PostMessage"),
    (111, "SendMessage"),
    (112, "WaitMessage"),
    (113, "TranslateMessage"),
    (114, "DispatchMessage"),
    (118, "RegisterWindowMessage"),
    (122, "CallWindowProc"),
    (124, "UpdateWindow"),
    (125, "InvalidateRect"),
    (127, "ValidateRect"),
    (135, "GetWindowLong"),
    (136, "SetWindowLong"),
    (150, "LoadMenu"),
    (151, "CreateMenu"),
    (152, "DestroyMenu"),
    (154, "CheckMenuItem"),
    (155, "EnableMenuItem"),
    (157, "GetMenu"),
    (158, "SetMenu"),
    (160, "DrawMenuBar"),
    (173, "LoadCursor"),
    (174, "LoadIcon"),
    (175, "LoadBitmap"),
    (176, "LoadString"),
    (177, "LoadAccelerators"),
    (178, "TranslateAccelerator"),
    (179, "GetSystemMetrics"),
    (180, "GetSysColor"),
    (194, "DlgDirSelectComboBox"),
    (195, "DlgDirListComboBox"),
    (218, "DialogBoxIndirect"),
    (219, "CreateDialogIndirect"),
    (227, "GetNextDlgGroupItem"),
    (228, "GetNextDlgTabItem"),
    (232, "SetWindowPos"),
    (239, "DialogBoxParam"),
    (240, "DialogBoxIndirectParam"),
    (241, "CreateDialogParam"),
    (242, "CreateDialogIndirectParam"),
    (243, "GetDialogBaseUnits"),
    (250, "GetMenuState"),
    (262, "GetWindow"),
    (268, "GlobalAddAtom"),
    (269, "GlobalDeleteAtom"),
    (270, "GlobalFindAtom"),
    (271, "GlobalGetAtomName"),
    (277, "GetDlgCtrlID"),
    (286, "GetDesktopWindow"),
    (301, "BozosLiveHere"),
    (302, "StaticWndProc"),
    (303, "ButtonWndProc"),
    (304, "SBWndProc"),
    (307, "LBoxCtlWndProc"),
    (308, "DefDlgProc"),
    (411, "AppendMenu"),
    (414, "ModifyMenu"),
    (415, "CreatePopupMenu"),
    (420, "_wsprintf"),
    (421, "wvsprintf"),
    (422, "DlgDirSelectEx"),
    (423, "DlgDirSelectComboBoxEx"),
    (430, "lstrcmp"),
    (431, "AnsiUpper"),
    (432, "AnsiLower"),
    (433, "IsCharAlpha"),
    (434, "IsCharAlphaNumeric"),
    (435, "IsCharUpper"),
    (436, "IsCharLower"),
    (437, "AnsiUpperBuff"),
    (438, "AnsiLowerBuff"),
    (471, "lstrcmpi"),
    (472, "AnsiNext"),
    (473, "AnsiPrev"),
];

const GDI: Table = &[
    (1, "SetBkColor"),
    (2, "SetBkMode"),
    (3, "SetMapMode"),
    (4, "SetROP2"),
    (9, "SetTextColor"),
    (19, "LineTo"),
    (20, "MoveTo"),
    (24, "Ellipse"),
    (27, "Rectangle"),
    (29, "PatBlt"),
    (30, "SaveDC"),
    (31, "SetPixel"),
    (33, "TextOut"),
    (34, "BitBlt"),
    (35, "StretchBlt"),
    (36, "Polygon"),
    (39, "RestoreDC"),
    (45, "SelectObject"),
    (48, "CreateBitmap"),
    (51, "CreateCompatibleBitmap"),
    (52, "CreateCompatibleDC"),
    (53, "CreateDC"),
    (56, "CreateFont"),
    (57, "CreateFontIndirect"),
    (61, "CreatePen"),
    (64, "CreateRectRgn"),
    (66, "CreateSolidBrush"),
    (68, "DeleteDC"),
    (69, "DeleteObject"),
    (80, "GetDeviceCaps"),
    (82, "GetObject"),
    (83, "GetPixel"),
    (87, "GetStockObject"),
    (91, "GetTextExtent"),
    (93, "GetTextMetrics"),
];

const KEYBOARD: Table = &[
    (1, "Inquire"),
    (2, "Enable"),
    (3, "Disable"),
    (4, "ToAscii"),
    (5, "AnsiToOem"),
    (6, "OemToAnsi"),
    (7, "SetSpeed"),
    (128, "OemKeyScan"),
    (129, "VkKeyScan"),
    (130, "GetKeyboardType"),
    (131, "MapVirtualKey"),
    (132, "GetKBCodePage"),
    (133, "GetKeyNameText"),
    (134, "AnsiToOemBuff"),
    (135, "OemToAnsiBuff"),
];

const SOUND: Table = &[
    (1, "OpenSound"),
    (2, "CloseSound"),
    (3, "SetVoiceQueueSize"),
    (4, "SetVoiceNote"),
    (5, "SetVoiceAccent"),
    (6, "SetVoiceEnvelope"),
    (7, "SetSoundNoise"),
    (8, "SetVoiceSound"),
    (9, "StartSound"),
    (10, "StopSound"),
    (11, "WaitSoundState"),
    (12, "SyncAllVoices"),
    (13, "CountVoiceNotes"),
    (14, "GetThresholdEvent"),
    (15, "GetThresholdStatus"),
    (16, "SetVoiceThreshold"),
    (17, "DoBeep"),
];

const WIN87EM: Table = &[(1, "__fpMath"), (2, "WEP")];

/// toolhelp.md, "TOOLHELP.DLL export ordinals".
const TOOLHELP: Table = &[
    (50, "GlobalHandleToSel"),
    (51, "GlobalFirst"),
    (52, "GlobalNext"),
    (53, "GlobalInfo"),
    (54, "GlobalEntryHandle"),
    (55, "GlobalEntryModule"),
    (56, "LocalInfo"),
    (57, "LocalFirst"),
    (58, "LocalNext"),
    (59, "ModuleFirst"),
    (60, "ModuleNext"),
    (61, "ModuleFindName"),
    (62, "ModuleFindHandle"),
    (63, "TaskFirst"),
    (64, "TaskNext"),
    (65, "TaskFindHandle"),
    (66, "StackTraceFirst"),
    (67, "StackTraceCSIPFirst"),
    (68, "StackTraceNext"),
    (69, "ClassFirst"),
    (70, "ClassNext"),
    (71, "SystemHeapInfo"),
    (72, "MemManInfo"),
    (73, "NotifyRegister"),
    (74, "NotifyUnRegister"),
    (75, "InterruptRegister"),
    (76, "InterruptUnRegister"),
    (77, "TerminateApp"),
    (78, "MemoryRead"),
    (79, "MemoryWrite"),
    (80, "TimerCount"),
];

const SYSTEM: Table = &[
    (1, "InquireSystem"),
    (2, "CreateSystemTimer"),
    (3, "KillSystemTimer"),
    (4, "EnableSystemTimers"),
    (5, "DisableSystemTimers"),
    (6, "GetSystemMSecCount"),
];

const COMMDLG: Table = &[
    (1, "GetOpenFileName"),
    (2, "GetSaveFileName"),
    (5, "ChooseColor"),
    (11, "FindText"),
    (12, "ReplaceText"),
    (15, "ChooseFont"),
    (20, "PrintDlg"),
    (26, "CommDlgExtendedError"),
    (27, "GetFileTitle"),
];

const SHELL: Table = &[
    (1, "RegOpenKey"),
    (2, "RegCreateKey"),
    (3, "RegCloseKey"),
    (4, "RegDeleteKey"),
    (5, "RegSetValue"),
    (6, "RegQueryValue"),
    (7, "RegEnumKey"),
    (9, "DragAcceptFiles"),
    (11, "DragQueryFile"),
    (12, "DragFinish"),
    (13, "DragQueryPoint"),
    (20, "ShellExecute"),
    (21, "FindExecutable"),
    (22, "ShellAbout"),
    (34, "ExtractIcon"),
];

fn table(module: &str) -> Option<Table> {
    const ALL: &[(&str, Table)] = &[
        ("KERNEL", KERNEL),
        ("USER", USER),
        ("GDI", GDI),
        ("KEYBOARD", KEYBOARD),
        ("SOUND", SOUND),
        ("WIN87EM", WIN87EM),
        ("TOOLHELP", TOOLHELP),
        ("SYSTEM", SYSTEM),
        ("COMMDLG", COMMDLG),
        ("SHELL", SHELL),
    ];
    ALL.iter()
        .find(|(m, _)| m.eq_ignore_ascii_case(module))
        .map(|&(_, t)| t)
}

/// The name of `module`'s export `ordinal` (module name case-insensitive),
/// when this table knows it.
pub fn ordinal_name(module: &str, ordinal: u16) -> Option<&'static str> {
    table(module)?
        .iter()
        .find(|(o, _)| *o == ordinal)
        .map(|&(_, n)| n)
}

/// The ordinal of `module`'s export `name` (both case-insensitive), when this
/// table knows it.
pub fn ordinal_of(module: &str, name: &str) -> Option<u16> {
    table(module)?
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|&(o, _)| o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ordinals() {
        for (m, o, n) in [
            ("KERNEL", 91, "InitTask"),
            ("kernel", 30, "WaitEvent"),
            ("KERNEL", 29, "Yield"),
            ("KERNEL", 102, "DOS3Call"),
            ("KERNEL", 3, "GetVersion"),
            ("KERNEL", 15, "GlobalAlloc"),
            ("KERNEL", 5, "LocalAlloc"),
            ("KERNEL", 115, "OutputDebugString"),
            ("KERNEL", 1, "FatalExit"),
            ("KERNEL", 47, "GetModuleHandle"),
            ("KERNEL", 50, "GetProcAddress"),
            ("KERNEL", 51, "MakeProcInstance"),
            ("KERNEL", 95, "LoadLibrary"),
            ("User", 5, "InitApp"),
            ("USER", 1, "MessageBox"),
            ("TOOLHELP", 50, "GlobalHandleToSel"),
            ("TOOLHELP", 66, "StackTraceFirst"),
            ("TOOLHELP", 67, "StackTraceCSIPFirst"),
            ("TOOLHELP", 68, "StackTraceNext"),
            ("TOOLHELP", 75, "InterruptRegister"),
            ("TOOLHELP", 80, "TimerCount"),
        ] {
            assert_eq!(ordinal_name(m, o), Some(n), "{m}.{o}");
            assert_eq!(ordinal_of(m, &n.to_ascii_uppercase()), Some(o), "{m} {n}");
        }
        assert_eq!(ordinal_name("KERNEL", 9999), None);
        assert_eq!(ordinal_name("NOSUCH", 1), None);
        assert_eq!(ordinal_of("USER", "NoSuchFunction"), None);
    }

    #[test]
    fn tables_are_sorted_and_unique() {
        for m in [
            "KERNEL", "USER", "GDI", "KEYBOARD", "SOUND", "WIN87EM", "TOOLHELP", "SYSTEM",
            "COMMDLG", "SHELL",
        ] {
            let t = table(m).unwrap();
            assert!(t.windows(2).all(|w| w[0].0 < w[1].0), "{m} not sorted");
            for (_, n) in t {
                assert_eq!(
                    t.iter().filter(|(_, x)| x.eq_ignore_ascii_case(n)).count(),
                    1
                );
            }
        }
    }

    /// Cross-check against the corpus ORD tables where they exist (names
    /// compared case-insensitively).
    #[test]
    fn agrees_with_corpus_ord_files() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/ord");
        if !std::path::Path::new(dir).is_dir() {
            eprintln!("SKIP: ordnames corpus check: {dir} corpus absent");
            return;
        }
        for m in [
            "KERNEL", "USER", "GDI", "KEYBOARD", "SOUND", "COMMDLG", "SHELL", "TOOLHELP",
        ] {
            let text = std::fs::read_to_string(format!("{dir}/{m}.ORD")).unwrap();
            for (o, n) in table(m).unwrap() {
                let line = text
                    .lines()
                    .find(|l| l.split('\t').next() == Some(&o.to_string()))
                    .unwrap_or_else(|| panic!("{m}.{o} missing from ORD"));
                let ord_name = line.split('\t').nth(1).unwrap_or("").trim();
                assert!(
                    ord_name.eq_ignore_ascii_case(n),
                    "{m}.{o}: {n} vs {ord_name}"
                );
            }
        }
    }
}
