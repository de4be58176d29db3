/* userblocks.c: a TOOLHELP client finding USER's objects in USER's heaps
 * (tests/user_blocks.rs). Built in the small model, linked with
 * toolhelp.lib, with userblocks.rc (a menu bar BAR with one pop-up).
 *
 * USER's heaps are the local heaps of the global blocks USER owns
 * (GlobalFirst/GlobalNext, then LocalFirst/LocalNext on each). It prints:
 *   menu FOUND FLAGS GONE        CreateMenu's handle is the hHandle of an
 *                                LT_USER_MENU block (and its wFlags); no
 *                                longer after DestroyMenu
 *   load MORE BAR SUB GONE       LoadMenu: how many more LT_USER_MENU
 *                                blocks, the bar's and GetSubMenu(bar, 0)'s
 *                                handles are such blocks; DestroyMenu(bar):
 *                                the count is back
 *   grow OK FOUND                20 AppendMenu on one menu succeed, its
 *                                handle still names its block
 *   sysmenu MORE FOUND GONE      GetSystemMenu on a new overlapped window:
 *                                one more LT_USER_MENU block, its handle;
 *                                DestroyWindow: the count is back
 *   dce BASE CLASS OWN           LT_USER_DCE blocks: at start, after
 *                                RegisterClass of a CS_CLASSDC class, after
 *                                a CS_OWNDC window is made
 *   owndc SAME REL SAME2 NOTCOMMON PAINT  GetDC on the CS_OWNDC window
 *                                twice: the same HDC; ReleaseDC's answer;
 *                                GetDC after it the same again; a window
 *                                without those styles gets another DC;
 *                                BeginPaint on the CS_OWNDC window gives
 *                                its DC too
 *   classdc SAME                 GetDC on two windows of the CS_CLASSDC
 *                                class: the same HDC
 *   dcegone OWN CLASS            LT_USER_DCE blocks after the CS_OWNDC
 *                                window is destroyed, then after the
 *                                CS_CLASSDC class is unregistered
 *   mwp BEGIN FOUND DEFER END MOVED  LT_USER_MWP blocks: before, whether
 *                                the HDWP is one, after three
 *                                DeferWindowPos (room for 2), after
 *                                EndDeferWindowPos; the windows moved
 */
#include <windows.h>
#include <toolhelp.h>

#define LTU_DCE 13
#define LTU_MWP 14
#define LTU_MENU 4

static char line[200];
static HMODULE huser;

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

/* Walk every local heap of a global block USER owns: count the busy
 * entries of type `type`; when `h` is not 0, set *found to the wFlags of
 * the one whose hHandle is `h` (0 when none). */
static int walk(WORD type, WORD h, WORD *found)
{
    GLOBALENTRY ge;
    LOCALENTRY le;
    int ok, lok, n = 0, guard = 0;
    if (found)
        *found = 0;
    ge.dwSize = sizeof(ge);
    for (ok = GlobalFirst(&ge, GLOBAL_ALL); ok; ok = GlobalNext(&ge, GLOBAL_ALL)) {
        if (++guard > 10000)
            break;
        if (ge.hOwner != huser || ge.hBlock == 0)
            continue;
        le.dwSize = sizeof(le);
        for (lok = LocalFirst(&le, ge.hBlock); lok; lok = LocalNext(&le)) {
            if (le.wFlags == LF_FREE || le.wType != type)
                continue;
            n++;
            if (h && found && le.hHandle == h)
                *found = le.wFlags;
        }
    }
    return n;
}

static int count(WORD type)
{
    return walk(type, 0, NULL);
}

