/* fontwarn.c: asks twice for the Terminal face (tests/fonts.rs, the
 * warning for a missing font file said once, when it matters). Prints
 * "height N" (GetTextMetrics' tmHeight) for each request. */
#include <windows.h>

static char line[64];

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    int i;
    HDC dc = GetDC(NULL);
    for (i = 0; i < 2; i++) {
        TEXTMETRIC tm;
        HFONT f = CreateFont(12, 0, 0, 0, FW_NORMAL, 0, 0, 0, OEM_CHARSET, 0, 0, 0,
                             FIXED_PITCH, "Terminal");
        HFONT old = SelectObject(dc, f);
        GetTextMetrics(dc, &tm);
        TextOut(dc, 0, 0, "x", 1);
        SelectObject(dc, old);
        DeleteObject(f);
        wsprintf(line, "height %d\r\n", tm.tmHeight);
        _lwrite(1, line, lstrlen(line));
    }
    ReleaseDC(NULL, dc);
    return 0;
}
