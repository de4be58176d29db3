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
 * Free arenas and sentinels (Windows 3.1 SDK, GlobalFirst, GLOBALINFO;
 * KRNL386 chained the heap between two sentinel arenas):
 *   freed FOUND WCFREE WALKEDFREE  a 4096-byte fixed block just freed is a
 *                   GLOBAL_FREE item at its address (hBlock 0, hOwner 0,
 *                   GT_FREE, at least its size); GlobalInfo's wcItemsFree
 *                   counts the GLOBAL_FREE walk
 *   ends T0 S0 TN SN  the GLOBAL_ALL walk's first and last items' wType
 *                   and dwBlockSize
 *   kinds TASK MODULE PDB PDBFLAGS  GlobalEntryHandle's wType of the
 *                   task (GetCurrentTask), the module database, the PSP
 *                   (GetCurrentPDB), and the PSP's wFlags
 * and the documented failures (each returns nonzero if successful):
 *   gerrors A B C D E F G H I  GlobalFirst with wFlags 3; GlobalFirst with
 *                   dwSize 0; GlobalInfo with dwSize 0; GlobalEntryHandle
 *                   of 0; of the freed block's handle; of a discarded
 *                   block; GlobalEntryModule of hModule 0; of segment 0;
 *                   GlobalNext after the last GLOBAL_ALL item
 * Last, as HEAPWALK listed the heap: every GLOBAL_ALL item, checked with
 * GlobalEntryHandle where it has a handle, and LocalInfo on each DGROUP:
 *   g ADDRESS SIZE HBLOCK LOCK PLOCK FLAGS HEAP OWNER TYPE DATA SAME
 *                   SAME: GlobalEntryHandle gave the same address, size
 *                   and type (1), or the item has no handle (-)
 *   dg HBLOCK OK WCITEMS  LocalInfo on a GT_DGROUP block
 *   gend N WCITEMS  items walked, GlobalInfo's wcItems
 * and calls its exported Done (through MakeProcInstance's thunk, which
 * loads its DS), where `toolhelp16 heap --at HEAPWALK!DONE` stops: the
 * heap then is the heap of the last walk.
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
    DWORD addr, s0;
    WORD t0, tn;
    HGLOBAL gd2;

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

    /* Free arenas. */
    g = GlobalAlloc(GMEM_FIXED, 4096);
    ge.dwSize = sizeof(ge);
    GlobalEntryHandle(&ge, g);
    addr = ge.dwAddress;
    GlobalFree(g);
    found = 0;
    n = 0;
    ge.dwSize = sizeof(ge);
    for (ok = GlobalFirst(&ge, GLOBAL_FREE); ok; ok = GlobalNext(&ge, GLOBAL_FREE)) {
        if (ge.dwAddress <= addr && addr + 4096 <= ge.dwAddress + ge.dwBlockSize
            && ge.hBlock == 0 && ge.hOwner == 0 && ge.wType == GT_FREE)
            found = 1;
        if (++n > 10000)
            break;
    }
    gi.dwSize = sizeof(gi);
    GlobalInfo(&gi);
    wsprintf(line, "freed %d %u %d\r\n", found, gi.wcItemsFree, n);
    out();

    /* The walk's two ends. */
    ge.dwSize = sizeof(ge);
    GlobalFirst(&ge, GLOBAL_ALL);
    t0 = ge.wType;
    s0 = ge.dwBlockSize;
    while (GlobalNext(&ge, GLOBAL_ALL))
        ;
    wsprintf(line, "ends %u %lu %u %lu\r\n", t0, s0, ge.wType, ge.dwBlockSize);
    out();
    a = GlobalNext(&ge, GLOBAL_ALL);

    /* Blocks of every kind. */
    ge.dwSize = sizeof(ge);
    GlobalEntryHandle(&ge, (HGLOBAL)GetCurrentTask());
    t0 = ge.wType;
    GlobalEntryHandle(&ge, (HGLOBAL)hmod);
    tn = ge.wType;
    GlobalEntryHandle(&ge, (HGLOBAL)GetCurrentPDB());
    wsprintf(line, "kinds %u %u %u %04X\r\n", t0, tn, ge.wType, ge.wFlags);
    out();

    /* Failures. */
    gd2 = GlobalAlloc(GMEM_MOVEABLE | GMEM_DISCARDABLE, 100);
    GlobalDiscard(gd2);
    ge.dwSize = sizeof(ge);
    b = GlobalFirst(&ge, 3);
    ge.dwSize = 0;
    c = GlobalFirst(&ge, GLOBAL_ALL);
    gi.dwSize = 0;
    d = GlobalInfo(&gi);
    ge.dwSize = sizeof(ge);
    wsprintf(line, "gerrors %d %d %d %d %d %d %d %d %d\r\n", b, c, d,
             GlobalEntryHandle(&ge, 0), GlobalEntryHandle(&ge, g),
             GlobalEntryHandle(&ge, gd2), GlobalEntryModule(&ge, 0, 1),
             GlobalEntryModule(&ge, hmod, 0), a);
    out();

    /* HEAPWALK's list. */
    n = 0;
    ge.dwSize = sizeof(ge);
    for (ok = GlobalFirst(&ge, GLOBAL_ALL); ok; ok = GlobalNext(&ge, GLOBAL_ALL)) {
        char same[4];
        lstrcpy(same, "-");
        if (ge.hBlock != 0) {
            GLOBALENTRY h;
            h.dwSize = sizeof(h);
            wsprintf(same, "%d", GlobalEntryHandle(&h, ge.hBlock)
                     && h.dwAddress == ge.dwAddress
                     && h.dwBlockSize == ge.dwBlockSize
                     && h.wType == ge.wType);
        }
        wsprintf(line, "g %08lX %08lX %04X %u %u %04X %u %04X %u %u %s\r\n",
                 ge.dwAddress, ge.dwBlockSize, ge.hBlock, ge.wcLock,
                 ge.wcPageLock, ge.wFlags, ge.wHeapPresent, ge.hOwner,
                 ge.wType, ge.wData, (LPSTR)same);
        out();
        if (ge.wType == GT_DGROUP) {
            li.dwSize = sizeof(li);
            li.wcItems = 0;
            ok = LocalInfo(&li, ge.hBlock);
            wsprintf(line, "dg %04X %d %u\r\n", ge.hBlock, ok, li.wcItems);
            out();
        }
        if (++n > 10000)
            break;
    }
    gi.dwSize = sizeof(gi);
    GlobalInfo(&gi);
    wsprintf(line, "gend %d %u\r\n", n, gi.wcItems);
    out();
    (*done)();
    return 0;
}
