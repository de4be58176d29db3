/* memory.c: KERNEL's local and global heaps as a small-model Watcom C
 * program uses them (tests/win16_memory.rs). Built with -ms: the C
 * runtime's malloc takes its blocks from the local heap in DGROUP, whose
 * declared size is Watcom's default 400h bytes.
 *
 * It prints, one line each (expected values: Windows 3.1 SDK):
 *   malloc 40 1       40 mallocs of 256 bytes, far beyond the declared
 *                     heap, all succeed and keep their bytes: KERNEL grows
 *                     DGROUP when the local heap is full (SDK, "Memory
 *                     Management": the local heap grows up to 64K).
 *   local 1 1 1 1 0 1 LocalAlloc(LMEM_MOVEABLE, 10) gives a handle that
 *                     LocalLock turns into a different pointer, LocalSize
 *                     >= 10, LocalHandle(pointer) is the handle, the lock
 *                     count in LocalFlags is 1, LocalUnlock answers 0 once
 *                     the count is 0, LocalCompact(0) answers the largest
 *                     free block (nonzero).
 *   zero 1 1 1 0 1 1  GlobalAlloc(GMEM_MOVEABLE, 0): a handle, GlobalLock
 *                     NULL, GMEM_DISCARDED in GlobalFlags, GlobalSize 0;
 *                     GlobalReAlloc(h, 100, GMEM_MOVEABLE) gives it memory
 *                     under the same handle, and GlobalLock works.
 *   discard 1 1 1 1   GlobalDiscard of an unlocked discardable block keeps
 *                     the handle, GlobalFlags shows GMEM_DISCARDED and
 *                     GMEM_DISCARDABLE, GlobalLock answers NULL, a locked
 *                     block is not discarded (GlobalDiscard answers 0).
 *   modify 1 1 1      GlobalReAlloc(h, 0, GMEM_MODIFY | GMEM_MOVEABLE)
 *                     makes a fixed block moveable (a handle), GMEM_MODIFY
 *                     | GMEM_DISCARDABLE makes it discardable, the bytes
 *                     stay.
 *   grow 1 1 1        GlobalReAlloc grows a block to 40000 bytes and
 *                     shrinks it to 50, its first bytes kept each time.
 *   fail 0 1 1        a GlobalReAlloc that cannot be granted (32 MiB)
 *                     answers NULL and leaves the block as it was.
 *   compact 1 1       what GlobalCompact(0) says is free can be allocated.
 *   notify 1 1        GlobalCompact(-1) discards an unlocked discardable
 *                     block, calling the GlobalNotify procedure with its
 *                     handle first (GMEM_NOTIFY).
 *   localinit 1 1 1 1 1 1
 *                     LocalInit on a 400h-byte GlobalAlloc'd block
 *                     succeeds; with DS switched to it, LocalAlloc of 20h
 *                     and of 800h bytes (more than the block) succeed,
 *                     LocalSize is at least what was asked, and the block
 *                     grew (GlobalSize > 400h): KERNEL enlarges the heap's
 *                     segment (SDK, LocalInit and LocalAlloc).
 *   heapinfo 1 1      the instance data's pLocalHeap word (DS:06) points at
 *                     the heap information block, whose last word is 'LH'
 *                     (484Ch), and whose first arena's next arena is the
 *                     information block's (Pietrek, "Windows Internals",
 *                     the local heap).
 */
#include <windows.h>
#include <stdlib.h>
#include <string.h>

static char line[160];
static HGLOBAL notified;

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

BOOL FAR PASCAL _export NotifyProc(HGLOBAL h)
{
    notified = h;
    return TRUE;
}

static void heap_malloc(void)
{
    char *p[40];
    int i, n = 0, ok = 1;
    for (i = 0; i < 40; i++) {
        p[i] = malloc(256);
        if (p[i] == NULL)
            break;
        memset(p[i], i + 1, 256);
        n++;
    }
    for (i = 0; i < n; i++) {
        if (p[i][0] != (char)(i + 1) || p[i][255] != (char)(i + 1))
            ok = 0;
    }
    wsprintf(line, "malloc %d %d\r\n", n, ok);
    out();
}

static void local_moveable(void)
{
    HLOCAL h = LocalAlloc(LMEM_MOVEABLE, 10);
    char NEAR *p = LocalLock(h);
    UINT flags = LocalFlags(h);
    UINT size = LocalSize(h);
    HLOCAL back = LocalHandle((UINT)p);
    UINT unlock = LocalUnlock(h);
    UINT largest = LocalCompact(0);
    wsprintf(line, "local %d %d %d %d %d %d\r\n", h != 0 && (UINT)p != (UINT)h,
             size >= 10, back == h, (flags & LMEM_LOCKCOUNT) == 1, unlock,
             largest != 0);
    out();
    LocalFree(h);
}

static void global_zero(void)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, 0);
    void FAR *p = GlobalLock(h);
    UINT flags = GlobalFlags(h);
    DWORD size = GlobalSize(h);
    HGLOBAL r = GlobalReAlloc(h, 100, GMEM_MOVEABLE);
    char FAR *q = GlobalLock(h);
    if (q != NULL)
        q[99] = 'x';
    wsprintf(line, "zero %d %d %d %ld %d %d\r\n", h != 0, p == NULL,
             (flags & GMEM_DISCARDED) != 0, size, r == h,
             q != NULL && GlobalSize(h) >= 100);
    out();
    GlobalUnlock(h);
    GlobalFree(h);
}

