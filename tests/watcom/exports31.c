/* exports31.c: KERNEL, USER, GDI and SHELL exports of Windows 3.1 that
 * real programs import (tests/win16_exports31.rs). Each check prints one
 * line with OutputDebugString: "name value ...". Where the expected
 * values come from is said in the test. */
#include <windows.h>
#include <string.h>

typedef DWORD (FAR PASCAL *DWFN)(void);
typedef int (FAR PASCAL *OPENPATH)(LPCSTR, WORD);
typedef int (FAR PASCAL *DELPATH)(LPCSTR);
typedef BOOL (FAR PASCAL *FRAMEFN)(HDC, LPRECT, WORD, WORD, DWORD);
typedef BOOL (FAR PASCAL *SHELLHOOK)(HWND, UINT);
typedef HMETAFILE (FAR PASCAL *BETTERFN)(HGLOBAL);

static char buf[200];
static void say(void) { OutputDebugString(buf); }

static FARPROC proc(LPCSTR module, int ordinal)
{
    HMODULE h = GetModuleHandle(module);
    if (h == NULL) h = LoadLibrary(module);
    return GetProcAddress(h, MAKEINTRESOURCE(ordinal));
}

static WORD peekw(WORD sel, DWORD off) { return *(WORD FAR *)MAKELP(sel, (WORD)off); }
static DWORD peekd(WORD sel, DWORD off) { return *(DWORD FAR *)MAKELP(sel, (WORD)off); }

static void master(void)
{
    DWORD r = ((DWFN)proc("KERNEL", 28))();
    WORD sel = HIWORD(r), count;
    DWORD first, last, a;
    wsprintf(buf, "master same %d", LOWORD(r) == sel && sel != 0);
    say();
    count = peekw(sel, 4);
    first = peekd(sel, 6);
    last = peekd(sel, 10);
    /* the first sentinel: owner -1, GA_SIGNATURE, prev = itself */
    wsprintf(buf, "first owner %04X sig %02X prev-self %d", peekw(sel, first + 0x12),
             peekw(sel, first + 0x14), peekd(sel, first + 4) == first);
    say();
    wsprintf(buf, "last owner %04X sig %02X next-self %d", peekw(sel, last + 0x12),
             peekw(sel, last + 0x14), peekd(sel, last) == last);
    say();
    /* walk forward: count entries, find the master's own arena */
    {
        WORD n = 1, found = 0;
        a = first;
        while (a != last && n <= count) {
            a = peekd(sel, a);
            n++;
            if (peekw(sel, a + 0x12) == 0xFFFD && peekw(sel, a + 0x10) == sel) found = 1;
        }
        wsprintf(buf, "walk %d master %d", n == count, found);
        say();
    }
}

static void paths(void)
{
    OFSTRUCT of;
    int h = _lcreat("PATHTEST.TMP", 0);
    int o, d, d2;
    _lwrite(h, "x", 1);
    _lclose(h);
    o = ((OPENPATH)proc("KERNEL", 75))("PATHTEST.TMP", OF_READ);
    if (o != -1) _lclose(o);
    d = ((DELPATH)proc("KERNEL", 76))("PATHTEST.TMP");
    d2 = ((DELPATH)proc("KERNEL", 76))("PATHTEST.TMP");
    wsprintf(buf, "paths open %d delete %d again %d exists %d", o != -1, d, d2,
             OpenFile("PATHTEST.TMP", &of, OF_EXIST));
    say();
}

static void environment(void)
{
    static char dev[20] = "HP LaserJet III";
    char back[40];
    int set, size, got, del, after;
    set = SetEnvironment("LPT1:", dev, sizeof(dev));
    size = GetEnvironment("lpt1", NULL, 0);
    memset(back, 0, sizeof back);
    got = GetEnvironment("LPT1:", back, 8);
    wsprintf(buf, "env set %d size %d got %d %s", set, size, got,
             (LPSTR)(memcmp(back, dev, 8) == 0 ? "same" : "differs"));
    say();
    del = SetEnvironment("LPT1:", dev, 0);
    after = GetEnvironment("LPT1:", back, sizeof back);
    wsprintf(buf, "env delete %d after %d other %d", del, after, GetEnvironment("COM2:", back, 4));
    say();
}

