/* thgp.c: HasGPHandler over the program's own `__GP` table (an exported
 * array of four-word entries: selector, first offset, offset past the
 * end, handler offset; a selector of 0 ends it). The program fills the
 * table at run time with a range of its own code, then prints one line
 * (CR LF) on standard output:
 *
 *   gp <inside> <at the end> <other segment> <no table entry>
 *
 * each 1 when HasGPHandler answered as Windows 3.1 did: the handler's far
 * address (selector of the range, handler offset) for an address inside
 * the range, NULL at the range's end offset (it is exclusive), NULL for
 * an address in another of the module's segments, and NULL once the
 * table is emptied.
 *
 * With "f" on its command line it then declares a handler (recover) for
 * the code of faulty, which reads through a null selector: the general
 * protection fault goes, with no TOOLHELP handler registered, to that
 * handler (Windows 3.1's KERNEL consulted HasGPHandler before its
 * Application Error), which prints "recovered" and ends with code 5.
 */
#include <windows.h>

#pragma aux __GP "*"
WORD __export __GP[9];

static int target(int x)
{
    return x * 3 + 1;
}

static char line[64];

static int faulty(void)
{
    return *(int far *)MAKELP(0, 0x10);
}

static void recover(void)
{
    _lwrite(1, "recovered\r\n", 11);
    _asm {
        mov ax, 4C05h
        int 21h
    }
}

/* KERNEL.338, which the import library does not name. */
typedef LPVOID (FAR PASCAL *HASGPHANDLER)(LPVOID);

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    int (far *f)(int) = target;
    WORD sel = SELECTOROF(f), off = OFFSETOF(f);
    WORD dsel = SELECTOROF((void far *)line);
    LPVOID inside, at_end, other, none;
    HASGPHANDLER HasGPHandler =
        (HASGPHANDLER)GetProcAddress(GetModuleHandle("KERNEL"), MAKEINTRESOURCE(338));

    __GP[0] = sel;
    __GP[1] = off;
    __GP[2] = off + 4;
    __GP[3] = off + 2;
    __GP[4] = 0;
    inside = HasGPHandler(MAKELP(sel, off + 1));
    at_end = HasGPHandler(MAKELP(sel, off + 4));
    other = HasGPHandler(MAKELP(dsel, off + 1));
    __GP[0] = 0;
    none = HasGPHandler(MAKELP(sel, off + 1));
    wsprintf(line, "gp %d %d %d %d",
             inside == MAKELP(sel, off + 2), at_end == NULL, other == NULL, none == NULL);
    _lwrite(1, line, lstrlen(line));
    _lwrite(1, "\r\n", 2);
    if (lpCmdLine[0] == 'f') {
        int (far *g)(void) = faulty;
        void (far *h)(void) = recover;
        if (SELECTOROF(g) != SELECTOROF(h))
            return 9;
        __GP[0] = SELECTOROF(g);
        __GP[1] = OFFSETOF(g);
        __GP[2] = OFFSETOF(g) + 0x30;
        __GP[3] = OFFSETOF(h);
        __GP[4] = 0;
        return faulty();
    }
    return target(0) - 1;
}
