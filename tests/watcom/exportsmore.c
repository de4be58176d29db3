/* exportsmore.c: more KERNEL and GDI exports of Windows 3.1 that real
 * programs import (tests/win16_exports_more.rs). Each check prints one
 * line with OutputDebugString; where the expected values come from is
 * said in the test. */
#include <windows.h>
#include <string.h>
#include <toolhelp.h>

typedef BOOL (FAR PASCAL *MODNAMEFN)(HINSTANCE, LPSTR, int);
typedef void (FAR PASCAL *PTRADDFN)(DWORD, DWORD);
typedef BOOL (FAR PASCAL *VALIDMFFN)(HGLOBAL);

static char buf[200];
static void say(void) { OutputDebugString(buf); }

static FARPROC proc(LPCSTR module, LPCSTR name)
{
    return GetProcAddress(GetModuleHandle(module), name);
}

static void module_name(void)
{
    MODNAMEFN get = (MODNAMEFN)proc("KERNEL", "GETMODULENAME");
    char k[20], u[20], small[8], none[4];
    BOOL a, b, c, d;
    memset(k, 'x', sizeof k);
    memset(small, 'x', sizeof small);
    memset(none, 'x', sizeof none);
    a = get(GetModuleHandle("KERNEL"), k, sizeof k);
    b = get(GetModuleHandle("USER"), small, 3);
    c = get(GetModuleHandle("GDI"), none, 0);
    d = get((HINSTANCE)0x0BAD, u, sizeof u);
    wsprintf(buf, "modname %d %s %d %s %d %c %d", a, (LPSTR)k, b, (LPSTR)small, c, none[0], d);
    say();
}

static void ptr_add(void)
{
    PTRADDFN add = (PTRADDFN)proc("KERNEL", "LONGPTRADD");
    static char data[40] = "0123456789abcdefghijklmnopqrstuvwxyz";
    WORD ds, sel;
    DWORD before, after;
    char FAR *p;
    ds = HIWORD((DWORD)(char FAR *)data);
    sel = AllocSelector(ds);
    before = GetSelectorBase(sel);
    add(MAKELONG(0, sel), 16);
    after = GetSelectorBase(sel);
    p = (char FAR *)MAKELP(sel, LOWORD((DWORD)(char FAR *)data));
    wsprintf(buf, "ptradd %ld %c", after - before, p[0]);
    say();
    FreeSelector(sel);
}

static void valid_metafile(void)
{
    VALIDMFFN valid = (VALIDMFFN)proc("GDI", "ISVALIDMETAFILE");
    HDC mdc = CreateMetaFile(NULL);
    HMETAFILE mf;
    HGLOBAL zero, old;
    WORD FAR *w;
    BOOL a, b, c, d, e;
    Rectangle(mdc, 0, 0, 5, 5);
    mf = CloseMetaFile(mdc);
    a = valid((HGLOBAL)mf);
    zero = GlobalAlloc(GMEM_MOVEABLE | GMEM_ZEROINIT, 64);
    b = valid(zero);
    w = (WORD FAR *)GlobalLock(zero);
    w[0] = 2;      /* a disk metafile's header */
    w[1] = 9;
    w[2] = 0x0300;
    GlobalUnlock(zero);
    c = valid(zero);
    w = (WORD FAR *)GlobalLock(zero);
    w[2] = 0x0100; /* another version */
    GlobalUnlock(zero);
    d = valid(zero);
    old = GlobalAlloc(GMEM_MOVEABLE, 4); /* too small for a header */
    e = valid(old);
    wsprintf(buf, "validmf %d %d %d %d %d", a, b, c, d, e);
    say();
    GlobalFree(old);
    GlobalFree(zero);
    DeleteMetaFile(mf);
}

static void glyph(void)
{
    HDC dc = GetDC(NULL);
    GLYPHMETRICS gm;
    MAT2 m;
    DWORD r;
    memset(&m, 0, sizeof m);
    m.eM11.value = 1;
    m.eM22.value = 1;
    memset(&gm, 0x55, sizeof gm);
    r = GetGlyphOutline(dc, 'A', GGO_METRICS, &gm, 0, NULL, &m);
    wsprintf(buf, "glyph %ld %d", r, gm.gmBlackBoxX == 0x5555);
    say();
    ReleaseDC(NULL, dc);
}

