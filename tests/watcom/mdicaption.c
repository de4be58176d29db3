/* mdicaption: the titles of MDI children in the Window menu and in the
 * frame's caption (tests/win16_behave.rs).
 *
 * Windows 3.1 SDK, "Multiple Document Interface" (Guide to Programming,
 * ch. 21): the MDI client appends each child's title to the Window menu
 * (CLIENTCREATESTRUCT.hWindowMenu) after a separator, numbered, with the
 * ids from idFirstChild, the active child checked; when a child is
 * maximized its title is joined to the frame's, "Frame - [Child]"
 * (Wine's MDI_UpdateFrameText gives the same form). A child's title is
 * MDICREATESTRUCT.szTitle.
 * Prints:
 *   child [Doc1]
 *   item 100 [&1 Doc1]
 *   item 101 [&2 Doc2]
 *   count checked [4 0 1]       "&Tile", separator, two children; the
 *                               active (last made) one checked
 *   frame max [App - [Doc2]]
 *   frame renamed [App - [Renamed]]
 *   item 101 renamed [&2 Renamed]
 *   frame retitled [NewApp - [Renamed]]
 *   frame restored [NewApp]
 *   after destroy 100 [&1 Renamed]   the remaining child moves up
 *   count id [3 100]                 and takes idFirstChild as its id
 *   count none [1]                   the separator goes with the last
 *   zero size is default [1 1]       a child made with cx = cy = 0 gets
 *                                    the default size, as CW_USEDEFAULT
 *                                    (Wine's MDICreateChild)
 *   new maximized [1 0]              made while a child is maximized, a
 *                                    child comes maximized and the other
 *                                    is restored (Wine's MDICreateChild)
 *   frame third [NewApp - [Third]]
 *   next checked [1 0]               WM_MDINEXT activates the first child
 *                                    (after the last): its item checked
 *   next maximized [1 0]             and, the active child having been
 *                                    maximized, it is maximized in its
 *                                    place (Wine's MDI_SwitchActiveChild)
 *   frame next [NewApp - [Zero]]
 *   moved 100 [&1 Zero]              WM_MDISETMENU with a new Window menu:
 *   counts old new [1 5]             the items move to it
 */
