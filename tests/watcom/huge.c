/* huge.c: huge memory as a large-model Watcom C program uses it
 * (tests/win16_huge.rs). Watcom's huge-pointer arithmetic steps the
 * selector by __AHINCR (KERNEL.114, imported through the program's
 * relocations) when an offset crosses 64 KiB; Microsoft KB Q79194 ("Using
 * Huge Pointers with Blocks of Memory Larger Than 64K", SDK 3.0/3.1):
 * GlobalAlloc gives one contiguous block with tiled selectors, the second
 * being the first plus __AHINCR, each reaching the next 64 KiB.
 *
 * It prints, one line each:
 *   alloc 1 0000 200000  GlobalAlloc(GMEM_MOVEABLE, 200000) + GlobalLock:
 *                        a handle, offset 0, GlobalSize 200000 (a multiple
 *                        of the 32-byte granularity).
 *   tiles 8 16 24        the selectors of p + 64K, 128K, 192K are the
 *                        first plus 1, 2, 3 times __AHINCR (8 in protected
 *                        mode).
 *   walk F9 01 FA BC S   every byte i written as i*7 + i/65536 through a
 *                        huge pointer; bytes 0xFFFF, 0x10000, 0x1FFFF,
 *                        199999 read back, S = the sum of all bytes.
 *   limits 1 D3F         the first tile reaches at least 64 KiB, the last
 *                        (fourth) exactly the block's last bytes
 *                        (200000 - 3*65536 - 1).
 *   handle 1 1           GlobalHandle(first selector): the handle, the
 *                        selector.
 *   recs 5461 -5461 85 10922  an array of 12-byte structs walked through
 *                        the block: element 5461 straddles the first 64 KiB
 *                        boundary (bytes 65532..65543), 10922 the second.
 *   hmemcpy 1 1          hmemcpy (KERNEL.348) of 64 bytes from across the
 *                        first boundary to across the second keeps them.
 *   selector 1 1         AllocSelector + SetSelectorBase(base + 0x18000) +
 *                        SetSelectorLimit(0xFFFF) gives a selector reading
 *                        the block's byte 0x18000 and 0x27FFF (SDK,
 *                        AllocSelector, SetSelectorBase).
 *   grow 1 300000 1 1 1  GlobalReAlloc to 300000 bytes: the same handle
 *                        (moveable), GlobalSize 300000, the first 200000
 *                        bytes kept (byte 0x1FFFF, and struct 5000 read
 *                        through the pointer made before), the new last
 *                        byte writable.
 *   shrink 1 100000 1 1  GlobalReAlloc down to 100000: the same handle,
 *                        GlobalSize 100000, struct 8000 kept (read through
 *                        the new pointer and the one made before).
 *   small 1 50016 1      GlobalReAlloc down to 50000 (one selector): a
 *                        handle, 50016 (rounded to 32), struct 83 kept.
 *   halloc 1 5 8         Watcom's halloc(100000, 1) block is written and
 *                        read across its 64 KiB boundary; its selectors
 *                        are __AHINCR apart.
 *   dll 8 0              HUGEDLL.DLL does the same walks on its own
 *                        (GlobalAlloc and halloc) with __AHINCR from its own
 *                        relocations: the tiles 8 apart, the two sums
 *                        equal.
 */
#include <windows.h>
#include <malloc.h>
#include <dos.h>

static char line[200];

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

struct rec {
    long a;
    long b;
    char c[4];
};

void FAR PASCAL hmemcpy(void _huge *, const void _huge *, long);

typedef long(FAR PASCAL *WALK)(long, int FAR *);

