/* replyend: a sender of tests/win16_tasks_reply.rs that ends as soon as
 * replyrcv.c's window procedure has replied, while that procedure is
 * still in progress: the receiver goes on with the rest of it, then
 * quits (the WM_USER+9 posted first).
 */
#include <windows.h>

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    char buf[64];
    HWND hwnd = FindWindow("ReplyRcvWnd", NULL);
    PostMessage(hwnd, WM_USER + 9, 0, 0L);
    wsprintf(buf, "sender got %lx\r\n", SendMessage(hwnd, WM_USER + 1, 0, 0L));
    say(buf);
    say("sender ends\r\n");
    return 5;
}
