/* servewin.c: a window painted in known colours, then three nested calls,
 * for tests/serve.rs, which looks at the moment inside the innermost call
 * in `toolhelp16 serve`'s page and compares it with `run --screenshot`,
 * `stack` and `debug` at the same instruction count.
 *
 * WinMain registers a class, creates a 320x200 overlapped window at
 * (40, 30), shows it and updates it: WM_PAINT fills the client rectangle
 * (10,10)-(110,60) with pure red (RGB(255,0,0): FillRect with a solid
 * brush, SDK reference "FillRect", "CreateSolidBrush") and writes "serve"
 * at (10,70). Then WinMain calls Shown(20), which calls Middle(40),
 * which calls Deeper(41): three far PASCAL frames above WinMain (not
 * exported: an exported function's prologue takes DS from AX, which only a
 * MakeProcInstance thunk sets; their names come from wlink's map). Deeper
 * prints "deeper 41", the window is destroyed, WM_DESTROY posts
 * WM_QUIT and the message loop ends; the exit code is 0.
 */
#include <windows.h>

static char line[64];

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

LONG FAR PASCAL _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    PAINTSTRUCT ps;
    HBRUSH br;
    RECT r;

    switch (msg) {
    case WM_PAINT:
        BeginPaint(hwnd, &ps);
        SetRect(&r, 10, 10, 110, 60);
        br = CreateSolidBrush(RGB(255, 0, 0));
        FillRect(ps.hdc, &r, br);
        DeleteObject(br);
        TextOut(ps.hdc, 10, 70, "serve", 5);
        EndPaint(hwnd, &ps);
        return 0;
    case WM_DESTROY:
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int FAR PASCAL Deeper(int n)
{
    wsprintf(line, "deeper %d", n);
    out(line);
    return n + 1;
}

int FAR PASCAL Middle(int n)
{
    return Deeper(n + 1) + 1;
}

int FAR PASCAL Shown(int n)
{
    return Middle(n * 2) + 1;
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    WNDCLASS wc;
    HWND hwnd;
    MSG msg;

    if (!hPrev) {
        wc.style = CS_HREDRAW | CS_VREDRAW;
        wc.lpfnWndProc = WndProc;
        wc.cbClsExtra = 0;
        wc.cbWndExtra = 0;
        wc.hInstance = hInst;
        wc.hIcon = NULL;
        wc.hCursor = LoadCursor(NULL, IDC_ARROW);
        wc.hbrBackground = GetStockObject(WHITE_BRUSH);
        wc.lpszMenuName = NULL;
        wc.lpszClassName = "ServeWin";
        if (!RegisterClass(&wc))
            return 1;
    }
    hwnd = CreateWindow("ServeWin", "Serve", WS_OVERLAPPEDWINDOW,
                        40, 30, 320, 200, NULL, NULL, hInst, NULL);
    ShowWindow(hwnd, nCmdShow);
    UpdateWindow(hwnd);
    Shown(20);
    DestroyWindow(hwnd);
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    return msg.wParam;
}