static int is_block(WORD type, WORD h)
{
    WORD f;
    walk(type, h, &f);
    return f != 0;
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    WNDCLASS wc;
    HMENU hm, bar, sub;
    HWND own, c1, c2, plain, w1, w2;
    HDC d1, d2, d3;
    HDWP dwp;
    RECT r1, r2;
    WORD flags;
    int n0, n1, n2, rel, ok, i;

    huser = GetModuleHandle("USER");

    wc.style = 0;
    wc.lpfnWndProc = DefWindowProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "UBSYS";
    RegisterClass(&wc);

    /* Menus. */
    hm = CreateMenu();
    walk(LTU_MENU, (WORD)hm, &flags);
    DestroyMenu(hm);
    wsprintf(line, "menu %d %u %d\r\n", flags != 0, flags,
             !is_block(LTU_MENU, (WORD)hm));
    out();

    n0 = count(LTU_MENU);
    bar = LoadMenu(hInst, "BAR");
    sub = GetSubMenu(bar, 0);
    n1 = count(LTU_MENU);
    wsprintf(line, "load %d %d %d", n1 - n0, is_block(LTU_MENU, (WORD)bar),
             is_block(LTU_MENU, (WORD)sub));
    out();
    DestroyMenu(bar);
    wsprintf(line, " %d\r\n", count(LTU_MENU) == n0);
    out();

    hm = CreatePopupMenu();
    ok = 1;
    for (i = 0; i < 20; i++)
        ok &= AppendMenu(hm, MF_STRING, 300 + i, "An item of some length") != 0;
    wsprintf(line, "grow %d %d\r\n", ok, is_block(LTU_MENU, (WORD)hm));
    out();
    DestroyMenu(hm);

    /* A window's system menu: made by GetSystemMenu, destroyed with the
     * window. */
    n0 = count(LTU_MENU);
    w1 = CreateWindow("UBSYS", "sys", WS_OVERLAPPEDWINDOW, 0, 0, 100, 80, 0,
                      0, hInst, NULL);
    hm = GetSystemMenu(w1, FALSE);
    n1 = count(LTU_MENU);
    flags = is_block(LTU_MENU, (WORD)hm);
    DestroyWindow(w1);
    wsprintf(line, "sysmenu %d %d %d\r\n", n1 - n0, flags,
             count(LTU_MENU) == n0);
    out();

    /* DCEs. */
    n0 = count(LTU_DCE);
    wc.style = CS_CLASSDC;
    wc.lpfnWndProc = DefWindowProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "UBCLASS";
    RegisterClass(&wc);
    n1 = count(LTU_DCE);
    wc.style = CS_OWNDC;
    wc.lpszClassName = "UBOWN";
    RegisterClass(&wc);
    wc.style = 0;
    wc.lpszClassName = "UBPLAIN";
    RegisterClass(&wc);
    own = CreateWindow("UBOWN", "own", WS_POPUP | WS_VISIBLE, 0, 0, 50, 50,
                       0, 0, hInst, NULL);
    n2 = count(LTU_DCE);
    wsprintf(line, "dce %d %d %d\r\n", n0, n1 - n0, n2 - n0);
    out();

    d1 = GetDC(own);
    d2 = GetDC(own);
    rel = ReleaseDC(own, d1);
    d3 = GetDC(own);
    plain = CreateWindow("UBPLAIN", "plain", WS_POPUP | WS_VISIBLE, 60, 0, 50,
                         50, 0, 0, hInst, NULL);
    {
        HDC p = GetDC(plain);
        PAINTSTRUCT ps;
        HDC pd;
        InvalidateRect(own, NULL, TRUE);
        pd = BeginPaint(own, &ps);
        EndPaint(own, &ps);
        wsprintf(line, "owndc %d %d %d %d %d\r\n", d1 == d2, rel, d3 == d1,
                 p != 0 && p != d1, pd == d1 && ps.hdc == d1);
        out();
        ReleaseDC(plain, p);
    }

    c1 = CreateWindow("UBCLASS", "c1", WS_POPUP | WS_VISIBLE, 0, 60, 50, 50,
                      0, 0, hInst, NULL);
    c2 = CreateWindow("UBCLASS", "c2", WS_POPUP | WS_VISIBLE, 60, 60, 50, 50,
                      0, 0, hInst, NULL);
    d1 = GetDC(c1);
    ReleaseDC(c1, d1);
    d2 = GetDC(c2);
    ReleaseDC(c2, d2);
    wsprintf(line, "classdc %d\r\n", d1 != 0 && d1 == d2);
    out();

    DestroyWindow(own);
    n1 = count(LTU_DCE);
    DestroyWindow(c1);
    DestroyWindow(c2);
    UnregisterClass("UBCLASS", hInst);
    n2 = count(LTU_DCE);
    wsprintf(line, "dcegone %d %d\r\n", n1 - n0, n2 - n0);
    out();

    /* MWP. */
    w1 = CreateWindow("UBPLAIN", "w1", WS_POPUP, 0, 0, 10, 10, 0, 0, hInst,
                      NULL);
    w2 = CreateWindow("UBPLAIN", "w2", WS_POPUP, 0, 0, 10, 10, 0, 0, hInst,
                      NULL);
    n0 = count(LTU_MWP);
    dwp = BeginDeferWindowPos(2);
    n1 = is_block(LTU_MWP, (WORD)dwp);
    wsprintf(line, "mwp %d %d", n0, n1);
    out();
    dwp = DeferWindowPos(dwp, w1, 0, 100, 110, 20, 30,
                         SWP_NOZORDER | SWP_NOACTIVATE);
    dwp = DeferWindowPos(dwp, w2, 0, 200, 210, 40, 50,
                         SWP_NOZORDER | SWP_NOACTIVATE);
    dwp = DeferWindowPos(dwp, plain, 0, 300, 310, 60, 70,
                         SWP_NOZORDER | SWP_NOACTIVATE);
    wsprintf(line, " %d", dwp != 0 && count(LTU_MWP) == 1 &&
                          is_block(LTU_MWP, (WORD)dwp));
    out();
    EndDeferWindowPos(dwp);
    GetWindowRect(w1, &r1);
    GetWindowRect(w2, &r2);
    wsprintf(line, " %d %d\r\n", count(LTU_MWP),
             r1.left == 100 && r1.top == 110 && r1.right == 120 &&
                 r2.left == 200 && r2.bottom == 260);
    out();

    DestroyWindow(w1);
    DestroyWindow(w2);
    DestroyWindow(plain);
    wsprintf(line, "done\r\n");
    out();
    return 0;
}
