/* hugedll.c: a large-model Watcom DLL that walks huge blocks on its own
 * (tests/win16_huge.rs; huge.c's header says what it prints). Its huge
 * arithmetic uses __AHINCR from KERNEL.114 resolved in the DLL's own
 * relocations.
 */
#include <windows.h>
#include <malloc.h>
#include <dos.h>

/* Fill a GlobalAlloc'd block of `size` bytes and a halloc'd one the same
 * way through huge pointers; *tiles is the selector step at 64 KiB. The
 * difference of the two blocks' byte sums (0), or -1 / -2 when a block
 * cannot be had. */
long FAR PASCAL _export HugeWalk(long size, int FAR *tiles)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, size);
    char _huge *p = (char _huge *)GlobalLock(h);
    long i, sum = 0;
    char _huge *ha;
    if (p == NULL)
        return -1;
    *tiles = FP_SEG(p + 0x10000L) - FP_SEG(p);
    for (i = 0; i < size; i++)
        p[i] = (char)(i * 7 + (i >> 16));
    for (i = 0; i < size; i++)
        sum += (unsigned char)p[i];
    GlobalUnlock(h);
    GlobalFree(h);
    ha = halloc(size, 1);
    if (ha == NULL)
        return -2;
    for (i = 0; i < size; i++)
        ha[i] = (char)(i * 7 + (i >> 16));
    for (i = 0; i < size; i++)
        sum -= (unsigned char)ha[i];
    hfree(ha);
    return sum;
}

int FAR PASCAL LibMain(HINSTANCE hInst, WORD wDataSeg, WORD cbHeap, LPSTR lpCmdLine)
{
    return 1;
}
