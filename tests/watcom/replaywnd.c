/* replaywnd.c: a Win16 program that runs long in a nested window
 * procedure, for reverse execution deep in a run with and without the
 * debugger's hook on every instruction (tests/replay_fast.rs). WinMain
 * prints the global's offset in the data segment ("total at XXXX"),
 * creates a window and sends it WM_USER+1 64 times (SendMessage runs
 * WndProc inside USER, a nested emulation; SDK, SendMessage). WndProc
 * mixes wParam into the global `mix` 1000 times, then adds its low byte
 * plus one to the global `total` with one instruction writing it. At the
 * end WinMain prints "total N mix M" (the test computes both the same
 * way) and exits with code 0. Built with -d2, so the session can break
 * at a line (LINE-... markers).
 */
#include <windows.h>

static unsigned total;
static unsigned mix = 1;

LRESULT CALLBACK __export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 1) {
        unsigned j;
        for (j = 0; j < 1000; j++)
            mix = mix * 33u + (unsigned)wp + j; /* LINE-REPLAY-MIX */
        total += (mix & 0xFFu) + 1u;            /* LINE-REPLAY-WRITE */
        return (LRESULT)total;                  /* LINE-REPLAY-RETURN */
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
    wc.lpszClassName = "ReplayWnd";
    if (!RegisterClass(&wc))
        return 1;
    hwnd = CreateWindow("ReplayWnd", "replaywnd", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                        NULL, NULL, hInst, NULL);
    if (!hwnd)
        return 2;
    for (i = 0; i < 64; i++)
        SendMessage(hwnd, WM_USER + 1, (WPARAM)i, 0L);
    DestroyWindow(hwnd);
    n = wsprintf(buf, "total %u mix %u\r\n", total, mix);
    _lwrite(1, buf, n);
    return 0;
}
