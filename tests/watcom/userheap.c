/* userheap.c: a TOOLHELP client walking USER's heap (tests/user_heap.rs).
 * Built in the small model and linked with toolhelp.lib.
 *
 * It registers class UHTEST (cbClsExtra 2, cbWndExtra 4), makes a pop-up
 * window of it with SetWindowWord(hwnd, 0, 1234h), and prints:
 *   shi OK USERPCT SEG-NONZERO     SystemHeapInfo
 *   agree A                         GetFreeSystemResources(GFSR_USER-
 *                                   RESOURCES) == wUserFreePercent
 *   info OK WCITEMS WALKED HEAPTYPE LocalInfo and LocalFirst/LocalNext on
 *                                   hUserSegment (wHeapType of the entries)
 *   wnd FOUND WFLAGS WTYPE SIZE-OK  the entry whose hHandle is the HWND:
 *                                   LF_FIXED, LT_USER_WND, at least
 *                                   3Ch + cbWndExtra bytes
 *   class FOUND WTYPE ATOM-OK       the entry at the WND's class pointer
 *                                   (WND+1Ch): LT_USER_CLASS, its atom
 *                                   (+4) RegisterClass's answer
 *   hwnd HWND PCLS                  the window's handle, its class's block
 *   fields STYLE HINST PROC EXTRA   the WND's dwStyle (+28h), hInstance
 *                                   (+1Eh), lpfnWndProc (+20h) and first
 *                                   extra word (+3Ch) agree with
 *                                   GetWindowLong/GetWindowWord
 *   fall LOWER AGREE                20 more windows: GFSR lower, and still
 *                                   SystemHeapInfo's
 *   rise SAME AGREE                 the 20 destroyed: GFSR back to before
 *   usud HEAP TYPE FREED            UserSeeUserDo: 4 gives hUserSegment; 1
 *                                   (LMEM_FIXED, 100 bytes) a block of
 *                                   LT_USER_USERSEEUSERDOALLOC; 2 frees it
 *   limit N FULL AFTER-SAME         windows (no extra bytes, no text) made
 *                                   until CreateWindow fails: how many,
 *                                   GFSR then, GFSR back after destroying
 *                                   them all
 *   menu OK                         a menu of two string items made
 * and calls its exported Done, where `toolhelp16 heap --at USERHEAP!DONE`
 * stops with the first window and the menu alive.
 */
#include <windows.h>
#include <toolhelp.h>

#ifndef GFSR_USERRESOURCES
#define GFSR_USERRESOURCES 0x0002
#endif

typedef DWORD (FAR PASCAL *USUDPROC)(WORD, WORD, WORD, WORD);

static char line[200];
static HWND many[5000];

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

void FAR PASCAL __export Done(void)
{
    wsprintf(line, "done\r\n");
    out();
}

static WORD peek(WORD seg, WORD off)
{
    return *(WORD FAR *)MAKELP(seg, off);
}

static DWORD peekl(WORD seg, WORD off)
{
    return *(DWORD FAR *)MAKELP(seg, off);
}

/* The USER heap entry with handle h: its wType, wFlags, wSize. */
static int find(WORD seg, WORD h, LOCALENTRY *found)
{
    LOCALENTRY le;
    int ok, n = 0;
    le.dwSize = sizeof(le);
    for (ok = LocalFirst(&le, (HGLOBAL)seg); ok; ok = LocalNext(&le)) {
        if (le.hHandle == h && le.wFlags != LF_FREE) {
            *found = le;
            return 1;
        }
        if (++n > 5000)
            break;
    }
    return 0;
}

static WORD user_pct(void)
{
    return GetFreeSystemResources(GFSR_USERRESOURCES);
}

