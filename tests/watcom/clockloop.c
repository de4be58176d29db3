/* clockloop.c: a Win16 program that lives by the clock, as most real
 * ones do (tests/timed_inline.rs). It creates a window, sets a timer of
 * 55 ms (SetTimer), and runs an ordinary GetMessage/DispatchMessage loop.
 * On each of the first three WM_TIMER messages its window procedure
 * records GetTickCount(), the message's time (GetMessageTime) and then
 * busy-waits, reading GetTickCount until it has advanced by 60 ms (so
 * the next WM_TIMER is due when it returns to GetMessage) and
 * counting the reads (a Delay() as Turbo Pascal's runtime and many games
 * made it). After the third it kills the timer and posts WM_QUIT.
 *
 * Prints, one line per timer message (CR LF, handle 1):
 *   timer I tick T msgtime M waited W reads R
 * then "quit" and exits with code 0. The values depend on where in the
 * program's execution each clock read falls; the test runs the program
 * with the clock derived from the instruction count and with the clock
 * kept block by block, and compares the lines and the run.
 */
#include <windows.h>

static int fired;
static char buf[96];

static void out(int n)
{
    _lwrite(1, buf, n);
}

LRESULT CALLBACK __export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_TIMER) {
        DWORD t = GetTickCount();
        DWORD m = (DWORD)GetMessageTime();
        DWORD now = t;
        unsigned long reads = 0;
        while (now - t < 60) {
            now = GetTickCount();
            reads++;
        }
        out(wsprintf(buf, "timer %d tick %lu msgtime %lu waited %lu reads %lu\r\n", fired, t, m,
                     now - t, reads));
        if (++fired == 3) {
            KillTimer(hwnd, 1);
            PostQuitMessage(0);
        }
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    WNDCLASS wc;
    HWND hwnd;
    MSG msg;

    wc.style = 0;
    wc.lpfnWndProc = WndProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "ClockLoop";
    if (!RegisterClass(&wc))
        return 1;
    hwnd = CreateWindow("ClockLoop", "clockloop", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL,
                        NULL, hInst, NULL);
    if (!hwnd)
        return 2;
    if (!SetTimer(hwnd, 1, 55, NULL))
        return 3;
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    DestroyWindow(hwnd);
    out(wsprintf(buf, "quit\r\n"));
    return 0;
}