#include <windows.h>
#include <string.h>
static HWND client;
static HMENU sub;
static void say(const char *what, LPSTR s)
{
    char buf[128];
    int n = wsprintf(buf, "%s [%s]\r\n", (LPSTR)what, s);
    _lwrite(1, buf, n);
}
static void item(const char *what, UINT id)
{
    char t[80];
    t[0] = 0;
    GetMenuString(sub, id, t, sizeof t, MF_BYCOMMAND);
    say(what, t);
}
LONG FAR PASCAL _export FrameProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    if (m == WM_CREATE) {
        CLIENTCREATESTRUCT ccs;
        ccs.hWindowMenu = GetSubMenu(GetMenu(h), 0);
        ccs.idFirstChild = 100;
        client = CreateWindow("MDICLIENT", NULL, WS_CHILD | WS_CLIPCHILDREN | WS_VISIBLE,
            0, 0, 0, 0, h, (HMENU)1, (HINSTANCE)GetWindowWord(h, GWW_HINSTANCE), (LPSTR)&ccs);
        return 0;
    }
    if (m == WM_DESTROY) { PostQuitMessage(0); return 0; }
    return DefFrameProc(h, client, m, w, l);
}
LONG FAR PASCAL _export ChildProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    return DefMDIChildProc(h, m, w, l);
}
int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc; MSG msg; HWND f, c, c2; MDICREATESTRUCT mcs; char t[80];
    HMENU menu;
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = FrameProc; wc.hInstance = hi; wc.lpszClassName = "Frame";
    wc.hbrBackground = COLOR_APPWORKSPACE + 1;
    RegisterClass(&wc);
    wc.lpfnWndProc = ChildProc; wc.lpszClassName = "Child"; wc.hbrBackground = GetStockObject(WHITE_BRUSH);
    RegisterClass(&wc);
    menu = CreateMenu(); sub = CreatePopupMenu();
    AppendMenu(sub, MF_STRING, 10, "&Tile");
    AppendMenu(menu, MF_POPUP, (UINT)sub, "&Window");
    f = CreateWindow("Frame", "App", WS_OVERLAPPEDWINDOW | WS_CLIPCHILDREN, CW_USEDEFAULT, 0, CW_USEDEFAULT, 0, 0, menu, hi, 0);
    ShowWindow(f, show);
    mcs.szClass = "Child"; mcs.szTitle = "Doc1"; mcs.hOwner = hi;
    mcs.x = mcs.y = mcs.cx = mcs.cy = CW_USEDEFAULT; mcs.style = 0; mcs.lParam = 0;
    c = (HWND)SendMessage(client, WM_MDICREATE, 0, (LPARAM)(LPSTR)&mcs);
    GetWindowText(c, t, sizeof t); say("child", t);
    mcs.szTitle = "Doc2";
    c2 = (HWND)SendMessage(client, WM_MDICREATE, 0, (LPARAM)(LPSTR)&mcs);
    item("item 100", 100); item("item 101", 101);
    wsprintf(t, "%d %d %d", GetMenuItemCount(sub), GetMenuState(sub, 100, MF_BYCOMMAND) & MF_CHECKED ? 1 : 0, GetMenuState(sub, 101, MF_BYCOMMAND) & MF_CHECKED ? 1 : 0);
    say("count checked", t);
    SendMessage(client, WM_MDIMAXIMIZE, c2, 0);
    GetWindowText(f, t, sizeof t); say("frame max", t);
    SetWindowText(c2, "Renamed");
    GetWindowText(f, t, sizeof t); say("frame renamed", t);
    item("item 101 renamed", 101);
    SetWindowText(f, "NewApp");
    GetWindowText(f, t, sizeof t); say("frame retitled", t);
    SendMessage(client, WM_MDIRESTORE, c2, 0);
    GetWindowText(f, t, sizeof t); say("frame restored", t);
    SendMessage(client, WM_MDIDESTROY, c, 0);
    item("after destroy 100", 100);
    wsprintf(t, "%d %d", GetMenuItemCount(sub), GetDlgCtrlID(c2)); say("count id", t);
    SendMessage(client, WM_MDIDESTROY, c2, 0);
    wsprintf(t, "%d", GetMenuItemCount(sub)); say("count none", t);
    mcs.szTitle = "Zero"; mcs.cx = 0; mcs.cy = 0;
    c = (HWND)SendMessage(client, WM_MDICREATE, 0, (LPARAM)(LPSTR)&mcs);
    mcs.szTitle = "Default"; mcs.cx = CW_USEDEFAULT; mcs.cy = CW_USEDEFAULT;
    c2 = (HWND)SendMessage(client, WM_MDICREATE, 0, (LPARAM)(LPSTR)&mcs);
    {
        RECT a, b;
        GetWindowRect(c, &a);
        GetWindowRect(c2, &b);
        wsprintf(t, "%d %d", a.right - a.left == b.right - b.left && a.right > a.left,
                 a.bottom - a.top == b.bottom - b.top && a.bottom > a.top);
        say("zero size is default", t);
    }
    SendMessage(client, WM_MDIMAXIMIZE, c2, 0);
    mcs.szTitle = "Third";
    c = (HWND)SendMessage(client, WM_MDICREATE, 0, (LPARAM)(LPSTR)&mcs);
    wsprintf(t, "%d %d", IsZoomed(c), IsZoomed(c2));
    say("new maximized", t);
    GetWindowText(f, t, sizeof t); say("frame third", t);
    SendMessage(client, WM_MDINEXT, 0, 0);
    wsprintf(t, "%d %d", GetMenuState(sub, 100, MF_BYCOMMAND) & MF_CHECKED ? 1 : 0,
             GetMenuState(sub, 102, MF_BYCOMMAND) & MF_CHECKED ? 1 : 0);
    say("next checked", t);
    wsprintf(t, "%d %d", IsZoomed(GetDlgItem(client, 100)), IsZoomed(c));
    say("next maximized", t);
    GetWindowText(f, t, sizeof t); say("frame next", t);
    {
        HMENU other = CreatePopupMenu();
        HMENU old = sub;
        AppendMenu(other, MF_STRING, 11, "&Cascade");
        SendMessage(client, WM_MDISETMENU, 0, MAKELONG(0, other));
        sub = other;
        item("moved 100", 100);
        wsprintf(t, "%d %d", GetMenuItemCount(old), GetMenuItemCount(other));
        say("counts old new", t);
    }
    while (GetMessage(&msg, 0, 0, 0)) { if (!TranslateMDISysAccel(client, &msg)) { TranslateMessage(&msg); DispatchMessage(&msg); } }
    return 0;
}
