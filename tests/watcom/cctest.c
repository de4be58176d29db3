/* cctest.c: Windows for Workgroups' COMMCTRL.DLL status bar and toolbar
 * (tests/win16_exports31.rs). The functions are reached by ordinal
 * (GetProcAddress), as the SDK of Windows 3.1 has no COMMCTRL.H. Each
 * check prints one line with OutputDebugString. */
#include <windows.h>
#include <string.h>

#define SB_SETTEXT (WM_USER + 1)
#define SB_GETTEXT (WM_USER + 2)
#define SB_GETTEXTLENGTH (WM_USER + 3)
#define SB_SETPARTS (WM_USER + 4)
#define SB_GETPARTS (WM_USER + 6)
#define SB_SIMPLE (WM_USER + 9)
#define SBT_POPOUT 0x0200
#define TB_ENABLEBUTTON (WM_USER + 1)
#define TB_CHECKBUTTON (WM_USER + 2)
#define TB_ISBUTTONENABLED (WM_USER + 9)
#define TB_ISBUTTONCHECKED (WM_USER + 10)
#define TB_GETSTATE (WM_USER + 18)
#define TB_BUTTONCOUNT (WM_USER + 24)
#define TB_COMMANDTOINDEX (WM_USER + 25)
#define TBSTATE_ENABLED 0x04
#define TBSTYLE_SEP 0x01
#define TBSTYLE_CHECK 0x02

typedef struct { int iBitmap; int idCommand; BYTE fsState; BYTE fsStyle; DWORD dwData; int iString; } TBBUTTON;

typedef HWND (FAR PASCAL *UPDOWNFN)(DWORD, int, int, int, int, HWND, int, HINSTANCE, HWND, int, int, int);
#define UDM_SETRANGE (WM_USER + 101)
#define UDM_GETRANGE (WM_USER + 102)
#define UDM_SETPOS (WM_USER + 103)
#define UDM_GETPOS (WM_USER + 104)
#define UDM_GETBUDDY (WM_USER + 106)
#define UDM_SETBASE (WM_USER + 109)
#define UDS_SETBUDDYINT 0x0002
#define UDS_ALIGNRIGHT 0x0004

typedef void (FAR PASCAL *INITFN)(void);
typedef HWND (FAR PASCAL *STATUSFN)(LONG, LPCSTR, HWND, UINT);
typedef HWND (FAR PASCAL *TOOLBARFN)(HWND, DWORD, UINT, int, HINSTANCE, UINT, TBBUTTON FAR *, int);
typedef void (FAR PASCAL *DRAWFN)(HDC, LPRECT, LPCSTR, UINT);
typedef void (FAR PASCAL *EFFFN)(HWND, LPRECT, LPINT);
typedef BOOL (FAR PASCAL *SHOWHIDEFN)(HWND, UINT, LPINT);

static char buf[200];
static void say(void) { OutputDebugString(buf); }
static int command = 0;
static int vscroll = -1;

static FARPROC proc(int ordinal)
{
    return GetProcAddress(LoadLibrary("COMMCTRL.DLL"), MAKEINTRESOURCE(ordinal));
}

