/* bigres.c: a resource larger than 64 KiB (tests/win16_huge.rs). The RCDATA
 * resource BIG (bigres.rc) is 70000 bytes, the digits 0-9 repeated.
 * LoadResource loads it into one huge block, reached through tiled
 * selectors (KB Q79194), so a huge pointer from LockResource reads all of
 * it. It prints:
 *   bigres 70000 70016 1 0 7 9   SizeofResource (the resource's length in
 *                                the file, a multiple of the alignment
 *                                unit, here 16), GlobalSize (rounded up to
 *                                32), a pointer, bytes 0, 65537, 69999.
 */
#include <windows.h>

static char line[200];

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HRSRC r = FindResource(hi, "BIG", RT_RCDATA);
    HGLOBAL h = LoadResource(hi, r);
    char _huge *p = (char _huge *)LockResource(h);
    wsprintf(line, "bigres %ld %ld %d %c %c %c\r\n", SizeofResource(hi, r),
             GlobalSize(h), p != NULL, p ? p[0] : '-', p ? p[65537L] : '-',
             p ? p[69999L] : '-');
    _lwrite(1, line, lstrlen(line));
    FreeResource(h);
    return 0;
}
