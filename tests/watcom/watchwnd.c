/* watchwnd.c: a Win16 program whose window procedure writes a global, for
 * watchpoints in a nested emulation with and without the debugger's hook
 * on every instruction (tests/debug_fast.rs). WinMain prints the global's
 * offset in the data segment ("total at XXXX"), creates a window and
 * sends it WM_USER+1 five times (SendMessage runs WndProc inside USER, a
 * nested emulation; SDK, SendMessage); WndProc adds 10 * wParam + 1 to
 * `total` with one instruction writing it. Then it prints "total 105"
 * (the sum of 10*i + 1 for i from 0 to 4) and exits with code 0.
 * Built with -d2, so the session can break at a line (LINE-... markers).
 */
#include <windows.h>

static int total;

LRESULT CALLBACK __export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 1) {
        int add = 10 * (int)wp + 1;     /* LINE-WATCH-ADD */
        total += add;                   /* LINE-WATCH-WRITE */
        return (LRESULT)total;          /* LINE-WATCH-RETURN */
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    WNDCLASS wc;
    HWND hwnd;
    char buf[64];
    int i, n;

    n = wsprintf(buf, "total at %04X\r\n", (unsigned)(void near *)&total);
    _lwrite(1, buf, n);
    wc.style = 0;
    wc.lpfnWndProc = WndProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "WatchWnd";
    if (!RegisterClass(&wc))
        return 1;
    hwnd = CreateWindow("WatchWnd", "watchwnd", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                        NULL, NULL, hInst, NULL);
    if (!hwnd)
        return 2;
    for (i = 0; i < 5; i++)
        SendMessage(hwnd, WM_USER + 1, (WPARAM)i, 0L);
    DestroyWindow(hwnd);
    n = wsprintf(buf, "total %d\r\n", total);
    _lwrite(1, buf, n);                 /* LINE-WATCH-PRINT */
    return 0;
}