static void gdi(void)
{
    HDC screen = GetDC(NULL);
    HDC mem = CreateCompatibleDC(screen);
    HBITMAP bm = CreateCompatibleBitmap(screen, 20, 20);
    HBITMAP oldbm = SelectObject(mem, bm);
    RECT r;
    SIZE s;
    BOOL ok;
    HDC mdc;
    HMETAFILE mf, mf2;
    HGLOBAL bits;
    PatBlt(mem, 0, 0, 20, 20, WHITENESS);
    SelectObject(mem, GetStockObject(BLACK_BRUSH));
    SetRect(&r, 2, 2, 12, 12);
    ok = ((FRAMEFN)proc("GDI", 400))(mem, &r, 2, 3, PATCOPY);
    wsprintf(buf, "frame %d %06lX %06lX %06lX %06lX %06lX", ok, GetPixel(mem, 2, 2),
             GetPixel(mem, 11, 11), GetPixel(mem, 3, 4), GetPixel(mem, 6, 6),
             GetPixel(mem, 6, 9));
    say();
    s.cx = s.cy = 99;
    ok = GetAspectRatioFilterEx(mem, &s);
    wsprintf(buf, "aspect %d %d %d", ok, s.cx, s.cy);
    say();
    {
        typedef HFONT (FAR PASCAL *CURFONTFN)(HDC);
        HFONT f0 = ((CURFONTFN)proc("GDI", 411))(mem), f1;
        HFONT old = SelectObject(mem, GetStockObject(ANSI_VAR_FONT));
        f1 = ((CURFONTFN)proc("GDI", 411))(mem);
        wsprintf(buf, "curfont %d %d", f0 == GetStockObject(SYSTEM_FONT),
                 f1 == GetStockObject(ANSI_VAR_FONT));
        say();
        SelectObject(mem, old);
    }
    mdc = CreateMetaFile(NULL);
    Rectangle(mdc, 0, 0, 5, 5);
    mf = CloseMetaFile(mdc);
    bits = GetMetaFileBits(mf);
    mf2 = ((BETTERFN)proc("GDI", 196))(bits);
    wsprintf(buf, "better %d play %d", mf2 == (HMETAFILE)bits, PlayMetaFile(mem, mf2));
    say();
    DeleteMetaFile(mf2);
    SelectObject(mem, oldbm);
    DeleteObject(bm);
    DeleteDC(mem);
    ReleaseDC(NULL, screen);
}

static UINT created, destroyed;

long FAR PASCAL _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    return DefWindowProc(hwnd, msg, wp, lp);
}

static void shellhook(HINSTANCE inst)
{
    WNDCLASS wc;
    HWND shell, other;
    MSG m;
    BOOL r0, r2;
    int got = 0;
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = inst;
    wc.lpszClassName = "E31";
    RegisterClass(&wc);
    shell = CreateWindow("E31", "shell", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL, inst, NULL);
    r2 = ((SHELLHOOK)proc("SHELL", 102))(shell, 2);
    created = RegisterWindowMessage("OTHERWINDOWCREATED");
    destroyed = RegisterWindowMessage("OTHERWINDOWDESTROYED");
    other = CreateWindow("E31", "other", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL, inst, NULL);
    DestroyWindow(other);
    while (PeekMessage(&m, shell, 0, 0, PM_REMOVE)) {
        if (m.message == created && m.wParam == (WPARAM)other) got |= 1;
        if (m.message == destroyed && m.wParam == (WPARAM)other) got |= 2;
    }
    r0 = ((SHELLHOOK)proc("SHELL", 102))(shell, 0);
    other = CreateWindow("E31", "other", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL, inst, NULL);
    while (PeekMessage(&m, shell, 0, 0, PM_REMOVE)) {
        if (m.message == created) got |= 4;
    }
    DestroyWindow(other);
    wsprintf(buf, "shellhook %d %d got %d", r2, r0, got);
    say();
    DestroyWindow(shell);
}

typedef LONG (FAR PASCAL *REGOPENFN)(DWORD, LPCSTR, DWORD FAR *);
typedef LONG (FAR PASCAL *REGCLOSEFN)(DWORD);
typedef LONG (FAR PASCAL *REGDELFN)(DWORD, LPCSTR);
typedef LONG (FAR PASCAL *REGSETFN)(DWORD, LPCSTR, DWORD, LPCSTR, DWORD);
typedef LONG (FAR PASCAL *REGQUERYFN)(DWORD, LPCSTR, LPSTR, LONG FAR *);
typedef LONG (FAR PASCAL *REGENUMFN)(DWORD, DWORD, LPSTR, DWORD);