static void dc_state(void)
{
    typedef HDC (FAR PASCAL *GETSTATEFN)(HDC);
    typedef void (FAR PASCAL *SETSTATEFN)(HDC, HDC);
    GETSTATEFN get = (GETSTATEFN)proc("GDI", "GETDCSTATE");
    SETSTATEFN set = (SETSTATEFN)proc("GDI", "SETDCSTATE");
    HDC screen = GetDC(NULL);
    HDC mem = CreateCompatibleDC(screen);
    HDC copy;
    HBRUSH red = CreateSolidBrush(RGB(255, 0, 0));
    BOOL freed, deleted;
    SetTextColor(mem, RGB(0, 0, 255));
    SetBkMode(mem, TRANSPARENT);
    SetMapMode(mem, MM_LOMETRIC);
    SelectObject(mem, red);
    copy = get(mem);
    wsprintf(buf, "dcstate copy %d %06lX %d %d", copy != NULL && copy != mem,
             GetTextColor(copy), GetBkMode(copy), GetMapMode(copy));
    say();
    SetTextColor(mem, RGB(0, 255, 0));
    SetBkMode(mem, OPAQUE);
    SetMapMode(mem, MM_TEXT);
    SelectObject(mem, GetStockObject(WHITE_BRUSH));
    set(mem, copy);
    wsprintf(buf, "dcstate back %06lX %d %d %d", GetTextColor(mem), GetBkMode(mem),
             GetMapMode(mem), SelectObject(mem, GetStockObject(WHITE_BRUSH)) == red);
    say();
    freed = DeleteDC(copy);
    deleted = DeleteObject(red);
    wsprintf(buf, "dcstate freed %d %d %d", freed, deleted, get((HDC)0x0BAD) == NULL);
    say();
    DeleteDC(mem);
    ReleaseDC(NULL, screen);
}

static void res_alloc(HINSTANCE inst)
{
    typedef HGLOBAL (FAR PASCAL *RESALLOCFN)(HINSTANCE, WORD, WORD);
    RESALLOCFN alloc = (RESALLOCFN)proc("KERNEL", "DIRECTRESALLOC");
    HGLOBAL h = alloc(inst, 0x10, 100), g = GlobalAlloc(GMEM_MOVEABLE, 100);
    TASKENTRY te;
    GLOBALENTRY ge, gg;
    te.dwSize = sizeof te;
    ge.dwSize = gg.dwSize = sizeof ge;
    TaskFindHandle(&te, GetCurrentTask());
    GlobalEntryHandle(&ge, h);
    GlobalEntryHandle(&gg, g);
    wsprintf(buf, "resalloc %d %d %d %d %d %d", h != NULL, GlobalSize(h) >= 100,
             (GlobalFlags(h) & GMEM_DISCARDABLE) == 0, ge.hOwner == te.hModule,
             gg.hOwner != te.hModule, alloc((HINSTANCE)0x0BAD, 0x10, 100) == NULL);
    say();
    GlobalFree(g);
    GlobalFree(h);
}

static HPALETTE make_palette(BYTE red)
{
    struct { WORD version, count; PALETTEENTRY e[2]; } lp;
    memset(&lp, 0, sizeof lp);
    lp.version = 0x300;
    lp.count = 2;
    lp.e[0].peRed = red;
    lp.e[1].peBlue = 200;
    return CreatePalette((LOGPALETTE FAR *)&lp);
}

static void current_palette(HINSTANCE inst)
{
    typedef BOOL (FAR PASCAL *CURPALFN)(HDC);
    CURPALFN cur = (CURPALFN)proc("GDI", "ISDCCURRENTPALETTE");
    HPALETTE p1 = make_palette(100), p2 = make_palette(50);
    HWND hidden = CreateWindow("STATIC", "", WS_POPUP, 0, 0, 10, 10, NULL, NULL,
                               inst, NULL);
    HDC m1 = CreateCompatibleDC(NULL), m2 = CreateCompatibleDC(NULL), scr = GetDC(hidden);
    BOOL a, b, c, d, e, f, g;
    SelectPalette(m1, p1, FALSE);
    a = cur(m1);
    SelectPalette(m2, p2, TRUE);
    b = cur(m2);
    c = cur(m1);
    SelectPalette(m2, p2, FALSE);
    d = cur(m2);
    e = cur(m1);
    /* a hidden window's DC: the window is not the active one */
    SelectPalette(scr, p1, FALSE);
    f = cur(m2);
    g = cur((HDC)0x0BAD);
    wsprintf(buf, "palette %d %d %d %d %d %d %d", a, b, c, d, e, f, g);
    say();
    SelectPalette(scr, GetStockObject(DEFAULT_PALETTE), TRUE);
    ReleaseDC(hidden, scr);
    DestroyWindow(hidden);
    DeleteDC(m1);
    DeleteDC(m2);
    DeleteObject(p1);
    DeleteObject(p2);
}

static void flush_cache(void)
{
    FARPROC flush = proc("KERNEL", "FLUSHCACHEDFILEHANDLE");
    WORD hexe, ax1, ax2;
    TASKENTRY te;
    te.dwSize = sizeof te;
    TaskFindHandle(&te, GetCurrentTask());
    hexe = te.hModule;
    _asm {
        mov ax, 1234h
        push hexe
        call dword ptr flush
        mov ax1, ax
        mov ax, 5678h
        xor bx, bx
        push bx
        call dword ptr flush
        mov ax2, ax
    }
    wsprintf(buf, "flush %04X %04X", ax1, ax2);
    say();
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    module_name();
    ptr_add();
    valid_metafile();
    glyph();
    dc_state();
    res_alloc(inst);
    current_palette(inst);
    flush_cache();
    return 0;
}
