/* nodll: LoadLibrary of a library that is not there
 * (tests/win16_behave.rs).
 *
 * KB Q111610 ("Suppressing 'Cannot Find MYDLL.DLL' Error Box", Windows
 * SDK 3.0 and 3.1): LoadLibrary of a DLL not in the Windows path shows a
 * file error message box, "Cannot find MYDLL.DLL", then returns 2 (file
 * not found); after SetErrorMode(SEM_NOOPENFILEERRORBOX) it returns 2
 * without the box. Prints:
 *   first 2
 *   quiet 2
 */
#include <windows.h>

static void say(const char *what, UINT r)
{
    char buf[64];
    int n = wsprintf(buf, "%s %u\r\n", (LPSTR)what, r);
    _lwrite(1, buf, n);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    say("first", (UINT)LoadLibrary("nosuch"));
    SetErrorMode(SEM_NOOPENFILEERRORBOX);
    say("quiet", (UINT)LoadLibrary("OTHER.DLL"));
    return 0;
}