static void registry(void)
{
    REGOPENFN open = (REGOPENFN)proc("SHELL", 1), create = (REGOPENFN)proc("SHELL", 2);
    REGCLOSEFN close = (REGCLOSEFN)proc("SHELL", 3);
    REGDELFN del = (REGDELFN)proc("SHELL", 4);
    REGSETFN set = (REGSETFN)proc("SHELL", 5);
    REGQUERYFN query = (REGQUERYFN)proc("SHELL", 6);
    REGENUMFN enumk = (REGENUMFN)proc("SHELL", 7);
    DWORD k1, k2, k;
    char n0[16], n1[16], v[16], pbv[16];
    LONG e2, q, cb = 16, qcb, bad, d1, d2, c1, c2, pb;
    create(1, "T31\\a", &k1);
    close(k1);
    create(1, "T31\\b", &k2);
    close(k2);
    open(1, "T31", &k);
    enumk(k, 0, n0, 16);
    enumk(k, 1, n1, 16);
    e2 = enumk(k, 2, v, 16);
    set(k, "a", 1, "x", 1);
    set(k, "a", 1, "", 0);
    q = query(k, "a", v, &cb);
    qcb = cb;
    bad = set(k, "a", 2, "x", 1);
    d1 = del(k, "");
    d2 = del(k, "zz");
    c1 = close(k);
    c2 = close(k);
    cb = 16;
    pb = query(1, "PBrush\\protocol\\StdFileEditing\\server", pbv, &cb);
    wsprintf(buf, "registry %s %s %ld query %ld '%s' %ld type %ld delete %ld %ld close %ld %ld pbrush %ld %s %ld",
             (LPSTR)n0, (LPSTR)n1, e2, q, (LPSTR)v, qcb, bad, d1, d2, c1, c2, pb, (LPSTR)pbv, cb);
    say();
}

typedef DWORD (FAR PASCAL *CDRFN)(FARPROC);
static char cdrlog[120];

void FAR PASCAL _export CdrProc(WORD ax, LPSTR path)
{
    wsprintf(cdrlog + lstrlen(cdrlog), " %04X %s", ax, path);
}

static void filecdr(void)
{
    CDRFN cdr = (CDRFN)proc("KERNEL", 130);
    OFSTRUCT of;
    DWORD none = cdr((FARPROC)MAKELP(0xFFFF, 0)), set, got, cleared, after;
    int h;
    set = cdr((FARPROC)CdrProc);
    got = cdr((FARPROC)MAKELP(0xFFFF, 0));
    h = _lcreat("CDR.TMP", 0);
    _lclose(h);
    OpenFile("CDR.TMP", &of, OF_DELETE);
    h = _lcreat("CDR2.TMP", 0);
    _lclose(h);
    ((DELPATH)proc("KERNEL", 76))("CDR2.TMP");
    cleared = cdr(NULL);
    after = cdr((FARPROC)MAKELP(0xFFFF, 0));
    wsprintf(buf, "filecdr %ld %ld %d %ld %ld:%s", none, set, got == (DWORD)(FARPROC)CdrProc,
             cleared, after, (LPSTR)cdrlog);
    say();
}

typedef DWORD (FAR PASCAL *SUBSTFN)(LPSTR, UINT);
typedef LPSTR (FAR PASCAL *FINDENVFN)(LPSTR);

static void environ(void)
{
    char s[64];
    DWORD r, r2;
    LPSTR v, none;
    lstrcpy(s, "%comspec% /c %NOPE% 5%");
    r = ((SUBSTFN)proc("SHELL", 37))(s, sizeof s);
    wsprintf(buf, "subst %d %d %s", HIWORD(r), LOWORD(r), (LPSTR)s);
    say();
    lstrcpy(s, "%PATH%");
    r2 = ((SUBSTFN)proc("SHELL", 37))(s, 3);
    v = ((FINDENVFN)proc("SHELL", 38))("prompt");
    none = ((FINDENVFN)proc("SHELL", 38))("NOPE");
    wsprintf(buf, "subst-small %d %d %s find %s %d", HIWORD(r2), LOWORD(r2), (LPSTR)s,
             v ? v : (LPSTR)"-", none == NULL);
    say();
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    master();
    paths();
    environment();
    gdi();
    wsprintf(buf, "extra %ld", ((DWFN)proc("USER", 288))());
    say();
    shellhook(inst);
    environ();
    filecdr();
    registry();
    {
        typedef DWORD (FAR PASCAL *SPOOLFN)(int, LONG);
        SPOOLFN job = (SPOOLFN)proc("GDI", 245);
        static BYTE info[42];
        DWORD q, c, n1, w, n2, d, z, n3;
        int i, zero = 1;
        for (i = 0; i < 42; i++) info[i] = 0xFF;
        q = job(0x19, 0);
        c = job(0x1D, 0);
        n1 = job(0x22, 0);
        w = job(0x15, (LONG)(UINT)GetDesktopWindow());
        n2 = job(0x22, 0);
        d = job(0x14, (LONG)(LPVOID)info);
        for (i = 0; i < 42; i++) zero &= info[i] == 0;
        z = job(0x15, 0);
        n3 = job(0x22, 0);
        wsprintf(buf, "spool %ld %ld %ld %ld %ld %ld %d %ld %ld", q, c, n1, w, n2, d, zero, z, n3);
        say();
    }
    {
        typedef HANDLE (FAR PASCAL *QUEUEFN)(HANDLE);
        HANDLE q = ((QUEUEFN)proc("KERNEL", 35))(NULL);
        DWORD es = ((DWFN)proc("KERNEL", 119))();
        wsprintf(buf, "queue-es %d", LOWORD(es) == (WORD)q);
        say();
    }
    return 0;
}
