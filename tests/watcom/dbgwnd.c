/* dbgwnd.c: a Win16 program with a window procedure, for debugging
 * sessions run with and without the debugger's hook on every instruction
 * (tests/debug_fast.rs). WinMain registers a class, creates a window and
 * sends it WM_USER+1 twenty times: each SendMessage runs WndProc in a
 * nested emulation (a window procedure called from inside USER), which
 * calls accumulate(). SendMessage returns what the window procedure
 * returned (SDK, SendMessage). The program prints "total 1900 calls 20
 * last 1900" (the sum of 10*i for i from 0 to 19) and exits with code 0.
 * Built with -d2, so the session can break at a line (LINE-... markers).
 */
#include <windows.h>

static int total;
static int calls;

int accumulate(int v)                   /* LINE-ACC */
{
    total += v;                         /* LINE-ACC-BODY */
    calls++;
    return total;                       /* LINE-ACC-RETURN */
}

LRESULT CALLBACK __export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 1) {
        int r = accumulate(10 * (int)wp);   /* LINE-WNDPROC-CALL */
        return (LRESULT)r;                  /* LINE-WNDPROC-RETURN */
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    WNDCLASS wc;
    HWND hwnd;
    char buf[64];
    int i, n;
    LRESULT last = 0;

    wc.style = 0;
    wc.lpfnWndProc = WndProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "DbgWnd";
    if (!RegisterClass(&wc))
        return 1;
    hwnd = CreateWindow("DbgWnd", "dbgwnd", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                        NULL, NULL, hInst, NULL);
    if (!hwnd)
        return 2;
    for (i = 0; i < 20; i++)
        last = SendMessage(hwnd, WM_USER + 1, (WPARAM)i, 0L);   /* LINE-SEND */
    DestroyWindow(hwnd);
    n = wsprintf(buf, "total %d calls %d last %ld\r\n", total, calls, last);
    _lwrite(1, buf, n);                 /* LINE-PRINT */
    return 0;
}