long FAR PASCAL _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_COMMAND) command = wp;
    if (msg == WM_VSCROLL && wp == SB_THUMBPOSITION) vscroll = LOWORD(lp);
    if (msg == WM_DESTROY) PostQuitMessage(0);
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    WNDCLASS wc;
    HWND hwnd, sb, tb;
    RECT rc, rs, rt, re;
    int parts[2], got[2];
    char text[40];
    DWORD r;
    HMENU menu;
    static int info[] = { 0, 0, 1, 100, 2, 101, 0, 0 };
    static TBBUTTON buttons[3] = {
        { 0, 201, TBSTATE_ENABLED, 0, 0L, 0 },
        { 0, 0, 0, TBSTYLE_SEP, 0L, 0 },
        { 1, 202, TBSTATE_ENABLED, TBSTYLE_CHECK, 0L, 0 },
    };
    HDC screen, mem;
    HBITMAP bm, oldbm;
    MSG m;

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = inst;
    wc.hbrBackground = (HBRUSH)(COLOR_WINDOW + 1);
    wc.hCursor = LoadCursor(NULL, IDC_ARROW);
    wc.lpszClassName = "CCTest";
    RegisterClass(&wc);
    menu = CreateMenu();
    AppendMenu(menu, MF_STRING | MF_CHECKED, 1, "&Status bar");
    AppendMenu(menu, MF_STRING | MF_CHECKED, 2, "&Toolbar");
    info[1] = (int)menu;
    hwnd = CreateWindow("CCTest", "Common controls", WS_OVERLAPPEDWINDOW, 10, 10, 400, 300,
                        NULL, menu, inst, NULL);
    ShowWindow(hwnd, show);
    ((INITFN)proc(17))();
    sb = ((STATUSFN)proc(6))(WS_CHILD | WS_VISIBLE, "Ready", hwnd, 100);
    GetClientRect(hwnd, &rc);
    GetWindowRect(sb, &rs);
    ScreenToClient(hwnd, (LPPOINT)&rs.left);
    ScreenToClient(hwnd, (LPPOINT)&rs.right);
    wsprintf(buf, "status %d bottom %d width %d", sb != NULL, rs.bottom == rc.bottom,
             rs.left == 0 && rs.right == rc.right);
    say();
    r = SendMessage(sb, SB_GETTEXT, 0, (LPARAM)(LPSTR)text);
    wsprintf(buf, "text %s %ld %d", (LPSTR)text, r, GetWindowTextLength(sb));
    say();
    parts[0] = 200;
    parts[1] = -1;
    SendMessage(sb, SB_SETPARTS, 2, (LPARAM)(LPINT)parts);
    SendMessage(sb, SB_SETTEXT, 1 | SBT_POPOUT, (LPARAM)(LPSTR)"NUM");
    r = SendMessage(sb, SB_GETPARTS, 2, (LPARAM)(LPINT)got);
    wsprintf(buf, "parts %ld %d %d len %08lX", r, got[0], got[1],
             SendMessage(sb, SB_GETTEXTLENGTH, 1, 0));
    say();
    SendMessage(sb, SB_SIMPLE, TRUE, 0);
    SendMessage(sb, SB_SETTEXT, 255, (LPARAM)(LPSTR)"Help text");
    r = SendMessage(sb, SB_GETTEXT, 0, (LPARAM)(LPSTR)text);
    wsprintf(buf, "simple %s %ld", (LPSTR)text, r);
    say();
    SendMessage(sb, SB_SIMPLE, FALSE, 0);

    tb = ((TOOLBARFN)proc(7))(hwnd, WS_CHILD | WS_VISIBLE, 101, 2, inst, 0, buttons, 3);
    GetWindowRect(tb, &rt);
    ScreenToClient(hwnd, (LPPOINT)&rt.left);
    ScreenToClient(hwnd, (LPPOINT)&rt.right);
    wsprintf(buf, "toolbar %d top %d width %d count %ld index %ld", tb != NULL, rt.top == 0,
             rt.left == 0 && rt.right == rc.right, SendMessage(tb, TB_BUTTONCOUNT, 0, 0),
             SendMessage(tb, TB_COMMANDTOINDEX, 202, 0));
    say();
    SendMessage(tb, TB_CHECKBUTTON, 202, MAKELONG(TRUE, 0));
    SendMessage(tb, TB_ENABLEBUTTON, 201, MAKELONG(FALSE, 0));
    wsprintf(buf, "states %ld %ld %ld %ld %ld", SendMessage(tb, TB_ISBUTTONCHECKED, 202, 0),
             SendMessage(tb, TB_ISBUTTONENABLED, 201, 0), SendMessage(tb, TB_GETSTATE, 202, 0),
             SendMessage(tb, TB_GETSTATE, 999, 0), SendMessage(tb, TB_ISBUTTONCHECKED, 999, 0));
    say();
    /* a click on the second button (x 40..64) */
    SendMessage(tb, WM_LBUTTONDOWN, MK_LBUTTON, MAKELONG(50, 10));
    SendMessage(tb, WM_LBUTTONUP, 0, MAKELONG(50, 10));
    wsprintf(buf, "click %d checked %ld", command, SendMessage(tb, TB_ISBUTTONCHECKED, 202, 0));
    say();
    /* the disabled first button does nothing */
    command = 0;
    SendMessage(tb, WM_LBUTTONDOWN, MK_LBUTTON, MAKELONG(12, 10));
    SendMessage(tb, WM_LBUTTONUP, 0, MAKELONG(12, 10));
    wsprintf(buf, "disabled %d", command);
    say();

    ((EFFFN)proc(4))(hwnd, &re, info);
    wsprintf(buf, "effective %d %d %d", re.top == rt.bottom, re.bottom == rs.top,
             re.right == rc.right);
    say();
    r = ((SHOWHIDEFN)proc(3))(hwnd, 1, info);
    wsprintf(buf, "showhide %ld visible %d checked %d unknown %d", r, IsWindowVisible(sb),
             (GetMenuState(menu, 1, MF_BYCOMMAND) & MF_CHECKED) != 0,
             ((SHOWHIDEFN)proc(3))(hwnd, 7, info));
    say();
    ((EFFFN)proc(4))(hwnd, &re, info);
    wsprintf(buf, "effective-hidden %d", re.bottom == rc.bottom);
    say();
    ((SHOWHIDEFN)proc(3))(hwnd, 1, info);

    screen = GetDC(NULL);
    mem = CreateCompatibleDC(screen);
    bm = CreateCompatibleBitmap(screen, 40, 20);
    oldbm = SelectObject(mem, bm);
    SetRect(&re, 0, 0, 40, 20);
    ((DRAWFN)proc(5))(mem, &re, "", 0);
    wsprintf(buf, "draw %06lX %06lX %06lX %06lX", GetPixel(mem, 0, 0), GetPixel(mem, 39, 19),
             GetPixel(mem, 20, 10), GetPixel(mem, 0, 19) );
    say();
    SelectObject(mem, oldbm);
    DeleteObject(bm);
    DeleteDC(mem);
    ReleaseDC(NULL, screen);

    {
        HWND edit = CreateWindow("EDIT", "", WS_CHILD | WS_VISIBLE | WS_BORDER, 100, 100, 80, 24,
                                 hwnd, (HMENU)300, inst, NULL);
        HWND ud = ((UPDOWNFN)proc(16))(WS_CHILD | WS_VISIBLE | UDS_SETBUDDYINT | UDS_ALIGNRIGHT,
                                       0, 0, 16, 24, hwnd, 301, inst, edit, 10, 0, 5);
        RECT re2, ru;
        char t[16];
        DWORD range = SendMessage(ud, UDM_GETRANGE, 0, 0), pos, bad;
        GetWindowText(edit, t, sizeof t);
        GetWindowRect(edit, &re2);
        GetWindowRect(ud, &ru);
        wsprintf(buf, "updown %d range %08lX buddy %d text %s beside %d", ud != NULL, range,
                 SendMessage(ud, UDM_GETBUDDY, 0, 0) == (LONG)(UINT)edit, (LPSTR)t,
                 ru.left == re2.right && re2.right - re2.left == 64);
        say();
        SendMessage(ud, WM_LBUTTONDOWN, MK_LBUTTON, MAKELONG(2, 2));
        SendMessage(ud, WM_LBUTTONUP, 0, MAKELONG(2, 2));
        GetWindowText(edit, t, sizeof t);
        wsprintf(buf, "up %ld text %s vscroll %d", SendMessage(ud, UDM_GETPOS, 0, 0), (LPSTR)t,
                 vscroll);
        say();
        SetWindowText(edit, "9");
        pos = SendMessage(ud, UDM_GETPOS, 0, 0);
        SetWindowText(edit, "abc");
        bad = SendMessage(ud, UDM_GETPOS, 0, 0);
        {
            DWORD old = SendMessage(ud, UDM_SETPOS, 0, MAKELONG(50, 0));
            DWORD b16 = SendMessage(ud, UDM_SETBASE, 16, 0);
            DWORD b7 = SendMessage(ud, UDM_SETBASE, 7, 0);
            DWORD clamped = SendMessage(ud, UDM_GETPOS, 0, 0);
            GetWindowText(edit, t, sizeof t);
            wsprintf(buf, "getpos %08lX %08lX old %ld base %ld %ld clamp %ld %s", pos, bad, old,
                     b16, b7, clamped, (LPSTR)t);
            say();
        }
        ud = ((UPDOWNFN)proc(16))(WS_CHILD, 0, 0, 16, 24, hwnd, 302, inst, NULL, 0, 100, 0);
        SendMessage(ud, UDM_SETRANGE, 0, MAKELONG(0, 100));
        wsprintf(buf, "range2 %08lX", SendMessage(ud, UDM_GETRANGE, 0, 0));
        say();
    }
    while (GetMessage(&m, NULL, 0, 0)) {
        TranslateMessage(&m);
        DispatchMessage(&m);
    }
    return m.wParam;
}
