/* heapwalk.c: a TOOLHELP heap walker walking its own heaps
 * (tests/toolhelp_heap.rs). Built in the small model and linked with
 * toolhelp.lib.
 *
 * It allocates four local blocks from its DGROUP's heap and prints what
 * KERNEL told it about each:
 *   mine KIND HANDLE ADDRESS SIZE FLAGS
 *     KIND fixed (LMEM_FIXED, 21 bytes), locked (LMEM_MOVEABLE, 40 bytes,
 *     locked once), discard (LMEM_MOVEABLE | LMEM_DISCARDABLE, 30 bytes,
 *     unlocked), freed (LMEM_FIXED, 50 bytes, then LocalFree'd); HANDLE
 *     LocalAlloc's answer, ADDRESS the block's data (LocalLock's answer),
 *     SIZE LocalSize, FLAGS LocalFlags (all taken before the freed block
 *     was freed);
 *   heap HHEAP: the global handle of DGROUP, LOWORD(GlobalHandle(hInst));
 * then walks the local heap with LocalInfo, LocalFirst and LocalNext:
 *   info OK WCITEMS
 *   entry HHANDLE WADDRESS WSIZE WFLAGS WCLOCK WTYPE HHEAP WHEAPTYPE WNEXT
 *   walked N       entries LocalFirst/LocalNext gave
 *   after 0        LocalNext after the last entry answers FALSE
 * and TOOLHELP's documented failures (Windows 3.1 SDK, LocalFirst,
 * LocalInfo: nonzero if successful):
 *   errors A B C D  LocalFirst with dwSize 0; LocalInfo with hHeap 0;
 *                   LocalFirst on a GlobalAlloc'd block without a heap;
 *                   LocalInfo with dwSize sizeof(LOCALINFO) + 1.
 * The global heap (GlobalInfo, GlobalFirst/GlobalNext):
 *   global WCITEMS WALKED LRUITEMS LRUWALKED
 *   dgroup OK WTYPE WHEAPPRESENT OWNER-IS-MODULE SIZE-IS-GLOBALSIZE WDATA
 *                   GlobalEntryHandle of DGROUP
 *   code OK WTYPE WDATA OWNER-IS-MODULE  GlobalEntryModule(hModule, 1)
 *   noseg OK        GlobalEntryModule(hModule, 99)
 *   private OK WTYPE WHEAPPRESENT SIZE-IS-GLOBALSIZE
 *                   GlobalEntryHandle of a GlobalAlloc'd block
 *   lru FOUND       the GMEM_DISCARDABLE block it allocated is on the
 *                   GLOBAL_LRU walk
 *   memman OK LARGEST-IS-COMPACT FREE-PAGES-ARE-FREESPACE PAGESIZE
 *                   MemManInfo: dwLargestFreeBlock is GlobalCompact(0)'s
 *                   answer, dwFreePages * wPageSize is GetFreeSpace(0)
 *                   in whole pages, wPageSize 4096 (a 386)
 * and calls its exported Done (through MakeProcInstance's thunk, which
 * loads its DS), where `toolhelp16 heap --at HEAPWALK!DONE` stops.
 */
#include <windows.h>
#include <toolhelp.h>

static char line[200];

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

void FAR PASCAL __export Done(void)
{
    wsprintf(line, "done\r\n");
    out();
}

