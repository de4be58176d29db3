/* textdc: text extents on the DCs real programs measure with
 * (tests/win16_behave.rs).
 *
 * Windows 3.1 SDK, GetDC: USER hands out one of its common (cache) DCs,
 * "assigned default attributes each time it is retrieved", and ReleaseDC
 * gives it back to the cache: the handle stays a DC (programs that keep
 * using it after ReleaseDC measured text with the default font, the
 * System font, instead of getting 0 and dividing by it). GetTextExtent's
 * result is in logical units (SDK, GetTextExtent): under MM_TWIPS a
 * device width w is w * 1440 * HORZSIZE / (25.4 * HORZRES) twips.
 * Prints:
 *   fresh 1            GetTextExtent on GetDC's DC is not 0
 *   released 1         the same DC after ReleaseDC measures as before
 *   defaults 1         a DC handed out again has the default font back
 *   tm 1               GetTextMetrics on the released DC: tmAveCharWidth > 0
 *   twips 1            MM_TWIPS extent = the device extent in twips (+-1)
 *   point 1            GetTextExtentPoint agrees with GetTextExtent
 */
#include <windows.h>
#include <string.h>

static void say(const char *what, long r)
{
    char buf[128];
    int n = wsprintf(buf, "%s %ld\r\n", (LPSTR)what, r);
    _lwrite(1, buf, n);
}

static const char text[] = "Hello, world";

LONG FAR PASCAL _export WndProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    if (m == WM_CREATE) {
        HDC dc = GetDC(h), dc2;
        DWORD fresh, later, again;
        TEXTMETRIC tm;
        HFONT f;
        long dev, tw, want;
        SIZE sz;

        fresh = GetTextExtent(dc, text, sizeof text - 1);
        say("fresh", LOWORD(fresh) != 0 && HIWORD(fresh) != 0);
        f = CreateFont(-30, 0, 0, 0, 700, 0, 0, 0, ANSI_CHARSET, 0, 0, 0,
                       FF_ROMAN, "Tms Rmn");
        SelectObject(dc, f);
        ReleaseDC(h, dc);
        later = GetTextExtent(dc, text, sizeof text - 1);
        say("released", later == fresh);
        dc2 = GetDC(h);
        again = GetTextExtent(dc2, text, sizeof text - 1);
        say("defaults", again == fresh);
        ReleaseDC(h, dc2);
        DeleteObject(f);
        tm.tmAveCharWidth = 0;
        GetTextMetrics(dc, &tm);
        say("tm", tm.tmAveCharWidth > 0);

        dc = GetDC(h);
        dev = LOWORD(GetTextExtent(dc, text, sizeof text - 1));
        SetMapMode(dc, MM_TWIPS);
        tw = LOWORD(GetTextExtent(dc, text, sizeof text - 1));
        want = (dev * 14400L * GetDeviceCaps(dc, HORZSIZE)
                / (254L * GetDeviceCaps(dc, HORZRES)));
        say("twips", tw >= want - 1 && tw <= want + 1);
        GetTextExtentPoint(dc, text, sizeof text - 1, &sz);
        say("point", sz.cx == tw);
        ReleaseDC(h, dc);
    }
    if (m == WM_DESTROY)
        PostQuitMessage(0);
    return DefWindowProc(h, m, w, l);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    MSG msg;
    HWND h;

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = hi;
    wc.hbrBackground = GetStockObject(WHITE_BRUSH);
    wc.lpszClassName = "TextDC";
    RegisterClass(&wc);
    h = CreateWindow("TextDC", "Text", WS_OVERLAPPEDWINDOW, CW_USEDEFAULT, 0,
                     CW_USEDEFAULT, 0, NULL, NULL, hi, NULL);
    DestroyWindow(h);
    while (GetMessage(&msg, 0, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    return 0;
}
