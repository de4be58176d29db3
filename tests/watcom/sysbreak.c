/* sysbreak.c: breakpoints on built-in DLL functions by name
 * (tests/system_locations.rs).
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   version <GetVersion(), hex>: a call through the program's import of
 *        KERNEL.3 (the SDK's GetVersion), from Probe;
 *   proc <SEL:OFF>: what GetProcAddress(GetModuleHandle("USER"),
 *        "GETTICKCOUNT") returns: the address of USER.13 GetTickCount,
 *        which this program does not import (Windows 3.1 SDK,
 *        GetProcAddress: "retrieves the address of the given module
 *        function"); then the program calls it through that pointer.
 */
#include <windows.h>

static char line[128];

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

typedef DWORD (FAR PASCAL *TICKPROC)(void);

static void Probe(void)
{
    DWORD v = GetVersion();
    wsprintf(line, "version %04X", (UINT)LOWORD(v));
    out(line);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    TICKPROC tick;
    Probe();
    tick = (TICKPROC)GetProcAddress(GetModuleHandle("USER"), "GETTICKCOUNT");
    wsprintf(line, "proc %04X:%04X", SELECTOROF(tick), OFFSETOF(tick));
    out(line);
    tick();
    return 0;
}
