/* dlgdefpos: dialog templates whose x is CW_USEDEFAULT (0x8000)
 * (tests/win16_behave.rs).
 *
 * Windows 3.1 SDK, CreateWindow (x): CW_USEDEFAULT selects the default
 * position of an overlapped window's upper-left corner and ignores y; it
 * is valid only for overlapped windows: for a pop-up or child x and y are
 * set to zero. The dialog manager passes the template's x through to
 * CreateWindow, so:
 *   over on-screen 1      the overlapped dialog's rectangle starts on the
 *                         screen (0 <= left, top < half the screen)
 *   over size 1           its client area is the template's 160 x 80 units
 *                         (MapDialogRect)
 *   popup at 0 0          the pop-up dialog's window is at (0, 0)
 */
#include <windows.h>

static void say(const char *what, long a, long b)
{
    char buf[128];
    int n = wsprintf(buf, "%s %ld %ld\r\n", (LPSTR)what, a, b);
    _lwrite(1, buf, n);
}

BOOL FAR PASCAL _export DlgProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    return m == WM_INITDIALOG;
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    FARPROC p = MakeProcInstance((FARPROC)DlgProc, hi);
    HWND h = CreateDialog(hi, "OVER", NULL, (DLGPROC)p);
    HWND q = CreateDialog(hi, "POPUP", NULL, (DLGPROC)p);
    RECT r, c, u;
    int sx = GetSystemMetrics(SM_CXSCREEN), sy = GetSystemMetrics(SM_CYSCREEN);
    GetWindowRect(h, &r);
    GetClientRect(h, &c);
    u.left = 0; u.top = 0; u.right = 160; u.bottom = 80;
    MapDialogRect(h, &u);
    say("over on-screen", r.left >= 0 && r.left < sx / 2, r.top >= 0 && r.top < sy / 2);
    say("over size", c.right == u.right, c.bottom == u.bottom);
    GetWindowRect(q, &r);
    say("popup at", r.left, r.top);
    DestroyWindow(q);
    DestroyWindow(h);
    return 0;
}
