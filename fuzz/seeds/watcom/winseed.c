/* A fuzz seed (examples/fuzz.rs, target `programs`): a Win16 program
 * with a window, a message loop, a timer and local and global memory. */
#include <windows.h>

static char szClass[] = "FuzzSeed";

LRESULT CALLBACK _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_TIMER:
        KillTimer(hwnd, 1);
        DestroyWindow(hwnd);
        return 0;
    case WM_DESTROY:
        PostQuitMessage(7);
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nShow)
{
    WNDCLASS wc;
    HWND hwnd;
    MSG msg;
    HGLOBAL hg;
    HLOCAL hl;
    char buf[80];

    if (!hPrev) {
        wc.style = CS_HREDRAW | CS_VREDRAW;
        wc.lpfnWndProc = WndProc;
        wc.cbClsExtra = 0;
        wc.cbWndExtra = 0;
        wc.hInstance = hInst;
        wc.hIcon = LoadIcon(NULL, IDI_APPLICATION);
        wc.hCursor = LoadCursor(NULL, IDC_ARROW);
        wc.hbrBackground = GetStockObject(WHITE_BRUSH);
        wc.lpszMenuName = NULL;
        wc.lpszClassName = szClass;
        RegisterClass(&wc);
    }
    hg = GlobalAlloc(GMEM_MOVEABLE, 4000);
    hl = LocalAlloc(LMEM_MOVEABLE, 100);
    wsprintf(buf, "global %04X local %04X\r\n", (UINT)hg, (UINT)hl);
    _lwrite(1, buf, lstrlen(buf));
    hwnd = CreateWindow(szClass, "Seed", WS_OVERLAPPEDWINDOW, CW_USEDEFAULT, 0,
                        200, 100, NULL, NULL, hInst, NULL);
    ShowWindow(hwnd, nShow);
    SetTimer(hwnd, 1, 10, NULL);
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    GlobalFree(hg);
    LocalFree(hl);
    return msg.wParam;
}