static void dll(void)
{
    HINSTANCE d = LoadLibrary("HUGEDLL.DLL");
    WALK w = d > HINSTANCE_ERROR ? (WALK)GetProcAddress(d, "HugeWalk") : NULL;
    int tiles = 0;
    long r = w ? w(200000L, &tiles) : -9;
    wsprintf(line, "dll %d %ld\r\n", tiles, r);
    out();
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, 200000L);
    HGLOBAL h2;
    char _huge *p = (char _huge *)GlobalLock(h);
    char _huge *q;
    long i, sum = 0;
    UINT sel = FP_SEG(p), mine;
    struct rec _huge *r;
    DWORD gh;
    char FAR *f;

    wsprintf(line, "alloc %d %04X %ld\r\n", h != 0, FP_OFF(p), GlobalSize(h));
    out();
    wsprintf(line, "tiles %d %d %d\r\n", FP_SEG(p + 0x10000L) - sel,
             FP_SEG(p + 0x20000L) - sel, FP_SEG(p + 0x30000L) - sel);
    out();
    for (i = 0; i < 200000L; i++)
        p[i] = (char)(i * 7 + (i >> 16));
    for (i = 0; i < 200000L; i++)
        sum += (unsigned char)p[i];
    wsprintf(line, "walk %02X %02X %02X %02X %ld\r\n", (unsigned char)p[0xFFFFL],
             (unsigned char)p[0x10000L], (unsigned char)p[0x1FFFFL],
             (unsigned char)p[199999L], sum);
    out();
    wsprintf(line, "limits %d %lX\r\n", GetSelectorLimit(sel) >= 0xFFFFL,
             GetSelectorLimit(sel + 24));
    out();
    gh = GlobalHandle(sel);
    wsprintf(line, "handle %d %d\r\n", LOWORD(gh) == h, HIWORD(gh) == sel);
    out();
    r = (struct rec _huge *)p;
    for (i = 0; i < 16000; i++) {
        r[i].a = i;
        r[i].b = -i;
        r[i].c[3] = (char)i;
    }
    wsprintf(line, "recs %ld %ld %d %ld\r\n", r[5461].a, r[5461].b, r[5461].c[3],
             r[10922].a);
    out();
    for (i = 0; i < 64; i++)
        p[0xFFE0L + i] = (char)(i + 1);
    hmemcpy(p + 0x1FFE0L, p + 0xFFE0L, 64L);
    wsprintf(line, "hmemcpy %d %d\r\n", p[0x1FFE0L] == 1, p[0x2001FL] == 64);
    out();
    p[0x18000L] = 'a';
    p[0x27FFFL] = 'b';
    mine = AllocSelector(sel);
    SetSelectorBase(mine, GetSelectorBase(sel) + 0x18000L);
    SetSelectorLimit(mine, 0xFFFFL);
    f = (char FAR *)MAKELP(mine, 0);
    wsprintf(line, "selector %d %d\r\n", f[0] == 'a', f[0xFFFF] == 'b');
    out();
    FreeSelector(mine);
    p[0x1FFFFL] = 'c';
    GlobalUnlock(h);
    h2 = GlobalReAlloc(h, 300000L, GMEM_MOVEABLE);
    q = (char _huge *)GlobalLock(h2);
    q[299999L] = 'z';
    wsprintf(line, "grow %d %ld %d %d %d\r\n", h2 == h, GlobalSize(h2),
             q[0x1FFFFL] == 'c', r[5000].b == -5000L, q[299999L] == 'z');
    out();
    GlobalUnlock(h2);
    h = GlobalReAlloc(h2, 100000L, GMEM_MOVEABLE);
    q = (char _huge *)GlobalLock(h);
    wsprintf(line, "shrink %d %ld %d %d\r\n", h == h2, GlobalSize(h),
             ((struct rec _huge *)q)[8000].a == 8000L, r[8000].b == -8000L);
    out();
    GlobalUnlock(h);
    h2 = GlobalReAlloc(h, 50000L, GMEM_MOVEABLE);
    q = (char _huge *)GlobalLock(h2);
    wsprintf(line, "small %d %ld %d\r\n", h2 != 0, GlobalSize(h2),
             q != NULL && ((struct rec FAR *)q)[83].b == -83L);
    out();
    GlobalUnlock(h2);
    GlobalFree(h2);
    {
        char _huge *ha = halloc(100000L, 1);
        if (ha != NULL) {
            ha[70000L] = 5;
            ha[0xFFFFL] = 3;
        }
        wsprintf(line, "halloc %d %d %d\r\n", ha != NULL, ha ? ha[70000L] + ha[0xFFFFL] - 3 : 0,
                 ha ? FP_SEG(ha + 0x10000L) - FP_SEG(ha) : 0);
        out();
        hfree(ha);
    }
    dll();
    return 0;
}
