/* thchild.c: started by thnotify.c (tests/toolhelp_notify.rs). Writes a
 * debug string, loads and frees THNDLL.DLL, reports a parameter error
 * (ERR_BAD_VALUE 6001h, the value 12345678h), and ends with exit code 3. */
#include <windows.h>

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    HINSTANCE h;
    OutputDebugString("child hello");
    h = LoadLibrary("THNDLL.DLL");
    if ((UINT)h >= 32)
        FreeLibrary(h);
    LogParamError(0x6001, (FARPROC)WinMain, (void FAR *)0x12345678L);
    return 3;
}
