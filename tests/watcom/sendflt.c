/* sendflt: sends ddesrv's window a message whose handling faults
 * (tests/win16_tasks_dde.rs). The fault happens in the server's task, on
 * its stack: the report is the server's.
 */
#include <windows.h>

unsigned get_ss(void);
#pragma aux get_ss = "mov ax,ss" value [ax];

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    char buf[64];
    HWND hwnd = FindWindow("TestSrvWnd", NULL);
    wsprintf(buf, "sender ss %04X\r\n", get_ss());
    _lwrite(1, buf, lstrlen(buf));
    wsprintf(buf, "sender got %ld\r\n", SendMessage(hwnd, WM_USER + 6, 0, 0L));
    _lwrite(1, buf, lstrlen(buf));
    return 3;
}
