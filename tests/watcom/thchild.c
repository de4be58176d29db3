/* thchild.c: started by thnotify.c (tests/toolhelp_notify.rs). Writes a
 * debug string, loads and frees THNDLL.DLL, and ends with exit code 3. */
#include <windows.h>

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    HINSTANCE h;
    OutputDebugString("child hello");
    h = LoadLibrary("THNDLL.DLL");
    if ((UINT)h >= 32)
        FreeLibrary(h);
    return 3;
}