static int agree(void)
{
    SYSHEAPINFO shi;
    shi.dwSize = sizeof(shi);
    if (!SystemHeapInfo(&shi))
        return 0;
    return shi.wUserFreePercent == user_pct();
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    WNDCLASS wc;
    ATOM atom;
    HWND hwnd, more[20];
    SYSHEAPINFO shi;
    LOCALINFO li;
    LOCALENTRY le, e;
    WORD seg, pcls, p0, p1, p2, full;
    int ok, n, i, found, heaptype;
    USUDPROC usud;
    WORD h;
    HMENU hmenu;
    FARPROC done;

    wc.style = 0;
    wc.lpfnWndProc = DefWindowProc;
    wc.cbClsExtra = 2;
    wc.cbWndExtra = 4;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "UHTEST";
    atom = RegisterClass(&wc);
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.lpszClassName = "UHBARE";
    RegisterClass(&wc);

    hwnd = CreateWindow("UHTEST", "uh", WS_POPUP, 10, 20, 100, 50, 0, 0,
                        hInst, NULL);
    SetWindowWord(hwnd, 0, 0x1234);

    shi.dwSize = sizeof(shi);
    ok = SystemHeapInfo(&shi);
    seg = (WORD)shi.hUserSegment;
    wsprintf(line, "shi %d %u %d\r\n", ok, shi.wUserFreePercent, seg != 0);
    out();
    wsprintf(line, "agree %d\r\n", agree());
    out();

    li.dwSize = sizeof(li);
    ok = LocalInfo(&li, (HGLOBAL)seg);
    le.dwSize = sizeof(le);
    n = 0;
    heaptype = -1;
    for (found = LocalFirst(&le, (HGLOBAL)seg); found; found = LocalNext(&le)) {
        heaptype = le.wHeapType;
        if (++n > 5000)
            break;
    }
    wsprintf(line, "info %d %u %d %d\r\n", ok, li.wcItems, n, heaptype);
    out();

    found = find(seg, (WORD)hwnd, &e);
    wsprintf(line, "wnd %d %u %u %d\r\n", found, e.wFlags, e.wType,
             e.wSize >= 0x3C + 4);
    out();
    pcls = peek(seg, (WORD)hwnd + 0x1C);
    found = find(seg, pcls, &e);
    wsprintf(line, "class %d %u %d\r\n", found, e.wType,
             peek(seg, pcls + 4) == atom);
    out();
    wsprintf(line, "hwnd %04X %04X\r\n", hwnd, pcls);
    out();
    wsprintf(line, "fields %d %d %d %d\r\n",
             peekl(seg, (WORD)hwnd + 0x28) == GetWindowLong(hwnd, GWL_STYLE),
             peek(seg, (WORD)hwnd + 0x1E) == (WORD)hInst,
             peekl(seg, (WORD)hwnd + 0x20) == GetWindowLong(hwnd, GWL_WNDPROC),
             peek(seg, (WORD)hwnd + 0x3C) == 0x1234);
    out();

    p0 = user_pct();
    for (i = 0; i < 20; i++)
        more[i] = CreateWindow("UHTEST", NULL, WS_POPUP, 0, 0, 10, 10, 0, 0,
                               hInst, NULL);
    p1 = user_pct();
    wsprintf(line, "fall %d %d\r\n", p1 < p0, agree());
    out();
    for (i = 0; i < 20; i++)
        DestroyWindow(more[i]);
    p2 = user_pct();
    wsprintf(line, "rise %d %d\r\n", p2 == p0, agree());
    out();

    usud = (USUDPROC)GetProcAddress(GetModuleHandle("USER"),
                                    MAKEINTRESOURCE(216));
    if (usud) {
        h = (WORD)usud(4, 0, 0, 0);
        ok = h == seg;
        h = (WORD)usud(1, LMEM_FIXED, 0, 100);
        found = find(seg, h, &e);
        wsprintf(line, "usud %d %u %lu\r\n", ok, found ? e.wType : 0,
                 usud(2, h, 0, 0));
    } else {
        wsprintf(line, "usud none\r\n");
    }
    out();

    p0 = user_pct();
    for (n = 0; n < 5000; n++) {
        many[n] = CreateWindow("UHBARE", NULL, WS_POPUP, 0, 0, 10, 10, 0, 0,
                               hInst, NULL);
        if (!many[n])
            break;
    }
    full = user_pct();
    for (i = 0; i < n; i++)
        DestroyWindow(many[i]);
    wsprintf(line, "limit %d %u %d\r\n", n, full, user_pct() == p0);
    out();

    hmenu = CreateMenu();
    AppendMenu(hmenu, MF_STRING, 100, "&File");
    AppendMenu(hmenu, MF_STRING, 101, "&Edit");
    wsprintf(line, "menu %d\r\n", hmenu != 0);
    out();

    done = MakeProcInstance((FARPROC)Done, hInst);
    (*done)();
    DestroyMenu(hmenu);
    DestroyWindow(hwnd);
    return 0;
}
