/* gdiheap.c: a TOOLHELP client walking GDI's heap (tests/gdi_heap.rs).
 * Built in the small model and linked with toolhelp.lib.
 *
 * Prints:
 *   start GFSR SHI SEG    GetFreeSystemResources(GFSR_GDIRESOURCES),
 *                         SystemHeapInfo's wGDIFreePercent and
 *                         hGDISegment before it makes anything
 *   obj KIND HANDLE       each object it makes: pen, brush, font, rgn,
 *                         palette, bitmap, memdc, metadc
 *   made GFSR SHI         the same two after those and 40 more brushes
 *   info OK WCITEMS       LocalInfo on hGDISegment
 *   entry HHANDLE WADDRESS WSIZE WFLAGS WCLOCK WTYPE HHEAP WHEAPTYPE WNEXT
 *                         every LocalFirst/LocalNext entry of GDI's heap
 *   walked N
 * then calls its exported Done, where `toolhelp16 heap --at GDIHEAP!DONE`
 * stops, then:
 *   deleted GFSR SHI      after DeleteObject/DeleteDC of all it made
 *   pens N GFSR SHI       CreatePen until it fails: how many it made and
 *                         the figures then
 *   back GFSR SHI         after deleting those pens
 *   done
 */
#include <windows.h>
#include <toolhelp.h>

static char line[200];
static HPEN pens[3000];
static HBRUSH brushes[40];
static struct {
    WORD ver, n;
    PALETTEENTRY e[16];
} pal;

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

void FAR PASCAL __export Done(void)
{
}

static void figures(const char *what)
{
    SYSHEAPINFO shi;

    shi.dwSize = sizeof(shi);
    SystemHeapInfo(&shi);
    wsprintf(line, "%s %u %u\r\n", (LPSTR)what,
             GetFreeSystemResources(GFSR_GDIRESOURCES), shi.wGDIFreePercent);
    out();
}

static void obj(const char *kind, WORD h)
{
    wsprintf(line, "obj %s %04X\r\n", (LPSTR)kind, h);
    out();
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    SYSHEAPINFO shi;
    LOCALINFO li;
    LOCALENTRY le;
    HPEN pen;
    HBRUSH brush;
    HFONT font;
    HRGN rgn;
    HPALETTE hpal;
    HBITMAP bm;
    HDC mem, meta;
    HMETAFILE mf;
    FARPROC done;
    int i, n, ok;

    shi.dwSize = sizeof(shi);
    ok = SystemHeapInfo(&shi);
    wsprintf(line, "start %u %u %d\r\n",
             GetFreeSystemResources(GFSR_GDIRESOURCES), shi.wGDIFreePercent,
             ok && shi.hGDISegment != 0);
    out();

    pen = CreatePen(PS_DASH, 1, RGB(1, 2, 3));
    obj("pen", (WORD)pen);
    brush = CreateSolidBrush(RGB(4, 5, 6));
    obj("brush", (WORD)brush);
    font = CreateFont(12, 0, 0, 0, 400, 0, 0, 0, 0, 0, 0, 0, 0, "Courier");
    obj("font", (WORD)font);
    rgn = CreateRectRgn(0, 0, 10, 10);
    obj("rgn", (WORD)rgn);
    pal.ver = 0x300;
    pal.n = 16;
    for (i = 0; i < 16; i++) {
        pal.e[i].peRed = (BYTE)(i * 16);
        pal.e[i].peGreen = 0;
        pal.e[i].peBlue = 0;
        pal.e[i].peFlags = 0;
    }
    hpal = CreatePalette((LOGPALETTE FAR *)&pal);
    obj("palette", (WORD)hpal);
    bm = CreateBitmap(8, 8, 1, 1, NULL);
    obj("bitmap", (WORD)bm);
    mem = CreateCompatibleDC(NULL);
    obj("memdc", (WORD)mem);
    meta = CreateMetaFile(NULL);
    obj("metadc", (WORD)meta);
    for (i = 0; i < 40; i++)
        brushes[i] = CreateSolidBrush(RGB(i, 0, 0));
    figures("made");

    li.dwSize = sizeof(li);
    ok = LocalInfo(&li, shi.hGDISegment);
    wsprintf(line, "info %d %u\r\n", ok, li.wcItems);
    out();
    le.dwSize = sizeof(le);
    n = 0;
    for (ok = LocalFirst(&le, shi.hGDISegment); ok; ok = LocalNext(&le)) {
        wsprintf(line, "entry %04X %04X %u %u %u %u %04X %u %04X\r\n",
                 le.hHandle, le.wAddress, le.wSize, le.wFlags, le.wcLock,
                 le.wType, le.hHeap, le.wHeapType, le.wNext);
        out();
        if (++n > 2000)
            break;
    }
    wsprintf(line, "walked %d\r\n", n);
    out();
    done = MakeProcInstance((FARPROC)Done, hInst);
    (*done)();

    DeleteObject(pen);
    DeleteObject(brush);
    DeleteObject(font);
    DeleteObject(rgn);
    DeleteObject(hpal);
    DeleteObject(bm);
    DeleteDC(mem);
    mf = CloseMetaFile(meta);
    DeleteMetaFile(mf);
    for (i = 0; i < 40; i++)
        DeleteObject(brushes[i]);
    figures("deleted");

    for (n = 0; n < 3000; n++) {
        pens[n] = CreatePen(PS_SOLID, 1, RGB(n, 0, 0));
        if (!pens[n])
            break;
    }
    shi.dwSize = sizeof(shi);
    SystemHeapInfo(&shi);
    wsprintf(line, "pens %d %u %u\r\n", n,
             GetFreeSystemResources(GFSR_GDIRESOURCES), shi.wGDIFreePercent);
    out();
    for (i = 0; i < n; i++)
        DeleteObject(pens[i]);
    figures("back");
    wsprintf(line, "done\r\n");
    out();
    return 0;
}
