/* startup.c: what a Win16 program is given when it starts.
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   cmd [<lpCmdLine>]          WinMain's lpCmdLine between brackets
 *   prev <hPrevInstance != 0> <hPrevInstance == previous hInstance>
 *   show <nCmdShow>
 *   psp <bytes at PSP:80h, hex, up to and with the first 00h after the tail>
 *   env <each string of GetDOSEnvironment(), then the program path after
 *        the 1 word>
 *   dirs <GetWindowsDirectory> <GetSystemDirectory>
 *   inst <hInstance> <hPrevInstance>, hex
 *
 * Expected values: the SDK's WinMain (lpCmdLine "points to a
 * null-terminated string that specifies the command line", hPrevInstance
 * NULL for the first instance, nCmdShow as ShowWindow takes it), InitTask
 * (ES:BX the command line in the PSP), GetDOSEnvironment, and
 * GetWindowsDirectory / GetSystemDirectory.
 */
#include <windows.h>

static char line[512];

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    LPSTR e;
    unsigned char far *psp;
    char *p;
    int i;

    wsprintf(line, "cmd [%s]", lpCmdLine);
    out(line);
    wsprintf(line, "prev %d", hPrev != 0);
    out(line);
    wsprintf(line, "show %d", nCmdShow);
    out(line);

    psp = (unsigned char far *)MAKELP(GetCurrentPDB(), 0x80);
    p = line + wsprintf(line, "psp");
    for (i = 0; i < 0x80; i++) {
        p += wsprintf(p, " %02X", psp[i]);
        if (i > 0 && psp[i] == 0)
            break;
    }
    out(line);

    e = GetDOSEnvironment();
    while (*e) {
        wsprintf(line, "env %s", e);
        out(line);
        e += lstrlen(e) + 1;
    }
    e++;
    wsprintf(line, "env-count %d", *(WORD far *)e);
    out(line);
    e += 2;
    wsprintf(line, "env-path %s", e);
    out(line);

    p = line + wsprintf(line, "dirs ");
    p += GetWindowsDirectory(p, 100);
    *p++ = ' ';
    GetSystemDirectory(p, 100);
    out(line);

    wsprintf(line, "inst %04X %04X", hInst, hPrev);
    out(line);
    return 0;
}