static void mine(const char *kind, HLOCAL h, WORD addr)
{
    wsprintf(line, "mine %s %04X %04X %u %04X\r\n", (LPSTR)kind, h, addr,
             LocalSize(h), LocalFlags(h));
    out();
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    HLOCAL hf, hm, hd, hx;
    WORD pm, pd;
    HGLOBAL hheap, g;
    HMODULE hmod;
    LOCALINFO li;
    LOCALENTRY le;
    GLOBALINFO gi;
    GLOBALENTRY ge;
    int n, ok, a, b, c, d, lru;
    FARPROC done;
    HGLOBAL gd;
    MEMMANINFO mmi;
    DWORD free;
    int found;

    hf = LocalAlloc(LMEM_FIXED, 21);
    hm = LocalAlloc(LMEM_MOVEABLE, 40);
    hd = LocalAlloc(LMEM_MOVEABLE | LMEM_DISCARDABLE, 30);
    hx = LocalAlloc(LMEM_FIXED, 50);
    pm = (WORD)LocalLock(hm);
    pd = (WORD)LocalLock(hd);
    LocalUnlock(hd);
    mine("fixed", hf, (WORD)hf);
    mine("locked", hm, pm);
    mine("discard", hd, pd);
    mine("freed", hx, (WORD)hx);
    LocalFree(hx);
    hheap = (HGLOBAL)LOWORD(GlobalHandle((UINT)hInst));
    wsprintf(line, "heap %04X\r\n", hheap);
    out();

    li.dwSize = sizeof(li);
    ok = LocalInfo(&li, hheap);
    wsprintf(line, "info %d %u\r\n", ok, li.wcItems);
    out();
    le.dwSize = sizeof(le);
    n = 0;
    for (ok = LocalFirst(&le, hheap); ok; ok = LocalNext(&le)) {
        wsprintf(line, "entry %04X %04X %u %u %u %u %04X %u %04X\r\n",
                 le.hHandle, le.wAddress, le.wSize, le.wFlags, le.wcLock,
                 le.wType, le.hHeap, le.wHeapType, le.wNext);
        out();
        if (++n > 1000)
            break;
    }
    wsprintf(line, "walked %d\r\n", n);
    out();
    wsprintf(line, "after %d\r\n", LocalNext(&le));
    out();

    le.dwSize = 0;
    a = LocalFirst(&le, hheap);
    li.dwSize = sizeof(li);
    b = LocalInfo(&li, 0);
    g = GlobalAlloc(GMEM_MOVEABLE, 200);
    le.dwSize = sizeof(le);
    c = LocalFirst(&le, g);
    li.dwSize = sizeof(li) + 1;
    d = LocalInfo(&li, hheap);
    wsprintf(line, "errors %d %d %d %d\r\n", a, b, c, d);
    out();

    gd = GlobalAlloc(GMEM_MOVEABLE | GMEM_DISCARDABLE, 100);
    gi.dwSize = sizeof(gi);
    GlobalInfo(&gi);
    ge.dwSize = sizeof(ge);
    n = 0;
    for (ok = GlobalFirst(&ge, GLOBAL_ALL); ok; ok = GlobalNext(&ge, GLOBAL_ALL))
        if (++n > 10000)
            break;
    lru = 0;
    found = 0;
    ge.dwSize = sizeof(ge);
    for (ok = GlobalFirst(&ge, GLOBAL_LRU); ok; ok = GlobalNext(&ge, GLOBAL_LRU)) {
        if (ge.hBlock == gd)
            found = 1;
        if (++lru > 10000)
            break;
    }
    wsprintf(line, "global %u %d %u %d\r\n", gi.wcItems, n, gi.wcItemsLRU, lru);
    out();

    hmod = GetModuleHandle("HEAPWALK");
    ge.dwSize = sizeof(ge);
    ok = GlobalEntryHandle(&ge, hheap);
    wsprintf(line, "dgroup %d %u %u %d %d %u\r\n", ok, ge.wType, ge.wHeapPresent,
             ge.hOwner == hmod, ge.dwBlockSize == GlobalSize(hheap), ge.wData);
    out();
    ok = GlobalEntryModule(&ge, hmod, 1);
    wsprintf(line, "code %d %u %u %d\r\n", ok, ge.wType, ge.wData,
             ge.hOwner == hmod);
    out();
    wsprintf(line, "noseg %d\r\n", GlobalEntryModule(&ge, hmod, 99));
    out();
    ok = GlobalEntryHandle(&ge, g);
    wsprintf(line, "private %d %u %u %d\r\n", ok, ge.wType, ge.wHeapPresent,
             ge.dwBlockSize == GlobalSize(g));
    out();
    done = MakeProcInstance((FARPROC)Done, hInst);
    wsprintf(line, "lru %d\r\n", found);
    out();
    mmi.dwSize = sizeof(mmi);
    ok = MemManInfo(&mmi);
    free = GetFreeSpace(0);
    wsprintf(line, "memman %d %d %d %u\r\n", ok,
             mmi.dwLargestFreeBlock == GlobalCompact(0),
             mmi.dwFreePages == free / mmi.wPageSize, mmi.wPageSize);
    out();
    (*done)();
    return 0;
}
