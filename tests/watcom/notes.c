/* notes.c: a small text editor that starts up the way the Windows 3.1
 * accessories and the SDK's samples did, touching at start-up what real
 * applications touch and textbook samples do not (tests/win16_apps.rs):
 *
 * - it is built in the small model, so Open Watcom's malloc takes its
 *   blocks from the local heap, and it allocates its document (24 KiB)
 *   and a line table far beyond the 1 KiB heap its header declares: the
 *   local heap must grow (KERNEL enlarged DGROUP, up to 64 KiB);
 * - it opens the file its command line names, or starts "Untitled" when
 *   there is none (lpCmdLine is "" then, not "\r");
 * - it reads WIN.INI ([intl] sDecimal, [windows] device=) and makes an
 *   information context for the default printer to lay out its pages
 *   (TEXTMETRIC's height, LOGPIXELSY), dividing by what GetTextExtent
 *   and GetTextMetrics return;
 * - it asks COMMDLG for the default printer (PrintDlg, PD_RETURNDEFAULT);
 * - its main window is placed by CW_USEDEFAULT and filled by a
 *   multi-line edit control; its caption names the document.
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   doc <the document's name> <its size>
 *   heap <malloc'd blocks> <LocalAlloc(LMEM_MOVEABLE, 24 KiB) != 0>
 *   intl <sDecimal>
 *   printer <driver> <lines per page on the printer, > 0 printed as ok>
 *   printdlg <PrintDlg(PD_RETURNDEFAULT)> 
 *   window <caption> <its left edge is on the screen: ok>
 *   extent <"W" measured: ok when wider than 0>
 *   quit <wParam of WM_QUIT>
 * Expected values: the Windows 3.1 SDK pages of each function; WIN.INI of
 * a fresh Windows 3.1 (sDecimal ".", device= an HP LaserJet III on
 * HPPCL5A).
 */
#include <windows.h>
#include <commdlg.h>
#include <stdlib.h>
#include <string.h>

static char line[256];
static char name[128];
static HWND edit;
static HLOCAL doc;

static void out(const char *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

LONG FAR PASCAL _export WndProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    switch (m) {
    case WM_CREATE:
        edit = CreateWindow("edit", NULL,
                            WS_CHILD | WS_VISIBLE | WS_VSCROLL | ES_MULTILINE | ES_AUTOVSCROLL,
                            0, 0, 0, 0, h, (HMENU)1,
                            ((LPCREATESTRUCT)l)->hInstance, NULL);
        return edit ? 0 : -1;
    case WM_SIZE:
        MoveWindow(edit, 0, 0, LOWORD(l), HIWORD(l), TRUE);
        return 0;
    case WM_SETFOCUS:
        SetFocus(edit);
        return 0;
    case WM_DESTROY:
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProc(h, m, w, l);
}

static void layout(void)
{
    char dev[80], *driver, *port;
    HDC ic;
    TEXTMETRIC tm;
    int lines;

    GetProfileString("windows", "device", "", dev, sizeof dev);
    driver = strchr(dev, ',');
    if (driver == NULL) {
        out("printer none");
        return;
    }
    *driver++ = 0;
    port = strchr(driver, ',');
    if (port != NULL)
        *port++ = 0;
    ic = CreateIC(driver, dev, port, NULL);
    if (ic == NULL) {
        out("printer noic");
        return;
    }
    GetTextMetrics(ic, &tm);
    /* Lines on a page with one-inch margins (11 - 2 inches). */
    lines = (GetDeviceCaps(ic, LOGPIXELSY) * 9) / (tm.tmHeight + tm.tmExternalLeading);
    wsprintf(line, "printer %s %s", (LPSTR)driver, (LPSTR)(lines > 0 ? "ok" : "bad"));
    out(line);
    DeleteDC(ic);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    MSG msg;
    HWND h;
    HDC dc;
    RECT r;
    PRINTDLG pd;
    OFSTRUCT of;
    HFILE f;
    char *blocks[40];
    int n, size = 0;
    DWORD ext;

    if (cmd[0] != 0) {
        lstrcpy(name, cmd);
        f = OpenFile(name, &of, OF_READ);
        if (f == HFILE_ERROR) {
            wsprintf(line, "Cannot open file %s.", (LPSTR)name);
            MessageBox(NULL, line, "Notes", MB_OK | MB_ICONEXCLAMATION);
            return 1;
        }
        size = (int)_llseek(f, 0, 2);
        _lclose(f);
    } else {
        lstrcpy(name, "Untitled");
    }
    wsprintf(line, "doc %s %d", (LPSTR)name, size);
    out(line);

    for (n = 0; n < 40; n++) {
        blocks[n] = malloc(256);
        if (blocks[n] == NULL)
            break;
    }
    doc = LocalAlloc(LMEM_MOVEABLE | LMEM_ZEROINIT, 24 * 1024);
    wsprintf(line, "heap %d %d", n, doc != NULL);
    out(line);
    if (doc == NULL) {
        MessageBox(NULL, "Not enough memory.", "Notes", MB_OK | MB_ICONHAND);
        return 1;
    }

    GetProfileString("intl", "sDecimal", "?", line + 100, 10);
    wsprintf(line, "intl %s", (LPSTR)(line + 100));
    out(line);
    layout();

    memset(&pd, 0, sizeof pd);
    pd.lStructSize = sizeof pd;
    pd.Flags = PD_RETURNDEFAULT;
    wsprintf(line, "printdlg %d", PrintDlg(&pd));
    out(line);

    if (!hp) {
        memset(&wc, 0, sizeof wc);
        wc.style = CS_HREDRAW | CS_VREDRAW;
        wc.lpfnWndProc = WndProc;
        wc.hInstance = hi;
        wc.hIcon = LoadIcon(NULL, IDI_APPLICATION);
        wc.hCursor = LoadCursor(NULL, IDC_ARROW);
        wc.hbrBackground = (HBRUSH)(COLOR_WINDOW + 1);
        wc.lpszClassName = "Notes";
        if (!RegisterClass(&wc))
            return 1;
    }
    wsprintf(line, "Notes - %s", (LPSTR)name);
    h = CreateWindow("Notes", line, WS_OVERLAPPEDWINDOW, CW_USEDEFAULT, 0,
                     CW_USEDEFAULT, 0, NULL, NULL, hi, NULL);
    if (h == NULL)
        return 1;
    ShowWindow(h, show);
    UpdateWindow(h);
    GetWindowText(h, line + 100, 100);
    GetWindowRect(h, &r);
    wsprintf(line, "window %s %s", (LPSTR)(line + 100),
             (LPSTR)(r.left >= 0 && r.left < GetSystemMetrics(SM_CXSCREEN) ? "ok" : "off"));
    out(line);

    dc = GetDC(h);
    ext = GetTextExtent(dc, "W", 1);
    ReleaseDC(h, dc);
    wsprintf(line, "extent %s", (LPSTR)(LOWORD(ext) > 0 && 640 / LOWORD(ext) > 0 ? "ok" : "zero"));
    out(line);

    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    wsprintf(line, "quit %d", msg.wParam);
    out(line);
    return msg.wParam;
}
