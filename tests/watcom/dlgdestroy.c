/* dlgdestroy: a dialog's window words and data through its destruction
 * (tests/win16_behave.rs).
 *
 * Windows 3.1 SDK, DefDlgProc and GetWindowLong (DWL_MSGRESULT 0,
 * DWL_DLGPROC 4, DWL_USER 8: the dialog's extra window bytes,
 * DLGWINDOWEXTRA): the dialog procedure gets every message DefDlgProc
 * gets, WM_DESTROY and WM_NCDESTROY included; a procedure that handles a
 * message returns TRUE and puts the message's result in DWL_MSGRESULT,
 * which SendMessage then returns. The window words last until the
 * window's WM_NCDESTROY; its children are destroyed (WM_NCDESTROY) before
 * it. Prints:
 *   msgresult 1 0 0     SendMessage(DM_GETDEFID) = the DWL_MSGRESULT set
 *   destroy 1 1 1       in WM_DESTROY: DWL_USER, DWL_DLGPROC, the item
 *   ncdestroy 1 1 0     in WM_NCDESTROY: DWL_USER, and the item is gone
 *   alive 0 0 0         IsWindow after DestroyWindow
 */
#include <windows.h>

static void say(const char *what, long a, long b, long c)
{
    char buf[128];
    int n = wsprintf(buf, "%s %ld %ld %ld\r\n", (LPSTR)what, a, b, c);
    _lwrite(1, buf, n);
}

static FARPROC proc;

BOOL FAR PASCAL _export DlgProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    switch (m) {
    case WM_INITDIALOG:
        SetWindowLong(h, DWL_USER, 0x12345678L);
        return TRUE;
    case DM_GETDEFID:
        SetWindowLong(h, DWL_MSGRESULT, MAKELONG(77, DC_HASDEFID));
        return TRUE;
    case WM_DESTROY:
        say("destroy", GetWindowLong(h, DWL_USER) == 0x12345678L,
            GetWindowLong(h, DWL_DLGPROC) == (LONG)proc,
            GetDlgItem(h, IDOK) != 0);
        return FALSE;
    case WM_NCDESTROY:
        say("ncdestroy", GetWindowLong(h, DWL_USER) == 0x12345678L,
            GetDlgItem(h, IDOK) == 0, 0);
        return FALSE;
    }
    return FALSE;
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HWND d;
    DWORD r;

    proc = MakeProcInstance((FARPROC)DlgProc, hi);
    d = CreateDialog(hi, "D", NULL, (DLGPROC)proc);
    r = SendMessage(d, DM_GETDEFID, 0, 0);
    say("msgresult", r == MAKELONG(77, DC_HASDEFID), 0, 0);
    DestroyWindow(d);
    say("alive", IsWindow(d), 0, 0);
    return 0;
}