static void global_discard(void)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE | GMEM_DISCARDABLE, 64);
    HGLOBAL locked = GlobalAlloc(GMEM_MOVEABLE | GMEM_DISCARDABLE, 64);
    HGLOBAL d;
    UINT flags;
    GlobalLock(locked);
    d = GlobalDiscard(h);
    flags = GlobalFlags(h);
    wsprintf(line, "discard %d %d %d %d\r\n", d == h,
             (flags & (GMEM_DISCARDED | GMEM_DISCARDABLE))
                 == (GMEM_DISCARDED | GMEM_DISCARDABLE),
             GlobalLock(h) == NULL, GlobalDiscard(locked) == 0);
    out();
    GlobalUnlock(locked);
    GlobalFree(locked);
    GlobalFree(h);
}

static void global_modify(void)
{
    HGLOBAL h = GlobalAlloc(GMEM_FIXED, 32);
    HGLOBAL m;
    char FAR *p = GlobalLock(h);
    lstrcpy(p, "kept");
    GlobalUnlock(h);
    m = GlobalReAlloc(h, 0, GMEM_MODIFY | GMEM_MOVEABLE);
    GlobalReAlloc(m, 0, GMEM_MODIFY | GMEM_DISCARDABLE);
    p = GlobalLock(m);
    wsprintf(line, "modify %d %d %d\r\n", m != 0,
             (GlobalFlags(m) & GMEM_DISCARDABLE) != 0,
             p != NULL && lstrcmp(p, "kept") == 0);
    out();
    GlobalUnlock(m);
    GlobalFree(m);
}

static void global_grow(void)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, 100), g, s;
    char FAR *p = GlobalLock(h);
    int big, small;
    lstrcpy(p, "bytes");
    GlobalUnlock(h);
    g = GlobalReAlloc(h, 40000L, GMEM_MOVEABLE);
    p = GlobalLock(g);
    big = g != 0 && GlobalSize(g) >= 40000L && lstrcmp(p, "bytes") == 0;
    p[39999u] = 1;
    GlobalUnlock(g);
    s = GlobalReAlloc(g, 50, GMEM_MOVEABLE);
    p = GlobalLock(s);
    small = s != 0 && GlobalSize(s) >= 50 && GlobalSize(s) < 40000L;
    wsprintf(line, "grow %d %d %d\r\n", big, small, lstrcmp(p, "bytes") == 0);
    out();
    GlobalUnlock(s);
    GlobalFree(s);
}

static void global_fail(void)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, 64);
    char FAR *p = GlobalLock(h);
    HGLOBAL r;
    lstrcpy(p, "intact");
    GlobalUnlock(h);
    r = GlobalReAlloc(h, 0x2000000L, GMEM_MOVEABLE);
    p = GlobalLock(h);
    wsprintf(line, "fail %d %d %d\r\n", r != 0, GlobalSize(h) == 64,
             p != NULL && lstrcmp(p, "intact") == 0);
    out();
    GlobalUnlock(h);
    GlobalFree(h);
}

static void global_compact(void)
{
    DWORD n = GlobalCompact(0);
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, n);
    wsprintf(line, "compact %d %d\r\n", n > 0x100000L, h != 0 && GlobalSize(h) >= n);
    out();
    GlobalFree(h);
}

static void global_notify(void)
{
    HGLOBAL h;
    GlobalNotify((GNOTIFYPROC)NotifyProc);
    h = GlobalAlloc(GMEM_MOVEABLE | GMEM_DISCARDABLE | GMEM_NOTIFY, 128);
    GlobalCompact(-1L);
    wsprintf(line, "notify %d %d\r\n", notified == h,
             (GlobalFlags(h) & GMEM_DISCARDED) != 0);
    out();
    GlobalFree(h);
}

/* LocalAlloc(LMEM_FIXED, size) and LocalSize(h) with DS = sl, as a
 * program with several local heaps calls them. */
static HLOCAL alloc_in(WORD sl, UINT size)
{
    HLOCAL r;
    _asm {
        push ds
        mov ax, sl
        mov ds, ax
        xor ax, ax
        push ax
        push size
        call LocalAlloc
        pop ds
        mov r, ax
    }
    return r;
}

static UINT size_in(WORD sl, HLOCAL h)
{
    UINT r;
    _asm {
        push ds
        mov ax, sl
        mov ds, ax
        push h
        call LocalSize
        pop ds
        mov r, ax
    }
    return r;
}

static void local_init(void)
{
    HGLOBAL g = GlobalAlloc(GMEM_MOVEABLE, 0x400);
    WORD sl = SELECTOROF(GlobalLock(g));
    BOOL ok = LocalInit(sl, 0x10, 0x3FF);
    HLOCAL a = alloc_in(sl, 0x20);
    HLOCAL b = alloc_in(sl, 0x800);
    wsprintf(line, "localinit %d %d %d %d %d %d\r\n", ok != 0, a != 0, b != 0,
             size_in(sl, a) >= 0x20, size_in(sl, b) >= 0x800,
             GlobalSize(g) > 0x400);
    out();
    GlobalUnlock(g);
    GlobalFree(g);
}

static void heap_info(void)
{
    WORD info = *(WORD __near *)6;
    WORD first = *(WORD __near *)(info + 6);
    WORD next = *(WORD __near *)(first + 2);
    wsprintf(line, "heapinfo %d %d\r\n", *(WORD __near *)(info + 0x28) == 0x484C,
             next + 4 == info);
    out();
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    heap_malloc();
    local_moveable();
    global_zero();
    global_discard();
    global_modify();
    global_grow();
    global_fail();
    global_compact();
    global_notify();
    local_init();
    heap_info();
    return 0;
}
